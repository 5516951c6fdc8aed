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

use std::io;
use std::time::{Duration, Instant};

use color_eyre::eyre::{Result, WrapErr};
use crossterm::cursor::Show;
use crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture, Event, EventStream,
    KeyEventKind, MouseButton, MouseEventKind,
};
use futures::{Stream, StreamExt};
use ratatui::Terminal;
use ratatui::backend::Backend;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::app::{Action, App, Edit, Effect, Mode, keymap};
use crate::{fetch, ui};

/// Runs the explorer until the user quits, then restores the terminal.
pub fn run(app: App) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().wrap_err("starting the runtime")?;
    runtime.block_on(async {
        let mut terminal = ratatui::init();
        crossterm::execute!(io::stdout(), EnableMouseCapture, EnableBracketedPaste).wrap_err("enabling the mouse")?;
        install_panic_exit();
        let (actions, inbox) = mpsc::unbounded_channel();
        watch_signals(actions.clone());
        let result = event_loop(&mut terminal, EventStream::new(), actions, inbox, app).await;
        restore();
        result.map(drop)
    })
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
        std::process::exit(101);
    }));
}

/// Turns SIGTERM and SIGHUP into a quit, so the terminal is restored on the way out.
fn watch_signals(actions: mpsc::UnboundedSender<Action>) {
    #[cfg(unix)]
    tokio::spawn(async move {
        use tokio::signal::unix::{SignalKind, signal};
        let (Ok(mut term), Ok(mut hangup)) = (signal(SignalKind::terminate()), signal(SignalKind::hangup())) else {
            return;
        };
        tokio::select! {
            _ = term.recv() => {}
            _ = hangup.recv() => {}
        }
        let _ = actions.send(Action::Quit);
    });
}

/// The event loop, over any terminal backend and any stream of terminal events, so that
/// tests can drive it with `TestBackend` and a list of keys. Returns the final state.
pub async fn event_loop<B, S>(
    terminal: &mut Terminal<B>,
    mut events: S,
    actions: mpsc::UnboundedSender<Action>,
    mut inbox: mpsc::UnboundedReceiver<Action>,
    mut app: App,
) -> Result<App>
where
    B: Backend,
    B::Error: Send + Sync + 'static,
    S: Stream<Item = io::Result<Event>> + Unpin,
{
    let mut shell = Shell { actions, load: None };
    let size = terminal.size().wrap_err("reading the terminal size")?;
    app.update(Action::Resize { width: size.width, height: size.height });
    if shell.run_all(app.start()) {
        return Ok(app);
    }
    terminal.draw(|frame| ui::render(&app, frame)).wrap_err("drawing")?;
    loop {
        let quit = tokio::select! {
            biased;
            event = events.next() => match event {
                Some(event) => shell.handle_event(&mut app, event.wrap_err("reading the terminal")?),
                None => true,
            },
            Some(action) = inbox.recv() => shell.apply(&mut app, action),
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
        while let Ok(action) = inbox.try_recv() {
            if shell.apply(&mut app, action) {
                return Ok(app);
            }
        }
        terminal.draw(|frame| ui::render(&app, frame)).wrap_err("drawing")?;
    }
}

/// How often a running load reports progress (the spinner and the timer).
const PROGRESS_EVERY: Duration = Duration::from_millis(100);

/// Runs the app's effects: background loads, cancellation, quitting.
struct Shell {
    /// Where background tasks send their results.
    actions: mpsc::UnboundedSender<Action>,
    /// The running load, if any: its id and task.
    load: Option<(u64, JoinHandle<()>)>,
}

impl Shell {
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

    fn run(&mut self, effect: Effect) -> bool {
        match effect {
            Effect::Quit => {
                self.stop_load();
                return true;
            }
            Effect::Load { id, source, limits } => {
                self.stop_load();
                let actions = self.actions.clone();
                let task = tokio::spawn(async move {
                    let started = Instant::now();
                    let load = fetch::retrieve(source, limits);
                    tokio::pin!(load);
                    let mut progress = tokio::time::interval(PROGRESS_EVERY);
                    let result = loop {
                        tokio::select! {
                            result = &mut load => break result,
                            _ = progress.tick() => {
                                let _ = actions.send(Action::LoadProgress { id, elapsed: started.elapsed() });
                            }
                        }
                    };
                    let _ = actions.send(Action::Loaded { id, result: Box::new(result) });
                });
                self.load = Some((id, task));
            }
            Effect::CancelLoad { id } => {
                if self.load.as_ref().is_some_and(|(running, _)| *running == id) {
                    self.stop_load();
                }
            }
        }
        false
    }

    fn stop_load(&mut self) {
        if let Some((_, task)) = self.load.take() {
            task.abort();
        }
    }
}

impl Drop for Shell {
    fn drop(&mut self) {
        self.stop_load();
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
        Event::Paste(text) => {
            let edit = |c| match app.mode() {
                Mode::EditingPath => Some(Action::PathEdit(Edit::Insert(c))),
                Mode::AddingRobot(_) => Some(Action::RobotNameEdit(Edit::Insert(c))),
                Mode::OpeningSource(_) => Some(Action::SourceEdit(Edit::Insert(c))),
                Mode::Normal | Mode::Help | Mode::FetchDetails => None,
            };
            // A pasted line ends at its first line break.
            text.chars().take_while(|&c| c != '\n' && c != '\r').filter_map(edit).collect()
        }
        _ => Vec::new(),
    }
}
