//! Access-log audits: which robots fetched what the robots.txt in force at the time
//! disallowed. [`logs`] reads the lines, [`replay`] judges each request against its
//! version, [`user_agent`] says which robot a User-Agent header names, [`identity`]
//! looks addresses up in the operators' published ranges and [`rdns`] asks the DNS.

pub mod identity;
pub mod lists;
pub mod logs;
pub mod rdns;
pub mod replay;
pub mod run;
pub mod user_agent;

/// The robot a User-Agent header names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claimed {
    /// A robot profile (its index in the database).
    Known(usize),
    /// One of a profile's robots under a product token of its own (`YandexImages` of
    /// Yandex's): judged by groups naming that token first, then the profile's.
    KnownAs(usize, String),
    /// A robot the database does not know: the product token that names it.
    Unknown(String),
}

/// How far a run has got.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AuditProgress {
    /// Log lines read.
    pub lines: u64,
    /// Bytes read.
    pub bytes: u64,
}

/// What a run found, and what judged it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Audited {
    pub report: run::Report,
    /// The versions that judged it, in words.
    pub judged_by: String,
    /// What went wrong along the way (a list that could not be read, the store).
    pub warnings: Vec<String>,
    /// The log it read.
    pub log: std::path::PathBuf,
}
