//! The status bar: the source, its size, the reading, the robot, and key hints from the
//! keymap (or a message, cut when long); and the message log (`M`), which shows the
//! messages whole.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget};

use super::pane_block;
use super::text::{cut_end, safe_span};
use super::theme::THEME;
use crate::app::{App, Loading, Pane, keymap};
use crate::fetch::size_label;
use crate::policy::escape::display_width;

/// The status bar, drawn from the app's state.
#[derive(Debug)]
pub struct StatusBar<'a> {
    /// The state to draw.
    pub app: &'a App,
}

impl Widget for StatusBar<'_> {
    /// A message, when there is one, comes first and gets the room it needs (the robot
    /// and reading follow if they fit); otherwise the source, the reading and the robot,
    /// then what is wrong on the cursor's line or the hints for where the keys go.
    fn render(self, area: Rect, buf: &mut Buffer) {
        let app = self.app;
        let width = usize::from(area.width);
        let mut spans = vec![Span::raw(" ")];
        if let Some(Loading { source, elapsed, ticks }) = app.load_in_progress() {
            const SPINNER: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
            let spinner = format!("{} loading ", SPINNER[ticks % SPINNER.len()]);
            spans.push(Span::styled(spinner, THEME.key.bg(THEME.status.bg.unwrap_or_default())));
            spans.extend(safe_span(&source.label(), THEME.status, THEME.escape));
            spans.push(Span::raw(format!(" · {:.1} s · Esc cancels │ ", elapsed.as_secs_f32())));
        }
        let robot = &app.robot().profile;
        let about_robot = format!(" │ {} · {}", robot.name, app.reading().title());
        if let Some(question) = app.question() {
            // A question takes over the bar: its keys, as its box lists them, and nothing
            // that could contradict them (an earlier message's "y copies" beside a
            // question whose y drops the edits; issue 35).
            spans.extend(safe_span(&format!("{}: ", question.title), THEME.heading, THEME.escape));
            for (key, label) in &question.choices {
                spans.push(Span::styled(key.clone(), THEME.key.bg(THEME.status.bg.unwrap_or_default())));
                spans.extend(safe_span(&format!(" {label}  "), THEME.status, THEME.escape));
            }
            buf.set_style(area, THEME.status);
            buf.set_line(area.x, area.y, &Line::from(spans).style(THEME.status), area.width);
            return;
        }
        if let Some(message) = app.message() {
            let room = width.saturating_sub(Line::from(spans.clone()).width());
            let (message, tail) = if display_width(message.as_bytes()) + about_robot.chars().count() <= room {
                (message.to_owned(), about_robot)
            } else if display_width(message.as_bytes()) <= room {
                (message.to_owned(), String::new())
            } else {
                // A long message is cut, with a pointer to the log that shows it whole.
                (format!("{} M shows all", cut_end(message, room.saturating_sub(13))), String::new())
            };
            spans.extend(safe_span(&message, THEME.status, THEME.escape));
            spans.extend(safe_span(&tail, THEME.status, THEME.escape));
        } else {
            spans.extend(self.where_and_who());
            let line = app.cursor_line();
            let focus_on_source = app.focus() == Pane::Source && app.prompt().is_none() && app.overlay().is_none();
            if let Some(diagnostic) = app.diagnostics().iter().find(|d| d.line() == line && focus_on_source) {
                // In the editor, f types an f: Esc first.
                let fix = match (diagnostic.fix().is_some(), app.editor().is_some()) {
                    (false, _) => "",
                    (true, false) => " (f fixes)",
                    (true, true) => " (Esc, then f fixes)",
                };
                let head = format!("line {line}: {} {}{fix}: ", diagnostic.severity(), diagnostic.code());
                spans.push(Span::raw(head));
                spans.extend(safe_span(diagnostic.message(), THEME.status, THEME.escape));
            } else {
                push_hints(&mut spans, width, keymap::hints(app.key_context()));
            }
        }
        buf.set_style(area, THEME.status);
        buf.set_line(area.x, area.y, &Line::from(spans).style(THEME.status), area.width);
    }
}

/// The key hints after `spans`, whole ones only: a hint that does not fit in `width` is
/// left out, not cut mid-word (issue 35, at 80x24).
fn push_hints(spans: &mut Vec<Span<'static>>, width: usize, hints: Vec<(String, &'static str)>) {
    let mut used = Line::from(spans.clone()).width();
    for (key, label) in hints {
        let hint = format!(" {label}  ");
        if used + key.chars().count() + hint.trim_end().chars().count() > width {
            break;
        }
        used += key.chars().count() + hint.chars().count();
        spans.push(Span::styled(key, THEME.key.bg(THEME.status.bg.unwrap_or_default())));
        spans.push(Span::raw(hint));
    }
}

impl StatusBar<'_> {
    /// The source, its status and size, the reading and whose it is, the robot.
    fn where_and_who(&self) -> Vec<Span<'static>> {
        let app = self.app;
        let document = app.document();
        let robot = &app.robot().profile;
        let whose = if app.reading_is_chosen() { "chosen".to_owned() } else { format!("{}'s default", robot.name) };
        let mut spans = safe_span(&document.label, THEME.status, THEME.escape);
        match document.fetched() {
            Some(Ok(fetched)) => {
                spans.push(Span::raw(format!(" · {} · {} ms", fetched.status, fetched.elapsed.as_millis())));
            }
            Some(Err(_)) => spans.push(Span::raw(" · fetch failed (i for details)")),
            None => {}
        }
        spans.push(Span::raw(format!(
            " · {} │ {} ({whose}) │ ",
            size_label(document.txt.source().len()),
            app.reading().title()
        )));
        spans.extend(safe_span(&robot.name, THEME.status, THEME.escape));
        spans.push(Span::raw(" │ "));
        spans
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
