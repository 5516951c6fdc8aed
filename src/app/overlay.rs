//! What can lie over the base view: at most one overlay at a time.
//!
//! The base view is the four panes (robots, source, records, tester), or the editor in
//! the source pane. An [`Overlay`] takes the keys while it is open; a prompt can sit on
//! top of either. Help, the message log and the quit question can be opened over the
//! compare view or the page policy, and going back from them reopens that view (whose
//! state is kept while it is closed), so the rule "one overlay" never loses the user's
//! place.

/// An overlay over the base view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overlay {
    /// The compare view: paths x robots (`c`).
    Compare,
    /// The tested page's own policy (`p`).
    Page,
    /// The site's sitemaps and the URLs they list that robots may not fetch (`m`).
    Sitemaps,
    /// The site's robots.txt over time (`H`).
    History,
    /// Every key (`?`).
    Help,
    /// The last messages, whole (`M`).
    Messages,
    /// How the file was fetched (`i`).
    FetchDetails,
    /// The list of diagnostics (`d`).
    Diagnostics,
    /// What the edits changed: flipped verdicts and the diff (`v`).
    Changes,
    /// What to copy (`y`).
    CopyMenu,
    /// What becomes of the unsaved edits before something drops them: quitting,
    /// reading the file again, opening another, showing what a load brought.
    UnsavedEdits,
    /// Replace a file that exists and is not the one the user opened?
    ConfirmReplace,
}

impl Overlay {
    /// True for the overlays that are views of their own (kept while closed), which help,
    /// the message log and the quit question return to.
    #[must_use]
    pub fn is_view(self) -> bool {
        matches!(self, Overlay::Compare | Overlay::Page | Overlay::Sitemaps | Overlay::History)
    }
}
