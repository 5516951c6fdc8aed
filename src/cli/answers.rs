//! `check`'s answers, one line (or JSON object) per path and robot, for paths given as
//! arguments and for a stream of them on standard input.
//!
//! A stream is read in blocks that end at a line end. Into a pipe or a file, blocks are
//! filled to [`BLOCK_BYTES`] and answered on every core, each into its own buffer,
//! written in input order: a million paths cost little more than reading and writing
//! their bytes. On a terminal, or with `--line-buffered`, each read is answered at once
//! and flushed, so a result arrives as its line is typed. Lines are written with
//! `extend_from_slice`, not `format!`, and the notes a path calls for (another site,
//! `/robots.txt` itself) are gathered per block and said in input order.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt::Write as _;
use std::io::{self, Read, Write};

use rayon::prelude::*;
use serde::Serialize;

use super::json;
use crate::columns::Column;
use crate::policy::escape::{sanitize, sanitize_str};
use crate::policy::paths::{LongPathLine, MAX_PATH_LINE_BYTES, line_as_text, path_in_line};
use crate::policy::request::{Request, UrlMode, is_robots_txt};
use crate::policy::usage::{Category, Preference, Usage, UsageAnswer};
use crate::policy::{self, Access, Availability, Decision, Reading, RobotsTxt};

/// Bytes of standard input answered as one block: large enough that handing a block to
/// a thread costs nothing beside answering it, small enough to keep memory flat.
const BLOCK_BYTES: usize = 256 * 1024;

/// Threads answering blocks at most.
const MAX_WORKERS: usize = 8;

/// Answers (lines times robots) held per block before it is written: about a megabyte of
/// text or three of JSON, times [`MAX_WORKERS`] at most.
const MAX_ANSWERS_PER_BLOCK: usize = 16 * 1024;

/// One result line of `check --json` (DESIGN.md §4): `url` is the text as given,
/// `path` the path it names, `tested` the path exactly as matched.
#[derive(Debug, Serialize)]
pub(super) struct CheckRecord<'a> {
    pub(super) agent: &'a str,
    pub(super) url: &'a str,
    path: &'a str,
    tested: &'a str,
    allowed: bool,
    semantics: &'a str,
    pub(super) line: Option<usize>,
    pub(super) rule: Option<String>,
    group_line: Option<usize>,
    /// The usage preferences (RFC 9309 only: absent under the classic readings), `null`
    /// when the robot may not fetch the path.
    #[serde(skip_serializing_if = "JsonField::is_absent")]
    usage: JsonField<UsageRecord>,
    /// The lines that decided them, likewise.
    #[serde(skip_serializing_if = "JsonField::is_absent")]
    usage_lines: JsonField<Vec<usize>>,
}

/// A JSON field that is left out, `null`, or a value.
#[derive(Debug)]
enum JsonField<T> {
    Absent,
    Null,
    Value(T),
}

impl<T> JsonField<T> {
    fn is_absent(&self) -> bool {
        matches!(self, JsonField::Absent)
    }

    /// The usage field of an answer, made by `value` from the preferences.
    fn of_usage(answer: &UsageAnswer, value: impl FnOnce(&Usage) -> T) -> JsonField<T> {
        match answer {
            UsageAnswer::NotRead => JsonField::Absent,
            UsageAnswer::NotFetched => JsonField::Null,
            UsageAnswer::Stated(usage) => JsonField::Value(value(usage)),
        }
    }
}

impl<T: Serialize> Serialize for JsonField<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            JsonField::Value(value) => value.serialize(serializer),
            JsonField::Absent | JsonField::Null => serializer.serialize_none(),
        }
    }
}

/// `{"train-ai": P, "search": P, "ai-input": P}`.
#[derive(Debug, Serialize)]
pub(super) struct UsageRecord {
    #[serde(rename = "train-ai")]
    train_ai: &'static str,
    search: &'static str,
    #[serde(rename = "ai-input")]
    ai_input: &'static str,
}

impl UsageRecord {
    pub(super) fn of(usage: &Usage) -> UsageRecord {
        let name = |category| usage.get(category).preference().name();
        UsageRecord {
            train_ai: name(Category::TrainAi),
            search: name(Category::Search),
            ai_input: name(Category::AiInput),
        }
    }
}

impl<'a> CheckRecord<'a> {
    /// The record for one column's decision on one path: the deciding rule, and the
    /// group it came from (or, when no rule matched, the group that applied).
    pub(super) fn new(
        txt: &RobotsTxt,
        availability: Availability,
        column: &Column,
        decision: Decision,
        agent: &'a str,
        request: &'a Request,
    ) -> CheckRecord<'a> {
        let usage = column.usage(availability, decision, request.tested());
        let asked = Asked { url: request.given(), path: request.path(), tested: request.tested() };
        CheckRecord::of(txt, (availability, column, decision), agent, asked, &usage)
    }

    /// The record from its parts, the usage answer already known (`sitemaps` has it
    /// from the audit, and reads most URLs without a [`Request`]).
    pub(super) fn of(
        txt: &RobotsTxt,
        (availability, column, decision): (Availability, &Column, Decision),
        agent: &'a str,
        Asked { url, path, tested }: Asked<'a>,
        usage: &UsageAnswer,
    ) -> CheckRecord<'a> {
        let rule = column.deciding_rule(txt, decision);
        CheckRecord {
            agent,
            url,
            path,
            tested,
            allowed: decision.allowed(),
            semantics: column.reading.name(),
            line: rule.map(policy::parse::Rule::line),
            rule: rule.map(|r| txt.rule_text(r)),
            group_line: group_line(txt, availability, column, decision),
            usage_lines: JsonField::of_usage(usage, Usage::lines),
            usage: JsonField::of_usage(usage, UsageRecord::of),
        }
    }
}

/// What was asked: the text as given, the path it names, the path as matched.
#[derive(Debug, Clone, Copy)]
pub(super) struct Asked<'a> {
    pub(super) url: &'a str,
    pub(super) path: &'a str,
    pub(super) tested: &'a str,
}

impl CheckRecord<'_> {
    /// Why the verdict is what it is, for the text output (as [`Answerer`] writes it).
    pub(super) fn why(&self, availability: Availability, reading: Reading) -> String {
        let mut why = Vec::new();
        let rule = self.line.zip(self.rule.as_deref()).map(|(line, rule)| (line, "", rule.as_bytes()));
        write_why(&mut why, rule, availability, reading, self.group_line);
        String::from_utf8_lossy(&why).into_owned()
    }
}

/// Why a verdict is what it is: the deciding line (`line 4: Disallow: /a`, the rule as
/// `kind` and `value`), or why the file was not read, or the group where no rule
/// matched.
pub(super) fn write_why(
    out: &mut Vec<u8>,
    rule: Option<(usize, &str, &[u8])>,
    availability: Availability,
    reading: Reading,
    group_line: Option<usize>,
) {
    if let Some((line, kind, value)) = rule {
        out.extend_from_slice(b"line ");
        out.extend_from_slice(itoa::Buffer::new().format(line).as_bytes());
        out.extend_from_slice(b": ");
        out.extend_from_slice(kind.as_bytes());
        out.extend_from_slice(sanitize(value).as_bytes());
    } else if availability.access(reading) != Access::Rules {
        out.extend_from_slice(b"the file was not read: ");
        out.extend_from_slice(availability.reason(reading).as_bytes());
    } else if let Some(line) = group_line {
        out.extend_from_slice(b"no rule matches (group at line ");
        out.extend_from_slice(itoa::Buffer::new().format(line).as_bytes());
        out.push(b')');
    } else {
        out.extend_from_slice(b"no group applies");
    }
}

/// `  usage: train-ai disallowed (line 3), search allowed (line 2), ai-input unknown`.
fn write_usage(out: &mut Vec<u8>, usage: &Usage) {
    let mut text = String::from("  usage:");
    for (index, (category, stated)) in usage.iter().enumerate() {
        let _ = write!(text, "{} {category} {}", if index == 0 { "" } else { "," }, stated.preference());
        let lines: Vec<String> = stated.lines().iter().map(ToString::to_string).collect();
        let noun = if lines.len() == 1 { "line" } else { "lines" };
        match (stated.preference(), lines.as_slice()) {
            // The Content-Usage rule that won the match and said nothing of it.
            (Preference::Unknown, [line]) => {
                let _ = write!(text, " (line {line} states none)");
            }
            (Preference::Unknown, _) | (_, []) => {}
            _ if stated.more_lines() > 0 => {
                let _ = write!(text, " ({noun} {} and {} more)", lines.join(", "), stated.more_lines());
            }
            _ => {
                let _ = write!(text, " ({noun} {})", lines.join(", "));
            }
        }
    }
    out.extend_from_slice(text.as_bytes());
}

/// The group the deciding rule came from or, when no rule matched, the group that
/// applied; none when the file was not read.
fn group_line(txt: &RobotsTxt, availability: Availability, column: &Column, decision: Decision) -> Option<usize> {
    let interpretation = txt.interpretation(column.reading);
    decision
        .rule()
        .map(|at| at.group())
        .or_else(|| column.selection().groups().first().copied())
        .filter(|_| availability.access(column.reading) == Access::Rules)
        .map(|group| interpretation.groups()[group].first_line())
}

/// How answers are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Format {
    /// A line per answer: verdict, robot, path, deciding line.
    Text,
    /// The same, with the usage preferences of an allowed path after it (`--usage`).
    TextWithUsage,
    /// A JSON object per answer (`--json`), usage included under RFC 9309.
    Json,
}

/// Which results to print: all of them, or (`--allowed`, `--disallowed`) only the paths
/// with that verdict, as grep prints only the lines that match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Only {
    /// Every result.
    All,
    /// Paths every robot asked about may fetch.
    Allowed,
    /// Paths some robot asked about may not fetch.
    Disallowed,
}

/// Something to say on standard error about a path, once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Note {
    /// `/robots.txt` itself was asked about.
    RobotsTxt,
    /// A URL on another site than the one whose robots.txt answers.
    OtherSite { given: String, origin: String },
    /// An answer that the bytes past the RFC 9309 limit would change: (allowed, the
    /// deciding line) as read, and for the whole file.
    PastTheCut { given: String, agent: String, read: (bool, Option<usize>), whole: (bool, Option<usize>) },
}

impl Note {
    /// The notes a request calls for (none, one or both). `site_origins` are the
    /// origins whose robots.txt this is (empty for a file).
    pub(super) fn about(request: &Request, site_origins: &[String]) -> impl Iterator<Item = Note> {
        let robots_txt = is_robots_txt(request.tested()).then_some(Note::RobotsTxt);
        let other_site = request
            .origin()
            .filter(|_| !site_origins.is_empty() && site_origins.iter().all(|site| request.is_on_another_site(site)))
            .map(|origin| Note::OtherSite { given: request.given().to_owned(), origin: origin.to_owned() });
        other_site.into_iter().chain(robots_txt)
    }

    /// What makes two notes the same: another site is noted once per origin, whatever
    /// URL on it came first.
    fn key(&self) -> Option<String> {
        match self {
            Note::RobotsTxt => None,
            Note::OtherSite { origin, .. } => Some(origin.clone()),
            Note::PastTheCut { given, agent, .. } => Some(format!("{agent} {given}")),
        }
    }
}

/// Answers the RFC 9309 limit changed that are told one by one; the rest are counted.
const PAST_THE_CUT_TOLD: usize = 5;

/// Says each note once on standard error: what the verdicts alone do not say.
#[derive(Debug, Default)]
pub(super) struct RequestNotes {
    site_origins: Vec<String>,
    said: HashSet<Option<String>>,
    /// Where the RFC 9309 reading stopped, if it did before the file's end.
    cut: Option<usize>,
    /// Answers the cut changed.
    past_the_cut: usize,
}

impl RequestNotes {
    pub(super) fn new(site_origins: Vec<String>) -> RequestNotes {
        RequestNotes { site_origins, said: HashSet::new(), cut: None, past_the_cut: 0 }
    }

    /// Notes answers that bytes past `cut` would change.
    pub(super) fn with_cut(mut self, cut: Option<usize>) -> RequestNotes {
        self.cut = cut;
        self
    }

    /// Says what was only counted: the answers the cut changed beyond the first few.
    pub(super) fn finish(&self) {
        if self.past_the_cut > PAST_THE_CUT_TOLD {
            note!(
                "robotscope: note: the first {} bytes changed {} answers in all; --whole-file reads every byte",
                self.cut.unwrap_or_default(),
                self.past_the_cut
            );
        }
    }

    /// Notes what `request` calls for.
    pub(super) fn check(&mut self, request: &Request) {
        let notes: Vec<Note> = Note::about(request, &self.site_origins).collect();
        for note in notes {
            self.say(note);
        }
    }

    fn say(&mut self, note: Note) {
        if !self.said.insert(note.key()) {
            return;
        }
        match note {
            // RFC 9309 §2.5: a crawler may stop at 500 KiB, and Google does.
            Note::PastTheCut { given, agent, read, whole } => {
                self.past_the_cut += 1;
                if self.past_the_cut > PAST_THE_CUT_TOLD {
                    return;
                }
                let answer = |(allowed, line): (bool, Option<usize>)| {
                    let word = if allowed { "allowed" } else { "disallowed" };
                    line.map_or_else(|| format!("{word} (no rule matches)"), |line| format!("{word} (line {line})"))
                };
                note!(
                    "robotscope: note: {} {}: only the first {} bytes count under RFC 9309, as Google reads a \
                     robots.txt (§2.5), and they say {}; the whole file says {}. --whole-file reads every byte",
                    sanitize_str(&agent),
                    sanitize_str(&given),
                    self.cut.unwrap_or_default(),
                    answer(read),
                    answer(whole)
                );
            }
            // RFC 9309 §2.2.2.
            Note::RobotsTxt => note!(
                "robotscope: note: RFC 9309 §2.2.2 calls /robots.txt itself implicitly allowed: crawlers fetch it whatever the rules say (the verdicts shown are the rules')"
            ),
            // RFC 9309 §2.3: each origin has its own robots.txt.
            Note::OtherSite { given, origin } => {
                let site = self.site_origins.first().map(String::as_str).unwrap_or_default();
                note!(
                    "robotscope: warning: {} is on {}, not {}: it is answered by {}/robots.txt, but {}/robots.txt is its own",
                    sanitize_str(&given),
                    sanitize_str(&origin),
                    sanitize_str(site),
                    sanitize_str(site),
                    sanitize_str(&origin)
                );
            }
        }
    }
}

/// What answering some paths found besides its output.
#[derive(Debug, Default)]
struct Found {
    any_disallowed: bool,
    /// `line N: Kind: value` of each deciding rule met in the block, by column and
    /// line: written once, copied for every path it decides.
    rule_texts: foldhash::HashMap<(usize, usize), Vec<u8>>,
    /// The notes to say, in input order, each once.
    notes: Vec<Note>,
    noted: HashSet<Option<String>>,
    too_long: Option<LongPathLine>,
}

/// Answers paths for the robots of `check` (shared by every thread).
pub(super) struct Answerer<'a> {
    txt: &'a RobotsTxt,
    availability: Availability,
    columns: &'a [Column],
    /// The same columns over every byte of the file, when the RFC 9309 reading stops
    /// before its end: a path whose answer would differ gets a note.
    whole: Option<(&'a RobotsTxt, &'a [Column])>,
    /// Each column's label and fallback (`Googlebot-Image via Googlebot`), escaped once.
    heads: Vec<String>,
    format: Format,
    mode: UrlMode,
    only: Only,
    site_origins: &'a [String],
}

impl<'a> Answerer<'a> {
    pub(super) fn new(
        txt: &'a RobotsTxt,
        availability: Availability,
        columns: &'a [Column],
        format: Format,
        mode: UrlMode,
        only: Only,
        site_origins: &'a [String],
    ) -> Answerer<'a> {
        let heads = columns
            .iter()
            .map(|column| {
                let via = match &column.selection().choice() {
                    policy::Choice::Fallback(token) => format!(" via {token}"),
                    _ => String::new(),
                };
                format!("{}{via}", sanitize(column.label.as_bytes()))
            })
            .collect();
        Answerer { txt, availability, columns, whole: None, heads, format, mode, only, site_origins }
    }

    /// Compares every answer with what the whole file says (`columns` over `txt`
    /// without the RFC 9309 limit, in the same order) and notes the paths where the
    /// limit changed it.
    pub(super) fn comparing_with_whole(mut self, txt: &'a RobotsTxt, columns: &'a [Column]) -> Answerer<'a> {
        self.whole = Some((txt, columns));
        self
    }

    /// The note for a decision that the whole file would make otherwise.
    fn past_the_cut(&self, index: usize, decision: Decision, request: &Request) -> Option<Note> {
        let (whole_txt, whole) = self.whole?;
        let column = &self.columns[index];
        let other = whole[index].check(self.availability, request.tested());
        let line = |txt, column: &Column, decision| column.deciding_rule(txt, decision).map(policy::parse::Rule::line);
        let (read_line, whole_line) = (line(self.txt, column, decision), line(whole_txt, &whole[index], other));
        (other.allowed() != decision.allowed() || read_line != whole_line).then(|| Note::PastTheCut {
            given: request.given().to_owned(),
            agent: column.label.clone(),
            read: (decision.allowed(), read_line),
            whole: (other.allowed(), whole_line),
        })
    }

    /// Answers the paths given as arguments.
    pub(super) fn answer_all(
        &self,
        paths: &[String],
        notes: &mut RequestNotes,
        out: &mut impl Write,
        any_disallowed: &mut bool,
    ) -> io::Result<()> {
        let mut buffer = Vec::new();
        for path in paths {
            let mut found = Found::default();
            self.answer(path, &mut buffer, &mut found);
            *any_disallowed |= found.any_disallowed;
            found.notes.into_iter().for_each(|note| notes.say(note));
            out.write_all(&buffer)?;
            buffer.clear();
        }
        Ok(())
    }

    /// Answers one path or URL for every column into `out`.
    fn answer(&self, given: &str, out: &mut Vec<u8>, found: &mut Found) {
        let request = Request::new(given, self.mode);
        for note in Note::about(&request, self.site_origins) {
            if found.noted.insert(note.key()) {
                found.notes.push(note);
            }
        }
        if self.only != Only::All && self.format != Format::Json {
            let mut allowed_by_all = true;
            for (index, column) in self.columns.iter().enumerate() {
                let decision = column.check(self.availability, request.tested());
                found.notes.extend(self.past_the_cut(index, decision, &request));
                allowed_by_all &= decision.allowed();
            }
            found.any_disallowed |= !allowed_by_all;
            if allowed_by_all == (self.only == Only::Allowed) {
                out.extend_from_slice(sanitize_str(request.given()).as_bytes());
                out.push(b'\n');
            }
            return;
        }
        for (index, column) in self.columns.iter().enumerate() {
            let decision = column.check(self.availability, request.tested());
            found.notes.extend(self.past_the_cut(index, decision, &request));
            found.any_disallowed |= !decision.allowed();
            let wanted = match self.only {
                Only::All => true,
                Only::Allowed => decision.allowed(),
                Only::Disallowed => !decision.allowed(),
            };
            if !wanted {
                continue;
            }
            if self.format == Format::Json {
                let record = CheckRecord::new(self.txt, self.availability, column, decision, &column.label, &request);
                json::write_into(out, &record);
            } else {
                self.write_text(out, found, index, decision, &request);
            }
        }
    }

    /// `allowed    Googlebot /a (as /a)  line 4: Disallow: /a`, written piece by piece,
    /// with no allocation but a deciding rule's text the first time the block meets it.
    fn write_text(&self, out: &mut Vec<u8>, found: &mut Found, index: usize, decision: Decision, request: &Request) {
        let column = &self.columns[index];
        out.extend_from_slice(if decision.allowed() { b"allowed    " } else { b"disallowed " });
        out.extend_from_slice(self.heads[index].as_bytes());
        out.push(b' ');
        out.extend_from_slice(sanitize_str(request.given()).as_bytes());
        if let Some(tested) = request.tested_if_not_obvious() {
            out.extend_from_slice(b" (as ");
            out.extend_from_slice(sanitize_str(tested).as_bytes());
            out.push(b')');
        }
        out.extend_from_slice(b"  ");
        if let Some(rule) = column.deciding_rule(self.txt, decision) {
            let text = found.rule_texts.entry((index, rule.line())).or_insert_with(|| {
                let mut text = Vec::new();
                let kind = format!("{}: ", rule.kind().name());
                let value = self.txt.text(&rule.value());
                write_why(&mut text, Some((rule.line(), &kind, value)), self.availability, column.reading, None);
                text
            });
            out.extend_from_slice(text);
        } else {
            let group = group_line(self.txt, self.availability, column, decision);
            write_why(out, None, self.availability, column.reading, group);
        }
        if self.format == Format::TextWithUsage {
            match column.usage(self.availability, decision, request.tested()) {
                UsageAnswer::Stated(usage) => write_usage(out, &usage),
                // Said once per answer: a classic reading is chosen on purpose, and the
                // preferences' absence should not pass for "nothing stated".
                UsageAnswer::NotRead => {
                    let _ = write!(out, "  usage: not read ({} knows no usage preferences)", column.reading.title());
                }
                UsageAnswer::NotFetched => {}
            }
        }
        out.push(b'\n');
    }

    /// Answers a block of whole lines, the first numbered `first_line`. A line too long
    /// to be a path stops the block there.
    fn answer_block(&self, block: &[u8], first_line: usize) -> (Vec<u8>, Found) {
        let mut out = Vec::with_capacity(block.len() * 2 * self.columns.len());
        let mut found = Found::default();
        let lines = block.strip_suffix(b"\n").unwrap_or(block);
        // A block of UTF-8 (the common case) is checked once, not line by line: its
        // lines as text, in step with the lines as bytes.
        let mut text_lines = std::str::from_utf8(lines).ok().map(|text| text.split('\n'));
        for (index, line) in lines.split(|&b| b == b'\n').enumerate() {
            // The cap is on the line's bytes, not on its line end (CRLF counts as LF).
            if line.strip_suffix(b"\r").unwrap_or(line).len() > MAX_PATH_LINE_BYTES {
                found.too_long = Some(LongPathLine::at(first_line + index));
                break;
            }
            let line = match &mut text_lines {
                Some(text_lines) => Cow::Borrowed(text_lines.next().unwrap_or_default()),
                None => line_as_text(line),
            };
            if let Some(path) = path_in_line(&line) {
                self.answer(path, &mut out, &mut found);
            }
        }
        (out, found)
    }

    /// Answers every line of `input`, in order, into `out`. `interactive` answers (and
    /// flushes) each read at once, on this thread; otherwise blocks are filled and
    /// answered on every core, while this thread writes the answers of the round before
    /// and reads the next. `any_disallowed` is kept up to date as answers are written,
    /// so that a run cut short (a closed pipe) still has its exit status.
    pub(super) fn answer_stream(
        &self,
        input: impl Read,
        notes: &mut RequestNotes,
        out: &mut impl Write,
        interactive: bool,
        any_disallowed: &mut bool,
    ) -> io::Result<()> {
        let workers = if interactive { 1 } else { rayon::current_num_threads().min(MAX_WORKERS) };
        // A block's answers are held until it is written: at most this many lines per
        // block, so that 50 robots asked about do not hold 50 times the output.
        let lines_per_block = (MAX_ANSWERS_PER_BLOCK / self.columns.len().max(1)).max(1);
        let mut reader = BlockReader::new(input, interactive, lines_per_block);
        let mut written = Written { any_disallowed, notes, too_long: None };
        if interactive {
            while reader.more() {
                let blocks = reader.round(1)?;
                let answers: Vec<_> = blocks.iter().map(|(block, first)| self.answer_block(block, *first)).collect();
                if !written.write(answers, out)? {
                    break;
                }
                out.flush()?;
            }
        } else {
            let mut blocks = reader.round(workers)?;
            let mut answered = Vec::new();
            // (`reader.more()`: a read error is still to say after the last lines.)
            while !blocks.is_empty() || !answered.is_empty() || reader.more() {
                // This round's blocks are answered on rayon's pool while the round
                // before is written here and the next one read.
                let (answers, went_on, next) = std::thread::scope(|scope| {
                    let answering = scope.spawn(|| self.answer_round(&blocks));
                    let went_on = written.write(std::mem::take(&mut answered), out);
                    let next = match went_on {
                        Ok(true) => reader.round(workers),
                        _ => Ok(Vec::new()),
                    };
                    (answering.join().expect("answering a round panicked"), went_on, next)
                });
                if !went_on? {
                    break;
                }
                answered = answers;
                blocks = match next {
                    Ok(blocks) => blocks,
                    Err(error) => {
                        // What was answered before the read failed is written first.
                        written.write(std::mem::take(&mut answered), out)?;
                        return Err(error);
                    }
                };
            }
        }
        match written.too_long.or(reader.too_long) {
            Some(line) => {
                out.flush()?;
                Err(io::Error::new(io::ErrorKind::InvalidData, line))
            }
            None => Ok(()),
        }
    }

    /// A round's blocks answered on rayon's pool, their answers in input order.
    fn answer_round(&self, blocks: &[(Vec<u8>, usize)]) -> Vec<(Vec<u8>, Found)> {
        if blocks.len() <= 1 {
            blocks.iter().map(|(block, first)| self.answer_block(block, *first)).collect()
        } else {
            blocks.par_iter().map(|(block, first)| self.answer_block(block, *first)).collect()
        }
    }
}

/// Where answers go, in input order, with what they found.
struct Written<'a> {
    any_disallowed: &'a mut bool,
    notes: &'a mut RequestNotes,
    /// A line too long to be a path, met while answering: nothing after it is written.
    too_long: Option<LongPathLine>,
}

impl Written<'_> {
    /// Writes a round's answers; false once a line too long stopped them.
    fn write(&mut self, answers: Vec<(Vec<u8>, Found)>, out: &mut impl Write) -> io::Result<bool> {
        for (output, found) in answers {
            *self.any_disallowed |= found.any_disallowed;
            out.write_all(&output)?;
            found.notes.into_iter().for_each(|note| self.notes.say(note));
            if let Some(line) = found.too_long {
                self.too_long = Some(line);
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// Standard input cut into blocks of whole lines.
struct BlockReader<R> {
    input: R,
    interactive: bool,
    lines_per_block: usize,
    /// Read and not yet in a block.
    pending: Vec<u8>,
    /// The number of the next block's first line.
    next_line: usize,
    at_end: bool,
    /// A line longer than a block, found while filling: said after the blocks before it.
    too_long: Option<LongPathLine>,
    /// A read that failed: said after the whole lines read before it are answered.
    failed: Option<io::Error>,
}

impl<R: Read> BlockReader<R> {
    fn new(input: R, interactive: bool, lines_per_block: usize) -> Self {
        let pending = Vec::with_capacity(BLOCK_BYTES);
        BlockReader {
            input,
            interactive,
            lines_per_block,
            pending,
            next_line: 1,
            at_end: false,
            too_long: None,
            failed: None,
        }
    }

    /// True while lines are left to read (or left in `pending` when a block held the
    /// most) or a read error is left to say, and no line too long was met.
    fn more(&self) -> bool {
        (self.lines_left() || self.failed.is_some()) && self.too_long.is_none()
    }

    /// True while lines are left to read, or left in `pending`.
    fn lines_left(&self) -> bool {
        !self.at_end || !self.pending.is_empty()
    }

    /// The next round: up to `count` blocks, each with its first line's number; one
    /// block of what has come when interactive. A read error comes in the round after
    /// the lines read before it.
    fn round(&mut self, count: usize) -> io::Result<Vec<(Vec<u8>, usize)>> {
        if self.pending.is_empty()
            && let Some(error) = self.failed.take()
        {
            return Err(error);
        }
        let mut blocks = Vec::with_capacity(count);
        while blocks.len() < count && self.lines_left() && self.too_long.is_none() {
            // Interactive: lines already read are answered before waiting for more.
            let holds_a_line = self.interactive && memchr::memchr(b'\n', &self.pending).is_some();
            if !self.at_end && !holds_a_line {
                match fill(&mut self.input, &mut self.pending, self.interactive) {
                    Ok(at_end) => self.at_end = at_end,
                    Err(error) => {
                        // The whole lines read before it are answered; a line the error
                        // cut is no path.
                        let whole = memchr::memrchr(b'\n', &self.pending).map_or(0, |last| last + 1);
                        self.pending.truncate(whole);
                        self.at_end = true;
                        self.failed = Some(io::Error::new(io::ErrorKind::InvalidData, error));
                    }
                }
            }
            let Some(end) = block_end(&self.pending, self.at_end, self.lines_per_block) else {
                // A block's worth of bytes and no line end: no path is that long.
                self.too_long = Some(LongPathLine::at(self.next_line));
                break;
            };
            let rest = self.pending[end..].to_vec();
            let mut block = std::mem::replace(&mut self.pending, rest);
            block.truncate(end);
            let lines = memchr::memchr_iter(b'\n', &block).count();
            if !block.is_empty() {
                blocks.push((block, self.next_line));
            }
            self.next_line += lines;
            if self.interactive {
                break;
            }
        }
        Ok(blocks)
    }
}

/// Where the next block ends in `pending`: after its last whole line, and after at most
/// `max_lines` lines; at the end of the input, everything. `None` when `pending` holds
/// no line end at all before the input ends (a line longer than a block).
fn block_end(pending: &[u8], at_end: bool, max_lines: usize) -> Option<usize> {
    if let Some(nth) = memchr::memchr_iter(b'\n', pending).nth(max_lines - 1)
        && nth + 1 < pending.len()
    {
        return Some(nth + 1);
    }
    if at_end {
        return Some(pending.len());
    }
    memchr::memrchr(b'\n', pending).map(|last| last + 1)
}

/// Reads into `pending`: until it holds [`BLOCK_BYTES`] (or the input ends), or, when
/// `interactive`, until a line end arrives. True at the end of the input.
fn fill(input: &mut impl Read, pending: &mut Vec<u8>, interactive: bool) -> io::Result<bool> {
    if !interactive {
        let wanted = BLOCK_BYTES.saturating_sub(pending.len()) as u64;
        let read = input.by_ref().take(wanted).read_to_end(pending)?;
        return Ok((read as u64) < wanted);
    }
    let mut chunk = [0; 16 * 1024];
    loop {
        let read = match input.read(&mut chunk) {
            Ok(read) => read,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if read == 0 {
            return Ok(true);
        }
        pending.extend_from_slice(&chunk[..read]);
        if chunk[..read].contains(&b'\n') || pending.len() >= BLOCK_BYTES {
            return Ok(false);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Gives `text`, then fails.
    struct FailsAfter(io::Cursor<Vec<u8>>);

    impl Read for FailsAfter {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            match self.0.read(buf)? {
                0 => Err(io::Error::other("the disk went away")),
                read => Ok(read),
            }
        }
    }

    /// From the attack on issue 39: the whole lines read before a read error were
    /// dropped with it; they are answered, then the error is said (the cut line is not).
    #[test]
    fn lines_read_before_an_error_are_answered_first() {
        for interactive in [false, true] {
            let mut reader = BlockReader::new(FailsAfter(io::Cursor::new(b"/a\n/b\n/c".to_vec())), interactive, 4);
            let mut lines = Vec::new();
            let error = loop {
                assert!(reader.more(), "the error is still to say");
                match reader.round(4) {
                    Ok(blocks) => lines.extend(blocks),
                    Err(error) => break error,
                }
            };
            let text: Vec<u8> = lines.iter().flat_map(|(block, _)| block.clone()).collect();
            assert_eq!(text, b"/a\n/b\n", "interactive: {interactive}");
            assert_eq!(lines[0].1, 1);
            assert_eq!(error.kind(), io::ErrorKind::InvalidData);
            assert!(!reader.more());
        }
    }
}
