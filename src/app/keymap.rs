//! The keymap: one table from keys to actions, with a label for each.
//!
//! The same table drives dispatch ([`action_for`]), the help overlay and the status
//! bar's hints, so they cannot disagree (STYLE.md habit 8). Keys are resolved against
//! the one [`KeyContext`] the app is in (a prompt, an overlay, the editor or a pane),
//! and [`press`] drives the app through this table the way the event loop does, so that
//! tests press keys rather than call `update` (helix tests its keymap the same way).
//! Only crossterm's key types are used here; reading keys from the terminal is the
//! event loop's business.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use super::action::Action;
use super::editor::EDITOR_KEYS;
use super::effect::{AfterSave, CopyWhat, Effect};
use super::focus::Pane;
use super::input::Edit;
use super::overlay::Overlay;
use super::prompt::PromptKind;
use super::{App, KeyContext};

/// Where a binding applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Context {
    /// The base view, whatever pane has focus.
    Global,
    /// The base view: moving the focused pane's cursor.
    Navigation,
    /// The base view, only when this pane has focus.
    Pane(Pane),
    /// Any prompt (every other printable key types).
    Prompt,
    /// The tester's prompt, besides the keys of every prompt.
    PathPrompt,
    /// The add-robot prompt (`a`), besides the keys of every prompt.
    RobotPrompt,
    /// The editor (every other key edits the text).
    Editing,
    /// While this overlay is open.
    Overlay(Overlay),
    /// Every overlay: what a view does not bind itself (moving, scrolling, help and the
    /// message log), as help inherits from the keys of the view below it.
    InView,
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
            Context::Pane(Pane::Tester) => "Tester pane",
            Context::Prompt => "Typing (any prompt)",
            Context::PathPrompt => "Typing a path",
            Context::RobotPrompt => "Typing a robot",
            Context::Editing => "Editor (other keys type)",
            Context::Overlay(Overlay::Help) => "Help",
            Context::Overlay(Overlay::Messages) => "Messages",
            Context::Overlay(Overlay::FetchDetails) => "Fetch details",
            Context::Overlay(Overlay::Diagnostics) => "Diagnostics list",
            Context::Overlay(Overlay::Changes) => "Changes view",
            Context::Overlay(Overlay::Policy) => "Policy view",
            Context::Overlay(Overlay::CopyMenu) => "Copy menu",
            Context::Overlay(Overlay::UnsavedEdits) => "Unsaved edits",
            Context::Overlay(Overlay::ConfirmReplace) => "Replace a file",
            Context::Overlay(Overlay::ChangedOnDisk) => "File changed on disk",
            Context::Overlay(Overlay::Compare) => "Compare view",
            Context::Overlay(Overlay::Page) => "Page policy",
            Context::Overlay(Overlay::Sitemaps) => "Sitemaps",
            Context::Overlay(Overlay::History) => "History",
            Context::Overlay(Overlay::Audit) => "Audit",
            Context::InView => "In any view",
        }
    }
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
    pub action: Action,
    /// What the help and the status bar call it.
    pub label: &'static str,
    /// Whether the status bar lists it.
    pub hint: bool,
}

const fn bind(context: Context, keys: &'static [Key], action: Action, label: &'static str, hint: bool) -> Binding {
    Binding { context, keys, action, label, hint }
}

use Context::{Global, Navigation, PathPrompt, Prompt, RobotPrompt};

const ESC: Key = key(KeyCode::Esc);
const ENTER: Key = key(KeyCode::Enter);
const UP: &[Key] = &[ch('k'), key(KeyCode::Up)];
const DOWN: &[Key] = &[ch('j'), key(KeyCode::Down)];
const PAGE_UP: &[Key] = &[key(KeyCode::PageUp), ctrl('u')];
const PAGE_DOWN: &[Key] = &[key(KeyCode::PageDown), ctrl('d')];
const TOP: &[Key] = &[ch('g'), key(KeyCode::Home)];
const BOTTOM: &[Key] = &[ch('G'), key(KeyCode::End)];

const HELP: Context = Context::Overlay(Overlay::Help);
const MESSAGES: Context = Context::Overlay(Overlay::Messages);
const DIAGNOSTICS: Context = Context::Overlay(Overlay::Diagnostics);
const CHANGES: Context = Context::Overlay(Overlay::Changes);
const POLICY: Context = Context::Overlay(Overlay::Policy);
const COPY: Context = Context::Overlay(Overlay::CopyMenu);
const UNSAVED: Context = Context::Overlay(Overlay::UnsavedEdits);
const REPLACE: Context = Context::Overlay(Overlay::ConfirmReplace);
const CHANGED: Context = Context::Overlay(Overlay::ChangedOnDisk);
const COMPARE: Context = Context::Overlay(Overlay::Compare);
const PAGE: Context = Context::Overlay(Overlay::Page);
const SITEMAPS: Context = Context::Overlay(Overlay::Sitemaps);
const FETCH: Context = Context::Overlay(Overlay::FetchDetails);
const HISTORY: Context = Context::Overlay(Overlay::History);
const AUDIT: Context = Context::Overlay(Overlay::Audit);
const IN_VIEW: Context = Context::InView;

/// Every key binding of the explorer.
pub static BINDINGS: &[Binding] = &[
    bind(Global, &[ch('?')], Action::Toggle(Overlay::Help), "help", true),
    bind(Global, &[ch('q'), ctrl('c')], Action::Quit, "quit", true),
    bind(Global, &[ch(']')], Action::NextRobot, "next robot", true),
    bind(Global, &[ch('[')], Action::PrevRobot, "previous robot", true),
    bind(Global, &[ch('/')], Action::OpenPrompt(PromptKind::TestPath), "test a path", true),
    bind(Global, &[ch('s')], Action::CycleReading, "next reading", true),
    bind(Global, &[ch('S')], Action::FollowRobotReading, "default readings", false),
    bind(Global, &[ch('a')], Action::OpenPrompt(PromptKind::AddRobot), "add a robot", false),
    bind(Global, &[ch('o')], Action::OpenPrompt(PromptKind::OpenSource), "open file or site", false),
    bind(Global, &[ch('r')], Action::Reload, "read it again", false),
    bind(Global, &[ch('i')], Action::Toggle(Overlay::FetchDetails), "fetch details", false),
    bind(Global, &[ch('d')], Action::Toggle(Overlay::Diagnostics), "list diagnostics", true),
    bind(Global, &[ch('f')], Action::FixHere, "fix this line", false),
    bind(Global, &[ch('F')], Action::FixAll, "fix everything", false),
    bind(Global, &[ch('e')], Action::OpenEditor, "edit the text", true),
    bind(Global, &[ch('v')], Action::Toggle(Overlay::Changes), "changes and diff", false),
    bind(Global, &[ch('b')], Action::Toggle(Overlay::Policy), "block robots by purpose", true),
    bind(Global, &[ch('y')], Action::Toggle(Overlay::CopyMenu), "copy file, group or diff", false),
    bind(Global, &[ch('w')], Action::OpenPrompt(PromptKind::SaveAs(AfterSave::Stay)), "save", false),
    bind(Global, &[ctrl('z')], Action::Undo, "undo", false),
    bind(Global, &[ctrl('y')], Action::Redo, "redo", false),
    bind(Global, &[ch('c')], Action::Toggle(Overlay::Compare), "compare robots", true),
    bind(Global, &[ch('p')], Action::Toggle(Overlay::Page), "page policy", false),
    bind(Global, &[ch('m')], Action::Toggle(Overlay::Sitemaps), "sitemaps", false),
    bind(Global, &[ch('H')], Action::Toggle(Overlay::History), "history of the file", false),
    bind(Global, &[ch('L')], Action::Toggle(Overlay::Audit), "audit an access log", false),
    bind(Global, &[ctrl('f')], Action::OpenPrompt(PromptKind::Search), "find in the source", false),
    // From any pane, as Ctrl-F: a key that did nothing in three panes said nothing
    // either (issue 35).
    bind(Global, &[ch('n')], Action::SearchNext, "next match", false),
    bind(Global, &[ch('N')], Action::SearchPrevious, "previous match", false),
    bind(Global, &[ch(':')], Action::OpenPrompt(PromptKind::GoToLine), "go to line", false),
    bind(Global, &[ch('M')], Action::Toggle(Overlay::Messages), "messages", false),
    bind(Global, &[key(KeyCode::Tab)], Action::FocusNext, "next pane", false),
    bind(Global, &[key(KeyCode::BackTab)], Action::FocusPrev, "previous pane", false),
    bind(Global, &[ESC], Action::Cancel, "cancel a load", false),
    bind(Navigation, DOWN, Action::Down, "down", false),
    bind(Navigation, UP, Action::Up, "up", false),
    bind(Navigation, PAGE_DOWN, Action::PageDown, "page down", false),
    bind(Navigation, PAGE_UP, Action::PageUp, "page up", false),
    bind(Navigation, TOP, Action::Top, "first line", false),
    bind(Navigation, BOTTOM, Action::Bottom, "last line", false),
    bind(Context::Pane(Pane::Source), &[ch('l'), key(KeyCode::Right)], Action::Right, "scroll right", false),
    bind(Context::Pane(Pane::Source), &[ch('h'), key(KeyCode::Left)], Action::Left, "scroll left", false),
    bind(Context::Pane(Pane::Robots), &[ch(' ')], Action::ToggleComparedRobot, "mark for compare", false),
    bind(Context::Pane(Pane::Robots), &[ch('P')], Action::CycleRobotPurpose, "robots of a purpose", false),
    bind(Context::Pane(Pane::Records), &[ENTER], Action::ShowInSource, "show in source", false),
    bind(Context::Pane(Pane::Tester), &[ENTER], Action::OpenPrompt(PromptKind::TestPath), "edit the path", false),
    bind(Prompt, &[ENTER], Action::PromptSubmit, "accept", true),
    bind(Prompt, &[ESC], Action::Cancel, "cancel", true),
    bind(Prompt, &[key(KeyCode::Left)], Action::PromptEdit(Edit::Left), "cursor left", false),
    bind(Prompt, &[key(KeyCode::Right)], Action::PromptEdit(Edit::Right), "cursor right", false),
    bind(Prompt, &[key(KeyCode::Home), ctrl('a')], Action::PromptEdit(Edit::Home), "start of line", false),
    bind(Prompt, &[key(KeyCode::End), ctrl('e')], Action::PromptEdit(Edit::End), "end of line", false),
    bind(Prompt, &[key(KeyCode::Backspace)], Action::PromptEdit(Edit::Backspace), "delete back", false),
    bind(Prompt, &[key(KeyCode::Delete)], Action::PromptEdit(Edit::Delete), "delete", false),
    bind(Prompt, &[ctrl('w')], Action::PromptEdit(Edit::DeleteWord), "delete word", false),
    bind(Prompt, &[ctrl('u')], Action::PromptEdit(Edit::Clear), "clear", false),
    bind(PathPrompt, &[key(KeyCode::Up)], Action::PromptEdit(Edit::HistoryPrevious), "older path", true),
    bind(PathPrompt, &[key(KeyCode::Down)], Action::PromptEdit(Edit::HistoryNext), "newer path", false),
    bind(PathPrompt, &[ctrl('p')], Action::Toggle(Overlay::Page), "keep it, page policy", false),
    bind(RobotPrompt, &[key(KeyCode::Tab)], Action::CompleteRobotName, "complete the name", true),
    bind(HELP, &[ESC, ch('?'), ch('q')], Action::Toggle(Overlay::Help), "close help", true),
    bind(MESSAGES, &[ESC, ch('M'), ch('q')], Action::Toggle(Overlay::Messages), "close", true),
    bind(FETCH, &[ESC, ch('i'), ch('q')], Action::Toggle(Overlay::FetchDetails), "close", true),
    bind(Context::Editing, &[ESC], Action::Cancel, "unselect, or leave", true),
    bind(Context::Editing, &[ctrl('s')], Action::OpenPrompt(PromptKind::SaveAs(AfterSave::Stay)), "save", true),
    bind(Context::Editing, &[ctrl('z')], Action::Undo, "undo", false),
    bind(Context::Editing, &[ctrl('y')], Action::Redo, "redo", false),
    bind(DIAGNOSTICS, &[ENTER], Action::ShowInSource, "show in source", true),
    bind(DIAGNOSTICS, &[ch('f')], Action::FixHere, "apply this fix", true),
    bind(DIAGNOSTICS, &[ch('F')], Action::FixAll, "fix everything", false),
    bind(DIAGNOSTICS, &[ctrl('z')], Action::Undo, "undo", false),
    bind(DIAGNOSTICS, &[ctrl('y')], Action::Redo, "redo", false),
    bind(DIAGNOSTICS, &[ESC, ch('d'), ch('q')], Action::Toggle(Overlay::Diagnostics), "close", true),
    bind(CHANGES, &[ch('y')], Action::Copy(CopyWhat::Diff), "copy the diff", true),
    bind(CHANGES, &[ESC, ch('v'), ch('q')], Action::Toggle(Overlay::Changes), "close", true),
    bind(POLICY, &[ch(' ')], Action::MarkToBlock, "mark to block", true),
    bind(POLICY, &[ENTER], Action::ApplyBlock, "apply", true),
    bind(POLICY, &[ctrl('z')], Action::Undo, "undo", false),
    bind(POLICY, &[ctrl('y')], Action::Redo, "redo", false),
    bind(POLICY, &[ch('y')], Action::Copy(CopyWhat::File), "copy the file", true),
    bind(POLICY, &[ch('J')], Action::DetailDown, "scroll the detail", false),
    bind(POLICY, &[ch('K')], Action::DetailUp, "scroll the detail", false),
    bind(POLICY, &[ESC, ch('b'), ch('q')], Action::Toggle(Overlay::Policy), "close", true),
    bind(COPY, &[ch('f')], Action::Copy(CopyWhat::File), "the file, as it is now", true),
    bind(COPY, &[ch('g')], Action::Copy(CopyWhat::Group), "the group that applies to the robot", true),
    bind(COPY, &[ch('d')], Action::Copy(CopyWhat::Diff), "the diff of your edits", true),
    bind(COPY, &[ESC], Action::Cancel, "nothing", true),
    bind(COMPARE, &[ch('l'), key(KeyCode::Right)], Action::Right, "next robot", false),
    bind(COMPARE, &[ch('h'), key(KeyCode::Left)], Action::Left, "previous robot", false),
    bind(COMPARE, &[ch('a')], Action::OpenPrompt(PromptKind::AddRobot), "add a robot", true),
    bind(COMPARE, &[ch('x')], Action::RemoveCompareColumn, "remove this robot", false),
    bind(COMPARE, &[ch('/')], Action::OpenPrompt(PromptKind::ComparePath), "add a path row", true),
    bind(COMPARE, &[ch('L')], Action::OpenPrompt(PromptKind::ComparePathsFile), "paths from a file", false),
    bind(COMPARE, &[ch('m')], Action::ToggleReadingColumns, "its 3 readings", true),
    bind(COMPARE, &[ch('u')], Action::CycleCompareUsage, "usage category", true),
    bind(COMPARE, &[ch('p')], Action::CycleComparePurpose, "robots of a purpose", true),
    bind(COMPARE, &[ch('s')], Action::CycleReading, "next reading", false),
    bind(COMPARE, &[ch('S')], Action::FollowRobotReading, "default readings", false),
    // q leaves it as it closes every other view; Ctrl-C still quits.
    bind(COMPARE, &[ESC, ch('c'), ch('q')], Action::Toggle(Overlay::Compare), "leave the view", true),
    bind(COMPARE, &[ctrl('c')], Action::Quit, "quit", false),
    bind(PAGE, &[ch(']')], Action::NextRobot, "next robot", true),
    bind(PAGE, &[ch('[')], Action::PrevRobot, "previous robot", false),
    bind(PAGE, &[ch('s')], Action::CycleReading, "next reading", false),
    bind(PAGE, &[ch('S')], Action::FollowRobotReading, "default readings", false),
    bind(PAGE, &[ch('r')], Action::Reload, "fetch again", true),
    bind(PAGE, &[ESC, ch('p'), ch('q')], Action::Toggle(Overlay::Page), "close", true),
    bind(SITEMAPS, &[ENTER], Action::ShowInSource, "URL into the tester", true),
    bind(SITEMAPS, &[ch('R')], Action::CompareSitemapUrls, "compare these URLs", true),
    bind(SITEMAPS, &[ch('r')], Action::Reload, "read them again", false),
    bind(SITEMAPS, &[ESC, ch('m'), ch('q')], Action::Cancel, "stop reading, or leave", true),
    bind(HISTORY, &[ENTER], Action::ShowInSource, "show it (read-only)", true),
    bind(HISTORY, &[ch(' ')], Action::MarkVersion, "mark to diff against", true),
    bind(HISTORY, &[ch('d')], Action::ToggleVersionDiff, "diff, or flips", true),
    bind(HISTORY, &[ch('A')], Action::AskArchive, "ask the web archive", true),
    bind(HISTORY, &[ch('J')], Action::DetailDown, "scroll the detail", false),
    bind(HISTORY, &[ch('K')], Action::DetailUp, "scroll the detail", false),
    bind(HISTORY, &[ESC, ch('H'), ch('q')], Action::Cancel, "stop, or leave", true),
    bind(AUDIT, &[ENTER], Action::ShowInSource, "robot, path and version", true),
    bind(AUDIT, &[ch('l')], Action::OpenPrompt(PromptKind::AuditLog), "audit another log", true),
    bind(AUDIT, &[ch('r')], Action::Reload, "run it again", false),
    bind(AUDIT, &[ESC, ch('L'), ch('q')], Action::Cancel, "stop, or leave", true),
    bind(UNSAVED, &[ch('w')], Action::OpenPrompt(PromptKind::SaveAs(AfterSave::ThenContinue)), "save, go on", true),
    bind(UNSAVED, &[ch('y')], Action::DiscardAndContinue, "drop edits, go on", true),
    bind(UNSAVED, &[ch('q')], Action::Quit, "quit, edits to a recovery copy", false),
    bind(UNSAVED, &[ESC, ch('n')], Action::Cancel, "keep working", true),
    bind(REPLACE, &[ch('y')], Action::ReplaceFile, "replace it", true),
    bind(REPLACE, &[ESC, ch('n')], Action::Cancel, "keep it (w saves under another name)", true),
    bind(CHANGED, &[ch('y')], Action::ReplaceFile, "overwrite their change", true),
    bind(CHANGED, &[ch('d')], Action::ToggleTheirChange, "diff: their file → your text", true),
    bind(CHANGED, &[ch('r')], Action::Reload, "read it again", true),
    bind(CHANGED, &[ESC, ch('n')], Action::Cancel, "keep editing", true),
    bind(IN_VIEW, DOWN, Action::Down, "down", false),
    bind(IN_VIEW, UP, Action::Up, "up", false),
    bind(IN_VIEW, PAGE_DOWN, Action::PageDown, "page down", false),
    bind(IN_VIEW, PAGE_UP, Action::PageUp, "page up", false),
    bind(IN_VIEW, TOP, Action::Top, "top", false),
    bind(IN_VIEW, BOTTOM, Action::Bottom, "bottom", false),
    bind(IN_VIEW, &[ch('?')], Action::Toggle(Overlay::Help), "help", false),
    bind(IN_VIEW, &[ch('M')], Action::Toggle(Overlay::Messages), "messages", false),
];

/// One line of the help: keys and what they do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HelpEntry {
    /// The keys, as the help shows them (`j ↓`, `C-w`).
    pub keys: String,
    /// What they do.
    pub label: &'static str,
}

/// The keymap grouped for the help overlay: each context's bindings, in table order.
/// Moving the cursor (six bindings), editing a prompt's text (eight), and each pair
/// (robots, readings, fixes, matches, older and newer paths, sideways)
/// take one line each, so that the whole keymap fits a 120x40 terminal. The copy menu
/// and the two questions (unsaved edits, replacing a file) are left out: their boxes
/// list their keys on screen.
#[must_use]
pub fn help_sections() -> Vec<(Context, Vec<HelpEntry>)> {
    help_sections_for(None)
}

/// [`help_sections`], with the keys of `first` (the view help was opened over) first.
#[must_use]
pub fn help_sections_for(first: Option<Context>) -> Vec<(Context, Vec<HelpEntry>)> {
    let mut sections = all_help_sections();
    if let Some(at) = sections.iter().position(|(context, _)| Some(*context) == first) {
        let section = sections.remove(at);
        sections.insert(0, section);
    }
    sections
}

fn all_help_sections() -> Vec<(Context, Vec<HelpEntry>)> {
    let mut sections: Vec<(Context, Vec<HelpEntry>)> = Vec::new();
    let shows_its_keys = |context| {
        matches!(
            context,
            Context::Overlay(
                Overlay::CopyMenu | Overlay::UnsavedEdits | Overlay::ConfirmReplace | Overlay::ChangedOnDisk
            )
        )
    };
    for binding in BINDINGS.iter().filter(|binding| !shows_its_keys(binding.context)) {
        let keys = || binding.keys.iter().map(|&k| key_label(k)).collect::<Vec<_>>().join(" ");
        let (group, shown) = match binding.action {
            Action::Up | Action::Down => (Some("move, scroll"), key_label(binding.keys[0])),
            Action::PageUp | Action::PageDown | Action::Top | Action::Bottom => {
                (Some("move, scroll"), key_label(binding.keys[0]))
            }
            Action::PromptEdit(Edit::Left | Edit::Right | Edit::Home | Edit::End | Edit::Backspace | Edit::Delete) => {
                (Some("move, delete"), key_label(binding.keys[0]))
            }
            Action::NextRobot | Action::PrevRobot => (Some("next robot, previous"), keys()),
            Action::Right | Action::Left => (Some("sideways"), keys()),
            Action::DetailDown | Action::DetailUp => (Some("scroll the detail"), keys()),
            Action::FixHere | Action::FixAll => (Some("fix here, everything"), keys()),
            Action::Undo | Action::Redo => (Some("undo, redo"), keys()),
            Action::PromptSubmit | Action::Cancel if binding.context == Prompt => (Some("accept, cancel"), keys()),
            Action::SearchNext | Action::SearchPrevious => (Some("next match, previous"), keys()),
            Action::PromptEdit(Edit::HistoryPrevious | Edit::HistoryNext) => (Some("older path, newer"), keys()),
            Action::CycleReading | Action::FollowRobotReading => (Some("next reading, robots' own"), keys()),
            _ => (None, keys()),
        };
        if sections.last().is_none_or(|(context, _)| *context != binding.context) {
            sections.push((binding.context, Vec::new()));
        }
        let Some((context, section)) = sections.last_mut() else { continue };
        if *context == Context::Editing && section.is_empty() {
            // The editor reads the other keys itself (`Editor::key`): its own table.
            section.extend(EDITOR_KEYS.iter().map(|&(keys, label)| HelpEntry { keys: keys.to_owned(), label }));
        }
        match (group, section.last_mut()) {
            (Some(label), Some(last)) if last.label == label => {
                last.keys.push(' ');
                last.keys.push_str(&shown);
            }
            (Some(label), _) => section.push(HelpEntry { keys: shown, label }),
            (None, _) => section.push(HelpEntry { keys: shown, label: binding.label }),
        }
    }
    sections
}

/// Lines of the help overlay as one column: a heading and a line per entry for each
/// context, a blank line between contexts.
#[must_use]
pub fn help_line_count() -> usize {
    let sections = help_sections();
    // A context of one key takes one line (its heading and the key).
    let lines = |entries: &Vec<HelpEntry>| if entries.len() == 1 { 1 } else { entries.len() + 1 };
    sections.iter().map(|(_, entries)| lines(entries)).sum::<usize>() + sections.len().saturating_sub(1)
}

/// The contexts whose bindings apply in `context`, most specific first.
#[must_use]
pub fn contexts_of(context: KeyContext) -> Vec<Context> {
    match context {
        KeyContext::Prompt(PromptKind::TestPath) => vec![PathPrompt, Prompt],
        KeyContext::Prompt(PromptKind::AddRobot) => vec![RobotPrompt, Prompt],
        KeyContext::Prompt(_) => vec![Prompt],
        KeyContext::Overlay(overlay) => vec![Context::Overlay(overlay), Context::InView],
        KeyContext::Editor => vec![Context::Editing],
        KeyContext::Pane(pane) => vec![Context::Pane(pane), Navigation, Global],
    }
}

/// The action for a key press in the app's current state, if the key means anything
/// there. The state decides one [`KeyContext`]; only its bindings apply, then the
/// context's own rule for other keys (a prompt types printable characters, the editor
/// takes everything).
#[must_use]
pub fn action_for(app: &App, event: KeyEvent) -> Option<Action> {
    if event.kind == KeyEventKind::Release {
        return None;
    }
    // Ctrl-C quits from anywhere, whatever has the keys.
    if event.code == KeyCode::Char('c') && event.modifiers.contains(KeyModifiers::CONTROL) {
        return Some(Action::Quit);
    }
    let pressed = normalise(event);
    let context = app.key_context();
    let bound = contexts_of(context)
        .into_iter()
        .find_map(|context| BINDINGS.iter().find(|b| b.context == context && b.keys.contains(&pressed)));
    if let Some(binding) = bound {
        return Some(binding.action.clone());
    }
    match (context, pressed.code) {
        // Every other key goes to the text area.
        (KeyContext::Editor, _) => Some(Action::EditorKey(event)),
        (KeyContext::Prompt(_), KeyCode::Char(c))
            if !pressed.modifiers.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) =>
        {
            Some(Action::PromptEdit(Edit::Insert(c)))
        }
        _ => None,
    }
}

/// Shift is part of the character for printable keys (`G`, `?`) and of Shift-Tab
/// (`BackTab`), so it is dropped there; terminals disagree about reporting it.
fn normalise(event: KeyEvent) -> Key {
    let modifiers = match event.code {
        KeyCode::Char(_) | KeyCode::BackTab => event.modifiers - KeyModifiers::SHIFT,
        _ => event.modifiers,
    };
    Key { code: event.code, modifiers }
}

/// Key presses from a short notation, for tests and examples (as helix writes its key
/// sequence tests): characters stand for themselves, and `<ret>`, `<esc>`, `<tab>`,
/// `<S-tab>`, `<bs>`, `<del>`, `<up>`, `<down>`, `<left>`, `<right>`, `<home>`, `<end>`,
/// `<pgup>`, `<pgdn>`, `<space>`, `<lt>` (a `<`) and `<C-x>` (Ctrl and a letter) for the
/// others.
///
/// # Panics
///
/// On an unknown `<name>`: the notation is written by tests, and a typo must fail them.
#[must_use]
pub fn parse_keys(notation: &str) -> Vec<KeyEvent> {
    let mut keys = Vec::new();
    let mut rest = notation;
    while let Some(c) = rest.chars().next() {
        if c == '<'
            && let Some(end) = rest.find('>')
            && end > 1
        {
            let name = &rest[1..end];
            rest = &rest[end + 1..];
            let plain = |code| KeyEvent::new(code, KeyModifiers::NONE);
            keys.push(match name {
                "ret" => plain(KeyCode::Enter),
                "esc" => plain(KeyCode::Esc),
                "tab" => plain(KeyCode::Tab),
                "S-tab" => KeyEvent::new(KeyCode::BackTab, KeyModifiers::SHIFT),
                "bs" => plain(KeyCode::Backspace),
                "del" => plain(KeyCode::Delete),
                "up" => plain(KeyCode::Up),
                "down" => plain(KeyCode::Down),
                "left" => plain(KeyCode::Left),
                "right" => plain(KeyCode::Right),
                "home" => plain(KeyCode::Home),
                "end" => plain(KeyCode::End),
                "pgup" => plain(KeyCode::PageUp),
                "pgdn" => plain(KeyCode::PageDown),
                "space" => plain(KeyCode::Char(' ')),
                "lt" => plain(KeyCode::Char('<')),
                ctrl if ctrl.starts_with("C-") && ctrl.chars().count() == 3 => {
                    let letter = ctrl.chars().nth(2).unwrap_or_default();
                    KeyEvent::new(KeyCode::Char(letter), KeyModifiers::CONTROL)
                }
                other => panic!("unknown key <{other}> in {notation:?}"),
            });
            continue;
        }
        rest = &rest[c.len_utf8()..];
        let modifiers = if c.is_ascii_uppercase() { KeyModifiers::SHIFT } else { KeyModifiers::NONE };
        keys.push(KeyEvent::new(KeyCode::Char(c), modifiers));
    }
    keys
}

/// Presses keys as the event loop does: each through the keymap in the state the
/// previous one left, then `update`. Returns every effect, in order.
pub fn press(app: &mut App, notation: &str) -> Vec<Effect> {
    let mut effects = Vec::new();
    for key in parse_keys(notation) {
        if let Some(action) = action_for(app, key) {
            effects.extend(app.update(action));
        }
    }
    // As the event loop does before it draws.
    effects.extend(app.settle());
    effects
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

/// Every binding of `context`, in table order: its first key as the help shows it, and
/// what it does (a question's box lists its keys from here).
pub fn bindings_of(context: Context) -> impl Iterator<Item = (String, &'static str)> {
    BINDINGS.iter().filter(move |b| b.context == context).map(|b| (key_label(b.keys[0]), b.label))
}

/// The status bar's hints where keys go now: `(key, label)` for the bindings of the
/// context marked as hints.
#[must_use]
pub fn hints(context: KeyContext) -> Vec<(String, &'static str)> {
    let contexts = contexts_of(context);
    let mut hinted: Vec<&Binding> = BINDINGS.iter().filter(|b| b.hint && contexts.contains(&b.context)).collect();
    // The way out first: in an overlay or a prompt, Esc is what a lost user looks for.
    hinted.sort_by_key(|b| b.keys[0] != ESC);
    hinted.into_iter().map(|b| (key_label(b.keys[0]), b.label)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn keys_mean_different_things_per_context() {
        let mut app = App::example();
        assert_eq!(action_for(&app, parse_keys("q")[0]), Some(Action::Quit));
        assert_eq!(action_for(&app, parse_keys("j")[0]), Some(Action::Down));
        press(&mut app, "/");
        assert_eq!(action_for(&app, parse_keys("q")[0]), Some(Action::PromptEdit(Edit::Insert('q'))));
        assert_eq!(action_for(&app, parse_keys("]")[0]), Some(Action::PromptEdit(Edit::Insert(']'))));
        assert_eq!(action_for(&app, parse_keys("<ret>")[0]), Some(Action::PromptSubmit));
        assert_eq!(action_for(&app, parse_keys("<C-c>")[0]), Some(Action::Quit));
    }

    #[test]
    fn shift_tab_is_bound_however_the_terminal_reports_it() {
        let app = App::example();
        assert_eq!(action_for(&app, parse_keys("<S-tab>")[0]), Some(Action::FocusPrev));
        let bare = KeyEvent::new(KeyCode::BackTab, KeyModifiers::NONE);
        assert_eq!(action_for(&app, bare), Some(Action::FocusPrev));
    }

    #[test]
    fn the_notation_reads_special_keys() {
        let keys = parse_keys("a<ret><C-w><lt>G");
        assert_eq!(keys.len(), 5);
        assert_eq!(keys[1].code, KeyCode::Enter);
        assert_eq!((keys[2].code, keys[2].modifiers), (KeyCode::Char('w'), KeyModifiers::CONTROL));
        assert_eq!(keys[3].code, KeyCode::Char('<'));
    }

    #[test]
    fn hints_come_from_the_table_for_where_the_keys_go() {
        let base = hints(KeyContext::Pane(Pane::Source));
        assert!(base.contains(&("q".to_owned(), "quit")));
        assert!(base.contains(&("]".to_owned(), "next robot")));
        let typing = hints(KeyContext::Prompt(PromptKind::TestPath));
        assert!(typing.contains(&("Enter".to_owned(), "accept")) && !typing.iter().any(|(k, _)| k == "q"));
    }
}
