//! Files of paths and lines of standard input, as `check`, `compare --paths` and the
//! explorer's tester read them: one path or URL per line, comments and blank lines
//! skipped, every line bounded.

use std::borrow::Cow;
use std::fmt::Write as _;

/// The longest line taken as a path or URL from a file of paths or from standard input:
/// far beyond any real URL, and a bound on what one line can cost.
pub const MAX_PATH_LINE_BYTES: usize = 64 * 1024;

/// A line of a file of paths that is too long to be one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("line {line} is longer than {MAX_PATH_LINE_BYTES} bytes, which no path or URL is")]
pub struct LongPathLine {
    line: usize,
}

impl LongPathLine {
    /// The error for line `line` (1-based).
    #[must_use]
    pub fn at(line: usize) -> LongPathLine {
        LongPathLine { line }
    }

    /// The 1-based line number.
    #[must_use]
    pub fn line(&self) -> usize {
        self.line
    }
}

/// The paths of a file of paths: one path or URL per line, surrounding whitespace
/// trimmed; blank lines and lines starting with `#` (comments) are skipped. A line
/// longer than [`MAX_PATH_LINE_BYTES`] is refused with its number.
///
/// # Examples
///
/// ```
/// use robotscope::policy::paths::{MAX_PATH_LINE_BYTES, path_lines};
/// assert_eq!(path_lines(b"/a\n\n# rows\r\n  https://example.com/b \n").unwrap(), ["/a", "https://example.com/b"]);
/// assert_eq!(path_lines(&[b'x'; 70_000]).unwrap_err().line(), 1);
/// // The longest line there may be, ended by CR LF.
/// let longest = [&[b'/'; MAX_PATH_LINE_BYTES][..], b"\r\n"].concat();
/// assert_eq!(path_lines(&longest).unwrap().len(), 1);
/// ```
pub fn path_lines(text: &[u8]) -> Result<Vec<String>, LongPathLine> {
    let mut paths = Vec::new();
    for (index, line) in text.split(|&b| b == b'\n').enumerate() {
        // A line is measured without its line end, CR LF as LF, as `check` measures it.
        if line.strip_suffix(b"\r").unwrap_or(line).len() > MAX_PATH_LINE_BYTES {
            return Err(LongPathLine::at(index + 1));
        }
        if let Some(path) = path_in_line(&line_as_text(line)) {
            paths.push(path.to_owned());
        }
    }
    Ok(paths)
}

/// The path or URL a line of a paths file or of `check`'s standard input holds: the
/// line trimmed (and a byte order mark before it dropped), or none for a blank line or
/// a comment (`#`; a path never starts with one, a fragment is not requested).
#[must_use]
pub fn path_in_line(line: &str) -> Option<&str> {
    let path = line.trim_start_matches('\u{feff}').trim();
    (!path.is_empty() && !path.starts_with('#')).then_some(path)
}

/// A line of bytes as text, bytes that are not UTF-8 percent-encoded as they are
/// (`/\xFF` is `/%FF`, which is what a crawler requests for them, and what a rule with
/// that byte is normalised to).
#[must_use]
pub fn line_as_text(bytes: &[u8]) -> Cow<'_, str> {
    if let Ok(text) = std::str::from_utf8(bytes) {
        return Cow::Borrowed(text);
    }
    let mut text = String::with_capacity(bytes.len() + 8);
    for chunk in bytes.utf8_chunks() {
        text.push_str(chunk.valid());
        for byte in chunk.invalid() {
            let _ = write!(text, "%{byte:02X}");
        }
    }
    Cow::Owned(text)
}
