//! Finding text in the source pane (`Ctrl-F`, then `n`/`N`) and going to a line (`:`):
//! a 47,000-line file has no other way to find a rule.
//!
//! The search is smart-case, as in ripgrep and vim: a query with an upper-case letter
//! matches exactly, one without ignores case. It wraps around the end of the file.

use super::ScrollView;

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
