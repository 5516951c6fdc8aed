//! The help overlay: the keymap table, grouped by where each key applies.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget};

use super::pane_block;
use super::theme::THEME;
use crate::app::keymap::{BINDINGS, Context, key_label};

/// The help overlay.
#[derive(Debug)]
pub struct HelpOverlay;

impl Widget for HelpOverlay {
    fn render(self, area: Rect, buf: &mut Buffer) {
        Clear.render(area, buf);
        let block = pane_block(" Keys · Esc or ? closes · the mouse focuses, selects and scrolls ", true);
        let inner = block.inner(area);
        block.render(area, buf);
        // Sections stay whole: each goes to the current column if it fits, else the next.
        let height = usize::from(inner.height.max(1));
        let mut columns: Vec<Vec<Line<'static>>> = vec![Vec::new()];
        for section in sections() {
            let current = columns.last().map_or(0, Vec::len);
            let needed = section.len() + usize::from(current > 0);
            if current > 0 && current + needed > height {
                columns.push(Vec::new());
            }
            if let Some(column) = columns.last_mut() {
                if !column.is_empty() {
                    column.push(Line::raw(""));
                }
                column.extend(section);
            }
        }
        // Each column as wide as its longest line, the spare width shared out between
        // them; when even that does not fit, equal shares (and clipped labels).
        let widths: Vec<u16> =
            columns.iter().map(|lines| lines.iter().map(Line::width).max().unwrap_or(0) as u16 + 1).collect();
        let needed: u16 = widths.iter().sum();
        let count = widths.len().max(1) as u16;
        let mut x = inner.x;
        for (lines, natural) in columns.into_iter().zip(widths) {
            let width =
                if needed <= inner.width { natural + (inner.width - needed) / count } else { inner.width / count };
            Paragraph::new(lines).render(Rect::new(x, inner.y, width.min(inner.right() - x), inner.height), buf);
            x += width;
        }
    }
}

/// The keymap as sections: a heading per context, a line per binding.
fn sections() -> Vec<Vec<Line<'static>>> {
    let mut sections: Vec<(Context, Vec<Line<'static>>)> = Vec::new();
    for binding in BINDINGS {
        if sections.last().is_none_or(|(context, _)| *context != binding.context) {
            sections.push((binding.context, vec![Line::styled(binding.context.title(), THEME.heading)]));
        }
        let keys: Vec<String> = binding.keys.iter().map(|&k| key_label(k)).collect();
        let line =
            Line::from(vec![Span::styled(format!("  {:<9}", keys.join(" ")), THEME.key), Span::raw(binding.label)]);
        if let Some((_, lines)) = sections.last_mut() {
            lines.push(line);
        }
    }
    sections.into_iter().map(|(_, lines)| lines).collect()
}
