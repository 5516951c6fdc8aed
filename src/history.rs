//! A site's robots.txt over time: the versions robotscope fetched and the web archive
//! captured, and when each robot's access (and usage preferences) changed.
//!
//! Three parts, each with one job (DESIGN.md §6): `store.rs` keeps versions in a SQLite
//! database that several robotscope processes share; `archive.rs` lists and fetches a
//! Wayback-compatible archive's captures over the fetch layer and keeps them in the
//! store; `timeline.rs` turns versions into verdicts and the flips between consecutive
//! versions (pure). This file holds what they share: a [`Version`], the site key,
//! digests and timestamps.

use std::fmt;

use url::Url;

use crate::fetch::{Fetched, Limits};
use crate::policy::Availability;

mod archive;
mod store;
mod timeline;
mod view;

pub use archive::{
    ArchiveError, ArchiveOptions, Capture, Collapse, DEFAULT_ARCHIVE, DEFAULT_MAX_CAPTURES, Pacer, Progress, Synced,
    capture_url, cdx_url, parse_cdx, sync,
};
pub use store::{Kept, MAX_CAPTURE_TRIES, Opened, Store, StoreChoice, StoreError, default_store_path};
pub use timeline::{Answer, Change, Flip, Snapshot, Subject, flips, snapshot, snapshot_as};
pub use view::{
    HistoryProgress, HistorySettings, KeptFetch, LoadedHistory, LoadedVersion, MAX_VIEW_BODY_BYTES, MAX_VIEW_VERSIONS,
    ViewError, keep_in_store, read_for_view,
};

/// Where a version comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Provenance {
    /// Fetched by robotscope from the site.
    Local,
    /// Captured by the web archive.
    Archive,
}

impl Provenance {
    /// `local` or `archive`, as the store and `history --json` write it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Provenance::Local => "local",
            Provenance::Archive => "archive",
        }
    }

    fn parse(text: &str) -> Option<Provenance> {
        match text {
            "local" => Some(Provenance::Local),
            "archive" => Some(Provenance::Archive),
            _ => None,
        }
    }
}

impl fmt::Display for Provenance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// One version of a site's robots.txt: what an answer said, first seen at `timestamp`
/// (and, for robotscope's own fetches, seen unchanged `seen` times until `last_seen`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    /// Where it comes from.
    pub provenance: Provenance,
    /// When it was fetched or captured, UTC, `YYYYMMDDhhmmss`.
    pub timestamp: String,
    /// The last fetch that gave the same answer (the timestamp for a capture).
    pub last_seen: String,
    /// How many fetches gave this answer in a row.
    pub seen: u32,
    /// The URL that answered (for a capture, the URL the archive captured).
    pub url: String,
    /// The HTTP status; `None` when the archive did not record one.
    pub status: Option<u16>,
    /// What the answer means for the rules.
    pub availability: Availability,
    /// SHA-1 of the body in base32, as the Wayback Machine writes digests.
    pub digest: String,
    /// The body's length.
    pub bytes: u64,
    /// True when the body was cut at the size cap.
    pub truncated: bool,
    /// The response headers that matter (`Content-Type`, `Last-Modified`, `ETag`,
    /// `Content-Usage`), lower-case names.
    pub headers: Vec<(String, String)>,
}

impl Version {
    /// The date for people: `2024-05-01 12:30:05` (UTC).
    #[must_use]
    pub fn date(&self) -> String {
        display_date(&self.timestamp)
    }

    /// Whether its verdicts can be known: the archive does not say where a redirect it
    /// captured led (RFC 9309 §2.3.1.2 has robots follow it), so such a capture decides
    /// nothing.
    #[must_use]
    pub fn decides(&self) -> bool {
        !matches!(self.status, Some(300..=399)) || self.provenance == Provenance::Local
    }

    /// True when the two answers say the same: the same status meaning and body.
    #[must_use]
    pub fn same_answer(&self, other: &Version) -> bool {
        self.availability == other.availability && self.digest == other.digest
    }
}

/// Keeps what a fetch of `robots_url` within `limits` answered; returns the site's last
/// local version before it (for "changed since the last fetch"). An answer the user's
/// own flags shaped is refused ([`StoreError::NotTheSites`]).
pub fn keep_fetch(
    store: &mut Store,
    robots_url: &Url,
    fetched: &Fetched,
    limits: &Limits,
) -> Result<Option<Version>, StoreError> {
    if let Some(why) = fetched.not_the_sites_own(limits) {
        return Err(StoreError::NotTheSites { why });
    }
    store.keep(&Kept {
        site: &site_key(robots_url),
        provenance: Provenance::Local,
        timestamp: &timestamp_now(),
        url: fetched.final_url.as_str(),
        status: Some(fetched.status.code()),
        availability: fetched.availability(),
        body: Some(&fetched.body),
        digest: &digest(&fetched.body),
        bytes: fetched.body.len() as u64,
        truncated: fetched.truncated,
        headers: &fetched.headers,
    })
}

/// The versions a timeline shows (see [`timeline_versions`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Timeline {
    /// The version in force when the range begins (the last one before `--from`), the
    /// baseline of the first flips.
    pub before: Option<Version>,
    /// The versions within the range, oldest first.
    pub versions: Vec<Version>,
    /// Captured redirects within the range, left out.
    pub redirects_left_out: usize,
}

/// The versions a timeline shows, oldest first: without the redirects the archive
/// captured (they decide nothing, see [`Version::decides`]), each run of identical
/// answers as its first version, seen until the run's last; those that begin within
/// `from..=to`, and the one in force before `from`.
#[must_use]
pub fn timeline_versions(versions: Vec<Version>, from: Option<&str>, to: Option<&str>) -> Timeline {
    let mut runs: Vec<Version> = Vec::new();
    let mut timeline = Timeline::default();
    let within = |timestamp: &str| from.is_none_or(|from| timestamp >= from) && to.is_none_or(|to| timestamp <= to);
    for version in versions {
        if !version.decides() {
            timeline.redirects_left_out += usize::from(within(&version.timestamp));
            continue;
        }
        match runs.last_mut() {
            Some(last) if last.same_answer(&version) => {
                last.seen += version.seen;
                last.last_seen = last.last_seen.clone().max(version.last_seen);
            }
            _ => runs.push(version),
        }
    }
    for version in runs {
        if from.is_some_and(|from| version.timestamp.as_str() < from) {
            timeline.before = Some(version);
        } else if within(&version.timestamp) {
            timeline.versions.push(version);
        }
    }
    timeline
}

/// The bytes of a version: its body from the store; none when its status decides (an
/// error page says nothing to robots, and a capture's listed digest is the archive's
/// word, never read).
pub fn body_of(store: &Store, version: &Version) -> Result<Vec<u8>, StoreError> {
    if version.availability != Availability::Available {
        return Ok(Vec::new());
    }
    Ok(store.body(&version.digest)?.unwrap_or_default())
}

/// The key versions of a site are kept under: the host and a port other than the
/// scheme's, without the scheme, as the Wayback Machine keys its captures (the http and
/// https files of a site are one history).
#[must_use]
pub fn site_key(robots_url: &Url) -> String {
    let host = robots_url.host_str().unwrap_or_default().to_ascii_lowercase();
    match robots_url.port() {
        Some(port) => format!("{host}:{port}"),
        None => host,
    }
}

/// SHA-1 of `bytes` in base32: the digest the Wayback Machine's CDX API lists, so that a
/// fetched file and a capture of the same bytes are one content in the store.
#[must_use]
pub fn digest(bytes: &[u8]) -> String {
    use sha1::Digest;
    data_encoding::BASE32.encode(&sha1::Sha1::digest(bytes))
}

/// Now, UTC, as `YYYYMMDDhhmmss`.
#[must_use]
pub fn timestamp_now() -> String {
    jiff::Timestamp::now().strftime("%Y%m%d%H%M%S").to_string()
}

/// True when `timestamp` is a moment a capture can have been made: fourteen ASCII
/// digits of a real date and time (no month 13, no `00000000000000`), from 1994 (the
/// year robots.txt was proposed) to a day from now. An archive that lists another is
/// wrong, and its row is no version (issue 25).
#[must_use]
pub fn is_sound_timestamp(timestamp: &str) -> bool {
    if timestamp.len() != 14 || !timestamp.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    if timestamp[..4].parse::<u32>().unwrap_or(0) < 1994 {
        return false;
    }
    if jiff::civil::DateTime::strptime("%Y%m%d%H%M%S", timestamp).is_err() {
        return false;
    }
    // Fourteen digits each: compared as text, they compare as moments.
    let tomorrow = jiff::Timestamp::now().checked_add(jiff::SignedDuration::from_hours(24));
    tomorrow.is_ok_and(|tomorrow| timestamp <= tomorrow.strftime("%Y%m%d%H%M%S").to_string().as_str())
}

/// `YYYYMMDDhhmmss` as `YYYY-MM-DD hh:mm:ss` (the text as it is if it is not one).
#[must_use]
pub fn display_date(timestamp: &str) -> String {
    let digits = |range: std::ops::Range<usize>| timestamp.get(range).unwrap_or("");
    if timestamp.len() == 14 && timestamp.bytes().all(|b| b.is_ascii_digit()) {
        let (date, time) =
            ((digits(0..4), digits(4..6), digits(6..8)), (digits(8..10), digits(10..12), digits(12..14)));
        format!("{}-{}-{} {}:{}:{}", date.0, date.1, date.2, time.0, time.1, time.2)
    } else {
        // Not one of robotscope's timestamps (a store someone else wrote): shown safely.
        crate::policy::escape::sanitize_str(timestamp).into_owned()
    }
}

/// Why a date given on the command line is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "'{given}' is not a date: give YYYY, YYYY-MM, YYYY-MM-DD, YYYY-MM-DD hh:mm, or 4, 6, 8, 10, 12 or 14 digits of YYYYMMDDhhmmss (UTC)"
)]
pub struct BadDate {
    given: String,
}

/// A date as the user gives it (`2024`, `2024-05`, `2024-05-01`, `2024-05-01 12:30`,
/// `20240501123000`, any prefix of 4 to 14 digits) as the range of timestamps it covers:
/// its first and last second, `YYYYMMDDhhmmss`.
pub fn date_range(given: &str) -> Result<(String, String), BadDate> {
    let bad = || BadDate { given: given.to_owned() };
    let digits: String = given.chars().filter(|c| !matches!(c, '-' | ':' | ' ' | 'T')).collect();
    if !(4..=14).contains(&digits.len())
        || !digits.bytes().all(|b| b.is_ascii_digit())
        || !digits.len().is_multiple_of(2)
    {
        return Err(bad());
    }
    let first = format!("{digits}{}", &"0101000000"[digits.len() - 4..]);
    // The last second: the next period's first second, less one.
    let start = jiff::civil::DateTime::strptime("%Y%m%d%H%M%S", &first).map_err(|_| bad())?;
    let span = match digits.len() {
        4 => jiff::Span::new().years(1),
        6 => jiff::Span::new().months(1),
        8 => jiff::Span::new().days(1),
        10 => jiff::Span::new().hours(1),
        12 => jiff::Span::new().minutes(1),
        _ => jiff::Span::new().seconds(1),
    };
    // Past the last period jiff knows (the end of 9999), the last second it knows.
    let end = start
        .checked_add(span)
        .and_then(|next| next.checked_sub(jiff::Span::new().seconds(1)))
        .unwrap_or(jiff::civil::DateTime::MAX);
    Ok((first, end.strftime("%Y%m%d%H%M%S").to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_are_the_wayback_machines() {
        // The CDX digest of an empty capture, as the Wayback Machine lists it.
        assert_eq!(digest(b""), "3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ");
        assert_eq!(digest(b"User-agent: *\nDisallow:\n").len(), 32);
    }

    #[test]
    fn dates_cover_their_period() {
        assert_eq!(date_range("2024").ok(), Some(("20240101000000".into(), "20241231235959".into())));
        assert_eq!(date_range("2024-02").ok(), Some(("20240201000000".into(), "20240229235959".into())));
        assert_eq!(date_range("2023-02-28").ok(), Some(("20230228000000".into(), "20230228235959".into())));
        assert_eq!(date_range("2024-05-01 12:30").ok(), Some(("20240501123000".into(), "20240501123059".into())));
        assert_eq!(date_range("20240501123005").ok(), Some(("20240501123005".into(), "20240501123005".into())));
        assert_eq!(date_range("9999").ok(), Some(("99990101000000".into(), "99991231235959".into())));
        for bad in ["", "24", "2024-13", "2024-02-30", "yesterday", "20245", "2024-05-01 25:00"] {
            assert!(date_range(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn site_keys_drop_the_scheme_and_default_ports() {
        let key = |url: &str| site_key(&Url::parse(url).expect("url"));
        assert_eq!(key("https://Example.com/robots.txt"), "example.com");
        assert_eq!(key("http://example.com:80/robots.txt"), "example.com");
        assert_eq!(key("http://127.0.0.1:8080/robots.txt"), "127.0.0.1:8080");
        assert_eq!(display_date("20240501123005"), "2024-05-01 12:30:05");
    }
}
