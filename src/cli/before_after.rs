//! `robotscope diff OLD NEW`: two robots.txt (files, standard input or sites) compared as
//! robots read them. First the unified diff, then every robot whose verdict changes (the
//! registry's, those either file names, and a robot no group names), grouped by purpose,
//! each with a path that shows the change and the line that decides it before and after.
//!
//! The search for changed verdicts is the impact machinery's, which `fix` and `block`
//! prove their edits with ([`crate::policy::impact_keeping`]).

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::{self, Write};

use color_eyre::eyre::{Result, bail};
use serde::Serialize;

use super::answers::write_why;
use super::{Loaded, Outcome, SourceOptions, finish_output, json, load};
use crate::policy::diff::unified_diff_between;
use crate::policy::escape::sanitize_lines;
use crate::policy::{Access, Availability, Impact, Reading, Robot, RobotsTxt, evaluate_fetched, impact_keeping};
use crate::robots_db::{Purpose, RobotsDb};
use crate::words::plural;

/// At most this many robots (each under one reading) are listed with a path and the
/// deciding lines; the rest are counted. Each costs two evaluations of the file.
const MOST_LISTED: usize = 2_000;

/// Robots that change alike are named before the change up to this many; more are
/// listed after it, wrapped.
const FEW_ROBOTS: usize = 3;

/// The width robot lists are wrapped to.
const WRAP_WIDTH: usize = 100;

/// How many of an older reading's changes the text shows before counting the rest.
const CLASSIC_SHOWN: usize = 3;

/// One side of the comparison: what was loaded, and the name its diff header gives it.
struct Side {
    loaded: Loaded,
    label: String,
}

impl Side {
    fn load(spec: &str, options: &SourceOptions) -> Result<Side> {
        let label = if spec == "-" { "standard input".to_owned() } else { spec.to_owned() };
        Ok(Side { loaded: load(spec, options, None)?, label })
    }

    /// The bytes the diff shows: the file, or nothing when the server sent none.
    fn body(&self) -> &[u8] {
        if self.loaded.availability == Availability::Available { self.loaded.txt.source() } else { &[] }
    }

    /// The rules `reading` applies: the file's, or when it could not be read, rules that
    /// give every path the verdict the fetch outcome gives (RFC 9309 §2.3.1.3: a 4xx
    /// allows all; §2.3.1.4: a 5xx or no answer disallows all).
    fn rules(&self, reading: Reading) -> Cow<'_, RobotsTxt> {
        match self.loaded.availability.access(reading) {
            Access::Rules => Cow::Borrowed(&self.loaded.txt),
            Access::AllowAll => Cow::Owned(RobotsTxt::default()),
            Access::DisallowAll => Cow::Owned(RobotsTxt::parse(b"User-agent: *\nDisallow: /\n".to_vec())),
        }
    }

    /// What decides `robot`'s verdict on `path`: `line 4: Disallow: /a`, the group where
    /// no rule matched, or why the file was not read.
    fn why(&self, robot: &Robot, path: &str, reading: Reading) -> Decided {
        let (txt, availability) = (&self.loaded.txt, self.loaded.availability);
        let verdict = evaluate_fetched(txt, availability, robot, path, reading);
        let rule = verdict.decided_by().map(|at| (at.line(), txt.rule_text(at.rule_in(txt, reading))));
        let group_line = verdict.group_line(txt.interpretation(reading));
        let mut why = Vec::new();
        write_why(
            &mut why,
            rule.as_ref().map(|(line, text)| (*line, "", text.as_bytes())),
            availability,
            reading,
            group_line,
        );
        let mut why = String::from_utf8_lossy(&why).into_owned();
        // A robot that reads another's group (Googlebot-Image, Googlebot's) says so.
        if let crate::policy::Choice::Fallback(name) = &verdict.selection().choice() {
            let _ = write!(why, " (via {name}'s group)");
        }
        Decided { line: rule.as_ref().map(|(line, _)| *line), rule: rule.map(|(_, text)| text), why }
    }
}

/// The line that decides a verdict, and the sentence that says so.
struct Decided {
    line: Option<usize>,
    rule: Option<String>,
    why: String,
}

/// A robot asked about: its label, how it reads the file, and the registry's purposes
/// for it (none for a robot only the file names).
struct Asked {
    label: String,
    robot: Robot,
    purposes: Vec<Purpose>,
}

/// The registry's robots (with their fallbacks), then those either file names that the
/// registry does not know, then a robot no group names (`*`).
fn robots_to_ask(db: &RobotsDb, old: &RobotsTxt, new: &RobotsTxt) -> Vec<Asked> {
    let mut asked: Vec<Asked> = db
        .profiles()
        .iter()
        .map(|profile| Asked {
            label: profile.name.clone(),
            robot: profile.robot(),
            purposes: profile.purposes.clone(),
        })
        .collect();
    for (label, robot) in crate::policy::robots_named(old, new) {
        // A robot the file names is judged as the registry knows it, not twice.
        let known = asked.iter().any(|one| one.robot.token().eq_ignore_ascii_case(robot.token()));
        if !known || label == "*" {
            asked.push(Asked { label, robot, purposes: Vec::new() });
        }
    }
    asked
}

/// `robotscope diff OLD NEW`.
pub fn diff_two(old: &str, new: &str, as_json: bool, options: &SourceOptions, db: &RobotsDb) -> Result<Outcome> {
    if old == "-" && new == "-" {
        bail!("standard input can be only one of OLD and NEW");
    }
    let (old, new) = (Side::load(old, options)?, Side::load(new, options)?);
    let asked = robots_to_ask(db, &old.loaded.txt, &new.loaded.txt);
    let pairs: Vec<(String, Robot)> = asked.iter().map(|one| (one.label.clone(), one.robot.clone())).collect();
    let changes: Vec<(Reading, Impact)> = Reading::ALL
        .into_iter()
        .map(|reading| {
            let impact = impact_keeping(&old.rules(reading), &new.rules(reading), &pairs, &[reading], MOST_LISTED);
            (reading, impact)
        })
        .collect();
    let changed = changes.iter().any(|(_, impact)| !impact.is_none());
    // Under the classic readings the impact machinery labels a robot by the name they
    // look for (`googlebot-image`): known by both, so that every change finds its robot.
    let mut by_label: HashMap<&str, &Asked> = HashMap::new();
    for one in &asked {
        by_label.insert(one.label.as_str(), one);
        by_label.entry(one.robot.classic_name()).or_insert(one);
    }
    let mut out = io::BufWriter::new(io::stdout().lock());
    let written = if as_json {
        write_json(&mut out, &old, &new, &changes, &by_label)
    } else {
        let text = report(&old, &new, &changes, &by_label);
        out.write_all(sanitize_lines(text.as_bytes()).as_bytes())
    };
    finish_output(written.and_then(|()| out.flush()))?;
    Ok(if changed { Outcome::Findings } else { Outcome::Clean })
}

/// The text: the unified diff, the RFC 9309 changes by purpose, the older readings'.
fn report(old: &Side, new: &Side, changes: &[(Reading, Impact)], by_label: &HashMap<&str, &Asked>) -> String {
    let mut text = String::new();
    for side in [old, new] {
        if side.loaded.availability.access(Reading::Rfc9309) != Access::Rules {
            let _ = writeln!(text, "# {}: {}", side.label, side.loaded.availability.reason(Reading::Rfc9309));
        }
    }
    text.push_str(&unified_diff_between(old.body(), new.body(), &old.label, &new.label));
    if old.body() == new.body() && old.loaded.availability == new.loaded.availability {
        text.push_str("The two files are the same.\n");
    }
    if changes.iter().all(|(_, impact)| impact.is_none()) {
        text.push_str("\nNo robot's verdict changes, on any path, under any reading.\n");
        return text;
    }
    for (reading, impact) in changes {
        if *reading == Reading::Rfc9309 {
            report_rfc9309(&mut text, old, new, impact, by_label);
        } else if !impact.is_none() {
            report_classic(&mut text, *reading, impact);
        }
    }
    text
}

/// The robots whose RFC 9309 verdict changes, under each purpose they serve, then those
/// only the file names, then a robot no group names. Robots that change alike (the same
/// path, verdicts and deciding lines: the robots of one group) share a line.
fn report_rfc9309(text: &mut String, old: &Side, new: &Side, impact: &Impact, by_label: &HashMap<&str, &Asked>) {
    let reading = Reading::Rfc9309;
    if impact.is_none() {
        text.push_str("\nUnder RFC 9309 no robot's verdict changes.\n");
        return;
    }
    let changed = impact.changed_robots().len();
    let _ = writeln!(text, "\nUnder RFC 9309 the verdicts of {} change:", plural(changed, "robot"));
    let word = |allowed: bool| if allowed { "allowed" } else { "disallowed" };
    // Each change as it is told: what it is, and why before and after.
    let told: Vec<(&str, String)> = impact
        .flips()
        .iter()
        .map(|flip| {
            let robot = &by_label[flip.robot.as_str()].robot;
            let (was, is) = (old.why(robot, &flip.path, reading), new.why(robot, &flip.path, reading));
            let what = format!(
                "{}: {} → {}\n      before: {}\n      after:  {}",
                flip.path,
                word(flip.before),
                word(flip.after),
                was.why,
                is.why
            );
            (flip.robot.as_str(), what)
        })
        .collect();
    let purposes_of = |label: &str| by_label.get(label).map_or(&[][..], |one| one.purposes.as_slice());
    let mut headings: Vec<(&str, Vec<&(&str, String)>)> = Purpose::ALL
        .iter()
        .map(|purpose| {
            (purpose.name(), told.iter().filter(|(label, _)| purposes_of(label).contains(purpose)).collect())
        })
        .collect();
    let outside = |star: bool| {
        told.iter().filter(move |(label, _)| (*label == "*") == star && purposes_of(label).is_empty()).collect()
    };
    headings.push(("named in a file, not in robotscope's registry", outside(false)));
    headings.push(("a robot no group names", outside(true)));
    for (heading, told) in headings.iter().filter(|(_, told)| !told.is_empty()) {
        let _ = writeln!(text, "\n  {heading}");
        let mut alike: Vec<(&str, Vec<&str>)> = Vec::new();
        for (label, what) in told {
            match alike.iter_mut().find(|(seen, _)| seen == what) {
                Some((_, labels)) => labels.push(label),
                None => alike.push((what, vec![label])),
            }
        }
        for (what, labels) in alike {
            if labels.len() <= FEW_ROBOTS {
                let _ = writeln!(text, "    {} {what}", labels.join(", "));
            } else {
                let _ = writeln!(text, "    {} robots {what}", labels.len());
                text.push_str(&wrapped(&labels, "      robots: ", "              "));
            }
        }
    }
    let unlisted = changed.saturating_sub(impact.flips().len());
    if unlisted > 0 {
        let _ = writeln!(text, "\n  and {} more, not listed", plural(unlisted, "robot"));
    }
    if let Some((_, first)) = impact.uncertain_robots().first() {
        let others = impact.uncertain_robots().len() - 1;
        let others = if others > 0 { format!(" and {} more", plural(others, "robot")) } else { String::new() };
        let _ = writeln!(
            text,
            "\n  may change: {first}{others} (wildcard rules changed in a way no path tried shows; check the paths \
             you care about with robotscope check)"
        );
    }
}

/// One line for an older reading: how many robots change, and the first few.
fn report_classic(text: &mut String, reading: Reading, impact: &Impact) {
    let shown: Vec<String> = impact
        .flips()
        .iter()
        .take(CLASSIC_SHOWN)
        .map(|flip| {
            let word = |allowed: bool| if allowed { "allowed" } else { "disallowed" };
            format!("{} {} {} → {}", flip.robot, flip.path, word(flip.before), word(flip.after))
        })
        .collect();
    let more = impact.changed().saturating_sub(shown.len());
    let more = if more > 0 { format!("; and {more} more") } else { String::new() };
    let _ = writeln!(
        text,
        "\nUnder the {}: the verdicts of {} change ({}{more}).",
        reading.title(),
        plural(impact.changed(), "robot"),
        shown.join("; ")
    );
}

/// `--json`: one object per robot and reading whose verdict changes (or may).
fn write_json(
    out: &mut dyn Write,
    old: &Side,
    new: &Side,
    changes: &[(Reading, Impact)],
    by_label: &HashMap<&str, &Asked>,
) -> io::Result<()> {
    let word = |allowed: bool| if allowed { "allowed" } else { "disallowed" };
    for (reading, impact) in changes {
        for flip in impact.flips() {
            // The classic readings label a robot by the name they look for.
            let asked = by_label.get(flip.robot.as_str());
            let robot = asked.map_or_else(|| Robot::from_agent(&flip.robot), |one| one.robot.clone());
            let (was, is) = (old.why(&robot, &flip.path, *reading), new.why(&robot, &flip.path, *reading));
            let purposes = asked.map(|one| one.purposes.iter().map(|p| p.name()).collect()).unwrap_or_default();
            let record = Change {
                r#type: "change",
                robot: asked.map_or(flip.robot.as_str(), |one| one.label.as_str()),
                purposes,
                reading: reading.name(),
                path: &flip.path,
                before: word(flip.before),
                after: word(flip.after),
                before_line: was.line,
                before_rule: was.rule,
                before_why: was.why,
                after_line: is.line,
                after_rule: is.rule,
                after_why: is.why,
            };
            json::write_line(out, &record)?;
        }
        for (_, robot) in impact.uncertain_robots() {
            json::write_line(out, &Uncertain { r#type: "uncertain", robot, reading: reading.name() })?;
        }
    }
    Ok(())
}

/// A robot's verdict that changes, for `--json`.
#[derive(Debug, Serialize)]
struct Change<'a> {
    r#type: &'static str,
    robot: &'a str,
    purposes: Vec<&'static str>,
    reading: &'static str,
    path: &'a str,
    before: &'static str,
    after: &'static str,
    before_line: Option<usize>,
    before_rule: Option<String>,
    /// Why, as the text says it: the deciding line, the group where no rule matched
    /// (`via` a fallback's), or why the file was not read (a 5xx).
    before_why: String,
    after_line: Option<usize>,
    after_rule: Option<String>,
    after_why: String,
}

/// A robot whose verdicts may change (wildcard rules changed; no path tried shows it).
#[derive(Debug, Serialize)]
struct Uncertain<'a> {
    r#type: &'static str,
    robot: &'a str,
    reading: &'static str,
}

/// `names` joined with commas, in lines of at most [`WRAP_WIDTH`] characters (a longer
/// name has a line of its own), the first after `first`, the others after `indent`.
fn wrapped(names: &[&str], first: &str, indent: &str) -> String {
    let mut text = String::from(first);
    let mut width = first.chars().count();
    for (index, name) in names.iter().enumerate() {
        let last = index + 1 == names.len();
        let piece = if last { (*name).to_owned() } else { format!("{name},") };
        let piece_width = piece.chars().count();
        if width > indent.len() && width + 1 + piece_width > WRAP_WIDTH {
            text.push('\n');
            text.push_str(indent);
            width = indent.len();
        } else if index > 0 {
            text.push(' ');
            width += 1;
        }
        text.push_str(&piece);
        width += piece_width;
    }
    text.push('\n');
    text
}
