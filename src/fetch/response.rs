//! The pure half of a fetch: a response as robotscope keeps it ([`Fetched`]), what its
//! status means for the rules (RFC 9309 §2.3.1, through
//! [`Availability`](crate::policy::Availability)), the warnings it calls for, and why a
//! fetch failed ([`FetchError`]). No network here: tests build responses by hand.

use std::fmt;
use std::time::Duration;

use url::Url;

use super::Limits;
use crate::policy::Availability;
use crate::policy::content::{self, Content, RFC9309_PARSE_LIMIT_BYTES};
use crate::words::plural;

/// At most this many redirects are followed (RFC 9309 §2.3.1.2: "at least five").
pub const MAX_REDIRECTS: usize = 5;

/// One response on the way to the final one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hop {
    /// The URL requested.
    pub url: Url,
    /// The status it answered (a 3xx).
    pub status: Status,
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
    pub status: Status,
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

/// The longest User-Agent header a fetch may send and still be kept as the site's
/// answer: crawlers send some 100 to 300 bytes; a header far beyond that is a test of
/// the server, and what it answers (431, a cut connection) is about the request.
pub const MAX_KEPT_USER_AGENT_BYTES: usize = 512;

impl Fetched {
    /// Why this answer is not the site's robots.txt as a crawler gets it, when the
    /// user's own flags shaped it (issue 35): a body cut by a `--max-bytes` below what
    /// crawlers read, a request the server refused as a request (400, 413, 414, 431:
    /// RFC 9110 §15.5.1, §15.5.14, §15.5.15, RFC 6585 §5), or a User-Agent header no
    /// crawler sends. Such an answer is shown, never kept as one of the site's versions:
    /// the history and audits would take it for the site's rules.
    #[must_use]
    pub fn not_the_sites_own(&self, limits: &Limits) -> Option<String> {
        let crawler_reads = super::DEFAULT_MAX_BYTES;
        if self.truncated && limits.robots_txt_bytes() < crawler_reads {
            return Some(format!(
                "the body was cut at {} by --max-bytes, below the {} a crawler reads",
                plural(limits.robots_txt_bytes(), "byte"),
                super::size_label(crawler_reads)
            ));
        }
        if let status @ (400 | 413 | 414 | 431) = self.status.code() {
            return Some(format!("the server refused the request itself (HTTP {status}), not the robots.txt"));
        }
        if limits.user_agent.len() > MAX_KEPT_USER_AGENT_BYTES {
            return Some(format!(
                "it was asked for with a User-Agent header of {}, which no crawler sends",
                plural(limits.user_agent.len(), "byte")
            ));
        }
        None
    }

    /// What the outcome means for the rules.
    #[must_use]
    pub fn availability(&self) -> Availability {
        match self.status.code() {
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

    /// Warnings about the response: a body cut at the size cap, a body that is not a
    /// robots.txt, a Content-Type that is not `text/plain`.
    #[must_use]
    pub fn warnings(&self, limits: &Limits) -> Vec<FetchWarning> {
        let mut warnings = Vec::new();
        if self.truncated {
            warnings
                .push(FetchWarning::Truncated { max_bytes: limits.robots_txt_bytes(), whole_file: limits.whole_file });
        }
        if self.status.is_success() {
            let content_type = self.header("content-type");
            let content = content::sniff(&self.body);
            if content != Content::Text {
                warnings.push(FetchWarning::NotRobotsTxt(content));
            }
            warnings.extend(content_type_warning(content_type));
            if content == Content::Html {
                // A site serving HTML as its robots.txt may still mean something by
                // its robots META tag; say what it says, and that it binds that page only.
                warnings.extend(
                    crate::policy::page::meta_tags(&self.body, content_type)
                        .iter()
                        .filter(|tag| tag.speaks_to_robots())
                        .map(|tag| FetchWarning::MetaTag { markup: tag.markup(), line: tag.line }),
                );
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
            return format!("{}: the file's rules apply to every reading.", self.status);
        }
        let readings =
            crate::policy::Reading::ALL.map(|reading| format!("{}: {}", reading.title(), availability.reason(reading)));
        format!("{}. {}.", self.status, readings.join(". "))
    }
}

/// An HTTP status code, shown with its usual name (`404 Not Found`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Status(pub u16);

impl Status {
    /// The code.
    #[must_use]
    pub fn code(self) -> u16 {
        self.0
    }

    /// A 2xx: the body is the answer.
    #[must_use]
    pub fn is_success(self) -> bool {
        (200..300).contains(&self.0)
    }

    /// A 3xx.
    #[must_use]
    pub fn is_redirection(self) -> bool {
        (300..400).contains(&self.0)
    }

    /// The usual name of the status, empty for one without a common name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self.0 {
            200 => "OK",
            203 => "Non-Authoritative Information",
            204 => "No Content",
            301 => "Moved Permanently",
            302 => "Found",
            303 => "See Other",
            304 => "Not Modified",
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
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            "" => write!(f, "{}", self.0),
            name => write!(f, "{} {name}", self.0),
        }
    }
}

impl PartialEq<u16> for Status {
    fn eq(&self, other: &u16) -> bool {
        self.0 == *other
    }
}

/// What the user should know about a response or a local read, beside its status.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum FetchWarning {
    /// The body was longer than the cap ([`Limits::robots_txt_bytes`]) and reading
    /// stopped there.
    Truncated {
        /// The cap.
        max_bytes: usize,
        /// True when the cap was `--max-file-bytes`, under `--whole-file`.
        whole_file: bool,
    },
    /// A local file or standard input was longer than `--max-file-bytes`.
    LocalTruncated {
        /// The cap.
        max_bytes: usize,
        /// What was read.
        source: String,
    },
    /// The body is an HTML page, binary data or UTF-16, not a robots.txt.
    NotRobotsTxt(Content),
    /// The response has no Content-Type.
    NoContentType,
    /// The Content-Type is not `text/plain`.
    ContentType(String),
    /// An HTML body has a robots META tag, which speaks for that page only.
    MetaTag {
        /// The tag as written.
        markup: String,
        /// Its line.
        line: usize,
    },
}

impl fmt::Display for FetchWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // What the cut costs depends on the reading: RFC 9309 §2.5 readers such as
            // Google stop at 500 KiB anyway, the 1994 standard and the 1996 draft read
            // every byte.
            FetchWarning::Truncated { max_bytes, whole_file: true } => write!(
                f,
                "only the first {max_bytes} bytes were downloaded (--max-file-bytes): the file is larger, so answers \
                 under every reading may be wrong"
            ),
            FetchWarning::Truncated { max_bytes, whole_file: false } if *max_bytes >= RFC9309_PARSE_LIMIT_BYTES => {
                write!(
                    f,
                    "only the first {max_bytes} bytes were downloaded (--max-bytes): the file is larger. RFC 9309 \
                     readers such as Google read no more than 500 KiB, so their answers hold, but the 1996 draft and \
                     the 1994 standard read every byte, so theirs may not: --whole-file downloads all of it"
                )
            }
            FetchWarning::Truncated { max_bytes, whole_file: false } => write!(
                f,
                "only the first {max_bytes} bytes were downloaded (--max-bytes): the file is larger, so answers under \
                 every reading may be wrong: --whole-file downloads all of it"
            ),
            FetchWarning::LocalTruncated { max_bytes, source } => {
                write!(f, "only the first {max_bytes} bytes of {source} were read (--max-file-bytes)")
            }
            FetchWarning::NotRobotsTxt(Content::Html) => f.write_str(
                "the body is an HTML page, not a robots.txt (a soft 404?): robots read it line by line all the same, \
                 and find rules only in lines that look like robots.txt lines",
            ),
            FetchWarning::NotRobotsTxt(Content::Utf16) => {
                f.write_str("the body is UTF-16, which no robot decodes: robots find no rules in it")
            }
            FetchWarning::NotRobotsTxt(_) => f.write_str("the body is not text: robots find no rules in it"),
            FetchWarning::NoContentType => {
                f.write_str("the response has no Content-Type (RFC 9309 expects text/plain)")
            }
            FetchWarning::ContentType(content_type) => write!(f, "the Content-Type is {content_type}, not text/plain"),
            FetchWarning::MetaTag { markup, line } => write!(
                f,
                "the HTML has {markup} on line {line}: a META tag speaks for that page only, never for the site's robots.txt"
            ),
        }
    }
}

/// The warning a Content-Type calls for: none for `text/plain`.
///
/// # Examples
///
/// ```
/// use robotscope::fetch::{FetchWarning, content_type_warning};
/// assert_eq!(content_type_warning(Some("Text/Plain; charset=utf-8")), None);
/// assert_eq!(content_type_warning(None), Some(FetchWarning::NoContentType));
/// assert_eq!(content_type_warning(Some(" ")), Some(FetchWarning::NoContentType));
/// assert_eq!(content_type_warning(Some("text/html")), Some(FetchWarning::ContentType("text/html".into())));
/// ```
#[must_use]
pub fn content_type_warning(content_type: Option<&str>) -> Option<FetchWarning> {
    match content_type.map(|ct| ct.split(';').next().unwrap_or_default().trim().to_ascii_lowercase()) {
        None => Some(FetchWarning::NoContentType),
        Some(ct) if ct.is_empty() => Some(FetchWarning::NoContentType),
        Some(ct) if ct == "text/plain" => None,
        Some(ct) => Some(FetchWarning::ContentType(ct)),
    }
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
