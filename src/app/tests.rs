//! The app's own tests: actions in, state and effects out.

use super::*;

use super::keymap::press;

fn select(app: &mut App, name: &str) {
    press(app, &format!("a{name}<ret>"));
}

/// Types a path into the tester, as a user does (the field opens selected, so
/// typing replaces it), and keeps it.
fn type_path(app: &mut App, path: &str) {
    press(app, &format!("/{}<ret>", path.replace('<', "<lt>")));
}

#[test]
fn starts_on_googlebot_and_the_example() {
    let app = App::example();
    assert_eq!(app.robot().profile.token, "Googlebot");
    assert_eq!(app.reading(), Reading::Rfc9309);
    assert!(app.robot().named_in_file);
}

#[test]
fn switching_robots_re_evaluates_and_follows_their_reading() {
    let mut app = App::example();
    type_path(&mut app, "/infoseek_optimised_directory/x");
    assert!(app.evaluation().verdict.allowed(), "Googlebot's own group does not name the directory");
    select(&mut app, "Gulliver");
    assert_eq!(app.robot().profile.name, "Gulliver");
    assert_eq!(app.reading(), Reading::Draft1996, "Gulliver defaults to the 1996 draft");
    assert!(!app.evaluation().verdict.allowed());
    select(&mut app, "Sidewinder");
    assert!(app.evaluation().verdict.allowed());
    let before = app.robot_index();
    app.update(Action::NextRobot);
    assert_eq!(app.robot_index(), (before + 1) % app.robots().len());
    app.update(Action::PrevRobot);
    assert_eq!(app.robot_index(), before);
}

#[test]
fn the_reading_cycles_and_can_follow_the_robot_again() {
    let mut app = App::example();
    select(&mut app, "WebCrawler");
    assert_eq!(app.reading(), Reading::Koster1994);
    assert!(app.evaluation().verdict.allowed(), "1994 robots end webcrawler's record at the blank line");
    assert!(app.evaluation().readings_disagree());
    app.update(Action::CycleReading);
    assert_eq!(app.reading(), Reading::Rfc9309);
    assert!(app.reading_is_chosen());
    assert!(!app.evaluation().verdict.allowed(), "RFC 9309 joins webcrawler to lycra's group");
    select(&mut app, "Scooter");
    assert_eq!(app.reading(), Reading::Rfc9309, "a chosen reading stays when the robot changes");
    app.update(Action::FollowRobotReading);
    assert_eq!(app.reading(), Reading::Draft1996);
}

#[test]
fn the_deciding_line_is_scrolled_into_view() {
    let text = format!("{}User-agent: *\nDisallow: /deep/\n", "# filler\n".repeat(200));
    let mut app = App::from_text(&text);
    app.update(Action::Resize { width: 120, height: 40 });
    type_path(&mut app, "/deep/x");
    let decided = app.evaluation().verdict.decided_by().map(|m| m.line());
    assert_eq!(decided, Some(202));
    let view = app.source_view();
    let height = app.areas().inner_height(Pane::Source);
    assert!(view.offset <= 201 && 201 < view.offset + height, "{view:?} with height {height}");
}

#[test]
fn tester_input_and_history() {
    let mut app = App::example();
    press(&mut app, "/");
    assert_eq!(app.key_context(), KeyContext::Prompt(PromptKind::TestPath));
    assert_eq!(app.focus(), Pane::Tester);
    assert!(app.path().is_selected(), "the last path is selected: typing replaces it");
    press(&mut app, "/tmp/a<ret>");
    assert_eq!(app.key_context(), KeyContext::Pane(Pane::Source), "Enter leaves typing");
    assert_eq!(app.path().text(), "/tmp/a");
    press(&mut app, "/b<up>");
    assert_eq!(app.path().text(), "/tmp/a");
    press(&mut app, "<down><esc>");
    assert_eq!(app.path().text(), "/tmp/a", "Esc goes back to the kept path");
    assert_eq!(app.prompt(), None);
    assert_eq!(app.focus(), Pane::Source);
}

#[test]
fn focus_cycles_and_clicks_focus() {
    let mut app = App::example();
    press(&mut app, "<tab>");
    assert_eq!(app.focus(), Pane::Records);
    press(&mut app, "<tab>");
    assert_eq!(app.focus(), Pane::Tester);
    assert_eq!(app.prompt(), None, "focusing the tester does not start typing");
    press(&mut app, "<S-tab>");
    assert_eq!(app.focus(), Pane::Records);
    let robots = app.areas().robots;
    app.update(Action::Click { column: robots.x + 2, row: robots.y + 1 });
    assert_eq!(app.focus(), Pane::Robots);
    assert_eq!(app.robot_index(), 0, "clicking the first row selects the first robot");
}

#[test]
fn robots_named_in_the_file_join_the_list() {
    let app = App::from_text("User-agent: FancyBot/2.0\nDisallow: /\n");
    let entry = app.robots().iter().find(|e| e.profile.token == "FancyBot").expect("FancyBot joins");
    assert_eq!(entry.origin, RobotOrigin::NamedInFile);
}

/// Issue 24: a User-Agent header pasted into `a` selects its robot, by its profile
/// or its product token.
#[test]
fn a_pasted_user_agent_header_selects_its_robot() {
    let mut app = App::example();
    press(&mut app, "a");
    app.update(Action::Paste("Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)".into()));
    press(&mut app, "<ret>");
    assert_eq!(app.robot().profile.token, "bingbot");
    assert!(app.message().is_some_and(|m| m.contains("bingbot's User-Agent header")), "{:?}", app.message());
    let count = app.robots().len();
    press(&mut app, "a");
    app.update(Action::Paste("NewCrawler/3.1 (+https://crawler.example)".into()));
    press(&mut app, "<ret>");
    assert_eq!(app.robot().profile.token, "NewCrawler", "a robot of its own, named by its token");
    assert_eq!(app.robots().len(), count + 1);
}

#[test]
fn added_robots_are_selected() {
    let mut app = App::example();
    select(&mut app, "lycra");
    assert_eq!(app.robot().profile.token, "lycra");
    assert!(!app.evaluation().verdict.allowed());
    let count = app.robots().len();
    select(&mut app, "LYCRA");
    assert_eq!(app.robots().len(), count, "no duplicate entry");
}

#[test]
fn navigation_keeps_cursors_in_range() {
    let mut app = App::example();
    press(&mut app, "G");
    assert_eq!(app.source_view().cursor, app.document().txt.lines().len() - 1);
    press(&mut app, "g");
    assert_eq!(app.source_view().cursor, 0);
    press(&mut app, "<tab><pgdn>");
    assert!(app.records_view().cursor < app.record_rows().len());
    press(&mut app, "<ret>");
    assert_eq!(app.focus(), Pane::Source);
}

fn site(page: &str) -> Source {
    Source::resolve(&format!("http://127.0.0.1:9{page}")).expect("a site")
}

fn fetched(status: u16, body: &str) -> crate::fetch::Fetched {
    let url = url::Url::parse("http://127.0.0.1:9/robots.txt").expect("url");
    crate::fetch::Fetched {
        requested: url.clone(),
        hops: Vec::new(),
        final_url: url,
        status: crate::fetch::Status(status),
        headers: vec![("content-type".into(), "text/plain".into())],
        body: body.as_bytes().to_vec(),
        truncated: false,
        redirect_loop: false,
        refused: None,
        elapsed: Duration::from_millis(12),
    }
}

fn loaded(id: u64, source: Source, status: u16, body: &str) -> Action {
    let url = url::Url::parse("http://127.0.0.1:9/robots.txt").expect("url");
    let retrieved = Retrieved::Site { source, url, outcome: Ok(fetched(status, body)) };
    Action::Loaded { id, result: Box::new(Ok(retrieved)) }
}

#[test]
fn a_site_loads_in_the_background_and_its_page_goes_to_the_tester() {
    let db = RobotsDb::embedded();
    let mut app = App::loading(site("/private/page"), Limits::default(), false, &db);
    assert_eq!(app.path().text(), "/private/page");
    let effects = app.start();
    let [Effect::Load { id, source, .. }] = effects.as_slice() else { panic!("{effects:?}") };
    assert_eq!(*id, 1);
    assert!(app.load_in_progress().is_some());
    assert!(app.is_waiting_for_source(), "no verdict over an empty file while it loads");
    app.update(Action::LoadProgress { id: 1, elapsed: Duration::from_millis(300) });
    assert!(matches!(app.load_in_progress(), Some(Loading { elapsed, ticks: 1, .. }) if elapsed.as_millis() == 300));
    app.update(loaded(1, source.clone(), 200, "User-agent: *\nDisallow: /private/\n"));
    assert!(app.load_in_progress().is_none());
    assert!(!app.evaluation().verdict.allowed());
    assert_eq!(app.evaluation().verdict.decided_by().map(|m| m.line()), Some(2));
    assert!(app.message().is_some_and(|m| m.contains("200 OK")));
}

/// Issue 24: a fetch that failed is no "current file" in the history's now row, and
/// a cancelled first load does not still offer Esc to cancel it.
#[test]
fn a_failed_or_cancelled_load_is_called_what_it_is() {
    let db = RobotsDb::embedded();
    let mut app = App::loading(site("/"), Limits::default(), false, &db);
    app.start();
    let url = url::Url::parse("http://127.0.0.1:9/robots.txt").expect("url");
    let failed = crate::fetch::FetchError::Refused { host: "127.0.0.1".into(), port: 9 };
    let retrieved = Retrieved::Site { source: site("/"), url, outcome: Err(failed) };
    app.update(Action::Loaded { id: 1, result: Box::new(Ok(retrieved)) });
    assert!(app.history_now(false).starts_with("the fetch failed"), "{}", app.history_now(false));
    let mut app = App::loading(site("/"), Limits::default(), false, &db);
    app.start();
    press(&mut app, "<esc>");
    assert!(app.load_in_progress().is_none());
    assert!(app.is_waiting_for_source(), "nothing loaded: the tester says so, with r and o");
}

#[test]
fn error_statuses_decide_for_every_path() {
    let db = RobotsDb::embedded();
    let mut app = App::loading(site("/x"), Limits::default(), false, &db);
    let source = site("/x");
    app.start();
    app.update(loaded(1, source, 503, "<html>busy</html>"));
    assert!(!app.evaluation().verdict.allowed());
    assert!(app.evaluation().verdict.explanation().contains("503"));
    press(&mut app, "s");
    assert!(!app.evaluation().verdict.allowed(), "the 1996 draft defers too");
}

#[test]
fn esc_cancels_a_load_and_stale_results_are_dropped() {
    let db = RobotsDb::embedded();
    let mut app = App::loading(site("/"), Limits::default(), false, &db);
    app.start();
    assert_eq!(press(&mut app, "<esc>"), vec![Effect::CancelLoad { id: 1 }]);
    assert!(app.load_in_progress().is_none());
    app.update(loaded(1, site("/"), 200, "User-agent: *\nDisallow: /\n"));
    assert!(app.document().txt.source().is_empty(), "a cancelled load's result is ignored");
    // A reload replaces a running load, whose late result is ignored too.
    let first = press(&mut app, "r");
    assert!(matches!(first.as_slice(), [Effect::Load { id: 2, .. }]));
    let second = press(&mut app, "r");
    assert!(matches!(second.as_slice(), [Effect::CancelLoad { id: 2 }, Effect::Load { id: 3, .. }]));
    app.update(loaded(2, site("/"), 200, "User-agent: *\nDisallow: /\n"));
    assert!(app.document().txt.source().is_empty());
    app.update(loaded(3, site("/"), 200, "User-agent: *\nDisallow: /\n"));
    assert!(!app.evaluation().verdict.allowed());
}

#[test]
fn opening_and_reloading_sources() {
    let mut app = App::example();
    assert!(press(&mut app, "r").is_empty());
    assert!(app.message().is_some_and(|m| m.contains("embedded example")));
    // The app does no I/O: the shell asks the file system what a name names (a
    // file called example.com is a file), and the app loads what it is told.
    let effects = press(&mut app, "ono-such-file.txt<ret>");
    assert_eq!(effects, [Effect::ResolveSource { spec: "no-such-file.txt".to_owned() }]);
    let effects = app.update(Action::SourceResolved { result: Ok(Source::File("example.com".into())) });
    assert!(matches!(effects.as_slice(), [Effect::Load { source: Source::File(_), .. }]), "{effects:?}");
    assert!(press(&mut app, "<esc>").len() == 1, "the load is cancelled");
    let missing = Err(crate::fetch::SourceError::NoSuchFile("no-such-file.txt".into()));
    assert!(app.update(Action::SourceResolved { result: missing }).is_empty());
    assert!(app.message().is_some_and(|m| m.contains("no such file")), "{:?}", app.message());
    let site = Source::resolve("example.com/a").expect("a site");
    let effects = app.update(Action::SourceResolved { result: Ok(site) });
    let [Effect::Load { source: Source::Site { robots_url, page }, .. }] = effects.as_slice() else {
        panic!("{effects:?}")
    };
    assert_eq!(robots_url.as_str(), "https://example.com/robots.txt");
    assert_eq!(page.as_deref(), Some("/a"));
}

#[test]
fn as_robot_sends_the_selected_robots_user_agent() {
    let db = RobotsDb::embedded();
    let mut app = App::loading(site("/"), Limits::default(), true, &db);
    let effects = app.start();
    let [Effect::Load { limits, .. }] = effects.as_slice() else { panic!("{effects:?}") };
    assert!(limits.user_agent.contains("Googlebot/2.1"), "{}", limits.user_agent);
}

#[test]
fn quit_is_an_effect() {
    let mut app = App::example();
    assert_eq!(press(&mut app, "q"), vec![Effect::Quit]);
    assert!(app.update(Action::NextRobot).is_empty());
}

#[test]
fn messages_describe_the_present() {
    let mut app = App::example();
    select(&mut app, "Scooter");
    assert_eq!(app.message(), Some("Selected Scooter"));
    press(&mut app, "j");
    assert_eq!(app.message(), Some("Selected Scooter"), "moving the cursor leaves it true");
    press(&mut app, "]");
    assert_eq!(app.message(), None, "another robot is selected now");
    press(&mut app, "f");
    assert!(app.message().is_some_and(|m| m.starts_with("Nothing to fix")));
    press(&mut app, "j");
    assert_eq!(app.message(), None, "a remark on a key lasts until the next key");
    assert!(app.message_log().any(|m| m == "Selected Scooter"), "the log keeps them");
}

#[test]
fn paths_read_as_crawlers_request_them() {
    let mut app = App::from_text("User-agent: *\nDisallow: /cgi-bin/\nDisallow: /caf%C3%A9/\n");
    type_path(&mut app, "/cgi-bin/x");
    assert!(!app.evaluation().verdict.allowed(), "typed after /, replacing it: not //cgi-bin/x");
    type_path(&mut app, "cgi-bin/x");
    assert!(!app.evaluation().verdict.allowed());
    assert!(app.evaluation().note.as_deref().is_some_and(|n| n.contains("relative to /")));
    type_path(&mut app, "/café/menu");
    assert_eq!(app.evaluation().verdict.path(), "/caf%C3%A9/menu");
    assert!(!app.evaluation().verdict.allowed());
    type_path(&mut app, "//cgi-bin/x");
    assert!(app.evaluation().verdict.allowed(), "a path whose first segment is empty");
}

#[test]
fn search_and_go_to_line() {
    let mut app = App::example();
    app.update(Action::Resize { width: 120, height: 40 });
    press(&mut app, "<C-f>WebCrawler");
    assert_eq!(app.message(), Some("Not found: WebCrawler"), "an upper-case letter makes the search exact");
    press(&mut app, "<C-u>webcrawler");
    let line = app.source_view().cursor + 1;
    assert_eq!(line, 19);
    press(&mut app, "<ret>n");
    assert_eq!(app.source_view().cursor + 1, 21);
    press(&mut app, "n");
    assert_eq!(app.source_view().cursor + 1, 19, "the search wraps around");
    press(&mut app, "N");
    assert_eq!(app.source_view().cursor + 1, 21);
    press(&mut app, ":3<ret>");
    assert_eq!(app.source_view().cursor, 2);
    press(&mut app, "<C-f>no such text<esc>");
    assert_eq!(app.source_view().cursor, 2, "Esc goes back to where the search began");
}

/// Issue 24: a file past 500 KiB is read under RFC 9309 as Google reads it, the
/// first 500 KiB, and the tester says when the rest would change the answer.
#[test]
fn a_file_past_500_kib_is_read_as_google_reads_it() {
    let text = format!("User-agent: *\n{}Disallow: /\n", "Allow: /filler/page.html\n".repeat(25_000));
    let mut app = App::from_text(&text);
    type_path(&mut app, "/private");
    assert!(app.evaluation().verdict.allowed(), "Disallow: / is past the cut");
    let whole = app.evaluation().past_the_cut.as_ref().expect("the whole file answers otherwise");
    assert_eq!((whole.allowed(), whole.decided_by().map(|m| m.line())), (false, Some(25_002)));
    let details = app.tester_details(100);
    let said = details.iter().find(|d| d.kind == tester::DetailKind::PastTheCut).expect("the tester says so");
    assert!(said.text.contains("only the first 512000 bytes count"), "{}", said.text);
    // The group copied is the group as the file writes it, to its last line.
    let local =
        crate::clipboard::Environment { has_display: true, over_ssh: false, in_tmux: false, tmux_drops_osc52: None };
    app.set_clipboard(crate::clipboard::ClipboardMode::System, local, None);
    let effects = press(&mut app, "yg");
    let [Effect::Copy { text: group, .. }] = effects.as_slice() else { panic!("{effects:?}") };
    assert!(group.len() > 600_000 && group.ends_with("Disallow: /\n"), "{} bytes", group.len());
    type_path(&mut app, "/filler/page.html");
    assert_eq!(app.evaluation().past_the_cut, None, "the same answer either way is not noted");
    press(&mut app, "s");
    assert_eq!(app.reading(), Reading::Draft1996);
    type_path(&mut app, "/private");
    assert!(!app.evaluation().verdict.allowed(), "the 1996 draft sets no limit");
    assert_eq!(app.evaluation().past_the_cut, None);
}

/// A site's robots.txt cut at the download cap: the tester says the readings that
/// read every byte may answer otherwise, and the save prompt that only the part read
/// would be saved, edits or not.
#[test]
fn a_file_downloaded_in_part_says_so_in_the_tester_and_the_save_prompt() {
    let db = RobotsDb::embedded();
    let mut app = App::loading(site("/"), Limits::default(), false, &db);
    app.start();
    let url = url::Url::parse("http://127.0.0.1:9/robots.txt").expect("url");
    let outcome = Ok(crate::fetch::Fetched { truncated: true, ..fetched(200, "User-agent: *\nDisallow: ~\n") });
    app.update(Action::Loaded { id: 1, result: Box::new(Ok(Retrieved::Site { source: site("/"), url, outcome })) });
    let cut = |app: &App| {
        let details = app.tester_details(200);
        let lines: Vec<&str> =
            details.iter().filter(|d| d.kind == tester::DetailKind::PastTheCut).map(|d| d.text.as_str()).collect();
        (!lines.is_empty()).then(|| lines.join(" "))
    };
    let said = cut(&app).expect("the tester says so");
    assert!(said.contains("Only the first 512000 bytes were downloaded"), "{said}");
    assert!(said.contains("the 1996 draft and the 1994 standard read every byte"), "{said}");
    press(&mut app, "F");
    assert!(cut(&app).is_some(), "still only a part after an edit");
    assert!(app.save_hint("robots.txt").starts_with("Only the part that was read is saved"));
    assert!(!App::example().save_hint("robots.txt").contains("part"));
}

/// The shell is told what follows from the state, not left to poll it: the recovery
/// copy when edits appear and when they are saved, a background lint once per large
/// text.
#[test]
fn recovery_copies_and_background_lints_are_effects() {
    let mut app = App::from_text("User-agent: *\nDisallow: ~\n");
    assert!(app.start().is_empty(), "no edits, a small text: nothing to keep or lint");
    let effects = app.update(Action::FixAll);
    let copy = effects.iter().find_map(|effect| match effect {
        Effect::KeepRecoveryCopy(Some(copy)) => Some(copy.text.clone()),
        _ => None,
    });
    assert_eq!(copy.as_deref(), Some(b"User-agent: *\nDisallow: /~\n".as_slice()));
    assert!(app.update(Action::Resize { width: 80, height: 24 }).is_empty(), "said once");
    let text = app.document().txt.source().to_vec();
    let path = std::path::PathBuf::from("robots.txt");
    let saved = crate::save::Saved { file: path.clone(), in_place: false, stamp: None };
    let effects = app.update(Action::Saved { path, text, after: AfterSave::Stay, result: Box::new(Ok(saved)) });
    assert!(effects.contains(&Effect::KeepRecoveryCopy(None)), "{effects:?}");

    let large = format!("User-agent: *\n{}", "Disallow: /a\n".repeat(10_000));
    let mut app = App::from_text(&large);
    let lints = |effects: &[Effect]| effects.iter().filter(|e| matches!(e, Effect::Lint { .. })).count();
    assert_eq!(lints(&app.start()), 1);
    assert_eq!(lints(&app.update(Action::Resize { width: 80, height: 24 })), 0, "asked once per text");
    // From the attack on issue 26: a burst of keys on a large text started a lint per
    // key, each holding its own copy (6.4 GB for 50 keys on 300,000 lines). One runs at
    // a time; when it answers, the text on screen is linted next.
    app.update(Action::OpenEditor);
    // Each key in a frame of its own, as a slow typist's are: the loop settles the text
    // before it draws.
    let typed = |app: &mut App, c: char| {
        let key = crossterm::event::KeyEvent::from(crossterm::event::KeyCode::Char(c));
        lints(&app.update(Action::EditorKey(key))) + lints(&app.settle())
    };
    assert_eq!(typed(&mut app, 'x') + typed(&mut app, 'y') + typed(&mut app, 'z'), 0, "one lint runs already");
    let stale = app.update(Action::Linted { generation: 0, diagnostics: Vec::new() });
    let asked: Vec<u64> = stale
        .iter()
        .filter_map(|effect| match effect {
            Effect::Lint { generation, .. } => Some(*generation),
            _ => None,
        })
        .collect();
    assert_eq!(asked.len(), 1, "one lint, for the text on screen");
    assert_eq!(Some(asked[0]), app.stale_diagnostics(), "the text on screen is linted next");
    assert_eq!(typed(&mut app, 'w'), 0);
}
