//! Keeping the user's work (issue 24): the question asked before anything drops
//! unsaved edits (quitting, reading the file again, opening another, a load that
//! finishes over them), the one asked before a save replaces a file the user did not
//! open, undo and redo of every change to the text, and where recovery copies go.
//!
//! Nothing here does I/O: a save is an [`Effect`], and whether the file exists is the
//! save's own answer ([`SaveError::Exists`]), not a look beforehand.

use std::path::{Path, PathBuf};

use super::document::{Document, Origin};
use super::view::{ChangedQuestion, ReplaceQuestion, Reply, movement, scrolled_to};
use super::{About, Action, AfterSave, App, Effect, Overlay, PromptKind, RecoveryCopy, View, keymap, layout};
use crate::fetch::{FileStamp, Source};
use crate::policy::diff::unified_diff;
use crate::save::{Replace, SaveError, recovery_base};

/// What waits for the answer about unsaved edits.
#[derive(Debug)]
pub enum Pending {
    /// Quitting (`q`, Ctrl-C).
    Quit,
    /// Reading the source again (`r`).
    Reload,
    /// Opening another file or site (`o`).
    Open(Source),
    /// Showing what a load brought, which finished while there were edits.
    ShowLoaded(Box<Loaded>),
}

/// A question the explorer asks, as the box and the status bar show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Question {
    /// What it is about.
    pub title: String,
    /// Its keys and what each does, in order.
    pub choices: Vec<(String, String)>,
}

/// A load that finished over unsaved edits: its document, and what to say when shown.
#[derive(Debug)]
pub struct Loaded {
    /// The load's id.
    pub id: u64,
    /// What it brought.
    pub document: Document,
}

impl Pending {
    /// What it does, for the question: "quit", "read it again", "open X", "show it".
    #[must_use]
    pub fn doing(&self) -> String {
        match self {
            Pending::Quit => "quit".to_owned(),
            Pending::Reload => "read it again".to_owned(),
            Pending::Open(source) => format!("open {}", source.label()),
            Pending::ShowLoaded(loaded) => format!("show {}", loaded.document.label),
        }
    }
}

/// The most bytes of text the undo and redo steps keep together: the oldest steps go
/// first (a 3.7 MB file keeps some seventeen of its own).
const UNDO_BYTES: usize = 64 << 20;

/// The most undo steps kept.
const MAX_UNDO_STEPS: usize = 1000;

/// One change to the text, undone by putting `text` back.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Step {
    /// The text before the change (for undo) or after it (for redo).
    text: Vec<u8>,
    /// What the change was, for the message ("the fix on line 3 (...)", "typing on line 3").
    what: String,
}

/// Undo and redo: the texts before each change, and the changes undone.
#[derive(Debug, Clone, Default)]
pub struct UndoHistory {
    undo: Vec<Step>,
    redo: Vec<Step>,
    /// The line of the typing run under way: keys typed on one line are one step.
    typing_on: Option<usize>,
}

impl UndoHistory {
    fn bytes(&self) -> usize {
        self.undo.iter().chain(&self.redo).map(|step| step.text.len()).sum()
    }

    /// Keeps `before`, the text a change is about to replace. Keys typed one after
    /// another on one line (`typing_on`) make one step.
    fn record(&mut self, before: &[u8], what: String, typing_on: Option<usize>) {
        let continues = typing_on.is_some() && typing_on == self.typing_on;
        self.typing_on = typing_on;
        if continues {
            return;
        }
        self.redo.clear();
        self.undo.push(Step { text: before.to_vec(), what });
        while self.undo.len() > MAX_UNDO_STEPS || (self.undo.len() > 1 && self.bytes() > UNDO_BYTES) {
            self.undo.remove(0);
        }
    }

    /// True when a typing run on `line` is under way: a key typed there joins its step.
    pub(super) fn typing_on(&self, line: usize) -> bool {
        self.typing_on == Some(line)
    }

    /// Forgets everything: another file is on screen.
    pub(super) fn clear(&mut self) {
        *self = UndoHistory::default();
    }

    /// True when there is something to undo.
    #[must_use]
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }
}

impl App {
    /// What waits for the answer about unsaved edits, while it is asked.
    #[must_use]
    pub fn pending(&self) -> Option<&Pending> {
        self.pending.as_ref()
    }

    /// The save that waits for the answer about replacing a file.
    #[must_use]
    pub fn replace_question(&self) -> Option<&ReplaceQuestion> {
        match &self.view {
            Some(View::ConfirmReplace(question)) => Some(question),
            _ => None,
        }
    }

    /// Does `pending` at once when there are no unsaved edits; otherwise asks first.
    pub(super) fn unless_unsaved(&mut self, pending: Pending) -> Vec<Effect> {
        if !self.is_dirty() {
            return self.carry_out(pending);
        }
        self.wait_for(pending);
        self.show(View::UnsavedEdits { below: None })
    }

    /// What waits for the answer about the edits is now `pending`. A load that waited
    /// to be shown is set aside, not dropped: if the user keeps working, it asks again.
    fn wait_for(&mut self, pending: Pending) {
        if let Some(Pending::ShowLoaded(loaded)) = self.pending.replace(pending) {
            self.load_held = Some(loaded);
        }
    }

    /// Goes on with what waited, the edits saved or given up.
    pub(super) fn carry_out(&mut self, pending: Pending) -> Vec<Effect> {
        match pending {
            Pending::Quit => vec![Effect::Quit],
            Pending::Reload => self.reload_now(),
            Pending::Open(source) => self.begin_load(source),
            Pending::ShowLoaded(loaded) => {
                self.show_loaded(loaded.id, loaded.document);
                Vec::new()
            }
        }
    }

    /// `y` in the question: the edits go, what waited goes on.
    pub(super) fn discard_and_continue(&mut self) -> Vec<Effect> {
        let pending = self.pending.take();
        let mut effects = self.close_view();
        let Some(pending) = pending else { return effects };
        effects.extend(self.carry_out(pending));
        // A load started now replaces the edits when it arrives, without asking again;
        // if it fails, they are still there.
        if let Some(Effect::Load { id, .. }) = effects.iter().find(|e| matches!(e, Effect::Load { .. })) {
            self.load_replaces_edits = Some(*id);
        }
        effects
    }

    /// `q` or Ctrl-C: quits, or asks first when there are unsaved edits. A second `q` or
    /// Ctrl-C while asked about quitting quits too, but never drops the edits silently:
    /// they go to a recovery copy of their own, and the farewell says where (issue 35).
    pub(super) fn request_quit(&mut self) -> Vec<Effect> {
        if self.overlay() == Some(Overlay::UnsavedEdits) && matches!(self.pending, Some(Pending::Quit)) {
            return vec![Effect::KeepEditsAndQuit(RecoveryCopy {
                base: self.recovery_path(),
                text: self.document.txt.source().to_vec(),
            })];
        }
        if self.overlay() == Some(Overlay::UnsavedEdits) {
            // Asked about something else: now it is about quitting.
            self.wait_for(Pending::Quit);
            return Vec::new();
        }
        self.unless_unsaved(Pending::Quit)
    }

    /// The save prompt's line on what Enter does with the name typed: the file the user
    /// opened is replaced, any other file only after a question; and when the text is
    /// only the part of a longer file that was read, that only that part is saved.
    #[must_use]
    pub fn save_hint(&self, typed: &str) -> String {
        let mut hint = String::new();
        if self.document.read_in_part.is_some() {
            hint.push_str("Only the part that was read is saved: the file is longer. ");
        }
        let typed = Path::new(typed.trim());
        if self.source_file().as_deref() == Some(typed) {
            hint.push_str("Written to a temporary file, then renamed over this one; Esc cancels.");
        } else {
            hint.push_str(PromptKind::SaveAs(AfterSave::Stay).hint());
        }
        hint
    }

    /// Enter in the save prompt: saves to `path`, then does `after`. Only the file the
    /// user opened is replaced without asking.
    pub(super) fn save_to(&mut self, path: &str, after: AfterSave) -> Vec<Effect> {
        if path.is_empty() {
            return Vec::new();
        }
        let path = PathBuf::from(path);
        // The file the user opened is replaced, unless another program changed it since
        // it was read: then the save asks (issue 35).
        let replace = if self.source_file().as_deref() != Some(path.as_path()) {
            Replace::Never
        } else if let Some(stamp) = &self.document.stamp {
            Replace::IfUnchanged(stamp.clone())
        } else {
            Replace::Allowed
        };
        self.say(About::Moment, format!("Saving to {}…", path.display()));
        vec![Effect::Save { path, text: self.document.txt.source().to_vec(), after, replace }]
    }

    /// A save found its file there: asks before replacing it.
    pub(super) fn ask_to_replace(
        &mut self,
        path: PathBuf,
        file: PathBuf,
        after: AfterSave,
        read_only: bool,
    ) -> Vec<Effect> {
        self.show(View::ConfirmReplace(ReplaceQuestion { path, file, after, read_only, below: None }))
    }

    /// `y` in the replace question: saves over the file.
    pub(super) fn replace_file(&mut self, question: &ReplaceQuestion) -> Vec<Effect> {
        self.say(About::Moment, format!("Replacing {}…", question.file.display()));
        let text = self.document.txt.source().to_vec();
        vec![Effect::Save { path: question.path.clone(), text, after: question.after, replace: Replace::Anyway }]
    }

    /// The error a save came back with, said, and the question it calls for.
    pub(super) fn save_failed(&mut self, path: &Path, after: AfterSave, error: SaveError) -> Vec<Effect> {
        match error {
            SaveError::Exists { path: file } => self.ask_to_replace(path.to_path_buf(), file, after, false),
            SaveError::ReadOnly { path: file } => self.ask_to_replace(path.to_path_buf(), file, after, true),
            SaveError::Changed { path: file, now, stamp } => {
                let save = ReplaceQuestion { path: path.to_path_buf(), file, after, read_only: false, below: None };
                self.show(View::ChangedOnDisk(Box::new(ChangedQuestion { save, now, stamp, diff: None, scroll: 0 })))
            }
            error => {
                self.pending = None;
                self.say(About::Moment, format!("Not saved: {error}. Your edits are kept."));
                Vec::new()
            }
        }
    }

    /// The question a save asks when the file changed on disk: `y` overwrites it, `d`
    /// shows what they changed (the diff from the file as it is now to the text on
    /// screen), `r` reads it again, keeping the edits one undo away, and Esc keeps
    /// working (what was to follow the save is off).
    pub(super) fn answer_changed_on_disk(&mut self, question: &mut ChangedQuestion, action: Action) -> Reply {
        match action {
            Action::ReplaceFile => {
                let file = question.save.file.display().to_string();
                self.say(About::Moment, format!("Overwriting the change to {file}…"));
                let text = self.document.txt.source().to_vec();
                let save = &question.save;
                let replace = Replace::IfUnchanged(question.stamp.clone());
                Reply::Close(vec![Effect::Save { path: save.path.clone(), text, after: save.after, replace }])
            }
            Action::ToggleTheirChange => {
                question.diff = if question.diff.is_some() {
                    None
                } else {
                    let name = question.save.file.file_name().map(|n| n.to_string_lossy().into_owned());
                    let name = name.as_deref().unwrap_or("robots.txt");
                    let diff = unified_diff(&question.now, self.document.txt.source(), name);
                    Some(diff.lines().map(str::to_owned).collect())
                };
                question.scroll = 0;
                Reply::done()
            }
            Action::Reload => {
                self.pending = None;
                self.take_their_version(question.now.clone(), question.stamp.clone(), &question.save.file);
                Reply::Close(Vec::new())
            }
            Action::Cancel => {
                self.pending = None;
                Reply::Close(Vec::new())
            }
            action => match movement(&action, usize::from(self.area.height.saturating_sub(8))) {
                Some(delta) => {
                    let lines = question.diff.as_ref().map_or(0, Vec::len);
                    let shown = usize::from(self.area.height.min(layout::CHANGED_OVERLAY.1).saturating_sub(8)).max(1);
                    question.scroll = scrolled_to(question.scroll, delta, lines, shown);
                    Reply::done()
                }
                None => Reply::Pass(action),
            },
        }
    }

    /// `r` in the question about a file changed on disk: the text becomes the file as it
    /// is now, the text as loaded too (nothing is unsaved), and the edits stay one undo
    /// step away, never dropped.
    fn take_their_version(&mut self, now: Vec<u8>, stamp: FileStamp, file: &Path) {
        self.record_undo(format!("your edits, before {} was read again", file.display()), None);
        self.original = std::sync::Arc::new(self.limits.parse(now.clone()));
        self.original_generation += 1;
        self.original_availability = crate::policy::Availability::Available;
        self.replace_text_everywhere(now);
        self.document.stamp = Some(stamp);
        self.say(About::Text, format!("Read {} again as it is on disk; Ctrl-Z brings your edits back", file.display()));
    }

    /// The question the open view asks, if it is one: its title and its keys, which the
    /// box and the status bar show alike (a status bar that said something else beside
    /// a question misled the user into dropping their edits; issue 35).
    #[must_use]
    pub fn question(&self) -> Option<Question> {
        let view = self.view.as_ref()?;
        let context = keymap::Context::Overlay(view.kind());
        let keys =
            |context| keymap::bindings_of(context).map(|(key, label)| (key, label.to_owned())).collect::<Vec<_>>();
        let (title, choices) = match view {
            View::UnsavedEdits { .. } => {
                let doing = self.pending.as_ref().map_or_else(|| "go on".to_owned(), Pending::doing);
                let mut choices = vec![
                    ("w".to_owned(), format!("save them, then {doing}")),
                    ("y".to_owned(), format!("{doing}, dropping them")),
                ];
                if matches!(self.pending, Some(Pending::Quit)) {
                    let copy = self.recovery_path();
                    let name = copy.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
                    choices.push(("q".to_owned(), format!("quit, keeping them in a recovery copy ({name}.*)")));
                }
                choices.push(("Esc".to_owned(), "keep working".to_owned()));
                ("Unsaved edits".to_owned(), choices)
            }
            View::ConfirmReplace(question) => {
                let what = if question.read_only { "is read-only" } else { "exists" };
                (format!("{} {what}", question.file.display()), keys(context))
            }
            View::ChangedOnDisk(question) => {
                (format!("{} changed on disk since it was read", question.save.file.display()), keys(context))
            }
            View::CopyMenu => ("Copy".to_owned(), keys(context)),
            _ => return None,
        };
        Some(Question { title, choices })
    }

    /// SIGTERM, SIGHUP: unsaved edits go to a recovery copy of their own, then quit.
    pub(super) fn terminate(&mut self) -> Vec<Effect> {
        if self.is_dirty() {
            vec![Effect::WriteRecoveryAndQuit(RecoveryCopy {
                base: self.recovery_path(),
                text: self.document.txt.source().to_vec(),
            })]
        } else {
            vec![Effect::Quit]
        }
    }

    /// No directory took the recovery copy of a second quit: the explorer stays, and
    /// says how the edits can be kept.
    pub(super) fn recovery_failed(&mut self, error: &str) -> Vec<Effect> {
        // The question goes, so that the status bar can say why.
        let effects = if self.overlay() == Some(Overlay::UnsavedEdits) { self.close_view() } else { Vec::new() };
        self.pending = None;
        self.say(
            About::Text,
            format!(
                "Not quit: no recovery copy of your edits could be written. w saves them under a name you \
                 choose; q asks again. ({error})"
            ),
        );
        effects
    }

    /// The name recovery copies of the text on screen start with: beside its file, or
    /// in the recovery directory under its site's name (or `stdin`, `example`).
    #[must_use]
    pub fn recovery_path(&self) -> PathBuf {
        let label = match &self.document.origin {
            Origin::Site { url, .. } | Origin::Pending(Source::Site { robots_url: url, .. }) => {
                url.host_str().map_or_else(
                    || "site".to_owned(),
                    |host| match url.port() {
                        Some(port) => format!("{host}-{port}"),
                        None => host.to_owned(),
                    },
                )
            }
            Origin::Local(Source::Stdin) => "stdin".to_owned(),
            _ => "example".to_owned(),
        };
        recovery_base(self.source_file().as_deref(), &self.recovery_directory, &label)
    }

    /// Where recovery copies of texts from no file go (the shell knows the user's data
    /// directory).
    pub fn set_recovery_directory(&mut self, directory: PathBuf) {
        self.recovery_directory = directory;
    }

    /// Recovery copies left by sessions that ended with unsaved edits (newest first),
    /// found by the shell: the file being opened's own (`own`), or else those of other
    /// inputs in the data directory. The user is told, and how to open them.
    pub fn note_recovery_copies(&mut self, copies: &[PathBuf], own: bool) {
        let Some(newest) = copies.first() else { return };
        // What to do first, so that a narrow status bar still shows it; the name in
        // full waits in the open prompt.
        let name = newest.file_name().map_or_else(|| newest.display().to_string(), |n| n.display().to_string());
        let count = match copies.len() {
            1 => "1 copy".to_owned(),
            n => format!("{n} copies, the newest"),
        };
        let whose = if own { "Unsaved edits from a session that ended" } else { "Unsaved edits of another input" };
        self.say(
            About::Text,
            format!("{whose}: o then Enter opens the recovery copy ({count}: {name}); delete copies once done"),
        );
        self.recovery_offer = Some(newest.clone());
    }

    /// Keeps the text before a change, for undo. `typing_on` is the line a key typed
    /// in the editor changed (keys on one line make one step).
    pub(super) fn record_undo(&mut self, what: String, typing_on: Option<usize>) {
        self.undo.record(self.document.txt.source(), what, typing_on);
    }

    /// Ctrl-Z: the text as it was before the last change.
    pub(super) fn undo(&mut self) {
        let Some(step) = self.undo.undo.pop() else {
            self.say(About::Moment, "Nothing to undo");
            return;
        };
        self.undo.typing_on = None;
        let now = self.document.txt.source().to_vec();
        self.undo.redo.push(Step { text: now, what: step.what.clone() });
        self.replace_text_everywhere(step.text);
        self.say(About::Text, format!("Undid: {} (Ctrl-Y redoes it)", step.what));
    }

    /// Ctrl-Y: the change last undone, again.
    pub(super) fn redo(&mut self) {
        let Some(step) = self.undo.redo.pop() else {
            self.say(About::Moment, "Nothing to redo");
            return;
        };
        self.undo.typing_on = None;
        let now = self.document.txt.source().to_vec();
        self.undo.undo.push(Step { text: now, what: step.what.clone() });
        self.replace_text_everywhere(step.text);
        self.say(About::Text, format!("Redid: {} (Ctrl-Z undoes it)", step.what));
    }
}
