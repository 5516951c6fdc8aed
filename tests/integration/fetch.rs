//! Fetching a site's robots.txt from a real HTTP server on 127.0.0.1, one scenario per
//! fault, through the library (`fetch::fetch`) and through the binary (`check`).
// The binary and its layers: built with the default `tool` feature only.

use crate::support;

use std::time::Duration;

use assert_cmd::Command;
use predicates::prelude::*;
use robotscope::fetch::{self, FetchError, FetchWarning, Limits};
use robotscope::policy::Content;
use robotscope::policy::{Availability, Reading, Robot, RobotsTxt, evaluate_fetched};
use support::{Reply, Server, refused_port};
use url::Url;

const RULES: &str = "User-agent: *\nDisallow: /private/\n";

fn limits() -> Limits {
    Limits { timeout: Duration::from_secs(10), ..Limits::default() }
}

async fn get(url: &str, limits: &Limits) -> Result<fetch::Fetched, FetchError> {
    fetch::fetch(&Url::parse(url).expect("url"), limits).await
}

/// The verdict for `path` under `reading` after fetching `url`.
async fn verdict(url: &str, path: &str, reading: Reading) -> bool {
    let (txt, availability) = match get(url, &limits()).await {
        Ok(fetched) => (RobotsTxt::parse(fetched.body.clone()), fetched.availability()),
        Err(error) => (RobotsTxt::default(), error.availability()),
    };
    evaluate_fetched(&txt, availability, &Robot::from_agent("Googlebot"), path, reading).allowed()
}

fn robotscope() -> Command {
    Command::cargo_bin("robotscope").expect("binary")
}

#[tokio::test]
async fn status_200_uses_the_rules() {
    let server = Server::start(|_| Reply::text(RULES));
    let fetched = get(&server.url("/robots.txt"), &limits()).await.expect("fetched");
    assert_eq!((fetched.status.code(), fetched.body.as_slice()), (200, RULES.as_bytes()));
    assert_eq!(fetched.status.to_string(), "200 OK");
    assert!(fetched.warnings(&limits()).is_empty());
    assert!(!verdict(&server.url("/robots.txt"), "/private/a", Reading::Rfc9309).await);
    assert!(verdict(&server.url("/robots.txt"), "/public", Reading::Rfc9309).await);
}

#[tokio::test]
async fn status_404_allows_everything() {
    let server = Server::start(|_| Reply::status(404));
    for reading in Reading::ALL {
        assert!(verdict(&server.url("/robots.txt"), "/private/a", reading).await, "{reading}");
    }
}

#[tokio::test]
async fn status_403_allows_under_rfc9309_and_closes_the_site_for_1996_robots() {
    let server = Server::start(|_| Reply::status(403));
    let url = server.url("/robots.txt");
    assert!(verdict(&url, "/a", Reading::Rfc9309).await);
    assert!(!verdict(&url, "/a", Reading::Draft1996).await);
    assert!(!verdict(&url, "/a", Reading::Koster1994).await);
}

#[tokio::test]
async fn status_503_and_429_disallow_under_rfc9309() {
    let server = Server::start(|path| Reply::status(if path.starts_with("/busy") { 429 } else { 503 }));
    for reading in Reading::ALL {
        assert!(!verdict(&server.url("/robots.txt"), "/a", reading).await, "503 under {reading}");
    }
    assert!(!verdict(&server.url("/busy/robots.txt"), "/a", Reading::Rfc9309).await);
    assert!(verdict(&server.url("/busy/robots.txt"), "/a", Reading::Draft1996).await);
}

#[tokio::test]
async fn a_three_hop_chain_is_followed_and_recorded() {
    let server = Server::start(|path| match path {
        "/robots.txt" => Reply::Redirect { status: 301, location: "/one".into() },
        "/one" => Reply::Redirect { status: 302, location: "/two".into() },
        "/two" => Reply::Redirect { status: 307, location: "/final.txt".into() },
        _ => Reply::text(RULES),
    });
    let fetched = get(&server.url("/robots.txt"), &limits()).await.expect("fetched");
    let statuses: Vec<u16> = fetched.hops.iter().map(|hop| hop.status.code()).collect();
    assert_eq!(statuses, [301, 302, 307]);
    assert_eq!(fetched.final_url.path(), "/final.txt");
    assert_eq!(fetched.availability(), Availability::Available);
    assert!(!verdict(&server.url("/robots.txt"), "/private/x", Reading::Rfc9309).await);
}

#[tokio::test]
async fn a_redirect_loop_stops_and_is_named_a_loop() {
    let server = Server::start(|path| match path {
        "/robots.txt" => Reply::Redirect { status: 301, location: "/b".into() },
        _ => Reply::Redirect { status: 301, location: "/robots.txt".into() },
    });
    let fetched = get(&server.url("/robots.txt"), &limits()).await.expect("an outcome");
    assert!(fetched.redirect_loop);
    assert_eq!(fetched.availability(), Availability::RedirectLoop);
    assert!(fetched.redirect_summary().is_some_and(|s| s.contains("go round in a loop")));
    assert!(verdict(&server.url("/robots.txt"), "/a", Reading::Rfc9309).await, "RFC 9309 §2.3.1.2: unavailable");
    assert!(!verdict(&server.url("/robots.txt"), "/a", Reading::Draft1996).await);
}

#[tokio::test]
async fn more_than_five_redirects_give_up() {
    let server = Server::start(|path| {
        let n: u32 = path.trim_start_matches("/r").parse().unwrap_or(0);
        Reply::Redirect { status: 302, location: format!("/r{}", n + 1) }
    });
    let fetched = get(&server.url("/r0"), &limits()).await.expect("an outcome");
    assert_eq!(fetched.hops.len(), 6, "five redirects followed, the sixth refused");
    assert!(!fetched.redirect_loop);
    assert_eq!(fetched.availability(), Availability::TooManyRedirects);
}

#[tokio::test]
async fn a_cross_host_redirect_is_followed() {
    let server = Server::start(|path| match path {
        "/robots.txt" => Reply::Redirect { status: 301, location: String::new() },
        _ => Reply::text(RULES),
    });
    let other = server.other_host_url("/moved.txt");
    let server = Server::start(move |path| match path {
        "/robots.txt" => Reply::Redirect { status: 301, location: other.clone() },
        _ => Reply::text(RULES),
    });
    let fetched = get(&server.url("/robots.txt"), &limits()).await.expect("fetched");
    assert_eq!(fetched.final_url.host_str(), Some("localhost"));
    assert_eq!(fetched.body, RULES.as_bytes());
}

#[tokio::test]
async fn a_22_megabyte_body_is_read_only_to_the_cap() {
    let mut head = b"User-agent: *\nDisallow: /early\n".to_vec();
    head.extend(b"# filler\n".repeat(70_000));
    head.extend(b"Disallow: /late\n");
    let server = Server::start(move |_| Reply::Huge {
        content_type: "text/plain",
        head: head.clone(),
        filler: b"# more\n".repeat(1000),
        bytes: 22 * 1024 * 1024,
    });
    let url = server.url("/robots.txt");
    let fetched = get(&url, &limits()).await.expect("fetched");
    assert_eq!(fetched.body.len(), 500 * 1024);
    assert!(fetched.truncated);
    let warnings = fetched.warnings(&limits());
    assert!(warnings.contains(&FetchWarning::Truncated { max_bytes: 512_000, whole_file: false }), "{warnings:?}");
    assert!(warnings[0].to_string().contains("only the first 512000 bytes"));
    assert!(!verdict(&url, "/early", Reading::Rfc9309).await);
    assert!(verdict(&url, "/late", Reading::Rfc9309).await, "the rule past 500 KiB was never read");
    // The client hung up after 500 KiB: no response could push the whole body through
    // (what got out filled the loopback socket buffers: 4 to 6 MB here). Each response
    // that was asked for (one per fetch) has ended by the time its count is read.
    server.wait_for_responses(server.paths_asked().len()).await;
    assert!(server.body_bytes_sent() < 10 * 1024 * 1024, "{} bytes sent", server.body_bytes_sent());
}

#[tokio::test]
async fn a_body_at_one_byte_per_second_times_out() {
    let server = Server::start(|_| Reply::Slow { body: RULES.as_bytes().to_vec(), gap: Duration::from_secs(1) });
    let quick = Limits { timeout: Duration::from_secs(2), ..Limits::default() };
    // The guard only keeps a broken timeout from hanging the suite; the error says
    // which bound ended the fetch.
    let url = server.url("/robots.txt");
    let error = tokio::time::timeout(Duration::from_secs(60), get(&url, &quick))
        .await
        .expect("not hung")
        .expect_err("too slow");
    assert_eq!(error, FetchError::Timeout(Duration::from_secs(2)));
    assert_eq!(error.to_string(), "no complete answer within 2 s (--timeout)");
    assert_eq!(error.availability(), Availability::TimedOut, "reached, but no answer came in time");
    assert!(error.availability().reason(Reading::Rfc9309).contains("no complete answer came in time"));
}

#[tokio::test]
async fn an_html_soft_404_is_flagged() {
    let server = Server::start(|_| Reply::Status {
        status: 200,
        headers: vec![("Content-Type", "text/html; charset=utf-8".into())],
        body: b"<!DOCTYPE html>\n<html><head><title>Page not found</title></head></html>".to_vec(),
    });
    let fetched = get(&server.url("/robots.txt"), &limits()).await.expect("fetched");
    let warnings = fetched.warnings(&limits());
    assert_eq!(
        warnings,
        [FetchWarning::NotRobotsTxt(Content::Html), FetchWarning::ContentType("text/html".to_owned())]
    );
    assert!(warnings[0].to_string().contains("HTML page"));
    assert!(verdict(&server.url("/robots.txt"), "/anything", Reading::Rfc9309).await);
}

#[tokio::test]
async fn a_refused_port_is_unreachable() {
    let port = refused_port();
    let error = get(&format!("http://127.0.0.1:{port}/robots.txt"), &limits()).await.expect_err("refused");
    assert_eq!(error, FetchError::Refused { host: "127.0.0.1".into(), port });
    assert!(!verdict(&format!("http://127.0.0.1:{port}/robots.txt"), "/a", Reading::Rfc9309).await);
}

#[tokio::test]
async fn an_unknown_host_is_a_dns_failure() {
    // `.invalid` is reserved (RFC 2606) and never resolves.
    let error = get("http://no-such-host.invalid/robots.txt", &limits()).await.expect_err("no such host");
    assert_eq!(error, FetchError::Dns { host: "no-such-host.invalid".into() });
    assert!(error.to_string().contains("DNS lookup failed"));
}

// --- The same through the binary -------------------------------------------------------

#[test]
fn check_fetches_a_site_and_applies_its_rules() {
    let server = Server::start(|_| Reply::text(RULES));
    robotscope()
        .args(["check", &server.url("/any/page"), "-a", "Googlebot", "/private/a", "/public"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("disallowed Googlebot /private/a  line 2: Disallow: /private/"))
        .stdout(predicate::str::contains("allowed    Googlebot /public"));
}

/// A 5xx is an outage, not a rule: the answers say "disallowed" as RFC 9309 asks, and
/// the status is 3 (issue 35), so that CI tells an outage from a block. A 403 under the
/// 1996 draft is the site's answer: 1.
#[test]
fn check_reports_error_statuses_per_reading() {
    let server = Server::start(|_| Reply::status(503));
    robotscope()
        .args(["check", &server.url("/"), "-a", "Googlebot", "/a"])
        .assert()
        .code(3)
        .stdout(predicate::str::contains("disallowed Googlebot /a  the file was not read"))
        .stderr(predicate::str::contains("503 Service Unavailable").and(predicate::str::contains("2.3.1.4")));
    let server = Server::start(|_| Reply::status(403));
    robotscope().args(["check", &server.url("/"), "-a", "Googlebot", "/a"]).assert().code(0);
    robotscope().args(["check", &server.url("/"), "-a", "Googlebot", "-s", "draft1996", "/a"]).assert().code(1);
}

#[test]
fn check_on_an_unreachable_site_disallows_with_the_reason() {
    let port = refused_port();
    robotscope()
        .args(["check", &format!("http://127.0.0.1:{port}"), "-a", "Googlebot", "--json", "/a"])
        .assert()
        .code(3)
        .stdout(predicate::str::contains("\"allowed\":false"))
        .stderr(predicate::str::contains("refused the connection").and(predicate::str::contains("unreachable")));
}

#[test]
fn check_times_out_within_the_timeout() {
    let server = Server::start(|_| Reply::Slow { body: RULES.as_bytes().to_vec(), gap: Duration::from_secs(1) });
    robotscope()
        .args(["check", &server.url("/"), "--timeout", "2", "-a", "Googlebot", "/a"])
        .timeout(Duration::from_secs(60))
        .assert()
        .code(3)
        .stderr(predicate::str::contains("no complete answer within 2 s"));
}

#[test]
fn check_warns_about_redirects_size_and_html() {
    let server = Server::start(|path| match path {
        "/robots.txt" => Reply::Redirect { status: 301, location: "/real".into() },
        _ => Reply::Status {
            status: 200,
            headers: vec![("Content-Type", "text/html".into())],
            body: b"<html>soft 404</html>".to_vec(),
        },
    });
    robotscope()
        .args(["check", &server.url("/"), "-a", "x", "/a"])
        .assert()
        .code(0)
        .stderr(predicate::str::contains("redirected 1 time to").and(predicate::str::contains("HTML page")));
    let mut head = b"User-agent: *\nDisallow: /early\n".to_vec();
    head.extend(b"#\n".repeat(1000));
    head.extend(b"Disallow: /late\n");
    let server = Server::start(move |_| Reply::Huge {
        content_type: "text/plain",
        head: head.clone(),
        filler: b"#\n".repeat(100),
        bytes: 22 * 1024 * 1024,
    });
    robotscope()
        .args(["check", &server.url("/"), "--max-bytes", "1000", "-a", "x", "/early", "/late"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("allowed    x /late"))
        .stderr(predicate::str::contains("only the first 1000 bytes"));
}

#[test]
fn the_request_carries_the_chosen_user_agent() {
    let server = Server::start(|_| Reply::text(RULES));
    robotscope().args(["check", &server.url("/"), "-a", "x", "/a"]).assert().code(0);
    robotscope().args(["check", &server.url("/"), "--user-agent", "TestBot/1.0", "-a", "x", "/a"]).assert().code(0);
    robotscope().args(["check", &server.url("/"), "--as-robot", "-r", "GPTBot", "/a"]).assert().code(0);
    let agents = server.user_agents();
    assert_eq!(agents[0], format!("robotscope/{}", env!("CARGO_PKG_VERSION")));
    assert_eq!(agents[1], "TestBot/1.0");
    assert!(agents[2].contains("GPTBot/1.1"), "{agents:?}");
}

#[tokio::test]
async fn https_to_a_plain_http_port_says_to_try_http() {
    // A plain-HTTP server answers a TLS hello as any web server answers garbage: 400.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    let port = listener.local_addr().expect("address").port();
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            use std::io::{Read, Write};
            let mut hello = [0u8; 512];
            let _ = stream.read(&mut hello);
            let _ = stream.write_all(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        }
    });
    let error = get(&format!("https://127.0.0.1:{port}/robots.txt"), &limits()).await.expect_err("no TLS there");
    let message = error.to_string();
    assert!(message.contains(&format!("try http://127.0.0.1:{port}/")), "{message}");
    assert!(!message.contains("corrupt"), "{message}");
    assert_eq!(error.availability(), Availability::Unreachable);
}

/// Each way a chain of redirects can end without the file is named as it is (issue 12).
#[tokio::test]
async fn redirects_that_reach_no_file_are_named_each_as_it_is() {
    let server = Server::start(|path| match path {
        "/self" => Reply::Redirect { status: 302, location: "/self".into() },
        "/nowhere" => Reply::Status { status: 302, headers: Vec::new(), body: Vec::new() },
        "/not-modified" => Reply::Status { status: 304, headers: Vec::new(), body: Vec::new() },
        "/robots.txt" => Reply::Redirect { status: 301, location: "/hop1".into() },
        other => match other.trim_start_matches("/hop").parse::<u32>() {
            Ok(n) => Reply::Redirect { status: 301, location: format!("/hop{}", n + 1) },
            Err(_) => Reply::status(404),
        },
    });
    let fetched = get(&server.url("/self"), &limits()).await.expect("an outcome");
    assert_eq!(fetched.availability(), Availability::RedirectLoop);
    assert!(
        fetched.redirect_summary().is_some_and(|s| s.ends_with("redirects to itself")),
        "{:?}",
        fetched.redirect_summary()
    );
    let fetched = get(&server.url("/nowhere"), &limits()).await.expect("an outcome");
    assert_eq!(fetched.availability(), Availability::RedirectWithoutTarget(302));
    assert!(fetched.meaning().contains("without saying where to"), "{}", fetched.meaning());
    assert!(!fetched.meaning().contains("five"), "{}", fetched.meaning());
    let fetched = get(&server.url("/not-modified"), &limits()).await.expect("an outcome");
    assert!(fetched.meaning().contains("304 Not Modified"), "{}", fetched.meaning());
    let fetched = get(&server.url("/hop1"), &limits()).await.expect("an outcome");
    assert_eq!(fetched.availability(), Availability::TooManyRedirects);
    let summary = fetched.redirect_summary().expect("a summary");
    assert!(summary.starts_with("followed 5 redirects from"), "{summary}");
    robotscope()
        .args(["check", &server.url("/hop1"), "-a", "x", "/a"])
        .assert()
        .stderr(predicate::str::contains("followed 5 redirects").and(predicate::str::contains("time(s)").not()));
}

#[test]
fn bad_limits_and_user_agents_are_usage_errors() {
    for args in [
        &["--max-bytes", "0"][..],
        &["--timeout", "0"],
        &["--max-file-bytes", "0"],
        &["--user-agent", "bot\r\nX-Evil: 1"],
        &["--user-agent", "bot\u{1b}[2J"],
        &["--user-agent", "bot\n"],
    ] {
        robotscope()
            .args(["check", "http://127.0.0.1:9/", "-a", "x", "/a"])
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("error: invalid value").and(predicate::str::contains("\u{1b}").not()));
    }
}

/// The body of a 404 or 503 is an error page, not the site's rules: `lint` and `fix`
/// refuse it (exit 2, issue 24) rather than report "0 errors" on a site that is down or
/// print the page where a script expects the file.
#[test]
fn lint_and_fix_do_not_take_an_error_page_for_the_file() {
    for status in [404, 503] {
        let server = Server::start(move |_| Reply::Status {
            status,
            headers: vec![("content-type", "text/html".to_owned())],
            body: b"<!DOCTYPE html><html><body><h1>Sorry</h1></body></html>".to_vec(),
        });
        let site = server.url("/");
        robotscope()
            .args(["lint", &site])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains("no robots.txt to lint"));
        robotscope()
            .args(["fix", &site])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains("no robots.txt to fix"));
    }
    // A site that cannot be reached at all.
    let closed = format!("http://127.0.0.1:{}/", support::refused_port());
    robotscope().args(["lint", &closed]).assert().code(2).stderr(predicate::str::contains("cannot fetch"));
}

/// Issue 24, one file, one answer: a robots.txt past 500 KiB whose `Disallow: /` comes
/// after the cut answers alike from a site, a file and standard input, as Google reads
/// it (RFC 9309 §2.5: the first 500 KiB); from disk the note says what the whole file
/// would say, and `--whole-file` reads it all. The classic readings set no limit.
#[test]
fn a_file_past_500_kib_answers_alike_from_a_site_a_file_and_standard_input() {
    let text = format!("User-agent: *\n{}Disallow: /\n", "Allow: /filler/page.html\n".repeat(25_000));
    assert!(text.len() > 600_000);
    let served = text.clone();
    let server = Server::start(move |_| Reply::text(&served));
    let mut file = tempfile::NamedTempFile::new().expect("temp file");
    std::io::Write::write_all(&mut file, text.as_bytes()).expect("write");
    let path = file.path().to_str().expect("path").to_owned();
    let site = server.url("/");
    let check = |source: &str, extra: &[&str]| {
        let mut command = robotscope();
        command.args(["check", source, "-a", "Googlebot", "--no-store"]).args(extra).arg("/private");
        if source == "-" {
            command.write_stdin(text.clone());
        }
        command.output().expect("runs")
    };
    for source in [site.as_str(), path.as_str(), "-"] {
        let output = check(source, &[]);
        assert_eq!(
            String::from_utf8_lossy(&output.stdout),
            "allowed    Googlebot /private  no rule matches (group at line 1)\n",
            "{source}"
        );
        assert_eq!(output.status.code(), Some(0), "{source}");
    }
    // Read from disk or standard input, the rest of the file is there: a note says it
    // would answer otherwise.
    for source in [path.as_str(), "-"] {
        let stderr = String::from_utf8_lossy(&check(source, &[]).stderr).into_owned();
        assert!(stderr.contains("only the first 512000 bytes count under RFC 9309"), "{stderr}");
        assert!(stderr.contains("the whole file says disallowed (line 25002)"), "{stderr}");
        let whole = check(source, &["--whole-file"]);
        assert_eq!(String::from_utf8_lossy(&whole.stdout), "disallowed Googlebot /private  line 25002: Disallow: /\n");
        assert_eq!(whole.status.code(), Some(1));
    }
    // The 1996 draft reads every byte, wherever the file comes from.
    let draft = check(&path, &["-s", "draft1996"]);
    assert!(String::from_utf8_lossy(&draft.stdout).starts_with("disallowed"));
    assert!(!String::from_utf8_lossy(&draft.stderr).contains("512000"), "no note where nothing was cut");
    // From the site, only --max-bytes were downloaded: the draft's answer is said to be
    // unsure, and --whole-file downloads the rest, giving the file's answer.
    let draft = check(&site, &["-s", "draft1996"]);
    let stderr = String::from_utf8_lossy(&draft.stderr);
    assert!(stderr.contains("only the first 512000 bytes were downloaded (--max-bytes)"), "{stderr}");
    assert!(stderr.contains("the 1996 draft and the 1994 standard read every byte, so theirs may not"), "{stderr}");
    for reading in ["draft1996", "koster1994", "rfc9309"] {
        let whole = check(&site, &["-s", reading, "--whole-file"]);
        let stdout = String::from_utf8_lossy(&whole.stdout);
        assert_eq!(stdout, "disallowed Googlebot /private  line 25002: Disallow: /\n", "{reading}");
        assert!(!String::from_utf8_lossy(&whole.stderr).contains("downloaded"), "{reading}");
    }
}

/// `fix` never prints a part of a file where a script expects the whole: a site's
/// robots.txt longer than what was downloaded is refused (exit 2), and `lint` says the
/// rest was not linted (an error). `--whole-file` downloads it all.
#[test]
fn lint_and_fix_speak_only_for_a_file_read_whole() {
    let text = format!(
        "User-agent: *\n{}Disallow: /\n",
        "Allow: /filler/page-1.html\nAllow: /filler/page-2.html\n".repeat(12_000)
    );
    assert!(text.len() > 600_000);
    let served = text.clone();
    let server = Server::start(move |_| Reply::text(&served));
    let site = server.url("/");
    for flags in [&["fix"][..], &["fix", "--check"], &["fix", "--diff"]] {
        let output = robotscope().args(flags).args([site.as_str(), "--no-store"]).output().expect("runs");
        assert_eq!(output.status.code(), Some(2), "{flags:?}");
        assert!(output.stdout.is_empty(), "{flags:?}: nothing where the file is expected");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("only a part of the robots.txt was read"), "{stderr}");
    }
    let lint = robotscope().args(["lint", site.as_str(), "--no-store"]).output().expect("runs");
    assert_eq!(lint.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&lint.stdout);
    assert!(stdout.contains("error content-past-500kib: The file goes on past line"), "{stdout}");
    assert!(stdout.contains("the rest was not linted: only the first 512000 bytes were downloaded"), "{stdout}");
    // Read whole, the file is fixed whole, and lint weighs the cut: the Disallow past
    // 500 KiB is one Google never reads, which changes verdicts (an error, named).
    let fixed = robotscope().args(["fix", site.as_str(), "--no-store", "--whole-file"]).output().expect("runs");
    assert_eq!(fixed.status.code(), Some(0));
    let expected = "User-agent: *\nAllow: /filler/page-1.html\nAllow: /filler/page-2.html\nDisallow: /\n";
    assert!(fixed.stdout == expected.as_bytes(), "the duplicates go, the end stays: {:?}", fixed.stdout.len());
    let lint = robotscope().args(["lint", site.as_str(), "--no-store", "--whole-file"]).output().expect("runs");
    let stdout = String::from_utf8_lossy(&lint.stdout);
    let cut = stdout.lines().find(|line| line.contains("content-past-500kib")).expect("the cut is named");
    assert!(cut.contains(": error content-past-500kib:"), "{cut}");
    assert!(cut.contains("reading only that much changes verdicts: RFC 9309: a robot no group names /"), "{cut}");
    assert!(cut.contains("disallowed → allowed"), "{cut}");
    assert_eq!(lint.status.code(), Some(1));
}
