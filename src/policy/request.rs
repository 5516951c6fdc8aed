//! What is tested: how the text a user gives (a path, a URL, a word) becomes the path a
//! robot would request, which is what the rules are matched against.
//!
//! One reading serves `check`, `compare`, `page`, the tester and the compare rows
//! ([`Request::read`], DESIGN.md §4 "Paths and URLs as users give them"):
//!
//! * a line that begins with `/` is a path, in origin-form as an access log writes it,
//!   `//x/y` included (a path whose first segment is empty, not a host);
//! * `scheme://host/...` is a URL: its path, params and query are tested, and its host
//!   is kept so that a URL on another site can be named;
//! * anything else (`private/x`, `*.pdf`) is a path relative to `/`;
//! * what is tested is what a crawler requests: octets outside US-ASCII are
//!   percent-encoded as UTF-8 and the hex digits of escapes are upper-cased, the
//!   normalisation RFC 9309 §2.2.2 applies to the rules (so `/café` is tested as
//!   `/caf%C3%A9`, which `Disallow: /café` and `Disallow: /caf%C3%A9` both block).
//!
//! [`Request::raw`] is the other reading, Google's library's contract: the caller hands
//! an already-encoded URL and its path, params and query are compared byte for byte
//! (`--raw-url`; the conformance vectors are taken that way).

use std::borrow::Cow;
use std::fmt;

use super::pattern::normalise_rfc9309;

/// Whether paths and URLs are read as crawlers send them, or taken byte for byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UrlMode {
    /// As a user writes them, tested as a crawler requests them ([`Request::read`]).
    #[default]
    AsCrawlersSend,
    /// Byte for byte, as Google's library takes an already-encoded URL
    /// ([`Request::raw`], `--raw-url`).
    Raw,
}

/// How the given text was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Form {
    /// A path starting with `/`.
    Path,
    /// A URL with a scheme and a host.
    Url {
        /// The URL's host, lower-cased (and in ASCII form for internationalised names).
        host: String,
    },
    /// Text that is neither, read as a path relative to `/`.
    Relative,
    /// A URL taken byte for byte, as Google's library takes it.
    Raw,
}

/// A path or URL as given, and the path that is tested for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request<'a> {
    /// The text as given, without surrounding whitespace.
    pub given: &'a str,
    /// How it was read.
    pub form: Form,
    /// The path, params and query the text names, before normalisation.
    pub path: Cow<'a, str>,
    /// The path exactly as it is matched against the rules.
    pub tested: Cow<'a, str>,
}

impl<'a> Request<'a> {
    /// Reads a path or URL as a user gives it (see the module documentation).
    ///
    /// # Examples
    ///
    /// ```
    /// use robotscope::policy::request::{Form, Request};
    /// assert_eq!(Request::read("//cgi-bin/x").tested, "//cgi-bin/x");
    /// assert_eq!(Request::read("private/x").tested, "/private/x");
    /// assert_eq!(Request::read("/café/menu").tested, "/caf%C3%A9/menu");
    /// assert_eq!(Request::read("/a%3cd#top").tested, "/a%3Cd");
    /// let url = Request::read("https://Other.Example/private/x?q=1");
    /// assert_eq!(url.tested, "/private/x?q=1");
    /// assert_eq!(url.form, Form::Url { host: "other.example".into() });
    /// ```
    #[must_use]
    pub fn read(input: &'a str) -> Request<'a> {
        let given = input.trim_matches(|c: char| c.is_ascii_whitespace());
        let (form, path) = if given.is_empty() {
            (Form::Path, Cow::Borrowed("/"))
        } else if given.starts_with('/') {
            (Form::Path, Cow::Borrowed(before_fragment(given)))
        } else if let Some(after_scheme) = scheme_end(given) {
            let rest = &given[after_scheme..];
            let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
            let host = host_of(given, &rest[..authority_end]);
            let path = before_fragment(&rest[authority_end..]);
            let path = if path.starts_with('/') { Cow::Borrowed(path) } else { Cow::Owned(format!("/{path}")) };
            (Form::Url { host }, path)
        } else {
            (Form::Relative, Cow::Owned(format!("/{}", before_fragment(given))))
        };
        let tested = match normalise_rfc9309(path.as_bytes()) {
            // Normalising only turns octets into ASCII escapes and upper-cases hex digits,
            // so the result is ASCII whenever it changed anything.
            Cow::Owned(bytes) => Cow::Owned(String::from_utf8_lossy(&bytes).into_owned()),
            Cow::Borrowed(_) => path.clone(),
        };
        Request { given, form, path, tested }
    }

    /// Takes a URL (or path) byte for byte, as Google's library does: its path, params
    /// and query are compared as they are, escapes and all.
    ///
    /// # Examples
    ///
    /// ```
    /// use robotscope::policy::request::Request;
    /// assert_eq!(Request::raw("http://example.com/a%3cd#x").tested, "/a%3cd");
    /// assert_eq!(Request::raw("//cgi-bin/x").tested, "/x", "a network-path reference");
    /// ```
    #[must_use]
    pub fn raw(url: &'a str) -> Request<'a> {
        let path = raw_path(url);
        Request { given: url, form: Form::Raw, tested: path.clone(), path }
    }

    /// Reads `input` as `mode` says.
    #[must_use]
    pub fn new(input: &'a str, mode: UrlMode) -> Request<'a> {
        match mode {
            UrlMode::AsCrawlersSend => Request::read(input),
            UrlMode::Raw => Request::raw(input),
        }
    }

    /// The tested path when it differs from the text as given, for output that shows
    /// the given text (`private/x` is tested as `/private/x`); `None` for a URL whose
    /// path is tested as it is written.
    #[must_use]
    pub fn tested_if_not_obvious(&self) -> Option<&str> {
        let obvious = match self.form {
            Form::Url { .. } | Form::Raw => self.path == self.tested,
            Form::Path | Form::Relative => self.given == self.tested,
        };
        (!obvious).then_some(self.tested.as_ref())
    }

    /// The URL's host, when the text was a URL.
    #[must_use]
    pub fn host(&self) -> Option<&str> {
        match &self.form {
            Form::Url { host } => Some(host),
            _ => None,
        }
    }

    /// True when the text is a URL on another host than `site_host` (the host of the
    /// site whose robots.txt answers): its own site's rules may say something else.
    #[must_use]
    pub fn is_on_another_host(&self, site_host: &str) -> bool {
        self.host().is_some_and(|host| !host.eq_ignore_ascii_case(site_host))
    }

    /// How the text was read, in words, when that is worth saying: a relative path,
    /// an encoded one, a URL's path. `None` when the text was tested as it is.
    #[must_use]
    pub fn note(&self) -> Option<String> {
        let encoded = self.path != self.tested;
        let how = match (&self.form, encoded) {
            (Form::Path | Form::Raw, false) => return None,
            (Form::Path, true) => format!("tested as {}, as a crawler requests it (RFC 9309 §2.2.2)", self.tested),
            (Form::Raw, true) => format!("tested as {}", self.tested),
            (Form::Url { host }, false) => format!("the path of a URL on {host}"),
            (Form::Url { host }, true) => {
                format!("the path of a URL on {host}, tested as {}, as a crawler requests it", self.tested)
            }
            (Form::Relative, false) => {
                format!("read as {}, a path relative to /; a URL needs its scheme (https://…)", self.tested)
            }
            (Form::Relative, true) => format!(
                "read as {}, a path relative to /, tested as {}; a URL needs its scheme (https://…)",
                self.path, self.tested
            ),
        };
        Some(how)
    }
}

impl fmt::Display for Request<'_> {
    /// The text as given.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.given)
    }
}

/// True when the tested path is the robots.txt file itself, which RFC 9309 §2.2.2
/// calls implicitly allowed.
#[must_use]
pub fn is_robots_txt(tested: &str) -> bool {
    tested == "/robots.txt" || tested.starts_with("/robots.txt?")
}

/// Everything before a `#`.
fn before_fragment(text: &str) -> &str {
    &text[..text.find('#').unwrap_or(text.len())]
}

/// Where the authority starts when `text` begins with `scheme://` (RFC 3986 §3.1: a
/// letter, then letters, digits, `+`, `-` or `.`).
fn scheme_end(text: &str) -> Option<usize> {
    let colon = text.find("://")?;
    let scheme = &text[..colon];
    let valid = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    valid.then_some(colon + 3)
}

/// The host of a URL, as the `url` crate writes it (lower case, internationalised names
/// in ASCII), or else the authority without credentials and port.
fn host_of(url: &str, authority: &str) -> String {
    if let Ok(parsed) = url::Url::parse(url)
        && let Some(host) = parsed.host_str()
    {
        return host.to_owned();
    }
    let after_credentials = authority.rsplit('@').next().unwrap_or(authority);
    let host = if after_credentials.starts_with('[') {
        after_credentials.split_inclusive(']').next().unwrap_or(after_credentials)
    } else {
        after_credentials.split(':').next().unwrap_or(after_credentials)
    };
    host.to_ascii_lowercase()
}

/// The path (with params and query, without the fragment) that robots.txt rules are
/// matched against, taken from a full URL, a scheme-less URL or a path, exactly as
/// Google's `GetPathParamsQuery` takes it: `example.com?a` gives `/?a`, a lone word is a
/// host (path `/`), and `//a/b` is a network-path reference (host `a`, path `/b`). The
/// result always starts with `/`.
///
/// # Examples
///
/// ```
/// use robotscope::policy::request::raw_path;
/// assert_eq!(raw_path("https://example.com/a/b?c#d"), "/a/b?c");
/// assert_eq!(raw_path("/a/b"), "/a/b");
/// assert_eq!(raw_path("example.com"), "/");
/// assert_eq!(raw_path("https://example.com?x"), "/?x");
/// ```
#[must_use]
pub fn raw_path(url: &str) -> Cow<'_, str> {
    let bytes = url.as_bytes();
    // The common case, a path: everything up to the fragment (what the general rules
    // below give for any input that starts with one `/`).
    if bytes.first() == Some(&b'/') && bytes.get(1) != Some(&b'/') {
        return Cow::Borrowed(&url[..memchr::memchr(b'#', bytes).unwrap_or(url.len())]);
    }
    // Initial two slashes introduce a host ("//host/path").
    let search_start = if url.starts_with("//") { 2 } else { 0 };
    let find_path_char = |from: usize| {
        bytes[from.min(bytes.len())..].iter().position(|&b| matches!(b, b'/' | b'?' | b';')).map(|p| p + from)
    };
    let early_path = find_path_char(search_start);
    let protocol_end = url[search_start..].find("://").map(|p| p + search_start);
    let authority_start = match (protocol_end, early_path) {
        // A path, param or query before "://" means "://" is not a scheme separator.
        (Some(proto), Some(early)) if early < proto => search_start,
        (Some(proto), _) => proto + 3,
        (None, _) => search_start,
    };
    let Some(path_start) = find_path_char(authority_start) else {
        return Cow::Borrowed("/");
    };
    let hash = url[search_start..].find('#').map(|p| p + search_start);
    if hash.is_some_and(|h| h < path_start) {
        return Cow::Borrowed("/");
    }
    let path = &url[path_start..hash.unwrap_or(url.len())];
    if path.starts_with('/') { Cow::Borrowed(path) } else { Cow::Owned(format!("/{path}")) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_paths_follow_google() {
        let cases = [
            ("", "/"),
            ("http://www.example.com", "/"),
            ("http://www.example.com/a", "/a"),
            ("http://www.example.com/a/", "/a/"),
            ("http://www.example.com/a/b?c=http://d.e/", "/a/b?c=http://d.e/"),
            ("http://www.example.com/a/b?c=d&e=f#fragment", "/a/b?c=d&e=f"),
            ("example.com", "/"),
            ("example.com/", "/"),
            ("example.com/a", "/a"),
            ("example.com/a/", "/a/"),
            ("example.com/a/b?c=d&e=f#fragment", "/a/b?c=d&e=f"),
            ("a", "/"),
            ("a/", "/"),
            ("/a", "/a"),
            ("a/b", "/b"),
            ("example.com?a", "/?a"),
            ("example.com/a;b#c", "/a;b"),
            ("//a/b/c", "/b/c"),
            ("https://www.example.org#frag", "/"),
        ];
        for (url, path) in cases {
            assert_eq!(raw_path(url), path, "{url}");
        }
    }

    /// (given, form, tested): one row per way a user writes a path.
    #[test]
    fn users_paths_are_read_as_crawlers_request_them() {
        let url = |host: &str| Form::Url { host: host.to_owned() };
        let cases = [
            ("/cgi-bin/x", Form::Path, "/cgi-bin/x"),
            ("//cgi-bin/x", Form::Path, "//cgi-bin/x"),
            ("  /a b  ", Form::Path, "/a b"),
            ("", Form::Path, "/"),
            ("/a#frag", Form::Path, "/a"),
            ("/π", Form::Path, "/%CF%80"),
            ("/café/menu", Form::Path, "/caf%C3%A9/menu"),
            ("/a%3cd", Form::Path, "/a%3Cd"),
            ("/100%", Form::Path, "/100%"),
            ("private/x", Form::Relative, "/private/x"),
            ("*.pdf", Form::Relative, "/*.pdf"),
            ("example.com/a", Form::Relative, "/example.com/a"),
            ("https://example.com", url("example.com"), "/"),
            ("https://example.com?q=1", url("example.com"), "/?q=1"),
            ("http://other.example/private/x#f", url("other.example"), "/private/x"),
            ("https://user:pw@Example.COM:8443/a;p?q", url("example.com"), "/a;p?q"),
            ("https://bücher.example/café", url("xn--bcher-kva.example"), "/caf%C3%A9"),
            ("http://[::1]:8080/a", url("[::1]"), "/a"),
            ("1http://x/a", Form::Relative, "/1http://x/a"),
        ];
        for (given, form, tested) in cases {
            let request = Request::read(given);
            assert_eq!((request.form, request.tested.as_ref()), (form, tested), "{given:?}");
        }
    }

    #[test]
    fn notes_say_how_the_text_was_read() {
        assert_eq!(Request::read("/a").note(), None);
        assert!(Request::read("private/x").note().is_some_and(|n| n.contains("relative to /")));
        assert!(Request::read("/café").note().is_some_and(|n| n.contains("/caf%C3%A9")));
        assert!(Request::read("https://example.com/a").note().is_some_and(|n| n.contains("example.com")));
        assert!(Request::read("https://example.com/a").is_on_another_host("other.example"));
        assert!(!Request::read("https://EXAMPLE.com/a").is_on_another_host("example.com"));
        assert!(!Request::read("/a").is_on_another_host("example.com"));
    }

    #[test]
    fn the_robots_txt_itself() {
        assert!(is_robots_txt("/robots.txt"));
        assert!(!is_robots_txt("/robots.txt.bak"));
    }
}
