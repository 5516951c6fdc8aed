//! Robot profiles: the robots a user can switch between, from `assets/robots.toml`.
//!
//! A profile is what DESIGN.md §2 lists: a display name, the product token, the full
//! User-Agent string, the operator, the era, the default reading, a note, and where it
//! applies (fallback chain, whether it ignores `*`, whether the token only controls the
//! use of content). [`RobotProfile::robot`] turns a profile into the [`Robot`] the
//! policy layer evaluates for.
//!
//! This module imports only the policy layer; the file is embedded at compile time.

use serde::Deserialize;

use crate::policy::Reading;
use crate::policy::agent::{Robot, classic_name, is_valid_token};

/// The profiles file, embedded in the binary.
const ROBOTS_TOML: &str = include_str!("../assets/robots.toml");

/// When a robot was active.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum Era {
    /// The standard's first era: the 1994 standard and the 1996 draft.
    #[serde(rename = "1990s")]
    Nineties,
    /// Crawlers active today.
    #[serde(rename = "today")]
    Today,
}

impl Era {
    /// "1990s" or "today".
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Era::Nineties => "1990s",
            Era::Today => "today",
        }
    }
}

/// What a robot fetches for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Purpose {
    /// A search engine's index.
    Search,
    /// Training AI models.
    AiTraining,
    /// Answers built from fetched pages (AI search, retrieval).
    AiSearch,
    /// Fetches a user of an AI assistant asked for.
    AiAssistant,
    /// Keeping copies of pages.
    Archive,
    /// Link and ranking data sold to site owners.
    Seo,
    /// Link previews in social networks and messengers.
    Preview,
    /// Anything else: ads checks, shopping, research, mirroring tools.
    Other,
}

impl Purpose {
    /// Every purpose, in the order `robotscope robots` lists them.
    pub const ALL: [Purpose; 8] = [
        Purpose::Search,
        Purpose::AiTraining,
        Purpose::AiSearch,
        Purpose::AiAssistant,
        Purpose::Archive,
        Purpose::Seo,
        Purpose::Preview,
        Purpose::Other,
    ];

    /// The name on the command line and in `robots.toml`: `ai-training`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Purpose::Search => "search",
            Purpose::AiTraining => "ai-training",
            Purpose::AiSearch => "ai-search",
            Purpose::AiAssistant => "ai-assistant",
            Purpose::Archive => "archive",
            Purpose::Seo => "seo",
            Purpose::Preview => "preview",
            Purpose::Other => "other",
        }
    }
}

impl std::str::FromStr for Purpose {
    type Err = String;

    /// A purpose by name (`ai-training`); `ai-input` is read as `ai-search`.
    fn from_str(text: &str) -> Result<Purpose, String> {
        let text = text.trim().to_ascii_lowercase();
        if text == "ai-input" {
            return Ok(Purpose::AiSearch);
        }
        Purpose::ALL.into_iter().find(|p| p.name() == text).ok_or_else(|| {
            let names: Vec<&str> = Purpose::ALL.iter().map(|p| p.name()).collect();
            format!("no purpose is called '{text}' (one of {})", names.join(", "))
        })
    }
}

/// One robot profile.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RobotProfile {
    /// What the switcher shows.
    pub name: String,
    /// The product token (always valid under RFC 9309).
    pub token: String,
    /// The full User-Agent header the robot sends.
    pub user_agent: String,
    /// Who runs it.
    pub operator: String,
    /// When it was active.
    pub era: Era,
    /// What it fetches for.
    pub purpose: Purpose,
    /// The reading it follows by default.
    #[serde(deserialize_with = "reading_from_name")]
    pub reading: Reading,
    /// One line about the robot.
    pub note: String,
    /// Tokens it obeys, in order, when no group names it (before `*`).
    #[serde(default)]
    pub fallback: Vec<String>,
    /// True when it obeys only groups that name it.
    #[serde(default)]
    pub ignores_star: bool,
    /// True when the token controls the use of content and the robot fetches nothing.
    #[serde(default)]
    pub control_only: bool,
}

fn reading_from_name<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Reading, D::Error> {
    let name = String::deserialize(deserializer)?;
    name.parse().map_err(serde::de::Error::custom)
}

impl RobotProfile {
    /// A profile for a robot the user named that is not in the list (or that a file
    /// names): the token as given, the RFC 9309 reading, no fallbacks.
    #[must_use]
    pub fn custom(token: &str) -> RobotProfile {
        RobotProfile {
            name: token.to_owned(),
            token: token.to_owned(),
            user_agent: token.to_owned(),
            operator: "(not in robotscope's list)".to_owned(),
            era: Era::Today,
            purpose: Purpose::Other,
            reading: Reading::Rfc9309,
            note: "A robot named by the file or by you.".to_owned(),
            fallback: Vec::new(),
            ignores_star: false,
            control_only: false,
        }
    }

    /// The robot the policy layer evaluates for.
    ///
    /// For the classic readings' substring match the name is the robot's User-Agent cut
    /// at its first `/` when the User-Agent starts with the token (`Lycos_Spider_(T-Rex)`
    /// from `Lycos_Spider_(T-Rex)/3.0`), which is the name 1990s robots compared; modern
    /// User-Agents start with `Mozilla/`, so for those the token is the name.
    #[must_use]
    pub fn robot(&self) -> Robot {
        let starts_with_token =
            self.user_agent.get(..self.token.len()).is_some_and(|head| head.eq_ignore_ascii_case(&self.token));
        let name = if starts_with_token { classic_name(&self.user_agent) } else { classic_name(&self.token) };
        Robot {
            token: self.token.clone(),
            classic_name: name,
            fallbacks: self.fallback.clone(),
            ignores_star: self.ignores_star,
        }
    }

    /// True when `query` is this profile's name or token, in any letter case.
    #[must_use]
    pub fn is_named(&self, query: &str) -> bool {
        self.name.eq_ignore_ascii_case(query) || self.token.eq_ignore_ascii_case(query)
    }
}

#[derive(Deserialize)]
struct ProfilesFile {
    robot: Vec<RobotProfile>,
}

/// The error for a profiles file that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum ProfilesError {
    /// The TOML does not parse or does not fit the profile fields.
    #[error("robot profiles: {0}")]
    Toml(#[from] toml::de::Error),
    /// A profile's token is not a valid product token.
    #[error("robot profile '{name}': '{token}' is not a product token (letters, '_' and '-' only)")]
    InvalidToken {
        /// The profile's name.
        name: String,
        /// The offending token.
        token: String,
    },
}

/// The robots compared when the user names none (the compare view, `compare`, `page`),
/// by token: today's biggest search engines, two of the 1990s and an AI crawler. A robot
/// no group names, which gets `*`, comes after them.
pub const DEFAULT_COMPARISON: [&str; 5] = ["Googlebot", "bingbot", "Slurp", "Scooter", "GPTBot"];

/// The robot profiles.
#[derive(Debug, Clone)]
pub struct RobotsDb {
    profiles: Vec<RobotProfile>,
}

impl RobotsDb {
    /// Parses a profiles file.
    pub fn from_toml(text: &str) -> Result<RobotsDb, ProfilesError> {
        let file: ProfilesFile = toml::from_str(text)?;
        if let Some(bad) = file.robot.iter().find(|profile| !is_valid_token(&profile.token)) {
            return Err(ProfilesError::InvalidToken { name: bad.name.clone(), token: bad.token.clone() });
        }
        Ok(RobotsDb { profiles: file.robot })
    }

    /// The profiles embedded in the binary.
    ///
    /// # Panics
    ///
    /// Never in a tested build: the embedded file is fixed at compile time and a unit
    /// test parses it.
    #[must_use]
    pub fn embedded() -> RobotsDb {
        // The embedded file is checked by `embedded_profiles_parse` below and cannot
        // change after compilation, so a failure here is a build defect.
        RobotsDb::from_toml(ROBOTS_TOML).expect("assets/robots.toml is valid (tested)")
    }

    /// Every profile, in the file's order.
    #[must_use]
    pub fn profiles(&self) -> &[RobotProfile] {
        &self.profiles
    }

    /// The profile with this name or token (case-insensitive).
    #[must_use]
    pub fn find(&self, query: &str) -> Option<&RobotProfile> {
        self.profiles.iter().find(|profile| profile.is_named(query))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_profiles_parse() {
        let db = RobotsDb::embedded();
        assert!(db.profiles().len() >= 40, "{} profiles", db.profiles().len());
        for name in [
            "Scooter",
            "Slurp",
            "ArchitextSpider",
            "Gulliver",
            "Sidewinder",
            "Infoseek",
            "Lycos",
            "WebCrawler",
            "cybermapper",
        ] {
            let profile = db.find(name).unwrap_or_else(|| panic!("{name} is missing"));
            assert_eq!(profile.era, Era::Nineties);
            assert!(profile.reading.is_classic(), "{name} should default to a classic reading");
        }
        for name in ["Googlebot", "bingbot", "GPTBot", "ClaudeBot", "CCBot", "PerplexityBot", "Applebot", "YandexBot"] {
            assert!(db.find(name).is_some(), "{name} is missing");
        }
    }

    #[test]
    fn classic_names_come_from_the_user_agent_when_it_starts_with_the_token() {
        let db = RobotsDb::embedded();
        let lycos = db.find("Lycos").map(RobotProfile::robot);
        assert_eq!(lycos.map(|r| r.classic_name).as_deref(), Some("lycos_spider_(t-rex)"));
        let googlebot = db.find("Googlebot").map(RobotProfile::robot);
        assert_eq!(googlebot.map(|r| r.classic_name).as_deref(), Some("googlebot"));
    }

    #[test]
    fn invalid_tokens_are_refused() {
        let text = "[[robot]]\nname='x'\ntoken='Bad/1.0'\nuser_agent='x'\noperator='x'\nera='today'\npurpose='search'\nreading='rfc9309'\nnote='x'\n";
        assert!(matches!(RobotsDb::from_toml(text), Err(ProfilesError::InvalidToken { .. })));
    }
}
