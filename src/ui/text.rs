//! Untrusted bytes turned into styled spans that are safe to draw: control characters
//! and invalid bytes become visible escapes in the warning style, tabs become spaces.

use ratatui::style::Style;
use ratatui::text::Span;

use crate::policy::escape::{Piece, pieces};

/// Columns a tab advances to (the next multiple of).
const TAB_STOP: usize = 4;

/// Spans for `bytes`, drawn in `style`, escapes in `escape`; `column` is where the text
/// starts on its line, for tab stops, and is advanced past the text.
#[must_use]
pub fn safe_spans(bytes: &[u8], style: Style, escape: Style, column: &mut usize) -> Vec<Span<'static>> {
    let mut spans = Vec::new();
    for piece in pieces(bytes) {
        match piece {
            Piece::Text(text) => {
                let mut expanded = String::with_capacity(text.len());
                for c in text.chars() {
                    if c == '\t' {
                        let spaces = TAB_STOP - *column % TAB_STOP;
                        expanded.extend(std::iter::repeat_n(' ', spaces));
                        *column += spaces;
                    } else {
                        expanded.push(c);
                        *column += 1;
                    }
                }
                spans.push(Span::styled(expanded, style));
            }
            Piece::Escaped(visible) => {
                *column += visible.chars().count();
                spans.push(Span::styled(visible, escape));
            }
        }
    }
    spans
}

/// A string from a file or a server, made safe, as one span.
#[must_use]
pub fn safe_span(text: &str, style: Style, escape: Style) -> Vec<Span<'static>> {
    safe_spans(text.as_bytes(), style, escape, &mut 0)
}

/// At most the bytes of `bytes` that can show in `width` columns: a line of megabytes
/// costs no more to draw than a short one. (Each character takes at least one column
/// and at most four bytes; escapes only make the text wider.)
#[must_use]
pub fn visible_prefix(bytes: &[u8], width: usize) -> &[u8] {
    &bytes[..bytes.len().min(width.saturating_mul(4))]
}

/// `spans` without their first `columns` characters: a line scrolled sideways.
#[must_use]
pub fn skip_columns(spans: Vec<Span<'static>>, mut columns: usize) -> Vec<Span<'static>> {
    if columns == 0 {
        return spans;
    }
    let mut kept = Vec::with_capacity(spans.len());
    for span in spans {
        let length = span.content.chars().count();
        if columns >= length {
            columns -= length;
            continue;
        }
        let rest: String = span.content.chars().skip(columns).collect();
        columns = 0;
        kept.push(Span::styled(rest, span.style));
    }
    kept
}
