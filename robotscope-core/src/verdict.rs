//! `evaluate`: may this robot fetch this path under this reading, which line decides,
//! and why, in words.
//!
//! The verdict carries everything the explorer and the command line show: the deciding
//! rule, the groups that applied and how they were chosen, the rules that matched and
//! lost, and a one-line explanation.

use std::fmt::Write as _;

use super::agent::{self, Choice, Robot, Selection};
use super::availability::{Access, Availability};
use super::parse::{Interpretation, RobotsTxt, Rule, RuleKind};
use super::pattern::{self, decode_draft1996};
use super::reading::Reading;
use super::request::{UrlMode, is_robots_txt};

/// One rule that matched the path: what [`evaluate`] lists and what a [`Decision`](super::Decision)
/// names as deciding (the two agree field for field, `tests/integration/conformance.rs` checks).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleMatch {
    pub(crate) group: usize,
    pub(crate) rule: usize,
    pub(crate) line: usize,
    pub(crate) kind: RuleKind,
    pub(crate) priority: usize,
    pub(crate) via_index_html: bool,
}

impl RuleMatch {
    /// Index of the rule's group in [`Interpretation::groups`].
    #[must_use]
    pub fn group(&self) -> usize {
        self.group
    }

    /// Index of the rule in its group ([`Group::rules`](super::parse::Group::rules)).
    #[must_use]
    pub fn rule(&self) -> usize {
        self.rule
    }

    /// The rule itself, in `txt` read under `reading`, the reading it was matched
    /// under.
    #[must_use]
    pub fn rule_in<'t>(&self, txt: &'t RobotsTxt, reading: Reading) -> &'t Rule {
        &txt.interpretation(reading).groups()[self.group].rules()[self.rule]
    }

    /// 1-based line number of the rule.
    #[must_use]
    pub fn line(&self) -> usize {
        self.line
    }

    /// Allow or Disallow.
    #[must_use]
    pub fn kind(&self) -> RuleKind {
        self.kind
    }

    /// The match's weight under RFC 9309: the pattern's length in octets, `*` and `$`
    /// included, as Google counts it (RFC 9309 §2.2.2 says "most octets"; the reference
    /// measures the pattern, not the part of the URL it covered). Zero for an empty
    /// pattern, which matches but decides nothing, and under the classic readings.
    #[must_use]
    pub fn priority(&self) -> usize {
        self.priority
    }

    /// True when an `Allow: .../index.html` matched its directory (`.../`), a Google
    /// tolerance.
    #[must_use]
    pub fn via_index_html(&self) -> bool {
        self.via_index_html
    }
}

/// The answer to "may this robot fetch this path?", with why: [`explain`](crate::explain)'s.
///
/// ```
/// use robotscope_core::{Reading, Robot, RobotsTxt, explain};
/// let txt = RobotsTxt::parse("User-agent: *\nDisallow: /a\nAllow: /a/b\n");
/// let verdict = explain(&txt, &Robot::from_agent("bot"), "/a/b/c", Reading::Rfc9309);
/// assert!(verdict.allowed());
/// assert_eq!(verdict.line(), Some(3), "the longest match wins");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub(crate) allowed: bool,
    pub(crate) reading: Reading,
    pub(crate) path: String,
    pub(crate) selection: Selection,
    pub(crate) decided_by: Option<RuleMatch>,
    pub(crate) losers: Vec<RuleMatch>,
    pub(crate) explanation: String,
}

impl Verdict {
    /// Whether the robot may fetch the path.
    #[must_use]
    pub fn allowed(&self) -> bool {
        self.allowed
    }

    /// The reading it was decided under.
    #[must_use]
    pub fn reading(&self) -> Reading {
        self.reading
    }

    /// The path that was matched, exactly as tested (see `request::Request`, a part).
    #[must_use]
    pub fn path(&self) -> &str {
        &self.path
    }

    part! {
        /// The groups that applied and why.
        #[must_use]
        pub fn selection(&self) -> &Selection {
            &self.selection
        }
    }

    part! {
        /// The rule that decided, if any rule matched.
        #[must_use]
        pub fn decided_by(&self) -> Option<RuleMatch> {
            self.decided_by
        }
    }

    /// The 1-based line of the deciding rule, if a rule matched (as
    /// [`Decision::line`](crate::Decision::line) says for the same question).
    #[must_use]
    pub fn line(&self) -> Option<usize> {
        self.decided_by.map(|rule| rule.line())
    }

    part! {
        /// The other rules that matched and lost, in file order.
        #[must_use]
        pub fn losers(&self) -> &[RuleMatch] {
            &self.losers
        }
    }

    /// Why, in one line a person can read. Text from the file is quoted as it is:
    /// escape it before it reaches a terminal.
    #[must_use]
    pub fn explanation(&self) -> &str {
        &self.explanation
    }
}

impl Verdict {
    part! {
        /// The line number of the group the verdict came from: the deciding rule's group,
        /// or else the first group that applied.
        #[must_use]
        pub fn group_line(&self, interpretation: &Interpretation) -> Option<usize> {
            let group = self.decided_by.map(|m| m.group).or_else(|| self.selection.groups.first().copied())?;
            interpretation.groups().get(group).map(super::parse::Group::first_line)
        }
    }

    part! {
        /// "allowed" or "disallowed".
        #[must_use]
        pub fn word(&self) -> &'static str {
            if self.allowed { "allowed" } else { "disallowed" }
        }
    }
}

/// Decides whether `robot` may fetch `path` under `reading`, given how the file was
/// obtained: when it could not be read, the fetch outcome decides for every path
/// ([`Availability::access`]). `path` is the path as tested (what
/// [`Request`](super::request::Request) makes of a path or URL).
///
/// # Examples
///
/// ```
/// # #[cfg(feature = "parts")] {
/// use robotscope_core::verdict::evaluate_fetched;
/// use robotscope_core::{Availability, Reading, Robot, RobotsTxt};
/// let nothing = RobotsTxt::default();
/// let robot = Robot::from_agent("Googlebot");
/// let verdict = evaluate_fetched(&nothing, Availability::Status(503), &robot, "/a", Reading::Rfc9309);
/// assert!(!verdict.allowed());
/// assert!(verdict.explanation().contains("503"));
/// # }
/// ```
#[must_use]
pub fn evaluate_fetched(
    txt: &RobotsTxt,
    availability: Availability,
    robot: &Robot,
    path: &str,
    reading: Reading,
) -> Verdict {
    evaluate_fetched_as(txt, availability, robot, path, reading, UrlMode::AsCrawlersSend)
}

/// [`evaluate_fetched`] for a path read as `mode` says: as crawlers request it (what
/// [`Request::read`](super::request::Request::read) gives), or taken byte for byte as
/// Google's library takes a URL ([`UrlMode::Raw`]), each met by the rules in the same
/// form ([`RobotsTxt::pattern_as`]).
#[must_use]
pub fn evaluate_fetched_as(
    txt: &RobotsTxt,
    availability: Availability,
    robot: &Robot,
    path: &str,
    reading: Reading,
    mode: UrlMode,
) -> Verdict {
    let access = availability.access(reading);
    if access == Access::Rules {
        return evaluate_as(txt, robot, path, reading, mode);
    }
    let mut verdict = Verdict {
        allowed: access == Access::AllowAll,
        reading,
        path: path.to_owned(),
        selection: Selection { groups: Vec::new(), choice: Choice::FileNotRead },
        decided_by: None,
        losers: Vec::new(),
        explanation: availability.reason(reading),
    };
    verdict.explanation = explain(txt, txt.interpretation(reading), robot, &verdict);
    verdict
}

/// Decides whether `robot` may fetch `path` under `reading`. `path` is matched exactly
/// as given: it is the path a robot requests, with params and query (a URL or a path as
/// a user writes it goes through [`Request`](super::request::Request) first).
///
/// # Examples
///
/// ```
/// # #[cfg(feature = "parts")] {
/// use robotscope_core::verdict::evaluate;
/// use robotscope_core::{Reading, Robot, RobotsTxt};
/// let txt = RobotsTxt::parse(b"User-agent: *\nDisallow: /cgi-bin/\nAllow: /cgi-bin/public\n".to_vec());
/// let slurp = Robot::from_agent("Slurp");
/// let rfc = evaluate(&txt, &slurp, "/cgi-bin/public/form", Reading::Rfc9309);
/// assert!(rfc.allowed());
/// assert_eq!(rfc.decided_by().map(|m| m.line()), Some(3));
/// // The 1996 draft stops at the first matching line.
/// let draft = evaluate(&txt, &slurp, "/cgi-bin/public/form", Reading::Draft1996);
/// assert!(!draft.allowed());
/// assert_eq!(draft.decided_by().map(|m| m.line()), Some(2));
/// # }
/// ```
#[must_use]
pub fn evaluate(txt: &RobotsTxt, robot: &Robot, path: &str, reading: Reading) -> Verdict {
    evaluate_as(txt, robot, path, reading, UrlMode::AsCrawlersSend)
}

/// [`evaluate`] for a path read as `mode` says (see [`evaluate_fetched_as`]).
#[must_use]
fn evaluate_as(txt: &RobotsTxt, robot: &Robot, path: &str, reading: Reading, mode: UrlMode) -> Verdict {
    let interpretation = txt.interpretation(reading);
    let path = path.to_owned();
    let selection = agent::select(interpretation, robot, reading);
    let matched = matching_rules(txt, &selection, path.as_bytes(), reading, mode);
    let (allowed, decided_by) = decide(interpretation, &matched, reading);
    let losers = matched.iter().copied().filter(|m| Some(*m) != decided_by).collect();
    let mut verdict = Verdict { allowed, reading, path, selection, decided_by, losers, explanation: String::new() };
    verdict.explanation = explain(txt, interpretation, robot, &verdict);
    verdict
}

/// Every rule of the selected groups that matches `path`, in file order.
fn matching_rules(
    txt: &RobotsTxt,
    selection: &Selection,
    path: &[u8],
    reading: Reading,
    mode: UrlMode,
) -> Vec<RuleMatch> {
    let interpretation = txt.interpretation(reading);
    let decoded;
    let path = if reading == Reading::Draft1996 {
        decoded = decode_draft1996(path);
        decoded.as_ref()
    } else {
        path
    };
    let mut found = Vec::new();
    for &group in &selection.groups {
        for (index, rule) in interpretation.groups()[group].rules().iter().enumerate() {
            let pattern = txt.pattern_as(reading, rule, mode);
            let hit = match reading {
                Reading::Rfc9309 => rfc9309_priority(rule, pattern, path),
                // The 1994 standard: "any empty value, indicates that all URLs can be
                // retrieved", so an empty Disallow matches nothing.
                Reading::Koster1994 if pattern.is_empty() => None,
                Reading::Draft1996 | Reading::Koster1994 => path.starts_with(pattern).then_some((0, false)),
            };
            if let Some((priority, via_index_html)) = hit {
                found.push(RuleMatch {
                    group,
                    rule: index,
                    line: rule.line(),
                    kind: rule.kind(),
                    priority,
                    via_index_html,
                });
            }
        }
    }
    found.sort_by_key(|m| m.line);
    found
}

/// The RFC 9309 weight of a rule that matches `path`, and whether it matched through
/// Google's index.html tolerance.
fn rfc9309_priority(rule: &Rule, pattern: &[u8], path: &[u8]) -> Option<(usize, bool)> {
    if pattern::wildcard_match(pattern, path) {
        return Some((pattern.len(), false));
    }
    let directory = index_html_directory(rule, pattern)?;
    pattern::wildcard_match(&directory, path).then_some((directory.len(), true))
}

/// Google's reference reads `Allow: /dir/index.htm...` as also allowing `/dir/`
/// exactly: it retries a non-matching Allow whose last segment starts with `index.htm`
/// as the pattern `/dir/$`.
#[must_use]
pub(crate) fn index_html_directory(rule: &Rule, pattern: &[u8]) -> Option<Vec<u8>> {
    if rule.kind() != RuleKind::Allow {
        return None;
    }
    let slash = memchr::memrchr(b'/', pattern)?;
    if !pattern[slash..].starts_with(b"/index.htm") {
        return None;
    }
    let mut directory = pattern[..=slash].to_vec();
    directory.push(b'$');
    Some(directory)
}

/// Picks the deciding rule among the matches, per reading.
fn decide(interpretation: &Interpretation, matched: &[RuleMatch], reading: Reading) -> (bool, Option<RuleMatch>) {
    match reading {
        Reading::Rfc9309 => {
            // The longest pattern of each kind; the first in file order among equals.
            let best = |kind| {
                matched.iter().filter(|m| m.kind == kind).fold(None::<RuleMatch>, |best, m| match best {
                    Some(b) if b.priority >= m.priority => Some(b),
                    _ => Some(*m),
                })
            };
            let (allow, disallow) = (best(RuleKind::Allow), best(RuleKind::Disallow));
            // `None` sorts below every weight, so "no match" loses to any match.
            let (allow_weight, disallow_weight) = (allow.map(|m| m.priority), disallow.map(|m| m.priority));
            // Allow wins a tie (RFC 9309 §2.2.2: "the least restrictive rule").
            let winner = if disallow_weight > allow_weight { disallow } else { allow.or(disallow) };
            // A weight of zero is an empty pattern: it matches but decides nothing.
            let disallowed = disallow_weight > allow_weight && disallow_weight > Some(0);
            (!disallowed, winner)
        }
        Reading::Draft1996 => match matched.first() {
            // An empty Disallow is an allow-everything rule at its place (urllib).
            Some(first) => {
                let empty = interpretation.groups()[first.group].rules()[first.rule].value().is_empty();
                (first.kind == RuleKind::Allow || empty, Some(*first))
            }
            None => (true, None),
        },
        Reading::Koster1994 => {
            let first = matched.iter().find(|m| m.kind == RuleKind::Disallow).copied();
            (first.is_none(), first)
        }
    }
}

/// Describes the applicable groups: "the group for googlebot (line 2)".
#[must_use]
pub fn describe_selection(
    interpretation: &Interpretation,
    selection: &Selection,
    robot: &Robot,
    reading: Reading,
) -> String {
    let lines = |groups: &[usize]| {
        let numbers: Vec<String> =
            groups.iter().map(|&g| interpretation.groups()[g].first_line().to_string()).collect();
        match numbers.as_slice() {
            [one] => format!("line {one}"),
            many => format!("lines {}", many.join(", ")),
        }
    };
    let record = if reading.is_classic() { "record" } else { "group" };
    let at = lines(&selection.groups);
    let merged =
        if selection.is_merged() { format!("the {} groups", selection.groups.len()) } else { format!("the {record}") };
    match &selection.choice {
        Choice::Token(token) => {
            format!("{merged} for {token} ({at}{})", if selection.is_merged() { ", merged" } else { "" })
        }
        Choice::Fallback(token) => {
            format!("{merged} for {token} ({at}), which {} falls back to", robot.token)
        }
        Choice::ExactName(name) => format!("the record for {name} ({at})"),
        Choice::Substring(name) if name.is_empty() => {
            format!("the record with an empty User-agent ({at}), whose empty value is found inside every name")
        }
        Choice::Substring(name) => {
            format!("the record for {name} ({at}), found inside {} by substring", robot.classic_name)
        }
        Choice::Star if selection.is_merged() => format!("the {} * groups ({at}, merged)", selection.groups.len()),
        Choice::Star => format!("the * {record} ({at})"),
        Choice::NoGroup => "no group".to_owned(),
        Choice::StarIgnored => "no group (this robot ignores *)".to_owned(),
        Choice::FileNotRead => "no group (the file was not read)".to_owned(),
    }
}

/// A group's description as the subject of a sentence: one that ends in a clause of its
/// own ("..., which Applebot falls back to") is closed with a comma.
fn clause(description: &str) -> String {
    let ends_in_a_clause = [", which ", ", found inside ", ", whose "].iter().any(|c| description.contains(c));
    if ends_in_a_clause { format!("{description},") } else { description.to_owned() }
}

/// "1 octet", "9 octets".
fn octets(count: usize) -> String {
    if count == 1 { "1 octet".to_owned() } else { format!("{count} octets") }
}

fn explain(txt: &RobotsTxt, interpretation: &Interpretation, robot: &Robot, verdict: &Verdict) -> String {
    let reading = verdict.reading;
    let who = if reading.is_classic() { robot.classic_name.as_str() } else { robot.token.as_str() };
    let verb = if verdict.allowed { "Allowed" } else { "Disallowed" };
    let rule_at = |m: &RuleMatch| {
        let rule = &interpretation.groups()[m.group].rules()[m.rule];
        format!("line {} `{}`", m.line, txt.rule_text(rule))
    };
    let mut text = match (&verdict.selection.choice, verdict.decided_by) {
        (Choice::NoGroup, _) => format!("{verb}: no group names {who} and the file has no * group."),
        (Choice::StarIgnored, _) => format!("{verb}: no group names {who}, and {who} ignores the * group."),
        (Choice::FileNotRead, _) => format!("{verb}: {}.", verdict.explanation),
        (_, None) if verdict.selection.groups.iter().all(|&g| interpretation.groups()[g].rules().is_empty()) => {
            format!(
                "{verb}: {} has no rules, so {who} may fetch anything.",
                clause(&describe_selection(interpretation, &verdict.selection, robot, reading))
            )
        }
        (_, None) => format!(
            "{verb}: no rule of {} matches {}.",
            clause(&describe_selection(interpretation, &verdict.selection, robot, reading)),
            verdict.path
        ),
        (_, Some(decider)) => {
            let group = describe_selection(interpretation, &verdict.selection, robot, reading);
            let rule = &interpretation.groups()[decider.group].rules()[decider.rule];
            let empty = rule.value().is_empty();
            match reading {
                Reading::Rfc9309 if decider.priority == 0 => {
                    format!(
                        "{verb}: {} is empty and blocks nothing, and no other rule of {group} matches.",
                        rule_at(&decider)
                    )
                }
                Reading::Rfc9309 if decider.via_index_html => format!(
                    "{verb}: {} also allows its directory (Google reads index.html as /), in {group}.",
                    rule_at(&decider)
                ),
                Reading::Rfc9309 => {
                    // The weight is the pattern's as matched: `/b c/` counts as `/b%20c/`.
                    let as_matched = txt.pattern(reading, rule);
                    let weight = if as_matched.len() == decider.priority && as_matched != txt.text(&rule.value()) {
                        format!("{}, as {}", octets(decider.priority), String::from_utf8_lossy(as_matched))
                    } else {
                        octets(decider.priority)
                    };
                    let mut sentence =
                        format!("{verb}: {} is the longest match ({weight}) in {group}", rule_at(&decider));
                    let rival = verdict.losers.iter().filter(|m| m.kind != decider.kind).max_by_key(|m| m.priority);
                    if let Some(rival) = rival {
                        if rival.priority == decider.priority {
                            let _ = write!(sentence, "; it ties with {} and Allow wins a tie", rule_at(rival));
                        } else {
                            let _ = write!(sentence, "; it outweighs {} ({})", rule_at(rival), octets(rival.priority));
                        }
                    }
                    sentence.push('.');
                    sentence
                }
                Reading::Draft1996 if empty => format!(
                    "{verb}: {} comes first in {group}, and an empty Disallow allows everything.",
                    rule_at(&decider)
                ),
                Reading::Draft1996 => {
                    format!(
                        "{verb}: {} is the first matching line of {group}; the 1996 draft stops there.",
                        rule_at(&decider)
                    )
                }
                Reading::Koster1994 => format!(
                    "{verb}: {} matches, in {group}; to the 1994 standard any matching Disallow excludes the path.",
                    rule_at(&decider)
                ),
            }
        }
    };
    if reading == Reading::Rfc9309
        && matches!(verdict.selection.choice, Choice::Star | Choice::NoGroup)
        && !agent::is_valid_token(&robot.token)
    {
        let _ = write!(
            text,
            " ('{}' is not a product token, so RFC 9309 readers match it to no named group.)",
            robot.token
        );
    }
    if is_robots_txt(&verdict.path) {
        text.push_str(
            " (RFC 9309 §2.2.2 calls /robots.txt itself implicitly allowed: crawlers fetch it whatever the rules say.)",
        );
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(text: &str, agent: &str, path: &str, reading: Reading) -> Verdict {
        evaluate(&RobotsTxt::parse(text.as_bytes().to_vec()), &Robot::from_agent(agent), path, reading)
    }

    #[test]
    fn longest_match_with_tie_to_allow() {
        let v = verdict("User-agent: *\nDisallow: /*\nAllow: /a\n", "x", "/a/b", Reading::Rfc9309);
        assert!(v.allowed);
        assert_eq!(v.decided_by.map(|m| m.line), Some(3));
        assert_eq!(v.losers.len(), 1);
        assert!(v.explanation.contains("Allow wins a tie"), "{}", v.explanation);
    }

    #[test]
    fn empty_disallow_decides_nothing_but_is_reported() {
        let v = verdict("User-agent: scooter\nDisallow:\n", "scooter", "/x", Reading::Rfc9309);
        assert!(v.allowed);
        assert_eq!(v.decided_by.map(|m| (m.line, m.priority)), Some((2, 0)));
        assert!(v.explanation.contains("empty"), "{}", v.explanation);
    }

    #[test]
    fn classic_first_match_and_empty_disallow() {
        let v = verdict("User-agent: *\nDisallow:\nDisallow: /x\n", "bot", "/x", Reading::Draft1996);
        assert!(v.allowed);
        assert_eq!(v.decided_by.map(|m| m.line), Some(2));
        let v = verdict("User-agent: *\nDisallow:\nDisallow: /x\n", "bot", "/x", Reading::Koster1994);
        assert!(!v.allowed);
        assert_eq!(v.decided_by.map(|m| m.line), Some(3));
    }

    #[test]
    fn index_html_allows_its_directory() {
        let text = "User-Agent: *\nAllow: /members/index.html\nDisallow: /\n";
        let v = verdict(text, "acmebot", "/members/", Reading::Rfc9309);
        assert!(v.allowed);
        assert!(v.decided_by.is_some_and(|m| m.via_index_html));
        assert!(!verdict(text, "acmebot", "/members/?page=2", Reading::Rfc9309).allowed);
    }

    #[test]
    fn the_robots_txt_is_implicitly_allowed() {
        let v = verdict("User-agent: *\nDisallow: /\n", "bot", "/robots.txt", Reading::Rfc9309);
        assert!(v.explanation.contains("implicitly allowed"), "{}", v.explanation);
    }

    #[test]
    fn explanation_names_the_bad_token() {
        let v = verdict(
            "User-agent: scooter\nDisallow:\n\nUser-agent: *\nDisallow: /\n",
            "Scooter/3.0",
            "/a",
            Reading::Rfc9309,
        );
        assert!(!v.allowed);
        assert!(v.explanation.contains("not a product token"), "{}", v.explanation);
    }
}
