//! The diagnostics catalogue, one table case per entry (the seed's example, or a real
//! file's), the fixes, and what the fixed files mean under all three readings.

use std::fs;
use std::path::Path;

use robotscope::policy::{Code, Severity, lint};
use robotscope::policy::{Reading, Robot, RobotsTxt, evaluate};
use robotscope::policy::{apply_fix, fix_all};

/// Lints `text`, expects a diagnostic `code` on `line` with `severity`, and, when
/// `fixed` is given, that applying that diagnostic's fix gives exactly `fixed`.
fn expect(text: &str, code: &str, line: usize, severity: Severity, fixed: Option<&str>) {
    let txt = RobotsTxt::parse(text.as_bytes().to_vec());
    let diagnostics = lint(&txt);
    let found = diagnostics
        .iter()
        .find(|d| d.code().name() == code && d.line() == line)
        .unwrap_or_else(|| panic!("no {code} on line {line} in {text:?}; found {diagnostics:#?}"));
    assert_eq!(found.severity(), severity, "{code}");
    assert!(!found.message().is_empty());
    match fixed {
        Some(fixed) => {
            let fix = found.fix().unwrap_or_else(|| panic!("{code} has no fix"));
            assert_eq!(String::from_utf8_lossy(&apply_fix(text.as_bytes(), fix)), fixed, "{code}: {}", fix.title());
        }
        None => assert!(found.fix().is_none(), "{code} should have no fix"),
    }
}

macro_rules! cases {
    ($($name:ident: $text:expr, $code:literal, $line:literal, $severity:ident, $fixed:expr;)*) => {
        $(
            #[test]
            fn $name() {
                expect($text, $code, $line, Severity::$severity, $fixed);
            }
        )*

        /// Every catalogue entry has a case above, or a test of its own below.
        #[test]
        fn every_catalogue_entry_has_a_case() {
            // The registry's codes are tested where the registry is
            // (src/robots_db/lint.rs): the policy layer knows no robot by name.
            let registry = ["group-drops-star-rules", "search-crawler-blocked", "retired-token", "robot-ignores-robots-txt", "near-miss-token"];
            let covered = [$($code,)* "utf16-file", "invalid-utf8", "long-line", "content-past-500kib"];
            let covered: Vec<&str> = covered.into_iter().chain(registry).collect();
            for code in Code::ALL {
                assert!(covered.contains(&code.name()), "{code} has no table case");
            }
        }
    };
}

cases! {
    usage_stated: "User-agent: *\nContent-Usage: /a train-ai=n\n", "usage-preferences", 2, Info, None;
    usage_yes_no: "User-agent: *\nContent-Usage: train-ai=no\n", "usage-value", 2, Error,
        Some("User-agent: *\nContent-Usage: train-ai=n\n");
    signal_y_n: "User-agent: *\nContent-Signal: search=y, ai-input=n\n", "usage-value", 2, Error,
        Some("User-agent: *\nContent-Signal: search=yes, ai-input=no\n");
    usage_signal_name: "User-agent: *\nContent-Usage: /a ai-train=n\n", "usage-category", 2, Error,
        Some("User-agent: *\nContent-Usage: /a train-ai=n\n");
    usage_upper_case: "User-agent: *\nContent-Usage: Search=n\n", "usage-unparsable", 2, Error,
        Some("User-agent: *\nContent-Usage: search=n\n");
    usage_path_without_slash: "User-agent: *\nContent-Usage: blog/ train-ai=y\n", "usage-path-without-slash", 2, Error,
        Some("User-agent: *\nContent-Usage: /blog/ train-ai=y\n");
    usage_conflict: "User-agent: *\nContent-Usage: /a train-ai=y\nContent-Usage: /a train-ai=n\n", "usage-conflict", 3, Warning, None;
    signal_conflict: "User-agent: *\nContent-Signal: search=yes, ai-train=no\nContent-Signal: ai-train=yes\n", "usage-conflict", 3, Warning, None;
    usage_overridden: "User-agent: *\nContent-Signal: search=yes, ai-train=no\nContent-Usage: /ai-ok/ train-ai=y\n", "usage-overridden", 3, Warning, None;
    usage_capital_n: "User-agent: *\nContent-Usage: /y search=yes, train-ai=\"N\"\n", "usage-value", 2, Error,
        Some("User-agent: *\nContent-Usage: /y search=y, train-ai=n\n");
    usage_control_in_path: "User-agent: *\nContent-Usage: /p\u{202e}q train-ai=n\n", "control-character", 2, Warning,
        Some("User-agent: *\nContent-Usage: /p%E2%80%AEq train-ai=n\n");
    usage_quoted_comma: "User-agent: *\nContent-Usage: train-ai=no;c=\"x,search=yes\", search=yes\n", "usage-value", 2, Error,
        Some("User-agent: *\nContent-Usage: train-ai=n;c=\"x,search=yes\", search=y\n");
    usage_under_disallow: "User-agent: *\nDisallow: /drafts/\nContent-Usage: /drafts/2026/ train-ai=n\n", "usage-under-disallow", 3, Warning, None;
    usage_outside: "Content-Signal: ai-train=no\nUser-agent: *\nAllow: /\n", "usage-outside-group", 1, Warning, None;
    tilde_without_slash: "User-agent: *\nDisallow: ~\n", "path-without-slash", 2, Error, Some("User-agent: *\nDisallow: /~\n");
    directory_without_slash: "User-agent: *\nDisallow: cgi-bin/ # scripts\n", "path-without-slash", 2, Error,
        Some("User-agent: *\nDisallow: /cgi-bin/ # scripts\n");
    full_url_as_path: "User-agent: *\nDisallow: https://example.com/private/\n", "path-without-slash", 2, Error,
        Some("User-agent: *\nDisallow: /private/\n");
    two_paths: "User-Agent: Lycos\nDisallow: /cgi-bin/ /tmp/\n", "several-paths", 2, Error,
        Some("User-Agent: Lycos\nDisallow: /cgi-bin/\nDisallow: /tmp/\n");
    two_paths_crlf: "User-agent: *\r\nDisallow: /a /b\r\n", "several-paths", 2, Error, Some("User-agent: *\r\nDisallow: /a\r\nDisallow: /b\r\n");
    two_fields: "# Sample robots.txt file\n\nUser-agent: charlotte Disallow: /cgi-bin\n", "several-fields", 3, Error,
        Some("# Sample robots.txt file\n\nUser-agent: charlotte\nDisallow: /cgi-bin\n");
    two_agents: "User-Agent: Copernicus Fred\nDisallow: /\n", "several-agents", 1, Error,
        Some("User-Agent: Copernicus\nUser-Agent: Fred\nDisallow: /\n");
    star_and_rex: "User-Agent: * Rex\nDisallow: /t\n", "several-agents", 1, Error, Some("User-Agent: *\nUser-Agent: Rex\nDisallow: /t\n");
    known_name_with_space: "User-agent: Offline Explorer\nDisallow: /\n", "agent-name-with-spaces", 1, Warning, None;
    name_with_version: "User-agent: Xenu's Link Sleuth 1.1c\nDisallow: /\n", "agent-name-with-spaces", 1, Warning, None;
    blank_between_agents: "User-agent: webcrawler\n\nUser-agent: lycra\nDisallow: /\n", "blank-line-in-group", 2, Error,
        Some("User-agent: webcrawler\nDisallow:\n\nUser-agent: lycra\nDisallow: /\n");
    // A record that only paces its robot, then a comment above the next record: the
    // same fix as without the comment (gov.uk's AhrefsBot).
    paced_then_commented: "User-agent: AhrefsBot\nCrawl-delay: 10\n\n# slow\nUser-agent: deepcrawl\nDisallow: /\n",
        "blank-line-in-group", 3, Error,
        Some("User-agent: AhrefsBot\nCrawl-delay: 10\nDisallow:\n\n# slow\nUser-agent: deepcrawl\nDisallow: /\n");
    blank_before_rules: "User-Agent: *\n\nDisallow: /\n", "blank-line-in-group", 2, Error, Some("User-Agent: *\nDisallow: /\n");
    blank_between_rules: "User-agent: *\nDisallow: /a\n\nDisallow: /b\n", "blank-line-in-group", 3, Error,
        Some("User-agent: *\nDisallow: /a\nDisallow: /b\n");
    two_star_groups: "User-agent: *\nDisallow: /a/\n\nUser-agent: bot\nDisallow: /\n\nUser-agent: *\nDisallow: /b/\n",
        "several-star-groups", 7, Warning,
        Some("User-agent: *\nDisallow: /a/\nDisallow: /b/\n\nUser-agent: bot\nDisallow: /\n");
    // Issue 24: one product token to RFC 9309, two robots to the classic readings: a
    // merge would change their records, so none is offered.
    robot_named_two_ways: "User-agent: Sogou web spider\nDisallow: /a\n\nUser-agent: Sogou inst spider\nDisallow: /b\n",
        "robot-in-several-groups", 4, Info, None;
    invisible_in_name: "User-agent: Google\u{200b}bot\nDisallow: /\n", "invisible-character", 1, Error,
        Some("User-agent: Googlebot\nDisallow: /\n");
    invisible_in_path: "User-agent: *\nDisallow: /pri\u{ad}vate/\n", "invisible-character", 2, Error,
        Some("User-agent: *\nDisallow: /private/\n");
    robot_twice: "User-agent: bot\nDisallow: /a\n\nUser-agent: Bot\nDisallow: /b\n", "robot-in-several-groups", 4, Warning,
        Some("User-agent: bot\nDisallow: /a\nDisallow: /b\n");
    disallow_star: "User-agent: *\nDisallow: *\n", "star-path", 2, Error, Some("User-agent: *\nDisallow: /\n");
    wildcard: "User-agent: *\nDisallow: /*.pdf$\n", "wildcard-for-classic-robots", 2, Warning, None;
    dollar_inside: "User-agent: *\nDisallow: /price$list\n", "dollar-inside-pattern", 2, Warning, None;
    orphan_rule: "Disallow: /orphan\nUser-agent: bot\nDisallow: /\n", "rule-outside-group", 1, Error,
        Some("User-agent: *\nDisallow: /orphan\nUser-agent: bot\nDisallow: /\n");
    missing_colon: "User-agent: *\nDisallow /private\n", "missing-colon", 2, Error, Some("User-agent: *\nDisallow: /private\n");
    google_typo: "User-agent: *\nDissallow: /tmp/\n", "misspelt-field", 2, Error, Some("User-agent: *\nDisallow: /tmp/\n");
    user_agent_with_space: "User agent: *\nDisallow: /\n", "misspelt-field", 1, Error, Some("User-agent: *\nDisallow: /\n");
    unknown_typo: "User-agent: *\nDisalow: /tmp/\n", "misspelt-field", 2, Error, Some("User-agent: *\nDisallow: /tmp/\n");
    noindex: "User-agent: *\nNoindex: /private/\n", "unsupported-field", 2, Warning, None;
    unknown: "User-agent: *\nRobot-version: 2.0\n", "unknown-field", 2, Info, None;
    empty_agent: "User-agent:\nDisallow: /\n", "empty-user-agent", 1, Warning, None;
    versioned_agent: "User-agent: Googlebot/2.1\nDisallow: /\n", "user-agent-version", 1, Warning, Some("User-agent: Googlebot\nDisallow: /\n");
    digits_in_token: "User-agent: MJ12bot\nDisallow: /\n", "token-cut", 1, Warning, None;
    relative_sitemap: "Sitemap: /sitemap.xml\n", "sitemap-not-absolute", 1, Warning, None;
    bad_crawl_delay: "User-agent: *\nCrawl-delay: soon\n", "bad-extension-value", 2, Warning, None;
    crawl_delay_support: "User-agent: *\nCrawl-delay: 10\n", "extension-support", 2, Info, None;
    space_in_path: "User-agent: *\nDisallow: /my documents/\n", "path-with-space", 2, Warning,
        Some("User-agent: *\nDisallow: /my%20documents/\n");
    shadowed_allow: "User-agent: *\nDisallow: /cgi-bin/\nAllow: /cgi-bin/public\n", "shadowed-rule", 3, Warning,
        Some("User-agent: *\nAllow: /cgi-bin/public\nDisallow: /cgi-bin/\n");
    empty_disallow_first: "User-agent: *\nDisallow:\nDisallow: /private/\n", "shadowed-rule", 2, Warning,
        Some("User-agent: *\nDisallow: /private/\n");
    redundant: "User-agent: *\nDisallow: /a\nDisallow: /a/b\n", "redundant-rule", 3, Info, Some("User-agent: *\nDisallow: /a\n");
    duplicate: "User-agent: *\nDisallow: /a\nDisallow: /a\n", "duplicate-rule", 3, Info, Some("User-agent: *\nDisallow: /a\n");
    dead_disallow: "User-agent: *\nAllow: /a\nDisallow: /a\n", "dead-disallow", 3, Warning, None;
    html: "<!DOCTYPE html>\n<html><body>Not Found</body></html>\n", "html-file", 1, Error, None;
    binary: "\0\0\x01\0\x02\0\x10\x10\0\0\x01\0\x08\0h\x05\0\0\x16\0\0\0(\0\0\0\x10\0\0\0", "binary-file", 1, Error, None;
    bom: "\u{feff}User-agent: *\nDisallow: /\n", "utf8-bom", 1, Warning, Some("User-agent: *\nDisallow: /\n");
    // Google reads `/a`: the fix keeps that reading (issue 12).
    nul: "User-agent: *\nDisallow: /a\0b\n", "nul-byte", 2, Warning, Some("User-agent: *\nDisallow: /a\n");
    // In a path, a control character is written as the escape a URL carries.
    escape: "User-agent: *\nDisallow: /\x1b[2Jx\n", "control-character", 2, Warning, Some("User-agent: *\nDisallow: /%1B[2Jx\n");
    // Outside a path it goes.
    escape_in_comment: "User-agent: *\nDisallow: /a # \x07\n", "control-character", 2, Warning, Some("User-agent: *\nDisallow: /a # \n");
}

/// `fix` changes only what it means to change (issue 12).
#[test]
fn fixes_keep_what_they_do_not_mean_to_change() {
    let fixed = |text: &[u8]| String::from_utf8_lossy(fix_all(text).text()).into_owned();
    // A removed rule's comment stays.
    assert_eq!(
        fixed(b"User-agent: *\nDisallow: /a\nDisallow: /a # was twice\n"),
        "User-agent: *\nDisallow: /a\n# was twice\n"
    );
    // Two byte order marks: both go, and nothing is added twice.
    assert_eq!(fixed(b"\xEF\xBB\xBF\xEF\xBB\xBFUser-agent: *\nDisallow: /a\n"), "User-agent: *\nDisallow: /a\n");
    // Groups merged away leave no run of blank lines behind.
    let groups = "User-agent: *\nDisallow: /a\n\nUser-agent: b\nDisallow: /x\n\nUser-agent: *\nDisallow: /b\n\nUser-agent: *\nDisallow: /c\n\nUser-agent: c\nDisallow: /y\n";
    assert_eq!(
        fixed(groups.as_bytes()),
        "User-agent: *\nDisallow: /a\nDisallow: /b\nDisallow: /c\n\nUser-agent: b\nDisallow: /x\n\nUser-agent: c\nDisallow: /y\n"
    );
    // UTF-16 with half a character at the end: kept visibly, not dropped.
    let mut bytes = vec![0xFF, 0xFE];
    bytes.extend("User-agent: *\n".encode_utf16().flat_map(u16::to_le_bytes));
    bytes.push(b'x');
    assert_eq!(fixed(&bytes), "User-agent: *\n\u{FFFD}");
}

#[test]
fn utf16_files_are_converted() {
    let text = "User-agent: *\r\nDisallow: /private/\r\n";
    let mut bytes = vec![0xFF, 0xFE];
    bytes.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    let diagnostics = lint(&RobotsTxt::parse(bytes.clone()));
    let found = diagnostics.iter().find(|d| d.code() == Code::Utf16File).expect("utf16-file");
    assert_eq!(found.severity(), Severity::Error);
    assert_eq!(apply_fix(&bytes, found.fix().expect("a fix")), text.as_bytes());
}

#[test]
fn invalid_utf8_and_long_lines_and_size() {
    let latin1 = b"User-agent: *\nDisallow: /caf\xe9\n";
    assert!(lint(&RobotsTxt::parse(latin1.to_vec())).iter().any(|d| d.code() == Code::InvalidUtf8 && d.line() == 2));
    let long = format!("User-agent: *\nDisallow: /{}\n", "a".repeat(20_000));
    assert!(lint(&RobotsTxt::parse(long.into_bytes())).iter().any(|d| d.code() == Code::LongLine && d.line() == 2));
    // Past 500 KiB: an error when what RFC 9309 readers leave unread changes a verdict
    // (which is named), a warning when it does not.
    let past = |tail: &str| {
        let big = format!("User-agent: *\nDisallow: /early\n{}{tail}", "# padding padding padding\n".repeat(21_000));
        let diagnostics = lint(&RobotsTxt::parse(big.into_bytes()));
        diagnostics.into_iter().find(|d| d.code() == Code::ContentPast500Kib).expect("content-past-500kib")
    };
    let late_rule = past("Disallow: /late\n");
    assert_eq!(late_rule.severity(), Severity::Error);
    assert!(late_rule.message().contains("RFC 9309: a robot no group names /late disallowed → allowed"));
    let late_comment = past("# the end\nDisallow: /early\n");
    assert_eq!(late_comment.severity(), Severity::Warning);
    assert!(late_comment.message().contains("which changes no verdict"), "{}", late_comment.message());
}

/// Messages say what each reading does with the line.
#[test]
fn messages_speak_for_each_reading() {
    let txt = RobotsTxt::parse(b"User-agent: webcrawler\n\nUser-agent: lycra\nDisallow: /\n".to_vec());
    let diagnostics = lint(&txt);
    let message = diagnostics[0].message();
    assert!(
        message.contains(
            "RFC 9309 robots ignore it and join webcrawler to the group of lycra, so webcrawler is blocked from /"
        ),
        "{message}"
    );
    assert!(message.contains("1994/1996 robots end the record at the blank line"), "{message}");
}

// --- Fixed files mean what their authors meant -------------------------------------------

/// `(file, robot, path, verdict under every reading after the fixes)`.
const INTENT: &[(&str, &str, &str, bool)] = &[
    ("User-agent: *\nDisallow: ~\n", "Slurp", "/~chuck/index.html", false),
    ("User-agent: *\nDisallow: ~\n", "Slurp", "/index.html", true),
    ("# Sample robots.txt file\n\nUser-agent: charlotte Disallow: /cgi-bin\n", "Charlotte", "/cgi-bin/search", false),
    ("# Sample robots.txt file\n\nUser-agent: charlotte Disallow: /cgi-bin\n", "Charlotte", "/index.html", true),
    ("User-agent: *\nDisallow: *\n", "Scooter", "/index.html", false),
    (
        "User-Agent: *\n\nDisallow: /\n\nUser-Agent: Lycos\n\nDisallow: /cgi-bin/ /tmp/\n",
        "Scooter",
        "/index.html",
        false,
    ),
    ("User-Agent: *\n\nDisallow: /\n\nUser-Agent: Lycos\n\nDisallow: /cgi-bin/ /tmp/\n", "Lycos", "/tmp/x", false),
    ("User-Agent: *\n\nDisallow: /\n\nUser-Agent: Lycos\n\nDisallow: /cgi-bin/ /tmp/\n", "Lycos", "/cgi-bin/x", false),
    ("User-Agent: *\n\nDisallow: /\n\nUser-Agent: Lycos\n\nDisallow: /cgi-bin/ /tmp/\n", "Lycos", "/index.html", true),
    (FAQ, "WebCrawler", "/index.html", true),
    (FAQ, "WebCrawler", "/tmp/x", true),
    (FAQ, "lycra", "/index.html", false),
    (FAQ, "Scooter", "/logs.html", false),
    ("User-Agent: Copernicus Fred\nDisallow: /\n", "Fred", "/a", false),
    ("User-Agent: Copernicus Fred\nDisallow: /\n", "Copernicus", "/a", false),
    ("User-agent: *\nDisallow: /a/\n\nUser-agent: *\nDisallow: /b/\n", "Slurp", "/b/x", false),
    ("User-agent: *\nDisallow: /a/\n\nUser-agent: *\nDisallow: /b/\n", "Slurp", "/a/x", false),
];

const FAQ: &str = "# /robots.txt file for http://webcrawler.com/\n# mail webmaster@webcrawler.com for constructive criticism\n\nUser-agent: webcrawler\n\nUser-agent: lycra\nDisallow: /\n\nUser-agent: *\nDisallow: /tmp\nDisallow: /logs\n";

#[test]
fn fixed_files_mean_what_their_authors_meant_under_every_reading() {
    for &(text, robot, path, allowed) in INTENT {
        let fixed = RobotsTxt::parse(fix_all(text.as_bytes()).into_text());
        for reading in Reading::ALL {
            let verdict = evaluate(&fixed, &Robot::from_agent(robot), path, reading);
            assert_eq!(
                verdict.allowed(),
                allowed,
                "{robot} {path} under {reading} after fixing {text:?}:\n{}\n{}",
                String::from_utf8_lossy(fixed.source()),
                verdict.explanation()
            );
        }
    }
}

#[test]
fn the_seeds_own_mistakes_are_caught() {
    #[derive(serde::Deserialize)]
    struct Seed {
        robots_txt: String,
    }
    let seeds: Vec<Seed> = serde_json::from_str(&data("conformance/seeds.json")).expect("seeds");
    let mistaken =
        ["Disallow: ~", "/cgi-bin/ /tmp/", "charlotte Disallow", "Disallow: *", "User-agent: webcrawler\n\n"];
    for mistake in mistaken {
        let seed =
            seeds.iter().find(|s| s.robots_txt.contains(mistake)).unwrap_or_else(|| panic!("a seed with {mistake:?}"));
        let diagnostics = lint(&RobotsTxt::parse(seed.robots_txt.clone().into_bytes()));
        assert!(
            diagnostics.iter().any(|d| d.severity() == Severity::Error && d.fix().is_some()),
            "{mistake:?}: {diagnostics:#?}"
        );
    }
}

#[test]
fn fixing_twice_is_fixing_once() {
    for &(text, ..) in INTENT {
        let once = fix_all(text.as_bytes()).into_text();
        let twice = fix_all(&once).into_text();
        assert_eq!(String::from_utf8_lossy(&twice), String::from_utf8_lossy(&once), "{text:?}");
    }
}

fn data(path: &str) -> String {
    fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(path)).expect("test data")
}

/// Lint and fix run on every file of the real corpus without panicking; fixing twice
/// equals fixing once there too.
#[test]
fn the_real_corpus_lints_and_fixes() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus");
    let mut files: Vec<_> = fs::read_dir(dir).expect("corpus").map(|e| e.expect("entry").path()).collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "txt"));
    files.sort();
    let mut total = 0;
    for path in files {
        let bytes = fs::read(&path).expect("file");
        let diagnostics = lint(&RobotsTxt::parse(bytes.clone()));
        total += diagnostics.len();
        for d in &diagnostics {
            assert!(d.line() >= 1 && d.span().end <= bytes.len(), "{}: {d:?}", path.display());
        }
        let once = fix_all(&bytes);
        assert_eq!(fix_all(once.text()).text(), once.text(), "{}: fixing twice differs", path.display());
    }
    assert!(total > 100, "the real files have plenty to say: {total}");
}

/// Files that repeat one mistake thousands of times get diagnostics, fixes and `--json`
/// in proportion to their size: no message lists every robot once per blank line, no
/// fix spans the text between each repeat and the first group.
#[test]
fn repeated_mistakes_cost_in_proportion_to_the_file() {
    let repeat = |line: &dyn Fn(usize) -> String| (0..2000).map(line).collect::<Vec<_>>().concat();
    let star_groups = repeat(&|i| format!("User-agent: *\nDisallow: /x{i}\n"));
    let agents_and_blanks = repeat(&|i| format!("User-agent: bot{i}\n\n")) + "Disallow: /\n";
    for text in [star_groups, agents_and_blanks] {
        let diagnostics = lint(&RobotsTxt::parse(text.clone().into_bytes()));
        assert!(diagnostics.len() >= 1999, "every repeat is reported");
        let said: usize = diagnostics
            .iter()
            .map(|d| {
                d.message().len() + d.fix().iter().flat_map(|f| f.edits()).map(|e| e.replacement().len()).sum::<usize>()
            })
            .sum();
        assert!(said < 400 * diagnostics.len() + 2 * text.len(), "{said} bytes said of {} bytes", text.len());
        let json = assert_cmd::Command::cargo_bin("robotscope")
            .expect("binary")
            .args(["lint", "-", "--json"])
            .write_stdin(text.clone())
            .output()
            .expect("runs");
        let bound = 600 * diagnostics.len() + 2 * text.len();
        assert!(json.stdout.len() < bound, "{} bytes of JSON for {} bytes", json.stdout.len(), text.len());
        let fixed = fix_all(text.as_bytes());
        assert!(
            fixed.remaining().iter().all(|d| d.fix().is_none()),
            "every fix was applied: {:?}",
            fixed.remaining().first()
        );
    }
}

/// A page is called a page only when it is one, and the message says what robots still
/// read in it; a robots.txt that mentions `<html>` in a comment is a robots.txt.
#[test]
fn html_is_named_only_when_it_is_a_page_and_its_rules_are_counted() {
    let page = RobotsTxt::parse("<!DOCTYPE html>\n<html><body>\nUser-agent: *\nDisallow: /x\n</body></html>\n");
    let diagnostics = lint(&page);
    let html = diagnostics.iter().find(|d| d.code() == Code::HtmlFile).expect("an html-file diagnostic");
    assert!(html.message().contains("find 1 rule"), "{}", html.message());
    assert!(!evaluate(&page, &Robot::from_agent("bot"), "/x", Reading::Rfc9309).allowed(), "and check agrees");
    let commented = RobotsTxt::parse("User-agent: *\nDisallow: /\n# see <html> and <header> docs\n");
    assert!(lint(&commented).iter().all(|d| d.code() != Code::HtmlFile));
}

/// The usage preferences' mistakes, each with what the line means before and after the
/// fix, and the fixed file states what the author meant.
#[test]
fn usage_under_disallow_is_told_only_when_certain() {
    let flagged = |text: &str| lint(&RobotsTxt::parse(text)).iter().any(|d| d.code() == Code::UsageUnderDisallow);
    assert!(
        flagged("User-agent: GPTBot\nDisallow: /\nContent-Usage: train-ai=n\n"),
        "a pathless rule in a closed group"
    );
    assert!(
        flagged("User-agent: *\nDisallow: /a*\nContent-Usage: /a/*.pdf search=n\n"),
        "a trailing * changes nothing"
    );
    assert!(
        flagged("User-agent: *\nDisallow: /a\nAllow: /b\nContent-Usage: /a/ search=n\n"),
        "an Allow elsewhere does not help"
    );
    for (text, why) in [
        (
            "User-agent: *\nDisallow: /drafts/\nAllow: /drafts/public/\nContent-Usage: /drafts/ train-ai=n\n",
            "an Allow under it",
        ),
        ("User-agent: *\nDisallow: /\nAllow: /\nContent-Usage: train-ai=n\n", "an Allow as long wins the tie"),
        ("User-agent: *\nDisallow: /*.pdf\nContent-Usage: /docs/ train-ai=n\n", "a wildcard Disallow"),
        ("User-agent: *\nDisallow: /drafts$\nContent-Usage: /drafts train-ai=n\n", "an anchored Disallow"),
        ("User-agent: *\nDisallow: /drafts/\nContent-Usage: /*/drafts/ train-ai=n\n", "a rule that starts elsewhere"),
        ("User-agent: *\nDisallow: /a\n\nUser-agent: b\nContent-Usage: /a train-ai=n\n", "another group's Disallow"),
        ("User-agent: *\nDisallow:\nContent-Usage: train-ai=n\n", "an empty Disallow"),
        (
            "User-agent: GPTBot\nDisallow: /a\nContent-Usage: /a train-ai=n\n\nUser-agent: GPTBot\nAllow: /a/b\n",
            "a group merged with another that allows under it",
        ),
    ] {
        assert!(!flagged(text), "{why}: {text}");
    }
}

#[test]
fn usage_preference_mistakes_are_caught_and_fixed() {
    let text = "Content-Signal: search=yes\nUser-agent: *\nAllow: /\nContent-Usage: train-ai=no, search=yes\n\
                Content-Usage: ai-ok/ train-ai=y\nContent-Usage: Train-AI=n\nContent-Usage: /x train-ai=n\n\
                Content-Usage: /x train-ai=y\nContent-Usage: /y ai-train=n\nContent-Signal: search=y, ai-train=n\n\
                Content-Signal: train-ai=no\nContent-Usage: ((\n";
    let found: Vec<(usize, &str)> = lint(&RobotsTxt::parse(text))
        .iter()
        .filter(|d| d.code() != Code::UsagePreferences)
        .map(|d| (d.line(), d.code().name()))
        .collect();
    assert_eq!(
        found,
        [
            (1, "usage-outside-group"),
            (4, "usage-value"),
            (5, "usage-path-without-slash"),
            (6, "usage-unparsable"),
            (8, "usage-conflict"),
            (9, "usage-category"),
            (10, "usage-value"),
            (11, "usage-category"),
            (12, "usage-unparsable"),
        ]
    );
    let message = lint(&RobotsTxt::parse("User-agent: *\nContent-Usage: train-ai=no\n"))
        .into_iter()
        .find(|d| d.code() == Code::UsageValue)
        .expect("usage-value")
        .message()
        .to_owned();
    assert!(
        message.contains("as written, train-ai unknown") && message.contains("as meant, train-ai disallowed"),
        "{message}"
    );
    let fixed = String::from_utf8(fix_all(text.as_bytes()).into_text()).expect("utf-8");
    assert_eq!(
        fixed,
        "Content-Signal: search=yes\nUser-agent: *\nAllow: /\nContent-Usage: train-ai=n, search=y\n\
         Content-Usage: /ai-ok/ train-ai=y\nContent-Usage: train-ai=n\nContent-Usage: /x train-ai=n\n\
         Content-Usage: /x train-ai=y\nContent-Usage: /y train-ai=n\nContent-Signal: search=yes, ai-train=no\n\
         Content-Signal: ai-train=no\nContent-Usage: ((\n"
    );
    // The classic readings know neither field: lint says nothing about them there, and
    // a crawl verdict never moves (tests/integration/properties.rs).
    assert!(
        lint(&RobotsTxt::parse("User-agent: *\nDisallow: /a\n")).iter().all(|d| d.code() != Code::UsagePreferences)
    );
}

/// Issue 24: every fix is checked under every reading, for every robot the file names
/// and `*`, before it is offered, and says which verdicts it changes.
#[test]
fn every_fix_says_what_it_changes() {
    let said = |text: &str, code: &str| {
        let txt = RobotsTxt::parse(text.as_bytes().to_vec());
        let diagnostics = robotscope::policy::lint_checked(&txt);
        let found = diagnostics.iter().find(|d| d.code().name() == code).unwrap_or_else(|| panic!("{code}"));
        found.fix_effect().expect("checked").to_string()
    };
    assert_eq!(
        said("User-agent: *\nDisallow: /a\nDisallow: /a\n", "duplicate-rule"),
        "changes no verdict under any reading"
    );
    // A bidi control hides Googlebot's group: removing it changes Googlebot's verdicts,
    // and the fix says so (the message no longer claims otherwise).
    let bidi = "User-agent: \u{202e}Google\u{202c}bot\nDisallow: /\n";
    let effect = said(bidi, "control-character");
    assert!(effect.contains("RFC 9309: Googlebot / allowed → disallowed"), "{effect}");
    let txt = RobotsTxt::parse(bidi.as_bytes().to_vec());
    let message =
        lint(&txt).into_iter().find(|d| d.code() == Code::ControlCharacter).expect("found").message().to_owned();
    assert!(!message.contains("changes no verdict"), "{message}");
    // A zero width space inside the name: the same, under every reading.
    let effect = said("User-agent: Google\u{200b}bot\nDisallow: /\n", "invisible-character");
    // The classic readings know the robot by the name they look for, and the message
    // says who else that name stands for.
    for (reading, robot) in [("RFC 9309", "Googlebot"), ("1996 draft", "googlebot"), ("1994 standard", "googlebot")] {
        assert!(effect.contains(&format!("{reading}: {robot} / allowed → disallowed")), "{effect}");
    }
    assert!(effect.contains("every robot whose name contains one"), "{effect}");
    // A path without its slash: the fix exists to change what the rule blocks.
    let effect = said("User-agent: *\nDisallow: ~\n", "path-without-slash");
    assert!(
        effect.starts_with("changes verdicts: RFC 9309: a robot no group names /~ allowed → disallowed"),
        "{effect}"
    );
}

/// Issue 24: fixing the Sogou file changes no verdict under any reading: the merge that
/// would have moved `Sogou inst spider` into another record is not offered.
#[test]
fn fixing_a_name_two_readings_read_apart_changes_no_verdict() {
    let text = "User-agent: Sogou web spider\nDisallow: /a\n\nUser-agent: Sogou inst spider\nDisallow: /b\n";
    let report = fix_all(text.as_bytes());
    let before = RobotsTxt::parse(text.as_bytes().to_vec());
    assert!(robotscope::policy::fix_all_effect(&before, &report).is_none());
    let after = RobotsTxt::parse(report.text().to_vec());
    for reading in Reading::ALL {
        for agent in ["Sogou inst spider", "Sogou web spider"] {
            for path in ["/a", "/b"] {
                let robot = Robot::from_agent(agent);
                assert_eq!(
                    evaluate(&before, &robot, path, reading).allowed(),
                    evaluate(&after, &robot, path, reading).allowed(),
                    "{agent} {path} under {reading}"
                );
            }
        }
    }
}

/// A tab, a vertical tab or a no-break space in a path was "fixed" to itself: `fix`
/// applied 986,895 fixes in 3 s and changed nothing. A space is written `%20`, a
/// vertical tab `%0B`, and a tab left out (a URL parser drops it), once; a no-break space
/// is no separator, and `Disallow: <U+00A0>/p` is never fixed into `Disallow: /`.
#[test]
fn white_space_other_than_a_space_is_fixed_once() {
    for (written, fixed) in [("/a\tb", "/ab"), ("/a\u{b}b", "/a%0Bb"), ("/a b\tc", "/a%20bc")] {
        let text = format!("User-agent: *\nDisallow: {written}\n");
        let report = fix_all(text.as_bytes());
        assert_eq!(report.applied(), 1, "{written:?}");
        assert_eq!(
            String::from_utf8(report.text().to_vec()).expect("utf-8"),
            format!("User-agent: *\nDisallow: {fixed}\n")
        );
    }
    // No fix that leaves the text as it is is offered at all.
    let text = "User-agent: *\nDisallow: /a\u{b}b\n";
    let txt = RobotsTxt::parse(text.as_bytes().to_vec());
    for diagnostic in lint(&txt) {
        if let Some(fix) = diagnostic.fix() {
            assert_ne!(apply_fix(text.as_bytes(), fix), text.as_bytes(), "{:?}", diagnostic.code());
        }
    }
    assert!(fix_all(text.as_bytes()).applied() <= 2);
    for written in ["\u{a0}/p", "/x\u{a0}/y"] {
        let report = fix_all(format!("User-agent: *\nDisallow: {written}\n").as_bytes());
        assert!(
            !report.text().ends_with(b"Disallow: /\n"),
            "{written:?}: {:?}",
            String::from_utf8_lossy(report.text())
        );
    }
}
