//! Layout sources in the forms real projects write them (issue 17): C++ with macros and
//! scopes, C#, Rust, UTF-16 files, D3D12 arrays; and targets that do not exist.

mod common;

use common::{inlay, inlay_in, scratch, snapshot};

#[test]
fn csharp_layout_is_checked() {
    let r = inlay(&["check", "instanced.cs"]);
    assert_eq!(r.code, 0, "{}", r.transcript);
    snapshot("check-csharp", &r.transcript);
}

#[test]
fn rust_d3d12_layout_says_which_rules_apply() {
    let r = inlay(&["check", "pipeline.rs"]);
    assert_eq!(r.code, 0, "{}", r.transcript);
    snapshot("check-rust-d3d12", &r.transcript);
    let r = inlay(&["check", "pipeline.rs", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert!(
        v["note"]
            .as_str()
            .is_some_and(|n| n.contains("checked under D3D11's CreateInputLayout rules")),
        "{}",
        r.stdout
    );
    assert_eq!(v["array"], "input_element_descs");
}

#[test]
fn unknown_macro_is_named_with_its_position() {
    let r = inlay(&["check", "macros.h"]);
    assert_eq!(r.code, 2);
    snapshot("check-unknown-macro", &r.transcript);
    let r = inlay(&["check", "macros.h", "--array", "kMesh"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("macros.h:16:"), "{}", r.stderr);
}

#[test]
fn utf16_source_reads_like_utf8() {
    let dir = scratch("utf16");
    let text = std::fs::read_to_string(common::data_dir().join("seed.h")).unwrap();
    let mut bytes = vec![0xFF, 0xFE];
    bytes.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    std::fs::write(dir.join("seed16.h"), &bytes).unwrap();
    std::fs::write(dir.join("seed.h"), &text).unwrap();
    let a = inlay_in(&dir, &["check", "seed16.h", "--json"]);
    let b = inlay_in(&dir, &["check", "seed.h", "--json"]);
    assert_eq!(a.code, 0, "{}", a.transcript);
    assert_eq!(a.stdout.replace("seed16.h", "seed.h"), b.stdout);
}

#[test]
fn target_pairs_that_do_not_exist_are_refused() {
    let r = inlay(&[
        "check",
        "seed.h",
        "--api",
        "d3d10",
        "--feature-level",
        "11_0",
    ]);
    assert_eq!(r.code, 2);
    snapshot("check-no-such-target", &r.transcript);
    let r = inlay(&["check", "seed.h", "--api", "d3d10.1", "--json"]);
    assert_eq!(r.code, 0, "{}", r.transcript);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["feature_level"], "10_1");
}
