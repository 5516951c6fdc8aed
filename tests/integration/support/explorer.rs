//! Driving the explorer with keys, through the keymap as the event loop does, and
//! drawing it into ratatui's `TestBackend`.

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use robotscope::app::keymap::press;
use robotscope::app::{Action, App};

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

/// Runs the real event loop at 120x40: each group of keys after its pause (in
/// milliseconds), so that background work (a load, the store, an audit) can finish in
/// between; the app as the loop left it.
pub async fn run_in_pauses(app: App, groups: Vec<(u64, Vec<crossterm::event::Event>)>) -> App {
    use futures::StreamExt;
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("terminal");
    let (actions, inbox) = tokio::sync::mpsc::unbounded_channel();
    let events = futures::stream::iter(groups)
        .then(|(pause, events)| async move {
            tokio::time::sleep(std::time::Duration::from_millis(pause)).await;
            futures::stream::iter(events.into_iter().map(Ok))
        })
        .flatten();
    robotscope::tui::event_loop(&mut terminal, Box::pin(events), actions, inbox, app, &mut Vec::new())
        .await
        .expect("loop")
}
