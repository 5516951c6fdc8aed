//! `robotscope survey` on generated WARC files (plain, gzipped per record and whole, a
//! broken gzip member, a record cut off), a directory of files (a FIFO among them), and
//! sites served on 127.0.0.1 (statuses, a redirect, a refused port, the store's fresh
//! answers); `--dpi` and the weighted summary on known cases; and the property that each
//! category agrees with Google's matcher on every path of a small alphabet.

use crate::support;

use std::collections::BTreeMap;
use std::io::Write;
use std::time::Duration;

use assert_cmd::Command;
use proptest::prelude::*;
use robotscope::policy::{Availability, Reading, Robot, RobotsTxt};
use robotscope::survey::{Capture, Category, SurveyRobot, judge};
use serde_json::Value;
use support::cli::json_lines;
use support::{Reply, Server};

/// A WARC `response` record for `url` holding the HTTP answer `head` + `body`.
fn response(url: &str, head: &str, body: &[u8]) -> Vec<u8> {
    response_at(url, head, body, "2026-03-04T05:06:07Z")
}

/// [`response`], captured at `date`.
fn response_at(url: &str, head: &str, body: &[u8], date: &str) -> Vec<u8> {
    let mut block = format!("HTTP/1.1 {head}\r\n\r\n").into_bytes();
    block.extend_from_slice(body);
    let mut record = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {url}\r\nWARC-Date: {date}\r\n\
         Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
        block.len()
    )
    .into_bytes();
    record.extend_from_slice(&block);
    record.extend_from_slice(b"\r\n\r\n");
    record
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(bytes).expect("gzip in memory");
    encoder.finish().expect("gzip in memory")
}

/// The records of a crawl: a site's https file and its http redirect to it, a 404, a
/// 503, a web page served as robots.txt, and a redirect to a capture not held.
fn crawl() -> Vec<Vec<u8>> {
    vec![
        response("http://a.example/robots.txt", "301 Moved\r\nLocation: https://a.example/robots.txt", b""),
        response("https://b.example/robots.txt", "404 Not Found", b"<html>not here</html>"),
        response("https://c.example/robots.txt", "503 Unavailable", b""),
        response(
            "https://d.example/robots.txt",
            "200 OK\r\nContent-Type: text/html",
            b"<!DOCTYPE html><html>home</html>",
        ),
        response("https://e.example/robots.txt", "302 Found\r\nLocation: https://elsewhere.example/robots.txt", b""),
        response(
            "https://a.example/robots.txt",
            "200 OK\r\nContent-Type: text/plain",
            b"User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private\nContent-Usage: train-ai=n\n",
        ),
    ]
}

/// Runs `survey` with `args`: standard output, standard error, exit status.
fn survey(args: &[&str]) -> (String, String, i32) {
    let output = Command::cargo_bin("robotscope")
        .expect("binary")
        .arg("survey")
        .args(args)
        .env("XDG_DATA_HOME", std::env::temp_dir().join("robotscope-survey-tests-unused"))
        .timeout(Duration::from_secs(60))
        .output()
        .expect("runs");
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
        output.status.code().unwrap_or(-1),
    )
}

/// `(url, agent) -> category` of JSON rows.
fn categories(rows: &[Value]) -> BTreeMap<(String, String), String> {
    rows.iter()
        .map(|row| {
            let text = |key: &str| row[key].as_str().unwrap_or_default().to_owned();
            ((text("url"), text("agent")), text("category"))
        })
        .collect()
}

fn expected_crawl() -> BTreeMap<(String, String), String> {
    [
        ("http://a.example/robots.txt", "GPTBot", "full"),
        ("http://a.example/robots.txt", "Googlebot", "partial"),
        ("https://a.example/robots.txt", "GPTBot", "full"),
        ("https://a.example/robots.txt", "Googlebot", "partial"),
        ("https://b.example/robots.txt", "GPTBot", "missing"),
        ("https://b.example/robots.txt", "Googlebot", "missing"),
        ("https://c.example/robots.txt", "GPTBot", "unreachable"),
        ("https://c.example/robots.txt", "Googlebot", "unreachable"),
        ("https://d.example/robots.txt", "GPTBot", "none"),
        ("https://d.example/robots.txt", "Googlebot", "none"),
        ("https://e.example/robots.txt", "GPTBot", "redirect"),
        ("https://e.example/robots.txt", "Googlebot", "redirect"),
    ]
    .into_iter()
    .map(|(url, agent, category)| ((url.to_owned(), agent.to_owned()), category.to_owned()))
    .collect()
}

#[test]
fn warc_files_plain_or_gzipped_give_one_row_per_capture_and_robot() {
    let dir = tempfile::tempdir().expect("temp dir");
    let plain = crawl().concat();
    let files = [
        ("plain.warc", plain.clone()),
        ("records.warc.gz", crawl().iter().map(|record| gzip(record)).collect::<Vec<_>>().concat()),
        ("whole.warc.gz", gzip(&plain)),
    ];
    for (name, bytes) in files {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).expect("write");
        let (stdout, stderr, code) =
            survey(&["--warc", path.to_str().expect("utf-8"), "-a", "GPTBot", "-a", "Googlebot", "--json"]);
        assert_eq!(code, 0, "{name}: {stderr}");
        let rows = json_lines(&stdout);
        assert_eq!(categories(&rows), expected_crawl(), "{name}");
        // The redirect's rows are its target's: status, group, line, preferences.
        let redirected: Vec<&Value> = rows
            .iter()
            .filter(|row| row["url"] == "http://a.example/robots.txt" && row["agent"] == "Googlebot")
            .collect();
        assert_eq!(redirected.len(), 1);
        let row = redirected[0];
        assert_eq!(
            (row["status"].as_u64(), row["group"].as_str(), row["line"].as_u64()),
            (Some(200), Some("star"), Some(4))
        );
        assert_eq!((row["train_ai"].as_str(), row["site"].as_str()), (Some("disallowed"), Some("a.example")));
        assert_eq!(row["time"], "2026-03-04T05:06:07Z");
        let html = rows.iter().find(|row| row["url"] == "https://d.example/robots.txt").expect("d's row");
        assert_eq!(html["html"], true);
        // The summary counts each site once: a.example's http and https captures are one.
        let (summary, _, _) = survey(&["--warc", path.to_str().expect("utf-8"), "-a", "GPTBot"]);
        assert!(summary.starts_with("5 sites judged for 1 robot (6 rows)"), "{summary}");
        let nowhere = rows.iter().find(|row| row["url"] == "https://e.example/robots.txt").expect("e's row");
        assert_eq!(
            nowhere["error"],
            "redirects to https://elsewhere.example/robots.txt, which the input does not hold"
        );
    }
}

#[test]
fn broken_and_cut_records_are_rows_with_errors_and_the_run_goes_on() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut members: Vec<Vec<u8>> = crawl().iter().map(|record| gzip(record)).collect();
    let broken = &mut members[2];
    let middle = broken.len() / 2;
    broken[middle..].fill(0x55);
    let cut = gzip(&response("https://f.example/robots.txt", "200 OK", b"User-agent: *\nDisallow: /x\n"));
    members.push(cut[..cut.len() - 10].to_vec());
    // Bytes between members that are none: counted, not a row of no site.
    members.insert(1, b"JUNK JUNK JUNK\n".to_vec());
    let path = dir.path().join("damaged.warc.gz");
    std::fs::write(&path, members.concat()).expect("write");
    let (stdout, stderr, code) = survey(&["--warc", path.to_str().expect("utf-8"), "-a", "GPTBot", "--json"]);
    assert_eq!(code, 0, "{stderr}");
    let rows = json_lines(&stdout);
    let judged = categories(&rows);
    for url in ["https://a.example/robots.txt", "https://b.example/robots.txt", "https://d.example/robots.txt"] {
        assert!(judged.contains_key(&(url.to_owned(), "GPTBot".to_owned())), "{url} still read: {judged:?}");
    }
    assert!(!judged.contains_key(&("https://c.example/robots.txt".to_owned(), "GPTBot".to_owned())), "the broken one");
    assert!(
        rows.iter().any(|row| row["error"].as_str().is_some_and(|e| e.contains("gzip member is broken"))),
        "{stdout}"
    );
    assert!(rows.iter().all(|row| row["url"] != ""), "{stdout}");
    assert!(stderr.contains("damaged.warc.gz: 1 damaged part naming no capture skipped (the first: "), "{stderr}");
}

#[test]
fn a_directory_of_files_names_each_site_by_its_file_and_skips_fifos_and_other_names() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("a.example"), "User-agent: *\nDisallow: /\n").expect("write");
    std::fs::write(dir.path().join("b.example.txt"), "User-agent: CCBot\nDisallow: /\n").expect("write");
    let fifo = dir.path().join("fifo.example");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs").success());
    // Files no host names: an editor's, a note.
    std::fs::write(dir.path().join(".a.example.swp"), "User-agent: *\n").expect("write");
    std::fs::write(dir.path().join("notes"), "todo\n").expect("write");
    let (stdout, stderr, code) = survey(&["--dir", dir.path().to_str().expect("utf-8"), "-a", "CCBot", "--csv"]);
    assert_eq!(code, 0, "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "url,site,agent,category,group,line,status,bytes,time,train_ai,html,error");
    let fields: Vec<Vec<&str>> = lines[1..].iter().map(|line| line.split(',').collect()).collect();
    let summary: Vec<(&str, &str, &str)> = fields.iter().map(|f| (f[1], f[3], f[4])).collect();
    assert_eq!(summary, [("a.example", "full", "star"), ("b.example", "full", "named")]);
    assert!(
        stderr.contains("3 entries skipped, no regular file or not named by a host (the first: .a.example.swp)"),
        "{stderr}"
    );
    // A directory with no robots.txt in it: nothing surveyed, no table of 0% shares.
    let empty = tempfile::tempdir().expect("temp dir");
    let (stdout, stderr, code) = survey(&["--dir", empty.path().to_str().expect("utf-8"), "-a", "CCBot"]);
    assert_eq!((stdout.as_str(), code), ("", 2), "{stderr}");
    assert!(stderr.contains("nothing surveyed: the input held no robots.txt capture"), "{stderr}");
}

#[test]
fn sites_are_fetched_and_the_stores_fresh_answers_are_not_fetched_again() {
    let allowed = Server::start(|path| match path {
        "/robots.txt" => Reply::text("User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n"),
        _ => Reply::status(404),
    });
    let missing = Server::start(|_| Reply::status(404));
    let failing = Server::start(|_| Reply::status(503));
    let target = allowed.url("/robots.txt");
    let moved = Server::start(move |_| Reply::Redirect { status: 301, location: target.clone() });
    let refused = format!("http://127.0.0.1:{}", support::refused_port());
    let store = tempfile::tempdir().expect("temp dir");
    let store_path = store.path().join("history.sqlite3");
    let sites = [allowed.url(""), missing.url(""), failing.url(""), moved.url(""), refused.clone()];
    let mut args: Vec<&str> = sites.iter().map(String::as_str).collect();
    args.extend(["-a", "GPTBot", "-a", "Googlebot", "--json", "--jobs", "3", "--timeout", "5"]);
    args.extend(["--store", store_path.to_str().expect("utf-8")]);
    let (stdout, stderr, code) = survey(&args);
    assert_eq!(code, 0, "{stderr}");
    let rows = json_lines(&stdout);
    let of = |site: &str, agent: &str| {
        let url = format!("{site}/robots.txt");
        rows.iter()
            .find(|row| row["url"] == url.as_str() && row["agent"] == agent)
            .and_then(|row| row["category"].as_str())
            .map(str::to_owned)
    };
    assert_eq!(of(&allowed.url(""), "GPTBot").as_deref(), Some("full"));
    assert_eq!(of(&allowed.url(""), "Googlebot").as_deref(), Some("none"));
    assert_eq!(of(&missing.url(""), "GPTBot").as_deref(), Some("missing"));
    assert_eq!(of(&failing.url(""), "GPTBot").as_deref(), Some("unreachable"));
    assert_eq!(of(&moved.url(""), "GPTBot").as_deref(), Some("full"), "the fetch follows the redirect");
    assert_eq!(of(&refused, "GPTBot").as_deref(), Some("unreachable"));
    assert_eq!(rows.len(), 10);
    // Again, within --fresh: the store answers, nobody is asked, but for the outage.
    let (asked, outage_asked) = (allowed.paths_asked().len(), failing.paths_asked().len());
    let (again, stderr, code) = survey(&args);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(allowed.paths_asked().len(), asked, "not fetched again");
    assert!(failing.paths_asked().len() > outage_asked, "an outage is asked again");
    assert_eq!(of_rows(&json_lines(&again)), of_rows(&rows));
    // A bare host is fetched over https, which this server does not speak: the store's
    // http answer is no answer to it.
    let bare = allowed.url("").trim_start_matches("http://").to_owned();
    let store_arg = store_path.to_str().expect("utf-8");
    let (https, stderr, _) = survey(&[&bare, "-a", "GPTBot", "--json", "--timeout", "5", "--store", store_arg]);
    let https = json_lines(&https);
    assert_eq!((https.len(), https[0]["category"].as_str()), (1, Some("unreachable")), "{https:?} {stderr}");
    // --fresh 0 fetches every site.
    args.extend(["--fresh", "0"]);
    survey(&args);
    assert!(allowed.paths_asked().len() > asked, "fetched again");
}

/// Rows without their times, which the store's answers keep from their first fetch.
fn of_rows(rows: &[Value]) -> Vec<(String, String, String)> {
    let mut found: Vec<(String, String, String)> = rows
        .iter()
        .map(|row| (row["url"].to_string(), row["agent"].to_string(), row["category"].to_string()))
        .collect();
    found.sort();
    found
}

#[test]
fn dpi_rows_give_each_company_its_strictest_agent() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("crawl.warc");
    std::fs::write(
        &path,
        [
            response(
                "https://news.example/robots.txt",
                "200 OK",
                b"User-agent: GPTBot\nDisallow: /\n\nUser-agent: ChatGPT-User\nDisallow: /private\n",
            ),
            response("https://blog.example/robots.txt", "404 Not Found", b""),
        ]
        .concat(),
    )
    .expect("write");
    let (stdout, stderr, code) =
        survey(&["--warc", path.to_str().expect("utf-8"), "-a", "GPTBot", "-a", "ChatGPT-User", "--dpi"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stdout,
        "domain,agent,period,status\n\
         blog.example,GPTBot,2026-03,No Robots.txt\n\
         blog.example,ChatGPT-User,2026-03,No Robots.txt\n\
         blog.example,OpenAI,2026-03,No Robots.txt\n\
         news.example,GPTBot,2026-03,Full Restrictions\n\
         news.example,ChatGPT-User,2026-03,Some Restrictions\n\
         news.example,OpenAI,2026-03,Full Restrictions\n"
    );
    assert!(!stderr.contains("warning"), "OpenAI's agents all asked: {stderr}");
    // Anthropic asked in part: its status is said to be of the agents asked alone.
    let (_, stderr, code) = survey(&["--warc", path.to_str().expect("utf-8"), "-a", "ClaudeBot", "--dpi"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains(
            "--dpi: Anthropic's status is the strictest of ClaudeBot alone (anthropic-ai, Claude-Web not asked: \
             add -a anthropic-ai -a Claude-Web)"
        ),
        "{stderr}"
    );
}

#[test]
fn the_summary_gives_each_robots_shares_weighted_as_asked() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("big.example"), "User-agent: GPTBot\nDisallow: /\n").expect("write");
    std::fs::write(dir.path().join("small.example"), "User-agent: *\nAllow: /\n").expect("write");
    let weights = dir.path().join("weights.csv");
    // Sites written as people write them: the rows' sites all the same.
    std::fs::write(
        &weights,
        "site,weight\nhttps://Big.example/,3\nsmall.example/robots.txt,1\nother.example;5\nbig.example.,3\n",
    )
    .expect("write");
    let robots_dir = dir.path().to_str().expect("utf-8").to_owned();
    // The weights file sits in the directory too: it is a site with no rules.
    let (plain, stderr, code) = survey(&["--dir", &robots_dir, "-a", "GPTBot"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(plain.starts_with("3 sites judged for 1 robot (3 rows)"), "{plain}");
    let shares = |text: &str| -> Vec<String> {
        let line = text.lines().find(|line| line.starts_with("GPTBot")).unwrap_or_default();
        line.split_whitespace().skip(1).map(str::to_owned).collect()
    };
    let header: Vec<&str> = plain.lines().nth(2).unwrap_or_default().split_whitespace().collect();
    assert_eq!(header, ["robot", "full", "partial", "none", "missing", "unreachable", "redirect"], "{plain}");
    assert_eq!(shares(&plain), ["33.3%", "0.0%", "66.7%", "0.0%", "0.0%", "0.0%"], "{plain}");
    let (weighted, stderr, _) =
        survey(&["--dir", &robots_dir, "-a", "GPTBot", "--weights", weights.to_str().expect("utf-8")]);
    assert_eq!(shares(&weighted), ["75.0%", "0.0%", "25.0%", "0.0%", "0.0%", "0.0%"], "{weighted}");
    assert!(stderr.contains("1 site not in --weights counted with weight 0"), "{stderr}");
    assert!(stderr.contains("1 line with no `site,weight` skipped, the first line 4"), "{stderr}");
    assert!(stderr.contains("1 site given twice: the last weight counts"), "{stderr}");
    // A weight that is no weight stops the run rather than change the shares unseen.
    std::fs::write(&weights, "big.example,3\nsmall.example,-1\n").expect("write");
    let (out, stderr, code) =
        survey(&["--dir", &robots_dir, "-a", "GPTBot", "--weights", weights.to_str().expect("utf-8")]);
    assert_eq!((out.as_str(), code), ("", 2), "{stderr}");
    assert!(stderr.contains("line 2 (small.example,-1): a weight is a number from 0 to 1e15"), "{stderr}");
}

/// A rule of a small alphabet, so that every path that could matter is tried.
fn rule() -> impl Strategy<Value = String> {
    (prop::bool::ANY, "/[ab*/]{0,3}\\$?")
        .prop_map(|(allow, path)| format!("{}: {path}", if allow { "Allow" } else { "Disallow" }))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Each category agrees with Google's matcher on every path of up to four
    /// characters over the rules' alphabet: `full` allows none, `none` disallows none,
    /// and a file that allows some and disallows others is `partial`.
    #[test]
    fn categories_agree_with_the_matcher_on_every_path(rules in prop::collection::vec(rule(), 0..5)) {
        let body = format!("User-agent: *\n{}\n", rules.join("\n"));
        let capture = Capture {
            url: "https://x.example/robots.txt".into(),
            status: Some(200),
            availability: Availability::Available,
            body: body.clone().into_bytes(),
            ..Capture::default()
        };
        let robots = [SurveyRobot { label: "GPTBot".into(), robot: Robot::from_agent("GPTBot"), reading: Reading::Rfc9309 }];
        let category = judge(&capture, &robots)[0].category;
        let txt = RobotsTxt::parse(body.into_bytes());
        let matcher = robotscope::policy::Matcher::new(&txt, "GPTBot", Reading::Rfc9309);
        let mut paths = vec!["/".to_owned()];
        for length in 1..=4 {
            let mut next = Vec::new();
            for path in paths.iter().filter(|path| path.len() == length) {
                for c in ['a', 'b', '/', '$', '*'] {
                    next.push(format!("{path}{c}"));
                }
            }
            paths.extend(next);
        }
        let allowed = paths.iter().filter(|path| matcher.allowed(path)).count();
        match category {
            Category::Full => prop_assert_eq!(allowed, 0),
            Category::None => prop_assert_eq!(allowed, paths.len()),
            Category::Partial => {}
            other => prop_assert!(false, "{other:?}"),
        }
        if allowed > 0 && allowed < paths.len() {
            prop_assert_eq!(category, Category::Partial);
        }
    }
}

/// Sites on a standard input that never ends are read within `--max-time` (issue 38:
/// `(echo site; sleep 30) |` ran for the whole 30 s), and a general crawl's pages are
/// no robots.txt.
#[test]
fn standard_input_and_pages_that_are_no_robots_txt_are_bounded() {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("robotscope"))
        .args(["survey", "-", "--no-store", "--max-time", "2", "-a", "GPTBot"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    let stdin = child.stdin.take().expect("stdin");
    // Kept open, never written: the survey must end at its deadline regardless.
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = child.try_wait().expect("waits") {
            break Some(status);
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    drop(stdin);
    // Exit 1: the rest of the input is left for a rerun.
    assert_eq!(status.and_then(|status| status.code()), Some(1), "ended within --max-time");

    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("crawl.warc");
    let mut file = response("https://x.example/", "200 OK", b"<html>home</html>");
    file.extend(response("https://x.example/robots.txt", "200 OK", b"User-agent: *\nDisallow: /\n"));
    // A robots.txt that redirects to a page the input holds: robots read the page (an
    // HTML page holds no rule: everything is allowed), not `redirect`.
    file.extend(response("https://y.example/robots.txt", "301 Moved\r\nLocation: /welcome", b""));
    file.extend(response("https://y.example/welcome", "200 OK\r\nContent-Type: text/html", b"<html>hi</html>"));
    std::fs::write(&path, file).expect("write");
    let (stdout, stderr, code) = survey(&["--warc", path.to_str().expect("utf-8"), "-a", "GPTBot", "--json"]);
    assert_eq!(code, 0, "{stderr}");
    let rows = json_lines(&stdout);
    let judged: Vec<(&str, &str, bool)> = rows
        .iter()
        .map(|row| {
            (row["url"].as_str().unwrap_or_default(), row["category"].as_str().unwrap_or_default(), row["html"] == true)
        })
        .collect();
    assert_eq!(
        judged,
        [("https://x.example/robots.txt", "full", false), ("https://y.example/robots.txt", "none", true)]
    );
    assert!(
        stderr.contains("2 captures of pages that are no /robots.txt: no rows (kept as redirects' targets)"),
        "{stderr}"
    );
}

/// The archive stand-in of `--monthly`: one capture a month as the CDX listing gives
/// them, for a.example (a capture before the months asked, which is carried in, and
/// one before that, which is not read), c.example (first captured in the third month)
/// and b.example (never captured).
fn monthly_archive() -> Server {
    const OPEN: &str = "User-agent: *\nDisallow: /private\n";
    const CLOSED: &str = "User-agent: GPTBot\nDisallow: /\n";
    let captures = |site: &str| -> Vec<(&'static str, &'static str, &'static str)> {
        match site {
            "a.example" => vec![
                ("20191215000000", "200", CLOSED),
                ("20200105000000", "200", OPEN),
                ("20200310000000", "200", CLOSED),
                ("20200520000000", "503", ""),
                ("20200620000000", "301", ""),
            ],
            "c.example" => vec![("20200415000000", "200", CLOSED)],
            _ => Vec::new(),
        }
    };
    Server::start(move |path| {
        if let Some(query) = path.strip_prefix("/cdx/search/cdx?") {
            assert!(query.contains("collapse=timestamp%3A6"), "{query}");
            assert!(
                query.contains("filter=%21statuscode%3A404")
                    && query.contains("filter=%21statuscode%3A3..")
                    && query.contains("filter=%21mimetype%3Awarc%2Frevisit")
            );
            assert!(!query.contains("from="), "the capture before the first month is carried in: {query}");
            let site = query.split('&').find_map(|pair| pair.strip_prefix("url=")).unwrap_or_default();
            let site = site.trim_end_matches("%2Frobots.txt");
            let mut rows = vec![serde_json::json!(["timestamp", "original", "statuscode", "digest"])];
            // As the archive applies the filters: no 404, no redirect.
            for (timestamp, status, body) in
                captures(site).into_iter().filter(|(_, status, _)| !status.starts_with('3'))
            {
                let digest = robotscope::history::digest(body.as_bytes());
                rows.push(serde_json::json!([timestamp, format!("http://{site}/robots.txt"), status, digest]));
            }
            return Reply::text(&serde_json::to_string(&rows).expect("json"));
        }
        for site in ["a.example", "c.example"] {
            for (timestamp, _, body) in captures(site) {
                if path == format!("/web/{timestamp}id_/http://{site}/robots.txt") {
                    return Reply::text(body);
                }
            }
        }
        Reply::status(404)
    })
}

#[test]
fn a_monthly_survey_carries_each_capture_forward_and_a_rerun_reads_only_listings() {
    let archive = monthly_archive();
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("history.sqlite3");
    let base = archive.url("");
    let plot = dir.path().join("series.svg");
    let args = |format: &str| -> Vec<String> {
        ["a.example", "b.example", "c.example", "--monthly", "2020-02..2020-07", "-a", "GPTBot", "--archive", &base]
            .into_iter()
            .chain(["--rate", "1000", "--timeout", "5", "--store", store.to_str().expect("utf-8"), format])
            .map(str::to_owned)
            .collect()
    };
    let strings = args("--json");
    let (stdout, stderr, code) = survey(&strings.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 0, "{stderr}");
    let rows = json_lines(&stdout);
    let series: Vec<(&str, &str, &str, &str)> = rows
        .iter()
        .map(|row| {
            let text = |field: &str| row[field].as_str().unwrap_or_default();
            (text("site"), text("month"), text("category"), text("time"))
        })
        .collect();
    assert_eq!(
        series,
        [
            ("a.example", "2020-02", "partial", "2020-01-05T00:00:00Z"),
            ("a.example", "2020-03", "full", "2020-03-10T00:00:00Z"),
            ("a.example", "2020-04", "full", "2020-03-10T00:00:00Z"),
            ("a.example", "2020-05", "unreachable", "2020-05-20T00:00:00Z"),
            ("a.example", "2020-06", "unreachable", "2020-05-20T00:00:00Z"),
            ("a.example", "2020-07", "unreachable", "2020-05-20T00:00:00Z"),
            ("c.example", "2020-04", "full", "2020-04-15T00:00:00Z"),
            ("c.example", "2020-05", "full", "2020-04-15T00:00:00Z"),
            ("c.example", "2020-06", "full", "2020-04-15T00:00:00Z"),
            ("c.example", "2020-07", "full", "2020-04-15T00:00:00Z"),
        ]
    );
    assert!(stderr.contains("the archive holds no capture of 1 site in the months asked"), "{stderr}");
    assert!(stderr.contains("2 site-months before the site's first capture"), "{stderr}");
    let captures_read = |paths: &[String]| paths.iter().filter(|path| path.starts_with("/web/")).count();
    let asked = archive.paths_asked();
    // The 503 and the 301 are kept from their status alone.
    assert_eq!(captures_read(&asked), 3, "the capture before the one carried in is not read: {asked:?}");
    assert!(!asked.iter().any(|path| path.contains("20191215")), "{asked:?}");

    // Again, as CSV with its month column, and drawn: the captures come from the store.
    let mut again = args("--csv");
    again.extend(["--plot".to_owned(), plot.display().to_string()]);
    let (csv, stderr, code) = survey(&again.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(captures_read(&archive.paths_asked()), 3, "no capture is read twice");
    let lines: Vec<&str> = csv.lines().collect();
    assert!(lines[0].ends_with(",error,month"), "{}", lines[0]);
    assert_eq!(lines.len(), 11);
    assert!(lines[2].starts_with("http://a.example/robots.txt,a.example,GPTBot,full,named,1,200,"), "{}", lines[2]);
    assert!(lines[2].ends_with(",2020-03"), "{}", lines[2]);
    let svg = std::fs::read_to_string(&plot).expect("the plot is written");
    assert!(svg.starts_with("<svg") && svg.contains("GPTBot") && svg.contains("unreachable"), "{svg}");
    // Six months, each a point of each category's band.
    assert!(svg.matches("2020-0").count() >= 2, "the months label the axis");
}

/// Two crawls of a site: its http capture of 2024 redirects, and takes the https
/// capture of its own time, not the last one of the input.
#[test]
fn a_redirect_takes_its_targets_capture_nearest_in_time() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("crawls.warc");
    let https = "https://t.example/robots.txt";
    std::fs::write(
        &path,
        [
            response_at(https, "200 OK", b"User-agent: *\nAllow: /\n", "2024-01-05T00:00:00Z"),
            response_at(
                "http://t.example/robots.txt",
                &format!("301 Moved\r\nLocation: {https}"),
                b"",
                "2024-01-06T00:00:00Z",
            ),
            response_at(https, "200 OK", b"User-agent: GPTBot\nDisallow: /\n", "2025-06-05T00:00:00Z"),
            response_at(
                "http://t.example/robots.txt",
                &format!("301 Moved\r\nLocation: {https}"),
                b"",
                "2025-07-01T00:00:00Z",
            ),
            response_at(
                "http://early.example/robots.txt",
                "301 Moved\r\nLocation: https://early.example/robots.txt",
                b"",
                "2023-01-01T00:00:00Z",
            ),
            response_at(
                "https://early.example/robots.txt",
                "200 OK",
                b"User-agent: GPTBot\nDisallow: /\n",
                "2023-02-01T00:00:00Z",
            ),
        ]
        .concat(),
    )
    .expect("write");
    let (stdout, stderr, code) = survey(&["--warc", path.to_str().expect("utf-8"), "-a", "GPTBot", "--json"]);
    assert_eq!(code, 0, "{stderr}");
    let rows = json_lines(&stdout);
    let redirected: Vec<(&str, &str, &str)> = rows
        .iter()
        .filter(|row| row["url"].as_str().is_some_and(|url| url.starts_with("http:")))
        .map(|row| {
            (
                row["url"].as_str().unwrap_or_default(),
                row["time"].as_str().unwrap_or_default(),
                row["category"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        redirected,
        [
            ("http://t.example/robots.txt", "2024-01-06T00:00:00Z", "none"),
            ("http://t.example/robots.txt", "2025-07-01T00:00:00Z", "full"),
            // None before it: the first after.
            ("http://early.example/robots.txt", "2023-01-01T00:00:00Z", "full"),
        ]
    );
}
