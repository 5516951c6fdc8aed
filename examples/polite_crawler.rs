//! A polite crawler's loop around the policy core. The fetching is the caller's (any
//! HTTP client will do; here, a small site held in memory), the manners are robots.txt's:
//!
//! * robots.txt is fetched once, before anything else, and its status decides as RFC
//!   9309 §2.3.1 says: a 2xx body is the rules; a 4xx means there are none; a 5xx (or no
//!   answer) means the site is closed for now.
//! * every URL is checked with [`Matcher::allowed`] before it is fetched, and the line
//!   that refused it is logged;
//! * requests are spaced by the group's Crawl-delay or Request-rate, whichever asks for
//!   more time, and only made inside its Visit-time window when it has one;
//! * the Sitemap lines are the first seeds.
//!
//! ```sh
//! cargo run --release --no-default-features --example polite_crawler            # waits as asked
//! cargo run --release --no-default-features --example polite_crawler -- --no-wait
//! ```

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::time::Duration;

use robotscope::{Matcher, Reading, RobotsTxt};

/// The robot's product token: the name robots.txt groups address.
const TOKEN: &str = "ExampleBot";
/// Pages fetched at most.
const PAGE_LIMIT: usize = 20;

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
    let robots = client.get(&format!("{origin}/robots.txt"));
    let txt = match robots.status {
        200..=299 => RobotsTxt::parse(robots.body),
        // RFC 9309 §2.3.1.3: an unavailable file (4xx) means no restrictions.
        400..=499 => RobotsTxt::parse(Vec::new()),
        // §2.3.1.4: an unreachable server (5xx) means complete disallow, for now.
        status => {
            log.push(format!("robots.txt answered {status}: the site is closed to robots for now"));
            return log;
        }
    };
    let robot = Matcher::new(&txt, TOKEN, Reading::Rfc9309);
    // Crawl-delay is seconds between requests; Request-rate `1/10s` is the same ask.
    let interval = [robot.crawl_delay(), robot.request_rate().map(|rate| rate.interval())]
        .into_iter()
        .flatten()
        .max()
        .unwrap_or(Duration::ZERO);
    log.push(format!("robots.txt read: requests {} apart", humane(interval)));
    if let Some(window) = robot.visit_time() {
        // A real crawler would wait for the window; this one says when it is.
        log.push(format!("visits only between {window} UTC"));
    }

    let mut frontier: VecDeque<String> = txt.sitemaps().map(std::borrow::Cow::into_owned).collect();
    let mut seen: HashSet<String> = frontier.iter().cloned().collect();
    let mut fetched = 0;
    while let Some(url) = frontier.pop_front() {
        if fetched == PAGE_LIMIT {
            break;
        }
        let decision = robot.decide(&url);
        if !decision.allowed() {
            let line = decision.line().map_or_else(|| "the site is closed".to_owned(), |n| format!("line {n}"));
            log.push(format!("skip  {url} (robots.txt {line})"));
            continue;
        }
        if fetched > 0 && !interval.is_zero() {
            log.push(format!("wait  {}", humane(interval)));
            wait(interval);
        }
        let page = client.get(&url);
        fetched += 1;
        log.push(format!("fetch {url} -> {}", page.status));
        // Each page of the example site lists its links, one per line.
        for link in String::from_utf8_lossy(&page.body).lines().filter(|line| line.starts_with(origin)) {
            if seen.insert(link.to_owned()) {
                frontier.push_back(link.to_owned());
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
                "User-agent: *\nDisallow: /\n\nUser-agent: examplebot\nDisallow: /private/\nAllow: /private/press/\nCrawl-delay: 0.2\nRequest-rate: 1/1s\n\nSitemap: https://example.com/sitemap.txt\n",
            ),
            ("https://example.com/sitemap.txt", "https://example.com/\nhttps://example.com/about\n"),
            ("https://example.com/", "https://example.com/about\nhttps://example.com/private/drafts\n"),
            ("https://example.com/about", "https://example.com/private/press/kit\nhttps://example.com/\n"),
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
