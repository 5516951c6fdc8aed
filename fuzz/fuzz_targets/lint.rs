//! Lint and fix arbitrary bytes: every diagnostic lies within the file, every fix's
//! edits lie within it and keep apart from each other (what `compatible_fixes` relies
//! on), and fixing twice gives what fixing once gives.
#![no_main]

use libfuzzer_sys::fuzz_target;
use robotscope::policy::RobotsTxt;
use robotscope::policy::fix_all;
use robotscope::policy::lint;

fuzz_target!(|data: &[u8]| {
    for diagnostic in lint(&RobotsTxt::parse(data.to_vec())) {
        assert!(diagnostic.span.start <= diagnostic.span.end && diagnostic.span.end <= data.len());
        let Some(fix) = diagnostic.fix else { continue };
        let mut spans: Vec<_> = fix.edits.iter().map(|edit| edit.span.clone()).collect();
        spans.sort_by_key(|span| (span.start, span.end));
        assert!(spans.iter().all(|span| span.start <= span.end && span.end <= data.len()), "{spans:?}");
        assert!(spans.windows(2).all(|pair| pair[0].end <= pair[1].start), "a fix's edits overlap: {spans:?}");
    }
    let once = fix_all(data);
    assert_eq!(fix_all(&once.text).text, once.text, "fixing twice differs from fixing once");
});
