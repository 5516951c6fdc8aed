//! Drawing: the app's state into a ratatui frame. Nothing here changes the state.
//!
//! Each pane is a small struct borrowing the [`App`] and implementing `Widget`; they
//! draw into the rectangles of [`Areas`], which the app layer computes because it needs
//! them too. Only the visible lines of the source and records are touched, so a 3.7 MB
//! file draws as fast as a small one. Every byte from the file passes through
//! [`text::safe_spans`] on its way to the screen.

pub mod audit;
pub mod compare;
pub mod edits;
pub mod fetch;
pub mod help;
pub mod history;
pub mod page;
pub mod policy;
pub mod records;
pub mod robots;
pub mod sitemaps;
pub mod source;
pub mod status;
pub mod tester;
pub mod text;
pub mod theme;

use ratatui::Frame;
use ratatui::layout::{Constraint, Flex, Layout, Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget, Wrap};

use crate::app::layout::{HELP_OVERLAY, MESSAGES_OVERLAY};
use crate::app::{App, Areas, Prompt, PromptKind, View};
use theme::THEME;

/// The smallest terminal the explorer draws its panes in; below it, it says so.
const SMALLEST: (u16, u16) = (40, 10);

/// Draws the whole explorer.
pub fn render(app: &App, frame: &mut Frame) {
    let area = frame.area();
    if area.width < SMALLEST.0 || area.height < SMALLEST.1 {
        let text = format!(
            "robotscope needs at least {}x{}; this terminal is {}x{}",
            SMALLEST.0, SMALLEST.1, area.width, area.height
        );
        frame.render_widget(Paragraph::new(text).wrap(ratatui::widgets::Wrap { trim: true }), area);
        return;
    }
    // A view in the panes' place (compare) keeps the source beside it, and draws
    // itself with the other views, below.
    let instead_of_panes = app.view().is_some_and(View::takes_the_panes);
    let areas = Areas::layout(area, instead_of_panes);
    let tester_cursor = if instead_of_panes {
        if !areas.source.is_empty() {
            frame.render_widget(source::SourcePane { app }, areas.source);
        }
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
    render_overlay(app, frame, area);
    match app.prompt() {
        Some(prompt) if prompt.kind.is_inline() => {
            if let Some(position) = tester_cursor {
                frame.set_cursor_position(position);
            }
        }
        Some(prompt) => {
            let hint = match prompt.kind {
                PromptKind::SaveAs(_) => app.save_hint(prompt.input.text()),
                kind => kind.hint().to_owned(),
            };
            prompt_box(frame, prompt, hint);
        }
        None => {}
    }
}

/// Draws the open view, if any: a view with a widget of its own draws itself (see
/// `view::Drawn`); the app's own overlays are drawn here.
fn render_overlay(app: &App, frame: &mut Frame, area: Rect) {
    let Some(view) = app.view() else { return };
    if let Some(drawn) = view.drawn() {
        drawn.draw(app, area, frame.buffer_mut());
        return;
    }
    match view {
        View::Help(layer) => {
            let (width, height) = HELP_OVERLAY;
            let first = app.help_first();
            frame.render_widget(help::HelpOverlay { scroll: layer.scroll, first }, centered(area, width, height));
        }
        View::Messages(_) => {
            let (width, height) = MESSAGES_OVERLAY;
            frame.render_widget(status::MessagesOverlay { app }, centered(area, width, height));
        }
        View::FetchDetails => frame.render_widget(fetch::FetchDetails { app }, centered(area, 100, 24)),
        View::Diagnostics(_) => frame.render_widget(edits::DiagnosticsOverlay { app }, centered(area, 110, 30)),
        View::Changes(_) => {
            let (width, height) = crate::app::layout::CHANGES_OVERLAY;
            frame.render_widget(edits::ChangesOverlay { app }, centered(area, width, height));
        }
        View::CopyMenu | View::UnsavedEdits { .. } | View::ConfirmReplace(_) => {
            let Some(question) = app.question() else { return };
            let widest = question.choices.iter().map(|(_, label)| label.chars().count()).max().unwrap_or(0);
            let width = (widest + 10).max(question.title.chars().count().min(70) + 6);
            let height = question.choices.len() + 2;
            let box_area = centered(area, width as u16, height as u16);
            frame.render_widget(edits::Question { question: &question, diff: None }, box_area);
        }
        View::ChangedOnDisk(changed) => {
            let Some(question) = app.question() else { return };
            let (width, most) = crate::app::layout::CHANGED_OVERLAY;
            // The keys, then the diff's heading and lines, as far as they fit.
            let lines = question.choices.len() + changed.diff.as_ref().map_or(0, |diff| diff.len() + 1);
            let height = u16::try_from(lines + 2).unwrap_or(u16::MAX).min(most);
            let diff = changed.diff.as_deref().map(|lines| (lines, changed.scroll));
            frame.render_widget(edits::Question { question: &question, diff }, centered(area, width, height));
        }
        // Drawn by themselves, above.
        _ => {}
    }
}

/// A prompt in a small box in the middle of the screen, its text scrolled sideways so
/// that the cursor stays in view.
fn prompt_box(frame: &mut Frame, prompt: &Prompt, hint: String) {
    let popup = centered(frame.area(), 84, 5);
    Clear.render(popup, frame.buffer_mut());
    let label = prompt.kind.label();
    let inner_width = usize::from(popup.width.saturating_sub(2));
    let room = inner_width.saturating_sub(label.chars().count()).max(1);
    let field = text::input_window(&prompt.input, room);
    let mut spans = vec![Span::styled(label.to_owned(), THEME.dim)];
    let style = if prompt.input.is_selected() { THEME.selected } else { THEME.value };
    spans.extend(text::safe_span(&field.text, style, THEME.escape));
    let title = format!(" {} ", prompt.kind.title());
    Paragraph::new(vec![Line::from(spans), Line::styled(hint, THEME.dim)])
        .wrap(Wrap { trim: false })
        .block(pane_block(&title, true))
        .render(popup, frame.buffer_mut());
    let x = popup.x + 1 + label.chars().count() as u16 + field.cursor as u16;
    frame.set_cursor_position(Position::new(x.min(popup.right().saturating_sub(2)), popup.y + 1));
}

/// A pane title: `parts` joined by " · ", leaving out the parts that no longer fit in a
/// pane `width` columns wide, taken in order (so the parts come most important first;
/// empty ones are skipped).
#[must_use]
pub fn fitted_title(parts: &[&str], width: u16) -> String {
    let room = usize::from(width.saturating_sub(4));
    let mut title = String::new();
    for part in parts.iter().filter(|part| !part.is_empty()) {
        let candidate = if title.is_empty() { (*part).to_owned() } else { format!("{title} · {part}") };
        if candidate.chars().count() <= room || title.is_empty() {
            title = candidate;
        }
    }
    format!(" {title} ")
}

/// A bordered pane with a title; the border is brighter when the pane has focus. A
/// title may name a file, a log or a URL: it is escaped like all text from outside.
fn pane_block(title: &str, focused: bool) -> Block<'static> {
    Block::bordered()
        .border_style(if focused { THEME.border_focused } else { THEME.border })
        .title(Span::styled(crate::policy::sanitize_str(title).into_owned(), THEME.title))
}

/// A rectangle of at most `width` x `height`, centred in `area`; the whole width or
/// height when what would be left beside it is too thin to read (a sliver of the panes
/// below would show as stray border characters).
fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let (width, height) = crate::app::layout::overlay_size(area, width, height);
    let [row] = Layout::vertical([Constraint::Length(height)]).flex(Flex::Center).areas(area);
    let [cell] = Layout::horizontal([Constraint::Length(width)]).flex(Flex::Center).areas(row);
    cell
}
