//! The changes view (`v`): what the edits changed. The verdicts they flipped for the
//! robots the user selected and the paths they tested, under every reading; those of
//! every robot the file names; and the diff against the loaded text. Made when the view
//! opens and again when the text changes under it, not at every frame.

use super::{Reply, View, movement, scrolled_to};
use crate::app::edits::Change;
use crate::app::layout::{self, CHANGES_OVERLAY};
use crate::app::{Action, App, Effect, tester};
use crate::policy::impact::Flip;
use crate::words::plural;

/// What the edits changed, as the changes view (`v`) shows it: made when the view opens
/// (and again if the text changes), not at every frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangesReport {
    /// The (text, loaded text) generations it was made for.
    generations: (u64, u64),
    /// The columns its explanations were wrapped to.
    width: usize,
    /// Its lines, top to bottom.
    pub lines: Vec<ChangesLine>,
}

/// One line of the changes view.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ChangesLine {
    /// A section's heading.
    Heading(String),
    /// Nothing to say in a section.
    Nothing(String),
    /// A verdict the edits flipped for a robot and path the user looked at.
    Flipped(Change),
    /// Why, for the edited text (under the flip).
    Why(String),
    /// A verdict the edits flipped for a robot the file names.
    Named(Flip),
    /// Robots, each under a reading, whose wildcard rules changed in a way no path
    /// showed.
    Uncertain(String),
    /// A line of the unified diff.
    Diff(String),
}

/// The changes view (`v`): its report, made when it opens and again when the text
/// changes under it, and how far it is scrolled.
#[derive(Debug, Clone, Default)]
pub struct ChangesView {
    /// What it shows (made just after it opens).
    pub report: Option<ChangesReport>,
    /// The first line shown.
    pub scroll: usize,
}

impl ChangesView {
    /// Scrolls by the moving keys, no further than the report's last line.
    pub(super) fn update(&mut self, action: Action, app: &App) -> Reply {
        let Some(delta) = movement(&action, usize::from(app.area.height.saturating_sub(8))) else {
            return Reply::Pass(action);
        };
        let lines = self.report.as_ref().map_or(0, |report| report.lines.len());
        let shown = usize::from(app.area.height.min(CHANGES_OVERLAY.1).saturating_sub(2)).max(1);
        self.scroll = scrolled_to(self.scroll, delta, lines, shown);
        Reply::done()
    }
}

impl App {
    /// The changes view's report, when it is open.
    #[must_use]
    pub fn changes_report(&self) -> Option<&ChangesReport> {
        match &self.view {
            Some(View::Changes(view)) => view.report.as_ref(),
            _ => None,
        }
    }

    /// `v`: what the edits changed.
    pub(in crate::app) fn open_changes(&mut self) -> Vec<Effect> {
        let effects = self.show(View::Changes(ChangesView::default()));
        self.refresh_changes();
        effects
    }

    /// Makes the open changes view's report for the text on screen, unless it is made.
    pub(in crate::app) fn refresh_changes(&mut self) {
        let Some(View::Changes(view)) = &self.view else { return };
        let generations = (self.text_generation, self.original_generation);
        // The explanations wrap to the view's inner width, less their indent.
        let (columns, _) = layout::overlay_size(self.area, CHANGES_OVERLAY.0, 1);
        let width = usize::from(columns.saturating_sub(2 + 4)).max(20);
        if view.report.as_ref().is_some_and(|report| (report.generations, report.width) == (generations, width)) {
            return;
        }
        let mut lines = vec![ChangesLine::Heading(
            "Verdicts the edits flipped for the robots you selected and the paths you tested, under every reading"
                .to_owned(),
        )];
        let changes = self.changes();
        if changes.is_empty() {
            lines.push(ChangesLine::Nothing("none".to_owned()));
        }
        for change in changes {
            let why = tester::wrap(&change.explanation, width);
            lines.push(ChangesLine::Flipped(change));
            lines.extend(why.into_iter().map(ChangesLine::Why));
        }
        lines.push(ChangesLine::Heading(String::new()));
        lines.push(ChangesLine::Heading(
            "Every robot the file names and a robot no group names, under every reading".to_owned(),
        ));
        let impact = crate::policy::impact::impact(&self.original, &self.document.txt);
        if impact.is_none() {
            lines.push(ChangesLine::Nothing("no verdict changed".to_owned()));
        }
        lines.extend(impact.flips().iter().cloned().map(ChangesLine::Named));
        let unlisted = impact.changed_robots().len().saturating_sub(impact.flips().len());
        if unlisted > 0 {
            lines.push(ChangesLine::Nothing(format!("and {} more", plural(unlisted, "robot"))));
        }
        if !impact.uncertain_robots().is_empty() {
            let who: Vec<String> = impact
                .uncertain_robots()
                .iter()
                .take(8)
                .map(|(reading, robot)| format!("{robot} ({})", reading.short_title()))
                .collect();
            lines.push(ChangesLine::Uncertain(format!(
                "may change (wildcard rules changed, and no path tried shows it): {}",
                who.join(", ")
            )));
        }
        lines.push(ChangesLine::Heading(String::new()));
        lines.push(ChangesLine::Heading("Diff against the loaded text".to_owned()));
        let diff = self.diff();
        if diff.is_empty() {
            lines.push(ChangesLine::Nothing("no edits".to_owned()));
        }
        lines.extend(diff.lines().map(|line| ChangesLine::Diff(line.to_owned())));
        if let Some(View::Changes(view)) = &mut self.view {
            view.report = Some(ChangesReport { generations, width, lines });
        }
    }
}
