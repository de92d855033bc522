//! The library's top-level modules stand in layers, and a module imports only modules of the
//! layers below its own (house rule: "nothing below imports anything above it",
//! `../shared/design/house.md`). The layers are [`ORDER`], written again in `ARCHITECTURE.md`
//! (the block after "layers: checked by"), which this test compares.
//!
//! This reads `src/` as text — independently of the compiler's own name resolution — and
//! collects, for each top-level module (`pub mod x;` in `lib.rs`), the other top-level modules
//! its code names: `crate::x` paths in `use` statements and expressions, `crate::{x, y::z}`
//! groups, `$crate::x` in macros, and crate-root re-exports (`crate::Format` counts as an edge
//! to the module `lib.rs` re-exports it from). Comments, doc comments, string and character
//! literals are skipped, so a doc link is not a dependency. An edge that does not go down a
//! layer fails the test, naming both modules, their layers and the file and line of the edge;
//! so does a module that is in no layer.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Source text with comments and literals replaced by spaces (line breaks kept, so line
/// numbers stay right).
fn code_only(src: &str) -> String {
    let b: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            // Block comments nest in Rust.
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
        } else if (c == 'r' || (c == 'b' && next == Some('r')))
            && !b[..i]
                .last()
                .is_some_and(|p| p.is_alphanumeric() || *p == '_')
            && {
                let j = if c == 'b' { i + 2 } else { i + 1 };
                let hashes = b[j..].iter().take_while(|&&h| h == '#').count();
                b.get(j + hashes) == Some(&'"')
            }
        {
            // Raw string r#"…"#.
            let j = if c == 'b' { i + 2 } else { i + 1 };
            let hashes = b[j..].iter().take_while(|&&h| h == '#').count();
            let body = j + hashes + 1;
            let mut k = body;
            while k < b.len() {
                if b[k] == '"'
                    && b[k + 1..]
                        .iter()
                        .take(hashes)
                        .filter(|&&h| h == '#')
                        .count()
                        == hashes
                {
                    k += 1 + hashes;
                    break;
                }
                k += 1;
            }
            for &ch in &b[i..k.min(b.len())] {
                out.push(blank(ch));
            }
            i = k;
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < b.len() {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
            out.push(' ');
            i += 1;
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{..}') or a lifetime ('a).
            let lit_end = if next == Some('\\') {
                b[i + 2..]
                    .iter()
                    .position(|&ch| ch == '\'')
                    .map(|p| i + 2 + p)
            } else if b.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match lit_end {
                Some(e) => {
                    for _ in i..=e {
                        out.push(' ');
                    }
                    i = e + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Tokens of code-only text: identifiers, `::`, `{`, `}`, `,`, `$`, with their line numbers.
fn tokens(code: &str) -> Vec<(String, usize)> {
    let mut toks = Vec::new();
    let chars: Vec<char> = code.chars().collect();
    let mut line = 1;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            toks.push((chars[start..i].iter().collect(), line));
        } else if c == ':' && chars.get(i + 1) == Some(&':') {
            toks.push(("::".into(), line));
            i += 2;
        } else {
            if !c.is_whitespace() {
                toks.push((c.to_string(), line));
            }
            i += 1;
        }
    }
    toks
}

/// The first path segments named after `crate::` (or `$crate::`), with their lines; a group
/// `crate::{a, b::c}` names `a` and `b`.
fn crate_paths(code: &str) -> Vec<(String, usize)> {
    let toks = tokens(code);
    let mut found = Vec::new();
    for i in 0..toks.len() {
        if toks[i].0 != "crate" || toks.get(i + 1).map(|t| t.0.as_str()) != Some("::") {
            continue;
        }
        // `some_path::crate` cannot occur; `$crate` is a macro's crate root like `crate`.
        match toks.get(i + 2) {
            Some((t, _)) if t == "{" => {
                // Top-level items of the group: identifiers right after `{` or `,` at depth 1.
                let mut depth = 0;
                let mut expect = true;
                for (t, l) in &toks[i + 2..] {
                    match t.as_str() {
                        "{" => {
                            depth += 1;
                            expect = depth == 1;
                        }
                        "}" => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        "," => expect = depth == 1,
                        _ if expect => {
                            found.push((t.clone(), *l));
                            expect = false;
                        }
                        _ => {}
                    }
                }
            }
            Some((t, line)) => found.push((t.clone(), *line)),
            None => {}
        }
    }
    found
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// One dependency: from module, to module, where (file:line).
type Edge = (String, String, String);

/// The top-level modules `lib.rs` declares, the names it re-exports (name → module), and the
/// edges between modules found in `src/`; names after `crate::` that are neither a module, a
/// re-export nor an exported macro come back as unresolved (`file:line name`).
fn module_graph(src: &Path) -> (BTreeSet<String>, Vec<Edge>, Vec<String>) {
    let lib = fs::read_to_string(src.join("lib.rs")).expect("src/lib.rs");
    let lib_code = code_only(&lib);
    let toks = tokens(&lib_code);
    let mut modules = BTreeSet::new();
    let mut reexports: BTreeMap<String, String> = BTreeMap::new();
    for i in 0..toks.len() {
        if toks[i].0 == "mod" && toks.get(i + 2).map(|t| t.0.as_str()) == Some(";") {
            modules.insert(toks[i + 1].0.clone());
        }
    }
    for i in 0..toks.len() {
        if toks[i].0 != "use" {
            continue;
        }
        let Some(first) = toks.get(i + 1).map(|t| t.0.clone()) else {
            continue;
        };
        if !modules.contains(&first) {
            continue;
        }
        // Every identifier up to `;` that is not followed by `::` is a re-exported name
        // (`as x` renames: the alias is what follows `as`).
        let mut j = i + 1;
        while j < toks.len() && toks[j].0 != ";" {
            let t = &toks[j].0;
            let is_ident = t
                .chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_');
            let followed = toks.get(j + 1).map(|t| t.0.as_str());
            if is_ident
                && t != "as"
                && t != "self"
                && followed != Some("::")
                && followed != Some("as")
            {
                reexports.insert(t.clone(), first.clone());
            }
            j += 1;
        }
    }
    let mut files = Vec::new();
    rust_files(src, &mut files);
    // Which module each file belongs to.
    let module_of = |p: &Path| -> Option<String> {
        let rel = p.strip_prefix(src).ok()?;
        let first = rel.components().next()?.as_os_str().to_str()?;
        let name = first.strip_suffix(".rs").unwrap_or(first);
        (name != "lib").then(|| name.to_string())
    };
    let mut macros: BTreeMap<String, String> = BTreeMap::new();
    let mut codes = Vec::new();
    for p in &files {
        let text = fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let code = code_only(&text);
        if let Some(m) = module_of(p) {
            let t = tokens(&code);
            for k in 0..t.len() {
                if t[k].0 == "macro_export"
                    && let Some(pos) = t[k..].iter().position(|x| x.0 == "macro_rules")
                    && let Some(name) = t.get(k + pos + 2)
                {
                    macros.insert(name.0.clone(), m.clone());
                }
            }
        }
        codes.push((p.clone(), code));
    }
    let mut edges = Vec::new();
    let mut unresolved = Vec::new();
    for (p, code) in &codes {
        let Some(from) = module_of(p) else { continue };
        let rel = p
            .strip_prefix(src.parent().unwrap())
            .unwrap()
            .display()
            .to_string();
        for (name, line) in crate_paths(code) {
            let to = if modules.contains(&name) {
                Some(name.clone())
            } else {
                reexports.get(&name).or_else(|| macros.get(&name)).cloned()
            };
            match to {
                Some(to) if to != from => edges.push((from.clone(), to, format!("{rel}:{line}"))),
                Some(_) => {}
                None => unresolved.push(format!("{rel}:{line} crate::{name}")),
            }
        }
    }
    (modules, edges, unresolved)
}

/// The layers, ground floor first. A module may import only modules of the layers below its
/// own — not of its own: `assembler` (the exact reference) and `fetch` (the fast path checked
/// against it) share a layer so that neither can import the other. Names that `lib.rs` does
/// not declare (yet) are places kept for this round's modules: `dxil` if DXIL containers
/// become a module beside `dxbc` rather than part of it, `migoto_mod` (3DMigoto mods) and
/// `frame` (FrameAnalysis folders) between the capture readers and the mesh.
const ORDER: &[&[&str]] = &[
    &["level", "diag", "input"],
    &["format"],
    &["convert", "target", "element"],
    &["dxbc"],
    &["dxil"],
    &["text", "layout"],
    &["validation"],
    &["buffer"],
    &["assembler", "fetch"],
    &["stream", "encode", "lower"],
    &["capture"],
    &["migoto_mod"],
    &["frame"],
    &["mesh"],
];

/// What breaks the order: modules in no layer (or in two), and edges that do not go down.
fn order_violations(order: &[&[&str]], modules: &BTreeSet<String>, edges: &[Edge]) -> Vec<String> {
    let layer_of = |m: &str| order.iter().position(|l| l.contains(&m));
    let mut out = Vec::new();
    for m in modules {
        let n = order.iter().filter(|l| l.contains(&m.as_str())).count();
        if n != 1 {
            out.push(format!(
                "module `{m}` is in {n} layers of ORDER (give it one, here and in ARCHITECTURE.md)"
            ));
        }
    }
    let mut seen = BTreeSet::new();
    for (a, b, at) in edges {
        let (Some(la), Some(lb)) = (layer_of(a), layer_of(b)) else {
            continue;
        };
        if la <= lb && seen.insert((a, b)) {
            let how = if la == lb {
                "its own layer"
            } else {
                "a layer above"
            };
            out.push(format!(
                "{a} (layer {la}) imports {b} (layer {lb}, {how})  ({at})"
            ));
        }
    }
    out
}

/// The layers as `ARCHITECTURE.md` writes them: the fenced block after the line with
/// "layers: checked by", top layer first, one line a layer, module names separated by spaces.
fn documented_layers(architecture: &str) -> Vec<Vec<String>> {
    let mut lines = architecture
        .lines()
        .skip_while(|l| !l.contains("layers: checked by"))
        .skip_while(|l| !l.starts_with("```"))
        .skip(1);
    let mut layers: Vec<Vec<String>> = lines
        .by_ref()
        .take_while(|l| !l.starts_with("```"))
        .map(|l| l.split_whitespace().map(String::from).collect())
        .filter(|l: &Vec<String>| !l.is_empty())
        .collect();
    layers.reverse();
    layers
}

#[test]
fn modules_import_only_the_layers_below_them() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let (modules, edges, unresolved) = module_graph(&src);
    // The scan must see the library: these modules and edges exist in any version of it.
    for m in ["format", "layout", "assembler", "fetch", "validation"] {
        assert!(
            modules.contains(m),
            "lib.rs declares no module `{m}`: {modules:?}"
        );
    }
    assert!(
        edges.iter().any(|(a, b, _)| a == "fetch" && b == "layout"),
        "the scan found no edge fetch -> layout: {edges:?}"
    );
    assert!(
        unresolved.is_empty(),
        "names after `crate::` that are no module, re-export or exported macro \
         (the scan cannot place them):\n{}",
        unresolved.join("\n")
    );
    let found = order_violations(ORDER, &modules, &edges);
    assert!(
        found.is_empty(),
        "the library's modules break the order of layers (house rule: a module imports only \
         modules below it; ORDER in this file, ARCHITECTURE.md):\n{}",
        found.join("\n")
    );
}

#[test]
fn architecture_md_states_the_same_layers() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ARCHITECTURE.md");
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let want: Vec<Vec<String>> = ORDER
        .iter()
        .map(|l| l.iter().map(|m| m.to_string()).collect())
        .collect();
    assert_eq!(
        documented_layers(&text),
        want,
        "ARCHITECTURE.md's layers (the block after \"layers: checked by\", top first) differ \
         from ORDER in this test"
    );
}

// The scanner itself, on snippets whose edges are known by reading them.

#[test]
fn comments_strings_and_chars_are_not_code() {
    let src = "// crate::a\n/// crate::b\n//! crate::c\n/* crate::d /* crate::e */ crate::f */\n\
               let s = \"crate::g\"; let r = r#\"crate::h\"#; let c = '\"'; let l: &'a str;\n\
               use crate::real;\n";
    let found = crate_paths(&code_only(src));
    assert_eq!(found, vec![("real".to_string(), 6)]);
}

#[test]
fn groups_macros_and_paths_are_code() {
    let src = "use crate::{alpha, beta::{x, y}, gamma::z as w};\n\
               fn f() { crate::delta::g(); $crate::eps::h!(); }\n\
               use crate::zeta::{self, q};\n";
    let names: Vec<_> = crate_paths(&code_only(src)).into_iter().collect();
    let want: Vec<(String, usize)> = [
        ("alpha", 1),
        ("beta", 1),
        ("gamma", 1),
        ("delta", 2),
        ("eps", 2),
        ("zeta", 3),
    ]
    .into_iter()
    .map(|(n, l)| (n.to_string(), l))
    .collect();
    assert_eq!(names, want);
}

#[test]
fn edges_up_or_within_a_layer_and_unplaced_modules_are_reported() {
    let modules: BTreeSet<String> = ["a", "b", "c", "d"].into_iter().map(String::from).collect();
    let e = |a: &str, b: &str, at: &str| (a.to_string(), b.to_string(), at.to_string());
    let order: &[&[&str]] = &[&["a"], &["b", "c"], &["planned"]];
    let down = [e("b", "a", "b.rs:1"), e("c", "a", "c.rs:2")];
    assert_eq!(
        order_violations(order, &modules, &down),
        vec!["module `d` is in 0 layers of ORDER (give it one, here and in ARCHITECTURE.md)"]
    );
    let bad = [
        e("a", "b", "a.rs:1"),
        e("b", "c", "b.rs:2"),
        e("b", "c", "b.rs:3"),
    ];
    assert_eq!(
        order_violations(order, &modules, &bad)[1..],
        [
            "a (layer 0) imports b (layer 1, a layer above)  (a.rs:1)".to_string(),
            "b (layer 1) imports c (layer 1, its own layer)  (b.rs:2)".to_string(),
        ]
    );
    let doc = "text\n<!-- layers: checked by x -->\n```text\nb c\n\na\n```\nafter\n";
    assert_eq!(
        documented_layers(doc),
        vec![
            vec!["a".to_string()],
            vec!["b".to_string(), "c".to_string()]
        ]
    );
}
