//! What a change to a robots.txt does to its verdicts: for every robot either version
//! names and for a robot no group names (`*`), under every reading, whether some path
//! now gets another verdict, with one such path to show for it.
//!
//! Fixes are checked with it before they are offered (issue 24): a fix that tidies a
//! file must not quietly change who may fetch what under a reading the user is not
//! looking at, and one that does says which verdicts it changes.
//!
//! How. For each robot and reading the rules that apply are put in a canonical form,
//! the form in which the reading's decision depends on nothing else: under RFC 9309 the
//! set of (kind, pattern) (the longest match decides, Allow wins a tie: order and
//! repeats mean nothing), under the 1996 draft the sequence of patterns each first seen
//! (the first match decides), under the 1994 standard the set of Disallow patterns (any
//! match disallows; Allow is no rule). Equal forms give equal verdicts for every path,
//! so most robots cost one comparison. Where the forms differ, paths built from the
//! patterns that differ (each with its wildcards filled in, and one byte past it) are
//! asked of both versions until one answers differently. For plain prefix rules that
//! search is complete: the longest pattern matching a path that changed answer is one of
//! them, and the path that pattern spells answers as the path does. With wildcards it
//! can miss a path, and then the change is not reported.
//!
//! Pure: texts in, flips out.

use std::fmt;

use super::agent::{self, Robot, classic_name};
use super::compiled::CompiledPolicy;
use super::parse::{AgentName, RobotsTxt, RuleKind, product_token};
use super::reading::Reading;

/// At most this many paths are asked of one robot under one reading (four per pattern
/// that differs; each costs a compiled check of a fraction of a microsecond).
const MAX_PROBES: usize = 1 << 20;

/// At most this many flips are kept (one per robot and reading); the rest are counted.
const MAX_FLIPS_KEPT: usize = 12;

/// A robot whose verdict on a path a change turns around.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Flip {
    /// Under which reading.
    pub reading: Reading,
    /// The robot, as the file names it (`*` for a robot no group names).
    pub robot: String,
    /// A path whose verdict changes (there may be others).
    pub path: String,
    /// The verdict before the change.
    pub before: bool,
    /// The verdict after it.
    pub after: bool,
}

impl fmt::Display for Flip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let word = |allowed| if allowed { "allowed" } else { "disallowed" };
        let robot = if self.robot == "*" { "a robot no group names" } else { self.robot.as_str() };
        // The classic readings know no wildcards: a path that shows one is a URL that
        // holds the character itself, which would otherwise read as a pattern.
        let literal = match (self.path.contains('*'), self.path.contains('$')) {
            _ if self.reading == Reading::Rfc9309 => "",
            (true, true) => " (a literal * and $)",
            (true, false) => " (a literal *)",
            (false, true) => " (a literal $)",
            (false, false) => "",
        };
        let (path, before, after) = (&self.path, word(self.before), word(self.after));
        write!(f, "{}: {robot} {path}{literal} {before} → {after}", self.reading.title())
    }
}

/// What a change does to the verdicts.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Impact {
    /// The first flips found, one per robot and reading.
    flips: Vec<Flip>,
    /// Every robot (under one reading) with a verdict changed, kept in `flips` or not.
    changed: Vec<(Reading, String)>,
    /// Robots (under one reading) whose wildcard rules changed in a way no path tried
    /// showed: they may get other verdicts.
    uncertain: Vec<(Reading, String)>,
}

impl Impact {
    /// True when no verdict changes, for any robot under any reading.
    #[must_use]
    pub fn is_none(&self) -> bool {
        self.changed.is_empty() && self.uncertain.is_empty()
    }

    /// The first flips found, one per robot and reading.
    #[must_use]
    pub fn flips(&self) -> &[Flip] {
        &self.flips
    }

    /// How many robots, each under one reading, have a verdict changed, or may have.
    #[must_use]
    pub fn changed(&self) -> usize {
        self.changed.len() + self.uncertain.len()
    }

    /// Every robot, under one reading each, with a verdict changed (a flip was found).
    #[must_use]
    pub fn changed_robots(&self) -> &[(Reading, String)] {
        &self.changed
    }

    /// The robots, under one reading each, whose wildcard rules changed in a way that no
    /// path tried shows: their verdicts may change.
    #[must_use]
    pub fn uncertain_robots(&self) -> &[(Reading, String)] {
        &self.uncertain
    }

    /// True when some verdict changes, or may, under `reading`.
    #[must_use]
    pub fn changes_under(&self, reading: Reading) -> bool {
        self.changed.iter().chain(&self.uncertain).any(|(changed, _)| *changed == reading)
    }
}

/// `changes no verdict under any reading`, or `changes verdicts: 1994 standard:
/// sogou inst spider /b disallowed → allowed; …`. Untrusted text (the robots' names,
/// the paths) is in it: escape it before it reaches a terminal.
impl fmt::Display for Impact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_none() {
            return f.write_str("changes no verdict under any reading");
        }
        if !self.flips.is_empty() {
            f.write_str("changes verdicts: ")?;
        }
        for (index, flip) in self.flips.iter().enumerate() {
            if index > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{flip}")?;
        }
        let more = self.changed.len().saturating_sub(self.flips.len());
        if more > 0 {
            write!(f, "; and {more} more")?;
        }
        // A robot named stands for every robot that reads the group it reads.
        let named =
            |classic: bool| self.changed.iter().any(|(reading, robot)| reading.is_classic() == classic && robot != "*");
        match (named(false), named(true)) {
            (false, false) => {}
            (true, false) => f.write_str(" (and so for the robots that fall back to those named)")?,
            (false, true) => f.write_str(
                " (and so for every robot whose name contains one named: the classic readings match by substring)",
            )?,
            (true, true) => f.write_str(
                " (and so for the robots that fall back to those named, and under the classic readings for every \
                 robot whose name contains one)",
            )?,
        }
        if let Some((reading, robot)) = self.uncertain.first() {
            let robot = if robot == "*" { "a robot no group names" } else { robot.as_str() };
            let others = self.uncertain.len() - 1;
            let others = if others > 0 { format!(" and {others} more") } else { String::new() };
            if self.flips.is_empty() {
                f.write_str("may change verdicts: ")?;
            } else {
                f.write_str("; may change: ")?;
            }
            write!(f, "{}: {robot}{others} (wildcard rules changed; no path tried shows it)", reading.title())?;
        }
        Ok(())
    }
}

/// What a fix does to the verdicts, as checked before it is offered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FixEffect {
    /// Checked alone.
    Alone(Impact),
    /// A file too large to check each of its many fixes alone in reasonable time: the
    /// fix was checked together with `others` fixes of its kind, and together they change
    /// no verdict. Alone it could change one only if another of them undid it.
    NoneTogether {
        /// The other fixes it was checked with.
        others: usize,
    },
}

impl FixEffect {
    /// True when the fix changes no verdict (checked alone, or with its kind).
    #[must_use]
    pub fn changes_nothing(&self) -> bool {
        match self {
            FixEffect::Alone(impact) => impact.is_none(),
            FixEffect::NoneTogether { .. } => true,
        }
    }
}

/// Like [`Impact`]'s, with how the check was made when the fix was checked with others.
impl fmt::Display for FixEffect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FixEffect::Alone(impact) => write!(f, "{impact}"),
            FixEffect::NoneTogether { others } => {
                write!(f, "changes no verdict under any reading, checked with the {others} other fixes of its kind")
            }
        }
    }
}

/// What changing `before` into `after` does to the verdicts (both read as robots read
/// them: give them the same RFC 9309 limit).
///
/// # Examples
///
/// ```
/// # #[cfg(feature = "parts")] {
/// use robotscope_core::impact::impact;
/// use robotscope_core::{Reading, RobotsTxt};
/// let before = RobotsTxt::parse(b"User-agent: *\nDisallow: /a\nDisallow: /a\n".to_vec());
/// let tidied = RobotsTxt::parse(b"User-agent: *\nDisallow: /a\n".to_vec());
/// assert!(impact(&before, &tidied).is_none());
/// let fixed = RobotsTxt::parse(b"User-agent: *\nDisallow: /\n".to_vec());
/// let flips = impact(&tidied, &fixed);
/// assert_eq!(flips.changed(), 3, "every reading");
/// assert!(flips.flips().iter().all(|flip| flip.before && !flip.after));
/// # }
/// ```
#[must_use]
pub fn impact(before: &RobotsTxt, after: &RobotsTxt) -> Impact {
    let same_bytes = before.source() == after.source();
    let readings: Vec<Reading> = Reading::ALL
        .into_iter()
        .filter(|reading| !(same_bytes && (reading.is_classic() || before.rfc9309_cut() == after.rfc9309_cut())))
        .collect();
    if readings.is_empty() {
        return Impact::default();
    }
    impact_among(before, after, &robots_named_under(before, after, &readings), &readings)
}

/// [`impact`] for the robots of `robots` (each as its label and [`Robot`]: a registry's
/// robots with their fallbacks, say) under `readings`.
#[must_use]
pub fn impact_among(before: &RobotsTxt, after: &RobotsTxt, robots: &[(String, Robot)], readings: &[Reading]) -> Impact {
    impact_keeping(before, after, robots, readings, MAX_FLIPS_KEPT)
}

/// [`impact_among`], keeping a flip (a path to show) for up to `keep` robots under one
/// reading each instead of the first few: for a report that lists every robot whose
/// verdict changes (`robotscope diff OLD NEW`).
#[must_use]
pub fn impact_keeping(
    before: &RobotsTxt,
    after: &RobotsTxt,
    robots: &[(String, Robot)],
    readings: &[Reading],
    keep: usize,
) -> Impact {
    let mut found = Impact::default();
    // The same bytes read alike under a reading give it the same verdicts: only the RFC
    // 9309 reading stops at a cut (§2.5), so a file against its own first 500 KiB (lint's
    // check of what RFC 9309 robots leave unread) is asked about under it alone, and the
    // classic readings' substring lookups for every robot named are saved.
    let same_bytes = before.source() == after.source();
    for &reading in readings {
        if same_bytes && (reading.is_classic() || before.rfc9309_cut() == after.rfc9309_cut()) {
            continue;
        }
        // What a robot gets depends only on the groups it reads in each version: robots
        // that read the same groups are asked once (20,000 robots of one group cost one
        // search, not 20,000).
        let mut asked: foldhash::HashMap<(Vec<usize>, Vec<usize>), Found> = foldhash::HashMap::default();
        for (written, robot) in robots {
            // Under the classic readings a robot is known by the name they look for, by
            // substring: `googlebot` for `Googlebot/2.1`.
            let classic = robot.classic_name();
            let label = if reading.is_classic() && written != "*" && !classic.is_empty() { classic } else { written };
            let label = &label.to_owned();
            let groups = |txt: &RobotsTxt| agent::select(txt.interpretation(reading), robot, reading).groups;
            let searched = asked
                .entry((groups(before), groups(after)))
                .or_insert_with(|| flip(before, after, robot, reading))
                .clone();
            match searched {
                Found::Same => {}
                Found::Flip(flip) => {
                    found.changed.push((reading, label.clone()));
                    if found.flips.len() < keep {
                        found.flips.push(Flip { robot: label.clone(), ..flip });
                    }
                }
                Found::Uncertain => found.uncertain.push((reading, label.clone())),
            }
        }
    }
    found
}

/// Every robot either text names, as the file writes it (its RFC 9309 token and its
/// classic name both from the line's value), then a robot no group names (`*`): the
/// robots [`impact`] checks.
#[must_use]
pub fn robots_named(before: &RobotsTxt, after: &RobotsTxt) -> Vec<(String, Robot)> {
    robots_named_under(before, after, &Reading::ALL)
}

/// [`robots_named`], from the groups of `readings` only.
fn robots_named_under(before: &RobotsTxt, after: &RobotsTxt, readings: &[Reading]) -> Vec<(String, Robot)> {
    let mut seen = foldhash::HashSet::default();
    // The values already taken, by their bytes: a name written on many lines, or read
    // under several readings, is made a robot once (a million User-agent lines cost a
    // million lookups, not six million robots made and thrown away).
    let mut values_seen: foldhash::HashSet<&[u8]> = foldhash::HashSet::default();
    let mut robots = Vec::new();
    for txt in [before, after] {
        for &reading in readings {
            for agent in txt.interpretation(reading).groups().iter().flat_map(super::parse::Group::agents) {
                if matches!(agent.name(), AgentName::Star) || !values_seen.insert(txt.text(&agent.value())) {
                    continue;
                }
                let mut value = String::from_utf8_lossy(txt.text(&agent.value())).trim().to_owned();
                let token = String::from_utf8_lossy(product_token(value.as_bytes())).into_owned();
                // A name holding a control or an invisible character is checked by the
                // token RFC 9309 reads in it (`Evil` of `Evil<BEL>Bot`, §2.2.1: letters,
                // `_` and `-`), which is all its group reaches, and is labelled so: the
                // label reaches terminals.
                if value.chars().any(super::escape::is_unsafe) {
                    if token.is_empty() {
                        continue;
                    }
                    value.clone_from(&token);
                }
                let classic = classic_name(&value);
                if seen.insert((token.to_ascii_lowercase(), classic.clone())) {
                    let robot = Robot { token, classic_name: classic, fallbacks: Vec::new(), ignores_star: false };
                    robots.push((value, robot));
                }
            }
        }
    }
    robots.push(("*".to_owned(), Robot::from_agent("*")));
    robots
}

/// The rules that apply to `robot` under `reading`, in the form the reading decides by.
fn canonical<'t>(txt: &'t RobotsTxt, robot: &Robot, reading: Reading) -> Vec<(RuleKind, &'t [u8])> {
    let interpretation = txt.interpretation(reading);
    let selection = agent::select(interpretation, robot, reading);
    let rules = selection.groups.iter().flat_map(|&group| interpretation.groups()[group].rules());
    let mut rules: Vec<(RuleKind, &[u8])> = rules.map(|rule| (rule.kind(), txt.pattern(reading, rule))).collect();
    match reading {
        Reading::Rfc9309 => {
            rules.sort_unstable_by(|a, b| key(a).cmp(&key(b)));
            rules.dedup();
        }
        // The first rule with a pattern decides for every path it matches: a later rule
        // with the same pattern never does.
        Reading::Draft1996 => {
            let mut first = foldhash::HashSet::default();
            rules.retain(|(_, pattern)| first.insert(*pattern));
        }
        // Allow is no rule and an empty Disallow matches nothing.
        Reading::Koster1994 => {
            rules.retain(|(kind, pattern)| *kind == RuleKind::Disallow && !pattern.is_empty());
            rules.sort_unstable_by_key(|(_, pattern)| *pattern);
            rules.dedup();
        }
    }
    rules
}

/// What the search for one robot under one reading found.
#[derive(Clone)]
enum Found {
    /// The same rules: the same verdicts.
    Same,
    /// A path that changed verdict.
    Flip(Flip),
    /// Wildcard rules changed, and no path tried changed verdict.
    Uncertain,
}

/// A path on which `robot` gets another verdict under `reading` after the change, if
/// there is one to find.
fn flip(before: &RobotsTxt, after: &RobotsTxt, robot: &Robot, reading: Reading) -> Found {
    let (old, new) = (canonical(before, robot, reading), canonical(after, robot, reading));
    if old == new {
        return Found::Same;
    }
    // Rules that give every path one verdict give the same verdicts however they are
    // spelled (`Disallow: *` and `Disallow: /`), which no probe could show exactly.
    if reading == Reading::Rfc9309 && uniform_verdict(&old).is_some() && uniform_verdict(&old) == uniform_verdict(&new)
    {
        return Found::Same;
    }
    let (old_policy, new_policy) =
        (CompiledPolicy::new(before, robot, reading), CompiledPolicy::new(after, robot, reading));
    let differing = differing_patterns(&old, &new, reading);
    // The search is complete for plain prefixes (see the module's documentation) and
    // for the classic readings, which read `*` and `$` as they are.
    let complete = reading.is_classic() || differing.iter().all(|pattern| super::pattern::is_plain_prefix(pattern));
    let probe_count = differing.len().saturating_mul(4).saturating_add(1);
    let probes = std::iter::once("/".to_owned())
        .chain(differing.into_iter().flat_map(|pattern| probe_paths(pattern, reading)))
        .take(MAX_PROBES);
    for path in probes {
        let (was, is) = (old_policy.check(&path).allowed(), new_policy.check(&path).allowed());
        if was != is {
            return Found::Flip(Flip { reading, robot: String::new(), path, before: was, after: is });
        }
    }
    if complete && probe_count <= MAX_PROBES { Found::Same } else { Found::Uncertain }
}

/// The verdict RFC 9309 gives every path under `rules`, when it is one: allowed when no
/// Disallow matches anything (RFC 9309 §2.2.2: an empty one matches nothing), disallowed
/// when no Allow is there and a Disallow matches every path (`/`, `*`, `/*`; every path
/// tried starts with `/`).
fn uniform_verdict(rules: &[(RuleKind, &[u8])]) -> Option<bool> {
    let disallows = rules.iter().filter(|(kind, pattern)| *kind == RuleKind::Disallow && !pattern.is_empty());
    if disallows.clone().next().is_none() {
        return Some(true);
    }
    let no_allow = rules.iter().all(|(kind, _)| *kind == RuleKind::Disallow);
    (no_allow && disallows.clone().any(|(_, pattern)| matches!(*pattern, b"/" | b"*" | b"/*"))).then_some(false)
}

/// The patterns the two forms do not share; for the 1996 draft, whose order matters,
/// every pattern from the first place where the sequences part.
fn differing_patterns<'a>(
    old: &'a [(RuleKind, &'a [u8])],
    new: &'a [(RuleKind, &'a [u8])],
    reading: Reading,
) -> Vec<&'a [u8]> {
    if reading == Reading::Draft1996 {
        let same = old.iter().zip(new).take_while(|(a, b)| a == b).count();
        return new[same..].iter().chain(&old[same..]).map(|(_, pattern)| *pattern).collect();
    }
    // Both are sorted: a merge walk finds what only one has. What the change brings
    // comes first: its paths make the plainer witness.
    let (mut i, mut j) = (0, 0);
    let (mut only_old, mut only_new) = (Vec::new(), Vec::new());
    while i < old.len() || j < new.len() {
        match (old.get(i), new.get(j)) {
            (Some(a), Some(b)) if a == b => (i, j) = (i + 1, j + 1),
            (Some(a), Some(b)) if key(a) < key(b) => {
                only_old.push(a.1);
                i += 1;
            }
            (_, Some(b)) => {
                only_new.push(b.1);
                j += 1;
            }
            (Some(a), None) => {
                only_old.push(a.1);
                i += 1;
            }
            (None, None) => break,
        }
    }
    only_new.extend(only_old);
    only_new
}

/// The order [`canonical`] sorts RFC 9309 rules in.
fn key<'p>(rule: &(RuleKind, &'p [u8])) -> (&'p [u8], bool) {
    (rule.1, rule.0 == RuleKind::Allow)
}

/// A pattern's wildcards filled with as little as makes a path as it would be written:
/// nothing, except between two slashes, where `x` (`/*/etc/` spells `/x/etc/`, which
/// it matches as it matches `//etc/`, and which a user would write; issue 35).
fn spell_wildcards(pattern: &str) -> String {
    let mut spelled = String::with_capacity(pattern.len());
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '*' {
            spelled.push(c);
            continue;
        }
        // A run of `*` is one wildcard.
        while chars.peek() == Some(&'*') {
            chars.next();
        }
        if spelled.ends_with('/') && chars.peek() == Some(&'/') {
            spelled.push('x');
        }
    }
    spelled
}

/// Paths a pattern speaks for. Under RFC 9309: what it spells (wildcards matching
/// nothing, a final `$` dropped), the same with something in each wildcard (a segment,
/// and a byte), one byte
/// past it, and for an `…/index.htm…` pattern the directory Google's Allow also allows.
/// The classic readings read `*` and `$` as they are: the pattern itself, and one byte
/// past it.
pub(crate) fn probe_paths(pattern: &[u8], reading: Reading) -> Vec<String> {
    let text = String::from_utf8_lossy(pattern);
    let rooted = |path: &str| if path.starts_with('/') { path.to_owned() } else { format!("/{path}") };
    if reading.is_classic() {
        let literal = rooted(&text);
        return vec![literal.clone(), format!("{literal}x")];
    }
    let text = text.strip_suffix('$').unwrap_or(&text);
    let spelled = rooted(&spell_wildcards(text));
    let mut paths = vec![spelled.clone(), format!("{spelled}x")];
    if text.contains('*') {
        // Something in each wildcard: a segment of its own, and a byte within the
        // segment (`/b*/` matches `/bx/`, which `Allow: /b/*` does not).
        paths.push(rooted(&text.replace('*', "/x")));
        paths.push(rooted(&text.replace('*', "x")));
    }
    if let Some(slash) = spelled.rfind('/')
        && spelled[slash..].starts_with("/index.htm")
    {
        paths.push(spelled[..=slash].to_owned());
    }
    paths
}

#[cfg(test)]
mod tests {
    use super::*;

    fn changes(before: &str, after: &str) -> Impact {
        impact(&RobotsTxt::parse(before.as_bytes().to_vec()), &RobotsTxt::parse(after.as_bytes().to_vec()))
    }

    /// Issue 24: merging the groups RFC 9309 merges anyway moves `Sogou inst spider` to
    /// the first record, which the classic readings read otherwise.
    #[test]
    fn a_merge_rfc9309_makes_anyway_changes_the_classic_readings() {
        let impact = changes(
            "User-agent: Sogou web spider\nDisallow: /a\n\nUser-agent: Sogou inst spider\nDisallow: /b\n",
            "User-agent: Sogou web spider\nDisallow: /a\nDisallow: /b\n",
        );
        assert!(!impact.changes_under(Reading::Rfc9309), "{impact}");
        let inst = |f: &&Flip| f.reading == Reading::Koster1994 && f.robot == "sogou inst spider";
        let flip = impact.flips().iter().find(inst).expect("a classic flip");
        assert_eq!((flip.path.as_str(), flip.before, flip.after), ("/b", false, true));
        assert!(impact.changes_under(Reading::Draft1996));
    }

    /// The classic readings match by substring: a flip for the name they look for
    /// (`googlebot`, not `Googlebot/2.1`) is one for every robot whose name holds it
    /// (Googlebot-Image), and the message says so. Found by the attack on issue 24.
    #[test]
    fn a_classic_flip_names_the_name_matched_and_who_else_it_is() {
        let impact = changes(
            "User-agent: Googlebot/2.1
Disallow: /private

User-agent: *
Disallow: /
",
            "User-agent: Googlebot
Disallow: /private

User-agent: *
Disallow: /
",
        );
        let flip = impact.flips().iter().find(|f| f.reading == Reading::Draft1996).expect("a classic flip");
        assert_eq!((flip.robot.as_str(), flip.before, flip.after), ("googlebot", false, true));
        let text = impact.to_string();
        assert!(text.contains("every robot whose name contains one named"), "{text}");
        // And Googlebot-Image, whose name holds it, flips as said.
        let image = Robot::from_agent("Googlebot-Image");
        let before =
            RobotsTxt::parse(b"User-agent: Googlebot/2.1\nDisallow: /private\n\nUser-agent: *\nDisallow: /\n".to_vec());
        let after =
            RobotsTxt::parse(b"User-agent: Googlebot\nDisallow: /private\n\nUser-agent: *\nDisallow: /\n".to_vec());
        assert!(matches!(super::flip(&before, &after, &image, Reading::Draft1996), Found::Flip(_)));
    }

    /// Under the classic readings `*` is a character like any other: an example path
    /// that holds one says so, and reads as a URL rather than a pattern.
    #[test]
    fn a_classic_example_path_with_a_star_says_it_is_literal() {
        let impact = changes("User-agent: *\nDisallow: /a\n", "User-agent: *\nDisallow: /a\nDisallow: /*.pdf$\n");
        let text = impact.to_string();
        assert!(text.contains("RFC 9309: a robot no group names /"), "{text}");
        assert!(text.contains("1996 draft: a robot no group names /*.pdf$ (a literal * and $) allowed"), "{text}");
        let rfc = impact.flips().iter().find(|f| f.reading == Reading::Rfc9309).expect("an RFC 9309 flip");
        assert!(!rfc.to_string().contains("literal"), "{rfc}");
    }

    /// Issue 24: a bidi control inside a name hides the robot: removing it gives the
    /// group to Googlebot.
    #[test]
    fn removing_a_control_inside_a_name_gives_the_robot_its_group() {
        let impact =
            changes("User-agent: \u{202E}Google\u{202C}bot\nDisallow: /\n", "User-agent: Googlebot\nDisallow: /\n");
        let googlebot = |f: &&Flip| f.reading == Reading::Rfc9309 && f.robot == "Googlebot";
        let flip = impact.flips().iter().find(googlebot).expect("an RFC 9309 flip");
        assert_eq!((flip.robot.as_str(), flip.path.as_str(), flip.before, flip.after), ("Googlebot", "/", true, false));
    }

    /// The same bytes with RFC 9309's 500 KiB cut: the classic readings read every byte
    /// of both, so only RFC 9309's verdicts can change, and only they are searched
    /// (issue 35: lint's check of what is past the cut asked every robot under every
    /// reading).
    #[test]
    fn a_cut_changes_only_what_rfc9309_reads() {
        let mut text = String::from("User-agent: *\nDisallow: /a\n");
        text.push_str(&"# padding\n".repeat(60_000));
        text.push_str("User-agent: LateBot\nDisallow: /late\n");
        let whole = RobotsTxt::parse(text.clone().into_bytes());
        let cut =
            RobotsTxt::parse(text.into_bytes()).with_rfc9309_limit(Some(crate::content::RFC9309_PARSE_LIMIT_BYTES));
        let impact = impact(&whole, &cut);
        assert_eq!(impact.changed_robots(), [(Reading::Rfc9309, "LateBot".to_owned())], "{impact}");
        let flip = &impact.flips()[0];
        // Cut, LateBot falls back to `*`: /a is closed to it, which its own group left open.
        assert_eq!((flip.path.as_str(), flip.before, flip.after), ("/a", true, false));
        assert!(super::impact(&cut, &cut).is_none());
    }

    #[test]
    fn order_repeats_and_unread_rules_change_nothing() {
        assert!(
            changes("User-agent: *\nDisallow: /a\nAllow: /b\n", "User-agent: *\nAllow: /b\nDisallow: /a\n")
                .flips()
                .iter()
                .all(|flip| flip.reading == Reading::Draft1996)
        );
        assert!(changes("User-agent: *\nDisallow: /a\nDisallow: /a/b\n", "User-agent: *\nDisallow: /a\n").is_none());
        assert!(changes("User-agent: *\nDisallow: /a\n# note\n", "User-agent: *\nDisallow: /a\n").is_none());
    }

    #[test]
    fn a_path_given_its_slash_is_said_to_block_it() {
        let impact = changes("User-agent: *\nDisallow: ~\n", "User-agent: *\nDisallow: /~\n");
        assert_eq!(impact.changed(), 3);
        assert!(impact.flips().iter().all(|flip| flip.path == "/~" && flip.before && !flip.after), "{impact}");
        assert!(
            impact
                .to_string()
                .starts_with("changes verdicts: RFC 9309: a robot no group names /~ allowed → disallowed")
        );
    }

    #[test]
    fn wildcards_are_probed_filled_in() {
        let impact = changes("User-agent: *\nDisallow: /*.pdf$\n", "User-agent: *\nDisallow: /*.pdf\n");
        let flip = impact.flips().iter().find(|f| f.reading == Reading::Rfc9309).expect("found");
        assert_eq!((flip.path.as_str(), flip.before, flip.after), ("/.pdfx", true, false));
        // The classic readings read `*` and `$` as they are: `/*.pdf$` and `/*.pdf`
        // differ for the path that spells the first.
        assert!(impact.changes_under(Reading::Koster1994));
    }

    /// Issue 35: a witness path is one a user would write: a wildcard between slashes is
    /// filled (`/x/etc/`), never left empty (`//etc/`).
    #[test]
    fn witness_paths_are_written_as_paths() {
        let impact = changes("User-agent: *\nDisallow: /a\n", "User-agent: *\nDisallow: /a\nDisallow: /*/etc/\n");
        let flip = impact.flips().iter().find(|f| f.reading == Reading::Rfc9309).expect("a flip");
        assert_eq!((flip.path.as_str(), flip.before, flip.after), ("/x/etc/", true, false));
        assert_eq!(spell_wildcards("/*/a*b/**/c*"), "/x/ab/x/c");
    }

    #[test]
    fn an_index_html_allow_speaks_for_its_directory() {
        let impact = changes("User-agent: *\nDisallow: /d/\nAllow: /d/index.html\n", "User-agent: *\nDisallow: /d/\n");
        assert!(impact.flips().iter().any(|f| f.reading == Reading::Rfc9309 && f.path == "/d/index.html"), "{impact}");
    }
}
