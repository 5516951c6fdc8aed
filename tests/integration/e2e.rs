//! The release binary in a real pseudo-terminal: start on the embedded example, switch
//! to Slurp, test a path, read the verdict and the highlighted line off the screen, quit,
//! and check that the terminal was restored. Also: a hostile file's escape sequences
//! never reach the terminal, and SIGTERM and a panic restore it too.
//!
//! The binary is the one cargo built for this test run: an optimised one under
//! `cargo test --profile ci`, the README's test command and CI's. The screen is read with
//! the `vt100` crate, which interprets what the program writes the way a terminal does.
// The binary and its layers: built with the default `tool` feature only.

use crate::profile;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use nix::sys::termios::LocalFlags;
use portable_pty::{CommandBuilder, PtySize, native_pty_system};

const ROWS: u16 = 40;
const COLS: u16 = 120;

/// A program running in a pseudo-terminal, with everything it wrote.
struct Session {
    parser: Arc<Mutex<vt100::Parser>>,
    raw: Arc<Mutex<Vec<u8>>>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn portable_pty::Child + Send + Sync>,
    /// Kept to read the terminal's modes after the program is gone.
    master: Box<dyn portable_pty::MasterPty + Send>,
    /// The terminal's other end, held until the program has ended, so that the reader
    /// ends on a hangup that comes after everything the program wrote. (Once, in a full
    /// run under load, the screen read after the program's exit was still the alternate
    /// one, though the program restores it before it exits: when its exit closed the last
    /// end, the hangup can overtake its last bytes.)
    slave: Option<Box<dyn portable_pty::SlavePty + Send>>,
    /// The program's data directory (the store, recovery copies): its own, so that no
    /// session sees what another left, nor the user's.
    _data: Option<tempfile::TempDir>,
    /// Rings once the reader has read everything the program wrote (the terminal
    /// closed when the program ended).
    read_all: std::sync::mpsc::Receiver<()>,
}

impl Session {
    /// Runs `program` with `args` in a 120x40 terminal.
    fn start(program: &Path, args: &[&str]) -> Session {
        Session::start_in(&std::env::current_dir().expect("a working directory"), program, args)
    }

    /// Runs `program` with `args` in a 120x40 terminal, in the directory `dir`.
    fn start_in(dir: &Path, program: &Path, args: &[&str]) -> Session {
        let data = tempfile::tempdir().expect("a data directory");
        let session = Session::start_with_data(dir, program, args, data.path());
        Session { _data: Some(data), ..session }
    }

    /// Runs `program` with `args` in a 120x40 terminal, in the directory `dir`, with
    /// `data` as its data directory (`XDG_DATA_HOME`).
    fn start_with_data(dir: &Path, program: &Path, args: &[&str], data: &Path) -> Session {
        let pair = native_pty_system()
            .openpty(PtySize { rows: ROWS, cols: COLS, pixel_width: 0, pixel_height: 0 })
            .expect("a pseudo-terminal");
        let mut command = CommandBuilder::new(program);
        command.cwd(dir);
        command.args(args);
        command.env("TERM", "xterm-256color");
        command.env("RUST_BACKTRACE", "0");
        command.env("XDG_DATA_HOME", data);
        let child = pair.slave.spawn_command(command).expect("spawn");
        let mut reader = pair.master.try_clone_reader().expect("reader");
        let writer = pair.master.take_writer().expect("writer");
        let size = |n| std::num::NonZeroU16::new(n).expect("a non-zero size");
        let parser = Arc::new(Mutex::new(vt100::Parser::new(size(ROWS), size(COLS), 0)));
        let raw = Arc::new(Mutex::new(Vec::new()));
        let (parser_in, raw_in) = (Arc::clone(&parser), Arc::clone(&raw));
        let (reader_done, read_all) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut buffer = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buffer) {
                if n == 0 {
                    break;
                }
                parser_in.lock().expect("parser").process(&buffer[..n]);
                raw_in.lock().expect("raw").extend_from_slice(&buffer[..n]);
            }
            let _ = reader_done.send(());
        });
        Session { parser, raw, writer, child, master: pair.master, slave: Some(pair.slave), _data: None, read_all }
    }

    fn screen_text(&self) -> String {
        self.parser.lock().expect("parser").screen().contents()
    }

    /// Everything the program wrote, as text (its last words after the screen was
    /// restored scroll by on the main screen).
    fn output_text(&self) -> String {
        String::from_utf8_lossy(&self.raw.lock().expect("raw")).into_owned()
    }

    /// Waits until the screen shows `needle`.
    fn wait_for(&self, needle: &str) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            if self.screen_text().contains(needle) {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("the screen never showed {needle:?}:\n{}", self.screen_text());
    }

    fn send(&mut self, keys: &str) {
        self.writer.write_all(keys.as_bytes()).expect("write keys");
        self.writer.flush().expect("flush");
        // A lone ESC followed at once by a key reads as Alt+key; real typing has gaps.
        std::thread::sleep(Duration::from_millis(120));
    }

    fn wait_exit(&mut self) -> u32 {
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().expect("wait") {
                // What the program wrote last is read once the terminal closes, which it
                // does when its other end goes.
                self.slave = None;
                self.read_all.recv_timeout(Duration::from_secs(30)).expect("the terminal closed");
                return status.exit_code();
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("the program did not exit:\n{}", self.screen_text());
    }

    /// The terminal is back to normal: main screen, cursor shown, no mouse reporting,
    /// no bracketed paste (from what the program wrote), and the pseudo-terminal itself
    /// back in canonical mode with echo (read from its settings).
    fn assert_restored(&self) {
        {
            let parser = self.parser.lock().expect("parser");
            let screen = parser.screen();
            assert!(!screen.alternate_screen(), "still on the alternate screen");
            assert!(!screen.hide_cursor(), "the cursor is still hidden");
            assert_eq!(screen.mouse_protocol_mode(), vt100::MouseProtocolMode::None, "mouse reporting is still on");
            assert!(!screen.bracketed_paste(), "bracketed paste is still on");
        }
        let termios = self.master.get_termios().expect("the terminal's settings");
        let modes = termios.local_flags;
        assert!(
            modes.contains(LocalFlags::ICANON) && modes.contains(LocalFlags::ECHO),
            "raw mode is still on: {modes:?}"
        );
    }
}

fn binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_robotscope"))
}

#[test]
fn switch_robot_test_a_path_and_quit() {
    let mut session = Session::start(&binary(), &[]);
    session.wait_for("Robots");
    session.send("a");
    session.wait_for("Add a robot");
    session.send("Slurp\r");
    session.wait_for("Selected Slurp");
    session.send("/");
    session.send("\x15/infoseek_optimised_directory/x");
    session.wait_for("DISALLOWED  Slurp");

    {
        let parser = session.parser.lock().expect("parser");
        let screen = parser.screen();
        let text = screen.contents();
        assert!(text.contains(
            "✗ DISALLOWED  Slurp · 1996 draft, its default  line 38: Disallow: /infoseek_optimised_directory/"
        ));
        // The deciding line is highlighted in the source pane: find "38▌" and check
        // the background of the rule text after it.
        let (row, col) = screen
            .rows(0, COLS)
            .enumerate()
            .find_map(|(row, line)| {
                // `38`, the diagnostics mark (none here), the group mark, a space.
                let at = line.find("38 ▌ Disallow: /infoseek")?;
                Some((row as u16, line[..at].chars().count() as u16 + 5))
            })
            .unwrap_or_else(|| panic!("line 38 on screen:\n{text}"));
        let cell = screen.cell(row, col).expect("cell");
        assert_eq!(cell.contents(), "D");
        assert_eq!(cell.bgcolor(), vt100::Color::Idx(1), "the deciding line has a red background");
    }

    session.send("\x1b");
    session.send("q");
    assert_eq!(session.wait_exit(), 0);
    session.assert_restored();
}

#[test]
fn escape_sequences_in_the_file_never_reach_the_terminal() {
    let mut file = tempfile::NamedTempFile::new().expect("temp file");
    // OSC 52 would write the clipboard, OSC 0 retitle the window, CSI 2J clear the
    // screen, CSI 6n ask the terminal to answer, ESC c reset it.
    let payload = b"User-agent: *\nDisallow: /\x1b]52;c;cHduZWQ=\x07\nDisallow: /\x1b]0;pwned\x07\x1b[2J\x1b[6n\x1bc\n# \x9b31m comment\n";
    file.write_all(payload).expect("write");
    let mut session = Session::start(&binary(), &[file.path().to_str().expect("utf-8 path")]);
    session.wait_for("Robots");
    session.wait_for("^[]52;c;cHduZWQ=^G");
    session.send("q");
    assert_eq!(session.wait_exit(), 0);
    let raw = session.raw.lock().expect("raw").clone();
    for injected in [&b"\x1b]52;"[..], b"\x1b]0;pwned", b"\x1b[6n", b"\x1bc", b"\xc2\x9b"] {
        assert!(!raw.windows(injected.len()).any(|w| w == injected), "{injected:?} reached the terminal");
    }
    session.assert_restored();
}

#[test]
fn sigterm_restores_the_terminal() {
    let mut session = Session::start(&binary(), &[]);
    session.wait_for("Robots");
    let pid = session.child.process_id().expect("a process id").to_string();
    let killed = std::process::Command::new("kill").args(["-TERM", &pid]).status().expect("kill runs");
    assert!(killed.success());
    assert_eq!(session.wait_exit(), 128 + 15, "a shell's status for a process SIGTERM ended");
    session.assert_restored();
}

#[test]
fn a_panic_in_the_background_restores_the_terminal_and_ends_the_process() {
    let example = binary().parent().expect("target dir").join("examples/panic_in_background");
    // `cargo test` builds the examples, `cargo test --test e2e` alone does not: make sure
    // it exists and is up to date (a no-op when it is), in this test's own profile
    // (`cargo test --profile ci`, as CI runs it, builds everything in that profile).
    let profile = profile::cargo_profile();
    let built = std::process::Command::new(env!("CARGO"))
        .args(["build", "--quiet", "--profile", &profile, "--example", "panic_in_background"])
        .status()
        .expect("cargo runs");
    assert!(built.success() && example.exists(), "building {}", example.display());
    let mut session = Session::start(&example, &[]);
    assert_eq!(session.wait_exit(), 101);
    let text = session.output_text();
    assert!(text.contains("a background task failed"), "the panic is reported: {text}");
    // The unsaved edits (the fix of `Disallow: ~`) went to a recovery file.
    let saved = text
        .split("your unsaved edits were saved to ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .expect("the recovery file is named");
    assert_eq!(std::fs::read(saved).expect("the recovery file"), b"User-agent: *\nDisallow: /~\n");
    let _ = std::fs::remove_file(saved);
    session.assert_restored();
}

/// Without a controlling terminal (a service, `setsid`, a cron job), the explorer cannot
/// read keys: it says so and exits 2, with no panic report, and leaves the terminal as
/// it was (issue 12). Standard output is still the pseudo-terminal here; `setsid` takes
/// the controlling terminal away and standard input is `/dev/null`.
#[test]
fn without_a_controlling_terminal_the_explorer_says_so() {
    let script = format!("setsid -w {} </dev/null; echo \"exit $?\"", binary().display());
    let mut session = Session::start(Path::new("/bin/sh"), &["-c", &script]);
    session.wait_exit();
    let output = session.output_text();
    assert!(output.contains("needs a terminal to read keys from"), "{output}");
    assert!(output.contains("exit 2"), "{output}");
    assert!(!output.contains("panicked"), "{output}");
    session.assert_restored();
}

/// Into a pipe, the explorer would draw escape sequences into it: it refuses.
#[test]
fn into_a_pipe_the_explorer_refuses() {
    let output = std::process::Command::new(binary()).output().expect("runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("standard output is not one"));
}

/// Issue 24: input that arrives in a burst larger than one read (mouse reports while a
/// slow step runs, a paste in a terminal without bracketed paste) is read to its end:
/// the key after it takes effect at once. crossterm's edge-triggered reader left the
/// rest unread until the next key, which read only the next kilobyte, so the explorer
/// looked frozen for good.
#[test]
fn a_burst_of_input_is_read_to_its_end() {
    let mut session = Session::start(&binary(), &[]);
    session.wait_for("Robots");
    // 300 reports of a mouse moving with no button held (SGR), 4 KB in one write, then ?.
    let burst = (0..300).fold(String::new(), |mut burst, i| {
        let _ = std::fmt::Write::write_fmt(&mut burst, format_args!("\x1b[<35;{};{}M", 10 + i % 50, 5 + i % 20));
        burst
    });
    session.send(&format!("{burst}?"));
    session.wait_for("Esc or ? closes");
    session.send("?");
    session.send("q");
    assert_eq!(session.wait_exit(), 0);
    session.assert_restored();
}

/// Issue 24: `F` then `v` on a multi-megabyte file (shaped like www.xuexi.cn's 3.7 MB
/// robots.txt) at 200x60, then the keys that close the view and quit without saving.
#[test]
fn fix_everything_then_changes_on_a_large_file() {
    let mut file = tempfile::NamedTempFile::new().expect("temp file");
    let mut text = String::from("User-agent: *\n");
    let line = |i: usize| format!("Allow: /{i:032x}/{:032x}.html\n", i * 7919);
    text.extend((0..40_000).map(line));
    text.extend((0..4_000).map(line));
    file.write_all(text.as_bytes()).expect("write");
    let mut session = Session::start(&binary(), &[file.path().to_str().expect("utf-8 path")]);
    session.wait_for("Robots");
    session.send("F");
    session.send("v");
    session.wait_for("What the edits changed");
    // The fixes are made in the background; the view follows when they come.
    session.wait_for("Applied 4000 fixes");
    session.send("\x1b");
    session.send("q");
    session.wait_for("Unsaved edits");
    session.send("q");
    assert_eq!(session.wait_exit(), 0);
    session.assert_restored();
}

/// Issue 35: SIGINT and SIGQUIT from another program (in raw mode Ctrl-C is a key) keep
/// the edits as SIGTERM does and restore the terminal; the message that says where the
/// copy went escapes a file name that holds a terminal escape.
#[test]
fn sigint_and_sigquit_keep_the_edits_and_the_message_is_escaped() {
    let dir = tempfile::tempdir().expect("temp dir");
    let name = "r\x1b]0;PWNED\x07.txt";
    std::fs::write(dir.path().join(name), "User-agent: *\nDisallow: ~\n").expect("write");
    for (signal, number) in [("-INT", 2), ("-QUIT", 3)] {
        let mut session = Session::start_in(dir.path(), &binary(), &[name]);
        session.wait_for("Robots");
        session.send(":2\r");
        session.send("f");
        session.wait_for("Fixed");
        let pid = session.child.process_id().expect("a process id").to_string();
        assert!(std::process::Command::new("kill").args([signal, &pid]).status().expect("kill runs").success());
        assert_eq!(session.wait_exit(), 128 + number, "{signal}");
        session.assert_restored();
        let text = session.output_text();
        assert!(text.contains("your unsaved edits were saved to r^[]0;PWNED^G.txt.robotscope-unsaved."), "{text}");
        let raw = session.raw.lock().expect("raw").clone();
        assert!(!raw.windows(9).any(|w| w == b"\x1b]0;PWNED"), "the file name's escape reached the terminal");
    }
    let copies = std::fs::read_dir(dir.path()).expect("dir").filter(|entry| {
        entry.as_ref().is_ok_and(|entry| entry.file_name().to_string_lossy().contains(".robotscope-unsaved."))
    });
    assert_eq!(copies.count(), 2, "one copy per signal");
}

/// Issue 35: a recovery copy in the data directory (where those of a site's or standard
/// input's edits go) is told at the next start whatever is opened, and `o` then Enter
/// opens it.
#[test]
fn a_copy_in_the_data_directory_is_told_at_any_start() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("robots.txt"), "User-agent: *\nDisallow: /theirs\n").expect("write");
    let data = tempfile::tempdir().expect("data dir");
    let recovery = data.path().join("robotscope").join("recovery");
    std::fs::create_dir_all(&recovery).expect("made");
    let copy = recovery.join("stdin.robotscope-unsaved.20261125-101500");
    std::fs::write(&copy, "User-agent: *\nDisallow: /mine\n").expect("write");
    let mut session = Session::start_with_data(dir.path(), &binary(), &["robots.txt"], data.path());
    session.wait_for("Unsaved edits of another input: o then Enter opens the recovery copy");
    session.send("o");
    session.send("\r");
    session.wait_for("Disallow: /mine");
    session.send("q");
    assert_eq!(session.wait_exit(), 0);
    session.assert_restored();
}

/// Issue 24: each SIGTERM with unsaved edits writes a recovery copy of its own (a second
/// one never overwrites the first), says where on the restored screen, and the next
/// start on the file says that copies exist and how to open them: `o`, then Enter,
/// opens the newest (a name with no `.txt`, relative to where the explorer runs, which
/// only the file system can tell from a site's).
#[test]
fn sigterm_twice_keeps_two_recovery_copies() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("robots.txt");
    std::fs::write(&file, "User-agent: *\nDisallow: ~\nDisallow: *\n").expect("write");
    let copies = || -> Vec<PathBuf> {
        let mut found: Vec<PathBuf> = std::fs::read_dir(dir.path())
            .expect("dir")
            .map(|entry| entry.expect("entry").path())
            .filter(|path| path.to_string_lossy().contains("robots.txt.robotscope-unsaved."))
            .collect();
        found.sort();
        found
    };
    let terminate = |session: &mut Session| {
        let pid = session.child.process_id().expect("a process id").to_string();
        assert!(std::process::Command::new("kill").args(["-TERM", &pid]).status().expect("kill runs").success());
        assert_eq!(session.wait_exit(), 128 + 15);
        session.assert_restored();
        assert!(session.output_text().contains("your unsaved edits were saved to"), "{}", session.output_text());
    };
    let start = || Session::start_in(dir.path(), &binary(), &["robots.txt"]);
    let mut first = start();
    first.wait_for("Robots");
    first.send(":2\r");
    first.send("f");
    first.wait_for("Fixed");
    terminate(&mut first);
    assert_eq!(copies().len(), 1);

    let mut second = start();
    second.wait_for("recovery copy");
    second.send(":3\r");
    second.send("f");
    second.wait_for("Fixed");
    terminate(&mut second);
    let found = copies();
    assert_eq!(found.len(), 2, "{found:?}");
    let texts: Vec<String> = found.iter().map(|path| std::fs::read_to_string(path).expect("read")).collect();
    assert!(texts.contains(&"User-agent: *\nDisallow: /~\nDisallow: *\n".to_owned()), "{texts:?}");
    assert!(texts.contains(&"User-agent: *\nDisallow: ~\nDisallow: /\n".to_owned()), "{texts:?}");
    assert_eq!(std::fs::read_to_string(&file).expect("read"), "User-agent: *\nDisallow: ~\nDisallow: *\n", "untouched");

    let mut third = start();
    third.wait_for("o then Enter opens the recovery copy");
    third.send("o");
    third.send("\r");
    // The newest copy: the second session's edit (line 3), not the first's (line 2).
    let deadline = Instant::now() + Duration::from_secs(30);
    while third.screen_text().contains("Disallow: *") && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let screen = third.screen_text();
    assert!(screen.contains("Disallow: ~") && !screen.contains("Disallow: *"), "{screen}");
    third.send("q");
    assert_eq!(third.wait_exit(), 0);
}

/// Issue 35: a FIFO opened with `o` never holds the process: the read is bounded by the
/// timeout, and `q` quits at once (the read's thread is left behind, not waited for).
#[test]
fn opening_a_fifo_never_keeps_the_explorer_from_quitting() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fifo = dir.path().join("fifo");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs").success());
    let mut session = Session::start_in(dir.path(), &binary(), &["--timeout", "30"]);
    session.wait_for("Robots");
    session.send("o");
    session.send("\x15./fifo\r");
    session.wait_for("loading ./fifo");
    session.send("\x1b");
    session.send("q");
    assert_eq!(session.wait_exit(), 0);
    session.assert_restored();
    // Without Esc: quitting while the read waits.
    let mut session = Session::start_in(dir.path(), &binary(), &[]);
    session.wait_for("Robots");
    session.send("o");
    session.send("\x15./fifo\r");
    session.wait_for("loading ./fifo");
    session.send("q");
    assert_eq!(session.wait_exit(), 0);
    // And a FIFO nobody writes to ends its load with a message, not a wait for ever.
    let mut session = Session::start_in(dir.path(), &binary(), &["--timeout", "1"]);
    session.wait_for("Robots");
    session.send("o");
    session.send("\x15./fifo\r");
    session.wait_for("a FIFO that no program writes to?");
    session.send("q");
    assert_eq!(session.wait_exit(), 0);
    // Named on the command line, the FIFO is read in the background too: the explorer
    // opens at once, and q quits while it waits.
    let mut session = Session::start_in(dir.path(), &binary(), &["./fifo"]);
    session.wait_for("loading ./fifo");
    session.send("q");
    assert_eq!(session.wait_exit(), 0);
    session.assert_restored();
}
