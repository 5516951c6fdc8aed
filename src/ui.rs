//! Drawing: the app's state into a ratatui frame. Nothing here changes the state.
//!
//! Each pane is a small struct borrowing the [`App`] and implementing `Widget`; they
//! draw into the rectangles of [`Areas`], which the app layer computes because it needs
//! them too. Only the visible lines of the source and records are touched, so a 3.7 MB
//! file draws as fast as a small one. Every byte from the file passes through
//! [`text::safe_spans`] on its way to the screen.

pub mod compare;
pub mod edits;
pub mod fetch;
pub mod help;
pub mod page;
pub mod records;
pub mod robots;
pub mod source;
pub mod status;
pub mod tester;
pub mod text;
pub mod theme;

use ratatui::Frame;
use ratatui::layout::{Constraint, Flex, Layout, Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget};

use crate::app::layout::HELP_OVERLAY;
use crate::app::{App, Areas, LineInput, Mode};
use theme::THEME;

/// Draws the whole explorer.
pub fn render(app: &App, frame: &mut Frame) {
    let area = frame.area();
    let areas = Areas::layout(area, app.compare().is_some());
    let cursor = if let Some(view) = app.compare() {
        frame.render_widget(source::SourcePane { app }, areas.source);
        frame.render_widget(compare::CompareMatrix { app, view }, areas.compare);
        frame.render_widget(compare::CompareDetail { app, view }, areas.tester);
        None
    } else {
        frame.render_widget(robots::RobotsPane { app }, areas.robots);
        frame.render_widget(source::SourcePane { app }, areas.source);
        frame.render_widget(records::RecordsPane { app }, areas.records);
        let tester = tester::TesterPane { app };
        let cursor = tester.cursor_position(areas.tester);
        frame.render_widget(tester, areas.tester);
        cursor
    };
    frame.render_widget(status::StatusBar { app }, areas.status);
    match app.mode() {
        Mode::Help => {
            let (width, height) = HELP_OVERLAY;
            frame.render_widget(help::HelpOverlay { scroll: app.help_scroll() }, centered(area, width, height));
        }
        Mode::FetchDetails => frame.render_widget(fetch::FetchDetails { app }, centered(area, 100, 24)),
        Mode::Page => {
            if let Some(view) = app.page_view() {
                frame.render_widget(page::PageOverlay { app, view }, centered(area, 118, 40));
            }
        }
        Mode::AddingRobot(input) => prompt(
            frame,
            " Add a robot ",
            "Name or token: ",
            input,
            "Enter selects a known robot or adds a new one; Esc cancels.",
        ),
        Mode::OpeningSource(input) => prompt(
            frame,
            " Open ",
            "File or site: ",
            input,
            "A file, or a site (example.com, https://example.com/page); Esc cancels.",
        ),
        Mode::SavingAs(input, _) => prompt(
            frame,
            " Save ",
            "Save to: ",
            input,
            "Written to a temporary file, then renamed over this one; Esc cancels.",
        ),
        Mode::Diagnostics => frame.render_widget(edits::DiagnosticsOverlay { app }, centered(area, 110, 30)),
        Mode::Changes => frame.render_widget(edits::ChangesOverlay { app }, centered(area, 110, 34)),
        Mode::CopyMenu => frame.render_widget(
            edits::Question {
                title: " Copy ",
                choices: &[
                    ("f", "the file, as it is now"),
                    ("g", "the group that applies to the robot"),
                    ("d", "the diff of your edits"),
                    ("Esc", "nothing"),
                ],
            },
            centered(area, 50, 6),
        ),
        Mode::ConfirmQuit => frame.render_widget(
            edits::Question {
                title: " Unsaved edits ",
                choices: &[("w", "save, then quit"), ("q", "quit without saving"), ("Esc", "keep working")],
            },
            centered(area, 44, 5),
        ),
        Mode::AddingComparePath(input) => {
            prompt(frame, " Add a path ", "Path or URL: ", input, "A row for this path; Esc cancels.");
        }
        Mode::LoadingComparePaths(input) => {
            prompt(
                frame,
                " Paths from a file ",
                "File: ",
                input,
                "One path or URL per line replaces the rows; Esc cancels.",
            );
        }
        Mode::Normal | Mode::EditingPath | Mode::Editing | Mode::Compare => {
            if let Some(position) = cursor {
                frame.set_cursor_position(position);
            }
        }
    }
}

/// A one-line text prompt in a small box in the middle of the screen.
fn prompt(frame: &mut Frame, title: &str, label: &str, input: &LineInput, hint: &str) {
    let popup = centered(frame.area(), 64, 5);
    Clear.render(popup, frame.buffer_mut());
    let mut spans = vec![Span::styled(label.to_owned(), THEME.dim)];
    spans.extend(text::safe_span(input.text(), THEME.value, THEME.escape));
    Paragraph::new(vec![Line::from(spans), Line::styled(hint.to_owned(), THEME.dim)])
        .block(pane_block(title, true))
        .render(popup, frame.buffer_mut());
    let x = popup.x + 1 + label.chars().count() as u16 + input.cursor() as u16;
    frame.set_cursor_position(Position::new(x.min(popup.right().saturating_sub(2)), popup.y + 1));
}

/// A bordered pane with a title; the border is brighter when the pane has focus.
fn pane_block(title: &str, focused: bool) -> Block<'static> {
    Block::bordered()
        .border_style(if focused { THEME.border_focused } else { THEME.border })
        .title(Span::styled(title.to_owned(), THEME.title))
}

/// A rectangle of at most `width` x `height`, centred in `area`.
fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let [row] = Layout::vertical([Constraint::Length(height.min(area.height))]).flex(Flex::Center).areas(area);
    let [cell] = Layout::horizontal([Constraint::Length(width.min(area.width))]).flex(Flex::Center).areas(row);
    cell
}

/// A byte count for people: `812 B`, `1.8 KB`, `3.5 MB`.
#[must_use]
pub fn size_label(bytes: usize) -> String {
    const KB: f64 = 1024.0;
    #[allow(clippy::cast_precision_loss, reason = "a size label shows one decimal")]
    let value = bytes as f64;
    if value < KB {
        format!("{bytes} B")
    } else if value < KB * KB {
        format!("{:.1} KB", value / KB)
    } else {
        format!("{:.1} MB", value / (KB * KB))
    }
}
