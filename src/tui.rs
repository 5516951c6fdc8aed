//! The terminal and the event loop: the only module that owns the terminal and the
//! runtime.
//!
//! The loop awaits one input (a key, a mouse event, a resize, a signal or a result from
//! background work), turns it into an [`Action`], lets [`App::update`] apply it, runs the
//! [`Effect`]s it returns, drains whatever else is already waiting, and then draws once.
//! Nothing is drawn while nothing happens (STYLE.md habit 6).
//!
//! The terminal is restored on every way out: a normal quit, an error (restored before
//! the error is printed), a panic on any thread, tokio tasks included (the hook restores,
//! reports, and ends the process, so a dead task never leaves a live UI behind), and
//! SIGTERM or SIGHUP.

mod activity;
mod audit;

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use color_eyre::eyre::{Result, WrapErr, bail};
use crossterm::cursor::Show;
use crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, Event, EventStream, KeyEventKind, MouseButton,
    MouseEventKind,
};
use futures::{Stream, StreamExt};
use ratatui::Terminal;
use ratatui::backend::Backend;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use self::activity::{Activity, Busy, Script};
pub use self::activity::{Step, When};
use crate::app::{Action, App, Effect, RecoveryCopy, keymap};
use crate::clipboard::{ClipboardError, ClipboardMode, CopyMethod, Environment, SystemClipboard, osc52_sequence};
use crate::history::{self, StoreChoice};
use crate::policy::escape::{sanitize_lines, sanitize_str};
use crate::policy::lint_checked;
use crate::policy::paths::path_lines;
use crate::{fetch, save, ui};

/// Runs the explorer until the user quits or a signal ends it, then restores the
/// terminal. The answer is the signal's number, if one ended it (after its recovery
/// copy was written): the process should say so in its exit status, as shells expect.
pub fn run(mut app: App, clipboard: ClipboardMode, osc52_max_bytes: Option<usize>) -> Result<Option<i32>> {
    app.set_clipboard(clipboard, Environment::current(), osc52_max_bytes);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().wrap_err("starting the runtime")?;
    let ended = runtime.block_on(async {
        let (actions, inbox) = mpsc::unbounded_channel();
        watch_signals(actions.clone());
        let mut terminal = open_terminal()?;
        crossterm::execute!(io::stdout(), EnableClicksAndWheel, EnableBracketedPaste).wrap_err("enabling the mouse")?;
        install_panic_exit();
        let mut stdout = io::stdout();
        let result = event_loop(&mut terminal, EventStream::new(), actions, inbox, app, &mut stdout).await;
        restore();
        for line in FAREWELL.lock().unwrap_or_else(std::sync::PoisonError::into_inner).drain(..) {
            eprintln!("{line}");
        }
        let signal = ENDED_BY.load(std::sync::atomic::Ordering::Relaxed);
        result.map(|_| (signal != 0).then_some(signal))
    });
    // Quitting is at once: a lint or a fix of a large file still running on the blocking
    // pool, or a read stuck on a FIFO, is left behind, not joined (dropping the runtime
    // would wait for each; issue 35). Nothing they hold needs writing: saves and
    // recovery copies are written before the loop returns.
    runtime.shutdown_background();
    ended
}

/// Takes over the terminal: raw mode, the alternate screen. Without a terminal to draw
/// on and read keys from (output into a pipe, no controlling terminal), says so instead
/// of panicking.
fn open_terminal() -> Result<ratatui::DefaultTerminal> {
    const SCRIPTS: &str = "in scripts, use robotscope check, lint, fix or compare";
    if !io::stdout().is_terminal() {
        bail!("the explorer draws on a terminal, and standard output is not one; {SCRIPTS}");
    }
    ratatui::try_init().or_else(|error| {
        restore();
        bail!("the explorer needs a terminal to read keys from, and there is none ({error}); {SCRIPTS}")
    })
}

/// Asks the terminal to report mouse clicks and the wheel, in SGR coordinates (xterm's
/// modes 1000 and 1006), and nothing else. crossterm's `EnableMouseCapture` also asks
/// for motion (1002, 1003): a report for every cell the pointer crosses, which the
/// explorer ignores and which piles up by the kilobyte while a slow step runs.
/// (`DisableMouseCapture` switches every mode off, these included.)
#[derive(Debug, Clone, Copy)]
struct EnableClicksAndWheel;

impl crossterm::Command for EnableClicksAndWheel {
    fn write_ansi(&self, f: &mut impl std::fmt::Write) -> std::fmt::Result {
        f.write_str("\x1b[?1000h\x1b[?1006h")
    }

    #[cfg(windows)]
    fn execute_winapi(&self) -> io::Result<()> {
        crossterm::event::EnableMouseCapture.execute_winapi()
    }
}

/// Puts the terminal back as it was: mouse reporting and bracketed paste off, the main
/// screen back, raw mode off, the cursor shown.
pub fn restore() {
    // Failing to restore one setting must not stop the others from being restored.
    let _ = crossterm::execute!(io::stdout(), DisableMouseCapture, DisableBracketedPaste, Show);
    ratatui::restore();
}

/// Wraps the panic hook that `ratatui::init` installed (restore, then report) so that
/// mouse reporting is switched off and the cursor shown first (the terminal object that
/// would show it on drop is never dropped), and the process ends afterwards: a panic in
/// a background task would otherwise leave the loop drawing on a restored terminal.
fn install_panic_exit() {
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = crossterm::execute!(io::stdout(), DisableMouseCapture, DisableBracketedPaste, Show);
        report(info);
        save_recovery_copy();
        std::process::exit(101);
    }));
}

/// Turns SIGTERM, SIGHUP, SIGINT and SIGQUIT into [`Action::Terminate`]: unsaved edits are written to a
/// recovery file, and the terminal is restored on the way out. The handlers are
/// registered here, before the terminal enters raw mode, so no signal can arrive
/// between the two and leave it raw.
fn watch_signals(actions: mpsc::UnboundedSender<Action>) {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        // SIGINT and SIGQUIT too: in raw mode Ctrl-C and Ctrl-\ are keys, so these come
        // from another program (`kill -INT`), and would otherwise end the process with
        // the edits unsaved and the terminal raw (issue 35).
        let (Ok(mut term), Ok(mut hangup), Ok(mut interrupt), Ok(mut quit)) = (
            signal(SignalKind::terminate()),
            signal(SignalKind::hangup()),
            signal(SignalKind::interrupt()),
            signal(SignalKind::quit()),
        ) else {
            return;
        };
        tokio::spawn(async move {
            let signal = tokio::select! {
                _ = term.recv() => libc::SIGTERM,
                _ = hangup.recv() => libc::SIGHUP,
                _ = interrupt.recv() => libc::SIGINT,
                _ = quit.recv() => libc::SIGQUIT,
            };
            ENDED_BY.store(signal, std::sync::atomic::Ordering::Relaxed);
            let _ = actions.send(Action::Terminate);
        });
    }
}

/// The signal that ended the explorer (0 when the user quit), for its exit status.
static ENDED_BY: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(0);

/// What to tell the user once the terminal is restored (on the alternate screen it
/// would be wiped): where a signal's recovery copy went.
static FAREWELL: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// The text with unsaved edits, and the name its recovery copy starts with, should a
/// panic end the process. The loop refreshes it whenever the text changes; the panic
/// hook writes it.
static RECOVERY: Mutex<Option<(PathBuf, Vec<u8>)>> = Mutex::new(None);

/// Writes the unsaved edits, if any, to a recovery copy of their own (from the panic
/// hook). A lock a panicking thread left poisoned still holds the text.
fn save_recovery_copy() {
    let recovery = RECOVERY.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((base, text)) = recovery.as_ref() {
        write_recovery_copy(base, text);
    }
}

/// Writes a recovery copy under a name of its own, in the temporary directory when its
/// own directory refuses it, and says where on standard error (the terminal is
/// restored by then).
fn write_recovery_copy(base: &std::path::Path, text: &[u8]) {
    match write_recovery_anywhere(base, text) {
        // The terminal is restored: a path holding escapes must not drive it.
        Ok(path) => eprintln!("robotscope: your unsaved edits were saved to {}", shown_path(&path)),
        Err(error) => eprintln!("{}", last_resort(&error, text)),
    }
}

/// What is said when no recovery copy could be written anywhere and the process must
/// end: the edits themselves, on standard error, where the user can still take them
/// (escaped: the terminal is restored, and the text is untrusted).
fn last_resort(error: &str, text: &[u8]) -> String {
    format!(
        "robotscope: your unsaved edits could not be saved ({}); here they are, between the lines:\n-----\n{}\n-----",
        sanitize_str(error),
        sanitize_lines(text).trim_end_matches('\n')
    )
}

/// A path as a message may show it: its control characters escaped (a file name may
/// hold any byte but `/` and NUL).
fn shown_path(path: &std::path::Path) -> String {
    sanitize_str(&path.display().to_string()).into_owned()
}

/// Writes a recovery copy under `base`, or, when its directory refuses it (read-only,
/// full), under the same name in robotscope's recovery directory, then in the temporary
/// directory. The error says why each refused.
fn write_recovery_anywhere(base: &std::path::Path, text: &[u8]) -> Result<PathBuf, String> {
    let name = base.file_name().map_or_else(|| "robots.txt.robotscope-unsaved".into(), std::ffi::OsStr::to_os_string);
    let mut refused = Vec::new();
    for place in [base.to_path_buf(), save::recovery_directory().join(&name), std::env::temp_dir().join(&name)] {
        if let Some(dir) = place.parent().filter(|dir| !dir.as_os_str().is_empty()) {
            // The recovery directory may not exist yet; a failure shows in the write.
            let _ = std::fs::create_dir_all(dir);
        }
        match save::write_recovery(&place, text) {
            Ok(path) => return Ok(path),
            Err(error) => refused.push(format!("{}: {error}", shown_path(&place))),
        }
    }
    Err(refused.join("; "))
}

/// The event loop, over any terminal backend and any stream of terminal events, so that
/// tests can drive it with `TestBackend` and a list of keys. `out` is where escape
/// sequences for the terminal itself go (OSC 52 copies): standard output in the real
/// explorer, a buffer in tests. Returns the final state.
pub async fn event_loop<B, S>(
    terminal: &mut Terminal<B>,
    events: S,
    actions: mpsc::UnboundedSender<Action>,
    inbox: mpsc::UnboundedReceiver<Action>,
    app: App,
    out: &mut dyn Write,
) -> Result<App>
where
    B: Backend,
    B::Error: Send + Sync + 'static,
    S: Stream<Item = io::Result<Event>> + Unpin,
{
    drive(terminal, events, (actions, inbox), app, out, None).await
}

/// Runs the loop on `app` with terminal events given in steps, for tests: each step's
/// events come when it says (once the loop is idle, at once, or once the app shows
/// something), and the loop ends once it is idle after the last step, or when a key
/// quits. No clock decides what a test sees.
pub async fn run_scripted<B>(terminal: &mut Terminal<B>, app: App, steps: Vec<Step>, out: &mut dyn Write) -> Result<App>
where
    B: Backend,
    B::Error: Send + Sync + 'static,
{
    let (script, events) = Script::new(steps);
    drive(terminal, events, mpsc::unbounded_channel(), app, out, Some(script)).await
}

/// The loop of [`event_loop`], with the activity it counts its tasks in.
async fn drive<B, S>(
    terminal: &mut Terminal<B>,
    mut events: S,
    (actions, mut inbox): (mpsc::UnboundedSender<Action>, mpsc::UnboundedReceiver<Action>),
    mut app: App,
    out: &mut dyn Write,
    mut script: Option<Script>,
) -> Result<App>
where
    B: Backend,
    B::Error: Send + Sync + 'static,
    S: Stream<Item = io::Result<Event>> + Unpin,
{
    let activity = Arc::new(Activity::default());
    let mut shell = Shell {
        activity: Arc::clone(&activity),
        actions,
        load: None,
        page_fetch: None,
        sitemaps_walk: None,
        lint: None,
        history: None,
        audit: None,
        store: app.history_settings().store.clone(),
        out,
        system_clipboard: SystemClipboard::default(),
    };
    let size = terminal.size().wrap_err("reading the terminal size")?;
    app.update(Action::Resize { width: size.width, height: size.height });
    if shell.run_all(app.start()) {
        return Ok(app);
    }
    terminal.draw(|frame| ui::render(&app, frame)).wrap_err("drawing")?;
    // A test's script gives its next events once their time has come. Idle: the
    // tasks are counted first, then the inbox, since a task sends its answer before it
    // stops counting (in the other order, an answer could slip in between).
    let advance = |script: &mut Option<Script>, app: &App, inbox: &mpsc::UnboundedReceiver<Action>| {
        if let Some(script) = script {
            script.advance(app, !activity.is_running() && inbox.is_empty());
        }
    };
    advance(&mut script, &app, &inbox);
    loop {
        let quit = tokio::select! {
            biased;
            event = events.next() => match event {
                Some(event) => shell.handle_event(&mut app, event.wrap_err("reading the terminal")?),
                None => true,
            },
            Some(action) = inbox.recv() => shell.apply(&mut app, action),
            // Under a script only: a task's end may make the loop idle (its answer was
            // applied before it ended, or it was aborted and gave none). The explorer
            // itself draws nothing for it.
            () = activity.ended(), if script.is_some() => false,
        };
        if quit {
            return Ok(app);
        }
        // Drain what is already waiting (a paste, key repeat, finished tasks) so that a
        // burst of input costs one draw. Each event is translated after the previous one
        // was applied, because a key's meaning depends on the mode it left behind. The
        // zero timeout polls the stream with this task's waker; polling it with a no-op
        // waker (`now_or_never`) would lose crossterm's wake-up.
        while let Ok(Some(event)) = tokio::time::timeout(Duration::ZERO, events.next()).await {
            if shell.handle_event(&mut app, event.wrap_err("reading the terminal")?) {
                return Ok(app);
            }
        }
        // Background answers for a frame's time at most: a walk that sends faster than
        // the app takes its batches must not keep the keys (Esc) and the frames waiting.
        let draining = Instant::now();
        while draining.elapsed() < DRAIN_AT_MOST
            && let Ok(action) = inbox.try_recv()
        {
            if shell.apply(&mut app, action) {
                return Ok(app);
            }
        }
        // The burst's keys in the editor, parsed and tested once.
        if shell.run_all(app.settle()) {
            return Ok(app);
        }
        terminal.draw(|frame| ui::render(&app, frame)).wrap_err("drawing")?;
        advance(&mut script, &app, &inbox);
    }
}

/// Walks the sitemaps, sending what it finds in batches: at most every
/// [`PROGRESS_EVERY`] or [`SITEMAP_BATCH`] events (each up to a thousand URLs), so that
/// two million URLs cost a few hundred actions and redraws, not millions. Aborting the
/// task drops the walk, which stops it.
async fn walk_sitemaps(
    id: u64,
    starts: Vec<url::Url>,
    limits: crate::sitemaps::WalkLimits,
    actions: mpsc::UnboundedSender<Action>,
) {
    let (sender, mut receiver) = mpsc::channel(SITEMAP_BATCH);
    let walk = tokio::spawn(crate::sitemaps::walk(starts, limits, sender));
    // Aborting this task must stop the walk too.
    let _stop = AbortOnDrop(walk.abort_handle());
    let mut batch = Vec::new();
    let mut tick = tokio::time::interval(PROGRESS_EVERY);
    loop {
        tokio::select! {
            event = receiver.recv() => match event {
                Some(event) => {
                    batch.push(event);
                    if batch.len() < SITEMAP_BATCH {
                        continue;
                    }
                }
                None => break,
            },
            _ = tick.tick() => {}
        }
        if !batch.is_empty() && actions.send(Action::SitemapEvents { id, events: std::mem::take(&mut batch) }).is_err()
        {
            return;
        }
    }
    if !batch.is_empty() {
        let _ = actions.send(Action::SitemapEvents { id, events: batch });
    }
    let walked = walk.await.unwrap_or_default();
    let _ = actions.send(Action::SitemapsWalked { id, walked });
}

/// Loads a source (see [`crate::load`]), telling the app how long it has taken while
/// it runs, then what it brought and, for a fetched site, what the store kept.
async fn load(
    id: u64,
    source: fetch::Source,
    limits: fetch::Limits,
    store: StoreChoice,
    actions: mpsc::UnboundedSender<Action>,
) {
    let started = Instant::now();
    let read = crate::load::read(source, &limits);
    tokio::pin!(read);
    let mut progress = tokio::time::interval(PROGRESS_EVERY);
    let result = loop {
        tokio::select! {
            result = &mut read => break result,
            _ = progress.tick() => {
                let _ = actions.send(Action::LoadProgress { id, elapsed: started.elapsed() });
            }
        }
    };
    // Shown at once; then kept in the store, which may wait for another writer. (The
    // other warnings the app words itself, from what was retrieved.)
    let retrieved = match result {
        Ok(loaded) => loaded.retrieved,
        Err(error) => {
            let _ = actions.send(Action::Loaded { id, result: Box::new(Err(error)) });
            return;
        }
    };
    let fetched = matches!(&retrieved, fetch::Retrieved::Site { outcome: Ok(_), .. }) && store != StoreChoice::Off;
    let to_keep = fetched.then(|| retrieved.clone());
    let _ = actions.send(Action::Loaded { id, result: Box::new(Ok(retrieved)) });
    if let Some(retrieved) = to_keep {
        let (previous, warnings) = crate::load::keep(&retrieved, &store, &limits).await;
        let words: Vec<String> = warnings.iter().map(ToString::to_string).collect();
        let warning = (!words.is_empty()).then(|| words.join("; "));
        let _ = actions.send(Action::FetchKept { id, previous: previous.map(Box::new), warning });
    }
}

/// The longest the loop applies waiting background answers before it draws and reads
/// the keys again.
const DRAIN_AT_MOST: Duration = Duration::from_millis(30);

/// The most sitemap events sent in one action.
const SITEMAP_BATCH: usize = 16;

/// Aborts a task when dropped.
struct AbortOnDrop(tokio::task::AbortHandle);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// How often a running load reports progress (the spinner and the timer).
const PROGRESS_EVERY: Duration = Duration::from_millis(100);

/// Runs the app's effects: background loads, cancellation, copying, saving, quitting.
struct Shell<'a> {
    /// The tasks running, counted.
    activity: Arc<Activity>,
    /// Where background tasks send their results.
    actions: mpsc::UnboundedSender<Action>,
    /// The running load, if any: its id and task.
    load: Option<(u64, JoinHandle<()>)>,
    /// The running page fetch, if any: its id and task.
    page_fetch: Option<(u64, JoinHandle<()>)>,
    /// The running sitemaps walk, if any: its id and task.
    sitemaps_walk: Option<(u64, JoinHandle<()>)>,
    /// The running background lint, if any: the text generation and task.
    lint: Option<(u64, JoinHandle<()>)>,
    /// The running history load, if any: its id and task.
    history: Option<(u64, JoinHandle<()>)>,
    /// The running audit, if any: its id and the flag that stops it (its reading runs
    /// on a blocking thread, which looks at the flag between batches).
    audit: Option<(u64, Arc<AtomicBool>)>,
    /// Where fetched robots.txt files are kept.
    store: StoreChoice,
    /// The terminal, for OSC 52.
    out: &'a mut dyn Write,
    /// Kept open for as long as the explorer runs (see [`SystemClipboard`]).
    system_clipboard: SystemClipboard,
}

impl Shell<'_> {
    /// Applies a terminal event; returns true when the app is to quit.
    fn handle_event(&mut self, app: &mut App, event: Event) -> bool {
        for action in translate(app, event) {
            if self.apply(app, action) {
                return true;
            }
        }
        false
    }

    /// Applies an action and runs its effects; returns true when the app is to quit.
    fn apply(&mut self, app: &mut App, action: Action) -> bool {
        self.run_all(app.update(action))
    }

    fn run_all(&mut self, effects: Vec<Effect>) -> bool {
        effects.into_iter().fold(false, |quit, effect| quit | self.run(effect))
    }

    /// Writes the unsaved edits to a recovery copy, then quits: always when the process
    /// is being stopped (`must_quit`, a signal), else only when a copy was written (the
    /// app hears [`Action::RecoveryFailed`] and stays). The message prints once the
    /// terminal is restored, on the main screen.
    fn keep_edits_and_quit(&mut self, copy: &RecoveryCopy, must_quit: bool) -> bool {
        let said = match write_recovery_anywhere(&copy.base, &copy.text) {
            Ok(path) => format!("robotscope: your unsaved edits were saved to {}", shown_path(&path)),
            Err(error) if must_quit => last_resort(&error, &copy.text),
            Err(error) => {
                let _ = self.actions.send(Action::RecoveryFailed(error));
                return false;
            }
        };
        self.stop_tasks();
        FAREWELL.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(said);
        true
    }

    fn run(&mut self, effect: Effect) -> bool {
        match effect {
            Effect::Quit => {
                self.stop_tasks();
                return true;
            }
            Effect::Load { id, source, limits } => {
                abort_task(&mut self.load, None);
                let actions = self.actions.clone();
                let store = self.store.clone();
                let task = self.spawn(load(id, source, limits, store, actions));
                self.load = Some((id, task));
            }
            Effect::CancelLoad { id } => {
                abort_task(&mut self.load, Some(id));
            }
            Effect::FetchPage { id, url, limits, obey } => {
                abort_task(&mut self.page_fetch, None);
                let actions = self.actions.clone();
                let task = self.spawn(async move {
                    let result = fetch::fetch_page(&url, &limits, obey.as_deref()).await;
                    let _ = actions.send(Action::PageFetched { id, result: Box::new(result) });
                });
                self.page_fetch = Some((id, task));
            }
            Effect::CancelPageFetch { id } => abort_task(&mut self.page_fetch, Some(id)),
            Effect::WalkSitemaps { id, starts, limits } => {
                abort_task(&mut self.sitemaps_walk, None);
                let actions = self.actions.clone();
                self.sitemaps_walk = Some((id, self.spawn(walk_sitemaps(id, starts, limits, actions))));
            }
            Effect::CancelSitemaps { id } => abort_task(&mut self.sitemaps_walk, Some(id)),
            Effect::LoadHistory { id, robots_url, settings, archive, limits } => {
                abort_task(&mut self.history, None);
                let actions = self.actions.clone();
                let task = self.spawn(async move {
                    let report = |progress| {
                        let _ = actions.send(Action::HistoryProgress { id, progress });
                    };
                    let result = history::read_for_view(&robots_url, settings, archive, limits, report).await;
                    let _ = actions.send(Action::HistoryLoaded { id, result: Box::new(result) });
                });
                self.history = Some((id, task));
            }
            Effect::CancelHistory { id } => abort_task(&mut self.history, Some(id)),
            Effect::RunAudit { id, log, site, on_screen, settings, limits } => {
                self.stop_audit(None);
                let stop = Arc::new(AtomicBool::new(false));
                self.audit = Some((id, Arc::clone(&stop)));
                let job = audit::AuditJob { id, log, site, on_screen: *on_screen, settings, limits, stop };
                self.spawn(audit::run_audit(job, self.actions.clone()));
            }
            Effect::CancelAudit { id } => self.stop_audit(Some(id)),
            Effect::Copy { what, text, method } => {
                // Written here, between two frames, so that the sequence never lands in
                // the middle of one.
                let result = match method {
                    CopyMethod::Osc52 => self
                        .out
                        .write_all(osc52_sequence(&text).as_bytes())
                        .and_then(|()| self.out.flush())
                        .map(|()| CopyMethod::Osc52)
                        .map_err(|e| ClipboardError::Terminal(e.to_string())),
                    CopyMethod::System => self.system_clipboard.copy(&text).map(|()| CopyMethod::System),
                };
                let _ = self.actions.send(Action::Copied { what, text, result });
            }
            Effect::WriteRecoveryAndQuit(copy) => return self.keep_edits_and_quit(&copy, true),
            Effect::KeepEditsAndQuit(copy) => return self.keep_edits_and_quit(&copy, false),
            Effect::Lint { generation, txt } => {
                // A lint of an older text is left to finish (a blocking task cannot be
                // stopped), and the app drops its answer.
                let actions = self.actions.clone();
                let task = self.spawn_blocking(move || {
                    // Every byte is linted (lint says what RFC 9309 leaves unread past
                    // 500 KiB), and each fix is checked on the file as robots read it.
                    let diagnostics = lint_checked(&txt);
                    let _ = actions.send(Action::Linted { generation, diagnostics });
                });
                self.lint = Some((generation, task));
            }
            Effect::KeepRecoveryCopy(copy) => {
                let mut recovery = RECOVERY.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                *recovery = copy.map(|copy| (copy.base, copy.text));
            }
            effect @ (Effect::FixAll { .. }
            | Effect::ReadPaths { .. }
            | Effect::ResolveSource { .. }
            | Effect::Save { .. }) => {
                self.run_on_a_blocking_thread(effect);
            }
        }
        false
    }

    /// Runs an effect that blocks (files, a long computation) on a thread of its own,
    /// which answers with an action. A cancelled one is left to finish (a blocking task
    /// cannot be stopped), and the app drops its answer.
    fn run_on_a_blocking_thread(&self, effect: Effect) {
        let actions = self.actions.clone();
        let answer = move || match effect {
            Effect::FixAll { generation, txt } => {
                let report = crate::policy::fix::fix_all(txt.source());
                let effect = crate::policy::fix::fix_all_effect(&txt, &report);
                Some(Action::FixedAll { generation, report: Box::new(report), effect })
            }
            Effect::ReadPaths { file } => {
                let wait = fetch::Limits::default().timeout;
                let result = crate::fetch::read_file_capped(&file, crate::fetch::MAX_FILE_BYTES, wait)
                    .map_err(|e| e.to_string())
                    .and_then(|(bytes, _)| path_lines(&bytes).map_err(|e| e.to_string()));
                Some(Action::PathsRead { file, result })
            }
            Effect::ResolveSource { spec } => {
                Some(Action::SourceResolved { result: crate::fetch::Source::resolve(&spec) })
            }
            Effect::Save { path, text, after, replace } => {
                let result = save::save(&path, &text, &replace);
                Some(Action::Saved { path, text, after, result: Box::new(result) })
            }
            _ => None,
        };
        self.spawn_blocking(move || {
            if let Some(action) = answer() {
                let _ = actions.send(action);
            }
        });
    }

    /// Starts a task, counted in the loop's activity until it ends or is aborted.
    fn spawn(&self, task: impl Future<Output = ()> + Send + 'static) -> JoinHandle<()> {
        let busy = self.activity.start();
        tokio::spawn(async move {
            let _busy: Busy = busy;
            task.await;
        })
    }

    /// Runs work on the blocking pool, counted as [`Shell::spawn`] counts a task.
    fn spawn_blocking(&self, work: impl FnOnce() + Send + 'static) -> JoinHandle<()> {
        let busy = self.activity.start();
        tokio::task::spawn_blocking(move || {
            let _busy: Busy = busy;
            work();
        })
    }

    /// Stops the audit that runs (with `id`, if it is that one).
    fn stop_audit(&mut self, id: Option<u64>) {
        if self.audit.as_ref().is_some_and(|(running, _)| id.is_none_or(|id| id == *running))
            && let Some((_, stop)) = self.audit.take()
        {
            stop.store(true, Ordering::Relaxed);
        }
    }

    fn stop_tasks(&mut self) {
        self.stop_audit(None);
        abort_task(&mut self.load, None);
        abort_task(&mut self.page_fetch, None);
        abort_task(&mut self.sitemaps_walk, None);
        abort_task(&mut self.history, None);
    }
}

/// Aborts the task in `slot`, if there is one (and, with `id`, if it is that one).
fn abort_task(slot: &mut Option<(u64, JoinHandle<()>)>, id: Option<u64>) {
    if slot.as_ref().is_some_and(|(running, _)| id.is_none_or(|id| id == *running))
        && let Some((_, task)) = slot.take()
    {
        task.abort();
    }
}

impl Drop for Shell<'_> {
    fn drop(&mut self) {
        self.stop_tasks();
    }
}

/// The actions a terminal event means in the app's current state.
fn translate(app: &App, event: Event) -> Vec<Action> {
    match event {
        Event::Key(key) if key.kind != KeyEventKind::Release => keymap::action_for(app, key).into_iter().collect(),
        Event::Mouse(mouse) => match mouse.kind {
            MouseEventKind::Down(MouseButton::Left) => vec![Action::Click { column: mouse.column, row: mouse.row }],
            MouseEventKind::ScrollDown => vec![Action::Scroll { column: mouse.column, row: mouse.row, down: true }],
            MouseEventKind::ScrollUp => vec![Action::Scroll { column: mouse.column, row: mouse.row, down: false }],
            _ => Vec::new(),
        },
        Event::Resize(width, height) => vec![Action::Resize { width, height }],
        Event::Paste(text) => vec![Action::Paste(text)],
        _ => Vec::new(),
    }
}
