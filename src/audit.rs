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
    let lower = without_urls(&user_agent.to_ascii_lowercase());
    let known = db
        .profiles()
        .iter()
        .enumerate()
        .filter_map(|(index, profile)| {
            [&profile.token, &profile.name]
                .into_iter()
                .filter_map(|word| token_score(&lower, &word.to_ascii_lowercase()))
                .max()
                .map(|score| (score, std::cmp::Reverse(index)))
        })
        .max()
        .map(|(_, std::cmp::Reverse(index))| Claimed::Known(index));
    known.or_else(|| {
        // A product with a version (`MJ12bot/v1.4.8`): a phone model in a browser's
        // comment (`CUBOT X30`) is no robot.
        user_agent
            .split([' ', ';', '(', ')', ',', '+'])
            .filter_map(|product| product.split_once('/').map(|(name, _)| name))
            .find(|name| {
                let name = name.to_ascii_lowercase();
                !name.starts_with("http")
                    && ["bot", "crawl", "spider", "slurp"].iter().any(|word| name.contains(word))
                    && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            })
            .map(|name| Claimed::Unknown(name.to_owned()))
    })
}

/// How `user_agent` carries `token` (both lower case), when it does: not inside a longer
/// name (`Googlebot` is not in `NotGooglebot2`); followed by a version (`/`) counts
/// before a bare word, then the token's length.
fn token_score(user_agent: &str, token: &str) -> Option<(bool, usize)> {
    let is_name = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
    user_agent
        .match_indices(token)
        .filter(|(at, _)| {
            !is_name(user_agent[..*at].chars().next_back()) && !is_name(user_agent[at + token.len()..].chars().next())
        })
        .map(|(at, _)| (user_agent[at + token.len()..].starts_with('/'), token.len()))
        .max()
}

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
}
