//! What the event loop has in flight, counted, so that a test can wait until the work
//! is done instead of guessing how long it takes.
//!
//! Every task the loop starts holds a [`Busy`] until it ends (finished, or aborted and
//! dropped). The loop is idle when no task is running and no answer is waiting in its
//! inbox. A task sends its answer before its `Busy` goes, so "nothing running" means
//! every answer is in the inbox. A task's end wakes a scripted loop through
//! [`Activity::ended`] (its answer may have been applied already, or an aborted task
//! gives none), which then looks again.
//!
//! What is counted is the loop's own tasks. Blocking work a task hands to tokio's pool
//! and does not wait for once it is aborted (a cancelled load's store write, a cancelled
//! history read's opening of the store) may outlive it: a test that aborts such a task
//! and then looks at its side effects must wait for them itself.
//!
//! A [`Script`] gives the loop a test's terminal events one [`Step`] at a time, each
//! when the loop is idle, at once, or when the app shows something; the explorer itself
//! runs without one.

use std::collections::VecDeque;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use crossterm::event::Event;
use tokio::sync::{Notify, mpsc};

use crate::app::App;

/// The loop's tasks in flight.
#[derive(Debug, Default)]
pub(super) struct Activity {
    running: AtomicUsize,
    ended: Notify,
}

impl Activity {
    /// Counts a task until the guard is dropped.
    pub(super) fn start(self: &Arc<Self>) -> Busy {
        self.running.fetch_add(1, Ordering::SeqCst);
        Busy(Arc::clone(self))
    }

    /// True while some task runs.
    pub(super) fn is_running(&self) -> bool {
        self.running.load(Ordering::SeqCst) > 0
    }

    /// Wakes when a task has ended.
    pub(super) async fn ended(&self) {
        self.ended.notified().await;
    }
}

/// A running task, counted in its [`Activity`] until dropped.
#[derive(Debug)]
pub(super) struct Busy(Arc<Activity>);

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.running.fetch_sub(1, Ordering::SeqCst);
        // A permit is kept if the loop is not waiting yet: it wakes on its next look.
        self.0.ended.notify_one();
    }
}

/// When a step's events are given to the loop.
pub enum When {
    /// Once the loop is idle: every task the events before started has ended, and its
    /// answers are applied.
    Idle,
    /// Right after the step before, while its work may still run (a key that stops it).
    Now,
    /// Once the app, as the loop left it, passes this test (a run that has read a line).
    /// The test is asked at the end of each turn, so it should ask for something that
    /// stays true once it is (`lines >= 1`), not a moment that a turn may pass over.
    Shows(Box<dyn Fn(&App) -> bool + Send>),
}

impl fmt::Debug for When {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            When::Idle => "Idle",
            When::Now => "Now",
            When::Shows(_) => "Shows(..)",
        })
    }
}

/// Terminal events, and when they come.
#[derive(Debug)]
pub struct Step {
    pub when: When,
    pub events: Vec<Event>,
}

/// A test's steps, fed to the loop's event stream as their time comes.
pub(super) struct Script {
    steps: VecDeque<Step>,
    /// Where the events go; dropped once the steps are done and the loop is idle, which
    /// ends the stream and the loop.
    feed: Option<mpsc::UnboundedSender<Event>>,
}

impl Script {
    /// The script, and the stream of events it feeds.
    pub(super) fn new(steps: Vec<Step>) -> (Script, impl futures::Stream<Item = std::io::Result<Event>> + Unpin) {
        let (feed, receiver) = mpsc::unbounded_channel();
        let events =
            futures::stream::unfold(receiver, |mut receiver| async { Some((Ok(receiver.recv().await?), receiver)) });
        (Script { steps: steps.into(), feed: Some(feed) }, Box::pin(events))
    }

    /// Called at the end of each turn of the loop: gives the next step's events if its
    /// time has come. One step with events a turn, so that each is applied before the
    /// next is weighed.
    ///
    /// # Panics
    ///
    /// When the loop is idle and the next step waits for the app to show something it
    /// does not: nothing can change the app any more, so the step would never come.
    pub(super) fn advance(&mut self, app: &App, idle: bool) {
        while let Some(step) = self.steps.front() {
            let due = match &step.when {
                When::Idle => idle,
                When::Now => true,
                When::Shows(test) => test(app),
            };
            assert!(
                due || !idle,
                "the loop is idle and nothing will change the app: a step that waits for it to show something ({} left) never comes",
                self.steps.len()
            );
            let (true, Some(feed)) = (due, &self.feed) else { return };
            let events = self.steps.pop_front().map(|step| step.events).unwrap_or_default();
            if !events.is_empty() {
                for event in events {
                    let _ = feed.send(event);
                }
                return;
            }
        }
        if idle {
            self.feed = None;
        }
    }
}
