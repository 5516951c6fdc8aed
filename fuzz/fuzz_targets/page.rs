//! Read arbitrary bytes as a page (HTML through html5ever, and the first line as an
//! X-Robots-Tag value), answer for a few robots under both contradiction rules: nothing
//! may panic, every META line must lie within the page, and a robot that may not crawl
//! gets no index or follow answer.
#![no_main]

use libfuzzer_sys::fuzz_target;
use robotscope::policy::Robot;
use robotscope::policy::{Contradictions, PageSignals, page_policy};

fuzz_target!(|data: &[u8]| {
    let header = String::from_utf8_lossy(data.split(|&b| b == b'\n').next().unwrap_or_default()).into_owned();
    let headers = [("content-type".to_owned(), "text/html".to_owned()), ("x-robots-tag".to_owned(), header)];
    let signals = PageSignals::read(200, &headers, data);
    // HTML reads CR, LF and CRLF each as one line break.
    let breaks = data.iter().enumerate().filter(|&(i, &b)| b == b'\n' || (b == b'\r' && data.get(i + 1) != Some(&b'\n')));
    let lines = breaks.count() + 1;
    for tag in &signals.meta {
        assert!((1..=lines).contains(&tag.line), "line {} of {lines}", tag.line);
    }
    // The reading stops at the depth bound only for a page that nests that deep.
    if signals.too_deep {
        assert!(data.iter().filter(|&&b| b == b'<').count() > robotscope::policy::MAX_ELEMENT_DEPTH);
    }
    for robot in [Robot::from_agent("Googlebot"), Robot::from_agent("*")] {
        for rule in [Contradictions::MostRestrictive, Contradictions::RobotDecides] {
            for crawl in [true, false] {
                let policy = page_policy(&signals, &robot, rule, crawl);
                assert_eq!(policy.index.is_some(), crawl);
                for term in &policy.terms {
                    let _ = term.term.meaning();
                }
            }
        }
    }
});
