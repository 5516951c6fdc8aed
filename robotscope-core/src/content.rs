//! What a body is before it is read as a robots.txt: text, or an HTML page, binary data
//! or UTF-16, which no robot finds rules in. One sniffer for the fetch's warnings, the
//! lint's file diagnostics and the page reader, so that they never disagree about a
//! body.

use super::lex::{self, ByteOrderMark};

/// RFC 9309 §2.5: crawlers must parse at least 500 KiB of a robots.txt, and Google reads
/// exactly that much: give [`RobotsTxt::parse`](crate::RobotsTxt::parse) at most this
/// much of a body to read as Google does. The lint's limit comes from here too.
pub const RFC9309_PARSE_LIMIT_BYTES: usize = 500 * 1024;

/// How much of the start of a body is searched for markup.
const SNIFF_BYTES: usize = 1024;

/// How much of the start of a body is counted for binary data.
const BINARY_SNIFF_BYTES: usize = 8 * 1024;

/// What a body is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Content {
    /// Text: read as a robots.txt.
    Text,
    /// An HTML page (a soft 404, or a server answering every URL with its home page).
    Html,
    /// Not text: more than one byte in ten of its start is a control byte, or is not UTF-8.
    Binary,
    /// UTF-16, by its byte order mark: every robot reads a NUL between the characters.
    Utf16,
}

/// Sniffs a body by its first kilobyte.
///
/// # Examples
///
/// ```
/// # #[cfg(feature = "parts")] {
/// use robotscope_core::content::{Content, sniff};
/// assert_eq!(sniff(b"User-agent: *\nDisallow: /\n"), Content::Text);
/// assert_eq!(sniff(b"\n  <!DOCTYPE html><title>Not found</title>"), Content::Html);
/// assert_eq!(sniff(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0"), Content::Binary);
/// assert_eq!(sniff(b"\xff\xfeU\0s\0"), Content::Utf16);
/// // A robots.txt that mentions a tag is still a robots.txt.
/// assert_eq!(sniff(b"User-agent: *\nDisallow: /\n# see <html> and <header>\n"), Content::Text);
/// assert_eq!(sniff(b"<header>not a page</header>"), Content::Text);
/// // A stray NUL does not make a robots.txt binary.
/// assert_eq!(sniff(b"User-agent: *\0\nDisallow: /tmp/\n"), Content::Text);
/// # }
/// ```
#[must_use]
pub fn sniff(body: &[u8]) -> Content {
    if let Some(ByteOrderMark::Utf16Le | ByteOrderMark::Utf16Be) = lex::byte_order_mark(body) {
        return Content::Utf16;
    }
    let head = &body[..body.len().min(SNIFF_BYTES)];
    let lower = String::from_utf8_lossy(head).to_ascii_lowercase();
    let start = lower.trim_start_matches(['\u{feff}', ' ', '\t', '\r', '\n']);
    // A page starts with markup; a robots.txt never starts with `<`, and may well
    // mention `<html>` in a comment.
    let tag = |name: &str| {
        lower.match_indices(name).any(|(at, _)| lower[at + name.len()..].starts_with(['>', ' ', '\t', '\r', '\n']))
    };
    if start.starts_with('<') && (start.starts_with("<!doctype html") || tag("<html") || tag("<head") || tag("<body")) {
        return Content::Html;
    }
    // Binary: many control bytes, or many bytes that are not UTF-8 (random data has
    // both; a Latin-1 robots.txt has a few of the second, never one in ten), counted
    // over more than the tag search needs, so that chance rarely passes data for text.
    let sample = &body[..body.len().min(BINARY_SNIFF_BYTES)];
    let controls = sample.iter().filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0C)).count();
    let not_utf8: usize = sample.utf8_chunks().map(|chunk| chunk.invalid().len()).sum();
    if controls * 10 > sample.len() || not_utf8 * 10 > sample.len() {
        return Content::Binary;
    }
    Content::Text
}
