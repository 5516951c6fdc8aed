//! The keymap: one table from keys to actions, with a label for each.
//!
//! The same table drives dispatch ([`action_for`]), the help overlay and the status
//! bar's hints, so they cannot disagree (STYLE.md habit 8). Only crossterm's key types
//! are used here; reading keys from the terminal is the event loop's business.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use super::action::{Action, CopyWhat};
use super::focus::Pane;
use super::input::Edit;
use super::{App, Mode};

/// Where a binding applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Context {
    /// Anywhere outside text entry and help.
    Global,
    /// In the focused pane, outside text entry (moving the cursor).
    Navigation,
    /// Only when this pane has focus.
    Pane(Pane),
    /// While typing a path or a robot name.
    Typing,
    /// While typing a path only.
    TypingPath,
    /// While the help overlay is shown.
    Help,
    /// While the fetch details are shown.
    FetchDetails,
    /// In the editor (every other key edits the text).
    Editing,
    /// In the list of diagnostics.
    Diagnostics,
    /// In the changes view.
    Changes,
    /// Choosing what to copy.
    CopyMenu,
    /// Asked whether to quit with unsaved edits.
    ConfirmQuit,
    /// In the compare view.
    Compare,
    /// While the page policy is shown.
    Page,
}

impl Context {
    /// The heading of the context in the help overlay.
    #[must_use]
    pub fn title(self) -> &'static str {
        match self {
            Context::Global => "Anywhere",
            Context::Navigation => "In a pane",
            Context::Pane(Pane::Robots) => "Robots pane",
            Context::Pane(Pane::Source) => "Source pane",
            Context::Pane(Pane::Records) => "Records pane",
            Context::Pane(_) => "Pane",
            Context::Typing => "Typing a path or name",
            Context::TypingPath => "Typing a path",
            Context::Help => "Help",
            Context::FetchDetails => "Fetch details",
            Context::Editing => "Editor (other keys edit)",
            Context::Diagnostics => "Diagnostics list",
            Context::Changes => "Changes view",
            Context::CopyMenu => "Copy menu",
            Context::ConfirmQuit => "Quit with unsaved edits",
            Context::Compare => "Compare view",
            Context::Page => "Page policy",
        }
    }
}

/// What a binding does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Perform an action.
    Do(Action),
    /// Edit the text being typed.
    Edit(Edit),
    /// Accept the text being typed (Enter).
    Submit,
}

/// A key with its modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    /// The key.
    pub code: KeyCode,
    /// Ctrl, Alt, Shift.
    pub modifiers: KeyModifiers,
}

const fn key(code: KeyCode) -> Key {
    Key { code, modifiers: KeyModifiers::NONE }
}

const fn ctrl(c: char) -> Key {
    Key { code: KeyCode::Char(c), modifiers: KeyModifiers::CONTROL }
}

const fn ch(c: char) -> Key {
    key(KeyCode::Char(c))
}

/// One line of the keymap.
#[derive(Debug, Clone)]
pub struct Binding {
    /// Where it applies.
    pub context: Context,
    /// The keys that trigger it (the first is the one shown in hints).
    pub keys: &'static [Key],
    /// What it does.
    pub command: Command,
    /// What the help and the status bar call it.
    pub label: &'static str,
    /// Whether the status bar lists it.
    pub hint: bool,
}

const fn bind(context: Context, keys: &'static [Key], command: Command, label: &'static str, hint: bool) -> Binding {
    Binding { context, keys, command, label, hint }
}

use Command::{Do, Edit as E};
use Context::{Global, Help, Navigation, Typing, TypingPath};

/// Every key binding of the explorer.
pub static BINDINGS: &[Binding] = &[
    bind(Global, &[ch('?')], Do(Action::ToggleHelp), "help", true),
    bind(Global, &[ch('q')], Do(Action::Quit), "quit", true),
    bind(Global, &[ch(']')], Do(Action::NextRobot), "next robot", true),
    bind(Global, &[ch('[')], Do(Action::PrevRobot), "previous robot", true),
    bind(Global, &[ch('/')], Do(Action::EditPath), "test a path", true),
    bind(Global, &[ch('s')], Do(Action::CycleReading), "next reading", true),
    bind(Global, &[ch('S')], Do(Action::FollowRobotReading), "default readings", false),
    bind(Global, &[ch('a')], Do(Action::AddRobot), "add a robot", false),
    bind(Global, &[ch('o')], Do(Action::OpenSource), "open file or site", false),
    bind(Global, &[ch('r')], Do(Action::Reload), "read it again", false),
    bind(Global, &[ch('i')], Do(Action::ToggleFetchDetails), "fetch details", false),
    bind(Global, &[ch('d')], Do(Action::ToggleDiagnostics), "list diagnostics", true),
    bind(Global, &[ch('f')], Do(Action::FixHere), "fix this line", false),
    bind(Global, &[ch('F')], Do(Action::FixAll), "fix everything", false),
    bind(Global, &[ch('e')], Do(Action::OpenEditor), "edit the text", true),
    bind(Global, &[ch('v')], Do(Action::ToggleChanges), "changes and diff", false),
    bind(Global, &[ch('y')], Do(Action::CopyMenu), "copy", false),
    bind(Global, &[ch('w')], Do(Action::Save), "save", false),
    bind(Global, &[ch('c')], Do(Action::ToggleCompare), "compare robots", true),
    bind(Global, &[ch('p')], Do(Action::PagePolicy), "page policy", false),
    bind(Global, &[key(KeyCode::Tab)], Do(Action::FocusNext), "next pane", false),
    bind(Global, &[key(KeyCode::BackTab)], Do(Action::FocusPrev), "previous pane", false),
    bind(Global, &[key(KeyCode::Esc)], Do(Action::Cancel), "cancel a load", false),
    bind(Navigation, &[ch('j'), key(KeyCode::Down)], Do(Action::Down), "down", false),
    bind(Navigation, &[ch('k'), key(KeyCode::Up)], Do(Action::Up), "up", false),
    bind(Navigation, &[key(KeyCode::PageDown), ctrl('d')], Do(Action::PageDown), "page down", false),
    bind(Navigation, &[key(KeyCode::PageUp), ctrl('u')], Do(Action::PageUp), "page up", false),
    bind(Navigation, &[ch('g'), key(KeyCode::Home)], Do(Action::Top), "first line", false),
    bind(Navigation, &[ch('G'), key(KeyCode::End)], Do(Action::Bottom), "last line", false),
    bind(Context::Pane(Pane::Source), &[ch('l'), key(KeyCode::Right)], Do(Action::Right), "scroll right", false),
    bind(Context::Pane(Pane::Source), &[ch('h'), key(KeyCode::Left)], Do(Action::Left), "scroll left", false),
    bind(Context::Pane(Pane::Robots), &[ch(' ')], Do(Action::ToggleComparedRobot), "mark for compare", false),
    bind(Context::Pane(Pane::Records), &[key(KeyCode::Enter)], Do(Action::ShowInSource), "show in source", false),
    bind(Typing, &[key(KeyCode::Enter)], Command::Submit, "accept", false),
    bind(Typing, &[key(KeyCode::Esc)], Do(Action::Cancel), "stop typing", false),
    bind(Typing, &[key(KeyCode::Left)], E(Edit::Left), "cursor left", false),
    bind(Typing, &[key(KeyCode::Right)], E(Edit::Right), "cursor right", false),
    bind(Typing, &[key(KeyCode::Home), ctrl('a')], E(Edit::Home), "start of line", false),
    bind(Typing, &[key(KeyCode::End), ctrl('e')], E(Edit::End), "end of line", false),
    bind(Typing, &[key(KeyCode::Backspace)], E(Edit::Backspace), "delete back", false),
    bind(Typing, &[key(KeyCode::Delete)], E(Edit::Delete), "delete", false),
    bind(Typing, &[ctrl('w')], E(Edit::DeleteWord), "delete word", false),
    bind(Typing, &[ctrl('u')], E(Edit::Clear), "clear", false),
    bind(TypingPath, &[key(KeyCode::Up)], E(Edit::HistoryPrevious), "older path", false),
    bind(TypingPath, &[key(KeyCode::Down)], E(Edit::HistoryNext), "newer path", false),
    bind(TypingPath, &[ch(']')], Do(Action::NextRobot), "next robot", false),
    bind(TypingPath, &[ch('[')], Do(Action::PrevRobot), "previous robot", false),
    bind(TypingPath, &[key(KeyCode::Tab)], Do(Action::FocusNext), "next pane", false),
    bind(TypingPath, &[key(KeyCode::BackTab)], Do(Action::FocusPrev), "previous pane", false),
    bind(TypingPath, &[ctrl('p')], Do(Action::PagePolicy), "page policy", false),
    bind(Help, &[key(KeyCode::Esc), ch('?'), ch('q')], Do(Action::ToggleHelp), "close help", false),
    bind(Help, &[ch('j'), key(KeyCode::Down)], Do(Action::Down), "scroll down", false),
    bind(Help, &[ch('k'), key(KeyCode::Up)], Do(Action::Up), "scroll up", false),
    bind(Help, &[key(KeyCode::PageDown), ctrl('d')], Do(Action::PageDown), "page down", false),
    bind(Help, &[key(KeyCode::PageUp), ctrl('u')], Do(Action::PageUp), "page up", false),
    bind(Context::FetchDetails, &[key(KeyCode::Esc), ch('i'), ch('q')], Do(Action::ToggleFetchDetails), "close", false),
    bind(Context::Editing, &[key(KeyCode::Esc)], Do(Action::Cancel), "leave, edits kept", false),
    bind(Context::Editing, &[ctrl('s')], Do(Action::Save), "save", false),
    bind(Context::Diagnostics, &[ch('j'), key(KeyCode::Down)], Do(Action::Down), "next", false),
    bind(Context::Diagnostics, &[ch('k'), key(KeyCode::Up)], Do(Action::Up), "previous", false),
    bind(Context::Diagnostics, &[key(KeyCode::Enter)], Do(Action::ShowInSource), "show in source", false),
    bind(Context::Diagnostics, &[ch('f')], Do(Action::FixHere), "apply this fix", false),
    bind(Context::Diagnostics, &[ch('F')], Do(Action::FixAll), "fix everything", false),
    bind(Context::Diagnostics, &[key(KeyCode::Esc), ch('d'), ch('q')], Do(Action::ToggleDiagnostics), "close", false),
    bind(Context::Changes, &[ch('y')], Do(Action::Copy(CopyWhat::Diff)), "copy the diff", false),
    bind(Context::Changes, &[key(KeyCode::Esc), ch('v'), ch('q')], Do(Action::ToggleChanges), "close", false),
    bind(Context::CopyMenu, &[ch('f')], Do(Action::Copy(CopyWhat::File)), "copy the file", false),
    bind(Context::CopyMenu, &[ch('g')], Do(Action::Copy(CopyWhat::Group)), "copy the group", false),
    bind(Context::CopyMenu, &[ch('d')], Do(Action::Copy(CopyWhat::Diff)), "copy the diff", false),
    bind(Context::CopyMenu, &[key(KeyCode::Esc)], Do(Action::Cancel), "cancel", false),
    bind(Context::Compare, &[ch('j'), key(KeyCode::Down)], Do(Action::Down), "next path", false),
    bind(Context::Compare, &[ch('k'), key(KeyCode::Up)], Do(Action::Up), "previous path", false),
    bind(Context::Compare, &[ch('l'), key(KeyCode::Right)], Do(Action::Right), "next robot", false),
    bind(Context::Compare, &[ch('h'), key(KeyCode::Left)], Do(Action::Left), "previous robot", false),
    bind(Context::Compare, &[key(KeyCode::PageDown), ctrl('d')], Do(Action::PageDown), "page down", false),
    bind(Context::Compare, &[key(KeyCode::PageUp), ctrl('u')], Do(Action::PageUp), "page up", false),
    bind(Context::Compare, &[ch('g'), key(KeyCode::Home)], Do(Action::Top), "first path", false),
    bind(Context::Compare, &[ch('G'), key(KeyCode::End)], Do(Action::Bottom), "last path", false),
    bind(Context::Compare, &[ch('a')], Do(Action::AddRobot), "add a robot", false),
    bind(Context::Compare, &[ch('x')], Do(Action::RemoveCompareColumn), "remove this robot", false),
    bind(Context::Compare, &[ch('/')], Do(Action::AddComparePath), "add a path row", false),
    bind(Context::Compare, &[ch('L')], Do(Action::LoadComparePaths), "paths from a file", false),
    bind(Context::Compare, &[ch('m')], Do(Action::ToggleReadingColumns), "its 3 readings", false),
    bind(Context::Compare, &[ch('s')], Do(Action::CycleReading), "next reading", false),
    bind(Context::Compare, &[ch('S')], Do(Action::FollowRobotReading), "default readings", false),
    bind(Context::Compare, &[key(KeyCode::Esc), ch('c')], Do(Action::ToggleCompare), "leave the view", false),
    bind(Context::Compare, &[ch('q')], Do(Action::Quit), "quit", false),
    bind(Context::Compare, &[ch('?')], Do(Action::ToggleHelp), "help", false),
    bind(Context::Page, &[ch('j'), key(KeyCode::Down)], Do(Action::Down), "scroll down", false),
    bind(Context::Page, &[ch('k'), key(KeyCode::Up)], Do(Action::Up), "scroll up", false),
    bind(Context::Page, &[key(KeyCode::PageDown), ctrl('d')], Do(Action::PageDown), "page down", false),
    bind(Context::Page, &[key(KeyCode::PageUp), ctrl('u')], Do(Action::PageUp), "page up", false),
    bind(Context::Page, &[ch('g'), key(KeyCode::Home)], Do(Action::Top), "top", false),
    bind(Context::Page, &[ch(']')], Do(Action::NextRobot), "next robot", false),
    bind(Context::Page, &[ch('[')], Do(Action::PrevRobot), "previous robot", false),
    bind(Context::Page, &[ch('s')], Do(Action::CycleReading), "next reading", false),
    bind(Context::Page, &[ch('S')], Do(Action::FollowRobotReading), "default readings", false),
    bind(Context::Page, &[ch('r')], Do(Action::Reload), "fetch again", false),
    bind(Context::Page, &[key(KeyCode::Esc), ch('p'), ch('q')], Do(Action::PagePolicy), "close", false),
    bind(Context::ConfirmQuit, &[ch('w')], Do(Action::SaveThenQuit), "save, then quit", false),
    bind(Context::ConfirmQuit, &[ch('q'), ch('y')], Do(Action::QuitWithoutSaving), "quit, drop edits", false),
    bind(Context::ConfirmQuit, &[key(KeyCode::Esc), ch('n')], Do(Action::Cancel), "keep working", false),
];

/// The keymap grouped for the help overlay: each context's bindings, in table order.
#[must_use]
pub fn help_sections() -> Vec<(Context, Vec<&'static Binding>)> {
    let mut sections: Vec<(Context, Vec<&'static Binding>)> = Vec::new();
    for binding in BINDINGS {
        match sections.last_mut() {
            Some((context, bindings)) if *context == binding.context => bindings.push(binding),
            _ => sections.push((binding.context, vec![binding])),
        }
    }
    sections
}

/// Lines of the help overlay as one column: a heading and a line per binding for each
/// context, a blank line between contexts.
#[must_use]
pub fn help_line_count() -> usize {
    let sections = help_sections();
    sections.iter().map(|(_, bindings)| bindings.len() + 1).sum::<usize>() + sections.len().saturating_sub(1)
}

/// The action for a key press in the app's current state, if the key means anything.
#[must_use]
pub fn action_for(app: &App, event: KeyEvent) -> Option<Action> {
    if event.kind == KeyEventKind::Release {
        return None;
    }
    // Ctrl-C quits from anywhere, whatever the mode.
    if event.code == KeyCode::Char('c') && event.modifiers.contains(KeyModifiers::CONTROL) {
        return Some(Action::Quit);
    }
    let pressed = normalise(event);
    let contexts: &[Context] = match app.mode() {
        Mode::Help => &[Help],
        Mode::FetchDetails => &[Context::FetchDetails],
        Mode::EditingPath => &[TypingPath, Typing],
        Mode::AddingRobot(_)
        | Mode::OpeningSource(_)
        | Mode::SavingAs(..)
        | Mode::AddingComparePath(_)
        | Mode::LoadingComparePaths(_) => &[Typing],
        Mode::Compare => &[Context::Compare],
        Mode::Page => &[Context::Page],
        Mode::Editing => &[Context::Editing],
        Mode::Diagnostics => &[Context::Diagnostics],
        Mode::Changes => &[Context::Changes],
        Mode::CopyMenu => &[Context::CopyMenu],
        Mode::ConfirmQuit => &[Context::ConfirmQuit],
        Mode::Normal => &[Context::Pane(app.focus()), Navigation, Global],
    };
    let binding = contexts
        .iter()
        .find_map(|&context| BINDINGS.iter().find(|b| b.context == context && b.keys.contains(&pressed)));
    let command = match binding {
        Some(binding) => binding.command.clone(),
        None => match (app.mode(), pressed.code) {
            // Every other key goes to the text area.
            (Mode::Editing, _) => return Some(Action::EditorKey(event)),
            (
                Mode::EditingPath
                | Mode::AddingRobot(_)
                | Mode::OpeningSource(_)
                | Mode::SavingAs(..)
                | Mode::AddingComparePath(_)
                | Mode::LoadingComparePaths(_),
                KeyCode::Char(c),
            ) if !pressed.modifiers.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) => E(Edit::Insert(c)),
            _ => return None,
        },
    };
    Some(match (command, app.mode()) {
        (Do(action), _) => action,
        (E(edit), Mode::AddingRobot(_)) => Action::RobotNameEdit(edit),
        (E(edit), Mode::OpeningSource(_)) => Action::SourceEdit(edit),
        (E(edit), Mode::SavingAs(..)) => Action::SavePathEdit(edit),
        (E(edit), _) => Action::PathEdit(edit),
        (Command::Submit, Mode::AddingRobot(_)) => Action::SubmitRobotName,
        (Command::Submit, Mode::OpeningSource(_)) => Action::SubmitSource,
        (Command::Submit, Mode::SavingAs(..)) => Action::SubmitSavePath,
        (Command::Submit, _) => Action::SubmitPath,
    })
}

/// Shift is part of the character for printable keys (`G`, `?`), so it is dropped
/// there; terminals disagree about reporting it.
fn normalise(event: KeyEvent) -> Key {
    let modifiers = match event.code {
        KeyCode::Char(_) => event.modifiers - KeyModifiers::SHIFT,
        _ => event.modifiers,
    };
    Key { code: event.code, modifiers }
}

/// A key as the help shows it: `q`, `Tab`, `C-w`, `↓`.
#[must_use]
pub fn key_label(key: Key) -> String {
    let name = match key.code {
        KeyCode::Char(' ') => "Space".to_owned(),
        KeyCode::Char(c) => c.to_string(),
        KeyCode::Tab => "Tab".to_owned(),
        KeyCode::BackTab => "S-Tab".to_owned(),
        KeyCode::Enter => "Enter".to_owned(),
        KeyCode::Esc => "Esc".to_owned(),
        KeyCode::Up => "↑".to_owned(),
        KeyCode::Down => "↓".to_owned(),
        KeyCode::Left => "←".to_owned(),
        KeyCode::Right => "→".to_owned(),
        KeyCode::Home => "Home".to_owned(),
        KeyCode::End => "End".to_owned(),
        KeyCode::PageUp => "PgUp".to_owned(),
        KeyCode::PageDown => "PgDn".to_owned(),
        KeyCode::Backspace => "Bksp".to_owned(),
        KeyCode::Delete => "Del".to_owned(),
        other => format!("{other:?}"),
    };
    if key.modifiers.contains(KeyModifiers::CONTROL) { format!("C-{name}") } else { name }
}

/// The status bar's hints: `(key, label)` for the bindings marked as hints.
pub fn hints() -> impl Iterator<Item = (String, &'static str)> {
    BINDINGS.iter().filter(|b| b.hint).map(|b| (key_label(b.keys[0]), b.label))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn no_key_is_bound_twice_in_one_context() {
        for (i, a) in BINDINGS.iter().enumerate() {
            for b in &BINDINGS[i + 1..] {
                if a.context == b.context {
                    for k in a.keys {
                        assert!(!b.keys.contains(k), "{k:?} is bound twice in {:?}", a.context);
                    }
                }
            }
        }
    }

    #[test]
    fn keys_mean_different_things_per_mode() {
        let mut app = App::example();
        assert_eq!(action_for(&app, press(KeyCode::Char('q'))), Some(Action::Quit));
        assert_eq!(action_for(&app, press(KeyCode::Char('j'))), Some(Action::Down));
        app.update(Action::EditPath);
        assert_eq!(action_for(&app, press(KeyCode::Char('q'))), Some(Action::PathEdit(Edit::Insert('q'))));
        assert_eq!(action_for(&app, press(KeyCode::Char(']'))), Some(Action::NextRobot));
        assert_eq!(action_for(&app, press(KeyCode::Enter)), Some(Action::SubmitPath));
        assert_eq!(action_for(&app, KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)), Some(Action::Quit));
    }

    #[test]
    fn hints_come_from_the_table() {
        let hints: Vec<_> = hints().collect();
        assert!(hints.contains(&("q".to_owned(), "quit")));
        assert!(hints.contains(&("]".to_owned(), "next robot")));
    }
}
