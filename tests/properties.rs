//! Property tests of the policy layer: the lexer loses nothing and never panics,
//! evaluation never panics, the fast wildcard matcher agrees with Google's slow one, and
//! the batch matcher agrees with `evaluate`, lint never panics, and fixing twice is
//! fixing once.

use proptest::prelude::*;
use robotscope::policy::escape::{is_unsafe, sanitize};
use robotscope::policy::fix::fix_all;
use robotscope::policy::lex::lex;
use robotscope::policy::lint::lint;
use robotscope::policy::pattern::wildcard_match;
use robotscope::policy::{CompiledPolicy, Reading, Robot, RobotsTxt, evaluate};

/// Google's matcher (`RobotsMatchStrategy::Matches` in robots.cc), a position-set walk:
/// quadratic, obviously right, and the reference the linear matcher must agree with.
fn reference_match(pattern: &[u8], path: &[u8]) -> bool {
    let mut positions = vec![0usize];
    for (i, &p) in pattern.iter().enumerate() {
        if p == b'$' && i + 1 == pattern.len() {
            return positions.last() == Some(&path.len());
        }
        if p == b'*' {
            positions = (positions[0]..=path.len()).collect();
        } else {
            positions = positions.into_iter().filter(|&at| at < path.len() && path[at] == p).map(|at| at + 1).collect();
            if positions.is_empty() {
                return false;
            }
        }
    }
    true
}

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

/// Fixed cases, for the linear matcher and the reference alike.
#[test]
fn wildcard_cases() {
    let cases: &[(&str, &str, bool)] = &[
        ("", "/x", true),
        ("/", "/x", true),
        ("/x", "/", false),
        ("$", "/", false),
        ("/$", "/", true),
        ("/$", "/a", false),
        ("/a*$", "/abc", true),
        ("/**/x**", "/a/b/x", true),
        ("/price$list", "/price", false),
        ("/price$list", "/price$list/x", true),
        ("/a*b*c$", "/abcbc", true),
        ("/a*b*c$", "/abcb", false),
        ("/*ab$", "/ab", true),
        ("/*aa$", "/a", false),
        ("*", "", true),
    ];
    for &(pattern, path, expected) in cases {
        assert_eq!(wildcard_match(pattern.as_bytes(), path.as_bytes()), expected, "{pattern} vs {path}");
        assert_eq!(reference_match(pattern.as_bytes(), path.as_bytes()), expected, "reference {pattern} vs {path}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn lexing_is_lossless(bytes in prop::collection::vec(any::<u8>(), 0..2000)) {
        let lines = lex(&bytes);
        let mut rebuilt = Vec::with_capacity(bytes.len());
        for (index, line) in lines.iter().enumerate() {
            prop_assert_eq!(line.number(), index + 1);
            prop_assert!(line.start() <= line.content_end() && line.content_end() <= line.end());
            prop_assert!(!line.content(&bytes).contains(&b'\n') && !line.content(&bytes).contains(&b'\r'));
            rebuilt.extend_from_slice(&bytes[line.start()..line.end()]);
        }
        prop_assert_eq!(rebuilt, bytes);
    }

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
            prop_assert!(!verdict.explanation.is_empty());
            let _ = CompiledPolicy::new(&txt, &robot, reading).check(&path);
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
            let decision = CompiledPolicy::new(&txt, &robot, reading).check(&path);
            prop_assert_eq!(decision.allowed, verdict.allowed, "{} {}", reading, verdict.explanation);
            prop_assert_eq!(decision.rule.map(|r| r.line), verdict.decided_by.map(|m| m.line));
        }
    }

    #[test]
    fn fixing_twice_is_fixing_once(text in robots_like()) {
        let once = fix_all(&text).text;
        let twice = fix_all(&once).text;
        prop_assert_eq!(String::from_utf8_lossy(&twice), String::from_utf8_lossy(&once));
    }

    #[test]
    fn lint_never_panics_and_its_spans_lie_in_the_file(bytes in prop::collection::vec(any::<u8>(), 0..800)) {
        for diagnostic in lint(&RobotsTxt::parse(bytes.clone())) {
            prop_assert!(diagnostic.span.end <= bytes.len());
            for edit in diagnostic.fix.iter().flat_map(|f| &f.edits) {
                prop_assert!(edit.span.start <= edit.span.end && edit.span.end <= bytes.len());
            }
        }
    }

    #[test]
    fn wildcard_matching_agrees_with_the_reference(
        pattern in "[ab*$/]{0,12}",
        path in "[ab$/]{0,16}",
    ) {
        prop_assert_eq!(wildcard_match(pattern.as_bytes(), path.as_bytes()), reference_match(pattern.as_bytes(), path.as_bytes()));
    }

    #[test]
    fn sanitized_text_is_terminal_safe(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let safe = sanitize(&bytes);
        prop_assert!(!safe.chars().any(is_unsafe));
    }
}

/// A pattern of thousands of `*` against a long path must cost about as much as one
/// `*` (robots-parser's ReDoS): the linear matcher answers this in microseconds, where
/// a backtracking matcher would not finish.
#[test]
fn many_stars_against_a_long_path_finish() {
    let pattern: Vec<u8> = b"/".iter().chain(b"*a".repeat(5_000).iter()).chain(b"*b$").copied().collect();
    let path: Vec<u8> = b"/".iter().chain(b"a".repeat(100_000).iter()).copied().collect();
    assert!(!wildcard_match(&pattern, &path));
    let mut with_b = path.clone();
    with_b.push(b'b');
    assert!(wildcard_match(&pattern, &with_b));
}
