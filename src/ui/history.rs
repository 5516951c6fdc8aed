//! The history view: the versions as a timeline on the left (newest first, under the
//! "now" row), and on the right the selected version with the flips of the compared
//! robots against the version before it (or the marked one), or the diff of the two.
//! Only the visible rows are drawn.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget, Wrap};

use super::text::{diff_line, safe_span};
use super::theme::THEME;
use super::{fitted_title, pane_block};
use crate::app::App;
use crate::app::layout::{HISTORY_OVERLAY, above_status};
use crate::app::view::Drawn;
use crate::app::view::history::HistoryView;
use crate::fetch::size_label;
use crate::history::{Provenance, Version};
use crate::policy::Availability;
use crate::policy::diff::unified_diff_between;
use crate::words::plural;

/// The history overlay.
#[derive(Debug)]
pub struct HistoryOverlay<'a> {
    /// The state to draw.
    pub app: &'a App,
    /// The view (open).
    pub view: &'a HistoryView,
}

/// A version's row: date, where from, status, size.
fn version_line(version: &Version, marked: bool, shown: bool) -> Line<'static> {
    let status = version.status.map_or_else(|| "-".to_owned(), |status| status.to_string());
    let decides = version.availability == Availability::Available;
    // ◆ marked to diff against, ● in the panes; the cursor is the highlighted row.
    let mark = match (marked, shown) {
        (true, _) => "◆ ",
        (false, true) => "● ",
        _ => "  ",
    };
    let size = if decides {
        format!("{:>7}", size_label(usize::try_from(version.bytes).unwrap_or(usize::MAX)))
    } else {
        String::new()
    };
    let from = match version.provenance {
        Provenance::Local => "fetched",
        Provenance::Archive => "archive",
    };
    Line::from(vec![
        Span::styled(mark, THEME.compare_mark),
        Span::styled(version.date(), THEME.value),
        Span::styled(format!("  {from:<7}  "), THEME.dim),
        Span::styled(format!("{status:>3}"), if decides { THEME.allowed } else { THEME.warning }),
        Span::styled(format!("  {size}"), THEME.dim),
    ])
}

impl HistoryOverlay<'_> {
    fn list(&self, width: u16, height: usize) -> Vec<Line<'static>> {
        let view = self.view;
        let mut lines = Vec::new();
        let shown = self.app.viewing_version();
        for row in (0..=view.versions.len()).skip(view.scroll).take(height) {
            let mut line = match view.version_at(row) {
                None => {
                    let changed = self.app.changed_since_last_fetch() == Some(true);
                    let style = if changed { THEME.warning } else { THEME.dim };
                    let mut spans =
                        vec![Span::styled(if shown.is_none() { "● now  " } else { "  now  " }, THEME.heading)];
                    spans.extend(safe_span(&self.app.history_now(false), style, THEME.escape));
                    Line::from(spans)
                }
                Some(index) => {
                    let version = &view.versions[index].version;
                    version_line(version, view.marked == Some(index), shown == Some(version.timestamp.as_str()))
                }
            };
            if row == view.cursor {
                // The whole row, so that the cursor reads as one.
                let pad = usize::from(width).saturating_sub(line.width());
                line.spans.push(Span::raw(" ".repeat(pad)));
                line = line.patch_style(THEME.cursor);
            }
            lines.push(line);
        }
        if view.versions.is_empty() && !view.job.is_running() {
            lines.push(Line::styled("  No version stored yet.", THEME.dim));
            lines.push(Line::styled("  A asks the web archive.", THEME.dim));
        }
        lines
    }

    fn detail(&self) -> Vec<Line<'static>> {
        let view = self.view;
        let Some(selected) = view.selected() else {
            let shown = match self.app.viewing_version() {
                Some(timestamp) => format!(
                    "The panes show the version of {} (●): Enter here goes back.",
                    crate::history::display_date(timestamp)
                ),
                None => "The panes show it (●).".to_owned(),
            };
            return vec![
                Line::styled(self.app.history_now(true), THEME.heading),
                Line::styled(shown, THEME.dim),
                Line::raw(""),
                Line::styled("Each version: Enter shows it in the panes (read-only),", THEME.dim),
                Line::styled("Space marks it (◆), d shows its diff against the marked one", THEME.dim),
                Line::styled("(or the one before it), J and K scroll this side.", THEME.dim),
            ];
        };
        let version = &view.versions[selected].version;
        let mut lines = vec![version_heading(version)];
        let mut url = vec![Span::styled("  ", THEME.dim)];
        url.extend(safe_span(&version.url, THEME.dim, THEME.escape));
        lines.push(Line::from(url));
        for (name, value) in &version.headers {
            let mut spans = vec![Span::styled(format!("  {name}: "), THEME.dim)];
            spans.extend(safe_span(value, THEME.dim, THEME.escape));
            lines.push(Line::from(spans));
        }
        lines.push(Line::raw(""));
        let Some((older, newer)) = self.app.history_pair() else {
            lines.push(Line::styled(
                "The first version known (compared robots, / and the tester's path):",
                THEME.heading,
            ));
            for answer in self.app.history_answers(selected) {
                let style = if answer.contains(": allowed") { THEME.allowed } else { THEME.disallowed };
                let mut spans = vec![Span::raw("  ")];
                spans.extend(safe_span(&answer, style, THEME.escape));
                lines.push(Line::from(spans));
            }
            return lines;
        };
        let against = &view.versions[if older == selected { newer } else { older }].version;
        if view.diff {
            lines.push(Line::styled(format!("Diff against {}:", against.date()), THEME.heading));
            let (old, new) = (&view.versions[older], &view.versions[newer]);
            let (Some(old_txt), Some(new_txt)) = (&old.txt, &new.txt) else {
                lines.push(Line::styled(crate::app::view::history::NOT_HELD, THEME.dim));
                return lines;
            };
            let diff =
                unified_diff_between(old_txt.source(), new_txt.source(), &old.version.date(), &new.version.date());
            if diff.is_empty() {
                lines.push(Line::styled("  the same bytes", THEME.dim));
            }
            lines.extend(diff.lines().map(diff_line));
        } else {
            lines.push(Line::styled(
                format!("Against {} (compared robots, / and the tester's path):", against.date()),
                THEME.heading,
            ));
            let flips = self.app.history_flips(older, newer);
            if flips.is_empty() {
                lines.push(Line::styled("  no verdict or usage preference changed", THEME.dim));
            }
            for flip in flips {
                let style = if flip.contains(" lost ") { THEME.disallowed } else { THEME.allowed };
                let mut spans = vec![Span::raw("  ")];
                spans.extend(safe_span(&flip, style, THEME.escape));
                lines.push(Line::from(spans));
            }
        }
        lines
    }
}

fn version_heading(version: &Version) -> Line<'static> {
    let status = version.status.map_or_else(|| "no status recorded".to_owned(), |status| format!("status {status}"));
    let how = match version.provenance {
        Provenance::Local => "fetched by robotscope",
        Provenance::Archive => "captured by the archive",
    };
    let seen = if version.seen > 1 {
        format!(", {} times until {}", version.seen, crate::history::display_date(&version.last_seen))
    } else {
        String::new()
    };
    Line::styled(format!("{}: {how}, {status}{seen}", version.date()), THEME.heading)
}

impl Widget for HistoryOverlay<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let view = self.view;
        let state = match view.job.progress().copied() {
            Some(progress) if progress.archive => match progress.listed {
                Some(listed) => format!("archive: {} of {listed} captures… Esc stops", progress.done),
                None => "asking the archive… Esc stops".to_owned(),
            },
            Some(_) => "reading the store…".to_owned(),
            None => "Esc leaves".to_owned(),
        };
        let redirects = if view.redirects_left_out > 0 {
            format!(" ({} left out)", plural(view.redirects_left_out, "captured redirect"))
        } else {
            String::new()
        };
        let counts = format!("{}{redirects}", plural(view.versions.len(), "version"));
        let heading = format!("History of {}/robots.txt", view.site);
        let title =
            fitted_title(&[&heading, &counts, &state, "Enter show", "Space mark", "d diff", "A archive"], area.width);
        Clear.render(area, buf);
        let block = pane_block(&title, true);
        let inner = block.inner(area);
        block.render(area, buf);
        let [list, detail] = Layout::horizontal([Constraint::Length(46), Constraint::Min(20)]).spacing(2).areas(inner);
        let height = usize::from(list.height);
        Paragraph::new(self.list(list.width, height)).render(list, buf);
        // Scrolled by rows as wrapped, so that a long line can be read to its end.
        let scroll = u16::try_from(view.detail_scroll).unwrap_or(u16::MAX);
        Paragraph::new(self.detail()).wrap(Wrap { trim: false }).scroll((scroll, 0)).render(detail, buf);
    }
}

impl Drawn for HistoryView {
    fn draw(&self, app: &App, screen: Rect, buffer: &mut Buffer) {
        let (width, height) = HISTORY_OVERLAY;
        HistoryOverlay { app, view: self }.render(super::centered(above_status(screen), width, height), buffer);
    }
}
