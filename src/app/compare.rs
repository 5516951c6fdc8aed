//! The compare view: paths down, robots (or one robot's three readings) across, a
//! verdict and deciding line in every cell, or one AI usage category's preference
//! (`u`); the columns can be every robot of a purpose (`p`).
//!
//! Columns are compiled once (`Column`); cells are checked only when drawn, so 50
//! robots by 10,000 paths scroll as fast as a handful. The cell under the cursor is
//! evaluated in full: its verdict is what the source and records panes highlight.

use std::collections::HashSet;

use super::{About, Action, App, Effect, Overlay, Pane, RobotEntry};
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
    pub(super) fn from_entry(entry: &RobotEntry) -> CompareRobot {
        CompareRobot { label: entry.profile.name.clone(), profile: Some(entry.profile.clone()) }
    }

    pub(super) fn robot(&self) -> Robot {
        self.profile.as_ref().map_or_else(|| Robot::from_agent("*"), RobotProfile::robot)
    }

    /// The reading it follows by default (RFC 9309 for the `*`-only robot).
    pub(super) fn reading(&self) -> Reading {
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
    pub(super) fn with_default_robots(robots: &[RobotEntry]) -> CompareView {
        let robots = DEFAULT_COMPARISON
            .iter()
            .filter_map(|token| robots.iter().find(|e| e.profile.token == *token))
            .map(CompareRobot::from_entry)
            .chain(std::iter::once(CompareRobot { label: ANY_OTHER_ROBOT.to_owned(), profile: None }))
            .collect();
        CompareView { robots, ..CompareView::default() }
    }

    /// The column of a robot of the switcher, when it is compared.
    fn column_of(&self, entry: &RobotEntry) -> Option<usize> {
        self.robots.iter().position(|robot| robot.profile.as_ref() == Some(&entry.profile))
    }

    /// The robot of a column.
    #[must_use]
    pub fn robot_of_column(&self, column: usize) -> Option<&CompareRobot> {
        self.robots.get(self.readings_of.unwrap_or(column))
    }

    /// A path the tester kept becomes a row, once the rows exist (before the view is
    /// first opened they are made from the tester's history anyway).
    pub(super) fn follow_tested_path(&mut self, path: &str) {
        let path = path.trim();
        if !self.paths.is_empty() && !path.is_empty() {
            self.row_of(path);
        }
    }

    /// The row of `path`, added at the end if it has none.
    fn row_of(&mut self, path: &str) -> usize {
        self.paths.iter().position(|p| p == path).unwrap_or_else(|| {
            self.paths.push(path.to_owned());
            self.longest_path = self.longest_path.max(path.chars().count());
            self.paths.len() - 1
        })
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
    pub(super) fn set_paths(&mut self, paths: Vec<String>) {
        self.longest_path = paths.iter().map(|p| p.chars().count()).max().unwrap_or(0);
        self.paths = paths;
    }
}

impl App {
    /// The compare view, when it is open.
    #[must_use]
    pub fn compare(&self) -> Option<&CompareView> {
        Some(&self.compare).filter(|_| self.overlay == Some(Overlay::Compare))
    }

    /// Whether a robot of the switcher is among the compared robots (open or not).
    #[must_use]
    pub fn is_compared(&self, entry: &RobotEntry) -> bool {
        self.compare.column_of(entry).is_some()
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
        self.shown_verdict().reading
    }

    /// Opens the compare view: the default robots and the file's paths the first time,
    /// as it was left after that.
    pub(super) fn open_compare(&mut self) {
        if self.compare.paths.is_empty() {
            let paths = self.default_compare_paths();
            self.compare.set_paths(paths);
        }
        self.editor = None;
        self.focus = Pane::Source;
        // The columns are compiled as the view opens (`rebuild_columns` needs it open).
        self.overlay = Some(Overlay::Compare);
        self.rebuild_columns();
    }

    /// The tester's paths, then the paths the file's rules name (at most
    /// [`DEFAULT_ROWS`] of those, with a word when more were left out).
    pub(super) fn default_compare_paths(&mut self) -> Vec<String> {
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

    /// Compiles the columns again (robots, readings or the text changed).
    pub(super) fn rebuild_columns(&mut self) {
        if self.compare().is_none() {
            return;
        }
        let view = &mut self.compare;
        let txt = &self.document.txt;
        let reading_of = |robot: &CompareRobot| self.reading_choice.unwrap_or_else(|| robot.reading());
        view.columns = match view.readings_of.and_then(|i| view.robots.get(i)) {
            Some(robot) => Column::all(txt, Reading::ALL.map(|reading| (robot.label.clone(), robot.robot(), reading))),
            None => Column::all(
                txt,
                view.robots.iter().map(|robot| (robot.label.clone(), robot.robot(), reading_of(robot))),
            ),
        };
        let (rows, columns) = (view.paths.len(), view.columns.len());
        view.cursor = (view.cursor.0.min(rows.saturating_sub(1)), view.cursor.1.min(columns.saturating_sub(1)));
        // Fewer columns than before (a robot's three readings after scrolling right
        // through many robots): the cursor's column stays in view.
        view.offset.1 = view.offset.1.min(view.cursor.1);
        self.move_compare(0, 0);
    }

    /// Evaluates the cursor's cell in full and brings its deciding line into view.
    fn update_compare_detail(&mut self) {
        let view = &mut self.compare;
        let (row, column) = view.cursor;
        let availability = self.document.availability;
        (view.detail, view.detail_usage) = match (view.paths.get(row), view.columns.get(column)) {
            (Some(path), Some(column)) => {
                let tested = Request::read(path).tested;
                let verdict =
                    evaluate_fetched(&self.document.txt, availability, &column.robot, &tested, column.reading);
                let usage = column.usage(availability, column.check(availability, &tested), &tested);
                (Some(verdict), Some(usage))
            }
            _ => (None, None),
        };
        self.reveal_verdict();
    }

    /// Moves the compare cursor by rows and columns, keeping it on screen.
    pub(super) fn move_compare(&mut self, rows: isize, columns: isize) {
        let areas = self.areas();
        let view = &mut self.compare;
        let (row_count, column_count) = (view.paths.len(), view.columns.len());
        view.cursor.0 = view.cursor.0.saturating_add_signed(rows).min(row_count.saturating_sub(1));
        view.cursor.1 = view.cursor.1.saturating_add_signed(columns).min(column_count.saturating_sub(1));
        let height = areas.compare_rows();
        if view.cursor.0 < view.offset.0 {
            view.offset.0 = view.cursor.0;
        } else if view.cursor.0 >= view.offset.0 + height {
            view.offset.0 = view.cursor.0 + 1 - height;
        }
        let visible_columns = areas.compare_columns(view.longest_path);
        if view.cursor.1 < view.offset.1 {
            view.offset.1 = view.cursor.1;
        } else if view.cursor.1 >= view.offset.1 + visible_columns {
            view.offset.1 = view.cursor.1 + 1 - visible_columns;
        }
        self.update_compare_detail();
    }

    /// Adds a robot column (from the add-robot prompt).
    pub(super) fn add_compare_robot(&mut self, index: usize) {
        let robot = CompareRobot::from_entry(&self.robots[index]);
        let view = &mut self.compare;
        // A robot already compared: the cursor goes to its column.
        view.cursor.1 = view.robots.iter().position(|r| *r == robot).unwrap_or_else(|| {
            view.robots.push(robot);
            view.keep_robots();
            view.robots.len() - 1
        });
        view.readings_of = None;
        self.rebuild_columns();
    }

    /// Puts the selected robot among the compared ones, or takes it out (the last one
    /// stays: a view needs a column).
    fn toggle_compared_robot(&mut self) {
        let entry = &self.robots[self.robot];
        let name = entry.profile.name.clone();
        let view = &mut self.compare;
        let message = if let Some(column) = view.column_of(entry) {
            if view.robots.len() == 1 {
                format!("{name} is the only robot compared; add another first")
            } else {
                view.robots.remove(column);
                format!("{name} leaves the compare view ({} robots)", view.robots.len())
            }
        } else {
            view.robots.push(CompareRobot::from_entry(entry));
            format!("{name} joins the compare view ({} robots)", view.robots.len())
        };
        view.keep_robots();
        view.readings_of = None;
        self.say(About::Moment, message);
    }

    /// Adds a path row (from the path prompt) and puts the cursor on it.
    pub(super) fn add_compare_path(&mut self, path: &str) {
        let view = &mut self.compare;
        if !path.is_empty() {
            view.cursor.0 = view.row_of(path);
        }
        self.move_compare(0, 0);
    }

    /// Makes every robot of the next purpose the columns (AI training crawlers first),
    /// showing the usage category that purpose is about; after the last purpose, the
    /// robots and category the view had before.
    fn cycle_purpose(&mut self) {
        let entries = &self.robots;
        let has_robots = |purpose: &Purpose| entries.iter().any(|e| e.profile.purpose == *purpose);
        let view = &mut self.compare;
        let after =
            view.purpose.and_then(|current| PURPOSE_CYCLE.iter().position(|p| *p == current)).map_or(0, |i| i + 1);
        let message = if let Some(purpose) = PURPOSE_CYCLE[after..].iter().copied().find(has_robots) {
            if view.before_purpose.is_none() {
                view.before_purpose = Some((view.robots.clone(), view.usage));
            }
            // The robots that read usage preferences (RFC 9309 by default) first: a
            // purpose's 1990s robots would fill the view with "not read".
            let mut robots: Vec<&RobotEntry> = entries.iter().filter(|e| e.profile.purpose == purpose).collect();
            robots.sort_by_key(|e| e.profile.reading != Reading::Rfc9309);
            view.robots = robots.into_iter().map(CompareRobot::from_entry).collect();
            view.usage = category_of(purpose);
            view.purpose = Some(purpose);
            let shown = view.usage.map_or_else(|| "the crawl verdict".to_owned(), |c| format!("the {c} preference"));
            format!(
                "Robots of purpose {} ({}), cells show {shown}; p: next purpose, u: another category",
                purpose.name(),
                view.robots.len()
            )
        } else {
            if let Some((robots, usage)) = view.before_purpose.take() {
                (view.robots, view.usage) = (robots, usage);
            }
            view.purpose = None;
            format!("The robots you chose ({})", view.robots.len())
        };
        view.readings_of = None;
        view.cursor.1 = 0;
        view.offset.1 = 0;
        self.say(About::Moment, message);
        self.rebuild_columns();
    }

    /// Replaces the rows with paths read from a file.
    fn paths_loaded(&mut self, file: &str, result: Result<Vec<String>, String>) {
        match result {
            Ok(paths) if paths.is_empty() => self.say(About::Moment, format!("{file} holds no paths")),
            Ok(paths) => {
                self.say(About::Moment, format!("{} from {file}", plural(paths.len(), "path")));
                let view = &mut self.compare;
                view.set_paths(paths);
                view.cursor.0 = 0;
                view.offset.0 = 0;
                self.update_compare_detail();
            }
            Err(error) => self.say(About::Moment, format!("Cannot read paths from {file}: {error}")),
        }
    }

    /// Handles the compare view's actions; gives the others back.
    pub(super) fn update_compare(&mut self, action: Action) -> Result<Vec<Effect>, Action> {
        let in_view = self.compare().is_some();
        match action {
            Action::ToggleComparedRobot => self.toggle_compared_robot(),
            Action::Left if in_view => self.move_compare(0, -1),
            Action::Right if in_view => self.move_compare(0, 1),
            Action::ToggleReadingColumns if in_view => {
                // Back to robot columns on the robot whose readings were shown, or out
                // to that robot's readings.
                let view = &mut self.compare;
                if let Some(robot) = view.readings_of.take() {
                    view.cursor.1 = robot;
                } else {
                    view.readings_of = Some(view.cursor.1);
                    view.cursor.1 = 0;
                }
                self.rebuild_columns();
            }
            Action::RemoveCompareColumn if in_view => {
                let view = &mut self.compare;
                if view.readings_of.is_none() && view.robots.len() > 1 {
                    view.robots.remove(view.cursor.1);
                    view.keep_robots();
                }
                self.rebuild_columns();
            }
            Action::CycleCompareUsage if in_view => {
                self.compare.cycle_usage();
                let message = match self.compare.usage {
                    Some(category) => format!(
                        "Cells show the {category} preference: what a robot that may fetch the path may do with it"
                    ),
                    None => "Cells show the crawl verdict".to_owned(),
                };
                self.say(About::Moment, message);
                self.update_compare_detail();
            }
            Action::CycleComparePurpose if in_view => self.cycle_purpose(),
            Action::PathsRead { file, result } => self.paths_loaded(&file.display().to_string(), result),
            other => return Err(other),
        }
        Ok(Vec::new())
    }
}
