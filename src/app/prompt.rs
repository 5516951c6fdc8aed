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
use super::{About, App, Direction, Edit, Effect, Overlay, Pane};

/// What a prompt is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptKind {
    /// The tester's path or URL (`/`): the verdict follows every key, Enter keeps it.
    TestPath,
    /// An access log to audit (`L`).
    AuditLog,
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
            PromptKind::AuditLog => "Audit an access log",
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
            PromptKind::AuditLog => "Log file: ",
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
            PromptKind::AuditLog => {
                "Combined, Common or JSON lines, gzipped or not: judged against the site's stored versions, or the \
                 file on screen; Esc cancels."
            }
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

impl App {
    /// Opens a prompt of `kind`, over whatever is open.
    pub(super) fn open_prompt(&mut self, kind: PromptKind) {
        // Where the keys were, to go back to when the prompt closes (the tester, a search
        // and go-to-line take the focus).
        self.focus_before_prompt = self.focus;
        let input = match kind {
            PromptKind::TestPath => {
                // Typing replaces the last path; a move keeps it for editing.
                let mut input = self.path.clone();
                input.select_all();
                self.editor = None;
                self.focus = Pane::Tester;
                input
            }
            PromptKind::SaveAs(_) => {
                // Typing replaces the name offered; a move keeps it for editing.
                let default = self.source_file().map_or_else(|| "robots.txt".to_owned(), |p| p.display().to_string());
                let mut input = LineInput::with_text(&default);
                input.select_all();
                input
            }
            PromptKind::Search => {
                self.search.origin = self.source_view;
                self.focus_source_pane();
                let mut input = LineInput::with_text(&self.search.query);
                input.select_all();
                input
            }
            PromptKind::GoToLine => {
                self.focus_source_pane();
                LineInput::default()
            }
            PromptKind::OpenSource => {
                // The recovery copy the start-up message names, ready for Enter (typing
                // replaces it).
                let mut input = LineInput::default();
                if let Some(copy) = self.recovery_offer.take() {
                    input = LineInput::with_text(&copy.display().to_string());
                    input.select_all();
                }
                input
            }
            PromptKind::AddRobot | PromptKind::ComparePath | PromptKind::ComparePathsFile | PromptKind::AuditLog => {
                LineInput::default()
            }
        };
        if let PromptKind::SaveAs(_) = kind
            && matches!(self.overlay(), Some(Overlay::UnsavedEdits | Overlay::ConfirmReplace | Overlay::ChangedOnDisk))
        {
            // The question is answered by the save; what waits on it stays.
            let pending = self.pending.take();
            let effects = self.close_view();
            self.jobs_to_cancel.extend(effects);
            self.pending = pending;
        }
        self.prompt = Some(Prompt::new(kind, input));
    }

    /// The source pane takes the focus (for search and go-to-line), unless an overlay
    /// covers it: the compare view shows the source too.
    pub(super) fn focus_source_pane(&mut self) {
        if self.view.is_none() {
            self.focus = Pane::Source;
        }
    }

    /// An edit to the prompt's text; the tester and the search follow every key.
    pub(super) fn edit_prompt(&mut self, edit: Edit) {
        if self.prompt.as_mut().is_some_and(|prompt| prompt.input.apply(edit)) {
            self.prompt_changed();
        }
    }

    /// The prompt's text changed: the tester and the search answer at once.
    pub(super) fn prompt_changed(&mut self) {
        let Some(prompt) = &self.prompt else { return };
        match prompt.kind {
            PromptKind::TestPath => self.reevaluate(),
            PromptKind::Search => {
                let query = prompt.input.text().to_owned();
                self.find(&query, self.search.origin.cursor, Direction::Forward);
            }
            _ => {}
        }
    }

    /// Pasted text: into the prompt up to its first line break (the verdict or the
    /// search answers once, for the whole paste), or into the editor.
    pub(super) fn paste(&mut self, text: &str) {
        if let Some(prompt) = &mut self.prompt {
            let mut changed = false;
            for c in text.chars().take_while(|&c| c != '\n' && c != '\r') {
                changed |= prompt.input.apply(Edit::Insert(c));
            }
            if changed {
                self.prompt_changed();
            }
        } else if self.view.is_none()
            // A view over the editor (help, a question) has the keys: a paste is no
            // answer to it, and does not reach the text beneath.
            && let Some(editor) = &mut self.editor
            // Terminals paste a line break as CR (tmux, most others) or CR LF: each is
            // a line break here, never a CR inside a line.
            && editor.insert(&text.replace("\r\n", "\n").replace('\r', "\n"))
        {
            let text = editor.text();
            self.record_undo("Paste".to_owned(), None);
            self.set_text(text);
        }
    }

    /// Enter in the prompt: closes it and does what it is for.
    pub(super) fn submit_prompt(&mut self) -> Vec<Effect> {
        let Some(prompt) = self.prompt.take() else { return Vec::new() };
        let text = prompt.text().to_owned();
        match prompt.kind {
            PromptKind::TestPath => {
                self.path = prompt.input;
                self.path.commit_to_history();
                self.focus = self.focus_before_prompt;
                let tested = self.path.text().to_owned();
                self.follow_tested_path(&tested);
                self.reevaluate();
            }
            PromptKind::AddRobot => self.add_robot_named(&text),
            PromptKind::OpenSource => return Self::open_typed_source(&text),
            PromptKind::SaveAs(after) => return self.save_to(&text, after),
            PromptKind::ComparePath => self.add_compare_path(&text),
            PromptKind::ComparePathsFile if !text.is_empty() => {
                return vec![Effect::ReadPaths { file: text.into() }];
            }
            PromptKind::Search => {
                self.search.query = text;
                if self.current_line_matches() {
                    let line = self.source_view.cursor + 1;
                    self.say(About::Moment, format!("Found on line {line}; n and N find the next and previous"));
                } else if !self.search.query.is_empty() {
                    self.say(About::Moment, format!("Not found: {}", self.search.query));
                }
            }
            PromptKind::GoToLine => self.go_to_line(&text),
            PromptKind::AuditLog if !text.is_empty() => return self.start_audit(text.into()),
            PromptKind::ComparePathsFile | PromptKind::AuditLog => {}
        }
        Vec::new()
    }

    /// Esc: closes the innermost thing open (a prompt, the editor's selection, the
    /// editor), or cancels a load.
    /// (An open view takes Esc first: see `App::update_open_view`.)
    pub(super) fn cancel(&mut self) -> Vec<Effect> {
        if let Some(prompt) = self.prompt.take() {
            match prompt.kind {
                // The tester goes back to the path it had, the search to where it began.
                PromptKind::TestPath => {
                    self.focus = self.focus_before_prompt;
                    self.reevaluate();
                }
                PromptKind::Search | PromptKind::GoToLine => {
                    if prompt.kind == PromptKind::Search {
                        self.restore_search_origin();
                    }
                    self.focus = self.focus_before_prompt;
                }
                // The save that was to come before quitting (or reloading) is off: so
                // is what waited for it.
                PromptKind::SaveAs(_) => self.pending = None,
                _ => {}
            }
            return Vec::new();
        }
        if let Some(editor) = &mut self.editor {
            // A selection goes first, as in most editors; the next Esc leaves.
            if editor.cancel_selection() {
                self.say(About::Moment, "Selection dropped; Esc again leaves the editor");
            } else {
                self.close_editor();
            }
            return Vec::new();
        }
        if self.fixing.take().is_some() {
            self.say(About::Moment, "Cancelled fixing everything; the text is as it was");
            return Vec::new();
        }
        if let Some(label) = self.load_in_progress().map(|loading| loading.source.label())
            && let Some(id) = self.load.stop()
        {
            self.say(About::Moment, format!("Cancelled loading {label}"));
            return vec![Effect::CancelLoad { id }];
        }
        self.status.clear();
        Vec::new()
    }
}
