//! The status bar: the source, its size, the reading, the robot, and key hints from the
//! keymap (or a message, cut when long); and the message log (`M`), which shows the
//! messages whole.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget};

use super::text::{cut_end, safe_span};
use super::theme::THEME;
use super::{pane_block, size_label};
use crate::app::{App, LoadState, keymap};
use crate::fetch::status_name;
use crate::policy::escape::display_width;

/// The status bar, drawn from the app's state.
#[derive(Debug)]
pub struct StatusBar<'a> {
    /// The state to draw.
    pub app: &'a App,
}

impl Widget for StatusBar<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let app = self.app;
        let document = app.document();
        let robot = &app.robot().profile;
        let reading = app.reading();
        let whose = if app.reading_is_chosen() { "chosen".to_owned() } else { format!("{}'s default", robot.name) };
        let mut spans = vec![Span::raw(" ")];
        if let LoadState::Loading { source, elapsed, ticks, .. } = app.load_state() {
            const SPINNER: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
            let spinner = format!("{} loading ", SPINNER[ticks % SPINNER.len()]);
            spans.push(Span::styled(spinner, THEME.key.bg(THEME.status.bg.unwrap_or_default())));
            spans.extend(safe_span(&source.label(), THEME.status, THEME.escape));
            spans.push(Span::raw(format!(" · {:.1} s · Esc cancels │ ", elapsed.as_secs_f32())));
        }
        spans.extend(safe_span(&document.label, THEME.status, THEME.escape));
        match document.fetched() {
            Some(Ok(fetched)) => spans.push(Span::raw(format!(
                " · {} {} · {} ms",
                fetched.status,
                status_name(fetched.status),
                fetched.elapsed.as_millis()
            ))),
            Some(Err(_)) => spans.push(Span::raw(" · fetch failed (i for details)")),
            None => {}
        }
        spans.push(Span::raw(format!(
            " · {} │ {} ({whose}) │ ",
            size_label(document.txt.source().len()),
            reading.title()
        )));
        spans.extend(safe_span(&robot.name, THEME.status, THEME.escape));
        spans.push(Span::raw(" │ "));
        let line = app.cursor_line();
        let here = app.diagnostics().iter().find(|d| d.line == line && matches!(app.focus(), crate::app::Pane::Source));
        let used = Line::from(spans.clone()).width();
        let room = usize::from(area.width).saturating_sub(used);
        match (app.message(), here) {
            (Some(message), _) => {
                // A long message is cut, with a pointer to the log that shows it whole.
                let message = if display_width(message.as_bytes()) > room {
                    format!("{} M shows all", cut_end(message, room.saturating_sub(12)))
                } else {
                    message.to_owned()
                };
                spans.extend(safe_span(&message, THEME.status, THEME.escape));
            }
            (None, Some(diagnostic)) => {
                let fix = if diagnostic.fix.is_some() { " (f fixes)" } else { "" };
                spans.push(Span::raw(format!("line {}: {} {}{fix}: ", line, diagnostic.severity, diagnostic.code)));
                spans.extend(safe_span(&diagnostic.message, THEME.status, THEME.escape));
            }
            (None, None) => {
                for (key, label) in keymap::hints() {
                    spans.push(Span::styled(key, THEME.key.bg(THEME.status.bg.unwrap_or_default())));
                    spans.push(Span::raw(format!(" {label}  ")));
                }
            }
        }
        buf.set_style(area, THEME.status);
        buf.set_line(area.x, area.y, &Line::from(spans).style(THEME.status), area.width);
    }
}

/// The message log: every message shown, wrapped, newest at the bottom.
#[derive(Debug)]
pub struct MessagesOverlay<'a> {
    /// The state to draw.
    pub app: &'a App,
}

impl Widget for MessagesOverlay<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        Clear.render(area, buf);
        let lines = self.app.message_log_lines();
        let title = format!(" Messages · {} · j/k scroll · Esc closes ", self.app.message_log().len());
        let block = pane_block(&title, true);
        let inner = block.inner(area);
        block.render(area, buf);
        if lines.is_empty() {
            Paragraph::new(Line::styled("No messages yet.", THEME.dim)).render(inner, buf);
            return;
        }
        let shown: Vec<Line> = lines
            .iter()
            .skip(self.app.overlay_scroll())
            .take(usize::from(inner.height))
            .map(|line| Line::from(safe_span(line, THEME.value, THEME.escape)))
            .collect();
        Paragraph::new(shown).render(inner, buf);
    }
}
