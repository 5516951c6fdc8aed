//! The explorer driven by keys, through the keymap, the way the event loop drives it
//! (helix tests its keymap the same way): every key the help lists reaches its action
//! in its context, every prompt gets every key typed into it, and the key sequences
//! users stumbled on (issue 11) do what they mean.
// The binary and its layers: built with the default `tool` feature only.

use crate::support;

use robotscope::app::keymap::{BINDINGS, Context, action_for, parse_keys, press};
use robotscope::app::{Action, AfterSave, App, Effect, KeyContext, Overlay, Pane, PromptKind};
use robotscope::fetch::{Limits, Source};
use robotscope::robots_db::RobotsDb;
use support::explorer::{draw, select, test_path};

/// A file with a mistake to fix (so that the quit question can be asked), a few robots
/// and a sitemap (so that the sitemaps view opens).
const FILE: &str = "User-agent: *\nDisallow: /cgi-bin/\nDisallow: ~\n\nUser-agent: Slurp\nDisallow: /private/\n\n\
                    Sitemap: https://example.com/sitemap.xml\n";

/// The keys that put a fresh explorer on [`FILE`] into `context`.
fn keys_into(context: Context) -> &'static str {
    match context {
        // The last: reached by a save's answer (see [`app_for`]).
        Context::Global
        | Context::Navigation
        | Context::Pane(Pane::Source)
        | Context::Overlay(Overlay::ConfirmReplace | Overlay::ChangedOnDisk) => "",
        Context::Pane(Pane::Records) => "<tab>",
        Context::Pane(Pane::Tester) => "<tab><tab>",
        Context::Pane(Pane::Robots) => "<tab><tab><tab>",
        Context::Prompt | Context::RobotPrompt => "a",
        Context::PathPrompt => "/",
        Context::Editing => "e",
        Context::Overlay(Overlay::Help) => "?",
        Context::Overlay(Overlay::Messages) => "M",
        Context::Overlay(Overlay::FetchDetails) => "i",
        // The keys every view inherits are checked here in the diagnostics list (and in
        // every view by `every_view_inherits_moving_help_and_the_log`).
        Context::InView | Context::Overlay(Overlay::Diagnostics) => "d",
        Context::Overlay(Overlay::Changes) => "v",
        Context::Overlay(Overlay::Policy) => "b",
        Context::Overlay(Overlay::CopyMenu) => "y",
        Context::Overlay(Overlay::UnsavedEdits) => "Fq",
        Context::Overlay(Overlay::Compare) => "c",
        // The walk starts (the effect is not run here) and the view opens.
        Context::Overlay(Overlay::Sitemaps) => "m",
        // A URL in the tester, then `p`: the page's fetch starts and the overlay opens.
        Context::Overlay(Overlay::Page) => "/https://example.com/<ret>p",
        // On a site (see [`app_for`]): the store is read (the effect is not run here).
        Context::Overlay(Overlay::History) => "H",
        // A log named at the prompt: the audit starts (the effect is not run here).
        Context::Overlay(Overlay::Audit) => "Laccess.log<ret>",
    }
}

/// A fresh explorer for `context`: on [`FILE`], or on a site for the history view,
/// which a file has none of.
fn app_for(context: Context) -> App {
    if context == Context::Overlay(Overlay::History) {
        let site = Source::resolve("https://example.com/").expect("a site");
        return App::loading(site, Limits::default(), false, &RobotsDb::embedded());
    }
    let mut app = App::from_text(FILE);
    if context == Context::Overlay(Overlay::ConfirmReplace) {
        // A save to a file that exists comes back asking.
        press(&mut app, "Fw<C-u>robots.txt<ret>");
        let path = std::path::PathBuf::from("robots.txt");
        let result = Err(robotscope::save::SaveError::Exists { path: path.clone() });
        app.update(robotscope::app::Action::Saved {
            path,
            text: Vec::new(),
            after: AfterSave::Stay,
            result: Box::new(result),
        });
    }
    if context == Context::Overlay(Overlay::ChangedOnDisk) {
        // A save over a file another program changed comes back asking.
        press(&mut app, "Fw<C-u>robots.txt<ret>");
        let path = std::path::PathBuf::from("robots.txt");
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("theirs"), "theirs").expect("write");
        let metadata = std::fs::metadata(dir.path().join("theirs")).expect("metadata");
        let stamp = robotscope::fetch::FileStamp::new(&metadata, b"theirs", false);
        let result = Err(robotscope::save::SaveError::Changed { path: path.clone(), now: b"theirs".to_vec(), stamp });
        app.update(robotscope::app::Action::Saved {
            path,
            text: Vec::new(),
            after: AfterSave::Stay,
            result: Box::new(result),
        });
    }
    app
}

/// The key context each binding's context is reached in.
fn expected(context: Context) -> KeyContext {
    match context {
        Context::Global | Context::Navigation => KeyContext::Pane(Pane::Source),
        Context::Pane(pane) => KeyContext::Pane(pane),
        Context::Prompt | Context::RobotPrompt => KeyContext::Prompt(PromptKind::AddRobot),
        Context::PathPrompt => KeyContext::Prompt(PromptKind::TestPath),
        Context::Editing => KeyContext::Editor,
        Context::Overlay(overlay) => KeyContext::Overlay(overlay),
        Context::InView => KeyContext::Overlay(Overlay::Diagnostics),
    }
}

#[test]
fn every_key_of_the_help_reaches_its_action() {
    let mut checked = 0;
    for binding in BINDINGS {
        let mut app = app_for(binding.context);
        press(&mut app, keys_into(binding.context));
        assert_eq!(app.key_context(), expected(binding.context), "getting into {:?}", binding.context);
        for key in binding.keys {
            let event = crossterm::event::KeyEvent::new(key.code, key.modifiers);
            assert_eq!(
                action_for(&app, event),
                Some(binding.action.clone()),
                "{:?} in {:?} ({})",
                key,
                binding.context,
                binding.label
            );
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked} keys");
}

/// Every overlay, each as a user opens it.
const VIEWS: [Overlay; 12] = [
    Overlay::Compare,
    Overlay::Page,
    Overlay::Sitemaps,
    Overlay::History,
    Overlay::Help,
    Overlay::Messages,
    Overlay::FetchDetails,
    Overlay::Diagnostics,
    Overlay::Changes,
    Overlay::CopyMenu,
    Overlay::UnsavedEdits,
    Overlay::ConfirmReplace,
];

/// An explorer with `view` open, the way a user opens it.
fn open(view: Overlay) -> App {
    let mut app = app_for(Context::Overlay(view));
    press(&mut app, keys_into(Context::Overlay(view)));
    assert_eq!(app.overlay(), Some(view), "opening {view:?}");
    app
}

/// Issue 26: every view moves and scrolls with the same keys, and `?` and `M` open help
/// and the message log over it (unless it binds them itself: help's `?` closes it).
#[test]
fn every_view_inherits_moving_help_and_the_log() {
    let moves = [
        ("j", Action::Down),
        ("<down>", Action::Down),
        ("k", Action::Up),
        ("<pgdn>", Action::PageDown),
        ("<C-u>", Action::PageUp),
        ("g", Action::Top),
        ("G", Action::Bottom),
    ];
    for view in VIEWS {
        let app = open(view);
        for (key, action) in &moves {
            let event = parse_keys(key)[0];
            let own = BINDINGS.iter().any(|b| {
                b.context == Context::Overlay(view)
                    && b.keys.iter().any(|k| k.code == event.code && k.modifiers == event.modifiers)
            });
            // A view's own binding comes first (the copy menu's g copies the group).
            if !own {
                assert_eq!(action_for(&app, event).as_ref(), Some(action), "{key} in {view:?}");
            }
        }
        assert_eq!(action_for(&app, parse_keys("?")[0]), Some(Action::Toggle(Overlay::Help)), "? in {view:?}");
        assert_eq!(action_for(&app, parse_keys("M")[0]), Some(Action::Toggle(Overlay::Messages)), "M in {view:?}");
    }
    // And they move: the diagnostics list, the history (on a site, "now" and nothing
    // else here) and help scroll; the compare view moves its cursor.
    let mut app = App::from_text("User-agent: *\nDisallow: ~\nDisallow: ~x\nNoindex: /\n");
    draw(&mut app, 120, 40);
    press(&mut app, "dj");
    assert!(app.diagnostics().len() > 1);
    assert_eq!(app.diagnostics_view().cursor, 1, "the diagnostics list moves with j");
    let mut app = open(Overlay::Help);
    draw(&mut app, 60, 20);
    press(&mut app, "<pgdn>");
    assert!(app.overlay_scroll() > 0, "help scrolls a page on a small screen");
}

/// Issue 26: `?` opens help over every view, listing that view's keys first, and Esc
/// goes back to the view; Esc closes every view (a view that is reading stops first).
#[test]
fn help_over_every_view_and_esc_out_of_every_view() {
    for view in VIEWS {
        let mut app = open(view);
        press(&mut app, "?");
        if view == Overlay::Help {
            assert_eq!(app.overlay(), None, "? closes help");
            continue;
        }
        assert_eq!(app.overlay(), Some(Overlay::Help), "? over {view:?}");
        let first = robotscope::app::keymap::help_sections_for(app.help_first());
        // The copy menu and the two questions list their keys on screen, not in help.
        if !matches!(view, Overlay::CopyMenu | Overlay::UnsavedEdits | Overlay::ConfirmReplace) {
            assert_eq!(first[0].0, Context::Overlay(view), "help over {view:?} lists its keys first");
        }
        press(&mut app, "<esc>");
        assert_eq!(app.overlay(), Some(view), "Esc from help goes back to {view:?}");
        press(&mut app, "<esc>");
        if app.overlay() == Some(view) {
            // Esc stopped the reading the view had started; the next one leaves.
            assert!(matches!(view, Overlay::Sitemaps | Overlay::History), "{view:?} stayed open on Esc");
            press(&mut app, "<esc>");
        }
        assert_eq!(app.overlay(), None, "Esc closes {view:?}");
    }
}

#[test]
fn global_keys_work_from_every_pane() {
    for into_pane in ["", "<tab>", "<tab><tab>", "<tab><tab><tab>"] {
        for binding in BINDINGS.iter().filter(|b| b.context == Context::Global) {
            let mut app = App::from_text(FILE);
            press(&mut app, into_pane);
            let event = crossterm::event::KeyEvent::new(binding.keys[0].code, binding.keys[0].modifiers);
            assert_eq!(
                action_for(&app, event),
                Some(binding.action.clone()),
                "{} from {:?}",
                binding.label,
                app.focus()
            );
        }
    }
}

/// Characters that are commands elsewhere, typed into a prompt.
const TRICKY: &str = "q/c?]jsx[aG: ";

/// Every prompt, the keys that open it from a fresh explorer, and whether it opens over
/// the compare view.
const PROMPTS: &[(&str, PromptKind)] = &[
    ("/", PromptKind::TestPath),
    ("a", PromptKind::AddRobot),
    ("o", PromptKind::OpenSource),
    ("w", PromptKind::SaveAs(AfterSave::Stay)),
    ("Fqw", PromptKind::SaveAs(AfterSave::ThenContinue)),
    ("c/", PromptKind::ComparePath),
    ("cL", PromptKind::ComparePathsFile),
    ("ca", PromptKind::AddRobot),
    ("<C-f>", PromptKind::Search),
    (":", PromptKind::GoToLine),
    ("e<C-s>", PromptKind::SaveAs(AfterSave::Stay)),
];

#[test]
fn every_prompt_gets_every_key_typed_into_it() {
    for &(open, kind) in PROMPTS {
        let mut app = App::from_text(FILE);
        press(&mut app, open);
        assert_eq!(app.key_context(), KeyContext::Prompt(kind), "{open}");
        press(&mut app, "<C-u>");
        press(&mut app, TRICKY);
        let typed = app.prompt().map(|p| p.input.text().to_owned());
        assert_eq!(typed.as_deref(), Some(TRICKY), "{open}: the keys went elsewhere");
        press(&mut app, "<left><left><bs>X<home>Y<end><C-w>");
        let typed = app.prompt().map(|p| p.input.text().to_owned());
        // Two left, delete the G, X; Y at the start; Ctrl-W deletes back to the /.
        assert_eq!(typed.as_deref(), Some("Yq/"), "{open}: editing keys");
        press(&mut app, "<esc>");
        assert_eq!(app.prompt(), None, "{open}: Esc leaves the prompt");
    }
}

#[test]
fn enter_does_what_each_prompt_is_for_and_leaves_it() {
    // The tester: the path is kept, and the next key is a command again.
    let mut app = App::from_text(FILE);
    press(&mut app, "//cgi-bin/x<ret>");
    assert_eq!(app.path().text(), "/cgi-bin/x");
    assert!(!app.evaluation().verdict.allowed(), "typed over the selected / : not //cgi-bin/x");
    press(&mut app, "c");
    assert_eq!(app.overlay(), Some(Overlay::Compare), "c after Enter opens the compare view");

    // A compare row, typed over the compare view, which gets the keys back after.
    press(&mut app, "//q/s<ret>");
    let view = app.compare().expect("still open");
    assert_eq!(view.paths[view.cursor.0], "/q/s");
    assert_eq!(app.key_context(), KeyContext::Overlay(Overlay::Compare));
    let effects = press(&mut app, "Lrows.txt<ret>");
    assert_eq!(effects, vec![Effect::ReadPaths { file: "rows.txt".into() }]);
    assert_eq!(app.key_context(), KeyContext::Overlay(Overlay::Compare));

    // A robot, a source, a save.
    let mut app = App::from_text(FILE);
    press(&mut app, "aSlurp<ret>");
    assert_eq!(app.robot().profile.name, "Slurp");
    let effects = press(&mut app, "o./no/such/file.txt<ret>");
    run_loads(&mut app, effects);
    assert!(app.message().is_some_and(|m| m.contains("no such file")), "{:?}", app.message());
    let effects = press(&mut app, "w<C-u>/tmp/out.txt<ret>");
    let [Effect::Save { path, after: AfterSave::Stay, .. }] = effects.as_slice() else { panic!("{effects:?}") };
    assert_eq!(path.to_string_lossy(), "/tmp/out.txt");
    press(&mut app, ":5<ret>");
    assert_eq!(app.source_view().cursor, 4);
}

#[test]
fn the_tester_opens_with_the_last_path_selected() {
    let mut app = App::from_text(FILE);
    test_path(&mut app, "/private/a");
    press(&mut app, "/");
    assert!(app.path().is_selected());
    press(&mut app, "<end>/b<ret>");
    assert_eq!(app.path().text(), "/private/a/b", "a move keeps the text for editing");
    press(&mut app, "/x<esc>");
    assert_eq!(app.path().text(), "/private/a/b", "Esc goes back to the kept path");
    press(&mut app, "/<up><up><ret>");
    assert_eq!(app.path().text(), "/private/a", "the history is kept");
}

#[test]
fn shift_tab_moves_focus_back() {
    let mut app = App::from_text(FILE);
    press(&mut app, "<S-tab>");
    assert_eq!(app.focus(), Pane::Robots);
    press(&mut app, "<S-tab>");
    assert_eq!(app.focus(), Pane::Tester);
}

#[test]
fn help_and_messages_over_the_compare_view_go_back_to_it() {
    let mut app = App::from_text(FILE);
    press(&mut app, "c?");
    assert_eq!(app.overlay(), Some(Overlay::Help));
    press(&mut app, "<esc>");
    assert_eq!(app.overlay(), Some(Overlay::Compare));
    press(&mut app, "M<esc><esc>");
    assert_eq!(app.overlay(), None);
}

#[test]
fn paths_tested_later_become_compare_rows() {
    let mut app = App::from_text(FILE);
    press(&mut app, "cc");
    test_path(&mut app, "/later/path");
    press(&mut app, "c");
    assert!(app.compare().expect("open").paths.contains(&"/later/path".to_owned()));
}

#[test]
fn messages_describe_the_present_and_the_log_keeps_them() {
    let mut app = App::from_text(FILE);
    select(&mut app, "Scooter");
    assert_eq!(app.message(), Some("Selected Scooter"));
    press(&mut app, "]");
    assert_eq!(app.message(), None, "Scooter is no longer selected");
    press(&mut app, "M");
    let screen = draw(&mut app, 100, 30).backend().to_string();
    assert!(screen.contains("Selected Scooter"), "{screen}");
}

#[test]
fn a_long_message_is_cut_and_the_log_shows_it_whole() {
    let mut app = App::from_text(FILE);
    let long = format!("no/such/dir/{}/robots.txt", "x".repeat(150));
    let effects = press(&mut app, &format!("o./{long}<ret>"));
    run_loads(&mut app, effects);
    let screen = draw(&mut app, 80, 24).backend().to_string();
    assert!(screen.contains("M shows all"), "{screen}");
    press(&mut app, "M");
    let screen = draw(&mut app, 80, 24).backend().to_string();
    let joined: String = screen.lines().map(|l| l.trim_matches(|c| c == '"' || c == '│' || c == ' ')).collect();
    assert!(joined.contains("robots.txt: no such file"), "{screen}");
}

#[test]
fn while_loading_the_tester_and_records_say_so() {
    let source = Source::resolve("http://127.0.0.1:9/some/page").expect("a site");
    let mut app = App::loading(source, Limits::default(), false, &RobotsDb::embedded());
    app.start();
    let screen = draw(&mut app, 120, 40).backend().to_string();
    assert!(screen.contains("Loading http://127.0.0.1:9/robots.txt"), "{screen}");
    assert!(!screen.contains("ALLOWED"), "no verdict over an empty file: {screen}");
}

#[test]
fn notation_and_keymap_agree_on_special_keys() {
    let app = App::from_text(FILE);
    let enter = parse_keys("<ret>")[0];
    assert_eq!(action_for(&app, enter), None, "Enter means nothing in the source pane");
}

#[test]
fn the_tester_keeps_the_focus_it_was_opened_from() {
    let mut app = App::from_text(FILE);
    press(&mut app, "<S-tab>/<ret><tab><tab><tab>");
    assert_eq!(app.focus(), Pane::Tester);
    press(&mut app, "<ret>/private/x<ret>");
    assert_eq!(app.focus(), Pane::Tester, "Enter opened it from the tester, so the tester keeps the focus");
    let robot = app.robot().profile.name.clone();
    press(&mut app, "jj");
    assert_eq!(app.robot().profile.name, robot, "j scrolls the tester, not the robots");
}

#[test]
fn quitting_over_the_compare_view_goes_back_to_it() {
    let mut app = App::from_text(FILE);
    press(&mut app, "Fcq");
    assert_eq!(app.overlay(), None, "q leaves the compare view, as it leaves every view");
    press(&mut app, "c<C-c>");
    assert_eq!(app.overlay(), Some(Overlay::UnsavedEdits), "Ctrl-C quits from anywhere, asking first");
    press(&mut app, "<esc>");
    assert_eq!(app.overlay(), Some(Overlay::Compare), "keep working, where the user was");
}

#[test]
fn a_paste_is_answered_once_and_lands_whole() {
    let mut app = App::from_text(FILE);
    press(&mut app, "/");
    app.update(robotscope::app::Action::Paste(format!("/cgi-bin/{}\nnext line", "x".repeat(5000))));
    assert_eq!(app.path().text().len(), 9 + 5000);
    assert!(!app.evaluation().verdict.allowed());
}

#[test]
fn page_policy_fetches_the_tested_path_on_the_sites_origin() {
    let source = Source::resolve("http://127.0.0.1:9/").expect("a site");
    let mut app = App::loading(source, Limits::default(), false, &RobotsDb::embedded());
    app.start();
    for (typed, fetched) in [
        ("?q", "http://127.0.0.1:9/?q"),
        ("#frag", "http://127.0.0.1:9/"),
        ("//evil.example/x", "http://127.0.0.1:9//evil.example/x"),
        ("/café", "http://127.0.0.1:9/caf%C3%A9"),
    ] {
        press(&mut app, &format!("/{typed}<ret>"));
        let effects = press(&mut app, "p");
        let [Effect::FetchPage { url, .. }] = effects.as_slice() else { panic!("{typed}: {effects:?}") };
        assert_eq!(url.as_str(), fetched, "{typed}");
        press(&mut app, "<esc>");
    }
}

#[test]
fn a_terminal_too_small_is_told_so() {
    let mut app = App::from_text(FILE);
    for (width, height) in [(80, 4), (30, 20), (1, 1)] {
        let screen = draw(&mut app, width, height).backend().to_string();
        assert!(screen.contains("robotscope") || width < 10, "{width}x{height}: {screen}");
    }
}

/// Does what the shell does with the loads among `effects`: reads the source (the app
/// itself does no I/O) and hands the result back.
fn run_loads(app: &mut App, effects: Vec<Effect>) {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
    let mut effects = effects;
    while let Some(effect) = effects.pop() {
        match effect {
            Effect::ResolveSource { spec } => {
                let result = robotscope::fetch::Source::resolve(&spec);
                effects.extend(app.update(Action::SourceResolved { result }));
            }
            Effect::Load { id, source, limits } => {
                let result = runtime.block_on(robotscope::fetch::retrieve(source, limits));
                effects.extend(app.update(Action::Loaded { id, result: Box::new(result) }));
            }
            _ => {}
        }
    }
}

/// From the attack on issue 26: a walk of the sitemaps went on after another file was
/// opened, out of reach of Esc. Opening another file stops it.
#[test]
fn opening_another_file_stops_the_sitemaps_walk() {
    let mut app = App::from_text(FILE);
    let effects = press(&mut app, "m");
    let Some(Effect::WalkSitemaps { id: walk, .. }) = effects.first() else { panic!("a walk: {effects:?}") };
    let again = *walk;
    // Another file, opened while the walk runs (`o` over the view, say).
    let source = Source::File("other.txt".into());
    let effects = app.update(Action::SourceResolved { result: Ok(source.clone()) });
    let Some(Effect::Load { id, .. }) = effects.iter().find(|e| matches!(e, Effect::Load { .. })) else {
        panic!("a load: {effects:?}")
    };
    let retrieved = robotscope::fetch::Retrieved::Local {
        source,
        bytes: b"User-agent: *\n".to_vec(),
        truncated: false,
        stamp: None,
    };
    let effects = app.update(Action::Loaded { id: *id, result: Box::new(Ok(retrieved)) });
    assert!(
        effects.iter().any(|e| matches!(e, Effect::CancelSitemaps { id } if *id == again)),
        "the walk of the file replaced is stopped: {effects:?}"
    );
}

/// Issue 26: views that cover others unwind one at a time. Help over the message log
/// over the compare view goes back to the log, then to the view (it went back to the
/// panes before); each keeps its own scroll.
#[test]
fn help_over_the_log_over_a_view_unwinds_one_at_a_time() {
    let mut app = App::from_text(FILE);
    draw(&mut app, 100, 20);
    for n in 0..40 {
        test_path(&mut app, &format!("/p{n}"));
    }
    press(&mut app, "cM");
    assert_eq!(app.overlay(), Some(Overlay::Messages));
    press(&mut app, "k");
    let log_scroll = app.overlay_scroll();
    press(&mut app, "?");
    assert_eq!(app.overlay(), Some(Overlay::Help));
    assert_eq!(app.overlay_scroll(), 0, "help opens at its top");
    press(&mut app, "<pgdn><esc>");
    assert_eq!(app.overlay(), Some(Overlay::Messages), "back to the log");
    assert_eq!(app.overlay_scroll(), log_scroll, "where the log was left");
    press(&mut app, "<esc>");
    assert_eq!(app.overlay(), Some(Overlay::Compare), "then to the view");
    press(&mut app, "<esc>");
    assert_eq!(app.overlay(), None);
}

/// Issue 26: a view covered by help goes on with its background work: the walk's
/// answers reach the sitemaps view while help is over it, and Esc shows it with them.
#[test]
fn a_covered_view_gets_its_background_answers() {
    let mut app = App::from_text(FILE);
    let effects = press(&mut app, "m");
    let Some(&Effect::WalkSitemaps { id, .. }) = effects.first() else { panic!("a walk: {effects:?}") };
    press(&mut app, "?");
    assert_eq!(app.overlay(), Some(Overlay::Help));
    let walked = robotscope::sitemaps::Walked { sitemaps: 1, ..Default::default() };
    app.update(Action::SitemapsWalked { id, walked });
    press(&mut app, "<esc>");
    let view = app.sitemaps_view().expect("back to the sitemaps view");
    assert_eq!(view.walked, Some(walked), "the answer reached the covered view");
    assert!(!view.job.is_running());
    // Esc now leaves at once: there is no walk left to stop.
    press(&mut app, "<esc>");
    assert_eq!(app.overlay(), None);
}

/// From the review of issue 26: the chain of covering views holds a kind twice (help
/// over the log over help over the compare view) and unwinds through each; the same
/// question asked again over help takes the first one's place, and no question without
/// anything waiting on it is left behind.
#[test]
fn covering_views_unwind_and_a_question_is_never_left_empty() {
    let mut app = App::from_text(FILE);
    press(&mut app, "c?M?M");
    for expected in [Overlay::Help, Overlay::Messages, Overlay::Help, Overlay::Compare] {
        press(&mut app, "<esc>");
        assert_eq!(app.overlay(), Some(expected));
    }
    press(&mut app, "<esc>");
    assert_eq!(app.overlay(), None);
    // Edited, asked about quitting, help over the question, Ctrl-C: one question.
    press(&mut app, "ex<esc>q?<C-c>");
    assert_eq!(app.overlay(), Some(Overlay::UnsavedEdits));
    press(&mut app, "<esc>");
    assert_eq!(app.overlay(), None, "no second question behind the first");
    assert!(app.is_dirty() && app.pending().is_none());
}

/// From the review of issue 26: the mouse wheel moves the open view as its moving keys
/// do (it did nothing in a view).
#[test]
fn the_wheel_moves_the_open_view() {
    let mut app = App::from_text("User-agent: *\nDisallow: ~\nDisallow: ~x\nDisallow: ~y\nDisallow: ~z\nNoindex: /\n");
    draw(&mut app, 120, 40);
    press(&mut app, "d");
    assert!(app.diagnostics().len() > 3);
    app.update(Action::Scroll { column: 60, row: 20, down: true });
    assert_eq!(app.diagnostics_view().cursor, 3, "three lines a notch");
}

/// From the review of issue 26: the diagnostics cursor follows a list that shrank under
/// it (F fixed most of them): `k` moves at once.
#[test]
fn the_diagnostics_cursor_follows_a_shrinking_list() {
    let mut app = App::from_text("User-agent: *\nDisallow: ~\nDisallow: ~x\nDisallow: ~y\nNoindex: /\nNoindex: /x\n");
    draw(&mut app, 120, 40);
    press(&mut app, "dGF");
    let left = app.diagnostics().len();
    assert!(left >= 2, "{:?}", app.diagnostics());
    press(&mut app, "k");
    assert_eq!(app.diagnostics_view().cursor, left - 2);
}

/// From the review of issue 26: `r` in the sitemaps view of a file that lists no
/// Sitemap any more closes the view and forgets it; `m` then says so, rather than
/// showing the old walk again.
#[test]
fn reading_sitemaps_again_from_a_file_that_lists_none_forgets_them() {
    let sitemap = "Sitemap: https://example.com/s.xml";
    let mut app = App::from_text(&format!("{sitemap}\nUser-agent: *\nDisallow: /x\n"));
    press(&mut app, "m<esc><esc>");
    assert_eq!(app.overlay(), None);
    press(&mut app, &format!("e<end>{}<esc>", "<bs>".repeat(sitemap.len())));
    assert!(!app.document().txt.source().starts_with(b"Sitemap"));
    press(&mut app, "m");
    assert_eq!(app.overlay(), Some(Overlay::Sitemaps), "the view kept while closed");
    press(&mut app, "r");
    assert_eq!(app.overlay(), None, "r closed the view");
    press(&mut app, "m");
    assert_eq!(app.overlay(), None, "no view of sitemaps the file does not list");
    assert!(app.message().is_some_and(|m| m.contains("no Sitemap")), "{:?}", app.message());
}

/// Issue 35: `n` and `N` answer from any pane (a search shows in the source), and say
/// so when nothing was searched; a robot selected by name is said by its own name.
#[test]
fn n_searches_from_any_pane_and_names_are_said_as_written() {
    let mut app = App::from_text(FILE);
    press(&mut app, "<tab><tab>n");
    assert_eq!(app.message(), Some("Nothing searched yet: Ctrl-F finds text in the source"));
    press(&mut app, "<C-f>Slurp<ret><tab>n");
    assert_eq!(app.focus(), Pane::Source, "the match shows in the source");
    press(&mut app, "agptbot<ret>");
    assert_eq!(app.message(), Some("Selected GPTBot"));
}

/// Issue 35: at 80x24 nothing is cut mid-word: a robot's name loses its era tag whole,
/// the status bar's hints are whole.
#[test]
fn at_80_by_24_nothing_is_cut_mid_word() {
    let mut app = App::example();
    let screen = draw(&mut app, 80, 24).backend().to_string();
    assert!(screen.contains("│  ArchitextSpider   │"), "{screen}");
    assert!(!screen.contains("ArchitextSpider 9"), "{screen}");
    press(&mut app, "c");
    let terminal = draw(&mut app, 80, 24);
    let status: String = (0..80).map(|x| terminal.backend().buffer()[(x, 23)].symbol().to_owned()).collect();
    let hints = status.rsplit('│').next().unwrap_or_default().trim();
    assert!(hints.is_empty() || hints.ends_with("leaves") || hints.ends_with("keys"), "{status}");
}

/// Issue 37: the add-robot prompt does not turn a robot half typed into a new one. One
/// robot whose name starts so is selected; several near ones are offered ("did you
/// mean"), and the same name typed again is added as asked.
#[test]
fn adding_a_robot_half_typed_asks_did_you_mean() {
    let mut app = App::from_text(FILE);
    let count = app.robots().len();
    press(&mut app, "aScoo<ret>");
    assert_eq!(app.robot().profile.name, "Scooter");
    assert_eq!(app.robots().len(), count, "nothing added");
    press(&mut app, "aClaude<ret>");
    let said = app.message().expect("a message").to_owned();
    assert!(said.starts_with("No robot is called Claude: did you mean ClaudeBot"), "{said}");
    assert_eq!(app.robots().len(), count, "nothing added while asking");
    press(&mut app, "aGPTBott<ret>");
    assert!(app.message().is_some_and(|m| m.contains("did you mean GPTBot")), "{:?}", app.message());
    press(&mut app, "aGPTBott<ret>");
    assert_eq!(app.robots().len(), count + 1, "typed again: added");
    assert_eq!(app.message(), Some("Added GPTBott"));
}

/// Issue 37: Tab in the add-robot prompt completes a robot's name, as a shell does: to
/// the one robot whose name starts so, or to what several share (saying which they
/// are), or says which names are a letter away.
#[test]
fn tab_completes_a_robots_name() {
    let mut app = App::from_text(FILE);
    let typed = |app: &App| app.prompt().map(|prompt| prompt.input.text().to_owned()).unwrap_or_default();
    press(&mut app, "agptb<tab>");
    assert_eq!(typed(&app), "GPTBot");
    press(&mut app, "<ret>");
    assert_eq!(app.robot().profile.name, "GPTBot");
    press(&mut app, "aclau<tab>");
    assert_eq!(typed(&app), "Claude", "what ClaudeBot, Claude-User, Claude-SearchBot... share");
    let said = app.message().expect("the names").to_owned();
    assert!(said.contains("robots: ") && said.contains("ClaudeBot") && said.contains("Claude-User"), "{said}");
    press(&mut app, "<C-u>googlebot-i<tab>");
    assert_eq!(typed(&app), "Googlebot-Image");
    press(&mut app, "<C-u>GPTBott<tab>");
    assert_eq!(typed(&app), "GPTBott", "nothing to complete");
    assert!(app.message().is_some_and(|m| m.contains("did you mean GPTBot")), "{:?}", app.message());
}

/// Issue 37: `P` in the robots pane shows the robots of one purpose, then the next, then
/// all again; `]` and the moving keys stay among those shown; a robot chosen outside
/// them (`a`) shows every robot again.
#[test]
fn the_robot_list_shows_the_robots_of_a_purpose() {
    use robotscope::robots_db::Purpose;
    let mut app = App::from_text(FILE);
    press(&mut app, "<tab><tab><tab>P");
    assert_eq!(app.robot_purpose(), Some(Purpose::Search));
    press(&mut app, "P");
    assert_eq!(app.robot_purpose(), Some(Purpose::AiTraining));
    let serves = |app: &App| app.robot().profile.serves(Purpose::AiTraining);
    assert!(serves(&app), "{}", app.robot().profile.name);
    let shown = app.shown_robots();
    assert!(
        shown.len() < app.robots().len() && shown.iter().all(|&i| app.robots()[i].profile.serves(Purpose::AiTraining))
    );
    for keys in ["]", "]", "[", "j", "G", "]"] {
        press(&mut app, keys);
        assert!(serves(&app), "{keys}: {}", app.robot().profile.name);
    }
    assert_eq!(app.robot_index(), shown[0], "] past the last goes round to the first");
    let screen = draw(&mut app, 120, 40).backend().to_string();
    assert!(screen.contains(&format!(" ai-training 1/{} ", shown.len())), "{screen}");
    select(&mut app, "Googlebot");
    assert_eq!((app.robot_purpose(), app.robot().profile.name.as_str()), (None, "Googlebot"), "all again");
}

/// `s` steps through the three readings in order and wraps around.
#[test]
fn s_steps_through_the_three_readings() {
    use robotscope::policy::Reading;
    let mut app = App::from_text("User-agent: *\nDisallow: /x\n");
    let mut seen = vec![app.reading()];
    for _ in 0..3 {
        press(&mut app, "s");
        seen.push(app.reading());
    }
    assert_eq!(seen, [Reading::Rfc9309, Reading::Draft1996, Reading::Koster1994, Reading::Rfc9309]);
}
