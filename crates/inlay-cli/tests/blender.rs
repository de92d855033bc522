//! The glTF path through real Blender (issue 31, tests (b) and (c)): every sample of
//! `../shared/dumps` and synthetic captures go `inlay export` → Blender's own glTF import →
//! glTF export → `inlay import`, and come back byte for byte:
//!
//! - exported with Include › Custom Properties and Data › Mesh › Attributes ticked (what the
//!   README asks), whatever the layout: inlay's exact copies travel through Blender;
//! - exported with Blender's default settings (custom attributes and extras dropped), when
//!   `--layout` is the capture itself (an importer `.fmt` with its buffers, a 3DMigoto
//!   dump): the exact values come from the capture's vertices; with another layout, the
//!   elements no glTF attribute holds are an error naming them (exit 1), never zeros;
//! - with every vertex translated in Blender, only the POSITION bytes change, by exactly the
//!   move as the format encodes it.
//!
//! Blender runs once, as a Python module (`INLAY_BLENDER_PYTHON`: a Python with PyPI `bpy`
//! 4.2, which `.ci/run` installs in target/ci-tools/venv), over every file
//! (`.ci/blender-roundtrip.py`). Plain `cargo test` lists the test as ignored; `.ci/run` runs
//! it once with `-- --ignored`, where a missing Python is a failure. With `INLAY_EXPORT_EXAMPLES=DIR` the exports are copied to DIR
//! for the Khronos validator.

mod common;
#[path = "../../inlay/testenv/test_side.rs"]
mod testenv;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{inlay_in, scratch};
use inlay::encode::{Rounding, encode_element};
use inlay::format::Format;
use inlay::mesh::gltf::{read_glb, schema::InlayExtras};

/// The shared dumps when this build found them; `.ci/run` requires them
/// (`INLAY_REQUIRE_SHARED=1`), and without them the round trips run on the synthetic and
/// repository captures only.
fn shared_dumps() -> Option<PathBuf> {
    if cfg!(inlay_has_dumps) {
        return Some(testenv::dumps());
    }
    assert!(
        std::env::var_os("INLAY_REQUIRE_SHARED").is_none_or(|v| v != "1"),
        "INLAY_REQUIRE_SHARED=1 but this build did not find the shared dumps (set INLAY_SHARED)"
    );
    None
}

/// One capture: how `inlay export` reads it, the layout `inlay import` gets, whether that
/// layout is the capture itself, and the capture's buffer files (slot or `ib`, path) when
/// it has them.
struct Sample {
    tag: String,
    export: Vec<String>,
    layout: PathBuf,
    capture: bool,
    files: Vec<(String, PathBuf)>,
}

fn write(d: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = d.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

fn element(name: &str, index: u32, format: &str, offset: u32) -> String {
    format!(
        "element[{{}}]:\n  SemanticName: {name}\n  SemanticIndex: {index}\n  Format: {format}\n  InputSlot: 0\n  AlignedByteOffset: {offset}\n  InputSlotClass: per-vertex\n  InstanceDataStepRate: 0\n"
    )
}

/// A synthetic importer `.fmt` with everything a glTF convention changes: −0.0 positions,
/// texture coordinates the `1 − v` flip does not keep, NORMAL.w, a four-lane TEXCOORD, 16-bit
/// and HDR colours, two blend sets (six influences, unsorted, weights not summing to 1, one
/// of them 0), a packed tangent, and integers past 2^24.
fn tough(d: &Path) -> Sample {
    let rows = [
        ("POSITION", 0, "R32G32B32_FLOAT", 0),
        ("NORMAL", 0, "R16G16B16A16_SNORM", 12),
        ("TEXCOORD", 0, "R32G32_FLOAT", 20),
        ("TEXCOORD", 1, "R16G16B16A16_FLOAT", 28),
        ("COLOR", 0, "R16G16B16A16_UNORM", 36),
        ("COLOR", 1, "R32G32B32A32_FLOAT", 44),
        ("BLENDINDICES", 0, "R8G8B8A8_UINT", 60),
        ("BLENDWEIGHT", 0, "R32G32B32A32_FLOAT", 64),
        ("BLENDINDICES", 1, "R16G16_UINT", 80),
        ("BLENDWEIGHT", 1, "R16G16_UNORM", 84),
        ("TANGENT", 0, "R10G10B10A2_UNORM", 88),
        ("PSIZE", 0, "R32_UINT", 92),
    ];
    let mut fmt =
        String::from("stride: 96\ntopology: trianglelist\nformat: DXGI_FORMAT_R16_UINT\n");
    for (k, (name, index, format, offset)) in rows.iter().enumerate() {
        fmt.push_str(&element(name, *index, format, *offset).replacen("{}", &k.to_string(), 1));
    }
    let mut vb = Vec::new();
    let side = 4u32;
    for y in 0..side {
        for x in 0..side {
            let k = y * side + x;
            let f = |v: f32, out: &mut Vec<u8>| out.extend(v.to_le_bytes());
            f(if x == 0 { -0.0 } else { x as f32 * 0.3 }, &mut vb);
            f(y as f32 * 0.7 - 1.0, &mut vb);
            f(
                if k.is_multiple_of(3) {
                    -0.0
                } else {
                    0.1 * k as f32
                },
                &mut vb,
            );
            for v in [
                0i16,
                23170,
                23170,
                if k.is_multiple_of(2) { 32767 } else { -32767 },
            ] {
                vb.extend(v.to_le_bytes());
            }
            f(0.1 + x as f32 * 0.3, &mut vb);
            f(if y == 0 { -0.0 } else { 0.3 * y as f32 + 0.01 }, &mut vb);
            for h in [0x3c00u16 + k as u16, 0x3800, 0xc000 + k as u16, 0x7bff] {
                vb.extend(h.to_le_bytes());
            }
            for v in [k as u16 * 4000, 65535 - k as u16 * 3000, 12345, 65535] {
                vb.extend(v.to_le_bytes());
            }
            for v in [1.5f32 + k as f32, -0.25, 0.5, 2.0] {
                f(v, &mut vb);
            }
            vb.extend([(k % 5) as u8 + 3, 200, 7, (k % 7) as u8 + 20]);
            for v in [0.2f32, 0.45, 0.0, 0.15] {
                f(v, &mut vb);
            }
            for v in [9u16 + k as u16, 300] {
                vb.extend(v.to_le_bytes());
            }
            for v in [6554u16, 3277] {
                vb.extend(v.to_le_bytes());
            }
            vb.extend(((k * 61) | (1 << 30) | ((k % 2) << 31)).to_le_bytes());
            vb.extend((0x0100_0001u32 + k * 0x0101_0101).to_le_bytes());
        }
    }
    let mut ib = Vec::new();
    for y in 0..side - 1 {
        for x in 0..side - 1 {
            let i = (y * side + x) as u16;
            let s = side as u16;
            for v in [i, i + 1, i + s, i + 1, i + s + 1, i + s] {
                ib.extend(v.to_le_bytes());
            }
        }
    }
    let layout = write(d, "Tough.fmt", fmt.as_bytes());
    let vbp = write(d, "Tough.vb", &vb);
    let ibp = write(d, "Tough.ib", &ib);
    Sample {
        tag: "tough".into(),
        export: vec![layout.display().to_string()],
        layout,
        capture: true,
        files: vec![("vb".into(), vbp), ("ib".into(), ibp)],
    }
}

fn samples(out: &Path) -> Vec<Sample> {
    let mut all = vec![tough(out)];
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/dump");
    let txt = root.join("000001-vb0=5a1e0001-vs=9c1f3e2d7b6a5c48.txt");
    all.push(Sample {
        tag: "example".into(),
        export: vec![txt.display().to_string()],
        layout: txt.clone(),
        capture: true,
        files: vec![
            (
                "vb".into(),
                root.join("000001-vb0=5a1e0001-vs=9c1f3e2d7b6a5c48.buf"),
            ),
            (
                "ib".into(),
                root.join("000001-ib=3f2e1d0c-vs=9c1f3e2d7b6a5c48.buf"),
            ),
        ],
    });
    let Some(d) = shared_dumps() else {
        return all;
    };
    let gi = d.join("SilentNightSound+GI-Model-Importer-Assets");
    for (tag, path) in [
        (
            "slime",
            "EnemyData/BigSlimeDendro/BigSlimeDendro2Head-vb0=62a4f1dd.txt",
        ),
        (
            "cryo",
            "EnemyData/CryoHypostasis/CryoHypostasis2Head-vb0=9602d5d1.txt",
        ),
        (
            "electro",
            "EnemyData/ElectroHypostasis/ElectroHypostasis2Head-vb0=9602d5d1.txt",
        ),
        (
            "signora",
            "NPCData/LaSignoraFace/LaSignoraFace3Head-vb0=842ec7a5.txt",
        ),
        (
            "dainsleif",
            "NPCData/DainsleifFace/DainsleifFace3Head-vb0=15901d2d.txt",
        ),
        (
            "phobos",
            "MiscellaneousData/Phobos/PhobosStrings/PhobosStringsHead-vb0=37019d1c.txt",
        ),
    ] {
        let p = gi.join(path);
        all.push(Sample {
            tag: tag.into(),
            export: vec![p.display().to_string()],
            layout: p,
            capture: true,
            files: Vec::new(),
        });
    }
    let alice = d.join("leotorrez+ZZ-Model-Importer-Assets/PlayerCharacterData/Alice/AliceSensorA-vb0=d0867379.txt");
    all.push(Sample {
        tag: "alice".into(),
        export: vec![alice.display().to_string()],
        layout: alice,
        capture: true,
        files: Vec::new(),
    });
    for (tag, dir, name) in [
        ("rover", "PlayerCharacterData/RoverFemale", "Component 6"),
        (
            "butterfly",
            "MiscellaneousData/ShorekeeperButterfly",
            "Component 1",
        ),
    ] {
        let base = d.join("SpectrumQT+WWMI-Assets").join(dir);
        let fmt = base.join(format!("{name}.fmt"));
        all.push(Sample {
            tag: tag.into(),
            export: vec![fmt.display().to_string()],
            layout: fmt,
            capture: true,
            files: vec![
                ("vb".into(), base.join(format!("{name}.vb"))),
                ("ib".into(), base.join(format!("{name}.ib"))),
            ],
        });
    }
    // Mona: three slots of .buf files and a JSON layout (not the capture).
    let mona = d.join("SilentNightSound+GI-Model-Importer/Examples/MonaHatless");
    let layout = write(
        out,
        "mona.json",
        br#"[
  {"semantic": "POSITION", "format": "R32G32B32_FLOAT", "slot": 0, "offset": 0},
  {"semantic": "NORMAL", "format": "R32G32B32_FLOAT", "slot": 0, "offset": "append"},
  {"semantic": "TANGENT", "format": "R32G32B32A32_FLOAT", "slot": 0, "offset": "append"},
  {"semantic": "BLENDWEIGHT", "format": "R32G32B32A32_FLOAT", "slot": 1, "offset": 0},
  {"semantic": "BLENDINDICES", "format": "R32G32B32A32_SINT", "slot": 1, "offset": "append"},
  {"semantic": "COLOR", "format": "R8G8B8A8_UNORM", "slot": 2, "offset": 0},
  {"semantic": "TEXCOORD", "format": "R32G32_FLOAT", "slot": 2, "offset": "append"}
]"#,
    );
    let vb = |s: u32, f: &str| format!("{s}={}", mona.join(f).display());
    all.push(Sample {
        tag: "mona".into(),
        export: vec![
            layout.display().to_string(),
            "--vb".into(),
            vb(0, "MonaPosition.buf"),
            "--vb".into(),
            vb(1, "MonaBlend.buf"),
            "--vb".into(),
            vb(2, "MonaTexcoord.buf"),
            "--ib".into(),
            format!("{},format=R16_UINT", mona.join("Mona.ib").display()),
            "--topology".into(),
            "triangle_list".into(),
        ],
        layout,
        capture: false,
        files: vec![
            ("0".into(), mona.join("MonaPosition.buf")),
            ("1".into(), mona.join("MonaBlend.buf")),
            ("2".into(), mona.join("MonaTexcoord.buf")),
        ],
    });
    // RenderDoc CSV: a JSON layout of its columns.
    let csv = d.join(
        "javelinlin+Testing_CSV2Mesh_Tool/Assets/Editor/JaveLin_RDC_CSV2FBX/RDC_CSVs/Weapon_01.csv",
    );
    let layout = write(
        out,
        "weapon.json",
        br#"[
  {"semantic": "POSITION", "format": "R32G32B32_FLOAT", "offset": 0},
  {"semantic": "NORMAL", "format": "R32G32B32A32_FLOAT", "offset": "append"},
  {"semantic": "TANGENT", "format": "R32G32B32A32_FLOAT", "offset": "append"},
  {"semantic": "TEXCOORD", "format": "R32G32_FLOAT", "offset": "append"}
]"#,
    );
    all.push(Sample {
        tag: "weapon".into(),
        export: vec![csv.display().to_string()],
        layout,
        capture: false,
        files: Vec::new(),
    });
    all
}

/// The buffers one import wrote: (slot or `ib`, bytes), slots in order, the index buffer last.
fn buffers(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            let ext = p.extension()?.to_str()?.to_string();
            let key = match ext.as_str() {
                "vb" => "vb".to_string(),
                "ib" => "ib".to_string(),
                e if e.starts_with("vb") => e[2..].to_string(),
                _ => return None,
            };
            Some((key, std::fs::read(&p).unwrap()))
        })
        .collect();
    out.sort_by_key(|(k, _)| (k == "ib", k.parse::<u32>().unwrap_or(0), k.clone()));
    out
}

fn import(dir: &Path, mesh: &Path, s: &Sample, into: &str) -> common::Run {
    inlay_in(
        dir,
        &[
            "import",
            mesh.to_str().unwrap(),
            "--layout",
            s.layout.to_str().unwrap(),
            "--output-dir",
            into,
            "--name",
            "S",
            "--force",
        ],
    )
}

/// `reference` with every per-vertex POSITION of records `vertex_base..` moved by `delta`
/// (binary32 additions) and encoded back in its format, rounded to nearest.
fn moved(
    reference: &[(String, Vec<u8>)],
    extras: &InlayExtras,
    delta: [f32; 3],
) -> Vec<(String, Vec<u8>)> {
    let mut out = reference.to_vec();
    let Some(p) = extras
        .layout
        .iter()
        .find(|e| e.semantic.eq_ignore_ascii_case("POSITION") && e.index == 0)
    else {
        return out;
    };
    let format: Format = p.format.parse().unwrap();
    let info = format.info().unwrap();
    let size = info.byte_size() as usize;
    let stride = extras
        .slots
        .iter()
        .find(|s| s.slot == p.slot)
        .map(|s| s.stride as usize)
        .unwrap();
    let key = if reference.len() == 2 {
        reference[0].0.clone()
    } else {
        p.slot.to_string()
    };
    let buf = &mut out.iter_mut().find(|(k, _)| *k == key).unwrap().1;
    let records = buf.len() / stride;
    for r in extras.vertex_base as usize..records {
        let at = r * stride + p.offset as usize;
        let mut lanes = inlay::convert::decode_element(info, &buf[at..at + size]);
        for (l, d) in delta.iter().enumerate() {
            lanes[l] = (f32::from_bits(lanes[l]) + d).to_bits();
        }
        encode_element(format, &lanes, Rounding::Nearest, &mut buf[at..at + size]).unwrap();
    }
    out
}

/// A triangle-list index buffer (`wide`: 32-bit indices) without its degenerate triangles
/// (a vertex twice), which Blender's mesh validation removes: they draw nothing.
fn without_degenerate(ib: &[u8], wide: bool) -> Vec<u8> {
    let size = if wide { 4 } else { 2 };
    let index = |t: &[u8], k: usize| -> u32 {
        let b = &t[k * size..(k + 1) * size];
        if wide {
            u32::from_le_bytes(b.try_into().unwrap())
        } else {
            u16::from_le_bytes(b.try_into().unwrap()) as u32
        }
    };
    ib.chunks(3 * size)
        .filter(|t| {
            t.len() < 3 * size || {
                let (a, b, c) = (index(t, 0), index(t, 1), index(t, 2));
                a != b && b != c && a != c
            }
        })
        .flatten()
        .copied()
        .collect()
}

/// The export's vertex numbers (`_INLAY_VERTEX`) whose NORMAL in `blender` (a ticked
/// export, which keeps the numbers) differs from the one `ours` wrote by more than import's
/// transport tolerance (0.05 per component).
fn changed_normals(ours: &Path, blender: &Path) -> Vec<usize> {
    let read =
        |p: &Path| read_glb("x", &std::fs::read(p).unwrap(), &mut |_| Err("none".into())).unwrap();
    let (a, b) = (read(ours), read(blender));
    let (Some((na, _)), Some((nb, _)), Some((ids, _))) = (
        a.attribute("NORMAL"),
        b.attribute("NORMAL"),
        b.attribute("_INLAY_VERTEX"),
    ) else {
        return Vec::new();
    };
    let mut out: Vec<usize> = nb
        .iter()
        .zip(ids)
        .filter_map(|(n, id)| {
            let id = f32::from_bits(id[0]) as usize;
            let m = na[id];
            (0..3)
                .any(|l| (f32::from_bits(n[l]) - f32::from_bits(m[l])).abs() > 0.05)
                .then_some(id)
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// `want` with what may differ where Blender changed the normals of vertices `ids` taken
/// from `got`: their NORMAL bytes; the records after the export's vertices (copies of
/// those vertices that Blender split with two normals, which import writes as new
/// vertices); and in the index buffer, an index of such a record where `want` has the
/// vertex's own.
fn allow_renormalised(
    want: &mut [(String, Vec<u8>)],
    got: &[(String, Vec<u8>)],
    extras: &InlayExtras,
    ids: &[usize],
) {
    let base = extras.vertex_base as usize;
    let count = extras.vertex_count as usize;
    for ((key, w), (_, g)) in want.iter_mut().zip(got) {
        if key == "ib" {
            let wide = extras.index_format.as_deref() == Some("R32_UINT");
            let size = if wide { 4 } else { 2 };
            if w.len() != g.len() {
                continue;
            }
            for at in (0..w.len()).step_by(size) {
                let read = |b: &[u8]| {
                    b[at..at + size]
                        .iter()
                        .rev()
                        .fold(0usize, |v, &x| v << 8 | x as usize)
                };
                let (wi, gi) = (read(w), read(g));
                if gi >= base + count && wi >= base && ids.contains(&(wi - base)) {
                    w[at..at + size].copy_from_slice(&g[at..at + size]);
                }
            }
            continue;
        }
        let stride = w.len() / (base + count).max(1);
        let extra = g.len().saturating_sub(w.len());
        assert!(
            extra <= ids.len() * stride,
            "{extra} bytes of new records for {} renormalised vertices",
            ids.len()
        );
        w.extend_from_slice(&g[w.len()..]);
    }
    let Some(n) = extras
        .layout
        .iter()
        .find(|e| e.semantic.eq_ignore_ascii_case("NORMAL") && e.index == 0)
    else {
        return;
    };
    let size = n
        .format
        .parse::<Format>()
        .unwrap()
        .info()
        .unwrap()
        .byte_size() as usize;
    let stride = extras
        .slots
        .iter()
        .find(|s| s.slot == n.slot)
        .unwrap()
        .stride as usize;
    let key = if want.len() == 2 {
        want[0].0.clone()
    } else {
        n.slot.to_string()
    };
    let g = &got.iter().find(|(k, _)| *k == key).unwrap().1;
    let w = &mut want.iter_mut().find(|(k, _)| *k == key).unwrap().1;
    for &id in ids {
        let at = (extras.vertex_base as usize + id) * stride + n.offset as usize;
        if at + size <= w.len().min(g.len()) {
            w[at..at + size].copy_from_slice(&g[at..at + size]);
        }
    }
}

#[test]
#[ignore = "Blender test: run by .ci/run (`-- --ignored` with INLAY_BLENDER_PYTHON, a Python with PyPI bpy 4.2)"]
fn blender_round_trips_are_exact() {
    let python = std::env::var_os("INLAY_BLENDER_PYTHON")
        .map(PathBuf::from)
        .expect("INLAY_BLENDER_PYTHON (a Python with PyPI bpy 4.2) is not set (.ci/run sets it)");
    let out = scratch("blender");
    let all = samples(&out);
    let mut glbs = Vec::new();
    let mut references = Vec::new();
    for s in &all {
        let glb = out.join(format!("{}.glb", s.tag));
        let mut args: Vec<&str> = vec!["export"];
        args.extend(s.export.iter().map(String::as_str));
        args.extend(["--output", glb.to_str().unwrap(), "--force"]);
        let r = inlay_in(&out, &args);
        assert_eq!(r.code, 0, "{}", r.transcript);
        if let Some(dir) = std::env::var_os("INLAY_EXPORT_EXAMPLES") {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::copy(&glb, Path::new(&dir).join(format!("blender-{}.glb", s.tag))).unwrap();
        }
        // The direct round trip: the reference, and the capture's own bytes where it has files.
        let direct = format!("{}-direct", s.tag);
        let r = import(&out, &glb, s, &direct);
        assert_eq!(r.code, 0, "{}", r.transcript);
        let reference = buffers(&out.join(&direct));
        for (key, path) in &s.files {
            let got = &reference
                .iter()
                .find(|(k, _)| k == key)
                .unwrap_or_else(|| panic!("{}: no {key} in {reference:?}", s.tag))
                .1;
            assert!(
                *got == std::fs::read(path).unwrap(),
                "{}: the direct round trip differs from {}",
                s.tag,
                path.display()
            );
        }
        let extras = read_glb("x", &std::fs::read(&glb).unwrap(), &mut |_| {
            Err("none".into())
        })
        .unwrap()
        .inlay
        .unwrap();
        glbs.push(glb);
        references.push((reference, extras));
    }
    // Blender, once, over every export.
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.ci/blender-roundtrip.py");
    let run = Command::new(&python)
        .arg(&script)
        .args(&glbs)
        .output()
        .expect("run the Blender script");
    let log =
        String::from_utf8_lossy(&run.stdout).to_string() + &String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "Blender round trips failed:\n{log}");
    // Blender's axes (0.0625, -0.125, 0.03125) are glTF's (0.0625, 0.03125, 0.125).
    let delta = [0.0625f32, 0.03125, 0.125];
    let mut report = Vec::new();
    for ((s, (reference, extras)), glb) in all.iter().zip(&references).zip(&glbs) {
        // The skin's joints became Blender's vertex groups, named by blend index.
        let exported = read_glb("x", &std::fs::read(glb).unwrap(), &mut |_| {
            Err("none".into())
        })
        .unwrap();
        let mut joints: Vec<String> = exported
            .joints
            .iter()
            .flatten()
            .map(|j| j.expect("joints are named by blend index").to_string())
            .collect();
        joints.sort();
        let groups = std::fs::read_to_string(glb.with_extension("groups.txt")).unwrap();
        let groups: Vec<&str> = groups.lines().collect();
        assert_eq!(groups, joints, "{}: Blender's vertex groups", s.tag);
        if !joints.is_empty() {
            report.push(format!(
                "{}: {} vertex groups in Blender",
                s.tag,
                joints.len()
            ));
        }
        // The vertices whose normal Blender itself changed when they moved (faces the move's
        // binary32 rounding made degenerate: their custom normals cannot be kept); import
        // takes those as edited, so their NORMAL bytes are the one allowed difference.
        let renormalised = changed_normals(glb, &glb.with_extension("moved.glb"));
        for variant in ["ticked", "default", "moved", "moved-default"] {
            let mesh = out.join(format!("{}.{variant}.glb", s.tag));
            let into = format!("{}-{variant}", s.tag);
            let r = import(&out, &mesh, s, &into);
            let exact = variant == "ticked" || variant == "moved" || s.capture;
            if !exact {
                // Another layout, the copies dropped: the elements glTF holds nowhere are named.
                assert_eq!(r.code, 1, "{} {variant}: {}", s.tag, r.transcript);
                assert!(
                    r.stderr.contains("no value for") && r.stderr.contains("--allow-missing"),
                    "{} {variant}: {}",
                    s.tag,
                    r.transcript
                );
                report.push(format!("{} {variant}: refused, naming the elements", s.tag));
                continue;
            }
            assert_eq!(r.code, 0, "{} {variant}: {}", s.tag, r.transcript);
            let mut want = if variant.starts_with("moved") {
                moved(reference, extras, delta)
            } else {
                reference.clone()
            };
            if extras.topology == "triangle_list"
                && let Some(ib) = want.iter_mut().find(|b| b.0 == "ib")
            {
                let wide = extras.index_format.as_deref() == Some("R32_UINT");
                ib.1 = without_degenerate(&ib.1, wide);
            }
            let got = buffers(&out.join(&into));
            assert_eq!(
                got.iter().map(|b| &b.0).collect::<Vec<_>>(),
                want.iter().map(|b| &b.0).collect::<Vec<_>>(),
                "{} {variant}: {}",
                s.tag,
                r.transcript
            );
            if variant.starts_with("moved") && !renormalised.is_empty() {
                allow_renormalised(&mut want, &got, extras, &renormalised);
                report.push(format!(
                    "{} {variant}: {} of {} normals changed by Blender on moving (allowed)",
                    s.tag,
                    renormalised.len(),
                    extras.vertex_count
                ));
                assert!(
                    renormalised.len() * 1000 <= extras.vertex_count as usize,
                    "{}: Blender changed {} normals",
                    s.tag,
                    renormalised.len()
                );
            }
            for ((key, g), (_, w)) in got.iter().zip(&want) {
                if g != w {
                    let first = g.iter().zip(w).position(|(a, b)| a != b);
                    panic!(
                        "{} {variant}: {key} differs ({} vs {} bytes, first at {first:?})\n{}",
                        s.tag,
                        g.len(),
                        w.len(),
                        r.transcript
                    );
                }
            }
            report.push(format!("{} {variant}: byte-identical", s.tag));
        }
    }
    println!("{}", report.join("\n"));
}
