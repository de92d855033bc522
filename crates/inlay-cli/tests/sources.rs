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
        v["note"].as_str().is_some_and(|n| n.contains(
            "checked under d3d11's CreateInputLayout rules; \
                 --api d3d12 checks it as CreateGraphicsPipelineState does"
        )),
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

/// Issue 35 item 3: every subcommand that takes a layout reads it from every source a layout
/// comes in — C, JSON, an importer's `.fmt`, a 3DMigoto vb text dump, and standard input
/// holding any of them — and gives the same answer for the same elements. A file no reader
/// accepts is refused with each reader tried.
#[test]
fn every_layout_source_works_for_every_layout_command() {
    let ex = common::examples_copy("layout-sources");
    let block = |i: usize, name: &str, offset: &str| {
        format!(
            "element[{i}]:\n  SemanticName: {name}\n  SemanticIndex: 0\n  Format: \
             R32G32B32_FLOAT\n  InputSlot: 0\n  AlignedByteOffset: {offset}\n  InputSlotClass: \
             per-vertex\n  InstanceDataStepRate: 0\n"
        )
    };
    let elements = format!("{}{}", block(0, "POSITION", "0"), block(1, "COLOR", "12"));
    let fmt =
        format!("stride: 24\ntopology: trianglelist\nformat: DXGI_FORMAT_R16_UINT\n{elements}");
    let dump = format!(
        "stride: 24\nfirst vertex: 0\nvertex count: 4\ntopology: trianglelist\n{elements}\nvertex-data:\n\n"
    );
    std::fs::write(ex.join("seed.fmt"), &fmt).unwrap();
    std::fs::write(ex.join("seed-vb0=00000000.txt"), &dump).unwrap();
    // (name on the command line, standard input, how `describe` names it)
    let sources: [(&str, &[u8], &str); 6] = [
        (
            "layout.h",
            b"",
            "layout.h (array vertexDesc, 2 elements, C)",
        ),
        ("layout.json", b"", "layout.json (2 elements, JSON)"),
        ("seed.fmt", b"", "seed.fmt (2 elements, .fmt)"),
        (
            "seed-vb0=00000000.txt",
            b"",
            "seed-vb0=00000000.txt (2 elements, 3DMigoto vb dump)",
        ),
        ("-", fmt.as_bytes(), "- (2 elements, .fmt)"),
        ("-", dump.as_bytes(), "- (2 elements, 3DMigoto vb dump)"),
    ];
    let glb = common::inlay_stdin(
        &ex,
        &["export", "layout.h", "--vb", "0=mesh.vb", "--output", "-"],
        b"",
    )
    .stdout;
    std::fs::write(ex.join("quad.glb"), &glb).unwrap();
    let commands: &[&[&str]] = &[
        &["check", "@", "--shader", "vs.dxbc"],
        &["map", "@"],
        &["decode", "@", "--vb", "0=mesh.vb", "--format", "csv"],
        &["encode", "@", "--input", "verts.csv", "--out", "0=-"],
        &[
            "repack",
            "@",
            "packed.h",
            "--vb",
            "0=mesh.vb",
            "--out",
            "0=-",
        ],
        &[
            "repack",
            "packed.h",
            "@",
            "--vb",
            "0=enc-packed.vb",
            "--out",
            "0=-",
        ],
        &["lower", "@", "--target", "vulkan"],
        &[
            "export",
            "@",
            "--vb",
            "0=mesh.vb",
            "--ib",
            "mesh.ib,format=R16_UINT",
            "--topology",
            "triangle_list",
            "--format",
            "ply",
            "--output",
            "-",
        ],
        &["import", "quad.glb", "--layout", "@", "--output-dir", "-"],
    ];
    let packed = common::inlay_stdin(
        &ex,
        &[
            "repack",
            "float.h",
            "packed.h",
            "--vb",
            "0=mesh.vb",
            "--out",
            "0=-",
        ],
        b"",
    );
    std::fs::write(ex.join("enc-packed.vb"), &packed.stdout).unwrap();
    for command in commands {
        let mut first: Option<(String, String)> = None;
        for (n, (name, stdin, described)) in sources.iter().enumerate() {
            let mut args: Vec<String> = command.iter().map(|a| a.replace('@', name)).collect();
            if args[0] == "import" {
                // import writes files: a folder per source, compared below.
                args[5] = format!("import-{n}");
            }
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let r = common::inlay_stdin(&ex, &args, stdin);
            assert_eq!(r.code, 0, "inlay {}: {}", args.join(" "), r.stderr);
            let mut got = String::from_utf8_lossy(&r.stdout).replace(described, "LAYOUT");
            if args[0] == "import" {
                let dir = ex.join(format!("import-{n}"));
                let mut files: Vec<_> = std::fs::read_dir(&dir)
                    .unwrap()
                    .map(|e| e.unwrap().path())
                    .collect();
                files.sort();
                got = files
                    .iter()
                    .map(|f| format!("{:?}", std::fs::read(f).unwrap()))
                    .collect::<Vec<_>>()
                    .join("\n");
                assert!(!files.is_empty());
            }
            match &first {
                None => first = Some((got, args.join(" "))),
                Some((want, from)) => assert!(
                    *want == got,
                    "`inlay {}` differs from `inlay {from}`:\n{got}\n---\n{want}",
                    args.join(" ")
                ),
            }
        }
    }
    // No reader accepts it: each one tried is named, with its error.
    let r = common::inlay_stdin(&ex, &["decode", "-", "--vb", "0=mesh.vb"], b"garbage\n");
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("no layout reader accepts it; tried, in order:\n  C: ")
            && r.stderr.contains("\n  .fmt: ")
            && r.stderr.contains("\n  3DMigoto vb dump: "),
        "{}",
        r.stderr
    );
    // By extension, one reader, named.
    std::fs::write(ex.join("bad.fmt"), "stride: 24\n").unwrap();
    let r = common::inlay_stdin(&ex, &["check", "bad.fmt"], b"");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("(read as .fmt)"), "{}", r.stderr);
    let _ = std::fs::remove_dir_all(ex.parent().unwrap());
}
