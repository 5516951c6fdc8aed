//! Writing a file so that no work is lost (issue 24).
//!
//! A save never leaves a half-written file: the text goes to a temporary file beside the
//! target, created exclusively (`O_EXCL`, `O_NOFOLLOW`: a link or file planted under its
//! name is refused, never written through), given the target's mode and owner, flushed
//! to disk and renamed over the target. A target reached through symbolic links is the
//! file they point to: the links stay links. A file that is not the one the user opened
//! is never replaced unless they said so ([`Replace::Never`] fails with
//! [`SaveError::Exists`], checked by a hard link that cannot replace, not by a look
//! first). When the owner of the file cannot be kept (another user's file, saved by a
//! user allowed to write it), the file is written in place instead, which keeps it.
//!
//! The file the user opened is replaced only if nobody changed it since it was read
//! ([`Replace::IfUnchanged`]): a change another program made meanwhile fails the save
//! with [`SaveError::Changed`], carrying the file as it is now, so that the user can
//! choose (issue 35).
//!
//! Recovery copies, written when the explorer must stop with unsaved edits (a signal, a
//! panic), each get a name of their own, never one already taken.

use std::fs;
use std::io::{self, Write};
#[cfg(unix)]
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::fetch::{FileStamp, MAX_FILE_BYTES, read_at_most};

/// Why a save failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SaveError {
    /// The file exists, and the save was not to replace it.
    #[error("{path} exists")]
    Exists {
        /// The file (after any links).
        path: PathBuf,
    },
    /// The file is read-only (no write permission for anyone): it is replaced only when
    /// the user says so ([`Replace::Anyway`]), as editors ask.
    #[error("{path} is read-only")]
    ReadOnly {
        /// The file (after any links).
        path: PathBuf,
    },
    /// The path names something that is not a regular file (a directory, a device).
    #[error("{path} is not a regular file")]
    NotAFile {
        /// What the path names.
        path: PathBuf,
    },
    /// The temporary file could not be created or written.
    #[error("cannot write {path}: {reason}")]
    Write {
        /// The file that could not be written.
        path: PathBuf,
        /// What the system said.
        reason: String,
    },
    /// Another program changed the file since it was read (or last saved).
    #[error("{path} changed on disk since it was read")]
    Changed {
        /// The file (after any links).
        path: PathBuf,
        /// What it holds now (at most [`MAX_FILE_BYTES`]).
        now: Vec<u8>,
        /// What it is now, for a save that replaces it after all, or a reload.
        stamp: FileStamp,
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

/// Whether a save may replace a file that is already there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Replace {
    /// Yes: a file they said to replace, or the one they opened when nothing tells what
    /// it was.
    Allowed,
    /// Only if it is still as stamped when it was read: the file the user opened.
    IfUnchanged(FileStamp),
    /// Whatever is there, read-only included: the user said so when asked.
    Anyway,
    /// No: the save fails with [`SaveError::Exists`] if the file exists.
    Never,
}

/// How a save went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Saved {
    /// The file written: the path given, or the file its links point to.
    pub file: PathBuf,
    /// True when the file was written in place (its owner could not be kept otherwise).
    pub in_place: bool,
    /// What the file is now, for the next save to tell whether it changed since.
    pub stamp: Option<FileStamp>,
}

/// The most symbolic links followed to the file a path names (as Linux's `ELOOP` limit).
const MAX_LINKS: usize = 40;

/// Temporary names tried before a save gives up (each taken one may be planted).
const TEMPORARY_NAMES: usize = 64;

/// Numbers temporary and recovery names within this process.
static NEXT_NAME: AtomicUsize = AtomicUsize::new(0);

/// Writes `bytes` to `path` (see the module documentation).
pub fn save(path: &Path, bytes: &[u8], replace: &Replace) -> Result<Saved, SaveError> {
    // A link is something there, even one that points nowhere yet: writing through it
    // would create a file wherever whoever made the link chose.
    if *replace == Replace::Never && fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(SaveError::Exists { path: path.to_path_buf() });
    }
    let file = follow_links(path)?;
    let write_error = |path: &Path, e: io::Error| SaveError::Write { path: path.to_path_buf(), reason: e.to_string() };
    let existing = match fs::metadata(&file) {
        Ok(metadata) if !metadata.is_file() => return Err(SaveError::NotAFile { path: file }),
        Ok(_) if *replace == Replace::Never => return Err(SaveError::Exists { path: file }),
        Ok(metadata) => {
            if *replace != Replace::Anyway && metadata.permissions().readonly() {
                return Err(SaveError::ReadOnly { path: file });
            }
            if let Replace::IfUnchanged(stamp) = replace {
                unchanged_since(&file, &metadata, stamp)?;
            }
            Some(metadata)
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(write_error(&file, e)),
    };
    let (temporary, mut handle) = create_temporary(&file, existing.as_ref())?;
    let written = (|| {
        handle.write_all(bytes)?;
        if let Some(metadata) = &existing {
            keep_mode_and_owner(&handle, metadata)?;
        }
        handle.sync_all()
    })();
    drop(handle);
    if let Err(error) = written {
        let _ = fs::remove_file(&temporary);
        // The owner of another user's file cannot be given to a new file: write the
        // file itself, which keeps it (as editors do).
        if error.kind() == io::ErrorKind::PermissionDenied && existing.is_some() {
            write_in_place(&file, bytes).map_err(|e| write_error(&file, e))?;
            let stamp = stamp_of(&file, bytes);
            return Ok(Saved { file, in_place: true, stamp });
        }
        return Err(write_error(&file, error));
    }
    let placed = if existing.is_some() {
        fs::rename(&temporary, &file)
    } else {
        // A hard link is never made over an existing file: a file created since the
        // look above stays as it is.
        fs::hard_link(&temporary, &file).or_else(|error| match error.kind() {
            io::ErrorKind::AlreadyExists => Err(error),
            // A file system without hard links: rename, after looking once more.
            _ if fs::symlink_metadata(&file).is_err() => fs::rename(&temporary, &file),
            _ => Err(io::Error::from(io::ErrorKind::AlreadyExists)),
        })
    };
    let _ = fs::remove_file(&temporary);
    match placed {
        Ok(()) => {
            sync_directory(&file);
            let stamp = stamp_of(&file, bytes);
            Ok(Saved { file, in_place: false, stamp })
        }
        Err(error) if error.kind() == io::ErrorKind::AlreadyExists => Err(SaveError::Exists { path: file }),
        Err(error) => Err(SaveError::Rename { path: file, reason: error.to_string() }),
    }
}

/// Fails with [`SaveError::Changed`] when `file` (whose metadata is `metadata`) is no
/// longer what `stamp` says was read: another file in its place, or other bytes. Same
/// identity, length and time: unchanged. Otherwise the contents decide, so that a
/// `touch` asks nothing.
fn unchanged_since(file: &Path, metadata: &fs::Metadata, stamp: &FileStamp) -> Result<(), SaveError> {
    if stamp.same_metadata(metadata) {
        return Ok(());
    }
    let read = fs::File::open(file).and_then(|handle| {
        let metadata = handle.metadata()?;
        let (now, truncated) = read_at_most(handle, MAX_FILE_BYTES)?;
        Ok((FileStamp::new(&metadata, &now, truncated), now, truncated))
    });
    match read {
        Ok((_, now, false)) if stamp.same_contents(&now) => Ok(()),
        Ok((now_stamp, now, _)) => Err(SaveError::Changed { path: file.to_path_buf(), now, stamp: now_stamp }),
        Err(error) => Err(SaveError::Write { path: file.to_path_buf(), reason: error.to_string() }),
    }
}

/// The stamp of a file just written with `bytes`.
fn stamp_of(file: &Path, bytes: &[u8]) -> Option<FileStamp> {
    fs::metadata(file).ok().map(|metadata| FileStamp::new(&metadata, bytes, false))
}

/// The file `path` names after its symbolic links (relative targets read from the
/// link's own directory); `path` itself when it is no link, or names nothing yet.
fn follow_links(path: &Path) -> Result<PathBuf, SaveError> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&current) {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                let target = fs::read_link(&current)
                    .map_err(|e| SaveError::Write { path: current.clone(), reason: e.to_string() })?;
                current = match current.parent() {
                    Some(parent) if target.is_relative() => parent.join(target),
                    _ => target,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(SaveError::Write { path: path.to_path_buf(), reason: format!("more than {MAX_LINKS} symbolic links") })
}

/// A new temporary file beside `file`, created exclusively (never through a link, never
/// over a file someone planted under the name), with the target's permissions.
fn create_temporary(file: &Path, existing: Option<&fs::Metadata>) -> Result<(PathBuf, fs::File), SaveError> {
    let directory = file.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = file.file_name().map_or_else(|| "robots.txt".into(), |n| n.to_string_lossy().into_owned());
    let mut last_error = None;
    for _ in 0..TEMPORARY_NAMES {
        let number = NEXT_NAME.fetch_add(1, Ordering::Relaxed);
        let temporary = directory.join(format!(".{name}.robotscope-{}-{number}.tmp", std::process::id()));
        let mut options = fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            options.custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC);
            // A new file gets the usual 0666 less the umask; an existing one its own mode
            // (set exactly once written, as the umask may have masked some bits).
            options.mode(existing.map_or(0o666, |metadata| metadata.permissions().mode() & 0o777));
        }
        #[cfg(not(unix))]
        let _ = existing;
        match options.open(&temporary) {
            Ok(handle) => return Ok((temporary, handle)),
            // Taken (perhaps planted): another name.
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => last_error = Some(error),
            Err(error) => {
                return Err(SaveError::Write { path: file.to_path_buf(), reason: why_not(directory, &error) });
            }
        }
    }
    let reason = last_error.map_or_else(String::new, |e| why_not(directory, &e));
    Err(SaveError::Write { path: file.to_path_buf(), reason })
}

/// Why the temporary file beside the target could not be made, in the user's terms:
/// they named the target, not the temporary file.
fn why_not(directory: &Path, error: &io::Error) -> String {
    match error.kind() {
        io::ErrorKind::NotFound => format!("the directory {} does not exist", directory.display()),
        io::ErrorKind::PermissionDenied => {
            format!(
                "the directory {} may not be written to (a save writes a new file there first)",
                directory.display()
            )
        }
        _ => format!("{error} (writing a new file in {})", directory.display()),
    }
}

/// Gives the temporary file the target's mode and owner.
fn keep_mode_and_owner(handle: &fs::File, metadata: &fs::Metadata) -> io::Result<()> {
    handle.set_permissions(metadata.permissions())?;
    #[cfg(unix)]
    {
        let mine = handle.metadata()?;
        if (mine.uid(), mine.gid()) != (metadata.uid(), metadata.gid()) {
            std::os::unix::fs::fchown(handle, Some(metadata.uid()), Some(metadata.gid()))?;
        }
    }
    Ok(())
}

/// Writes the file itself: for a file whose owner a new file could not keep.
fn write_in_place(file: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut handle = fs::OpenOptions::new().write(true).truncate(true).open(file)?;
    handle.write_all(bytes)?;
    handle.sync_all()
}

/// Flushes the directory entry of a renamed file, so that the rename survives a crash.
fn sync_directory(file: &Path) {
    if let Some(directory) = file.parent().filter(|p| !p.as_os_str().is_empty())
        && let Ok(handle) = fs::File::open(directory)
    {
        let _ = handle.sync_all();
    }
}

/// The suffix of recovery copies: `robots.txt.robotscope-unsaved.20261125-101500`.
const RECOVERY_SUFFIX: &str = ".robotscope-unsaved";

/// The name recovery copies of a file's unsaved edits start with: beside the file
/// (`robots.txt.robotscope-unsaved`), or in `directory` under `label` for a text that
/// came from no file (a site, standard input).
#[must_use]
pub fn recovery_base(source: Option<&Path>, directory: &Path, label: &str) -> PathBuf {
    if let Some(path) = source {
        let mut name = path.file_name().map_or_else(|| "robots.txt".into(), std::ffi::OsStr::to_os_string);
        name.push(RECOVERY_SUFFIX);
        return path.with_file_name(name);
    }
    let label: String =
        label.chars().map(|c| if c.is_ascii_alphanumeric() || "._-".contains(c) { c } else { '_' }).collect();
    directory.join(format!("{label}{RECOVERY_SUFFIX}"))
}

/// Where recovery copies of texts that came from no file go: `recovery` in robotscope's
/// data directory (beside the history store), or the temporary directory.
#[must_use]
pub fn recovery_directory() -> PathBuf {
    // The data directory the history store is in (`directories`, as history finds it),
    // named here: saving sits below the history layer.
    directories::ProjectDirs::from("", "", "robotscope")
        .map_or_else(std::env::temp_dir, |dirs| dirs.data_dir().join("recovery"))
}

/// Writes a recovery copy under a name of its own, `BASE.YYYYMMDD-hhmmss` (UTC) with
/// `-2`, `-3`... when taken: a copy is never written over another. Only the user may
/// read it (mode 0600): it holds what they were writing.
pub fn write_recovery(base: &Path, bytes: &[u8]) -> Result<PathBuf, SaveError> {
    if let Some(directory) = base.parent().filter(|p| !p.as_os_str().is_empty()) {
        let _ = fs::create_dir_all(directory);
    }
    let stamp = jiff::Timestamp::now().strftime("%Y%m%d-%H%M%S").to_string();
    let mut last_error = None;
    for attempt in 1..=TEMPORARY_NAMES {
        let suffix = if attempt == 1 { String::new() } else { format!("-{attempt}") };
        let path = within_name_max(base, &format!(".{stamp}{suffix}"));
        let mut options = fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        options.custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC).mode(0o600);
        match options.open(&path) {
            Ok(mut handle) => {
                return handle
                    .write_all(bytes)
                    .and_then(|()| handle.sync_all())
                    .map(|()| path.clone())
                    .map_err(|e| SaveError::Write { path, reason: e.to_string() });
            }
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => last_error = Some(error),
            Err(error) => return Err(SaveError::Write { path, reason: error.to_string() }),
        }
    }
    let reason = last_error.map_or_else(String::new, |e| e.to_string());
    Err(SaveError::Write { path: base.to_path_buf(), reason })
}

/// The longest file name most file systems take (`NAME_MAX`).
const NAME_MAX: usize = 255;

/// `base` with `tail` added to its file name, the name cut (at a character, before its
/// `.robotscope-unsaved` mark, which stays) when the whole would pass [`NAME_MAX`]: a
/// long file name must not leave the edits with nowhere to go (issue 35). A cut name
/// carries `~` and a digest of the whole name, so that the copies of two long names
/// that start alike are told apart.
fn within_name_max(base: &Path, tail: &str) -> PathBuf {
    let name = base.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
    if name.len() + tail.len() <= NAME_MAX {
        let mut whole = base.as_os_str().to_os_string();
        whole.push(tail);
        return PathBuf::from(whole);
    }
    let mark = if name.ends_with(RECOVERY_SUFFIX) { RECOVERY_SUFFIX } else { "" };
    let stem = &name[..name.len() - mark.len()];
    let digest = name_digest(&name);
    let room = NAME_MAX.saturating_sub(tail.len() + mark.len() + digest.len());
    let cut = stem.char_indices().map(|(at, c)| at + c.len_utf8()).take_while(|&end| end <= room).last().unwrap_or(0);
    base.with_file_name(format!("{}{digest}{mark}{tail}", &stem[..cut]))
}

/// `~` and eight hexadecimal digits of the 64-bit FNV-1a hash of `name`: stable from one
/// build to the next, unlike the standard library's hasher.
fn name_digest(name: &str) -> String {
    let hash = name
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3));
    format!("~{:08x}", hash >> 32)
}

/// The recovery copies left under `base` (by sessions that ended with unsaved edits),
/// newest first; those whose names [`write_recovery`] had to cut too.
#[must_use]
pub fn recovery_copies(base: &Path) -> Vec<PathBuf> {
    let Some(prefix) = base.file_name().map(|name| name.to_string_lossy().into_owned()) else { return Vec::new() };
    let stem = prefix.strip_suffix(RECOVERY_SUFFIX).unwrap_or(&prefix);
    let cut_mark = format!("{}{RECOVERY_SUFFIX}.", name_digest(&prefix));
    let directory = base.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    copies_in(directory, |name| {
        if name == prefix || name.strip_prefix(&prefix).is_some_and(|rest| rest.starts_with(['.', '-'])) {
            return true;
        }
        // A cut name: the start of the stem, then the whole name's digest and the mark.
        name.split_once(&cut_mark).is_some_and(|(start, _)| stem.starts_with(start))
    })
}

/// Every recovery copy in `directory` (robotscope's data directory keeps those of texts
/// from no file: sites, standard input), newest first: told at start when the input has
/// none of its own, so that no copy is forgotten there.
#[must_use]
pub fn recovery_copies_in(directory: &Path) -> Vec<PathBuf> {
    copies_in(directory, |name| name.contains(&format!("{RECOVERY_SUFFIX}.")))
}

/// The regular files in `directory` whose names `wanted` takes, newest first.
fn copies_in(directory: &Path, wanted: impl Fn(&str) -> bool) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(directory) else { return Vec::new() };
    let mut found: Vec<(std::time::SystemTime, PathBuf)> = entries
        .filter_map(Result::ok)
        // A name that is no text, or holds a control character, cannot be offered as
        // it is (the prompt would open another file): it is not told.
        .filter(|entry| {
            entry.file_name().to_str().is_some_and(|name| !name.chars().any(char::is_control) && wanted(name))
        })
        .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_file()))
        .map(|entry| {
            let modified = entry.metadata().and_then(|m| m.modified()).unwrap_or(std::time::UNIX_EPOCH);
            (modified, entry.path())
        })
        .collect();
    found.sort_by(|a, b| b.cmp(a));
    found.into_iter().map(|(_, path)| path).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saves_and_replaces() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("robots.txt");
        save(&path, b"one", &Replace::Never).expect("a new file");
        save(&path, b"two", &Replace::Allowed).expect("replaced");
        assert_eq!(fs::read(&path).expect("read"), b"two");
        let leftovers: Vec<_> = fs::read_dir(dir.path()).expect("dir").collect();
        assert_eq!(leftovers.len(), 1, "no temporary file is left behind");
    }

    #[test]
    fn a_file_that_exists_is_not_replaced_unless_allowed() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("robots.txt");
        fs::write(&path, "theirs").expect("write");
        assert_eq!(save(&path, b"mine", &Replace::Never), Err(SaveError::Exists { path: path.clone() }));
        assert_eq!(fs::read(&path).expect("read"), b"theirs");
        assert_eq!(fs::read_dir(dir.path()).expect("dir").count(), 1, "no temporary file is left behind");
    }

    #[test]
    fn a_failed_save_says_why() {
        let error = save(Path::new("/nonexistent-dir/robots.txt"), b"x", &Replace::Allowed).expect_err("no directory");
        // In the user's terms: the file they named, and why; not the temporary file.
        assert_eq!(
            error.to_string(),
            "cannot write /nonexistent-dir/robots.txt: the directory /nonexistent-dir does not exist"
        );
        let dir = tempfile::tempdir().expect("temp dir");
        assert_eq!(save(dir.path(), b"x", &Replace::Allowed), Err(SaveError::NotAFile { path: dir.path().into() }));
    }

    /// Issue 24: saving through a link writes the file it points to, keeps the link a
    /// link and the file's mode (640 here), and still goes through a temporary file.
    #[cfg(unix)]
    #[test]
    fn a_save_through_a_link_writes_the_file_it_points_to() {
        let dir = tempfile::tempdir().expect("temp dir");
        let real = dir.path().join("real").join("robots.txt");
        fs::create_dir(real.parent().expect("parent")).expect("dir");
        fs::write(&real, "old").expect("write");
        fs::set_permissions(&real, fs::Permissions::from_mode(0o640)).expect("chmod");
        let link = dir.path().join("robots.txt");
        std::os::unix::fs::symlink("real/robots.txt", &link).expect("link");
        let saved = save(&link, b"new", &Replace::Allowed).expect("saved");
        assert_eq!((saved.file, saved.in_place), (dir.path().join("real/robots.txt"), false));
        assert!(fs::symlink_metadata(&link).expect("link").file_type().is_symlink(), "the link stays a link");
        assert_eq!(fs::read(&real).expect("read"), b"new");
        assert_eq!(fs::metadata(&real).expect("meta").permissions().mode() & 0o777, 0o640);
        assert_eq!(fs::read_dir(real.parent().expect("parent")).expect("dir").count(), 1, "no temporary file left");
    }

    /// Issue 24: a link planted under the temporary file's name is never written
    /// through: another name is taken, and the link's target stays as it was.
    #[cfg(unix)]
    #[test]
    fn a_planted_temporary_name_is_never_written_through() {
        let dir = tempfile::tempdir().expect("temp dir");
        let target = dir.path().join("robots.txt");
        fs::write(&target, "old").expect("write");
        let victim = dir.path().join("victim");
        fs::write(&victim, "untouched").expect("write");
        // Plant the next few names this process would use.
        let next = NEXT_NAME.load(Ordering::Relaxed);
        for number in next..next + 32 {
            let name = format!(".robots.txt.robotscope-{}-{number}.tmp", std::process::id());
            std::os::unix::fs::symlink(&victim, dir.path().join(name)).expect("plant");
        }
        save(&target, b"new", &Replace::Allowed).expect("saved under another name");
        assert_eq!(fs::read(&target).expect("read"), b"new");
        assert_eq!(fs::read(&victim).expect("read"), b"untouched");
    }

    /// A link that names no file yet is something there: a save to a new name asks
    /// before it makes the file where the link points (whoever made the link chose it).
    #[cfg(unix)]
    #[test]
    fn a_dangling_link_gets_its_file_once_asked() {
        let dir = tempfile::tempdir().expect("temp dir");
        let link = dir.path().join("robots.txt");
        std::os::unix::fs::symlink("made.txt", &link).expect("link");
        assert_eq!(save(&link, b"new", &Replace::Never), Err(SaveError::Exists { path: link.clone() }));
        assert!(!dir.path().join("made.txt").exists());
        save(&link, b"new", &Replace::Allowed).expect("saved");
        assert_eq!(fs::read(dir.path().join("made.txt")).expect("read"), b"new");
        assert!(fs::symlink_metadata(&link).expect("link").file_type().is_symlink());
    }

    /// Issue 35: a read-only file is replaced only when the user says so.
    #[cfg(unix)]
    #[test]
    fn a_read_only_file_is_replaced_only_anyway() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("robots.txt");
        fs::write(&path, "theirs").expect("write");
        fs::set_permissions(&path, fs::Permissions::from_mode(0o444)).expect("chmod");
        assert_eq!(save(&path, b"mine", &Replace::Allowed), Err(SaveError::ReadOnly { path: path.clone() }));
        assert_eq!(fs::read(&path).expect("read"), b"theirs");
        save(&path, b"mine", &Replace::Anyway).expect("replaced, as asked");
        assert_eq!(fs::read(&path).expect("read"), b"mine");
        assert_eq!(fs::metadata(&path).expect("meta").permissions().mode() & 0o777, 0o444, "still read-only");
    }

    #[test]
    fn recovery_copies_sit_beside_the_source_and_never_replace_each_other() {
        let dir = tempfile::tempdir().expect("temp dir");
        let source = dir.path().join("robots.txt");
        let base = recovery_base(Some(&source), Path::new("/unused"), "");
        assert_eq!(base, dir.path().join("robots.txt.robotscope-unsaved"));
        let first = write_recovery(&base, b"first").expect("written");
        let second = write_recovery(&base, b"second").expect("written");
        assert_ne!(first, second);
        assert_eq!(fs::read(&first).expect("read"), b"first");
        assert_eq!(fs::read(&second).expect("read"), b"second");
        let found = recovery_copies(&base);
        assert_eq!(found.len(), 2);
        assert_eq!(
            recovery_base(None, Path::new("/r"), "https://a.example:8443"),
            Path::new("/r/https___a.example_8443.robotscope-unsaved")
        );
    }

    /// Issue 35: a file name near the file system's limit still gets its recovery copy,
    /// under a name cut to fit that keeps its mark.
    #[test]
    fn a_long_file_name_still_gets_its_recovery_copy() {
        let dir = tempfile::tempdir().expect("temp dir");
        let name = format!("{}é.txt", "n".repeat(240));
        let source = dir.path().join(&name);
        fs::write(&source, "theirs").expect("a name the file system takes");
        let base = recovery_base(Some(&source), Path::new("/unused"), "");
        let copy = write_recovery(&base, b"mine").expect("written");
        assert_eq!(fs::read(&copy).expect("read"), b"mine");
        let written = copy.file_name().expect("a name").to_string_lossy().into_owned();
        assert!(written.len() <= NAME_MAX && written.starts_with("nnnn"), "{written}");
        assert!(written.contains(".robotscope-unsaved."), "{written}");
        // And the next session finds it, to tell the user (issue 35).
        fs::write(dir.path().join("other.txt.robotscope-unsaved.20261125-101500"), "theirs").expect("written");
        assert_eq!(recovery_copies(&base), vec![copy.clone()]);
        // Another long name that starts alike has copies of its own, not these.
        let sibling = dir.path().join(format!("{}é-other.txt", "n".repeat(240)));
        let sibling_base = recovery_base(Some(&sibling), Path::new("/unused"), "");
        let sibling_copy = write_recovery(&sibling_base, b"theirs").expect("written");
        assert_eq!(recovery_copies(&sibling_base), vec![sibling_copy]);
        assert_eq!(recovery_copies(&base), vec![copy]);
        assert_eq!(recovery_copies_in(dir.path()).len(), 3, "every copy in the directory");
        // Names that cannot be offered as they are (not text, a control character).
        fs::write(dir.path().join("esc\u{1b}]0;x\u{7}.robotscope-unsaved.20261125-101500"), "x").expect("written");
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            let bad = std::ffi::OsStr::from_bytes(b"a\xff.robotscope-unsaved.20261125-101500");
            fs::write(dir.path().join(bad), "x").expect("written");
        }
        assert_eq!(recovery_copies_in(dir.path()).len(), 3, "not told");
        assert!(recovery_copies_in(&dir.path().join("none")).is_empty());
    }
}
