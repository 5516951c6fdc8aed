//! The editor's text: its lines, the cursor, the selection, and the moves and edits the
//! editor's keys make of them.
//!
//! Places are bytes into a line, so that an edit costs what it changes: a key typed at
//! the end of a 10 MB line appends to it. (ratatui-textarea, which the editor used
//! before, counted its places in characters and measured every line of the text again
//! after each edit: 60 ms a key on such a line.) What still costs a line's length is
//! what must read it: a word move across it, or the column a move up or down keeps.

use std::ops::Range;

use super::byte_of_char;

/// A place in the text: a line (0-based) and a byte of it, on a character boundary.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Place {
    /// The line.
    pub row: usize,
    /// The byte of the line.
    pub byte: usize,
}

/// A move of the cursor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    /// One character back (to the end of the line before, from a line's start).
    Left,
    /// One character on (to the start of the next line, from a line's end).
    Right,
    /// To the start of this word, or of the one before.
    WordLeft,
    /// To the end of this word, or of the next one.
    WordRight,
    /// To the line's start.
    LineStart,
    /// To the line's end.
    LineEnd,
    /// To the blank line before this block of lines (in a robots.txt, usually a group).
    BlockUp,
    /// To the blank line after this block of lines.
    BlockDown,
    /// To the text's start.
    Top,
    /// To the text's end.
    Bottom,
}

/// What a deletion takes when nothing is selected (a selection is taken whole).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Deletion {
    /// The character before the cursor (a line break at a line's start).
    CharBack,
    /// The character after the cursor (a line break at a line's end).
    CharForward,
    /// Back to the start of the word.
    WordBack,
    /// On to the end of the word.
    WordForward,
    /// Back to the line's start (the line break before, at the start).
    ToLineStart,
    /// On to the line's end (the line break after, at the end).
    ToLineEnd,
}

/// Lines of text with a cursor and a selection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineBuffer {
    /// Never empty: an empty text is one empty line.
    lines: Vec<String>,
    /// Each line's own line end (`""` for a last line without one): an edit keeps the
    /// ends of the lines it does not break or join, in a file of mixed ends too.
    ends: Vec<&'static str>,
    /// The line end a typed line break writes.
    typed_end: &'static str,
    cursor: Place,
    /// Where the selection started; it runs from here to the cursor.
    anchor: Option<Place>,
    /// True after Ctrl-Space: moves extend the selection without Shift, as Emacs's mark.
    marking: bool,
    /// The column (in characters) that moves up and down keep aiming for, set by the
    /// first of them: a short line on the way does not pull the cursor left for good.
    goal: Option<usize>,
}

impl LineBuffer {
    /// A buffer on `lines`, the cursor at the start.
    #[must_use]
    pub fn new(lines: Vec<String>) -> LineBuffer {
        let ends = vec!["\n"; lines.len()];
        LineBuffer::with_ends(lines, ends, "\n")
    }

    /// A buffer on `lines` ending in `ends` (one each), whose typed line breaks are
    /// `typed_end`.
    #[must_use]
    pub fn with_ends(mut lines: Vec<String>, mut ends: Vec<&'static str>, typed_end: &'static str) -> LineBuffer {
        if lines.is_empty() {
            lines.push(String::new());
        }
        ends.resize(lines.len(), "");
        LineBuffer { lines, ends, typed_end, cursor: Place::default(), anchor: None, marking: false, goal: None }
    }

    /// Each line's line end (`""` for a last line without one).
    #[must_use]
    pub fn ends(&self) -> &[&'static str] {
        &self.ends
    }

    /// The lines, without their line ends.
    #[must_use]
    pub fn lines(&self) -> &[String] {
        &self.lines
    }

    /// The cursor.
    #[must_use]
    pub fn cursor(&self) -> Place {
        self.cursor
    }

    /// The cursor's column, in characters.
    #[must_use]
    pub fn cursor_column(&self) -> usize {
        char_count(&self.lines[self.cursor.row][..self.cursor.byte])
    }

    /// The selection, start first, when it holds anything.
    #[must_use]
    pub fn selection(&self) -> Option<(Place, Place)> {
        let anchor = self.anchor.filter(|&anchor| anchor != self.cursor)?;
        Some((anchor.min(self.cursor), anchor.max(self.cursor)))
    }

    /// The selected text, lines joined by LF.
    #[must_use]
    pub fn selected_text(&self) -> Option<String> {
        let (start, end) = self.selection()?;
        Some(self.text_between(start, end))
    }

    /// The text from `start` to `end` (start first), lines joined by LF.
    fn text_between(&self, start: Place, end: Place) -> String {
        if start.row == end.row {
            return self.lines[start.row][start.byte..end.byte].to_owned();
        }
        let mut text = self.lines[start.row][start.byte..].to_owned();
        for line in &self.lines[start.row + 1..end.row] {
            text.push('\n');
            text.push_str(line);
        }
        text.push('\n');
        text.push_str(&self.lines[end.row][..end.byte]);
        text
    }

    /// The bytes of line `row` that are selected (`end` past the line when the
    /// selection goes on to the next line).
    #[must_use]
    pub fn selected_on(&self, row: usize) -> Option<Range<usize>> {
        let (start, end) = self.selection()?;
        if row < start.row || row > end.row {
            return None;
        }
        let first = if row == start.row { start.byte } else { 0 };
        let last = if row == end.row { end.byte } else { usize::MAX };
        (first < last).then_some(first..last)
    }

    /// Ctrl-Space: starts a selection at the cursor that the moves extend, or drops
    /// the one under way.
    pub fn toggle_mark(&mut self) {
        self.marking = !self.marking;
        self.anchor = self.marking.then_some(self.cursor);
    }

    /// True while the mark is set (Ctrl-Space): moves select.
    #[must_use]
    pub fn is_marking(&self) -> bool {
        self.marking
    }

    /// Drops the selection; true if there was one.
    pub fn cancel_selection(&mut self) -> bool {
        let had = self.selection().is_some() || self.marking;
        self.anchor = None;
        self.marking = false;
        had
    }

    /// Moves the cursor; `extend` (Shift held) extends the selection, else a move ends
    /// it (unless the mark is set).
    pub fn go(&mut self, to: Move, extend: bool) {
        let place = match to {
            Move::Left => self.left_of(self.cursor),
            Move::Right => self.right_of(self.cursor),
            Move::WordLeft => self.word_left_of(self.cursor),
            Move::WordRight => self.word_right_of(self.cursor),
            Move::LineStart => Place { byte: 0, ..self.cursor },
            Move::LineEnd => Place { byte: self.lines[self.cursor.row].len(), ..self.cursor },
            Move::BlockUp => self.block_up(),
            Move::BlockDown => self.block_down(),
            Move::Top => Place::default(),
            Move::Bottom => self.end(),
        };
        self.place_cursor(place, extend);
        self.goal = None;
    }

    /// Moves the cursor `rows` lines down (up, when negative), keeping its column where
    /// the lines allow.
    pub fn go_rows(&mut self, rows: isize, extend: bool) {
        let goal = self.goal.unwrap_or_else(|| self.cursor_column());
        let last = self.lines.len() - 1;
        let row = self.cursor.row.saturating_add_signed(rows).min(last);
        self.jump(row, goal, extend);
        self.goal = Some(goal);
    }

    /// Moves the cursor to line `row`, character `column`, as near as the text allows.
    pub fn jump(&mut self, row: usize, column: usize, extend: bool) {
        let row = row.min(self.lines.len() - 1);
        let place = Place { row, byte: byte_of_char(&self.lines[row], column) };
        self.place_cursor(place, extend);
        self.goal = None;
    }

    /// Types `text` at the cursor, over the selection; `\n` breaks the line. False when
    /// nothing changed.
    pub fn insert(&mut self, text: &str) -> bool {
        let replaced = self.delete_selection();
        if text.is_empty() {
            return replaced;
        }
        let Place { row, byte } = self.cursor;
        let mut pieces = text.split('\n');
        let first = pieces.next().unwrap_or_default();
        let rest: Vec<&str> = pieces.collect();
        let Some((&last, middle)) = rest.split_last() else {
            self.lines[row].insert_str(byte, first);
            self.cursor.byte += first.len();
            return true;
        };
        let tail = self.lines[row].split_off(byte);
        self.lines[row].push_str(first);
        let mut end = last.to_owned();
        let end_byte = end.len();
        end.push_str(&tail);
        let added = middle.iter().map(|&line| line.to_owned()).chain(std::iter::once(end));
        self.lines.splice(row + 1..=row, added);
        // A line break ends as the line it breaks did (CR LF among CR LF lines), and the
        // last part keeps that end; a last line without one gets the file's usual end.
        let broken_end = self.ends[row];
        let typed = if broken_end.is_empty() { self.typed_end } else { broken_end };
        self.ends[row] = typed;
        let added_ends = std::iter::repeat_n(typed, rest.len() - 1).chain(std::iter::once(broken_end));
        self.ends.splice(row + 1..=row, added_ends);
        self.cursor = Place { row: row + rest.len(), byte: end_byte };
        true
    }

    /// Deletes the selection, or else what `what` names; the text taken, when any.
    pub fn delete(&mut self, what: Deletion) -> Option<String> {
        if let Some((start, end)) = self.selection() {
            let taken = self.selected_text();
            self.remove(start, end);
            return taken;
        }
        let cursor = self.cursor;
        let (start, end) = match what {
            Deletion::WordBack => (self.word_left_of(cursor), cursor),
            Deletion::WordForward => (cursor, self.word_right_of(cursor)),
            Deletion::ToLineStart if cursor.byte > 0 => (Place { byte: 0, ..cursor }, cursor),
            Deletion::ToLineEnd if cursor.byte < self.lines[cursor.row].len() => {
                (cursor, Place { byte: self.lines[cursor.row].len(), ..cursor })
            }
            // At the line's start (end), the line break before (after) it.
            Deletion::CharBack | Deletion::ToLineStart => (self.left_of(cursor), cursor),
            Deletion::CharForward | Deletion::ToLineEnd => (cursor, self.right_of(cursor)),
        };
        if start == end {
            return None;
        }
        let taken = self.text_between(start, end);
        self.remove(start, end);
        Some(taken)
    }

    /// Takes the selection out of the text: what Ctrl-X cuts.
    pub fn cut(&mut self) -> Option<String> {
        let taken = self.selected_text()?;
        self.delete_selection();
        Some(taken)
    }

    /// Deletes the selection; true if there was one (a mark with nothing selected yet
    /// goes too).
    fn delete_selection(&mut self) -> bool {
        let Some((start, end)) = self.selection() else {
            self.cancel_selection();
            return false;
        };
        self.remove(start, end);
        true
    }

    /// Removes the text from `start` to `end` (start first); the cursor goes to
    /// `start`, and the selection ends.
    fn remove(&mut self, start: Place, end: Place) {
        if start.row == end.row {
            self.lines[start.row].replace_range(start.byte..end.byte, "");
        } else {
            let tail = self.lines[end.row][end.byte..].to_owned();
            self.lines[start.row].truncate(start.byte);
            self.lines[start.row].push_str(&tail);
            self.lines.drain(start.row + 1..=end.row);
            // The joined line ends as the last line taken did.
            self.ends[start.row] = self.ends[end.row];
            self.ends.drain(start.row + 1..=end.row);
        }
        self.cursor = start;
        self.anchor = None;
        self.marking = false;
        self.goal = None;
    }

    fn place_cursor(&mut self, place: Place, extend: bool) {
        if extend || self.marking {
            self.anchor.get_or_insert(self.cursor);
        } else {
            self.anchor = None;
        }
        self.cursor = place;
    }

    fn end(&self) -> Place {
        let row = self.lines.len() - 1;
        Place { row, byte: self.lines[row].len() }
    }

    /// One character back: a mark that takes no column (a combining accent) goes with
    /// the character it joins, as the pane draws them in one cell.
    fn left_of(&self, place: Place) -> Place {
        let line = &self.lines[place.row];
        let mut chars = line[..place.byte].char_indices().rev();
        match chars.next() {
            Some((mut at, mut c)) => {
                while joins_previous(c) {
                    let Some((before, base)) = chars.next() else { break };
                    (at, c) = (before, base);
                }
                Place { byte: at, ..place }
            }
            None if place.row > 0 => Place { row: place.row - 1, byte: self.lines[place.row - 1].len() },
            None => place,
        }
    }

    /// One character on, with the marks that join it.
    fn right_of(&self, place: Place) -> Place {
        let line = &self.lines[place.row];
        let mut chars = line[place.byte..].char_indices();
        match chars.next() {
            Some((_, c)) => {
                let mut end = c.len_utf8();
                for (at, mark) in chars.take_while(|&(_, c)| joins_previous(c)) {
                    end = at + mark.len_utf8();
                }
                Place { byte: place.byte + end, ..place }
            }
            None if place.row + 1 < self.lines.len() => Place { row: place.row + 1, byte: 0 },
            None => place,
        }
    }

    /// The start of the word the cursor is in or after (past what is not a word
    /// first); from a line's start, the end of the line before.
    fn word_left_of(&self, place: Place) -> Place {
        if place.byte == 0 {
            return self.left_of(place);
        }
        let before = &self.lines[place.row][..place.byte];
        let mut chars = before.char_indices().rev().skip_while(|&(_, c)| !is_word(c));
        let start = chars.find(|&(_, c)| !is_word(c)).map_or(0, |(byte, c)| byte + c.len_utf8());
        Place { byte: start, ..place }
    }

    /// The end of the word the cursor is in or before; from a line's end, the start of
    /// the next line.
    fn word_right_of(&self, place: Place) -> Place {
        let line = &self.lines[place.row];
        if place.byte == line.len() {
            return self.right_of(place);
        }
        let mut chars = line[place.byte..].char_indices().skip_while(|&(_, c)| !is_word(c));
        let end = chars.find(|&(_, c)| !is_word(c)).map_or(line.len(), |(byte, _)| place.byte + byte);
        Place { byte: end, ..place }
    }

    fn is_blank(&self, row: usize) -> bool {
        self.lines[row].trim().is_empty()
    }

    /// Up to the nearest blank line that starts a block of lines (the one just above a
    /// line with text), or the text's start: Emacs's backward-paragraph.
    fn block_up(&self) -> Place {
        let row = (0..self.cursor.row).rev().find(|&row| self.is_blank(row) && !self.is_blank(row + 1));
        Place { row: row.unwrap_or(0), byte: 0 }
    }

    /// Down to the nearest blank line that ends a block of lines (the one just below a
    /// line with text), or the text's end.
    fn block_down(&self) -> Place {
        let last = self.lines.len() - 1;
        let row = (self.cursor.row + 1..=last).find(|&row| self.is_blank(row) && !self.is_blank(row - 1));
        row.map_or_else(|| self.end(), |row| Place { row, byte: 0 })
    }
}

/// True for a character that takes no column and is drawn with the one before it.
fn joins_previous(c: char) -> bool {
    super::editor_columns(c) == 0
}

/// Letters, digits and `_` make words; `/`, `-`, `.`, `*` and spaces end them, so that
/// a word move steps through a path's segments.
fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The characters in `text` (its length, when it is ASCII: nearly every robots.txt).
#[must_use]
pub fn char_count(text: &str) -> usize {
    if text.is_ascii() { text.len() } else { text.chars().count() }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn buffer(text: &str) -> LineBuffer {
        LineBuffer::new(text.split('\n').map(str::to_owned).collect())
    }

    fn text(buffer: &LineBuffer) -> String {
        buffer.lines().join("\n")
    }

    #[test]
    fn typing_and_line_breaks() {
        let mut b = buffer("Disallow: /a");
        b.go(Move::LineEnd, false);
        assert!(b.insert("b\nAllow: /c"));
        assert_eq!(text(&b), "Disallow: /ab\nAllow: /c");
        assert_eq!(b.cursor(), Place { row: 1, byte: 9 });
        b.go(Move::LineStart, false);
        assert!(b.insert("\n\n"));
        assert_eq!(text(&b), "Disallow: /ab\n\n\nAllow: /c");
        assert_eq!(b.cursor(), Place { row: 3, byte: 0 });
        assert!(!b.insert(""));
    }

    #[test]
    fn deletions_join_lines_at_their_ends() {
        let mut b = buffer("ab\ncd");
        b.jump(1, 0, false);
        assert_eq!(b.delete(Deletion::CharBack).as_deref(), Some("\n"));
        assert_eq!(text(&b), "abcd");
        b.go(Move::LineEnd, false);
        assert_eq!(b.delete(Deletion::CharForward), None);
        assert_eq!(b.delete(Deletion::ToLineStart).as_deref(), Some("abcd"));
        let mut b = buffer("User-agent: *\nDisallow: /private/x");
        b.jump(0, 99, false);
        assert_eq!(b.delete(Deletion::ToLineEnd).as_deref(), Some("\n"));
        assert_eq!(text(&b), "User-agent: *Disallow: /private/x");
        b.go(Move::Bottom, false);
        assert_eq!(b.delete(Deletion::WordBack).as_deref(), Some("x"));
        assert_eq!(b.delete(Deletion::WordBack).as_deref(), Some("private/"));
        b.go(Move::LineStart, false);
        assert_eq!(b.delete(Deletion::WordForward).as_deref(), Some("User"));
    }

    #[test]
    fn word_moves_step_through_a_path() {
        let mut b = buffer("Disallow: /a-b/c_d\nx");
        let mut stops = Vec::new();
        for _ in 0..6 {
            b.go(Move::WordRight, false);
            stops.push(b.cursor());
        }
        let at = |row, byte| Place { row, byte };
        assert_eq!(stops, [at(0, 8), at(0, 12), at(0, 14), at(0, 18), at(1, 0), at(1, 1)]);
        b.go(Move::WordLeft, false);
        b.go(Move::WordLeft, false);
        assert_eq!(b.cursor(), at(0, 18), "from a line's start, the end of the line before");
        b.go(Move::WordLeft, false);
        assert_eq!(b.cursor(), at(0, 15));
    }

    #[test]
    fn lines_keep_their_own_ends() {
        let lines = ["a", "b", "c"].map(str::to_owned).to_vec();
        let mut b = LineBuffer::with_ends(lines, vec!["\r\n", "\n", ""], "\n");
        b.jump(1, 1, false);
        assert!(b.insert("\nx\ny"));
        assert_eq!(b.ends(), ["\r\n", "\n", "\n", "\n", ""], "a line broken into three ends as it did");
        b.go(Move::Bottom, false);
        b.insert("\n");
        assert_eq!(b.ends()[4..], ["\n", ""], "the last line keeps no end; the break is the usual one");
        let mut crlf = LineBuffer::with_ends(vec!["a".to_owned(), "b".to_owned()], vec!["\r\n", "\r\n"], "\n");
        crlf.insert("\n");
        assert_eq!(crlf.ends(), ["\r\n", "\r\n", "\r\n"], "among CR LF lines, a break is CR LF");
        b.jump(0, 1, false);
        b.delete(Deletion::CharForward);
        assert_eq!(b.lines(), ["ab", "x", "y", "c", ""]);
        assert_eq!(b.ends(), ["\n", "\n", "\n", "\n", ""], "a joined line ends as its second part did");
    }

    #[test]
    fn an_accent_moves_and_goes_with_its_letter() {
        let mut b = buffer("cafe\u{301}x");
        b.go(Move::LineEnd, false);
        b.go(Move::Left, false);
        b.go(Move::Left, false);
        assert_eq!(b.cursor().byte, 3, "on the e, not between it and its accent");
        b.go(Move::Right, false);
        assert_eq!(b.cursor().byte, 6);
        assert_eq!(b.delete(Deletion::CharBack).as_deref(), Some("e\u{301}"));
        assert_eq!(text(&b), "cafx");
    }

    #[test]
    fn up_and_down_keep_their_column_past_short_lines() {
        let mut b = buffer("Disallow: /long\n\nAllow: /also-long");
        b.jump(0, 12, false);
        b.go_rows(1, false);
        assert_eq!(b.cursor(), Place { row: 1, byte: 0 });
        b.go_rows(1, false);
        assert_eq!(b.cursor(), Place { row: 2, byte: 12 });
        b.go_rows(-9, false);
        assert_eq!(b.cursor(), Place { row: 0, byte: 12 });
        // Columns are characters: two-byte ones count one each.
        let mut b = buffer("ééé\nabc");
        b.jump(1, 2, false);
        b.go_rows(-1, false);
        assert_eq!(b.cursor(), Place { row: 0, byte: 4 });
    }

    #[test]
    fn block_moves_go_from_group_to_group() {
        let mut b = buffer("User-agent: a\nDisallow: /\n\nUser-agent: b\nAllow: /\n\n\nUser-agent: c");
        let mut stops = Vec::new();
        for _ in 0..4 {
            b.go(Move::BlockDown, false);
            stops.push(b.cursor().row);
        }
        assert_eq!(stops, [2, 5, 7, 7], "the blank line after each group, then the end");
        assert_eq!(b.cursor(), Place { row: 7, byte: 13 });
        let mut stops = Vec::new();
        for _ in 0..4 {
            b.go(Move::BlockUp, false);
            stops.push(b.cursor().row);
        }
        assert_eq!(stops, [6, 2, 0, 0], "the blank line before each group, then the start");
        // From a group's last line down, from its first line up: the blank line next to it.
        b.jump(1, 0, false);
        b.go(Move::BlockDown, false);
        assert_eq!(b.cursor().row, 2);
        b.jump(3, 0, false);
        b.go(Move::BlockUp, false);
        assert_eq!(b.cursor().row, 2);
    }

    #[test]
    fn a_selection_is_replaced_cut_or_dropped() {
        let mut b = buffer("one\ntwo\nthree");
        b.jump(0, 1, false);
        b.go_rows(1, true);
        b.go(Move::Right, true);
        assert_eq!(b.selected_text().as_deref(), Some("ne\ntw"));
        assert_eq!(b.selected_on(0), Some(1..usize::MAX));
        assert_eq!(b.selected_on(1), Some(0..2));
        assert_eq!(b.selected_on(2), None);
        assert!(b.insert("X"));
        assert_eq!(text(&b), "oXo\nthree");
        // A move without Shift ends a selection; with the mark set, moves extend it.
        b.go(Move::Left, true);
        b.go(Move::Left, false);
        assert_eq!(b.selection(), None);
        b.toggle_mark();
        b.go(Move::LineEnd, false);
        assert_eq!(b.cut().as_deref(), Some("oXo"));
        assert_eq!(text(&b), "\nthree");
        assert_eq!(b.cut(), None);
        b.go(Move::Right, true);
        assert!(b.cancel_selection());
        assert!(!b.cancel_selection());
    }

    /// One step of the model-based test below.
    #[derive(Debug, Clone)]
    enum Step {
        Type(String),
        Go(Move, bool),
        Rows(isize, bool),
        Delete(Deletion),
        Cut,
        Mark,
    }

    fn step() -> impl Strategy<Value = Step> {
        let moves = prop::sample::select(vec![
            Move::Left,
            Move::Right,
            Move::WordLeft,
            Move::WordRight,
            Move::LineStart,
            Move::LineEnd,
            Move::BlockUp,
            Move::BlockDown,
            Move::Top,
            Move::Bottom,
        ]);
        let deletions = prop::sample::select(vec![
            Deletion::CharBack,
            Deletion::CharForward,
            Deletion::WordBack,
            Deletion::WordForward,
            Deletion::ToLineStart,
            Deletion::ToLineEnd,
        ]);
        prop_oneof![
            "[a é/\n\t*日]{0,4}".prop_map(Step::Type),
            (moves, any::<bool>()).prop_map(|(to, extend)| Step::Go(to, extend)),
            (-3isize..4, any::<bool>()).prop_map(|(rows, extend)| Step::Rows(rows, extend)),
            deletions.prop_map(Step::Delete),
            Just(Step::Cut),
            Just(Step::Mark),
        ]
    }

    proptest! {
        /// Every step keeps the buffer whole (the cursor and the selection on character
        /// boundaries inside the text), and every edit is what the same edit does to
        /// the text as one string: what is taken out is what was between two places,
        /// and what is typed lands at the cursor.
        #[test]
        fn edits_agree_with_the_text_as_one_string(start in "[ab/ \né]{0,12}", steps in prop::collection::vec(step(), 0..40)) {
            let mut b = buffer(&start);
            let offset = |b: &LineBuffer, place: Place| {
                b.lines()[..place.row].iter().map(|line| line.len() + 1).sum::<usize>() + place.byte
            };
            for step in steps {
                let before = text(&b);
                let selection = b.selection().map(|(s, e)| (offset(&b, s), offset(&b, e)));
                let cursor = offset(&b, b.cursor());
                match step {
                    Step::Type(typed) => {
                        b.insert(&typed);
                        let (start, end) = selection.unwrap_or((cursor, cursor));
                        let expected = format!("{}{typed}{}", &before[..start], &before[end..]);
                        prop_assert_eq!(text(&b), expected);
                        prop_assert_eq!(offset(&b, b.cursor()), start + typed.len());
                    }
                    Step::Delete(what) => {
                        let taken = b.delete(what);
                        let after = text(&b);
                        let start = offset(&b, b.cursor());
                        let taken = taken.unwrap_or_default();
                        prop_assert_eq!(format!("{}{taken}{}", &after[..start], &after[start..]), before);
                        if let Some((s, e)) = selection {
                            prop_assert_eq!((start, start + taken.len()), (s, e));
                        }
                    }
                    Step::Cut => {
                        let taken = b.cut();
                        prop_assert_eq!(taken.is_some(), selection.is_some());
                    }
                    Step::Go(to, extend) => {
                        b.go(to, extend);
                        prop_assert_eq!(text(&b), before);
                    }
                    Step::Rows(rows, extend) => {
                        b.go_rows(rows, extend);
                        prop_assert_eq!(text(&b), before);
                    }
                    Step::Mark => b.toggle_mark(),
                }
                let Place { row, byte } = b.cursor();
                prop_assert!(row < b.lines().len() && b.lines()[row].is_char_boundary(byte));
                prop_assert_eq!(b.ends().len(), b.lines().len());
                if let Some((s, e)) = b.selection() {
                    prop_assert!(s < e && b.lines()[s.row].is_char_boundary(s.byte) && b.lines()[e.row].is_char_boundary(e.byte));
                }
            }
        }
    }
}
