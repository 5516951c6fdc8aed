//! Where a robots.txt comes from: source resolution, and getting the bytes the way
//! crawlers do.
//!
//! Three parts, each with one job: `source.rs` resolves what the user typed into
//! standard input, a file or a site (pure) and reads local sources with a cap;
//! `http.rs` gets a site's robots.txt over HTTP the way crawlers do; `response.rs` maps
//! the answer to what it means for the rules and to warnings (pure). [`retrieve`] joins
//! them: a source in, its bytes and their meaning out. `page.rs` fetches a page for its
//! own policy.

use std::time::Duration;

use url::Url;

use crate::policy::content::RFC9309_PARSE_LIMIT_BYTES;
use crate::policy::{Availability, RobotsTxt};

mod http;
mod page;
mod response;
mod source;

pub use http::fetch;
pub(crate) use http::{Gate, Open, classify, client, fetch_gated, fetch_with, open};
pub use page::{Obey, OtherSite, PageFetch, fetch_page};
pub use response::{
    FetchError, FetchWarning, Fetched, Hop, MAX_KEPT_USER_AGENT_BYTES, MAX_REDIRECTS, Status, content_type_warning,
};
pub use source::{FileStamp, LocalBytes, MAX_FILE_BYTES, Source, SourceError, read_at_most, read_file_capped};

/// The bytes of a fetched robots.txt read by default: what RFC 9309 §2.5 asks crawlers to
/// read at least, and exactly what Google reads.
pub const DEFAULT_MAX_BYTES: usize = RFC9309_PARSE_LIMIT_BYTES;

/// The default of `--max-time`: the deadline of a whole run of many fetches (a walk of
/// sitemaps, a sync with the archive), and of the explorer's background walks.
pub const DEFAULT_MAX_TIME: std::time::Duration = std::time::Duration::from_secs(10 * 60);

/// `10m`, `90s`, `1h30m`: a duration as `--max-time` takes it.
#[must_use]
pub fn duration_words(duration: Duration) -> String {
    let seconds = duration.as_secs();
    let (hours, minutes, seconds) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    let mut words = String::new();
    for (count, unit) in [(hours, 'h'), (minutes, 'm'), (seconds, 's')] {
        if count > 0 {
            words.push_str(&count.to_string());
            words.push(unit);
        }
    }
    if words.is_empty() { format!("{}ms", duration.as_millis()) } else { words }
}

/// `now + duration`, or a moment so far off that it never comes (a duration too large
/// for the clock is no limit).
#[must_use]
pub fn deadline_after(duration: Duration) -> tokio::time::Instant {
    let now = tokio::time::Instant::now();
    now.checked_add(duration).unwrap_or_else(|| now + Duration::from_secs(100 * 365 * 24 * 3600))
}

/// The limits of one fetch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// The whole fetch, every hop and the body included.
    pub timeout: Duration,
    /// Establishing each connection.
    pub connect_timeout: Duration,
    /// Bytes of the body to read; the rest is never downloaded (see
    /// [`Limits::robots_txt_bytes`] for a robots.txt).
    pub max_bytes: usize,
    /// Bytes of a local file or of standard input to read.
    pub max_file_bytes: usize,
    /// The User-Agent request header.
    pub user_agent: String,
    /// Read every byte of a robots.txt under RFC 9309 too (`--whole-file`), instead of
    /// the first 500 KiB, as Google does.
    pub whole_file: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            timeout: Duration::from_secs(30),
            connect_timeout: Duration::from_secs(10),
            max_bytes: DEFAULT_MAX_BYTES,
            max_file_bytes: MAX_FILE_BYTES,
            user_agent: default_user_agent(),
            whole_file: false,
        }
    }
}

impl Limits {
    /// How much of a robots.txt the RFC 9309 reading reads, whatever it came from (a
    /// site, a file, standard input): the first 500 KiB, as Google does (RFC 9309 §2.5),
    /// unless `whole_file`. So one file gives one answer, whether it is fetched or read
    /// from disk.
    #[must_use]
    pub fn rfc9309_limit(&self) -> Option<usize> {
        (!self.whole_file).then_some(RFC9309_PARSE_LIMIT_BYTES)
    }

    /// Bytes of a fetched robots.txt to download: `max_bytes`, or with `whole_file` as
    /// much as a local file may hold (`max_file_bytes`), since reading every byte of a
    /// file means having every byte first. The 1994 standard and the 1996 draft set no
    /// limit, so only the whole file gives their answers for certain.
    #[must_use]
    pub fn robots_txt_bytes(&self) -> usize {
        if self.whole_file { self.max_bytes.max(self.max_file_bytes) } else { self.max_bytes }
    }

    /// Parses a robots.txt read within these limits (see [`Limits::rfc9309_limit`]).
    #[must_use]
    pub fn parse(&self, bytes: Vec<u8>) -> RobotsTxt {
        RobotsTxt::parse(bytes).with_rfc9309_limit(self.rfc9309_limit())
    }
}

/// A byte count for people: `812 B`, `1.8 KB`, `3.5 MB`.
#[must_use]
pub fn size_label(bytes: usize) -> String {
    const KB: f64 = 1024.0;
    #[allow(clippy::cast_precision_loss, reason = "a size label shows one decimal")]
    let value = bytes as f64;
    if value < KB {
        format!("{bytes} B")
    } else if value < KB * KB {
        format!("{:.1} KB", value / KB)
    } else {
        format!("{:.1} MB", value / (KB * KB))
    }
}

/// `robotscope/<version>`.
#[must_use]
pub fn default_user_agent() -> String {
    format!("robotscope/{}", env!("CARGO_PKG_VERSION"))
}

/// A source's bytes, as far as they could be had.
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(clippy::large_enum_variant, reason = "one per load, and boxed in the action that carries it")]
pub enum Retrieved {
    /// A local file or standard input.
    Local {
        /// Where it came from.
        source: Source,
        /// Its bytes, at most `--max-file-bytes` of them.
        bytes: Vec<u8>,
        /// True when there was more and reading stopped at the cap.
        truncated: bool,
        /// What the file was when read, for a save to tell whether it changed since.
        stamp: Option<FileStamp>,
    },
    /// A site's robots.txt: the response, or why there was none.
    Site {
        /// Where it came from (with the page for the tester).
        source: Source,
        /// The robots.txt URL.
        url: Url,
        /// The fetch's outcome.
        outcome: Result<Fetched, FetchError>,
    },
}

impl Retrieved {
    /// The bytes to parse: the file, or the body of the final response (empty when the
    /// fetch failed).
    #[must_use]
    pub fn bytes(&self) -> &[u8] {
        match self {
            Retrieved::Local { bytes, .. } => bytes,
            Retrieved::Site { outcome: Ok(fetched), .. } => &fetched.body,
            Retrieved::Site { outcome: Err(_), .. } => &[],
        }
    }

    /// The bytes to parse, without a copy (see [`Retrieved::bytes`]).
    #[must_use]
    pub fn into_bytes(self) -> Vec<u8> {
        match self {
            Retrieved::Local { bytes, .. } => bytes,
            Retrieved::Site { outcome: Ok(fetched), .. } => fetched.body,
            Retrieved::Site { outcome: Err(_), .. } => Vec::new(),
        }
    }

    /// What the outcome means for the rules.
    #[must_use]
    pub fn availability(&self) -> Availability {
        match self {
            Retrieved::Local { .. } => Availability::Available,
            Retrieved::Site { outcome: Ok(fetched), .. } => fetched.availability(),
            Retrieved::Site { outcome: Err(error), .. } => error.availability(),
        }
    }

    /// What the user should know about how the bytes were had: a file cut at the cap,
    /// the fetch's warnings.
    #[must_use]
    pub fn warnings(&self, limits: &Limits) -> Vec<FetchWarning> {
        match self {
            Retrieved::Local { truncated: true, source, .. } => {
                vec![FetchWarning::LocalTruncated { max_bytes: limits.max_file_bytes, source: source.label() }]
            }
            Retrieved::Local { .. } | Retrieved::Site { outcome: Err(_), .. } => Vec::new(),
            Retrieved::Site { outcome: Ok(fetched), .. } => fetched.warnings(limits),
        }
    }

    /// When the bytes stop before the source's end (a cap was reached), the warning that
    /// says so: what is derived from them is derived from a part of the file.
    #[must_use]
    pub fn read_in_part(&self, limits: &Limits) -> Option<FetchWarning> {
        self.warnings(limits)
            .into_iter()
            .find(|warning| matches!(warning, FetchWarning::Truncated { .. } | FetchWarning::LocalTruncated { .. }))
    }

    /// Where the bytes came from.
    #[must_use]
    pub fn source(&self) -> &Source {
        match self {
            Retrieved::Local { source, .. } | Retrieved::Site { source, .. } => source,
        }
    }
}

/// Gets a source's bytes: reads a local source (on a thread the timeout abandons), fetches
/// a site.
pub async fn retrieve(source: Source, limits: Limits) -> Result<Retrieved, SourceError> {
    match source {
        Source::Site { ref robots_url, .. } => {
            let url = robots_url.clone();
            let outcome = fetch(&url, &limits).await;
            Ok(Retrieved::Site { source, url, outcome })
        }
        local => {
            // A local read is bounded by the timeout too: a FIFO without a writer, or a
            // terminal nobody types into, ends with a message instead of a wait.
            let read = local.read_local(limits.max_file_bytes, limits.timeout).await;
            let LocalBytes { bytes, truncated, stamp } = read.unwrap_or(Err(SourceError::StdinAgain))?;
            Ok(Retrieved::Local { source: local, bytes, truncated, stamp })
        }
    }
}
