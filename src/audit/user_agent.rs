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
    /// Whether a version follows it (`/1.0`, or ` 1.0` outside comments).
    pub versioned: bool,
    /// Whether it is an item of a comment (in parentheses): a browser describes its
    /// platform there (`Linux; Android 14; CUBOT NOTE 40 Build/TP1A`).
    pub in_comment: bool,
}

/// The products and comment items of `user_agent`, in order. What is neither (a URL, a
/// mail address, the rest of a word after a character no token has) parts the names
/// around it and is dropped.
#[must_use]
pub fn products(user_agent: &str) -> Vec<Product> {
    let mut found = Vec::new();
    // Parentheses open and close comments; `;` and `,` part a comment's items, and
    // robots put them between products too. None of them can be in a name.
    let mut depth = 0usize;
    let mut rest = user_agent;
    while !rest.is_empty() {
        let end = rest.find(['(', ')', ';', ',']).unwrap_or(rest.len());
        words_of(&rest[..end], depth > 0, &mut found);
        match rest[end..].chars().next() {
            Some('(') => depth += 1,
            Some(')') => depth = depth.saturating_sub(1),
            _ => {}
        }
        rest = rest.get(end + 1..).unwrap_or("");
    }
    found
}

/// The products of one part of a header (between parentheses, `;` and `,`).
fn words_of(part: &str, in_comment: bool, found: &mut Vec<Product>) {
    let mut phrase: Vec<&str> = Vec::new();
    let mut flush = |phrase: &mut Vec<&str>, versioned: bool| {
        if phrase.is_empty() {
            return;
        }
        // The `+` that marks a robot's URL sticks to its name in old headers
        // (`Baiduspider+(+http://…)`).
        let name = phrase.join(" ").trim_end_matches('+').to_owned();
        phrase.clear();
        if !name.is_empty() {
            found.push(Product { name, versioned, in_comment });
        }
    };
    for word in part.split_whitespace() {
        if is_address(word) {
            flush(&mut phrase, false);
            continue;
        }
        // A version after a space ends the product before it (`InfoSeek Robot 1.0`),
        // outside comments: inside, a number is a model's (`Spider 2 Pro`).
        if !in_comment && !phrase.is_empty() && word.starts_with(|c: char| c.is_ascii_digit()) {
            flush(&mut phrase, true);
            continue;
        }
        let name_end = word.find(|c: char| !is_name_char(c)).unwrap_or(word.len());
        if name_end > 0 {
            phrase.push(&word[..name_end]);
        }
        match word[name_end..].chars().next() {
            None => {}
            Some('/') => flush(&mut phrase, true),
            // A character no token has (`=`, `@`, `:`, `"`): the name stops there,
            // and the rest of the word is no name.
            Some(_) => flush(&mut phrase, false),
        }
    }
    flush(&mut phrase, false);
}

/// A URL or a mail address, which names no robot (`+https://openai.com/gptbot` names no
/// `OpenAI`, `+claudebot@anthropic.com` no `ClaudeBot`); a handle (`@LinkArchiver`) is
/// neither.
fn is_address(word: &str) -> bool {
    let mail = word.split_once('@').is_some_and(|(user, domain)| !user.is_empty() && domain.contains('.'));
    word.contains("://") || mail || word.starts_with("+http") || word.starts_with("www.")
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
    /// Each robot's own published header, as its products read whatever their versions
    /// (`Claude-User (claude-code/2.1.86)` and `/2.1.87` are one robot's).
    headers: HashMap<Vec<String>, usize>,
    /// Each name a product or comment item may carry, in lower case: the first robot in
    /// the registry that carries it.
    names: HashMap<String, usize>,
    /// Each profile's product token.
    tokens: Vec<String>,
}

impl RobotNames {
    /// The names of every robot in `db` that fetches: a token that only states a use of
    /// content (`Google-Extended`) is sent by no robot.
    #[must_use]
    pub fn new(db: &RobotsDb) -> RobotNames {
        let mut headers = HashMap::new();
        let mut names = HashMap::new();
        for (index, profile) in db.profiles().iter().enumerate().filter(|(_, profile)| !profile.control_only) {
            if !profile.user_agent.is_empty() {
                headers.entry(shape(&profile.user_agent)).or_insert(index);
            }
            // A name no robot sends names other software (`OpenAI/Python`).
            if profile.no_header {
                continue;
            }
            for name in names_in_user_agents(profile) {
                // A listed name is read as a header is (`iaskspider/2.0` is the product
                // `iaskspider`).
                if let Some(product) = products(name).into_iter().next() {
                    names.entry(product.name.to_ascii_lowercase()).or_insert(index);
                }
            }
        }
        let tokens = db.profiles().iter().map(|profile| profile.token.clone()).collect();
        RobotNames { headers, names, tokens }
    }

    /// The robot `user_agent` claims to be: the registry robot whose own header it is
    /// (whatever the versions); else the first product or comment item that names a
    /// robot, a registry one by its whole name or one of its own (see `unknown_robot`): a
    /// robot names itself first (`MyBot/1.0 Scrapy/2.11` is `MyBot`, not Scrapy). `None`
    /// for a browser, an app and every other client.
    #[must_use]
    pub fn robot_of(&self, user_agent: &str) -> Option<Claimed> {
        let products = products(user_agent);
        let shape: Vec<String> = products.iter().map(|product| product.name.to_ascii_lowercase()).collect();
        if let Some(&index) = self.headers.get(&shape) {
            // Named by its own header: by the product in it that is one of its names.
            let own = products.iter().zip(&shape).find(|(_, name)| self.names.get(*name) == Some(&index));
            return Some(own.map_or(Claimed::Known(index), |(product, _)| self.claimed(index, &product.name)));
        }
        let gives_address = user_agent.split_whitespace().any(is_address)
            || user_agent.split(['(', ')', ';', ',']).any(|part| part.trim_start().starts_with("+http"));
        // An app's default header names the app, never a robot of its own: iOS's
        // (`SpiderSolitaire/1.2 CFNetwork/1494 Darwin/23`), AFNetworking's (`(iPhone; iOS
        // 17.2; Scale/3.00)`), Alamofire's, okhttp's and Android's Dalvik.
        let compatible = shape.iter().any(|name| name == "compatible");
        let app =
            shape.iter().any(|name| ["cfnetwork", "alamofire", "okhttp", "dalvik", "scale"].contains(&name.as_str()));
        products.into_iter().zip(&shape).find_map(|(product, name)| match self.names.get(name) {
            // A bare word in a comment is a device's or a platform's (`Android 14;
            // Spider`), unless the header says it is a robot's the way robots do: its URL
            // or address, or `compatible;` (`Mozilla/5.0 (compatible; Bytespider)`).
            Some(_) if product.in_comment && !product.versioned && !gives_address && !compatible => None,
            Some(&index) => Some(self.claimed(index, &product.name)),
            None => (!app && unknown_robot(&product, gives_address)).then_some(Claimed::Unknown(product.name)),
        })
    }
}

impl RobotNames {
    /// Profile `index`'s robot, named by the product `name`: under a token of its own
    /// when RFC 9309 reads another in `name` than the profile's (`YandexBot`,
    /// `AwarioSmartBot`), so that groups naming that robot apply to it (Yandex's
    /// documentation: `User-agent: YandexBot` is for the main indexing robot alone).
    /// Only a product that is a token whole gets one: `Yahoo! Slurp` is Slurp, not a
    /// robot `Yahoo` (RFC 9309 reads the first word of a name of several).
    fn claimed(&self, index: usize, name: &str) -> Claimed {
        let robot = crate::policy::named_robot(name);
        let token = robot.token();
        if token == name && !token.eq_ignore_ascii_case(&self.tokens[index]) {
            Claimed::KnownAs(index, name.to_owned())
        } else {
            Claimed::Known(index)
        }
    }
}

/// A header's products in lower case, versions aside.
fn shape(user_agent: &str) -> Vec<String> {
    products(user_agent).into_iter().map(|product| product.name.to_ascii_lowercase()).collect()
}

/// Whether `product` is a robot the registry does not know: its name ends in a word
/// that calls it a bot, a crawler or a spider (`MJ12bot`, `Speedy Spider`,
/// `DuckDuckBot-Https`; not `StormCrawler Archetype`, nor the bare word `crawler`), and
/// it is a product as robots write theirs, with a version (`MJ12bot/v1.4.8`) or in a
/// header that gives the robot's URL or address (`compatible; AdsBot-Google-Mobile;
/// +http://…`). In a comment without either, where browsers describe the device, only
/// a name of one word counts (`Android 12; CUBOT_X50 Build/SP1A` is a phone). A name of
/// more than four words or 64 bytes, with a word of digits alone (`Hebrew 2024 Spring
/// Crawl`), or that starts with no letter or digit, is no robot's.
fn unknown_robot(product: &Product, gives_address: bool) -> bool {
    let name = product.name.to_ascii_lowercase();
    let words: Vec<&str> = name.split(' ').collect();
    let last = words.last().copied().unwrap_or_default();
    let robot_word = |part: &str| {
        let part = part.trim_end_matches(|c: char| c.is_ascii_digit());
        ["bot", "crawl", "crawler", "spider", "slurp"].iter().any(|word| part.ends_with(word))
    };
    let generic = ["bot", "robot", "crawl", "crawler", "spider", "webcrawler"].contains(&name.as_str())
        // `like Googlebot`, `like Gecko`: a comparison, not a name.
        || words.first() == Some(&"like");
    (product.versioned || gives_address)
        && (!product.in_comment || words.len() == 1 || gives_address)
        && words.len() <= 4
        && name.len() <= 64
        && !generic
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && !words.iter().any(|word| word.bytes().all(|b| b.is_ascii_digit()))
        && last.split(['-', '_']).any(robot_word)
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ' '))
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
            Claimed::Known(index) | Claimed::KnownAs(index, _) => db.profiles()[index].token.clone(),
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
        // A robot names itself first: a name in a comment after it is not its own.
        assert_eq!(claimed("Mozilla/5.0 (compatible; GPTBot; Wget/1.21)").as_deref(), Some("GPTBot"));
        assert_eq!(
            claimed("Mozilla/5.0 (compatible; Claude-User/1.0; claude-code/2.1.86)").as_deref(),
            Some("Claude-User")
        );
        // Yandex's robots, Yahoo's Slurps, and robots the registry does not know that
        // give their URL (issue 35).
        assert_eq!(
            claimed("Mozilla/5.0 (compatible; YandexImages/3.0; +http://yandex.com/bots)").as_deref(),
            Some("Yandex")
        );
        assert_eq!(
            claimed("Mozilla/5.0 (compatible; Yahoo! Slurp China; http://misc.yahoo.com.cn/help.html)").as_deref(),
            Some("Slurp")
        );
        let ads = "Mozilla/5.0 (iPhone) Safari/604.1 (compatible; AdsBot-Google-Mobile; +http://www.google.com/mobile/adsbot.html)";
        assert_eq!(claimed(ads).as_deref(), Some("AdsBot-Google-Mobile"), "a registry robot that ignores *");
        assert_eq!(
            claimed("Baiduspider-image+(+http://www.baidu.com/search/spider.htm)").as_deref(),
            Some("?Baiduspider-image")
        );
        // A robot's own header names it whatever its versions (issue 35: Claude Code's
        // and Lycos's were matched only to the letter).
        let claude = "Claude-User (claude-code/2.1.87; +https://support.anthropic.com/)";
        assert_eq!(claimed(claude).as_deref(), Some("Claude-Code"));
        assert_eq!(claimed("Lycos_Spider_(T-Rex)/3.1").as_deref(), Some("Lycos"));
        // A robot names itself first, known or not: a library after it is not it.
        let research =
            "Mozilla/5.0 (compatible; MyResearchBot/1.0; +https://example.edu/bot) Scrapy/2.11.2 (+https://scrapy.org)";
        assert_eq!(claimed(research).as_deref(), Some("?MyResearchBot"));
        assert_eq!(
            claimed("ArchiveBot/1.0 (+https://example.org/archivebot) Wget/1.21.4").as_deref(),
            Some("?ArchiveBot")
        );
        let duck = "Mozilla/5.0 (compatible; DuckDuckBot-Https/1.1; https://duckduckgo.com/duckduckbot)";
        assert_eq!(claimed(duck).as_deref(), Some("?DuckDuckBot-Https"));
        for awario in [
            "AwarioSmartBot/1.0 (+https://awario.com/bots.html; bots@awario.com)",
            "AwarioBot/1.0 (+https://awario.com/bots.html)",
        ] {
            assert_eq!(claimed(awario).as_deref(), Some("Awario"), "{awario}");
        }
        // Apps, SDKs, devices, and words that are no robots' names (issue 35).
        for client in [
            "OpenAI/Python 1.54.3",
            "RoboBot/3.2 (iPhone; iOS 17.2; Scale/3.00)",
            "ChatBot/5.2.1 (com.example.chatbot; build:512; iOS 17.2.1) Alamofire/5.8.1",
            "Mozilla/5.0 (Linux; Android 14; Spider) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36",
            "FreshRSS/1.24.3 (Linux; https://freshrss.org) like Googlebot",
            "@LinkArchiver twitter bot",
            "SpiderSolitaire/1.2.3 CFNetwork/1494.0.7 Darwin/23.4.0",
            "ChatBot/12 CFNetwork/1494.0.7 Darwin/23.4.0",
            "Marvelbotanics Garden/1.0",
            "Y!J-BRW/1.0 crawler (http://help.yahoo.co.jp/help/jp/search/indexing/indexing-15.html)",
            "robot;Owler;ops@owler-inc.com",
            "Synapse (bot; +https://matrix.org)",
            "Aranea/1.0 (Hebrew 2024 Spring Crawl; http://x.example)",
            "Thunderbird/1.0.6 - WebCrawler http://x.example",
            "Google-Extended/1.0",
        ] {
            assert_eq!(claimed(client), None, "{client}");
        }
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
        // A bare word, not the registry's Crawl4AI, whose cut token is Crawl.
        assert_eq!(claimed("Mozilla/5.0 (compatible; Crawl; +https://example.com)"), None);
        assert_eq!(claimed("Mozilla/5.0 (compatible; Crawl)"), None, "no version, no address: a word");
        let slurp = "Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)";
        assert_eq!(claimed(slurp).as_deref(), Some("Slurp"));
        assert_eq!(
            claimed("Mozilla/5.0 (compatible; Bytespider; spider-feedback@bytedance.com)").as_deref(),
            Some("Bytespider")
        );
        assert_eq!(claimed("InfoSeek Robot 1.0").as_deref(), Some("Infoseek"));
        assert_eq!(claimed("InfoSeek Robot 1.1").as_deref(), Some("Infoseek"), "another version");
        // A profile's robot under a token of its own only when its product is a token
        // whole: `Yahoo! Slurp` is Slurp itself, not a robot `Yahoo` (issue 35).
        let db = RobotsDb::embedded();
        let names = RobotNames::new(&db);
        let slurp = "Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)";
        assert!(matches!(names.robot_of(slurp), Some(Claimed::Known(_))));
        let yandex = "Mozilla/5.0 (compatible; YandexImages/3.0; +http://yandex.com/bots)";
        assert!(matches!(names.robot_of(yandex), Some(Claimed::KnownAs(_, name)) if name == "YandexImages"));
        // Phones describe themselves in a comment: a model is no robot (issue 35).
        for phone in [
            "Mozilla/5.0 (Linux; Android 12; CUBOT_X50 Build/SP1A.210812.016; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0 Mobile Safari/537.36",
            "Mozilla/5.0 (Linux; Android 13; CUBOT NOTE 40 Build/TP1A) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36",
            "Mozilla/5.0 (Linux; Android 10; CUBOT KINGKONG 5 Pro Build/QP1A) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36",
            "Mozilla/5.0 (Linux; Android 14; Spider 2 Pro) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36",
        ] {
            assert_eq!(claimed(phone), None, "{phone}");
        }
        let long = format!("{} Spider0bot/1.0", "word ".repeat(60));
        assert_eq!(claimed(&long), None, "no robot's name is 61 words long");
        assert_eq!(claimed("G2 Web Services/1.0 (built with StormCrawler Archetype 1.8; http://x)"), None);
        let speedy =
            "Mozilla/5.0 (compatible; Speedy Spider; http://www.entireweb.com/about/search_tech/speedy_spider/)";
        assert_eq!(claimed(speedy).as_deref(), Some("?Speedy Spider"), "a robot that gives its URL");
    }

    /// Each robot's own published User-Agent names it (Sidewinder's has two words,
    /// Lycos's joins its name to Spider).
    #[test]
    fn every_robot_is_named_by_its_own_header() {
        let db = RobotsDb::embedded();
        let names = RobotNames::new(&db);
        // (A token that only states a use of content is sent by no robot.)
        for profile in db.profiles().iter().filter(|profile| !profile.user_agent.is_empty() && !profile.control_only) {
            let found = match names.robot_of(&profile.user_agent) {
                Some(Claimed::Known(index) | Claimed::KnownAs(index, _)) => &db.profiles()[index].user_agent,
                other => panic!("{}: {} gives {other:?}", profile.name, profile.user_agent),
            };
            assert_eq!(found, &profile.user_agent, "{}", profile.name);
        }
    }
}
