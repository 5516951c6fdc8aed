//! The editor pane's state: a `ratatui-textarea` holding the file's lines, and how to
//! turn them back into the file's bytes with its own line ends.
//!
//! The text area works on lines of `String`; the file's line end (LF, CR LF or CR, the
//! one most of its lines use) and whether it ended with one are remembered, so that an
//! edit changes only what the user changed.

use ratatui::style::Style;
use ratatui_textarea::TextArea;

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
}

impl Editor {
    /// Opens an editor on `source`; refuses text that is unsafe to show, and text that
    /// is not UTF-8 unless `lossy` is true.
    pub fn open(source: &[u8], lossy: bool) -> Result<Editor, EditorRefusal> {
        let lines = lex::lex(source);
        for line in &lines {
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
        Ok(Editor { textarea, line_end, final_line_end })
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
}
