//! `robotscope page URL`: a page's policy for each robot. robots.txt says whether the
//! robot may fetch the page; the page's robots META tags and X-Robots-Tag headers say
//! whether it may index it and follow its links. The site's robots.txt and the page are
//! fetched at once, with the same limits.

use std::io::{self, BufWriter, Write};
use std::sync::Arc;

use clap::Args;
use color_eyre::eyre::{Result, WrapErr, bail};
use serde::Serialize;
use url::Url;

use super::answers::UsageRecord;
use super::{CheckRecord, Outcome, RobotSelection, SourceOptions, UrlOptions, finish_output, json, report_fetch};
use crate::columns::Column;
use crate::fetch::{self, Fetched, Obey, PageFetch, Source};
use crate::policy;
use crate::policy::escape::sanitize_str;
use crate::policy::page::{CrawlVerdict, PageAnswer};
use crate::policy::page::{PagePolicy, TermSource};
use crate::policy::request::Request;
use crate::policy::usage::Usage;
use crate::robots_db::RobotsDb;

/// `robotscope page`: may each robot crawl, index and follow a page?
#[derive(Debug, Clone, Args)]
pub struct PageArgs {
    /// The page: a URL (`https://example.com/shop/a`) or a host and path
    /// (`example.com/shop/a`).
    #[arg(value_name = "URL")]
    pub url: String,
    #[command(flatten)]
    pub robots: RobotSelection,
    /// Judge crawling by this robots.txt (a file, `-` or a site) instead of the page's
    /// site's own: try an edited file against the live page.
    #[arg(long, value_name = "SOURCE")]
    pub robots_txt: Option<String>,
    /// One JSON object per robot: agent, url, crawl, index, follow, terms, sources.
    #[arg(long)]
    pub json: bool,
    /// Fetch the page (and follow its redirects) even where robots.txt keeps every robot
    /// asked about out; by default robotscope obeys robots.txt.
    #[arg(long)]
    pub ignore_robots_txt: bool,
    #[command(flatten)]
    pub url_options: UrlOptions,
    #[command(flatten)]
    pub source_options: SourceOptions,
}

/// One robot's answer, as `page --json` prints it (DESIGN.md §4).
#[derive(Debug, Serialize)]
struct PageRecord<'a> {
    agent: &'a str,
    url: &'a str,
    /// Null when robotscope did not fetch the page.
    status: Option<u16>,
    semantics: &'a str,
    /// robots.txt's verdict.
    crawl: bool,
    /// The robots.txt line that decided crawling, if a rule matched.
    crawl_line: Option<usize>,
    crawl_rule: Option<String>,
    /// Null when the robot may not crawl the page.
    index: Option<bool>,
    follow: Option<bool>,
    /// The terms addressed to this robot (`noindex`, `max-snippet:50`).
    terms: Vec<String>,
    /// Where each term came from, in the same order.
    sources: Vec<SourceRecord>,
    /// What the robot may do with the page (`{"train-ai": P, "search": P, "ai-input":
    /// P}`): robots.txt's usage preferences and the page's Content-Usage header; null
    /// when it may not fetch the page or nothing states any.
    usage: Option<UsageRecord>,
    /// The robots.txt lines behind them.
    usage_lines: Vec<usize>,
    /// The page's Content-Usage header, when it has one.
    usage_header: Option<&'a str>,
    conflicts: &'a [String],
    notes: Vec<String>,
}

/// Where a term came from.
#[derive(Debug, Serialize)]
#[serde(tag = "from", rename_all = "lowercase")]
enum SourceRecord {
    /// A META tag: its line in the page and its name.
    Meta { term: String, line: usize, name: String },
    /// An X-Robots-Tag header: its value and the robot it names, if any.
    Header { term: String, value: String, agent: Option<String> },
}

/// One robot's page policy, with the robots.txt details behind its crawl verdict.
struct Answer<'a> {
    column: Column,
    /// robots.txt's verdict on the URL asked for, as `check` reports it.
    record: CheckRecord<'a>,
    /// The same, redirects included.
    crawl: CrawlVerdict,
    policy: PagePolicy,
    /// What the robot may do with the page: robots.txt's usage preferences for its path
    /// and the page's `Content-Usage` header, most restrictive first; `None` when the
    /// robot may not fetch the page, or nothing states any.
    usage: Option<Usage>,
}

/// `robotscope page`.
pub fn page(args: &PageArgs, db: &RobotsDb) -> Result<Outcome> {
    let site = Source::resolve(&args.url)?;
    let Source::Site { robots_url, page } = &site else {
        bail!("'{}' is a file, not a page: give a URL such as https://example.com/page", args.url);
    };
    let page_url = robots_url.join(page.as_deref().unwrap_or("/")).wrap_err("making the page's URL")?;
    let queries = args.robots.queries_or_defaults(db)?;
    let limits = args.source_options.limits(args.robots.user_agent(db));
    let robots_source = match &args.robots_txt {
        Some(spec) => Source::resolve(spec)?,
        None => site.clone(),
    };
    let runtime =
        tokio::runtime::Builder::new_current_thread().enable_all().build().wrap_err("starting the runtime")?;
    // robots.txt first: robotscope fetches the page only if one of the robots asked about
    // may (RFC 9309 §2.3), unless told to ignore it. One timeout bounds the whole
    // command: the robots.txt's retrieval bounds itself by it (a fetch as a whole, a
    // local read on a thread it abandons, which then says what it waited on: a FIFO
    // nobody writes to), and the page gets what is left of it.
    let deadline = tokio::time::Instant::now() + limits.timeout;
    let work = async {
        let retrieved = fetch::retrieve(robots_source, limits.clone()).await?;
        let txt = Arc::new(limits.parse(retrieved.bytes().to_vec()));
        let obey = Obey {
            txt: Arc::clone(&txt),
            availability: retrieved.availability(),
            robots: queries.iter().map(|query| (query.robot.clone(), query.reading)).collect(),
        };
        let obey = (!args.ignore_robots_txt).then_some(&obey);
        let page = fetch::fetch_page(&page_url, &limits, obey);
        let fetched = tokio::time::timeout_at(deadline, page)
            .await
            .map_err(|_| {
                color_eyre::eyre::eyre!("no complete answer within {} s (--timeout)", limits.timeout.as_secs())
            })?
            .map_err(|error| {
                color_eyre::eyre::eyre!("cannot fetch the page {}: {error}", sanitize_str(page_url.as_str()))
            })?;
        Ok::<_, color_eyre::eyre::Report>((retrieved, fetched))
    };
    let (retrieved, fetched) = runtime.block_on(work)?;
    report_fetch(&retrieved, &limits);
    super::keep_in_store(&retrieved, &args.source_options);
    let txt = limits.parse(retrieved.bytes().to_vec());
    let availability = retrieved.availability();
    let fetch_notes = fetched.notes(&limits);

    let mode = args.url_options.mode();
    let request = Request::new(page_url.as_str(), mode);
    let answers: Vec<Answer> = queries
        .iter()
        .map(|query| {
            let spec = (query.label.clone(), query.robot.clone(), query.reading);
            let column = Column::all_as(&txt, [spec], mode).pop().expect("one column for one robot");
            let decision = column.check(availability, request.tested());
            let record = CheckRecord::new(&txt, availability, &column, decision, &query.label, &request);
            let PageAnswer { crawl, policy, usage } =
                fetched.answer(&txt, availability, &column.robot, column.reading, mode);
            Answer { column, record, crawl, policy, usage }
        })
        .collect();

    let mut out = BufWriter::new(io::stdout().lock());
    let written = if args.json {
        write_json(&mut out, &answers, fetched.page.as_ref(), fetched.signals.content_usage.as_deref(), &fetch_notes)
    } else {
        write_text(&mut out, &answers, &fetched, &fetch_notes, availability)
    };
    finish_output(written.and_then(|()| out.flush()))?;
    let all_open = answers.iter().all(|a| a.policy.index.as_ref().is_some_and(|index| index.allowed));
    Ok(if all_open { Outcome::Clean } else { Outcome::Findings })
}

fn write_json(
    out: &mut dyn Write,
    answers: &[Answer],
    fetched: Option<&Fetched>,
    usage_header: Option<&str>,
    fetch_notes: &[String],
) -> io::Result<()> {
    for answer in answers {
        let policy = &answer.policy;
        let sources = policy
            .terms
            .iter()
            .map(|applied| match &applied.source {
                TermSource::Meta { line, name } => {
                    SourceRecord::Meta { term: applied.term.to_string(), line: *line, name: name.clone() }
                }
                TermSource::Header { value, agent } => SourceRecord::Header {
                    term: applied.term.to_string(),
                    value: value.to_string(),
                    agent: agent.clone(),
                },
            })
            .collect();
        let record = PageRecord {
            agent: answer.record.agent,
            url: answer.record.url,
            status: fetched.map(|page| page.status.code()),
            semantics: answer.column.reading.name(),
            crawl: policy.crawl,
            crawl_line: answer.record.line,
            crawl_rule: answer.record.rule.clone(),
            index: policy.index.as_ref().map(|a| a.allowed),
            follow: policy.follow.as_ref().map(|a| a.allowed),
            terms: policy.terms.iter().map(|t| t.term.to_string()).collect(),
            sources,
            usage: answer.usage.as_ref().map(UsageRecord::of),
            usage_lines: answer.usage.as_ref().map(Usage::lines).unwrap_or_default(),
            usage_header,
            conflicts: &policy.conflicts,
            notes: fetch_notes
                .iter()
                .cloned()
                .chain(redirect_note(&answer.crawl))
                .chain(policy.notes.iter().cloned())
                .collect(),
        };
        json::write_line(out, &record)?;
    }
    Ok(())
}

fn write_text(
    out: &mut dyn Write,
    answers: &[Answer],
    page: &PageFetch,
    fetch_notes: &[String],
    availability: policy::Availability,
) -> io::Result<()> {
    let signals = &page.signals;
    match &page.page {
        Some(fetched) => writeln!(out, "{}", sanitize_str(&fetched_summary(&fetched.final_url, fetched)))?,
        None => writeln!(out, "{}: not fetched", sanitize_str(page.url.as_str()))?,
    }
    let tags: Vec<_> = signals.meta.iter().filter(|tag| tag.speaks_to_robots()).collect();
    for tag in &tags {
        writeln!(out, "  line {:<4} {}", tag.line, sanitize_str(&tag.markup()))?;
    }
    for header in &signals.headers {
        writeln!(out, "  header    X-Robots-Tag: {}", sanitize_str(&header.value))?;
    }
    if let Some(usage) = &signals.content_usage {
        writeln!(out, "  header    Content-Usage: {}", sanitize_str(usage))?;
    }
    if tags.is_empty() && signals.headers.is_empty() && signals.content_usage.is_none() && page.page.is_some() {
        let what =
            if signals.html { "no robots META tag and no X-Robots-Tag header" } else { "no X-Robots-Tag header" };
        writeln!(out, "  {what}")?;
    }
    for note in fetch_notes {
        writeln!(out, "  note      {}", sanitize_str(note))?;
    }
    for answer in answers {
        let policy = &answer.policy;
        writeln!(out)?;
        writeln!(out, "{} · {}", sanitize_str(&answer.column.label), answer.column.reading.title())?;
        let crawl = if policy.crawl { "yes" } else { "no " };
        let why =
            redirect_note(&answer.crawl).unwrap_or_else(|| answer.record.why(availability, answer.column.reading));
        writeln!(out, "  crawl     {crawl}  {}", sanitize_str(&why))?;
        for (what, verdict) in [("index", &policy.index), ("follow", &policy.follow)] {
            match verdict {
                Some(verdict) => {
                    let word = if verdict.allowed { "yes" } else { "no " };
                    writeln!(out, "  {what:<9} {word}  {}", sanitize_str(&verdict.because.describe()))?;
                }
                None => writeln!(out, "  {what:<9} —    never fetched, so never read")?,
            }
        }
        if let Some(usage) = &answer.usage {
            writeln!(out, "  usage     {}", sanitize_str(&usage.to_string()))?;
        }
        for applied in policy.terms.iter().filter(|t| !t.term.is_index_or_follow()) {
            writeln!(
                out,
                "  also      {}: {} ({})",
                sanitize_str(&applied.term.to_string()),
                sanitize_str(&applied.term.meaning()),
                sanitize_str(&applied.source.to_string())
            )?;
        }
        for conflict in &policy.conflicts {
            writeln!(out, "  conflict  {}", sanitize_str(conflict))?;
        }
        for note in &policy.notes {
            writeln!(out, "  note      {}", sanitize_str(note))?;
        }
    }
    Ok(())
}

/// Why the robot may not fetch the page although robots.txt allows the URL asked for: a
/// redirect to a URL it may not fetch.
fn redirect_note(crawl: &CrawlVerdict) -> Option<String> {
    (crawl.requested.allowed() && !crawl.allowed()).then(|| crawl.explanation())
}

/// `https://example.com/a: 200 OK, text/html, 12,345 bytes, 35 ms`.
fn fetched_summary(url: &Url, fetched: &Fetched) -> String {
    let content_type = fetched.header("content-type").unwrap_or("no Content-Type");
    format!(
        "{url}: {}, {content_type}, {} bytes{}, {} ms",
        fetched.status,
        fetched.body.len(),
        if fetched.truncated { " (cut)" } else { "" },
        fetched.elapsed.as_millis()
    )
}
