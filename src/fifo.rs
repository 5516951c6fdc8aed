//! Letting go of a FIFO a reading thread is stuck opening (issue 35).
//!
//! Opening a FIFO for reading waits for a writer, in the kernel, where nothing can
//! interrupt the thread. A reader whose deadline passed or whose user pressed Esc is
//! abandoned, but its thread stays until a writer comes, which may be never: an
//! audit stopped in the explorer left one behind for the rest of the session. Opening
//! the FIFO for writing ourselves, without waiting (`O_NONBLOCK`, which succeeds only
//! while a reader waits), and closing it at once gives that reader its writer and then
//! the end of the input: the thread opens, reads nothing, sees it was abandoned, and ends.

use std::path::Path;

/// Gives whatever thread is stuck opening the FIFO at `path` a writer that closes at
/// once, so that it goes on (to an empty read) and can end. Nothing happens for a path
/// that is no FIFO, or when no reader waits.
pub fn release_waiting_reader(path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
        if std::fs::metadata(path).is_ok_and(|metadata| metadata.file_type().is_fifo()) {
            // Dropped at once: the writer closes, and the reader reads the end.
            let _ = std::fs::OpenOptions::new().write(true).custom_flags(libc::O_NONBLOCK).open(path);
        }
    }
    #[cfg(not(unix))]
    let _ = path;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A thread stuck opening a FIFO no one writes to goes on once let go, and ends.
    #[cfg(unix)]
    #[test]
    fn a_reader_stuck_opening_a_fifo_is_let_go() {
        let dir = tempfile::tempdir().expect("temp dir");
        let fifo = dir.path().join("fifo");
        assert!(std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs").success());
        let (done, ended) = std::sync::mpsc::channel();
        let path = fifo.clone();
        std::thread::spawn(move || {
            let read = std::fs::read(&path);
            let _ = done.send(read.map(|bytes| bytes.len()).map_err(|error| error.to_string()));
        });
        // Until let go, it waits (release repeats: the reader may not be in open yet).
        let mut answer = Err(std::sync::mpsc::RecvTimeoutError::Timeout);
        for _ in 0..200 {
            release_waiting_reader(&fifo);
            answer = ended.recv_timeout(std::time::Duration::from_millis(50));
            if answer.is_ok() {
                break;
            }
        }
        assert_eq!(answer, Ok(Ok(0)), "the reader read the end of an empty input and ended");
        release_waiting_reader(&dir.path().join("not-a-fifo"));
    }
}
