//! Page policy against a real HTTP server on 127.0.0.1: pages with and without robots
//! META tags and X-Robots-Tag headers, a PDF, a page robots.txt disallows, a huge page
//! and malformed HTML; through the library, `robotscope page --json` and the explorer.
// The binary and its layers: built with the default `tool` feature only.

use crate::support;

use std::time::Duration;

use assert_cmd::Command;
use robotscope::fetch::{self, Limits};
use robotscope::policy::UrlMode;
use robotscope::policy::{Because, Contradictions, PagePolicy, PageSignals, TermSource, page_policy};
use robotscope::policy::{Reading, Robot};
use robotscope::robots_db::RobotsDb;
use serde_json::Value;
use support::{Reply, Server};
use url::Url;

const ROBOTS_TXT: &str = "User-agent: *\nDisallow: /private/\n";

fn html(body: &str) -> Reply {
    html_with(body, &[])
}

fn html_with(body: &str, headers: &[&str]) -> Reply {
    let mut all = vec![("Content-Type", "text/html; charset=utf-8".to_owned())];
    all.extend(headers.iter().map(|value| ("X-Robots-Tag", (*value).to_owned())));
    Reply::Status { status: 200, headers: all, body: body.as_bytes().to_vec() }
}

fn page(head: &str) -> Reply {
    html(&format!("<!DOCTYPE html>\n<html>\n<head>\n<title>t</title>\n{head}\n</head>\n<body>hi</body>\n</html>\n"))
}

/// A page telling robots `noindex` in UTF-16 little-endian, with or without a byte
/// order mark.
fn utf16_page(content_type: &str, bom: bool) -> Reply {
    let text = "<html>\n<head>\n<meta name=\"robots\" content=\"noindex\">\n</head></html>";
    let bom: &[u8] = if bom { &[0xFF, 0xFE] } else { &[] };
    let body = bom.iter().copied().chain(text.encode_utf16().flat_map(u16::to_le_bytes)).collect();
    Reply::Status { status: 200, headers: vec![("Content-Type", content_type.to_owned())], body }
}

/// The test site: one page per case of issue 7.
fn site() -> Server {
    Server::start(|path| match path {
        "/robots.txt" => Reply::text(ROBOTS_TXT),
        "/plain" => page(""),
        // The page robots.txt keeps robots out of says noindex too.
        "/noindex" | "/private/secret" => page(r#"<meta name="robots" content="noindex">"#),
        "/upper" => page(r#"<META NAME="ROBOTS" CONTENT="NOINDEX,NOFOLLOW">"#),
        "/none" => page(r#"<meta name="robots" content="none">"#),
        "/all" => page(r#"<meta name="robots" content="all">"#),
        "/contradicting" => page(r#"<meta name="robots" content="index, noindex, follow, nofollow">"#),
        "/for-googlebot" => page(
            "<meta name=\"googlebot\" content=\"noindex\">\n<meta name=\"robots\" content=\"nofollow, noarchive\">",
        ),
        "/header" => html_with("<p>no tags</p>", &["noindex"]),
        "/header-agents" => {
            html_with("<p>no tags</p>", &["googlebot: noindex, nosnippet", "bingbot: nofollow", "max-snippet: 20"])
        }
        "/report.pdf" => Reply::Status {
            status: 200,
            headers: vec![
                ("Content-Type", "application/pdf".to_owned()),
                ("X-Robots-Tag", "noindex, nofollow".to_owned()),
            ],
            body: b"%PDF-1.4\n<meta name=robots content=all>\n%%EOF".to_vec(),
        },
        "/huge" => Reply::Huge {
            content_type: "text/html",
            head: b"<html><head><title>big</title>".to_vec(),
            filler: b"<!-- padding padding padding padding -->\n".repeat(100),
            bytes: 8 * 1024 * 1024,
        },
        "/malformed" => html(
            "<html><head><meta name=robots content=noindex<body><p>unclosed <div><meta name=ROBOTS content=NOFOLLOW",
        ),
        // UTF-16 pages: one says so with a byte order mark, one in its Content-Type.
        "/utf16-bom" => utf16_page("text/html", true),
        "/utf16-declared" => utf16_page("text/html; charset=UTF-16LE", false),
        "/moved" => Reply::Redirect { status: 301, location: "/private/secret".to_owned() },
        _ => Reply::status(404),
    })
}

fn limits() -> Limits {
    Limits { timeout: Duration::from_secs(10), ..Limits::default() }
}

async fn signals(server: &Server, path: &str) -> PageSignals {
    let fetched = fetch::fetch(&Url::parse(&server.url(path)).expect("url"), &limits()).await.expect("fetched");
    PageSignals::read(fetched.status.code(), &fetched.headers, &fetched.body)
}

/// The policy for Googlebot under RFC 9309, given whether it may crawl.
async fn googlebot(server: &Server, path: &str, crawl: bool) -> PagePolicy {
    let robot = RobotsDb::embedded().find("Googlebot").expect("profile").robot();
    page_policy(&signals(server, path).await, &robot, Contradictions::MostRestrictive, crawl)
}

fn answers(policy: &PagePolicy) -> (Option<bool>, Option<bool>) {
    (policy.index.as_ref().map(|a| a.allowed), policy.follow.as_ref().map(|a| a.allowed))
}

// --- The library ---------------------------------------------------------------------

#[tokio::test]
async fn meta_terms_decide_index_and_follow() {
    let server = site();
    for (path, expected) in [
        ("/plain", (Some(true), Some(true))),
        ("/noindex", (Some(false), Some(true))),
        ("/upper", (Some(false), Some(false))),
        ("/none", (Some(false), Some(false))),
        ("/all", (Some(true), Some(true))),
    ] {
        assert_eq!(answers(&googlebot(&server, path, true).await), expected, "{path}");
    }
    let plain = googlebot(&server, "/plain", true).await;
    assert_eq!(plain.index.expect("index").because, Because::Default);
    let noindex = googlebot(&server, "/noindex", true).await;
    let Because::Terms(terms) = noindex.index.expect("index").because else { panic!("decided by terms") };
    assert_eq!(terms[0].source, TermSource::Meta { line: 5, name: "robots".to_owned() });
}

#[tokio::test]
async fn pages_are_decoded_as_browsers_decode_them() {
    let server = site();
    for path in ["/utf16-bom", "/utf16-declared"] {
        let page = signals(&server, path).await;
        assert_eq!(page.meta.len(), 1, "{path}: {:?}", page.meta);
        assert_eq!((page.meta[0].line, page.meta[0].content.as_str()), (3, "noindex"), "{path}");
        assert_eq!(answers(&googlebot(&server, path, true).await), (Some(false), Some(true)), "{path}");
    }
}

#[tokio::test]
async fn contradictions_follow_the_robots_rule_and_are_flagged() {
    let server = site();
    let page = signals(&server, "/contradicting").await;
    let robot = Robot::from_agent("Googlebot");
    let today = page_policy(&page, &robot, Contradictions::of(Reading::Rfc9309), true);
    assert_eq!(answers(&today), (Some(false), Some(false)));
    assert_eq!(today.conflicts.len(), 2, "{:?}", today.conflicts);
    let db = RobotsDb::embedded();
    let scooter = db.find("Scooter").expect("profile");
    let classic = page_policy(&page, &scooter.robot(), Contradictions::of(scooter.reading), true);
    assert_eq!(answers(&classic), (Some(true), Some(true)), "the 1996 rule: shown as INDEX, FOLLOW");
    assert!(classic.conflicts.iter().all(|c| c.contains("leaves it to the robot")));
}

#[tokio::test]
async fn robot_specific_tags_apply_to_that_robot_only() {
    let server = site();
    let page = signals(&server, "/for-googlebot").await;
    let db = RobotsDb::embedded();
    let policy = |name: &str| {
        let robot = db.find(name).expect("profile").robot();
        answers(&page_policy(&page, &robot, Contradictions::MostRestrictive, true))
    };
    assert_eq!(policy("Googlebot"), (Some(false), Some(false)));
    assert_eq!(policy("Googlebot-Image"), (Some(false), Some(false)), "it obeys Googlebot's, as in robots.txt");
    assert_eq!(policy("bingbot"), (Some(true), Some(false)));
}

#[tokio::test]
async fn headers_with_and_without_an_agent_prefix() {
    let server = site();
    assert_eq!(answers(&googlebot(&server, "/header", true).await), (Some(false), Some(true)));
    let page = signals(&server, "/header-agents").await;
    assert_eq!(page.headers.len(), 3, "several X-Robots-Tag headers are all read");
    let db = RobotsDb::embedded();
    let for_robot = |name: &str| {
        page_policy(&page, &db.find(name).expect("profile").robot(), Contradictions::MostRestrictive, true)
    };
    let google = for_robot("Googlebot");
    assert_eq!(answers(&google), (Some(false), Some(true)));
    let terms: Vec<String> = google.terms.iter().map(|t| t.term.to_string()).collect();
    assert_eq!(terms, ["noindex", "nosnippet", "max-snippet:20"]);
    assert_eq!(answers(&for_robot("bingbot")), (Some(true), Some(false)));
    assert_eq!(answers(&for_robot("GPTBot")), (Some(true), Some(true)));
}

#[tokio::test]
async fn a_pdf_speaks_through_its_headers_only() {
    let server = site();
    let pdf = signals(&server, "/report.pdf").await;
    assert!(!pdf.html);
    assert!(pdf.meta.is_empty(), "a PDF's bytes are not HTML");
    assert_eq!(answers(&googlebot(&server, "/report.pdf", true).await), (Some(false), Some(false)));
}

#[tokio::test]
async fn a_disallowed_pages_noindex_is_never_seen_and_we_say_so() {
    let server = site();
    let policy = googlebot(&server, "/private/secret", false).await;
    assert_eq!(answers(&policy), (None, None));
    assert!(policy.notes[0].contains("never sees noindex"), "{:?}", policy.notes);
    assert!(policy.notes[0].contains("from links"));
}

#[tokio::test]
async fn a_huge_page_is_cut_at_the_cap() {
    let server = site();
    let limits = Limits { max_bytes: 64 * 1024, ..limits() };
    let fetched =
        fetch::fetch_page(&Url::parse(&server.url("/huge")).expect("url"), &limits, None).await.expect("fetched");
    let page = fetched.page.as_ref().expect("fetched");
    assert!(page.truncated);
    assert_eq!(page.body.len(), 64 * 1024);
    assert!(fetched.notes(&limits)[0].contains("META tags after them are not seen"));
    assert!(server.body_bytes_sent() < 8 * 1024 * 1024, "the rest is never downloaded");
}

#[tokio::test]
async fn malformed_html_is_read_as_a_browser_reads_it() {
    let server = site();
    let page = signals(&server, "/malformed").await;
    // The first tag swallows `<body` as part of its content value, as html5ever (and
    // every browser) parse it; the unclosed last tag is dropped at end of input.
    assert_eq!(page.meta.len(), 1, "{:?}", page.meta);
    assert_eq!(page.meta[0].content, "noindex<body");
    assert!(!page.meta[0].terms[0].is_known());
}

// --- The command line ----------------------------------------------------------------

fn page_json(args: &[&str]) -> (Vec<Value>, i32) {
    let output =
        Command::cargo_bin("robotscope").expect("binary").arg("page").args(args).arg("--json").output().expect("run");
    let records = String::from_utf8(output.stdout)
        .expect("utf-8")
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON object per line"))
        .collect();
    (records, output.status.code().unwrap_or(-1))
}

#[test]
fn the_command_prints_one_object_per_robot() {
    let server = site();
    let (records, status) = page_json(&[&server.url("/for-googlebot"), "-r", "Googlebot", "-r", "bingbot"]);
    assert_eq!(status, 1, "a robot may not index the page");
    assert_eq!(records.len(), 2);
    let google = &records[0];
    assert_eq!(google["agent"], "Googlebot");
    assert_eq!(google["url"], server.url("/for-googlebot"));
    assert_eq!(
        (google["crawl"].clone(), google["index"].clone(), google["follow"].clone()),
        (true.into(), false.into(), false.into())
    );
    assert_eq!(google["terms"], serde_json::json!(["noindex", "nofollow", "noarchive"]));
    assert_eq!(
        google["sources"][0],
        serde_json::json!({"from": "meta", "term": "noindex", "line": 5, "name": "googlebot"})
    );
    let bing = &records[1];
    assert_eq!((bing["index"].clone(), bing["follow"].clone()), (true.into(), false.into()));
}

#[test]
fn the_command_reads_headers_and_nulls_what_a_robot_never_sees() {
    let server = site();
    let (records, _) = page_json(&[&server.url("/header-agents"), "-a", "Googlebot"]);
    assert_eq!(
        records[0]["sources"][0],
        serde_json::json!({"from": "header", "term": "noindex", "value": "googlebot: noindex, nosnippet", "agent": "googlebot"})
    );
    // robotscope obeys robots.txt: a page every robot asked about is kept out of is not
    // fetched (issue 12), and the answer says so.
    let (records, status) = page_json(&[&server.url("/private/secret"), "-a", "Googlebot"]);
    assert_eq!(status, 1);
    assert_eq!((records[0]["crawl"].clone(), records[0]["index"].clone()), (false.into(), Value::Null));
    assert_eq!((records[0]["crawl_line"].clone(), records[0]["status"].clone()), (2.into(), Value::Null));
    assert!(records[0]["notes"][0].as_str().expect("note").contains("did not fetch"), "{}", records[0]["notes"]);
    assert!(!server.paths_asked().contains(&"/private/secret".to_owned()), "the page was never requested");
    // Unless told to ignore it: then the noindex a polite robot never sees is shown.
    let (records, _) = page_json(&[&server.url("/private/secret"), "-a", "Googlebot", "--ignore-robots-txt"]);
    assert_eq!(records[0]["status"], 200);
    let notes = records[0]["notes"].to_string();
    assert!(notes.contains("never sees noindex"), "{notes}");
}

#[test]
fn a_redirect_is_checked_against_robots_txt_too() {
    let server = site();
    let (records, _) = page_json(&[&server.url("/moved"), "-a", "Googlebot"]);
    assert_eq!(records[0]["crawl"], false, "the redirect leads into /private/");
    let notes = records[0]["notes"].to_string();
    assert!(notes.contains("robotscope stopped there"), "the redirect into /private/ is not followed: {notes}");
    assert!(!server.paths_asked().iter().any(|p| p.starts_with("/private/")), "{:?}", server.paths_asked());
    let (records, _) = page_json(&[&server.url("/moved"), "-a", "Googlebot", "--ignore-robots-txt"]);
    assert!(records[0]["notes"].to_string().contains("answered 301"));
}

/// A page on the test site that redirects to another site, whose own robots.txt keeps
/// robots out of `/blocked`: the robot may fetch the first URL but not the second.
#[tokio::test]
async fn a_redirect_to_another_site_is_checked_against_that_sites_robots_txt() {
    let elsewhere = Server::start(|path| match path {
        "/robots.txt" => Reply::text("User-agent: *\nDisallow: /blocked\n"),
        _ => page(r#"<meta name="robots" content="noarchive">"#),
    });
    let (blocked, open) = (elsewhere.url("/blocked"), elsewhere.url("/open"));
    let server = Server::start(move |path| match path {
        "/robots.txt" => Reply::text(ROBOTS_TXT),
        "/to-blocked" => Reply::Redirect { status: 302, location: blocked.clone() },
        "/to-open" => Reply::Redirect { status: 302, location: open.clone() },
        _ => Reply::status(404),
    });
    let txt = robotscope::policy::RobotsTxt::parse(ROBOTS_TXT.as_bytes().to_vec());
    let robot = Robot::from_agent("Googlebot");
    let available = robotscope::policy::Availability::Available;

    let fetched =
        fetch::fetch_page(&Url::parse(&server.url("/to-blocked")).expect("url"), &limits(), None).await.expect("page");
    assert_eq!(fetched.other_sites.len(), 1, "the other site's robots.txt was read");
    assert_eq!(fetched.other_sites[0].robots_url.as_str(), elsewhere.url("/robots.txt"));
    let answer = fetched.answer(&txt, available, &robot, Reading::Rfc9309, UrlMode::AsCrawlersSend);
    assert!(answer.crawl.requested.allowed(), "this site allows the URL asked for");
    assert!(!answer.crawl.allowed() && !answer.policy.crawl, "the other site disallows where it leads");
    let blocked = answer.crawl.blocked_redirect.as_ref().expect("the blocking redirect");
    assert_eq!(blocked.url.as_str(), elsewhere.url("/blocked"));
    assert_eq!(blocked.verdict.decided_by().map(|m| m.line()), Some(2));
    assert!(answer.crawl.explanation().contains(&elsewhere.url("/robots.txt")), "{}", answer.crawl.explanation());
    assert!(fetched.notes(&limits()).iter().any(|note| note.contains("200 OK")), "{:?}", fetched.notes(&limits()));

    let fetched =
        fetch::fetch_page(&Url::parse(&server.url("/to-open")).expect("url"), &limits(), None).await.expect("page");
    let answer = fetched.answer(&txt, available, &robot, Reading::Rfc9309, UrlMode::AsCrawlersSend);
    assert!(answer.crawl.allowed() && answer.policy.index.is_some_and(|index| index.allowed));

    // The same through the binary (its own runtime, so off this test's).
    let url = server.url("/to-blocked");
    let (records, status) =
        tokio::task::spawn_blocking(move || page_json(&[&url, "-a", "Googlebot"])).await.expect("the command ran");
    assert_eq!(status, 1);
    assert_eq!(records[0]["crawl"], false);
    let notes = records[0]["notes"].as_array().expect("notes");
    assert!(notes.iter().any(|note| note.as_str().is_some_and(|n| n.contains("Disallow: /blocked"))), "{notes:?}");
}

#[test]
fn the_text_output_shows_the_tags_and_each_robots_answers() {
    let server = site();
    let output = Command::cargo_bin("robotscope")
        .expect("binary")
        .args(["page", &server.url("/contradicting"), "-r", "Googlebot", "-r", "Scooter"])
        .output()
        .expect("run");
    let text = String::from_utf8(output.stdout).expect("utf-8");
    assert!(text.contains(r#"line 5    <meta name="robots" content="index, noindex, follow, nofollow">"#), "{text}");
    assert!(text.contains("Googlebot · RFC 9309\n  crawl     yes"), "{text}");
    assert!(text.contains("index     no   noindex from META"), "{text}");
    assert!(text.contains("Scooter · 1996 draft"), "{text}");
    assert!(text.contains("conflict  index: the page says both index"), "{text}");
}

#[test]
fn a_file_is_not_a_page() {
    let file = tempfile::NamedTempFile::with_suffix(".txt").expect("temp file");
    let output = Command::cargo_bin("robotscope")
        .expect("binary")
        .args(["page", file.path().to_str().expect("path")])
        .output()
        .expect("run");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("not a page"));
}

#[tokio::test]
async fn a_robots_txt_served_as_html_has_its_meta_tag_reported() {
    let server = Server::start(|_| {
        html("<!DOCTYPE html>\n<html><head>\n<meta name=\"robots\" content=\"noodp,noydir\">\n</head></html>")
    });
    let url = Url::parse(&server.url("/robots.txt")).expect("url");
    let fetched = fetch::fetch(&url, &limits()).await.expect("fetched");
    let warnings = fetched.warnings(&limits());
    let warnings: Vec<String> = warnings.iter().map(ToString::to_string).collect();
    assert!(warnings[0].contains("HTML page"), "{warnings:?}");
    assert!(
        warnings.iter().any(|w| w.contains(r#"<meta name="robots" content="noodp,noydir"> on line 3"#)
            && w.contains("speaks for that page only")),
        "{warnings:?}"
    );
}

// --- The explorer --------------------------------------------------------------------

mod explorer {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use robotscope::app::keymap::press;
    use robotscope::app::view::page::PageState;
    use robotscope::app::{Action, App, Effect};
    use robotscope::fetch::{self, Limits, Source};
    use robotscope::robots_db::RobotsDb;

    use super::support;
    use super::support::explorer::draw;
    use super::{limits, site};

    /// The explorer on the test site's robots.txt, testing `path`.
    async fn explorer_on(server: &super::Server, path: &str) -> App {
        let source = Source::resolve(&server.url(path)).expect("a site");
        let retrieved = fetch::retrieve(source, limits()).await.expect("retrieved");
        App::from_retrieved(retrieved, limits(), &RobotsDb::embedded())
    }

    /// Runs the effects an action returned, the way the event loop does for a page.
    async fn press_p(app: &mut App) {
        let effects = press(app, "p");
        let [Effect::FetchPage { id, url, limits, obey }] = effects.as_slice() else {
            panic!("a page fetch: {effects:?}")
        };
        let result = fetch::fetch_page(url, limits, obey.as_deref()).await;
        app.update(Action::PageFetched { id: *id, result: Box::new(result) });
    }

    #[tokio::test]
    async fn p_shows_the_tested_pages_policy_for_each_robot() {
        let server = site();
        let mut app = explorer_on(&server, "/for-googlebot").await;
        press_p(&mut app).await;
        let rows = app.page_rows();
        assert_eq!(rows[0].label, "Googlebot");
        assert!(rows[0].selected);
        assert_eq!(rows[0].policy.index.as_ref().map(|a| a.allowed), Some(false));
        let bing = rows.iter().find(|row| row.label == "bingbot").expect("bingbot is compared");
        assert_eq!(bing.policy.index.as_ref().map(|a| a.allowed), Some(true));
        let terminal = draw(&mut app, 120, 40);
        // The status bar under the overlay carries the robots.txt fetch's time: leave it
        // out. The page's own time is filtered, with the padding after it (its digits vary).
        let screen = terminal.backend().to_string();
        let overlay = screen.lines().take(39).collect::<Vec<_>>().join("\n");
        // Above the status line, as the other views are (it covered it).
        let status = screen.lines().last().expect("a screen");
        assert!(status.contains("│ RFC 9309"), "the status bar shows: {status}");
        assert!(overlay.lines().last().is_some_and(|line| line.starts_with("\"└")), "{overlay}");
        insta::with_settings!({ filters => vec![(r"127\.0\.0\.1:\d+", "127.0.0.1:PORT"), (r"in \d+ ms · ([^│]*?) *│", "in N ms · $1 │")] }, {
            insta::assert_snapshot!(overlay);
        });
        // Another robot: answered again from the page already fetched.
        press(&mut app, "]");
        assert_eq!(app.page_rows()[0].label, "Googlebot-Image");
        press(&mut app, "p");
        assert!(app.page_view().is_none(), "p again closes it");
    }

    /// From the review of issue 26: on a terminal small enough to scroll the overlay,
    /// `k` after `G` moves at once (the scroll ran past the last line), and `g` is the
    /// top.
    #[tokio::test]
    async fn the_overlay_scrolls_back_at_once_from_its_end() {
        let server = site();
        let mut app = explorer_on(&server, "/for-googlebot").await;
        press_p(&mut app).await;
        draw(&mut app, 60, 20);
        press(&mut app, "G");
        draw(&mut app, 60, 20);
        let end = app.page_view().expect("open").scroll;
        assert!(end > 0 && end < 200, "G scrolls to the last line drawn, not past it: {end}");
        press(&mut app, "k");
        assert_eq!(app.page_view().expect("open").scroll, end - 1);
        press(&mut app, "jjjGg");
        assert_eq!(app.page_view().expect("open").scroll, 0);
    }

    /// The overlay shows the page's Content-Usage header and, for the selected robot,
    /// the usage preferences it combines with robots.txt's.
    #[tokio::test]
    async fn the_overlay_combines_the_content_usage_header_with_robots_txt() {
        let server = super::Server::start(|path| match path {
            "/robots.txt" => super::Reply::text(
                "User-agent: *\nContent-Signal: search=yes, ai-train=yes\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /\n",
            ),
            _ => super::Reply::Status {
                status: 200,
                headers: vec![("Content-Type", "text/html".to_owned()), ("Content-Usage", "train-ai=n".to_owned())],
                body: b"<html><head><title>t</title></head><body>hi</body></html>".to_vec(),
            },
        });
        let mut app = explorer_on(&server, "/article").await;
        press_p(&mut app).await;
        let rows = app.page_rows();
        let usage = rows[0].usage.as_ref().expect("Googlebot may fetch the page");
        assert_eq!(
            usage.to_string(),
            "train-ai disallowed (Content-Usage header) · search allowed (line 2) · ai-input unknown"
        );
        let gptbot = rows.iter().find(|row| row.label == "GPTBot").expect("GPTBot is compared");
        assert_eq!(gptbot.usage, None, "a robot kept out has no preferences, whatever the header says");
        let screen = draw(&mut app, 120, 40).backend().to_string();
        assert!(screen.contains("header   Content-Usage: train-ai=n"), "{screen}");
        assert!(screen.contains("usage    train-ai disallowed (Content-Usage header)"), "{screen}");
    }

    #[tokio::test]
    async fn edits_to_robots_txt_change_the_crawl_answer_without_a_new_fetch() {
        let server = site();
        let mut app = explorer_on(&server, "/private/secret").await;
        press_p(&mut app).await;
        assert!(!app.page_rows()[0].policy.crawl);
        let view = app.page_view().expect("open");
        assert!(
            matches!(&view.state, PageState::Fetched { fetched, .. } if fetched.page.is_none()),
            "obeyed: not fetched"
        );
        // Comment out the Disallow line in the editor, then ask again: now it is fetched.
        press(&mut app, "pe<down>");
        app.update(Action::Paste("# ".to_owned()));
        press(&mut app, "<esc>");
        assert!(String::from_utf8_lossy(app.document().txt.source()).contains("# Disallow: /private/"));
        press_p(&mut app).await;
        press(&mut app, "p");
        assert!(press(&mut app, "p").is_empty(), "fetched once, the page is not fetched again");
        let row = &app.page_rows()[0];
        assert!(row.policy.crawl);
        assert_eq!(row.policy.index.as_ref().map(|a| a.allowed), Some(false), "now the noindex is seen");
    }

    #[tokio::test]
    async fn a_typed_url_works_without_a_site_and_a_bare_path_is_explained() {
        let server = site();
        let mut app = App::example();
        press(&mut app, "p");
        assert!(app.page_view().is_none());
        assert!(app.message().is_some_and(|m| m.contains("type a full URL")), "{:?}", app.message());
        press(&mut app, &format!("/{}<ret>", server.url("/noindex")));
        press_p(&mut app).await;
        let view = app.page_view().expect("open");
        assert!(matches!(view.state, PageState::Fetched { .. }), "{:?}", view.state);
        assert_eq!(app.page_rows()[0].policy.index.as_ref().map(|a| a.allowed), Some(false));
    }

    #[tokio::test]
    async fn the_event_loop_fetches_the_page_in_the_background() {
        let server = site();
        let source = Source::resolve(&server.url("/upper")).expect("a site");
        let app = App::loading(source, Limits::default(), false, &RobotsDb::embedded());
        // p once robots.txt is in; the loop ends once the page is too.
        let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("terminal");
        let app = support::explorer::run_steps_on(&mut terminal, app, vec![support::explorer::when_idle("p")]).await;
        let rows = app.page_rows();
        assert_eq!(rows[0].policy.follow.as_ref().map(|a| a.allowed), Some(false), "NOINDEX,NOFOLLOW");
        let buffer = terminal.backend().buffer();
        let text: String = buffer.content().iter().map(ratatui::buffer::Cell::symbol).collect();
        assert!(text.contains(r#"<meta name="ROBOTS" content="NOINDEX,NOFOLLOW">"#), "{text}");
    }
}

/// A page of nested elements a million deep once took a minute to read: reading stops
/// at the depth bound, the head's tags are still found, and the note says so (issue 12).
#[test]
fn deeply_nested_html_is_read_up_to_a_bound() {
    let html = format!(
        "<html><head><meta name=robots content=noindex></head><body>{}</body></html>",
        "<div>".repeat(1_000_000)
    );
    let (tags, too_deep) = robotscope::policy::read_meta_tags(html.as_bytes(), Some("text/html"));
    assert!(too_deep);
    assert_eq!(tags.len(), 1, "the head's tag is found");
    // Nesting under the bound reads to the end.
    let shallow = format!("<html><body>{}<meta name=robots content=nofollow>", "<div>".repeat(500));
    let (tags, too_deep) = robotscope::policy::read_meta_tags(shallow.as_bytes(), Some("text/html"));
    assert!(!too_deep && tags.len() == 1);

    let body = html.into_bytes();
    let server = Server::start(move |path| match path {
        "/robots.txt" => Reply::text("User-agent: *\nAllow: /\n"),
        _ => Reply::Status { status: 200, headers: vec![("Content-Type", "text/html".into())], body: body.clone() },
    });
    let output = Command::cargo_bin("robotscope")
        .expect("binary")
        .args(["page", &server.url("/deep"), "-a", "bot", "--json", "--max-bytes", "6000000", "--timeout", "20"])
        .output()
        .expect("runs");
    let record: Value = serde_json::from_slice(&output.stdout).expect("one JSON object");
    assert_eq!(record["index"], false);
    assert!(record["notes"].to_string().contains("more than 1024 deep"), "{}", record["notes"]);
}

/// `--timeout` bounds the whole command: a page whose body never ends is cut off.
#[test]
fn the_timeout_bounds_the_whole_page_command() {
    let server = Server::start(|path| match path {
        "/robots.txt" => Reply::text("User-agent: *\nAllow: /\n"),
        _ => Reply::Slow {
            body: b"<html><head><meta name=robots content=noindex>".to_vec(),
            gap: Duration::from_secs(1),
        },
    });
    Command::cargo_bin("robotscope")
        .expect("binary")
        .args(["page", &server.url("/slow"), "-a", "bot", "--timeout", "2"])
        .timeout(Duration::from_secs(60))
        .assert()
        .code(2)
        .stderr(predicates::str::contains("within 2 s"));
}

/// A page's Content-Usage header combines with robots.txt's usage preferences for its
/// path, most restrictive first, and the answer says where each came from.
#[test]
fn the_content_usage_header_combines_with_robots_txt() {
    let server = Server::start(|path| match path {
        "/robots.txt" => Reply::text("User-agent: *\nContent-Signal: search=yes, ai-train=yes\nAllow: /\n"),
        _ => Reply::Status {
            status: 200,
            headers: vec![("Content-Type", "text/html".to_owned()), ("Content-Usage", "train-ai=n".to_owned())],
            body: b"<html><head><title>t</title></head><body>hi</body></html>".to_vec(),
        },
    });
    let (records, _) = page_json(&[&server.url("/article"), "-a", "bot"]);
    assert_eq!(
        records[0]["usage"],
        serde_json::json!({"train-ai": "disallowed", "search": "allowed", "ai-input": "unknown"})
    );
    assert_eq!(records[0]["usage_lines"], serde_json::json!([2]));
    assert_eq!(records[0]["usage_header"], "train-ai=n");
    let output = Command::cargo_bin("robotscope")
        .expect("binary")
        .args(["page", &server.url("/article"), "-a", "bot"])
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains(
            "  usage     train-ai disallowed (Content-Usage header) · search allowed (line 2) · ai-input unknown"
        ),
        "{text}"
    );
}
