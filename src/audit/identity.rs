//! Whether a request came from where its robot's operator says it crawls from: the
//! operators' published address ranges (Google's `googlebot.json`, Bing's, `OpenAI`'s, in
//! one JSON shape), looked up in a binary prefix trie, and the host names their robots'
//! addresses resolve to. Pure: the lists and the names are given ([`super::rdns`] asks
//! the DNS).

use std::net::IpAddr;

/// An operator's robots that can be checked, and how: the lists of address ranges it
/// publishes and the host names its robots' addresses resolve to.
#[derive(Debug)]
pub struct Family {
    /// Who runs them.
    pub operator: &'static str,
    /// The product tokens they go by, in lower case.
    pub tokens: &'static [&'static str],
    /// The lists of ranges it publishes (`robotscope bots update` fetches them).
    pub lists: &'static [PublishedList],
    /// The domains its robots' reverse DNS names end in, as its documentation gives them.
    pub suffixes: &'static [&'static str],
}

/// A list of address ranges an operator publishes: the file's name, and its address.
#[derive(Debug)]
pub struct PublishedList {
    /// The file's name, which `bots update` keeps it under and `--bot-ips` recognises.
    pub name: &'static str,
    /// Where the operator publishes it.
    pub url: &'static str,
}

const fn list(name: &'static str, url: &'static str) -> PublishedList {
    PublishedList { name, url }
}

/// The operators whose robots' addresses can be checked, from their documentation.
pub static FAMILIES: &[Family] = &[
    Family {
        operator: "Google",
        tokens: &[
            "googlebot",
            "googlebot-image",
            "googlebot-news",
            "googlebot-video",
            "storebot-google",
            "google-inspectiontool",
            "googleother",
            "googleother-image",
            "googleother-video",
            "google-cloudvertexbot",
            "adsbot-google",
            "adsbot-google-mobile",
            "mediapartners-google",
            "apis-google",
            "feedfetcher-google",
            "google-read-aloud",
            "google-site-verification",
            "google-safety",
        ],
        lists: &[
            list("googlebot.json", "https://developers.google.com/static/search/apis/ipranges/googlebot.json"),
            list(
                "special-crawlers.json",
                "https://developers.google.com/static/search/apis/ipranges/special-crawlers.json",
            ),
            list(
                "user-triggered-fetchers.json",
                "https://developers.google.com/static/search/apis/ipranges/user-triggered-fetchers.json",
            ),
            list(
                "user-triggered-fetchers-google.json",
                "https://developers.google.com/static/search/apis/ipranges/user-triggered-fetchers-google.json",
            ),
        ],
        // Not googleusercontent.com: any Google Cloud machine's name ends in it.
        suffixes: &["googlebot.com", "google.com"],
    },
    Family {
        operator: "Microsoft",
        tokens: &["bingbot", "bingpreview", "msnbot", "msnbot-media", "adidxbot"],
        lists: &[list("bingbot.json", "https://www.bing.com/toolbox/bingbot.json")],
        suffixes: &["search.msn.com"],
    },
    Family {
        operator: "OpenAI",
        tokens: &["gptbot"],
        lists: &[list("gptbot.json", "https://openai.com/gptbot.json")],
        suffixes: &[],
    },
    Family {
        operator: "OpenAI",
        tokens: &["oai-searchbot"],
        lists: &[list("searchbot.json", "https://openai.com/searchbot.json")],
        suffixes: &[],
    },
    Family {
        operator: "OpenAI",
        tokens: &["chatgpt-user"],
        lists: &[list("chatgpt-user.json", "https://openai.com/chatgpt-user.json")],
        suffixes: &[],
    },
    Family {
        operator: "Perplexity",
        tokens: &["perplexitybot"],
        lists: &[list("perplexitybot.json", "https://www.perplexity.com/perplexitybot.json")],
        suffixes: &[],
    },
    Family {
        operator: "Perplexity",
        tokens: &["perplexity-user"],
        lists: &[list("perplexity-user.json", "https://www.perplexity.com/perplexity-user.json")],
        suffixes: &[],
    },
    Family {
        operator: "Apple",
        tokens: &["applebot"],
        lists: &[list("applebot.json", "https://search.developer.apple.com/applebot.json")],
        suffixes: &["applebot.apple.com"],
    },
    Family {
        operator: "Common Crawl",
        tokens: &["ccbot"],
        lists: &[list("ccbot.json", "https://index.commoncrawl.org/ccbot.json")],
        suffixes: &["crawl.commoncrawl.org"],
    },
    Family {
        operator: "DuckDuckGo",
        tokens: &["duckduckbot", "duckassistbot"],
        lists: &[
            list("duckduckbot.json", "https://duckduckgo.com/duckduckbot.json"),
            list("duckassistbot.json", "https://duckduckgo.com/duckassistbot.json"),
        ],
        suffixes: &[],
    },
    Family {
        operator: "Yandex",
        tokens: &["yandex", "yandexbot", "yandeximages", "yandexmobilebot", "yandexvideo", "yandexnews"],
        lists: &[],
        suffixes: &["yandex.ru", "yandex.net", "yandex.com"],
    },
    Family { operator: "Baidu", tokens: &["baiduspider"], lists: &[], suffixes: &["baidu.com", "baidu.jp"] },
    Family { operator: "Amazon", tokens: &["amazonbot"], lists: &[], suffixes: &["crawl.amazonbot.amazon"] },
];

/// The lists shipped inside robotscope, as the operators published them (each carries its
/// `creationTime`); `bots update` keeps newer ones in the user's data directory. These are
/// the copies at hand where robotscope is built, which has no internet: see
/// `assets/bot-ips/SOURCES.md`.
pub static EMBEDDED: &[(&str, &str)] = &[
    ("googlebot.json", include_str!("../../assets/bot-ips/googlebot.json")),
    ("gptbot.json", include_str!("../../assets/bot-ips/gptbot.json")),
    ("searchbot.json", include_str!("../../assets/bot-ips/searchbot.json")),
    ("applebot.json", include_str!("../../assets/bot-ips/applebot.json")),
];

/// Whether a request came from its robot's operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Identity {
    /// Its address is in the operator's ranges, or its reverse DNS name is the
    /// operator's and resolves back to it.
    Verified,
    /// Its robot's operator publishes ranges or names, and its address fails them.
    Forged,
    /// Nothing to check it against: the operator publishes neither, no list of its is at
    /// hand, or the DNS did not answer in time.
    Unverifiable,
}

impl Identity {
    /// Its name in the output.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Identity::Verified => "verified",
            Identity::Forged => "forged",
            Identity::Unverifiable => "unverifiable",
        }
    }

    /// What the checks say: `in_ranges` (`None`: no list of the operator at hand), and
    /// `reverse_dns` (`None`: not asked; `Some(None)`: no answer in time). A reverse DNS
    /// name the operator's, resolving back, is proof even when a list is out of date.
    #[must_use]
    pub fn of(in_ranges: Option<bool>, reverse_dns: Option<Option<bool>>) -> Identity {
        match (in_ranges, reverse_dns) {
            (Some(true), _) | (_, Some(Some(true))) => Identity::Verified,
            (Some(false), _) | (_, Some(Some(false))) => Identity::Forged,
            _ => Identity::Unverifiable,
        }
    }
}

/// True when `host` (a reverse DNS name) is one of `suffixes` or under one:
/// `crawl-66-249-66-1.googlebot.com.` is under `googlebot.com`, `evilgooglebot.com` is not.
#[must_use]
pub fn host_is_under(host: &str, suffixes: &[String]) -> bool {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    suffixes
        .iter()
        .any(|suffix| host == *suffix || host.strip_suffix(suffix.as_str()).is_some_and(|head| head.ends_with('.')))
}

/// A list that was read, for the report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadedList {
    /// Its file name.
    pub name: String,
    /// Its `creationTime`, when it says.
    pub created: Option<String>,
    /// How many ranges it holds.
    pub ranges: usize,
    /// Where it was read: `embedded`, or a path.
    pub from: String,
}

/// The operators' families and the lists at hand: which family a robot belongs to, and
/// whether an address is in its ranges.
#[derive(Debug, Clone)]
pub struct Verifier {
    /// Each family's tokens and reverse DNS suffixes: the known ones, then robots given a
    /// list of their own (`--bot-ips TOKEN=FILE`).
    families: Vec<(Vec<String>, Vec<String>)>,
    /// The lists read for each family.
    loaded: Vec<Vec<LoadedList>>,
    /// Each family's ranges, in a trie of its own (lists of two operators may overlap:
    /// an address in both belongs to both).
    tries: Vec<PrefixTrie>,
    /// The ranges held, over every list, and the lists left out whole past `MAX_RANGES`.
    ranges: usize,
    left_out: Vec<String>,
}

/// The ranges held at most, over every list: a trie node is a few bytes, and a hostile
/// list of IPv6 /128s costs a hundred nodes a range. The operators' lists hold a few
/// thousand together.
pub const MAX_RANGES: usize = 50_000;

impl Default for Verifier {
    /// The known families, with no list read yet.
    fn default() -> Verifier {
        let families: Vec<_> = FAMILIES
            .iter()
            .map(|family| {
                let owned = |items: &[&str]| items.iter().map(|item| (*item).to_owned()).collect();
                (owned(family.tokens), owned(family.suffixes))
            })
            .collect();
        Verifier {
            loaded: vec![Vec::new(); families.len()],
            tries: vec![PrefixTrie::default(); families.len()],
            families,
            ranges: 0,
            left_out: Vec::new(),
        }
    }
}

impl Verifier {
    /// The family a robot (its product token) belongs to.
    #[must_use]
    pub fn family_of(&self, token: &str) -> Option<usize> {
        let token = token.to_ascii_lowercase();
        self.families.iter().position(|(tokens, _)| tokens.contains(&token))
    }

    /// The family whose published list is called `name` (`googlebot.json`).
    #[must_use]
    pub fn family_of_list(name: &str) -> Option<usize> {
        FAMILIES.iter().position(|family| family.lists.iter().any(|list| list.name.eq_ignore_ascii_case(name)))
    }

    /// Adds `list` to `family`'s ranges. A list of the same name read before is replaced in
    /// the report (its ranges stay: ranges are only ever added, and a newer list of an
    /// operator keeps most of the old one's).
    pub fn add(&mut self, family: usize, name: &str, list: RangeList, from: String) {
        let count = list.ranges.len();
        // A list is taken whole or not at all: half a list would make the robots of the
        // half left out forged, where none are unverifiable.
        if self.ranges + count > MAX_RANGES {
            self.left_out.push(name.to_owned());
            return;
        }
        self.ranges += count;
        for range in list.ranges {
            self.tries[family].insert(range, 0);
        }
        let loaded = &mut self.loaded[family];
        loaded.retain(|old| old.name != name);
        loaded.push(LoadedList { name: name.to_owned(), created: list.created, ranges: count, from });
    }

    /// Adds a list for the robot `token`: to its family when it has one, else to a family
    /// of its own (that checks no DNS name).
    pub fn add_for_robot(&mut self, token: &str, name: &str, list: RangeList, from: String) {
        let family = self.family_of(token).unwrap_or_else(|| {
            self.families.push((vec![token.to_ascii_lowercase()], Vec::new()));
            self.loaded.push(Vec::new());
            self.tries.push(PrefixTrie::default());
            self.families.len() - 1
        });
        self.add(family, name, list, from);
    }

    /// Whether `address` is in `family`'s ranges; `None` when no list of it was read.
    #[must_use]
    pub fn in_ranges(&self, family: usize, address: IpAddr) -> Option<bool> {
        if self.loaded[family].is_empty() {
            return None;
        }
        Some(self.tries[family].owner_of(address).is_some())
    }

    /// The domains `family`'s reverse DNS names end in.
    #[must_use]
    pub fn suffixes(&self, family: usize) -> &[String] {
        &self.families[family].1
    }

    /// The lists left out past [`MAX_RANGES`].
    #[must_use]
    pub fn lists_left_out(&self) -> &[String] {
        &self.left_out
    }

    /// Every list read.
    pub fn lists(&self) -> impl Iterator<Item = &LoadedList> {
        self.loaded.iter().flatten()
    }
}

/// Why a list of ranges cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ListError {
    /// Not JSON of the published shape.
    #[error("not a list of address ranges ({0})")]
    Shape(String),
    /// A prefix that is no address range.
    #[error("{0:?} is not an address range")]
    Prefix(String),
    /// A range too wide to be a crawler's: it would verify whoever claims the robot.
    #[error("{0:?} is too wide a range to be a crawler's (/16 at most for IPv4, /32 for IPv6): it would verify anyone")]
    TooWide(String),
}

/// A published list: when it was made, and its ranges.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RangeList {
    /// The list's own `creationTime`, when it says.
    pub created: Option<String>,
    /// Each range: an address and how many of its leading bits are fixed.
    pub ranges: Vec<(IpAddr, u8)>,
}

impl RangeList {
    /// Reads the shape the operators publish:
    /// `{"creationTime": "...", "prefixes": [{"ipv4Prefix": "66.249.64.0/27"}, {"ipv6Prefix": "2001:4860:4801:10::/64"}]}`.
    ///
    /// # Errors
    ///
    /// When the text is not of that shape, or a prefix is no address range.
    pub fn parse(json: &str) -> Result<RangeList, ListError> {
        let value: serde_json::Value =
            serde_json::from_str(json).map_err(|error| ListError::Shape(error.to_string()))?;
        let prefixes = value
            .get("prefixes")
            .and_then(serde_json::Value::as_array)
            .ok_or_else(|| ListError::Shape("no \"prefixes\" array".to_owned()))?;
        let mut ranges = Vec::with_capacity(prefixes.len());
        for prefix in prefixes {
            let text = ["ipv4Prefix", "ipv6Prefix"]
                .iter()
                .find_map(|key| prefix.get(*key).and_then(serde_json::Value::as_str))
                .ok_or_else(|| ListError::Shape(format!("a prefix without an address: {prefix}")))?;
            ranges.push(parse_range(text)?);
        }
        let created = value.get("creationTime").and_then(serde_json::Value::as_str).map(str::to_owned);
        Ok(RangeList { created, ranges })
    }
}

/// True when two ranges share an address (each an address and how many of its leading
/// bits are fixed; IPv4 and IPv6 share none).
#[must_use]
pub fn ranges_overlap((a, a_bits): (IpAddr, u8), (b, b_bits): (IpAddr, u8)) -> bool {
    let bits = a_bits.min(b_bits);
    match (a, b) {
        (IpAddr::V4(a), IpAddr::V4(b)) => {
            let mask = u32::MAX.checked_shl(32 - u32::from(bits)).unwrap_or(0);
            u32::from(a) & mask == u32::from(b) & mask
        }
        (IpAddr::V6(a), IpAddr::V6(b)) => {
            let mask = u128::MAX.checked_shl(128 - u32::from(bits)).unwrap_or(0);
            u128::from(a) & mask == u128::from(b) & mask
        }
        _ => false,
    }
}

/// `66.249.64.0/27` as its address and length.
fn parse_range(text: &str) -> Result<(IpAddr, u8), ListError> {
    let bad = || ListError::Prefix(text.to_owned());
    let (address, length) = text.split_once('/').ok_or_else(bad)?;
    let address: IpAddr = address.parse().map_err(|_| bad())?;
    let length: u8 = length.parse().map_err(|_| bad())?;
    let most = if address.is_ipv4() { 32 } else { 128 };
    if length > most {
        return Err(bad());
    }
    // A range this wide is no crawler's: 0.0.0.0/0 or ::/0 in a list would verify anyone
    // (issue 35). Operators publish /24 and narrower, /64 for IPv6.
    let least = match address {
        IpAddr::V4(_) => 16,
        IpAddr::V6(v6) if v6.to_ipv4_mapped().is_some() => 96 + 16,
        IpAddr::V6(_) => 32,
    };
    if length < least {
        return Err(ListError::TooWide(text.to_owned()));
    }
    // An IPv4 range written as IPv6 (`::ffff:66.249.64.0/123`) is an IPv4 range: mapped
    // addresses are looked up as IPv4.
    if let IpAddr::V6(v6) = address
        && let Some(v4) = v6.to_ipv4_mapped()
        && length >= 96
    {
        return Ok((IpAddr::V4(v4), length - 96));
    }
    Ok((address, length))
}

/// Address ranges, each naming what it belongs to (an index into the caller's list of
/// operators): a binary trie per address family, so that a lookup costs the address's
/// bits, not the number of ranges.
#[derive(Debug, Clone, Default)]
pub struct PrefixTrie {
    v4: Bits,
    v6: Bits,
}

/// One family's trie: node 0 is the root; a child index of 0 means none.
#[derive(Debug, Clone)]
struct Bits {
    children: Vec<[u32; 2]>,
    owner: Vec<Option<u16>>,
}

impl Default for Bits {
    fn default() -> Bits {
        Bits { children: vec![[0, 0]], owner: vec![None] }
    }
}

impl Bits {
    fn insert(&mut self, bits: u128, length: u8, width: u8, owner: u16) {
        let mut node = 0;
        for depth in 0..length {
            let bit = usize::from((bits >> (width - 1 - depth)) & 1 == 1);
            if self.children[node][bit] == 0 {
                self.children.push([0, 0]);
                self.owner.push(None);
                self.children[node][bit] = u32::try_from(self.children.len() - 1).unwrap_or(u32::MAX);
            }
            node = self.children[node][bit] as usize;
        }
        self.owner[node] = Some(owner);
    }

    /// The owner of the longest range that holds `bits`.
    fn lookup(&self, bits: u128, width: u8) -> Option<u16> {
        let mut node = 0;
        let mut found = self.owner[0];
        for depth in 0..width {
            let bit = usize::from((bits >> (width - 1 - depth)) & 1 == 1);
            match self.children[node][bit] {
                0 => break,
                child => node = child as usize,
            }
            found = self.owner[node].or(found);
        }
        found
    }
}

impl PrefixTrie {
    /// Adds a range that belongs to `owner`.
    pub fn insert(&mut self, (address, length): (IpAddr, u8), owner: u16) {
        match address {
            IpAddr::V4(v4) => self.v4.insert(u128::from(u32::from(v4)), length, 32, owner),
            IpAddr::V6(v6) => self.v6.insert(u128::from(v6), length, 128, owner),
        }
    }

    /// Who the longest range that holds `address` belongs to. An IPv4 address written as
    /// IPv6 (`::ffff:66.249.66.1`, as some servers log) is looked up as IPv4.
    #[must_use]
    pub fn owner_of(&self, address: IpAddr) -> Option<u16> {
        match address {
            IpAddr::V4(v4) => self.v4.lookup(u128::from(u32::from(v4)), 32),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => self.v4.lookup(u128::from(u32::from(v4)), 32),
                None => self.v6.lookup(u128::from(v6), 128),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOGLE: &str = r#"{"creationTime": "2025-10-01T00:00:00.000000", "prefixes": [
        {"ipv6Prefix": "2001:4860:4801:10::/64"}, {"ipv4Prefix": "66.249.64.0/27"}, {"ipv4Prefix": "66.249.66.0/27"}]}"#;

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("an address")
    }

    #[test]
    fn published_lists_are_read_and_looked_up() {
        let google = RangeList::parse(GOOGLE).expect("reads");
        assert_eq!(google.created.as_deref(), Some("2025-10-01T00:00:00.000000"));
        assert_eq!(google.ranges.len(), 3);
        let bing = RangeList::parse(r#"{"prefixes": [{"ipv4Prefix": "40.77.167.0/24"}]}"#).expect("reads");
        let mut trie = PrefixTrie::default();
        for range in google.ranges {
            trie.insert(range, 0);
        }
        for range in bing.ranges {
            trie.insert(range, 1);
        }
        assert_eq!(trie.owner_of(ip("66.249.66.1")), Some(0));
        assert_eq!(trie.owner_of(ip("66.249.66.31")), Some(0));
        assert_eq!(trie.owner_of(ip("66.249.66.32")), None, "just past the /27");
        assert_eq!(trie.owner_of(ip("::ffff:66.249.64.7")), Some(0), "IPv4 written as IPv6");
        assert_eq!(trie.owner_of(ip("2001:4860:4801:10::5")), Some(0));
        assert_eq!(trie.owner_of(ip("2001:4860:4801:11::5")), None);
        assert_eq!(trie.owner_of(ip("40.77.167.200")), Some(1));
    }

    #[test]
    fn the_embedded_list_verifies_googlebot_and_not_an_impostor() {
        let mut verifier = Verifier::default();
        let (name, json) = EMBEDDED[0];
        let family = Verifier::family_of_list(name).expect("a known list");
        verifier.add(family, name, RangeList::parse(json).expect("the embedded list reads"), "embedded".into());
        let google = verifier.family_of("Googlebot").expect("Googlebot's family");
        assert_eq!(google, family);
        assert_eq!(verifier.in_ranges(google, ip("66.249.66.1")), Some(true));
        assert_eq!(verifier.in_ranges(google, ip("203.0.113.9")), Some(false));
        let bing = verifier.family_of("bingbot").expect("bing's family");
        assert_eq!(verifier.in_ranges(bing, ip("66.249.66.1")), None, "no Bing list read");
        assert_eq!(Identity::of(Some(false), None), Identity::Forged);
        assert_eq!(Identity::of(Some(false), Some(Some(true))), Identity::Verified, "the DNS proves it");
        assert_eq!(Identity::of(None, Some(None)), Identity::Unverifiable, "no answer in time");
        assert_eq!(Identity::of(None, None), Identity::Unverifiable);
        let suffixes = vec!["googlebot.com".to_owned()];
        assert!(host_is_under("crawl-66-249-66-1.googlebot.com.", &suffixes));
        assert!(host_is_under("GOOGLEBOT.COM", &suffixes));
        assert!(!host_is_under("evilgooglebot.com", &suffixes));
        assert!(!host_is_under("googlebot.com.evil.example", &suffixes));
    }

    #[test]
    fn overlapping_lists_each_keep_their_addresses() {
        let mut verifier = Verifier::default();
        let google = verifier.family_of("Googlebot").expect("Google");
        verifier.add(google, "googlebot.json", RangeList::parse(GOOGLE).expect("reads"), "test".into());
        // Another robot's list that claims one of Google's addresses too.
        let mine = RangeList::parse(r#"{"prefixes": [{"ipv4Prefix": "66.249.66.1/32"}]}"#).expect("reads");
        verifier.add_for_robot("MyBot", "mine.json", mine, "test".into());
        let mybot = verifier.family_of("mybot").expect("its own family");
        assert_eq!(verifier.in_ranges(google, ip("66.249.66.1")), Some(true), "still Google's");
        assert_eq!(verifier.in_ranges(mybot, ip("66.249.66.1")), Some(true));
        assert_eq!(verifier.in_ranges(mybot, ip("66.249.66.2")), Some(false));
        // IPv4 written as IPv6 in a list.
        let mapped = RangeList::parse(r#"{"prefixes": [{"ipv6Prefix": "::ffff:192.0.2.0/120"}]}"#).expect("reads");
        assert_eq!(mapped.ranges, [(ip("192.0.2.0"), 24)]);
    }

    #[test]
    fn the_longest_range_decides_and_bad_lists_say_why() {
        let mut trie = PrefixTrie::default();
        trie.insert((ip("10.0.0.0"), 8), 0);
        trie.insert((ip("10.1.0.0"), 16), 1);
        assert_eq!(trie.owner_of(ip("10.1.2.3")), Some(1));
        assert_eq!(trie.owner_of(ip("10.2.2.3")), Some(0));
        trie.insert((ip("0.0.0.0"), 0), 2);
        assert_eq!(trie.owner_of(ip("192.0.2.1")), Some(2), "a /0 holds every address");
        assert!(matches!(RangeList::parse("[]"), Err(ListError::Shape(_))));
        assert!(matches!(
            RangeList::parse(r#"{"prefixes": [{"ipv4Prefix": "1.2.3.4/33"}]}"#),
            Err(ListError::Prefix(_))
        ));
        assert!(matches!(RangeList::parse(r#"{"prefixes": [{"ipv4Prefix": "nope"}]}"#), Err(ListError::Prefix(_))));
    }
}
