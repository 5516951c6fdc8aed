//! `robotscope audit` on generated access logs: one robots.txt for all time, and a
//! site's history served by a stand-in for the web archive on 127.0.0.1 (a change within
//! the grace period, a time zone, a request before any version, a 404 version); gzipped,
//! JSON and standard-input logs, browsers, unreadable lines; and the property that an
//! audit against `--robots F` says what `check F` says about the same paths.

use crate::support;

use std::io::Write;
use std::sync::{Arc, OnceLock};

use assert_cmd::Command;
use proptest::prelude::*;
use robotscope::history;
use serde_json::Value;
use support::cli::{json_lines, of_type, run};
use support::{Reply, Server};

const ROBOTS: &str = "User-agent: *\nDisallow: /private/\nCrawl-delay: 10\n\nUser-agent: GPTBot\nDisallow: /\n";
const GOOGLEBOT: &str = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const GPTBOT: &str =
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot";
const FIREFOX: &str = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";

/// A Combined Log line.
fn combined(ip: &str, time: &str, path: &str, agent: &str) -> String {
    format!("{ip} - - [{time}] \"GET {path} HTTP/1.1\" 200 512 \"-\" \"{agent}\"\n")
}

fn write(dir: &tempfile::TempDir, name: &str, bytes: &[u8]) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).expect("write");
    path.display().to_string()
}

#[test]
fn a_log_against_one_robots_txt() {
    let dir = tempfile::tempdir().expect("dir");
    let robots = write(&dir, "robots.txt", ROBOTS.as_bytes());
    let log = [
        combined("66.249.66.1", "10/Oct/2025:13:55:30 +0000", "/robots.txt", GOOGLEBOT),
        combined("66.249.66.1", "10/Oct/2025:13:55:36 +0000", "/private/a", GOOGLEBOT),
        combined("66.249.66.1", "10/Oct/2025:13:56:36 +0000", "/public", GOOGLEBOT),
        combined("20.171.206.1", "10/Oct/2025:13:57:00 +0000", "/blog", GPTBOT),
        combined("1.2.3.4", "10/Oct/2025:13:58:00 +0000", "/private/b", FIREFOX),
        "a line that is no request\n".to_owned(),
    ]
    .concat();
    let log = write(&dir, "access.log", log.as_bytes());

    let (text, warnings, status) = run(&["audit", &log, "--robots", &robots], b"");
    assert_eq!(status, 1, "violations: exit 1\n{text}{warnings}");
    assert!(text.starts_with("6 log lines read (1 unreadable), 4 robot requests judged"), "{text}");
    assert!(text.contains("Googlebot: 1 request by line 2 `Disallow: /private/`"), "{text}");
    assert!(text.contains("GPTBot: 1 request by line 6 `Disallow: /`"), "{text}");
    assert!(!text.contains("Firefox"), "browsers are not judged: {text}");
    assert!(warnings.contains("access.log:6: not in the Combined Log format"), "{warnings}");

    let (json, _, status) = run(&["audit", &log, "--robots", &robots, "--json"], b"");
    assert_eq!(status, 1);
    let records = json_lines(&json);
    let requests = of_type(&records, "request");
    assert_eq!(requests.len(), 2, "violations only, without --all");
    assert_eq!(requests[0]["log_line"], 2);
    assert_eq!(requests[0]["verdict"], "violation");
    assert_eq!(requests[0]["rule"], "Disallow: /private/");
    let robots_records = of_type(&records, "robot");
    let google = robots_records.iter().find(|r| r["agent"] == "Googlebot").expect("Googlebot");
    assert_eq!((google["requests"].as_u64(), google["robots_txt_fetches"].as_u64()), (Some(3), Some(1)));
    assert_eq!(google["crawl_delay_breaches"], 1, "6 s after the robots.txt, under Crawl-delay: 10");
    let gpt = robots_records.iter().find(|r| r["agent"] == "GPTBot").expect("GPTBot");
    assert_eq!(gpt["crawled_before_robots_txt"], true);
    let summary = of_type(&records, "summary");
    assert_eq!(summary[0]["lines"], 6);
    assert_eq!(summary[0]["unreadable"], 1);
    assert_eq!(summary[0]["violations"], 2);

    let (csv, _, _) = run(&["audit", &log, "--robots", &robots, "--csv", "--all"], b"");
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows[0], "log_line,time,ip,user_agent,agent,path,verdict,line,rule,version,identity");
    assert!(rows[1].ends_with(",verified"), "66.249.66.1 is in Google's published ranges: {csv}");
    assert_eq!(rows.len(), 5, "every robot request with --all: {csv}");
    assert!(rows[1].starts_with("1,2025-10-10T13:55:30Z,66.249.66.1,"), "{csv}");
    assert!(rows[1].contains(",/robots.txt,allowed,"), "the robots.txt itself is allowed: {csv}");

    // -r limits the robots; a log without violations exits 0; nothing readable exits 2.
    let (text, _, status) = run(&["audit", &log, "--robots", &robots, "-r", "Googlebot", "--grace", "0"], b"");
    assert!(!text.contains("GPTBot"), "{text}");
    assert_eq!(status, 1);
    let clean =
        write(&dir, "clean.log", combined("66.249.66.1", "10/Oct/2025:13:55:30 +0000", "/", GOOGLEBOT).as_bytes());
    assert_eq!(run(&["audit", &clean, "--robots", &robots], b"").2, 0);
    // --robots is read to --max-file-bytes, like any local file (/dev/zero ran out of
    // memory).
    let (_, warnings, _) = run(&["audit", &clean, "--robots", "/dev/zero", "--max-file-bytes", "1000"], b"");
    assert!(warnings.contains("read to its first"), "{warnings}");
    let junk = write(&dir, "junk.log", b"<html>not a log</html>\n");
    let (_, error, status) = run(&["audit", &junk, "--robots", &robots], b"");
    assert_eq!(status, 2, "{error}");
    assert!(error.contains("not an access log"), "{error}");
}

/// The violations name their robot, whatever order the robots came in and however the
/// table sorts them (it sorted the robots the violations pointed at, once).
#[test]
fn violations_name_their_robot() {
    let dir = tempfile::tempdir().expect("dir");
    let robots = write(&dir, "robots.txt", ROBOTS.as_bytes());
    let log = [
        combined("20.171.206.1", "10/Oct/2025:13:55:00 +0000", "/blog", GPTBOT),
        combined("66.249.66.1", "10/Oct/2025:13:55:36 +0000", "/private/a", GOOGLEBOT),
        combined("66.249.66.1", "10/Oct/2025:13:56:36 +0000", "/private/b", GOOGLEBOT),
    ]
    .concat();
    let log = write(&dir, "access.log", log.as_bytes());
    let (text, _, _) = run(&["audit", &log, "--robots", &robots], b"");
    assert!(text.contains("Googlebot: 2 requests by line 2 `Disallow: /private/`"), "{text}");
    assert!(text.contains("GPTBot: 1 request by line 6 `Disallow: /`"), "{text}");
    let table: Vec<&str> = text.lines().filter(|line| line.starts_with('G')).collect();
    assert!(table[0].starts_with("Googlebot") && table[1].starts_with("GPTBot"), "most requests first: {text}");
}

/// Issue 35: a robot the registry does not know is judged by its whole product name
/// (`Screaming Frog SEO Spider`), never as the registry's `Spider`: a group for `Spider`
/// does not apply to it, a group naming it does, and `-p ai-training` (Spider's
/// purpose) leaves it out.
#[test]
fn an_unknown_robot_is_judged_by_its_whole_name() {
    let dir = tempfile::tempdir().expect("dir");
    let agents =
        ["Screaming Frog SEO Spider/19.0", "Sogou web spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)"];
    let log: String =
        agents.iter().map(|agent| combined("192.0.2.7", "10/Oct/2025:13:55:00 +0000", "/x", agent)).collect();
    let log = write(&dir, "access.log", log.as_bytes());
    let spider = write(&dir, "spider.txt", b"User-agent: Spider\nDisallow: /\n");
    let by_name =
        write(&dir, "named.txt", b"User-agent: Screaming Frog SEO Spider\nUser-agent: Sogou web spider\nDisallow: /\n");
    let verdicts = |robots: &str| -> Vec<(String, String)> {
        let (out, _, _) = run(&["audit", &log, "--robots", robots, "--all", "--json", "--no-store"], b"");
        support::cli::json_lines(&out)
            .into_iter()
            .filter(|record| record["type"] == "request")
            .map(|record| {
                (record["agent"].as_str().unwrap_or("").to_owned(), record["verdict"].as_str().unwrap_or("").to_owned())
            })
            .collect()
    };
    let named = |verdict: &str| {
        vec![
            ("Screaming Frog SEO Spider".to_owned(), verdict.to_owned()),
            ("Sogou web spider".to_owned(), verdict.to_owned()),
        ]
    };
    assert_eq!(verdicts(&spider), named("allowed"));
    assert_eq!(verdicts(&by_name), named("violation"));
    let (text, _, code) = run(&["audit", &log, "--robots", &spider, "-p", "ai-training", "--no-store"], b"");
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("0 robot requests judged"), "{text}");
}

/// `-a` takes a robot by its name or by the token RFC 9309 reads in it (issue 35: `-a
/// AI`, which the tool suggests for `AI2Bot`, judged none of its requests).
#[test]
fn a_robot_is_asked_for_by_its_name_or_its_token() {
    let dir = tempfile::tempdir().expect("dir");
    let agent = "Mozilla/5.0 (compatible; AI2Bot/1.0; +https://allenai.org/crawler)";
    let log = write(&dir, "access.log", combined("192.0.2.7", "10/Oct/2025:13:55:00 +0000", "/x", agent).as_bytes());
    let robots = write(&dir, "robots.txt", b"User-agent: AI2Bot\nDisallow: /\n");
    let (out, err, code) = run(&["audit", &log, "--robots", &robots, "-a", "AI", "--json", "--no-store"], b"");
    assert_eq!(code, 1, "{out}{err}");
    let requests: Vec<Value> = json_lines(&out).into_iter().filter(|record| record["type"] == "request").collect();
    assert_eq!(requests.len(), 1, "{out}");
    assert_eq!(requests[0]["verdict"], "violation");
    // And by a name its profile gives it: YandexBot is the robot whose token is Yandex.
    // `-a` judges it as Google's library would judge the token asked for (YandexBot
    // reads no Yandex group); `-r` as its profile says.
    let yandex = "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)";
    let log = write(&dir, "yandex.log", combined("192.0.2.7", "10/Oct/2025:13:55:00 +0000", "/x", yandex).as_bytes());
    let robots = write(&dir, "yandex.txt", b"User-agent: Yandex\nDisallow: /\n");
    let judged = |flag: &str| {
        let (out, _, code) = run(&["audit", &log, "--robots", &robots, flag, "YandexBot", "--json", "--no-store"], b"");
        let robot = json_lines(&out).into_iter().find(|record| record["type"] == "robot");
        (robot.map(|robot| (robot["requests"].as_u64(), robot["violations"].as_u64())), code)
    };
    assert_eq!(judged("-a"), (Some((Some(1), Some(0))), 0));
    assert_eq!(judged("-r"), (Some((Some(1), Some(1))), 1));
}

/// One of a profile's robots is judged under its own token first, then the profile's
/// (issue 35: a `User-agent: YandexBot` group was ignored, because every Yandex robot was
/// judged as `Yandex`, and `-a YandexBot` judged `YandexImages` by it).
#[test]
fn a_profiles_robots_read_their_own_groups_first() {
    let dir = tempfile::tempdir().expect("dir");
    let log: String = ["YandexBot/3.0", "YandexImages/3.0", "YandexNews/4.0"]
        .iter()
        .map(|product| {
            let agent = format!("Mozilla/5.0 (compatible; {product}; +http://yandex.com/bots)");
            combined("192.0.2.7", "10/Oct/2025:13:55:00 +0000", "/private/x", &agent)
        })
        .collect();
    let log = write(&dir, "yandex.log", log.as_bytes());
    let verdicts = |robots: &[u8], args: &[&str]| -> Vec<(String, String)> {
        let robots = write(&dir, "robots.txt", robots);
        let mut all = vec!["audit", log.as_str(), "--robots", robots.as_str(), "--all", "--json", "--no-store"];
        all.extend_from_slice(args);
        let (out, _, _) = run(&all, b"");
        json_lines(&out)
            .into_iter()
            .filter(|record| record["type"] == "request")
            .map(|record| {
                (record["agent"].as_str().unwrap_or("").to_owned(), record["verdict"].as_str().unwrap_or("").to_owned())
            })
            .collect()
    };
    let pairs =
        |list: &[(&str, &str)]| list.iter().map(|(a, v)| ((*a).to_owned(), (*v).to_owned())).collect::<Vec<_>>();
    let main_bot_only = b"User-agent: YandexBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n";
    assert_eq!(
        verdicts(main_bot_only, &[]),
        pairs(&[("YandexBot", "violation"), ("YandexImages", "allowed"), ("YandexNews", "allowed")])
    );
    assert_eq!(verdicts(main_bot_only, &["-a", "YandexBot"]), pairs(&[("YandexBot", "violation")]));
    // A name of several words is its profile's robot: `Yahoo! Slurp` reads Slurp's
    // groups, not a group for `Yahoo`; `-a` takes it by that name.
    let slurp = "Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)";
    let claude = "Mozilla/5.0 (compatible; Claude Code; +https://www.anthropic.com)";
    let others: String =
        [slurp, claude].iter().map(|agent| combined("192.0.2.7", "10/Oct/2025:13:55:00 +0000", "/x", agent)).collect();
    let others = write(&dir, "others.log", others.as_bytes());
    let robots =
        write(&dir, "yahoo.txt", b"User-agent: Yahoo\nUser-agent: Claude\nDisallow: /\n\nUser-agent: *\nAllow: /\n");
    let (out, _, code) = run(&["audit", &others, "--robots", &robots, "--json", "--no-store"], b"");
    assert_eq!(code, 0, "{out}");
    let (out, _, _) =
        run(&["audit", &others, "--robots", &robots, "--json", "--all", "--no-store", "-a", "Claude Code"], b"");
    let judged: Vec<Value> = json_lines(&out).into_iter().filter(|record| record["type"] == "request").collect();
    assert_eq!(judged.len(), 1, "{out}");
    let every_yandex_robot = b"User-agent: Yandex\nDisallow: /private\n";
    assert_eq!(
        verdicts(every_yandex_robot, &[]),
        pairs(&[("YandexBot", "violation"), ("YandexImages", "violation"), ("YandexNews", "violation")])
    );
}

/// A log of more lines than one batch: parsed on several threads, judged in order, and
/// numbered as the file numbers them.
#[test]
fn a_long_log_keeps_its_order() {
    let dir = tempfile::tempdir().expect("dir");
    let robots = write(&dir, "robots.txt", ROBOTS.as_bytes());
    let mut log = String::new();
    for n in 0..20_000 {
        let path = if n % 997 == 0 { format!("/private/{n}") } else { format!("/page/{n}") };
        log.push_str(&combined("66.249.66.1", "10/Oct/2025:13:55:36 +0000", &path, GOOGLEBOT));
        if n == 15_000 {
            log.push('\n');
        }
    }
    let log = write(&dir, "access.log", log.as_bytes());
    let (json, _, _) = run(&["audit", &log, "--robots", &robots, "--json"], b"");
    let records = json_lines(&json);
    let lines: Vec<u64> = of_type(&records, "request").iter().filter_map(|r| r["log_line"].as_u64()).collect();
    let expected: Vec<u64> =
        (0..20_000u64).filter(|n| n % 997 == 0).map(|n| if n > 15_000 { n + 2 } else { n + 1 }).collect();
    assert_eq!(lines, expected, "violations in file order, numbered past the blank line");
    let paths: Vec<&str> = of_type(&records, "request").iter().filter_map(|r| r["path"].as_str()).collect();
    assert!(
        paths
            .iter()
            .zip(&expected)
            .all(|(path, line)| path.ends_with(&format!("/{}", if *line > 15_001 { line - 2 } else { line - 1 })))
    );
}

/// A log that names a new bot on every line: the robots judged are capped, the rest
/// counted (memory stays flat).
#[test]
fn a_new_bot_on_every_line_is_bounded() {
    let dir = tempfile::tempdir().expect("dir");
    let robots = write(&dir, "robots.txt", ROBOTS.as_bytes());
    let mut log: String = (0..10_005)
        .map(|n| combined("1.2.3.4", "10/Oct/2025:13:55:36 +0000", "/private/x", &format!("x{n}bot/1.0")))
        .collect::<Vec<_>>()
        .concat();
    // A known robot after a thousand made-up ones is judged all the same: filling the
    // cap cannot hide it. The left-out requests are counted each, not each bot once.
    for _ in 0..3 {
        log.push_str(&combined("20.171.206.1", "10/Oct/2025:13:57:00 +0000", "/blog", GPTBOT));
        log.push_str(&combined("1.2.3.4", "10/Oct/2025:13:57:00 +0000", "/private/x", "x10004bot/1.0"));
    }
    let log = write(&dir, "access.log", log.as_bytes());
    let (json, warnings, status) = run(&["audit", &log, "--robots", &robots, "--json"], b"");
    assert_eq!(status, 1, "GPTBot's violations: {warnings}");
    let records = json_lines(&json);
    let robots_seen = of_type(&records, "robot");
    assert_eq!(robots_seen.len(), 1_001);
    assert!(robots_seen.iter().any(|robot| robot["agent"] == "GPTBot" && robot["violations"] == 3));
    assert!(warnings.contains("more than 1000 robots: 9008 requests of those past them left out"), "{warnings}");
}

/// `--max-time` holds while the log sends nothing (a pipe kept open, `tail -f`): what
/// was read by then is reported.
#[test]
fn the_deadline_holds_while_a_log_waits() {
    let dir = tempfile::tempdir().expect("dir");
    let robots = write(&dir, "robots.txt", ROBOTS.as_bytes());
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("robotscope"))
        .args(["audit", "-", "--robots", &robots, "--json", "--max-time", "1"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(combined("20.171.206.1", "10/Oct/2025:13:57:00 +0000", "/blog", GPTBOT).as_bytes()).expect("write");
    let started = std::time::Instant::now();
    let output = child.wait_with_output().expect("ends");
    drop(stdin);
    assert!(started.elapsed() < std::time::Duration::from_secs(10), "ended at the deadline, not when the pipe closed");
    let json = String::from_utf8_lossy(&output.stdout);
    assert_eq!(of_type(&json_lines(&json), "summary")[0]["violations"], 1, "what was read is reported");
    assert!(String::from_utf8_lossy(&output.stderr).contains("stopped reading standard input at --max-time"));
}

#[test]
fn gzipped_json_and_standard_input_logs() {
    let dir = tempfile::tempdir().expect("dir");
    let robots = write(&dir, "robots.txt", ROBOTS.as_bytes());
    let line = combined("20.171.206.1", "10/Oct/2025:13:57:00 +0000", "/blog", GPTBOT);
    let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gzip.write_all(line.repeat(3).as_bytes()).expect("gzip");
    let gzipped = write(&dir, "access.log.gz", &gzip.finish().expect("gzip"));
    let (json, _, status) = run(&["audit", &gzipped, "--robots", &robots, "--json"], b"");
    assert_eq!(status, 1);
    assert_eq!(of_type(&json_lines(&json), "summary")[0]["violations"], 3);

    let caddy = r#"{"level":"info","ts":1760104620.25,"request":{"remote_ip":"20.171.206.1","method":"GET","uri":"/blog","headers":{"User-Agent":["GPTBot/1.2"]}},"status":200}"#;
    let (json, _, _) = run(&["audit", "-", "--robots", &robots, "--json"], format!("{caddy}\n").as_bytes());
    let requests = json_lines(&json);
    assert_eq!(requests[0]["time"], "2025-10-10T13:57:00Z");
    assert_eq!(requests[0]["ip"], "20.171.206.1");
    assert_eq!(requests[0]["verdict"], "violation");

    let format = r#"%h %^[%d:%t %^] "%r" %s %b "%R" "%u""#;
    let (json, _, _) = run(&["audit", "-", "--robots", &robots, "--json", "--log-format", format], line.as_bytes());
    assert_eq!(json_lines(&json)[0]["verdict"], "violation");
}

/// The archive's captures of the site's robots.txt, and the site itself.
fn archive_and_site() -> Server {
    let base: Arc<OnceLock<String>> = Arc::new(OnceLock::new());
    let base_in_router = Arc::clone(&base);
    let server = Server::start(move |path| {
        let site = base_in_router.get().map_or("", String::as_str);
        let original = format!("{site}/robots.txt");
        let captures: [(&str, &str, &str); 3] = [
            ("20200101000000", "200", "User-agent: *\nDisallow: /private/\n"),
            ("20210101000000", "200", ROBOTS),
            ("20220101000000", "404", "gone"),
        ];
        if path.starts_with("/cdx/search/cdx?") {
            let mut rows = vec![serde_json::json!(["timestamp", "original", "statuscode", "digest"])];
            for (timestamp, status, body) in captures {
                rows.push(serde_json::json!([timestamp, original, status, history::digest(body.as_bytes())]));
            }
            return Reply::text(&serde_json::to_string(&rows).expect("json"));
        }
        if path == "/robots.txt" {
            return Reply::text(ROBOTS);
        }
        for (timestamp, status, body) in captures {
            if path == format!("/web/{timestamp}id_/{original}") {
                return if status == "404" { Reply::status(404) } else { Reply::text(body) };
            }
        }
        Reply::status(404)
    });
    base.set(format!("http://{}", server.addr)).expect("once");
    server
}

#[test]
fn each_request_meets_the_version_of_its_time() {
    let server = archive_and_site();
    let dir = tempfile::tempdir().expect("dir");
    let site = format!("http://{}", server.addr);
    let store = dir.path().join("history.sqlite3").display().to_string();
    let log = [
        // Before any version.
        combined("20.171.206.1", "31/Dec/2019:23:00:00 +0000", "/blog", GPTBOT),
        // The first version allows GPTBot everything but /private/.
        combined("20.171.206.1", "01/Jun/2020:12:00:00 +0000", "/blog", GPTBOT),
        // 08:00 UTC on the day GPTBot was shut out: within the 24 hours' grace.
        combined("20.171.206.1", "01/Jan/2021:10:00:00 +0200", "/blog", GPTBOT),
        // The same local date, but 01:30 UTC the next day: past the grace.
        combined("20.171.206.1", "01/Jan/2021:23:30:00 -0200", "/blog", GPTBOT),
        // After the 404 version: no rules, everything allowed.
        combined("20.171.206.1", "01/Jun/2022:12:00:00 +0000", "/blog", GPTBOT),
    ]
    .concat();
    let log = write(&dir, "access.log", log.as_bytes());
    let args = ["audit", &log, "--site", &site, "--archive", &site, "--archive-delay", "0", "--store", &store];
    let (json, warnings, status) = run(&[&args[..], &["--json", "--all"]].concat(), b"");
    assert_eq!(status, 1, "{json}{warnings}");
    let records = json_lines(&json);
    let verdicts: Vec<(&str, &str)> = of_type(&records, "request")
        .iter()
        .map(|r| (r["verdict"].as_str().unwrap_or_default(), r["version"].as_str().unwrap_or("-")))
        .collect();
    assert_eq!(
        verdicts,
        [
            ("unjudged", "-"),
            ("allowed", "2020-01-01T00:00:00Z"),
            ("tolerated", "2021-01-01T00:00:00Z"),
            ("violation", "2021-01-01T00:00:00Z"),
            ("allowed", "2022-01-01T00:00:00Z"),
        ]
    );
    // --local reads the versions the first run kept, and asks nobody.
    let (text, warnings, status) = run(&["audit", &log, "--site", &site, "--local", "--store", &store], b"");
    assert_eq!(status, 1);
    assert!(
        warnings.contains("1 robot request came before the first known version (2020-01-01 00:00:00 UTC): unjudged"),
        "{warnings}"
    );
    assert!(
        text.contains("GPTBot: 1 request by line 6 `Disallow: /` of the version of 2021-01-01T00:00:00Z"),
        "{text}"
    );
    // Issue 35: a log whose every request came before the first version is not "no
    // violation": nothing could be judged, and the status says so.
    let early = write(
        &dir,
        "early.log",
        combined("20.171.206.1", "31/Dec/2019:23:00:00 +0000", "/private/x", GPTBOT).as_bytes(),
    );
    let (text, warnings, status) = run(&["audit", &early, "--site", &site, "--local", "--store", &store], b"");
    assert_eq!(status, 2, "{text}{warnings}");
    assert!(
        text.contains("Nothing could be judged: every robot request came before the first known version"),
        "{text}"
    );
    assert!(!text.contains("No violation"), "{text}");
    assert!(warnings.contains("error: nothing could be judged"), "{warnings}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, ..ProptestConfig::default() })]

    /// What an audit against `--robots F` says of each request is what `check F` says of
    /// its path, for the same robot.
    #[test]
    fn an_audit_agrees_with_check(
        rules in prop::collection::vec(("(Allow|Disallow)", "/[a-c*$/]{0,5}"), 1..8),
        paths in prop::collection::vec("/[a-c/%?=]{0,8}", 1..30),
    ) {
        let dir = tempfile::tempdir().expect("dir");
        let text = rules.iter().map(|(field, value)| format!("{field}: {value}\n")).collect::<Vec<_>>().concat();
        let robots = write(&dir, "robots.txt", format!("User-agent: Googlebot\n{text}").as_bytes());
        let log: String = paths
            .iter()
            .map(|path| combined("66.249.66.1", "10/Oct/2025:13:55:30 +0000", path, GOOGLEBOT))
            .collect();
        let log = write(&dir, "access.log", log.as_bytes());
        let (audited, _, _) = run(&["audit", &log, "--robots", &robots, "--json", "--all"], b"");
        let (checked, _, _) = run(&[&["check", robots.as_str(), "-r", "Googlebot", "--json"], &paths.iter().map(String::as_str).collect::<Vec<_>>()[..]].concat(), b"");
        let audited: Vec<(bool, Value)> = of_type(&json_lines(&audited), "request")
            .iter()
            .map(|r| (r["verdict"] == "allowed", r["line"].clone()))
            .collect();
        let checked: Vec<(bool, Value)> = json_lines(&checked)
            .iter()
            .map(|r| (r["allowed"] == true, r["line"].clone()))
            .collect();
        prop_assert_eq!(audited, checked);
    }
}

/// Runs robotscope with its data directory in `data` (where `bots update` keeps lists).
fn run_with_data(data: &std::path::Path, args: &[&str]) -> (String, String, i32) {
    let output = Command::cargo_bin("robotscope")
        .expect("binary")
        .env("XDG_DATA_HOME", data)
        .env("HOME", data)
        .args(args)
        .output()
        .expect("run");
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
        output.status.code().unwrap_or(-1),
    )
}

/// The identity each request row of `--json --all` gives, by client address.
fn identities(json: &str) -> Vec<(String, String)> {
    of_type(&json_lines(json), "request")
        .iter()
        .map(|row| (row["ip"].as_str().unwrap_or("").to_owned(), row["identity"].as_str().unwrap_or("").to_owned()))
        .collect()
}

const BINGBOT: &str = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)";
const APPLEBOT: &str = "Mozilla/5.0 (Macintosh) Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)";

#[test]
fn googlebot_from_googles_published_range_is_verified_and_from_elsewhere_forged() {
    let dir = tempfile::tempdir().expect("dir");
    let robots = write(&dir, "robots.txt", ROBOTS.as_bytes());
    let log = [
        // 66.249.66.1 is in googlebot.json as shipped (66.249.66.0/27).
        combined("66.249.66.1", "10/Oct/2025:13:55:30 +0000", "/public", GOOGLEBOT),
        combined("::ffff:66.249.79.96", "10/Oct/2025:13:55:31 +0000", "/public", GOOGLEBOT),
        combined("203.0.113.7", "10/Oct/2025:13:55:32 +0000", "/public", GOOGLEBOT),
        // With its port, as some proxies log it.
        combined("66.249.66.2:51234", "10/Oct/2025:13:55:32 +0000", "/public", GOOGLEBOT),
        combined("66.249.66.1", "10/Oct/2025:13:55:33 +0000", "/robots.txt", GPTBOT),
    ]
    .concat();
    let log = write(&dir, "access.log", log.as_bytes());
    let (json, warnings, status) = run_with_data(dir.path(), &["audit", &log, "--robots", &robots, "--json"]);
    assert_eq!(status, 0, "no violation: {warnings}");
    // Without --all, the forged requests are written: they are news (GPTBot from one of
    // Google's addresses too).
    assert_eq!(
        identities(&json),
        [("203.0.113.7".to_owned(), "forged".to_owned()), ("66.249.66.1".to_owned(), "forged".to_owned())]
    );
    let records = json_lines(&json);
    let google = of_type(&records, "robot").into_iter().find(|robot| robot["agent"] == "Googlebot").cloned();
    let google = google.expect("Googlebot's record");
    assert_eq!((google["forged"].as_u64(), google["verified"].as_u64()), (Some(1), Some(3)));
    assert_eq!(of_type(&records, "summary")[0]["forged"], 2, "Googlebot's and GPTBot's");

    let (json, ..) = run_with_data(dir.path(), &["audit", &log, "--robots", &robots, "--json", "--all"]);
    let found = identities(&json);
    assert_eq!(found[0].1, "verified");
    assert_eq!(found[1].1, "verified", "IPv4 written as IPv6");
    assert_eq!(found[3].1, "verified", "an address with its port");
    // OpenAI's gptbot.json is shipped too: GPTBot from Google's address is forged.
    assert_eq!(found[4], ("66.249.66.1".to_owned(), "forged".to_owned()));

    let (text, ..) = run_with_data(dir.path(), &["audit", &log, "--robots", &robots]);
    assert!(text.contains("googlebot.json 2025-08-19 (shipped)"), "{text}");
    let row = text.lines().find(|line| line.starts_with("Googlebot")).expect("a row");
    assert_eq!(row.split_whitespace().nth(5), Some("1"), "the forged column: {text}");
}

#[test]
fn bots_update_fetches_the_lists_audit_then_uses_and_bot_ips_adds_one() {
    let server = Server::start(|path| match path {
        "/lists/bingbot.json" => {
            Reply::text(r#"{"creationTime": "2026-11-01T00:00:00", "prefixes": [{"ipv4Prefix": "40.77.167.0/24"}]}"#)
        }
        "/lists/googlebot.json" => {
            Reply::text(r#"{"creationTime": "2026-11-02T00:00:00", "prefixes": [{"ipv4Prefix": "192.0.2.0/24"}]}"#)
        }
        "/lists/gptbot.json" => Reply::text("<html>not a list</html>"),
        // Empty: it would make every ChatGPT-User request forged.
        "/lists/chatgpt-user.json" => Reply::text(r#"{"creationTime": "2026-11-01T00:00:00", "prefixes": []}"#),
        // Too long: a hostile mirror's list of /128s would fill memory.
        "/lists/perplexity-user.json" => {
            let prefixes: Vec<String> =
                (0..10_001).map(|n| format!(r#"{{"ipv6Prefix": "2001:db8::{n:x}/128"}}"#)).collect();
            Reply::text(&format!(r#"{{"prefixes": [{}]}}"#, prefixes.join(",")))
        }
        _ => Reply::status(404),
    });
    let data = tempfile::tempdir().expect("data");
    let (out, warnings, status) = run_with_data(data.path(), &["bots", "update", "--from", &server.url("/lists/")]);
    assert_eq!(status, 1, "some lists failed: exit 1\n{out}{warnings}");
    assert!(out.contains("bingbot.json: 1 range, made 2026-11-01T00:00:00 (Microsoft)"), "{out}");
    assert!(warnings.contains("gptbot.json: not a list of address ranges"), "{warnings}");
    assert!(warnings.contains("perplexitybot.json: HTTP 404"), "{warnings}");
    assert!(warnings.contains("chatgpt-user.json: holds no address range (no copy is held)"), "{warnings}");
    assert!(warnings.contains("perplexity-user.json: holds more than 10000 address ranges"), "{warnings}");
    let kept = data.path().join("robotscope/bot-ips");
    assert!(kept.join("bingbot.json").is_file() && !kept.join("gptbot.json").exists());

    let dir = tempfile::tempdir().expect("dir");
    let robots = write(&dir, "robots.txt", ROBOTS.as_bytes());
    let mybot = "MyCrawler/1.0 (+https://example.com/bot)";
    let log = [
        combined("40.77.167.10", "10/Oct/2025:13:55:30 +0000", "/public", BINGBOT),
        combined("198.51.100.1", "10/Oct/2025:13:55:31 +0000", "/public", BINGBOT),
        // The updated googlebot.json takes the shipped one's place.
        combined("192.0.2.1", "10/Oct/2025:13:55:32 +0000", "/public", GOOGLEBOT),
        combined("192.0.2.2", "10/Oct/2025:13:55:33 +0000", "/public", mybot),
        combined("192.0.2.3", "10/Oct/2025:13:55:34 +0000", "/public", mybot),
    ]
    .concat();
    let log = write(&dir, "access.log", log.as_bytes());
    let mine = write(&dir, "mine.json", br#"{"prefixes": [{"ipv4Prefix": "192.0.2.2/32"}]}"#);
    let given = format!("MyCrawler={mine}");
    let args = ["audit", &log, "--robots", &robots, "--json", "--all", "--bot-ips", &given];
    let (json, warnings, status) = run_with_data(data.path(), &args);
    assert_eq!(status, 0, "{warnings}");
    let found: Vec<String> = identities(&json).into_iter().map(|(_, identity)| identity).collect();
    assert_eq!(found, ["verified", "forged", "verified", "verified", "forged"]);

    // A mirror's list older than the copy held is not taken.
    let stale = Server::start(|path| match path {
        "/googlebot.json" => {
            Reply::text(r#"{"creationTime": "2020-01-01T00:00:00", "prefixes": [{"ipv4Prefix": "10.0.0.0/24"}]}"#)
        }
        _ => Reply::status(404),
    });
    let (_, warnings, _) = run_with_data(data.path(), &["bots", "update", "--from", &stale.url("/")]);
    let future = Server::start(|path| match path {
        "/bingbot.json" => {
            Reply::text(r#"{"creationTime": "9999-12-31T00:00:00", "prefixes": [{"ipv4Prefix": "10.0.0.0/24"}]}"#)
        }
        "/applebot.json" => Reply::text(r#"{"creationTime": "soon", "prefixes": [{"ipv4Prefix": "10.0.0.0/24"}]}"#),
        "/duckduckbot.json" => {
            Reply::text(r#"{"creationTime": "2026-11-03T00:00:00", "prefixes": [{"ipv4Prefix": "10.0.0.0/24"}]}"#)
        }
        _ => Reply::status(404),
    });
    // A link where the partial file goes: removed, not followed.
    let outside = dir.path().join("outside");
    std::fs::write(&outside, "mine").expect("write");
    std::os::unix::fs::symlink(&outside, kept.join("duckduckbot.json.partial")).expect("link");
    let (_, future_warnings, _) = run_with_data(data.path(), &["bots", "update", "--from", &future.url("/")]);
    assert!(future_warnings.contains("`9999-12-31T00:00:00` is still to come"), "{future_warnings}");
    assert!(future_warnings.contains("`soon` is no time"), "{future_warnings}");
    assert_eq!(std::fs::read_to_string(&outside).expect("read"), "mine");
    assert!(std::fs::read_to_string(kept.join("duckduckbot.json")).expect("kept").contains("10.0.0.0/24"));
    assert!(warnings.contains("made 2020-01-01T00:00:00, before the copy held (2026-11-02T00:00:00)"), "{warnings}");
    assert!(std::fs::read_to_string(kept.join("googlebot.json")).expect("kept").contains("192.0.2.0/24"));
    let (_, warnings, status) = run_with_data(data.path(), &["audit", &log, "--robots", &robots, "--bot-ips", &mine]);
    assert_eq!(status, 2, "a list not named for an operator needs TOKEN=FILE");
    assert!(warnings.contains("write TOKEN="), "{warnings}");

    // Issue 35: a list that would verify anyone is refused, given or fetched: a range
    // as wide as the Internet, or another operator's published range.
    let everyone = write(&dir, "everyone.json", br#"{"prefixes": [{"ipv4Prefix": "0.0.0.0/0"}]}"#);
    let given = format!("MyCrawler={everyone}");
    let (_, warnings, status) = run_with_data(data.path(), &["audit", &log, "--robots", &robots, "--bot-ips", &given]);
    assert_eq!(status, 2, "{warnings}");
    assert!(warnings.contains("\"0.0.0.0/0\" is too wide a range to be a crawler's"), "{warnings}");
    let googles = write(&dir, "googles.json", br#"{"prefixes": [{"ipv4Prefix": "66.249.64.0/27"}]}"#);
    let given = format!("MyCrawler={googles}");
    let (_, warnings, status) = run_with_data(data.path(), &["audit", &log, "--robots", &robots, "--bot-ips", &given]);
    assert_eq!(status, 2, "{warnings}");
    assert!(
        warnings.contains("holds 66.249.64.0/27, which meets 66.249.64.0/27 of Google's googlebot.json"),
        "{warnings}"
    );
    let wide = Server::start(|path| match path {
        "/gptbot.json" => Reply::text(r#"{"prefixes": [{"ipv6Prefix": "::/0"}]}"#),
        "/bingbot.json" => Reply::text(r#"{"prefixes": [{"ipv4Prefix": "66.249.64.0/24"}]}"#),
        _ => Reply::status(404),
    });
    let (_, warnings, _) = run_with_data(data.path(), &["bots", "update", "--from", &wide.url("/")]);
    assert!(warnings.contains("\"::/0\" is too wide a range"), "{warnings}");
    assert!(warnings.contains("holds 66.249.64.0/24, which meets"), "{warnings}");
    assert!(!kept.join("gptbot.json").exists(), "not kept");
    let bing = std::fs::read_to_string(kept.join("bingbot.json")).expect("the copy held");
    assert!(bing.contains("40.77.167.0/24") && !bing.contains("66.249"), "the copy held stays: {bing}");
}

/// A DNS server on 127.0.0.1 that answers from `records` (name, data) and says NXDOMAIN
/// to the rest; a `silent` one never answers.
fn dns_stand_in(records: Vec<(&'static str, hickory_proto::rr::RData)>, silent: bool) -> std::net::SocketAddr {
    use hickory_proto::op::{Message, ResponseCode};
    use hickory_proto::rr::{Name, Record};
    let socket = std::net::UdpSocket::bind("127.0.0.1:0").expect("bind");
    let address = socket.local_addr().expect("address");
    std::thread::spawn(move || {
        let mut buffer = [0_u8; 4096];
        while let Ok((length, from)) = socket.recv_from(&mut buffer) {
            if silent {
                continue;
            }
            let Ok(query) = Message::from_vec(&buffer[..length]) else { continue };
            let mut reply = Message::response(query.metadata.id, query.metadata.op_code);
            reply.metadata.recursion_desired = query.metadata.recursion_desired;
            reply.metadata.recursion_available = true;
            for question in &query.queries {
                reply.add_query(question.clone());
                for (name, data) in &records {
                    let name = Name::from_ascii(name).expect("a name");
                    // Names compare without regard to case (RFC 4343).
                    if name == *question.name() && data.record_type() == question.query_type() {
                        reply.add_answer(Record::from_rdata(question.name().clone(), 60, data.clone()));
                    }
                }
            }
            let fails = query.queries.iter().any(|question| question.name().to_ascii().starts_with("fail."));
            if fails {
                reply.metadata.response_code = ResponseCode::ServFail;
            } else if reply.answers.is_empty() {
                reply.metadata.response_code = ResponseCode::NXDomain;
            }
            let _ = socket.send_to(&reply.to_vec().expect("encode"), from);
        }
    });
    address
}

#[test]
fn rdns_confirms_names_forward_and_tells_forgeries() {
    use hickory_proto::rr::RData;
    use hickory_proto::rr::rdata::{A, PTR};
    let ptr = |name: &str| RData::PTR(PTR(hickory_proto::rr::Name::from_ascii(name).expect("name")));
    let a = |address: [u8; 4]| RData::A(A::new(address[0], address[1], address[2], address[3]));
    let server = dns_stand_in(
        vec![
            // A Googlebot outside the shipped list, whose name proves it.
            ("10.2.0.192.in-addr.arpa.", ptr("crawl-192-0-2-10.googlebot.com.")),
            ("crawl-192-0-2-10.googlebot.com.", a([192, 0, 2, 10])),
            // A bingbot whose name is Microsoft's and resolves back.
            ("20.2.0.192.in-addr.arpa.", ptr("msnbot-192-0-2-20.search.msn.com.")),
            ("msnbot-192-0-2-20.search.msn.com.", a([192, 0, 2, 20])),
            // Another's name.
            ("30.2.0.192.in-addr.arpa.", ptr("host.search.msn.com.evil.example.")),
            ("host.search.msn.com.evil.example.", a([192, 0, 2, 30])),
            // A Google Cloud machine: its name is Google's, not Googlebot's.
            ("70.2.0.192.in-addr.arpa.", ptr("70.2.0.192.bc.googleusercontent.com.")),
            ("70.2.0.192.bc.googleusercontent.com.", a([192, 0, 2, 70])),
            // A name outside Apple's, whose zone fails on purpose: never looked up.
            ("80.2.0.192.in-addr.arpa.", ptr("fail.example.net.")),
            // Microsoft's name, which does not resolve back.
            ("40.2.0.192.in-addr.arpa.", ptr("fake.search.msn.com.")),
            ("fake.search.msn.com.", a([192, 0, 2, 99])),
        ],
        false,
    );
    let dir = tempfile::tempdir().expect("dir");
    let robots = write(&dir, "robots.txt", ROBOTS.as_bytes());
    let log = [
        combined("192.0.2.10", "10/Oct/2025:13:55:30 +0000", "/public", GOOGLEBOT),
        combined("192.0.2.20", "10/Oct/2025:13:55:31 +0000", "/public", BINGBOT),
        combined("192.0.2.30", "10/Oct/2025:13:55:32 +0000", "/public", BINGBOT),
        combined("192.0.2.40", "10/Oct/2025:13:55:33 +0000", "/public", BINGBOT),
        // No PTR at all.
        combined("192.0.2.50", "10/Oct/2025:13:55:34 +0000", "/public", APPLEBOT),
        // Without --rdns, a name is not asked: in Google's ranges, verified all the same.
        combined("66.249.66.1", "10/Oct/2025:13:55:35 +0000", "/public", GOOGLEBOT),
        // An operator that publishes nothing.
        combined("192.0.2.60", "10/Oct/2025:13:55:36 +0000", "/public", "SomeBot/1.0"),
        combined("192.0.2.70", "10/Oct/2025:13:55:37 +0000", "/public", GOOGLEBOT),
        combined("192.0.2.80", "10/Oct/2025:13:55:38 +0000", "/public", APPLEBOT),
    ]
    .concat();
    let log = write(&dir, "access.log", log.as_bytes());
    let dns = server.to_string();
    let args = ["audit", &log, "--robots", &robots, "--json", "--all", "--rdns", "--dns-server", &dns];
    let (json, warnings, status) = run_with_data(dir.path(), &args);
    assert_eq!(status, 0, "{warnings}");
    let found: Vec<String> = identities(&json).into_iter().map(|(_, identity)| identity).collect();
    assert_eq!(
        found,
        ["verified", "verified", "forged", "forged", "forged", "verified", "unverifiable", "forged", "forged"]
    );

    // Without --rdns, the Googlebot outside the list is forged, bingbot unverifiable.
    let (json, ..) = run_with_data(dir.path(), &["audit", &log, "--robots", &robots, "--json", "--all"]);
    let found: Vec<String> = identities(&json).into_iter().map(|(_, identity)| identity).collect();
    assert_eq!(found[..2], ["forged", "unverifiable"]);
}

#[test]
fn a_dns_server_that_never_answers_leaves_robots_unverifiable_within_the_time_limit() {
    let server = dns_stand_in(Vec::new(), true);
    let dir = tempfile::tempdir().expect("dir");
    let robots = write(&dir, "robots.txt", ROBOTS.as_bytes());
    let log = (0..50)
        .map(|n| combined(&format!("198.51.100.{n}"), "10/Oct/2025:13:55:30 +0000", "/public", BINGBOT))
        .collect::<String>();
    let log = write(&dir, "access.log", log.as_bytes());
    let dns = server.to_string();
    let started = std::time::Instant::now();
    let args = ["audit", &log, "--robots", &robots, "--json", "--all", "--rdns", "--dns-server", &dns];
    let (json, warnings, status) = run_with_data(dir.path(), &args);
    assert_eq!(status, 0, "{warnings}");
    let found = identities(&json);
    assert_eq!(found.len(), 50);
    assert!(found.iter().all(|(_, identity)| identity == "unverifiable"), "{found:?}");
    // Looked up together, not one after another (50 × 3 s).
    assert!(started.elapsed() < std::time::Duration::from_secs(30), "{:?}", started.elapsed());
}

mod explorer {
    //! The audit view (`L`) in the explorer, driven through the real event loop: a site
    //! whose store holds two earlier versions, a log across them, Enter on a violation.

    use std::time::Duration;

    use robotscope::app::keymap::press;
    use robotscope::app::{App, Overlay};
    use robotscope::fetch::{Limits, Source};
    use robotscope::history::{self, HistorySettings, Kept, Provenance, Store, StoreChoice};
    use robotscope::policy::Availability;
    use robotscope::robots_db::RobotsDb;

    use super::support::explorer as drawing;
    use super::support::{Reply, Server};
    use super::{GOOGLEBOT, GPTBOT, combined};

    const OPEN: &str = "User-agent: *\nDisallow: /cgi-bin/\n";
    const CLOSED: &str = "User-agent: *\nDisallow: /cgi-bin/\nDisallow: /private/\n";

    /// `L`, the log's path, Enter.
    fn audit_keys(log: &std::path::Path) -> String {
        format!("L{}<ret>", drawing::escaped(&log.display().to_string()))
    }

    fn keep(store: &mut Store, site: &url::Url, timestamp: &str, body: &str) {
        store
            .keep(&Kept {
                site: &history::site_key(site),
                provenance: Provenance::Local,
                timestamp,
                url: site.as_str(),
                status: Some(200),
                availability: Availability::Available,
                body: Some(body.as_bytes()),
                digest: &history::digest(body.as_bytes()),
                bytes: body.len() as u64,
                truncated: false,
                headers: &[],
            })
            .expect("kept");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_audit_view_counts_robots_and_enter_shows_the_version_in_force() {
        let server = Server::start(|_| Reply::text(CLOSED));
        let dir = tempfile::tempdir().expect("dir");
        let store_path = dir.path().join("history.sqlite3");
        let site = url::Url::parse(&server.url("/robots.txt")).expect("url");
        let mut store = Store::open(&store_path).expect("store").store;
        keep(&mut store, &site, "20250101000000", OPEN);
        keep(&mut store, &site, "20250601000000", CLOSED);
        drop(store);
        let log = [
            // Allowed by the January version; a violation of June's, a month after it.
            combined("66.249.66.1", "10/Feb/2025:10:00:00 +0000", "/private/a", GOOGLEBOT),
            combined("66.249.66.1", "10/Jul/2025:10:00:00 +0000", "/private/b", GOOGLEBOT),
            combined("20.171.206.1", "11/Jul/2025:10:00:00 +0200", "/private/c", GPTBOT),
            // A Googlebot from an address that is not Google's.
            combined("203.0.113.7", "12/Jul/2025:10:00:00 +0000", "/private/d", GOOGLEBOT),
        ]
        .concat();
        let log_path = dir.path().join("access.log");
        std::fs::write(&log_path, log).expect("log");

        let source = Source::resolve(&server.url("/")).expect("a site");
        let limits = Limits { timeout: Duration::from_secs(2), ..Limits::default() };
        let mut app = App::loading(source, limits, false, &RobotsDb::embedded());
        app.set_history_settings(HistorySettings { store: StoreChoice::At(store_path), ..HistorySettings::default() });
        let mut app = drawing::run_steps(app, vec![drawing::when_idle(&audit_keys(&log_path))]).await;

        assert_eq!(app.overlay(), Some(Overlay::Audit));
        let view = app.audit_view().expect("open");
        let audited = view.audited.as_ref().expect("the audit ended");
        // Today's fetch is June's text again: seen again, not a version of its own.
        assert!(audited.judged_by.starts_with("2 versions of http://"), "{}", audited.judged_by);
        let google = &audited.report.robots[0];
        assert_eq!((google.label.as_str(), google.requests, google.violations), ("Googlebot", 3, 2));
        assert_eq!((google.forged, google.verified), (1, 2));
        let groups: Vec<(&str, u64, bool)> =
            audited.report.groups.iter().map(|group| (group.label.as_str(), group.count, group.forged)).collect();
        assert_eq!(groups, [("GPTBot", 1, false), ("Googlebot", 1, false), ("Googlebot", 1, true)]);

        // The title names the log, in a temporary directory whose name differs.
        let filters = [
            (server.addr.port().to_string(), "PORT".to_owned()),
            ("┌ Audit of .*".to_owned(), "┌ Audit of DIR/access.log ─".to_owned()),
        ];
        let screen = drawing::draw(&mut app, 120, 40).backend().to_string();
        insta::with_settings!({ filters => filters.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect::<Vec<_>>() }, {
            insta::assert_snapshot!(screen);
        });

        // Enter on Googlebot's violation: its robot, its path, and June's version in the
        // panes, read-only, where the deciding line is.
        press(&mut app, "j<ret>");
        assert_eq!(app.overlay(), None);
        assert_eq!(app.viewing_version(), Some("20250601000000"));
        assert_eq!(app.document().txt.source(), CLOSED.as_bytes());
        assert_eq!(app.path().text(), "/private/b");
        assert_eq!(app.robot().profile.name, "Googlebot");
        let verdict = &app.evaluation().verdict;
        assert!(!verdict.allowed());
        assert_eq!(verdict.decided_by().map(|rule| rule.line()), Some(3), "{}", verdict.explanation());
        // L goes back to the view as it was left; Esc leaves it.
        press(&mut app, "L");
        assert_eq!(app.overlay(), Some(Overlay::Audit));
        assert_eq!(app.audit_view().map(|view| view.cursor), Some(1));
        press(&mut app, "<esc>");
        assert_eq!(app.overlay(), None);

        // From the attack on issue 39: with another file open, Enter showed the judged
        // site's version under that file's name (or, for a local file, did nothing and
        // said nothing). It says which site the audit judged, and shows no version.
        let other = dir.path().join("other.txt");
        std::fs::write(&other, "User-agent: *\nAllow: /\n").expect("write");
        let open_other = format!("Hg<ret><esc>o{}<ret>", drawing::escaped(&other.display().to_string()));
        let app = drawing::run_steps(app, vec![drawing::when_idle(&open_other), drawing::when_idle("L<ret>")]).await;
        assert_eq!(app.document().txt.source(), b"User-agent: *\nAllow: /\n");
        assert_eq!(app.viewing_version(), None);
        assert!(app.message().is_some_and(|m| m.starts_with("This audit judged http://")), "{:?}", app.message());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_log_that_is_not_one_is_said_and_esc_stops_a_run_on_a_pipe() {
        let dir = tempfile::tempdir().expect("dir");
        let junk = dir.path().join("junk.log");
        std::fs::write(&junk, "<html>not a log</html>\n").expect("write");
        let app = App::from_text("User-agent: *\nDisallow: /private/\n");
        let app = drawing::run_steps(app, vec![drawing::when_idle(&audit_keys(&junk))]).await;
        assert!(
            app.message_log().any(|m| m.contains("not an access log")),
            "{:?}",
            app.message_log().collect::<Vec<_>>()
        );
        let failed = app.audit_view().and_then(|view| view.failed.as_deref()).unwrap_or_default();
        assert!(failed.contains("not an access log"), "the view says why: {failed}");

        // A FIFO that nobody writes to: the run waits, and Esc stops it at once.
        let fifo = dir.path().join("fifo");
        assert!(std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo").success());
        // The writer keeps the FIFO open after its line until the test is done with it.
        let (done, writer_may_go) = std::sync::mpsc::channel::<()>();
        let writer = {
            let fifo = fifo.clone();
            std::thread::spawn(move || {
                use std::io::Write;
                let mut file = std::fs::OpenOptions::new().write(true).open(fifo).expect("open the fifo");
                let line = combined("66.249.66.1", "10/Feb/2025:10:00:00 +0000", "/private/a", GOOGLEBOT);
                file.write_all(line.as_bytes()).expect("write");
                let _ = writer_may_go.recv();
            })
        };
        let app = App::from_text("User-agent: *\nDisallow: /private/\n");
        // Esc once the line written is read, while the run waits for more.
        let line_read = |app: &App| app.audit_view().and_then(|view| view.job.progress()).is_some_and(|p| p.lines >= 1);
        let steps = vec![drawing::when_idle(&audit_keys(&fifo)), drawing::once(line_read, "<esc>")];
        let app = drawing::run_steps(app, steps).await;
        let view = app.audit_view().expect("still open after the stop");
        assert!(!view.job.is_running());
        let audited = view.audited.as_ref().expect("what was read");
        assert!(audited.report.stopped);
        assert_eq!(audited.report.robots[0].violations, 1);
        drop(done);
        writer.join().expect("writer");

        // Issue 35: a FIFO nobody writes to, stopped: said as stopped, not "empty", and
        // the report before stays under its own log's name.
        let silent = dir.path().join("silent");
        assert!(std::process::Command::new("mkfifo").arg(&silent).status().expect("mkfifo").success());
        let keys = format!("l{}<ret>", drawing::escaped(&silent.display().to_string()));
        let mut app = drawing::run_steps(app, vec![drawing::when_idle(&keys), drawing::at_once("<esc>")]).await;
        let view = app.audit_view().expect("open");
        let failed = view.failed.as_deref().unwrap_or_default();
        assert!(failed.starts_with("Stopped before a line of") && failed.ends_with("silent came"), "{failed}");
        assert_eq!(view.audited.as_ref().map(|audited| audited.log.clone()), Some(fifo.clone()));
        let screen = drawing::draw(&mut app, 120, 40).backend().to_string();
        assert!(screen.contains("Audit of ") && screen.contains("/fifo") && !screen.contains("Audit of /tmp/silent"));
    }
}

#[test]
fn a_missing_log_among_several_is_said_and_the_rest_reported() {
    let dir = tempfile::tempdir().expect("dir");
    let robots = write(&dir, "robots.txt", ROBOTS.as_bytes());
    let log = write(
        &dir,
        "access.log",
        combined("66.249.66.1", "10/Oct/2025:13:55:36 +0000", "/private/a", GOOGLEBOT).as_bytes(),
    );
    let missing = dir.path().join("access.log.1").display().to_string();
    let (text, warnings, status) = run(&["audit", &missing, &log, "--robots", &robots], b"");
    assert_eq!(status, 1, "the violation in the log that was read: {warnings}");
    assert!(text.contains("Googlebot: 1 request"), "{text}");
    assert!(warnings.contains("warning: opening") && warnings.contains("access.log.1"), "{warnings}");
    let (_, warnings, status) = run(&["audit", &missing, "--robots", &robots], b"");
    assert_eq!(status, 2, "nothing read: {warnings}");
    // --all is for rows; CSV cells a spreadsheet would run are quoted as text.
    let (_, warnings, status) = run(&["audit", &log, "--robots", &robots, "--all"], b"");
    assert_eq!(status, 2);
    assert!(warnings.contains("add --json or --csv"), "{warnings}");
    let formula = write(
        &dir,
        "formula.log",
        combined("66.249.66.1", "10/Oct/2025:13:55:36 +0000", "/private/a", "=1+1 MJ12bot/1.0").as_bytes(),
    );
    let (csv, ..) = run(&["audit", &formula, "--robots", &robots, "--csv"], b"");
    assert!(csv.contains(",'=1+1 MJ12bot/1.0,"), "{csv}");
}

/// A FIFO nobody writes to: opening it waits for a writer, on the reader's thread, so
/// that --max-time holds.
#[test]
fn a_fifo_without_a_writer_ends_at_max_time() {
    let dir = tempfile::tempdir().expect("dir");
    let robots = write(&dir, "robots.txt", ROBOTS.as_bytes());
    let fifo = dir.path().join("fifo");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo").success());
    let started = std::time::Instant::now();
    let other = write(&dir, "other.log", b"");
    let args = ["audit", &fifo.display().to_string(), &other, "--robots", &robots, "--max-time", "1"];
    let (_, warnings, status) = run(&args, b"");
    assert!(started.elapsed() < std::time::Duration::from_secs(10), "{:?}", started.elapsed());
    assert_eq!(status, 2, "nothing read: {warnings}");
    assert!(warnings.contains("stopped at --max-time 1s before a line of"), "{warnings}");
    assert!(warnings.contains("other.log not read"), "{warnings}");
}
