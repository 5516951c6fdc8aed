//! The crate's public face, listed in `face.txt`, may grow only on purpose.
//!
//! The crate denies itself `pub` items that are not reachable (`unreachable_pub` in
//! lib.rs), so an item written `pub` is exactly an item a crawler can name. This test
//! reads every source file with `syn`, lists those items (functions, types, constants,
//! re-exports, methods and fields) by the module that defines them (a private module's
//! items are reached through a `pub use`), adds the diagnostic codes (the `Code` enum is
//! made by a macro, which `syn` does not expand), and compares the list with
//! `face.txt`. A change to the face fails here until `face.txt` is written again, on
//! purpose: `ROBOTSCOPE_BLESS=1 cargo test -p robotscope-core --test face`.
//! (`cargo public-api` needs a nightly rustdoc; this needs nothing.)

use std::path::{Path, PathBuf};

use syn::{ImplItem, Item, UseTree, Visibility};

/// What `face.txt` says first.
const HEADER: &str = "# robotscope-core's public items, each under the module that defines it (tests/face.rs)";

/// One line per public item: `path kind`, sorted.
fn face() -> Vec<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut items = Vec::new();
    for file in rust_files(&src) {
        let module = module_path(&src, &file);
        let text = std::fs::read_to_string(&file).expect("a source file");
        let syntax = syn::parse_file(&text).unwrap_or_else(|error| panic!("{}: {error}", file.display()));
        list_items(&module, &syntax.items, &mut items);
    }
    for code in robotscope_core::lint::Code::ALL {
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

#[test]
fn the_public_face_is_the_one_written_down() {
    let listed = Path::new(env!("CARGO_MANIFEST_DIR")).join("face.txt");
    let now = format!("{HEADER}\n{}\n", face().join("\n"));
    if std::env::var_os("ROBOTSCOPE_BLESS").is_some() {
        std::fs::write(&listed, &now).expect("face.txt written");
        return;
    }
    let written = std::fs::read_to_string(&listed).unwrap_or_default();
    let (added, removed): (Vec<&str>, Vec<&str>) = {
        let written_lines: Vec<&str> = written.lines().collect();
        let now_lines: Vec<&str> = now.lines().collect();
        (
            now_lines.iter().filter(|line| !written_lines.contains(line)).copied().collect(),
            written_lines.iter().filter(|line| !now_lines.contains(line)).copied().collect(),
        )
    };
    assert!(
        added.is_empty() && removed.is_empty(),
        "the public face changed (ROBOTSCOPE_BLESS=1 writes face.txt again, on purpose)\nadded:\n  {}\nremoved:\n  {}",
        added.join("\n  "),
        removed.join("\n  ")
    );
}

/// The root face is the dozen names a crawler needs; the rest is in modules.
#[test]
fn the_root_holds_a_dozen_names() {
    let root: Vec<String> = face().into_iter().filter(|line| !line.contains("::") && !line.ends_with(" mod")).collect();
    assert_eq!(
        root,
        [
            "Availability use",
            "Decision use",
            "Diagnostic use",
            "FixReport use",
            "Matcher use",
            "Reading use",
            "Robot use",
            "RobotsTxt use",
            "Verdict use",
            "explain use",
            "fix_all use",
            "lint use",
        ]
    );
}

/// What the scan reads, checked on a planted source: a private item, a `pub(crate)`
/// one and a trait's method stay off the list; a public method, field and variant are on it.
#[test]
fn the_scan_lists_public_items_only() {
    let planted: syn::File = syn::parse_quote! {
        pub struct Shown { pub field: u8, hidden: u8 }
        pub(crate) struct Crate;
        struct Private;
        impl Shown { pub fn method(&self) {} fn helper(&self) {} }
        impl Clone for Shown { fn clone(&self) -> Self { todo!() } }
        pub enum Kind { One }
        pub use inner::{Renamed as Alias, Plain};
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
        ]
    );
}
