//! Surveys: many sites' robots.txt judged for a few robots each, the table research on
//! AI crawlers publishes. A [`Capture`] (a fetch, a file, a WARC record) goes in, and
//! one [`Row`] per robot comes out, its [`Category`] decided as Google's matcher
//! decides every path ([`Reach`]), not by looking for `Disallow: /`, and the HTTP status
//! read as RFC 9309 §2.3.1 says. [`Redirects`] follows a 3xx capture to the capture of
//! its target; [`warc`] reads captures from web archives.
//!
//! Pure: the captures are given. The command line fetches sites and reads files and
//! WARCs into captures, and writes the rows.

mod redirects;
pub mod warc;

pub use redirects::{InMemory, MAX_REDIRECT_HOPS, RedirectMemory, Redirects};

use std::collections::HashMap;

use rayon::prelude::*;

use crate::policy::{
    Access, Availability, Choice, Content, Preference, RFC9309_PARSE_LIMIT_BYTES, Reach, Reading, Robot, RobotsTxt,
    select, sniff, usage,
};

/// What a robot may do with a site, as a survey counts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Category {
    /// It may fetch no path.
    Full,
    /// Some paths and not others.
    Partial,
    /// Every path.
    None,
    /// The site has no robots.txt: a 4xx, which allows everything (RFC 9309 §2.3.1.3).
    Missing,
    /// The server failed or never answered: a 5xx, a 429, a network error, or an
    /// answer that could not be read. RFC 9309 §2.3.1.4 then disallows everything, but
    /// it is no rule of the site's, and is counted apart.
    Unreachable,
    /// A redirect whose target the input does not hold, or one that never ends.
    Redirect,
}

impl Category {
    /// Every category, strictest first.
    pub const ALL: [Category; 6] = [
        Category::Full,
        Category::Partial,
        Category::None,
        Category::Missing,
        Category::Unreachable,
        Category::Redirect,
    ];

    /// Its place in [`Category::ALL`], strictest first: what a table of counts indexes
    /// by, and what a record of it keeps.
    #[must_use]
    pub fn index(self) -> usize {
        // The enum lists them in ALL's order.
        self as usize
    }

    /// The category at `index` in [`Category::ALL`].
    #[must_use]
    pub fn at(index: usize) -> Option<Category> {
        Category::ALL.get(index).copied()
    }

    /// `full`, `partial`, `none`, `missing`, `unreachable` or `redirect`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Category::Full => "full",
            Category::Partial => "partial",
            Category::None => "none",
            Category::Missing => "missing",
            Category::Unreachable => "unreachable",
            Category::Redirect => "redirect",
        }
    }
}

/// Which group a robot reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GroupKind {
    /// A group that names it (or, for a profile, a robot it falls back to).
    Named,
    /// The `*` group.
    Star,
    /// No group: none names it and there is no `*` group, or the file was not read.
    None,
}

impl GroupKind {
    /// `named`, `star` or `none`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            GroupKind::Named => "named",
            GroupKind::Star => "star",
            GroupKind::None => "none",
        }
    }
}

/// The agents *Consent in Crisis* tracks (Longpre et al. 2024) and their companies,
/// then the search engines asked beside them and a robot no group names: the robots
/// surveyed when none are named. `--dpi` gives each company its strictest agent's
/// status (`survey --dpi`).
pub const CONSENT_IN_CRISIS: [(&str, Option<&str>); 14] = [
    ("GPTBot", Some("OpenAI")),
    ("ChatGPT-User", Some("OpenAI")),
    ("Google-Extended", Some("Google")),
    ("CCBot", Some("Common Crawl")),
    ("Amazonbot", Some("Amazon")),
    ("anthropic-ai", Some("Anthropic")),
    ("Claude-Web", Some("Anthropic")),
    ("ClaudeBot", Some("Anthropic")),
    ("cohere-ai", Some("Cohere")),
    ("FacebookBot", Some("Meta")),
    ("ia_archiver", Some("Internet Archive")),
    ("Googlebot", None),
    ("bingbot", None),
    ("*", None),
];

/// A robot a survey asks about, under the name its rows give.
#[derive(Debug, Clone)]
pub struct SurveyRobot {
    /// The name in the rows: the token asked for, or a profile's.
    pub label: String,
    /// Who is judged.
    pub robot: Robot,
    /// Under which reading.
    pub reading: Reading,
}

/// A robots.txt as a survey meets it: one fetch, file or capture.
#[derive(Debug, Clone, Default)]
pub struct Capture {
    /// The robots.txt URL asked for or captured.
    pub url: String,
    /// When it was fetched or captured, as the source writes it.
    pub time: String,
    /// The HTTP status, when there was an answer.
    pub status: Option<u16>,
    /// What the answer means for the rules (a redirect's is decided by its target).
    pub availability: Availability,
    /// The body: the file's bytes for a 2xx.
    pub body: Vec<u8>,
    /// Where a 3xx sends the robot.
    pub location: Option<String>,
    /// True when the body is not whole (cut by the archive or at a cap).
    pub truncated: bool,
    /// What went wrong getting it, if anything.
    pub error: Option<String>,
    /// The month (`YYYY-MM`) it stands for in a monthly series: the latest capture at
    /// or before the month, carried forward.
    pub month: Option<String>,
}

impl From<warc::WarcCapture> for Capture {
    /// A WARC record's capture, as a survey judges it.
    fn from(warc: warc::WarcCapture) -> Capture {
        Capture {
            availability: availability_of(warc.status, warc.unreadable),
            url: warc.url,
            time: warc.date,
            status: warc.status,
            body: warc.body,
            location: warc.location,
            truncated: warc.truncated,
            error: warc.error,
            month: None,
        }
    }
}

/// One capture and robot: the survey's row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The capture's robots.txt URL.
    pub url: String,
    /// The site: its host, and a port other than the scheme's.
    pub site: String,
    /// The robot, as asked.
    pub agent: String,
    pub category: Category,
    pub group: GroupKind,
    /// The first line of the group that decides, when one does.
    pub line: Option<usize>,
    /// The HTTP status the robot met (a redirect's target's, once followed).
    pub status: Option<u16>,
    /// The robots.txt's length: the body of a 2xx (0 when the status decides).
    pub bytes: usize,
    /// When it was fetched or captured.
    pub time: String,
    /// What the file says about training AI on the site's pages (`/`): its
    /// `Content-Usage` and `Content-Signal` lines for the robot, under RFC 9309.
    pub train_ai: Option<Preference>,
    /// True when a web page was served as the robots.txt (it has no rules then).
    pub html: bool,
    /// What went wrong, if anything: the row says as much as could be known.
    pub error: Option<String>,
    /// The month the row stands for, in a monthly series (`YYYY-MM`).
    pub month: Option<String>,
}

/// The site of a robots.txt URL: its host in lower case, and a port other than the
/// scheme's (`example.com`, `example.com:8080`); the URL itself when it has no host.
#[must_use]
pub fn site_of(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(parsed) => match (parsed.host_str(), parsed.port()) {
            (Some(host), Some(port)) => format!("{}:{port}", host.to_ascii_lowercase()),
            (Some(host), None) => host.to_ascii_lowercase(),
            (None, _) => url.to_owned(),
        },
        Err(_) => url.to_owned(),
    }
}

/// What an answer of `status` means for the rules: a 2xx's body holds them, unless
/// its content coding could not be undone (`unreadable`: robots could not read it,
/// as if the server had failed); any other status decides by itself (RFC 9309
/// §2.3.1); no status (no answer could be read) is judged `unreachable`.
#[must_use]
pub fn availability_of(status: Option<u16>, unreadable: bool) -> Availability {
    match status {
        Some(200..=299) if unreadable => Availability::Unreachable,
        Some(200..=299) | None => Availability::Available,
        Some(status) => Availability::Status(status),
    }
}

/// The URL a 3xx capture sends the robot to (its `Location` read against its URL),
/// as [`url_key`] writes it; `None` for any other capture.
#[must_use]
pub fn redirect_target(capture: &Capture) -> Option<String> {
    capture
        .location
        .as_deref()
        .filter(|_| is_redirect(capture.status))
        .and_then(|location| url::Url::parse(&capture.url).ok()?.join(location).ok())
        .map(|target| without_fragment(target).to_string())
}

/// A URL without its fragment, which no client sends: `…/#top` is `…/`.
fn without_fragment(mut url: url::Url) -> url::Url {
    url.set_fragment(None);
    url
}

/// A URL as captures are matched by: parsed and written back, without a fragment
/// (`HTTP://Example.com#top` is `http://example.com/`). A redirect's
/// [`redirect_target`] is the `url_key` of the capture it leads to.
#[must_use]
pub fn url_key(url: &str) -> String {
    url::Url::parse(url).map_or_else(|_| url.to_owned(), |parsed| without_fragment(parsed).to_string())
}

/// True for a status that sends the robot elsewhere.
fn is_redirect(status: Option<u16>) -> bool {
    matches!(status, Some(300..=399))
}

/// The rows of one capture, one per robot in order, the file read as Google reads it
/// (its first 500 KiB under RFC 9309, §2.5). A redirect's rows say `redirect` until
/// [`Redirects`] finds its target.
#[must_use]
pub fn judge(capture: &Capture, robots: &[SurveyRobot]) -> Vec<Row> {
    judge_within(capture, robots, Some(RFC9309_PARSE_LIMIT_BYTES))
}

/// [`judge`], the file read under RFC 9309 to `limit` bytes (`None`: every byte).
#[must_use]
pub fn judge_within(capture: &Capture, robots: &[SurveyRobot], limit: Option<usize>) -> Vec<Row> {
    let row = |robot: &SurveyRobot, category: Category| Row {
        url: capture.url.clone(),
        site: site_of(&capture.url),
        agent: robot.label.clone(),
        category,
        group: GroupKind::None,
        line: None,
        status: capture.status,
        // The robots.txt's length: the page of a 4xx or 5xx is none (and the store,
        // which keeps no such page, would give 0 for it on a rerun).
        bytes: if capture.status.is_none_or(|status| (200..300).contains(&status)) { capture.body.len() } else { 0 },
        time: capture.time.clone(),
        train_ai: None,
        html: false,
        error: capture.error.clone(),
        month: capture.month.clone(),
    };
    if is_redirect(capture.status) || capture.availability.is_redirect_failure() {
        return robots.iter().map(|robot| row(robot, Category::Redirect)).collect();
    }
    if capture.status.is_none() && capture.availability == Availability::Available {
        // No answer could be read from the capture: nothing can be judged.
        return robots.iter().map(|robot| row(robot, Category::Unreachable)).collect();
    }
    let txt = RobotsTxt::parse(capture.body.clone()).with_rfc9309_limit(limit);
    let html = sniff(&capture.body) == Content::Html;
    // Robots that read the same groups under a reading reach the same paths: each set
    // is searched once (the default robots mostly read `*`).
    let mut reached: HashMap<(Reading, Vec<usize>), Reach> = HashMap::new();
    robots
        .iter()
        .map(|robot| {
            let mut judged = row(robot, Category::None);
            match capture.availability.access(robot.reading) {
                Access::Rules => {
                    let interpretation = txt.interpretation(robot.reading);
                    let selection = select(interpretation, &robot.robot, robot.reading);
                    let reach = *reached
                        .entry((robot.reading, selection.groups().to_vec()))
                        .or_insert_with(|| Reach::of(&txt, &robot.robot, robot.reading));
                    judged.category = match reach {
                        Reach::Nothing => Category::Full,
                        Reach::Part => Category::Partial,
                        Reach::Everything => Category::None,
                    };
                    judged.group = match selection.choice() {
                        Choice::Token(_) | Choice::Fallback(_) | Choice::ExactName(_) | Choice::Substring(_) => {
                            GroupKind::Named
                        }
                        Choice::Star => GroupKind::Star,
                        Choice::NoGroup | Choice::StarIgnored | Choice::FileNotRead => GroupKind::None,
                    };
                    judged.line = selection.groups().first().map(|&group| interpretation.groups()[group].first_line());
                    judged.train_ai = (robot.reading == Reading::Rfc9309)
                        .then(|| usage(&txt, &selection, "/").get(crate::policy::Category::TrainAi).preference());
                    judged.html = html;
                }
                Access::AllowAll => judged.category = Category::Missing,
                // The classic readings close the site to a robot on a 401 or 403: that
                // is the site's answer, and the robot may fetch nothing.
                Access::DisallowAll
                    if matches!(capture.availability, Availability::Status(400..=499))
                        && !capture.availability.is_outage() =>
                {
                    judged.category = Category::Full;
                }
                Access::DisallowAll => judged.category = Category::Unreachable,
            }
            judged
        })
        .collect()
}

/// [`judge_within`] for each of `captures`, on every core.
#[must_use]
pub fn judge_each(captures: &[Capture], robots: &[SurveyRobot], limit: Option<usize>) -> Vec<Vec<Row>> {
    captures.par_iter().map(|capture| judge_within(capture, robots, limit)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_category_is_at_its_index_in_all() {
        for (index, category) in Category::ALL.into_iter().enumerate() {
            assert_eq!((category.index(), Category::at(index)), (index, Some(category)));
        }
        assert_eq!(Category::at(Category::ALL.len()), None);
    }

    fn robots(tokens: &[&str]) -> Vec<SurveyRobot> {
        tokens
            .iter()
            .map(|token| SurveyRobot {
                label: (*token).to_owned(),
                robot: Robot::from_agent(token),
                reading: Reading::Rfc9309,
            })
            .collect()
    }

    fn capture(url: &str, status: u16, body: &str) -> Capture {
        let availability =
            if (200..300).contains(&status) { Availability::Available } else { Availability::Status(status) };
        Capture {
            url: url.to_owned(),
            status: Some(status),
            availability,
            body: body.as_bytes().to_vec(),
            ..Capture::default()
        }
    }

    fn categories(rows: &[Row]) -> Vec<&'static str> {
        rows.iter().map(|row| row.category.name()).collect()
    }

    #[test]
    fn categories_are_decided_on_every_path_not_on_the_rule_text() {
        let body = "User-agent: GPTBot\nDisallow: /\n\nUser-agent: CCBot\nDisallow: /*\nAllow: /$\n\n\
                    User-agent: Googlebot\nDisallow: /private\n\nUser-agent: *\nDisallow: /$\nDisallow:\n";
        let rows = judge(
            &capture("https://example.com/robots.txt", 200, body),
            &robots(&["GPTBot", "CCBot", "Googlebot", "ClaudeBot"]),
        );
        // CCBot may fetch `/` alone: partial, though its group starts `Disallow: /*`.
        // `*` disallows `/` alone: partial, though it ends in an empty Disallow.
        assert_eq!(categories(&rows), ["full", "partial", "partial", "partial"]);
        assert_eq!(rows.iter().map(|row| row.group.name()).collect::<Vec<_>>(), ["named", "named", "named", "star"]);
        assert_eq!(rows.iter().map(|row| row.line).collect::<Vec<_>>(), [Some(1), Some(4), Some(8), Some(11)]);
        assert_eq!(rows[0].site, "example.com");
        let empty =
            judge(&capture("https://example.com/robots.txt", 200, "User-agent: *\nDisallow:\n"), &robots(&["GPTBot"]));
        assert_eq!(categories(&empty), ["none"]);
    }

    #[test]
    fn statuses_decide_as_rfc_9309_says() {
        let bots = robots(&["GPTBot"]);
        assert_eq!(
            categories(&judge(&capture("https://a.example/robots.txt", 404, "User-agent: *\nDisallow: /\n"), &bots)),
            ["missing"]
        );
        assert_eq!(categories(&judge(&capture("https://a.example/robots.txt", 503, ""), &bots)), ["unreachable"]);
        assert_eq!(categories(&judge(&capture("https://a.example/robots.txt", 429, ""), &bots)), ["unreachable"]);
        let failed = Capture {
            url: "https://a.example/robots.txt".into(),
            availability: Availability::Unreachable,
            error: Some("refused".into()),
            ..Capture::default()
        };
        assert_eq!(categories(&judge(&failed, &bots)), ["unreachable"]);
        let html = judge(
            &capture("https://a.example/robots.txt", 200, "<!DOCTYPE html><html><body>Home</body></html>"),
            &bots,
        );
        assert_eq!((categories(&html)[0], html[0].html), ("none", true));
        // The 1996 draft reads a 403 as the site closed to robots.
        let draft = vec![SurveyRobot {
            label: "Scooter".into(),
            robot: Robot::from_agent("Scooter"),
            reading: Reading::Draft1996,
        }];
        assert_eq!(categories(&judge(&capture("https://a.example/robots.txt", 403, ""), &draft)), ["full"]);
        assert_eq!(categories(&judge(&capture("https://a.example/robots.txt", 403, ""), &bots)), ["missing"]);
    }

    #[test]
    fn training_preferences_are_read_for_the_robot() {
        let body = "User-agent: *\nContent-Usage: train-ai=n\nAllow: /\n";
        let rows = judge(&capture("https://a.example/robots.txt", 200, body), &robots(&["GPTBot"]));
        assert_eq!(rows[0].train_ai, Some(Preference::Disallowed));
        let rows =
            judge(&capture("https://a.example/robots.txt", 200, "User-agent: *\nAllow: /\n"), &robots(&["GPTBot"]));
        assert_eq!(rows[0].train_ai, Some(Preference::Unknown));
    }
}
