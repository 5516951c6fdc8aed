//! `robotscope robots`: the registry of robots, every field, filtered by purpose; and
//! `robotscope robots update`, which reads an ai.robots.txt list (`robots.json`) into the
//! user's data directory, where every command finds the names it adds.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::{Args, Subcommand};
use color_eyre::eyre::{Result, WrapErr, bail, eyre};
use serde::Serialize;

use super::{Outcome, finish_output, json, stderr_line};
use crate::audit::identity::FAMILIES;
use crate::policy::escape::sanitize_str;
use crate::robots_db::{Purpose, RobotProfile, RobotsDb, ai_robots_list};

/// Where ai.robots.txt publishes its list.
pub const AI_ROBOTS_LIST: &str = "https://raw.githubusercontent.com/ai-robots-txt/ai.robots.txt/main/robots.json";

/// The bytes of a list read at most (ai.robots.txt's is under 100 KB).
const MAX_LIST_BYTES: usize = 4 << 20;

/// `robotscope robots`: the known robots.
#[derive(Debug, Clone, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct RobotsArgs {
    #[command(subcommand)]
    pub command: Option<RobotsCommand>,
    /// Only the robots that fetch for this purpose (repeatable): search, ai-training,
    /// ai-search, ai-assistant, ai-agent, archive, seo, preview, other, unknown.
    #[arg(short = 'p', long = "purpose", value_name = "PURPOSE")]
    pub purposes: Vec<Purpose>,
    /// One JSON object per robot, every field.
    #[arg(long)]
    pub json: bool,
}

/// What `robots` does besides listing.
#[derive(Debug, Clone, Subcommand)]
pub enum RobotsCommand {
    /// Read an ai.robots.txt list (its robots.json) into the data directory: the names
    /// robotscope does not know yet become robots of purpose `unknown`, in every command.
    ///
    /// The list is refused when it lists no robot, when it is not of robots.json's
    /// shape, or when it holds fewer names than the copy held and no new one (an older
    /// or cut list); the copy held then stays.
    Update(UpdateArgs),
}

/// `robotscope robots update`.
#[derive(Debug, Clone, Args)]
pub struct UpdateArgs {
    /// The list: a file, or a URL (default: ai.robots.txt's robots.json on GitHub).
    #[arg(long, value_name = "FILE|URL")]
    pub from: Option<String>,
    /// Seconds the fetch may take (1 or more).
    #[arg(long, value_name = "SECS", default_value_t = 30, value_parser = super::positive_seconds)]
    pub timeout: u64,
}

/// Where `robots update` keeps the list.
#[must_use]
pub fn kept_list() -> Option<PathBuf> {
    crate::audit::lists::lists_dir().and_then(|dir| dir.parent().map(|data| data.join("ai-robots.json")))
}

/// The registry every command uses: the robots robotscope ships with, and the names of
/// the list `robots update` kept, when there is one (a list that cannot be read is said,
/// and left out).
#[must_use]
pub fn registry() -> RobotsDb {
    let db = RobotsDb::embedded();
    let Some(path) = kept_list().filter(|path| path.is_file()) else { return db };
    let read = crate::fetch::read_file_capped(&path, MAX_LIST_BYTES, Duration::from_secs(5))
        .map_err(|error| error.to_string())
        .and_then(|(bytes, _)| String::from_utf8(bytes).map_err(|_| "not UTF-8".to_owned()))
        .and_then(|text| db.clone().with_ai_robots_list(&text));
    match read {
        Ok((db, _)) => db,
        Err(why) => {
            stderr_line(format_args!(
                "robotscope: warning: {}: {} (robots update fetches it again)",
                sanitize_str(&path.display().to_string()),
                sanitize_str(&why)
            ));
            db
        }
    }
}

/// `robotscope robots`.
pub fn robots(args: &RobotsArgs, db: &RobotsDb) -> Result<Outcome> {
    if let Some(RobotsCommand::Update(update)) = &args.command {
        return self::update(update, db);
    }
    let shown: Vec<&RobotProfile> = db
        .profiles()
        .iter()
        .filter(|profile| args.purposes.is_empty() || args.purposes.iter().any(|&p| profile.serves(p)))
        .collect();
    let mut out = io::BufWriter::new(io::stdout().lock());
    let written = if args.json { write_json(&mut out, &shown) } else { write_table(&mut out, &shown) };
    finish_output(written.and_then(|()| out.flush()))?;
    Ok(Outcome::Clean)
}

/// How to check that a request is the robot's: its operator's published address lists
/// and the reverse DNS names it uses, where `bots` knows them.
#[derive(Debug, Serialize)]
struct Verify {
    ips: Vec<&'static str>,
    rdns: Vec<&'static str>,
}

/// A robot's `--json` object.
#[derive(Debug, Serialize)]
struct RobotRecord<'a> {
    name: &'a str,
    token: &'a str,
    purposes: Vec<&'static str>,
    operator: &'a str,
    docs: Option<&'a str>,
    obeys: &'static str,
    control_only: bool,
    retired_for: Option<&'a str>,
    verify: Verify,
    era: &'static str,
    reading: &'static str,
    fallback: &'a [String],
    ignores_star: bool,
    user_agent: &'a str,
    listed_as: &'a [String],
    note: &'a str,
}

/// The operator's published lists and names for a robot, where `bots` knows them.
fn verify_of(profile: &RobotProfile) -> Verify {
    let token = profile.token.to_ascii_lowercase();
    match FAMILIES.iter().find(|family| family.tokens.contains(&token.as_str())) {
        Some(family) => {
            Verify { ips: family.lists.iter().map(|list| list.url).collect(), rdns: family.suffixes.to_vec() }
        }
        None => Verify { ips: Vec::new(), rdns: Vec::new() },
    }
}

fn write_json(out: &mut dyn Write, profiles: &[&RobotProfile]) -> io::Result<()> {
    for profile in profiles {
        let record = RobotRecord {
            name: &profile.name,
            token: &profile.token,
            purposes: profile.purposes.iter().map(|p| p.name()).collect(),
            operator: &profile.operator,
            docs: profile.docs.as_deref(),
            obeys: profile.obeys.name(),
            control_only: profile.control_only,
            retired_for: profile.retired_for.as_deref(),
            verify: verify_of(profile),
            era: profile.era.name(),
            reading: profile.reading.name(),
            fallback: &profile.fallback,
            ignores_star: profile.ignores_star,
            user_agent: &profile.user_agent,
            listed_as: &profile.listed_as,
            note: &profile.note,
        };
        json::write_line(out, &record)?;
    }
    Ok(())
}

fn write_table(out: &mut dyn Write, profiles: &[&RobotProfile]) -> io::Result<()> {
    let purposes = |profile: &RobotProfile| profile.purposes.iter().map(|p| p.name()).collect::<Vec<_>>().join(",");
    let width = |f: &dyn Fn(&RobotProfile) -> usize| profiles.iter().map(|p| f(p)).max().unwrap_or(0);
    let name_width = width(&|p| p.name.chars().count()).max(4);
    let token_width = width(&|p| p.token.len()).max(5);
    let purpose_width = width(&|p| purposes(p).len()).max(8);
    writeln!(
        out,
        "{:<name_width$}  {:<token_width$}  {:<purpose_width$}  {:<7}  {:<5}  {:<10}  NOTE",
        "NAME", "TOKEN", "PURPOSES", "OBEYS", "ERA", "READING"
    )?;
    for profile in profiles {
        let mut flags = Vec::new();
        if !profile.fallback.is_empty() {
            flags.push(format!("falls back to {}", profile.fallback.join(", ")));
        }
        if profile.ignores_star {
            flags.push("ignores *".to_owned());
        }
        if profile.control_only {
            flags.push("control token: fetches nothing".to_owned());
        }
        if let Some(successor) = &profile.retired_for {
            flags.push(format!("retired: {successor} replaced it"));
        }
        let flags = if flags.is_empty() { String::new() } else { format!(" [{}]", flags.join("; ")) };
        let line = format!(
            "{:<name_width$}  {:<token_width$}  {:<purpose_width$}  {:<7}  {:<5}  {:<10}  {} ({}){flags}",
            profile.name,
            profile.token,
            purposes(profile),
            profile.obeys.name(),
            profile.era.name(),
            profile.reading.name(),
            profile.note,
            profile.operator
        );
        writeln!(out, "{}", sanitize_str(&line))?;
    }
    Ok(())
}

/// `robotscope robots update`.
fn update(args: &UpdateArgs, db: &RobotsDb) -> Result<Outcome> {
    let Some(path) = kept_list() else { bail!("no data directory: set XDG_DATA_HOME or HOME") };
    let from = args.from.clone().unwrap_or_else(|| AI_ROBOTS_LIST.to_owned());
    let bytes = read_list(&from, Duration::from_secs(args.timeout))?;
    let shown = sanitize_str(&from).into_owned();
    let text = String::from_utf8(bytes).map_err(|_| eyre!("{shown}: not UTF-8"))?;
    let listed = ai_robots_list(&text).map_err(|why| eyre!("{shown}: {why}"))?;
    // The copy held, to tell an older or cut list from a newer one (the list has no date).
    let held = std::fs::read_to_string(&path).ok().and_then(|held| ai_robots_list(&held).ok());
    let known = |name: &str| held.as_ref().is_some_and(|held| held.iter().any(|(n, _)| n == name));
    let new_names = listed.iter().filter(|(name, _)| !known(name)).count();
    if let Some(held) = &held
        && listed.len() < held.len()
        && new_names == 0
    {
        bail!(
            "{shown} lists {} robots, fewer than the {} of the copy held, and none new: an older or cut list; the copy \
             held stays",
            listed.len(),
            held.len()
        );
    }
    let (_, added) = db.clone().with_ai_robots_list(&text).map_err(|why| eyre!("{shown}: {why}"))?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).wrap_err_with(|| format!("creating {}", dir.display()))?;
    }
    super::bots::write_atomically(&path, text.as_bytes()).wrap_err_with(|| format!("writing {}", path.display()))?;
    println!(
        "{}: {} listed, {} new to robotscope (purpose unknown); kept in {}",
        shown,
        listed.len(),
        added,
        sanitize_str(&path.display().to_string())
    );
    Ok(Outcome::Clean)
}

/// The list's bytes: a file read, or a URL fetched, to [`MAX_LIST_BYTES`].
fn read_list(from: &str, timeout: Duration) -> Result<Vec<u8>> {
    let shown = sanitize_str(from).into_owned();
    if !from.contains("://") {
        let (bytes, cut) =
            crate::fetch::read_file_capped(Path::new(from), MAX_LIST_BYTES, timeout).wrap_err_with(|| shown.clone())?;
        if cut {
            bail!("{shown}: longer than {} MiB", MAX_LIST_BYTES >> 20);
        }
        return Ok(bytes);
    }
    let url = url::Url::parse(from).map_err(|error| eyre!("{shown}: {error}"))?;
    let limits = crate::fetch::Limits { timeout, max_bytes: MAX_LIST_BYTES, ..Default::default() };
    let runtime =
        tokio::runtime::Builder::new_current_thread().enable_all().build().wrap_err("starting the runtime")?;
    let fetched = runtime.block_on(crate::fetch::fetch(&url, &limits)).map_err(|error| eyre!("{shown}: {error}"))?;
    if !fetched.status.is_success() {
        bail!("{shown}: HTTP {}", fetched.status.0);
    }
    if fetched.truncated {
        bail!("{shown}: longer than {} MiB", MAX_LIST_BYTES >> 20);
    }
    Ok(fetched.body)
}
