//! The command line, driven through the real binary: exit codes, output formats,
//! streaming, and the messages for bad input.
// The binary and its layers: built with the default `tool` feature only.

use crate::support;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command as StdCommand, Stdio};

use assert_cmd::Command;
use predicates::prelude::*;
use tempfile::NamedTempFile;

const ENGINES: &str = "# Infoseek robot (SideWinder) can visit Infoseek-optimized dir,
User-agent: sidewinder
Disallow: /northernlight_optimised_directory/

User-agent: gulliver
Disallow: /infoseek_optimised_directory/

User-agent: *
Disallow: /infoseek_optimised_directory/
Disallow: /northernlight_optimised_directory/
";

fn robots_file(text: &str) -> NamedTempFile {
    let mut file = NamedTempFile::new().expect("temp file");
    file.write_all(text.as_bytes()).expect("write");
    file
}

fn robotscope() -> Command {
    Command::cargo_bin("robotscope").expect("binary")
}

#[test]
fn check_exit_status_follows_the_verdicts() {
    let file = robots_file(ENGINES);
    robotscope()
        .args(["check", file.path().to_str().expect("path"), "-a", "gulliver", "/northernlight_optimised_directory/a"])
        .assert()
        .code(0)
        .stdout(predicate::str::starts_with("allowed"));
    robotscope()
        .args(["check", file.path().to_str().expect("path"), "-a", "gulliver", "/infoseek_optimised_directory/a"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("line 6: Disallow: /infoseek_optimised_directory/"));
}

/// A stream of many blocks is answered on every core, and the answers come out in the
/// order the paths came in, exactly as one at a time would give them.
#[test]
fn a_large_stream_is_answered_in_input_order() {
    let file = robots_file("User-agent: *\nDisallow: /*7$\nAllow: /p1\nDisallow: /p\n");
    let paths: Vec<String> = (0..120_000).map(|i| format!("/p{i}")).collect();
    let output = robotscope()
        .args(["check", file.path().to_str().expect("path"), "-a", "bot"])
        .write_stdin(paths.join("\n"))
        .output()
        .expect("run");
    assert_eq!(output.status.code(), Some(1));
    let text = String::from_utf8(output.stdout).expect("utf-8");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), paths.len(), "the last line has no line end and is answered too");
    for (line, (i, path)) in lines.iter().zip(paths.iter().enumerate()) {
        let expected = if i % 10 == 7 {
            format!("disallowed bot {path}  line 2: Disallow: /*7$")
        } else if path.starts_with("/p1") {
            format!("allowed    bot {path}  line 3: Allow: /p1")
        } else {
            format!("disallowed bot {path}  line 4: Disallow: /p")
        };
        assert_eq!(*line, expected);
    }
}

/// `--disallowed` and `--allowed` print the paths with that verdict, once each and as
/// given, for all robots asked about; with --json, the results with that verdict.
#[test]
fn check_filters_print_only_the_paths_asked_for() {
    let file = robots_file("User-agent: *\nDisallow: /private/\n\nUser-agent: slurp\nDisallow: /slurp-only/\n");
    let run = |extra: &[&str]| {
        let output = robotscope()
            .args(["check", file.path().to_str().expect("path"), "-a", "bot", "-a", "slurp"])
            .args(extra)
            .write_stdin("/private/a\n# a comment\n/slurp-only/b\n  /open \n/café\n")
            .output()
            .expect("run");
        (output.status.code(), String::from_utf8(output.stdout).expect("utf-8"))
    };
    assert_eq!(run(&["--disallowed"]), (Some(1), "/private/a\n/slurp-only/b\n".to_owned()));
    assert_eq!(run(&["--allowed"]), (Some(1), "/open\n/café\n".to_owned()));
    let (_, json) = run(&["--disallowed", "--json"]);
    let agents: Vec<&str> = json.lines().map(|l| l.split('"').nth(3).unwrap_or_default()).collect();
    assert_eq!(agents, ["bot", "slurp"], "the disallowed results only: {json}");
    robotscope().args(["check", file.path().to_str().expect("path"), "--allowed", "--disallowed"]).assert().code(2);
}

/// A path line too long to be one, deep in a large stream: everything before it is
/// answered, then the error names its line.
#[test]
fn a_long_line_deep_in_a_stream_is_named() {
    let file = robots_file("User-agent: *\nDisallow: /x\n");
    let mut input: Vec<u8> = (0..50_000).flat_map(|i| format!("/a{i}\n").into_bytes()).collect();
    input.extend(std::iter::repeat_n(b'y', 70_000));
    input.extend(b"\n/after\n");
    let output = robotscope()
        .args(["check", file.path().to_str().expect("path"), "-a", "bot"])
        .write_stdin(input)
        .output()
        .expect("run");
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&output.stdout).lines().count(), 50_000);
    assert!(String::from_utf8_lossy(&output.stderr).contains("line 50001 is longer than 65536 bytes"));
}

/// A path file and standard input read the same bytes the same way: invalid UTF-8 as
/// its `%XX` escape, a byte order mark dropped.
#[test]
fn paths_read_alike_from_stdin_and_from_a_file() {
    let mut robots = NamedTempFile::new().expect("temp file");
    robots.write_all(b"User-agent: *\nDisallow: /e\xff\nDisallow: /nogo\n").expect("write");
    let path = robots.path().to_str().expect("path");
    let lines = b"\xef\xbb\xbf/nogo\r\n/e\xfff\n";
    let mut paths = NamedTempFile::new().expect("temp file");
    paths.write_all(lines).expect("write");
    let check = robotscope().args(["check", path, "-a", "bot"]).write_stdin(lines.to_vec()).output().expect("run");
    let verdicts: Vec<String> = String::from_utf8_lossy(&check.stdout)
        .lines()
        .map(|line| line.split_whitespace().next().unwrap_or_default().to_owned())
        .collect();
    assert_eq!(verdicts, ["disallowed", "disallowed"], "{}", String::from_utf8_lossy(&check.stdout));
    let compare = robotscope()
        .args(["compare", path, "-a", "bot", "--csv", "--paths", paths.path().to_str().expect("path")])
        .output()
        .expect("run");
    assert_eq!(String::from_utf8_lossy(&compare.stdout), "path,bot\n/nogo,disallowed 3\n/e%FFf,disallowed 2\n");
}

/// A URL on another site that is also `/robots.txt` gets both notes.
#[test]
fn a_url_gets_every_note_it_calls_for() {
    let server = support::Server::start(|_| support::Reply::text("User-agent: *\nDisallow: /\n"));
    robotscope().args(["check", &server.url("/"), "-a", "bot", "http://other.example/robots.txt"]).assert().stderr(
        predicate::str::contains("is on http://other.example").and(predicate::str::contains("implicitly allowed")),
    );
}

/// A directory named like a host (as `wget -r` leaves) does not hide the site.
#[test]
fn a_directory_named_like_a_host_is_not_the_source() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join("localhost")).expect("mkdir");
    robotscope()
        .current_dir(dir.path())
        .args(["check", "localhost:9", "-a", "bot", "/a", "--timeout", "2"])
        .assert()
        .stderr(predicate::str::contains("Is a directory").not().and(predicate::str::contains("localhost:9")));
    std::fs::create_dir(dir.path().join("example.com")).expect("mkdir");
    let output = robotscope()
        .current_dir(dir.path())
        .args(["check", "example.com", "-a", "bot", "/a", "--timeout", "1"])
        .output()
        .expect("run");
    assert!(!String::from_utf8_lossy(&output.stderr).contains("Is a directory"));
}

#[test]
fn check_json_has_the_contract_fields() {
    let file = robots_file(ENGINES);
    let output = robotscope()
        .args([
            "check",
            file.path().to_str().expect("path"),
            "-a",
            "Slurp",
            "--json",
            "https://example.com/infoseek_optimised_directory/x",
            "/index.html",
        ])
        .output()
        .expect("run");
    assert_eq!(output.status.code(), Some(1));
    let records: Vec<serde_json::Value> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("json line"))
        .collect();
    assert_eq!(records.len(), 2);
    let first = &records[0];
    assert_eq!(first["agent"], "Slurp");
    assert_eq!(first["url"], "https://example.com/infoseek_optimised_directory/x");
    assert_eq!(first["path"], "/infoseek_optimised_directory/x");
    assert_eq!(first["allowed"], false);
    assert_eq!(first["semantics"], "rfc9309");
    assert_eq!(first["line"], 9);
    assert_eq!(first["rule"], "Disallow: /infoseek_optimised_directory/");
    assert_eq!(first["group_line"], 8);
    let second = &records[1];
    assert_eq!(second["allowed"], true);
    assert!(second["line"].is_null() && second["rule"].is_null());
    assert_eq!(second["group_line"], 8);
}

#[test]
fn check_reads_paths_from_standard_input_for_every_agent() {
    let file = robots_file(ENGINES);
    // Blank lines and `#` comments are skipped and spaces trimmed, as in `compare --paths`.
    let paths = "# from the log\n/infoseek_optimised_directory/\n\n  /northernlight_optimised_directory/\r\n/other\n";
    let output = robotscope()
        .args(["check", file.path().to_str().expect("path"), "-a", "sidewinder", "-a", "gulliver"])
        .write_stdin(paths)
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&output.stdout);
    let verdicts: Vec<&str> = text.lines().map(|line| line.split_whitespace().next().unwrap_or_default()).collect();
    assert_eq!(verdicts, ["allowed", "disallowed", "disallowed", "allowed", "allowed", "allowed"]);
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn robots_txt_itself_gets_a_note_once() {
    let file = robots_file("User-agent: *\nDisallow: /\n");
    robotscope()
        .args(["check", file.path().to_str().expect("path"), "-a", "bot"])
        .write_stdin("/robots.txt\n/robots.txt?x\n/a\n")
        .assert()
        .code(1)
        .stderr(predicate::str::contains("implicitly allowed").count(1));
    robotscope()
        .args(["compare", file.path().to_str().expect("path"), "-a", "bot", "/robots.txt"])
        .assert()
        .stderr(predicate::str::contains("RFC 9309 §2.2.2"));
}

#[test]
fn check_streams_one_result_per_path_as_it_reads() {
    let file = robots_file(ENGINES);
    let mut child = StdCommand::new(assert_cmd::cargo::cargo_bin("robotscope"))
        .args(["check", file.path().to_str().expect("path"), "-a", "gulliver", "--line-buffered"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    // Each answer arrives while standard input is still open: nothing waits for the end.
    for (path, expected) in [("/infoseek_optimised_directory/a", "disallowed"), ("/a", "allowed")] {
        writeln!(stdin, "{path}").expect("write path");
        stdin.flush().expect("flush");
        let mut line = String::new();
        stdout.read_line(&mut line).expect("read result");
        assert!(line.starts_with(expected), "{line}");
    }
    drop(stdin);
    assert_eq!(child.wait().expect("wait").code(), Some(1));
}

#[test]
fn check_under_each_semantics() {
    let file = robots_file("User-agent: *\nDisallow: /cgi-bin/\nAllow: /cgi-bin/public\n");
    let path = file.path().to_str().expect("path");
    let run = |semantics: &str| {
        robotscope().args(["check", path, "-a", "Slurp", "-s", semantics, "/cgi-bin/public/form"]).assert()
    };
    run("rfc9309").code(0);
    run("draft1996").code(1).stdout(predicate::str::contains("line 2"));
    run("koster1994").code(1);
}

#[test]
fn robot_profiles_bring_fallbacks_and_readings() {
    let file = robots_file("User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nDisallow: /nogoogle/\n");
    let path = file.path().to_str().expect("path");
    robotscope()
        .args(["check", path, "-r", "googlebot-image", "/images/a.png", "/nogoogle/x"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("Googlebot-Image via Googlebot /images/a.png"))
        .stdout(predicate::str::contains("disallowed Googlebot-Image via Googlebot /nogoogle/x"));
    robotscope()
        .args(["check", path, "-r", "Scooter", "--json", "/x"])
        .assert()
        .stdout(predicate::str::contains("\"semantics\":\"draft1996\""));
}

#[test]
fn agents_that_are_not_tokens_are_warned_about() {
    let file = robots_file("User-agent: scooter\nDisallow:\n\nUser-agent: *\nDisallow: /\n");
    robotscope()
        .args(["check", file.path().to_str().expect("path"), "-a", "Scooter/3.0", "/a"])
        .assert()
        .code(1)
        .stderr(
            predicate::str::contains("'Scooter/3.0' is not a product token")
                .and(predicate::str::contains("-a Scooter")),
        );
    robotscope()
        .args(["check", file.path().to_str().expect("path"), "-a", "Scooter/3.0", "-s", "draft1996", "/a"])
        .assert()
        .code(0)
        .stderr(predicate::str::is_empty());
}

#[test]
fn bad_arguments_exit_2_with_a_message() {
    robotscope()
        .args(["check", "no-such-file.txt", "/a"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no such file"));
    let file = robots_file(ENGINES);
    let path = file.path().to_str().expect("path");
    robotscope()
        .args(["check", path, "-s", "1997", "/a"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown reading"));
    robotscope()
        .args(["check", path, "-r", "NoSuchBot", "/a"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("NoSuchBot"));
    robotscope()
        .args(["check", "-", "-a", "x"])
        .write_stdin(ENGINES)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("standard input"));
    robotscope().args(["check", "ftp://example.com/robots.txt", "/a"]).assert().code(2);
}

#[test]
fn robots_from_standard_input_with_paths_as_arguments() {
    robotscope().args(["check", "-", "-a", "lycra", "/"]).write_stdin(ENGINES).assert().code(0);
}

#[test]
fn control_characters_from_the_file_are_escaped_in_text_output() {
    let file = robots_file("User-agent: *\nDisallow: /\x1b]52;c;aGk=\x07\n");
    let output = robotscope()
        .args(["check", file.path().to_str().expect("path"), "/\x1b]52;c;aGk=\x07x"])
        .output()
        .expect("run");
    assert!(!output.stdout.contains(&0x1b), "{:?}", String::from_utf8_lossy(&output.stdout));
    assert!(String::from_utf8_lossy(&output.stdout).contains("^["));
}

#[test]
fn robots_lists_the_profiles() {
    robotscope().arg("robots").assert().code(0).stdout(
        predicate::str::contains("Scooter")
            .and(predicate::str::contains("GPTBot"))
            .and(predicate::str::contains("ignores *")),
    );
}

// --- lint and fix ------------------------------------------------------------------------

const MISTAKES: &str = "User-Agent: *\n\nDisallow: /\n\nUser-Agent: Lycos\n\nDisallow: /cgi-bin/ /tmp/\n";

#[test]
fn lint_exits_1_on_errors_and_0_without() {
    let file = robots_file(MISTAKES);
    robotscope().args(["lint", file.path().to_str().expect("path")]).assert().code(1).stdout(
        predicate::str::contains("2:1: error blank-line-in-group")
            .and(predicate::str::contains("7:11: error several-paths")),
    );
    let clean = robots_file("User-agent: *\nDisallow: /private/\n");
    robotscope()
        .args(["lint", clean.path().to_str().expect("path")])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("0 errors"));
}

#[test]
fn lint_json_has_the_contract_fields() {
    let file = robots_file("User-agent: *\nDisallow: ~ # home dirs\n");
    let output = robotscope().args(["lint", file.path().to_str().expect("path"), "--json"]).output().expect("run");
    assert_eq!(output.status.code(), Some(1));
    let records: Vec<serde_json::Value> =
        String::from_utf8_lossy(&output.stdout).lines().map(|line| serde_json::from_str(line).expect("json")).collect();
    let record = records.iter().find(|r| r["code"] == "path-without-slash").expect("the diagnostic");
    assert_eq!(record["line"], 2);
    assert_eq!(record["column"], 11);
    assert_eq!(record["severity"], "error");
    assert!(record["message"].as_str().is_some_and(|m| m.contains("does not start with `/`")));
    assert_eq!(record["fix"]["replacement"], "/~");
    assert_eq!(record["fix"]["span"], serde_json::json!([24, 25]));
    let noted = records.iter().filter(|r| r["fix"].is_null()).count();
    assert_eq!(noted + 1, records.len());
}

#[test]
fn fix_prints_the_fixed_file_and_diff_prints_the_change() {
    let file = robots_file(MISTAKES);
    robotscope()
        .args(["fix", file.path().to_str().expect("path")])
        .assert()
        .code(0)
        .stdout("User-Agent: *\nDisallow: /\n\nUser-Agent: Lycos\nDisallow: /cgi-bin/\nDisallow: /tmp/\n")
        .stderr(predicate::str::contains("applied 3 fixes"));
    // A diff that is not empty is a finding, as for diff(1); its headers name the file
    // as given (an absolute path here), on both sides.
    let path = file.path().to_str().expect("path");
    robotscope().args(["fix", path, "--diff"]).assert().code(1).stdout(
        predicate::str::contains("-Disallow: /cgi-bin/ /tmp/\n+Disallow: /cgi-bin/\n+Disallow: /tmp/\n")
            .and(predicate::str::starts_with(format!("--- {path}\n+++ {path}\n"))),
    );
    let clean = robots_file("User-agent: *\nDisallow: /private/\n");
    let clean = clean.path().to_str().expect("path");
    robotscope().args(["fix", clean, "--diff"]).assert().code(0).stdout("");
    robotscope().args(["fix", clean]).assert().code(0).stdout("User-agent: *\nDisallow: /private/\n");
}

/// From a review of issue 26: the diff of a CR LF file, written to a file, was escaped
/// (`^M`) and did not apply; into a pipe or a file it goes byte for byte.
#[test]
fn fix_diff_into_a_file_keeps_the_line_ends() {
    let file = robots_file("User-agent: *\r\nDisalow: /x\r\n");
    let path = file.path().to_str().expect("path");
    robotscope()
        .args(["fix", path, "--diff"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("-Disalow: /x\r\n+Disallow: /x\r\n"))
        .stderr(predicate::str::contains("patch(1)").not());
}

/// From CI on the fix above: the diff's removed lines carry the file's own bytes, so an
/// escape sequence in the file reached the pipe raw. It is escaped, and the user is told
/// that such a diff will not apply.
#[test]
fn fix_diff_into_a_pipe_escapes_what_could_drive_a_terminal_and_says_so() {
    let file = robots_file("User-agent: *\r\nDisallow: /a\u{1b}[2J\r\n");
    let path = file.path().to_str().expect("path");
    robotscope()
        .args(["fix", path, "--diff"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("-Disallow: /a^[[2J\r\n+Disallow: /a%1B[2J\r\n"))
        .stderr(predicate::str::contains("patch(1) will not apply it"));
}

/// Issue 24: `fix --check` for CI: nothing on standard output, exit 1 when there is
/// something to fix and 0 when not; with `--diff`, the diff too.
#[test]
fn fix_check_exits_1_when_there_is_something_to_fix() {
    let file = robots_file(MISTAKES);
    let path = file.path().to_str().expect("path");
    robotscope()
        .args(["fix", path, "--check"])
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains("3 fixes to apply"));
    robotscope()
        .args(["fix", path, "--check", "--diff"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("+Disallow: /tmp/"));
    let clean = robots_file("User-agent: *\nDisallow: /private/\n");
    // Issue 35: a clean file prints nothing at all, on either stream.
    robotscope().args(["fix", clean.path().to_str().expect("path"), "--check"]).assert().code(0).stdout("").stderr("");
}

#[test]
fn fix_keeps_crlf_line_ends_and_comments() {
    let file = robots_file("User-agent: *\r\nDisallow: cgi-bin/ # scripts\r\n");
    robotscope()
        .args(["fix", file.path().to_str().expect("path")])
        .assert()
        .stdout("User-agent: *\r\nDisallow: /cgi-bin/ # scripts\r\n");
}

// --- How paths and URLs are read (issue 11) ------------------------------------------------

const PATHS: &str =
    "User-agent: *\nDisallow: /cgi-bin/\nDisallow: /private/\nDisallow: /%CF%80\nDisallow: /café/\nDisallow: /a%3Cd\n";

/// `check --json` for one path or URL: (tested, allowed), and what went to stderr.
fn checked(args: &[&str], path: &str) -> (String, bool, String) {
    let file = robots_file(PATHS);
    let output = robotscope()
        .args(["check", file.path().to_str().expect("path"), "--json"])
        .args(args)
        .arg("--")
        .arg(path)
        .output()
        .expect("runs");
    let record: serde_json::Value = serde_json::from_slice(&output.stdout).expect("one JSON line");
    assert_eq!(record["url"], path, "the text as given");
    let tested = record["tested"].as_str().expect("tested").to_owned();
    (tested, record["allowed"].as_bool().expect("allowed"), String::from_utf8_lossy(&output.stderr).into_owned())
}

#[test]
fn each_way_of_writing_a_path_is_tested_as_a_crawler_requests_it() {
    // (given, tested, allowed)
    let cases = [
        ("/cgi-bin/x", "/cgi-bin/x", false),
        ("//cgi-bin/x", "//cgi-bin/x", true),
        ("private/x", "/private/x", false),
        ("*.pdf", "/*.pdf", true),
        ("/π", "/%CF%80", false),
        ("/café/menu", "/caf%C3%A9/menu", false),
        ("/a%3cd", "/a%3Cd", false),
        ("https://example.com/private/x?q=1#top", "/private/x?q=1", false),
        ("http://other.example/private/x", "/private/x", false),
        ("/robots.txt", "/robots.txt", true),
    ];
    for (given, tested, allowed) in cases {
        let (got, verdict, _) = checked(&[], given);
        assert_eq!((got.as_str(), verdict), (tested, allowed), "{given}");
    }
}

#[test]
fn raw_url_takes_the_url_as_googles_library_does() {
    assert_eq!(checked(&["--raw-url"], "//cgi-bin/x").0, "/x", "a network-path reference: host cgi-bin");
    assert_eq!(checked(&["--raw-url"], "/a%3cd"), ("/a%3cd".to_owned(), true, String::new()), "compared as sent");
    assert_eq!(checked(&["--raw-url"], "/π").0, "/π");
}

#[test]
fn the_text_output_shows_what_was_given_and_what_was_tested() {
    let file = robots_file(PATHS);
    robotscope()
        .args(["check", file.path().to_str().expect("path"), "private/x", "https://example.com/café/a"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("disallowed * private/x (as /private/x)  line 3: Disallow: /private/"))
        .stdout(predicate::str::contains("* https://example.com/café/a (as /caf%C3%A9/a)"));
}

#[test]
fn a_url_on_another_site_is_named_on_stderr() {
    let server = support::Server::start(|_| support::Reply::text(PATHS));
    let output = robotscope()
        .args(["check", &server.url("/"), "--json"])
        .args(["http://other.example/private/x", "http://other.example/b", &server.url("/private/y")])
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        stderr.matches("is on http://other.example, not http://127.0.0.1:").count(),
        1,
        "once per host: {stderr}"
    );
    assert!(!stderr.contains("/private/y"), "a URL on the site itself is not named: {stderr}");
    assert_eq!(String::from_utf8_lossy(&output.stdout).lines().count(), 3);
}

#[test]
fn compare_and_page_take_raw_url_too() {
    let file = robots_file(PATHS);
    let output = robotscope()
        .args(["compare", file.path().to_str().expect("path"), "-a", "bot", "--json", "--raw-url", "//cgi-bin/x"])
        .output()
        .expect("runs");
    let record: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(record["tested"], "/x");
    let output = robotscope()
        .args(["compare", file.path().to_str().expect("path"), "-a", "bot", "--json", "//cgi-bin/x"])
        .output()
        .expect("runs");
    let record: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(record["tested"], "//cgi-bin/x");
    robotscope().args(["page", "--help"]).assert().stdout(predicate::str::contains("--raw-url"));
}

/// `check --json` carries the usage preferences under RFC 9309 (`null` for a path the
/// robot may not fetch, absent under the classic readings), and `--usage` shows them.
#[test]
fn check_reports_usage_preferences() {
    let file = robots_file(
        "User-agent: *\nContent-Signal: search=yes, ai-train=no\nContent-Usage: /open/ train-ai=y, search=n\nDisallow: /private\n",
    );
    let path = file.path().to_str().expect("path");
    let json = |extra: &[&str]| -> Vec<serde_json::Value> {
        let output = robotscope().args(["check", path, "-a", "GPTBot", "--json"]).args(extra).output().expect("run");
        String::from_utf8_lossy(&output.stdout).lines().map(|l| serde_json::from_str(l).expect("json")).collect()
    };
    let records = json(&["/", "/open/a", "/private/x"]);
    assert_eq!(
        records[0]["usage"],
        serde_json::json!({"train-ai": "disallowed", "search": "allowed", "ai-input": "unknown"})
    );
    assert_eq!(records[0]["usage_lines"], serde_json::json!([2]));
    // The longest Content-Usage rule decides, and the group-wide signal still counts:
    // most restrictive first in each category.
    assert_eq!(
        records[1]["usage"],
        serde_json::json!({"train-ai": "disallowed", "search": "disallowed", "ai-input": "unknown"})
    );
    assert_eq!(records[1]["usage_lines"], serde_json::json!([2, 3]));
    assert!(records[2]["usage"].is_null() && records[2]["usage_lines"].is_null(), "{}", records[2]);
    let classic = json(&["-s", "draft1996", "/"]);
    assert!(classic[0].get("usage").is_none() && classic[0].get("usage_lines").is_none(), "{}", classic[0]);
    robotscope()
        .args(["check", path, "-a", "GPTBot", "--usage", "/", "/private/x"])
        .assert()
        .stdout(predicate::str::contains(
            "  usage: train-ai disallowed (line 2), search allowed (line 2), ai-input unknown\n",
        ))
        .stdout(predicate::str::contains("/private/x  line 4: Disallow: /private\n"));
}

/// `-p` takes every profile of a purpose: "which AI training crawlers may crawl `/`, and
/// may they train on it?" is one command.
#[test]
fn purposes_select_robots() {
    let file = robots_file("User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nContent-Signal: ai-train=no\nAllow: /\n");
    let output = robotscope()
        .args(["check", file.path().to_str().expect("path"), "-p", "ai-training", "--json", "/"])
        .output()
        .expect("run");
    let records: Vec<serde_json::Value> =
        String::from_utf8_lossy(&output.stdout).lines().map(|l| serde_json::from_str(l).expect("json")).collect();
    let agents: Vec<&str> = records.iter().filter_map(|r| r["agent"].as_str()).collect();
    assert!(agents.contains(&"GPTBot") && agents.contains(&"ClaudeBot") && agents.contains(&"CCBot"), "{agents:?}");
    assert!(!agents.contains(&"Googlebot") && !agents.contains(&"ChatGPT-User"), "{agents:?}");
    let gptbot = records.iter().find(|r| r["agent"] == "GPTBot").expect("GPTBot");
    assert!(gptbot["usage"].is_null(), "shut out: no preferences");
    let claudebot = records.iter().find(|r| r["agent"] == "ClaudeBot").expect("ClaudeBot");
    assert_eq!(claudebot["usage"]["train-ai"], "disallowed");
    // Named robots come first and are not repeated.
    let output = robotscope()
        .args(["check", file.path().to_str().expect("path"), "-r", "ClaudeBot", "-p", "ai-training", "/"])
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.lines().next().is_some_and(|l| l.contains("ClaudeBot")), "{text}");
    assert_eq!(text.matches("ClaudeBot").count(), 1, "{text}");
    robotscope()
        .args(["robots"])
        .assert()
        .stdout(predicate::str::contains("PURPOSE"))
        .stdout(predicate::str::contains("ai-assistant"));
}

// --- Rules and paths in one form (issue 24) ------------------------------------------------

/// The peer suites' cases, in our words: protego's `test_unescaped_url` (a rule written
/// with characters a URL cannot hold as they are) and reppy's `test_unescaped_rule`
/// (the same rule against the path written either way). A crawler requests `/a<d.html`
/// as `/a%3Cd.html`; the rule is put in that form too, so it decides for the path
/// however the path is written, under every reading.
#[test]
fn rules_with_characters_a_url_encodes_match_their_paths() {
    let file = robots_file(
        "User-agent: *\nDisallow: /a<d.html\nDisallow: /b c/\nDisallow: /*?q={x}'\n\nUser-agent: opener\nDisallow: /\nAllow: /a<d.html\n",
    );
    let path = file.path().to_str().expect("path");
    for reading in ["rfc9309", "draft1996", "koster1994"] {
        for blocked in ["/a<d.html", "/a%3Cd.html", "/a%3cd.html", "/b c/x", "/b%20c/x"] {
            robotscope()
                .args(["check", path, "-a", "bot", "-s", reading, blocked])
                .assert()
                .code(1)
                .stdout(predicate::str::starts_with("disallowed"));
        }
    }
    // A query keeps `{`, `}` and turns `'` into %27, as a URL parser does.
    robotscope().args(["check", path, "-a", "bot", "/p?q={x}'"]).assert().code(1);
    // The Allow of the same text lets its robot in.
    robotscope()
        .args(["check", path, "-a", "opener", "/a<d.html", "/a%3Cd.html"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("line 8: Allow: /a<d.html").count(2));
}

/// `--raw-url` takes both sides byte for byte, as Google's library does: the rule as
/// written (non-ASCII and escapes aside) meets the URL as given.
#[test]
fn raw_urls_meet_rules_as_googles_library_reads_them() {
    let file = robots_file("User-agent: *\nDisallow: /a<d.html\n");
    let path = file.path().to_str().expect("path");
    robotscope().args(["check", path, "-a", "bot", "--raw-url", "/a<d.html"]).assert().code(1);
    robotscope()
        .args(["check", path, "-a", "bot", "--raw-url", "/a%3Cd.html"])
        .assert()
        .code(0)
        .stdout(predicate::str::starts_with("allowed"));
}

/// Issue 24: `lint` and `fix` say what each fix does to the verdicts, under every
/// reading, for every robot the file names: here a zero width space hides Googlebot.
#[test]
fn lint_and_fix_say_which_verdicts_a_fix_changes() {
    let file = robots_file("User-agent: Google\u{200b}bot\nDisallow: /\n");
    let path = file.path().to_str().expect("path");
    robotscope().args(["lint", path]).assert().code(1).stdout(
        predicate::str::contains("1:19: error invisible-character: An invisible character (<U+200B>)")
            .and(predicate::str::contains("`Google<U+200B>bot`: it shows as `Googlebot`"))
            // The line reaches the robot `Google` (RFC 9309 reads the name to the
            // invisible character, §2.2.1), which the fix frees, and Googlebot, which it
            // blocks.
            .and(predicate::str::contains(
                "fix: Remove the invisible characters (changes verdicts: RFC 9309: Google / disallowed → allowed; \
                 RFC 9309: Googlebot / allowed → disallowed",
            ))
            .and(predicate::str::contains("\u{200b}").not()),
    );
    let output = robotscope().args(["lint", path, "--json"]).output().expect("runs");
    let record: serde_json::Value = serde_json::from_slice(&output.stdout).expect("one JSON line");
    assert_eq!(record["fix"]["checked"], "alone");
    let changes = record["fix"]["changes"].as_array().expect("changes");
    assert!(
        changes.contains(
            &serde_json::json!({"semantics": "rfc9309", "agent": "Googlebot", "path": "/", "before": true, "after": false})
        ),
        "{changes:?}"
    );
    robotscope()
        .args(["fix", path])
        .assert()
        .code(0)
        .stdout("User-agent: Googlebot\nDisallow: /\n")
        .stderr(predicate::str::contains("RFC 9309: Googlebot / allowed → disallowed"));
    let clean = robots_file("User-agent: *\nDisallow: /a\nDisallow: /a\n");
    robotscope()
        .args(["fix", clean.path().to_str().expect("path")])
        .assert()
        .stderr(predicate::str::contains("applied 1 fix, which changes no verdict under any reading"));
}

/// Issue 25: an error that is the user's to fix (a missing file) captures no backtrace,
/// even under `RUST_BACKTRACE=1`, and says the same in the same words; with a cause, the
/// cause follows it.
#[test]
fn errors_carry_no_backtrace_under_rust_backtrace() {
    for backtrace in ["0", "1", "full"] {
        robotscope()
            .env("RUST_BACKTRACE", backtrace)
            .args(["check", "/nonexistent/robots.txt", "-a", "bot", "/"])
            .assert()
            .code(2)
            .stderr(
                "robotscope: error: /nonexistent/robots.txt: no such file (and it does not look like a site name)\n",
            );
    }
    let dir = tempfile::tempdir().expect("dir");
    robotscope()
        .env("RUST_BACKTRACE", "1")
        .args(["history", dir.path().to_str().expect("path")])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("BACKTRACE").not().and(predicate::str::contains("robotscope: error: ")));
}

/// Completions and the manual come from the same clap definitions as the parser: every
/// subcommand is in them.
#[test]
fn completions_and_the_manual_name_every_subcommand() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let output = robotscope().args(["completions", shell]).output().expect("runs");
        assert!(output.status.success(), "{shell}");
        let script = String::from_utf8_lossy(&output.stdout);
        for subcommand in ["check", "lint", "fix", "audit", "bots", "history", "completions"] {
            assert!(script.contains(subcommand), "{shell} completes {subcommand}");
        }
    }
    let output = robotscope().arg("man").output().expect("runs");
    assert!(output.status.success());
    let page = String::from_utf8_lossy(&output.stdout);
    assert!(page.contains(".TH robotscope 1"), "{page}");
    assert!(page.contains("audit") && page.contains("completions"), "{page}");
    let output = robotscope().args(["completions", "tcsh"]).output().expect("runs");
    assert_eq!(output.status.code(), Some(2), "an unknown shell is a usage error");
}

/// A file where GPTBot shares Googlebot's group (issue 37).
const SHARED: &str =
    "# Site\nUser-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nUser-agent: GPTBot\nDisallow: /tmp/\n";

/// `block` prints the edited file, proved, and says what changed; `--check` tells a
/// file that blocks from one that does not; a second block is the same file.
#[test]
fn block_writes_the_rules_and_check_tells_them() {
    let data = tempfile::tempdir().expect("data dir");
    let file = robots_file(SHARED);
    let path = file.path().to_str().expect("path");
    let run = |args: &[&str]| {
        let mut command = robotscope();
        command.env("XDG_DATA_HOME", data.path()).arg("block").args(args);
        command
    };
    run(&[path, "GPTBot", "--check"]).assert().code(1).stderr(predicate::str::contains("not blocked: GPTBot"));
    let output = run(&[path, "ai-training", "--except", "Google-Extended"]).output().expect("run");
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let edited = String::from_utf8(output.stdout).expect("utf-8");
    assert!(edited.starts_with("# Site\nUser-agent: "), "{edited}");
    assert!(edited.contains("User-agent: Googlebot\nDisallow: /tmp/\n"), "{edited}");
    assert!(!edited.contains("Google-Extended"), "{edited}");
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("each robot chosen may now fetch nothing") && said.contains("keeps every verdict"), "{said}");
    let blocked = robots_file(&edited);
    let blocked_path = blocked.path().to_str().expect("path");
    run(&[blocked_path, "ai-training", "--except", "Google-Extended", "--check"]).assert().code(0);
    run(&[blocked_path, "ai-training", "--except", "Google-Extended"]).assert().code(0).stdout(edited.clone());
    run(&[blocked_path, "Google-Extended", "--check"]).assert().code(1);
}

/// `--diff` shows the edit, `--json` the verdicts that change, `--signal` the usage
/// lines; a misspelt robot gets "did you mean" and changes nothing.
#[test]
fn block_diff_json_signal_and_a_misspelt_robot() {
    let file = robots_file(SHARED);
    let path = file.path().to_str().expect("path");
    robotscope().args(["block", path, "GPTBot", "--diff"]).assert().code(1).stdout(
        predicate::str::contains("+User-agent: GPTBot\n+Disallow: /\n")
            .and(predicate::str::contains("-User-agent: GPTBot")),
    );
    let output = robotscope().args(["block", path, "GPTBot", "--json"]).output().expect("run");
    let lines: Vec<serde_json::Value> =
        String::from_utf8_lossy(&output.stdout).lines().map(|line| serde_json::from_str(line).expect("json")).collect();
    let rfc = lines.iter().find(|line| line["reading"] == "rfc9309").expect("an RFC 9309 line");
    assert_eq!(
        (rfc["robot"].as_str(), rfc["before"].as_str(), rfc["after"].as_str()),
        (Some("GPTBot"), Some("partly"), Some("blocked"))
    );
    robotscope().args(["block", path, "ai-training", "--signal"]).assert().code(0).stdout(predicate::str::contains(
        "Disallow: /private/\nContent-Signal: ai-train=no\nContent-Usage: train-ai=n\n",
    ));
    robotscope()
        .args(["block", path, "ai-trainig"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("did you mean ai-training?"));
    // --check reads a robot as the registry knows it: Googlebot-Image falls back to
    // Googlebot, whose group allows everything here.
    let fallback = robots_file("User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nAllow: /\n");
    robotscope()
        .args(["block", fallback.path().to_str().expect("path"), "Googlebot-Image", "--check"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("which Googlebot-Image falls back to"));
    robotscope()
        .args(["block", path, "ClaudeBott"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("did you mean ClaudeBot"));
}

/// Past the 500 KiB RFC 9309 robots read, a block would move rules out of what they
/// read: refused with the reason, nothing printed.
#[test]
fn block_refuses_a_file_past_the_rfc9309_cut() {
    let mut text = String::from("User-agent: *\n");
    for i in 0..40_000 {
        text.push_str("Disallow: /p");
        text.push_str(&i.to_string());
        text.push_str("/\n");
    }
    let file = robots_file(&text);
    robotscope()
        .args(["block", file.path().to_str().expect("path"), "GPTBot", "--whole-file"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("past the 512000 bytes RFC 9309 robots read"));
}

/// `unblock` undoes a block: the robot reads the `*` group again.
#[test]
fn unblock_returns_a_robot_to_the_star_group() {
    let file = robots_file("User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n\nUser-agent: *\nDisallow: /x\n");
    robotscope()
        .args(["unblock", file.path().to_str().expect("path"), "GPTBot"])
        .assert()
        .code(0)
        .stdout("User-agent: CCBot\nDisallow: /\n\nUser-agent: *\nDisallow: /x\n")
        .stderr(predicate::str::contains("GPTBot is named by no group now: it reads the * group (partly"));
}

/// Issue 35: unblocking a robot that falls back to another's group (Googlebot-Image to
/// Googlebot's) names it in the `*` group, so that it reads what a robot no group names
/// reads; `check` agrees.
#[test]
fn unblock_keeps_a_robot_from_its_fallback() {
    let file = robots_file("User-agent: *\nAllow: /\n\nUser-agent: Googlebot\nDisallow: /\n");
    let output =
        robotscope().args(["unblock", file.path().to_str().expect("path"), "Googlebot-Image"]).output().expect("run");
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let edited = String::from_utf8(output.stdout).expect("utf-8");
    assert_eq!(edited, "User-agent: *\nUser-agent: Googlebot-Image\nAllow: /\n\nUser-agent: Googlebot\nDisallow: /\n");
    let unblocked = robots_file(&edited);
    robotscope()
        .args(["check", unblocked.path().to_str().expect("path"), "-r", "Googlebot-Image", "-r", "Googlebot", "/x"])
        .assert()
        .code(1)
        .stdout(
            predicate::str::contains("allowed    Googlebot-Image /x")
                .and(predicate::str::contains("disallowed Googlebot /x")),
        );
}

/// Issue 37: lint offers the registry's fixes with what they change, and fix makes them:
/// a near miss of a robot's name, a retired name without its successor.
#[test]
fn registry_fixes_are_offered_checked_and_made() {
    let file = robots_file("User-agent: GPTBott\nUser-agent: anthropic-ai\nDisallow: /\n");
    let path = file.path().to_str().expect("path");
    robotscope().args(["lint", path]).assert().code(0).stdout(
        predicate::str::contains("fix: Write GPTBot (changes verdicts: RFC 9309: GPTBott / disallowed → allowed")
            .and(predicate::str::contains("fix: Name ClaudeBot here too (changes verdicts")),
    );
    robotscope()
        .args(["fix", path])
        .assert()
        .code(0)
        .stdout("User-agent: GPTBot\nUser-agent: anthropic-ai\nUser-agent: ClaudeBot\nDisallow: /\n");
    // Offered, checked, and left to the author by `fix`: whether Googlebot was meant to
    // be freed from the `*` group's rules, and Applebot to leave Apple's search.
    let text = "User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nDisallow: /tmp/\n\n\
                User-agent: Applebot\nUser-agent: Applebot-Extended\nDisallow: /\n";
    let file = robots_file(text);
    let path = file.path().to_str().expect("path");
    robotscope().args(["lint", path]).assert().code(0).stdout(
        predicate::str::contains(
            "fix: Repeat the * group's Disallow lines in this group (changes verdicts: RFC 9309: Googlebot /private/ \
             allowed → disallowed",
        )
        .and(predicate::str::contains("fix: Leave Applebot out of this group (changes verdicts: RFC 9309: Applebot"))
        .and(predicate::str::contains("0 can be fixed with `robotscope fix` (2 more whose fix is yours to choose)")),
    );
    robotscope().args(["fix", path]).assert().code(0).stdout(text);
}
