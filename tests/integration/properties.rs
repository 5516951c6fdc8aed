//! Property tests of the policy layer's public face: evaluation never panics, the batch
//! matcher agrees with `evaluate`, lint never panics, fixing twice is fixing once, and
//! usage preferences never change a crawl verdict.
//! (The lexer's and the wildcard matcher's own properties are unit tests in
//! `src/policy/lex.rs` and `src/policy/pattern.rs`.)

use proptest::prelude::*;
use robotscope::policy::Request;
use robotscope::policy::lint;
use robotscope::policy::robots_named;
use robotscope::policy::{Availability, Matcher, Reading, Robot, RobotsTxt, evaluate};
use robotscope::policy::{BlockRequest, RFC9309_PARSE_LIMIT_BYTES, block, prove};
use robotscope::policy::{fix_all, fix_all_effect};
use robotscope::policy::{is_unsafe, sanitize};

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

/// A Content-Usage or Content-Signal line, well formed or not.
fn usage_line() -> impl Strategy<Value = String> {
    let key = prop::sample::select(vec!["Content-Usage", "content-usage", "Content-Signal", "CONTENT-SIGNAL"]);
    let value = prop::sample::select(vec![
        "train-ai=n",
        "/a train-ai=y, search=n",
        "/a* search=y",
        "search=yes, ai-train=no",
        "ai-input=no",
        "Train-AI=n",
        "/a train-ai=\"n\"",
        "",
        "/",
        "((",
    ]);
    (key, value).prop_map(|(key, value)| format!("{key}: {value}\n"))
}

/// Text a crawler or a person hands over as a URL: schemes, authorities and paths built
/// from the characters URL parsers and RFC 9309's normalisation treat specially.
fn url_like() -> impl Strategy<Value = String> {
    let scheme =
        prop::sample::select(vec!["", "", "http://", "https://", "HTTP://", "ftp://", "foo://", "http:/", "http:"]);
    let authority =
        prop::sample::select(vec!["", "example.com", "Ex.COM:443", "a@b", "[::1]", "h:x", "exa mple", "h\\x", "%41"]);
    let piece = prop::sample::select(vec![
        "/",
        "a",
        ".",
        "..",
        "%2e",
        "%2E",
        "%41",
        "%4a",
        "%zz",
        "%",
        "?",
        "#",
        "\\",
        " ",
        "\t",
        "é",
        "~",
        "*",
        "$",
        "'",
        "\"",
        "<",
        "{",
        "`",
        ";",
        ":",
        "@",
        "//",
        "/.",
        "./",
        "\u{1}",
        ".well-known",
        "...",
        "ü",
        "\u{feff}",
        "\u{10348}",
    ]);
    let lead = prop::sample::select(vec!["", "/", "/", "/a/"]);
    (scheme, authority, lead, prop::collection::vec(piece, 0..8)).prop_map(|(scheme, authority, lead, pieces)| {
        let host = if scheme.is_empty() { "" } else { authority };
        format!("{scheme}{host}{lead}{}", pieces.join(if pieces.len() % 2 == 0 { "" } else { "/" }))
    })
}

/// Every way fetching a robots.txt can go.
fn availabilities() -> impl Strategy<Value = Availability> {
    prop_oneof![
        Just(Availability::Available),
        (100u16..600).prop_map(Availability::Status),
        Just(Availability::Unreachable),
        Just(Availability::TimedOut),
        Just(Availability::TooManyRedirects),
        Just(Availability::RedirectLoop),
        (300u16..400).prop_map(Availability::RedirectWithoutTarget),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// The matcher's quick way to the tested path gives what reading the whole request
    /// gives, for any text.
    #[test]
    fn the_tested_path_is_the_requests_whatever_the_text(text in url_like()) {
        use robotscope::policy::UrlMode;
        for mode in [UrlMode::AsCrawlersSend, UrlMode::Raw] {
            let request = Request::new(&text, mode);
            prop_assert_eq!(Request::tested_path(&text, mode), request.tested(), "{:?}", text);
        }
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
            prop_assert_eq!(decision.rule(), verdict.decided_by());
        }
    }

    /// A matcher told how the fetch went answers as the slow path does for the same
    /// fetch, under every reading: the file's rules, or the status's answer with no rule
    /// and no extension.
    #[test]
    fn a_matcher_given_the_fetch_agrees_with_evaluate_fetched(
        text in robots_like(),
        agent in prop::sample::select(vec!["bot", "other", "*"]),
        path in paths(),
        availability in availabilities(),
    ) {
        use robotscope::policy::{Access, evaluate_fetched};
        let txt = RobotsTxt::parse(text);
        let robot = Robot::from_agent(agent);
        for reading in Reading::ALL {
            let verdict = evaluate_fetched(&txt, availability, &robot, &path, reading);
            let matcher = Matcher::for_robot(&txt, &robot, reading).with_availability(availability);
            let decision = matcher.decide_tested(&path);
            prop_assert_eq!(decision.allowed(), verdict.allowed(), "{:?} {} {}", availability, reading, verdict.explanation());
            prop_assert_eq!(decision.rule(), verdict.decided_by());
            if availability.access(reading) != Access::Rules {
                prop_assert_eq!((matcher.crawl_delay(), matcher.usage(&path)), (None, None));
            }
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

    /// Issue 24: a rule and the path it names are put in one form. A path a user types
    /// is tested as a crawler requests it (`Request::read`, through a real URL parser);
    /// a rule with the same text, read as a pattern, gives exactly that path, so
    /// `Disallow: X` blocks X and `Allow: X` allows it, whatever X holds. (Wildcards,
    /// `#`, `\` and dot segments are left out: they mean something else in a rule, or
    /// a parser rewrites them.)
    #[test]
    fn a_rule_is_put_in_the_form_its_path_is_tested_in(
        rest in prop::collection::vec(prop::sample::select(vec![
            "a", "b", "/", "?", "=", "&", " ", "\"", "<", ">", "`", "{", "}", "'", "~", "%", "4", "1", "\u{e9}",
            "\u{3c0}", "\t", "\u{1}", "\u{7f}", "^", "|", "[", "]", ";", ":", "@", "!", "(", ")", "+", ",",
        ]), 0..24),
    ) {
        let path = format!("/{}", rest.concat());
        let tested = Request::read(&path).tested().to_owned();
        let txt = RobotsTxt::parse(format!("User-agent: *\nDisallow: {path}\n").into_bytes());
        let rules = txt.interpretation(Reading::Rfc9309).groups()[0].rules();
        // The lexer trims the value as a URL parser trims the path's end.
        prop_assume!(!rules.is_empty());
        prop_assert_eq!(String::from_utf8_lossy(txt.pattern(Reading::Rfc9309, &rules[0])), tested.clone());
        for reading in Reading::ALL {
            let verdict = evaluate(&txt, &Robot::from_agent("bot"), &tested, reading);
            prop_assert!(!verdict.allowed(), "{:?} is not blocked by its own rule under {}", path, reading);
        }
    }

    /// Issue 24: `fix` changes no verdict, under any reading, that its report does not
    /// name (generated files; the corpus is `fix_names_every_verdict_it_changes_in_the_corpus`).
    #[test]
    fn fix_changes_no_verdict_its_report_does_not_name(text in robots_like(), extra in paths()) {
        if let Some(unnamed) = unnamed_flip(&text, &[extra]) {
            prop_assert!(false, "{}", unnamed);
        }
    }

    /// Issue 37: `block` keeps its promise on any file: the chosen robots fetch nothing,
    /// every other robot keeps every verdict, and blocking twice is blocking once.
    #[test]
    fn block_keeps_its_promise(text in robots_like(), extra in paths()) {
        if let Some(broken) = broken_block_promise(&text, &[extra]) {
            prop_assert!(false, "{}", broken);
        }
    }

    /// Usage preferences say what a robot may do with what it fetches, never whether it
    /// may fetch it: inserting a Content-Usage or Content-Signal line anywhere changes
    /// no crawl verdict under any reading.
    #[test]
    fn usage_lines_never_change_a_crawl_verdict(
        text in robots_like(),
        line in usage_line(),
        at in any::<prop::sample::Index>(),
        path in paths(),
        agent in prop::sample::select(vec!["bot", "Other", "charlotte", "*"]),
    ) {
        let text = String::from_utf8_lossy(&text).into_owned();
        let ends: Vec<usize> = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        let cut = ends[at.index(ends.len())];
        let with = format!("{}{line}{}", &text[..cut], &text[cut..]);
        let (before, after) = (RobotsTxt::parse(text.into_bytes()), RobotsTxt::parse(with.into_bytes()));
        for reading in Reading::ALL {
            let robot = Robot::from_agent(agent);
            prop_assert_eq!(
                evaluate(&before, &robot, &path, reading).allowed(),
                evaluate(&after, &robot, &path, reading).allowed(),
                "{:?} under {}", line, reading
            );
        }
    }
}

/// The robots a block chooses in the tests, and those it keeps: Googlebot-Image falls
/// back to the chosen Googlebot, as the registry says.
fn block_request_parts() -> (Vec<String>, Vec<Robot>) {
    let chosen = ["GPTBot", "Googlebot", "bot"].map(str::to_owned).to_vec();
    let kept = vec![
        Robot::from_agent("Googlebot-Image").with_fallbacks(["Googlebot"]),
        Robot::from_agent("bingbot"),
        Robot::from_agent("Other"),
        Robot::from_agent("*"),
    ];
    (chosen, kept)
}

/// The first way in which `block` breaks its promise on `text` (issue 37): a chosen
/// robot that may still fetch a path, a kept robot (or one the file names) whose verdict
/// changes under RFC 9309, a proof that does not hold, or a second block that edits
/// again. Checked with the matcher on the paths of every rule, independently of the
/// proof's own witnesses.
fn broken_block_promise(text: &[u8], extra: &[String]) -> Option<String> {
    let (chosen, kept) = block_request_parts();
    let request = BlockRequest { chosen: &chosen, kept: &kept };
    // As RFC 9309 robots read a file: to its 500 KiB cut.
    let read = |bytes: Vec<u8>| RobotsTxt::parse(bytes).with_rfc9309_limit(Some(RFC9309_PARSE_LIMIT_BYTES));
    let before = read(text.to_vec());
    let after = read(block(&before, request));
    let shown = || String::from_utf8_lossy(after.source()).into_owned();
    if !prove(&before, &after, request).holds() {
        // Past the cut, any line added moves rules out of it: the command refuses.
        return (after.source().len() <= RFC9309_PARSE_LIMIT_BYTES)
            .then(|| format!("the proof fails on:\n{}", shown()));
    }
    if block(&after, request) != after.source() {
        return Some(format!("blocking again edits again:\n{}", shown()));
    }
    let paths = witness_paths(&[&before, &after], extra);
    let reading = Reading::Rfc9309;
    for token in &chosen {
        let matcher = Matcher::for_robot(&after, &Robot::from_agent(token), reading);
        if let Some(path) = paths.iter().find(|path| matcher.decide(path).allowed()) {
            return Some(format!("{token} may still fetch {path}:\n{}", shown()));
        }
    }
    // The robots the file names, each as the kept list knows it when it does.
    let mut others = kept.clone();
    for (_, robot) in robots_named(&before, &after) {
        let known = others.iter().any(|other| other.token().eq_ignore_ascii_case(robot.token()));
        if !known && !chosen.iter().any(|token| token.eq_ignore_ascii_case(robot.token())) {
            others.push(robot);
        }
    }
    for robot in others {
        let (old, new) = (Matcher::for_robot(&before, &robot, reading), Matcher::for_robot(&after, &robot, reading));
        for path in &paths {
            if old.decide(path).allowed() != new.decide(path).allowed() {
                return Some(format!("{} changes on {path}:\n{}", robot.token(), shown()));
            }
        }
    }
    None
}

/// Every rule's pattern of each version, spelled out (wildcards matching nothing, or
/// something), one byte past it, `/`, and `extra`.
fn witness_paths(versions: &[&RobotsTxt], extra: &[String]) -> Vec<String> {
    // Tested paths start with `/`, as `Request::tested` gives them (`decide_tested`'s
    // contract): a URL as generated is tried as a path that holds it.
    let mut paths: Vec<String> =
        extra.iter().map(|path| if path.starts_with('/') { path.clone() } else { format!("/{path}") }).collect();
    paths.push("/".to_owned());
    for txt in versions {
        for reading in Reading::ALL {
            for rule in txt.interpretation(reading).groups().iter().flat_map(robotscope::policy::Group::rules) {
                let pattern = String::from_utf8_lossy(txt.pattern(reading, rule)).into_owned();
                let plain = pattern.trim_end_matches('$').replace('*', "");
                for path in [pattern.clone(), plain.clone(), format!("{plain}x"), pattern.replace('*', "/x")] {
                    paths.push(if path.starts_with('/') { path } else { format!("/{path}") });
                }
            }
        }
    }
    paths.sort();
    paths.dedup();
    paths
}

/// The first verdict `fix` changes without naming it in its report: the robot, reading
/// and path, or `None`. Paths tried: every rule's pattern of both versions, spelled out
/// (wildcards matching nothing, or something), one byte past it, and `extra`.
fn unnamed_flip(text: &[u8], extra: &[String]) -> Option<String> {
    let before = RobotsTxt::parse(text.to_vec());
    let report = fix_all(text);
    let after = RobotsTxt::parse(report.text().to_vec());
    let effect = fix_all_effect(&before, &report);
    let named = |reading: Reading, robot: &str| {
        effect.changed_robots().iter().chain(effect.uncertain_robots()).any(|(r, name)| *r == reading && name == robot)
    };
    let paths = witness_paths(&[&before, &after], extra);
    for (name, robot) in robots_named(&before, &after) {
        for reading in Reading::ALL {
            let (old, new) =
                (Matcher::for_robot(&before, &robot, reading), Matcher::for_robot(&after, &robot, reading));
            for path in &paths {
                let (was, is) = (old.decide_tested(path).allowed(), new.decide_tested(path).allowed());
                // The classic readings' flips name the robot as they look for it.
                let classic = reading.is_classic() && named(reading, robot.classic_name());
                if was != is && !named(reading, &name) && !classic {
                    return Some(format!("{name} {path} under {reading}: {was} → {is}, not in: {effect}"));
                }
            }
        }
    }
    None
}

/// The corpus's real files: `fix` changes no verdict its report does not name.
#[test]
fn fix_names_every_verdict_it_changes_in_the_corpus() {
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus");
    let mut files: Vec<_> = std::fs::read_dir(corpus).expect("corpus").map(|e| e.expect("entry").path()).collect();
    files.sort();
    assert!(files.len() >= 70);
    for file in files {
        let text = std::fs::read(&file).expect("read");
        let unnamed = unnamed_flip(&text, &[]);
        assert!(unnamed.is_none(), "{}: {}", file.display(), unnamed.unwrap_or_default());
    }
}

/// The corpus's real files: `block` keeps its promise on each.
#[test]
fn block_keeps_its_promise_in_the_corpus() {
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus");
    let mut files: Vec<_> = std::fs::read_dir(corpus).expect("corpus").map(|e| e.expect("entry").path()).collect();
    files.sort();
    for file in files.iter().filter(|file| file.extension().is_some_and(|e| e == "txt")) {
        let broken = broken_block_promise(&std::fs::read(file).expect("read"), &[]);
        assert!(broken.is_none(), "{}: {}", file.display(), broken.unwrap_or_default());
    }
}
