//! Changing the text: fixes, the editor, and what the changes did (flipped verdicts,
//! the diff); copying it out and saving it.
//!
//! Every change goes through `App::set_text`, which re-parses, re-lints and
//! re-evaluates at once, so the tester and the gutter always describe the text on
//! screen. The text as it was loaded is kept, for the diff, the verdicts it flipped and
//! the question asked on quitting.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crossterm::event::KeyEvent;

use super::document::{Document, Origin};
use super::editor::{Editor, EditorRefusal, Keyed, place_of_change};
use super::effect::CopyWhat;
use super::{About, Action, AfterSave, App, Effect, Pane};
use crate::clipboard::{ClipboardError, ClipboardMode, CopyMethod, Environment, choose, osc52_len, osc52_limit};
use crate::fetch::Source;
use crate::fetch::size_label;
use crate::policy::diff::unified_diff;
use crate::policy::fix::{FixReport, apply_edits, check_fixes, compatible_fixes, fix_all, fix_all_effect};
use crate::policy::impact::{Impact, impact};
use crate::policy::lint::{Diagnostic, lint};
use crate::policy::request::Request;
use crate::policy::{Availability, Reading, evaluate_fetched};
use crate::save::{SaveError, Saved};
use crate::words::plural;

/// One (robot, path) verdict that the edits flipped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The robot's name.
    pub robot: String,
    /// The reading it was decided under (the robot's, or the chosen one).
    pub reading: Reading,
    /// The path.
    pub path: String,
    /// The verdict for the loaded text.
    pub before: bool,
    /// The verdict for the edited text.
    pub after: bool,
    /// Why, for the edited text.
    pub explanation: String,
}

/// At most this many robots and paths are compared for the changes view.
const MAX_LOOKED_AT: usize = 200;

/// Texts up to this size are linted at once (in a millisecond or two). Larger ones are
/// linted on a background task that the event loop starts ([`App::stale_diagnostics`]),
/// so that a 3.7 MB file shows, and takes keys, without waiting some 80 ms for them.
const LINT_AT_ONCE_BYTES: usize = 64 * 1024;

impl App {
    /// The diagnostics of the text on screen (none yet while a large text is linted in
    /// the background).
    #[must_use]
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The text generation whose diagnostics are still to come, when the text is being
    /// linted in the background: the event loop lints it and answers with
    /// [`Action::Linted`].
    #[must_use]
    pub fn stale_diagnostics(&self) -> Option<u64> {
        (!self.diagnostics_current).then_some(self.text_generation)
    }

    /// True when the text differs from what was loaded (or last saved).
    #[must_use]
    pub fn is_dirty(&self) -> bool {
        self.document.txt.source() != self.original.source()
    }

    /// The open editor, if any.
    #[must_use]
    pub fn editor(&self) -> Option<&Editor> {
        self.editor.as_ref()
    }

    /// The local file the text came from, if it came from one.
    pub(super) fn source_file(&self) -> Option<PathBuf> {
        match &self.document.origin {
            Origin::Local(Source::File(path)) => Some(path.clone()),
            _ => None,
        }
    }

    /// The 1-based line the user is on: the editor's cursor, or the source pane's.
    #[must_use]
    pub fn cursor_line(&self) -> usize {
        self.editor.as_ref().map_or(self.source_view.cursor + 1, Editor::cursor_line)
    }

    /// Replaces the text: re-parses, re-lints, re-evaluates, and keeps every view where
    /// it was.
    pub(super) fn set_text(&mut self, text: Vec<u8>) {
        if text == self.document.txt.source() {
            return;
        }
        let mut document =
            Document::new(self.limits.parse(text), self.document.label.clone(), self.document.origin.clone());
        // The edited text is what is tested now, whatever the fetch said.
        document.availability = Availability::Available;
        // Still only the part that was read: a save writes that part.
        document.read_in_part = self.document.read_in_part.take();
        // Still the file as it was read, for the save to tell whether it changed since.
        document.stamp = self.document.stamp.take();
        self.document = document;
        self.text_generation += 1;
        self.relint();
        self.rebuild_columns();
        let (len, height) = (self.document.txt.lines().len(), self.areas().inner_height(Pane::Source));
        self.source_view.cursor = self.source_view.cursor.min(len.saturating_sub(1));
        self.source_view.offset = self.source_view.offset.min(len.saturating_sub(height.max(1)));
        self.records_view.cursor = self.records_view.cursor.min(self.record_rows().len().saturating_sub(1));
        self.evaluate_in_place();
    }

    /// Recomputes the diagnostics of the text on screen: at once for a small text, in
    /// the background for a large one (until then none are shown, rather than old ones
    /// on the wrong lines).
    pub(super) fn relint(&mut self) {
        if self.document.txt.source().len() <= LINT_AT_ONCE_BYTES {
            self.set_diagnostics(lint(&self.document.txt));
        } else {
            self.diagnostics.clear();
            self.diagnostics_current = false;
        }
    }

    /// Lints now if the background has not answered yet: for the actions that act on
    /// the diagnostics (`f`, the list).
    pub(super) fn lint_now(&mut self) {
        if !self.diagnostics_current {
            // What is written, every byte of it (see `Effect::Lint`).
            self.set_diagnostics(lint(&self.document.whole()));
        }
    }

    fn set_diagnostics(&mut self, diagnostics: Vec<Diagnostic>) {
        self.diagnostics = diagnostics;
        self.diagnostics_current = true;
    }

    /// `f`: the fixes of the diagnostics on the cursor's line (or, in the diagnostics
    /// list, of the `selected` one).
    pub(super) fn fix_here(&mut self, selected: Option<usize>) {
        self.lint_now();
        let chosen: Vec<&Diagnostic> = if let Some(selected) = selected {
            self.diagnostics.get(selected).into_iter().collect()
        } else {
            let line = self.cursor_line();
            self.diagnostics.iter().filter(|d| d.line() == line).collect()
        };
        let with_fix: Vec<Diagnostic> = chosen.into_iter().filter(|d| d.fix().is_some()).cloned().collect();
        if with_fix.is_empty() {
            let line = self.cursor_line();
            self.say(About::Moment, format!("Nothing to fix on line {line}"));
            return;
        }
        let fixes = compatible_fixes(&with_fix);
        let titles: Vec<&str> = fixes.iter().map(|f| f.title()).collect();
        let edits: Vec<_> = fixes.iter().flat_map(|f| f.edits().iter().cloned()).collect();
        let text = apply_edits(self.document.txt.source(), &edits);
        // Checked under every reading, for every robot the file names (issue 24).
        let effect = impact(&self.document.txt, &self.limits.parse(text.clone()));
        let message = format!("Fixed: {}, which {effect}", titles.join("; "));
        let line = with_fix.first().map_or(0, robotscope_core::Diagnostic::line);
        self.record_undo(format!("the fix on line {line} ({})", titles.join("; ")), None);
        self.replace_text_everywhere(text);
        self.say(About::Text, message);
    }

    /// Checks the selected diagnostic's fix under every reading, unless it was: the list
    /// shows what it would change before `f` applies it.
    pub(super) fn check_selected_fix(&mut self, index: usize) {
        if self.diagnostics.get(index).is_some_and(|d| d.fix().is_some() && d.fix_effect().is_none()) {
            check_fixes(&self.document.txt, &mut self.diagnostics[index..=index]);
        }
    }

    /// `F`: every fix, until none is left.
    pub(super) fn fix_everything(&mut self) -> Vec<Effect> {
        // A large text is fixed off the event loop (0.25 s for the 3.7 MB file): the keys
        // keep answering, Esc cancels, and an edit meanwhile makes the answer stale.
        if self.document.txt.source().len() > LINT_AT_ONCE_BYTES {
            self.fixing = Some(self.text_generation);
            self.say(About::Text, "Fixing everything… (Esc cancels)");
            return vec![Effect::FixAll { generation: self.text_generation, txt: Arc::clone(&self.document.txt) }];
        }
        let report = fix_all(self.document.txt.source());
        let effect = fix_all_effect(&self.document.txt, &report);
        self.fixed_everything(report, &effect);
        Vec::new()
    }

    /// `F`'s fixes, made here or in the background: applied (one step to undo), and said
    /// with what they change.
    pub(super) fn fixed_everything(&mut self, report: FixReport, effect: &Impact) {
        if report.applied() == 0 {
            self.say(About::Moment, "Nothing to fix");
            return;
        }
        let message = format!(
            "Applied {}, which {effect}; {} left (d lists them, v shows what changed, Ctrl-Z undoes)",
            plural(report.applied(), "fix"),
            plural(report.remaining().len(), "diagnostic")
        );
        self.record_undo(format!("all {} (F)", plural(report.applied(), "fix")), None);
        self.replace_text_everywhere(report.into_text());
        self.say(About::Text, message);
    }

    /// Sets the text and, if the editor is open, reloads it there too.
    pub(super) fn replace_text_everywhere(&mut self, text: Vec<u8>) {
        if let Some(editor) = &self.editor {
            let (row, column) = place_of_change(self.document.txt.source(), &text);
            let mut reopened = Editor::reopen(&text);
            reopened.show_from(editor.window().top);
            reopened.move_to(row, column);
            self.editor = Some(reopened);
        }
        self.set_text(text);
    }

    /// `e`: opens the editor on the text.
    pub(super) fn open_editor(&mut self) {
        match Editor::open(self.document.txt.source(), self.lossy_edit_confirmed) {
            Ok(mut editor) => {
                editor.move_to(self.source_view.cursor, 0);
                editor.show_from(self.source_view.offset);
                let effects = self.close_view();
                self.jobs_to_cancel.extend(effects);
                self.editor = Some(editor);
                self.focus = Pane::Source;
                self.say(About::Moment, "Editing: every change is tested at once. Esc leaves, Ctrl-S saves.");
            }
            Err(refusal) => {
                self.lossy_edit_confirmed = matches!(refusal, EditorRefusal::NotUtf8(_));
                self.say(About::Moment, format!("Cannot edit yet: {refusal}"));
            }
        }
    }

    /// A key typed in the editor.
    ///
    /// A key that goes on typing on the line of the undo step under way changes the
    /// editor's lines only: the keys of a burst (key repeat, fast typing) are parsed,
    /// linted and tested together, once, before the next frame or the next action of
    /// any other kind ([`App::settle`]). Every other key starts from a settled text, so
    /// that the undo step it opens keeps the text as it was before it.
    pub(super) fn editor_key(&mut self, key: KeyEvent) -> Vec<Effect> {
        let page = self.areas().inner_height(Pane::Source).max(1);
        let Some(editor) = &self.editor else { return Vec::new() };
        let (line, lines) = (editor.cursor_line(), editor.lines().len());
        let in_line = editor.edits_in_line(key);
        if !(in_line && self.undo.typing_on(line)) {
            self.settle_text();
        }
        let Some(editor) = &mut self.editor else { return Vec::new() };
        let keyed = editor.key(key, page);
        let (now_on, now_lines) = (editor.cursor_line(), editor.lines().len());
        let mut effects = Vec::new();
        let what = match keyed {
            Keyed::Ignored | Keyed::Moved | Keyed::Copy { cut: false, .. } => None,
            // Keys typed on one line are one step to undo; a change of lines is another.
            // (A selection typed over and a word or a line's end deleted are steps of
            // their own.)
            Keyed::Edited if in_line => Some((format!("typing on line {line}"), Some(line))),
            Keyed::Edited if now_lines > lines => Some((format!("the line break on line {line}"), None)),
            Keyed::Edited if now_lines < lines => Some((format!("the lines joined at line {line}"), None)),
            Keyed::Edited => Some((format!("the change on line {line}"), None)),
            // The cursor is where the cut began.
            Keyed::Copy { cut: true, .. } => Some((format!("the cut at line {now_on}"), None)),
            Keyed::NothingSelected => {
                self.say(About::Moment, "Nothing is selected: Shift with a move, or Ctrl-Space and moves, select text");
                None
            }
            Keyed::Mark(on) => {
                let said = if on { "Mark set: moves select from here (Esc drops it)" } else { "Mark dropped" };
                self.say(About::Moment, said);
                None
            }
        };
        if let Keyed::Copy { text, .. } = keyed {
            effects = self.copy_text(CopyWhat::Selection, text);
        }
        if let Some((what, typing_on)) = what {
            self.record_undo(what, typing_on);
            if let Some(editor) = &mut self.editor {
                editor.unsettle();
            }
        }
        if let Some(editor) = &self.editor {
            self.source_view.cursor = editor.cursor_line() - 1;
        }
        effects
    }

    /// Parses, lints and tests the editor's lines when keys changed them since the
    /// document was last made from them: the event loop calls it before it draws, and
    /// every action but a key in the editor starts with it. Returns the effects of the
    /// new text (its background lint, its recovery copy).
    pub fn settle(&mut self) -> Vec<Effect> {
        if self.settle_text() { self.housekeeping() } else { Vec::new() }
    }

    /// [`App::settle`]'s parse; true when there was something to settle.
    pub(super) fn settle_text(&mut self) -> bool {
        let Some(text) = self.editor.as_mut().and_then(Editor::take_unsettled) else { return false };
        self.set_text(text);
        // What the status bar said about the text before ("Ctrl-Y redoes it") is over.
        self.status.expire(&self.stamp());
        true
    }

    /// Leaves the editor; the edits stay.
    pub(super) fn close_editor(&mut self) {
        self.editor = None;
        // The source pane shows the line the editor's cursor was on.
        let (len, height) = (self.document.txt.lines().len(), self.areas().inner_height(Pane::Source));
        self.source_view.reveal(self.source_view.cursor, len, height);
        if self.is_dirty() {
            self.say(About::Text, "Edited: w saves, y copies, v shows what changed");
        }
    }

    /// What the edits changed, for the robots and paths the user looked at, under every
    /// reading: every (robot, reading, path) whose verdict differs between the loaded
    /// and the edited text.
    #[must_use]
    pub fn changes(&self) -> Vec<Change> {
        let mut paths: Vec<&str> = self.path.history().iter().map(String::as_str).collect();
        paths.push(self.path.text());
        paths.retain(|p| !p.trim().is_empty());
        paths.dedup();
        paths.truncate(MAX_LOOKED_AT);
        let tested: Vec<Request> = paths.iter().map(|path| Request::read(path)).collect();
        let mut changes = Vec::new();
        for token in self.looked_at.iter().take(MAX_LOOKED_AT) {
            let Some(entry) = self.robots.iter().find(|e| e.profile.token == *token) else { continue };
            let robot = entry.profile.robot();
            // Every reading, not only the one on screen: an edit can flip a verdict under
            // a reading the user is not looking at (issue 24).
            for reading in Reading::ALL {
                for request in &tested {
                    let path = &request.tested();
                    let before =
                        evaluate_fetched(&self.original, self.original_availability, &robot, path, reading).allowed();
                    let after = evaluate_fetched(&self.document.txt, self.document.availability, &robot, path, reading);
                    if before != after.allowed() {
                        changes.push(Change {
                            robot: entry.profile.name.clone(),
                            reading,
                            path: request.given().to_owned(),
                            before,
                            after: after.allowed(),
                            explanation: after.explanation().to_owned(),
                        });
                    }
                }
            }
        }
        changes
    }

    /// The diff of the text on screen against the loaded one.
    #[must_use]
    pub fn diff(&self) -> String {
        let name = self.source_file().and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()));
        unified_diff(self.original.source(), self.document.txt.source(), name.as_deref().unwrap_or("robots.txt"))
    }

    /// The lines of the group that applies to the selected robot, as text.
    fn group_text(&self) -> Option<String> {
        let interpretation = self.document.txt.interpretation(self.reading());
        let group = &interpretation.groups()[*self.evaluation.verdict.selection().groups().first()?];
        // The group as the file writes it: one that RFC 9309's 500 KiB cut ends early
        // goes on in the whole file (the tester says what the cut changes).
        let whole = self.document.whole();
        let last_line = whole
            .interpretation(self.reading())
            .groups()
            .iter()
            .find(|g| g.first_line() == group.first_line())
            .map_or(group.last_line(), crate::policy::Group::last_line);
        let (first, last) = (whole.line(group.first_line())?, whole.line(last_line)?);
        Some(String::from_utf8_lossy(&whole.source()[first.start()..last.end()]).into_owned())
    }

    /// `y` then a choice: copies the file, the group or the diff.
    pub(super) fn copy(&mut self, what: CopyWhat) -> Vec<Effect> {
        let text = match what {
            CopyWhat::File => String::from_utf8_lossy(self.document.txt.source()).into_owned(),
            CopyWhat::Group => {
                let Some(text) = self.group_text() else {
                    self.say(About::Moment, "No group applies to this robot, so there is none to copy");
                    return Vec::new();
                };
                text
            }
            CopyWhat::Diff => {
                let diff = self.diff();
                if diff.is_empty() {
                    self.say(About::Moment, "No edits yet, so there is no diff to copy");
                    return Vec::new();
                }
                diff
            }
            CopyWhat::Selection => {
                let Some(text) = self.editor.as_ref().and_then(Editor::selected_text) else {
                    self.say(About::Moment, "Nothing is selected in the editor, so there is nothing to copy");
                    return Vec::new();
                };
                text
            }
        };
        self.copy_text(what, text)
    }

    /// Sends `text` to the clipboard the settings choose.
    pub(in crate::app) fn copy_text(&mut self, what: CopyWhat, text: String) -> Vec<Effect> {
        let method = choose(self.clipboard, self.environment);
        if method == CopyMethod::Osc52 && !self.fits_osc52(what, &text) {
            return Vec::new();
        }
        vec![Effect::Copy { what, text, method }]
    }

    /// True when `text` fits in an OSC 52 sequence the terminal takes, and a tmux around
    /// it passes one; otherwise says why it is not sent (a terminal drops what is too
    /// long, and tmux what programs send unless its `set-clipboard` is `on`, without a
    /// word).
    fn fits_osc52(&mut self, what: CopyWhat, text: &str) -> bool {
        if let Some(setting) = self.environment.tmux_drops_osc52 {
            self.say(
                About::Moment,
                format!(
                    "Not copied: tmux drops the clipboard sequence (OSC 52) programs send while its set-clipboard \
                     option is '{setting}'; `tmux set -g set-clipboard on` lets it through. Meanwhile {}",
                    what.fallback(),
                ),
            );
            return false;
        }
        let length = osc52_len(text);
        if length <= self.osc52_max_bytes {
            return true;
        }
        let who = if self.environment.in_tmux { "tmux passes" } else { "terminals take" };
        self.say(
            About::Moment,
            format!(
                "Not copied: {} ({}) makes an OSC 52 sequence of {}, and {who} at most {} \
                 (--osc52-max-bytes sets it); {}",
                what.name(),
                size_label(text.len()),
                size_label(length),
                size_label(self.osc52_max_bytes),
                what.fallback(),
            ),
        );
        false
    }

    /// A copy finished; a failed system clipboard falls back to OSC 52 in `Auto` mode.
    /// The text is never lost: it is still on screen, and `w` saves it.
    pub(super) fn copied(
        &mut self,
        what: CopyWhat,
        text: String,
        result: Result<CopyMethod, ClipboardError>,
    ) -> Vec<Effect> {
        match result {
            Ok(CopyMethod::System) => {
                let bytes = plural(text.len(), "byte");
                self.say(About::Moment, format!("Copied {} ({bytes}) to the system clipboard", what.name()));
                Vec::new()
            }
            // OSC 52 has no answer: the terminal sets its clipboard if it allows it.
            Ok(CopyMethod::Osc52) => {
                let bytes = plural(text.len(), "byte");
                self.say(
                    About::Moment,
                    format!(
                        "Sent {} ({bytes}) to the terminal's clipboard (OSC 52): the terminal sets it if it allows \
                         OSC 52; if the paste comes out empty, {}",
                        what.name(),
                        what.fallback(),
                    ),
                );
                Vec::new()
            }
            Err(ClipboardError::System(reason)) if self.clipboard == ClipboardMode::Auto => {
                if !self.fits_osc52(what, &text) {
                    return Vec::new();
                }
                self.say(About::Moment, format!("The system clipboard failed ({reason}); trying the terminal's"));
                vec![Effect::Copy { what, text, method: CopyMethod::Osc52 }]
            }
            Err(error) => {
                self.say(About::Moment, format!("Copy failed: {error}. The text is not lost: {}.", what.fallback()));
                Vec::new()
            }
        }
    }

    /// A save finished: on success the saved text becomes the loaded one, and what
    /// waited for the save goes on.
    pub(super) fn saved(
        &mut self,
        path: &Path,
        text: Vec<u8>,
        after: AfterSave,
        result: Result<Saved, SaveError>,
    ) -> Vec<Effect> {
        let saved = match result {
            Ok(saved) => saved,
            Err(error) => return self.save_failed(path, after, error),
        };
        let bytes = plural(text.len(), "byte");
        self.original = Arc::new(self.limits.parse(text));
        self.original_generation += 1;
        self.original_availability = Availability::Available;
        // Saved as another file: that file is the one being edited now (the title and
        // the next save's default say so). A link stays the name it is saved under.
        self.document.origin = Origin::Local(Source::File(path.to_path_buf()));
        self.document.label = path.display().to_string();
        // The file as written is what the next save checks against.
        self.document.stamp.clone_from(&saved.stamp);
        let through = if saved.file == path {
            String::new()
        } else {
            format!(" (the file its link points to: {})", saved.file.display())
        };
        let in_place = if saved.in_place { "; written in place, which keeps its owner" } else { "" };
        let message = format!("Saved {bytes} to {}{through}{in_place}", path.display());
        self.say(About::Text, message);
        match (after, self.pending.take()) {
            (AfterSave::ThenContinue, Some(pending)) if !self.is_dirty() => self.carry_out(pending),
            _ => Vec::new(),
        }
    }

    /// Handles the actions of this module; gives the others back.
    pub(super) fn update_edits(&mut self, action: Action) -> Result<Vec<Effect>, Action> {
        Ok(match action {
            Action::Linted { generation, diagnostics } => {
                // The next lint may start (housekeeping asks for the text on screen).
                self.linting = false;
                // An answer for a text since replaced is dropped.
                if generation == self.text_generation && !self.diagnostics_current {
                    self.set_diagnostics(diagnostics);
                }
                Vec::new()
            }
            Action::FixHere => {
                self.fix_here(None);
                Vec::new()
            }
            Action::FixAll => self.fix_everything(),
            Action::FixedAll { generation, report, effect } => {
                // An answer for a text since changed (or a cancelled fix) is dropped.
                if self.fixing.take_if(|fixing| *fixing == generation).is_some() {
                    if generation == self.text_generation {
                        self.fixed_everything(*report, &effect);
                    } else {
                        self.say(About::Moment, "The text changed while every fix was being made: F makes them again");
                    }
                }
                Vec::new()
            }
            Action::OpenEditor => {
                self.open_editor();
                Vec::new()
            }
            Action::EditorKey(key) => self.editor_key(key),
            Action::Copy(what) => self.copy(what),
            Action::Copied { what, text, result } => self.copied(what, text, result),
            Action::Saved { path, text, after, result } => self.saved(&path, text, after, *result),
            Action::DiscardAndContinue => self.discard_and_continue(),
            Action::Undo => {
                self.undo();
                Vec::new()
            }
            Action::Redo => {
                self.redo();
                Vec::new()
            }
            Action::Terminate => self.terminate(),
            Action::RecoveryFailed(error) => self.recovery_failed(&error),
            Action::Quit => self.request_quit(),
            other => return Err(other),
        })
    }

    /// The environment the clipboard choice is made in (tests set their own), and the
    /// longest OSC 52 sequence to send (`None`: the environment's usual one).
    pub fn set_clipboard(&mut self, mode: ClipboardMode, environment: Environment, osc52_max_bytes: Option<usize>) {
        self.clipboard = mode;
        self.environment = environment;
        self.osc52_max_bytes = osc52_max_bytes.unwrap_or_else(|| osc52_limit(environment));
    }
}
