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
                Span::styled(format!("{:>5} ", d.line), THEME.line_number),
                Span::styled(format!("{:<8}", d.severity.name()), severity_style(d.severity)),
                Span::styled(format!("{:<28}", d.code), THEME.dim),
            ];
            if d.fix.is_some() {
                spans.push(Span::styled("fix ", THEME.allowed));
            }
            spans.extend(safe_span(d.message.split(". ").next().unwrap_or_default(), THEME.value, THEME.escape));
            let y = list.y + row as u16;
            buf.set_line(list.x, y, &Line::from(spans), list.width);
            if index == view.cursor {
                buf.set_style(Rect::new(list.x, y, list.width, 1), THEME.cursor);
            }
        }
        if let Some(d) = diagnostics.get(view.cursor) {
            let mut lines = vec![Line::from(safe_span(&d.message, THEME.value, THEME.escape))];
            if let Some(fix) = &d.fix {
                lines.push(Line::from(
                    [vec![Span::styled("Fix: ", THEME.allowed)], safe_span(&fix.title, THEME.value, THEME.escape)]
                        .concat(),
                ));
            }
            Paragraph::new(lines).wrap(Wrap { trim: false }).block(pane_block(" Selected ", false)).render(detail, buf);
        }
    }
}

/// What the edits changed: the flipped verdicts for the robots and paths looked at, then
/// the diff.
#[derive(Debug)]
pub struct ChangesOverlay<'a> {
    /// The state to draw.
    pub app: &'a App,
}

impl Widget for ChangesOverlay<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let changes = self.app.changes();
        let mut lines =
            vec![Line::styled("Verdicts the edits flipped (robots you selected × paths you tested)", THEME.heading)];
        if changes.is_empty() {
            lines.push(Line::styled("  none", THEME.dim));
        }
        for change in &changes {
            let word = |allowed| if allowed { ("allowed", THEME.allowed) } else { ("disallowed", THEME.disallowed) };
            let (before, before_style) = word(change.before);
            let (after, after_style) = word(change.after);
            let mut spans = vec![Span::raw("  ")];
            spans.extend(safe_span(&change.robot, THEME.title, THEME.escape));
            spans.push(Span::styled(format!(" ({}) ", change.reading.title()), THEME.dim));
            spans.extend(safe_span(&change.path, THEME.value, THEME.escape));
            spans.push(Span::raw("  "));
            spans.push(Span::styled(before, before_style));
            spans.push(Span::raw(" → "));
            spans.push(Span::styled(after, after_style));
            lines.push(Line::from(spans));
            lines.push(Line::from(
                [vec![Span::raw("    ")], safe_span(&change.explanation, THEME.dim, THEME.escape)].concat(),
            ));
        }
        lines.push(Line::raw(""));
        lines.push(Line::styled("Diff against the loaded text", THEME.heading));
        let diff = self.app.diff();
        if diff.is_empty() {
            lines.push(Line::styled("  no edits", THEME.dim));
        }
        for line in diff.lines() {
            let style = match line.chars().next() {
                Some('+') => THEME.allowed,
                Some('-') => THEME.disallowed,
                Some('@') => THEME.key,
                _ => THEME.value,
            };
            lines.push(Line::from(safe_span(line, style, THEME.escape)));
        }
        Clear.render(area, buf);
        Paragraph::new(lines)
            .block(pane_block(" What the edits changed · y copies the diff · Esc closes ", true))
            .render(area, buf);
    }
}

/// A small box asking one question, with its keys.
#[derive(Debug)]
pub struct Question<'a> {
    /// The box's title.
    pub title: &'a str,
    /// The lines: (key, what it does).
    pub choices: &'a [(&'a str, &'a str)],
}

impl Widget for Question<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let lines: Vec<Line> = self
            .choices
            .iter()
            .map(|(key, label)| Line::from(vec![Span::styled(format!(" {key:<5}"), THEME.key), Span::raw(*label)]))
            .collect();
        Clear.render(area, buf);
        Paragraph::new(lines).block(pane_block(self.title, true)).render(area, buf);
    }
}
