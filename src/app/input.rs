//! A one-line text input with a cursor and optional history: what every prompt edits
//! (the tester's path, a robot's name, a file, a search).

/// An edit to a line of text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edit {
    /// Insert a character at the cursor.
    Insert(char),
    /// Delete the character before the cursor.
    Backspace,
    /// Delete the character under the cursor.
    Delete,
    /// Delete the word before the cursor (Ctrl-W).
    DeleteWord,
    /// Delete everything (Ctrl-U).
    Clear,
    /// Move the cursor one character left.
    Left,
    /// Move the cursor one character right.
    Right,
    /// Move the cursor to the start.
    Home,
    /// Move the cursor to the end.
    End,
    /// Replace the text with the previous history entry.
    HistoryPrevious,
    /// Replace the text with the next history entry (or what was being typed).
    HistoryNext,
}

/// The longest line an input accepts: far beyond any real URL, and small enough that a
/// paste of a whole file cannot make every keystroke slow.
pub const MAX_INPUT_CHARS: usize = 8 * 1024;

/// The most history entries kept.
const MAX_HISTORY: usize = 200;

/// A line of text being edited.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LineInput {
    text: String,
    /// Cursor position in characters.
    cursor: usize,
    history: Vec<String>,
    /// While browsing history: the entry shown and the text typed before browsing.
    browsing: Option<(usize, String)>,
    /// The whole text is selected: typing replaces it, a deletion clears it, a move
    /// keeps it.
    selected: bool,
}

impl LineInput {
    /// An input holding `text`, cursor at the end.
    #[must_use]
    pub fn with_text(text: &str) -> LineInput {
        let mut input = LineInput::default();
        input.set_text(text);
        input
    }

    /// The text.
    #[must_use]
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The cursor position, in characters.
    #[must_use]
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// Past entries, oldest first.
    #[must_use]
    pub fn history(&self) -> &[String] {
        &self.history
    }

    /// True when the whole text is selected, so that typing replaces it.
    #[must_use]
    pub fn is_selected(&self) -> bool {
        self.selected && !self.text.is_empty()
    }

    /// Selects the whole text: the next character typed replaces it.
    pub fn select_all(&mut self) {
        self.selected = true;
        self.cursor = self.text.chars().count();
    }

    /// Replaces the text and puts the cursor at the end.
    pub fn set_text(&mut self, text: &str) {
        self.text = text.chars().filter(|c| !c.is_control()).take(MAX_INPUT_CHARS).collect();
        self.cursor = self.text.chars().count();
        self.browsing = None;
        self.selected = false;
    }

    /// Applies an edit; returns true when the text changed.
    pub fn apply(&mut self, edit: Edit) -> bool {
        let before = self.text.clone();
        if std::mem::take(&mut self.selected) {
            match edit {
                Edit::Insert(c) if !c.is_control() => self.text.clear(),
                Edit::Backspace | Edit::Delete | Edit::DeleteWord => self.text.clear(),
                _ => {}
            }
            self.cursor = self.cursor.min(self.text.chars().count());
        }
        match edit {
            Edit::Insert(c) if !c.is_control() && self.text.chars().count() < MAX_INPUT_CHARS => {
                let at = self.byte_at(self.cursor);
                self.text.insert(at, c);
                self.cursor += 1;
            }
            Edit::Backspace if self.cursor > 0 => {
                self.cursor -= 1;
                let at = self.byte_at(self.cursor);
                self.text.remove(at);
            }
            Edit::Delete if self.cursor < self.text.chars().count() => {
                let at = self.byte_at(self.cursor);
                self.text.remove(at);
            }
            Edit::Insert(_) | Edit::Backspace | Edit::Delete => {}
            Edit::DeleteWord => {
                let chars: Vec<char> = self.text.chars().collect();
                let mut start = self.cursor;
                while start > 0 && chars[start - 1] == ' ' {
                    start -= 1;
                }
                while start > 0 && !matches!(chars[start - 1], ' ' | '/') {
                    start -= 1;
                }
                if start == self.cursor && start > 0 {
                    start -= 1;
                }
                let (from, to) = (self.byte_at(start), self.byte_at(self.cursor));
                self.text.replace_range(from..to, "");
                self.cursor = start;
            }
            Edit::Clear => {
                self.text.clear();
                self.cursor = 0;
            }
            Edit::Left => self.cursor = self.cursor.saturating_sub(1),
            Edit::Right => self.cursor = (self.cursor + 1).min(self.text.chars().count()),
            Edit::Home => self.cursor = 0,
            Edit::End => self.cursor = self.text.chars().count(),
            Edit::HistoryPrevious => self.browse(true),
            Edit::HistoryNext => self.browse(false),
        }
        before != self.text
    }

    /// Records the current text in the history (most recent last, no duplicates).
    pub fn commit_to_history(&mut self) {
        self.browsing = None;
        self.selected = false;
        if self.text.trim().is_empty() {
            return;
        }
        self.history.retain(|entry| entry != &self.text);
        self.history.push(self.text.clone());
        if self.history.len() > MAX_HISTORY {
            self.history.remove(0);
        }
    }

    fn browse(&mut self, older: bool) {
        let position = match (&self.browsing, older) {
            (None, true) if !self.history.is_empty() => {
                self.browsing = Some((self.history.len(), self.text.clone()));
                // The newest entry is often what the field holds already: show the one
                // before it, so that the first key visibly does something.
                let newest = self.history.len() - 1;
                if self.history[newest] == self.text { newest.saturating_sub(1) } else { newest }
            }
            (Some((at, _)), true) => at.saturating_sub(1),
            (Some((at, _)), false) if at + 1 < self.history.len() => at + 1,
            (Some(_), false) => {
                // Past the newest entry: back to what was being typed.
                if let Some((_, typed)) = self.browsing.take() {
                    self.text = typed;
                    self.cursor = self.text.chars().count();
                }
                return;
            }
            (None, _) => return,
        };
        if let Some((at, _)) = &mut self.browsing {
            *at = position;
        }
        self.text = self.history[position].clone();
        self.cursor = self.text.chars().count();
    }

    fn byte_at(&self, chars: usize) -> usize {
        self.text.char_indices().nth(chars).map_or(self.text.len(), |(at, _)| at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(text: &str) -> LineInput {
        let mut input = LineInput::default();
        for c in text.chars() {
            input.apply(Edit::Insert(c));
        }
        input
    }

    #[test]
    fn editing_at_the_cursor() {
        let mut input = typed("/abc");
        input.apply(Edit::Left);
        input.apply(Edit::Backspace);
        assert_eq!(input.text(), "/ac");
        input.apply(Edit::Home);
        input.apply(Edit::Delete);
        assert_eq!(input.text(), "ac");
        assert_eq!(input.cursor(), 0);
        input.apply(Edit::End);
        input.apply(Edit::Insert('é'));
        assert_eq!(input.text(), "acé");
    }

    #[test]
    fn delete_word_stops_at_slashes() {
        let mut input = typed("/a/bcd");
        input.apply(Edit::DeleteWord);
        assert_eq!(input.text(), "/a/");
        input.apply(Edit::DeleteWord);
        assert_eq!(input.text(), "/a");
    }

    #[test]
    fn history_browses_and_returns_to_the_typed_text() {
        let mut input = typed("/one");
        input.commit_to_history();
        input.set_text("/two");
        input.commit_to_history();
        input.set_text("/draft");
        input.apply(Edit::HistoryPrevious);
        assert_eq!(input.text(), "/two");
        input.apply(Edit::HistoryPrevious);
        assert_eq!(input.text(), "/one");
        input.apply(Edit::HistoryNext);
        input.apply(Edit::HistoryNext);
        assert_eq!(input.text(), "/draft");
    }

    #[test]
    fn a_selected_text_is_replaced_by_typing() {
        let mut input = typed("/old/path");
        input.select_all();
        assert!(input.is_selected());
        input.apply(Edit::Insert('/'));
        input.apply(Edit::Insert('n'));
        assert_eq!(input.text(), "/n");
        input.select_all();
        input.apply(Edit::Left);
        input.apply(Edit::Insert('x'));
        assert_eq!(input.text(), "/xn", "a move keeps the text and ends the selection");
        input.select_all();
        input.apply(Edit::Backspace);
        assert_eq!(input.text(), "");
    }

    #[test]
    fn control_characters_are_refused() {
        let mut input = typed("/a");
        assert!(!input.apply(Edit::Insert('\x1b')));
        assert_eq!(input.text(), "/a");
    }
}
