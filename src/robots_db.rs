//! Robot profiles: the robots a user can switch between, from `assets/robots.toml`.
//!
//! A profile is what DESIGN.md §2 lists: a display name, the product token, the full
//! User-Agent string, the operator, the era, the default reading, a note, and where it
//! applies (fallback chain, whether it ignores `*`, whether the token only controls the
//! use of content). [`RobotProfile::robot`] turns a profile into the [`Robot`] the
//! policy layer evaluates for.
//!
//! This module imports only the policy layer; the file is embedded at compile time.

mod lint;
pub use lint::{fix_leaves_it, registry_diagnostics, registry_fixes};

use serde::Deserialize;

use crate::policy::Reading;
use crate::policy::agent::{Robot, is_valid_token};

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
    /// Browses and acts for a user of an AI (an agent).
    AiAgent,
    /// Anything else: ads checks, shopping, research, mirroring tools.
    Other,
    /// Nobody says (a name `robots update` found in a list, without a word about it).
    Unknown,
}

impl Purpose {
    /// Every purpose, in the order `robotscope robots` lists them.
    pub const ALL: [Purpose; 10] = [
        Purpose::Search,
        Purpose::AiTraining,
        Purpose::AiSearch,
        Purpose::AiAssistant,
        Purpose::AiAgent,
        Purpose::Archive,
        Purpose::Seo,
        Purpose::Preview,
        Purpose::Other,
        Purpose::Unknown,
    ];

    /// True for the purposes of AI: training, search answers, assistants, agents.
    #[must_use]
    pub fn is_ai(self) -> bool {
        matches!(self, Purpose::AiTraining | Purpose::AiSearch | Purpose::AiAssistant | Purpose::AiAgent)
    }

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
            Purpose::AiAgent => "ai-agent",
            Purpose::Other => "other",
            Purpose::Unknown => "unknown",
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
    /// What it fetches for, from the operator's documentation where there is one.
    pub purposes: Vec<Purpose>,
    /// The reading it follows by default.
    #[serde(deserialize_with = "reading_from_name")]
    pub reading: Reading,
    /// Whether it is documented as obeying robots.txt.
    pub obeys: Obeys,
    /// The operator's documentation of the robot.
    #[serde(default)]
    pub docs: Option<String>,
    /// The names lists know it by when they are not its token (`iaskspider/2.0`), and
    /// the product names its User-Agent headers carry (`Yahoo! Slurp`).
    #[serde(default)]
    pub listed_as: Vec<String>,
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
    /// True when no robot is known to send the token as its User-Agent: the name in a
    /// header names other software (`OpenAI/Python`, the SDK of `OpenAI`).
    #[serde(default)]
    pub no_header: bool,
    /// For a retired token, the token that replaced it.
    #[serde(default)]
    pub retired_for: Option<String>,
}

/// Whether a robot is documented as obeying robots.txt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Obeys {
    /// Its operator says it does.
    Yes,
    /// Its operator says it does not (fetches a user asked for, most often), or it is
    /// known not to.
    No,
    /// Nobody says.
    Unknown,
}

impl Obeys {
    /// `yes`, `no` or `unknown`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Obeys::Yes => "yes",
            Obeys::No => "no",
            Obeys::Unknown => "unknown",
        }
    }
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
            purposes: vec![Purpose::Unknown],
            reading: Reading::Rfc9309,
            obeys: Obeys::Unknown,
            docs: None,
            listed_as: Vec::new(),
            note: "A robot named by the file or by you.".to_owned(),
            fallback: Vec::new(),
            ignores_star: false,
            control_only: false,
            no_header: false,
            retired_for: None,
        }
    }

    /// True when the robot fetches for `purpose`.
    #[must_use]
    pub fn serves(&self, purpose: Purpose) -> bool {
        self.purposes.contains(&purpose)
    }

    /// The User-agent value a file writes for it: its name when RFC 9309 reads the name
    /// as the token (`AI2Bot` for the token `AI`, which a reader would take for every AI
    /// robot), else the token.
    #[must_use]
    pub fn written(&self) -> &str {
        let token_of_name = crate::policy::parse::product_token(self.name.as_bytes());
        if token_of_name.eq_ignore_ascii_case(self.token.as_bytes()) && !self.name.contains(' ') {
            &self.name
        } else {
            &self.token
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
        let name = if starts_with_token { &self.user_agent } else { &self.token };
        let robot = Robot::with_classic_name(&self.token, name).with_fallbacks(self.fallback.iter().cloned());
        if self.ignores_star { robot.ignoring_star() } else { robot }
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

    /// The registry's robots other than those `tokens` name (as written, any case), as
    /// the policy evaluates them (with their fallbacks): the robots whose verdicts a
    /// block of `tokens` must not change.
    #[must_use]
    pub fn robots_except(&self, tokens: &[String]) -> Vec<Robot> {
        robots_except(&self.profiles, tokens)
    }

    /// The profile with this name or token (case-insensitive), or one a list knows it by
    /// (`iaskspider/2.0`).
    #[must_use]
    pub fn find(&self, query: &str) -> Option<&RobotProfile> {
        self.profiles.iter().find(|profile| profile.is_named(query)).or_else(|| {
            self.profiles.iter().find(|profile| profile.listed_as.iter().any(|name| name.eq_ignore_ascii_case(query)))
        })
    }

    /// The profiles a name that is none of theirs may have meant, the likeliest first:
    /// the same name but for letter case, `-`, `_` and spaces (`GPT-Bot`), names that
    /// start with it (`Claude` for ClaudeBot, Claude-User, ...), then names a letter or
    /// two away (`Claudebot-User`). At most `most`.
    #[must_use]
    pub fn similar(&self, query: &str, most: usize) -> Vec<&RobotProfile> {
        let squeeze = |text: &str| {
            text.chars().filter(|c| !matches!(c, '-' | '_' | ' ')).flat_map(char::to_lowercase).collect::<String>()
        };
        let wanted = squeeze(query);
        if wanted.is_empty() {
            return Vec::new();
        }
        let mut scored: Vec<(usize, usize, &RobotProfile)> = self
            .profiles
            .iter()
            .enumerate()
            .filter_map(|(index, profile)| {
                let names = std::iter::once(&profile.name).chain(std::iter::once(&profile.token));
                let score = names
                    .map(|name| {
                        let name = squeeze(name);
                        if name == wanted {
                            0
                        } else if name.starts_with(&wanted) {
                            1
                        } else {
                            let distance = crate::policy::edit_distance(&wanted, &name);
                            let limit = if wanted.len() <= 5 { 1 } else { 2 };
                            if distance <= limit { 1 + distance } else { usize::MAX }
                        }
                    })
                    .min()?;
                (score != usize::MAX).then_some((score, index, profile))
            })
            .collect();
        scored.sort_by_key(|&(score, index, _)| (score, index));
        scored.into_iter().take(most).map(|(_, _, profile)| profile).collect()
    }

    /// The names an ai.robots.txt list (`robots.json`: an object of name → `operator`,
    /// `respect`, `function`, ...) holds that no profile stands for, added as profiles of
    /// purpose `unknown` (what the list says of each is no operator's documentation);
    /// how many were added. A name with no product token in it (RFC 9309's letters,
    /// `_` and `-`) names no robot a file could name, and is left out, as is one with
    /// characters no robot's name has (control characters, line breaks, over 64 bytes).
    ///
    /// # Errors
    ///
    /// When the text is not of that shape, or lists no robot.
    pub fn with_ai_robots_list(mut self, json: &str) -> Result<(RobotsDb, usize), String> {
        let names = ai_robots_list(json)?;
        let mut added = 0;
        for (name, entry) in names {
            let token = String::from_utf8_lossy(crate::policy::parse::product_token(name.as_bytes())).into_owned();
            // A name is written into files (`robotscope block`) and onto terminals: only
            // the characters robot names are made of (a control character or a line
            // break would smuggle in an escape sequence or a line of its own).
            let writable = name.len() <= 64 && name.chars().all(|c| c.is_ascii_alphanumeric() || "-_. ".contains(c));
            if !writable || token.is_empty() || self.find(&name).is_some() || self.find(&token).is_some() {
                continue;
            }
            let obeys = match entry.respect.trim_start_matches('[').to_ascii_lowercase() {
                respect if respect.starts_with("yes") => Obeys::Yes,
                respect if respect.starts_with("no") => Obeys::No,
                _ => Obeys::Unknown,
            };
            let mut profile = RobotProfile::custom(&token);
            profile.name.clone_from(&name);
            profile.user_agent.clone_from(&name);
            profile.operator = plain_operator(&entry.operator);
            profile.obeys = obeys;
            "Named in the ai.robots.txt list (robots update); nothing more is known of it here."
                .clone_into(&mut profile.note);
            if name != token {
                profile.listed_as.push(name);
            }
            self.profiles.push(profile);
            added += 1;
        }
        Ok((self, added))
    }
}

/// One robot of an ai.robots.txt list, as far as robotscope reads it.
#[derive(Debug, Default, Deserialize)]
pub struct ListedRobot {
    /// Who runs it, often as a Markdown link.
    #[serde(default)]
    pub operator: String,
    /// Whether it obeys robots.txt, in words (`Yes`, `No`, `Unclear at this time.`).
    #[serde(default)]
    pub respect: String,
}

/// The robots of an ai.robots.txt `robots.json`, by name, in the list's order.
///
/// # Errors
///
/// When it is not a JSON object of objects, or holds none.
pub fn ai_robots_list(json: &str) -> Result<Vec<(String, ListedRobot)>, String> {
    let value: serde_json::Value = serde_json::from_str(json).map_err(|error| format!("not JSON: {error}"))?;
    let object = value.as_object().ok_or("not the robots.json shape: an object of robots by name")?;
    let mut robots = Vec::with_capacity(object.len());
    for (name, entry) in object {
        let entry: ListedRobot = serde_json::from_value(entry.clone())
            .map_err(|_| format!("not the robots.json shape: the entry of {name:?} is not an object"))?;
        robots.push((name.clone(), entry));
    }
    if robots.is_empty() {
        return Err("it lists no robot".to_owned());
    }
    Ok(robots)
}

/// An operator as text: `[Name](url)` is `Name`; "Unclear at this time." is `unknown`.
fn plain_operator(operator: &str) -> String {
    let operator = operator.trim();
    if operator.is_empty() || operator.to_ascii_lowercase().starts_with("unclear") {
        return "unknown".to_owned();
    }
    match operator.strip_prefix('[').and_then(|rest| rest.split_once("](")) {
        Some((name, _)) => name.to_owned(),
        None => operator.to_owned(),
    }
}

/// What to know before blocking `profiles`, one sentence for each kind that applies:
/// control tokens fetch nothing, robots documented as not obeying robots.txt are not
/// stopped by it, retired tokens have successors. None for most robots.
#[must_use]
pub fn block_caveats(profiles: &[&RobotProfile]) -> Vec<String> {
    let names = |keep: &dyn Fn(&RobotProfile) -> bool| -> Vec<&str> {
        profiles.iter().filter(|profile| keep(profile)).map(|profile| profile.name.as_str()).collect()
    };
    let mut caveats = Vec::new();
    match names(&|profile| profile.control_only).as_slice() {
        [] => {}
        [one] => caveats.push(format!(
            "{one} fetches nothing: it controls what its operator may do with pages its other crawlers fetch"
        )),
        many => caveats.push(format!(
            "{} fetch nothing: they control what their operators may do with pages their other crawlers fetch",
            many.join(", ")
        )),
    }
    match names(&|profile| profile.obeys == Obeys::No).as_slice() {
        [] => {}
        [one] => caveats.push(format!(
            "{one} is documented as not obeying robots.txt: this will not stop it (robotscope audit shows whether it \
             came)"
        )),
        many => caveats.push(format!(
            "{} are documented as not obeying robots.txt: this will not stop them (robotscope audit shows whether \
             they came)",
            many.join(", ")
        )),
    }
    for profile in profiles {
        if let Some(successor) = &profile.retired_for {
            caveats.push(format!("{} is retired; {successor} replaced it", profile.name));
        }
    }
    caveats
}

/// The robots of `profiles` other than those `tokens` name (as written, any case), as
/// the policy evaluates them (with their fallbacks): the robots whose verdicts a block
/// of `tokens` must not change.
#[must_use]
pub fn robots_except(profiles: &[RobotProfile], tokens: &[String]) -> Vec<Robot> {
    profiles
        .iter()
        .filter(|profile| !tokens.iter().any(|token| token.eq_ignore_ascii_case(profile.written())))
        .map(RobotProfile::robot)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The registry holds every name of ai.robots.txt's list (issue 37), by its name,
    /// a name it is listed as, or the token RFC 9309 reads in it: a list read with
    /// `robots update` adds nothing to the shipped registry.
    #[test]
    fn the_registry_has_every_name_of_the_ai_robots_list() {
        // Compiled in (the registry does no I/O, tests/integration/layering.rs).
        let json = include_str!("../tests/data/ai-robots/robots.json");
        let listed = ai_robots_list(json).expect("robots.json's shape");
        assert!(listed.len() >= 166, "{} names", listed.len());
        let db = RobotsDb::embedded();
        let missing: Vec<&str> = listed
            .iter()
            .map(|(name, _)| name.as_str())
            .filter(|name| {
                let token = String::from_utf8_lossy(crate::policy::parse::product_token(name.as_bytes())).into_owned();
                db.find(name).is_none() && (token.is_empty() || db.find(&token).is_none())
            })
            .collect();
        assert!(missing.is_empty(), "not in assets/robots.toml: {missing:?}");
        assert_eq!(RobotsDb::embedded().with_ai_robots_list(json).expect("a list").1, 0);
    }

    /// A listed name with a control character or a line break is left out: names are
    /// written into files and onto terminals (found by the attack on issue 37).
    #[test]
    fn a_list_cannot_smuggle_escapes_or_lines_in_a_name() {
        let json = r#"{"Evil\u001b[31mBot": {"respect": "No"}, "Sneaky\nSitemap: https://x.example/s.xml": {}, "FineBot": {}}"#;
        let (db, added) = RobotsDb::embedded().with_ai_robots_list(json).expect("a list");
        assert_eq!(added, 1);
        assert!(db.find("FineBot").is_some());
        assert!(db.profiles().iter().all(|profile| !profile.name.contains(['\u{1b}', '\n'])));
    }

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
        assert_eq!(lycos.as_ref().map(Robot::classic_name), Some("lycos_spider_(t-rex)"));
        let googlebot = db.find("Googlebot").map(RobotProfile::robot);
        assert_eq!(googlebot.as_ref().map(Robot::classic_name), Some("googlebot"));
    }

    #[test]
    fn invalid_tokens_are_refused() {
        let text = "[[robot]]\nname='x'\ntoken='Bad/1.0'\nuser_agent='x'\noperator='x'\nera='today'\npurposes=['search']\nreading='rfc9309'\nobeys='yes'\nnote='x'\n";
        assert!(matches!(RobotsDb::from_toml(text), Err(ProfilesError::InvalidToken { .. })));
    }
}
