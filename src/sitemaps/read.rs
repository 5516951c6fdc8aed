//! Reading one sitemap as the sitemaps.org protocol defines it: an XML `urlset` (the
//! pages) or `sitemapindex` (more sitemaps), a plain-text file of one URL per line, or
//! an RSS 2.0 or Atom feed; gzipped or not (the gzip magic decides, so a `.gz` file and
//! a `Content-Encoding: gzip` body read alike). Text is UTF-8 unless a byte order mark
//! or the XML declaration says otherwise (UTF-16, ISO-8859-1, ...); bytes that are not
//! of the encoding cost only the URL they are in.
//!
//! Streamed from any reader with quick-xml: the document never sits whole in memory,
//! only the entry being read. Limits per file cut what the protocol does not allow
//! (50,000 URLs, 50 MB after decompression), so a gzip bomb is cut at the byte limit,
//! not inflated. Pure of the network: `crawl.rs` feeds it HTTP bodies, tests feed it
//! bytes.

use std::io::{self, BufRead, BufReader, Read};
use std::ops::ControlFlow;

use flate2::bufread::MultiGzDecoder;
use quick_xml::events::{BytesStart, Event};

/// The URLs one sitemap may list (sitemaps.org).
pub const MAX_URLS_PER_FILE: usize = 50_000;

/// The bytes one sitemap may hold once decompressed: 50 MB (sitemaps.org: 52,428,800).
pub const MAX_BYTES_PER_FILE: u64 = 52_428_800;

/// The longest URL kept: sitemaps.org asks for under 2,048 characters; longer ones are
/// skipped, so that one huge `<loc>` cannot hold the memory of a thousand.
pub const MAX_URL_BYTES: usize = 8 * 1024;

/// The longest sitemap URL an index may list: sitemaps.org asks for under 2,048
/// characters, and the walk remembers every sitemap it queues (10,000 of 8 KiB were
/// 80 MB).
pub const MAX_SITEMAP_URL_BYTES: usize = 2048;

/// The most bytes taken between two markup delimiters (`<`, `>`, a line break): the XML
/// reader holds a whole text or tag in memory, and a `<loc>` of 50 MB without an end
/// would be held whole. Past it the bytes are dropped; what is kept is still far longer
/// than any URL kept, so the entry is skipped as too long.
const MAX_RUN_BYTES: usize = 64 * 1024;

/// The deepest nesting read: a sitemap's entries are two or three levels down (an
/// image's four), and the XML reader keeps each open element's name (50 MB of `<a>`
/// held 600 MB).
pub const MAX_DEPTH: usize = 256;

/// What a sitemap turned out to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `<urlset>`: pages.
    UrlSet,
    /// `<sitemapindex>`: more sitemaps.
    Index,
    /// One URL per line.
    Text,
    /// An RSS 2.0 feed: each item's `<link>`.
    Rss,
    /// An Atom feed: each entry's `<link href>`.
    Atom,
}

impl Kind {
    /// `urlset`, `sitemapindex`, `text`, `rss`, `atom`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Kind::UrlSet => "urlset",
            Kind::Index => "sitemapindex",
            Kind::Text => "text",
            Kind::Rss => "rss",
            Kind::Atom => "atom",
        }
    }

    fn of_root(name: &str) -> Option<Kind> {
        match name {
            "urlset" => Some(Kind::UrlSet),
            "sitemapindex" => Some(Kind::Index),
            "rss" => Some(Kind::Rss),
            "feed" => Some(Kind::Atom),
            _ => None,
        }
    }

    /// The element each entry is in, and the ones that hold its URL and date.
    fn tags(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Kind::UrlSet => ("url", "loc", "lastmod"),
            Kind::Index => ("sitemap", "loc", "lastmod"),
            Kind::Rss => ("item", "link", "pubDate"),
            Kind::Atom => ("entry", "link", "updated"),
            Kind::Text => ("", "", ""),
        }
    }
}

/// One listed URL with its date, as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The URL.
    pub loc: String,
    /// `<lastmod>` (or the feed's date), when there is one.
    pub lastmod: Option<String>,
}

/// What a sitemap lists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    /// A page (urlset, text, feed).
    Page(Entry),
    /// Another sitemap (sitemapindex).
    Sitemap(Entry),
}

/// Why reading stopped before the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    /// The file lists more URLs than the per-file limit.
    Urls,
    /// The file holds more bytes (decompressed) than the per-file limit.
    Bytes,
    /// The receiver wanted no more (the total limit, or a cancel).
    Stopped,
}

/// Why a sitemap could not be read (in part or at all).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// Gzip inside gzip: compressed twice over, which no crawler unpacks.
    #[error("gzip inside gzip (compressed twice over): crawlers do not read it")]
    GzipInGzip,
    /// Bytes that are no text (NUL bytes in a file that is not UTF-16).
    #[error("binary data, not a sitemap")]
    Binary,
    /// Elements nested deeper than any sitemap nests them.
    #[error("elements nested more than {MAX_DEPTH} deep: no sitemap nests so")]
    TooDeep,
    /// An HTML page where a sitemap was expected.
    #[error("an HTML page, not a sitemap")]
    Html,
    /// XML whose root is not a sitemap's.
    #[error("XML whose root element is <{0}>, not <urlset> or <sitemapindex>")]
    NotASitemap(String),
    /// Malformed XML (the entries before the error are kept).
    #[error("malformed XML at byte {position}: {message}")]
    Xml {
        /// Where, in the decompressed bytes.
        position: u64,
        /// What the parser said.
        message: String,
    },
    /// Nothing at all.
    #[error("an empty file")]
    Empty,
    /// The bytes stopped coming, or the gzip stream is broken.
    #[error("{0}")]
    Io(String),
}

/// The limits of one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadLimits {
    /// URLs listed.
    pub max_urls: usize,
    /// Bytes after decompression.
    pub max_bytes: u64,
}

impl Default for ReadLimits {
    fn default() -> Self {
        ReadLimits { max_urls: MAX_URLS_PER_FILE, max_bytes: MAX_BYTES_PER_FILE }
    }
}

/// Entries skipped, by why: none of them is handed on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Skipped {
    /// Longer than [`MAX_URL_BYTES`].
    pub too_long: usize,
    /// Not an http(s) URL (relative, `mailto:`, empty).
    pub not_http: usize,
    /// Bytes that are not text in the file's encoding (invalid UTF-8, say): the URL is
    /// not what the file meant, and only it is lost.
    pub undecodable: usize,
}

impl Skipped {
    /// All of them.
    #[must_use]
    pub fn total(&self) -> usize {
        self.too_long + self.not_http + self.undecodable
    }

    /// `2 longer than 8 KiB, 1 not http(s)`, or nothing when none was skipped.
    #[must_use]
    pub fn words(&self) -> Option<String> {
        let parts: Vec<String> = [
            (self.too_long, "longer than 8 KiB"),
            (self.not_http, "not http(s)"),
            (self.undecodable, "with bytes not of the file's encoding"),
        ]
        .iter()
        .filter(|(count, _)| *count > 0)
        .map(|(count, why)| format!("{count} {why}"))
        .collect();
        (!parts.is_empty()).then(|| parts.join(", "))
    }
}

/// How reading one sitemap went.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Summary {
    /// What it is, once its first bytes told.
    pub kind: Option<Kind>,
    /// Whether it was gzipped.
    pub gzipped: bool,
    /// Entries handed on.
    pub entries: usize,
    /// Entries skipped, and why.
    pub skipped: Skipped,
    /// The encoding the text was read from, when not UTF-8 (a byte order mark or the
    /// XML declaration named it).
    pub encoding: Option<&'static str>,
    /// Where reading stopped early.
    pub cut: Option<Cut>,
    /// What went wrong.
    pub error: Option<ReadError>,
}

/// Reads a sitemap from `input`, handing each entry to `sink` as it is read; `sink`
/// answers `Break` to stop. Never fails: what went wrong is in the summary, with the
/// entries read before it.
pub fn read(input: impl Read, limits: ReadLimits, mut sink: impl FnMut(Item) -> ControlFlow<()>) -> Summary {
    let mut summary = Summary::default();
    let mut input = BufReader::with_capacity(64 * 1024, input);
    let gzipped = match input.fill_buf() {
        Ok(start) => start.starts_with(&GZIP_MAGIC),
        Err(error) => {
            summary.error = Some(ReadError::Io(error.to_string()));
            return summary;
        }
    };
    summary.gzipped = gzipped;
    let decompressed: Box<dyn Read> = if gzipped { Box::new(MultiGzDecoder::new(input)) } else { Box::new(input) };
    let mut capped = Capped { inner: decompressed, left: limits.max_bytes, hit: false, failed: None };
    // The first bytes say what the text is: gzip again, UTF-16, a declared encoding.
    let broken = |failed: &dyn std::fmt::Display| {
        let what = if gzipped { "the gzip stream is broken" } else { "the bytes stopped" };
        ReadError::Io(format!("{what}: {failed}"))
    };
    let head = match read_head(&mut capped) {
        Ok(head) => head,
        Err(error) => {
            summary.error = Some(broken(&error));
            return summary;
        }
    };
    if gzipped && head.starts_with(&GZIP_MAGIC) {
        summary.error = Some(ReadError::GzipInGzip);
        return summary;
    }
    let encoding = encoding_of(&head);
    if encoding == encoding_rs::UTF_8 && head.contains(&0) {
        summary.error = Some(ReadError::Binary);
        return summary;
    }
    summary.encoding = (encoding != encoding_rs::UTF_8).then(|| encoding.name());
    // Decoded to UTF-8 as it streams (a byte order mark decides over the declaration);
    // what is not text in the encoding becomes U+FFFD, which costs the URL it is in.
    let decoded = encoding_rs_io::DecodeReaderBytesBuilder::new()
        .encoding(Some(encoding))
        .build(io::Cursor::new(head).chain(&mut capped));
    let mut decoded = BufReader::with_capacity(64 * 1024, ShortRuns { inner: decoded, run: 0 });
    let mut reader = Reader { limits, summary, sink: &mut sink };
    match skip_to_content(&mut decoded) {
        Ok(Some(b'<')) => reader.xml(&mut decoded),
        Ok(Some(_)) => reader.text(&mut decoded),
        Ok(None) => reader.summary.error = Some(ReadError::Empty),
        Err(error) => reader.summary.error = Some(ReadError::Io(error.to_string())),
    }
    drop(decoded);
    let mut summary = reader.summary;
    // The bytes broke off (a truncated gzip stream): that is the error, not the XML
    // the parser saw end.
    if let Some(failed) = &capped.failed {
        summary.error = Some(broken(failed));
    }
    if capped.hit && summary.cut.is_none() {
        summary.cut = Some(Cut::Bytes);
        // The XML cut mid-element is not malformed: it was cut.
        if matches!(summary.error, Some(ReadError::Xml { .. })) {
            summary.error = None;
        }
    }
    summary
}

/// The two bytes every gzip stream starts with.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// The bytes looked at for a byte order mark and an XML declaration.
const HEAD_BYTES: usize = 1024;

/// Reads the first [`HEAD_BYTES`] (fewer when the input is shorter).
fn read_head(input: &mut impl Read) -> io::Result<Vec<u8>> {
    let mut head = Vec::with_capacity(HEAD_BYTES);
    input.take(HEAD_BYTES as u64).read_to_end(&mut head)?;
    Ok(head)
}

/// The encoding the text is in: UTF-16 by its byte order mark or by the zero bytes of
/// `<?` without one, else the encoding the XML declaration names, else UTF-8 (XML 1.0
/// §4.3.3 and appendix F). A declaration that says UTF-16 over bytes that read as
/// ASCII is wrong, and UTF-8 is taken.
fn encoding_of(head: &[u8]) -> &'static encoding_rs::Encoding {
    if let Some((encoding, _)) = encoding_rs::Encoding::for_bom(head) {
        return encoding;
    }
    if head.starts_with(b"<\0?\0") || head.starts_with(b"\0<\0?") {
        return if head[0] == 0 { encoding_rs::UTF_16BE } else { encoding_rs::UTF_16LE };
    }
    declared_encoding(head)
        .filter(|encoding| *encoding != encoding_rs::UTF_16LE && *encoding != encoding_rs::UTF_16BE)
        .unwrap_or(encoding_rs::UTF_8)
}

/// The encoding an XML declaration (`<?xml version="1.0" encoding="ISO-8859-1"?>`)
/// names, when it names one that exists.
fn declared_encoding(head: &[u8]) -> Option<&'static encoding_rs::Encoding> {
    let declaration = head.strip_prefix(b"<?xml")?;
    let declaration = &declaration[..memchr::memmem::find(declaration, b"?>")?];
    let after = &declaration[memchr::memmem::find(declaration, b"encoding")? + b"encoding".len()..];
    let after = after.trim_ascii_start().strip_prefix(b"=")?.trim_ascii_start();
    let quote = *after.first().filter(|q| matches!(q, b'"' | b'\''))?;
    let label = &after[1..];
    encoding_rs::Encoding::for_label(&label[..memchr::memchr(quote, label)?])
}

/// Skips a byte order mark and leading whitespace; the first byte of the content.
fn skip_to_content(input: &mut impl BufRead) -> io::Result<Option<u8>> {
    loop {
        let buffer = input.fill_buf()?;
        let Some(&first) = buffer.first() else { return Ok(None) };
        if buffer.starts_with(b"\xEF\xBB\xBF") {
            input.consume(3);
        } else if first.is_ascii_whitespace() {
            input.consume(1);
        } else {
            return Ok(Some(first));
        }
    }
}

/// A reader that drops what comes past [`MAX_RUN_BYTES`] between two delimiters.
struct ShortRuns<R> {
    inner: R,
    /// Bytes since the last delimiter, dropped ones included.
    run: usize,
}

impl<R: Read> Read for ShortRuns<R> {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        loop {
            let read = self.inner.read(buffer)?;
            if read == 0 {
                return Ok(0);
            }
            let (mut kept, mut at) = (0, 0);
            while at < read {
                let next = memchr::memchr3(b'<', b'>', b'\n', &buffer[at..read]).map_or(read, |i| at + i);
                let take = (next - at).min(MAX_RUN_BYTES.saturating_sub(self.run));
                buffer.copy_within(at..at + take, kept);
                kept += take;
                self.run += next - at;
                if next < read {
                    buffer[kept] = buffer[next];
                    kept += 1;
                    self.run = 0;
                }
                at = next + 1;
            }
            // All of it dropped: read on, rather than say the end came.
            if kept > 0 {
                return Ok(kept);
            }
        }
    }
}

/// A reader that ends after `left` bytes and remembers that it did.
struct Capped<R> {
    inner: R,
    left: u64,
    hit: bool,
    /// The error the bytes stopped with (a broken gzip stream, a dropped connection).
    failed: Option<String>,
}

impl<R: Read> Read for Capped<R> {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        if self.left == 0 {
            // One byte more tells a file of exactly the limit from a longer one.
            let mut probe = [0u8; 1];
            self.hit |= self.inner.read(&mut probe)? > 0;
            return Ok(0);
        }
        let room = buffer.len().min(usize::try_from(self.left).unwrap_or(usize::MAX));
        let read = self.inner.read(&mut buffer[..room]).inspect_err(|error| self.failed = Some(error.to_string()))?;
        self.left -= read as u64;
        Ok(read)
    }
}

/// The state of one read.
struct Reader<'a, S> {
    limits: ReadLimits,
    summary: Summary,
    sink: &'a mut S,
}

impl<S: FnMut(Item) -> ControlFlow<()>> Reader<'_, S> {
    /// Hands an entry on; `Break` when reading should stop.
    fn emit(&mut self, kind: Kind, loc: &str, lastmod: Option<String>) -> ControlFlow<()> {
        let loc = loc.trim();
        let skipped = &mut self.summary.skipped;
        let longest = if kind == Kind::Index { MAX_SITEMAP_URL_BYTES } else { MAX_URL_BYTES };
        if loc.len() > longest {
            skipped.too_long += 1;
            return ControlFlow::Continue(());
        }
        if !(loc.get(..7).is_some_and(|s| s.eq_ignore_ascii_case("http://"))
            || loc.get(..8).is_some_and(|s| s.eq_ignore_ascii_case("https://")))
        {
            skipped.not_http += 1;
            return ControlFlow::Continue(());
        }
        if loc.contains(char::REPLACEMENT_CHARACTER) {
            skipped.undecodable += 1;
            return ControlFlow::Continue(());
        }
        if self.summary.entries == self.limits.max_urls {
            self.summary.cut = Some(Cut::Urls);
            return ControlFlow::Break(());
        }
        let entry = Entry { loc: loc.to_owned(), lastmod: lastmod.map(|d| d.trim().to_owned()) };
        let item = if kind == Kind::Index { Item::Sitemap(entry) } else { Item::Page(entry) };
        let flow = (self.sink)(item);
        // Counted when taken: an entry the receiver refused (the total limit) is not
        // one this sitemap gave.
        match flow {
            ControlFlow::Continue(()) => self.summary.entries += 1,
            ControlFlow::Break(()) => self.summary.cut = Some(Cut::Stopped),
        }
        flow
    }

    /// One URL per line (sitemaps.org's text format); lines that are not URLs are
    /// skipped.
    fn text(&mut self, input: &mut impl BufRead) {
        self.summary.kind = Some(Kind::Text);
        let mut line = Vec::new();
        loop {
            line.clear();
            // A line is read up to the URL limit and the rest of it skipped, so that a
            // file without newlines cannot grow one line to the byte limit.
            match read_line_capped(input, &mut line, MAX_URL_BYTES + 1) {
                Ok(false) => return,
                Ok(true) => {}
                Err(error) => {
                    self.summary.error = Some(ReadError::Io(error.to_string()));
                    return;
                }
            }
            let text = String::from_utf8_lossy(&line);
            if !text.trim().is_empty() && self.emit(Kind::Text, &text, None).is_break() {
                return;
            }
        }
    }

    /// The XML formats, event by event.
    fn xml(&mut self, input: &mut impl BufRead) {
        let mut xml = quick_xml::Reader::from_reader(input);
        // The end tags' names are not checked (the depth is counted here); the reader
        // still keeps each open element's name, which MAX_DEPTH bounds.
        xml.config_mut().check_end_names = false;
        let mut buffer = Vec::new();
        let mut depth = 0usize;
        let mut kind: Option<Kind> = None;
        // The depth of the entry being read, its URL and date, and the field the text
        // goes to (only a direct child of the entry: `<image:loc>` is not the page's).
        let mut entry_depth: Option<usize> = None;
        let (mut loc, mut lastmod) = (String::new(), None::<String>);
        let mut field: Option<Field> = None;
        loop {
            let event = match xml.read_event_into(&mut buffer) {
                Ok(event) => event,
                // quick-xml stops at bytes that are not UTF-8 (it cannot read on): the
                // entries before are kept, and the error says where.
                Err(error) => {
                    let position = xml.error_position().max(xml.buffer_position());
                    self.summary.error = Some(ReadError::Xml { position, message: error.to_string() });
                    return;
                }
            };
            match event {
                Event::Start(start) => {
                    depth += 1;
                    if depth > MAX_DEPTH {
                        self.summary.error = Some(ReadError::TooDeep);
                        return;
                    }
                    let name = start.local_name();
                    let Some(kind) = kind else {
                        kind = self.root(name.as_ref());
                        if kind.is_none() {
                            return;
                        }
                        buffer.clear();
                        continue;
                    };
                    let (entry_tag, loc_tag, date_tag) = kind.tags();
                    if entry_depth.is_none() && name.as_ref() == entry_tag {
                        entry_depth = Some(depth);
                        loc.clear();
                        lastmod = None;
                    } else if entry_depth.is_some_and(|d| depth == d + 1) {
                        field = if name.as_ref() == loc_tag && kind != Kind::Atom {
                            loc.clear();
                            Some(Field::Loc)
                        } else if name.as_ref() == date_tag {
                            lastmod = Some(String::new());
                            Some(Field::Lastmod)
                        } else {
                            None
                        };
                    }
                }
                Event::Empty(empty) => {
                    let name = empty.local_name();
                    if kind.is_none() {
                        // `<urlset/>`: a sitemap with nothing in it.
                        self.root(name.as_ref());
                        return;
                    }
                    if kind == Some(Kind::Atom)
                        && entry_depth == Some(depth)
                        && name.as_ref() == "link"
                        && let Some(href) = atom_link(&empty)
                    {
                        loc = href;
                    }
                }
                Event::Text(_) | Event::CData(_) | Event::GeneralRef(_) => {
                    if let Some(field) = field {
                        push_capped(field_text(field, &mut loc, &mut lastmod), &text_of(&event));
                    }
                }
                Event::End(_) => {
                    if entry_depth == Some(depth) {
                        entry_depth = None;
                        if let Some(kind) = kind
                            && self.emit(kind, &loc, lastmod.take()).is_break()
                        {
                            return;
                        }
                    } else if entry_depth.is_some_and(|d| depth == d + 1) {
                        field = None;
                    }
                    depth = depth.saturating_sub(1);
                }
                Event::Eof => {
                    if kind.is_none() {
                        self.summary.error = Some(ReadError::Empty);
                    } else if depth > 0 {
                        // Cut short: the entry being read is lost, and that is an error.
                        let position = xml.buffer_position();
                        let message = "the file ends before its elements are closed".to_owned();
                        self.summary.error = Some(ReadError::Xml { position, message });
                    }
                    return;
                }
                Event::Decl(_) | Event::PI(_) | Event::DocType(_) | Event::Comment(_) => {}
            }
            buffer.clear();
        }
    }

    /// Takes the root element: a sitemap's, or an error (HTML, other XML).
    fn root(&mut self, name: &str) -> Option<Kind> {
        let kind = Kind::of_root(name);
        self.summary.kind = kind;
        if kind.is_none() {
            self.summary.error = Some(if name.eq_ignore_ascii_case("html") {
                ReadError::Html
            } else {
                ReadError::NotASitemap(name.chars().take(64).collect())
            });
        }
        kind
    }
}

/// Which part of an entry the text belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    Loc,
    Lastmod,
}

/// Where the text of `field` goes.
fn field_text<'s>(field: Field, loc: &'s mut String, lastmod: &'s mut Option<String>) -> &'s mut String {
    match field {
        Field::Loc => loc,
        Field::Lastmod => lastmod.get_or_insert_with(String::new),
    }
}

/// Appends text, up to one byte past [`MAX_URL_BYTES`] (enough to skip the entry).
fn push_capped(target: &mut String, text: &str) {
    let room = (MAX_URL_BYTES + 1).saturating_sub(target.len());
    let mut end = text.len().min(room);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    target.push_str(&text[..end]);
}

/// An Atom `<link>`'s `href`, when it is the entry's own page (no `rel`, or
/// `rel="alternate"`).
fn atom_link(link: &BytesStart<'_>) -> Option<String> {
    let rel = link.try_get_attribute("rel").ok().flatten();
    if rel.is_some_and(|rel| rel.value != "alternate") {
        return None;
    }
    let href = link.try_get_attribute("href").ok().flatten()?;
    href.normalized_value(quick_xml::XmlVersion::Implicit1_0).ok().map(std::borrow::Cow::into_owned)
}

/// The text an event adds to a field: text, CDATA, or a character or entity reference.
fn text_of(event: &Event<'_>) -> String {
    match event {
        Event::Text(text) => text.xml10_content().into_owned(),
        Event::CData(data) => data.clone().into_inner().into_owned(),
        Event::GeneralRef(reference) => match reference.resolve_char_ref() {
            Ok(Some(c)) => c.to_string(),
            _ => predefined_entity(&reference.xml10_content()),
        },
        _ => String::new(),
    }
}

/// The five entities XML predefines; any other is kept as written.
fn predefined_entity(name: &str) -> String {
    match name {
        "amp" => "&".to_owned(),
        "lt" => "<".to_owned(),
        "gt" => ">".to_owned(),
        "apos" => "'".to_owned(),
        "quot" => "\"".to_owned(),
        other => format!("&{other};"),
    }
}

/// Reads one line (without its end) into `line`, keeping at most `max` bytes of it and
/// skipping the rest; false at the end of the input.
fn read_line_capped(input: &mut impl BufRead, line: &mut Vec<u8>, max: usize) -> io::Result<bool> {
    let mut read_any = false;
    loop {
        let buffer = input.fill_buf()?;
        if buffer.is_empty() {
            return Ok(read_any);
        }
        read_any = true;
        let (taken, done) = match memchr::memchr2(b'\n', b'\r', buffer) {
            Some(end) => (end, true),
            None => (buffer.len(), false),
        };
        let room = max.saturating_sub(line.len());
        line.extend_from_slice(&buffer[..taken.min(room)]);
        input.consume(if done { taken + 1 } else { taken });
        if done {
            return Ok(true);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    fn read_all(bytes: &[u8], limits: ReadLimits) -> (Vec<Item>, Summary) {
        let mut items = Vec::new();
        let summary = read(bytes, limits, |item| {
            items.push(item);
            ControlFlow::Continue(())
        });
        (items, summary)
    }

    fn locs(items: &[Item]) -> Vec<&str> {
        items
            .iter()
            .map(|item| match item {
                Item::Page(entry) | Item::Sitemap(entry) => entry.loc.as_str(),
            })
            .collect()
    }

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        encoder.write_all(bytes).expect("gzip");
        encoder.finish().expect("gzip")
    }

    const URLSET: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url><loc>https://example.com/a?x=1&amp;y=2</loc><lastmod>2026-01-02</lastmod>
    <image:image><image:loc>https://cdn.example.com/a.png</image:loc></image:image></url>
  <url><loc><![CDATA[https://example.com/b]]></loc></url>
  <url><loc>mailto:nobody@example.com</loc></url>
</urlset>"#;

    #[test]
    fn a_urlset_gives_its_pages_with_their_dates() {
        let (items, summary) = read_all(URLSET.as_bytes(), ReadLimits::default());
        assert_eq!(summary.kind, Some(Kind::UrlSet));
        assert_eq!(locs(&items), ["https://example.com/a?x=1&y=2", "https://example.com/b"]);
        assert_eq!(items[0], Item::Page(Entry { loc: locs(&items)[0].to_owned(), lastmod: Some("2026-01-02".into()) }));
        assert_eq!((summary.entries, summary.skipped.not_http, summary.error), (2, 1, None), "mailto: is skipped");
    }

    #[test]
    fn gzip_is_read_by_its_magic_and_a_bomb_is_cut() {
        let (items, summary) = read_all(&gzip(URLSET.as_bytes()), ReadLimits::default());
        assert!(summary.gzipped);
        assert_eq!(items.len(), 2);
        // 64 MiB of zeros after a urlset's start: the byte limit cuts it.
        let mut bomb = b"<urlset><url><loc>https://e.com/</loc></url><!-- ".to_vec();
        bomb.extend(std::iter::repeat_n(b' ', 64 << 20));
        let limits = ReadLimits { max_bytes: 1 << 20, ..ReadLimits::default() };
        let (items, summary) = read_all(&gzip(&bomb), limits);
        assert_eq!((items.len(), summary.cut, summary.error), (1, Some(Cut::Bytes), None));
    }

    #[test]
    fn an_index_lists_sitemaps() {
        let index = "<sitemapindex><sitemap><loc>https://e.com/s1.xml.gz</loc></sitemap></sitemapindex>";
        let (items, summary) = read_all(index.as_bytes(), ReadLimits::default());
        assert_eq!(summary.kind, Some(Kind::Index));
        assert!(matches!(&items[..], [Item::Sitemap(entry)] if entry.loc == "https://e.com/s1.xml.gz"));
    }

    #[test]
    fn text_feeds_html_and_garbage() {
        let (items, summary) =
            read_all(b"\xEF\xBB\xBF https://e.com/a\r\n\r\nnot a url\nhttps://e.com/b", ReadLimits::default());
        assert_eq!(
            (locs(&items), summary.kind, summary.skipped.total()),
            (vec!["https://e.com/a", "https://e.com/b"], Some(Kind::Text), 1)
        );
        let rss = "<rss><channel><link>https://e.com/</link><item><link>https://e.com/p</link><pubDate>Mon</pubDate></item></channel></rss>";
        assert_eq!(locs(&read_all(rss.as_bytes(), ReadLimits::default()).0), ["https://e.com/p"]);
        let atom =
            r#"<feed><entry><link rel="edit" href="https://e.com/edit"/><link href="https://e.com/e"/></entry></feed>"#;
        assert_eq!(locs(&read_all(atom.as_bytes(), ReadLimits::default()).0), ["https://e.com/e"]);
        let (_, summary) = read_all(b"<!DOCTYPE html><html><body>404</body></html>", ReadLimits::default());
        assert_eq!(summary.error, Some(ReadError::Html));
        let (items, summary) =
            read_all(b"<urlset><url><loc>https://e.com/a</loc></url><url><loc>x</urlset>", ReadLimits::default());
        assert_eq!(items.len(), 1, "entries before the error are kept");
        assert!(matches!(summary.error, Some(ReadError::Xml { .. })), "{summary:?}");
        assert_eq!(read_all(b"  ", ReadLimits::default()).1.error, Some(ReadError::Empty));
        let cut_short = b"<urlset><url><loc>https://e.com/a</loc></url><url><loc>https://e.com/b</loc>";
        let (items, summary) = read_all(cut_short, ReadLimits::default());
        assert_eq!(items.len(), 1, "an unclosed entry is lost");
        assert!(matches!(&summary.error, Some(ReadError::Xml { message, .. }) if message.contains("ends before")));
        let whole = gzip(URLSET.as_bytes());
        let (_, summary) = read_all(&whole[..whole.len() / 2], ReadLimits::default());
        let broken = matches!(&summary.error, Some(ReadError::Io(m)) if m.starts_with("the gzip stream is broken"));
        assert!(broken, "{summary:?}");
    }

    #[test]
    fn a_byte_that_is_not_utf8_costs_only_its_url() {
        let latin1 =
            b"<urlset><url><loc>https://e.com/caf\xe9</loc></url><url><loc>https://e.com/b</loc></url></urlset>";
        let (items, summary) = read_all(latin1, ReadLimits::default());
        assert_eq!(locs(&items), ["https://e.com/b"]);
        assert_eq!((summary.skipped.undecodable, summary.error, summary.encoding), (1, None, None));
        let text = b"https://e.com/\xff\nhttps://e.com/c\n";
        let (items, summary) = read_all(text, ReadLimits::default());
        assert_eq!((locs(&items), summary.skipped.undecodable), (vec!["https://e.com/c"], 1));
    }

    #[test]
    fn the_declared_encoding_and_utf16_are_read() {
        let latin1 = b"<?xml version='1.0' encoding = \"ISO-8859-1\"?>\n<urlset><url><loc>https://e.com/caf\xe9</loc></url></urlset>";
        let (items, summary) = read_all(latin1, ReadLimits::default());
        assert_eq!(locs(&items), ["https://e.com/caf\u{e9}"]);
        assert_eq!(summary.encoding, Some("windows-1252"), "ISO-8859-1 is read as the web reads it");
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><urlset><url><loc>https://e.com/\u{e9}t\u{e9}</loc></url></urlset>";
        let utf16le: Vec<u8> = xml.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let with_bom = [&[0xFF, 0xFE][..], &utf16le].concat();
        let utf16be: Vec<u8> = xml.encode_utf16().flat_map(u16::to_be_bytes).collect();
        for (bytes, name) in [(with_bom, "UTF-16LE"), (utf16le, "UTF-16LE"), (utf16be, "UTF-16BE")] {
            let (items, summary) = read_all(&gzip(&bytes), ReadLimits::default());
            assert_eq!(locs(&items), ["https://e.com/\u{e9}t\u{e9}"], "{name}");
            assert_eq!(summary.encoding, Some(name));
        }
        // A declaration that says UTF-16 over ASCII bytes is wrong: UTF-8 it is.
        let (items, summary) = read_all(xml.as_bytes(), ReadLimits::default());
        assert_eq!((items.len(), summary.encoding), (1, None));
    }

    /// Issue 25: what the XML reader holds stays small: a `<loc>` far past the URL limit
    /// is cut on the way in (and skipped as too long), a deep nest keeps no stack of
    /// names, binary data is said to be no sitemap, and an index's sitemap URL is held
    /// to sitemaps.org's 2,048 bytes.
    #[test]
    fn long_runs_deep_nests_and_binary_data_cost_little() {
        let long = format!(
            "<urlset><url><loc>https://e.com/{}</loc></url><url><loc>https://e.com/b</loc></url></urlset>",
            "a".repeat(200_000)
        );
        let (items, summary) = read_all(long.as_bytes(), ReadLimits::default());
        assert_eq!((locs(&items), summary.skipped.too_long, summary.error), (vec!["https://e.com/b"], 1, None));
        let nest = format!("<urlset>{}<url><loc>https://e.com/n</loc></url></urlset>", "<a>".repeat(200_000));
        assert_eq!(read_all(nest.as_bytes(), ReadLimits::default()).1.error, Some(ReadError::TooDeep));
        let (items, summary) = read_all(&b"\x00\x01\x02\x03".repeat(1000), ReadLimits::default());
        assert_eq!((items.len(), summary.error), (0, Some(ReadError::Binary)));
        let index = format!(
            "<sitemapindex><sitemap><loc>https://e.com/{}</loc></sitemap><sitemap><loc>https://e.com/s.xml</loc></sitemap></sitemapindex>",
            "s".repeat(3000)
        );
        let (items, summary) = read_all(index.as_bytes(), ReadLimits::default());
        assert_eq!((locs(&items), summary.skipped.too_long), (vec!["https://e.com/s.xml"], 1));
        // A text sitemap's lines are not runs to cut: each URL is read whole.
        let text = format!("{}\nhttps://e.com/t\n", "x".repeat(100_000));
        assert_eq!(locs(&read_all(text.as_bytes(), ReadLimits::default()).0), ["https://e.com/t"]);
    }

    #[test]
    fn gzip_inside_gzip_is_said_not_read() {
        let (items, summary) = read_all(&gzip(&gzip(URLSET.as_bytes())), ReadLimits::default());
        assert_eq!((items.len(), summary.error), (0, Some(ReadError::GzipInGzip)));
    }

    #[test]
    fn limits_cut_the_file_and_the_receiver_can_stop() {
        let many: String = (0..10).map(|i| format!("https://e.com/{i}")).collect::<Vec<_>>().join("\n");
        let (items, summary) = read_all(many.as_bytes(), ReadLimits { max_urls: 3, ..ReadLimits::default() });
        assert_eq!((items.len(), summary.cut), (3, Some(Cut::Urls)));
        let (items, summary) = read_all(many.as_bytes(), ReadLimits { max_urls: 10, ..ReadLimits::default() });
        assert_eq!((items.len(), summary.cut), (10, None), "exactly at the limit is whole");
        let mut seen = 0;
        let summary = read(many.as_bytes(), ReadLimits::default(), |_| {
            seen += 1;
            if seen == 2 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
        });
        assert_eq!((seen, summary.cut), (2, Some(Cut::Stopped)));
        // A `<loc>` of a megabyte holds no more than the URL limit, and is skipped.
        let huge = format!("<urlset><url><loc>https://e.com/{}</loc></url></urlset>", "a".repeat(1 << 20));
        let (items, summary) = read_all(huge.as_bytes(), ReadLimits::default());
        assert_eq!((items.len(), summary.skipped.too_long), (0, 1));
    }

    #[test]
    fn deep_nesting_is_refused() {
        let deep = format!("<urlset>{}{}</urlset>", "<a>".repeat(100_000), "</a>".repeat(100_000));
        let (items, summary) = read_all(deep.as_bytes(), ReadLimits::default());
        assert_eq!((items.len(), summary.error), (0, Some(ReadError::TooDeep)));
        let fine =
            format!("<urlset>{}<url><loc>https://e.com/</loc></url>{}</urlset>", "<a>".repeat(200), "</a>".repeat(200));
        assert_eq!(read_all(fine.as_bytes(), ReadLimits::default()).0.len(), 1);
    }
}
