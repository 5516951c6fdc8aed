//! The explorer's audits: the versions read from the store (or the file on screen), then
//! the log read, parsed and judged on a blocking thread, as `robotscope audit` does,
//! within a time limit and until Esc sets the stop flag. Progress goes to the app a few
//! times a second; the report once at the end.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use jiff::SignedDuration;
use tokio::sync::mpsc;
use url::Url;

use crate::app::Action;
use crate::audit::replay::{InForce, Timeline};
use crate::audit::run::{Run, Settings};
use crate::audit::{AuditProgress, Audited};
use crate::fetch::Limits;
use crate::history::{self, HistorySettings};
use crate::robots_db::RobotsDb;

/// The longest an audit in the explorer reads.
const AUDIT_TIME_LIMIT: Duration = Duration::from_secs(600);
/// How often it says how far it has got.
const PROGRESS_EVERY: Duration = Duration::from_millis(200);
/// The cache a robot may keep robots.txt for (RFC 9309 §2.4), as `audit`'s default.
const GRACE: SignedDuration = SignedDuration::from_hours(24);

/// What an audit is given.
pub(super) struct AuditJob {
    pub id: u64,
    pub log: PathBuf,
    pub site: Option<Url>,
    pub on_screen: InForce,
    pub settings: HistorySettings,
    pub limits: Limits,
    pub stop: Arc<AtomicBool>,
}

/// Runs an audit and sends what it found.
pub(super) async fn run_audit(job: AuditJob, actions: mpsc::UnboundedSender<Action>) {
    let AuditJob { id, log, site, on_screen, settings, limits, stop } = job;
    let mut warnings = Vec::new();
    let (versions, judged_by) = match site {
        Some(robots_url) => match history::read_for_view(&robots_url, settings, false, limits, |_| {}).await {
            Ok(loaded) => {
                warnings.extend(loaded.warnings);
                let versions: Vec<InForce> = loaded
                    .versions
                    .iter()
                    .filter_map(|stored| {
                        let civil = jiff::civil::DateTime::strptime("%Y%m%d%H%M%S", &stored.version.timestamp).ok()?;
                        Some(InForce {
                            since: Some(jiff::tz::Offset::UTC.to_timestamp(civil).ok()?),
                            txt: Arc::clone(stored.txt.as_ref()?),
                            availability: stored.version.availability,
                        })
                    })
                    .collect();
                if versions.is_empty() {
                    (vec![on_screen], "the file on screen, for all time (no version of the site is stored)".to_owned())
                } else {
                    let about =
                        format!("{} of {robots_url} in the store", crate::words::plural(versions.len(), "version"));
                    (versions, about)
                }
            }
            Err(error) => {
                warnings.push(format!("the store: {error}; the file on screen judges for all time"));
                (vec![on_screen], "the file on screen, for all time".to_owned())
            }
        },
        None => (vec![on_screen], "the file on screen, for all time".to_owned()),
    };
    let progress = actions.clone();
    let audited = tokio::task::spawn_blocking(move || {
        let timeline = Timeline::new(versions);
        let (verifier, list_warnings) = crate::audit::lists::verifier(&[])?;
        warnings.extend(list_warnings);
        let db = RobotsDb::embedded();
        let settings = Settings {
            grace: GRACE,
            only: None,
            semantics: None,
            custom: None,
            deadline: Instant::now() + AUDIT_TIME_LIMIT,
            every_row: false,
            stop: Some(stop),
        };
        let mut run = Run::new(&db, &timeline, settings, verifier, None);
        // The first round is said at once (a pipe may send nothing more for a while).
        let mut said: Option<Instant> = None;
        let mut on_progress = |run: &Run<'_>, _: &str| {
            if said.is_none_or(|said| said.elapsed() >= PROGRESS_EVERY) {
                said = Some(Instant::now());
                let progress_now = AuditProgress { lines: run.lines, bytes: run.bytes_read };
                let _ = progress.send(Action::AuditProgress { id, progress: progress_now });
            }
        };
        let ended = run.read_log(&log.to_string_lossy(), &mut |_, _| {}, &mut on_progress).map_err(|error| {
            let cause = std::error::Error::source(&error).map(|cause| format!(": {cause}")).unwrap_or_default();
            format!("{error}{cause}")
        })?;
        if run.lines == 0 && !ended {
            // Stopped (Esc, the time limit) before a line came: not an empty log.
            return Err(format!("stopped before a line of {} came", log.display()));
        }
        if run.lines == run.unreadable {
            let why = run.bad_lines.first().map_or("the log is empty", String::as_str);
            return Err(format!("nothing could be read in {}: {why}", log.display()));
        }
        Ok(Audited { report: run.report(!ended), judged_by, warnings, log })
    })
    .await
    .unwrap_or_else(|error| Err(format!("the audit stopped: {error}")));
    let _ = actions.send(Action::Audited { id, result: Box::new(audited) });
}
