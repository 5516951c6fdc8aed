//! The sitemaps view: the tree of sitemaps with status and counts while they load,
//! then, for each compared robot, how many listed URLs it may not fetch and those URLs
//! under the line that blocks them. Only the visible rows are drawn.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget};

use super::text::safe_span;
use super::theme::THEME;
use super::{fitted_title, pane_block};
use crate::app::App;
use crate::app::layout::above_status;
use crate::app::view::Drawn;
use crate::app::view::sitemaps::{SitemapNode, SitemapsRow, SitemapsView};
use crate::sitemaps::crawl::cut_words;
use crate::sitemaps::{Kind, Report, WalkLimits};
use crate::words::{grouped, plural};

/// The sitemaps overlay.
#[derive(Debug)]
pub struct SitemapsOverlay<'a> {
    /// The state to draw.
    pub app: &'a App,
    /// The view (open).
    pub view: &'a SitemapsView,
}

/// The index levels shown by indentation.
const MAX_INDENT: usize = 8;

/// A sitemap's row: where, status, what it holds, what went wrong.
fn sitemap_line(node: &SitemapNode, loading: bool, limits: &WalkLimits) -> Line<'static> {
    // An index of indexes thousands deep: past a few levels the depth is a number.
    let indent = if node.depth < MAX_INDENT {
        "  ".repeat(node.depth + 1)
    } else {
        format!("{}[depth {}] ", "  ".repeat(MAX_INDENT + 1), node.depth)
    };
    let mut spans = vec![Span::raw(indent)];
    spans.extend(safe_span(node.url.as_str(), THEME.value, THEME.escape));
    let Some(report) = &node.report else {
        spans.push(Span::styled(if loading { "  reading…" } else { "  stopped before it was read" }, THEME.dim));
        return Line::from(spans);
    };
    let status = report.status.map_or_else(|| "—".to_owned(), |status| status.code().to_string());
    let ok = report.status.is_some_and(crate::fetch::Status::is_success);
    spans.push(Span::styled(format!("  {status}"), if ok { THEME.allowed } else { THEME.disallowed }));
    let what = match report.read.kind {
        Some(Kind::Index) => format!("  sitemapindex, {}", plural(report.sitemaps, "sitemap")),
        Some(kind) => format!("  {}, {}", kind.name(), plural(report.entries(), "URL")),
        None => String::new(),
    };
    spans.push(Span::styled(what, THEME.dim));
    let read_as: Vec<&str> =
        [report.read.gzipped.then_some("gzip"), report.read.encoding].into_iter().flatten().collect();
    if !read_as.is_empty() {
        spans.push(Span::styled(format!(" ({})", read_as.join(", ")), THEME.dim));
    }
    if let Some(error) = &report.error {
        spans.push(Span::styled("  ", THEME.dim));
        spans.extend(safe_span(error, THEME.warning, THEME.escape));
    }
    if let Some(cut) = cut_words(report, limits) {
        spans.push(Span::styled(format!("  {cut}"), THEME.warning));
    }
    if let Some(skipped) = report.read.skipped.words() {
        spans.push(Span::styled(format!("  skipped: {skipped}"), THEME.dim));
    }
    for (robot, line) in &node.kept_from {
        spans.push(Span::styled("  robots.txt keeps ", THEME.disallowed));
        spans.extend(safe_span(robot, THEME.disallowed, THEME.escape));
        let at = line.map_or_else(String::new, |line| format!(" (line {line})"));
        spans.push(Span::styled(format!(" from it{at}"), THEME.disallowed));
    }
    Line::from(spans)
}

/// What the view holds less of than the sitemaps list: URLs past what it keeps, and
/// the limit that stopped the walk.
fn notices(view: &SitemapsView) -> Vec<String> {
    let mut notices = Vec::new();
    if view.other_host > 0 {
        notices.push(format!(
            "  {} on another site than the robots.txt's: not judged (their own site's robots.txt decides)",
            plural(view.other_host, "URL")
        ));
    }
    if view.dropped > 0 {
        notices.push(format!(
            "  {} more URLs listed, not checked here (the view keeps {} URLs or {} MiB; robotscope sitemaps checks all)",
            grouped(view.dropped),
            grouped(crate::app::view::sitemaps::MAX_VIEW_URLS),
            crate::app::view::sitemaps::MAX_VIEW_URL_BYTES >> 20
        ));
    }
    if let Some(stop) = view.walked.and_then(|walked| walked.stopped_by) {
        let unread = view.walked.map_or(0, |walked| walked.unread);
        let unread = if unread > 0 { format!(": {} not read", plural(unread, "sitemap")) } else { String::new() };
        notices.push(format!("  Stopped at {}{unread}", stop.words(&view.limits)));
    }
    notices
}

impl Widget for SitemapsOverlay<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let view = self.view;
        let listed = view.urls.len() + view.dropped;
        let state = if view.job.is_running() { "reading… Esc stops".to_owned() } else { "Esc leaves".to_owned() };
        let failed = view.sitemaps.iter().filter(|node| node.report.as_ref().is_some_and(Report::failed)).count();
        let failed = if failed == 0 { String::new() } else { format!(" ({failed} could not be read)") };
        let counts = format!(
            "{} of {} read{failed} · {}",
            view.read(),
            plural(view.sitemaps.len(), "sitemap"),
            plural(listed, "URL")
        );
        let title = fitted_title(
            &["Sitemaps", &counts, &state, "Enter URL into the tester", "R compare them", "r again"],
            area.width,
        );
        let rows = view.rows();
        // What the view holds less than the sitemaps list, said first, where it is seen.
        let mut lines: Vec<Line<'static>> = notices(view).into_iter().map(|n| Line::styled(n, THEME.warning)).collect();
        let height = usize::from(area.height.saturating_sub(2)).saturating_sub(lines.len());
        view.rows_shown.set(height);
        for (index, row) in rows.iter().enumerate().skip(view.scroll).take(height) {
            let mut line = match *row {
                SitemapsRow::Sitemap(id) => sitemap_line(&view.sitemaps[id], view.job.is_running(), &view.limits),
                SitemapsRow::Robot(robot) => {
                    let blocked = &view.blocked[robot];
                    let mut spans = safe_span(&blocked.label, THEME.heading, THEME.escape);
                    // The URLs this robots.txt governs: those on other sites are not judged.
                    let count = view.urls.len() - view.other_host;
                    let urls = format!("{} URL{}", grouped(count), if count == 1 { "" } else { "s" });
                    let text = if view.urls.is_empty() {
                        if view.job.is_running() { ": no URL read yet" } else { ": no URL read" }.to_owned()
                    } else if view.dropped > 0 {
                        format!(
                            ": {} of the {urls} kept are blocked (more were listed: see above)",
                            grouped(blocked.count)
                        )
                    } else if blocked.count == 0 {
                        format!(": may fetch all {urls}")
                    } else {
                        format!(": {} of {urls} blocked", grouped(blocked.count))
                    };
                    spans.push(Span::styled(text, if blocked.count == 0 { THEME.allowed } else { THEME.disallowed }));
                    Line::from(spans)
                }
                SitemapsRow::Line(robot, line) => {
                    let (rule, urls) = &view.blocked[robot].by_line[&line];
                    let at = line
                        .map_or_else(|| "no rule (the file keeps it out)".to_owned(), |line| format!("line {line}"));
                    let mut spans = vec![Span::styled(format!("  {at}: "), THEME.dim)];
                    spans.extend(safe_span(rule, THEME.value, THEME.escape));
                    spans.push(Span::styled(format!("  ({})", plural(urls.len(), "URL")), THEME.dim));
                    Line::from(spans)
                }
                SitemapsRow::Url(_, url) => {
                    let mut spans = vec![Span::raw("    ")];
                    spans.extend(safe_span(&view.urls[url].0, THEME.value, THEME.escape));
                    Line::from(spans)
                }
            };
            if index == view.cursor {
                line = line.patch_style(THEME.cursor);
            }
            lines.push(line);
        }
        if rows.is_empty() {
            lines.push(Line::styled("  Fetching the sitemaps robots.txt lists…", THEME.dim));
        }
        Clear.render(area, buf);
        Paragraph::new(lines).block(pane_block(&title, true)).render(area, buf);
    }
}

impl Drawn for SitemapsView {
    fn draw(&self, app: &App, screen: Rect, buffer: &mut Buffer) {
        // As wide as the terminal allows (URLs are long), above the status line.
        let width = screen.width.saturating_sub(4).max(118);
        SitemapsOverlay { app, view: self }.render(super::centered(above_status(screen), width, 40), buffer);
    }
}
