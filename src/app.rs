//! The explorer's state, and `update`: the only thing that changes it.
//!
//! [`App::update`] takes an [`Action`] (a key's meaning, a mouse event, a resize, a
//! result from background work) and returns [`Effect`]s for the event loop to run. It
//! does no I/O and knows no terminal, so every behaviour of the explorer can be tested
//! with plain actions in and state out (STYLE.md habit 5). Drawing reads the state
//! through the accessors here and never changes it.
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
pub mod input;
pub mod keymap;
pub mod layout;
pub mod page;
pub mod records;

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use ratatui::layout::Rect;

pub use action::{Action, CopyWhat};
pub use document::{Document, Origin};
pub use effect::{AfterSave, Effect};
pub use focus::Pane;
pub use input::{Edit, LineInput};
pub use layout::Areas;
pub use records::RecordRow;

use crate::fetch::{Limits, Retrieved, Source};
use crate::policy::parse::product_token;
use crate::policy::{AgentName, Reading, RobotsTxt, Verdict, evaluate_fetched};
use crate::robots_db::{RobotProfile, RobotsDb};

/// The example the explorer opens with no argument: the standard's own examples from
/// 1994-1996 with a few of today's robots (`assets/examples/engines.txt`).
pub const EXAMPLE: &str = include_str!("../assets/examples/engines.txt");

/// The path tested before the user types one.
const DEFAULT_PATH: &str = "/";

/// Lines the mouse wheel scrolls per notch.
const WHEEL_LINES: usize = 3;

/// Columns that `h` and `l` scroll the source's long lines by.
const HORIZONTAL_STEP: usize = 8;

/// What the keyboard is doing.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Mode {
    /// Keys move around and trigger commands.
    #[default]
    Normal,
    /// Keys type the tester's path.
    EditingPath,
    /// Keys type the name of a robot to add.
    AddingRobot(LineInput),
    /// Keys type a source to open: a file, `-` or a site.
    OpeningSource(LineInput),
    /// The key help is shown.
    Help,
    /// How the file was fetched: hops, status, what it means.
    FetchDetails,
    /// The editor has the keys.
    Editing,
    /// The list of diagnostics is shown.
    Diagnostics,
    /// What the edits changed is shown.
    Changes,
    /// Choosing what to copy.
    CopyMenu,
    /// Keys type where to save, and what happens after.
    SavingAs(LineInput, AfterSave),
    /// Asking whether to quit with unsaved edits.
    ConfirmQuit,
    /// The compare view has the keys.
    Compare,
    /// The page policy overlay is shown.
    Page,
    /// Keys type a path to add as a compare row.
    AddingComparePath(LineInput),
    /// Keys type a file of paths for the compare rows.
    LoadingComparePaths(LineInput),
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
    /// The verdict under the current reading.
    pub verdict: Verdict,
    /// Whether the path is allowed under each reading, indexed by [`Reading::index`].
    pub allowed_by_reading: [bool; 3],
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
    mode: Mode,
    source_view: ScrollView,
    /// Columns of the source's lines scrolled off to the left (`h`/`l`).
    source_column: usize,
    /// The help overlay's first line, when it shows one long column.
    help_scroll: usize,
    records_view: ScrollView,
    path: LineInput,
    evaluation: Evaluation,
    area: Rect,
    message: Option<String>,
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
    clipboard: crate::clipboard::ClipboardMode,
    environment: crate::clipboard::Environment,
    /// The compare view's robots, paths and cursor (kept while it is closed).
    compare: compare::CompareView,
    compare_open: bool,
    /// The page policy overlay's page.
    page: Option<page::PageView>,
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
            mode: Mode::Normal,
            source_view: ScrollView::default(),
            source_column: 0,
            help_scroll: 0,
            records_view: ScrollView::default(),
            path: LineInput::with_text(DEFAULT_PATH),
            // Replaced at once by `reevaluate`; a verdict needs a document to exist.
            evaluation: Evaluation {
                verdict: crate::policy::evaluate(
                    &RobotsTxt::default(),
                    &crate::policy::Robot::from_agent("*"),
                    "/",
                    Reading::Rfc9309,
                ),
                allowed_by_reading: [true; 3],
            },
            area: Rect::new(0, 0, 120, 40),
            message: None,
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
            clipboard: crate::clipboard::ClipboardMode::Auto,
            // The shell tells the app about the real environment (`set_clipboard`).
            environment: crate::clipboard::Environment::default(),
            compare_open: false,
            page: None,
        };
        app.adopt_loaded_text();
        app.note_robot_looked_at();
        app.reevaluate();
        app
    }

    /// Takes the document's text as the loaded one: the baseline for diffs and changes.
    fn adopt_loaded_text(&mut self) {
        self.original = self.document.txt.clone();
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
        App::new(RobotsTxt::parse(text.as_bytes().to_vec()), "text".to_owned(), &RobotsDb::embedded())
    }

    // --- What the UI reads -------------------------------------------------------------

    /// The loaded file.
    #[must_use]
    pub fn document(&self) -> &Document {
        &self.document
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

    /// What the keyboard is doing.
    #[must_use]
    pub fn mode(&self) -> &Mode {
        &self.mode
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

    /// The tester's path input.
    #[must_use]
    pub fn path(&self) -> &LineInput {
        &self.path
    }

    /// The current verdict.
    #[must_use]
    pub fn evaluation(&self) -> &Evaluation {
        &self.evaluation
    }

    /// The layout for the current terminal size.
    #[must_use]
    pub fn areas(&self) -> Areas {
        Areas::layout(self.area, self.compare_open)
    }

    /// A message for the status bar.
    #[must_use]
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
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
        let action = match self
            .update_page(action)
            .or_else(|action| self.update_edits(action))
            .or_else(|action| self.update_compare(action))
        {
            Ok(effects) => return effects,
            Err(action) => action,
        };
        match action {
            Action::Up | Action::Down | Action::PageUp | Action::PageDown if self.mode == Mode::Help => {
                self.scroll_help(&action);
            }
            Action::FocusNext => self.set_focus(self.focus.next()),
            Action::FocusPrev => self.set_focus(self.focus.prev()),
            Action::Focus(pane) => self.set_focus(pane),
            Action::Up => self.move_cursor(-1),
            Action::Down => self.move_cursor(1),
            Action::PageUp => self.move_cursor(-self.page()),
            Action::PageDown => self.move_cursor(self.page()),
            Action::Top => self.move_cursor(isize::MIN / 2),
            Action::Bottom => self.move_cursor(isize::MAX / 2),
            Action::Left => self.source_column = self.source_column.saturating_sub(HORIZONTAL_STEP),
            Action::Right => self.scroll_source_right(),
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
            Action::EditPath => self.set_focus(Pane::Tester),
            Action::PathEdit(edit) => self.edit_path(edit),
            Action::SubmitPath => {
                self.path.commit_to_history();
                self.reevaluate();
            }
            Action::AddRobot => self.mode = Mode::AddingRobot(LineInput::default()),
            Action::RobotNameEdit(edit) => {
                if let Mode::AddingRobot(input) = &mut self.mode {
                    input.apply(edit);
                }
            }
            Action::SubmitRobotName => self.add_typed_robot(),
            Action::ShowInSource => self.show_record_in_source(),
            Action::ToggleHelp => {
                self.mode = if self.mode == Mode::Help { self.typing_mode() } else { Mode::Help };
                self.help_scroll = 0;
            }
            Action::Cancel => return self.cancel(),
            Action::Reload => return self.reload(),
            Action::OpenSource => self.mode = Mode::OpeningSource(LineInput::default()),
            Action::SourceEdit(edit) => {
                if let Mode::OpeningSource(input) = &mut self.mode {
                    input.apply(edit);
                }
            }
            Action::SubmitSource => return self.open_typed_source(),
            Action::ToggleFetchDetails => {
                self.mode = if self.mode == Mode::FetchDetails { self.typing_mode() } else { Mode::FetchDetails };
            }
            Action::LoadProgress { id, elapsed } => {
                if let LoadState::Loading { id: current, elapsed: shown, ticks, .. } = &mut self.load
                    && *current == id
                {
                    *shown = elapsed;
                    *ticks += 1;
                }
            }
            Action::Loaded { id, result } => self.loaded(id, *result),
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
            // The editing, copying, saving and quitting actions: `update_edits`.
            _ => {}
        }
        Vec::new()
    }

    fn edit_path(&mut self, edit: Edit) {
        if self.path.apply(edit) {
            self.reevaluate();
        }
    }

    fn typing_mode(&self) -> Mode {
        if self.compare_open {
            Mode::Compare
        } else if self.editor.is_some() {
            Mode::Editing
        } else if self.focus == Pane::Tester {
            Mode::EditingPath
        } else {
            Mode::Normal
        }
    }

    fn set_focus(&mut self, pane: Pane) {
        if pane != Pane::Source {
            self.editor = None;
        }
        self.focus = pane;
        self.mode = self.typing_mode();
    }

    fn cancel(&mut self) -> Vec<Effect> {
        match self.mode {
            Mode::EditingPath => self.set_focus(Pane::Source),
            Mode::Editing => self.close_editor(),
            Mode::ConfirmQuit | Mode::SavingAs(..) => self.mode = self.typing_mode(),
            Mode::AddingRobot(_)
            | Mode::OpeningSource(_)
            | Mode::Help
            | Mode::FetchDetails
            | Mode::Diagnostics
            | Mode::Changes
            | Mode::CopyMenu
            | Mode::AddingComparePath(_)
            | Mode::LoadingComparePaths(_)
            | Mode::Page => {
                self.mode = self.typing_mode();
            }
            Mode::Compare => {
                self.compare_open = false;
                self.mode = self.typing_mode();
                self.reveal_verdict();
            }
            Mode::Normal => {
                if let LoadState::Loading { id, source, .. } = std::mem::take(&mut self.load) {
                    self.message = Some(format!("Cancelled loading {}", source.label()));
                    return vec![Effect::CancelLoad { id }];
                }
                self.message = None;
            }
        }
        Vec::new()
    }

    /// Effects to run when the explorer starts: the first load of a source given on the
    /// command line.
    pub fn start(&mut self) -> Vec<Effect> {
        match &self.document.origin {
            Origin::Pending(source) => {
                let source = source.clone();
                self.begin_load(source)
            }
            _ => Vec::new(),
        }
    }

    fn reload(&mut self) -> Vec<Effect> {
        match self.document.origin.source().cloned() {
            Some(Source::Stdin) => {
                self.message =
                    Some("Standard input was read once and cannot be read again; o opens another source".into());
                Vec::new()
            }
            Some(source) => self.begin_load(source),
            None => {
                self.message = Some("The embedded example has no source to load again; o opens one".into());
                Vec::new()
            }
        }
    }

    fn open_typed_source(&mut self) -> Vec<Effect> {
        let Mode::OpeningSource(input) = &self.mode else { return Vec::new() };
        let spec = input.text().trim().to_owned();
        self.mode = self.typing_mode();
        if spec.is_empty() {
            return Vec::new();
        }
        match Source::parse(&spec) {
            Ok(Source::Stdin) => {
                self.message = Some("Standard input holds the keys here; give a file or a site".into());
                Vec::new()
            }
            Ok(source) => self.begin_load(source),
            Err(error) => {
                self.message = Some(error.to_string());
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
        self.message = None;
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
        match result {
            Ok(retrieved) => {
                let document = Document::from_retrieved(retrieved, &self.limits);
                self.message = Some(load_summary(&document));
                self.replace_document(document);
            }
            Err(error) => self.message = Some(error.to_string()),
        }
    }

    /// Shows a new document, keeping the selected robot (by token), the robots the user
    /// added, the reading and the tester's path.
    fn replace_document(&mut self, document: Document) {
        let token = self.robot().profile.token.clone();
        let added: Vec<RobotEntry> =
            self.robots.iter().filter(|e| e.origin == RobotOrigin::AddedByUser).cloned().collect();
        let db_profiles: Vec<RobotProfile> =
            self.robots.iter().filter(|e| e.origin == RobotOrigin::Profile).map(|e| e.profile.clone()).collect();
        self.document = document;
        self.adopt_loaded_text();
        // New file, new rules: the default rows are its paths.
        self.compare.paths.clear();
        self.compare.cursor.0 = 0;
        self.compare.offset.0 = 0;
        self.robots = robot_entries_from(&self.document.txt, &db_profiles, &added);
        self.robot = self.robots.iter().position(|e| e.profile.token.eq_ignore_ascii_case(&token)).unwrap_or(0);
        self.robots_view = ScrollView { cursor: self.robot, offset: 0 };
        self.source_view = ScrollView::default();
        self.source_column = 0;
        self.records_view = ScrollView::default();
        self.put_page_in_tester();
        self.reevaluate();
        if self.compare_open {
            self.compare.paths = self.default_compare_paths();
            self.rebuild_columns();
        }
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

    fn page(&self) -> isize {
        isize::try_from(self.areas().inner_height(self.focus).saturating_sub(1).max(1)).unwrap_or(1)
    }

    fn move_cursor(&mut self, delta: isize) {
        let height = self.areas().inner_height(self.focus);
        if self.mode == Mode::Diagnostics {
            self.diagnostics_view.move_by(delta, self.diagnostics.len(), height);
            return;
        }
        match self.focus {
            Pane::Robots => {
                let target = self.robot.saturating_add_signed(delta).min(self.robots.len() - 1);
                self.select_robot(target);
            }
            Pane::Source => self.source_view.move_by(delta, self.document.txt.lines().len(), height),
            Pane::Records => self.records_view.move_by(delta, self.record_rows().len(), height),
            Pane::Tester => {}
        }
    }

    /// Scrolls the help overlay, when it is too narrow for its columns and shows one
    /// long column instead; no further than its last line.
    fn scroll_help(&mut self, action: &Action) {
        let shown = usize::from(self.area.height.min(layout::HELP_OVERLAY.1).saturating_sub(2)).max(1);
        let last = keymap::help_line_count().saturating_sub(shown);
        self.help_scroll = match action {
            Action::Up => self.help_scroll.saturating_sub(1),
            Action::Down => self.help_scroll + 1,
            Action::PageUp => self.help_scroll.saturating_sub(shown),
            _ => self.help_scroll + shown,
        }
        .min(last);
    }

    /// The help overlay's first line, when it shows one long column.
    #[must_use]
    pub fn help_scroll(&self) -> usize {
        self.help_scroll
    }

    /// Scrolls the source's lines left by a step, no further than where the longest
    /// line's end shows.
    fn scroll_source_right(&mut self) {
        let txt = &self.document.txt;
        let lines = txt.lines();
        let longest = lines.iter().map(|line| line.content(txt.source()).len()).max().unwrap_or(0);
        // The pane's text columns: its width less the borders and the gutter.
        let gutter = layout::source_gutter_width(lines.len());
        let shown = usize::from(self.areas().source.width.saturating_sub(2)).saturating_sub(gutter);
        let limit = longest.saturating_sub(shown).next_multiple_of(HORIZONTAL_STEP);
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

    fn add_typed_robot(&mut self) {
        let Mode::AddingRobot(input) = &self.mode else { return };
        let name = input.text().trim().to_owned();
        self.mode = self.typing_mode();
        if name.is_empty() {
            return;
        }
        let existing = self.robots.iter().position(|entry| entry.profile.is_named(&name));
        let index = existing.unwrap_or_else(|| {
            let profile = RobotProfile::custom(&name);
            let named_in_file = names_token(&self.document.txt, &profile.token);
            self.robots.push(RobotEntry { profile, origin: RobotOrigin::AddedByUser, named_in_file });
            self.robots.len() - 1
        });
        if self.compare_open {
            self.message = Some(format!("Compared {name}"));
            self.add_compare_robot(index);
        } else {
            self.message = Some(if existing.is_some() { format!("Selected {name}") } else { format!("Added {name}") });
            self.select_robot(index);
        }
    }

    fn show_record_in_source(&mut self) {
        if self.mode == Mode::Diagnostics {
            if let Some(line) = self.diagnostics.get(self.diagnostics_view.cursor).map(|d| d.line) {
                let (len, height) = (self.document.txt.lines().len(), self.areas().inner_height(Pane::Source));
                self.source_view.cursor = line - 1;
                self.source_view.bring_into_view(line - 1, len, height);
                self.focus = Pane::Source;
                self.mode = self.typing_mode();
            }
            return;
        }
        let interpretation = self.document.txt.interpretation(self.reading());
        let line = self.record_rows().get(self.records_view.cursor).and_then(|row| row.line(interpretation));
        if let Some(line) = line {
            let (len, height) = (self.document.txt.lines().len(), self.areas().inner_height(Pane::Source));
            self.source_view.cursor = line - 1;
            self.source_view.bring_into_view(line - 1, len, height);
            self.set_focus(Pane::Source);
        }
    }

    fn click(&mut self, column: u16, row: u16) {
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
            Pane::Tester => {}
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

    /// Recomputes the verdict for the selected robot, reading and path, and scrolls it
    /// into view.
    fn reevaluate(&mut self) {
        let robot = self.robot().profile.robot();
        let reading = self.reading();
        let path = if self.path.text().trim().is_empty() { DEFAULT_PATH } else { self.path.text() };
        let txt = &self.document.txt;
        let availability = self.document.availability;
        let verdict = evaluate_fetched(txt, availability, &robot, path, reading);
        let allowed_by_reading = Reading::ALL.map(|other| {
            if other == reading {
                verdict.allowed
            } else {
                evaluate_fetched(txt, availability, &robot, path, other).allowed
            }
        });
        self.evaluation = Evaluation { verdict, allowed_by_reading };
        self.reveal_verdict();
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
            .or_else(|| self.verdict_group().map(|g| interpretation.groups[g].first_line()))
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
        .groups
        .iter()
        .flat_map(|group| &group.agents)
        .any(|agent| matches!(&agent.name, AgentName::Name(name) if name.eq_ignore_ascii_case(token)))
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
    for agent in txt.interpretation(Reading::Rfc9309).groups.iter().flat_map(|group| &group.agents) {
        let token = String::from_utf8_lossy(product_token(txt.text(&agent.value))).into_owned();
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
            "Fetched {} · {} {} · {size} bytes · {} ms{}",
            fetched.final_url,
            fetched.status,
            crate::fetch::status_name(fetched.status),
            fetched.elapsed.as_millis(),
            if fetched.hops.is_empty() { String::new() } else { format!(" · {} redirect(s)", fetched.hops.len()) }
        ),
        Some(Err(error)) => format!("Fetch failed: {error}"),
        None => format!("Loaded {} · {size} bytes", document.label),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn select(app: &mut App, name: &str) {
        app.update(Action::AddRobot);
        for c in name.chars() {
            app.update(Action::RobotNameEdit(Edit::Insert(c)));
        }
        app.update(Action::SubmitRobotName);
    }

    fn type_path(app: &mut App, path: &str) {
        app.update(Action::EditPath);
        app.update(Action::PathEdit(Edit::Clear));
        for c in path.chars() {
            app.update(Action::PathEdit(Edit::Insert(c)));
        }
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
        type_path(&mut app, "/tmp/a");
        assert_eq!(*app.mode(), Mode::EditingPath);
        assert_eq!(app.focus(), Pane::Tester);
        app.update(Action::SubmitPath);
        type_path(&mut app, "/b");
        app.update(Action::PathEdit(Edit::HistoryPrevious));
        assert_eq!(app.path().text(), "/tmp/a");
        app.update(Action::Cancel);
        assert_eq!(*app.mode(), Mode::Normal);
        assert_eq!(app.focus(), Pane::Source);
    }

    #[test]
    fn focus_cycles_and_clicks_focus() {
        let mut app = App::example();
        app.update(Action::FocusNext);
        assert_eq!(app.focus(), Pane::Records);
        app.update(Action::FocusNext);
        assert_eq!(app.focus(), Pane::Tester);
        assert_eq!(*app.mode(), Mode::EditingPath);
        app.update(Action::FocusPrev);
        assert_eq!(*app.mode(), Mode::Normal);
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
        app.update(Action::Bottom);
        assert_eq!(app.source_view().cursor, app.document().txt.lines().len() - 1);
        app.update(Action::Top);
        assert_eq!(app.source_view().cursor, 0);
        app.update(Action::Focus(Pane::Records));
        app.update(Action::PageDown);
        assert!(app.records_view().cursor < app.record_rows().len());
        app.update(Action::ShowInSource);
        assert_eq!(app.focus(), Pane::Source);
    }

    fn site(page: &str) -> Source {
        Source::parse(&format!("http://127.0.0.1:9{page}")).expect("a site")
    }

    fn fetched(status: u16, body: &str) -> crate::fetch::Fetched {
        let url = url::Url::parse("http://127.0.0.1:9/robots.txt").expect("url");
        crate::fetch::Fetched {
            requested: url.clone(),
            hops: Vec::new(),
            final_url: url,
            status,
            headers: vec![("content-type".into(), "text/plain".into())],
            body: body.as_bytes().to_vec(),
            truncated: false,
            redirect_loop: false,
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
        app.update(Action::LoadProgress { id: 1, elapsed: Duration::from_millis(300) });
        assert!(matches!(app.load_state(), LoadState::Loading { elapsed, ticks: 1, .. } if elapsed.as_millis() == 300));
        app.update(loaded(1, source.clone(), 200, "User-agent: *\nDisallow: /private/\n"));
        assert_eq!(*app.load_state(), LoadState::Idle);
        assert!(!app.evaluation().verdict.allowed);
        assert_eq!(app.evaluation().verdict.decided_by.map(|m| m.line), Some(2));
        assert!(app.message().is_some_and(|m| m.contains("200 OK")));
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
        app.update(Action::CycleReading);
        assert!(!app.evaluation().verdict.allowed, "the 1996 draft defers too");
    }

    #[test]
    fn esc_cancels_a_load_and_stale_results_are_dropped() {
        let db = RobotsDb::embedded();
        let mut app = App::loading(site("/"), Limits::default(), false, &db);
        app.start();
        assert_eq!(app.update(Action::Cancel), vec![Effect::CancelLoad { id: 1 }]);
        assert_eq!(*app.load_state(), LoadState::Idle);
        app.update(loaded(1, site("/"), 200, "User-agent: *\nDisallow: /\n"));
        assert!(app.document().txt.source().is_empty(), "a cancelled load's result is ignored");
        // A reload replaces a running load, whose late result is ignored too.
        let first = app.update(Action::Reload);
        assert!(matches!(first.as_slice(), [Effect::Load { id: 2, .. }]));
        let second = app.update(Action::Reload);
        assert!(matches!(second.as_slice(), [Effect::CancelLoad { id: 2 }, Effect::Load { id: 3, .. }]));
        app.update(loaded(2, site("/"), 200, "User-agent: *\nDisallow: /\n"));
        assert!(app.document().txt.source().is_empty());
        app.update(loaded(3, site("/"), 200, "User-agent: *\nDisallow: /\n"));
        assert!(!app.evaluation().verdict.allowed);
    }

    #[test]
    fn opening_and_reloading_sources() {
        let mut app = App::example();
        assert!(app.update(Action::Reload).is_empty());
        assert!(app.message().is_some_and(|m| m.contains("embedded example")));
        app.update(Action::OpenSource);
        for c in "no-such-file.txt".chars() {
            app.update(Action::SourceEdit(Edit::Insert(c)));
        }
        assert!(app.update(Action::SubmitSource).is_empty());
        assert!(app.message().is_some_and(|m| m.contains("no such file")));
        app.update(Action::OpenSource);
        for c in "example.com/a".chars() {
            app.update(Action::SourceEdit(Edit::Insert(c)));
        }
        let effects = app.update(Action::SubmitSource);
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
        assert_eq!(app.update(Action::Quit), vec![Effect::Quit]);
        assert!(app.update(Action::NextRobot).is_empty());
    }
}
