//! What the explorer's history view reads: a site's versions from the store (after
//! asking the web archive, when the user pressed `A`), each with its body parsed, within
//! the view's bounds; and keeping a fetched robots.txt in the store, which the command
//! line and the explorer share.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use url::Url;

use super::{
    ArchiveOptions, Collapse, DEFAULT_ARCHIVE, DEFAULT_MAX_CAPTURES, Opened, Pacer, Progress, StoreChoice, StoreError,
    Timeline, Version, body_of, keep_fetch, site_key, sync, timeline_versions,
};
use crate::fetch::{DEFAULT_MAX_TIME, Fetched, Limits, duration_words};
use crate::policy::{Availability, RobotsTxt};
use crate::words::plural;

/// The versions the view lists at most, the newest (`robotscope history` lists them
/// all).
pub const MAX_VIEW_VERSIONS: usize = 10_000;

/// The bodies the view holds at most, newest versions first; older ones are listed
/// without theirs (`robotscope history` and `diff` read every one, one at a time).
pub const MAX_VIEW_BODY_BYTES: usize = 32 * 1024 * 1024;

/// Where the explorer keeps and finds versions (`--store`, `--no-store`, `--archive`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistorySettings {
    /// The store.
    pub store: StoreChoice,
    /// The archive `A` asks.
    pub archive: Url,
    /// The least time between two requests to the archive.
    pub pace: Duration,
}

impl Default for HistorySettings {
    /// Nothing kept (the explorer's own default is set by `main`, from the options):
    /// tests of the app never write to the user's store.
    fn default() -> Self {
        HistorySettings {
            store: StoreChoice::Off,
            archive: Url::parse(DEFAULT_ARCHIVE).expect("the default archive is a URL"),
            pace: Duration::from_millis(500),
        }
    }
}

/// A version with its parsed body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadedVersion {
    /// The version.
    pub version: Version,
    /// Its body, parsed (shared by the versions with the same digest); `None` past
    /// [`MAX_VIEW_BODY_BYTES`].
    pub txt: Option<Arc<RobotsTxt>>,
}

/// What a history load brought back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadedHistory {
    /// The versions, oldest first (see [`timeline_versions`]).
    pub versions: Vec<LoadedVersion>,
    /// Redirect captures left out.
    pub redirects_left_out: usize,
    /// What went wrong on the way without stopping it (the archive unreachable, captures
    /// not read, a damaged store moved aside).
    pub warnings: Vec<String>,
}

/// How a history load is going.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HistoryProgress {
    /// True when the archive is being asked.
    pub archive: bool,
    /// Captures the archive listed, once it did.
    pub listed: Option<usize>,
    /// Captures kept or failed so far.
    pub done: usize,
}

/// Why the view could not read the versions. It travels to the app in an action, which
/// is a plain value: each variant keeps its cause's words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ViewError {
    /// The store could not be opened or read.
    #[error("{0}")]
    Store(String),
    /// The blocking thread that reads the store ended early (a panic there, or the
    /// runtime shutting down).
    #[error("reading the history store stopped: {0}")]
    Stopped(String),
}

impl From<StoreError> for ViewError {
    fn from(error: StoreError) -> Self {
        ViewError::Store(error.to_string())
    }
}

impl From<tokio::task::JoinError> for ViewError {
    fn from(error: tokio::task::JoinError) -> Self {
        ViewError::Stopped(error.to_string())
    }
}

/// Reads a site's versions from the store, asking the archive first when `archive`
/// (progress goes to the app as it comes); the store is opened and read on blocking
/// threads.
pub async fn read_for_view(
    robots_url: &Url,
    settings: HistorySettings,
    archive: bool,
    limits: Limits,
    mut report: impl FnMut(HistoryProgress),
) -> Result<LoadedHistory, ViewError> {
    let mut warnings = Vec::new();
    // Versions are read as the file on screen is (the RFC 9309 limit).
    let limits_for_bodies = limits.clone();
    let choice = settings.store.clone();
    let opened = tokio::task::spawn_blocking(move || choice.open()).await??;
    warnings.extend(opened.damage_note());
    let mut store = opened.store;
    if archive {
        let options = ArchiveOptions {
            base: settings.archive,
            from: None,
            to: None,
            collapse: Collapse::Digest,
            pace: Pacer::new(settings.pace),
            max_captures: DEFAULT_MAX_CAPTURES,
            limits,
            max_time: DEFAULT_MAX_TIME,
        };
        let mut progress = HistoryProgress { archive: true, listed: None, done: 0 };
        let synced = sync(&mut store, robots_url, &options, |event| {
            match event {
                Progress::Listed(count) => progress.listed = Some(count),
                Progress::Capture => progress.done += 1,
                Progress::Skipped(count) => progress.done += count,
            }
            report(progress);
        })
        .await;
        match synced {
            Ok(synced) => {
                if !synced.failed.is_empty() {
                    let failed = plural(synced.failed.len(), "capture");
                    warnings.push(format!("{failed} could not be read; A asks for them again"));
                }
                if synced.left > 0 {
                    let left = plural(synced.left, "capture");
                    warnings.push(format!("{left} left to fetch; A goes on"));
                }
                if synced.throttled {
                    warnings.push("The archive kept answering that it is busy (429 or 5xx); A again later".to_owned());
                }
                if synced.out_of_time {
                    warnings.push(format!(
                        "Stopped after {}; what was read is kept; A goes on",
                        duration_words(DEFAULT_MAX_TIME)
                    ));
                }
                if synced.impossible > 0 {
                    let rows = plural(synced.impossible, "row");
                    warnings.push(format!("The archive listed {rows} whose timestamp no capture can have; not kept"));
                }
            }
            Err(error) => warnings.push(error.to_string()),
        }
    }
    let site = site_key(robots_url);
    tokio::task::spawn_blocking(move || {
        // The newest rows only (twice what the view lists: runs of one answer fold),
        // so a store of a million versions costs the view what one of 20,000 does.
        let versions = store.newest_versions(&site, 2 * MAX_VIEW_VERSIONS)?;
        let Timeline { mut versions, redirects_left_out, .. } = timeline_versions(versions, None, None);
        if versions.len() > MAX_VIEW_VERSIONS {
            versions.drain(..versions.len() - MAX_VIEW_VERSIONS);
            warnings
                .push(format!("The view lists the newest {MAX_VIEW_VERSIONS} versions; robotscope history lists all"));
        }
        // Newest first, each distinct body once, until the view's budget is spent (by
        // the bodies' stored length, not the versions' word for it). A version whose
        // status decides has no body.
        let mut held: HashMap<String, Arc<RobotsTxt>> = HashMap::new();
        let no_rules = Arc::new(RobotsTxt::default());
        let mut budget = MAX_VIEW_BODY_BYTES;
        let mut loaded = Vec::with_capacity(versions.len());
        for version in versions.into_iter().rev() {
            let txt = if version.availability != Availability::Available {
                Some(Arc::clone(&no_rules))
            } else if let Some(txt) = held.get(&version.digest) {
                Some(Arc::clone(txt))
            } else {
                let len = store.body_len(&version.digest)?.unwrap_or(0);
                match usize::try_from(len) {
                    Ok(len) if len <= budget => {
                        let txt = Arc::new(limits_for_bodies.parse(body_of(&store, &version)?));
                        budget -= len;
                        held.insert(version.digest.clone(), Arc::clone(&txt));
                        Some(txt)
                    }
                    _ => None,
                }
            };
            loaded.push(LoadedVersion { version, txt });
        }
        loaded.reverse();
        Ok(LoadedHistory { versions: loaded, redirects_left_out, warnings })
    })
    .await?
}

/// What keeping a fetch brought: the site's last fetch before it, and what went wrong
/// on the way without stopping anything (a damaged store moved aside, a store that can
/// only be read).
#[derive(Debug, Default)]
pub struct KeptFetch {
    /// The site's last local version before this fetch.
    pub previous: Option<Version>,
    /// Warnings for the user, one sentence each.
    pub warnings: Vec<String>,
}

/// Keeps what a fetch of `robots_url` answered in the store `choice` names (nothing
/// when it is off). Blocking: SQLite may wait for another writer.
#[must_use]
pub fn keep_in_store(choice: &StoreChoice, robots_url: &Url, fetched: &Fetched, limits: &Limits) -> KeptFetch {
    if *choice == StoreChoice::Off {
        return KeptFetch::default();
    }
    let mut kept = KeptFetch::default();
    // Refused before the store is opened: nothing of it is the site's.
    if let Some(why) = fetched.not_the_sites_own(limits) {
        kept.warnings.push(super::StoreError::NotTheSites { why }.to_string());
        return kept;
    }
    match choice.open() {
        Ok(opened) => {
            kept.warnings.extend(opened.damage_note());
            let mut store = opened.store;
            match keep_fetch(&mut store, robots_url, fetched, limits) {
                Ok(previous) => kept.previous = previous,
                Err(error) => kept.warnings.push(error.to_string()),
            }
        }
        Err(error) => kept.warnings.push(error.to_string()),
    }
    kept
}

impl Opened {
    /// What to tell the user when the store was damaged and moved aside.
    #[must_use]
    pub fn damage_note(&self) -> Option<String> {
        self.moved_aside.as_ref().map(|(aside, reason)| {
            format!(
                "the history store at {} was damaged ({reason}); it was moved to {} and a new one started",
                self.store.path(),
                aside.display()
            )
        })
    }
}
