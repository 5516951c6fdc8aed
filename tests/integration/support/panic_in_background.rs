//! Opens the explorer on a file with a mistake, fixes it (so there are unsaved edits),
//! and makes a background thread panic half a second later, the way a panicking tokio
//! task would (tokio catches a task's panic and the process lives on). `tests/integration/e2e.rs`
//! runs this in a pseudo-terminal to check that the panic hook restores the terminal,
//! saves the unsaved edits to a recovery file, and ends the process.

use std::time::Duration;

use robotscope::app::{Action, App};
use robotscope::clipboard::ClipboardMode;

fn main() -> color_eyre::Result<()> {
    color_eyre::install()?;
    let mut app = App::from_text("User-agent: *\nDisallow: ~\n");
    app.update(Action::FixAll);
    std::thread::spawn(|| {
        std::thread::sleep(Duration::from_millis(500));
        panic!("a background task failed");
    });
    robotscope::tui::run(app, ClipboardMode::Osc52, None)?;
    Ok(())
}
