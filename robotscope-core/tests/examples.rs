//! The crate's examples (`examples/`), run as a user runs them: built on the core alone,
//! fed real input, their output checked.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// Builds an example (a no-op when `cargo test` already has) and runs it.
fn run_example(name: &str, args: &[&str], stdin: &[u8]) -> Output {
    let profile = cargo_profile();
    let mut build = Command::new(env!("CARGO"));
    build.args(["build", "--quiet", "--profile", &profile, "-p", "robotscope-core", "--example", name]);
    assert!(build.status().expect("cargo runs").success(), "building {name}");
    // tests run from target/PROFILE/deps/; examples live in target/PROFILE/examples/.
    let test = std::env::current_exe().expect("the test's path");
    let example: PathBuf =
        test.parent().and_then(|deps| deps.parent()).expect("target dir").join("examples").join(name);
    let mut child = Command::new(&example)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|error| panic!("{}: {error}", example.display()));
    child.stdin.take().expect("stdin").write_all(stdin).expect("write stdin");
    child.wait_with_output().expect("the example ends")
}

/// The profile this test binary was built in, read off its own path
/// (`target/PROFILE/deps/TEST`; the dev profile's directory is `debug`), so that the
/// example is built in the same one.
fn cargo_profile() -> String {
    let test = std::env::current_exe().expect("the test's path");
    let directory = test.parent().and_then(|deps| deps.parent()).and_then(|dir| dir.file_name());
    match directory.and_then(|name| name.to_str()).expect("target/PROFILE/deps/TEST") {
        "debug" => "dev".to_owned(),
        profile => profile.to_owned(),
    }
}

#[test]
fn the_batch_filter_prints_the_lines_asked_for() {
    let mut robots = tempfile::NamedTempFile::new().expect("temp file");
    robots.write_all(b"User-agent: *\nDisallow: /private/\nAllow: /private/press/\n").expect("write");
    let path = robots.path().to_str().expect("utf-8 path");
    let input = b"/\n/private/x\n\nhttps://example.com/private/press/a\n  /caf\xc3\xa9\n/private/y\n";
    let allowed = run_example("batch_filter", &[path, "ExampleBot"], input);
    assert!(allowed.status.success());
    assert_eq!(String::from_utf8_lossy(&allowed.stdout), "/\nhttps://example.com/private/press/a\n/café\n");
    let disallowed = run_example("batch_filter", &[path, "ExampleBot", "--disallowed"], input);
    assert_eq!(String::from_utf8_lossy(&disallowed.stdout), "/private/x\n/private/y\n");
    // A line with a control byte never reaches the output raw; standard error counts it.
    let hostile = run_example("batch_filter", &[path, "ExampleBot"], b"/a\x1b]52;c;aGk=\x07\n/\x1b[31m\n/ok\n");
    assert!(hostile.status.success());
    assert_eq!(String::from_utf8_lossy(&hostile.stdout), "/ok\n");
    assert_eq!(String::from_utf8_lossy(&hostile.stderr), "batch_filter: 2 lines with control characters left out\n");
    for wrong in [&[][..], &[path, "ExampleBot", "--disalowed"]] {
        assert_eq!(run_example("batch_filter", wrong, b"").status.code(), Some(2), "{wrong:?}");
    }
}

#[test]
fn the_polite_crawler_keeps_out_waits_and_follows_the_sitemap() {
    let output = run_example("polite_crawler", &["--no-wait"], b"");
    assert!(output.status.success());
    let log = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = log.lines().collect();
    // Crawl-delay 0.2 s and Request-rate 1/1s: the longer one wins.
    assert_eq!(lines[0], "robots.txt read: requests 1000 ms apart");
    assert_eq!(lines[1], "fetch https://example.com/sitemap.txt -> 200", "the sitemap is the first seed");
    assert!(lines.contains(&"skip  https://example.com/private/drafts (robots.txt line 5)"), "{log}");
    assert!(lines.contains(&"fetch https://example.com/private/press/kit -> 200"), "the Allow wins: {log}");
    assert!(
        lines.contains(&"leave https://example.com.evil/ (another site: its own robots.txt decides)"),
        "a look-alike host is another site: {log}"
    );
    let fetches = lines.iter().filter(|line| line.starts_with("fetch")).count();
    let waits = lines.iter().filter(|line| line.starts_with("wait")).count();
    assert_eq!((fetches, waits), (4, 3), "a wait between each two requests: {log}");
}
