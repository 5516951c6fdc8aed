//! Speed of the explorer, measured with criterion (`cargo bench --bench explorer`):
//!
//! * `first_frame/<file>`: from the bytes in memory to the first frame drawn: parse,
//!   build the robot list, evaluate, lay out and draw at 120x40.
//! * `robot_switch/<file>`: select the next robot (evaluate under all three readings)
//!   and redraw at 200x60.
//! * `compare_scroll`: the compare view with 50 robots x 10,000 paths, one page down
//!   and a redraw at 200x60 (only the visible cells are checked).
//!
//! The large file is `www.xuexi.cn.txt` (3.7 MB) when `$ROBOTSCOPE_CORPUS` or the
//! workspace's `../shared/corpus/real` has it, else a generated file of the same shape
//! (its source states no licence, so it is not in this repository).

#[path = "support/large_file.rs"]
mod support;

use std::fmt::Write as _;
use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use robotscope::app::{Action, App};
use robotscope::policy::RobotsTxt;
use robotscope::robots_db::RobotsDb;
use robotscope::ui;
use support::large_file;

fn first_frame(c: &mut Criterion) {
    let mut group = c.benchmark_group("first_frame");
    group.sample_size(20);
    let db = RobotsDb::embedded();
    let (name, large) = large_file();
    let files = [("embedded example".to_owned(), robotscope::app::EXAMPLE.as_bytes().to_vec()), (name, large)];
    for (name, bytes) in files {
        group.bench_function(BenchmarkId::from_parameter(&name), |b| {
            b.iter_batched(
                || bytes.clone(),
                |bytes| {
                    let mut app = App::new(RobotsTxt::parse(bytes), name.clone(), &db);
                    app.update(Action::Resize { width: 120, height: 40 });
                    let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("terminal");
                    terminal.draw(|frame| ui::render(&app, frame)).expect("draw");
                    black_box(terminal);
                },
                criterion::BatchSize::LargeInput,
            );
        });
    }
    group.finish();
}

fn robot_switch(c: &mut Criterion) {
    let mut group = c.benchmark_group("robot_switch");
    let (name, bytes) = large_file();
    let mut app = App::new(RobotsTxt::parse(bytes), name.clone(), &RobotsDb::embedded());
    app.update(Action::Resize { width: 200, height: 60 });
    let mut terminal = Terminal::new(TestBackend::new(200, 60)).expect("terminal");
    group.bench_function(BenchmarkId::new("200x60", &name), |b| {
        b.iter(|| {
            app.update(Action::NextRobot);
            terminal.draw(|frame| ui::render(&app, frame)).expect("draw");
        });
    });
    group.finish();
}

/// One key typed at the end of a 10 MB line in the editor, and the frame after it.
fn edit_long_line(c: &mut Criterion) {
    let mut group = c.benchmark_group("edit_long_line");
    group.sample_size(10);
    let text = format!("User-agent: *\nDisallow: /{}\n", "x".repeat(10 << 20));
    let mut app = App::new(RobotsTxt::parse(text.into_bytes()), "long".to_owned(), &RobotsDb::embedded());
    app.update(Action::Resize { width: 120, height: 40 });
    robotscope::app::keymap::press(&mut app, "e<down><end>");
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("terminal");
    group.bench_function("10 MB line, a key", |b| {
        b.iter(|| {
            robotscope::app::keymap::press(&mut app, "y");
            terminal.draw(|frame| ui::render(&app, frame)).expect("draw");
        });
    });
    // A short line in the middle of 300,000 of them (7.5 MB; its lint runs in the
    // background, as the explorer's does).
    let text = (0..300_000).fold(String::new(), |mut text, n| {
        let _ = writeln!(text, "Disallow: /section/{n:06}/");
        text
    });
    let mut app =
        App::new(RobotsTxt::parse(format!("User-agent: *\n{text}")), "many".to_owned(), &RobotsDb::embedded());
    app.update(Action::Resize { width: 120, height: 40 });
    robotscope::app::keymap::press(&mut app, ":150000<ret>e<end>");
    group.bench_function("300,000 lines, a key", |b| {
        b.iter(|| {
            robotscope::app::keymap::press(&mut app, "y");
            terminal.draw(|frame| ui::render(&app, frame)).expect("draw");
        });
    });
    // Key repeat: ten keys arrive together, and the loop tests the text once before
    // its frame.
    group.bench_function("300,000 lines, ten keys in one frame", |b| {
        b.iter(|| {
            robotscope::app::keymap::press(&mut app, "yyyyyyyyyy");
            terminal.draw(|frame| ui::render(&app, frame)).expect("draw");
        });
    });
    group.finish();
}

fn compare_scroll(c: &mut Criterion) {
    let mut app = App::example();
    robotscope::app::keymap::press(&mut app, "c");
    let names: Vec<String> = app.robots().iter().take(50).map(|e| e.profile.name.clone()).collect();
    for name in &names {
        robotscope::app::keymap::press(&mut app, &format!("a{name}<ret>").replace(' ', "<space>"));
    }
    let paths = (0..10_000).map(|i| format!("/page/{i}/x.pdf")).collect();
    app.update(Action::PathsRead { file: "paths.txt".into(), result: Ok(paths) });
    app.update(Action::Resize { width: 200, height: 60 });
    let mut terminal = Terminal::new(TestBackend::new(200, 60)).expect("terminal");
    let mut rows = 0;
    c.bench_function("compare_scroll/50x10000 200x60", |b| {
        b.iter(|| {
            // Down to the bottom, then back to the top, a page at a time.
            rows += 1;
            app.update(if rows % 400 < 200 { Action::PageDown } else { Action::PageUp });
            terminal.draw(|frame| ui::render(&app, frame)).expect("draw");
        });
    });
}

criterion_group!(benches, first_frame, robot_switch, compare_scroll, edit_long_line);
criterion_main!(benches);
