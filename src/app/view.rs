//! The views over the base view: at most one is open, and each is one type that owns
//! its state and its `update` (its drawing is a widget in `ui/`, its keys a context in
//! the keymap).
//!
//! [`View`] is the open view, its variants holding the views' state, so that a view
//! cannot be open without it. A view that keeps its place while closed (compare,
//! sitemaps, history, the diagnostics, the page policy once its page answered), or that
//! help, the message log or a question covers for a while, waits on the `Shelf` until
//! it opens again; its background answers reach it there.
//!
//! Drawing: a view with a widget of its own implements [`Drawn`] there, in `ui/`
//! (the app layer names the drawing and `ui` does it, as each of ratatui's components
//! draws itself), so `ui.rs` draws the open view without naming it.
//!
//! Routing: the open view's `update` takes an action first (unless a prompt is over
//! it) and answers with a `Reply`; what it passes goes on to the app. A view's
//! update reads the app through a `Context` (the view is taken out of the app
//! meanwhile) and asks for what it wants done (said, revealed, copied, tested, opened):
//! `App::grant` does it once the view is back in its place. It closes by answering
//! `Reply::Close`; a view it asks to open takes its place, which waits on the shelf.

pub mod audit;
pub mod changes;
pub mod compare;
pub mod diagnostics;
pub mod history;
pub mod page;
pub mod policy;
pub mod sitemaps;

use std::path::PathBuf;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::document::Document;
use super::effect::CopyWhat;
use super::{About, Action, AfterSave, App, Effect, Overlay, ScrollView, keymap, layout, tester};
use audit::AuditView;
use changes::ChangesView;
use compare::CompareView;
use history::HistoryView;
use page::PageView;
use policy::PolicyView;
use sitemaps::SitemapsView;

/// The open view, with its state.
#[derive(Debug)]
pub enum View {
    /// Paths x robots (`c`).
    Compare(Box<CompareView>),
    /// The tested page's own policy (`p`).
    Page(Box<PageView>),
    /// The site's sitemaps (`m`).
    Sitemaps(Box<SitemapsView>),
    /// The site's robots.txt over time (`H`).
    History(Box<HistoryView>),
    /// An access log's audit (`L`).
    Audit(Box<AuditView>),
    /// Every key (`?`).
    Help(Layer),
    /// The last messages, whole (`M`).
    Messages(Layer),
    /// How the file was fetched (`i`).
    FetchDetails,
    /// The diagnostics, with the cursor on one (`d`).
    Diagnostics(ScrollView),
    /// What the edits changed (`v`).
    Changes(ChangesView),
    /// The robots by purpose, and blocking some (`b`).
    Policy(Box<PolicyView>),
    /// What to copy (`y`).
    CopyMenu,
    /// What becomes of the unsaved edits (the app keeps what waits on the answer: it
    /// outlives the question while a save runs). `below`: the view it covers.
    UnsavedEdits {
        /// The view it covers, on the shelf.
        below: Option<Overlay>,
    },
    /// Replace a file that exists?
    ConfirmReplace(ReplaceQuestion),
    /// The file being saved changed on disk: overwrite it, see the change, or read it
    /// again?
    ChangedOnDisk(Box<ChangedQuestion>),
}

/// A view that draws itself: implemented by its widget in `ui/`.
pub trait Drawn {
    /// Draws the view, reading `app`, where it belongs on `screen` (the whole
    /// terminal).
    fn draw(&self, app: &App, screen: Rect, buffer: &mut Buffer);
}

/// A save that found the file there, waiting for the user to say whether to replace it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplaceQuestion {
    /// The path as the user gave it.
    pub path: PathBuf,
    /// The file it names (after links), which exists.
    pub file: PathBuf,
    /// True when the question is that the file is read-only (else that it exists and is
    /// not the one opened).
    pub read_only: bool,
    /// What was to happen after the save.
    pub after: AfterSave,
    /// The view the question covers, which answering goes back to.
    pub below: Option<Overlay>,
}

/// A save of the file the user opened that found another program had changed it since
/// it was read (issue 35), waiting for the user to choose.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangedQuestion {
    /// The save that was refused: where, and what was to follow.
    pub save: ReplaceQuestion,
    /// What the file holds now.
    pub now: Vec<u8>,
    /// What the file is now: a reload stamps the text with it, an overwrite checks
    /// against it.
    pub stamp: crate::fetch::FileStamp,
    /// The diff from the file on disk to the text on screen, while shown (`d`).
    pub diff: Option<Vec<String>>,
    /// The first line of the diff shown.
    pub scroll: usize,
}

/// Help and the message log: a scrolled text over another view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layer {
    /// The first line shown.
    pub scroll: usize,
    /// The view it covers, on the shelf; closing goes back to it.
    pub below: Option<Overlay>,
}

/// The app as a view's `update` sees it: to read, not to change. What the view wants
/// done to the app (a message said, the shown verdict brought into view) it asks for,
/// and the app does it once the view is back in its place, as gitui's views queue
/// `InternalEvent`s and helix's components return callbacks.
pub(super) struct Context<'a> {
    /// The app, read-only.
    pub(super) app: &'a App,
    asks: Vec<Ask>,
}

/// What a view asks of the app, granted in order by [`App::grant`].
#[derive(Debug)]
pub(super) enum Ask {
    /// Say this in the status bar, about this.
    Say(About, String),
    /// Bring the shown verdict's deciding line into view in the source, its group in
    /// the records.
    RevealVerdict,
    /// Copy this text out.
    Copy(CopyWhat, String),
    /// Make this the text, one step to undo (named so).
    ReplaceText {
        /// The new text.
        text: Vec<u8>,
        /// What the undo step is called.
        undo: String,
    },
    /// Select the robot of the switcher at this index.
    SelectRobot(usize),
    /// Select the robot of this name, adding it to the switcher when it is not there.
    AddRobotNamed(String),
    /// Put this path in the tester, kept in its history, and test it.
    TestPath(String),
    /// Put the source's cursor on this line.
    ShowLine(usize),
    /// Show a version of the file, read-only, in place of the current one.
    ShowVersion(Box<Document>, String),
    /// Back from a version to the current file.
    BackToCurrent,
    /// Run the audit of this log (again).
    StartAudit(PathBuf),
    /// Make these paths the compare view's rows, and open it.
    CompareRows(Vec<String>),
}

impl<'a> Context<'a> {
    pub(super) fn new(app: &'a App) -> Context<'a> {
        Context { app, asks: Vec::new() }
    }

    /// Asks the app to say `text`.
    pub(super) fn say(&mut self, about: About, text: impl Into<String>) {
        self.asks.push(Ask::Say(about, text.into()));
    }

    /// Asks the app to bring the shown verdict into view, once however often it is asked.
    pub(super) fn reveal_verdict(&mut self) {
        if !self.asks.iter().any(|ask| matches!(ask, Ask::RevealVerdict)) {
            self.asks.push(Ask::RevealVerdict);
        }
    }

    /// Asks the app for `ask`, after what was asked before.
    pub(super) fn ask(&mut self, ask: Ask) {
        self.asks.push(ask);
    }

    pub(super) fn into_asks(self) -> Vec<Ask> {
        self.asks
    }

    /// A view's answer made with `update` reading `app`, and what it asked.
    fn answer(app: &'a App, update: impl FnOnce(&mut Context<'a>) -> Reply) -> (Reply, Vec<Ask>) {
        let mut context = Context::new(app);
        let reply = update(&mut context);
        (reply, context.into_asks())
    }
}

/// What a view did with an action.
#[derive(Debug)]
pub(super) enum Reply {
    /// Taken; the view stays open.
    Done(Vec<Effect>),
    /// Taken; the view closes.
    Close(Vec<Effect>),
    /// Taken; the view closes and forgets its state (what it showed means nothing
    /// now).
    Forget(Vec<Effect>),
    /// Not the view's: the app routes it.
    Pass(Action),
}

impl Reply {
    /// Taken, with nothing for the shell to do.
    pub(super) fn done() -> Reply {
        Reply::Done(Vec::new())
    }
}

/// The lines a moving key moves by, `page` lines to a page.
pub(super) fn movement(action: &Action, page: usize) -> Option<isize> {
    let page = isize::try_from(page.max(1)).unwrap_or(1);
    match action {
        Action::Up => Some(-1),
        Action::Down => Some(1),
        Action::PageUp => Some(-page),
        Action::PageDown => Some(page),
        Action::Top => Some(isize::MIN / 2),
        Action::Bottom => Some(isize::MAX / 2),
        _ => None,
    }
}

/// A view with nothing to move: moving keys do nothing, the rest are passed.
fn still(action: Action) -> Reply {
    match movement(&action, 1) {
        Some(_) => Reply::done(),
        None => Reply::Pass(action),
    }
}

impl View {
    /// Which view this is.
    #[must_use]
    pub fn kind(&self) -> Overlay {
        match self {
            View::Compare(_) => Overlay::Compare,
            View::Page(_) => Overlay::Page,
            View::Sitemaps(_) => Overlay::Sitemaps,
            View::History(_) => Overlay::History,
            View::Audit(_) => Overlay::Audit,
            View::Help(_) => Overlay::Help,
            View::Messages(_) => Overlay::Messages,
            View::FetchDetails => Overlay::FetchDetails,
            View::Diagnostics(_) => Overlay::Diagnostics,
            View::Changes(_) => Overlay::Changes,
            View::Policy(_) => Overlay::Policy,
            View::CopyMenu => Overlay::CopyMenu,
            View::UnsavedEdits { .. } => Overlay::UnsavedEdits,
            View::ConfirmReplace(_) => Overlay::ConfirmReplace,
            View::ChangedOnDisk(_) => Overlay::ChangedOnDisk,
        }
    }

    /// The view's drawing, when it has a widget of its own (the app's own overlays,
    /// help to the questions, are drawn by `ui.rs`).
    #[must_use]
    pub fn drawn(&self) -> Option<&dyn Drawn> {
        match self {
            View::Compare(view) => Some(view.as_ref()),
            View::Page(view) => Some(view.as_ref()),
            View::Sitemaps(view) => Some(view.as_ref()),
            View::History(view) => Some(view.as_ref()),
            View::Audit(view) => Some(view.as_ref()),
            View::Policy(view) => Some(view.as_ref()),
            View::Help(_)
            | View::Messages(_)
            | View::FetchDetails
            | View::Diagnostics(_)
            | View::Changes(_)
            | View::CopyMenu
            | View::UnsavedEdits { .. }
            | View::ConfirmReplace(_)
            | View::ChangedOnDisk(_) => None,
        }
    }

    /// True for the view drawn in the place of the robots, records and tester panes
    /// (beside the source), rather than over them.
    #[must_use]
    pub fn takes_the_panes(&self) -> bool {
        matches!(self, View::Compare(_))
    }

    /// True for the questions asked before work could be lost: they cover what was open
    /// (and the editor) until answered.
    fn is_question(&self) -> bool {
        matches!(self, View::UnsavedEdits { .. } | View::ConfirmReplace(_) | View::ChangedOnDisk(_))
    }

    /// The view this one covers, which closing it goes back to.
    fn below(&self) -> Option<Overlay> {
        match self {
            View::Help(layer) | View::Messages(layer) => layer.below,
            View::UnsavedEdits { below } => *below,
            View::ConfirmReplace(question) => question.below,
            View::ChangedOnDisk(question) => question.save.below,
            _ => None,
        }
    }

    /// The view's own answer to `action`, and what it asks of the app once it is back in
    /// its place (the app's own overlays, help to the questions, take the app beside
    /// them).
    fn update(&mut self, action: Action, app: &mut App) -> (Reply, Vec<Ask>) {
        let reply = match self {
            // The views read the app and ask for what they want done.
            View::Compare(view) => return Context::answer(app, |context| view.update(action, context)),
            View::Page(view) => return Context::answer(app, |context| view.update(action, context)),
            View::Sitemaps(view) => return Context::answer(app, |context| view.update(action, context)),
            View::History(view) => return Context::answer(app, |context| view.update(action, context)),
            View::Audit(view) => return Context::answer(app, |context| view.update(action, context)),
            View::Policy(view) => return Context::answer(app, |context| view.update(action, context)),
            View::Help(layer) => layer.update(action, app, |_| keymap::help_line_count(), layout::HELP_OVERLAY.1),
            View::Messages(layer) => {
                layer.update(action, app, |app| app.message_log_lines().len(), layout::MESSAGES_OVERLAY.1)
            }
            View::Changes(view) => view.update(action, app),
            View::Diagnostics(list) => app.update_diagnostics(list, action),
            // The menu's choice copies and closes it; `y` replaces the file.
            View::CopyMenu => match action {
                Action::Copy(what) => Reply::Close(app.copy(what)),
                action => still(action),
            },
            View::ConfirmReplace(question) => match action {
                Action::ReplaceFile => Reply::Close(app.replace_file(question)),
                // "Keep it": the save is off, and so is what was to follow it (quitting,
                // say), as when the save prompt is cancelled.
                Action::Cancel => {
                    app.pending = None;
                    Reply::Close(Vec::new())
                }
                action => still(action),
            },
            View::ChangedOnDisk(question) => app.answer_changed_on_disk(question, action),
            // Its keys are the app's (saving, dropping the edits, quitting), which carry
            // on with what waits (`App::discard_and_continue`).
            View::FetchDetails | View::UnsavedEdits { .. } => still(action),
        };
        (reply, Vec::new())
    }

    /// What closing the view takes (a fetch still running is stopped), and whether it
    /// keeps its place on the shelf for the next time it opens.
    fn closing(&mut self, app: &mut App) -> (Vec<Effect>, bool) {
        match self {
            View::Compare(view) => {
                view.leave_purpose();
                app.after_compare_closes();
                (Vec::new(), true)
            }
            View::Page(view) => view.closing(),
            // An audit that runs goes on while the view is closed: its answer reaches it
            // on the shelf.
            View::Sitemaps(_) | View::History(_) | View::Audit(_) | View::Diagnostics(_) => (Vec::new(), true),
            // "Keep working": nothing waits any more.
            View::UnsavedEdits { .. } => {
                app.pending = None;
                (Vec::new(), false)
            }
            // The diff of a large file is megabytes: made again when the view opens.
            View::Help(_)
            | View::Messages(_)
            | View::FetchDetails
            | View::Changes(_)
            | View::Policy(_)
            | View::CopyMenu
            | View::ConfirmReplace(_)
            | View::ChangedOnDisk(_) => (Vec::new(), false),
        }
    }
}

impl Layer {
    /// A layer over `below` (help, the message log), scrolled to `scroll`.
    pub(super) fn over(below: Option<Overlay>, scroll: usize) -> Layer {
        Layer { scroll, below }
    }

    /// Scrolls by the moving keys, no further than the last of its `lines` (counted
    /// only for a move: the log is wrapped to count them).
    fn update(&mut self, action: Action, app: &App, lines: impl FnOnce(&App) -> usize, most_rows: u16) -> Reply {
        let shown = usize::from(app.area.height.min(most_rows).saturating_sub(2)).max(1);
        match movement(&action, usize::from(app.area.height.saturating_sub(8))) {
            Some(delta) => {
                self.scroll = scrolled_to(self.scroll, delta, lines(app), shown);
                Reply::done()
            }
            None => Reply::Pass(action),
        }
    }
}

/// A text's first line after scrolling by `delta`, no further than its last page.
pub(super) fn scrolled_to(scroll: usize, delta: isize, lines: usize, shown: usize) -> usize {
    let last = lines.saturating_sub(shown);
    scroll.min(last).saturating_add_signed(delta).min(last)
}

/// The closed views that keep their place (one of each kind), and those covered for a
/// while, newest last: help over the log over help holds help twice, and unwinds to
/// each in turn.
#[derive(Debug, Default)]
pub(super) struct Shelf(Vec<View>);

impl Shelf {
    /// The shelf a new explorer starts with: the compare view, comparing the usual
    /// robots among `robots`.
    pub(super) fn first(robots: &[super::RobotEntry]) -> Shelf {
        Shelf(vec![View::Compare(Box::new(CompareView::with_default_robots(robots)))])
    }

    /// Takes the newest view of `kind` off the shelf.
    pub(super) fn take(&mut self, kind: Overlay) -> Option<View> {
        let index = self.0.iter().rposition(|view| view.kind() == kind)?;
        Some(self.0.remove(index))
    }

    /// Puts a view on the shelf, the newest of its kind. (A view that keeps its place
    /// is taken off when it opens, so there is one of it.)
    fn put(&mut self, view: View) {
        self.0.push(view);
    }

    /// The newest view of `kind` on the shelf.
    pub(super) fn get(&self, kind: Overlay) -> Option<&View> {
        self.0.iter().rev().find(|view| view.kind() == kind)
    }

    /// The newest view of `kind` on the shelf, to change.
    pub(super) fn get_mut(&mut self, kind: Overlay) -> Option<&mut View> {
        self.0.iter_mut().rev().find(|view| view.kind() == kind)
    }
}

impl App {
    /// The open view, if any.
    #[must_use]
    pub fn view(&self) -> Option<&View> {
        self.view.as_ref()
    }

    /// Which view is open, if any.
    #[must_use]
    pub fn overlay(&self) -> Option<Overlay> {
        self.view.as_ref().map(View::kind)
    }

    /// The view of `kind`, open or on the shelf.
    pub(super) fn view_of(&self, kind: Overlay) -> Option<&View> {
        self.view.as_ref().filter(|view| view.kind() == kind).or_else(|| self.shelf.get(kind))
    }

    /// The view of `kind`, open or on the shelf, to change.
    pub(super) fn view_of_mut(&mut self, kind: Overlay) -> Option<&mut View> {
        match &mut self.view {
            Some(view) if view.kind() == kind => Some(view),
            _ => self.shelf.get_mut(kind),
        }
    }

    /// Takes the view of `kind` out of the app, open or on the shelf: a new document
    /// makes it mean nothing.
    pub(super) fn discard_view(&mut self, kind: Overlay) -> Option<View> {
        match &self.view {
            Some(view) if view.kind() == kind => self.view.take(),
            _ => self.shelf.take(kind),
        }
    }

    /// Gives `action` to the open view, unless a prompt is over it (the prompt has the
    /// keys); gives it back when the view passes it.
    pub(super) fn update_open_view(&mut self, action: Action) -> Result<Vec<Effect>, Action> {
        if self.prompt.is_some() {
            return Err(action);
        }
        let Some(mut view) = self.view.take() else { return Err(action) };
        let (reply, asks) = view.update(action, self);
        let answer = match reply {
            Reply::Pass(action) => {
                self.view = Some(view);
                let mut effects = self.grant(asks);
                // What every view does: Esc and its own key close it.
                return match action {
                    Action::Cancel => {
                        effects.extend(self.close_view());
                        Ok(effects)
                    }
                    Action::Toggle(kind) if self.overlay() == Some(kind) => {
                        effects.extend(self.close_view());
                        Ok(effects)
                    }
                    action => Err(action),
                };
            }
            Reply::Done(mut effects) => {
                if self.view.is_none() {
                    self.view = Some(view);
                } else {
                    // The view opened another, which takes its place: this one closes.
                    effects.extend(self.put_away(view, true).0);
                }
                effects
            }
            Reply::Close(effects) => self.closed(view, effects, true),
            Reply::Forget(effects) => self.closed(view, effects, false),
        };
        let mut effects = answer;
        effects.extend(self.grant(asks));
        Ok(effects)
    }

    /// Does what a view asked, in order, once it is back in its place; gives what the
    /// shell is to do for it.
    pub(super) fn grant(&mut self, asks: Vec<Ask>) -> Vec<Effect> {
        let mut effects = Vec::new();
        for ask in asks {
            match ask {
                Ask::Say(about, text) => self.say(about, text),
                Ask::RevealVerdict => self.reveal_verdict(),
                Ask::Copy(what, text) => effects.extend(self.copy_text(what, text)),
                Ask::ReplaceText { text, undo } => {
                    self.record_undo(undo, None);
                    self.replace_text_everywhere(text);
                    self.refresh_policy();
                }
                Ask::SelectRobot(index) => self.select_robot(index),
                Ask::AddRobotNamed(name) => self.add_robot_named(&name),
                Ask::TestPath(path) => {
                    self.path.set_text(&path);
                    self.path.commit_to_history();
                    self.follow_tested_path(&path);
                    self.reevaluate();
                }
                Ask::ShowLine(line) => self.show_line(line),
                Ask::ShowVersion(document, timestamp) => self.show_read_only(*document, timestamp),
                Ask::BackToCurrent => {
                    if let Some(viewing) = self.viewing.take() {
                        let _version = self.replace_document(*viewing.current);
                        self.say(About::Moment, "Back to the current file");
                    }
                }
                Ask::StartAudit(log) => effects.extend(self.start_audit(log)),
                // The compare view takes the asking view's place (which waits on the shelf).
                Ask::CompareRows(paths) => effects.extend(self.compare_paths(paths)),
            }
        }
        effects
    }

    /// Closes `view` (what closing it takes: a fetch stopped, ...) and puts it on the
    /// shelf when it keeps its place and `keep` allows; gives the view it covered.
    fn put_away(&mut self, mut view: View, keep: bool) -> (Vec<Effect>, Option<Overlay>) {
        let (effects, keeps_its_place) = view.closing(self);
        let below = view.below();
        if keep && keeps_its_place {
            self.shelf.put(view);
        }
        (effects, below)
    }

    /// What follows a view's closing: it goes to the shelf if it keeps its place (and
    /// `keep` allows), and the view it covered comes back.
    fn closed(&mut self, view: View, mut effects: Vec<Effect>, keep: bool) -> Vec<Effect> {
        let (closing, below) = self.put_away(view, keep);
        effects.extend(closing);
        if self.view.is_none() {
            self.view = below.and_then(|below| self.shelf.take(below));
        }
        effects
    }

    /// Gives a background answer to the view of `kind`, open or on the shelf (a view
    /// that is gone drops it).
    pub(super) fn update_view_of_kind(&mut self, kind: Overlay, action: Action) -> Vec<Effect> {
        let open = self.overlay() == Some(kind);
        let Some(mut view) = (if open { self.view.take() } else { self.shelf.take(kind) }) else {
            return Vec::new();
        };
        let (reply, asks) = view.update(action, self);
        let effects = match reply {
            Reply::Done(effects) | Reply::Close(effects) | Reply::Forget(effects) => effects,
            Reply::Pass(_) => Vec::new(),
        };
        if open && self.view.is_none() {
            self.view = Some(view);
        } else {
            self.shelf.put(view);
        }
        let mut effects = effects;
        effects.extend(self.grant(asks));
        effects
    }

    /// Drops the views the text replaced makes stale, stopping their work: the
    /// sitemaps on any new text (maybe another site's: read again when the view opens),
    /// and, when a load brought another file (`new_file`), the history read for the last
    /// one.
    pub(super) fn forget_views_of_the_last_text(&mut self, new_file: bool) {
        if let Some(View::Sitemaps(mut view)) = self.discard_view(Overlay::Sitemaps) {
            self.jobs_to_cancel.extend(view.stop());
        }
        if new_file && let Some(View::History(mut view)) = self.discard_view(Overlay::History) {
            self.jobs_to_cancel.extend(view.stop());
        }
    }

    /// A background answer for a view, open or not: to the view of its kind.
    pub(super) fn answer_view(&mut self, action: Action) -> Vec<Effect> {
        let kind = match &action {
            Action::PageFetched { .. } => Overlay::Page,
            Action::SitemapEvents { .. } | Action::SitemapsWalked { .. } => Overlay::Sitemaps,
            Action::HistoryProgress { .. } | Action::HistoryLoaded { .. } => Overlay::History,
            Action::AuditProgress { .. } | Action::Audited { .. } => Overlay::Audit,
            Action::PathsRead { .. } => Overlay::Compare,
            // Not an answer for a view (the app routes only these here). A new view's
            // answers need their arm above by hand: the compiler does not ask for it.
            _ => return Vec::new(),
        };
        self.update_view_of_kind(kind, action)
    }

    /// Opens `view` in place of the one open. Help, the message log and the questions
    /// cover the open view (it waits on the shelf, and closing them goes back to it);
    /// another view closes it.
    pub(super) fn show(&mut self, mut view: View) -> Vec<Effect> {
        let mut effects = Vec::new();
        // The same question asked again while help or the log covers it (Ctrl-C over
        // help over the quit question): back down to it, and the new one takes its
        // place, rather than a second question over a first that nothing waits on.
        let question = view.is_question();
        if question && self.shelf.get(view.kind()).is_some() {
            while self.view.is_some() && self.overlay() != Some(view.kind()) {
                effects.extend(self.close_view());
            }
        }
        if let Some(open) = self.view.take() {
            // The same question again (a load arrived while asked about quitting): it
            // takes the place of the first, over what that one covered.
            let below = if open.kind() == view.kind() { open.below() } else { Some(open.kind()) };
            let covers = match &mut view {
                View::Help(layer) | View::Messages(layer) => {
                    layer.below = below;
                    true
                }
                View::UnsavedEdits { below: covered } => {
                    *covered = below;
                    true
                }
                View::ConfirmReplace(question) => {
                    question.below = below;
                    true
                }
                View::ChangedOnDisk(question) => {
                    question.save.below = below;
                    true
                }
                _ => false,
            };
            if covers && open.kind() == view.kind() {
                // Replaced, not covered: nothing of it waits.
            } else if covers {
                // It waits on the shelf (help over the message log over the compare
                // view goes back to the log, then to the view).
                self.shelf.put(open);
            } else {
                effects.extend(self.put_away(open, true).0);
            }
        }
        // A view in the source pane's place closes the editor; help, the log and the
        // questions cover it for a while, and "keep working" goes back to it.
        if !matches!(view, View::Compare(_) | View::Help(_) | View::Messages(_)) && !view.is_question() {
            self.editor = None;
        }
        self.view = Some(view);
        effects
    }

    /// Closes the open view: back to the view it covered, or to the base view.
    pub(super) fn close_view(&mut self) -> Vec<Effect> {
        let Some(view) = self.view.take() else { return Vec::new() };
        self.closed(view, Vec::new(), true)
    }

    /// Opens the view of `kind` (from its key), or closes it when it is the one open.
    pub(super) fn toggle(&mut self, kind: Overlay) -> Vec<Effect> {
        if self.overlay() == Some(kind) {
            return self.close_view();
        }
        match kind {
            Overlay::Compare => self.open_compare(),
            Overlay::Page => self.open_page(),
            Overlay::Sitemaps => self.open_sitemaps(),
            Overlay::History => self.open_history(),
            Overlay::Audit => self.open_audit(),
            Overlay::Help => self.show(View::Help(Layer::over(None, 0))),
            Overlay::Messages => {
                // The newest messages, at the bottom.
                let lines = self.message_log_lines().len();
                let shown = usize::from(self.area.height.min(layout::MESSAGES_OVERLAY.1).saturating_sub(2)).max(1);
                self.show(View::Messages(Layer::over(None, lines.saturating_sub(shown))))
            }
            Overlay::FetchDetails => self.show(View::FetchDetails),
            Overlay::Diagnostics => self.open_diagnostics(),
            Overlay::Changes => self.open_changes(),
            Overlay::Policy => self.open_policy(),
            Overlay::CopyMenu => self.show(View::CopyMenu),
            // Asked by what needs the answer, never by a key of their own.
            Overlay::UnsavedEdits | Overlay::ConfirmReplace | Overlay::ChangedOnDisk => Vec::new(),
        }
    }

    /// The first line of a scrolled view (help, the message log, the changes).
    #[must_use]
    pub fn overlay_scroll(&self) -> usize {
        match &self.view {
            Some(View::Help(layer) | View::Messages(layer)) => layer.scroll,
            Some(View::Changes(view)) => view.scroll,
            Some(View::ChangedOnDisk(question)) => question.scroll,
            _ => 0,
        }
    }

    /// The keys the help lists first: those of the view it was opened over.
    #[must_use]
    pub fn help_first(&self) -> Option<keymap::Context> {
        match &self.view {
            Some(View::Help(layer)) => layer.below.map(keymap::Context::Overlay),
            _ => None,
        }
    }

    /// The message log as the overlay shows it: each message wrapped to its width,
    /// oldest first.
    #[must_use]
    pub fn message_log_lines(&self) -> Vec<String> {
        let width = usize::from(self.area.width.min(layout::MESSAGES_OVERLAY.0).saturating_sub(4)).max(10);
        self.status.log().flat_map(|message| tester::wrap(message, width)).collect()
    }
}
