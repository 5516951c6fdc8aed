//! Issue 24, "work is never lost": key sequences through the keymap, and saves through
//! the event loop on real files. `r` and `o` ask before dropping edits, as `q` does; a
//! load that finishes over edits asks too; `w` never replaces a file the user did not
//! open without asking; a save through a link writes the file it points to; `Ctrl-Z`
//! and `Ctrl-Y` undo and redo edits, fixes and `F`.
// The binary and its layers: built with the default `tool` feature only.

use std::fs;

use crate::support;

use robotscope::app::keymap::press;
use robotscope::app::unsaved::Pending;
use robotscope::app::{Action, App, Effect, KeyContext, Overlay};
use robotscope::fetch::{Limits, Retrieved, Source};
use robotscope::robots_db::RobotsDb;

/// A robots.txt with one mistake to fix.
const TEXT: &str = "User-agent: *\nDisallow: ~\n";

/// The explorer on `path`, read as the binary reads a file.
fn app_on_file(path: &std::path::Path) -> App {
    // On a thread of its own: the async tests call this too, inside their runtime.
    let source = Source::File(path.to_path_buf());
    let retrieved = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
        runtime.block_on(robotscope::fetch::retrieve(source, Limits::default())).expect("read")
    })
    .join()
    .expect("the read");
    App::from_retrieved(retrieved, Limits::default(), &RobotsDb::embedded())
}

/// What a load of `path` brings, as its action.
fn loaded(id: u64, path: &std::path::Path, text: &str) -> Action {
    let retrieved = Retrieved::Local {
        source: Source::File(path.to_path_buf()),
        bytes: text.into(),
        truncated: false,
        stamp: None,
    };
    Action::Loaded { id, result: Box::new(Ok(retrieved)) }
}

/// The explorer on `path`, which `r` is reading again: the app and the load's id.
fn reading_again(path: &std::path::Path) -> (App, u64) {
    let mut app = app_on_file(path);
    let id = load_id(&press(&mut app, "r")).expect("a load");
    (app, id)
}

fn load_id(effects: &[Effect]) -> Option<u64> {
    effects.iter().find_map(|effect| match effect {
        Effect::Load { id, .. } => Some(*id),
        _ => None,
    })
}

#[test]
fn reload_and_open_ask_before_dropping_edits() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("robots.txt");
    fs::write(&path, TEXT).expect("write");
    let mut app = app_on_file(&path);
    assert!(load_id(&press(&mut app, "r")).is_some(), "nothing to lose: r reads the file again at once");
    let mut app = app_on_file(&path);
    press(&mut app, "F");
    assert!(app.is_dirty());
    // r asks, and Esc keeps working: nothing is loaded, the edits stay.
    assert!(press(&mut app, "r").is_empty());
    assert_eq!(app.key_context(), KeyContext::Overlay(Overlay::UnsavedEdits));
    assert!(matches!(app.pending(), Some(Pending::Reload)));
    press(&mut app, "<esc>");
    assert!(app.pending().is_none() && app.is_dirty() && app.load_in_progress().is_none());
    // o asks the same, naming what it would open (once the shell has asked the file
    // system what the name names, as it does off the event loop).
    let other = dir.path().join("other");
    fs::write(&other, TEXT).expect("write");
    let effects = press(&mut app, &format!("o{}<ret>", other.display()));
    let [Effect::ResolveSource { spec }] = effects.as_slice() else { panic!("{effects:?}") };
    assert!(app.update(Action::SourceResolved { result: Source::resolve(spec) }).is_empty());
    assert!(matches!(app.pending(), Some(Pending::Open(Source::File(p))) if *p == other));
    press(&mut app, "n");
    assert!(app.is_dirty());
    // y drops them: the load starts, and its result replaces the edits without asking.
    let id = load_id(&press(&mut app, "ry")).expect("the file is read again");
    app.update(loaded(id, &path, "User-agent: *\nDisallow: /new/\n"));
    assert!(!app.is_dirty());
    assert_eq!(app.document().txt.source(), b"User-agent: *\nDisallow: /new/\n");
}

/// A load that finishes while there are edits (made while it ran) does not drop them:
/// the user is asked, and the edits stay on screen until they choose.
#[test]
fn a_load_that_finishes_over_edits_asks() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("robots.txt");
    fs::write(&path, TEXT).expect("write");
    let (mut app, id) = reading_again(&path);
    press(&mut app, "F");
    app.update(loaded(id, &path, "User-agent: *\nDisallow: /other/\n"));
    assert_eq!(app.key_context(), KeyContext::Overlay(Overlay::UnsavedEdits));
    assert!(matches!(app.pending(), Some(Pending::ShowLoaded(_))));
    assert_eq!(app.document().txt.source(), b"User-agent: *\nDisallow: /~\n", "the edits are still on screen");
    press(&mut app, "y");
    assert_eq!(app.document().txt.source(), b"User-agent: *\nDisallow: /other/\n");
    // A load that finishes while the user is asked about quitting leaves that choice
    // be: one question, about quitting, and Esc leaves it with the edits kept.
    let (mut app, id) = reading_again(&path);
    press(&mut app, "Fq");
    assert!(matches!(app.pending(), Some(Pending::Quit)));
    app.update(loaded(id, &path, "User-agent: *\nDisallow: /other/\n"));
    assert!(matches!(app.pending(), Some(Pending::Quit)));
    assert_eq!(app.document().txt.source(), b"User-agent: *\nDisallow: /~\n");
    press(&mut app, "<esc>");
    assert_eq!(app.overlay(), None, "one question, answered once");
    assert!(app.is_dirty());
    // A load that fails after the user gave up their edits leaves them be.
    let mut app = app_on_file(&path);
    press(&mut app, "F");
    let id = load_id(&press(&mut app, "ry")).expect("a load");
    let failed = Err(robotscope::fetch::SourceError::NoSuchFile(path.clone()));
    app.update(Action::Loaded { id, result: Box::new(failed) });
    assert!(app.is_dirty(), "nothing replaced them");
}

#[test]
fn undo_and_redo_cover_edits_fixes_and_fix_everything() {
    let mut app = App::from_text("User-agent: *\nDisallow: ~\nDisallow: *\n");
    let original = app.document().txt.source().to_vec();
    press(&mut app, "F");
    let fixed = app.document().txt.source().to_vec();
    assert_ne!(fixed, original);
    press(&mut app, "<C-z>");
    assert_eq!(app.document().txt.source(), original, "Ctrl-Z undoes F");
    assert!(!app.is_dirty());
    press(&mut app, "<C-y>");
    assert_eq!(app.document().txt.source(), fixed, "Ctrl-Y redoes it");
    // Typing in the editor: one step per line typed on.
    press(&mut app, "<C-z>e<down><end>/x<end>y");
    assert!(
        app.document().txt.source().ends_with(b"Disallow: ~/xy\nDisallow: *\n"),
        "{:?}",
        app.document().txt.source()
    );
    press(&mut app, "<down><end>z");
    press(&mut app, "<C-z>");
    assert!(app.document().txt.source().ends_with(b"Disallow: ~/xy\nDisallow: *\n"), "the last line's typing goes");
    press(&mut app, "<C-z>");
    assert_eq!(app.document().txt.source(), original, "then the first line's, in one step");
    assert!(app.editor().is_some(), "the editor stays open on the text undone");
    press(&mut app, "<C-z>");
    assert!(app.message().is_some_and(|m| m == "Nothing to undo"));
    // f on a line, and its undo.
    press(&mut app, "<esc>:2<ret>f");
    assert!(app.document().txt.source().starts_with(b"User-agent: *\nDisallow: /~\n"));
    press(&mut app, "<C-z>");
    assert_eq!(app.document().txt.source(), original);
    // Undo is shown in the help, from the same table.
    let help: Vec<String> = robotscope::app::keymap::help_sections()
        .into_iter()
        .flat_map(|(_, entries)| entries.into_iter().map(|e| format!("{} {}", e.keys, e.label)))
        .collect();
    assert!(help.iter().any(|line| line == "C-z C-y undo, redo"), "{help:?}");
}

/// Drives the loop: each key once the work of the one before (a fix, a save) is done.
async fn drive(app: App, keys: &str) -> App {
    support::explorer::run_steps(app, support::explorer::typed_when_idle(keys)).await
}

/// Issue 24: saving the embedded example (whose save prompt offers `robots.txt`) over
/// a file that exists asks first; Esc keeps the file, `y` replaces it.
#[tokio::test]
async fn saving_over_a_file_the_user_did_not_open_asks_first() {
    let dir = tempfile::tempdir().expect("temp dir");
    let theirs = dir.path().join("robots.txt");
    fs::write(&theirs, "User-agent: *\nDisallow: /mine/\n").expect("write");
    let save = format!("Fw<C-u>{}<ret>", theirs.display());
    let app = drive(App::example(), &save).await;
    assert_eq!(app.overlay(), Some(Overlay::ConfirmReplace), "{:?}", app.message());
    assert_eq!(fs::read_to_string(&theirs).expect("read"), "User-agent: *\nDisallow: /mine/\n");
    let app = drive(app, "<esc>").await;
    assert!(app.is_dirty(), "kept: the edits and the file");
    assert_eq!(fs::read_to_string(&theirs).expect("read"), "User-agent: *\nDisallow: /mine/\n");
    let app = drive(app, &format!("w<C-u>{}<ret>y", theirs.display())).await;
    assert!(!app.is_dirty(), "{:?}", app.message());
    assert_eq!(fs::read(&theirs).expect("read"), app.document().txt.source());
    // The file the user opened is saved over without a question.
    let app = drive(app, "e<end>#<esc>w<ret>").await;
    assert!(!app.is_dirty(), "{:?}", app.message());
    assert!(fs::read_to_string(&theirs).expect("read").contains('#'), "saved again");
    assert_eq!(fs::read(&theirs).expect("read"), app.document().txt.source());
}

/// Issue 24: a save through a symbolic link writes the file it points to and keeps the
/// link and the file's mode (640), and the explorer says where it went.
#[cfg(unix)]
#[tokio::test]
async fn saving_through_a_link_writes_its_file() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("temp dir");
    let real = dir.path().join("real.txt");
    fs::write(&real, TEXT).expect("write");
    fs::set_permissions(&real, fs::Permissions::from_mode(0o640)).expect("chmod");
    let link = dir.path().join("robots.txt");
    std::os::unix::fs::symlink(&real, &link).expect("link");
    let app = drive(app_on_file(&link), "Fw<ret>").await;
    assert!(!app.is_dirty(), "{:?}", app.message());
    assert!(app.message().is_some_and(|m| m.contains("the file its link points to")), "{:?}", app.message());
    assert!(fs::symlink_metadata(&link).expect("link").file_type().is_symlink());
    assert_eq!(fs::read_to_string(&real).expect("read"), "User-agent: *\nDisallow: /~\n");
    assert_eq!(fs::metadata(&real).expect("meta").permissions().mode() & 0o777, 0o640);
}

/// Issue 24: a copy over OSC 52 that the terminal would drop is not sent, and the
/// message names the limit and says how to keep the text.
#[test]
fn an_osc52_copy_too_long_for_the_terminal_is_not_sent() {
    use robotscope::clipboard::{ClipboardMode, Environment};
    let big = format!("User-agent: *\n{}", "Disallow: /a/long/path/to/block\n".repeat(4000));
    let mut app = App::from_text(&big);
    let tmux = Environment { has_display: false, over_ssh: false, in_tmux: true, tmux_drops_osc52: None };
    app.set_clipboard(ClipboardMode::Auto, tmux, Some(64 * 1024));
    let effects = press(&mut app, "yf");
    assert!(!effects.iter().any(|effect| matches!(effect, Effect::Copy { .. })), "nothing is sent: {effects:?}");
    let message = app.message().expect("said why");
    assert!(
        message.starts_with("Not copied") && message.contains("64.0 KB") && message.contains("w saves"),
        "{message}"
    );
    // Small enough: sent, and not called copied (OSC 52 has no answer).
    let mut app = App::from_text(TEXT);
    app.set_clipboard(ClipboardMode::Osc52, tmux, None);
    let effects = press(&mut app, "yf");
    let [Effect::Copy { what, text, method }] = effects.as_slice() else { panic!("{effects:?}") };
    app.update(Action::Copied { what: *what, text: text.clone(), result: Ok(*method) });
    assert!(app.message().is_some_and(|m| m.starts_with("Sent the file")), "{:?}", app.message());
    // Issue 35: a tmux whose set-clipboard is not `on` drops the sequence: not sent, and
    // the message names the setting.
    let mut app = App::from_text(TEXT);
    let dropping = Environment { tmux_drops_osc52: Some("external"), ..tmux };
    app.set_clipboard(ClipboardMode::Auto, dropping, None);
    let effects = press(&mut app, "yf");
    assert!(!effects.iter().any(|effect| matches!(effect, Effect::Copy { .. })), "nothing is sent: {effects:?}");
    let message = app.message().expect("said why");
    assert!(message.contains("set-clipboard option is 'external'") && message.contains("set -g set-clipboard on"));
}

/// Issue 24, item 12: `v` lists the verdicts an edit flipped under every reading, not
/// only the one on screen. `WebCrawler` reads the 1994 standard by default; an edit to
/// lycra's group flips its RFC 9309 verdict only.
#[test]
fn the_changes_view_lists_flips_under_every_reading() {
    use robotscope::app::view::changes::ChangesLine;
    use robotscope::policy::Reading;
    let mut app = App::example();
    press(&mut app, "aWebCrawler<ret>/<C-u>/index.html<ret>");
    assert_eq!(app.reading(), Reading::Koster1994);
    // Line 24 is lycra's `Disallow: /`, which RFC 9309 readers give webcrawler too.
    press(&mut app, ":24<ret>e<end>x<esc>");
    assert!(app.is_dirty());
    press(&mut app, "v");
    let report = app.changes_report().expect("the view is open");
    let flipped: Vec<_> = report
        .lines
        .iter()
        .filter_map(|line| match line {
            ChangesLine::Flipped(change) => Some((change.robot.as_str(), change.reading, change.path.as_str())),
            _ => None,
        })
        .collect();
    assert!(flipped.contains(&("WebCrawler", Reading::Rfc9309, "/index.html")), "{flipped:?}");
    assert!(!flipped.iter().any(|(_, reading, _)| *reading == Reading::Koster1994), "{flipped:?}");
    // And for every robot the file names, with a path that shows it.
    assert!(report.lines.iter().any(|line| matches!(line, ChangesLine::Named(flip) if flip.robot == "webcrawler")));
}

/// `F` on a large text runs in the background: Esc cancels it and leaves the text as
/// it was; an edit made meanwhile makes its answer stale, and it is dropped.
#[test]
fn fix_everything_on_a_large_text_is_cancellable() {
    let large = format!("User-agent: *\nDisallow: ~\n{}", "Allow: /page/a\n".repeat(10_000));
    let mut app = App::from_text(&large);
    let effects = press(&mut app, "F");
    let Some(Effect::FixAll { generation, txt }) = effects.iter().find(|e| matches!(e, Effect::FixAll { .. })) else {
        panic!("{effects:?}")
    };
    let (generation, txt) = (*generation, std::sync::Arc::clone(txt));
    let answer = || {
        let report = robotscope::policy::fix_all(txt.source());
        let effect = robotscope::policy::fix_all_effect(&txt, &report);
        Action::FixedAll { generation, report: Box::new(report), effect }
    };
    press(&mut app, "<esc>");
    app.update(answer());
    assert!(!app.is_dirty(), "cancelled: the answer is dropped");
    press(&mut app, "F");
    app.update(answer());
    assert!(app.is_dirty(), "the fixes are applied");
    assert!(app.message().is_some_and(|m| m.starts_with("Applied")), "{:?}", app.message());
    press(&mut app, "<C-z>");
    assert!(!app.is_dirty(), "one step to undo");
}

/// A fix, all fixes and their undo leave the source pane where the user was working,
/// not on the line that decides the tester's verdict (the group's, line 1 here).
#[test]
fn fixes_and_undo_keep_the_users_place_in_the_file() {
    let mut lines = vec!["User-agent: *".to_owned()];
    lines.extend((2..=200).map(|n| format!("Disallow: /p{n}/")));
    lines[149] = "Disallow: ~x".to_owned();
    lines[159] = "Disallow: cgi-bin/".to_owned();
    let mut app = App::from_text(&(lines.join("\n") + "\n"));
    app.update(Action::Resize { width: 120, height: 40 });
    press(&mut app, ":150<ret>");
    let place = app.source_view();
    assert!(place.offset > 100, "line 150 is in view: {place:?}");
    for keys in ["f", "<C-z>", "<C-y>", "F", "<C-z>", "<C-z>"] {
        press(&mut app, keys);
        let now = app.source_view();
        assert_eq!((now.offset, now.cursor), (place.offset, place.cursor), "after {keys}: {:?}", app.message());
    }
    assert!(!app.is_dirty(), "the last undo went back to the text as loaded");
}

/// From the attack on issue 26: "save, then quit" while a load finished behind the save
/// prompt saved, then showed the load and stayed, under a question with nothing behind
/// it. The choice stands: saved, then quit.
#[test]
fn save_then_quit_stands_when_a_load_finishes_meanwhile() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("robots.txt");
    fs::write(&path, TEXT).expect("write");
    let (mut app, id) = reading_again(&path);
    press(&mut app, "Fqw");
    assert!(app.prompt().is_some(), "the save prompt");
    app.update(loaded(id, &path, "User-agent: *\nDisallow: /other/\n"));
    let effects = press(&mut app, "<ret>");
    let Some(Effect::Save { path: saved_to, text, after, .. }) =
        effects.into_iter().find(|e| matches!(e, Effect::Save { .. }))
    else {
        panic!("a save")
    };
    assert_eq!(text, b"User-agent: *\nDisallow: /~\n", "the edits are what is saved");
    let saved = robotscope::save::Saved { file: saved_to.clone(), in_place: false, stamp: None };
    let effects = app.update(Action::Saved { path: saved_to, text, after, result: Box::new(Ok(saved)) });
    assert!(effects.iter().any(|e| matches!(e, Effect::Quit)), "then quits: {effects:?}");
}

/// From the attack on issue 26: a question about replacing a file outlived the text it
/// was about; after a load replaced the edits, `y` wrote the loaded text over the file.
#[test]
fn a_replace_question_goes_with_the_text_it_was_about() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("robots.txt");
    let other = dir.path().join("existing.txt");
    fs::write(&path, TEXT).expect("write");
    fs::write(&other, "keep me").expect("write");
    let (mut app, id) = reading_again(&path);
    let effects = press(&mut app, &format!("Fw<C-u>{}<ret>", other.display()));
    let Some(Effect::Save { path: saved_to, text, after, .. }) =
        effects.into_iter().find(|e| matches!(e, Effect::Save { .. }))
    else {
        panic!("a save")
    };
    let exists = robotscope::save::SaveError::Exists { path: other.clone() };
    app.update(Action::Saved { path: saved_to, text, after, result: Box::new(Err(exists)) });
    assert_eq!(app.overlay(), Some(Overlay::ConfirmReplace));
    app.update(loaded(id, &path, "User-agent: *\nDisallow: /other/\n"));
    assert_eq!(app.overlay(), Some(Overlay::UnsavedEdits), "the load asks over the replace question");
    press(&mut app, "y");
    assert_eq!(app.document().txt.source(), b"User-agent: *\nDisallow: /other/\n");
    assert_eq!(app.overlay(), None, "no question about saving a text that is gone");
}

/// From the attack on issue 26: a load that finished while the user typed in the editor
/// took the keys (a typed `y` dropped the edits), and "keep working" left the editor.
#[test]
fn a_load_does_not_take_the_editors_keys_and_keep_working_goes_back_to_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("robots.txt");
    fs::write(&path, TEXT).expect("write");
    let (mut app, id) = reading_again(&path);
    press(&mut app, "e<end>x");
    app.update(loaded(id, &path, "User-agent: *\nDisallow: /other/\n"));
    assert_eq!(app.overlay(), None, "no question while typing");
    press(&mut app, "y");
    assert_eq!(app.document().txt.source(), b"User-agent: *xy\nDisallow: ~\n", "typed, not an answer");
    press(&mut app, "<esc>");
    assert_eq!(app.overlay(), Some(Overlay::UnsavedEdits), "asked once out of the editor");
    press(&mut app, "<esc>");
    assert!(app.is_dirty() && app.pending().is_none());
    // Ctrl-C in the editor asks about quitting; Esc keeps working, in the editor.
    press(&mut app, "e<C-c>");
    assert_eq!(app.overlay(), Some(Overlay::UnsavedEdits));
    press(&mut app, "<esc>");
    assert!(app.editor().is_some(), "back in the editor");
}

/// From the second review of issue 26: with the editor open under a question, a paste
/// went into the text beneath it.
#[test]
fn a_paste_under_a_question_does_not_reach_the_editor() {
    let mut app = App::from_text(TEXT);
    press(&mut app, "e<end>AB<C-c>");
    assert_eq!(app.overlay(), Some(Overlay::UnsavedEdits));
    let before = app.document().txt.source().to_vec();
    app.update(Action::Paste("PASTED".to_owned()));
    assert_eq!(app.document().txt.source(), before);
    press(&mut app, "<esc>");
    app.update(Action::Paste("P".to_owned()));
    assert_ne!(app.document().txt.source(), before, "back in the editor, a paste lands");
}

/// From the second review of issue 26: a load that finished while the user was in the
/// editor or a prompt was lost when a cancelled replace question left "quit" waiting,
/// asked about edits that had been saved, or was dropped by the save prompt. It waits
/// until the user is done, then asks (or, with nothing unsaved, shows).
#[test]
fn a_load_held_while_the_user_types_is_never_lost() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("robots.txt");
    let other = dir.path().join("existing.txt");
    fs::write(&path, TEXT).expect("write");
    fs::write(&other, "keep me").expect("write");
    let new_text = "User-agent: *\nDisallow: /other/\n";
    // Held in the editor; quit, save to a file that exists, keep it: nothing waits any
    // more, and leaving the editor asks about the load.
    let (mut app, id) = reading_again(&path);
    press(&mut app, "e<end>x");
    app.update(loaded(id, &path, new_text));
    let effects = press(&mut app, &format!("<C-c>w<C-u>{}<ret>", other.display()));
    let Some(Effect::Save { path: saved_to, text, after, .. }) =
        effects.into_iter().find(|e| matches!(e, Effect::Save { .. }))
    else {
        panic!("a save")
    };
    let exists = robotscope::save::SaveError::Exists { path: other.clone() };
    app.update(Action::Saved { path: saved_to, text, after, result: Box::new(Err(exists)) });
    press(&mut app, "n");
    assert!(app.pending().is_none(), "keeping the file calls off what was to follow the save");
    press(&mut app, "<esc>");
    assert_eq!(app.overlay(), Some(Overlay::UnsavedEdits), "the held load asks");
    assert!(matches!(app.pending(), Some(Pending::ShowLoaded(_))));
    // Held in the save prompt, then the prompt cancelled: it asks.
    let (mut app, id) = reading_again(&path);
    press(&mut app, "Fw");
    app.update(loaded(id, &path, new_text));
    assert_eq!(app.overlay(), None, "no question under the prompt");
    press(&mut app, "<esc>");
    assert_eq!(app.overlay(), Some(Overlay::UnsavedEdits));
    // Held in the editor, the edits undone meanwhile: shown, with nothing to ask.
    let (mut app, id) = reading_again(&path);
    press(&mut app, "e<end>x");
    app.update(loaded(id, &path, new_text));
    press(&mut app, "<C-z><esc>");
    assert!(!app.is_dirty());
    assert_eq!(app.overlay(), None);
    assert_eq!(app.document().txt.source(), new_text.as_bytes(), "the load is shown");
}

/// From the second review of issue 26: `q` over the question about a load turned it
/// into the quit question, and keeping working then lost the load without a word. It
/// is set aside, and asked about again.
#[test]
fn quitting_over_a_loads_question_sets_the_load_aside() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("robots.txt");
    fs::write(&path, TEXT).expect("write");
    let (mut app, id) = reading_again(&path);
    press(&mut app, "F");
    app.update(loaded(id, &path, "User-agent: *\nDisallow: /other/\n"));
    assert!(matches!(app.pending(), Some(Pending::ShowLoaded(_))));
    press(&mut app, "q");
    assert!(matches!(app.pending(), Some(Pending::Quit)));
    press(&mut app, "<esc>");
    assert_eq!(app.overlay(), Some(Overlay::UnsavedEdits), "the load asks again");
    assert!(matches!(app.pending(), Some(Pending::ShowLoaded(_))));
    press(&mut app, "y");
    assert_eq!(app.document().txt.source(), b"User-agent: *\nDisallow: /other/\n");
}

/// Runs the saves among `effects` as the shell does (`save::save`, then the answer back
/// as an action); gives back the other effects and those the answers brought.
fn run_saves(app: &mut App, effects: Vec<Effect>) -> Vec<Effect> {
    let mut rest = Vec::new();
    for effect in effects {
        match effect {
            Effect::Save { path, text, after, replace } => {
                let result = robotscope::save::save(&path, &text, &replace);
                let answered = app.update(Action::Saved { path, text, after, result: Box::new(result) });
                rest.extend(run_saves(app, answered));
            }
            other => rest.push(other),
        }
    }
    rest
}

/// Issue 35: a second `q` or Ctrl-C at the question about unsaved edits quits, but the
/// edits go to a recovery copy first, never silently nowhere; the question says so.
#[test]
fn quitting_twice_keeps_the_edits_in_a_recovery_copy() {
    for keys in ["qq", "q<C-c>", "<C-c><C-c>", "<C-c>q"] {
        let mut app = App::from_text(TEXT);
        press(&mut app, "F");
        let edited = app.document().txt.source().to_vec();
        let first = if keys.starts_with('<') { keys.find('>').expect("a key name") + 1 } else { 1 };
        assert!(press(&mut app, &keys[..first]).is_empty(), "{keys}: asked first");
        let question = app.question().expect("a question");
        assert!(
            question.choices.iter().any(|(key, label)| key == "q" && label.contains("recovery copy")),
            "{keys}: the question names the second quit: {question:?}"
        );
        let effects = press(&mut app, &keys[first..]);
        let [Effect::KeepEditsAndQuit(copy)] = effects.as_slice() else { panic!("{keys}: {effects:?}") };
        assert_eq!(copy.text, edited, "{keys}: the edits, whole");
        assert_eq!(copy.base, app.recovery_path());
    }
    // Asked about something else (r), q turns the question into one about quitting; a
    // second q keeps the edits as well.
    let mut app = App::from_text(TEXT);
    press(&mut app, "F");
    press(&mut app, "rq");
    assert!(matches!(app.pending(), Some(Pending::Quit)));
    assert!(matches!(press(&mut app, "q").as_slice(), [Effect::KeepEditsAndQuit(_)]));
    // No directory took the copy (the shell answers RecoveryFailed): the explorer stays,
    // the edits with it, and says how to keep them.
    let edited = app.document().txt.source().to_vec();
    app.update(Action::RecoveryFailed("/ro: read-only file system".to_owned()));
    assert!(app.is_dirty() && app.overlay().is_none() && app.pending().is_none());
    assert_eq!(app.document().txt.source(), edited.as_slice());
    let said = app.message().expect("a message");
    assert!(said.contains("Not quit") && said.contains("read-only") && said.contains("w saves"), "{said}");
    assert!(app.question().is_none(), "the status bar is the message's");
    // With nothing unsaved, q quits at once, and no copy is written.
    let mut app = App::from_text(TEXT);
    assert_eq!(press(&mut app, "q"), [Effect::Quit]);
}

/// Issue 35: a save of the file the user opened checks it is still what was read. A
/// change another program made meanwhile is never silently overwritten: the save asks,
/// `d` shows their change, Esc keeps editing, `r` reads their version (the edits one
/// Ctrl-Z away), `y` overwrites. The same bytes written again (a `touch`) ask nothing.
#[test]
fn a_save_over_a_file_changed_on_disk_asks_first() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("robots.txt");
    fs::write(&path, TEXT).expect("write");
    let mut app = app_on_file(&path);
    press(&mut app, "F");
    let edited = app.document().txt.source().to_vec();
    let theirs = format!("{TEXT}# theirs\n");
    fs::write(&path, &theirs).expect("their change");

    let effects = press(&mut app, "w<ret>");
    assert!(run_saves(&mut app, effects).is_empty());
    assert_eq!(app.overlay(), Some(Overlay::ChangedOnDisk), "{:?}", app.message());
    assert_eq!(fs::read_to_string(&path).expect("read"), theirs, "their change is still there");
    let question = app.question().expect("a question");
    assert!(question.title.ends_with("robots.txt changed on disk since it was read"), "{question:?}");
    let keys: Vec<&str> = question.choices.iter().map(|(key, _)| key.as_str()).collect();
    assert_eq!(keys, ["y", "d", "r", "Esc"]);
    // d: the diff from their version to the text on screen.
    press(&mut app, "d");
    let Some(robotscope::app::View::ChangedOnDisk(changed)) = app.view() else { panic!("{:?}", app.overlay()) };
    let diff = changed.diff.clone().expect("the diff is shown");
    assert!(diff.contains(&"-# theirs".to_owned()) && diff.contains(&"+Disallow: /~".to_owned()), "{diff:?}");
    // Esc: nothing saved, nothing lost.
    press(&mut app, "<esc>");
    assert_eq!(app.overlay(), None);
    assert!(app.is_dirty());
    assert_eq!(fs::read_to_string(&path).expect("read"), theirs);
    // r: their version is the text now; Ctrl-Z brings the edits back.
    let effects = press(&mut app, "w<ret>");
    run_saves(&mut app, effects);
    press(&mut app, "r");
    assert_eq!(app.document().txt.source(), theirs.as_bytes());
    assert!(!app.is_dirty());
    press(&mut app, "<C-z>");
    assert_eq!(app.document().txt.source(), edited);
    // Saved now over their version, which was read: no question.
    let effects = press(&mut app, "w<ret>");
    run_saves(&mut app, effects);
    assert_eq!(app.overlay(), None, "{:?}", app.message());
    assert_eq!(fs::read(&path).expect("read"), edited);
    // The same bytes written again by another program: still no question.
    press(&mut app, "e<end>#<esc>");
    fs::write(&path, &edited).expect("the same bytes");
    let effects = press(&mut app, "w<ret>");
    run_saves(&mut app, effects);
    assert_eq!(app.overlay(), None, "{:?}", app.message());
    // Another change, and y: overwritten, and the next save knows the file as written.
    press(&mut app, "e<end>#<esc>");
    fs::write(&path, "User-agent: *\nDisallow: /\n").expect("their change");
    let effects = press(&mut app, "w<ret>");
    run_saves(&mut app, effects);
    assert_eq!(app.overlay(), Some(Overlay::ChangedOnDisk));
    let effects = press(&mut app, "y");
    run_saves(&mut app, effects);
    assert!(!app.is_dirty(), "{:?}", app.message());
    assert_eq!(fs::read(&path).expect("read"), app.document().txt.source());
}

/// Issue 35: a save that was to be followed by quitting and found the file changed
/// does not quit: the question about the change comes first, and Esc keeps working.
#[test]
fn a_changed_file_stops_a_save_and_quit() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("robots.txt");
    fs::write(&path, TEXT).expect("write");
    let mut app = app_on_file(&path);
    press(&mut app, "F");
    fs::write(&path, "# theirs\n").expect("their change");
    let effects = press(&mut app, "qw<ret>");
    assert!(run_saves(&mut app, effects).is_empty(), "no quitting");
    assert_eq!(app.overlay(), Some(Overlay::ChangedOnDisk));
    press(&mut app, "<esc>");
    assert!(app.pending().is_none() && app.is_dirty());
    assert_eq!(press(&mut app, "q"), Vec::<Effect>::new(), "asked again");
}

/// Issue 35: saving onto a read-only file, even the one opened, asks first; `y`
/// replaces it (keeping it read-only), Esc keeps it.
#[cfg(unix)]
#[test]
fn saving_onto_a_read_only_file_asks_first() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("robots.txt");
    fs::write(&path, TEXT).expect("write");
    fs::set_permissions(&path, fs::Permissions::from_mode(0o444)).expect("chmod");
    let mut app = app_on_file(&path);
    press(&mut app, "F");
    let effects = press(&mut app, "w<ret>");
    run_saves(&mut app, effects);
    assert_eq!(app.overlay(), Some(Overlay::ConfirmReplace));
    assert!(app.question().is_some_and(|q| q.title.ends_with("robots.txt is read-only")), "{:?}", app.question());
    assert_eq!(fs::read_to_string(&path).expect("read"), TEXT, "not replaced yet");
    press(&mut app, "<esc>");
    assert!(app.is_dirty());
    let effects = press(&mut app, "w<ret>");
    run_saves(&mut app, effects);
    let effects = press(&mut app, "y");
    run_saves(&mut app, effects);
    assert!(!app.is_dirty(), "{:?}", app.message());
    assert_eq!(fs::read(&path).expect("read"), app.document().txt.source());
    assert_eq!(fs::metadata(&path).expect("meta").permissions().mode() & 0o777, 0o444);
}
