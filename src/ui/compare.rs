//! The compare view: paths down, robots (or one robot's readings) across. Each cell
//! shows the verdict and the deciding line, or one usage category's preference and the
//! line that states it (`✗` where the robot may not fetch); rows where the columns disagree are marked
//! and their odd cells stand out; the rows above the paths sum up what each robot gets.
//! Only the visible rows are checked, with the columns' compiled rules.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::text::{cut_start, safe_span};
use super::theme::THEME;
use super::{fitted_title, pane_block};
use crate::app::App;
use crate::app::Areas;
use crate::app::layout::{COMPARE_CELL_WIDTH, COMPARE_SUMMARY_ROWS};
use crate::app::tester::usage_text;
use crate::app::view::Drawn;
use crate::app::view::compare::CompareView;
use crate::columns::Cell;
use crate::policy::Decision;
use crate::policy::request::Request;
use crate::policy::usage::{Preference, UsageAnswer};
use crate::policy::{Availability, RobotsTxt};
use crate::words::plural;

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

/// A path in `width` columns (keeping one free), padded to it: whole when it fits, else
/// its start and end around a `…`, or, when that would look like another row's
/// (`differs_at`: where the two part), the part around the difference.
fn fit_path(path: &str, width: usize, differs_at: Option<usize>) -> String {
    let room = width.saturating_sub(1);
    let chars: Vec<char> = path.chars().collect();
    let shown: String = if chars.len() <= room {
        path.to_owned()
    } else if let Some(at) = differs_at.filter(|&at| at < chars.len()) {
        // `…` + a window around the difference (+ `…` when the path goes on).
        let window = room.saturating_sub(2).max(1);
        let start = at.saturating_sub(window / 2).min(chars.len().saturating_sub(window));
        let end = (start + window).min(chars.len());
        let tail = if end < chars.len() { "…" } else { "" };
        format!("…{}{tail}", chars[start..end].iter().collect::<String>())
    } else {
        let head = room.saturating_sub(1) / 3;
        let tail = cut_start(&chars[head..].iter().collect::<String>(), room.saturating_sub(head));
        format!("{}{tail}", chars[..head].iter().collect::<String>())
    };
    format!("{shown:<width$}")
}

/// For each path shown, where it parts from another shown path that would otherwise
/// be drawn the same in `width` columns (so that two rows never look alike).
fn telling_apart(paths: &[&str], width: usize) -> Vec<Option<usize>> {
    let drawn: Vec<String> = paths.iter().map(|path| fit_path(path, width, None)).collect();
    paths
        .iter()
        .enumerate()
        .map(|(i, path)| {
            (0..paths.len())
                .filter(|&j| j != i && drawn[j] == drawn[i] && paths[j] != *path)
                .map(|j| path.chars().zip(paths[j].chars()).take_while(|(a, b)| a == b).count())
                .min()
        })
        .collect()
}

/// A column's name in two lines of `width` columns (keeping one free): the first words
/// that fit, then the rest, cut with `…` if it still does not fit.
fn name_lines(name: &str, width: usize) -> [String; 2] {
    let room = width.saturating_sub(1);
    if name.chars().count() <= room {
        return [name.to_owned(), String::new()];
    }
    let chars: Vec<char> = name.chars().collect();
    // Break after the last space that fits, else in the middle of the word.
    let split =
        chars[..=room.min(chars.len() - 1)].iter().rposition(|&c| c == ' ').filter(|&at| at > 0).unwrap_or(room);
    let first: String = chars[..split].iter().collect();
    let rest: String = chars[split..].iter().collect::<String>().trim_start().to_owned();
    [first, super::text::cut_end(&rest, room)]
}

fn verdict_text(decision: Decision) -> String {
    let mark = if decision.allowed() { "✓" } else { "✗" };
    match decision.rule() {
        Some(rule) => format!("{mark} {}", rule.line()),
        None => format!("{mark} —"),
    }
}

/// A cell's text and colour: `✓ 12` / `✗ 29` for a verdict (or a robot that may not
/// fetch the path, whose preferences do not exist), `yes 5` / `no 5` / `unknown` for a
/// usage preference and the line that states it.
fn cell_text(cell: Cell) -> (String, ratatui::style::Style) {
    let with_line = |word: &str| cell.line().map_or_else(|| word.to_owned(), |line| format!("{word} {line}"));
    match cell {
        Cell::Verdict(decision) | Cell::NotFetched(decision) => {
            (verdict_text(decision), if decision.allowed() { THEME.allowed } else { THEME.disallowed })
        }
        Cell::Preference { preference: Preference::Allowed, .. } => (with_line("yes"), THEME.allowed),
        Cell::Preference { preference: Preference::Disallowed, .. } => (with_line("no"), THEME.disallowed),
        Cell::Preference { .. } => ("unknown".to_owned(), THEME.dim),
        Cell::NotRead => ("not read".to_owned(), THEME.dim),
    }
}

/// The word most cells of a row hold; a tie goes to `allowed`, so that the cells that
/// stand out are the ones that restrict.
fn majority_word(cells: &[Cell]) -> &'static str {
    let mut counts: Vec<(&'static str, usize)> = Vec::new();
    for cell in cells.iter().filter(|cell| **cell != Cell::NotRead) {
        match counts.iter_mut().find(|(word, _)| *word == cell.word()) {
            Some((_, count)) => *count += 1,
            None => counts.push((cell.word(), 1)),
        }
    }
    counts.into_iter().max_by_key(|&(word, count)| (count, word == "allowed")).map_or("", |(word, _)| word)
}

impl Widget for CompareMatrix<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let (app, view) = (self.app, self.view);
        let txt = &app.document().txt;
        let availability = app.document().availability;
        // One robot's readings: its name goes in the title, each column is a reading.
        let robot_of_readings = view.readings_of.and_then(|_| view.robot_of_column(0));
        let what = match (robot_of_readings, view.purpose) {
            (Some(robot), _) => format!("{}'s {} readings", robot.label, view.columns.len()),
            (None, Some(purpose)) => format!("{} {} robots", view.columns.len(), purpose.name()),
            (None, None) => format!("{} robots", view.columns.len()),
        };
        let shows = view
            .usage
            .map_or_else(String::new, |category| format!("cells: {category} yes/no/unknown, ✗ may not fetch"));
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
                &shows,
                range,
                "Esc leaves",
                "? keys",
                "u usage",
                "p purpose",
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

        // Header: the columns' names (on two rows when one needs them), then the
        // summary rows.
        let header = |i: usize| {
            let column = &view.columns[i];
            if robot_of_readings.is_some() { column.reading.name() } else { column.label.as_str() }
        };
        let name_rows: u16 = if shown.iter().any(|&i| !name_lines(header(i), cell)[1].is_empty()) { 2 } else { 1 };
        // On a short terminal the summary goes, and nothing is drawn past the border.
        let summary = areas.compare_shows_summary();
        let summary_rows = if summary { COMPARE_SUMMARY_ROWS } else { 0 };
        for (row, label) in ["group", "rules", "delay", "/"].iter().enumerate().take(usize::from(summary_rows)) {
            put(buf, inner, (inner.x + 2, inner.y + name_rows + row as u16), label, path_width, THEME.dim);
        }
        for &i in &shown {
            let style = if i == view.cursor.1 { THEME.selected } else { THEME.title };
            for (row, line) in name_lines(header(i), cell).iter().take(usize::from(name_rows)).enumerate() {
                let style = if line.is_empty() { THEME.value } else { style };
                put(buf, inner, (x_of(i), inner.y + row as u16), line, cell, style);
            }
            if summary {
                for (row, (text, style)) in summary_cells(view, i, txt, availability).iter().enumerate() {
                    put(buf, inner, (x_of(i), inner.y + name_rows + row as u16), text, cell, *style);
                }
            }
        }
        // The rows the header takes: at most `compare_header_rows`.
        let header_rows = name_rows + summary_rows + 1;
        let rule_y = inner.y + header_rows - 1;
        if rule_y < inner.bottom() {
            buf.set_string(inner.x, rule_y, "─".repeat(usize::from(inner.width)), THEME.border);
        }

        // The paths.
        let top = inner.y + header_rows;
        let rows = Rect::new(inner.x, top, inner.width, inner.bottom().saturating_sub(top));
        draw_rows(view, availability, rows, (&shown, path_width), &x_of, buf);
    }
}

/// Writes `text`, fitted to `width` columns and escaped, at `at`, unless that row is
/// below `inner` (a short matrix draws nothing over its border).
fn put(buf: &mut Buffer, inner: Rect, at: (u16, u16), text: &str, width: usize, style: Style) {
    if at.1 < inner.bottom() {
        let line = Line::from(safe_span(&fit(text, width), style, THEME.escape));
        buf.set_line(at.0, at.1, &line, u16::try_from(width).unwrap_or(u16::MAX));
    }
}

/// The summary rows' cells of column `i`: its group, its rule count, its crawl delay
/// (or request rate), and whether `/` is open to it.
fn summary_cells(view: &CompareView, i: usize, txt: &RobotsTxt, availability: Availability) -> [(String, Style); 4] {
    let column = &view.columns[i];
    let summary = column.summary(txt, availability);
    let delay = summary.crawl_delay.clone().or_else(|| summary.request_rate.clone()).unwrap_or_else(|| "—".to_owned());
    let slash = if summary.shut_out { ("closed", THEME.disallowed) } else { ("open", THEME.allowed) };
    [
        (column.summary_group_short(txt), THEME.value),
        (summary.rules.to_string(), THEME.value),
        (delay, THEME.value),
        (slash.0.to_owned(), slash.1),
    ]
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
    let visible: Vec<usize> = (view.offset.0..view.paths.len()).take(usize::from(area.height)).collect();
    let paths: Vec<&str> = visible.iter().map(|&row| view.paths[row].as_str()).collect();
    let differs_at = telling_apart(&paths, path_width);
    for (y, &row) in visible.iter().enumerate() {
        let differs_at = differs_at[y];
        let y = area.y + y as u16;
        let path = &view.paths[row];
        let tested = Request::read(path);
        // Every column is checked, visible or not, to tell whether the row agrees.
        let cells: Vec<Cell> = view.columns.iter().map(|c| c.cell(availability, tested.tested(), view.usage)).collect();
        let majority = majority_word(&cells);
        let disagree = Cell::disagree(&cells);
        // A robot that reads no preferences is not odd: it has nothing to disagree with.
        let odd = |i: &usize| disagree && cells[*i] != Cell::NotRead && cells[*i].word() != majority;
        let mark = disagreement_mark(disagree, shown, (0..cells.len()).filter(odd));
        buf.set_string(area.x, y, mark, THEME.warning);
        let path_style = if row == view.cursor.0 { THEME.title } else { THEME.value };
        buf.set_line(
            area.x + 2,
            y,
            &Line::from(safe_span(&fit_path(path, path_width, differs_at), path_style, THEME.escape)),
            path_width as u16,
        );
        for &i in shown {
            let (text, mut style) = cell_text(cells[i]);
            if odd(&i) {
                style = style.patch(THEME.odd_cell);
            }
            if (row, i) == view.cursor {
                style = style.patch(THEME.cursor);
            }
            buf.set_string(x_of(i), y, fit(&text, cell), style);
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
                if verdict.allowed() { ("✓ ALLOWED", THEME.allowed) } else { ("✗ DISALLOWED", THEME.disallowed) };
            let mut head = vec![Span::raw(" "), Span::styled(word, style), Span::raw("  ")];
            head.extend(safe_span(&column.label, THEME.title, THEME.escape));
            head.push(Span::styled(format!(" · {} · ", verdict.reading().title()), THEME.dim));
            // A long path is cut keeping its end, so that the rule and the explanation
            // stay in the pane.
            let room = usize::from(area.width / 3).max(16);
            head.extend(safe_span(&cut_start(verdict.path(), room), THEME.value, THEME.escape));
            if let Some(decider) = verdict.decided_by() {
                let txt = &app.document().txt;
                let rule = decider.rule_in(txt, verdict.reading());
                head.push(Span::raw(format!("  line {}: ", decider.line())));
                head.extend(safe_span(&txt.rule_text(rule), THEME.value, THEME.escape));
            }
            lines.push(Line::from(head));
            if let Some(note) = view.paths.get(view.cursor.0).and_then(|path| Request::read(path).note()) {
                let tested = format!(" Tested {} ({note})", verdict.path());
                lines.push(Line::from(safe_span(&tested, THEME.dim, THEME.escape)));
            }
            lines.push(Line::from(
                [vec![Span::raw(" ")], safe_span(verdict.explanation(), THEME.value, THEME.escape)].concat(),
            ));
            // The usage preferences, when the cells show them or the robot may fetch
            // the path and a line states one.
            let stated = matches!(&view.detail_usage, Some(UsageAnswer::Stated(usage)) if !usage.lines().is_empty());
            if let Some(usage) = view.detail_usage.as_ref().filter(|_| stated || view.usage.is_some()) {
                let text = format!(" Usage: {}", usage_text(usage));
                lines.push(Line::from(safe_span(&text, THEME.value, THEME.escape)));
            }
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
        // Each part wrapped at its words, its continuation indented under its first
        // word, never cut mid-word (issue 35, at 80x24).
        let width = usize::from(area.width.saturating_sub(2));
        let wrapped: Vec<Line> = lines.iter().flat_map(|line| super::text::wrap_spans(&line.spans, width, 3)).collect();
        Paragraph::new(wrapped).block(block).render(area, buf);
    }
}

/// The matrix in the robots' and records' place, the cell's detail in the tester's.
impl Drawn for CompareView {
    fn draw(&self, app: &App, screen: Rect, buffer: &mut Buffer) {
        let areas = Areas::layout(screen, true);
        CompareMatrix { app, view: self }.render(areas.compare, buffer);
        CompareDetail { app, view: self }.render(areas.tester, buffer);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 24: a name longer than a cell goes on in a second row, not cut.
    #[test]
    fn long_names_take_two_rows() {
        assert_eq!(name_lines("* (any other)", 12), ["* (any".to_owned(), "other)".to_owned()]);
        assert_eq!(name_lines("Googlebot", 12), ["Googlebot".to_owned(), String::new()]);
        assert_eq!(name_lines("Mediapartners-Google", 12), ["Mediapartne".to_owned(), "rs-Google".to_owned()]);
    }

    /// Issue 24: long paths that a narrow column would draw alike are told apart.
    #[test]
    fn long_paths_never_look_alike() {
        let paths = [
            "/shop/catalogue/a/very/long/listing/of/things/page.html",
            "/shop/catalogue/b/very/long/listing/of/things/page.html",
        ];
        let at = telling_apart(&paths, 20);
        let drawn: Vec<String> = paths.iter().zip(&at).map(|(path, at)| fit_path(path, 20, *at)).collect();
        assert_ne!(drawn[0], drawn[1], "{drawn:?}");
        assert!(drawn.iter().all(|line| line.chars().count() == 20));
        assert_eq!(fit_path("/short", 20, None).trim_end(), "/short");
    }
}
