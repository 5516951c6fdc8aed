//! The explorer's state, and `update`: the only thing that changes it.
//!
//! [`App::update`] takes an [`Action`] (a key's meaning, a mouse event, a resize, a
//! result from background work) and returns [`Effect`]s for the event loop to run. It
//! does no I/O and knows no terminal, so every behaviour of the explorer can be tested
//! with plain actions in and state out (STYLE.md habit 5). Drawing reads the state
//! through the accessors here and never changes it.
//!
//! What has the keys is decided in one place, [`App::key_context`]: an open [`Prompt`]
//! (the one prompt sub-state: the tester's path, a robot's name, a file, a search), else
//! the one open [`View`] (compare, page policy, help, ...), else the editor, else the
//! focused pane. The keymap resolves keys against that context only, so a key cannot go
//! to a prompt that is not the one on screen. Each view owns its state and its
//! `update` (`app/view.rs` routes to them).
//!
//! Imports: the policy layer, robot profiles, ratatui's layout geometry (and its
//! `Buffer`, named by the trait a view's widget implements in `ui/`, `view::Drawn`),
//! and crossterm's key types (in `keymap`); never tokio, reqwest or terminal I/O.

pub mod action;
pub mod document;
pub mod editor;
pub mod edits;
pub mod effect;
pub mod focus;
pub mod input;
pub mod job;
pub mod keymap;
pub mod layout;
pub mod overlay;
pub mod prompt;
pub mod records;
pub mod search;
pub mod status;
pub mod tester;
pub mod unsaved;

mod loading;
mod navigation;
mod robots;
mod scroll;
#[cfg(test)]
mod tests;
mod verdict;
pub mod view;

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use ratatui::layout::Rect;

pub use action::Action;
pub use document::{Document, Origin};
pub use effect::{AfterSave, CopyWhat, Effect, RecoveryCopy};
pub use focus::Pane;
pub use input::{Edit, LineInput};
pub use layout::Areas;
pub use overlay::Overlay;
pub use prompt::{Prompt, PromptKind};
pub use records::RecordRow;
pub use robots::{RobotEntry, RobotOrigin};
pub use scroll::ScrollView;
pub use status::About;
pub use verdict::Evaluation;
pub use view::{Layer, View};

use crate::fetch::{Limits, Retrieved, Source};
use crate::policy::parse::product_token;
use crate::policy::request::Request;
use crate::policy::usage::{UsageAnswer, UsageRules};
use crate::policy::{Access, AgentName, Availability, Reading, RobotsTxt, Verdict, evaluate_fetched};
use crate::robots_db::{RobotProfile, RobotsDb};
use search::{Direction, Search};
use status::{Stamp, Status};

/// The example the explorer opens with no argument: the standard's own examples from
/// 1994-1996 with a few of today's robots (`assets/examples/engines.txt`).
pub const EXAMPLE: &str = include_str!("../assets/examples/engines.txt");

/// The path tested before the user types one.
const DEFAULT_PATH: &str = "/";

/// Lines the mouse wheel scrolls per notch.
const WHEEL_LINES: usize = 3;

/// Columns that `h` and `l` scroll the source's long lines by.
const HORIZONTAL_STEP: usize = 8;

/// Where keys go now: the one thing the keymap resolves bindings against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyContext {
    /// A prompt has every key.
    Prompt(PromptKind),
    /// The open view has the keys.
    Overlay(Overlay),
    /// The editor has every key but its own few.
    Editor,
    /// The base view, with this pane focused.
    Pane(Pane),
}

/// How far the load of a source has got, while it runs (the base view's background
/// job, a [`job::Job`] like the views' own).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loading {
    /// What is being loaded.
    pub source: Source,
    /// How long it has run, from the last progress tick.
    pub elapsed: Duration,
    /// Progress ticks so far (for the spinner).
    pub ticks: usize,
}

/// Which User-Agent header a fetch sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum UserAgentChoice {
    /// The one in the fetch limits (robotscope's, or `--user-agent`).
    Given,
    /// The selected robot's own (`--as-robot`).
    SelectedRobot,
}

/// The access log `--log` names, on its way to its audit.
#[derive(Debug, Clone, PartialEq, Eq)]
enum LogAtStart {
    /// Before the shell runs, which would lose an effect asked for now.
    Given(std::path::PathBuf),
    /// The shell runs: audited once the file is loaded.
    Due(std::path::PathBuf),
}

/// The explorer's whole state.
#[derive(Debug)]
pub struct App {
    document: Document,
    robots: Vec<RobotEntry>,
    robot: usize,
    robots_view: ScrollView,
    /// The reading the user picked with `s`; `None` follows each robot's default.
    reading_choice: Option<Reading>,
    focus: Pane,
    /// The one view open over the base view, if any, with its state.
    view: Option<View>,
    /// The closed views that keep their place, and those a layer covers.
    shelf: view::Shelf,
    /// The prompt being typed, over the base view or the open view.
    prompt: Option<Prompt>,
    /// The pane that had focus before the tester's prompt took it.
    focus_before_prompt: Pane,
    source_view: ScrollView,
    /// Columns of the source's lines scrolled off to the left (`h`/`l`).
    source_column: usize,
    records_view: ScrollView,
    /// The tester's path, with its history.
    path: LineInput,
    /// The first line of the tester's explanation shown (under the verdict).
    tester_scroll: usize,
    evaluation: Evaluation,
    area: Rect,
    status: Status,
    /// User actions applied so far, for messages about the key just pressed.
    user_actions: u64,
    /// Sources loaded so far, for messages about the loaded one.
    loads: u64,
    search: Search,
    /// The load of a source.
    load: job::Job<Loading>,
    /// The ids of background jobs.
    job_ids: job::JobIds,
    /// The cancelling of jobs whose view went with the document that had them.
    jobs_to_cancel: Vec<Effect>,
    /// The access log `--log` names, until its audit starts.
    audit_at_start: Option<LogAtStart>,
    limits: Limits,
    /// Send the selected robot's User-Agent when fetching (`--as-robot`) instead of
    /// `limits.user_agent`.
    user_agent: UserAgentChoice,
    /// The text as loaded (or last saved), for the diff and the flipped verdicts.
    original: Arc<RobotsTxt>,
    original_availability: crate::policy::Availability,
    diagnostics: Vec<crate::policy::Diagnostic>,
    editor: Option<editor::Editor>,
    /// The user pressed `e` again after being told the text is not UTF-8.
    lossy_edit_confirmed: bool,
    /// Tokens of the robots the user selected, in order, for the changes view.
    looked_at: Vec<String>,
    text_generation: u64,
    /// Whether `diagnostics` are those of the text on screen.
    diagnostics_current: bool,
    /// The text generation a background lint was last asked for.
    lint_asked: Option<u64>,
    /// A background lint runs (its answer, current or stale, always comes back): the
    /// next is asked for only then, so a burst of keys on a large text runs one lint
    /// at a time, not one per key (each holds a copy of the text and its diagnostics).
    linting: bool,
    /// The text generation `F` is fixing in the background.
    fixing: Option<u64>,
    /// Counts changes to `original` (a load, a save), as `text_generation` counts
    /// changes to the text.
    original_generation: u64,
    /// The (text, original) generations the recovery copy was last kept for, and whether
    /// there were unsaved edits then.
    recovery_kept: Option<((u64, u64), bool)>,
    clipboard: crate::clipboard::ClipboardMode,
    environment: crate::clipboard::Environment,
    /// The longest OSC 52 sequence a copy may send.
    osc52_max_bytes: usize,
    /// What waits for the answer about unsaved edits.
    pending: Option<unsaved::Pending>,
    /// A load that finished over edits while the editor was open: asked about when the
    /// user leaves the editor.
    load_held: Option<Box<unsaved::Loaded>>,
    /// The load the user chose to show over their edits: it replaces them on arrival.
    load_replaces_edits: Option<u64>,
    /// Where recovery copies of texts from no file go.
    recovery_directory: std::path::PathBuf,
    /// The newest recovery copy of this file from an earlier session, which the open
    /// prompt offers the first time it opens.
    recovery_offer: Option<std::path::PathBuf>,
    /// The texts before each change, for undo and redo.
    undo: unsaved::UndoHistory,
    /// Where versions are kept and found.
    history_settings: crate::history::HistorySettings,
    /// The stored version the panes show, read-only, and the current file kept aside.
    viewing: Option<view::history::Viewing>,
    /// The site's last fetch before the one on screen, from the store.
    last_fetch: Option<crate::history::Version>,
    /// The id of the load whose result is on screen.
    last_load_id: Option<u64>,
    /// The purpose whose robots the switcher shows (`P`), if one.
    robot_purpose: Option<crate::robots_db::Purpose>,
    /// A name typed in the add-robot prompt that no robot has but some are near
    /// ("did you mean"): typed again, it is added as a new robot.
    unknown_robot_asked: Option<String>,
}

impl App {
    /// An explorer on `txt`, with the robots of `db` and those the file names.
    #[must_use]
    pub fn new(txt: RobotsTxt, label: String, db: &RobotsDb) -> App {
        App::with_document(Document::new(txt, label, Origin::Text), db)
    }

    /// An explorer on what a load retrieved (a file, standard input, a fetched site);
    /// a site's page, if the user named one, goes into the tester.
    #[must_use]
    pub fn from_retrieved(retrieved: Retrieved, limits: Limits, db: &RobotsDb) -> App {
        let document = Document::from_retrieved(retrieved, &limits);
        let mut app = App::with_document(document, db);
        app.limits = limits;
        app.put_page_in_tester();
        app
    }

    /// An explorer that starts by loading `source` in the background (see
    /// [`App::start`]); `as_robot` sends the selected robot's User-Agent.
    #[must_use]
    pub fn loading(source: Source, limits: Limits, as_robot: bool, db: &RobotsDb) -> App {
        let mut app = App::with_document(Document::pending(source), db);
        app.limits = limits;
        app.user_agent = if as_robot { UserAgentChoice::SelectedRobot } else { UserAgentChoice::Given };
        app.put_page_in_tester();
        app
    }

    /// The explorer on the embedded example, loading what the user opens within
    /// `limits` (`--timeout`, `--max-bytes`, ...).
    #[must_use]
    pub fn example_within(limits: Limits) -> App {
        let mut app = App::example();
        app.limits = limits;
        app
    }

    /// The explorer on the embedded example.
    #[must_use]
    pub fn example() -> App {
        let txt = RobotsTxt::parse(EXAMPLE.as_bytes().to_vec());
        App::with_document(Document::new(txt, "embedded example".to_owned(), Origin::Embedded), &RobotsDb::embedded())
    }

    /// The explorer on `text`, with the embedded profiles (for tests and examples).
    #[must_use]
    pub fn from_text(text: &str) -> App {
        App::new(Limits::default().parse(text.as_bytes().to_vec()), "text".to_owned(), &RobotsDb::embedded())
    }

    // --- What the UI reads -------------------------------------------------------------

    /// The loaded file.
    #[must_use]
    pub fn document(&self) -> &Document {
        &self.document
    }

    /// True while the first load of a source is running, so there is no file to answer
    /// from yet.
    #[must_use]
    pub fn is_waiting_for_source(&self) -> bool {
        matches!(self.document.origin, Origin::Pending(_))
    }

    /// The robots in the switcher.
    #[must_use]
    pub fn robots(&self) -> &[RobotEntry] {
        &self.robots
    }

    /// The index of the selected robot.
    #[must_use]
    pub fn robot_index(&self) -> usize {
        self.robot
    }

    /// The selected robot.
    #[must_use]
    pub fn robot(&self) -> &RobotEntry {
        &self.robots[self.robot]
    }

    /// The robots pane's scroll position.
    #[must_use]
    pub fn robots_view(&self) -> ScrollView {
        self.robots_view
    }

    /// The reading verdicts are computed under.
    #[must_use]
    pub fn reading(&self) -> Reading {
        self.reading_choice.unwrap_or(self.robot().profile.reading)
    }

    /// True when the user picked the reading rather than following the robot's default.
    #[must_use]
    pub fn reading_is_chosen(&self) -> bool {
        self.reading_choice.is_some()
    }

    /// The focused pane.
    #[must_use]
    pub fn focus(&self) -> Pane {
        self.focus
    }

    /// The prompt being typed, if one is open.
    #[must_use]
    pub fn prompt(&self) -> Option<&Prompt> {
        self.prompt.as_ref()
    }

    /// Where keys go now: the prompt, else the open view, else the editor, else the
    /// focused pane.
    #[must_use]
    pub fn key_context(&self) -> KeyContext {
        if let Some(prompt) = &self.prompt {
            KeyContext::Prompt(prompt.kind)
        } else if let Some(overlay) = self.overlay() {
            KeyContext::Overlay(overlay)
        } else if self.editor.is_some() {
            KeyContext::Editor
        } else {
            KeyContext::Pane(self.focus)
        }
    }

    /// The source pane's cursor and scroll position (0-based line indices).
    #[must_use]
    pub fn source_view(&self) -> ScrollView {
        self.source_view
    }

    /// Columns of the source's lines scrolled off to the left.
    #[must_use]
    pub fn source_column(&self) -> usize {
        self.source_column
    }

    /// The records pane's cursor and scroll position.
    #[must_use]
    pub fn records_view(&self) -> ScrollView {
        self.records_view
    }

    /// The tester's path input (while the tester's prompt is open, what is being
    /// typed).
    #[must_use]
    pub fn path(&self) -> &LineInput {
        match &self.prompt {
            Some(prompt) if prompt.kind == PromptKind::TestPath => &prompt.input,
            _ => &self.path,
        }
    }

    /// The first line of the tester's explanation shown.
    #[must_use]
    pub fn tester_scroll(&self) -> usize {
        self.tester_scroll
    }

    /// The current verdict.
    #[must_use]
    pub fn evaluation(&self) -> &Evaluation {
        &self.evaluation
    }

    /// The layout for the current terminal size.
    #[must_use]
    pub fn areas(&self) -> Areas {
        Areas::layout(self.area, self.view.as_ref().is_some_and(View::takes_the_panes))
    }

    /// The status bar's message, if one describes the present.
    #[must_use]
    pub fn message(&self) -> Option<&str> {
        self.status.current()
    }

    /// Every message shown so far (the last 200), oldest first.
    pub fn message_log(&self) -> impl DoubleEndedIterator<Item = &str> + ExactSizeIterator {
        self.status.log()
    }

    /// The text last searched for in the source (empty when none).
    #[must_use]
    pub fn search_query(&self) -> &str {
        match &self.prompt {
            Some(prompt) if prompt.kind == PromptKind::Search => prompt.input.text(),
            _ => &self.search.query,
        }
    }

    /// The load of a source, while it runs.
    #[must_use]
    pub fn load_in_progress(&self) -> Option<&Loading> {
        self.load.progress()
    }

    /// The records pane's rows under the current reading.
    #[must_use]
    pub fn record_rows(&self) -> &[RecordRow] {
        self.document.rows(self.reading())
    }

    // --- The one way to change the app ---------------------------------------------------

    /// Applies an action and returns what the shell must do.
    #[allow(clippy::needless_pass_by_value, reason = "actions are values; results from background work own their data")]
    pub fn update(&mut self, action: Action) -> Vec<Effect> {
        if action.is_users() {
            self.user_actions += 1;
        }
        // Only a key in the editor may leave the document behind its lines.
        if !matches!(action, Action::EditorKey(_)) {
            self.settle_text();
        }
        let mut effects = self.apply(action);
        self.status.expire(&self.stamp());
        effects.extend(self.housekeeping());
        effects
    }

    /// What messages describe, as it is now.
    fn stamp(&self) -> Stamp {
        Stamp { robot: self.robot, text: self.text_generation, loads: self.loads, user_actions: self.user_actions }
    }

    /// Shows a message in the status bar (and logs it) until what it is about changes.
    fn say(&mut self, about: About, text: impl Into<String>) {
        let stamp = self.stamp();
        self.status.say(about, text.into(), stamp);
    }

    fn apply(&mut self, action: Action) -> Vec<Effect> {
        if let Some(timestamp) = self.viewing_version()
            && matches!(action, Action::OpenEditor | Action::FixHere | Action::FixAll | Action::ApplyBlock)
        {
            let message = format!(
                "The version of {} is read-only: H, then Enter on 'now' goes back to the current file",
                crate::history::display_date(timestamp)
            );
            self.say(About::Moment, message);
            return Vec::new();
        }
        // The open view first, then editing, copying, saving and quitting (each in
        // its own module); what is left is the base view's.
        let action = match self.update_open_view(action).or_else(|action| self.update_edits(action)) {
            Ok(effects) => return effects,
            Err(action) => action,
        };
        match action {
            Action::OpenPrompt(kind) => self.open_prompt(kind),
            Action::PromptEdit(edit) => self.edit_prompt(edit),
            Action::CompleteRobotName => self.complete_robot_name(),
            Action::PromptSubmit => return self.submit_prompt(),
            Action::Paste(text) => self.paste(&text),
            Action::Toggle(overlay) => return self.toggle(overlay),
            Action::Cancel => return self.cancel(),
            // A view open here has a prompt over it, which moving does not reach.
            Action::Up => self.move_by(-1),
            Action::Down => self.move_by(1),
            Action::PageUp => self.move_by(-self.page_height()),
            Action::PageDown => self.move_by(self.page_height()),
            Action::Top => self.move_by(isize::MIN / 2),
            Action::Bottom => self.move_by(isize::MAX / 2),
            Action::Left => self.source_column = self.source_column.saturating_sub(HORIZONTAL_STEP),
            Action::Right => self.scroll_source_right(),
            Action::FocusNext => self.set_focus(self.focus.next()),
            Action::FocusPrev => self.set_focus(self.focus.prev()),
            Action::Focus(pane) => self.set_focus(pane),
            Action::NextRobot => self.step_robot(1),
            Action::PrevRobot => self.step_robot(-1),
            Action::CycleRobotPurpose => self.cycle_robot_purpose(),
            Action::CycleReading => {
                // The reading after this one, wrapping around.
                let next = (self.reading().index() + 1) % Reading::ALL.len();
                self.reading_choice = Some(Reading::ALL[next]);
                self.reevaluate();
                self.rebuild_columns();
            }
            Action::FollowRobotReading => {
                self.reading_choice = None;
                self.reevaluate();
                self.rebuild_columns();
            }
            Action::ToggleComparedRobot => self.toggle_compared_robot(),
            Action::ShowInSource => self.show_record_in_source(),
            Action::SearchNext => self.search_again(Direction::Forward),
            Action::SearchPrevious => self.search_again(Direction::Backward),
            Action::Reload => return self.reload(),
            Action::LoadProgress { id, elapsed } => self.load_progress(id, elapsed),
            Action::Loaded { id, result } => self.loaded(id, *result),
            Action::SourceResolved { result } => return self.open_resolved(result),
            Action::FetchKept { id, previous, warning } => self.fetch_kept(id, previous.map(|p| *p), warning),
            Action::Click { column, row } => self.click(column, row),
            Action::Scroll { column, row, down } => self.wheel(column, row, down),
            Action::Resize { width, height } => self.resize(width, height),
            // Background answers for a view, open or not: to the view of their kind.
            Action::PageFetched { .. }
            | Action::SitemapEvents { .. }
            | Action::SitemapsWalked { .. }
            | Action::HistoryProgress { .. }
            | Action::HistoryLoaded { .. }
            | Action::AuditProgress { .. }
            | Action::Audited { .. }
            | Action::PathsRead { .. } => return self.answer_view(action),
            // A view's own keys with the view closed (or a prompt over it), and the
            // actions `update_edits` took above: nothing to do. Listed, not `_`, so that
            // a new action cannot be forgotten here.
            Action::ToggleReadingColumns
            | Action::RemoveCompareColumn
            | Action::CycleCompareUsage
            | Action::CycleComparePurpose
            | Action::CompareSitemapUrls
            | Action::AskArchive
            | Action::MarkVersion
            | Action::MarkToBlock
            | Action::ApplyBlock
            | Action::ToggleVersionDiff
            | Action::DetailDown
            | Action::DetailUp
            | Action::Linted { .. }
            | Action::FixHere
            | Action::FixAll
            | Action::FixedAll { .. }
            | Action::OpenEditor
            | Action::EditorKey(_)
            | Action::Copy(_)
            | Action::Copied { .. }
            | Action::Saved { .. }
            | Action::DiscardAndContinue
            // Taken by the questions about replacing a file, the views that ask them.
            | Action::ReplaceFile
            | Action::ToggleTheirChange
            | Action::Undo
            | Action::Redo
            | Action::Terminate
            | Action::RecoveryFailed(_)
            | Action::Quit => {}
        }
        Vec::new()
    }
}
