//! Sitemaps: the URLs a site asks to be crawled, read as the sitemaps.org protocol
//! defines them and checked against the robots it asks to crawl them.
//!
//! Three parts, each with one job: `read.rs` reads one sitemap (XML, text, feeds,
//! gzip) from any reader, streamed and bounded, pure of the network; `crawl.rs` walks
//! a site's sitemaps over the fetch layer, a few at a time; `audit.rs` checks each
//! listed URL against the robots asked (pure).

pub mod audit;
pub mod crawl;
pub mod read;

pub use audit::{Audit, Finding, SitemapOrigin, UrlCheck, sitemaps_of};
pub use crawl::{
    DEFAULT_MAX_TIME, DEFAULT_MAX_URLS, Event, Report, SitemapId, Stop, WalkLimits, Walked, tree_order, walk,
};
pub use read::{Cut, Entry, Item, Kind, ReadError, ReadLimits, Skipped, Summary};
