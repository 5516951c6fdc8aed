//! Redirects followed through the captures of a survey's input: a 3xx capture takes
//! the verdicts of its target's capture (RFC 9309 §2.3.1.2), when the input holds it.
//! http and https captures of one site sit apart in an archive (Common Crawl writes
//! them to different files), and the robot's answer is the target's.
//!
//! A redirect takes its target's capture nearest in time: the last at or before the
//! redirect's, else the first after (an input of several crawls holds a site's file as
//! it was in each).
//!
//! What must be remembered (each URL's captures, each redirect waiting) grows with
//! the input; a [`RedirectMemory`] keeps it, as compact records: [`InMemory`] in hash
//! maps, or the caller's store on disk (the command line's is a temporary SQLite
//! file), so that memory stays flat however many captures come.

use std::collections::{BTreeMap, HashMap};
use std::io;
use std::ops::Bound::{Excluded, Included, Unbounded};

use super::{Capture, Category, GroupKind, Row, redirect_target, site_of, url_key};
use crate::policy::Preference;

/// The most redirects followed from a capture, as RFC 9309 §2.3.1.2 asks of robots.
pub const MAX_REDIRECT_HOPS: usize = 5;

/// Where [`Redirects`] keeps what it remembers, as opaque records: each URL's captures
/// by its key and time, and the redirects waiting for their targets, in order.
pub trait RedirectMemory {
    /// Keeps `record` as the capture of `key` at `time`, replacing one kept for the
    /// same time.
    ///
    /// # Errors
    /// When the memory cannot keep it (a disk full).
    fn remember(&mut self, key: &str, time: &str, record: &[u8]) -> io::Result<()>;
    /// The capture of `key` nearest `time`: the last at or before it, else the first
    /// after, else one with no time (`""`: its date could not be read); `None` when none
    /// was kept.
    ///
    /// # Errors
    /// When the memory cannot be read.
    fn recall(&mut self, key: &str, time: &str) -> io::Result<Option<Vec<u8>>>;
    /// How many captures are kept.
    fn remembered(&self) -> usize;
    /// Keeps a redirect waiting for its target, after the others.
    ///
    /// # Errors
    /// When the memory cannot keep it.
    fn wait(&mut self, record: &[u8]) -> io::Result<()>;
    /// At most `count` waiting redirects, from the `from`th (0 the first).
    ///
    /// # Errors
    /// When the memory cannot be read.
    fn waiting(&mut self, from: usize, count: usize) -> io::Result<Vec<Vec<u8>>>;
}

/// A [`RedirectMemory`] in hash maps: what the Python package and small runs use.
#[derive(Debug, Default)]
pub struct InMemory {
    by_url: HashMap<String, BTreeMap<String, Vec<u8>>>,
    captures: usize,
    waiting: Vec<Vec<u8>>,
}

impl RedirectMemory for InMemory {
    fn remember(&mut self, key: &str, time: &str, record: &[u8]) -> io::Result<()> {
        let times = self.by_url.entry(key.to_owned()).or_default();
        if times.insert(time.to_owned(), record.to_vec()).is_none() {
            self.captures += 1;
        }
        Ok(())
    }

    fn recall(&mut self, key: &str, time: &str) -> io::Result<Option<Vec<u8>>> {
        let Some(times) = self.by_url.get(key) else { return Ok(None) };
        // A capture with no time (its date could not be read) is taken when no other is.
        let before = times.range::<str, _>((Unbounded, Included(time))).rev().find(|(at, _)| !at.is_empty());
        let after = || times.range::<str, _>((Excluded(time), Unbounded)).next();
        let undated = || times.get_key_value("");
        Ok(before.or_else(after).or_else(undated).map(|(_, record)| record.clone()))
    }

    fn remembered(&self) -> usize {
        self.captures
    }

    fn wait(&mut self, record: &[u8]) -> io::Result<()> {
        self.waiting.push(record.to_vec());
        Ok(())
    }

    fn waiting(&mut self, from: usize, count: usize) -> io::Result<Vec<Vec<u8>>> {
        Ok(self.waiting.iter().skip(from).take(count).cloned().collect())
    }
}

/// The captures' verdicts by URL, so that a redirect's capture can take its target's.
/// Every capture's rows must be for the same robots, in the same order.
#[derive(Debug, Default)]
pub struct Redirects<M: RedirectMemory = InMemory> {
    memory: M,
    /// The robots every capture's rows are for, in order.
    agents: Vec<String>,
    /// The URLs remembered at most.
    capacity: usize,
    /// The input was not read to its end (the run's time ran out): a target not found
    /// may be in the part not read.
    cut: bool,
}

impl Redirects<InMemory> {
    /// Remembers at most `capacity` captures (their verdicts), in memory: a redirect to
    /// one past it says `redirect`.
    #[must_use]
    pub fn with_capacity(capacity: usize) -> Redirects<InMemory> {
        Redirects::keeping_in(InMemory::default(), capacity)
    }
}

impl<M: RedirectMemory> Redirects<M> {
    /// Remembers at most `capacity` captures in `memory`.
    pub fn keeping_in(memory: M, capacity: usize) -> Redirects<M> {
        Redirects { memory, agents: Vec::new(), capacity, cut: false }
    }

    /// Says that the input was not read to its end: a redirect whose target was not
    /// found says so rather than that the input does not hold it.
    pub fn input_cut(&mut self) {
        self.cut = true;
    }

    /// Notes a capture's rows. A redirect's are kept back (returns `None`) until
    /// [`Redirects::resolve`]; the others are given back to be written at once.
    ///
    /// # Errors
    /// When the memory fails.
    pub fn note(&mut self, capture: &Capture, rows: Vec<Row>) -> io::Result<Option<Vec<Row>>> {
        let location = self.remember(capture, &rows)?;
        if let Some(location) = location {
            let waiting = Waiting {
                url: capture.url.clone(),
                time: capture.time.clone(),
                status: capture.status,
                error: capture.error.clone(),
                month: capture.month.clone(),
                location,
            };
            self.memory.wait(&waiting.encode())?;
            return Ok(None);
        }
        Ok(Some(rows))
    }

    /// Notes a capture that is no robots.txt of its site (a page, `/robots-prod.txt`)
    /// as a redirect's possible target only: a robots.txt may redirect anywhere, and
    /// robots read what they are sent to (RFC 9309 §2.3.1.2), but the capture has no
    /// rows of its own.
    ///
    /// # Errors
    /// When the memory fails.
    pub fn note_target(&mut self, capture: &Capture, rows: &[Row]) -> io::Result<()> {
        self.remember(capture, rows).map(|_| ())
    }

    /// Keeps `capture` as a target: where it redirects (which is returned), or its
    /// verdicts, while there is room.
    fn remember(&mut self, capture: &Capture, rows: &[Row]) -> io::Result<Option<String>> {
        if self.agents.is_empty() {
            self.agents = rows.iter().map(|row| row.agent.clone()).collect();
        }
        let location = redirect_target(capture);
        if self.memory.remembered() < self.capacity {
            let target = match &location {
                Some(location) => Some(Target::Redirect(location.clone())),
                None => (!rows.is_empty()).then(|| Target::Judged(Judged::of(rows))),
            };
            if let Some(target) = target {
                self.memory.remember(&url_key(&capture.url), &capture.time, &target.encode())?;
            }
        }
        Ok(location)
    }

    /// Every row [`Redirects::resolve`] gives, in one list (for tests).
    #[cfg(test)]
    pub(super) fn resolved_rows(self) -> Vec<Row> {
        let mut resolved = Vec::new();
        self.resolve(|rows| {
            resolved.extend(rows);
            Ok(())
        })
        .expect("memory");
        resolved
    }

    /// Hands `each` the rows of each redirect, in the order they came: its target's
    /// category, group, line, status and preferences (its capture nearest the
    /// redirect's time) when the input holds the target within [`MAX_REDIRECT_HOPS`];
    /// `redirect`, with why, when it does not.
    ///
    /// # Errors
    /// When the memory fails, or `each` does.
    pub fn resolve(mut self, mut each: impl FnMut(Vec<Row>) -> io::Result<()>) -> io::Result<()> {
        const PAGE: usize = 4096;
        let mut from = 0;
        loop {
            let page = self.memory.waiting(from, PAGE)?;
            for record in &page {
                let waiting = Waiting::decode(record).ok_or_else(damaged)?;
                let rows = self.rows_of(waiting)?;
                each(rows)?;
            }
            if page.len() < PAGE {
                return Ok(());
            }
            from += page.len();
        }
    }

    /// A waiting redirect's rows, its target found or not.
    fn rows_of(&mut self, waiting: Waiting) -> io::Result<Vec<Row>> {
        let mut at = waiting.location;
        let (mut found, mut last) = (None, None);
        for _ in 0..MAX_REDIRECT_HOPS {
            last = match self.memory.recall(&url_key(&at), &waiting.time)? {
                Some(record) => Some(Target::decode(&record).ok_or_else(damaged)?),
                None => None,
            };
            match &last {
                Some(Target::Judged(judged)) => {
                    found = Some(judged.clone());
                    break;
                }
                Some(Target::Redirect(next)) => at.clone_from(next),
                None => break,
            }
        }
        // The hops ran out on a redirect: the chain is longer than robots follow.
        let why = match last {
            Some(Target::Redirect(_)) => format!("more than {MAX_REDIRECT_HOPS} redirects"),
            _ if self.cut => format!("redirects to {at}, which the part of the input read does not hold"),
            _ => format!("redirects to {at}, which the input does not hold"),
        };
        let site = site_of(&waiting.url);
        Ok(self
            .agents
            .iter()
            .enumerate()
            .map(|(robot, agent)| {
                let mut row = Row {
                    url: waiting.url.clone(),
                    site: site.clone(),
                    agent: agent.clone(),
                    category: Category::Redirect,
                    group: GroupKind::None,
                    line: None,
                    status: waiting.status,
                    bytes: 0,
                    time: waiting.time.clone(),
                    train_ai: None,
                    html: false,
                    error: waiting.error.clone(),
                    month: waiting.month.clone(),
                };
                match found.as_ref().and_then(|judged| Some((judged, judged.verdicts.get(robot)?))) {
                    Some((judged, verdict)) => {
                        row.category = verdict.category;
                        row.group = verdict.group;
                        row.line = verdict.line;
                        row.train_ai = verdict.train_ai;
                        row.html = verdict.html;
                        row.status = judged.status;
                        row.bytes = judged.bytes;
                        row.error.clone_from(&judged.error);
                    }
                    None => {
                        row.error = Some(row.error.take().map_or(why.clone(), |error| format!("{error}; {why}")));
                    }
                }
                row
            })
            .collect())
    }
}

fn damaged() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, "a remembered capture could not be read back")
}

/// A redirect's capture, as little of it as its rows need.
#[derive(Debug)]
struct Waiting {
    url: String,
    time: String,
    status: Option<u16>,
    error: Option<String>,
    month: Option<String>,
    location: String,
}

/// A URL's last capture: what its rows say, or where it sends the robot.
#[derive(Debug)]
enum Target {
    Judged(Judged),
    Redirect(String),
}

/// What a capture's rows say, without what each of its rows repeats (the URL, the
/// site, the robot, the time).
#[derive(Debug, Clone)]
struct Judged {
    status: Option<u16>,
    bytes: usize,
    error: Option<String>,
    /// One per robot, in the robots' order, as every capture's rows are.
    verdicts: Vec<Verdict>,
}

#[derive(Debug, Clone, Copy)]
struct Verdict {
    category: Category,
    group: GroupKind,
    line: Option<usize>,
    train_ai: Option<Preference>,
    html: bool,
}

impl Judged {
    fn of(rows: &[Row]) -> Judged {
        let first = &rows[0];
        Judged {
            status: first.status,
            bytes: first.bytes,
            error: first.error.clone(),
            verdicts: rows
                .iter()
                .map(|row| Verdict {
                    category: row.category,
                    group: row.group,
                    line: row.line,
                    train_ai: row.train_ai,
                    html: row.html,
                })
                .collect(),
        }
    }
}

// The records: fields one after another, numbers little-endian, strings and lists
// after their length. Written and read here alone.

const GROUPS: [GroupKind; 3] = [GroupKind::Named, GroupKind::Star, GroupKind::None];
const PREFERENCES: [Preference; 3] = [Preference::Allowed, Preference::Disallowed, Preference::Unknown];

impl Target {
    fn encode(&self) -> Vec<u8> {
        let mut out = Record::default();
        match self {
            Target::Redirect(location) => {
                out.byte(0);
                out.text(location);
            }
            Target::Judged(judged) => {
                out.byte(1);
                out.status(judged.status);
                out.number(judged.bytes as u64);
                out.maybe_text(judged.error.as_deref());
                out.number(judged.verdicts.len() as u64);
                for verdict in &judged.verdicts {
                    out.byte(u8::try_from(verdict.category.index()).unwrap_or(u8::MAX));
                    out.byte(index_of(&GROUPS, &verdict.group));
                    out.number(verdict.line.map_or(0, |line| line as u64 + 1));
                    out.byte(verdict.train_ai.map_or(0, |preference| index_of(&PREFERENCES, &preference) + 1));
                    out.byte(u8::from(verdict.html));
                }
            }
        }
        out.0
    }

    fn decode(bytes: &[u8]) -> Option<Target> {
        Target::read(&mut Reader(bytes)).ok()
    }

    fn read(input: &mut Reader<'_>) -> Result<Target, Damaged> {
        if input.byte()? == 0 {
            return Ok(Target::Redirect(input.text()?));
        }
        let status = input.status()?;
        let bytes = usize::try_from(input.number()?).map_err(|_| Damaged)?;
        let error = input.maybe_text()?;
        let count = usize::try_from(input.number()?).map_err(|_| Damaged)?;
        let mut verdicts = Vec::with_capacity(count.min(1024));
        for _ in 0..count {
            verdicts.push(Verdict {
                category: Category::at(usize::from(input.byte()?)).ok_or(Damaged)?,
                group: *GROUPS.get(usize::from(input.byte()?)).ok_or(Damaged)?,
                line: input.number()?.checked_sub(1).and_then(|line| usize::try_from(line).ok()),
                train_ai: match input.byte()? {
                    0 => None,
                    index => Some(*PREFERENCES.get(usize::from(index - 1)).ok_or(Damaged)?),
                },
                html: input.byte()? != 0,
            });
        }
        Ok(Target::Judged(Judged { status, bytes, error, verdicts }))
    }
}

impl Waiting {
    fn encode(&self) -> Vec<u8> {
        let mut out = Record::default();
        out.text(&self.url);
        out.text(&self.time);
        out.status(self.status);
        out.maybe_text(self.error.as_deref());
        out.maybe_text(self.month.as_deref());
        out.text(&self.location);
        out.0
    }

    fn decode(bytes: &[u8]) -> Option<Waiting> {
        let mut input = Reader(bytes);
        let mut read = || -> Result<Waiting, Damaged> {
            Ok(Waiting {
                url: input.text()?,
                time: input.text()?,
                status: input.status()?,
                error: input.maybe_text()?,
                month: input.maybe_text()?,
                location: input.text()?,
            })
        };
        read().ok()
    }
}

fn index_of<T: PartialEq>(all: &[T], value: &T) -> u8 {
    u8::try_from(all.iter().position(|each| each == value).unwrap_or_default()).unwrap_or_default()
}

#[derive(Default)]
struct Record(Vec<u8>);

impl Record {
    fn byte(&mut self, byte: u8) {
        self.0.push(byte);
    }

    fn number(&mut self, number: u64) {
        self.0.extend_from_slice(&number.to_le_bytes());
    }

    fn status(&mut self, status: Option<u16>) {
        self.0.extend_from_slice(&status.map_or(0, |status| u32::from(status) + 1).to_le_bytes());
    }

    fn text(&mut self, text: &str) {
        self.number(text.len() as u64);
        self.0.extend_from_slice(text.as_bytes());
    }

    fn maybe_text(&mut self, text: Option<&str>) {
        match text {
            None => self.byte(0),
            Some(text) => {
                self.byte(1);
                self.text(text);
            }
        }
    }
}

/// A record that does not read back as it was written.
#[derive(Debug)]
struct Damaged;

struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take(&mut self, count: usize) -> Result<&[u8], Damaged> {
        let (head, rest) = self.0.split_at_checked(count).ok_or(Damaged)?;
        self.0 = rest;
        Ok(head)
    }

    fn byte(&mut self) -> Result<u8, Damaged> {
        self.take(1).map(|bytes| bytes[0])
    }

    fn number(&mut self) -> Result<u64, Damaged> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().map_err(|_| Damaged)?))
    }

    fn status(&mut self) -> Result<Option<u16>, Damaged> {
        let code = u32::from_le_bytes(self.take(4)?.try_into().map_err(|_| Damaged)?);
        Ok(code.checked_sub(1).and_then(|code| u16::try_from(code).ok()))
    }

    fn text(&mut self) -> Result<String, Damaged> {
        let length = usize::try_from(self.number()?).map_err(|_| Damaged)?;
        String::from_utf8(self.take(length)?.to_vec()).map_err(|_| Damaged)
    }

    fn maybe_text(&mut self) -> Result<Option<String>, Damaged> {
        match self.byte()? {
            0 => Ok(None),
            _ => self.text().map(Some),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::{Availability, Reading, Robot};
    use crate::survey::{SurveyRobot, judge};

    fn capture(url: &str, status: u16, body: &str) -> Capture {
        let availability =
            if (200..300).contains(&status) { Availability::Available } else { Availability::Status(status) };
        Capture {
            url: url.to_owned(),
            status: Some(status),
            availability,
            body: body.as_bytes().to_vec(),
            ..Capture::default()
        }
    }

    fn categories(rows: &[Row]) -> Vec<&'static str> {
        rows.iter().map(|row| row.category.name()).collect()
    }

    #[test]
    fn redirects_take_their_targets_rows_within_five_hops() {
        let bots: Vec<SurveyRobot> = ["GPTBot", "CCBot"]
            .iter()
            .map(|token| SurveyRobot {
                label: (*token).to_owned(),
                robot: Robot::from_agent(token),
                reading: Reading::Rfc9309,
            })
            .collect();
        let mut redirects = Redirects::with_capacity(100);
        let mut moved = capture("http://a.example/robots.txt", 301, "");
        moved.location = Some("https://a.example/robots.txt".into());
        assert!(redirects.note(&moved, judge(&moved, &bots)).expect("memory").is_none(), "kept back");
        let body = "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /x\nContent-Usage: train-ai=n\n";
        let target = capture("https://a.example/robots.txt", 200, body);
        let target_rows = judge(&target, &bots);
        let given = redirects.note(&target, target_rows.clone()).expect("memory");
        assert_eq!(given.as_deref().map(categories), Some(vec!["full", "partial"]));
        let mut elsewhere = capture("http://b.example/robots.txt", 302, "");
        elsewhere.location = Some("/other/robots.txt".into());
        redirects.note(&elsewhere, judge(&elsewhere, &bots)).expect("memory");
        let mut looping = capture("http://c.example/robots.txt", 301, "");
        looping.location = Some("http://c.example/robots.txt".into());
        redirects.note(&looping, judge(&looping, &bots)).expect("memory");
        let resolved = redirects.resolved_rows();
        assert_eq!(categories(&resolved), ["full", "partial", "redirect", "redirect", "redirect", "redirect"]);
        // The target's verdicts, read back whole from the memory's records.
        for (resolved, target) in resolved.iter().zip(&target_rows) {
            assert_eq!(
                (resolved.group, resolved.line, resolved.train_ai, resolved.html, resolved.status, resolved.bytes),
                (target.group, target.line, target.train_ai, target.html, target.status, target.bytes)
            );
        }
        assert_eq!((resolved[0].url.as_str(), resolved[0].status), ("http://a.example/robots.txt", Some(200)));
        assert_eq!(
            resolved[2].error.as_deref(),
            Some("redirects to http://b.example/other/robots.txt, which the input does not hold")
        );
        assert_eq!(resolved[4].error.as_deref(), Some("more than 5 redirects"));
    }

    /// A robots.txt that redirects to another path (a page, a file on a CDN) takes the
    /// verdicts of that capture, which has no rows of its own; through a redirect of
    /// another path too.
    #[test]
    fn a_target_at_another_path_is_followed_and_gives_no_rows() {
        let bots =
            [SurveyRobot { label: "GPTBot".into(), robot: Robot::from_agent("GPTBot"), reading: Reading::Rfc9309 }];
        let mut redirects = Redirects::with_capacity(100);
        let mut moved = capture("https://a.example/robots.txt", 301, "");
        // (A fragment is no part of the URL asked for.)
        moved.location = Some("https://cdn.example/a/robots-prod.txt#v1".into());
        redirects.note(&moved, judge(&moved, &bots)).expect("memory");
        let mut hop = capture("https://cdn.example/a/robots-prod.txt", 302, "");
        hop.location = Some("/a/v2.txt".into());
        redirects.note_target(&hop, &judge(&hop, &bots)).expect("memory");
        let page = capture("https://cdn.example/a/v2.txt", 200, "User-agent: GPTBot\nDisallow: /\n");
        redirects.note_target(&page, &judge(&page, &bots)).expect("memory");
        let resolved = redirects.resolved_rows();
        let summary: Vec<(&str, &str)> = resolved.iter().map(|row| (row.url.as_str(), row.category.name())).collect();
        assert_eq!(summary, [("https://a.example/robots.txt", "full")]);
        // A run cut short does not say the input lacks a target it may not have read.
        let mut redirects = Redirects::with_capacity(100);
        redirects.note(&moved, judge(&moved, &bots)).expect("memory");
        redirects.input_cut();
        let resolved = redirects.resolved_rows();
        assert_eq!(
            resolved[0].error.as_deref(),
            Some("redirects to https://cdn.example/a/robots-prod.txt, which the part of the input read does not hold")
        );
    }

    #[test]
    fn a_damaged_record_is_an_error_not_a_verdict() {
        assert!(Target::decode(&[1, 0]).is_none());
        assert!(Waiting::decode(&[]).is_none());
        let judged = Target::Judged(Judged {
            status: None,
            bytes: 7,
            error: Some("cut".into()),
            verdicts: vec![Verdict {
                category: Category::Missing,
                group: GroupKind::Star,
                line: Some(0),
                train_ai: None,
                html: true,
            }],
        });
        let Some(Target::Judged(back)) = Target::decode(&judged.encode()) else { panic!("read back") };
        assert_eq!((back.status, back.bytes, back.error.as_deref()), (None, 7, Some("cut")));
        let verdict = back.verdicts[0];
        assert_eq!(
            (verdict.category, verdict.group, verdict.line, verdict.train_ai, verdict.html),
            (Category::Missing, GroupKind::Star, Some(0), None, true)
        );
    }
}
