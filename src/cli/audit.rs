//! `robotscope audit`: access logs replayed against the robots.txt in force when each
//! request came. The logs are read a line at a time (gzip and standard input too), each
//! line capped in bytes; the versions come from `--robots FILE` or from the site's
//! history (the store, and the archive unless `--local`).

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Args;
use color_eyre::eyre::{Result, WrapErr, bail};
use jiff::SignedDuration;
use serde::Serialize;

use super::history::{VersionOptions, gather};
use super::{Outcome, RobotSelection, SourceOptions, finish_output, json, robot_queries};
use crate::audit::identity::{Identity, Verifier};
use crate::audit::logs::CustomFormat;
use crate::audit::rdns::ReverseDns;
use crate::audit::replay::{InForce, Timeline, Verdict};
use crate::audit::run::{MAX_ROBOTS, Row, Run, Settings};
use crate::policy::Availability;
use crate::policy::escape::sanitize_str;
use crate::robots_db::RobotsDb;
use crate::words::plural;

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

/// `--grace`: from none to a year.
pub(super) fn grace(text: &str) -> Result<SignedDuration, String> {
    let duration = super::duration_within(text, Duration::ZERO, Duration::from_secs(365 * 24 * 3600), "a year")?;
    SignedDuration::try_from(duration).map_err(|error| error.to_string())
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

/// The run, and what the command line makes of it: the rows it writes, the progress
/// it shows.
struct Audit<'a> {
    run: Run<'a>,
    rows: Option<(Box<dyn Write + 'a>, bool)>,
    /// On a terminal: what has been read, and how fast.
    progress: Option<indicatif::ProgressBar>,
    started: Instant,
}

/// `robotscope audit`.
///
/// # Errors
///
/// When the versions cannot be found, no log can be opened, or nothing in the logs can
/// be read.
pub fn audit(args: &AuditArgs, db: &RobotsDb) -> Result<Outcome> {
    if args.all && !args.json && !args.csv {
        bail!("--all writes a row for every robot request: add --json or --csv");
    }
    let custom = match &args.log_format {
        Some(format) => Some(
            CustomFormat::new(format, &args.date_format, &args.time_format)
                .map_err(|why| color_eyre::eyre::eyre!("--log-format: {why}"))?,
        ),
        None => None,
    };
    let (timeline, about) = versions(args)?;
    let (verifier, rdns) = identity_checks(&args.identity)?;
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
    let settings = Settings {
        grace: args.grace,
        only,
        semantics: args.robots.semantics,
        custom,
        deadline: Instant::now() + args.versions.deadline.max_time,
        every_row: args.all,
        stop: None,
    };
    let mut audit = Audit {
        run: Run::new(db, &timeline, settings, verifier, rdns),
        rows,
        progress: progress_bar(&args.logs),
        started: Instant::now(),
    };
    if args.csv {
        audit.write_row_text("log_line,time,ip,user_agent,agent,path,verdict,line,rule,version,identity\n")?;
    }
    let mut stopped = None;
    // A log that cannot be read is said, and the others are read: a rotated log gone
    // missing does not cost the report of the rest.
    let mut failed = Vec::new();
    for log in &args.logs {
        match audit.read_log(log) {
            Ok(true) => {}
            Ok(false) => {
                stopped = Some(log.clone());
                break;
            }
            Err(error) => failed.push(color_eyre::eyre::Report::new(error)),
        }
    }
    audit.clear_progress();
    if failed.len() == args.logs.len()
        && let Some(error) = failed.pop()
    {
        return Err(error);
    }
    // The logs after the one the deadline stopped were never opened.
    let unread: Vec<String> = match &stopped {
        Some(log) => args
            .logs
            .iter()
            .skip_while(|other| *other != log)
            .skip(1)
            .map(|log| sanitize_str(log).into_owned())
            .collect(),
        None => Vec::new(),
    };
    if audit.run.lines == 0
        && let Some(log) = &stopped
    {
        bail!(
            "stopped at --max-time {}s before a line of {} came{}",
            args.versions.deadline.max_time.as_secs(),
            if log == "-" { "standard input".into() } else { sanitize_str(log) },
            if unread.is_empty() { String::new() } else { format!(" ({} not read)", unread.join(", ")) }
        );
    }
    if audit.run.lines == audit.run.unreadable {
        bail!(
            "nothing could be read in {}: {}",
            plural(to_usize(audit.run.lines), "line"),
            audit.run.bad_lines.first().map_or("the logs are empty", String::as_str)
        );
    }
    let violations = audit.run.violations();
    let nothing_judged = audit.run.nothing_judged();
    audit.finish(&about, stopped.as_deref(), args.versions.deadline.max_time)?;
    warn_unread(&unread, &failed);
    if nothing_judged {
        // Not "clean": a script must not read "no violation" from an audit that judged
        // nothing (issue 35). The status of a run with nothing read.
        bail!(
            "nothing could be judged: every robot request came before the first known version (--robots FILE judges them all)"
        );
    }
    Ok(if violations > 0 { Outcome::Findings } else { Outcome::Clean })
}

/// After the report, with its other warnings: the logs the deadline left unread, and
/// those that could not be read.
fn warn_unread(unread: &[String], failed: &[color_eyre::eyre::Report]) {
    if !unread.is_empty() {
        super::stderr_line(format_args!("robotscope: warning: not read, for --max-time: {}", unread.join(", ")));
    }
    for error in failed {
        super::stderr_line(format_args!("robotscope: warning: {}", sanitize_str(&format!("{error:#}"))));
    }
}

/// What checks the robots' addresses: the lists at hand (their warnings said now), and
/// the DNS when --rdns asks it.
fn identity_checks(options: &IdentityOptions) -> Result<(Verifier, Option<ReverseDns>)> {
    let (verifier, warnings) =
        crate::audit::lists::verifier(&options.bot_ips).map_err(|why| color_eyre::eyre::eyre!("--bot-ips: {why}"))?;
    for warning in warnings {
        super::stderr_line(format_args!("robotscope: warning: {warning}"));
    }
    let rdns = options
        .rdns
        .then(|| ReverseDns::new(options.dns_server, DNS_TIMEOUT))
        .transpose()
        .map_err(|why| color_eyre::eyre::eyre!("--rdns: {why}"))?;
    Ok((verifier, rdns))
}

/// The versions that judge the requests, and what to call them.
fn versions(args: &AuditArgs) -> Result<(Timeline, String)> {
    let limits = args.source_options.limits(None);
    if let Some(path) = &args.robots_file {
        // The run's deadline bounds the read too: a FIFO without a writer must not hold
        // the audit past --max-time.
        let wait = args.versions.deadline.max_time;
        let (bytes, cut) = crate::fetch::read_file_capped(path, args.source_options.max_file_bytes, wait)
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

impl Audit<'_> {
    /// Reads a log through, writing its rows and showing how far it has got; false when
    /// the deadline stopped it.
    fn read_log(&mut self, log: &str) -> Result<bool, crate::audit::run::AuditError> {
        let Audit { run, rows, progress, started } = self;
        let mut on_row = |run: &Run<'_>, row: &Row<'_>| write_row(rows, run, row);
        let mut on_progress = |run: &Run<'_>, log: &str| show_progress(progress.as_ref(), *started, run, log);
        run.read_log(log, &mut on_row, &mut on_progress)
    }

    fn clear_progress(&mut self) {
        if let Some(bar) = self.progress.take() {
            bar.finish_and_clear();
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
        let run = &self.run;
        let violations = run.violations();
        let forged: u64 = run.tallies.iter().map(|tally| tally.identity_count(Identity::Forged)).sum();
        // The warnings come after the report, where a reader's eye ends.
        let warn = |bad_lines: &[String]| {
            for bad in bad_lines {
                super::stderr_line(format_args!("robotscope: warning: unreadable line {bad}"));
            }
            let unjudged = run.unjudged();
            if unjudged > 0 {
                let first = run.timeline.versions().first().and_then(|version| version.since);
                super::stderr_line(format_args!(
                    "robotscope: warning: {} came before the first known version{}: unjudged, neither allowed nor a \
                     violation",
                    plural(to_usize(unjudged), "robot request"),
                    first.map(|since| format!(" ({})", since.strftime("%Y-%m-%d %H:%M:%S UTC"))).unwrap_or_default()
                ));
            }
            if let Some((asked, unanswered)) = run.dns_answers()
                && unanswered > 0
            {
                super::stderr_line(format_args!(
                    "robotscope: warning: reverse DNS: {unanswered} of {} had no answer in time: their requests are \
                     judged by the operator's published ranges alone (forged when outside them, unverifiable when \
                     no list of the operator is at hand)",
                    plural(asked, "address")
                ));
            }
            if run.robots_left_out > 0 {
                super::stderr_line(format_args!(
                    "robotscope: warning: the logs name more than {MAX_ROBOTS} robots: {} of those past them left out",
                    plural(to_usize(run.robots_left_out), "request")
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
                for counts in &run.report(false).robots {
                    let record = RobotRecord { kind: "robot", counts };
                    finish_output(json::write_line(&mut out, &record))?;
                }
                let summary = Summary {
                    kind: "summary",
                    lines: run.lines,
                    unreadable: run.unreadable,
                    robot_requests: run.robot_requests,
                    violations,
                    forged,
                    left_out: run.robots_left_out,
                };
                finish_output(json::write_line(&mut out, &summary))?;
            }
            let flushed = finish_output(out.flush());
            warn(&run.bad_lines);
            return flushed;
        }
        let mut out = BufWriter::new(io::stdout().lock());
        let result = self.write_text(&mut out, about, violations).and_then(|()| out.flush());
        warn(&self.run.bad_lines);
        finish_output(result)
    }

    fn write_text(&self, out: &mut dyn Write, about: &str, violations: u64) -> io::Result<()> {
        let run = &self.run;
        writeln!(
            out,
            "{} read ({} unreadable), {} judged against {}",
            plural(to_usize(run.lines), "log line"),
            run.unreadable,
            plural(to_usize(run.robot_requests), "robot request"),
            sanitize_str(about)
        )?;
        if run.tallies.is_empty() {
            return writeln!(out, "No robot the audit judges came in these logs.");
        }
        writeln!(out)?;
        writeln!(
            out,
            "{:<24} {:>9} {:>10} {:>9} {:>8} {:>8} {:>10} {:>12}",
            "robot", "requests", "violations", "tolerated", "unjudged", "forged", "robots.txt", "crawl-delay"
        )?;
        for tally in run.by_requests() {
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
            let forged =
                if tally.was_checked() { tally.identity_count(Identity::Forged).to_string() } else { "-".to_owned() };
            writeln!(
                out,
                "{:<24} {:>9} {:>10} {:>9} {:>8} {:>8} {:>10} {:>12}",
                sanitize_str(&tally.label),
                tally.requests,
                tally.count(Verdict::Violation),
                tally.count(Verdict::Tolerated),
                tally.count(Verdict::Unjudged),
                forged,
                fetched,
                delay
            )?;
        }
        self.write_identity_note(out)?;
        let refused: Vec<String> = run
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
        if run.nothing_judged() {
            return writeln!(
                out,
                "\nNothing could be judged: every robot request came before the first known version of the \
                 robots.txt, so no violation is known, nor that there was none."
            );
        }
        if violations == 0 {
            return writeln!(out, "\nNo violations.");
        }
        writeln!(out, "\nViolations, by the line that decided:")?;
        let mut broken: Vec<_> = run.broken.iter().collect();
        broken.sort_by(|a, b| b.1.count.cmp(&a.1.count).then_with(|| a.0.cmp(b.0)));
        for ((index, version, line, forged), group) in broken {
            let rule = match (line, &group.rule) {
                (Some(line), Some(rule)) => format!("line {line} `{}`", sanitize_str(rule)),
                (_, Some(why)) => sanitize_str(why).into_owned(),
                _ => "the rules".to_owned(),
            };
            let version = run
                .version_time(*version)
                .map_or_else(|| "the file".to_owned(), |time| format!("the version of {time}"));
            let when = if group.first == group.last {
                format!("at {}", group.first.strftime("%Y-%m-%d %H:%M:%S"))
            } else {
                format!("{} to {}", group.first.strftime("%Y-%m-%d %H:%M:%S"), group.last.strftime("%Y-%m-%d %H:%M:%S"))
            };
            writeln!(
                out,
                "  {}{}: {} by {rule} of {version}, {when}, e.g. {}",
                sanitize_str(&run.tallies[*index].label),
                if *forged { " (forged)" } else { "" },
                plural(to_usize(group.count), "request"),
                sanitize_str(&group.example)
            )?;
        }
        Ok(())
    }
}

impl Audit<'_> {
    /// What the addresses were checked against, and the forged requests by address.
    fn write_identity_note(&self, out: &mut dyn Write) -> io::Result<()> {
        let lists: Vec<String> = self
            .run
            .verifier
            .lists()
            .map(|list| {
                let made = list.created.as_deref().map(|created| format!(" {}", created.get(..10).unwrap_or(created)));
                sanitize_str(&format!("{}{} ({})", list.name, made.unwrap_or_default(), list.from)).into_owned()
            })
            .collect();
        let dns = if self.run.rdns.is_some() { ", and reverse DNS" } else { "" };
        writeln!(out, "\nAddresses checked against{dns}:")?;
        // The lists, a few to a line.
        if lists.is_empty() {
            writeln!(out, "  no list")?;
        }
        for chunk in lists.chunks(3) {
            writeln!(out, "  {}", chunk.join(", "))?;
        }
        writeln!(
            out,
            "forged \"-\": nothing to check that robot against (robotscope bots update fetches the operators' lists; \
             --rdns asks the DNS). crawl-delay \"-\": no request came sooner after the one before than the \
             Crawl-delay in force (or none is set); \"N (≥Ts)\": N did, the shortest gap T seconds."
        )
    }
}

/// On a terminal: a bar over the logs' bytes when each is a regular file read as it is
/// (its size is then what is read), else a spinner; what has been read and how fast
/// beside it.
fn progress_bar(logs: &[String]) -> Option<indicatif::ProgressBar> {
    let bar = super::stderr_spinner()?;
    let style = indicatif::ProgressStyle::with_template("[{bar:32}] {percent:>3}% {msg}");
    if let (Some(total), Ok(style)) = (plain_size(logs), style) {
        bar.set_length(total);
        bar.set_style(style.progress_chars("=> "));
    }
    Some(bar)
}

/// The logs' bytes together, when each is a regular file that is not gzipped.
fn plain_size(logs: &[String]) -> Option<u64> {
    logs.iter().try_fold(0_u64, |total, log| {
        let metadata = std::fs::metadata(log).ok().filter(std::fs::Metadata::is_file)?;
        let mut magic = [0_u8; 2];
        let read = std::io::Read::read(&mut std::fs::File::open(log).ok()?, &mut magic).ok()?;
        (read < 2 || magic != [0x1f, 0x8b]).then(|| total + metadata.len())
    })
}

/// What has been read, and how fast, on the progress line.
fn show_progress(bar: Option<&indicatif::ProgressBar>, started: Instant, run: &Run<'_>, log: &str) {
    if let Some(bar) = bar {
        // The bytes of the lines read and their line ends.
        bar.set_position(run.bytes_read + run.lines);
        let seconds = started.elapsed().as_secs_f64().max(0.001);
        #[expect(clippy::cast_precision_loss, clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let per_second = (run.lines as f64 / seconds) as u64;
        let name = if log == "-" { "standard input".into() } else { sanitize_str(log) };
        bar.set_message(format!(
            "{name}: {} read · {} · {per_second} lines/s",
            crate::fetch::size_label(to_usize(run.bytes_read)),
            plural(to_usize(run.lines), "line")
        ));
    }
}

/// Writes a request's row in JSON or CSV, when rows are written. A closed pipe ends the
/// output, not the audit's exit status.
fn write_row(rows: &mut Option<(Box<dyn Write + '_>, bool)>, run: &Run<'_>, row: &Row<'_>) {
    let Some((out, csv)) = rows else { return };
    let request = row.request;
    let record = RequestRow {
        kind: "request",
        log_line: row.number,
        time: request.time.strftime("%Y-%m-%dT%H:%M:%SZ").to_string(),
        ip: &request.ip,
        user_agent: &request.user_agent,
        agent: &run.tallies[row.robot].label,
        path: &request.target,
        verdict: row.judgement.verdict.name(),
        line: row.judgement.line,
        rule: row.judgement.rule.as_deref(),
        version: run.version_time(row.judgement.version),
        identity: row.identity.name(),
    };
    let written = if *csv { write_csv_row(out, &record) } else { json::write_line(out, &record) };
    if written.is_err() {
        *rows = None;
    }
}

fn to_usize(count: u64) -> usize {
    usize::try_from(count).unwrap_or(usize::MAX)
}

/// A robot's `--json` object: its type, then its counts.
#[derive(Debug, Serialize)]
struct RobotRecord<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(flatten)]
    counts: &'a crate::audit::run::RobotCounts,
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
    /// Requests of robots past the 1,000 judged, not judged.
    left_out: u64,
}

/// A CSV row: fields with a comma, quote or line break quoted, quotes doubled; control
/// characters escaped, as everywhere robotscope writes text from outside.
fn write_csv_row(out: &mut dyn Write, row: &RequestRow<'_>) -> io::Result<()> {
    // A User-Agent or a path is the log writer's choosing: guarded (`cli::csv`).
    use super::csv::Field::{Text, Value};
    let (log_line, line) = (row.log_line.to_string(), row.line.map(|n| n.to_string()).unwrap_or_default());
    super::csv::write_record(
        out,
        [
            Value(&log_line),
            Value(&row.time),
            Text(row.ip),
            Text(row.user_agent),
            Text(row.agent),
            Text(row.path),
            Value(row.verdict),
            Value(&line),
            Text(row.rule.unwrap_or_default()),
            Value(row.version.as_deref().unwrap_or_default()),
            Value(row.identity),
        ],
    )
}
