//! One audit's run: access logs read in batches on a thread of their own, parsed on
//! every core and judged in order, each request of a robot against the version in force
//! at its time, its address checked against its operator's; the tallies per robot and the
//! violations grouped by deciding line. The command line and the explorer's audit view
//! both run it and say what it found in their own ways.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use jiff::{SignedDuration, Timestamp};
use rayon::prelude::*;

use super::Claimed;
use super::identity::{Identity, Verifier};
use super::logs::{CustomFormat, LineError, LogFormat, LogRequest};
use super::rdns::{Answer, ReverseDns};
use super::replay::{InForce, Judge, Judged, Judgement, Timeline, Verdict, is_robots_txt};
use super::user_agent::RobotNames;
use crate::policy::escape::sanitize_str;
use crate::policy::usage::{Category, Preference};
use crate::policy::{Reading, Robot};
use crate::robots_db::{Purpose, RobotsDb};

/// The longest log line read; the rest of a longer one is skipped, and the line counted
/// unreadable.
pub const MAX_LINE_BYTES: usize = 64 * 1024;
/// The lines read to find a file's format.
const DETECT_LINES: usize = 50;
/// The lines a worker parses at once, and the bytes (lines near the 64 KiB cap fill a
/// batch sooner, so that memory stays flat).
const BATCH_LINES: usize = 4096;
const BATCH_BYTES: usize = 4 << 20;
/// The longest User-Agent whose robot is remembered.
const REMEMBERED_AGENT_BYTES: usize = 512;
/// The workers that parse lines at most.
const MAX_WORKERS: usize = 8;
/// The User-Agent headers whose robot is remembered (a hostile log can make every one
/// different).
const REMEMBERED_AGENTS: usize = 10_000;
/// The robots judged at most; the requests of further ones are left out, and counted.
pub const MAX_ROBOTS: usize = 1_000;
/// How long a wait for lines lasts before the stop flag and the deadline are looked at
/// again.
const WAIT_STEP: Duration = Duration::from_millis(100);
/// How long the lines read wait for the next batch before they are judged.
const SLOW_BATCH: Duration = Duration::from_millis(20);
/// The unreadable lines quoted.
const QUOTED_BAD_LINES: usize = 3;

/// Why a log could not be read.
#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    /// It cannot be opened.
    #[error("opening {0}")]
    Open(String, #[source] io::Error),
    /// Reading it failed.
    #[error("reading {0}")]
    Read(String, #[source] io::Error),
    /// Its first lines are in no format robotscope knows.
    #[error(
        "{0}: not an access log robotscope knows (Combined or Common Log Format, JSON lines); --log-format names another"
    )]
    NotALog(String),
}

/// A request the run gives its caller: violations, tolerated and forged ones, or every
/// robot request when asked.
#[derive(Debug)]
pub struct Row<'r> {
    /// Its line in its log.
    pub number: u64,
    pub request: &'r LogRequest,
    /// Its robot: an index into [`Run::tallies`].
    pub robot: usize,
    pub judgement: &'r Judgement,
    pub identity: Identity,
}

/// What receives the rows.
pub type OnRow<'f> = &'f mut dyn FnMut(&Run<'_>, &Row<'_>);

/// What a User-Agent header is to a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Claim {
    /// A robot it judges: an index into [`Run::tallies`].
    Robot(usize),
    /// A robot past `MAX_ROBOTS`: its requests are counted, not judged.
    LeftOut,
    /// A browser, another client, or a robot not asked about.
    Other,
}

/// What a run is told.
#[derive(Debug)]
pub struct Settings {
    /// How long after a change a request the version before allowed is tolerated.
    pub grace: SignedDuration,
    /// Only these robots (their tokens in lower case), when some were named.
    pub only: Option<Vec<(String, Robot, Reading)>>,
    /// The reading every robot is judged under, when one was chosen.
    pub semantics: Option<Reading>,
    /// The logs' format, when given (else found in each log's first lines).
    pub custom: Option<CustomFormat>,
    /// When to stop reading, whatever is left.
    pub deadline: Instant,
    /// Every robot request goes to the caller, not only the news.
    pub every_row: bool,
    /// Set from elsewhere to stop the run at its next batch.
    pub stop: Option<Arc<AtomicBool>>,
}

/// What an audit found, kept after its run (the explorer's audit view shows it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub lines: u64,
    pub unreadable: u64,
    pub robot_requests: u64,
    pub robots_left_out: u64,
    /// The first few unreadable lines: where, why, and how they begin.
    pub bad_lines: Vec<String>,
    /// The deadline or a stop ended the run early.
    pub stopped: bool,
    /// Each robot's counts, most requests first.
    pub robots: Vec<RobotCounts>,
    /// The violations by robot and deciding line, most first; forged ones last.
    pub groups: Vec<Group>,
    /// The versions that judged them (a group names one by index).
    pub versions: Vec<InForce>,
}

impl Report {
    /// True when robots came and none of their requests could be judged: each came
    /// before the first known version of the robots.txt. "No violation" would be a
    /// verdict the audit cannot give.
    #[must_use]
    pub fn nothing_judged(&self) -> bool {
        let requests: u64 = self.robots.iter().map(|robot| robot.requests).sum();
        let unjudged: u64 = self.robots.iter().map(|robot| robot.unjudged).sum();
        requests > 0 && unjudged == requests
    }
}

/// A robot's counts in a [`Report`], named as `audit --json` writes them.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RobotCounts {
    /// The product token it is known by.
    #[serde(rename = "agent")]
    pub label: String,
    pub requests: u64,
    pub violations: u64,
    pub tolerated: u64,
    pub unjudged: u64,
    pub forged: u64,
    pub verified: u64,
    pub robots_txt_fetches: u64,
    /// It asked for something else before its first robots.txt.
    pub crawled_before_robots_txt: bool,
    /// Requests sooner after the one before than the Crawl-delay in force, and the
    /// shortest such interval.
    pub crawl_delay_breaches: u64,
    #[serde(rename = "shortest_interval_seconds", serialize_with = "seconds")]
    pub shortest_interval: Option<SignedDuration>,
    /// Requests of an AI-training robot for paths whose usage says `train-ai=n`.
    pub train_ai_refused: u64,
    /// Some of its requests could be checked against its operator's ranges or names.
    #[serde(skip)]
    pub checkable: bool,
}

/// A duration as seconds.
#[expect(clippy::ref_option, reason = "serde's serialize_with passes the field by reference")]
fn seconds<S: serde::Serializer>(duration: &Option<SignedDuration>, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_some(&duration.map(|duration| duration.as_secs_f64()))
}

/// Violations of one robot decided by one line of one version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// The robot's product token.
    pub label: String,
    /// The version in force (an index into [`Report::versions`]).
    pub version: Option<usize>,
    /// The deciding line, and its rule (or why the version disallowed it: a 5xx).
    pub line: Option<usize>,
    pub rule: Option<String>,
    pub count: u64,
    pub first: Timestamp,
    pub last: Timestamp,
    /// One of the paths.
    pub example: String,
    /// The requests came from addresses their robot's operator does not use.
    pub forged: bool,
}

/// A violation group's key: the robot, the version (index), the deciding line, and
/// whether the requests were forged (set apart).
pub type BrokenKey = (usize, Option<usize>, Option<usize>, bool);

/// A run: what it has read and found so far.
pub struct Run<'a> {
    db: &'a RobotsDb,
    /// The registry's robots by the names their User-Agent headers carry.
    names: RobotNames,
    pub timeline: &'a Timeline,
    judge: Judge<'a>,
    only: Option<Vec<(String, Robot, Reading)>>,
    semantics: Option<Reading>,
    custom: Option<CustomFormat>,
    deadline: Instant,
    every_row: bool,
    stop: Option<Arc<AtomicBool>>,
    /// The robots the logs named, in the order they came.
    pub tallies: Vec<Tally>,
    by_token: foldhash::HashMap<String, usize>,
    agents: foldhash::HashMap<String, Claim>,
    /// The violations, grouped.
    pub broken: foldhash::HashMap<BrokenKey, Broken>,
    /// Requests of robots past `MAX_ROBOTS`, not judged.
    pub robots_left_out: u64,
    /// Lines read, blank ones aside.
    pub lines: u64,
    /// The lines of the log being read so far, blank ones too (for line numbers).
    lines_seen: u64,
    pub unreadable: u64,
    /// The first few unreadable lines: where, why, and how they begin.
    pub bad_lines: Vec<String>,
    pub robot_requests: u64,
    /// The operators' address ranges, and the DNS when it is asked.
    pub verifier: Verifier,
    pub rdns: Option<ReverseDns>,
    pub bytes_read: u64,
}

impl std::fmt::Debug for Run<'_> {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Run")
            .field("lines", &self.lines)
            .field("robots", &self.tallies.len())
            .finish_non_exhaustive()
    }
}

impl<'a> Run<'a> {
    /// A run that judges by `timeline`, checks addresses with `verifier` (and `rdns`).
    #[must_use]
    pub fn new(
        db: &'a RobotsDb,
        timeline: &'a Timeline,
        settings: Settings,
        verifier: Verifier,
        rdns: Option<ReverseDns>,
    ) -> Run<'a> {
        Run {
            db,
            names: RobotNames::new(db),
            timeline,
            judge: Judge::new(timeline, settings.grace),
            only: settings.only,
            semantics: settings.semantics,
            custom: settings.custom,
            deadline: settings.deadline,
            every_row: settings.every_row,
            stop: settings.stop,
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
            verifier,
            rdns,
            bytes_read: 0,
        }
    }

    /// True once a stop was asked for.
    fn stopped(&self) -> bool {
        self.stop.as_ref().is_some_and(|stop| stop.load(Ordering::Relaxed))
    }

    /// What the run found, to keep after it: the robots' counts, most requests first,
    /// and the violations grouped by deciding line, most first, the forged ones after
    /// the rest. `stopped`: the deadline or a stop ended it before the end.
    #[must_use]
    pub fn report(&self, stopped: bool) -> Report {
        let robots = self
            .by_requests()
            .into_iter()
            .map(|tally| RobotCounts {
                label: tally.label.clone(),
                requests: tally.requests,
                violations: tally.count(Verdict::Violation),
                tolerated: tally.count(Verdict::Tolerated),
                unjudged: tally.count(Verdict::Unjudged),
                forged: tally.identity_count(Identity::Forged),
                verified: tally.identity_count(Identity::Verified),
                robots_txt_fetches: tally.robots_txt_fetches,
                crawled_before_robots_txt: tally.crawled_before_fetching,
                crawl_delay_breaches: tally.delay_breaches,
                shortest_interval: tally.shortest,
                train_ai_refused: tally.train_ai_refused,
                checkable: tally.was_checked(),
            })
            .collect();
        let mut groups: Vec<Group> = self
            .broken
            .iter()
            .map(|(&(robot, version, line, forged), broken)| Group {
                label: self.tallies[robot].label.clone(),
                version,
                line,
                rule: broken.rule.clone(),
                count: broken.count,
                first: broken.first,
                last: broken.last,
                example: broken.example.clone(),
                forged,
            })
            .collect();
        groups.sort_by(|a, b| {
            (a.forged, std::cmp::Reverse(a.count), &a.label, a.line).cmp(&(
                b.forged,
                std::cmp::Reverse(b.count),
                &b.label,
                b.line,
            ))
        });
        Report {
            lines: self.lines,
            unreadable: self.unreadable,
            robot_requests: self.robot_requests,
            robots_left_out: self.robots_left_out,
            bad_lines: self.bad_lines.clone(),
            stopped,
            robots,
            groups,
            versions: self.timeline.versions().to_vec(),
        }
    }

    /// The requests that came before the first known version, over every robot.
    #[must_use]
    pub fn unjudged(&self) -> u64 {
        self.tallies.iter().map(|tally| tally.count(Verdict::Unjudged)).sum()
    }

    /// True when robots came and none of their requests could be judged (see
    /// [`Report::nothing_judged`]).
    #[must_use]
    pub fn nothing_judged(&self) -> bool {
        let requests: u64 = self.tallies.iter().map(|tally| tally.requests).sum();
        requests > 0 && self.unjudged() == requests
    }

    /// The addresses `--rdns` asked about, and how many of them had no answer.
    #[must_use]
    pub fn dns_answers(&self) -> Option<(usize, usize)> {
        self.rdns.as_ref().map(ReverseDns::asked_and_unanswered)
    }

    /// The requests judged a violation, over every robot.
    #[must_use]
    pub fn violations(&self) -> u64 {
        self.tallies.iter().map(|tally| tally.count(Verdict::Violation)).sum()
    }

    /// Reads a log through, giving each request that `self.rows` asks for to `on_row` and
    /// saying how far it has got to `on_progress` after each round of batches; false when
    /// the deadline or a stop ended it.
    ///
    /// # Errors
    ///
    /// When the log cannot be opened or read, or is not in a format robotscope knows.
    pub fn read_log(
        &mut self,
        log: &str,
        on_row: OnRow<'_>,
        on_progress: &mut dyn FnMut(&Run<'_>, &str),
    ) -> Result<bool, AuditError> {
        let deadline = self.deadline;
        let workers = rayon::current_num_threads().clamp(1, MAX_WORKERS);
        // The reader stops once the run leaves this log, however it leaves.
        let abandoned = Abandon { flag: Arc::new(AtomicBool::new(false)), log: log.to_owned() };
        let batches = read_in_batches(log.to_owned(), workers, Arc::clone(&abandoned.flag));
        self.lines_seen = 0;
        let mut format = self.custom.clone().map(LogFormat::Custom);
        loop {
            // A batch for each worker (as many as have come by the deadline), parsed at
            // once, judged in order.
            let mut round: Vec<Batch> = Vec::with_capacity(workers);
            let mut ended = false;
            let mut timed_out = false;
            while round.len() < workers {
                // Waits in short steps, so that a stop is seen while a pipe is quiet, and
                // judges what came when the next batch is slow to come.
                let step = if round.is_empty() { WAIT_STEP } else { SLOW_BATCH };
                match batches.recv_timeout(step.min(deadline.saturating_duration_since(Instant::now()))) {
                    Ok(Ok(batch)) if batch.lines.is_empty() => ended = true,
                    Ok(Ok(batch)) => round.push(batch),
                    Ok(Err(error)) => return Err(error),
                    Err(mpsc::RecvTimeoutError::Timeout) if Instant::now() >= deadline || self.stopped() => {
                        timed_out = true;
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) if round.is_empty() => continue,
                    Err(mpsc::RecvTimeoutError::Timeout) => break,
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
                // Parsed on rayon's pool, a batch a core; judged in order below.
                let parsed: Vec<Vec<Parsed>> = round.par_iter().map(|batch| batch.parse(format)).collect();
                self.ask_dns(&parsed, deadline);
                for (batch, parsed) in round.iter_mut().zip(&parsed) {
                    batch.first_number = self.lines_seen;
                    self.take_batch(log, batch, parsed, on_row);
                    self.bytes_read += batch.bytes.len() as u64;
                }
                on_progress(self, log);
            }
            if ended {
                return Ok(true);
            }
            if timed_out || Instant::now() >= deadline || self.stopped() {
                return Ok(false);
            }
        }
    }

    /// The lines of a batch, parsed: each counted, each request judged, each line that
    /// cannot be read counted and the first few quoted.
    fn take_batch(&mut self, log: &str, batch: &Batch, parsed: &[Parsed], on_row: OnRow<'_>) {
        for (index, result) in parsed.iter().enumerate() {
            let number = batch.first_number + index as u64 + 1;
            match result {
                Parsed::Blank => {}
                Parsed::Request(request) => {
                    self.lines += 1;
                    self.take_request(number, request, on_row);
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
        let mut addresses: foldhash::HashMap<usize, Vec<std::net::IpAddr>> = foldhash::HashMap::default();
        for request in parsed.iter().flatten().filter_map(|parsed| match parsed {
            Parsed::Request(request) => Some(request),
            _ => None,
        }) {
            let Claim::Robot(index) = self.tally_of(&request.user_agent) else { continue };
            let Some(family) = self.tallies[index].family else {
                continue;
            };
            if let Some(address) = address_of(&request.ip)
                && !self.verifier.suffixes(family).is_empty()
                && self.verifier.in_ranges(family, address) != Some(true)
            {
                addresses.entry(family).or_default().push(address);
            }
        }
        if let Some(rdns) = &mut self.rdns {
            for (family, addresses) in addresses {
                rdns.look_up(family, self.verifier.suffixes(family), addresses, deadline);
            }
        }
    }

    /// Whether a request of the robot `index` from `ip` came from its operator.
    fn identity(&self, index: usize, ip: &str) -> Identity {
        let (Some(family), Some(address)) = (self.tallies[index].family, address_of(ip)) else {
            return Identity::Unverifiable;
        };
        let suffixes = self.verifier.suffixes(family);
        // The names kept are under the family's suffixes, and resolve back.
        let reverse_dns =
            self.rdns.as_ref().filter(|_| !suffixes.is_empty()).map(|rdns| match rdns.answer(address, family) {
                Some(Answer::Confirmed(names)) => Some(!names.is_empty()),
                Some(Answer::NoAnswer) | None => None,
            });
        Identity::of(self.verifier.in_ranges(family, address), reverse_dns)
    }

    /// The robot entry a User-Agent names, if it is one the audit judges. The whole
    /// header is read (a header cut at a byte count can end inside a word, and name
    /// another robot: issue 35); only short ones are remembered, so that a hostile log
    /// of long headers, each different, costs no memory.
    fn tally_of(&mut self, user_agent: &str) -> Claim {
        if let Some(&known) = self.agents.get(user_agent) {
            return known;
        }
        let found = self.names.robot_of(user_agent).map_or(Claim::Other, |claimed| self.entry(claimed));
        if self.agents.len() < REMEMBERED_AGENTS && user_agent.len() <= REMEMBERED_AGENT_BYTES {
            self.agents.insert(user_agent.to_owned(), found);
        }
        found
    }

    fn entry(&mut self, claimed: Claimed) -> Claim {
        let known_index = match &claimed {
            Claimed::Known(index) | Claimed::KnownAs(index, _) => Some(*index),
            Claimed::Unknown(_) => None,
        };
        let known = known_index.is_some();
        let family_token = match &claimed {
            Claimed::KnownAs(index, _) => Some(self.db.profiles()[*index].token.to_ascii_lowercase()),
            Claimed::Known(_) | Claimed::Unknown(_) => None,
        };
        let (label, robot, reading, trains_ai) = match claimed {
            Claimed::Known(index) => {
                let profile = &self.db.profiles()[index];
                (profile.written().to_owned(), profile.robot(), profile.reading, profile.serves(Purpose::AiTraining))
            }
            // One of a profile's robots under its own token (`YandexImages`): groups
            // naming it first, then the profile's robot's (Yandex's), as a fallback.
            Claimed::KnownAs(index, name) => {
                let profile = &self.db.profiles()[index];
                let mut robot = crate::policy::named_robot(&name)
                    .with_fallbacks(std::iter::once(profile.token.clone()).chain(profile.fallback.iter().cloned()));
                if profile.ignores_star {
                    robot = robot.ignoring_star();
                }
                (name, robot, profile.reading, profile.serves(Purpose::AiTraining))
            }
            // Judged by the token RFC 9309 reads in its name (`Screaming` of `Screaming
            // Frog SEO Spider`), as a `User-agent:` line naming it is read (§2.2.1).
            Claimed::Unknown(name) => (name.clone(), crate::policy::named_robot(&name), Reading::Rfc9309, false),
        };
        let key = label.to_ascii_lowercase();
        if let Some(&index) = self.by_token.get(&key) {
            return Claim::Robot(index);
        }
        let (robot, reading) = match &self.only {
            Some(only) => {
                // Asked for by the name it is shown by (`-a AI2Bot`, `-a YandexImages`)
                // or the token RFC 9309 reads in it (`-a AI`, which the tool suggests
                // for AI2Bot): judged as asked. Or, for one of a profile's robots, by the
                // profile (`-r YandexBot` takes Yandex's): judged as that robot.
                let token = robot.token().to_ascii_lowercase();
                // A profile's names count for its robot, not for its robots under tokens of
                // their own (`-a Claude Code`, `-a Brightbot 1.0`; `-a YandexBot` is not
                // YandexImages).
                let profile_names: Vec<String> = match known_index {
                    Some(index) if family_token.is_none() => {
                        let profile = &self.db.profiles()[index];
                        std::iter::once(&profile.name)
                            .chain(&profile.listed_as)
                            .map(|n| n.to_ascii_lowercase())
                            .collect()
                    }
                    _ => Vec::new(),
                };
                if let Some((_, asked, reading)) =
                    only.iter().find(|(asked, _, _)| *asked == key || *asked == token || profile_names.contains(asked))
                {
                    (asked.clone(), *reading)
                } else if let Some((_, _, reading)) =
                    only.iter().find(|(asked, _, _)| family_token.as_ref() == Some(asked))
                {
                    (robot, *reading)
                } else {
                    return Claim::Other;
                }
            }
            None => (robot, self.semantics.unwrap_or(reading)),
        };
        // A log can name a new bot on every line: past the cap, they are counted, not
        // judged. The known robots are always judged (a few dozen): a log that names a
        // thousand bots first cannot hide GPTBot's requests after them.
        if !known && self.tallies.len() >= MAX_ROBOTS {
            return Claim::LeftOut;
        }
        self.tallies.push(Tally {
            label,
            robot,
            reading,
            trains_ai,
            requests: 0,
            verdicts: foldhash::HashMap::default(),
            robots_txt_fetches: 0,
            crawled_before_fetching: false,
            last: None,
            delay_breaches: 0,
            shortest: None,
            train_ai_refused: 0,
            // A profile's robot under a token of its own is checked as the profile's
            // (YandexImages against Yandex's published addresses).
            family: self
                .verifier
                .family_of(&key)
                .or_else(|| family_token.as_deref().and_then(|t| self.verifier.family_of(t))),
            identities: foldhash::HashMap::default(),
        });
        self.by_token.insert(key, self.tallies.len() - 1);
        Claim::Robot(self.tallies.len() - 1)
    }

    fn take_request(&mut self, number: u64, request: &LogRequest, on_row: OnRow<'_>) {
        let index = match self.tally_of(&request.user_agent) {
            Claim::Robot(index) => index,
            Claim::LeftOut => {
                self.robots_left_out += 1;
                return;
            }
            Claim::Other => return,
        };
        self.robot_requests += 1;
        let tally = &self.tallies[index];
        let judged = Judged { key: index, robot: &tally.robot, reading: tally.reading };
        let judgement = self.judge.judge(judged, &request.target, request.time);
        let robots_txt = is_robots_txt(&request.target);
        let identity = self.identity(index, &request.ip);
        let (delay, refused) = match judgement.version {
            Some(version) => {
                let matcher = self.judge.matcher(version, judged);
                // Fetching robots.txt is how a robot learns the preferences: never counted.
                let refused = tally.trains_ai
                    && !robots_txt
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
            let key = (index, judgement.version, judgement.line, identity == Identity::Forged);
            let broken = self.broken.entry(key).or_insert_with(|| Broken {
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
        if self.every_row
            || matches!(judgement.verdict, Verdict::Violation | Verdict::Tolerated)
            || identity == Identity::Forged
        {
            on_row(self, &Row { number, request, robot: index, judgement: &judgement, identity });
        }
    }

    /// The robots, most requests first. (The tallies keep their places: the violations
    /// name them by index.)
    #[must_use]
    pub fn by_requests(&self) -> Vec<&Tally> {
        let mut tallies: Vec<&Tally> = self.tallies.iter().collect();
        tallies.sort_by(|a, b| b.requests.cmp(&a.requests).then_with(|| a.label.cmp(&b.label)));
        tallies
    }

    #[must_use]
    pub fn version_time(&self, version: Option<usize>) -> Option<String> {
        version
            .and_then(|version| self.timeline.versions()[version].since)
            .map(|since| since.strftime("%Y-%m-%dT%H:%M:%SZ").to_string())
    }
}

/// A robot the logs name, and what its requests came to.
#[derive(Debug)]
pub struct Tally {
    /// The product token it is known by.
    pub label: String,
    pub robot: Robot,
    pub reading: Reading,
    /// It fetches for AI training (among its purposes).
    pub trains_ai: bool,
    pub requests: u64,
    pub verdicts: foldhash::HashMap<Verdict, u64>,
    pub robots_txt_fetches: u64,
    /// A request for something else before its first robots.txt fetch.
    pub crawled_before_fetching: bool,
    /// The last request's time, for the intervals Crawl-delay asks for.
    pub last: Option<Timestamp>,
    /// Requests sooner after the one before than the Crawl-delay in force, and the
    /// shortest such interval.
    pub delay_breaches: u64,
    pub shortest: Option<SignedDuration>,
    /// Requests of an AI-training robot for paths whose usage says `train-ai=n`.
    pub train_ai_refused: u64,
    /// Its operator's family, when its addresses can be checked.
    pub family: Option<usize>,
    pub identities: foldhash::HashMap<Identity, u64>,
}

impl Tally {
    /// True when some request of it could be checked against its operator's ranges or
    /// names (verified or forged).
    #[must_use]
    pub fn was_checked(&self) -> bool {
        self.identity_count(Identity::Verified) + self.identity_count(Identity::Forged) > 0
    }

    /// Its requests given `verdict`.
    #[must_use]
    pub fn count(&self, verdict: Verdict) -> u64 {
        self.verdicts.get(&verdict).copied().unwrap_or(0)
    }

    /// Its requests of `identity`.
    #[must_use]
    pub fn identity_count(&self, identity: Identity) -> u64 {
        self.identities.get(&identity).copied().unwrap_or(0)
    }
}

/// A group of violations: one robot, one deciding line of one version.
#[derive(Debug)]
pub struct Broken {
    pub count: u64,
    pub first: Timestamp,
    pub last: Timestamp,
    pub example: String,
    pub rule: Option<String>,
}

/// A log opened for reading: a file or standard input, gunzipped when it is gzip.
/// A log, read through one buffer: a file or standard input, gunzipped when it is gzip.
type LogReader = BufReader<Box<dyn Read + Send>>;

/// A log opened for reading, and whether a read may wait for input (standard input, a
/// pipe, a FIFO: not a regular file).
fn open_log(log: &str) -> Result<(LogReader, bool), AuditError> {
    let (raw, may_wait): (Box<dyn Read + Send>, bool) = if log == "-" {
        (Box::new(io::stdin()), true)
    } else {
        let file = File::open(log).map_err(|error| AuditError::Open(sanitize_str(log).into_owned(), error))?;
        let regular = file.metadata().is_ok_and(|metadata| metadata.is_file());
        (Box::new(file), !regular)
    };
    let mut reader = BufReader::with_capacity(256 * 1024, raw);
    let gzip = reader
        .fill_buf()
        .map_err(|error| AuditError::Read(sanitize_str(log).into_owned(), error))?
        .starts_with(&[0x1f, 0x8b]);
    let reader: LogReader = if gzip {
        BufReader::with_capacity(256 * 1024, Box::new(flate2::bufread::MultiGzDecoder::new(reader)))
    } else {
        BufReader::with_capacity(256 * 1024, Box::new(reader))
    };
    Ok((reader, may_wait))
}

/// Sets its flag when dropped.
/// Abandons a log's reader when dropped: its flag is set, and a reader stuck opening a
/// FIFO no one writes to is let go (`fifo::release_waiting_reader`), so that its thread
/// ends instead of waiting for the rest of the session.
struct Abandon {
    flag: Arc<AtomicBool>,
    log: String,
}

impl Drop for Abandon {
    fn drop(&mut self) {
        self.flag.store(true, Ordering::Relaxed);
        if self.log != "-" {
            crate::fifo::release_waiting_reader(std::path::Path::new(&self.log));
        }
    }
}

/// Opens `log` and reads it in batches on a thread of its own, which sends them (an
/// empty one at the end). Opening a FIFO and looking for gzip's first bytes wait for a
/// writer, and so does each read of a quiet pipe: all on that thread, so that the run's
/// deadline and a stop hold. The thread ends at the end, at an error, or once
/// `abandoned` is set (a line of /dev/zero never ends: the flag is looked at as it is
/// read).
fn read_in_batches(log: String, ahead: usize, abandoned: Arc<AtomicBool>) -> mpsc::Receiver<Result<Batch, AuditError>> {
    let (sender, batches) = mpsc::sync_channel(ahead);
    std::thread::spawn(move || {
        let (mut reader, may_wait) = match open_log(&log) {
            Ok(opened) => opened,
            Err(error) => {
                let _ = sender.send(Err(error));
                return;
            }
        };
        loop {
            let mut batch = Batch::default();
            let read = batch
                .fill(&mut reader, BATCH_LINES, may_wait, &abandoned)
                .map_err(|error| AuditError::Read(sanitize_str(&log).into_owned(), error));
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
fn read_line(reader: &mut dyn BufRead, line: &mut Vec<u8>, abandoned: &AtomicBool) -> io::Result<(bool, bool)> {
    line.clear();
    let mut cut = false;
    let mut any = false;
    loop {
        if abandoned.load(Ordering::Relaxed) {
            return Err(io::Error::other("the run stopped reading"));
        }
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
fn detect(log: &str, first: &Batch) -> Result<LogFormat, AuditError> {
    let lines = (0..first.lines.len().min(DETECT_LINES)).map(|index| first.text(index));
    let texts: Vec<std::borrow::Cow<'_, str>> = lines.collect();
    match LogFormat::detect(texts.iter().map(AsRef::as_ref)) {
        Some(format) => Ok(format),
        None if texts.iter().all(|text| text.trim().is_empty()) => Ok(LogFormat::Combined),
        None => Err(AuditError::NotALog(sanitize_str(log).into_owned())),
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
    fn fill(&mut self, reader: &mut LogReader, count: usize, may_wait: bool, abandoned: &AtomicBool) -> io::Result<()> {
        self.bytes.clear();
        self.lines.clear();
        let mut line = Vec::new();
        while self.lines.len() < count && self.bytes.len() < BATCH_BYTES {
            if may_wait && !self.lines.is_empty() && reader.buffer().is_empty() {
                break;
            }
            let (more, cut) = read_line(reader, &mut line, abandoned)?;
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

/// A client address as logs write it (`66.249.66.1`, `[2001:db8::1]`, `::ffff:1.2.3.4`).
/// An address with its port (`66.249.66.1:51234`, `[2001:db8::1]:443`) is read without it.
fn address_of(text: &str) -> Option<std::net::IpAddr> {
    let text = text.trim();
    text.parse::<std::net::SocketAddr>()
        .map(|socket| socket.ip())
        .ok()
        .or_else(|| text.trim_start_matches('[').trim_end_matches(']').parse().ok())
}
