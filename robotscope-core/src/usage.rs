//! AI usage preferences: what a site lets a robot do with what it fetches, beside
//! whether it may fetch it. Two extensions of robots.txt say it, and both are read under
//! the RFC 9309 reading only (the 1994 and 1996 readings know neither field):
//!
//! * `Content-Usage: [PATH] PREFERENCES` (IETF AI Preferences: draft-ietf-aipref-attach,
//!   vocabulary from draft-ietf-aipref-vocab). A rule inside a group. PREFERENCES is an
//!   RFC 9651 dictionary (`train-ai=n, search=y`), parsed with the `sfv` crate: the
//!   categories `train-ai` and `search` take the tokens `y` and `n`; anything else leaves
//!   the category unknown, unknown keys are ignored, a repeated key keeps its last value,
//!   and a dictionary that does not parse leaves every category unknown. The path is
//!   matched as Allow and Disallow paths are (same encoding, `*` and `$`); the longest
//!   match decides every category, a rule without a path being less specific than any
//!   with one, and a category the winning rule does not state is unknown (it is not
//!   taken from a shorter rule). Rules with identical paths combine per category, most
//!   restrictive first (the vocabulary's rule: any `n`, then any `y`, else unknown).
//! * `Content-Signal: search=yes, ai-train=no` (Cloudflare's Content Signals Policy).
//!   Group-wide; the categories `search`, `ai-input` and `ai-train` (read as `train-ai`:
//!   both mean training or fine-tuning AI models); `yes` and `no`. A signal that is
//!   absent grants nothing and restricts nothing.
//!
//! Both sources together combine per category, most restrictive first. A path the
//! robot may not crawl has no preferences at all (the caller asks only for allowed
//! paths).

use std::fmt;

use super::agent::Selection;
use super::availability::{Access, Availability};
use super::compiled::PieceFilter;
use super::parse::{FieldKind, RobotsTxt};
use super::pattern::{is_plain_prefix, normalise_as_requested, wildcard_match};
use super::prefix_set::PrefixSet;
use super::reading::Reading;
use super::verdict::Verdict;

/// What a robot may do with what it fetches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Category {
    /// Training or fine-tuning AI models (`train-ai`; Content-Signal's `ai-train`).
    TrainAi,
    /// Building a search index and showing results that link back (`search`).
    Search,
    /// Using the content as input to AI answers: retrieval, grounding (Content-Signal's
    /// `ai-input`; Content-Usage has no such category).
    AiInput,
}

impl Category {
    /// Every category, in the order robotscope shows them.
    pub const ALL: [Category; 3] = [Category::TrainAi, Category::Search, Category::AiInput];

    /// The category's name: `train-ai`, `search`, `ai-input`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Category::TrainAi => "train-ai",
            Category::Search => "search",
            Category::AiInput => "ai-input",
        }
    }

    part! {
        /// Its place in [`Category::ALL`].
        #[must_use]
        pub fn index(self) -> usize {
            match self {
                Category::TrainAi => 0,
                Category::Search => 1,
                Category::AiInput => 2,
            }
        }
    }

    /// The category a Content-Usage key names (the vocabulary's own names).
    fn of_usage_key(key: &str) -> Option<Category> {
        match key {
            "train-ai" => Some(Category::TrainAi),
            "search" => Some(Category::Search),
            _ => None,
        }
    }

    /// The key Content-Signal gives the category: `ai-train`, `search`, `ai-input`.
    #[must_use]
    pub fn signal_key(self) -> &'static str {
        match self {
            Category::TrainAi => "ai-train",
            Category::Search => "search",
            Category::AiInput => "ai-input",
        }
    }

    /// The category a Content-Signal key names.
    fn of_signal_key(key: &str) -> Option<Category> {
        match key {
            "ai-train" => Some(Category::TrainAi),
            "search" => Some(Category::Search),
            "ai-input" => Some(Category::AiInput),
            _ => None,
        }
    }
}

/// The error for a usage category name that is not one of the three.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no usage category is called '{0}' (train-ai, search or ai-input)")]
pub struct UnknownCategory(String);

impl std::str::FromStr for Category {
    type Err = UnknownCategory;

    /// A category by name: `train-ai` (or Content-Signal's `ai-train`), `search`,
    /// `ai-input`.
    fn from_str(text: &str) -> Result<Category, UnknownCategory> {
        match text.trim().to_ascii_lowercase().as_str() {
            "train-ai" | "ai-train" => Ok(Category::TrainAi),
            "search" => Ok(Category::Search),
            "ai-input" => Ok(Category::AiInput),
            other => Err(UnknownCategory(other.to_owned())),
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A site's preference for one category.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Preference {
    /// The site says yes.
    Allowed,
    /// The site says no.
    Disallowed,
    /// The site says nothing that counts.
    #[default]
    Unknown,
}

impl Preference {
    /// `allowed`, `disallowed`, `unknown`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Preference::Allowed => "allowed",
            Preference::Disallowed => "disallowed",
            Preference::Unknown => "unknown",
        }
    }

    fn of(said: Option<bool>) -> Preference {
        match said {
            Some(true) => Preference::Allowed,
            Some(false) => Preference::Disallowed,
            None => Preference::Unknown,
        }
    }
}

impl fmt::Display for Preference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One category's answer and the lines it comes from.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Stated {
    preference: Preference,
    lines: Vec<usize>,
    /// Lines that said the same past those named.
    more: usize,
    header: bool,
}

impl Stated {
    /// The preference.
    #[must_use]
    pub fn preference(&self) -> Preference {
        self.preference
    }

    /// The lines that decided it: those stating the preference or, for an unknown
    /// preference, the winning Content-Usage rule(s) that left it unknown. Empty when
    /// no line speaks to the category.
    #[must_use]
    pub fn lines(&self) -> &[usize] {
        &self.lines
    }

    /// How many more lines said the same than [`Stated::lines`] names (it names the
    /// first few).
    #[must_use]
    pub fn more_lines(&self) -> usize {
        self.more
    }

    /// True when a page's `Content-Usage` header states the preference (see
    /// [`Usage::with_header`]).
    #[must_use]
    pub fn stated_by_header(&self) -> bool {
        self.header
    }
}

/// A robot's usage preferences for one path.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Usage {
    stated: [Stated; 3],
}

impl Usage {
    /// One category's answer.
    #[must_use]
    pub fn get(&self, category: Category) -> &Stated {
        &self.stated[category.index()]
    }

    /// Every category with its answer, in [`Category::ALL`] order.
    pub fn iter(&self) -> impl Iterator<Item = (Category, &Stated)> {
        Category::ALL.into_iter().map(|category| (category, self.get(category)))
    }

    /// These preferences (robots.txt's, for a page's path) combined with the page's own
    /// `Content-Usage` response header, an RFC 9651 dictionary in the same vocabulary
    /// (draft-ietf-aipref-attach): per category, most restrictive first; the answer
    /// says whether the header, robots.txt's lines or both state it.
    ///
    /// # Examples
    ///
    /// ```
    /// use robotscope_core::{Category, Preference, Usage};
    /// let page = Usage::default().with_header(b"train-ai=n, search=y");
    /// assert_eq!(page.get(Category::TrainAi).preference(), Preference::Disallowed);
    /// assert!(page.get(Category::TrainAi).stated_by_header());
    /// ```
    #[must_use]
    pub fn with_header(mut self, header: &[u8]) -> Usage {
        let said = read_content_usage_preferences(header);
        for category in [Category::TrainAi, Category::Search] {
            let stated = &mut self.stated[category.index()];
            let from_header = Preference::of(said[category.index()]);
            let winner = match (stated.preference, from_header) {
                (Preference::Disallowed, _) | (_, Preference::Disallowed) => Preference::Disallowed,
                (Preference::Allowed, _) | (_, Preference::Allowed) => Preference::Allowed,
                _ => Preference::Unknown,
            };
            if stated.preference != winner {
                stated.lines.clear();
                stated.more = 0;
            }
            stated.header = from_header == winner && winner != Preference::Unknown;
            stated.preference = winner;
        }
        self
    }

    /// Every line that decided a category, once each, in order.
    #[must_use]
    pub fn lines(&self) -> Vec<usize> {
        let mut lines: Vec<usize> = self.stated.iter().flat_map(|s| s.lines.iter().copied()).collect();
        lines.sort_unstable();
        lines.dedup();
        lines
    }
}

impl fmt::Display for Usage {
    /// `train-ai disallowed (line 2) · search allowed (lines 2, 5) · ai-input unknown`,
    /// naming the page's `Content-Usage header` where it states a preference.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, (category, stated)) in self.iter().enumerate() {
            if index > 0 {
                f.write_str(" · ")?;
            }
            write!(f, "{category} {}", stated.preference)?;
            if stated.preference == Preference::Unknown {
                // The Content-Usage rule that won the match and said nothing of it.
                if let ([line], 0) = (stated.lines.as_slice(), stated.more) {
                    write!(f, " (line {line} states none)")?;
                }
                continue;
            }
            let mut from: Vec<String> = match stated.lines.as_slice() {
                [] => Vec::new(),
                [line] => vec![format!("line {line}")],
                lines => {
                    let named = lines.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
                    match stated.more {
                        0 => vec![format!("lines {named}")],
                        more => vec![format!("lines {named} and {more} more")],
                    }
                }
            };
            if stated.header {
                from.push("Content-Usage header".to_owned());
            }
            if !from.is_empty() {
                write!(f, " ({})", from.join(", "))?;
            }
        }
        Ok(())
    }
}

/// The usage preferences robots.txt states for a verdict's robot and path: not read
/// under the classic readings, none for a path the robot may not fetch, nothing stated
/// by a file that was not read (a 404's error page).
#[must_use]
pub fn usage_answer(txt: &RobotsTxt, availability: Availability, verdict: &Verdict) -> UsageAnswer {
    if verdict.reading != Reading::Rfc9309 {
        return UsageAnswer::NotRead;
    }
    UsageRules::of(txt, &verdict.selection).answer_for(availability, verdict.allowed, &verdict.path)
}

/// A page's usage preferences: robots.txt's for its path (`answer`, for a robot that may
/// fetch the page) combined with the page's `Content-Usage` response header, most
/// restrictive first (see [`Usage::with_header`]). `None` when the robot may not fetch
/// the page, or when neither states anything.
#[must_use]
pub fn page_usage(answer: UsageAnswer, header: Option<&[u8]>) -> Option<Usage> {
    let from_robots_txt = match answer {
        UsageAnswer::NotFetched => return None,
        UsageAnswer::Stated(usage) => Some(usage),
        UsageAnswer::NotRead => None,
    };
    let said = |usage: &Usage| usage.iter().any(|(_, stated)| stated.preference() != Preference::Unknown);
    match (from_robots_txt, header) {
        (usage, Some(header)) => Some(usage.unwrap_or_default().with_header(header)),
        (usage, None) => usage.filter(said),
    }
}

/// A robot's usage preferences for one path, as a column of answers gives them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UsageAnswer {
    /// The reading knows no such fields (the 1994 and 1996 readings).
    NotRead,
    /// The robot may not fetch the path: it has no preferences.
    NotFetched,
    /// The preferences.
    Stated(Usage),
}

/// What a Content-Usage value says: its path (as written, `None` for every path) and
/// its preferences (`None` when the dictionary does not parse).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContentUsage<'a> {
    /// The path, as written.
    pub path: Option<&'a [u8]>,
    /// The preferences text.
    pub preferences: &'a [u8],
    /// `train-ai` and `search`, each `Some(true)` for `y`, `Some(false)` for `n`, `None`
    /// when unknown; `None` as a whole when the dictionary does not parse.
    pub said: Option<[Option<bool>; 2]>,
}

/// Reads a Content-Usage value: `[PATH] PREFERENCES`. A value whose first word starts
/// with `/` or `*` has a path.
///
/// # Examples
///
/// ```
/// # #[cfg(feature = "parts")] {
/// use robotscope_core::usage::read_content_usage;
/// let rule = read_content_usage(b"/news/ train-ai=n, search=y");
/// assert_eq!(rule.path, Some(b"/news/".as_slice()));
/// assert_eq!(rule.said, Some([Some(false), Some(true)]));
/// // `no` is not the vocabulary's `n`; a repeated key keeps its last value.
/// assert_eq!(read_content_usage(b"train-ai=no, search=n, search=y").said, Some([None, Some(true)]));
/// // Upper-case keys are not RFC 9651: nothing parses.
/// assert_eq!(read_content_usage(b"Train-AI=n").said, None);
/// # }
/// ```
#[must_use]
pub fn read_content_usage(value: &[u8]) -> ContentUsage<'_> {
    let value = value.trim_ascii();
    let (path, preferences) = match value.first() {
        Some(b'/' | b'*') => {
            let end = value.iter().position(u8::is_ascii_whitespace).unwrap_or(value.len());
            (Some(&value[..end]), value[end..].trim_ascii())
        }
        _ => (None, value),
    };
    let said = dictionary_tokens(preferences).map(|tokens| {
        let mut said = [None, None];
        for (key, token) in tokens {
            if let Some(category) = Category::of_usage_key(&key) {
                said[category.index()] = match token.as_deref() {
                    Some("y") => Some(true),
                    Some("n") => Some(false),
                    _ => None,
                };
            }
        }
        said
    });
    ContentUsage { path, preferences, said }
}

/// The preferences of a Content-Usage value without a path (an HTTP header's): as
/// [`read_content_usage`], with nothing that parses read as all unknown.
fn read_content_usage_preferences(value: &[u8]) -> [Option<bool>; 2] {
    let value = value.trim_ascii();
    if value.starts_with(b"/") {
        return [None, None];
    }
    read_content_usage(value).said.unwrap_or_default()
}

/// Reads a Content-Signal value: each category `Some(true)` for `yes`, `Some(false)`
/// for `no`, `None` when it says neither (or nothing parses).
///
/// # Examples
///
/// ```
/// # #[cfg(feature = "parts")] {
/// use robotscope_core::usage::read_content_signal;
/// assert_eq!(read_content_signal(b"search=yes, ai-train=no"), [Some(false), Some(true), None]);
/// assert_eq!(read_content_signal(b"ai-input=y"), [None, None, None]);
/// # }
/// ```
#[must_use]
pub fn read_content_signal(value: &[u8]) -> [Option<bool>; 3] {
    let mut said = [None, None, None];
    for (key, token) in dictionary_tokens(value.trim_ascii()).unwrap_or_default() {
        if let Some(category) = Category::of_signal_key(&key) {
            said[category.index()] = match token.as_deref() {
                Some("yes") => Some(true),
                Some("no") => Some(false),
                _ => None,
            };
        }
    }
    said
}

/// True when `text` is an RFC 9651 dictionary.
#[must_use]
pub(crate) fn is_dictionary(text: &[u8]) -> bool {
    dictionary_tokens(text).is_some()
}

/// The members of an RFC 9651 dictionary, each with its value when that is a token
/// (parameters ignored); `None` when the text is not a dictionary.
fn dictionary_tokens(text: &[u8]) -> Option<Vec<(String, Option<String>)>> {
    let dictionary: sfv::Dictionary = sfv::Parser::new(text).parse().ok()?;
    Some(
        dictionary
            .iter()
            .map(|(key, entry)| {
                let token = match entry {
                    sfv::ListEntry::Item(item) => item.bare_item.as_token().map(|t| t.as_str().to_owned()),
                    sfv::ListEntry::InnerList(_) => None,
                };
                (key.as_str().to_owned(), token)
            })
            .collect(),
    )
}

/// The lines one category's answer names at most: a file can say the same thing on
/// 20,000 lines, and an answer that names them all is 20,000 times too long. The count
/// of the rest is kept ([`Stated::more_lines`]).
pub(crate) const MAX_LINES_NAMED: usize = 8;

/// Lines that said one thing: the first [`MAX_LINES_NAMED`], in file order, and how
/// many in all.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Lines {
    first: Vec<usize>,
    total: usize,
}

impl Lines {
    fn push(&mut self, line: usize) {
        self.total += 1;
        if self.first.len() < MAX_LINES_NAMED {
            self.first.push(line);
        }
    }

    /// These lines and `other`'s, in order, still capped.
    fn merged(&self, other: &Lines) -> Lines {
        // Most merges are with nothing: one rule wins, one kind of line speaks.
        if other.total == 0 {
            return self.clone();
        }
        if self.total == 0 {
            return other.clone();
        }
        let mut first: Vec<usize> = self.first.iter().chain(&other.first).copied().collect();
        first.sort_unstable();
        first.dedup();
        first.truncate(MAX_LINES_NAMED);
        Lines { total: self.total + other.total, first }
    }
}

/// What the lines of one kind say about one category: those that said no and those
/// that said yes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Said {
    no: Lines,
    yes: Lines,
}

impl Said {
    fn add(&mut self, line: usize, said: Option<bool>) {
        match said {
            Some(false) => self.no.push(line),
            Some(true) => self.yes.push(line),
            None => {}
        }
    }
}

/// The Content-Usage rules with one path (or none), combined: identical paths combine
/// per category, most restrictive first (draft-ietf-aipref-attach).
#[derive(Debug, Clone)]
struct UsageRule {
    /// The path as matched (encoded as RFC 9309 §2.2.2 encodes rule paths); `None`
    /// for every path, which ranks below any rule with a path.
    pattern: Option<Vec<u8>>,
    /// `train-ai` and `search`.
    said: [Said; 2],
    /// Every line with this path: an unknown answer names them.
    lines: Lines,
}

/// Wildcard paths whose literal start is at least this long are indexed by it; shorter
/// ones are tried on every path.
const MIN_INDEXED_START: usize = 2;

/// One robot's Content-Usage and Content-Signal lines under RFC 9309, read once and
/// asked about many paths.
///
/// Built to answer in time that does not grow with the file: rules with one path are
/// combined once (100,000 copies cost one), plain paths sit in a prefix set (the
/// longest that is a prefix of the path is found by one binary search), wildcard paths
/// in a second one keyed by their literal start, and the group-wide Content-Signal
/// lines are combined once for every path.
#[derive(Debug, Clone, Default)]
pub struct UsageRules {
    rules: Vec<UsageRule>,
    plain: Option<PrefixSet<usize>>,
    anchored: Option<PrefixSet<usize>>,
    /// Wildcard paths without a literal start to index them by, found by the pieces a
    /// path holds with the automaton crawl rules use.
    loose: PieceFilter,
    pathless: Option<usize>,
    signals: [Said; 3],
    has_signals: bool,
}

impl UsageRules {
    /// The lines of the groups `selection` chose (under RFC 9309).
    #[must_use]
    pub fn of(txt: &RobotsTxt, selection: &Selection) -> UsageRules {
        let interpretation = txt.interpretation(Reading::Rfc9309);
        let fields = interpretation.fields();
        let mut found = UsageRules::default();
        let mut by_pattern: foldhash::HashMap<Option<Vec<u8>>, usize> = foldhash::HashMap::default();
        for field in
            selection.groups().iter().flat_map(|&g| interpretation.groups()[g].extensions()).map(|&f| &fields[f])
        {
            let value = txt.text(&field.value());
            match field.kind() {
                FieldKind::ContentUsage => {
                    let rule = read_content_usage(value);
                    // In the form paths are tested in, as Allow and Disallow are.
                    let pattern = rule.path.map(|path| normalise_as_requested(path).into_owned());
                    let index = *by_pattern.entry(pattern.clone()).or_insert_with(|| {
                        found.rules.push(UsageRule { pattern, said: Default::default(), lines: Lines::default() });
                        found.rules.len() - 1
                    });
                    let combined = &mut found.rules[index];
                    combined.lines.push(field.line());
                    let said = rule.said.unwrap_or_default();
                    for (category, value) in said.iter().enumerate() {
                        combined.said[category].add(field.line(), *value);
                    }
                }
                FieldKind::ContentSignal => {
                    found.has_signals = true;
                    for (category, value) in read_content_signal(value).iter().enumerate() {
                        found.signals[category].add(field.line(), *value);
                    }
                }
                _ => {}
            }
        }
        found.index();
        found
    }

    /// Files each combined rule where a path finds it.
    fn index(&mut self) {
        let mut plain = Vec::new();
        let mut anchored = Vec::new();
        let mut loose = Vec::new();
        for (index, rule) in self.rules.iter().enumerate() {
            let Some(pattern) = &rule.pattern else {
                self.pathless = Some(index);
                continue;
            };
            let line = rule.lines.first.first().copied().unwrap_or(0);
            if is_plain_prefix(pattern) {
                plain.push((pattern.as_slice(), index, line));
            } else {
                let start = pattern.iter().position(|&b| b == b'*' || b == b'$').unwrap_or(pattern.len());
                if start >= MIN_INDEXED_START {
                    anchored.push((&pattern[..start], index, line));
                } else {
                    loose.push((index, pattern.as_slice()));
                }
            }
        }
        self.loose = PieceFilter::new(&loose);
        self.plain = (!plain.is_empty()).then(|| PrefixSet::new(plain));
        self.anchored = (!anchored.is_empty()).then(|| PrefixSet::new(anchored));
    }

    /// True when the groups state no preference at all.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty() && !self.has_signals
    }

    /// The combined rules with the longest path that matches `tested` (several when
    /// different paths of one length match), or the rule without a path.
    fn winners(&self, tested: &[u8]) -> Vec<&UsageRule> {
        let mut best: Vec<usize> = Vec::new();
        let mut best_len = 0;
        let mut consider = |index: usize| {
            let Some(pattern) = &self.rules[index].pattern else { return };
            if pattern.len() < best_len || !wildcard_match(pattern, tested) {
                return;
            }
            if pattern.len() > best_len || best.is_empty() {
                best.clear();
                best_len = pattern.len();
            }
            best.push(index);
        };
        // The longest plain path that is a prefix matches by construction.
        if let Some(&index) = self.plain.as_ref().and_then(|set| set.matches(tested).next()) {
            consider(index);
        }
        for &index in self.anchored.iter().flat_map(|set| set.matches(tested)) {
            consider(index);
        }
        // The longest first: once one matches, the shorter ones cannot win.
        let mut loose = Vec::new();
        self.loose.candidates(tested, |index| loose.push(index));
        let length = |index: usize| self.rules[index].pattern.as_ref().map_or(0, Vec::len);
        loose.sort_unstable_by_key(|&index| std::cmp::Reverse(length(index)));
        for index in loose {
            consider(index);
        }
        if best.is_empty() {
            best.extend(self.pathless);
        }
        best.into_iter().map(|index| &self.rules[index]).collect()
    }

    /// The answer for a path the robot may (`allowed`) or may not fetch, given what the
    /// fetch of the file means (`availability`): none for a path it may not fetch,
    /// nothing stated by a file that was not read (a 404's error page), else
    /// [`UsageRules::answer`]. The one place that decides which.
    #[must_use]
    pub fn answer_for(&self, availability: Availability, allowed: bool, tested: &str) -> UsageAnswer {
        if !allowed {
            UsageAnswer::NotFetched
        } else if availability.access(Reading::Rfc9309) != Access::Rules {
            UsageAnswer::Stated(Usage::default())
        } else {
            UsageAnswer::Stated(self.answer(tested))
        }
    }

    /// The preferences for `tested`, the path as a crawler requests it. Ask for a path
    /// the robot may crawl: a disallowed path has no preferences.
    #[must_use]
    pub fn answer(&self, tested: &str) -> Usage {
        let winners = self.winners(tested.as_bytes());
        let winning_lines = winners.iter().fold(Lines::default(), |lines, rule| lines.merged(&rule.lines));
        let mut answer = Usage::default();
        for category in Category::ALL {
            // Content-Usage: the longest match decides, identical paths most restrictive.
            // It has no ai-input: its rules neither state nor leave it unknown.
            let mut from_usage = Said::default();
            let winning = if category == Category::AiInput { Lines::default() } else { winning_lines.clone() };
            for rule in winners.iter().filter(|_| category != Category::AiInput) {
                if let Some(said) = rule.said.get(category.index()) {
                    from_usage.no = from_usage.no.merged(&said.no);
                    from_usage.yes = from_usage.yes.merged(&said.yes);
                }
            }
            answer.stated[category.index()] = combine(&from_usage, &self.signals[category.index()], winning);
        }
        answer
    }
}

/// The usage preferences of the groups `selection` chose (under RFC 9309) for `tested`,
/// the path as a crawler requests it (see [`UsageRules`] for many paths).
#[must_use]
pub fn usage(txt: &RobotsTxt, selection: &Selection, tested: &str) -> Usage {
    UsageRules::of(txt, selection).answer(tested)
}

/// Combines what the lines say about one category, most restrictive first: any no, then
/// any yes, else unknown. The lines are those that said the winning word; for unknown,
/// the Content-Usage rules that won the match and left it so.
fn combine(from_usage: &Said, from_signal: &Said, winning: Lines) -> Stated {
    let no = from_usage.no.merged(&from_signal.no);
    let yes = from_usage.yes.merged(&from_signal.yes);
    let (preference, lines) = if no.total > 0 {
        (Preference::Disallowed, no)
    } else if yes.total > 0 {
        (Preference::Allowed, yes)
    } else {
        (Preference::Unknown, winning)
    };
    Stated { preference, more: lines.total - lines.first.len(), lines: lines.first, header: false }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::{Robot, select};

    fn usage_of(file: &str, agent: &str, path: &str) -> Usage {
        let txt = RobotsTxt::parse(file.as_bytes().to_vec());
        let selection = select(txt.interpretation(Reading::Rfc9309), &Robot::from_agent(agent), Reading::Rfc9309);
        usage(&txt, &selection, path)
    }

    fn said(usage: &Usage) -> [(&'static str, usize); 3] {
        let line = |s: &Stated| s.lines().first().copied().unwrap_or(0);
        Category::ALL.map(|c| (usage.get(c).preference().name(), line(usage.get(c))))
    }

    /// A site-wide default and an exception for one directory.
    #[test]
    fn a_pathless_default_and_a_directory_exception() {
        let file = "User-Agent: *\nAllow: /\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\n";
        // search is unknown, and line 3 (the rule that won the match) says so.
        assert_eq!(said(&usage_of(file, "bot", "/")), [("disallowed", 3), ("unknown", 3), ("unknown", 0)]);
        assert_eq!(said(&usage_of(file, "bot", "/ai-ok/a")), [("allowed", 4), ("unknown", 4), ("unknown", 0)]);
    }

    /// Cloudflare's managed robots.txt.
    #[test]
    fn cloudflares_managed_file() {
        let file = "User-Agent: *\nContent-Signal: search=yes,ai-train=no\nAllow: /\n";
        assert_eq!(said(&usage_of(file, "bot", "/x")), [("disallowed", 2), ("allowed", 2), ("unknown", 0)]);
    }

    #[test]
    fn the_longest_match_decides_every_category() {
        let file = "User-agent: *\nContent-Usage: train-ai=n, search=n\nContent-Usage: /blog/ search=y\n";
        // train-ai is not taken from the shorter (pathless) rule: the longest decides all.
        assert_eq!(said(&usage_of(file, "bot", "/blog/a")), [("unknown", 3), ("allowed", 3), ("unknown", 0)]);
        // A wildcard path matches as Allow/Disallow patterns do.
        let file = "User-agent: *\nContent-Usage: /*.pdf$ train-ai=n\n";
        assert_eq!(usage_of(file, "bot", "/a/b.pdf").get(Category::TrainAi).preference(), Preference::Disallowed);
        assert_eq!(usage_of(file, "bot", "/a/b.pdf?x").get(Category::TrainAi).preference(), Preference::Unknown);
        // Encoded alike: a raw path in the rule matches the encoded request.
        let file = "User-agent: *\nContent-Usage: /café/ train-ai=n\n";
        assert_eq!(usage_of(file, "bot", "/caf%C3%A9/x").get(Category::TrainAi).preference(), Preference::Disallowed);
    }

    #[test]
    fn identical_paths_combine_most_restrictive_first() {
        let file = "User-agent: *\nContent-Usage: /a train-ai=y, search=y\nContent-Usage: /a train-ai=n\n";
        assert_eq!(said(&usage_of(file, "bot", "/a")), [("disallowed", 3), ("allowed", 2), ("unknown", 0)]);
    }

    #[test]
    fn an_unparsable_rule_still_wins_its_match() {
        let file = "User-agent: *\nContent-Usage: train-ai=y\nContent-Usage: /a train-ai=\"y\" search=\n";
        assert_eq!(said(&usage_of(file, "bot", "/a")), [("unknown", 3), ("unknown", 3), ("unknown", 0)]);
    }

    #[test]
    fn signals_and_usage_combine_most_restrictive_first() {
        let file = "User-agent: *\nContent-Signal: search=yes, ai-train=yes, ai-input=no\nContent-Usage: train-ai=n\n";
        assert_eq!(said(&usage_of(file, "bot", "/")), [("disallowed", 3), ("allowed", 2), ("disallowed", 2)]);
    }

    /// A line said 20,000 times is named in the first few and counted.
    #[test]
    fn an_answer_names_a_few_lines_and_counts_the_rest() {
        let file = format!("User-agent: *\n{}", "Content-Signal: ai-train=no\n".repeat(20_000));
        let usage = usage_of(&file, "bot", "/");
        let stated = usage.get(Category::TrainAi);
        assert_eq!(stated.lines(), (2..2 + MAX_LINES_NAMED).collect::<Vec<_>>());
        assert_eq!(stated.more_lines(), 20_000 - MAX_LINES_NAMED);
        assert!(usage.to_string().starts_with("train-ai disallowed (lines 2, 3, 4, 5, 6, 7, 8, 9 and 19992 more)"));
    }

    /// The index (prefix sets, combined paths) answers what trying every rule answers.
    #[test]
    fn the_index_answers_as_every_rule_tried() {
        // With wildcard paths that have no literal start, found by their pieces
        // (`/*ab`, `/*ab*c`, `/*bc$`), and one without a piece worth looking for (`/*b`).
        let patterns = [
            "/",
            "/a",
            "/a/",
            "/a/b",
            "/a*",
            "/*b",
            "/a/*.pdf$",
            "/ab",
            "*",
            "/a/b$",
            "/x*y",
            "/a",
            "/*ab",
            "/*ab*c",
            "/*bc$",
            "/*zz*",
        ];
        let mut file = String::from("User-agent: *\n");
        for (i, pattern) in patterns.iter().enumerate() {
            let said = ["train-ai=y", "train-ai=n", "search=y", "search=n, train-ai=y"][i % 4];
            file += &["Content-Usage: ", pattern, " ", said, "\n"].concat();
        }
        file.push_str("Content-Usage: search=n\n");
        let txt = RobotsTxt::parse(file.as_bytes().to_vec());
        let selection = select(txt.interpretation(Reading::Rfc9309), &Robot::from_agent("bot"), Reading::Rfc9309);
        let rules = UsageRules::of(&txt, &selection);
        for path in [
            "/",
            "/a",
            "/a/b",
            "/a/b/c.pdf",
            "/ab",
            "/xyz",
            "/b",
            "/q/b",
            "/a/b",
            "/zz",
            "/a/x.pdf",
            "/xab",
            "/abc",
            "/qbc",
            "/qabxc",
            "/q/zz/ab",
            "/bcd",
        ] {
            // Every rule tried: the longest matching path(s), else the pathless rule.
            let matching: Vec<(usize, &str)> = patterns
                .iter()
                .enumerate()
                .filter(|(_, p)| wildcard_match(p.as_bytes(), path.as_bytes()))
                .map(|(i, p)| (i + 2, *p))
                .collect();
            let longest = matching.iter().map(|(_, p)| p.len()).max();
            let mut expected: Vec<usize> = match longest {
                Some(len) => matching.iter().filter(|(_, p)| p.len() == len).map(|(line, _)| *line).collect(),
                None => vec![patterns.len() + 2],
            };
            expected.sort_unstable();
            let mut got: Vec<usize> =
                rules.winners(path.as_bytes()).iter().flat_map(|r| r.lines.first.clone()).collect();
            got.sort_unstable();
            assert_eq!(got, expected, "{path}");
        }
    }

    /// Each robot gets its group's preferences. (A Content-Usage line does not end a run
    /// of User-agent lines, as an Allow would: robots that do not know the field join
    /// such groups, and crawl verdicts must not depend on the field.)
    #[test]
    fn each_robot_gets_its_own_groups_preferences() {
        let file = "User-agent: GPTBot\nAllow: /\nContent-Usage: train-ai=n\n\nUser-agent: *\nAllow: /\nContent-Usage: train-ai=y\n";
        assert_eq!(usage_of(file, "GPTBot", "/").get(Category::TrainAi).preference(), Preference::Disallowed);
        assert_eq!(usage_of(file, "Googlebot", "/").get(Category::TrainAi).preference(), Preference::Allowed);
    }
}
