//! The source pane: the file, numbered, with fields, values and comments coloured, the
//! group that applies marked in the gutter, the deciding line highlighted and the lines
//! that state the usage preferences shown highlighted in their own colour.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Widget};

use super::edits::severity_style;
use super::text::{cut_end, safe_spans, skip_columns, visible_prefix};
use super::theme::THEME;
use super::{fitted_title, pane_block};
use crate::app::editor::{Editor, byte_of_char, editor_columns, most_chars};
use crate::app::layout::source_gutter_width;
use crate::app::search::find_in;
use crate::app::{App, Pane};
use crate::fetch::size_label;
use crate::policy::escape::{TAB_STOP_COLUMNS, display_width, is_unsafe, visible};
use crate::words::plural;

/// A tab in the editor (see [`editor_columns`]).
const TAB_SPACES: &str = "    ";
const _: () = assert!(TAB_SPACES.len() == TAB_STOP_COLUMNS);

/// What a line of the editor shows besides its text.
struct LineMarks {
    /// The cursor's character, when it is on this line.
    cursor: Option<usize>,
    /// The selected characters.
    selected: Option<std::ops::Range<usize>>,
}

/// The editor in the pane: the line numbers in a gutter of their own, which stays when a
/// long line scrolls the text sideways, and the window of the text that holds the cursor.
fn draw_editor(editor: &Editor, area: Rect, buf: &mut Buffer) {
    let count = editor.lines().len();
    let title = format!(" Editing · {count} lines · Esc leaves (edits stay) · Ctrl-S saves · Ctrl-Z undoes ");
    let block = pane_block(&title, true);
    let inner = block.inner(area);
    block.render(area, buf);
    let width = count.to_string().len() as u16 + 1;
    let gutter = Rect { width: width.min(inner.width), ..inner };
    let text = Rect { x: inner.x + gutter.width, width: inner.width - gutter.width, ..inner };
    let window = editor.follow_cursor(usize::from(text.height), usize::from(text.width));
    let (cursor_row, cursor_column) = editor.cursor();
    let lines = editor.lines();
    for row in 0..text.height {
        let line = window.top + usize::from(row);
        if line >= lines.len() {
            break;
        }
        let style = if line == cursor_row { THEME.cursor } else { THEME.line_number };
        let number = format!("{:>w$}", line + 1, w = usize::from(width) - 1);
        buf.set_string(gutter.x, gutter.y + row, number, style);
        let marks =
            LineMarks { cursor: (line == cursor_row).then_some(cursor_column), selected: editor.selected_on(line) };
        let y = text.y + row;
        // Only the cursor's line scrolls sideways (as in nano): every other line is shown
        // from its start, never blank because the cursor's line is long.
        let left = if line == cursor_row { window.left } else { 0 };
        draw_editor_line(&lines[line], left, &marks, Rect { y, height: 1, ..text }, buf);
    }
}

/// One line of the editor from its character `left`, the cursor's cell and the selected
/// characters reversed. Characters are drawn one by one, unsafe ones as their
/// escape in the warning style (pasted text may hold them), a tab as a tab stop of
/// spaces, and only as many as `area` shows.
fn draw_editor_line(line: &str, left: usize, marks: &LineMarks, area: Rect, buf: &mut Buffer) {
    let right = area.x.saturating_add(area.width);
    let mut x = area.x;
    let mut chars = line[byte_of_char(line, left)..].chars();
    let mut index = left;
    // Characters that take no column (combining marks) do not move `x`: the count keeps
    // a line of nothing else from costing its whole length.
    let mut budget = most_chars(usize::from(area.width));
    let mut drawn_at: Option<u16> = None;
    while x < right && budget > 0 {
        budget -= 1;
        let c = chars.next();
        let columns = c.map_or(1, editor_columns);
        // Drawn from a stack buffer: no allocation per character, only for the rare
        // escape.
        let mut encoded = [0; 4];
        let escape;
        let (shown, style): (&str, Style) = match c {
            Some('\t') => (&TAB_SPACES[..columns.min(TAB_SPACES.len())], Style::new()),
            Some(c) if is_unsafe(c) => {
                escape = visible(c);
                (&escape, THEME.escape)
            }
            Some(c) => (c.encode_utf8(&mut encoded), Style::new()),
            None => (" ", Style::new()),
        };
        let selected = marks.selected.as_ref().is_some_and(|s| s.contains(&index));
        let style = if selected { style.patch(THEME.selection) } else { style };
        let style = if marks.cursor == Some(index) { style.patch(THEME.cursor) } else { style };
        // A character that takes no column (a combining accent) joins the one drawn
        // before (the first cell of a wide one).
        if columns == 0
            && let Some(c) = c
            && let Some(before) = drawn_at
            && let Some(cell) = buf.cell_mut((before, area.y))
        {
            let joined = format!("{}{c}", cell.symbol());
            cell.set_symbol(&joined);
            index += 1;
            continue;
        }
        // A wide character cut by the right edge is left out; ratatui blanks its cell.
        buf.set_stringn(x, area.y, shown, usize::from(right - x), style);
        drawn_at = Some(x);
        x = x.saturating_add(u16::try_from(columns).unwrap_or(u16::MAX));
        if c.is_none() {
            break;
        }
        index += 1;
    }
}

/// The source pane, drawn from the app's state.
#[derive(Debug)]
pub struct SourcePane<'a> {
    /// The state to draw.
    pub app: &'a App,
}

impl Widget for SourcePane<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let app = self.app;
        let txt = &app.document().txt;
        let lines = txt.lines();
        if let Some(editor) = app.editor() {
            draw_editor(editor, area, buf);
            return;
        }
        let size = format!("{} · {}", size_label(txt.source().len()), plural(lines.len(), "line"));
        let scrolled = match app.source_column() {
            0 => String::new(),
            column => format!("from column {}", column + 1),
        };
        let search = match app.search_query() {
            "" => String::new(),
            query => format!("n/N find {}", cut_end(query, 20)),
        };
        // Under RFC 9309 a file past 500 KiB is read only so far: the lines past the cut
        // are dimmed, and the title says so.
        let cut = txt.rfc9309_cut().filter(|_| app.shown_reading() == crate::policy::Reading::Rfc9309);
        let cut_note = cut.map(|cut| format!("RFC 9309 reads {}", size_label(cut))).unwrap_or_default();
        let mut parts = vec!["Source"];
        if app.is_dirty() {
            parts.push("edited");
        }
        parts.extend(
            // The cut before the size: it changes answers, the size only describes.
            [cut_note.as_str(), size.as_str(), scrolled.as_str(), search.as_str()]
                .into_iter()
                .filter(|p| !p.is_empty()),
        );
        let block: Block = pane_block(&fitted_title(&parts, area.width), app.focus() == Pane::Source);
        let inner = block.inner(area);
        block.render(area, buf);
        // The worst diagnostic of each visible line, for the gutter.
        let diagnostics = app.diagnostics();
        let first_visible = diagnostics.partition_point(|d| d.line() <= app.source_view().offset);

        let verdict = app.shown_verdict();
        let interpretation = txt.interpretation(app.shown_reading());
        let applied: Vec<(usize, usize)> = verdict
            .selection()
            .groups()
            .iter()
            .map(|&g| (interpretation.groups()[g].first_line(), interpretation.groups()[g].last_line()))
            .collect();
        let deciding = verdict.decided_by().map(|m| m.line());
        let usage_lines = app.shown_usage_lines();
        let gutter = source_gutter_width(lines.len());
        // The line number's width: the gutter less its three marks.
        let number_width = gutter - 3;
        let view = app.source_view();
        let focused = app.focus() == Pane::Source;
        let text_width = usize::from(inner.width).saturating_sub(gutter);

        for (row, index) in (view.offset..lines.len()).take(usize::from(inner.height)).enumerate() {
            let number = index + 1;
            let in_group = applied.iter().any(|&(first, last)| (first..=last).contains(&number));
            let number_style = if focused && index == view.cursor { THEME.cursor } else { THEME.line_number };
            let worst = diagnostics[first_visible..]
                .iter()
                .take_while(|d| d.line() <= number)
                .filter(|d| d.line() == number)
                .map(robotscope_core::Diagnostic::severity)
                .min();
            let mark = worst.map_or(Span::raw(" "), |severity| Span::styled("●", severity_style(severity)));
            let mut spans = vec![
                Span::styled(format!("{number:>number_width$}"), number_style),
                mark,
                Span::styled(if in_group { "▌" } else { " " }, THEME.group_mark),
                Span::raw(" "),
            ];
            let content = lines[index].content(txt.source());
            spans.extend(highlight(content, text_width, app.source_column()));
            let y = inner.y + row as u16;
            buf.set_line(inner.x, y, &Line::from(spans), inner.width);
            mark_search_hit(buf, Rect::new(inner.x + gutter as u16, y, text_width as u16, 1), content, app);
            let style = if deciding == Some(number) {
                Some(if verdict.allowed() { THEME.decides_allowed } else { THEME.decides_disallowed })
            } else {
                usage_lines.contains(&number).then_some(THEME.decides_usage)
            };
            if let Some(style) = style {
                let start = inner.x + gutter as u16;
                buf.set_style(Rect::new(start, y, inner.right().saturating_sub(start), 1), style);
            } else if cut.is_some_and(|cut| lines[index].start() >= cut) {
                buf.set_style(Rect::new(inner.x, y, inner.width, 1), THEME.unread);
            }
        }
    }
}

/// Highlights where the search query occurs in a visible line (its first occurrence,
/// where it is drawn, escapes and tabs counted).
fn mark_search_hit(buf: &mut Buffer, area: Rect, content: &[u8], app: &App) {
    let query = app.search_query();
    let Some(at) = find_in(content, query.as_bytes()) else { return };
    let start = display_width(&content[..at]);
    let width = display_width(&content[at..at + query.len()]);
    let skip = app.source_column();
    let (from, to) = (start.max(skip) - skip, (start + width).saturating_sub(skip));
    if to > from && from < usize::from(area.width) {
        let width = (to - from).min(usize::from(area.width) - from);
        buf.set_style(Rect::new(area.x + from as u16, area.y, width as u16, 1), THEME.search_hit);
    }
}

/// Syntax colours for one line (the field name, the colon, the value, the comment),
/// from column `skip` on.
fn highlight(content: &[u8], width: usize, skip: usize) -> Vec<Span<'static>> {
    let content = visible_prefix(content, width + skip);
    let (code, comment) = match memchr::memchr(b'#', content) {
        Some(at) => content.split_at(at),
        None => (content, &[][..]),
    };
    let mut column = 0;
    let mut spans = Vec::new();
    match memchr::memchr(b':', code) {
        Some(colon) => {
            spans.extend(safe_spans(&code[..colon], THEME.field, THEME.escape, &mut column));
            spans.extend(safe_spans(b":", THEME.dim, THEME.escape, &mut column));
            spans.extend(safe_spans(&code[colon + 1..], THEME.value, THEME.escape, &mut column));
        }
        None => spans.extend(safe_spans(code, THEME.value, THEME.escape, &mut column)),
    }
    spans.extend(safe_spans(comment, THEME.comment, THEME.escape, &mut column));
    skip_columns(spans, skip)
}
