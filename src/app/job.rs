//! Background work the app follows: one type for every job a view starts (the load of
//! a source, a page's fetch, the sitemaps' walk, the history's reading).
//!
//! A job has an id from the app's one counter, so that an answer can never be taken
//! for another job's: answers whose id is not the job's are stale and dropped. While it
//! runs it holds its progress; Esc stops it (the app asks the shell to cancel the task,
//! and what it sent before is kept).

use std::cell::Cell;

/// Hands out job ids, each once. A view that reads the app (`&App`) starts jobs too, so
/// handing out an id takes no `&mut`: the counter is a `Cell`.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct JobIds(Cell<u64>);

impl JobIds {
    /// A new id.
    pub fn new_id(&self) -> u64 {
        let id = self.0.get() + 1;
        self.0.set(id);
        id
    }
}

/// A job: its id and, while it runs, how far it has got.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Job<P = ()> {
    id: u64,
    running: Option<P>,
}

impl<P> Default for Job<P> {
    /// No job yet: not running, and no answer is its (ids start at 1).
    fn default() -> Self {
        Job { id: 0, running: None }
    }
}

impl<P> Job<P> {
    /// A job that starts now, at `progress`.
    pub fn start(ids: &JobIds, progress: P) -> Job<P> {
        Job { id: ids.new_id(), running: Some(progress) }
    }

    /// Its id, which its answers carry.
    #[must_use]
    pub fn id(&self) -> u64 {
        self.id
    }

    /// True when an answer with `id` is this job's (late ones included).
    #[must_use]
    pub fn is(&self, id: u64) -> bool {
        self.id == id
    }

    /// True while it runs.
    #[must_use]
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// How far it has got, while it runs.
    #[must_use]
    pub fn progress(&self) -> Option<&P> {
        self.running.as_ref()
    }

    /// Progress of job `id`: kept when it is this job and it runs; true then.
    pub fn advance(&mut self, id: u64, progress: P) -> bool {
        let current = self.id == id && self.running.is_some();
        if current {
            self.running = Some(progress);
        }
        current
    }

    /// Job `id` ended: true when it is this job (else the answer is stale).
    pub fn finish(&mut self, id: u64) -> bool {
        let current = self.id == id;
        if current {
            self.running = None;
        }
        current
    }

    /// Stops the job if it runs: the id of the task to cancel.
    pub fn stop(&mut self) -> Option<u64> {
        self.running.take().map(|_| self.id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_of_another_job_are_dropped_and_esc_stops_once() {
        let ids = JobIds::default();
        let old = Job::start(&ids, 0);
        let mut job = Job::start(&ids, 0);
        assert!(!job.advance(old.id(), 5), "a stale job's progress");
        assert!(job.advance(job.id(), 5));
        assert_eq!(job.progress(), Some(&5));
        assert_eq!(job.stop(), Some(job.id()));
        assert_eq!(job.stop(), None, "stopped already");
        assert!(!job.advance(job.id(), 6), "no progress once stopped");
        assert!(job.is(job.id()) && !job.is(old.id()));
        assert!(!job.finish(old.id()));
        assert!(job.finish(job.id()) && !job.is_running());
    }
}
