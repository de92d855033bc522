//! Finished 3DMigoto mods read as parts: synthetic mods written here that use every construct
//! the reader supports (sections, includes, namespaces, conditions, pre/post, keys, CRLF, a
//! BOM, Windows paths, case-insensitive keys), the bad inputs the reader must name, the
//! write-back, and Mona.ini from the shared dumps when present.

use std::path::{Path, PathBuf};

use inlay::migoto_mod::writeback::{ComponentEdit, Edits, RangeKey, write_back};
use inlay::migoto_mod::{Mod, ModOptions};

/// A fresh folder for one test.
fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("inlay-mod-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn f32s(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn u32s(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Four vertices in GIMI's split: Position (40 bytes), Blend (32), Texcoord (12).
fn buffers(n: usize) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    let (mut p, mut b, mut t) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..n {
        let x = i as f32;
        p.extend(f32s(&[x, x * 2.0, -x, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0]));
        b.extend(f32s(&[1.0, 0.0, 0.0, 0.0]));
        b.extend(u32s(&[i as u32, 0, 0, 0]));
        t.extend([10 * i as u8, 20, 30, 255]);
        t.extend(f32s(&[x / 4.0, 1.0 - x / 4.0]));
    }
    (p, b, t)
}

/// The synthetic mod: every construct, CRLF line ends, a BOM, Windows paths.
const MAIN: &str = "\u{feff}; synthetic mod written by inlay's tests\n\
[Constants]\n\
global persist $swapvar = 0\n\
global $active = 0\n\
global $count = 3\n\
\n\
[Present]\n\
post $active = 0\n\
\n\
[KeySwap]\n\
key = VK_F6\n\
type = cycle\n\
$swapvar = 0,1\n\
\n\
[Include]\n\
include = extra.ini\n\
\n\
; Overrides -------\n\
[TextureOverrideBodyPosition]\n\
HASH = 11111111\n\
VB0 = ResourceBodyPosition\n\
$active = 1\n\
\n\
[TextureOverrideBodyBlend]\n\
hash = 22222222\n\
handling = skip\n\
pre vb1 = ResourceBodyBlend\n\
draw = 4, 0\n\
\n\
[TextureOverrideBodyTexcoord]\n\
hash = 33333333\n\
vb1 = ResourceBodyTexcoord\n\
\n\
[TextureOverrideBodyVertexLimitRaise]\n\
hash = 44444444\n\
override_vertex_count = 4\n\
override_byte_stride = 40\n\
\n\
[TextureOverrideBodyIB]\n\
hash = 55555555\n\
handling = skip\n\
\n\
[TextureOverrideBodyA]\n\
hash = 55555555\n\
match_first_index = 0\n\
ib = ResourceBodyIB\n\
ps-t0 = ResourceBodyDiffuse\n\
if $swapvar == 0 && ($active == 1 || $count >= 3)\n\
    ; Shirt (3)\n\
    DrawIndexed = 3, 0, 0\n\
else\n\
    run = CommandListAlt\n\
endif\n\
run = CommandList\\extra.ini\\Extra\n\
\n\
[CommandListAlt]\n\
drawindexed = 3, 3, 0\n\
\n\
[ResourceBodyPosition]\n\
type = Buffer\n\
stride = 40\n\
filename = Meshes\\BodyPosition.buf\n\
\n\
[ResourceBodyBlend]\n\
type = Buffer\n\
stride = 32\n\
filename = Meshes\\BodyBlend.buf\n\
\n\
[ResourceBodyTexcoord]\n\
type = Buffer\n\
stride = 12\n\
filename = Meshes\\BodyTexcoord.buf\n\
\n\
[ResourceBodyIB]\n\
type = Buffer\n\
format = DXGI_FORMAT_R32_UINT\n\
filename = Meshes\\BodyA.ib\n\
\n\
[ResourceBodyDiffuse]\n\
filename = Textures\\BodyDiffuse.dds\n";

/// The included file: a namespace of its own, a global of its own, a command list.
const EXTRA: &str = "namespace = extra.ini\n\
[Constants]\n\
global $extra = 2\n\
[CommandListExtra]\n\
if $extra == 2\n\
  x = 1\n\
endif\n";

fn write_mod(d: &Path, main: &str, n: usize, ib: &[u32]) -> PathBuf {
    std::fs::create_dir_all(d.join("Meshes")).unwrap();
    std::fs::create_dir_all(d.join("Textures")).unwrap();
    let (p, b, t) = buffers(n);
    std::fs::write(d.join("Meshes/BodyPosition.buf"), p).unwrap();
    std::fs::write(d.join("Meshes/BodyBlend.buf"), b).unwrap();
    std::fs::write(d.join("Meshes/BodyTexcoord.buf"), t).unwrap();
    std::fs::write(d.join("Meshes/BodyA.ib"), u32s(ib)).unwrap();
    std::fs::write(d.join("Textures/BodyDiffuse.dds"), b"DDS fake").unwrap();
    std::fs::write(d.join("extra.ini"), EXTRA.replace('\n', "\r\n")).unwrap();
    let ini = d.join("Mod.ini");
    std::fs::write(&ini, main.replace('\n', "\r\n")).unwrap();
    ini
}

fn load(ini: &Path, set: &[(&str, f32)]) -> Mod {
    let options = ModOptions {
        set: set.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
        ..ModOptions::default()
    };
    Mod::load(ini, &options).unwrap()
}

#[test]
fn every_construct_default_state() {
    let d = dir("constructs");
    let ini = write_mod(&d, MAIN, 4, &[0, 1, 2, 1, 2, 3]);
    let m = load(&ini, &[]);
    let w: Vec<String> = m.warnings.iter().map(|w| w.to_string()).collect();
    assert!(w.is_empty(), "{w:#?}");
    assert_eq!(m.ini.files.len(), 2);
    assert_eq!(m.ini.files[1].namespace, "extra.ini");
    let vars: Vec<&str> = m.variables.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(
        vars,
        ["$swapvar", "$active", "$count", "$\\extra.ini\\extra"]
    );
    assert!(m.variables[0].persist);
    assert_eq!(m.profile.name.as_deref(), Some("GIMI"));
    assert_eq!(m.components.len(), 1);
    let c = &m.components[0];
    assert_eq!(c.name, "Body");
    assert_eq!(c.vertex_count, 4);
    let roles: Vec<(&str, Option<&str>, u32)> = c
        .streams
        .iter()
        .map(|s| {
            (
                m.resources[s.resource].name.as_str(),
                s.slot.as_deref(),
                s.stride,
            )
        })
        .collect();
    assert_eq!(
        roles,
        [
            ("ResourceBodyPosition", Some("vb0"), 40),
            ("ResourceBodyBlend", Some("vb1"), 32),
            ("ResourceBodyTexcoord", Some("vb1"), 12)
        ]
    );
    // The part and the skinning pass.
    let names: Vec<(&str, bool)> = m
        .parts
        .iter()
        .map(|p| (p.name.as_str(), p.export))
        .collect();
    assert_eq!(
        names,
        [
            ("TextureOverrideBodyBlend", false),
            ("TextureOverrideBodyA", true)
        ]
    );
    let a = &m.parts[1];
    assert_eq!(
        (a.start, a.count, a.base_vertex, a.indexed),
        (0, 3, 0, true)
    );
    assert_eq!(
        a.conditions,
        ["$swapvar == 0 && ($active == 1 || $count >= 3)"]
    );
    assert_eq!(a.vertex_range, Some((0, 2)));
    assert_eq!(a.at.to_string(), format!("{}:50", ini.display()));
    assert_eq!(
        a.textures,
        [("ps-t0".to_string(), "ResourceBodyDiffuse".to_string())]
    );
    assert_eq!(a.hash, Some(0x55555555));
    assert_eq!(a.match_first_index, Some(0));
    assert_eq!(m.parts[0].count, 4);
    // Toggle states.
    let states = m.states().unwrap();
    let s: Vec<String> = states.iter().map(|s| s.to_string()).collect();
    assert_eq!(s, ["$swapvar=0", "$swapvar=1"]);
    assert_eq!(m.toggles[0].keys, ["VK_F6"]);
}

#[test]
fn another_state_through_a_command_list() {
    let d = dir("state");
    let ini = write_mod(&d, MAIN, 4, &[0, 1, 2, 1, 2, 3]);
    let m = load(&ini, &[("$swapvar", 1.0)]);
    let a = m.parts.iter().find(|p| p.export).unwrap();
    assert_eq!(a.name, "TextureOverrideBodyA");
    assert_eq!((a.start, a.count), (3, 3));
    assert_eq!(a.conditions, ["else"]);
    assert_eq!(a.vertex_range, Some((1, 3)));
    assert_eq!(a.section, "CommandListAlt");
    // The same through with_state.
    let m0 = load(&ini, &[]);
    let s1 = &m0.states().unwrap()[1];
    let m1 = m0.with_state(s1);
    assert_eq!(m1.parts, m.parts);
    // --set of an undeclared variable is refused.
    let e = Mod::load(
        &ini,
        &ModOptions {
            set: vec![("$nothere".into(), 1.0)],
            ..ModOptions::default()
        },
    )
    .unwrap_err();
    assert!(
        e.to_string()
            .contains("--set names a variable the mod does not declare"),
        "{e}"
    );
    assert!(e.to_string().ends_with("(`$nothere`)"), "{e}");
}

#[test]
fn unedited_write_back_is_byte_identical() {
    let d = dir("identical");
    let ini = write_mod(&d, MAIN, 4, &[0, 1, 2, 1, 2, 3]);
    let m = load(&ini, &[]);
    let states: Vec<Mod> = m
        .states()
        .unwrap()
        .iter()
        .map(|s| m.with_state(s))
        .collect();
    let w = write_back(&m, &states, &Edits::default()).unwrap();
    let names: Vec<&str> = w.files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "Mod.ini",
            "extra.ini",
            "Meshes/BodyPosition.buf",
            "Meshes/BodyBlend.buf",
            "Meshes/BodyTexcoord.buf",
            "Meshes/BodyA.ib",
            "Textures/BodyDiffuse.dds"
        ]
    );
    for f in &w.files {
        assert!(!f.changed, "{}", f.name);
        assert_eq!(
            f.bytes,
            std::fs::read(d.join(&f.name)).unwrap(),
            "{}",
            f.name
        );
    }
}

#[test]
fn edits_rewrite_counts_in_place() {
    let d = dir("edits");
    let ini = write_mod(&d, MAIN, 4, &[0, 1, 2, 1, 2, 3]);
    let m = load(&ini, &[]);
    let states: Vec<Mod> = m
        .states()
        .unwrap()
        .iter()
        .map(|s| m.with_state(s))
        .collect();
    // A fifth vertex; the first part grows to two triangles, the second keeps its indices.
    let (p, b, t) = buffers(5);
    let c = &m.components[0];
    let edit = ComponentEdit {
        component: 0,
        buffers: vec![
            (c.streams[0].resource, p.clone()),
            (c.streams[1].resource, b),
            (c.streams[2].resource, t),
        ],
        vertex_count: 5,
        ranges: vec![(
            RangeKey {
                ib: m.parts[1].index_buffer.unwrap(),
                start: 0,
                count: 3,
                base: 0,
            },
            vec![0, 1, 2, 2, 3, 4],
        )],
    };
    let w = write_back(
        &m,
        &states,
        &Edits {
            components: vec![edit],
        },
    )
    .unwrap();
    let edits: Vec<(String, String, String)> = w
        .ini_edits
        .iter()
        .map(|(a, o, n)| {
            (
                a.rsplit(':').next().unwrap().to_string(),
                o.clone(),
                n.clone(),
            )
        })
        .collect();
    assert_eq!(
        edits,
        [
            ("28".to_string(), "4".to_string(), "5".to_string()), // draw = 4, 0
            ("36".to_string(), "4".to_string(), "5".to_string()), // override_vertex_count
            ("50".to_string(), "3".to_string(), "6".to_string()), // DrawIndexed count
            ("57".to_string(), "3".to_string(), "6".to_string()), // the other state's start
        ]
    );
    let original = MAIN.replace('\n', "\r\n");
    let expected = original
        .replace("draw = 4, 0", "draw = 5, 0")
        .replace("override_vertex_count = 4", "override_vertex_count = 5")
        .replace("DrawIndexed = 3, 0, 0", "DrawIndexed = 6, 0, 0")
        .replace("drawindexed = 3, 3, 0", "drawindexed = 3, 6, 0");
    assert_eq!(
        String::from_utf8(w.files[0].bytes.clone()).unwrap(),
        expected
    );
    let ib = w
        .files
        .iter()
        .find(|f| f.name == "Meshes/BodyA.ib")
        .unwrap();
    assert_eq!(ib.bytes, u32s(&[0, 1, 2, 2, 3, 4, 1, 2, 3]));
    let pos = w
        .files
        .iter()
        .find(|f| f.name == "Meshes/BodyPosition.buf")
        .unwrap();
    assert_eq!(pos.bytes, p);
    assert!(!w.files[1].changed, "the included file is unchanged");
}

#[test]
fn bad_inputs_name_file_line_and_value() {
    let d = dir("bad");
    // Index past the vertices, a run cycle, a condition on an undeclared variable, a missing
    // file, an unknown key.
    let main = MAIN
        .replace(
            "drawindexed = 3, 3, 0",
            "drawindexed = 3, 3, 0\nrun = CommandListLoop",
        )
        .replace(
            "[ResourceBodyPosition]",
            "[CommandListLoop]\nrun = CommandListAlt\n[ResourceBodyPosition]",
        )
        .replace(
            "[CommandListAlt]",
            "[CommandListAlt]\nif $nothere == 1\nbogus_key = 3\nendif",
        )
        .replace("Textures\\BodyDiffuse.dds", "Textures\\Missing.dds");
    let ini = write_mod(&d, &main, 4, &[0, 1, 9, 1, 2, 3]);
    let m = load(&ini, &[("$swapvar", 1.0)]);
    let w: Vec<String> = m.warnings.iter().map(|w| w.to_string()).collect();
    let name = ini.display().to_string();
    let has = |s: &str| assert!(w.iter().any(|x| x.contains(s)), "`{s}` not in {w:#?}");
    has(&format!(
        "{name}:58: not understood in [CommandListAlt]; ignored (`bogus_key = 3`)"
    ));
    has(&format!("{name}:57: undeclared variable"));
    has("(`$nothere`)");
    has("`run` cycle: [CommandListAlt]");
    has("[CommandListLoop]");
    has(&format!("{name}:"));
    has("[ResourceBodyDiffuse]: file not found (`Textures\\Missing.dds`)");
    // State 0 draws indices 0..3, which read vertex 9 of 4.
    let m0 = load(&ini, &[]);
    let a = m0.parts.iter().find(|p| p.export).unwrap();
    assert_eq!(
        a.problem.as_deref(),
        Some(
            "ResourceBodyIB (Meshes\\BodyA.ib): index 9 at position 2 (+ base vertex 0) is past the 4 vertices of component Body"
        )
    );
    assert!(
        m0.part_input(m0.parts.iter().position(|p| p.export).unwrap())
            .is_err()
    );
}

#[test]
fn stride_not_dividing_the_file_and_missing_buffers() {
    let d = dir("stride");
    let ini = write_mod(&d, MAIN, 4, &[0, 1, 2, 1, 2, 3]);
    std::fs::write(d.join("Meshes/BodyBlend.buf"), vec![0u8; 4 * 32 + 5]).unwrap();
    let m = load(&ini, &[]);
    let p = m.components[0].problem.as_deref().unwrap_or("");
    assert!(
        p.contains("ResourceBodyBlend (Meshes\\BodyBlend.buf): 133 bytes is not a whole number of 32-byte records"),
        "{p}"
    );
    std::fs::remove_file(d.join("Meshes/BodyTexcoord.buf")).unwrap();
    let m = load(&ini, &[]);
    let w: Vec<String> = m.warnings.iter().map(|w| w.to_string()).collect();
    assert!(
        w.iter().any(|x| x
            == &format!(
                "{}:72: [ResourceBodyTexcoord]: file not found (`Meshes\\BodyTexcoord.buf`)",
                ini.display()
            )),
        "{w:#?}"
    );
    let prob = m
        .parts
        .iter()
        .find(|p| p.export)
        .unwrap()
        .problem
        .clone()
        .unwrap();
    assert!(
        prob.contains("cannot read Meshes\\BodyTexcoord.buf"),
        "{prob}"
    );
}

#[test]
fn a_profile_that_does_not_fit_names_the_buffer() {
    let d = dir("profile");
    let ini = write_mod(&d, MAIN, 4, &[0, 1, 2, 1, 2, 3]);
    let m = Mod::load(
        &ini,
        &ModOptions {
            profile: Some("WWMI".into()),
            ..ModOptions::default()
        },
    )
    .unwrap();
    let p = m.components[0].problem.clone().unwrap();
    assert!(p.starts_with("ResourceBody"), "{p}");
    assert!(
        p.contains("profile WWMI has no buffer named like it"),
        "{p}"
    );
}

#[test]
fn detection_refuses_to_choose_between_disagreeing_profiles() {
    let d = dir("ambiguous");
    // Blend on vb2 (ZZMI and SRMI both do that), Texcoord on vb1 (GIMI does), no namespace
    // evidence: one shape rule each, and their Blend rows disagree (BLENDWEIGHT(S), UINT/SINT).
    let main = MAIN.replace("pre vb1 = ResourceBodyBlend", "vb2 = ResourceBodyBlend");
    let ini = write_mod(&d, &main, 4, &[0, 1, 2, 1, 2, 3]);
    let m = load(&ini, &[]);
    assert_eq!(m.profile.name, None);
    let last = m.profile.evidence.last().unwrap();
    assert_eq!(
        last,
        "GIMI, SRMI, ZZMI fit and disagree about the formats: not choosing (use --profile NAME)"
    );
    assert!(m.components[0].problem.is_some());
    // Naming one settles it.
    let m = Mod::load(
        &ini,
        &ModOptions {
            profile: Some("zzmi".into()),
            ..ModOptions::default()
        },
    )
    .unwrap();
    assert_eq!(m.profile.name.as_deref(), Some("ZZMI"));
    assert!(m.components[0].problem.is_none());
    assert_eq!(
        m.components[0].streams[1].elements[0]
            .semantic_name
            .as_deref(),
        Some("BLENDWEIGHTS")
    );
}

#[test]
fn a_huge_ini_is_refused_before_reading() {
    let d = dir("huge");
    let ini = d.join("Huge.ini");
    let f = std::fs::File::create(&ini).unwrap();
    f.set_len(100 << 20).unwrap();
    let e = Mod::load(&ini, &ModOptions::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{}: the INI file is 104857600 bytes, larger than the 8388608-byte limit of a mod INI (`104857600`)",
            ini.display()
        )
    );
}

#[test]
fn ini_text_in_memory_never_panics_on_garbage() {
    for text in [
        &b"[TextureOverrideX]\nhash = zz\nif ((((\nendif\nendif\nelse\n"[..],
        b"\xff\xfe[bad utf16",
        b"[CommandListA]\nrun = CommandListA\n[Present]\nrun = CommandListA\n",
        b"[Key1]\n$x = 1,2,3\n[Constants]\nglobal $x\nglobal $x\n",
        b"[TextureOverrideA]\nhash=1\nib = ResourceIB\ndrawindexed = 1,2\ndrawindexed = a,b,c\n[ResourceIB]\nformat = R16_UINT\n",
    ] {
        let r = Mod::parse_bytes("t.ini", text, &ModOptions::default());
        if let Ok(m) = r {
            for w in &m.warnings {
                assert!(w.to_string().starts_with("t.ini"), "{w}");
            }
        }
    }
}

#[path = "../testenv/test_side.rs"]
mod testenv;

fn shared_mona() -> PathBuf {
    testenv::dumps().join("SilentNightSound+GI-Model-Importer/Examples/MonaHatless/Mona.ini")
}

#[test]
#[cfg_attr(
    not(inlay_has_dumps),
    ignore = "needs the shared dumps: ../shared/dumps or $INLAY_SHARED"
)]
fn mona() {
    let p = shared_mona();
    let m = Mod::load(&p, &ModOptions::default()).unwrap();
    assert_eq!(m.profile.name.as_deref(), Some("GIMI"));
    assert_eq!(m.components.len(), 1);
    assert_eq!(m.components[0].vertex_count, 12991);
    type Row<'a> = (&'a str, u32, u32, Option<(u32, u32)>);
    let parts: Vec<Row<'_>> = m
        .parts
        .iter()
        .map(|p| (p.name.as_str(), p.start, p.count, p.vertex_range))
        .collect();
    assert_eq!(
        parts,
        [
            ("TextureOverrideMonaHead", 0, 17688, Some((0, 4143))),
            ("TextureOverrideMonaBody", 17688, 35814, Some((4144, 12990)))
        ]
    );
    // The texture files are not in the sample: one warning each, naming the line.
    let w: Vec<String> = m.warnings.iter().map(|w| w.to_string()).collect();
    assert_eq!(w.len(), 4, "{w:#?}");
    assert!(w[0].ends_with(
        "Mona.ini:56: [ResourceMonaHeadDiffuse]: file not found (`MonaHeadDiffuse.dds`)"
    ));
    let w = write_back(&m, &[], &Edits::default()).unwrap();
    for f in &w.files {
        assert!(!f.changed);
    }
}

/// (semantic, format, offset) of a stream's elements.
fn elements_of(s: &inlay::migoto_mod::Stream) -> Vec<(String, String, u32)> {
    s.elements
        .iter()
        .map(|e| {
            (
                e.semantic_name.clone().unwrap_or_default(),
                e.format.to_string(),
                e.aligned_byte_offset,
            )
        })
        .collect()
}

#[test]
fn a_fmt_beside_the_mod_and_layout_overrides_come_before_the_profile() {
    use inlay::element::InputElementDesc;
    use inlay::format::Format;
    use inlay::migoto_mod::LayoutOverride;
    let d = dir("beside-fmt");
    let ini = write_mod(&d, MAIN, 4, &[0, 1, 2, 1, 2, 3]);
    // The merged record (40 + 32 + 12 bytes) with the Texcoord buffer's two elements swapped
    // against the GIMI profile: the .fmt wins and is split at the buffers' strides.
    let el = |name: &str, format: &str, offset: u32| {
        format!(
            "element[{name}]:\n  SemanticName: {}\n  SemanticIndex: 0\n  Format: {format}\n  \
             InputSlot: 0\n  AlignedByteOffset: {offset}\n  InputSlotClass: per-vertex\n  \
             InstanceDataStepRate: 0\n",
            name.split(':').next().unwrap()
        )
    };
    let mut fmt =
        String::from("stride: 84\ntopology: trianglelist\nformat: DXGI_FORMAT_R32_UINT\n");
    for (i, (s, f, o)) in [
        ("POSITION", "R32G32B32_FLOAT", 0),
        ("NORMAL", "R32G32B32_FLOAT", 12),
        ("TANGENT", "R32G32B32A32_FLOAT", 24),
        ("BLENDWEIGHT", "R32G32B32A32_FLOAT", 40),
        ("BLENDINDICES", "R32G32B32A32_SINT", 56),
        ("TEXCOORD", "R32G32_FLOAT", 72),
        ("COLOR", "R8G8B8A8_UNORM", 80),
    ]
    .into_iter()
    .enumerate()
    {
        fmt += &el(s, f, o).replace(&format!("element[{s}]"), &format!("element[{i}]"));
    }
    std::fs::write(d.join("Body.fmt"), fmt).unwrap();
    let m = load(&ini, &[]);
    let tex = m.components[0]
        .streams
        .iter()
        .find(|s| s.role.as_deref() == Some("Texcoord"))
        .unwrap();
    assert_eq!(
        elements_of(tex),
        [
            ("TEXCOORD".into(), "R32G32_FLOAT".into(), 0),
            ("COLOR".into(), "R8G8B8A8_UNORM".into(), 8)
        ]
    );
    assert!(tex.source.contains("Body.fmt"), "{}", tex.source);
    // --layout Texcoord=FILE: above the .fmt, for that buffer only.
    let e = |s: &str, f: Format, o: u32| InputElementDesc {
        semantic_name: Some(s.into()),
        semantic_index: 0,
        format: f,
        input_slot: 0,
        aligned_byte_offset: o,
        input_slot_class: 0,
        instance_data_step_rate: 0,
    };
    let options = ModOptions {
        layouts: vec![LayoutOverride {
            target: "Texcoord".into(),
            elements: vec![
                e("TEXCOORD", Format::R16G16_FLOAT, 0),
                e("TEXCOORD1", Format::R16G16_FLOAT, 4),
                e("COLOR", Format::R8G8B8A8_UNORM, 8),
            ],
            stride: Some(12),
            source: "tex.json".into(),
        }],
        ..ModOptions::default()
    };
    let m = Mod::load(&ini, &options).unwrap();
    let c = &m.components[0];
    let tex = c
        .streams
        .iter()
        .find(|s| s.role.as_deref() == Some("Texcoord"))
        .unwrap();
    assert_eq!(
        elements_of(tex),
        [
            ("TEXCOORD".into(), "R16G16_FLOAT".into(), 0),
            ("TEXCOORD1".into(), "R16G16_FLOAT".into(), 4),
            ("COLOR".into(), "R8G8B8A8_UNORM".into(), 8)
        ]
    );
    assert!(tex.source.contains("tex.json"), "{}", tex.source);
    let pos = c
        .streams
        .iter()
        .find(|s| s.role.as_deref() == Some("Position"))
        .unwrap();
    assert!(pos.source.contains("Body.fmt"), "{}", pos.source);
    let _ = std::fs::remove_dir_all(&d);
}
