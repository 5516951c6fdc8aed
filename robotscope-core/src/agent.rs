//! Which group(s) apply to a robot under a reading, and why.
//!
//! A [`Robot`] is who asks: a product token for RFC 9309, a name for the classic
//! readings' substring match, and, for robot profiles, a fallback chain and flags.
//! [`select`] answers with the groups that apply and a [`Choice`] saying how they were
//! chosen, which the verdict turns into words.

use super::parse::{AgentLine, AgentName, Interpretation, MAX_INDEXED_NAME_BYTES, RobotsTxt, product_token};
use super::reading::Reading;

/// The robot a question is asked for: a product token (RFC 9309), a name (the classic
/// readings), robots to fall back to, and whether it obeys the `*` group.
///
/// ```
/// use robotscope_core::{Matcher, Reading, Robot, RobotsTxt};
/// let txt = RobotsTxt::parse("User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nDisallow: /x\n");
/// let image = Robot::from_agent("Googlebot-Image").with_fallbacks(["Googlebot"]);
/// assert!(Matcher::for_robot(&txt, &image, Reading::Rfc9309).allowed("/y"), "Googlebot's group, not *");
/// assert!(!Matcher::new(&txt, "OtherBot", Reading::Rfc9309).allowed("/y"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Robot {
    pub(crate) token: String,
    pub(crate) classic_name: String,
    pub(crate) fallbacks: Vec<String>,
    pub(crate) ignores_star: bool,
}

impl Robot {
    /// The robot named by `agent`: the string is the product token and, for the classic
    /// readings, the name; no fallbacks, no flags. Give the product token (`MyCrawler`,
    /// not `MyCrawler/1.0`): under RFC 9309 anything else names no group and gets `*`
    /// ([`is_valid_token`] checks, [`suggest_token`] finds one in a User-Agent header).
    ///
    /// # Examples
    ///
    /// ```
    /// use robotscope_core::Robot;
    /// let robot = Robot::from_agent("Lycos_Spider_(T-Rex)/1.0 libwww/3.1");
    /// assert_eq!(robot.classic_name(), "lycos_spider_(t-rex)");
    /// ```
    #[must_use]
    pub fn from_agent(agent: &str) -> Robot {
        Robot { token: agent.to_owned(), classic_name: classic_name(agent), fallbacks: Vec::new(), ignores_star: false }
    }

    part! {
        /// A robot whose product token and 1990s name differ: `token` for RFC 9309, `name`
        /// (cut as [`classic_name`] cuts it) for the classic readings' substring match.
        ///
        /// ```
        /// # #[cfg(feature = "parts")] {
        /// use robotscope_core::Robot;
        /// let robot = Robot::with_classic_name("Slurp", "Slurp.so/1.0");
        /// assert_eq!((robot.token(), robot.classic_name()), ("Slurp", "slurp.so"));
        /// # }
        /// ```
        #[must_use]
        pub fn with_classic_name(token: &str, name: &str) -> Robot {
            Robot { token: token.to_owned(), classic_name: classic_name(name), fallbacks: Vec::new(), ignores_star: false }
        }
    }

    /// The same robot, trying `tokens` in order when no group names it, before the `*`
    /// group (Googlebot-Image falls back to Googlebot).
    ///
    /// ```
    /// use robotscope_core::{Matcher, Reading, Robot, RobotsTxt};
    /// let txt = RobotsTxt::parse(b"User-agent: Googlebot\nDisallow: /x\n".to_vec());
    /// let image = Robot::from_agent("Googlebot-Image").with_fallbacks(["Googlebot"]);
    /// assert!(!Matcher::for_robot(&txt, &image, Reading::Rfc9309).allowed("/x"));
    /// ```
    #[must_use]
    pub fn with_fallbacks<T: Into<String>>(mut self, tokens: impl IntoIterator<Item = T>) -> Robot {
        self.fallbacks = tokens.into_iter().map(Into::into).collect();
        self
    }

    /// The same robot, obeying only groups that name it and never the `*` group (as
    /// Google's `AdsBot` does).
    #[must_use]
    pub fn ignoring_star(mut self) -> Robot {
        self.ignores_star = true;
        self
    }

    /// The product token compared, case-insensitively, with each group's tokens under
    /// RFC 9309. Taken as given: `Scooter/3.0` is not a token and names no group.
    #[must_use]
    pub fn token(&self) -> &str {
        &self.token
    }

    /// The name the classic readings look for record values in, by substring:
    /// lower-cased and cut at its first `/`, as `urllib.robotparser` does.
    #[must_use]
    pub fn classic_name(&self) -> &str {
        &self.classic_name
    }

    /// Tokens tried, in order, when no group names this robot; the `*` group comes
    /// after them.
    #[must_use]
    pub fn fallbacks(&self) -> &[String] {
        &self.fallbacks
    }

    /// True for robots that obey only groups naming them and ignore `*`.
    #[must_use]
    pub fn ignores_star(&self) -> bool {
        self.ignores_star
    }
}

/// The name classic readers compare against: lower-cased, up to the first `/`.
#[must_use]
pub fn classic_name(name: &str) -> String {
    name.split('/').next().unwrap_or_default().to_lowercase()
}

/// True when `token` is a product token RFC 9309 robots can obey: one or more ASCII
/// letters, `_` or `-`, and nothing else (Google's `IsValidUserAgentToObey`).
///
/// # Examples
///
/// ```
/// use robotscope_core::is_valid_token;
/// assert!(is_valid_token("Googlebot-Image"));
/// assert!(!is_valid_token("Scooter/3.0"));
/// assert!(!is_valid_token(""));
/// ```
#[must_use]
pub fn is_valid_token(token: &str) -> bool {
    !token.is_empty() && product_token(token.as_bytes()).len() == token.len()
}

/// The product token to suggest for a string that is not one, read as a crawler's
/// User-Agent header: the product after `compatible;` (`Mozilla/5.0 (compatible;
/// Googlebot/2.1)` gives `Googlebot`), else a product named like a robot (`... Safari/605
/// (Applebot/0.1)` gives `Applebot`), else the first product whose name is a token
/// (`Scooter/3.0` gives `Scooter`, `Yahoo! Slurp` gives `Slurp`). A name may carry its
/// version after a `-` or `_` (`MyBot-1.0` gives `MyBot`); a name with other characters
/// (`Bücherbot`, `archive.org_bot`) is no token and gives none rather than a piece of
/// it, and neither does a browser's header (`Mozilla/5.0 (X11; Linux x86_64) ...`: not
/// `Linux`, not `Mozilla`), whose robot, if any, is named after `compatible;` or as a
/// versioned product named like a robot.
///
/// # Examples
///
/// ```
/// use robotscope_core::suggest_token;
/// let header = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
/// assert_eq!(suggest_token(header).as_deref(), Some("Googlebot"));
/// assert_eq!(suggest_token("MyCrawler/1.0").as_deref(), Some("MyCrawler"));
/// assert_eq!(suggest_token("Mozilla/5.0 (X11; Linux x86_64)"), None);
/// ```
#[must_use]
pub fn suggest_token(agent: &str) -> Option<String> {
    // A product's name as a token: all of it, or all of it before a version.
    let token_of = |product: &str| -> Option<String> {
        let name = product.split('/').next().unwrap_or_default().trim();
        let token_len = product_token(name.as_bytes()).len();
        let (token, rest) = name.split_at(token_len);
        let token = if rest.is_empty() {
            token
        } else if rest.starts_with(|c: char| c.is_ascii_digit()) {
            token.trim_end_matches(['-', '_'])
        } else {
            return None;
        };
        (is_valid_token(token) && !token.eq_ignore_ascii_case("mozilla")).then(|| token.to_owned())
    };
    let named_like_a_robot = |product: &str| {
        let lower = product.to_ascii_lowercase();
        ["bot", "crawl", "spider", "slurp"].iter().any(|word| lower.contains(word))
    };
    // A browser-like header (`Mozilla/5.0 (...)`) names its robot after `compatible;`
    // or as a versioned product named like one; its other words (`Linux`, `Windows`,
    // `compatible`) are not the robot.
    if let Some((_, after)) = agent.split_once("compatible;") {
        let words = header_words(after);
        let found = words.iter().filter(|word| named_like_a_robot(word)).find_map(|word| token_of(word));
        // Else the product right after `compatible;`, if versioned (`Qwantify/2.4w`, not
        // `MSIE 9.0`).
        let first = words.first().filter(|word| word.contains('/')).and_then(|word| token_of(word));
        if let Some(token) = found.or(first) {
            return Some(token);
        }
    }
    let words = header_words(agent);
    let versioned_robot =
        words.iter().filter(|word| word.contains('/') && named_like_a_robot(word)).find_map(|word| token_of(word));
    let browser_like = agent.contains("compatible")
        || agent.trim_start().get(..8).is_some_and(|head| head.eq_ignore_ascii_case("mozilla/"));
    if browser_like {
        return versioned_robot;
    }
    versioned_robot.or_else(|| words.iter().find_map(|word| token_of(word)))
}

/// A User-Agent header's words: what lies between spaces, brackets, `;`, `,` and `+`.
fn header_words(header: &str) -> Vec<&str> {
    header.split(|c: char| c.is_whitespace() || "();,+".contains(c)).filter(|word| !word.is_empty()).collect()
}

/// How the applicable groups were chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Choice {
    /// Groups that name the robot's own token (RFC 9309), merged when there are several.
    Token(String),
    /// No group names the robot; groups naming a token from its fallback chain apply.
    Fallback(String),
    /// The first record whose User-agent value equals the robot's name (classic).
    ExactName(String),
    /// The first record whose User-agent value is found inside the robot's name
    /// (classic: `charl` matches Charlotte).
    Substring(String),
    /// No group names the robot; the `*` group(s) apply.
    Star,
    /// No group names the robot and the file has no `*` group: no rule applies.
    NoGroup,
    /// No group names the robot, and the robot ignores the `*` group.
    StarIgnored,
    /// The file could not be read, so no group applies and the fetch outcome decides
    /// (see [`Availability`](super::availability::Availability)).
    FileNotRead,
}

/// The groups that apply to a robot, as indices into [`Interpretation::groups`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    pub(crate) groups: Vec<usize>,
    pub(crate) choice: Choice,
}

impl Selection {
    /// The groups, as indices into [`Interpretation::groups`], in file order. RFC 9309
    /// merges them all; the classic readings take one record at most.
    #[must_use]
    pub fn groups(&self) -> &[usize] {
        &self.groups
    }

    /// How they were chosen.
    #[must_use]
    pub fn choice(&self) -> &Choice {
        &self.choice
    }
}

impl Selection {
    /// True when more than one group applies, so their rules were merged.
    #[must_use]
    pub fn is_merged(&self) -> bool {
        self.groups.len() > 1
    }
}

/// Chooses the groups that apply to `robot` under `reading`.
///
/// RFC 9309 §2.2.1: every group naming the robot's token applies, merged; failing that,
/// every `*` group, merged. The classic readings take the first record that matches and
/// otherwise the (first) `*` record. A robot profile's fallback tokens are tried before
/// `*`, and a robot that ignores `*` gets no group instead.
#[must_use]
pub fn select(interpretation: &Interpretation, robot: &Robot, reading: Reading) -> Selection {
    let names = std::iter::once(robot.token.as_str()).chain(robot.fallbacks.iter().map(String::as_str));
    for (position, name) in names.enumerate() {
        let found = if reading.is_classic() {
            let wanted = if position == 0 { robot.classic_name.clone() } else { classic_name(name) };
            first_record_for(interpretation, &wanted)
        } else {
            groups_for_token(interpretation, name)
        };
        if let Some(mut selection) = found {
            if position > 0 {
                selection.choice = Choice::Fallback(name.to_owned());
            }
            return selection;
        }
    }
    if robot.ignores_star {
        return Selection { groups: Vec::new(), choice: Choice::StarIgnored };
    }
    let take = if reading.is_classic() { 1 } else { usize::MAX };
    let groups: Vec<usize> = match interpretation.select_index(reading, INDEXED_FROM_AGENTS) {
        // Listed once per file: every robot no group names comes here, and a scan of
        // every group for each made a file naming 50,000 robots cost 2.5 billion looks
        // (issue 35: lint's 500 KiB check asks about each of them).
        Some(index) => index.star_groups().iter().copied().take(take).collect(),
        None => interpretation
            .groups()
            .iter()
            .enumerate()
            .filter(|(_, group)| group.names_star())
            .map(|(index, _)| index)
            .take(take)
            .collect(),
    };
    let choice = if groups.is_empty() { Choice::NoGroup } else { Choice::Star };
    Selection { groups, choice }
}

/// The groups whose User-agent lines name `name` whole, letter case aside (Unicode's
/// lower case), under `reading`'s grouping: for a name that is no product token
/// (`UnicödeBöt`), which RFC 9309 cuts to its first letters and so matches to no group.
/// Scrapy's own backends match such a name whole; its backend in robotscope does the
/// same (`robotscope.scrapy`), and nothing else here does. `None` when no group names
/// it.
#[must_use]
pub fn select_whole_name(txt: &RobotsTxt, name: &str, reading: Reading) -> Option<Selection> {
    let wanted = name.trim().to_lowercase();
    let groups = groups_naming(txt.interpretation(reading), |agent| {
        String::from_utf8_lossy(txt.text(&agent.value())).trim().to_lowercase() == wanted
    });
    let groups = if reading.is_classic() { groups.into_iter().take(1).collect() } else { groups };
    (!groups.is_empty()).then(|| Selection { groups, choice: Choice::ExactName(name.trim().to_owned()) })
}

/// Files naming more robots than this get an index for [`select`]: below it, looking
/// through every User-agent line costs less than building one.
const INDEXED_FROM_AGENTS: usize = 64;

fn groups_for_token(interpretation: &Interpretation, token: &str) -> Option<Selection> {
    if let Some(index) = interpretation.select_index(Reading::Rfc9309, INDEXED_FROM_AGENTS) {
        let groups = index.groups_for_token(token);
        return (!groups.is_empty()).then(|| Selection { groups, choice: Choice::Token(token.to_owned()) });
    }
    let groups = groups_naming(
        interpretation,
        |agent| matches!(&agent.name(), AgentName::Name(name) if name.eq_ignore_ascii_case(token)),
    );
    (!groups.is_empty()).then(|| Selection { groups, choice: Choice::Token(token.to_owned()) })
}

/// The groups with a User-agent line that `names` holds true for, in file order.
fn groups_naming(interpretation: &Interpretation, names: impl Fn(&AgentLine) -> bool) -> Vec<usize> {
    let groups = interpretation.groups().iter().enumerate();
    groups.filter(|(_, group)| group.agents().iter().any(&names)).map(|(index, _)| index).collect()
}

fn first_record_for(interpretation: &Interpretation, name: &str) -> Option<Selection> {
    let record_choice = |index: usize, group: &super::parse::Group| {
        group
            .agents()
            .iter()
            .find_map(|agent| match &agent.name() {
                AgentName::Name(value) if value == name => Some(Choice::ExactName(value.clone())),
                AgentName::Name(value) if name.contains(value.as_str()) => Some(Choice::Substring(value.clone())),
                _ => None,
            })
            .map(|choice| Selection { groups: vec![index], choice })
    };
    // The index finds the record; the record says how it was chosen. A name too long to
    // take apart is looked for line by line.
    let index = interpretation
        .select_index(Reading::Draft1996, INDEXED_FROM_AGENTS)
        .filter(|_| name.len() <= MAX_INDEXED_NAME_BYTES);
    match index {
        Some(index) => index.first_record_for(name).and_then(|at| record_choice(at, &interpretation.groups()[at])),
        None => interpretation.groups().iter().enumerate().find_map(|(index, group)| record_choice(index, group)),
    }
}

#[cfg(test)]
mod tests {
    use std::fmt::Write as _;

    use super::*;
    use crate::RobotsTxt;

    fn choose(text: &str, robot: &Robot, reading: Reading) -> Selection {
        let txt = RobotsTxt::parse(text.as_bytes().to_vec());
        select(txt.interpretation(reading), robot, reading)
    }

    #[test]
    fn merged_groups_under_rfc9309_first_record_under_classic() {
        let text = "User-agent: a\nDisallow: /x\n\nUser-agent: b\nDisallow: /y\n\nUser-agent: A\nDisallow: /z\n";
        let robot = Robot::from_agent("A");
        assert_eq!(choose(text, &robot, Reading::Rfc9309).groups, vec![0, 2]);
        assert_eq!(choose(text, &robot, Reading::Draft1996).groups, vec![0]);
    }

    /// Issue 35: a name that is no product token is found whole, letter case aside (for
    /// the Scrapy backend); RFC 9309's own selection cuts it to its first letters.
    #[test]
    fn a_whole_name_finds_the_groups_naming_it() {
        let txt = RobotsTxt::parse(
            "User-agent: *\nDisallow: /a\n\nUser-Agent: UnicödeBöt\nDisallow: /b\n".as_bytes().to_vec(),
        );
        let found = select_whole_name(&txt, "unicödeböt", Reading::Rfc9309).expect("found");
        assert_eq!((found.groups, found.choice), (vec![1], Choice::ExactName("unicödeböt".to_owned())));
        assert!(select_whole_name(&txt, "Unic", Reading::Rfc9309).is_none());
        let token = select(txt.interpretation(Reading::Rfc9309), &Robot::from_agent("UnicödeBöt"), Reading::Rfc9309);
        assert_eq!(token.choice, Choice::Star, "RFC 9309 tokens are ASCII");
    }

    /// A robot no group names gets every `*` group under RFC 9309 and the first under
    /// the classic readings, from the index in a file that names many robots as from a
    /// look through every group in a small one (issue 35: the look, done for each of
    /// 50,000 robots, made lint quadratic).
    #[test]
    fn the_star_groups_come_from_the_index_as_from_a_look_through() {
        for robots in [3, 200] {
            let mut text = String::new();
            for i in 0..robots {
                let _ = write!(text, "User-agent: bot{i}x\nDisallow: /{i}\n\n");
                if i % 50 == 1 {
                    let _ = write!(text, "User-agent: *\nDisallow: /star{i}\n\n");
                }
            }
            let txt = RobotsTxt::parse(text.into_bytes());
            let nobody = Robot::from_agent("Nobody");
            let stars: Vec<usize> = (0..txt.interpretation(Reading::Rfc9309).groups().len())
                .filter(|&g| txt.interpretation(Reading::Rfc9309).groups()[g].names_star())
                .collect();
            assert_eq!(stars.len(), if robots == 3 { 1 } else { 4 });
            assert_eq!(select(txt.interpretation(Reading::Rfc9309), &nobody, Reading::Rfc9309).groups, stars);
            for reading in [Reading::Draft1996, Reading::Koster1994] {
                let first = select(txt.interpretation(reading), &nobody, reading).groups;
                assert_eq!(first, [stars[0]], "{reading}");
            }
        }
    }

    /// A file that names many robots is looked up in an index: it chooses as looking
    /// through every line does (computed here by brute force), under every reading.
    #[test]
    fn the_index_chooses_as_every_line_looked_through() {
        let names = ["ab", "b", "ba", "aab", "Bot", "bot-x", "ab", "x", "bab", "é", "aé", "botx"];
        let mut text = String::new();
        for i in 0..120 {
            let _ = write!(text, "User-agent: {}\nDisallow: /{i}\n\n", names[i % names.len()]);
            if i % 5 == 0 {
                let _ = write!(text, "User-agent: {}\nUser-agent: n{i}\nAllow: /{i}\n\n", names[(i + 3) % names.len()]);
            }
        }
        let txt = RobotsTxt::parse(text.into_bytes());
        for robot_name in ["ab", "aabab", "Bot", "BOT-X", "botxx", "é", "xaéx", "zzz", "n10", "n1"] {
            let robot = Robot::from_agent(robot_name);
            for reading in Reading::ALL {
                let interpretation = txt.interpretation(reading);
                let got = select(interpretation, &robot, reading).groups;
                let named = |group: &super::super::parse::Group| {
                    group.agents().iter().any(|agent| match agent.name() {
                        AgentName::Name(value) if reading.is_classic() => robot.classic_name().contains(value.as_str()),
                        AgentName::Name(value) => value.eq_ignore_ascii_case(robot.token()),
                        AgentName::Star => false,
                    })
                };
                let matching = interpretation.groups().iter().enumerate().filter(|(_, g)| named(g)).map(|(i, _)| i);
                let expected: Vec<usize> =
                    if reading.is_classic() { matching.take(1).collect() } else { matching.collect() };
                assert!(interpretation.select_index(reading, INDEXED_FROM_AGENTS).is_some(), "indexed");
                assert_eq!(got, expected, "{robot_name} under {reading}");
            }
        }
    }

    #[test]
    fn substring_match_is_classic_only() {
        let text = "User-agent: charl\nDisallow: /cgi-bin\n";
        let robot = Robot::from_agent("Charlotte");
        assert_eq!(choose(text, &robot, Reading::Koster1994).choice, Choice::Substring("charl".into()));
        assert_eq!(choose(text, &robot, Reading::Rfc9309).choice, Choice::NoGroup);
    }

    #[test]
    fn fallback_chain_comes_before_star() {
        let text = "User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nDisallow: /nogoogle\n";
        let robot = Robot { fallbacks: vec!["Googlebot".into()], ..Robot::from_agent("Googlebot-Image") };
        let selection = choose(text, &robot, Reading::Rfc9309);
        assert_eq!(selection.choice, Choice::Fallback("Googlebot".into()));
        assert_eq!(selection.groups, vec![1]);
    }

    #[test]
    fn robots_that_ignore_star_get_no_group() {
        let text = "User-agent: *\nDisallow: /\n";
        let robot = Robot { ignores_star: true, ..Robot::from_agent("AdsBot-Google") };
        assert_eq!(choose(text, &robot, Reading::Rfc9309).choice, Choice::StarIgnored);
    }

    #[test]
    fn token_suggestions() {
        assert_eq!(suggest_token("Scooter/3.0").as_deref(), Some("Scooter"));
        assert_eq!(suggest_token("Acme Crawler").as_deref(), Some("Acme"));
        assert_eq!(suggest_token("123"), None);
        let googlebot_smartphone = "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 \
            (KHTML, like Gecko) Chrome/99.0 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
        assert_eq!(suggest_token(googlebot_smartphone).as_deref(), Some("Googlebot"));
        assert_eq!(suggest_token("Mozilla/5.0 (compatible; bingbot/2.0)").as_deref(), Some("bingbot"));
        let applebot =
            "Mozilla/5.0 (Macintosh) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)";
        assert_eq!(suggest_token(applebot).as_deref(), Some("Applebot"));
        assert_eq!(suggest_token("MyBot-1.0").as_deref(), Some("MyBot"));
        assert_eq!(suggest_token("my_bot_2 (+https://example.com)").as_deref(), Some("my_bot"));
        assert_eq!(suggest_token("Yahoo! Slurp").as_deref(), Some("Slurp"));
        assert_eq!(suggest_token("Scrapy/2.13 (+https://scrapy.org)").as_deref(), Some("Scrapy"));
        // Names that are no token give none, not a piece of themselves.
        assert_eq!(suggest_token("Bücherbot/1.0"), None);
        assert_eq!(suggest_token("Ünïcode/1"), None);
        assert_eq!(suggest_token("archive.org_bot"), None);
        assert_eq!(suggest_token("Mozilla/5.0 (compatible; Mail.RU_Bot/2.0)"), None);
        let mail_ru = "Mozilla/5.0 (compatible; Linux x86_64; Mail.RU_Bot/2.0; +http://go.mail.ru/help/robots)";
        assert_eq!(suggest_token(mail_ru), None, "not Linux, not Mozilla");
        assert_eq!(
            suggest_token("Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)")
                .as_deref(),
            Some("Slurp")
        );
        assert_eq!(
            suggest_token("Baiduspider+(+http://www.baidu.com/search/spider.htm)").as_deref(),
            Some("Baiduspider")
        );
        assert_eq!(
            suggest_token("Mozilla/5.0 (compatible; Qwantify/2.4w; +https://www.qwant.com/)").as_deref(),
            Some("Qwantify")
        );
        // A browser's header names no robot.
        for browser in [
            "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36",
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36",
            "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0",
            "Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; Trident/5.0)",
            "Mozilla/5.0 (compatible)",
        ] {
            assert_eq!(suggest_token(browser), None, "{browser}");
        }
    }
}
