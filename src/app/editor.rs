//! The editor pane's state: a `ratatui-textarea` holding the file's lines, and how to
//! turn them back into the file's bytes with its own line ends.
//!
//! The text area works on lines of `String`; the file's line end (LF, CR LF or CR, the
//! one most of its lines use) and whether it ended with one are remembered, so that an
//! edit changes only what the user changed.

use std::cell::Cell;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::Style;
use ratatui_textarea::{CursorMove, DataCursor, TextArea};

use crate::policy::escape::{TAB_STOP_COLUMNS, char_columns};
use crate::policy::lex::{self, LineEnd};

/// Why the editor would not open.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditorRefusal {
    /// The text holds control or bidi characters, which must never reach the terminal.
    #[error("line {0} holds control or invisible characters; fix them first (f on that line, or F), then edit")]
    ControlCharacters(usize),
    /// The text is not UTF-8; editing would replace the bad bytes with U+FFFD.
    #[error("line {0} is not UTF-8; editing replaces those bytes with \u{FFFD} (press e again to edit anyway)")]
    NotUtf8(usize),
}

/// The open editor.
#[derive(Debug, Clone)]
pub struct Editor {
    /// The text area (lines, cursor, undo history).
    pub textarea: TextArea<'static>,
    /// The line end written between lines.
    line_end: &'static str,
    /// Whether the text ends with a line end.
    final_line_end: bool,
    /// The part of the text last drawn; the next drawing moves it only as far as the
    /// cursor needs.
    window: Cell<EditorWindow>,
}

/// The part of the text the editor pane shows: its first line and, on every line, its
/// first character.
///
/// The pane draws the text itself rather than through ratatui-textarea's widget, which
/// measures every visible line whole on each frame and counts columns in 16 bits: a
/// line of 10 MB cost half a second a key and scrolled wrong past column 65,535. Here a
/// frame costs what the window shows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EditorWindow {
    /// The first line shown (0-based).
    pub top: usize,
    /// The first character shown on each line (0-based, in characters).
    pub left: usize,
}

impl Editor {
    /// Opens an editor on `source`; refuses text that is unsafe to show, and text that
    /// is not UTF-8 unless `lossy` is true.
    pub fn open(source: &[u8], lossy: bool) -> Result<Editor, EditorRefusal> {
        for line in &lex::lex(source) {
            let content = line.content(source);
            // A byte order mark that starts the file is no character of the text (lint
            // speaks of it), and round-trips through the editor.
            let content =
                if line.number() == 1 { content.strip_prefix(lex::UTF8_BOM).unwrap_or(content) } else { content };
            match std::str::from_utf8(content) {
                Ok(text) if text.chars().any(crate::policy::escape::is_unsafe) => {
                    return Err(EditorRefusal::ControlCharacters(line.number()));
                }
                Err(_) if !lossy => return Err(EditorRefusal::NotUtf8(line.number())),
                _ => {}
            }
        }
        Ok(Editor::reopen(source))
    }

    /// An editor on a text the editor held already, changed by undo, redo or a fix:
    /// what the user could type or paste there (control characters, shown escaped) is
    /// no reason to refuse it, and refusing would leave the editor on the old text.
    #[must_use]
    pub fn reopen(source: &[u8]) -> Editor {
        let lines = lex::lex(source);
        let ends: Vec<LineEnd> = lines.iter().map(|line| line.line_end(source)).collect();
        let count = |end| ends.iter().filter(|&&e| e == end).count();
        let line_end = match (count(LineEnd::Lf), count(LineEnd::CrLf), count(LineEnd::Cr)) {
            (lf, crlf, cr) if crlf > lf && crlf >= cr => "\r\n",
            (lf, _, cr) if cr > lf => "\r",
            _ => "\n",
        };
        let final_line_end = ends.last().is_none_or(|&end| end != LineEnd::None);
        let text: Vec<String> =
            lines.iter().map(|line| String::from_utf8_lossy(line.content(source)).into_owned()).collect();
        let mut textarea = TextArea::new(if text.is_empty() { vec![String::new()] } else { text });
        // Line numbers are drawn beside the text area (`ui::source`), which keeps them in
        // place when a long line scrolls the text sideways.
        textarea.set_cursor_line_style(Style::new());
        Editor { textarea, line_end, final_line_end, window: Cell::default() }
    }

    /// The window of `height` lines and `width` columns to draw: the cursor in view, and
    /// otherwise where the last one was. Remembered for the next frame.
    pub fn follow_cursor(&self, height: usize, width: usize) -> EditorWindow {
        let DataCursor(row, column) = self.textarea.cursor();
        let last = self.window.get();
        let top = if row < last.top { row } else { last.top.max((row + 1).saturating_sub(height.max(1))) };
        let line = &self.textarea.lines()[row];
        let window = EditorWindow { top, left: left_edge(line, column, last.left, width.max(1)) };
        self.window.set(window);
        window
    }

    /// Page Up and Page Down (and Emacs's Alt-V and Ctrl-V): the cursor a page of `height`
    /// lines up or down. True when `key` was one of them.
    pub fn page_key(&mut self, key: KeyEvent, height: usize) -> bool {
        let emacs = |c, modifier| key.code == KeyCode::Char(c) && key.modifiers == modifier;
        let DataCursor(row, column) = self.textarea.cursor();
        let row = if key.code == KeyCode::PageDown || emacs('v', KeyModifiers::CONTROL) {
            row + height
        } else if key.code == KeyCode::PageUp || emacs('v', KeyModifiers::ALT) {
            row.saturating_sub(height)
        } else {
            return false;
        };
        // Shift extends the selection, as with the other moves; a page key without it
        // ends one (it would extend a selection the user may have forgotten).
        if !key.modifiers.contains(KeyModifiers::SHIFT) {
            self.textarea.cancel_selection();
        }
        self.move_to(row, column);
        true
    }

    /// The characters of line `row` that are selected (`start..end`, in characters;
    /// `end` past the line's last character when the selection goes on to the next).
    #[must_use]
    pub fn selected_on(&self, row: usize) -> Option<std::ops::Range<usize>> {
        let ((first_row, first_column), (last_row, last_column)) = self.textarea.selection_range()?;
        if row < first_row || row > last_row {
            return None;
        }
        let start = if row == first_row { first_column } else { 0 };
        let end = if row == last_row { last_column } else { usize::MAX };
        (start < end).then_some(start..end)
    }

    /// The part of the text last drawn.
    #[must_use]
    pub fn window(&self) -> EditorWindow {
        self.window.get()
    }

    /// Shows the text from line `top` (0-based) until the cursor needs otherwise: the
    /// editor opens where the source pane was.
    pub fn show_from(&self, top: usize) {
        self.window.set(EditorWindow { top, left: 0 });
    }

    /// Moves the cursor to `row`, `column` (0-based, in characters), as near as the text
    /// allows.
    pub fn move_to(&mut self, row: usize, column: usize) {
        let clamp = |n: usize| u16::try_from(n).unwrap_or(u16::MAX);
        if u16::try_from(row).is_ok() {
            self.textarea.move_cursor(CursorMove::Jump(clamp(row), clamp(column)));
        } else {
            // The text area jumps to 16-bit places only: the rest of the way one line
            // at a time, from the start of a line (a Down keeps the column it can).
            self.textarea.move_cursor(CursorMove::Jump(u16::MAX, 0));
            for _ in usize::from(u16::MAX)..row.min(self.textarea.lines().len().saturating_sub(1)) {
                self.textarea.move_cursor(CursorMove::Down);
            }
            let reached = self.textarea.cursor().0;
            let length = self.textarea.lines()[reached].chars().count();
            for _ in 0..column.min(length).min(usize::from(u16::MAX)) {
                self.textarea.move_cursor(CursorMove::Forward);
            }
        }
        // A column past 65,535 is taken as the line's end: only a line that long has
        // one, and an edit there usually leaves the cursor at its end.
        if column > usize::from(u16::MAX) {
            self.textarea.move_cursor(CursorMove::End);
        }
    }

    /// The edited text, with the file's line ends.
    #[must_use]
    pub fn text(&self) -> Vec<u8> {
        let lines = self.textarea.lines();
        let mut text = lines.join(self.line_end);
        let empty = lines.len() == 1 && lines[0].is_empty();
        if self.final_line_end && !empty {
            text.push_str(self.line_end);
        }
        text.into_bytes()
    }

    /// The 1-based line the cursor is on.
    #[must_use]
    pub fn cursor_line(&self) -> usize {
        self.textarea.cursor().0 + 1
    }
}

/// The columns a character takes in the editor: a tab takes a whole tab stop, wherever
/// it is, so that a line's characters take the same room at every scroll.
#[must_use]
pub fn editor_columns(c: char) -> usize {
    if c == '\t' { TAB_STOP_COLUMNS } else { char_columns(c) }
}

/// The byte where character `index` of `line` starts (its end past the last).
#[must_use]
pub fn byte_of_char(line: &str, index: usize) -> usize {
    // A line that is ASCII up to there (nearly every robots.txt) is indexed directly,
    // after a scan that runs at memory speed.
    if index <= line.len() && line.as_bytes()[..index].is_ascii() {
        return index;
    }
    line.char_indices().nth(index).map_or(line.len(), |(byte, _)| byte)
}

/// The first character to show of `line` so that the one at `cursor` (or the cell past
/// the end) fits in `width` columns: `last` when it still does, else the cursor as far
/// right as it goes. Costs the window's width, not the line's length.
fn left_edge(line: &str, cursor: usize, last: usize, width: usize) -> usize {
    let (before, from_cursor) = line.split_at(byte_of_char(line, cursor));
    let at_cursor = from_cursor.chars().next().map_or(1, editor_columns).max(1);
    // The line's start, when the cursor shows from there: a short line is never shown
    // scrolled because a long one was.
    if columns_of(line.chars(), cursor, width) + at_cursor <= width {
        return 0;
    }
    if cursor < last {
        return cursor;
    }
    if columns_of(line[byte_of_char(line, last)..].chars(), cursor - last, width) + at_cursor <= width {
        return last;
    }
    // The cursor in the last column: back from it as far as the width goes.
    let mut used = at_cursor;
    let mut left = cursor;
    for c in before.chars().rev().take(most_chars(width)) {
        used += editor_columns(c);
        if used > width {
            break;
        }
        left -= 1;
    }
    left
}

/// The most characters a window `width` columns wide is taken to show: characters that
/// take no column (combining marks) could otherwise make a line of them cost its length.
#[must_use]
pub fn most_chars(width: usize) -> usize {
    width * 4 + 16
}

/// The columns the next `count` characters of `chars` take (past the end, a column
/// each), up to `width`; `width` when there are more characters than a window shows.
fn columns_of(mut chars: impl Iterator<Item = char>, count: usize, width: usize) -> usize {
    let mut columns = 0;
    for taken in 0..count {
        if taken >= most_chars(width) {
            return width;
        }
        columns += chars.next().map_or(1, editor_columns);
        if columns >= width {
            return columns;
        }
    }
    columns
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_line_ends() {
        for text in ["a\nb\n", "a\r\nb\r\n", "a\rb", "", "one line"] {
            let editor = Editor::open(text.as_bytes(), false).expect("opens");
            assert_eq!(editor.text(), text.as_bytes(), "{text:?}");
        }
    }

    #[test]
    fn a_byte_order_mark_at_the_start_is_no_reason_to_refuse() {
        let text = "\u{feff}User-agent: *\nDisallow: /\n";
        assert_eq!(Editor::open(text.as_bytes(), false).expect("opens").text(), text.as_bytes());
        assert_eq!(Editor::open("a\nb\u{200b}c\n".as_bytes(), false).err(), Some(EditorRefusal::ControlCharacters(2)));
    }

    #[test]
    fn refuses_unsafe_text() {
        assert_eq!(Editor::open(b"a\n\x1b[2J\n", false).err(), Some(EditorRefusal::ControlCharacters(2)));
        assert_eq!(Editor::open(b"caf\xe9\n", false).err(), Some(EditorRefusal::NotUtf8(1)));
        assert!(Editor::open(b"caf\xe9\n", true).is_ok());
    }

    #[test]
    fn the_window_moves_only_as_far_as_the_cursor_needs() {
        let line = "abcdefghij";
        // Shown from the line's start when it fits from there.
        assert_eq!(left_edge(line, 5, 2, 6), 0);
        // In view: where it was.
        assert_eq!(left_edge(line, 8, 4, 6), 4);
        // Left of the window: the window starts at the cursor.
        assert_eq!(left_edge(line, 7, 8, 6), 7);
        // Right of it: the cursor in the last column, the cell past the end included.
        assert_eq!(left_edge(line, 9, 0, 6), 4);
        assert_eq!(left_edge(line, 10, 0, 6), 5);
        // A wide character takes two columns, a tab a tab stop.
        assert_eq!(left_edge("日本語です", 4, 0, 6), 2);
        assert_eq!(left_edge("\t\tab", 3, 0, 6), 1);
        assert_eq!(byte_of_char("日本x", 2), 6);
        assert_eq!(byte_of_char("abc", 7), 3);
    }

    #[test]
    fn moves_past_the_text_areas_sixteen_bits() {
        let text: String = (0..70_000).map(|n| n.to_string() + "\n").collect();
        let mut editor = Editor::open(text.as_bytes(), false).expect("opens");
        editor.move_to(69_000, 2);
        assert_eq!(editor.textarea.cursor(), (69_000, 2));
        // Past a short line on the way, the column is still the one asked for.
        let text: String =
            (0..70_000).map(|n| if n == 65_535 { "\n".to_owned() } else { n.to_string() + "\n" }).collect();
        let mut editor = Editor::open(text.as_bytes(), false).expect("opens");
        editor.move_to(69_000, 3);
        assert_eq!(editor.textarea.cursor(), (69_000, 3));
        let long = format!("{}\n", "x".repeat(70_000));
        let mut editor = Editor::open(long.as_bytes(), false).expect("opens");
        editor.move_to(0, 70_000);
        assert_eq!(editor.textarea.cursor(), (0, 70_000));
        assert_eq!(editor.follow_cursor(10, 20), EditorWindow { top: 0, left: 69_981 });
    }
}
