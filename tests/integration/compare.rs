//! The compare view and `robotscope compare`: the matrix for the seed files matches the
//! seeds' verdicts cell by cell under every reading; the view moves, highlights and
//! scales; snapshots of the view and of the command's output.
// The binary and its layers: built with the default `tool` feature only.

use crate::support;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use assert_cmd::Command;
use robotscope::app::keymap::press;
use robotscope::app::{Action, App, KeyContext, Overlay};
use robotscope::policy::Category;
use robotscope::policy::Reading;
use robotscope::robots_db::Purpose;
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
    assert_eq!(String::from_utf8_lossy(&output.stdout), "path,Slurp\n/tmp/a,disallowed 41\n/index.html,allowed\n");
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
    assert!(stdout.lines().last().is_some_and(|row| row.starts_with("/p499,")), "{stdout}");
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
    let path = &robotscope::policy::Request::read(&view.paths[0]).tested().to_owned();
    let verdicts: Vec<bool> =
        view.columns.iter().map(|c| c.check(app.document().availability, path).allowed()).collect();
    assert_eq!(verdicts, [false, true, true], "the readings disagree on webcrawler");
    let screen = format!("{}", draw(&mut app, 120, 40).backend());
    assert!(screen.contains("Compare · WebCrawler's 3 readings"), "{screen}");
    assert!(screen.contains("rfc9309     draft1996   koster1994"), "{screen}");
    press(&mut app, "m");
    assert!(app.compare().expect("open").columns.len() > 3);
}

/// Issue 24: after scrolling right through many robots, `m` still shows the three
/// readings (the view was blank: it kept its scroll past the three columns).
#[test]
fn the_three_readings_show_after_scrolling_right() {
    let mut app = App::from_text("User-agent: webcrawler\n\nUser-agent: lycra\nDisallow: /\n");
    press(&mut app, "c");
    for name in ["Applebot", "YandexBot", "DuckDuckBot", "ClaudeBot", "CCBot", "Lycos"] {
        select(&mut app, name);
    }
    draw(&mut app, 80, 24);
    press(&mut app, &"l".repeat(12));
    assert!(app.compare().expect("open").offset.1 > 0, "scrolled right");
    press(&mut app, "m");
    let screen = format!("{}", draw(&mut app, 80, 24).backend());
    assert!(screen.contains("rfc9309") && screen.contains("koster1994"), "{screen}");
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
    assert_eq!(view.detail.as_ref().map(robotscope::policy::Verdict::path), Some("/brand/new"));
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
        "path,GPTBot (train-ai),ClaudeBot (train-ai),Scooter (train-ai)\n/,not fetched,disallowed 5,not read\n"
    );
}

/// A file with both usage extensions: a `*` group with Cloudflare's signal and a
/// Content-Usage path, a GPTBot group with a pathless rule, ClaudeBot shut out.
const USAGE_FILE: &str = "User-agent: *\nContent-Signal: search=yes, ai-train=no\nContent-Usage: /blog/ train-ai=y\n\
                          Allow: /\n\nUser-agent: GPTBot\nDisallow: /private/\nContent-Usage: train-ai=n, search=y\n\n\
                          User-agent: ClaudeBot\nDisallow: /\n";

fn labels(app: &App) -> Vec<String> {
    app.compare().expect("open").columns.iter().map(|c| c.label.clone()).collect()
}

/// "Which AI training crawlers may crawl `/`, and may they train on it?" is `c` then
/// `p`: every AI training crawler becomes a column and the cells show `train-ai`.
#[test]
fn one_keypress_compares_the_ai_training_crawlers_on_train_ai() {
    let mut app = App::from_text(USAGE_FILE);
    press(&mut app, "c");
    let chosen = labels(&app);
    press(&mut app, "p");
    let view = app.compare().expect("open");
    assert_eq!((view.purpose, view.usage), (Some(Purpose::AiTraining), Some(Category::TrainAi)));
    let trainers: Vec<String> =
        app.robots().iter().filter(|e| e.profile.serves(Purpose::AiTraining)).map(|e| e.profile.name.clone()).collect();
    assert_eq!(labels(&app), trainers, "every AI training crawler, and only those");
    assert!(trainers.contains(&"GPTBot".to_owned()) && trainers.contains(&"ClaudeBot".to_owned()));
    let cell = |label: &str, path: &str| {
        let view = app.compare().expect("open");
        let column = view.columns.iter().find(|c| c.label == label).expect("column");
        column.cell(app.document().availability, path, view.usage).to_string()
    };
    assert_eq!(cell("GPTBot", "/"), "disallowed 8", "its own pathless rule");
    assert_eq!(cell("GPTBot", "/private/a"), "not fetched");
    assert_eq!(cell("ClaudeBot", "/"), "not fetched");
    assert_eq!(cell("CCBot", "/blog/a"), "disallowed 2", "Content-Signal's no wins over Content-Usage's y");
    let screen = draw(&mut app, 140, 40).backend().to_string();
    assert!(screen.contains("ai-training robots") && screen.contains("cells: train-ai"), "{screen}");
    let blog = screen.lines().find(|line| line.contains("│≠ /blog/")).expect("the Content-Usage path is a row");
    assert!(blog.contains("no 2") && blog.contains("✗ 11"), "{blog}");

    // The next purposes, then back to the robots chosen and the crawl verdict.
    press(&mut app, "p");
    let view = app.compare().expect("open");
    assert_eq!((view.purpose, view.usage), (Some(Purpose::AiSearch), Some(Category::AiInput)));
    for _ in 0..20 {
        if app.compare().expect("open").purpose.is_none() {
            break;
        }
        press(&mut app, "p");
    }
    assert_eq!(labels(&app), chosen);
    assert_eq!(app.compare().expect("open").usage, None);

    // Issue 35: leaving while a purpose shows puts the robots chosen back: what the
    // other views compare is not changed by a look at a purpose.
    press(&mut app, "p<esc>");
    assert!(app.compare().is_none());
    press(&mut app, "c");
    assert_eq!(labels(&app), chosen, "the robots chosen, not the purpose's");
    assert_eq!((app.compare().expect("open").purpose, app.compare().expect("open").usage), (None, None));
}

/// `u` goes through the usage categories and back to the verdict; the cell's detail
/// names the lines and the source pane highlights them.
#[test]
fn u_shows_each_usage_category_and_highlights_its_lines() {
    let mut app = App::from_text(USAGE_FILE);
    press(&mut app, "c");
    select(&mut app, "GPTBot");
    let shown = |app: &App| app.compare().expect("open").usage;
    let mut seen = Vec::new();
    for _ in 0..4 {
        press(&mut app, "u");
        seen.push(shown(&app));
    }
    assert_eq!(seen, [Some(Category::TrainAi), Some(Category::Search), Some(Category::AiInput), None]);
    press(&mut app, "u");
    assert_eq!(app.compare().expect("open").paths, ["/", "/blog/", "/private/"]);
    press(&mut app, "G"); // "/private/": GPTBot may not fetch it
    assert!(app.shown_usage_lines().is_empty());
    press(&mut app, "g"); // "/"
    assert_eq!(app.shown_usage_lines(), [8], "GPTBot's train-ai comes from line 8");
    let mut terminal = draw(&mut app, 140, 40);
    let screen = terminal.backend().to_string();
    assert!(
        screen.contains("Usage: train-ai disallowed (line 8) · search allowed (line 8) · ai-input unknown"),
        "{screen}"
    );
    let buffer = terminal.backend_mut().buffer().clone();
    let y = (0..buffer.area.height)
        .find(|&y| (0..40).map(|x| buffer[(x, y)].symbol()).collect::<String>().contains("Content-Usage: train-ai=n"))
        .expect("line 8 is in view");
    assert_eq!(buffer[(10, y)].bg, ratatui::style::Color::Magenta, "the usage line is highlighted");
    insta::assert_snapshot!("compare_usage_view", terminal.backend());

    // A robot removed by hand: the columns are the user's own again.
    press(&mut app, "p");
    press(&mut app, "x");
    assert_eq!(app.compare().expect("open").purpose, None);
}

/// Three robots' groups, for the short-terminal tests: the paths `/private`, `/` and
/// `/tmp`, and the columns of the default comparison.
const THREE_GROUPS: &str =
    "User-agent: Googlebot\nDisallow: /private\n\nUser-agent: Slurp\nDisallow: /\n\nUser-agent: *\nDisallow: /tmp\n";

/// Whether every box line of `screen` is whole: a bottom border holds border
/// characters only, and a line inside a pane that holds a rule holds nothing else (a
/// matrix drawn past its border wrote its labels over the border and its rule into the
/// pane below).
fn boxes_are_whole(screen: &str) -> bool {
    screen.lines().all(|line| {
        let line = line.trim_matches('"');
        match line.chars().next() {
            Some('└') => line.chars().all(|c| "└─┘".contains(c)),
            Some('│') => line.split('│').all(|part| !part.contains('─') || part.chars().all(|c| c == '─')),
            _ => true,
        }
    })
}

/// From an attack on the views' drawing: on a short terminal the matrix drew its
/// summary rows over its bottom border and its rule into the cell pane, and at 60x15
/// it showed no path at all. Now the summary goes when there is no room for it and a
/// few paths, and nothing is drawn past the border.
#[test]
fn a_short_terminal_keeps_the_matrix_in_its_box_and_shows_paths() {
    for (width, height) in [(40, 10), (40, 12), (60, 15), (100, 13), (80, 24), (120, 40)] {
        let mut app = App::from_text(THREE_GROUPS);
        press(&mut app, "c");
        let screen = format!("{}", draw(&mut app, width, height).backend());
        assert!(boxes_are_whole(&screen), "{width}x{height}:\n{screen}");
        // At the smallest size the matrix has one row inside its box: the names.
        if height > 10 {
            let path_row = |line: &str| line.starts_with("\"│") && (line.contains("✓ ") || line.contains("✗ "));
            assert!(screen.lines().any(path_row), "{width}x{height}: a path row shows:\n{screen}");
        }
        let summary = app.areas().compare_shows_summary();
        assert_eq!(screen.contains("delay"), summary, "{width}x{height}: the summary shows when it fits:\n{screen}");
    }
    // The planted fault is found: a label over a bottom border.
    assert!(!boxes_are_whole("┌ x ┐\n│ a │\n└─delay─┘\n"));
    assert!(!boxes_are_whole("│ ✗ DISALLOWED ──│\n"));
}

/// From the same attack: a terminal made smaller scrolls the matrix to keep the
/// cursor's column in view (it showed the first column while the cell pane described
/// the third).
#[test]
fn a_smaller_terminal_keeps_the_cursors_column_in_view() {
    let mut app = App::from_text(THREE_GROUPS);
    press(&mut app, "c");
    draw(&mut app, 120, 40);
    press(&mut app, "jll");
    let view = app.compare().expect("open");
    let (row, column) = view.cursor;
    assert_eq!(column, 2, "on the third column");
    let label = view.columns[column].label.clone();
    let path = view.paths[row].clone();
    for (width, height) in [(40, 12), (60, 15), (40, 10)] {
        let screen = format!("{}", draw(&mut app, width, height).backend());
        let matrix: String = screen.lines().take_while(|line| !line.contains("Cell")).collect::<Vec<_>>().join("\n");
        assert!(matrix.contains(&label), "{width}x{height}: {label}'s column shows:\n{screen}");
        assert!(height == 10 || matrix.contains(&path), "{width}x{height}: the cursor's row {path} shows:\n{screen}");
    }
}
