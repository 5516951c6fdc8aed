//! robots.txt as RFC 9309, the 1996 draft and the 1994 standard read it: bytes in,
//! verdicts, reasons, diagnostics and fixes out.
//!
//! The crate does no I/O, spawns no thread and knows nothing of terminals: a crawler
//! hands it bytes and gets values back. Parse a file once ([`RobotsTxt::parse`] never
//! fails: every byte sequence is some robots.txt), build a [`Matcher`] for your robot
//! under a [`Reading`], and ask it about URLs:
//!
//! ```
//! use robotscope_core::{Matcher, Reading, RobotsTxt};
//!
//! let txt = RobotsTxt::parse(b"User-agent: *\nDisallow: /search\nAllow: /search/about\nCrawl-delay: 5\n".to_vec());
//! let bot = Matcher::new(&txt, "ExampleBot", Reading::Rfc9309);
//! assert!(!bot.allowed("https://example.com/search?q=robots"));
//! assert!(bot.allowed("https://example.com/search/about"));
//! assert_eq!(bot.decide("/search?q=robots").line(), Some(2));
//! assert_eq!(bot.crawl_delay(), Some(std::time::Duration::from_secs(5)));
//! ```
//!
//! # The face
//!
//! A crawler needs the twelve names at the root:
//!
//! * [`RobotsTxt`], the parsed file; [`Reading`], which standard reads it; [`Robot`],
//!   who asks; [`Availability`], what fetching the file gave (RFC 9309 §2.3.1: a 4xx
//!   means no rules, a 5xx that the site is closed for now);
//! * [`Matcher`], one robot's rules compiled for many questions, and its answer
//!   [`Decision`];
//! * [`explain`], the slow path that says why: a [`Verdict`] with the deciding rule, the
//!   rules that lost and a sentence;
//! * [`lint()`], what is wrong with a file under each reading, as [`Diagnostic`]s;
//!   [`fix_all`], the fixes applied round after round until none is left, in a
//!   [`FixReport`] (unchecked: [`fix::lint_checked`] says what each fix does to the
//!   verdicts, [`impact::impact`] what the whole change does).
//!
//! # The parts
//!
//! The modules are what a program that shows a file builds on (the robotscope tool, its
//! Python package): the groups and rules as each reading sees them ([`parse`]), which
//! group a robot gets ([`agent`]), how a user's text becomes the tested path
//! ([`request`]), the verdict machinery ([`verdict`]), AI usage preferences
//! ([`usage`]), the group extensions ([`extensions`]), the diagnostics catalogue
//! ([`lint`](mod@lint)), fixes ([`fix`]), what an edit changes ([`impact`]) and edits that block
//! robots, proved ([`block`]). A crawler rarely needs them. The root's names, the
//! calls a crawler makes on them and the types those take and return are the face:
//! they change only when nothing else will do. The parts follow what the tool needs and
//! change when it does (before 1.0, either is a new minor version). `face.txt` lists
//! every public item, and a test keeps it true, so that neither grows unnoticed.
//!
//! `examples/` holds a polite crawler loop and a batch filter.

// Every `pub` item is reachable from outside, and every type a public item names can be
// named: no item is public by accident (`face.txt` lists them).
#![warn(unreachable_pub, unnameable_types)]

pub mod agent;
pub mod availability;
pub mod block;
mod catalogue;
mod compiled;
pub mod content;
pub mod escape;
pub mod extensions;
pub mod fix;
pub mod impact;
pub mod lex;
pub mod lint;
mod matcher;
pub mod memory;
pub mod parse;
mod pattern;
mod prefix_set;
pub mod reading;
pub mod request;
pub mod usage;
pub mod verdict;

pub use agent::Robot;
pub use availability::Availability;
pub use compiled::Decision;
pub use fix::{FixReport, fix_all};
pub use lint::{Diagnostic, lint};
pub use matcher::{Matcher, explain};
pub use parse::RobotsTxt;
pub use reading::Reading;
pub use verdict::Verdict;

/// The book's library chapter: its Rust snippets run as doctests, so that what it
/// shows a crawler author compiles and does what it says.
#[cfg(doctest)]
#[doc = include_str!("../../docs/src/library.md")]
struct LibraryChapter;
