//! Read arbitrary bytes as a web archive's CDX listing: nothing may panic, every capture
//! taken has a timestamp a capture can have, in order, and the rows rejected are
//! counted, never more than the listing holds.
#![no_main]

use libfuzzer_sys::fuzz_target;
use robotscope::history::{is_sound_timestamp, parse_cdx};

fuzz_target!(|data: &[u8]| {
    let Ok(listing) = parse_cdx(data) else { return };
    for capture in &listing.captures {
        assert!(is_sound_timestamp(&capture.timestamp), "{:?}", capture.timestamp);
    }
    assert!(listing.captures.windows(2).all(|pair| pair[0].timestamp <= pair[1].timestamp));
    assert!(listing.captures.len() + listing.impossible <= data.len());
});
