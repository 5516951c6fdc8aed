//! `robotscope history` and `robotscope diff`: a site's robots.txt versions (robotscope's
//! own fetches, kept in the store, and the web archive's captures), the flips of the
//! robots' verdicts and usage preferences between them, and the diff of any two. Also
//! the one place the other commands keep what they fetch ([`keep_in_store`]).

use std::fmt::Write as _;
use std::io::{self, BufWriter, Write};
use std::time::Duration;

use clap::Args;
use color_eyre::eyre::{Result, WrapErr, bail, eyre};
use serde::Serialize;
use url::Url;

use super::{Outcome, RobotSelection, SourceOptions, UrlOptions, finish_output, json, report_fetch};
use crate::fetch::{self, Limits, Retrieved, Source, size_label};
use crate::history::{
    self, ArchiveOptions, Change, Flip, Progress, Snapshot, Store, Subject, Synced, Timeline, Version, date_range,
    display_date, snapshot_as, timeline_versions,
};
use crate::policy::escape::{sanitize_lines, sanitize_str};
use crate::policy::request::{Request, UrlMode};
use crate::policy::{Availability, Reading};
use crate::robots_db::RobotsDb;
use crate::words::plural;

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
    /// The first date wanted: YYYY, YYYY-MM, YYYY-MM-DD, YYYY-MM-DD hh:mm or 4 to 14
    /// digits of YYYYMMDDhhmmss (UTC).
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
    #[command(flatten)]
    pub deadline: super::RunDeadline,
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
    /// The site (example.com, or its URL).
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
    /// A site (example.com, or its URL): two of its versions. Or OLD and NEW, two
    /// robots.txt (files, `-` for standard input, sites): their diff and every robot
    /// whose verdict changes, exit 1 when one does.
    #[arg(value_name = "SOURCE | OLD NEW", num_args = 1..=2, required = true)]
    pub sources: Vec<String>,
    /// With OLD and NEW: the verdicts that change as JSON lines (one per robot and
    /// reading), without the diff.
    #[arg(long)]
    pub json: bool,
    /// The newer version: the last one at or before this date (default: the last);
    /// YYYY, YYYY-MM, YYYY-MM-DD, YYYY-MM-DD hh:mm or 4 to 14 digits of YYYYMMDDhhmmss.
    #[arg(long, value_name = "TIMESTAMP", value_parser = last_second)]
    pub at: Option<String>,
    /// The older version: the last one at or before this date, as --at (default: the
    /// one before --at).
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
    let kept = history::keep_in_store(&options.store_choice(), url, fetched, &options.limits(None));
    for warning in &kept.warnings {
        note!("robotscope: warning: {}", sanitize_str(warning));
    }
    kept.previous
}

/// Opens the store `--store`/`--no-store` chose, saying on standard error if a damaged
/// database was moved aside.
pub(super) fn open_store(options: &SourceOptions) -> Result<Store> {
    match options.store_choice().open() {
        Ok(opened) => {
            if let Some(note) = opened.damage_note() {
                note!("robotscope: warning: {}", sanitize_str(&note));
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
pub(super) struct Gathered {
    pub(super) store: Store,
    pub(super) site: String,
    pub(super) timeline: Timeline,
    /// Captures listed but not read (failed, or left for the next run).
    unread: usize,
    /// Captures of other hosts the archive listed, left out.
    other_hosts: usize,
}

pub(super) fn gather(spec: &str, options: &VersionOptions, source_options: &SourceOptions) -> Result<Gathered> {
    let source = Source::resolve(spec)?;
    let robots_url = match &source {
        Source::Site { robots_url, .. } => robots_url.clone(),
        Source::Stdin => bail!("standard input has no history: give a site such as example.com"),
        Source::File(_) => bail!("'{spec}' is a file: a history is a site's (give a site such as example.com)"),
    };
    if let (Some(from), Some(to)) = (&options.from, &options.to)
        && from > to
    {
        bail!("--from {} is after --to {}", display_date(from), display_date(to));
    }
    if options.local && source_options.no_store {
        bail!("--local reads the store and --no-store keeps none: there is nothing to show");
    }
    // A store that cannot be used (another program's file, a newer schema) still lets
    // the archive and today's fetch be shown: in memory, with the warning said.
    let mut store = match open_store(source_options) {
        // A store that can only be read shows what it holds (`--local`); a run that
        // fetches keeps what it finds in memory instead.
        Ok(store) if store.is_read_only() && !options.local => {
            note!(
                "robotscope: warning: the history store at {} can only be read: this run keeps what it finds in \
                 memory (--local shows what the store holds)",
                sanitize_str(store.path())
            );
            Store::in_memory()?
        }
        Ok(store) => store,
        Err(_) if !options.local => Store::in_memory()?,
        Err(error) => return Err(error),
    };
    let site = history::site_key(&robots_url);
    let (mut unread, mut other_hosts) = (0, 0);
    if !options.local {
        let runtime =
            tokio::runtime::Builder::new_current_thread().enable_all().build().wrap_err("starting the runtime")?;
        // --max-time is the whole run's: today's fetch is in it, the archive gets the rest.
        let started = std::time::Instant::now();
        let mut limits = source_options.limits(None);
        limits.timeout = limits.timeout.min(options.deadline.max_time);
        let retrieved = runtime.block_on(fetch::retrieve(source.clone(), limits.clone()))?;
        report_fetch(&retrieved, &limits);
        if let Retrieved::Site { url, outcome: Ok(fetched), .. } = &retrieved
            && let Err(error) = history::keep_fetch(&mut store, url, fetched, &limits)
        {
            note!("robotscope: warning: {}", sanitize_str(&error.to_string()));
        }
        let archive = ArchiveOptions {
            base: options.archive.clone().unwrap_or_else(|| Url::parse(history::DEFAULT_ARCHIVE).expect("a URL")),
            from: options.from.clone(),
            to: options.to.clone(),
            collapse: history::Collapse::Digest,
            pace: history::Pacer::new(Duration::from_millis(options.archive_delay)),
            max_captures: options.max_captures,
            limits,
            max_time: options.deadline.max_time.saturating_sub(started.elapsed()),
        };
        let spinner = Spinner::new();
        let synced = runtime.block_on(history::sync(&mut store, &robots_url, &archive, |event| spinner.show(event)));
        spinner.finish();
        match synced {
            Ok(synced) => {
                report_sync(&synced, options.max_captures, options.deadline.max_time);
                unread = synced.left + synced.failed.len() + synced.given_up;
                other_hosts = synced.other_hosts;
            }
            Err(error) => note!(
                "robotscope: warning: {}; showing the versions the store holds",
                sanitize_str(&format!("{error:#}"))
            ),
        }
    }
    let timeline = timeline_versions(store.versions(&site)?, options.from.as_deref(), options.to.as_deref());
    if timeline.versions.is_empty() && timeline.before.is_none() {
        let dates = if options.from.is_some() || options.to.is_some() { " between those dates" } else { "" };
        let hint = if options.local { " (without --local, robotscope fetches it and asks the archive)" } else { "" };
        bail!("no version of {site}/robots.txt is known{dates}{hint}");
    }
    Ok(Gathered { store, site, timeline, unread, other_hosts })
}

/// Says on standard error what a sync left undone.
fn report_sync(synced: &Synced, max_captures: usize, max_time: Duration) {
    if synced.left > 0 {
        let why = if synced.out_of_time {
            format!("--max-time {} ran out", crate::fetch::duration_words(max_time))
        } else {
            format!("at most --max-captures {max_captures} a run, and those after a capture not read wait")
        };
        note!("robotscope: note: {} left for the next run ({why}); run again to go on", plural(synced.left, "capture"));
    }
    for (capture, reason) in &synced.failed {
        note!(
            "robotscope: warning: the capture of {} was not read ({}); it is asked for again next time",
            display_date(&capture.timestamp),
            sanitize_str(reason)
        );
    }
    if synced.throttled {
        note!("robotscope: warning: the archive kept answering that it is busy (429 or 5xx); run again later");
    }
    if synced.given_up > 0 {
        note!(
            "robotscope: warning: {} the archive failed to serve {} times, no longer asked for",
            plural(synced.given_up, "capture"),
            history::MAX_CAPTURE_TRIES
        );
    }
    if synced.out_of_time {
        note!(
            "robotscope: warning: stopped at --max-time {}: what was read is kept and shown",
            crate::fetch::duration_words(max_time)
        );
    }
    if synced.impossible > 0 {
        note!(
            "robotscope: warning: the archive listed {} with a timestamp no capture can have (month 13, \
             99999999999999, ...): not versions, not kept",
            plural(synced.impossible, "row")
        );
    }
}

/// A spinner with the captures read so far, on a terminal.
struct Spinner(Option<indicatif::ProgressBar>);

impl Spinner {
    fn new() -> Spinner {
        let bar = super::stderr_spinner();
        if let Some(bar) = &bar {
            bar.set_message("asking the archive");
        }
        Spinner(bar)
    }

    fn show(&self, event: Progress) {
        let Some(bar) = &self.0 else { return };
        match event {
            Progress::Listed(count) => bar.set_length(count as u64),
            Progress::Capture => bar.inc(1),
            Progress::Skipped(count) => bar.inc(count as u64),
        }
        let total = bar.length().unwrap_or(0);
        bar.set_message(format!(
            "{} of {} read",
            bar.position(),
            plural(usize::try_from(total).unwrap_or(0), "capture")
        ));
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
    for path in &given {
        if let Ok(url) = Url::parse(path)
            && url.has_host()
            && history::site_key(&url) != gathered.site
        {
            note!(
                "robotscope: warning: {} is on another site than {}; its path is checked against this robots.txt",
                sanitize_str(path),
                sanitize_str(&gathered.site)
            );
        }
    }
    let mut out = BufWriter::new(io::stdout().lock());
    let limits = args.source_options.limits(None);
    let asked = Asked { subjects: &subjects, given: &given, tested: &tested, mode, limits: &limits };
    let result = write_history(&mut out, &gathered, &asked, args.json);
    finish_output(result.and_then(|()| out.flush()))?;
    Ok(Outcome::Clean)
}

/// What `history` writes is about these robots and paths.
struct Asked<'a> {
    subjects: &'a [Subject],
    given: &'a [String],
    tested: &'a [String],
    /// How the paths were read.
    mode: UrlMode,
    /// How versions are read (the RFC 9309 limit).
    limits: &'a Limits,
}

fn write_history(out: &mut dyn Write, gathered: &Gathered, asked: &Asked<'_>, as_json: bool) -> io::Result<()> {
    if !as_json {
        write_heading(out, gathered, asked)?;
    }
    let snapshot_of = |version: &Version| -> io::Result<Snapshot> {
        let body = history::body_of(&gathered.store, version).map_err(io::Error::other)?;
        let txt = asked.limits.parse(body);
        Ok(snapshot_as(&txt, version.availability, asked.subjects, asked.tested, asked.mode))
    };
    let mut previous: Option<(&Version, Snapshot)> = None;
    if let Some(before) = &gathered.timeline.before {
        let snapshot = snapshot_of(before)?;
        if as_json {
            json::write_line(out, &VersionRecord::of(before))?;
            write_answers_json(out, &snapshot, before, asked)?;
        } else {
            writeln!(out, "in force before the range: the version of {} ({})", before.date(), provenance_word(before))?;
            write_starting_answers(out, &snapshot, before, asked)?;
        }
        previous = Some((before, snapshot));
    }
    for version in &gathered.timeline.versions {
        let snapshot = snapshot_of(version)?;
        let flips = previous.as_ref().map(|(_, before)| history::flips(before, &snapshot)).unwrap_or_default();
        if as_json {
            json::write_line(out, &VersionRecord::of(version))?;
            match &previous {
                None => write_answers_json(out, &snapshot, version, asked)?,
                Some((before, _)) => {
                    for flip in &flips {
                        write_flip_json(out, flip, version, &before.timestamp, asked)?;
                    }
                }
            }
        } else {
            write_version(out, version)?;
            if previous.is_none() {
                write_starting_answers(out, &snapshot, version, asked)?;
            } else {
                write_flips(out, &flips, version, asked)?;
            }
        }
        previous = Some((version, snapshot));
    }
    Ok(())
}

fn write_heading(out: &mut dyn Write, gathered: &Gathered, asked: &Asked<'_>) -> io::Result<()> {
    let versions = &gathered.timeline.versions;
    let count = |provenance| versions.iter().filter(|v| v.provenance == provenance).count();
    let span = match (versions.first(), versions.last()) {
        (Some(first), Some(last)) if versions.len() > 1 => format!(" from {} to {}", first.date(), last.date()),
        (Some(only), _) => format!(", of {}", only.date()),
        _ => " in the range".to_owned(),
    };
    writeln!(
        out,
        "{}/robots.txt: {}{span} ({} fetched, {} archived)",
        sanitize_str(&gathered.site),
        plural(versions.len(), "version"),
        count(history::Provenance::Local),
        count(history::Provenance::Archive)
    )?;
    let redirects = gathered.timeline.redirects_left_out;
    if redirects > 0 {
        let it = if redirects == 1 { "it" } else { "they" };
        writeln!(out, "{} left out: the archive does not say where {it} led", plural(redirects, "captured redirect"))?;
    }
    if gathered.other_hosts > 0 {
        writeln!(
            out,
            "{} of another host, scheme or port left out: RFC 9309 makes each one's robots.txt its own",
            plural(gathered.other_hosts, "capture")
        )?;
    }
    if gathered.unread > 0 {
        writeln!(
            out,
            "{} not read yet (see above): a flip shown after a gap may have happened earlier",
            plural(gathered.unread, "capture")
        )?;
    }
    let robots: Vec<String> =
        asked.subjects.iter().map(|s| format!("{} ({})", sanitize_str(&s.label), s.reading.name())).collect();
    let paths: Vec<String> = asked.given.iter().map(|path| sanitize_str(path).into_owned()).collect();
    let noun = if paths.len() == 1 { "path" } else { "paths" };
    writeln!(out, "robots: {}; {noun}: {}\n", robots.join(", "), paths.join(" "))
}

/// `fetched` or `archive`: where a version comes from, in the text output.
fn provenance_word(version: &Version) -> &'static str {
    match version.provenance {
        history::Provenance::Local => "fetched",
        history::Provenance::Archive => "archive",
    }
}

fn write_version(out: &mut dyn Write, version: &Version) -> io::Result<()> {
    let status = version.status.map_or_else(|| "-".to_owned(), |status| status.to_string());
    let size = if version.availability == Availability::Available {
        size_label(usize::try_from(version.bytes).unwrap_or(usize::MAX))
    } else {
        String::new()
    };
    let seen = if version.seen > 1 {
        format!("  (seen {} times, last on {})", version.seen, display_date(&version.last_seen))
    } else {
        String::new()
    };
    writeln!(
        out,
        "{}  {:<7}  {status:>3}  {size:>8}  {}{seen}",
        version.date(),
        provenance_word(version),
        sanitize_str(&version.url)
    )
}

fn write_starting_answers(
    out: &mut dyn Write,
    snapshot: &Snapshot,
    version: &Version,
    asked: &Asked<'_>,
) -> io::Result<()> {
    if version.availability != Availability::Available {
        writeln!(out, "    {}:", version.availability.reason(Reading::Rfc9309))?;
    }
    for (robot, subject) in asked.subjects.iter().enumerate() {
        for (path, shown) in asked.given.iter().enumerate() {
            let answer = snapshot.answer(robot, path);
            let verdict = if answer.allowed { "allowed" } else { "disallowed" };
            let rules_decide = version.availability.access(subject.reading) == crate::policy::Access::Rules;
            let why = sanitize_str(&answer.reason(rules_decide)).into_owned();
            writeln!(out, "    {} {}: {verdict} ({why})", sanitize_str(&subject.label), sanitize_str(shown))?;
        }
    }
    Ok(())
}

/// The flips under a version: when its status decided, why once, then each flip.
fn write_flips(out: &mut dyn Write, flips: &[Flip], version: &Version, asked: &Asked<'_>) -> io::Result<()> {
    if flips.is_empty() {
        return writeln!(out, "    no change for these robots and paths");
    }
    let status_decides = version.availability != Availability::Available;
    if status_decides {
        writeln!(out, "    {}:", version.availability.reason(Reading::Rfc9309))?;
    }
    for flip in flips {
        let subject = &asked.subjects[flip.robot];
        let (robot, path) = (sanitize_str(&subject.label), sanitize_str(&asked.given[flip.path]));
        if let (Change::Usage(category), Some((before, after, line))) = (flip.change, flip.preferences()) {
            let line = line.map(|line| format!(" (line {line})")).unwrap_or_default();
            writeln!(out, "    {robot} {path}: {category} {before} → {after}{line}")?;
            continue;
        }
        let verb = if flip.after.allowed { "gained" } else { "lost" };
        if status_decides {
            // Said once, above.
            writeln!(out, "    {robot} {verb} {path}")?;
        } else {
            writeln!(out, "    {robot} {verb} {path}: {}", sanitize_str(&flip.after.reason(true)))?;
        }
    }
    Ok(())
}

/// `history --json`: the answers of the first version shown.
fn write_answers_json(
    out: &mut dyn Write,
    snapshot: &Snapshot,
    version: &Version,
    asked: &Asked<'_>,
) -> io::Result<()> {
    for (robot, subject) in asked.subjects.iter().enumerate() {
        for (path, shown) in asked.given.iter().enumerate() {
            let answer = snapshot.answer(robot, path);
            json::write_line(
                out,
                &AnswerRecord {
                    kind: "answer",
                    timestamp: &version.timestamp,
                    agent: &subject.label,
                    path: shown,
                    allowed: answer.allowed,
                    line: answer.line,
                    rule: answer.rule.as_deref(),
                },
            )?;
        }
    }
    Ok(())
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

/// `history --json`: each robot's answer for each path in the first version shown.
#[derive(Debug, Serialize)]
struct AnswerRecord<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    timestamp: &'a str,
    agent: &'a str,
    path: &'a str,
    allowed: bool,
    line: Option<usize>,
    rule: Option<&'a str>,
}

/// `history --json`: a crawl flip.
#[derive(Debug, Serialize)]
struct FlipRecord<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    timestamp: &'a str,
    agent: &'a str,
    path: &'a str,
    allowed: bool,
    line: Option<usize>,
    rule: Option<&'a str>,
    previous_timestamp: &'a str,
}

/// `history --json`: a usage flip (the path allowed before and after).
#[derive(Debug, Serialize)]
struct UsageFlipRecord<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    timestamp: &'a str,
    agent: &'a str,
    path: &'a str,
    allowed: bool,
    category: &'static str,
    preference: &'static str,
    previous_preference: &'static str,
    line: Option<usize>,
    previous_timestamp: &'a str,
}

/// Writes one flip as JSON: a `flip` or a `usage-flip`.
fn write_flip_json(
    out: &mut dyn Write,
    flip: &Flip,
    version: &Version,
    previous: &str,
    asked: &Asked<'_>,
) -> io::Result<()> {
    let (agent, path) = (asked.subjects[flip.robot].label.as_str(), asked.given[flip.path].as_str());
    if let (Change::Usage(category), Some((before, after, line))) = (flip.change, flip.preferences()) {
        return json::write_line(
            out,
            &UsageFlipRecord {
                kind: "usage-flip",
                timestamp: &version.timestamp,
                agent,
                path,
                allowed: flip.after.allowed,
                category: category.name(),
                preference: after.name(),
                previous_preference: before.name(),
                line,
                previous_timestamp: previous,
            },
        );
    }
    json::write_line(
        out,
        &FlipRecord {
            kind: "flip",
            timestamp: &version.timestamp,
            agent,
            path,
            allowed: flip.after.allowed,
            line: flip.after.line,
            rule: flip.after.rule.as_deref(),
            previous_timestamp: previous,
        },
    )
}

/// `robotscope diff`.
pub fn diff(args: &DiffArgs, db: &RobotsDb) -> Result<Outcome> {
    let source = match args.sources.as_slice() {
        [old, new] if args.at.is_none() && args.against.is_none() => {
            return super::before_after::diff_two(old, new, args.json, &args.source_options, db);
        }
        [_, _] => bail!("--at and --against choose versions of one site: give one SOURCE with them, not OLD and NEW"),
        [_] if args.json => bail!("--json is for OLD and NEW; for a site's versions, robotscope history --json"),
        [source, ..] => source,
        [] => bail!("give a site, or OLD and NEW"),
    };
    let gathered = gather(source, &args.versions, &args.source_options)?;
    let versions: Vec<&Version> = gathered.timeline.before.iter().chain(&gathered.timeline.versions).collect();
    let at_or_before = |limit: &str| versions.iter().rposition(|version| version.timestamp.as_str() <= limit);
    let first = versions.first().map(|version| version.date()).unwrap_or_default();
    let find = |limit: &str| {
        at_or_before(limit)
            .ok_or_else(|| eyre!("no version at or before {}: the first is of {first}", display_date(limit)))
    };
    let at = match &args.at {
        Some(limit) => find(limit)?,
        None => versions.len() - 1,
    };
    let against = match &args.against {
        Some(limit) => find(limit)?,
        None if at == 0 && versions.len() == 1 => {
            bail!("only one version of {}/robots.txt is known: nothing to compare it with", gathered.site)
        }
        None if at == 0 => bail!("nothing comes before the version of {}: give --against", versions[0].date()),
        None => at - 1,
    };
    let (old, new) = (versions[against], versions[at]);
    let label = |version: &Version| {
        let status = version.status.map(|status| format!(", {status}")).unwrap_or_default();
        format!("{}/robots.txt {} ({}{status})", gathered.site, version.date(), provenance_word(version))
    };
    // A version whose status decides has no rules: its body (an error page) is not a
    // robots.txt, and is compared as empty.
    let body = |version: &Version| -> Result<Vec<u8>> {
        if version.availability == Availability::Available {
            Ok(history::body_of(&gathered.store, version)?)
        } else {
            Ok(Vec::new())
        }
    };
    let (old_body, new_body) = (body(old)?, body(new)?);
    let same = old_body == new_body && old.availability == new.availability;
    let mut text = String::new();
    if !same {
        for version in [old, new] {
            if version.availability != Availability::Available {
                let _ = writeln!(text, "# {}: {}", version.date(), version.availability.reason(Reading::Rfc9309));
            }
        }
        let diff = crate::policy::diff::unified_diff_between(&old_body, &new_body, &label(old), &label(new));
        if diff.is_empty() {
            // The same bytes, another status: the headers say what changed.
            let _ = writeln!(text, "--- {}\n+++ {}", label(old), label(new));
        }
        text.push_str(&diff);
    }
    let mut out = io::stdout().lock();
    finish_output(out.write_all(sanitize_lines(text.as_bytes()).as_bytes()).and_then(|()| out.flush()))?;
    if same {
        note!("robotscope: the versions of {} and {} are the same", old.date(), new.date());
    }
    Ok(if same { Outcome::Clean } else { Outcome::Findings })
}
