//! The local store of versions: a SQLite database (rusqlite, SQLite compiled in) under
//! the user's data directory, shared by every robotscope process.
//!
//! Two tables: `content` holds each distinct body once, keyed by its digest; `versions`
//! holds one row per answer (site, provenance, timestamp, URL, status, what it means,
//! digest, the headers that matter). A fetch that gives the answer the site's last
//! fetch gave adds no row: it moves that row's `last_seen` on, so a script that checks
//! a site every minute keeps one row per change, not one per run.
//!
//! Several processes may write at once: the database is in WAL mode, writers wait for
//! each other (busy timeout), and each write is one immediate transaction. A database
//! SQLite finds damaged is moved aside (never deleted) and a new one started; the
//! caller is told where the old one went. Processes hold `PATH.lock` shared while they
//! use the store and whole while they repair it, so no file moves under an open one.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, ErrorCode, OptionalExtension, TransactionBehavior, params};

use super::{Provenance, Version};
use crate::policy::Availability;

/// The schema this code writes (`PRAGMA user_version`).
const SCHEMA_VERSION: i64 = 1;

/// How long a writer waits for another process's write to finish.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// The tables and indexes of the schema: a database with anything else is not a store.
const OUR_OBJECTS: [&str; 5] = ["capture_failures", "content", "one_row_per_capture", "versions", "versions_of_site"];

/// The schema number and the names of the objects (tables, indexes, views, triggers) of
/// a database, read together.
fn read_schema(connection: &Connection) -> rusqlite::Result<(i64, Vec<String>)> {
    connection.execute_batch("BEGIN")?;
    let read = (|| {
        let found: i64 = connection.query_row("PRAGMA user_version", [], |row| row.get(0))?;
        let mut statement =
            connection.prepare("SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name")?;
        let objects = statement.query_map([], |row| row.get(0))?.collect::<rusqlite::Result<Vec<String>>>()?;
        Ok((found, objects))
    })();
    connection.execute_batch("COMMIT")?;
    read
}

/// Runs `step` again while SQLite says the database is busy or locked without having
/// waited (a change of journal mode), for up to [`BUSY_TIMEOUT`] in all.
fn while_busy<T>(mut step: impl FnMut() -> rusqlite::Result<T>) -> rusqlite::Result<T> {
    let deadline = std::time::Instant::now() + BUSY_TIMEOUT;
    let mut pause = Duration::from_millis(1);
    loop {
        match step() {
            Err(rusqlite::Error::SqliteFailure(failure, _))
                if matches!(failure.code, ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked)
                    && std::time::Instant::now() + pause < deadline =>
            {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(50));
            }
            done => return done,
        }
    }
}

/// Stores up to this size are checked whole when opened (a few milliseconds).
const QUICK_CHECK_BYTES: u64 = 64 * 1024 * 1024;

/// How long a process waits for another to repair the store, or a repair for the
/// processes that have the store open to let go of it.
const REPAIR_WAIT: Duration = Duration::from_secs(15);

/// Captures the archive failed to serve this many times are not asked for again.
pub const MAX_CAPTURE_TRIES: u32 = 3;

const SCHEMA: &str = "
    CREATE TABLE IF NOT EXISTS content (
        digest TEXT PRIMARY KEY,
        body BLOB NOT NULL
    ) STRICT;
    CREATE TABLE IF NOT EXISTS versions (
        id INTEGER PRIMARY KEY,
        site TEXT NOT NULL,
        provenance TEXT NOT NULL CHECK (provenance IN ('local', 'archive')),
        timestamp TEXT NOT NULL,
        last_seen TEXT NOT NULL,
        seen INTEGER NOT NULL DEFAULT 1,
        url TEXT NOT NULL,
        status INTEGER,
        meaning TEXT NOT NULL,
        digest TEXT NOT NULL,
        bytes INTEGER NOT NULL,
        truncated INTEGER NOT NULL DEFAULT 0,
        headers TEXT NOT NULL DEFAULT ''
    ) STRICT;
    CREATE INDEX IF NOT EXISTS versions_of_site ON versions (site, timestamp);
    CREATE TABLE IF NOT EXISTS capture_failures (
        site TEXT NOT NULL,
        timestamp TEXT NOT NULL,
        url TEXT NOT NULL,
        tries INTEGER NOT NULL,
        error TEXT NOT NULL,
        PRIMARY KEY (site, timestamp, url)
    ) STRICT;
    CREATE UNIQUE INDEX IF NOT EXISTS one_row_per_capture
        ON versions (site, timestamp, url) WHERE provenance = 'archive';
";

/// Why the store could not be used.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite said no. (What it said is part of the message, not a `source`: a report
    /// of the error's chain would say it twice.)
    #[error("the history store at {path}: {reason}")]
    Sqlite {
        /// The database file.
        path: String,
        /// What SQLite said.
        reason: rusqlite::Error,
    },
    /// The directory or the file could not be made or moved.
    #[error("the history store at {path}: {reason}")]
    Io {
        /// The file or directory.
        path: String,
        /// What the system said.
        reason: std::io::Error,
    },
    /// A newer robotscope wrote it; this one leaves it alone.
    #[error(
        "the history store at {path} was written by a newer robotscope (schema {found}); this one reads schema {SCHEMA_VERSION}"
    )]
    Newer {
        /// The database file.
        path: String,
        /// Its schema version.
        found: i64,
    },
    /// The file named is not robotscope's: it is left alone.
    #[error("{path} is {what}, not a robotscope history store; robotscope leaves it alone (give another --store)")]
    NotAStore {
        /// The file.
        path: String,
        /// What it is.
        what: String,
    },
    /// The fetch was shaped by the user's own flags, not the site's answer to a crawler
    /// ([`crate::fetch::Fetched::not_the_sites_own`]): shown, never kept.
    #[error("not kept in the history store: {why}")]
    NotTheSites {
        /// Why.
        why: String,
    },
    /// No data directory is known (no home directory) and no --store was given.
    #[error("no data directory is known for the history store (no home directory); give --store PATH or --no-store")]
    NoDataDirectory,
    /// The store can be read but not written (its file or directory is read-only).
    #[error("the history store at {path} can only be read: nothing is kept in it")]
    ReadOnly {
        /// The database file.
        path: String,
    },
}

/// An open store, and what opening it found.
#[derive(Debug)]
pub struct Opened {
    /// The store.
    pub store: Store,
    /// Where a damaged database was moved, when one was found.
    pub moved_aside: Option<(PathBuf, String)>,
}

/// A version to keep.
#[derive(Debug, Clone, Copy)]
pub struct Kept<'a> {
    /// The site key ([`super::site_key`]).
    pub site: &'a str,
    /// Where it comes from.
    pub provenance: Provenance,
    /// When, `YYYYMMDDhhmmss` UTC.
    pub timestamp: &'a str,
    /// The URL that answered, or that the archive captured.
    pub url: &'a str,
    /// The status, when known.
    pub status: Option<u16>,
    /// What it means for the rules.
    pub availability: Availability,
    /// The body, when it was read (a capture whose status decides is not).
    pub body: Option<&'a [u8]>,
    /// Its digest (for a capture, the archive's).
    pub digest: &'a str,
    /// The body's length (for a capture not read, 0).
    pub bytes: u64,
    /// True when the body was cut at the size cap.
    pub truncated: bool,
    /// Headers that matter.
    pub headers: &'a [(String, String)],
}

/// Where versions are kept: `--store PATH`, `--no-store`, or the default place.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum StoreChoice {
    /// [`default_store_path`].
    #[default]
    Default,
    /// A database the user named.
    At(PathBuf),
    /// Nowhere: a store in memory for this run only.
    Off,
}

impl StoreChoice {
    /// Opens the chosen store.
    pub fn open(&self) -> Result<Opened, StoreError> {
        match self {
            StoreChoice::Default => Store::open(&default_store_path().ok_or(StoreError::NoDataDirectory)?),
            StoreChoice::At(path) => {
                // A FIFO or a device is refused before anything opens it: opening a FIFO
                // waits for a writer that never comes.
                refuse_unless_regular(path)?;
                // A file the user named that SQLite never wrote (a typo for another
                // file) is theirs: refused, not moved. robotscope's own file in the data
                // directory is moved aside whatever is in it.
                if !is_sqlite_file(path) {
                    let what = "not a SQLite database".to_owned();
                    return Err(StoreError::NotAStore { path: path.display().to_string(), what });
                }
                Store::open(path)
            }
            StoreChoice::Off => Ok(Opened { store: Store::in_memory()?, moved_aside: None }),
        }
    }
}

/// Captures by timestamp and URL, looked up without copying the keys.
#[derive(Debug, Default)]
pub struct CaptureSet(foldhash::HashMap<String, Vec<String>>);

impl CaptureSet {
    /// True when the capture of `url` at `timestamp` is in the set.
    #[must_use]
    pub fn contains(&self, (timestamp, url): &(&str, &str)) -> bool {
        self.0.get(*timestamp).is_some_and(|urls| urls.iter().any(|kept| kept == url))
    }
}

/// Failures to serve captures, by timestamp and URL, looked up without copying the keys
/// (as [`CaptureSet`]).
#[derive(Debug, Default)]
pub struct CaptureTries(foldhash::HashMap<String, Vec<(String, u32)>>);

impl CaptureTries {
    /// The failures of the capture of `url` at `timestamp`, if any.
    #[must_use]
    pub fn get(&self, (timestamp, url): &(&str, &str)) -> Option<&u32> {
        self.0.get(*timestamp)?.iter().find(|(kept, _)| kept == url).map(|(_, tries)| tries)
    }
}

/// The local store of versions.
#[derive(Debug)]
pub struct Store {
    connection: Connection,
    path: String,
    /// Opened read-only: its file or directory cannot be written.
    read_only: bool,
    /// The shared hold on the store's lock (see [`store_lock`]), kept while the store is
    /// open so that no repair moves the file from under this connection. None for a
    /// store in memory or one opened read-only, which write nothing.
    _hold: Option<std::fs::File>,
}

/// `$XDG_DATA_HOME/robotscope/history.sqlite3` on Linux, the platform's data directory
/// elsewhere (the `directories` crate).
#[must_use]
pub fn default_store_path() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "robotscope").map(|dirs| dirs.data_dir().join("history.sqlite3"))
}

impl Store {
    /// Opens (or creates) the store at `path`; a database SQLite finds damaged is moved
    /// aside to `PATH.damaged-TIMESTAMP` and a new one started.
    pub fn open(path: &Path) -> Result<Opened, StoreError> {
        refuse_unless_regular(path)?;
        let label = path.display().to_string();
        let io = |reason| StoreError::Io { path: label.clone(), reason };
        if let Some(parent) = path.parent().filter(|parent| !parent.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(io)?;
        }
        // A store that can be written is used under the shared hold of its lock: a
        // repair, which moves the file, waits until no process has it open. SQLite finds
        // its journal by name, so a process that kept the moved file open would write
        // the new store's journal into the damaged one.
        let hold = match can_write(path).then(|| store_lock(path, Hold::Shared)).transpose().map_err(io)? {
            Some(Locked::Held(file)) => Some(file),
            // (A shared hold never waits for a file to move.)
            Some(Locked::Replaced) | None => None,
        };
        match Store::open_checked(path) {
            Ok(store) => Ok(Opened { store: Store { _hold: hold, ..store }, moved_aside: None }),
            Err(StoreError::Sqlite { reason, .. }) if is_damage(&reason) => {
                drop(hold);
                Store::repair(path)
            }
            Err(error) => Err(error),
        }
    }

    /// Moves a damaged database aside and starts a new one. One process repairs at a
    /// time, alone (it holds the store's lock whole), and it looks again first: another
    /// may have repaired it already, and a new database must never be taken for the
    /// damaged one. The name it goes to is its own (time and process), so no aside
    /// file is ever written over.
    fn repair(path: &Path) -> Result<Opened, StoreError> {
        let label = path.display().to_string();
        let io = |reason| StoreError::Io { path: label.clone(), reason };
        let lock = match store_lock(path, Hold::Whole).map_err(io)? {
            Locked::Held(lock) => lock,
            // Another process repaired it while this one waited: the new store is used.
            Locked::Replaced => return Store::open(path),
        };
        // The repaired store is used as any other: under the shared hold, taken from
        // the whole one without letting go (`flock` converts it).
        let shared = |lock: std::fs::File| lock.lock_shared().map(|()| Some(lock)).map_err(io);
        let reason = match Store::open_checked(path) {
            Ok(store) => return Ok(Opened { store: Store { _hold: shared(lock)?, ..store }, moved_aside: None }),
            Err(StoreError::Sqlite { reason, .. }) if is_damage(&reason) => reason.to_string(),
            Err(error) => return Err(error),
        };
        let stem = format!("{label}.damaged-{}-{}", super::timestamp_now(), std::process::id());
        let aside = (0..1000)
            .map(|n| PathBuf::from(if n == 0 { stem.clone() } else { format!("{stem}-{n}") }))
            .find(|aside| !aside.exists())
            .unwrap_or_else(|| PathBuf::from(&stem));
        std::fs::rename(path, &aside).map_err(io)?;
        // The journal files belong to the damaged database: they go with it.
        for suffix in ["-wal", "-shm"] {
            let _ = std::fs::rename(format!("{label}{suffix}"), format!("{}{suffix}", aside.display()));
        }
        let store = Store::open_checked(path)?;
        Ok(Opened { store: Store { _hold: shared(lock)?, ..store }, moved_aside: Some((aside, reason)) })
    }

    /// A store in memory, kept nowhere (`--no-store`).
    pub fn in_memory() -> Result<Store, StoreError> {
        let connection =
            Connection::open_in_memory().map_err(|reason| StoreError::Sqlite { path: "memory".to_owned(), reason })?;
        let store = Store { connection, path: "memory".to_owned(), read_only: false, _hold: None };
        store.create_schema()?;
        Ok(store)
    }

    fn open_checked(path: &Path) -> Result<Store, StoreError> {
        let label = path.display().to_string();
        let sqlite = |reason| StoreError::Sqlite { path: label.clone(), reason };
        if !can_write(path) {
            return Store::open_read_only(path);
        }
        let connection = Connection::open(path).map_err(sqlite)?;
        connection.busy_timeout(BUSY_TIMEOUT).map_err(sqlite)?;
        // Nothing is changed in a database this robotscope did not make: a newer
        // schema, or another program's tables.
        // One read transaction, so that the schema number and the objects are seen
        // together (another process may be making the store right now, its tables and
        // number in one transaction).
        let (found, objects) = read_schema(&connection).map_err(sqlite)?;
        if found > SCHEMA_VERSION {
            return Err(StoreError::Newer { path: label, found });
        }
        // Ours: nothing yet, or our objects under our schema number. Anything else is
        // another program's, even with tables called like ours.
        let ours = |name: &String| OUR_OBJECTS.contains(&name.as_str());
        if !objects.is_empty() && (found < 1 || !objects.iter().all(ours)) {
            return Err(StoreError::NotAStore {
                path: label,
                what: format!("another program's SQLite database ({})", objects.join(", ")),
            });
        }
        // WAL lets readers read while a writer writes, and keeps a crash from tearing
        // the database; NORMAL syncs at checkpoints, which is enough for a cache.
        // Turning a new database to WAL takes it whole, and SQLite answers "locked"
        // at once, without its busy wait, while another process holds it: that
        // process is making the same change, so it is asked again until it is done.
        while_busy(|| connection.pragma_update(None, "journal_mode", "WAL")).map_err(sqlite)?;
        connection.pragma_update(None, "synchronous", "NORMAL").map_err(sqlite)?;
        // A damaged page shows here rather than in the middle of a later write. The
        // check reads the whole file: past QUICK_CHECK_BYTES (a store of thousands of
        // sites) it is left to the errors of later reads, which are reported too.
        let size = std::fs::metadata(path).map_or(0, |meta| meta.len());
        let check: String = if size <= QUICK_CHECK_BYTES {
            connection.query_row("PRAGMA quick_check(1)", [], |row| row.get(0)).map_err(sqlite)?
        } else {
            "ok".to_owned()
        };
        if check != "ok" {
            return Err(sqlite(rusqlite::Error::SqliteFailure(
                rusqlite::ffi::Error { code: ErrorCode::DatabaseCorrupt, extended_code: rusqlite::ffi::SQLITE_CORRUPT },
                Some(check.replace('\n', "; ")),
            )));
        }
        let store = Store { connection, path: label, read_only: false, _hold: None };
        store.create_schema()?;
        Ok(store)
    }

    /// Opens a store that cannot be written, to read it: nothing is changed in it (no
    /// schema, no journal mode), and a store in WAL mode whose directory is read-only
    /// too is read as it stands (`immutable`).
    fn open_read_only(path: &Path) -> Result<Store, StoreError> {
        use rusqlite::OpenFlags;
        let label = path.display().to_string();
        let sqlite = |reason| StoreError::Sqlite { path: label.clone(), reason };
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let uri = |query: &str| {
            let url = url::Url::from_file_path(std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()));
            url.map(|url| format!("{url}?{query}")).unwrap_or_default()
        };
        let mut last = None;
        for query in ["mode=ro", "immutable=1"] {
            let opened = Connection::open_with_flags(uri(query), flags).and_then(|connection| {
                connection.busy_timeout(BUSY_TIMEOUT)?;
                let schema = read_schema(&connection)?;
                Ok((connection, schema))
            });
            match opened {
                Ok((connection, (found, objects))) => {
                    if found > SCHEMA_VERSION {
                        return Err(StoreError::Newer { path: label, found });
                    }
                    let ours = |name: &String| OUR_OBJECTS.contains(&name.as_str());
                    if !objects.is_empty() && (found < 1 || !objects.iter().all(ours)) {
                        let what = format!("another program's SQLite database ({})", objects.join(", "));
                        return Err(StoreError::NotAStore { path: label, what });
                    }
                    if objects.is_empty() {
                        // Nothing to read, and nothing can be made.
                        return Err(StoreError::ReadOnly { path: label });
                    }
                    return Ok(Store { connection, path: label, read_only: true, _hold: None });
                }
                Err(error) => last = Some(error),
            }
        }
        Err(sqlite(last.expect("tried")))
    }

    /// True when the store was opened read-only (see [`StoreError::ReadOnly`]).
    #[must_use]
    pub fn is_read_only(&self) -> bool {
        self.read_only
    }

    fn create_schema(&self) -> Result<(), StoreError> {
        // One transaction: a schema half made is never left behind.
        let batch = format!("BEGIN IMMEDIATE; {SCHEMA} PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;");
        self.connection.execute_batch(&batch).map_err(|source| self.error(source))
    }

    fn error(&self, source: rusqlite::Error) -> StoreError {
        StoreError::Sqlite { path: self.path.clone(), reason: source }
    }

    /// Where the database is (`memory` for `--no-store`).
    #[must_use]
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Keeps a version, its body once per digest. A local fetch that gives the same
    /// answer as the site's last local fetch moves that version's `last_seen` on
    /// instead of adding one; a capture already kept is left as it is. Returns the
    /// site's last local version before this one, for "changed since the last fetch".
    pub fn keep(&mut self, kept: &Kept<'_>) -> Result<Option<Version>, StoreError> {
        if self.read_only {
            return Err(StoreError::ReadOnly { path: self.path.clone() });
        }
        let path = self.path.clone();
        let sqlite = |reason| StoreError::Sqlite { path: path.clone(), reason };
        // Immediate: the write lock is taken before the last version is read, so two
        // processes cannot both decide to add the same answer.
        let transaction = self.connection.transaction_with_behavior(TransactionBehavior::Immediate).map_err(sqlite)?;
        if let Some(body) = kept.body {
            transaction
                .execute("INSERT OR IGNORE INTO content (digest, body) VALUES (?1, ?2)", params![kept.digest, body])
                .map_err(sqlite)?;
        }
        let previous = match kept.provenance {
            Provenance::Local => last_version(&transaction, kept.site, Provenance::Local).map_err(sqlite)?,
            Provenance::Archive => None,
        };
        let meaning = meaning_code(kept.availability);
        let same = previous.as_ref().filter(|(_, version)| {
            version.digest == kept.digest && version.availability == kept.availability && version.url == kept.url
        });
        if let Some((id, _)) = same {
            transaction
                .execute(
                    "UPDATE versions SET last_seen = max(last_seen, ?2), seen = min(seen + 1, 4294967295) WHERE id = ?1",
                    params![id, kept.timestamp],
                )
                .map_err(sqlite)?;
        } else {
            transaction
                .execute(
                    "INSERT OR IGNORE INTO versions
                     (site, provenance, timestamp, last_seen, url, status, meaning, digest, bytes, truncated, headers)
                     VALUES (?1, ?2, ?3, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                    params![
                        kept.site,
                        kept.provenance.name(),
                        kept.timestamp,
                        kept.url,
                        kept.status,
                        meaning,
                        kept.digest,
                        i64::try_from(kept.bytes).unwrap_or(i64::MAX),
                        kept.truncated,
                        headers_text(kept.headers),
                    ],
                )
                .map_err(sqlite)?;
        }
        transaction.commit().map_err(sqlite)?;
        Ok(previous.map(|(_, version)| version))
    }

    /// Every version of a site, oldest first.
    pub fn versions(&self, site: &str) -> Result<Vec<Version>, StoreError> {
        let mut statement = self
            .connection
            .prepare(&format!("SELECT {COLUMNS} FROM versions WHERE site = ?1 ORDER BY timestamp, id"))
            .map_err(|source| self.error(source))?;
        let rows = statement.query_map([site], version_of_row).map_err(|source| self.error(source))?;
        let versions: Result<Vec<Version>, StoreError> =
            rows.map(|row| row.map(|(_, version)| version).map_err(|source| self.error(source))).collect();
        // An archive's row kept before timestamps were checked (`99999999999999`) is no
        // version: it would be compared with the live file on every run.
        let mut versions = versions?;
        versions.retain(|version| {
            version.provenance != Provenance::Archive || super::is_sound_timestamp(&version.timestamp)
        });
        Ok(versions)
    }

    /// The site's last local version: what robotscope fetched last.
    pub fn last_local(&self, site: &str) -> Result<Option<Version>, StoreError> {
        last_version(&self.connection, site, Provenance::Local)
            .map(|found| found.map(|(_, version)| version))
            .map_err(|source| self.error(source))
    }

    /// The archive's captures of `site` the store holds, as (timestamp, URL): read once
    /// for a whole listing.
    pub fn archive_captures(&self, site: &str) -> Result<CaptureSet, StoreError> {
        let mut statement = self
            .connection
            .prepare("SELECT timestamp, url FROM versions WHERE site = ?1 AND provenance = 'archive'")
            .map_err(|source| self.error(source))?;
        let rows = statement
            .query_map([site], |row| Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?)))
            .map_err(|source| self.error(source))?;
        let mut set = CaptureSet::default();
        for row in rows {
            let (timestamp, url) = row.map_err(|source| self.error(source))?;
            set.0.entry(timestamp).or_default().push(url);
        }
        Ok(set)
    }

    /// How many times the archive failed to serve each of `site`'s captures.
    pub fn capture_failures(&self, site: &str) -> Result<CaptureTries, StoreError> {
        let mut statement = self
            .connection
            .prepare("SELECT timestamp, url, tries FROM capture_failures WHERE site = ?1")
            .map_err(|source| self.error(source))?;
        let rows = statement
            .query_map([site], |row| Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?, row.get::<_, i64>(2)?)))
            .map_err(|source| self.error(source))?;
        let mut tries = CaptureTries::default();
        for row in rows {
            let (timestamp, url, count) = row.map_err(|source| self.error(source))?;
            tries.0.entry(timestamp).or_default().push((url, u32::try_from(count).unwrap_or(u32::MAX)));
        }
        Ok(tries)
    }

    /// True when the capture is kept (with its body, when its status needs one).
    pub fn has_capture(&self, site: &str, timestamp: &str, url: &str) -> Result<bool, StoreError> {
        self.connection
            .query_row(
                "SELECT 1 FROM versions WHERE site = ?1 AND provenance = 'archive' AND timestamp = ?2 AND url = ?3",
                params![site, timestamp, url],
                |_| Ok(()),
            )
            .optional()
            .map(|found| found.is_some())
            .map_err(|source| self.error(source))
    }

    /// How many times the archive failed to serve a capture.
    pub fn capture_tries(&self, site: &str, timestamp: &str, url: &str) -> Result<u32, StoreError> {
        let tries: Option<i64> = self
            .connection
            .query_row(
                "SELECT tries FROM capture_failures WHERE site = ?1 AND timestamp = ?2 AND url = ?3",
                params![site, timestamp, url],
                |row| row.get(0),
            )
            .optional()
            .map_err(|source| self.error(source))?;
        Ok(tries.map_or(0, |tries| u32::try_from(tries).unwrap_or(u32::MAX)))
    }

    /// Counts one more failure of the archive to serve a capture.
    pub fn note_capture_failure(&self, site: &str, timestamp: &str, url: &str, error: &str) -> Result<(), StoreError> {
        self.connection
            .execute(
                "INSERT INTO capture_failures (site, timestamp, url, tries, error) VALUES (?1, ?2, ?3, 1, ?4)
                 ON CONFLICT (site, timestamp, url) DO UPDATE SET tries = tries + 1, error = excluded.error",
                params![site, timestamp, url, error],
            )
            .map(drop)
            .map_err(|source| self.error(source))
    }

    /// The length of the body with this digest, when it was kept.
    pub fn body_len(&self, digest: &str) -> Result<Option<u64>, StoreError> {
        let len: Option<i64> = self
            .connection
            .query_row("SELECT length(body) FROM content WHERE digest = ?1", [digest], |row| row.get(0))
            .optional()
            .map_err(|source| self.error(source))?;
        Ok(len.map(|len| u64::try_from(len).unwrap_or(0)))
    }

    /// The site's newest `count` versions, oldest first.
    pub fn newest_versions(&self, site: &str, count: usize) -> Result<Vec<Version>, StoreError> {
        let mut statement = self
            .connection
            .prepare(&format!(
                "SELECT {COLUMNS} FROM versions WHERE site = ?1 ORDER BY timestamp DESC, id DESC LIMIT ?2"
            ))
            .map_err(|source| self.error(source))?;
        let limit = i64::try_from(count).unwrap_or(i64::MAX);
        let rows = statement.query_map(params![site, limit], version_of_row).map_err(|source| self.error(source))?;
        let mut versions = rows
            .map(|row| row.map(|(_, version)| version).map_err(|source| self.error(source)))
            .collect::<Result<Vec<_>, _>>()?;
        versions.reverse();
        Ok(versions)
    }

    /// The body with this digest, when it was kept.
    pub fn body(&self, digest: &str) -> Result<Option<Vec<u8>>, StoreError> {
        self.connection
            .query_row("SELECT body FROM content WHERE digest = ?1", [digest], |row| row.get(0))
            .optional()
            .map_err(|source| self.error(source))
    }

    /// How many bodies are kept (each distinct content once).
    pub fn content_count(&self) -> Result<u64, StoreError> {
        let count: i64 = self
            .connection
            .query_row("SELECT count(*) FROM content", [], |row| row.get(0))
            .map_err(|source| self.error(source))?;
        Ok(u64::try_from(count).unwrap_or(0))
    }
}

const COLUMNS: &str =
    "id, provenance, timestamp, last_seen, seen, url, status, meaning, digest, bytes, truncated, headers";

fn last_version(
    connection: &Connection,
    site: &str,
    provenance: Provenance,
) -> rusqlite::Result<Option<(i64, Version)>> {
    connection
        .query_row(
            &format!(
                "SELECT {COLUMNS} FROM versions WHERE site = ?1 AND provenance = ?2 ORDER BY timestamp DESC, id DESC LIMIT 1"
            ),
            params![site, provenance.name()],
            version_of_row,
        )
        .optional()
}

fn version_of_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<(i64, Version)> {
    let provenance: String = row.get(1)?;
    let meaning: String = row.get(7)?;
    let headers: String = row.get(11)?;
    let version = Version {
        provenance: Provenance::parse(&provenance).unwrap_or(Provenance::Local),
        timestamp: row.get(2)?,
        last_seen: row.get(3)?,
        seen: u32::try_from(row.get::<_, i64>(4)?.max(1)).unwrap_or(u32::MAX),
        url: row.get(5)?,
        status: row.get::<_, Option<i64>>(6)?.and_then(|status| u16::try_from(status).ok()),
        availability: meaning_of_code(&meaning),
        digest: row.get(8)?,
        bytes: u64::try_from(row.get::<_, i64>(9)?).unwrap_or(0),
        truncated: row.get(10)?,
        headers: headers
            .lines()
            .filter_map(|line| line.split_once(": "))
            .map(|(name, value)| (name.to_owned(), value.to_owned()))
            .collect(),
    };
    Ok((row.get(0)?, version))
}

/// The headers kept with a version, one `name: value` per line.
fn headers_text(headers: &[(String, String)]) -> String {
    let mut text = String::new();
    for (name, value) in headers {
        if matches!(name.as_str(), "content-type" | "last-modified" | "etag" | "content-usage") {
            text.push_str(name);
            text.push_str(": ");
            text.push_str(&value.replace(['\r', '\n'], " "));
            text.push('\n');
        }
    }
    text
}

/// What an answer means, as the store writes it.
fn meaning_code(availability: Availability) -> String {
    match availability {
        Availability::Status(status) => format!("status {status}"),
        Availability::RedirectWithoutTarget(status) => format!("redirect without target {status}"),
        Availability::Unreachable => "unreachable".to_owned(),
        Availability::TimedOut => "timed out".to_owned(),
        Availability::TooManyRedirects => "too many redirects".to_owned(),
        Availability::RedirectLoop => "redirect loop".to_owned(),
        _ => "available".to_owned(),
    }
}

fn meaning_of_code(code: &str) -> Availability {
    let status = |prefix: &str| code.strip_prefix(prefix).and_then(|status| status.parse().ok());
    match code {
        "unreachable" => Availability::Unreachable,
        "timed out" => Availability::TimedOut,
        "too many redirects" => Availability::TooManyRedirects,
        "redirect loop" => Availability::RedirectLoop,
        _ => {
            if let Some(status) = status("status ") {
                Availability::Status(status)
            } else if let Some(status) = status("redirect without target ") {
                Availability::RedirectWithoutTarget(status)
            } else {
                Availability::Available
            }
        }
    }
}

/// How a process holds the store's lock.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Hold {
    /// Using the store: any number of processes at once.
    Shared,
    /// Repairing it: one process, and no other has it open.
    Whole,
}

/// Takes the store's lock: the operating system's lock (`flock`) on `PATH.lock`, which
/// dies with the process that holds it, so that a process killed mid-repair leaves no
/// stale lock. The lock is held while the file returned is open. The file stays:
/// removing it would let a process that opened it before lock a file no other process
/// sees.
///
/// Bounded: a hold that cannot be had is waited for [`REPAIR_WAIT`] at most (a process
/// stopped mid-repair would hold it for good, and a long archive fetch holds the store
/// open for minutes); after that, and when the lock cannot be opened, an error, and the
/// caller goes on without the store. `flock` holds belong to each opening of the file,
/// so a second store opened by the same process counts as another process's.
fn store_lock(store: &Path, hold: Hold) -> std::io::Result<Locked> {
    let path = journal(store, ".lock");
    let cannot = |error: std::io::Error| {
        std::io::Error::new(error.kind(), format!("the lock {} cannot be opened: {error}", path.display()))
    };
    let file = open_lock_file(&path).map_err(cannot)?;
    // The damaged file a repair waits to move: if another process moves it first, the
    // wait is over (the store at the path is a new one, to be used as any other).
    let damaged = if hold == Hold::Whole { file_identity(store) } else { None };
    // The blocking lock on a thread of its own, given up after the wait: the thread
    // ends when the other process lets go, and drops the file, which unlocks it.
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let locked = if hold == Hold::Whole { file.lock() } else { file.lock_shared() };
        let _ = sender.send(locked.map(|()| file));
    });
    let waited = REPAIR_WAIT.as_secs();
    let deadline = std::time::Instant::now() + REPAIR_WAIT;
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match receiver.recv_timeout(left.min(LOOK_AGAIN)) {
            Ok(locked) => return locked.map(Locked::Held),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) if !left.is_zero() => {
                if damaged.is_some() && file_identity(store) != damaged {
                    return Ok(Locked::Replaced);
                }
            }
            Err(_) => {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    match hold {
                        Hold::Shared => format!("another process has been repairing it for {waited}s"),
                        Hold::Whole => format!(
                            "it is damaged, and has been open elsewhere (another robotscope process, or \
                             another task of this one) for {waited}s, so it was neither repaired nor used"
                        ),
                    },
                ));
            }
        }
    }
}

/// How often a repair waiting for the lock looks whether another process has moved the
/// damaged file already.
const LOOK_AGAIN: Duration = Duration::from_millis(100);

/// What taking the lock gave.
enum Locked {
    /// The lock, held while the file is open.
    Held(std::fs::File),
    /// Nothing: the damaged file a repair waited for was moved by another process.
    Replaced,
}

/// Opens the lock file, making it if need be: for writing when the user may, else for
/// reading (a lock another user made; `flock` needs no more). A FIFO, a device or a
/// directory in its place is refused, and a symbolic link is not followed: opening
/// never waits, and never makes a file elsewhere.
fn open_lock_file(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let file = match options.clone().read(true).write(true).create(true).truncate(false).open(path) {
        Err(error) if error.kind() == std::io::ErrorKind::PermissionDenied => options.read(true).open(path)?,
        opened => opened?,
    };
    let metadata = file.metadata()?;
    if !metadata.is_file() {
        let what = format!("it is {}, not a file", kind_of(metadata.file_type()));
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, what));
    }
    Ok(file)
}

/// The device and inode of the file at `path`, to tell whether it is still the same.
fn file_identity(path: &Path) -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(path).ok().map(|metadata| (metadata.dev(), metadata.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

/// Refuses a store path that names something other than a regular file (or nothing):
/// a FIFO would hang the opening, a device would be written to (`/dev/null-journal`
/// made as root). Its journal files are looked at too, as SQLite opens them.
fn refuse_unless_regular(path: &Path) -> Result<(), StoreError> {
    let label = path.display().to_string();
    for (file, suffix) in [(path.to_path_buf(), ""), (journal(path, "-wal"), "-wal"), (journal(path, "-shm"), "-shm")] {
        let Ok(metadata) = std::fs::metadata(&file) else { continue };
        if !metadata.is_file() {
            let what = kind_of(metadata.file_type());
            let what = if suffix.is_empty() { what.to_owned() } else { format!("beside {what} named {suffix}") };
            return Err(StoreError::NotAStore { path: label, what });
        }
    }
    Ok(())
}

/// `PATH-wal`, `PATH-shm`: SQLite's files beside a database.
fn journal(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// What a file that is not a regular one is, in words.
fn kind_of(file_type: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO";
        }
        if file_type.is_char_device() || file_type.is_block_device() {
            return "a device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    if file_type.is_dir() { "a directory" } else { "not a regular file" }
}

/// True when the store can be written: the file (or, when there is none yet, its
/// directory). Asked of the system, so that root and ACLs answer as they would.
fn can_write(path: &Path) -> bool {
    match std::fs::OpenOptions::new().write(true).open(path) {
        Ok(_) => true,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => true,
        Err(error) => {
            !matches!(error.kind(), std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::ReadOnlyFilesystem)
        }
    }
}

/// True when there is no file yet, an empty one (SQLite makes a database of it), or one
/// that begins as every SQLite database does.
fn is_sqlite_file(path: &Path) -> bool {
    use std::io::Read;
    let Ok(mut file) = std::fs::File::open(path) else { return true };
    let mut header = Vec::with_capacity(16);
    match file.by_ref().take(16).read_to_end(&mut header) {
        Ok(read) if read > 0 => header == b"SQLite format 3\0",
        // Empty, or unreadable (a directory): SQLite says what it makes of it.
        _ => true,
    }
}

/// Whether SQLite says the file is not a sound database.
fn is_damage(error: &rusqlite::Error) -> bool {
    matches!(error.sqlite_error_code(), Some(ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept<'a>(timestamp: &'a str, body: &'a [u8], digest: &'a str) -> Kept<'a> {
        Kept {
            site: "example.com",
            provenance: Provenance::Local,
            timestamp,
            url: "https://example.com/robots.txt",
            status: Some(200),
            availability: Availability::Available,
            body: Some(body),
            digest,
            bytes: body.len() as u64,
            truncated: false,
            headers: &[],
        }
    }

    #[test]
    fn the_same_answer_moves_last_seen_on_and_content_is_kept_once() {
        let mut store = Store::in_memory().expect("store");
        let (a, b) = (b"User-agent: *\nDisallow: /a\n".as_slice(), b"User-agent: *\nDisallow: /b\n".as_slice());
        let (da, db) = (super::super::digest(a), super::super::digest(b));
        assert_eq!(store.keep(&kept("20240101000000", a, &da)).expect("kept"), None);
        let previous = store.keep(&kept("20240102000000", a, &da)).expect("kept");
        assert_eq!(previous.map(|v| v.timestamp), Some("20240101000000".to_owned()));
        store.keep(&kept("20240103000000", b, &db)).expect("kept");
        store.keep(&kept("20240104000000", a, &da)).expect("kept");
        let versions = store.versions("example.com").expect("versions");
        let seen: Vec<(&str, &str, u32)> =
            versions.iter().map(|v| (v.timestamp.as_str(), v.last_seen.as_str(), v.seen)).collect();
        assert_eq!(
            seen,
            [
                ("20240101000000", "20240102000000", 2),
                ("20240103000000", "20240103000000", 1),
                ("20240104000000", "20240104000000", 1)
            ]
        );
        assert_eq!(store.content_count().expect("count"), 2);
        assert_eq!(store.body(&da).expect("body").as_deref(), Some(a));
    }

    #[test]
    fn meanings_survive_the_store() {
        for availability in [
            Availability::Available,
            Availability::Status(404),
            Availability::Status(503),
            Availability::RedirectLoop,
            Availability::TooManyRedirects,
            Availability::RedirectWithoutTarget(304),
            Availability::Unreachable,
            Availability::TimedOut,
        ] {
            assert_eq!(meaning_of_code(&meaning_code(availability)), availability);
        }
    }
}
