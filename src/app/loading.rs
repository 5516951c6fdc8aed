//! Loading a source into the explorer: the first load, `r` and `o`, progress, the
//! result (shown, or kept aside while the user decides about unsaved edits).

use super::job::Job;
use super::robots::{robot_entries, robot_entries_from};
use super::{
    About, App, Arc, DEFAULT_PATH, Document, Duration, Effect, Evaluation, Limits, LineInput, Loading, Origin, Overlay,
    Pane, Reading, RecoveryCopy, Rect, Retrieved, RobotEntry, RobotOrigin, RobotProfile, RobotsDb, RobotsTxt,
    ScrollView, Search, Source, Status, UserAgentChoice, View, unsaved, view,
};

impl App {
    /// The load `id` has run for `elapsed`.
    pub(super) fn load_progress(&mut self, id: u64, elapsed: Duration) {
        if let Some(Loading { source, ticks, .. }) = self.load.progress().filter(|_| self.load.is(id)) {
            let next = Loading { source: source.clone(), elapsed, ticks: ticks + 1 };
            self.load.advance(id, next);
        }
    }

    pub(super) fn with_document(document: Document, db: &RobotsDb) -> App {
        let robots = robot_entries(&document.txt, db, &[]);
        let robot = robots.iter().position(|entry| entry.profile.token == "Googlebot").unwrap_or(0);
        let mut app = App {
            view: None,
            shelf: view::Shelf::first(&robots),
            document,
            robots,
            robot,
            robots_view: ScrollView { cursor: robot, offset: 0 },
            reading_choice: None,
            focus: Pane::Source,
            prompt: None,
            focus_before_prompt: Pane::Source,
            source_view: ScrollView::default(),
            source_column: 0,
            records_view: ScrollView::default(),
            path: LineInput::with_text(DEFAULT_PATH),
            tester_scroll: 0,
            // Replaced at once by `reevaluate`; a verdict needs a document to exist.
            evaluation: Evaluation {
                given: DEFAULT_PATH.to_owned(),
                note: None,
                other_site: None,
                verdict: crate::policy::evaluate(
                    &RobotsTxt::default(),
                    &crate::policy::Robot::from_agent("*"),
                    DEFAULT_PATH,
                    Reading::Rfc9309,
                ),
                allowed_by_reading: [true; 3],
                usage: None,
                past_the_cut: None,
            },
            area: Rect::new(0, 0, 120, 40),
            status: Status::default(),
            user_actions: 0,
            loads: 0,
            search: Search::default(),
            load: Job::default(),
            job_ids: super::job::JobIds::default(),
            jobs_to_cancel: Vec::new(),
            audit_at_start: None,
            limits: Limits::default(),
            user_agent: UserAgentChoice::Given,
            original: Arc::default(),
            original_availability: crate::policy::Availability::Available,
            diagnostics: Vec::new(),
            editor: None,
            lossy_edit_confirmed: false,
            looked_at: Vec::new(),
            text_generation: 0,
            diagnostics_current: false,
            lint_asked: None,
            linting: false,
            fixing: None,
            original_generation: 0,
            recovery_kept: None,
            clipboard: crate::clipboard::ClipboardMode::Auto,
            // The shell tells the app about the real environment (`set_clipboard`).
            environment: crate::clipboard::Environment::default(),
            osc52_max_bytes: crate::clipboard::OSC52_MAX_BYTES,
            pending: None,
            load_replaces_edits: None,
            load_held: None,
            recovery_directory: std::env::temp_dir(),
            recovery_offer: None,
            unknown_robot_asked: None,
            robot_purpose: None,
            undo: unsaved::UndoHistory::default(),
            history_settings: crate::history::HistorySettings::default(),
            viewing: None,
            last_fetch: None,
            last_load_id: None,
        };
        app.adopt_loaded_text();
        app.note_robot_looked_at();
        app.reevaluate();
        app
    }

    /// Takes the document's text as the loaded one: the baseline for diffs and changes.
    pub(super) fn adopt_loaded_text(&mut self) {
        // Another file: the changes to undo were changes to the last one.
        self.undo.clear();
        self.original = self.document.txt.clone();
        self.original_generation += 1;
        self.original_availability = self.document.availability;
        self.editor = None;
        self.text_generation += 1;
        self.relint();
    }

    pub(super) fn note_robot_looked_at(&mut self) {
        let token = self.robot().profile.token.clone();
        if !self.looked_at.contains(&token) {
            self.looked_at.push(token);
        }
    }

    /// Effects to run when the explorer starts: the first load of a source given on the
    /// command line, a background lint of a large text, the recovery copy of any edits.
    pub fn start(&mut self) -> Vec<Effect> {
        let mut effects = match &self.document.origin {
            Origin::Pending(source) => {
                let source = source.clone();
                self.begin_load(source)
            }
            _ => Vec::new(),
        };
        // A shell that starts knows nothing yet, whatever was updated before it.
        if let Some(super::LogAtStart::Given(log)) = self.audit_at_start.take() {
            self.audit_at_start = Some(super::LogAtStart::Due(log));
        }
        self.lint_asked = None;
        self.linting = false;
        self.recovery_kept = None;
        effects.extend(self.housekeeping());
        effects
    }

    /// The effects that follow from the state rather than from one action: a lint of a
    /// text too large to lint on the spot, asked for once per text; the recovery copy of
    /// unsaved edits, kept in step with the text (and dropped once they are saved).
    pub(super) fn housekeeping(&mut self) -> Vec<Effect> {
        // The background work of views a new document closed: stopped.
        // A load that finished while the editor or a prompt was open asks once the user
        // has left them (after what they chose meanwhile, quitting say, is done with).
        if self.load_held.is_some()
            && self.editor.is_none()
            && self.view.is_none()
            && self.prompt.is_none()
            && self.pending.is_none()
            && let Some(loaded) = self.load_held.take()
        {
            if self.is_dirty() {
                self.pending = Some(unsaved::Pending::ShowLoaded(loaded));
                self.ask_about_the_load();
            } else {
                // Saved (or undone) meanwhile: nothing to ask about.
                self.show_loaded(loaded.id, loaded.document);
            }
        }
        let mut effects = std::mem::take(&mut self.jobs_to_cancel);
        // `--log`: the audit starts once the file it falls back on is there.
        if matches!(self.audit_at_start, Some(super::LogAtStart::Due(_)))
            && !matches!(self.document.origin, Origin::Pending(_))
            && let Some(super::LogAtStart::Due(log)) = self.audit_at_start.take()
        {
            effects.extend(self.start_audit(log));
        }
        self.refresh_changes();
        self.refresh_policy();
        if let Some(generation) = self.stale_diagnostics()
            && self.lint_asked != Some(generation)
            && !self.linting
        {
            self.lint_asked = Some(generation);
            self.linting = true;
            effects.push(Effect::Lint { generation, txt: Arc::clone(&self.document.txt) });
        }
        // Comparing the text with the loaded one costs its length: only when either changed.
        let generations = (self.text_generation, self.original_generation);
        if self.recovery_kept.is_none_or(|(kept, _)| kept != generations) {
            let was_dirty = self.recovery_kept.is_some_and(|(_, dirty)| dirty);
            let dirty = self.is_dirty();
            self.recovery_kept = Some((generations, dirty));
            if dirty || was_dirty {
                let copy = dirty
                    .then(|| RecoveryCopy { base: self.recovery_path(), text: self.document.txt.source().to_vec() });
                effects.push(Effect::KeepRecoveryCopy(copy));
            }
        }
        effects
    }

    /// `r`: reads the source again, asking first when that would drop unsaved edits.
    pub(super) fn reload(&mut self) -> Vec<Effect> {
        match self.document.origin.source() {
            Some(Source::Stdin) => {
                self.say(
                    About::Moment,
                    "Standard input was read once and cannot be read again; o opens another source",
                );
                Vec::new()
            }
            Some(_) => self.unless_unsaved(unsaved::Pending::Reload),
            None => {
                self.say(About::Moment, "The embedded example has no source to load again; o opens one");
                Vec::new()
            }
        }
    }

    /// Reads the source again, now.
    pub(super) fn reload_now(&mut self) -> Vec<Effect> {
        match self.document.origin.source().cloned() {
            Some(source) => self.begin_load(source),
            None => Vec::new(),
        }
    }

    pub(super) fn open_typed_source(spec: &str) -> Vec<Effect> {
        if spec.is_empty() {
            return Vec::new();
        }
        // Whether `example.com` or `noext` is a file or a site is the file system's to
        // say, as on the command line: asked off the event loop.
        vec![Effect::ResolveSource { spec: spec.to_owned() }]
    }

    /// A name typed in the open prompt, resolved: opens it (asking first about unsaved
    /// edits).
    pub(super) fn open_resolved(&mut self, result: Result<Source, crate::fetch::SourceError>) -> Vec<Effect> {
        match result {
            Ok(Source::Stdin) => {
                self.say(About::Moment, "Standard input holds the keys here; give a file or a site");
                Vec::new()
            }
            Ok(source) => self.unless_unsaved(unsaved::Pending::Open(source)),
            Err(error) => {
                self.say(About::Moment, error.to_string());
                Vec::new()
            }
        }
    }

    /// Starts loading `source`, replacing any load that is running.
    pub(super) fn begin_load(&mut self, source: Source) -> Vec<Effect> {
        let mut effects = Vec::new();
        if let Some(id) = self.load.stop() {
            effects.push(Effect::CancelLoad { id });
        }
        let limits = self.fetch_limits();
        self.load = Job::start(&self.job_ids, Loading { source: source.clone(), elapsed: Duration::ZERO, ticks: 0 });
        let id = self.load.id();
        self.status.clear();
        effects.push(Effect::Load { id, source, limits });
        effects
    }

    /// The limits of a fetch, with the selected robot's User-Agent under `--as-robot`.
    pub(super) fn fetch_limits(&self) -> Limits {
        let mut limits = self.limits.clone();
        if self.user_agent == UserAgentChoice::SelectedRobot && !self.robot().profile.control_only {
            limits.user_agent.clone_from(&self.robot().profile.user_agent);
        }
        limits
    }

    /// A load finished; stale results (a cancelled or replaced load) are dropped.
    pub(super) fn loaded(&mut self, id: u64, result: Result<Retrieved, crate::fetch::SourceError>) {
        // Stale results (a cancelled or replaced load) are dropped.
        if !(self.load.is_running() && self.load.finish(id)) {
            return;
        }
        let replaces_edits = self.load_replaces_edits.take() == Some(id);
        match result {
            Ok(retrieved) => {
                let document = Document::from_retrieved(retrieved, &self.limits);
                // Edits made while it loaded are not dropped without asking.
                if self.is_dirty() && !replaces_edits {
                    if self.pending.is_some() {
                        // The user is deciding about their edits already (to quit, say,
                        // or saving first): that choice stands.
                        let message = format!(
                            "A load of {} finished while you chose what becomes of your edits; it was set aside",
                            document.label
                        );
                        self.say(About::Moment, message);
                        return;
                    }
                    let loaded = Box::new(unsaved::Loaded { id, document });
                    if self.editor.is_some() || self.prompt.is_some() {
                        // Keys typed into the editor or a prompt must not answer the
                        // question: it is asked when the user leaves them.
                        self.load_held = Some(loaded);
                        self.say(About::Moment, "Loaded; when you are done here, you are asked about your edits");
                        return;
                    }
                    self.pending = Some(unsaved::Pending::ShowLoaded(loaded));
                    self.ask_about_the_load();
                    return;
                }
                self.show_loaded(id, document);
            }
            Err(error) => self.say(About::Moment, error.to_string()),
        }
    }

    /// Asks what becomes of the edits now that a load has brought another text.
    pub(super) fn ask_about_the_load(&mut self) {
        let effects = self.show(View::UnsavedEdits { below: None });
        self.jobs_to_cancel.extend(effects);
        self.say(About::Moment, "Loaded; your edits stay on screen until you choose");
    }

    /// Shows what a load brought in place of the document on screen.
    pub(super) fn show_loaded(&mut self, id: u64, document: Document) {
        let summary = load_summary(&document);
        // A new file: the version shown and the history read are the last one's.
        self.viewing = None;
        self.forget_views_of_the_last_text(true);
        self.last_fetch = None;
        self.last_load_id = Some(id);
        self.replace_document(document);
        self.say(About::Moment, summary);
    }

    /// Shows a new document, keeping the selected robot (by token), the robots the user
    /// added, the reading and the tester's path; returns the one it replaced.
    pub(super) fn replace_document(&mut self, document: Document) -> Document {
        // `e` on a file that is not UTF-8 asks again for each file.
        self.lossy_edit_confirmed = false;
        let token = self.robot().profile.token.clone();
        let added: Vec<RobotEntry> =
            self.robots.iter().filter(|e| e.origin == RobotOrigin::AddedByUser).cloned().collect();
        let db_profiles: Vec<RobotProfile> =
            self.robots.iter().filter(|e| e.origin == RobotOrigin::Profile).map(|e| e.profile.clone()).collect();
        let replaced = std::mem::replace(&mut self.document, document);
        // The editor and a question about replacing a file were about the text replaced.
        self.editor = None;
        self.load_held = None;
        let questions = std::iter::from_fn(|| match self.discard_view(Overlay::ConfirmReplace) {
            Some(View::ConfirmReplace(question)) => Some(question),
            _ => match self.discard_view(Overlay::ChangedOnDisk) {
                Some(View::ChangedOnDisk(question)) => Some(question.save),
                _ => None,
            },
        });
        for question in questions.collect::<Vec<_>>() {
            if self.view.is_none() {
                self.view = question.below.and_then(|below| self.shelf.take(below));
            }
            let file = question.file.display().to_string();
            self.say(About::Moment, format!("Not saved over {file}: the text it was about is gone"));
        }
        self.loads += 1;
        self.forget_views_of_the_last_text(false);
        self.adopt_loaded_text();
        self.robots = robot_entries_from(&self.document.txt, &db_profiles, &added);
        self.robot = self.robots.iter().position(|e| e.profile.token.eq_ignore_ascii_case(&token)).unwrap_or(0);
        // The purpose shown stays; a robot outside it shows every robot again.
        if self.robot_purpose.is_some_and(|purpose| !self.robots[self.robot].profile.serves(purpose)) {
            self.robot_purpose = None;
        }
        let cursor = self.shown_robots().iter().position(|&index| index == self.robot).unwrap_or(0);
        self.robots_view = ScrollView { cursor, offset: 0 };
        self.source_view = ScrollView::default();
        self.source_column = 0;
        self.records_view = ScrollView::default();
        self.search.origin = ScrollView::default();
        // The last file's search means nothing in this one (the source title's "n/N
        // find" hint goes with it).
        self.search.query.clear();
        self.put_page_in_tester();
        self.reevaluate();
        // New file, new rules: the default rows are its paths.
        self.reset_compare_rows();
        replaced
    }

    /// A site named with a page (`example.com/shop/item`) puts the page in the tester.
    pub(super) fn put_page_in_tester(&mut self) {
        let page = match &self.document.origin {
            Origin::Pending(Source::Site { page: Some(page), .. })
            | Origin::Site { source: Source::Site { page: Some(page), .. }, .. } => page.clone(),
            _ => return,
        };
        self.path.set_text(&page);
        self.path.commit_to_history();
    }
}

/// The status-bar line after a load: where, what status, how big, how long.
pub(super) fn load_summary(document: &Document) -> String {
    let size = document.txt.source().len();
    match document.fetched() {
        Some(Ok(fetched)) => format!(
            "Fetched {} · {} · {size} bytes · {} ms{}",
            fetched.final_url,
            fetched.status,
            fetched.elapsed.as_millis(),
            fetched.redirect_summary().map(|summary| format!(" · {summary}")).unwrap_or_default()
        ),
        Some(Err(error)) => format!("Fetch failed: {error}"),
        None => format!("Loaded {} · {size} bytes", document.label),
    }
}
