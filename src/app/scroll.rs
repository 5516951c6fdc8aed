//! A cursor in a list and the rows in view: every list and pane of the explorer scrolls
//! through one.

/// A cursor in a list and the first visible row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ScrollView {
    /// The selected row.
    pub cursor: usize,
    /// The first row shown.
    pub offset: usize,
}

impl ScrollView {
    /// Moves the cursor by `delta` rows within `len` rows and keeps it visible in a
    /// window of `height` rows.
    pub(super) fn move_by(&mut self, delta: isize, len: usize, height: usize) {
        let last = len.saturating_sub(1);
        self.cursor = self.cursor.saturating_add_signed(delta).min(last);
        self.reveal(self.cursor, len, height);
    }

    /// Scrolls so that `row` is visible, moving as little as possible.
    pub(super) fn reveal(&mut self, row: usize, len: usize, height: usize) {
        let height = height.max(1);
        if row < self.offset {
            self.offset = row;
        } else if row >= self.offset + height {
            self.offset = row + 1 - height;
        }
        self.offset = self.offset.min(len.saturating_sub(height));
    }

    /// Scrolls so that `row` sits a third of the way down, the way editors show a
    /// search hit, unless it is already visible.
    pub(super) fn bring_into_view(&mut self, row: usize, len: usize, height: usize) {
        let height = height.max(1);
        if row < self.offset || row >= self.offset + height {
            self.offset = row.saturating_sub(height / 3).min(len.saturating_sub(height));
        }
        // Keep the cursor on screen so that keys act on something visible.
        self.cursor = self.cursor.clamp(self.offset, (self.offset + height - 1).min(len.saturating_sub(1)));
    }

    /// Scrolls the window without moving the cursor out of it.
    pub(super) fn scroll_by(&mut self, delta: isize, len: usize, height: usize) {
        let height = height.max(1);
        self.offset = self.offset.saturating_add_signed(delta).min(len.saturating_sub(height));
        self.cursor = self.cursor.clamp(self.offset, (self.offset + height - 1).min(len.saturating_sub(1)));
    }
}

/// `offset` moved by `delta` rows, within `len` rows shown `height` at a time.
pub(super) fn scrolled(offset: usize, delta: isize, len: usize, height: usize) -> usize {
    offset.saturating_add_signed(delta).min(len.saturating_sub(height.max(1)))
}
