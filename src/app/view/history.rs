//! The history view (`H`): the site's robots.txt versions as a timeline, newest first
//! under a "now" row for the file on screen; for the selected version, the flips of the
//! compared robots' verdicts and usage preferences against the version before it, or
//! (`d`) its diff against the version marked with Space (the one before it when none
//! is). Enter loads a version into the panes, read-only, where everything else works
//! on it; Enter on "now" goes back. `A` asks the web archive for its captures.
//!
//! Reading the store and the archive is an effect ([`Effect::LoadHistory`]); the
//! versions come back with their parsed bodies ([`Action::HistoryLoaded`]).

use url::Url;

pub use crate::history::{
    HistoryProgress, HistorySettings, LoadedHistory, LoadedVersion, MAX_VIEW_BODY_BYTES, MAX_VIEW_VERSIONS,
};

use super::{Ask, Context, Reply, View, movement};
use crate::app::job::Job;
use crate::app::tester::upper_first;
use crate::app::{About, Action, App, Document, Effect, Origin, Overlay, layout};
use crate::fetch::Source;
use crate::history::{self, Change, Subject, Version};
use crate::policy::Availability;
use crate::policy::request::Request;
use crate::words::plural;

/// Said of a version whose body the view does not hold.
pub const NOT_HELD: &str =
    "This version's body is not held here (the view keeps 32 MB of the newest); robotscope diff and history read it";

/// The view's state.
#[derive(Debug, Clone)]
pub struct HistoryView {
    /// The reading of the versions, and how far it has got while it runs: results of
    /// another are stale.
    pub job: Job<HistoryProgress>,
    /// The site key.
    pub site: String,
    /// The versions, oldest first.
    pub versions: Vec<LoadedVersion>,
    /// Redirect captures left out.
    pub redirects_left_out: usize,
    /// The row under the cursor: 0 is "now", row `n` the `n`th newest version.
    pub cursor: usize,
    /// The first row shown.
    pub scroll: usize,
    /// The version (index) marked with Space, to diff against.
    pub marked: Option<usize>,
    /// True when the detail shows the diff rather than the flips.
    pub diff: bool,
    /// The first line of the detail shown.
    pub detail_scroll: usize,
}

impl HistoryView {
    /// The version on row `row` (row 0 is "now").
    #[must_use]
    pub fn version_at(&self, row: usize) -> Option<usize> {
        row.checked_sub(1).and_then(|newest| self.versions.len().checked_sub(newest + 1))
    }

    /// The version the cursor is on.
    #[must_use]
    pub fn selected(&self) -> Option<usize> {
        self.version_at(self.cursor)
    }
}

/// The version on screen, when the panes show one: the current document kept aside.
#[derive(Debug)]
pub struct Viewing {
    /// The version's date.
    pub timestamp: String,
    /// The current document, restored by Enter on "now".
    pub current: Box<Document>,
}

impl App {
    /// The history view, when it is open.
    #[must_use]
    pub fn history_view(&self) -> Option<&HistoryView> {
        match &self.view {
            Some(View::History(view)) => Some(view),
            _ => None,
        }
    }

    /// Where versions are kept and found.
    #[must_use]
    pub fn history_settings(&self) -> &HistorySettings {
        &self.history_settings
    }

    /// Sets where versions are kept and found (from the command line).
    pub fn set_history_settings(&mut self, settings: HistorySettings) {
        self.history_settings = settings;
    }

    /// The date of the version the panes show, if they show one (read-only).
    #[must_use]
    pub fn viewing_version(&self) -> Option<&str> {
        self.viewing.as_ref().map(|viewing| viewing.timestamp.as_str())
    }

    /// The site's last fetch before the one on screen, when the store had one.
    #[must_use]
    pub fn last_fetch(&self) -> Option<&Version> {
        self.last_fetch.as_ref()
    }

    /// How the file on screen stands against the site's last fetch before it: `None`
    /// when there was none to compare with.
    #[must_use]
    pub fn changed_since_last_fetch(&self) -> Option<bool> {
        let last = self.last_fetch.as_ref()?;
        // The file as fetched, not the user's edits of it (a version shown is never
        // edited: the current file is kept aside).
        let (text, availability) = match &self.viewing {
            Some(viewing) => (viewing.current.txt.source(), viewing.current.availability),
            None => (self.original.source(), self.original_availability),
        };
        Some(history::digest(text) != last.digest || availability != last.availability)
    }

    /// The robots.txt URL of the site on screen (or under the version shown).
    pub(in crate::app) fn history_site(&self) -> Option<Url> {
        let document = self.viewing.as_ref().map_or(&self.document, |viewing| &viewing.current);
        match &document.origin {
            Origin::Site { url, .. } | Origin::Pending(Source::Site { robots_url: url, .. }) => Some(url.clone()),
            _ => None,
        }
    }

    /// Why a version may not take the place of the text on screen now, if it may not:
    /// the text holds edits.
    pub(in crate::app) fn version_refused(&self) -> Option<&'static str> {
        (self.viewing.is_none() && self.is_dirty())
            .then_some("Save (w) or undo your edits first: a version would take the place of the text on screen")
    }

    /// Puts `document`, a version of the file (of `timestamp`), in the panes read-only in
    /// place of the current file, which Enter on "now" in the history view brings back.
    pub(in crate::app) fn show_read_only(&mut self, document: Document, timestamp: String) {
        let current = self.replace_document(document);
        let current = self.viewing.take().map_or(current, |viewing| *viewing.current);
        self.viewing = Some(Viewing { timestamp, current: Box::new(current) });
    }

    /// `H`: opens the view, reading the store the first time (or after a new load).
    pub(in crate::app) fn open_history(&mut self) -> Vec<Effect> {
        let Some(robots_url) = self.history_site() else {
            self.say(About::Moment, "A history is a site's: open a site (o) to see its versions");
            return Vec::new();
        };
        let site = history::site_key(&robots_url);
        match self.shelf.take(Overlay::History) {
            Some(View::History(view)) if view.site == site => return self.show(View::History(view)),
            // Another site's: what it still reads is stopped.
            Some(View::History(mut view)) => self.jobs_to_cancel.extend(view.stop()),
            _ => {}
        }
        let mut view = Box::new(HistoryView {
            job: Job::default(),
            site,
            versions: Vec::new(),
            redirects_left_out: 0,
            cursor: 0,
            scroll: 0,
            marked: None,
            diff: false,
            detail_scroll: 0,
        });
        let mut effects = view.load(false, self);
        effects.extend(self.show(View::History(view)));
        effects
    }

    /// The versions the detail compares for the selected row: (older, newer). For a
    /// version, the marked one (or the one before it) and itself.
    #[must_use]
    pub fn history_pair(&self) -> Option<(usize, usize)> {
        let view = self.history_view()?;
        let selected = view.selected()?;
        let other = match view.marked {
            Some(marked) if marked != selected => marked,
            _ => selected.checked_sub(1)?,
        };
        Some((other.min(selected), other.max(selected)))
    }

    /// The flips between two versions for the compared robots at `/` and the tester's
    /// path, in words.
    #[must_use]
    pub fn history_flips(&self, older: usize, newer: usize) -> Vec<String> {
        let Some(view) = self.history_view() else { return Vec::new() };
        if view.versions[older].txt.is_none() || view.versions[newer].txt.is_none() {
            return vec![NOT_HELD.to_owned()];
        }
        let (subjects, paths) = self.history_subjects();
        let snap = |index: usize| {
            let loaded = &view.versions[index];
            let txt = loaded.txt.as_deref().cloned().unwrap_or_default();
            history::snapshot(&txt, loaded.version.availability, &subjects, &paths)
        };
        let after = &view.versions[newer].version;
        history::flips(&snap(older), &snap(newer))
            .iter()
            .map(|flip| {
                let (robot, path) = (&subjects[flip.robot].label, &paths[flip.path]);
                if let (Change::Usage(category), Some((before, now, line))) = (flip.change, flip.preferences()) {
                    let line = line.map(|line| format!(" (line {line})")).unwrap_or_default();
                    return format!("{robot} {path}: {category} {before} → {now}{line}");
                }
                let verb = if flip.after.allowed { "gained" } else { "lost" };
                let why = match after.status {
                    Some(status) if after.availability != Availability::Available => format!("status {status}"),
                    _ => flip.after.reason(after.availability == Availability::Available),
                };
                format!("{robot} {verb} {path}: {why}")
            })
            .collect()
    }

    /// The answers of one version for the compared robots at `/` and the tester's
    /// path, in words (the first version, which has nothing before it).
    #[must_use]
    pub fn history_answers(&self, index: usize) -> Vec<String> {
        let Some(view) = self.history_view() else { return Vec::new() };
        let loaded = &view.versions[index];
        let Some(txt) = &loaded.txt else { return vec![NOT_HELD.to_owned()] };
        let (subjects, paths) = self.history_subjects();
        let snapshot = history::snapshot(txt, loaded.version.availability, &subjects, &paths);
        let mut lines = Vec::new();
        for (robot, subject) in subjects.iter().enumerate() {
            for (path, shown) in paths.iter().enumerate() {
                let answer = snapshot.answer(robot, path);
                let verdict = if answer.allowed { "allowed" } else { "disallowed" };
                let why = answer.reason(loaded.version.availability == Availability::Available);
                lines.push(format!("{} {shown}: {verdict} ({why})", subject.label));
            }
        }
        lines
    }

    /// The robots (the compare view's) and paths (`/` and the tester's) the view
    /// answers for.
    fn history_subjects(&self) -> (Vec<Subject>, Vec<String>) {
        let subjects = self
            .compared_robots()
            .iter()
            .map(|robot| Subject {
                label: robot.label.clone(),
                robot: robot.robot(),
                reading: self.reading_choice.unwrap_or_else(|| robot.reading()),
            })
            .collect();
        let mut paths = vec!["/".to_owned()];
        let tested = Request::read(self.path.text()).into_tested().into_owned();
        if !paths.contains(&tested) {
            paths.push(tested);
        }
        (subjects, paths)
    }

    /// How the current file stands against the site's last fetch before it, in a few
    /// words (`long` for a sentence).
    #[must_use]
    pub fn history_now(&self, long: bool) -> String {
        // A fetch that brought no file is no "current file".
        match (self.document.fetched(), self.document.availability) {
            (Some(Err(error)), _) => {
                let failed = format!("the fetch failed ({error})");
                return if long { format!("Now: {failed}; no file is on screen.") } else { failed };
            }
            (Some(Ok(fetched)), availability) if availability != crate::policy::Availability::Available => {
                let status = format!("the site answered {}", fetched.status);
                return if long { format!("Now: {status}, with no robots.txt.") } else { status };
            }
            _ => {}
        }
        match (self.changed_since_last_fetch(), &self.last_fetch, long) {
            (Some(true), Some(last), false) => format!("changed since {}", last.date()),
            (Some(true), Some(last), true) => {
                format!("The current file changed since the last fetch on {}.", last.date())
            }
            (Some(false), Some(last), false) => format!("same as {}", last.date()),
            (Some(false), Some(last), true) => {
                format!("The current file is the same as the last fetch, on {}.", last.date())
            }
            (_, _, false) => "the current file".to_owned(),
            (_, _, true) => "The current file: the store holds no fetch of the site before it.".to_owned(),
        }
    }

    /// A fetch was kept: `previous` is the site's last fetch before it.
    pub(in crate::app) fn fetch_kept(&mut self, id: u64, previous: Option<Version>, warning: Option<String>) {
        if let Some(warning) = warning {
            self.say(About::Moment, upper_first(&warning));
        }
        if self.last_load_id != Some(id) {
            return;
        }
        self.last_fetch = previous;
        if self.changed_since_last_fetch() == Some(true)
            && let Some(last) = &self.last_fetch
        {
            let message = format!("Changed since the last fetch on {} (H shows the history)", last.date());
            self.say(About::Moment, message);
        }
    }
}

impl HistoryView {
    /// Reads the versions again, asking the archive first when `archive` is true.
    fn load(&mut self, archive: bool, app: &App) -> Vec<Effect> {
        let Some(robots_url) = app.history_site() else { return Vec::new() };
        let mut effects = self.stop();
        self.job = Job::start(&app.job_ids, HistoryProgress { archive, listed: None, done: 0 });
        effects.push(Effect::LoadHistory {
            id: self.job.id(),
            robots_url,
            settings: app.history_settings.clone(),
            archive,
            limits: app.fetch_limits(),
        });
        effects
    }

    /// Stops a reading that runs.
    pub(in crate::app) fn stop(&mut self) -> Vec<Effect> {
        self.job.stop().map(|id| Effect::CancelHistory { id }).into_iter().collect()
    }

    fn loaded(&mut self, id: u64, result: Result<LoadedHistory, history::ViewError>, context: &mut Context) {
        if !self.job.finish(id) {
            return;
        }
        match result {
            Ok(loaded) => {
                // New since the view last read them (nothing to compare with at first).
                let added =
                    (!self.versions.is_empty()).then(|| loaded.versions.len().saturating_sub(self.versions.len()));
                // The mark stays on its version, wherever new ones put it.
                let marked = self.marked.map(|index| self.versions[index].version.timestamp.clone());
                self.versions = loaded.versions;
                self.redirects_left_out = loaded.redirects_left_out;
                self.marked =
                    marked.and_then(|marked| self.versions.iter().position(|v| v.version.timestamp == marked));
                self.cursor = self.cursor.min(self.versions.len());
                let count = self.versions.len();
                let message = match count {
                    0 => "No version of this site is stored yet; A asks the web archive".to_owned(),
                    _ => match added {
                        Some(0) => format!("History: {}, none new", plural(count, "version")),
                        Some(added) => format!("History: {} ({added} new)", plural(count, "version")),
                        None => format!("History: {}", plural(count, "version")),
                    },
                };
                context.say(About::Moment, message);
                // After the count, so that the status bar shows what went wrong (the
                // message log keeps both).
                for warning in loaded.warnings {
                    context.say(About::Moment, warning);
                }
            }
            Err(error) => context.say(About::Moment, upper_first(&error.to_string())),
        }
    }

    /// Moves the cursor (the list) and resets the detail's scroll.
    fn move_by(&mut self, delta: isize, app: &App) {
        let height = list_height(app);
        let rows = self.versions.len() + 1;
        self.cursor = self.cursor.saturating_add_signed(delta).min(rows - 1);
        self.detail_scroll = 0;
        if self.cursor < self.scroll {
            self.scroll = self.cursor;
        } else if self.cursor >= self.scroll + height {
            self.scroll = self.cursor + 1 - height;
        }
    }

    /// Enter: the selected version into the panes, read-only; on "now", back to the
    /// current file.
    fn show_version(&self, context: &mut Context) -> Reply {
        let app = context.app;
        let Some(index) = self.selected() else {
            context.ask(Ask::BackToCurrent);
            return Reply::Close(Vec::new());
        };
        if let Some(refused) = app.version_refused() {
            context.say(About::Moment, refused);
            return Reply::done();
        }
        let LoadedVersion { version, txt } = self.versions[index].clone();
        let Some(txt) = txt else {
            context.say(About::Moment, NOT_HELD);
            return Reply::done();
        };
        let Some(site) = app.history_site() else { return Reply::done() };
        let label = format!("{} of {} ({}, read-only)", site, version.date(), version.provenance);
        let source = Source::Site { robots_url: site, page: None };
        let mut document = Document::new((*txt).clone(), label, Origin::Version { source });
        document.availability = version.availability;
        context.ask(Ask::ShowVersion(Box::new(document), version.timestamp.clone()));
        let status = version.status.map(|status| format!(", {status}")).unwrap_or_default();
        context.say(
            About::Moment,
            format!(
                "The version of {} ({}{status}), read-only; H, then Enter on 'now' goes back",
                version.date(),
                version.provenance
            ),
        );
        Reply::Close(Vec::new())
    }

    /// Space: marks the selected version to diff against (again: unmarks it).
    fn mark(&mut self, context: &mut Context) {
        let Some(index) = self.selected() else { return };
        self.marked = if self.marked == Some(index) { None } else { Some(index) };
        let message = match self.marked {
            Some(index) => {
                format!("Marked {}: d shows the diff of any version against it", self.versions[index].version.date())
            }
            None => "Unmarked: d diffs each version against the one before it".to_owned(),
        };
        context.say(About::Moment, message);
    }

    /// The view's answer to an action: the reading's progress and result, Esc, `A`,
    /// `r`, Enter, Space, `d`, the detail's scrolling, moving.
    pub(super) fn update(&mut self, action: Action, context: &mut Context) -> Reply {
        let app = context.app;
        match action {
            Action::HistoryProgress { id, progress } => {
                self.job.advance(id, progress);
            }
            Action::HistoryLoaded { id, result } => self.loaded(id, *result, context),
            Action::Cancel => {
                if !self.job.is_running() {
                    return Reply::Close(Vec::new());
                }
                context.say(About::Moment, "Stopped; Esc leaves the history, A asks the archive again");
                return Reply::Done(self.stop());
            }
            Action::AskArchive => {
                let base = app.history_settings.archive.clone();
                context.say(About::Moment, format!("Asking the archive at {base} (Esc stops)"));
                return Reply::Done(self.load(true, app));
            }
            Action::Reload => return Reply::Done(self.load(false, app)),
            Action::ShowInSource => return self.show_version(context),
            Action::MarkVersion => self.mark(context),
            Action::ToggleVersionDiff => {
                self.diff = !self.diff;
                self.detail_scroll = 0;
            }
            Action::DetailDown => self.detail_scroll += 1,
            Action::DetailUp => self.detail_scroll = self.detail_scroll.saturating_sub(1),
            action => match movement(&action, list_height(app)) {
                Some(delta) => self.move_by(delta, app),
                None => return Reply::Pass(action),
            },
        }
        Reply::done()
    }
}

/// The rows of the versions' list, inside the view's border.
fn list_height(app: &App) -> usize {
    let (width, height) = layout::HISTORY_OVERLAY;
    let (_, height) = layout::overlay_size(layout::above_status(app.area), width, height);
    usize::from(height.saturating_sub(2)).max(1)
}
