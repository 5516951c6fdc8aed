//! Writing a file so that it is never half-written: the text goes to a temporary file
//! beside the target, which is flushed to disk and then renamed over the target. A
//! failure at any step leaves the old file as it was (and the caller keeps the text).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Why a save failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SaveError {
    /// The temporary file could not be created or written.
    #[error("cannot write {path}: {reason}")]
    Write {
        /// The file that could not be written.
        path: PathBuf,
        /// What the system said.
        reason: String,
    },
    /// The temporary file could not be renamed over the target.
    #[error("cannot replace {path}: {reason}")]
    Rename {
        /// The target.
        path: PathBuf,
        /// What the system said.
        reason: String,
    },
}

/// Writes `bytes` to `path` through a temporary file and a rename.
pub fn save_atomically(path: &Path, bytes: &[u8]) -> Result<(), SaveError> {
    let directory = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map_or_else(|| "robots.txt".into(), |n| n.to_string_lossy().into_owned());
    let temporary = directory.join(format!(".{name}.robotscope-{}.tmp", std::process::id()));
    let write_error = |e: std::io::Error| SaveError::Write { path: temporary.clone(), reason: e.to_string() };
    let written = fs::File::create(&temporary).and_then(|mut file| {
        file.write_all(bytes)?;
        file.sync_all()
    });
    if let Err(error) = written {
        let _ = fs::remove_file(&temporary);
        return Err(write_error(error));
    }
    fs::rename(&temporary, path).map_err(|e| {
        let _ = fs::remove_file(&temporary);
        SaveError::Rename { path: path.to_path_buf(), reason: e.to_string() }
    })
}

/// Where unsaved edits go when the explorer must stop at once (a signal, a panic):
/// beside the source file as `NAME.robotscope-unsaved`, or in the temporary directory.
#[must_use]
pub fn recovery_path(source: Option<&Path>) -> PathBuf {
    match source {
        Some(path) => {
            let mut name = path.file_name().map_or_else(|| "robots.txt".into(), std::ffi::OsStr::to_os_string);
            name.push(".robotscope-unsaved");
            path.with_file_name(name)
        }
        None => std::env::temp_dir().join(format!("robots.txt.robotscope-unsaved-{}", std::process::id())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saves_and_replaces() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("robots.txt");
        save_atomically(&path, b"one").expect("first save");
        save_atomically(&path, b"two").expect("second save");
        assert_eq!(fs::read(&path).expect("read"), b"two");
        let leftovers: Vec<_> = fs::read_dir(dir.path()).expect("dir").collect();
        assert_eq!(leftovers.len(), 1, "no temporary file is left behind");
    }

    #[test]
    fn a_failed_save_says_why() {
        let error = save_atomically(Path::new("/nonexistent-dir/robots.txt"), b"x").expect_err("no such directory");
        assert!(matches!(error, SaveError::Write { .. }));
    }

    #[test]
    fn recovery_files_sit_beside_the_source() {
        assert_eq!(recovery_path(Some(Path::new("/a/robots.txt"))), Path::new("/a/robots.txt.robotscope-unsaved"));
    }
}
