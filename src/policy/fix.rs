//! Applying fixes: text edits on the source bytes that keep everything else (comments,
//! layout, line ends) exactly as it was.
//!
//! [`fix_all`] applies every fix the diagnostics offer, then looks again, until nothing
//! is left to fix: a split line can reveal a path without a slash, which the next round
//! fixes. So applying it twice gives what applying it once gives (a property test holds
//! it to that).

use super::lint::{Diagnostic, Edit, Fix, lint};
use super::parse::RobotsTxt;

/// Rounds of lint-and-fix before giving up on reaching a fixed point. Every fix removes
/// its diagnostic; a chain (split a line, then add a slash to a piece) is rarely longer
/// than three rounds, and clashing fixes wait a round each.
const MAX_ROUNDS: usize = 16;

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
    let mut taken: Vec<&Edit> = Vec::new();
    let mut fixes = Vec::new();
    for fix in diagnostics.iter().filter_map(|d| d.fix.as_ref()) {
        let clashes = fix.edits.iter().any(|edit| taken.iter().any(|other| touches(edit, other)));
        if !clashes {
            taken.extend(&fix.edits);
            fixes.push(fix);
        }
    }
    fixes
}

/// True when two edits overlap, or when one inserts where the other replaces. Two
/// insertions at the same place do not clash: they go in in the order the fixes were
/// taken (diagnostics come sorted by line), which keeps moved lines in file order.
fn touches(a: &Edit, b: &Edit) -> bool {
    let overlap = a.span.start < b.span.end && b.span.start < a.span.end;
    let same_point = a.span.start == b.span.start && (a.span.is_empty() != b.span.is_empty());
    let inside_empty = (a.span.is_empty() && b.span.start < a.span.start && a.span.start < b.span.end)
        || (b.span.is_empty() && a.span.start < b.span.start && b.span.start < a.span.end);
    overlap || same_point || inside_empty
}

/// What `fix_all` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixReport {
    /// The fixed text.
    pub text: Vec<u8>,
    /// How many fixes were applied, over all rounds.
    pub applied: usize,
    /// The diagnostics left (those without a fix, and any a fix could not resolve).
    pub remaining: Vec<Diagnostic>,
}

/// Applies every available fix, round after round, until none is left.
///
/// # Examples
///
/// ```
/// use robotscope::policy::fix::fix_all;
/// let report = fix_all(b"User-Agent: *\n\nDisallow: /\n\nUser-Agent: Lycos\n\nDisallow: /cgi-bin/ /tmp/\n");
/// assert_eq!(
///     String::from_utf8(report.text).unwrap(),
///     "User-Agent: *\nDisallow: /\n\nUser-Agent: Lycos\nDisallow: /cgi-bin/\nDisallow: /tmp/\n"
/// );
/// ```
#[must_use]
pub fn fix_all(source: &[u8]) -> FixReport {
    let mut text = source.to_vec();
    let mut applied = 0;
    for _ in 0..MAX_ROUNDS {
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
    if old == new {
        return String::new();
    }
    let (old, new) = (String::from_utf8_lossy(old), String::from_utf8_lossy(new));
    similar::TextDiff::from_lines(old.as_ref(), new.as_ref())
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{name}"), &format!("b/{name}"))
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

    #[test]
    fn clashing_fixes_are_left_for_the_next_round() {
        assert!(touches(&edit(0, 3, ""), &edit(2, 4, "")));
        assert!(!touches(&edit(3, 3, "a"), &edit(3, 3, "b")));
        assert!(touches(&edit(3, 3, "a"), &edit(3, 4, "b")));
        assert!(touches(&edit(2, 2, "a"), &edit(0, 5, "")));
        assert!(!touches(&edit(0, 3, ""), &edit(3, 5, "")));
    }
}
