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

use std::borrow::Cow;
use std::fmt::{self, Write as _};
use std::ops::Range;

use foldhash::HashMap;

use super::agent::is_valid_token;
use super::catalogue::Code;
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
use super::words::plural;

/// How serious a diagnostic is. Ordered most serious first (`Error < Warning < Info`),
/// the order diagnostics are listed in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
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

/// One problem found in a robots.txt.
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
    /// as it is: escape it (see [`escape`](super::escape)) before it reaches a terminal.
    #[must_use]
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The fix, if one can be known.
    #[must_use]
    pub fn fix(&self) -> Option<&Fix> {
        self.fix.as_ref()
    }

    /// What the fix does to the verdicts under every reading, when it was checked
    /// ([`lint_checked`], [`check_fixes`](super::fix::check_fixes)).
    #[must_use]
    pub fn fix_effect(&self) -> Option<&FixEffect> {
        self.effect.as_ref()
    }
}

/// Robot names known to contain spaces (`assets/multi-word-robots.txt`), one per line.
const MULTI_WORD_ROBOTS: &str = include_str!("../../assets/multi-word-robots.txt");

/// Fields robots are told about in robots.txt that no major robot honours there.
const UNSUPPORTED_FIELDS: &[&str] = &["noindex", "nofollow", "noarchive", "nosnippet", "index", "follow"];

/// Finds every diagnostic in a file, sorted by line.
///
/// # Examples
///
/// ```
/// use robotscope::policy::{Code, RobotsTxt, lint};
/// let txt = RobotsTxt::parse(b"User-agent: *\nDisallow: ~\n".to_vec());
/// let diagnostics = lint(&txt);
/// assert_eq!(diagnostics[0].code(), Code::PathWithoutSlash);
/// assert_eq!(diagnostics[0].line(), 2);
/// ```
///
/// Every byte of the file is read, whatever the RFC 9309 reading's limit
/// ([`RobotsTxt::with_rfc9309_limit`]): a diagnostic says what that reading leaves
/// unread. The fixes are not checked: [`lint_checked`] says what each does to the
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

/// [`lint`], with every fix checked under every reading for every robot the file names
/// and `*` before it is offered: [`Diagnostic::fix_effect`] says which verdicts it
/// changes, if any. `txt` is the file as robots read it (its RFC 9309 limit included),
/// which is what the verdicts are compared on.
///
/// # Examples
///
/// ```
/// use robotscope::policy::lint::lint_checked;
/// use robotscope::policy::RobotsTxt;
/// let txt = RobotsTxt::parse(b"User-agent: *\nDisallow: ~\nDisallow: /a\nDisallow: /a\n".to_vec());
/// let diagnostics = lint_checked(&txt);
/// let effects: Vec<String> = diagnostics.iter().filter_map(|d| d.fix_effect()).map(ToString::to_string).collect();
/// assert!(effects[0].starts_with("changes verdicts: RFC 9309: a robot no group names /~ allowed → disallowed"));
/// assert_eq!(effects[1], "changes no verdict under any reading");
/// ```
#[must_use]
pub fn lint_checked(txt: &RobotsTxt) -> Vec<Diagnostic> {
    let mut diagnostics = lint(txt);
    super::fix::check_fixes(txt, &mut diagnostics);
    diagnostics
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

    // --- The whole file ---------------------------------------------------------------------

    fn file(&mut self) {
        let source = self.txt.source();
        let whole = 0..source.len().min(1024);
        match content::sniff(source) {
            Content::Utf16 => {
                self.file_is_not_robots_txt = true;
                let odd = source.len() % 2 == 1;
                let fix = utf16_to_utf8(source).map(|text| Fix {
                    title: if odd {
                        "Convert the file to UTF-8 (its last byte, half a character, becomes \u{FFFD})".into()
                    } else {
                        "Convert the file to UTF-8".into()
                    },
                    edits: vec![Edit { span: 0..source.len(), replacement: text }],
                });
                self.push(
                    Code::Utf16File,
                    Severity::Error,
                    1,
                    0..2,
                    "The file is UTF-16. RFC 9309 asks for UTF-8 and no robot decodes UTF-16: every robot reads \
                     a NUL byte between the characters, so Google finds no rules at all and the 1994/1996 robots \
                     see no field names they know."
                        .to_owned(),
                    fix,
                );
                return;
            }
            Content::Html => {
                self.file_is_not_robots_txt = true;
                // Robots read a page line by line like any robots.txt: say what they find.
                let rules: usize =
                    self.txt.interpretation(Reading::Rfc9309).groups().iter().map(|g| g.rules().len()).sum();
                let what_robots_read = if rules == 0 {
                    "No reading finds rules in it, so every robot may fetch everything.".to_owned()
                } else {
                    format!(
                        "Robots read it line by line all the same and find {} in lines that look like robots.txt \
                         lines; no other line counts.",
                        plural(rules, "rule")
                    )
                };
                self.push(
                    Code::HtmlFile,
                    Severity::Error,
                    1,
                    whole,
                    format!(
                        "The file is an HTML page, not a robots.txt (a server answering every URL with a page?). \
                         {what_robots_read}"
                    ),
                    None,
                );
                return;
            }
            Content::Binary => {
                self.file_is_not_robots_txt = true;
                self.push(
                    Code::BinaryFile,
                    Severity::Error,
                    1,
                    whole,
                    "The file is not text (an image or other binary data?). No reading finds rules in it, so every \
                     robot may fetch everything."
                        .to_owned(),
                    None,
                );
                return;
            }
            Content::Text => {}
        }
        if lex::byte_order_mark(source) == Some(ByteOrderMark::Utf8) {
            self.byte_order_marks();
        }
        if source.len() > PARSE_LIMIT_BYTES {
            self.content_past_500_kib();
        }
    }

    /// A file longer than RFC 9309 readers read: an error when what they leave unread
    /// changes a verdict, which is named (the whole file against its first 500 KiB, for
    /// every robot the file names).
    fn content_past_500_kib(&mut self) {
        let source = self.txt.source();
        let line = self.txt.lines().iter().find(|l| l.end() > PARSE_LIMIT_BYTES).map_or(1, Line::number);
        let cut = RobotsTxt::parse(source.to_vec()).with_rfc9309_limit(Some(PARSE_LIMIT_BYTES));
        let effect = super::impact::impact(self.txt, &cut);
        let (severity, what) = if effect.is_none() {
            (Severity::Warning, "which changes no verdict".to_owned())
        } else {
            (Severity::Error, format!("and reading only that much {effect}"))
        };
        self.push(
            Code::ContentPast500Kib,
            severity,
            line,
            PARSE_LIMIT_BYTES..source.len(),
            format!(
                "The file is {} bytes. RFC 9309 §2.5 lets robots stop at 500 KiB and Google does: they ignore \
                 line {line} on, {what}. 1994/1996 robots read every byte.",
                source.len()
            ),
            None,
        );
    }

    /// One or more UTF-8 byte order marks at the start of the file.
    fn byte_order_marks(&mut self) {
        let marks = self.leading_boms;
        let first_is_field = self.classic_field.first().copied().flatten().is_some();
        let (severity, message) = match (marks, first_is_field) {
            (1, true) => (
                Severity::Warning,
                "The file starts with a UTF-8 byte order mark. Google skips it; 1994/1996 robots read it as \
                 part of the first field's name and ignore line 1."
                    .to_owned(),
            ),
            (1, false) => (
                Severity::Info,
                "The file starts with a UTF-8 byte order mark. Google skips it; line 1 holds no field, so no \
                 robot loses anything."
                    .to_owned(),
            ),
            (marks, _) => (
                Severity::Error,
                format!(
                    "The file starts with {marks} UTF-8 byte order marks. Google skips one and reads the \
                     others as part of the first field's name, and 1994/1996 robots skip none: no robot \
                     reads line 1."
                ),
            ),
        };
        let span = 0..3 * marks;
        let title = if marks == 1 { "Remove the byte order mark" } else { "Remove the byte order marks" };
        self.push(
            Code::Utf8Bom,
            severity,
            1,
            span.clone(),
            message,
            Some(Fix { title: title.into(), edits: vec![Edit { span, replacement: String::new() }] }),
        );
    }

    // --- Line by line -----------------------------------------------------------------------

    fn lines(&mut self) {
        for index in 0..self.txt.lines().len() {
            let line = self.txt.lines()[index];
            self.bytes_of_line(&line);
            let rfc = self.rfc_field[index].map(|f| &self.rfc.fields()[f]);
            let classic = self.classic_field[index].map(|f| &self.classic.fields()[f]);
            // A line only the classic readings read as a field is one Google cut short
            // (a NUL, or past its line limit): the byte checks above said so already.
            if let Some(field) = rfc {
                self.field(field, classic);
            }
        }
    }

    fn bytes_of_line(&mut self, line: &Line) {
        let content = line.content(self.txt.source());
        if content.len() > RFC9309_MAX_LINE_BYTES {
            self.push(
                Code::LongLine,
                Severity::Warning,
                line.number(),
                line.start() + RFC9309_MAX_LINE_BYTES..line.content_end(),
                format!(
                    "Line {} is {} bytes long. Google reads the first {RFC9309_MAX_LINE_BYTES} bytes of a line and \
                     drops the rest; 1994/1996 robots read it whole.",
                    line.number(),
                    content.len()
                ),
                None,
            );
        }
        if let Some(nul) = memchr::memchr(0, content) {
            // Google keeps each line in a C string, so the NUL ends it; the fix cuts the
            // line there, which keeps Google's reading and gives the classic robots the
            // same one (for them the NUL was a character of a path no URL holds).
            let kept = String::from_utf8_lossy(&content[..nul]).into_owned();
            self.push(
                Code::NulByte,
                Severity::Warning,
                line.number(),
                line.start() + nul..line.start() + nul + 1,
                format!(
                    "A NUL byte: Google's parser ends the line there and reads `{kept}`; 1994/1996 robots keep the NUL \
                     as a character, so a path holding it matches no URL for them. Cutting the line at the NUL keeps \
                     Google's verdicts and gives 1994/1996 robots the same reading."
                ),
                Some(Fix {
                    title: "Cut the line at the NUL, as Google reads it".into(),
                    edits: vec![Edit { span: line.start() + nul..line.content_end(), replacement: String::new() }],
                }),
            );
        }
        let mut unsafe_spans = Vec::new();
        let mut invalid = None;
        let mut offset = 0;
        // Up to the NUL: what follows it is cut by the NUL's own fix.
        let before_nul = &content[..memchr::memchr(0, content).unwrap_or(content.len())];
        let mut invisible = Vec::new();
        for chunk in before_nul.utf8_chunks() {
            for (at, c) in chunk.valid().char_indices() {
                let at = line.start() + offset + at;
                // The byte order marks the file starts with have their own diagnostic.
                if super::escape::is_invisible(c) && at >= 3 * self.leading_boms {
                    invisible.push((at, c));
                } else if super::escape::is_unsafe(c) && !super::escape::is_invisible(c) {
                    unsafe_spans.push((at, c));
                }
            }
            offset += chunk.valid().len();
            if !chunk.invalid().is_empty() && invalid.is_none() {
                invalid = Some(line.start() + offset..line.start() + offset + chunk.invalid().len());
            }
            offset += chunk.invalid().len();
        }
        if let Some(&(first, c)) = unsafe_spans.first() {
            self.control_characters(line, &unsafe_spans, first..first + c.len_utf8());
        }
        if !invisible.is_empty() {
            self.invisible_characters(line, &invisible);
        }
        if let Some(span) = invalid {
            self.push(
                Code::InvalidUtf8,
                Severity::Warning,
                line.number(),
                span,
                "Bytes that are not UTF-8 (Latin-1?). RFC 9309 expects UTF-8. Google percent-encodes such bytes as \
                 they are (é in Latin-1 becomes %E9, not %C3%A9), so a rule with them matches only URLs written \
                 the same way."
                    .to_owned(),
                None,
            );
        }
    }

    /// Control characters on a line: in a rule's value they are written as the `%XX`
    /// escapes URLs carry (as written, no URL holds them, so the rule matched nothing;
    /// the message says the verdicts change); anywhere else they mean nothing and go.
    fn control_characters(&mut self, line: &Line, found: &[(usize, char)], first: Range<usize>) {
        let txt = self.txt;
        let value = self.rfc_field[line.number() - 1].map(|f| &self.rfc.fields()[f]).and_then(|field| {
            match field.kind() {
                kind if kind.is_rule() => Some(field.value().clone()),
                // A Content-Usage path is matched as a rule's is (draft-ietf-aipref-attach):
                // its control characters are kept as %XX too, not removed.
                FieldKind::ContentUsage => {
                    let value = field.value();
                    let text = txt.text(&value);
                    let start = value.start + text.iter().take_while(|b| b.is_ascii_whitespace()).count();
                    let path = &txt.source()[start..value.end];
                    let is_path = matches!(path.first(), Some(b'/' | b'*'));
                    let end = path.iter().position(|b| *b == b' ' || *b == b'\t').map_or(value.end, |at| start + at);
                    is_path.then_some(start..end)
                }
                _ => None,
            }
        });
        let in_value = |at: usize| value.as_ref().is_some_and(|v| v.contains(&at));
        let edits: Vec<Edit> = found
            .iter()
            .map(|&(at, c)| {
                let span = at..at + c.len_utf8();
                let mut bytes = [0; 4];
                let mut replacement = String::new();
                if in_value(at) {
                    for byte in c.encode_utf8(&mut bytes).bytes() {
                        let _ = write!(replacement, "%{byte:02X}");
                    }
                }
                Edit { span, replacement }
            })
            .collect();
        let in_name = self.rfc_field[line.number() - 1].map(|f| &self.rfc.fields()[f]).is_some_and(|field| {
            field.kind() == FieldKind::UserAgent && found.iter().any(|&(at, _)| field.value().contains(&at))
        });
        // What the fix does to the verdicts is checked, and said, with the fix.
        let (message, title) = if found.iter().any(|&(at, _)| in_value(at)) {
            (
                "A control character in a path (shown as ^X or <U+XXXX>). A crawler sends it as %XX, and the rule \
                 is read that way too; written as %XX the rule reads the same and shows what it holds. It is \
                 never shown raw.",
                "Write the control characters as %XX",
            )
        } else if in_name {
            (
                "A control character inside a robot's name (shown as ^X or <U+XXXX>): RFC 9309 robots read the \
                 name only up to it, 1994/1996 robots look for it, control and all, inside their own name, so the \
                 line names another robot than the one it shows. It is never shown raw.",
                "Remove the control characters",
            )
        } else {
            (
                "A control character (shown as ^X or <U+XXXX>) outside any path: it can make the line read \
                 differently from what it is, and is never shown raw.",
                "Remove the control characters",
            )
        };
        self.push(
            Code::ControlCharacter,
            Severity::Warning,
            line.number(),
            first,
            message.to_owned(),
            Some(Fix { title: title.into(), edits }),
        );
    }

    /// Invisible characters (zero width, soft hyphen) inside a robot's name or a rule's
    /// path (issue 24): `Google<U+200B>bot` shows as `Googlebot` everywhere, and names no
    /// robot. Elsewhere (a comment) they mean nothing and are only shown escaped.
    fn invisible_characters(&mut self, line: &Line, found: &[(usize, char)]) {
        let Some(field) = self.rfc_field[line.number() - 1].map(|f| &self.rfc.fields()[f]) else { return };
        let value = field.value();
        let inside: Vec<(usize, char)> = found.iter().copied().filter(|(at, _)| value.contains(at)).collect();
        let Some(&(first, c)) = inside.first() else { return };
        let shown = String::from_utf8_lossy(self.txt.text(&value)).replace(super::escape::is_invisible, "");
        let written = super::escape::sanitize(self.txt.text(&value));
        let what = super::escape::visible(c);
        let message = match field.kind() {
            FieldKind::UserAgent => {
                let token = String::from_utf8_lossy(product_token(self.txt.text(&value))).into_owned();
                format!(
                    "An invisible character ({what}) inside the robot's name `{written}`: it shows as `{shown}`, \
                     but RFC 9309 robots read the name only up to it (`{token}`), and 1994/1996 robots look for \
                     it, invisible character and all, inside their own name. The line names no robot it seems to."
                )
            }
            kind if kind.is_rule() || kind == FieldKind::ContentUsage => format!(
                "An invisible character ({what}) inside the path `{written}`: it shows as `{shown}`, but a crawler \
                 requests it percent-encoded there, so the line matches only URLs that hold it."
            ),
            _ => return,
        };
        let edits = inside.iter().map(|&(at, c)| Edit { span: at..at + c.len_utf8(), replacement: String::new() });
        self.push(
            Code::InvisibleCharacter,
            Severity::Error,
            line.number(),
            first..first + c.len_utf8(),
            message,
            Some(Fix { title: "Remove the invisible characters".into(), edits: edits.collect() }),
        );
    }

    /// A line RFC 9309 reads as a field (`classic` is the same line to the classic
    /// readings, if they read a field there).
    fn field(&mut self, field: &Field, classic: Option<&Field>) {
        let key = self.text(&field.key());
        if field.line() == 1 && key.starts_with('\u{feff}') {
            // Byte order marks Google did not skip: the BOM diagnostic speaks for the line.
            return;
        }
        if field.separator() == Separator::Whitespace {
            self.push(
                Code::MissingColon,
                Severity::Error,
                field.line(),
                field.key().clone(),
                format!(
                    "No colon after `{key}`. Google accepts a space instead on a two-word line and reads it as {}; \
                     1994/1996 robots need the colon and ignore the line.",
                    field.kind().canonical()
                ),
                Some(Fix {
                    title: "Add the colon".into(),
                    edits: vec![Edit { span: field.key().end..field.key().end, replacement: ":".to_owned() }],
                }),
            );
        } else if field.spelling() == Spelling::Tolerated && classic.is_none_or(|c| c.kind() != field.kind()) {
            self.push(
                Code::MisspeltField,
                Severity::Error,
                field.line(),
                field.key().clone(),
                format!(
                    "`{key}` is not a field name. Google tolerates it and reads {}; 1994/1996 robots do not know \
                     the field and ignore the line.",
                    field.kind().canonical()
                ),
                Some(rename_key(field, field.kind())),
            );
        }
        match field.kind() {
            FieldKind::UserAgent => self.user_agent(field),
            FieldKind::Allow | FieldKind::Disallow => self.rule_value(field),
            FieldKind::Sitemap => self.sitemap(field),
            FieldKind::CrawlDelay | FieldKind::RequestRate | FieldKind::VisitTime => self.extension(field),
            FieldKind::ContentUsage | FieldKind::ContentSignal => self.usage_field(field),
            FieldKind::Host | FieldKind::CleanParam => {}
            FieldKind::Unknown => self.unknown_field(field),
        }
    }

    fn unknown_field(&mut self, field: &Field) {
        let key = self.text(&field.key());
        let lower = key.to_ascii_lowercase();
        if UNSUPPORTED_FIELDS.contains(&lower.as_str()) {
            self.push(
                Code::UnsupportedField,
                Severity::Warning,
                field.line(),
                field.key().clone(),
                format!(
                    "`{key}:` in robots.txt is honoured by no major robot (Google stopped in 2019): every reading \
                     ignores the line. To keep pages out of the index, use a robots META tag or an X-Robots-Tag \
                     header, and let robots fetch the page so they can see it."
                ),
                None,
            );
            return;
        }
        if let Some(kind) = near_miss(&lower) {
            self.push(
                Code::MisspeltField,
                Severity::Error,
                field.line(),
                field.key().clone(),
                format!(
                    "`{key}` looks like a misspelt {}. No reading knows it, so every robot ignores the line.",
                    kind.canonical()
                ),
                Some(rename_key(field, kind)),
            );
            return;
        }
        self.push(
            Code::UnknownField,
            Severity::Info,
            field.line(),
            field.key().clone(),
            format!("`{key}` is not a field any reading knows; every robot ignores the line."),
            None,
        );
    }

    fn user_agent(&mut self, field: &Field) {
        let value = self.text(&field.value());
        if value.is_empty() {
            self.push(
                Code::EmptyUserAgent,
                Severity::Warning,
                field.line(),
                field.key().start..field.value().end,
                "An empty User-agent. RFC 9309 robots find no robot named by it; 1994/1996 robots look for the \
                 value inside their name, and an empty value is inside every name, so this record applies to \
                 every one of them."
                    .to_owned(),
                None,
            );
            return;
        }
        let words: Vec<(usize, &str)> = split_words(&value);
        if let Some(embedded) = words.iter().skip(1).position(|(_, word)| starts_with_field(word)) {
            let split_at = words[embedded + 1].0;
            self.split_fields(field, &value, split_at);
            return;
        }
        if words.len() > 1 {
            self.several_words_in_agent(field, &value, &words);
            return;
        }
        if value == "*" {
            return;
        }
        let token = String::from_utf8_lossy(product_token(value.as_bytes())).into_owned();
        let rest = &value[token.len()..];
        if !token.is_empty() && rest.starts_with('/') && is_valid_token(&token) {
            self.push(
                Code::UserAgentVersion,
                Severity::Warning,
                field.line(),
                field.value().start + token.len()..field.value().end,
                format!(
                    "`{value}` names a version. RFC 9309 robots cut it to `{token}` and match; 1994/1996 robots \
                     look for `{}` inside their name, which they cut at its first /, so they find it in none.",
                    value.to_lowercase()
                ),
                Some(Fix {
                    title: format!("Write `{token}`").into(),
                    edits: vec![Edit {
                        span: field.value().start + token.len()..field.value().end,
                        replacement: String::new(),
                    }],
                }),
            );
        } else if !rest.is_empty() && !token.is_empty() && rest.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
            self.push(
                Code::TokenCut,
                Severity::Warning,
                field.line(),
                field.value().clone(),
                format!(
                    "RFC 9309 robots read a name up to its first character that is not a letter, `_` or `-`, so \
                     they read `{value}` as `{token}`: a robot whose token is `{value}` is not matched, and one \
                     called `{token}` is. 1994/1996 robots compare the whole name."
                ),
                None,
            );
        }
    }

    /// `User-agent: Copernicus Fred` is two robots, or one robot's name with a space: a
    /// name known to hold spaces, a version, or more than two words is one name;
    /// otherwise the fix splits it, and the message says what else it could be.
    fn several_words_in_agent(&mut self, field: &Field, value: &str, words: &[(usize, &str)]) {
        let first = words[0].1;
        let lower = value.to_lowercase();
        let rfc_reads = if first == "*" {
            "the * group".to_owned()
        } else {
            format!("the robot `{}`", String::from_utf8_lossy(product_token(first.as_bytes())))
        };
        let one_name = first != "*"
            && (words.len() > 2
                || words.iter().any(|(_, w)| w.contains(|c: char| c.is_ascii_digit()))
                || MULTI_WORD_ROBOTS.lines().any(|name| name == lower));
        if one_name {
            self.push(
                Code::AgentNameWithSpaces,
                Severity::Warning,
                field.line(),
                field.value().clone(),
                format!(
                    "`{value}` is one robot's name with spaces. RFC 9309 robots read only {rfc_reads}, the name up \
                     to its first space; 1994/1996 robots look for `{lower}` inside their own name."
                ),
                None,
            );
            return;
        }
        let key = self.text(&field.key());
        let names: Vec<String> = words.iter().map(|(_, w)| format!("User-agent: {w}")).collect();
        let lines: Vec<String> = words.iter().skip(1).map(|(_, w)| format!("{key}: {w}")).collect();
        self.push(
            Code::SeveralAgents,
            Severity::Error,
            field.line(),
            field.value().clone(),
            format!(
                "Several robots on one line (`{value}`). RFC 9309 robots read only {rfc_reads}; 1994/1996 robots \
                 look for the whole text `{lower}` inside their name and find it in none. Write one line each: {}. \
                 (If `{value}` is one robot's name, RFC 9309 robots can only match its first word.)",
                names.join(", ")
            ),
            Some(Fix {
                title: "One User-agent line per robot".into(),
                edits: vec![
                    Edit { span: field.value().clone(), replacement: first.to_owned() },
                    self.insert_after(field.line(), &lines),
                ],
            }),
        );
    }

    /// `User-agent: charlotte Disallow: /cgi-bin`: split before the embedded field.
    fn split_fields(&mut self, field: &Field, value: &str, split_at: usize) {
        let first = value[..split_at].trim_end().to_owned();
        let words = split_words(value);
        let mut rest: Vec<String> = Vec::new();
        for (i, &(at, word)) in words.iter().enumerate() {
            if at < split_at {
                continue;
            }
            if starts_with_field(word) || rest.is_empty() {
                let end =
                    words[i + 1..].iter().find(|(_, w)| starts_with_field(w)).map_or(value.len(), |(next, _)| *next);
                rest.push(value[at..end].trim_end().to_owned());
            }
        }
        let key = self.text(&field.key());
        self.push(
            Code::SeveralFields,
            Severity::Error,
            field.line(),
            field.value().clone(),
            format!(
                "Two fields on one line. RFC 9309 robots read `{key}: {first}` and nothing of `{}`; 1994/1996 \
                 robots take the whole rest of the line as the value, which names no robot. No reading sees the \
                 rule.",
                rest.join(" ")
            ),
            Some(Fix {
                title: "Put each field on its own line".into(),
                edits: vec![
                    Edit { span: field.value().clone(), replacement: first },
                    self.insert_after(field.line(), &rest),
                ],
            }),
        );
    }

    fn rule_value(&mut self, field: &Field) {
        let value = self.text(&field.value());
        if value.is_empty() {
            return;
        }
        let words = split_words(&value);
        if value == "*" {
            self.star_path(field);
        } else if words.len() > 1 {
            self.several_words_in_rule(field, &value, &words);
        } else if !value.starts_with(['/', '*']) {
            self.path_without_slash(field, &value);
        } else {
            self.wildcards_in_rule(field, &value);
        }
    }

    fn star_path(&mut self, field: &Field) {
        let kind = field.kind().canonical();
        let effect = if field.kind() == FieldKind::Disallow {
            "RFC 9309 robots read `*` as any path and keep out; 1994/1996 robots look for a path starting with `*`, \
             find none, and go everywhere"
        } else {
            "RFC 9309 robots read `*` as any path; 1994/1996 robots look for a path starting with `*` and find none"
        };
        self.push(
            Code::StarPath,
            Severity::Error,
            field.line(),
            field.value().clone(),
            format!("`{kind}: *`: {effect}. `/` means every path to every reading."),
            Some(Fix {
                title: format!("Write `{kind}: /`").into(),
                edits: vec![Edit { span: field.value().clone(), replacement: "/".to_owned() }],
            }),
        );
    }

    fn several_words_in_rule(&mut self, field: &Field, value: &str, words: &[(usize, &str)]) {
        let (key, kind) = (self.text(&field.key()), field.kind().canonical());
        let all_paths = words.iter().all(|(_, w)| w.starts_with(['/', '*']) || w.starts_with("http"));
        if !all_paths && value.starts_with('/') {
            self.push(
                Code::PathWithSpace,
                Severity::Warning,
                field.line(),
                field.value().clone(),
                "A space in a path. Crawlers request it as %20, and robotscope reads the rule so (as protego and \
                 reppy do), but Google's library compares the rule byte for byte, so for Google it matches no URL \
                 a crawler requests (--raw-url shows that reading). Write %20 and every reader agrees."
                    .to_owned(),
                // (From the bytes as written only: a lossy copy would replace invalid ones.)
                std::str::from_utf8(self.txt.text(&field.value())).is_ok().then(|| Fix {
                    title: "Write each space as %20".into(),
                    edits: vec![Edit { span: field.value().clone(), replacement: value.replace(' ', "%20") }],
                }),
            );
            return;
        }
        let lines: Vec<String> = words.iter().skip(1).map(|(_, w)| format!("{key}: {w}")).collect();
        self.push(
            Code::SeveralPaths,
            Severity::Error,
            field.line(),
            field.value().clone(),
            format!(
                "Several paths on one line. Every reading takes `{value}` as one path (with spaces), which no URL \
                 starts with, so the line blocks nothing. Write one {kind} line per path."
            ),
            Some(Fix {
                title: "One line per path".into(),
                edits: vec![
                    Edit { span: field.value().clone(), replacement: words[0].1.to_owned() },
                    self.insert_after(field.line(), &lines),
                ],
            }),
        );
    }

    fn path_without_slash(&mut self, field: &Field, value: &str) {
        let kind = field.kind().canonical();
        let suggestion = url::Url::parse(value)
            .ok()
            .filter(|url| matches!(url.scheme(), "http" | "https"))
            .map_or_else(|| format!("/{value}"), |url| url[url::Position::BeforePath..].to_owned());
        self.push(
            Code::PathWithoutSlash,
            Severity::Error,
            field.line(),
            field.value().clone(),
            format!(
                "`{value}` does not start with `/`. Every URL path does, so under every reading this rule matches \
                 nothing and the robots it is for may go everywhere. Did you mean `{suggestion}`?"
            ),
            Some(Fix {
                title: format!("Write `{kind}: {suggestion}`").into(),
                edits: vec![Edit { span: field.value().clone(), replacement: suggestion }],
            }),
        );
    }

    fn wildcards_in_rule(&mut self, field: &Field, value: &str) {
        let body = value.strip_suffix('$').unwrap_or(value);
        if body.contains('$') {
            self.push(
                Code::DollarInsidePattern,
                Severity::Warning,
                field.line(),
                field.value().clone(),
                "A `$` inside a pattern is an ordinary character to every reading; only a final `$` anchors the \
                 end (RFC 9309 §2.2.3)."
                    .to_owned(),
                None,
            );
        }
        if value.contains('*') || value.ends_with('$') {
            self.push(
                Code::WildcardForClassicRobots,
                Severity::Warning,
                field.line(),
                field.value().clone(),
                format!(
                    "`{value}` uses wildcards. RFC 9309 robots read `*` as any characters and a final `$` as the \
                     end of the path; 1994/1996 robots look for these characters literally, so for them the rule \
                     matches almost nothing."
                ),
                None,
            );
        }
    }

    fn sitemap(&mut self, field: &Field) {
        let value = self.text(&field.value());
        let absolute = url::Url::parse(&value).is_ok_and(|url| matches!(url.scheme(), "http" | "https"));
        if !absolute {
            self.push(
                Code::SitemapNotAbsolute,
                Severity::Warning,
                field.line(),
                field.value().clone(),
                format!(
                    "`{value}` is not an absolute http(s) URL. RFC 9309 §2.3.5 and sitemaps.org ask for the full \
                     URL (https://host/sitemap.xml); robots may ignore a relative one."
                ),
                None,
            );
        }
    }

    fn extension(&mut self, field: &Field) {
        let value = self.text(&field.value());
        let (ok, support, form) = match field.kind() {
            FieldKind::CrawlDelay => (
                crawl_delay(&value).is_some(),
                "Bing, Yandex and many smaller robots wait that many seconds between requests; Google ignores it",
                "a number of seconds (10, 0.5)",
            ),
            FieldKind::RequestRate => (
                RequestRate::parse(&value).is_some(),
                "Seznam and some others honour it (urllib reads it); Google and Bing ignore it",
                "requests/period, such as 1/10s or 30/1m, optionally followed by a time window",
            ),
            _ => (
                VisitTime::parse(&value).is_some(),
                "only a few 1990s-era robots honour it; Google and Bing ignore it",
                "a UTC time window, such as 0100-0500",
            ),
        };
        let name = field.kind().canonical();
        if ok {
            self.push(
                Code::ExtensionSupport,
                Severity::Info,
                field.line(),
                field.key().start..field.value().end,
                format!("{name}: {support}. It is no rule: no reading changes a verdict for it."),
                None,
            );
        } else {
            self.push(
                Code::BadExtensionValue,
                Severity::Warning,
                field.line(),
                field.value().clone(),
                format!("`{value}` is not a valid {name} value ({form}); robots that honour {name} will ignore it."),
                None,
            );
        }
    }

    // --- Usage preferences (see `usage.rs`) ------------------------------------------------

    /// A Content-Usage or Content-Signal line: what it states (or why it states less
    /// than its author meant), with a fix where the intent is plain.
    fn usage_field(&mut self, field: &Field) {
        let name = field.kind().canonical();
        let is_usage = field.kind() == FieldKind::ContentUsage;
        // The loose extensions are in file order: a binary search, not a scan per line.
        let fields = self.rfc.fields();
        if self.rfc.loose_extensions().binary_search_by_key(&field.line(), |&f| fields[f].line()).is_ok() {
            let message = format!("{name} before any User-agent line belongs to no group, so no robot reads it.");
            self.push(Code::UsageOutsideGroup, Severity::Warning, field.line(), field.key().clone(), message, None);
            return;
        }
        let value = self.text(&field.value());
        let text = value.trim();
        let text_start = field.value().start + (value.len() - value.trim_start().len());
        // A Content-Usage value may start with its path; the preferences follow it.
        let preferences_at = match text.find(char::is_whitespace) {
            Some(end) if is_usage && text.starts_with(['/', '*']) => {
                end + (text[end..].len() - text[end..].trim_start().len())
            }
            _ if is_usage && text.starts_with(['/', '*']) => text.len(),
            _ => 0,
        };
        let preferences = &text[preferences_at..];
        let span = text_start + preferences_at..text_start + text.len();
        if let Some((first, rest)) = preferences.split_once(char::is_whitespace)
            && is_usage
            && preferences_at == 0
            && first.contains('/')
            && !first.contains('=')
            && !rest.trim().is_empty()
        {
            let message = format!(
                "`{first}` does not start with /, so it is read as part of the preferences, which then do not parse: \
                 every category is unknown. With a slash it is the path `/{first}`."
            );
            let fix = Fix {
                title: format!("Write `/{first}`").into(),
                edits: vec![Edit { span: text_start..text_start, replacement: "/".into() }],
            };
            self.push(Code::UsagePathWithoutSlash, Severity::Error, field.line(), span, message, Some(fix));
            return;
        }
        let meaning = |preferences: &str| usage_meaning(is_usage, preferences);
        let lower = preferences.to_ascii_lowercase();
        if !usage::is_dictionary(preferences.as_bytes()) {
            let upper_case_keys = lower != preferences && usage::is_dictionary(lower.as_bytes());
            let message = if upper_case_keys {
                format!(
                    "`{preferences}` has upper-case keys, which RFC 9651 does not allow: it does not parse, so every \
                     category is unknown. In lower case: {}.",
                    meaning(&lower)
                )
            } else {
                format!(
                    "`{preferences}` is not an RFC 9651 dictionary (`train-ai=n, search=y`): every category is unknown."
                )
            };
            let fix = upper_case_keys.then(|| Fix {
                title: "Write the keys in lower case".into(),
                edits: vec![Edit { span: span.clone(), replacement: lower.clone() }],
            });
            self.push(Code::UsageUnparsable, Severity::Error, field.line(), span, message, fix);
            return;
        }
        let (fixed, renamed) = usage_in_own_words(is_usage, preferences);
        if meaning(&fixed) != meaning(preferences) {
            let code = if renamed { Code::UsageCategory } else { Code::UsageValue };
            let vocabulary = match (renamed, is_usage) {
                (true, true) => "calls training `train-ai` (`ai-train` is Content-Signal's word)",
                (true, false) => "calls training `ai-train` (`train-ai` is Content-Usage's word)",
                (false, true) => "takes the tokens y and n, in lower case and without quotes",
                (false, false) => "takes yes and no, in lower case",
            };
            let message =
                format!("{name} {vocabulary}: as written, {}; as meant, {}.", meaning(preferences), meaning(&fixed));
            let fix = Fix {
                title: format!("Write `{fixed}`").into(),
                edits: vec![Edit { span: span.clone(), replacement: fixed.clone() }],
            };
            self.push(code, Severity::Error, field.line(), span, message, Some(fix));
            return;
        }
        let message = format!(
            "{name}: {}. It says what robots may do with what they fetch, never whether they may fetch it; RFC 9309 \
             robots that implement it read it, 1994/1996 robots do not know the field.",
            meaning(preferences)
        );
        self.push(
            Code::UsagePreferences,
            Severity::Info,
            field.line(),
            field.key().start..field.value().end,
            message,
            None,
        );
    }

    /// Identical Content-Usage paths in one group, or Content-Signal lines of one group,
    /// that state different preferences: they combine most restrictive first, which the
    /// author may not expect. And a Content-Usage `y` that the group's Content-Signal
    /// `no` for the same category always overrides.
    fn usage_conflicts(&mut self) {
        let mut conflicts = Vec::new();
        let mut overridden = Vec::new();
        for group in self.rfc.groups() {
            // Per path (Content-Usage) and for the group (Content-Signal): for each
            // category, the first line that said yes and the first that said no, so
            // that each line is checked in constant time however many there are.
            let mut paths: foldhash::HashMap<Option<Vec<u8>>, [[Option<usize>; 2]; 3]> = foldhash::HashMap::default();
            let mut signals: [[Option<usize>; 2]; 3] = Default::default();
            let mut usage_yes: Vec<(usize, Range<usize>, usize)> = Vec::new();
            for &index in group.extensions() {
                let field = &self.rfc.fields()[index];
                let span = field.key().start..field.value().end;
                let (said, stated, what): (Vec<Option<bool>>, _, _) = match field.kind() {
                    FieldKind::ContentUsage => {
                        let rule = usage::read_content_usage(self.txt.text(&field.value()));
                        let said = rule.said.unwrap_or_default();
                        for (category, &value) in said.iter().enumerate() {
                            if value == Some(true) {
                                usage_yes.push((field.line(), span.clone(), category));
                            }
                        }
                        let path = rule.path.map(|path| normalise_rfc9309(path).into_owned());
                        (said.to_vec(), paths.entry(path).or_default(), "the same path")
                    }
                    FieldKind::ContentSignal => {
                        let said = usage::read_content_signal(self.txt.text(&field.value()));
                        (said.to_vec(), &mut signals, "a Content-Signal")
                    }
                    _ => continue,
                };
                let earlier = said
                    .iter()
                    .enumerate()
                    .find_map(|(category, value)| value.and_then(|value| stated[category][usize::from(!value)]));
                if let Some(earlier) = earlier {
                    conflicts.push((field.line(), span, earlier, what));
                }
                for (category, value) in said.iter().enumerate() {
                    if let Some(value) = value {
                        stated[category][usize::from(*value)].get_or_insert(field.line());
                    }
                }
            }
            // Content-Usage's train-ai and search are Content-Signal's ai-train and
            // search (the first two categories of both).
            for (line, span, category) in usage_yes {
                if let Some(signal) = signals[category][0] {
                    overridden.push((line, span, signal, ["train-ai", "search"][category]));
                }
            }
        }
        for (line, span, earlier, what) in conflicts {
            let message = format!(
                "Line {earlier} has {what} with a different preference: they combine, and the most restrictive wins \
                 (an `n` or `no` over a `y` or `yes`)."
            );
            self.push(Code::UsageConflict, Severity::Warning, line, span, message, None);
        }
        for (line, span, signal, category) in overridden {
            let message = format!(
                "`{category}=y` never applies: line {signal}'s Content-Signal says no for the whole group, and the \
                 most restrictive preference wins. Remove the `no` from line {signal}, or this line."
            );
            self.push(Code::UsageOverridden, Severity::Warning, line, span, message, None);
        }
    }

    /// Content-Usage rules that can never apply: every path they name is disallowed by
    /// a rule of the same group, and a path the robot may not fetch has no preferences
    /// (draft-ietf-aipref-attach). Told only when it is certain: a Disallow without
    /// wildcards covers the rule's literal start, and no Allow of the group that could
    /// match one of those paths is as long (ties go to Allow, RFC 9309 §2.2.2).
    fn usage_under_disallow(&mut self) {
        /// Allows whose literal start extends the rule's, looked at one by one at most:
        /// past it the rule is taken to be allowed somewhere (told only when certain).
        const MAX_EXTENDING_ALLOWS: usize = 64;
        let merged = merged_groups(self.rfc);
        let mut found = Vec::new();
        for (group_index, group) in self.rfc.groups().iter().enumerate() {
            // A group merged with another (RFC 9309 §2.2.1) may be opened by the other's
            // Allow lines: not certain, not told.
            if merged.contains(&group_index) {
                continue;
            }
            let usage_fields: Vec<&Field> = group
                .extensions()
                .iter()
                .map(|&index| &self.rfc.fields()[index])
                .filter(|field| field.kind() == FieldKind::ContentUsage)
                .collect();
            if usage_fields.is_empty() {
                continue;
            }
            // The group's plain Disallows (a final `*` changes nothing) by pattern, and
            // its Allows by literal start, each indexed once for all its usage rules.
            let mut disallows = Vec::new();
            let mut allow_starts: Vec<(&[u8], usize)> = Vec::new();
            for rule in group.rules() {
                let pattern = self.txt.pattern(Reading::Rfc9309, rule);
                match rule.kind() {
                    RuleKind::Disallow => {
                        let prefix = pattern.strip_suffix(b"*").unwrap_or(pattern);
                        if !prefix.is_empty() && !prefix.contains(&b'*') && !prefix.ends_with(b"$") {
                            disallows.push((prefix, (rule.line(), pattern.len()), rule.line()));
                        }
                    }
                    RuleKind::Allow if !pattern.is_empty() => {
                        allow_starts.push((literal_start(pattern), pattern.len()));
                    }
                    RuleKind::Allow => {}
                }
            }
            if disallows.is_empty() {
                continue;
            }
            allow_starts.sort_unstable();
            let allows_within: PrefixSet<usize> =
                PrefixSet::new(allow_starts.iter().map(|&(start, len)| (start, len, 0)).collect());
            let disallows = PrefixSet::new(disallows);
            for field in usage_fields {
                // A rule without a path names every path: all of them start with `/`.
                let path = usage::read_content_usage(self.txt.text(&field.value())).path.unwrap_or(b"/");
                let path = normalise_rfc9309(path);
                let start = literal_start(&path);
                // The longest Disallow covering every path the rule names decides
                // unless an Allow as long could match one of them.
                let Some(&(disallow_line, covering)) = disallows.matches(start).next() else { continue };
                let mut allowed_somewhere = allows_within.matches(start).any(|&len| len >= covering);
                if !allowed_somewhere {
                    let from = allow_starts.partition_point(|(allow, _)| *allow < start);
                    let mut extending = allow_starts[from..].iter().take_while(|(allow, _)| allow.starts_with(start));
                    allowed_somewhere = extending.by_ref().take(MAX_EXTENDING_ALLOWS).any(|&(_, len)| len >= covering)
                        || extending.next().is_some();
                }
                if !allowed_somewhere {
                    found.push((field.line(), field.key().start..field.value().end, disallow_line));
                }
            }
        }
        for (line, span, disallow) in found {
            let message = format!(
                "It never applies: line {disallow} disallows every path it names, and a path the robot may not fetch \
                 has no usage preferences. Remove it, or allow the paths it is meant for."
            );
            self.push(Code::UsageUnderDisallow, Severity::Warning, line, span, message, None);
        }
    }

    // --- Groups -----------------------------------------------------------------------------

    fn groups(&mut self) {
        self.usage_conflicts();
        self.usage_under_disallow();
        let has_star = self.rfc.groups().iter().any(Group::names_star);
        for &field in self.rfc.orphan_rules() {
            let field = &self.rfc.fields()[field];
            let fix = (!has_star && self.leading_boms <= 1).then(|| Fix {
                title: "Add `User-agent: *` above".into(),
                edits: vec![Edit {
                    span: self.line(field.line()).start()..self.line(field.line()).start(),
                    replacement: format!("User-agent: *{}", self.eol(field.line())),
                }],
            });
            // Only the first orphan of a run gets the fix; the rest join its new group.
            let first_of_run = field.line() == 1
                || self.rfc_field[field.line() - 2].is_none_or(|f| !self.rfc.fields()[f].kind().is_rule());
            self.push(
                Code::RuleOutsideGroup,
                Severity::Error,
                field.line(),
                field.key().start..field.value().end,
                "A rule before any User-agent line: it belongs to no group, and every reading ignores it.".to_owned(),
                if first_of_run { fix } else { None },
            );
        }
        for (index, group) in self.rfc.groups().iter().enumerate() {
            self.blank_lines_in(group);
            self.rules_against_each_other(index, group);
        }
        self.repeated_groups();
    }

    /// Blank lines between a group's User-agent lines, or between them and the rules, or
    /// between the rules: RFC 9309 ignores them; the classic readings end the record.
    fn blank_lines_in(&mut self, group: &Group) {
        let first = group.first_line();
        let last = group.last_line();
        // Agents and rules are in line order: a binary search answers for any line.
        let agents_line = |n: usize| group.agents().binary_search_by_key(&n, super::parse::AgentLine::line).is_ok();
        // `*` reads as "every other robot" in the messages.
        let names: Vec<String> = group
            .agents()
            .iter()
            .map(|a| if *a.name() == AgentName::Star { "every other robot".to_owned() } else { self.text(&a.value()) })
            .collect();
        // A Crawl-delay (or other field that is no rule) in the group says what a record
        // before a blank line was for: the first such field, found once per group, not
        // once per blank line (20,000 blank lines would cost 20,000 scans).
        let first_non_rule = (first..=last)
            .filter_map(|l| self.rfc_field[l - 1].map(|f| &self.rfc.fields()[f]))
            .find(|field| !field.kind().is_rule() && !agents_line(field.line()))
            .map(|field| (field.line(), self.text(&field.key())));
        let verdict = self.group_gist(group);
        let mut n = first;
        while n < last {
            if !lex::is_blank(self.txt.source(), self.line(n)) {
                n += 1;
                continue;
            }
            let run_start = n;
            while n < last && lex::is_blank(self.txt.source(), self.line(n)) {
                n += 1;
            }
            let agents_before = group.agents().partition_point(|a| a.line() < run_start);
            // What the blank line separates is decided by the next field, past any
            // comment lines ("# this bot is slow" above a User-agent line).
            let next_field = (n..=last).find(|&l| self.rfc_field[l - 1].is_some()).unwrap_or(n);
            let after_is_agent = agents_line(next_field);
            let rules_before = group.rules().first().is_some_and(|r| r.line() < run_start);
            let span = self.line(run_start).start()..self.line(n - 1).end();
            let who = names_for_message(&names[..agents_before]);
            let (message, fix) = if after_is_agent && !rules_before {
                // "User-agent: webcrawler", blank, "User-agent: lycra", rules: the first
                // record was most likely meant to stand alone and allow everything.
                // A Crawl-delay (or other field that is no rule) before the blank line
                // says what the record was for: pacing the robot, not shutting it out.
                let paced = first_non_rule
                    .as_ref()
                    .filter(|(line, _)| *line < run_start)
                    .map(|(_, key)| format!(" (its {key} line does not end a group)"))
                    .unwrap_or_default();
                let later = names_for_message(&names[agents_before..]);
                (
                    format!(
                        "A blank line between User-agent lines. RFC 9309 robots ignore it and join {who} to the \
                         group of {later}{paced}, so {who} {verdict}; 1994/1996 robots end the record at the blank \
                         line, and a record without rules lets {who} go anywhere. If {who} is meant to go anywhere, \
                         say so with an empty `Disallow:`; if not, remove the blank line."
                    ),
                    Some(Fix {
                        title: format!("Add `Disallow:` so that {who} may go anywhere under every reading").into(),
                        edits: vec![self.insert_after(run_start - 1, &["Disallow:".to_owned()])],
                    }),
                )
            } else if !rules_before {
                (
                    format!(
                        "A blank line between User-agent and its rules. RFC 9309 robots ignore it and apply the \
                         rules below to {who}; 1994/1996 robots end the record at the blank line, so {who} may go \
                         anywhere for them and the rules below belong to no one."
                    ),
                    Some(Fix {
                        title: "Remove the blank line".into(),
                        edits: vec![Edit { span, replacement: String::new() }],
                    }),
                )
            } else {
                (
                    format!(
                        "A blank line inside the group of {who}. RFC 9309 robots read on; 1994/1996 robots end the \
                         record here, so for them the rules below it apply to no one."
                    ),
                    Some(Fix {
                        title: "Remove the blank line".into(),
                        edits: vec![Edit { span, replacement: String::new() }],
                    }),
                )
            };
            self.push(
                Code::BlankLineInGroup,
                Severity::Error,
                run_start,
                self.line(run_start).start()..self.line(run_start).end(),
                message,
                fix,
            );
        }
    }

    /// What a group does to its robots, in a few words, for messages.
    fn group_gist(&self, group: &Group) -> String {
        let blocks_all = group
            .rules()
            .iter()
            .any(|r| r.kind() == RuleKind::Disallow && self.txt.pattern(Reading::Rfc9309, r) == b"/");
        if blocks_all { "is blocked from /".to_owned() } else { "gets that group's rules".to_owned() }
    }

    /// Shadowed (1996 draft, first match), duplicate and redundant rules, and Disallows
    /// that lose every tie.
    fn rules_against_each_other(&mut self, _index: usize, group: &Group) {
        let patterns: Vec<&[u8]> = group.rules().iter().map(|r| self.txt.pattern(Reading::Rfc9309, r)).collect();
        // Duplicates, and a Disallow with the same pattern as an Allow.
        let mut seen: HashMap<(RuleKind, &[u8]), usize> =
            HashMap::with_capacity_and_hasher(group.rules().len(), foldhash::fast::RandomState::default());
        for (i, rule) in group.rules().iter().enumerate() {
            if let Some(&first) = seen.get(&(rule.kind(), patterns[i])) {
                self.push(
                    Code::DuplicateRule,
                    Severity::Info,
                    rule.line(),
                    rule.value().clone(),
                    format!("The same rule as line {first}; it changes nothing under any reading."),
                    Some(Fix { title: "Remove the duplicate".into(), edits: vec![self.delete_line(rule.line())] }),
                );
                continue;
            }
            seen.insert((rule.kind(), patterns[i]), rule.line());
        }
        for (i, rule) in group.rules().iter().enumerate() {
            if rule.kind() == RuleKind::Disallow
                && !patterns[i].is_empty()
                && let Some(&allow) = seen.get(&(RuleKind::Allow, patterns[i]))
                && seen.get(&(RuleKind::Disallow, patterns[i])) == Some(&rule.line())
            {
                self.push(
                    Code::DeadDisallow,
                    Severity::Warning,
                    rule.line(),
                    rule.value().clone(),
                    format!(
                        "Line {allow} allows the same pattern. RFC 9309 robots let Allow win a tie, so this \
                         Disallow never applies for them; 1996 robots take whichever comes first."
                    ),
                    None,
                );
            }
        }
        // Earlier rules whose pattern is a prefix of a later one's (plain patterns only:
        // wildcards make "covers" undecidable by prefix).
        let plain: Vec<usize> = (0..group.rules().len())
            .filter(|&i| super::pattern::is_plain_prefix(patterns[i]) && !patterns[i].is_empty())
            .collect();
        // The set holds each pattern's first rule only: the earliest rule covering a later
        // one is what counts.
        let set = PrefixSet::first_of_each(
            plain.iter().map(|&i| (patterns[i], i, group.rules()[i].line())).collect(),
            |_, _| true,
        );
        let mut opposite_sorted: [Vec<&[u8]>; 2] = [Vec::new(), Vec::new()];
        for &i in &plain {
            opposite_sorted[kind_index(group.rules()[i].kind())].push(patterns[i]);
        }
        for list in &mut opposite_sorted {
            list.sort_unstable();
        }
        let has_wildcards = plain.len() < group.rules().iter().filter(|r| !r.value().is_empty()).count();
        for &j in &plain {
            let rule = &group.rules()[j];
            let covering = set
                .matches(patterns[j])
                .copied()
                .filter(|&i| i != j && group.rules()[i].line() < rule.line())
                .min_by_key(|&i| group.rules()[i].line());
            let Some(i) = covering else { continue };
            let earlier = &group.rules()[i];
            if patterns[i] == patterns[j] {
                continue; // Reported as a duplicate or dead Disallow above.
            }
            if earlier.kind() == rule.kind() {
                // Same kind: the later rule never changes a verdict, unless a rule of the
                // other kind sits between the two patterns (or wildcards might).
                let other = &opposite_sorted[1 - kind_index(rule.kind())];
                let start = other.partition_point(|p| *p < patterns[i]);
                let something_between = other.get(start).is_some_and(|p| p.starts_with(patterns[i]));
                if !something_between && !has_wildcards {
                    self.push(
                        Code::RedundantRule,
                        Severity::Info,
                        rule.line(),
                        rule.value().clone(),
                        format!(
                            "Line {} already {}s every path this rule matches, and no rule in between says \
                             otherwise: it never changes a verdict under any reading.",
                            earlier.line(),
                            earlier.kind().name().to_ascii_lowercase()
                        ),
                        Some(Fix {
                            title: "Remove the redundant rule".into(),
                            edits: vec![self.delete_line(rule.line())],
                        }),
                    );
                }
            } else {
                // The 1996 draft stops at the first match: `earlier` always decides.
                self.shadowed(rule, earlier);
            }
        }
    }

    fn shadowed(&mut self, rule: &Rule, earlier: &Rule) {
        // Moving the rule above the one that shadows it changes nothing for RFC 9309
        // (longest match does not depend on order) and lets 1996 robots reach it.
        let line = self.line(rule.line());
        let text = String::from_utf8_lossy(line.content(self.txt.source())).into_owned();
        let target = self.line(earlier.line()).start();
        let eol = self.eol(rule.line());
        self.push(
            Code::ShadowedRule,
            Severity::Warning,
            rule.line(),
            rule.value().clone(),
            format!(
                "1996 robots take the first rule that matches, and line {} matches every path this rule does, so \
                 for them this {} never decides; RFC 9309 robots take the longest match and honour it. (1994 \
                 robots know only Disallow.) Moving it above line {} makes both agree.",
                earlier.line(),
                rule.kind().name(),
                earlier.line()
            ),
            Some(Fix {
                title: format!("Move it above line {}", earlier.line()).into(),
                edits: vec![
                    Edit { span: target..target, replacement: format!("{text}{eol}") },
                    Edit { span: line.start()..line.end(), replacement: String::new() },
                ],
            }),
        );
    }

    /// More than one `*` group, and robots named in more than one group.
    ///
    /// The fix moves the rules of every later group that names only that robot into the
    /// first group, in one go: it rides on the first repeat, and the others point to it.
    /// One fix per repeat would each span all the text between its group and the first,
    /// which a file of thousands of `*` groups turns into gigabytes of `--json`.
    fn repeated_groups(&mut self) {
        let groups = &self.rfc.groups();
        // Each robot's groups, in file order, robots in the order they first appear.
        let mut first_for: HashMap<String, usize> = HashMap::default();
        let mut named: Vec<Vec<(usize, &AgentLine)>> = Vec::new();
        for (index, group) in groups.iter().enumerate() {
            for agent in group.agents() {
                let key = match &agent.name() {
                    AgentName::Star => "*".to_owned(),
                    AgentName::Name(name) if !name.is_empty() => name.clone(),
                    AgentName::Name(_) => continue,
                };
                let slot = *first_for.entry(key).or_insert_with(|| {
                    named.push(Vec::new());
                    named.len() - 1
                });
                if named[slot].last().is_none_or(|&(last, _)| last != index) {
                    named[slot].push((index, agent));
                }
            }
        }
        for naming in named.iter().filter(|naming| naming.len() > 1) {
            let earlier = &groups[naming[0].0];
            // RFC 9309 names a robot by its product token; the classic readings by the
            // whole value. `Sogou web spider` and `Sogou inst spider` are one robot to the
            // first and two to the others, whose records a merge would change (issue 24).
            let txt = self.txt;
            let value_of = |agent: &AgentLine| String::from_utf8_lossy(txt.text(&agent.value())).to_lowercase();
            let first_value = value_of(naming[0].1);
            let same_robot = |agent: &AgentLine| *agent.name() == AgentName::Star || value_of(agent) == first_value;
            // Only a group that names no other robot can be moved whole.
            let is_movable = |group: &Group| group.agents().len() == 1 && !group.rules().is_empty();
            let movable: Vec<&Group> = naming[1..]
                .iter()
                .filter(|(_, agent)| same_robot(agent))
                .map(|&(index, _)| &groups[index])
                .filter(|&group| is_movable(group))
                .collect();
            let mut fix = (!movable.is_empty()).then(|| self.merge_into(&movable, earlier));
            let mut fixed_on = None;
            for &(index, agent) in &naming[1..] {
                let star = *agent.name() == AgentName::Star;
                let code = if star { Code::SeveralStarGroups } else { Code::RobotInSeveralGroups };
                let who = if star { "every other robot".to_owned() } else { self.text(&agent.value()) };
                if !same_robot(agent) {
                    let earlier_name = self.text(&naming[0].1.value());
                    let token = String::from_utf8_lossy(product_token(who.as_bytes())).into_owned();
                    self.push(
                        code,
                        Severity::Info,
                        agent.line(),
                        agent.value().clone(),
                        format!(
                            "The group at line {} names {earlier_name}, and RFC 9309 robots read both names as the \
                             robot `{token}`: they merge the two groups. To 1994/1996 robots `{who}` and \
                             `{earlier_name}` are two robots, each with its own record; merging the groups would change \
                             what those robots may fetch.",
                            earlier.first_line()
                        ),
                        None,
                    );
                    continue;
                }
                let pointer = match fixed_on {
                    Some(line) if is_movable(&groups[index]) => {
                        format!(" The fix on line {line} moves these rules too.")
                    }
                    _ => String::new(),
                };
                let this_fix = fix.take();
                if this_fix.is_some() {
                    fixed_on = Some(agent.line());
                }
                self.push(
                    code,
                    Severity::Warning,
                    agent.line(),
                    agent.value().clone(),
                    format!(
                        "The group at line {} already names {who}. RFC 9309 robots merge the two groups; 1994/1996 \
                         robots read only the first record that names them, so they miss the rules below.{pointer}",
                        earlier.first_line()
                    ),
                    this_fix,
                );
            }
        }
    }

    /// Moves the rules of `groups` (and the lines among them) to the end of `into`, in
    /// file order, and removes those groups.
    fn merge_into(&self, groups: &[&Group], into: &Group) -> Fix {
        let target = self.line(into.last_line());
        let mut moved = String::new();
        if target.line_end(self.txt.source()) == LineEnd::None {
            moved.push_str(self.eol(into.last_line()));
        }
        let mut edits = Vec::with_capacity(groups.len() + 1);
        for group in groups {
            let first_rule = group.agents().last().map_or(group.first_line(), super::parse::AgentLine::line) + 1;
            let body_start = self.line(first_rule).start();
            let body_end = self.line(group.last_line()).end();
            moved.push_str(&String::from_utf8_lossy(&self.txt.source()[body_start..body_end]));
            if !moved.ends_with(['\n', '\r']) {
                moved.push_str(self.eol(into.last_line()));
            }
            // The blank lines before a removed group go with it, so that no run of blank
            // lines is left where it was (the one after it still separates its
            // neighbours).
            let mut first = group.first_line();
            while first > 1 && lex::is_blank(self.txt.source(), self.line(first - 1)) && first - 1 > into.last_line() {
                first -= 1;
            }
            edits.push(Edit { span: self.line(first).start()..body_end, replacement: String::new() });
        }
        edits.insert(0, Edit { span: target.end()..target.end(), replacement: moved });
        let title = match groups.len() {
            1 => format!("Move these rules into the group at line {}", into.first_line()),
            n => format!("Move the rules of these {n} groups into the group at line {}", into.first_line()),
        };
        Fix { title: title.into(), edits }
    }

    // --- Classic records --------------------------------------------------------------------

    /// What only the classic readings see: an empty Disallow that ends the rules of a
    /// record for 1996 robots.
    fn classic_records(&mut self) {
        for record in self.classic.groups() {
            let Some(empty) =
                record.rules().iter().position(|r| r.kind() == RuleKind::Disallow && r.value().is_empty())
            else {
                continue;
            };
            if empty + 1 < record.rules().len() {
                let rule = &record.rules()[empty];
                self.push(
                    Code::ShadowedRule,
                    Severity::Warning,
                    rule.line(),
                    self.line(rule.line()).span(),
                    "An empty Disallow allows everything to 1996 robots, which stop at the first matching line, \
                     so they never reach the rules after it; RFC 9309 and 1994 robots read it as no rule at all."
                        .to_owned(),
                    Some(Fix { title: "Remove the empty Disallow".into(), edits: vec![self.delete_line(rule.line())] }),
                );
            }
        }
    }
}

/// The fix that writes a field's canonical name.
/// Usage preferences rewritten in their own extension's words: Content-Usage's `y`/`n`
/// and `train-ai`, Content-Signal's `yes`/`no` and `ai-train`. The flag says whether a
/// category was renamed.
fn usage_in_own_words(is_usage: bool, preferences: &str) -> (String, bool) {
    let (other_name, own_name) = if is_usage { ("ai-train", "train-ai") } else { ("train-ai", "ai-train") };
    let (written_words, own_words): ([&str; 2], [&str; 2]) =
        if is_usage { (["yes", "no"], ["y", "n"]) } else { (["y", "n"], ["yes", "no"]) };
    let mut renamed = false;
    let members: Vec<String> = dictionary_members(preferences)
        .into_iter()
        .map(|member| {
            let member = member.trim();
            let Some((key, rest)) = member.split_once('=') else { return member.to_owned() };
            let key = if key == other_name {
                renamed = true;
                own_name
            } else {
                key
            };
            let word = rest.split(';').next().unwrap_or_default();
            let params = &rest[word.len()..];
            // `no`, `N`, `"n"`, `No`: the intent is plain whatever the case or quotes.
            let plain = word.trim_matches('"').to_ascii_lowercase();
            let meant = written_words.iter().chain(&own_words).position(|w| *w == plain);
            let word = meant.map_or(word, |i| own_words[i % 2]);
            format!("{key}={word}{params}")
        })
        .collect();
    (members.join(", "), renamed)
}

/// The members of a dictionary as written, split at the commas outside strings (a
/// string may hold a comma: `c="x,y"`).
fn dictionary_members(preferences: &str) -> Vec<&str> {
    let mut members = Vec::new();
    let (mut in_string, mut escaped, mut start) = (false, false, 0);
    for (at, c) in preferences.char_indices() {
        match c {
            '\\' if in_string && !escaped => escaped = true,
            '"' if !escaped => in_string = !in_string,
            ',' if !in_string => {
                members.push(&preferences[start..at]);
                start = at + 1;
            }
            _ => {}
        }
        if c != '\\' {
            escaped = false;
        }
    }
    members.push(&preferences[start..]);
    members
}

/// The groups (by index) that share a product token with another group, which RFC
/// 9309 §2.2.1 merges for the robots they name.
fn merged_groups(interpretation: &Interpretation) -> foldhash::HashSet<usize> {
    let mut first_group: foldhash::HashMap<String, usize> = foldhash::HashMap::default();
    let mut merged = foldhash::HashSet::default();
    for (index, group) in interpretation.groups().iter().enumerate() {
        for agent in group.agents() {
            let token = match agent.name() {
                AgentName::Star => "*".to_owned(),
                AgentName::Name(name) => name.to_ascii_lowercase(),
            };
            match first_group.get(&token) {
                Some(&first) if first != index => {
                    merged.insert(first);
                    merged.insert(index);
                }
                Some(_) => {}
                None => {
                    first_group.insert(token, index);
                }
            }
        }
    }
    merged
}

/// A pattern's start before its first wildcard or end anchor: every path it matches
/// starts with it.
fn literal_start(pattern: &[u8]) -> &[u8] {
    let end = pattern.iter().position(|&b| b == b'*' || b == b'$').unwrap_or(pattern.len());
    &pattern[..end]
}

/// What usage preferences state, in words: `train-ai disallowed, search unknown`.
fn usage_meaning(is_usage: bool, preferences: &str) -> String {
    let word = |said: Option<bool>| match said {
        Some(true) => "allowed",
        Some(false) => "disallowed",
        None => "unknown",
    };
    if is_usage {
        let said = usage::read_content_usage(preferences.as_bytes()).said.unwrap_or_default();
        format!("train-ai {}, search {}", word(said[0]), word(said[1]))
    } else {
        let said = usage::read_content_signal(preferences.as_bytes());
        format!("ai-train {}, search {}, ai-input {}", word(said[0]), word(said[1]), word(said[2]))
    }
}

fn rename_key(field: &Field, kind: FieldKind) -> Fix {
    Fix {
        title: format!("Write `{}`", kind.canonical()).into(),
        edits: vec![Edit { span: field.key().clone(), replacement: kind.canonical().to_owned() }],
    }
}

fn kind_index(kind: RuleKind) -> usize {
    match kind {
        RuleKind::Allow => 0,
        RuleKind::Disallow => 1,
    }
}

/// Robots' names for a message: all of them when there are few, else the first three
/// and how many more. A group of thousands of robots with a blank line after each must
/// not get messages naming them all, once per blank line.
///
/// Messages about one line name robots from other lines, often several times: each
/// name is cut to [`NAME_EXCERPT_CHARS`], so that a file of 16 KB names and many blank
/// lines costs in proportion to its size, not to the names times the blank lines.
fn names_for_message(names: &[String]) -> String {
    const SHOWN: usize = 3;
    let shown = |names: &[String]| names.iter().map(|name| excerpt(name)).collect::<Vec<_>>().join(", ");
    if names.len() <= SHOWN + 1 {
        shown(names)
    } else {
        format!("{} and {} more", shown(&names[..SHOWN]), names.len() - SHOWN)
    }
}

/// True when `edit` replaces all of `line`'s content.
fn covers(edit: &Edit, line: &Line) -> bool {
    edit.span.start <= line.start() && edit.span.end >= line.content_end()
}

/// How much of a robot's name a message about another line quotes.
const NAME_EXCERPT_CHARS: usize = 40;

/// `name`, or its first [`NAME_EXCERPT_CHARS`] characters and an ellipsis.
fn excerpt(name: &str) -> Cow<'_, str> {
    match name.char_indices().nth(NAME_EXCERPT_CHARS) {
        Some((cut, _)) => Cow::Owned(format!("{}…", &name[..cut])),
        None => Cow::Borrowed(name),
    }
}

/// Whitespace-separated words with their byte offsets.
fn split_words(text: &str) -> Vec<(usize, &str)> {
    let mut words = Vec::new();
    let mut start = None;
    for (at, c) in text.char_indices() {
        match (c.is_whitespace(), start) {
            (true, Some(s)) => {
                words.push((s, &text[s..at]));
                start = None;
            }
            (false, None) => start = Some(at),
            _ => {}
        }
    }
    if let Some(s) = start {
        words.push((s, &text[s..]));
    }
    words
}

/// True for a word that starts a field: `Disallow:`, `allow:`, `User-agent:`, `Sitemap:`.
fn starts_with_field(word: &str) -> bool {
    let lower = word.to_ascii_lowercase();
    ["user-agent:", "disallow:", "allow:", "sitemap:", "crawl-delay:"].iter().any(|field| lower.starts_with(field))
}

/// A known field name within two edits of `key`, if any.
fn near_miss(key: &str) -> Option<FieldKind> {
    const NAMES: &[(&str, FieldKind)] = &[
        ("user-agent", FieldKind::UserAgent),
        ("disallow", FieldKind::Disallow),
        ("allow", FieldKind::Allow),
        ("sitemap", FieldKind::Sitemap),
        ("crawl-delay", FieldKind::CrawlDelay),
    ];
    let limit = |name: &str| if name.len() <= 5 { 1 } else { 2 };
    NAMES.iter().find(|(name, _)| edit_distance(key, name) <= limit(name)).map(|&(_, kind)| kind)
}

/// Levenshtein distance, for short field names.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1];
        for (j, &cb) in b.iter().enumerate() {
            current.push((previous[j] + usize::from(ca != cb)).min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}

/// The text of a UTF-16 file with a BOM, as UTF-8 without one.
fn utf16_to_utf8(source: &[u8]) -> Option<String> {
    let little = source.starts_with(b"\xFF\xFE");
    let pairs = source[2..].chunks_exact(2);
    // An odd byte at the end is half a character: it is kept as U+FFFD, visibly, rather
    // than dropped in silence.
    let odd_byte = !pairs.remainder().is_empty();
    let units: Vec<u16> = pairs
        .map(
            |pair| if little { u16::from_le_bytes([pair[0], pair[1]]) } else { u16::from_be_bytes([pair[0], pair[1]]) },
        )
        .collect();
    let mut text = String::from_utf16(&units).ok()?;
    if odd_byte {
        text.push(char::REPLACEMENT_CHARACTER);
    }
    Some(text)
}

#[cfg(test)]
mod tests {
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
