//! Where a robots.txt comes from: source resolution, and getting the bytes the way
//! crawlers do.
//!
//! [`Source::parse`] turns what the user typed into standard input, a file or a site
//! (DESIGN.md §4). [`fetch`] gets a site's robots.txt over HTTP with reqwest (rustls) on
//! tokio: it follows at most five redirects itself, recording each hop; it stops reading
//! at the size cap and never buffers the rest; one timeout covers the whole fetch. What
//! the outcome means for the rules is the policy layer's business
//! ([`Availability`](crate::policy::Availability)); [`Fetched::availability`] maps one to
//! the other, and [`sniff`] says when a body does not look like a robots.txt.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use url::Url;

use crate::policy::Availability;
use crate::policy::words::plural;

mod page;

pub use page::{BlockedRedirect, CrawlVerdict, Obey, OtherSite, PageAnswer, PageFetch, fetch_page};

/// At most this many redirects are followed (RFC 9309 §2.3.1.2: "at least five").
pub const MAX_REDIRECTS: usize = 5;

/// RFC 9309 §2.5: crawlers must parse at least 500 KiB; Google reads exactly that much.
pub const DEFAULT_MAX_BYTES: usize = 500 * 1024;

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

/// Reads at most `max_bytes` of a file; the flag says whether there was more.
pub fn read_file_capped(path: &Path, max_bytes: usize) -> std::io::Result<(Vec<u8>, bool)> {
    read_at_most(std::fs::File::open(path)?, max_bytes)
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
    /// Resolves what the user typed: `-`, an existing file, or else a URL or host name.
    /// `example.com` means `https://example.com/robots.txt`; a URL with a path means its
    /// origin's robots.txt, and the path is kept for the tester. Ports and
    /// internationalised names are handled by the `url` crate (`bücher.example` becomes
    /// `xn--bcher-kva.example`).
    ///
    /// # Examples
    ///
    /// ```
    /// use robotscope::fetch::Source;
    /// let Ok(Source::Site { robots_url, page }) = Source::parse("example.com/shop/item?id=1") else { panic!() };
    /// assert_eq!(robots_url.as_str(), "https://example.com/robots.txt");
    /// assert_eq!(page.as_deref(), Some("/shop/item?id=1"));
    /// ```
    pub fn parse(spec: &str) -> Result<Source, SourceError> {
        if spec == "-" {
            return Ok(Source::Stdin);
        }
        let path = Path::new(spec);
        if path.exists() {
            return Ok(Source::File(path.to_path_buf()));
        }
        if !spec.contains("://") && looks_like_a_file(spec) {
            return Err(SourceError::NoSuchFile(path.to_path_buf()));
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

    /// A short name for the status bar and messages.
    #[must_use]
    pub fn label(&self) -> String {
        match self {
            Source::Stdin => "standard input".to_owned(),
            Source::File(path) => path.display().to_string(),
            Source::Site { robots_url, .. } => robots_url.to_string(),
        }
    }

    /// Reads a local source, at most `max_bytes` of it (the flag says whether there was
    /// more); `None` for a site.
    #[must_use]
    pub fn read_local(&self, max_bytes: usize) -> Option<Result<(Vec<u8>, bool), SourceError>> {
        let failed = |what: String| move |error: std::io::Error| SourceError::Read { what, reason: error.to_string() };
        match self {
            Source::Stdin => {
                Some(read_at_most(std::io::stdin().lock(), max_bytes).map_err(failed("standard input".into())))
            }
            Source::File(path) => Some(read_file_capped(path, max_bytes).map_err(failed(path.display().to_string()))),
            Source::Site { .. } => None,
        }
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

/// The limits of one fetch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// The whole fetch, every hop and the body included.
    pub timeout: Duration,
    /// Establishing each connection.
    pub connect_timeout: Duration,
    /// Bytes of the body to read; the rest is never downloaded.
    pub max_bytes: usize,
    /// Bytes of a local file or of standard input to read.
    pub max_file_bytes: usize,
    /// The User-Agent request header.
    pub user_agent: String,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            timeout: Duration::from_secs(30),
            connect_timeout: Duration::from_secs(10),
            max_bytes: DEFAULT_MAX_BYTES,
            max_file_bytes: MAX_FILE_BYTES,
            user_agent: default_user_agent(),
        }
    }
}

/// `robotscope/<version>`.
#[must_use]
pub fn default_user_agent() -> String {
    format!("robotscope/{}", env!("CARGO_PKG_VERSION"))
}

/// One response on the way to the final one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hop {
    /// The URL requested.
    pub url: Url,
    /// The status it answered (a 3xx).
    pub status: u16,
}

/// A completed fetch: the final response and how it was reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fetched {
    /// The URL first requested.
    pub requested: Url,
    /// The redirects followed, in order.
    pub hops: Vec<Hop>,
    /// The URL of the final response.
    pub final_url: Url,
    /// Its status; 3xx when the redirects ran out.
    pub status: u16,
    /// Its response headers, names lower-cased, in order (values made printable).
    pub headers: Vec<(String, String)>,
    /// The body, at most `max_bytes` of it.
    pub body: Vec<u8>,
    /// True when the body was longer than `max_bytes` and reading stopped there.
    pub truncated: bool,
    /// True when the redirects came back to a URL already visited.
    pub redirect_loop: bool,
    /// The redirect target that was not followed because robots.txt keeps the robots
    /// asked about out of it (page fetches only).
    pub refused: Option<Url>,
    /// How long the whole fetch took.
    pub elapsed: Duration,
}

impl Fetched {
    /// What the outcome means for the rules.
    #[must_use]
    pub fn availability(&self) -> Availability {
        match self.status {
            200..=299 => Availability::Available,
            300..=399 if self.redirect_loop => Availability::RedirectLoop,
            300..=399 if self.hops.len() > MAX_REDIRECTS => Availability::TooManyRedirects,
            status @ 300..=399 => Availability::RedirectWithoutTarget(status),
            status => Availability::Status(status),
        }
    }

    /// How the redirects went, in words, when there were any: how many were followed to
    /// where, or where and why robotscope stopped following them.
    #[must_use]
    pub fn redirect_summary(&self) -> Option<String> {
        let requested = &self.requested;
        match self.availability() {
            _ if self.hops.is_empty() => None,
            _ if self.refused.is_some() => Some(format!(
                "{} redirects to {}, which robots.txt keeps the robots asked about out of: robotscope stopped there",
                self.final_url,
                self.refused.as_ref().map_or("", Url::as_str)
            )),
            Availability::TooManyRedirects => Some(format!(
                "followed {} from {requested}; the next answer, from {}, redirected again, and robots stop there",
                plural(self.hops.len() - 1, "redirect"),
                self.final_url
            )),
            Availability::RedirectLoop if self.hops.len() == 1 => Some(format!("{requested} redirects to itself")),
            Availability::RedirectLoop => Some(format!(
                "the redirects from {requested} go round in a loop: {} leads back to a URL already asked for",
                self.final_url
            )),
            _ => Some(format!("{requested} redirected {} to {}", plural(self.hops.len(), "time"), self.final_url)),
        }
    }

    /// The first value of a header (name in lower case).
    #[must_use]
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// Every value of a header (name in lower case), in order.
    pub fn header_values<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.headers.iter().filter(move |(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// Warnings about the response: a body that is HTML or not text, a Content-Type
    /// that is not `text/plain`, a body cut at the size cap.
    #[must_use]
    pub fn warnings(&self, limits: &Limits) -> Vec<String> {
        let mut warnings = Vec::new();
        if self.truncated {
            warnings.push(format!(
                "only the first {} bytes were read: the file is larger, and RFC 9309 readers may ignore the rest",
                limits.max_bytes
            ));
        }
        if (200..300).contains(&self.status) {
            let sniffed = sniff(&self.body, self.header("content-type"));
            let is_html = sniffed.iter().any(|w| w.contains("HTML page"));
            warnings.extend(sniffed);
            if is_html {
                // A site serving HTML as its robots.txt may still mean something by
                // its robots META tag; say what it says, and that it binds that page only.
                for tag in crate::policy::page::meta_tags(&self.body, self.header("content-type"))
                    .iter()
                    .filter(|tag| tag.speaks_to_robots())
                {
                    warnings.push(format!(
                        "the HTML has {} on line {}: a META tag speaks for that page only, never for the site's \
                         robots.txt",
                        tag.markup(),
                        tag.line
                    ));
                }
            }
        }
        warnings
    }

    /// Every URL requested, in order: the first, each redirect's target, the last.
    pub fn urls_fetched(&self) -> impl Iterator<Item = &Url> {
        self.hops.iter().map(|hop| &hop.url).chain(std::iter::once(&self.final_url))
    }

    /// What the status means for crawlers, in words, for the fetch details.
    #[must_use]
    pub fn meaning(&self) -> String {
        let availability = self.availability();
        if availability == Availability::Available {
            return format!("{} {}: the file's rules apply to every reading.", self.status, status_name(self.status));
        }
        let readings =
            crate::policy::Reading::ALL.map(|reading| format!("{}: {}", reading.title(), availability.reason(reading)));
        format!("{} {}. {}.", self.status, status_name(self.status), readings.join(". "))
    }
}

/// The usual name of an HTTP status.
#[must_use]
pub fn status_name(status: u16) -> &'static str {
    match status {
        200 => "OK",
        203 => "Non-Authoritative Information",
        204 => "No Content",
        301 => "Moved Permanently",
        302 => "Found",
        303 => "See Other",
        307 => "Temporary Redirect",
        308 => "Permanent Redirect",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        410 => "Gone",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => "",
    }
}

/// Warnings about a body that does not look like a robots.txt, and about its
/// Content-Type. Pure: tests and the fetch share it.
///
/// # Examples
///
/// ```
/// use robotscope::fetch::sniff;
/// assert!(sniff(b"<!DOCTYPE html><title>Not found</title>", Some("text/html")).iter().any(|w| w.contains("HTML")));
/// assert!(sniff(b"User-agent: *\nDisallow: /\n", Some("text/plain; charset=utf-8")).is_empty());
/// ```
#[must_use]
pub fn sniff(body: &[u8], content_type: Option<&str>) -> Vec<String> {
    let mut warnings = Vec::new();
    let head = &body[..body.len().min(1024)];
    let text = String::from_utf8_lossy(head).to_ascii_lowercase();
    let trimmed = text.trim_start_matches(['\u{feff}', ' ', '\t', '\r', '\n']);
    let looks_html = trimmed.starts_with("<!doctype html")
        || trimmed.starts_with("<html")
        || text.contains("<html")
        || text.contains("<head");
    if looks_html {
        warnings
            .push("the body is an HTML page, not a robots.txt (a soft 404?): robots find no rules in it".to_owned());
    } else if is_binary(head) {
        warnings.push("the body is not text: robots find no rules in it".to_owned());
    }
    match content_type.map(|ct| ct.split(';').next().unwrap_or_default().trim().to_ascii_lowercase()) {
        None => warnings.push("the response has no Content-Type (RFC 9309 expects text/plain)".to_owned()),
        Some(ct) if ct == "text/plain" => {}
        Some(ct) => warnings.push(format!("the Content-Type is {ct}, not text/plain")),
    }
    warnings
}

/// True when bytes are not text: NUL bytes, or many control bytes.
fn is_binary(bytes: &[u8]) -> bool {
    let controls = bytes.iter().filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0C)).count();
    bytes.contains(&0) || controls * 10 > bytes.len()
}

/// Why a fetch failed, in words a user can act on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FetchError {
    /// The host name did not resolve.
    #[error("cannot find the host {host} (the DNS lookup failed)")]
    Dns {
        /// The host name.
        host: String,
    },
    /// Nothing listens on the port.
    #[error("{host} refused the connection (nothing listens on port {port})")]
    Refused {
        /// The host.
        host: String,
        /// The port.
        port: u16,
    },
    /// An https URL on a port that answers in plain HTTP.
    #[error("the secure connection to {host} failed: port {port} answers in plain HTTP, not TLS; try {http_url}")]
    NotTls {
        /// The host.
        host: String,
        /// The port.
        port: u16,
        /// The same URL with http.
        http_url: String,
    },
    /// The TLS handshake failed (certificate, protocol).
    #[error("the secure connection to {host} failed: {detail}")]
    Tls {
        /// The host.
        host: String,
        /// What the TLS layer said.
        detail: String,
    },
    /// The whole fetch took longer than the timeout.
    #[error("no complete answer within {} s (--timeout)", .0.as_secs_f32())]
    Timeout(Duration),
    /// The connection failed in another way.
    #[error("cannot connect to {host}: {detail}")]
    Connect {
        /// The host.
        host: String,
        /// What went wrong.
        detail: String,
    },
    /// The exchange failed after connecting (a reset, a malformed response).
    #[error("the exchange with {host} failed: {detail}")]
    Protocol {
        /// The host.
        host: String,
        /// What went wrong.
        detail: String,
    },
    /// A redirect pointed nowhere usable.
    #[error("a redirect from {from} points to an unusable location: {location}")]
    BadRedirect {
        /// Where it came from.
        from: String,
        /// The Location header.
        location: String,
    },
    /// The HTTP client could not be built (no TLS roots, for example).
    #[error("cannot set up the HTTP client: {0}")]
    Client(String),
}

impl FetchError {
    /// Every failure to get an answer is "unreachable" to the rules; a timeout is named
    /// as such, because the server may well have been reached.
    #[must_use]
    pub fn availability(&self) -> Availability {
        match self {
            FetchError::Timeout(_) => Availability::TimedOut,
            _ => Availability::Unreachable,
        }
    }
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
    pub fn warnings(&self, limits: &Limits) -> Vec<String> {
        match self {
            Retrieved::Local { truncated: true, source, .. } => vec![format!(
                "only the first {} bytes of {} were read (--max-file-bytes)",
                limits.max_file_bytes,
                source.label()
            )],
            Retrieved::Local { .. } | Retrieved::Site { outcome: Err(_), .. } => Vec::new(),
            Retrieved::Site { outcome: Ok(fetched), .. } => fetched.warnings(limits),
        }
    }

    /// Where the bytes came from.
    #[must_use]
    pub fn source(&self) -> &Source {
        match self {
            Retrieved::Local { source, .. } | Retrieved::Site { source, .. } => source,
        }
    }
}

/// Gets a source's bytes: reads a local source (on a blocking thread), fetches a site.
pub async fn retrieve(source: Source, limits: Limits) -> Result<Retrieved, SourceError> {
    match source {
        Source::Site { ref robots_url, .. } => {
            let url = robots_url.clone();
            let outcome = fetch(&url, &limits).await;
            Ok(Retrieved::Site { source, url, outcome })
        }
        local => {
            let max_bytes = limits.max_file_bytes;
            let (result, source) = tokio::task::spawn_blocking(move || (local.read_local(max_bytes), local))
                .await
                .map_err(|e| SourceError::Read { what: "the source".to_owned(), reason: e.to_string() })?;
            let (bytes, truncated) = result.unwrap_or(Err(SourceError::StdinAgain))?;
            Ok(Retrieved::Local { source, bytes, truncated })
        }
    }
}

/// Fetches a robots.txt URL the way crawlers do. Never panics and never waits past
/// `limits.timeout`.
pub async fn fetch(url: &Url, limits: &Limits) -> Result<Fetched, FetchError> {
    fetch_gated(url, limits, &mut Open).await
}

/// Asked before each redirect is followed: a page fetch asks robots.txt
/// (`fetch/page.rs`), a robots.txt fetch follows every redirect (RFC 9309 §2.3.1.2).
pub(crate) trait Gate {
    /// Whether the redirect to `url` may be followed.
    async fn may_follow(&mut self, url: &Url) -> bool;
}

/// The gate that lets every redirect through.
struct Open;

impl Gate for Open {
    async fn may_follow(&mut self, _url: &Url) -> bool {
        true
    }
}

/// [`fetch`], asking `gate` before following each redirect; one timeout covers it all,
/// what the gate does included.
pub(crate) async fn fetch_gated(url: &Url, limits: &Limits, gate: &mut impl Gate) -> Result<Fetched, FetchError> {
    let started = Instant::now();
    match tokio::time::timeout(limits.timeout, fetch_unbounded(url, limits, started, gate)).await {
        Ok(result) => result,
        Err(_) => Err(FetchError::Timeout(limits.timeout)),
    }
}

async fn fetch_unbounded(
    url: &Url,
    limits: &Limits,
    started: Instant,
    gate: &mut impl Gate,
) -> Result<Fetched, FetchError> {
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .connect_timeout(limits.connect_timeout)
        .user_agent(limits.user_agent.clone())
        .build()
        .map_err(|e| FetchError::Client(e.to_string()))?;
    let mut hops = Vec::new();
    let mut current = url.clone();
    let mut redirect_loop = false;
    loop {
        let mut response = client.get(current.clone()).send().await.map_err(|e| classify(&e, &current))?;
        let status = response.status().as_u16();
        let location = response
            .headers()
            .get(reqwest::header::LOCATION)
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
        if let (true, Some(location)) = (response.status().is_redirection(), location) {
            let next = current
                .join(&location)
                .ok()
                .filter(|next| matches!(next.scheme(), "http" | "https"))
                .ok_or_else(|| FetchError::BadRedirect { from: current.to_string(), location: location.clone() })?;
            hops.push(Hop { url: current.clone(), status });
            redirect_loop |= hops.iter().any(|hop| hop.url == next) || next == *url;
            let stop = hops.len() > MAX_REDIRECTS || redirect_loop;
            let refused = (!stop && !gate.may_follow(&next).await).then(|| next.clone());
            if stop || refused.is_some() {
                // Give up: the chain is too long, goes round, or leads where robots.txt
                // keeps the robots out. The last answer (a 3xx) stands as the outcome.
                return Ok(Fetched {
                    requested: url.clone(),
                    final_url: current,
                    status,
                    headers: headers_of(&response),
                    hops,
                    body: Vec::new(),
                    truncated: false,
                    redirect_loop,
                    refused,
                    elapsed: started.elapsed(),
                });
            }
            current = next;
            continue;
        }
        let headers = headers_of(&response);
        let (body, truncated) = read_capped(&mut response, limits.max_bytes, &current).await?;
        return Ok(Fetched {
            requested: url.clone(),
            hops,
            final_url: current,
            status,
            headers,
            body,
            truncated,
            redirect_loop,
            refused: None,
            elapsed: started.elapsed(),
        });
    }
}

fn headers_of(response: &reqwest::Response) -> Vec<(String, String)> {
    response
        .headers()
        .iter()
        .map(|(name, value)| {
            (name.as_str().to_ascii_lowercase(), String::from_utf8_lossy(value.as_bytes()).into_owned())
        })
        .collect()
}

/// Reads the body chunk by chunk, up to `max_bytes`; stops there and drops the
/// connection, so the rest is never downloaded.
async fn read_capped(
    response: &mut reqwest::Response,
    max_bytes: usize,
    url: &Url,
) -> Result<(Vec<u8>, bool), FetchError> {
    let mut body = Vec::with_capacity(max_bytes.min(64 * 1024));
    while let Some(chunk) = response.chunk().await.map_err(|e| classify(&e, url))? {
        let room = max_bytes - body.len();
        if chunk.len() > room {
            body.extend_from_slice(&chunk[..room]);
            return Ok((body, true));
        }
        body.extend_from_slice(&chunk);
        if body.len() == max_bytes {
            // Exactly at the cap: one more chunk would tell whether there is more.
            let more = response.chunk().await.map_err(|e| classify(&e, url))?.is_some_and(|c| !c.is_empty());
            return Ok((body, more));
        }
    }
    Ok((body, false))
}

/// Turns a reqwest error into words, by looking through its causes.
fn classify(error: &reqwest::Error, url: &Url) -> FetchError {
    let host = url.host_str().unwrap_or_default().to_owned();
    let port = url.port_or_known_default().unwrap_or_default();
    let mut chain = Vec::new();
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(cause) = source {
        chain.push(cause.to_string());
        if let Some(io) = cause.downcast_ref::<std::io::Error>()
            && io.kind() == std::io::ErrorKind::ConnectionRefused
        {
            return FetchError::Refused { host, port };
        }
        source = cause.source();
    }
    let text = chain.join(": ").to_ascii_lowercase();
    let detail = chain.last().cloned().unwrap_or_else(|| error.to_string());
    // rustls reads the plain-HTTP answer to its hello ("HTTP/1.1 400 ...") as a record
    // of an unknown type.
    if url.scheme() == "https" && (text.contains("corrupt message") || text.contains("invalidcontenttype")) {
        // The same port, which is 443 when the URL names none.
        let mut http_url = url.clone();
        let _ = http_url.set_scheme("http");
        let _ = http_url.set_port(Some(port));
        return FetchError::NotTls { host, port, http_url: http_url.to_string() };
    }
    if error.is_timeout() {
        FetchError::Connect { host, detail: "the connection timed out".to_owned() }
    } else if text.contains("dns error")
        || text.contains("failed to lookup")
        || text.contains("name or service not known")
    {
        FetchError::Dns { host }
    } else if text.contains("certificate") || text.contains("tls") || text.contains("handshake") {
        FetchError::Tls { host, detail }
    } else if error.is_connect() {
        FetchError::Connect { host, detail }
    } else {
        FetchError::Protocol { host, detail }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(spec: &str) -> (String, Option<String>) {
        match Source::parse(spec) {
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
        assert!(matches!(Source::parse("robots.txt"), Err(SourceError::NoSuchFile(_))));
        assert!(matches!(Source::parse("./missing"), Err(SourceError::NoSuchFile(_))));
        assert!(matches!(Source::parse("dir/robots.txt"), Err(SourceError::NoSuchFile(_))));
        assert_eq!(site("localhost:8080/robots.txt").0, "https://localhost:8080/robots.txt");
        assert!(matches!(Source::parse("ftp://example.com"), Err(SourceError::BadUrl { .. })));
        assert_eq!(Source::parse("-").ok(), Some(Source::Stdin));
    }

    #[test]
    fn sniffing_finds_html_binary_and_odd_types() {
        assert!(sniff(b"\n\n<html><body>hi", Some("text/html")).len() == 2);
        assert!(sniff(b"\x00\x00\x01\x00ICO", Some("image/x-icon")).iter().any(|w| w.contains("not text")));
        assert!(sniff(b"User-agent: *", None).iter().any(|w| w.contains("no Content-Type")));
        assert!(sniff(b"User-agent: *", Some("Text/Plain")).is_empty());
    }
}
