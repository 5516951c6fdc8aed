//! A page's own word to robots, beside robots.txt: the robots META tags in its HTML
//! and its `X-Robots-Tag` headers, read per robot and joined with the robots.txt
//! verdict into "may it crawl the page, and if so, may it index it and follow its
//! links, and who says so".
//!
//! The HTML goes through html5ever, the parser browsers' rules are written for, so a
//! `<meta>` inside a script, a comment or a `<template>` is not taken for a tag, and the
//! line of each tag is the parser's own. Terms follow the 1996 META guidance (ALL, NONE,
//! INDEX, NOINDEX, FOLLOW, NOFOLLOW, case-insensitive, comma-separated) and today's
//! search engines' additions (noarchive, nosnippet, max-snippet, `unavailable_after`, ...).
//!
//! Pure: the fetch happens in `fetch`; this reads bytes and header values.

use std::cell::{Cell, RefCell};
use std::fmt;
use std::rc::Rc;
use std::sync::Arc;

use html5ever::interface::{ElemName, ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::tendril::{StrTendril, TendrilSink};
use html5ever::{Attribute, LocalName, Namespace, QualName, local_name, ns};

use url::Url;

use super::agent::Robot;
use super::availability::Availability;
use super::content::{self, Content};
use super::parse::RobotsTxt;
use super::reading::Reading;
use super::request::{Request, UrlMode};
use super::usage::{Usage, UsageAnswer, page_usage, usage_answer};
use super::verdict::{Verdict, evaluate_fetched_as};

/// One directive: `noindex`, or `max-snippet:50`. Names are lower-cased.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Term {
    /// The directive's name, lower-cased.
    pub name: String,
    /// Its value, for the directives that take one (`max-snippet:50`).
    pub value: Option<String>,
}

/// The directives that take a value after a colon.
const VALUED: [&str; 4] = ["max-snippet", "max-image-preview", "max-video-preview", "unavailable_after"];

/// Every directive robotscope can explain, with what it asks.
const KNOWN: [&str; 20] = [
    "all",
    "none",
    "index",
    "noindex",
    "follow",
    "nofollow",
    "noarchive",
    "nocache",
    "nosnippet",
    "max-snippet",
    "max-image-preview",
    "max-video-preview",
    "notranslate",
    "noimageindex",
    "unavailable_after",
    "indexifembedded",
    "noodp",
    "noydir",
    "noai",
    "noimageai",
];

impl Term {
    fn parse(piece: &str) -> Term {
        let piece = piece.trim();
        if let Some((name, value)) = piece.split_once(':')
            && VALUED.iter().any(|v| v.eq_ignore_ascii_case(name.trim()))
        {
            return Term { name: name.trim().to_ascii_lowercase(), value: Some(value.trim().to_owned()) };
        }
        Term { name: piece.to_ascii_lowercase(), value: None }
    }

    /// True for a directive robotscope knows.
    #[must_use]
    pub fn is_known(&self) -> bool {
        KNOWN.contains(&self.name.as_str())
    }

    /// True for the terms that answer index or follow (all, none, index, noindex,
    /// follow, nofollow); the others refine how a page shows in results.
    #[must_use]
    pub fn is_index_or_follow(&self) -> bool {
        self.effect() != (None, None)
    }

    /// What the directive asks for (index, follow): `Some(false)` forbids.
    fn effect(&self) -> (Option<bool>, Option<bool>) {
        match self.name.as_str() {
            "all" => (Some(true), Some(true)),
            "none" => (Some(false), Some(false)),
            "index" => (Some(true), None),
            "noindex" => (Some(false), None),
            "follow" => (None, Some(true)),
            "nofollow" => (None, Some(false)),
            _ => (None, None),
        }
    }

    /// What the directive asks of a robot, in words.
    #[must_use]
    pub fn meaning(&self) -> String {
        let value = self.value.as_deref().unwrap_or("?");
        match self.name.as_str() {
            "all" => "no restriction: index the page and follow its links (= index, follow), the default".to_owned(),
            "none" => "= noindex, nofollow".to_owned(),
            "index" => "may index the page (the default)".to_owned(),
            "noindex" => "keep the page out of search results".to_owned(),
            "follow" => "may follow the page's links (the default)".to_owned(),
            "nofollow" => "do not follow the page's links".to_owned(),
            "noarchive" => "show no cached copy of the page".to_owned(),
            "nocache" => "Bing's word for noarchive: show no cached copy".to_owned(),
            "nosnippet" => "show no text snippet or video preview in results".to_owned(),
            "max-snippet" => format!("a text snippet of at most {value} characters (0: none, -1: no limit)"),
            "max-image-preview" => format!("image previews at most {value} (none, standard or large)"),
            "max-video-preview" => format!("video previews of at most {value} seconds (0: a still, -1: no limit)"),
            "notranslate" => "offer no translation of the page in results".to_owned(),
            "noimageindex" => "do not index the images on the page".to_owned(),
            "unavailable_after" => format!("drop the page from results after {value}"),
            "indexifembedded" => "with noindex: may still index the page where another embeds it".to_owned(),
            "noodp" => "obsolete: kept Open Directory (DMOZ) titles out of results; no robot reads it".to_owned(),
            "noydir" => "obsolete: kept Yahoo! Directory titles out of results; no robot reads it".to_owned(),
            "noai" | "noimageai" => {
                "a non-standard request not to train AI on the page; few robots honour it".to_owned()
            }
            _ if self.name.split([' ', ';']).filter(|w| !w.is_empty()).count() > 1
                && self.name.split([' ', ';']).filter(|w| !w.is_empty()).all(|w| KNOWN.contains(&w)) =>
            {
                "several terms without commas between them: robots read commas only, so none of them counts".to_owned()
            }
            _ => "not a term robots know: ignored".to_owned(),
        }
    }
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.value {
            Some(value) => write!(f, "{}:{value}", self.name),
            None => f.write_str(&self.name),
        }
    }
}

/// Splits a comma list into terms.
fn parse_terms(list: &str) -> Vec<Term> {
    let mut terms: Vec<Term> = Vec::new();
    for piece in list.split(',') {
        if !continues_date(terms.last_mut(), piece) && !piece.trim().is_empty() {
            terms.push(Term::parse(piece));
        }
    }
    terms
}

/// A date after `unavailable_after` may hold a comma (`Sunday, 01-Sep-24 15:00:00 GMT`,
/// RFC 850): when the last term is such a date with no digit yet, `piece` is the rest
/// of it and is joined on. True when it was.
fn continues_date(last: Option<&mut Term>, piece: &str) -> bool {
    let Some(term) = last else { return false };
    match &mut term.value {
        Some(date) if term.name == "unavailable_after" && !date.contains(|c: char| c.is_ascii_digit()) => {
            date.push_str(", ");
            date.push_str(piece.trim());
            true
        }
        _ => false,
    }
}

/// A `<meta name=... content=...>` tag of the page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MetaTag {
    /// The line it is on, from 1.
    pub line: usize,
    /// The `name` attribute, as written.
    pub name: String,
    /// The `content` attribute, as written.
    pub content: String,
    /// The content's terms.
    pub terms: Vec<Term>,
}

impl MetaTag {
    /// True for a tag that speaks to robots: `name="robots"`, or a name with a known
    /// directive in its content (`name="googlebot" content="noindex"`).
    #[must_use]
    pub fn speaks_to_robots(&self) -> bool {
        self.name.eq_ignore_ascii_case("robots") || self.terms.iter().any(Term::is_known)
    }

    /// The tag, rebuilt for display.
    #[must_use]
    pub fn markup(&self) -> String {
        format!("<meta name=\"{}\" content=\"{}\">", self.name, self.content)
    }
}

/// One `X-Robots-Tag` header: its value and, for each term, the robot it names (none:
/// every robot).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RobotsHeader {
    /// The header's value, shared by every term read from it.
    pub value: Arc<str>,
    /// The distinct terms, each with the product token it is addressed to, in order
    /// of first appearance.
    pub terms: Vec<(Option<String>, Term)>,
    /// How many distinct terms past [`MAX_TERMS_PER_HEADER`] were not read.
    pub ignored: usize,
}

/// The distinct terms read from one `X-Robots-Tag` header. Real headers hold a handful;
/// a hostile one of 100 KB of distinct terms would otherwise cost time and output in
/// proportion to the terms times the header's length (each term names its source).
pub const MAX_TERMS_PER_HEADER: usize = 64;

impl RobotsHeader {
    /// Reads a header value: `noindex, nofollow`, `googlebot: noindex`, or several
    /// robots in one value (`googlebot: nofollow, otherbot: noindex, nofollow`, as
    /// Google documents it). A name before a colon that is not a valued directive
    /// names the robot for the terms after it.
    #[must_use]
    pub fn parse(value: &str) -> RobotsHeader {
        let mut agent: Option<String> = None;
        let mut terms: Vec<(Option<String>, Term)> = Vec::new();
        let mut ignored = 0;
        // A repeated term says nothing new (`noindex, noindex`): it is read once.
        let mut seen = foldhash::HashSet::default();
        let mut keep = |terms: &mut Vec<(Option<String>, Term)>, entry: (Option<String>, Term)| {
            if !seen.insert(entry.clone()) {
                return;
            }
            if terms.len() < MAX_TERMS_PER_HEADER {
                terms.push(entry);
            } else {
                ignored += 1;
            }
        };
        for piece in value.split(',') {
            let mut piece = piece.trim();
            if let Some((name, rest)) = piece.split_once(':')
                && !VALUED.iter().any(|v| v.eq_ignore_ascii_case(name.trim()))
                && !name.trim().is_empty()
                && !name.trim().contains(' ')
            {
                agent = Some(name.trim().to_owned());
                piece = rest;
            }
            if !continues_date(terms.last_mut().map(|(_, term)| term), piece) && !piece.trim().is_empty() {
                keep(&mut terms, (agent.clone(), Term::parse(piece)));
            }
        }
        RobotsHeader { value: value.into(), terms, ignored }
    }
}

/// Everything a page says to robots.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PageSignals {
    /// The HTTP status.
    pub status: u16,
    /// True when the body was read as HTML.
    pub html: bool,
    /// Its `<meta name content>` tags, in order (all of them; see
    /// [`MetaTag::speaks_to_robots`]).
    pub meta: Vec<MetaTag>,
    /// Its `X-Robots-Tag` headers, in order.
    pub headers: Vec<RobotsHeader>,
    /// True when the HTML nested elements deeper than [`MAX_ELEMENT_DEPTH`] and reading
    /// stopped there.
    pub too_deep: bool,
    /// Its `Content-Usage` headers (AI usage preferences, draft-ietf-aipref-attach),
    /// joined into one field value as RFC 9110 §5.3 joins repeated fields; `None`
    /// without one.
    pub content_usage: Option<String>,
}

impl PageSignals {
    /// Reads a response: the status, the headers (names in any case) and the body,
    /// which is read as HTML when the Content-Type says HTML or, without one, when it
    /// looks like HTML. A PDF or an image speaks only through its headers.
    #[must_use]
    pub fn read(status: u16, headers: &[(String, String)], body: &[u8]) -> PageSignals {
        let header = |name: &'static str| {
            headers.iter().filter(move |(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
        };
        let content_type = header("content-type").next();
        let html = match content_type {
            Some(content_type) => content_type.to_ascii_lowercase().contains("html"),
            None => content::sniff(body) == Content::Html,
        };
        let (meta, too_deep) = if html { read_meta_tags(body, content_type) } else { (Vec::new(), false) };
        let content_usage: Vec<&str> = header("content-usage").collect();
        PageSignals {
            status,
            html,
            meta,
            headers: header("x-robots-tag").map(RobotsHeader::parse).collect(),
            too_deep,
            content_usage: (!content_usage.is_empty()).then(|| content_usage.join(", ")),
        }
    }
}

/// The `<meta name=... content=...>` tags of an HTML document, with their lines, as a
/// browser's parser finds them. Never fails: html5ever recovers from any input.
///
/// The bytes are decoded as a browser would before parsing: a byte order mark decides,
/// then the `charset` of the Content-Type, then UTF-8 (with U+FFFD for what is not).
/// Robots' tags are ASCII, so any ASCII-compatible encoding would find them; a UTF-16
/// page needs the decoding.
///
/// # Examples
///
/// ```
/// use robotscope::policy::meta_tags;
/// let html = b"<html><head>\n<script>x = '<meta name=robots content=noindex>'</script>\n<META NAME=\"Robots\" CONTENT=\"NOINDEX, follow\">";
/// let tags = meta_tags(html, Some("text/html"));
/// assert_eq!(tags.len(), 1);
/// assert_eq!((tags[0].line, tags[0].terms[0].name.as_str()), (3, "noindex"));
/// ```
#[must_use]
pub fn meta_tags(html: &[u8], content_type: Option<&str>) -> Vec<MetaTag> {
    read_meta_tags(html, content_type).0
}

/// Elements nested deeper than this end the reading of a page: robots' META tags sit in
/// its head, browsers stop nesting at a depth of 512, and an HTML parser's work per
/// element grows with the depth (a page of a million nested `<div>` would otherwise take
/// a minute).
pub const MAX_ELEMENT_DEPTH: usize = 1024;

/// The parser is fed this many bytes at a time, the depth checked between pieces.
const PARSE_PIECE_BYTES: usize = 4096;

/// [`meta_tags`], and whether the reading stopped at [`MAX_ELEMENT_DEPTH`].
#[must_use]
pub fn read_meta_tags(html: &[u8], content_type: Option<&str>) -> (Vec<MetaTag>, bool) {
    let declared = content_type.and_then(charset).and_then(|label| encoding_rs::Encoding::for_label(label.as_bytes()));
    // `decode` lets a byte order mark override the declared encoding, as browsers do.
    let (text, _, _) = declared.unwrap_or(encoding_rs::UTF_8).decode(html);
    let mut parser = html5ever::parse_document(MetaSink::default(), html5ever::ParseOpts::default());
    let mut too_deep = false;
    let mut rest: &str = &text;
    while !rest.is_empty() {
        let mut cut = rest.len().min(PARSE_PIECE_BYTES);
        while !rest.is_char_boundary(cut) {
            cut += 1;
        }
        parser.process(StrTendril::from_slice(&rest[..cut]));
        rest = &rest[cut..];
        if parser.tokenizer.sink.sink.open.get() > MAX_ELEMENT_DEPTH {
            too_deep = true;
            break;
        }
    }
    let tags = parser
        .finish()
        .into_iter()
        .filter_map(|(line, attrs)| {
            let attr = |name: LocalName| attrs.iter().find(|a| a.name.local == name).map(|a| a.value.to_string());
            let (name, content) = (attr(local_name!("name"))?, attr(local_name!("content"))?);
            let terms = parse_terms(&content);
            Some(MetaTag { line, name: name.trim().to_owned(), content, terms })
        })
        .collect();
    (tags, too_deep)
}

/// The `charset` parameter of a Content-Type (`text/html; charset="Shift_JIS"`).
fn charset(content_type: &str) -> Option<&str> {
    content_type.split(';').skip(1).find_map(|parameter| {
        let (name, value) = parameter.split_once('=')?;
        name.trim().eq_ignore_ascii_case("charset").then(|| value.trim().trim_matches('"'))
    })
}

/// A tree sink that keeps only what `meta_tags` needs: element names (the tree builder
/// asks for them) and the `<meta>` elements with the line each was created on. Nodes
/// inside a `<template>` are inert, as in a browser, and their metas are dropped.
#[derive(Default)]
struct MetaSink {
    /// Each node's name (`None` for the document, comments and the like; shared, so
    /// that the tree builder's many questions about names cost no copy) and whether it
    /// is inert.
    nodes: RefCell<Vec<(Option<Rc<QualName>>, bool)>>,
    /// `<meta>` elements: node, line, attributes.
    metas: RefCell<Vec<(usize, usize, Vec<Attribute>)>>,
    line: Cell<u64>,
    /// Elements created and not yet popped off the stack of open elements: the depth.
    open: Cell<usize>,
}

impl MetaSink {
    fn add(&self, name: Option<Rc<QualName>>, inert: bool) -> usize {
        let mut nodes = self.nodes.borrow_mut();
        if nodes.is_empty() {
            // Node 0 is the document.
            nodes.push((None, false));
        }
        nodes.push((name, inert));
        nodes.len() - 1
    }

    fn inherit(&self, parent: usize, child: &NodeOrText<usize>) {
        if let NodeOrText::AppendNode(child) = child {
            let mut nodes = self.nodes.borrow_mut();
            let inert = nodes.get(parent).is_some_and(|n| n.1);
            if let Some(node) = nodes.get_mut(*child) {
                node.1 |= inert;
            }
        }
    }
}

/// An element's name, shared (the sink's nodes sit behind a `RefCell`).
#[derive(Debug)]
struct SharedName(Rc<QualName>);

impl ElemName for SharedName {
    fn ns(&self) -> &Namespace {
        &self.0.ns
    }

    fn local_name(&self) -> &LocalName {
        &self.0.local
    }
}

impl TreeSink for MetaSink {
    type Handle = usize;
    type Output = Vec<(usize, Vec<Attribute>)>;
    type ElemName<'a> = SharedName;

    fn finish(self) -> Self::Output {
        let nodes = self.nodes.into_inner();
        self.metas
            .into_inner()
            .into_iter()
            .filter(|(node, _, _)| !nodes.get(*node).is_some_and(|n| n.1))
            .map(|(_, line, attrs)| (line, attrs))
            .collect()
    }

    fn parse_error(&self, _message: std::borrow::Cow<'static, str>) {}

    fn get_document(&self) -> usize {
        0
    }

    fn elem_name<'a>(&'a self, target: &'a usize) -> SharedName {
        let nodes = self.nodes.borrow();
        let name = nodes.get(*target).and_then(|n| n.0.clone());
        SharedName(name.unwrap_or_else(|| Rc::new(QualName::new(None, ns!(html), local_name!("")))))
    }

    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, _flags: ElementFlags) -> usize {
        let is_meta = name.ns == ns!(html) && name.local == local_name!("meta");
        self.open.set(self.open.get() + 1);
        let node = self.add(Some(Rc::new(name)), false);
        if is_meta {
            // The tree builder reports a line only when it changes from 1.
            let line = usize::try_from(self.line.get().max(1)).unwrap_or(usize::MAX);
            self.metas.borrow_mut().push((node, line, attrs));
        }
        node
    }

    fn create_comment(&self, _text: StrTendril) -> usize {
        self.add(None, false)
    }

    fn create_pi(&self, _target: StrTendril, _data: StrTendril) -> usize {
        self.add(None, false)
    }

    fn append(&self, parent: &usize, child: NodeOrText<usize>) {
        self.inherit(*parent, &child);
    }

    fn append_based_on_parent_node(&self, element: &usize, _prev: &usize, child: NodeOrText<usize>) {
        self.inherit(*element, &child);
    }

    fn append_doctype_to_document(&self, _name: StrTendril, _public: StrTendril, _system: StrTendril) {}

    fn get_template_contents(&self, _target: &usize) -> usize {
        self.add(None, true)
    }

    fn same_node(&self, x: &usize, y: &usize) -> bool {
        x == y
    }

    fn set_quirks_mode(&self, _mode: QuirksMode) {}

    fn append_before_sibling(&self, _sibling: &usize, _new_node: NodeOrText<usize>) {}

    fn add_attrs_if_missing(&self, _target: &usize, _attrs: Vec<Attribute>) {}

    fn remove_from_parent(&self, _target: &usize) {}

    fn reparent_children(&self, _node: &usize, _new_parent: &usize) {}

    fn set_current_line(&self, line: u64) {
        self.line.set(line);
    }

    fn pop(&self, _node: &usize) {
        self.open.set(self.open.get().saturating_sub(1));
    }
}

/// Where a term came from.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TermSource {
    /// A META tag.
    Meta {
        /// Its line in the page.
        line: usize,
        /// Its `name` (`robots`, `googlebot`).
        name: String,
    },
    /// An `X-Robots-Tag` header.
    Header {
        /// The header's value, whole (shared with the header and its other terms).
        value: Arc<str>,
        /// The robot it names, if any.
        agent: Option<String>,
    },
}

impl fmt::Display for TermSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TermSource::Meta { line, name } => write!(f, "META name=\"{name}\" on line {line}"),
            // A term names its header; a header of 100 KB is shown once (`page` prints
            // each header whole), not once per term.
            TermSource::Header { value, .. } => match value.char_indices().nth(SOURCE_EXCERPT_CHARS) {
                Some((cut, _)) => write!(f, "X-Robots-Tag: {}…", &value[..cut]),
                None => write!(f, "X-Robots-Tag: {value}"),
            },
        }
    }
}

/// How much of a header a term's source shows.
const SOURCE_EXCERPT_CHARS: usize = 60;

/// A term that applies to a robot, and where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppliedTerm {
    /// The term.
    pub term: Term,
    /// Its source.
    pub source: TermSource,
}

/// How a robot settles a page that contradicts itself (`index, noindex`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Contradictions {
    /// Today's search engines (Google, Bing) document that the most restrictive term
    /// applies.
    MostRestrictive,
    /// The 1996 META guidance leaves it to the robot; robotscope shows the default
    /// (INDEX, FOLLOW) and flags the conflict.
    RobotDecides,
}

impl Contradictions {
    /// The rule that goes with a reading: robots of RFC 9309's day apply the most
    /// restrictive term, robots of the classic readings' day decide for themselves.
    #[must_use]
    pub fn of(reading: Reading) -> Contradictions {
        match reading {
            Reading::Rfc9309 => Contradictions::MostRestrictive,
            Reading::Draft1996 | Reading::Koster1994 => Contradictions::RobotDecides,
        }
    }
}

/// Why an answer is what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Because {
    /// Nothing on the page says otherwise: the default.
    Default,
    /// These terms decide.
    Terms(Vec<AppliedTerm>),
    /// The page answered this status: there is nothing to index.
    Status(u16),
}

impl Because {
    /// The reason, in words: `noindex from META name="robots" on line 4`.
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            Because::Default => "the default: nothing on the page says otherwise".to_owned(),
            Because::Terms(terms) => {
                terms.iter().map(|t| format!("{} from {}", t.term, t.source)).collect::<Vec<_>>().join("; ")
            }
            Because::Status(status) => format!("the page answered HTTP {status}"),
        }
    }
}

/// Index or follow, for one robot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// Whether it may.
    pub allowed: bool,
    /// Why.
    pub because: Because,
}

/// The page's policy for one robot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PagePolicy {
    /// Whether robots.txt lets it fetch the page.
    pub crawl: bool,
    /// Whether it may index the page; `None` when it may not fetch it.
    pub index: Option<Answer>,
    /// Whether it may follow the page's links; `None` when it may not fetch it.
    pub follow: Option<Answer>,
    /// The terms addressed to this robot (seen only if it may crawl), in page order:
    /// META tags, then headers.
    pub terms: Vec<AppliedTerm>,
    /// Contradictions among them, and how they were settled.
    pub conflicts: Vec<String>,
    /// What a user needs to know beside the answers.
    pub notes: Vec<String>,
}

/// True when a META name or header agent addresses `robot`: `robots` addresses every
/// robot; another name addresses the robot with that product token, or one whose
/// robots.txt fallback chain holds it (Googlebot-Image obeys `googlebot`), compared
/// case-insensitively.
fn addresses(name: &str, robot: &Robot) -> bool {
    name.eq_ignore_ascii_case("robots")
        || name.eq_ignore_ascii_case(robot.token())
        || robot.fallbacks().iter().any(|token| token.eq_ignore_ascii_case(name))
}

/// The terms of the page addressed to `robot`.
#[must_use]
pub fn terms_for(signals: &PageSignals, robot: &Robot) -> Vec<AppliedTerm> {
    let from_meta = signals.meta.iter().filter(|tag| addresses(&tag.name, robot)).flat_map(|tag| {
        tag.terms.iter().map(|term| AppliedTerm {
            term: term.clone(),
            source: TermSource::Meta { line: tag.line, name: tag.name.clone() },
        })
    });
    let from_headers = signals.headers.iter().flat_map(|header| {
        header.terms.iter().filter(|(agent, _)| agent.as_deref().is_none_or(|a| addresses(a, robot))).map(
            |(agent, term)| AppliedTerm {
                term: term.clone(),
                source: TermSource::Header { value: Arc::clone(&header.value), agent: agent.clone() },
            },
        )
    });
    from_meta.chain(from_headers).collect()
}

/// Settles one question (index or follow) from the terms' votes.
fn settle(
    terms: &[AppliedTerm],
    vote: fn(&Term) -> Option<bool>,
    contradictions: Contradictions,
    what: &str,
    conflicts: &mut Vec<String>,
) -> Answer {
    let (yes, no): (Vec<&AppliedTerm>, Vec<&AppliedTerm>) =
        terms.iter().filter(|t| vote(&t.term).is_some()).partition(|t| vote(&t.term) == Some(true));
    let owned = |list: &[&AppliedTerm]| list.iter().map(|&t| t.clone()).collect::<Vec<_>>();
    match (yes.is_empty(), no.is_empty()) {
        (true, true) => Answer { allowed: true, because: Because::Default },
        (false, true) => Answer { allowed: true, because: Because::Terms(owned(&yes)) },
        (true, false) => Answer { allowed: false, because: Because::Terms(owned(&no)) },
        (false, false) => {
            let list = |l: &[&AppliedTerm]| l.iter().map(|t| format!("{} ({})", t.term, t.source)).collect::<Vec<_>>();
            let said = format!("the page says both {} and {}", list(&yes).join(", "), list(&no).join(", "));
            let (allowed, winners) = match contradictions {
                Contradictions::MostRestrictive => {
                    conflicts.push(format!("{what}: {said}; this robot applies the most restrictive"));
                    (false, no)
                }
                Contradictions::RobotDecides => {
                    conflicts.push(format!(
                        "{what}: {said}; the 1996 META guidance leaves it to the robot, shown as the default"
                    ));
                    (true, yes)
                }
            };
            Answer { allowed, because: Because::Terms(owned(&winners)) }
        }
    }
}

/// The page's policy for `robot`, given whether robots.txt lets it fetch the page.
///
/// # Examples
///
/// ```
/// use robotscope::policy::{page_policy, Contradictions, PageSignals};
/// use robotscope::policy::Robot;
/// let headers = [("content-type".to_owned(), "text/html".to_owned())];
/// let page = PageSignals::read(200, &headers, b"<meta name=robots content='noindex'>");
/// let policy = page_policy(&page, &Robot::from_agent("Googlebot"), Contradictions::MostRestrictive, true);
/// assert_eq!(policy.index.map(|a| a.allowed), Some(false));
/// assert_eq!(policy.follow.map(|a| a.allowed), Some(true));
/// ```
#[must_use]
pub fn page_policy(signals: &PageSignals, robot: &Robot, contradictions: Contradictions, crawl: bool) -> PagePolicy {
    let terms = terms_for(signals, robot);
    let mut conflicts = Vec::new();
    let mut notes = Vec::new();
    if !crawl {
        let noindex: Vec<String> = terms
            .iter()
            .filter(|t| t.term.effect().0 == Some(false))
            .map(|t| format!("{} ({})", t.term, t.source))
            .collect();
        notes.push(if noindex.is_empty() {
            "robots.txt keeps this robot from fetching the page, so it reads neither its META tags nor its \
             headers; the URL can still be listed, without its content, from links to it"
                .to_owned()
        } else {
            format!(
                "robots.txt keeps this robot from fetching the page, so it never sees {}: the URL can still be \
                 indexed, without its content, from links to it. To keep the page out of results, allow \
                 crawling and keep the noindex",
                noindex.join(", ")
            )
        });
        return PagePolicy { crawl, index: None, follow: None, terms, conflicts, notes };
    }
    if !(200..300).contains(&signals.status) {
        let answer = Answer { allowed: false, because: Because::Status(signals.status) };
        return PagePolicy { crawl, index: Some(answer.clone()), follow: Some(answer), terms, conflicts, notes };
    }
    for header in signals.headers.iter().filter(|header| header.ignored > 0) {
        notes.push(format!(
            "an X-Robots-Tag header holds more than {MAX_TERMS_PER_HEADER} distinct terms: the {} after them were not \
             read",
            header.ignored
        ));
    }
    let index = settle(&terms, |t| t.effect().0, contradictions, "index", &mut conflicts);
    let follow = settle(&terms, |t| t.effect().1, contradictions, "follow", &mut conflicts);
    if terms.iter().any(|t| t.term.name == "indexifembedded") && index.allowed {
        notes.push("indexifembedded matters only with noindex, which this robot does not get".to_owned());
    }
    PagePolicy { crawl, index: Some(index), follow: Some(follow), terms, conflicts, notes }
}

// --- Crawling the page: robots.txt along the redirects ---------------------------------

/// The robots.txt that judges the URLs of one site.
#[derive(Debug, Clone, Copy)]
pub struct SiteRobots<'a> {
    /// Where it is (`None` when no URL could be made for it).
    pub robots_url: Option<&'a Url>,
    /// The file.
    pub txt: &'a RobotsTxt,
    /// What its fetch's outcome means for its rules.
    pub availability: Availability,
}

/// What robots.txt says about fetching the page: the URL asked for, and the first URL a
/// redirect led to that the robot may not fetch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrawlVerdict {
    /// The verdict on the URL asked for, by the page's site's robots.txt.
    pub requested: Verdict,
    /// The first redirect target the robot may not fetch, with the verdict on it and the
    /// robots.txt that gave it.
    pub blocked_redirect: Option<BlockedRedirect>,
}

/// A redirect target that robots.txt keeps a robot from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockedRedirect {
    /// The URL the redirect led to.
    pub url: Url,
    /// The robots.txt that decided.
    pub robots_url: Url,
    /// Its verdict.
    pub verdict: Verdict,
}

impl CrawlVerdict {
    /// Whether the robot may fetch the page, redirects included.
    #[must_use]
    pub fn allowed(&self) -> bool {
        self.requested.allowed() && self.blocked_redirect.is_none()
    }

    /// Why the robot may fetch the page or not, in one sentence: the verdict on the URL
    /// asked for, or on the redirect that keeps it out.
    #[must_use]
    pub fn explanation(&self) -> String {
        match &self.blocked_redirect {
            Some(blocked) if self.requested.allowed() => format!(
                "The page redirects to {}, and {} says: {}",
                blocked.url,
                blocked.robots_url,
                blocked.verdict.explanation()
            ),
            _ => self.requested.explanation().to_owned(),
        }
    }
}

/// One robot's answers for a page: crawl (robots.txt), then index and follow (the page),
/// and what it may do with the page (usage preferences).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageAnswer {
    /// What robots.txt says about fetching the page.
    pub crawl: CrawlVerdict,
    /// Crawl, index and follow, with their reasons.
    pub policy: PagePolicy,
    /// The usage preferences: robots.txt's for the page's path combined with the page's
    /// `Content-Usage` header (see [`page_usage`]); `None` when the robot may not fetch
    /// the page or nothing states any.
    pub usage: Option<Usage>,
}

/// What robots.txt says about fetching `page_url` and following its `redirects`: each
/// URL is judged by its own site's robots.txt (RFC 9309 §2.3: a robots.txt speaks for
/// the scheme, host and port it is served from), `home` for the page's site and
/// `others` for the rest; a site whose file is unknown does not block. Each URL is read
/// as `mode` says.
#[must_use]
pub fn crawl_verdict<'a>(
    robot: &Robot,
    reading: Reading,
    mode: UrlMode,
    page_url: &Url,
    redirects: &[&Url],
    home: &SiteRobots<'a>,
    others: &dyn Fn(&Url) -> Option<SiteRobots<'a>>,
) -> CrawlVerdict {
    let tested = |url: &Url| Request::new(url.as_str(), mode).into_tested().into_owned();
    let requested = evaluate_fetched_as(home.txt, home.availability, robot, &tested(page_url), reading, mode);
    let blocked_redirect = redirects.iter().find_map(|&target| {
        let site = if target.origin() == page_url.origin() { *home } else { others(target)? };
        let verdict = evaluate_fetched_as(site.txt, site.availability, robot, &tested(target), reading, mode);
        let robots_url = site.robots_url?.clone();
        (!verdict.allowed()).then(|| BlockedRedirect { url: target.clone(), robots_url, verdict })
    });
    CrawlVerdict { requested, blocked_redirect }
}

/// A robot's answers for a page: may it crawl it (`crawl`, by `home`, the page's site's
/// robots.txt, and the sites of its redirects), then index it and follow its links by
/// what the page says (`signals`, read under `reading`'s rule for contradictions), and
/// what it may do with it. A page not fetched whole (`fetched_whole` false: robotscope
/// stopped at a redirect robots.txt refused) says nothing: index and follow stay unread.
#[must_use]
pub fn page_answer(
    home: &SiteRobots<'_>,
    crawl: CrawlVerdict,
    signals: &PageSignals,
    robot: &Robot,
    reading: Reading,
    fetched_whole: bool,
) -> PageAnswer {
    let read = crawl.allowed() && fetched_whole;
    let policy = page_policy(signals, robot, Contradictions::of(reading), read);
    let from_robots_txt = if crawl.allowed() {
        usage_answer(home.txt, home.availability, &crawl.requested)
    } else {
        // A redirect robots.txt refused: the page is not fetched.
        UsageAnswer::NotFetched
    };
    let usage = page_usage(from_robots_txt, signals.content_usage.as_deref().map(str::as_bytes));
    PageAnswer { crawl, policy, usage }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn html(body: &str) -> PageSignals {
        PageSignals::read(200, &[("Content-Type".to_owned(), "text/html; charset=utf-8".to_owned())], body.as_bytes())
    }

    /// A hostile header costs in proportion to its length: repeated terms are read
    /// once, distinct ones up to a bound, and each term names its header by an excerpt.
    #[test]
    fn a_long_header_costs_in_proportion_to_its_length() {
        let repeated = "index, noindex, ".repeat(20_000);
        let distinct = (0..5_000).map(|i| format!("max-snippet:{i}")).collect::<Vec<_>>().join(", ");
        let headers = vec![("X-Robots-Tag".to_owned(), repeated.clone()), ("x-robots-tag".to_owned(), distinct)];
        let page = PageSignals::read(200, &headers, b"");
        assert_eq!(page.headers[0].terms.len(), 2, "index and noindex, once each");
        assert_eq!((page.headers[1].terms.len(), page.headers[1].ignored), (MAX_TERMS_PER_HEADER, 5_000 - 64));
        let policy = page_policy(&page, &Robot::from_agent("Googlebot"), Contradictions::MostRestrictive, true);
        assert_eq!(policy.index.map(|a| a.allowed), Some(false));
        assert!(policy.notes.iter().any(|note| note.contains("were not read")), "{:?}", policy.notes);
        let said: usize = policy.conflicts.iter().chain(&policy.notes).map(String::len).sum::<usize>()
            + policy.terms.iter().map(|t| t.source.to_string().len()).sum::<usize>();
        assert!(said < 20_000, "{said} bytes said of a {} byte header", repeated.len());
    }

    #[test]
    fn terms_are_case_insensitive_and_comma_separated_with_spaces() {
        let page = html("<meta name=ROBOTS content=' NOINDEX ,  NoFollow ,max-snippet: 20'>");
        assert_eq!(page.meta[0].line, 1);
        let names: Vec<String> = page.meta[0].terms.iter().map(ToString::to_string).collect();
        assert_eq!(names, ["noindex", "nofollow", "max-snippet:20"]);
    }

    #[test]
    fn meta_in_comments_scripts_and_templates_is_not_a_tag() {
        let page = html(
            "<!-- <meta name=robots content=noindex> -->\n<script>'<meta name=robots content=noindex>'</script>\n\
             <template><meta name=robots content=noindex></template>\n<meta name=robots content=nofollow>",
        );
        assert_eq!(page.meta.len(), 1);
        assert_eq!((page.meta[0].line, page.meta[0].content.as_str()), (4, "nofollow"));
    }

    #[test]
    fn headers_name_robots_before_a_colon_but_dates_keep_their_commas() {
        let header = RobotsHeader::parse("googlebot: nofollow, otherbot: noindex, nofollow");
        let agents: Vec<(Option<&str>, String)> =
            header.terms.iter().map(|(a, t)| (a.as_deref(), t.to_string())).collect();
        assert_eq!(
            agents,
            [
                (Some("googlebot"), "nofollow".to_owned()),
                (Some("otherbot"), "noindex".to_owned()),
                (Some("otherbot"), "nofollow".to_owned())
            ]
        );
        let dated = RobotsHeader::parse("unavailable_after: Sunday, 01-Sep-24 15:00:00 GMT, noarchive");
        let terms: Vec<String> = dated.terms.iter().map(|(_, t)| t.to_string()).collect();
        assert_eq!(terms, ["unavailable_after:Sunday, 01-Sep-24 15:00:00 GMT", "noarchive"]);
    }

    #[test]
    fn contradictions_are_settled_by_the_robot_and_flagged() {
        let page = html("<meta name=robots content='index, noindex, follow'>");
        let robot = Robot::from_agent("Googlebot");
        let today = page_policy(&page, &robot, Contradictions::MostRestrictive, true);
        assert_eq!(today.index.map(|a| a.allowed), Some(false));
        assert_eq!(today.conflicts.len(), 1);
        let classic = page_policy(&page, &robot, Contradictions::RobotDecides, true);
        assert_eq!(classic.index.map(|a| a.allowed), Some(true));
        assert!(classic.conflicts[0].contains("leaves it to the robot"));
    }

    #[test]
    fn words_without_commas_are_explained() {
        let term = Term::parse("noindex nofollow");
        assert!(!term.is_known());
        assert!(term.meaning().contains("without commas"));
    }

    /// Each URL along the redirects is judged by its own site's robots.txt; a site
    /// whose file is unknown does not block.
    #[test]
    fn redirects_are_judged_by_their_own_sites_robots_txt() {
        let url = |text: &str| Url::parse(text).expect("a URL");
        let (page, same_site, other) =
            (url("https://a.example/p"), url("https://a.example/q"), url("https://b.example/x"));
        let (home_robots, other_robots) = (url("https://a.example/robots.txt"), url("https://b.example/robots.txt"));
        let home_txt = RobotsTxt::parse(b"User-agent: *\nDisallow: /q\n".to_vec());
        let other_txt = RobotsTxt::parse(b"User-agent: *\nDisallow: /x\n".to_vec());
        let home = SiteRobots { robots_url: Some(&home_robots), txt: &home_txt, availability: Availability::Available };
        let known = |_: &Url| {
            Some(SiteRobots { robots_url: Some(&other_robots), txt: &other_txt, availability: Availability::Available })
        };
        let robot = Robot::from_agent("bot");
        let (reading, mode) = (Reading::Rfc9309, UrlMode::AsCrawlersSend);
        let to_other = crawl_verdict(&robot, reading, mode, &page, &[&other], &home, &known);
        assert!(to_other.requested.allowed() && !to_other.allowed());
        assert_eq!(to_other.blocked_redirect.as_ref().map(|b| &b.robots_url), Some(&other_robots));
        let to_same = crawl_verdict(&robot, reading, mode, &page, &[&same_site], &home, &known);
        assert_eq!(to_same.blocked_redirect.map(|b| b.robots_url), Some(home_robots.clone()));
        let unknown = crawl_verdict(&robot, reading, mode, &page, &[&other], &home, &|_| None);
        assert!(unknown.allowed(), "an unknown file does not block");
        let signals = PageSignals { content_usage: Some("search=y".to_owned()), ..PageSignals::default() };
        let answer = page_answer(&home, to_other, &signals, &robot, reading, true);
        assert_eq!(answer.policy.index, None, "a page robots may not crawl is not read");
        assert_eq!(answer.usage, None, "nor has it usage preferences, whatever its header says");
    }
}
