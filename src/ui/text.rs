//! Untrusted bytes turned into styled spans that are safe to draw: control characters
//! and invalid bytes become visible escapes in the warning style, tabs become spaces.

use ratatui::style::Style;
use ratatui::text::Span;

use crate::app::LineInput;
use crate::policy::escape::{Piece, TAB_STOP_COLUMNS as TAB_STOP, pieces};

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

/// What of a one-line input shows in a field `room` columns wide: the text scrolled so
/// that the cursor stays in view, with `…` where text is hidden, and the cursor's column
/// in the field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputWindow {
    /// The visible text.
    pub text: String,
    /// The cursor's column within it.
    pub cursor: usize,
}

/// The window of `input` for a field `room` columns wide (one column per character).
#[must_use]
pub fn input_window(input: &LineInput, room: usize) -> InputWindow {
    text_window(input.text(), input.cursor(), room)
}

/// The window of `text` for a field `room` columns wide that keeps the character at
/// `cursor` in view.
#[must_use]
pub fn text_window(text: &str, cursor: usize, room: usize) -> InputWindow {
    let chars: Vec<char> = text.chars().collect();
    let room = room.max(2);
    let cursor = cursor.min(chars.len());
    // The first character shown: the cursor stays within the field, with its last
    // column free for it at the end of the text.
    let start = (cursor + 1).saturating_sub(room);
    let end = (start + room).min(chars.len());
    let mut text: String = chars[start..end].iter().collect();
    if start > 0 {
        text.replace_range(..text.chars().next().map_or(0, char::len_utf8), "…");
    }
    if end < chars.len() {
        text.pop();
        text.push('…');
    }
    InputWindow { text, cursor: cursor - start }
}

/// `text` cut to `width` columns with `…` at the end when it is longer.
#[must_use]
pub fn cut_end(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_owned();
    }
    let mut cut: String = text.chars().take(width.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// `text` cut to `width` columns keeping its end, with `…` at the start when it is
/// longer: two long paths that differ only at the end still look different.
#[must_use]
pub fn cut_start(text: &str, width: usize) -> String {
    let count = text.chars().count();
    if count <= width {
        return text.to_owned();
    }
    let skip = count - width.saturating_sub(1);
    std::iter::once('…').chain(text.chars().skip(skip)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::Edit;

    #[test]
    fn a_long_input_scrolls_to_keep_the_cursor_in_view() {
        let long = format!("/{}", "a".repeat(300));
        let input = LineInput::with_text(&long);
        let window = input_window(&input, 20);
        assert_eq!(window.text.chars().count(), 19, "the last column is the cursor's");
        assert!(window.text.starts_with('…'));
        assert_eq!(window.cursor, 19);
        let mut input = input;
        input.apply(Edit::Home);
        let window = input_window(&input, 20);
        assert!(window.text.starts_with("/a") && window.text.ends_with('…'));
        assert_eq!(window.cursor, 0);
    }

    #[test]
    fn cuts_keep_the_start_or_the_end() {
        assert_eq!(cut_end("/abcdef", 4), "/ab…");
        assert_eq!(cut_start("/abcdef", 4), "…def");
        assert_eq!(cut_start("/ab", 4), "/ab");
    }
}
