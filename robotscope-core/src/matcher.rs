//! [`Matcher`]: the face a crawler uses. One robot, one reading, compiled once; then
//! "may I fetch this URL?" as often as needed, with the deciding line, and the group's
//! Crawl-delay, Request-rate and Visit-time.
//!
//! A matcher reads URLs and paths as [`Request::read`] does (what a crawler requests:
//! non-ASCII percent-encoded as UTF-8, escapes upper-cased, dot segments resolved); the
//! host of a URL is not looked at, since a robots.txt speaks for the one origin it was
//! fetched from (RFC 9309 §2.3) and the caller knows which that is.

use std::time::Duration;

use super::agent::{Robot, Selection};
use super::availability::{Access, Availability};
use super::compiled::{CompiledPolicy, Decision};
use super::extensions::{RequestRate, VisitTime, crawl_delay};
use super::parse::{FieldKind, RobotsTxt};
use super::reading::Reading;
use super::request::{Request, UrlMode};
use super::usage::{Usage, UsageRules};
use super::verdict::{Verdict, evaluate};

/// One robot's rules under one reading, compiled for answering many URLs.
///
/// Building a matcher takes time in proportion to the rules that apply; each answer
/// then takes a binary search or two and, for wildcard rules, one scan of the path.
/// A matcher owns what it needs: it does not borrow the [`RobotsTxt`].
///
/// # Examples
///
/// ```
/// use robotscope_core::{Matcher, Reading, RobotsTxt};
/// let txt = RobotsTxt::parse(b"User-agent: *\nDisallow: /private/\nAllow: /private/open\nCrawl-delay: 2\n".to_vec());
/// let matcher = Matcher::new(&txt, "ExampleBot", Reading::Rfc9309);
/// assert!(matcher.allowed("https://example.com/"));
/// assert!(!matcher.allowed("/private/x"));
/// let decision = matcher.decide("/private/open/file");
/// assert!(decision.allowed());
/// assert_eq!(decision.line(), Some(3));
/// assert_eq!(matcher.crawl_delay(), Some(std::time::Duration::from_secs(2)));
/// ```
#[derive(Debug, Clone)]
pub struct Matcher {
    compiled: CompiledPolicy,
    /// What fetching the file allows: its rules, everything (a 4xx) or nothing (a 5xx,
    /// no answer).
    access: Access,
    /// The usage preferences, under RFC 9309 only.
    usage: Option<UsageRules>,
    url_mode: UrlMode,
    crawl_delay: Option<Duration>,
    request_rate: Option<RequestRate>,
    visit_time: Option<VisitTime>,
}

impl Matcher {
    /// Compiles the rules for the robot whose product token is `token` (`Googlebot`,
    /// `GPTBot`): under RFC 9309 the groups that name it, else the `*` group; under the
    /// classic readings the first record whose name it contains.
    ///
    /// `token` is a product token, not a User-Agent header: `MyCrawler/1.0` or
    /// `Mozilla/5.0 (compatible; MyCrawler/1.0)` name no group under RFC 9309 (as in
    /// Google's library) and get the `*` group without a word.
    /// [`is_valid_token`](crate::is_valid_token) checks a token and
    /// [`suggest_token`](crate::suggest_token) finds one in a header.
    #[must_use]
    pub fn new(txt: &RobotsTxt, token: &str, reading: Reading) -> Matcher {
        Matcher::for_robot(txt, &Robot::from_agent(token), reading)
    }

    /// Compiles the rules for a [`Robot`], with its fallback tokens and flags.
    #[must_use]
    pub fn for_robot(txt: &RobotsTxt, robot: &Robot, reading: Reading) -> Matcher {
        Matcher::for_robot_as(txt, robot, reading, UrlMode::AsCrawlersSend)
    }

    /// [`Matcher::for_robot`] for URLs read as `mode` says. [`UrlMode::Raw`] takes them
    /// byte for byte as Google's library does: the caller hands already-encoded URLs,
    /// their path, params and query are compared as they are, and the rules meet them as
    /// Google's library normalises a rule.
    ///
    /// ```
    /// use robotscope_core::{Matcher, Reading, Robot, RobotsTxt, UrlMode};
    /// let txt = RobotsTxt::parse(b"User-agent: *\nDisallow: /a<d\n".to_vec());
    /// let robot = Robot::from_agent("bot");
    /// // As a crawler requests it, `/a<d` is `/a%3Cd`, and the rule is read the same way.
    /// assert!(!Matcher::for_robot(&txt, &robot, Reading::Rfc9309).allowed("/a<d"));
    /// assert!(!Matcher::for_robot(&txt, &robot, Reading::Rfc9309).allowed("/a%3Cd"));
    /// // Byte for byte, as Google's library compares them.
    /// let raw = Matcher::for_robot_as(&txt, &robot, Reading::Rfc9309, UrlMode::Raw);
    /// assert!(!raw.allowed("/a<d"));
    /// assert!(raw.allowed("/a%3Cd"));
    /// ```
    #[must_use]
    pub fn for_robot_as(txt: &RobotsTxt, robot: &Robot, reading: Reading, mode: UrlMode) -> Matcher {
        Matcher::compiled(txt, CompiledPolicy::reusing(txt, robot, reading, mode, []), reading, mode)
    }

    part! {
        /// A matcher for each of `robots` (a robot and its reading), for URLs read as
        /// `mode` says: robots that get the same groups under the same reading share one
        /// copy of the compiled rules (the robots of a comparison that all fall back to `*`
        /// share one), which matters when the file holds millions of rules.
        ///
        /// ```
        /// # #[cfg(feature = "parts")] {
        /// use robotscope_core::request::UrlMode;
        /// use robotscope_core::{Matcher, Reading, Robot, RobotsTxt};
        /// let txt = RobotsTxt::parse("User-agent: *\nDisallow: /x\n\nUser-agent: c-bot\nDisallow: /\n");
        /// let robots = ["a-bot", "b-bot", "c-bot"].map(|token| (Robot::from_agent(token), Reading::Rfc9309));
        /// let matchers = Matcher::for_robots(&txt, &robots, UrlMode::AsCrawlersSend);
        /// let allowed: Vec<bool> = matchers.iter().map(|matcher| matcher.allowed("/y")).collect();
        /// assert_eq!(allowed, [true, true, false]);
        /// # }
        /// ```
        #[must_use]
        pub fn for_robots(txt: &RobotsTxt, robots: &[(Robot, Reading)], mode: UrlMode) -> Vec<Matcher> {
            let mut matchers: Vec<Matcher> = Vec::with_capacity(robots.len());
            for (robot, reading) in robots {
                let earlier = matchers.iter().map(|matcher| &matcher.compiled);
                let compiled = CompiledPolicy::reusing(txt, robot, *reading, mode, earlier);
                matchers.push(Matcher::compiled(txt, compiled, *reading, mode));
            }
            matchers
        }
    }

    part! {
        /// The rules of the groups of `selection` (see
        /// [`select_whole_name`](super::agent::select_whole_name)), for URLs read as `mode`
        /// says.
        #[must_use]
        pub fn for_selection(txt: &RobotsTxt, selection: Selection, reading: Reading, mode: UrlMode) -> Matcher {
            Matcher::compiled(txt, CompiledPolicy::for_selection(txt, selection, reading, mode), reading, mode)
        }
    }

    /// The matcher for a file that fetching it gave as `availability` says, as
    /// [`Availability::access`] reads it under the matcher's reading. Under RFC 9309
    /// (§2.3.1): an available file answers by its rules; a 4xx (no file), and a redirect
    /// chain given up on (§2.3.1.2), allow every URL; a 5xx, a 429 or no answer at all
    /// disallow every URL for now. The classic readings differ (a 401 or 403 closes the
    /// site, a redirect given up on is a failure): [`Availability::access`] gives every
    /// status's answer under every reading.
    ///
    /// Without rules there is no Crawl-delay, Request-rate, Visit-time or usage
    /// preference either (the body of a 404 page says nothing to robots), and a
    /// [`Decision`] names no rule. `Matcher::selection` (a part) still says which groups the
    /// text would give. The last availability given counts: `Available` brings the
    /// rules back.
    ///
    /// ```
    /// use robotscope_core::{Availability, Matcher, Reading, RobotsTxt};
    /// let txt = RobotsTxt::parse("User-agent: *\nDisallow: /x\nCrawl-delay: 3\n");
    /// let given = |availability| Matcher::new(&txt, "bot", Reading::Rfc9309).with_availability(availability);
    /// assert!(!given(Availability::Available).allowed("/x"));
    /// assert!(given(Availability::Available).allowed("/y"));
    /// assert!(given(Availability::Status(404)).allowed("/x"));
    /// assert!(!given(Availability::Status(503)).allowed("/y"));
    /// assert!(!given(Availability::TimedOut).allowed("/y"));
    /// assert_eq!(given(Availability::Status(404)).crawl_delay(), None);
    /// assert_eq!(given(Availability::Status(503)).decide("/y").line(), None);
    /// // The last one given counts.
    /// let back = given(Availability::Status(503)).with_availability(Availability::Available);
    /// assert_eq!(back.crawl_delay(), Some(std::time::Duration::from_secs(3)));
    /// assert!(back.allowed("/y"));
    /// ```
    #[must_use]
    pub fn with_availability(self, availability: Availability) -> Matcher {
        Matcher { access: availability.access(self.reading()), ..self }
    }

    /// What the file's rules say, when fetching it gave them: the group extensions and
    /// usage preferences are the file's only then.
    fn read_rules(&self) -> bool {
        self.access == Access::Rules
    }

    /// A matcher around compiled rules: the extensions of their groups read.
    fn compiled(txt: &RobotsTxt, compiled: CompiledPolicy, reading: Reading, mode: UrlMode) -> Matcher {
        let interpretation = txt.interpretation(reading);
        // The first value of each extension that reads as one, from the groups that
        // apply, in file order: the extensions belong to the group as rules do.
        let values = |kind: FieldKind| {
            compiled
                .selection()
                .groups()
                .iter()
                .flat_map(|&group| interpretation.groups()[group].extensions())
                .map(|&field| &interpretation.fields()[field])
                .filter(move |field| field.kind() == kind)
                .map(|field| String::from_utf8_lossy(txt.text(&field.value())).into_owned())
        };
        Matcher {
            crawl_delay: values(FieldKind::CrawlDelay).find_map(|value| crawl_delay(&value)),
            request_rate: values(FieldKind::RequestRate).find_map(|value| RequestRate::parse(&value)),
            visit_time: values(FieldKind::VisitTime).find_map(|value| VisitTime::parse(&value)),
            url_mode: mode,
            access: Access::Rules,
            usage: (reading == Reading::Rfc9309).then(|| UsageRules::of(txt, compiled.selection())),
            compiled,
        }
    }

    /// Whether the robot may fetch `url` (a URL, or a path starting with `/`).
    ///
    /// Only the path, params and query count: a URL on another host is answered by
    /// these rules all the same, although its own site's robots.txt decides for it (RFC
    /// 9309 §2.3; `request::Request::is_on_another_site`, a part, tells). `/robots.txt` itself gets the
    /// rules' answer, although RFC 9309 §2.2.2 lets a crawler always fetch it.
    #[must_use]
    pub fn allowed(&self, url: &str) -> bool {
        self.decide(url).allowed()
    }

    /// Whether the robot may fetch `url`, and which rule decided.
    #[must_use]
    pub fn decide(&self, url: &str) -> Decision {
        self.decide_tested(&Request::tested_path(url, self.url_mode))
    }

    part! {
        /// Whether the robot may fetch `path`, taken exactly as given: the path a robot
        /// requests, already in the form [`Request::tested`] gives (no reading, no
        /// normalisation). For callers that normalise their URLs once and check them many
        /// times.
        #[must_use]
        pub fn decide_tested(&self, path: &str) -> Decision {
            match self.access {
                Access::Rules => self.compiled.check(path),
                access => Decision::without_rule(access == Access::AllowAll),
            }
        }
    }

    part! {
        /// The groups that apply and how they were chosen.
        #[must_use]
        pub fn selection(&self) -> &Selection {
            self.compiled.selection()
        }
    }

    /// How URLs and paths are read.
    #[must_use]
    pub fn url_mode(&self) -> UrlMode {
        self.url_mode
    }

    /// The reading the rules were compiled for.
    #[must_use]
    pub fn reading(&self) -> Reading {
        self.compiled.reading()
    }

    /// The bytes the compiled rules hold. Compiling takes time in proportion to it, and
    /// it stays in proportion to the file's size whatever the rules hold. (Matchers made
    /// together by `Matcher::for_robots` (a part) that share their rules each count them.)
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.compiled.memory_bytes()
    }

    /// What the robot may do with `url` once fetched (train AI, search, AI input), by
    /// the groups' Content-Usage and Content-Signal lines (see [`Usage`](crate::Usage)).
    /// `None` when the robot may not fetch `url` (a disallowed path has no preferences),
    /// under the classic readings, which know neither field, and when fetching the file
    /// gave no rules ([`Matcher::with_availability`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use robotscope_core::{Category, Preference};
    /// use robotscope_core::{Matcher, Reading, RobotsTxt};
    /// let txt = RobotsTxt::parse("User-agent: *\nContent-Signal: search=yes, ai-train=no\nDisallow: /x\n");
    /// let usage = Matcher::new(&txt, "bot", Reading::Rfc9309).usage("/a").expect("crawlable");
    /// assert_eq!(usage.get(Category::TrainAi).preference(), Preference::Disallowed);
    /// assert_eq!(usage.get(Category::TrainAi).lines(), [2]);
    /// assert!(Matcher::new(&txt, "bot", Reading::Rfc9309).usage("/x").is_none());
    /// ```
    #[must_use]
    pub fn usage(&self, url: &str) -> Option<Usage> {
        let tested = Request::tested_path(url, self.url_mode);
        let rules = self.usage_rules()?;
        self.decide_tested(&tested).allowed().then(|| rules.answer(&tested))
    }

    part! {
        /// The usage preferences of the groups that apply (`None` under the classic
        /// readings, and when fetching the file gave no rules), for a caller that has
        /// decided a path already.
        #[must_use]
        pub fn usage_rules(&self) -> Option<&UsageRules> {
            self.usage.as_ref().filter(|_| self.read_rules())
        }
    }

    /// The group's `Crawl-delay`: how long to wait between fetches (Bing, Yandex; not
    /// in RFC 9309, and Google ignores it). As the file says it, uncapped: a crawler
    /// should put its own bound on it (`Crawl-delay: 1e10` is 317 years).
    #[must_use]
    pub fn crawl_delay(&self) -> Option<Duration> {
        self.crawl_delay.filter(|_| self.read_rules())
    }

    /// The group's `Request-rate` (`1/10s`).
    #[must_use]
    pub fn request_rate(&self) -> Option<RequestRate> {
        self.request_rate.filter(|_| self.read_rules())
    }

    /// The group's `Visit-time`: the UTC window to fetch in.
    #[must_use]
    pub fn visit_time(&self) -> Option<VisitTime> {
        self.visit_time.filter(|_| self.read_rules())
    }
}

/// The slow path that says why: may `robot` fetch `url` under `reading`, which line
/// decided, and one line of explanation (with the `parts` feature the verdict also
/// names the rules that matched and lost). It reads the file's rules: a fetch that gave
/// none is [`Availability::access`] and [`Availability::reason`]'s to answer. It walks every rule
/// of the groups that apply; for many URLs, use a [`Matcher`] (which decides the same
/// way, as a property test holds). `url` is read as a crawler requests it, as a
/// matcher reads it unless built with [`Matcher::for_robot_as`] for raw URLs.
///
/// # Examples
///
/// ```
/// use robotscope_core::{Reading, Robot, RobotsTxt, explain};
/// let txt = RobotsTxt::parse(b"User-agent: *\nDisallow: /a\nAllow: /a/b\n".to_vec());
/// let verdict = explain(&txt, &Robot::from_agent("bot"), "/a/b/c", Reading::Rfc9309);
/// assert!(verdict.allowed());
/// assert_eq!(verdict.line(), Some(3));
/// assert!(verdict.explanation().contains("line 3"));
/// ```
#[must_use]
pub fn explain(txt: &RobotsTxt, robot: &Robot, url: &str, reading: Reading) -> Verdict {
    evaluate(txt, robot, Request::read(url).tested(), reading)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_come_from_the_robots_own_group() {
        let txt = RobotsTxt::parse(
            // (A User-agent line after an extension but before any rule continues the
            // group under RFC 9309, as Google reads it: hence the `*` group's rule.)
            b"User-agent: *\nCrawl-delay: 9\nDisallow: /y\n\nUser-agent: slowbot\nCrawl-delay: soon\nCrawl-delay: 3\n\
              Request-rate: 1/10s 0100-0500\nVisit-time: 2200-0600\nDisallow: /x\n"
                .to_vec(),
        );
        let slow = Matcher::new(&txt, "slowbot", Reading::Rfc9309);
        assert_eq!(slow.crawl_delay(), Some(Duration::from_secs(3)), "the first value that reads");
        assert_eq!(slow.request_rate().map(|r| r.interval()), Some(Duration::from_secs(10)));
        assert_eq!(slow.visit_time().map(|w| w.to_string()), Some("2200-0600".to_owned()));
        let other = Matcher::new(&txt, "otherbot", Reading::Rfc9309);
        assert_eq!(other.crawl_delay(), Some(Duration::from_secs(9)));
        assert_eq!(other.request_rate(), None);
    }

    #[test]
    fn urls_are_read_as_crawlers_send_them_unless_raw() {
        let txt = RobotsTxt::parse("User-agent: *\nDisallow: /café\n".as_bytes().to_vec());
        let matcher = Matcher::new(&txt, "bot", Reading::Rfc9309);
        assert!(!matcher.allowed("https://example.com/café/menu"));
        assert!(!matcher.allowed("/caf%c3%a9"));
        let raw = Matcher::for_robot_as(&txt, &Robot::from_agent("bot"), Reading::Rfc9309, UrlMode::Raw);
        assert!(!raw.allowed("https://example.com/caf%C3%A9/menu"));
        assert!(raw.allowed("https://example.com/caf%c3%a9/menu"), "taken byte for byte");
    }

    #[test]
    fn the_slow_path_agrees_with_the_matcher() {
        let txt = RobotsTxt::parse(b"User-agent: *\nDisallow: /*.pdf$\nAllow: /public/*\n".to_vec());
        let robot = Robot::from_agent("bot");
        for reading in Reading::ALL {
            let matcher = Matcher::for_robot(&txt, &robot, reading);
            for url in ["/a.pdf", "/public/a.pdf", "/public/a.pdfx", "https://h.example/x.pdf?q"] {
                let verdict = explain(&txt, &robot, url, reading);
                assert_eq!(matcher.allowed(url), verdict.allowed(), "{url} under {reading:?}");
                assert_eq!(matcher.decide(url).rule(), verdict.decided_by(), "{url}");
            }
        }
    }
}
