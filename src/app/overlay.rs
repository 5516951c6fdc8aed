//! Which view lies over the base view: the kinds of [`View`](super::View), without
//! their state, for what names a view without holding it (the key that opens it, the
//! keymap's context while it is open, what help lists first).
//!
//! The base view is the four panes (robots, source, records, tester), or the editor in
//! the source pane. A view takes the keys while it is open; a prompt can sit on top of
//! either.

/// A view over the base view, by kind.
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
    /// An access log replayed against the robots.txt of each request's time (`L`).
    Audit,
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
    /// The registry's robots by purpose, how the text treats each, and blocking some
    /// of them with proof (`b`).
    Policy,
    /// What to copy (`y`).
    CopyMenu,
    /// What becomes of the unsaved edits before something drops them: quitting,
    /// reading the file again, opening another, showing what a load brought.
    UnsavedEdits,
    /// Replace a file that exists and is not the one the user opened?
    ConfirmReplace,
    /// The file being saved changed on disk since it was read: overwrite it, see the
    /// change, or read it again?
    ChangedOnDisk,
}
