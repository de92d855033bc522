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

/// A mod whose included INI and one buffer are named pipes (and one buffer a link to a
/// device): read to the end with the pipes refused by type, never opened, on a thread the test
/// gives 60 s (an opened pipe would wait for a writer forever).
#[cfg(unix)]
#[test]
fn pipes_and_devices_in_a_mod_are_refused_not_opened() {
    let d = dir("fifo");
    let ini = write_mod(&d, MAIN, 4, &[0, 1, 2, 1, 2, 3]);
    let mkfifo = |p: &Path| {
        std::fs::remove_file(p).unwrap();
        assert!(
            std::process::Command::new("mkfifo")
                .arg(p)
                .status()
                .unwrap()
                .success()
        );
    };
    mkfifo(&d.join("extra.ini"));
    mkfifo(&d.join("Meshes/BodyTexcoord.buf"));
    std::fs::remove_file(d.join("Meshes/BodyBlend.buf")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", d.join("Meshes/BodyBlend.buf")).unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let path = ini.clone();
    std::thread::spawn(move || {
        let _ = tx.send(Mod::load(&path, &ModOptions::default()).map(|m| {
            let mut said: Vec<String> = m.warnings.iter().map(|w| w.to_string()).collect();
            said.extend(m.components.iter().filter_map(|c| c.problem.clone()));
            said.extend(m.parts.iter().filter_map(|p| p.problem.clone()));
            said
        }));
    });
    let said = rx
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("the mod reader returns (it opened a pipe?)");
    let text = match said {
        Ok(said) => said.join("\n"),
        Err(e) => e.to_string(),
    };
    assert!(
        text.contains("included file not read: refusing to read: it is a named pipe (FIFO)"),
        "{text}"
    );
    assert!(
        text.contains("[ResourceBodyTexcoord]: a named pipe (FIFO), not a file; not read"),
        "{text}"
    );
    assert!(
        text.contains("[ResourceBodyBlend]: a device, not a file; not read"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&d);
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

/// A 3DMigoto layout block (`element[i]:` and its fields) for a header.
fn element_block(i: usize, semantic: &str, index: u32, format: &str, offset: u32) -> String {
    format!(
        "element[{i}]:\n  SemanticName: {semantic}\n  SemanticIndex: {index}\n  Format: {format}\n  \
         InputSlot: 0\n  AlignedByteOffset: {offset}\n  InputSlotClass: per-vertex\n  \
         InstanceDataStepRate: 0\n"
    )
}

/// The GIMI-merged record of the synthetic mod (40 + 32 + 12 bytes) with the Texcoord
/// buffer's two elements swapped against the GIMI profile.
fn body_fmt() -> String {
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
        fmt += &element_block(i, s, 0, f, o);
    }
    fmt
}

/// The collect script's `hash.json` for the synthetic mod: component Body, part A, the
/// hashes its INI overrides.
const HASH_JSON: &str = r#"[
    {
        "component_name": "Body",
        "root_vs": "e8425f64cfb887cd",
        "draw_vb": "44444444",
        "position_vb": "11111111",
        "blend_vb": "22222222",
        "texcoord_vb": "33333333",
        "ib": "55555555",
        "object_indexes": [0],
        "object_classifications": ["A"],
        "texture_hashes": [[["Diffuse", ".dds", "66666666"]]]
    }
]"#;

/// The vb text dump beside `hash.json` (header, then data lines that are not read): formats
/// the GIMI profile would never choose, with the same 40 + 32 + 12 split. TEXCOORD comes
/// before COLOR in the dump, so the Texcoord buffer holds them in that order.
fn body_dump() -> String {
    let mut t =
        String::from("stride: 84\nfirst vertex: 0\nvertex count: 4\ntopology: trianglelist\n");
    for (i, (s, n, f, o)) in [
        ("POSITION", 0, "R32G32B32A32_FLOAT", 0),
        ("NORMAL", 0, "R32G32B32A32_FLOAT", 16),
        ("TANGENT", 0, "R16G16B16A16_FLOAT", 32),
        ("BLENDWEIGHTS", 0, "R16G16B16A16_UNORM", 40),
        ("BLENDINDICES", 0, "R32G32B32A32_UINT", 48),
        ("BLENDINDICES", 1, "R16G16B16A16_UINT", 64),
        ("TEXCOORD", 0, "R16G16_UNORM", 72),
        ("COLOR", 0, "R8G8B8A8_SNORM", 76),
        ("TEXCOORD", 1, "R16G16_FLOAT", 80),
    ]
    .into_iter()
    .enumerate()
    {
        t += &element_block(i, s, n, f, o);
    }
    t + "\nvb0[0]+000 POSITION: not, read\n"
}

/// The stream of `role` in the mod's only component.
fn stream<'m>(m: &'m Mod, role: &str) -> &'m inlay::migoto_mod::Stream {
    m.components[0]
        .streams
        .iter()
        .find(|s| s.role.as_deref() == Some(role))
        .unwrap_or_else(|| panic!("no {role} stream: {:?}", m.components[0].problem))
}

/// The register lanes of attribute `semantic`/`index` of vertex `element` of the exported part.
fn lanes(m: &Mod, semantic: &str, index: u32, element: u32) -> [u32; 4] {
    use inlay::mesh::{Mesh, MeshOptions};
    let part = m.parts.iter().position(|p| p.export).unwrap();
    let mesh = Mesh::from_capture(&m.part_capture(part).unwrap(), &MeshOptions::default()).unwrap();
    let v = match &mesh.vertex_elements {
        Some(list) => list.iter().position(|&e| e == element).unwrap(),
        None => (element - mesh.vertex_base) as usize,
    };
    let a = mesh
        .attributes
        .iter()
        .find(|a| a.semantic == semantic && a.semantic_index == index)
        .unwrap_or_else(|| panic!("no {semantic}{index}"));
    a.values[v]
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

#[test]
fn hash_json_and_its_dump_give_the_formats() {
    let d = dir("hash-json");
    let ini = write_mod(&d, MAIN, 4, &[0, 1, 2, 1, 2, 3]);
    std::fs::write(d.join("hash.json"), HASH_JSON).unwrap();
    std::fs::write(d.join("ModBodyA-vb0=11111111.txt"), body_dump()).unwrap();
    let m = load(&ini, &[]);
    assert_eq!(m.components[0].problem, None);
    assert_eq!(m.components[0].name, "Body");
    // No profile is needed: every buffer's layout comes from hash.json and its dump.
    assert_eq!(m.profile.name, None);
    assert_eq!(
        m.profile.evidence,
        ["every buffer's layout comes from the files beside the mod or --layout"]
    );
    let pos = stream(&m, "Position");
    assert_eq!(
        elements_of(pos),
        [
            ("POSITION".into(), "R32G32B32A32_FLOAT".into(), 0),
            ("NORMAL".into(), "R32G32B32A32_FLOAT".into(), 16),
            ("TANGENT".into(), "R16G16B16A16_FLOAT".into(), 32)
        ]
    );
    assert!(
        pos.source.starts_with(
            "hash.json component Body with its layout ModBodyA-vb0=11111111.txt (Position of its split"
        ),
        "{}",
        pos.source
    );
    assert_eq!(
        elements_of(stream(&m, "Blend")),
        [
            ("BLENDWEIGHTS".into(), "R16G16B16A16_UNORM".into(), 0),
            ("BLENDINDICES".into(), "R32G32B32A32_UINT".into(), 8),
            ("BLENDINDICES".into(), "R16G16B16A16_UINT".into(), 24)
        ]
    );
    assert_eq!(
        elements_of(stream(&m, "Texcoord")),
        [
            ("TEXCOORD".into(), "R16G16_UNORM".into(), 0),
            ("COLOR".into(), "R8G8B8A8_SNORM".into(), 4),
            ("TEXCOORD".into(), "R16G16_FLOAT".into(), 8)
        ]
    );
    // Vertex 1 decoded through those formats. Its bytes (written by `buffers`): Position
    // f32 [1, 2, -1, 0, 1, 0, 1, 0, 0, 1]; Blend f32 [1, 0, 0, 0] u32 [1, 0, 0, 0]; Texcoord
    // u8 [10, 20, 30, 255] f32 [0.25, 0.75].
    assert_eq!(
        lanes(&m, "POSITION", 0, 1),
        [f(1.0), f(2.0), f(-1.0), f(0.0)]
    );
    assert_eq!(lanes(&m, "NORMAL", 0, 1), [f(1.0), f(0.0), f(1.0), f(0.0)]);
    // f32 0.0 and 1.0 (0x3F800000) read as four halves: 0, 0, 0x0000, 0x3F80 = 1.875.
    assert_eq!(
        lanes(&m, "TANGENT", 0, 1),
        [f(0.0), f(0.0), f(0.0), f(1.875)]
    );
    // f32 1.0 then 0.0 as four UNORM16: 0x0000, 0x3F80 = 16256, 0, 0.
    assert_eq!(
        lanes(&m, "BLENDWEIGHTS", 0, 1),
        [f(0.0), f(16256.0 / 65535.0), f(0.0), f(0.0)]
    );
    // Bytes 8..24 of the Blend record: f32 0, 0, u32 1, 0.
    assert_eq!(lanes(&m, "BLENDINDICES", 0, 1), [0, 0, 1, 0]);
    assert_eq!(lanes(&m, "BLENDINDICES", 1, 1), [0, 0, 0, 0]);
    // u8 10, 20, 30, 255 as two UNORM16: 5130 and 65310 (B and A lanes default 0 and 1).
    assert_eq!(
        lanes(&m, "TEXCOORD", 0, 1),
        [f(5130.0 / 65535.0), f(65310.0 / 65535.0), f(0.0), f(1.0)]
    );
    // f32 0.25 (0x3E800000) as SNORM8: 0, 0, -128 (clamped to -1), 62.
    assert_eq!(
        lanes(&m, "COLOR", 0, 1),
        [f(0.0), f(0.0), f(-1.0), f(62.0 / 127.0)]
    );
    // f32 0.75 (0x3F400000) as two halves: 0 and 0x3F40 = 1.8125.
    assert_eq!(
        lanes(&m, "TEXCOORD", 1, 1),
        [f(0.0), f(1.8125), f(0.0), f(1.0)]
    );
    // Without hash.json the same mod decodes through the GIMI profile.
    std::fs::remove_file(d.join("hash.json")).unwrap();
    let m = load(&ini, &[]);
    assert_eq!(m.profile.name.as_deref(), Some("GIMI"));
    assert_eq!(lanes(&m, "NORMAL", 0, 1), [f(0.0), f(1.0), f(0.0), f(1.0)]);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn hash_json_dump_that_does_not_fit_the_strides_is_named() {
    let d = dir("hash-json-misfit");
    let ini = write_mod(&d, MAIN, 4, &[0, 1, 2, 1, 2, 3]);
    std::fs::write(d.join("hash.json"), HASH_JSON).unwrap();
    // TANGENT of 16 bytes makes the Position buffer 48 bytes, the INI says 40.
    std::fs::write(
        d.join("ModBodyA-vb0=11111111.txt"),
        body_dump().replace("R16G16B16A16_FLOAT", "R32G32B32A32_FLOAT"),
    )
    .unwrap();
    let m = load(&ini, &[]);
    assert_eq!(
        m.components[0].problem.as_deref(),
        Some(
            "hash.json component Body: its layout ModBodyA-vb0=11111111.txt split as XXMITools \
             splits it gives strides Position 48, Blend 32, Texcoord 12, the INI's buffers have \
             Position 40, Blend 32, Texcoord 12"
        )
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_malformed_hash_json_or_metadata_json_is_an_error_naming_file_and_field() {
    let d = dir("hash-json-bad");
    let ini = write_mod(&d, MAIN, 4, &[0, 1, 2, 1, 2, 3]);
    let hj = d.join("hash.json");
    for (text, message) in [
        (
            HASH_JSON.replace(r#""position_vb": "11111111""#, r#""position_vb": 12"#),
            "[0].position_vb: expected a hash string, found `12`",
        ),
        (
            HASH_JSON.replace(r#""blend_vb": "22222222""#, r#""blend_vb": "2222zz22""#),
            "[0].blend_vb: not a hexadecimal 32-bit hash (`2222zz22`)",
        ),
        (
            HASH_JSON.replace(r#""component_name": "Body","#, ""),
            "[0].component_name: missing",
        ),
        (
            HASH_JSON.replace(r#"["A"]"#, r#""A""#),
            "[0].object_classifications: expected a list of strings, found `\"A\"`",
        ),
        (
            HASH_JSON.replace("[0]", "[-1]"),
            "[0].object_indexes: expected a list of unsigned integers, found `[-1]`",
        ),
        (
            r#"{"component_name": "Body"}"#.to_string(),
            "expected a list of components, found `{\"component_name\":\"Body\"}`",
        ),
    ] {
        std::fs::write(&hj, &text).unwrap();
        let e = Mod::load(&ini, &ModOptions::default()).unwrap_err();
        assert_eq!(e.to_string(), format!("{}: {message}", hj.display()));
    }
    std::fs::write(&hj, "[{\"component_name\": \"Body\",").unwrap();
    let e = Mod::load(&ini, &ModOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with(&format!("{}: not JSON: EOF while parsing", hj.display())),
        "{e}"
    );
    // A dump hash.json points to whose header is broken names hash.json's entry and the dump.
    std::fs::write(&hj, HASH_JSON).unwrap();
    std::fs::write(
        d.join("ModBodyA-vb0=11111111.txt"),
        body_dump().replace("R16G16_UNORM", "R16G16_BOGUS"),
    )
    .unwrap();
    let e = Mod::load(&ini, &ModOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with(&format!(
            "{}: [0] (Body): its layout ModBodyA-vb0=11111111.txt: ",
            hj.display()
        )),
        "{e}"
    );
    assert!(e.contains("R16G16_BOGUS"), "{e}");
    std::fs::remove_file(&hj).unwrap();
    // Metadata.json: the same rule.
    let mj = d.join("Metadata.json");
    std::fs::write(
        &mj,
        r#"{"export_format": {"Position": {"semantics": [{"index": 0, "format": "R32G32B32_FLOAT", "stride": 12}]}}}"#,
    )
    .unwrap();
    let e = Mod::load(&ini, &ModOptions::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{}: export_format.Position: a semantic without name",
            mj.display()
        )
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn beside_files_then_layout_then_profile() {
    use inlay::element::InputElementDesc;
    use inlay::format::Format;
    use inlay::migoto_mod::LayoutOverride;
    let d = dir("precedence");
    let ini = write_mod(&d, MAIN, 4, &[0, 1, 2, 1, 2, 3]);
    let e = |s: &str, i: u32, f: Format, o: u32| InputElementDesc {
        semantic_name: Some(s.into()),
        semantic_index: i,
        format: f,
        input_slot: 0,
        aligned_byte_offset: o,
        input_slot_class: 0,
        instance_data_step_rate: 0,
    };
    let layout = ModOptions {
        layouts: vec![LayoutOverride {
            target: "Texcoord".into(),
            elements: vec![
                e("TEXCOORD", 0, Format::R16G16_FLOAT, 0),
                e("TEXCOORD", 1, Format::R16G16_FLOAT, 4),
                e("COLOR", 0, Format::R8G8B8A8_UNORM, 8),
            ],
            stride: Some(12),
            source: "tex.json".into(),
        }],
        ..ModOptions::default()
    };
    let tex = |m: &Mod| {
        (
            elements_of(stream(m, "Texcoord")),
            stream(m, "Texcoord").source.clone(),
        )
    };
    // 5. The profile.
    let m = Mod::load(&ini, &ModOptions::default()).unwrap();
    let (el, source) = tex(&m);
    assert_eq!(el[0], ("COLOR".into(), "R8G8B8A8_UNORM".into(), 0));
    assert!(source.starts_with("profile GIMI row Texcoord"), "{source}");
    // 4. --layout above the profile.
    let m = Mod::load(&ini, &layout).unwrap();
    let (el, source) = tex(&m);
    assert_eq!(el[1], ("TEXCOORD".into(), "R16G16_FLOAT".into(), 4));
    assert_eq!(source, "--layout Texcoord=tex.json");
    // 3. Metadata.json above --layout, which is named as not used.
    std::fs::write(
        d.join("Metadata.json"),
        r#"{"export_format": {"BodyTexcoord": {"semantics": [
            {"name": "TEXCOORD", "index": 0, "format": "R32G32_FLOAT", "stride": 8},
            {"name": "COLOR", "index": 0, "format": "R8G8B8A8_SNORM", "stride": 4}]}}}"#,
    )
    .unwrap();
    let m = Mod::load(&ini, &layout).unwrap();
    let (el, source) = tex(&m);
    assert_eq!(el[1], ("COLOR".into(), "R8G8B8A8_SNORM".into(), 8));
    assert_eq!(
        source,
        "Metadata.json export_format.BodyTexcoord (--layout Texcoord=tex.json not used: the \
         files beside the mod come first)"
    );
    // 2. hash.json and its dump above Metadata.json.
    std::fs::write(d.join("hash.json"), HASH_JSON).unwrap();
    std::fs::write(d.join("ModBodyA-vb0=11111111.txt"), body_dump()).unwrap();
    let m = Mod::load(&ini, &layout).unwrap();
    let (el, source) = tex(&m);
    assert_eq!(el[0], ("TEXCOORD".into(), "R16G16_UNORM".into(), 0));
    assert!(source.starts_with("hash.json component Body"), "{source}");
    assert!(
        source.ends_with(
            "(--layout Texcoord=tex.json not used: the files beside the mod come first)"
        ),
        "{source}"
    );
    // 1. A .fmt above everything.
    std::fs::write(d.join("Body.fmt"), body_fmt()).unwrap();
    let m = Mod::load(&ini, &layout).unwrap();
    let (el, source) = tex(&m);
    assert_eq!(
        el,
        [
            ("TEXCOORD".into(), "R32G32_FLOAT".into(), 0),
            ("COLOR".into(), "R8G8B8A8_UNORM".into(), 8)
        ]
    );
    assert!(source.starts_with("Body.fmt beside the mod"), "{source}");
    assert!(
        stream(&m, "Position").source.starts_with("Body.fmt"),
        "{}",
        stream(&m, "Position").source
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
#[cfg_attr(
    not(inlay_has_dumps),
    ignore = "needs the shared dumps: ../shared/dumps or $INLAY_SHARED"
)]
fn a_real_hash_json_and_its_dump() {
    use inlay::migoto_mod::beside;
    let alice =
        testenv::dumps().join("leotorrez+ZZ-Model-Importer-Assets/PlayerCharacterData/Alice");
    let mut w = Vec::new();
    let side = beside::read_dir(&alice, &mut w).unwrap();
    assert!(w.is_empty(), "{w:?}");
    let (name, comps) = side.hash_json.unwrap();
    assert_eq!(name, "hash.json");
    let names: Vec<&str> = comps.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        ["Hair", "Body", "Legs", "Sensor", "Backpack", "Face"]
    );
    let sensor = &comps[3];
    assert_eq!(sensor.position_vb, Some(0xd0867379));
    assert_eq!(sensor.blend_vb, Some(0x73b54620));
    assert_eq!(sensor.classifications, ["A"]);
    // Only Sensor's dump is in the sample.
    assert!(comps.iter().filter(|c| c.dump.is_some()).count() == 1);
    let dump = sensor.dump.as_ref().unwrap();
    assert_eq!(dump.file, "AliceSensorA-vb0=d0867379.txt");
    // XXMITools' split of the 100-byte record: 40 + 32 + 28, the ZZMI profile's strides.
    let split: Vec<(&str, Vec<String>, u32)> = beside::split_dump(&dump.elements, sensor, false)
        .into_iter()
        .map(|(r, e, s)| {
            (
                r,
                e.iter()
                    .map(|e| {
                        format!(
                            "{}{} {} +{}",
                            e.semantic_name.as_deref().unwrap_or(""),
                            e.semantic_index,
                            e.format,
                            e.aligned_byte_offset
                        )
                    })
                    .collect(),
                s,
            )
        })
        .collect();
    assert_eq!(
        split,
        [
            (
                "Position",
                vec![
                    "POSITION0 R32G32B32_FLOAT +0".to_string(),
                    "NORMAL0 R32G32B32_FLOAT +12".into(),
                    "TANGENT0 R32G32B32A32_FLOAT +24".into()
                ],
                40
            ),
            (
                "Blend",
                vec![
                    "BLENDWEIGHTS0 R32G32B32A32_FLOAT +0".to_string(),
                    "BLENDINDICES0 R32G32B32A32_UINT +16".into()
                ],
                32
            ),
            (
                "Texcoord",
                vec![
                    "COLOR0 R8G8B8A8_UNORM +0".to_string(),
                    "TEXCOORD0 R32G32_FLOAT +4".into(),
                    "TEXCOORD1 R32G32_FLOAT +12".into(),
                    "TEXCOORD2 R32G32_FLOAT +20".into()
                ],
                28
            )
        ]
    );
}

/// A mod as MigotoModTool writes one for an object-type game type (the buffers bound under the
/// index buffer's override): one `[Resource<DrawIB><Category>]` per category on the slot it
/// was dumped from, the indices in `[Resource<DrawIB>Index]`.
fn write_mmt_mod(d: &Path, categories: &[(&str, &str, u32, Vec<u8>)]) -> PathBuf {
    std::fs::create_dir_all(d.join("Buffer")).unwrap();
    let mut ini = String::from(
        "[TextureOverrideaaaa0000IB]\nhash = aaaa0000\nhandling = skip\n\n\
         [TextureOverrideaaaa0000A]\nhash = aaaa0000\nmatch_first_index = 0\n\
         ib = Resourceaaaa0000Index\n",
    );
    for (cat, slot, _, _) in categories {
        ini += &format!("{slot} = Resourceaaaa0000{cat}\n");
    }
    ini += "drawindexed = 3, 0, 0\n\n";
    for (cat, _, stride, bytes) in categories {
        ini += &format!(
            "[Resourceaaaa0000{cat}]\ntype = Buffer\nstride = {stride}\nfilename = Buffer/aaaa0000{cat}.buf\n\n"
        );
        std::fs::write(d.join(format!("Buffer/aaaa0000{cat}.buf")), bytes).unwrap();
    }
    ini += "[Resourceaaaa0000Index]\ntype = Buffer\nformat = DXGI_FORMAT_R32_UINT\nfilename = Buffer/aaaa0000Index.buf\n";
    std::fs::write(d.join("Buffer/aaaa0000Index.buf"), u32s(&[0, 1, 2])).unwrap();
    let path = d.join("Config.ini");
    std::fs::write(&path, ini).unwrap();
    path
}

#[test]
fn a_naraka_weapon_mod_is_detected_as_nbp_and_decoded() {
    let d = dir("nbp-weapon");
    let (p, _, t) = buffers(3);
    let (mut tex, mut w, mut bi) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..3 {
        tex.extend(&t[i * 12..i * 12 + 12]);
        tex.extend(f32s(&[0.5, i as f32]));
        w.extend(f32s(&[0.75, 0.25, 0.0, 0.0]));
        bi.extend(u32s(&[7 + i as u32]));
    }
    let ini = write_mmt_mod(
        &d,
        &[
            ("Position", "vb0", 40, p),
            ("Texcoord", "vb1", 20, tex),
            ("BlendIndices", "vb2", 4, bi),
            ("BlendWeights", "vb3", 16, w),
        ],
    );
    let m = load(&ini, &[]);
    assert_eq!(m.profile.name.as_deref(), Some("NBP"), "{:#?}", m.profile);
    assert_eq!(m.profile.candidates, ["NBP"]);
    let ev = m.profile.evidence.join("\n");
    assert!(ev.contains("shape: a BlendIndices buffer bound to vb2 (StarBobis/3Dmigoto-Sword-Lv3 NBPWeapon.cpp SetNBPWeapon"), "{ev}");
    assert!(
        ev.contains("shape: a BlendWeights buffer bound to vb3"),
        "{ev}"
    );
    assert!(
        ev.contains("Resourceaaaa0000BlendWeights")
            && ev.contains("fits row BlendWeights (stride 16)"),
        "{ev}"
    );
    assert_eq!(m.components.len(), 1);
    assert_eq!(m.components[0].name, "aaaa0000");
    assert_eq!(
        elements_of(stream(&m, "BlendIndices")),
        [("BLENDINDICES".into(), "R32_UINT".into(), 0)]
    );
    // Vertex 2: index 9, weights 0.75/0.25, TEXCOORD1 (0.5, 2).
    assert_eq!(lanes(&m, "BLENDINDICES", 0, 2), [9, 0, 0, 1]);
    assert_eq!(
        lanes(&m, "BLENDWEIGHTS", 0, 2),
        [f(0.75), f(0.25), f(0.0), f(0.0)]
    );
    assert_eq!(
        lanes(&m, "TEXCOORD", 1, 2),
        [f(0.5), f(2.0), f(0.0), f(1.0)]
    );
    assert_eq!(lanes(&m, "TANGENT", 0, 2), [f(1.0), f(0.0), f(0.0), f(1.0)]);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_naraka_body_mod_without_evidence_is_refused_between_candidates() {
    // Position 40 on vb0, Texcoord 20 on vb1, Blend 32 on vb2: the NBPBody type, and also what
    // SRMI and ZZMI write (Blend on vb2) and GIMI's shape (Texcoord on vb1); their Blend rows
    // disagree (BLENDWEIGHT or BLENDWEIGHTS, SINT or UINT), each has one piece of shape
    // evidence, and nothing else in the INI tells them apart.
    let d = dir("nbp-body");
    let (p, b, t) = buffers(3);
    let mut tex = Vec::new();
    for i in 0..3 {
        tex.extend(&t[i * 12..i * 12 + 12]);
        tex.extend(f32s(&[0.5, i as f32]));
    }
    let ini = write_mmt_mod(
        &d,
        &[
            ("Position", "vb0", 40, p),
            ("Texcoord", "vb1", 20, tex),
            ("Blend", "vb2", 32, b),
        ],
    );
    let m = load(&ini, &[]);
    assert_eq!(m.profile.name, None);
    assert_eq!(
        m.profile.evidence.last().unwrap(),
        "GIMI, SRMI, ZZMI, NBP fit and disagree about the formats: not choosing (use --profile NAME)"
    );
    assert!(m.components[0].problem.is_some());
    let m = Mod::load(
        &ini,
        &ModOptions {
            profile: Some("nbp".into()),
            ..ModOptions::default()
        },
    )
    .unwrap();
    assert_eq!(
        elements_of(stream(&m, "Blend")),
        [
            ("BLENDWEIGHTS".into(), "R32G32B32A32_FLOAT".into(), 0),
            ("BLENDINDICES".into(), "R32G32B32A32_SINT".into(), 16)
        ]
    );
    assert_eq!(lanes(&m, "BLENDINDICES", 0, 2), [2, 0, 0, 0]);
    let _ = std::fs::remove_dir_all(&d);
}

/// Warnings of INI text read in memory, as printed.
fn warnings_of(text: &str) -> (Mod, Vec<String>) {
    let m = Mod::parse_bytes("t.ini", text.as_bytes(), &ModOptions::default()).unwrap();
    let w = m.warnings.iter().map(|w| w.to_string()).collect();
    (m, w)
}

/// 10 000 nested `if` blocks (the audit's `d10000.ini`) and an expression of 100 000 terms
/// (`e100000.ini`) overflowed the stack: the evaluator, the parser and the trees' clone and
/// drop recursed once per level. Both are now warnings naming the line; the nesting that is
/// accepted (64 `if` blocks, 199 operators) still runs.
#[test]
fn deep_nesting_is_a_warning_not_a_crash() {
    let mut t = String::from("[Constants]\nglobal $a = 1\n[TextureOverrideZ]\nhash = 2\n");
    t.push_str(&"if $a == 1\n".repeat(10_000));
    t.push_str("draw = 3, 0\n");
    t.push_str(&"endif\n".repeat(10_000));
    let (m, w) = warnings_of(&t);
    // Line 4 + 65: the 65th `if`.
    assert_eq!(
        w,
        [
            "t.ini:69: `if` blocks nesting deeper than 64 in [TextureOverrideZ]; the section's command list is not run (`if $a == 1`)"
        ]
    );
    assert!(m.parts.is_empty());
    // 64 levels are read and run.
    let mut t = String::from("[Constants]\nglobal $a = 1\n[TextureOverrideZ]\nhash = 2\n");
    t.push_str(&"if $a == 1\n".repeat(64));
    t.push_str("draw = 3, 0\n");
    t.push_str(&"endif\n".repeat(64));
    let (m, w) = warnings_of(&t);
    assert!(w.is_empty(), "{w:#?}");
    assert_eq!(m.parts.len(), 1);
    assert_eq!(m.parts[0].conditions, vec!["$a == 1"; 64]);
    assert_eq!(m.parts[0].count, 3);

    // 100 000 terms: the line is named, the assignment ignored, `$a` keeps its value.
    let t = format!(
        "[Constants]\nglobal $a = 1\n$a = {}\n[TextureOverrideZ]\nhash = 2\nif $a == 1\ndraw = 3, 0\nendif\n",
        vec!["1"; 100_000].join("+")
    );
    let (m, w) = warnings_of(&t);
    assert_eq!(
        w,
        [format!(
            "t.ini:3: expression does not parse (nested deeper than 200 at character 400); ignored (`$a = {}...`)",
            &vec!["1"; 100].join("+")[..72]
        )]
    );
    assert_eq!(m.parts[0].conditions, ["$a == 1"]);
    // 199 operators are read: `$a` becomes 200 and the draw's condition is false.
    let t = t.replace(&vec!["1"; 100_000].join("+"), &vec!["1"; 200].join("+"));
    let (m, w) = warnings_of(&t);
    assert!(w.is_empty(), "{w:#?}");
    assert!(m.parts.is_empty());
}

/// A chain of command lists, each nesting 64 `if` blocks and running the next: the run stops
/// where `if` blocks and `run` calls together nest deeper than 256, with a warning at that
/// line, before the evaluator's stack could overflow.
#[test]
fn deep_run_chains_are_bounded() {
    let mut t = String::from(
        "[Constants]\nglobal $a = 1\n[TextureOverrideZ]\nhash = 2\nrun = CommandList0\n",
    );
    for k in 0..10 {
        t.push_str(&format!("[CommandList{k}]\n"));
        t.push_str(&"if $a == 1\n".repeat(64));
        t.push_str(&format!("run = CommandList{}\n", k + 1));
        t.push_str(&"endif\n".repeat(64));
    }
    t.push_str("[CommandList10]\ndraw = 3, 0\n");
    let (m, w) = warnings_of(&t);
    // CommandList3 starts at line 6 + 3 * 130; its 60th `if` is the 257th level (the
    // TextureOverride's list, 3 lists of 64 `if` blocks and their `run`, 60 more).
    assert_eq!(
        w,
        ["t.ini:456: `if` blocks and `run` calls nesting deeper than 256; not followed"]
    );
    assert!(m.parts.is_empty());
    // A `run` chain stops where 64 sections would be running (the TextureOverride and 63
    // command lists), named.
    let mut t = String::from("[TextureOverrideZ]\nhash = 2\nrun = CommandList0\n");
    for k in 0..100 {
        t.push_str(&format!("[CommandList{k}]\nrun = CommandList{}\n", k + 1));
    }
    let (_, w) = warnings_of(&t);
    assert_eq!(
        w,
        ["t.ini:129: `run` nested deeper than 64; not followed (`commandlist63`)"]
    );
}

/// The buffers and vertex-buffer overrides of [`MAIN`], for the small mods written by the
/// tests below (an index buffer `ResourceBodyIB` of R32 indices; `BodyBlend` is a skinning
/// pass).
const BODY: &str = "[TextureOverrideBodyPosition]\n\
hash = 11111111\n\
vb0 = ResourceBodyPosition\n\
\n\
[TextureOverrideBodyBlend]\n\
hash = 22222222\n\
handling = skip\n\
vb1 = ResourceBodyBlend\n\
draw = 4, 0\n\
\n\
[TextureOverrideBodyTexcoord]\n\
hash = 33333333\n\
vb1 = ResourceBodyTexcoord\n\
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
filename = Meshes\\BodyA.ib\n";

/// A mod of [`BODY`] and `sections` (4 vertices, 12 indices), written to a fresh folder and
/// read in its default state.
fn body_mod(name: &str, sections: &str) -> (Mod, Vec<String>) {
    let d = dir(name);
    let ini = write_mod(
        &d,
        &format!("{BODY}\n{sections}"),
        4,
        &[0, 1, 2, 1, 2, 3, 2, 3, 0, 3, 0, 1],
    );
    let m = load(&ini, &[]);
    let w = m
        .warnings
        .iter()
        .map(|w| w.to_string().replace(&ini.display().to_string(), "Mod.ini"))
        .collect();
    (m, w)
}

/// The exported parts as (name, section, start, count, conditions).
fn parts(m: &Mod) -> Vec<(String, String, u32, u32, Vec<String>)> {
    m.parts
        .iter()
        .filter(|p| p.export)
        .map(|p| {
            (
                p.name.clone(),
                p.section.clone(),
                p.start,
                p.count,
                p.conditions.clone(),
            )
        })
        .collect()
}

fn part(
    name: &str,
    section: &str,
    start: u32,
    count: u32,
    conditions: &[&str],
) -> (String, String, u32, u32, Vec<String>) {
    (
        name.to_string(),
        section.to_string(),
        start,
        count,
        conditions.iter().map(|c| c.to_string()).collect(),
    )
}

/// `handling = abort` stops the command lists still to run for the draw and nothing else: the
/// game's draw happens (3DMigoto CommandList.cpp: `AbortCommand::run` only sets
/// `state->aborted`, which `_RunCommandList` checks before each command; HackerContext.cpp
/// `DrawIndexed` draws unless `call_info.skip`, which only `SkipCommand::run` sets). It was
/// taken as `skip`: the game's draw was missing.
#[test]
fn abort_stops_the_lists_but_not_the_games_draw() {
    let (m, w) = body_mod(
        "abort",
        "[TextureOverrideBodyA]\nhash = 55555555\nib = ResourceBodyIB\nhandling = abort\n\
         drawindexed = 3, 0, 0\n\
         [TextureOverrideBodyB]\nhash = 55555555\ndrawindexed = 3, 3, 0\n",
    );
    assert!(w.is_empty(), "{w:#?}");
    // The game's draw with the mod's index buffer (its count is the buffer's, to its end);
    // neither `drawindexed` runs: A's comes after the abort, B runs in the same state.
    assert_eq!(
        parts(&m),
        [part(
            "TextureOverrideBodyA",
            "TextureOverrideBodyA",
            0,
            12,
            &[]
        )]
    );
    assert_eq!(
        m.parts[1]
            .index_buffer
            .map(|r| m.resources[r].name.as_str()),
        Some("ResourceBodyIB")
    );
}

/// Sections sharing a hash run by `match_priority`, then by name compared case-sensitively,
/// as `std::wstring`'s `<` compares (ResourceHash.cpp `TextureOverrideLess`, the sort in
/// IniHandler.cpp `ParseTextureOverrideSections`): `Zed` before `alpha`, so `alpha`'s index
/// buffer is the one bound at the game's draw. inlay compared lower-cased names.
#[test]
fn same_hash_sections_run_in_case_sensitive_name_order() {
    let (m, w) = body_mod(
        "sortcase",
        "[ResourceBodyIB16]\ntype = Buffer\nformat = DXGI_FORMAT_R16_UINT\nfilename = Meshes\\BodyA.ib\n\
         [TextureOverrideZed]\nhash = 55555555\nib = ResourceBodyIB\n\
         [TextureOverridealpha]\nhash = 55555555\nib = ResourceBodyIB16\n",
    );
    assert!(w.is_empty(), "{w:#?}");
    // The context is named after its first section; the game's draw reads the 24 R16 indices
    // of the buffer `alpha` bound last.
    assert_eq!(
        parts(&m),
        [part("TextureOverrideZed", "TextureOverrideZed", 0, 24, &[])]
    );
    let p = m.parts.iter().find(|p| p.export).unwrap();
    assert_eq!(
        p.index_buffer.map(|r| m.resources[r].name.as_str()),
        Some("ResourceBodyIB16")
    );
    // A higher match_priority runs later whatever its name.
    let (m, _) = body_mod(
        "sortpriority",
        "[ResourceBodyIB16]\ntype = Buffer\nformat = DXGI_FORMAT_R16_UINT\nfilename = Meshes\\BodyA.ib\n\
         [TextureOverrideZed]\nhash = 55555555\nmatch_priority = 1\nib = ResourceBodyIB\n\
         [TextureOverridealpha]\nhash = 55555555\nib = ResourceBodyIB16\n",
    );
    assert_eq!(
        parts(&m),
        [part(
            "TextureOverridealpha",
            "TextureOverridealpha",
            0,
            12,
            &[]
        )]
    );
}

/// A TextureOverride section without a hash 3DMigoto can read is skipped with "missing Hash=
/// or valid match options" (IniHandler.cpp `ParseTextureOverrideSections`); its draws were
/// listed as parts of no hash. Hashes are read as `GetIniHash` reads them (`%16llx` and the
/// whole value consumed): `0X` is a prefix, 16 digits are read and truncated to 32 bits, a
/// trailing comment is a parse error.
#[test]
fn sections_without_a_valid_hash_never_run() {
    let (m, w) = body_mod(
        "nohash",
        "[TextureOverrideNoHash]\nib = ResourceBodyIB\ndrawindexed = 12, 0, 0\n\
         [TextureOverrideBadHash]\nhash = 55555555 ; body\nib = ResourceBodyIB\ndrawindexed = 6, 0, 0\n\
         [TextureOverrideA]\nhash = 0X55555555\nhandling = skip\nib = ResourceBodyIB\n\
         drawindexed = 3, 0, 0\n\
         [TextureOverrideB]\nhash = 1234567f66666666\nhandling = skip\nib = ResourceBodyIB\n\
         drawindexed = 3, 3, 0\n",
    );
    // BODY is 33 lines and a blank one.
    assert_eq!(
        w,
        [
            "Mod.ini:35: section without a valid `hash` (3DMigoto: \"missing Hash= or valid match options\"); never run (`TextureOverrideNoHash`)",
            "Mod.ini:39: not a hash as 3DMigoto reads it (up to 16 hexadecimal digits after an optional `0x`, nothing after them; 3DMigoto: \"Hash parse error\") (`55555555 ; body`)",
            "Mod.ini:38: section without a valid `hash` (3DMigoto: \"missing Hash= or valid match options\"); never run (`TextureOverrideBadHash`)",
        ]
    );
    assert_eq!(
        parts(&m),
        [
            part("TextureOverrideA", "TextureOverrideA", 0, 3, &[]),
            part("TextureOverrideB", "TextureOverrideB", 3, 3, &[]),
        ]
    );
    let hashes: Vec<Option<u32>> = m
        .parts
        .iter()
        .filter(|p| p.export)
        .map(|p| p.hash)
        .collect();
    assert_eq!(hashes, [Some(0x55555555), Some(0x66666666)]);
    // A section matching by resource description has no hash and is kept.
    let (m, w) = body_mod(
        "fuzzy",
        "[TextureOverrideFuzzy]\nmatch_type = Buffer\nib = ResourceBodyIB\ndrawindexed = 3, 0, 0\n",
    );
    assert!(w.is_empty(), "{w:#?}");
    assert_eq!(
        parts(&m),
        [part(
            "TextureOverrideFuzzy",
            "TextureOverrideFuzzy",
            0,
            3,
            &[]
        )]
    );
}

/// A repeated key that is not a command keeps its first value, with a warning: 3DMigoto stores
/// keys with `kv_map.emplace` (IniHandler.cpp `ParseIniKeyValLine`), so `GetIniString` and
/// `GetIniHash` read the first, and warns "Duplicate key found" (in `[Key…]`, `[Resource…]`,
/// … except `key`/`back`, `whitelisted_duplicate_key`) or "Duplicate non-command list key"
/// (`ParseCommandList`, for the keys a command-list section reads elsewhere). Commands repeat
/// and all run. inlay kept the last value silently.
#[test]
fn duplicate_keys_keep_the_first_value() {
    let (m, w) = body_mod(
        "dupkey",
        "[Constants]\nglobal $a = 0\n\
         [KeyA]\nkey = VK_F6\nkey = VK_F7\ntype = cycle\ntype = toggle\n$a = 1,2\n$a = 7,8\n\
         [TextureOverrideBodyIB]\nhash = 55555555\nhash = 99999999\nhandling = skip\n\
         ib = ResourceBodyIB\nmatch_first_index = 0\nmatch_first_index = 6\n\
         drawindexed = 3, 0, 0\ndrawindexed = 3, 3, 0\n",
    );
    assert_eq!(
        w,
        [
            "Mod.ini:41: duplicate key in [KeyA] (first at Mod.ini:40); 3DMigoto keeps the first (\"Duplicate key found\") (`type = toggle`)",
            "Mod.ini:43: duplicate key in [KeyA] (first at Mod.ini:42); 3DMigoto keeps the first (\"Duplicate key found\") (`$a = 7,8`)",
            "Mod.ini:46: duplicate key in [TextureOverrideBodyIB] (first at Mod.ini:45); 3DMigoto keeps the first (\"Duplicate non-command list key\") (`hash = 99999999`)",
            "Mod.ini:50: duplicate key in [TextureOverrideBodyIB] (first at Mod.ini:49); 3DMigoto keeps the first (\"Duplicate non-command list key\") (`match_first_index = 6`)",
        ]
    );
    assert_eq!(
        parts(&m),
        [
            part(
                "TextureOverrideBodyIB#0",
                "TextureOverrideBodyIB",
                0,
                3,
                &[]
            ),
            part(
                "TextureOverrideBodyIB#1",
                "TextureOverrideBodyIB",
                3,
                3,
                &[]
            ),
        ]
    );
    let p = m.parts.iter().find(|p| p.export).unwrap();
    assert_eq!((p.hash, p.match_first_index), (Some(0x55555555), Some(0)));
    assert_eq!(m.toggles[0].keys, ["VK_F6", "VK_F7"]);
    let states: Vec<String> = m.states().unwrap().iter().map(|s| s.to_string()).collect();
    assert_eq!(states, ["$a=0", "$a=1", "$a=2"]);
}

/// Text after a value, as a `; comment` (not a comment in 3DMigoto's INI files), is read as
/// 3DMigoto reads it, with a warning. A resource copy takes the first word that is no copy
/// option as its source and warns about the others ("Unknown option",
/// `parse_enum_option_string`, util.h); a draw-context match keeps the number `swscanf`
/// stored before the text failed to parse (IniHandler.cpp
/// `parse_fuzzy_numeric_match_expression`). inlay dropped the binding and the match.
#[test]
fn trailing_text_after_a_value_is_read_as_3dmigoto_reads_it() {
    let (m, w) = body_mod(
        "trailing",
        "[TextureOverrideBodyIB]\nhash = 55555555\nhandling = skip\n\
         [TextureOverrideBodyCaps]\nhash = 55555555\nmatch_first_index = 0\n\
         ib = ResourceBodyIB ; custom faces\ndrawindexed = 6, 0, 0\n\
         [TextureOverrideBodySides]\nhash = 55555555\nmatch_first_index = 6 ; sides\n\
         ib = ResourceBodyIB\ndrawindexed = 6, 6, 0\n",
    );
    assert_eq!(
        w,
        [
            "Mod.ini:41: `; custom faces` after the source: not copy options (3DMigoto: \"Unknown option\"); ignored (`ib = ResourceBodyIB ; custom faces`)",
            "Mod.ini:45: not a draw-context match as 3DMigoto reads it (`[operator] value`; 3DMigoto: \"Unable to parse expression\" at `6 ; sides`); matched as `=6` (`6 ; sides`)",
        ]
    );
    assert_eq!(
        parts(&m),
        [
            part(
                "TextureOverrideBodyCaps",
                "TextureOverrideBodyCaps",
                0,
                6,
                &[]
            ),
            part(
                "TextureOverrideBodySides",
                "TextureOverrideBodySides",
                6,
                6,
                &[]
            ),
        ]
    );
    let firsts: Vec<Option<u32>> = m
        .parts
        .iter()
        .filter(|p| p.export)
        .map(|p| p.match_first_index)
        .collect();
    assert_eq!(firsts, [Some(0), Some(6)]);
}

/// `post` commands run after the game's draw, even a skipped one (HackerContext.cpp
/// `AfterDraw` runs the post lists whatever `call_info.skip`), so their draws are parts; they
/// were dropped. `run = CommandList…` is in both lists and runs the target's pre list from the
/// caller's pre list and its post list from the post list; with a `pre`/`post` prefix it is in
/// that list only and runs both of the target's lists together (CommandList.cpp
/// `AddCommandToList`, `ParseRunExplicitCommandList`, `RunExplicitCommandList::run`).
/// `handling = abort` is in both lists and stops each where it stands.
#[test]
fn post_commands_draw_after_the_games_draw() {
    let (m, w) = body_mod(
        "post",
        "[TextureOverrideBodyPre]\nhash = 55555555\nhandling = skip\nib = ResourceBodyIB\n\
         post handling = abort\npre run = CommandListTwo\n\
         [TextureOverrideBodyPlain]\nhash = 66666666\nhandling = skip\nib = ResourceBodyIB\n\
         post handling = abort\nrun = CommandListTwo\n\
         [TextureOverrideBodyPostDraw]\nhash = 77777777\nhandling = skip\nib = ResourceBodyIB\n\
         post drawindexed = 6, 6, 0\n\
         [TextureOverrideBodyPostRun]\nhash = 88888888\nhandling = skip\nib = ResourceBodyIB\n\
         post run = CommandListTwo\n\
         [CommandListTwo]\ndrawindexed = 3, 0, 0\npost drawindexed = 3, 3, 0\n",
    );
    assert!(w.is_empty(), "{w:#?}");
    assert_eq!(
        parts(&m),
        [
            // `pre run`: both of the target's lists, before the draw.
            part("TextureOverrideBodyPre#0", "CommandListTwo", 0, 3, &[]),
            part("TextureOverrideBodyPre#1", "CommandListTwo", 3, 3, &[]),
            // `run`: the target's post list is not reached, the caller's post list aborted.
            part("TextureOverrideBodyPlain", "CommandListTwo", 0, 3, &[]),
            part(
                "TextureOverrideBodyPostDraw",
                "TextureOverrideBodyPostDraw",
                6,
                6,
                &[]
            ),
            // `post run`: both of the target's lists, after the (skipped) draw.
            part("TextureOverrideBodyPostRun#0", "CommandListTwo", 0, 3, &[]),
            part("TextureOverrideBodyPostRun#1", "CommandListTwo", 3, 3, &[]),
        ]
    );
}

/// An `if` left without `endif` is dropped by 3DMigoto's optimiser (CommandList.cpp
/// `IfCommand::noop`: "Statement \"if\" missing \"endif\"", and `CommandPlaceholder::noop` for
/// its `else`), so the lines of every branch run unconditionally; inlay closed it at the
/// section's end and chose a branch.
#[test]
fn an_if_without_endif_is_dropped_and_every_branch_runs() {
    let (m, w) = body_mod(
        "noendif",
        "[Constants]\nglobal $s = 0\n\
         [TextureOverrideBodyIB]\nhash = 55555555\nhandling = skip\nib = ResourceBodyIB\n\
         if $s == 1\ndrawindexed = 3, 0, 0\nelse\ndrawindexed = 3, 3, 0\n",
    );
    assert_eq!(
        w,
        [
            "Mod.ini:41: `if` without `endif` in [TextureOverrideBodyIB] (3DMigoto: `Statement \"if\" missing \"endif\"`): the `if` is dropped, every branch's lines run"
        ]
    );
    assert_eq!(
        parts(&m),
        [
            part(
                "TextureOverrideBodyIB#0",
                "TextureOverrideBodyIB",
                0,
                3,
                &[]
            ),
            part(
                "TextureOverrideBodyIB#1",
                "TextureOverrideBodyIB",
                3,
                3,
                &[]
            ),
        ]
    );
}

/// An `if` (or `elif`) whose condition does not parse — here it reads an undeclared variable —
/// is an unrecognised line to 3DMigoto (`ParseIfCommand` fails, "Unrecognised entry"): no `if`
/// is added, its lines run unconditionally and its `endif` closes the enclosing `if`. inlay
/// took both branches as unknown. A variable of a namespace outside the mod's files may be
/// another INI's: its `if` stays, only known in game.
#[test]
fn an_if_that_does_not_parse_is_dropped() {
    let sections = "[Constants]\nglobal $s = 0\n\
         [TextureOverrideBodyIB]\nhash = 55555555\nhandling = skip\nib = ResourceBodyIB\n\
         if $s == 1\n  if $nosuch == 1\n    drawindexed = 3, 0, 0\n  endif\n\
         drawindexed = 3, 3, 0\nendif\n\
         [TextureOverrideBodyOther]\nhash = 66666666\nhandling = skip\nib = ResourceBodyIB\n\
         if $\\OtherMod\\on == 1\ndrawindexed = 6, 6, 0\nelif $s === (\ndrawindexed = 3, 9, 0\nendif\n";
    let (m, w) = body_mod("badif", sections);
    assert_eq!(
        w,
        [
            "Mod.ini:42: undeclared variable in the condition (3DMigoto: \"Unrecognised entry\"): the `if` line is dropped, its lines run unconditionally and its `endif` closes the enclosing `if` (`$nosuch`)",
            "Mod.ini:46: `endif` without an `if` (3DMigoto: \"endif missing if\"); ignored (`endif`)",
            "Mod.ini:53: condition does not parse: missing operand at character 9 (3DMigoto: \"Unrecognised entry\"): the `elif` line is dropped, its lines stay in the branch before it (`elif $s === (`)",
            "Mod.ini:51: variable of a namespace none of the mod's files has (another INI, such as a loader's, may declare it); its value is only known in game (`$\\othermod\\on`)",
        ]
    );
    let unknown = "$\\othermod\\on == 1 (only known in game)";
    assert_eq!(
        parts(&m),
        [
            part("TextureOverrideBodyIB", "TextureOverrideBodyIB", 3, 3, &[]),
            part(
                "TextureOverrideBodyOther#0",
                "TextureOverrideBodyOther",
                6,
                6,
                &[unknown]
            ),
            part(
                "TextureOverrideBodyOther#1",
                "TextureOverrideBodyOther",
                9,
                3,
                &[unknown]
            ),
        ]
    );
    // With `$s = 1` the first draw runs too, inside the one `if` left.
    let d = dir("badif1");
    let ini = write_mod(
        &d,
        &format!("{BODY}\n{sections}"),
        4,
        &[0, 1, 2, 1, 2, 3, 2, 3, 0, 3, 0, 1],
    );
    let m = load(&ini, &[("$s", 1.0)]);
    assert_eq!(
        parts(&m)[..2],
        [
            part(
                "TextureOverrideBodyIB#0",
                "TextureOverrideBodyIB",
                0,
                3,
                &["$s == 1"]
            ),
            part(
                "TextureOverrideBodyIB#1",
                "TextureOverrideBodyIB",
                3,
                3,
                &[]
            ),
        ]
    );
}

/// A second `[Constants]` (or `[Present]`) in a mod INI extends the first: 3DMigoto reads every
/// mod through an `[Include]` with a namespace, and a namespaced file's unprefixed sections
/// may repeat (IniHandler.cpp `ParseIniSectionLine`, `allow_duplicate_sections`). inlay
/// ignored the second as a duplicate, so its globals were undeclared.
#[test]
fn a_second_constants_section_extends_the_first() {
    let (m, w) = body_mod(
        "dupconstants",
        "[Constants]\nglobal $a = 0\n\
         [KeyA]\nkey = VK_F6\ntype = cycle\n$a = 0,1\n\
         [Constants]\nglobal $b = 1\n\
         [KeyB]\nkey = VK_F7\ntype = cycle\n$b = 0,1\n\
         [TextureOverrideBodyIB]\nhash = 55555555\nhandling = skip\nib = ResourceBodyIB\n\
         if $b == 1\ndrawindexed = 3, 0, 0\nendif\n",
    );
    assert!(w.is_empty(), "{w:#?}");
    let vars: Vec<&str> = m.variables.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(vars, ["$a", "$b"]);
    assert_eq!(
        parts(&m),
        [part(
            "TextureOverrideBodyIB",
            "TextureOverrideBodyIB",
            0,
            3,
            &["$b == 1"]
        )]
    );
    assert_eq!(m.states().unwrap().len(), 4);
}
