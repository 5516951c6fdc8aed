//! Diagnostics: what is wrong with a robots.txt, what each reading does with it, and
//! the fix where there is one.
//!
//! Every diagnostic has a code, a severity, a line and byte span, a message that says
//! what each reading makes of the line, and, where a fix can be known, the text edits
//! that make the file mean under all three readings what its author evidently meant.
//! The catalogue is DESIGN.md §3; [`Code`] lists the codes. Diagnostics are found
//! in time roughly linear in the file: rule-against-rule checks go through a prefix set,
//! never through all pairs.
//!
//! Severity: an error is a line some reading ignores or misreads so that verdicts
//! change (or that does nothing at all); a warning is a line that works but is fragile
//! or read differently by the classic readings in a way that is often intended; info is
//! a note.
//!
//! One `Linter` walks the file; its checks live in the submodules, one per section of
//! the catalogue: `file` (the file as a whole), `lines` (each line and field), `groups`,
//! `preferences` (Content-Usage and Content-Signal) and `classic` (what only the 1994
//! and 1996 readings see).

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

use foldhash::HashMap;

use super::agent::is_valid_token;
pub use super::catalogue::{Code, UnknownCode};
use super::content::{self, Content, RFC9309_PARSE_LIMIT_BYTES as PARSE_LIMIT_BYTES};
use super::extensions::{RequestRate, VisitTime, crawl_delay};
use super::impact::FixEffect;
use super::lex::{self, ByteOrderMark, Line, LineEnd, RFC9309_MAX_LINE_BYTES, Separator};
use super::parse::{
    AgentLine, AgentName, Field, FieldKind, Group, Interpretation, RobotsTxt, Rule, RuleKind, Spelling, product_token,
};
use super::pattern::normalise_rfc9309;
use super::prefix_set::PrefixSet;
use super::reading::Reading;
use super::usage;

mod classic;
mod file;
mod groups;
mod lines;
#[cfg(feature = "parts")]
pub use lines::edit_distance;
mod preferences;

/// How serious a diagnostic is. Ordered most serious first (`Error < Warning < Info`),
/// so that sorting by it puts errors first ([`lint()`](fn@crate::lint) lists by line).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Some reading ignores or misreads the line, so verdicts change.
    Error,
    /// The line works but is fragile, or the classic readings differ.
    Warning,
    /// A note.
    Info,
}

impl Severity {
    /// "error", "warning" or "info".
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `pad`, not `write_str`: `{:<12}` lines names up.
        f.pad(self.name())
    }
}

/// One text edit: replace a byte span of the source with new text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub(crate) span: Range<usize>,
    pub(crate) replacement: String,
}

impl Edit {
    /// Replaces the bytes of `span` with `replacement` (an empty span inserts it).
    #[must_use]
    pub fn new(span: Range<usize>, replacement: impl Into<String>) -> Edit {
        Edit { span, replacement: replacement.into() }
    }

    /// The byte span replaced (empty for an insertion).
    #[must_use]
    pub fn span(&self) -> Range<usize> {
        self.span.clone()
    }

    /// The new text.
    #[must_use]
    pub fn replacement(&self) -> &str {
        &self.replacement
    }
}

/// A fix: edits that are applied together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    /// Most titles are fixed text, which costs no allocation however many times a file
    /// repeats a mistake.
    pub(crate) title: Cow<'static, str>,
    pub(crate) edits: Vec<Edit>,
}

impl Fix {
    /// A fix titled `title` made of `edits`, which must not overlap.
    #[must_use]
    pub fn new(title: impl Into<Cow<'static, str>>, edits: Vec<Edit>) -> Fix {
        Fix { title: title.into(), edits }
    }

    /// What the fix does, for people ("Split into one line per path").
    #[must_use]
    pub fn title(&self) -> &str {
        &self.title
    }

    /// The edits, which never overlap (apply them with [`apply_fix`](super::fix::apply_fix)).
    #[must_use]
    pub fn edits(&self) -> &[Edit] {
        &self.edits
    }
}

/// One problem found in a robots.txt: its code, how serious, where, and what each
/// reading does with it (with the `parts` feature, also the fix when there is one;
/// [`fix_all`](crate::fix_all) applies them).
///
/// ```
/// use robotscope_core::{RobotsTxt, lint};
/// let diagnostics = lint(&RobotsTxt::parse("User-agent: *\nDisallow: /a /b\n"));
/// let first = &diagnostics[0];
/// assert_eq!((first.line(), first.code().name()), (2, "several-paths"));
/// println!("{}: {} {}", first.line(), first.code(), first.message());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub(crate) code: Code,
    pub(crate) severity: Severity,
    pub(crate) line: usize,
    pub(crate) span: Range<usize>,
    pub(crate) message: Box<str>,
    pub(crate) fix: Option<Fix>,
    /// What the fix does to the verdicts, once checked ([`lint_checked`]).
    pub(crate) effect: Option<FixEffect>,
}

impl Diagnostic {
    part! {
        /// A diagnostic with no fix, for the checks that live outside the policy layer (the
        /// registry's, which know robots by name).
        #[must_use]
        pub fn new(code: Code, severity: Severity, line: usize, span: Range<usize>, message: String) -> Diagnostic {
            Diagnostic { code, severity, line, span, message: message.into_boxed_str(), fix: None, effect: None }
        }
    }

    part! {
        /// The same diagnostic, offering `fix`.
        #[must_use]
        pub fn with_fix(mut self, fix: Fix) -> Diagnostic {
            self.fix = Some(fix);
            self
        }
    }

    /// The code, whose name is stable (`path-without-slash`).
    #[must_use]
    pub fn code(&self) -> Code {
        self.code
    }

    /// How serious it is.
    #[must_use]
    pub fn severity(&self) -> Severity {
        self.severity
    }

    /// The 1-based line number.
    #[must_use]
    pub fn line(&self) -> usize {
        self.line
    }

    /// The byte span of the source it is about.
    #[must_use]
    pub fn span(&self) -> Range<usize> {
        self.span.clone()
    }

    /// What is wrong and what each reading does with it. Text from the file is quoted
    /// as it is: escape it (as the parts' `escape::sanitize` does) before it reaches a terminal.
    #[must_use]
    pub fn message(&self) -> &str {
        &self.message
    }

    part! {
        /// The fix, if one can be known.
        #[must_use]
        pub fn fix(&self) -> Option<&Fix> {
            self.fix.as_ref()
        }
    }

    part! {
        /// What the fix does to the verdicts under every reading, when it was checked
        /// ([`lint_checked`](crate::fix::lint_checked)).
        #[must_use]
        pub fn fix_effect(&self) -> Option<&FixEffect> {
            self.effect.as_ref()
        }
    }
}

/// Finds every diagnostic in a file, sorted by line.
///
/// # Examples
///
/// ```
/// use robotscope_core::Code;
/// use robotscope_core::{RobotsTxt, lint};
/// let txt = RobotsTxt::parse(b"User-agent: *\nDisallow: ~\n".to_vec());
/// let diagnostics = lint(&txt);
/// assert_eq!(diagnostics[0].code(), Code::PathWithoutSlash);
/// assert_eq!(diagnostics[0].line(), 2);
/// ```
///
/// Every byte of the file is read, whatever the RFC 9309 reading's limit
/// ([`RobotsTxt::with_rfc9309_limit`]): a diagnostic says what that reading leaves
/// unread. The fixes are not checked: `fix::lint_checked` (a part) says what each does to the
/// verdicts.
#[must_use]
pub fn lint(txt: &RobotsTxt) -> Vec<Diagnostic> {
    let whole = txt.whole();
    let mut linter = Linter::new(&whole);
    linter.file();
    if !linter.file_is_not_robots_txt {
        linter.lines();
        linter.groups();
        linter.classic_records();
    }
    let mut out = linter.out;
    out.sort_by(|a, b| {
        a.line.cmp(&b.line).then(a.span.start.cmp(&b.span.start)).then(a.code.name().cmp(b.code.name()))
    });
    out
}

/// The groups naming a robot that `counts` takes which restrict some paths and so free
/// it from the `*` group's Disallows they do not repeat (`group-drops-star-rules`). Apart
/// from [`lint`] because the file alone cannot tell the trap from the 1990s' deliberate
/// "one group per robot, `*` for all other robots": the caller knows which robots are
/// today's (`robotscope lint` asks its registry).
pub fn star_rules_dropped(txt: &RobotsTxt, counts: &dyn Fn(&str) -> bool) -> Vec<Diagnostic> {
    let whole = txt.whole();
    let mut linter = Linter::new(&whole);
    linter.groups_dropping_star_rules(counts);
    linter.out
}

/// Says in `diagnostics` that only a part of the file was read (`how` says which part and
/// why): an error at its last line, in place of what [`lint`] says about its length,
/// since the part not read was not linted and may hold anything.
pub fn read_in_part(txt: &RobotsTxt, diagnostics: &mut Vec<Diagnostic>, how: &str) {
    diagnostics.retain(|d| d.code != Code::ContentPast500Kib);
    let line = txt.lines().len().max(1);
    let end = txt.source().len();
    diagnostics.push(Diagnostic {
        code: Code::ContentPast500Kib,
        severity: Severity::Error,
        line,
        span: end..end,
        message: format!(
            "The file goes on past line {line}, and the rest was not linted: {how}. RFC 9309 §2.5 lets robots stop \
             at 500 KiB and Google does; 1994/1996 robots read every byte."
        )
        .into_boxed_str(),
        fix: None,
        effect: None,
    });
}

struct Linter<'a> {
    txt: &'a RobotsTxt,
    rfc: &'a Interpretation,
    classic: &'a Interpretation,
    /// For each line index, the index of its field in each interpretation.
    rfc_field: Vec<Option<usize>>,
    classic_field: Vec<Option<usize>>,
    out: Vec<Diagnostic>,
    /// True for HTML, binary and UTF-16 files, whose lines are not worth examining.
    file_is_not_robots_txt: bool,
    /// How many UTF-8 byte order marks the file starts with. With more than one, the
    /// first line's field is lost to every robot; the BOM diagnostic says so and fixes it,
    /// and what follows from it (an unknown first field, rules outside a group) waits
    /// for the next round rather than being fixed twice.
    leading_boms: usize,
}

impl<'a> Linter<'a> {
    fn new(txt: &'a RobotsTxt) -> Linter<'a> {
        let rfc = txt.interpretation(Reading::Rfc9309);
        let classic = txt.interpretation(Reading::Draft1996);
        let index = |interpretation: &Interpretation| {
            let mut at = vec![None; txt.lines().len()];
            for (i, field) in interpretation.fields().iter().enumerate() {
                at[field.line() - 1] = Some(i);
            }
            at
        };
        Linter {
            txt,
            rfc,
            classic,
            rfc_field: index(rfc),
            classic_field: index(classic),
            out: Vec::new(),
            file_is_not_robots_txt: false,
            leading_boms: txt.source().chunks(3).take_while(|chunk| *chunk == lex::UTF8_BOM).count(),
        }
    }

    fn push(
        &mut self,
        code: Code,
        severity: Severity,
        line: usize,
        span: Range<usize>,
        message: String,
        mut fix: Option<Fix>,
    ) {
        // A line longer than Google reads has its value cut (RFC 9309 §2.5 lets parsers
        // stop there): an edit to part of it would be made from the cut value and glue
        // the rest of the line onto the result. Only whole-line edits stay.
        if let Some(long) = self.txt.line(line).filter(|l| l.content_end() - l.start() > RFC9309_MAX_LINE_BYTES)
            && fix.as_ref().is_some_and(|fix| {
                fix.edits.iter().any(|e| e.span.start < long.end() && e.span.end > long.start() && !covers(e, long))
            })
        {
            fix = None;
        }
        // A fix that would leave every byte as it is fixes nothing: `F` would apply it
        // forever.
        let source = self.txt.source();
        if fix
            .as_ref()
            .is_some_and(|fix| fix.edits.iter().all(|e| source.get(e.span.clone()) == Some(e.replacement.as_bytes())))
        {
            fix = None;
        }
        self.out.push(Diagnostic { code, severity, line, span, message: message.into_boxed_str(), fix, effect: None });
    }

    fn line(&self, number: usize) -> &'a Line {
        &self.txt.lines()[number - 1]
    }

    fn text(&self, span: &Range<usize>) -> String {
        String::from_utf8_lossy(self.txt.text(span)).into_owned()
    }

    /// The line end to use for lines inserted next to `number`: its own, or LF.
    fn eol(&self, number: usize) -> &'static str {
        match self.line(number).line_end(self.txt.source()) {
            LineEnd::CrLf => "\r\n",
            LineEnd::Cr => "\r",
            LineEnd::Lf | LineEnd::None => "\n",
        }
    }

    /// An edit inserting whole lines after line `number`.
    fn insert_after(&self, number: usize, lines: &[String]) -> Edit {
        let line = self.line(number);
        let eol = self.eol(number);
        let mut text = String::new();
        if line.line_end(self.txt.source()) == LineEnd::None {
            text.push_str(eol);
        }
        for new in lines {
            text.push_str(new);
            text.push_str(eol);
        }
        if line.line_end(self.txt.source()) == LineEnd::None {
            text.truncate(text.len() - eol.len());
        }
        Edit { span: line.end()..line.end(), replacement: text }
    }

    /// An edit deleting line `number` with its line end; a comment on the line is kept,
    /// on a line of its own, because `fix` only removes what it means to remove.
    fn delete_line(&self, number: usize) -> Edit {
        let line = self.line(number);
        match lex::comment_start(line.content(self.txt.source())) {
            Some(hash) => Edit { span: line.start()..line.start() + hash, replacement: String::new() },
            None => Edit { span: line.start()..line.end(), replacement: String::new() },
        }
    }
}

/// True when `edit` replaces all of `line`'s content.
pub(super) fn covers(edit: &Edit, line: &Line) -> bool {
    edit.span.start <= line.start() && edit.span.end >= line.content_end()
}

#[cfg(test)]
mod tests {
    use super::lines::{edit_distance, near_miss};
    use super::*;

    #[test]
    fn edit_distance_and_near_misses() {
        assert_eq!(edit_distance("disalow", "disallow"), 1);
        assert_eq!(near_miss("useragent"), Some(FieldKind::UserAgent));
        assert_eq!(near_miss("alow"), Some(FieldKind::Allow));
        assert_eq!(near_miss("host"), None);
    }

    /// A line longer than Google reads gets no fix made from its cut value.
    #[test]
    fn values_cut_at_the_line_limit_get_no_partial_fix() {
        let text = format!("User-agent: *\nDisallow: /private /{}bc /tail\n", "a".repeat(16_650));
        let diagnostics = lint(&RobotsTxt::parse(text.into_bytes()));
        let several = diagnostics.iter().find(|d| d.code == Code::SeveralPaths).expect("several-paths");
        assert!(several.fix.is_none(), "{:?}", several.fix);
    }

    /// Three 16 KB names and 30,000 blank lines (under 500 KiB): every blank line's
    /// message names the robots, in a few dozen bytes each.
    #[test]
    fn blank_line_messages_quote_long_names_briefly() {
        let name = |c: char| c.to_string().repeat(16_000);
        let mut text = format!("User-agent: {}\nUser-agent: {}\nUser-agent: {}\n", name('a'), name('b'), name('c'));
        text.push_str(&"\nUser-agent: q\n".repeat(30_000));
        text.push_str("Disallow: /\n");
        let diagnostics = lint(&RobotsTxt::parse(text.clone().into_bytes()));
        assert!(diagnostics.iter().filter(|d| d.code == Code::BlankLineInGroup).count() >= 30_000);
        let said: usize =
            diagnostics.iter().map(|d| d.message.len() + d.fix.as_ref().map_or(0, |f| f.title.len())).sum();
        assert!(said < 2_000 * diagnostics.len(), "{said} bytes said of {} bytes", text.len());
    }
}
