//! Every colour and style of the explorer, in one place.

use ratatui::style::{Color, Modifier, Style};

/// The explorer's styles.
#[derive(Debug, Clone, Copy)]
pub struct Theme {
    /// A pane's border.
    pub border: Style,
    /// The focused pane's border.
    pub border_focused: Style,
    /// Pane titles.
    pub title: Style,
    /// Line numbers in the gutter.
    pub line_number: Style,
    /// The gutter mark of lines in the group that applies.
    pub group_mark: Style,
    /// Field names (`User-agent`, `Disallow`).
    pub field: Style,
    /// Values.
    pub value: Style,
    /// Comments.
    pub comment: Style,
    /// Visible escapes of control characters and invalid bytes: a warning.
    pub escape: Style,
    /// The deciding line when the verdict is "allowed".
    pub decides_allowed: Style,
    /// The deciding line when the verdict is "disallowed".
    pub decides_disallowed: Style,
    /// A line that states a usage preference shown (Content-Usage, Content-Signal).
    pub decides_usage: Style,
    /// The cursor line of the focused pane (and the editor's cursor).
    pub cursor: Style,
    /// The text selected in the editor: unlike the cursor, so that a selection of three
    /// characters does not look like four.
    pub selection: Style,
    /// The selected robot.
    pub selected: Style,
    /// "ALLOWED".
    pub allowed: Style,
    /// "DISALLOWED".
    pub disallowed: Style,
    /// Secondary text.
    pub dim: Style,
    /// Warnings in text (readings disagree).
    pub warning: Style,
    /// Headings inside panes.
    pub heading: Style,
    /// The status bar's background.
    pub status: Style,
    /// Keys in hints and help.
    pub key: Style,
    /// A compare cell that disagrees with the rest of its row.
    pub odd_cell: Style,
    /// The mark of a compared robot in the switcher.
    pub compare_mark: Style,
    /// Where the search query occurs in the source.
    pub search_hit: Style,
    /// Lines the reading on screen never reads (past RFC 9309's 500 KiB).
    pub unread: Style,
}

/// The default theme: readable on dark and light terminals, meaning carried by more than
/// colour (words, marks and bold) for those who cannot tell red from green.
pub const THEME: Theme = Theme {
    border: Style::new().fg(Color::DarkGray),
    border_focused: Style::new().fg(Color::Cyan),
    title: Style::new().add_modifier(Modifier::BOLD),
    line_number: Style::new().fg(Color::DarkGray),
    group_mark: Style::new().fg(Color::Cyan),
    field: Style::new().fg(Color::Blue).add_modifier(Modifier::BOLD),
    value: Style::new(),
    comment: Style::new().fg(Color::DarkGray).add_modifier(Modifier::ITALIC),
    escape: Style::new().fg(Color::Black).bg(Color::Yellow),
    decides_allowed: Style::new().fg(Color::Black).bg(Color::Green),
    decides_disallowed: Style::new().fg(Color::White).bg(Color::Red),
    decides_usage: Style::new().fg(Color::Black).bg(Color::Magenta),
    cursor: Style::new().add_modifier(Modifier::REVERSED),
    selection: Style::new().fg(Color::Black).bg(Color::LightBlue),
    selected: Style::new().fg(Color::Black).bg(Color::Cyan),
    allowed: Style::new().fg(Color::Green).add_modifier(Modifier::BOLD),
    disallowed: Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
    dim: Style::new().fg(Color::DarkGray),
    warning: Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
    heading: Style::new().fg(Color::Magenta).add_modifier(Modifier::BOLD),
    status: Style::new().fg(Color::White).bg(Color::DarkGray),
    key: Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD),
    odd_cell: Style::new().bg(Color::Yellow).add_modifier(Modifier::BOLD),
    compare_mark: Style::new().fg(Color::Magenta),
    search_hit: Style::new().fg(Color::Black).bg(Color::LightYellow),
    unread: Style::new().fg(Color::DarkGray).add_modifier(Modifier::DIM),
};
