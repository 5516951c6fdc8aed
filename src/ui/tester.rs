//! The tester: a one-line path field, the verdict and the readings line, which always
//! stay on screen (from 60x20 up), and under them the details (how the path was tested,
//! the group, the explanation, the rules that matched and lost), which scroll.

use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use super::text::{input_window, safe_span, text_window};
use super::theme::THEME;
use super::{fitted_title, pane_block};
use crate::app::tester::{DetailKind, LABEL_COLUMNS};
use crate::app::{App, Loading, Pane, PromptKind};
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
    fn typing(&self) -> bool {
        self.app.prompt().is_some_and(|prompt| prompt.kind == PromptKind::TestPath)
    }

    /// The path field's width inside the pane.
    fn field_width(area: Rect) -> usize {
        usize::from(area.width.saturating_sub(2)).saturating_sub(PATH_LABEL.chars().count()).max(2)
    }

    /// Where the terminal cursor goes while the path is typed.
    #[must_use]
    pub fn cursor_position(&self, area: Rect) -> Option<Position> {
        self.typing().then(|| {
            let window = input_window(self.app.path(), Self::field_width(area));
            let x = area.x + 1 + PATH_LABEL.chars().count() as u16 + window.cursor as u16;
            Position::new(x.min(area.right().saturating_sub(2)), area.y + 1)
        })
    }
}

impl Widget for TesterPane<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let app = self.app;
        let typing = self.typing();
        let parts: &[&str] = if typing {
            &["Tester", "Enter keeps the path", "Esc goes back", "↑↓ history", "Ctrl-P page policy"]
        } else if app.focus() == Pane::Tester {
            &["Tester", "/ or Enter types a path", "j/k scroll"]
        } else {
            &["Tester", "/ types a path"]
        };
        let block = pane_block(&fitted_title(parts, area.width), app.focus() == Pane::Tester || typing);
        let inner = block.inner(area);
        block.render(area, buf);
        if inner.height == 0 {
            return;
        }
        let width = inner.width;
        let mut y = inner.y;
        let mut put = |line: Line<'_>, buf: &mut Buffer| {
            if y < inner.bottom() {
                buf.set_line(inner.x, y, &line, width);
                y += 1;
            }
        };

        let input = app.path();
        // While typing, the field follows the cursor; else it shows the path's start.
        let field = if typing {
            input_window(input, Self::field_width(area))
        } else {
            text_window(input.text(), 0, Self::field_width(area))
        };
        let style = if typing && input.is_selected() { THEME.selected } else { THEME.value };
        let mut path_line = vec![Span::styled(PATH_LABEL, THEME.dim)];
        path_line.extend(safe_span(&field.text, style, THEME.escape));
        put(Line::from(path_line), buf);

        if app.is_waiting_for_source() {
            let (what, then) = match app.load_in_progress() {
                Some(Loading { source, .. }) => (
                    format!(" Loading {} …", source.label()),
                    " No verdict until the robots.txt answers (Esc cancels).",
                ),
                None => {
                    (" Not loaded.".to_owned(), " No verdict without a robots.txt: r loads it again, o opens another.")
                }
            };
            put(Line::from(safe_span(&what, THEME.warning, THEME.escape)), buf);
            put(Line::styled(then, THEME.dim), buf);
            return;
        }
        let evaluation = app.evaluation();
        put(verdict_line(app, &evaluation.verdict, width), buf);
        put(readings_line(evaluation.allowed_by_reading, app.reading(), evaluation.readings_disagree(), width), buf);

        let details = app.tester_details(usize::from(width));
        for detail in details.iter().skip(app.tester_first_detail()) {
            let warning = matches!(detail.kind, DetailKind::OtherSite | DetailKind::PastTheCut);
            let text_style = match detail.kind {
                DetailKind::OtherSite | DetailKind::PastTheCut => THEME.warning,
                DetailKind::AlsoMatched => THEME.dim,
                DetailKind::Tested | DetailKind::Group | DetailKind::Explanation | DetailKind::Usage => THEME.value,
            };
            let label_style = if warning { THEME.warning } else { THEME.dim };
            let mut spans = vec![Span::styled(format!(" {:<LABEL_COLUMNS$}", detail.label), label_style)];
            spans.extend(safe_span(&detail.text, text_style, THEME.escape));
            put(Line::from(spans), buf);
        }
    }
}

fn verdict_line(app: &App, verdict: &Verdict, width: u16) -> Line<'static> {
    let build = |short: bool| {
        let (word, style) =
            if verdict.allowed() { ("✓ ALLOWED", THEME.allowed) } else { ("✗ DISALLOWED", THEME.disallowed) };
        let robot = app.robot();
        let reading = app.reading();
        let mut spans = vec![Span::raw(" "), Span::styled(word, style), Span::raw(if short { " " } else { "  " })];
        spans.extend(safe_span(&robot.profile.name, THEME.title, THEME.escape));
        let how = match (short, reading == robot.profile.reading) {
            (true, _) => format!(" · {}", reading.short_title()),
            (false, true) => format!(" · {}, its default", reading.title()),
            (false, false) => format!(" · {}", reading.title()),
        };
        spans.push(Span::styled(how, THEME.dim));
        if let Some(decider) = verdict.decided_by() {
            let txt = &app.document().txt;
            let rule = decider.rule_in(txt, reading);
            let line = decider.line();
            spans.push(Span::raw(if short { format!(" · {line}: ") } else { format!("  line {line}: ") }));
            spans.extend(safe_span(&txt.rule_text(rule), THEME.value, THEME.escape));
        }
        Line::from(spans)
    };
    // On a narrow terminal the reading and line are said in fewer words, so that the
    // deciding rule shows.
    let long = build(false);
    if long.width() <= usize::from(width) { long } else { build(true) }
}

/// How each reading answers: in words when there is room, else in marks.
fn readings_line(allowed: [bool; 3], current: Reading, disagree: bool, width: u16) -> Line<'static> {
    let build = |short: bool| {
        let lead = if disagree { " Readings disagree: " } else { " Readings agree: " };
        let mut spans = vec![Span::styled(lead, if disagree { THEME.warning } else { THEME.dim })];
        for (i, reading) in Reading::ALL.into_iter().enumerate() {
            if i > 0 {
                spans.push(Span::styled(" · ", THEME.dim));
            }
            let ok = allowed[reading.index()];
            let (word, style): (&str, Style) = match (ok, short) {
                (true, false) => ("allowed", THEME.allowed),
                (false, false) => ("disallowed", THEME.disallowed),
                (true, true) => ("✓", THEME.allowed),
                (false, true) => ("✗", THEME.disallowed),
            };
            let name = if short { reading.short_title() } else { reading.title() };
            let name_style = if reading == current { THEME.title } else { THEME.dim };
            spans.push(Span::styled(format!("{name} "), name_style));
            spans.push(Span::styled(word, style));
        }
        Line::from(spans)
    };
    let long = build(false);
    if long.width() <= usize::from(width) { long } else { build(true) }
}
