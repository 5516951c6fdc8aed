//! Applying fixes: text edits on the source bytes that keep everything else (comments,
//! layout, line ends) exactly as it was.
//!
//! [`fix_all`] applies every fix the diagnostics offer, then looks again, until nothing
//! is left to fix: a split line can reveal a path without a slash, which the next round
//! fixes. So applying it twice gives what applying it once gives (a property test holds
//! it to that).

use std::collections::BTreeSet;
use std::ops::Range;

use super::lint::{Diagnostic, Edit, Fix, lint};
use super::parse::RobotsTxt;

/// Rounds of lint-and-fix always allowed on the way to a fixed point. Every fix removes
/// its diagnostic; a chain (split a line, then add a slash to a piece) is rarely longer
/// than three rounds, and clashing fixes wait a round each.
const MIN_ROUNDS: usize = 16;

/// Bytes linted in all rounds together before `fix_all` stops short of a fixed point.
/// A hand-made chain (each moved Allow uncovering the next shadowed one) takes a round
/// per link; on a small file, finishing it keeps `fix` idempotent, while a large file
/// stops after [`MIN_ROUNDS`] rounds instead of costing rounds times its size.
const ROUND_BYTES_BUDGET: usize = 32 << 20;

/// Applies edits that do not overlap, in any order. Overlapping edits are a caller's
/// bug; the later ones are skipped rather than corrupting the text.
#[must_use]
pub fn apply_edits(source: &[u8], edits: &[Edit]) -> Vec<u8> {
    let mut sorted: Vec<&Edit> = edits.iter().collect();
    sorted.sort_by_key(|edit| (edit.span.start, edit.span.end));
    let mut out = Vec::with_capacity(source.len() + 64);
    let mut at = 0;
    for edit in sorted {
        if edit.span.start < at || edit.span.end > source.len() {
            continue;
        }
        out.extend_from_slice(&source[at..edit.span.start]);
        out.extend_from_slice(edit.replacement.as_bytes());
        at = edit.span.end;
    }
    out.extend_from_slice(&source[at..]);
    out
}

/// Applies one fix.
#[must_use]
pub fn apply_fix(source: &[u8], fix: &Fix) -> Vec<u8> {
    apply_edits(source, &fix.edits)
}

/// The fixes of `diagnostics` that can be applied together: a fix is taken whole or not
/// at all, and never when one of its edits touches an edit already taken.
#[must_use]
pub fn compatible_fixes(diagnostics: &[Diagnostic]) -> Vec<&Fix> {
    // The spans taken so far, ordered by (start, end), with a count to keep equal spans
    // apart. Taken spans never overlap (nor do one fix's own edits, by `Fix`'s
    // contract), so ordered by start they are ordered by end too:
    // the spans an edit could touch are the last few starting before its end, and the
    // search stops at the first that ends before the edit starts. A file with 200,000
    // fixes is checked in milliseconds, not in minutes.
    let mut taken: BTreeSet<(usize, usize, usize)> = BTreeSet::new();
    let mut fixes = Vec::new();
    for fix in diagnostics.iter().filter_map(|d| d.fix.as_ref()) {
        let clashes = fix.edits.iter().any(|edit| {
            taken
                .range(..=(edit.span.end, usize::MAX, usize::MAX))
                .rev()
                .take_while(|&&(_, end, _)| end >= edit.span.start)
                .any(|&(start, end, _)| touches(&edit.span, &(start..end)))
        });
        if !clashes {
            for edit in &fix.edits {
                taken.insert((edit.span.start, edit.span.end, taken.len()));
            }
            fixes.push(fix);
        }
    }
    fixes
}

/// True when two edits overlap, or when one inserts where the other replaces. Two
/// insertions at the same place do not clash: they go in in the order the fixes were
/// taken (diagnostics come sorted by line), which keeps moved lines in file order.
fn touches(a: &Range<usize>, b: &Range<usize>) -> bool {
    let overlap = a.start < b.end && b.start < a.end;
    let same_point = a.start == b.start && (a.is_empty() != b.is_empty());
    let inside_empty = (a.is_empty() && b.start < a.start && a.start < b.end)
        || (b.is_empty() && a.start < b.start && b.start < a.end);
    overlap || same_point || inside_empty
}

/// What `fix_all` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixReport {
    pub(crate) text: Vec<u8>,
    pub(crate) applied: usize,
    pub(crate) remaining: Vec<Diagnostic>,
}

impl FixReport {
    /// The fixed text.
    #[must_use]
    pub fn text(&self) -> &[u8] {
        &self.text
    }

    /// The fixed text, taken out of the report.
    #[must_use]
    pub fn into_text(self) -> Vec<u8> {
        self.text
    }

    /// How many fixes were applied, over all rounds.
    #[must_use]
    pub fn applied(&self) -> usize {
        self.applied
    }

    /// The diagnostics left: those without a fix, and any a fix could not resolve.
    #[must_use]
    pub fn remaining(&self) -> &[Diagnostic] {
        &self.remaining
    }
}

/// Applies every available fix, round after round, until none is left: running it again
/// on its output changes nothing. (A file of many megabytes stops after 16 rounds; a
/// chain of fixes longer than that, which only a hand-made file has, can leave some.)
///
/// # Examples
///
/// ```
/// use robotscope::policy::fix::fix_all;
/// let report = fix_all(b"User-Agent: *\n\nDisallow: /\n\nUser-Agent: Lycos\n\nDisallow: /cgi-bin/ /tmp/\n");
/// assert_eq!(
///     String::from_utf8(report.into_text()).unwrap(),
///     "User-Agent: *\nDisallow: /\n\nUser-Agent: Lycos\nDisallow: /cgi-bin/\nDisallow: /tmp/\n"
/// );
/// ```
#[must_use]
pub fn fix_all(source: &[u8]) -> FixReport {
    let mut text = source.to_vec();
    let mut applied = 0;
    let mut linted = 0;
    for round in 0.. {
        if round >= MIN_ROUNDS && linted + text.len() > ROUND_BYTES_BUDGET {
            break;
        }
        linted += text.len();
        let diagnostics = lint(&RobotsTxt::parse(text.clone()));
        let fixes = compatible_fixes(&diagnostics);
        if fixes.is_empty() {
            return FixReport { text, applied, remaining: diagnostics };
        }
        let edits: Vec<Edit> = fixes.iter().flat_map(|fix| fix.edits.iter().cloned()).collect();
        applied += fixes.len();
        text = apply_edits(&text, &edits);
    }
    let remaining = lint(&RobotsTxt::parse(text.clone()));
    FixReport { text, applied, remaining }
}

/// A unified diff of two versions of a file (`--- a/NAME`, `+++ b/NAME`), three lines
/// of context; empty when they are equal.
#[must_use]
pub fn unified_diff(old: &[u8], new: &[u8], name: &str) -> String {
    unified_diff_between(old, new, &format!("a/{name}"), &format!("b/{name}"))
}

/// A unified diff under the headers `--- OLD_LABEL`, `+++ NEW_LABEL`, three lines of
/// context; empty when the texts are equal.
#[must_use]
pub fn unified_diff_between(old: &[u8], new: &[u8], old_label: &str, new_label: &str) -> String {
    if old == new {
        return String::new();
    }
    let (old, new) = (String::from_utf8_lossy(old), String::from_utf8_lossy(new));
    similar::TextDiff::from_lines(old.as_ref(), new.as_ref())
        .unified_diff()
        .context_radius(3)
        .header(old_label, new_label)
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(start: usize, end: usize, text: &str) -> Edit {
        Edit { span: start..end, replacement: text.to_owned() }
    }

    #[test]
    fn edits_apply_in_place() {
        assert_eq!(apply_edits(b"abcdef", &[edit(4, 5, "E"), edit(0, 1, ""), edit(3, 3, "+")]), b"bc+dEf");
    }

    /// The fixes of `diagnostics` that the obvious quadratic search takes.
    fn compatible_by_brute_force(diagnostics: &[Diagnostic]) -> Vec<&Fix> {
        let mut taken: Vec<&Edit> = Vec::new();
        let mut fixes = Vec::new();
        for fix in diagnostics.iter().filter_map(|d| d.fix.as_ref()) {
            if !fix.edits.iter().any(|edit| taken.iter().any(|other| touches(&edit.span, &other.span))) {
                taken.extend(&fix.edits);
                fixes.push(fix);
            }
        }
        fixes
    }

    #[test]
    fn the_ordered_search_takes_what_brute_force_takes() {
        // Fixes of one or two edits (apart from each other, as a fix's edits are), short
        // spans and insertions, crowded into a small text so that they often clash; from
        // a fixed xorshift sequence.
        let mut state = 0x2545_F491_4F6C_DD1D_u64;
        let mut next = |below: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % below) as usize
        };
        for _ in 0..200 {
            let diagnostics: Vec<Diagnostic> = (0..40)
                .map(|line| {
                    let start = next(60);
                    let mut edits = vec![edit(start, start + next(4), "x")];
                    if next(2) == 1 {
                        let start = edits[0].span.end + 1 + next(10);
                        edits.push(edit(start, start + next(4), "x"));
                    }
                    Diagnostic {
                        code: crate::policy::Code::UnknownField,
                        severity: crate::policy::lint::Severity::Info,
                        line,
                        span: 0..0,
                        message: "".into(),
                        fix: Some(Fix { title: "".into(), edits }),
                    }
                })
                .collect();
            assert_eq!(compatible_fixes(&diagnostics), compatible_by_brute_force(&diagnostics));
        }
    }

    #[test]
    fn clashing_fixes_are_left_for_the_next_round() {
        assert!(touches(&(0..3), &(2..4)));
        assert!(!touches(&(3..3), &(3..3)));
        assert!(touches(&(3..3), &(3..4)));
        assert!(touches(&(2..2), &(0..5)));
        assert!(!touches(&(0..3), &(3..5)));
    }

    /// Each moved Allow uncovers the next shadowed one: a chain of 40 rounds, finished
    /// so that `fix` run twice changes nothing the second time.
    #[test]
    fn a_long_chain_of_moves_reaches_a_fixed_point() {
        let chain = (0..40)
            .map(|i| format!("Disallow: /a{slashes}\nAllow: /a{slashes}", slashes = "/".repeat(i)))
            .collect::<Vec<_>>()
            .join("\n");
        let once = fix_all(format!("User-agent: *\n{chain}\n").as_bytes());
        assert!(once.applied() > 40);
        let twice = fix_all(once.text());
        assert_eq!((twice.applied(), twice.text()), (0, once.text()));
    }
}
