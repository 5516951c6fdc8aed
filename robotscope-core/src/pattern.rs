//! Path patterns: how a rule's value is normalised under each reading, and how one
//! pattern matches one path. (How the text a user gives becomes the tested path is
//! [`super::request`]'s business.)
//!
//! Matching is linear in the length of the path plus the pattern, whatever the pattern
//! holds: thousands of `*` against a long path cost no more than one. (A backtracking
//! matcher, or a regex built from the pattern, can be made to take exponential or
//! quadratic time by a hostile robots.txt; robots-parser's issue 12 was such a `ReDoS`.)

use std::borrow::Cow;

/// Normalises a rule value the way Google's reference does (`MaybeEscapePattern`):
/// octets of 0x80 and above are percent-encoded, and the hex digits of existing `%XX`
/// escapes are upper-cased. RFC 9309 §2.2.2 asks for octets to be compared after
/// percent-encoding; Google's library applies that to the rule only and takes the URL
/// as sent. It is the form of `--raw-url`, where URLs are taken as Google's library
/// takes them; paths as a user gives them are compared with
/// [`normalise_as_requested`]'s form.
#[must_use]
pub(crate) fn normalise_rfc9309(value: &[u8]) -> Cow<'_, [u8]> {
    let lowercase_escape =
        |i: usize| is_escape_at(value, i) && (value[i + 1].is_ascii_lowercase() || value[i + 2].is_ascii_lowercase());
    let needs_work = !value.is_ascii() || memchr::memchr_iter(b'%', value).any(lowercase_escape);
    if !needs_work {
        return Cow::Borrowed(value);
    }
    let mut out = Vec::with_capacity(value.len() + 8);
    let mut i = 0;
    while i < value.len() {
        let b = value[i];
        if b == b'%' && is_escape_at(value, i) {
            out.extend_from_slice(&[b'%', value[i + 1].to_ascii_uppercase(), value[i + 2].to_ascii_uppercase()]);
            i += 3;
        } else if b >= 0x80 {
            push_escape(&mut out, b);
            i += 1;
        } else {
            out.push(b);
            i += 1;
        }
    }
    Cow::Owned(out)
}

/// Normalises a rule value to the form of a path as crawlers request it, the form
/// [`Request::read`](super::request::Request::read) tests paths in, so that a rule and
/// the path it names compare equal (RFC 9309 §2.2.2: both are compared percent-encoded).
/// On top of [`normalise_rfc9309`], the characters a URL parser percent-encodes (the
/// WHATWG URL standard's sets, as the `url` crate applies them) are encoded: controls
/// and DEL, space, `"`, `<`, `>`, and in the path `` ` ``, `{`, `}` or, after the first
/// `?`, in the query, `'`. Tabs are dropped and trailing controls cut, as a URL parser
/// does. `*` and `$` are left alone: they are the pattern's wildcards. What a parser
/// rewrites rather than encodes (`\` as `/`, dot segments) is left as written.
#[must_use]
pub(crate) fn normalise_as_requested(value: &[u8]) -> Cow<'_, [u8]> {
    let encoded_in = |byte: u8, in_query: bool| {
        let always = byte <= b' ' || byte == 0x7F || byte == b'"' || byte == b'<' || byte == b'>';
        let path_only = byte == b'`' || byte == b'{' || byte == b'}';
        always || if in_query { byte == b'\'' } else { path_only }
    };
    // Nearly every value needs none of it, and a key typed on a line of megabytes has
    // the whole line checked: blocks of comparisons without a branch, which the
    // compiler turns into vector instructions, either side of the first `?`.
    let any_encoded = |bytes: &[u8], in_query: bool| {
        bytes.chunks(256).any(|block| block.iter().fold(false, |found, &byte| found | encoded_in(byte, in_query)))
    };
    let (path, query) = value.split_at(memchr::memchr(b'?', value).unwrap_or(value.len()));
    let parser_work = any_encoded(path, false) || any_encoded(query, true);
    if !parser_work {
        return normalise_rfc9309(value);
    }
    // First what a URL parser does before it encodes: tabs go, and the end is cut of
    // controls and spaces (leading ones cannot occur: a path follows the host). Then
    // the escapes are read (a tab removed can make one: `%\taa` is `%AA`), then what
    // the parser encodes is encoded.
    let end = value.iter().rposition(|&byte| byte > b' ').map_or(0, |last| last + 1);
    let cleaned: Vec<u8> = value[..end].iter().copied().filter(|&byte| byte != b'\t').collect();
    let normalised = normalise_rfc9309(&cleaned);
    let mut out = Vec::with_capacity(normalised.len() + 8);
    let mut in_query = false;
    for &byte in normalised.iter() {
        in_query |= byte == b'?';
        if encoded_in(byte, in_query) {
            push_escape(&mut out, byte);
        } else {
            out.push(byte);
        }
    }
    Cow::Owned(out)
}

/// Decodes `%XX` escapes as the 1996 draft asks ("if a %xx encoded octet is
/// encountered it is unencoded prior to comparison, unless it is the '/' character,
/// which has special meaning in a path"). `%2F` is kept, upper-cased, so that it still
/// differs from `/`. Applied to both the rule and the path.
#[must_use]
pub(crate) fn decode_draft1996(value: &[u8]) -> Cow<'_, [u8]> {
    if memchr::memchr(b'%', value).is_none() {
        return Cow::Borrowed(value);
    }
    let mut out = Vec::with_capacity(value.len());
    let mut i = 0;
    while i < value.len() {
        if value[i] == b'%' && is_escape_at(value, i) {
            let byte = hex_value(value[i + 1]) << 4 | hex_value(value[i + 2]);
            if byte == b'/' {
                out.extend_from_slice(b"%2F");
            } else {
                out.push(byte);
            }
            i += 3;
        } else {
            out.push(value[i]);
            i += 1;
        }
    }
    Cow::Owned(out)
}

fn is_escape_at(bytes: &[u8], i: usize) -> bool {
    bytes.len() > i + 2 && bytes[i + 1].is_ascii_hexdigit() && bytes[i + 2].is_ascii_hexdigit()
}

fn hex_value(digit: u8) -> u8 {
    match digit {
        b'0'..=b'9' => digit - b'0',
        b'a'..=b'f' => digit - b'a' + 10,
        // `is_escape_at` has checked that this is a hex digit, so only A-F is left.
        _ => digit - b'A' + 10,
    }
}

fn push_escape(out: &mut Vec<u8>, byte: u8) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    out.extend_from_slice(&[b'%', HEX[usize::from(byte >> 4)], HEX[usize::from(byte & 0xF)]]);
}

/// Whether `pattern` matches `path` from its start under RFC 9309 §2.2.3: `*` matches any
/// run of bytes, `$` at the very end anchors the end of the path, and `$` anywhere else
/// is an ordinary byte.
///
/// The pattern is cut at its `*`s into literal pieces; the first must start the path and
/// each next one is found leftmost after the previous. Leftmost is always safe because a
/// later piece can only gain room by an earlier piece ending sooner, so the match costs
/// one pass of a substring search over the path.
#[must_use]
pub(crate) fn wildcard_match(pattern: &[u8], path: &[u8]) -> bool {
    let (pattern, anchored) = match pattern.split_last() {
        Some((b'$', rest)) => (rest, true),
        _ => (pattern, false),
    };
    let mut pieces = pattern.split(|&b| b == b'*');
    // `split` always yields at least one piece (possibly empty).
    let first = pieces.next().unwrap_or_default();
    if !path.starts_with(first) {
        return false;
    }
    let Some(last) = pieces.next_back() else {
        // No `*` at all: a plain prefix, or the whole path when anchored.
        return !anchored || path.len() == first.len();
    };
    let mut at = first.len();
    for piece in pieces {
        if piece.is_empty() {
            continue;
        }
        match find(&path[at..], piece) {
            Some(found) => at += found + piece.len(),
            None => return false,
        }
    }
    if anchored {
        path.len() >= at + last.len() && path.ends_with(last)
    } else {
        last.is_empty() || find(&path[at..], last).is_some()
    }
}

/// Leftmost position of `needle` in `haystack`. Short haystacks (most URL paths) are
/// searched directly, which costs less than setting up a substring searcher; long ones
/// use `memchr::memmem`, which is linear whatever the input.
fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    const SHORT_HAYSTACK_BYTES: usize = 256;
    if needle.is_empty() {
        Some(0)
    } else if haystack.len() <= SHORT_HAYSTACK_BYTES {
        let last_start = haystack.len().checked_sub(needle.len())?;
        memchr::memchr_iter(needle[0], &haystack[..=last_start]).find(|&at| haystack[at..].starts_with(needle))
    } else {
        memchr::memmem::find(haystack, needle)
    }
}

/// The literal prefix of a wildcard pattern: the bytes before its first `*`, or before
/// a final `$`. Every path the pattern matches starts with it.
#[must_use]
pub(crate) fn literal_prefix(pattern: &[u8]) -> &[u8] {
    let end = memchr::memchr(b'*', pattern).unwrap_or_else(|| pattern.len() - usize::from(pattern.ends_with(b"$")));
    &pattern[..end]
}

/// The literal pieces every path matching a wildcard pattern contains: the pattern
/// without a final `$`, cut at its `*`s.
pub(crate) fn literal_pieces(pattern: &[u8]) -> impl Iterator<Item = &[u8]> {
    pattern.strip_suffix(b"$").unwrap_or(pattern).split(|&b| b == b'*').filter(|piece| !piece.is_empty())
}

/// True when a wildcard pattern is a plain prefix (no `*`, no final `$`).
#[must_use]
pub(crate) fn is_plain_prefix(pattern: &[u8]) -> bool {
    memchr::memchr(b'*', pattern).is_none() && !pattern.ends_with(b"$")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 24: the characters a URL parser encodes are encoded in rules too, in the
    /// path and in the query as a parser does, and the wildcards stay.
    #[test]
    fn rules_are_put_in_the_form_crawlers_request() {
        let cases: [(&[u8], &[u8]); 7] = [
            (b"/a<d.html", b"/a%3Cd.html"),
            (b"/{x} y?q={z}'", b"/%7Bx%7D%20y?q={z}%27"),
            ("/café*.pdf$".as_bytes(), b"/caf%C3%A9*.pdf$"),
            (b"/\"quoted\"/`x`", b"/%22quoted%22/%60x%60"),
            (b"/a\tb\x01", b"/ab"),
            (b"/a\x7fb", b"/a%7Fb"),
            (b"/plain/path?q=1", b"/plain/path?q=1"),
        ];
        for (rule, expected) in cases {
            assert_eq!(normalise_as_requested(rule).as_ref(), expected, "{:?}", String::from_utf8_lossy(rule));
        }
    }

    #[test]
    fn draft_decoding_keeps_slashes_apart() {
        assert_eq!(decode_draft1996(b"/a%2F%2fb%41").as_ref(), b"/a%2F%2FbA" as &[u8]);
        assert_eq!(decode_draft1996(b"/100%").as_ref(), b"/100%");
    }

    #[test]
    fn literal_prefix_stops_at_wildcards() {
        assert_eq!(literal_prefix(b"/a/*b"), b"/a/");
        assert_eq!(literal_prefix(b"/a$"), b"/a");
        assert_eq!(literal_prefix(b"/a"), b"/a");
        assert_eq!(literal_prefix(b""), b"");
    }

    #[test]
    fn normalise_rfc9309_examples() {
        assert_eq!(normalise_rfc9309("/café".as_bytes()).as_ref(), b"/caf%C3%A9");
        assert_eq!(normalise_rfc9309(b"/a%2fb").as_ref(), b"/a%2Fb");
    }

    #[test]
    fn decode_draft1996_examples() {
        assert_eq!(decode_draft1996(b"/%7Ejoe/a%2fb").as_ref(), b"/~joe/a%2Fb");
    }

    #[test]
    fn wildcard_match_examples() {
        assert!(wildcard_match(b"/*.pdf$", b"/docs/a.pdf"));
        assert!(!wildcard_match(b"/*.pdf$", b"/docs/a.pdf?dl=1"));
        assert!(wildcard_match(&[b'*'; 5000], b"/anything"));
    }

    /// Google's matcher (`RobotsMatchStrategy::Matches` in robots.cc), a position-set walk:
    /// quadratic, obviously right, and the reference the linear matcher must agree with.
    fn reference_match(pattern: &[u8], path: &[u8]) -> bool {
        let mut positions = vec![0usize];
        for (i, &p) in pattern.iter().enumerate() {
            if p == b'$' && i + 1 == pattern.len() {
                return positions.last() == Some(&path.len());
            }
            if p == b'*' {
                positions = (positions[0]..=path.len()).collect();
            } else {
                positions =
                    positions.into_iter().filter(|&at| at < path.len() && path[at] == p).map(|at| at + 1).collect();
                if positions.is_empty() {
                    return false;
                }
            }
        }
        true
    }

    /// Fixed cases, for the linear matcher and the reference alike.
    #[test]
    fn wildcard_cases() {
        let cases: &[(&str, &str, bool)] = &[
            ("", "/x", true),
            ("/", "/x", true),
            ("/x", "/", false),
            ("$", "/", false),
            ("/$", "/", true),
            ("/$", "/a", false),
            ("/a*$", "/abc", true),
            ("/**/x**", "/a/b/x", true),
            ("/price$list", "/price", false),
            ("/price$list", "/price$list/x", true),
            ("/a*b*c$", "/abcbc", true),
            ("/a*b*c$", "/abcb", false),
            ("/*ab$", "/ab", true),
            ("/*aa$", "/a", false),
            ("*", "", true),
        ];
        for &(pattern, path, expected) in cases {
            assert_eq!(wildcard_match(pattern.as_bytes(), path.as_bytes()), expected, "{pattern} vs {path}");
            assert_eq!(reference_match(pattern.as_bytes(), path.as_bytes()), expected, "reference {pattern} vs {path}");
        }
    }

    proptest::proptest! {
        #[test]
        fn wildcard_matching_agrees_with_the_reference(
            pattern in "[ab*$/]{0,12}",
            path in "[ab$/]{0,16}",
        ) {
            proptest::prop_assert_eq!(wildcard_match(pattern.as_bytes(), path.as_bytes()), reference_match(pattern.as_bytes(), path.as_bytes()));
        }
    }

    /// A pattern of thousands of `*` against a long path must cost about as much as one
    /// `*` (robots-parser's ReDoS): the linear matcher answers this in microseconds, where
    /// a backtracking matcher would not finish.
    #[test]
    fn many_stars_against_a_long_path_finish() {
        let pattern: Vec<u8> = b"/".iter().chain(b"*a".repeat(5_000).iter()).chain(b"*b$").copied().collect();
        let path: Vec<u8> = b"/".iter().chain(b"a".repeat(100_000).iter()).copied().collect();
        assert!(!wildcard_match(&pattern, &path));
        let mut with_b = path.clone();
        with_b.push(b'b');
        assert!(wildcard_match(&pattern, &with_b));
    }
}
