//! What can happen to the explorer: the user's intents, and results coming back from
//! background work. Everything that changes the app is an [`Action`] passed to
//! [`App::update`](super::App::update).

use std::path::PathBuf;
use std::time::Duration;

use crossterm::event::KeyEvent;

use super::effect::AfterSave;
use super::focus::Pane;
use super::input::Edit;
use crate::clipboard::{ClipboardError, CopyMethod};
use crate::fetch::{FetchError, PageFetch, Retrieved, SourceError};
use crate::policy::lint::Diagnostic;
use crate::save::SaveError;

/// One thing that happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Move focus to the next pane (Tab).
    FocusNext,
    /// Move focus to the previous pane (Shift-Tab).
    FocusPrev,
    /// Move the focused pane's cursor up one line.
    Up,
    /// Move the focused pane's cursor down one line.
    Down,
    /// Move up a page.
    PageUp,
    /// Move down a page.
    PageDown,
    /// Go to the first line.
    Top,
    /// Go to the last line.
    Bottom,
    /// Select the next robot (`]`).
    NextRobot,
    /// Select the previous robot (`[`).
    PrevRobot,
    /// Cycle the reading: rfc9309, draft1996, koster1994 (`s`).
    CycleReading,
    /// Go back to each robot's default reading (`S`).
    FollowRobotReading,
    /// Start typing a path in the tester (`/`).
    EditPath,
    /// An edit to the tester's path while typing it.
    PathEdit(Edit),
    /// Test the typed path and keep it in the history (Enter).
    SubmitPath,
    /// Start typing the name of a robot to add (`a`).
    AddRobot,
    /// An edit to the robot name being typed.
    RobotNameEdit(Edit),
    /// Add the typed robot and select it (Enter).
    SubmitRobotName,
    /// Jump the source to the line under the records cursor (Enter in records).
    ShowInSource,
    /// Show or hide the key help (`?`).
    ToggleHelp,
    /// Leave the current mode or cancel (Esc).
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
    /// Load the source again (`r`): refetch a site, reread a file.
    Reload,
    /// Start typing another source to open (`o`).
    OpenSource,
    /// An edit to the source being typed.
    SourceEdit(Edit),
    /// Open the typed source (Enter).
    SubmitSource,
    /// Show or hide how the file was fetched (`i`).
    ToggleFetchDetails,
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
    /// Fetch the tested page and show its policy, or close it (`p`).
    PagePolicy,
    /// A page fetch finished.
    PageFetched {
        /// The fetch's id.
        id: u64,
        /// The page (and the robots.txt of the other sites it redirects to), or why
        /// there is none.
        result: Box<Result<PageFetch, FetchError>>,
    },
    /// Show or hide the list of diagnostics (`d`).
    ToggleDiagnostics,
    /// The diagnostics of a text linted in the background.
    Linted {
        /// The text generation they belong to ([`App::stale_diagnostics`](super::App::stale_diagnostics)).
        generation: u64,
        /// The diagnostics.
        diagnostics: Vec<Diagnostic>,
    },
    /// Apply the fixes of the diagnostics on the cursor's line (`f`).
    FixHere,
    /// Apply every fix, round after round (`F`).
    FixAll,
    /// Open the editor on the text (`e`).
    OpenEditor,
    /// A key typed into the editor.
    EditorKey(KeyEvent),
    /// Text pasted into the editor.
    EditorPaste(String),
    /// Show or hide what the edits changed: flipped verdicts and the diff (`v`).
    ToggleChanges,
    /// Open the copy menu (`y`).
    CopyMenu,
    /// Copy one of the texts.
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
    /// Start saving (`w`, Ctrl-S in the editor): asks where.
    Save,
    /// An edit to the path being typed for saving.
    SavePathEdit(Edit),
    /// Save to the typed path (Enter).
    SubmitSavePath,
    /// A save finished.
    Saved {
        /// Where it went.
        path: PathBuf,
        /// The text that was saved.
        text: Vec<u8>,
        /// What was to happen next.
        after: AfterSave,
        /// How it went.
        result: Result<(), SaveError>,
    },
    /// Save, then quit (asked on quitting with unsaved edits).
    SaveThenQuit,
    /// Quit without saving, after being asked.
    QuitWithoutSaving,
    /// The process is told to stop (SIGTERM, SIGHUP): unsaved edits go to a recovery
    /// file, then the explorer quits.
    Terminate,
    /// Open or close the compare view (`c`).
    ToggleCompare,
    /// Put the selected robot among the compared ones, or take it out (Space in the
    /// robots pane).
    ToggleComparedRobot,
    /// Move left a column (compare view).
    Left,
    /// Move right a column (compare view).
    Right,
    /// Show the three readings of the robot under the cursor as columns, or go back
    /// (`m`).
    ToggleReadingColumns,
    /// Remove the robot column under the cursor (`x`).
    RemoveCompareColumn,
    /// Start typing a path to add as a row (`/` in the compare view).
    AddComparePath,
    /// An edit to the path (or file) being typed in the compare view.
    ComparePathEdit(Edit),
    /// Add the typed path as a row (Enter).
    SubmitComparePath,
    /// Start typing a file of paths, one per line, for the rows (`L`).
    LoadComparePaths,
    /// Read the typed file of paths (Enter).
    SubmitComparePathsFile,
    /// A file of paths was read.
    PathsRead {
        /// The file.
        file: PathBuf,
        /// Its paths (non-empty lines), or why it could not be read.
        result: Result<Vec<String>, String>,
    },
    /// Quit (`q`, Ctrl-C); asks first when there are unsaved edits.
    Quit,
}

/// What `y` copies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CopyWhat {
    /// The whole (corrected) file.
    File,
    /// The lines of the group that applies to the selected robot.
    Group,
    /// The diff of the edited text against the loaded one.
    Diff,
}

impl CopyWhat {
    /// How messages name it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            CopyWhat::File => "the file",
            CopyWhat::Group => "the group",
            CopyWhat::Diff => "the diff",
        }
    }
}
