//! A robot's rules compiled for checking many paths fast: the batch side of
//! [`evaluate`](super::evaluate).
//!
//! `evaluate` walks every rule of the applicable groups so that it can report each one
//! that matched; that is right for the explorer and wasteful for a million paths.
//! [`CompiledPolicy`] decides the same way (a property test holds the two together) but
//! answers only the verdict and the deciding line:
//!
//! * Plain prefix rules (most rules in real files) are kept sorted. The rules that are
//!   prefixes of a path are found with one binary search and a walk up a precomputed
//!   "longest prefix in the set" chain; see [`PrefixSet`].
//! * Rules with `*` or a final `$` are tried one by one, longest first, and the walk
//!   stops once no remaining rule can outweigh what has been found.

use std::cmp::Ordering;

use super::agent::{self, Robot, Selection};
use super::parse::{RobotsTxt, RuleKind};
use super::pattern::{self, decode_draft1996, request_path};
use super::reading::Reading;
use super::verdict::index_html_directory;

/// The outcome of one check: the verdict and the rule that decided it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    /// Whether the robot may fetch the path.
    pub allowed: bool,
    /// The deciding rule, if one matched.
    pub rule: Option<RuleRef>,
}

/// Where a rule lives: its group and index (into the reading's interpretation) and line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleRef {
    /// Index of the group in the interpretation.
    pub group: usize,
    /// Index of the rule in its group.
    pub rule: usize,
    /// 1-based line number.
    pub line: usize,
    /// Allow or Disallow.
    pub kind: RuleKind,
}

/// One rule as the matcher needs it.
#[derive(Debug, Clone, Copy)]
struct Entry {
    at: RuleRef,
    /// RFC 9309 weight (pattern length); unused by the classic readings.
    priority: usize,
    /// The 1996 draft's empty Disallow, which allows everything.
    allows_all: bool,
}

/// Rules of one robot under one reading, ready to check paths.
#[derive(Debug, Clone)]
pub struct CompiledPolicy {
    reading: Reading,
    selection: Selection,
    prefixes: PrefixSet,
    /// Wildcard rules with their pattern, longest first.
    wildcards: Vec<(Vec<u8>, Entry)>,
}

impl CompiledPolicy {
    /// Compiles the rules that apply to `robot` under `reading`.
    #[must_use]
    pub fn new(txt: &RobotsTxt, robot: &Robot, reading: Reading) -> CompiledPolicy {
        let interpretation = txt.interpretation(reading);
        let selection = agent::select(interpretation, robot, reading);
        let mut plain = Vec::new();
        let mut wildcards = Vec::new();
        for &group in &selection.groups {
            for (index, rule) in interpretation.groups[group].rules.iter().enumerate() {
                let pattern = interpretation.pattern(rule);
                let at = RuleRef { group, rule: index, line: rule.line, kind: rule.kind };
                let entry = Entry { at, priority: pattern.len(), allows_all: false };
                match reading {
                    Reading::Rfc9309 => {
                        if pattern::is_plain_prefix(pattern) {
                            plain.push((pattern.to_vec(), entry));
                        } else {
                            wildcards.push((pattern.to_vec(), entry));
                        }
                        if let Some(directory) = index_html_directory(rule, pattern) {
                            let priority = directory.len();
                            wildcards.push((directory, Entry { priority, ..entry }));
                        }
                    }
                    Reading::Draft1996 => {
                        let allows_all = pattern.is_empty() && rule.kind == RuleKind::Disallow;
                        plain.push((pattern.to_vec(), Entry { allows_all, ..entry }));
                    }
                    // Allow is no rule to 1994 robots and an empty Disallow matches nothing.
                    Reading::Koster1994 if pattern.is_empty() => {}
                    Reading::Koster1994 => plain.push((pattern.to_vec(), entry)),
                }
            }
        }
        wildcards.sort_by(|a, b| b.1.priority.cmp(&a.1.priority).then(a.1.at.line.cmp(&b.1.at.line)));
        CompiledPolicy { reading, selection, prefixes: PrefixSet::new(plain), wildcards }
    }

    /// The groups that apply and why.
    #[must_use]
    pub fn selection(&self) -> &Selection {
        &self.selection
    }

    /// The reading the rules were compiled for.
    #[must_use]
    pub fn reading(&self) -> Reading {
        self.reading
    }

    /// Decides whether the robot may fetch `path_or_url`.
    #[must_use]
    pub fn check(&self, path_or_url: &str) -> Decision {
        let path = request_path(path_or_url);
        match self.reading {
            Reading::Rfc9309 => self.check_rfc9309(path.as_bytes()),
            Reading::Draft1996 => {
                let decoded = decode_draft1996(path.as_bytes());
                // First matching rule in file order.
                let first = self.prefixes.matches(&decoded).min_by_key(|e| e.at.line);
                Decision {
                    allowed: first.is_none_or(|e| e.at.kind == RuleKind::Allow || e.allows_all),
                    rule: first.map(|e| e.at),
                }
            }
            Reading::Koster1994 => {
                let first = self.prefixes.matches(path.as_bytes()).min_by_key(|e| e.at.line);
                Decision { allowed: first.is_none(), rule: first.map(|e| e.at) }
            }
        }
    }

    fn check_rfc9309(&self, path: &[u8]) -> Decision {
        let mut best = Best::default();
        for entry in self.prefixes.matches(path) {
            best.offer(entry);
        }
        for (pattern, entry) in &self.wildcards {
            // Sorted longest first: once a rule cannot outweigh either best, none can.
            if entry.priority < best.floor() {
                break;
            }
            if pattern::wildcard_match(pattern, path) {
                best.offer(entry);
            }
        }
        best.decision()
    }
}

/// The heaviest Allow and Disallow seen so far (first in file order among equals).
#[derive(Default)]
struct Best<'a> {
    allow: Option<&'a Entry>,
    disallow: Option<&'a Entry>,
}

impl<'a> Best<'a> {
    fn offer(&mut self, entry: &'a Entry) {
        let slot = match entry.at.kind {
            RuleKind::Allow => &mut self.allow,
            RuleKind::Disallow => &mut self.disallow,
        };
        let better = slot.is_none_or(|current| {
            entry.priority > current.priority || (entry.priority == current.priority && entry.at.line < current.at.line)
        });
        if better {
            *slot = Some(entry);
        }
    }

    /// The weight a rule needs to change anything: at least the lighter of the two bests.
    fn floor(&self) -> usize {
        match (self.allow, self.disallow) {
            (Some(a), Some(d)) => a.priority.min(d.priority),
            _ => 0,
        }
    }

    fn decision(&self) -> Decision {
        // `None` sorts below every weight, so "no match" loses to any match.
        let (allow, disallow) = (self.allow.map(|e| e.priority), self.disallow.map(|e| e.priority));
        let winner = if disallow > allow { self.disallow } else { self.allow.or(self.disallow) };
        // A weight of zero is an empty pattern: it matches but decides nothing.
        let disallowed = disallow > allow && disallow > Some(0);
        Decision { allowed: !disallowed, rule: winner.map(|e| e.at) }
    }
}

/// A set of literal patterns that finds, for a path, every pattern that is a prefix of
/// it.
///
/// The patterns are sorted, and each knows its `parent`: the longest other pattern in
/// the set that is a prefix of it. For a path `p`, let `s` be the greatest pattern
/// `<= p`. Every pattern `q` that is a prefix of `p` sorts between `q` and `p`, hence
/// `q <= s`, and every string between `q` and `p` starts with `q`, so `q` is a prefix of
/// `s` too: the answers are `s` and its ancestors no longer than the common prefix of
/// `s` and `p`.
#[derive(Debug, Clone, Default)]
struct PrefixSet {
    /// Distinct patterns, sorted.
    patterns: Vec<Vec<u8>>,
    /// For each pattern, the rules written with it (duplicates share a pattern).
    entries: Vec<Vec<Entry>>,
    /// For each pattern, the index of its longest proper prefix in the set.
    parent: Vec<Option<usize>>,
}

impl PrefixSet {
    fn new(mut rules: Vec<(Vec<u8>, Entry)>) -> PrefixSet {
        rules.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.at.line.cmp(&b.1.at.line)));
        let mut set = PrefixSet::default();
        for (pattern, entry) in rules {
            if set.patterns.last() == Some(&pattern) {
                if let Some(last) = set.entries.last_mut() {
                    last.push(entry);
                }
                continue;
            }
            // The parent is the deepest pattern on the previous pattern's chain that is
            // a prefix of this one (sorted order puts every prefix before us).
            let mut candidate = set.patterns.len().checked_sub(1);
            while let Some(index) = candidate {
                if pattern.starts_with(&set.patterns[index]) {
                    break;
                }
                candidate = set.parent[index];
            }
            set.patterns.push(pattern);
            set.entries.push(vec![entry]);
            set.parent.push(candidate);
        }
        set
    }

    /// Every rule whose pattern is a prefix of `path`, longest pattern first.
    fn matches<'a>(&'a self, path: &[u8]) -> impl Iterator<Item = &'a Entry> + 'a {
        let greatest = match self.patterns.binary_search_by(|pattern| pattern.as_slice().cmp(path)) {
            Ok(index) => Some(index),
            Err(insert_at) => insert_at.checked_sub(1),
        };
        let common = greatest.map_or(0, |index| common_prefix_len(&self.patterns[index], path));
        let mut next = greatest;
        std::iter::from_fn(move || {
            while let Some(index) = next {
                next = self.parent[index];
                if self.patterns[index].len() <= common {
                    return Some(&self.entries[index]);
                }
            }
            None
        })
        .flatten()
    }
}

fn common_prefix_len(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x.cmp(y) == Ordering::Equal).count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::evaluate;

    fn agree(text: &str, agent: &str, paths: &[&str]) {
        let txt = RobotsTxt::parse(text.as_bytes().to_vec());
        let robot = Robot::from_agent(agent);
        for reading in Reading::ALL {
            let compiled = CompiledPolicy::new(&txt, &robot, reading);
            for path in paths {
                let slow = evaluate(&txt, &robot, path, reading);
                let fast = compiled.check(path);
                assert_eq!(fast.allowed, slow.allowed, "{reading} {path}");
                assert_eq!(fast.rule.map(|r| r.line), slow.decided_by.map(|m| m.line), "{reading} {path}");
            }
        }
    }

    #[test]
    fn prefix_set_finds_nested_prefixes() {
        agree(
            "User-agent: *\nDisallow: /a\nAllow: /a/b\nDisallow: /a/b/c\nDisallow: /ab\nAllow: /\nDisallow: /a\nDisallow:\n",
            "bot",
            &["/", "/a", "/a/", "/a/b", "/a/b/c/d", "/ab", "/abc", "/b", "/a/bb"],
        );
    }

    #[test]
    fn wildcards_and_index_html() {
        agree(
            "User-agent: *\nDisallow: /*.pdf$\nAllow: /docs/\nAllow: /x/index.html\nDisallow: /x/\nDisallow: /*\n",
            "bot",
            &["/docs/a.pdf", "/docs/a.pdf?x", "/x/", "/x/index.html", "/x/y", "/other"],
        );
    }
}
