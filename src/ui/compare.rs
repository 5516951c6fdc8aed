//! The compare view: paths down, robots (or one robot's readings) across. Each cell
//! shows the verdict and the deciding line; rows where the columns disagree are marked
//! and their odd cells stand out; the rows above the paths sum up what each robot gets.
//! Only the visible rows are checked, with the columns' compiled rules.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

use super::pane_block;
use super::text::safe_span;
use super::theme::THEME;
use crate::app::App;
use crate::app::compare::CompareView;
use crate::app::layout::{COMPARE_CELL_WIDTH, COMPARE_HEADER_ROWS};
use crate::policy::compiled::Decision;

/// The compare matrix.
#[derive(Debug)]
pub struct CompareMatrix<'a> {
    /// The state to draw.
    pub app: &'a App,
    /// The view (open).
    pub view: &'a CompareView,
}

/// `text` cut to `width` characters, padded to it.
fn fit(text: &str, width: usize) -> String {
    let cut: String = text.chars().take(width.saturating_sub(1)).collect();
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
        let shown: Vec<usize> = (first_column..view.columns.len()).take(areas.compare_columns()).collect();
        // When the columns do not all fit, say which ones show (h/l scrolls).
        let range = match (shown.first(), shown.last()) {
            (Some(first), Some(last)) if shown.len() < view.columns.len() => {
                format!(" ({}–{} shown)", first + 1, last + 1)
            }
            _ => String::new(),
        };
        let title = format!(
            " Compare · {what}{range} × {} paths · h/l j/k move · a/x robots · / L paths · m readings · Esc leaves ",
            view.paths.len()
        );
        let block = pane_block(&title, true);
        let inner = block.inner(area);
        block.render(area, buf);
        let path_width = usize::from(areas.compare_path_width());
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
        let rows = usize::from(inner.bottom().saturating_sub(top));
        for (y, row) in (view.offset.0..view.paths.len()).take(rows).enumerate() {
            let y = top + y as u16;
            let path = &view.paths[row];
            // Every column is checked, visible or not, to tell whether the row agrees.
            let decisions: Vec<Decision> = view.columns.iter().map(|c| c.check(availability, path)).collect();
            let allowed = decisions.iter().filter(|d| d.allowed).count();
            let disagree = allowed != 0 && allowed != decisions.len();
            let minority = allowed * 2 < decisions.len();
            buf.set_string(inner.x, y, if disagree { "≠ " } else { "  " }, THEME.warning);
            let path_style = if row == view.cursor.0 { THEME.title } else { THEME.value };
            buf.set_line(
                inner.x + 2,
                y,
                &Line::from(safe_span(&fit(path, path_width), path_style, THEME.escape)),
                path_width as u16,
            );
            for &i in &shown {
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
            head.extend(safe_span(&verdict.path, THEME.value, THEME.escape));
            if let Some(decider) = verdict.decided_by {
                let txt = &app.document().txt;
                let rule = &txt.interpretation(verdict.reading).groups[decider.group].rules[decider.rule];
                head.push(Span::raw(format!("  line {}: ", decider.line)));
                head.extend(safe_span(&txt.rule_text(rule), THEME.value, THEME.escape));
            }
            lines.push(Line::from(head));
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
