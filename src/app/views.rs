//! Opening, closing and moving within the overlays over the base view.

use super::{App, Effect, Overlay, Pane, keymap, layout, tester};

impl App {
    /// Opens `overlay`, or closes it when it is the one open.
    pub(super) fn toggle(&mut self, overlay: Overlay) {
        if self.overlay == Some(overlay) {
            self.close(overlay);
            return;
        }
        self.open(overlay);
    }

    /// Opens an overlay in place of the one open. Help and the message log remember the
    /// view they cover, to go back to it.
    pub(crate) fn open(&mut self, overlay: Overlay) {
        self.overlay_below = match (overlay, self.overlay) {
            // Help and the message log go back to whatever they were opened over.
            (Overlay::Help | Overlay::Messages, Some(below)) if below != overlay => Some(below),
            (Overlay::UnsavedEdits | Overlay::ConfirmReplace, Some(below)) if below.is_view() => Some(below),
            _ => None,
        };
        match overlay {
            Overlay::Compare => self.open_compare(),
            Overlay::Diagnostics => {
                self.lint_now();
                self.check_selected_fix();
            }
            Overlay::Help => self.overlay_scroll = 0,
            Overlay::Messages => self.overlay_scroll = usize::MAX,
            Overlay::Changes => {
                self.overlay_scroll = 0;
                self.refresh_changes();
            }
            Overlay::Page
            | Overlay::Sitemaps
            | Overlay::History
            | Overlay::FetchDetails
            | Overlay::CopyMenu
            | Overlay::UnsavedEdits
            | Overlay::ConfirmReplace => {}
        }
        if overlay != Overlay::Compare {
            self.editor = None;
        }
        self.overlay = Some(overlay);
        if overlay == Overlay::Messages {
            // The newest messages, at the bottom.
            self.scroll_overlay(0);
        }
    }

    /// Closes the overlay: back to the view below it, or to the base view.
    pub(super) fn close(&mut self, overlay: Overlay) -> Vec<Effect> {
        let effects = match overlay {
            Overlay::Page => self.close_page(),
            _ => Vec::new(),
        };
        self.overlay = self.overlay_below.take();
        match overlay {
            Overlay::Compare => self.reveal_verdict(),
            // Made again when the view opens; the diff of a large file is megabytes.
            Overlay::Changes => self.changes_report = None,
            // "Keep working": nothing waits any more.
            Overlay::UnsavedEdits => self.pending = None,
            Overlay::ConfirmReplace => self.replace_question = None,
            _ => {}
        }
        effects
    }

    /// Moves the cursor of whatever has the keys by `delta` lines.
    pub(super) fn move_by(&mut self, delta: isize) {
        match self.overlay {
            Some(Overlay::Compare) => self.move_compare(delta, 0),
            Some(Overlay::Page) => self.scroll_page(delta),
            Some(Overlay::Sitemaps) => self.move_sitemaps(delta),
            Some(Overlay::History) => self.move_history(delta),
            Some(Overlay::Help | Overlay::Messages | Overlay::Changes) => self.scroll_overlay(delta),
            Some(Overlay::Diagnostics) => {
                let height = usize::from(self.area.height.saturating_sub(8));
                self.diagnostics_view.move_by(delta, self.diagnostics.len(), height);
                self.check_selected_fix();
            }
            Some(Overlay::FetchDetails | Overlay::CopyMenu | Overlay::UnsavedEdits | Overlay::ConfirmReplace) => {}
            None => self.move_cursor(delta),
        }
    }

    /// Scrolls help or the message log, no further than their last line.
    pub(super) fn scroll_overlay(&mut self, delta: isize) {
        let (lines, (_, height)) = match self.overlay {
            Some(Overlay::Help) => (keymap::help_line_count(), layout::HELP_OVERLAY),
            Some(Overlay::Changes) => {
                (self.changes_report.as_ref().map_or(0, |report| report.lines.len()), layout::CHANGES_OVERLAY)
            }
            _ => (self.message_log_lines().len(), layout::MESSAGES_OVERLAY),
        };
        let shown = usize::from(self.area.height.min(height).saturating_sub(2)).max(1);
        let last = lines.saturating_sub(shown);
        self.overlay_scroll = self.overlay_scroll.min(last).saturating_add_signed(delta).min(last);
    }

    /// The keys the help lists first: those of the view it was opened over.
    #[must_use]
    pub fn help_first(&self) -> Option<keymap::Context> {
        match self.overlay {
            Some(Overlay::Help) => self.overlay_below.map(keymap::Context::Overlay),
            _ => None,
        }
    }

    /// The message log as the overlay shows it: each message wrapped to its width,
    /// oldest first.
    #[must_use]
    pub fn message_log_lines(&self) -> Vec<String> {
        let width = usize::from(self.area.width.min(layout::MESSAGES_OVERLAY.0).saturating_sub(4)).max(10);
        self.status.log().flat_map(|message| tester::wrap(message, width)).collect()
    }

    pub(super) fn page_height(&self) -> isize {
        let height = match self.overlay {
            Some(Overlay::Compare) => self.areas().compare_rows(),
            Some(Overlay::Sitemaps) if self.sitemaps.as_ref().is_some_and(|view| view.rows_shown.get() > 0) => {
                self.sitemaps.as_ref().map_or(1, |view| view.rows_shown.get())
            }
            Some(_) => usize::from(self.area.height.saturating_sub(8)),
            None => self.areas().inner_height(self.focus).saturating_sub(1),
        };
        isize::try_from(height.max(1)).unwrap_or(1)
    }

    pub(super) fn set_focus(&mut self, pane: Pane) {
        if pane != Pane::Source {
            self.editor = None;
        }
        self.focus = pane;
    }
}
