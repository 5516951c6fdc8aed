//! Driving the explorer's state with actions, the way keys would, and drawing it into
//! ratatui's `TestBackend`.

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use robotscope::app::{Action, App, Edit};

/// The app drawn at `width` x `height`.
pub fn draw(app: &mut App, width: u16, height: u16) -> Terminal<TestBackend> {
    app.update(Action::Resize { width, height });
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test terminal");
    terminal.draw(|frame| robotscope::ui::render(app, frame)).expect("draw");
    terminal
}

/// Selects (or adds) a robot by name, as `a` does.
pub fn select(app: &mut App, name: &str) {
    app.update(Action::AddRobot);
    for c in name.chars() {
        app.update(Action::RobotNameEdit(Edit::Insert(c)));
    }
    app.update(Action::SubmitRobotName);
}

/// Types a path into the tester and keeps it; the tester stays focused.
pub fn test_path(app: &mut App, path: &str) {
    app.update(Action::EditPath);
    app.update(Action::PathEdit(Edit::Clear));
    for c in path.chars() {
        app.update(Action::PathEdit(Edit::Insert(c)));
    }
    app.update(Action::SubmitPath);
}
