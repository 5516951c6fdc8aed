//! The robot switcher: every robot, a mark on those the file names and on those the
//! compare view compares, the selected one highlighted.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use super::pane_block;
use super::text::{cut_end, safe_span};
use super::theme::THEME;
use crate::app::{App, Pane, RobotOrigin};
use crate::policy::escape::display_width;
use crate::robots_db::Era;

/// Drawn at the right end of a compared robot's row.
const COMPARED_MARK: &str = "◆";

/// The robots pane, drawn from the app's state.
#[derive(Debug)]
pub struct RobotsPane<'a> {
    /// The state to draw.
    pub app: &'a App,
}

impl Widget for RobotsPane<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let app = self.app;
        let robots = app.robots();
        let shown = app.shown_robots();
        let at = shown.iter().position(|&index| index == app.robot_index()).map_or(0, |at| at + 1);
        let title = match app.robot_purpose() {
            // Narrow: the purpose names the list (`ai-training 3/49`).
            Some(purpose) => format!(" {} {at}/{} ", purpose.name(), shown.len()),
            None => format!(" Robots {at}/{} ", robots.len()),
        };
        let block = pane_block(&title, app.focus() == Pane::Robots);
        let inner = block.inner(area);
        block.render(area, buf);
        let view = app.robots_view();
        for (row, (index, entry)) in shown
            .iter()
            .map(|&index| (index, &robots[index]))
            .skip(view.offset)
            .take(usize::from(inner.height))
            .enumerate()
        {
            let mark = if entry.named_in_file { "●" } else { " " };
            let tag = match (entry.origin, entry.profile.era) {
                (RobotOrigin::NamedInFile, _) => " file",
                (RobotOrigin::AddedByUser, _) => " added",
                (RobotOrigin::Profile, Era::Nineties) => " 90s",
                (RobotOrigin::Profile, Era::Today) => "",
            };
            // The mark and a space before, the compare mark's column after: the name
            // gets the rest; the tag shows whole or not at all, and a name too long is
            // cut with `…` (issue 35: `ArchitextSpider 90` at 80x24).
            let room = usize::from(inner.width).saturating_sub(3);
            let name_width = display_width(entry.profile.name.as_bytes());
            let (name, tag) = if name_width + tag.len() <= room {
                (entry.profile.name.clone(), tag)
            } else {
                (cut_end(&entry.profile.name, room), "")
            };
            let mut spans = vec![Span::styled(mark, THEME.group_mark), Span::raw(" ")];
            spans.extend(safe_span(&name, THEME.value, THEME.escape));
            spans.push(Span::styled(tag, THEME.dim));
            let y = inner.y + row as u16;
            buf.set_line(inner.x, y, &Line::from(spans), inner.width);
            if app.is_compared(entry) && inner.width > 2 {
                buf.set_string(inner.right() - 1, y, COMPARED_MARK, THEME.compare_mark);
            }
            if index == app.robot_index() {
                buf.set_style(Rect::new(inner.x, y, inner.width, 1), THEME.selected);
            }
        }
    }
}
