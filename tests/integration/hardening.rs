//! Hostile and extreme inputs (issue 12), through the real binary: what reaches the
//! terminal is escaped in every output, a closed pipe ends every command quietly, local
//! input is read up to a cap, over-long path lines are refused by number, and inputs
//! built to be slow or large are answered (their cost is measured by
//! `benches/adversarial.sh`, outside the test harness).
// The binary and its layers: built with the default `tool` feature only.

use crate::support;

use std::io::Write;
use std::process::{Command as StdCommand, Stdio};

use assert_cmd::Command;
use predicates::prelude::*;
use support::{Reply, Server};
use tempfile::NamedTempFile;

fn robotscope() -> Command {
    Command::cargo_bin("robotscope").expect("binary")
}

fn file_with(bytes: &[u8]) -> NamedTempFile {
    let mut file = NamedTempFile::new().expect("temp file");
    file.write_all(bytes).expect("write");
    file
}

/// True when `bytes` hold a character that could drive a terminal (C0 but tab and line
/// feed, DEL, C1, bidi controls).
fn drives_a_terminal(bytes: &[u8]) -> bool {
    String::from_utf8_lossy(bytes).chars().any(|c| c != '\n' && robotscope::policy::is_unsafe(c))
}

/// A robots.txt whose values hold ESC, BEL, DEL, a C1 CSI and a bidi override.
const HOSTILE: &[u8] =
    b"User-agent: *\nDisallow: /a\x1b]52;c;aGk=\x07\nDisallow: /b\x7f\xc2\x9b2J\nDisallow: /c\xe2\x80\xaex # \x1bc\n";

#[test]
fn no_output_of_any_command_carries_a_control_character() {
    let file = file_with(HOSTILE);
    let path = file.path().to_str().expect("path");
    let runs: Vec<Vec<&str>> = vec![
        vec!["check", path, "-a", "bot", "/a\u{1b}x", "/b"],
        vec!["check", path, "-a", "bot", "--json", "/a", "/b\u{9b}"],
        vec!["lint", path],
        vec!["lint", path, "--json"],
        vec!["fix", path, "--diff"],
        vec!["compare", path, "-a", "bot"],
        vec!["compare", path, "-a", "bot", "--csv"],
        vec!["compare", path, "-a", "bot", "--json"],
    ];
    for args in runs {
        let output = robotscope().args(&args).output().expect("runs");
        assert!(!drives_a_terminal(&output.stdout), "{args:?}: {}", String::from_utf8_lossy(&output.stdout));
        assert!(!drives_a_terminal(&output.stderr), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    }
}

#[test]
fn json_stays_json_with_control_characters_escaped() {
    let file = file_with(HOSTILE);
    let output = robotscope()
        .args(["check", file.path().to_str().expect("path"), "--json", "-a", "bot", "/a\u{1b}x\u{7f}\u{9b}\u{202e}"])
        .output()
        .expect("runs");
    let text = String::from_utf8(output.stdout).expect("utf-8");
    assert!(
        text.contains("\\u001b") && text.contains("\\u007f") && text.contains("\\u009b") && text.contains("\\u202e")
    );
    for line in text.lines() {
        let _: serde_json::Value = serde_json::from_str(line).expect("valid JSON");
    }
}

#[test]
fn error_messages_escape_the_names_they_quote() {
    robotscope()
        .args(["check", "./no\u{1b}[2Jsuch.txt", "/a"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no^[[2Jsuch.txt").and(predicate::str::contains("\u{1b}").not()));
}

#[test]
fn page_output_escapes_what_the_page_says() {
    let server = Server::start(|path| match path {
        "/robots.txt" => Reply::text("User-agent: *\nAllow: /\n"),
        _ => Reply::Status {
            status: 200,
            headers: vec![
                ("Content-Type", "text/html".into()),
                // A header may carry bytes above 0x7F (obs-text): a C1 CSI, a bidi override.
                ("X-Robots-Tag", "noindex, \u{9b}2J\u{202e}x".into()),
            ],
            body: "<meta name=robots content=\"nofollow, max-snippet:\u{1b}[2J, \u{9b}31m\">".as_bytes().to_vec(),
        },
    });
    for format in [None, Some("--json")] {
        let output = robotscope().args(["page", &server.url("/p"), "-a", "bot"]).args(format).output().expect("runs");
        assert!(!drives_a_terminal(&output.stdout), "{}", String::from_utf8_lossy(&output.stdout));
        // The page's directive is read, and its hostile value shown escaped.
        let shown = String::from_utf8_lossy(&output.stdout);
        let escaped = if format.is_some() { "\\u001b[2J" } else { "^[[2J" };
        assert!(shown.contains("nofollow") && shown.contains(escaped), "{shown}");
    }
}

/// Every command and format into a pipe that closes at once: no "Broken pipe" error,
/// no panic, the exit status of the answer (as grep does).
#[test]
fn a_closed_pipe_ends_every_command_quietly() {
    let lines = (0..50_000).map(|i| format!("Disallow: /p{i}\n")).collect::<Vec<_>>().concat();
    let file = file_with(format!("User-agent: *\n{lines}Disallow: ~\n").as_bytes());
    let path = file.path().to_str().expect("path");
    let many: Vec<String> = (0..20_000).map(|i| format!("/p{i}")).collect();
    let many: Vec<&str> = many.iter().map(String::as_str).collect();
    let runs: Vec<Vec<&str>> = vec![
        [&["check", path, "-a", "bot"][..], &many].concat(),
        [&["check", path, "-a", "bot", "--json"][..], &many].concat(),
        vec!["lint", path],
        vec!["lint", path, "--json"],
        vec!["fix", path],
        vec!["fix", path, "--diff"],
        vec!["compare", path, "-a", "bot"],
        vec!["compare", path, "-a", "bot", "--csv"],
        vec!["compare", path, "-a", "bot", "--json"],
        vec!["robots"],
        vec!["--help"],
    ];
    for args in runs {
        let mut child = StdCommand::new(env!("CARGO_BIN_EXE_robotscope"))
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn");
        drop(child.stdout.take());
        let output = child.wait_with_output().expect("wait");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!stderr.contains("Broken pipe") && !stderr.contains("panicked"), "{:?}: {stderr}", &args[..2]);
        assert_ne!(output.status.code(), Some(101), "{:?}", &args[..2]);
        assert!(output.status.code() != Some(2) || args[0] == "--help", "{:?}: {stderr}", &args[..2]);
    }
}

/// Standard error closed (`2>&1 | head -1`) while notes are still to be said: the
/// notes are dropped, the process is not aborted. (`eprintln!` panics on a closed pipe,
/// and the panic's report then aborts.)
#[test]
fn a_closed_standard_error_is_not_an_abort() {
    let file = file_with(b"User-agent: *\nDisallow: /x\n");
    let path = file.path().to_str().expect("path");
    // 20,000 robots that are no product token: a note on standard error for each.
    let agents: Vec<String> = (0..20_000).map(|i| format!("-a=bot {i}")).collect();
    let mut child = StdCommand::new(env!("CARGO_BIN_EXE_robotscope"))
        .args(["check", path, "/x"])
        .args(&agents)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    drop(child.stderr.take());
    let status = child.wait().expect("wait");
    assert_eq!(status.code(), Some(1), "{status:?}: the answer's status, no abort (134) or panic (101)");
}

/// A pipe that closes after the first answer still leaves the exit status of what was
/// answered: a script with `pipefail` learns that something was disallowed.
#[test]
fn a_closed_pipe_keeps_the_exit_status_of_what_was_answered() {
    let file = file_with(b"User-agent: *\nDisallow: /\n");
    let mut child = StdCommand::new(env!("CARGO_BIN_EXE_robotscope"))
        .args(["check", file.path().to_str().expect("path"), "-a", "bot"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = child.stdout.take().expect("stdout");
    let writer = std::thread::spawn(move || {
        for i in 0..2_000_000 {
            if writeln!(stdin, "/p{i}").is_err() {
                break;
            }
        }
    });
    let mut first = [0; 10];
    std::io::Read::read_exact(&mut stdout, &mut first).expect("a first answer");
    drop(stdout);
    assert_eq!(child.wait().expect("wait").code(), Some(1));
    writer.join().expect("the writer ends");
}

/// Blocks already answered are written before an endless line is refused, in block
/// mode as line by line.
#[test]
fn answers_before_an_endless_line_are_all_written() {
    let file = file_with(b"User-agent: *\nDisallow: /x\n");
    let mut input: Vec<u8> = (0..20_000).flat_map(|i| format!("/p{i}\n").into_bytes()).collect();
    input.extend(std::iter::repeat_n(b'/', 600_000));
    for mode in [&[][..], &["--line-buffered"]] {
        let output = robotscope()
            .args(["check", file.path().to_str().expect("path"), "-a", "bot"])
            .args(mode)
            .write_stdin(input.clone())
            .output()
            .expect("run");
        assert_eq!(output.status.code(), Some(2), "{mode:?}");
        assert_eq!(String::from_utf8_lossy(&output.stdout).lines().count(), 20_000, "{mode:?}");
        assert!(String::from_utf8_lossy(&output.stderr).contains("line 20001 is longer"), "{mode:?}");
    }
}

/// A directory standing in for standard input is a read error, said as one.
#[test]
fn a_directory_as_standard_input_is_a_read_error() {
    let file = file_with(b"User-agent: *\n");
    let output = StdCommand::new(env!("CARGO_BIN_EXE_robotscope"))
        .args(["check", file.path().to_str().expect("path"), "-a", "bot"])
        .stdin(std::fs::File::open("/tmp").expect("a directory"))
        .output()
        .expect("run");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("standard input") && !stderr.contains("writing"), "{stderr}");
}

#[test]
fn local_input_is_read_up_to_a_cap() {
    // An endless file: only the cap is read, and the user is told.
    robotscope()
        .args(["check", "/dev/zero", "-a", "bot", "/a", "--max-file-bytes", "1000000"])
        .timeout(std::time::Duration::from_secs(20))
        .assert()
        .code(0)
        .stderr(predicate::str::contains("only the first 1000000 bytes of /dev/zero were read (--max-file-bytes)"));
    robotscope()
        .args(["lint", "/dev/urandom", "--max-file-bytes", "200000"])
        .timeout(std::time::Duration::from_secs(20))
        .assert()
        .stderr(predicate::str::contains("--max-file-bytes"));
}

#[test]
fn an_endless_path_line_is_refused_with_its_number() {
    let file = file_with(b"User-agent: *\nDisallow: /a\n");
    let path = file.path().to_str().expect("path");
    let mut stdin = b"/first\n/second\n".to_vec();
    stdin.extend(std::iter::repeat_n(b'x', 100_000));
    robotscope()
        .args(["check", path, "-a", "bot"])
        .write_stdin(stdin)
        .assert()
        .code(2)
        .stdout(predicate::str::contains("/second"))
        .stderr(predicate::str::contains("standard input: line 3 is longer than 65536 bytes"));
    // The cap is on the line's bytes: one of 30,001 bytes that are not UTF-8 (90,001
    // once percent-encoded) is a path like any other.
    let mut stdin = b"/".to_vec();
    stdin.extend(std::iter::repeat_n(0xFF, 30_000));
    stdin.extend(b"\n/a\n");
    robotscope().args(["check", path, "-a", "bot", "--disallowed"]).write_stdin(stdin).assert().code(1).stdout("/a\n");
    let paths = file_with(&[b"/ok\n".as_slice(), &vec![b'y'; 70_000]].concat());
    robotscope()
        .args(["compare", path, "-a", "bot", "--paths", paths.path().to_str().expect("path")])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("line 2 is longer than 65536 bytes"));
}

#[test]
fn a_file_of_long_wildcard_rules_under_the_fetch_cap_is_answered() {
    // 30 rules of `/*` and 16,000 bytes (480 KB): the prefilter once took minutes.
    let rules = (0..30)
        .map(|i| format!("Disallow: /*{}\n", char::from(b'a' + i).to_string().repeat(16_000)))
        .collect::<Vec<_>>()
        .concat();
    let file = file_with(format!("User-agent: *\n{rules}").as_bytes());
    let hit = format!("/x{}", "c".repeat(16_000));
    robotscope()
        .args(["check", file.path().to_str().expect("path"), "-a", "bot", "/a", &hit])
        .timeout(std::time::Duration::from_secs(20))
        .assert()
        .code(1)
        .stdout(predicate::str::contains("allowed    bot /a"))
        .stdout(predicate::str::contains("line 4: Disallow: /*ccc"));
}

#[test]
fn repeated_rules_cost_what_one_costs() {
    let file = file_with(format!("User-agent: *\n{}", "Disallow: /a # again\n".repeat(100_000)).as_bytes());
    let path = file.path().to_str().expect("path");
    robotscope().args(["check", path, "-a", "bot", "/a", "/b"]).assert().code(1);
    let output = robotscope().args(["fix", path]).timeout(std::time::Duration::from_secs(30)).output().expect("fix");
    let fixed = String::from_utf8(output.stdout).expect("utf-8");
    assert!(fixed.starts_with("User-agent: *\nDisallow: /a # again\n# again\n"), "each removed copy keeps its comment");
    assert_eq!(fixed.lines().count(), 100_001);
}

/// Issue 35: a FIFO nobody writes to never holds a command past its deadline: `check`
/// and `page --robots-txt` end at `--timeout`, `audit --robots` at `--max-time`, each
/// saying what it waited for (the process does not wait for the reading thread either).
#[cfg(unix)]
#[test]
fn a_fifo_without_a_writer_ends_every_command_at_its_deadline() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fifo = dir.path().join("fifo");
    assert!(StdCommand::new("mkfifo").arg(&fifo).status().expect("mkfifo runs").success());
    let fifo = fifo.to_str().expect("utf-8");
    let log = dir.path().join("access.log");
    std::fs::write(&log, "1.2.3.4 - - [10/Oct/2024:13:55:36 +0000] \"GET / HTTP/1.1\" 200 1 \"-\" \"GPTBot/1.0\"\n")
        .expect("log");
    let server = Server::start(|_| Reply::text("<html>page</html>"));
    let page = server.url("/page");
    let commands: [Vec<&str>; 4] = [
        vec!["check", fifo, "/", "--timeout", "1"],
        vec!["lint", fifo, "--timeout", "1"],
        vec!["page", &page, "--robots-txt", fifo, "--timeout", "1"],
        vec!["audit", log.to_str().expect("utf-8"), "--robots", fifo, "--max-time", "1s"],
    ];
    for args in commands {
        let output = robotscope().args(&args).timeout(std::time::Duration::from_secs(20)).output().expect("runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?} ended, as an error: {stderr}");
        assert!(stderr.contains("a FIFO that no program writes to?"), "{args:?}: {stderr}");
    }
}
