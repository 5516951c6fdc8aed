//! The book (docs/src) covers the command line (issue 36): every subcommand and every
//! long flag that `--help` prints appears in it, so that no chapter goes stale against
//! the parser. `robotscope man COMMAND` remains the full flag reference.
// The binary: built with the default `tool` feature only.

use std::collections::BTreeSet;
use std::path::Path;

use assert_cmd::Command;

/// What `robotscope ARGS --help` prints.
fn help(args: &[&str]) -> String {
    let output = Command::cargo_bin("robotscope").expect("binary").args(args).arg("--help").output().expect("runs");
    assert!(output.status.success(), "{args:?} --help");
    String::from_utf8(output.stdout).expect("UTF-8 help")
}

/// The subcommands a help text lists under `Commands:`.
fn commands(help: &str) -> Vec<String> {
    let Some(at) = help.find("Commands:") else { return Vec::new() };
    help[at..]
        .lines()
        .skip(1)
        .take_while(|line| line.starts_with("  ") || line.is_empty())
        // A command's own line; its description may go on, further in.
        .filter(|line| !line.starts_with("   "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

/// The long flags a help text names (`--max-bytes`), `--help` and `--version` aside.
fn flags(help: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for word in help.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')) {
        if let Some(name) = word.strip_prefix("--")
            && !name.is_empty()
            && name.chars().next().is_some_and(|c| c.is_ascii_lowercase())
            && !["help", "version"].contains(&name)
        {
            found.insert(format!("--{name}"));
        }
    }
    found
}

/// Every chapter of the book, as one text.
fn book() -> String {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/src");
    let mut text = String::new();
    for entry in std::fs::read_dir(&src).expect("docs/src") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|ext| ext == "md") {
            text.push_str(&std::fs::read_to_string(&path).expect("a chapter"));
        }
    }
    text
}

#[test]
fn every_subcommand_and_flag_is_in_the_book() {
    let book = book();
    let mut missing = Vec::new();
    let mut pending: Vec<Vec<String>> = vec![Vec::new()];
    let mut seen = 0;
    while let Some(path) = pending.pop() {
        let args: Vec<&str> = path.iter().map(String::as_str).collect();
        let text = help(&args);
        seen += 1;
        if !path.is_empty() && !book.contains(&format!("robotscope {}", path.join(" "))) {
            missing.push(format!("robotscope {}", path.join(" ")));
        }
        for flag in flags(&text) {
            if !book.contains(&flag) {
                missing.push(format!("{flag} (robotscope {})", path.join(" ")));
            }
        }
        for command in commands(&text) {
            let mut deeper = path.clone();
            deeper.push(command);
            pending.push(deeper);
        }
    }
    assert!(seen > 12, "the help lists the commands: {seen} read");
    assert!(missing.is_empty(), "not in the book (docs/src):\n{}", missing.join("\n"));
}
