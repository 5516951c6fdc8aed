//! The non-interactive subcommands: `check`, `lint`, `fix`, `compare`, `page` (in
//! `cli/page.rs`), `audit` (in `cli/audit.rs`) and `robots`.
//!
//! Each subcommand writes to standard output and returns an [`Outcome`]; `main` turns
//! the outcome into the exit status, in one place. Text from the file is escaped before
//! it is printed ([`policy::sanitize`]), because standard output is often a terminal.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use color_eyre::eyre::{Result, WrapErr, bail};
use serde::Serialize;

use crate::columns::{Cell, Column};
use crate::fetch::{self, FetchWarning, Limits, Retrieved, Source};
use crate::history::StoreChoice;
use crate::policy::agent::{is_valid_token, suggest_token};
use crate::policy::escape::{sanitize, sanitize_lines, sanitize_lines_keeping_crlf, sanitize_str};
use crate::policy::lint::{Edit, Fix};
use crate::policy::paths::path_lines;
use crate::policy::request::{Request, UrlMode};
use crate::policy::usage::Category;
use crate::policy::{self, Availability, Reading, Robot, RobotsTxt, Severity};
use crate::robots_db::{Purpose, RobotsDb};
use crate::words::plural;

/// A line on standard error, like `eprintln!`, except that a line that cannot be
/// written is dropped: `eprintln!` panics when standard error is a closed pipe
/// (`2>&1 | head -1`), and the panic's own report then aborts the process.
macro_rules! note {
    ($($arg:tt)*) => {
        $crate::cli::stderr_line(format_args!($($arg)*))
    };
}

mod answers;
mod audit;
mod before_after;
mod block;
mod bots;
mod csv;
mod history;
mod json;
mod page;
mod robots;
mod sitemaps;
mod survey;

use self::csv::Field;

use answers::{Answerer, CheckRecord, Format, Only, RequestNotes};
pub use audit::{AuditArgs, audit};
pub use block::{BlockArgs, UnblockArgs, block_command as block, unblock_command as unblock};
pub use bots::{BotsArgs, bots};
pub use history::{DiffArgs, HistoryArgs, diff, history, keep_in_store};
pub use page::{PageArgs, page};
pub use robots::{RobotsArgs, registry, robots};
pub use sitemaps::{SitemapsArgs, sitemaps};
pub use survey::{SurveyArgs, survey};

/// Writes one line to standard error; see `note!`. Quiet when it cannot.
pub fn stderr_line(line: std::fmt::Arguments<'_>) {
    let mut stderr = io::stderr().lock();
    let _ = stderr.write_fmt(line).and_then(|()| stderr.write_all(b"\n"));
}

/// A spinner on standard error while a long command runs, when it is a terminal (none
/// into a pipe or a file).
fn stderr_spinner() -> Option<indicatif::ProgressBar> {
    io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.enable_steady_tick(Duration::from_millis(120));
        bar
    })
}

/// What a subcommand found, which decides the exit status (like grep's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Everything asked about is allowed, or the file has no errors: exit 0.
    Clean,
    /// Something is disallowed, or the file has errors: exit 1.
    Findings,
    /// The site's robots.txt could not be had (a 5xx or 429, no answer, a timeout): the
    /// answers are RFC 9309's "disallow everything" for an outage, not the site's
    /// rules: exit 3, so that CI tells an outage from a block.
    Unavailable,
    /// The explorer was ended by this signal (after keeping unsaved edits): exit 128
    /// plus its number, as a shell reports a process a signal ended.
    EndedBy {
        /// The signal's number.
        signal: i32,
    },
}

/// Options for every command that reads a SOURCE.
#[derive(Debug, Clone, Args)]
pub struct SourceOptions {
    /// Seconds the whole fetch of a site's robots.txt (or of a page) may take (1 or more).
    #[arg(long, value_name = "SECS", default_value_t = 30, value_parser = positive_seconds)]
    pub timeout: u64,
    /// Bytes of a fetched robots.txt (or page) to read; the rest is never downloaded
    /// (1 or more).
    #[arg(long, value_name = "N", default_value_t = 512_000, value_parser = positive_count)]
    pub max_bytes: usize,
    /// Bytes of a local file or of standard input to read; the rest is left unread
    /// (1 to 1 GiB; default 32 MiB).
    #[arg(long, value_name = "N", default_value_t = fetch::MAX_FILE_BYTES, value_parser = file_cap)]
    pub max_file_bytes: usize,
    /// The User-Agent header sent when fetching (default: robotscope/VERSION); printable
    /// ASCII only.
    #[arg(long, value_name = "STRING", value_parser = user_agent_header)]
    pub user_agent: Option<String>,
    /// Read every byte of the robots.txt under RFC 9309 too. By default only its first
    /// 500 KiB count, from a site, a file or standard input alike, as Google reads it
    /// (RFC 9309 §2.5).
    #[arg(long)]
    pub whole_file: bool,
    /// Send the User-Agent of the robot being checked (the first -r robot, or the
    /// explorer's selected robot) instead of robotscope's own.
    #[arg(long, conflicts_with = "user_agent")]
    pub as_robot: bool,
    /// The history store that keeps every robots.txt fetched (default: history.sqlite3
    /// in `$XDG_DATA_HOME/robotscope`, or the platform's data directory).
    #[arg(long, value_name = "PATH", conflicts_with = "no_store")]
    pub store: Option<PathBuf>,
    /// Keep nothing in the history store (`history` then works in memory).
    #[arg(long)]
    pub no_store: bool,
}

/// A count of 1 or more (`--max-bytes 0` would read nothing and mean nothing).
fn positive_count(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("must be 1 or more".to_owned()),
        Ok(count) => Ok(count),
        Err(error) => Err(error.to_string()),
    }
}

/// The longest timeout or run `--timeout` and `--max-time` take: a day. Longer is no
/// limit at all, and a number near `u64::MAX` would overflow the clock.
const LONGEST_WAIT: Duration = Duration::from_secs(24 * 60 * 60);

/// A timeout of 1 second to a day, refused in the same words as a count.
fn positive_seconds(text: &str) -> Result<u64, String> {
    let seconds = positive_count(text).and_then(|count| u64::try_from(count).map_err(|error| error.to_string()))?;
    if seconds > LONGEST_WAIT.as_secs() {
        return Err(format!("must be at most {} (a day)", LONGEST_WAIT.as_secs()));
    }
    Ok(seconds)
}

/// A duration as the command line writes one: `600` (seconds), `90s`, `10m`, `1h30m`
/// (jiff's friendly format), `2d` (days of 24 hours, which jiff leaves to calendars),
/// from `shortest` to `longest` (said as `longest_words`). The one reading of every
/// duration flag (`--max-time`, `audit --grace`).
fn duration_within(text: &str, shortest: Duration, longest: Duration, longest_words: &str) -> Result<Duration, String> {
    let text = text.trim();
    let days = || Some(Duration::from_secs(text.strip_suffix('d')?.parse::<u64>().ok()?.checked_mul(24 * 3600)?));
    let duration = match text.parse::<u64>() {
        Ok(seconds) => Some(Duration::from_secs(seconds)),
        Err(_) => text
            .parse::<jiff::SignedDuration>()
            .ok()
            .and_then(|duration| Duration::try_from(duration).ok())
            .or_else(days),
    }
    .ok_or_else(|| format!("`{text}` is not a duration: write 600 (seconds), 90s, 10m, 1h30m or 2d"))?;
    if duration < shortest {
        return Err(format!("must be {}s or more", shortest.as_secs()));
    }
    if duration > longest {
        return Err(format!("must be at most {longest_words}"));
    }
    Ok(duration)
}

/// `--max-time`: from a second to a day.
fn run_duration(text: &str) -> Result<Duration, String> {
    duration_within(text, Duration::from_secs(1), LONGEST_WAIT, "24h (a day)")
}

/// The deadline of a whole run (`sitemaps`, `history`): every fetch has `--timeout`, but
/// a run of many could take hours.
#[derive(Debug, Clone, Args)]
pub struct RunDeadline {
    /// The most the whole run may take: 600, 90s, 10m, 1h30m (up to 24h). What was read
    /// by then is kept and reported, with what was not.
    #[arg(long = "max-time", value_name = "DURATION", default_value = "10m", value_parser = run_duration)]
    pub max_time: Duration,
}

/// A cap on what is read of a local file: 1 byte to 1 GiB, the most robotscope parses
/// (`lex::MAX_SOURCE_BYTES`).
fn file_cap(text: &str) -> Result<usize, String> {
    let count = positive_count(text)?;
    if count > crate::policy::lex::MAX_SOURCE_BYTES {
        return Err(format!("must be at most {} (1 GiB)", crate::policy::lex::MAX_SOURCE_BYTES));
    }
    Ok(count)
}

/// A User-Agent header value: printable ASCII and spaces (RFC 9110 §5.5 allows no
/// control characters; a CR or LF would end the header).
fn user_agent_header(text: &str) -> Result<String, String> {
    match text.chars().find(|c| !(c.is_ascii_graphic() || *c == ' ')) {
        Some(c) => Err(format!("a User-Agent header holds printable ASCII only, and {c:?} is not")),
        None => Ok(text.to_owned()),
    }
}

impl SourceOptions {
    /// Where fetched versions are kept.
    #[must_use]
    pub fn store_choice(&self) -> StoreChoice {
        match (&self.store, self.no_store) {
            (_, true) => StoreChoice::Off,
            (Some(path), false) => StoreChoice::At(path.clone()),
            (None, false) => StoreChoice::Default,
        }
    }

    /// The fetch limits; `robot_user_agent` is the User-Agent of the robot being
    /// checked, sent when `--as-robot` asks for it.
    #[must_use]
    pub fn limits(&self, robot_user_agent: Option<&str>) -> Limits {
        let user_agent = match (&self.user_agent, self.as_robot, robot_user_agent) {
            (Some(agent), _, _) => agent.clone(),
            (None, true, Some(agent)) => agent.to_owned(),
            _ => fetch::default_user_agent(),
        };
        Limits {
            timeout: Duration::from_secs(self.timeout),
            max_bytes: self.max_bytes,
            max_file_bytes: self.max_file_bytes,
            user_agent,
            whole_file: self.whole_file,
            ..Limits::default()
        }
    }
}

/// The robots a subcommand answers for: `-a`, `-r`, `-s`.
#[derive(Debug, Clone, Args)]
pub struct RobotSelection {
    /// A robot's product token, taken exactly as Google's library takes it (no profile,
    /// no fallback; reading rfc9309 unless -s says otherwise). Repeatable.
    #[arg(short = 'a', long = "agent", value_name = "AGENT")]
    pub agents: Vec<String>,
    /// A robot profile from `robotscope robots`, by name or token: its fallback chain,
    /// flags and default reading apply. Repeatable.
    #[arg(short = 'r', long = "robot", value_name = "ROBOT")]
    pub robots: Vec<String>,
    /// Every robot profile of a purpose, as -r takes them: search, ai-training,
    /// ai-search, ai-assistant, ai-agent, archive, seo, preview, other or unknown. Repeatable.
    #[arg(short = 'p', long = "purpose", value_name = "PURPOSE", value_parser = clap::value_parser!(Purpose))]
    pub purposes: Vec<Purpose>,
    /// The reading of the standard for every robot: rfc9309, draft1996 or koster1994
    /// (default: rfc9309 for -a, each profile's own for -r).
    #[arg(short = 's', long = "semantics", value_name = "SEMANTICS", value_parser = parse_reading)]
    pub semantics: Option<Reading>,
    /// Where each -a and each -r stood among the arguments (see [`Self::note_order`]);
    /// without it, the -a robots come first.
    #[arg(skip)]
    pub positions: Option<(Vec<usize>, Vec<usize>)>,
}

impl RobotSelection {
    /// Notes where each -a and -r stood on the command line, so that results come in
    /// the order the robots were named (`-r Slurp -a Googlebot`: Slurp first).
    pub fn note_order(&mut self, matches: &clap::ArgMatches) {
        let at = |id: &str| matches.indices_of(id).map(Iterator::collect).unwrap_or_default();
        self.positions = Some((at("agents"), at("robots")));
    }

    /// True when no robot was named.
    fn is_empty(&self) -> bool {
        self.agents.is_empty() && self.robots.is_empty() && self.purposes.is_empty()
    }

    /// The User-Agent of the first `-r` robot, sent with `--as-robot`.
    fn user_agent<'a>(&self, db: &'a RobotsDb) -> Option<&'a str> {
        self.robots.first().and_then(|name| db.find(name)).map(|p| p.user_agent.as_str())
    }

    /// The robots named, or else the default comparison (`compare`, `page`).
    fn queries_or_defaults(&self, db: &RobotsDb) -> Result<Vec<RobotQuery>> {
        if self.is_empty() { Ok(default_queries(db, self.semantics)) } else { robot_queries(self, db) }
    }
}

/// `robotscope check`: may these robots fetch these paths?
#[derive(Debug, Clone, Args)]
pub struct CheckArgs {
    /// The robots.txt: a file, `-` for standard input, or a site (example.com).
    #[arg(value_name = "SOURCE")]
    pub source: String,
    #[command(flatten)]
    pub robots: RobotSelection,
    /// One JSON object per line instead of text.
    #[arg(long)]
    pub json: bool,
    /// Write each result as soon as it is known, even into a pipe.
    #[arg(long)]
    pub line_buffered: bool,
    /// After each answer, what the robot may do with what it fetches: the AI usage
    /// preferences (Content-Usage, Content-Signal) of an allowed path, RFC 9309 only.
    #[arg(long)]
    pub usage: bool,
    #[command(flatten)]
    pub filter: VerdictFilter,
    #[command(flatten)]
    pub url_options: UrlOptions,
    /// Paths or URLs to check; without any, one per line is read from standard input.
    #[arg(value_name = "PATH_OR_URL")]
    pub paths: Vec<String>,
    #[command(flatten)]
    pub source_options: SourceOptions,
}

/// `--allowed` / `--disallowed`: print only the paths with that verdict, as grep prints
/// only the lines that match.
#[derive(Debug, Clone, Args)]
pub struct VerdictFilter {
    /// Print only the paths that every robot asked about may fetch, one per line as
    /// given (like grep); with --json, only the allowed results.
    #[arg(long, conflicts_with = "disallowed")]
    pub allowed: bool,
    /// Print only the paths that some robot asked about may not fetch, one per line as
    /// given (like grep); with --json, only the disallowed results.
    #[arg(long)]
    pub disallowed: bool,
}

/// How paths and URLs are read: `--raw-url`.
#[derive(Debug, Clone, Args)]
pub struct UrlOptions {
    /// Take each URL byte for byte, as Google's library does (its contract is an
    /// already-encoded URL; `//x/y` names the host x), instead of reading it as a
    /// crawler requests it (non-ASCII percent-encoded, escapes upper-cased).
    #[arg(long)]
    pub raw_url: bool,
}

impl UrlOptions {
    /// How paths are read.
    #[must_use]
    pub fn mode(&self) -> UrlMode {
        if self.raw_url { UrlMode::Raw } else { UrlMode::AsCrawlersSend }
    }
}

fn parse_reading(text: &str) -> Result<Reading, String> {
    text.parse().map_err(|e: policy::reading::UnknownReading| e.to_string())
}

/// One robot to check for, with the name it is reported under.
#[derive(Debug, Clone)]
pub struct RobotQuery {
    /// The name printed in results: the `-a` string or the profile's token.
    pub label: String,
    /// Who the policy layer evaluates for.
    pub robot: Robot,
    /// The reading to decide under.
    pub reading: Reading,
}

/// Turns `-a` and `-r` into robots to check for; warns on standard error about `-a`
/// strings that RFC 9309 readers cannot match.
pub fn robot_queries(selection: &RobotSelection, db: &RobotsDb) -> Result<Vec<RobotQuery>> {
    let RobotSelection { agents, robots, purposes, semantics, positions } = selection;
    let semantics = *semantics;
    let position = |list: usize, index: usize| {
        let given = positions.as_ref().and_then(|(a, r)| [a, r][list].get(index).copied());
        given.unwrap_or(list * agents.len() + index)
    };
    let mut named: Vec<(usize, RobotQuery)> = Vec::new();
    for (index, agent) in agents.iter().enumerate() {
        let reading = semantics.unwrap_or_default();
        if reading == Reading::Rfc9309 && !is_valid_token(agent) {
            let hint = suggest_token(agent).map(|token| format!("; did you mean -a {token}?")).unwrap_or_default();
            note!(
                "robotscope: warning: '{}' is not a product token, so RFC 9309 readers match it to no named group{hint}",
                sanitize(agent.as_bytes())
            );
        }
        named.push((position(0, index), RobotQuery { label: agent.clone(), robot: Robot::from_agent(agent), reading }));
    }
    for (index, name) in robots.iter().enumerate() {
        let Some(profile) = db.find(name) else {
            // A User-Agent header pasted whole names its robot by its product token.
            let hint = suggest_token(name)
                .and_then(|token| db.find(&token))
                .map(|profile| format!("; its product token names a profile: -r {}", profile.token))
                .unwrap_or_default();
            bail!("no robot profile is called '{}' (see `robotscope robots`){hint}", sanitize(name.as_bytes()));
        };
        // The name as its operator writes it (`AI2Bot`), not the token RFC 9309 cuts
        // from it (`AI`).
        let query = RobotQuery {
            label: profile.written().to_owned(),
            robot: profile.robot(),
            reading: semantics.unwrap_or(profile.reading),
        };
        named.push((position(1, index), query));
    }
    named.sort_by_key(|(position, _)| *position);
    let mut queries: Vec<RobotQuery> = named.into_iter().map(|(_, query)| query).collect();
    // -p: the profiles of each purpose, after the robots named one by one, each once.
    for profile in db.profiles().iter().filter(|profile| purposes.iter().any(|&purpose| profile.serves(purpose))) {
        if !queries.iter().any(|query| query.label.eq_ignore_ascii_case(profile.written())) {
            let reading = semantics.unwrap_or(profile.reading);
            queries.push(RobotQuery { label: profile.written().to_owned(), robot: profile.robot(), reading });
        }
    }
    if queries.is_empty() {
        // No robot named: answer for a robot that no group names, which gets `*`.
        queries.push(RobotQuery {
            label: "*".to_owned(),
            robot: Robot::from_agent("*"),
            reading: semantics.unwrap_or_default(),
        });
    }
    Ok(queries)
}

/// The robots compared when none are named: the explorer's default compare columns
/// (Googlebot, bingbot, Slurp, Scooter, GPTBot) and a robot that only `*` matches.
fn default_queries(db: &RobotsDb, semantics: Option<Reading>) -> Vec<RobotQuery> {
    let profiles = crate::robots_db::DEFAULT_COMPARISON.iter().filter_map(|token| db.find(token));
    profiles
        .map(|profile| RobotQuery {
            label: profile.name.clone(),
            robot: profile.robot(),
            reading: semantics.unwrap_or(profile.reading),
        })
        .chain(std::iter::once(RobotQuery {
            label: "*".to_owned(),
            robot: Robot::from_agent("*"),
            reading: semantics.unwrap_or_default(),
        }))
        .collect()
}

/// A SOURCE, read or fetched, parsed.
#[derive(Debug)]
pub struct Loaded {
    /// The parsed file (empty when the fetch failed), as robots read it: under RFC 9309
    /// its first 500 KiB, unless `--whole-file` ([`Limits::rfc9309_limit`]).
    pub txt: RobotsTxt,
    /// What the fetch outcome means for the rules.
    pub availability: Availability,
    /// The origins (`https://host:port`) whose robots.txt this is: the one asked for and,
    /// after redirects, the one that answered. Empty for a file or standard input.
    pub site_origins: Vec<String>,
    /// When only a part of the file was read (a cap was reached), the warning that says
    /// so: `lint` and `fix` cannot speak for the part not read.
    pub read_in_part: Option<FetchWarning>,
}

/// See [`Loaded::site_origins`].
fn site_origins(retrieved: &Retrieved) -> Vec<String> {
    let Retrieved::Site { url, outcome, .. } = retrieved else { return Vec::new() };
    let answered = outcome.as_ref().ok().map(|fetched| &fetched.final_url);
    std::iter::once(url).chain(answered).map(|url| url.origin().ascii_serialization()).collect()
}

/// Reads or fetches a SOURCE and parses it. Fetch outcomes that are not errors (a
/// 404, a server that cannot be reached) are reported on standard error and carried in
/// [`Loaded::availability`], because every reading has an answer for them.
pub fn load(spec: &str, options: &SourceOptions, robot_user_agent: Option<&str>) -> Result<Loaded> {
    let source = Source::resolve(spec)?;
    let limits = options.limits(robot_user_agent);
    let runtime =
        tokio::runtime::Builder::new_current_thread().enable_all().build().wrap_err("starting the runtime")?;
    let loaded = runtime.block_on(crate::load::load(source, &limits, &options.store_choice()))?;
    report(&loaded.warnings);
    // Every command asks the rules of what it loaded: said now if there is no room.
    policy::room_for(policy::Work::Match, loaded.retrieved.bytes().len())?;
    let retrieved = loaded.retrieved;
    let (availability, site_origins) = (retrieved.availability(), site_origins(&retrieved));
    let read_in_part = retrieved.read_in_part(&limits);
    Ok(Loaded { txt: limits.parse(retrieved.into_bytes()), availability, site_origins, read_in_part })
}

/// Tells standard error what a load brought that the user should know.
fn report(warnings: &[crate::load::Warning]) {
    for warning in warnings {
        let kind = if warning.is_problem() { "warning: " } else { "" };
        note!("robotscope: {kind}{}", sanitize_str(&warning.to_string()));
    }
}

/// Tells standard error how a fetch went, when there is something to tell (for the
/// commands that fetch robots.txt within a deadline of their own).
fn report_fetch(retrieved: &Retrieved, limits: &Limits) {
    report(&crate::load::retrieval_warnings(retrieved, limits));
}

/// `robotscope check`.
pub fn check(args: &CheckArgs, db: &RobotsDb) -> Result<Outcome> {
    if args.source == "-" && args.paths.is_empty() {
        bail!("the robots.txt comes from standard input, so give the paths as arguments");
    }
    let queries = robot_queries(&args.robots, db)?;
    let robot_user_agent = args.robots.user_agent(db);
    let loaded = load(&args.source, &args.source_options, robot_user_agent)?;
    let (txt, availability) = (&loaded.txt, loaded.availability);
    let mode = args.url_options.mode();
    let column_specs = || queries.iter().map(|q| (q.label.clone(), q.robot.clone(), q.reading));
    let columns = Column::all_as(txt, column_specs(), mode);
    let only = match (args.filter.allowed, args.filter.disallowed) {
        (true, _) => Only::Allowed,
        (_, true) => Only::Disallowed,
        _ => Only::All,
    };
    let format = match (args.json, args.usage) {
        (true, _) => Format::Json,
        (false, true) => Format::TextWithUsage,
        (false, false) => Format::Text,
    };
    let mut answerer = Answerer::new(txt, availability, &columns, format, mode, only, &loaded.site_origins);
    // A file longer than the RFC 9309 limit: what would reading it all say?
    let whole = txt.rfc9309_cut().map(|_| txt.whole().into_owned());
    let whole_columns = whole.as_ref().map(|whole| Column::all_as(whole, column_specs(), mode));
    if let (Some(whole), Some(columns)) = (&whole, &whole_columns) {
        answerer = answerer.comparing_with_whole(whole, columns);
    }
    let mut notes = RequestNotes::new(loaded.site_origins.clone()).with_cut(txt.rfc9309_cut());
    let stdout = io::stdout();
    // A person reading results as they come (or a program asking for that) gets each
    // one at once; a pipe or a file gets them in large writes.
    let interactive = args.line_buffered || stdout.is_terminal() || io::stdin().is_terminal();
    let mut out = BufWriter::with_capacity(256 * 1024, stdout.lock());
    let mut any_disallowed = false;
    let answered = if args.paths.is_empty() {
        answerer.answer_stream(io::stdin().lock(), &mut notes, &mut out, interactive, &mut any_disallowed)
    } else {
        answerer.answer_all(&args.paths, &mut notes, &mut out, &mut any_disallowed)
    };
    let flushed = answered.and_then(|()| out.flush());
    notes.finish();
    match flushed {
        Ok(()) => {}
        // A closed pipe (`| head`) ends the run quietly, as it does for grep and ripgrep;
        // the exit status still says whether what was answered had a disallowed path.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {}
        Err(e) if e.kind() == io::ErrorKind::InvalidData => bail!("standard input: {e}"),
        Err(e) => return Err(e).wrap_err("writing results"),
    }
    Ok(match (availability.is_outage(), any_disallowed) {
        (true, _) => Outcome::Unavailable,
        (false, true) => Outcome::Findings,
        (false, false) => Outcome::Clean,
    })
}

/// `robotscope lint`: what is wrong with a robots.txt.
#[derive(Debug, Clone, Args)]
pub struct LintArgs {
    /// The robots.txt: a file, `-` for standard input, or a site (example.com).
    #[arg(value_name = "SOURCE")]
    pub source: String,
    /// One JSON object per diagnostic instead of text.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub source_options: SourceOptions,
}

/// `robotscope fix`: the file with every fix applied.
#[derive(Debug, Clone, Args)]
pub struct FixArgs {
    /// The robots.txt: a file, `-` for standard input, or a site (example.com).
    #[arg(value_name = "SOURCE")]
    pub source: String,
    /// Print a unified diff against the original instead of the fixed file; exit 1
    /// when it is not empty, as diff(1) does.
    #[arg(long)]
    pub diff: bool,
    /// Print nothing (or, with --diff, the diff) and exit 1 when there is something to
    /// fix: for CI.
    #[arg(long)]
    pub check: bool,
    #[command(flatten)]
    pub source_options: SourceOptions,
}

/// One line of `lint --json` (DESIGN.md §4).
#[derive(Debug, Serialize)]
struct LintRecord<'a> {
    line: usize,
    column: usize,
    code: &'a str,
    severity: &'a str,
    message: &'a str,
    fix: Option<FixRecord<'a>>,
}

/// A fix as one replacement of one span (byte offsets, end exclusive), with its title
/// and the verdicts it changes.
#[derive(Debug, Serialize)]
struct FixRecord<'a> {
    title: &'a str,
    span: [usize; 2],
    replacement: String,
    /// How it was checked: `alone`, `with its kind` (many fixes in a large file), or
    /// null when it was not.
    checked: Option<&'static str>,
    /// The verdicts it changes, one per robot and reading (the first found).
    changes: Vec<FlipRecord>,
    /// Robots (each under one reading) with a verdict changed beyond those listed.
    more_changes: usize,
}

/// One verdict a fix changes.
#[derive(Debug, Serialize)]
struct FlipRecord {
    semantics: &'static str,
    agent: String,
    path: String,
    before: bool,
    after: bool,
}

impl FixRecord<'_> {
    /// Adds what the fix does to the verdicts.
    fn with_effect(mut self, effect: Option<&policy::impact::FixEffect>) -> Self {
        use policy::impact::FixEffect;
        match effect {
            Some(FixEffect::Alone(impact)) => {
                self.checked = Some("alone");
                self.changes = impact
                    .flips()
                    .iter()
                    .map(|flip| FlipRecord {
                        semantics: flip.reading.name(),
                        agent: flip.robot.clone(),
                        path: flip.path.clone(),
                        before: flip.before,
                        after: flip.after,
                    })
                    .collect();
                self.more_changes = impact.changed() - impact.flips().len();
            }
            Some(FixEffect::NoneTogether { .. }) => self.checked = Some("with its kind"),
            None => {}
        }
        self
    }
}

/// A fix's edits as one replacement: the span from the first edit's start to the last
/// edit's end, and what that span becomes.
fn single_edit<'a>(source: &[u8], fix: &'a Fix) -> FixRecord<'a> {
    let start = fix.edits().iter().map(|e| e.span().start).min().unwrap_or(0);
    let end = fix.edits().iter().map(|e| e.span().end).max().unwrap_or(start);
    let shifted: Vec<Edit> =
        fix.edits().iter().map(|e| Edit::new(e.span().start - start..e.span().end - start, e.replacement())).collect();
    let replacement = String::from_utf8_lossy(&policy::fix::apply_edits(&source[start..end], &shifted)).into_owned();
    FixRecord {
        title: fix.title(),
        span: [start, end],
        replacement,
        checked: None,
        changes: Vec::new(),
        more_changes: 0,
    }
}

/// `robotscope lint`.
pub fn lint(args: &LintArgs, db: &RobotsDb) -> Result<Outcome> {
    let Loaded { txt, availability, read_in_part, .. } = load(&args.source, &args.source_options, None)?;
    // A 404 or 503 answer's body is an error page, not the site's robots.txt: robots
    // read no rules from it (RFC 9309 §2.3.1), so there is nothing to lint, and a
    // script that lints its site must not read "0 errors" from a site that is down. The
    // status and what it means are already on standard error.
    if availability != Availability::Available {
        bail!("there is no robots.txt to lint: the server did not answer with one");
    }
    // Every byte is linted (a diagnostic says what RFC 9309 robots leave unread past
    // 500 KiB); each fix is checked on the file as robots read it. An address space too
    // small for it is said, not an abort midway.
    policy::room_for(policy::Work::Lint, txt.source().len())?;
    let mut diagnostics = policy::lint_checked(&txt);
    // What the registry knows of the robots named (issue 37), in line order with the rest.
    // Their fixes are checked as the file's own are: what they change is said.
    let mut registry = crate::robots_db::registry_diagnostics(&txt, db);
    policy::fix::check_fixes(&txt, &mut registry);
    diagnostics.extend(registry);
    diagnostics.sort_by_key(|d| (d.line(), d.span().start));
    if let Some(warning) = &read_in_part {
        // What was not read was not linted: "0 errors" would speak for it.
        policy::lint::read_in_part(&txt, &mut diagnostics, &warning.to_string());
    }
    let mut out = BufWriter::new(io::stdout().lock());
    let result = (|| -> io::Result<()> {
        for d in &diagnostics {
            let line = txt.line(d.line()).copied();
            let column = line.map_or(1, |l| {
                String::from_utf8_lossy(&txt.source()[l.start()..d.span().start.max(l.start()).min(l.content_end())])
                    .chars()
                    .count()
                    + 1
            });
            if args.json {
                let record = LintRecord {
                    line: d.line(),
                    column,
                    code: d.code().name(),
                    severity: d.severity().name(),
                    message: d.message(),
                    fix: d.fix().as_ref().map(|fix| single_edit(txt.source(), fix).with_effect(d.fix_effect())),
                };
                json::write_line(&mut out, &record)?;
            } else {
                writeln!(out, "{}:{column}: {} {}: {}", d.line(), d.severity(), d.code(), sanitize_str(d.message()))?;
                if let Some(fix) = &d.fix() {
                    let effect = d.fix_effect().map_or_else(
                        || {
                            " (not checked: too many fixes in a file this large; `fix` says what they change together)"
                                .to_owned()
                        },
                        |effect| format!(" ({effect})"),
                    );
                    writeln!(out, "    fix: {}{}", sanitize_str(fix.title()), sanitize_str(&effect))?;
                }
            }
        }
        if !args.json {
            let count = |severity| diagnostics.iter().filter(|d| d.severity() == severity).count();
            let with_fix = |made: bool| {
                diagnostics
                    .iter()
                    .filter(|d| d.fix().is_some() && crate::robots_db::fix_leaves_it(d.code()) != made)
                    .count()
            };
            let fixable = with_fix(true);
            let yours = match with_fix(false) {
                0 => String::new(),
                count => format!(" ({count} more whose fix is yours to choose)"),
            };
            writeln!(
                out,
                "{}, {}, {}; {fixable} can be fixed with `robotscope fix`{yours}",
                plural(count(Severity::Error), "error"),
                plural(count(Severity::Warning), "warning"),
                plural(count(Severity::Info), "note")
            )?;
        }
        out.flush()
    })();
    finish_output(result)?;
    Ok(if diagnostics.iter().any(|d| d.severity() == Severity::Error) { Outcome::Findings } else { Outcome::Clean })
}

/// `robotscope fix`.
pub fn fix(args: &FixArgs, db: &RobotsDb) -> Result<Outcome> {
    let Loaded { txt, availability, read_in_part, .. } = load(&args.source, &args.source_options, None)?;
    if availability != Availability::Available {
        // Printing the error page "fixed" would put it where a script expects the file.
        bail!("there is no robots.txt to fix: the server did not answer with one");
    }
    if read_in_part.is_some() {
        // The fixed file would end where reading stopped, mid-line perhaps: whoever
        // deploys it loses the rest. The warning above says how to read it all.
        bail!("only a part of the robots.txt was read, so there is no whole file to fix (see the warning above)");
    }
    policy::room_for(policy::Work::Fix, txt.source().len())?;
    let mut report = policy::fix::fix_all(txt.source());
    // Then the registry's (a near miss of a robot's name, a retired name's successor).
    let (text, applied) = crate::robots_db::registry_fixes(&RobotsTxt::parse(report.text().to_vec()), db);
    if applied > 0 {
        let before = report.applied();
        report = policy::fix::fix_all(&text).after(before + applied);
    }
    let changed = report.text() != txt.source();
    let effect = policy::fix::fix_all_effect(&txt, &report);
    let mut out = io::stdout().lock();
    let result = if args.diff {
        // The file as the user named it on both sides (`patch -p0` applies it): an
        // absolute path stays one, where `a/` and `b/` would make `a//etc/robots.txt`.
        let name = if args.source == "-" { "(standard input)" } else { args.source.as_str() };
        let diff = policy::diff::unified_diff_between(txt.source(), report.text(), name, name);
        // Escaped on a terminal. Into a file or a pipe the CR LF line ends stay (escaped,
        // a CR LF file's diff would apply nowhere), but what could drive a terminal is
        // escaped all the same: whoever reads the diff later reads it on one.
        let shown = if out.is_terminal() {
            sanitize_lines(diff.as_bytes())
        } else {
            sanitize_lines_keeping_crlf(diff.as_bytes())
        };
        if !out.is_terminal() && shown != diff {
            note!(
                "robotscope: the diff shows control characters of the file escaped, so patch(1) will not apply it; \
                 `robotscope fix FILE > NEW` writes the fixed file byte for byte"
            );
        }
        out.write_all(shown.as_bytes()).and_then(|()| out.flush())
    } else if args.check {
        Ok(())
    } else if out.is_terminal() {
        // Into a file or a pipe the fixed text goes byte for byte; on a terminal, what
        // could drive it is shown escaped.
        out.write_all(sanitize_lines(report.text()).as_bytes()).and_then(|()| out.flush())
    } else {
        out.write_all(report.text()).and_then(|()| out.flush())
    };
    finish_output(result)?;
    let applied = plural(report.applied(), "fix");
    let left = plural(report.remaining().len(), "diagnostic");
    // What the fixes do to the verdicts, every reading and every robot the file names:
    // a fix that changes one says so (issue 24).
    let effect = sanitize_str(&effect.to_string()).into_owned();
    if args.check {
        // A clean file: nothing at all, as `rustfmt --check` and the help promise.
        if changed {
            note!("robotscope: {applied} to apply, which {effect}; {left} left after them (see `robotscope lint`)");
        }
    } else {
        note!("robotscope: applied {applied}, which {effect}; {left} left (see `robotscope lint`)");
    }
    // The fixed file itself is no finding; a diff that is not empty, or a check that
    // finds fixes to make, is (as diff(1) and `rustfmt --check` say).
    Ok(if (args.diff || args.check) && changed { Outcome::Findings } else { Outcome::Clean })
}

/// A closed pipe (`| head`) ends output quietly, as it does for grep and ripgrep.
fn finish_output(result: io::Result<()>) -> Result<()> {
    match result {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(e).wrap_err("writing the output"),
        _ => Ok(()),
    }
}

/// `robotscope compare`: paths x robots (or readings), as a table, JSON or CSV.
#[derive(Debug, Clone, Args)]
pub struct CompareArgs {
    /// The robots.txt: a file, `-` for standard input, or a site (example.com).
    #[arg(value_name = "SOURCE")]
    pub source: String,
    #[command(flatten)]
    pub robots: RobotSelection,
    /// A column per reading for each robot.
    #[arg(long, conflicts_with = "semantics")]
    pub all_semantics: bool,
    /// A file of paths or URLs, one per line (after any given as arguments).
    #[arg(long, value_name = "FILE")]
    pub paths: Option<PathBuf>,
    /// One JSON object per cell, with the same fields as `check --json`.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// The matrix as CSV: a row per path, a column per robot.
    #[arg(long)]
    pub csv: bool,
    /// Cells show a usage category (train-ai, search or ai-input) instead of the crawl
    /// verdict: the preference and the line that states it.
    #[arg(long, value_name = "CATEGORY", value_parser = clap::value_parser!(Category))]
    pub usage: Option<Category>,
    #[command(flatten)]
    pub url_options: UrlOptions,
    /// Paths or URLs; without any (and without --paths), the paths the file's rules name.
    #[arg(value_name = "PATH")]
    pub path_args: Vec<String>,
    #[command(flatten)]
    pub source_options: SourceOptions,
}

/// `robotscope compare`.
pub fn compare(args: &CompareArgs, db: &RobotsDb) -> Result<Outcome> {
    let mut queries = args.robots.queries_or_defaults(db)?;
    if args.all_semantics {
        queries =
            queries.into_iter().flat_map(|q| Reading::ALL.map(|reading| RobotQuery { reading, ..q.clone() })).collect();
    }
    let loaded = load(&args.source, &args.source_options, args.robots.user_agent(db))?;
    let mut notes = RequestNotes::new(loaded.site_origins.clone());
    let Loaded { txt, availability, .. } = loaded;
    let mut paths = args.path_args.clone();
    if let Some(file) = &args.paths {
        let name = sanitize_str(&file.display().to_string()).into_owned();
        let wait = args.source_options.limits(None).timeout;
        let (text, truncated) = fetch::read_file_capped(file, args.source_options.max_file_bytes, wait)
            .wrap_err_with(|| format!("reading paths from {name}"))?;
        if truncated {
            note!("robotscope: warning: only the first {} bytes of {name} were read (--max-file-bytes)", text.len());
        }
        paths.extend(path_lines(&text).wrap_err_with(|| format!("reading paths from {name}"))?);
    }
    if paths.is_empty() {
        let (named, left_out) = crate::columns::paths_named_in(&txt, crate::columns::DEFAULT_ROWS);
        if left_out {
            note!(
                "robotscope: note: the first {} paths the rules name are compared; give paths or --paths FILE for others",
                named.len()
            );
        }
        paths = named;
    }
    let columns = Column::all_as(
        &txt,
        queries.iter().map(|q| {
            let label =
                if args.all_semantics { format!("{} ({})", q.label, q.reading.name()) } else { q.label.clone() };
            (label, q.robot.clone(), q.reading)
        }),
        args.url_options.mode(),
    );
    let requests: Vec<Request> = paths.iter().map(|path| Request::new(path, args.url_options.mode())).collect();
    for request in &requests {
        notes.check(request);
    }
    let mut out = BufWriter::new(io::stdout().lock());
    let result = if args.json {
        write_compare_json(&mut out, &txt, availability, &queries, &columns, &requests)
    } else if args.csv {
        write_compare_csv(&mut out, availability, &columns, &requests, args.usage)
    } else {
        write_compare_table(&mut out, &txt, availability, &columns, &requests, args.usage)
    };
    finish_output(result.and_then(|()| out.flush()))?;
    Ok(Outcome::Clean)
}

fn write_compare_table(
    out: &mut dyn Write,
    txt: &RobotsTxt,
    availability: Availability,
    columns: &[Column],
    requests: &[Request],
    usage: Option<Category>,
) -> io::Result<()> {
    // What was written, and how it was read when that is not obvious (as `check` says it).
    let label = |request: &Request| match request.tested_if_not_obvious() {
        Some(tested) => format!("{} (as {})", sanitize_str(request.given()), sanitize_str(tested)),
        None => sanitize_str(request.given()).into_owned(),
    };
    let labels: Vec<String> = requests.iter().map(label).collect();
    let path_width = labels.iter().map(|l| l.chars().count()).max().unwrap_or(4).clamp(4, 60);
    let widths: Vec<usize> = columns.iter().map(|c| c.label.chars().count().max(14)).collect();
    write!(out, "{:<path_width$}", "PATH")?;
    for (column, width) in columns.iter().zip(&widths) {
        write!(out, "  {:<width$}", sanitize_str(&column.label))?;
    }
    writeln!(out)?;
    for (request, label) in requests.iter().zip(&labels) {
        let cells: Vec<Cell> = columns.iter().map(|c| c.cell(availability, request.tested(), usage)).collect();
        let mark = if Cell::disagree(&cells) { "  ≠" } else { "" };
        write!(out, "{label:<path_width$}")?;
        for (cell, width) in cells.iter().zip(&widths) {
            write!(out, "  {cell:<width$}")?;
        }
        writeln!(out, "{mark}")?;
    }
    writeln!(out)?;
    let what = match usage {
        None => "the verdict and the deciding line".to_owned(),
        Some(category) => format!(
            "the {category} preference (allowed, disallowed or unknown: stated by no line that counts) and the line \
             that states it; \"not fetched\" where the robot may not fetch the path (it has no preferences), \"not \
             read\" under a reading that knows no usage preferences (1994, 1996)"
        ),
    };
    writeln!(out, "Each cell: {what}. ≠ marks paths where the robots disagree.")?;
    writeln!(out)?;
    for column in columns {
        let summary = column.summary(txt, availability);
        writeln!(out, "{}: {}", sanitize_str(&column.label), sanitize_str(&summary.to_string()))?;
    }
    Ok(())
}

fn write_compare_csv(
    out: &mut dyn Write,
    availability: Availability,
    columns: &[Column],
    requests: &[Request],
    usage: Option<Category>,
) -> io::Result<()> {
    // With a usage category, each robot's column says which (a cell reads like a verdict).
    let labels: Vec<String> = columns
        .iter()
        .map(|column| match usage {
            Some(category) => format!("{} ({category})", column.label),
            None => column.label.clone(),
        })
        .collect();
    self::csv::write_record(
        out,
        std::iter::once(Field::Value("path")).chain(labels.iter().map(|label| Field::Text(label))),
    )?;
    for request in requests {
        let cells: Vec<String> =
            columns.iter().map(|c| c.cell(availability, request.tested(), usage).to_string()).collect();
        self::csv::write_record(
            out,
            std::iter::once(Field::Text(request.given())).chain(cells.iter().map(|cell| Field::Value(cell))),
        )?;
    }
    Ok(())
}

fn write_compare_json(
    out: &mut dyn Write,
    txt: &RobotsTxt,
    availability: Availability,
    queries: &[RobotQuery],
    columns: &[Column],
    requests: &[Request],
) -> io::Result<()> {
    for request in requests {
        for (query, column) in queries.iter().zip(columns) {
            let decision = column.check(availability, request.tested());
            let record = CheckRecord::new(txt, availability, column, decision, &query.label, request);
            json::write_line(out, &record)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_are_read_one_way_for_every_flag() {
        let max_time = |text| run_duration(text).map(|duration| duration.as_secs());
        assert_eq!(max_time("600"), Ok(600));
        assert_eq!(max_time(" 90s "), Ok(90));
        assert_eq!(max_time("1h30m"), Ok(5400));
        assert_eq!(max_time("1d"), Ok(86_400));
        assert_eq!(max_time("0"), Err("must be 1s or more".to_owned()));
        assert_eq!(max_time("25h"), Err("must be at most 24h (a day)".to_owned()));
        assert_eq!(
            max_time("soon"),
            Err("`soon` is not a duration: write 600 (seconds), 90s, 10m, 1h30m or 2d".to_owned())
        );
        let grace = |text| audit::grace(text).map(|duration| duration.as_secs());
        assert_eq!(grace("0"), Ok(0));
        assert_eq!(grace("2d"), Ok(172_800));
        assert_eq!(grace("90m"), Ok(5400));
        assert!(grace("-5").is_err() && grace("-5m").is_err());
        assert_eq!(grace("400d"), Err("must be at most a year".to_owned()));
    }
}
