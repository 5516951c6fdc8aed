//! The loaded robots.txt: the parsed file, where it came from, what the fetch outcome
//! means for the rules, and the records pane's rows, built once per reading.

use std::sync::{Arc, OnceLock};

use url::Url;

use super::records::{self, RecordRow};
use crate::fetch::{FetchError, Fetched, FileStamp, Limits, Retrieved, Source};
use crate::policy::escape::display_width;
use crate::policy::{Availability, Reading, RobotsTxt};

/// Where the document came from.
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(clippy::large_enum_variant, reason = "one per document; boxing would only add a pointer chase")]
pub enum Origin {
    /// The embedded example.
    Embedded,
    /// Text given directly (tests, examples).
    Text,
    /// A source whose first load has not finished.
    Pending(Source),
    /// A local file or standard input.
    Local(Source),
    /// A stored version of a site's robots.txt, shown read-only.
    Version {
        /// The site, to load again with `r`.
        source: Source,
    },
    /// A site's robots.txt, fetched.
    Site {
        /// The source as the user named it.
        source: Source,
        /// The robots.txt URL.
        url: Url,
        /// The response, or why there was none.
        outcome: Result<Fetched, FetchError>,
        /// What looked wrong with the response.
        warnings: Vec<String>,
    },
}

impl Origin {
    /// The source to load again with `r`, if there is one.
    #[must_use]
    pub fn source(&self) -> Option<&Source> {
        match self {
            Origin::Embedded | Origin::Text => None,
            Origin::Pending(source)
            | Origin::Local(source)
            | Origin::Site { source, .. }
            | Origin::Version { source } => Some(source),
        }
    }
}

/// The loaded robots.txt and what is derived from it.
#[derive(Debug)]
pub struct Document {
    /// The parsed file (the response body for a site; empty if the fetch failed). Shared:
    /// the text as loaded and the background lint read the same parse.
    pub txt: Arc<RobotsTxt>,
    /// Where it came from, for the status bar.
    pub label: String,
    /// Where it came from, in full.
    pub origin: Origin,
    /// What the fetch outcome means for the rules.
    pub availability: Availability,
    /// When the bytes stop before the file's end (a cap was reached), the warning that
    /// says so: answers that read every byte may be wrong, and a save writes the part.
    pub read_in_part: Option<String>,
    /// What the local file was when read (or last saved): a save replaces it only if
    /// nobody changed it since.
    pub stamp: Option<FileStamp>,
    /// The records pane's rows per reading, built on first use.
    rows: [OnceLock<Vec<RecordRow>>; 3],
    /// The widest line's width once drawn, found on first use.
    widest: OnceLock<usize>,
    /// Every byte of the file read under RFC 9309 too, when `txt` reads only its start
    /// (built on first use, for what the whole file would say).
    whole: OnceLock<Arc<RobotsTxt>>,
}

impl Document {
    /// A document from text, with its origin.
    #[must_use]
    pub fn new(txt: RobotsTxt, label: String, origin: Origin) -> Document {
        Document {
            txt: Arc::new(txt),
            label,
            origin,
            availability: Availability::Available,
            read_in_part: None,
            stamp: None,
            rows: Default::default(),
            widest: OnceLock::new(),
            whole: OnceLock::new(),
        }
    }

    /// An empty document standing for a source that is being loaded.
    #[must_use]
    pub fn pending(source: Source) -> Document {
        Document::new(RobotsTxt::default(), source.label(), Origin::Pending(source))
    }

    /// The document for what a load retrieved.
    #[must_use]
    pub fn from_retrieved(retrieved: Retrieved, limits: &Limits) -> Document {
        let availability = retrieved.availability();
        let read_in_part = retrieved.read_in_part(limits).map(|warning| warning.to_string());
        let txt = limits.parse(retrieved.bytes().to_vec());
        let mut file_stamp = None;
        let (label, origin) = match retrieved {
            Retrieved::Local { source, stamp, .. } => {
                file_stamp = stamp;
                (source.label(), Origin::Local(source))
            }
            Retrieved::Site { source, url, outcome } => {
                let warnings = outcome
                    .as_ref()
                    .map(|fetched| fetched.warnings(limits).iter().map(ToString::to_string).collect())
                    .unwrap_or_default();
                let label = match &outcome {
                    Ok(fetched) => fetched.final_url.to_string(),
                    Err(_) => url.to_string(),
                };
                (label, Origin::Site { source, url, outcome, warnings })
            }
        };
        Document {
            txt: Arc::new(txt),
            label,
            origin,
            availability,
            read_in_part,
            stamp: file_stamp,
            rows: Default::default(),
            widest: OnceLock::new(),
            whole: OnceLock::new(),
        }
    }

    /// The file with every byte read under every reading: `txt` itself, unless the RFC
    /// 9309 reading stops before its end.
    #[must_use]
    pub fn whole(&self) -> Arc<RobotsTxt> {
        if self.txt.rfc9309_cut().is_none() {
            return Arc::clone(&self.txt);
        }
        Arc::clone(self.whole.get_or_init(|| Arc::new(self.txt.whole().into_owned())))
    }

    /// The records pane's rows under `reading`.
    #[must_use]
    pub fn rows(&self, reading: Reading) -> &[RecordRow] {
        self.rows[reading.index()].get_or_init(|| records::rows(self.txt.interpretation(reading)))
    }

    /// The width of the widest line once drawn: control characters and invalid bytes
    /// take their escapes' width, tabs run to the next tab stop. (`h`/`l` scroll the
    /// source sideways up to its end.)
    #[must_use]
    pub fn widest_line(&self) -> usize {
        *self.widest.get_or_init(|| {
            let source = self.txt.source();
            self.txt.lines().iter().map(|line| display_width(line.content(source))).max().unwrap_or(0)
        })
    }

    /// The fetch outcome, for a site.
    #[must_use]
    pub fn fetched(&self) -> Option<&Result<Fetched, FetchError>> {
        match &self.origin {
            Origin::Site { outcome, .. } => Some(outcome),
            _ => None,
        }
    }
}
