//! The explorer drawn with ratatui's `TestBackend`: whole screens as insta snapshots at
//! 120x40 and 60x20, and cell-style checks for what snapshots cannot see (colours): the
//! deciding line and the applied group are highlighted, escapes are marked.
// The binary and its layers: built with the default `tool` feature only.

use crate::support;

use ratatui::buffer::Buffer;
use ratatui::style::Color;
use robotscope::app::keymap::press;
use robotscope::app::{Action, App};
use support::explorer::{draw, select, test_path};

/// The text of row `y`.
fn row(buffer: &Buffer, y: u16) -> String {
    (0..buffer.area.width).map(|x| buffer[(x, y)].symbol()).collect()
}

/// The text of row `y` between columns `from` and `to`.
fn row_part(buffer: &Buffer, y: u16, from: u16, to: u16) -> String {
    (from..to).map(|x| buffer[(x, y)].symbol()).collect()
}

/// The first row whose text contains `needle`, searched inside `area`'s rows.
fn find_row(buffer: &Buffer, needle: &str) -> Option<u16> {
    (0..buffer.area.height).find(|&y| row(buffer, y).contains(needle))
}

#[test]
fn example_at_120_by_40() {
    let mut app = App::example();
    insta::assert_snapshot!(draw(&mut app, 120, 40).backend());
}

#[test]
fn example_at_60_by_20() {
    let mut app = App::example();
    insta::assert_snapshot!(draw(&mut app, 60, 20).backend());
}

#[test]
fn slurp_on_the_infoseek_directory() {
    let mut app = App::example();
    select(&mut app, "Slurp");
    test_path(&mut app, "/infoseek_optimised_directory/x");
    let terminal = draw(&mut app, 120, 40);
    insta::assert_snapshot!(terminal.backend());

    let buffer = terminal.backend().buffer();
    let areas = app.areas();
    // The deciding line, 38, is drawn on a red background across the source pane.
    let y = (areas.source.y..areas.source.bottom())
        .find(|&y| row_part(buffer, y, areas.source.x, areas.source.right()).contains("38 ▌ Disallow: /infoseek"))
        .expect("line 38 is visible");
    let text_x =
        (areas.source.x + 1..areas.source.right()).find(|&x| buffer[(x, y)].symbol() == "D").expect("rule text");
    assert_eq!(buffer[(text_x, y)].bg, Color::Red, "the deciding line is highlighted");
    // The lines of the applied group carry the gutter mark in the group colour.
    let mark_x = text_x - 2;
    for line_y in y - 1..=y + 3 {
        assert_eq!(buffer[(mark_x, line_y)].symbol(), "▌", "row {line_y} is marked as the applied group");
        assert_eq!(buffer[(mark_x, line_y)].fg, Color::Cyan);
    }
    assert_ne!(buffer[(mark_x, y - 3)].symbol(), "▌", "lines outside the group are not marked");
    // The records pane marks the applied record and highlights the deciding rule.
    let record = find_row(buffer, "▶ Record 8").expect("the applied record is marked");
    assert!(record > areas.records.y);
    let rule_y = (record..areas.records.bottom())
        .find(|&y| row(buffer, y).contains("Disallow /infoseek"))
        .expect("the deciding rule in the records");
    let rule_x =
        (areas.records.x..areas.records.right()).find(|&x| buffer[(x, rule_y)].symbol() == "/").expect("rule value");
    assert_eq!(buffer[(rule_x, rule_y)].bg, Color::Red);
    // The verdict is in words.
    assert!(find_row(buffer, "✗ DISALLOWED  Slurp").is_some());
}

#[test]
fn help_overlay_lists_the_keymap() {
    let mut app = App::example();
    press(&mut app, "?");
    let terminal = draw(&mut app, 120, 40);
    insta::assert_snapshot!(terminal.backend());
    let buffer = terminal.backend().buffer();
    assert!(find_row(buffer, "next robot").is_some());
    assert!(find_row(buffer, "Typing a path").is_some());
}

#[test]
fn control_characters_never_reach_the_screen_raw() {
    let hostile = "User-agent: *\nDisallow: /\x1b]52;c;aGFja2Vk\x07\x1b[2J\u{202e}x\u{9b}31m\nAllow: /ok\n";
    let mut app = App::from_text(hostile);
    let terminal = draw(&mut app, 120, 40);
    let buffer = terminal.backend().buffer();
    for cell in buffer.content() {
        for c in cell.symbol().chars() {
            assert!(!robotscope::policy::is_unsafe(c), "{c:?} reached the screen");
        }
    }
    let y = find_row(buffer, "Disallow: /^[]52;c;aGFja2Vk^G^[[2J<U+202E>").expect("escapes shown visibly");
    let x = (0..buffer.area.width).find(|&x| buffer[(x, y)].symbol() == "^").expect("escape");
    assert_eq!(buffer[(x, y)].bg, Color::Yellow, "escapes are drawn in the warning style");
}

#[test]
fn a_large_file_draws_only_what_is_visible() {
    let mut text = String::from("User-agent: *\n");
    text.extend((0..50_000).map(|i| format!("Allow: /page/{i}\n")));
    text.push_str(&"x".repeat(2_000_000));
    let mut app = App::from_text(&text);
    press(&mut app, "G");
    // A text this large is linted in the background: the first frame does not wait.
    let generation = app.stale_diagnostics().expect("linted in the background");
    let screen = format!("{}", draw(&mut app, 200, 60).backend());
    assert!(screen.contains("checking for problems") && !screen.contains("50002●"), "{screen}");
    // The event loop's answer, as it sends it.
    let diagnostics = robotscope::policy::lint(&app.document().txt);
    app.update(Action::Linted { generation, diagnostics });
    assert_eq!(app.stale_diagnostics(), None);
    let terminal = draw(&mut app, 200, 60);
    let buffer = terminal.backend().buffer();
    let last =
        find_row(buffer, "50002●").expect("the last line is shown, marked: Google reads only 16,663 bytes of it");
    assert!(row(buffer, last).contains("xxxxxxxxxx"), "the 2 MB line is drawn, cut at the pane: {}", row(buffer, last));
}

#[test]
fn long_lines_scroll_sideways_in_the_source_pane() {
    let tail = "the end of a long comment";
    let mut app = App::from_text(&format!("User-agent: *\nDisallow: /a # {}{tail}\n", "x".repeat(150)));
    let screen = format!("{}", draw(&mut app, 120, 40).backend());
    assert!(!screen.contains(tail), "the line is cut at the pane's edge");
    press(&mut app, &"l".repeat(40));
    assert!(app.source_column() > 0);
    let screen = format!("{}", draw(&mut app, 120, 40).backend());
    assert!(screen.contains(tail), "{screen}");
    assert!(screen.contains(&format!("from column {}", app.source_column() + 1)), "the title says where");
    press(&mut app, &"h".repeat(40));
    assert_eq!(app.source_column(), 0);
    assert!(format!("{}", draw(&mut app, 120, 40).backend()).contains("Disallow: /a"));
}

#[test]
fn the_help_is_one_scrolled_column_on_a_narrow_terminal() {
    let mut app = App::example();
    app.update(Action::Resize { width: 60, height: 20 });
    press(&mut app, "?");
    let screen = format!("{}", draw(&mut app, 60, 20).backend());
    assert!(screen.contains("j/k scroll") && screen.contains("  ?       help"), "{screen}");
    press(&mut app, &"<pgdn>".repeat(50));
    let screen = format!("{}", draw(&mut app, 60, 20).backend());
    let last = format!("  {:<17} messages", "M");
    assert!(screen.contains("In any view") && screen.contains(&last), "the last binding comes into view: {screen}");
    let end = app.overlay_scroll();
    press(&mut app, "j");
    assert_eq!(app.overlay_scroll(), end, "no further than the last line");
    press(&mut app, "k");
    assert_eq!(app.overlay_scroll(), end - 1);
    press(&mut app, "??");
    assert_eq!(app.overlay_scroll(), 0, "the help opens at its top");
}

/// The tester's rows, as text.
fn tester_rows(app: &App, buffer: &Buffer) -> String {
    let tester = app.areas().tester;
    (tester.y..tester.bottom()).map(|y| row_part(buffer, y, tester.x, tester.right()) + "\n").collect()
}

#[test]
fn a_long_path_keeps_the_verdict_and_the_readings_in_view() {
    let path = format!("/private/{}end", "segment/".repeat(37));
    assert!(path.chars().count() > 300);
    for (width, height) in [(60, 20), (80, 24), (120, 40)] {
        let mut app = App::from_text("User-agent: *\nDisallow: /private/\n\nUser-agent: Slurp\nDisallow: /\n");
        app.update(Action::Resize { width, height });
        press(&mut app, &format!("/{path}"));
        let terminal = draw(&mut app, width, height);
        let typing = tester_rows(&app, terminal.backend().buffer());
        insta::assert_snapshot!(format!("tester_typing_a_long_path_{width}x{height}"), typing);
        assert!(typing.contains("✗ DISALLOWED") && typing.contains("1994"), "{typing}");
        assert!(typing.contains("end "), "the field scrolls to show the cursor at the end: {typing}");
        press(&mut app, "<ret>");
        let terminal = draw(&mut app, width, height);
        let kept = tester_rows(&app, terminal.backend().buffer());
        insta::assert_snapshot!(format!("tester_after_a_long_path_{width}x{height}"), kept);
        assert!(kept.contains("✗ DISALLOWED") && kept.contains("1994"), "{kept}");
        assert!(kept.contains("/private/segment/"), "the field shows the path's start: {kept}");
    }
}

#[test]
fn the_tester_scrolls_the_explanation_under_a_fixed_verdict() {
    let mut app = App::from_text("User-agent: *\nDisallow: /a\nAllow: /a/b\nDisallow: /a/b/c\n");
    app.update(Action::Resize { width: 60, height: 20 });
    test_path(&mut app, "/a/b/c/d");
    press(&mut app, "<tab><tab>");
    let terminal = draw(&mut app, 60, 20);
    let first = tester_rows(&app, terminal.backend().buffer());
    press(&mut app, "jjjjjjjjjj");
    let terminal = draw(&mut app, 60, 20);
    let scrolled = tester_rows(&app, terminal.backend().buffer());
    assert_ne!(first, scrolled, "j scrolls the details");
    let verdict_row = |rows: &str| rows.lines().nth(2).map(str::to_owned);
    assert_eq!(verdict_row(&first), verdict_row(&scrolled), "the verdict stays");
    assert!(scrolled.contains("Allow: /a/b"), "the last detail reaches the view: {scrolled}");
    let end = app.tester_first_detail();
    press(&mut app, "j");
    assert_eq!(app.tester_first_detail(), end, "no further than the last line");
    press(&mut app, "k");
    assert_eq!(app.tester_first_detail(), end - 1);
}

#[test]
fn h_and_l_reach_the_end_of_a_line_with_escapes() {
    let tail = "THE-END";
    let line = format!("Disallow: /{}{tail}", "\u{1}".repeat(100));
    let mut app = App::from_text(&format!("User-agent: *\n{line}\n"));
    press(&mut app, &"l".repeat(60));
    let screen = format!("{}", draw(&mut app, 120, 40).backend());
    assert!(screen.contains(tail), "{screen}");
}

#[test]
fn saving_as_another_file_makes_it_the_one_edited() {
    let dir = tempfile::tempdir().expect("temp dir");
    let first = dir.path().join("first.txt");
    std::fs::write(&first, "User-agent: *\nDisallow: ~\n").expect("write");
    let retrieved = robotscope::fetch::Retrieved::Local {
        source: robotscope::fetch::Source::File(first.clone()),
        bytes: std::fs::read(&first).expect("read"),
        truncated: false,
        stamp: None,
    };
    let mut app = App::from_retrieved(
        retrieved,
        robotscope::fetch::Limits::default(),
        &robotscope::robots_db::RobotsDb::embedded(),
    );
    let second = dir.path().join("second.txt");
    press(&mut app, "F");
    app.update(Action::Saved {
        path: second.clone(),
        text: app.document().txt.source().to_vec(),
        after: robotscope::app::AfterSave::Stay,
        result: Box::new(Ok(robotscope::save::Saved { file: second.clone(), in_place: false, stamp: None })),
    });
    assert_eq!(app.document().label, second.display().to_string(), "the status bar names the new file");
    press(&mut app, "w");
    assert_eq!(app.prompt().map(|p| p.input.text().to_owned()), Some(second.display().to_string()));
}

/// The tester's usage line and the records pane's usage rules: what a robot may do
/// with a page it may fetch, and which lines say so.
#[test]
fn the_tester_shows_usage_preferences() {
    let mut app = App::from_text(
        "User-agent: *\nContent-Signal: search=yes, ai-train=no\nContent-Usage: /blog/ train-ai=y\nDisallow: /private\n",
    );
    test_path(&mut app, "/blog/a");
    let screen = draw(&mut app, 120, 40).backend().to_string();
    assert!(
        screen.contains("Usage    train-ai disallowed (line 2) · search allowed (line 2) · ai-input unknown"),
        "{screen}"
    );
    assert!(screen.contains("Content-Usage /blog/ train-ai=y"), "the records pane lists the rule: {screen}");
    insta::assert_snapshot!("usage_tester_and_records", draw(&mut app, 120, 40).backend());
    // The line that states them is highlighted in the source pane, like the deciding rule.
    assert_eq!(app.shown_usage_lines(), [2]);
    let terminal = draw(&mut app, 120, 40);
    let buffer = terminal.backend().buffer();
    let y = find_row(buffer, "Content-Signal: search=yes").expect("line 2 in view");
    let x = row(buffer, y).chars().position(|c| c == 'C').expect("the field") as u16;
    assert_eq!(buffer[(x, y)].bg, Color::Magenta);
    let other = find_row(buffer, "Content-Usage: /blog/").expect("line 3 in view");
    assert_ne!(buffer[(x, other)].bg, Color::Magenta, "line 3 states nothing that counts for /blog/a");
    test_path(&mut app, "/private/x");
    let screen = draw(&mut app, 120, 40).backend().to_string();
    assert!(screen.contains("Usage    none: a path the robot may not fetch has no preferences"), "{screen}");
}

/// Issue 24: in the editor, the line numbers stay when a long line scrolls the text
/// sideways.
#[test]
fn the_editors_line_numbers_stay_when_the_text_scrolls_sideways() {
    let long = format!("User-agent: *\nDisallow: /{}\nAllow: /x\n", "a".repeat(300));
    let mut app = App::from_text(&long);
    press(&mut app, "e<down><end>");
    let screen = format!("{}", draw(&mut app, 80, 24).backend());
    let rows: Vec<&str> = screen.lines().collect();
    let title = rows.iter().position(|row| row.contains("Editing")).expect("the editor's pane");
    let numbers: Vec<String> = rows[title + 1..title + 4]
        .iter()
        .map(|row| row.split("││").nth(1).and_then(|pane| pane.chars().next()).map(String::from).unwrap_or_default())
        .collect();
    assert_eq!(numbers, ["1", "2", "3"], "{screen}");
    assert!(rows[title + 2].contains("aaaa"), "scrolled to the end of line 2: {screen}");
}

/// Issue 25: the editor draws a window of a long line, wherever the cursor is on it: past
/// column 65,535 too (the text area's own drawing counted columns in 16 bits), with wide
/// characters and pasted control characters kept to their cells.
#[test]
fn the_editor_follows_the_cursor_along_a_line_of_any_length() {
    let long = format!("User-agent: *\nDisallow: /{}END\nAllow: /x\n", "a".repeat(100_000));
    let mut app = App::from_text(&long);
    press(&mut app, "e<down><end>Z");
    let screen = format!("{}", draw(&mut app, 80, 24).backend());
    let rows: Vec<&str> = screen.lines().collect();
    let title = rows.iter().position(|row| row.contains("Editing")).expect("the editor's pane");
    assert!(rows[title + 2].contains("aaaENDZ "), "the end of line 2 in view: {screen}");
    assert!(rows[title + 1].contains("User-agent: *"), "only the cursor's line scrolls: {screen}");
    press(&mut app, "<home>");
    let screen = format!("{}", draw(&mut app, 80, 24).backend());
    assert!(screen.contains("Disallow: /aaa"), "back at the start: {screen}");

    let mut wide = App::from_text("User-agent: *\nDisallow: /\n");
    press(&mut wide, "e<down><end>");
    wide.update(Action::Paste("日本\u{1b}[2J".to_owned()));
    let screen = format!("{}", draw(&mut wide, 80, 24).backend());
    assert!(screen.contains("Disallow: /日本^[[2J"), "wide characters whole, the escape visible: {screen}");
    // A combining accent joins the letter before it, as the records pane draws it.
    wide.update(Action::Paste("cafe\u{301}".to_owned()));
    let screen = format!("{}", draw(&mut wide, 80, 24).backend());
    assert!(screen.contains("cafe\u{301}\u{2007}") || screen.contains("cafe\u{301} "), "{screen}");
}

/// From the review of issue 26: a short line is shown from its start when the cursor
/// comes to it from a long line scrolled far right; leaving the editor shows the line it
/// was on; a paste's CR line breaks are line breaks.
#[test]
fn the_editor_scrolls_short_lines_back_and_leaves_the_cursor_in_view() {
    let long = format!("User-agent: *\nDisallow: /{}END\nAllow: /b\n", "a".repeat(5_000));
    let mut app = App::from_text(&long);
    press(&mut app, "e<down><end><up>");
    let screen = format!("{}", draw(&mut app, 80, 24).backend());
    assert!(screen.contains("User-agent: *"), "line 1 from its start: {screen}");
    press(&mut app, "<down><down>");
    let screen = format!("{}", draw(&mut app, 80, 24).backend());
    assert!(screen.contains("Allow: /b"), "line 3 from its start: {screen}");

    let text: String = (1..=300).map(|n| format!("Disallow: /{n}")).collect::<Vec<_>>().join("\n");
    let mut app = App::from_text(&format!("User-agent: *\n{text}\n"));
    app.update(Action::Resize { width: 80, height: 24 });
    press(&mut app, "e<pgdn><pgdn><pgdn><esc>");
    let (view, height) = (app.source_view(), app.areas().inner_height(robotscope::app::Pane::Source));
    assert!((view.offset..view.offset + height).contains(&view.cursor), "{view:?} shows its cursor");

    let mut app = App::from_text("User-agent: *\nDisallow: /\n");
    press(&mut app, "e<down><end>");
    app.update(Action::Paste("\rUser-agent: Bingbot\rDisallow: /x\r\nAllow: /y".to_owned()));
    assert_eq!(
        app.document().txt.source(),
        b"User-agent: *\nDisallow: /\nUser-agent: Bingbot\nDisallow: /x\nAllow: /y\n",
        "each CR or CR LF a line break"
    );
}

/// Issue 25: Page Down and Page Up in the editor move the cursor a page, and the pane
/// follows it (the text area paged a window it no longer draws).
#[test]
fn the_editor_pages() {
    let text: String = (1..=300).map(|n| format!("Disallow: /{n}")).collect::<Vec<_>>().join("\n");
    let mut app = App::from_text(&format!("User-agent: *\n{text}\n"));
    app.update(Action::Resize { width: 80, height: 24 });
    press(&mut app, "e<pgdn><pgdn>");
    let line = app.cursor_line();
    let page = app.areas().inner_height(robotscope::app::Pane::Source);
    assert_eq!(line, 1 + 2 * page, "two pages down");
    let screen = format!("{}", draw(&mut app, 80, 24).backend());
    assert!(screen.contains(&format!("Disallow: /{}", line - 1)), "line {line} in view: {screen}");
    press(&mut app, "<pgup><pgup><pgup>");
    assert_eq!(app.cursor_line(), 1);
}

/// Issue 24: the records pane counts what `d` lists (problems and notes alike).
#[test]
fn the_records_title_counts_what_the_list_shows() {
    let mut app = App::from_text("User-agent: *\nDisallow: ~\nDisallow: /a\nDisallow: /a\n");
    let count = app.diagnostics().len();
    let screen = format!("{}", draw(&mut app, 120, 40).backend());
    assert!(screen.contains("1 problem, 1 note"), "{count} diagnostics: {screen}");
}

/// Issue 24: the README's first screenshot is the screen the keys it names lead to.
#[test]
fn the_screenshots_are_what_their_keys_show() {
    // (file, the block's opening line, keys, width, height)
    let shots = [
        ("README.md", "```text\n┌ Robots", "", 100, 30),
        ("docs/src/explore.md", "```\n┌ Robots", "aWebCrawler<ret>/<C-u>/index.html<ret>", 120, 40),
    ];
    for (file, opening, keys, width, height) in shots {
        let path = format!("{}/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).expect("the file");
        let start = text.find(opening).expect("the screenshot") + opening.find('┌').expect("a corner");
        let shot: Vec<&str> = text[start..].lines().take_while(|line| !line.starts_with("```")).collect();
        let mut app = App::example();
        press(&mut app, keys);
        let terminal = draw(&mut app, width, height);
        let buffer = terminal.backend().buffer();
        let screen: Vec<String> = (0..buffer.area.height)
            .map(|y| (0..buffer.area.width).map(|x| buffer[(x, y)].symbol()).collect::<String>().trim_end().to_owned())
            .collect();
        // Drawn again with ROBOTSCOPE_PRINT_SHOTS=1, to paste when the explorer changed.
        if std::env::var_os("ROBOTSCOPE_PRINT_SHOTS").is_some() {
            println!("{file}:\n{}", screen.join("\n"));
        }
        assert_eq!(shot, screen, "{file}'s screenshot drifted from the explorer");
    }
}

/// Issue 35: a question takes over the status bar. After an edit the bar said "y
/// copies"; while the quit question asks, its own keys are all the bar shows.
#[test]
fn a_question_takes_over_the_status_bar() {
    let mut app = App::from_text("User-agent: *\nDisallow: ~\n");
    press(&mut app, "e<end>x<esc>");
    let terminal = draw(&mut app, 120, 40);
    let status = row(terminal.backend().buffer(), 39);
    assert!(status.contains("y copies"), "{status}");
    press(&mut app, "q");
    let terminal = draw(&mut app, 120, 40);
    let status = row(terminal.backend().buffer(), 39);
    assert!(status.contains("Unsaved edits: w save them, then quit  y quit, dropping them"), "{status}");
    assert!(!status.contains("copies"), "{status}");
    // The box lists the same keys.
    let buffer = terminal.backend().buffer();
    assert!(find_row(buffer, "y    quit, dropping them").is_some());
    assert!(find_row(buffer, "q    quit, keeping them in a recovery copy").is_some());
}

/// Issue 37: `b` lists the registry's robots by purpose with how the text treats each;
/// Space on a purpose marks its robots and previews the block, proved, with its diff;
/// `y` copies the file as the preview makes it; Enter applies it as one undo step, and
/// Ctrl-Z takes it back.
#[test]
fn the_policy_view_blocks_a_purpose_with_proof() {
    use robotscope::app::Effect;
    use robotscope::app::view::View;
    use robotscope::app::view::policy::{PolicyRow, Preview};
    use robotscope::robots_db::Purpose;
    const TEXT: &str = "# Site\nUser-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nAllow: /\n";
    let mut app = App::from_text(TEXT);
    press(&mut app, "b");
    let rows = |app: &App| match app.view() {
        Some(View::Policy(view)) => view.rows.clone(),
        other => panic!("the policy view is open: {other:?}"),
    };
    let heading = rows(&app).iter().position(|row| *row == PolicyRow::Purpose(Purpose::AiTraining)).expect("a heading");
    press(&mut app, &"j".repeat(heading));
    press(&mut app, "<space>");
    let terminal = draw(&mut app, 120, 40);
    insta::assert_snapshot!(terminal.backend());
    let Some(View::Policy(view)) = app.view() else { panic!("open") };
    let Preview::Proved { text, said, .. } = &view.preview else { panic!("{:?}", view.preview) };
    assert!(said[0].starts_with("Proved under RFC 9309"), "{said:?}");
    assert!(said.iter().any(|line| line.trim() == "allowed → blocked: GPTBot"), "{said:?}");
    let blocked = String::from_utf8(text.clone()).expect("utf-8");
    assert!(blocked.starts_with("# Site\nUser-agent: Google-Extended\n") && !blocked.contains("Allow: /"), "{blocked}");
    let copied = press(&mut app, "y");
    assert!(matches!(copied.as_slice(), [Effect::Copy { text, .. }] if *text == blocked), "{copied:?}");
    press(&mut app, "<ret>");
    assert_eq!(app.document().txt.source(), blocked.as_bytes());
    let Some(View::Policy(view)) = app.view() else { panic!("still open") };
    assert!(view.marked.is_empty() && view.preview == Preview::Nothing);
    let gptbot = view.profiles.iter().position(|profile| profile.name == "GPTBot").expect("GPTBot");
    assert_eq!(view.reach[gptbot], robotscope::policy::Reach::Nothing, "the rows follow the text");
    // Ctrl-Z in the view takes the block back in one step, and the rows follow.
    press(&mut app, "<C-z>");
    assert_eq!(app.document().txt.source(), TEXT.as_bytes(), "one undo step");
    let Some(View::Policy(view)) = app.view() else { panic!("still open") };
    assert_eq!(view.reach[gptbot], robotscope::policy::Reach::Everything);
    press(&mut app, "<C-y>");
    assert_eq!(app.document().txt.source(), blocked.as_bytes(), "redone");
}
