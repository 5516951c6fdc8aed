//! The robots.txt domain, pure: bytes in, meaning and verdicts out.
//!
//! This module owns lexing, parsing, the three readings, agent selection, pattern
//! matching, verdicts, diagnostics and fixes. It performs no I/O, spawns no tasks and
//! knows nothing of terminals: callers hand it bytes and get values back, so every part
//! can be tested with plain data (`tests/layering.rs` checks its imports).
//!
//! What a crawler needs is re-exported here and at the crate root: [`RobotsTxt`] (parse
//! once, never fails), a [`Matcher`] per robot and [`Reading`], [`explain`] for the why,
//! [`lint()`] and [`fix_all`]. The lexer, the pattern matcher and the prefix sets
//! behind them are private.
//!
//! ```
//! use robotscope::policy::{Matcher, Reading, RobotsTxt};
//! let txt = RobotsTxt::parse(b"User-agent: *\nDisallow: /private/\n".to_vec());
//! let googlebot = Matcher::new(&txt, "Googlebot", Reading::Rfc9309);
//! assert!(!googlebot.allowed("https://example.com/private/x"));
//! assert_eq!(googlebot.decide("/private/x").line(), Some(2));
//! ```

pub mod agent;
pub mod availability;
pub mod catalogue;
/// The columns of the compare view, `compare`, the sitemaps audit and the history
/// timeline: robots under readings, checked together.
#[cfg(any(feature = "tool", feature = "sitemaps", feature = "history"))]
pub(crate) mod compare;
pub(crate) mod compiled;
pub mod content;
pub mod escape;
pub mod extensions;
pub mod fix;
pub mod impact;
pub(crate) mod lex;
pub mod lint;
pub mod matcher;
#[cfg(feature = "page")]
pub mod page;
pub mod parse;
pub(crate) mod pattern;
mod prefix_set;
pub mod reading;
pub mod request;
pub mod usage;
pub mod verdict;
/// Counted nouns for messages.
pub(crate) mod words;

pub use agent::{Choice, Robot, Selection};
pub use availability::{Access, Availability};
pub use catalogue::Code;
pub use compiled::Decision;
pub use extensions::{RequestRate, VisitTime};
pub use fix::{FixReport, fix_all};
pub use lint::{Diagnostic, Edit, Fix, Severity, lint};
pub use matcher::{Matcher, explain};
pub use parse::{AgentName, FieldKind, Group, Interpretation, RobotsTxt, Rule, RuleKind};
pub use reading::Reading;
pub use request::Request;
pub use verdict::{RuleMatch, Verdict, evaluate, evaluate_as, evaluate_fetched, evaluate_fetched_as};
