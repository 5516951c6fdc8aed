//! Refusing work the process has no memory for, before it starts (issue 35).
//!
//! Rust ends the process when an allocation fails: no error to catch, no unwinding. A
//! command can live with that (it ends with a message); a library loaded into another
//! program cannot: a Python interpreter under `RLIMIT_AS` died of a 100 MB robots.txt,
//! taking the caller's work with it. So the work whose memory the input decides
//! reserves room for its peak first, with a fallible allocation (`try_reserve`), and
//! gives it back at once: when the address space cannot hold it, the caller gets an
//! [`OutOfMemory`] to raise, and nothing was started. Each [`Work`]'s peak is measured,
//! in bytes per byte of the file, on the inputs that cost most (`benches/adversarial.sh`
//! builds them).

use std::fmt;

/// Work on a file whose memory its size decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Work {
    /// Reading its groups and rules (the first question under a reading).
    Read,
    /// Compiling a robot's rules for matching.
    Match,
    /// Linting it, each fix checked under every reading.
    Lint,
    /// Applying every fix.
    Fix,
}

impl Work {
    /// The peak, in bytes per byte of the file, rounded up from what was measured: 6.5
    /// for a file of plain rules matched, 14.6 of wildcard rules, 61 for a lint that
    /// finds a fix on every line, 41 for fixing them.
    fn bytes_per_byte(self) -> usize {
        match self {
            Work::Read => 8,
            Work::Match => 16,
            Work::Lint => 64,
            Work::Fix => 48,
        }
    }

    fn verb(self) -> &'static str {
        match self {
            Work::Read => "read",
            Work::Match => "compile the rules of",
            Work::Lint => "lint",
            Work::Fix => "fix",
        }
    }
}

/// There is no room for the work: the address space (a `ulimit -v`, a 32-bit process)
/// cannot hold its peak.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutOfMemory {
    work: Work,
    file_bytes: usize,
    needed: usize,
}

impl fmt::Display for OutOfMemory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mib = |bytes: usize| bytes.div_ceil(1 << 20);
        write!(
            f,
            "not enough memory to {} a robots.txt of {} MiB: about {} MiB are needed and could not be reserved",
            self.work.verb(),
            mib(self.file_bytes),
            mib(self.needed)
        )
    }
}

impl std::error::Error for OutOfMemory {}

/// Reserves room for `work` on a file of `file_bytes` and gives it back: `Ok` when the
/// work may start.
///
/// # Examples
///
/// ```
/// # #[cfg(feature = "parts")] {
/// use robotscope_core::memory::{Work, room_for};
/// assert!(room_for(Work::Match, 1 << 20).is_ok());
/// assert!(room_for(Work::Lint, usize::MAX / 2).is_err());
/// # }
/// ```
pub fn room_for(work: Work, file_bytes: usize) -> Result<(), OutOfMemory> {
    let needed = file_bytes.saturating_mul(work.bytes_per_byte());
    let mut room: Vec<u8> = Vec::new();
    // Reserved, never written: the pages are not touched, only the address space is
    // asked for, which is what a limit on it refuses.
    room.try_reserve_exact(needed).map_err(|_| OutOfMemory { work, file_bytes, needed })
}
