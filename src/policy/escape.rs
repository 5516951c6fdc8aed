//! Untrusted text laid out for a terminal: the columns it takes and whole lines made
//! safe.
//!
//! Which characters are unsafe and how each is written visibly is the core's
//! (`robotscope_core::escape`, re-exported here): every byte of file or server text
//! passes through it before it is drawn or printed (DESIGN.md §7). What this module adds
//! is the terminal's side: the width of text once escaped (wide East Asian characters
//! take two columns, tabs run to a tab stop) and multi-line text with its line ends kept.

pub use robotscope_core::escape::{Piece, is_invisible, is_unsafe, pieces, sanitize, sanitize_str, visible};

/// The columns a character takes once drawn: an unsafe one its escape's width, a wide
/// East Asian one two, a combining mark none, a tab one (where it expands to a tab stop,
/// [`display_width`] counts it).
#[must_use]
pub fn char_columns(c: char) -> usize {
    if c == '\t' {
        1
    } else if is_unsafe(c) {
        visible(c).chars().count()
    } else {
        unicode_width::UnicodeWidthChar::width(c).unwrap_or(0)
    }
}

/// Columns a tab advances to (the next multiple of), in the explorer's source pane.
pub const TAB_STOP_COLUMNS: usize = 4;

/// The columns `bytes` take once drawn: escapes take their visible form's width, tabs
/// run to the next tab stop, other characters take one column (two for the wide East
/// Asian ones).
///
/// # Examples
///
/// ```
/// use robotscope::policy::escape::display_width;
/// assert_eq!(display_width(b"a\x1bb"), 4);
/// assert_eq!(display_width(b"\tx"), 5);
/// assert_eq!(display_width(b"\xFF"), 4);
/// ```
#[must_use]
pub fn display_width(bytes: &[u8]) -> usize {
    let mut column = 0;
    for piece in pieces(bytes) {
        match piece {
            Piece::Text(text) => {
                for c in text.chars() {
                    column += if c == '\t' {
                        TAB_STOP_COLUMNS - column % TAB_STOP_COLUMNS
                    } else {
                        unicode_width::UnicodeWidthChar::width(c).unwrap_or(0)
                    };
                }
            }
            Piece::Escaped(escape) => column += escape.chars().count(),
        }
    }
    column
}

/// Untrusted lines as safe text: like [`sanitize`], but the line feeds that end the
/// lines are kept (a lone CR is escaped: it would move the cursor back over the line).
///
/// # Examples
///
/// ```
/// use robotscope::policy::escape::sanitize_lines;
/// assert_eq!(sanitize_lines(b"a\n\x1b[2J\r\nb"), "a\n^[[2J^M\nb");
/// ```
#[must_use]
pub fn sanitize_lines(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for (index, line) in bytes.split(|&b| b == b'\n').enumerate() {
        if index > 0 {
            out.push('\n');
        }
        out.push_str(&sanitize(line));
    }
    out
}

/// Lines for a program rather than a terminal (a diff that patch(1) applies): like
/// [`sanitize_lines`], but a CR that ends a line is kept, as the line end it is; it
/// cannot move the cursor back over text, since a line feed follows it.
///
/// # Examples
///
/// ```
/// use robotscope::policy::escape::sanitize_lines_keeping_crlf;
/// assert_eq!(sanitize_lines_keeping_crlf(b"a\r\n\x1b[2J\r\rb"), "a\r\n^[[2J^M^Mb");
/// ```
#[must_use]
pub fn sanitize_lines_keeping_crlf(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    let mut lines = bytes.split(|&b| b == b'\n').peekable();
    while let Some(line) = lines.next() {
        let ended = lines.peek().is_some();
        match line.strip_suffix(b"\r") {
            // The last piece has no line feed after it: a CR there stays escaped.
            Some(body) if ended => {
                out.push_str(&sanitize(body));
                out.push('\r');
            }
            _ => out.push_str(&sanitize(line)),
        }
        if ended {
            out.push('\n');
        }
    }
    out
}
