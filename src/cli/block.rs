//! `robotscope block` and `robotscope unblock`: the file edited so that the robots chosen
//! (by purpose or name) may fetch nothing under RFC 9309, and every other robot keeps
//! every verdict, proved on the result before it is printed ([`crate::policy::prove`]);
//! and the inverse.

use std::collections::BTreeMap;
use std::io::{self, IsTerminal, Write};

use clap::Args;
use color_eyre::eyre::{Result, bail, eyre};
use serde::Serialize;

use super::{Loaded, Outcome, SourceOptions, finish_output, json, load, stderr_line};
use crate::policy::escape::{sanitize_lines, sanitize_str};
use crate::policy::usage::Category;
use crate::policy::{
    Availability, BlockRefusal, BlockRequest, Impact, ProvedBlock, RFC9309_PARSE_LIMIT_BYTES, Reach, Reading, Robot,
    RobotsTxt, as_robots_read, block_proved, named_robot, unblock,
};
use crate::robots_db::{Purpose, RobotProfile, RobotsDb};

/// `robotscope block`.
#[derive(Debug, Clone, Args)]
pub struct BlockArgs {
    /// The robots.txt: a file, `-` for standard input, or a site (example.com).
    #[arg(value_name = "SOURCE")]
    pub source: String,
    /// What to block: purposes (ai-training, ai-search, ai-assistant, ai-agent, search,
    /// archive, seo, preview, other, unknown) and robots by name or token (GPTBot), mixed.
    #[arg(value_name = "WHAT", required = true)]
    pub what: Vec<String>,
    /// A robot to leave as it is, although WHAT names it (repeatable).
    #[arg(long = "except", value_name = "ROBOT")]
    pub except: Vec<String>,
    #[command(flatten)]
    pub shown: Shown,
    /// Also say the preferences of the purposes blocked in the `*` group, as
    /// Content-Signal and Content-Usage lines (ai-training: ai-train=no, train-ai=n).
    #[arg(long)]
    pub signal: bool,
    #[command(flatten)]
    pub source_options: SourceOptions,
}

/// What `block` prints: the file (by default), its diff, the changes, or nothing.
#[derive(Debug, Clone, Args)]
pub struct Shown {
    /// Print the unified diff instead of the file.
    #[arg(long, conflicts_with_all = ["json", "check"])]
    pub diff: bool,
    /// Print the verdicts that change, one JSON object per robot and reading.
    #[arg(long, conflicts_with = "check")]
    pub json: bool,
    /// Print nothing; exit 0 when SOURCE already blocks every robot asked, 1 (each one
    /// that can still fetch something listed, with why) when not, 2 on error.
    #[arg(long)]
    pub check: bool,
}

/// `robotscope unblock`.
#[derive(Debug, Clone, Args)]
pub struct UnblockArgs {
    /// The robots.txt: a file, `-` for standard input, or a site (example.com).
    #[arg(value_name = "SOURCE")]
    pub source: String,
    /// The robots to unblock, by name or token: no group names them afterwards, and they
    /// read what a robot no group names reads.
    #[arg(value_name = "ROBOT", required = true)]
    pub robots: Vec<String>,
    /// Print the unified diff instead of the file.
    #[arg(long)]
    pub diff: bool,
    #[command(flatten)]
    pub source_options: SourceOptions,
}

/// A robot asked about: its token as written, and its profile when the registry has one.
#[derive(Debug, Clone)]
struct Chosen<'a> {
    written: String,
    profile: Option<&'a RobotProfile>,
}

impl Chosen<'_> {
    /// The robot as it reads the file: the registry's, with its fallbacks (Googlebot-Image
    /// reads Googlebot's group when none names it), or the token RFC 9309 reads.
    fn robot(&self) -> Robot {
        self.profile.map_or_else(|| named_robot(&self.written), RobotProfile::robot)
    }
}

/// The robots `what` names, those of `except` left out.
fn choose<'a>(db: &'a RobotsDb, what: &[String], except: &[String]) -> Result<Vec<Chosen<'a>>> {
    let mut chosen: Vec<Chosen<'a>> = Vec::new();
    let add = |chosen: &mut Vec<Chosen<'a>>, one: Chosen<'a>| {
        if !chosen.iter().any(|c| c.written.eq_ignore_ascii_case(&one.written)) {
            chosen.push(one);
        }
    };
    for word in what {
        if let Ok(purpose) = word.parse::<Purpose>() {
            for profile in db.profiles().iter().filter(|profile| profile.serves(purpose)) {
                add(&mut chosen, Chosen { written: profile.written().to_owned(), profile: Some(profile) });
            }
            continue;
        }
        if let Some(profile) = db.find(word) {
            add(&mut chosen, Chosen { written: profile.written().to_owned(), profile: Some(profile) });
            continue;
        }
        if let Some(purpose) = near_purpose(word) {
            bail!("no robot or purpose is called '{}': did you mean {purpose}?", sanitize_str(word));
        }
        let near: Vec<&str> = db.similar(word, 3).iter().map(|profile| profile.name.as_str()).collect();
        if !near.is_empty() {
            bail!("no robot or purpose is called '{}': did you mean {}?", sanitize_str(word), near.join(", "));
        }
        if !crate::policy::is_valid_token(word) {
            bail!(
                "'{}' is no purpose, no robot robotscope knows and no product token (letters, '_' and '-' only)",
                sanitize_str(word)
            );
        }
        add(&mut chosen, Chosen { written: word.clone(), profile: None });
    }
    for word in except {
        let Some(profile) = db.find(word) else {
            let near: Vec<&str> = db.similar(word, 3).iter().map(|profile| profile.name.as_str()).collect();
            let hint = if near.is_empty() { String::new() } else { format!(": did you mean {}?", near.join(", ")) };
            bail!("--except {}: no robot robotscope knows is called so{hint}", sanitize_str(word));
        };
        let before = chosen.len();
        chosen.retain(|c| !c.written.eq_ignore_ascii_case(profile.written()) && c.profile != Some(profile));
        if chosen.len() == before {
            bail!("--except {}: WHAT does not choose it, so there is nothing to leave out", profile.name);
        }
    }
    if chosen.is_empty() {
        bail!("nothing left to block");
    }
    Ok(chosen)
}

/// The purpose `word` misspells (`ai-trainig`, `ai_training`, `archives`), if any: a
/// word that is no robot must not be taken for a robot's name when a purpose was meant.
fn near_purpose(word: &str) -> Option<&'static str> {
    let squeeze =
        |text: &str| text.chars().filter(char::is_ascii_alphanumeric).flat_map(char::to_lowercase).collect::<String>();
    let wanted = squeeze(word);
    Purpose::ALL.iter().map(|purpose| purpose.name()).find(|name| {
        let name_squeezed = squeeze(name);
        wanted == name_squeezed || crate::policy::edit_distance(&wanted, &name_squeezed) <= 2
    })
}

/// The text to edit: the file, or nothing when the site has none (a 4xx: the block is
/// the first thing it will hold).
fn text_to_edit(loaded: &Loaded, what: &str) -> Result<Vec<u8>> {
    match loaded.availability {
        Availability::Available if loaded.read_in_part.is_some() => {
            bail!("only a part of the robots.txt was read, so there is no whole file to {what} (see the warning above)")
        }
        Availability::Available => Ok(loaded.txt.source().to_vec()),
        Availability::Status(400..=499) => Ok(Vec::new()),
        _ => bail!("there is no robots.txt to {what}: the server did not answer with one"),
    }
}

/// Refuses an edit whose result is past the 500 KiB RFC 9309 robots read (§2.5).
fn refuse_past_the_cut(after: &RobotsTxt) -> Result<()> {
    if after.source().len() > RFC9309_PARSE_LIMIT_BYTES {
        bail!("{}", BlockRefusal::PastTheCut { bytes: after.source().len() });
    }
    Ok(())
}

/// `robotscope block`.
pub fn block_command(args: &BlockArgs, db: &RobotsDb) -> Result<Outcome> {
    let chosen = choose(db, &args.what, &args.except)?;
    let loaded = load(&args.source, &args.source_options, None)?;
    let before = as_robots_read(text_to_edit(&loaded, "block")?);
    let tokens: Vec<String> = chosen.iter().map(|c| c.written.clone()).collect();
    let kept = db.robots_except(&tokens);
    let request = BlockRequest { chosen: &tokens, kept: &kept };
    if args.shown.check {
        return Ok(check(&before, &chosen));
    }
    let refused = refused_categories(&args.what);
    let signalled = if args.signal { refused.as_slice() } else { &[] };
    let ProvedBlock { after, proof } =
        block_proved(&before, request, signalled).map_err(|refusal| eyre!("{}", sanitize_str(&refusal.to_string())))?;
    write_output(&before, &after, args, &chosen)?;
    say_what_changed(&before, &chosen, &proof.classic_changes, args.signal.then_some(refused.as_slice()));
    // As `fix --diff`: a diff printed is a finding, for CI.
    let changed = before.source() != after.source();
    Ok(if args.shown.diff && changed { Outcome::Findings } else { Outcome::Clean })
}

/// `robotscope unblock`.
pub fn unblock_command(args: &UnblockArgs, db: &RobotsDb) -> Result<Outcome> {
    let chosen = choose(db, &args.robots, &[])?;
    let loaded = load(&args.source, &args.source_options, None)?;
    let before = as_robots_read(text_to_edit(&loaded, "unblock")?);
    let tokens: Vec<String> = chosen.iter().map(|c| c.written.clone()).collect();
    let kept = db.robots_except(&tokens);
    let request = BlockRequest { chosen: &tokens, kept: &kept };
    let robots: Vec<Robot> = chosen.iter().map(Chosen::robot).collect();
    let after = as_robots_read(unblock(&before, request, &robots));
    refuse_past_the_cut(&after)?;
    let proof = crate::policy::prove_unblock(&before, &after, request, &robots);
    if !proof.kept_changes.is_none() || !proof.not_blocked.is_empty() {
        let mut why: Vec<String> = proof
            .not_blocked
            .iter()
            .map(|(robot, reach)| format!("{robot} would be {} unlike a robot no group names", reach.word()))
            .collect();
        if !proof.kept_changes.is_none() {
            why.push(format!("for the other robots it {}", proof.kept_changes));
        }
        bail!("robotscope could not unblock safely ({}); nothing was changed", sanitize_str(&why.join("; ")));
    }
    write_file_or_diff(&before, &after, args.diff, &args.source)?;
    if before.source() == after.source() {
        stderr_line(format_args!(
            "robotscope: no group names {}: nothing to unblock, the file is as it was",
            sanitize_str(&tokens.join(", "))
        ));
        return Ok(Outcome::Clean);
    }
    for one in &chosen {
        let robot = one.robot();
        let reach = Reach::of(&after, &robot, Reading::Rfc9309);
        let selection = crate::policy::select(after.interpretation(Reading::Rfc9309), &robot, Reading::Rfc9309);
        let reads = match &selection.choice() {
            crate::policy::Choice::Fallback(name) => format!("is named by no group now: it reads {name}'s group"),
            crate::policy::Choice::Star => "is named by no group now: it reads the * group".to_owned(),
            // Named where a robot no group names reads, so that it does not fall back
            // to another robot's group.
            crate::policy::Choice::Token(_) => format!(
                "is named where a robot no group names reads (the * group, or a group that allows everything), \
                 rather than fall back to {}'s group",
                robot.fallbacks().join(", ")
            ),
            _ => "is named by no group now: no group applies to it".to_owned(),
        };
        stderr_line(format_args!(
            "robotscope: {} {} ({} under RFC 9309)",
            sanitize_str(&one.written),
            sanitize_str(&reads),
            reach.word()
        ));
    }
    stderr_line(format_args!("robotscope: under RFC 9309 every other robot keeps every verdict"));
    // The promise is RFC 9309's; what the older readings make of the edit is said.
    if !proof.classic_changes.is_none() {
        stderr_line(format_args!(
            "robotscope: under the older readings it {}",
            sanitize_str(&proof.classic_changes.to_string())
        ));
    }
    Ok(if args.diff { Outcome::Findings } else { Outcome::Clean })
}

/// `--check`: every robot asked may fetch nothing already, or the ones that can, and why.
fn check(txt: &RobotsTxt, chosen: &[Chosen<'_>]) -> Outcome {
    let mut open = Vec::new();
    for one in chosen {
        let robot = one.robot();
        let reach = Reach::of(txt, &robot, Reading::Rfc9309);
        if reach != Reach::Nothing {
            let verdict = crate::policy::evaluate(txt, &robot, "/", Reading::Rfc9309);
            open.push(format!(
                "{}: {} under RFC 9309 ({})",
                one.written,
                if reach == Reach::Everything { "may fetch every path" } else { "may fetch some paths" },
                verdict.explanation()
            ));
        }
    }
    if open.is_empty() {
        return Outcome::Clean;
    }
    for line in &open {
        stderr_line(format_args!("robotscope: not blocked: {}", sanitize_str(line)));
    }
    Outcome::Findings
}

/// The usage categories the purposes in `what` refuse (for `--signal`): training for
/// ai-training, AI input for the AI robots that answer or act, search for search.
fn refused_categories(what: &[String]) -> Vec<Category> {
    let purposes: Vec<Purpose> = what.iter().filter_map(|word| word.parse::<Purpose>().ok()).collect();
    let mut refused = Vec::new();
    if purposes.contains(&Purpose::AiTraining) {
        refused.push(Category::TrainAi);
    }
    if purposes.iter().any(|p| matches!(p, Purpose::AiSearch | Purpose::AiAssistant | Purpose::AiAgent)) {
        refused.push(Category::AiInput);
    }
    if purposes.contains(&Purpose::Search) {
        refused.push(Category::Search);
    }
    refused
}

/// Prints the result: the file, its diff, or (`--json`) the verdicts that change.
fn write_output(before: &RobotsTxt, after: &RobotsTxt, args: &BlockArgs, chosen: &[Chosen<'_>]) -> Result<()> {
    if !args.shown.json {
        return write_file_or_diff(before, after, args.shown.diff, &args.source);
    }
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut written = Ok(());
    // The classic readings look for the whole name (`img2dataset`).
    let robots: Vec<Robot> = chosen.iter().map(Chosen::robot).collect();
    let whole: Vec<Robot> = chosen.iter().map(|one| Robot::from_agent(&one.written)).collect();
    let reaches: Vec<(Vec<Reach>, Vec<Reach>)> = Reading::ALL
        .into_iter()
        .map(|reading| {
            let robots = if reading.is_classic() { &whole } else { &robots };
            (Reach::of_each(before, robots, reading), Reach::of_each(after, robots, reading))
        })
        .collect();
    for (index, one) in chosen.iter().enumerate() {
        for (reading, (was, is)) in Reading::ALL.into_iter().zip(&reaches) {
            let (was, is) = (was[index], is[index]);
            if was != is && written.is_ok() {
                let record =
                    Change { robot: &one.written, reading: reading.name(), before: was.word(), after: is.word() };
                written = json::write_line(&mut out, &record);
            }
        }
    }
    finish_output(written.and_then(|()| out.flush()))
}

/// One robot's change under one reading, for `--json`.
#[derive(Debug, Serialize)]
struct Change<'a> {
    robot: &'a str,
    reading: &'static str,
    before: &'static str,
    after: &'static str,
}

/// Prints the edited file (escaped on a terminal, byte for byte into a pipe), or its
/// unified diff.
fn write_file_or_diff(before: &RobotsTxt, after: &RobotsTxt, diff: bool, source: &str) -> Result<()> {
    let mut out = io::stdout().lock();
    let result = if diff {
        let name = if source == "-" { "robots.txt" } else { source };
        let text = crate::policy::diff::unified_diff(before.source(), after.source(), name);
        out.write_all(sanitize_lines(text.as_bytes()).as_bytes()).and_then(|()| out.flush())
    } else if out.is_terminal() {
        out.write_all(sanitize_lines(after.source()).as_bytes()).and_then(|()| out.flush())
    } else {
        out.write_all(after.source()).and_then(|()| out.flush())
    };
    finish_output(result)
}

/// Says on standard error what the block did: the robots blocked and how much each could
/// fetch before, what the older readings make of it, and what to know of some robots
/// (a control token, a robot documented as not obeying, one that serves other purposes
/// too).
fn say_what_changed(before: &RobotsTxt, chosen: &[Chosen<'_>], classic: &Impact, signalled: Option<&[Category]>) {
    let mut by_reach: BTreeMap<Reach, Vec<&str>> = BTreeMap::new();
    let robots: Vec<Robot> = chosen.iter().map(Chosen::robot).collect();
    for (one, reach) in chosen.iter().zip(Reach::of_each(before, &robots, Reading::Rfc9309)) {
        by_reach.entry(reach).or_default().push(&one.written);
    }
    let was: Vec<String> = by_reach
        .iter()
        .map(|(reach, robots)| {
            let before = match (reach, robots.len()) {
                (Reach::Everything, _) => "could fetch every path",
                (Reach::Part, _) => "could fetch some paths",
                (Reach::Nothing, 1) => "was blocked already",
                (Reach::Nothing, _) => "were blocked already",
            };
            format!("{} {before}: {}", robots.len(), robots.join(", "))
        })
        .collect();
    stderr_line(format_args!(
        "robotscope: under RFC 9309 each robot chosen may now fetch nothing ({}); every other robot (the \
         registry's, those the file names, and a robot no group names) keeps every verdict",
        sanitize_str(&was.join("; "))
    ));
    let classic = if classic.is_none() {
        "no verdict changes under the 1996 draft or the 1994 standard beyond those".to_owned()
    } else {
        format!("under the older readings it {classic}")
    };
    stderr_line(format_args!("robotscope: {}", sanitize_str(&classic)));
    for one in chosen.iter().filter(|one| one.profile.is_none()) {
        stderr_line(format_args!(
            "robotscope: note: {} is not in robotscope's registry (robotscope robots lists it)",
            sanitize_str(&one.written)
        ));
    }
    let profiles: Vec<&RobotProfile> = chosen.iter().filter_map(|one| one.profile).collect();
    for caveat in crate::robots_db::block_caveats(&profiles) {
        stderr_line(format_args!("robotscope: note: {}", sanitize_str(&caveat)));
    }
    match signalled {
        Some([]) => stderr_line(format_args!(
            "robotscope: note: --signal says the preferences of the purposes blocked, and WHAT names no purpose \
             that has one (ai-training, ai-search, ai-assistant, ai-agent, search): no preference was written"
        )),
        Some(_) => stderr_line(format_args!(
            "robotscope: note: Content-Signal and Content-Usage in the * group say preferences to every robot that \
             reads that group (a robot with a group of its own does not), and robots that do not read them ignore \
             them; Google Search Console reports them as unknown rules (which changes nothing)"
        )),
        None => {}
    }
}
