//! Untrusted bytes turned into styled spans that are safe to draw: control characters
//! and invalid bytes become visible escapes in the warning style, tabs become spaces.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::app::LineInput;
use crate::policy::escape::{Piece, TAB_STOP_COLUMNS as TAB_STOP, char_columns, display_width, pieces};

/// A line of a unified diff, safe to draw: added lines in the allowed colour, removed
/// ones in the disallowed colour, hunk headers as headings.
#[must_use]
pub fn diff_line(line: &str) -> Line<'static> {
    let style = match line.as_bytes().first() {
        Some(b'+') => super::theme::THEME.allowed,
        Some(b'-') => super::theme::THEME.disallowed,
        Some(b'@') => super::theme::THEME.heading,
        _ => super::theme::THEME.value,
    };
    Line::from(safe_span(line, style, super::theme::THEME.escape))
}

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
    let mut end = bytes.len().min(width.saturating_mul(4));
    // Not inside a character: its first bytes alone would show as an invalid byte's
    // escape at the pane's edge.
    for _ in 0..3 {
        if end < bytes.len() && end > 0 && bytes[end] & 0xC0 == 0x80 {
            end -= 1;
        }
    }
    &bytes[..end]
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
/// `cursor` in view, counted in columns as drawn (a wide character takes two, an escape
/// its width): `…` marks hidden text at either end and never covers the cursor.
#[must_use]
pub fn text_window(text: &str, cursor: usize, room: usize) -> InputWindow {
    let chars: Vec<char> = text.chars().collect();
    let widths: Vec<usize> = chars.iter().map(|&c| char_columns(c)).collect();
    let cursor = cursor.min(chars.len());
    let columns = |range: std::ops::Range<usize>| widths[range].iter().sum::<usize>();
    let room = room.max(4);
    if columns(0..chars.len()) < room {
        return InputWindow { text: text.to_owned(), cursor: columns(0..cursor) };
    }
    // Scrolled: a column for a mark at each end, the rest for text, the cursor's cell as
    // far right as it can be.
    let inner = room - 2;
    let cursor_cell = widths.get(cursor).copied().unwrap_or(1);
    let mut start = cursor;
    while start > 0 && columns(start - 1..cursor) + cursor_cell <= inner {
        start -= 1;
    }
    let mut end = (cursor + 1).min(chars.len());
    while end < chars.len() && columns(start..end + 1) <= inner {
        end += 1;
    }
    let mut shown = String::new();
    if start > 0 {
        shown.push('…');
    }
    shown.extend(&chars[start..end]);
    if end < chars.len() {
        shown.push('…');
    }
    InputWindow { text: shown, cursor: usize::from(start > 0) + columns(start..cursor) }
}

/// Styled text wrapped at its spaces to `width` columns, each line after the first
/// indented by `indent` spaces, so that a sentence never breaks mid-word and its
/// continuation reads as one (issue 35, at 80x24). A word longer than a line is cut.
/// The spans are drawn as given: escape them first ([`safe_span`]).
#[must_use]
pub fn wrap_spans(spans: &[Span<'static>], width: usize, indent: usize) -> Vec<Line<'static>> {
    let width = width.max(indent + 8);
    let mut lines: Vec<Line<'static>> = Vec::new();
    let mut line: Vec<Span<'static>> = Vec::new();
    let mut used = 0;
    // Just broken: the space the break took is not written again.
    let mut broken = false;
    let columns = |text: &str| text.chars().map(char_columns).sum::<usize>();
    for span in spans {
        for (index, word) in span.content.split(' ').enumerate() {
            let space = usize::from(index > 0 && !broken);
            let word_columns = columns(word);
            if used > 0 && used + space + word_columns > width && !word.is_empty() {
                lines.push(Line::from(std::mem::take(&mut line)));
                line.push(Span::raw(" ".repeat(indent)));
                used = indent;
                broken = true;
            } else if space == 1 {
                line.push(Span::styled(" ", span.style));
                used += 1;
            }
            let mut rest = word;
            // A word longer than a line: cut where the line ends.
            while used + columns(rest) > width && !rest.is_empty() {
                let mut taken = 0;
                let at = rest
                    .char_indices()
                    .find(|&(_, c)| {
                        taken += char_columns(c);
                        used + taken > width
                    })
                    .map_or(rest.len(), |(at, _)| at.max(rest.chars().next().map_or(1, char::len_utf8)));
                line.push(Span::styled(rest[..at].to_owned(), span.style));
                lines.push(Line::from(std::mem::take(&mut line)));
                line.push(Span::raw(" ".repeat(indent)));
                used = indent;
                rest = &rest[at..];
            }
            if !rest.is_empty() {
                line.push(Span::styled(rest.to_owned(), span.style));
                used += columns(rest);
                broken = false;
            }
        }
    }
    if !line.is_empty() {
        lines.push(Line::from(line));
    }
    lines
}

/// `text` cut to `width` columns with `…` at the end when it is longer.
#[must_use]
pub fn cut_end(text: &str, width: usize) -> String {
    if display_width(text.as_bytes()) <= width {
        return text.to_owned();
    }
    let mut used = 0;
    let mut cut: String = text
        .chars()
        .take_while(|&c| {
            used += char_columns(c);
            used < width
        })
        .collect();
    cut.push('…');
    cut
}

/// `text` cut to `width` columns keeping its end, with `…` at the start when it is
/// longer: two long paths that differ only at the end still look different.
#[must_use]
pub fn cut_start(text: &str, width: usize) -> String {
    if display_width(text.as_bytes()) <= width {
        return text.to_owned();
    }
    let mut used = 0;
    let mut kept: Vec<char> = text
        .chars()
        .rev()
        .take_while(|&c| {
            used += char_columns(c);
            used < width
        })
        .collect();
    kept.push('…');
    kept.into_iter().rev().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::Edit;

    /// From the review of issue 26: a wide character cut by the prefix showed as a
    /// stray escape (`\`) at the pane's right edge.
    #[test]
    fn the_visible_prefix_never_cuts_a_character() {
        for x in 0..12 {
            let line = format!("/{}{}", "x".repeat(x), "語".repeat(60));
            let prefix = visible_prefix(line.as_bytes(), 20);
            assert!(std::str::from_utf8(prefix).is_ok(), "{x}");
            assert!(prefix.len() > 20 * 4 - 4);
        }
    }

    #[test]
    fn a_long_input_scrolls_to_keep_the_cursor_in_view() {
        let long = format!("/{}", "a".repeat(300));
        let input = LineInput::with_text(&long);
        let window = input_window(&input, 20);
        assert!(window.text.chars().count() < 20, "a column is left for the cursor");
        assert!(window.text.starts_with('…'));
        assert_eq!(window.cursor, window.text.chars().count());
        let mut input = input;
        input.apply(Edit::Home);
        let window = input_window(&input, 20);
        assert!(window.text.starts_with("/a") && window.text.ends_with('…'));
        assert_eq!(window.cursor, 0);
        input.apply(Edit::End);
        input.apply(Edit::Left);
        input.apply(Edit::Left);
        let window = input_window(&input, 20);
        let under_cursor = window.text.chars().nth(window.cursor);
        assert_eq!(under_cursor, Some('a'), "the character under the cursor shows: {window:?}");
    }

    #[test]
    fn wide_characters_and_escapes_count_their_columns() {
        let wide = "文字".repeat(40);
        let window = input_window(&LineInput::with_text(&wide), 20);
        assert!(display_width(window.text.as_bytes()) <= 20, "{window:?}");
        assert!(window.cursor < 20);
        let bidi = "/\u{202E}".repeat(20);
        let window = input_window(&LineInput::with_text(&bidi), 30);
        assert!(display_width(window.text.as_bytes()) <= 30, "{window:?}");
        assert_eq!(window.cursor, display_width(window.text.as_bytes()));
        assert!(display_width(cut_start(&wide, 11).as_bytes()) <= 11);
        assert!(display_width(cut_end(&wide, 11).as_bytes()) <= 11);
    }

    /// Issue 35: wrapped at spaces, never mid-word, continuation lines indented, styles
    /// kept.
    #[test]
    fn spans_wrap_at_words_with_an_indent() {
        let spans =
            [Span::raw(" ✗ DISALLOWED  Googlebot"), Span::styled(" line 33: Disallow: /cgi-bin/", Style::default())];
        let lines = wrap_spans(&spans, 30, 3);
        let texts: Vec<String> = lines.iter().map(ToString::to_string).collect();
        assert_eq!(texts, [" ✗ DISALLOWED  Googlebot line", "   33: Disallow: /cgi-bin/"]);
        assert!(texts.iter().all(|line| display_width(line.as_bytes()) <= 30));
        let long = wrap_spans(&[Span::raw("a ".to_owned() + &"b".repeat(50))], 20, 2);
        assert!(long.iter().all(|line| display_width(line.to_string().as_bytes()) <= 20), "{long:?}");
        assert_eq!(long.iter().map(|l| l.to_string().trim().len()).sum::<usize>(), 51);
    }

    #[test]
    fn cuts_keep_the_start_or_the_end() {
        assert_eq!(cut_end("/abcdef", 4), "/ab…");
        assert_eq!(cut_start("/abcdef", 4), "…def");
        assert_eq!(cut_start("/ab", 4), "/ab");
    }
}
