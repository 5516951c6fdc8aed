//! What the explorer asks the outside world to do. [`App::update`](super::App::update)
//! returns effects instead of doing I/O; the event loop in `tui` runs them.

/// One thing for the shell to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Leave the explorer and restore the terminal.
    Quit,
}
