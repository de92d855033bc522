//! Mods as meshes and back: the shipped example mod (`examples/mod/Box.ini`) exported as one
//! glTF scene (one node per part, shared vertices, one node per toggle state) and imported
//! back byte for byte; a mesh whose parts no longer share vertices (as Blender writes one)
//! written back with new vertex counts and index ranges; Mona when the shared dumps are there.

use std::path::{Path, PathBuf};

use inlay::mesh::modfile::{ModImportOptions, StateParts, component_mesh, import_mod, scene};
use inlay::migoto_mod::writeback::write_back;
use inlay::migoto_mod::{Mod, ModOptions};
use serde_json::{Value, json};

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/mod/Box.ini")
}

fn glb_json(bytes: &[u8]) -> Value {
    let n = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    serde_json::from_slice(&bytes[20..20 + n]).unwrap()
}

/// Every state of the mod, the default first.
fn all_states(m: &Mod) -> Vec<Mod> {
    m.states()
        .unwrap()
        .iter()
        .map(|s| m.with_state(s))
        .collect()
}

fn no_files(_: &str) -> Result<Vec<u8>, String> {
    Err("no external files".into())
}

#[test]
fn example_scene_shares_vertices_and_round_trips() {
    let m = Mod::load(&example(), &ModOptions::default()).unwrap();
    assert!(m.warnings.is_empty(), "{:?}", m.warnings);
    let states = all_states(&m);
    let parts: Vec<StateParts<'_>> = states
        .iter()
        .map(|s| StateParts {
            label: Some(format!("state {}", s.state)),
            m: s,
        })
        .collect();
    let sc = scene(&parts).unwrap();
    assert_eq!(sc.summary.parts, 4);
    assert_eq!(sc.summary.meshes, 3);
    assert_eq!(sc.summary.vertices, 8);
    assert_eq!(sc.summary.triangles, 4 + 8 + 2);
    let mut glb = Vec::new();
    sc.write_glb(&mut glb).unwrap();
    let j = glb_json(&glb);
    // glTF has no null values (a `"children": null` fails Blender's and inlay's readers).
    assert!(!j.to_string().contains("null"), "{j}");
    let nodes: Vec<(Option<&str>, Option<u64>)> = j["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n["name"].as_str(), n["mesh"].as_u64()))
        .collect();
    // The box's BLENDINDICES make a skin (issue 31): a joint per blend index, named by it,
    // under one skeleton root, before the part nodes.
    assert_eq!(
        nodes,
        [
            (Some("0"), None),
            (Some("1"), None),
            (Some("BoxPosition skeleton"), None),
            (Some("TextureOverrideBoxCaps"), Some(0)),
            (Some("TextureOverrideBoxSides"), Some(1)),
            (Some("state $sides=0"), None),
            (Some("TextureOverrideBoxCaps"), Some(0)),
            (Some("TextureOverrideBoxSides~2"), Some(2)),
            (Some("state $sides=1"), None),
        ]
    );
    // The scene's roots: the skeleton and the two states.
    assert_eq!(j["scenes"][0]["nodes"], json!([2, 5, 8]));
    let meshes = j["meshes"].as_array().unwrap();
    // One vertex set: every part's primitive names the same attribute accessors.
    let attrs = &meshes[0]["primitives"][0]["attributes"];
    assert!(attrs.as_object().unwrap().contains_key("POSITION"));
    for m in meshes {
        assert_eq!(&m["primitives"][0]["attributes"], attrs);
    }
    let counts: Vec<u64> = meshes
        .iter()
        .map(|m| {
            let a = m["primitives"][0]["indices"].as_u64().unwrap() as usize;
            j["accessors"][a]["count"].as_u64().unwrap()
        })
        .collect();
    assert_eq!(counts, [12, 24, 6]);
    assert_eq!(meshes[2]["extras"]["inlay_mod"]["start"], json!(36));
    // Import of the unedited scene: every file byte for byte.
    let refs: Vec<&Mod> = states.iter().collect();
    let imp = import_mod(
        &refs,
        "box.glb",
        &glb,
        &mut no_files,
        &ModImportOptions::default(),
    )
    .unwrap();
    let w = write_back(&m, &states, &imp.edits).unwrap();
    let dir = example();
    let dir = dir.parent().unwrap();
    assert_eq!(w.files.len(), 5);
    for f in &w.files {
        assert!(!f.changed, "{}", f.name);
        assert_eq!(
            f.bytes,
            std::fs::read(dir.join(&f.name)).unwrap(),
            "{}",
            f.name
        );
    }
}

/// A glTF accessor of floats (`comps` per vertex) appended to `bin`.
fn float_acc(j: &mut Value, bin: &mut Vec<u8>, values: &[[f32; 4]], comps: usize) -> usize {
    let off = bin.len();
    for v in values {
        for x in &v[..comps] {
            bin.extend_from_slice(&x.to_le_bytes());
        }
    }
    let views = j["bufferViews"].as_array_mut().unwrap();
    views.push(json!({"buffer": 0, "byteOffset": off, "byteLength": bin.len() - off}));
    let view = views.len() - 1;
    let accs = j["accessors"].as_array_mut().unwrap();
    let ty = ["", "SCALAR", "VEC2", "VEC3", "VEC4"][comps];
    let mut a =
        json!({"bufferView": view, "componentType": 5126, "count": values.len(), "type": ty});
    if comps == 3 {
        let mut lo = [f32::MAX; 3];
        let mut hi = [f32::MIN; 3];
        for v in values {
            for k in 0..3 {
                lo[k] = lo[k].min(v[k]);
                hi[k] = hi[k].max(v[k]);
            }
        }
        a["min"] = json!(lo);
        a["max"] = json!(hi);
    }
    accs.push(a);
    accs.len() - 1
}

fn u16_acc(j: &mut Value, bin: &mut Vec<u8>, values: &[u16], ty: &str, count: usize) -> usize {
    let off = bin.len();
    for v in values {
        bin.extend_from_slice(&v.to_le_bytes());
    }
    while !bin.len().is_multiple_of(4) {
        bin.push(0);
    }
    let views = j["bufferViews"].as_array_mut().unwrap();
    views.push(json!({"buffer": 0, "byteOffset": off, "byteLength": values.len() * 2}));
    let view = views.len() - 1;
    let accs = j["accessors"].as_array_mut().unwrap();
    accs.push(json!({"bufferView": view, "componentType": 5123, "count": count, "type": ty}));
    accs.len() - 1
}

#[test]
fn parts_with_their_own_vertices_are_appended_and_counts_rewritten() {
    let m = Mod::load(&example(), &ModOptions::default()).unwrap();
    let states = all_states(&m);
    // The vertex values as the input assembler reads them.
    let (mesh, _) = component_mesh(&m, 0, &[]).unwrap();
    let lanes = |sem: &str| -> Vec<[u32; 4]> {
        mesh.attributes
            .iter()
            .find(|a| a.semantic == sem)
            .unwrap()
            .values
            .clone()
    };
    let as_f =
        |v: &[[u32; 4]]| -> Vec<[f32; 4]> { v.iter().map(|l| l.map(f32::from_bits)).collect() };
    // A Blender-like mesh: each part has its own copy of the 8 vertices; the caps moved by +1
    // in x.
    let mut j = json!({"asset": {"version": "2.0"}, "bufferViews": [], "accessors": [], "meshes": [], "nodes": []});
    let mut bin = Vec::new();
    let tri: [&[u16]; 2] = [
        &[0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7],
        &[
            0, 1, 5, 0, 5, 4, 1, 2, 6, 1, 6, 5, 2, 3, 7, 2, 7, 6, 3, 0, 4, 3, 4, 7,
        ],
    ];
    for (k, name) in ["TextureOverrideBoxCaps", "TextureOverrideBoxSides"]
        .iter()
        .enumerate()
    {
        let mut pos = as_f(&lanes("POSITION"));
        if k == 0 {
            for p in &mut pos {
                p[0] += 1.0;
            }
        }
        let p = float_acc(&mut j, &mut bin, &pos, 3);
        let n = float_acc(&mut j, &mut bin, &as_f(&lanes("NORMAL")), 3);
        let t = float_acc(&mut j, &mut bin, &as_f(&lanes("TANGENT")), 4);
        let c = float_acc(&mut j, &mut bin, &as_f(&lanes("COLOR")), 4);
        let uv = float_acc(&mut j, &mut bin, &as_f(&lanes("TEXCOORD")), 2);
        let wt = float_acc(&mut j, &mut bin, &as_f(&lanes("BLENDWEIGHT")), 4);
        let joints: Vec<u16> = lanes("BLENDINDICES")
            .iter()
            .flat_map(|l| l.map(|x| x as u16))
            .collect();
        let jt = u16_acc(&mut j, &mut bin, &joints, "VEC4", 8);
        let ix = u16_acc(&mut j, &mut bin, tri[k], "SCALAR", tri[k].len());
        j["meshes"].as_array_mut().unwrap().push(json!({"name": name, "primitives": [{
            "attributes": {"POSITION": p, "NORMAL": n, "TANGENT": t, "COLOR_0": c, "TEXCOORD_0": uv, "WEIGHTS_0": wt, "JOINTS_0": jt},
            "indices": ix, "mode": 4}]}));
        j["nodes"]
            .as_array_mut()
            .unwrap()
            .push(json!({"name": format!("{name}.001"), "mesh": k}));
    }
    j["buffers"] = json!([{"byteLength": bin.len(), "uri": "mesh.bin"}]);
    let text = serde_json::to_vec(&j).unwrap();
    let mut ext = |uri: &str| -> Result<Vec<u8>, String> {
        assert_eq!(uri, "mesh.bin");
        Ok(bin.clone())
    };
    // Exported for the default state; the other state's part is kept.
    let refs: Vec<&Mod> = states.iter().collect();
    let imp = import_mod(
        &refs,
        "edited.gltf",
        &text,
        &mut ext,
        &ModImportOptions::default(),
    )
    .unwrap();
    assert_eq!(
        imp.report,
        [
            "TextureOverrideBoxCaps: 12 indices from the mesh",
            "TextureOverrideBoxSides: 24 indices from the mesh",
            "TextureOverrideBoxSides~2: not in the mesh; its original vertices are appended",
            "component Box: 20 vertices (was 8), parts' vertices appended in part order"
        ]
    );
    let w = write_back(&m, &states, &imp.edits).unwrap();
    // The INI: only the skinning pass's vertex count changes.
    let edits: Vec<(String, String)> = w
        .ini_edits
        .iter()
        .map(|e| (e.1.clone(), e.2.clone()))
        .collect();
    assert_eq!(edits, [("8".to_string(), "20".to_string())]);
    let original = std::fs::read_to_string(example()).unwrap();
    assert_eq!(
        String::from_utf8(w.files[0].bytes.clone()).unwrap(),
        original.replace("draw = 8, 0", "draw = 20, 0")
    );
    let dir = example();
    let dir = dir.parent().unwrap();
    let old = |n: &str| std::fs::read(dir.join(n)).unwrap();
    let new = |n: &str| w.files.iter().find(|f| f.name == n).unwrap().bytes.clone();
    // Index buffer: the caps into vertices 0..8, the sides into 8..16, the other state's part
    // (vertices 0, 1, 5, 4 of the original, in the order it reads them) into 16..20.
    let ib: Vec<u16> = new("Meshes/Box.ib")
        .chunks(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    let mut want: Vec<u16> = tri[0].to_vec();
    want.extend(tri[1].iter().map(|i| i + 8));
    want.extend([16, 17, 18, 16, 18, 19]);
    assert_eq!(ib, want);
    // Vertex buffers: the caps' records with x + 1; the sides' and the kept ones unchanged.
    for (file, stride) in [
        ("Meshes/BoxPosition.buf", 40),
        ("Meshes/BoxBlend.buf", 32),
        ("Meshes/BoxTexcoord.buf", 12),
    ] {
        let (o, n) = (old(file), new(file));
        assert_eq!(n.len(), 20 * stride, "{file}");
        assert_eq!(&n[8 * stride..16 * stride], &o[..], "{file}");
        for (k, &v) in [0usize, 1, 5, 4].iter().enumerate() {
            assert_eq!(
                &n[(16 + k) * stride..(17 + k) * stride],
                &o[v * stride..(v + 1) * stride],
                "{file}"
            );
        }
        if stride == 40 {
            for v in 0..8 {
                let x = |b: &[u8]| f32::from_le_bytes(b[v * 40..v * 40 + 4].try_into().unwrap());
                assert_eq!(x(&n).to_bits(), (x(&o) + 1.0).to_bits());
                assert_eq!(&n[v * 40 + 4..v * 40 + 40], &o[v * 40 + 4..v * 40 + 40]);
            }
        } else {
            assert_eq!(&n[..8 * stride], &o[..], "{file}");
        }
    }
}

#[path = "../testenv/test_side.rs"]
mod testenv;

#[test]
#[cfg_attr(
    not(inlay_has_dumps),
    ignore = "needs the shared dumps: ../shared/dumps or $INLAY_SHARED"
)]
fn mona_round_trip() {
    let p =
        testenv::dumps().join("SilentNightSound+GI-Model-Importer/Examples/MonaHatless/Mona.ini");
    let m = Mod::load(&p, &ModOptions::default()).unwrap();
    let sc = scene(&[StateParts { label: None, m: &m }]).unwrap();
    assert_eq!(
        (sc.summary.parts, sc.summary.vertices, sc.summary.triangles),
        (2, 12991, 17834)
    );
    let mut glb = Vec::new();
    sc.write_glb(&mut glb).unwrap();
    let imp = import_mod(
        &[&m],
        "mona.glb",
        &glb,
        &mut no_files,
        &ModImportOptions::default(),
    )
    .unwrap();
    let w = write_back(&m, &[], &imp.edits).unwrap();
    for f in &w.files {
        assert!(!f.changed, "{}", f.name);
        assert_eq!(
            f.bytes,
            std::fs::read(p.parent().unwrap().join(&f.name)).unwrap()
        );
    }
}

/// Malformed edited scenes are errors naming the file and what is wrong, never a panic.
#[test]
fn malformed_scenes_are_errors() {
    let m = Mod::load(&example(), &ModOptions::default()).unwrap();
    let states = all_states(&m);
    let refs: Vec<&Mod> = states.iter().collect();
    let fail = |bytes: &[u8]| {
        import_mod(
            &refs,
            "box.gltf",
            bytes,
            &mut no_files,
            &ModImportOptions::default(),
        )
        .map(|_| ())
        .expect_err("a malformed scene is an error")
        .to_string()
    };
    // `nodes` of the wrong type.
    let e = fail(br#"{"asset":{"version":"2.0"},"nodes":"x"}"#);
    assert!(e.contains("box.gltf") && e.contains("not glTF JSON"), "{e}");
    // A part node naming a mesh the document does not have.
    let e = fail(
        br#"{"asset":{"version":"2.0"},"nodes":[{"name":"TextureOverrideBoxCaps","mesh":7}]}"#,
    );
    assert!(e.contains("box.gltf") && e.contains("mesh 7"), "{e}");
    // A GLB cut inside its JSON chunk.
    let e = fail(b"glTF\x02\0\0\0\x40\0\0\0\x30\0\0\0JSON{\"asset\"");
    assert!(
        e.contains("box.gltf") && e.contains("not a valid GLB"),
        "{e}"
    );
}
