//! The audit view (`L`): an access log replayed against the robots.txt in force when
//! each request came, as `robotscope audit` does: the robots with their counts (forged
//! requests counted apart), and the violations grouped by deciding line, those of
//! forged requests after the rest. Enter on a violation selects its robot, puts its path
//! in the tester and, when the site's history judged it, loads the version in force
//! read-only, so that the deciding line shows as it stood.
//!
//! The run is an effect ([`Effect::RunAudit`]) on a thread of its own, which says how
//! far it has got ([`Action::AuditProgress`]) and what it found ([`Action::Audited`]);
//! Esc stops it. The versions are the store's for a site (as the history view reads
//! them), else the text on screen, for all time.

use std::path::PathBuf;
use std::sync::Arc;

use url::Url;

pub use crate::audit::run::{Group, Report, RobotCounts};
pub use crate::audit::{AuditProgress, Audited};

use super::{Ask, Context, Reply, View, movement};
use crate::app::job::Job;
use crate::app::tester::upper_first;
use crate::app::{About, Action, App, Document, Effect, Origin, Overlay, layout};
use crate::audit::replay::InForce;
use crate::fetch::Source;
use crate::words::plural;

/// The view's state.
#[derive(Debug)]
pub struct AuditView {
    /// The run, and how far it has got while it runs: answers of another are stale.
    pub job: Job<AuditProgress>,
    /// The log audited.
    pub log: PathBuf,
    /// What the last run that ended found (a failed run keeps the one before).
    pub audited: Option<Audited>,
    /// Why the last run found nothing, if it failed.
    pub failed: Option<String>,
    /// The text's generation the run judged, when the file on screen judged it: a later
    /// edit makes the report stale.
    pub judged_text: Option<u64>,
    /// The site whose robots.txt over time judged the run (its history), if one did.
    pub site: Option<Url>,
    /// The violation group under the cursor.
    pub cursor: usize,
    /// The first group shown.
    pub scroll: usize,
}

impl AuditView {
    /// True when the file on screen judged the report and has changed since.
    #[must_use]
    pub fn is_stale(&self, app: &App) -> bool {
        self.judged_text.is_some_and(|generation| generation != app.text_generation)
    }

    /// The groups of the report, none before it comes.
    #[must_use]
    pub fn groups(&self) -> &[Group] {
        self.audited.as_ref().map_or(&[], |audited| &audited.report.groups)
    }

    /// Stops a run under way.
    pub(in crate::app) fn stop(&mut self) -> Vec<Effect> {
        self.job.stop().map(|id| Effect::CancelAudit { id }).into_iter().collect()
    }

    fn finished(&mut self, id: u64, result: Result<Audited, String>, context: &mut Context) {
        if !self.job.finish(id) {
            return;
        }
        match result {
            Ok(audited) => {
                let report = &audited.report;
                let violations: u64 = report.robots.iter().map(|robot| robot.violations).sum();
                let forged: u64 = report.robots.iter().map(|robot| robot.forged).sum();
                let stopped = if report.stopped { " (stopped: what was read)" } else { "" };
                context.say(
                    About::Moment,
                    format!(
                        "Audit{stopped}: {}, {}, {} forged",
                        plural(usize::try_from(report.robot_requests).unwrap_or(usize::MAX), "robot request"),
                        plural(usize::try_from(violations).unwrap_or(usize::MAX), "violation"),
                        forged
                    ),
                );
                for warning in &audited.warnings {
                    context.say(About::Moment, upper_first(warning));
                }
                self.cursor = 0;
                self.scroll = 0;
                self.failed = None;
                self.audited = Some(audited);
            }
            Err(error) => {
                context.say(About::Moment, upper_first(&error));
                self.failed = Some(upper_first(&error));
            }
        }
    }

    fn move_by(&mut self, delta: isize, app: &App) {
        let height = list_height(app);
        let last = self.groups().len().saturating_sub(1);
        self.cursor = self.cursor.saturating_add_signed(delta).min(last);
        if self.cursor < self.scroll {
            self.scroll = self.cursor;
        } else if self.cursor >= self.scroll + height {
            self.scroll = self.cursor + 1 - height;
        }
    }

    /// Enter: the violation's robot selected, its path in the tester, and the version in
    /// force in the panes (read-only) when the site's history judged it.
    fn show_violation(&self, context: &mut Context) -> Reply {
        let app = context.app;
        let Some(audited) = &self.audited else {
            context.say(About::Moment, "The audit runs; Esc stops it");
            return Reply::done();
        };
        let Some(group) = audited.report.groups.get(self.cursor) else {
            context.say(About::Moment, "No violation: nothing to show");
            return Reply::done();
        };
        let version = group.version.and_then(|index| audited.report.versions.get(index));
        if let Some(version @ InForce { since: Some(since), .. }) = version {
            if let Some(refused) = app.version_refused() {
                context.say(About::Moment, refused);
                return Reply::done();
            }
            // The version is the judged site's: not shown over another site's file (or
            // a local one) opened since.
            let Some(site) = app.history_site().filter(|site| Some(site) == self.site.as_ref()) else {
                let judged = self.site.as_ref().map_or_else(|| "another file".to_owned(), ToString::to_string);
                context.say(
                    About::Moment,
                    format!("This audit judged {judged}, which the panes no longer show: r runs it on what they show"),
                );
                return Reply::done();
            };
            let date = since.strftime("%Y-%m-%d %H:%M UTC");
            let label = format!("{site} of {date} (in force for this violation, read-only)");
            let source = Source::Site { robots_url: site, page: None };
            let mut document = Document::new((*version.txt).clone(), label, Origin::Version { source });
            document.availability = version.availability;
            context.ask(Ask::ShowVersion(Box::new(document), since.strftime("%Y%m%d%H%M%S").to_string()));
        }
        context.ask(Ask::AddRobotNamed(group.label.clone()));
        context.ask(Ask::TestPath(group.example.clone()));
        // Said last, over what selecting the robot said.
        if let Some(since) = version.and_then(|version| version.since) {
            let date = since.strftime("%Y-%m-%d %H:%M UTC");
            context.say(
                About::Moment,
                format!(
                    "{} as the version of {date} had it (read-only); H, then Enter on 'now' goes back",
                    group.label
                ),
            );
        }
        Reply::Close(Vec::new())
    }

    /// The view's answer to an action: its run's progress and result, Esc, `r`, `l`,
    /// Enter, moving.
    pub(super) fn update(&mut self, action: Action, context: &mut Context) -> Reply {
        let app = context.app;
        match action {
            Action::AuditProgress { id, progress } => {
                self.job.advance(id, progress);
            }
            Action::Audited { id, result } => self.finished(id, *result, context),
            Action::Cancel => {
                if !self.job.is_running() {
                    return Reply::Close(Vec::new());
                }
                context.say(About::Moment, "Stopped: what was read is shown; r runs it again, Esc leaves");
                return Reply::Done(self.stop());
            }
            Action::Reload => context.ask(Ask::StartAudit(self.log.clone())),
            Action::ShowInSource => return self.show_violation(context),
            action => match movement(&action, list_height(app)) {
                Some(delta) => self.move_by(delta, app),
                None => return Reply::Pass(action),
            },
        }
        Reply::done()
    }
}

impl App {
    /// The audit view, when it is open.
    #[must_use]
    pub fn audit_view(&self) -> Option<&AuditView> {
        match &self.view {
            Some(View::Audit(view)) => Some(view),
            _ => None,
        }
    }

    /// `--log FILE`: audits `log` as soon as the file is loaded.
    pub fn audit_at_start(&mut self, log: PathBuf) {
        self.audit_at_start = Some(crate::app::LogAtStart::Given(log));
    }

    /// `L`: the audit view as it was left, or the prompt for a log to audit.
    pub(in crate::app) fn open_audit(&mut self) -> Vec<Effect> {
        match self.shelf.take(Overlay::Audit) {
            Some(view) => self.show(view),
            None => self.update(Action::OpenPrompt(crate::app::PromptKind::AuditLog)),
        }
    }

    /// Audits `log` in the background, in a view of its own (a run under way stops).
    pub(in crate::app) fn start_audit(&mut self, log: PathBuf) -> Vec<Effect> {
        // What the run before found stays until this one ends.
        let (mut effects, audited) = match self.discard_view(Overlay::Audit) {
            Some(View::Audit(mut view)) => (view.stop(), view.audited.take()),
            _ => (Vec::new(), None),
        };
        let job = Job::start(&self.job_ids, AuditProgress::default());
        let site = self.history_site();
        let judged_text = site.is_none().then_some(self.text_generation);
        let current = self.viewing.as_ref().map_or(&self.document, |viewing| &viewing.current);
        let on_screen = InForce { since: None, txt: Arc::clone(&current.txt), availability: current.availability };
        effects.push(Effect::RunAudit {
            id: job.id(),
            log: log.clone(),
            site: site.clone(),
            on_screen: Box::new(on_screen),
            settings: self.history_settings.clone(),
            limits: self.fetch_limits(),
        });
        self.say(About::Moment, format!("Auditing {} (Esc stops)", log.display()));
        let view = AuditView { job, log, audited, failed: None, judged_text, site: site.clone(), cursor: 0, scroll: 0 };
        let mut shown = self.show(View::Audit(Box::new(view)));
        shown.extend(effects);
        shown
    }
}

/// The rows of the violations' list.
fn list_height(app: &App) -> usize {
    let (width, height) = layout::AUDIT_OVERLAY;
    let (_, height) = layout::overlay_size(layout::above_status(app.area), width, height);
    // The summary, the robots' table (at most a third) and the headings above the list.
    usize::from(height.saturating_sub(2)).saturating_sub(usize::from(height) / 3 + 4).max(1)
}
