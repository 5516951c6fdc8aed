//! What can happen to the explorer: the user's intents, and results coming back from
//! background work. Everything that changes the app is an [`Action`] passed to
//! [`App::update`](super::App::update).

use std::path::PathBuf;
use std::time::Duration;

use crossterm::event::KeyEvent;

use super::effect::{AfterSave, CopyWhat};
use super::focus::Pane;
use super::input::Edit;
use super::overlay::Overlay;
use super::prompt::PromptKind;
use crate::clipboard::{ClipboardError, CopyMethod};
use crate::fetch::{FetchError, PageFetch, Retrieved, Source, SourceError};
use crate::policy::lint::Diagnostic;
use crate::save::{SaveError, Saved};

/// One thing that happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Move focus to the next pane (Tab).
    FocusNext,
    /// Move focus to the previous pane (Shift-Tab).
    FocusPrev,
    /// Move the cursor (or scroll) up one line, in the pane or overlay that has the keys.
    Up,
    /// Move down one line.
    Down,
    /// Move up a page.
    PageUp,
    /// Move down a page.
    PageDown,
    /// Go to the first line.
    Top,
    /// Go to the last line.
    Bottom,
    /// Move left (a compare column; the source scrolls sideways).
    Left,
    /// Move right.
    Right,
    /// Select the next robot (`]`).
    NextRobot,
    /// Select the previous robot (`[`).
    PrevRobot,
    /// Cycle the reading: rfc9309, draft1996, koster1994 (`s`).
    CycleReading,
    /// Go back to each robot's default reading (`S`).
    FollowRobotReading,
    /// Open a prompt (`/`, `a`, `o`, `w`, `Ctrl-F`, `:`; `/` and `L` in the compare view).
    OpenPrompt(PromptKind),
    /// An edit to the open prompt's text.
    PromptEdit(Edit),
    /// Enter in the open prompt: do what it is for.
    PromptSubmit,
    /// Text pasted: into the open prompt (up to its first line break) or the editor.
    Paste(String),
    /// Open an overlay, or close it when it is open (`c`, `p`, `?`, `M`, `i`, `d`, `v`,
    /// `y`).
    Toggle(Overlay),
    /// Jump the source to the line under the records cursor, or of the selected
    /// diagnostic (Enter).
    ShowInSource,
    /// Find the next match of the last search (`n`).
    SearchNext,
    /// Find the previous match of the last search (`N`).
    SearchPrevious,
    /// Leave what is open, innermost first: a prompt, an overlay, the editor; else
    /// cancel a load (Esc).
    Cancel,
    /// A mouse click at a screen position: focuses the pane there.
    Click {
        /// Screen column.
        column: u16,
        /// Screen row.
        row: u16,
    },
    /// The mouse wheel turned over a screen position.
    Scroll {
        /// Screen column.
        column: u16,
        /// Screen row.
        row: u16,
        /// True for down (towards the end).
        down: bool,
    },
    /// Focus a pane directly.
    Focus(Pane),
    /// The terminal changed size.
    Resize {
        /// New width in columns.
        width: u16,
        /// New height in rows.
        height: u16,
    },
    /// Load the source again (`r`): refetch a site, reread a file; in the page policy,
    /// fetch the page again.
    Reload,
    /// A load is still running (sent by the load's task, for the spinner and timer).
    LoadProgress {
        /// The load's id.
        id: u64,
        /// How long it has run.
        elapsed: Duration,
    },
    /// A load finished.
    Loaded {
        /// The load's id.
        id: u64,
        /// The bytes and how they were had, or why there are none.
        result: Box<Result<Retrieved, SourceError>>,
    },
    /// A page fetch finished.
    PageFetched {
        /// The fetch's id.
        id: u64,
        /// The page (and the robots.txt of the other sites it redirects to), or why
        /// there is none.
        result: Box<Result<PageFetch, FetchError>>,
    },
    /// The diagnostics of a text linted in the background.
    Linted {
        /// The text generation they belong to ([`App::stale_diagnostics`](super::App::stale_diagnostics)).
        generation: u64,
        /// The diagnostics.
        diagnostics: Vec<Diagnostic>,
    },
    /// Apply the fixes of the diagnostics on the cursor's line, or of the selected
    /// diagnostic (`f`).
    FixHere,
    /// Apply every fix, round after round (`F`).
    FixAll,
    /// Every fix of a large text, made in the background.
    FixedAll {
        /// The text generation they were made for.
        generation: u64,
        /// The fixed text and what was applied.
        report: Box<crate::policy::fix::FixReport>,
        /// What they change under every reading.
        effect: crate::policy::impact::Impact,
    },
    /// Open the editor on the text (`e`).
    OpenEditor,
    /// A key typed into the editor.
    EditorKey(KeyEvent),
    /// Copy one of the texts (a choice in the copy menu).
    Copy(CopyWhat),
    /// A copy finished.
    Copied {
        /// What was copied, for the message.
        what: CopyWhat,
        /// The text, kept for a fallback.
        text: String,
        /// How it went.
        result: Result<CopyMethod, ClipboardError>,
    },
    /// A save finished.
    Saved {
        /// Where it went.
        path: PathBuf,
        /// The text that was saved.
        text: Vec<u8>,
        /// What was to happen next.
        after: AfterSave,
        /// How it went: the file written (after its links), or why not (boxed: a file
        /// changed on disk comes back with its bytes).
        result: Box<Result<Saved, SaveError>>,
    },
    /// Drop the unsaved edits and go on with what waited for the answer (quit, read the
    /// file again, open another, show what a load brought), after being asked.
    DiscardAndContinue,
    /// Replace the file that exists, after being asked.
    ReplaceFile,
    /// Show what another program changed in the file being saved, or hide it (`d` in
    /// the question a save asks when the file changed on disk).
    ToggleTheirChange,
    /// Undo the last change to the text (Ctrl-Z): an edit, a fix, every fix.
    Undo,
    /// Redo the last change undone (Ctrl-Y).
    Redo,
    /// The process is told to stop (SIGTERM, SIGHUP): unsaved edits go to a recovery
    /// file, then the explorer quits.
    Terminate,
    /// No directory took the recovery copy of a second quit (why): the explorer stays.
    RecoveryFailed(String),
    /// Put the selected robot among the compared ones, or take it out (Space in the
    /// robots pane).
    ToggleComparedRobot,
    /// Show the three readings of the robot under the cursor as columns, or go back
    /// (`m` in the compare view).
    ToggleReadingColumns,
    /// Remove the robot column under the cursor (`x` in the compare view).
    RemoveCompareColumn,
    /// Show the next AI usage category in the compare cells, or the crawl verdict
    /// again (`u` in the compare view).
    CycleCompareUsage,
    /// Compare every robot of the next purpose, or the robots chosen before (`p` in
    /// the compare view).
    CycleComparePurpose,
    /// Events of the sitemaps walk with this id, in a batch.
    SitemapEvents {
        /// The walk's id.
        id: u64,
        /// What it found, in order.
        events: Vec<crate::sitemaps::Event>,
    },
    /// The sitemaps walk with this id ended.
    SitemapsWalked {
        /// The walk's id.
        id: u64,
        /// How it went.
        walked: crate::sitemaps::Walked,
    },
    /// The URLs the sitemaps list become the compare view's rows (`R` in the sitemaps
    /// view).
    CompareSitemapUrls,
    /// How a history load is going.
    HistoryProgress {
        /// The load's id.
        id: u64,
        /// How far.
        progress: crate::history::HistoryProgress,
    },
    /// A history load ended: the versions, or why there are none.
    HistoryLoaded {
        /// The load's id.
        id: u64,
        /// What came back.
        result: Box<Result<crate::history::LoadedHistory, crate::history::ViewError>>,
    },
    /// How an audit is going.
    AuditProgress {
        /// The run's id.
        id: u64,
        /// How far.
        progress: crate::audit::AuditProgress,
    },
    /// An audit ended: what it found, or why nothing.
    Audited {
        /// The run's id.
        id: u64,
        /// What came back.
        result: Box<Result<crate::audit::Audited, String>>,
    },
    /// A load's robots.txt was kept in the store; `previous` is the site's last fetch
    /// before it.
    FetchKept {
        /// The load's id.
        id: u64,
        /// The last fetch before, if the store had one.
        previous: Option<Box<crate::history::Version>>,
        /// What went wrong with the store (damaged and moved aside, or unusable).
        warning: Option<String>,
    },
    /// Ask the web archive for its captures (`A` in the history view).
    AskArchive,
    /// Mark the selected version to diff against (Space in the history view).
    MarkVersion,
    /// Mark the robot, or the purpose's robots, to block (Space in the policy view), or
    /// unmark them.
    MarkToBlock,
    /// Make the block previewed (Enter in the policy view).
    ApplyBlock,
    /// Complete the robot's name typed in the add-robot prompt (Tab).
    CompleteRobotName,
    /// Show the robots of the next purpose in the switcher, then all (`P`).
    CycleRobotPurpose,
    /// Show the diff instead of the flips, or back (`d` in the history view).
    ToggleVersionDiff,
    /// Scroll the history view's detail down a line (`J`).
    DetailDown,
    /// Scroll it up a line (`K`).
    DetailUp,
    /// A file of paths was read.
    PathsRead {
        /// The file.
        file: PathBuf,
        /// Its paths (non-empty lines), or why it could not be read.
        result: Result<Vec<String>, String>,
    },
    /// A name typed in the open prompt was resolved: a file, a site, or why neither.
    SourceResolved {
        /// What it names.
        result: Result<Source, SourceError>,
    },
    /// Quit (`q`, Ctrl-C); asks first when there are unsaved edits.
    Quit,
}

impl Action {
    /// True for what the user did (a key, a click, a paste), as opposed to results
    /// coming back from background work, signals and resizes. Messages about "the key
    /// just pressed" last until the next of these.
    #[must_use]
    pub fn is_users(&self) -> bool {
        // Every variant named: one added is placed here, or the build fails (issue 39).
        match self {
            Action::Resize { .. }
            | Action::LoadProgress { .. }
            | Action::Loaded { .. }
            | Action::PageFetched { .. }
            | Action::Linted { .. }
            | Action::FixedAll { .. }
            | Action::Copied { .. }
            | Action::Saved { .. }
            | Action::Terminate
            | Action::RecoveryFailed(..)
            | Action::SitemapEvents { .. }
            | Action::SitemapsWalked { .. }
            | Action::HistoryProgress { .. }
            | Action::HistoryLoaded { .. }
            | Action::AuditProgress { .. }
            | Action::Audited { .. }
            | Action::FetchKept { .. }
            | Action::PathsRead { .. }
            | Action::SourceResolved { .. } => false,
            Action::FocusNext
            | Action::FocusPrev
            | Action::Up
            | Action::Down
            | Action::PageUp
            | Action::PageDown
            | Action::Top
            | Action::Bottom
            | Action::Left
            | Action::Right
            | Action::NextRobot
            | Action::PrevRobot
            | Action::CycleReading
            | Action::FollowRobotReading
            | Action::OpenPrompt(..)
            | Action::PromptEdit(..)
            | Action::PromptSubmit
            | Action::Paste(..)
            | Action::Toggle(..)
            | Action::ShowInSource
            | Action::SearchNext
            | Action::SearchPrevious
            | Action::Cancel
            | Action::Click { .. }
            | Action::Scroll { .. }
            | Action::Focus(..)
            | Action::Reload
            | Action::FixHere
            | Action::FixAll
            | Action::OpenEditor
            | Action::EditorKey(..)
            | Action::Copy(..)
            | Action::DiscardAndContinue
            | Action::ReplaceFile
            | Action::ToggleTheirChange
            | Action::Undo
            | Action::Redo
            | Action::ToggleComparedRobot
            | Action::ToggleReadingColumns
            | Action::RemoveCompareColumn
            | Action::CycleCompareUsage
            | Action::CycleComparePurpose
            | Action::CompareSitemapUrls
            | Action::AskArchive
            | Action::MarkVersion
            | Action::MarkToBlock
            | Action::ApplyBlock
            | Action::CompleteRobotName
            | Action::CycleRobotPurpose
            | Action::ToggleVersionDiff
            | Action::DetailDown
            | Action::DetailUp
            | Action::Quit => true,
        }
    }
}
