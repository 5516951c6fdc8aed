//! Which robot a User-Agent header names. The header is read as RFC 9110 §10.1.5 writes
//! it, products (`token ["/" version]`) and comments in parentheses, made tolerant of
//! what robots send in practice: products of several words (`Screaming Frog SEO
//! Spider/19.0`), comment items parted by `;` or `,` (also outside parentheses, as
//! GPTBot's header has them), a version after a space (`InfoSeek Robot 1.0`), URLs and
//! mail addresses among the names. A registry robot is named only by a whole product or
//! a whole comment item, never by a word inside one: `Visual Studio Code/1.95` names no
//! robot `Code`, `SEO-Spider` no `Spider`.

use std::collections::HashMap;

use super::Claimed;
use crate::robots_db::{RobotProfile, RobotsDb};

/// A product a User-Agent header names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Product {
    /// Its name, its words parted by one space whatever white space parted them.
    pub name: String,
    /// Whether a version follows it (`/1.0`, or ` 1.0`).
    pub versioned: bool,
}

/// The products and comment items of `user_agent`, in order. What is neither (a URL, a
/// mail address, the rest of a word after a character no token has) parts the names
/// around it and is dropped.
#[must_use]
pub fn products(user_agent: &str) -> Vec<Product> {
    let mut found = Vec::new();
    // Parentheses open and close comments; `;` and `,` part a comment's items, and
    // robots put them between products too. None of them can be in a name.
    for part in user_agent.split(['(', ')', ';', ',']) {
        let mut phrase: Vec<&str> = Vec::new();
        for word in part.split_whitespace() {
            if is_address(word) {
                flush(&mut phrase, false, &mut found);
                continue;
            }
            // A version after a space ends the product before it (`InfoSeek Robot 1.0`,
            // `Android 14`).
            if !phrase.is_empty() && word.starts_with(|c: char| c.is_ascii_digit()) {
                flush(&mut phrase, true, &mut found);
                continue;
            }
            let name_end = word.find(|c: char| !is_name_char(c)).unwrap_or(word.len());
            if name_end > 0 {
                phrase.push(&word[..name_end]);
            }
            match word[name_end..].chars().next() {
                None => {}
                Some('/') => flush(&mut phrase, true, &mut found),
                // A character no token has (`=`, `@`, `:`, `"`): the name stops there,
                // and the rest of the word is no name.
                Some(_) => flush(&mut phrase, false, &mut found),
            }
        }
        flush(&mut phrase, false, &mut found);
    }
    found
}

/// Ends the product `phrase` holds, if any.
fn flush(phrase: &mut Vec<&str>, versioned: bool, found: &mut Vec<Product>) {
    if phrase.is_empty() {
        return;
    }
    // The `+` that marks a robot's URL sticks to its name in old headers
    // (`Baiduspider+(+http://…)`).
    let name = phrase.join(" ").trim_end_matches('+').to_owned();
    phrase.clear();
    if !name.is_empty() {
        found.push(Product { name, versioned });
    }
}

/// A URL or a mail address, which names no robot (`+https://openai.com/gptbot` names no
/// `OpenAI`, `+claudebot@anthropic.com` no `ClaudeBot`).
fn is_address(word: &str) -> bool {
    word.contains("://") || word.contains('@') || word.starts_with("+http") || word.starts_with("www.")
}

/// RFC 9110's `tchar`, and any character outside ASCII: such a character joins a name to
/// the next (`SEO<U+200B>Spider` is one name, no `Spider`).
fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c) || !c.is_ascii()
}

/// The registry's robots by the names their User-Agent headers carry, looked up once per
/// header.
#[derive(Debug)]
pub struct RobotNames {
    /// Each robot's own published header, white space collapsed, in lower case.
    headers: HashMap<String, usize>,
    /// Each name a product or comment item may carry, in lower case: the first robot in
    /// the registry that carries it.
    names: HashMap<String, usize>,
}

impl RobotNames {
    /// The names of every robot in `db`.
    #[must_use]
    pub fn new(db: &RobotsDb) -> RobotNames {
        let mut headers = HashMap::new();
        let mut names = HashMap::new();
        for (index, profile) in db.profiles().iter().enumerate() {
            if !profile.user_agent.is_empty() {
                headers.entry(collapsed(&profile.user_agent)).or_insert(index);
            }
            for name in names_in_user_agents(profile) {
                // A listed name is read as a header is (`iaskspider/2.0` is the product
                // `iaskspider`).
                if let Some(product) = products(name).into_iter().next() {
                    names.entry(product.name.to_ascii_lowercase()).or_insert(index);
                }
            }
        }
        RobotNames { headers, names }
    }

    /// The robot `user_agent` claims to be: the registry robot whose own header it is;
    /// else the one a product or comment item names, a product with a version before a
    /// bare one, then the longest name, then the first in the registry; else a product
    /// with a version whose name calls itself a bot, crawler or spider; `None` for a
    /// browser and every other client.
    #[must_use]
    pub fn robot_of(&self, user_agent: &str) -> Option<Claimed> {
        if let Some(&index) = self.headers.get(&collapsed(user_agent)) {
            return Some(Claimed::Known(index));
        }
        let products = products(user_agent);
        let known = products
            .iter()
            .filter_map(|product| {
                let name = product.name.to_ascii_lowercase();
                let &index = self.names.get(&name)?;
                Some((product.versioned, name.len(), std::cmp::Reverse(index)))
            })
            .max()
            .map(|(_, _, std::cmp::Reverse(index))| Claimed::Known(index));
        known.or_else(|| {
            // A product with a version (`MJ12bot/v1.4.8`): a phone model in a browser's
            // comment (`CUBOT X30`) is no robot.
            products
                .into_iter()
                .find(|product| {
                    let name = product.name.to_ascii_lowercase();
                    product.versioned
                        && ["bot", "crawl", "spider", "slurp"].iter().any(|word| name.contains(word))
                        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ' '))
                })
                .map(|product| Claimed::Unknown(product.name))
        })
    }
}

/// `text` in lower case with each run of white space one space (`Claude  Code`, a tab).
fn collapsed(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ").to_ascii_lowercase()
}

/// The names a robot's User-Agent header may carry: its name, the names lists give it,
/// and its token, unless RFC 9309 cut the token from a name with a digit (`AI` from
/// `AI2Bot`, `img` from `img2dataset`), a word that names no robot by itself.
fn names_in_user_agents(profile: &RobotProfile) -> impl Iterator<Item = &String> {
    let cut = profile.name.len() > profile.token.len()
        && profile.name[..profile.token.len()].eq_ignore_ascii_case(&profile.token)
        && profile.name[profile.token.len()..].starts_with(|c: char| c.is_ascii_digit());
    let token = (!cut).then_some(&profile.token);
    token.into_iter().chain(std::iter::once(&profile.name)).chain(&profile.listed_as)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(user_agent: &str) -> Vec<(String, bool)> {
        products(user_agent).into_iter().map(|product| (product.name, product.versioned)).collect()
    }

    fn claimed(user_agent: &str) -> Option<String> {
        let db = RobotsDb::embedded();
        RobotNames::new(&db).robot_of(user_agent).map(|claimed| match claimed {
            Claimed::Known(index) => db.profiles()[index].token.clone(),
            Claimed::Unknown(token) => format!("?{token}"),
        })
    }

    #[test]
    fn headers_are_read_as_products_and_comment_items() {
        let owned = |list: &[(&str, bool)]| list.iter().map(|&(name, v)| (name.to_owned(), v)).collect::<Vec<_>>();
        assert_eq!(
            names("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"),
            owned(&[("Mozilla", true), ("compatible", false), ("Googlebot", true)])
        );
        assert_eq!(names("Screaming Frog SEO  Spider/19.0"), owned(&[("Screaming Frog SEO Spider", true)]));
        assert_eq!(names("InfoSeek Robot 1.0"), owned(&[("InfoSeek Robot", true)]));
        assert_eq!(names("Baiduspider+(+http://www.baidu.com/search/spider.htm)"), owned(&[("Baiduspider", false)]));
        assert_eq!(names("GPTBot @x; a=b"), owned(&[("GPTBot", false), ("a", false)]));
        assert_eq!(
            names("(X11; Linux x86_64; rv:128.0)"),
            owned(&[("X11", false), ("Linux x86_64", false), ("rv", false)])
        );
        assert_eq!(names(""), owned(&[]));
        assert_eq!(names("((;;))/ / ;"), owned(&[]));
    }

    #[test]
    fn user_agents_name_their_robots() {
        let google = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
        assert_eq!(claimed(google).as_deref(), Some("Googlebot"));
        assert_eq!(claimed("Googlebot-Image/1.0").as_deref(), Some("Googlebot-Image"));
        let gpt =
            "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot";
        assert_eq!(claimed(gpt).as_deref(), Some("GPTBot"));
        let claude =
            "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)";
        assert_eq!(claimed(claude).as_deref(), Some("ClaudeBot"));
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
        assert_eq!(claimed("Evil Googlebot/2.1").as_deref(), Some("?Evil Googlebot"), "a product of its own");
    }

    /// Short and cut tokens name no robot inside other words (issues 35 and 37): the
    /// registry's `Spider`, `Code`, `AI` (of `AI2Bot`) and `Crawl` (of `Crawl4AI`).
    #[test]
    fn registry_names_match_whole_products_only() {
        assert_eq!(claimed("Screaming Frog SEO Spider/19.0").as_deref(), Some("?Screaming Frog SEO Spider"));
        for spaced in ["Screaming Frog SEO  Spider/19.0", "Screaming Frog SEO\tSpider/19.0"] {
            assert_eq!(claimed(spaced).as_deref(), Some("?Screaming Frog SEO Spider"), "{spaced:?}");
        }
        assert_eq!(claimed("Visual Studio  Code/1.95"), None, "not the registry's Code");
        for spaced in
            ["Claude Code/1.0", "Claude  Code/1.0", "Claude\tCode/1.0", "Mozilla/5.0 (compatible; Claude  Code/1.0)"]
        {
            assert_eq!(claimed(spaced).as_deref(), Some("Claude-Code"), "{spaced:?}");
        }
        assert_eq!(claimed("SEO-Spider/1.0").as_deref(), Some("?SEO-Spider"));
        assert_eq!(claimed("foo.Spider/1.0"), None, "RFC 9309 reads foo");
        assert_eq!(claimed("Screaming Frog SEO\u{200b}Spider/19.0"), None);
        // After a character no token has, the rest of the word is no name; a name that
        // goes on is another name.
        for joined in ["x=Spider/1.0", "x:Spider", "x@Spider", "GPTBotx/1.0", "x.GPTBot", "x\u{e9}GPTBot/1.0"] {
            assert_ne!(claimed(joined).as_deref(), Some("Spider"), "{joined:?}");
            assert_ne!(claimed(joined).as_deref(), Some("GPTBot"), "{joined:?}");
        }
        assert_eq!(claimed("Baiduspider+(+http://www.baidu.com/search/spider.htm)").as_deref(), Some("Baiduspider"));
        // Before such a character, a name stands on its own.
        for parted in ["Mozilla/5.0 (compatible; GPTBot @x)", "GPTBot=x", "GPTBot:1", "GPTBot\"x\""] {
            assert_eq!(claimed(parted).as_deref(), Some("GPTBot"), "{parted:?}");
        }
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
        assert_eq!(claimed("InfoSeek Robot 1.1").as_deref(), Some("Infoseek"), "another version");
    }

    /// Each robot's own published User-Agent names it (Sidewinder's has two words,
    /// Lycos's joins its name to Spider).
    #[test]
    fn every_robot_is_named_by_its_own_header() {
        let db = RobotsDb::embedded();
        let names = RobotNames::new(&db);
        for profile in db.profiles().iter().filter(|profile| !profile.user_agent.is_empty()) {
            let found = match names.robot_of(&profile.user_agent) {
                Some(Claimed::Known(index)) => &db.profiles()[index].user_agent,
                other => panic!("{}: {} gives {other:?}", profile.name, profile.user_agent),
            };
            assert_eq!(found, &profile.user_agent, "{}", profile.name);
        }
    }
}
