//! The records pane: the groups of the current reading with their agents, rules and
//! extension fields, then sitemaps and the fields outside any group. The groups that
//! apply to the robot are marked, merged groups say so, and the deciding rule is
//! highlighted.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::text::{safe_spans, visible_prefix};
use super::theme::THEME;
use super::{fitted_title, pane_block};
use crate::app::{App, Pane, RecordRow};
use crate::policy::AgentName;
use crate::words::plural;

/// The records pane, drawn from the app's state.
#[derive(Debug)]
pub struct RecordsPane<'a> {
    /// The state to draw.
    pub app: &'a App,
}

impl Widget for RecordsPane<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let app = self.app;
        let txt = &app.document().txt;
        let reading = app.reading();
        let interpretation = txt.interpretation(reading);
        let count = interpretation.groups().len();
        let kind = match (reading.is_classic(), count) {
            (true, 1) => "record",
            (true, _) => "records",
            (false, 1) => "group",
            (false, _) => "groups",
        };
        // The same count as the list `d` opens: problems (errors, warnings) and notes.
        let problems = if app.stale_diagnostics().is_some() {
            "checking for problems".to_owned()
        } else {
            let notes = app.diagnostics().iter().filter(|d| d.severity() == crate::policy::Severity::Info).count();
            let problems = plural(app.diagnostics().len() - notes, "problem");
            if notes == 0 { problems } else { format!("{problems}, {}", plural(notes, "note")) }
        };
        let groups = format!("{count} {kind}");
        let title = fitted_title(&["Records", &problems, &groups, "d lists them", reading.title()], area.width);
        let block = pane_block(&title, app.focus() == Pane::Records);
        let inner = block.inner(area);
        block.render(area, buf);
        if app.is_waiting_for_source() {
            Paragraph::new(Line::styled("Loading…", THEME.dim)).render(inner, buf);
            return;
        }

        let verdict = &app.evaluation().verdict;
        let selection = &verdict.selection();
        let rows = app.record_rows();
        let view = app.records_view();
        let width = usize::from(inner.width);
        for (row, &record) in rows.iter().enumerate().skip(view.offset).take(usize::from(inner.height)) {
            let mut column = 0;
            let spans: Vec<Span<'static>> = match record {
                RecordRow::Group { group } => {
                    let g = &interpretation.groups()[group];
                    let applies = selection.groups().contains(&group);
                    let name = if reading.is_classic() { "Record" } else { "Group" };
                    let mut text =
                        format!("{} {name} {} · line {}", if applies { "▶" } else { " " }, group + 1, g.first_line());
                    if applies && selection.is_merged() {
                        text.push_str(" · merged");
                    }
                    if g.rules().is_empty() {
                        text.push_str(" · no rules");
                    }
                    vec![Span::styled(text, if applies { THEME.group_mark.patch(THEME.title) } else { THEME.title })]
                }
                RecordRow::Agent { group, agent } => {
                    let line = &interpretation.groups()[group].agents()[agent];
                    let mut spans = vec![Span::styled("  User-agent ", THEME.field)];
                    column += 13;
                    spans.extend(safe_spans(
                        visible_prefix(txt.text(&line.value()), width),
                        THEME.value,
                        THEME.escape,
                        &mut column,
                    ));
                    if *line.name() == AgentName::Star {
                        spans.push(Span::styled("  (every other robot)", THEME.dim));
                    }
                    spans
                }
                RecordRow::Rule { group, rule } => {
                    let r = &interpretation.groups()[group].rules()[rule];
                    let decides = verdict.decided_by().is_some_and(|m| m.group() == group && m.rule() == rule);
                    let lost = verdict.losers().iter().any(|m| m.group() == group && m.rule() == rule);
                    let style = match (decides, verdict.allowed()) {
                        (true, true) => THEME.decides_allowed,
                        (true, false) => THEME.decides_disallowed,
                        (false, _) if lost => THEME.dim,
                        _ => THEME.value,
                    };
                    let head = format!("    {:<8} ", r.kind().name());
                    column += head.len();
                    let mut spans = vec![Span::styled(head, if decides { style } else { THEME.field })];
                    spans.extend(safe_spans(
                        visible_prefix(txt.text(&r.value()), width),
                        style,
                        THEME.escape,
                        &mut column,
                    ));
                    if lost {
                        spans.push(Span::styled("  (matched, lost)", THEME.dim));
                    }
                    spans
                }
                RecordRow::Extension { field, .. } => field_spans(app, field, "    ", width),
                RecordRow::Heading(section) => vec![Span::styled(section.title(), THEME.heading)],
                RecordRow::Field { field, .. } => field_spans(app, field, "  ", width),
            };
            let y = inner.y + (row - view.offset) as u16;
            buf.set_line(inner.x, y, &Line::from(spans), inner.width);
            if app.focus() == Pane::Records && row == view.cursor {
                buf.set_style(Rect::new(inner.x, y, inner.width, 1), THEME.cursor);
            }
        }
    }
}

/// A field as `Name value (line N)`.
fn field_spans(app: &App, field: usize, indent: &str, width: usize) -> Vec<Span<'static>> {
    let txt = &app.document().txt;
    let f = &txt.interpretation(app.reading()).fields()[field];
    let mut column = indent.len();
    let mut spans = vec![Span::raw(indent.to_owned())];
    spans.extend(safe_spans(visible_prefix(txt.text(&f.key()), width), THEME.field, THEME.escape, &mut column));
    spans.push(Span::raw(" "));
    column += 1;
    spans.extend(safe_spans(visible_prefix(txt.text(&f.value()), width), THEME.value, THEME.escape, &mut column));
    spans.push(Span::styled(format!("  line {}", f.line()), THEME.dim));
    spans
}
