//! The help overlay: the keymap table, grouped by where each key applies, in columns, or
//! in one scrolled column on a narrow terminal.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget};

use super::pane_block;
use super::theme::THEME;
use crate::app::keymap::{Context, help_sections_for};

/// The help overlay: the keymap in columns, or, when the terminal is too narrow for
/// them, in one column that `j`/`k` scroll.
#[derive(Debug)]
pub struct HelpOverlay {
    /// The first line of the single column.
    pub scroll: usize,
    /// The keys to list first: those of the view help was opened over.
    pub first: Option<Context>,
}

impl Widget for HelpOverlay {
    fn render(self, area: Rect, buf: &mut Buffer) {
        Clear.render(area, buf);
        let sections = sections(self.first);
        let inner = pane_block("", true).inner(area);
        let height = usize::from(inner.height.max(1));
        // Blank lines between sections, unless leaving them out is what makes it fit.
        let layout = |gaps: bool| {
            let columns = columns_of(&sections, height, gaps);
            let widths: Vec<u16> = columns.iter().map(|lines| natural_width(lines)).collect();
            (columns, widths)
        };
        let (mut columns, mut widths) = layout(true);
        if widths.iter().sum::<u16>() > inner.width {
            (columns, widths) = layout(false);
        }
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
        let block = pane_block(
            " Keys · Esc or ? closes · arrows, Home, End, C-u, C-d move too · the mouse focuses, selects and scrolls ",
            true,
        );
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

/// The width a column needs: its longest line and a space.
fn natural_width(lines: &[Line]) -> u16 {
    lines.iter().map(Line::width).max().unwrap_or(0) as u16 + 1
}

/// The sections poured into columns `height` lines tall, in order, with a blank line
/// between sections when `gaps` is set. A section that does not fit goes on in the next
/// column under its heading again, so that every column is full and every binding shows
/// its context.
fn columns_of(sections: &[Vec<Line<'static>>], height: usize, gaps: bool) -> Vec<Vec<Line<'static>>> {
    let mut columns: Vec<Vec<Line<'static>>> = vec![Vec::new()];
    for section in sections {
        let Some((heading, bindings)) = section.split_first() else { continue };
        let mut pending = bindings.iter();
        let mut first = true;
        while let Some(column) = columns.last_mut() {
            // A heading needs a binding under it; a section after another needs a
            // blank line before it.
            let gap = usize::from(gaps && !column.is_empty());
            if column.len() + gap + 2 > height {
                columns.push(Vec::new());
                continue;
            }
            if gap == 1 {
                column.push(Line::raw(""));
            }
            let title = heading.to_string();
            column.push(if first { heading.clone() } else { Line::styled(format!("{title} (cont.)"), THEME.heading) });
            first = false;
            while column.len() < height {
                match pending.next() {
                    Some(line) => column.push(line.clone()),
                    None => break,
                }
            }
            if pending.len() == 0 {
                break;
            }
            columns.push(Vec::new());
        }
    }
    columns
}

/// The keymap as sections: a heading per context, a line per entry.
fn sections(first: Option<Context>) -> Vec<Vec<Line<'static>>> {
    help_sections_for(first)
        .into_iter()
        .map(|(context, entries)| {
            let key_width = entries.iter().map(|e| e.keys.chars().count()).max().unwrap_or(0).max(5);
            // A context of one key (a pane's) takes one line: room for the rest.
            if let [entry] = entries.as_slice() {
                return vec![Line::from(vec![
                    Span::styled(format!("{} ", context.title()), THEME.heading),
                    Span::styled(format!("{} ", entry.keys), THEME.key),
                    Span::raw(entry.label),
                ])];
            }
            std::iter::once(Line::styled(context.title(), THEME.heading))
                .chain(entries.into_iter().map(|entry| {
                    Line::from(vec![
                        Span::styled(format!("  {:<key_width$} ", entry.keys), THEME.key),
                        Span::raw(entry.label),
                    ])
                }))
                .collect()
        })
        .collect()
}
