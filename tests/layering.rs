//! The layers of DESIGN.md §6 hold: lower layers never import higher ones, and the
//! pure layers do no I/O. This scans the source for imports, so the boundaries cannot
//! rot quietly.

use std::fs;
use std::path::{Path, PathBuf};

/// Modules above the policy layer.
const HIGHER_LAYERS: [&str; 7] =
    ["crate::robots_db", "crate::fetch", "crate::clipboard", "crate::cli", "crate::app", "crate::ui", "crate::tui"];

fn rust_files(under: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    if under.is_file() {
        files.push(under.to_path_buf());
    } else if under.is_dir() {
        for entry in fs::read_dir(under).expect("readable source directory") {
            files.extend(rust_files(&entry.expect("entry").path()));
        }
    }
    files.retain(|path| path.extension().is_some_and(|ext| ext == "rs"));
    files
}

/// True when `code` holds `word` not followed by an identifier character
/// (`crate::cli` is not `crate::clipboard`).
fn mentions(code: &str, word: &str) -> bool {
    code.match_indices(word)
        .any(|(at, _)| !code[at + word.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_'))
}

/// Every (file, line) under `roots` that mentions one of `forbidden` outside comments.
fn offences(roots: &[&str], forbidden: &[&str]) -> Vec<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    for root in roots {
        for file in rust_files(&src.join(root)) {
            let text = fs::read_to_string(&file).expect("utf-8 source");
            for (number, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or_default();
                for word in forbidden {
                    if mentions(code, word) {
                        found.push(format!("{}:{}: {word}", file.display(), number + 1));
                    }
                }
            }
        }
    }
    found
}

#[test]
fn policy_is_pure() {
    let found = offences(
        &["policy.rs", "policy"],
        &[
            "tokio",
            "reqwest",
            "ratatui",
            "crossterm",
            "std::fs",
            "std::net",
            "std::io",
            "std::process",
            // Durations are values (a Crawl-delay); clocks are I/O.
            "Instant",
            "SystemTime",
            "std::thread",
        ]
        .into_iter()
        .chain(HIGHER_LAYERS)
        .collect::<Vec<_>>(),
    );
    assert!(found.is_empty(), "the policy layer must stay pure:\n{}", found.join("\n"));
}

#[test]
fn robot_profiles_import_only_policy() {
    let found = offences(
        &["robots_db.rs"],
        &["tokio", "reqwest", "ratatui", "crossterm", "std::fs", "std::net", "crate::cli", "crate::fetch"],
    );
    assert!(found.is_empty(), "robots_db may import only the policy layer:\n{}", found.join("\n"));
}

#[test]
fn app_does_no_io_and_knows_no_terminal() {
    let found = offences(
        &["app.rs", "app"],
        &[
            "tokio",
            "reqwest",
            "std::fs",
            "std::net",
            "std::io",
            "std::process",
            "crossterm::terminal",
            "crossterm::execute",
            "crossterm::cursor",
            "EventStream",
            "crate::tui",
            "crate::ui",
            "crate::cli",
        ],
    );
    assert!(found.is_empty(), "the app layer must stay free of I/O and terminal control:\n{}", found.join("\n"));
}

#[test]
fn ui_only_draws() {
    let found = offences(
        &["ui.rs", "ui"],
        &[
            "tokio",
            "reqwest",
            "std::fs",
            "std::net",
            "std::io",
            "crossterm",
            "crate::tui",
            "crate::cli",
            "&mut App",
            ".update(",
        ],
    );
    assert!(found.is_empty(), "the ui layer only draws the app's state:\n{}", found.join("\n"));
}
