//! The web archive's versions of a robots.txt: a Wayback-compatible archive's CDX
//! listing (`BASE/cdx/search/cdx`) and its raw captures (`BASE/web/TIMESTAMPid_/URL`),
//! fetched over the fetch layer and kept in the store.
//!
//! The listing asks for one row per distinct content (`collapse=digest`). A capture the
//! store holds is never fetched again; a capture whose status decides by itself (a 404
//! allows everything, a 5xx disallows everything: RFC 9309 §2.3.1.3 and §2.3.1.4) is
//! kept without fetching its body. The rest are fetched two at a time, each request
//! started at least `pace` after the one before (the archive is shared by everyone);
//! an archive that answers 429 or 5xx is given time and asked again, and if it keeps
//! answering so, the run stops asking. A capture the archive cannot serve is asked for
//! again by later runs, [`MAX_CAPTURE_TRIES`] times in all.

use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use tokio::sync::Mutex;
use tokio::time::Instant;
use url::Url;

use super::store::{Kept, MAX_CAPTURE_TRIES, Store, StoreError};
use super::{Provenance, digest, site_key};
use crate::fetch::{self, FetchError, Fetched, Limits};
use crate::policy::Availability;

/// The Wayback Machine.
pub const DEFAULT_ARCHIVE: &str = "https://web.archive.org";

/// Captures fetched in one run by default: at the default pace, under ten minutes.
pub const DEFAULT_MAX_CAPTURES: usize = 1000;

/// Captures fetched at once.
const CONCURRENT_CAPTURES: usize = 2;

/// Times a request the archive refused for load (429, 5xx) is asked again; if it still
/// refuses, the run stops asking (the rest waits for the next run).
const RETRIES: u32 = 2;

/// The longest pause a Retry-After gets.
const MAX_PAUSE_SECS: u64 = 30;

/// The most a listing may weigh: a robots.txt captured a hundred thousand times over
/// lists well under this.
const MAX_LISTING_BYTES: usize = 16 * 1024 * 1024;

/// Where and how to ask the archive.
#[derive(Debug, Clone)]
pub struct ArchiveOptions {
    /// The archive (`https://web.archive.org`, or a mirror).
    pub base: Url,
    /// The first and last timestamps wanted (`YYYYMMDDhhmmss`), if bounded.
    pub from: Option<String>,
    /// See `from`.
    pub to: Option<String>,
    /// Which captures the listing gives.
    pub collapse: Collapse,
    /// The least time between two requests to the archive, kept across the syncs that
    /// share it.
    pub pace: Pacer,
    /// The most captures fetched in one run (the oldest first); the rest are fetched by
    /// the next runs, since what was read is kept.
    pub max_captures: usize,
    /// The limits of each request (`--timeout`, the User-Agent); a capture's body is
    /// read up to `max_bytes` like a live robots.txt.
    pub limits: Limits,
    /// The whole sync's time (`--max-time`): slow captures and an archive that asks for
    /// pauses (429 with Retry-After) stop there; what was kept stays kept.
    pub max_time: Duration,
}

/// Which captures a listing gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Collapse {
    /// One row per distinct content (`collapse=digest`): every version.
    #[default]
    Digest,
    /// One row a month (`collapse=timestamp:6`), 404s, redirects and revisits left out, as
    /// *Consent in Crisis* lists them; and the last capture before `from`, which a
    /// monthly series carries into its first months.
    Month,
}

/// One row of the CDX listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Capture {
    /// When it was captured, `YYYYMMDDhhmmss`.
    pub timestamp: String,
    /// The URL captured.
    pub original: String,
    /// The status captured (`None` when the listing says `-`).
    pub status: Option<u16>,
    /// The archive's digest of the body.
    pub digest: String,
}

impl Capture {
    /// Whether the body must be read: a 2xx capture's rules are in it (and a capture
    /// of unknown status may be one).
    fn needs_body(&self) -> bool {
        self.status.is_none_or(|status| (200..300).contains(&status))
    }
}

/// Why the archive could not be asked: each says the cause first and the URL last, since
/// a status bar cuts the end of a long message and the cause is what the user needs.
#[derive(Debug, thiserror::Error)]
pub enum ArchiveError {
    /// The listing request failed.
    #[error("the archive's listing failed: {source} ({url})")]
    Fetch {
        /// The listing URL.
        url: String,
        /// Why.
        source: FetchError,
    },
    /// The listing answered something other than 200.
    #[error("the archive's listing answered {status} ({url})")]
    Status {
        /// The listing URL.
        url: String,
        /// Its status.
        status: u16,
    },
    /// The listing is not the CDX JSON expected.
    #[error("the archive's listing is not CDX JSON: {reason} ({url})")]
    Listing {
        /// The listing URL.
        url: String,
        /// What is wrong.
        reason: String,
    },
    /// The listing did not come within the run's `--max-time`.
    #[error("the archive's listing did not come within --max-time {} ({url})", fetch::duration_words(*max_time))]
    OutOfTime {
        /// The listing URL.
        url: String,
        /// The run's deadline.
        max_time: Duration,
    },
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// What a sync did.
#[derive(Debug, Default)]
pub struct Synced {
    /// Captures the listing gave (within the dates).
    pub listed: usize,
    /// Captures the store already held.
    pub cached: usize,
    /// Captures fetched now (or kept from the listing alone).
    pub kept: usize,
    /// Captures that could not be had, and why: they are asked again next time.
    pub failed: Vec<(Capture, String)>,
    /// Captures left for the next run (past `max_captures`).
    pub left: usize,
    /// Captures of another host the listing gave (the archive files `www.example.com`
    /// with `example.com`; to RFC 9309 they are another site's file), left out.
    pub other_hosts: usize,
    /// Captures the archive failed to serve [`MAX_CAPTURE_TRIES`] times, no longer
    /// asked for.
    pub given_up: usize,
    /// True when the archive kept answering 429 or 5xx and the run stopped asking.
    pub throttled: bool,
    /// Rows of the listing whose timestamp no capture can have, rejected.
    pub impossible: usize,
    /// True when `max_time` ran out: the captures not yet read are in `left`.
    pub out_of_time: bool,
}

/// Progress of a sync, for a spinner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    /// The listing came: this many captures to look at.
    Listed(usize),
    /// One more capture was kept or failed.
    Capture,
    /// This many captures were passed over at once (held already, or given up).
    Skipped(usize),
}

/// The CDX listing URL for a robots.txt: its host and path without the scheme (the
/// archive keys http and https captures as one), JSON, one row per distinct digest or
/// per month. A monthly listing starts at the first capture: the one before `from`
/// is carried into `from`'s month.
#[must_use]
pub fn cdx_url(base: &Url, robots_url: &Url, from: Option<&str>, to: Option<&str>, collapse: Collapse) -> Url {
    let mut url = base.clone();
    url.path_segments_mut()
        .map(|mut segments| {
            segments.pop_if_empty().extend(["cdx", "search", "cdx"]);
        })
        .ok();
    {
        let mut query = url.query_pairs_mut();
        query.clear();
        query.append_pair("url", &format!("{}/robots.txt", site_key(robots_url)));
        query.append_pair("output", "json");
        query.append_pair("fl", "timestamp,original,statuscode,digest");
        match collapse {
            Collapse::Digest => {
                query.append_pair("collapse", "digest");
                if let Some(from) = from {
                    query.append_pair("from", from);
                }
            }
            Collapse::Month => {
                query.append_pair("collapse", "timestamp:6");
                query.append_pair("filter", "!statuscode:404");
                // A redirect's target is not in the listing: one would stand for its
                // month (http captures redirect to https ones) and say nothing.
                query.append_pair("filter", "!statuscode:3..");
                query.append_pair("filter", "!mimetype:warc/revisit");
            }
        }
        if let Some(to) = to {
            query.append_pair("to", to);
        }
    }
    url
}

/// The raw capture: `BASE/web/TIMESTAMPid_/ORIGINAL` (`id_` asks for the bytes as
/// captured, without the archive's banner or rewritten links).
#[must_use]
pub fn capture_url(base: &Url, capture: &Capture) -> Option<Url> {
    let base = base.as_str().trim_end_matches('/');
    Url::parse(&format!("{base}/web/{}id_/{}", capture.timestamp, capture.original)).ok()
}

/// A CDX listing read: its captures, oldest first, and how many rows were rejected for
/// a timestamp no capture can have (month 13, `99999999999999`, fullwidth digits).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Listing {
    /// The captures.
    pub captures: Vec<Capture>,
    /// Rows rejected.
    pub impossible: usize,
}

/// Reads a CDX JSON listing: an array of rows, the first naming the fields. Rows whose
/// timestamp is no real moment ([`super::is_sound_timestamp`]) are counted, not taken.
pub fn parse_cdx(body: &[u8]) -> Result<Listing, String> {
    let rows: Vec<Vec<String>> = serde_json::from_slice(body).map_err(|error| error.to_string())?;
    let Some((header, rows)) = rows.split_first() else { return Ok(Listing::default()) };
    let field = |name: &str| {
        header.iter().position(|field| field == name).ok_or_else(|| format!("the listing has no '{name}' field"))
    };
    let (timestamp, original, status, digest) =
        (field("timestamp")?, field("original")?, field("statuscode")?, field("digest")?);
    let mut listing = Listing::default();
    for row in rows {
        let get = |index: usize| row.get(index).cloned();
        let (Some(when), Some(original), Some(digest)) = (get(timestamp), get(original), get(digest)) else { continue };
        if !super::is_sound_timestamp(&when) {
            listing.impossible += 1;
            continue;
        }
        let status = get(status).and_then(|status| status.parse().ok());
        listing.captures.push(Capture { timestamp: when, original, status, digest });
    }
    listing.captures.sort_by(|a, b| a.timestamp.cmp(&b.timestamp));
    Ok(listing)
}

/// The archive's listing of `robots_url`'s captures within the dates, oldest first.
async fn list(
    client: &reqwest::Client,
    pacer: &Pacer,
    robots_url: &Url,
    options: &ArchiveOptions,
) -> Result<Listing, ArchiveError> {
    let listing_url =
        cdx_url(&options.base, robots_url, options.from.as_deref(), options.to.as_deref(), options.collapse);
    let listing_limits = Limits { max_bytes: MAX_LISTING_BYTES, ..options.limits.clone() };
    let listed = politely(pacer, || fetch::fetch_with(client, &listing_url, &listing_limits))
        .await
        .map_err(|source| ArchiveError::Fetch { url: listing_url.to_string(), source })?;
    let listing_error = |reason: String| ArchiveError::Listing { url: listing_url.to_string(), reason };
    if listed.status.code() != 200 {
        return Err(ArchiveError::Status { url: listing_url.to_string(), status: listed.status.code() });
    }
    if listed.truncated {
        return Err(listing_error(format!("longer than {MAX_LISTING_BYTES} bytes")));
    }
    // A mirror may not take --from and --to: they are applied here too.
    let mut listing = parse_cdx(&listed.body).map_err(listing_error)?;
    let from = options.from.as_deref().unwrap_or_default();
    listing.captures.retain(|capture| options.to.as_deref().is_none_or(|to| capture.timestamp.as_str() <= to));
    // Oldest first: the captures before `from` are a prefix.
    let before = listing.captures.partition_point(|capture| capture.timestamp.as_str() < from);
    let carried_in = usize::from(options.collapse == Collapse::Month && before > 0);
    listing.captures.drain(..before - carried_in);
    Ok(listing)
}

/// Lists the archive's captures of `robots_url` and keeps in `store` those it does not
/// hold yet: the second run over the same dates fetches nothing but the listing.
pub async fn sync(
    store: &mut Store,
    robots_url: &Url,
    options: &ArchiveOptions,
    mut progress: impl FnMut(Progress),
) -> Result<Synced, ArchiveError> {
    let client = fetch::client(&options.limits)
        .map_err(|source| ArchiveError::Fetch { url: options.base.to_string(), source })?;
    // The pauses the archive asks for and slow captures alike end at the deadline.
    let deadline = fetch::deadline_after(options.max_time);
    let pacer = &options.pace;
    let listing = tokio::time::timeout_at(deadline, list(&client, pacer, robots_url, options)).await;
    let listing = listing.map_err(|_| ArchiveError::OutOfTime {
        url: cdx_url(&options.base, robots_url, None, None, options.collapse).to_string(),
        max_time: options.max_time,
    })??;
    let site = site_key(robots_url);
    let (captures, others) = of_this_site(listing.captures, &site);
    progress(Progress::Listed(captures.len()));
    let mut synced =
        Synced { listed: captures.len(), other_hosts: others, impossible: listing.impossible, ..Synced::default() };
    let SortedOut { to_fetch, status_only, mut first_unread } =
        sort_out(store, &site, captures, options.max_captures, &mut synced)?;
    progress(Progress::Skipped(synced.cached + synced.given_up));
    // Set when the archive keeps saying it is busy: the captures not yet asked for wait
    // for the next run.
    let busy = std::sync::atomic::AtomicBool::new(false);
    // The captures asked for and not yet answered, by timestamp: what the deadline
    // leaves for the next run.
    let mut waiting: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    for capture in &to_fetch {
        *waiting.entry(capture.timestamp.clone()).or_default() += 1;
    }
    let (client, busy) = (&client, &busy);
    let mut fetches = futures::stream::iter(to_fetch)
        .map(|capture| async move {
            if busy.load(std::sync::atomic::Ordering::Relaxed) {
                return (capture, Fetching::Deferred);
            }
            let Some(url) = capture_url(&options.base, &capture) else {
                return (capture, Fetching::Failed("the captured URL does not make a capture URL".to_owned()));
            };
            match politely(pacer, || fetch::fetch_with(client, &url, &options.limits)).await {
                Ok(fetched) if fetched.status.is_success() => (capture, Fetching::Read(Box::new(fetched))),
                Ok(fetched) if is_busy(fetched.status.code()) => {
                    busy.store(true, std::sync::atomic::Ordering::Relaxed);
                    (capture, Fetching::Deferred)
                }
                Ok(fetched) => (capture, Fetching::Failed(format!("the archive answered {}", fetched.status.code()))),
                Err(error) => (capture, Fetching::Failed(error.to_string())),
            }
        })
        .buffer_unordered(CONCURRENT_CAPTURES);
    let mut unread = |timestamp: &str| {
        if first_unread.as_deref().is_none_or(|first| timestamp < first) {
            first_unread = Some(timestamp.to_owned());
        }
    };
    loop {
        let Ok(next) = tokio::time::timeout_at(deadline, fetches.next()).await else {
            // The captures not read wait for the next run, as past --max-captures.
            synced.out_of_time = true;
            synced.left += waiting.values().sum::<usize>();
            if let Some(first) = waiting.keys().next() {
                unread(first);
            }
            break;
        };
        let Some((capture, fetching)) = next else { break };
        if let Some(count) = waiting.get_mut(&capture.timestamp) {
            *count -= 1;
            if *count == 0 {
                waiting.remove(&capture.timestamp);
            }
        }
        match fetching {
            Fetching::Read(fetched) => {
                keep_capture(store, &site, &capture, Some(&fetched))?;
                synced.kept += 1;
            }
            Fetching::Failed(reason) => {
                store.note_capture_failure(&site, &capture.timestamp, &capture.original, &reason)?;
                unread(&capture.timestamp);
                synced.failed.push((capture, reason));
            }
            Fetching::Deferred => {
                unread(&capture.timestamp);
                synced.left += 1;
            }
        }
        progress(Progress::Capture);
    }
    // The captures whose status decides wait with the first capture not read (failed,
    // deferred, past --max-captures): a 503 kept while the version before it is not
    // would make a flip that never happened.
    for (index, capture) in status_only.into_iter().enumerate() {
        if first_unread.as_deref().is_some_and(|first| capture.timestamp.as_str() > first) {
            synced.left += 1;
        } else {
            // The status decides; the body (an error page) says nothing to robots.
            keep_capture(store, &site, &capture, None)?;
            synced.kept += 1;
        }
        progress(Progress::Capture);
        if index % 256 == 255 {
            // A long listing: let a cancellation in.
            tokio::task::yield_now().await;
        }
    }
    synced.throttled = busy.load(std::sync::atomic::Ordering::Relaxed);
    synced.failed.sort_by(|a, b| a.0.timestamp.cmp(&b.0.timestamp));
    Ok(synced)
}

/// The captures of this site's robots.txt (its host and port, over http or https, at
/// /robots.txt), and how many others the listing gave.
fn of_this_site(listed: Vec<Capture>, site: &str) -> (Vec<Capture>, usize) {
    let same_site = |capture: &Capture| {
        Url::parse(&capture.original).is_ok_and(|url| {
            matches!(url.scheme(), "http" | "https")
                && site_key(&url) == site
                && url.path() == "/robots.txt"
                && url.query().is_none()
        })
    };
    let total = listed.len();
    let captures: Vec<Capture> = listed.into_iter().filter(same_site).collect();
    let others = total - captures.len();
    (captures, others)
}

/// The captures a sync will read.
struct SortedOut {
    /// Fetched, at most `max_captures`.
    to_fetch: Vec<Capture>,
    /// Kept from their status alone, those before `first_unread`.
    status_only: Vec<Capture>,
    /// The first capture left for the next run: captures after it wait too.
    first_unread: Option<String>,
}

/// Sorts the listed captures out against what the store knows of the site, read once
/// (a listing of hundreds of thousands of rows costs a lookup each, not a query each):
/// those held already and those given up are counted; the rest are to fetch, or to keep
/// from their status alone, `max_captures` of each at most (each is a write).
fn sort_out(
    store: &Store,
    site: &str,
    captures: Vec<Capture>,
    max_captures: usize,
    synced: &mut Synced,
) -> Result<SortedOut, StoreError> {
    let (known, failures) = (store.archive_captures(site)?, store.capture_failures(site)?);
    let (mut to_fetch, mut status_only) = (Vec::new(), Vec::new());
    for capture in captures {
        let key = (capture.timestamp.as_str(), capture.original.as_str());
        if known.contains(&key) {
            synced.cached += 1;
        } else if capture.needs_body() {
            if failures.get(&key).is_some_and(|&tries| tries >= MAX_CAPTURE_TRIES) {
                synced.given_up += 1;
            } else {
                to_fetch.push(capture);
            }
        } else {
            status_only.push(capture);
        }
    }
    // Past --max-captures, the rest waits for the next run.
    let mut first_unread = to_fetch.get(max_captures).map(|capture| capture.timestamp.clone());
    if first_unread.is_some() {
        synced.left = to_fetch.len() - max_captures;
        to_fetch.truncate(max_captures);
    }
    if let Some(past) = status_only.get(max_captures)
        && first_unread.as_deref().is_none_or(|first| past.timestamp.as_str() < first)
    {
        first_unread = Some(past.timestamp.clone());
    }
    Ok(SortedOut { to_fetch, status_only, first_unread })
}

fn keep_capture(store: &mut Store, site: &str, capture: &Capture, fetched: Option<&Fetched>) -> Result<(), StoreError> {
    let status = capture.status.or_else(|| fetched.map(|fetched| fetched.status.code()));
    let availability = match status {
        Some(200..=299) | None => Availability::Available,
        Some(status @ 300..=399) => Availability::RedirectWithoutTarget(status),
        Some(status) => Availability::Status(status),
    };
    // A body read is kept under its own digest (what the store holds must be what the
    // digest names); the listing's digest stands for a body not read.
    let body = fetched.map(|fetched| fetched.body.as_slice());
    let digest = body.map_or_else(|| capture.digest.clone(), digest);
    store.keep(&Kept {
        site,
        provenance: Provenance::Archive,
        timestamp: &capture.timestamp,
        url: &capture.original,
        status,
        availability,
        body,
        digest: &digest,
        bytes: body.map_or(0, |body| body.len() as u64),
        truncated: fetched.is_some_and(|fetched| fetched.truncated),
        headers: fetched.map_or(&[], |fetched| fetched.headers.as_slice()),
    })?;
    Ok(())
}

/// What fetching one capture came to.
enum Fetching {
    /// Its bytes.
    Read(Box<Fetched>),
    /// The archive could not serve it.
    Failed(String),
    /// Not asked: the archive said it was busy.
    Deferred,
}

/// The archive is busy or down for a moment (429, 5xx), as opposed to a capture it
/// cannot serve.
fn is_busy(status: u16) -> bool {
    matches!(status, 429 | 500..=599)
}

/// Spaces requests to the archive at least `pace` apart, whatever runs them: its clones
/// share one schedule, so that the syncs of a survey's sites space theirs together.
#[derive(Debug, Clone)]
pub struct Pacer {
    pace: Duration,
    next: Arc<Mutex<Instant>>,
}

impl Pacer {
    /// Requests `pace` apart at least.
    #[must_use]
    pub fn new(pace: Duration) -> Pacer {
        Pacer { pace, next: Arc::new(Mutex::new(Instant::now())) }
    }

    /// Waits for this request's turn.
    async fn turn(&self) {
        let at = {
            let mut next = self.next.lock().await;
            let at = (*next).max(Instant::now());
            *next = at + self.pace;
            at
        };
        tokio::time::sleep_until(at).await;
    }
}

/// Runs a request in its turn; an archive that answers 429 or 5xx (it is busy, or
/// down for a moment) is asked again after its Retry-After (at most a minute) or a
/// growing pause.
async fn politely<F, Fut>(pacer: &Pacer, mut request: F) -> Result<Fetched, FetchError>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<Fetched, FetchError>>,
{
    let mut attempt = 0;
    loop {
        pacer.turn().await;
        let fetched = request().await?;
        if !is_busy(fetched.status.code()) || attempt == RETRIES {
            return Ok(fetched);
        }
        attempt += 1;
        let retry_after = fetched.header("retry-after").and_then(|value| value.trim().parse::<u64>().ok());
        let pause =
            retry_after.map_or(Duration::from_secs(1 << attempt), |secs| Duration::from_secs(secs.min(MAX_PAUSE_SECS)));
        tokio::time::sleep(pause).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 35: the cause comes first and the long URL last, so that a status bar that
    /// cuts the end still shows what went wrong.
    #[test]
    fn an_archive_error_says_its_cause_first() {
        let url = format!("https://web.archive.org/cdx/search/cdx?url={}", "x".repeat(200));
        let answered = ArchiveError::Status { url: url.clone(), status: 503 }.to_string();
        assert!(answered.starts_with("the archive's listing answered 503 ("), "{answered}");
        let late = ArchiveError::OutOfTime { url, max_time: Duration::from_secs(60) }.to_string();
        assert!(late.starts_with("the archive's listing did not come within --max-time 1m ("), "{late}");
    }

    #[test]
    fn listing_urls_name_the_host_without_the_scheme() {
        let base = Url::parse("https://web.archive.org").expect("url");
        let robots = Url::parse("https://example.com/robots.txt").expect("url");
        assert_eq!(
            cdx_url(&base, &robots, Some("2020"), None, Collapse::Digest).as_str(),
            "https://web.archive.org/cdx/search/cdx?url=example.com%2Frobots.txt&output=json&fl=timestamp%2Coriginal%2Cstatuscode%2Cdigest&collapse=digest&from=2020"
        );
        let mirror = Url::parse("http://127.0.0.1:9/mirror/").expect("url");
        assert!(
            cdx_url(&mirror, &robots, None, None, Collapse::Digest)
                .as_str()
                .starts_with("http://127.0.0.1:9/mirror/cdx/search/cdx?")
        );
        // Monthly: from the first capture (the one before `from` is carried into it).
        assert_eq!(
            cdx_url(&base, &robots, Some("2020"), Some("20241231235959"), Collapse::Month).as_str(),
            "https://web.archive.org/cdx/search/cdx?url=example.com%2Frobots.txt&output=json&fl=timestamp%2Coriginal%2Cstatuscode%2Cdigest&collapse=timestamp%3A6&filter=%21statuscode%3A404&filter=%21statuscode%3A3..&filter=%21mimetype%3Awarc%2Frevisit&to=20241231235959"
        );
        let capture = Capture {
            timestamp: "20200101000000".into(),
            original: "http://example.com:80/robots.txt".into(),
            status: Some(200),
            digest: "X".into(),
        };
        assert_eq!(
            capture_url(&mirror, &capture).map(String::from).as_deref(),
            Some("http://127.0.0.1:9/mirror/web/20200101000000id_/http://example.com:80/robots.txt")
        );
    }

    #[test]
    fn cdx_rows_are_read_by_their_header() {
        let body = br#"[["timestamp","original","statuscode","digest"],
            ["20210101000000","http://example.com/robots.txt","200","AAA"],
            ["20200101000000","http://example.com/robots.txt","404","BBB"],
            ["2020","http://example.com/robots.txt","200","CCC"],
            ["20220101000000","https://example.com/robots.txt","-","DDD"]]"#;
        let captures = parse_cdx(body).expect("listing").captures;
        let rows: Vec<(&str, Option<u16>)> = captures.iter().map(|c| (c.timestamp.as_str(), c.status)).collect();
        assert_eq!(rows, [("20200101000000", Some(404)), ("20210101000000", Some(200)), ("20220101000000", None)]);
        assert_eq!(parse_cdx(b"[]").expect("empty"), Listing::default());
        let impossible = r#"[["timestamp","original","statuscode","digest"],
            ["99999999999999","http://e.com/robots.txt","200","A"],
            ["00000000000000","http://e.com/robots.txt","200","A"],
            ["20201301000000","http://e.com/robots.txt","200","A"],
            ["20200230000000","http://e.com/robots.txt","200","A"],
            ["19930101000000","http://e.com/robots.txt","200","A"],
            ["２０２０１２０１００００００","http://e.com/robots.txt","200","A"],
            ["20200229235959","http://e.com/robots.txt","200","A"]]"#;
        let listing = parse_cdx(impossible.as_bytes()).expect("listing");
        assert_eq!((listing.captures.len(), listing.impossible), (1, 6), "only the leap day is a moment");
        assert!(parse_cdx(b"<html>").is_err());
        assert!(parse_cdx(br#"[["timestamp"],["20200101000000"]]"#).is_err());
    }
}
