//! Blocking robots, and unblocking them, with an edit that changes nothing else (issue
//! 37): the chosen robots may then fetch nothing under RFC 9309, and every other robot
//! keeps every verdict on every path.
//!
//! The edit, on the file as RFC 9309 groups it (§2.1: User-agent lines, then rules;
//! groups naming one robot are merged):
//!
//! - a chosen robot leaves every group it shares with others, which stays for them;
//! - a group that only chosen robots name goes, its rules and extensions with it;
//!   comments, blank lines and Sitemap lines stay;
//! - the chosen robots are gathered in one block group (`Disallow: /` and nothing
//!   that allows): an existing one is extended, else one is written before the first
//!   group;
//! - a robot kept whose groups would change because of the edit (one that falls back
//!   to a chosen robot's token, as Googlebot-Image falls back to Googlebot) is named
//!   in the groups it reads now, so that it reads them still.
//!
//! Blocking what is blocked changes nothing: a chosen robot already in a block group and
//! in no other is left alone, so the output is a fixed point. [`prove`] checks the
//! promise on the result with the impact machinery ([`super::impact`]), on witness
//! paths built from every rule; the caller refuses an edit it cannot prove.
//!
//! Pure: bytes in, bytes out.

use std::collections::BTreeMap;
use std::fmt;

use super::agent::{Choice, Robot, select};
use super::compiled::CompiledPolicy;
use super::content::RFC9309_PARSE_LIMIT_BYTES;
use super::impact::{Impact, impact_among, probe_paths, robots_named};
use super::parse::{AgentName, FieldKind, Group, RobotsTxt, RuleKind};
use super::reading::Reading;
use super::usage::{Category, read_content_signal, read_content_usage};

/// The file with the `*` group saying no to `categories` for every path, in a
/// `Content-Signal` line (Cloudflare's Content Signals) and, for the categories the IETF
/// vocabulary has (`train-ai`, `search`), a `Content-Usage` line: added to the last `*`
/// group, or in a new `User-agent: *` group at the end when the file has none. A
/// category the group refuses already (each field on its own, as [`super::usage`]
/// combines them: the most restrictive wins) is not said again, so the edit is a fixed
/// point. Preferences change no verdict: they say what a robot may do with what it
/// fetches.
#[must_use]
pub fn refuse_usage(txt: &RobotsTxt, categories: &[Category]) -> Vec<u8> {
    let mut editor = Editor::new(txt, BlockRequest { chosen: &[], kept: &[] });
    editor.refuse_usage(categories);
    editor.write()
}

/// What a block or an unblock asks: the robots it is for, and the robots whose
/// verdicts must not change.
#[derive(Debug, Clone, Copy)]
pub struct BlockRequest<'a> {
    /// The product tokens of the robots to block (or unblock), as they are to be
    /// written.
    pub chosen: &'a [String],
    /// Every other robot the promise covers (a registry's, with their fallbacks): the
    /// robots the file names and a robot no group names are covered too.
    pub kept: &'a [Robot],
}

/// How much of a site a robot may fetch under a reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reach {
    /// Every path.
    Everything,
    /// Some paths and not others.
    Part,
    /// No path.
    Nothing,
}

impl Reach {
    /// `allowed`, `partly` or `blocked`, as the output says it.
    #[must_use]
    pub fn word(self) -> &'static str {
        match self {
            Reach::Everything => "allowed",
            Reach::Part => "partly",
            Reach::Nothing => "blocked",
        }
    }

    /// How much `robot` may fetch of `txt` under `reading`, decided on witness paths
    /// built from every rule that applies to it (each pattern spelled, filled in, and one
    /// byte past it) and `/`, as Google's matcher decides each. For plain prefix rules
    /// that is exact: a path that some Disallow decides has the Disallow's own path
    /// decided the same way.
    #[must_use]
    pub fn of(txt: &RobotsTxt, robot: &Robot, reading: Reading) -> Reach {
        let policy = CompiledPolicy::new(txt, robot, reading);
        let interpretation = txt.interpretation(reading);
        let patterns = policy
            .selection()
            .groups()
            .iter()
            .flat_map(|&group| interpretation.groups()[group].rules())
            .map(|rule| txt.pattern(reading, rule));
        let witnesses = std::iter::once("/".to_owned()).chain(patterns.flat_map(|p| probe_paths(p, reading)));
        let (mut allowed, mut disallowed) = (false, false);
        for path in witnesses {
            if policy.check(&path).allowed() {
                allowed = true;
            } else {
                disallowed = true;
            }
            if allowed && disallowed {
                return Reach::Part;
            }
        }
        if disallowed { Reach::Nothing } else { Reach::Everything }
    }

    /// [`Reach::of`] for each of `robots`: robots that read the same groups get the
    /// same verdicts, so each set of groups is asked once (the registry's 188 robots
    /// reading a `*` group of 3,000 rules cost one search, not 188).
    #[must_use]
    pub fn of_each(txt: &RobotsTxt, robots: &[Robot], reading: Reading) -> Vec<Reach> {
        let interpretation = txt.interpretation(reading);
        let mut asked: std::collections::HashMap<Vec<usize>, Reach> = std::collections::HashMap::new();
        robots
            .iter()
            .map(|robot| {
                let groups = select(interpretation, robot, reading).groups;
                *asked.entry(groups).or_insert_with(|| Reach::of(txt, robot, reading))
            })
            .collect()
    }
}

/// The file with the chosen robots blocked (see the module documentation).
#[must_use]
pub fn block(txt: &RobotsTxt, request: BlockRequest<'_>) -> Vec<u8> {
    Editor::new(txt, request).block()
}

/// The file with the chosen robots named by no group any more: they read what a robot no
/// group names reads (the `*` group), and nothing else changes. `chosen` are the same
/// robots as they read the file (with their fallbacks): one that would then fall back
/// to another robot's group (Googlebot-Image to Googlebot's) is named in the `*` groups
/// instead, or in a group of its own that allows everything when there are none.
#[must_use]
pub fn unblock(txt: &RobotsTxt, request: BlockRequest<'_>, chosen: &[Robot]) -> Vec<u8> {
    Editor::new(txt, request).unblock(chosen)
}

/// What an edit does, checked: the chosen robots that can still fetch something (and
/// how much), and what changes for the others.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proof {
    /// Chosen robots not blocked under RFC 9309 after the edit, with what they may
    /// fetch: empty when the block holds.
    pub not_blocked: Vec<(String, Reach)>,
    /// Verdicts that change for the robots kept, under RFC 9309: none when the promise
    /// holds.
    pub kept_changes: Impact,
    /// Verdicts that change under the classic readings, for every robot (the promise is
    /// RFC 9309's; the older readings are said).
    pub classic_changes: Impact,
}

impl Proof {
    /// True when the edit does what it promises under RFC 9309.
    #[must_use]
    pub fn holds(&self) -> bool {
        self.not_blocked.is_empty() && self.kept_changes.is_none()
    }
}

/// The file as RFC 9309 robots read it: to its 500 KiB cut (§2.5), whatever was
/// downloaded, since that is what a block's proof must hold for.
#[must_use]
pub fn as_robots_read(bytes: Vec<u8>) -> RobotsTxt {
    RobotsTxt::parse(bytes).with_rfc9309_limit(Some(RFC9309_PARSE_LIMIT_BYTES))
}

/// A block made and proved: the edited file, as RFC 9309 robots read it, and the proof
/// (with what the older readings make of it).
#[derive(Debug, Clone)]
pub struct ProvedBlock {
    /// The edited file.
    pub after: RobotsTxt,
    /// What the edit does, checked.
    pub proof: Proof,
}

/// Why no block was made.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum BlockRefusal {
    /// The edited file would be past the bytes RFC 9309 robots read (§2.5): lines added
    /// would move rules out of what they read, so only a file that fits is edited.
    PastTheCut {
        /// The edited file's size.
        bytes: usize,
    },
    /// The file itself is past that cut: what follows it is unread, and an edit would
    /// move rules into what robots read.
    FilePastTheCut {
        /// The file's size.
        bytes: usize,
    },
    /// The edit could not be proved (a fault to report): what the proof found.
    NotProved(String),
}

impl fmt::Display for BlockRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BlockRefusal::PastTheCut { bytes } => write!(
                f,
                "the edited file would be {bytes} bytes, past the {RFC9309_PARSE_LIMIT_BYTES} bytes RFC 9309 robots \
                 read (§2.5): lines added move rules out of what they read, so robotscope edits only a file that \
                 fits; shorten it first (robotscope lint names what robots leave unread)"
            ),
            BlockRefusal::FilePastTheCut { bytes } => write!(
                f,
                "the file is {bytes} bytes, past the {RFC9309_PARSE_LIMIT_BYTES} bytes RFC 9309 robots read \
                 (§2.5): what follows is unread, and an edit would move rules into or out of what they read, so \
                 robotscope edits only a file that fits; shorten it first (robotscope lint names what robots leave \
                 unread)"
            ),
            BlockRefusal::NotProved(why) => write!(
                f,
                "robotscope could not make this block safely ({why}); nothing was changed. Please report the file."
            ),
        }
    }
}

/// [`block`], then for `refused` (empty for none) [`refuse_usage`], on `before` as
/// RFC 9309 robots read it ([`as_robots_read`]); refused unless the file and the result
/// fit in what they read and [`prove`] shows the promise holds. What `robotscope block` prints and
/// the explorer's policy view offers.
///
/// # Errors
///
/// [`BlockRefusal`] when the result is past the cut or the proof fails.
pub fn block_proved(
    before: &RobotsTxt,
    request: BlockRequest<'_>,
    refused: &[Category],
) -> Result<ProvedBlock, BlockRefusal> {
    if before.source().len() > RFC9309_PARSE_LIMIT_BYTES {
        return Err(BlockRefusal::FilePastTheCut { bytes: before.source().len() });
    }
    let mut after = as_robots_read(block(before, request));
    if !refused.is_empty() {
        after = as_robots_read(refuse_usage(&after, refused));
    }
    if after.source().len() > RFC9309_PARSE_LIMIT_BYTES {
        return Err(BlockRefusal::PastTheCut { bytes: after.source().len() });
    }
    let proof = prove(before, &after, request);
    if !proof.holds() {
        let mut why: Vec<String> =
            proof.not_blocked.iter().map(|(robot, reach)| format!("{robot} would still be {}", reach.word())).collect();
        if !proof.kept_changes.is_none() {
            why.push(format!("for the robots kept it {}", proof.kept_changes));
        }
        return Err(BlockRefusal::NotProved(why.join("; ")));
    }
    Ok(ProvedBlock { after, proof })
}

/// Checks a block of `request.chosen` that made `after` from `before`.
#[must_use]
pub fn prove(before: &RobotsTxt, after: &RobotsTxt, request: BlockRequest<'_>) -> Proof {
    let chosen = lower(request.chosen);
    let not_blocked = request
        .chosen
        .iter()
        .map(|token| (token.clone(), Reach::of(after, &named_robot(token), Reading::Rfc9309)))
        .filter(|(_, reach)| *reach != Reach::Nothing)
        .collect();
    prove_with(before, after, request, &chosen, not_blocked)
}

/// Checks an unblock of `request.chosen` (`chosen`, as they read the file) that made
/// `after` from `before`: the robots unblocked now read what a robot no group names
/// reads, the same groups or, when it reads none, a group that allows everything
/// (listed in `not_blocked`, with what they may fetch, only when they do not).
#[must_use]
pub fn prove_unblock(before: &RobotsTxt, after: &RobotsTxt, request: BlockRequest<'_>, chosen: &[Robot]) -> Proof {
    let lowered = lower(request.chosen);
    let interpretation = after.interpretation(Reading::Rfc9309);
    let nobody = select(interpretation, &Robot::from_agent("*"), Reading::Rfc9309).groups;
    let not_blocked = chosen
        .iter()
        .filter(|robot| {
            let reads = select(interpretation, robot, Reading::Rfc9309).groups;
            if nobody.is_empty() {
                Reach::of(after, robot, Reading::Rfc9309) != Reach::Everything
            } else {
                reads != nobody
            }
        })
        .map(|robot| (robot.token.clone(), Reach::of(after, robot, Reading::Rfc9309)))
        .collect();
    prove_with(before, after, request, &lowered, not_blocked)
}

fn prove_with(
    before: &RobotsTxt,
    after: &RobotsTxt,
    request: BlockRequest<'_>,
    chosen: &[String],
    not_blocked: Vec<(String, Reach)>,
) -> Proof {
    let mut kept: Vec<(String, Robot)> =
        request.kept.iter().map(|robot| (robot.token.clone(), robot.clone())).collect();
    // A robot the file names is judged as the registry knows it (Googlebot-Image with
    // its fallback to Googlebot), not twice.
    for (name, robot) in robots_named(before, after) {
        if !kept.iter().any(|(_, known)| known.token.eq_ignore_ascii_case(&robot.token)) {
            kept.push((name, robot));
        }
    }
    kept.retain(|(_, robot)| !chosen.contains(&robot.token.to_ascii_lowercase()));
    let mut everyone = kept.clone();
    // The classic readings look for the whole name (`img2dataset`), not RFC 9309's token.
    everyone.extend(request.chosen.iter().map(|token| (token.clone(), Robot::from_agent(token))));
    Proof {
        not_blocked,
        kept_changes: impact_among(before, after, &kept, &[Reading::Rfc9309]),
        classic_changes: impact_among(before, after, &everyone, &[Reading::Draft1996, Reading::Koster1994]),
    }
}

/// Tokens in lower case, as groups name them.
fn lower(tokens: &[String]) -> Vec<String> {
    tokens.iter().map(|token| named_robot(token).token.to_ascii_lowercase()).collect()
}

/// The robot a `User-agent: {token}` line reaches under RFC 9309: the token as §2.2.1
/// reads the line (letters, `_` and `-`), so that `AI2Bot`, a name the operator
/// documents, is the robot `AI` that Google's matcher finds in it.
#[must_use]
pub fn named_robot(token: &str) -> Robot {
    Robot::from_agent(&String::from_utf8_lossy(super::parse::product_token(token.as_bytes())))
}

/// A preference list (`search=yes, ai-train=yes`, or Content-Usage's with a path
/// before it) with the keys of `keys` said `no` (spelled `no_token`): `search=yes,
/// ai-train=no`.
fn say_no(value: &[u8], keys: &[&str], no_token: &str) -> String {
    let value = String::from_utf8_lossy(value);
    let (path, list) = match value.split_once(|c: char| c.is_ascii_whitespace()) {
        Some((path, list)) if path.starts_with(['/', '*']) => (format!("{path} "), list),
        _ => (String::new(), value.as_ref()),
    };
    let pairs: Vec<String> = list
        .split(',')
        .map(|pair| match pair.split_once('=') {
            Some((key, _)) if keys.iter().any(|wanted| key.trim().eq_ignore_ascii_case(wanted)) => {
                format!("{}={no_token}", key.trim())
            }
            _ => pair.trim().to_owned(),
        })
        .collect();
    format!("{path}{}", pairs.join(", "))
}

/// True for a pattern that matches every path under RFC 9309.
fn matches_everything(pattern: &[u8]) -> bool {
    matches!(pattern, b"/" | b"/*" | b"*")
}

/// The key of [`Editor::pins`] for the robots that read no group today.
const READS_NO_GROUP: usize = usize::MAX;

/// Line edits, gathered before they are written.
struct Editor<'t> {
    txt: &'t RobotsTxt,
    chosen: Vec<String>,
    /// The tokens as they are to be written, in the order given.
    written: Vec<String>,
    kept: Vec<Robot>,
    /// Lines to leave out.
    removed: std::collections::BTreeSet<usize>,
    /// Lines to write after a line (its number), in order.
    after: BTreeMap<usize, Vec<String>>,
    /// Lines to write before a line.
    before: BTreeMap<usize, Vec<String>>,
}

impl<'t> Editor<'t> {
    fn new(txt: &'t RobotsTxt, request: BlockRequest<'_>) -> Editor<'t> {
        let mut written: Vec<String> = Vec::new();
        for token in request.chosen {
            if !written.iter().any(|seen| seen.eq_ignore_ascii_case(token)) {
                written.push(token.clone());
            }
        }
        Editor {
            txt,
            chosen: lower(&written),
            written,
            kept: request.kept.to_vec(),
            removed: std::collections::BTreeSet::new(),
            after: BTreeMap::new(),
            before: BTreeMap::new(),
        }
    }

    fn groups(&self) -> &'t [Group] {
        self.txt.interpretation(Reading::Rfc9309).groups()
    }

    fn is_chosen(&self, name: &AgentName) -> bool {
        matches!(name, AgentName::Name(name) if self.chosen.contains(name))
    }

    /// A group that blocks whoever it names: rules, all of them Disallows of every path.
    fn is_block_group(&self, group: &Group) -> bool {
        !group.rules().is_empty()
            && group.rules().iter().all(|rule| {
                rule.kind() == RuleKind::Disallow && matches_everything(self.txt.pattern(Reading::Rfc9309, rule))
            })
    }

    fn block(mut self) -> Vec<u8> {
        let groups = self.groups();
        let pins = self.pins(true);
        let block_groups: Vec<usize> = (0..groups.len()).filter(|&g| self.is_block_group(&groups[g])).collect();
        // Out of every group that does not block them; the robots pinned named where
        // they read (a block group too).
        for (index, group) in groups.iter().enumerate() {
            let pinned = pins.get(&index).map_or(&[][..], Vec::as_slice);
            if block_groups.contains(&index) {
                self.name_in(group, pinned);
            } else {
                self.leave(group, pinned);
            }
        }
        // Into a block group: those not in one yet.
        let blocked_already = |token: &str| {
            block_groups.iter().any(|&g| {
                groups[g].agents().iter().any(|agent| matches!(agent.name(), AgentName::Name(n) if n == token))
            })
        };
        let missing: Vec<String> = self
            .written
            .iter()
            .filter(|token| !blocked_already(&named_robot(token).token.to_ascii_lowercase()))
            .cloned()
            .collect();
        // Pinned robots that read no group get one that allows everything (an empty
        // Disallow, which every reading reads so), after the block group.
        let mut free: Vec<String> = Vec::new();
        if let Some(tokens) = pins.get(&READS_NO_GROUP) {
            free.push(String::new());
            free.extend(tokens.iter().map(|token| format!("User-agent: {token}")));
            free.push("Disallow:".to_owned());
        }
        if !missing.is_empty() || !free.is_empty() {
            let lines: Vec<String> = missing.iter().map(|token| format!("User-agent: {token}")).collect();
            match block_groups.first() {
                Some(&g) => {
                    let last_agent =
                        groups[g].agents().last().map_or(groups[g].first_line(), super::parse::AgentLine::line);
                    self.after.entry(last_agent).or_default().extend(lines);
                    self.after.entry(groups[g].last_line()).or_default().extend(free);
                }
                None => self.new_group_first(lines, free),
            }
        }
        self.write()
    }

    fn unblock(mut self, chosen: &[Robot]) -> Vec<u8> {
        let pins = self.pins(false);
        for (index, group) in self.groups().iter().enumerate() {
            self.leave(group, pins.get(&index).map_or(&[][..], Vec::as_slice));
        }
        self.keep_from_falling_back(chosen);
        self.write()
    }

    /// Names the robots unblocked that would fall back to another robot's groups in
    /// the groups a robot no group names reads (RFC 9309 §2.2.1: a robot reads every
    /// group that names it, so named in each `*` group it reads just those), or, when
    /// there are none, in a group of their own that allows everything.
    fn keep_from_falling_back(&mut self, chosen: &[Robot]) {
        let interpretation = self.txt.interpretation(Reading::Rfc9309);
        let has_groups_after = |token: &str| {
            !self.chosen.contains(&token.to_ascii_lowercase())
                && matches!(
                    select(interpretation, &Robot::from_agent(token), Reading::Rfc9309).choice,
                    Choice::Token(_)
                )
        };
        let stranded: Vec<String> = chosen
            .iter()
            .filter(|robot| robot.fallbacks.iter().any(|fallback| has_groups_after(fallback)))
            .map(|robot| robot.token.clone())
            .collect();
        if stranded.is_empty() {
            return;
        }
        let star: Vec<&Group> = self.groups().iter().filter(|group| group.names_star()).collect();
        for group in &star {
            self.name_in(group, &stranded);
        }
        if star.is_empty() {
            let end = self.txt.lines().len();
            let mut lines = Vec::new();
            if end > 0 && !self.txt.line_text(end).iter().all(u8::is_ascii_whitespace) {
                lines.push(String::new());
            }
            lines.extend(stranded.iter().map(|token| format!("User-agent: {token}")));
            lines.push("Disallow:".to_owned());
            self.after.entry(end).or_default().extend(lines);
        }
    }

    fn refuse_usage(&mut self, categories: &[Category]) {
        let interpretation = self.txt.interpretation(Reading::Rfc9309);
        let star = self.groups().iter().rfind(|group| group.names_star());
        let (mut signal_no, mut usage_no) = ([false; 3], [false; 2]);
        if let Some(group) = star {
            let in_group = interpretation
                .fields()
                .iter()
                .filter(|field| (group.first_line()..=group.last_line()).contains(&field.line()));
            for field in in_group {
                let value = self.txt.text(&field.value());
                // A line that says yes to a category refused now says no (issue 35: a
                // `yes` beside a `no` would leave the file contradicting itself).
                let said_yes = |said: &[Option<bool>]| {
                    categories.iter().any(|category| said.get(category.index()) == Some(&Some(true)))
                };
                match field.kind() {
                    FieldKind::ContentSignal => {
                        let said = read_content_signal(value);
                        if said_yes(&said) {
                            let keys: Vec<&str> = categories.iter().map(|category| category.signal_key()).collect();
                            self.rewrite_value(field, &say_no(value, &keys, "no"));
                            for category in categories {
                                signal_no[category.index()] |= said[category.index()].is_some();
                            }
                        }
                        for (no, said) in signal_no.iter_mut().zip(said) {
                            *no |= said == Some(false);
                        }
                    }
                    FieldKind::ContentUsage => {
                        let rule = read_content_usage(value);
                        let every_path = rule.path.is_none_or(matches_everything);
                        let said = rule.said.unwrap_or_default();
                        // A yes for some paths too: the longest path decides, and a
                        // `/docs/ train-ai=y` would outlive the no for every path.
                        if said_yes(&said) {
                            let keys: Vec<&str> = categories.iter().map(|category| category.name()).collect();
                            self.rewrite_value(field, &say_no(value, &keys, "n"));
                            for category in categories.iter().filter(|category| category.index() < 2) {
                                usage_no[category.index()] |= every_path && said[category.index()].is_some();
                            }
                        }
                        for (no, said) in usage_no.iter_mut().zip(said) {
                            *no |= every_path && said == Some(false);
                        }
                    }
                    _ => {}
                }
            }
        }
        let mut wanted: Vec<Category> = Category::ALL.into_iter().filter(|c| categories.contains(c)).collect();
        wanted.dedup();
        let signal: Vec<String> = wanted
            .iter()
            .filter(|category| !signal_no[category.index()])
            .map(|category| format!("{}=no", category.signal_key()))
            .collect();
        let usage: Vec<String> = wanted
            .iter()
            .filter(|category| category.index() < 2 && !usage_no[category.index()])
            .map(|category| format!("{}=n", category.name()))
            .collect();
        let mut lines = Vec::new();
        if !signal.is_empty() {
            lines.push(format!("Content-Signal: {}", signal.join(", ")));
        }
        if !usage.is_empty() {
            lines.push(format!("Content-Usage: {}", usage.join(", ")));
        }
        if lines.is_empty() {
            return;
        }
        if let Some(group) = star {
            self.after.entry(group.last_line()).or_default().extend(lines);
        } else {
            let end = self.txt.lines().len();
            lines.insert(0, "User-agent: *".to_owned());
            if end > 0 && !self.txt.line_text(end).iter().all(u8::is_ascii_whitespace) {
                lines.insert(0, String::new());
            }
            self.after.entry(end).or_default().extend(lines);
        }
    }

    /// Writes `field`'s line with `value` in place of its value (what comes before and
    /// after it, a comment say, stays).
    fn rewrite_value(&mut self, field: &super::parse::Field, value: &str) {
        let source = self.txt.source();
        let Some(line) = self.txt.lines().get(field.line() - 1) else { return };
        let range = field.value();
        let mut text = String::from_utf8_lossy(&source[line.start()..range.start]).into_owned();
        text.push_str(value);
        text.push_str(&String::from_utf8_lossy(&source[range.end..line.content_end()]));
        self.removed.insert(field.line());
        self.before.entry(field.line()).or_default().push(text);
    }

    /// The robots kept whose groups the edit would change (they fall back to a chosen
    /// robot's token), by the groups they read now, in which they are to be named: so
    /// that they read them still. `blocking`: the chosen robots will have a group (the
    /// block group) after the edit; else none. A robot that reads no group now (it may
    /// fetch everything) is keyed [`READS_NO_GROUP`]: it gets a group of its own that
    /// allows everything.
    fn pins(&self, blocking: bool) -> BTreeMap<usize, Vec<String>> {
        let interpretation = self.txt.interpretation(Reading::Rfc9309);
        let has_groups = |token: &str| {
            let robot = Robot::from_agent(token);
            matches!(select(interpretation, &robot, Reading::Rfc9309).choice, Choice::Token(_))
        };
        let mut pins: BTreeMap<usize, Vec<String>> = BTreeMap::new();
        for robot in self.kept.iter().filter(|robot| !robot.fallbacks.is_empty()) {
            if self.chosen.contains(&robot.token.to_ascii_lowercase()) || has_groups(&robot.token) {
                continue;
            }
            let now = select(interpretation, robot, Reading::Rfc9309);
            // The first fallback that has groups after the edit: a chosen one has (the
            // block group) when blocking, none when unblocking; the others keep theirs.
            let then = robot.fallbacks.iter().find(|fallback| {
                let chosen = self.chosen.contains(&fallback.to_ascii_lowercase());
                if chosen { blocking } else { has_groups(fallback) }
            });
            let now_from = match &now.choice {
                Choice::Fallback(name) => Some(name.to_ascii_lowercase()),
                _ => None,
            };
            let then_chosen = then.is_some_and(|name| self.chosen.contains(&name.to_ascii_lowercase()));
            let unchanged = if then_chosen && blocking {
                // The chosen token's groups become the block group: the same only when
                // what the robot reads now blocks it already.
                !now.groups().is_empty() && now.groups().iter().all(|&group| self.is_block_group(&self.groups()[group]))
            } else {
                then.map(|name| name.to_ascii_lowercase()) == now_from
            };
            if unchanged {
                continue;
            }
            if now.groups().is_empty() {
                pins.entry(READS_NO_GROUP).or_default().push(robot.token.clone());
            }
            for &group in now.groups() {
                pins.entry(group).or_default().push(robot.token.clone());
            }
        }
        pins
    }

    /// Takes the chosen robots out of `group`, naming `pins` in it; a group that then
    /// names nobody goes.
    fn leave(&mut self, group: &Group, pins: &[String]) {
        let chosen_lines: Vec<usize> = group
            .agents()
            .iter()
            .filter(|agent| self.is_chosen(agent.name()))
            .map(super::parse::AgentLine::line)
            .collect();
        self.name_in(group, pins);
        if chosen_lines.is_empty() {
            return;
        }
        let others = group.agents().len() - chosen_lines.len();
        self.removed.extend(&chosen_lines);
        if others == 0 && pins.is_empty() {
            self.remove_group(group);
        }
    }

    /// Names `tokens` in `group`, after its last User-agent line.
    fn name_in(&mut self, group: &Group, tokens: &[String]) {
        if tokens.is_empty() {
            return;
        }
        let last_agent = group.agents().last().map_or(group.first_line(), super::parse::AgentLine::line);
        self.after.entry(last_agent).or_default().extend(tokens.iter().map(|token| format!("User-agent: {token}")));
    }

    /// Leaves out a group's lines: its User-agent lines, rules and other fields, but not
    /// its comments, blank lines or Sitemap lines; and a blank line after it when one
    /// comes before it too, so that no two blank lines meet.
    fn remove_group(&mut self, group: &Group) {
        let interpretation = self.txt.interpretation(Reading::Rfc9309);
        let (first, last) = (group.first_line(), group.last_line());
        let fields = interpretation.fields().iter().filter(|field| (first..=last).contains(&field.line()));
        self.removed.extend(fields.filter(|field| field.kind() != FieldKind::Sitemap).map(super::parse::Field::line));
        let blank = |number: usize| self.txt.line_text(number).iter().all(u8::is_ascii_whitespace);
        let before_is_blank = first == 1 || (first > 1 && blank(first - 1) && !self.removed.contains(&(first - 1)));
        let next = last + 1;
        if before_is_blank && next <= self.txt.lines().len() && blank(next) {
            self.removed.insert(next);
        }
    }

    /// A new group of `lines` and `Disallow: /`, then the lines of `free`, before the
    /// first group (after the file's opening comments), or at the end of a file that has
    /// none.
    fn new_group_first(&mut self, mut lines: Vec<String>, free: Vec<String>) {
        lines.push("Disallow: /".to_owned());
        lines.extend(free);
        let first_group = self.groups().iter().map(Group::first_line).min();
        if let Some(line) = first_group {
            lines.push(String::new());
            self.before.entry(line).or_default().extend(lines);
        } else {
            let end = self.txt.lines().len();
            if end > 0 && !self.txt.line_text(end).iter().all(u8::is_ascii_whitespace) {
                lines.insert(0, String::new());
            }
            self.after.entry(end).or_default().extend(lines);
        }
    }

    /// The text with the edits made, each new line ending as the file's lines end.
    fn write(self) -> Vec<u8> {
        let source = self.txt.source();
        let lines = self.txt.lines();
        let newline: &[u8] = match lines.first().map(|line| line.line_end(source)) {
            Some(super::lex::LineEnd::CrLf) => b"\r\n",
            Some(super::lex::LineEnd::Cr) => b"\r",
            _ => b"\n",
        };
        let mut out = Vec::with_capacity(source.len() + 256);
        let put = |out: &mut Vec<u8>, text: &str| {
            out.extend_from_slice(text.as_bytes());
            out.extend_from_slice(newline);
        };
        if lines.is_empty() {
            for text in self.after.values().flatten() {
                put(&mut out, text);
            }
            return out;
        }
        // Byte order marks stay first: lines put before the first line go after them
        // (a BOM moved inside the file would spoil the line it lands on).
        let boms = source.chunks(3).take_while(|chunk| *chunk == super::lex::UTF8_BOM).count() * 3;
        for line in lines {
            let number = line.number();
            let mut start = line.start();
            if number == 1 && boms > 0 && self.before.contains_key(&number) {
                out.extend_from_slice(&source[..boms]);
                start += boms;
            }
            for text in self.before.get(&number).into_iter().flatten() {
                put(&mut out, text);
            }
            if !self.removed.contains(&number) {
                out.extend_from_slice(&source[start..line.end()]);
            }
            if let Some(texts) = self.after.get(&number) {
                // The last line may have no line end of its own.
                if !self.removed.contains(&number) && line.line_end(source) == super::lex::LineEnd::None {
                    out.extend_from_slice(newline);
                }
                for text in texts {
                    put(&mut out, text);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by the survey's property test: `/b*/` disallows `/bx/`, which `Allow:
    /// /b/*` does not allow, so the file reaches part of the site, not all of it; the
    /// probes fill a wildcard within its segment too.
    #[test]
    fn a_wildcard_filled_within_its_segment_is_probed() {
        let txt = RobotsTxt::parse(b"User-agent: *\nAllow: /b/*\nDisallow: /b*/\n".to_vec());
        assert_eq!(Reach::of(&txt, &Robot::from_agent("GPTBot"), Reading::Rfc9309), Reach::Part);
    }

    fn parse(text: &str) -> RobotsTxt {
        RobotsTxt::parse(text.as_bytes().to_vec())
    }

    /// Blocks `chosen` keeping `kept`, checks the proof, and returns the text.
    fn blocked(text: &str, chosen: &[&str], kept: &[Robot]) -> String {
        let chosen: Vec<String> = chosen.iter().map(|&token| token.to_owned()).collect();
        let request = BlockRequest { chosen: &chosen, kept };
        let before = parse(text);
        let after = parse(&String::from_utf8(block(&before, request)).expect("utf-8"));
        let proof = prove(&before, &after, request);
        assert!(proof.holds(), "{proof:?}\n{}", String::from_utf8_lossy(after.source()));
        String::from_utf8(after.source().to_vec()).expect("utf-8")
    }

    fn reach(text: &str, token: &str) -> Reach {
        Reach::of(&parse(text), &named_robot(token), Reading::Rfc9309)
    }

    /// The chosen robot leaves the group it shares, which stays for Googlebot; the block
    /// group comes before the first group, after the opening comment; line ends kept.
    #[test]
    fn a_shared_group_stays_for_the_others() {
        let text = "# Site\nUser-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nUser-agent: GPTBot\nDisallow: /tmp/\n";
        let out = blocked(text, &["GPTBot"], &[]);
        assert_eq!(
            out,
            "# Site\nUser-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\n\nUser-agent: \
             Googlebot\nDisallow: /tmp/\n"
        );
        assert_eq!(reach(&out, "GPTBot"), Reach::Nothing);
        assert_eq!(reach(&out, "Googlebot"), Reach::Part);
    }

    /// The trap of issue 37: a `Disallow: /` group put in front of `GPTBot` + `Allow: /`
    /// merges with it (RFC 9309 §2.2.1) and the tie goes to allow. The edit removes the
    /// group that only GPTBot names instead.
    #[test]
    fn a_group_only_chosen_robots_name_goes() {
        let text = "User-agent: GPTBot\nAllow: /\n\nUser-agent: *\nDisallow: /cart/\n";
        let out = blocked(text, &["GPTBot", "ClaudeBot"], &[]);
        assert_eq!(out, "User-agent: GPTBot\nUser-agent: ClaudeBot\nDisallow: /\n\nUser-agent: *\nDisallow: /cart/\n");
    }

    /// An existing block group is extended, and blocking what is blocked changes nothing.
    #[test]
    fn a_block_group_is_extended_and_the_edit_is_a_fixed_point() {
        let text = "User-agent: CCBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n";
        let once = blocked(text, &["GPTBot"], &[]);
        assert_eq!(once, "User-agent: CCBot\nUser-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n");
        assert_eq!(blocked(&once, &["GPTBot"], &[]), once);
    }

    /// Blocking Googlebot must not move Googlebot-Image, which falls back to it: the
    /// image robot is named in the group it reads today.
    #[test]
    fn a_robot_falling_back_to_a_chosen_one_is_pinned_where_it_reads() {
        let text = "User-agent: Googlebot\nDisallow: /a/\n\nUser-agent: *\nDisallow: /b/\n";
        let image = Robot::from_agent("Googlebot-Image").with_fallbacks(["Googlebot"]);
        let out = blocked(text, &["Googlebot"], std::slice::from_ref(&image));
        let policy = CompiledPolicy::new(&parse(&out), &image, Reading::Rfc9309);
        assert!(!policy.check("/a/x").allowed() && policy.check("/b/x").allowed(), "{out}");
    }

    /// `Disallow: *` and `Disallow: /` block alike: a robot moved from one to the other
    /// keeps every verdict (found by the property test).
    #[test]
    fn rules_that_block_everything_block_alike() {
        let text = "User-agent: bot\nDisallow: *\nUser-agent: *\nDisallow: /\nUser-agent: bot\n";
        let image = Robot::from_agent("Googlebot-Image").with_fallbacks(["Googlebot"]);
        let out = blocked(text, &["GPTBot", "Googlebot", "bot"], std::slice::from_ref(&image));
        assert_eq!(
            out,
            "User-agent: bot\nUser-agent: GPTBot\nUser-agent: Googlebot\nDisallow: *\nUser-agent: *\nDisallow: /\n"
        );
    }

    /// A byte order mark stays the file's first bytes (found by the attack on issue 37).
    #[test]
    fn a_byte_order_mark_stays_first() {
        let text = "\u{feff}User-agent: Foo\nDisallow: /x\n\nUser-agent: *\nDisallow: /x\n";
        let once = blocked(text, &["GPTBot"], &[]);
        assert!(once.starts_with("\u{feff}User-agent: GPTBot\nDisallow: /\n\nUser-agent: Foo\n"), "{once:?}");
        assert_eq!(blocked(&once, &["GPTBot"], &[]), once);
    }

    /// A file of CRLF lines gets CRLF lines; one without a final line end is completed.
    #[test]
    fn new_lines_end_as_the_files_lines_end() {
        let out = blocked("User-agent: *\r\nDisallow: /x", &["GPTBot"], &[]);
        assert_eq!(out, "User-agent: GPTBot\r\nDisallow: /\r\n\r\nUser-agent: *\r\nDisallow: /x");
        assert_eq!(blocked("", &["GPTBot"], &[]), "User-agent: GPTBot\nDisallow: /\n");
    }

    /// `AI2Bot` is written as the operator documents it; RFC 9309 reads it as `AI`, the
    /// robot the proof checks.
    #[test]
    fn a_name_with_digits_is_blocked_as_rfc9309_reads_it() {
        let out = blocked("User-agent: *\nAllow: /\n", &["AI2Bot"], &[]);
        assert!(out.starts_with("User-agent: AI2Bot\nDisallow: /\n"), "{out}");
        assert_eq!(named_robot("AI2Bot").token, "AI");
        assert_eq!(reach(&out, "AI"), Reach::Nothing);
    }

    /// Unblocking takes the robot out of every group: it reads the `*` group, and the
    /// others keep theirs.
    #[test]
    fn unblock_leaves_the_robot_to_the_star_group() {
        let text = "User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n\nUser-agent: *\nDisallow: /x\n";
        let chosen = vec!["GPTBot".to_owned()];
        let request = BlockRequest { chosen: &chosen, kept: &[] };
        let before = parse(text);
        let robots = [Robot::from_agent("GPTBot")];
        let after = parse(&String::from_utf8(unblock(&before, request, &robots)).expect("utf-8"));
        let proof = prove_unblock(&before, &after, request, &robots);
        assert!(proof.not_blocked.is_empty() && proof.kept_changes.is_none(), "{proof:?}");
        assert_eq!(reach(&String::from_utf8_lossy(after.source()), "GPTBot"), Reach::Part);
        assert_eq!(reach(&String::from_utf8_lossy(after.source()), "CCBot"), Reach::Nothing);
    }

    /// Issue 35: a robot that would fall back to another's group once no group names it
    /// (Googlebot-Image to Googlebot's) is named in the `*` group, or given a group that
    /// allows everything when there is none: it reads what a robot no group names reads.
    #[test]
    fn unblock_keeps_a_robot_from_falling_back() {
        let image = Robot {
            token: "Googlebot-Image".to_owned(),
            classic_name: "googlebot-image".to_owned(),
            fallbacks: vec!["Googlebot".to_owned()],
            ignores_star: false,
        };
        let chosen = vec!["Googlebot-Image".to_owned()];
        let request = BlockRequest { chosen: &chosen, kept: &[] };
        for (text, expected) in [
            ("User-agent: *\nAllow: /\n\nUser-agent: Googlebot\nDisallow: /\n", Reach::Everything),
            (
                "User-agent: *\nDisallow: /x\n\nUser-agent: Googlebot\nUser-agent: Googlebot-Image\nDisallow: /\n",
                Reach::Part,
            ),
            ("User-agent: Googlebot\nDisallow: /\n", Reach::Everything),
        ] {
            let before = parse(text);
            let after =
                parse(&String::from_utf8(unblock(&before, request, std::slice::from_ref(&image))).expect("utf-8"));
            let proof = prove_unblock(&before, &after, request, std::slice::from_ref(&image));
            assert!(proof.not_blocked.is_empty() && proof.kept_changes.is_none(), "{text}: {proof:?}");
            assert_eq!(
                Reach::of(&after, &image, Reading::Rfc9309),
                expected,
                "{}",
                String::from_utf8_lossy(after.source())
            );
            assert_eq!(reach(&String::from_utf8_lossy(after.source()), "Googlebot"), Reach::Nothing);
        }
    }

    /// A file past the 500 KiB robots read is refused as it is (issue 35: not as a
    /// proof that failed), and one that the block would push past it too.
    #[test]
    fn a_block_only_edits_what_robots_read() {
        let chosen = vec!["GPTBot".to_owned()];
        let request = BlockRequest { chosen: &chosen, kept: &[] };
        let sized = |bytes: usize| {
            let mut text = String::from("User-agent: *\n");
            while text.len() + 16 < bytes {
                text.push_str("Disallow: /abcd\n");
            }
            as_robots_read(text.into_bytes())
        };
        let past = sized(RFC9309_PARSE_LIMIT_BYTES + 100);
        assert!(matches!(block_proved(&past, request, &[]), Err(BlockRefusal::FilePastTheCut { .. })));
        let near = sized(RFC9309_PARSE_LIMIT_BYTES - 8);
        assert!(matches!(block_proved(&near, request, &[]), Err(BlockRefusal::PastTheCut { .. })));
        let fits = sized(RFC9309_PARSE_LIMIT_BYTES - 100);
        let proved = block_proved(&fits, request, &[]).expect("a block that fits");
        assert!(proved.proof.holds() && proved.after.source().len() <= RFC9309_PARSE_LIMIT_BYTES);
    }

    /// Issue 35: a line that says yes to what is refused now says no, rather than
    /// stand beside a new line that says no; the rest of it stays.
    #[test]
    fn usage_refusals_turn_a_yes_around() {
        let text = "User-agent: *\nContent-Signal: search=yes, ai-train=yes # ours\nContent-Usage: train-ai=y\n\
                    Content-Usage: /docs/ train-ai=y, search=y\nDisallow: /p\n";
        let refused = String::from_utf8(refuse_usage(&parse(text), &[Category::TrainAi])).expect("utf-8");
        assert_eq!(
            refused,
            "User-agent: *\nContent-Signal: search=yes, ai-train=no # ours\nContent-Usage: train-ai=n\n\
             Content-Usage: /docs/ train-ai=n, search=y\nDisallow: /p\n"
        );
        assert_eq!(refuse_usage(&parse(&refused), &[Category::TrainAi]), refused.as_bytes(), "a fixed point");
    }

    /// Preferences go into the last `*` group, or a new one at the end, and are not said
    /// twice.
    #[test]
    fn usage_refusals_are_added_once() {
        let once = refuse_usage(&parse("User-agent: *\nDisallow: /x\n"), &[Category::TrainAi]);
        let once = String::from_utf8(once).expect("utf-8");
        assert_eq!(once, "User-agent: *\nDisallow: /x\nContent-Signal: ai-train=no\nContent-Usage: train-ai=n\n");
        assert_eq!(String::from_utf8(refuse_usage(&parse(&once), &[Category::TrainAi])).expect("utf-8"), once);
        let none = refuse_usage(&parse("User-agent: GPTBot\nDisallow: /\n"), &[Category::TrainAi]);
        assert!(
            String::from_utf8_lossy(&none)
                .ends_with("\n\nUser-agent: *\nContent-Signal: ai-train=no\nContent-Usage: train-ai=n\n")
        );
    }
}
