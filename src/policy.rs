//! The robots.txt domain as the tool uses it: the core crate (`robotscope_core`: parse,
//! readings, matching, verdicts, usage preferences, diagnostics and fixes) and the
//! parts only a tool needs, which are pure like it: bytes in, values out, no I/O.
//!
//! * [`escape`]: untrusted text laid out for a terminal (its columns, whole lines);
//! * [`paths`]: files of paths and lines of standard input, each line bounded;
//! * [`diff`]: two versions of a file as a unified diff;
//! * `page`: what a page's robots META tags and `X-Robots-Tag` headers say (html5ever).
//!
//! Everything the core offers is re-exported here under the names the tool's modules
//! use (`policy::Matcher`, `policy::parse::Group`), so that the tool names its domain in
//! one place. `tests/integration/layering.rs` checks that this layer imports nothing of
//! the tool.
//!
//! ```
//! use robotscope::policy::{Matcher, Reading, RobotsTxt};
//! let txt = RobotsTxt::parse(b"User-agent: *\nDisallow: /private/\n".to_vec());
//! let googlebot = Matcher::new(&txt, "Googlebot", Reading::Rfc9309);
//! assert!(!googlebot.allowed("https://example.com/private/x"));
//! assert_eq!(googlebot.decide("/private/x").line(), Some(2));
//! ```

pub mod diff;
pub mod escape;
#[cfg(feature = "page")]
pub mod page;
pub mod paths;

pub use robotscope_core::*;

// The names the tool's modules use most, at this layer's top.
pub use diff::{unified_diff, unified_diff_between};
pub use escape::{
    Piece, char_columns, display_width, is_unsafe, pieces, sanitize, sanitize_lines, sanitize_lines_keeping_crlf,
    sanitize_str,
};
#[cfg(feature = "page")]
pub use page::{
    Because, Contradictions, MAX_ELEMENT_DEPTH, MetaTag, PagePolicy, PageSignals, TermSource, meta_tags, page_policy,
    read_meta_tags,
};
pub use paths::{LongPathLine, MAX_PATH_LINE_BYTES, path_lines};
pub use robotscope_core::agent::{Choice, Selection, is_valid_token, select, select_whole_name, suggest_token};
pub use robotscope_core::availability::Access;
pub use robotscope_core::block::{
    BlockRefusal, BlockRequest, Proof, ProvedBlock, Reach, as_robots_read, block, block_proved, named_robot, prove,
    prove_unblock, refuse_usage, unblock,
};
pub use robotscope_core::content::{Content, RFC9309_PARSE_LIMIT_BYTES, sniff};
pub use robotscope_core::extensions::{RequestRate, VisitTime, crawl_delay};
pub use robotscope_core::fix::{apply_fix, fix_all_effect, lint_checked};
pub use robotscope_core::impact::{FixEffect, Impact, impact, impact_among, impact_keeping, robots_named};
pub use robotscope_core::lint::{Code, Edit, Fix, Severity, edit_distance, read_in_part};
pub use robotscope_core::memory::{OutOfMemory, Work, room_for};
pub use robotscope_core::parse::{AgentName, FieldKind, Group, Interpretation, Rule, RuleKind};
pub use robotscope_core::request::{Form, Request, UrlMode, raw_path};
pub use robotscope_core::usage::{
    Category, ContentUsage, Preference, Usage, UsageAnswer, UsageRules, page_usage, read_content_signal,
    read_content_usage, usage, usage_answer,
};
pub use robotscope_core::verdict::{RuleMatch, evaluate, evaluate_fetched, evaluate_fetched_as};
