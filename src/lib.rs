//! robotscope: a robots.txt explorer, and the policy core behind it as a library.
//!
//! # As a library
//!
//! With `default-features = false` the crate is the policy core alone, with no async
//! runtime, HTTP client, terminal or HTML parser in your dependency tree:
//!
//! ```toml
//! robotscope = { version = "0.1", default-features = false }
//! ```
//!
//! Parse a file once (parsing never fails: every byte sequence is some robots.txt),
//! build a [`Matcher`] for your robot under a [`Reading`], and ask it about URLs:
//!
//! ```
//! use robotscope::{Matcher, Reading, RobotsTxt};
//!
//! let txt = RobotsTxt::parse(b"User-agent: *\nDisallow: /search\nAllow: /search/about\nCrawl-delay: 5\n".to_vec());
//! let bot = Matcher::new(&txt, "ExampleBot", Reading::Rfc9309);
//! assert!(!bot.allowed("https://example.com/search?q=robots"));
//! assert!(bot.allowed("https://example.com/search/about"));
//! assert_eq!(bot.decide("/search?q=robots").line(), Some(2));
//! assert_eq!(bot.crawl_delay(), Some(std::time::Duration::from_secs(5)));
//! ```
//!
//! [`explain`] is the slow path that says why (the deciding rule, the rules that lost,
//! a sentence); [`lint()`] lists what is wrong with a file under each reading, and
//! [`fix_all`] applies every fix. [`RobotsTxt::sitemaps`] lists the Sitemap URLs.
//! Everything else the library offers is in [`policy`], whose submodules are private.
//! `examples/` holds a polite crawler loop and a batch filter.
//!
//! Features (all on by default, for the `robotscope` binary):
//!
//! * `page`: what a page's robots META tags and `X-Robots-Tag` headers allow
//!   (`policy::page_policy`, html5ever).
//! * `profiles`: the robot profiles of `assets/robots.toml` (`robots_db`).
//! * `fetch`: fetching a robots.txt with RFC 9309's status handling (`fetch`: tokio,
//!   reqwest with rustls).
//! * `sitemaps`: reading a site's sitemaps (`sitemaps`: quick-xml, flate2).
//! * `history`: a site's robots.txt over time (`history`: a SQLite store of fetched
//!   versions, the web archive's captures, verdict and usage flips).
//! * `audit`: access logs replayed against the robots.txt of each request's time
//!   (`audit`: log formats, robots named by their User-Agent, verdicts).
//! * `survey`: many sites' robots.txt judged for a few robots each, from captures and
//!   WARC files (`survey`: categories, redirects followed between captures).
//! * `tool`: the command line and the explorer.
//!
//! # The tool's layers
//!
//! The binary's own modules (`cli`, `app`, `ui`, `tui`, `fetch`, `sitemaps`, `history`,
//! `clipboard`, `save`, `robots_db`) are public for the binary and its tests, hidden
//! from these docs and not part of the library's stable face. They are layered as DESIGN.md §6 says; lower
//! layers never import higher ones (`tests/integration/layering.rs`).

pub mod policy;

pub use policy::{
    Access, Availability, Choice, Code, Decision, Diagnostic, Edit, Fix, FixReport, Matcher, Reading, RequestRate,
    Robot, RobotsTxt, RuleKind, RuleMatch, Selection, Severity, Verdict, VisitTime, explain, fix_all, lint,
};

#[cfg(feature = "tool")]
#[doc(hidden)]
pub mod app;
#[cfg(feature = "audit")]
#[doc(hidden)]
pub mod audit;
#[cfg(feature = "tool")]
#[doc(hidden)]
pub mod cli;
#[cfg(feature = "tool")]
#[doc(hidden)]
pub mod clipboard;
/// The columns of the compare view, `compare`, the sitemaps audit and the history
/// timeline: robots under readings, checked together.
#[cfg(any(feature = "tool", feature = "sitemaps", feature = "history"))]
#[doc(hidden)]
pub mod columns;
#[cfg(feature = "fetch")]
#[doc(hidden)]
pub mod fetch;
#[cfg(any(feature = "fetch", feature = "audit"))]
#[doc(hidden)]
pub mod fifo;
#[cfg(feature = "history")]
#[doc(hidden)]
pub mod history;
#[cfg(feature = "history")]
#[doc(hidden)]
pub mod load;
#[cfg(feature = "profiles")]
#[doc(hidden)]
pub mod robots_db;
#[cfg(feature = "tool")]
#[doc(hidden)]
pub mod save;
#[cfg(feature = "sitemaps")]
#[doc(hidden)]
pub mod sitemaps;
#[cfg(feature = "survey")]
#[doc(hidden)]
pub mod survey;
#[cfg(feature = "tool")]
#[doc(hidden)]
pub mod tui;
#[cfg(feature = "tool")]
#[doc(hidden)]
pub mod ui;
/// Counted nouns for the tool's messages (and a survey's errors).
#[cfg(any(feature = "fetch", feature = "survey"))]
#[doc(hidden)]
pub mod words;
