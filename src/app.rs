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
//! the one open [`Overlay`] (compare, page policy, help, ...), else the editor, else the
//! focused pane. The keymap resolves keys against that context only, so a key cannot go
//! to a prompt that is not the one on screen.
//!
//! Imports: the policy layer, robot profiles, ratatui's layout geometry and crossterm's
//! key types (in `keymap`); never tokio, reqwest or terminal I/O.

pub mod action;
pub mod compare;
pub mod document;
pub mod editor;
pub mod edits;
pub mod effect;
pub mod focus;
pub mod history;
pub mod input;
pub mod keymap;
pub mod layout;
pub mod overlay;
pub mod page;
pub mod prompt;
pub mod records;
pub mod search;
pub mod sitemaps;
pub mod status;
pub mod tester;
pub mod unsaved;

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use ratatui::layout::Rect;

pub use action::{Action, CopyWhat};
pub use document::{Document, Origin};
pub use effect::{AfterSave, Effect, RecoveryCopy};
pub use focus::Pane;
pub use input::{Edit, LineInput};
pub use layout::Areas;
pub use overlay::Overlay;
pub use prompt::{Prompt, PromptKind};
pub use records::RecordRow;
pub use status::About;

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
    /// An overlay has the keys.
    Overlay(Overlay),
    /// The editor has every key but its own few.
    Editor,
    /// The base view, with this pane focused.
    Pane(Pane),
}

/// Whether a source is being loaded.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum LoadState {
    /// Nothing is being loaded.
    #[default]
    Idle,
    /// A load is running in the background.
    Loading {
        /// The load's id; results with another id are stale and dropped.
        id: u64,
        /// What is being loaded.
        source: Source,
        /// How long it has run, from the last progress tick.
        elapsed: Duration,
        /// Progress ticks so far (for the spinner).
        ticks: usize,
    },
}

/// A cursor in a list and the first visible row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ScrollView {
    /// The selected row.
    pub cursor: usize,
    /// The first row shown.
    pub offset: usize,
}

impl ScrollView {
    /// Moves the cursor by `delta` rows within `len` rows and keeps it visible in a
    /// window of `height` rows.
    fn move_by(&mut self, delta: isize, len: usize, height: usize) {
        let last = len.saturating_sub(1);
        self.cursor = self.cursor.saturating_add_signed(delta).min(last);
        self.reveal(self.cursor, len, height);
    }

    /// Scrolls so that `row` is visible, moving as little as possible.
    fn reveal(&mut self, row: usize, len: usize, height: usize) {
        let height = height.max(1);
        if row < self.offset {
            self.offset = row;
        } else if row >= self.offset + height {
            self.offset = row + 1 - height;
        }
        self.offset = self.offset.min(len.saturating_sub(height));
    }

    /// Scrolls so that `row` sits a third of the way down, the way editors show a
    /// search hit, unless it is already visible.
    fn bring_into_view(&mut self, row: usize, len: usize, height: usize) {
        let height = height.max(1);
        if row < self.offset || row >= self.offset + height {
            self.offset = row.saturating_sub(height / 3).min(len.saturating_sub(height));
        }
        // Keep the cursor on screen so that keys act on something visible.
        self.cursor = self.cursor.clamp(self.offset, (self.offset + height - 1).min(len.saturating_sub(1)));
    }

    /// Scrolls the window without moving the cursor out of it.
    fn scroll_by(&mut self, delta: isize, len: usize, height: usize) {
        let height = height.max(1);
        self.offset = self.offset.saturating_add_signed(delta).min(len.saturating_sub(height));
        self.cursor = self.cursor.clamp(self.offset, (self.offset + height - 1).min(len.saturating_sub(1)));
    }
}

/// Where a robot in the switcher comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RobotOrigin {
    /// A profile from `assets/robots.toml`.
    Profile,
    /// Named by the file but not in the profiles.
    NamedInFile,
    /// Added by the user with `a`.
    AddedByUser,
}

/// A robot in the switcher.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RobotEntry {
    /// Its profile.
    pub profile: RobotProfile,
    /// Where it came from.
    pub origin: RobotOrigin,
    /// True when a group of the file names its token (RFC 9309 reading).
    pub named_in_file: bool,
}

/// Which User-Agent header a fetch sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum UserAgentChoice {
    /// The one in the fetch limits (robotscope's, or `--user-agent`).
    Given,
    /// The selected robot's own (`--as-robot`).
    SelectedRobot,
}

/// The verdict for the selected robot, reading and path, and how the other readings
/// answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Evaluation {
    /// The path or URL as typed.
    pub given: String,
    /// How it was read, when that is worth saying (a relative path, an encoded one).
    pub note: Option<String>,
    /// The origin of a URL on another site than the loaded one, if the path was one.
    pub other_site: Option<String>,
    /// The verdict under the current reading (its `path` is the path as tested).
    pub verdict: Verdict,
    /// Whether the path is allowed under each reading, indexed by [`Reading::index`].
    pub allowed_by_reading: [bool; 3],
    /// The AI usage preferences for the path, when the robot's groups state any (RFC
    /// 9309 only; `None` when there is nothing to say).
    pub usage: Option<UsageAnswer>,
    /// What the whole file says, when the RFC 9309 reading stops at 500 KiB and the
    /// bytes past it would change the answer (its verdict or its deciding line).
    pub past_the_cut: Option<Verdict>,
}

impl Evaluation {
    /// True when the readings do not all agree.
    #[must_use]
    pub fn readings_disagree(&self) -> bool {
        self.allowed_by_reading.iter().any(|&a| a != self.allowed_by_reading[0])
    }
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
    /// The one overlay over the base view, if any.
    overlay: Option<Overlay>,
    /// The view (compare, page policy) that help or the message log was opened over;
    /// closing them goes back to it.
    overlay_below: Option<Overlay>,
    /// The prompt being typed, over the base view or the overlay.
    prompt: Option<Prompt>,
    /// The pane that had focus before the tester's prompt took it.
    focus_before_prompt: Pane,
    source_view: ScrollView,
    /// Columns of the source's lines scrolled off to the left (`h`/`l`).
    source_column: usize,
    /// The first line of a scrolled overlay (help, the message log).
    overlay_scroll: usize,
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
    load: LoadState,
    next_load_id: u64,
    limits: Limits,
    /// Send the selected robot's User-Agent when fetching (`--as-robot`) instead of
    /// `limits.user_agent`.
    user_agent: UserAgentChoice,
    /// The text as loaded (or last saved), for the diff and the flipped verdicts.
    original: Arc<RobotsTxt>,
    original_availability: crate::policy::Availability,
    diagnostics: Vec<crate::policy::Diagnostic>,
    diagnostics_view: ScrollView,
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
    /// The compare view's robots, paths and cursor (kept while it is closed).
    compare: compare::CompareView,
    /// The page policy overlay's page.
    page: Option<page::PageView>,
    /// The sitemaps view's state, once opened (kept while it is closed).
    sitemaps: Option<sitemaps::SitemapsView>,
    /// The history view's state, once opened (kept while it is closed).
    history: Option<history::HistoryView>,
    /// What the changes view shows, made when it opens.
    changes_report: Option<edits::ChangesReport>,
    /// What waits for the answer about unsaved edits.
    pending: Option<unsaved::Pending>,
    /// The save that waits for the answer about replacing a file.
    replace_question: Option<unsaved::ReplaceQuestion>,
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
    history_settings: history::HistorySettings,
    /// The stored version the panes show, read-only, and the current file kept aside.
    viewing: Option<history::Viewing>,
    /// The site's last fetch before the one on screen, from the store.
    last_fetch: Option<crate::history::Version>,
    /// The id of the load whose result is on screen.
    last_load_id: Option<u64>,
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

    fn with_document(document: Document, db: &RobotsDb) -> App {
        let robots = robot_entries(&document.txt, db, &[]);
        let robot = robots.iter().position(|entry| entry.profile.token == "Googlebot").unwrap_or(0);
        let mut app = App {
            compare: compare::CompareView::with_default_robots(&robots),
            document,
            robots,
            robot,
            robots_view: ScrollView { cursor: robot, offset: 0 },
            reading_choice: None,
            focus: Pane::Source,
            overlay: None,
            overlay_below: None,
            prompt: None,
            focus_before_prompt: Pane::Source,
            source_view: ScrollView::default(),
            source_column: 0,
            overlay_scroll: 0,
            records_view: ScrollView::default(),
            path: LineInput::with_text(DEFAULT_PATH),
            tester_scroll: 0,
            // Replaced at once by `reevaluate`; a verdict needs a document to exist.
            evaluation: Evaluation {
                given: DEFAULT_PATH.to_owned(),
                note: None,
                other_site: None,
                verdict: crate::policy::evaluate(
                    &RobotsTxt::default(),
                    &crate::policy::Robot::from_agent("*"),
                    DEFAULT_PATH,
                    Reading::Rfc9309,
                ),
                allowed_by_reading: [true; 3],
                usage: None,
                past_the_cut: None,
            },
            area: Rect::new(0, 0, 120, 40),
            status: Status::default(),
            user_actions: 0,
            loads: 0,
            search: Search::default(),
            load: LoadState::Idle,
            next_load_id: 0,
            limits: Limits::default(),
            user_agent: UserAgentChoice::Given,
            original: Arc::default(),
            original_availability: crate::policy::Availability::Available,
            diagnostics: Vec::new(),
            diagnostics_view: ScrollView::default(),
            editor: None,
            lossy_edit_confirmed: false,
            looked_at: Vec::new(),
            text_generation: 0,
            diagnostics_current: false,
            lint_asked: None,
            fixing: None,
            original_generation: 0,
            recovery_kept: None,
            clipboard: crate::clipboard::ClipboardMode::Auto,
            // The shell tells the app about the real environment (`set_clipboard`).
            environment: crate::clipboard::Environment::default(),
            osc52_max_bytes: crate::clipboard::OSC52_MAX_BYTES,
            page: None,
            sitemaps: None,
            history: None,
            changes_report: None,
            pending: None,
            replace_question: None,
            load_replaces_edits: None,
            recovery_directory: std::env::temp_dir(),
            recovery_offer: None,
            undo: unsaved::UndoHistory::default(),
            history_settings: history::HistorySettings::default(),
            viewing: None,
            last_fetch: None,
            last_load_id: None,
        };
        app.adopt_loaded_text();
        app.note_robot_looked_at();
        app.reevaluate();
        app
    }

    /// Takes the document's text as the loaded one: the baseline for diffs and changes.
    fn adopt_loaded_text(&mut self) {
        // Another file: the changes to undo were changes to the last one.
        self.undo.clear();
        self.original = self.document.txt.clone();
        self.original_generation += 1;
        self.original_availability = self.document.availability;
        self.editor = None;
        self.text_generation += 1;
        self.relint();
    }

    fn note_robot_looked_at(&mut self) {
        let token = self.robot().profile.token.clone();
        if !self.looked_at.contains(&token) {
            self.looked_at.push(token);
        }
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

    /// The overlay over the base view, if one is open.
    #[must_use]
    pub fn overlay(&self) -> Option<Overlay> {
        self.overlay
    }

    /// The prompt being typed, if one is open.
    #[must_use]
    pub fn prompt(&self) -> Option<&Prompt> {
        self.prompt.as_ref()
    }

    /// Where keys go now: the prompt, else the overlay, else the editor, else the
    /// focused pane.
    #[must_use]
    pub fn key_context(&self) -> KeyContext {
        if let Some(prompt) = &self.prompt {
            KeyContext::Prompt(prompt.kind)
        } else if let Some(overlay) = self.overlay {
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
        Areas::layout(self.area, self.overlay == Some(Overlay::Compare))
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

    /// The first line of a scrolled overlay (help, the message log).
    #[must_use]
    pub fn overlay_scroll(&self) -> usize {
        self.overlay_scroll
    }

    /// The text last searched for in the source (empty when none).
    #[must_use]
    pub fn search_query(&self) -> &str {
        match &self.prompt {
            Some(prompt) if prompt.kind == PromptKind::Search => prompt.input.text(),
            _ => &self.search.query,
        }
    }

    /// The diagnostics list's scroll position.
    #[must_use]
    pub fn diagnostics_view(&self) -> ScrollView {
        self.diagnostics_view
    }

    /// Whether a load is running.
    #[must_use]
    pub fn load_state(&self) -> &LoadState {
        &self.load
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
            && matches!(action, Action::OpenEditor | Action::FixHere | Action::FixAll)
        {
            let message = format!(
                "The version of {} is read-only: H, then Enter on 'now' goes back to the current file",
                crate::history::display_date(timestamp)
            );
            self.say(About::Moment, message);
            return Vec::new();
        }
        let action = match self
            .update_page(action)
            .or_else(|action| self.update_edits(action))
            .or_else(|action| self.update_compare(action))
            .or_else(|action| self.update_sitemaps(action))
            .or_else(|action| self.update_history(action))
        {
            Ok(effects) => return effects,
            Err(action) => action,
        };
        match action {
            Action::OpenPrompt(kind) => self.open_prompt(kind),
            Action::PromptEdit(edit) => self.edit_prompt(edit),
            Action::PromptSubmit => return self.submit_prompt(),
            Action::Paste(text) => self.paste(&text),
            Action::Toggle(overlay) => self.toggle(overlay),
            Action::Cancel => return self.cancel(),
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
            Action::NextRobot => self.select_robot((self.robot + 1) % self.robots.len()),
            Action::PrevRobot => self.select_robot((self.robot + self.robots.len() - 1) % self.robots.len()),
            Action::CycleReading => {
                self.reading_choice = Some(self.reading().next());
                self.reevaluate();
                self.rebuild_columns();
            }
            Action::FollowRobotReading => {
                self.reading_choice = None;
                self.reevaluate();
                self.rebuild_columns();
            }
            Action::ShowInSource => self.show_record_in_source(),
            Action::SearchNext => self.search_again(Direction::Forward),
            Action::SearchPrevious => self.search_again(Direction::Backward),
            Action::Reload => return self.reload(),
            Action::LoadProgress { id, elapsed } => {
                if let LoadState::Loading { id: current, elapsed: shown, ticks, .. } = &mut self.load
                    && *current == id
                {
                    *shown = elapsed;
                    *ticks += 1;
                }
            }
            Action::Loaded { id, result } => self.loaded(id, *result),
            Action::SourceResolved { result } => return self.open_resolved(result),
            Action::Click { column, row } => self.click(column, row),
            Action::Scroll { column, row, down } => self.wheel(column, row, down),
            Action::Resize { width, height } => {
                // Whatever of the verdict was in view stays in view at the new size.
                let verdict_was_visible = self.verdict_line().is_none_or(|line| {
                    let (view, height) = (self.source_view, self.areas().inner_height(Pane::Source));
                    (view.offset..view.offset + height).contains(&(line - 1))
                });
                self.area = Rect::new(0, 0, width, height);
                self.reveal_cursors();
                if verdict_was_visible {
                    self.reveal_verdict();
                }
            }
            // The editing, copying, saving and quitting actions: `update_edits`; the
            // compare view's and the page policy's: `update_compare`, `update_page`.
            _ => {}
        }
        Vec::new()
    }

    // --- Prompts -------------------------------------------------------------------------

    /// Opens a prompt of `kind`, over whatever is open.
    fn open_prompt(&mut self, kind: PromptKind) {
        // Where the keys were, to go back to when the prompt closes (the tester, a search
        // and go-to-line take the focus).
        self.focus_before_prompt = self.focus;
        let input = match kind {
            PromptKind::TestPath => {
                // Typing replaces the last path; a move keeps it for editing.
                let mut input = self.path.clone();
                input.select_all();
                self.editor = None;
                self.focus = Pane::Tester;
                input
            }
            PromptKind::SaveAs(_) => {
                // Typing replaces the name offered; a move keeps it for editing.
                let default = self.source_file().map_or_else(|| "robots.txt".to_owned(), |p| p.display().to_string());
                let mut input = LineInput::with_text(&default);
                input.select_all();
                input
            }
            PromptKind::Search => {
                self.search.origin = self.source_view;
                self.focus_source_pane();
                let mut input = LineInput::with_text(&self.search.query);
                input.select_all();
                input
            }
            PromptKind::GoToLine => {
                self.focus_source_pane();
                LineInput::default()
            }
            PromptKind::OpenSource => {
                // The recovery copy the start-up message names, ready for Enter (typing
                // replaces it).
                let mut input = LineInput::default();
                if let Some(copy) = self.recovery_offer.take() {
                    input = LineInput::with_text(&copy.display().to_string());
                    input.select_all();
                }
                input
            }
            PromptKind::AddRobot | PromptKind::ComparePath | PromptKind::ComparePathsFile => LineInput::default(),
        };
        if let PromptKind::SaveAs(_) = kind
            && matches!(self.overlay, Some(Overlay::UnsavedEdits | Overlay::ConfirmReplace))
        {
            self.overlay = self.overlay_below.take();
        }
        self.prompt = Some(Prompt::new(kind, input));
    }

    /// The source pane takes the focus (for search and go-to-line), unless an overlay
    /// covers it: the compare view shows the source too.
    fn focus_source_pane(&mut self) {
        if self.overlay.is_none() {
            self.focus = Pane::Source;
        }
    }

    /// An edit to the prompt's text; the tester and the search follow every key.
    fn edit_prompt(&mut self, edit: Edit) {
        if self.prompt.as_mut().is_some_and(|prompt| prompt.input.apply(edit)) {
            self.prompt_changed();
        }
    }

    /// The prompt's text changed: the tester and the search answer at once.
    fn prompt_changed(&mut self) {
        let Some(prompt) = &self.prompt else { return };
        match prompt.kind {
            PromptKind::TestPath => self.reevaluate(),
            PromptKind::Search => {
                let query = prompt.input.text().to_owned();
                self.find(&query, self.search.origin.cursor, Direction::Forward);
            }
            _ => {}
        }
    }

    /// Pasted text: into the prompt up to its first line break (the verdict or the
    /// search answers once, for the whole paste), or into the editor.
    fn paste(&mut self, text: &str) {
        if let Some(prompt) = &mut self.prompt {
            let mut changed = false;
            for c in text.chars().take_while(|&c| c != '\n' && c != '\r') {
                changed |= prompt.input.apply(Edit::Insert(c));
            }
            if changed {
                self.prompt_changed();
            }
        } else if let Some(editor) = &mut self.editor
            && editor.textarea.insert_str(text)
        {
            let text = editor.text();
            self.record_undo("Paste".to_owned(), None);
            self.set_text(text);
        }
    }

    /// Enter in the prompt: closes it and does what it is for.
    fn submit_prompt(&mut self) -> Vec<Effect> {
        let Some(prompt) = self.prompt.take() else { return Vec::new() };
        let text = prompt.text().to_owned();
        match prompt.kind {
            PromptKind::TestPath => {
                self.path = prompt.input;
                self.path.commit_to_history();
                self.focus = self.focus_before_prompt;
                self.compare.follow_tested_path(self.path.text());
                self.reevaluate();
            }
            PromptKind::AddRobot => self.add_robot_named(&text),
            PromptKind::OpenSource => return Self::open_typed_source(&text),
            PromptKind::SaveAs(after) => return self.save_to(&text, after),
            PromptKind::ComparePath => self.add_compare_path(&text),
            PromptKind::ComparePathsFile if !text.is_empty() => {
                return vec![Effect::ReadPaths { file: text.into() }];
            }
            PromptKind::ComparePathsFile => {}
            PromptKind::Search => {
                self.search.query = text;
                if self.current_line_matches() {
                    let line = self.source_view.cursor + 1;
                    self.say(About::Moment, format!("Found on line {line}; n and N find the next and previous"));
                } else if !self.search.query.is_empty() {
                    self.say(About::Moment, format!("Not found: {}", self.search.query));
                }
            }
            PromptKind::GoToLine => self.go_to_line(&text),
        }
        Vec::new()
    }

    /// Esc: closes the innermost thing open (a prompt, an overlay, the editor), or
    /// cancels a load.
    fn cancel(&mut self) -> Vec<Effect> {
        if let Some(prompt) = self.prompt.take() {
            match prompt.kind {
                // The tester goes back to the path it had, the search to where it began.
                PromptKind::TestPath => {
                    self.focus = self.focus_before_prompt;
                    self.reevaluate();
                }
                PromptKind::Search | PromptKind::GoToLine => {
                    if prompt.kind == PromptKind::Search {
                        self.restore_search_origin();
                    }
                    self.focus = self.focus_before_prompt;
                }
                // The save that was to come before quitting (or reloading) is off: so
                // is what waited for it.
                PromptKind::SaveAs(_) => self.pending = None,
                _ => {}
            }
            return Vec::new();
        }
        if let Some(overlay) = self.overlay {
            return self.close(overlay);
        }
        if self.editor.is_some() {
            self.close_editor();
            return Vec::new();
        }
        if self.fixing.take().is_some() {
            self.say(About::Moment, "Cancelled fixing everything; the text is as it was");
            return Vec::new();
        }
        if let LoadState::Loading { id, source, .. } = std::mem::take(&mut self.load) {
            self.say(About::Moment, format!("Cancelled loading {}", source.label()));
            return vec![Effect::CancelLoad { id }];
        }
        self.status.clear();
        Vec::new()
    }

    // --- Overlays ------------------------------------------------------------------------

    /// Opens `overlay`, or closes it when it is the one open.
    fn toggle(&mut self, overlay: Overlay) {
        if self.overlay == Some(overlay) {
            self.close(overlay);
            return;
        }
        self.open(overlay);
    }

    /// Opens an overlay in place of the one open. Help and the message log remember the
    /// view they cover, to go back to it.
    pub(crate) fn open(&mut self, overlay: Overlay) {
        self.overlay_below = match (overlay, self.overlay) {
            (Overlay::Help | Overlay::Messages | Overlay::UnsavedEdits | Overlay::ConfirmReplace, Some(below))
                if below.is_view() =>
            {
                Some(below)
            }
            _ => None,
        };
        match overlay {
            Overlay::Compare => self.open_compare(),
            Overlay::Diagnostics => {
                self.lint_now();
                self.check_selected_fix();
            }
            Overlay::Help => self.overlay_scroll = 0,
            Overlay::Messages => self.overlay_scroll = usize::MAX,
            Overlay::Changes => {
                self.overlay_scroll = 0;
                self.refresh_changes();
            }
            Overlay::Page
            | Overlay::Sitemaps
            | Overlay::History
            | Overlay::FetchDetails
            | Overlay::CopyMenu
            | Overlay::UnsavedEdits
            | Overlay::ConfirmReplace => {}
        }
        if overlay != Overlay::Compare {
            self.editor = None;
        }
        self.overlay = Some(overlay);
        if overlay == Overlay::Messages {
            // The newest messages, at the bottom.
            self.scroll_overlay(0);
        }
    }

    /// Closes the overlay: back to the view below it, or to the base view.
    fn close(&mut self, overlay: Overlay) -> Vec<Effect> {
        let effects = match overlay {
            Overlay::Page => self.close_page(),
            _ => Vec::new(),
        };
        self.overlay = self.overlay_below.take();
        match overlay {
            Overlay::Compare => self.reveal_verdict(),
            // Made again when the view opens; the diff of a large file is megabytes.
            Overlay::Changes => self.changes_report = None,
            // "Keep working": nothing waits any more.
            Overlay::UnsavedEdits => self.pending = None,
            Overlay::ConfirmReplace => self.replace_question = None,
            _ => {}
        }
        effects
    }

    /// Moves the cursor of whatever has the keys by `delta` lines.
    fn move_by(&mut self, delta: isize) {
        match self.overlay {
            Some(Overlay::Compare) => self.move_compare(delta, 0),
            Some(Overlay::Page) => self.scroll_page(delta),
            Some(Overlay::Sitemaps) => self.move_sitemaps(delta),
            Some(Overlay::History) => self.move_history(delta),
            Some(Overlay::Help | Overlay::Messages | Overlay::Changes) => self.scroll_overlay(delta),
            Some(Overlay::Diagnostics) => {
                let height = usize::from(self.area.height.saturating_sub(8));
                self.diagnostics_view.move_by(delta, self.diagnostics.len(), height);
                self.check_selected_fix();
            }
            Some(Overlay::FetchDetails | Overlay::CopyMenu | Overlay::UnsavedEdits | Overlay::ConfirmReplace) => {}
            None => self.move_cursor(delta),
        }
    }

    /// Scrolls help or the message log, no further than their last line.
    fn scroll_overlay(&mut self, delta: isize) {
        let (lines, (_, height)) = match self.overlay {
            Some(Overlay::Help) => (keymap::help_line_count(), layout::HELP_OVERLAY),
            Some(Overlay::Changes) => {
                (self.changes_report.as_ref().map_or(0, |report| report.lines.len()), layout::CHANGES_OVERLAY)
            }
            _ => (self.message_log_lines().len(), layout::MESSAGES_OVERLAY),
        };
        let shown = usize::from(self.area.height.min(height).saturating_sub(2)).max(1);
        let last = lines.saturating_sub(shown);
        self.overlay_scroll = self.overlay_scroll.min(last).saturating_add_signed(delta).min(last);
    }

    /// The message log as the overlay shows it: each message wrapped to its width,
    /// oldest first.
    #[must_use]
    pub fn message_log_lines(&self) -> Vec<String> {
        let width = usize::from(self.area.width.min(layout::MESSAGES_OVERLAY.0).saturating_sub(4)).max(10);
        self.status.log().flat_map(|message| tester::wrap(message, width)).collect()
    }

    fn page_height(&self) -> isize {
        let height = match self.overlay {
            Some(Overlay::Compare) => self.areas().compare_rows(),
            Some(_) => usize::from(self.area.height.saturating_sub(8)),
            None => self.areas().inner_height(self.focus).saturating_sub(1),
        };
        isize::try_from(height.max(1)).unwrap_or(1)
    }

    fn set_focus(&mut self, pane: Pane) {
        if pane != Pane::Source {
            self.editor = None;
        }
        self.focus = pane;
    }

    /// Effects to run when the explorer starts: the first load of a source given on the
    /// command line, a background lint of a large text, the recovery copy of any edits.
    pub fn start(&mut self) -> Vec<Effect> {
        let mut effects = match &self.document.origin {
            Origin::Pending(source) => {
                let source = source.clone();
                self.begin_load(source)
            }
            _ => Vec::new(),
        };
        // A shell that starts knows nothing yet, whatever was updated before it.
        self.lint_asked = None;
        self.recovery_kept = None;
        effects.extend(self.housekeeping());
        effects
    }

    /// The effects that follow from the state rather than from one action: a lint of a
    /// text too large to lint on the spot, asked for once per text; the recovery copy of
    /// unsaved edits, kept in step with the text (and dropped once they are saved).
    fn housekeeping(&mut self) -> Vec<Effect> {
        let mut effects = Vec::new();
        if self.overlay == Some(Overlay::Changes) {
            self.refresh_changes();
        }
        if let Some(generation) = self.stale_diagnostics()
            && self.lint_asked != Some(generation)
        {
            self.lint_asked = Some(generation);
            effects.push(Effect::Lint { generation, txt: Arc::clone(&self.document.txt) });
        }
        // Comparing the text with the loaded one costs its length: only when either changed.
        let generations = (self.text_generation, self.original_generation);
        if self.recovery_kept.is_none_or(|(kept, _)| kept != generations) {
            let was_dirty = self.recovery_kept.is_some_and(|(_, dirty)| dirty);
            let dirty = self.is_dirty();
            self.recovery_kept = Some((generations, dirty));
            if dirty || was_dirty {
                let copy = dirty
                    .then(|| RecoveryCopy { base: self.recovery_path(), text: self.document.txt.source().to_vec() });
                effects.push(Effect::KeepRecoveryCopy(copy));
            }
        }
        effects
    }

    /// `r`: reads the source again, asking first when that would drop unsaved edits.
    fn reload(&mut self) -> Vec<Effect> {
        match self.document.origin.source() {
            Some(Source::Stdin) => {
                self.say(
                    About::Moment,
                    "Standard input was read once and cannot be read again; o opens another source",
                );
                Vec::new()
            }
            Some(_) => self.unless_unsaved(unsaved::Pending::Reload),
            None => {
                self.say(About::Moment, "The embedded example has no source to load again; o opens one");
                Vec::new()
            }
        }
    }

    /// Reads the source again, now.
    fn reload_now(&mut self) -> Vec<Effect> {
        match self.document.origin.source().cloned() {
            Some(source) => self.begin_load(source),
            None => Vec::new(),
        }
    }

    fn open_typed_source(spec: &str) -> Vec<Effect> {
        if spec.is_empty() {
            return Vec::new();
        }
        // Whether `example.com` or `noext` is a file or a site is the file system's to
        // say, as on the command line: asked off the event loop.
        vec![Effect::ResolveSource { spec: spec.to_owned() }]
    }

    /// A name typed in the open prompt, resolved: opens it (asking first about unsaved
    /// edits).
    fn open_resolved(&mut self, result: Result<Source, crate::fetch::SourceError>) -> Vec<Effect> {
        match result {
            Ok(Source::Stdin) => {
                self.say(About::Moment, "Standard input holds the keys here; give a file or a site");
                Vec::new()
            }
            Ok(source) => self.unless_unsaved(unsaved::Pending::Open(source)),
            Err(error) => {
                self.say(About::Moment, error.to_string());
                Vec::new()
            }
        }
    }

    /// Starts loading `source`, replacing any load that is running.
    fn begin_load(&mut self, source: Source) -> Vec<Effect> {
        let mut effects = Vec::new();
        if let LoadState::Loading { id, .. } = self.load {
            effects.push(Effect::CancelLoad { id });
        }
        self.next_load_id += 1;
        let id = self.next_load_id;
        let limits = self.fetch_limits();
        self.load = LoadState::Loading { id, source: source.clone(), elapsed: Duration::ZERO, ticks: 0 };
        self.status.clear();
        effects.push(Effect::Load { id, source, limits });
        effects
    }

    /// The limits of a fetch, with the selected robot's User-Agent under `--as-robot`.
    fn fetch_limits(&self) -> Limits {
        let mut limits = self.limits.clone();
        if self.user_agent == UserAgentChoice::SelectedRobot && !self.robot().profile.control_only {
            limits.user_agent.clone_from(&self.robot().profile.user_agent);
        }
        limits
    }

    /// A load finished; stale results (a cancelled or replaced load) are dropped.
    fn loaded(&mut self, id: u64, result: Result<Retrieved, crate::fetch::SourceError>) {
        if !matches!(self.load, LoadState::Loading { id: current, .. } if current == id) {
            return;
        }
        self.load = LoadState::Idle;
        let replaces_edits = self.load_replaces_edits.take() == Some(id);
        match result {
            Ok(retrieved) => {
                let document = Document::from_retrieved(retrieved, &self.limits);
                // Edits made while it loaded are not dropped without asking.
                if self.is_dirty() && !replaces_edits {
                    let loaded = unsaved::Loaded { id, document };
                    self.pending = Some(unsaved::Pending::ShowLoaded(Box::new(loaded)));
                    self.open(Overlay::UnsavedEdits);
                    self.say(About::Moment, "Loaded; your edits stay on screen until you choose");
                    return;
                }
                self.show_loaded(id, document);
            }
            Err(error) => self.say(About::Moment, error.to_string()),
        }
    }

    /// Shows what a load brought in place of the document on screen.
    fn show_loaded(&mut self, id: u64, document: Document) {
        let summary = load_summary(&document);
        // A new file: the version shown and the history read are the last one's.
        self.viewing = None;
        self.history = None;
        self.last_fetch = None;
        self.last_load_id = Some(id);
        self.replace_document(document);
        self.say(About::Moment, summary);
    }

    /// Shows a new document, keeping the selected robot (by token), the robots the user
    /// added, the reading and the tester's path; returns the one it replaced.
    fn replace_document(&mut self, document: Document) -> Document {
        let token = self.robot().profile.token.clone();
        let added: Vec<RobotEntry> =
            self.robots.iter().filter(|e| e.origin == RobotOrigin::AddedByUser).cloned().collect();
        let db_profiles: Vec<RobotProfile> =
            self.robots.iter().filter(|e| e.origin == RobotOrigin::Profile).map(|e| e.profile.clone()).collect();
        let replaced = std::mem::replace(&mut self.document, document);
        self.loads += 1;
        // Another site's sitemaps: read when the view is opened again (a walk still
        // running is stopped when the next one starts, and its events are stale).
        self.sitemaps = None;
        self.adopt_loaded_text();
        // New file, new rules: the default rows are its paths.
        self.compare.set_paths(Vec::new());
        self.compare.cursor.0 = 0;
        self.compare.offset.0 = 0;
        self.robots = robot_entries_from(&self.document.txt, &db_profiles, &added);
        self.robot = self.robots.iter().position(|e| e.profile.token.eq_ignore_ascii_case(&token)).unwrap_or(0);
        self.robots_view = ScrollView { cursor: self.robot, offset: 0 };
        self.source_view = ScrollView::default();
        self.source_column = 0;
        self.records_view = ScrollView::default();
        self.search.origin = ScrollView::default();
        // The last file's search means nothing in this one (the source title's "n/N
        // find" hint goes with it).
        self.search.query.clear();
        self.put_page_in_tester();
        self.reevaluate();
        if self.overlay == Some(Overlay::Compare) {
            let paths = self.default_compare_paths();
            self.compare.set_paths(paths);
            self.rebuild_columns();
        }
        replaced
    }

    /// A site named with a page (`example.com/shop/item`) puts the page in the tester.
    fn put_page_in_tester(&mut self) {
        let page = match &self.document.origin {
            Origin::Pending(Source::Site { page: Some(page), .. })
            | Origin::Site { source: Source::Site { page: Some(page), .. }, .. } => page.clone(),
            _ => return,
        };
        self.path.set_text(&page);
        self.path.commit_to_history();
    }

    /// The base view's cursor: the focused pane's.
    fn move_cursor(&mut self, delta: isize) {
        let height = self.areas().inner_height(self.focus);
        match self.focus {
            Pane::Robots => {
                let target = self.robot.saturating_add_signed(delta).min(self.robots.len() - 1);
                self.select_robot(target);
            }
            Pane::Source => self.source_view.move_by(delta, self.document.txt.lines().len(), height),
            Pane::Records => self.records_view.move_by(delta, self.record_rows().len(), height),
            // The explanation under the verdict scrolls, within its lines.
            Pane::Tester => {
                self.tester_scroll = self.tester_first_detail().saturating_add_signed(delta);
                self.tester_scroll = self.tester_first_detail();
            }
        }
    }

    /// Scrolls the source's lines left by a step, no further than where the widest
    /// line's end shows (escapes and tabs counted as drawn).
    fn scroll_source_right(&mut self) {
        let lines = self.document.txt.lines().len();
        let widest = self.document.widest_line();
        // The pane's text columns: its width less the borders and the gutter.
        let gutter = layout::source_gutter_width(lines);
        let shown = usize::from(self.areas().source.width.saturating_sub(2)).saturating_sub(gutter);
        let limit = widest.saturating_sub(shown).next_multiple_of(HORIZONTAL_STEP);
        self.source_column = (self.source_column + HORIZONTAL_STEP).min(limit);
    }

    fn select_robot(&mut self, index: usize) {
        self.robot = index;
        self.note_robot_looked_at();
        self.robots_view.cursor = index;
        let height = self.areas().inner_height(Pane::Robots);
        self.robots_view.reveal(index, self.robots.len(), height);
        self.reevaluate();
    }

    /// Selects (or adds) the robot typed in the prompt; in the compare view, compares it.
    fn add_robot_named(&mut self, name: &str) {
        if name.is_empty() {
            return;
        }
        // A User-Agent header pasted whole (`Mozilla/5.0 (compatible; Googlebot/2.1;
        // +http://…)`): the profile whose header it is, else the robot its product token
        // names, as the command line suggests.
        let header_of = |entry: &RobotEntry| !entry.profile.is_named(name) && entry.profile.user_agent == name;
        if self.overlay != Some(Overlay::Compare)
            && let Some(index) = self.robots.iter().position(header_of)
        {
            self.select_robot(index);
            let robot = self.robot().profile.name.clone();
            self.say(About::Robot, format!("That is {robot}'s User-Agent header: selected {robot}"));
            return;
        }
        let known = |entry: &RobotEntry| entry.profile.is_named(name) || entry.profile.user_agent == name;
        if !self.robots.iter().any(known)
            && !crate::policy::agent::is_valid_token(name)
            && let Some(token) = crate::policy::agent::suggest_token(name)
        {
            let shown = crate::policy::escape::sanitize_str(name).into_owned();
            self.add_robot_named(&token);
            self.say(
                About::Robot,
                format!("{shown} is a User-Agent header; its product token is {token}: selected {token}"),
            );
            return;
        }
        let existing = self.robots.iter().position(known);
        let index = existing.unwrap_or_else(|| {
            let profile = RobotProfile::custom(name);
            let named_in_file = names_token(&self.document.txt, &profile.token);
            self.robots.push(RobotEntry { profile, origin: RobotOrigin::AddedByUser, named_in_file });
            self.robots.len() - 1
        });
        if self.overlay == Some(Overlay::Compare) {
            self.add_compare_robot(index);
            self.say(About::Moment, format!("Compared {name}"));
        } else {
            self.select_robot(index);
            self.say(
                About::Robot,
                if existing.is_some() { format!("Selected {name}") } else { format!("Added {name}") },
            );
        }
    }

    fn show_record_in_source(&mut self) {
        let line = if self.overlay == Some(Overlay::Diagnostics) {
            let line = self.diagnostics.get(self.diagnostics_view.cursor).map(|d| d.line);
            self.overlay = None;
            line
        } else {
            let interpretation = self.document.txt.interpretation(self.reading());
            self.record_rows().get(self.records_view.cursor).and_then(|row| row.line(interpretation))
        };
        if let Some(line) = line {
            self.show_line(line);
        }
    }

    /// Puts the source's cursor on a 1-based line, scrolled into view, and focuses it.
    fn show_line(&mut self, line: usize) {
        let (len, height) = (self.document.txt.lines().len(), self.areas().inner_height(Pane::Source));
        self.source_view.cursor = line.saturating_sub(1).min(len.saturating_sub(1));
        self.source_view.bring_into_view(self.source_view.cursor, len, height);
        self.set_focus(Pane::Source);
    }

    // --- Search --------------------------------------------------------------------------

    /// Moves the source's cursor to the first line from `from` (inclusive) on that holds
    /// `query`; says so when none does (in the status bar only: the search prompt asks
    /// at every key).
    fn find(&mut self, query: &str, from: usize, direction: Direction) {
        if query.is_empty() {
            self.restore_search_origin();
            return;
        }
        let txt = &self.document.txt;
        let found = search::next_line(txt.lines().len(), from, direction, |index| {
            search::find_in(txt.lines()[index].content(txt.source()), query.as_bytes()).is_some()
        });
        if let Some(index) = found {
            let (len, height) = (txt.lines().len(), self.areas().inner_height(Pane::Source));
            self.source_view.cursor = index;
            self.source_view.bring_into_view(index, len, height);
        } else {
            let stamp = self.stamp();
            self.status.show(About::Moment, format!("Not found: {query}"), stamp);
        }
    }

    /// Puts the source's cursor back where it was when the search began, within the
    /// text on screen (another file may have loaded since).
    fn restore_search_origin(&mut self) {
        let (len, height) = (self.document.txt.lines().len(), self.areas().inner_height(Pane::Source));
        self.source_view = self.search.origin;
        self.source_view.cursor = self.source_view.cursor.min(len.saturating_sub(1));
        self.source_view.reveal(self.source_view.cursor, len, height);
    }

    /// `n` or `N`: the next or previous line holding the last search.
    fn search_again(&mut self, direction: Direction) {
        let query = self.search.query.clone();
        if query.is_empty() {
            self.say(About::Moment, "Nothing searched yet: Ctrl-F finds text in the source");
            return;
        }
        let len = self.document.txt.lines().len();
        let from = match direction {
            Direction::Forward => self.source_view.cursor + 1,
            Direction::Backward => (self.source_view.cursor + len.max(1) - 1) % len.max(1),
        };
        self.find(&query, from % len.max(1), direction);
        if !self.current_line_matches() {
            self.say(About::Moment, format!("Not found: {query}"));
        }
    }

    fn current_line_matches(&self) -> bool {
        let txt = &self.document.txt;
        txt.lines()
            .get(self.source_view.cursor)
            .is_some_and(|line| search::find_in(line.content(txt.source()), self.search.query.as_bytes()).is_some())
    }

    /// `:` then a number: the source's cursor goes to that line.
    fn go_to_line(&mut self, text: &str) {
        match search::parse_line_number(text, self.document.txt.lines().len()) {
            Some(line) => self.show_line(line),
            None if text.is_empty() => {}
            None => self.say(About::Moment, format!("Not a line number: {text}")),
        }
    }

    // --- The mouse -----------------------------------------------------------------------

    fn click(&mut self, column: u16, row: u16) {
        if self.prompt.is_some() || self.overlay.is_some() {
            return;
        }
        let areas = self.areas();
        let Some(pane) = areas.pane_at(column, row) else { return };
        self.set_focus(pane);
        // The row inside the pane's border, if the click fell on content.
        let inner_row = usize::from(row.saturating_sub(areas.of(pane).y + 1));
        let on_content = row > areas.of(pane).y && inner_row < areas.inner_height(pane);
        if !on_content {
            return;
        }
        match pane {
            Pane::Robots => {
                let index = self.robots_view.offset + inner_row;
                if index < self.robots.len() {
                    self.select_robot(index);
                }
            }
            Pane::Source => {
                let line = self.source_view.offset + inner_row;
                if line < self.document.txt.lines().len() {
                    self.source_view.cursor = line;
                }
            }
            Pane::Records => {
                let index = self.records_view.offset + inner_row;
                if index < self.record_rows().len() {
                    self.records_view.cursor = index;
                }
            }
            Pane::Tester => {}
        }
    }

    fn wheel(&mut self, column: u16, row: u16, down: bool) {
        if self.overlay.is_some() {
            self.move_by(if down { WHEEL_LINES.cast_signed() } else { -WHEEL_LINES.cast_signed() });
            return;
        }
        let areas = self.areas();
        let Some(pane) = areas.pane_at(column, row) else { return };
        let delta = if down { WHEEL_LINES.cast_signed() } else { -WHEEL_LINES.cast_signed() };
        let height = areas.inner_height(pane);
        match pane {
            Pane::Robots => {
                self.robots_view.offset = scrolled(self.robots_view.offset, delta, self.robots.len(), height);
            }
            Pane::Source => self.source_view.scroll_by(delta, self.document.txt.lines().len(), height),
            Pane::Records => self.records_view.scroll_by(delta, self.record_rows().len(), height),
            Pane::Tester => {
                self.tester_scroll = self.tester_first_detail().saturating_add_signed(delta);
                self.tester_scroll = self.tester_first_detail();
            }
        }
    }

    /// Keeps every pane's cursor visible after a resize.
    fn reveal_cursors(&mut self) {
        let areas = self.areas();
        self.robots_view.reveal(self.robots_view.cursor, self.robots.len(), areas.inner_height(Pane::Robots));
        self.source_view.reveal(
            self.source_view.cursor,
            self.document.txt.lines().len(),
            areas.inner_height(Pane::Source),
        );
        let rows = self.record_rows().len();
        self.records_view.reveal(self.records_view.cursor, rows, areas.inner_height(Pane::Records));
    }

    // --- The verdict ---------------------------------------------------------------------

    /// The origin (`https://host:port`) whose robots.txt is loaded, if it came from a
    /// site.
    fn site_origin(&self) -> Option<String> {
        let url = match &self.document.origin {
            Origin::Site { url, .. } | Origin::Pending(Source::Site { robots_url: url, .. }) => url,
            Origin::Local(Source::Site { robots_url, .. }) => robots_url,
            _ => return None,
        };
        Some(url.origin().ascii_serialization())
    }

    /// Recomputes the verdict for the selected robot, reading and path, and scrolls it
    /// into view.
    fn reevaluate(&mut self) {
        self.evaluate_in_place();
        self.reveal_verdict();
    }

    /// Recomputes the verdict and leaves the panes where they are: after an edit, the
    /// user's place in the file is where they work, not the verdict's line.
    pub(super) fn evaluate_in_place(&mut self) {
        let robot = self.robot().profile.robot();
        let reading = self.reading();
        let given = self.path().text().to_owned();
        let request = Request::read(&given);
        let other_site = self
            .site_origin()
            .filter(|site| request.is_on_another_site(site))
            .and_then(|_| request.origin().map(str::to_owned));
        let txt = &self.document.txt;
        let availability = self.document.availability;
        let verdict = evaluate_fetched(txt, availability, &robot, &request.tested, reading);
        let allowed_by_reading = Reading::ALL.map(|other| {
            if other == reading {
                verdict.allowed
            } else {
                evaluate_fetched(txt, availability, &robot, &request.tested, other).allowed
            }
        });
        let note = request.note();
        let usage = usage_of(txt, availability, &verdict, reading);
        let past_the_cut = (reading == Reading::Rfc9309 && txt.rfc9309_cut().is_some())
            .then(|| evaluate_fetched(&self.document.whole(), availability, &robot, &request.tested, reading))
            .filter(|whole| {
                whole.allowed != verdict.allowed
                    || whole.decided_by.map(|m| m.line) != verdict.decided_by.map(|m| m.line)
            });
        self.evaluation = Evaluation { given, note, other_site, verdict, allowed_by_reading, usage, past_the_cut };
        self.tester_scroll = 0;
    }

    /// The group of the verdict: the deciding rule's, or else the first that applied.
    fn verdict_group(&self) -> Option<usize> {
        let verdict = self.shown_verdict();
        verdict.decided_by.map(|m| m.group).or_else(|| verdict.selection.groups.first().copied())
    }

    /// The line of the verdict: the deciding line, or else its group's first line.
    fn verdict_line(&self) -> Option<usize> {
        let interpretation = self.document.txt.interpretation(self.shown_reading());
        let verdict = self.shown_verdict();
        verdict
            .decided_by
            .map(|m| m.line)
            .or_else(|| self.verdict_group().map(|g| interpretation.groups()[g].first_line()))
    }

    /// Scrolls the deciding line (or else the first group that applied) into view in the
    /// source, and its group into view in the records.
    fn reveal_verdict(&mut self) {
        let reading = self.shown_reading();
        let (group, line) = (self.verdict_group(), self.verdict_line());
        let txt = &self.document.txt;
        let areas = self.areas();
        if let Some(line) = line {
            self.source_view.bring_into_view(line - 1, txt.lines().len(), areas.inner_height(Pane::Source));
        }
        if let Some(group) = group {
            // The deciding rule's row, or else the group's heading.
            let decider = self.shown_verdict().decided_by.map(|m| RecordRow::Rule { group, rule: m.rule });
            let rows = self.document.rows(reading);
            let row = decider
                .and_then(|target| rows.iter().position(|&row| row == target))
                .or_else(|| rows.iter().position(|row| row.group() == Some(group)));
            if let Some(row) = row {
                self.records_view.bring_into_view(row, rows.len(), areas.inner_height(Pane::Records));
            }
        }
    }
}

fn scrolled(offset: usize, delta: isize, len: usize, height: usize) -> usize {
    offset.saturating_add_signed(delta).min(len.saturating_sub(height.max(1)))
}

/// True when a group of the file (RFC 9309 reading) names `token`.
fn names_token(txt: &RobotsTxt, token: &str) -> bool {
    txt.interpretation(Reading::Rfc9309)
        .groups()
        .iter()
        .flat_map(super::policy::parse::Group::agents)
        .any(|agent| matches!(&agent.name(), AgentName::Name(name) if name.eq_ignore_ascii_case(token)))
}

/// The switcher's robots: every profile, then the robots the file names that have no
/// profile (by their product token as the file writes it), then those the user added.
fn robot_entries(txt: &RobotsTxt, db: &RobotsDb, added: &[RobotEntry]) -> Vec<RobotEntry> {
    robot_entries_from(txt, db.profiles(), added)
}

fn robot_entries_from(txt: &RobotsTxt, profiles: &[RobotProfile], added: &[RobotEntry]) -> Vec<RobotEntry> {
    let mut entries: Vec<RobotEntry> = profiles
        .iter()
        .map(|profile| RobotEntry {
            profile: profile.clone(),
            origin: RobotOrigin::Profile,
            named_in_file: names_token(txt, &profile.token),
        })
        .collect();
    // Names and tokens already listed, lower-cased: a file may name thousands of robots.
    let mut listed: HashSet<String> = entries
        .iter()
        .flat_map(|entry| [entry.profile.name.to_ascii_lowercase(), entry.profile.token.to_ascii_lowercase()])
        .collect();
    for agent in txt.interpretation(Reading::Rfc9309).groups().iter().flat_map(super::policy::parse::Group::agents) {
        let token = String::from_utf8_lossy(product_token(txt.text(&agent.value()))).into_owned();
        if token.is_empty() || !listed.insert(token.to_ascii_lowercase()) {
            continue;
        }
        entries.push(RobotEntry {
            profile: RobotProfile::custom(&token),
            origin: RobotOrigin::NamedInFile,
            named_in_file: true,
        });
    }
    for entry in added {
        if !entries.iter().any(|e| e.profile.is_named(&entry.profile.token)) {
            let named_in_file = names_token(txt, &entry.profile.token);
            entries.push(RobotEntry { named_in_file, ..entry.clone() });
        }
    }
    entries
}

/// The status-bar line after a load: where, what status, how big, how long.
fn load_summary(document: &Document) -> String {
    let size = document.txt.source().len();
    match document.fetched() {
        Some(Ok(fetched)) => format!(
            "Fetched {} · {} · {size} bytes · {} ms{}",
            fetched.final_url,
            fetched.status,
            fetched.elapsed.as_millis(),
            fetched.redirect_summary().map(|summary| format!(" · {summary}")).unwrap_or_default()
        ),
        Some(Err(error)) => format!("Fetch failed: {error}"),
        None => format!("Loaded {} · {size} bytes", document.label),
    }
}

/// The usage preferences the tester shows for a verdict: under RFC 9309, when the groups
/// that apply state any (see [`crate::policy::usage`]).
fn usage_of(txt: &RobotsTxt, availability: Availability, verdict: &Verdict, reading: Reading) -> Option<UsageAnswer> {
    if reading != Reading::Rfc9309 || availability.access(reading) != Access::Rules {
        return None;
    }
    let rules = UsageRules::of(txt, &verdict.selection);
    if rules.is_empty() {
        return None;
    }
    Some(rules.answer_for(availability, verdict.allowed, &verdict.path))
}

#[cfg(test)]
mod tests {
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
        assert!(app.evaluation().verdict.allowed, "Googlebot's own group does not name the directory");
        select(&mut app, "Gulliver");
        assert_eq!(app.robot().profile.name, "Gulliver");
        assert_eq!(app.reading(), Reading::Draft1996, "Gulliver defaults to the 1996 draft");
        assert!(!app.evaluation().verdict.allowed);
        select(&mut app, "Sidewinder");
        assert!(app.evaluation().verdict.allowed);
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
        assert!(app.evaluation().verdict.allowed, "1994 robots end webcrawler's record at the blank line");
        assert!(app.evaluation().readings_disagree());
        app.update(Action::CycleReading);
        assert_eq!(app.reading(), Reading::Rfc9309);
        assert!(app.reading_is_chosen());
        assert!(!app.evaluation().verdict.allowed, "RFC 9309 joins webcrawler to lycra's group");
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
        let decided = app.evaluation().verdict.decided_by.map(|m| m.line);
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
        assert!(!app.evaluation().verdict.allowed);
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
        assert!(matches!(app.load_state(), LoadState::Loading { id: 1, .. }));
        assert!(app.is_waiting_for_source(), "no verdict over an empty file while it loads");
        app.update(Action::LoadProgress { id: 1, elapsed: Duration::from_millis(300) });
        assert!(matches!(app.load_state(), LoadState::Loading { elapsed, ticks: 1, .. } if elapsed.as_millis() == 300));
        app.update(loaded(1, source.clone(), 200, "User-agent: *\nDisallow: /private/\n"));
        assert_eq!(*app.load_state(), LoadState::Idle);
        assert!(!app.evaluation().verdict.allowed);
        assert_eq!(app.evaluation().verdict.decided_by.map(|m| m.line), Some(2));
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
        assert_eq!(*app.load_state(), LoadState::Idle);
        assert!(app.is_waiting_for_source(), "nothing loaded: the tester says so, with r and o");
    }

    #[test]
    fn error_statuses_decide_for_every_path() {
        let db = RobotsDb::embedded();
        let mut app = App::loading(site("/x"), Limits::default(), false, &db);
        let source = site("/x");
        app.start();
        app.update(loaded(1, source, 503, "<html>busy</html>"));
        assert!(!app.evaluation().verdict.allowed);
        assert!(app.evaluation().verdict.explanation.contains("503"));
        press(&mut app, "s");
        assert!(!app.evaluation().verdict.allowed, "the 1996 draft defers too");
    }

    #[test]
    fn esc_cancels_a_load_and_stale_results_are_dropped() {
        let db = RobotsDb::embedded();
        let mut app = App::loading(site("/"), Limits::default(), false, &db);
        app.start();
        assert_eq!(press(&mut app, "<esc>"), vec![Effect::CancelLoad { id: 1 }]);
        assert_eq!(*app.load_state(), LoadState::Idle);
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
        assert!(!app.evaluation().verdict.allowed);
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
        assert!(!app.evaluation().verdict.allowed, "typed after /, replacing it: not //cgi-bin/x");
        type_path(&mut app, "cgi-bin/x");
        assert!(!app.evaluation().verdict.allowed);
        assert!(app.evaluation().note.as_deref().is_some_and(|n| n.contains("relative to /")));
        type_path(&mut app, "/café/menu");
        assert_eq!(app.evaluation().verdict.path, "/caf%C3%A9/menu");
        assert!(!app.evaluation().verdict.allowed);
        type_path(&mut app, "//cgi-bin/x");
        assert!(app.evaluation().verdict.allowed, "a path whose first segment is empty");
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
        assert!(app.evaluation().verdict.allowed, "Disallow: / is past the cut");
        let whole = app.evaluation().past_the_cut.as_ref().expect("the whole file answers otherwise");
        assert_eq!((whole.allowed, whole.decided_by.map(|m| m.line)), (false, Some(25_002)));
        let details = app.tester_details(100);
        let said = details.iter().find(|d| d.kind == tester::DetailKind::PastTheCut).expect("the tester says so");
        assert!(said.text.contains("only the first 512000 bytes count"), "{}", said.text);
        // The group copied is the group as the file writes it, to its last line.
        let local = crate::clipboard::Environment { has_display: true, over_ssh: false, in_tmux: false };
        app.set_clipboard(crate::clipboard::ClipboardMode::System, local, None);
        let effects = press(&mut app, "yg");
        let [Effect::Copy { text: group, .. }] = effects.as_slice() else { panic!("{effects:?}") };
        assert!(group.len() > 600_000 && group.ends_with("Disallow: /\n"), "{} bytes", group.len());
        type_path(&mut app, "/filler/page.html");
        assert_eq!(app.evaluation().past_the_cut, None, "the same answer either way is not noted");
        press(&mut app, "s");
        assert_eq!(app.reading(), Reading::Draft1996);
        type_path(&mut app, "/private");
        assert!(!app.evaluation().verdict.allowed, "the 1996 draft sets no limit");
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
        let saved = crate::save::Saved { file: path.clone(), in_place: false };
        let effects = app.update(Action::Saved { path, text, after: AfterSave::Stay, result: Ok(saved) });
        assert!(effects.contains(&Effect::KeepRecoveryCopy(None)), "{effects:?}");

        let large = format!("User-agent: *\n{}", "Disallow: /a\n".repeat(10_000));
        let mut app = App::from_text(&large);
        let lints = |effects: &[Effect]| effects.iter().filter(|e| matches!(e, Effect::Lint { .. })).count();
        assert_eq!(lints(&app.start()), 1);
        assert_eq!(lints(&app.update(Action::Resize { width: 80, height: 24 })), 0, "asked once per text");
    }
}
