//! Finding text in the source pane (`Ctrl-F`, then `n`/`N`) and going to a line (`:`):
//! a 47,000-line file has no other way to find a rule.
//!
//! The search is smart-case, as in ripgrep and vim: a query with an upper-case letter
//! matches exactly, one without ignores case. It wraps around the end of the file.

use super::ScrollView;
use super::{About, App, Pane};

/// The text last searched for, and where the source's cursor was when the search
/// prompt opened (Esc goes back there).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Search {
    /// The text searched for (empty: no search).
    pub query: String,
    /// The source view before the prompt opened.
    pub origin: ScrollView,
}

/// Which way to look.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Towards the end, wrapping to the start.
    Forward,
    /// Towards the start, wrapping to the end.
    Backward,
}

/// Where `query` first occurs in `line` (smart-case), if it does.
#[must_use]
pub fn find_in(line: &[u8], query: &[u8]) -> Option<usize> {
    if query.is_empty() || line.len() < query.len() {
        return None;
    }
    if query.iter().any(u8::is_ascii_uppercase) {
        return memchr::memmem::find(line, query);
    }
    let (lower, upper) = (query[0].to_ascii_lowercase(), query[0].to_ascii_uppercase());
    let last_start = line.len() - query.len();
    memchr::memchr2_iter(lower, upper, &line[..=last_start])
        .find(|&at| line[at..at + query.len()].eq_ignore_ascii_case(query))
}

/// The first line index, starting at `from` (inclusive) and going `direction` with
/// wrap-around, for which `matches` holds.
#[must_use]
pub fn next_line(count: usize, from: usize, direction: Direction, matches: impl Fn(usize) -> bool) -> Option<usize> {
    if count == 0 {
        return None;
    }
    let from = from.min(count - 1);
    (0..count)
        .map(|step| match direction {
            Direction::Forward => (from + step) % count,
            Direction::Backward => (from + count - step) % count,
        })
        .find(|&index| matches(index))
}

/// A line number typed in the go-to prompt: `42`, or `$` for the last line.
#[must_use]
pub fn parse_line_number(text: &str, line_count: usize) -> Option<usize> {
    match text.trim() {
        "$" => Some(line_count.max(1)),
        number => number.parse::<usize>().ok().filter(|&n| n >= 1).map(|n| n.min(line_count.max(1))),
    }
}

impl App {
    /// Moves the source's cursor to the first line from `from` (inclusive) on that holds
    /// `query`; says so when none does (in the status bar only: the search prompt asks
    /// at every key).
    pub(super) fn find(&mut self, query: &str, from: usize, direction: Direction) {
        if query.is_empty() {
            self.restore_search_origin();
            return;
        }
        let txt = &self.document.txt;
        let found = next_line(txt.lines().len(), from, direction, |index| {
            find_in(txt.lines()[index].content(txt.source()), query.as_bytes()).is_some()
        });
        if let Some(index) = found {
            let (len, height) = (txt.lines().len(), self.areas().inner_height(Pane::Source));
            self.source_view.cursor = index;
            self.source_view.bring_into_view(index, len, height);
        } else {
            let stamp = self.stamp();
            self.status.show(About::Moment, format!("Not found: {query}"), stamp);
        }
    }

    /// Puts the source's cursor back where it was when the search began, within the
    /// text on screen (another file may have loaded since).
    pub(super) fn restore_search_origin(&mut self) {
        let (len, height) = (self.document.txt.lines().len(), self.areas().inner_height(Pane::Source));
        self.source_view = self.search.origin;
        self.source_view.cursor = self.source_view.cursor.min(len.saturating_sub(1));
        self.source_view.reveal(self.source_view.cursor, len, height);
    }

    /// `n` or `N`: the next or previous line holding the last search.
    pub(super) fn search_again(&mut self, direction: Direction) {
        let query = self.search.query.clone();
        if query.is_empty() {
            self.say(About::Moment, "Nothing searched yet: Ctrl-F finds text in the source");
            return;
        }
        // The match is shown in the source pane, whichever pane had the keys.
        self.focus = super::Pane::Source;
        let len = self.document.txt.lines().len();
        let from = match direction {
            Direction::Forward => self.source_view.cursor + 1,
            Direction::Backward => (self.source_view.cursor + len.max(1) - 1) % len.max(1),
        };
        self.find(&query, from % len.max(1), direction);
        if !self.current_line_matches() {
            self.say(About::Moment, format!("Not found: {query}"));
        }
    }

    pub(super) fn current_line_matches(&self) -> bool {
        let txt = &self.document.txt;
        txt.lines()
            .get(self.source_view.cursor)
            .is_some_and(|line| find_in(line.content(txt.source()), self.search.query.as_bytes()).is_some())
    }

    /// `:` then a number: the source's cursor goes to that line.
    pub(super) fn go_to_line(&mut self, text: &str) {
        match parse_line_number(text, self.document.txt.lines().len()) {
            Some(line) => self.show_line(line),
            None if text.is_empty() => {}
            None => self.say(About::Moment, format!("Not a line number: {text}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smart_case() {
        assert_eq!(find_in(b"Disallow: /Private/", b"private"), Some(11));
        assert_eq!(find_in(b"Disallow: /Private/", b"Private"), Some(11));
        assert_eq!(find_in(b"Disallow: /private/", b"Private"), None);
        assert_eq!(find_in(b"ab", b"abc"), None);
        assert_eq!(find_in(b"abc", b""), None);
    }

    #[test]
    fn lines_wrap_around() {
        let hits = [false, true, false, true];
        let matches = |i: usize| hits[i];
        assert_eq!(next_line(4, 2, Direction::Forward, matches), Some(3));
        assert_eq!(next_line(4, 0, Direction::Backward, matches), Some(3));
        assert_eq!(next_line(4, 2, Direction::Backward, matches), Some(1));
        assert_eq!(next_line(0, 0, Direction::Forward, matches), None);
    }

    #[test]
    fn line_numbers() {
        assert_eq!(parse_line_number("12", 100), Some(12));
        assert_eq!(parse_line_number("1000", 100), Some(100));
        assert_eq!(parse_line_number("$", 100), Some(100));
        assert_eq!(parse_line_number("0", 100), None);
        assert_eq!(parse_line_number("x", 100), None);
    }
}
