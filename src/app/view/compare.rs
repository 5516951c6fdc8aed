//! The compare view: paths down, robots (or one robot's three readings) across, a
//! verdict and deciding line in every cell, or one AI usage category's preference
//! (`u`); the columns can be every robot of a purpose (`p`).
//!
//! Columns are compiled once (`Column`); cells are checked only when drawn, so 50
//! robots by 10,000 paths scroll as fast as a handful. The cell under the cursor is
//! evaluated in full: its verdict is what the source and records panes highlight.

use std::collections::HashSet;

use ratatui::layout::Rect;

use super::{Context, Reply, View, movement};
use crate::app::{About, Action, App, Areas, Effect, Overlay, Pane, RobotEntry};
use crate::columns::{Column, DEFAULT_ROWS, paths_named_in};
use crate::policy::request::Request;
use crate::policy::usage::{Category, UsageAnswer};
use crate::policy::{Reading, Robot, Verdict, evaluate_fetched};
use crate::robots_db::{DEFAULT_COMPARISON, Purpose, RobotProfile};
use crate::words::plural;

/// The order `p` goes through purposes: the AI ones first, since "which AI training
/// crawlers may crawl this, and may they train on it?" is the question asked most.
const PURPOSE_CYCLE: [Purpose; 8] = [
    Purpose::AiTraining,
    Purpose::AiSearch,
    Purpose::AiAssistant,
    Purpose::Search,
    Purpose::Archive,
    Purpose::Seo,
    Purpose::Preview,
    Purpose::Other,
];

/// The usage category that answers what robots of a purpose do with a page: AI
/// training crawlers train, AI search and assistants use it as AI input, search
/// engines index it. Other purposes have none.
fn category_of(purpose: Purpose) -> Option<Category> {
    match purpose {
        Purpose::AiTraining => Some(Category::TrainAi),
        Purpose::AiSearch | Purpose::AiAssistant => Some(Category::AiInput),
        Purpose::Search => Some(Category::Search),
        _ => None,
    }
}

/// The label of the robot no group names.
pub const ANY_OTHER_ROBOT: &str = "* (any other)";

/// A robot the view compares: a profile from the switcher, or the `*`-only robot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompareRobot {
    /// The header.
    pub label: String,
    /// The profile, when the robot has one.
    pub profile: Option<RobotProfile>,
}

impl CompareRobot {
    pub(in crate::app) fn from_entry(entry: &RobotEntry) -> CompareRobot {
        CompareRobot { label: entry.profile.name.clone(), profile: Some(entry.profile.clone()) }
    }

    pub(in crate::app) fn robot(&self) -> Robot {
        self.profile.as_ref().map_or_else(|| Robot::from_agent("*"), RobotProfile::robot)
    }

    /// The reading it follows by default (RFC 9309 for the `*`-only robot).
    pub(in crate::app) fn reading(&self) -> Reading {
        self.profile.as_ref().map_or(Reading::Rfc9309, |p| p.reading)
    }
}

/// The compare view's state.
#[derive(Debug, Clone, Default)]
pub struct CompareView {
    /// The robots compared.
    pub robots: Vec<CompareRobot>,
    /// The paths, one per row.
    pub paths: Vec<String>,
    /// The compiled columns (robots, or one robot's readings).
    pub columns: Vec<Column>,
    /// When set, the columns are this robot's three readings.
    pub readings_of: Option<usize>,
    /// The cursor: row and column.
    pub cursor: (usize, usize),
    /// The first row and column shown.
    pub offset: (usize, usize),
    /// The full verdict of the cell under the cursor.
    pub detail: Option<Verdict>,
    /// The usage preferences of the cell under the cursor (RFC 9309 only).
    pub detail_usage: Option<UsageAnswer>,
    /// The usage category the cells show instead of the crawl verdict (`u`).
    pub usage: Option<Category>,
    /// The purpose whose robots are the columns (`p`).
    pub purpose: Option<Purpose>,
    /// The robots and the category shown before a purpose chose the columns, to come
    /// back to.
    before_purpose: Option<(Vec<CompareRobot>, Option<Category>)>,
    /// The longest path's length in characters, for the path column's width.
    pub longest_path: usize,
}

impl CompareView {
    /// The view before it is first opened: the default robots of the switcher's list
    /// and the `*`-only robot; the rows come when it opens.
    pub(in crate::app) fn with_default_robots(robots: &[RobotEntry]) -> CompareView {
        let robots = DEFAULT_COMPARISON
            .iter()
            .filter_map(|token| robots.iter().find(|e| e.profile.token == *token))
            .map(CompareRobot::from_entry)
            .chain(std::iter::once(CompareRobot { label: ANY_OTHER_ROBOT.to_owned(), profile: None }))
            .collect();
        CompareView { robots, ..CompareView::default() }
    }

    /// The robot of a column.
    #[must_use]
    pub fn robot_of_column(&self, column: usize) -> Option<&CompareRobot> {
        self.robots.get(self.readings_of.unwrap_or(column))
    }

    /// The row of `path`, added at the end if it has none.
    fn row_of(&mut self, path: &str) -> usize {
        self.paths.iter().position(|p| p == path).unwrap_or_else(|| {
            self.paths.push(path.to_owned());
            self.longest_path = self.longest_path.max(path.chars().count());
            self.paths.len() - 1
        })
    }

    /// Closing: a purpose's robots were a lens on the view (`p`), not the user's choice;
    /// the robots and category chosen before come back, so that what the other views
    /// compare (the sitemaps, the robots pane's marks) is not changed by a look at a
    /// purpose (issue 35).
    pub(in crate::app) fn leave_purpose(&mut self) {
        if let Some((robots, usage)) = self.before_purpose.take() {
            self.robots = robots;
            self.usage = usage;
            self.purpose = None;
        }
    }

    /// The robots compared become the user's own choice: a purpose no longer chooses
    /// them (a robot was added or removed by hand).
    fn keep_robots(&mut self) {
        self.purpose = None;
        self.before_purpose = None;
    }

    /// Shows the next usage category in the cells: the crawl verdict, then `train-ai`,
    /// `search`, `ai-input`, then the verdict again.
    fn cycle_usage(&mut self) {
        self.usage = match self.usage {
            None => Some(Category::ALL[0]),
            Some(category) => Category::ALL.iter().skip_while(|c| **c != category).nth(1).copied(),
        };
    }

    /// Replaces the rows.
    pub(in crate::app) fn set_paths(&mut self, paths: Vec<String>) {
        self.longest_path = paths.iter().map(|p| p.chars().count()).max().unwrap_or(0);
        self.paths = paths;
    }
}

impl CompareView {
    /// Compiles the columns again (robots, readings or the text changed).
    fn rebuild(&mut self, context: &mut Context) {
        let app = context.app;
        let txt = &app.document.txt;
        let reading_of = |robot: &CompareRobot| app.reading_choice.unwrap_or_else(|| robot.reading());
        self.columns = match self.readings_of.and_then(|i| self.robots.get(i)) {
            Some(robot) => Column::all(txt, Reading::ALL.map(|reading| (robot.label.clone(), robot.robot(), reading))),
            None => Column::all(
                txt,
                self.robots.iter().map(|robot| (robot.label.clone(), robot.robot(), reading_of(robot))),
            ),
        };
        let (rows, columns) = (self.paths.len(), self.columns.len());
        self.cursor = (self.cursor.0.min(rows.saturating_sub(1)), self.cursor.1.min(columns.saturating_sub(1)));
        // Fewer columns than before (a robot's three readings after scrolling right
        // through many robots): the cursor's column stays in view.
        self.offset.1 = self.offset.1.min(self.cursor.1);
        self.move_by(0, 0, context);
    }

    /// Evaluates the cursor's cell in full and asks for its deciding line to be brought
    /// into view.
    fn evaluate_cursor(&mut self, context: &mut Context) {
        let app = context.app;
        let (row, column) = self.cursor;
        let availability = app.document.availability;
        (self.detail, self.detail_usage) = match (self.paths.get(row), self.columns.get(column)) {
            (Some(path), Some(column)) => {
                let tested = Request::read(path).into_tested();
                let verdict = evaluate_fetched(&app.document.txt, availability, &column.robot, &tested, column.reading);
                let usage = column.usage(availability, column.check(availability, &tested), &tested);
                (Some(verdict), Some(usage))
            }
            _ => (None, None),
        };
        context.reveal_verdict();
    }

    /// Moves the cursor by rows and columns, keeping it on screen.
    fn move_by(&mut self, rows: isize, columns: isize, context: &mut Context) {
        let (row_count, column_count) = (self.paths.len(), self.columns.len());
        self.cursor.0 = self.cursor.0.saturating_add_signed(rows).min(row_count.saturating_sub(1));
        self.cursor.1 = self.cursor.1.saturating_add_signed(columns).min(column_count.saturating_sub(1));
        self.keep_cursor_in_view(&compare_areas(context.app));
        self.evaluate_cursor(context);
    }

    /// Scrolls so that the cursor's cell shows in `areas`' matrix.
    fn keep_cursor_in_view(&mut self, areas: &Areas) {
        let height = areas.compare_rows();
        if self.cursor.0 < self.offset.0 {
            self.offset.0 = self.cursor.0;
        } else if self.cursor.0 >= self.offset.0 + height {
            self.offset.0 = self.cursor.0 + 1 - height;
        }
        let visible_columns = areas.compare_columns(self.longest_path);
        if self.cursor.1 < self.offset.1 {
            self.offset.1 = self.cursor.1;
        } else if self.cursor.1 >= self.offset.1 + visible_columns {
            self.offset.1 = self.cursor.1 + 1 - visible_columns;
        }
    }

    /// Adds a robot column and puts the cursor on it (on its column, when it is
    /// compared already).
    fn add_robot(&mut self, robot: CompareRobot, context: &mut Context) {
        self.cursor.1 = self.robots.iter().position(|r| *r == robot).unwrap_or_else(|| {
            self.robots.push(robot);
            self.keep_robots();
            self.robots.len() - 1
        });
        self.readings_of = None;
        self.rebuild(context);
    }

    /// Makes every robot of the next purpose the columns (AI training crawlers first),
    /// showing the usage category that purpose is about; after the last purpose, the
    /// robots and category the view had before.
    fn cycle_purpose(&mut self, context: &mut Context) {
        let entries = &context.app.robots;
        let has_robots = |purpose: &Purpose| entries.iter().any(|e| e.profile.serves(*purpose));
        let after =
            self.purpose.and_then(|current| PURPOSE_CYCLE.iter().position(|p| *p == current)).map_or(0, |i| i + 1);
        let message = if let Some(purpose) = PURPOSE_CYCLE[after..].iter().copied().find(has_robots) {
            if self.before_purpose.is_none() {
                self.before_purpose = Some((self.robots.clone(), self.usage));
            }
            // The robots that read usage preferences (RFC 9309 by default) first: a
            // purpose's 1990s robots would fill the view with "not read".
            let mut robots: Vec<&RobotEntry> = entries.iter().filter(|e| e.profile.serves(purpose)).collect();
            robots.sort_by_key(|e| e.profile.reading != Reading::Rfc9309);
            self.robots = robots.into_iter().map(CompareRobot::from_entry).collect();
            self.usage = category_of(purpose);
            self.purpose = Some(purpose);
            let shown = self.usage.map_or_else(|| "the crawl verdict".to_owned(), |c| format!("the {c} preference"));
            format!(
                "Robots of purpose {} ({}), cells show {shown}; p: next purpose, u: another category",
                purpose.name(),
                self.robots.len()
            )
        } else {
            if let Some((robots, usage)) = self.before_purpose.take() {
                (self.robots, self.usage) = (robots, usage);
            }
            self.purpose = None;
            format!("The robots you chose ({})", self.robots.len())
        };
        self.readings_of = None;
        self.cursor.1 = 0;
        self.offset.1 = 0;
        context.say(About::Moment, message);
        self.rebuild(context);
    }

    /// Replaces the rows with paths read from a file.
    fn paths_loaded(&mut self, file: &str, result: Result<Vec<String>, String>, context: &mut Context) {
        match result {
            Ok(paths) if paths.is_empty() => context.say(About::Moment, format!("{file} holds no paths")),
            Ok(paths) => {
                context.say(About::Moment, format!("{} from {file}", plural(paths.len(), "path")));
                self.set_paths(paths);
                self.cursor.0 = 0;
                self.offset.0 = 0;
                self.evaluate_cursor(context);
            }
            Err(error) => context.say(About::Moment, format!("Cannot read paths from {file}: {error}")),
        }
    }

    /// The view's answer to an action: its keys, moving across cells, the paths read
    /// from a file. It reads the app and asks it for what it wants said or shown.
    pub(super) fn update(&mut self, action: Action, context: &mut Context) -> Reply {
        match action {
            Action::Left => self.move_by(0, -1, context),
            Action::Right => self.move_by(0, 1, context),
            Action::ToggleReadingColumns => {
                // Back to robot columns on the robot whose readings were shown, or out
                // to that robot's readings.
                if let Some(robot) = self.readings_of.take() {
                    self.cursor.1 = robot;
                } else {
                    self.readings_of = Some(self.cursor.1);
                    self.cursor.1 = 0;
                }
                self.rebuild(context);
            }
            Action::RemoveCompareColumn => {
                if self.readings_of.is_none() && self.robots.len() > 1 {
                    self.robots.remove(self.cursor.1);
                    self.keep_robots();
                }
                self.rebuild(context);
            }
            Action::CycleCompareUsage => {
                self.cycle_usage();
                let message = match self.usage {
                    Some(category) => format!(
                        "Cells show the {category} preference: what a robot that may fetch the path may do with it"
                    ),
                    None => "Cells show the crawl verdict".to_owned(),
                };
                context.say(About::Moment, message);
                self.evaluate_cursor(context);
            }
            Action::CycleComparePurpose => self.cycle_purpose(context),
            Action::PathsRead { file, result } => self.paths_loaded(&file.display().to_string(), result, context),
            // The cursor's cell stays in view in the new size; the app lays itself out
            // next.
            Action::Resize { width, height } => {
                self.keep_cursor_in_view(&Areas::layout(Rect::new(0, 0, width, height), true));
                return Reply::Pass(action);
            }
            action => match movement(&action, compare_areas(context.app).compare_rows()) {
                Some(delta) => self.move_by(delta, 0, context),
                None => return Reply::Pass(action),
            },
        }
        Reply::done()
    }
}

/// The panes as the compare view lays them out.
fn compare_areas(app: &App) -> Areas {
    Areas::layout(app.area, true)
}

impl App {
    /// The compare view, when it is open.
    #[must_use]
    pub fn compare(&self) -> Option<&CompareView> {
        match &self.view {
            Some(View::Compare(view)) => Some(view),
            _ => None,
        }
    }

    /// The robots the compare view compares (open or not): the page policy and the
    /// sitemaps view answer for them too.
    pub(in crate::app) fn compared_robots(&self) -> &[CompareRobot] {
        match self.view_of(Overlay::Compare) {
            Some(View::Compare(view)) => &view.robots,
            _ => &[],
        }
    }

    /// The compare view's state, open or not.
    fn compare_state_mut(&mut self) -> Option<&mut CompareView> {
        match self.view_of_mut(Overlay::Compare) {
            Some(View::Compare(view)) => Some(view),
            _ => None,
        }
    }

    /// Runs `change` on the open compare view, which reads the app, then does what it
    /// asked.
    fn with_open_compare(&mut self, change: impl FnOnce(&mut CompareView, &mut Context)) {
        match self.view.take() {
            Some(View::Compare(mut view)) => {
                let mut context = Context::new(self);
                change(&mut view, &mut context);
                let asks = context.into_asks();
                self.view = Some(View::Compare(view));
                self.grant(asks);
            }
            other => self.view = other,
        }
    }

    /// Whether a robot of the switcher is among the compared robots (open or not).
    #[must_use]
    pub fn is_compared(&self, entry: &RobotEntry) -> bool {
        column_of(self.compared_robots(), entry).is_some()
    }

    /// The verdict the source and records panes highlight: the compare cursor's cell,
    /// or the tester's.
    #[must_use]
    pub fn shown_verdict(&self) -> &Verdict {
        self.compare().and_then(|c| c.detail.as_ref()).unwrap_or(&self.evaluation.verdict)
    }

    /// The lines that state the usage preferences shown, for the source pane: the
    /// compare cell's (only its category's when the cells show one), or the tester's.
    #[must_use]
    pub fn shown_usage_lines(&self) -> Vec<usize> {
        let (usage, category) = match self.compare() {
            Some(view) => (view.detail_usage.as_ref(), view.usage),
            None => (self.evaluation.usage.as_ref(), None),
        };
        match (usage, category) {
            (Some(UsageAnswer::Stated(usage)), Some(category)) => usage.get(category).lines().to_vec(),
            (Some(UsageAnswer::Stated(usage)), None) => usage.lines(),
            _ => Vec::new(),
        }
    }

    /// The reading of the shown verdict.
    #[must_use]
    pub fn shown_reading(&self) -> Reading {
        self.shown_verdict().reading()
    }

    /// Opens the compare view: the default robots and the file's paths the first time,
    /// as it was left after that.
    pub(in crate::app) fn open_compare(&mut self) -> Vec<Effect> {
        let mut view = match self.shelf.take(Overlay::Compare) {
            Some(View::Compare(view)) => view,
            _ => Box::new(CompareView::with_default_robots(&self.robots)),
        };
        if view.paths.is_empty() {
            view.set_paths(self.default_compare_paths());
        }
        self.editor = None;
        self.focus = Pane::Source;
        let effects = self.show(View::Compare(view));
        self.rebuild_columns();
        effects
    }

    /// The tester's paths, then the paths the file's rules name (at most
    /// [`DEFAULT_ROWS`] of those, with a word when more were left out).
    pub(in crate::app) fn default_compare_paths(&mut self) -> Vec<String> {
        let mut paths: Vec<String> = self.path.history().to_vec();
        if !paths.contains(&self.path.text().to_owned()) && !self.path.text().trim().is_empty() {
            paths.push(self.path.text().to_owned());
        }
        // A set, not `paths.contains`: a file of 47,000 rules names 47,000 paths.
        let mut seen: HashSet<String> = paths.iter().cloned().collect();
        let (named, left_out) = paths_named_in(&self.document.txt, DEFAULT_ROWS);
        for path in named {
            if seen.insert(path.clone()) {
                paths.push(path);
            }
        }
        if left_out {
            let message = format!("Rows: the first {DEFAULT_ROWS} paths the rules name; / adds a path, L reads a file");
            self.say(About::Text, message);
        }
        if paths.is_empty() {
            paths.push("/".to_owned());
        }
        paths
    }

    /// Compiles the open view's columns again (robots, readings or the text changed).
    pub(in crate::app) fn rebuild_columns(&mut self) {
        self.with_open_compare(CompareView::rebuild);
    }

    /// The rows follow a path the tester kept, once they exist (before the view is
    /// first opened they are made from the tester's history anyway).
    pub(in crate::app) fn follow_tested_path(&mut self, path: &str) {
        let path = path.trim();
        if let Some(view) = self.compare_state_mut()
            && !view.paths.is_empty()
            && !path.is_empty()
        {
            view.row_of(path);
        }
    }

    /// A new file, new rules: the default rows are its paths (made now when the view is
    /// open, else when it opens).
    pub(in crate::app) fn reset_compare_rows(&mut self) {
        if let Some(view) = self.compare_state_mut() {
            view.set_paths(Vec::new());
            view.cursor.0 = 0;
            view.offset.0 = 0;
        }
        if self.compare().is_some() {
            let paths = self.default_compare_paths();
            self.with_open_compare(|view, context| {
                view.set_paths(paths);
                view.rebuild(context);
            });
        }
    }

    /// The given paths become the rows, and the view opens on the first.
    pub(in crate::app) fn compare_paths(&mut self, paths: Vec<String>) -> Vec<Effect> {
        if let Some(view) = self.compare_state_mut() {
            view.set_paths(paths);
            view.cursor.0 = 0;
            view.offset.0 = 0;
        }
        self.open_compare()
    }

    /// Adds a robot column (from the add-robot prompt).
    pub(in crate::app) fn add_compare_robot(&mut self, index: usize) {
        let robot = CompareRobot::from_entry(&self.robots[index]);
        self.with_open_compare(|view, context| view.add_robot(robot, context));
    }

    /// Puts the selected robot among the compared ones, or takes it out (the last one
    /// stays: a view needs a column).
    pub(in crate::app) fn toggle_compared_robot(&mut self) {
        let entry = self.robots[self.robot].clone();
        let name = entry.profile.name.clone();
        let Some(view) = self.compare_state_mut() else { return };
        let message = if let Some(column) = column_of(&view.robots, &entry) {
            if view.robots.len() == 1 {
                format!("{name} is the only robot compared; add another first")
            } else {
                view.robots.remove(column);
                format!("{name} leaves the compare view ({} robots)", view.robots.len())
            }
        } else {
            view.robots.push(CompareRobot::from_entry(&entry));
            format!("{name} joins the compare view ({} robots)", view.robots.len())
        };
        view.keep_robots();
        view.readings_of = None;
        self.say(About::Moment, message);
    }

    /// Adds a path row (from the path prompt) and puts the cursor on it.
    pub(in crate::app) fn add_compare_path(&mut self, path: &str) {
        self.with_open_compare(|view, context| {
            if !path.is_empty() {
                view.cursor.0 = view.row_of(path);
            }
            view.move_by(0, 0, context);
        });
    }

    /// Closing the view: the tester's verdict is the one shown again.
    pub(in crate::app) fn after_compare_closes(&mut self) {
        self.reveal_verdict();
    }
}

/// The column of a robot of the switcher among `robots`, when it is compared.
fn column_of(robots: &[CompareRobot], entry: &RobotEntry) -> Option<usize> {
    robots.iter().position(|robot| robot.profile.as_ref() == Some(&entry.profile))
}
