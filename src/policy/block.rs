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

use super::agent::{Choice, Robot, select};
use super::compiled::CompiledPolicy;
use super::impact::{Impact, impact_among, probe_paths, robots_named};
use super::parse::{AgentName, FieldKind, Group, RobotsTxt, RuleKind};
use super::reading::Reading;

/// What a block or an unblock asks: the robots it is for, and the robots whose
/// verdicts must not change.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
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
}

/// The file with the chosen robots blocked (see the module documentation).
#[must_use]
pub fn block(txt: &RobotsTxt, request: Request<'_>) -> Vec<u8> {
    Editor::new(txt, request).block()
}

/// The file with the chosen robots named by no group any more: they read what a robot no
/// group names reads (the `*` group), and nothing else changes.
#[must_use]
pub fn unblock(txt: &RobotsTxt, request: Request<'_>) -> Vec<u8> {
    Editor::new(txt, request).unblock()
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

/// Checks a block of `request.chosen` that made `after` from `before`.
#[must_use]
pub fn prove(before: &RobotsTxt, after: &RobotsTxt, request: Request<'_>) -> Proof {
    let chosen = lower(request.chosen);
    let not_blocked = request
        .chosen
        .iter()
        .map(|token| (token.clone(), Reach::of(after, &Robot::from_agent(token), Reading::Rfc9309)))
        .filter(|(_, reach)| *reach != Reach::Nothing)
        .collect();
    prove_with(before, after, request, &chosen, not_blocked)
}

/// Checks an unblock of `request.chosen` that made `after` from `before`: the robots
/// unblocked now read what a robot no group names reads (listed in `not_blocked` only
/// when they do not).
#[must_use]
pub fn prove_unblock(before: &RobotsTxt, after: &RobotsTxt, request: Request<'_>) -> Proof {
    let chosen = lower(request.chosen);
    let nobody = Reach::of(after, &Robot::from_agent("*"), Reading::Rfc9309);
    let interpretation = after.interpretation(Reading::Rfc9309);
    let not_blocked = request
        .chosen
        .iter()
        .filter(|token| {
            let selection = select(interpretation, &Robot::from_agent(token), Reading::Rfc9309);
            matches!(selection.choice, Choice::Token(_))
        })
        .map(|token| (token.clone(), nobody))
        .collect();
    prove_with(before, after, request, &chosen, not_blocked)
}

fn prove_with(
    before: &RobotsTxt,
    after: &RobotsTxt,
    request: Request<'_>,
    chosen: &[String],
    not_blocked: Vec<(String, Reach)>,
) -> Proof {
    let mut kept: Vec<(String, Robot)> =
        request.kept.iter().map(|robot| (robot.token.clone(), robot.clone())).collect();
    kept.extend(robots_named(before, after));
    kept.retain(|(_, robot)| !chosen.contains(&robot.token.to_ascii_lowercase()));
    let mut everyone = kept.clone();
    everyone.extend(request.chosen.iter().map(|token| (token.clone(), Robot::from_agent(token))));
    Proof {
        not_blocked,
        kept_changes: impact_among(before, after, &kept, &[Reading::Rfc9309]),
        classic_changes: impact_among(before, after, &everyone, &[Reading::Draft1996, Reading::Koster1994]),
    }
}

/// Tokens in lower case, as groups name them.
fn lower(tokens: &[String]) -> Vec<String> {
    tokens.iter().map(|token| token.to_ascii_lowercase()).collect()
}

/// True for a pattern that matches every path under RFC 9309.
fn matches_everything(pattern: &[u8]) -> bool {
    matches!(pattern, b"/" | b"/*" | b"*")
}

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
    fn new(txt: &'t RobotsTxt, request: Request<'_>) -> Editor<'t> {
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
        let missing: Vec<String> =
            self.written.iter().filter(|token| !blocked_already(&token.to_ascii_lowercase())).cloned().collect();
        if !missing.is_empty() {
            let lines: Vec<String> = missing.iter().map(|token| format!("User-agent: {token}")).collect();
            match block_groups.first() {
                Some(&g) => {
                    let last_agent =
                        groups[g].agents().last().map_or(groups[g].first_line(), super::parse::AgentLine::line);
                    self.after.entry(last_agent).or_default().extend(lines);
                }
                None => self.new_group_first(lines),
            }
        }
        self.write()
    }

    fn unblock(mut self) -> Vec<u8> {
        let pins = self.pins(false);
        for (index, group) in self.groups().iter().enumerate() {
            self.leave(group, pins.get(&index).map_or(&[][..], Vec::as_slice));
        }
        self.write()
    }

    /// The robots kept whose groups the edit would change (they fall back to a chosen
    /// robot's token), by the groups they read now, in which they are to be named: so
    /// that they read them still. `blocking`: the chosen robots will have a group (the
    /// block group) after the edit; else none.
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
            if then.map(|name| name.to_ascii_lowercase()) == now_from {
                continue;
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

    /// A new group of `lines` and `Disallow: /`, before the first group (after the
    /// file's opening comments), or at the end of a file that has none.
    fn new_group_first(&mut self, mut lines: Vec<String>) {
        lines.push("Disallow: /".to_owned());
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
        for line in lines {
            let number = line.number();
            for text in self.before.get(&number).into_iter().flatten() {
                put(&mut out, text);
            }
            if !self.removed.contains(&number) {
                out.extend_from_slice(&source[line.span()]);
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
