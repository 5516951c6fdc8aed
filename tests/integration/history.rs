//! `robotscope history` and `robotscope diff` against real HTTP servers on 127.0.0.1: a
//! stand-in for the web archive (CDX JSON and raw captures, identical captures, a 404
//! capture, a captured redirect, a capture that times out) and a live site that changes
//! between fetches; the store under concurrent writers and with a damaged database.

use crate::support;

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use robotscope::history::{self, Kept, Provenance, Store};
use robotscope::policy::Availability;
use serde_json::Value;
use support::cli::{json_lines, of_type};
use support::{Reply, Server};

const OPEN: &str = "User-agent: *\nDisallow: /private\n";
const CLOSED_TO_GPTBOT: &str = "User-agent: *\nDisallow: /private\n\nUser-agent: GPTBot\nDisallow: /\n";
const NO_TRAINING: &str =
    "User-agent: *\nDisallow: /private\n\nUser-agent: GPTBot\nAllow: /\nContent-Usage: train-ai=n\n";

fn run(args: &[&str]) -> (String, String, i32) {
    support::cli::run(args, b"")
}

/// The archive stand-in and the live site, on one server: the site's robots.txt is
/// `live`; the archive lists `captures` (timestamp, status, body) and serves them, the
/// capture of 2023 one byte a second (a capture that times out).
fn archive_and_site(live: &'static str) -> Server {
    let base: Arc<OnceLock<String>> = Arc::new(OnceLock::new());
    let base_in_router = Arc::clone(&base);
    let server = Server::start(move |path| {
        let site = base_in_router.get().map_or("", String::as_str);
        let original = format!("{site}/robots.txt");
        let captures: [(&str, &str, &str); 6] = [
            ("20200101000000", "200", OPEN),
            ("20210101000000", "200", CLOSED_TO_GPTBOT),
            ("20210601000000", "200", CLOSED_TO_GPTBOT),
            ("20220101000000", "404", "<html>Not Found</html>"),
            ("20230101000000", "200", NO_TRAINING),
            ("20240101000000", "301", ""),
        ];
        if path.starts_with("/cdx/search/cdx?") {
            assert!(path.contains("output=json") && path.contains("collapse=digest"), "{path}");
            let mut rows = vec![serde_json::json!(["timestamp", "original", "statuscode", "digest"])];
            for (timestamp, status, body) in captures {
                let digest = history::digest(body.as_bytes());
                rows.push(serde_json::json!([timestamp, original, status, digest]));
            }
            // Timestamps no capture can have: rejected and counted, never versions.
            for impossible in ["99999999999999", "00000000000000", "20201301000000", "２０２０１２０１００００００"]
            {
                rows.push(serde_json::json!([impossible, original, "200", "IMPOSSIBLE"]));
            }
            return Reply::text(&serde_json::to_string(&rows).expect("json"));
        }
        if path == "/robots.txt" {
            return Reply::text(live);
        }
        for (timestamp, status, body) in captures {
            if path == format!("/web/{timestamp}id_/{original}") {
                return match (timestamp, status) {
                    ("20230101000000", _) => {
                        Reply::Slow { body: body.as_bytes().to_vec(), gap: Duration::from_secs(1) }
                    }
                    (_, "404") => Reply::status(404),
                    _ => Reply::text(body),
                };
            }
        }
        Reply::status(404)
    });
    base.set(format!("http://{}", server.addr)).expect("once");
    server
}

fn store_arg(dir: &Path) -> String {
    dir.join("history.sqlite3").display().to_string()
}

#[test]
fn archive_versions_flip_and_captures_are_not_fetched_twice() {
    let server = archive_and_site(NO_TRAINING);
    let dir = tempfile::tempdir().expect("dir");
    let (site, base, store) = (server.url("/"), server.url(""), store_arg(dir.path()));
    let args = [
        "history",
        &site,
        "-a",
        "GPTBot",
        "--archive",
        &base,
        "--archive-delay",
        "0",
        "--timeout",
        "2",
        "--store",
        &store,
        "--json",
    ];
    let (out, err, code) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("the archive listed 4 rows with a timestamp no capture can have"), "{err}");
    let records = json_lines(&out);
    let versions: Vec<(String, String, Value)> = of_type(&records, "version")
        .iter()
        .map(|v| {
            (
                v["source"].as_str().unwrap_or("").into(),
                v["timestamp"].as_str().unwrap_or("").into(),
                v["status"].clone(),
            )
        })
        .collect();
    // The identical capture of June 2021 is one version with January's; the redirect
    // decides nothing; the 2023 capture timed out and is not a version yet.
    assert_eq!(versions.len(), 4, "{versions:?}");
    assert_eq!(
        versions[..3]
            .iter()
            .map(|(source, ts, status)| (source.as_str(), ts.as_str(), status.as_u64()))
            .collect::<Vec<_>>(),
        [
            ("archive", "20200101000000", Some(200)),
            ("archive", "20210101000000", Some(200)),
            ("archive", "20220101000000", Some(404))
        ]
    );
    assert_eq!(versions[3].0, "local");
    assert!(err.contains("capture of 2023-01-01 00:00:00 was not read"), "{err}");
    // The redirect of 2024 waits with it: kept before the 2023 version, it could make a
    // flip that never happened.
    assert!(err.contains("1 capture left for the next run"), "{err}");
    let flips = of_type(&records, "flip");
    let summary: Vec<(&str, bool, Option<u64>, &str)> = flips
        .iter()
        .map(|f| {
            (
                f["timestamp"].as_str().unwrap_or(""),
                f["allowed"].as_bool().unwrap_or(true),
                f["line"].as_u64(),
                f["previous_timestamp"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        summary[..2],
        [("20210101000000", false, Some(5), "20200101000000"), ("20220101000000", true, None, "20210101000000")],
        "{flips:?}"
    );
    assert_eq!(flips[0]["rule"], "Disallow: /");
    assert_eq!(flips[0]["agent"], "GPTBot");
    // The live file lets GPTBot in and says no to training: a usage flip is not a crawl
    // flip, and the 404 before it allowed everything.
    let usage = of_type(&records, "usage-flip");
    assert_eq!(usage.len(), 1, "{records:?}");
    assert_eq!(
        (usage[0]["category"].as_str(), usage[0]["preference"].as_str()),
        (Some("train-ai"), Some("disallowed"))
    );
    assert_eq!(usage[0]["previous_preference"], "unknown");
    assert_eq!(usage[0]["line"], 6);

    let asked = |server: &Server, timestamp: &str| {
        server.paths_asked().iter().filter(|path| path.starts_with(&format!("/web/{timestamp}id_/"))).count()
    };
    assert_eq!(asked(&server, "20200101000000"), 1);
    // The 404 and the redirect decide by their status: their bodies are never fetched.
    assert_eq!(asked(&server, "20220101000000") + asked(&server, "20240101000000"), 0);
    let (_, err, code) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(asked(&server, "20200101000000"), 1, "a kept capture is not fetched again");
    assert_eq!(asked(&server, "20210101000000") + asked(&server, "20210601000000"), 2);
    assert_eq!(asked(&server, "20230101000000"), 2, "a capture that failed is asked again");
}

#[test]
fn max_captures_bounds_a_run_and_the_next_goes_on() {
    let server = archive_and_site(OPEN);
    let dir = tempfile::tempdir().expect("dir");
    let (site, base, store) = (server.url("/"), server.url(""), store_arg(dir.path()));
    let args = [
        "history",
        &site,
        "--archive",
        &base,
        "--archive-delay",
        "0",
        "--store",
        &store,
        "--to",
        "2022",
        "--max-captures",
        "1",
        "--json",
    ];
    let (out, err, code) = run(&args);
    assert_eq!(code, 0, "{err}");
    // The 404 of 2022 waits too: kept before the 2021 capture, it would make a flip
    // that never happened.
    assert!(err.contains("3 captures left for the next run"), "{err}");
    assert_eq!(of_type(&json_lines(&out), "version").len(), 1, "{out}");
    assert!(!out.contains("\"flip\""), "no flip across the gap: {out}");
    let (out, err, _) = run(&args);
    assert!(err.contains("2 captures left for the next run"), "{err}");
    assert_eq!(of_type(&json_lines(&out), "version").len(), 2, "{out}");
    let (out, err, _) = run(&args);
    assert!(!err.contains("left for the next run"), "{err}");
    assert_eq!(of_type(&json_lines(&out), "version").len(), 3, "June 2021 is January's content: {out}");
}

#[test]
fn history_text_reads_as_a_timeline() {
    let server = archive_and_site(OPEN);
    let dir = tempfile::tempdir().expect("dir");
    let (site, base, store) = (server.url("/"), server.url(""), store_arg(dir.path()));
    let (out, err, code) = run(&[
        "history",
        &site,
        "-a",
        "GPTBot",
        "-r",
        "Googlebot",
        "--archive",
        &base,
        "--archive-delay",
        "0",
        "--timeout",
        "1",
        "--store",
        &store,
        "--to",
        "2022",
        "/",
        "/private/x",
    ]);
    assert_eq!(code, 0, "{err}");
    let port = server.addr.port().to_string();
    insta::with_settings!({ filters => vec![(port.as_str(), "PORT")] }, {
        insta::assert_snapshot!(out);
    });
}

/// A site whose robots.txt is the `n`th of `bodies` at its `n`th fetch (the last
/// repeated).
fn changing_site(bodies: &'static [&'static str]) -> Server {
    let fetches = AtomicUsize::new(0);
    Server::start(move |path| match path {
        "/robots.txt" => Reply::text(bodies[fetches.fetch_add(1, Ordering::SeqCst).min(bodies.len() - 1)]),
        _ => Reply::status(404),
    })
}

#[test]
fn a_live_site_that_changes_is_a_history_and_a_diff() {
    let server = changing_site(&[OPEN, OPEN, CLOSED_TO_GPTBOT, CLOSED_TO_GPTBOT]);
    let dir = tempfile::tempdir().expect("dir");
    let (site, store) = (server.url("/"), store_arg(dir.path()));
    for fetch in 0..4 {
        if fetch == 2 {
            // Versions are told apart by the second they were fetched in.
            std::thread::sleep(Duration::from_millis(1100));
        }
        let (_, err, code) = run(&["check", &site, "/", "-a", "GPTBot", "--store", &store]);
        // The site closes to GPTBot from the third fetch on.
        assert_eq!(code, i32::from(fetch >= 2), "{err}");
        assert!(!err.contains("warning"), "{err}");
    }
    let (out, err, code) = run(&["history", &site, "--local", "-a", "GPTBot", "--store", &store, "--json"]);
    assert_eq!(code, 0, "{err}");
    let records = json_lines(&out);
    let versions = of_type(&records, "version");
    assert_eq!(versions.len(), 2, "each answer once: {records:?}");
    assert_eq!(versions.iter().map(|v| v["seen"].as_u64()).collect::<Vec<_>>(), [Some(2), Some(2)]);
    assert!(versions.iter().all(|v| v["source"] == "local"));
    let flips = of_type(&records, "flip");
    assert_eq!(flips.len(), 1);
    assert_eq!((flips[0]["allowed"].as_bool(), flips[0]["line"].as_u64()), (Some(false), Some(5)));

    let (out, err, code) = run(&["diff", &site, "--local", "--store", &store]);
    assert_eq!(code, 1, "versions that differ: exit 1 like diff(1) ({err})");
    assert!(out.contains("\n+User-agent: GPTBot\n+Disallow: /\n"), "{out}");
    assert!(out.starts_with("--- 127.0.0.1:"), "{out}");
    let first = versions[0]["timestamp"].as_str().expect("timestamp");
    let (out, err, code) = run(&["diff", &site, "--local", "--store", &store, "--at", first]);
    assert_eq!(code, 2, "nothing before the first version to compare it with ({out})");
    assert!(err.contains("nothing comes before the version of"), "{err}");
    let (out, _, code) = run(&["diff", &site, "--local", "--store", &store, "--at", first, "--against", first]);
    assert_eq!((code, out.as_str()), (0, ""));
    let (_, err, code) = run(&["diff", &site, "--local", "--store", &store, "--against", "1999"]);
    assert_eq!(code, 2);
    assert!(err.contains("no version at or before 1999"), "{err}");
}

#[test]
fn what_is_not_a_history_is_said_plainly() {
    let dir = tempfile::tempdir().expect("dir");
    let store = store_arg(dir.path());
    let file = dir.path().join("robots.txt");
    std::fs::write(&file, OPEN).expect("write");
    let (_, err, code) = run(&["history", &file.display().to_string(), "--store", &store]);
    assert_eq!(code, 2);
    assert!(err.contains("is a file: a history is a site's"), "{err}");
    let (_, err, code) = run(&["history", "example.com", "--local", "--store", &store]);
    assert_eq!(code, 2);
    assert!(err.contains("no version of example.com/robots.txt is known"), "{err}");
    let (_, err, code) = run(&["history", "example.com", "--local", "--no-store"]);
    assert_eq!(code, 2);
    assert!(err.contains("nothing to show"), "{err}");
    let (_, err, code) = run(&["history", "example.com", "--from", "2024-13"]);
    assert_eq!(code, 2);
    assert!(err.contains("'2024-13' is not a date"), "{err}");
}

/// A store that cannot be opened says why once: the reason was the message's and its
/// source's, and the error's chain printed it twice.
#[test]
fn a_store_that_cannot_be_opened_says_why_once() {
    let dir = tempfile::tempdir().expect("dir");
    let file = dir.path().join("not-a-directory");
    std::fs::write(&file, "").expect("write");
    let store = file.join("store.db").display().to_string();
    let (_, err, code) = run(&["history", "example.com", "--local", "--store", &store]);
    assert_eq!(code, 2);
    let error = err.lines().find(|line| line.starts_with("robotscope: error:")).expect("an error line");
    let reason = error.strip_prefix(&format!("robotscope: error: the history store at {store}: ")).expect("the store");
    // The system's reason (which the platform words), once: not `X: X`.
    assert!(reason.ends_with(')') && !reason.contains(": "), "{error}");
}

#[test]
fn no_store_keeps_nothing() {
    let server = changing_site(&[OPEN]);
    let dir = tempfile::tempdir().expect("dir");
    let (site, store) = (server.url("/"), store_arg(dir.path()));
    let (_, err, _) = run(&["check", &site, "/", "--no-store", "--store", &store]);
    assert!(err.contains("cannot be used with"), "--store and --no-store conflict: {err}");
    run(&["check", &site, "/", "--no-store"]);
    assert!(!Path::new(&store).exists());
    run(&["lint", &site, "--store", &store]);
    let (out, _, code) = run(&["history", &site, "--local", "--store", &store, "--json"]);
    assert_eq!((code, of_type(&json_lines(&out), "version").len()), (0, 1), "lint keeps what it fetched");
}

/// Issue 35: a fetch the user's own flags shaped is shown, never kept as one of the
/// site's versions: a body cut by `--max-bytes` below what crawlers read, a request the
/// server refused as a request (431), a User-Agent header no crawler sends. Otherwise
/// `history` showed a false "GPTBot gained /", and audits judged by a 1-byte file.
#[test]
fn fetches_shaped_by_the_users_flags_are_not_kept() {
    let server = changing_site(&[CLOSED_TO_GPTBOT]);
    let refusing = Server::start(|_| Reply::status(431));
    let dir = tempfile::tempdir().expect("dir");
    let (site, store) = (server.url("/"), store_arg(dir.path()));
    // The versions the store holds: none is an error of its own.
    let versions = |site: &str| {
        let (out, err, code) = run(&["history", site, "--local", "--store", &store, "--json"]);
        match code {
            0 => of_type(&json_lines(&out), "version").len(),
            2 if err.contains("no version of") => 0,
            _ => panic!("{code}: {err}"),
        }
    };
    let (_, err, code) = run(&["check", &site, "/", "-a", "GPTBot", "--max-bytes", "1", "--store", &store]);
    assert_eq!(code, 0, "the 1-byte body allows all: shown as it is");
    assert!(
        err.contains("not kept in the history store: the body was cut at 1 byte by --max-bytes, below the 500.0 KB a crawler reads"),
        "{err}"
    );
    let long_agent = "x".repeat(1000);
    let (_, err, _) = run(&["check", &site, "/", "--user-agent", &long_agent, "--store", &store]);
    assert!(err.contains("a User-Agent header of 1000 bytes, which no crawler sends"), "{err}");
    assert_eq!(versions(&site), 0, "nothing kept");
    let refused = refusing.url("/");
    let (_, err, _) = run(&["check", &refused, "/", "--store", &store]);
    assert!(err.contains("the server refused the request itself (HTTP 431)"), "{err}");
    assert_eq!(versions(&refused), 0);
    // The same site asked as a crawler asks: kept.
    let (_, err, code) = run(&["check", &site, "/", "-a", "GPTBot", "--store", &store]);
    assert_eq!(code, 1, "{err}");
    assert!(!err.contains("not kept"), "{err}");
    assert_eq!(versions(&site), 1);
}

/// `count` processes of `robotscope check SITE / --store STORE` started together; their
/// outputs once all have ended.
fn checks_at_once(count: usize, site: &str, store: &str) -> Vec<std::process::Output> {
    let children: Vec<_> = (0..count)
        .map(|_| {
            std::process::Command::new(assert_cmd::cargo::cargo_bin("robotscope"))
                .args(["check", site, "/", "--store", store])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("spawn")
        })
        .collect();
    children.into_iter().map(|child| child.wait_with_output().expect("wait")).collect()
}

#[test]
fn concurrent_processes_share_the_store_without_losing_a_fetch() {
    let server = changing_site(&[OPEN, CLOSED_TO_GPTBOT, OPEN, CLOSED_TO_GPTBOT, OPEN, CLOSED_TO_GPTBOT, OPEN, OPEN]);
    let dir = tempfile::tempdir().expect("dir");
    let (site, store) = (server.url("/"), store_arg(dir.path()));
    for output in checks_at_once(8, &site, &store) {
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(!err.contains("warning"), "{err}");
    }
    let opened = Store::open(Path::new(&store)).expect("store");
    assert!(opened.moved_aside.is_none());
    let versions = opened.store.versions(&history::site_key(&url::Url::parse(&site).expect("url"))).expect("versions");
    assert_eq!(versions.iter().map(|v| v.seen).sum::<u32>(), 8, "every fetch counted once: {versions:?}");
    assert_eq!(opened.store.content_count().expect("count"), 2, "each content once");
}

#[test]
fn processes_that_find_the_store_damaged_at_once_keep_the_damaged_file() {
    let server = changing_site(&[OPEN]);
    let dir = tempfile::tempdir().expect("dir");
    let (site, store) = (server.url("/"), store_arg(dir.path()));
    run(&["check", &site, "/", "--store", &store]);
    let mut damaged = std::fs::read(&store).expect("the store");
    damaged[4096..].fill(0xFF);
    std::fs::write(&store, &damaged).expect("write");
    let mut moved = 0;
    for output in checks_at_once(8, &site, &store) {
        let err = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "a store never fails the command: {err}");
        moved += usize::from(err.contains("was damaged"));
        // Issue 39: the others wait for the repair under the store's lock; none opens
        // the new store while the damaged one's journal is being moved.
        assert!(!err.contains("warning") || err.contains("was damaged"), "{err}");
    }
    let aside: Vec<_> = std::fs::read_dir(dir.path())
        .expect("dir")
        .flatten()
        .filter(|entry| entry.file_name().to_string_lossy().contains(".damaged-"))
        .filter(|entry| !entry.file_name().to_string_lossy().ends_with("-wal"))
        .filter(|entry| !entry.file_name().to_string_lossy().ends_with("-shm"))
        .collect();
    assert_eq!((moved, aside.len()), (1, 1), "one process moved it, once");
    let kept_aside = std::fs::read(aside[0].path()).expect("read");
    assert!(kept_aside == damaged, "and it is the damaged file, not {} other bytes", kept_aside.len());
    let opened = Store::open(Path::new(&store)).expect("store");
    let versions = opened.store.versions(&history::site_key(&url::Url::parse(&site).expect("url"))).expect("versions");
    assert_eq!(versions.iter().map(|v| v.seen).sum::<u32>(), 8, "every fetch kept in the new store");
}

#[test]
fn another_programs_database_is_left_as_it_was() {
    let server = changing_site(&[OPEN]);
    let dir = tempfile::tempdir().expect("dir");
    let site = server.url("/");
    // One with a table of its own, one whose only table has a name the store uses.
    for (name, schema) in [
        ("bookmarks.sqlite3", "CREATE TABLE bookmarks (url TEXT); INSERT INTO bookmarks VALUES ('x');"),
        (
            "cms.sqlite3",
            "CREATE TABLE content (id INTEGER, title TEXT, html TEXT); INSERT INTO content VALUES (1, 'a', 'b');",
        ),
    ] {
        let path = dir.path().join(name);
        let connection = rusqlite::Connection::open(&path).expect("a database");
        connection.execute_batch(schema).expect("made");
        drop(connection);
        let before = std::fs::read(&path).expect("read");
        let store = path.display().to_string();
        let (_, err, code) = run(&["check", &site, "/", "--store", &store]);
        assert_eq!(code, 0);
        assert!(err.contains("is another program's SQLite database"), "{err}");
        assert_eq!(std::fs::read(&path).expect("read"), before, "{name}: not a byte changed");
        assert!(!dir.path().join(format!("{name}-wal")).exists());
        // history works on without it, in memory: today's fetch is a version.
        let (out, err, code) = run(&["history", &site, "--store", &store, "--archive", &server.url(""), "--json"]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(of_type(&json_lines(&out), "version").len(), 1, "{out}");
        assert_eq!(std::fs::read(&path).expect("read"), before, "{name}: still not a byte changed");
    }
}

#[test]
fn threads_writing_at_once_wait_for_each_other() {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("store.sqlite3");
    Store::open(&path).expect("create");
    let threads: Vec<_> = (0..4)
        .map(|thread| {
            let path = path.clone();
            std::thread::spawn(move || {
                let mut store = Store::open(&path).expect("open").store;
                for round in 0..50 {
                    let body = format!("User-agent: *\nDisallow: /{}\n", (thread + round) % 3);
                    let timestamp = format!("2024010100{:04}", thread * 100 + round);
                    store
                        .keep(&Kept {
                            site: "example.com",
                            provenance: Provenance::Local,
                            timestamp: &timestamp,
                            url: "https://example.com/robots.txt",
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
            })
        })
        .collect();
    for thread in threads {
        thread.join().expect("thread");
    }
    let store = Store::open(&path).expect("open").store;
    let versions = store.versions("example.com").expect("versions");
    assert_eq!(versions.iter().map(|v| v.seen).sum::<u32>(), 200);
    assert_eq!(store.content_count().expect("count"), 3);
}

#[test]
fn a_damaged_store_is_moved_aside_and_a_new_one_started() {
    let server = changing_site(&[OPEN]);
    let dir = tempfile::tempdir().expect("dir");
    let (site, store) = (server.url("/"), store_arg(dir.path()));
    run(&["check", &site, "/", "--store", &store]);
    // Every page after the first (the header and the schema's root) overwritten.
    let mut damaged = std::fs::read(&store).expect("the store");
    assert!(damaged.len() > 8192 && damaged.starts_with(b"SQLite format 3\0"));
    damaged[4096..].fill(0xFF);
    std::fs::write(&store, &damaged).expect("write");
    let (_, err, code) = run(&["check", &site, "/", "--store", &store]);
    assert_eq!(code, 0, "a damaged store never fails the command ({err})");
    assert!(err.contains("was damaged") && err.contains("moved to"), "{err}");
    let aside: Vec<_> = std::fs::read_dir(dir.path())
        .expect("dir")
        .flatten()
        .filter(|entry| entry.file_name().to_string_lossy().starts_with("history.sqlite3.damaged-"))
        .collect();
    assert_eq!(aside.len(), 1);
    assert_eq!(std::fs::read(aside[0].path()).expect("read"), damaged, "the damaged file is kept as it was");
    let (out, _, code) = run(&["history", &site, "--local", "--store", &store, "--json"]);
    assert_eq!((code, of_type(&json_lines(&out), "version").len()), (0, 1));
    // A file the user named that is no database is theirs: left alone, with a warning.
    let notes = dir.path().join("notes.txt");
    std::fs::write(&notes, "my notes\n").expect("write");
    let (_, err, code) = run(&["check", &site, "/", "--store", &notes.display().to_string()]);
    assert_eq!(code, 0);
    assert!(err.contains("is not a SQLite database"), "{err}");
    assert_eq!(std::fs::read_to_string(&notes).expect("read"), "my notes\n");
    // A store that cannot be made at all is a warning too.
    let (_, err, code) = run(&["check", &site, "/", "--store", "/proc/robotscope/history.sqlite3"]);
    assert_eq!(code, 0);
    assert!(err.contains("warning: the history store at /proc/robotscope"), "{err}");
}

mod explorer {
    //! The history view (`H`) in the explorer, driven through the real event loop.

    use super::*;
    use robotscope::app::keymap::press;
    use robotscope::app::{App, Overlay};
    use robotscope::fetch::{Limits, Source};
    use robotscope::history::HistorySettings;
    use robotscope::history::StoreChoice;
    use robotscope::robots_db::RobotsDb;

    use super::support::explorer as drawing;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_history_view_shows_versions_flips_and_a_version_read_only() {
        let server = archive_and_site(NO_TRAINING);
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("history.sqlite3");
        // A fetch of last year, when the site was open to every robot.
        let mut store = Store::open(&path).expect("store").store;
        let site_url = url::Url::parse(&server.url("/robots.txt")).expect("url");
        store
            .keep(&Kept {
                site: &history::site_key(&site_url),
                provenance: Provenance::Local,
                timestamp: "20250101000000",
                url: site_url.as_str(),
                status: Some(200),
                availability: Availability::Available,
                body: Some(OPEN.as_bytes()),
                digest: &history::digest(OPEN.as_bytes()),
                bytes: OPEN.len() as u64,
                truncated: false,
                headers: &[],
            })
            .expect("kept");
        drop(store);
        let source = Source::resolve(&server.url("/")).expect("a site");
        let limits = Limits { timeout: Duration::from_secs(1), ..Limits::default() };
        let mut app = App::loading(source, limits, false, &RobotsDb::embedded());
        app.set_history_settings(HistorySettings {
            store: StoreChoice::At(path.clone()),
            archive: url::Url::parse(&server.url("")).expect("url"),
            pace: Duration::ZERO,
        });
        let steps = vec![drawing::when_idle("aGPTBot<ret>"), drawing::when_idle("H"), drawing::when_idle("A")];
        let mut app = drawing::run_steps(app, steps).await;
        let log: Vec<&str> = app.message_log().collect();
        assert!(log.iter().any(|m| m.starts_with("Changed since the last fetch on 2025-01-01 00:00:00")), "{log:?}");
        assert!(log.iter().any(|m| m.contains("1 capture could not be read")), "{log:?}");
        assert_eq!(app.overlay(), Some(Overlay::History));
        let view = app.history_view().expect("open");
        let dates: Vec<String> = view.versions.iter().map(|loaded| loaded.version.timestamp.clone()).collect();
        assert_eq!(dates[..4], ["20200101000000", "20210101000000", "20220101000000", "20250101000000"]);
        assert_eq!(dates.len(), 5, "and today's fetch: {dates:?}");

        let today = robotscope::history::display_date(&robotscope::history::timestamp_now())[..10].to_owned();
        let port = server.addr.port().to_string();
        let filters = [
            (format!(r"{today} \d\d:\d\d:\d\d"), "TODAY".to_owned()),
            (port, "PORT".to_owned()),
            // The status bar's fetch time.
            (r"· \d+ ms ·".to_owned(), "· N ms ·".to_owned()),
            // Which is one or more digits wide, and so moves where the hint is cut.
            (r#"(?m)Esc stop, or leave[^"]*"$"#.to_owned(), r#"Esc stop, or leave…""#.to_owned()),
        ];
        // The newest version against the one before it: GPTBot is let in again, with a
        // train-ai preference it did not have.
        press(&mut app, "j");
        let screen = drawing::draw(&mut app, 120, 40).backend().to_string();
        insta::with_settings!({ filters => filters.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect::<Vec<_>>() }, {
            insta::assert_snapshot!(screen);
        });
        // d: the diff; Space on the 2020 version then d on 2021: their diff.
        press(&mut app, "d");
        let screen = drawing::draw(&mut app, 120, 40).backend().to_string();
        assert!(screen.contains("+Content-Usage: train-ai=n"), "{screen}");
        press(&mut app, "G<space>k");
        let screen = drawing::draw(&mut app, 120, 40).backend().to_string();
        assert!(screen.contains("+User-agent: GPTBot"), "{screen}");

        // Enter shows the 2021 version in the panes, read-only; Enter on now goes back.
        press(&mut app, "<ret>");
        assert_eq!(app.viewing_version(), Some("20210101000000"));
        assert_eq!(app.document().txt.source(), CLOSED_TO_GPTBOT.as_bytes());
        assert!(!app.evaluation().verdict.allowed(), "GPTBot may not fetch / in 2021");
        press(&mut app, "e");
        assert!(app.editor().is_none());
        assert!(app.message().is_some_and(|m| m.contains("read-only")), "{:?}", app.message());
        // From the attack on issue 39: a block is an edit too, and one made to a version
        // was lost without a question when the current file came back.
        press(&mut app, "b<space><ret>");
        assert_eq!(app.document().txt.source(), CLOSED_TO_GPTBOT.as_bytes());
        assert!(app.message().is_some_and(|m| m.contains("read-only")), "{:?}", app.message());
        press(&mut app, "<esc>Hg<ret>");
        assert_eq!(app.viewing_version(), None);
        assert_eq!(app.document().txt.source(), NO_TRAINING.as_bytes());
        assert!(app.evaluation().verdict.allowed());
    }

    #[test]
    fn a_file_has_no_history() {
        let mut app = App::from_text(OPEN);
        press(&mut app, "H");
        assert_eq!(app.overlay(), None);
        assert!(app.message().is_some_and(|m| m.contains("A history is a site's")), "{:?}", app.message());
    }
}

/// Issue 25: a FIFO, a device or a directory given as the store is refused before
/// anything opens it (opening a FIFO waits for a writer that never comes), and so is a
/// FIFO planted as its journal. The command goes on without the store.
#[test]
fn a_store_that_is_not_a_regular_file_is_refused() {
    let server = changing_site(&[OPEN]);
    let dir = tempfile::tempdir().expect("dir");
    let fifo = dir.path().join("fifo");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo").success());
    let fifo = fifo.display().to_string();
    let (stdout, stderr, code) = run(&["check", &server.url("/"), "/", "--store", &fifo]);
    assert_eq!(code, 0, "the command goes on: {stderr}");
    assert!(stdout.contains("allowed"), "{stdout}");
    assert!(stderr.contains("is a FIFO, not a robotscope history store"), "{stderr}");
    let (_, stderr, code) = run(&["history", &server.url("/"), "--local", "--store", &fifo]);
    assert_eq!(code, 2, "--local has nothing else to read: {stderr}");
    // /dev/null is a device: no /dev/null-journal is made, whoever runs it.
    let (_, stderr, _) = run(&["check", &server.url("/"), "/", "--store", "/dev/null"]);
    assert!(stderr.contains("/dev/null is a device"), "{stderr}");
    assert!(!Path::new("/dev/null-journal").exists() && !Path::new("/dev/null-wal").exists());
    // A FIFO beside a store, where SQLite would open its write-ahead log.
    let store = store_arg(dir.path());
    assert!(std::process::Command::new("mkfifo").arg(format!("{store}-wal")).status().expect("mkfifo").success());
    let (_, stderr, code) = run(&["check", &server.url("/"), "/", "--store", &store]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("beside a FIFO named -wal"), "{stderr}");
}

/// Issue 25: a store that cannot be written is read: `history --local` shows what it
/// holds, and a fetch says once that it is not kept. Run as another user when the tests
/// run as root (root writes read-only files).
#[cfg(unix)]
#[test]
fn a_read_only_store_can_be_read() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    let server = changing_site(&[OPEN]);
    let dir = tempfile::tempdir().expect("dir");
    let (site, store) = (server.url("/"), store_arg(dir.path()));
    run(&["check", &site, "/", "--store", &store]);
    let root = nix::unistd::geteuid().is_root();
    let (file_mode, dir_mode) = if root { (0o644, 0o755) } else { (0o444, 0o555) };
    std::fs::set_permissions(&store, std::fs::Permissions::from_mode(file_mode)).expect("chmod");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(dir_mode)).expect("chmod");
    let run_as_reader = |args: &[&str]| {
        let mut command = std::process::Command::new(assert_cmd::cargo::cargo_bin("robotscope"));
        command.args(args);
        if root {
            command.uid(65534).gid(65534);
        }
        let output = command.output().expect("run");
        (String::from_utf8_lossy(&output.stdout).into_owned(), String::from_utf8_lossy(&output.stderr).into_owned())
    };
    let (stdout, stderr) = run_as_reader(&["history", &site, "--local", "--store", &store, "--json"]);
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).expect("chmod back");
    assert!(!stderr.contains("readonly database"), "{stderr}");
    assert_eq!(of_type(&json_lines(&stdout), "version").len(), 1, "{stdout}{stderr}");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(dir_mode)).expect("chmod");
    let (_, stderr) = run_as_reader(&["check", &site, "/", "--store", &store]);
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).expect("chmod back");
    assert_eq!(stderr.matches("can only be read").count(), 1, "said once: {stderr}");
}

/// Issue 25: a damaged store whose lock cannot be opened (here a directory) does not
/// spin: the command goes on without the store, with a warning. Issue 39: the lock is
/// the operating system's, so the lock file a killed repair left behind holds nobody
/// back, however fresh it looks.
#[test]
fn a_repair_lock_is_the_systems_and_one_that_cannot_be_opened_is_given_up() {
    let server = changing_site(&[OPEN]);
    let dir = tempfile::tempdir().expect("dir");
    let (site, store) = (server.url("/"), store_arg(dir.path()));
    run(&["check", &site, "/", "--store", &store]);
    let mut damaged = std::fs::read(&store).expect("the store");
    damaged[4096..].fill(0xFF);
    std::fs::write(&store, &damaged).expect("write");
    let lock = format!("{store}.lock");
    std::fs::remove_file(&lock).expect("every process that writes the store has made its lock");
    std::fs::create_dir(&lock).expect("a directory where the lock goes");
    let (stdout, stderr, code) = run(&["check", &site, "/", "--store", &store]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("allowed"), "{stdout}");
    assert!(stderr.contains(&format!("the lock {lock} cannot be opened")), "{stderr}");
    assert_eq!(std::fs::read(&store).expect("read"), damaged, "the damaged store is left as it was");
    // A FIFO in its place: refused at once (opening one to write would wait for a
    // reader for ever), and the command goes on.
    std::fs::remove_dir(&lock).expect("remove");
    assert!(std::process::Command::new("mkfifo").arg(&lock).status().expect("mkfifo").success());
    let (stdout, stderr, code) = run(&["check", &site, "/", "--store", &store]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("allowed"), "{stdout}");
    assert!(stderr.contains(&format!("the lock {lock} cannot be opened: it is a FIFO, not a file")), "{stderr}");
    // A lock file left by a repair that was killed: the store is repaired at once.
    std::fs::remove_file(&lock).expect("remove");
    std::fs::write(&lock, b"").expect("a lock file nobody holds");
    let (stdout, stderr, code) = run(&["check", &site, "/", "--store", &store]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("allowed"), "{stdout}");
    assert!(stderr.contains("was damaged"), "the repair is said: {stderr}");
    assert_ne!(std::fs::read(&store).expect("read"), damaged, "a new store in its place");
}

/// Issue 25: `--max-time` bounds a history run: the capture of 2023 comes a byte a
/// second and `--timeout 60` would wait for it; at the deadline the run stops, keeps and
/// shows what it read, and the next run goes on.
#[test]
fn a_history_run_has_a_deadline() {
    let server = archive_and_site(NO_TRAINING);
    let dir = tempfile::tempdir().expect("dir");
    let (site, base, store) = (server.url("/"), server.url(""), store_arg(dir.path()));
    let args = [
        "history",
        &site,
        "--archive",
        &base,
        "--archive-delay",
        "0",
        "--timeout",
        "60",
        "--max-time",
        "3s",
        "--store",
        &store,
        "--json",
    ];
    let (out, err, code) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("stopped at --max-time 3s"), "{err}");
    let timestamps: Vec<String> = of_type(&json_lines(&out), "version")
        .iter()
        .filter_map(|v| v["timestamp"].as_str().map(str::to_owned))
        .collect();
    assert!(timestamps.contains(&"20200101000000".to_owned()), "what was read is shown: {timestamps:?}");
    assert!(!timestamps.contains(&"20230101000000".to_owned()), "the slow capture is not: {timestamps:?}");
    assert!(err.contains("left for the next run"), "{err}");
}

/// `diff OLD NEW`: the diff, then each robot whose verdict changes with a path and the
/// deciding line before and after (GPTBot's `Allow: /` replaced by a block, ClaudeBot
/// moved out of the `*` group), exit 1; a file against itself reordered changes no
/// verdict and exits 0.
#[test]
fn diff_of_two_files_lists_every_verdict_that_changes() {
    let dir = tempfile::tempdir().expect("dir");
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).expect("write");
        path.to_str().expect("utf-8").to_owned()
    };
    let old = write("old.txt", NO_TRAINING);
    let new = write(
        "new.txt",
        "User-agent: *\nDisallow: /private\n\nUser-agent: GPTBot\nUser-agent: ClaudeBot\nDisallow: /\n",
    );
    let reordered = write(
        "same.txt",
        "# reordered\nUser-agent: GPTBot\nContent-Usage: train-ai=n\nAllow: /\n\nUser-agent: *\nDisallow: /private\n",
    );
    let (out, err, code) = run(&["diff", &old, &new]);
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("-Allow: /\n") && out.contains("+User-agent: ClaudeBot\n"), "{out}");
    let gptbot =
        "    GPTBot /: allowed → disallowed\n      before: line 5: Allow: /\n      after:  line 6: Disallow: /\n";
    assert!(out.contains(gptbot), "{out}");
    let claudebot = "    ClaudeBot /: allowed → disallowed\n      before: no rule matches (group at line 1)\n";
    assert!(out.contains(claudebot), "{out}");
    assert!(!out.contains("Googlebot"), "Googlebot reads the * group in both: {out}");
    // A name with a control character reaches the robot whose token RFC 9309 reads in
    // it (`Evil` of `Evil<BEL>Bot`), which diff names, escaped.
    let evil = write("evil.txt", &format!("{NO_TRAINING}\nUser-agent: Evil\x07Bot\nDisallow: /y\n"));
    let (out, _, code) = run(&["diff", &old, &evil]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("    Evil /y: allowed → disallowed\n") && !out.contains('\x07'), "{out}");
    let (out, _, code) = run(&["diff", &old, &reordered]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("No robot's verdict changes"), "{out}");
    // JSON: every change with its purposes and deciding lines; a robot only the file
    // names is among them, with no purpose.
    let renamed = write("renamed.txt", &NO_TRAINING.replace("GPTBot", "MyOwnBot"));
    let (out, err, code) = run(&["diff", &old, &renamed, "--json"]);
    assert_eq!(code, 1, "{err}");
    let changes = json_lines(&out);
    let rfc = |robot: &str| {
        changes
            .iter()
            .find(|c| c["robot"] == robot && c["reading"] == "rfc9309")
            .unwrap_or_else(|| panic!("{robot}: {out}"))
    };
    let gptbot = rfc("GPTBot");
    assert_eq!(
        (gptbot["path"].as_str(), gptbot["before_line"].as_u64(), gptbot["after_line"].as_u64()),
        (Some("/private"), Some(5), Some(2))
    );
    assert_eq!(gptbot["purposes"], serde_json::json!(["ai-training"]));
    let mine = rfc("MyOwnBot");
    assert_eq!(
        (mine["before"].as_str(), mine["after"].as_str(), mine["after_rule"].as_str()),
        (Some("disallowed"), Some("allowed"), Some("Allow: /"))
    );
    assert_eq!(mine["purposes"], serde_json::json!([]));
}

/// A site that answers 503 is compared as RFC 9309 reads it (§2.3.1.4: every path
/// disallowed), and one that answers 404 as a file that allows all (§2.3.1.3).
#[test]
fn diff_of_a_failing_site_and_a_file_reads_the_status() {
    let server = Server::start(|_| Reply::status(404));
    let dir = tempfile::tempdir().expect("dir");
    let file = dir.path().join("robots.txt");
    std::fs::write(&file, OPEN).expect("write");
    let file = file.to_str().expect("utf-8");
    let store = store_arg(dir.path());
    let missing = server.url("/");
    let (out, err, code) = run(&["diff", &missing, file, "--store", &store]);
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("    * /private: allowed → disallowed\n"), "{out}");
    assert!(out.contains("the file was not read: the server answered 404"), "{out}");
    let down = Server::start(|_| Reply::status(503));
    let (out, err, code) = run(&["diff", &down.url("/"), file, "--store", &store]);
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("    * /: disallowed → allowed\n") && out.contains("the server answered 503"), "{out}");
    let (_, err, code) = run(&["diff", "-", "-"]);
    assert_eq!(code, 2, "{err}");
}
