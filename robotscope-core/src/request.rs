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
//! * what is tested is what a crawler requests: what a URL parser makes of the text (dot
//!   segments resolved, `\\` read as `/`, a space sent as `%20`), then the normalisation
//!   RFC 9309 §2.2.2 applies to the rules: octets outside US-ASCII percent-encoded as
//!   UTF-8 and the hex digits of escapes upper-cased (so `/café` is tested as
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
    /// As a user writes them, tested as a crawler requests them: percent-encoded where
    /// a crawler would encode, `.` and `..` segments resolved.
    #[default]
    AsCrawlersSend,
    /// Byte for byte, as Google's library takes an already-encoded URL.
    Raw,
}

/// How the given text was read.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Form {
    /// A path starting with `/`.
    Path,
    /// A URL with a scheme and a host.
    Url {
        /// The URL's origin, `scheme://host[:port]` (RFC 6454; a default port left out,
        /// internationalised names in ASCII): a robots.txt speaks for one origin only
        /// (RFC 9309 §2.3).
        origin: String,
    },
    /// Text that is neither, read as a path relative to `/`.
    Relative,
    /// A URL taken byte for byte, as Google's library takes it.
    Raw,
}

/// A path or URL as given, and the path that is tested for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request<'a> {
    pub(crate) given: &'a str,
    pub(crate) form: Form,
    pub(crate) path: Cow<'a, str>,
    pub(crate) tested: Cow<'a, str>,
}

impl Request<'_> {
    /// The text as given, without surrounding whitespace.
    #[must_use]
    pub fn given(&self) -> &str {
        self.given
    }

    /// How it was read.
    #[must_use]
    pub fn form(&self) -> &Form {
        &self.form
    }

    /// The path, params and query the text names, before normalisation.
    #[must_use]
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The path exactly as it is matched against the rules.
    #[must_use]
    pub fn tested(&self) -> &str {
        &self.tested
    }
}

impl<'a> Request<'a> {
    /// The tested path, taken out of the request (borrowed from the text given when
    /// reading it changed nothing).
    #[must_use]
    pub fn into_tested(self) -> Cow<'a, str> {
        self.tested
    }

    /// Reads a path or URL as a user gives it (see the module documentation).
    ///
    /// # Examples
    ///
    /// ```
    /// # #[cfg(feature = "parts")] {
    /// use robotscope_core::request::{Form, Request};
    /// assert_eq!(Request::read("//cgi-bin/x").tested(), "//cgi-bin/x");
    /// assert_eq!(Request::read("private/x").tested(), "/private/x");
    /// assert_eq!(Request::read("/café/menu").tested(), "/caf%C3%A9/menu");
    /// assert_eq!(Request::read("/a%3cd#top").tested(), "/a%3Cd");
    /// let url = Request::read("https://Other.Example/private/x?q=1");
    /// assert_eq!(url.tested(), "/private/x?q=1");
    /// assert_eq!(url.form(), &Form::Url { origin: "https://other.example".into() });
    /// # }
    /// ```
    #[must_use]
    pub fn read(input: &'a str) -> Request<'a> {
        let given = input.trim_matches(|c: char| c.is_ascii_whitespace());
        let (form, path, parsed) = if given.is_empty() {
            (Form::Path, Cow::Borrowed("/"), None)
        } else if given.starts_with('/') {
            (Form::Path, Cow::Borrowed(before_fragment(given)), None)
        } else if let Some(after_scheme) = scheme_end(given) {
            let rest = &given[after_scheme..];
            let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
            let parsed = url::Url::parse(given).ok().filter(|url| url.origin().is_tuple());
            let origin = match &parsed {
                Some(url) => url.origin().ascii_serialization(),
                None => format!("{}{}", &given[..after_scheme], &rest[..authority_end]).to_ascii_lowercase(),
            };
            let path = before_fragment(&rest[authority_end..]);
            let path = if path.starts_with('/') { Cow::Borrowed(path) } else { Cow::Owned(format!("/{path}")) };
            (Form::Url { origin }, path, parsed)
        } else {
            (Form::Relative, Cow::Owned(format!("/{}", before_fragment(given))), None)
        };
        let tested = match parsed {
            Some(url) => Cow::Owned(as_requested(&url)),
            None => requested_path(path.clone()),
        };
        let tested = match normalise_rfc9309(tested.as_bytes()) {
            // Normalising only turns octets into ASCII escapes and upper-cases hex digits,
            // so the result is ASCII whenever it changed anything.
            Cow::Owned(bytes) => Cow::Owned(String::from_utf8_lossy(&bytes).into_owned()),
            Cow::Borrowed(_) => tested,
        };
        Request { given, form, path, tested }
    }

    /// Takes a URL (or path) byte for byte, as Google's library does: its path, params
    /// and query are compared as they are, escapes and all.
    ///
    /// # Examples
    ///
    /// ```
    /// # #[cfg(feature = "parts")] {
    /// use robotscope_core::request::Request;
    /// assert_eq!(Request::raw("http://example.com/a%3cd#x").tested(), "/a%3cd");
    /// assert_eq!(Request::raw("//cgi-bin/x").tested(), "/x", "a network-path reference");
    /// # }
    /// ```
    #[must_use]
    pub fn raw(url: &'a str) -> Request<'a> {
        let path = raw_path(url);
        Request { given: url, form: Form::Raw, tested: path.clone(), path }
    }

    /// The path tested for `input` read as `mode` says: [`Request::new`]`(input,
    /// mode).tested()`, without the rest of the request. A matcher asks for nothing else,
    /// and nearly every URL a crawler has is already in the form a crawler requests: its
    /// path is then taken as it is, where reading the whole request parses the URL for
    /// its origin.
    ///
    /// ```
    /// # #[cfg(feature = "parts")] {
    /// use robotscope_core::request::{Request, UrlMode};
    /// let url = "https://example.com/a/b?c=1#top";
    /// assert_eq!(Request::tested_path(url, UrlMode::AsCrawlersSend), "/a/b?c=1");
    /// assert_eq!(Request::tested_path("/café", UrlMode::AsCrawlersSend), Request::read("/café").tested());
    /// # }
    /// ```
    #[must_use]
    pub fn tested_path(input: &'a str, mode: UrlMode) -> Cow<'a, str> {
        if mode == UrlMode::AsCrawlersSend
            && let Some(path) = as_requested_already(input)
        {
            return path;
        }
        Request::new(input, mode).tested
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
            Form::Url { .. } => self.path == self.tested,
            Form::Path | Form::Relative | Form::Raw => self.given == self.tested,
        };
        (!obvious).then_some(self.tested.as_ref())
    }

    /// The URL's origin (`https://example.com:8443`), when the text was a URL.
    #[must_use]
    pub fn origin(&self) -> Option<&str> {
        match &self.form {
            Form::Url { origin } => Some(origin),
            _ => None,
        }
    }

    /// True when the text is a URL on another origin than `site`'s (the scheme, host
    /// and port whose robots.txt answers): that origin has a robots.txt of its own (RFC
    /// 9309 §2.3), which may say something else. `site` is any URL of the site (its
    /// robots.txt's, say) or its origin: a path, a default port or a host in Unicode
    /// name the same origin, as the URL standard compares origins (`example.com.` with
    /// its final dot is another host). A `site` without such an origin (a bare host, a
    /// path, a `file:` URL, a scheme the URL standard gives no host to) is compared as
    /// written, less a final `/`: a bare host or a path matches no URL. A request that
    /// is a path is on no other site.
    ///
    /// ```
    /// # #[cfg(feature = "parts")] {
    /// use robotscope_core::request::Request;
    /// let request = Request::read("https://bücher.example/a");
    /// assert!(!request.is_on_another_site("https://bücher.example/robots.txt"));
    /// assert!(!request.is_on_another_site("https://xn--bcher-kva.example:443"));
    /// assert!(request.is_on_another_site("http://bücher.example/"));
    /// # }
    /// ```
    #[must_use]
    pub fn is_on_another_site(&self, site: &str) -> bool {
        let site = match url::Url::parse(site.trim()) {
            Ok(url) if url.origin().is_tuple() => url.origin().ascii_serialization(),
            _ => site.trim().trim_end_matches('/').to_owned(),
        };
        self.origin().is_some_and(|origin| !origin.eq_ignore_ascii_case(&site))
    }

    /// How the text was read, in words, when that is worth saying (the tested path is
    /// shown beside it): a relative path, an encoded one, a URL's path, an empty one.
    /// `None` when the text was tested as it is.
    #[must_use]
    pub fn note(&self) -> Option<String> {
        let encoded = self.path != self.tested;
        let how = match (&self.form, encoded) {
            (Form::Path, _) if self.given.is_empty() => "an empty path is /".to_owned(),
            (Form::Path | Form::Raw, false) => return None,
            (Form::Path, true) => "as a crawler requests it: spaces, quotes, <, >, controls and non-ASCII (as UTF-8) %XX-encoded, escapes upper-cased".to_owned(),
            (Form::Raw, true) => "the path of the URL, byte for byte".to_owned(),
            (Form::Url { origin }, false) => format!("the path of a URL on {origin}"),
            (Form::Url { origin }, true) => format!("the path of a URL on {origin}, as a crawler requests it"),
            (Form::Relative, _) => "read as a path relative to /; a URL needs its scheme (https://…)".to_owned(),
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

/// A path as a crawler requests it: what a URL parser makes of it (dot segments
/// resolved, `\\` read as `/`, characters a URL cannot hold percent-encoded), unless it
/// holds nothing a parser would change, which is nearly always and costs nothing.
fn requested_path(path: Cow<'_, str>) -> Cow<'_, str> {
    if matches!(requested_form(path.as_bytes()), Some(Shape::AsIs)) {
        return path;
    }
    // A made-up origin whose path is `path` (`//x` stays a path: the host is given).
    match url::Url::parse(&format!("http://robotscope.invalid{path}")) {
        Ok(url) => Cow::Owned(as_requested(&url)),
        Err(_) => path,
    }
}

/// The tested path of a path or an `http(s)` URL that holds nothing a URL parser or
/// RFC 9309's normalisation would change ([`Request::read`] would give it as it is), or
/// `None` for [`Request::read`] to read: one pass over the bytes, no parse.
fn as_requested_already(input: &str) -> Option<Cow<'_, str>> {
    let given = input.trim_matches(|c: char| c.is_ascii_whitespace());
    let path = if given.starts_with('/') {
        before_fragment(given)
    } else {
        // Only the special schemes whose URLs a crawler fetches: their authority ends at
        // `/`, `\\`, `?` or `#`, and the parser gives their path as written when it is
        // already in requested form. An empty authority (`http:///x`) makes the parser
        // take the path's first segment for the host.
        let after_scheme = scheme_end(given)?;
        let scheme = &given[..after_scheme - 3];
        if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
            return None;
        }
        let rest = &given[after_scheme..];
        let authority_end =
            rest.bytes().position(|byte| matches!(byte, b'/' | b'?' | b'#' | b'\\')).unwrap_or(rest.len());
        if authority_end == 0 || rest[authority_end..].starts_with('\\') {
            return None;
        }
        before_fragment(&rest[authority_end..])
    };
    let path = match requested_form(path.as_bytes())? {
        Shape::AsIs => Cow::Borrowed(path),
        // Only non-ASCII characters to encode (as UTF-8, hex digits upper-case), as a URL
        // parser does in a path and in a query, and as RFC 9309's normalisation does.
        Shape::NonAsciiEncoded => Cow::Owned(String::from_utf8_lossy(&normalise_rfc9309(path.as_bytes())).into_owned()),
    };
    Some(if path.starts_with('/') { path } else { Cow::Owned(format!("/{path}")) })
}

/// What [`as_requested_already`] found a path to be.
enum Shape {
    /// In requested form already.
    AsIs,
    /// In requested form once its non-ASCII characters are percent-encoded.
    NonAsciiEncoded,
}

/// Whether a URL parser would leave `path` as it is (characters it never encodes, no
/// dot segment, none hidden as `%2E`), but for non-ASCII characters, and RFC 9309's
/// normalisation too (escapes in upper case), in one pass: what lets
/// [`requested_path`] and [`as_requested_already`] skip the parser. `None`: something
/// else to do, for the parser.
fn requested_form(path: &[u8]) -> Option<Shape> {
    // A `.` or `..` segment, which a parser resolves: what follows a dot after `/`.
    let dot_segment = |rest: &[u8]| {
        let rest = rest.strip_prefix(b".").unwrap_or(rest);
        matches!(rest.first(), None | Some(b'/' | b'?'))
    };
    let mut previous = 0;
    let mut non_ascii = false;
    for (i, &byte) in path.iter().enumerate() {
        let fine = PLAIN_IN_URLS[usize::from(byte)]
            || match byte {
                b'.' => previous != b'/' || !dot_segment(&path[i + 1..]),
                b'%' => match (path.get(i + 1), path.get(i + 2)) {
                    (Some(&high), Some(&low)) if high.is_ascii_hexdigit() && low.is_ascii_hexdigit() => {
                        // `%2E` is a dot (a dot segment perhaps); lower-case digits get upper-cased.
                        let dot = high == b'2' && low == b'E';
                        !(dot || high.is_ascii_lowercase() || low.is_ascii_lowercase())
                    }
                    _ => true,
                },
                0x80.. => {
                    non_ascii = true;
                    true
                }
                _ => false,
            };
        if !fine {
            return None;
        }
        previous = byte;
    }
    Some(if non_ascii { Shape::NonAsciiEncoded } else { Shape::AsIs })
}

/// The bytes a URL parser never encodes or rewrites in a path or query, whatever is
/// around them (`.` and `%` depend on what is: [`requested_form`]).
const PLAIN_IN_URLS: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = (byte as u8).is_ascii_alphanumeric();
        byte += 1;
    }
    let others = b"/-_~!$&()*+,;=:@?";
    let mut i = 0;
    while i < others.len() {
        table[others[i] as usize] = true;
        i += 1;
    }
    table
};

/// A parsed URL's path and query, what goes on the request line.
fn as_requested(url: &url::Url) -> String {
    match url.query() {
        Some(query) => format!("{}?{query}", url.path()),
        None => url.path().to_owned(),
    }
}

/// Everything before a `#`.
fn before_fragment(text: &str) -> &str {
    &text[..memchr::memchr(b'#', text.as_bytes()).unwrap_or(text.len())]
}

/// Where the authority starts when `text` begins with `scheme://` (RFC 3986 §3.1: a
/// letter, then letters, digits, `+`, `-` or `.`).
fn scheme_end(text: &str) -> Option<usize> {
    // The first `:` (a scheme holds none, so a later `://` has no valid scheme before it).
    let colon = memchr::memchr(b':', text.as_bytes())?;
    if !text[colon..].starts_with("://") {
        return None;
    }
    let scheme = &text[..colon];
    let valid = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    valid.then_some(colon + 3)
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
/// # #[cfg(feature = "parts")] {
/// use robotscope_core::request::raw_path;
/// assert_eq!(raw_path("https://example.com/a/b?c#d"), "/a/b?c");
/// assert_eq!(raw_path("/a/b"), "/a/b");
/// assert_eq!(raw_path("example.com"), "/");
/// assert_eq!(raw_path("https://example.com?x"), "/?x");
/// # }
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
        let url = |origin: &str| Form::Url { origin: origin.to_owned() };
        let cases = [
            ("/cgi-bin/x", Form::Path, "/cgi-bin/x"),
            ("//cgi-bin/x", Form::Path, "//cgi-bin/x"),
            ("  /a b  ", Form::Path, "/a%20b"),
            ("", Form::Path, "/"),
            ("/a#frag", Form::Path, "/a"),
            ("/π", Form::Path, "/%CF%80"),
            ("/café/menu", Form::Path, "/caf%C3%A9/menu"),
            ("/a%3cd", Form::Path, "/a%3Cd"),
            ("/100%", Form::Path, "/100%"),
            ("private/x", Form::Relative, "/private/x"),
            ("*.pdf", Form::Relative, "/*.pdf"),
            ("example.com/a", Form::Relative, "/example.com/a"),
            ("https://example.com", url("https://example.com"), "/"),
            ("https://example.com:443?q=1", url("https://example.com"), "/?q=1"),
            ("http://other.example/private/x#f", url("http://other.example"), "/private/x"),
            ("https://user:pw@Example.COM:8443/a;p?q", url("https://example.com:8443"), "/a;p?q"),
            ("https://bücher.example/café", url("https://xn--bcher-kva.example"), "/caf%C3%A9"),
            ("http://[::1]:8080/a", url("http://[::1]:8080"), "/a"),
            ("ftp://Files.Example/a", url("ftp://files.example"), "/a"),
            ("1http://x/a", Form::Relative, "/1http://x/a"),
            ("/a/../private/x", Form::Path, "/private/x"),
            ("http://x/a/./b/../private/x", url("http://x"), "/a/private/x"),
            ("http://x\\private\\x", url("http://x"), "/private/x"),
            ("/a b?c d", Form::Path, "/a%20b?c%20d"),
            ("/.well-known/x", Form::Path, "/.well-known/x"),
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
        assert!(Request::read("/café").note().is_some_and(|n| n.contains("UTF-8")));
        assert!(Request::read("").note().is_some_and(|n| n.contains("empty path is /")));
        assert!(Request::read("https://example.com/a").note().is_some_and(|n| n.contains("https://example.com")));
        assert!(Request::read("https://example.com/a").is_on_another_site("https://other.example"));
        assert!(!Request::read("https://EXAMPLE.com/a").is_on_another_site("https://example.com"));
        assert!(Request::read("https://example.com:8443/a").is_on_another_site("https://example.com"), "a port");
        assert!(Request::read("http://example.com/a").is_on_another_site("https://example.com"), "a scheme");
        assert!(!Request::read("/a").is_on_another_site("https://example.com"));
    }

    #[test]
    fn the_robots_txt_itself() {
        assert!(is_robots_txt("/robots.txt"));
        assert!(!is_robots_txt("/robots.txt.bak"));
    }
}
