//! A robot's rules compiled for checking many paths fast: what a
//! [`Matcher`](crate::Matcher) holds, the batch side of
//! [`evaluate`](crate::verdict::evaluate).
//!
//! `evaluate` walks every rule of the applicable groups so that it can report each one
//! that matched; that is right for the explorer and wasteful for a million paths.
//! [`CompiledPolicy`] decides the same way (a property test holds the two together) but
//! answers only the verdict and the deciding line:
//!
//! * Plain prefix rules (most rules in real files) are kept in a prefix set
//!   (`prefix_set`): the rules that are prefixes of a path are found with one
//!   binary search and a walk up a precomputed "longest prefix in the set" chain.
//! * Rules with `*` or a final `$` whose literal prefix says something (`/books?*q=`)
//!   sit in a second prefix set keyed by that prefix, so only rules whose prefix the
//!   path starts with are tried.
//! * The rest (`/*/*/pulse`) are indexed by their longest literal piece (`/pulse`): one
//!   Aho-Corasick scan of the path tells which pieces occur, and only the rules of those
//!   pieces are tried.
//!
//! A rule is run only when it could still change the answer (`Best::could_change`),
//! which is why each list is ordered heaviest first.

use std::sync::Arc;

use foldhash::HashMap;

use aho_corasick::{AhoCorasick, AhoCorasickKind};

use super::agent::{self, Robot, Selection};
use super::parse::{RobotsTxt, RuleKind};
use super::pattern::{self, decode_draft1996};
use super::prefix_set::PrefixSet;
use super::reading::Reading;
use super::request::UrlMode;
use super::verdict::{RuleMatch, index_html_directory};

/// The outcome of one check: the verdict and the line of the rule that decided it
/// (with the `parts` feature, the rule itself).
///
/// ```
/// use robotscope_core::{Matcher, Reading, RobotsTxt};
/// let txt = RobotsTxt::parse("User-agent: *\nDisallow: /private\n");
/// let decision = Matcher::new(&txt, "bot", Reading::Rfc9309).decide("/private/x");
/// assert!(!decision.allowed());
/// assert_eq!(decision.line(), Some(2));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    pub(crate) allowed: bool,
    pub(crate) rule: Option<RuleMatch>,
}

impl Decision {
    part! {
        /// An answer no rule gave: the file could not be read, and RFC 9309 §2.3.1 allows
        /// everything (a 4xx) or nothing (a 5xx, no answer).
        #[must_use]
        pub fn without_rule(allowed: bool) -> Decision {
            Decision { allowed, rule: None }
        }
    }

    /// Whether the robot may fetch the path.
    #[must_use]
    pub fn allowed(&self) -> bool {
        self.allowed
    }

    part! {
        /// The deciding rule, if one matched. None: no rule applies, so the path is allowed;
        /// or the file gave no rules to apply ([`Matcher::with_availability`](crate::Matcher::with_availability)),
        /// and the fetch's outcome decided.
        #[must_use]
        pub fn rule(&self) -> Option<RuleMatch> {
            self.rule
        }
    }

    /// The 1-based line of the deciding rule, if one matched.
    #[must_use]
    pub fn line(&self) -> Option<usize> {
        self.rule.map(|rule| rule.line)
    }
}

/// One rule as the matcher needs it, in 20 bytes: a file of 2,000,000 rules holds one
/// per rule. (32-bit numbers are enough: a robots.txt is read up to 1 GiB.)
#[derive(Debug, Clone, Copy)]
struct Entry {
    group: u32,
    rule: u32,
    line: u32,
    /// RFC 9309 weight (pattern length); zero under the classic readings, which weigh
    /// nothing.
    priority: u32,
    kind: RuleKind,
    /// Matched as the directory of a rule ending in `/index.html` (RFC 9309 reading).
    via_index_html: bool,
    /// The 1996 draft's empty Disallow, which allows everything.
    allows_all: bool,
}

impl Entry {
    /// The rule as [`evaluate`](super::evaluate) reports it.
    fn at(&self) -> RuleMatch {
        RuleMatch {
            group: self.group as usize,
            rule: self.rule as usize,
            line: self.line as usize,
            kind: self.kind,
            priority: self.priority as usize,
            via_index_html: self.via_index_html,
        }
    }

    /// Whether `self` outweighs `other` of the same kind: heavier, or as heavy and
    /// earlier in the file.
    fn beats(&self, other: &Entry) -> bool {
        self.priority > other.priority || (self.priority == other.priority && self.line < other.line)
    }
}

/// A rule with `*` or a final `$`.
#[derive(Debug, Clone)]
struct WildcardRule {
    pattern: Vec<u8>,
    entry: Entry,
    /// Length of the literal prefix (before the first `*`), which every matching path
    /// starts with.
    prefix_len: usize,
}

/// Literal prefixes and pieces shorter than this (a lone `/`) occur in nearly every
/// path and filter nothing.
const MIN_FILTER_BYTES: usize = 2;

/// The prefilter looks for at most this many bytes of each rule's longest piece: a path
/// holding the piece holds its start, so the filter stays right, and the automaton
/// stays small whatever the rules hold (a hostile file of `/*` and 16,000 bytes per rule
/// once took minutes to compile).
const MAX_FILTER_PIECE_BYTES: usize = 32;

/// Rules of one robot under one reading, ready to check paths.
#[derive(Debug, Clone)]
pub(crate) struct CompiledPolicy {
    selection: Selection,
    /// Shared by robots that get the same groups under the same reading (see
    /// [`CompiledPolicy::reusing`]).
    rules: Arc<CompiledRules>,
}

/// The compiled rules of some groups under one reading.
#[derive(Debug)]
struct CompiledRules {
    reading: Reading,
    /// The form of the paths checked, which the patterns were put in.
    mode: UrlMode,
    /// Plain prefix rules.
    prefixes: PrefixSet<Entry>,
    /// Wildcard rules with a useful literal prefix, as indices into `wildcards`.
    anchored: PrefixSet<usize>,
    /// The other wildcard rules (`/*/*/pulse`), as indices into `wildcards`, found by
    /// the literal pieces a path holds.
    by_piece: PieceFilter,
    wildcards: Vec<WildcardRule>,
}

impl CompiledPolicy {
    /// Compiles the rules that apply to `robot` under `reading`.
    #[must_use]
    pub(crate) fn new(txt: &RobotsTxt, robot: &Robot, reading: Reading) -> CompiledPolicy {
        CompiledPolicy::reusing(txt, robot, reading, UrlMode::AsCrawlersSend, [])
    }

    /// Compiles the rules of `selection`'s groups (chosen otherwise than by [`select`](crate::agent::select):
    /// [`select_whole_name`](super::agent::select_whole_name)).
    #[must_use]
    pub(crate) fn for_selection(
        txt: &RobotsTxt,
        selection: Selection,
        reading: Reading,
        mode: UrlMode,
    ) -> CompiledPolicy {
        let rules = Arc::new(CompiledRules::new(txt, &selection.groups, reading, mode));
        CompiledPolicy { selection, rules }
    }

    /// Like [`CompiledPolicy::new`], for paths read as `mode` says (the rules meet
    /// them in the same form, [`RobotsTxt::pattern_as`]), taking the compiled rules of
    /// one of `earlier` (compiled from the same file) that has the same groups under the
    /// same reading instead of compiling them again: the robots of a comparison that all
    /// fall back to `*` share one copy, which matters when the file holds millions of
    /// rules.
    #[must_use]
    pub(crate) fn reusing<'a>(
        txt: &RobotsTxt,
        robot: &Robot,
        reading: Reading,
        mode: UrlMode,
        earlier: impl IntoIterator<Item = &'a CompiledPolicy>,
    ) -> CompiledPolicy {
        let selection = agent::select(txt.interpretation(reading), robot, reading);
        let same = earlier
            .into_iter()
            .find(|e| e.rules.reading == reading && e.rules.mode == mode && e.selection.groups == selection.groups);
        let rules = match same {
            Some(same) => Arc::clone(&same.rules),
            None => Arc::new(CompiledRules::new(txt, &selection.groups, reading, mode)),
        };
        CompiledPolicy { selection, rules }
    }

    /// The bytes the compiled rules hold: the prefix sets, the wildcard rules and the
    /// prefilter automaton. Compiling takes time in proportion to it, and it stays in
    /// proportion to the file's size whatever the rules hold (a fuzz target and a
    /// property test hold it to that).
    #[must_use]
    pub(crate) fn memory_bytes(&self) -> usize {
        self.rules.memory_bytes()
    }

    /// The groups that apply and why.
    #[must_use]
    pub(crate) fn selection(&self) -> &Selection {
        &self.selection
    }

    /// The reading the rules were compiled for.
    #[must_use]
    pub(crate) fn reading(&self) -> Reading {
        self.rules.reading
    }

    /// Decides whether the robot may fetch `path`, the path as tested (see
    /// [`super::request`]).
    #[must_use]
    pub(crate) fn check(&self, path: &str) -> Decision {
        self.rules.check(path)
    }
}

impl CompiledRules {
    fn new(txt: &RobotsTxt, groups: &[usize], reading: Reading, mode: UrlMode) -> CompiledRules {
        let interpretation = txt.interpretation(reading);
        let rule_count = groups.iter().map(|&g| interpretation.groups()[g].rules().len()).sum();
        let mut plain = Vec::with_capacity(rule_count);
        let mut wildcards = Vec::new();
        for &group in groups {
            for (index, rule) in interpretation.groups()[group].rules().iter().enumerate() {
                let pattern = txt.pattern_as(reading, rule, mode);
                let entry = Entry {
                    group: group as u32,
                    rule: index as u32,
                    line: rule.line() as u32,
                    priority: if reading == Reading::Rfc9309 { pattern.len() as u32 } else { 0 },
                    kind: rule.kind(),
                    allows_all: false,
                    via_index_html: false,
                };
                match reading {
                    Reading::Rfc9309 => {
                        if pattern::is_plain_prefix(pattern) {
                            plain.push((pattern, entry, rule.line()));
                        } else {
                            wildcards.push((pattern.to_vec(), entry));
                        }
                        if let Some(directory) = index_html_directory(rule, pattern) {
                            let priority = directory.len() as u32;
                            wildcards.push((directory, Entry { priority, via_index_html: true, ..entry }));
                        }
                    }
                    Reading::Draft1996 => {
                        let allows_all = pattern.is_empty() && rule.kind() == RuleKind::Disallow;
                        plain.push((pattern, Entry { allows_all, ..entry }, rule.line()));
                    }
                    // Allow is no rule to 1994 robots and an empty Disallow matches nothing.
                    Reading::Koster1994 if pattern.is_empty() => {}
                    Reading::Koster1994 => plain.push((pattern, entry, rule.line())),
                }
            }
        }
        // Only the first rule with a given pattern and kind can decide (ties go to the
        // earlier line under every reading), so the others are left out: 100,000 copies
        // of one rule cost no more per path than one. Sorting finds them without a hash
        // table of every rule.
        let is_allow = |entry: &Entry| entry.kind == RuleKind::Allow;
        wildcards.sort_unstable_by(|a, b| {
            a.0.cmp(&b.0).then(is_allow(&a.1).cmp(&is_allow(&b.1))).then(a.1.line.cmp(&b.1.line))
        });
        wildcards.dedup_by(|later, first| later.0 == first.0 && later.1.kind == first.1.kind);
        let wildcards = compile_wildcards(wildcards);
        let anchored = wildcards
            .iter()
            .enumerate()
            .filter(|(_, rule)| rule.prefix_len >= MIN_FILTER_BYTES)
            .map(|(index, rule)| (&rule.pattern[..rule.prefix_len], index, rule.entry.at().line))
            .collect();
        let loose: Vec<(usize, &[u8])> = wildcards
            .iter()
            .enumerate()
            .filter(|(_, rule)| rule.prefix_len < MIN_FILTER_BYTES)
            .map(|(index, rule)| (index, rule.pattern.as_slice()))
            .collect();
        let by_piece = PieceFilter::new(&loose);
        CompiledRules {
            reading,
            mode,
            prefixes: PrefixSet::first_of_each(plain, |held, entry| held.kind == entry.kind),
            anchored: PrefixSet::new(anchored),
            by_piece,
            wildcards,
        }
    }

    fn memory_bytes(&self) -> usize {
        let wildcards: usize = self.wildcards.iter().map(|rule| rule.pattern.len() + size_of::<WildcardRule>()).sum();
        self.prefixes.memory_bytes() + self.anchored.memory_bytes() + wildcards + self.by_piece.memory_bytes()
    }

    fn check(&self, path: &str) -> Decision {
        match self.reading {
            Reading::Rfc9309 => self.check_rfc9309(path.as_bytes()),
            Reading::Draft1996 => {
                let decoded = decode_draft1996(path.as_bytes());
                // First matching rule in file order.
                let first = self.prefixes.matches(&decoded).min_by_key(|e| e.line);
                Decision {
                    allowed: first.is_none_or(|e| e.kind == RuleKind::Allow || e.allows_all),
                    rule: first.map(Entry::at),
                }
            }
            Reading::Koster1994 => {
                let first = self.prefixes.matches(path.as_bytes()).min_by_key(|e| e.line);
                Decision { allowed: first.is_none(), rule: first.map(Entry::at) }
            }
        }
    }

    /// Offers the wildcard rule `index` if it could change the answer and matches `path`.
    fn try_rule<'a>(&'a self, index: usize, path: &[u8], best: &mut Best<'a>) {
        let rule = &self.wildcards[index];
        if best.could_change(&rule.entry) && pattern::wildcard_match(&rule.pattern, path) {
            best.offer(&rule.entry);
        }
    }

    fn check_rfc9309(&self, path: &[u8]) -> Decision {
        let mut best = Best::default();
        for entry in self.prefixes.matches(path) {
            best.offer(entry);
        }
        for &index in self.anchored.matches(path) {
            self.try_rule(index, path, &mut best);
        }
        self.by_piece.candidates(path, |index| self.try_rule(index, path, &mut best));
        best.decision()
    }
}

/// Sorts the wildcard rules heaviest first.
fn compile_wildcards(mut rules: Vec<(Vec<u8>, Entry)>) -> Vec<WildcardRule> {
    rules.sort_by(|a, b| b.1.priority.cmp(&a.1.priority).then(a.1.line.cmp(&b.1.line)));
    rules
        .into_iter()
        .map(|(pattern, entry)| {
            let prefix_len = pattern::literal_prefix(&pattern).len();
            WildcardRule { pattern, entry, prefix_len }
        })
        .collect()
}

/// Wildcard patterns whose literal start is too short to find them by (`/*/*/pulse`),
/// each filed under the rarest literal piece it holds, with one automaton that finds
/// which pieces a path holds: a path is tried only against the patterns whose piece it
/// holds, and those with no piece worth looking for (`/*`). Crawl rules and usage rules
/// (`Content-Usage: /*N*x* train-ai=n`) are found by it alike.
#[derive(Debug, Clone, Default)]
pub(crate) struct PieceFilter {
    /// Find which pieces a path holds, [`PIECES_PER_AUTOMATON`] pieces each (the first
    /// automaton the first pieces, and so on); none when no pattern has a piece.
    automata: Vec<AhoCorasick>,
    /// The patterns (by the caller's id) filed under each piece.
    by_piece: Vec<Vec<usize>>,
    /// The patterns without a piece worth looking for.
    unfiltered: Vec<usize>,
}

impl PieceFilter {
    /// Files each `(id, pattern)`.
    pub(crate) fn new(patterns: &[(usize, &[u8])]) -> PieceFilter {
        // A pattern is filed under the piece fewest patterns share, the longest of those:
        // in `/*aaaaaaa*17` and 20,000 like it, `aaaaaaa` occurs in every path that names
        // any of them and would send each such path through every pattern, where `17`
        // sends it through one. Counting the pieces first costs one pass over the bytes.
        let mut shared_by: HashMap<&[u8], usize> = HashMap::default();
        for (_, pattern) in patterns {
            for piece in filter_pieces(pattern) {
                *shared_by.entry(piece).or_default() += 1;
            }
        }
        let mut pieces: Vec<&[u8]> = Vec::new();
        // Each piece's index, found in constant time: thousands of patterns must not cost
        // a search through all the pieces each.
        let mut index_of: HashMap<&[u8], usize> = HashMap::default();
        let mut filter = PieceFilter::default();
        for &(id, pattern) in patterns {
            let rarest = filter_pieces(pattern).min_by_key(|piece| (shared_by[piece], std::cmp::Reverse(piece.len())));
            match rarest {
                Some(piece) => {
                    let index = *index_of.entry(piece).or_insert_with(|| {
                        pieces.push(piece);
                        filter.by_piece.push(Vec::new());
                        pieces.len() - 1
                    });
                    filter.by_piece[index].push(id);
                }
                None => filter.unfiltered.push(id),
            }
        }
        // A contiguous NFA builds in time linear in the pieces' bytes (a DFA can cost the
        // square of them) and searches a short path about as fast. Building can fail only
        // for automata too large for the configuration; then every pattern is simply
        // tried, which is slower and still right.
        let builder = {
            let mut builder = AhoCorasick::builder();
            builder.kind(Some(AhoCorasickKind::ContiguousNFA));
            builder
        };
        let automata: Option<Vec<AhoCorasick>> =
            pieces.chunks(PIECES_PER_AUTOMATON).map(|chunk| builder.build(chunk).ok()).collect();
        match automata {
            Some(automata) => filter.automata = automata,
            None => filter.unfiltered.extend(filter.by_piece.drain(..).flatten()),
        }
        filter
    }

    /// Calls `each` with every pattern `path` may match, each once: those whose piece it
    /// holds, then those without a piece.
    pub(crate) fn candidates(&self, path: &[u8], mut each: impl FnMut(usize)) {
        for (index, automaton) in self.automata.iter().enumerate() {
            let first = index * PIECES_PER_AUTOMATON;
            for piece in PieceSet::scan(automaton, path).iter() {
                self.by_piece[first + piece].iter().for_each(|&id| each(id));
            }
        }
        self.unfiltered.iter().for_each(|&id| each(id));
    }

    /// The heap it holds, roughly.
    fn memory_bytes(&self) -> usize {
        let lists: usize = self.by_piece.iter().map(|list| list.len() + 1).sum::<usize>() + self.unfiltered.len();
        lists * size_of::<usize>() + self.automata.iter().map(AhoCorasick::memory_usage).sum::<usize>()
    }
}

/// The pieces a prefilter can look for in a wildcard pattern: its literal pieces of at
/// least [`MIN_FILTER_BYTES`], each cut to [`MAX_FILTER_PIECE_BYTES`].
fn filter_pieces(pattern: &[u8]) -> impl Iterator<Item = &[u8]> {
    pattern::literal_pieces(pattern)
        .filter(|piece| piece.len() >= MIN_FILTER_BYTES)
        .map(|piece| &piece[..piece.len().min(MAX_FILTER_PIECE_BYTES)])
}

/// Pieces to one prefilter automaton. aho-corasick 1.1 takes time in the square of an
/// automaton's match states to build it (its final shuffle follows chains of swaps), so
/// that one automaton of the 200,000 pieces of a 5.9 MB file took 25 s; automata of this
/// many pieces build in milliseconds each, and a path is scanned by each of them, which
/// only files of thousands of wildcard rules have more than one of.
const PIECES_PER_AUTOMATON: usize = 2048;

/// Which pieces of one prefilter automaton occur in one path: a bit set on the stack, of
/// which the words the automaton's pieces need are used.
struct PieceSet {
    bits: [u64; PIECES_PER_AUTOMATON / 64],
    words: usize,
}

impl PieceSet {
    fn scan(prefilter: &AhoCorasick, path: &[u8]) -> PieceSet {
        let mut set = PieceSet { bits: [0; PIECES_PER_AUTOMATON / 64], words: prefilter.patterns_len().div_ceil(64) };
        for found in prefilter.find_overlapping_iter(path) {
            let index = found.pattern().as_usize();
            set.bits[index / 64] |= 1 << (index % 64);
        }
        set
    }

    /// The indices of the pieces present, each once.
    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.bits[..self.words].iter().enumerate().flat_map(|(word_index, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let bit = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    word_index * 64 + bit
                })
            })
        })
    }
}

/// The heaviest Allow and Disallow seen so far (first in file order among equals).
#[derive(Default)]
struct Best<'a> {
    allow: Option<&'a Entry>,
    disallow: Option<&'a Entry>,
}

impl<'a> Best<'a> {
    /// Weights as options: `None` (no match) sorts below every weight.
    fn weights(&self) -> (Option<u32>, Option<u32>) {
        (self.allow.map(|e| e.priority), self.disallow.map(|e| e.priority))
    }

    /// True when `entry` would change the decision or its deciding line: a Disallow must
    /// outweigh the best Allow (Allow wins ties), an Allow must at least equal the best
    /// Disallow, and either must beat the best of its own kind (or tie it earlier in
    /// the file).
    fn could_change(&self, entry: &Entry) -> bool {
        let (allow, disallow) = self.weights();
        let weight = Some(entry.priority);
        let (rival_ok, own) = match entry.kind {
            RuleKind::Allow => (weight >= disallow, self.allow),
            RuleKind::Disallow => (weight > allow, self.disallow),
        };
        rival_ok && own.is_none_or(|own| entry.beats(own))
    }

    fn offer(&mut self, entry: &'a Entry) {
        let slot = match entry.kind {
            RuleKind::Allow => &mut self.allow,
            RuleKind::Disallow => &mut self.disallow,
        };
        if slot.is_none_or(|current| entry.beats(current)) {
            *slot = Some(entry);
        }
    }

    fn decision(&self) -> Decision {
        let (allow, disallow) = self.weights();
        let winner = if disallow > allow { self.disallow } else { self.allow.or(self.disallow) };
        // A weight of zero is an empty pattern: it matches but decides nothing.
        let disallowed = disallow > allow && disallow > Some(0);
        Decision { allowed: !disallowed, rule: winner.map(Entry::at) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::evaluate;

    fn agree(text: &str, agent: &str, paths: &[&str]) {
        let txt = RobotsTxt::parse(text.as_bytes().to_vec());
        let robot = Robot::from_agent(agent);
        for reading in Reading::ALL {
            let compiled = CompiledPolicy::new(&txt, &robot, reading);
            for path in paths {
                let slow = evaluate(&txt, &robot, path, reading);
                let fast = compiled.check(path);
                assert_eq!(fast.allowed, slow.allowed, "{reading} {path}");
                assert_eq!(fast.rule, slow.decided_by, "{reading} {path}");
            }
        }
    }

    /// More pieces than one prefilter automaton holds: a rule filed under the last
    /// automaton's pieces is found as well as one under the first.
    #[test]
    fn rules_are_found_whichever_automaton_holds_their_piece() {
        let rules = 3 * PIECES_PER_AUTOMATON + 5;
        let text: String = std::iter::once("User-agent: *\n".to_owned())
            .chain((0..rules).map(|i| format!("Disallow: /*a*{i}z$\n")))
            .collect();
        let last = rules - 1;
        let paths = [
            "/xa0z".to_owned(),
            format!("/a/{}z", PIECES_PER_AUTOMATON + 1),
            format!("/q/a{last}z"),
            format!("/a{last}y"),
            "/a".to_owned(),
        ];
        agree(&text, "bot", &paths.iter().map(String::as_str).collect::<Vec<_>>());
        let compiled =
            CompiledPolicy::new(&RobotsTxt::parse(text.into_bytes()), &Robot::from_agent("bot"), Reading::Rfc9309);
        assert_eq!(compiled.check(&paths[2]).line(), Some(rules + 1));
        assert!(compiled.check(&paths[3]).allowed());
    }

    #[test]
    fn prefix_set_finds_nested_prefixes() {
        agree(
            "User-agent: *\nDisallow: /a\nAllow: /a/b\nDisallow: /a/b/c\nDisallow: /ab\nAllow: /\nDisallow: /a\nDisallow:\n",
            "bot",
            &["/", "/a", "/a/", "/a/b", "/a/b/c/d", "/ab", "/abc", "/b", "/a/bb"],
        );
    }

    /// Hostile files: long literals after a `*` (which once made the prefilter's build
    /// take minutes), many wildcard rules, duplicates. What compiling builds stays within
    /// a small multiple of the file's size (8 at most here).
    #[test]
    fn compiling_costs_in_proportion_to_the_file() {
        let mut files = Vec::new();
        let long = |i: usize| format!("Disallow: /*{}\n", char::from(b'a' + (i % 26) as u8).to_string().repeat(16_000));
        files.push(format!("User-agent: *\n{}", (0..30).map(long).collect::<Vec<_>>().concat()));
        files.push(format!(
            "User-agent: *\n{}",
            (0..20_000).map(|i| format!("Disallow: /*x{i}y\n")).collect::<Vec<_>>().concat()
        ));
        files.push(format!("User-agent: *\n{}", "Disallow: /*.pdf$\n".repeat(100_000)));
        files.push(format!(
            "User-agent: *\n{}",
            (0..5_000).map(|i| format!("Allow: /{}\n", "a/".repeat(i % 50))).collect::<Vec<_>>().concat()
        ));
        for text in files {
            let txt = RobotsTxt::parse(text.clone().into_bytes());
            let compiled = CompiledPolicy::new(&txt, &Robot::from_agent("bot"), Reading::Rfc9309);
            assert!(
                compiled.memory_bytes() <= 16 * text.len() + 4096,
                "{} for {} bytes",
                compiled.memory_bytes(),
                text.len()
            );
            let _ = compiled.check(&format!("/{}", "a".repeat(20_000)));
        }
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
