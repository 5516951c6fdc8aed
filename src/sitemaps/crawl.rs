//! The walk over a site's sitemaps: fetch each (with robots.txt's timeout, redirect
//! and status handling, over one connection pool), read it as it streams in
//! (`read.rs`, on a blocking thread fed chunk by chunk), follow indexes, each sitemap
//! once however often it is listed, a few at a time.
//!
//! Everything found goes to one channel as [`Event`]s, in the order it is read; the
//! receiver checks and prints. Dropping the walk's future (or the receiver) stops it:
//! the fetches are tasks of a `JoinSet`, the readers stop at their next entry.

use std::collections::{HashSet, VecDeque};
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tokio::sync::mpsc;
use tokio::task::JoinSet;
use url::Url;

use super::read::{self, Cut, Entry, Item, Kind, ReadError, ReadLimits, Summary};
pub use crate::fetch::DEFAULT_MAX_TIME;
use crate::fetch::{self, FetchError, Limits, Open, Status, deadline_after, duration_words};

/// How many sitemaps are fetched at once.
pub const CONCURRENCY: usize = 4;

/// The sitemaps read in one walk at most, and listed sitemaps taken at most: an index of
/// indexes could otherwise list millions (each URL up to 8 KB, each a fetch). Ten
/// thousand is two hundred times what `--max-urls` needs of full sitemaps.
pub const MAX_SITEMAPS: usize = 10_000;

/// The pages sent in one [`Event::Pages`] at most, and their bytes: the events in
/// flight (a few dozen) then hold a few megabytes however long the URLs are.
const PAGES_PER_EVENT: usize = 1024;
const PAGE_BYTES_PER_EVENT: usize = 256 * 1024;

/// The default of `--max-urls`: the URLs read in a walk, all sitemaps together. Forty
/// full sitemaps (2,000,000 URLs) and more fit.
pub const DEFAULT_MAX_URLS: usize = 5_000_000;

/// The limits of a walk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalkLimits {
    /// Each fetch's: timeout, connect timeout, User-Agent. Its `max_bytes` is not used:
    /// a sitemap's bytes are bounded by `per_file` (compressed and decompressed).
    pub fetch: Limits,
    /// Each file's.
    pub per_file: ReadLimits,
    /// All URLs together.
    pub max_urls: usize,
    /// The whole walk's time: each fetch has `fetch.timeout`, but eight sitemaps that
    /// send a byte a second, or ten thousand slow ones, would still take hours.
    pub max_time: Duration,
    /// The part of `max_time` the run spent before the walk (fetching robots.txt).
    pub spent: Duration,
    /// The bytes of URLs sent in [`Event::Pages`], all sitemaps together; past them the
    /// pages are counted, not sent (the explorer's view keeps no more; the command line
    /// checks every URL and sets none). No URL is gathered only to be dropped.
    pub max_sent_bytes: Option<usize>,
}

impl Default for WalkLimits {
    fn default() -> Self {
        WalkLimits {
            fetch: Limits::default(),
            per_file: ReadLimits::default(),
            max_urls: DEFAULT_MAX_URLS,
            max_time: DEFAULT_MAX_TIME,
            spent: Duration::ZERO,
            max_sent_bytes: None,
        }
    }
}

/// What stopped a walk, or one sitemap of it, before the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// `--max-urls`: the URLs of all sitemaps together.
    MaxUrls,
    /// [`MAX_SITEMAPS`]: the sitemaps one walk reads.
    MaxSitemaps,
    /// `--max-time`: the walk's deadline.
    MaxTime,
}

impl Stop {
    /// `max-urls`, `max-sitemaps`, `max-time` (the `cut` of `sitemaps --json`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Stop::MaxUrls => "max-urls",
            Stop::MaxSitemaps => "max-sitemaps",
            Stop::MaxTime => "max-time",
        }
    }

    /// The limit in words, with its value.
    #[must_use]
    pub fn words(self, limits: &WalkLimits) -> String {
        match self {
            Stop::MaxUrls => format!("--max-urls {}", limits.max_urls),
            Stop::MaxSitemaps => format!("{MAX_SITEMAPS} sitemaps, the most one walk reads"),
            Stop::MaxTime => format!("--max-time {}", duration_words(limits.max_time)),
        }
    }
}

/// A sitemap of the walk, numbered in the order it was found.
pub type SitemapId = usize;

/// What the walk finds, as it finds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// A sitemap is being fetched.
    Started {
        /// Its number.
        id: SitemapId,
        /// Where.
        url: Url,
        /// The index that listed it (none for those robots.txt or the user named).
        parent: Option<SitemapId>,
    },
    /// Pages a sitemap lists, in order (in batches: one event per URL would cost more
    /// in waking threads than checking the URL does).
    Pages {
        /// The sitemap.
        sitemap: SitemapId,
        /// The URLs and their dates.
        entries: Vec<Entry>,
        /// Pages listed past [`WalkLimits::max_sent_bytes`]: counted, not sent.
        unsent: usize,
    },
    /// A sitemap has been read (or could not be); boxed, as it is much larger than the
    /// other events.
    Finished(Box<Report>),
}

/// How one sitemap went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// Its number.
    pub id: SitemapId,
    /// Where it was asked.
    pub url: Url,
    /// Where it was found after redirects.
    pub final_url: Url,
    /// The index that listed it.
    pub parent: Option<SitemapId>,
    /// The HTTP status, when there was an answer.
    pub status: Option<Status>,
    /// What was read.
    pub read: Summary,
    /// The walk's limit that stopped reading it (its `read.cut` is then
    /// [`Cut::Stopped`], or it was not read at all).
    pub stopped_by: Option<Stop>,
    /// Sitemaps it lists (an index).
    pub sitemaps: usize,
    /// Why it could not be read, in part or at all.
    pub error: Option<String>,
}

impl Report {
    /// The pages or sitemaps it lists.
    #[must_use]
    pub fn entries(&self) -> usize {
        self.read.entries
    }

    /// True when nothing could be read from it.
    #[must_use]
    pub fn failed(&self) -> bool {
        self.error.is_some() && self.read.entries == 0
    }

    /// True when a limit of the walk came before anything of it was read (it may have
    /// been fetched, or not asked for at all).
    #[must_use]
    pub fn not_read(&self) -> bool {
        self.stopped_by.is_some() && self.read.entries == 0 && self.error.is_none()
    }
}

/// How the whole walk went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Walked {
    /// Sitemaps read (or tried).
    pub sitemaps: usize,
    /// Pages listed.
    pub pages: usize,
    /// Sitemaps listed again (by themselves or another index) and read once.
    pub repeated: usize,
    /// The limit the walk stopped at, the first when there were more.
    pub stopped_by: Option<Stop>,
    /// Sitemaps found but not read (reported each, with why).
    pub unread: usize,
}

impl Walked {
    fn stopped(&mut self, stop: Stop) {
        self.stopped_by.get_or_insert(stop);
    }
}

/// A sitemap waiting to be read.
struct Pending {
    id: SitemapId,
    url: Url,
    parent: Option<SitemapId>,
}

/// Walks the sitemaps from `starts`: each is read, each index's sitemaps after it, a few
/// at a time, every one once. What is found goes to `events`.
pub async fn walk(starts: Vec<Url>, limits: WalkLimits, events: mpsc::Sender<Event>) -> Walked {
    let client = match fetch::client(&limits.fetch) {
        Ok(client) => client,
        Err(error) => {
            for (id, url) in starts.into_iter().enumerate() {
                let report = failed_report(id, url, None, &error.to_string());
                if events.send(Event::Finished(Box::new(report))).await.is_err() {
                    break;
                }
            }
            return Walked::default();
        }
    };
    let deadline = deadline_after(limits.max_time.saturating_sub(limits.spent));
    let limits = Arc::new(limits);
    let budget = Arc::new(AtomicUsize::new(limits.max_urls));
    let send_room = Arc::new(AtomicUsize::new(limits.max_sent_bytes.unwrap_or(usize::MAX)));
    // Sitemaps an index may still list: what an index lists past it is not kept.
    let slots = Arc::new(AtomicUsize::new(MAX_SITEMAPS));
    let mut walked = Walked::default();
    let mut seen: HashSet<Url> = HashSet::new();
    let mut queue: VecDeque<Pending> = VecDeque::new();
    let mut next_id = 0;
    // The limit is checked before a URL is remembered: `seen` holds the sitemaps queued,
    // never more than MAX_SITEMAPS.
    let mut enqueue = |url: Url, parent, queue: &mut VecDeque<Pending>, walked: &mut Walked| {
        if seen.contains(&url) {
            walked.repeated += 1;
        } else if next_id == MAX_SITEMAPS {
            walked.stopped(Stop::MaxSitemaps);
        } else {
            seen.insert(url.clone());
            queue.push_back(Pending { id: next_id, url, parent });
            next_id += 1;
        }
    };
    for url in starts {
        enqueue(url, None, &mut queue, &mut walked);
    }
    let mut running: JoinSet<(Report, Vec<Url>)> = JoinSet::new();
    loop {
        let in_time = || tokio::time::Instant::now() < deadline;
        while running.len() < CONCURRENCY && budget.load(Ordering::Relaxed) > 0 && in_time() {
            let Some(pending) = queue.pop_front() else { break };
            let started = Event::Started { id: pending.id, url: pending.url.clone(), parent: pending.parent };
            if events.send(started).await.is_err() {
                return walked;
            }
            let (client, limits, events) = (client.clone(), Arc::clone(&limits), events.clone());
            let budgets =
                Budgets { urls: Arc::clone(&budget), sitemaps: Arc::clone(&slots), sent_bytes: Arc::clone(&send_room) };
            running.spawn(async move { read_sitemap(&client, pending, &limits, deadline, budgets, events).await });
        }
        let Some(done) = running.join_next().await else { break };
        let Ok((report, children)) = done else { continue };
        walked.sitemaps += 1;
        if report.read.kind != Some(Kind::Index) {
            walked.pages += report.read.entries;
        }
        let parent = report.id;
        if let Some(stop) = report.stopped_by {
            walked.stopped(stop);
        }
        if events.send(Event::Finished(Box::new(report))).await.is_err() {
            return walked;
        }
        for child in children {
            enqueue(child, Some(parent), &mut queue, &mut walked);
        }
    }
    // What the walk found and did not read is reported, each with why.
    let why = if tokio::time::Instant::now() >= deadline { Stop::MaxTime } else { Stop::MaxUrls };
    if !queue.is_empty() {
        // The deadline, when it came, is what left them unread, whatever was hit before.
        if why == Stop::MaxTime {
            walked.stopped_by = Some(Stop::MaxTime);
        }
        walked.stopped(why);
    }
    for Pending { id, url, parent } in queue {
        walked.unread += 1;
        // Not an error: a limit, which the report names (`stopped_by`).
        let mut report = failed_report(id, url.clone(), parent, "");
        report.error = None;
        report.stopped_by = Some(why);
        let started = Event::Started { id, url, parent };
        if events.send(started).await.is_err() || events.send(Event::Finished(Box::new(report))).await.is_err() {
            break;
        }
    }
    walked
}

/// The sitemaps in tree order, each followed by those it lists, with its depth; given
/// each sitemap's parent (by id). The same order whatever order the fetches ended in.
#[must_use]
pub fn tree_order(parents: &[Option<SitemapId>]) -> Vec<(SitemapId, usize)> {
    let mut children: Vec<Vec<SitemapId>> = vec![Vec::new(); parents.len()];
    let mut roots = Vec::new();
    for (id, parent) in parents.iter().enumerate() {
        match parent.filter(|&parent| parent < parents.len() && parent != id) {
            Some(parent) => children[parent].push(id),
            None => roots.push(id),
        }
    }
    let mut order = Vec::with_capacity(parents.len());
    let mut stack: Vec<(SitemapId, usize)> = roots.into_iter().rev().map(|id| (id, 0)).collect();
    while let Some((id, depth)) = stack.pop() {
        order.push((id, depth));
        stack.extend(children[id].iter().rev().map(|&child| (child, depth + 1)));
    }
    order
}

/// A report for a sitemap that was never fetched.
fn failed_report(id: SitemapId, url: Url, parent: Option<SitemapId>, error: &str) -> Report {
    Report {
        id,
        final_url: url.clone(),
        url,
        parent,
        status: None,
        read: Summary::default(),
        stopped_by: None,
        sitemaps: 0,
        error: Some(error.to_owned()),
    }
}

/// What the walk may still take, shared by the sitemaps read at once.
struct Budgets {
    /// URLs (`--max-urls`).
    urls: Arc<AtomicUsize>,
    /// Sitemaps an index may list ([`MAX_SITEMAPS`]).
    sitemaps: Arc<AtomicUsize>,
    /// Bytes of URLs sent ([`WalkLimits::max_sent_bytes`]).
    sent_bytes: Arc<AtomicUsize>,
}

/// Fetches one sitemap and reads it as it streams in; its pages go to `events`, the
/// sitemaps it lists come back.
async fn read_sitemap(
    client: &reqwest::Client,
    pending: Pending,
    limits: &WalkLimits,
    walk_deadline: tokio::time::Instant,
    budgets: Budgets,
    events: mpsc::Sender<Event>,
) -> (Report, Vec<Url>) {
    let Pending { id, url, parent } = pending;
    let timeout = limits.fetch.timeout;
    // One deadline for the whole sitemap, the answer's head and its body together; the
    // walk's, when it comes first.
    let deadline = deadline_after(timeout).min(walk_deadline);
    let late = |report: &mut Report| {
        if deadline == walk_deadline {
            // A limit, not an error: the report names it (`stopped_by`).
            report.stopped_by = Some(Stop::MaxTime);
        } else {
            report.error = Some(FetchError::Timeout(timeout).to_string());
        }
    };
    let opened = match tokio::time::timeout_at(deadline, fetch::open(client, &url, &mut Open)).await {
        Ok(Ok(opened)) => opened,
        Ok(Err(error)) => return (failed_report(id, url, parent, &error.to_string()), Vec::new()),
        Err(_) => {
            let mut report = failed_report(id, url, parent, "");
            late(&mut report);
            return (report, Vec::new());
        }
    };
    let mut report = failed_report(id, url, parent, "");
    report.error = None;
    report.final_url = opened.final_url.clone();
    report.status = Some(opened.status);
    let Some(mut response) = opened.response.filter(|_| opened.status.is_success()) else {
        report.error = Some(match (opened.redirect_loop, opened.status) {
            (true, _) => "the redirects go round in a loop".to_owned(),
            (false, status) if status.is_redirection() => "too many redirects".to_owned(),
            (false, status) => format!("HTTP {status}"),
        });
        return (report, Vec::new());
    };

    // The body goes chunk by chunk to a reader on a blocking thread; a full channel
    // holds the download back, a reader that stops ends it.
    let (chunks, chunk_source) = mpsc::channel::<bytes::Bytes>(16);
    let per_file = limits.per_file;
    let reader = tokio::task::spawn_blocking(move || read_body(id, chunk_source, per_file, &budgets, &events));
    // The body's bytes are bounded too: the reader gets at most one byte more than the
    // decompressed limit (so that a plain body past it is cut, and says so), and a
    // gzip body larger than that is no sitemap.
    let max_sent = per_file.max_bytes.saturating_add(1);
    let pump = async {
        let mut sent: u64 = 0;
        loop {
            match response.chunk().await {
                Ok(Some(mut chunk)) => {
                    let room = max_sent - sent;
                    let last = chunk.len() as u64 >= room;
                    if last {
                        chunk.truncate(usize::try_from(room).unwrap_or(usize::MAX));
                    }
                    sent += chunk.len() as u64;
                    if chunks.send(chunk).await.is_err() || last {
                        return None;
                    }
                }
                Ok(None) => return None,
                Err(error) => return Some(fetch::classify(&error, &report.final_url).to_string()),
            }
        }
    };
    match tokio::time::timeout_at(deadline, pump).await {
        Ok(error) => report.error = error,
        Err(_) => late(&mut report),
    }
    drop(chunks);
    let (summary, listed, stopped_by) = match reader.await {
        Ok(result) => result,
        Err(error) => {
            (Summary { error: Some(ReadError::Io(error.to_string())), ..Summary::default() }, Vec::new(), None)
        }
    };
    report.stopped_by = report.stopped_by.or(stopped_by);
    // A body the deadline cut ends mid-element: cut, not malformed.
    if report.error.is_none() && report.stopped_by != Some(Stop::MaxTime) {
        report.error = summary.error.as_ref().map(ToString::to_string);
    }
    report.read = summary;
    if report.stopped_by.is_some() && report.read.cut.is_none() {
        report.read.cut = Some(Cut::Stopped);
    }
    // An index's sitemaps are URLs on the web: relative or odd ones are dropped.
    let children: Vec<Url> = listed
        .iter()
        .filter_map(|loc| Url::parse(loc).ok())
        .filter(|url| matches!(url.scheme(), "http" | "https"))
        .collect();
    report.sitemaps = children.len();
    (report, children)
}

/// Reads one sitemap's body as its chunks come, on a blocking thread: its pages go to
/// `events` in batches, within the walk's budgets; the sitemaps it lists come back, with
/// the budget that stopped it, if one did.
fn read_body(
    id: SitemapId,
    chunks: mpsc::Receiver<bytes::Bytes>,
    per_file: ReadLimits,
    budgets: &Budgets,
    events: &mpsc::Sender<Event>,
) -> (Summary, Vec<String>, Option<Stop>) {
    let mut sitemaps = Vec::new();
    let mut batch = Vec::with_capacity(PAGES_PER_EVENT);
    let (mut batch_bytes, mut unsent) = (0, 0);
    let mut stopped_by = None;
    let send = |batch: &mut Vec<Entry>, unsent: &mut usize| {
        let entries = std::mem::replace(batch, Vec::with_capacity(PAGES_PER_EVENT));
        let unsent = std::mem::take(unsent);
        (entries.is_empty() && unsent == 0)
            || events.blocking_send(Event::Pages { sitemap: id, entries, unsent }).is_ok()
    };
    let summary = read::read(ChannelReader::new(chunks), per_file, |item| match item {
        Item::Page(entry) => {
            if !take_from_budget(&budgets.urls, 1) {
                stopped_by = Some(Stop::MaxUrls);
                return ControlFlow::Break(());
            }
            if take_from_budget(&budgets.sent_bytes, entry.loc.len()) {
                batch_bytes += entry.loc.len() + entry.lastmod.as_ref().map_or(0, String::len);
                batch.push(entry);
            } else {
                unsent += 1;
            }
            let full = batch.len() == PAGES_PER_EVENT || batch_bytes >= PAGE_BYTES_PER_EVENT;
            if full || unsent == PAGES_PER_EVENT {
                batch_bytes = 0;
                if !send(&mut batch, &mut unsent) {
                    return ControlFlow::Break(());
                }
            }
            ControlFlow::Continue(())
        }
        Item::Sitemap(entry) => {
            if !take_from_budget(&budgets.sitemaps, 1) {
                stopped_by = Some(Stop::MaxSitemaps);
                return ControlFlow::Break(());
            }
            sitemaps.push(entry.loc);
            ControlFlow::Continue(())
        }
    });
    send(&mut batch, &mut unsent);
    (summary, sitemaps, stopped_by)
}

/// Takes `amount` from one of the walk's budgets; false when what is left is less.
fn take_from_budget(budget: &AtomicUsize, amount: usize) -> bool {
    budget.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| left.checked_sub(amount)).is_ok()
}

/// The body's chunks as a `Read`, on a blocking thread: waits for the next chunk, ends
/// when the sender is gone.
struct ChannelReader {
    chunks: mpsc::Receiver<bytes::Bytes>,
    current: bytes::Bytes,
}

impl ChannelReader {
    fn new(chunks: mpsc::Receiver<bytes::Bytes>) -> ChannelReader {
        ChannelReader { chunks, current: bytes::Bytes::new() }
    }
}

impl std::io::Read for ChannelReader {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        while self.current.is_empty() {
            match self.chunks.blocking_recv() {
                Some(chunk) => self.current = chunk,
                None => return Ok(0),
            }
        }
        let n = buffer.len().min(self.current.len());
        buffer[..n].copy_from_slice(&self.current.split_to(n));
        Ok(n)
    }
}

/// Why a sitemap was read only in part, in words: the per-file limit, or the walk's
/// limit that stopped it.
#[must_use]
pub fn cut_words(report: &Report, limits: &WalkLimits) -> Option<String> {
    if let Some(stop) = report.stopped_by.filter(|_| report.not_read()) {
        return Some(format!("not read: {} came first", stop.words(limits)));
    }
    Some(match (report.read.cut.or(report.stopped_by.map(|_| Cut::Stopped))?, report.stopped_by) {
        (Cut::Urls, _) => format!("cut at {} URLs, the protocol's limit per file", limits.per_file.max_urls),
        (Cut::Bytes, _) => {
            format!("cut at {} bytes uncompressed, the protocol's limit per file", limits.per_file.max_bytes)
        }
        (Cut::Stopped, Some(stop)) => format!("stopped at {}", stop.words(limits)),
        (Cut::Stopped, None) => "stopped".to_owned(),
    })
}
