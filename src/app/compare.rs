//! The compare view: paths down, robots (or one robot's three readings) across, a
//! verdict and deciding line in every cell.
//!
//! Columns are compiled once (`Column`); cells are checked only when drawn, so 50
//! robots by 10,000 paths scroll as fast as a handful. The cell under the cursor is
//! evaluated in full: its verdict is what the source and records panes highlight.

use std::collections::HashSet;

use super::{About, Action, App, Effect, Overlay, Pane, RobotEntry};
use crate::policy::compare::{Column, DEFAULT_ROWS, paths_named_in};
use crate::policy::request::Request;
use crate::policy::words::plural;
use crate::policy::{Reading, Robot, Verdict, evaluate_fetched};
use crate::robots_db::{DEFAULT_COMPARISON, RobotProfile};

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
        self.update_compare_detail();
    }

    /// Evaluates the cursor's cell in full and brings its deciding line into view.
    fn update_compare_detail(&mut self) {
        let view = &mut self.compare;
        let (row, column) = view.cursor;
        view.detail = match (view.paths.get(row), view.columns.get(column)) {
            (Some(path), Some(column)) => Some(evaluate_fetched(
                &self.document.txt,
                self.document.availability,
                &column.robot,
                &Request::read(path).tested,
                column.reading,
            )),
            _ => None,
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
        if !view.robots.contains(&robot) {
            view.robots.push(robot);
        }
        view.readings_of = None;
        view.cursor.1 = view.robots.len() - 1;
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
                }
                self.rebuild_columns();
            }
            Action::PathsRead { file, result } => self.paths_loaded(&file.display().to_string(), result),
            other => return Err(other),
        }
        Ok(Vec::new())
    }
}
