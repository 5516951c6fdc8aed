//! The lossless lexer: any bytes in, numbered lines with byte spans out.
//!
//! This is the faithful, low-level form of a robots.txt (STYLE.md habit 3): it never
//! fails, never panics and loses nothing. The lines tile the input, so joining
//! `bytes[line.start..line.end]` for every line gives the input back, byte for byte.
//! What a line *means* (its field, its value) depends on the reading and is decided by
//! `split_rfc9309` and `split_classic`; the parser builds groups from those splits.
//!
//! Line ends are LF, CR LF and a lone CR, as RFC 9309 §2.2 and the 1994 standard both
//! allow; each counts as one line, which is also how Google's reference numbers lines,
//! so the line numbers we report are the ones its matcher reports.

use std::ops::Range;

/// Google's reference keeps at most this many bytes of a line (a buffer of
/// `2083 * 8 = 16,664` bytes, one of which holds the terminating NUL) and drops the rest.
pub(crate) const RFC9309_MAX_LINE_BYTES: usize = 2083 * 8 - 1;

/// The UTF-8 byte order mark.
pub const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// The most bytes a robots.txt is read to, 1 GiB: offsets are kept in 32 bits (with room
/// for normalised patterns three times as long), which halves what each line costs in
/// memory; it is far past every cap robotscope reads with (RFC 9309 readers stop at 500
/// KiB, `--max-file-bytes` at 32 MiB by default).
pub const MAX_SOURCE_BYTES: usize = 1 << 30;

/// One line of the input: where its content lies and where its line end lies. Offsets
/// are kept in 32 bits (16 bytes a line; see [`MAX_SOURCE_BYTES`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line {
    number: u32,
    start: u32,
    content_end: u32,
    end: u32,
}

impl Line {
    /// 1-based line number.
    #[must_use]
    pub fn number(&self) -> usize {
        self.number as usize
    }

    /// Byte offset of the first byte of the line.
    #[must_use]
    pub fn start(&self) -> usize {
        self.start as usize
    }

    /// Byte offset just past the content (where the line end begins).
    #[must_use]
    pub fn content_end(&self) -> usize {
        self.content_end as usize
    }

    /// Byte offset just past the line end (equal to [`Line::content_end`] on a last line
    /// without one).
    #[must_use]
    pub fn end(&self) -> usize {
        self.end as usize
    }

    /// The line's bytes without its line end.
    #[must_use]
    pub fn content<'a>(&self, source: &'a [u8]) -> &'a [u8] {
        &source[self.start()..self.content_end()]
    }

    /// The byte span of the content.
    #[must_use]
    pub fn span(&self) -> Range<usize> {
        self.start()..self.content_end()
    }

    /// Which line end closes this line.
    #[must_use]
    pub fn line_end(&self, source: &[u8]) -> LineEnd {
        match &source[self.content_end()..self.end()] {
            b"\n" => LineEnd::Lf,
            b"\r\n" => LineEnd::CrLf,
            b"\r" => LineEnd::Cr,
            _ => LineEnd::None,
        }
    }
}

/// The line end that closes a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineEnd {
    /// `\n`, as on Unix.
    Lf,
    /// `\r\n`, as on DOS and Windows.
    CrLf,
    /// A lone `\r`, as on classic Mac OS.
    Cr,
    /// The last line of a file that does not end with a line end.
    None,
}

/// Splits `source` into lines. Never fails; an empty input has no lines.
#[must_use]
pub fn lex(source: &[u8]) -> Vec<Line> {
    // Offsets fit in 32 bits: a longer input is read to `MAX_SOURCE_BYTES`.
    let source = &source[..source.len().min(MAX_SOURCE_BYTES)];
    let narrow = |offset: usize| offset as u32;
    // One line per ~32 bytes is a fair guess for real files and avoids most regrowth.
    let mut lines = Vec::with_capacity(source.len() / 32 + 1);
    let mut start = 0;
    while start < source.len() {
        let number = narrow(lines.len() + 1);
        let Some(offset) = memchr::memchr2(b'\n', b'\r', &source[start..]) else {
            let end = narrow(source.len());
            lines.push(Line { number, start: narrow(start), content_end: end, end });
            break;
        };
        let content_end = start + offset;
        let crlf = source[content_end] == b'\r' && source.get(content_end + 1) == Some(&b'\n');
        let end = content_end + if crlf { 2 } else { 1 };
        lines.push(Line { number, start: narrow(start), content_end: narrow(content_end), end: narrow(end) });
        start = end;
    }
    lines.shrink_to_fit();
    lines
}

/// How many leading bytes Google's reference skips as a byte order mark: the longest
/// prefix of the input that is also a prefix of the UTF-8 BOM (so a lone `EF BB` is
/// skipped too, and a second BOM is not).
#[must_use]
pub(crate) fn rfc9309_bom_skip(source: &[u8]) -> usize {
    source.iter().zip(UTF8_BOM).take_while(|(a, b)| a == b).count()
}

/// The text encoding a file declares with a byte order mark, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ByteOrderMark {
    /// `EF BB BF`: UTF-8 with a BOM, which Google skips and classic robots do not.
    Utf8,
    /// `FF FE`: UTF-16, little-endian; no robot decodes it.
    Utf16Le,
    /// `FE FF`: UTF-16, big-endian; no robot decodes it.
    Utf16Be,
}

/// Detects a byte order mark at the start of `source`.
#[must_use]
pub(crate) fn byte_order_mark(source: &[u8]) -> Option<ByteOrderMark> {
    if source.starts_with(UTF8_BOM) {
        Some(ByteOrderMark::Utf8)
    } else if source.starts_with(b"\xFF\xFE") {
        Some(ByteOrderMark::Utf16Le)
    } else if source.starts_with(b"\xFE\xFF") {
        Some(ByteOrderMark::Utf16Be)
    } else {
        None
    }
}

/// C's `isspace` in the "C" locale, which is what Google's reference strips
/// (`absl::ascii_isspace`): space, tab, LF, vertical tab, form feed, CR. Rust's
/// `u8::is_ascii_whitespace` leaves out the vertical tab, so it cannot be used here.
#[must_use]
pub(crate) fn is_c_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r')
}

/// How a line's field name is separated from its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Separator {
    /// `name: value`, as every standard writes it.
    Colon,
    /// `name value`: Google's tolerance for a forgotten colon on a two-word line.
    Whitespace,
}

/// A line read as `name: value # comment`, with absolute byte spans into the source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FieldSplit {
    /// The field name, trimmed.
    pub key: Range<usize>,
    /// The value, trimmed (may be empty).
    pub value: Range<usize>,
    /// What separated them.
    pub separator: Separator,
}

/// Where a line's comment starts, if it has one: RFC 9309 §2.2 and both classic texts
/// start a comment at any `#`.
#[must_use]
pub(crate) fn comment_start(content: &[u8]) -> Option<usize> {
    memchr::memchr(b'#', content)
}

/// The bytes of a line that Google's reference reads: after the BOM on line 1, cut at
/// [`RFC9309_MAX_LINE_BYTES`], and cut at the first NUL (the reference keeps each line
/// in a C string, so a NUL ends it). Returns the absolute span.
#[must_use]
pub(crate) fn rfc9309_visible(source: &[u8], line: &Line) -> Range<usize> {
    let start = if line.number == 1 { line.start() + rfc9309_bom_skip(source) } else { line.start() };
    let start = start.min(line.content_end());
    let capped_end = line.content_end().min(start + RFC9309_MAX_LINE_BYTES);
    let end = memchr::memchr(0, &source[start..capped_end]).map_or(capped_end, |nul| start + nul);
    start..end
}

/// Splits a line the way Google's reference does (`GetKeyAndValueFrom` in `robots.cc`):
/// drop the comment, trim, split at the first colon; without a colon, accept whitespace
/// as the separator only when the line holds exactly two words. Returns `None` for a
/// line that holds no field (blank, comment, or unreadable).
#[must_use]
pub(crate) fn split_rfc9309(source: &[u8], line: &Line) -> Option<FieldSplit> {
    let visible = rfc9309_visible(source, line);
    let bytes = &source[visible.clone()];
    let bytes = comment_start(bytes).map_or(bytes, |hash| &bytes[..hash]);
    let (lead, trail) = trim_bounds(bytes, is_c_space);
    let text = &bytes[lead..trail];
    let base = visible.start + lead;
    let (sep_at, value_from, separator) = if let Some(colon) = memchr::memchr(b':', text) {
        (colon, colon + 1, Separator::Colon)
    } else {
        let ws = text.iter().position(|&b| b == b' ' || b == b'\t')?;
        let value_at = ws + text[ws..].iter().take_while(|&&b| b == b' ' || b == b'\t').count();
        if text[value_at..].iter().any(|&b| b == b' ' || b == b'\t') {
            // More than two words: the reference refuses to guess.
            return None;
        }
        (ws, value_at, Separator::Whitespace)
    };
    let key = trimmed(text, 0..sep_at, is_c_space);
    if key.is_empty() {
        return None;
    }
    let value = trimmed(text, value_from..text.len(), is_c_space);
    Some(FieldSplit { key: base + key.start..base + key.end, value: base + value.start..base + value.end, separator })
}

/// Splits a line the way the 1994 standard and the 1996 draft (and `urllib`) do: drop
/// the comment, split at the first colon, trim both sides. A line without a colon holds
/// no field.
#[must_use]
pub(crate) fn split_classic(source: &[u8], line: &Line) -> Option<FieldSplit> {
    let content = line.content(source);
    let text = comment_start(content).map_or(content, |hash| &content[..hash]);
    let colon = memchr::memchr(b':', text)?;
    let key = trimmed(text, 0..colon, is_c_space);
    if key.is_empty() {
        return None;
    }
    let value = trimmed(text, colon + 1..text.len(), is_c_space);
    let base = line.start();
    Some(FieldSplit {
        key: base + key.start..base + key.end,
        value: base + value.start..base + value.end,
        separator: Separator::Colon,
    })
}

/// True when a line is blank to the classic readings: nothing but whitespace. A comment
/// line is not blank: "Lines containing only a comment are discarded completely, and
/// therefore do not indicate a record boundary" (1994 standard).
#[must_use]
pub fn is_blank(source: &[u8], line: &Line) -> bool {
    line.content(source).iter().all(|&b| is_c_space(b))
}

/// The span of `bytes[range]` without leading and trailing bytes for which `strip`
/// holds, relative to `bytes`.
fn trimmed(bytes: &[u8], range: Range<usize>, strip: fn(u8) -> bool) -> Range<usize> {
    let (lead, trail) = trim_bounds(&bytes[range.clone()], strip);
    range.start + lead..range.start + trail
}

/// `(first kept, one past last kept)` for `bytes` trimmed of `strip` bytes at both ends.
fn trim_bounds(bytes: &[u8], strip: fn(u8) -> bool) -> (usize, usize) {
    let lead = bytes.iter().take_while(|&&b| strip(b)).count();
    let trail = bytes.len() - bytes[lead..].iter().rev().take_while(|&&b| strip(b)).count();
    (lead, trail)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contents(source: &[u8]) -> Vec<&[u8]> {
        lex(source).iter().map(|line| line.content(source)).collect()
    }

    #[test]
    fn splits_every_kind_of_line_end() {
        assert_eq!(contents(b"a\nb\r\nc\rd"), [&b"a"[..], b"b", b"c", b"d"]);
        // CR CR LF is a lone CR and then a CR LF: two line ends, as Google counts them.
        assert_eq!(contents(b"a\r\r\nb"), [&b"a"[..], b"", b"b"]);
        assert_eq!(contents(b""), Vec::<&[u8]>::new());
        assert_eq!(contents(b"\n"), [&b""[..]]);
    }

    #[test]
    fn lines_tile_the_input() {
        let source = b"x\r\n\ny\rz";
        let rebuilt: Vec<u8> = lex(source).iter().flat_map(|l| source[l.start()..l.end()].iter().copied()).collect();
        assert_eq!(rebuilt, source);
    }

    #[test]
    fn bom_skip_takes_the_longest_bom_prefix() {
        assert_eq!(rfc9309_bom_skip(b"\xEF\xBB\xBFUser"), 3);
        assert_eq!(rfc9309_bom_skip(b"\xEF\xBBUser"), 2);
        assert_eq!(rfc9309_bom_skip(b"\xEF\xBB\xBF\xEF\xBB\xBF"), 3);
        assert_eq!(rfc9309_bom_skip(b"User"), 0);
    }

    fn split(text: &str) -> Option<(String, String, Separator)> {
        let source = text.as_bytes();
        let line = lex(source)[0];
        split_rfc9309(source, &line).map(|f| {
            (
                String::from_utf8_lossy(&source[f.key]).into_owned(),
                String::from_utf8_lossy(&source[f.value]).into_owned(),
                f.separator,
            )
        })
    }

    #[test]
    fn rfc9309_split_follows_the_reference() {
        assert_eq!(split("Disallow: /a # c"), Some(("Disallow".into(), "/a".into(), Separator::Colon)));
        assert_eq!(split("  Disallow :  /a  "), Some(("Disallow".into(), "/a".into(), Separator::Colon)));
        assert_eq!(split("Disallow /a"), Some(("Disallow".into(), "/a".into(), Separator::Whitespace)));
        assert_eq!(split("Disallow /a /b"), None);
        assert_eq!(split("# only a comment"), None);
        assert_eq!(split(": value"), None);
        assert_eq!(split("Disallow:"), Some(("Disallow".into(), String::new(), Separator::Colon)));
        assert_eq!(split("Disallow: /a\0/b"), Some(("Disallow".into(), "/a".into(), Separator::Colon)));
    }

    #[test]
    fn rfc9309_view_cuts_long_lines() {
        let long = format!("Disallow: /{}", "z".repeat(20_000));
        let source = long.as_bytes();
        let line = lex(source)[0];
        assert_eq!(rfc9309_visible(source, &line).len(), RFC9309_MAX_LINE_BYTES);
    }

    #[test]
    fn classic_split_needs_a_colon() {
        let source = b"Disallow /a";
        assert!(split_classic(source, &lex(source)[0]).is_none());
        let source = b"User-agent: charlotte Disallow: /cgi-bin";
        let field = split_classic(source, &lex(source)[0]).expect("a field");
        assert_eq!(&source[field.value], b"charlotte Disallow: /cgi-bin");
    }

    #[test]
    fn lex_examples() {
        let text = b"User-agent: *\r\nDisallow: /\rAllow: /a";
        let lines = lex(text);
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[1].content(text), b"Disallow: /");
        assert_eq!(lines[2].number(), 3);
    }

    proptest::proptest! {
        #[test]
        fn lexing_is_lossless(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..2000)) {
            let lines = lex(&bytes);
            let mut rebuilt = Vec::with_capacity(bytes.len());
            for (index, line) in lines.iter().enumerate() {
                proptest::prop_assert_eq!(line.number(), index + 1);
                proptest::prop_assert!(line.start() <= line.content_end() && line.content_end() <= line.end());
                proptest::prop_assert!(!line.content(&bytes).contains(&b'\n') && !line.content(&bytes).contains(&b'\r'));
                rebuilt.extend_from_slice(&bytes[line.start()..line.end()]);
            }
            proptest::prop_assert_eq!(rebuilt, bytes);
        }
    }
}
