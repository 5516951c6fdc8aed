//! The crate's public faces, listed in `face.txt` and `parts.txt`, may grow only on
//! purpose.
//!
//! The crate denies itself `pub` items that are not reachable (`unreachable_pub` in
//! lib.rs), so an item written `pub` is exactly an item a program can name. This test
//! reads every source file with `syn` and lists those items (functions, types, constants,
//! re-exports, methods and fields) twice:
//!
//! * `face.txt`, what a crawler sees, built without the `parts` feature: the root's names,
//!   as the crawler writes them (`Matcher::allowed`), with their methods, fields and
//!   variants, but not the methods written in `part! { .. }`;
//! * `parts.txt`, everything the tool sees with `parts`, by the module that defines it (a
//!   private module's items are reached through a `pub use`; the modules `parts!`
//!   declares are public).
//!
//! The diagnostic codes are added to both (the `Code` enum is made by a macro, which
//! `syn` does not expand). A change to either list fails here until the files are written
//! again, on purpose: `ROBOTSCOPE_BLESS=1 cargo test -p robotscope-core --test face`.
//! (`cargo public-api` needs a nightly rustdoc; this needs nothing.) That the face's
//! types can all be named without `parts` is the compiler's `unnameable_types` lint, run
//! by CI on the crate alone.

use std::path::{Path, PathBuf};

use syn::{ImplItem, ImplItemFn, Item, UseTree, Visibility};

/// What `face.txt` says first.
const FACE_HEADER: &str =
    "# robotscope-core's face: what a crawler can name without the `parts` feature (tests/face.rs)";
/// What `parts.txt` says first.
const PARTS_HEADER: &str =
    "# robotscope-core's public items with the `parts` feature, under the module that defines each (tests/face.rs)";

/// The mark of a method written in `part! { .. }`: public with `parts` only.
const PART: &str = " (part)";

/// One line per public item with `parts`: `path kind`, sorted; a method written in
/// `part! { .. }` ends in [`PART`].
fn items() -> Vec<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut items = Vec::new();
    for file in rust_files(&src) {
        let module = module_path(&src, &file);
        let text = std::fs::read_to_string(&file).expect("a source file");
        let syntax = syn::parse_file(&text).unwrap_or_else(|error| panic!("{}: {error}", file.display()));
        list_items(&module, &syntax.items, &mut items);
    }
    for code in robotscope_core::Code::ALL {
        items.push(format!("catalogue::Code::{} code", code.name()));
    }
    items.sort();
    items.dedup();
    items
}

/// The module path of a source file: `lib.rs` is the root, `lint/lines.rs` is `lint::lines`.
fn module_path(src: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(src).expect("under src/").with_extension("");
    let parts: Vec<String> = relative.iter().map(|part| part.to_string_lossy().into_owned()).collect();
    if parts == ["lib"] { String::new() } else { parts.join("::") }
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).expect("a source directory") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            files.push(path);
        }
    }
    files
}

fn is_pub(visibility: &Visibility) -> bool {
    matches!(visibility, Visibility::Public(_))
}

fn join(module: &str, name: &str) -> String {
    if module.is_empty() { name.to_owned() } else { format!("{module}::{name}") }
}

fn list_items(module: &str, items: &[Item], out: &mut Vec<String>) {
    for item in items {
        let (visibility, name, kind) = match item {
            Item::Fn(f) => (&f.vis, f.sig.ident.to_string(), "fn"),
            Item::Const(c) => (&c.vis, c.ident.to_string(), "const"),
            Item::Static(s) => (&s.vis, s.ident.to_string(), "static"),
            Item::Type(t) => (&t.vis, t.ident.to_string(), "type"),
            Item::Trait(t) => (&t.vis, t.ident.to_string(), "trait"),
            Item::Enum(e) => {
                if is_pub(&e.vis) {
                    for variant in &e.variants {
                        out.push(format!("{} variant", join(module, &format!("{}::{}", e.ident, variant.ident))));
                    }
                }
                (&e.vis, e.ident.to_string(), "enum")
            }
            Item::Struct(s) => {
                if is_pub(&s.vis) {
                    for field in s.fields.iter().filter(|field| is_pub(&field.vis)) {
                        let field = field.ident.as_ref().map_or_else(|| "0".to_owned(), ToString::to_string);
                        out.push(format!("{} field", join(module, &format!("{}::{field}", s.ident))));
                    }
                }
                (&s.vis, s.ident.to_string(), "struct")
            }
            Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    // `#[cfg(test)] mod tests { ... }` and other inline modules.
                    let inner_module = join(module, &m.ident.to_string());
                    if is_pub(&m.vis) {
                        list_items(&inner_module, inner, out);
                    }
                }
                (&m.vis, m.ident.to_string(), "mod")
            }
            Item::Macro(m) if m.mac.path.is_ident("parts") => {
                let parts = m
                    .mac
                    .parse_body_with(syn::punctuated::Punctuated::<syn::Ident, syn::Token![,]>::parse_terminated)
                    .expect("parts!(module, ..)");
                for part in parts {
                    out.push(format!("{} mod", join(module, &part.to_string())));
                }
                continue;
            }
            Item::Macro(m) if m.mac.path.is_ident("macro_rules") => {
                macro_items(module, m.mac.tokens.clone(), &mut None, out);
                continue;
            }
            Item::Use(u) => {
                if is_pub(&u.vis) {
                    let mut names = Vec::new();
                    use_names(&u.tree, &mut names);
                    for name in names {
                        out.push(format!("{} use", join(module, &name)));
                    }
                }
                continue;
            }
            Item::Impl(i) if i.trait_.is_none() => {
                let syn::Type::Path(self_type) = &*i.self_ty else { continue };
                let Some(type_name) = self_type.path.segments.last().map(|s| s.ident.to_string()) else { continue };
                for inner in &i.items {
                    match inner {
                        ImplItem::Fn(f) if is_pub(&f.vis) => {
                            out.push(format!("{} fn", join(module, &format!("{type_name}::{}", f.sig.ident))));
                        }
                        ImplItem::Const(c) if is_pub(&c.vis) => {
                            out.push(format!("{} const", join(module, &format!("{type_name}::{}", c.ident))));
                        }
                        ImplItem::Macro(m) if m.mac.path.is_ident("part") => {
                            let f: ImplItemFn = m.mac.parse_body().expect("part! { pub fn .. }");
                            out.push(format!("{} fn{PART}", join(module, &format!("{type_name}::{}", f.sig.ident))));
                        }
                        _ => {}
                    }
                }
                continue;
            }
            _ => continue,
        };
        if is_pub(visibility) {
            out.push(format!("{} {kind}", join(module, &name)));
        }
    }
}

/// The public items a `macro_rules!` writes (the `Code` enum, its constant and methods):
/// a `pub enum` or `pub struct` names the type, and the `pub fn`s and `pub const`s after
/// it are its members. `$`-tokens (`pub fn $($rest)*` in `part!`) name nothing.
fn macro_items(module: &str, tokens: proc_macro2::TokenStream, owner: &mut Option<String>, out: &mut Vec<String>) {
    let tokens: Vec<proc_macro2::TokenTree> = tokens.into_iter().collect();
    for (at, token) in tokens.iter().enumerate() {
        match token {
            proc_macro2::TokenTree::Group(group) => macro_items(module, group.stream(), owner, out),
            proc_macro2::TokenTree::Ident(word) if word == "pub" => {
                let (Some(proc_macro2::TokenTree::Ident(kind)), Some(proc_macro2::TokenTree::Ident(name))) =
                    (tokens.get(at + 1), tokens.get(at + 2))
                else {
                    continue;
                };
                match (kind.to_string().as_str(), owner.as_deref()) {
                    (kind @ ("enum" | "struct"), _) => {
                        out.push(format!("{} {kind}", join(module, &name.to_string())));
                        *owner = Some(name.to_string());
                    }
                    (kind @ ("fn" | "const"), Some(owner)) => {
                        out.push(format!("{} {kind}", join(module, &format!("{owner}::{name}"))));
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
}

/// The names a `pub use` brings in, as they are then called.
fn use_names(tree: &UseTree, out: &mut Vec<String>) {
    match tree {
        UseTree::Path(path) => use_names(&path.tree, out),
        UseTree::Name(name) => out.push(name.ident.to_string()),
        UseTree::Rename(rename) => out.push(rename.rename.to_string()),
        UseTree::Glob(_) => out.push("*".to_owned()),
        UseTree::Group(group) => group.items.iter().for_each(|item| use_names(item, out)),
    }
}

/// What a crawler sees without `parts`: each name the root brings in, as the root
/// calls it, with its fields, variants and methods but those written in `part!`.
fn face(items: &[String]) -> Vec<String> {
    let mut face = Vec::new();
    for name in items.iter().filter_map(|line| line.strip_suffix(" use")).filter(|name| !name.contains("::")) {
        // The item the name stands for: defined once, in some module (not a variant or a
        // method of the same name).
        let defined: Vec<&String> = items
            .iter()
            .filter(|line| !line.ends_with(" use") && !line.ends_with(" mod"))
            .filter(|line| {
                let path = line.split(' ').next().unwrap_or_default();
                path.strip_suffix(name).and_then(|module| module.strip_suffix("::")).is_some_and(|module| {
                    module.split("::").all(|part| part.starts_with(|c: char| c.is_ascii_lowercase()))
                })
            })
            .collect();
        let [definition] = defined[..] else { panic!("the root's {name} is defined {} times", defined.len()) };
        let (path, kind) = definition.split_once(' ').expect("path kind");
        face.push(format!("{name} {kind}"));
        let members = format!("{path}::");
        for line in items.iter().filter(|line| !line.ends_with(PART)) {
            if let Some(member) = line.strip_prefix(&members) {
                face.push(format!("{name}::{member}"));
            }
        }
    }
    face.sort();
    face
}

/// `file` says `now` (or is written so, when blessing); the lines that differ otherwise.
fn compare(file: &str, header: &str, now: &[String]) {
    let listed = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let now = format!("{header}\n{}\n", now.join("\n"));
    if std::env::var_os("ROBOTSCOPE_BLESS").is_some() {
        std::fs::write(&listed, &now).unwrap_or_else(|error| panic!("{file} written: {error}"));
        return;
    }
    let written = std::fs::read_to_string(&listed).unwrap_or_default();
    let written_lines: Vec<&str> = written.lines().collect();
    let now_lines: Vec<&str> = now.lines().collect();
    let added: Vec<&str> = now_lines.iter().filter(|line| !written_lines.contains(line)).copied().collect();
    let removed: Vec<&str> = written_lines.iter().filter(|line| !now_lines.contains(line)).copied().collect();
    assert!(
        added.is_empty() && removed.is_empty(),
        "{file} changed (ROBOTSCOPE_BLESS=1 writes it again, on purpose)\nadded:\n  {}\nremoved:\n  {}",
        added.join("\n  "),
        removed.join("\n  ")
    );
}

#[test]
fn the_crawlers_face_is_the_one_written_down() {
    compare("face.txt", FACE_HEADER, &face(&items()));
}

#[test]
fn the_parts_are_the_ones_written_down() {
    compare("parts.txt", PARTS_HEADER, &items());
}

/// The root holds the twelve names a crawler asks with and the words their answers are
/// made of; everything else is a part.
#[test]
fn the_root_holds_the_dozen_names_and_their_words() {
    let root: Vec<String> =
        items().into_iter().filter(|line| !line.contains("::") && !line.ends_with(" mod")).collect();
    let names = [
        "Availability",
        "Decision",
        "Diagnostic",
        "FixReport",
        "Matcher",
        "Reading",
        "Robot",
        "RobotsTxt",
        "Verdict",
        "explain",
        "fix_all",
        "lint",
    ];
    let words = [
        "Access",
        "Category",
        "Code",
        "Preference",
        "RFC9309_PARSE_LIMIT_BYTES",
        "RequestRate",
        "Severity",
        "Stated",
        "UnknownCode",
        "UnknownReading",
        "Usage",
        "VisitTime",
    ];
    let mut expected: Vec<String> = names.iter().chain(&words).map(|name| format!("{name} use")).collect();
    expected.sort();
    assert_eq!(root, expected);
}

/// What the scan reads, checked on a planted source: a private item, a `pub(crate)`
/// one and a trait's method stay off the list; a public method, field and variant are on
/// it, a `part!` method marked; only the root's names and their members not marked make
/// the crawler's face.
#[test]
fn the_scan_lists_public_items_and_marks_the_parts() {
    let planted: syn::File = syn::parse_quote! {
        pub struct Shown { pub field: u8, hidden: u8 }
        pub(crate) struct Crate;
        struct Private;
        impl Shown {
            pub fn method(&self) {}
            fn helper(&self) {}
            part! {
                /// Only for the tool.
                pub fn tools(&self) {}
            }
        }
        impl Clone for Shown { fn clone(&self) -> Self { todo!() } }
        pub enum Kind { One }
        pub use inner::{Renamed as Alias, Plain};
        parts!(inner, outer);
    };
    let mut out = Vec::new();
    list_items("m", &planted.items, &mut out);
    out.sort();
    assert_eq!(
        out,
        [
            "m::Alias use",
            "m::Kind enum",
            "m::Kind::One variant",
            "m::Plain use",
            "m::Shown struct",
            "m::Shown::field field",
            "m::Shown::method fn",
            "m::Shown::tools fn (part)",
            "m::inner mod",
            "m::outer mod",
        ]
    );
    // The root brings `Shown` in.
    let items: Vec<String> = out.iter().cloned().chain(["Shown use".to_owned()]).collect();
    assert_eq!(face(&items), ["Shown struct", "Shown::field field", "Shown::method fn"]);
}
