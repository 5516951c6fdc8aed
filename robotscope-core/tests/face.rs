//! The crate's public faces, listed in `face.txt` and `parts.txt`, may change only on
//! purpose.
//!
//! This test reads every source file with `syn` and lists the public items it finds,
//! wherever they are written (inline modules and function bodies included; test code
//! left out): functions and methods with their signatures and qualifiers, types (and
//! whether they are `non_exhaustive`), fields and variants with their types, constants,
//! re-exports, the traits each type implements (with the impl's generics and associated
//! types) or derives, and the modules `parts!` declares. It lists them twice:
//!
//! * `face.txt`, what a crawler sees, built without the `parts` feature: the root's
//!   names, as the crawler writes them (`Matcher::allowed`), each with its members and
//!   traits, wherever they are written, but not the methods written in `part! { .. }` or
//!   under `#[cfg(feature = "parts")]`; and the traits implemented for types not the
//!   crate's own that name a face type (`impl From<Decision> for bool`);
//! * `parts.txt`, every public item with `parts`, under the module that writes it (a
//!   private module's items are reached through a `pub use`; with `parts` the crate
//!   denies itself `pub` items that are not reachable, `unreachable_pub`).
//!
//! The diagnostic codes are added to both, each variant with its name (the `Code` enum
//! is made by a macro, which `syn` does not expand). What the scan cannot place fails
//! the test until it is taught to: a macro other than the three it reads (defined, or
//! used where an item goes, or used in a function body), an exported macro, an
//! attribute under `cfg_attr` (on an item or a method), a `cfg` on `parts` written
//! other than `cfg(feature = "parts")` or its `not`, a public item only a crawler's
//! build has (`cfg(not(feature = "parts"))`), a public `extern crate`, an impl through
//! a type alias or for a type it cannot name. That the face's types are `Send` and
//! `Sync` is a test that compiles only if they are. A change
//! to either list fails until the files are written again, on purpose:
//! `ROBOTSCOPE_BLESS=1 cargo test -p robotscope-core --test face`. (`cargo public-api`
//! needs a nightly rustdoc; this needs nothing.) That the face's types can all be named
//! without `parts` is the compiler's `unnameable_types` lint, run by CI on the crate
//! alone.

use std::path::{Path, PathBuf};

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::visit::Visit;
use syn::{ImplItem, ImplItemFn, Item, UseTree, Visibility};

/// What `face.txt` says first.
const FACE_HEADER: &str =
    "# robotscope-core's face: what a crawler can name without the `parts` feature (tests/face.rs)";
/// What `parts.txt` says first.
const PARTS_HEADER: &str =
    "# robotscope-core's public items with the `parts` feature, under the module that writes each (tests/face.rs)";

/// The macros the crate may define, each read here, and the module whose top level
/// defines each: the catalogue (its `Code` is listed from `Code::ALL` and the tokens of
/// its definition), `part!` and `parts!` (read where they are used). Any other
/// `macro_rules!`, one of these defined elsewhere, any other macro used where an item
/// goes and any of these used in a function body fails the test until it is read here
/// too.
const KNOWN_MACROS: [(&str, &str); 3] = [("catalogue", "catalogue"), ("part", ""), ("parts", "")];

/// What a public item compiled only without `parts` is: the face test reads the crate
/// with the feature, so it would miss it.
const CRAWLER_ONLY: &str =
    "public only in a crawler's build (cfg(not(feature = \"parts\"))), which this test does not list";

/// Kinds of item that a root name can stand for.
const DEFINITIONS: [&str; 7] = ["struct", "enum", "fn", "const", "static", "type", "trait"];

/// One public item.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Entry {
    /// The module that writes it (`""` for the root, `lint::lines`).
    module: String,
    /// The type a method, field, variant, trait impl or derive belongs to.
    owner: Option<String>,
    /// Its name; for a trait impl or derive, the trait.
    name: String,
    /// `fn`, `struct`, `variant`, `field`, `impl`, `derive`, `use`, `mod`, ...
    kind: &'static str,
    /// Its signature or type, tidied (empty when it has none).
    detail: String,
    /// Public with the `parts` feature only (`part!`, `parts!`).
    part: bool,
}

impl Entry {
    fn new(module: &str, owner: Option<&str>, name: impl Into<String>, kind: &'static str) -> Entry {
        Entry {
            module: module.to_owned(),
            owner: owner.map(str::to_owned),
            name: name.into(),
            kind,
            detail: String::new(),
            part: false,
        }
    }

    fn detail(mut self, detail: String) -> Entry {
        self.detail = detail;
        self
    }

    /// `name kind detail`, with `name` as given.
    fn line(&self, name: &str) -> String {
        format!("{name} {}{}", self.kind, self.tail(&self.detail))
    }

    /// The line of an entry that belongs to `owner` (named as the reader names it):
    /// `Owner::method fn ..`, or `Owner impl Trait (..)` for a trait.
    fn line_for(&self, owner: &str) -> String {
        if matches!(self.kind, "impl" | "derive") {
            let detail = if self.detail.is_empty() { String::new() } else { format!("({})", self.detail) };
            format!("{owner} {} {}{}", self.kind, self.name, self.tail(&detail))
        } else {
            self.line(&format!("{owner}::{}", self.name))
        }
    }

    /// What ends a line: the detail as given, and the mark of a part.
    fn tail(&self, detail: &str) -> String {
        let detail = if detail.is_empty() { String::new() } else { format!(" {detail}") };
        let part = if self.part { " (part)" } else { "" };
        format!("{detail}{part}")
    }

    /// The line in `parts.txt`: the path by the module that writes it.
    fn parts_line(&self) -> String {
        match &self.owner {
            Some(owner) => self.line_for(&join(&self.module, owner)),
            None => self.line(&join(&self.module, &self.name)),
        }
    }
}

/// What the scan found: the entries, and what it cannot list.
#[derive(Debug, Default)]
struct Scan {
    entries: Vec<Entry>,
    faults: Vec<String>,
    /// Every type the crate defines, public or not (struct, enum, union, alias, trait),
    /// so that a face type's name is known to be its own.
    types: Vec<String>,
    /// The type aliases among them: an `impl` through one is not followed.
    aliases: Vec<String>,
}

/// The crate's source, scanned.
fn scan_crate() -> Scan {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut scan = Scan::default();
    for file in rust_files(&src) {
        let text = std::fs::read_to_string(&file).expect("a source file");
        let syntax = syn::parse_file(&text).unwrap_or_else(|error| panic!("{}: {error}", file.display()));
        scan.file(&module_path(&src, &file), &syntax);
    }
    for code in robotscope_core::Code::ALL {
        scan.entries.push(
            Entry::new("catalogue", Some("Code"), format!("{code:?}"), "variant")
                .detail(format!("\"{}\"", code.name())),
        );
    }
    scan.finish();
    scan
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

/// Tokens as one line, without the spaces `to_string` puts around punctuation.
fn tidy(tokens: &impl ToTokens) -> String {
    let mut text = tokens.to_token_stream().to_string();
    for (from, to) in [
        (" :: ", "::"),
        (" : ", ": "),
        (" ,", ","),
        ("& ", "&"),
        (" < ", "<"),
        ("< ", "<"),
        (" >", ">"),
        ("( ", "("),
        (" )", ")"),
        ("[ ", "["),
        (" ]", "]"),
        (" ;", ";"),
        ("' ", "'"),
        ("- >", "->"),
    ] {
        text = text.replace(from, to);
    }
    text
}

/// A function's signature: generics, arguments, result and where-clause.
fn signature(sig: &syn::Signature) -> String {
    let mut text = String::new();
    for (given, word) in
        [(sig.constness.is_some(), "const "), (sig.asyncness.is_some(), "async "), (sig.unsafety.is_some(), "unsafe ")]
    {
        if given {
            text.push_str(word);
        }
    }
    if let Some(abi) = &sig.abi {
        text.push_str(&tidy(abi));
        text.push(' ');
    }
    text.push_str(&tidy(&sig.generics));
    text.push('(');
    text.push_str(&tidy(&sig.inputs));
    text.push(')');
    if let syn::ReturnType::Type(_, result) = &sig.output {
        text.push_str(" -> ");
        text.push_str(&tidy(result));
    }
    if let Some(clause) = &sig.generics.where_clause {
        text.push(' ');
        text.push_str(&tidy(clause));
    }
    text
}

/// The traits a `#[derive(..)]` names.
fn derives(attributes: &[syn::Attribute]) -> Vec<String> {
    let mut traits = Vec::new();
    for attribute in attributes.iter().filter(|attribute| attribute.path().is_ident("derive")) {
        let _ = attribute.parse_nested_meta(|meta| {
            traits.push(meta.path.segments.last().map(|segment| segment.ident.to_string()).unwrap_or_default());
            Ok(())
        });
    }
    traits
}

/// A type's name as an impl writes it (`Request<'a>` and `&'a Usage` are `Request` and
/// `Usage`).
fn type_name(ty: &syn::Type) -> Option<String> {
    match ty {
        syn::Type::Path(path) => path.path.segments.last().map(|segment| segment.ident.to_string()),
        syn::Type::Reference(reference) => type_name(&reference.elem),
        syn::Type::Paren(inner) => type_name(&inner.elem),
        _ => None,
    }
}

/// What an item's attributes make of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Gate {
    /// Always compiled.
    Always,
    /// Compiled only for tests (`#[cfg(test)]`): not the crate's face.
    Test,
    /// Compiled only with the `parts` feature (`#[cfg(feature = "parts")]`).
    Parts,
    /// Compiled only without it: the face test reads the code with the feature.
    NotParts,
    /// Under an attribute this test does not read: a `cfg_attr`, or a `cfg` that names
    /// the feature otherwise (`cfg(all(feature = "parts"))`).
    Unread,
}

/// What the fault for [`Gate::Unread`] says.
const UNREAD: &str =
    "an attribute under cfg_attr, or a cfg on `parts` written otherwise, which this test does not read";

fn gate(attributes: &[syn::Attribute]) -> Gate {
    for attribute in attributes {
        if attribute.path().is_ident("cfg_attr") {
            return Gate::Unread;
        }
        if !attribute.path().is_ident("cfg") {
            continue;
        }
        let condition = tidy(&attribute.meta).replace(' ', "");
        match condition.as_str() {
            "cfg(test)" => return Gate::Test,
            "cfg(feature=\"parts\")" => return Gate::Parts,
            "cfg(not(feature=\"parts\"))" => return Gate::NotParts,
            other if other.contains("parts") => return Gate::Unread,
            _ => {}
        }
    }
    Gate::Always
}

/// Whether a type says that it may grow (`#[non_exhaustive]`).
fn non_exhaustive(attributes: &[syn::Attribute]) -> &'static str {
    if attributes.iter().any(|attribute| attribute.path().is_ident("non_exhaustive")) {
        " (non_exhaustive)"
    } else {
        ""
    }
}

/// An item's attributes.
fn attributes(item: &Item) -> &[syn::Attribute] {
    match item {
        Item::Const(i) => &i.attrs,
        Item::Enum(i) => &i.attrs,
        Item::ExternCrate(i) => &i.attrs,
        Item::Fn(i) => &i.attrs,
        Item::ForeignMod(i) => &i.attrs,
        Item::Impl(i) => &i.attrs,
        Item::Macro(i) => &i.attrs,
        Item::Mod(i) => &i.attrs,
        Item::Static(i) => &i.attrs,
        Item::Struct(i) => &i.attrs,
        Item::Trait(i) => &i.attrs,
        Item::TraitAlias(i) => &i.attrs,
        Item::Type(i) => &i.attrs,
        Item::Union(i) => &i.attrs,
        Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

impl Scan {
    /// Once every file is read: the entries in order, and the impls through a type
    /// alias (which belong to the type the alias names, which the scan does not follow)
    /// as faults.
    fn finish(&mut self) {
        let through_aliases: Vec<String> = self
            .entries
            .iter()
            .filter_map(|entry| entry.owner.as_ref().filter(|owner| self.aliases.contains(owner)))
            .map(|alias| format!("{alias}: an impl through a type alias, which this test does not follow"))
            .collect();
        self.faults.extend(through_aliases);
        self.entries.sort();
        self.entries.dedup();
    }

    fn file(&mut self, module: &str, syntax: &syn::File) {
        let mut visitor = Visitor { scan: self, modules: vec![module.to_owned()], depth: 0 };
        visitor.visit_file(syntax);
    }

    fn fault(&mut self, module: &str, what: &str) {
        self.faults.push(format!("{}: {what}", if module.is_empty() { "lib.rs" } else { module }));
    }

    fn derived(&mut self, module: &str, owner: &str, attributes: &[syn::Attribute]) {
        for derived in derives(attributes) {
            self.entries.push(Entry::new(module, Some(owner), derived, "derive"));
        }
    }

    /// One item; `nested` when it is inside a function or an impl rather than at the
    /// top of its module.
    fn item(&mut self, module: &str, item: &Item, nested: bool) {
        match item {
            Item::Struct(syn::ItemStruct { ident, .. })
            | Item::Enum(syn::ItemEnum { ident, .. })
            | Item::Union(syn::ItemUnion { ident, .. })
            | Item::Trait(syn::ItemTrait { ident, .. }) => self.types.push(ident.to_string()),
            Item::Type(alias) => {
                self.types.push(alias.ident.to_string());
                self.aliases.push(alias.ident.to_string());
            }
            _ => {}
        }
        match item {
            Item::Fn(f) if is_pub(&f.vis) => {
                self.entries.push(Entry::new(module, None, f.sig.ident.to_string(), "fn").detail(signature(&f.sig)));
            }
            Item::Const(c) if is_pub(&c.vis) => {
                self.entries.push(Entry::new(module, None, c.ident.to_string(), "const").detail(tidy(&c.ty)));
            }
            Item::Static(s) if is_pub(&s.vis) => {
                self.entries.push(Entry::new(module, None, s.ident.to_string(), "static").detail(tidy(&s.ty)));
            }
            Item::Type(t) if is_pub(&t.vis) => {
                self.entries.push(Entry::new(module, None, t.ident.to_string(), "type").detail(tidy(&t.ty)));
            }
            Item::Trait(t) if is_pub(&t.vis) => {
                self.entries.push(Entry::new(module, None, t.ident.to_string(), "trait"));
            }
            Item::Enum(e) if is_pub(&e.vis) => {
                let owner = e.ident.to_string();
                let detail = format!("{}{}", tidy(&e.generics), non_exhaustive(&e.attrs)).trim().to_owned();
                self.entries.push(Entry::new(module, None, &owner, "enum").detail(detail));
                for variant in &e.variants {
                    let entry = Entry::new(module, Some(&owner), variant.ident.to_string(), "variant");
                    self.entries.push(entry.detail(tidy(&variant.fields)));
                }
                self.derived(module, &owner, &e.attrs);
            }
            Item::Struct(s) if is_pub(&s.vis) => {
                let owner = s.ident.to_string();
                let detail = format!("{}{}", tidy(&s.generics), non_exhaustive(&s.attrs)).trim().to_owned();
                self.entries.push(Entry::new(module, None, &owner, "struct").detail(detail));
                for (at, field) in s.fields.iter().enumerate().filter(|(_, field)| is_pub(&field.vis)) {
                    let name = field.ident.as_ref().map_or_else(|| at.to_string(), ToString::to_string);
                    self.entries.push(Entry::new(module, Some(&owner), name, "field").detail(tidy(&field.ty)));
                }
                self.derived(module, &owner, &s.attrs);
            }
            Item::Union(u) if is_pub(&u.vis) => self.fault(module, &format!("a public union, {}", u.ident)),
            Item::ExternCrate(e) if is_pub(&e.vis) => {
                self.fault(module, &format!("a public extern crate, {}", e.ident));
            }
            Item::Mod(m) if is_pub(&m.vis) => {
                self.entries.push(Entry::new(module, None, m.ident.to_string(), "mod"));
            }
            Item::Use(u) if is_pub(&u.vis) => {
                let mut names = Vec::new();
                use_names(&u.tree, &mut names);
                for name in names {
                    self.entries.push(Entry::new(module, None, name, "use"));
                }
            }
            Item::Impl(i) => self.implementation(module, i),
            Item::Macro(m) => self.macro_item(module, m, nested),
            _ => {}
        }
    }

    /// An `impl` block: a trait's name, or the public methods and constants, each under
    /// the type's name.
    fn implementation(&mut self, module: &str, block: &syn::ItemImpl) {
        let Some(owner) = type_name(&block.self_ty) else {
            self.fault(module, &format!("an impl for {}, a type this test cannot name", tidy(&block.self_ty)));
            return;
        };
        if let Some((negative, path, _)) = &block.trait_ {
            // The trait as its last segment names it (`Display`, `From<&str>`), so that an
            // import does not change the list; the impl's generics, bounds and associated
            // types after it.
            let name = path.segments.last().map(tidy).unwrap_or_default();
            let mut detail = Vec::new();
            if negative.is_some() {
                detail.push("negative".to_owned());
            }
            if !block.generics.params.is_empty() {
                detail.push(format!("impl{}", tidy(&block.generics)));
            }
            if let Some(clause) = &block.generics.where_clause {
                detail.push(tidy(clause));
            }
            for inner in &block.items {
                if let ImplItem::Type(associated) = inner {
                    detail.push(format!("type {} = {}", associated.ident, tidy(&associated.ty)));
                }
            }
            self.entries.push(Entry::new(module, Some(&owner), name, "impl").detail(detail.join(", ")));
            return;
        }
        for inner in &block.items {
            match inner {
                ImplItem::Fn(f) if is_pub(&f.vis) => match gate(&f.attrs) {
                    Gate::Test => {}
                    Gate::NotParts => self.fault(module, &format!("{owner}::{}: {CRAWLER_ONLY}", f.sig.ident)),
                    Gate::Unread => self.fault(module, &format!("{owner}::{}: {UNREAD}", f.sig.ident)),
                    gated => {
                        let mut entry = Entry::new(module, Some(&owner), f.sig.ident.to_string(), "fn");
                        entry.detail = signature(&f.sig);
                        entry.part = gated == Gate::Parts;
                        self.entries.push(entry);
                    }
                },
                ImplItem::Const(c) if is_pub(&c.vis) => {
                    let entry = Entry::new(module, Some(&owner), c.ident.to_string(), "const");
                    self.entries.push(entry.detail(tidy(&c.ty)));
                }
                ImplItem::Macro(m) if m.mac.path.is_ident("part") => match m.mac.parse_body::<ImplItemFn>() {
                    Ok(f) => {
                        let mut entry = Entry::new(module, Some(&owner), f.sig.ident.to_string(), "fn");
                        entry.detail = signature(&f.sig);
                        entry.part = true;
                        self.entries.push(entry);
                    }
                    Err(error) => {
                        self.fault(module, &format!("part! {{ .. }} in impl {owner} is not one pub fn: {error}"));
                    }
                },
                ImplItem::Macro(m) => {
                    self.fault(
                        module,
                        &format!("impl {owner} holds a macro, {}!, whose items are not listed", tidy(&m.mac.path)),
                    );
                }
                _ => {}
            }
        }
    }

    /// `parts!(..)` declares modules; `macro_rules!` may write public items only if
    /// this test knows how to list them.
    fn macro_item(&mut self, module: &str, item: &syn::ItemMacro, nested: bool) {
        if item.attrs.iter().any(|attribute| attribute.path().is_ident("macro_export")) {
            self.fault(module, &format!("an exported macro, {}", tidy(&item.ident)));
        }
        if item.mac.path.is_ident("parts") {
            match item.mac.parse_body_with(syn::punctuated::Punctuated::<syn::Ident, syn::Token![,]>::parse_terminated)
            {
                Ok(parts) => {
                    for part in parts {
                        let mut entry = Entry::new(module, None, part.to_string(), "mod");
                        entry.part = true;
                        self.entries.push(entry);
                    }
                }
                Err(error) => self.fault(module, &format!("parts!(..) is not a list of modules: {error}")),
            }
        } else if item.mac.path.is_ident("macro_rules") {
            let name = item.ident.as_ref().map(ToString::to_string).unwrap_or_default();
            if nested || !KNOWN_MACROS.contains(&(name.as_str(), module)) {
                self.fault(module, &format!("macro_rules! {name}, whose items this test does not list"));
            } else if name == "catalogue" {
                // The one type it writes, and whether it may grow.
                let marks =
                    if item.mac.tokens.to_string().contains("non_exhaustive") { " (non_exhaustive)" } else { "" };
                self.catalogue(module, item.mac.tokens.clone(), marks);
            }
        } else if !item.mac.path.is_ident("catalogue") {
            self.fault(module, &format!("{}!, whose items this test does not list", tidy(&item.mac.path)));
        }
    }

    /// The `Code` enum and its members, from the tokens of `catalogue!`'s definition
    /// (its variants come from `Code::ALL`): the `pub enum` names the type, its derive
    /// list and the `pub fn`s (with their signatures) and `pub const`s (with their types)
    /// after it are its.
    fn catalogue(&mut self, module: &str, tokens: TokenStream, marks: &str) {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        for (at, token) in tokens.iter().enumerate() {
            match (token, tokens.get(at + 1), tokens.get(at + 2)) {
                (TokenTree::Group(group), _, _) => self.catalogue(module, group.stream(), marks),
                (TokenTree::Ident(word), Some(TokenTree::Ident(kind)), Some(TokenTree::Ident(name)))
                    if word == "pub" =>
                {
                    // What follows the name, up to the body (`fn`) or the value (`const`).
                    let rest: TokenStream = tokens[at + 3..]
                        .iter()
                        .take_while(|token| match token {
                            TokenTree::Group(group) => group.delimiter() != proc_macro2::Delimiter::Brace,
                            TokenTree::Punct(punct) => punct.as_char() != '=',
                            _ => true,
                        })
                        .cloned()
                        .collect();
                    match kind.to_string().as_str() {
                        "enum" => {
                            self.types.push(name.to_string());
                            let entry = Entry::new(module, None, name.to_string(), "enum");
                            self.entries.push(entry.detail(marks.trim_start().to_owned()));
                        }
                        "fn" => {
                            let entry = Entry::new(module, Some("Code"), name.to_string(), "fn");
                            self.entries.push(entry.detail(tidy(&rest)));
                        }
                        "const" => {
                            let ty = tidy(&rest);
                            let entry = Entry::new(module, Some("Code"), name.to_string(), "const");
                            self.entries.push(entry.detail(ty.trim_start_matches(':').trim().to_owned()));
                        }
                        other => {
                            self.fault(
                                module,
                                &format!("catalogue! writes pub {other} {name}, which this test does not read"),
                            );
                        }
                    }
                }
                (TokenTree::Ident(word), Some(TokenTree::Ident(kind)), _) if word == "pub" => {
                    self.fault(module, &format!("catalogue! writes pub {kind} .., which this test does not read"));
                }
                (TokenTree::Ident(word), Some(next), _) if word == "impl" && next.to_string() != "Code" => {
                    self.fault(module, &format!("catalogue! writes impl {next} .., which this test does not read"));
                }
                (TokenTree::Ident(word), Some(TokenTree::Group(list)), _) if word == "derive" => {
                    for derived in list.stream().into_iter().filter(|token| matches!(token, TokenTree::Ident(_))) {
                        self.entries.push(Entry::new(module, Some("Code"), derived.to_string(), "derive"));
                    }
                }
                _ => {}
            }
        }
    }
}

/// Walks a file's items, inline modules and function bodies, keeping the module path
/// and whether an item is at its module's top level.
struct Visitor<'s> {
    scan: &'s mut Scan,
    modules: Vec<String>,
    /// How many functions and impls the walk is inside.
    depth: usize,
}

impl<'ast> Visit<'ast> for Visitor<'_> {
    /// The crate's own macros write items: used as a statement or an expression, what
    /// they write is not read.
    fn visit_stmt_macro(&mut self, statement: &'ast syn::StmtMacro) {
        self.crate_macro_in_a_body(&statement.mac);
    }

    fn visit_expr_macro(&mut self, expression: &'ast syn::ExprMacro) {
        self.crate_macro_in_a_body(&expression.mac);
    }

    fn visit_item(&mut self, item: &'ast Item) {
        let module = self.modules.last().cloned().unwrap_or_default();
        let gated = gate(attributes(item));
        // Test code is not the crate's face.
        if gated == Gate::Test {
            return;
        }
        if gated == Gate::Unread {
            self.scan.fault(&module, UNREAD);
            return;
        }
        // This test reads the crate with `parts`: what a crawler's build alone has is
        // not read, so it must not be public.
        if gated == Gate::NotParts {
            let mut alone = Scan::default();
            alone.item(&module, item, self.depth > 0);
            if !alone.entries.is_empty() {
                self.scan.fault(&module, CRAWLER_ONLY);
            }
            return;
        }
        let first = self.scan.entries.len();
        self.scan.item(&module, item, self.depth > 0);
        if let Item::Mod(m) = item
            && m.content.is_some()
        {
            self.modules.push(join(&module, &m.ident.to_string()));
            let depth = std::mem::replace(&mut self.depth, 0);
            syn::visit::visit_item(self, item);
            self.depth = depth;
            self.modules.pop();
        } else {
            self.depth += 1;
            syn::visit::visit_item(self, item);
            self.depth -= 1;
        }
        if gated == Gate::Parts {
            for entry in &mut self.scan.entries[first..] {
                entry.part = true;
            }
        }
    }
}

impl Visitor<'_> {
    fn crate_macro_in_a_body(&mut self, mac: &syn::Macro) {
        if KNOWN_MACROS.iter().any(|(name, _)| mac.path.is_ident(name)) {
            let module = self.modules.last().cloned().unwrap_or_default();
            let what = format!("{}! in a function body, whose items this test does not list", tidy(&mac.path));
            self.scan.fault(&module, &what);
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
/// calls it, with what belongs to it (methods, fields, variants, traits) wherever it is
/// written, but the methods that are parts; and the traits the crate implements for
/// types not its own that name a face type (`impl From<Decision> for bool`). A type on
/// the face must be the only type of its name in the crate, so that what belongs to it
/// is known by its name.
fn face(scan: &Scan) -> Vec<String> {
    let entries = &scan.entries;
    let names: Vec<&String> = entries
        .iter()
        .filter(|entry| entry.module.is_empty() && entry.kind == "use")
        .map(|entry| &entry.name)
        .collect();
    let mut face = Vec::new();
    for &name in &names {
        let defined: Vec<&Entry> = entries
            .iter()
            .filter(|entry| entry.owner.is_none() && &entry.name == name && DEFINITIONS.contains(&entry.kind))
            .collect();
        let [definition] = defined[..] else { panic!("the root's {name} is defined {} times", defined.len()) };
        let types_so_named = scan.types.iter().filter(|defined| *defined == name).count();
        assert!(
            definition.kind == "fn" || definition.kind == "const" || types_so_named == 1,
            "{types_so_named} types are called {name}: what belongs to the root's cannot be told by its name"
        );
        face.push(definition.line(name));
        for member in entries.iter().filter(|entry| entry.owner.as_ref() == Some(name) && !entry.part) {
            face.push(member.line_for(name));
        }
    }
    let names_a_face_type = |text: &str| {
        text.split(|c: char| !c.is_alphanumeric() && c != '_').any(|word| names.iter().any(|name| *name == word))
    };
    for entry in entries.iter().filter(|entry| entry.kind == "impl" && !entry.part) {
        let Some(owner) = &entry.owner else { continue };
        if !scan.types.contains(owner) && (names_a_face_type(&entry.name) || names_a_face_type(&entry.detail)) {
            face.push(entry.line_for(owner));
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
fn the_scan_lists_everything_public() {
    let scan = scan_crate();
    assert!(scan.faults.is_empty(), "public items the scan cannot list:\n  {}", scan.faults.join("\n  "));
}

#[test]
fn the_crawlers_face_is_the_one_written_down() {
    compare("face.txt", FACE_HEADER, &face(&scan_crate()));
}

#[test]
fn the_parts_are_the_ones_written_down() {
    let lines: Vec<String> = scan_crate().entries.iter().map(Entry::parts_line).collect();
    compare("parts.txt", PARTS_HEADER, &lines);
}

/// The root holds the twelve names a crawler asks with, the words their answers are
/// made of and the two checks of a robot's name; its modules are all parts. Everything
/// else is a part.
#[test]
fn the_root_holds_the_dozen_names_and_their_words() {
    let entries = scan_crate().entries;
    let root: Vec<&Entry> = entries.iter().filter(|entry| entry.module.is_empty() && entry.owner.is_none()).collect();
    let modules_not_parts: Vec<&str> =
        root.iter().filter(|entry| entry.kind == "mod" && !entry.part).map(|entry| entry.name.as_str()).collect();
    assert!(modules_not_parts.is_empty(), "public modules outside parts!: {modules_not_parts:?}");
    let names: Vec<&str> = root.iter().filter(|entry| entry.kind != "mod").map(|entry| entry.name.as_str()).collect();
    let mut expected = vec![
        // What a crawler asks with.
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
        // The words of the answers, and the checks of a robot's name.
        "Access",
        "Category",
        "Code",
        "Preference",
        "RFC9309_PARSE_LIMIT_BYTES",
        "RequestRate",
        "Severity",
        "Stated",
        "UnknownCategory",
        "UnknownCode",
        "UnknownReading",
        "UrlMode",
        "Usage",
        "VisitTime",
        "is_valid_token",
        "suggest_token",
    ];
    expected.sort_unstable();
    assert_eq!(names, expected);
}

/// A planted source, scanned, on which the three tests below check what the scan reads.
fn planted() -> Scan {
    let planted: syn::File = syn::parse_quote! {
        pub use m::{Kind, Shown};
        #[derive(Clone, thiserror::Error)]
        pub struct Shown { pub field: u8, hidden: u8 }
        pub(crate) struct Crate;
        struct Private;
        impl Shown {
            pub unsafe fn method(&self, n: u8) -> u8 { n }
            fn helper(&self) {}
            part! {
                /// Only for the tool.
                pub fn tools(&self) {}
            }
            #[cfg(feature = "parts")]
            pub fn gated(&self) {}
            #[cfg(test)]
            pub fn for_tests(&self) {}
        }
        impl Shown {
            #[cfg_attr(not(feature = "parts"), cfg(any()))]
            pub fn unread(&self) {}
        }
        impl std::fmt::Display for Shown { fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { Ok(()) } }
        impl<'a> IntoIterator for &'a Shown { type Item = u8; type IntoIter = std::iter::Empty<u8>; fn into_iter(self) -> Self::IntoIter { todo!() } }
        impl<T: AsRef<str>> From<T> for Shown { fn from(_: T) -> Shown { todo!() } }
        impl From<Shown> for bool { fn from(_: Shown) -> bool { true } }
        #[cfg(test)]
        impl Shown { pub fn test_only(&self) {} }
        mod hidden { impl super::Shown { pub fn from_inline(&self) {} } }
        fn body() { impl Shown { pub fn from_body(&self) {} } }
        #[non_exhaustive]
        pub enum Kind { One(u16) }
        pub mod open { pub fn inside() {} }
        parts!(inner, outer);
        macro_rules! writer { ($v:vis $n:ident) => { impl Shown { $v fn $n(&self) {} } }; }
        #[macro_export]
        macro_rules! exported { () => {}; }
        thread_local! {}
        #[cfg_attr(feature = "x", derive(Hash))]
        pub struct Maybe;
        #[cfg(not(feature = "parts"))]
        pub fn crawler_only() {}
        pub extern crate url;
        fn sneaky() { part!(pub hidden); }
        type Alias = Shown;
        impl Alias { pub fn through(&self) {} }
        impl [u8] { }
    };
    let mut scan = Scan::default();
    scan.file("", &planted);
    scan.finish();
    scan
}

/// Private, `pub(crate)` and test items stay off the list; a public method (with its
/// qualifiers), field, variant, trait impl (with its generics and associated types) and
/// derive are on it, wherever they are written; `part!` and `#[cfg(feature = "parts")]`
/// items are marked.
#[test]
fn the_scan_lists_public_items_and_marks_the_parts() {
    let parts: Vec<String> = planted().entries.iter().map(Entry::parts_line).collect();
    assert_eq!(
        parts,
        [
            "Kind enum (non_exhaustive)",
            "Kind use",
            "Shown struct",
            "Shown use",
            "inner mod (part)",
            "open mod",
            "outer mod (part)",
            "Alias::through fn (&self)",
            "Kind::One variant (u16)",
            "Shown derive Clone",
            "Shown impl Display",
            "Shown derive Error",
            "Shown impl From<T> (impl<T: AsRef<str>>)",
            "Shown impl IntoIterator (impl<'a>, type Item = u8, type IntoIter = std::iter::Empty<u8>)",
            "Shown::field field u8",
            "Shown::from_body fn (&self)",
            "Shown::gated fn (&self) (part)",
            "Shown::method fn unsafe (&self, n: u8) -> u8",
            "Shown::tools fn (&self) (part)",
            "bool impl From<Shown>",
            "hidden::Shown::from_inline fn (&self)",
            "open::inside fn ()",
        ]
    );
}

/// A macro this test does not read, an exported macro, an attribute under `cfg_attr`
/// (on an item or a method), a public item only a crawler's build has, a public extern
/// crate, an impl through an alias or for a type it cannot name is a fault.
#[test]
fn the_scan_fails_on_what_it_cannot_place() {
    assert_eq!(
        planted().faults,
        [
            "lib.rs: Shown::unread: an attribute under cfg_attr, or a cfg on `parts` written otherwise, which this test does not read",
            "lib.rs: macro_rules! writer, whose items this test does not list",
            "lib.rs: an exported macro, exported",
            "lib.rs: macro_rules! exported, whose items this test does not list",
            "lib.rs: thread_local!, whose items this test does not list",
            "lib.rs: an attribute under cfg_attr, or a cfg on `parts` written otherwise, which this test does not read",
            "lib.rs: public only in a crawler's build (cfg(not(feature = \"parts\"))), which this test does not list",
            "lib.rs: a public extern crate, url",
            "lib.rs: part! in a function body, whose items this test does not list",
            "lib.rs: an impl for [u8], a type this test cannot name",
            "Alias: an impl through a type alias, which this test does not follow",
        ]
    );
}

/// Only the root's names, what belongs to them unmarked, and impls for other types that
/// name them make the crawler's face.
#[test]
fn the_face_of_a_planted_source_is_the_roots_names() {
    assert_eq!(
        face(&planted()),
        [
            "Kind enum (non_exhaustive)",
            "Kind::One variant (u16)",
            "Shown derive Clone",
            "Shown derive Error",
            "Shown impl Display",
            "Shown impl From<T> (impl<T: AsRef<str>>)",
            "Shown impl IntoIterator (impl<'a>, type Item = u8, type IntoIter = std::iter::Empty<u8>)",
            "Shown struct",
            "Shown::field field u8",
            "Shown::from_body fn (&self)",
            "Shown::from_inline fn (&self)",
            "Shown::method fn unsafe (&self, n: u8) -> u8",
            "bool impl From<Shown>",
        ]
    );
}

/// The face's types can be shared by a crawler's threads: a field that is not `Send`
/// or `Sync` fails to compile here.
#[test]
fn the_faces_types_are_send_and_sync() {
    fn shared<T: Send + Sync>() {}
    shared::<robotscope_core::RobotsTxt>();
    shared::<robotscope_core::Matcher>();
    shared::<robotscope_core::Decision>();
    shared::<robotscope_core::Verdict>();
    shared::<robotscope_core::Diagnostic>();
    shared::<robotscope_core::FixReport>();
    shared::<robotscope_core::Robot>();
    shared::<robotscope_core::Availability>();
    shared::<robotscope_core::Reading>();
    shared::<robotscope_core::Usage>();
    shared::<robotscope_core::Code>();
    shared::<robotscope_core::Access>();
    shared::<robotscope_core::Category>();
    shared::<robotscope_core::Preference>();
    shared::<robotscope_core::Stated>();
    shared::<robotscope_core::RequestRate>();
    shared::<robotscope_core::VisitTime>();
    shared::<robotscope_core::Severity>();
    shared::<robotscope_core::UrlMode>();
    shared::<robotscope_core::UnknownReading>();
    shared::<robotscope_core::UnknownCode>();
    shared::<robotscope_core::UnknownCategory>();
}
