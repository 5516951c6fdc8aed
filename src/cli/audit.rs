//! `robotscope audit`: access logs replayed against the robots.txt in force when each
//! request came. The logs are read a line at a time (gzip and standard input too), each
//! line capped in bytes; the versions come from `--robots FILE` or from the site's
//! history (the store, and the archive unless `--local`).

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::path::PathBuf;
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use clap::Args;
use color_eyre::eyre::{Result, WrapErr, bail};
use jiff::{SignedDuration, Timestamp};
use serde::Serialize;

use super::history::{VersionOptions, gather};
use super::{Outcome, RobotSelection, SourceOptions, finish_output, json, robot_queries};
use crate::audit::identity::{Identity, Verifier, host_is_under};
use crate::audit::logs::{CustomFormat, LineError, LogFormat, LogRequest};
use crate::audit::rdns::{Answer, ReverseDns};
use crate::audit::replay::{InForce, Judge, Judged, Judgement, Timeline, Verdict, is_robots_txt};
use crate::audit::{Claimed, robot_of};
use crate::policy::escape::sanitize_str;
use crate::policy::usage::{Category, Preference};
use crate::policy::{Availability, Reading, Robot};
use crate::robots_db::{Purpose, RobotsDb};
use crate::words::plural;

/// The longest log line read; the rest of a longer one is skipped, and the line counted
/// unreadable.
const MAX_LINE_BYTES: usize = 64 * 1024;
/// The lines read to find a file's format.
const DETECT_LINES: usize = 50;
/// The lines a worker parses at once, and the bytes (lines near the 64 KiB cap fill a
/// batch sooner, so that memory stays flat).
const BATCH_LINES: usize = 4096;
const BATCH_BYTES: usize = 4 << 20;
/// The bytes of a User-Agent read to find its robot, and remembered with it.
const REMEMBERED_AGENT_BYTES: usize = 512;
/// The workers that parse lines at most.
const MAX_WORKERS: usize = 8;
/// The User-Agent headers whose robot is remembered (a hostile log can make every one
/// different).
const REMEMBERED_AGENTS: usize = 10_000;
/// The robots judged at most; the requests of further ones are left out, and counted.
const MAX_ROBOTS: usize = 1_000;
/// The unreadable lines quoted at the end.
const QUOTED_BAD_LINES: usize = 3;
/// How long one DNS query of --rdns waits.
const DNS_TIMEOUT: Duration = Duration::from_secs(3);

/// `robotscope audit`: which robots fetched what the robots.txt of the time disallowed.
#[derive(Debug, Clone, Args)]
pub struct AuditArgs {
    /// Access logs: files (gzipped or not), or `-` for standard input. Combined and
    /// Common Log Format and JSON lines are recognised in each file; --log-format names
    /// another format.
    #[arg(value_name = "LOG", required = true)]
    pub logs: Vec<String>,
    /// The site whose robots.txt versions judge the requests: the store's, and the web
    /// archive's captures unless --local.
    #[arg(long, value_name = "SITE", required_unless_present = "robots_file")]
    pub site: Option<String>,
    /// One robots.txt, taken as in force for all time, instead of the site's versions.
    #[arg(long = "robots", value_name = "FILE", conflicts_with_all = ["site", "archive", "local"])]
    pub robots_file: Option<PathBuf>,
    #[command(flatten)]
    pub robots: RobotSelection,
    /// How long after a change a request that the version before allowed is tolerated
    /// rather than a violation (RFC 9309 §2.4 lets a crawler cache robots.txt for up to
    /// 24 hours): 0, 90m, 24h, 2d.
    #[arg(long, value_name = "DURATION", default_value = "24h", value_parser = grace)]
    pub grace: SignedDuration,
    #[command(flatten)]
    pub identity: IdentityOptions,
    /// In --json and --csv, every robot request, not only violations, tolerated and
    /// forged ones.
    #[arg(long)]
    pub all: bool,
    /// One JSON object per line: requests, then robots, then a summary.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// The request rows as CSV.
    #[arg(long)]
    pub csv: bool,
    /// The logs' format, as `GoAccess` writes it: %h client, %d date, %t time, %x date
    /// and time, %r request line, %m method, %U path, %s status, %u User-Agent, %^ and
    /// other fields skipped. Times without a %z in the formats are UTC: for Apache's
    /// '[10/Oct/2025:13:55:36 -0700]', write '%h %^[%x] "%r" %s %b "%R" "%u"' with
    /// --date-format '%d/%b/%Y:%H:%M:%S %z'.
    #[arg(long, value_name = "FORMAT")]
    pub log_format: Option<String>,
    /// How %d (or %x) is written, strftime-style.
    #[arg(long, value_name = "FORMAT", default_value = "%d/%b/%Y", requires = "log_format")]
    pub date_format: String,
    /// How %t is written, strftime-style.
    #[arg(long, value_name = "FORMAT", default_value = "%H:%M:%S", requires = "log_format")]
    pub time_format: String,
    #[command(flatten)]
    pub versions: VersionOptions,
    #[command(flatten)]
    pub source_options: SourceOptions,
}

/// How `audit` checks that a robot is who it claims to be.
#[derive(Debug, Clone, Args)]
pub struct IdentityOptions {
    /// A list of address ranges in the operators' JSON shape, added to those shipped and
    /// fetched by `robotscope bots update`: FILE named as an operator's list
    /// (gptbot.json), or TOKEN=FILE for any robot.
    #[arg(long = "bot-ips", value_name = "FILE")]
    pub bot_ips: Vec<String>,
    /// Check each robot's address by forward-confirmed reverse DNS too, against its
    /// operator's documented host names (googlebot.com, search.msn.com, ...).
    #[arg(long)]
    pub rdns: bool,
    /// The DNS server --rdns asks (IP:PORT; default: the system's).
    #[arg(long, value_name = "ADDR", requires = "rdns")]
    pub dns_server: Option<std::net::SocketAddr>,
}

fn grace(text: &str) -> Result<SignedDuration, String> {
    let text = text.trim();
    let parsed = match text.parse::<i64>() {
        Ok(seconds) => Some(SignedDuration::from_secs(seconds)),
        Err(_) => text.parse::<SignedDuration>().ok().or_else(|| {
            let days = text.strip_suffix('d')?.parse::<i64>().ok()?;
            Some(SignedDuration::from_hours(days.checked_mul(24)?))
        }),
    };
    match parsed {
        Some(duration) if duration.is_negative() => Err("must not be negative".to_owned()),
        Some(duration) if duration > SignedDuration::from_hours(24 * 365) => Err("must be at most a year".to_owned()),
        Some(duration) => Ok(duration),
        None => Err(format!("`{text}` is not a duration: write 0, 90m, 24h or 2d")),
    }
}

/// A robot the logs name, and what its requests came to.
#[derive(Debug)]
struct Tally {
    /// The product token it is known by.
    label: String,
    robot: Robot,
    reading: Reading,
    purpose: Purpose,
    requests: u64,
    verdicts: foldhash::HashMap<Verdict, u64>,
    robots_txt_fetches: u64,
    /// A request for something else before its first robots.txt fetch.
    crawled_before_fetching: bool,
    /// The last request's time, for the intervals Crawl-delay asks for.
    last: Option<Timestamp>,
    /// Requests sooner after the one before than the Crawl-delay in force, and the
    /// shortest such interval.
    delay_breaches: u64,
    shortest: Option<SignedDuration>,
    /// Requests of an AI-training robot for paths whose usage says `train-ai=n`.
    train_ai_refused: u64,
    /// Its operator's family, when its addresses can be checked.
    family: Option<usize>,
    identities: foldhash::HashMap<Identity, u64>,
}

/// A group of violations: one robot, one deciding line of one version.
#[derive(Debug)]
struct Broken {
    count: u64,
    first: Timestamp,
    last: Timestamp,
    example: String,
    rule: Option<String>,
}

/// One request row of `--json` and `--csv`.
#[derive(Debug, Serialize)]
struct RequestRow<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    log_line: u64,
    time: String,
    ip: &'a str,
    user_agent: &'a str,
    agent: &'a str,
    path: &'a str,
    verdict: &'static str,
    line: Option<usize>,
    rule: Option<&'a str>,
    version: Option<String>,
    identity: &'static str,
}

/// What the run found, and what it has still to say.
struct Audit<'a> {
    db: &'a RobotsDb,
    timeline: &'a Timeline,
    judge: Judge<'a>,
    /// Only these robots (their tokens, lower case), when -a, -r or -p named any.
    only: Option<Vec<(String, Robot, Reading)>>,
    semantics: Option<Reading>,
    tallies: Vec<Tally>,
    by_token: foldhash::HashMap<String, usize>,
    agents: foldhash::HashMap<String, Option<usize>>,
    broken: foldhash::HashMap<(usize, Option<usize>, Option<usize>), Broken>,
    /// Requests of robots past `MAX_ROBOTS`, not judged.
    robots_left_out: u64,
    lines: u64,
    /// The lines of the log being read so far, blank ones too (for line numbers).
    lines_seen: u64,
    unreadable: u64,
    bad_lines: Vec<String>,
    robot_requests: u64,
    rows: Option<(Box<dyn Write + 'a>, bool)>,
    all: bool,
    /// The operators' address ranges, and the DNS when --rdns asks it.
    verifier: Verifier,
    rdns: Option<ReverseDns>,
    /// On a terminal: what has been read, and how fast.
    progress: Option<indicatif::ProgressBar>,
    started: Instant,
    bytes_read: u64,
}

/// `robotscope audit`.
///
/// # Errors
///
/// When the versions cannot be found, no log can be opened, or nothing in the logs can
/// be read.
pub fn audit(args: &AuditArgs, db: &RobotsDb) -> Result<Outcome> {
    let custom = match &args.log_format {
        Some(format) => Some(
            CustomFormat::new(format, &args.date_format, &args.time_format)
                .map_err(|why| color_eyre::eyre::eyre!("--log-format: {why}"))?,
        ),
        None => None,
    };
    let (timeline, about) = versions(args)?;
    let (verifier, list_warnings) = super::bots::verifier(&args.identity.bot_ips)?;
    for warning in list_warnings {
        super::stderr_line(format_args!("robotscope: warning: {warning}"));
    }
    let rdns = if args.identity.rdns {
        Some(
            ReverseDns::new(args.identity.dns_server, DNS_TIMEOUT)
                .map_err(|why| color_eyre::eyre::eyre!("--rdns: {why}"))?,
        )
    } else {
        None
    };
    let grace = args.grace;
    let only = if args.robots.is_empty() {
        None
    } else {
        Some(
            robot_queries(&args.robots, db)?
                .into_iter()
                .map(|q| (q.label.to_ascii_lowercase(), q.robot, q.reading))
                .collect(),
        )
    };
    let stdout = io::stdout().lock();
    let rows: Option<(Box<dyn Write>, bool)> =
        (args.json || args.csv).then(|| (Box::new(BufWriter::new(stdout)) as Box<dyn Write>, args.csv));
    let mut audit = Audit {
        db,
        timeline: &timeline,
        judge: Judge::new(&timeline, grace),
        only,
        semantics: args.robots.semantics,
        tallies: Vec::new(),
        by_token: foldhash::HashMap::default(),
        agents: foldhash::HashMap::default(),
        broken: foldhash::HashMap::default(),
        robots_left_out: 0,
        lines: 0,
        lines_seen: 0,
        unreadable: 0,
        bad_lines: Vec::new(),
        robot_requests: 0,
        rows,
        all: args.all,
        verifier,
        rdns,
        progress: super::stderr_spinner(),
        started: Instant::now(),
        bytes_read: 0,
    };
    if args.csv {
        audit.write_row_text("log_line,time,ip,user_agent,agent,path,verdict,line,rule,version,identity\n")?;
    }
    let deadline = Instant::now() + args.versions.deadline.max_time;
    let mut stopped = None;
    for log in &args.logs {
        match audit.read_log(log, custom.as_ref(), deadline) {
            Ok(true) => {}
            Ok(false) => {
                stopped = Some(log.clone());
                break;
            }
            Err(error) => {
                audit.clear_progress();
                return Err(error);
            }
        }
    }
    audit.clear_progress();
    if audit.lines == audit.unreadable {
        bail!(
            "nothing could be read in {}: {}",
            plural(usize::try_from(audit.lines).unwrap_or(usize::MAX), "line"),
            audit.bad_lines.first().map_or("the logs are empty", String::as_str)
        );
    }
    let violations =
        audit.tallies.iter().map(|tally| tally.verdicts.get(&Verdict::Violation).copied().unwrap_or(0)).sum::<u64>();
    audit.finish(&about, stopped.as_deref(), args.versions.deadline.max_time)?;
    Ok(if violations > 0 { Outcome::Findings } else { Outcome::Clean })
}

/// The versions that judge the requests, and what to call them.
fn versions(args: &AuditArgs) -> Result<(Timeline, String)> {
    let limits = args.source_options.limits(None);
    if let Some(path) = &args.robots_file {
        let (bytes, cut) = crate::fetch::read_file_capped(path, args.source_options.max_file_bytes)
            .wrap_err_with(|| format!("reading {}", path.display()))?;
        if cut {
            super::stderr_line(format_args!(
                "robotscope: warning: {} read to its first {} (--max-file-bytes)",
                sanitize_str(&path.display().to_string()),
                crate::fetch::size_label(args.source_options.max_file_bytes)
            ));
        }
        let txt = Arc::new(limits.parse(bytes));
        let version = InForce { since: None, txt, availability: Availability::Available };
        return Ok((Timeline::new(vec![version]), format!("{} (for all time)", path.display())));
    }
    let Some(site) = &args.site else { bail!("give --site SITE or --robots FILE") };
    let gathered = gather(site, &args.versions, &args.source_options)?;
    let mut versions = Vec::new();
    for version in gathered.timeline.before.iter().chain(&gathered.timeline.versions) {
        let body = crate::history::body_of(&gathered.store, version).wrap_err("reading the store")?;
        let since = jiff::civil::DateTime::strptime("%Y%m%d%H%M%S", &version.timestamp)
            .ok()
            .and_then(|civil| jiff::tz::Offset::UTC.to_timestamp(civil).ok());
        let Some(since) = since else { continue };
        versions.push(InForce {
            since: Some(since),
            txt: Arc::new(limits.parse(body)),
            availability: version.availability,
        });
    }
    if versions.is_empty() {
        bail!(
            "no version of {}/robots.txt is known: without --local, one is fetched now",
            sanitize_str(&gathered.site)
        );
    }
    let about = format!("{} of {}/robots.txt", plural(versions.len(), "version"), gathered.site);
    Ok((Timeline::new(versions), about))
}

/// A log opened for reading: a file or standard input, gunzipped when it is gzip.
/// A log, read through one buffer: a file or standard input, gunzipped when it is gzip.
type LogReader = BufReader<Box<dyn Read + Send>>;

/// A log opened for reading, and whether a read may wait for input (standard input, a
/// pipe, a FIFO: not a regular file).
fn open_log(log: &str) -> Result<(LogReader, bool)> {
    let (raw, may_wait): (Box<dyn Read + Send>, bool) = if log == "-" {
        (Box::new(io::stdin()), true)
    } else {
        let file = File::open(log).wrap_err_with(|| format!("opening {}", sanitize_str(log)))?;
        let regular = file.metadata().is_ok_and(|metadata| metadata.is_file());
        (Box::new(file), !regular)
    };
    let mut reader = BufReader::with_capacity(256 * 1024, raw);
    let gzip = reader.fill_buf().wrap_err_with(|| format!("reading {}", sanitize_str(log)))?.starts_with(&[0x1f, 0x8b]);
    let reader: LogReader = if gzip {
        BufReader::with_capacity(256 * 1024, Box::new(flate2::bufread::MultiGzDecoder::new(reader)))
    } else {
        BufReader::with_capacity(256 * 1024, Box::new(reader))
    };
    Ok((reader, may_wait))
}

/// Reads `reader` in batches on a thread of its own, which sends them (an empty one at
/// the end): the run's deadline then holds while a pipe or a FIFO sends nothing.
fn read_in_batches((mut reader, may_wait): (LogReader, bool), ahead: usize) -> mpsc::Receiver<io::Result<Batch>> {
    let (sender, batches) = mpsc::sync_channel(ahead);
    std::thread::spawn(move || {
        loop {
            let mut batch = Batch::default();
            let read = batch.fill(&mut reader, BATCH_LINES, may_wait);
            let last = read.is_err() || batch.lines.is_empty();
            if sender.send(read.map(|()| batch)).is_err() || last {
                return;
            }
        }
    });
    batches
}

/// Reads one line into `line` (without its line end), at most `MAX_LINE_BYTES` of it;
/// false at the end. True in the second place when the line was longer.
fn read_line(reader: &mut dyn BufRead, line: &mut Vec<u8>) -> io::Result<(bool, bool)> {
    line.clear();
    let mut cut = false;
    let mut any = false;
    loop {
        let available = reader.fill_buf()?;
        if available.is_empty() {
            return Ok((any, cut));
        }
        any = true;
        let (taken, done) = match memchr::memchr(b'\n', available) {
            Some(end) => (end + 1, true),
            None => (available.len(), false),
        };
        let room = MAX_LINE_BYTES.saturating_sub(line.len());
        let content = &available[..if done { taken - 1 } else { taken }];
        cut |= content.len() > room;
        line.extend_from_slice(&content[..content.len().min(room)]);
        reader.consume(taken);
        if done {
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            return Ok((true, cut));
        }
    }
}

/// The format of a log whose first lines are `first`.
fn detect(log: &str, first: &Batch) -> Result<LogFormat> {
    let lines = (0..first.lines.len().min(DETECT_LINES)).map(|index| first.text(index));
    let texts: Vec<std::borrow::Cow<'_, str>> = lines.collect();
    match LogFormat::detect(texts.iter().map(AsRef::as_ref)) {
        Some(format) => Ok(format),
        None if texts.iter().all(|text| text.trim().is_empty()) => Ok(LogFormat::Combined),
        None => bail!(
            "{}: not an access log robotscope knows (Combined or Common Log Format, JSON lines); \
             --log-format names another",
            sanitize_str(log)
        ),
    }
}

/// Lines read from a log, in one buffer: parsed on a worker, judged in order.
#[derive(Debug, Default)]
struct Batch {
    /// The number of the line before the batch's first.
    first_number: u64,
    bytes: Vec<u8>,
    /// Each line's bytes in `bytes`, and whether it was cut at `MAX_LINE_BYTES`.
    lines: Vec<(std::ops::Range<usize>, bool)>,
}

/// A line, parsed.
#[derive(Debug)]
enum Parsed {
    Blank,
    Request(LogRequest),
    /// Why not (`None`: longer than `MAX_LINE_BYTES`).
    Unreadable(Option<LineError>),
}

impl Batch {
    /// Reads up to `count` lines in place of the ones held. When a read `may_wait` for
    /// input, the lines already read go first (a quiet pipe does not hold them back).
    fn fill(&mut self, reader: &mut LogReader, count: usize, may_wait: bool) -> io::Result<()> {
        self.bytes.clear();
        self.lines.clear();
        let mut line = Vec::new();
        while self.lines.len() < count && self.bytes.len() < BATCH_BYTES {
            if may_wait && !self.lines.is_empty() && reader.buffer().is_empty() {
                break;
            }
            let (more, cut) = read_line(reader, &mut line)?;
            if !more {
                break;
            }
            let start = self.bytes.len();
            self.bytes.extend_from_slice(&line);
            self.lines.push((start..self.bytes.len(), cut));
        }
        Ok(())
    }

    /// Line `index` as text (checked as UTF-8 first: the lossy reading costs more, and
    /// is seldom needed).
    fn text(&self, index: usize) -> std::borrow::Cow<'_, str> {
        let bytes = &self.bytes[self.lines[index].0.clone()];
        match std::str::from_utf8(bytes) {
            Ok(text) => std::borrow::Cow::Borrowed(text),
            Err(_) => String::from_utf8_lossy(bytes),
        }
    }

    fn parse(&self, format: &LogFormat) -> Vec<Parsed> {
        (0..self.lines.len())
            .map(|index| {
                let text = self.text(index);
                if text.trim().is_empty() {
                    Parsed::Blank
                } else if self.lines[index].1 {
                    Parsed::Unreadable(None)
                } else {
                    format.parse(&text).map_or_else(|why| Parsed::Unreadable(Some(why)), Parsed::Request)
                }
            })
            .collect()
    }
}

impl Audit<'_> {
    /// Reads a log through; false when the deadline stopped it.
    fn read_log(&mut self, log: &str, custom: Option<&CustomFormat>, deadline: Instant) -> Result<bool> {
        let workers = std::thread::available_parallelism().map_or(1, std::num::NonZero::get).clamp(1, MAX_WORKERS);
        let batches = read_in_batches(open_log(log)?, workers);
        self.lines_seen = 0;
        let mut format = custom.map(|format| LogFormat::Custom(format.clone()));
        loop {
            // A batch for each worker (as many as have come by the deadline), parsed at
            // once, judged in order.
            let mut round: Vec<Batch> = Vec::with_capacity(workers);
            let mut ended = false;
            let mut timed_out = false;
            while round.len() < workers {
                match batches.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                    Ok(Ok(batch)) if batch.lines.is_empty() => ended = true,
                    Ok(Ok(batch)) => round.push(batch),
                    Ok(Err(error)) => return Err(error).wrap_err_with(|| format!("reading {}", sanitize_str(log))),
                    Err(mpsc::RecvTimeoutError::Timeout) => timed_out = true,
                    Err(mpsc::RecvTimeoutError::Disconnected) => ended = true,
                }
                if ended || timed_out {
                    break;
                }
            }
            // The format is found from the first lines.
            if format.is_none()
                && let Some(first) = round.first()
            {
                format = Some(detect(log, first)?);
            }
            if let Some(format) = &format {
                let parsed: Vec<Vec<Parsed>> = std::thread::scope(|scope| {
                    let handles: Vec<_> = round.iter().map(|batch| scope.spawn(|| batch.parse(format))).collect();
                    handles.into_iter().map(|handle| handle.join().unwrap_or_default()).collect()
                });
                self.ask_dns(&parsed, deadline);
                for (batch, parsed) in round.iter_mut().zip(&parsed) {
                    batch.first_number = self.lines_seen;
                    self.take_batch(log, batch, parsed);
                    self.bytes_read += batch.bytes.len() as u64;
                }
                self.show_progress(log);
            }
            if ended {
                return Ok(true);
            }
            if timed_out || Instant::now() >= deadline {
                return Ok(false);
            }
        }
    }

    fn clear_progress(&mut self) {
        if let Some(bar) = self.progress.take() {
            bar.finish_and_clear();
        }
    }

    fn show_progress(&self, log: &str) {
        if let Some(bar) = &self.progress {
            let seconds = self.started.elapsed().as_secs_f64().max(0.001);
            #[expect(clippy::cast_precision_loss, clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let per_second = (self.lines as f64 / seconds) as u64;
            let name = if log == "-" { "standard input".into() } else { sanitize_str(log) };
            bar.set_message(format!(
                "{name}: {} read · {} · {per_second} lines/s",
                crate::fetch::size_label(to_usize(self.bytes_read)),
                plural(to_usize(self.lines), "line")
            ));
        }
    }

    /// The lines of a batch, parsed: each counted, each request judged, each line that
    /// cannot be read counted and the first few quoted.
    fn take_batch(&mut self, log: &str, batch: &Batch, parsed: &[Parsed]) {
        for (index, result) in parsed.iter().enumerate() {
            let number = batch.first_number + index as u64 + 1;
            match result {
                Parsed::Blank => {}
                Parsed::Request(request) => {
                    self.lines += 1;
                    self.take_request(number, request);
                }
                Parsed::Unreadable(why) => {
                    self.lines += 1;
                    self.unreadable += 1;
                    if self.bad_lines.len() < QUOTED_BAD_LINES {
                        let why = why
                            .as_ref()
                            .map_or_else(|| format!("longer than {} KiB", MAX_LINE_BYTES / 1024), ToString::to_string);
                        let sample: String = batch.text(index).chars().take(80).collect();
                        self.bad_lines.push(format!(
                            "{}:{number}: {why}: {}",
                            sanitize_str(log),
                            sanitize_str(&sample)
                        ));
                    }
                }
            }
        }
        self.lines_seen = batch.first_number + batch.lines.len() as u64;
    }

    /// With --rdns, looks up the addresses of the robots in `parsed` whose operator names
    /// its robots' hosts, unless their ranges vouch for them already: all at once, a few at
    /// a time, before the requests are judged in order.
    fn ask_dns(&mut self, parsed: &[Vec<Parsed>], deadline: Instant) {
        if self.rdns.is_none() {
            return;
        }
        let mut addresses = Vec::new();
        for request in parsed.iter().flatten().filter_map(|parsed| match parsed {
            Parsed::Request(request) => Some(request),
            _ => None,
        }) {
            let Some(family) = self.tally_of(&request.user_agent).and_then(|index| self.tallies[index].family) else {
                continue;
            };
            if let Some(address) = address_of(&request.ip)
                && !self.verifier.suffixes(family).is_empty()
                && self.verifier.in_ranges(family, address) != Some(true)
            {
                addresses.push(address);
            }
        }
        if let Some(rdns) = &mut self.rdns {
            rdns.look_up(addresses, deadline);
        }
    }

    /// Whether a request of the robot `index` from `ip` came from its operator.
    fn identity(&self, index: usize, ip: &str) -> Identity {
        let (Some(family), Some(address)) = (self.tallies[index].family, address_of(ip)) else {
            return Identity::Unverifiable;
        };
        let suffixes = self.verifier.suffixes(family);
        let reverse_dns = self.rdns.as_ref().filter(|_| !suffixes.is_empty()).map(|rdns| match rdns.answer(address) {
            Some(Answer::Confirmed(names)) => Some(names.iter().any(|name| host_is_under(name, suffixes))),
            Some(Answer::NoAnswer) | None => None,
        });
        Identity::of(self.verifier.in_ranges(family, address), reverse_dns)
    }

    /// The robot entry a User-Agent names, if it is one the audit judges.
    fn tally_of(&mut self, user_agent: &str) -> Option<usize> {
        // A robot names itself near the start of its header: the rest of a header of
        // kilobytes is not read (a log of such headers cost its length times the robots).
        let mut end = user_agent.len().min(REMEMBERED_AGENT_BYTES);
        while !user_agent.is_char_boundary(end) {
            end -= 1;
        }
        let user_agent = &user_agent[..end];
        if let Some(&known) = self.agents.get(user_agent) {
            return known;
        }
        let found = robot_of(user_agent, self.db).and_then(|claimed| self.entry(claimed));
        if self.agents.len() < REMEMBERED_AGENTS {
            self.agents.insert(user_agent.to_owned(), found);
        }
        found
    }

    fn entry(&mut self, claimed: Claimed) -> Option<usize> {
        let (label, robot, reading, purpose) = match claimed {
            Claimed::Known(index) => {
                let profile = &self.db.profiles()[index];
                (profile.token.clone(), profile.robot(), profile.reading, profile.purpose)
            }
            Claimed::Unknown(token) => (token.clone(), Robot::from_agent(&token), Reading::Rfc9309, Purpose::Other),
        };
        let key = label.to_ascii_lowercase();
        if let Some(&index) = self.by_token.get(&key) {
            return Some(index);
        }
        let (robot, reading) = match &self.only {
            Some(only) => {
                let (_, robot, reading) = only.iter().find(|(token, _, _)| *token == key)?;
                (robot.clone(), *reading)
            }
            None => (robot, self.semantics.unwrap_or(reading)),
        };
        // A log can name a new bot on every line: past the cap, they are counted, not
        // judged.
        if self.tallies.len() >= MAX_ROBOTS {
            self.robots_left_out += 1;
            return None;
        }
        self.tallies.push(Tally {
            label,
            robot,
            reading,
            purpose,
            requests: 0,
            verdicts: foldhash::HashMap::default(),
            robots_txt_fetches: 0,
            crawled_before_fetching: false,
            last: None,
            delay_breaches: 0,
            shortest: None,
            train_ai_refused: 0,
            family: self.verifier.family_of(&key),
            identities: foldhash::HashMap::default(),
        });
        self.by_token.insert(key, self.tallies.len() - 1);
        Some(self.tallies.len() - 1)
    }

    fn take_request(&mut self, number: u64, request: &LogRequest) {
        let Some(index) = self.tally_of(&request.user_agent) else { return };
        self.robot_requests += 1;
        let tally = &self.tallies[index];
        let judged = Judged { key: index, robot: &tally.robot, reading: tally.reading };
        let judgement = self.judge.judge(judged, &request.target, request.time);
        let robots_txt = is_robots_txt(&request.target);
        let identity = self.identity(index, &request.ip);
        let (delay, refused) = match judgement.version {
            Some(version) => {
                let matcher = self.judge.matcher(version, judged);
                let refused = tally.purpose == Purpose::AiTraining
                    && matcher
                        .usage(&request.target)
                        .is_some_and(|usage| usage.get(Category::TrainAi).preference() == Preference::Disallowed);
                (matcher.crawl_delay(), refused)
            }
            None => (None, false),
        };
        let tally = &mut self.tallies[index];
        tally.requests += 1;
        *tally.verdicts.entry(judgement.verdict).or_default() += 1;
        if robots_txt {
            tally.robots_txt_fetches += 1;
        } else if tally.robots_txt_fetches == 0 {
            tally.crawled_before_fetching = true;
        }
        if let (Some(last), Some(delay)) = (tally.last, delay) {
            let interval = request.time.duration_since(last);
            if !interval.is_negative() && interval < SignedDuration::try_from(delay).unwrap_or(SignedDuration::MAX) {
                tally.delay_breaches += 1;
                tally.shortest = Some(tally.shortest.map_or(interval, |shortest| shortest.min(interval)));
            }
        }
        tally.last = Some(request.time);
        tally.train_ai_refused += u64::from(refused);
        *tally.identities.entry(identity).or_default() += 1;
        if judgement.verdict == Verdict::Violation {
            let broken = self.broken.entry((index, judgement.version, judgement.line)).or_insert_with(|| Broken {
                count: 0,
                first: request.time,
                last: request.time,
                example: request.target.clone(),
                rule: judgement.rule.clone(),
            });
            broken.count += 1;
            broken.first = broken.first.min(request.time);
            broken.last = broken.last.max(request.time);
        }
        if self.all
            || matches!(judgement.verdict, Verdict::Violation | Verdict::Tolerated)
            || identity == Identity::Forged
        {
            self.write_request(number, request, index, &judgement, identity);
        }
    }

    /// The robots, most requests first. (The tallies keep their places: the violations
    /// name them by index.)
    fn by_requests(&self) -> Vec<&Tally> {
        let mut tallies: Vec<&Tally> = self.tallies.iter().collect();
        tallies.sort_by(|a, b| b.requests.cmp(&a.requests).then_with(|| a.label.cmp(&b.label)));
        tallies
    }

    fn version_time(&self, version: Option<usize>) -> Option<String> {
        version
            .and_then(|version| self.timeline.versions()[version].since)
            .map(|since| since.strftime("%Y-%m-%dT%H:%M:%SZ").to_string())
    }

    fn write_request(
        &mut self,
        number: u64,
        request: &LogRequest,
        index: usize,
        judgement: &Judgement,
        identity: Identity,
    ) {
        let version = self.version_time(judgement.version);
        let row = RequestRow {
            kind: "request",
            log_line: number,
            time: request.time.strftime("%Y-%m-%dT%H:%M:%SZ").to_string(),
            ip: &request.ip,
            user_agent: &request.user_agent,
            agent: &self.tallies[index].label,
            path: &request.target,
            verdict: judgement.verdict.name(),
            line: judgement.line,
            rule: judgement.rule.as_deref(),
            version,
            identity: identity.name(),
        };
        let Some((out, csv)) = &mut self.rows else { return };
        let written = if *csv { write_csv_row(out, &row) } else { json::write_line(out, &row) };
        // A closed pipe ends the output, not the audit's exit status.
        if written.is_err() {
            self.rows = None;
        }
    }

    fn write_row_text(&mut self, text: &str) -> Result<()> {
        if let Some((out, _)) = &mut self.rows {
            finish_output(out.write_all(text.as_bytes()))?;
        }
        Ok(())
    }

    /// The robots' table (or objects), the violations by deciding line, the summary.
    fn finish(mut self, about: &str, stopped: Option<&str>, max_time: Duration) -> Result<()> {
        let count = |tally: &Tally, verdict| tally.verdicts.get(&verdict).copied().unwrap_or(0);
        let violations: u64 = self.tallies.iter().map(|tally| count(tally, Verdict::Violation)).sum();
        let forged: u64 = self.tallies.iter().map(|tally| tally.identity_count(Identity::Forged)).sum();
        // The warnings come after the report, where a reader's eye ends.
        let warn = |bad_lines: &[String]| {
            for bad in bad_lines {
                super::stderr_line(format_args!("robotscope: warning: unreadable line {bad}"));
            }
            if self.robots_left_out > 0 {
                super::stderr_line(format_args!(
                    "robotscope: warning: the logs name more than {MAX_ROBOTS} robots: {} of those past them left out",
                    plural(to_usize(self.robots_left_out), "request")
                ));
            }
            if let Some(log) = stopped {
                let name = if log == "-" { "standard input".into() } else { sanitize_str(log) };
                super::stderr_line(format_args!(
                    "robotscope: warning: stopped reading {name} at --max-time {}s: what was read is reported",
                    max_time.as_secs()
                ));
            }
        };
        if let Some((mut out, csv)) = self.rows.take() {
            if !csv {
                for tally in self.by_requests() {
                    let record = RobotRecord {
                        kind: "robot",
                        agent: &tally.label,
                        requests: tally.requests,
                        violations: count(tally, Verdict::Violation),
                        tolerated: count(tally, Verdict::Tolerated),
                        unjudged: count(tally, Verdict::Unjudged),
                        forged: tally.identity_count(Identity::Forged),
                        verified: tally.identity_count(Identity::Verified),
                        robots_txt_fetches: tally.robots_txt_fetches,
                        crawled_before_robots_txt: tally.crawled_before_fetching,
                        crawl_delay_breaches: tally.delay_breaches,
                        shortest_interval_seconds: tally.shortest.map(|interval| interval.as_secs_f64()),
                        train_ai_refused: tally.train_ai_refused,
                    };
                    finish_output(json::write_line(&mut out, &record))?;
                }
                let summary = Summary {
                    kind: "summary",
                    lines: self.lines,
                    unreadable: self.unreadable,
                    robot_requests: self.robot_requests,
                    violations,
                    forged,
                };
                finish_output(json::write_line(&mut out, &summary))?;
            }
            let flushed = finish_output(out.flush());
            warn(&self.bad_lines);
            return flushed;
        }
        let mut out = BufWriter::new(io::stdout().lock());
        let result = self.write_text(&mut out, about, violations).and_then(|()| out.flush());
        warn(&self.bad_lines);
        finish_output(result)
    }

    fn write_text(&self, out: &mut dyn Write, about: &str, violations: u64) -> io::Result<()> {
        let count = |tally: &Tally, verdict| tally.verdicts.get(&verdict).copied().unwrap_or(0);
        writeln!(
            out,
            "{} read ({} unreadable), {} judged against {}",
            plural(to_usize(self.lines), "log line"),
            self.unreadable,
            plural(to_usize(self.robot_requests), "robot request"),
            sanitize_str(about)
        )?;
        if self.tallies.is_empty() {
            return writeln!(out, "No robot the audit judges came in these logs.");
        }
        writeln!(out)?;
        writeln!(
            out,
            "{:<24} {:>9} {:>10} {:>9} {:>8} {:>8} {:>10} {:>12}",
            "robot", "requests", "violations", "tolerated", "unjudged", "forged", "robots.txt", "crawl-delay"
        )?;
        for tally in self.by_requests() {
            let delay = match (tally.delay_breaches, tally.shortest) {
                (0, _) | (_, None) => "-".to_owned(),
                (breaches, Some(shortest)) => format!("{breaches} (≥{:.1}s)", shortest.as_secs_f64()),
            };
            let fetched = if tally.robots_txt_fetches == 0 {
                "never".to_owned()
            } else if tally.crawled_before_fetching {
                format!("{} (late)", tally.robots_txt_fetches)
            } else {
                tally.robots_txt_fetches.to_string()
            };
            let forged = match tally.family {
                Some(_) => tally.identity_count(Identity::Forged).to_string(),
                None => "-".to_owned(),
            };
            writeln!(
                out,
                "{:<24} {:>9} {:>10} {:>9} {:>8} {:>8} {:>10} {:>12}",
                sanitize_str(&tally.label),
                tally.requests,
                count(tally, Verdict::Violation),
                count(tally, Verdict::Tolerated),
                count(tally, Verdict::Unjudged),
                forged,
                fetched,
                delay
            )?;
        }
        self.write_identity_note(out)?;
        let refused: Vec<String> = self
            .tallies
            .iter()
            .filter(|tally| tally.train_ai_refused > 0)
            .map(|tally| format!("{} ({})", sanitize_str(&tally.label), tally.train_ai_refused))
            .collect();
        if !refused.is_empty() {
            writeln!(
                out,
                "\nAI-training robots fetched paths whose usage preferences say train-ai=n (fetching is not \
                 training; for information): {}",
                refused.join(", ")
            )?;
        }
        if violations == 0 {
            return writeln!(out, "\nNo violations.");
        }
        writeln!(out, "\nViolations, by the line that decided:")?;
        let mut broken: Vec<_> = self.broken.iter().collect();
        broken.sort_by(|a, b| b.1.count.cmp(&a.1.count).then_with(|| a.0.cmp(b.0)));
        for ((index, version, line), group) in broken {
            let rule = match (line, &group.rule) {
                (Some(line), Some(rule)) => format!("line {line} `{}`", sanitize_str(rule)),
                (_, Some(why)) => sanitize_str(why).into_owned(),
                _ => "the rules".to_owned(),
            };
            let version = self
                .version_time(*version)
                .map_or_else(|| "the file".to_owned(), |time| format!("the version of {time}"));
            writeln!(
                out,
                "  {}: {} by {rule} of {version}, {} to {}, e.g. {}",
                sanitize_str(&self.tallies[*index].label),
                plural(to_usize(group.count), "request"),
                group.first.strftime("%Y-%m-%d %H:%M:%S"),
                group.last.strftime("%Y-%m-%d %H:%M:%S"),
                sanitize_str(&group.example)
            )?;
        }
        Ok(())
    }
}

impl Tally {
    fn identity_count(&self, identity: Identity) -> u64 {
        self.identities.get(&identity).copied().unwrap_or(0)
    }
}

impl Audit<'_> {
    /// What the addresses were checked against, and the forged requests by address.
    fn write_identity_note(&self, out: &mut dyn Write) -> io::Result<()> {
        let lists: Vec<String> = self
            .verifier
            .lists()
            .map(|list| {
                let made =
                    list.created.as_deref().map(|created| format!(" of {}", created.get(..10).unwrap_or(created)));
                format!("{}{} ({})", list.name, made.unwrap_or_default(), list.from)
            })
            .collect();
        let dns = if self.rdns.is_some() { " and reverse DNS" } else { "" };
        writeln!(
            out,
            "\nAddresses checked against {}{dns}; \"-\": an operator that publishes neither (robotscope bots update \
             fetches the lists)",
            if lists.is_empty() { "no list".to_owned() } else { sanitize_str(&lists.join(", ")).into_owned() }
        )
    }
}

/// A client address as logs write it (`66.249.66.1`, `[2001:db8::1]`, `::ffff:1.2.3.4`).
fn address_of(text: &str) -> Option<std::net::IpAddr> {
    text.trim().trim_start_matches('[').trim_end_matches(']').parse().ok()
}

fn to_usize(count: u64) -> usize {
    usize::try_from(count).unwrap_or(usize::MAX)
}

#[derive(Debug, Serialize)]
struct RobotRecord<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    agent: &'a str,
    requests: u64,
    violations: u64,
    tolerated: u64,
    unjudged: u64,
    forged: u64,
    verified: u64,
    robots_txt_fetches: u64,
    crawled_before_robots_txt: bool,
    crawl_delay_breaches: u64,
    shortest_interval_seconds: Option<f64>,
    train_ai_refused: u64,
}

#[derive(Debug, Serialize)]
struct Summary {
    #[serde(rename = "type")]
    kind: &'static str,
    lines: u64,
    unreadable: u64,
    robot_requests: u64,
    violations: u64,
    forged: u64,
}

/// A CSV row: fields with a comma, quote or line break quoted, quotes doubled; control
/// characters escaped, as everywhere robotscope writes text from outside.
fn write_csv_row(out: &mut dyn Write, row: &RequestRow<'_>) -> io::Result<()> {
    let field = |text: &str| {
        let text = sanitize_str(text).into_owned();
        if text.contains([',', '"', '\n', '\r']) { format!("\"{}\"", text.replace('"', "\"\"")) } else { text }
    };
    let number = |n: Option<usize>| n.map(|n| n.to_string()).unwrap_or_default();
    writeln!(
        out,
        "{},{},{},{},{},{},{},{},{},{},{}",
        row.log_line,
        row.time,
        field(row.ip),
        field(row.user_agent),
        field(row.agent),
        field(row.path),
        row.verdict,
        number(row.line),
        field(row.rule.unwrap_or_default()),
        row.version.as_deref().unwrap_or_default(),
        row.identity
    )
}
