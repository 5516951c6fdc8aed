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
