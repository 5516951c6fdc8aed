//! The one prompt sub-state: a line of text being typed, what it is for, and what Enter
//! does with it.
//!
//! Every prompt of the explorer (the tester's path, a robot to add, a source to open,
//! where to save, a compare row, a file of rows, a search, a line to go to) is a
//! [`Prompt`]; the keymap turns keys into [`Action::PromptEdit`](super::Action::PromptEdit)
//! and [`Action::PromptSubmit`](super::Action::PromptSubmit) whatever the prompt, and
//! [`App::submit_prompt`](super::App) decides by [`PromptKind`] what Enter means. A prompt
//! sits over the base view or over an overlay (a compare row is typed over the compare
//! view); while it is open it has every key.

use super::effect::AfterSave;
use super::input::LineInput;

/// What a prompt is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptKind {
    /// The tester's path or URL (`/`): the verdict follows every key, Enter keeps it.
    TestPath,
    /// A robot to select or add, by name or token (`a`).
    AddRobot,
    /// Another file or site to open (`o`).
    OpenSource,
    /// Where to save, and what happens after (`w`).
    SaveAs(AfterSave),
    /// A path to add as a row of the compare view (`/` there).
    ComparePath,
    /// A file of paths, one per line, for the compare rows (`L` there).
    ComparePathsFile,
    /// Text to find in the source (`Ctrl-F`); the cursor follows every key.
    Search,
    /// A line number to go to in the source (`:`).
    GoToLine,
}

impl PromptKind {
    /// The prompt box's title.
    #[must_use]
    pub fn title(self) -> &'static str {
        match self {
            PromptKind::TestPath => "Tester",
            PromptKind::AddRobot => "Add a robot",
            PromptKind::OpenSource => "Open",
            PromptKind::SaveAs(_) => "Save",
            PromptKind::ComparePath => "Add a path",
            PromptKind::ComparePathsFile => "Paths from a file",
            PromptKind::Search => "Find in the source",
            PromptKind::GoToLine => "Go to line",
        }
    }

    /// The label before the text.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            PromptKind::TestPath => "Path ▸ ",
            PromptKind::AddRobot => "Name or token: ",
            PromptKind::OpenSource => "File or site: ",
            PromptKind::SaveAs(_) => "Save to: ",
            PromptKind::ComparePath => "Path or URL: ",
            PromptKind::Search => "Find: ",
            PromptKind::ComparePathsFile => "File: ",
            PromptKind::GoToLine => "Line: ",
        }
    }

    /// One line on what Enter does.
    #[must_use]
    pub fn hint(self) -> &'static str {
        match self {
            PromptKind::TestPath => "Enter keeps the path, Esc goes back to the last one",
            PromptKind::AddRobot => "Enter selects a known robot or adds a new one; Esc cancels.",
            PromptKind::OpenSource => "A file, or a site (example.com, https://example.com/page); Esc cancels.",
            PromptKind::SaveAs(_) => "An existing file is replaced only if you say so; Esc cancels.",
            PromptKind::ComparePath => "A row for this path; Esc cancels.",
            PromptKind::ComparePathsFile => "One path or URL per line replaces the rows; Esc cancels.",
            PromptKind::Search => "Enter stays on the match (n/N next and previous); Esc goes back.",
            PromptKind::GoToLine => "Enter goes there; Esc cancels.",
        }
    }

    /// True for the tester's path, which is typed in the tester pane rather than in a
    /// box of its own.
    #[must_use]
    pub fn is_inline(self) -> bool {
        self == PromptKind::TestPath
    }
}

/// A prompt being typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prompt {
    /// What it is for.
    pub kind: PromptKind,
    /// The text.
    pub input: LineInput,
}

impl Prompt {
    /// A prompt holding `input`.
    #[must_use]
    pub fn new(kind: PromptKind, input: LineInput) -> Prompt {
        Prompt { kind, input }
    }

    /// The text typed, without surrounding whitespace.
    #[must_use]
    pub fn text(&self) -> &str {
        self.input.text().trim()
    }
}
