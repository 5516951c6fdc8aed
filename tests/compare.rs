//! The compare view and `robotscope compare`: the matrix for the seed files matches the
//! seeds' verdicts cell by cell under every reading; the view moves, highlights and
//! scales; snapshots of the view and of the command's output.
// The binary and its layers: built with the default `tool` feature only.
#![cfg(feature = "tool")]

mod support;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use assert_cmd::Command;
use robotscope::app::keymap::press;
use robotscope::app::{Action, App, KeyContext, Overlay};
use robotscope::policy::Reading;
use serde::Deserialize;
use support::explorer::{draw, select};

#[derive(Deserialize)]
struct Seed {
    robots_txt: String,
    user_agent: String,
    url: String,
    expect: BTreeMap<String, bool>,
}

fn seeds() -> Vec<Seed> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/conformance/seeds.json"))
        .expect("seeds");
    serde_json::from_str(&text).expect("seeds parse")
}

fn robots_file(text: &str) -> tempfile::NamedTempFile {
    let mut file = tempfile::NamedTempFile::new().expect("temp file");
    file.write_all(text.as_bytes()).expect("write");
    file
}

/// For a seed file: every robot and URL its cases name, every reading, one `compare
/// --all-semantics --json` run; each seed's cell must hold the seed's verdict.
fn matrix_matches_the_seeds(marker: &str) {
    let seeds = seeds();
    let text = &seeds.iter().find(|s| s.robots_txt.contains(marker)).expect("the seed file").robots_txt;
    let cases: Vec<&Seed> = seeds.iter().filter(|s| &s.robots_txt == text).collect();
    let file = robots_file(text);
    let mut args =
        vec!["compare".to_owned(), file.path().display().to_string(), "--all-semantics".into(), "--json".into()];
    let mut agents: Vec<&str> = cases.iter().map(|c| c.user_agent.as_str()).collect();
    agents.dedup();
    for agent in &agents {
        args.extend(["-a".to_owned(), (*agent).to_owned()]);
    }
    args.extend(cases.iter().map(|c| c.url.clone()));
    let output = Command::cargo_bin("robotscope").expect("binary").args(&args).output().expect("run");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let cells: Vec<serde_json::Value> =
        String::from_utf8_lossy(&output.stdout).lines().map(|l| serde_json::from_str(l).expect("json")).collect();
    assert!(cells.len() >= cases.len() * 3);
    for case in cases {
        for (reading, expected) in &case.expect {
            let cell = cells
                .iter()
                .find(|c| c["agent"] == case.user_agent && c["url"] == case.url && c["semantics"] == reading.as_str())
                .unwrap_or_else(|| panic!("no cell for {} {} {reading}", case.user_agent, case.url));
            assert_eq!(cell["allowed"], *expected, "{} {} under {reading}", case.user_agent, case.url);
        }
    }
}

#[test]
fn the_sidewinder_gulliver_file() {
    matrix_matches_the_seeds("User-agent: sidewinder");
}

#[test]
fn the_webcrawler_lycra_faq() {
    matrix_matches_the_seeds("User-agent: webcrawler");
}

#[test]
fn the_cybermapper_file() {
    matrix_matches_the_seeds("User-agent: cybermapper");
}

#[test]
fn the_command_prints_a_table_csv_and_json() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/examples/engines.txt");
    let file = file.to_str().expect("utf-8 path");
    let run = |extra: &[&str]| {
        let output = Command::cargo_bin("robotscope")
            .expect("binary")
            .args(["compare", file])
            .args(extra)
            .output()
            .expect("run");
        assert!(output.status.success());
        String::from_utf8(output.stdout).expect("utf-8")
    };
    insta::assert_snapshot!("compare_table", run(&[]));
    insta::assert_snapshot!(
        "compare_csv",
        run(&["-r", "Googlebot-Image", "-r", "AdsBot-Google", "-a", "lycra", "--csv", "/cgi-bin/x", "/index.html"])
    );
    insta::assert_snapshot!(
        "compare_json",
        run(&["-r", "Scooter", "--all-semantics", "--json", "/closeddir/", "/index.html"])
    );
}

#[test]
fn paths_can_come_from_a_file() {
    let paths = robots_file("/tmp/a\n\n/index.html\n");
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/examples/engines.txt");
    let output = Command::cargo_bin("robotscope")
        .expect("binary")
        .args([
            "compare",
            file.to_str().expect("path"),
            "-a",
            "Slurp",
            "--csv",
            "--paths",
            paths.path().to_str().expect("path"),
        ])
        .output()
        .expect("run");
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "\"path\",\"Slurp\"\n\"/tmp/a\",\"disallowed 41\"\n\"/index.html\",\"allowed\"\n"
    );
}

#[test]
fn the_table_says_how_a_path_was_read() {
    let file = robots_file("User-agent: *\nDisallow: /private\n");
    let output = Command::cargo_bin("robotscope")
        .expect("binary")
        .args(["compare", file.path().to_str().expect("path"), "-a", "bot", "private/x", "/a"])
        .output()
        .expect("run");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let rows: Vec<&str> = stdout.lines().skip(1).take(2).map(str::trim_end).collect();
    assert_eq!(rows, ["private/x (as /private/x)  disallowed 2", "/a                         allowed"]);
}

#[test]
fn the_default_rows_stop_at_five_hundred_with_a_note() {
    let rules = (0..600).map(|i| format!("Disallow: /p{i}\n")).collect::<Vec<_>>().concat();
    let file = robots_file(&format!("User-agent: *\n{rules}"));
    let output = Command::cargo_bin("robotscope")
        .expect("binary")
        .args(["compare", file.path().to_str().expect("path"), "-a", "bot", "--csv"])
        .output()
        .expect("run");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(stdout.lines().count(), 1 + 500, "a header and 500 rows");
    assert!(stdout.lines().last().is_some_and(|row| row.starts_with("\"/p499\"")), "{stdout}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("the first 500 paths"));

    let mut app = App::from_text(&format!("User-agent: *\n{rules}"));
    press(&mut app, "c");
    let rows = &app.compare().expect("open").paths;
    assert!(rows.contains(&"/p499".to_owned()) && !rows.contains(&"/p500".to_owned()), "{rows:?}");
    assert!(app.message().is_some_and(|m| m.contains("first 500")), "{:?}", app.message());
}

// --- The view -------------------------------------------------------------------------------

#[test]
fn the_view_opens_with_the_default_robots_and_the_files_paths() {
    let mut app = App::example();
    press(&mut app, "c");
    assert_eq!(app.key_context(), KeyContext::Overlay(Overlay::Compare));
    let view = app.compare().expect("open");
    let labels: Vec<&str> = view.columns.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(labels, ["Googlebot", "bingbot", "Slurp", "Scooter", "GPTBot", "* (any other)"]);
    assert!(view.paths.contains(&"/x.pdf".to_owned()), "{:?}", view.paths);
    insta::assert_snapshot!("compare_view", draw(&mut app, 140, 40).backend());
}

#[test]
fn moving_to_a_cell_highlights_its_line_and_explains_it() {
    let mut app = App::example();
    press(&mut app, "c");
    let gptbot = app.compare().expect("open").columns.iter().position(|c| c.label == "GPTBot").expect("GPTBot");
    press(&mut app, &"l".repeat(gptbot));
    let detail = app.compare().and_then(|v| v.detail.clone()).expect("a detail");
    assert!(!detail.allowed());
    assert_eq!(detail.decided_by().map(|m| m.line()), Some(29));
    assert_eq!(app.shown_verdict().decided_by().map(|m| m.line()), Some(29), "the source highlights the cell's line");
    let view = app.source_view();
    assert!(view.offset <= 28 && 28 < view.offset + app.areas().inner_height(robotscope::app::Pane::Source));
    press(&mut app, "c");
    assert_ne!(
        app.shown_verdict().decided_by().map(|m| m.line()),
        Some(29),
        "closed, the tester's verdict is shown again"
    );
}

#[test]
fn one_robots_three_readings_as_columns() {
    let mut app = App::from_text("User-agent: webcrawler\n\nUser-agent: lycra\nDisallow: /\n");
    press(&mut app, "c");
    select(&mut app, "WebCrawler");
    press(&mut app, "m");
    let view = app.compare().expect("open");
    assert_eq!(view.columns.len(), 3);
    let readings: Vec<Reading> = view.columns.iter().map(|c| c.reading).collect();
    assert_eq!(readings, Reading::ALL);
    assert!(view.columns.iter().all(|c| c.label == "WebCrawler"));
    let path = &robotscope::policy::request::Request::read(&view.paths[0]).tested().to_owned();
    let verdicts: Vec<bool> =
        view.columns.iter().map(|c| c.check(app.document().availability, path).allowed()).collect();
    assert_eq!(verdicts, [false, true, true], "the readings disagree on webcrawler");
    let screen = format!("{}", draw(&mut app, 120, 40).backend());
    assert!(screen.contains("Compare · WebCrawler's 3 readings"), "{screen}");
    assert!(screen.contains("rfc9309     draft1996   koster1994"), "{screen}");
    press(&mut app, "m");
    assert!(app.compare().expect("open").columns.len() > 3);
}

#[test]
fn the_robots_compared_are_chosen_in_the_switcher() {
    let mut app = App::example();
    select(&mut app, "Lycos");
    let lycos_row = |app: &mut App| {
        let screen = format!("{}", draw(app, 120, 40).backend());
        screen.lines().find(|line| line.contains("Lycos")).map(str::to_owned).expect("Lycos is listed")
    };
    assert!(!lycos_row(&mut app).contains('◆'), "not compared yet");
    press(&mut app, "<tab><tab><tab><space>"); // to the robots pane, then Space
    assert!(lycos_row(&mut app).contains('◆'), "the switcher marks a compared robot");
    press(&mut app, "c");
    let labels: Vec<String> = app.compare().expect("open").columns.iter().map(|c| c.label.clone()).collect();
    assert_eq!(labels.last().map(String::as_str), Some("Lycos"), "{labels:?}");
    press(&mut app, "c");

    select(&mut app, "GPTBot");
    press(&mut app, "<tab><tab><tab><space>"); // to the robots pane, then Space
    press(&mut app, "c");
    let labels: Vec<String> = app.compare().expect("open").columns.iter().map(|c| c.label.clone()).collect();
    assert!(!labels.contains(&"GPTBot".to_owned()) && labels.contains(&"Lycos".to_owned()), "{labels:?}");
}

#[test]
fn columns_and_rows_can_be_edited() {
    let mut app = App::example();
    press(&mut app, "c");
    let before = app.compare().expect("open").columns.len();
    press(&mut app, "x");
    assert_eq!(app.compare().expect("open").columns.len(), before - 1);
    press(&mut app, "//brand/new<ret>");
    let view = app.compare().expect("open");
    assert_eq!(view.paths[view.cursor.0], "/brand/new");
    assert_eq!(view.detail.as_ref().map(robotscope::Verdict::path), Some("/brand/new"));
}

#[test]
fn profiles_are_honoured_and_explained_in_the_cells() {
    let text = "User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nDisallow: /private/\n";
    let mut app = App::from_text(text);
    press(&mut app, "c");
    for name in ["Googlebot-Image", "AdsBot-Google", "Google-Extended"] {
        select(&mut app, name);
    }
    let view = app.compare().expect("open");
    let cell = |label: &str, path: &str| {
        let column = view.columns.iter().find(|c| c.label == label).expect("column");
        column.check(app.document().availability, path).allowed()
    };
    assert!(cell("Googlebot-Image", "/images/a.png"), "falls back to Googlebot's group");
    assert!(!cell("Googlebot-Image", "/private/a"));
    assert!(cell("AdsBot-Google", "/anything"), "ignores the * group");
    assert!(!cell("Google-Extended", "/anything"), "a control token gets the * group like any token");
    let screen = format!("{}", draw(&mut app, 160, 40).backend());
    assert!(screen.contains("fetches nothing"), "the control token is explained in the cell's detail");
}

#[test]
fn fifty_robots_by_ten_thousand_paths_draw_only_what_shows() {
    let mut app = App::example();
    press(&mut app, "c");
    let names: Vec<String> = app.robots().iter().take(50).map(|e| e.profile.name.clone()).collect();
    for name in &names {
        select(&mut app, name);
    }
    app.update(Action::PathsRead {
        file: "paths.txt".into(),
        result: Ok((0..10_000).map(|i| format!("/page/{i}")).collect()),
    });
    let view = app.compare().expect("open");
    assert!(view.columns.len() >= 50 && view.paths.len() == 10_000);
    press(&mut app, "G");
    let screen = format!("{}", draw(&mut app, 200, 60).backend());
    assert!(screen.contains("/page/9999"), "the last row is reachable and drawn");
}

/// `--usage CATEGORY`: the cells show that category's preference across robots.
#[test]
fn the_matrix_can_show_a_usage_category() {
    let file = robots_file("User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nContent-Signal: ai-train=no\nAllow: /\n");
    let output = Command::cargo_bin("robotscope")
        .expect("binary")
        .args(["compare", file.path().to_str().expect("path"), "-r", "GPTBot", "-r", "ClaudeBot", "-r", "Scooter"])
        .args(["--csv", "--usage", "train-ai", "/"])
        .output()
        .expect("run");
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "\"path\",\"GPTBot\",\"ClaudeBot\",\"Scooter\"\n\"/\",\"not fetched\",\"disallowed 5\",\"not read\"\n"
    );
}
