//! Speed of the explorer, measured with criterion (`cargo bench --bench explorer`):
//!
//! * `first_frame/<file>`: from the bytes in memory to the first frame drawn: parse,
//!   build the robot list, evaluate, lay out and draw at 120x40.
//! * `robot_switch/<file>`: select the next robot (evaluate under all three readings)
//!   and redraw at 200x60.
//! * `compare_scroll`: the compare view with 50 robots x 10,000 paths, one page down
//!   and a redraw at 200x60 (only the visible cells are checked).
//! * `ai_policy/*` (issue 37): on a 500 KiB file naming 307 robots with 3,000 wildcard
//!   rules for `*`, the block of every ai-training robot made and proved against every
//!   other robot of the registry (`robotscope block`'s work), and the verdicts of every
//!   registry robot and every robot named compared under all three readings against a
//!   file with two rules changed (`robotscope diff OLD NEW`'s); and in the explorer's
//!   policy view (`b`), Space on the ai-training purpose (mark, block, proof, diff) and
//!   the redraw at 120x40, on that file and on the large one.
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

/// A 500 KiB file of the shape a large site writes: 3,000 wildcard rules for `*`, then
/// 307 named groups of 31 rules, padded with comments.
fn file_500k() -> Vec<u8> {
    let mut text = String::from("User-agent: *\n");
    for i in 0..3_000 {
        let _ = writeln!(text, "Disallow: /s{i}/*.php$");
    }
    let names = ["GPTBot", "ClaudeBot", "Googlebot", "bingbot", "CCBot", "Applebot", "Bytespider"];
    let named = names.iter().map(|name| (*name).to_owned()).chain((0..300).map(|i| format!("Bot{i}")));
    for name in named {
        let _ = writeln!(text, "\nUser-agent: {name}");
        for j in 0..30 {
            let _ = writeln!(text, "Disallow: /{}/{j}/", name.to_ascii_lowercase());
        }
        text.push_str("Allow: /public/\n");
    }
    while text.len() + 64 < 500 * 1024 {
        text.push_str("# padding: a comment line as sites write them\n");
    }
    text.into_bytes()
}

fn ai_policy(c: &mut Criterion) {
    use robotscope::policy::{BlockRequest, Reading, as_robots_read, block_proved, impact_keeping, robots_named};
    use robotscope::robots_db::Purpose;
    let mut group = c.benchmark_group("ai_policy");
    group.sample_size(20);
    let db = RobotsDb::embedded();
    let before = as_robots_read(file_500k());
    let chosen: Vec<String> =
        db.profiles().iter().filter(|p| p.serves(Purpose::AiTraining)).map(|p| p.written().to_owned()).collect();
    let kept = db.robots_except(&chosen);
    group.bench_function("block ai-training, 500 KiB", |b| {
        b.iter(|| {
            let request = BlockRequest { chosen: &chosen, kept: &kept };
            black_box(block_proved(&before, request, &[]).expect("a block that holds"));
        });
    });
    let changed = String::from_utf8(file_500k()).expect("utf-8").replacen("Disallow: /s17/*.php$\n", "", 1).replacen(
        "User-agent: GPTBot\n",
        "User-agent: GPTBot\nDisallow: /extra/\n",
        1,
    );
    let after = as_robots_read(changed.into_bytes());
    group.bench_function("diff every robot, 500 KiB", |b| {
        b.iter(|| {
            let mut robots: Vec<(String, robotscope::policy::Robot)> =
                db.profiles().iter().map(|p| (p.name.clone(), p.robot())).collect();
            robots.extend(robots_named(&before, &after));
            for reading in Reading::ALL {
                black_box(impact_keeping(&before, &after, &robots, &[reading], 2_000));
            }
        });
    });
    let (name, large) = large_file();
    for (name, bytes) in [("500 KiB".to_owned(), file_500k()), (name, large)] {
        let mut app = App::new(RobotsTxt::parse(bytes), name.clone(), &db);
        app.update(Action::Resize { width: 120, height: 40 });
        robotscope::app::keymap::press(&mut app, "b");
        // The cursor on the ai-training purpose.
        let rows = match app.view() {
            Some(robotscope::app::view::View::Policy(view)) => view.rows.clone(),
            _ => panic!("the policy view opens"),
        };
        let at = rows
            .iter()
            .position(|row| matches!(row, robotscope::app::view::policy::PolicyRow::Purpose(Purpose::AiTraining)));
        robotscope::app::keymap::press(&mut app, &"j".repeat(at.expect("a heading")));
        let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("terminal");
        group.bench_function(BenchmarkId::new("policy view: Space and redraw", &name), |b| {
            b.iter(|| {
                app.update(Action::MarkToBlock);
                terminal.draw(|frame| ui::render(&app, frame)).expect("draw");
            });
        });
    }
    group.finish();
}

criterion_group!(benches, first_frame, robot_switch, compare_scroll, edit_long_line, ai_policy);
criterion_main!(benches);
