//! Checking what sitemaps list against the robots asked: each URL's verdict and
//! deciding rule per robot, with its usage preferences; URLs on another site than the
//! robots.txt's, which its rules do not govern (their own site's robots.txt does: RFC
//! 9309 §2.3), so they get no verdict here; sitemaps robots.txt itself keeps a robot
//! from. Pure: the columns are compiled once, each URL is a fast check per robot.

use std::borrow::Cow;

use url::Url;

use crate::columns::Column;
use crate::policy::Decision;
use crate::policy::request::{Request, UrlMode};
use crate::policy::usage::UsageAnswer;
use crate::policy::{Availability, RobotsTxt};

/// The robots asked, compiled against one robots.txt.
#[derive(Debug)]
pub struct Audit {
    /// One per robot, in the order asked.
    pub columns: Vec<Column>,
    availability: Availability,
    mode: UrlMode,
    /// The robots.txt's site, when it came from one: the URLs its rules govern.
    site: Option<SitemapOrigin>,
}

/// One robot's answer for one URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The verdict and its deciding rule.
    pub decision: Decision,
    /// What the robot may do with the page (RFC 9309 only).
    pub usage: UsageAnswer,
}

/// Every robot's answer for one URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlCheck {
    /// The path as a crawler requests it, as matched.
    pub tested: String,
    /// True when the URL is on another scheme, host or port than the robots.txt's site
    /// (than its sitemap's, for a robots.txt read from a file): this robots.txt does not
    /// govern it, and it gets no verdict.
    pub other_host: bool,
    /// One per column; none for a URL on another host.
    pub findings: Vec<Finding>,
}

impl UrlCheck {
    /// True when some robot asked may not fetch the URL.
    #[must_use]
    pub fn blocked(&self) -> bool {
        self.findings.iter().any(|finding| !finding.decision.allowed())
    }
}

impl Audit {
    /// The robots (`columns`) over one robots.txt's meaning (`availability`), the
    /// robots.txt of `site` when it came from one; URLs are read as `mode` says.
    #[must_use]
    pub fn new(columns: Vec<Column>, availability: Availability, mode: UrlMode, site: Option<&Url>) -> Audit {
        Audit { columns, availability, mode, site: site.map(SitemapOrigin::of) }
    }

    /// True when this robots.txt governs `url`: it is on the robots.txt's site (or, for
    /// a robots.txt from a file, on its sitemap's, which is all there is to go by).
    #[must_use]
    pub fn governs(&self, url: &str, sitemap: &SitemapOrigin) -> bool {
        self.site.as_ref().unwrap_or(sitemap).holds(url)
    }

    /// Each robot's answer for `url`, listed by the sitemap at `sitemap` (whose
    /// [`SitemapOrigin`] is made once for all its URLs).
    #[must_use]
    pub fn check(&self, url: &str, sitemap: &SitemapOrigin) -> UrlCheck {
        let tested = match self.mode {
            UrlMode::AsCrawlersSend => tested_path(url, &sitemap.prefix),
            UrlMode::Raw => Request::new(url, self.mode).into_tested(),
        };
        if !self.governs(url, sitemap) {
            return UrlCheck { other_host: true, tested: tested.into_owned(), findings: Vec::new() };
        }
        let findings = self
            .columns
            .iter()
            .map(|column| {
                let decision = column.check(self.availability, &tested);
                Finding { decision, usage: column.usage(self.availability, decision, &tested) }
            })
            .collect();
        UrlCheck { other_host: false, tested: tested.into_owned(), findings }
    }

    /// The robots (by column) that robots.txt keeps from fetching a sitemap on its own
    /// site, each with the deciding rule: they never read the URLs it lists. A robot
    /// shut out of the whole site (`/`) is left out: its sitemaps are the least of it.
    #[must_use]
    pub fn blocked_sitemap(&self, sitemap: &Url, robots_txt_site: Option<&Url>) -> Vec<(usize, Decision)> {
        if robots_txt_site.is_some_and(|site| site.origin() != sitemap.origin()) {
            return Vec::new();
        }
        let tested = Request::new(sitemap.as_str(), self.mode).into_tested().into_owned();
        self.columns
            .iter()
            .enumerate()
            .filter(|(_, column)| column.check(self.availability, "/").allowed())
            .map(|(index, column)| (index, column.check(self.availability, &tested)))
            .filter(|(_, decision)| !decision.allowed())
            .collect()
    }
}

/// A sitemap's origin (`https://example.com`), made once for the thousands of URLs it
/// lists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SitemapOrigin {
    url: Url,
    prefix: String,
}

impl SitemapOrigin {
    /// The origin of the sitemap at `url`.
    #[must_use]
    pub fn of(url: &Url) -> SitemapOrigin {
        SitemapOrigin { url: url.clone(), prefix: url.origin().ascii_serialization() }
    }

    /// Its origin as URLs on it start (`https://example.com`).
    #[must_use]
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// The sitemap's URL.
    #[must_use]
    pub fn url(&self) -> &Url {
        &self.url
    }

    /// Whether `url` is on the sitemap's scheme, host and port (sitemaps.org: "all
    /// URLs listed in the Sitemap must use the same protocol and reside on the same
    /// host"). A prefix test on the text, cheaper than parsing each of millions of
    /// URLs; a URL that spells its origin otherwise (an explicit default port) is parsed.
    #[must_use]
    pub fn holds(&self, url: &str) -> bool {
        let origin = &self.prefix;
        let prefix_matches = url.get(..origin.len()).is_some_and(|start| start.eq_ignore_ascii_case(origin))
            && matches!(url.as_bytes().get(origin.len()), None | Some(b'/' | b'?' | b'#'));
        prefix_matches || Url::parse(url).is_ok_and(|parsed| parsed.origin() == self.url.origin())
    }
}

/// The path a crawler requests for a listed URL: [`Request::read`]'s answer, without
/// parsing the URL when it starts with the sitemap's origin exactly as the parser would
/// write it and its path and query hold only characters the parser keeps as they are
/// (no `%`, no dot segment, nothing it would encode). Millions of listed URLs are
/// mostly like that; the rest are parsed.
fn tested_path<'u>(url: &'u str, origin: &str) -> Cow<'u, str> {
    let plain = |b: u8| b.is_ascii_alphanumeric() || b"-._~!$&()*+,;=:@/?".contains(&b);
    if let Some(rest) = url.strip_prefix(origin)
        && rest.starts_with('/')
        && rest.bytes().all(plain)
        && !rest.contains("/.")
        && !rest.starts_with("//")
    {
        return Cow::Borrowed(rest);
    }
    Cow::Owned(Request::read(url).into_tested().into_owned())
}

/// The robots.txt's Sitemap lines as URLs: absolute ones as written, relative ones
/// against the site the file came from (when it came from one); the lines that make no
/// URL, with why.
#[must_use]
pub fn sitemaps_of(txt: &RobotsTxt, site: Option<&Url>) -> (Vec<Url>, Vec<String>) {
    let mut urls = Vec::new();
    // Each URL once, found in constant time: a file may hold a hundred thousand lines.
    let mut seen = foldhash::HashSet::default();
    let mut problems = Vec::new();
    for written in txt.sitemaps() {
        let parsed = Url::parse(&written).or_else(|error| match site {
            Some(site) => site.join(&written),
            None => Err(error),
        });
        match parsed {
            Ok(url) if matches!(url.scheme(), "http" | "https") => {
                if seen.insert(url.clone()) {
                    urls.push(url);
                }
            }
            Ok(_) | Err(_) => problems.push(written.into_owned()),
        }
    }
    (urls, problems)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::{Reading, Robot};

    fn audit(text: &str, agents: &[&str]) -> Audit {
        let txt = RobotsTxt::parse(text);
        let columns = Column::all(
            &txt,
            agents.iter().map(|agent| ((*agent).to_owned(), Robot::from_agent(agent), Reading::Rfc9309)),
        );
        Audit::new(columns, Availability::Available, UrlMode::AsCrawlersSend, None)
    }

    #[test]
    fn each_url_gets_each_robots_verdict_and_usage() {
        let audit = audit(
            "User-agent: *\nContent-Signal: ai-train=no\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n",
            &["bot", "GPTBot"],
        );
        let sitemap = SitemapOrigin::of(&Url::parse("https://e.com/sitemap.xml").expect("url"));
        let check = audit.check("https://e.com/private/a?x=%7e", &sitemap);
        assert_eq!(check.tested, "/private/a?x=%7E");
        assert!(check.blocked() && !check.other_host);
        assert_eq!(check.findings[0].decision.rule().map(|r| r.line()), Some(3));
        let open = audit.check("https://e.com/blog", &sitemap);
        assert!(open.findings[0].decision.allowed() && !open.findings[1].decision.allowed());
        assert!(matches!(open.findings[0].usage, UsageAnswer::Stated(_)));
        assert_eq!(open.findings[1].usage, UsageAnswer::NotFetched);
    }

    #[test]
    fn urls_on_another_host_are_told() {
        let audit = audit("User-agent: *\n", &["bot"]);
        let sitemap = SitemapOrigin::of(&Url::parse("https://e.com/s.xml").expect("url"));
        for (url, other) in [
            ("https://e.com/a", false),
            ("HTTPS://E.COM/a", false),
            ("https://e.com:443/a", false),
            ("https://e.com", false),
            ("https://e.com.evil.net/a", true),
            ("http://e.com/a", true),
            ("https://www.e.com/a", true),
        ] {
            let check = audit.check(url, &sitemap);
            assert_eq!(check.other_host, other, "{url}");
            assert_eq!(check.findings.is_empty(), other, "{url}: judged only on its own site");
        }
        // With the robots.txt's site known, that is the site that counts: a sitemap on a
        // CDN lists the site's URLs, and a URL on the CDN is the CDN's robots.txt's.
        let columns = Column::all(
            &RobotsTxt::parse("User-agent: *\nDisallow: /\n"),
            [("bot".to_owned(), Robot::from_agent("bot"), Reading::Rfc9309)],
        );
        let site = Url::parse("https://e.com/robots.txt").expect("url");
        let audit = Audit::new(columns, Availability::Available, UrlMode::AsCrawlersSend, Some(&site));
        let on_cdn = SitemapOrigin::of(&Url::parse("https://cdn.e.net/sitemap.xml").expect("url"));
        assert!(audit.check("https://e.com/a", &on_cdn).blocked());
        let elsewhere = audit.check("https://cdn.e.net/x.html", &on_cdn);
        assert!(elsewhere.other_host && !elsewhere.blocked() && elsewhere.findings.is_empty());
    }

    /// The fast path gives exactly what reading the URL gives, and leaves to the parser
    /// what it would change.
    #[test]
    fn the_fast_path_tests_what_the_parser_would() {
        let origin = "https://e.com";
        for url in [
            "https://e.com/a/b.html",
            "https://e.com/a?x=1&y=2",
            "https://e.com/",
            "https://e.com/a/./b",
            "https://e.com/a/../b",
            "https://e.com/a%7eb",
            "https://e.com/café",
            "https://e.com/a b",
            "https://e.com/a\"b",
            "https://e.com/a#frag",
            "https://e.com//x/y",
            "https://e.com/a?q='x'",
            "https://e.com/a?q=<x>",
            "https://e.com/a{b}",
            "https://E.COM/a",
            "https://e.com:443/a",
            "https://e.com/~user/;p=1:2@x",
            "https://e.com/a/.hidden",
        ] {
            assert_eq!(tested_path(url, origin), Request::read(url).tested(), "{url}");
        }
        assert!(
            matches!(tested_path("https://e.com/a/b?c=d", origin), Cow::Borrowed(_)),
            "the common case is not parsed"
        );
    }

    #[test]
    fn a_sitemap_robots_txt_disallows_is_told_per_robot() {
        let audit =
            audit("User-agent: *\nDisallow: /sitemaps/\n\nUser-agent: Googlebot\nAllow: /\n", &["bot", "Googlebot"]);
        let site = Url::parse("https://e.com/robots.txt").expect("url");
        let sitemap = Url::parse("https://e.com/sitemaps/1.xml").expect("url");
        let blocked = audit.blocked_sitemap(&sitemap, Some(&site));
        assert_eq!(blocked.iter().map(|(column, _)| *column).collect::<Vec<_>>(), [0]);
        let elsewhere = Url::parse("https://cdn.e.com/sitemaps/1.xml").expect("url");
        assert!(audit.blocked_sitemap(&elsewhere, Some(&site)).is_empty(), "another site's robots.txt decides");
    }

    #[test]
    fn sitemap_lines_become_urls() {
        let txt = RobotsTxt::parse(
            "Sitemap: https://e.com/a.xml\nSitemap: /b.xml\nSitemap: https://e.com/a.xml\nSitemap: ftp://e.com/c\n",
        );
        let site = Url::parse("https://e.com/robots.txt").expect("url");
        let (urls, problems) = sitemaps_of(&txt, Some(&site));
        assert_eq!(urls.iter().map(Url::as_str).collect::<Vec<_>>(), ["https://e.com/a.xml", "https://e.com/b.xml"]);
        assert_eq!(problems, ["ftp://e.com/c"]);
        let (urls, problems) = sitemaps_of(&txt, None);
        assert_eq!((urls.len(), problems.len()), (1, 2), "a relative line needs the site");
    }
}
