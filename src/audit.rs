//! Access-log audits: which robots fetched what the robots.txt in force at the time
//! disallowed. [`logs`] reads the lines, [`replay`] judges each request against its
//! version, [`robot_of`] says which robot a User-Agent header names, [`identity`]
//! looks addresses up in the operators' published ranges and [`rdns`] asks the DNS.

pub mod identity;
pub mod lists;
pub mod logs;
pub mod rdns;
pub mod replay;
pub mod run;

use crate::robots_db::RobotsDb;

/// The robot a User-Agent header names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claimed {
    /// A robot profile (its index in the database).
    Known(usize),
    /// A robot the database does not know: the product token that names it.
    Unknown(String),
}

/// The robot `user_agent` claims to be: the profile whose product token or name it
/// carries, outside the URLs it gives (`+https://openai.com/gptbot` names no robot
/// `OpenAI`); a product with a version (`GPTBot/1.1`) before a bare word, then the
/// longest, so that `Googlebot-Image` is not taken for `Googlebot` (`YandexBot/3.0`
/// names the profile whose token is `Yandex`), then the first in the registry; else a
/// product with a version whose name calls itself a bot, crawler or spider; `None` for
/// a browser and every other client.
#[must_use]
pub fn robot_of(user_agent: &str, db: &RobotsDb) -> Option<Claimed> {
    // White space of any kind and length parts words as one space does (`Claude  Code`,
    // a tab): the registry writes its names with one.
    let spaced: String = user_agent.split_whitespace().collect::<Vec<_>>().join(" ");
    // A robot's own published User-Agent names it, whatever its words.
    if let Some(index) = db.profiles().iter().position(|profile| profile.user_agent.eq_ignore_ascii_case(&spaced)) {
        return Some(Claimed::Known(index));
    }
    let lower = without_urls(&spaced.to_ascii_lowercase());
    let known = db
        .profiles()
        .iter()
        .enumerate()
        .filter_map(|(index, profile)| {
            names_in_user_agents(profile)
                .filter_map(|word| token_score(&lower, &word.to_ascii_lowercase()))
                .max()
                .map(|score| (score, std::cmp::Reverse(index)))
        })
        .max()
        .map(|(_, std::cmp::Reverse(index))| Claimed::Known(index));
    known.or_else(|| {
        // A product with a version (`MJ12bot/v1.4.8`): a phone model in a browser's
        // comment (`CUBOT X30`) is no robot.
        versioned_products(user_agent)
            .find(|name| {
                let name = name.to_ascii_lowercase();
                !name.starts_with("http")
                    && ["bot", "crawl", "spider", "slurp"].iter().any(|word| name.contains(word))
                    && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ' '))
            })
            .map(Claimed::Unknown)
    })
}

/// The names of the products with a version in `user_agent`, each whole: the words
/// before the `/` back to the last product or the start of a comment part
/// (`Screaming Frog SEO Spider` of `Screaming Frog SEO Spider/19.0`, never its last word
/// alone, which would name the registry's `Spider`; issue 35).
fn versioned_products(user_agent: &str) -> impl Iterator<Item = String> + '_ {
    user_agent.split([';', '(', ')', ',', '+']).flat_map(|part| {
        let mut products = Vec::new();
        let mut words: Vec<&str> = Vec::new();
        for word in part.split(char::is_whitespace).filter(|word| !word.is_empty()) {
            match word.split_once('/') {
                Some((last, _)) => {
                    words.push(last);
                    products.push(words.join(" "));
                    words.clear();
                }
                None => words.push(word),
            }
        }
        products
    })
}

/// The names a robot's User-Agent header may carry: its name, the names lists give it,
/// and its token, unless RFC 9309 cut the token from a name with a digit (`AI` from
/// `AI2Bot`, `img` from `img2dataset`), a word that names no robot by itself.
fn names_in_user_agents(profile: &crate::robots_db::RobotProfile) -> impl Iterator<Item = &String> {
    let cut = profile.name.len() > profile.token.len()
        && profile.name[..profile.token.len()].eq_ignore_ascii_case(&profile.token)
        && profile.name[profile.token.len()..].starts_with(|c: char| c.is_ascii_digit());
    let token = (!cut).then_some(&profile.token);
    token.into_iter().chain(std::iter::once(&profile.name)).chain(&profile.listed_as)
}

/// How `user_agent` carries `token` (both lower case), when it does, as a product of its
/// own: not inside a longer name (`Googlebot` is not in `NotGooglebot2`), nor the last
/// word of a longer product (`Screaming Frog SEO Spider/19.0` names no `Spider`); a bare
/// word (no version) only as a whole part of a comment (`compatible; Bytespider;`) or
/// before a version (`InfoSeek Robot 1.0`), not as a word of a phrase (`AI Phone`).
/// Followed by a version (`/`) counts before a bare word, then the token's length.
fn token_score(user_agent: &str, token: &str) -> Option<(bool, usize)> {
    // Anything but white space and the marks that part products and comments joins a
    // name to the next: `SEO-Spider`, `foo.Spider` and `SEO<U+200B>Spider` name no
    // `Spider` (RFC 9309 reads `SEO-Spider` and `foo` as the tokens there).
    let is_name = |c: Option<char>| c.is_some_and(|c| !c.is_whitespace() && !PARTING_MARKS.contains(c));
    user_agent
        .match_indices(token)
        .filter_map(|(at, _)| {
            let (before, after) = (&user_agent[..at], &user_agent[at + token.len()..]);
            if is_name(before.chars().next_back()) || is_name(after.chars().next()) {
                return None;
            }
            // The word before, when white space parts them (one space, two, a tab:
            // issue 35): a word of the same product (`SEO`), unless it is a product of
            // its own (`Safari/537.36`).
            let rest = before.trim_end_matches(char::is_whitespace);
            let word_before =
                (rest.len() < before.len()).then(|| rest.rsplit(char::is_whitespace).next().unwrap_or(""));
            if word_before
                .is_some_and(|word| word.ends_with(|c: char| c.is_ascii_alphanumeric()) && !word.contains('/'))
            {
                return None;
            }
            let versioned = after.starts_with('/');
            // Followed by a mark that parts products (`Baiduspider+(+http://…)`), or by a
            // version with no `/` (`InfoSeek Robot 1.0`).
            let ends_a_part =
                after.trim_start().chars().next().is_none_or(|c| PARTING_MARKS.contains(c) || c.is_ascii_digit());
            (versioned || ends_a_part).then_some((versioned, token.len()))
        })
        .max()
}

/// The marks that part a User-Agent's products and comments, besides white space: a
/// name next to one of them stands on its own.
const PARTING_MARKS: &str = ";,()[]{}<>/\\+\"'=:@";

/// `user_agent` without the URLs it gives (`+https://openai.com/gptbot`): a robot's name
/// in another's URL names no robot.
fn without_urls(user_agent: &str) -> String {
    let mut kept = String::with_capacity(user_agent.len());
    let mut rest = user_agent;
    while let Some(at) = rest.find("http://").or_else(|| rest.find("https://")) {
        // The `+` that marks a robot's URL goes with it.
        let start = if rest[..at].ends_with('+') { at - 1 } else { at };
        kept.push_str(&rest[..start]);
        let after = &rest[at..];
        let end = after.find([' ', ';', ')', ',']).unwrap_or(after.len());
        rest = &after[end..];
    }
    kept.push_str(rest);
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claimed(user_agent: &str) -> Option<String> {
        let db = RobotsDb::embedded();
        robot_of(user_agent, &db).map(|claimed| match claimed {
            Claimed::Known(index) => db.profiles()[index].token.clone(),
            Claimed::Unknown(token) => format!("?{token}"),
        })
    }

    #[test]
    fn user_agents_name_their_robots() {
        let google = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
        assert_eq!(claimed(google).as_deref(), Some("Googlebot"));
        assert_eq!(claimed("Googlebot-Image/1.0").as_deref(), Some("Googlebot-Image"));
        let gpt =
            "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot";
        assert_eq!(claimed(gpt).as_deref(), Some("GPTBot"));
        // A robot named by its product rather than its robots.txt token.
        assert_eq!(claimed("Mozilla/5.0 (compatible; YandexBot/3.0)").as_deref(), Some("Yandex"));
        assert_eq!(
            claimed("Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)").as_deref(),
            Some("?MJ12bot")
        );
        let firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
        let phone = "Mozilla/5.0 (Linux; Android 10; CUBOT X30) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36";
        assert_eq!(claimed(phone), None, "a phone called CUBOT is no robot");
        assert_eq!(claimed(firefox), None, "browsers are not judged");
        assert_eq!(claimed("NotGooglebot2/1.0").as_deref(), Some("?NotGooglebot2"), "a bot, but not Googlebot");
    }

    /// Short and cut tokens name no robot inside other words (found by a review of
    /// issue 37): the registry's `Spider`, `AI` (of `AI2Bot`) and `Crawl` (of `Crawl4AI`).
    #[test]
    fn short_tokens_name_robots_only_as_products() {
        // The whole product, which the registry's `Spider` is not (issue 35).
        assert_eq!(claimed("Screaming Frog SEO Spider/19.0").as_deref(), Some("?Screaming Frog SEO Spider"));
        // However many spaces or tabs part the words (issue 35).
        for spaced in ["Screaming Frog SEO  Spider/19.0", "Screaming Frog SEO\tSpider/19.0"] {
            assert_eq!(claimed(spaced).as_deref(), Some("?Screaming Frog SEO Spider"), "{spaced:?}");
        }
        assert_eq!(claimed("Visual Studio  Code/1.95"), None, "not the registry's Code");
        // A registry name of two words, however spaced; a name joined by `-` or an
        // invisible character is no registry robot's last word (issue 35).
        for spaced in
            ["Claude Code/1.0", "Claude  Code/1.0", "Claude\tCode/1.0", "Mozilla/5.0 (compatible; Claude  Code/1.0)"]
        {
            assert_eq!(claimed(spaced).as_deref(), Some("Claude-Code"), "{spaced:?}");
        }
        assert_eq!(claimed("SEO-Spider/1.0").as_deref(), Some("?SEO-Spider"));
        assert_eq!(claimed("foo.Spider/1.0"), None, "RFC 9309 reads foo");
        // A name before any parting mark stands on its own (Baidu's older User-Agent).
        assert_eq!(claimed("Baiduspider+(+http://www.baidu.com/search/spider.htm)").as_deref(), Some("Baiduspider"));
        assert_eq!(claimed("Mozilla/5.0 (compatible; GPTBot @x)").as_deref(), Some("GPTBot"));
        // Each robot's own published User-Agent names it (Sidewinder's has two words,
        // Lycos's joins its name to Spider).
        let db = RobotsDb::embedded();
        for profile in db.profiles().iter().filter(|profile| !profile.user_agent.is_empty()) {
            let found = match robot_of(&profile.user_agent, &db) {
                Some(Claimed::Known(index)) => &db.profiles()[index].user_agent,
                other => panic!("{}: {} gives {other:?}", profile.name, profile.user_agent),
            };
            assert_eq!(found, &profile.user_agent, "{}", profile.name);
        }
        assert_eq!(claimed("Screaming Frog SEO\u{200b}Spider/19.0").as_deref(), None);
        let sogou = "Sogou web spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)";
        assert_eq!(claimed(sogou).as_deref(), Some("?Sogou web spider"));
        let phone = "Mozilla/5.0 (Linux; Android 14; AI Phone) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36";
        assert_eq!(claimed(phone), None);
        assert_eq!(
            claimed("Mozilla/5.0 (compatible; AI2Bot/1.0; +https://allenai.org/crawler)").as_deref(),
            Some("AI")
        );
        assert_eq!(claimed("Crawl4AI/0.6").as_deref(), Some("Crawl"));
        assert_eq!(claimed("Mozilla/5.0 (compatible; Crawl; +https://example.com)"), None, "Crawl4AI's cut token");
        let slurp = "Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)";
        assert_eq!(claimed(slurp).as_deref(), Some("Slurp"));
        assert_eq!(
            claimed("Mozilla/5.0 (compatible; Bytespider; spider-feedback@bytedance.com)").as_deref(),
            Some("Bytespider")
        );
        assert_eq!(claimed("InfoSeek Robot 1.0").as_deref(), Some("Infoseek"));
    }
}
