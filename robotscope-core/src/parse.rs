//! From lines to meaning: the fields each reading sees, and the groups they form.
//!
//! [`RobotsTxt::parse`] never fails. It lexes the bytes once; each [`Reading`] then gets
//! its own [`Interpretation`], built the first time it is asked for, because the
//! readings disagree about what a line is (`Dissallow` is a rule only to Google; `Allow`
//! is nothing to 1994 robots) and about where a group ends (a blank line ends a record
//! only for the classic readings). Everything keeps its line number and byte span, so
//! any answer can point at the text.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::OnceLock;

use super::lex::{self, FieldSplit, Line, Separator};
use super::pattern::{decode_draft1996, normalise_as_requested, normalise_rfc9309};
use super::reading::Reading;
use super::request::UrlMode;

mod select_index;
pub(crate) use select_index::{MAX_INDEXED_NAME_BYTES, SelectIndex};

/// The field a line holds, as one reading understands it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FieldKind {
    /// `User-agent`: names the robots a group is for.
    UserAgent,
    /// `Allow`: a path robots may fetch.
    Allow,
    /// `Disallow`: a path robots must not fetch.
    Disallow,
    /// `Sitemap`: a sitemap's URL, for every robot (RFC 9309 §2.3.5).
    Sitemap,
    /// `Crawl-delay`: seconds between requests (honoured by Bing and Yandex, not Google).
    CrawlDelay,
    /// `Request-rate`: requests per period, from the 1996-era extensions.
    RequestRate,
    /// `Visit-time`: the hours a robot may visit, from the 1996-era extensions.
    VisitTime,
    /// `Host`: Yandex's preferred mirror.
    Host,
    /// `Clean-param`: Yandex's URL parameters to ignore.
    CleanParam,
    /// `Content-Usage`: AI usage preferences for a path (IETF aipref; RFC 9309 reading
    /// only, see [`usage`](super::usage)).
    ContentUsage,
    /// `Content-Signal`: Cloudflare's group-wide AI usage signals (RFC 9309 reading
    /// only).
    ContentSignal,
    /// Any other field; kept so that lint and display can show it.
    Unknown,
}

impl FieldKind {
    /// The field's canonical spelling.
    #[must_use]
    pub fn canonical(self) -> &'static str {
        match self {
            FieldKind::UserAgent => "User-agent",
            FieldKind::Allow => "Allow",
            FieldKind::Disallow => "Disallow",
            FieldKind::Sitemap => "Sitemap",
            FieldKind::CrawlDelay => "Crawl-delay",
            FieldKind::RequestRate => "Request-rate",
            FieldKind::VisitTime => "Visit-time",
            FieldKind::Host => "Host",
            FieldKind::CleanParam => "Clean-param",
            FieldKind::ContentUsage => "Content-Usage",
            FieldKind::ContentSignal => "Content-Signal",
            FieldKind::Unknown => "(unknown)",
        }
    }

    /// True for Allow and Disallow.
    #[must_use]
    pub fn is_rule(self) -> bool {
        matches!(self, FieldKind::Allow | FieldKind::Disallow)
    }

    /// True for the extension fields that belong to a group (Crawl-delay and friends,
    /// the usage preferences).
    #[must_use]
    pub fn is_group_extension(self) -> bool {
        matches!(
            self,
            FieldKind::CrawlDelay
                | FieldKind::RequestRate
                | FieldKind::VisitTime
                | FieldKind::CleanParam
                | FieldKind::ContentUsage
                | FieldKind::ContentSignal
        )
    }
}

/// How a field name was written compared with its canonical spelling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Spelling {
    /// The canonical name, in any letter case.
    Canonical,
    /// A variant Google accepts: a typo it knows (`Dissallow`, `User agent`) or a longer
    /// word that starts with the name (`Disallowed`).
    Tolerated,
}

/// A byte span of the source, in 32 bits (see [`lex::MAX_SOURCE_BYTES`]): every field,
/// rule and User-agent line keeps one or two, so their size is what a line costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Span {
    start: u32,
    end: u32,
}

impl Span {
    /// The span of `range`, whose ends are offsets into a source of at most
    /// [`lex::MAX_SOURCE_BYTES`].
    fn of(range: &Range<usize>) -> Span {
        Span { start: range.start as u32, end: range.end as u32 }
    }

    fn range(self) -> Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// One line that holds a field, as one reading sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    line: u32,
    kind: FieldKind,
    spelling: Spelling,
    separator: Separator,
    key: Span,
    value: Span,
}

impl Field {
    /// 1-based line number.
    #[must_use]
    pub fn line(&self) -> usize {
        self.line as usize
    }

    /// What the field is to this reading.
    #[must_use]
    pub fn kind(&self) -> FieldKind {
        self.kind
    }

    /// Whether the name was written canonically.
    #[must_use]
    pub fn spelling(&self) -> Spelling {
        self.spelling
    }

    /// How the name was separated from the value.
    #[must_use]
    pub(crate) fn separator(&self) -> Separator {
        self.separator
    }

    /// Byte span of the name.
    #[must_use]
    pub fn key(&self) -> Range<usize> {
        self.key.range()
    }

    /// Byte span of the value (trimmed; may be empty).
    #[must_use]
    pub fn value(&self) -> Range<usize> {
        self.value.range()
    }
}

/// Allow or Disallow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RuleKind {
    /// The path may be fetched.
    Allow,
    /// The path must not be fetched.
    Disallow,
}

impl RuleKind {
    /// "Allow" or "Disallow".
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            RuleKind::Allow => "Allow",
            RuleKind::Disallow => "Disallow",
        }
    }
}

/// One Allow or Disallow rule of a group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    line: u32,
    kind: RuleKind,
    value: Span,
    /// Where the pattern, normalised for the reading, is kept: the value itself when
    /// normalising changed nothing (nearly always), else a span of the
    /// interpretation's own store. Read it with [`RobotsTxt::pattern`].
    pattern: PatternSpan,
    /// The same in the form Google's library compares with URLs taken byte for byte
    /// (`--raw-url`), where that differs ([`RobotsTxt::pattern_as`]).
    raw_pattern: PatternSpan,
}

impl Rule {
    /// 1-based line number.
    #[must_use]
    pub fn line(&self) -> usize {
        self.line as usize
    }

    /// Allow or Disallow.
    #[must_use]
    pub fn kind(&self) -> RuleKind {
        self.kind
    }

    /// Byte span of the value as written.
    #[must_use]
    pub fn value(&self) -> Range<usize> {
        self.value.range()
    }
}

/// Where a rule's normalised pattern is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PatternSpan {
    /// The pattern is the value as written (the rule's `value` span of the source).
    AsWritten,
    /// The pattern differs from the value and sits in [`Interpretation`]'s store.
    Normalised(Span),
}

/// What a `User-agent` line names, under one reading.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum AgentName {
    /// `*`: every robot without a group of its own. Under RFC 9309 `* text` counts too.
    Star,
    /// A robot's name: under RFC 9309 the product token (the value up to its first byte
    /// that is not a letter, `_` or `-`); under the classic readings the whole value,
    /// lower-cased, matched as a substring of the robot's name.
    Name(String),
}

/// One `User-agent` line of a group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentLine {
    line: u32,
    value: Span,
    name: AgentName,
}

impl AgentLine {
    /// 1-based line number.
    #[must_use]
    pub fn line(&self) -> usize {
        self.line as usize
    }

    /// Byte span of the value as written.
    #[must_use]
    pub fn value(&self) -> Range<usize> {
        self.value.range()
    }

    /// What the reading takes the line to name.
    #[must_use]
    pub fn name(&self) -> &AgentName {
        &self.name
    }
}

/// A group (RFC 9309) or record (1994, 1996): User-agent lines and the rules under them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Group {
    agents: Vec<AgentLine>,
    rules: Vec<Rule>,
    extensions: Vec<usize>,
    last_line: u32,
}

impl Group {
    /// The User-agent lines, in order.
    #[must_use]
    pub fn agents(&self) -> &[AgentLine] {
        &self.agents
    }

    /// The Allow and Disallow rules, in order.
    #[must_use]
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// Crawl-delay, Request-rate, Visit-time and Clean-param lines inside the group, as
    /// indices into [`Interpretation::fields`].
    #[must_use]
    pub fn extensions(&self) -> &[usize] {
        &self.extensions
    }

    /// Line number of the last line that belongs to the group.
    #[must_use]
    pub fn last_line(&self) -> usize {
        self.last_line as usize
    }

    /// Line number of the group's first User-agent line.
    #[must_use]
    pub fn first_line(&self) -> usize {
        self.agents.first().map_or(self.last_line(), AgentLine::line)
    }

    /// True when one of the group's User-agent lines is `*`.
    #[must_use]
    pub fn names_star(&self) -> bool {
        self.agents.iter().any(|agent| agent.name == AgentName::Star)
    }
}

/// What one reading makes of a file.
#[derive(Debug, Clone, Default)]
pub struct Interpretation {
    fields: Vec<Field>,
    groups: Vec<Group>,
    orphan_rules: Vec<usize>,
    sitemaps: Vec<usize>,
    loose_extensions: Vec<usize>,
    unknown: Vec<usize>,
    /// The normalised patterns that differ from their values, back to back.
    normalised_patterns: Vec<u8>,
    /// Which groups name which robots, made on the first [`agent::select`] that needs
    /// it (a file naming many robots).
    ///
    /// [`agent::select`]: super::agent::select
    select_index: std::sync::OnceLock<SelectIndex>,
}

impl Interpretation {
    /// The index [`super::agent::select`] looks robots up in, once the file names more
    /// than `from_agents` of them (made the first time it is asked for); `reading` is
    /// this interpretation's (classic or not is all that matters).
    pub(crate) fn select_index(&self, reading: Reading, from_agents: usize) -> Option<&SelectIndex> {
        let index = if let Some(index) = self.select_index.get() {
            index
        } else {
            let agents: usize = self.groups.iter().map(|group| group.agents().len()).sum();
            if agents <= from_agents {
                return None;
            }
            self.select_index.get_or_init(|| SelectIndex::new(self, reading))
        };
        // An index of the other kind (an interpretation asked about under a reading not
        // its own) is no answer: the lines are looked through.
        (index.is_classic() == reading.is_classic()).then_some(index)
    }

    /// Every line that holds a field, in order.
    #[must_use]
    pub fn fields(&self) -> &[Field] {
        &self.fields
    }

    /// The groups, in order.
    #[must_use]
    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    /// Allow and Disallow lines that belong to no group (before any User-agent line, or
    /// after a blank line under the classic readings), as indices into
    /// [`Interpretation::fields`].
    #[must_use]
    pub fn orphan_rules(&self) -> &[usize] {
        &self.orphan_rules
    }

    /// Sitemap lines, as indices into [`Interpretation::fields`].
    #[must_use]
    pub fn sitemaps(&self) -> &[usize] {
        &self.sitemaps
    }

    /// Extension lines outside any group (Host, or a Crawl-delay before the first
    /// User-agent), as indices into [`Interpretation::fields`].
    #[must_use]
    pub fn loose_extensions(&self) -> &[usize] {
        &self.loose_extensions
    }

    /// Unknown fields, as indices into [`Interpretation::fields`].
    #[must_use]
    pub fn unknown(&self) -> &[usize] {
        &self.unknown
    }

    /// The number of rules in all groups.
    #[must_use]
    pub fn rule_count(&self) -> usize {
        self.groups.iter().map(|group| group.rules.len()).sum()
    }
}

/// A parsed robots.txt: the bytes, their lines, and each reading's interpretation (the
/// last two are parts, public with the `parts` feature).
///
/// ```
/// use robotscope_core::{Matcher, Reading, RobotsTxt};
/// // Any bytes are some robots.txt: parsing never fails.
/// let txt = RobotsTxt::parse("User-agent: *\nDisallow: /tmp/\n\nSitemap: https://example.com/map.xml\n");
/// assert!(!Matcher::new(&txt, "bot", Reading::Rfc9309).allowed("/tmp/x"));
/// assert_eq!(txt.line_text(2), b"Disallow: /tmp/");
/// assert_eq!(txt.sitemaps().collect::<Vec<_>>(), ["https://example.com/map.xml"]);
/// ```
#[derive(Debug, Clone)]
pub struct RobotsTxt {
    source: Vec<u8>,
    lines: Vec<Line>,
    /// Built on first use: a 3.7 MB file takes milliseconds per reading, and most
    /// questions need only one.
    interpretations: [OnceLock<Interpretation>; 3],
    /// How many bytes the RFC 9309 reading reads, if it stops early (see
    /// [`RobotsTxt::with_rfc9309_limit`]).
    rfc9309_limit: Option<usize>,
}

impl Default for RobotsTxt {
    fn default() -> Self {
        RobotsTxt::parse(Vec::new())
    }
}

/// Two parsed files are equal when their bytes are: everything else is read off them.
impl PartialEq for RobotsTxt {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

impl Eq for RobotsTxt {}

impl RobotsTxt {
    /// Parses any bytes (a `Vec<u8>`, taken without a copy, or a `&[u8]` or a `&str`,
    /// copied; a `&Vec<u8>` is given as `.as_slice()`). Never
    /// fails: what cannot be read as a field is kept as a line and left to the
    /// diagnostics.
    ///
    /// Everything given is read (up to 1 GiB). RFC 9309 §2.5 lets a crawler stop at 500
    /// KiB, and Google does: to behave as Google does, give at most
    /// [`RFC9309_PARSE_LIMIT_BYTES`](super::content::RFC9309_PARSE_LIMIT_BYTES) of the
    /// body.
    ///
    /// # Examples
    ///
    /// ```
    /// use robotscope_core::{Matcher, Reading, RobotsTxt};
    /// let txt = RobotsTxt::parse(b"User-agent: *\n\nDisallow: /\n".to_vec());
    /// // RFC 9309 ignores the blank line; the 1994 standard ends the record there.
    /// assert!(!Matcher::new(&txt, "bot", Reading::Rfc9309).allowed("/x"));
    /// assert!(Matcher::new(&txt, "bot", Reading::Koster1994).allowed("/x"));
    /// ```
    #[must_use]
    pub fn parse(source: impl Into<Vec<u8>>) -> RobotsTxt {
        let mut source = source.into();
        // Read to 1 GiB at most (`lex::MAX_SOURCE_BYTES`), so that offsets fit in 32 bits.
        source.truncate(lex::MAX_SOURCE_BYTES);
        let lines = lex::lex(&source);
        RobotsTxt { source, lines, interpretations: Default::default(), rfc9309_limit: None }
    }

    /// The same file, of which the RFC 9309 reading reads only the first `limit` bytes
    /// (`None`: all of them), as a crawler that stops there does: RFC 9309 §2.5 lets it
    /// stop at 500 KiB ([`RFC9309_PARSE_LIMIT_BYTES`](super::content::RFC9309_PARSE_LIMIT_BYTES)),
    /// and Google's crawler does. A line the limit cuts is read as far as it goes. The
    /// 1994 standard and the 1996 draft set no limit, and keep reading every byte.
    ///
    /// # Examples
    ///
    /// ```
    /// use robotscope_core::{Matcher, Reading, RobotsTxt};
    /// let text = format!("User-agent: *\n{}Disallow: /late/\n", "# filler\n".repeat(60_000));
    /// let txt = RobotsTxt::parse(text.into_bytes()).with_rfc9309_limit(Some(500 * 1024));
    /// assert!(Matcher::new(&txt, "bot", Reading::Rfc9309).allowed("/late/x"), "RFC 9309 stopped before the rule");
    /// assert!(!Matcher::new(&txt, "bot", Reading::Draft1996).allowed("/late/x"));
    /// assert_eq!(txt.rfc9309_cut(), Some(500 * 1024));
    /// ```
    #[must_use]
    pub fn with_rfc9309_limit(mut self, limit: Option<usize>) -> RobotsTxt {
        if limit != self.rfc9309_limit {
            self.rfc9309_limit = limit;
            self.interpretations[Reading::Rfc9309.index()] = OnceLock::new();
        }
        self
    }

    /// The RFC 9309 reading's limit, when the file is longer than it: where that
    /// reading stops reading.
    #[must_use]
    pub fn rfc9309_cut(&self) -> Option<usize> {
        self.rfc9309_limit.filter(|&limit| limit < self.source.len())
    }

    /// The RFC 9309 reading's limit, whether or not the file reaches it.
    #[must_use]
    pub fn rfc9309_limit(&self) -> Option<usize> {
        self.rfc9309_limit
    }

    part! {
        /// The file with every byte read under every reading: itself when nothing is cut,
        /// else a parse of its bytes without the RFC 9309 limit (for a lint of what is
        /// written, and for what the whole file would say).
        #[must_use]
        pub fn whole(&self) -> std::borrow::Cow<'_, RobotsTxt> {
            match self.rfc9309_cut() {
                None => std::borrow::Cow::Borrowed(self),
                Some(_) => std::borrow::Cow::Owned(RobotsTxt::parse(self.source.clone())),
            }
        }
    }

    /// The bytes as given.
    #[must_use]
    pub fn source(&self) -> &[u8] {
        &self.source
    }

    part! {
        /// Every line, in order.
        #[must_use]
        pub fn lines(&self) -> &[Line] {
            &self.lines
        }
    }

    part! {
        /// The line with 1-based number `number`, if there is one.
        #[must_use]
        pub fn line(&self, number: usize) -> Option<&Line> {
            number.checked_sub(1).and_then(|index| self.lines.get(index))
        }
    }

    /// The content of line `number` (without its line end), or an empty slice.
    #[must_use]
    pub fn line_text(&self, number: usize) -> &[u8] {
        self.line(number).map_or(&[], |line| line.content(&self.source))
    }

    /// The bytes of a span.
    #[must_use]
    pub fn text(&self, span: &Range<usize>) -> &[u8] {
        self.source.get(span.clone()).unwrap_or_default()
    }

    part! {
        /// What `reading` makes of the file.
        #[must_use]
        pub fn interpretation(&self, reading: Reading) -> &Interpretation {
            self.interpretations[reading.index()].get_or_init(|| match (reading, self.rfc9309_cut()) {
                // The lines of the bytes read, numbered and placed as in the whole file: the
                // interpretation's spans and line numbers hold for it.
                (Reading::Rfc9309, Some(limit)) => {
                    let read = &self.source[..limit];
                    interpret(read, &lex::lex(read), reading)
                }
                _ => interpret(&self.source, &self.lines, reading),
            })
        }
    }

    part! {
        /// A rule's pattern, normalised for `reading` (the reading whose interpretation the
        /// rule comes from) to meet paths as crawlers request them: percent-encoded for RFC
        /// 9309 and the 1994 standard (non-ASCII as UTF-8 `%XX`, escapes upper-cased, what a
        /// URL parser encodes encoded: the form [`Request::read`](super::request::Request::read)
        /// tests paths in), percent-decoded for the 1996 draft.
        ///
        /// ```
        /// # #[cfg(feature = "parts")] {
        /// use robotscope_core::{Reading, RobotsTxt};
        /// let txt = RobotsTxt::parse("User-agent: *\nDisallow: /a<d\nDisallow: /café\n".as_bytes().to_vec());
        /// let rules = txt.interpretation(Reading::Rfc9309).groups()[0].rules();
        /// assert_eq!(txt.pattern(Reading::Rfc9309, &rules[0]), b"/a%3Cd");
        /// assert_eq!(txt.pattern(Reading::Rfc9309, &rules[1]), b"/caf%C3%A9");
        /// # }
        /// ```
        #[must_use]
        pub fn pattern(&self, reading: Reading, rule: &Rule) -> &[u8] {
            self.pattern_as(reading, rule, UrlMode::AsCrawlersSend)
        }
    }

    part! {
        /// A rule's pattern for paths read as `mode` says: [`RobotsTxt::pattern`] for paths
        /// as crawlers request them, or, for URLs taken byte for byte (`--raw-url`), as
        /// Google's library normalises a rule (non-ASCII encoded, escapes upper-cased, the
        /// rest as written).
        #[must_use]
        pub fn pattern_as(&self, reading: Reading, rule: &Rule, mode: UrlMode) -> &[u8] {
            let span = match mode {
                UrlMode::AsCrawlersSend => rule.pattern,
                UrlMode::Raw => rule.raw_pattern,
            };
            match span {
                PatternSpan::AsWritten => self.text(&rule.value()),
                PatternSpan::Normalised(span) => &self.interpretation(reading).normalised_patterns[span.range()],
            }
        }
    }

    /// The `Sitemap` URLs the file lists, in file order (RFC 9309 §2.3.5; they belong to
    /// no group), as written, with bytes that are not UTF-8 replaced.
    ///
    /// ```
    /// use robotscope_core::RobotsTxt;
    /// let txt = RobotsTxt::parse(b"Sitemap: https://example.com/a.xml\nUser-agent: *\nsitemap: /b.xml\n".to_vec());
    /// assert_eq!(txt.sitemaps().collect::<Vec<_>>(), ["https://example.com/a.xml", "/b.xml"]);
    /// ```
    pub fn sitemaps(&self) -> impl Iterator<Item = std::borrow::Cow<'_, str>> {
        let interpretation = self.interpretation(Reading::Rfc9309);
        interpretation
            .sitemaps()
            .iter()
            .map(move |&field| String::from_utf8_lossy(self.text(&interpretation.fields()[field].value())))
    }

    part! {
        /// The rule as a person would write it: `Disallow: /private/`, with the value as
        /// written (invalid UTF-8 replaced).
        #[must_use]
        pub fn rule_text(&self, rule: &Rule) -> String {
            format!("{}: {}", rule.kind.name(), String::from_utf8_lossy(self.text(&rule.value())))
        }
    }
}

/// Classifies a field name the way Google's reference does (`ParsedRobotsKey`): by
/// case-insensitive prefix, with its list of frequent typos. Extension fields, which the
/// reference passes on as unknown, are recognised by their exact names.
fn classify_rfc9309(key: &[u8]) -> (FieldKind, Spelling) {
    const PREFIXES: &[(&str, FieldKind)] = &[
        ("user-agent", FieldKind::UserAgent),
        ("useragent", FieldKind::UserAgent),
        ("user agent", FieldKind::UserAgent),
        ("allow", FieldKind::Allow),
        ("disallow", FieldKind::Disallow),
        ("dissallow", FieldKind::Disallow),
        ("dissalow", FieldKind::Disallow),
        ("disalow", FieldKind::Disallow),
        ("diasllow", FieldKind::Disallow),
        ("disallaw", FieldKind::Disallow),
        ("sitemap", FieldKind::Sitemap),
        ("site-map", FieldKind::Sitemap),
    ];
    // Every prefix starts with u, a, d or s; anything else is an extension or unknown.
    if !matches!(key.first().map(u8::to_ascii_lowercase), Some(b'u' | b'a' | b'd' | b's')) {
        return (classify_rfc9309_extension(key), Spelling::Canonical);
    }
    for &(prefix, kind) in PREFIXES {
        if key.len() >= prefix.len() && key[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes()) {
            let spelling = if key.eq_ignore_ascii_case(kind.canonical().as_bytes()) {
                Spelling::Canonical
            } else {
                Spelling::Tolerated
            };
            return (kind, spelling);
        }
    }
    (classify_rfc9309_extension(key), Spelling::Canonical)
}

/// The extensions an RFC 9309 reader knows: the usage preferences, which update RFC 9309
/// (draft-ietf-aipref-attach) or ride on it (Content-Signal), then the older ones.
fn classify_rfc9309_extension(key: &[u8]) -> FieldKind {
    if key.eq_ignore_ascii_case(b"content-usage") {
        FieldKind::ContentUsage
    } else if key.eq_ignore_ascii_case(b"content-signal") {
        FieldKind::ContentSignal
    } else {
        classify_extension(key)
    }
}

/// Classifies a field name the way the classic readings do: the exact name, in any
/// letter case. `Allow` is known to the 1996 draft only.
fn classify_classic(key: &[u8], reading: Reading) -> FieldKind {
    let is = |name: &str| key.eq_ignore_ascii_case(name.as_bytes());
    if is("user-agent") {
        FieldKind::UserAgent
    } else if is("disallow") {
        FieldKind::Disallow
    } else if is("allow") && reading.honours_allow() {
        FieldKind::Allow
    } else if is("sitemap") {
        FieldKind::Sitemap
    } else {
        classify_extension(key)
    }
}

fn classify_extension(key: &[u8]) -> FieldKind {
    const EXTENSIONS: &[(&str, FieldKind)] = &[
        ("crawl-delay", FieldKind::CrawlDelay),
        ("request-rate", FieldKind::RequestRate),
        ("visit-time", FieldKind::VisitTime),
        ("host", FieldKind::Host),
        ("clean-param", FieldKind::CleanParam),
    ];
    EXTENSIONS
        .iter()
        .find(|(name, _)| key.eq_ignore_ascii_case(name.as_bytes()))
        .map_or(FieldKind::Unknown, |&(_, kind)| kind)
}

/// Google's `ExtractUserAgent`: the leading run of ASCII letters, `_` and `-`.
#[must_use]
pub fn product_token(value: &[u8]) -> &[u8] {
    let end = value.iter().position(|&b| !(b.is_ascii_alphabetic() || b == b'_' || b == b'-')).unwrap_or(value.len());
    &value[..end]
}

fn agent_name(value: &[u8], reading: Reading) -> AgentName {
    if reading.is_classic() {
        if value == b"*" { AgentName::Star } else { AgentName::Name(String::from_utf8_lossy(value).to_lowercase()) }
    } else if value.first() == Some(&b'*') && value.get(1).is_none_or(|&b| lex::is_c_space(b)) {
        // Google: "a '*' followed by space and more characters ... is still regarded a
        // global rule".
        AgentName::Star
    } else {
        AgentName::Name(String::from_utf8_lossy(product_token(value)).to_ascii_lowercase())
    }
}

/// Builds one reading's view of the file.
fn interpret(source: &[u8], lines: &[Line], reading: Reading) -> Interpretation {
    let out = Interpretation { fields: Vec::with_capacity(lines.len()), ..Interpretation::default() };
    let mut builder = Builder { source, reading, out, current: None };
    for line in lines {
        if reading.blank_line_ends_record() && lex::is_blank(source, line) {
            builder.close_group();
            continue;
        }
        let split =
            if reading.is_classic() { lex::split_classic(source, line) } else { lex::split_rfc9309(source, line) };
        if let Some(split) = split {
            builder.field(line.number(), &split);
        }
    }
    builder.close_group();
    builder.out.fields.shrink_to_fit();
    builder.out
}

/// The group being built and whether it has seen a rule yet.
struct OpenGroup {
    group: Group,
    has_rules: bool,
}

struct Builder<'a> {
    source: &'a [u8],
    reading: Reading,
    out: Interpretation,
    current: Option<OpenGroup>,
}

impl Builder<'_> {
    fn field(&mut self, line: usize, split: &FieldSplit) {
        let key = &self.source[split.key.clone()];
        let (kind, spelling) = if self.reading.is_classic() {
            (classify_classic(key, self.reading), Spelling::Canonical)
        } else {
            classify_rfc9309(key)
        };
        let index = self.out.fields.len();
        let value = split.value.clone();
        self.out.fields.push(Field {
            line: line as u32,
            kind,
            spelling,
            separator: split.separator,
            key: Span::of(&split.key),
            value: Span::of(&value),
        });
        match kind {
            FieldKind::UserAgent => self.user_agent(line, value),
            FieldKind::Allow => self.rule(index, line, RuleKind::Allow, value),
            FieldKind::Disallow => self.rule(index, line, RuleKind::Disallow, value),
            FieldKind::Sitemap => self.out.sitemaps.push(index),
            FieldKind::Unknown => self.out.unknown.push(index),
            kind if kind.is_group_extension() => match &mut self.current {
                Some(open) => {
                    open.group.extensions.push(index);
                    open.group.last_line = line as u32;
                }
                None => self.out.loose_extensions.push(index),
            },
            _ => self.out.loose_extensions.push(index),
        }
    }

    fn user_agent(&mut self, line: usize, value: Range<usize>) {
        // A User-agent line after rules starts a new group (RFC 9309 §2.1; urllib does
        // the same for the classic readings when no blank line separates records).
        if self.current.as_ref().is_some_and(|open| open.has_rules) {
            self.close_group();
        }
        let name = agent_name(&self.source[value.clone()], self.reading);
        let open = self.current.get_or_insert_with(|| OpenGroup { group: Group::default(), has_rules: false });
        open.group.agents.push(AgentLine { line: line as u32, value: Span::of(&value), name });
        open.group.last_line = line as u32;
    }

    fn rule(&mut self, field: usize, line: usize, kind: RuleKind, value: Range<usize>) {
        if self.current.is_none() {
            self.out.orphan_rules.push(field);
            return;
        }
        let raw = &self.source[value.clone()];
        // A path a user gives is tested in the form crawlers request it (see `request`:
        // non-ASCII as UTF-8 `%XX`, escapes upper-cased, what a URL parser encodes
        // encoded), so a rule is put in the same form before the reading compares them:
        // RFC 9309 §2.2.2 asks for both sides to be compared percent-encoded, and the 1994
        // standard's byte prefix is then a prefix of what a robot requests. A URL taken
        // byte for byte (`--raw-url`) meets the rule as Google's library normalises it.
        // The 1996 draft decodes both sides instead (after what a parser drops or
        // encodes, as the path went through it).
        let (normalised, raw_normalised) = match self.reading {
            Reading::Rfc9309 | Reading::Koster1994 => (normalise_as_requested(raw), normalise_rfc9309(raw)),
            Reading::Draft1996 => {
                let as_requested = match normalise_as_requested(raw) {
                    Cow::Borrowed(_) => decode_draft1996(raw),
                    Cow::Owned(bytes) => Cow::Owned(decode_draft1996(&bytes).into_owned()),
                };
                (as_requested, decode_draft1996(raw))
            }
        };
        let same = raw_normalised == normalised;
        let pattern = self.store(normalised);
        let raw_pattern = if same { pattern } else { self.store(raw_normalised) };
        let Some(open) = &mut self.current else { return };
        open.group.rules.push(Rule { line: line as u32, kind, value: Span::of(&value), pattern, raw_pattern });
        open.group.last_line = line as u32;
        open.has_rules = true;
    }

    /// Where a normalised pattern is kept: the value itself when normalising changed
    /// nothing, else the interpretation's store.
    fn store(&mut self, normalised: Cow<'_, [u8]>) -> PatternSpan {
        match normalised {
            Cow::Borrowed(_) => PatternSpan::AsWritten,
            Cow::Owned(bytes) => {
                let start = self.out.normalised_patterns.len();
                self.out.normalised_patterns.extend_from_slice(&bytes);
                // At most three bytes per byte of a source of at most 1 GiB: the offsets
                // fit in 32 bits.
                PatternSpan::Normalised(Span::of(&(start..self.out.normalised_patterns.len())))
            }
        }
    }

    fn close_group(&mut self) {
        if let Some(mut open) = self.current.take() {
            // A group of 47,000 rules would otherwise keep up to as many again in slack.
            open.group.rules.shrink_to_fit();
            open.group.agents.shrink_to_fit();
            self.out.groups.push(open.group);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn groups(text: &str, reading: Reading) -> Vec<(Vec<AgentName>, Vec<usize>)> {
        let txt = RobotsTxt::parse(text.as_bytes().to_vec());
        txt.interpretation(reading)
            .groups
            .iter()
            .map(|g| (g.agents.iter().map(|a| a.name.clone()).collect(), g.rules.iter().map(Rule::line).collect()))
            .collect()
    }

    fn name(s: &str) -> AgentName {
        AgentName::Name(s.into())
    }

    #[test]
    fn rfc9309_joins_user_agents_across_blank_lines() {
        let text = "User-agent: webcrawler\n\nUser-agent: lycra\nDisallow: /\n";
        assert_eq!(groups(text, Reading::Rfc9309), vec![(vec![name("webcrawler"), name("lycra")], vec![4])]);
        assert_eq!(
            groups(text, Reading::Koster1994),
            vec![(vec![name("webcrawler")], vec![]), (vec![name("lycra")], vec![4])]
        );
    }

    #[test]
    fn extension_lines_do_not_close_a_group() {
        let text = "User-agent: A\nCrawl-delay: 10\nUser-agent: *\nDisallow: /\n";
        assert_eq!(groups(text, Reading::Rfc9309), vec![(vec![name("a"), AgentName::Star], vec![4])]);
    }

    #[test]
    fn typos_are_rules_only_to_google() {
        let text = "User-agent: *\nDissallow: /tmp/\n";
        assert_eq!(groups(text, Reading::Rfc9309)[0].1, vec![2]);
        assert_eq!(groups(text, Reading::Draft1996)[0].1, Vec::<usize>::new());
    }

    #[test]
    fn allow_is_unknown_to_1994_robots() {
        let text = "User-agent: *\nAllow: /a\nDisallow: /\n";
        assert_eq!(groups(text, Reading::Draft1996)[0].1, vec![2, 3]);
        assert_eq!(groups(text, Reading::Koster1994)[0].1, vec![3]);
    }

    #[test]
    fn agent_names_per_reading() {
        assert_eq!(agent_name(b"Googlebot/2.1", Reading::Rfc9309), name("googlebot"));
        assert_eq!(agent_name(b"* Rex", Reading::Rfc9309), AgentName::Star);
        assert_eq!(agent_name(b"* Rex", Reading::Draft1996), name("* rex"));
        assert_eq!(agent_name(b"Acme2Bot", Reading::Rfc9309), name("acme"));
    }

    #[test]
    fn patterns_are_normalised_per_reading() {
        let txt = RobotsTxt::parse("User-agent: *\nDisallow: /caf%c3%a9é\n".as_bytes().to_vec());
        let pattern = |reading| {
            let interpretation = txt.interpretation(reading);
            txt.pattern(reading, &interpretation.groups[0].rules[0]).to_vec()
        };
        assert_eq!(pattern(Reading::Rfc9309), b"/caf%C3%A9%C3%A9");
        assert_eq!(pattern(Reading::Draft1996), "/caféé".as_bytes());
        assert_eq!(pattern(Reading::Koster1994), b"/caf%C3%A9%C3%A9");
    }
}
