//! The robots.txt domain, pure: bytes in, meaning and verdicts out.
//!
//! This module owns lexing, parsing, the three readings, agent selection, pattern
//! matching, verdicts, diagnostics and fixes. It performs no I/O, spawns no tasks and
//! knows nothing of terminals: callers hand it bytes and get values back, so every part
//! can be tested with plain data (`tests/layering.rs` checks its imports).
//!
//! The low-level form is [`lex::Line`] (every line with its number and byte span); the
//! high-level form is [`RobotsTxt`] with one [`Interpretation`] per [`Reading`].
//!
//! ```
//! use robotscope::policy::{evaluate, request::Request, Reading, Robot, RobotsTxt};
//! let txt = RobotsTxt::parse(b"User-agent: *\nDisallow: /private/\n".to_vec());
//! let request = Request::read("https://example.com/private/x");
//! let verdict = evaluate(&txt, &Robot::from_agent("Googlebot"), &request.tested, Reading::Rfc9309);
//! assert!(!verdict.allowed);
//! assert_eq!(verdict.decided_by.map(|m| m.line), Some(2));
//! ```

pub mod agent;
pub mod availability;
pub mod compare;
pub mod compiled;
pub mod escape;
pub mod fix;
pub mod lex;
pub mod lint;
pub mod page;
pub mod parse;
pub mod pattern;
mod prefix_set;
pub mod reading;
pub mod request;
pub mod verdict;
pub mod words;

pub use agent::{Choice, Robot, Selection};
pub use availability::{Access, Availability};
pub use compiled::{CompiledPolicy, Decision};
pub use lint::{Diagnostic, Severity, lint};
pub use parse::{AgentName, FieldKind, Group, Interpretation, RobotsTxt, Rule, RuleKind};
pub use reading::Reading;
pub use verdict::{RuleMatch, Verdict, evaluate, evaluate_fetched};
