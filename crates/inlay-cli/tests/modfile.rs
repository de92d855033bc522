//! The README's mod path through the real binary, on the shipped example mod
//! (`examples/mod/Box.ini`): inspect (`inlay mod`, text and JSON), export (glTF, OBJ, PLY, every
//! state), edit (the exported glTF's positions moved), write back (`inlay import --mod`), and
//! the refusals: an output that would overwrite the mod, a bad `--set`; and the formats a
//! `hash.json` beside the mod gives through its dump.

mod common;

#[path = "../../inlay/testenv/test_side.rs"]
mod testenv;

use std::path::{Path, PathBuf};

use common::{inlay_in, scratch};
use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn example_dir() -> PathBuf {
    root().join("examples/mod")
}

/// A copy of the example mod (`Box.ini` and its `Meshes/`) in `d`, to edit.
fn copy_example(d: &Path) {
    std::fs::create_dir_all(d.join("Meshes")).unwrap();
    std::fs::copy(example_dir().join("Box.ini"), d.join("Box.ini")).unwrap();
    for f in [
        "Box.ib",
        "BoxBlend.buf",
        "BoxPosition.buf",
        "BoxTexcoord.buf",
    ] {
        std::fs::copy(
            example_dir().join("Meshes").join(f),
            d.join("Meshes").join(f),
        )
        .unwrap();
    }
}

/// Every file of a folder, relative, sorted.
fn files(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(
                    p.strip_prefix(dir)
                        .unwrap()
                        .to_string_lossy()
                        .replace('\\', "/"),
                );
            }
        }
    }
    out.sort();
    out
}

#[test]
fn inspect_text_and_json() {
    let r = inlay_in(&root(), &["mod", "examples/mod/Box.ini"]);
    assert_eq!(r.code, 0, "{}", r.transcript);
    assert_eq!(r.stderr, "");
    for line in [
        "examples/mod/Box.ini: 2 parts drawn, 1 component(s), 1 INI file(s)",
        "profile: GIMI",
        "component Box: 8 vertices",
        "  vb0   ResourceBoxPosition (Meshes\\BoxPosition.buf) stride 40  Position (8 records)",
        "        POSITION0 R32G32B32_FLOAT +0, NORMAL0 R32G32B32_FLOAT +12, TANGENT0 R32G32B32A32_FLOAT +24",
        "  TextureOverrideBoxSides (examples/mod/Box.ini:44)",
        "    indices 12..36 (24) of ResourceBoxIB (Meshes\\Box.ib) R16_UINT",
        "    condition: $sides == 0",
        "  [KeySides] (examples/mod/Box.ini:7) key VK_F6 Cycle: $sides = 0,1",
        "states: 2",
    ] {
        assert!(
            r.stdout.lines().any(|l| l == line),
            "missing `{line}` in\n{}",
            r.stdout
        );
    }
    let r = inlay_in(
        &root(),
        &["mod", "examples/mod/Box.ini", "--json", "--set", "$sides=1"],
    );
    assert_eq!(r.code, 0, "{}", r.transcript);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["profile"]["name"], "GIMI");
    assert_eq!(v["state"]["$sides"], 1.0);
    let parts: Vec<(&str, u64, u64, bool)> = v["parts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap(),
                p["start"].as_u64().unwrap(),
                p["count"].as_u64().unwrap(),
                p["exported"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        parts,
        [
            ("TextureOverrideBoxBlend", 0, 8, false),
            ("TextureOverrideBoxCaps", 0, 12, true),
            ("TextureOverrideBoxSides", 36, 6, true)
        ]
    );
    assert_eq!(
        v["components"][0]["buffers"][2]["elements"][1]["format"],
        "R32G32_FLOAT"
    );
    let bad = inlay_in(
        &root(),
        &["mod", "examples/mod/Box.ini", "--set", "$nope=1"],
    );
    assert_eq!(bad.code, 2, "{}", bad.transcript);
    assert!(
        bad.stderr
            .contains("--set names a variable the mod does not declare"),
        "{}",
        bad.stderr
    );
}

#[test]
fn export_edit_write_back() {
    let d = scratch("mod-loop");
    let glb = d.join("box.glb");
    let glb_s = glb.to_str().unwrap();
    // Unedited: every file comes back byte for byte (every state).
    let r = inlay_in(
        &root(),
        &[
            "export",
            "examples/mod/Box.ini",
            "--all-states",
            "--output",
            glb_s,
        ],
    );
    assert_eq!(r.code, 0, "{}", r.transcript);
    assert_eq!(
        r.stdout,
        format!(
            "wrote {glb_s}: 4 part nodes (3 meshes) over 1 components, 8 vertices, 14 triangles, 2 states\n"
        )
    );
    let out = d.join("same");
    let r = inlay_in(
        &root(),
        &[
            "import",
            glb_s,
            "--all-states",
            "--mod",
            "examples/mod/Box.ini",
            "--output-dir",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(r.code, 0, "{}", r.transcript);
    assert!(
        r.stdout.ends_with("(0 changed, 5 byte-identical)\n"),
        "{}",
        r.stdout
    );
    assert_eq!(files(&out), files(&example_dir()));
    for f in files(&out) {
        assert_eq!(
            std::fs::read(out.join(&f)).unwrap(),
            std::fs::read(example_dir().join(&f)).unwrap(),
            "{f}"
        );
    }
    // Edited: every position moved by +0.25 in x, in the default state's export.
    let r = inlay_in(
        &root(),
        &[
            "export",
            "examples/mod/Box.ini",
            "--output",
            glb_s,
            "--force",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.transcript);
    let mut bytes = std::fs::read(&glb).unwrap();
    let n = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let j: Value = serde_json::from_slice(&bytes[20..20 + n]).unwrap();
    let bin = 20 + n + 8;
    let acc = &j["accessors"][j["meshes"][0]["primitives"][0]["attributes"]["POSITION"]
        .as_u64()
        .unwrap() as usize];
    let view = &j["bufferViews"][acc["bufferView"].as_u64().unwrap() as usize];
    let start = bin
        + view["byteOffset"].as_u64().unwrap() as usize
        + acc["byteOffset"].as_u64().unwrap_or(0) as usize;
    let stride = view["byteStride"].as_u64().unwrap_or(12) as usize;
    for v in 0..acc["count"].as_u64().unwrap() as usize {
        let at = start + v * stride;
        let x = f32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) + 0.25;
        bytes[at..at + 4].copy_from_slice(&x.to_le_bytes());
    }
    std::fs::write(&glb, &bytes).unwrap();
    let out = d.join("edited");
    let r = inlay_in(
        &root(),
        &[
            "import",
            glb_s,
            "--mod",
            "examples/mod/Box.ini",
            "--output-dir",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(r.code, 0, "{}", r.transcript);
    assert!(
        r.stdout.ends_with("(1 changed, 4 byte-identical)\n"),
        "{}",
        r.stdout
    );
    let old = std::fs::read(example_dir().join("Meshes/BoxPosition.buf")).unwrap();
    let new = std::fs::read(out.join("Meshes/BoxPosition.buf")).unwrap();
    assert_eq!(old.len(), new.len());
    for v in 0..8 {
        let x = |b: &[u8]| f32::from_le_bytes(b[v * 40..v * 40 + 4].try_into().unwrap());
        assert_eq!(x(&new).to_bits(), (x(&old) + 0.25).to_bits());
        assert_eq!(new[v * 40 + 4..v * 40 + 40], old[v * 40 + 4..v * 40 + 40]);
    }
    // Writing over the mod itself is refused.
    let r = inlay_in(
        &root(),
        &[
            "import",
            glb_s,
            "--mod",
            "examples/mod/Box.ini",
            "--output-dir",
            "examples/mod",
            "--force",
        ],
    );
    assert_eq!(r.code, 2, "{}", r.transcript);
    assert!(r.stderr.contains("examples/mod/Box.ini"), "{}", r.stderr);
}

#[test]
fn obj_and_ply_hold_every_part() {
    let d = scratch("mod-objply");
    let obj = d.join("box.obj");
    let r = inlay_in(
        &root(),
        &[
            "export",
            "examples/mod/Box.ini",
            "--output",
            obj.to_str().unwrap(),
        ],
    );
    assert_eq!(r.code, 0, "{}", r.transcript);
    let text = std::fs::read_to_string(&obj).unwrap();
    let objects: Vec<&str> = text.lines().filter(|l| l.starts_with("o ")).collect();
    assert_eq!(
        objects,
        ["o TextureOverrideBoxCaps", "o TextureOverrideBoxSides"]
    );
    assert_eq!(text.lines().filter(|l| l.starts_with("v ")).count(), 8);
    assert_eq!(text.lines().filter(|l| l.starts_with("f ")).count(), 12);
    let ply = d.join("box.ply");
    let r = inlay_in(
        &root(),
        &[
            "export",
            "examples/mod/Box.ini",
            "--all-states",
            "--output",
            ply.to_str().unwrap(),
        ],
    );
    assert_eq!(r.code, 0, "{}", r.transcript);
    let bytes = std::fs::read(&ply).unwrap();
    let head = String::from_utf8_lossy(&bytes[..600]).into_owned();
    assert!(
        head.contains("comment part 3 state $sides=1/TextureOverrideBoxSides~2\n"),
        "{head}"
    );
    assert!(head.contains("element face 18\n"), "{head}");
}

/// A mod whose position buffer holds a NaN (vertex 3's x) exports to OBJ and PLY with the
/// value written as 0 and a warning naming the component and the first value, as a draw's
/// export says it.
#[test]
fn obj_and_ply_warn_of_a_nan_written_as_zero() {
    let d = scratch("mod-objply-nan");
    copy_example(&d);
    let pos = d.join("Meshes/BoxPosition.buf");
    let mut bytes = std::fs::read(&pos).unwrap();
    bytes[3 * 40..3 * 40 + 4].copy_from_slice(&f32::NAN.to_le_bytes());
    std::fs::write(&pos, &bytes).unwrap();
    for (ext, name) in [("obj", "OBJ"), ("ply", "PLY")] {
        let out = d.join(format!("box.{ext}"));
        let r = inlay_in(
            &d,
            &["export", "Box.ini", "--output", out.to_str().unwrap()],
        );
        assert_eq!(r.code, 0, "{}", r.transcript);
        let said = format!(
            ": 1 NaN or infinite values were written as 0 ({name} holds finite numbers only; \
             the first is POSITION0.x of vertex 3); export to .glb to keep them in its exact \
             copies"
        );
        assert_eq!(
            r.stderr.lines().filter(|l| l.contains(&said)).count(),
            1,
            "{}",
            r.transcript
        );
        assert!(r.stderr.contains("component "), "{}", r.transcript);
    }
    let text = std::fs::read_to_string(d.join("box.obj")).unwrap();
    let v: Vec<&str> = text.lines().filter(|l| l.starts_with("v ")).collect();
    assert!(v[3].starts_with("v 0 "), "{v:?}");
}

#[test]
fn obj_to_standard_output() {
    // `--output -` (issue 35's `-` everywhere) takes a mod's export too; the report goes to
    // standard error.
    let r = inlay_in(
        &root(),
        &[
            "export",
            "examples/mod/Box.ini",
            "--format",
            "obj",
            "--output",
            "-",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.transcript);
    let objects: Vec<&str> = r.stdout.lines().filter(|l| l.starts_with("o ")).collect();
    assert_eq!(
        objects,
        ["o TextureOverrideBoxCaps", "o TextureOverrideBoxSides"]
    );
    assert!(
        r.stderr.starts_with("wrote standard output: 2 part nodes"),
        "{}",
        r.stderr
    );
}

/// GI-Model-Importer's example mod from the shared dumps through every command of the mod
/// path: inspect, export, view, and the unedited write-back, byte for byte (INI included).
#[test]
#[cfg_attr(
    not(inlay_has_dumps),
    ignore = "needs the shared dumps: ../shared/dumps or $INLAY_SHARED"
)]
fn mona_every_command() {
    let src = testenv::dumps().join("SilentNightSound+GI-Model-Importer/Examples/MonaHatless");
    let ini = src.join("Mona.ini");
    let ini_s = ini.to_str().unwrap();
    let d = scratch("mod-mona");
    // inspect
    let r = inlay_in(&d, &["mod", ini_s, "--json"]);
    assert_eq!(r.code, 0, "{}", r.transcript);
    let j: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(j["profile"]["name"], "GIMI");
    let parts: Vec<(String, u64, u64)> = j["parts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_string(),
                p["start"].as_u64().unwrap(),
                p["count"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        parts,
        [
            ("TextureOverrideMonaHead".to_string(), 0, 17688),
            ("TextureOverrideMonaBody".to_string(), 17688, 35814)
        ]
    );
    // The sample ships no textures: each missing one is a warning naming its line.
    for line in [56, 59, 62, 65] {
        assert!(
            r.stderr.contains(&format!("Mona.ini:{line}: [Resource")),
            "{}",
            r.stderr
        );
    }
    // export
    let glb = d.join("mona.glb");
    let r = inlay_in(&d, &["export", ini_s, "--output", glb.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.transcript);
    assert_eq!(
        r.stdout,
        format!(
            "wrote {}: 2 part nodes (2 meshes) over 1 components, 12991 vertices, 17834 \
             triangles\n",
            glb.display()
        )
    );
    // view
    let html = d.join("mona.html");
    let r = inlay_in(&d, &["view", ini_s, "--output", html.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.transcript);
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("TextureOverrideMonaBody"), "no part list");
    // write back, unedited: every file of the mod byte for byte
    let out = d.join("out");
    let r = inlay_in(
        &d,
        &[
            "import",
            glb.to_str().unwrap(),
            "--mod",
            ini_s,
            "--output-dir",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(r.code, 0, "{}", r.transcript);
    assert!(
        r.stdout.ends_with("(0 changed, 5 byte-identical)\n"),
        "{}",
        r.stdout
    );
    assert_eq!(
        files(&out),
        [
            "Mona.ib",
            "Mona.ini",
            "MonaBlend.buf",
            "MonaPosition.buf",
            "MonaTexcoord.buf"
        ]
    );
    for f in files(&out) {
        assert!(
            std::fs::read(out.join(&f)).unwrap() == std::fs::read(src.join(&f)).unwrap(),
            "{f} differs"
        );
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// The README's "hash.json beside the mod": `inlay mod` takes the formats from the dump
/// `hash.json` belongs with, and says so per buffer.
#[test]
fn hash_json_beside_the_mod_gives_the_formats() {
    let d = scratch("mod-hash-json");
    copy_example(&d);
    std::fs::write(
        d.join("hash.json"),
        r#"[{"component_name": "Box", "draw_vb": "", "position_vb": "1a2b3c4d",
             "blend_vb": "2b3c4d5e", "texcoord_vb": "3c4d5e6f", "ib": "4d5e6f70",
             "object_indexes": [0], "object_classifications": ["A"]}]"#,
    )
    .unwrap();
    let mut dump = String::from("stride: 84\ntopology: trianglelist\n");
    for (i, (s, f, o)) in [
        ("POSITION", "R32G32B32_FLOAT", 0),
        ("NORMAL", "R16G16B16A16_SNORM", 12),
        ("TANGENT", "R32G32B32A32_FLOAT", 20),
        ("COLOR", "R8G8B8A8_UNORM", 36),
        ("BLENDWEIGHT", "R32G32B32A32_FLOAT", 40),
        ("BLENDINDICES", "R32G32B32A32_UINT", 56),
        ("TEXCOORD", "R32G32_FLOAT", 72),
        ("TEXCOORD1", "R16G16_FLOAT", 80),
    ]
    .into_iter()
    .enumerate()
    {
        let (name, index) = match s.strip_suffix('1') {
            Some(n) => (n, 1),
            None => (s, 0),
        };
        dump += &format!(
            "element[{i}]:\n  SemanticName: {name}\n  SemanticIndex: {index}\n  Format: {f}\n  \
             InputSlot: 0\n  AlignedByteOffset: {o}\n  InputSlotClass: per-vertex\n  \
             InstanceDataStepRate: 0\n"
        );
    }
    std::fs::write(d.join("BoxA-vb0=1a2b3c4d.txt"), dump).unwrap();
    let r = inlay_in(&d, &["mod", "Box.ini"]);
    assert_eq!(r.code, 0, "{}", r.transcript);
    for line in [
        "profile: none",
        "        POSITION0 R32G32B32_FLOAT +0, NORMAL0 R16G16B16A16_SNORM +12, TANGENT0 R32G32B32A32_FLOAT +20, COLOR0 R8G8B8A8_UNORM +36",
        "        layout from hash.json component Box with its layout BoxA-vb0=1a2b3c4d.txt (Position of its split: Honkai Impact 3rd Part 2: COLOR in Position; XXMITools migoto/data/data_model.py DataModelXXMI.from_obj)",
        "        TEXCOORD0 R32G32_FLOAT +0, TEXCOORD1 R16G16_FLOAT +8",
    ] {
        assert!(
            r.stdout.lines().any(|l| l == line),
            "missing `{line}` in\n{}",
            r.stdout
        );
    }
    // A malformed hash.json: exit status 1 and the file and field named.
    std::fs::write(d.join("hash.json"), r#"[{"component_name": 3}]"#).unwrap();
    let r = inlay_in(&d, &["mod", "Box.ini"]);
    assert_ne!(r.code, 0, "{}", r.transcript);
    assert!(
        r.stderr
            .contains("hash.json: [0].component_name: expected a string, found `3`"),
        "{}",
        r.transcript
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// `import --mod` reads a .gltf's buffer file through the same checked reader as `import`: a
/// named pipe or a link to a device beside it is refused by type, never opened (it read the
/// file with no check: a pipe hung, `/dev/zero` ran until memory ran out).
#[cfg(unix)]
#[test]
fn import_mod_refuses_a_pipe_or_device_as_the_gltf_buffer() {
    let d = scratch("mod-gltf-pipe");
    let gltf = d.join("box.gltf");
    let gltf_s = gltf.to_str().unwrap();
    let r = inlay_in(
        &root(),
        &["export", "examples/mod/Box.ini", "--output", gltf_s],
    );
    assert_eq!(r.code, 0, "{}", r.transcript);
    let bin = d.join("box.bin");
    assert!(bin.is_file());
    let import = || {
        inlay_in(
            &root(),
            &[
                "import",
                gltf_s,
                "--mod",
                "examples/mod/Box.ini",
                "--output-dir",
                d.join("out").to_str().unwrap(),
            ],
        )
    };
    std::fs::remove_file(&bin).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &bin).unwrap();
    let r = import();
    assert_eq!(r.code, 2, "{}", r.transcript);
    assert!(
        r.stderr.contains(
            "box.bin: it is a device, not a file (a device such as /dev/zero never ends)"
        ),
        "{}",
        r.stderr
    );
    std::fs::remove_file(&bin).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(&bin)
        .status()
        .unwrap();
    assert!(made.success());
    let r = import();
    assert_eq!(r.code, 2, "{}", r.transcript);
    assert!(
        r.stderr
            .contains("box.bin: it is a named pipe (FIFO), not a file"),
        "{}",
        r.stderr
    );
    assert!(!d.join("out").exists());
}
