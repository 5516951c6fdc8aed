//! The compare view: paths down, robots (or one robot's readings) across. Each cell
//! shows the verdict and the deciding line; rows where the columns disagree are marked
//! and their odd cells stand out; the rows above the paths sum up what each robot gets.
//! Only the visible rows are checked, with the columns' compiled rules.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

use super::text::{cut_start, safe_span};
use super::theme::THEME;
use super::{fitted_title, pane_block};
use crate::app::App;
use crate::app::compare::CompareView;
use crate::app::layout::{COMPARE_CELL_WIDTH, COMPARE_HEADER_ROWS};
use crate::policy::Availability;
use crate::policy::compiled::Decision;
use crate::policy::request::Request;
use crate::policy::words::plural;

/// The compare matrix.
#[derive(Debug)]
pub struct CompareMatrix<'a> {
    /// The state to draw.
    pub app: &'a App,
    /// The view (open).
    pub view: &'a CompareView,
}

/// `text` cut to `width` characters (keeping one column free), padded to it.
fn fit(text: &str, width: usize) -> String {
    let cut: String = text.chars().take(width.saturating_sub(1)).collect();
    format!("{cut:<width$}")
}

/// A path cut to `width` characters keeping its end (paths that differ only at the end
/// still look different), padded to it.
fn fit_path(path: &str, width: usize) -> String {
    let cut = cut_start(path, width.saturating_sub(1));
    format!("{cut:<width$}")
}

fn cell_text(decision: Decision) -> String {
    let mark = if decision.allowed { "✓" } else { "✗" };
    match decision.rule {
        Some(rule) => format!("{mark} {}", rule.line),
        None => format!("{mark} —"),
    }
}

impl Widget for CompareMatrix<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let (app, view) = (self.app, self.view);
        let txt = &app.document().txt;
        let availability = app.document().availability;
        // One robot's readings: its name goes in the title, each column is a reading.
        let robot_of_readings = view.readings_of.and_then(|_| view.robot_of_column(0));
        let what = match robot_of_readings {
            Some(robot) => format!("{}'s {} readings", robot.label, view.columns.len()),
            None => format!("{} robots", view.columns.len()),
        };
        let areas = app.areas();
        let first_column = view.offset.1;
        let shown: Vec<usize> =
            (first_column..view.columns.len()).take(areas.compare_columns(view.longest_path)).collect();
        // When the columns do not all fit, say which ones show (h/l scrolls).
        let range = match (shown.first(), shown.last()) {
            (Some(first), Some(last)) if shown.len() < view.columns.len() => {
                format!(" ({}–{} shown)", first + 1, last + 1)
            }
            _ => String::new(),
        };
        let counts = format!("{what} × {}", plural(view.paths.len(), "path"));
        let range = range.trim();
        let title = fitted_title(
            &[
                "Compare",
                &counts,
                range,
                "Esc leaves",
                "? keys",
                "h/l j/k move",
                "a/x robots",
                "/ L paths",
                "m readings",
            ],
            area.width,
        );
        let block = pane_block(&title, true);
        let inner = block.inner(area);
        block.render(area, buf);
        let path_width = usize::from(areas.compare_path_width(view.longest_path));
        let cell = usize::from(COMPARE_CELL_WIDTH);
        let x_of = |i: usize| inner.x + 2 + path_width as u16 + ((i - first_column) * cell) as u16;

        // Header: the columns' names, then the summary rows.
        let labels = ["", "group", "rules", "delay", "/"];
        for (row, label) in labels.iter().enumerate() {
            buf.set_string(inner.x + 2, inner.y + row as u16, fit(label, path_width), THEME.dim);
        }
        for &i in &shown {
            let column = &view.columns[i];
            let header = if robot_of_readings.is_some() { column.reading.name() } else { column.label.as_str() };
            let style = if i == view.cursor.1 { THEME.selected } else { THEME.title };
            buf.set_line(
                x_of(i),
                inner.y,
                &Line::from(safe_span(&fit(header, cell), style, THEME.escape)),
                COMPARE_CELL_WIDTH,
            );
            let summary = column.summary(txt, availability);
            let group = view.columns[i].summary_group_short(txt);
            let delay =
                summary.crawl_delay.clone().or_else(|| summary.request_rate.clone()).unwrap_or_else(|| "—".to_owned());
            let slash = if summary.shut_out { ("closed", THEME.disallowed) } else { ("open", THEME.allowed) };
            let cells = [
                (group, THEME.value),
                (summary.rules.to_string(), THEME.value),
                (delay, THEME.value),
                (slash.0.to_owned(), slash.1),
            ];
            for (row, (text, style)) in cells.iter().enumerate() {
                buf.set_line(
                    x_of(i),
                    inner.y + 1 + row as u16,
                    &Line::from(safe_span(&fit(text, cell), *style, THEME.escape)),
                    COMPARE_CELL_WIDTH,
                );
            }
        }
        let rule_y = inner.y + COMPARE_HEADER_ROWS - 1;
        buf.set_string(inner.x, rule_y, "─".repeat(usize::from(inner.width)), THEME.border);

        // The paths.
        let top = inner.y + COMPARE_HEADER_ROWS;
        let rows = Rect::new(inner.x, top, inner.width, inner.bottom().saturating_sub(top));
        draw_rows(view, availability, rows, (&shown, path_width), &x_of, buf);
    }
}

/// The path rows in `area`: the mark, the path (cut keeping its end) and the shown
/// cells, each checked with its column's compiled rules.
fn draw_rows(
    view: &CompareView,
    availability: Availability,
    area: Rect,
    (shown, path_width): (&[usize], usize),
    x_of: &dyn Fn(usize) -> u16,
    buf: &mut Buffer,
) {
    let cell = usize::from(COMPARE_CELL_WIDTH);
    for (y, row) in (view.offset.0..view.paths.len()).take(usize::from(area.height)).enumerate() {
        let y = area.y + y as u16;
        let path = &view.paths[row];
        let tested = Request::read(path);
        // Every column is checked, visible or not, to tell whether the row agrees.
        let decisions: Vec<Decision> = view.columns.iter().map(|c| c.check(availability, &tested.tested)).collect();
        let allowed = decisions.iter().filter(|d| d.allowed).count();
        let disagree = allowed != 0 && allowed != decisions.len();
        let minority = allowed * 2 < decisions.len();
        let odd = |i: &usize| decisions[*i].allowed == minority;
        let mark = disagreement_mark(disagree, shown, (0..decisions.len()).filter(odd));
        buf.set_string(area.x, y, mark, THEME.warning);
        let path_style = if row == view.cursor.0 { THEME.title } else { THEME.value };
        buf.set_line(
            area.x + 2,
            y,
            &Line::from(safe_span(&fit_path(path, path_width), path_style, THEME.escape)),
            path_width as u16,
        );
        for &i in shown {
            let decision = decisions[i];
            let mut style = if decision.allowed { THEME.allowed } else { THEME.disallowed };
            if disagree && decision.allowed == minority {
                style = style.patch(THEME.odd_cell);
            }
            if (row, i) == view.cursor {
                style = style.patch(THEME.cursor);
            }
            buf.set_string(x_of(i), y, fit(&cell_text(decision), cell), style);
        }
    }
}

/// The mark before a row: `≠` when its columns disagree, with an arrow when every
/// column in the minority is scrolled off to the right (`≠›`) or the left (`‹≠`).
fn disagreement_mark(disagree: bool, shown: &[usize], mut odd: impl Iterator<Item = usize>) -> &'static str {
    let (Some(first), Some(last)) = (shown.first(), shown.last()) else { return "  " };
    if !disagree {
        return "  ";
    }
    let odd: Vec<usize> = odd.by_ref().collect();
    if odd.iter().any(|i| (first..=last).contains(&i)) {
        "≠ "
    } else if odd.iter().all(|i| i > last) {
        "≠›"
    } else {
        "‹≠"
    }
}

/// The cell under the cursor, in full, with what the robot's profile adds.
#[derive(Debug)]
pub struct CompareDetail<'a> {
    /// The state to draw.
    pub app: &'a App,
    /// The view (open).
    pub view: &'a CompareView,
}

impl Widget for CompareDetail<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let (app, view) = (self.app, self.view);
        let block = pane_block(" Cell ", false);
        let mut lines = Vec::new();
        if let (Some(verdict), Some(column)) = (&view.detail, view.columns.get(view.cursor.1)) {
            let (word, style) =
                if verdict.allowed { ("✓ ALLOWED", THEME.allowed) } else { ("✗ DISALLOWED", THEME.disallowed) };
            let mut head = vec![Span::raw(" "), Span::styled(word, style), Span::raw("  ")];
            head.extend(safe_span(&column.label, THEME.title, THEME.escape));
            head.push(Span::styled(format!(" · {} · ", verdict.reading.title()), THEME.dim));
            // A long path is cut keeping its end, so that the rule and the explanation
            // stay in the pane.
            let room = usize::from(area.width / 3).max(16);
            head.extend(safe_span(&cut_start(&verdict.path, room), THEME.value, THEME.escape));
            if let Some(decider) = verdict.decided_by {
                let txt = &app.document().txt;
                let rule = &txt.interpretation(verdict.reading).groups()[decider.group].rules()[decider.rule];
                head.push(Span::raw(format!("  line {}: ", decider.line)));
                head.extend(safe_span(&txt.rule_text(rule), THEME.value, THEME.escape));
            }
            lines.push(Line::from(head));
            if let Some(note) = view.paths.get(view.cursor.0).and_then(|path| Request::read(path).note()) {
                let tested = format!(" Tested {} ({note})", verdict.path);
                lines.push(Line::from(safe_span(&tested, THEME.dim, THEME.escape)));
            }
            lines.push(Line::from(
                [vec![Span::raw(" ")], safe_span(&verdict.explanation, THEME.value, THEME.escape)].concat(),
            ));
            let summary = column.summary(&app.document().txt, app.document().availability);
            let about = format!(" Gets {summary}.");
            lines.push(Line::from(safe_span(&about, THEME.dim, THEME.escape)));
            if let Some(profile) = view.robot_of_column(view.cursor.1).and_then(|r| r.profile.as_ref()) {
                let mut notes = Vec::new();
                if !profile.fallback.is_empty() {
                    notes.push(format!(
                        "without a group of its own it obeys {}'s, then *",
                        profile.fallback.join(", then ")
                    ));
                }
                if profile.ignores_star {
                    notes.push("it ignores the * group: only groups naming it apply".to_owned());
                }
                if profile.control_only {
                    notes.push(format!(
                        "{} fetches nothing: the verdict says whether content its operator's crawler fetched may be used",
                        profile.name
                    ));
                }
                notes.push(profile.note.clone());
                lines.push(Line::from(safe_span(&format!(" {}", notes.join(" · ")), THEME.dim, THEME.escape)));
            }
        }
        Paragraph::new(lines).block(block).wrap(Wrap { trim: false }).render(area, buf);
    }
}
