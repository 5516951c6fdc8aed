//! Loading a source, the one way the command line, the explorer and `main` all use:
//! read a file or standard input, or fetch a site and keep what it answered in the
//! history store; and what the user should be told about it, as [`Warning`]s.
//!
//! What a load means for the rules stays in [`Retrieved`]; this layer only joins the
//! fetch to the store and gathers what each caller words in its own place (standard
//! error, the status bar).

use std::fmt;

use url::Url;

use crate::fetch::{FetchWarning, Limits, Retrieved, Source, SourceError, retrieve};
use crate::history::{StoreChoice, Version, keep_in_store};
use crate::policy::{Availability, Reading};

/// What a load brought.
#[derive(Debug)]
pub struct Loaded {
    /// The bytes and how they were had.
    pub retrieved: Retrieved,
    /// The site's last fetch kept before this one (a fetched site, with a store).
    pub kept: Option<Version>,
    /// What the user should know, in the order it happened.
    pub warnings: Vec<Warning>,
}

/// Something about a load the user should know; none stops it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Warning {
    /// How the bytes were had: a cap reached, a content type, a fetch's other warnings.
    Fetch(FetchWarning),
    /// The redirects the fetch followed, in a sentence.
    Redirected(String),
    /// The site answered without rules (a 404, a 5xx) and what that means for them.
    Unavailable {
        /// The robots.txt URL asked for.
        url: Url,
        /// What the answer means, under every reading.
        meaning: String,
    },
    /// No answer at all, and what each reading makes of that.
    Unreachable {
        /// The robots.txt URL asked for.
        url: Url,
        /// Why there was no answer.
        error: String,
        /// What that makes of the rules.
        availability: Availability,
    },
    /// The history store: damaged and moved aside, or the fetch not kept.
    Store(String),
}

impl Warning {
    /// True for what went wrong, false for what is only worth knowing (a redirect, a
    /// site without rules).
    #[must_use]
    pub fn is_problem(&self) -> bool {
        matches!(self, Warning::Fetch(_) | Warning::Store(_))
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Warning::Fetch(warning) => write!(f, "{warning}"),
            Warning::Redirected(summary) => f.write_str(summary),
            Warning::Unavailable { url, meaning } => write!(f, "{url}: {meaning}"),
            Warning::Unreachable { url, error, availability } => {
                let reasons: Vec<String> =
                    Reading::ALL.map(|reading| format!("{}: {}", reading.title(), availability.reason(reading))).into();
                write!(f, "cannot fetch {url}: {error}. {}.", reasons.join(". "))
            }
            Warning::Store(text) => f.write_str(text),
        }
    }
}

/// Reads or fetches `source` within `limits`; a fetched site's answer is kept in
/// `store` ([`read`], then [`keep`]).
///
/// # Errors
///
/// When there are no bytes to speak of: a file that cannot be read, standard input
/// asked for twice. A site that cannot be reached is no error: every reading has an
/// answer for it ([`Retrieved::availability`]).
pub async fn load(source: Source, limits: &Limits, store: &StoreChoice) -> Result<Loaded, SourceError> {
    let mut loaded = read(source, limits).await?;
    let (kept, warnings) = keep(&loaded.retrieved, store, limits).await;
    loaded.kept = kept;
    loaded.warnings.extend(warnings);
    Ok(loaded)
}

/// The first half of [`load`]: the bytes and what to say about them, nothing kept yet
/// (the explorer shows them before the store, which may be busy, has answered).
///
/// # Errors
///
/// As [`load`].
pub async fn read(source: Source, limits: &Limits) -> Result<Loaded, SourceError> {
    let retrieved = retrieve(source, limits.clone()).await?;
    let warnings = retrieval_warnings(&retrieved, limits);
    Ok(Loaded { retrieved, kept: None, warnings })
}

/// The second half of [`load`]: keeps a fetched site's answer in `store` (on a blocking
/// thread: SQLite may wait for another writer), unless the user's own flags shaped it
/// (`limits`: see [`crate::fetch::Fetched::not_the_sites_own`]); the site's last fetch
/// before it, and what went wrong.
pub async fn keep(retrieved: &Retrieved, store: &StoreChoice, limits: &Limits) -> (Option<Version>, Vec<Warning>) {
    let Retrieved::Site { url, outcome: Ok(fetched), .. } = retrieved else { return (None, Vec::new()) };
    let (store, url, fetched, limits) = (store.clone(), url.clone(), fetched.clone(), limits.clone());
    match tokio::task::spawn_blocking(move || keep_in_store(&store, &url, &fetched, &limits)).await {
        Ok(kept) => (kept.previous, kept.warnings.into_iter().map(Warning::Store).collect()),
        Err(_) => (None, Vec::new()),
    }
}

/// What the user should know about how `retrieved` was had, the store aside: a file
/// cut at the cap; a fetch's redirects, warnings and what its status means; why a site
/// could not be fetched.
#[must_use]
pub fn retrieval_warnings(retrieved: &Retrieved, limits: &Limits) -> Vec<Warning> {
    let mut warnings = Vec::new();
    match retrieved {
        Retrieved::Local { .. } => warnings.extend(retrieved.warnings(limits).into_iter().map(Warning::Fetch)),
        Retrieved::Site { url, outcome: Ok(fetched), .. } => {
            warnings.extend(fetched.redirect_summary().map(Warning::Redirected));
            warnings.extend(fetched.warnings(limits).into_iter().map(Warning::Fetch));
            if fetched.availability() != Availability::Available {
                warnings.push(Warning::Unavailable { url: url.clone(), meaning: fetched.meaning() });
            }
        }
        Retrieved::Site { url, outcome: Err(error), .. } => warnings.push(Warning::Unreachable {
            url: url.clone(),
            error: error.to_string(),
            availability: error.availability(),
        }),
    }
    warnings
}
