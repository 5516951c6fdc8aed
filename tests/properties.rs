//! Property tests of the policy layer's public face: evaluation never panics, the batch
//! matcher agrees with `evaluate`, lint never panics, and fixing twice is fixing once.
//! (The lexer's and the wildcard matcher's own properties are unit tests in
//! `src/policy/lex.rs` and `src/policy/pattern.rs`.)

use proptest::prelude::*;
use robotscope::policy::escape::{is_unsafe, sanitize};
use robotscope::policy::fix::fix_all;
use robotscope::policy::lint::lint;
use robotscope::policy::{Matcher, Reading, Robot, RobotsTxt, evaluate};

/// Lines that look like robots.txt, with every kind of line end and mistake.
fn robots_like() -> impl Strategy<Value = Vec<u8>> {
    let key = prop::sample::select(vec![
        "User-agent",
        "user-agent",
        "User agent",
        "Allow",
        "Disallow",
        "Dissallow",
        "disallow",
        "Sitemap",
        "Crawl-delay",
        "Host",
        "Noindex",
        "",
    ]);
    let value = prop::sample::select(vec![
        "*",
        "* rex",
        "bot",
        "Bot/1.0",
        "Other",
        "charl",
        "",
        "/",
        "/a",
        "/a/",
        "/a/b",
        "/a*",
        "/*.x$",
        "/a$",
        "$",
        "*",
        "/%61",
        "/caf\u{e9}",
        "/index.html",
        "/a/index.html",
        "/a b",
        "~",
    ]);
    let separator = prop::sample::select(vec![": ", ":", " ", "\t", " : "]);
    let ending = prop::sample::select(vec!["\n", "\r\n", "\r", "\n\n", " # note\n"]);
    prop::collection::vec((key, separator, value, ending), 0..14)
        .prop_map(|lines| lines.into_iter().flat_map(|(k, s, v, e)| format!("{k}{s}{v}{e}").into_bytes()).collect())
}

fn paths() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "/",
        "/a",
        "/a/",
        "/a/b",
        "/a/b.x",
        "/ab",
        "/b",
        "/index.html",
        "/a/index.html",
        "/%61",
        "/caf%C3%A9",
        "/a?q=1",
        "https://example.com/a/b",
        "//a/b",
        "/x$",
        "/a*",
    ])
    .prop_map(str::to_owned)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn evaluation_never_panics_on_arbitrary_bytes(
        bytes in prop::collection::vec(any::<u8>(), 0..600),
        agent in ".{0,12}",
        path in ".{0,40}",
    ) {
        let txt = RobotsTxt::parse(bytes);
        let robot = Robot::from_agent(&agent);
        for reading in Reading::ALL {
            let verdict = evaluate(&txt, &robot, &path, reading);
            prop_assert!(!verdict.explanation().is_empty());
            let _ = Matcher::for_robot(&txt, &robot, reading).decide_tested(&path);
        }
    }

    #[test]
    fn batch_matcher_agrees_with_evaluate(
        text in robots_like(),
        agent in prop::sample::select(vec!["bot", "Bot", "other", "charlotte", "rex", "*", "Bot/1.0"]),
        path in paths(),
    ) {
        let txt = RobotsTxt::parse(text);
        let robot = Robot::from_agent(agent);
        for reading in Reading::ALL {
            let verdict = evaluate(&txt, &robot, &path, reading);
            let decision = Matcher::for_robot(&txt, &robot, reading).decide_tested(&path);
            prop_assert_eq!(decision.allowed(), verdict.allowed(), "{} {}", reading, verdict.explanation());
            prop_assert_eq!(decision.rule().map(|r| r.line()), verdict.decided_by().map(|m| m.line()));
        }
    }

    #[test]
    fn fixing_twice_is_fixing_once(text in robots_like()) {
        let once = fix_all(&text).into_text();
        let twice = fix_all(&once).into_text();
        prop_assert_eq!(String::from_utf8_lossy(&twice), String::from_utf8_lossy(&once));
    }

    #[test]
    fn lint_never_panics_and_its_spans_lie_in_the_file(bytes in prop::collection::vec(any::<u8>(), 0..800)) {
        for diagnostic in lint(&RobotsTxt::parse(bytes.clone())) {
            prop_assert!(diagnostic.span().end <= bytes.len());
            for edit in diagnostic.fix().iter().flat_map(|f| f.edits()) {
                prop_assert!(edit.span().start <= edit.span().end && edit.span().end <= bytes.len());
            }
        }
    }

    #[test]
    fn sanitized_text_is_terminal_safe(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let safe = sanitize(&bytes);
        prop_assert!(!safe.chars().any(is_unsafe));
    }
}
