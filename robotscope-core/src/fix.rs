//! Applying fixes: text edits on the source bytes that keep everything else (comments,
//! layout, line ends) exactly as it was.
//!
//! [`fix_all`] applies every fix the diagnostics offer, then looks again, until nothing
//! is left to fix: a split line can reveal a path without a slash, which the next round
//! fixes. So applying it twice gives what applying it once gives (a property test holds
//! it to that).

use std::collections::BTreeSet;
use std::ops::Range;

use super::impact::{FixEffect, Impact, impact};
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

/// What [`fix_all`] did: the fixed text, how many fixes, what is left.
///
/// ```
/// use robotscope_core::fix_all;
/// let report = fix_all(b"User-agent: *\nDisallow: /a /b\n");
/// assert_eq!(report.text(), b"User-agent: *\nDisallow: /a\nDisallow: /b\n");
/// assert_eq!(report.applied(), 1);
/// assert!(report.remaining().is_empty());
/// ```
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

    part! {
        /// The report of a pass that followed others, which applied `earlier` fixes: they
        /// count in [`FixReport::applied`].
        #[must_use]
        pub fn after(mut self, earlier: usize) -> FixReport {
            self.applied += earlier;
            self
        }
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
/// use robotscope_core::fix_all;
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
        let fixed = apply_edits(&text, &edits);
        // (Lint offers no fix that changes nothing; should one slip through, the round
        // is the last rather than one of a million.)
        if fixed == text {
            return FixReport { text, applied, remaining: diagnostics };
        }
        applied += fixes.len();
        text = fixed;
    }
    let remaining = lint(&RobotsTxt::parse(text.clone()));
    FixReport { text, applied, remaining }
}

/// Bytes of fixed text checked for the fixes of one file, in all: a check parses the
/// fixed file and compares every robot's rules under every reading, some tens of
/// milliseconds a megabyte. Fixes are checked each alone when that fits; a file with
/// too many fixes for that has them checked by kind; what the budget leaves stays
/// unchecked (`f` in the explorer checks the fix it applies, whatever the size).
const CHECK_BUDGET_BYTES: usize = 8 << 20;

/// [`lint`], with every fix checked under every reading for every robot the file names
/// and `*` before it is offered: [`Diagnostic::fix_effect`] says which verdicts it
/// changes, if any. `txt` is the file as robots read it (its RFC 9309 limit included),
/// which is what the verdicts are compared on.
///
/// # Examples
///
/// ```
/// # #[cfg(feature = "parts")] {
/// use robotscope_core::fix::lint_checked;
/// use robotscope_core::RobotsTxt;
/// let txt = RobotsTxt::parse(b"User-agent: *\nDisallow: ~\nDisallow: /a\nDisallow: /a\n".to_vec());
/// let diagnostics = lint_checked(&txt);
/// let effects: Vec<String> = diagnostics.iter().filter_map(|d| d.fix_effect()).map(ToString::to_string).collect();
/// assert!(effects[0].starts_with("changes verdicts: RFC 9309: a robot no group names /~ allowed → disallowed"));
/// assert_eq!(effects[1], "changes no verdict under any reading");
/// # }
/// ```
#[must_use]
pub fn lint_checked(txt: &RobotsTxt) -> Vec<Diagnostic> {
    let mut diagnostics = lint(txt);
    check_fixes(txt, &mut diagnostics);
    diagnostics
}

/// Checks every fix of `diagnostics` under every reading, for every robot the file names
/// and `*`: what applying it to `txt` (the file as robots read it) does to the verdicts
/// goes into its [`Diagnostic::fix_effect`].
///
/// Each fix is checked alone when the file is small enough for that (nearly always).
/// Otherwise (thousands of fixes in a file of megabytes) the fixes of one kind are
/// checked together, and a group that changes something is halved until the fixes that
/// do are found, each then checked alone.
pub fn check_fixes(txt: &RobotsTxt, diagnostics: &mut [Diagnostic]) {
    let with_fix: Vec<usize> = (0..diagnostics.len()).filter(|&i| diagnostics[i].fix.is_some()).collect();
    // Checks the budget allows: at least one, so that a file of any size has its
    // first kind of fix checked.
    let mut checks = (CHECK_BUDGET_BYTES / txt.source().len().max(1)).max(1);
    if with_fix.len() <= checks {
        for index in with_fix {
            let fixed = fixed_text(txt, diagnostics, &[index]);
            diagnostics[index].effect = Some(FixEffect::Alone(impact(txt, &fixed)));
        }
        return;
    }
    let mut kinds: Vec<Vec<usize>> = Vec::new();
    for index in with_fix {
        match kinds.iter_mut().find(|kind| diagnostics[kind[0]].code == diagnostics[index].code) {
            Some(kind) => kind.push(index),
            None => kinds.push(vec![index]),
        }
    }
    for kind in kinds {
        check_together(txt, diagnostics, &kind, &mut checks);
    }
}

/// Checks the fixes `indices` (of one kind) together, halving a group that changes
/// something, while `checks` are left; see [`check_fixes`].
fn check_together(txt: &RobotsTxt, diagnostics: &mut [Diagnostic], indices: &[usize], checks: &mut usize) {
    if indices.is_empty() || *checks == 0 {
        return;
    }
    *checks -= 1;
    let changes = impact(txt, &fixed_text(txt, diagnostics, indices));
    if changes.is_none() {
        for &index in indices {
            diagnostics[index].effect = Some(if indices.len() == 1 {
                FixEffect::Alone(changes.clone())
            } else {
                FixEffect::NoneTogether { others: indices.len() - 1 }
            });
        }
    } else if let [index] = indices {
        diagnostics[*index].effect = Some(FixEffect::Alone(changes));
    } else {
        let (first, second) = indices.split_at(indices.len() / 2);
        check_together(txt, diagnostics, first, checks);
        check_together(txt, diagnostics, second, checks);
    }
}

/// `txt` with the fixes of `indices` applied (those that can be applied together), read
/// as `txt` is (its RFC 9309 limit).
fn fixed_text(txt: &RobotsTxt, diagnostics: &[Diagnostic], indices: &[usize]) -> RobotsTxt {
    let chosen: Vec<Diagnostic> = indices.iter().map(|&index| diagnostics[index].clone()).collect();
    let edits: Vec<Edit> = compatible_fixes(&chosen).into_iter().flat_map(|fix| fix.edits.iter().cloned()).collect();
    RobotsTxt::parse(apply_edits(txt.source(), &edits)).with_rfc9309_limit(txt.rfc9309_limit())
}

/// What fixing `txt` with [`fix_all`] does to its verdicts, every fix of every round
/// together (`txt` as robots read it).
#[must_use]
pub fn fix_all_effect(txt: &RobotsTxt, report: &FixReport) -> Impact {
    impact(txt, &RobotsTxt::parse(report.text.clone()).with_rfc9309_limit(txt.rfc9309_limit()))
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
                        code: crate::lint::Code::UnknownField,
                        severity: crate::lint::Severity::Info,
                        line,
                        span: 0..0,
                        message: "".into(),
                        fix: Some(Fix { title: "".into(), edits }),
                        effect: None,
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
