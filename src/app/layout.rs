//! Where each pane sits on the screen.
//!
//! The geometry lives in the app layer, not in `ui`, because the app needs it too: to
//! scroll the deciding line into view it must know how tall the source pane is, and to
//! turn a mouse click into a focus change it must know which pane was clicked. The UI
//! draws into exactly these rectangles. Only ratatui's layout types are used here,
//! which are plain geometry.

use ratatui::layout::{Constraint, Layout, Rect};

use super::focus::Pane;

/// Width from which the records pane gets a column of its own beside the source.
const WIDE_BYTES: u16 = 110;

/// Width of the compare view's path column, at least (when a path is cut, its end is
/// shown, so two long paths that differ at the end still look different).
pub const COMPARE_PATH_MIN_WIDTH: u16 = 16;

/// Width from which the compare view keeps the source beside the matrix.
const COMPARE_WITH_SOURCE_WIDTH: u16 = 100;

/// Width of one compare cell (a verdict and a line number, or a robot's name).
pub const COMPARE_CELL_WIDTH: u16 = 12;

/// Rows above the compare matrix's paths, at most: the robots' names (a second row when
/// a name is longer than a cell), the summary (group, rules, crawl delay, `/`), and a
/// rule.
pub const COMPARE_HEADER_ROWS: u16 = 7;

/// The compare matrix's summary rows (group, rules, crawl delay, `/`).
pub const COMPARE_SUMMARY_ROWS: u16 = 4;

/// The path rows the compare matrix keeps under its summary: on a terminal shorter
/// than that, the summary goes and the paths keep the room.
const COMPARE_ROWS_UNDER_SUMMARY: u16 = 3;

/// The help overlay's size, at most (it shrinks with the terminal).
pub const HELP_OVERLAY: (u16, u16) = (118, 40);

/// The message log's size, at most.
pub const MESSAGES_OVERLAY: (u16, u16) = (110, 30);

/// The changes view's size at most (width, height).
pub const CHANGES_OVERLAY: (u16, u16) = (110, 34);

/// The question a save asks when the file changed on disk, with room for the diff.
pub const CHANGED_OVERLAY: (u16, u16) = (100, 30);

/// The history view's size, drawn above the status bar (whose messages it leaves in
/// sight).
pub const HISTORY_OVERLAY: (u16, u16) = (118, 40);

/// The policy view's size, drawn above the status bar.
pub const POLICY_OVERLAY: (u16, u16) = (118, 40);

/// The audit view's size, drawn above the status bar.
pub const AUDIT_OVERLAY: (u16, u16) = (118, 40);

/// The size an overlay of `width` x `height` takes in `area`: its own, or all of the
/// area when less than a margin of 4 would be left around it.
#[must_use]
pub fn overlay_size(area: Rect, width: u16, height: u16) -> (u16, u16) {
    const MARGIN: u16 = 4;
    let width = if area.width.saturating_sub(width) < MARGIN { area.width } else { width };
    let height = if area.height.saturating_sub(height) < MARGIN { area.height } else { height };
    (width.min(area.width), height.min(area.height))
}

/// The area above the status bar.
#[must_use]
pub fn above_status(area: Rect) -> Rect {
    Rect { height: area.height.saturating_sub(1), ..area }
}

/// Columns before the text of a source line: the line number (as wide as the largest),
/// the diagnostic mark, the group mark and a space.
#[must_use]
pub fn source_gutter_width(line_count: usize) -> usize {
    line_count.max(1).to_string().len() + 3
}

/// The rectangles of the explorer's panes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Areas {
    /// The robot switcher.
    pub robots: Rect,
    /// The file.
    pub source: Rect,
    /// Groups and records.
    pub records: Rect,
    /// Path input and verdict.
    pub tester: Rect,
    /// The status bar (one line).
    pub status: Rect,
    /// The compare matrix, when the compare view is open (the robots and records panes
    /// are then empty, and the tester's area shows the cell's detail).
    pub compare: Rect,
}

impl Areas {
    /// Lays out the panes in a terminal of `size`. Wide terminals get three columns
    /// (robots, source, records); narrower ones stack records under the source. The
    /// tester spans the width above the status bar.
    #[must_use]
    pub fn new(size: Rect) -> Areas {
        Areas::layout(size, false)
    }

    /// Lays out the panes, with the compare view open or not. The compare view shows
    /// the source on the left (so the cell's deciding line can be highlighted) and the
    /// matrix on the right.
    #[must_use]
    pub fn layout(size: Rect, compare: bool) -> Areas {
        let tester_height = if size.height >= 30 { 8 } else { 6 };
        let [main, tester, status] = size.layout(&Layout::vertical([
            Constraint::Min(3),
            Constraint::Length(tester_height),
            Constraint::Length(1),
        ]));
        if compare {
            let empty = Rect::new(main.x, main.y, 0, 0);
            // Below this width the matrix needs every column: the source gives way.
            if size.width < COMPARE_WITH_SOURCE_WIDTH {
                return Areas { robots: empty, source: empty, records: empty, tester, status, compare: main };
            }
            let [source, matrix] = main.layout(&Layout::horizontal([Constraint::Percentage(30), Constraint::Min(20)]));
            return Areas { robots: empty, source, records: empty, tester, status, compare: matrix };
        }
        let compare = Rect::default();
        if size.width >= WIDE_BYTES {
            let [robots, source, records] = main.layout(&Layout::horizontal([
                Constraint::Length(26),
                Constraint::Min(30),
                Constraint::Percentage(32),
            ]));
            Areas { robots, source, records, tester, status, compare }
        } else {
            let robots_width = if size.width >= 80 { 22 } else { 17 };
            let [robots, right] =
                main.layout(&Layout::horizontal([Constraint::Length(robots_width), Constraint::Min(20)]));
            let [source, records] =
                right.layout(&Layout::vertical([Constraint::Percentage(60), Constraint::Percentage(40)]));
            Areas { robots, source, records, tester, status, compare }
        }
    }

    /// The rectangle of `pane`.
    #[must_use]
    pub fn of(&self, pane: Pane) -> Rect {
        match pane {
            Pane::Robots => self.robots,
            Pane::Source => self.source,
            Pane::Records => self.records,
            Pane::Tester => self.tester,
        }
    }

    /// The pane under a screen position, if any.
    #[must_use]
    pub fn pane_at(&self, column: u16, row: u16) -> Option<Pane> {
        Pane::ALL.into_iter().find(|&pane| {
            let area = self.of(pane);
            column >= area.x && column < area.right() && row >= area.y && row < area.bottom()
        })
    }

    /// Whether the compare matrix has room for its summary rows above a few paths.
    #[must_use]
    pub fn compare_shows_summary(&self) -> bool {
        self.compare.height.saturating_sub(2) >= COMPARE_HEADER_ROWS + COMPARE_ROWS_UNDER_SUMMARY
    }

    /// The rows above the compare matrix's paths, at most: the names, the summary when
    /// it shows, and a rule.
    #[must_use]
    pub fn compare_header_rows(&self) -> u16 {
        if self.compare_shows_summary() { COMPARE_HEADER_ROWS } else { COMPARE_HEADER_ROWS - COMPARE_SUMMARY_ROWS }
    }

    /// How many path rows the compare matrix shows: inside its border, under its header.
    #[must_use]
    pub fn compare_rows(&self) -> usize {
        usize::from(self.compare.height.saturating_sub(2 + self.compare_header_rows())).max(1)
    }

    /// The width of the compare matrix's path column: as wide as the longest path,
    /// within a minimum and two fifths of the matrix.
    #[must_use]
    pub fn compare_path_width(&self, longest_path: usize) -> u16 {
        let most = (self.compare.width.saturating_sub(2) * 2 / 5).max(COMPARE_PATH_MIN_WIDTH);
        u16::try_from(longest_path + 1).unwrap_or(u16::MAX).clamp(COMPARE_PATH_MIN_WIDTH, most)
    }

    /// How many robot columns the compare matrix shows.
    #[must_use]
    pub fn compare_columns(&self, longest_path: usize) -> usize {
        let room = self.compare.width.saturating_sub(2 + self.compare_path_width(longest_path) + 2);
        usize::from(room / COMPARE_CELL_WIDTH).max(1)
    }

    /// How many lines of content a pane shows inside its border.
    #[must_use]
    pub fn inner_height(&self, pane: Pane) -> usize {
        usize::from(self.of(pane).height.saturating_sub(2))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pane_fits_from_60_by_20() {
        for (width, height) in [(60, 20), (80, 24), (120, 40), (200, 60)] {
            let size = Rect::new(0, 0, width, height);
            let areas = Areas::new(size);
            for pane in Pane::ALL {
                let area = areas.of(pane);
                assert!(area.width >= 10 && area.height >= 3, "{pane:?} at {width}x{height}: {area:?}");
                assert!(size.contains(area.as_position()), "{pane:?} at {width}x{height}");
            }
            assert_eq!(areas.status.height, 1);
        }
    }

    #[test]
    fn clicks_find_their_pane() {
        let areas = Areas::new(Rect::new(0, 0, 120, 40));
        assert_eq!(areas.pane_at(1, 1), Some(Pane::Robots));
        assert_eq!(areas.pane_at(areas.tester.x + 2, areas.tester.y + 1), Some(Pane::Tester));
        assert_eq!(areas.pane_at(0, 39), None);
    }
}
