//! Opens the explorer on the embedded example and makes a background thread panic half
//! a second later, the way a panicking tokio task would (tokio catches a task's panic
//! and the process lives on). `tests/e2e.rs` runs this in a pseudo-terminal to check
//! that the panic hook restores the terminal and ends the process.

use std::time::Duration;

use robotscope::app::App;

fn main() -> color_eyre::Result<()> {
    color_eyre::install()?;
    std::thread::spawn(|| {
        std::thread::sleep(Duration::from_millis(500));
        panic!("a background task failed");
    });
    robotscope::tui::run(App::example())
}
