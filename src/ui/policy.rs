//! The policy view: the registry's robots by purpose on the left, each with how the text
//! treats it and a mark when it is to be blocked; on the right what blocking the marked
//! robots does (proved), and its diff. Only the visible rows are drawn.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget, Wrap};

use super::text::{diff_line, safe_span};
use super::theme::THEME;
use super::{fitted_title, pane_block};
use crate::app::App;
use crate::app::layout::{POLICY_OVERLAY, above_status};
use crate::app::view::Drawn;
use crate::app::view::policy::{PolicyRow, PolicyView, Preview};
use crate::policy::Reach;

/// The policy overlay.
#[derive(Debug)]
pub struct PolicyOverlay<'a> {
    /// The view (open).
    pub view: &'a PolicyView,
}

impl PolicyOverlay<'_> {
    fn list(&self, width: u16, height: usize) -> Vec<Line<'static>> {
        let view = self.view;
        let mut lines = Vec::new();
        for (row, kind) in view.rows.iter().enumerate().skip(view.offset).take(height) {
            let mut line = match *kind {
                PolicyRow::Purpose(purpose) => {
                    let [blocked, partly, allowed] = view.tally(purpose);
                    let mark = match (view.purpose_marked(purpose), view.purpose_partly_marked(purpose)) {
                        (true, _) => "[x] ",
                        (false, true) => "[-] ",
                        (false, false) => "[ ] ",
                    };
                    Line::from(vec![
                        Span::styled(mark, THEME.compare_mark),
                        Span::styled(format!("{:<13}", purpose.name()), THEME.heading),
                        Span::styled(format!("{blocked} blocked, {partly} partly, {allowed} allowed"), THEME.dim),
                    ])
                }
                PolicyRow::Robot(index) => {
                    let marked = view.marked.contains(&index);
                    let reach = view.reach[index];
                    let style = match reach {
                        Reach::Nothing => THEME.disallowed,
                        Reach::Part => THEME.warning,
                        Reach::Everything => THEME.allowed,
                    };
                    let then = if marked && reach != Reach::Nothing { " → blocked" } else { "" };
                    let mut spans = vec![Span::styled(if marked { "  [x] " } else { "  [ ] " }, THEME.compare_mark)];
                    let name = format!("{:<26}", view.profiles[index].name);
                    spans.extend(safe_span(&name, THEME.value, THEME.escape));
                    spans.push(Span::styled(reach.word(), style));
                    spans.push(Span::styled(then, THEME.disallowed));
                    Line::from(spans)
                }
            };
            if row == view.cursor {
                let pad = usize::from(width).saturating_sub(line.width());
                line.spans.push(Span::raw(" ".repeat(pad)));
                line = line.patch_style(THEME.cursor);
            }
            lines.push(line);
        }
        lines
    }

    fn preview(&self) -> Vec<Line<'static>> {
        match &self.view.preview {
            Preview::Nothing => vec![
                Line::styled("How this file treats each robot under RFC 9309.", THEME.heading),
                Line::raw(""),
                Line::styled("Space marks a robot to block, or every robot of a purpose;", THEME.dim),
                Line::styled("what the block changes shows here as you go, proved before", THEME.dim),
                Line::styled("it is offered: the robots marked may fetch nothing, and", THEME.dim),
                Line::styled("every other robot keeps every verdict on every path.", THEME.dim),
                Line::styled("Enter applies it (Ctrl-Z undoes), y copies the file.", THEME.dim),
            ],
            Preview::Refused(why) => {
                let mut spans = vec![Span::styled("No block can be offered: ", THEME.warning)];
                spans.extend(safe_span(why, THEME.value, THEME.escape));
                vec![Line::from(spans)]
            }
            Preview::Proved { said, diff, .. } => {
                let mut lines: Vec<Line<'static>> =
                    said.iter().map(|line| Line::from(safe_span(line, THEME.value, THEME.escape))).collect();
                lines.push(Line::raw(""));
                if diff.is_empty() {
                    lines.push(Line::styled("The file stays as it is.", THEME.dim));
                }
                lines.extend(diff.iter().map(|line| diff_line(line)));
                lines
            }
        }
    }
}

impl Widget for PolicyOverlay<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let marked = match self.view.marked.len() {
            0 => String::new(),
            1 => "1 robot marked".to_owned(),
            count => format!("{count} robots marked"),
        };
        let title = fitted_title(
            &["Robots by purpose", &marked, "Space mark", "Enter apply", "y copy", "J/K scroll", "Esc leaves"],
            area.width,
        );
        Clear.render(area, buf);
        let block = pane_block(&title, true);
        let inner = block.inner(area);
        block.render(area, buf);
        let [list, preview] = Layout::horizontal([Constraint::Length(52), Constraint::Min(20)]).spacing(2).areas(inner);
        let [heading, list] = Layout::vertical([Constraint::Length(2), Constraint::Min(1)]).areas(list);
        Paragraph::new(vec![
            Line::styled("Purpose, robot and its treatment", THEME.heading),
            Line::styled("(under RFC 9309, by this text)", THEME.dim),
        ])
        .render(heading, buf);
        Paragraph::new(self.list(list.width, usize::from(list.height))).render(list, buf);
        let scroll = u16::try_from(self.view.preview_scroll).unwrap_or(u16::MAX);
        Paragraph::new(self.preview()).wrap(Wrap { trim: false }).scroll((scroll, 0)).render(preview, buf);
    }
}

impl Drawn for PolicyView {
    fn draw(&self, _: &App, screen: Rect, buffer: &mut Buffer) {
        let (width, height) = POLICY_OVERLAY;
        PolicyOverlay { view: self }.render(super::centered(above_status(screen), width, height), buffer);
    }
}
