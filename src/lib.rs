//! robotscope: a terminal explorer for a site's robots.txt.
//!
//! The crate is layered as DESIGN.md §6 describes; lower layers never import higher ones:
//!
//! * [`policy`]: the robots.txt domain, pure (lexing, parsing, readings, verdicts).
//! * [`robots_db`]: the robot profiles from `assets/robots.toml`.
//! * [`cli`]: the non-interactive subcommands.

pub mod app;
pub mod cli;
pub mod clipboard;
pub mod fetch;
pub mod policy;
pub mod robots_db;
pub mod save;
pub mod tui;
pub mod ui;
