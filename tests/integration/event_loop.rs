//! The event loop itself, driven by a stream of terminal events into `TestBackend`:
//! keys become actions in order (each translated in the mode the previous one left),
//! and the screen shows the result.
// The binary and its layers: built with the default `tool` feature only.

use crate::support;

use std::time::Duration;

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use robotscope::app::{App, Pane};
use robotscope::fetch::{Limits, Source};
use robotscope::policy::Code;
use robotscope::robots_db::RobotsDb;
use support::explorer;
use support::{Reply, Server};
use tokio::sync::mpsc;

fn key(code: KeyCode) -> Event {
    Event::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

fn typed(text: &str) -> Vec<Event> {
    text.chars().map(|c| key(KeyCode::Char(c))).collect()
}

async fn run(events: Vec<Event>) -> (App, Terminal<TestBackend>) {
    let (app, terminal, _) = run_on(App::example(), events).await;
    (app, terminal)
}

/// Runs the loop on `app` with `events`; returns the final state, the screen, and what
/// was written to the terminal besides frames (OSC 52).
async fn run_on(app: App, events: Vec<Event>) -> (App, Terminal<TestBackend>, Vec<u8>) {
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("terminal");
    let (actions, inbox) = mpsc::unbounded_channel();
    let mut out = Vec::new();
    let stream = futures::stream::iter(events.into_iter().map(Ok));
    let app = robotscope::tui::event_loop(&mut terminal, stream, actions, inbox, app, &mut out)
        .await
        .expect("the loop ends when the events do");
    (app, terminal, out)
}

fn screen(terminal: &Terminal<TestBackend>) -> String {
    let buffer = terminal.backend().buffer();
    (0..buffer.area.height)
        .map(|y| (0..buffer.area.width).map(|x| buffer[(x, y)].symbol()).collect::<String>() + "\n")
        .collect()
}

#[tokio::test]
async fn a_burst_of_keys_is_applied_in_order() {
    // `a` opens the name prompt, so the following letters are typed, not commands: the
    // `s` of "Slurp" must not cycle the reading.
    let mut events = typed("aSlurp");
    events.push(key(KeyCode::Enter));
    events.extend(typed("/"));
    events.push(Event::Key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL)));
    events.extend(typed("/tmp/x"));
    let (app, terminal) = run(events).await;
    assert_eq!(app.robot().profile.name, "Slurp");
    assert!(!app.reading_is_chosen());
    assert_eq!(app.path().text(), "/tmp/x");
    let text = screen(&terminal);
    assert!(text.contains("✗ DISALLOWED  Slurp"), "{text}");
    assert!(text.contains("line 41: Disallow: /tmp/"), "{text}");
}

#[tokio::test]
async fn mouse_and_resize_events_reach_the_app() {
    let events = vec![
        Event::Resize(80, 24),
        Event::Mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column: 2,
            row: 3,
            modifiers: KeyModifiers::NONE,
        }),
    ];
    let (app, _) = run(events).await;
    assert_eq!(app.areas().status.y, 23);
    assert_eq!(app.focus(), Pane::Robots);
    assert_eq!(app.robot_index(), app.robots_view().offset + 2, "the third row of the robots pane was clicked");
}

#[tokio::test]
async fn q_quits_and_pasted_text_lands_in_the_path() {
    let events = vec![
        key(KeyCode::Char('/')),
        Event::Paste("/pasted\nsecond line".to_owned()),
        key(KeyCode::Enter),
        key(KeyCode::Char('q')),
        key(KeyCode::Char('s')),
    ];
    let (app, _) = run(events).await;
    assert_eq!(app.path().text(), "/pasted", "the paste replaces the selected path and stops at its line break");
    assert!(!app.reading_is_chosen(), "nothing after q was applied");
}

#[tokio::test]
async fn a_site_is_fetched_in_the_background() {
    let server = Server::start(|_| Reply::text("User-agent: *\nDisallow: /private/\n"));
    let source = Source::resolve(&server.url("/private/page")).expect("a site");
    let app = App::loading(source, Limits::default(), false, &RobotsDb::embedded());
    let app = explorer::run_steps(app, vec![explorer::when_idle("q")]).await;
    assert!(!app.evaluation().verdict.allowed(), "{}", app.evaluation().verdict.explanation());
    assert_eq!(app.path().text(), "/private/page");
}

#[tokio::test]
async fn esc_cancels_a_slow_fetch_and_the_ui_keeps_answering() {
    let server =
        Server::start(|_| Reply::Slow { body: b"User-agent: *\nDisallow: /\n".to_vec(), gap: Duration::from_secs(1) });
    let source = Source::resolve(&server.url("/")).expect("a site");
    let app = App::loading(source, Limits::default(), false, &RobotsDb::embedded());
    let first_robot = App::example().robot().profile.name.clone();
    // Esc once the loop has shown the fetch running for a while, then `]`: the loop runs
    // on until it is idle, so a fetch that Esc did not stop would deliver its file
    // (a byte a second) before the test looks.
    let fetching = |app: &App| app.load_in_progress().is_some_and(|loading| loading.ticks >= 3);
    let app = explorer::run_steps(app, vec![explorer::once(fetching, "<esc>]")]).await;
    assert!(app.load_in_progress().is_none());
    assert!(app.message_log().any(|m| m.contains("Cancelled")), "{:?}", app.message_log().collect::<Vec<_>>());
    assert!(app.document().txt.source().is_empty(), "the cancelled fetch never delivered");
    assert_ne!(app.robot().profile.name, first_robot, "] after Esc moved to the next robot");
}

#[tokio::test]
async fn copying_without_a_display_writes_osc_52_to_the_terminal() {
    let app = App::from_text("User-agent: *\nDisallow: /private/\n");
    let (app, _, out) = run_on(app, vec![key(KeyCode::Char('y')), key(KeyCode::Char('f'))]).await;
    assert_eq!(out, b"\x1b]52;c;VXNlci1hZ2VudDogKgpEaXNhbGxvdzogL3ByaXZhdGUvCg==\x07");
    assert!(app.message().is_some_and(|m| m.contains("OSC 52")), "{:?}", app.message());
}

#[tokio::test]
async fn editing_in_the_editor_retests_at_every_key() {
    let app = App::from_text("User-agent: *\nDisallow: /private/\n");
    let mut events = vec![key(KeyCode::Char('e')), key(KeyCode::Down), key(KeyCode::End)];
    events.extend(typed("x"));
    events.extend([key(KeyCode::Esc), key(KeyCode::Char('/'))]);
    events.push(Event::Key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL)));
    events.extend(typed("/private/a"));
    let (app, _, _) = run_on(app, events).await;
    assert_eq!(app.document().txt.source(), b"User-agent: *\nDisallow: /private/x\n");
    assert!(app.evaluation().verdict.allowed(), "/private/a is no longer covered by /private/x");
    assert!(app.is_dirty());
}

/// A large text is linted on a background task: the loop draws at once and the
/// diagnostics arrive after; an edit meanwhile would make the answer stale, and `d` on
/// a text still being linted lints it on the spot.
#[tokio::test]
async fn a_large_text_is_linted_in_the_background() {
    let large = || {
        let mut text = String::from("User-agent: *\nDisallow: ~\n");
        text.extend((0..20_000).map(|i| format!("Allow: /page/{i}\n")));
        App::from_text(&text)
    };
    let app = large();
    assert!(app.stale_diagnostics().is_some() && app.diagnostics().is_empty(), "not linted before the loop runs");
    let app = explorer::run_steps(app, vec![explorer::when_idle("q")]).await;
    assert_eq!(app.stale_diagnostics(), None);
    assert!(
        app.diagnostics().iter().any(|d| d.code() == Code::PathWithoutSlash && d.line() == 2),
        "{:?}",
        app.diagnostics()
    );

    let mut app = large();
    let generation = app.stale_diagnostics().expect("still to lint");
    app.update(robotscope::app::Action::Linted { generation: generation + 1, diagnostics: Vec::new() });
    assert_eq!(app.stale_diagnostics(), Some(generation), "an answer for another text is dropped");
    robotscope::app::keymap::press(&mut app, "d");
    assert_eq!(app.stale_diagnostics(), None);
    assert!(app.diagnostics().iter().any(|d| d.code() == Code::PathWithoutSlash), "the list lints on the spot");
}

/// A file shaped like the 3.7 MB www.xuexi.cn robots.txt (tens of thousands of Allow
/// lines, later ones repeating earlier ones), with every repeat a fix for `F`.
fn many_duplicate_rules(rules: usize) -> String {
    let mut text = String::from("User-agent: *\n");
    let line = |i: usize| format!("Allow: /{i:032x}/{:032x}.html\n", i * 7919);
    text.extend((0..rules).map(line));
    text.extend((0..rules / 10).map(line));
    text.push_str("Disallow: /\n");
    text
}

/// Issue 24: `F` then `v` on a multi-megabyte file froze the explorer for good. Here the
/// loop goes through that sequence while the background lint of the loaded text (and
/// then of the fixed one) is still running, shows what the fixes changed, and still
/// takes the keys that close the view and quit (asked first: there are edits).
#[tokio::test]
async fn fix_everything_then_changes_while_a_background_lint_runs() {
    let app = App::from_text(&many_duplicate_rules(30_000));
    assert!(app.stale_diagnostics().is_some(), "linted in the background, not before the loop");
    let mut terminal = Terminal::new(TestBackend::new(200, 60)).expect("terminal");
    // F and v at once, while the lint runs (F on a text this large runs in the
    // background too); the rest once both answers are in.
    let steps = vec![explorer::at_once("Fv"), explorer::when_idle("<esc>qq")];
    let app = explorer::run_steps_on(&mut terminal, app, steps).await;
    assert!(app.is_dirty(), "the fixes were applied");
    let log: Vec<&str> = app.message_log().collect();
    assert!(log.iter().any(|m| m.starts_with("Applied 3000 fixes")), "{log:?}");
}

/// Issue 25: the sitemaps view keeps URLs by bytes: ten sitemaps of a thousand 8 KB URLs
/// (80 MB) leave it holding at most its 32 MiB, the rest counted and said at the top.
#[tokio::test]
async fn the_sitemaps_view_keeps_urls_by_bytes() {
    use robotscope::app::view::sitemaps::MAX_VIEW_URL_BYTES;
    let long = "x".repeat(8000);
    let base = std::sync::Arc::new(std::sync::OnceLock::<String>::new());
    let for_router = std::sync::Arc::clone(&base);
    let server = Server::start(move |path| {
        let base = for_router.get().expect("base");
        if path == "/robots.txt" {
            let lines = (0..10).map(|n| format!("Sitemap: {base}/s/{n}.xml\n")).collect::<Vec<_>>().concat();
            return Reply::text(&format!("User-agent: *\nDisallow: /a/\n{lines}"));
        }
        let urls = (0..1000).map(|i| format!("<url><loc>{base}/a/{i}-{long}</loc></url>")).collect::<Vec<_>>().concat();
        Reply::Status { status: 200, headers: vec![], body: format!("<urlset>{urls}</urlset>").into_bytes() }
    });
    base.set(server.url("").trim_end_matches('/').to_owned()).expect("set once");
    let source = Source::resolve(&server.url("/")).expect("a site");
    let app = App::loading(source, Limits::default(), false, &RobotsDb::embedded());
    // The file loads, then m; the loop ends once the walk is done.
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("terminal");
    let app = explorer::run_steps_on(&mut terminal, app, vec![explorer::when_idle("m")]).await;
    let view = app.sitemaps_view().expect("the view is open");
    let kept: usize = view.urls.iter().map(|(url, _)| url.len()).sum();
    assert!(kept <= MAX_VIEW_URL_BYTES, "{kept} bytes kept");
    assert_eq!(view.urls.len() + view.dropped, 10_000, "every URL kept or counted");
    assert!(view.dropped > 5000, "{} dropped", view.dropped);
    terminal.draw(|frame| robotscope::ui::render(&app, frame)).expect("draw");
    assert!(screen(&terminal).contains("more URLs listed, not checked here"), "{}", screen(&terminal));
}
