//! `robotscope survey`: many sites' robots.txt in one table, one row per capture and
//! robot. The captures come from sites fetched now (a bounded number at a time, the
//! store's fresh ones taken instead), from a directory of files, or from WARC files;
//! `survey` judges them (every core) and this module writes the rows as they come, and
//! the summary per robot at the end.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::io::{self, BufRead, BufWriter, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::Args;
use color_eyre::eyre::{Result, WrapErr, bail};
use serde::Serialize;

use super::csv::{self, Field::Text, Field::Value};
use super::history::open_store;
use super::{Outcome, RobotQuery, RobotSelection, RunDeadline, SourceOptions, json, positive_count};
use crate::fetch::{self, Limits, Source};
use crate::history::{self, Store};
use crate::policy::escape::sanitize_str;
use crate::policy::{Availability, Preference, Reading, Robot};
use crate::robots_db::RobotsDb;
use crate::survey::warc::{WarcCapture, is_robots_txt, read_captures};
use crate::survey::{CONSENT_IN_CRISIS, Capture, Category, Redirects, Row, SurveyRobot, judge_each, site_of};
use crate::words::plural;
use memory::{LastCaptures, Periods};

mod memory;
mod monthly;
mod plot;

/// `robotscope survey`: how many sites let each robot in, from sites, files or WARCs.
#[derive(Debug, Clone, Args)]
#[command(after_help = "Categories, decided on every path as Google's matcher decides them: full (no path \
    may be fetched), partial, none (every path), missing (a 4xx: no robots.txt, everything allowed), unreachable \
    (a 5xx, a 429, no answer: RFC 9309 then disallows everything, counted apart), redirect (a redirect whose \
    target the input does not hold).")]
pub struct SurveyArgs {
    /// Sites to fetch (`example.com`, `https://example.com`), or `-` to read them from
    /// standard input, one a line.
    #[arg(value_name = "SITE")]
    pub sites: Vec<String>,
    /// A file of sites, one a line; in a CSV (Tranco's `rank,domain`), the last field.
    /// `#` comments and blank lines are skipped.
    #[arg(long = "sites", value_name = "FILE")]
    pub sites_file: Option<PathBuf>,
    /// A directory of robots.txt files, each named by its site's host.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// WARC files (plain, or gzipped per record or whole): their `response` records.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub warc: Vec<PathBuf>,
    /// The sites month by month from the web archive (`2015..2024`,
    /// `2023-01..2024-06`): one row per site, robot and month, the latest capture at
    /// or before the month carried forward. Captures are kept in the store: a rerun
    /// fetches only what it lacks.
    #[arg(long, value_name = "FROM..TO", value_parser = monthly::parse_months, conflicts_with_all = ["dir", "warc"])]
    pub monthly: Option<monthly::Months>,
    /// The Wayback-compatible archive `--monthly` asks (default: web.archive.org).
    #[arg(long, value_name = "BASE", requires = "monthly")]
    pub archive: Option<url::Url>,
    /// Requests a second to the archive, at most: it is shared by everyone.
    #[arg(long, value_name = "R", default_value_t = 2.0, value_parser = positive_rate, requires = "monthly")]
    pub rate: f64,
    #[command(flatten)]
    pub robots: RobotSelection,
    /// Sites fetched at once.
    #[arg(long, value_name = "N", default_value_t = 16, value_parser = positive_count)]
    pub jobs: usize,
    /// Sites the store fetched within these hours are not fetched again: their last
    /// answer is used (a rerun resumes where an interrupted one stopped). 0 fetches
    /// every site.
    #[arg(long, value_name = "HOURS", default_value_t = 24)]
    pub fresh: u64,
    /// A CSV of `site,weight` (tokens, traffic): the summary's shares are weighted.
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
    /// One JSON object per capture and robot.
    #[arg(long, conflicts_with_all = ["csv", "dpi"])]
    pub json: bool,
    /// One CSV row per capture and robot.
    #[arg(long, conflicts_with = "dpi")]
    pub csv: bool,
    /// The Data Provenance Initiative's schema (Consent in Crisis): domain, agent or
    /// company, period, status (Full / Some / No Restrictions, No Robots.txt).
    #[arg(long)]
    pub dpi: bool,
    /// An SVG of each robot's categories month by month (each site's last capture in
    /// a month), stacked: the picture surveys publish.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    #[command(flatten)]
    pub deadline: RunDeadline,
    #[command(flatten)]
    pub source_options: SourceOptions,
}

/// The captures judged at once, and their bytes at most: enough to keep every core
/// busy, few enough that memory stays flat however large the input.
const BATCH_CAPTURES: usize = 512;
const BATCH_BYTES: usize = 16 << 20;
/// The URLs whose verdicts are remembered for the redirects that lead to them (on
/// disk: a few hundred bytes each).
const REMEMBERED_URLS: usize = 100_000_000;

/// `robotscope survey`.
pub fn survey(args: &SurveyArgs, db: &RobotsDb) -> Result<Outcome> {
    if args.sites.is_empty() && args.sites_file.is_none() && args.dir.is_none() && args.warc.is_empty() {
        bail!(
            "nothing to survey: give sites (as arguments, in --sites FILE, or - for standard input), --dir DIR or --warc FILE..."
        );
    }
    if let Some(plot) = &args.plot {
        plot::check_path(plot)?;
    }
    let robots = survey_robots(args, db)?;
    let weights = args.weights.as_deref().map(read_weights).transpose()?;
    let deadline = Instant::now() + args.deadline.max_time;
    let stdout = io::stdout();
    let mut writer = Writer::new(args, &robots, BufWriter::new(stdout.lock()), weights)?;
    let run = (|| -> Result<bool> {
        writer.start()?;
        let limits = args.source_options.limits(args.robots.user_agent(db));
        // The monthly survey's bar says its progress: no spinner beside it.
        let progress = if args.monthly.is_some() { Progress::hidden() } else { Progress::new() };
        let mut input = Input::new(&robots, limits.rfc9309_limit(), &mut writer, progress)?;
        for path in &args.warc {
            input.warc(path, limits.robots_txt_bytes(), deadline)?;
        }
        if let Some(dir) = &args.dir {
            input.dir(dir, &limits, deadline)?;
        }
        let (sites, sites_left) = sites_asked(args, deadline)?;
        input.left |= sites_left;
        match &args.monthly {
            Some(months) => {
                let archive =
                    args.archive.clone().unwrap_or_else(|| url::Url::parse(history::DEFAULT_ARCHIVE).expect("a URL"));
                let options = monthly::MonthlyOptions {
                    months,
                    archive,
                    rate: args.rate,
                    source_options: &args.source_options,
                    limits: &limits,
                };
                input.left |= !monthly::survey_months(&mut input, &sites, &options, deadline)?;
            }
            None if !sites.is_empty() => input.sites(&sites, args, &limits, deadline)?,
            None => {}
        }
        let left = input.finish()?;
        // An empty WARC, a directory of no robots.txt: no table of 0% to read as a
        // finding.
        if writer.rows == 0 && !left {
            bail!("nothing surveyed: the input held no robots.txt capture");
        }
        writer.finish()?;
        Ok(left)
    })();
    match run {
        // A closed pipe (`| head`) ends the survey quietly, as grep does.
        Err(error) if error.downcast_ref::<io::Error>().is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe) => {
            Ok(Outcome::Clean)
        }
        Err(error) => Err(error),
        // Part of the input waits for a rerun (standard error said what).
        Ok(true) => Ok(Outcome::Findings),
        Ok(false) => Ok(Outcome::Clean),
    }
}

/// The robots asked about: `-a`, `-r` and `-p`, or the *Consent in Crisis* agents with
/// Googlebot, bingbot and a robot no group names, each taken as Google's library takes a
/// token.
fn survey_robots(args: &SurveyArgs, db: &RobotsDb) -> Result<Vec<SurveyRobot>> {
    let selection = &args.robots;
    let queries = if selection.agents.is_empty() && selection.robots.is_empty() && selection.purposes.is_empty() {
        CONSENT_IN_CRISIS
            .iter()
            .map(|&(token, _)| RobotQuery {
                label: token.to_owned(),
                robot: Robot::from_agent(token),
                reading: selection.semantics.unwrap_or(Reading::Rfc9309),
            })
            .collect()
    } else {
        super::robot_queries(selection, db)?
    };
    Ok(queries
        .into_iter()
        .map(|query| SurveyRobot { label: query.label, robot: query.robot, reading: query.reading })
        .collect())
}

/// `--rate`: a positive, finite number of requests a second.
fn positive_rate(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(rate) if rate.is_finite() && (0.001..=1000.0).contains(&rate) => Ok(rate),
        _ => Err(format!("'{text}' is no rate: give requests a second, from 0.001 to 1000 (0.5, 2)")),
    }
}

/// The sites named as arguments, in `--sites FILE` and on standard input (`-`), each
/// once, in the order given.
fn sites_asked(args: &SurveyArgs, deadline: Instant) -> Result<(Vec<String>, bool)> {
    let (mut lines, mut left): (Vec<String>, bool) = (Vec::new(), false);
    for site in &args.sites {
        if site == "-" {
            let (sites, cut) = stdin_sites(args.source_options.max_file_bytes, deadline);
            lines.extend(sites);
            left |= cut;
        } else {
            lines.push(site.clone());
        }
    }
    if let Some(path) = &args.sites_file {
        let (bytes, _) = fetch::read_file_capped(path, args.source_options.max_file_bytes, Duration::from_secs(10))
            .wrap_err_with(|| format!("reading {}", sanitize_str(&path.display().to_string())))?;
        read_site_lines(bytes.as_slice(), &mut lines)?;
    }
    Ok((lines, left))
}

/// The sites on standard input, read on a thread of its own so that `--max-time` and
/// `--max-file-bytes` bound it: a pipe that never ends (`yes example.com |`) is read to
/// either, and what came by then is surveyed; and whether it was cut so (the rest is
/// left for a rerun).
fn stdin_sites(max_bytes: usize, deadline: Instant) -> (Vec<String>, bool) {
    let (sender, receiver) = std::sync::mpsc::sync_channel::<Vec<u8>>(1024);
    std::thread::spawn(move || {
        let stdin = io::stdin();
        for line in stdin.lock().split(b'\n') {
            let Ok(line) = line else { break };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    let (mut sites, mut bytes, mut cut) = (Vec::new(), 0usize, false);
    loop {
        match receiver.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(line) => {
                bytes += line.len() + 1;
                if bytes > max_bytes {
                    note!(
                        "robotscope: warning: standard input read to --max-file-bytes ({max_bytes}); the rest is not surveyed"
                    );
                    cut = true;
                    break;
                }
                let _ = read_site_lines(&line[..], &mut sites);
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                note!("robotscope: warning: the run's time (--max-time) ran out reading sites from standard input");
                cut = true;
                break;
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    (sites, cut)
}

/// Sites one a line: a CSV's last field (Tranco's `rank,domain`), `#` comments and blank
/// lines skipped, and a header (`domain`) too.
fn read_site_lines(input: impl BufRead, into: &mut Vec<String>) -> io::Result<()> {
    for line in input.split(b'\n') {
        let line = String::from_utf8_lossy(&line?).into_owned();
        let site = line.rsplit(',').next().unwrap_or_default().trim().trim_matches('"');
        if site.is_empty()
            || site.starts_with('#')
            || site.eq_ignore_ascii_case("domain")
            || site.eq_ignore_ascii_case("site")
        {
            continue;
        }
        into.push(site.to_owned());
    }
    Ok(())
}

/// `--weights`: `site,weight` a line. A site is named as the rows name it, however the
/// file writes it (`Example.com`, `https://example.com/`, `example.com/robots.txt`). A
/// line whose weight is no number (a header) is skipped; a weight that is a number but
/// no weight (negative, infinite, over 1e15) stops the run, since dropping it would
/// change every share unseen.
fn read_weights(path: &Path) -> Result<HashMap<String, f64>> {
    let label = sanitize_str(&path.display().to_string()).into_owned();
    let (bytes, _) = fetch::read_file_capped(path, 256 << 20, Duration::from_secs(10))
        .wrap_err_with(|| format!("reading {label}"))?;
    let mut weights = HashMap::new();
    // Lines after the first (a header) that give no weight, and sites given twice.
    let (mut unread, mut first_unread, mut twice) = (0usize, None, 0usize);
    for (number, line) in String::from_utf8_lossy(&bytes).lines().enumerate() {
        let parsed = line.rsplit_once(',').and_then(|(site, weight)| Some((site, weight.trim().parse::<f64>().ok()?)));
        let Some((site, weight)) = parsed else {
            if number > 0 && !line.trim().is_empty() {
                unread += 1;
                first_unread.get_or_insert(number + 1);
            }
            continue;
        };
        // At most 1e15 (token counts), so that a sum of them stays finite.
        if !(weight.is_finite() && (0.0..=1e15).contains(&weight)) {
            bail!("{label}, line {} ({}): a weight is a number from 0 to 1e15", number + 1, sanitize_str(line));
        }
        let site = site.trim().trim_matches('"');
        let url = if site.contains("://") { site.to_owned() } else { format!("https://{site}") };
        // `example.com.` is the same host, written fully qualified.
        let site = site_of(&url);
        let site = site.strip_suffix('.').map_or(site.clone(), str::to_owned);
        twice += usize::from(weights.insert(site, weight).is_some());
    }
    if weights.is_empty() {
        bail!("{label}: no `site,weight` line (a site, a comma, a number)");
    }
    if let Some(line) = first_unread {
        note!(
            "robotscope: warning: {label}: {} with no `site,weight` skipped, the first line {line}",
            plural(unread, "line")
        );
    }
    if twice > 0 {
        note!("robotscope: warning: {label}: {} given twice: the last weight counts", plural(twice, "site"));
    }
    if weights.values().all(|weight| *weight <= 0.0) {
        note!("robotscope: warning: {label}: every weight is 0: no share can be weighted");
    }
    Ok(weights)
}

/// Where the captures come in, are judged in batches and handed to the writer.
struct Input<'a, W: Write> {
    robots: &'a [SurveyRobot],
    /// The bytes RFC 9309 reads of each file (`--whole-file`: all).
    limit: Option<usize>,
    writer: &'a mut Writer<W>,
    batch: Vec<Capture>,
    /// For each capture in `batch`, whether it is a redirect's possible target only (a
    /// capture of another path than `/robots.txt`), with no rows of its own.
    targets_only: Vec<bool>,
    /// The bytes of the bodies waiting in `batch`.
    batch_bytes: usize,
    redirects: Redirects<memory::OnDisk>,
    progress: Progress,
    /// True when part of the input was not surveyed (the run's time ran out, a file
    /// could not be read to its end, captures the archive did not serve).
    left: bool,
    /// Captures whose robots.txt could not be had, and the first of them with why.
    unreachable: usize,
    first_unreachable: Option<String>,
}

impl<'a, W: Write> Input<'a, W> {
    fn new(
        robots: &'a [SurveyRobot],
        limit: Option<usize>,
        writer: &'a mut Writer<W>,
        progress: Progress,
    ) -> Result<Self> {
        let memory = memory::OnDisk::new()?;
        Ok(Input {
            robots,
            limit,
            writer,
            batch: Vec::with_capacity(BATCH_CAPTURES),
            targets_only: Vec::with_capacity(BATCH_CAPTURES),
            batch_bytes: 0,
            redirects: Redirects::keeping_in(memory, REMEMBERED_URLS),
            progress,
            left: false,
            unreachable: 0,
            first_unreachable: None,
        })
    }

    /// A capture of a site's robots.txt, whose rows are written.
    fn push(&mut self, capture: Capture) -> Result<()> {
        self.push_as(capture, false)
    }

    /// A capture of another path: judged, and kept as a redirect's possible target only.
    fn push_target(&mut self, capture: Capture) -> Result<()> {
        self.push_as(capture, true)
    }

    fn push_as(&mut self, capture: Capture, target_only: bool) -> Result<()> {
        self.batch_bytes += capture.body.len();
        self.batch.push(capture);
        self.targets_only.push(target_only);
        if self.batch.len() >= BATCH_CAPTURES || self.batch_bytes >= BATCH_BYTES {
            self.flush()?;
        }
        Ok(())
    }

    /// Judges the captures waiting, on every core, and writes their rows.
    fn flush(&mut self) -> Result<()> {
        let captures = std::mem::take(&mut self.batch);
        let targets_only = std::mem::take(&mut self.targets_only);
        self.batch_bytes = 0;
        let judged = captures.iter().zip(judge_each(&captures, self.robots, self.limit));
        for ((capture, rows), target_only) in judged.zip(targets_only) {
            if target_only {
                self.redirects.note_target(capture, &rows)?;
                continue;
            }
            if rows.iter().all(|row| row.category == Category::Unreachable) && !rows.is_empty() {
                self.unreachable += 1;
                self.first_unreachable.get_or_insert_with(|| {
                    let why = capture.error.clone().or_else(|| capture.status.map(|status| format!("status {status}")));
                    format!("{}: {}", capture.url, why.unwrap_or_else(|| "no answer".to_owned()))
                });
            }
            if let Some(rows) = self.redirects.note(capture, rows)? {
                self.writer.rows(&rows)?;
            }
        }
        self.progress.add(captures.len() as u64);
        Ok(())
    }

    /// The rows of the redirects, once every capture is in.
    /// Returns whether part of the input was left for a rerun.
    fn finish(mut self) -> Result<bool> {
        self.flush()?;
        let Input { mut redirects, writer, progress, left, unreachable, first_unreachable, .. } = self;
        if left {
            redirects.input_cut();
        }
        redirects.resolve(|rows| writer.rows(&rows))?;
        progress.done();
        if let Some(first) = first_unreachable {
            // A summary of shares hides why: a bare host is fetched over https, and a
            // site that answers plain http only is unreachable so.
            note!(
                "robotscope: warning: {} could not be had (unreachable), the first: {}",
                plural(unreachable, "robots.txt"),
                sanitize_str(&first)
            );
        }
        Ok(left)
    }

    /// A WARC file's captures, within the run's deadline.
    fn warc(&mut self, path: &Path, max_body: usize, deadline: Instant) -> Result<()> {
        let label = sanitize_str(&path.display().to_string()).into_owned();
        // A file that cannot be read costs itself, not the run: the others are read.
        let file = match std::fs::File::open(path) {
            Ok(file) if file.metadata().is_ok_and(|metadata| metadata.is_file()) => file,
            Ok(_) => {
                self.left = true;
                note!("robotscope: warning: {label}: not a regular file; not surveyed");
                return Ok(());
            }
            Err(error) => {
                self.left = true;
                note!("robotscope: warning: cannot open {label}: {error}; not surveyed");
                return Ok(());
            }
        };
        // The file is read and decoded on a thread of its own while the captures read
        // before are judged on every core: reading does not wait for judging.
        let (sender, receiver) = std::sync::mpsc::sync_channel::<(WarcCapture, bool)>(BATCH_CAPTURES);
        let (read, others, named, damage, failed) = std::thread::scope(|scope| {
            let reader = scope.spawn(move || {
                // Records that name a capture: none, and the file is likely no WARC.
                let (mut others, mut named) = (0usize, 0usize);
                // Damage that names no capture (bytes that are no record, a broken gzip
                // member with no header in it): said, not a row of no site that a
                // count of rows would take for an unreachable robots.txt.
                let mut damage: (usize, Option<String>) = (0, None);
                let read = read_captures(file, max_body, Some(deadline), |warc| {
                    named += usize::from(!warc.url.is_empty());
                    if warc.url.is_empty() {
                        damage.0 += 1;
                        damage.1 = damage.1.take().or(warc.error);
                        return ControlFlow::Continue(());
                    }
                    // A general crawl's pages are no robots.txt: they give no rows, and
                    // are kept only as redirects' possible targets (a robots.txt may
                    // redirect anywhere).
                    let robots_txt = is_robots_txt(&warc.url);
                    others += usize::from(!robots_txt);
                    // The judging side stopped (its output failed): so does the reading.
                    if sender.send((warc, robots_txt)).is_err() {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                });
                (read, others, named, damage)
            });
            let mut failed = None;
            for (warc, robots_txt) in receiver {
                let capture = Capture::from(warc);
                let pushed = if robots_txt { self.push(capture) } else { self.push_target(capture) };
                if let Err(error) = pushed {
                    failed = Some(error);
                    break;
                }
            }
            let (read, others, named, damage) = reader.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            (read, others, named, damage, failed)
        });
        if let (count, Some(first)) = damage {
            note!(
                "robotscope: warning: {label}: {} naming no capture skipped (the first: {})",
                plural(count, "damaged part"),
                sanitize_str(&first)
            );
        }
        if others > 0 {
            note!(
                "robotscope: warning: {label}: {} of pages that are no /robots.txt: no rows (kept as redirects' targets)",
                plural(others, "capture")
            );
        }
        if let Some(error) = failed {
            return Err(error);
        }
        match read {
            Ok(()) if named == 0 => {
                note!("robotscope: warning: {label}: no WARC record in it (is it a WARC file?)");
                Ok(())
            }
            Ok(()) => Ok(()),
            Err(crate::survey::warc::WarcError::OutOfTime) => {
                self.left = true;
                note!(
                    "robotscope: warning: {label}: the run's time (--max-time) ran out; the rest of it is not surveyed"
                );
                Ok(())
            }
            Err(error) => {
                self.left = true;
                note!(
                    "robotscope: warning: {label}: {}; the rest of it is not surveyed",
                    sanitize_str(&error.to_string())
                );
                Ok(())
            }
        }
    }

    /// `--dir`: each regular file is a site's robots.txt, named by its host.
    fn dir(&mut self, dir: &Path, limits: &Limits, deadline: Instant) -> Result<()> {
        let label = sanitize_str(&dir.display().to_string()).into_owned();
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .wrap_err_with(|| format!("reading the directory {label}"))?
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
            .collect();
        entries.sort();
        let (mut skipped, mut skipped_count) = (None, 0);
        for path in entries {
            if Instant::now() >= deadline {
                self.left = true;
                note!("robotscope: warning: the run's time (--max-time) ran out in {label}");
                break;
            }
            // A FIFO or a device would block the read: only regular files are sites'.
            let regular = std::fs::symlink_metadata(&path).is_ok_and(|metadata| metadata.is_file());
            let Some(host) = path.file_name().and_then(|name| name.to_str()).filter(|_| regular).and_then(host_named)
            else {
                skipped.get_or_insert_with(|| path.file_name().unwrap_or_default().to_string_lossy().into_owned());
                skipped_count += 1;
                continue;
            };
            let mut capture = Capture {
                url: format!("https://{host}/robots.txt"),
                time: modified_time(&path),
                status: Some(200),
                availability: Availability::Available,
                ..Capture::default()
            };
            match fetch::read_file_capped(&path, limits.robots_txt_bytes(), Duration::from_secs(10)) {
                Ok((bytes, truncated)) => (capture.body, capture.truncated) = (bytes, truncated),
                Err(error) => {
                    (capture.status, capture.error) = (None, Some(format!("cannot read {}: {error}", path.display())));
                }
            }
            self.push(capture)?;
        }
        if let Some(first) = skipped {
            note!(
                "robotscope: warning: {label}: {} skipped, no regular file or not named by a host (the first: {})",
                if skipped_count == 1 { "1 entry".to_owned() } else { format!("{skipped_count} entries") },
                sanitize_str(&first)
            );
        }
        Ok(())
    }

    /// Sites fetched now, `--jobs` at a time, within the deadline; those the store
    /// fetched within `--fresh` hours are taken from it; every fetch is kept in it.
    fn sites(&mut self, sites: &[String], args: &SurveyArgs, limits: &Limits, deadline: Instant) -> Result<()> {
        let mut store = open_store(&args.source_options).ok();
        let (mut to_fetch, mut seen, mut not_sites) = (Vec::new(), HashSet::new(), Vec::new());
        for site in sites {
            let Ok(Source::Site { robots_url: url, .. }) = Source::parse(site, |_| false) else {
                not_sites.push(site.as_str());
                continue;
            };
            // Each robots.txt once, however its site was written (`HTTP://h`, `h/x`).
            if !seen.insert(url.to_string()) {
                continue;
            }
            match store.as_ref().and_then(|store| fresh_capture(store, &url, args.fresh)) {
                Some(capture) => self.push(capture)?,
                None => to_fetch.push(url),
            }
        }
        if let Some(first) = not_sites.first() {
            note!(
                "robotscope: warning: {} not surveyed: not a site ({}{})",
                plural(not_sites.len(), "line"),
                sanitize_str(first),
                if not_sites.len() > 1 { ", ..." } else { "" }
            );
        }
        let jobs = jobs_within_open_files(args.jobs);
        let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
        let left = runtime.block_on(async {
            let mut running = tokio::task::JoinSet::new();
            let mut waiting = to_fetch.into_iter();
            let tokio_deadline = tokio::time::Instant::now() + deadline.saturating_duration_since(Instant::now());
            loop {
                while running.len() < jobs {
                    let Some(url) = waiting.next() else { break };
                    let limits = limits.clone();
                    running.spawn(async move {
                        let outcome = fetch::fetch(&url, &limits).await;
                        (url, outcome)
                    });
                }
                let Ok(next) = tokio::time::timeout_at(tokio_deadline, running.join_next()).await else {
                    running.abort_all();
                    return Ok::<usize, color_eyre::Report>(running.len() + waiting.len());
                };
                let Some(joined) = next else { return Ok(0) };
                let Ok((url, outcome)) = joined else { continue };
                if let (Some(store), Ok(fetched)) = (store.as_mut(), &outcome) {
                    // A fetch the user's own flags cut is not the site's: not kept.
                    let _ = history::keep_fetch(store, &url, fetched, limits);
                }
                self.push(fetched_capture(&url, outcome))?;
            }
        })?;
        if left > 0 {
            self.left = true;
            let resume = if store.is_some() {
                "run again to go on (the sites fetched are in the store)"
            } else {
                "without --no-store, a run again would go on from the store"
            };
            note!(
                "robotscope: warning: the run's time (--max-time) ran out: {} not surveyed; {resume}",
                plural(left, "site")
            );
        }

        Ok(())
    }
}

/// The host a `--dir` file is named by, `example.com` or `example.com.txt` (a port
/// too: `example.com:8080`); none for a hidden file, or a name no URL could have as
/// its host, or one with no dot (`notes`), which is no site's.
fn host_named(name: &str) -> Option<&str> {
    let host = name.strip_suffix(".txt").unwrap_or(name);
    let url = url::Url::parse(&format!("https://{host}/robots.txt")).ok()?;
    let named = url.path() == "/robots.txt" && url.username().is_empty() && url.query().is_none();
    let site = url.host().is_some_and(|parsed| match parsed {
        url::Host::Domain(domain) => domain.contains('.') || domain == "localhost",
        url::Host::Ipv4(_) | url::Host::Ipv6(_) => true,
    });
    (named && site && !host.starts_with('.')).then_some(host)
}

/// `jobs`, or fewer when the process may not open files enough for them (a fetch holds
/// a few sockets; `ulimit -n 256` is macOS's default): a fetch that fails for want of a
/// file descriptor would be counted against its site.
fn jobs_within_open_files(jobs: usize) -> usize {
    let limits = std::fs::read_to_string("/proc/self/limits").unwrap_or_default();
    let soft = limits
        .lines()
        .find(|line| line.starts_with("Max open files"))
        .and_then(|line| line.split_whitespace().nth(3))
        .and_then(|soft| soft.parse::<usize>().ok());
    let Some(soft) = soft else { return jobs };
    let room = (soft.saturating_sub(64) / 4).max(1);
    if jobs > room {
        note!("robotscope: warning: --jobs {jobs} lowered to {room}: the process may open {soft} files (ulimit -n)");
    }
    jobs.min(room)
}

/// A fetch's capture: the answer, or why there was none.
fn fetched_capture(url: &url::Url, outcome: Result<fetch::Fetched, fetch::FetchError>) -> Capture {
    let time = jiff::Timestamp::now().strftime("%Y-%m-%dT%H:%M:%SZ").to_string();
    match outcome {
        Ok(fetched) => Capture {
            url: url.to_string(),
            time,
            status: Some(fetched.status.code()),
            availability: fetched.availability(),
            truncated: fetched.truncated,
            body: fetched.body,
            ..Capture::default()
        },
        Err(error) => Capture {
            url: url.to_string(),
            time,
            availability: error.availability(),
            error: Some(error.to_string()),
            ..Capture::default()
        },
    }
}

/// The site's last fetch from the store, when it was seen within `hours`.
fn fresh_capture(store: &Store, url: &url::Url, hours: u64) -> Option<Capture> {
    if hours == 0 {
        return None;
    }
    let version = store.last_local(&history::site_key(url)).ok()??;
    // The store keys a site by its host, as history does: an http answer another command
    // fetched is no answer to this https fetch. An outage is asked again.
    let answered = url::Url::parse(&version.url).ok()?;
    if answered.scheme() != url.scheme() || version.availability.is_outage() {
        return None;
    }
    let civil = jiff::civil::DateTime::strptime("%Y%m%d%H%M%S", &version.last_seen).ok()?;
    let seen = jiff::tz::Offset::UTC.to_timestamp(civil).ok()?;
    let age = jiff::Timestamp::now().duration_since(seen);
    if age.as_secs() < 0 || age.as_secs() > i64::try_from(hours.saturating_mul(3600)).unwrap_or(i64::MAX) {
        return None;
    }
    let body = history::body_of(store, &version).ok()?;
    Some(Capture {
        url: url.to_string(),
        time: seen.strftime("%Y-%m-%dT%H:%M:%SZ").to_string(),
        status: version.status,
        availability: version.availability,
        body,
        truncated: version.truncated,
        ..Capture::default()
    })
}

/// A file's modification time, RFC 3339 in UTC (empty when the system cannot say).
fn modified_time(path: &Path) -> String {
    std::fs::metadata(path)
        .and_then(|metadata| metadata.modified())
        .ok()
        .and_then(|time| jiff::Timestamp::try_from(time).ok())
        .map(|time| time.strftime("%Y-%m-%dT%H:%M:%SZ").to_string())
        .unwrap_or_default()
}

/// Captures per second on standard error, when it is a terminal.
struct Progress {
    bar: Option<indicatif::ProgressBar>,
}

impl Progress {
    fn hidden() -> Progress {
        Progress { bar: None }
    }

    fn new() -> Progress {
        use std::io::IsTerminal;
        let bar = io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new_spinner();
            bar.set_style(
                indicatif::ProgressStyle::with_template("{spinner} {pos} captures judged ({per_sec}) {elapsed}")
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
            );
            bar.enable_steady_tick(Duration::from_millis(120));
            bar
        });
        Progress { bar }
    }

    fn add(&self, count: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(count);
        }
    }

    fn done(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// A row of `--json` (DESIGN.md §4).
#[derive(Debug, Serialize)]
struct RowRecord<'a> {
    url: &'a str,
    site: &'a str,
    agent: &'a str,
    category: &'static str,
    group: &'static str,
    line: Option<usize>,
    status: Option<u16>,
    bytes: usize,
    time: &'a str,
    train_ai: Option<&'static str>,
    html: bool,
    error: Option<&'a str>,
    /// With `--monthly` only.
    #[serde(skip_serializing_if = "Option::is_none")]
    month: Option<&'a str>,
}

impl<'a> RowRecord<'a> {
    fn of(row: &'a Row) -> Self {
        RowRecord {
            url: &row.url,
            site: &row.site,
            agent: &row.agent,
            category: row.category.name(),
            group: row.group.name(),
            line: row.line,
            status: row.status,
            bytes: row.bytes,
            time: &row.time,
            train_ai: row.train_ai.map(Preference::name),
            html: row.html,
            error: row.error.as_deref(),
            month: row.month.as_deref(),
        }
    }
}

/// How the rows are written: as they come (JSON, CSV), or each site's last capture at
/// the end (the summary, `--dpi`): a site's http capture that redirects to its https
/// one is one site, not two.
struct Writer<W: Write> {
    out: W,
    format: Format,
    /// The robots, in the order every capture's rows give them.
    agents: Vec<String>,
    weights: Option<HashMap<String, f64>>,
    /// Each site's last capture, for the summary, and in each month, for `--dpi` and
    /// `--plot` (none for JSON and CSV alone, which are written as they come).
    last: Option<LastCaptures>,
    /// `--plot`'s file.
    plot: Option<PathBuf>,
    /// With `--monthly`, CSV rows end with the month.
    monthly: bool,
    rows: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Text,
    Json,
    Csv,
    Dpi,
}

impl<W: Write> Writer<W> {
    fn new(
        args: &SurveyArgs,
        robots: &[SurveyRobot],
        out: W,
        weights: Option<HashMap<String, f64>>,
    ) -> io::Result<Self> {
        let format = match (args.json, args.csv, args.dpi) {
            (true, _, _) => Format::Json,
            (_, true, _) => Format::Csv,
            (_, _, true) => Format::Dpi,
            _ => Format::Text,
        };
        let kept_to_the_end = matches!(format, Format::Text | Format::Dpi) || args.plot.is_some();
        Ok(Writer {
            out,
            format,
            agents: robots.iter().map(|robot| robot.label.clone()).collect(),
            weights,
            last: if kept_to_the_end { Some(LastCaptures::new()?) } else { None },
            plot: args.plot.clone(),
            monthly: args.monthly.is_some(),
            rows: 0,
        })
    }

    fn start(&mut self) -> io::Result<()> {
        match self.format {
            Format::Csv => {
                let month = if self.monthly { ",month" } else { "" };
                writeln!(self.out, "url,site,agent,category,group,line,status,bytes,time,train_ai,html,error{month}")
            }
            Format::Dpi => writeln!(self.out, "domain,agent,period,status"),
            Format::Text | Format::Json => Ok(()),
        }
    }

    /// Rows, one capture's (one per robot, in order) after another's.
    fn rows(&mut self, rows: &[Row]) -> io::Result<()> {
        self.rows += rows.len() as u64;
        match self.format {
            Format::Json => {
                for row in rows {
                    json::write_line(&mut self.out, &RowRecord::of(row))?;
                }
            }
            Format::Csv => {
                for row in rows {
                    self.csv_row(row)?;
                }
            }
            Format::Text | Format::Dpi => {}
        }
        if self.last.is_some() {
            for capture in rows.chunks(self.agents.len().max(1)) {
                self.remember(capture)?;
            }
        }
        Ok(())
    }

    fn csv_row(&mut self, row: &Row) -> io::Result<()> {
        let line = row.line.map(|n| n.to_string()).unwrap_or_default();
        let status = row.status.map(|n| n.to_string()).unwrap_or_default();
        let bytes = row.bytes.to_string();
        let fields = [
            Text(&row.url),
            Text(&row.site),
            Text(&row.agent),
            Value(row.category.name()),
            Value(row.group.name()),
            Value(&line),
            Value(&status),
            Value(&bytes),
            Text(&row.time),
            Value(row.train_ai.map_or("", Preference::name)),
            Value(if row.html { "true" } else { "false" }),
            Text(row.error.as_deref().unwrap_or_default()),
        ];
        let month = row.month.as_deref().filter(|_| self.monthly).map(Text);
        csv::write_record(&mut self.out, fields.into_iter().chain(month))
    }

    /// Keeps a capture's categories as its site's, unless a later capture of the site
    /// is kept already. A capture with no site (a record that could not be read) is no
    /// site's.
    fn remember(&mut self, capture: &[Row]) -> io::Result<()> {
        let Some(first) = capture.first().filter(|row| !row.site.is_empty()) else { return Ok(()) };
        let Some(last) = &mut self.last else { return Ok(()) };
        let categories: Vec<Category> = capture.iter().map(|row| row.category).collect();
        if self.format == Format::Dpi || self.plot.is_some() {
            // A monthly series' capture stands for its month; another, for the month
            // it was made in.
            let month = first.month.as_deref().or_else(|| first.time.get(..7)).unwrap_or_default();
            last.keep(&first.site, month, &first.time, &categories)?;
        }
        if self.format == Format::Text {
            last.keep(&first.site, "", &first.time, &categories)?;
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<()> {
        match self.format {
            Format::Text => self.summary()?,
            Format::Dpi => self.dpi()?,
            Format::Json | Format::Csv => {}
        }
        self.out.flush()?;
        // Drawn last: a chart that cannot be written costs the chart, not the rows.
        if let (Some(path), Some(last)) = (&self.plot, &mut self.last) {
            let mut months = plot::Months::default();
            let weights = self.weights.as_ref();
            last.each(Periods::Months, |site, month, categories| {
                let weight = weights.map_or(1.0, |weights| weights.get(site).copied().unwrap_or(0.0));
                months.add(month, categories, weight);
                Ok(())
            })?;
            plot::draw(path, &self.agents, months)?;
        }
        Ok(())
    }

    /// `--dpi`: each site and month, each agent's label, then each company's, its
    /// strictest agent's.
    fn dpi(&mut self) -> io::Result<()> {
        // A company's status is its strictest agent's among those asked: said when some
        // of its agents were not, since the published figures asked them all.
        for company in CONSENT_IN_CRISIS.iter().filter_map(|(_, company)| *company).collect::<BTreeSet<_>>() {
            let (asked, unasked): (Vec<&str>, Vec<&str>) = CONSENT_IN_CRISIS
                .iter()
                .filter(|(_, of)| *of == Some(company))
                .map(|(token, _)| *token)
                .partition(|token| self.agents.iter().any(|agent| agent == token));
            if !asked.is_empty() && !unasked.is_empty() {
                note!(
                    "robotscope: warning: --dpi: {company}'s status is the strictest of {} alone ({} not asked: add -a {})",
                    asked.join(", "),
                    unasked.join(", "),
                    unasked.join(" -a ")
                );
            }
        }
        let Some(last) = &mut self.last else { return Ok(()) };
        let (out, agents) = (&mut self.out, &self.agents);
        let mut unlabelled = 0usize;
        last.each(Periods::Months, |site, period, categories| {
            let mut companies: Vec<(&str, Category)> = Vec::new();
            for (agent, &category) in agents.iter().zip(categories) {
                match dpi_label(category) {
                    Some(label) => csv::write_record(&mut *out, [Text(site), Text(agent), Text(period), Value(label)])?,
                    None => unlabelled += 1,
                }
                let company = CONSENT_IN_CRISIS.iter().find(|(token, _)| token == agent).and_then(|(_, c)| *c);
                match (company, companies.iter_mut().find(|(name, _)| Some(*name) == company)) {
                    (Some(_), Some((_, strictest))) => *strictest = (*strictest).min(category),
                    (Some(name), None) => companies.push((name, category)),
                    (None, _) => {}
                }
            }
            for (company, category) in companies {
                if let Some(label) = dpi_label(category) {
                    csv::write_record(&mut *out, [Text(site), Text(company), Text(period), Value(label)])?;
                }
            }
            Ok(())
        })?;
        if unlabelled > 0 {
            // Their schema has no word for these: said, so that no share is read off a
            // denominator that silently shrank.
            note!(
                "robotscope: warning: {} left out of --dpi (unreachable or a redirect nowhere: their schema has no word for it)",
                plural(unlabelled, "site-month-agent row")
            );
        }
        Ok(())
    }

    /// The table per robot: the share of sites in each category, each site as its last
    /// capture says, weighted when asked.
    fn summary(&mut self) -> io::Result<()> {
        let mut tallies = vec![[0.0f64; 6]; self.agents.len()];
        let (mut sites, mut unweighted) = (0usize, 0usize);
        if let Some(last) = &mut self.last {
            let weights = self.weights.as_ref();
            last.each(Periods::Whole, |site, _, categories| {
                sites += 1;
                let weight = match weights {
                    None => 1.0,
                    Some(weights) => weights.get(site).copied().unwrap_or_else(|| {
                        unweighted += 1;
                        0.0
                    }),
                };
                for (tally, category) in tallies.iter_mut().zip(categories) {
                    tally[category.index()] += weight;
                }
                Ok(())
            })?;
        }
        if unweighted > 0 {
            note!("robotscope: warning: {} not in --weights counted with weight 0", plural(unweighted, "site"));
        }
        let weighted = if self.weights.is_some() { ", weighted" } else { "" };
        writeln!(
            self.out,
            "{} judged for {} ({}{weighted})\n",
            plural(sites, "site"),
            plural(self.agents.len(), "robot"),
            plural(usize::try_from(self.rows).unwrap_or(usize::MAX), "row")
        )?;
        let width = self.agents.iter().map(|agent| sanitize_str(agent).chars().count()).max().unwrap_or(5).max(5) + 2;
        write!(self.out, "{:<width$}", "robot")?;
        for category in Category::ALL {
            write!(self.out, " {:>11}", category.name())?;
        }
        writeln!(self.out)?;
        for (agent, counts) in self.agents.iter().zip(&tallies) {
            let total: f64 = counts.iter().sum();
            write!(self.out, "{:<width$}", sanitize_str(agent))?;
            for count in counts {
                let share = if total > 0.0 { 100.0 * count / total } else { 0.0 };
                write!(self.out, " {share:>10.1}%")?;
            }
            writeln!(self.out)?;
        }
        Ok(())
    }
}

/// The Data Provenance Initiative's label of a category; `None` for those their schema
/// has no word for (a server that failed, a redirect nowhere), which are left out.
fn dpi_label(category: Category) -> Option<&'static str> {
    match category {
        Category::Full => Some("Full Restrictions"),
        Category::Partial => Some("Some Restrictions"),
        Category::None => Some("No Restrictions"),
        Category::Missing => Some("No Robots.txt"),
        Category::Unreachable | Category::Redirect => None,
    }
}
