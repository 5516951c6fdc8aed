//! Whether a request came from where its robot's operator says it crawls from: the
//! operators' published address ranges (Google's `googlebot.json`, Bing's, `OpenAI`'s, in
//! one JSON shape), looked up in a binary prefix trie. Pure: the lists are given.

use std::net::IpAddr;

/// Why a list of ranges cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ListError {
    /// Not JSON of the published shape.
    #[error("not a list of address ranges ({0})")]
    Shape(String),
    /// A prefix that is no address range.
    #[error("{0:?} is not an address range")]
    Prefix(String),
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
