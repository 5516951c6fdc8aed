//! The integration tests, one binary of modules (as ripgrep's are): the tool is linked
//! once, not once per file. Each module is a file of tests of one command or view;
//! `support` holds the loopback HTTP server and the explorer's drivers.
//!
//! `tests/sitemaps_memory.rs` stays a binary of its own: it measures the peak memory
//! of the children of its process, which other tests' children would share here.

#[path = "support/profile.rs"]
mod profile;
#[cfg(feature = "tool")]
mod support;

#[cfg(feature = "tool")]
mod audit;
#[cfg(feature = "tool")]
mod book;
#[cfg(feature = "tool")]
mod cli;
#[cfg(feature = "tool")]
mod compare;
mod conformance;
#[cfg(feature = "tool")]
#[cfg(unix)]
mod e2e;
#[cfg(feature = "tool")]
mod editing;
#[cfg(feature = "tool")]
mod event_loop;
#[cfg(feature = "tool")]
mod fetch;
#[cfg(feature = "tool")]
mod hardening;
#[cfg(feature = "tool")]
mod history;
#[cfg(feature = "tool")]
mod keys;
mod layering;
mod lint;
#[cfg(feature = "tool")]
mod page;
mod properties;
#[cfg(feature = "tool")]
mod sitemaps;
#[cfg(feature = "tool")]
mod survey;
#[cfg(feature = "tool")]
mod ui;
mod usage;
#[cfg(feature = "tool")]
mod work_kept;
