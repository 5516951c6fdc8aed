//! The three readings of the robots exclusion standard, and what each one decides.
//!
//! Every verdict is computed under one [`Reading`]. The table in DESIGN.md §1 is the
//! contract; the methods here are that table in code, so that the parser and the matcher
//! ask "does this reading honour Allow?" instead of matching on the enum themselves.

use std::fmt;
use std::str::FromStr;

/// One reading of the robots exclusion standard.
///
/// ```
/// use robotscope_core::{Matcher, Reading, RobotsTxt};
/// // `Allow` is RFC 9309's and the 1996 draft's; the 1994 standard knows only Disallow.
/// let txt = RobotsTxt::parse("User-agent: *\nDisallow: /a\nAllow: /a/b\n");
/// assert!(Matcher::new(&txt, "bot", Reading::Rfc9309).allowed("/a/b"));
/// assert!(!Matcher::new(&txt, "bot", Reading::Koster1994).allowed("/a/b"));
/// assert_eq!("draft1996".parse::<Reading>(), Ok(Reading::Draft1996));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub enum Reading {
    /// RFC 9309 (2022), as Google's reference matcher reads it, tolerances included.
    #[default]
    Rfc9309,
    /// Koster's 1996 Internet-Draft, as Python's `urllib.robotparser` implements it.
    Draft1996,
    /// "A Standard for Robot Exclusion" (1994).
    Koster1994,
}

impl Reading {
    /// All readings, newest first.
    pub const ALL: [Reading; 3] = [Reading::Rfc9309, Reading::Draft1996, Reading::Koster1994];

    /// The reading's name (`rfc9309`, `draft1996`, `koster1994`), which `FromStr` reads
    /// back.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Reading::Rfc9309 => "rfc9309",
            Reading::Draft1996 => "draft1996",
            Reading::Koster1994 => "koster1994",
        }
    }

    /// A short title for people: "RFC 9309", "1996 draft", "1994 standard".
    #[must_use]
    pub fn title(self) -> &'static str {
        match self {
            Reading::Rfc9309 => "RFC 9309",
            Reading::Draft1996 => "1996 draft",
            Reading::Koster1994 => "1994 standard",
        }
    }

    part! {
        /// The shortest name people know it by: "RFC 9309", "1996", "1994".
        #[must_use]
        pub fn short_title(self) -> &'static str {
            match self {
                Reading::Rfc9309 => "RFC 9309",
                Reading::Draft1996 => "1996",
                Reading::Koster1994 => "1994",
            }
        }
    }

    part! {
        /// Index into per-reading arrays such as `[T; 3]`.
        #[must_use]
        pub fn index(self) -> usize {
            self as usize
        }
    }

    /// True for the two readings from the standard's first era, which end a record at a
    /// blank line, match agents by substring and take paths literally.
    #[must_use]
    pub fn is_classic(self) -> bool {
        self != Reading::Rfc9309
    }

    /// Whether an `Allow` line is a rule. The 1994 standard knows only Disallow, and says
    /// unknown fields are ignored, so `Allow` means nothing to its robots.
    #[must_use]
    pub fn honours_allow(self) -> bool {
        self != Reading::Koster1994
    }

    /// Whether `*` and a final `$` in a path are wildcards (RFC 9309 §2.2.3) rather than
    /// literal characters.
    #[must_use]
    pub fn has_wildcards(self) -> bool {
        self == Reading::Rfc9309
    }

    /// Whether a blank line ends a record. RFC 9309 §2.1 groups by User-agent lines only;
    /// the 1994 standard and the 1996 draft separate records "by one or more blank lines".
    #[must_use]
    pub fn blank_line_ends_record(self) -> bool {
        self.is_classic()
    }
}

impl fmt::Display for Reading {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `pad`, not `write_str`: `{:<12}` lines names up.
        f.pad(self.name())
    }
}

/// The error for a reading name that is not one of the three.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown reading '{0}': expected rfc9309, draft1996 or koster1994")]
pub struct UnknownReading(String);

impl FromStr for Reading {
    type Err = UnknownReading;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "rfc9309" | "rfc" | "9309" | "google" => Ok(Reading::Rfc9309),
            "draft1996" | "draft" | "1996" | "urllib" => Ok(Reading::Draft1996),
            "koster1994" | "koster" | "1994" | "classic" => Ok(Reading::Koster1994),
            _ => Err(UnknownReading(s.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for reading in Reading::ALL {
            assert_eq!(reading.name().parse::<Reading>(), Ok(reading));
        }
        assert!("rfc".parse::<Reading>().is_ok());
        assert!("nonsense".parse::<Reading>().is_err());
    }
}
