//! What the explorer asks the outside world to do. [`App::update`](super::App::update)
//! returns effects instead of doing I/O; the event loop in `tui` runs them.

use std::path::PathBuf;

use super::action::CopyWhat;
use crate::clipboard::CopyMethod;
use crate::fetch::{Limits, Source};

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
    /// Write a file through a temporary file and a rename, and answer with
    /// [`Action::Saved`](super::Action::Saved) (or, with `then_quit`, write it at once
    /// and quit: the process is stopping).
    Save {
        /// Where.
        path: PathBuf,
        /// What.
        text: Vec<u8>,
        /// Quit once written, whatever happened.
        then_quit: bool,
    },
    /// Leave the explorer and restore the terminal.
    Quit,
}
