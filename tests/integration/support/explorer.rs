//! Driving the explorer with keys, through the keymap as the event loop does, and
//! drawing it into ratatui's `TestBackend`.

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use robotscope::app::keymap::press;
use robotscope::app::{Action, App};
use robotscope::tui::{Step, When};

/// The app drawn at `width` x `height`.
pub fn draw(app: &mut App, width: u16, height: u16) -> Terminal<TestBackend> {
    app.update(Action::Resize { width, height });
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test terminal");
    terminal.draw(|frame| robotscope::ui::render(app, frame)).expect("draw");
    terminal
}

/// Selects (or adds) a robot by name: `a`, the name, Enter.
pub fn select(app: &mut App, name: &str) {
    press(app, &format!("a{}<ret>", escaped(name)));
}

/// Types a path into the tester and keeps it: `/` (the last path is selected, so
/// typing replaces it), the path, Enter.
pub fn test_path(app: &mut App, path: &str) {
    press(app, &format!("/{}<ret>", escaped(path)));
}

/// Text for the key notation: a `<` is written `<lt>`, a space `<space>`.
pub fn escaped(text: &str) -> String {
    text.replace('<', "<lt>")
}

/// Runs the real event loop on `terminal` through `steps` (see [`Step`]): each step's
/// events come when it says, and the loop ends once it is idle after the last; the app
/// as the loop left it. A step that never comes due fails the test after a minute.
pub async fn run_steps_on<B>(terminal: &mut Terminal<B>, app: App, steps: Vec<Step>) -> App
where
    B: ratatui::backend::Backend,
    B::Error: Send + Sync + 'static,
{
    let mut out = Vec::new();
    // Boxed: the loop's future holds the whole app.
    let run = Box::pin(robotscope::tui::run_scripted(terminal, app, steps, &mut out));
    tokio::time::timeout(std::time::Duration::from_secs(60), run)
        .await
        .expect("every step came due and the loop went idle within a minute")
        .expect("the loop")
}

/// [`run_steps_on`] at 120x40.
pub async fn run_steps(app: App, steps: Vec<Step>) -> App {
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("terminal");
    run_steps_on(&mut terminal, app, steps).await
}

/// Keys in the keymap's notation (`q`, `<ret>`, `<C-u>`), once the loop is idle.
pub fn when_idle(notation: &str) -> Step {
    Step { when: When::Idle, events: keys(notation) }
}

/// Keys as a person types them: each once the work of the one before is done.
pub fn typed_when_idle(notation: &str) -> Vec<Step> {
    keys(notation).into_iter().map(|event| Step { when: When::Idle, events: vec![event] }).collect()
}

/// Keys right after the step before, while its work may still run.
pub fn at_once(notation: &str) -> Step {
    Step { when: When::Now, events: keys(notation) }
}

/// Keys once the app passes `test`.
pub fn once(test: impl Fn(&App) -> bool + Send + 'static, notation: &str) -> Step {
    Step { when: When::Shows(Box::new(test)), events: keys(notation) }
}

/// Terminal events for keys in the keymap's notation.
pub fn keys(notation: &str) -> Vec<crossterm::event::Event> {
    robotscope::app::keymap::parse_keys(notation).into_iter().map(crossterm::event::Event::Key).collect()
}
