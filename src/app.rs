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
pub mod effect;
pub mod focus;
pub mod input;
pub mod keymap;
pub mod layout;
pub mod records;

use std::sync::OnceLock;

use ratatui::layout::Rect;

pub use action::Action;
pub use effect::Effect;
pub use focus::Pane;
pub use input::{Edit, LineInput};
pub use layout::Areas;
pub use records::RecordRow;

use crate::policy::parse::product_token;
use crate::policy::{AgentName, Reading, RobotsTxt, Verdict, evaluate};
use crate::robots_db::{RobotProfile, RobotsDb};

/// The example the explorer opens with no argument: the standard's own examples from
/// 1994-1996 with a few of today's robots (`assets/examples/engines.txt`).
pub const EXAMPLE: &str = include_str!("../assets/examples/engines.txt");

/// The path tested before the user types one.
const DEFAULT_PATH: &str = "/";

/// Lines the mouse wheel scrolls per notch.
const WHEEL_LINES: usize = 3;

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
    /// The key help is shown.
    Help,
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

/// The loaded robots.txt and what is derived from it.
#[derive(Debug)]
pub struct Document {
    /// The parsed file.
    pub txt: RobotsTxt,
    /// Where it came from, for the status bar.
    pub label: String,
    /// The records pane's rows per reading, built on first use.
    rows: [OnceLock<Vec<RecordRow>>; 3],
}

impl Document {
    /// Wraps a parsed file.
    #[must_use]
    pub fn new(txt: RobotsTxt, label: String) -> Document {
        Document { txt, label, rows: Default::default() }
    }

    /// The records pane's rows under `reading`.
    #[must_use]
    pub fn rows(&self, reading: Reading) -> &[RecordRow] {
        self.rows[reading.index()].get_or_init(|| records::rows(self.txt.interpretation(reading)))
    }
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
    records_view: ScrollView,
    path: LineInput,
    evaluation: Evaluation,
    area: Rect,
    message: Option<String>,
}

impl App {
    /// An explorer on `txt`, with the robots of `db` and those the file names.
    #[must_use]
    pub fn new(txt: RobotsTxt, label: String, db: &RobotsDb) -> App {
        let document = Document::new(txt, label);
        let robots = robot_entries(&document.txt, db);
        let robot = robots.iter().position(|entry| entry.profile.token == "Googlebot").unwrap_or(0);
        let mut app = App {
            document,
            robots,
            robot,
            robots_view: ScrollView { cursor: robot, offset: 0 },
            reading_choice: None,
            focus: Pane::Source,
            mode: Mode::Normal,
            source_view: ScrollView::default(),
            records_view: ScrollView::default(),
            path: LineInput::with_text(DEFAULT_PATH),
            // Replaced at once by `reevaluate`; a verdict needs a document to exist.
            evaluation: Evaluation {
                verdict: evaluate(&RobotsTxt::default(), &crate::policy::Robot::from_agent("*"), "/", Reading::Rfc9309),
                allowed_by_reading: [true; 3],
            },
            area: Rect::new(0, 0, 120, 40),
            message: None,
        };
        app.reevaluate();
        app
    }

    /// The explorer on the embedded example.
    #[must_use]
    pub fn example() -> App {
        App::new(RobotsTxt::parse(EXAMPLE.as_bytes().to_vec()), "embedded example".to_owned(), &RobotsDb::embedded())
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
        Areas::new(self.area)
    }

    /// A message for the status bar.
    #[must_use]
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
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
        match action {
            Action::Quit => return vec![Effect::Quit],
            Action::FocusNext => self.set_focus(self.focus.next()),
            Action::FocusPrev => self.set_focus(self.focus.prev()),
            Action::Focus(pane) => self.set_focus(pane),
            Action::Up => self.move_cursor(-1),
            Action::Down => self.move_cursor(1),
            Action::PageUp => self.move_cursor(-self.page()),
            Action::PageDown => self.move_cursor(self.page()),
            Action::Top => self.move_cursor(isize::MIN / 2),
            Action::Bottom => self.move_cursor(isize::MAX / 2),
            Action::NextRobot => self.select_robot((self.robot + 1) % self.robots.len()),
            Action::PrevRobot => self.select_robot((self.robot + self.robots.len() - 1) % self.robots.len()),
            Action::CycleReading => {
                self.reading_choice = Some(self.reading().next());
                self.reevaluate();
            }
            Action::FollowRobotReading => {
                self.reading_choice = None;
                self.reevaluate();
            }
            Action::EditPath => self.set_focus(Pane::Tester),
            Action::PathEdit(edit) => {
                if self.path.apply(edit) {
                    self.reevaluate();
                }
            }
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
            }
            Action::Cancel => self.cancel(),
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
        }
        Vec::new()
    }

    fn typing_mode(&self) -> Mode {
        if self.focus == Pane::Tester { Mode::EditingPath } else { Mode::Normal }
    }

    fn set_focus(&mut self, pane: Pane) {
        self.focus = pane;
        self.mode = self.typing_mode();
    }

    fn cancel(&mut self) {
        match self.mode {
            Mode::EditingPath => self.set_focus(Pane::Source),
            Mode::AddingRobot(_) | Mode::Help => self.mode = self.typing_mode(),
            Mode::Normal => self.message = None,
        }
    }

    fn page(&self) -> isize {
        isize::try_from(self.areas().inner_height(self.focus).saturating_sub(1).max(1)).unwrap_or(1)
    }

    fn move_cursor(&mut self, delta: isize) {
        let height = self.areas().inner_height(self.focus);
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

    fn select_robot(&mut self, index: usize) {
        self.robot = index;
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
        self.message = Some(if existing.is_some() { format!("Selected {name}") } else { format!("Added {name}") });
        self.select_robot(index);
    }

    fn show_record_in_source(&mut self) {
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
        let verdict = evaluate(txt, &robot, path, reading);
        let allowed_by_reading = Reading::ALL
            .map(|other| if other == reading { verdict.allowed } else { evaluate(txt, &robot, path, other).allowed });
        self.evaluation = Evaluation { verdict, allowed_by_reading };
        self.reveal_verdict();
    }

    /// The group of the verdict: the deciding rule's, or else the first that applied.
    fn verdict_group(&self) -> Option<usize> {
        let verdict = &self.evaluation.verdict;
        verdict.decided_by.map(|m| m.group).or_else(|| verdict.selection.groups.first().copied())
    }

    /// The line of the verdict: the deciding line, or else its group's first line.
    fn verdict_line(&self) -> Option<usize> {
        let interpretation = self.document.txt.interpretation(self.reading());
        let verdict = &self.evaluation.verdict;
        verdict
            .decided_by
            .map(|m| m.line)
            .or_else(|| self.verdict_group().map(|g| interpretation.groups[g].first_line()))
    }

    /// Scrolls the deciding line (or else the first group that applied) into view in the
    /// source, and its group into view in the records.
    fn reveal_verdict(&mut self) {
        let reading = self.reading();
        let (group, line) = (self.verdict_group(), self.verdict_line());
        let txt = &self.document.txt;
        let areas = self.areas();
        if let Some(line) = line {
            self.source_view.bring_into_view(line - 1, txt.lines().len(), areas.inner_height(Pane::Source));
        }
        if let Some(group) = group {
            // The deciding rule's row, or else the group's heading.
            let decider = self.evaluation.verdict.decided_by.map(|m| RecordRow::Rule { group, rule: m.rule });
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
/// profile (by their product token as the file writes it).
fn robot_entries(txt: &RobotsTxt, db: &RobotsDb) -> Vec<RobotEntry> {
    let mut entries: Vec<RobotEntry> = db
        .profiles()
        .iter()
        .map(|profile| RobotEntry {
            profile: profile.clone(),
            origin: RobotOrigin::Profile,
            named_in_file: names_token(txt, &profile.token),
        })
        .collect();
    for agent in txt.interpretation(Reading::Rfc9309).groups.iter().flat_map(|group| &group.agents) {
        let token = String::from_utf8_lossy(product_token(txt.text(&agent.value))).into_owned();
        if token.is_empty() || entries.iter().any(|entry| entry.profile.is_named(&token)) {
            continue;
        }
        entries.push(RobotEntry {
            profile: RobotProfile::custom(&token),
            origin: RobotOrigin::NamedInFile,
            named_in_file: true,
        });
    }
    entries
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

    #[test]
    fn quit_is_an_effect() {
        let mut app = App::example();
        assert_eq!(app.update(Action::Quit), vec![Effect::Quit]);
        assert!(app.update(Action::NextRobot).is_empty());
    }
}
