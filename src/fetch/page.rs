//! Fetching a page for its own policy (`p`, `robotscope page`), and what robots.txt must
//! allow for that fetch.
//!
//! A robot checks every URL it fetches against the robots.txt of that URL's own site
//! (RFC 9309 §2.3: a robots.txt speaks for the scheme, host and port it is served
//! from). A page whose redirects run through other sites is therefore only crawled when
//! each of those sites' robots.txt lets the robot fetch its URL, so [`fetch_page`] also
//! fetches those files, with what is left of the same time limit.
//!
//! robotscope obeys robots.txt too ([`Obey`]): it asks for the page, and follows each
//! redirect, only while one of the robots it answers for may fetch that URL; a page
//! robots.txt keeps them all out of is not fetched, and the answer says so (`page
//! --ignore-robots-txt`, `r` in the explorer, fetch it anyway).

use std::sync::Arc;
use std::time::{Duration, Instant};

use url::{Origin, Url};

use super::{FetchError, Fetched, Gate, Limits, fetch, fetch_gated};
use crate::policy::page::{
    CrawlVerdict, MAX_ELEMENT_DEPTH, PageAnswer, PageSignals, SiteRobots, crawl_verdict, page_answer,
};
use crate::policy::request::{Request, UrlMode};
use crate::policy::{Availability, Reading, Robot, RobotsTxt, evaluate_fetched};

/// A page fetched for its policy, with the robots.txt of every other site its redirects
/// went through.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageFetch {
    /// The URL asked for.
    pub url: Url,
    /// The page's response and the redirects that led to it; `None` when robots.txt
    /// keeps every robot asked about out of the URL, so it was not fetched.
    pub page: Option<Fetched>,
    /// What it says to robots: its META tags and X-Robots-Tag headers (none when it was
    /// not fetched).
    pub signals: PageSignals,
    /// The robots.txt of each other site a redirect led to, in the order reached.
    pub other_sites: Vec<OtherSite>,
}

/// The robots a page fetch is for, and the robots.txt of the page's site: the fetch goes
/// on only while one of them may fetch each URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Obey {
    /// The page's site's robots.txt.
    pub txt: Arc<RobotsTxt>,
    /// How it was obtained.
    pub availability: Availability,
    /// The robots asked about, each under its reading.
    pub robots: Vec<(Robot, Reading)>,
}

impl Obey {
    /// True when one of the robots may fetch `url` by `txt` (`availability`).
    fn lets_one_in(&self, txt: &RobotsTxt, availability: Availability, url: &Url) -> bool {
        let tested = Request::read(url.as_str()).into_tested().into_owned();
        self.robots
            .iter()
            .any(|(robot, reading)| evaluate_fetched(txt, availability, robot, &tested, *reading).allowed())
    }
}

/// The gate of a page fetch: a redirect is followed when one of the robots asked about
/// may fetch its target, by the robots.txt of the target's own site (fetched on the
/// way, and kept).
struct RobotsGate<'a> {
    obey: Option<&'a Obey>,
    home: Origin,
    limits: &'a Limits,
    started: Instant,
    other_sites: Vec<OtherSite>,
}

impl RobotsGate<'_> {
    /// The robots.txt of `target`'s site, fetched once, within what is left of the time.
    async fn other_site(&mut self, target: &Url) -> Option<&OtherSite> {
        if !self.other_sites.iter().any(|site| site.robots_url.origin() == target.origin()) {
            let robots_url = target.join("/robots.txt").ok()?;
            let left = self.limits.timeout.saturating_sub(self.started.elapsed()).max(Duration::from_millis(1));
            let outcome = fetch(&robots_url, &Limits { timeout: left, ..self.limits.clone() }).await;
            self.other_sites.push(OtherSite::from_outcome(robots_url, outcome, self.limits));
        }
        self.other_sites.iter().find(|site| site.robots_url.origin() == target.origin())
    }
}

impl Gate for RobotsGate<'_> {
    async fn may_follow(&mut self, target: &Url) -> bool {
        let obey = self.obey;
        if target.origin() == self.home {
            return obey.is_none_or(|obey| obey.lets_one_in(&obey.txt, obey.availability, target));
        }
        let Some(site) = self.other_site(target).await else { return true };
        obey.is_none_or(|obey| obey.lets_one_in(&site.txt, site.availability, target))
    }
}

/// The robots.txt of a site that a redirect led to, other than the page's own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OtherSite {
    /// The robots.txt URL.
    pub robots_url: Url,
    /// The file (empty when it could not be had).
    pub txt: RobotsTxt,
    /// What the fetch's outcome means for its rules.
    pub availability: Availability,
    /// The outcome in words: `200 OK`, or why there was no answer.
    pub outcome: String,
}

/// Fetches a page with `limits`, and the robots.txt of every other site its redirects
/// lead to; all within `limits.timeout`. A robots.txt that cannot be had counts as the
/// reading says (RFC 9309 §2.3.1.4: unreachable means disallow). With `obey`, the page
/// and each redirect are fetched only when one of its robots may fetch them.
pub async fn fetch_page(url: &Url, limits: &Limits, obey: Option<&Obey>) -> Result<PageFetch, FetchError> {
    if let Some(obey) = obey
        && !obey.lets_one_in(&obey.txt, obey.availability, url)
    {
        return Ok(PageFetch {
            url: url.clone(),
            page: None,
            signals: PageSignals::default(),
            other_sites: Vec::new(),
        });
    }
    let mut gate = RobotsGate { obey, home: url.origin(), limits, started: Instant::now(), other_sites: Vec::new() };
    let page = fetch_gated(url, limits, &mut gate).await?;
    // Without robots to obey, the gate fetched no robots.txt: the other sites' files are
    // fetched now, for the crawl answers.
    for target in page.urls_fetched().skip(1) {
        if target.origin() != gate.home {
            gate.other_site(target).await;
        }
    }
    // Reading the HTML is the one slow step a hostile page can make slower: off the async
    // threads, so that the caller's timeout still holds.
    let (status, headers, body) = (page.status.code(), page.headers.clone(), page.body.clone());
    let signals = tokio::task::spawn_blocking(move || PageSignals::read(status, &headers, &body))
        .await
        .map_err(|error| FetchError::Client(format!("reading the page failed: {error}")))?;
    Ok(PageFetch { url: url.clone(), page: Some(page), signals, other_sites: gate.other_sites })
}

impl OtherSite {
    fn from_outcome(robots_url: Url, outcome: Result<Fetched, FetchError>, limits: &Limits) -> OtherSite {
        match outcome {
            Ok(fetched) => OtherSite {
                outcome: fetched.status.to_string(),
                availability: fetched.availability(),
                txt: limits.parse(fetched.body),
                robots_url,
            },
            Err(error) => OtherSite {
                outcome: error.to_string(),
                availability: error.availability(),
                txt: RobotsTxt::default(),
                robots_url,
            },
        }
    }
}

impl PageFetch {
    /// What robots.txt says about fetching the page for `robot`: `txt` (with
    /// `availability`) is the page's site's robots.txt; the other sites' files judge
    /// their own URLs, each read as `mode` says (see [`crawl_verdict`]).
    #[must_use]
    pub fn crawl(
        &self,
        txt: &RobotsTxt,
        availability: Availability,
        robot: &Robot,
        reading: Reading,
        mode: UrlMode,
    ) -> CrawlVerdict {
        let robots_url = self.url.join("/robots.txt").ok();
        let home = SiteRobots { robots_url: robots_url.as_ref(), txt, availability };
        // Every URL the redirects led to, the one robotscope did not follow included.
        let targets: Vec<&Url> =
            self.page.iter().flat_map(|page| page.urls_fetched().skip(1).chain(page.refused.as_ref())).collect();
        let others = |target: &Url| {
            let site = self.other_sites.iter().find(|site| site.robots_url.origin() == target.origin())?;
            Some(SiteRobots { robots_url: Some(&site.robots_url), txt: &site.txt, availability: site.availability })
        };
        crawl_verdict(robot, reading, mode, &self.url, &targets, &home, &others)
    }

    /// The robot's answers for the page: may it fetch it (under `txt`, the page's site's
    /// robots.txt, and the other sites' for their URLs), and then index it and follow its
    /// links (see [`page_answer`]).
    #[must_use]
    pub fn answer(
        &self,
        txt: &RobotsTxt,
        availability: Availability,
        robot: &Robot,
        reading: Reading,
        mode: UrlMode,
    ) -> PageAnswer {
        let crawl = self.crawl(txt, availability, robot, reading, mode);
        let fetched_whole = self.page.as_ref().is_some_and(|page| page.refused.is_none());
        let home = SiteRobots { robots_url: None, txt, availability };
        page_answer(&home, crawl, &self.signals, robot, reading, fetched_whole)
    }

    /// What a user should know about the fetch: a page robotscope did not fetch, a status
    /// with no page, a body cut at the size cap, the redirects and the other sites'
    /// robots.txt, a loop.
    #[must_use]
    pub fn notes(&self, limits: &Limits) -> Vec<String> {
        let Some(page) = &self.page else {
            return vec![format!(
                "robotscope did not fetch {}: robots.txt keeps every robot asked about out of it, and robotscope \
                 obeys robots.txt (page --ignore-robots-txt, or r in the explorer, fetches it anyway)",
                self.url
            )];
        };
        let mut notes = Vec::new();
        if self.signals.too_deep {
            notes.push(format!(
                "the page nests elements more than {MAX_ELEMENT_DEPTH} deep: robotscope read it up to there (META \
                 tags belong in the head, long before)"
            ));
        }
        if let Some(summary) = page.redirect_summary().filter(|_| page.refused.is_some()) {
            notes.push(format!("{summary} (page --ignore-robots-txt, or r in the explorer, follows it anyway)"));
        }
        if !page.status.is_success() && page.refused.is_none() {
            notes.push(format!("the page answered {}: there is no page to index and no links to follow", page.status));
        }
        if page.truncated {
            notes.push(format!(
                "only the first {} bytes of the page were read (--max-bytes): META tags after them are not seen",
                limits.max_bytes
            ));
        }
        if page.redirect_loop {
            notes.push("the redirects go round in a loop: there is no page".to_owned());
        } else if let Some(first) = page.hops.first().filter(|_| page.refused.is_none()) {
            notes.push(format!(
                "{} answered {} and the page came from {}: a robot checks each URL it is sent to against its \
                 site's robots.txt before fetching it, and so does robotscope",
                first.url, first.status, page.final_url
            ));
        }
        for site in &self.other_sites {
            notes.push(format!("{} (for the redirect to its site): {}", site.robots_url, site.outcome));
        }
        notes
    }
}
