//! The robots.txt domain, pure: bytes in, meaning and verdicts out.
//!
//! This module owns lexing, parsing, the three readings, agent selection, pattern
//! matching, verdicts, diagnostics and fixes. It performs no I/O, spawns no tasks and
//! knows nothing of terminals: callers hand it bytes and get values back, so every part
//! can be tested with plain data (`tests/integration/layering.rs` checks its imports).
//!
//! What a crawler needs is re-exported here and at the crate root: [`RobotsTxt`] (parse
//! once, never fails), a [`Matcher`] per robot and [`Reading`], [`explain`] for the why,
//! [`lint()`] and [`fix_all`]. The submodules are private to the crate: everything a
//! caller may use is re-exported here, in four groups (reading and asking a file; the
//! usage preferences and a page's own policy; diagnostics and fixes; showing a file's
//! text safely), and nothing else is promised.
//!
//! ```
//! use robotscope::policy::{Matcher, Reading, RobotsTxt};
//! let txt = RobotsTxt::parse(b"User-agent: *\nDisallow: /private/\n".to_vec());
//! let googlebot = Matcher::new(&txt, "Googlebot", Reading::Rfc9309);
//! assert!(!googlebot.allowed("https://example.com/private/x"));
//! assert_eq!(googlebot.decide("/private/x").line(), Some(2));
//! ```

pub(crate) mod agent;
pub(crate) mod availability;
pub(crate) mod block;
pub(crate) mod catalogue;
pub(crate) mod compiled;
pub(crate) mod content;
pub(crate) mod escape;
pub(crate) mod extensions;
pub(crate) mod fix;
pub(crate) mod impact;
pub(crate) mod lex;
pub(crate) mod lint;
pub(crate) mod matcher;
pub(crate) mod memory;
#[cfg(feature = "page")]
pub(crate) mod page;
pub(crate) mod parse;
pub(crate) mod pattern;
mod prefix_set;
pub(crate) mod reading;
pub(crate) mod request;
pub(crate) mod usage;
pub(crate) mod verdict;

// The submodules are the crate's own; what follows is the face of the library.

// Reading a robots.txt and asking it: parse once, a matcher per robot and reading, the
// why of a verdict, and the extensions (Crawl-delay and the like).
pub use agent::{Choice, Robot, Selection, is_valid_token, select, select_whole_name, suggest_token};
pub use availability::{Access, Availability};
pub use compiled::Decision;
pub use content::{Content, RFC9309_PARSE_LIMIT_BYTES, sniff};
pub use extensions::{RequestRate, VisitTime, crawl_delay};
pub use matcher::{Matcher, explain};
pub use memory::{OutOfMemory, Work, room_for};
pub use parse::{AgentName, FieldKind, Group, Interpretation, RobotsTxt, Rule, RuleKind};
pub use reading::Reading;
pub use request::{Form, LongPathLine, MAX_PATH_LINE_BYTES, Request, UrlMode, path_lines, raw_path};
pub use verdict::{RuleMatch, Verdict, evaluate, evaluate_as, evaluate_fetched, evaluate_fetched_as};

// What a site lets a robot do with what it fetches (Content-Usage, Content-Signal) and
// what a page's own META tags and X-Robots-Tag headers say.
#[cfg(feature = "page")]
pub use page::{
    Because, Contradictions, MAX_ELEMENT_DEPTH, MetaTag, PagePolicy, PageSignals, TermSource, meta_tags, page_policy,
    read_meta_tags,
};
pub use usage::{
    Category, ContentUsage, Preference, Usage, UsageAnswer, UsageRules, page_usage, read_content_signal,
    read_content_usage, usage, usage_answer,
};

// What is wrong with a file and the fixes, each checked under every reading.
pub use block::{
    BlockRefusal, Proof, ProvedBlock, Reach, Request as BlockRequest, as_robots_read, block, block_proved, named_robot,
    prove, prove_unblock, refuse_usage, unblock,
};
pub use catalogue::Code;
pub use fix::{FixReport, apply_fix, fix_all, fix_all_effect, lint_checked, unified_diff, unified_diff_between};
pub use impact::{FixEffect, Impact, impact, impact_among, impact_keeping, robots_named};
pub use lint::{Diagnostic, Edit, Fix, Severity, edit_distance, lint, read_in_part};

// Showing a robots.txt's text without letting it drive the terminal.
pub use escape::{
    Piece, char_columns, display_width, is_unsafe, pieces, sanitize, sanitize_lines, sanitize_lines_keeping_crlf,
    sanitize_str,
};
