//! The layers of DESIGN.md §6 hold: lower layers never import higher ones, and the
//! pure layers do no I/O. This scans the source for imports, so the boundaries cannot
//! rot quietly.

use std::fs;
use std::path::{Path, PathBuf};

/// Modules above the policy layer.
const HIGHER_LAYERS: [&str; 8] = [
    "crate::robots_db",
    "crate::fetch",
    "crate::load",
    "crate::clipboard",
    "crate::cli",
    "crate::app",
    "crate::ui",
    "crate::tui",
];

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

/// The tool's source directory.
fn tool_src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The policy core's source directory (robotscope-core, a crate of its own).
fn core_src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("robotscope-core").join("src")
}

/// Every (file, line) under `roots` of the tool that mentions one of `forbidden`
/// outside comments.
fn offences(roots: &[&str], forbidden: &[&str]) -> Vec<String> {
    offences_under(&tool_src(), roots, forbidden)
}

/// Every (file, line) under `roots` of `src` that mentions one of `forbidden` outside
/// comments.
fn offences_under(src: &Path, roots: &[&str], forbidden: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for root in roots {
        let files = rust_files(&src.join(root));
        // A root that was moved or renamed would otherwise pass for having no offences.
        assert!(!files.is_empty(), "src/{root} holds no Rust file: the scan read nothing");
        for file in files {
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

/// The policy core (its crate) and the tool's additions to it (`src/policy`) do no I/O.
#[test]
fn policy_is_pure() {
    let forbidden: Vec<&str> = [
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
    .collect();
    let mut found = offences(&["policy.rs", "policy"], &forbidden);
    found.extend(offences_under(&core_src(), &["."], &forbidden));
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

// --- Imports against an allow-list per layer ------------------------------------------------
//
// The scan above forbids words wherever they appear; this one reads every `use`
// declaration, grouped ones included (`use crate::{fetch, policy::Robot};`), resolves
// `super::` and `self::` against the file's own module, and checks each imported
// module of this crate against what the file's layer may import (DESIGN.md §6).

/// The layers (each a top-level module of the crate) and the modules of the crate each
/// may import, besides itself. The app names the types of the clipboard and of saving
/// (the effects it asks for, the results that come back), never their I/O, which the
/// word scans above forbid it.
const MAY_IMPORT: [(&str, &[&str]); 18] = [
    ("policy", &[]),
    // Counted nouns for the tool's messages.
    ("words", &[]),
    // Robots under readings, side by side: the compare view, the sitemaps audit, the
    // history's flips.
    ("columns", &["policy"]),
    ("robots_db", &["policy"]),
    // Saving checks the file against its stamp from when it was read.
    ("save", &["fetch"]),
    ("clipboard", &["policy"]),
    // Letting go of a FIFO an abandoned reader waits on.
    ("fifo", &[]),
    ("fetch", &["policy", "words", "fifo"]),
    ("sitemaps", &["policy", "fetch", "columns", "words"]),
    ("history", &["policy", "fetch", "columns", "words"]),
    // Access logs judged against versions of a robots.txt: pure, the versions given.
    ("audit", &["policy", "robots_db", "fifo"]),
    // Surveys: captures judged, pure; WARC files read from what it is given.
    ("survey", &["policy", "words"]),
    // Loading a source: the fetch joined to the store.
    ("load", &["policy", "fetch", "history"]),
    // The explorer's audit view runs an audit and shows its report.
    ("app", &["policy", "robots_db", "fetch", "sitemaps", "history", "audit", "clipboard", "save", "columns", "words"]),
    ("ui", &["app", "policy", "robots_db", "fetch", "sitemaps", "history", "audit", "columns", "words"]),
    ("cli", &["policy", "robots_db", "fetch", "load", "sitemaps", "history", "audit", "survey", "columns", "words"]),
    (
        "tui",
        &[
            "app",
            "ui",
            "policy",
            "robots_db",
            "fetch",
            "load",
            "sitemaps",
            "history",
            "audit",
            "clipboard",
            "save",
            "columns",
            "words",
        ],
    ),
    (
        "main",
        &[
            "cli",
            "tui",
            // The recovery copies left by a run that died, listed at the start.
            "save",
            "policy",
            "robots_db",
            "fetch",
            "load",
            "sitemaps",
            "history",
            "app",
            "clipboard",
            "columns",
            "words",
        ],
    ),
];

/// The module path of a source file of the tool: `src/app/compare.rs` is
/// `["app", "compare"]`, `src/lib.rs` is `[]`.
fn module_of(file: &Path) -> Vec<String> {
    module_under(&tool_src(), file)
}

/// The module path of a source file under a crate's `src`.
fn module_under(src: &Path, file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(src).expect("a file under src");
    let mut parts: Vec<String> = relative.iter().map(|part| part.to_string_lossy().into_owned()).collect();
    if let Some(last) = parts.last_mut() {
        *last = last.trim_end_matches(".rs").to_owned();
    }
    if parts.last().is_some_and(|last| last == "lib" || last == "mod") {
        parts.pop();
    }
    parts
}

/// The `use` declarations of a file, each as one string without `use` and `;`, with
/// comments and visibility dropped. A file's unit tests (from `#[cfg(test)]` on, at the
/// end of the file by habit) are not part of its layer.
fn use_declarations(text: &str) -> Vec<String> {
    let text = text.split("#[cfg(test)]\nmod tests").next().unwrap_or_default();
    let code: String =
        text.lines().map(|line| line.split("//").next().unwrap_or_default()).collect::<Vec<_>>().join("\n");
    let mut found = Vec::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find("use ") {
        let before = &rest[..at];
        let starts_statement = before.trim_end().is_empty()
            || before.trim_end().ends_with([';', '{', '}', ')', ']'])
            || before.trim_end().ends_with("pub")
            || before.trim_end().ends_with("(crate)")
            || before.trim_end().ends_with("(super)");
        let after = &rest[at + 4..];
        let Some(end) = after.find(';') else { break };
        if starts_statement && !before.ends_with(|c: char| c.is_alphanumeric() || c == '_') {
            found.push(after[..end].split_whitespace().collect::<Vec<_>>().join(" "));
        }
        rest = &after[end..];
    }
    found
}

/// Expands a `use` tree into full paths: `crate::{a, b::{c, d as e}}` gives
/// `crate::a`, `crate::b::c`, `crate::b::d`.
fn expand(tree: &str) -> Vec<String> {
    // `d as e,` keeps `d,`: the name imported is what matters, not what it is called.
    let mut words = tree.split_whitespace();
    let mut tree = String::new();
    while let Some(word) = words.next() {
        if word == "as" {
            let renamed = words.next().unwrap_or_default();
            tree.push_str(renamed.trim_start_matches(|c: char| c.is_alphanumeric() || c == '_'));
        } else {
            tree.push_str(word);
        }
    }
    let Some(open) = tree.find('{') else {
        return vec![tree.trim_end_matches("::").to_owned()];
    };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.rfind('}').expect("a closing brace")];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (at, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|part| !part.is_empty())
        .flat_map(|part| expand(part).into_iter().map(move |path| format!("{prefix}{path}")))
        .map(|path| path.trim_end_matches("::self").to_owned())
        .collect()
}

/// The paths a file names outside its `use` declarations: `crate::app::view::x()`,
/// `super::fix::check(..)`, `robotscope::policy::Robot` in the code (comments and unit
/// tests left out), each up to its last `::` segment. A module reached this way is
/// imported as surely as by `use`.
fn inline_paths(text: &str) -> Vec<String> {
    let text = text.split("#[cfg(test)]\nmod tests").next().unwrap_or_default();
    let code: String =
        text.lines().map(|line| line.split("//").next().unwrap_or_default()).collect::<Vec<_>>().join("\n");
    let mut found = Vec::new();
    for root in ["crate::", "super::", "robotscope::"] {
        for (at, _) in code.match_indices(root) {
            // A path's start: not the tail of a longer name or path (`self::super::`,
            // `a::crate::` are not), and not inside a `use` tree, read already.
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let path: String =
                code[at..].chars().take_while(|&c| c.is_alphanumeric() || c == '_' || c == ':').collect();
            let path = path.trim_end_matches(':');
            let statement = &code[..at];
            let statement = &statement[statement.rfind([';', '}']).map_or(0, |end| end + 1)..];
            if statement.split_whitespace().any(|word| word == "use") {
                continue;
            }
            found.push(path.to_owned());
        }
    }
    found
}

/// Every path a file names: its `use` declarations expanded, and its inline paths.
fn named_paths(text: &str) -> Vec<String> {
    use_declarations(text).iter().flat_map(|declaration| expand(declaration)).chain(inline_paths(text)).collect()
}

/// The top-level module of this crate a path names, resolved from `module`; `None` for
/// std and other crates.
fn crate_module(path: &str, module: &[String]) -> Option<String> {
    resolved(path, module)?.first().cloned()
}

#[test]
fn the_use_tree_is_read_whole() {
    assert_eq!(
        expand("crate::{fetch, policy::{Robot, evaluate as e}}"),
        ["crate::fetch", "crate::policy::Robot", "crate::policy::evaluate"]
    );
    assert_eq!(
        use_declarations("pub(crate) use super::{\n    a,\n    b, // c\n};\nfn f() { reuse(); }"),
        ["super::{ a, b, }"]
    );
    let compare = vec!["app".to_owned(), "compare".to_owned()];
    assert_eq!(crate_module("super::super::fetch::Source", &compare).as_deref(), Some("fetch"));
    assert_eq!(crate_module("super::Overlay", &compare).as_deref(), Some("app"));
    assert_eq!(crate_module("std::io", &compare), None);
    assert_eq!(
        inline_paths("use crate::a::{b,\n c};\nfn f() { crate::app::view::audit::open(1); super::fix::check(); }"),
        ["crate::app::view::audit::open", "super::fix::check"]
    );
}

#[test]
fn each_layer_imports_only_what_it_may() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut offences = Vec::new();
    let mut checked = 0;
    for file in rust_files(&src) {
        let module = module_of(&file);
        let Some(layer) = module.first().cloned() else { continue }; // lib.rs: only `pub mod`s
        let (_, allowed) = MAY_IMPORT.iter().find(|(name, _)| *name == layer).unwrap_or_else(|| {
            panic!("{}: a module of no known layer ({layer}); add it to MAY_IMPORT", file.display())
        });
        let text = fs::read_to_string(&file).expect("utf-8 source");
        for path in named_paths(&text) {
            checked += 1;
            if let Some(imported) = crate_module(&path, &module)
                && imported != layer
                && !allowed.contains(&imported.as_str())
            {
                offences.push(format!("{}: `{path}`: {layer} may not import {imported}", file.display()));
            }
        }
    }
    assert!(checked > 300, "only {checked} imports found: is the scan broken?");
    assert!(offences.is_empty(), "imports that cross the layers:\n{}", offences.join("\n"));
}

/// The full module path a `use` path names from `module`, segments and all; `None` for
/// std and other crates.
fn resolved(path: &str, module: &[String]) -> Option<Vec<String>> {
    let segments: Vec<&str> = path.split("::").collect();
    let mut base: Vec<String> = module.to_vec();
    let mut rest = segments.as_slice();
    match rest.first().copied() {
        Some("crate" | "robotscope") => {
            base.clear();
            rest = &rest[1..];
        }
        Some("self") => rest = &rest[1..],
        Some("super") => {
            while rest.first() == Some(&"super") {
                base.pop();
                rest = &rest[1..];
            }
        }
        _ => return None,
    }
    base.extend(rest.iter().map(|segment| (*segment).to_owned()));
    Some(base)
}

/// The module a resolved path goes through last, among `names`: what it names is that
/// module's item.
fn module_named(full: &[String], names: &[&Vec<String>]) -> Option<Vec<String>> {
    (1..=full.len()).rev().map(|n| full[..n].to_vec()).find(|module| names.contains(&module))
}

/// The circles among `modules` (each its path and its source): each edge `a -> b`
/// whose `b` reaches `a` again, by `use` or by an inline path. A parent and its own
/// submodules are one module cut in files: their edges are not counted.
fn circles(modules: &[(Vec<String>, String)]) -> (usize, Vec<String>) {
    let names: Vec<&Vec<String>> = modules.iter().map(|(module, _)| module).collect();
    let mut edges: Vec<(Vec<String>, Vec<String>)> = Vec::new();
    for (module, text) in modules {
        for path in named_paths(text) {
            let Some(full) = resolved(&path, module) else { continue };
            let Some(target) = module_named(&full, &names) else { continue };
            let related = target.starts_with(module) || module.starts_with(&target);
            if !related && !edges.contains(&(module.clone(), target.clone())) {
                edges.push((module.clone(), target));
            }
        }
    }
    let reaches = |from: &Vec<String>, to: &Vec<String>| {
        let mut seen = vec![from.clone()];
        let mut stack = vec![from.clone()];
        while let Some(at) = stack.pop() {
            for (a, b) in &edges {
                if *a == at && !seen.contains(b) {
                    if b == to {
                        return true;
                    }
                    seen.push(b.clone());
                    stack.push(b.clone());
                }
            }
        }
        false
    };
    let circles = edges
        .iter()
        .filter(|(a, b)| reaches(b, a))
        .map(|(a, b)| format!("{} -> {}", a.join("::"), b.join("::")))
        .collect();
    (edges.len(), circles)
}

/// Issue 26: no two modules import each other, directly or round a circle (a parent and
/// its own submodules aside: they are one module cut in files). A circle means neither
/// can be read, or moved, without the other. Issue 39: inline paths count, as `use`s do.
#[test]
fn no_import_circle() {
    // The tool's modules, then the core's (a crate of its own, its own module tree).
    for (src, least) in [(tool_src(), 100), (core_src(), 40)] {
        let modules: Vec<(Vec<String>, String)> = rust_files(&src)
            .iter()
            .map(|file| (module_under(&src, file), fs::read_to_string(file).expect("utf-8 source")))
            .collect();
        let (edges, circles) = circles(&modules);
        assert!(edges > least, "{}: only {edges} imports between modules: is the scan broken?", src.display());
        assert!(circles.is_empty(), "{}: imports that close a circle:\n{}", src.display(), circles.join("\n"));
    }
}

/// The circle test finds a circle closed by an inline path, as `use` lines alone did not.
#[test]
fn a_planted_circle_is_found() {
    let module = |path: &[&str], text: &str| (path.iter().map(|part| (*part).to_owned()).collect(), text.to_owned());
    let planted = [
        module(&["policy", "lint"], "use super::fix::Fix;\nfn f() {}\n"),
        module(&["policy", "fix"], "fn g() { let _ = crate::policy::lint::check(); }\n"),
        module(&["policy", "parse"], "use crate::policy::lint;\n"),
    ];
    let (_, found) = circles(&planted);
    assert_eq!(found, ["policy::lint -> policy::fix", "policy::fix -> policy::lint"]);
    // Without the inline path, no circle.
    let (_, found) = circles(&planted[..1]);
    assert!(found.is_empty(), "{found:?}");
}

/// `app`'s modules from the bottom up. A module may name those of its own tier and the
/// tiers below, never one above: the vocabulary does not know the views that speak it.
/// `app.rs` itself is above them all (its children's `super::` items are its own, cut
/// in files, as the circle test reads them).
const APP_TIERS: [&[&str]; 5] = [
    // What every other part is made of: effects, focus, text input, jobs, scrolling,
    // overlays, the status bar, the layout, the file's records.
    &["effect", "focus", "input", "job", "scroll", "overlay", "status", "layout", "records"],
    // The actions, and the document with its editor, robots, tester and search.
    &["action", "prompt", "document", "editor", "robots", "tester", "verdict", "search", "navigation"],
    // What keys and edits do with them.
    &["edits", "keymap"],
    // The views, and the questions about unsaved work, which are views too.
    &["view", "unsaved"],
    // Loading a source, which may ask about unsaved work and reopen the views; the
    // unit tests.
    &["loading", "tests"],
];

/// The arrows inside `app` that run upward (see [`APP_TIERS`]), as `from -> to`. A name
/// `app.rs` re-exports from a child (`pub use view::View`) is that child's: `use
/// super::View` is an arrow to `app::view`.
fn upward_arrows(modules: &[(Vec<String>, String)]) -> Vec<String> {
    let tier = |module: &[String]| {
        let child = module.get(1)?;
        APP_TIERS.iter().position(|tier| tier.contains(&child.as_str()))
    };
    let reexported: Vec<(String, String)> = modules
        .iter()
        .filter(|(module, _)| *module == ["app"])
        .flat_map(|(_, text)| use_declarations(text))
        .flat_map(|declaration| expand(&declaration))
        .filter_map(|path| {
            let (child, rest) = path.split_once("::")?;
            let name = rest.rsplit("::").next()?;
            APP_TIERS.iter().any(|tier| tier.contains(&child)).then(|| (name.to_owned(), child.to_owned()))
        })
        .collect();
    let names: Vec<&Vec<String>> = modules.iter().map(|(module, _)| module).collect();
    let mut arrows = Vec::new();
    for (module, text) in modules.iter().filter(|(module, _)| module.len() > 1 && module[0] == "app") {
        let from = tier(module).unwrap_or_else(|| panic!("app::{}: in no tier; add it to APP_TIERS", module[1]));
        for path in named_paths(text) {
            let Some(full) = resolved(&path, module) else { continue };
            let Some(mut target) = module_named(&full, &names) else { continue };
            if target == ["app"]
                && let Some((_, child)) = full.get(1).and_then(|name| reexported.iter().find(|(n, _)| n == name))
            {
                target = vec!["app".to_owned(), child.clone()];
            }
            let arrow = format!("{} -> {}", module.join("::"), target.join("::"));
            if target.len() > 1 && target[0] == "app" && tier(&target) > Some(from) && !arrows.contains(&arrow) {
                arrows.push(arrow);
            }
        }
    }
    arrows
}

/// Issue 39: no arrow inside `app` runs upward (`action.rs` named the audit view's
/// types; they are the audit's, in `audit.rs`).
#[test]
fn no_arrow_runs_upward_inside_app() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let modules: Vec<(Vec<String>, String)> = rust_files(&src)
        .iter()
        .map(|file| (module_of(file), fs::read_to_string(file).expect("utf-8 source")))
        .collect();
    assert!(modules.iter().filter(|(module, _)| module.first().is_some_and(|m| m == "app")).count() > 30);
    let arrows = upward_arrows(&modules);
    assert!(arrows.is_empty(), "arrows that run upward inside app:\n{}", arrows.join("\n"));
}

/// The tier test finds an upward arrow named by an inline path.
#[test]
fn a_planted_upward_arrow_is_found() {
    let module = |path: &[&str], text: &str| (path.iter().map(|part| (*part).to_owned()).collect(), text.to_owned());
    let planted = [
        module(&["app", "action"], "enum Action { Done(crate::app::view::audit::Audited) }\n"),
        module(&["app", "view"], "use super::action::Action;\n"),
        module(&["app", "view", "audit"], "pub struct Audited;\n"),
    ];
    assert_eq!(upward_arrows(&planted), ["app::action -> app::view::audit"]);
    // Through `app.rs`'s re-export.
    let planted = [
        module(&["app"], "pub use view::{Layer, View};\n"),
        module(&["app", "effect"], "use super::View;\n"),
        module(&["app", "view"], "pub enum View {}\n"),
    ];
    assert_eq!(upward_arrows(&planted), ["app::effect -> app::view"]);
}

/// Where a view is named: the files outside its own two (`app/view/NAME.rs` and
/// `ui/NAME.rs`) that name its state, its `View` variant or its `Overlay` kind.
fn view_footprint(name: &str) -> Vec<String> {
    let src = tool_src();
    let lower = name.to_lowercase();
    let own = [src.join("app/view").join(format!("{lower}.rs")), src.join("ui").join(format!("{lower}.rs"))];
    let words = [format!("View::{name}"), format!("Overlay::{name}"), format!("{name}View")];
    let mut files: Vec<String> = rust_files(&src)
        .into_iter()
        .filter(|file| !own.contains(file))
        .filter(|file| {
            let text = fs::read_to_string(file).expect("utf-8 source");
            words
                .iter()
                .any(|word| text.lines().any(|line| mentions(line.split("//").next().unwrap_or_default(), word)))
        })
        .map(|file| file.strip_prefix(&src).expect("under src").display().to_string())
        .collect();
    files.sort();
    files
}

/// Issue 39: adding a view touches its own files (`app/view/NAME.rs`, its state and
/// update; `ui/NAME.rs`, its widget and its `Drawn`), the view enum (`app/view.rs`,
/// with its kind in `app/overlay.rs`) and the keymap context (`app/keymap.rs`), as
/// ARCHITECTURE.md's recipe says: no view reaches further. (The compare view, whose
/// columns are robots, is also named where a robot is added, `app/robots.rs`: a robot
/// added there is compared.)
#[test]
fn a_view_is_named_only_where_the_recipe_says() {
    let recipe = ["app/keymap.rs", "app/overlay.rs", "app/view.rs"];
    let mut counts = Vec::new();
    for (name, also) in [
        ("Compare", &["app/robots.rs"][..]),
        ("Page", &[][..]),
        ("Sitemaps", &[][..]),
        ("History", &[][..]),
        ("Audit", &[][..]),
        ("Policy", &[][..]),
    ] {
        let footprint = view_footprint(name);
        let beyond: Vec<&String> = footprint
            .iter()
            .filter(|file| !recipe.contains(&file.as_str()) && !also.contains(&file.as_str()))
            .collect();
        assert!(beyond.is_empty(), "the {name} view is named beyond the recipe: {beyond:?}");
        counts.push((name, footprint.len() + 2));
    }
    // The scan reads what it should: each view is named in the view enum and the keymap
    // at least (the kind's own file names it bare, `Compare,`, so it is not counted).
    assert!(counts.iter().all(|(_, files)| (4..=5).contains(files)), "files per view: {counts:?}");
}
