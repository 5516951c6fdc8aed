//! Fetching a page for its own policy (`p`, `robotscope page`), and what robots.txt must
//! allow for that fetch.
//!
//! A robot checks every URL it fetches against the robots.txt of that URL's own site
//! (RFC 9309 §2.3: a robots.txt speaks for the scheme, host and port it is served
//! from). A page whose redirects run through other sites is therefore only crawled when
//! each of those sites' robots.txt lets the robot fetch its URL, so [`fetch_page`] also
//! fetches those files, with what is left of the same time limit.

use std::time::{Duration, Instant};

use url::{Origin, Url};

use super::{FetchError, Fetched, Limits, fetch, status_name};
use crate::policy::page::{Contradictions, PagePolicy, PageSignals, page_policy};
use crate::policy::request::{Request, UrlMode};
use crate::policy::{Availability, Reading, Robot, RobotsTxt, Verdict, evaluate_fetched};

/// A page fetched for its policy, with the robots.txt of every other site its redirects
/// went through.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageFetch {
    /// The page's response and the redirects that led to it.
    pub page: Fetched,
    /// What it says to robots: its META tags and X-Robots-Tag headers.
    pub signals: PageSignals,
    /// The robots.txt of each other site a redirect led to, in the order reached.
    pub other_sites: Vec<OtherSite>,
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
        self.requested.allowed && self.blocked_redirect.is_none()
    }

    /// Why the robot may fetch the page or not, in one sentence: the verdict on the URL
    /// asked for, or on the redirect that keeps it out.
    #[must_use]
    pub fn explanation(&self) -> String {
        match &self.blocked_redirect {
            Some(blocked) if self.requested.allowed => format!(
                "The page redirects to {}, and {} says: {}",
                blocked.url, blocked.robots_url, blocked.verdict.explanation
            ),
            _ => self.requested.explanation.clone(),
        }
    }
}

/// One robot's answers for a page: crawl (robots.txt), then index and follow (the page).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageAnswer {
    /// What robots.txt says about fetching the page.
    pub crawl: CrawlVerdict,
    /// Crawl, index and follow, with their reasons.
    pub policy: PagePolicy,
}

/// Fetches a page with `limits`, then the robots.txt of every other site its redirects
/// led to; all within `limits.timeout`. A robots.txt that cannot be had counts as the
/// reading says (RFC 9309 §2.3.1.4: unreachable means disallow).
pub async fn fetch_page(url: &Url, limits: &Limits) -> Result<PageFetch, FetchError> {
    let started = Instant::now();
    let page = fetch(url, limits).await?;
    let signals = PageSignals::read(page.status, &page.headers, &page.body);
    let mut other_sites: Vec<OtherSite> = Vec::new();
    for target in page.urls_fetched().skip(1) {
        if target.origin() == url.origin() || other_sites.iter().any(|site| site.robots_url.origin() == target.origin())
        {
            continue;
        }
        let Ok(robots_url) = target.join("/robots.txt") else { continue };
        let left = limits.timeout.saturating_sub(started.elapsed()).max(Duration::from_millis(1));
        let outcome = fetch(&robots_url, &Limits { timeout: left, ..limits.clone() }).await;
        let site = match outcome {
            Ok(fetched) => OtherSite {
                outcome: format!("{} {}", fetched.status, status_name(fetched.status)),
                availability: fetched.availability(),
                txt: RobotsTxt::parse(fetched.body),
                robots_url,
            },
            Err(error) => OtherSite {
                outcome: error.to_string(),
                availability: error.availability(),
                txt: RobotsTxt::default(),
                robots_url,
            },
        };
        other_sites.push(site);
    }
    Ok(PageFetch { page, signals, other_sites })
}

impl PageFetch {
    /// What robots.txt says about fetching the page for `robot`: `txt` (with
    /// `availability`) is the page's site's robots.txt; the other sites' files judge
    /// their own URLs, each read as `mode` says.
    #[must_use]
    pub fn crawl(
        &self,
        txt: &RobotsTxt,
        availability: Availability,
        robot: &Robot,
        reading: Reading,
        mode: UrlMode,
    ) -> CrawlVerdict {
        let home = self.page.requested.origin();
        let tested = |url: &Url| Request::new(url.as_str(), mode).tested.into_owned();
        let requested = evaluate_fetched(txt, availability, robot, &tested(&self.page.requested), reading);
        let blocked_redirect = self.page.urls_fetched().skip(1).find_map(|target| {
            let (txt, availability, robots_url) = self.robots_for(&home, target, txt, availability)?;
            let verdict = evaluate_fetched(txt, availability, robot, &tested(target), reading);
            (!verdict.allowed).then(|| BlockedRedirect { url: target.clone(), robots_url, verdict })
        });
        CrawlVerdict { requested, blocked_redirect }
    }

    /// The robot's answers for the page: may it fetch it (under `txt`, the page's site's
    /// robots.txt, and the other sites' for their URLs), and then index it and follow its
    /// links.
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
        let policy = page_policy(&self.signals, robot, Contradictions::of(reading), crawl.allowed());
        PageAnswer { crawl, policy }
    }

    /// The robots.txt that judges `target`: the page's own for its site, else the other
    /// site's, fetched by [`fetch_page`].
    fn robots_for<'a>(
        &'a self,
        home: &Origin,
        target: &Url,
        txt: &'a RobotsTxt,
        availability: Availability,
    ) -> Option<(&'a RobotsTxt, Availability, Url)> {
        if target.origin() == *home {
            return Some((txt, availability, self.page.requested.join("/robots.txt").ok()?));
        }
        let site = self.other_sites.iter().find(|site| site.robots_url.origin() == target.origin())?;
        Some((&site.txt, site.availability, site.robots_url.clone()))
    }

    /// What a user should know about the fetch: a status with no page, a body cut at the
    /// size cap, the redirects and the other sites' robots.txt, a loop.
    #[must_use]
    pub fn notes(&self, limits: &Limits) -> Vec<String> {
        let page = &self.page;
        let mut notes = Vec::new();
        if !(200..300).contains(&page.status) {
            notes.push(format!(
                "the page answered {} {}: there is no page to index and no links to follow",
                page.status,
                status_name(page.status)
            ));
        }
        if page.truncated {
            notes.push(format!(
                "only the first {} bytes of the page were read (--max-bytes): META tags after them are not seen",
                limits.max_bytes
            ));
        }
        if page.redirect_loop {
            notes.push("the redirects go round in a loop: there is no page".to_owned());
        } else if let Some(first) = page.hops.first() {
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
