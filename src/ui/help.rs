//! The help overlay: the keymap table, grouped by where each key applies, in columns, or
//! in one scrolled column on a narrow terminal.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget};

use super::pane_block;
use super::theme::THEME;
use crate::app::keymap::{help_sections, key_label};

/// The help overlay: the keymap in columns, or, when the terminal is too narrow for
/// them, in one column that `j`/`k` scroll.
#[derive(Debug)]
pub struct HelpOverlay {
    /// The first line of the single column.
    pub scroll: usize,
}

impl Widget for HelpOverlay {
    fn render(self, area: Rect, buf: &mut Buffer) {
        Clear.render(area, buf);
        let sections = sections();
        let natural = |lines: &[Line]| lines.iter().map(Line::width).max().unwrap_or(0) as u16 + 1;
        let inner = pane_block("", true).inner(area);
        // Sections stay whole: each goes to the current column if it fits, else the next.
        let height = usize::from(inner.height.max(1));
        let mut columns: Vec<Vec<Line<'static>>> = vec![Vec::new()];
        for section in sections.iter().cloned() {
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
        let widths: Vec<u16> = columns.iter().map(|lines| natural(lines)).collect();
        let needed: u16 = widths.iter().sum();
        if needed > inner.width {
            // Too narrow for the columns: one column, scrolled.
            let block = pane_block(" Keys · j/k scroll · Esc or ? closes ", true);
            block.render(area, buf);
            let lines: Vec<Line<'static>> = sections.join(&Line::raw(""));
            let scroll = u16::try_from(self.scroll).unwrap_or(u16::MAX);
            Paragraph::new(lines).scroll((scroll, 0)).render(inner, buf);
            return;
        }
        let block = pane_block(" Keys · Esc or ? closes · the mouse focuses, selects and scrolls ", true);
        block.render(area, buf);
        // Each column as wide as its longest line, the spare width shared out between
        // them.
        let count = widths.len().max(1) as u16;
        let mut x = inner.x;
        for (lines, natural) in columns.into_iter().zip(widths) {
            let width = natural + (inner.width - needed) / count;
            Paragraph::new(lines).render(Rect::new(x, inner.y, width.min(inner.right() - x), inner.height), buf);
            x += width;
        }
    }
}

/// The keymap as sections: a heading per context, a line per binding.
fn sections() -> Vec<Vec<Line<'static>>> {
    help_sections()
        .into_iter()
        .map(|(context, bindings)| {
            std::iter::once(Line::styled(context.title(), THEME.heading))
                .chain(bindings.into_iter().map(|binding| {
                    let keys: Vec<String> = binding.keys.iter().map(|&k| key_label(k)).collect();
                    Line::from(vec![
                        Span::styled(format!("  {:<9}", keys.join(" ")), THEME.key),
                        Span::raw(binding.label),
                    ])
                }))
                .collect()
        })
        .collect()
}
