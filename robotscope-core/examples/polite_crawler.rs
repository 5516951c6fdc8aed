//! A polite crawler's loop around the policy core. The fetching is the caller's (any
//! HTTP client will do; here, a small site held in memory), the manners are robots.txt's:
//!
//! * robots.txt is fetched once, before anything else, and its status decides as RFC
//!   9309 §2.3.1 says ([`Availability`]): a 2xx body is the rules (its first 500 KiB, as
//!   Google reads); a 4xx means there are none, except 429, which like a 5xx (or no
//!   answer) means the site is closed for now;
//! * every URL is checked with [`Matcher::decide`] before it is fetched, and the line
//!   that refused it is logged; a link to another site is left for that site's own
//!   robots.txt (RFC 9309 §2.3), not judged by this one;
//! * requests are spaced by the group's Crawl-delay or Request-rate, whichever asks for
//!   more time, up to a bound of the crawler's own; a Visit-time window is reported;
//! * the Sitemap lines, resolved against the site, are the first seeds.
//!
//! ```sh
//! cargo run --release -p robotscope-core --example polite_crawler            # waits as asked
//! cargo run --release -p robotscope-core --example polite_crawler -- --no-wait
//! ```

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::time::Duration;

use robotscope_core::Access;
use robotscope_core::RFC9309_PARSE_LIMIT_BYTES;
use robotscope_core::{Availability, Matcher, Reading, RobotsTxt};
use url::Url;

/// The robot's product token: the name robots.txt groups address.
const TOKEN: &str = "ExampleBot";
/// Pages fetched at most.
const PAGE_LIMIT: usize = 20;
/// The longest pause between requests this crawler accepts, whatever robots.txt asks
/// (`Crawl-delay: 1e10` is 317 years): past it, the site is better left for later.
const MAX_PAUSE: Duration = Duration::from_secs(60);

/// What a fetch gave: a status and a body.
struct Response {
    status: u16,
    body: Vec<u8>,
}

/// The caller's HTTP client: any function from a URL to a response.
trait Fetch {
    fn get(&mut self, url: &str) -> Response;
}

fn main() {
    let wait = !std::env::args().any(|arg| arg == "--no-wait");
    let mut site = ExampleSite::new();
    let log = crawl("https://example.com", &mut site, |pause| {
        if wait {
            std::thread::sleep(pause);
        }
    });
    for line in log {
        println!("{line}");
    }
}

/// Crawls one site from its Sitemap lines, as [`TOKEN`]; returns what it did, a line per
/// step. `wait` is called before each request but the first, with the pause asked for.
fn crawl(origin: &str, client: &mut impl Fetch, mut wait: impl FnMut(Duration)) -> Vec<String> {
    let mut log = Vec::new();
    let site = Url::parse(origin).expect("the site's URL");
    let robots = client.get(site.join("/robots.txt").expect("a robots.txt URL").as_str());
    // RFC 9309 §2.3.1: what the status means for the rules, 429 and 5xx included.
    let availability =
        if (200..300).contains(&robots.status) { Availability::Available } else { Availability::Status(robots.status) };
    let txt = match availability.access(Reading::Rfc9309) {
        Access::Rules => RobotsTxt::parse(&robots.body[..robots.body.len().min(RFC9309_PARSE_LIMIT_BYTES)]),
        Access::AllowAll => RobotsTxt::parse(""),
        Access::DisallowAll => {
            log.push(format!("robots.txt answered {}: the site is closed to robots for now", robots.status));
            return log;
        }
    };
    let robot = Matcher::new(&txt, TOKEN, Reading::Rfc9309);
    // Crawl-delay is seconds between requests; Request-rate `1/10s` is the same ask.
    let asked = [robot.crawl_delay(), robot.request_rate().map(|rate| rate.interval())]
        .into_iter()
        .flatten()
        .max()
        .unwrap_or(Duration::ZERO);
    if asked > MAX_PAUSE {
        log.push(format!("robots.txt asks for {} between requests: more than this crawler waits", humane(asked)));
        return log;
    }
    let interval = asked;
    log.push(format!("robots.txt read: requests {} apart", humane(interval)));
    if let Some(window) = robot.visit_time() {
        // A real crawler would wait for the window; this one says when it is.
        log.push(format!("visits only between {window} UTC"));
    }

    // Sitemap values may be relative (`/sitemap.xml`): resolved against the site.
    let mut frontier: VecDeque<String> =
        txt.sitemaps().filter_map(|value| site.join(&value).ok()).map(String::from).collect();
    let mut seen: HashSet<String> = frontier.iter().cloned().collect();
    let mut fetched = 0;
    while let Some(url) = frontier.pop_front() {
        if fetched == PAGE_LIMIT {
            break;
        }
        let decision = robot.decide(&url);
        if !decision.allowed() {
            let line = decision.line().map_or_else(String::new, |n| format!(" line {n}"));
            log.push(format!("skip  {url} (robots.txt{line})"));
            continue;
        }
        if fetched > 0 && !interval.is_zero() {
            log.push(format!("wait  {}", humane(interval)));
            wait(interval);
        }
        let page = client.get(&url);
        fetched += 1;
        log.push(format!("fetch {url} -> {}", page.status));
        // Each page of the example site lists its links, one per line. A link to another
        // origin (scheme, host, port) is that site's business: its own robots.txt.
        for link in String::from_utf8_lossy(&page.body).lines().filter_map(|line| site.join(line).ok()) {
            if link.origin() != site.origin() {
                log.push(format!("leave {link} (another site: its own robots.txt decides)"));
            } else if seen.insert(link.to_string()) {
                frontier.push_back(link.to_string());
            }
        }
    }
    log
}

fn humane(interval: Duration) -> String {
    if interval.is_zero() { "no delay asked".to_owned() } else { format!("{} ms", interval.as_millis()) }
}

/// A site in memory: a robots.txt and a few pages that link to each other.
struct ExampleSite {
    pages: BTreeMap<&'static str, &'static str>,
}

impl ExampleSite {
    fn new() -> ExampleSite {
        let pages = BTreeMap::from([
            (
                "https://example.com/robots.txt",
                "User-agent: *\nDisallow: /\n\nUser-agent: examplebot\nDisallow: /private/\nAllow: /private/press/\nCrawl-delay: 0.2\nRequest-rate: 1/1s\n\nSitemap: /sitemap.txt\n",
            ),
            ("https://example.com/sitemap.txt", "https://example.com/\nhttps://example.com/about\n"),
            ("https://example.com/", "https://example.com/about\nhttps://example.com/private/drafts\n"),
            (
                "https://example.com/about",
                "https://example.com/private/press/kit\nhttps://example.com/\nhttps://example.com.evil/\n",
            ),
            ("https://example.com/private/press/kit", "https://example.com/private/drafts/2\n"),
        ]);
        ExampleSite { pages }
    }
}

impl Fetch for ExampleSite {
    fn get(&mut self, url: &str) -> Response {
        match self.pages.get(url) {
            Some(body) => Response { status: 200, body: body.as_bytes().to_vec() },
            None => Response { status: 404, body: Vec::new() },
        }
    }
}
