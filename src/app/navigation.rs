//! Moving around the base view: the focused pane's cursor, robots, records shown in
//! the source, and the mouse.

use super::scroll::scrolled;
use super::{Action, App, HORIZONTAL_STEP, Pane, WHEEL_LINES, layout};

impl App {
    /// The terminal's new size: whatever of the verdict was in view stays in view.
    pub(super) fn resize(&mut self, width: u16, height: u16) {
        let verdict_was_visible = self.verdict_line().is_none_or(|line| {
            let (view, height) = (self.source_view, self.areas().inner_height(Pane::Source));
            (view.offset..view.offset + height).contains(&(line - 1))
        });
        self.area = ratatui::layout::Rect::new(0, 0, width, height);
        self.reveal_cursors();
        if verdict_was_visible {
            self.reveal_verdict();
        }
    }

    /// The base view's cursor: the focused pane's.
    pub(super) fn move_cursor(&mut self, delta: isize) {
        let height = self.areas().inner_height(self.focus);
        match self.focus {
            Pane::Robots => {
                let shown = self.shown_robots();
                let at = shown.iter().position(|&index| index == self.robot).unwrap_or(0);
                let target = at.saturating_add_signed(delta).min(shown.len().saturating_sub(1));
                if let Some(&index) = shown.get(target) {
                    self.select_robot(index);
                }
            }
            Pane::Source => self.source_view.move_by(delta, self.document.txt.lines().len(), height),
            Pane::Records => self.records_view.move_by(delta, self.record_rows().len(), height),
            // The explanation under the verdict scrolls, within its lines.
            Pane::Tester => {
                self.tester_scroll = self.tester_first_detail().saturating_add_signed(delta);
                self.tester_scroll = self.tester_first_detail();
            }
        }
    }

    /// Scrolls the source's lines left by a step, no further than where the widest
    /// line's end shows (escapes and tabs counted as drawn).
    pub(super) fn scroll_source_right(&mut self) {
        let lines = self.document.txt.lines().len();
        let widest = self.document.widest_line();
        // The pane's text columns: its width less the borders and the gutter.
        let gutter = layout::source_gutter_width(lines);
        let shown = usize::from(self.areas().source.width.saturating_sub(2)).saturating_sub(gutter);
        let limit = widest.saturating_sub(shown).next_multiple_of(HORIZONTAL_STEP);
        self.source_column = (self.source_column + HORIZONTAL_STEP).min(limit);
    }

    pub(super) fn show_record_in_source(&mut self) {
        let interpretation = self.document.txt.interpretation(self.reading());
        let line = self.record_rows().get(self.records_view.cursor).and_then(|row| row.line(interpretation));
        if let Some(line) = line {
            self.show_line(line);
        }
    }

    /// Puts the source's cursor on a 1-based line, scrolled into view, and focuses it.
    pub(super) fn show_line(&mut self, line: usize) {
        let (len, height) = (self.document.txt.lines().len(), self.areas().inner_height(Pane::Source));
        self.source_view.cursor = line.saturating_sub(1).min(len.saturating_sub(1));
        self.source_view.bring_into_view(self.source_view.cursor, len, height);
        self.set_focus(Pane::Source);
    }

    // --- The mouse -----------------------------------------------------------------------

    pub(super) fn click(&mut self, column: u16, row: u16) {
        if self.prompt.is_some() || self.view.is_some() {
            return;
        }
        let areas = self.areas();
        let Some(pane) = areas.pane_at(column, row) else { return };
        self.set_focus(pane);
        // The row inside the pane's border, if the click fell on content.
        let inner_row = usize::from(row.saturating_sub(areas.of(pane).y + 1));
        let on_content = row > areas.of(pane).y && inner_row < areas.inner_height(pane);
        if !on_content {
            return;
        }
        match pane {
            Pane::Robots => {
                if let Some(&index) = self.shown_robots().get(self.robots_view.offset + inner_row) {
                    self.select_robot(index);
                }
            }
            Pane::Source => {
                let line = self.source_view.offset + inner_row;
                if line < self.document.txt.lines().len() {
                    self.source_view.cursor = line;
                }
            }
            Pane::Records => {
                let index = self.records_view.offset + inner_row;
                if index < self.record_rows().len() {
                    self.records_view.cursor = index;
                }
            }
            Pane::Tester => {}
        }
    }

    pub(super) fn wheel(&mut self, column: u16, row: u16, down: bool) {
        if self.view.is_some() {
            // The open view moves as its moving keys move it.
            for _ in 0..WHEEL_LINES {
                let _moved = self.update_open_view(if down { Action::Down } else { Action::Up });
            }
            return;
        }
        let areas = self.areas();
        let Some(pane) = areas.pane_at(column, row) else { return };
        let delta = if down { WHEEL_LINES.cast_signed() } else { -WHEEL_LINES.cast_signed() };
        let height = areas.inner_height(pane);
        match pane {
            Pane::Robots => {
                let shown = self.shown_robots().len();
                self.robots_view.offset = scrolled(self.robots_view.offset, delta, shown, height);
            }
            Pane::Source => self.source_view.scroll_by(delta, self.document.txt.lines().len(), height),
            Pane::Records => self.records_view.scroll_by(delta, self.record_rows().len(), height),
            Pane::Tester => {
                self.tester_scroll = self.tester_first_detail().saturating_add_signed(delta);
                self.tester_scroll = self.tester_first_detail();
            }
        }
    }

    /// Keeps every pane's cursor visible after a resize.
    pub(super) fn reveal_cursors(&mut self) {
        let areas = self.areas();
        let shown = self.shown_robots().len();
        self.robots_view.reveal(self.robots_view.cursor, shown, areas.inner_height(Pane::Robots));
        self.source_view.reveal(
            self.source_view.cursor,
            self.document.txt.lines().len(),
            areas.inner_height(Pane::Source),
        );
        let rows = self.record_rows().len();
        self.records_view.reveal(self.records_view.cursor, rows, areas.inner_height(Pane::Records));
    }
}

impl App {
    /// Moves the base view's cursor by `delta` lines (an open view moves its own; here
    /// it has a prompt over it, which moving does not reach).
    pub(super) fn move_by(&mut self, delta: isize) {
        if self.view.is_none() {
            self.move_cursor(delta);
        }
    }

    /// The lines a page key moves the focused pane by.
    pub(super) fn page_height(&self) -> isize {
        let height = self.areas().inner_height(self.focus).saturating_sub(1);
        isize::try_from(height.max(1)).unwrap_or(1)
    }

    pub(super) fn set_focus(&mut self, pane: Pane) {
        if pane != Pane::Source {
            self.editor = None;
        }
        self.focus = pane;
    }
}
