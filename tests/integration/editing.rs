//! The editing flow through app actions: fixes under the cursor and everywhere, the
//! editor re-testing at every change, the changes view, copying (effects carry the right
//! text), saving (on disk, through the event loop, including a failed save that keeps
//! the edits), and quitting with unsaved edits.
// The binary and its layers: built with the default `tool` feature only.

use crate::support;

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use robotscope::app::keymap::press;
use robotscope::app::{Action, AfterSave, App, CopyWhat, Effect, KeyContext, Overlay, Pane};
use robotscope::clipboard::{ClipboardError, ClipboardMode, CopyMethod, Environment};
use robotscope::policy::Code;
use robotscope::save::{Replace, Saved};
use robotscope::tui::{Step, When};
use support::explorer::{select, test_path};

const FAQ: &str = "User-agent: webcrawler\n\nUser-agent: lycra\nDisallow: /\n\nUser-agent: *\nDisallow: /tmp\n";

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

#[test]
fn diagnostics_are_found_and_fixed_under_the_cursor() {
    let mut app = App::from_text(FAQ);
    assert!(app.diagnostics().iter().any(|d| d.code() == Code::BlankLineInGroup && d.line() == 2));
    press(&mut app, "gjf");
    assert_eq!(
        app.document().txt.source(),
        b"User-agent: webcrawler\nDisallow:\n\nUser-agent: lycra\nDisallow: /\n\nUser-agent: *\nDisallow: /tmp\n"
    );
    assert!(app.is_dirty());
    assert!(app.message().is_some_and(|m| m.contains("Fixed")));
    assert!(!app.diagnostics().iter().any(|d| d.code() == Code::BlankLineInGroup));
}

#[test]
fn fix_all_from_the_diagnostics_list() {
    let mut app = App::from_text("User-Agent: *\n\nDisallow: /\n\nUser-Agent: Lycos\n\nDisallow: /cgi-bin/ /tmp/\n");
    press(&mut app, "d");
    assert_eq!(app.key_context(), KeyContext::Overlay(Overlay::Diagnostics));
    press(&mut app, "F");
    assert_eq!(
        app.document().txt.source(),
        b"User-Agent: *\nDisallow: /\n\nUser-Agent: Lycos\nDisallow: /cgi-bin/\nDisallow: /tmp/\n"
    );
}

#[test]
fn the_changes_view_lists_flipped_verdicts_for_what_was_looked_at() {
    let mut app = App::from_text(FAQ);
    select(&mut app, "WebCrawler");
    press(&mut app, "s"); // RFC 9309: webcrawler is joined to lycra's group.
    test_path(&mut app, "/index.html");
    assert!(!app.evaluation().verdict.allowed());
    press(&mut app, "F");
    assert!(app.evaluation().verdict.allowed(), "the fix lets webcrawler in, as the FAQ meant");
    let changes = app.changes();
    let change =
        changes.iter().find(|c| c.robot == "WebCrawler" && c.path == "/index.html").expect("a flipped verdict");
    assert!(!change.before && change.after);
    assert!(changes.iter().all(|c| c.robot != "lycra"), "lycra was never selected");
    assert!(app.diff().contains("+Disallow:"));
}

#[test]
fn the_editor_retests_at_every_change_and_refuses_control_characters() {
    let mut app = App::from_text("User-agent: *\nDisallow: /a\n");
    test_path(&mut app, "/ab");
    assert!(!app.evaluation().verdict.allowed());
    press(&mut app, "e");
    assert_eq!(app.key_context(), KeyContext::Editor);
    press(&mut app, "<down><end>/");
    assert_eq!(app.document().txt.source(), b"User-agent: *\nDisallow: /a/\n");
    assert!(app.evaluation().verdict.allowed(), "/ab is no longer under /a/");
    press(&mut app, "<esc>");
    assert_eq!(app.key_context(), KeyContext::Pane(Pane::Source));
    assert!(app.editor().is_none() && app.is_dirty());

    let mut hostile = App::from_text("User-agent: *\nDisallow: /\x1b[2J\n");
    press(&mut hostile, "e");
    assert!(hostile.editor().is_none());
    assert!(hostile.message().is_some_and(|m| m.contains("control or invisible characters")));
}

#[test]
fn copies_carry_the_right_text_and_fall_back_to_osc52() {
    let mut app = App::from_text("User-agent: a\nDisallow: /x\n\nUser-agent: *\nDisallow: /y\n");
    app.set_clipboard(
        ClipboardMode::Auto,
        Environment { has_display: true, over_ssh: false, in_tmux: false, tmux_drops_osc52: None },
        None,
    );
    select(&mut app, "a");
    let effects = press(&mut app, "yg");
    assert_eq!(
        effects,
        vec![Effect::Copy {
            what: CopyWhat::Group,
            text: "User-agent: a\nDisallow: /x\n".into(),
            method: CopyMethod::System
        }]
    );
    // The system clipboard fails: the same text goes through OSC 52.
    let fallback = app.update(Action::Copied {
        what: CopyWhat::Group,
        text: "User-agent: a\nDisallow: /x\n".into(),
        result: Err(ClipboardError::System("no display".into())),
    });
    assert_eq!(
        fallback,
        vec![Effect::Copy {
            what: CopyWhat::Group,
            text: "User-agent: a\nDisallow: /x\n".into(),
            method: CopyMethod::Osc52
        }]
    );
    // Nothing to diff yet.
    assert!(press(&mut app, "yd").is_empty());
    assert_eq!(app.overlay(), None, "the menu closes on a choice");
    let copy_file = press(&mut app, "Fyf");
    let [Effect::Copy { text, .. }] = copy_file.as_slice() else { panic!("{copy_file:?}") };
    assert_eq!(text.as_bytes(), app.document().txt.source());
    // A copy that fails for good keeps the text and says how to save it.
    app.update(Action::Copied {
        what: CopyWhat::File,
        text: text.clone(),
        result: Err(ClipboardError::Terminal("closed".into())),
    });
    assert!(app.message().is_some_and(|m| m.contains("w saves")));
}

#[test]
fn quitting_with_unsaved_edits_asks() {
    let mut app = App::from_text("User-agent: *\nDisallow: *\n");
    assert_eq!(press(&mut app, "q"), vec![Effect::Quit], "nothing to lose yet");
    press(&mut app, "F");
    assert!(press(&mut app, "q").is_empty());
    assert_eq!(app.key_context(), KeyContext::Overlay(Overlay::UnsavedEdits));
    press(&mut app, "<esc>");
    assert_eq!(app.key_context(), KeyContext::Pane(Pane::Source));
    // Saving first: `w` asks where, the prompt has the keys, Enter saves (a file that is
    // not the one opened is never replaced without asking) and then quits.
    let effects = press(&mut app, "qw<C-u>out.txt<ret>");
    let [Effect::Save { path, after: AfterSave::ThenContinue, replace: Replace::Never, .. }] = effects.as_slice()
    else {
        panic!("{effects:?}")
    };
    assert_eq!(path.to_string_lossy(), "out.txt");
    let saved = Saved { file: path.clone(), in_place: false, stamp: None };
    let text = app.document().txt.source().to_vec();
    let done = app.update(Action::Saved {
        path: path.clone(),
        text,
        after: AfterSave::ThenContinue,
        result: Box::new(Ok(saved)),
    });
    assert_eq!(done.first(), Some(&Effect::Quit), "saved, then quit: {done:?}");
    // Asked again after another edit: y quits without saving; a second q quits too, but
    // keeps the edits in a recovery copy (issue 35: never dropped silently).
    press(&mut app, "e<end>x<esc>");
    assert!(app.is_dirty());
    assert_eq!(press(&mut app, "qy"), vec![Effect::Quit]);
    assert!(matches!(press(&mut app, "qq").as_slice(), [Effect::KeepEditsAndQuit(_)]));
    // A signal writes the edits to a recovery copy of their own before quitting.
    let effects = app.update(Action::Terminate);
    let [Effect::WriteRecoveryAndQuit(copy)] = effects.as_slice() else { panic!("{effects:?}") };
    assert!(copy.base.to_string_lossy().ends_with("out.txt.robotscope-unsaved"), "{}", copy.base.display());
    assert_eq!(copy.text, app.document().txt.source());
}

/// Drives the loop: each key once the work of the one before (a fix, a save) is done.
async fn drive(app: App, keys: Vec<KeyEvent>) -> App {
    let steps = keys.into_iter().map(|key| Step { when: When::Idle, events: vec![Event::Key(key)] }).collect();
    support::explorer::run_steps(app, steps).await
}

fn typed(text: &str) -> Vec<KeyEvent> {
    text.chars().map(|c| key(KeyCode::Char(c))).collect()
}

fn save_as(path: &str) -> Vec<KeyEvent> {
    let mut keys = vec![key(KeyCode::Char('w')), KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL)];
    keys.extend(typed(path));
    keys.push(key(KeyCode::Enter));
    keys
}

#[tokio::test]
async fn saving_writes_the_file_and_a_failed_save_keeps_the_edits() {
    let dir = tempfile::tempdir().expect("temp dir");
    let good = dir.path().join("robots.txt");
    let bad = dir.path().join("no-such-dir/robots.txt");
    let mut keys = vec![key(KeyCode::Char('F'))];
    keys.extend(save_as(bad.to_str().expect("utf-8 path")));
    let app = drive(App::from_text("User-agent: *\nDisallow: ~\n"), keys).await;
    assert!(app.message().is_some_and(|m| m.starts_with("Not saved")), "{:?}", app.message());
    assert!(app.is_dirty(), "the edits are kept");
    assert_eq!(app.document().txt.source(), b"User-agent: *\nDisallow: /~\n");

    let app = drive(app, save_as(good.to_str().expect("utf-8 path"))).await;
    assert_eq!(std::fs::read(&good).expect("saved"), b"User-agent: *\nDisallow: /~\n");
    assert!(!app.is_dirty(), "saved text is the new baseline");
    assert!(app.message().is_some_and(|m| m.contains("Saved")));
}

/// From the attack on issue 26: undo in the editor after a paste of control characters
/// left the editor on the old text (it refused to reopen on the new one), and the next
/// key brought the undone text back; a page key extended a selection nobody could see,
/// and the next key deleted a page.
#[test]
fn the_editor_follows_undo_and_page_keys_end_a_selection() {
    let mut app = App::from_text("User-agent: *\nDisallow: /\n");
    press(&mut app, "e<end>");
    app.update(Action::Paste("A\u{1b}B".to_owned()));
    press(&mut app, "<ret>XYZ<C-z><C-z>");
    let shown = app.editor().expect("still editing").text();
    assert_eq!(shown, app.document().txt.source(), "the editor shows the text undone");
    press(&mut app, "W");
    assert!(!String::from_utf8_lossy(app.document().txt.source()).contains("XYZ"), "the undo stays undone");

    let text = (1..=200).map(|n| format!("Disallow: /{n}")).collect::<Vec<_>>().join("\n");
    let mut app = App::from_text(&format!("User-agent: *\n{text}\n"));
    app.update(Action::Resize { width: 80, height: 24 });
    press(&mut app, "e<down>");
    app.update(Action::EditorKey(KeyEvent::new(KeyCode::Right, KeyModifiers::SHIFT)));
    press(&mut app, "<pgdn>Q");
    let lines = app.document().txt.source().split(|&b| b == b'\n').count() - 1;
    assert_eq!(lines, 201, "Q typed, no page deleted");
}

/// The copies among `effects` (the recovery copy of a changed text comes with them).
fn copies(effects: Vec<Effect>) -> Vec<Effect> {
    effects.into_iter().filter(|effect| matches!(effect, Effect::Copy { .. })).collect()
}

/// The editor's own keys through the keymap, as a user types them: a word deleted, a
/// line selected with Shift and cut to the clipboard, the cut undone; Esc drops a
/// selection before it leaves.
#[test]
fn the_editor_selects_cuts_copies_and_deletes_words() {
    let mut app = App::from_text("User-agent: *\nDisallow: /private/\nAllow: /private/open\n");
    app.set_clipboard(
        ClipboardMode::Auto,
        Environment { has_display: true, over_ssh: false, in_tmux: false, tmux_drops_osc52: None },
        None,
    );
    press(&mut app, "e<down><end><C-w>");
    assert_eq!(app.document().txt.source(), b"User-agent: *\nDisallow: /\nAllow: /private/open\n");
    press(&mut app, "<C-a>");
    app.update(Action::EditorKey(KeyEvent::new(KeyCode::End, KeyModifiers::SHIFT)));
    let cut = copies(press(&mut app, "<C-x>"));
    assert_eq!(
        cut,
        vec![Effect::Copy { what: CopyWhat::Selection, text: "Disallow: /".into(), method: CopyMethod::System }]
    );
    assert_eq!(app.document().txt.source(), b"User-agent: *\n\nAllow: /private/open\n");
    press(&mut app, "<C-z>");
    assert_eq!(app.document().txt.source(), b"User-agent: *\nDisallow: /\nAllow: /private/open\n");
    assert_eq!(
        app.editor().map(robotscope::app::editor::Editor::cursor),
        Some((1, 11)),
        "at the end of what came back"
    );
    // Alt-W copies and leaves the text; with nothing selected it says how to select.
    press(&mut app, "<C-a>");
    app.update(Action::EditorKey(KeyEvent::new(KeyCode::Down, KeyModifiers::SHIFT)));
    app.update(Action::EditorKey(KeyEvent::new(KeyCode::End, KeyModifiers::SHIFT)));
    let copy = copies(app.update(Action::EditorKey(KeyEvent::new(KeyCode::Char('w'), KeyModifiers::ALT))));
    let [Effect::Copy { what: CopyWhat::Selection, text, .. }] = copy.as_slice() else { panic!("{copy:?}") };
    assert_eq!(text, "Disallow: /\nAllow: /private/open");
    assert!(app.update(Action::EditorKey(KeyEvent::new(KeyCode::Char('w'), KeyModifiers::ALT))).is_empty());
    assert!(app.message().is_some_and(|m| m.contains("Nothing is selected")));
    // Ctrl-K takes the rest of the line; Esc drops a selection first, then leaves.
    press(&mut app, "<up><C-a><C-k>");
    assert_eq!(app.document().txt.source(), b"User-agent: *\n\nAllow: /private/open\n");
    app.update(Action::EditorKey(KeyEvent::new(KeyCode::Right, KeyModifiers::SHIFT)));
    press(&mut app, "<esc>");
    assert_eq!(app.key_context(), KeyContext::Editor, "the first Esc drops the selection");
    press(&mut app, "<esc>");
    assert_eq!(app.key_context(), KeyContext::Pane(Pane::Source));
}

/// Keys that arrive together (key repeat, a fast typist) are parsed and tested once,
/// before the frame; every other action sees them first, and undo still steps back
/// one line's typing at a time.
#[test]
fn a_burst_of_keys_is_tested_once_and_undone_step_by_step() {
    let original: &[u8] = b"User-agent: *\nDisallow: /a\n";
    let mut app = App::from_text("User-agent: *\nDisallow: /a\n");
    test_path(&mut app, "/ab");
    press(&mut app, "e<down><end>");
    for key in robotscope::app::keymap::parse_keys("b<ret>Allow:<space>/ab") {
        app.update(Action::EditorKey(key));
    }
    assert_eq!(app.document().txt.source(), b"User-agent: *\nDisallow: /ab\n\n", "the last line's keys wait");
    // A copy (any action but a key in the editor) sees every key of the burst.
    app.set_clipboard(
        ClipboardMode::Osc52,
        Environment { has_display: false, over_ssh: true, in_tmux: false, tmux_drops_osc52: None },
        None,
    );
    let copy = copies(app.update(Action::Copy(CopyWhat::File)));
    let [Effect::Copy { text, .. }] = copy.as_slice() else { panic!("{copy:?}") };
    assert_eq!(text, "User-agent: *\nDisallow: /ab\nAllow: /ab\n");
    assert!(app.evaluation().verdict.allowed(), "and it is tested: /ab is allowed now");
    let undone = |app: &mut App| {
        press(app, "<C-z>");
        app.document().txt.source().to_vec()
    };
    assert_eq!(undone(&mut app), b"User-agent: *\nDisallow: /ab\n\n");
    assert_eq!(undone(&mut app), b"User-agent: *\nDisallow: /ab\n");
    assert_eq!(undone(&mut app), original);
}

/// From the fresh-eyes review of the editor: a page key moves the window a page, not
/// only the cursor; a copy from a CR LF file carries CR LF; the message about an undo
/// goes once the text changes again; Ctrl-Space says what it did.
#[test]
fn pages_copies_and_messages_in_the_editor() {
    let text = (1..=84).map(|n| format!("Disallow: /{n}\r\n")).collect::<Vec<_>>().concat();
    let mut app = App::from_text(&format!("User-agent: *\r\n{text}"));
    app.update(Action::Resize { width: 120, height: 40 });
    app.set_clipboard(
        ClipboardMode::Osc52,
        Environment { has_display: false, over_ssh: true, in_tmux: false, tmux_drops_osc52: None },
        None,
    );
    press(&mut app, "e");
    let page = app.editor().map(|editor| editor.cursor().0).expect("editing");
    press(&mut app, "<pgdn>");
    let (row, window) = app.editor().map(|editor| (editor.cursor().0, editor.window().top)).expect("editing");
    assert!(row > page + 10, "a page down: line {row}");
    assert_eq!(window, row - page, "the window moved as far as the cursor");
    app.update(Action::EditorKey(KeyEvent::new(KeyCode::Down, KeyModifiers::SHIFT)));
    let copy = copies(app.update(Action::EditorKey(KeyEvent::new(KeyCode::Char('w'), KeyModifiers::ALT))));
    let [Effect::Copy { text, .. }] = copy.as_slice() else { panic!("{copy:?}") };
    assert!(text.ends_with("\r\n"), "the file's own line end: {text:?}");
    press(&mut app, "x<C-z>");
    assert!(app.message().is_some_and(|m| m.starts_with("Undid")));
    press(&mut app, "y");
    assert!(!app.message().is_some_and(|m| m.contains("Ctrl-Y redoes")), "{:?}", app.message());
    app.update(Action::EditorKey(KeyEvent::new(KeyCode::Char(' '), KeyModifiers::CONTROL)));
    assert!(app.message().is_some_and(|m| m.starts_with("Mark set")));
}

/// From the attack on the editor: a line break sent as LF (Ctrl-J in raw mode) breaks
/// the line; an edit in a file of mixed line ends changes no other line's end; a file
/// of one line end keeps it; a page down near the end leaves the text in view.
#[test]
fn line_breaks_and_line_ends_survive_the_editor() {
    let mut app = App::from_text("User-agent: *\r\nDisallow: /a\r\nAllow: /b\nDisallow: /c\n");
    press(&mut app, "e<down><end>");
    app.update(Action::EditorKey(KeyEvent::new(KeyCode::Char('j'), KeyModifiers::CONTROL)));
    press(&mut app, "Allow:<space>/x<down><end>Z<bs>");
    assert_eq!(
        app.document().txt.source(),
        b"User-agent: *\r\nDisallow: /a\r\nAllow: /x\r\nAllow: /b\nDisallow: /c\n",
        "the break ends as the line it broke; no other line's end changes"
    );

    let mut app = App::from_text("\n");
    press(&mut app, "ea<bs>");
    assert_eq!(app.document().txt.source(), b"\n");
    assert!(!app.is_dirty(), "typing a key and taking it back is no edit");

    let mut app = App::from_text("User-agent: *\nDisallow: /\n");
    app.update(Action::Resize { width: 120, height: 40 });
    press(&mut app, "e<pgdn>");
    assert_eq!(app.editor().map(|editor| editor.window().top), Some(0), "two lines fit: nothing to scroll");
}
