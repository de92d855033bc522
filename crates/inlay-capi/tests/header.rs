//! The committed header `include/inlay.h` is exactly what cbindgen generates from this
//! crate's sources: CI fails when a change to the ABI was not regenerated (issue "C ABI").
//! `INLAY_UPDATE_HEADER=1` rewrites the header instead of comparing.

use std::path::Path;

fn generate() -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(dir.join("cbindgen.toml")).expect("cbindgen.toml");
    let bindings = cbindgen::Builder::new()
        .with_config(config)
        .with_src(dir.join("src/lib.rs"))
        .generate()
        .expect("cbindgen generates the header");
    let mut out = Vec::new();
    bindings.write(&mut out);
    String::from_utf8(out).expect("UTF-8 header")
}

#[test]
fn committed_header_equals_a_fresh_generation() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../include/inlay.h");
    let fresh = generate();
    if std::env::var_os("INLAY_UPDATE_HEADER").is_some_and(|v| v == "1") {
        std::fs::write(&path, &fresh).expect("write include/inlay.h");
        eprintln!("rewrote {}", path.display());
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed != fresh {
        let line = committed
            .lines()
            .zip(fresh.lines())
            .position(|(a, b)| a != b)
            .map_or(committed.lines().count().min(fresh.lines().count()), |l| l)
            + 1;
        panic!(
            "include/inlay.h differs from what cbindgen generates (first difference at line {line}); \
             run INLAY_UPDATE_HEADER=1 cargo test --release -p inlay-capi --test header and commit it"
        );
    }
}

/// Every function of the header carries its documentation comment (the doc comments of the
/// Rust sources, copied by cbindgen), and every constant and struct too.
#[test]
fn every_declaration_in_the_header_is_documented() {
    let header = generate();
    let lines: Vec<&str> = header.lines().collect();
    let mut functions = 0;
    for (i, line) in lines.iter().enumerate() {
        let top_level = !line.starts_with([' ', '#', '/', '*', '}']) && !line.is_empty();
        let function = top_level && line.contains("inlay_") && line.contains('(');
        let decl = function
            || line.starts_with("typedef struct")
            || (line.starts_with("#define INLAY_") && !line.starts_with("#define INLAY_H"));
        if !decl {
            continue;
        }
        functions += usize::from(function);
        let previous = lines[..i].iter().rev().find(|l| !l.trim().is_empty());
        assert!(
            previous.is_some_and(|p| p.trim_end().ends_with("*/")),
            "undocumented declaration at line {}: {line}",
            i + 1
        );
    }
    assert!(
        functions >= 17,
        "only {functions} functions found in the header"
    );
}

/// The header's `INLAY_DRAW_*` constants are the library's draw-kind table (`DrawKind`, its C
/// values and spellings): one per row, named `INLAY_` + the kind's spelling in capitals, with
/// the row's value — a row added without its constant, or a constant left behind, fails here.
#[test]
fn draw_kind_constants_are_the_draw_kind_table() {
    use inlay_core::assembler::DRAW_KINDS;
    let header = generate();
    let mut defined: Vec<(String, u32)> = header
        .lines()
        .filter_map(|l| l.strip_prefix("#define INLAY_DRAW"))
        .map(|rest| {
            let (name, value) = rest.split_once(' ').expect("#define NAME VALUE");
            (
                format!("INLAY_DRAW{name}"),
                value.trim().parse().expect("a number"),
            )
        })
        .collect();
    defined.sort();
    let mut table: Vec<(String, u32)> = DRAW_KINDS
        .iter()
        .map(|&k| {
            (
                format!("INLAY_{}", k.info().name.to_ascii_uppercase()),
                k as u32,
            )
        })
        .collect();
    table.sort();
    assert_eq!(defined, table);
}
