//! `robotscope sitemaps` against a real HTTP server on 127.0.0.1: an index with a nested
//! index that lists itself and its sibling twice, gzip (by name and by
//! Content-Encoding), a text sitemap, 404 and 500, HTML served as XML, a gzip bomb, a
//! sitemap robots.txt disallows, URLs on another host; JSON, CSV and text, and the exit
//! status. The library's walk is driven directly too.

use crate::support;

use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

use assert_cmd::Command;
use serde_json::Value;
use support::{Reply, Server};

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(bytes).expect("gzip");
    encoder.finish().expect("gzip")
}

fn xml(status: u16, body: Vec<u8>, extra: Option<(&'static str, &str)>) -> Reply {
    let mut headers = vec![("Content-Type", "application/xml".to_owned())];
    headers.extend(extra.map(|(name, value)| (name, value.to_owned())));
    Reply::Status { status, headers, body }
}

fn urlset(base: &str, paths: &[&str]) -> Vec<u8> {
    let urls: String = paths
        .iter()
        .map(|path| format!("<url><loc>{base}{path}</loc><lastmod>2026-11-01</lastmod></url>"))
        .collect::<Vec<_>>()
        .join("\n");
    format!(
        "<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n{urls}\n</urlset>"
    )
    .into_bytes()
}

fn index(base: &str, paths: &[&str]) -> Vec<u8> {
    let sitemaps: String =
        paths.iter().map(|path| format!("<sitemap><loc>{base}{path}</loc></sitemap>")).collect::<Vec<_>>().join("\n");
    format!("<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">{sitemaps}</sitemapindex>")
        .into_bytes()
}

const ROBOTS: &str =
    "User-agent: *\nDisallow: /private/\nDisallow: /maps/secret.xml\n\nUser-agent: GPTBot\nDisallow: /\n";

/// The site: robots.txt names an index; the index lists a nested index (which lists
/// itself, its parent and a sitemap already listed), a gzipped sitemap, a text one, a
/// 404, a 500 and an HTML page; a gzip body sent with Content-Encoding.
fn site() -> Server {
    let base = Arc::new(std::sync::OnceLock::<String>::new());
    let for_router = Arc::clone(&base);
    let server = Server::start(move |path| {
        let base = for_router.get().expect("base").as_str();
        match path {
            "/robots.txt" => Reply::text(&format!("{ROBOTS}\nSitemap: {base}/maps/index.xml\n")),
            "/maps/index.xml" => xml(
                200,
                index(
                    base,
                    &[
                        "/maps/nested.xml",
                        "/maps/pages.xml.gz",
                        "/maps/text.txt",
                        "/maps/gone.xml",
                        "/maps/broken.xml",
                        "/maps/html.xml",
                    ],
                ),
                None,
            ),
            "/maps/nested.xml" => xml(
                200,
                index(base, &["/maps/nested.xml", "/maps/index.xml", "/maps/pages.xml.gz", "/maps/encoded.xml"]),
                None,
            ),
            "/maps/pages.xml.gz" => xml(200, gzip(&urlset(base, &["/", "/blog/a", "/private/x", "/private/y"])), None),
            "/maps/encoded.xml" => {
                xml(200, gzip(&urlset(base, &["/encoded/1", "/private/z"])), Some(("Content-Encoding", "gzip")))
            }
            "/maps/text.txt" => Reply::text(&format!("{base}/text/1\n\nnot a url\nhttps://elsewhere.example/x\n")),
            "/maps/broken.xml" => Reply::status(500),
            "/maps/html.xml" => Reply::Status {
                status: 200,
                headers: vec![("Content-Type", "text/html".to_owned())],
                body: b"<!DOCTYPE html><html><body>Not found</body></html>".to_vec(),
            },
            // /maps/gone.xml among them.
            _ => Reply::status(404),
        }
    });
    base.set(format!("http://{}", server.addr)).expect("once");
    server
}

fn run(args: &[&str]) -> (String, String, i32) {
    let output = Command::cargo_bin("robotscope").expect("binary").args(args).output().expect("run");
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
        output.status.code().unwrap_or(-1),
    )
}

fn json_lines(text: &str) -> Vec<Value> {
    text.lines().map(|line| serde_json::from_str(line).expect("a JSON line")).collect()
}

#[test]
fn every_sitemap_is_read_once_and_every_url_checked() {
    let server = site();
    let (stdout, stderr, code) = run(&["sitemaps", &server.url("/"), "-a", "Googlebot", "-a", "GPTBot", "--json"]);
    assert_eq!(code, 1, "blocked URLs: exit 1\n{stderr}");
    let records = json_lines(&stdout);
    let sitemap = |path: &str| {
        records
            .iter()
            .find(|r| r["type"] == "sitemap" && r["url"] == server.url(path))
            .unwrap_or_else(|| panic!("no sitemap object for {path}: {stdout}"))
    };
    assert_eq!(sitemap("/maps/index.xml")["sitemaps"], 6);
    assert_eq!(sitemap("/maps/nested.xml")["parent"], server.url("/maps/index.xml"));
    assert_eq!(
        (sitemap("/maps/pages.xml.gz")["urls"].clone(), sitemap("/maps/pages.xml.gz")["gzip"].clone()),
        (4.into(), true.into())
    );
    assert_eq!(sitemap("/maps/encoded.xml")["urls"], 2, "Content-Encoding: gzip is read too");
    assert_eq!(sitemap("/maps/text.txt")["kind"], "text");
    assert_eq!(
        (sitemap("/maps/gone.xml")["status"].clone(), sitemap("/maps/gone.xml")["error"].clone()),
        (404.into(), "HTTP 404 Not Found".into())
    );
    assert_eq!(sitemap("/maps/broken.xml")["status"], 500);
    assert_eq!(sitemap("/maps/html.xml")["error"], "an HTML page, not a sitemap");
    // Each sitemap was asked for once, however often it was listed.
    let asked = server.paths_asked();
    for path in ["/maps/index.xml", "/maps/nested.xml", "/maps/pages.xml.gz"] {
        assert_eq!(asked.iter().filter(|p| *p == path).count(), 1, "{path}: {asked:?}");
    }
    assert!(stderr.contains("listed again were read once"), "{stderr}");
    // One object per URL and robot, with the deciding line and the lastmod.
    let url = |path: &str, agent: &str| {
        records
            .iter()
            .find(|r| r["type"] == "url" && r["url"] == server.url(path) && r["agent"] == agent)
            .unwrap_or_else(|| panic!("no url object for {path} {agent}"))
    };
    assert_eq!(
        (url("/private/x", "Googlebot")["allowed"].clone(), url("/private/x", "Googlebot")["line"].clone()),
        (false.into(), 2.into())
    );
    assert_eq!(url("/blog/a", "Googlebot")["allowed"], true);
    assert_eq!(url("/blog/a", "GPTBot")["line"], 6);
    assert_eq!(url("/blog/a", "Googlebot")["lastmod"], "2026-11-01");
    assert_eq!(url("/blog/a", "Googlebot")["sitemap"], server.url("/maps/pages.xml.gz"));
    assert_eq!(url("/blog/a", "Googlebot")["semantics"], "rfc9309");
    // Issue 24: each sitemap's record comes before the records of its URLs.
    for (at, record) in records.iter().enumerate().filter(|(_, r)| r["type"] == "url") {
        let own = records.iter().position(|r| r["type"] == "sitemap" && r["url"] == record["sitemap"]);
        assert!(own.is_some_and(|own| own < at), "the URL {} came before its sitemap", record["url"]);
    }
    // Issue 35: a URL on another site is that site's robots.txt's: no verdict here.
    let other = records.iter().find(|r| r["url"] == "https://elsewhere.example/x").expect("the other host's URL");
    assert_eq!(other["other_host"], true);
    assert_eq!((&other["allowed"], &other["line"], &other["rule"]), (&Value::Null, &Value::Null, &Value::Null));
    let pages = records.iter().filter(|r| r["type"] == "url").count();
    assert_eq!(pages, 2 * (4 + 2 + 2), "pages.xml.gz, encoded.xml and two URLs of text.txt, for two robots");
}

#[test]
fn text_groups_the_blocked_urls_by_deciding_rule() {
    let server = site();
    let (stdout, _, code) = run(&["sitemaps", &server.url("/"), "-r", "Googlebot"]);
    assert_eq!(code, 1);
    assert!(stdout.contains("Googlebot (RFC 9309): 3 of 7 URLs on this site blocked"), "{stdout}");
    assert!(stdout.contains("  line 2: Disallow: /private/  (3 URLs)"), "{stdout}");
    assert!(stdout.contains(&format!("    {}", server.url("/private/z"))), "{stdout}");
    assert!(stdout.contains("error: HTTP 404"), "{stdout}");
    assert!(stdout.contains("1 URL on another site than the robots.txt's: not judged"), "{stdout}");
    // Issue 35: GPTBot is kept from every URL of this site, not from the other site's.
    let (blocked, _, _) = run(&["sitemaps", &server.url("/"), "-a", "GPTBot", "--blocked"]);
    assert_eq!(blocked.lines().count(), 7, "{blocked}");
    assert!(!blocked.contains("elsewhere.example"), "{blocked}");
    assert!(
        blocked.lines().all(|line| line.starts_with("blocked  GPTBot  ") && line.ends_with("line 6: Disallow: /")),
        "{blocked}"
    );
    let (csv, _, _) = run(&["sitemaps", &server.url("/"), "-a", "bot", "--csv"]);
    assert_eq!(csv.lines().next(), Some("sitemap,url,agent,allowed,semantics,line,rule,lastmod,other_host"));
    assert!(
        csv.contains(&format!(
            "{},{},bot,false,rfc9309,2,Disallow: /private/,2026-11-01,false",
            server.url("/maps/pages.xml.gz"),
            server.url("/private/x")
        )),
        "{csv}"
    );
    assert!(
        csv.contains(&format!("{},https://elsewhere.example/x,bot,,rfc9309,,,,true", server.url("/maps/text.txt"))),
        "no verdict for another site's URL: {csv}"
    );
}

/// A site whose robots.txt keeps GPTBot out of `/maps/` and lists one sitemap there,
/// `/maps/s.xml`, made by `sitemap` from the site's base URL.
fn small_site(sitemap: impl Fn(&str) -> String + Send + Sync + 'static) -> Server {
    let base = Arc::new(std::sync::OnceLock::<String>::new());
    let for_router = Arc::clone(&base);
    let server = Server::start(move |path| {
        let base = for_router.get().expect("base").as_str();
        match path {
            "/robots.txt" => Reply::text(&format!(
                "User-agent: *\nDisallow: /x\n\nUser-agent: GPTBot\nDisallow: /maps/\n\nSitemap: {base}/maps/s.xml\n"
            )),
            "/maps/s.xml" => xml(200, sitemap(base).into_bytes(), None),
            _ => Reply::status(404),
        }
    });
    base.set(format!("http://{}", server.addr)).expect("once");
    server
}

/// Issue 35: the explorer's view says which robots robots.txt keeps from a sitemap, as
/// the command line does.
#[tokio::test]
async fn the_view_says_which_robots_robots_txt_keeps_from_a_sitemap() {
    use robotscope::app::keymap::press;
    use robotscope::app::{Action, App, Effect};
    use robotscope::fetch::{self, Limits, Source};
    use robotscope::robots_db::RobotsDb;
    use support::explorer::draw;

    let server = small_site(|base| format!("<urlset><url><loc>{base}/a</loc></url></urlset>"));
    let (stdout, _, _) = run(&["sitemaps", &server.url("/"), "-a", "GPTBot"]);
    assert!(stdout.contains("robots.txt keeps GPTBot from it (line 5)"), "{stdout}");
    let source = Source::resolve(&server.url("/")).expect("a site");
    let retrieved = fetch::retrieve(source, Limits::default()).await.expect("retrieved");
    let mut app = App::from_retrieved(retrieved, Limits::default(), &RobotsDb::embedded());
    let effects = press(&mut app, "m");
    let [Effect::WalkSitemaps { id, starts, limits }] = effects.as_slice() else { panic!("a walk: {effects:?}") };
    let (sender, mut receiver) = tokio::sync::mpsc::channel(64);
    let walking = tokio::spawn(robotscope::sitemaps::walk(starts.clone(), limits.clone(), sender));
    let mut events = Vec::new();
    while let Some(event) = receiver.recv().await {
        events.push(event);
    }
    app.update(Action::SitemapEvents { id: *id, events });
    app.update(Action::SitemapsWalked { id: *id, walked: walking.await.expect("walk") });
    let view = app.sitemaps_view().expect("open");
    assert_eq!(view.sitemaps[0].kept_from, [("GPTBot".to_owned(), Some(5))]);
    let screen = draw(&mut app, 160, 40).backend().to_string();
    assert!(screen.contains("robots.txt keeps GPTBot from it (line 5)"), "{screen}");
}

/// Issue 35: a remote sitemap's text never reaches a spreadsheet as a live formula.
#[test]
fn csv_cells_from_a_sitemap_are_never_formulas() {
    let server = small_site(|base| {
        format!("<urlset><url><loc>{base}/x</loc><lastmod>=HYPERLINK(\"http://evil.example\")</lastmod></url></urlset>")
    });
    let (csv, stderr, _) = run(&["sitemaps", &server.url("/"), "-a", "bot", "--csv"]);
    assert!(csv.contains("\"'=HYPERLINK(\"\"http://evil.example\"\")\""), "{csv}{stderr}");
    assert!(!csv.contains(",\"=HYPERLINK"), "{csv}");
}

#[test]
fn a_sitemap_robots_txt_disallows_is_flagged() {
    let server = site();
    let secret = server.url("/maps/secret.xml");
    let (stdout, _, _) = run(&["sitemaps", &server.url("/"), "-a", "bot", "--sitemap", &secret, "--json"]);
    let record = json_lines(&stdout).into_iter().find(|r| r["url"] == secret).expect("the secret sitemap");
    assert_eq!(record["blocked_for"], serde_json::json!(["bot"]));
}

#[test]
fn a_gzip_bomb_is_cut_not_inflated() {
    // 200 MB of spaces inside a comment: about 200 KB gzipped.
    let mut bomb = b"<urlset><url><loc>http://127.0.0.1/a</loc></url><!-- ".to_vec();
    bomb.extend(std::iter::repeat_n(b' ', 200 << 20));
    let body = gzip(&bomb);
    assert!(body.len() < 1 << 20);
    let server = Server::start(move |path| match path {
        "/robots.txt" => Reply::text("User-agent: *\nAllow: /\n"),
        _ => xml(200, body.clone(), None),
    });
    let (stdout, stderr, code) =
        run(&["sitemaps", &server.url("/"), "-a", "bot", "--sitemap", &server.url("/bomb.xml.gz")]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("cut at 52428800 bytes uncompressed"), "{stdout}");
}

#[test]
fn limits_stop_the_walk_and_nothing_read_is_an_error() {
    let server = site();
    let (stdout, stderr, _) = run(&["sitemaps", &server.url("/"), "-a", "bot", "--max-urls", "3", "--json"]);
    let records = json_lines(&stdout);
    assert_eq!(records.iter().filter(|r| r["type"] == "url").count(), 3);
    let counted: u64 = records.iter().filter(|r| r["type"] == "sitemap").filter_map(|r| r["urls"].as_u64()).sum();
    assert_eq!(counted, 3, "the sitemaps count the URLs they gave, no more: {stdout}");
    assert!(records.iter().any(|r| r["cut"] == "max-urls"), "{stdout}");
    assert!(stderr.contains("stopped at --max-urls 3"), "{stderr}");
    let empty = Server::start(|path| match path {
        "/robots.txt" => Reply::text("User-agent: *\nAllow: /\n"),
        _ => Reply::status(404),
    });
    let (_, stderr, code) = run(&["sitemaps", &empty.url("/"), "-a", "bot"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("lists no Sitemap; name one with --sitemap URL"), "{stderr}");
    let (_, stderr, code) = run(&["sitemaps", &empty.url("/"), "-a", "bot", "--sitemap", &empty.url("/s.xml")]);
    assert_eq!(code, 2, "a 404 and nothing else read");
    assert!(stderr.contains("no sitemap could be read"), "{stderr}");
}

/// The library's walk: events as they come, each sitemap once.
#[test]
fn the_walk_reports_each_sitemap_once() {
    use robotscope::sitemaps::{Event, WalkLimits, walk};
    let server = site();
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let events = runtime.block_on(async {
        let (sender, mut receiver) = tokio::sync::mpsc::channel(64);
        let start = url::Url::parse(&server.url("/maps/index.xml")).expect("url");
        let walk = tokio::spawn(walk(vec![start], WalkLimits::default(), sender));
        let mut events = Vec::new();
        while let Some(event) = receiver.recv().await {
            events.push(event);
        }
        let walked = walk.await.expect("walk");
        assert_eq!((walked.sitemaps, walked.pages, walked.repeated), (8, 8, 3));
        events
    });
    let finished = events.iter().filter(|e| matches!(e, Event::Finished(_))).count();
    let started = events.iter().filter(|e| matches!(e, Event::Started { .. })).count();
    assert_eq!((started, finished), (8, 8));
}

/// The explorer's view: `m` walks the sitemaps (the walk run here as the event loop runs
/// it), the tree and the blocked URLs by line show, Enter puts a URL in the tester, `R`
/// makes the URLs the compare view's rows.
#[tokio::test]
async fn the_view_shows_the_tree_and_the_blocked_urls() {
    use robotscope::app::keymap::press;
    use robotscope::app::view::sitemaps::SitemapsRow;
    use robotscope::app::{Action, App, Effect, KeyContext, Overlay};
    use robotscope::fetch::{self, Limits, Source};
    use robotscope::robots_db::RobotsDb;
    use robotscope::sitemaps::walk;
    use support::explorer::draw;

    let server = site();
    let source = Source::resolve(&server.url("/")).expect("a site");
    let retrieved = fetch::retrieve(source, Limits::default()).await.expect("retrieved");
    let mut app = App::from_retrieved(retrieved, Limits::default(), &RobotsDb::embedded());
    let effects = press(&mut app, "m");
    assert_eq!(app.key_context(), KeyContext::Overlay(Overlay::Sitemaps));
    let [Effect::WalkSitemaps { id, starts, limits }] = effects.as_slice() else { panic!("a walk: {effects:?}") };
    let (sender, mut receiver) = tokio::sync::mpsc::channel(64);
    let walking = tokio::spawn(walk(starts.clone(), limits.clone(), sender));
    let mut events = Vec::new();
    while let Some(event) = receiver.recv().await {
        events.push(event);
    }
    app.update(Action::SitemapEvents { id: *id, events });
    app.update(Action::SitemapsWalked { id: *id, walked: walking.await.expect("walk") });
    let view = app.sitemaps_view().expect("open");
    assert_eq!((view.sitemaps.len(), view.urls.len(), view.job.is_running()), (8, 8, false));
    // Issue 35: the other site's URL is counted apart, not blocked by this robots.txt.
    assert_eq!(view.other_host, 1);
    let gptbot = view.blocked.iter().find(|b| b.label == "GPTBot").expect("GPTBot is compared");
    assert_eq!(gptbot.count, 7);
    let googlebot = view.blocked.iter().find(|b| b.label == "Googlebot").expect("Googlebot");
    assert_eq!((googlebot.count, googlebot.by_line.keys().copied().collect::<Vec<_>>()), (3, vec![Some(2)]));
    let screen = draw(&mut app, 120, 40).backend().to_string();
    let screen = screen.replace(&server.addr.port().to_string(), "PORT");
    assert!(screen.contains("8 of 8 sitemaps read (3 could not be read) · 8 URLs"), "{screen}");
    assert!(screen.contains("Googlebot: 3 of 7 URLs blocked"), "{screen}");
    assert!(screen.contains("1 URL on another site than the robots.txt's: not judged"), "{screen}");
    insta::assert_snapshot!("sitemaps_view", screen);
    // G puts the last row at the bottom of the rows drawn (paging assumed a smaller
    // pane than the one drawn, and left the last rows empty).
    draw(&mut app, 120, 24);
    press(&mut app, "G");
    let view = app.sitemaps_view().expect("open");
    let (rows, shown) = (view.rows().len(), view.rows_shown.get());
    assert!(rows > shown && shown > 0, "{rows} rows, {shown} shown");
    assert_eq!(view.scroll, rows - shown);
    // A URL GPTBot may not fetch: Enter puts it in the tester, with GPTBot selected.
    let view = app.sitemaps_view().expect("open");
    let row = view
        .rows()
        .iter()
        .position(|row| matches!(row, SitemapsRow::Url(robot, _) if view.blocked[*robot].label == "GPTBot"))
        .expect("a GPTBot row");
    press(&mut app, &format!("g{}<ret>", "j".repeat(row)));
    assert_eq!(app.overlay(), None);
    assert!(app.path().text().starts_with("http://127.0.0.1:"), "{}", app.path().text());
    assert!(!app.evaluation().verdict.allowed(), "the tester shows it blocked");
    assert_eq!(app.robot().profile.name, "GPTBot", "for the robot whose list it was in");
    // Under the robot no group names, Enter tests for the robot selected, and says so
    // (it said nothing, as if the tester showed the list's verdict).
    press(&mut app, "m");
    let view = app.sitemaps_view().expect("open");
    let row = view
        .rows()
        .iter()
        .position(|row| matches!(row, SitemapsRow::Url(robot, _) if view.blocked[*robot].label == "* (any other)"))
        .expect("a row of the robot no group names");
    press(&mut app, &format!("g{}<ret>", "j".repeat(row)));
    assert_eq!(app.overlay(), None);
    assert_eq!(app.robot().profile.name, "GPTBot");
    assert_eq!(
        app.message(),
        Some("Tested for GPTBot: * (any other) is no robot of the switcher (a adds one by name)")
    );
    // R: the listed URLs are the compare view's rows.
    press(&mut app, "mR");
    let compare = app.compare().expect("the compare view");
    assert_eq!(compare.paths.len(), 8);
    assert!(compare.paths.contains(&server.url("/private/z")));
}

fn brotli(bytes: &[u8]) -> Vec<u8> {
    let mut writer = brotli::CompressorWriter::new(Vec::new(), 4096, 5, 22);
    writer.write_all(bytes).expect("brotli");
    writer.into_inner()
}

/// The sitemap records of a `--json` run, by the path of their URL.
fn sitemap_records(stdout: &str) -> std::collections::HashMap<String, Value> {
    json_lines(stdout)
        .into_iter()
        .filter(|record| record["type"] == "sitemap")
        .map(|record| {
            let url = record["url"].as_str().expect("url");
            let path = url.splitn(4, '/').nth(3).map_or_else(String::new, |path| format!("/{path}"));
            (path, record)
        })
        .collect()
}

/// Issue 25: a sitemap that cannot be read says so, never "text, 0 URLs" with exit 0;
/// the encodings crawlers read are read (Content-Encoding br and gzip, UTF-16, a
/// declared ISO-8859-1), and one byte that is not UTF-8 costs only its URL.
#[test]
fn encodings_are_read_or_said_unreadable() {
    let base = Arc::new(std::sync::OnceLock::<String>::new());
    let for_router = Arc::clone(&base);
    let server = Server::start(move |path| {
        let base = for_router.get().expect("base").as_str();
        match path {
            // robots.txt itself sent gzipped, unasked: read as its bytes say.
            "/robots.txt" => Reply::Status {
                status: 200,
                headers: vec![("Content-Type", "text/plain".into()), ("Content-Encoding", "gzip".into())],
                body: gzip(format!("User-agent: *\nDisallow: /private/\nSitemap: {base}/br.xml\n").as_bytes()),
            },
            "/br.xml" => xml(200, brotli(&urlset(base, &["/br/1", "/private/br"])), Some(("Content-Encoding", "br"))),
            "/double.xml.gz" => xml(200, gzip(&gzip(&urlset(base, &["/double/1"]))), None),
            "/utf16.xml" => {
                let text = String::from_utf8(urlset(base, &["/caf\u{e9}", "/b"])).expect("utf-8");
                let utf16: Vec<u8> =
                    [0xFF, 0xFE].into_iter().chain(text.encode_utf16().flat_map(u16::to_le_bytes)).collect();
                xml(200, utf16, None)
            }
            "/latin1.xml" => {
                let mut body = b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><urlset><url><loc>".to_vec();
                body.extend_from_slice(format!("{base}/caf").as_bytes());
                body.extend_from_slice(b"\xe9</loc></url></urlset>");
                xml(200, body, None)
            }
            "/one-bad-byte.xml" => {
                let mut body = b"<urlset><url><loc>".to_vec();
                body.extend_from_slice(format!("{base}/bad").as_bytes());
                body.extend_from_slice(b"\xff</loc></url><url><loc>");
                body.extend_from_slice(format!("{base}/good</loc></url><url><loc>{base}/also-good</loc></url><url><loc>/relative</loc></url></urlset>").as_bytes());
                xml(200, body, None)
            }
            _ => Reply::status(404),
        }
    });
    base.set(server.url("").trim_end_matches('/').to_owned()).expect("set once");
    let mut args = vec!["sitemaps".to_owned(), server.url("/"), "-a".into(), "bot".into(), "--json".into()];
    for path in ["/double.xml.gz", "/utf16.xml", "/latin1.xml", "/one-bad-byte.xml"] {
        args.extend(["--sitemap".to_owned(), server.url(path)]);
    }
    let (stdout, stderr, code) = run(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 1, "/private/br is blocked: {stderr}");
    let records = sitemap_records(&stdout);
    assert_eq!(records["/br.xml"]["urls"], 2, "robots.txt gzipped gave its Sitemap line, br was decoded");
    let double = &records["/double.xml.gz"];
    assert_eq!((double["urls"].as_u64(), double["kind"].is_null()), (Some(0), true), "{double}");
    assert!(double["error"].as_str().is_some_and(|e| e.contains("gzip inside gzip")), "{double}");
    assert_eq!(
        (records["/utf16.xml"]["urls"].as_u64(), records["/utf16.xml"]["encoding"].as_str()),
        (Some(2), Some("UTF-16LE"))
    );
    assert_eq!(records["/latin1.xml"]["encoding"], "windows-1252");
    let urls: Vec<String> = json_lines(&stdout)
        .iter()
        .filter(|record| record["type"] == "url")
        .filter_map(|record| record["url"].as_str())
        .map(|url| url.rsplit('/').next().unwrap_or_default().to_owned())
        .collect();
    assert_eq!(urls.iter().filter(|url| *url == "caf\u{e9}").count(), 2, "é read from UTF-16 and ISO-8859-1: {urls:?}");
    let bad = &records["/one-bad-byte.xml"];
    assert_eq!(bad["urls"], 2, "only the URL with the bad byte is lost: {bad}");
    assert_eq!((bad["skipped"]["undecodable"].as_u64(), bad["skipped"]["not_http"].as_u64()), (Some(1), Some(1)));
    assert!(bad["error"].is_null(), "{bad}");
    // The text says the same in words.
    let (text, _, _) = run(&args.iter().filter(|a| *a != "--json").map(String::as_str).collect::<Vec<_>>());
    assert!(text.contains("error: gzip inside gzip"), "{text}");
    assert!(text.contains("skipped: 1 not http(s), 1 with bytes not of the file's encoding"), "{text}");
    assert!(text.contains("urlset, 1 URL (windows-1252)"), "{text}");
}

/// Issue 25: `--max-time` bounds the whole walk. Eight sitemaps that send a byte a
/// second would take a minute at --timeout 60: the run stops at its deadline, keeps
/// what it read, and says which sitemaps it stopped and which it never read.
#[test]
fn the_whole_walk_has_a_deadline() {
    let base = Arc::new(std::sync::OnceLock::<String>::new());
    let for_router = Arc::clone(&base);
    let server = Server::start(move |path| {
        let base = for_router.get().expect("base").as_str();
        match path {
            "/robots.txt" => {
                let lines = (0..8).map(|n| format!("Sitemap: {base}/slow/{n}.xml\n")).collect::<Vec<_>>().concat();
                Reply::text(&format!("User-agent: *\nDisallow:\nSitemap: {base}/fast.xml\n{lines}"))
            }
            "/fast.xml" => xml(200, urlset(base, &["/a", "/b"]), None),
            _ => Reply::Slow { body: urlset(base, &["/slow"]), gap: Duration::from_secs(1) },
        }
    });
    base.set(server.url("").trim_end_matches('/').to_owned()).expect("set once");
    let (stdout, stderr, code) =
        run(&["sitemaps", &server.url("/"), "-a", "bot", "--timeout", "60", "--max-time", "2s", "--json"]);
    assert_eq!(code, 0, "what was read is reported: {stderr}");
    let records = sitemap_records(&stdout);
    assert_eq!(records.len(), 9, "every sitemap has its record: {stdout}");
    assert_eq!(records["/fast.xml"]["urls"], 2, "read before the deadline, kept");
    let stopped: Vec<&Value> = records.values().filter(|r| r["cut"] == "max-time").collect();
    assert_eq!(stopped.len(), 8, "{stdout}");
    // A limit is no error: `cut` names it, and those never asked for have no status.
    assert!(stopped.iter().all(|r| r["error"].is_null()), "{stdout}");
    let never_read = stopped.iter().filter(|r| r["status"].is_null()).count();
    assert!(never_read >= 4, "four at a time: the rest were never asked for: {stdout}");
    let (text, _, _) = run(&["sitemaps", &server.url("/"), "-a", "bot", "--timeout", "60", "--max-time", "2s"]);
    assert!(text.contains("not read: --max-time 2s came first"), "{text}");
    assert!(text.contains("not read: a limit came first"), "{text}");
    assert!(stderr.contains("stopped at --max-time 2s"), "{stderr}");
    assert!(stderr.contains("raise --max-time to read on"), "{stderr}");
}

/// Issue 25: durations that would overflow the clock are refused, not a panic.
#[test]
fn absurd_durations_are_refused() {
    for args in [
        ["--timeout", "18446744073709551615"],
        ["--timeout", "86401"],
        ["--max-time", "0"],
        ["--max-time", "25h"],
        ["--max-time", "forever"],
        ["--max-time", "18446744073709551615"],
    ] {
        let (_, stderr, code) = run(&["sitemaps", "-", "-a", "bot", args[0], args[1]]);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(
            stderr.contains("at most") || stderr.contains("not a duration") || stderr.contains("1s or more"),
            "{stderr}"
        );
    }
}

/// Issue 25: a chain of nested indexes prints in linear size (depth as a number past a
/// few levels), and ten thousand Sitemap lines naming three sitemaps read three.
#[test]
fn deep_indexes_and_repeated_lines_stay_small() {
    const DEPTH: usize = 300;
    let base = Arc::new(std::sync::OnceLock::<String>::new());
    let for_router = Arc::clone(&base);
    let server = Server::start(move |path| {
        let base = for_router.get().expect("base").as_str();
        match path.strip_prefix("/index/").and_then(|n| n.strip_suffix(".xml")).and_then(|n| n.parse::<usize>().ok()) {
            Some(n) if n < DEPTH => xml(200, index(base, &[&format!("/index/{}.xml", n + 1)]), None),
            Some(_) => xml(200, urlset(base, &["/deep"]), None),
            None if path == "/robots.txt" => {
                // Ten thousand lines: the 500 KiB robots read holds them whole.
                let lines = (0..10_000)
                    .map(|n| format!("Sitemap: {base}/index/{}.xml\n", n % 3 * DEPTH))
                    .collect::<Vec<_>>()
                    .concat();
                Reply::text(&format!("User-agent: *\nDisallow:\n{lines}"))
            }
            None => Reply::status(404),
        }
    });
    base.set(server.url("").trim_end_matches('/').to_owned()).expect("set once");
    let (stdout, stderr, code) = run(&["sitemaps", &server.url("/"), "-a", "bot"]);
    assert_eq!(code, 0, "{stderr}");
    // The lines name 0, 300 and 600: 0 walks down to 299, whose 300 was read already
    // (robots.txt named it); 600 is a sitemap of its own.
    let unread: Vec<&str> = stdout.lines().filter(|line| line.contains("error")).collect();
    assert!(stdout.starts_with(&format!("{} sitemaps", DEPTH + 2)), "{unread:?}");
    let longest = stdout.lines().map(str::len).max().unwrap_or(0);
    assert!(longest < 200, "no line grows with the depth: {longest} bytes");
    assert!(stdout.contains(&format!("[depth {}] ", DEPTH - 1)), "the depth as a number");
}
