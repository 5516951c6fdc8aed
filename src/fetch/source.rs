//! What SOURCE means (DESIGN.md §4): standard input, a local file, or a site's
//! robots.txt; and reading a local source with a cap. [`Source::parse`] is pure: whether
//! a name is an existing file is the caller's question, answered by the closure it
//! passes ([`Source::resolve`] asks the file system).

use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

use url::Url;

/// How much of a local file or of standard input is read, at most (`--max-file-bytes`):
/// 64 times what RFC 9309 readers read, room for any real robots.txt (the largest known,
/// 3.7 MB) and for files of paths, and a bound on what `/dev/zero` can cost.
pub const MAX_FILE_BYTES: usize = 32 * 1024 * 1024;

/// Reads at most `max_bytes` from `reader`; the flag says whether there was more.
pub fn read_at_most(reader: impl Read, max_bytes: usize) -> std::io::Result<(Vec<u8>, bool)> {
    let mut bytes = Vec::new();
    let limit = u64::try_from(max_bytes).unwrap_or(u64::MAX).saturating_add(1);
    reader.take(limit).read_to_end(&mut bytes)?;
    let truncated = bytes.len() > max_bytes;
    bytes.truncate(max_bytes);
    // The buffer grew by doubling: up to twice the file, held as long as the file is.
    bytes.shrink_to_fit();
    Ok((bytes, truncated))
}

/// What a local file was when it was read: enough to tell, before a save replaces it,
/// whether another program changed it since (issue 35). The identity and the time are
/// looked at first; when they differ, the contents decide (a `touch`, or a checkout that
/// wrote the same bytes again, is no change).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileStamp {
    /// The device and inode of the file read (`None` where the system has none).
    identity: Option<(u64, u64)>,
    /// Its length then.
    len: u64,
    /// Its modification time then.
    modified: Option<std::time::SystemTime>,
    /// A digest of every byte read; `None` when the read stopped at a cap (the bytes do
    /// not stand for the file, so only the identity and the time can tell).
    digest: Option<u64>,
}

impl FileStamp {
    /// The stamp of a file whose metadata, taken from the handle read, is `metadata`,
    /// and whose bytes were `bytes` (`truncated`: only the first of them).
    #[must_use]
    pub fn new(metadata: &std::fs::Metadata, bytes: &[u8], truncated: bool) -> FileStamp {
        #[cfg(unix)]
        let identity = {
            use std::os::unix::fs::MetadataExt;
            Some((metadata.dev(), metadata.ino()))
        };
        #[cfg(not(unix))]
        let identity = None;
        FileStamp {
            identity,
            len: metadata.len(),
            modified: metadata.modified().ok(),
            digest: (!truncated).then(|| content_digest(bytes)),
        }
    }

    /// True when `metadata` says the file is still the one stamped: the same file,
    /// length and modification time.
    #[must_use]
    pub fn same_metadata(&self, metadata: &std::fs::Metadata) -> bool {
        let now = FileStamp::new(metadata, &[], true);
        (now.identity, now.len, now.modified) == (self.identity, self.len, self.modified)
    }

    /// True when `bytes`, read whole, are the bytes stamped.
    #[must_use]
    pub fn same_contents(&self, bytes: &[u8]) -> bool {
        self.digest == Some(content_digest(bytes))
    }
}

/// A digest of a file's bytes, to tell whether they changed (not a defence against
/// anyone: the file's owner may write what they like).
fn content_digest(bytes: &[u8]) -> u64 {
    use std::hash::BuildHasher;
    foldhash::quality::FixedState::with_seed(0x5eed).hash_one(bytes)
}

/// A local file's bytes, as far as they were read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalBytes {
    /// At most the cap.
    pub bytes: Vec<u8>,
    /// True when there was more and reading stopped at the cap.
    pub truncated: bool,
    /// What the file was when read (none for standard input, a pipe or a device).
    pub stamp: Option<FileStamp>,
}

/// Reads at most `max_bytes` of a file and stamps it.
fn read_and_stamp(path: &Path, max_bytes: usize) -> std::io::Result<LocalBytes> {
    let file = std::fs::File::open(path)?;
    let metadata = file.metadata()?;
    let (bytes, truncated) = read_at_most(file, max_bytes)?;
    let stamp = metadata.is_file().then(|| FileStamp::new(&metadata, &bytes, truncated));
    Ok(LocalBytes { bytes, truncated, stamp })
}

/// Runs `read` on a thread of its own. Opening a FIFO waits for a writer, a terminal
/// for someone to type, a stalled network file system for ever: the caller waits for
/// the answer only as long as it chooses, then abandons the thread, which holds nothing
/// the process waits for on its way out (tokio's blocking pool would: a runtime's
/// shutdown joins every task in it, which is how a FIFO kept the explorer and `page`
/// from ever exiting).
fn spawn_reader(read: impl FnOnce() + Send + 'static) -> std::io::Result<()> {
    std::thread::Builder::new().name("robotscope-read".to_owned()).spawn(read).map(drop)
}

/// A file whose reading thread may still wait on it: let go when dropped (see
/// [`crate::fifo::release_waiting_reader`]), unless the read finished.
struct WaitingReader(Option<PathBuf>);

impl Drop for WaitingReader {
    fn drop(&mut self) {
        if let Some(path) = &self.0 {
            crate::fifo::release_waiting_reader(path);
        }
    }
}

/// The error of a read that did not finish within `wait`.
fn nothing_within(path: &Path, wait: Duration) -> std::io::Error {
    let what = match std::fs::metadata(path) {
        Ok(metadata) if is_fifo(&metadata) => " (a FIFO that no program writes to?)",
        Ok(metadata) if !metadata.is_file() => " (a device or a pipe that sends nothing?)",
        _ => "",
    };
    std::io::Error::new(
        std::io::ErrorKind::TimedOut,
        format!("the read did not finish within {}{what}", crate::fetch::duration_words(wait)),
    )
}

/// True for a FIFO (named pipe).
fn is_fifo(metadata: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        metadata.file_type().is_fifo()
    }
    #[cfg(not(unix))]
    {
        let _ = metadata;
        false
    }
}

/// Reads at most `max_bytes` of a file, waiting at most `wait` for it (a FIFO, a device
/// or a stalled disk never holds the caller longer: the read runs on a thread the
/// deadline abandons); the flag says whether there was more. Every local file the tool
/// reads is read so.
pub fn read_file_capped(path: &Path, max_bytes: usize, wait: Duration) -> std::io::Result<(Vec<u8>, bool)> {
    let (sender, answer) = std::sync::mpsc::sync_channel(1);
    let owned = path.to_path_buf();
    spawn_reader(move || {
        let _ = sender.send(read_and_stamp(&owned, max_bytes));
    })?;
    if let Ok(read) = answer.recv_timeout(wait) {
        return read.map(|read| (read.bytes, read.truncated));
    }
    crate::fifo::release_waiting_reader(path);
    Err(nothing_within(path, wait))
}

/// A robots.txt source, as the user named it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// `-`: standard input.
    Stdin,
    /// A local file.
    File(PathBuf),
    /// A site's robots.txt.
    Site {
        /// The robots.txt URL (`https://host/robots.txt`).
        robots_url: Url,
        /// The path and query the user gave with the site, for the tester (`None` for
        /// the bare site).
        page: Option<String>,
    },
}

/// Why a source could not be resolved or read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SourceError {
    /// A name that looks like a file does not exist.
    #[error("{0}: no such file (and it does not look like a site name)")]
    NoSuchFile(PathBuf),
    /// The file or standard input could not be read.
    #[error("cannot read {what}: {reason}")]
    Read {
        /// What was being read.
        what: String,
        /// What the system said.
        reason: String,
    },
    /// Standard input was read once already and cannot be read again.
    #[error("standard input was read already and cannot be read again")]
    StdinAgain,
    /// The text is neither a file nor a usable URL.
    #[error("'{spec}' is not a file or a site URL: {reason}")]
    BadUrl {
        /// What the user typed.
        spec: String,
        /// What is wrong with it.
        reason: String,
    },
}

impl Source {
    /// Reads what the user typed: `-`, a file, or else a URL or host name. Pure: whether
    /// a name is an existing file is `is_file`'s answer; a name that looks like a file
    /// (`./x`, `dir/robots.txt`, `robots.txt`) is one whether or not it exists, and
    /// reading it says so. `example.com` means `https://example.com/robots.txt`; a URL
    /// with a path means its origin's robots.txt, and the path is kept for the tester.
    /// Ports and internationalised names are handled by the `url` crate (`bücher.example`
    /// becomes `xn--bcher-kva.example`).
    ///
    /// # Examples
    ///
    /// ```
    /// use robotscope::fetch::Source;
    /// let no_files = |_: &std::path::Path| false;
    /// let Ok(Source::Site { robots_url, page }) = Source::parse("example.com/shop/item?id=1", no_files) else { panic!() };
    /// assert_eq!(robots_url.as_str(), "https://example.com/robots.txt");
    /// assert_eq!(page.as_deref(), Some("/shop/item?id=1"));
    /// assert!(matches!(Source::parse("robots.txt", no_files), Ok(Source::File(_))));
    /// assert!(matches!(Source::parse("example.com", |_| true), Ok(Source::File(_))));
    /// ```
    pub fn parse(spec: &str, is_file: impl Fn(&Path) -> bool) -> Result<Source, SourceError> {
        if spec == "-" {
            return Ok(Source::Stdin);
        }
        let path = Path::new(spec);
        if is_file(path) || (!spec.contains("://") && looks_like_a_file(spec)) {
            return Ok(Source::File(path.to_path_buf()));
        }
        let with_scheme = if spec.contains("://") { spec.to_owned() } else { format!("https://{spec}") };
        let bad = |reason: &str| SourceError::BadUrl { spec: spec.to_owned(), reason: reason.to_owned() };
        let url = Url::parse(&with_scheme).map_err(|e| bad(&e.to_string()))?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(bad("only http and https sites have a robots.txt"));
        }
        if url.host_str().is_none_or(str::is_empty) {
            return Err(bad("no host name"));
        }
        let mut robots_url = url.clone();
        robots_url.set_path("/robots.txt");
        robots_url.set_query(None);
        robots_url.set_fragment(None);
        // Credentials never travel with a robots.txt request. (Setting them fails only
        // for URLs that cannot have them, which http and https URLs can.)
        let _ = robots_url.set_username("");
        let _ = robots_url.set_password(None);
        let page = match (url.path(), url.query()) {
            ("/" | "/robots.txt", None) => None,
            (path, None) => Some(path.to_owned()),
            (path, Some(query)) => Some(format!("{path}?{query}")),
        };
        Ok(Source::Site { robots_url, page })
    }

    /// [`Source::parse`], asking the file system which names are files; a name that
    /// looks like a file and is none is an error here, before anything is read. Only a
    /// file (or a device, a pipe) takes a name from a site: a directory called
    /// `localhost` or `example.com` (as `wget -r` leaves) does not.
    pub fn resolve(spec: &str) -> Result<Source, SourceError> {
        let is_file = |path: &Path| path.metadata().is_ok_and(|meta| !meta.is_dir());
        match Source::parse(spec, is_file)? {
            Source::File(path) if !path.exists() => Err(SourceError::NoSuchFile(path)),
            source => Ok(source),
        }
    }

    /// A short name for the status bar and messages.
    #[must_use]
    pub fn label(&self) -> String {
        match self {
            Source::Stdin => "standard input".to_owned(),
            Source::File(path) => path.display().to_string(),
            Source::Site { robots_url, .. } => robots_url.to_string(),
        }
    }

    /// Reads a local source, at most `max_bytes` of it, waiting at most `wait` for it
    /// (see [`read_file_capped`]); `None` for a site.
    pub async fn read_local(&self, max_bytes: usize, wait: Duration) -> Option<Result<LocalBytes, SourceError>> {
        let failed = |what: String| move |error: std::io::Error| SourceError::Read { what, reason: error.to_string() };
        let (sender, answer) = tokio::sync::oneshot::channel();
        // A read that does not finish (the deadline, or the load cancelled: this future
        // dropped) lets go of a FIFO its thread waits on.
        let mut waiting = WaitingReader(match self {
            Source::File(path) => Some(path.clone()),
            _ => None,
        });
        let (what, spawned) = match self {
            Source::Stdin => {
                (
                    "standard input".to_owned(),
                    spawn_reader(move || {
                        let read = read_at_most(std::io::stdin().lock(), max_bytes)
                            .map(|(bytes, truncated)| LocalBytes { bytes, truncated, stamp: None });
                        let _ = sender.send(read);
                    }),
                )
            }
            Source::File(path) => {
                let owned = path.clone();
                (path.display().to_string(), spawn_reader(move || drop(sender.send(read_and_stamp(&owned, max_bytes)))))
            }
            Source::Site { .. } => return None,
        };
        if let Err(error) = spawned {
            return Some(Err(failed(what)(error)));
        }
        let Ok(Ok(read)) = tokio::time::timeout(wait, answer).await else {
            let timed_out = match self {
                Source::File(path) => nothing_within(path, wait),
                _ => std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    format!("nothing more came within {}", crate::fetch::duration_words(wait)),
                ),
            };
            return Some(Err(failed(what)(timed_out)));
        };
        waiting.0 = None;
        Some(read.map_err(|error| match self {
            Source::File(path) if error.kind() == std::io::ErrorKind::NotFound => SourceError::NoSuchFile(path.clone()),
            _ => failed(what)(error),
        }))
    }
}

/// True for names that are surely meant as files: paths starting with `.`, `/` or `~`,
/// paths whose first part cannot be a host name, and bare names ending in `.txt` (no
/// top-level domain is called `txt`).
fn looks_like_a_file(spec: &str) -> bool {
    if spec.starts_with(['.', '/', '~', '\\']) {
        return true;
    }
    let first = spec.split(['/', '\\']).next().unwrap_or_default();
    let could_be_host = first.contains(['.', ':', '[']) || first.eq_ignore_ascii_case("localhost");
    if spec.contains(['/', '\\']) {
        !could_be_host
    } else {
        Path::new(spec).extension().is_some_and(|ext| ext.eq_ignore_ascii_case("txt"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(spec: &str) -> (String, Option<String>) {
        match Source::resolve(spec) {
            Ok(Source::Site { robots_url, page }) => (robots_url.to_string(), page),
            other => panic!("{spec}: {other:?}"),
        }
    }

    #[test]
    fn hosts_and_urls_become_robots_urls() {
        assert_eq!(site("example.com"), ("https://example.com/robots.txt".into(), None));
        assert_eq!(
            site("http://example.com:8080/a/b"),
            ("http://example.com:8080/robots.txt".into(), Some("/a/b".into()))
        );
        assert_eq!(site("https://user:pw@example.com/"), ("https://example.com/robots.txt".into(), None));
        assert_eq!(site("bücher.example"), ("https://xn--bcher-kva.example/robots.txt".into(), None));
        assert_eq!(site("127.0.0.1:9/x?y=1"), ("https://127.0.0.1:9/robots.txt".into(), Some("/x?y=1".into())));
    }

    #[test]
    fn file_like_names_that_do_not_exist_are_errors() {
        assert!(matches!(Source::resolve("robots.txt"), Err(SourceError::NoSuchFile(_))));
        assert!(matches!(Source::resolve("./missing"), Err(SourceError::NoSuchFile(_))));
        assert!(matches!(Source::resolve("dir/robots.txt"), Err(SourceError::NoSuchFile(_))));
        assert_eq!(site("localhost:8080/robots.txt").0, "https://localhost:8080/robots.txt");
        assert!(matches!(Source::resolve("ftp://example.com"), Err(SourceError::BadUrl { .. })));
        assert_eq!(Source::resolve("-").ok(), Some(Source::Stdin));
    }
}
