//! The editor pane's state: the file's lines in a [`LineBuffer`], what the editor's keys
//! do to them, the window of them drawn, and how to turn them back into the file's
//! bytes with its own line ends.
//!
//! The buffer works on lines of `String`, each with its own line end (LF, CR LF or CR,
//! or none on the last), so that an edit changes only what the user changed; a typed
//! line break writes the end most of the file's lines use.

mod buffer;

use std::cell::Cell;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

pub use self::buffer::{Deletion, LineBuffer, Move, Place, char_count};
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

/// The keys [`Editor::key`] reads, as the help lists them, the obvious and the Emacs
/// ones left to the README for room (Shift with any move selects).
pub const EDITOR_KEYS: &[(&str, &str)] = &[
    ("S-move C-Spc", "select"),
    ("C-x M-w", "cut, copy the selection"),
    ("C-← C-→", "word back, on"),
    ("C-↑ C-↓", "group above, below"),
    ("C-Home C-End", "text start, end"),
    ("C-w M-d", "delete word back, on"),
    ("C-u C-k", "delete to start, end"),
];

/// What a key asks of the editor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Command {
    /// A move; true: extending the selection (Shift held).
    Go(Move, bool),
    /// Lines up (negative) or down.
    Rows(isize, bool),
    /// Pages up (negative) or down.
    Pages(isize, bool),
    /// Ctrl-Space: moves select from here on.
    Mark,
    /// A character typed (`\n` for Enter).
    Type(char),
    /// A deletion.
    Delete(Deletion),
    /// The selection, to the clipboard and out of the text.
    Cut,
    /// The selection, to the clipboard.
    Copy,
}

impl Command {
    /// What `key` asks, when it means anything in the editor: the keys of
    /// [`EDITOR_KEYS`].
    fn of(key: KeyEvent) -> Option<Command> {
        let control = key.modifiers.contains(KeyModifiers::CONTROL);
        let alt = key.modifiers.contains(KeyModifiers::ALT);
        let shift = key.modifiers.contains(KeyModifiers::SHIFT);
        let go = |to| Some(Command::Go(to, shift));
        match (key.code, control, alt) {
            (KeyCode::Left, false, false) | (KeyCode::Char('b'), true, false) => go(Move::Left),
            (KeyCode::Right, false, false) | (KeyCode::Char('f'), true, false) => go(Move::Right),
            (KeyCode::Left, true, _) | (KeyCode::Char('b'), false, true) => go(Move::WordLeft),
            (KeyCode::Right, true, _) | (KeyCode::Char('f'), false, true) => go(Move::WordRight),
            (KeyCode::Home, false, _) | (KeyCode::Char('a'), true, false) => go(Move::LineStart),
            (KeyCode::End, false, _) | (KeyCode::Char('e'), true, false) => go(Move::LineEnd),
            (KeyCode::Up, true, _) | (KeyCode::Char('{'), false, true) => go(Move::BlockUp),
            (KeyCode::Down, true, _) | (KeyCode::Char('}'), false, true) => go(Move::BlockDown),
            (KeyCode::Home, true, _) | (KeyCode::Char('<'), false, true) => go(Move::Top),
            (KeyCode::End, true, _) | (KeyCode::Char('>'), false, true) => go(Move::Bottom),
            (KeyCode::Up, false, false) | (KeyCode::Char('p'), true, false) => Some(Command::Rows(-1, shift)),
            (KeyCode::Down, false, false) | (KeyCode::Char('n'), true, false) => Some(Command::Rows(1, shift)),
            (KeyCode::PageUp, false, false) | (KeyCode::Char('v'), false, true) => Some(Command::Pages(-1, shift)),
            (KeyCode::PageDown, false, false) | (KeyCode::Char('v'), true, false) => Some(Command::Pages(1, shift)),
            (KeyCode::Char(' '), true, false) => Some(Command::Mark),
            (KeyCode::Backspace, false, false) | (KeyCode::Char('h'), true, false) => {
                Some(Command::Delete(Deletion::CharBack))
            }
            (KeyCode::Delete, false, false) | (KeyCode::Char('d'), true, false) => {
                Some(Command::Delete(Deletion::CharForward))
            }
            (KeyCode::Backspace, false, true) | (KeyCode::Char('w'), true, false) => {
                Some(Command::Delete(Deletion::WordBack))
            }
            (KeyCode::Delete | KeyCode::Char('d'), false, true) => Some(Command::Delete(Deletion::WordForward)),
            (KeyCode::Char('u'), true, false) => Some(Command::Delete(Deletion::ToLineStart)),
            (KeyCode::Char('k'), true, false) => Some(Command::Delete(Deletion::ToLineEnd)),
            (KeyCode::Char('x'), true, false) => Some(Command::Cut),
            (KeyCode::Char('w'), false, true) => Some(Command::Copy),
            // A terminal in raw mode reads LF as Ctrl-J: a line break typed or sent
            // without bracketed paste (Emacs binds C-j to a line break too).
            (KeyCode::Enter, false, false) | (KeyCode::Char('m' | 'j'), true, false) => Some(Command::Type('\n')),
            (KeyCode::Tab, false, false) => Some(Command::Type('\t')),
            // Ctrl and Alt together are AltGr on some terminals: a character all the same.
            (KeyCode::Char(c), false, false) | (KeyCode::Char(c), true, true) => Some(Command::Type(c)),
            _ => None,
        }
    }
}

/// What a key did in the editor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Keyed {
    /// It means nothing here.
    Ignored,
    /// It moved the cursor or the selection.
    Moved,
    /// It changed the text.
    Edited,
    /// Ctrl-X or Alt-W: the selected text, for the clipboard (`cut`: and taken out of
    /// the text).
    Copy {
        /// The text selected.
        text: String,
        /// True when it was cut.
        cut: bool,
    },
    /// Ctrl-X or Alt-W with nothing selected.
    NothingSelected,
    /// Ctrl-Space: true when the mark is now set (moves select), false when dropped.
    Mark(bool),
}

/// The open editor.
#[derive(Debug, Clone)]
pub struct Editor {
    /// The lines, the cursor and the selection.
    buffer: LineBuffer,
    /// The line end a typed line break writes, and a copy carries: the one most of the
    /// file's lines use.
    line_end: &'static str,
    /// True when the text opened empty: left empty, it stays so (not one line end).
    opened_empty: bool,
    /// The part of the text last drawn; the next drawing moves it only as far as the
    /// cursor needs.
    window: Cell<EditorWindow>,
    /// True when the lines hold keys the document has not been parsed from yet (see
    /// `App::settle`).
    unsettled: bool,
}

/// The part of the text the editor pane shows: its first line and, on every line, its
/// first character.
///
/// A frame costs what the window shows, however long the lines are (ratatui-textarea's
/// widget, which the editor drew with before, measured every visible line whole on each
/// frame and counted columns in 16 bits: a line of 10 MB cost half a second a key and
/// scrolled wrong past column 65,535).
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
        let text: Vec<String> =
            lines.iter().map(|line| String::from_utf8_lossy(line.content(source)).into_owned()).collect();
        let written = |end: &LineEnd| match end {
            LineEnd::Lf => "\n",
            LineEnd::CrLf => "\r\n",
            LineEnd::Cr => "\r",
            LineEnd::None => "",
        };
        // An empty text gets a line end once something is typed in it.
        let ends = if source.is_empty() { vec![line_end] } else { ends.iter().map(written).collect() };
        Editor {
            buffer: LineBuffer::with_ends(text, ends, line_end),
            line_end,
            opened_empty: source.is_empty(),
            window: Cell::default(),
            unsettled: false,
        }
    }

    /// The lines, without their line ends.
    #[must_use]
    pub fn lines(&self) -> &[String] {
        self.buffer.lines()
    }

    /// The cursor: its line and its character (0-based).
    #[must_use]
    pub fn cursor(&self) -> (usize, usize) {
        (self.buffer.cursor().row, self.buffer.cursor_column())
    }

    /// A key typed in the editor, with `page` the lines a page key moves.
    pub fn key(&mut self, key: KeyEvent, page: usize) -> Keyed {
        let Some(command) = Command::of(key) else { return Keyed::Ignored };
        let buffer = &mut self.buffer;
        let edited = |changed: bool| if changed { Keyed::Edited } else { Keyed::Ignored };
        let page = isize::try_from(page.max(1)).unwrap_or(isize::MAX);
        match command {
            Command::Go(to, extend) => buffer.go(to, extend),
            Command::Rows(rows, extend) => buffer.go_rows(rows, extend),
            Command::Pages(pages, extend) => {
                // The window moves with the cursor, a page at a time, as pagers do.
                let before = buffer.cursor().row;
                buffer.go_rows(pages.saturating_mul(page), extend);
                let window = self.window.get();
                let top = if buffer.cursor().row >= before {
                    window.top + (buffer.cursor().row - before)
                } else {
                    window.top.saturating_sub(before - buffer.cursor().row)
                };
                // Never past the last page: the text's end stays at the pane's foot.
                let top = top.min(buffer.lines().len().saturating_sub(usize::try_from(page).unwrap_or(usize::MAX)));
                self.window.set(EditorWindow { top, ..window });
            }
            Command::Mark => {
                buffer.toggle_mark();
                return Keyed::Mark(buffer.is_marking());
            }
            Command::Type(c) => return edited(buffer.insert(c.encode_utf8(&mut [0; 4]))),
            Command::Delete(what) => return edited(buffer.delete(what).is_some()),
            // The clipboard gets the file's own line ends.
            Command::Cut => {
                let Some(text) = buffer.cut() else { return Keyed::NothingSelected };
                return Keyed::Copy { text: text.replace('\n', self.line_end), cut: true };
            }
            Command::Copy => {
                let Some(text) = buffer.selected_text() else { return Keyed::NothingSelected };
                buffer.cancel_selection();
                return Keyed::Copy { text: text.replace('\n', self.line_end), cut: false };
            }
        }
        Keyed::Moved
    }

    /// True when `key` types or deletes one character inside the cursor's line, and
    /// does nothing else: the lines stay where they are, and no selection goes.
    #[must_use]
    pub fn edits_in_line(&self, key: KeyEvent) -> bool {
        let Place { row, byte } = self.buffer.cursor();
        let in_line = match Command::of(key) {
            Some(Command::Type(c)) => c != '\n',
            Some(Command::Delete(Deletion::CharBack)) => byte > 0,
            Some(Command::Delete(Deletion::CharForward)) => byte < self.lines()[row].len(),
            _ => false,
        };
        in_line && self.buffer.selection().is_none()
    }

    /// Notes that the lines changed and the document has yet to follow.
    pub fn unsettle(&mut self) {
        self.unsettled = true;
    }

    /// The text, when the document has yet to follow the lines (once).
    pub fn take_unsettled(&mut self) -> Option<Vec<u8>> {
        std::mem::take(&mut self.unsettled).then(|| self.text())
    }

    /// Types `text` at the cursor (over the selection); `\n` breaks the line. False when
    /// nothing changed.
    pub fn insert(&mut self, text: &str) -> bool {
        self.buffer.insert(text)
    }

    /// The selected text, lines joined by LF.
    #[must_use]
    pub fn selected_text(&self) -> Option<String> {
        self.buffer.selected_text()
    }

    /// Drops the selection; true if there was one.
    pub fn cancel_selection(&mut self) -> bool {
        self.buffer.cancel_selection()
    }

    /// The window of `height` lines and `width` columns to draw: the cursor in view, and
    /// otherwise where the last one was. Remembered for the next frame.
    pub fn follow_cursor(&self, height: usize, width: usize) -> EditorWindow {
        let (row, column) = self.cursor();
        let last = self.window.get();
        let top = if row < last.top { row } else { last.top.max((row + 1).saturating_sub(height.max(1))) };
        let line = &self.lines()[row];
        let window = EditorWindow { top, left: left_edge(line, column, last.left, width.max(1)) };
        self.window.set(window);
        window
    }

    /// The characters of line `row` that are selected (`start..end`, in characters;
    /// `end` past the line's last character when the selection goes on to the next).
    #[must_use]
    pub fn selected_on(&self, row: usize) -> Option<std::ops::Range<usize>> {
        let bytes = self.buffer.selected_on(row)?;
        let line = &self.lines()[row];
        let start = char_count(&line[..bytes.start]);
        let end = if bytes.end == usize::MAX { usize::MAX } else { start + char_count(&line[bytes.start..bytes.end]) };
        Some(start..end)
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
        self.buffer.jump(row, column, false);
    }

    /// The edited text, with the file's line ends.
    #[must_use]
    pub fn text(&self) -> Vec<u8> {
        let lines = self.lines();
        if self.opened_empty && lines.len() == 1 && lines[0].is_empty() {
            return Vec::new();
        }
        let mut text = Vec::with_capacity(lines.iter().map(|line| line.len() + 2).sum());
        for (line, end) in lines.iter().zip(self.buffer.ends()) {
            text.extend_from_slice(line.as_bytes());
            text.extend_from_slice(end.as_bytes());
        }
        text
    }

    /// The 1-based line the cursor is on.
    #[must_use]
    pub fn cursor_line(&self) -> usize {
        self.buffer.cursor().row + 1
    }
}

/// The line and character (0-based) where `new` stops differing from `old`: after an
/// undo, a redo or a fix, the cursor goes where the text changed (the end of what came
/// back, the place of what went), not where it was.
#[must_use]
pub fn place_of_change(old: &[u8], new: &[u8]) -> (usize, usize) {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let room = old.len().min(new.len()) - prefix;
    let suffix = old.iter().rev().zip(new.iter().rev()).take(room).take_while(|(a, b)| a == b).count();
    let offset = new.len() - suffix;
    let lines = lex::lex(new);
    let Some(last) = lines.len().checked_sub(1) else { return (0, 0) };
    let row = lines.partition_point(|line| line.end() <= offset).min(last);
    let line = &lines[row];
    let within = offset.clamp(line.start(), line.content_end()) - line.start();
    (row, char_count(&String::from_utf8_lossy(&line.content(new)[..within])))
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
    fn the_place_of_a_change_is_where_the_text_differs() {
        // Undoing typing: where it began; redoing it: where it ended.
        assert_eq!(place_of_change(b"a\nbXYZc\n", b"a\nbc\n"), (1, 1));
        assert_eq!(place_of_change(b"a\nbc\n", b"a\nbXYZc\n"), (1, 4));
        // A line break undone; lines pasted and undone.
        assert_eq!(place_of_change(b"ab\r\ncd\r\n", b"abcd\r\n"), (0, 2));
        assert_eq!(place_of_change(b"x\n1\n2\n3\ny\n", b"x\ny\n"), (1, 0));
        assert_eq!(place_of_change(b"caf\xc3\xa9!", "café?".as_bytes()), (0, 5));
        assert_eq!(place_of_change(b"same", b"same"), (0, 4));
        assert_eq!(place_of_change(b"x", b""), (0, 0));
    }

    #[test]
    fn round_trips_line_ends() {
        for text in ["a\nb\n", "a\r\nb\r\n", "a\rb", "", "one line", "\n", "\r\n\r\n", "a\r\nb\nc\rd"] {
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
    fn moves_past_sixteen_bits() {
        let text: String = (0..70_000).map(|n| n.to_string() + "\n").collect();
        let mut editor = Editor::open(text.as_bytes(), false).expect("opens");
        editor.move_to(69_000, 2);
        assert_eq!(editor.cursor(), (69_000, 2));
        // Past a short line on the way, the column is still the one asked for.
        let text: String =
            (0..70_000).map(|n| if n == 65_535 { "\n".to_owned() } else { n.to_string() + "\n" }).collect();
        let mut editor = Editor::open(text.as_bytes(), false).expect("opens");
        editor.move_to(69_000, 3);
        assert_eq!(editor.cursor(), (69_000, 3));
        let long = format!("{}\n", "x".repeat(70_000));
        let mut editor = Editor::open(long.as_bytes(), false).expect("opens");
        editor.move_to(0, 70_000);
        assert_eq!(editor.cursor(), (0, 70_000));
        assert_eq!(editor.follow_cursor(10, 20), EditorWindow { top: 0, left: 69_981 });
    }
}
