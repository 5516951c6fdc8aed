//! The overlays of the editing flow: the diagnostics list, what the edits changed
//! (flipped verdicts and the diff), the copy menu, and the question asked on quitting
//! with unsaved edits.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget, Wrap};

use super::pane_block;
use super::text::safe_span;
use super::theme::THEME;
use crate::app::App;
use crate::app::view::changes::ChangesLine;
use crate::policy::Severity;

/// The style of a severity's mark and name.
#[must_use]
pub fn severity_style(severity: Severity) -> Style {
    match severity {
        Severity::Error => THEME.disallowed,
        Severity::Warning => THEME.warning,
        Severity::Info => THEME.key,
    }
}

/// The list of diagnostics, the selected one with its message in full.
#[derive(Debug)]
pub struct DiagnosticsOverlay<'a> {
    /// The state to draw.
    pub app: &'a App,
}

impl Widget for DiagnosticsOverlay<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let diagnostics = self.app.diagnostics();
        let title = format!(" Diagnostics · {} · Enter shows, f fixes, F fixes all, Esc closes ", diagnostics.len());
        Clear.render(area, buf);
        let block = pane_block(&title, true);
        let inner = block.inner(area);
        block.render(area, buf);
        if diagnostics.is_empty() {
            Paragraph::new("Nothing to say about this file under any reading.").render(inner, buf);
            return;
        }
        // The list on top, the selected diagnostic's message and fix below.
        let detail_height = 6.min(inner.height / 2);
        let list = Rect { height: inner.height - detail_height, ..inner };
        let detail = Rect { y: list.bottom(), height: detail_height, ..inner };
        let view = self.app.diagnostics_view();
        let offset = view.cursor.saturating_sub(usize::from(list.height).saturating_sub(1));
        for (row, (index, d)) in diagnostics.iter().enumerate().skip(offset).take(usize::from(list.height)).enumerate()
        {
            let mut spans = vec![
                Span::styled(format!("{:>5} ", d.line()), THEME.line_number),
                Span::styled(format!("{:<8}", d.severity().name()), severity_style(d.severity())),
                Span::styled(format!("{:<28}", d.code()), THEME.dim),
            ];
            if d.fix().is_some() {
                spans.push(Span::styled("fix ", THEME.allowed));
            }
            spans.extend(safe_span(d.message().split(". ").next().unwrap_or_default(), THEME.value, THEME.escape));
            let y = list.y + row as u16;
            buf.set_line(list.x, y, &Line::from(spans), list.width);
            if index == view.cursor {
                buf.set_style(Rect::new(list.x, y, list.width, 1), THEME.cursor);
            }
        }
        if let Some(d) = diagnostics.get(view.cursor) {
            let mut lines = vec![Line::from(safe_span(d.message(), THEME.value, THEME.escape))];
            if let Some(fix) = &d.fix() {
                lines.push(Line::from(
                    [vec![Span::styled("Fix: ", THEME.allowed)], safe_span(fix.title(), THEME.value, THEME.escape)]
                        .concat(),
                ));
                if let Some(effect) = d.fix_effect() {
                    let style = if effect.changes_nothing() { THEME.dim } else { THEME.warning };
                    lines.push(Line::from(safe_span(&format!("It {effect}."), style, THEME.escape)));
                }
            }
            Paragraph::new(lines).wrap(Wrap { trim: false }).block(pane_block(" Selected ", false)).render(detail, buf);
        }
    }
}

/// What the edits changed: the verdicts flipped for the robots and paths looked at and
/// for every robot the file names, under every reading, then the diff; scrolled with
/// the keys of the view.
#[derive(Debug)]
pub struct ChangesOverlay<'a> {
    /// The state to draw.
    pub app: &'a App,
}

impl Widget for ChangesOverlay<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let word = |allowed| if allowed { ("allowed", THEME.allowed) } else { ("disallowed", THEME.disallowed) };
        let verdicts = |before: bool, after: bool| {
            let ((before, before_style), (after, after_style)) = (word(before), word(after));
            [Span::raw("  "), Span::styled(before, before_style), Span::raw(" → "), Span::styled(after, after_style)]
        };
        let report = self.app.changes_report();
        let height = usize::from(area.height.saturating_sub(2));
        let lines: Vec<Line> = report
            .map(|report| report.lines.as_slice())
            .unwrap_or_default()
            .iter()
            .skip(self.app.overlay_scroll())
            .take(height)
            .map(|line| match line {
                ChangesLine::Heading(text) => Line::styled(text.clone(), THEME.heading),
                ChangesLine::Nothing(text) => Line::styled(format!("  {text}"), THEME.dim),
                ChangesLine::Flipped(change) => {
                    let mut spans = vec![Span::raw("  ")];
                    spans.extend(safe_span(&change.robot, THEME.title, THEME.escape));
                    spans.push(Span::styled(format!(" ({}) ", change.reading.title()), THEME.dim));
                    spans.extend(safe_span(&change.path, THEME.value, THEME.escape));
                    spans.extend(verdicts(change.before, change.after));
                    Line::from(spans)
                }
                ChangesLine::Why(text) => {
                    Line::from([vec![Span::raw("    ")], safe_span(text, THEME.dim, THEME.escape)].concat())
                }
                ChangesLine::Named(flip) => {
                    let robot = if flip.robot == "*" { "a robot no group names" } else { flip.robot.as_str() };
                    let mut spans = vec![Span::raw("  ")];
                    spans.extend(safe_span(robot, THEME.title, THEME.escape));
                    spans.push(Span::styled(format!(" ({}) ", flip.reading.title()), THEME.dim));
                    spans.extend(safe_span(&flip.path, THEME.value, THEME.escape));
                    spans.extend(verdicts(flip.before, flip.after));
                    Line::from(spans)
                }
                ChangesLine::Uncertain(text) => {
                    Line::from([vec![Span::raw("  ")], safe_span(text, THEME.warning, THEME.escape)].concat())
                }
                ChangesLine::Diff(text) => {
                    let style = match text.chars().next() {
                        Some('+') => THEME.allowed,
                        Some('-') => THEME.disallowed,
                        Some('@') => THEME.key,
                        _ => THEME.value,
                    };
                    Line::from(safe_span(text, style, THEME.escape))
                }
            })
            .collect();
        Clear.render(area, buf);
        Paragraph::new(lines)
            .block(pane_block(" What the edits changed · j/k scroll · y copies the diff · Esc closes ", true))
            .render(area, buf);
    }
}

/// A small box asking one question, with its keys (the same the status bar shows), and
/// below them, for a file changed on disk, the diff from theirs to the text on screen.
#[derive(Debug)]
pub struct Question<'a> {
    /// The question.
    pub question: &'a crate::app::unsaved::Question,
    /// The diff's lines and the first one shown, when there is one to show.
    pub diff: Option<(&'a [String], usize)>,
}

impl Widget for Question<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let mut lines: Vec<Line> = self
            .question
            .choices
            .iter()
            .map(|(key, label)| {
                let mut spans = vec![Span::styled(format!(" {key:<5}"), THEME.key)];
                spans.extend(safe_span(label, THEME.value, THEME.escape));
                Line::from(spans)
            })
            .collect();
        if let Some((diff, scroll)) = self.diff {
            lines.push(Line::styled(
                format!(" Their version → your text ({} lines; j/k scroll):", diff.len()),
                THEME.heading,
            ));
            let room = usize::from(area.height.saturating_sub(2)).saturating_sub(lines.len());
            lines.extend(diff.iter().skip(scroll).take(room).map(|line| {
                let style = match line.chars().next() {
                    Some('+') => THEME.allowed,
                    Some('-') => THEME.disallowed,
                    Some('@') => THEME.key,
                    _ => THEME.value,
                };
                Line::from(safe_span(line, style, THEME.escape))
            }));
        }
        Clear.render(area, buf);
        let title =
            format!(" {} ", super::text::cut_end(&self.question.title, usize::from(area.width.saturating_sub(4))));
        Paragraph::new(lines).block(pane_block(&title, true)).render(area, buf);
    }
}
