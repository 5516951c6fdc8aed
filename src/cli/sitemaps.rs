//! `robotscope sitemaps`: the URLs a site asks to be crawled, checked against the robots
//! it asks to crawl them. The walk runs on tokio (`sitemaps::walk`); this thread takes
//! its events as they come, checks each URL for each robot and writes: JSON and CSV as
//! they come, text (blocked URLs grouped by deciding rule) at the end.

use super::csv::{self, Field::Text, Field::Value};
use std::collections::BTreeMap;
use std::io::{self, BufWriter, Write};

use clap::Args;
use color_eyre::eyre::{Result, WrapErr, bail, eyre};
use serde::Serialize;
use url::Url;

use super::answers::{Asked, CheckRecord};
use super::{Outcome, RobotSelection, RunDeadline, SourceOptions, finish_output, json, load, positive_count};
use crate::columns::Column;
use crate::policy::escape::sanitize_str;
use crate::policy::request::{Request, UrlMode};
use crate::policy::usage::{Category, Preference, UsageAnswer};
use crate::policy::{Availability, Decision, RobotsTxt};
use crate::robots_db::RobotsDb;
use crate::sitemaps::crawl::cut_words;
use crate::sitemaps::{
    Audit, Cut, DEFAULT_MAX_URLS, Event, Kind, Report, SitemapId, SitemapOrigin, WalkLimits, sitemaps_of, tree_order,
    walk,
};
use crate::words::plural;

/// `robotscope sitemaps`: may the robots crawl what the site's sitemaps list?
#[derive(Debug, Clone, Args)]
#[command(after_help = "Limits: each sitemap 50,000 URLs and 50 MB decoded (sitemaps.org); a URL 8 KiB (longer \
    ones are skipped and counted); 10,000 sitemaps a walk; --max-urls URLs and --max-time for the whole walk. The \
    text report lists 200,000 blocked URLs or 32 MiB of them, the first in sorted order, and counts the rest; \
    --blocked, --json and --csv list every one. What a limit stopped, and what could not be read, is said on each \
    sitemap's row, or on standard error for --blocked, --json and --csv.")]
pub struct SitemapsArgs {
    /// The robots.txt whose Sitemap lines are followed: a file, `-`, or a site.
    #[arg(value_name = "SOURCE")]
    pub source: String,
    #[command(flatten)]
    pub robots: RobotSelection,
    /// A sitemap to read besides those robots.txt lists (repeatable).
    #[arg(long = "sitemap", value_name = "URL")]
    pub sitemaps: Vec<String>,
    /// Print only the blocked URLs (with --json, only their objects).
    #[arg(long)]
    pub blocked: bool,
    /// The URLs read at most, all sitemaps together.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_URLS, value_parser = positive_count)]
    pub max_urls: usize,
    /// One JSON object per sitemap and per URL and robot.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// One CSV row per URL and robot.
    #[arg(long)]
    pub csv: bool,
    #[command(flatten)]
    pub deadline: RunDeadline,
    #[command(flatten)]
    pub source_options: SourceOptions,
}

/// A sitemap object of `--json` (DESIGN.md §4).
#[derive(Debug, Serialize)]
struct SitemapRecord<'a> {
    r#type: &'static str,
    url: &'a str,
    final_url: &'a str,
    status: Option<u16>,
    kind: Option<&'static str>,
    gzip: bool,
    urls: usize,
    /// Where reading stopped early: `urls` (50,000 in the file), `bytes` (50 MB), or
    /// the run's limit that stopped it: `max-urls`, `max-sitemaps`, `max-time`.
    cut: Option<&'static str>,
    /// Entries not taken: longer than 8 KiB, not http(s), bytes not of the encoding.
    skipped: SkippedRecord,
    /// The encoding the text was read from, when not UTF-8.
    encoding: Option<&'static str>,
    sitemaps: usize,
    error: Option<&'a str>,
    parent: Option<&'a str>,
    /// The robots robots.txt keeps from fetching the sitemap itself.
    blocked_for: Vec<&'a str>,
}

/// The entries a sitemap lists that were not taken, by why.
#[derive(Debug, Serialize)]
struct SkippedRecord {
    too_long: usize,
    not_http: usize,
    undecodable: usize,
}

/// A URL object of `--json`: the `check --json` fields, with the sitemap's.
#[derive(Debug, Serialize)]
struct UrlRecord<'a> {
    r#type: &'static str,
    sitemap: &'a str,
    lastmod: Option<&'a str>,
    other_host: bool,
    #[serde(flatten)]
    check: CheckRecord<'a>,
}

/// A URL object of `--json` for a URL on another site than the robots.txt's: no verdict
/// (`allowed`, `line` and `rule` null), since that site's own robots.txt decides.
#[derive(Debug, Serialize)]
struct OtherHostRecord<'a> {
    r#type: &'static str,
    sitemap: &'a str,
    lastmod: Option<&'a str>,
    other_host: bool,
    agent: &'a str,
    url: &'a str,
    allowed: Option<bool>,
    semantics: &'a str,
    line: Option<usize>,
    rule: Option<&'a str>,
}

/// How one robot fares over every listed URL.
#[derive(Debug, Default)]
struct RobotTally {
    /// Blocked URLs by deciding line: the rule and how many there are in all (the URLs
    /// kept to list are in [`Run::kept`]).
    blocked: BTreeMap<Option<usize>, BlockedLine>,
    blocked_count: usize,
    /// Among the URLs it may fetch: per category, how many are allowed, disallowed,
    /// unknown.
    usage: [[usize; 3]; 3],
}

/// The URLs one line blocks for one robot.
#[derive(Debug, Default)]
struct BlockedLine {
    rule: String,
    count: usize,
}

/// Blocked URLs the text report keeps to list, all robots together, each kept once, and
/// their bytes (a URL may be 8 KiB long): past either the first in sorted order are kept
/// (the same report whatever order the sitemaps came in) and the rest counted, and
/// `--blocked` or `--json` lists every one as it goes.
const MAX_KEPT_URLS: usize = 200_000;
const MAX_KEPT_BYTES: usize = 32 * 1024 * 1024;

/// What the run has seen.
struct Run<'a> {
    txt: &'a RobotsTxt,
    availability: Availability,
    audit: Audit,
    labels: Vec<String>,
    robots_txt_site: Option<Url>,
    sitemaps: Vec<Option<SitemapOrigin>>,
    reports: Vec<Report>,
    tallies: Vec<RobotTally>,
    pages: usize,
    other_host: Vec<(String, SitemapId)>,
    other_host_count: usize,
    /// Blocked URLs kept for the text report, once each however many robots (and lines)
    /// they are blocked by, the first in sorted order.
    kept: BTreeMap<Box<str>, Vec<(usize, Option<usize>)>>,
    /// Their bytes.
    kept_bytes: usize,
    /// True once a blocked URL was not kept (or was let go) for want of room.
    kept_all: bool,
    /// `--json`: each sitemap's URL records, held until its own record is written, so
    /// that a sitemap comes before its URLs (issue 24).
    held: Vec<Option<Held>>,
    args: &'a SitemapsArgs,
}

/// URL records held back until their sitemap's own record is written: in memory up to
/// [`HELD_IN_MEMORY_BYTES`], then in a temporary file (removed as soon as it is made), so
/// that memory stays bounded by the sitemaps read at once, not by their size.
#[derive(Debug, Default)]
struct Held {
    memory: Vec<u8>,
    spill: Option<std::fs::File>,
}

/// Bytes of one sitemap's URL records held in memory before they go to a file.
const HELD_IN_MEMORY_BYTES: usize = 1 << 20;

/// Numbers the temporary files of held records.
static HELD_FILES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

impl Held {
    /// Holds some records' bytes.
    fn push(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.memory.extend_from_slice(bytes);
        if self.memory.len() > HELD_IN_MEMORY_BYTES {
            let spill = match &mut self.spill {
                Some(spill) => spill,
                None => self.spill.insert(spill_file()?),
            };
            spill.write_all(&self.memory)?;
            self.memory.clear();
        }
        Ok(())
    }

    /// Writes what is held, in order.
    fn write_to(self, out: &mut dyn Write) -> io::Result<()> {
        if let Some(mut spill) = self.spill {
            use std::io::Seek;
            spill.seek(io::SeekFrom::Start(0))?;
            io::copy(&mut spill, out)?;
        }
        out.write_all(&self.memory)
    }
}

/// A temporary file for held records, created exclusively, and unlinked at once where
/// the system allows it (it goes when closed, whatever happens).
fn spill_file() -> io::Result<std::fs::File> {
    let number = HELD_FILES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("robotscope-sitemap-{}-{number}.jsonl", std::process::id()));
    let file = std::fs::OpenOptions::new().read(true).write(true).create_new(true).open(&path)?;
    #[cfg(unix)]
    let _ = std::fs::remove_file(&path);
    Ok(file)
}

/// The CSV's header row.
const CSV_HEADER: &str = "sitemap,url,agent,allowed,semantics,line,rule,lastmod,other_host";

/// The URLs on another host than their sitemap shown in the text (all are counted).
const OTHER_HOST_SHOWN: usize = 20;

/// The index levels the text shows by indentation; deeper ones say their depth.
const MAX_INDENT: usize = 8;

/// `robotscope sitemaps`.
pub fn sitemaps(args: &SitemapsArgs, db: &RobotsDb) -> Result<Outcome> {
    let queries = args.robots.queries_or_defaults(db)?;
    // --max-time is the whole run's: the robots.txt fetch is in it, and the walk gets
    // what is left.
    let started = std::time::Instant::now();
    let mut source_options = args.source_options.clone();
    source_options.timeout = source_options.timeout.min(args.deadline.max_time.as_secs().max(1));
    let loaded = load(&args.source, &source_options, args.robots.user_agent(db))?;
    let site = loaded.site_origins.first().and_then(|origin| Url::parse(&format!("{origin}/robots.txt")).ok());
    let (mut starts, problems) = sitemaps_of(&loaded.txt, site.as_ref());
    // Read against the site, as the rest are; but crawlers want absolute URLs there.
    for written in loaded.txt.sitemaps().filter(|written| Url::parse(written).is_err() && site.is_some()) {
        note!(
            "robotscope: warning: the Sitemap line `{}` is not an absolute URL: read against the site, but \
             crawlers may ignore it (sitemaps.org asks for the full URL)",
            sanitize_str(&written)
        );
    }
    for problem in problems {
        note!("robotscope: warning: the Sitemap line `{}` is not an http(s) URL; skipped", sanitize_str(&problem));
    }
    for given in &args.sitemaps {
        let url = Url::parse(given)
            .ok()
            .filter(|url| matches!(url.scheme(), "http" | "https"))
            .ok_or_else(|| eyre!("--sitemap {} is not an http(s) URL", sanitize_str(given)))?;
        if !starts.contains(&url) {
            starts.push(url);
        }
    }
    if starts.is_empty() {
        bail!("the robots.txt lists no Sitemap; name one with --sitemap URL");
    }
    let columns = Column::all(&loaded.txt, queries.iter().map(|q| (q.label.clone(), q.robot.clone(), q.reading)));
    let mut run = Run {
        txt: &loaded.txt,
        availability: loaded.availability,
        audit: Audit::new(columns, loaded.availability, UrlMode::AsCrawlersSend, site.as_ref()),
        labels: queries.iter().map(|q| q.label.clone()).collect(),
        robots_txt_site: site.clone(),
        sitemaps: Vec::new(),
        reports: Vec::new(),
        tallies: queries.iter().map(|_| RobotTally::default()).collect(),
        pages: 0,
        other_host: Vec::new(),
        other_host_count: 0,
        kept: BTreeMap::new(),
        kept_bytes: 0,
        kept_all: true,
        held: Vec::new(),
        args,
    };
    let limits = WalkLimits {
        fetch: args.source_options.limits(args.robots.user_agent(db)),
        max_urls: args.max_urls,
        max_time: args.deadline.max_time,
        spent: started.elapsed(),
        ..WalkLimits::default()
    };
    // The sitemaps are read on blocking threads, as many as are read at once: each
    // thread has an allocator arena of its own, which keeps what it freed (forty
    // sitemaps on as many threads held a third more than the run needs).
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(crate::sitemaps::crawl::CONCURRENCY)
        .enable_all()
        .build()
        .wrap_err("starting the runtime")?;
    // A few batches in flight: each may hold a thousand URLs of 8 KiB.
    let (sender, mut events) = tokio::sync::mpsc::channel(4);
    let walked = runtime.spawn(walk(starts, limits.clone(), sender));
    let progress = Progress::new();
    let mut out = BufWriter::with_capacity(256 * 1024, io::stdout().lock());
    let mut written = if args.csv { writeln!(out, "{CSV_HEADER}") } else { Ok(()) };
    while let Some(event) = events.blocking_recv() {
        if written.is_ok() {
            written = run.take(event, &mut out);
        } else {
            // A closed pipe: keep counting for the exit status, write nothing more.
            let _ = run.take(event, &mut io::sink());
        }
        // Pages come a thousand to an event: one update each costs nothing.
        progress.show(&run);
    }
    progress.finish();
    // Sitemaps the walk never finished (stopped, or cut short): their URLs all the same.
    if written.is_ok() {
        written = run.write_held(&mut out);
    }
    let walked = runtime.block_on(walked).unwrap_or_default();
    note_walk_end(&walked, &limits);
    if !args.json && !args.csv && !args.blocked && written.is_ok() {
        written = run.write_text(&mut out, &limits);
    }
    finish_output(written.and_then(|()| out.flush()))?;
    // What the text report shows on its rows, the other outputs say on standard error, so
    // that a script knows its data is incomplete.
    if args.json || args.csv || args.blocked {
        run.note_what_was_missed();
    }
    if run.reports.iter().all(Report::failed) && run.pages == 0 {
        let why: Vec<String> = run
            .reports
            .iter()
            .take(3)
            .map(|r| format!("{} ({})", r.url, r.error.as_deref().unwrap_or("nothing in it")))
            .collect();
        let more = run.reports.len().saturating_sub(3);
        let more = if more > 0 { format!(" and {more} more") } else { String::new() };
        bail!("no sitemap could be read: {}{more}", sanitize_str(&why.join("; ")));
    }
    let any_blocked = run.tallies.iter().any(|tally| tally.blocked_count > 0);
    Ok(if any_blocked { Outcome::Findings } else { Outcome::Clean })
}

/// Says on standard error where the walk stopped, and what it read once.
fn note_walk_end(walked: &crate::sitemaps::Walked, limits: &WalkLimits) {
    if let Some(stop) = walked.stopped_by {
        let unread = match walked.unread {
            0 => String::new(),
            unread => format!(": {} found and not read", plural(unread, "sitemap")),
        };
        let raise = match stop {
            crate::sitemaps::Stop::MaxSitemaps => String::new(),
            _ => format!("; raise --{} to read on", stop.name()),
        };
        note!("robotscope: note: stopped at {}{unread}{raise}", stop.words(limits));
    }
    if walked.repeated > 0 {
        let verb = if walked.repeated == 1 { "was" } else { "were" };
        note!("robotscope: note: {} listed again {verb} read once", plural(walked.repeated, "sitemap"));
    }
}

impl Run<'_> {
    /// Takes one event of the walk: records it, and writes what streams.
    fn take(&mut self, event: Event, out: &mut dyn Write) -> io::Result<()> {
        match event {
            Event::Started { id, url, .. } => {
                if self.sitemaps.len() <= id {
                    self.sitemaps.resize(id + 1, None);
                }
                self.sitemaps[id] = Some(SitemapOrigin::of(&url));
                Ok(())
            }
            Event::Pages { sitemap, entries, .. } => {
                // The sitemap's origin once for the batch, not a copy per URL.
                let Some(origin) = self.sitemaps.get(sitemap).and_then(Option::clone) else { return Ok(()) };
                for entry in entries {
                    self.page(sitemap, &origin, &entry.loc, entry.lastmod.as_deref(), out)?;
                }
                Ok(())
            }
            Event::Finished(report) => {
                let mut written = if self.holds_urls() { self.sitemap_json(&report, out) } else { Ok(()) };
                if let Some(held) = self.held.get_mut(report.id).and_then(Option::take)
                    && written.is_ok()
                {
                    written = held.write_to(out);
                }
                self.reports.push(*report);
                written
            }
        }
    }

    /// True when URL records wait for their sitemap's record (`--json`, sitemap records
    /// included).
    fn holds_urls(&self) -> bool {
        self.args.json && !self.args.blocked
    }

    /// Holds a URL record of `sitemap` until its sitemap's record is written.
    fn hold(&mut self, sitemap: SitemapId, line: &[u8]) -> io::Result<()> {
        if self.held.len() <= sitemap {
            self.held.resize_with(sitemap + 1, || None);
        }
        self.held[sitemap].get_or_insert_with(Held::default).push(line)
    }

    /// Writes the URL records still held (of sitemaps the walk never finished).
    fn write_held(&mut self, out: &mut dyn Write) -> io::Result<()> {
        for held in self.held.iter_mut().filter_map(Option::take) {
            held.write_to(out)?;
        }
        Ok(())
    }

    fn sitemap_url(&self, id: SitemapId) -> Option<&Url> {
        self.sitemaps.get(id).and_then(Option::as_ref).map(SitemapOrigin::url)
    }

    /// One listed URL: every robot's verdict, tallied, and streamed as JSON or CSV.
    fn page(
        &mut self,
        sitemap: SitemapId,
        origin: &SitemapOrigin,
        loc: &str,
        lastmod: Option<&str>,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let sitemap_url = origin.url();
        self.pages += 1;
        let check = self.audit.check(loc, origin);
        if check.other_host {
            self.other_host_count += 1;
            if self.other_host.len() < OTHER_HOST_SHOWN {
                self.other_host.push((loc.to_owned(), sitemap));
            }
            return self.other_host_page(sitemap, sitemap_url, loc, lastmod, out);
        }
        // The path the URL names, for `--json`: most URLs are tested as they are written
        // and need no second reading (the audit's fast path); the others are read once.
        let mut path: Option<std::borrow::Cow<'_, str>> = None;
        let text_report = !self.args.json && !self.args.csv && !self.args.blocked;
        // The robots and lines that block this URL, for the text report.
        let mut blocked_by: Vec<(usize, Option<usize>)> = Vec::new();
        for (index, finding) in check.findings.iter().enumerate() {
            let column = &self.audit.columns[index];
            let tally = &mut self.tallies[index];
            let blocked = !finding.decision.allowed();
            if blocked {
                tally.blocked_count += 1;
                let line = finding.decision.rule().map(|at| at.line());
                // The rule's text once per line, not once per URL.
                let txt = self.txt;
                let entry = tally.blocked.entry(line).or_insert_with(|| {
                    let rule = finding.decision.rule().map(|at| txt.rule_text(at.rule_in(txt, column.reading)));
                    BlockedLine { rule: rule.unwrap_or_default(), ..BlockedLine::default() }
                });
                entry.count += 1;
                if text_report {
                    blocked_by.push((index, line));
                }
            }
            if let UsageAnswer::Stated(usage) = &finding.usage {
                for (category, stated) in usage.iter() {
                    let at = match stated.preference() {
                        Preference::Allowed => 0,
                        Preference::Disallowed => 1,
                        Preference::Unknown => 2,
                    };
                    tally.usage[category_index(category)][at] += 1;
                }
            }
            if self.args.blocked && !blocked {
                continue;
            }
            if self.args.json {
                let path = path.get_or_insert_with(|| match loc.strip_prefix(origin.prefix()) {
                    Some(rest) if rest == check.tested => std::borrow::Cow::Borrowed(rest),
                    _ => std::borrow::Cow::Owned(Request::new(loc, UrlMode::AsCrawlersSend).path().to_owned()),
                });
                let asked = Asked { url: loc.trim(), path, tested: &check.tested };
                let decided = (self.availability, column, finding.decision);
                let record = UrlRecord {
                    r#type: "url",
                    sitemap: sitemap_url.as_str(),
                    lastmod,
                    other_host: check.other_host,
                    check: CheckRecord::of(self.txt, decided, &self.labels[index], asked, &finding.usage),
                };
                if self.holds_urls() {
                    let mut line = Vec::with_capacity(512);
                    json::write_into(&mut line, &record);
                    self.hold(sitemap, &line)?;
                } else {
                    json::write_line(out, &record)?;
                }
            } else if self.args.csv {
                let line = finding.decision.rule().map(|at| at.line().to_string()).unwrap_or_default();
                csv::write_record(
                    out,
                    [
                        Text(sitemap_url.as_str()),
                        Text(loc),
                        Text(&self.labels[index]),
                        Value(if finding.decision.allowed() { "true" } else { "false" }),
                        Value(column.reading.name()),
                        Value(&line),
                        Text(&self.rule_text(column, finding.decision)),
                        Text(lastmod.unwrap_or_default()),
                        Value(if check.other_host { "true" } else { "false" }),
                    ],
                )?;
            } else if self.args.blocked {
                let why = match finding.decision.rule() {
                    Some(at) => format!("line {}: {}", at.line(), self.rule_text(column, finding.decision)),
                    None => "no rule (the file keeps it out)".to_owned(),
                };
                let (label, loc, why) = (sanitize_str(&self.labels[index]), sanitize_str(loc), sanitize_str(&why));
                writeln!(out, "blocked  {label}  {loc}  {why}")?;
            }
        }
        if !blocked_by.is_empty() {
            self.keep(loc, blocked_by);
        }
        Ok(())
    }

    /// A listed URL on another site than the robots.txt's: counted apart, never blocked
    /// or allowed; `--json` and `--csv` give it with no verdict.
    fn other_host_page(
        &mut self,
        sitemap: SitemapId,
        sitemap_url: &Url,
        loc: &str,
        lastmod: Option<&str>,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        if self.args.blocked {
            return Ok(());
        }
        for index in 0..self.audit.columns.len() {
            let reading = self.audit.columns[index].reading;
            if self.args.json {
                let record = OtherHostRecord {
                    r#type: "url",
                    sitemap: sitemap_url.as_str(),
                    lastmod,
                    other_host: true,
                    agent: &self.labels[index],
                    url: loc.trim(),
                    allowed: None,
                    semantics: reading.name(),
                    line: None,
                    rule: None,
                };
                if self.holds_urls() {
                    let mut line = Vec::with_capacity(256);
                    json::write_into(&mut line, &record);
                    self.hold(sitemap, &line)?;
                } else {
                    json::write_line(out, &record)?;
                }
            } else if self.args.csv {
                csv::write_record(
                    out,
                    [
                        Text(sitemap_url.as_str()),
                        Text(loc),
                        Text(&self.labels[index]),
                        Value(""),
                        Value(reading.name()),
                        Value(""),
                        Value(""),
                        Text(lastmod.unwrap_or_default()),
                        Value("true"),
                    ],
                )?;
            }
        }
        Ok(())
    }

    /// Keeps a blocked URL for the text report while it is among the first in sorted
    /// order that fit [`MAX_KEPT_URLS`] and [`MAX_KEPT_BYTES`]: the last ones go when a
    /// smaller one comes, so two runs keep the same URLs.
    fn keep(&mut self, loc: &str, blocked_by: Vec<(usize, Option<usize>)>) {
        if let Some(held) = self.kept.get_mut(loc) {
            // Listed again (by another sitemap): kept once.
            for by in blocked_by {
                if !held.contains(&by) {
                    held.push(by);
                }
            }
            return;
        }
        let full = |kept: &BTreeMap<Box<str>, _>, bytes: usize| kept.len() >= MAX_KEPT_URLS || bytes > MAX_KEPT_BYTES;
        if full(&self.kept, self.kept_bytes + loc.len())
            && self.kept.last_key_value().is_none_or(|(last, _)| loc >= &**last)
        {
            self.kept_all = false;
            return;
        }
        self.kept_bytes += loc.len();
        self.kept.insert(loc.into(), blocked_by);
        while self.kept.len() > MAX_KEPT_URLS || self.kept_bytes > MAX_KEPT_BYTES {
            let Some((last, _)) = self.kept.pop_last() else { break };
            self.kept_bytes -= last.len();
            self.kept_all = false;
        }
    }

    /// The deciding rule as written (`Disallow: /private/`), or nothing.
    fn rule_text(&self, column: &Column, decision: Decision) -> String {
        decision.rule().map_or_else(String::new, |at| self.txt.rule_text(at.rule_in(self.txt, column.reading)))
    }

    /// A sitemap's JSON object, once it has been read.
    fn sitemap_json(&self, report: &Report, out: &mut dyn Write) -> io::Result<()> {
        let parent = report.parent.and_then(|id| self.sitemap_url(id)).map(Url::as_str);
        let blocked = self.audit.blocked_sitemap(&report.url, self.robots_txt_site.as_ref());
        let record = SitemapRecord {
            r#type: "sitemap",
            url: report.url.as_str(),
            final_url: report.final_url.as_str(),
            status: report.status.map(crate::fetch::Status::code),
            kind: report.read.kind.map(Kind::name),
            gzip: report.read.gzipped,
            urls: if report.read.kind == Some(Kind::Index) { 0 } else { report.entries() },
            sitemaps: report.sitemaps,
            cut: match (report.read.cut, report.stopped_by) {
                (Some(Cut::Urls), _) => Some("urls"),
                (Some(Cut::Bytes), _) => Some("bytes"),
                (_, Some(stop)) => Some(stop.name()),
                (Some(Cut::Stopped), None) => Some("stopped"),
                (None, None) => None,
            },
            skipped: SkippedRecord {
                too_long: report.read.skipped.too_long,
                not_http: report.read.skipped.not_http,
                undecodable: report.read.skipped.undecodable,
            },
            encoding: report.read.encoding,
            error: report.error.as_deref(),
            parent,
            blocked_for: blocked.iter().map(|(column, _)| self.labels[*column].as_str()).collect(),
        };
        json::write_line(out, &record)
    }

    /// Says on standard error which sitemaps could not be read and how many URLs were
    /// skipped (the text report shows it on each sitemap's row).
    fn note_what_was_missed(&self) {
        let failed: Vec<&Report> = self.reports.iter().filter(|r| r.error.is_some()).collect();
        if !failed.is_empty() {
            let named: Vec<String> = failed
                .iter()
                .take(3)
                .map(|r| format!("{} ({})", r.url, r.error.as_deref().unwrap_or_default()))
                .collect();
            let more = failed.len().saturating_sub(named.len());
            let more = if more > 0 { format!(" and {more} more") } else { String::new() };
            note!(
                "robotscope: warning: {} of {} could not be read, in whole or in part: {}{more}",
                failed.len(),
                plural(self.reports.len(), "sitemap"),
                sanitize_str(&named.join("; "))
            );
        }
        let skipped: usize = self.reports.iter().map(|r| r.read.skipped.total()).sum();
        if skipped > 0 {
            note!(
                "robotscope: note: {} skipped (longer than 8 KiB, not http(s), or bytes not of the file's encoding)",
                plural(skipped, "listed URL")
            );
        }
    }

    /// The text report: each sitemap, then each robot's blocked URLs grouped by the line
    /// that blocks them, then the URLs on another host.
    fn write_text(&self, out: &mut dyn Write, limits: &WalkLimits) -> io::Result<()> {
        let failed = self.reports.iter().filter(|r| r.failed()).count();
        let not_read = self.reports.iter().filter(|r| r.not_read()).count();
        let mut unread = Vec::new();
        if failed > 0 {
            unread.push(format!("{failed} could not be read"));
        }
        if not_read > 0 {
            unread.push(format!("{not_read} not read: a limit came first"));
        }
        let unread = if unread.is_empty() { String::new() } else { format!(" ({})", unread.join(", ")) };
        writeln!(out, "{}{unread}, {} listed", plural(self.reports.len(), "sitemap"), plural(self.pages, "URL"))?;
        // In tree order, each index's sitemaps under it, whatever order they were read in.
        let mut by_id: Vec<Option<&Report>> = vec![None; self.reports.iter().map(|r| r.id + 1).max().unwrap_or(0)];
        for report in &self.reports {
            by_id[report.id] = Some(report);
        }
        let parents: Vec<Option<SitemapId>> = by_id.iter().map(|r| r.and_then(|r| r.parent)).collect();
        for (id, depth) in tree_order(&parents) {
            let Some(report) = by_id[id] else { continue };
            // An index of indexes ten thousand deep must not print 100 MB of spaces: past
            // a few levels, the depth is a number.
            let indent = if depth < MAX_INDENT {
                "  ".repeat(depth + 1)
            } else {
                format!("{}[depth {depth}] ", "  ".repeat(MAX_INDENT + 1))
            };
            let status = report.status.map_or_else(|| "—".to_owned(), |status| status.code().to_string());
            let what = match report.read.kind {
                // The limit that came first says it (below).
                _ if report.not_read() => String::new(),
                Some(Kind::Index) => format!("sitemapindex, {}", plural(report.sitemaps, "sitemap")),
                Some(kind) => format!("{}, {}", kind.name(), plural(report.entries(), "URL")),
                None => "not read".to_owned(),
            };
            let read_as: Vec<&str> =
                [report.read.gzipped.then_some("gzip"), report.read.encoding].into_iter().flatten().collect();
            let read_as = if read_as.is_empty() { String::new() } else { format!(" ({})", read_as.join(", ")) };
            write!(out, "{indent}{}  {status}  {what}{read_as}", sanitize_str(report.url.as_str()))?;
            if let Some(error) = &report.error {
                write!(out, "  error: {}", sanitize_str(error))?;
            }
            if let Some(cut) = cut_words(report, limits) {
                write!(out, "  {cut}")?;
            }
            if let Some(skipped) = report.read.skipped.words() {
                write!(out, "  skipped: {skipped}")?;
            }
            for (column, decision) in self.audit.blocked_sitemap(&report.url, self.robots_txt_site.as_ref()) {
                let line = decision.rule().map_or_else(String::new, |at| format!(" (line {})", at.line()));
                write!(out, "  robots.txt keeps {} from it{line}", sanitize_str(&self.labels[column]))?;
            }
            writeln!(out)?;
        }
        writeln!(out)?;
        // Nothing listed: nothing to say per robot (the error says why).
        // The kept URLs of each robot and line, in order (the map is sorted).
        let mut listed: std::collections::HashMap<(usize, Option<usize>), Vec<&str>> = std::collections::HashMap::new();
        for (url, blocked_by) in &self.kept {
            for by in blocked_by {
                listed.entry(*by).or_default().push(url);
            }
        }
        // The URLs this robots.txt governs: those on other sites are counted apart.
        let judged = self.pages - self.other_host_count;
        let robots = self.labels.iter().zip(&self.tallies).zip(&self.audit.columns).filter(|_| judged > 0);
        for (robot, ((label, tally), column)) in robots.enumerate() {
            // The reading, since robots under the classic ones may be blocked otherwise.
            let label = format!("{} ({})", sanitize_str(label), column.reading.title());
            if tally.blocked_count == 0 {
                writeln!(out, "{label}: may fetch every one of the {} on this site", plural(judged, "URL"))?;
            } else {
                writeln!(out, "{label}: {} of {} on this site blocked", tally.blocked_count, plural(judged, "URL"))?;
            }
            write_usage_tally(out, tally)?;
            for (line, blocked) in &tally.blocked {
                let at =
                    line.map_or_else(|| "no rule (the file keeps it out)".to_owned(), |line| format!("line {line}"));
                writeln!(out, "  {at}: {}  ({})", sanitize_str(&blocked.rule), plural(blocked.count, "URL"))?;
                // Sorted: the same report whatever order the sitemaps were read in.
                let urls = listed.get(&(robot, *line)).map_or(&[][..], Vec::as_slice);
                for url in urls {
                    writeln!(out, "    {}", sanitize_str(url))?;
                }
                if blocked.count > urls.len() && self.kept_all {
                    // Every URL is shown: the rest are the same URLs listed again.
                    let again = blocked.count - urls.len();
                    writeln!(out, "    ({} listed again by another sitemap)", plural(again, "URL"))?;
                } else if blocked.count > urls.len() {
                    let more = blocked.count - urls.len();
                    writeln!(
                        out,
                        "    … and {more} more (this report keeps {MAX_KEPT_URLS} URLs or {} MiB; --blocked or \
                         --json lists every one)",
                        MAX_KEPT_BYTES >> 20
                    )?;
                }
            }
        }
        self.write_other_hosts(out)
    }

    /// The text report's last part: the URLs on another site, which it does not judge.
    fn write_other_hosts(&self, out: &mut dyn Write) -> io::Result<()> {
        if self.other_host_count > 0 {
            let whose = if self.robots_txt_site.is_some() { "the robots.txt's" } else { "their sitemap's" };
            writeln!(
                out,
                "\n{} on another site than {whose}: not judged, their own site's robots.txt decides (and a sitemap \
                 may list only URLs of its own host, sitemaps.org says):",
                plural(self.other_host_count, "URL")
            )?;
            for (url, sitemap) in &self.other_host {
                let sitemap = self.sitemap_url(*sitemap).map_or("", Url::as_str);
                writeln!(out, "  {} (in {})", sanitize_str(url), sanitize_str(sitemap))?;
            }
        }
        Ok(())
    }
}

fn category_index(category: Category) -> usize {
    Category::ALL.iter().position(|c| *c == category).unwrap_or(0)
}

/// `  usage of the URLs it may fetch: train-ai 10 disallowed · search 10 allowed`.
fn write_usage_tally(out: &mut dyn Write, tally: &RobotTally) -> io::Result<()> {
    let parts: Vec<String> = Category::ALL
        .iter()
        .filter_map(|&category| {
            let [allowed, disallowed, _unknown] = tally.usage[category_index(category)];
            let mut said = Vec::new();
            if disallowed > 0 {
                said.push(format!("{disallowed} disallowed"));
            }
            if allowed > 0 {
                said.push(format!("{allowed} allowed"));
            }
            (!said.is_empty()).then(|| format!("{category} {}", said.join(", ")))
        })
        .collect();
    if parts.is_empty() {
        return Ok(());
    }
    writeln!(out, "  usage of the URLs it may fetch: {}", parts.join(" · "))
}

/// A progress line on standard error while the walk runs, when it is a terminal.
struct Progress(Option<indicatif::ProgressBar>);

impl Progress {
    fn new() -> Progress {
        Progress(super::stderr_spinner())
    }

    fn show(&self, run: &Run<'_>) {
        if let Some(bar) = &self.0 {
            bar.set_message(format!("{} read of {} found · {} URLs", run.reports.len(), run.sitemaps.len(), run.pages));
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}
