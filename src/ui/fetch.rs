//! The fetch details overlay: the URL asked for, every redirect hop, the final answer,
//! what its status means for crawlers under each reading, and what looked wrong.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget, Wrap};

use super::pane_block;
use super::text::safe_span;
use super::theme::THEME;
use crate::app::{App, Origin};
use crate::fetch::size_label;
use crate::policy::Reading;

/// The fetch details overlay.
#[derive(Debug)]
pub struct FetchDetails<'a> {
    /// The state to draw.
    pub app: &'a App,
}

impl Widget for FetchDetails<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let document = self.app.document();
        let label = |text: &str| Span::styled(format!("{text:<11}"), THEME.dim);
        let value = |text: &str| safe_span(text, THEME.value, THEME.escape);
        let mut lines = Vec::new();
        match &document.origin {
            Origin::Site { url, outcome, warnings, .. } => {
                lines.push(Line::from([vec![label("Requested")], value(url.as_str())].concat()));
                match outcome {
                    Ok(fetched) => {
                        for hop in &fetched.hops {
                            let mut spans = vec![label(""), Span::styled(format!("{} ", hop.status), THEME.warning)];
                            spans.push(Span::styled("from ", THEME.dim));
                            spans.extend(value(hop.url.as_str()));
                            lines.push(Line::from(spans));
                        }
                        lines.push(Line::from([vec![label("Final")], value(fetched.final_url.as_str())].concat()));
                        let status_style = if fetched.status.is_success() { THEME.allowed } else { THEME.disallowed };
                        lines.push(Line::from(vec![
                            label("Status"),
                            Span::styled(fetched.status.to_string(), status_style),
                        ]));
                        let content_type = fetched.header("content-type").unwrap_or("(none)");
                        let mut size = vec![
                            label("Body"),
                            Span::raw(format!(
                                "{} in {} ms · Content-Type ",
                                size_label(fetched.body.len()),
                                fetched.elapsed.as_millis()
                            )),
                        ];
                        size.extend(value(content_type));
                        lines.push(Line::from(size));
                    }
                    Err(error) => {
                        lines.push(Line::from(
                            [vec![label("Failed")], safe_span(&error.to_string(), THEME.disallowed, THEME.escape)]
                                .concat(),
                        ));
                    }
                }
                lines.push(Line::raw(""));
                lines.push(Line::styled("What crawlers make of it", THEME.heading));
                for reading in Reading::ALL {
                    let reason = document.availability.reason(reading);
                    lines.push(Line::from(vec![
                        Span::styled(format!("{:<15}", reading.title()), THEME.title),
                        Span::raw(reason),
                    ]));
                }
                if !warnings.is_empty() {
                    lines.push(Line::raw(""));
                    lines.push(Line::styled("Warnings", THEME.heading));
                    for warning in warnings {
                        lines.push(Line::from([vec![Span::styled("• ", THEME.warning)], value(warning)].concat()));
                    }
                }
            }
            Origin::Pending(source) => {
                lines.push(Line::from([vec![label("Loading")], value(&source.label())].concat()));
            }
            _ => lines.push(Line::from(
                [
                    vec![label("Source")],
                    value(&document.label),
                    vec![Span::styled("  (not fetched over HTTP)", THEME.dim)],
                ]
                .concat(),
            )),
        }
        Clear.render(area, buf);
        Paragraph::new(lines)
            .block(pane_block(" Fetch details · Esc or i closes ", true))
            .wrap(Wrap { trim: false })
            .render(area, buf);
    }
}
