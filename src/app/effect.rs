//! What the explorer asks the outside world to do. [`App::update`](super::App::update)
//! returns effects instead of doing I/O; the event loop in `tui` runs them.

use std::path::PathBuf;
use std::sync::Arc;

use crate::clipboard::CopyMethod;
use crate::fetch::{Limits, Obey, Source};
use crate::policy::RobotsTxt;
use crate::save::Replace;

/// What happens once a save is done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AfterSave {
    /// Keep working.
    Stay,
    /// Go on with what waited for the answer about unsaved edits (quit, read the file
    /// again, open another), if the save succeeded.
    ThenContinue,
}

/// One thing for the shell to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Load a source in the background (read a file, fetch a site) and answer with
    /// [`Action::Loaded`](super::Action::Loaded), sending
    /// [`Action::LoadProgress`](super::Action::LoadProgress) while it runs.
    Load {
        /// The load's id, to be sent back.
        id: u64,
        /// What to load.
        source: Source,
        /// The fetch limits.
        limits: Limits,
    },
    /// Stop the load with this id, if it is still running.
    CancelLoad {
        /// The load's id.
        id: u64,
    },
    /// Fetch a page for its META tags and headers, and answer with
    /// [`Action::PageFetched`](super::Action::PageFetched).
    FetchPage {
        /// The fetch's id, to be sent back.
        id: u64,
        /// The page.
        url: url::Url,
        /// The fetch limits.
        limits: Limits,
        /// The robots whose robots.txt is obeyed (`None`: fetch anyway, `r`).
        obey: Option<Box<Obey>>,
    },
    /// Stop the page fetch with this id, if it is still running.
    CancelPageFetch {
        /// The fetch's id.
        id: u64,
    },
    /// Copy text out, by the given method, and answer with
    /// [`Action::Copied`](super::Action::Copied).
    Copy {
        /// What is copied.
        what: CopyWhat,
        /// The text.
        text: String,
        /// How.
        method: CopyMethod,
    },
    /// Write a file through a temporary file and a rename ([`crate::save::save`]), and
    /// answer with [`Action::Saved`](super::Action::Saved).
    Save {
        /// Where.
        path: PathBuf,
        /// What.
        text: Vec<u8>,
        /// What then.
        after: AfterSave,
        /// Whether a file already there may be replaced: only the one the user opened,
        /// or one they said to replace.
        replace: Replace,
    },
    /// The process is being stopped (SIGTERM, SIGHUP): write the unsaved edits to a
    /// recovery copy of their own, then quit, written or not.
    WriteRecoveryAndQuit(RecoveryCopy),
    /// The user quit twice with unsaved edits: write them to a recovery copy of their
    /// own, then quit; when no directory takes the copy, stay, answering with
    /// [`Action::RecoveryFailed`](super::Action::RecoveryFailed) (the edits are never
    /// dropped without the user saying so).
    KeepEditsAndQuit(RecoveryCopy),
    /// Walk a site's sitemaps, answering with batches of
    /// [`Action::SitemapEvents`](super::Action::SitemapEvents) and, at the end,
    /// [`Action::SitemapsWalked`](super::Action::SitemapsWalked).
    WalkSitemaps {
        /// The walk's id, to be sent back.
        id: u64,
        /// The sitemaps to start from.
        starts: Vec<url::Url>,
        /// The walk's limits.
        limits: crate::sitemaps::WalkLimits,
    },
    /// Stop the sitemaps walk with this id, if it is still running.
    CancelSitemaps {
        /// The walk's id.
        id: u64,
    },
    /// Reads the site's versions from the store (after asking the archive, when
    /// `archive`), answering with [`Action::HistoryLoaded`](super::Action::HistoryLoaded).
    LoadHistory {
        /// The load's id.
        id: u64,
        /// The site's robots.txt URL.
        robots_url: url::Url,
        /// Where versions are kept and found.
        settings: crate::history::HistorySettings,
        /// Ask the archive first.
        archive: bool,
        /// The limits of each request to the archive.
        limits: Limits,
    },
    /// Audits an access log on a thread of its own, answering with
    /// [`Action::AuditProgress`](super::Action::AuditProgress) and
    /// [`Action::Audited`](super::Action::Audited).
    RunAudit {
        /// The run's id.
        id: u64,
        /// The log.
        log: PathBuf,
        /// The site whose stored versions judge it, if the file is a site's.
        site: Option<url::Url>,
        /// The file on screen, which judges it for all time when no version is stored.
        on_screen: Box<crate::audit::replay::InForce>,
        /// Where versions are kept.
        settings: crate::history::HistorySettings,
        /// The limits of reading the store.
        limits: Limits,
    },
    /// Stops an audit.
    CancelAudit {
        /// The run's id.
        id: u64,
    },
    /// Stops a history load.
    CancelHistory {
        /// The load's id.
        id: u64,
    },
    /// Read a file of paths, one per line, and answer with
    /// [`Action::PathsRead`](super::Action::PathsRead).
    ReadPaths {
        /// The file.
        file: PathBuf,
    },
    /// Find out what a name typed in the open prompt names (asking the file system
    /// whether it is a file), and answer with
    /// [`Action::SourceResolved`](super::Action::SourceResolved).
    ResolveSource {
        /// The name as typed.
        spec: String,
    },
    /// Lint a text too large to lint between two frames, off the event loop, and answer
    /// with [`Action::Linted`](super::Action::Linted) for `generation`.
    Lint {
        /// The text generation the diagnostics will be for.
        generation: u64,
        /// The app's own parse, shared (the readings lint builds are then the app's too).
        txt: Arc<RobotsTxt>,
    },
    /// Apply every fix to a text too large to fix between two frames, off the event
    /// loop, and answer with [`Action::FixedAll`](super::Action::FixedAll) for
    /// `generation`.
    FixAll {
        /// The text generation the fixes are for.
        generation: u64,
        /// The text, as robots read it (what the fixes change is said on that).
        txt: Arc<RobotsTxt>,
    },
    /// Keep this copy of the unsaved edits, to be written if the process dies (a panic, a
    /// signal); `None` when there are none.
    KeepRecoveryCopy(Option<RecoveryCopy>),
    /// Leave the explorer and restore the terminal.
    Quit,
}

/// Unsaved edits, and where they go if the process dies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecoveryCopy {
    /// The name the copy starts with (`FILE.robotscope-unsaved`, or one in the recovery
    /// directory); the copy gets a name of its own after it
    /// ([`crate::save::write_recovery`]).
    pub base: PathBuf,
    /// The text.
    pub text: Vec<u8>,
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
    /// The text selected in the editor (Ctrl-X, Alt-W).
    Selection,
}

impl CopyWhat {
    /// How messages name it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            CopyWhat::File => "the file",
            CopyWhat::Group => "the group",
            CopyWhat::Diff => "the diff",
            CopyWhat::Selection => "the selection",
        }
    }

    /// What to do when the copy does not reach the clipboard: the text is never lost.
    #[must_use]
    pub fn fallback(self) -> &'static str {
        match self {
            CopyWhat::File | CopyWhat::Group | CopyWhat::Diff => "w saves it to a file",
            CopyWhat::Selection => "a cut is still in the undo history (Ctrl-Z)",
        }
    }
}
