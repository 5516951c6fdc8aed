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
}

impl Areas {
    /// Lays out the panes in a terminal of `size`. Wide terminals get three columns
    /// (robots, source, records); narrower ones stack records under the source. The
    /// tester spans the width above the status bar.
    #[must_use]
    pub fn new(size: Rect) -> Areas {
        let tester_height = if size.height >= 30 { 8 } else { 6 };
        let [main, tester, status] = size.layout(&Layout::vertical([
            Constraint::Min(3),
            Constraint::Length(tester_height),
            Constraint::Length(1),
        ]));
        if size.width >= WIDE_BYTES {
            let [robots, source, records] = main.layout(&Layout::horizontal([
                Constraint::Length(26),
                Constraint::Min(30),
                Constraint::Percentage(32),
            ]));
            Areas { robots, source, records, tester, status }
        } else {
            let robots_width = if size.width >= 80 { 22 } else { 17 };
            let [robots, right] =
                main.layout(&Layout::horizontal([Constraint::Length(robots_width), Constraint::Min(20)]));
            let [source, records] =
                right.layout(&Layout::vertical([Constraint::Percentage(60), Constraint::Percentage(40)]));
            Areas { robots, source, records, tester, status }
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
