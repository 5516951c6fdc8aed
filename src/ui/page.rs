//! The page policy overlay: what the tested page says to robots (its robots META tags,
//! X-Robots-Tag and Content-Usage headers), a row per robot (crawl, index, follow), then
//! the selected robot's answers with their reasons, its usage preferences, the other
//! terms explained, conflicts and notes.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget, Wrap};

use super::pane_block;
use super::text::safe_span;
use super::theme::THEME;
use crate::app::App;
use crate::app::layout::above_status;
use crate::app::view::Drawn;
use crate::app::view::page::{PageRow, PageState, PageView};
use crate::fetch::size_label;
use crate::fetch::{Fetched, PageFetch};
use crate::policy::page::Answer;

/// The page policy overlay.
#[derive(Debug)]
pub struct PageOverlay<'a> {
    /// The state to draw.
    pub app: &'a App,
    /// The overlay's page.
    pub view: &'a PageView,
}

/// A yes/no/never-read cell of the robots table.
fn cell(answer: Option<bool>) -> Span<'static> {
    match answer {
        Some(true) => Span::styled(format!("{:<10}", "✓ yes"), THEME.allowed),
        Some(false) => Span::styled(format!("{:<10}", "✗ no"), THEME.disallowed),
        None => Span::styled(format!("{:<10}", "— unread"), THEME.dim),
    }
}

fn answer_line(what: &str, answer: Option<&Answer>) -> Line<'static> {
    let label = Span::styled(format!("  {what:<9}"), THEME.dim);
    match answer {
        Some(answer) => Line::from(
            [vec![label, cell(Some(answer.allowed))], safe_span(&answer.because.describe(), THEME.value, THEME.escape)]
                .concat(),
        ),
        None => Line::from(vec![label, cell(None), Span::styled("it never fetches the page", THEME.dim)]),
    }
}

/// A line with a dim label and untrusted text.
fn labelled(label: &str, label_style: Style, text: &str) -> Line<'static> {
    Line::from(
        [vec![Span::styled(format!("  {label:<9}"), label_style)], safe_span(text, THEME.value, THEME.escape)].concat(),
    )
}

/// The selected robot's answers in full.
fn details(row: &PageRow, lines: &mut Vec<Line<'static>>) {
    lines.push(Line::from(
        [
            safe_span(&row.label, THEME.heading, THEME.escape),
            vec![Span::styled(format!(" · {}", row.reading.title()), THEME.dim)],
        ]
        .concat(),
    ));
    let crawl = Line::from(
        [
            vec![Span::styled(format!("  {:<9}", "crawl"), THEME.dim), cell(Some(row.policy.crawl))],
            safe_span(&row.crawl.explanation(), THEME.value, THEME.escape),
        ]
        .concat(),
    );
    lines.push(crawl);
    lines.push(answer_line("index", row.policy.index.as_ref()));
    lines.push(answer_line("follow", row.policy.follow.as_ref()));
    if let Some(usage) = &row.usage {
        lines.push(labelled("usage", THEME.dim, &usage.to_string()));
    }
    for applied in row.policy.terms.iter().filter(|t| !t.term.is_index_or_follow()) {
        let text = format!("{}: {} ({})", applied.term, applied.term.meaning(), applied.source);
        lines.push(labelled("also", THEME.dim, &text));
    }
    for conflict in &row.policy.conflicts {
        lines.push(labelled("conflict", THEME.warning, conflict));
    }
    for note in &row.policy.notes {
        lines.push(labelled("note", THEME.warning, note));
    }
}

/// The page's status, size, time and Content-Type, or that it was not fetched.
fn response_line(page: Option<&Fetched>) -> Line<'static> {
    let Some(fetched) = page else {
        return Line::styled("Not fetched: robots.txt keeps these robots out", THEME.warning);
    };
    let status_style = if fetched.status.is_success() { THEME.allowed } else { THEME.disallowed };
    let content_type = fetched.header("content-type").unwrap_or("no Content-Type");
    let status = fetched.status.to_string();
    let mut head = vec![Span::styled(status, status_style)];
    head.push(Span::styled(
        format!(" · {} in {} ms · ", size_label(fetched.body.len()), fetched.elapsed.as_millis()),
        THEME.dim,
    ));
    head.extend(safe_span(content_type, THEME.dim, THEME.escape));
    Line::from(head)
}

impl Widget for PageOverlay<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let view = self.view;
        let mut lines: Vec<Line<'static>> = Vec::new();
        match &view.state {
            PageState::Fetching => {
                lines.push(Line::from(
                    [
                        vec![Span::styled("Fetching ", THEME.dim)],
                        safe_span(view.url.as_str(), THEME.value, THEME.escape),
                    ]
                    .concat(),
                ));
                lines.push(Line::styled("Esc cancels.", THEME.dim));
            }
            PageState::Failed(error) => {
                lines.push(Line::from(
                    [
                        vec![Span::styled("Cannot fetch the page: ", THEME.disallowed)],
                        safe_span(&error.to_string(), THEME.value, THEME.escape),
                    ]
                    .concat(),
                ));
                lines.push(Line::styled("r tries again; Esc closes.", THEME.dim));
            }
            PageState::Fetched { fetched, notes } => {
                let PageFetch { page, signals, .. } = fetched.as_ref();
                lines.push(response_line(page.as_ref()));
                lines.push(Line::raw(""));
                lines.push(Line::styled("What the page says to robots", THEME.heading));
                let tags: Vec<_> = signals.meta.iter().filter(|tag| tag.speaks_to_robots()).collect();
                for tag in &tags {
                    lines.push(labelled(&format!("line {}", tag.line), THEME.dim, &tag.markup()));
                }
                for header in &signals.headers {
                    lines.push(labelled("header", THEME.dim, &format!("X-Robots-Tag: {}", header.value)));
                }
                if let Some(usage) = &signals.content_usage {
                    lines.push(labelled("header", THEME.dim, &format!("Content-Usage: {usage}")));
                }
                if tags.is_empty() && signals.headers.is_empty() && signals.content_usage.is_none() && page.is_some() {
                    let nothing = if signals.html {
                        "no robots META tag, no X-Robots-Tag header"
                    } else {
                        "no X-Robots-Tag header (not HTML)"
                    };
                    lines.push(Line::styled(format!("  {nothing}"), THEME.dim));
                }
                for note in notes {
                    lines.push(labelled("note", THEME.warning, note));
                }
                lines.push(Line::raw(""));
                let rows = self.app.page_rows();
                lines.push(Line::styled(
                    format!("  {:<24}{:<10}{:<10}{:<10}", "Robot", "Crawl", "Index", "Follow"),
                    THEME.heading,
                ));
                for row in &rows {
                    let marker = if row.selected { "▶ " } else { "  " };
                    let name: String = row.label.chars().take(22).collect();
                    let mut spans = vec![Span::styled(marker, THEME.title)];
                    spans.extend(safe_span(
                        &format!("{name:<22}"),
                        if row.selected { THEME.title } else { THEME.value },
                        THEME.escape,
                    ));
                    spans.push(cell(Some(row.policy.crawl)));
                    spans.push(cell(row.policy.index.as_ref().map(|a| a.allowed)));
                    spans.push(cell(row.policy.follow.as_ref().map(|a| a.allowed)));
                    if !row.policy.conflicts.is_empty() {
                        spans.push(Span::styled("conflict", THEME.warning));
                    }
                    lines.push(Line::from(spans));
                }
                if let Some(selected) = rows.iter().find(|row| row.selected) {
                    lines.push(Line::raw(""));
                    details(selected, &mut lines);
                }
            }
        }
        let title = format!(" Page policy · {} · ]/[ robot · s reading · r refetch · Esc closes ", view.url);
        // Wrapped lines take more rows than there are lines: count them to keep the
        // last one reachable and the scroll from running past it.
        let (inner_width, inner_height) =
            (usize::from(area.width.saturating_sub(2)).max(1), usize::from(area.height.saturating_sub(2)));
        let rows: usize = lines.iter().map(|line| line.width().div_ceil(inner_width).max(1)).sum();
        let last_scroll = rows.saturating_sub(inner_height);
        view.last_scroll.set(last_scroll);
        let scroll = view.scroll.min(last_scroll);
        Clear.render(area, buf);
        Paragraph::new(lines)
            .block(pane_block(&title, true))
            .wrap(Wrap { trim: false })
            .scroll((u16::try_from(scroll).unwrap_or(u16::MAX), 0))
            .render(area, buf);
    }
}

impl Drawn for PageView {
    fn draw(&self, app: &App, screen: Rect, buffer: &mut Buffer) {
        // Above the status line, as the other views are.
        PageOverlay { app, view: self }.render(super::centered(above_status(screen), 118, 40), buffer);
    }
}
