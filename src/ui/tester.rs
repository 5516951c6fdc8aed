//! The tester: the path being tested, the verdict in words, the deciding line, how the
//! group was chosen, the rules that matched and lost, and whether the readings agree.

use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

use super::pane_block;
use super::text::safe_span;
use super::theme::THEME;
use crate::app::{App, Mode, Pane};
use crate::policy::verdict::describe_selection;
use crate::policy::{Reading, Verdict};

/// The label before the path.
const PATH_LABEL: &str = " Path ▸ ";

/// The tester pane, drawn from the app's state.
#[derive(Debug)]
pub struct TesterPane<'a> {
    /// The state to draw.
    pub app: &'a App,
}

impl TesterPane<'_> {
    /// Where the terminal cursor goes while the path is typed.
    #[must_use]
    pub fn cursor_position(&self, area: Rect) -> Option<Position> {
        (*self.app.mode() == Mode::EditingPath).then(|| {
            let x = area.x + 1 + PATH_LABEL.chars().count() as u16 + self.app.path().cursor() as u16;
            Position::new(x.min(area.right().saturating_sub(2)), area.y + 1)
        })
    }
}

impl Widget for TesterPane<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let app = self.app;
        let typing = *app.mode() == Mode::EditingPath;
        let title =
            if typing { " Tester · Enter keeps the path, Esc leaves " } else { " Tester · / to type a path " };
        let block = pane_block(title, app.focus() == Pane::Tester);
        let txt = &app.document().txt;
        let evaluation = app.evaluation();
        let verdict = &evaluation.verdict;
        let robot = app.robot();
        let reading = app.reading();
        let interpretation = txt.interpretation(reading);

        let mut path_line = vec![Span::styled(PATH_LABEL, THEME.dim)];
        path_line.extend(safe_span(app.path().text(), THEME.value, THEME.escape));
        let mut lines = vec![Line::from(path_line), verdict_line(app, verdict)];

        let group = describe_selection(interpretation, &verdict.selection, &robot.profile.robot(), reading);
        lines.push(Line::from(vec![Span::styled(" Group  ", THEME.dim), Span::raw(upper_first(&group))]));
        lines.push(Line::from(vec![Span::raw(" "), Span::raw(verdict.explanation.clone())]));
        if !verdict.losers.is_empty() {
            let lost: Vec<String> = verdict
                .losers
                .iter()
                .map(|m| {
                    let rule = &interpretation.groups[m.group].rules[m.rule];
                    format!("line {} {}", m.line, crate::policy::escape::sanitize_str(&txt.rule_text(rule)))
                })
                .collect();
            lines.push(Line::from(vec![
                Span::styled(" Also matched  ", THEME.dim),
                Span::styled(lost.join(" · "), THEME.dim),
            ]));
        }
        lines.push(readings_line(evaluation.allowed_by_reading, reading, evaluation.readings_disagree()));
        Paragraph::new(lines).block(block).wrap(Wrap { trim: false }).render(area, buf);
    }
}

fn verdict_line(app: &App, verdict: &Verdict) -> Line<'static> {
    let (word, style) =
        if verdict.allowed { ("✓ ALLOWED", THEME.allowed) } else { ("✗ DISALLOWED", THEME.disallowed) };
    let robot = app.robot();
    let reading = app.reading();
    let default = if reading == robot.profile.reading { ", its default" } else { "" };
    let mut spans = vec![Span::raw(" "), Span::styled(word, style), Span::raw("  ")];
    spans.extend(safe_span(&robot.profile.name, THEME.title, THEME.escape));
    spans.push(Span::styled(format!(" · {}{default}", reading.title()), THEME.dim));
    if let Some(decider) = verdict.decided_by {
        let txt = &app.document().txt;
        let rule = &txt.interpretation(reading).groups[decider.group].rules[decider.rule];
        spans.push(Span::raw(format!("  line {}: ", decider.line)));
        spans.extend(safe_span(&txt.rule_text(rule), THEME.value, THEME.escape));
    }
    Line::from(spans)
}

fn readings_line(allowed: [bool; 3], current: Reading, disagree: bool) -> Line<'static> {
    let mut spans = vec![if disagree {
        Span::styled(" Readings disagree: ", THEME.warning)
    } else {
        Span::styled(" Every reading agrees: ", THEME.dim)
    }];
    for (i, reading) in Reading::ALL.into_iter().enumerate() {
        if i > 0 {
            spans.push(Span::styled(" · ", THEME.dim));
        }
        let (word, style) =
            if allowed[reading.index()] { ("allowed", THEME.allowed) } else { ("disallowed", THEME.disallowed) };
        let name_style = if reading == current { THEME.title } else { THEME.dim };
        spans.push(Span::styled(format!("{} ", reading.title()), name_style));
        spans.push(Span::styled(word, style));
    }
    Line::from(spans)
}

fn upper_first(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|first| first.to_uppercase().chain(chars).collect()).unwrap_or_default()
}
