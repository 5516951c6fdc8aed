//! robotscope: a robots.txt explorer, and the command line beside it.
//!
//! # The library is `robotscope-core`
//!
//! A crawler depends on the policy core, its own crate, which has no async runtime, HTTP
//! client, terminal or HTML parser in its dependency tree:
//!
//! ```toml
//! robotscope-core = "0.1"
//! ```
//!
//! This crate is the tool: the binary's modules are public for the binary, its tests,
//! its benchmarks and the Python package's surveys, hidden from these docs and not a
//! stable face. Its features (all on by default, for the `robotscope` binary):
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
//! [`policy`] is the core and the tool's pure additions to it (terminal text, files of
//! paths, diffs, a page's META tags). The modules above it (`cli`, `app`, `ui`, `tui`,
//! `fetch`, `sitemaps`, `history`, `clipboard`, `save`, `robots_db`) are layered as
//! DESIGN.md §6 says; lower layers never import higher ones
//! (`tests/integration/layering.rs`).

pub mod policy;

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
