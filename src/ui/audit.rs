//! The audit view: what judged the log, the robots with their counts (forged requests
//! counted apart), and the violations by deciding line, forged ones set apart under a
//! heading of their own. Only the visible rows are drawn; text from the log is escaped.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget, Wrap};

use super::text::safe_span;
use super::theme::THEME;
use super::{fitted_title, pane_block};
use crate::app::App;
use crate::app::layout::{AUDIT_OVERLAY, above_status};
use crate::app::view::Drawn;
use crate::app::view::audit::{AuditView, Group, RobotCounts};
use crate::fetch::size_label;
use crate::words::plural;

/// The audit overlay.
#[derive(Debug)]
pub struct AuditOverlay<'a> {
    /// The state to draw.
    pub app: &'a App,
    /// The view (open).
    pub view: &'a AuditView,
}

fn count(value: u64) -> usize {
    usize::try_from(value).unwrap_or(usize::MAX)
}

/// A robot's row: its counts, forged ones in the warning colour.
fn robot_line(robot: &RobotCounts) -> Line<'static> {
    let mut spans = safe_span(&format!("  {:<24}", robot.label), THEME.value, THEME.escape);
    let violations = if robot.violations > 0 { THEME.disallowed } else { THEME.dim };
    spans.push(Span::styled(format!("{:>9}", robot.requests), THEME.value));
    spans.push(Span::styled(format!("{:>11}", robot.violations), violations));
    spans.push(Span::styled(format!("{:>10}", robot.tolerated), THEME.dim));
    let unjudged = if robot.unjudged > 0 { THEME.warning } else { THEME.dim };
    spans.push(Span::styled(format!("{:>9}", robot.unjudged), unjudged));
    let (forged, style) = match (robot.checkable, robot.forged) {
        (false, _) => ("-".to_owned(), THEME.dim),
        (true, 0) => ("0".to_owned(), THEME.dim),
        (true, forged) => (forged.to_string(), THEME.warning),
    };
    spans.push(Span::styled(format!("{forged:>8}"), style));
    let verified = if robot.checkable { robot.verified.to_string() } else { "-".to_owned() };
    spans.push(Span::styled(format!("{verified:>10}"), THEME.dim));
    Line::from(spans)
}

/// A violation group's row: robot, count, deciding line and rule, version, an example.
fn group_line(group: &Group, version: Option<String>) -> Line<'static> {
    let rule = match (group.line, &group.rule) {
        (Some(line), Some(rule)) => format!("line {line} `{rule}`"),
        (_, Some(why)) => why.clone(),
        _ => "the rules".to_owned(),
    };
    let version = version.map_or_else(|| "the file".to_owned(), |since| format!("the version of {since}"));
    let mut spans = safe_span(&format!("  {:<16} ", group.label), THEME.value, THEME.escape);
    spans.push(Span::styled(format!("{:>6}× ", group.count), THEME.disallowed));
    spans.extend(safe_span(&rule, THEME.field, THEME.escape));
    spans.push(Span::styled(format!(" of {version}, e.g. "), THEME.dim));
    spans.extend(safe_span(&group.example, THEME.value, THEME.escape));
    Line::from(spans)
}

impl Widget for AuditOverlay<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let view = self.view;
        let state = match view.job.progress() {
            Some(progress) => format!(
                "reading: {}, {}… Esc stops",
                plural(count(progress.lines), "line"),
                size_label(count(progress.bytes))
            ),
            None => "Esc leaves".to_owned(),
        };
        // The log the report on screen is of: a run that failed keeps the report before,
        // and the title must not name the log that could not be read as its source.
        let heading = match (&view.audited, view.job.is_running()) {
            (_, true) => format!("Audit of {}", view.log.display()),
            (Some(audited), false) => format!("Audit of {}", audited.log.display()),
            (None, false) => "Audit".to_owned(),
        };
        let title = fitted_title(&[&heading, &state, "Enter show", "l another log", "r again"], area.width);
        Clear.render(area, buf);
        let block = pane_block(&title, true);
        let inner = block.inner(area);
        block.render(area, buf);
        let [notice, inner] = Layout::vertical([
            Constraint::Length(u16::from(view.failed.is_some() || view.is_stale(self.app))),
            Constraint::Min(1),
        ])
        .areas(inner);
        if let Some(failed) = &view.failed {
            let mut spans = safe_span(failed, THEME.warning, THEME.escape);
            spans.push(Span::styled(" (l audits another log)", THEME.dim));
            Paragraph::new(Line::from(spans)).render(notice, buf);
        } else if view.is_stale(self.app) {
            let line = "The file on screen changed since this audit: r runs it again.";
            Paragraph::new(Line::styled(line, THEME.warning)).render(notice, buf);
        }
        let Some(audited) = &view.audited else {
            let waiting = if view.job.is_running() { "Reading the log…" } else { "Nothing read." };
            Paragraph::new(Line::styled(waiting, THEME.dim)).render(inner, buf);
            return;
        };
        let report = &audited.report;
        let robots_rows = u16::try_from(report.robots.len()).unwrap_or(u16::MAX).min(inner.height / 3).max(1);
        let [summary, robots, list] =
            Layout::vertical([Constraint::Length(4), Constraint::Length(robots_rows + 1), Constraint::Min(1)])
                .areas(inner);
        let stopped = if report.stopped { " Stopped early: what was read." } else { "" };
        let mut about = vec![Span::styled(
            format!(
                "{} ({} unreadable), {}, judged against ",
                plural(count(report.lines), "log line"),
                report.unreadable,
                plural(count(report.robot_requests), "robot request"),
            ),
            THEME.value,
        )];
        about.extend(safe_span(&audited.judged_by, THEME.value, THEME.escape));
        about.push(Span::styled(format!(".{stopped}"), THEME.warning));
        let mut lines = vec![Line::from(about)];
        let unjudged: u64 = report.robots.iter().map(|robot| robot.unjudged).sum();
        if unjudged > 0 {
            lines.push(Line::styled(
                format!(
                    "{} came before the first known version: unjudged, neither allowed nor a violation.",
                    plural(count(unjudged), "request")
                ),
                THEME.warning,
            ));
        }
        if let Some(bad) = report.bad_lines.first() {
            let mut spans = vec![Span::styled("Unreadable: ", THEME.warning)];
            spans.extend(safe_span(bad, THEME.dim, THEME.escape));
            lines.push(Line::from(spans));
        }
        Paragraph::new(lines).wrap(Wrap { trim: false }).render(summary, buf);
        let mut table = vec![Line::styled(
            format!(
                "  {:<24}{:>9}{:>11}{:>10}{:>9}{:>8}{:>10}",
                "robot", "requests", "violations", "tolerated", "unjudged", "forged", "verified"
            ),
            THEME.heading,
        )];
        if report.robots.is_empty() {
            table.push(Line::styled("  No robot came in this log.", THEME.dim));
        }
        table.extend(report.robots.iter().take(usize::from(robots_rows)).map(robot_line));
        Paragraph::new(table).render(robots, buf);
        Paragraph::new(self.violations(list.width, usize::from(list.height))).render(list, buf);
    }
}

impl AuditOverlay<'_> {
    /// The violations' list from the view's scroll, the forged ones under a heading of
    /// their own.
    fn violations(&self, width: u16, height: usize) -> Vec<Line<'static>> {
        let view = self.view;
        let Some(audited) = &view.audited else { return Vec::new() };
        let groups = &audited.report.groups;
        let mut lines = vec![Line::raw("")];
        if audited.report.robots.iter().any(|robot| !robot.checkable) {
            lines.push(Line::styled(
                "  forged, verified \"-\": nothing to check that robot against (no list of its operator at hand).",
                THEME.dim,
            ));
        }
        if audited.report.nothing_judged() {
            lines.push(Line::styled(
                "  Nothing could be judged: every request came before the first known version of the robots.txt.",
                THEME.warning,
            ));
            return lines;
        }
        if groups.is_empty() {
            lines.push(Line::styled("  No violation.", THEME.allowed));
            return lines;
        }
        lines.push(Line::styled(
            "Violations, by the line that decided (Enter: the robot, the path and that version in the panes)",
            THEME.heading,
        ));
        let since = |group: &Group| {
            let version = group.version.and_then(|index| audited.report.versions.get(index))?;
            version.since.map(|since| since.strftime("%Y-%m-%d %H:%M").to_string())
        };
        for (index, group) in groups.iter().enumerate().skip(view.scroll) {
            if lines.len() >= height {
                break;
            }
            let first_forged = group.forged && (index == 0 || !groups[index - 1].forged);
            if first_forged {
                lines.push(Line::styled(
                    "Forged: requests that claimed a robot from an address its operator does not use",
                    THEME.warning,
                ));
            }
            let mut line = group_line(group, since(group));
            if index == view.cursor {
                let pad = usize::from(width).saturating_sub(line.width());
                line.spans.push(Span::raw(" ".repeat(pad)));
                line = line.patch_style(THEME.cursor);
            }
            lines.push(line);
        }
        lines
    }
}

impl Drawn for AuditView {
    fn draw(&self, app: &App, screen: Rect, buffer: &mut Buffer) {
        let (width, height) = AUDIT_OVERLAY;
        AuditOverlay { app, view: self }.render(super::centered(above_status(screen), width, height), buffer);
    }
}
