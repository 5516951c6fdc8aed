//! `robotscope history` and `robotscope diff`: a site's robots.txt versions (robotscope's
//! own fetches, kept in the store, and the web archive's captures), the flips of the
//! robots' verdicts and usage preferences between them, and the diff of any two. Also
//! the one place the other commands keep what they fetch ([`keep_in_store`]).

use std::fmt::Write as _;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::time::Duration;

use clap::Args;
use color_eyre::eyre::{Result, WrapErr, bail, eyre};
use serde::Serialize;
use url::Url;

use super::{Outcome, RobotSelection, SourceOptions, UrlOptions, finish_output, json, report_fetch};
use crate::fetch::{self, Retrieved, Source};
use crate::history::{
    self, ArchiveOptions, Change, Flip, Progress, Snapshot, Store, Subject, Version, date_range, display_date,
    display_size, snapshot, timeline_versions,
};
use crate::policy::escape::{sanitize_lines, sanitize_str};
use crate::policy::request::Request;
use crate::policy::words::plural;
use crate::policy::{Availability, Reading, RobotsTxt};
use crate::robots_db::RobotsDb;

/// Where versions come from and which: `--archive BASE | --local`, `--from`, `--to`.
#[derive(Debug, Clone, Args)]
pub struct VersionOptions {
    /// The Wayback-compatible archive to ask (CDX API at BASE/cdx/search/cdx, captures
    /// at BASE/web/TIMESTAMPid_/URL; default: the Wayback Machine, web.archive.org).
    #[arg(long, value_name = "BASE", conflicts_with = "local")]
    pub archive: Option<Url>,
    /// Only the versions in the store: fetch nothing, ask no archive.
    #[arg(long)]
    pub local: bool,
    /// The first date wanted: YYYY, YYYY-MM, YYYY-MM-DD, YYYY-MM-DD hh:mm or up to 14
    /// digits (UTC).
    #[arg(long, value_name = "DATE", value_parser = first_second)]
    pub from: Option<String>,
    /// The last date wanted (the whole of it: --to 2024 ends on 31 December), as --from.
    #[arg(long, value_name = "DATE", value_parser = last_second)]
    pub to: Option<String>,
    /// Milliseconds between two requests to the archive, which everyone shares.
    #[arg(long, value_name = "MS", default_value_t = 500)]
    pub archive_delay: u64,
    /// The most captures to fetch from the archive in one run, oldest first; the next
    /// run goes on from there (what was read is kept).
    #[arg(long, value_name = "N", default_value_t = history::DEFAULT_MAX_CAPTURES, value_parser = super::positive_count)]
    pub max_captures: usize,
}

fn first_second(text: &str) -> Result<String, String> {
    date_range(text).map(|(first, _)| first).map_err(|error| error.to_string())
}

fn last_second(text: &str) -> Result<String, String> {
    date_range(text).map(|(_, last)| last).map_err(|error| error.to_string())
}

/// `robotscope history`: a site's robots.txt versions and when each robot's access
/// changed.
#[derive(Debug, Clone, Args)]
pub struct HistoryArgs {
    /// The site: example.com, or a URL such as `https://example.com/`.
    #[arg(value_name = "SOURCE")]
    pub source: String,
    #[command(flatten)]
    pub robots: RobotSelection,
    #[command(flatten)]
    pub versions: VersionOptions,
    /// One JSON object per line: each version, then the flips it brought.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub url_options: UrlOptions,
    /// Paths or URLs whose verdicts to follow (default: /).
    #[arg(value_name = "PATH")]
    pub paths: Vec<String>,
    #[command(flatten)]
    pub source_options: SourceOptions,
}

/// `robotscope diff`: what changed between two versions.
#[derive(Debug, Clone, Args)]
pub struct DiffArgs {
    /// The site: example.com, or a URL such as `https://example.com/`.
    #[arg(value_name = "SOURCE")]
    pub source: String,
    /// The newer version: the last one at or before this date (default: the last).
    #[arg(long, value_name = "TIMESTAMP", value_parser = last_second)]
    pub at: Option<String>,
    /// The older version: the last one at or before this date (default: the one before
    /// --at).
    #[arg(long, value_name = "TIMESTAMP", value_parser = last_second)]
    pub against: Option<String>,
    #[command(flatten)]
    pub versions: VersionOptions,
    #[command(flatten)]
    pub source_options: SourceOptions,
}

/// Keeps a fetched robots.txt in the store (unless `--no-store`); a store that cannot
/// be used is a warning, never a reason to fail the command. Returns the site's last
/// fetch before this one.
#[allow(clippy::must_use_candidate, reason = "most commands keep and go on")]
pub fn keep_in_store(retrieved: &Retrieved, options: &SourceOptions) -> Option<Version> {
    let Retrieved::Site { url, outcome: Ok(fetched), .. } = retrieved else { return None };
    if options.no_store {
        return None;
    }
    let mut store = open_store(options).ok()?;
    match history::keep_fetch(&mut store, url, fetched) {
        Ok(previous) => previous,
        Err(error) => {
            note!("robotscope: warning: {}", sanitize_str(&error.to_string()));
            None
        }
    }
}

/// Opens the store `--store`/`--no-store` chose, saying on standard error if a damaged
/// database was moved aside.
fn open_store(options: &SourceOptions) -> Result<Store> {
    match options.store_choice().open() {
        Ok(opened) => {
            if let Some((aside, reason)) = &opened.moved_aside {
                note!(
                    "robotscope: warning: the history store at {} was damaged ({}); it was moved to {} and a new one started",
                    sanitize_str(opened.store.path()),
                    sanitize_str(reason),
                    sanitize_str(&aside.display().to_string())
                );
            }
            Ok(opened.store)
        }
        Err(error) => {
            note!("robotscope: warning: {}", sanitize_str(&error.to_string()));
            Err(error.into())
        }
    }
}

/// A site's versions, gathered: fetched now and from the archive unless `--local`.
struct Gathered {
    store: Store,
    site: String,
    versions: Vec<Version>,
    redirects_left_out: usize,
}

fn gather(spec: &str, options: &VersionOptions, source_options: &SourceOptions) -> Result<Gathered> {
    let source = Source::resolve(spec)?;
    let Source::Site { robots_url, .. } = &source else {
        bail!("'{spec}' is a file: a history is a site's (give a site such as example.com)");
    };
    if options.local && source_options.no_store {
        bail!("--local reads the store and --no-store keeps none: there is nothing to show");
    }
    let mut store = open_store(source_options)?;
    let site = history::site_key(robots_url);
    if !options.local {
        let runtime =
            tokio::runtime::Builder::new_current_thread().enable_all().build().wrap_err("starting the runtime")?;
        let limits = source_options.limits(None);
        let retrieved = runtime.block_on(fetch::retrieve(source.clone(), limits.clone()))?;
        report_fetch(&retrieved, &limits);
        if let Retrieved::Site { url, outcome: Ok(fetched), .. } = &retrieved
            && let Err(error) = history::keep_fetch(&mut store, url, fetched)
        {
            note!("robotscope: warning: {}", sanitize_str(&error.to_string()));
        }
        let archive = ArchiveOptions {
            base: options.archive.clone().unwrap_or_else(|| Url::parse(history::DEFAULT_ARCHIVE).expect("a URL")),
            from: options.from.clone(),
            to: options.to.clone(),
            pace: Duration::from_millis(options.archive_delay),
            max_captures: options.max_captures,
            limits,
        };
        let spinner = Spinner::new();
        let synced = runtime.block_on(history::sync(&mut store, robots_url, &archive, |event| spinner.show(event)));
        spinner.finish();
        match synced {
            Ok(synced) => {
                if synced.left > 0 {
                    note!(
                        "robotscope: {} left to fetch (--max-captures {}); run again to go on",
                        plural(synced.left, "capture"),
                        options.max_captures
                    );
                }
                for (capture, reason) in &synced.failed {
                    note!(
                        "robotscope: warning: the capture of {} was not read ({}); it is asked for again next time",
                        display_date(&capture.timestamp),
                        sanitize_str(reason)
                    );
                }
            }
            Err(error) => note!(
                "robotscope: warning: {}; showing the versions the store holds",
                sanitize_str(&format!("{error:#}"))
            ),
        }
    }
    let versions = store.versions(&site)?;
    let (versions, redirects_left_out) = timeline_versions(versions, options.from.as_deref(), options.to.as_deref());
    if versions.is_empty() {
        let dates = if options.from.is_some() || options.to.is_some() { " between those dates" } else { "" };
        let hint = if options.local { " (without --local, robotscope fetches it and asks the archive)" } else { "" };
        bail!("no version of {site}/robots.txt is known{dates}{hint}");
    }
    Ok(Gathered { store, site, versions, redirects_left_out })
}

/// A spinner with the captures read so far, on a terminal.
struct Spinner(Option<indicatif::ProgressBar>);

impl Spinner {
    fn new() -> Spinner {
        Spinner(io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new_spinner();
            bar.set_message("asking the archive");
            bar.enable_steady_tick(Duration::from_millis(120));
            bar
        }))
    }

    fn show(&self, event: Progress) {
        let Some(bar) = &self.0 else { return };
        match event {
            Progress::Listed(count) => {
                bar.set_length(count as u64);
                bar.set_message(format!("{} listed by the archive", plural(count, "capture")));
            }
            Progress::Capture => bar.inc(1),
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

/// `robotscope history`.
pub fn history(args: &HistoryArgs, db: &RobotsDb) -> Result<Outcome> {
    let queries = args.robots.queries_or_defaults(db)?;
    let subjects: Vec<Subject> = queries
        .into_iter()
        .map(|query| Subject { label: query.label, robot: query.robot, reading: query.reading })
        .collect();
    let given: Vec<String> = if args.paths.is_empty() { vec!["/".to_owned()] } else { args.paths.clone() };
    let mode = args.url_options.mode();
    let tested: Vec<String> = given.iter().map(|path| Request::new(path, mode).tested().to_owned()).collect();
    let gathered = gather(&args.source, &args.versions, &args.source_options)?;
    let mut out = BufWriter::new(io::stdout().lock());
    let result = write_history(&mut out, &gathered, &subjects, &given, &tested, args.json);
    finish_output(result.and_then(|()| out.flush()))?;
    Ok(Outcome::Clean)
}

fn write_history(
    out: &mut dyn Write,
    gathered: &Gathered,
    subjects: &[Subject],
    given: &[String],
    tested: &[String],
    as_json: bool,
) -> io::Result<()> {
    let versions = &gathered.versions;
    if !as_json {
        write_heading(out, gathered, subjects, given)?;
    }
    let mut previous: Option<(&Version, Snapshot)> = None;
    for version in versions {
        let body = history::body_of(&gathered.store, version).map_err(io::Error::other)?;
        let txt = RobotsTxt::parse(body);
        let snapshot = snapshot(&txt, version.availability, subjects, tested);
        let flips = previous.as_ref().map(|(_, before)| history::flips(before, &snapshot)).unwrap_or_default();
        if as_json {
            json::write_line(out, &VersionRecord::of(version))?;
            for flip in &flips {
                let previous = previous.as_ref().map_or("", |(version, _)| version.timestamp.as_str());
                json::write_line(out, &FlipRecord::of(flip, version, previous, subjects, given))?;
            }
        } else {
            write_version(out, version)?;
            if previous.is_none() {
                write_starting_answers(out, &snapshot, version, subjects, given)?;
            }
            for flip in &flips {
                writeln!(out, "    {}", describe_flip(flip, version, subjects, given))?;
            }
        }
        previous = Some((version, snapshot));
    }
    Ok(())
}

fn write_heading(out: &mut dyn Write, gathered: &Gathered, subjects: &[Subject], given: &[String]) -> io::Result<()> {
    let versions = &gathered.versions;
    let count = |provenance| versions.iter().filter(|v| v.provenance == provenance).count();
    let (first, last) = (versions.first().map(Version::date), versions.last().map(Version::date));
    writeln!(
        out,
        "{}/robots.txt: {} from {} to {} ({} fetched, {} archived)",
        sanitize_str(&gathered.site),
        plural(versions.len(), "version"),
        first.unwrap_or_default(),
        last.unwrap_or_default(),
        count(history::Provenance::Local),
        count(history::Provenance::Archive)
    )?;
    if gathered.redirects_left_out > 0 {
        writeln!(
            out,
            "{} left out: the archive does not say where they led",
            plural(gathered.redirects_left_out, "captured redirect")
        )?;
    }
    let robots: Vec<String> =
        subjects.iter().map(|s| format!("{} ({})", sanitize_str(&s.label), s.reading.name())).collect();
    let paths: Vec<String> = given.iter().map(|path| sanitize_str(path).into_owned()).collect();
    writeln!(
        out,
        "robots: {}; {}: {}\n",
        robots.join(", "),
        if paths.len() == 1 { "path" } else { "paths" },
        paths.join(" ")
    )
}

fn write_version(out: &mut dyn Write, version: &Version) -> io::Result<()> {
    let status = version.status.map_or_else(|| "-".to_owned(), |status| status.to_string());
    let size =
        if version.availability == Availability::Available { display_size(version.bytes) } else { String::new() };
    let seen = if version.seen > 1 {
        let how = match version.provenance {
            history::Provenance::Local => "fetched",
            history::Provenance::Archive => "captured",
        };
        format!("  ({how} {} times until {})", version.seen, display_date(&version.last_seen))
    } else {
        String::new()
    };
    writeln!(
        out,
        "{}  {:<7}  {status:>3}  {size:>8}  {}{seen}",
        version.date(),
        version.provenance.name(),
        sanitize_str(&version.url)
    )
}

fn write_starting_answers(
    out: &mut dyn Write,
    snapshot: &Snapshot,
    version: &Version,
    subjects: &[Subject],
    given: &[String],
) -> io::Result<()> {
    for (robot, subject) in subjects.iter().enumerate() {
        for (path, shown) in given.iter().enumerate() {
            let answer = snapshot.answer(robot, path);
            let verdict = if answer.allowed { "allowed" } else { "disallowed" };
            let why = why(answer.line, answer.rule.as_deref(), version.availability, subject.reading);
            writeln!(out, "    {} {}: {verdict} ({why})", sanitize_str(&subject.label), sanitize_str(shown))?;
        }
    }
    Ok(())
}

/// A flip in words: `GPTBot lost /: line 7, Disallow: /`, `GPTBot /: train-ai allowed →
/// disallowed (line 9)`.
fn describe_flip(flip: &Flip, version: &Version, subjects: &[Subject], given: &[String]) -> String {
    let subject = &subjects[flip.robot];
    let (robot, path) = (sanitize_str(&subject.label), sanitize_str(&given[flip.path]));
    if let (Change::Usage(category), Some((before, after, line))) = (flip.change, flip.preferences()) {
        let line = line.map(|line| format!(" (line {line})")).unwrap_or_default();
        return format!("{robot} {path}: {category} {before} → {after}{line}");
    }
    let verb = if flip.after.allowed { "gained" } else { "lost" };
    let why = why(flip.after.line, flip.after.rule.as_deref(), version.availability, subject.reading);
    format!("{robot} {verb} {path}: {why}")
}

/// Why an answer is what it is: its line, the status that decided, or no rule.
fn why(line: Option<usize>, rule: Option<&str>, availability: Availability, reading: Reading) -> String {
    match (line, rule) {
        (Some(line), Some(rule)) => format!("line {line}, {}", sanitize_str(rule)),
        _ if availability.access(reading) != crate::policy::Access::Rules => availability.reason(reading),
        _ => "no rule matches".to_owned(),
    }
}

/// `history --json`: one per version.
#[derive(Debug, Serialize)]
struct VersionRecord<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    source: &'static str,
    timestamp: &'a str,
    status: Option<u16>,
    digest: &'a str,
    bytes: u64,
    url: &'a str,
    last_seen: &'a str,
    seen: u32,
}

impl<'a> VersionRecord<'a> {
    fn of(version: &'a Version) -> Self {
        VersionRecord {
            kind: "version",
            source: version.provenance.name(),
            timestamp: &version.timestamp,
            status: version.status,
            digest: &version.digest,
            bytes: version.bytes,
            url: &version.url,
            last_seen: &version.last_seen,
            seen: version.seen,
        }
    }
}

/// `history --json`: one per flip: a crawl flip (`flip`) or a usage flip (`usage-flip`).
#[derive(Debug, Serialize)]
struct FlipRecord<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    timestamp: &'a str,
    agent: &'a str,
    path: &'a str,
    allowed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    category: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    preference: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    previous_preference: Option<&'static str>,
    line: Option<usize>,
    rule: Option<&'a str>,
    previous_timestamp: &'a str,
}

impl<'a> FlipRecord<'a> {
    fn of(
        flip: &'a Flip,
        version: &'a Version,
        previous: &'a str,
        subjects: &'a [Subject],
        given: &'a [String],
    ) -> Self {
        let usage = flip.preferences();
        let (kind, category) = match flip.change {
            Change::Crawl => ("flip", None),
            Change::Usage(category) => ("usage-flip", Some(category.name())),
        };
        FlipRecord {
            kind,
            timestamp: &version.timestamp,
            agent: &subjects[flip.robot].label,
            path: &given[flip.path],
            allowed: flip.after.allowed,
            category,
            preference: usage.map(|(_, after, _)| after.name()),
            previous_preference: usage.map(|(before, _, _)| before.name()),
            line: usage.map_or(flip.after.line, |(_, _, line)| line),
            rule: if usage.is_some() { None } else { flip.after.rule.as_deref() },
            previous_timestamp: previous,
        }
    }
}

/// `robotscope diff`.
pub fn diff(args: &DiffArgs) -> Result<Outcome> {
    let gathered = gather(&args.source, &args.versions, &args.source_options)?;
    let versions = &gathered.versions;
    let at_or_before = |limit: &str| versions.iter().rposition(|version| version.timestamp.as_str() <= limit);
    let first = || versions.first().map(Version::date).unwrap_or_default();
    let at = match &args.at {
        Some(limit) => at_or_before(limit)
            .ok_or_else(|| eyre!("no version at or before {}: the first is of {}", display_date(limit), first()))?,
        None => versions.len() - 1,
    };
    let against = match &args.against {
        Some(limit) => at_or_before(limit)
            .ok_or_else(|| eyre!("no version at or before {}: the first is of {}", display_date(limit), first()))?,
        None if at == 0 => {
            bail!("only one version of {}/robots.txt is known: nothing to compare it with", gathered.site)
        }
        None => at - 1,
    };
    let (old, new) = (&versions[against], &versions[at]);
    let label = |version: &Version| {
        let status = version.status.map(|status| format!(", {status}")).unwrap_or_default();
        format!("{}/robots.txt {} ({}{status})", gathered.site, version.date(), version.provenance.name())
    };
    let (old_body, new_body) = (history::body_of(&gathered.store, old)?, history::body_of(&gathered.store, new)?);
    let mut text = String::new();
    for version in [old, new] {
        if version.availability != Availability::Available {
            let _ = writeln!(text, "# {}: {}", version.date(), version.availability.reason(Reading::Rfc9309));
        }
    }
    let diff = crate::policy::fix::unified_diff_between(&old_body, &new_body, &label(old), &label(new));
    let same = diff.is_empty() && old.availability == new.availability;
    text.push_str(&diff);
    let mut out = io::stdout().lock();
    finish_output(out.write_all(sanitize_lines(text.as_bytes()).as_bytes()).and_then(|()| out.flush()))?;
    if same {
        note!("robotscope: the versions of {} and {} are the same", old.date(), new.date());
    }
    Ok(if same { Outcome::Clean } else { Outcome::Findings })
}
