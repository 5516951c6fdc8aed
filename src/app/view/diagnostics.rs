//! The diagnostics view (`d`): the list of what lint found, with the cursor on one.
//! Moving checks the selected fix under every reading, so the list says what it would
//! change before `f` applies it; Enter shows its line.

use super::{Reply, View, movement};
use crate::app::{Action, App, Effect, Overlay, ScrollView};

impl App {
    /// The diagnostics list's scroll position.
    #[must_use]
    pub fn diagnostics_view(&self) -> ScrollView {
        match &self.view {
            // The list may have shrunk under it (an edit, a fix).
            Some(View::Diagnostics(list)) => {
                ScrollView { cursor: list.cursor.min(self.diagnostics().len().saturating_sub(1)), ..*list }
            }
            _ => ScrollView::default(),
        }
    }

    /// `d`: the list of diagnostics, linted now if the background has not answered.
    pub(in crate::app) fn open_diagnostics(&mut self) -> Vec<Effect> {
        self.lint_now();
        let list = match self.shelf.take(Overlay::Diagnostics) {
            Some(View::Diagnostics(list)) => list,
            _ => ScrollView::default(),
        };
        let cursor = list.cursor.min(self.diagnostics.len().saturating_sub(1));
        let effects = self.show(View::Diagnostics(ScrollView { cursor, ..list }));
        self.check_selected_fix(cursor);
        effects
    }

    /// The diagnostics list's answer to an action: moving checks the selected fix under
    /// every reading, `f` applies it, Enter shows its line.
    pub(in crate::app) fn update_diagnostics(&mut self, list: &mut ScrollView, action: Action) -> Reply {
        // The list may have shrunk since (F, an undo, a background lint).
        list.cursor = list.cursor.min(self.diagnostics.len().saturating_sub(1));
        match action {
            Action::FixHere => self.fix_here(Some(list.cursor)),
            Action::ShowInSource => {
                if let Some(line) = self.diagnostics.get(list.cursor).map(robotscope_core::Diagnostic::line) {
                    self.show_line(line);
                }
                return Reply::Close(Vec::new());
            }
            action => {
                let height = usize::from(self.area.height.saturating_sub(8));
                let Some(delta) = movement(&action, height) else { return Reply::Pass(action) };
                list.move_by(delta, self.diagnostics.len(), height);
                self.check_selected_fix(list.cursor);
            }
        }
        // A fix changes the list under the cursor.
        list.cursor = list.cursor.min(self.diagnostics.len().saturating_sub(1));
        Reply::done()
    }
}
