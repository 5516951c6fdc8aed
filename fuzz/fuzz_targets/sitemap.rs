//! Read arbitrary bytes as a sitemap (XML, text, feeds; gzip, UTF-16 and declared
//! encodings) within small limits: nothing may panic, no more entries than the limit
//! come out, and each is an http(s) URL within the URL limit, with no U+FFFD standing
//! for bytes that were not text.
#![no_main]

use std::ops::ControlFlow;

use libfuzzer_sys::fuzz_target;
use robotscope::sitemaps::read::{Item, MAX_URL_BYTES, ReadLimits, read};

fuzz_target!(|data: &[u8]| {
    let limits = ReadLimits { max_urls: 64, max_bytes: 1 << 20 };
    let mut taken = 0;
    let summary = read(data, limits, |item| {
        let (Item::Page(entry) | Item::Sitemap(entry)) = item;
        assert!(entry.loc.len() <= MAX_URL_BYTES, "{} bytes", entry.loc.len());
        let scheme = entry.loc.get(..8).unwrap_or(&entry.loc).to_ascii_lowercase();
        assert!(scheme.starts_with("http://") || scheme.starts_with("https://"), "{:?}", entry.loc);
        assert!(!entry.loc.contains(char::REPLACEMENT_CHARACTER));
        taken += 1;
        ControlFlow::Continue(())
    });
    assert!(taken <= limits.max_urls);
    assert_eq!(summary.entries, taken);
});
