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
//!   means no rules, a 5xx or a 429 that the site is closed for now; the older
//!   readings differ, see [`Availability::access`]);
//! * [`Matcher`], one robot's rules compiled for many questions, and its answer
//!   [`Decision`];
//! * [`explain`], the slow path that says why: a [`Verdict`] with the deciding line and
//!   a sentence;
//! * [`lint()`], what is wrong with a file under each reading, as [`Diagnostic`]s;
//!   [`fix_all`], the fixes applied round after round until none is left, in a
//!   [`FixReport`].
//!
//! Beside them are the words their answers are made of: [`Access`] (what a fetch's
//! outcome leaves of the rules), [`RequestRate`] and [`VisitTime`] (the group
//! extensions), [`Usage`] with [`Category`], [`Preference`] and [`Stated`] (AI usage
//! preferences, Content-Usage and Content-Signal), [`Code`] and [`Severity`] (a
//! diagnostic's kind), [`UrlMode`] (URLs as crawlers send them, or byte for byte as
//! Google's library takes them), the errors of [`Reading`]'s, [`Code`]'s and
//! [`Category`]'s `FromStr` ([`UnknownReading`], [`UnknownCode`], [`UnknownCategory`]),
//! and
//! [`RFC9309_PARSE_LIMIT_BYTES`], the 500 KiB that RFC 9309 asks a crawler to read at
//! least and Google reads exactly (give [`RobotsTxt::parse`] at most that much to read
//! as Google does); and two checks
//! of a robot's name, [`is_valid_token`] and [`suggest_token`] (a robot is named by its
//! product token, `MyCrawler`, not by its User-Agent header). This is the
//! whole crate as a crawler builds it; `face.txt` lists every item, and a test keeps the
//! list true, so that the face grows only on purpose. It changes only when nothing else
//! will do (before 1.0, a change is a new minor version).
//!
//! # The parts
//!
//! A program that shows a file (the robotscope tool, its Python package) turns on the
//! `parts` feature. It makes public the modules the face is built from, and the calls
//! on the face's types that only such a program makes: the groups and rules as each
//! reading sees them (`parse`, `RobotsTxt::interpretation`), which group a robot gets
//! (`agent`, `Matcher::selection`), how a user's text becomes the tested path
//! (`request`), the verdict machinery (`verdict`, `Verdict::decided_by`), AI usage
//! preferences (`usage`), the diagnostics catalogue and each diagnostic's fix (`lint`,
//! `Diagnostic::fix`), fixes checked for what they do to the verdicts
//! (`fix::lint_checked`), what an edit changes (`impact`) and edits that block robots,
//! proved (`block`). The parts follow what the tool needs and change when it does, in
//! any release; `parts.txt` lists them.
//!
//! `examples/` holds a polite crawler loop and a batch filter.

// With the `parts` feature every `pub` item is reachable from outside; with or without
// it, every type a public item names can be named. No item is public by accident
// (`face.txt` and `parts.txt` list them).
#![warn(unreachable_pub, unnameable_types)]
// Without the `parts` feature the parts are private: what only the tool calls is compiled
// but unused, and their `pub` items are reachable only through the root (which is why
// `unreachable_pub` is checked with the feature only).
#![cfg_attr(not(feature = "parts"), allow(unreachable_pub, dead_code))]

/// A method of the face's types that only a program that shows a file calls (a rule's
/// place in the groups, a diagnostic's fix): `pub` with the `parts` feature, private to
/// the crate without it, so that a crawler's face names no part.
macro_rules! part {
    ($(#[$meta:meta])* pub fn $($rest:tt)*) => {
        $(#[$meta])*
        #[cfg(feature = "parts")]
        pub fn $($rest)*

        $(#[$meta])*
        #[cfg(not(feature = "parts"))]
        pub(crate) fn $($rest)*
    };
}

/// Declares the parts: public modules with the `parts` feature, private ones without it.
macro_rules! parts {
    ($($name:ident),* $(,)?) => {$(
        #[cfg(feature = "parts")]
        pub mod $name;
        #[cfg(not(feature = "parts"))]
        mod $name;
    )*};
}

mod catalogue;
mod compiled;
mod matcher;
mod pattern;
mod prefix_set;

parts!(
    agent,
    availability,
    block,
    content,
    escape,
    extensions,
    fix,
    impact,
    lex,
    lint,
    memory,
    parse,
    reading,
    request,
    usage,
    verdict
);

pub use agent::Robot;
pub use availability::Availability;
pub use compiled::Decision;
pub use fix::{FixReport, fix_all};
pub use lint::{Diagnostic, lint};
pub use matcher::{Matcher, explain};
pub use parse::RobotsTxt;
pub use reading::Reading;
pub use verdict::Verdict;

// The words the face's answers are made of, and the two checks of a robot's name.
pub use agent::{is_valid_token, suggest_token};
pub use availability::Access;
pub use content::RFC9309_PARSE_LIMIT_BYTES;
pub use extensions::{RequestRate, VisitTime};
pub use lint::{Code, Severity, UnknownCode};
pub use reading::UnknownReading;
pub use request::UrlMode;
pub use usage::{Category, Preference, Stated, UnknownCategory, Usage};

/// The book's library chapter: its Rust snippets run as doctests, so that what it
/// shows a crawler author compiles and does what it says.
#[cfg(doctest)]
#[doc = include_str!("../../docs/src/library.md")]
struct LibraryChapter;
