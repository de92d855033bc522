//! Capture readers and mesh building on synthetic dumps that hold every quirk the readers
//! handle (append offsets, several slots, `.buf` beside text, MSVC non-finite spellings,
//! `# WARNING` lines, CRLF, strips with cuts, adjacency, patches, instancing, `.fmt` with
//! remapped semantics, RenderDoc CSV), and on bad input. Expected values are written by hand
//! from the bytes the test puts in the buffers (f32 bit patterns, UNORM/half codes).

use std::path::{Path, PathBuf};

use inlay::assembler::DrawCall;
use inlay::assembler::Topology;
use inlay::buffer::{IndexBufferBinding, IndexFormat};
use inlay::capture::{self, SlotData};
use inlay::element::{APPEND_ALIGNED_ELEMENT, InputElementDesc};
use inlay::format::Format;
use inlay::mesh::{self, InputSlot, Instances, Mesh, MeshInput, MeshOptions, Mode, SlotSource};

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("inlay-capture-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write(d: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = d.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

fn f32s(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

const ONE: u32 = 0x3f80_0000;

fn attr<'m>(m: &'m Mesh, semantic: &str) -> &'m mesh::Attribute {
    m.attributes
        .iter()
        .find(|a| a.semantic == semantic)
        .unwrap_or_else(|| panic!("no attribute {semantic}"))
}

/// Two slots, appended offsets, `.buf` beside the text (whose values are deliberately wrong and
/// whose `+offset`s are 3DMigoto's wrong `+000`), an ib text dump with its `.buf`.
#[test]
fn migoto_two_slots_append_offsets_and_buf_files() {
    let d = dir("two-slots");
    let header = "\
byte offset: 0
stride: 20
first vertex: 0
vertex count: 4
topology: trianglelist
element[0]:
  SemanticName: POSITION
  SemanticIndex: 0
  Format: R32G32B32_FLOAT
  InputSlot: 0
  AlignedByteOffset: 0
  InputSlotClass: per-vertex
  InstanceDataStepRate: 0
element[1]:
  SemanticName: COLOR
  SemanticIndex: 0
  Format: R8G8B8A8_UNORM
  InputSlot: 0
  AlignedByteOffset: append
  InputSlotClass: per-vertex
  InstanceDataStepRate: 0
element[2]:
  SemanticName: TEXCOORD
  SemanticIndex: 0
  Format: R16G16_FLOAT
  InputSlot: 0
  AlignedByteOffset: append
  InputSlotClass: per-vertex
  InstanceDataStepRate: 0
element[3]:
  SemanticName: NORMAL
  SemanticIndex: 0
  Format: R32G32B32_FLOAT
  InputSlot: 1
  AlignedByteOffset: 0
  InputSlotClass: per-vertex
  InstanceDataStepRate: 0
";
    // Text values that must NOT be used (a .buf exists).
    let vb0_txt = format!(
        "{header}\nvertex-data:\n\nvb0[0]+000 POSITION: 9, 9, 9\nvb0[0]+000 COLOR: 0, 0, 0, 0\nvb0[0]+000 TEXCOORD: 0, 0\n"
    );
    let mut vb0 = Vec::new();
    let positions = [
        [1.5f32, -2.0, 0.25],
        [3.0, 4.0, 5.0],
        [-1.0, 0.0, 1e-10],
        [7.0, 8.0, 9.0],
    ];
    let colors = [
        [255u8, 0, 128, 1],
        [1, 2, 3, 4],
        [0, 0, 0, 0],
        [255, 255, 255, 255],
    ];
    let uvs = [
        [0x3c00u16, 0x3800],
        [0, 0x3c00],
        [0x8000, 0x4000],
        [0x3555, 0x7bff],
    ];
    for k in 0..4 {
        vb0.extend(f32s(&positions[k]));
        vb0.extend_from_slice(&colors[k]);
        vb0.extend(uvs[k].iter().flat_map(|h| h.to_le_bytes()));
    }
    let mut vb1 = Vec::new();
    for k in 0..4 {
        vb1.extend(f32s(&[0.0, k as f32, 1.0]));
    }
    let vb1_txt = header.replace("stride: 20", "stride: 12");
    write(&d, "000007-vb0=11111111-vs=a-ps=b.txt", vb0_txt.as_bytes());
    write(&d, "000007-vb0=11111111-vs=a-ps=b.buf", &vb0);
    write(&d, "000007-vb1=22222222-vs=a-ps=b.txt", vb1_txt.as_bytes());
    write(&d, "000007-vb1=22222222-vs=a-ps=b.buf", &vb1);
    let ib: Vec<u8> = [0u16, 1, 2, 2, 1, 3, 9, 9]
        .iter()
        .flat_map(|i| i.to_le_bytes())
        .collect();
    write(
        &d,
        "000007-ib=33333333-vs=a-ps=b.txt",
        b"byte offset: 0\nfirst index: 0\nindex count: 6\ntopology: trianglelist\nformat: DXGI_FORMAT_R16_UINT\n\n0 1 2\n2 1 3\n",
    );
    write(&d, "000007-ib=33333333-vs=a-ps=b.buf", &ib);
    // Naming one file finds the others.
    let c = capture::load_dump(&d.join("000007-vb0=11111111-vs=a-ps=b.txt")).unwrap();
    assert_eq!(c.slots.len(), 2);
    assert!(matches!(c.slots[0].data, SlotData::Binary(_)));
    assert_eq!(c.elements[1].aligned_byte_offset, APPEND_ALIGNED_ELEMENT);
    let m = Mesh::from_capture(&c, &MeshOptions::default()).unwrap();
    assert_eq!(m.mode, Mode::Triangles);
    assert_eq!((m.vertex_base, m.vertex_count), (0, 4));
    assert_eq!(m.indices, [0, 1, 2, 2, 1, 3]);
    // Offsets by R26: COLOR at 12, TEXCOORD at 16 (not the +000 the text claims).
    assert_eq!(m.layout[1].offset, 12);
    assert_eq!(m.layout[2].offset, 16);
    let p = attr(&m, "POSITION");
    assert_eq!(p.values[0], [0x3fc0_0000, 0xc000_0000, 0x3e80_0000, ONE]);
    assert_eq!(p.values[2][2], 1e-10f32.to_bits());
    let col = attr(&m, "COLOR");
    // 255 → 1.0, 0 → 0, 128 → 128/255 = 0x3f008081, 1 → 1/255 = 0x3b808081.
    assert_eq!(col.values[0], [ONE, 0, 0x3f00_8081, 0x3b80_8081]);
    let uv = attr(&m, "TEXCOORD");
    assert_eq!(uv.values[0], [ONE, 0x3f00_0000, 0, ONE]);
    assert_eq!(uv.values[2], [0x8000_0000, 0x4000_0000, 0, ONE]);
    // 0x7bff = 65504 (largest half), 0x3555 = 0.333251953125.
    assert_eq!(uv.values[3], [0x3eaa_a000, 0x477f_e000, 0, ONE]);
    let n = attr(&m, "NORMAL");
    assert_eq!(n.values[3], [0, 0x4040_0000, ONE, ONE]);
    // The draw's text says nothing past index 6; the rest of the .buf is not read.
    assert!(m.warnings.is_empty(), "{:?}", m.warnings);
    // glTF round trip of the mesh's data (reader = what import uses).
    let mut glb = Vec::new();
    mesh::gltf::write_glb(&m, &mut glb).unwrap();
    let back = mesh::gltf::read_glb("t.glb", &glb, &mut |_| Err("none".into())).unwrap();
    assert_eq!(back.vertex_count, 4);
    assert_eq!(back.indices, [0, 1, 2, 2, 1, 3]);
    let (pos, float) = back.attribute("POSITION").unwrap();
    assert!(float);
    assert_eq!(pos[1][..3], [0x4040_0000, 0x4080_0000, 0x40a0_0000]);
    let (c0, _) = back.attribute("COLOR_0").unwrap();
    assert_eq!(c0[0], [ONE, 0, 0x3f00_8081, 0x3b80_8081]);
    let inlay = back.inlay.unwrap();
    assert_eq!(
        inlay.layout[1].declared_offset,
        mesh::gltf::schema::DeclaredOffset::Append(mesh::gltf::schema::AppendTag::Append)
    );
    assert_eq!(inlay.layout[1].offset, 12);
}

/// Text-only values: MSVC's `1.#INF`/`-1.#QNAN`, `# WARNING` lines, CRLF, a header count
/// that disagrees with the lines, a vertex the draw reads that the text does not have, and an
/// appended element 3DMigoto decoded at the wrong offset.
#[test]
fn migoto_text_values_specials_and_warnings() {
    let d = dir("text-only");
    let vb = "stride: 16\r\nfirst vertex: 0\r\nvertex count: 3\r\ntopology: trianglelist\r\n\
element[0]:\r\n  SemanticName: POSITION\r\n  SemanticIndex: 0\r\n  Format: R32G32B32_FLOAT\r\n  InputSlot: 0\r\n  AlignedByteOffset: 0\r\n  InputSlotClass: per-vertex\r\n  InstanceDataStepRate: 0\r\n\
element[1]:\r\n  SemanticName: TEXCOORD\r\n  SemanticIndex: 1\r\n  Format: R16G16_UNORM\r\n  InputSlot: 0\r\n  AlignedByteOffset: append\r\n  InputSlotClass: per-vertex\r\n  InstanceDataStepRate: 0\r\n\
\r\nvertex-data:\r\n\r\n\
vb0[0]+000 POSITION: 1.#INF, -1.#QNAN, 0.100000001\r\n\
vb0[0]+000 TEXCOORD1: 0.5, 0.25\r\n\
# WARNING: Offset exceeded stride, vertex buffer may be decoded incorrectly\r\n\r\n\
vb0[1]+000 POSITION: -1.#INF, 1.#QNAN, -0\r\n";
    let vb_path = write(&d, "Thing-vb0=aaaaaaaa.txt", vb.as_bytes());
    write(
        &d,
        "Thing-ib=bbbbbbbb.txt",
        b"byte offset: 0\r\nfirst index: 0\r\nindex count: 3\r\ntopology: trianglelist\r\nformat: DXGI_FORMAT_R16_UINT\r\n\r\n0 1 2\r\n",
    );
    let c = capture::load_dump(&vb_path).unwrap();
    let shown: Vec<String> = c.warnings.iter().map(|w| w.to_string()).collect();
    let file = vb_path.display().to_string();
    assert!(
        shown.iter().any(
            |w| w.starts_with(&format!("{file}:26: 3DMigoto's dump says"))
                && w.contains("# WARNING: Offset exceeded stride")
        ),
        "{shown:?}"
    );
    assert!(
        shown.iter().any(
            |w| w.starts_with(&format!("{file}:3: the header's count disagrees"))
                && w.contains("(`3`)")
        ),
        "{shown:?}"
    );
    assert!(
        shown
            .iter()
            .any(|w| w.contains("element[1] has AlignedByteOffset append")
                && w.contains("offset 12")),
        "{shown:?}"
    );
    let m = Mesh::from_capture(&c, &MeshOptions::default()).unwrap();
    assert_eq!(m.vertex_count, 3);
    let p = attr(&m, "POSITION");
    assert_eq!(p.values[0], [0x7f80_0000, 0xffc0_0000, 0x3dcc_cccd, ONE]);
    assert_eq!(p.values[1], [0xff80_0000, 0x7fc0_0000, 0x8000_0000, ONE]);
    // Vertex 2 is read by the draw but not in the text: read as out-of-bounds data is (0 in
    // the components the format has, defaults elsewhere), with a warning naming it.
    assert_eq!(p.values[2], [0, 0, 0, ONE]);
    assert!(
        m.warnings.iter().any(|w| w.contains("not in the text dump")
            && w.contains("first: vertex 2 element[0]")),
        "{:?}",
        m.warnings
    );
    // glTF holds no NaN: the standard attribute gets 0, the warning says how many.
    let mut glb = Vec::new();
    mesh::gltf::write_glb(&m, &mut glb).unwrap();
    let back = mesh::gltf::read_glb("t.glb", &glb, &mut |_| Err("none".into())).unwrap();
    let (pos, _) = back.attribute("POSITION").unwrap();
    assert_eq!(pos[0][..3], [0, 0, 0x3dcc_cccd]);
}

fn positions_input<'a>(
    vb: &'a [u8],
    elements: &'a [InputElementDesc],
    ib: Option<&'a [u8]>,
    topology: Topology,
    draw: DrawCall<'a>,
) -> MeshInput<'a> {
    MeshInput {
        elements,
        names: Vec::new(),
        slots: vec![InputSlot {
            slot: 0,
            stride: 4,
            offset: 0,
            data: SlotSource::Binary(vb),
            file: "vb",
        }],
        index: ib.map(|data| {
            (
                IndexBufferBinding {
                    data,
                    format: IndexFormat::R16Uint,
                    offset: 0,
                },
                "ib",
            )
        }),
        topology,
        draw,
        files: Vec::new(),
    }
}

fn u16s(v: &[u16]) -> Vec<u8> {
    v.iter().flat_map(|i| i.to_le_bytes()).collect()
}

/// Strips become lists with the cut honoured; adjacency vertices are dropped; patch lists give
/// points; vertices are written once.
#[test]
fn primitives_from_every_topology_kind() {
    let elements = [InputElementDesc::per_vertex(
        "POSITION",
        0,
        Format::R32_FLOAT,
        0,
        0,
    )];
    let vb = f32s(&(0..8).map(|k| k as f32).collect::<Vec<_>>());
    let run = |ib: &[u16], t: Topology| {
        let ibb = u16s(ib);
        let input = positions_input(
            &vb,
            &elements,
            Some(&ibb),
            t,
            DrawCall::DrawIndexed {
                index_count: ib.len() as u32,
                start_index: 0,
                base_vertex: 0,
            },
        );
        let m = Mesh::build(&input, &MeshOptions::default()).unwrap();
        (m.mode, m.vertex_base, m.vertex_count, m.indices)
    };
    // Strip with a cut: (0 1 2) (1 3 2) | (4 5 0).
    assert_eq!(
        run(&[0, 1, 2, 3, 0xffff, 4, 5, 0], Topology::TriangleStrip),
        (Mode::Triangles, 0, 6, vec![0, 1, 2, 1, 3, 2, 4, 5, 0])
    );
    // Indices 2..=5 only: the mesh starts at element 2.
    assert_eq!(
        run(&[2, 3, 4, 5], Topology::LineStrip),
        (Mode::Lines, 2, 4, vec![0, 1, 1, 2, 2, 3])
    );
    // Triangle list with adjacency: v0 v2 v4 of each 6.
    assert_eq!(
        run(&[0, 7, 1, 7, 2, 7], Topology::TriangleListAdj),
        (Mode::Triangles, 0, 8, vec![0, 1, 2])
    );
    // Line list with adjacency: v1 v2.
    assert_eq!(
        run(&[6, 0, 1, 6], Topology::LineListAdj),
        (Mode::Lines, 0, 7, vec![0, 1])
    );
    // Patch lists: control points as points (an incomplete patch is dropped).
    assert_eq!(
        run(&[3, 2, 1, 0, 5], Topology::PatchList(4)),
        (Mode::Points, 0, 6, vec![3, 2, 1, 0])
    );
    // A cut in a list ends the incomplete triangle (spec §8.12).
    assert_eq!(
        run(&[0, 1, 0xffff, 2, 3, 4], Topology::TriangleList),
        (Mode::Triangles, 0, 5, vec![2, 3, 4])
    );
    // Patches as triangles when asked.
    let ibb = u16s(&[0, 1, 2]);
    let input = positions_input(
        &vb,
        &elements,
        Some(&ibb),
        Topology::PatchList(3),
        DrawCall::DrawIndexed {
            index_count: 3,
            start_index: 0,
            base_vertex: 0,
        },
    );
    let m = Mesh::build(
        &input,
        &MeshOptions {
            patch_triangles: true,
            ..MeshOptions::default()
        },
    )
    .unwrap();
    assert_eq!(
        (m.mode, m.indices.clone()),
        (Mode::Triangles, vec![0, 1, 2])
    );
}

/// An index past the vertex data reads zero in the input assembler; the export says so.
#[test]
fn index_past_the_data_is_a_warning_with_the_value() {
    let elements = [InputElementDesc::per_vertex(
        "POSITION",
        0,
        Format::R32_FLOAT,
        0,
        0,
    )];
    let vb = f32s(&[1.0, 2.0, 3.0]);
    let ibb = u16s(&[0, 1, 40]);
    let input = positions_input(
        &vb,
        &elements,
        Some(&ibb),
        Topology::TriangleList,
        DrawCall::DrawIndexed {
            index_count: 3,
            start_index: 0,
            base_vertex: 0,
        },
    );
    let m = Mesh::build(&input, &MeshOptions::default()).unwrap();
    assert_eq!(m.vertex_count, 41);
    assert_eq!(attr(&m, "POSITION").values[40], [0, 0, 0, ONE]);
    assert!(
        m.warnings.iter().any(|w| w
            .starts_with("vb: 38 of the draw's vertices read past the buffer's 3")
            && w.contains("first: element number 3")),
        "{:?}",
        m.warnings
    );
    // Wildly spread element numbers are compacted (not 65536 vertices for 3).
    let ibb = u16s(&[0, 1, 65000]);
    let input = positions_input(
        &vb,
        &elements,
        Some(&ibb),
        Topology::TriangleList,
        DrawCall::DrawIndexed {
            index_count: 3,
            start_index: 0,
            base_vertex: 0,
        },
    );
    let m = Mesh::build(&input, &MeshOptions::default()).unwrap();
    assert_eq!(m.vertex_count, 3);
    assert_eq!(m.vertex_elements, Some(vec![0, 1, 65000]));
    assert_eq!(m.indices, [0, 1, 2]);
}

/// The mesh records the draw's vertex stream (one mesh vertex per position, cuts taking
/// none), the vertex-id base and the start instance: what `inlay view` turns into decode's
/// rows. Hand-worked: indices 5 3 cut 4 5 with base vertex 2 read elements 7 5 6 7; the
/// range 5..=7 makes mesh vertices 0..=2, so the stream is 2 0 1 2.
#[test]
fn stream_and_vertex_ids() {
    let elements = [InputElementDesc::per_vertex(
        "POSITION",
        0,
        Format::R32_FLOAT,
        0,
        0,
    )];
    let vb = f32s(&(0..10).map(|k| k as f32).collect::<Vec<_>>());
    let ibb = u16s(&[5, 3, 0xffff, 4, 5]);
    let input = positions_input(
        &vb,
        &elements,
        Some(&ibb),
        Topology::LineStrip,
        DrawCall::DrawIndexedInstanced {
            index_count_per_instance: 5,
            instance_count: 2,
            start_index: 0,
            base_vertex: 2,
            start_instance: 9,
        },
    );
    let m = Mesh::build(&input, &MeshOptions::default()).unwrap();
    assert_eq!((m.vertex_base, m.vertex_count), (5, 3));
    assert_eq!(m.stream, [2, 0, 1, 2]);
    assert_eq!(
        m.indices,
        [2, 0, 1, 2],
        "lines 7-5 and 6-7: the cut splits the strip"
    );
    assert_eq!((m.vertex_id_base, m.start_instance), (2, 9));
    // A non-indexed draw: the base is StartVertexLocation, the stream runs in order.
    let input = positions_input(
        &vb,
        &elements,
        None,
        Topology::TriangleList,
        DrawCall::Draw {
            vertex_count: 4,
            start_vertex: 3,
        },
    );
    let m = Mesh::build(&input, &MeshOptions::default()).unwrap();
    assert_eq!(
        m.stream,
        [0, 1, 2, 3],
        "the fourth position is in no triangle but is read"
    );
    assert_eq!(m.indices, [0, 1, 2]);
    assert_eq!(
        (m.vertex_base, m.vertex_id_base, m.start_instance),
        (3, 3, 0)
    );
}

/// Float pairs in slot 0 (stride 8, `vb0`) and 32-bit instance data in slot 1 (stride 4,
/// `vb1`), drawn as 5 instances of 3 vertices.
fn instanced_input<'a>(
    elements: &'a [InputElementDesc],
    vb: &'a [u8],
    inst: &'a [u8],
) -> MeshInput<'a> {
    let slot = |slot, stride, data, file| InputSlot {
        slot,
        stride,
        offset: 0,
        data: SlotSource::Binary(data),
        file,
    };
    MeshInput {
        elements,
        names: Vec::new(),
        slots: vec![slot(0, 8, vb, "vb0"), slot(1, 4, inst, "vb1")],
        index: None,
        topology: Topology::TriangleList,
        draw: DrawCall::DrawInstanced {
            vertex_count_per_instance: 3,
            instance_count: 5,
            start_vertex: 0,
            start_instance: 0,
        },
        files: Vec::new(),
    }
}

/// Per-instance data in its own slot, step rate 2: first / expand / attributes.
#[test]
fn instances_three_ways() {
    let elements = [
        InputElementDesc::per_vertex("POSITION", 0, Format::R32G32_FLOAT, 0, 0),
        InputElementDesc::per_instance("INSTANCEDATA", 0, Format::R32_UINT, 1, 0, 2),
    ];
    let vb = f32s(&[0.0, 0.0, 1.0, 0.0, 0.0, 1.0]);
    let inst: Vec<u8> = [10u32, 20, 30]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let input = instanced_input(&elements, &vb, &inst);
    let first = Mesh::build(&input, &MeshOptions::default()).unwrap();
    assert_eq!(first.instance_count, 1);
    assert_eq!(attr(&first, "INSTANCEDATA").values, vec![[10, 0, 0, 1]; 3]);
    let opts = |instances| MeshOptions {
        instances,
        ..MeshOptions::default()
    };
    let a = Mesh::build(&input, &opts(Instances::Attributes)).unwrap();
    assert_eq!(a.instance_count, 5);
    // Instance j reads element j / 2.
    let got: Vec<u32> = a.instance_attributes[0]
        .values
        .iter()
        .map(|v| v[0])
        .collect();
    assert_eq!(got, [10, 10, 20, 20, 30]);
    let mut glb = Vec::new();
    mesh::gltf::write_glb(&a, &mut glb).unwrap();
    let back = mesh::gltf::read_glb("a.glb", &glb, &mut |_| Err("none".into())).unwrap();
    // Exact copies are one SCALAR FLOAT per format component (integers as their exact
    // float values), beside an all-zero TRANSLATION.
    let find = |name: &str| {
        back.instance_attributes
            .iter()
            .find(|a| a.0 == name)
            .unwrap_or_else(|| panic!("no {name}"))
    };
    let inst_back: Vec<[u32; 4]> = find("_INSTANCEDATA_X").1.clone();
    let f = |x: f32| x.to_bits();
    assert_eq!(inst_back[1], [f(10.0), 0, 0, 0]);
    assert!(
        back.instance_attributes
            .iter()
            .all(|a| a.0 != "_INSTANCEDATA_Y")
    );
    let got: Vec<f32> = inst_back.iter().map(|v| f32::from_bits(v[0])).collect();
    assert_eq!(got, [10.0, 10.0, 20.0, 20.0, 30.0]);
    assert_eq!(find("TRANSLATION").1, vec![[0, 0, 0, 0]; 5]);
    let e = Mesh::build(&input, &opts(Instances::Expand)).unwrap();
    let mut glb = Vec::new();
    mesh::gltf::write_glb(&e, &mut glb).unwrap();
    let json_len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let doc: serde_json::Value = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
    assert_eq!(doc["meshes"].as_array().unwrap().len(), 5);
    // Per-vertex accessors are shared by every instance's mesh.
    assert_eq!(
        doc["meshes"][0]["primitives"][0]["attributes"]["POSITION"],
        doc["meshes"][4]["primitives"][0]["attributes"]["POSITION"]
    );
}

/// `.fmt` with per-slot strides and remapped semantics, `.vb0`/`.vb1`/`.ib` beside it.
#[test]
fn fmt_slots_and_remapped_semantics() {
    let d = dir("fmt");
    let fmt = "vb0 stride: 8\nvb1 stride: 4\ntopology: trianglelist\nformat: DXGI_FORMAT_R32_UINT\n\
element[0]:\n  SemanticName: ATTRIBUTE\n  SemanticIndex: 0\n  Format: R32G32_FLOAT\n  InputSlot: 0\n  AlignedByteOffset: 0\n  InputSlotClass: per-vertex\n  InstanceDataStepRate: 0\n  RemappedSemanticName: POSITION\n  RemappedSemanticIndex: 0\n\
element[1]:\n  SemanticName: ATTRIBUTE\n  SemanticIndex: 1\n  Format: B8G8R8A8_UNORM\n  InputSlot: 1\n  AlignedByteOffset: 0\n  InputSlotClass: per-vertex\n  InstanceDataStepRate: 0\n  RemappedSemanticName: COLOR\n  RemappedSemanticIndex: 0\n";
    let p = write(&d, "Body.fmt", fmt.as_bytes());
    write(&d, "Body.vb0", &f32s(&[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]));
    // B8G8R8A8: byte 0 is blue (lane z).
    write(
        &d,
        "Body.vb1",
        &[255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 0],
    );
    write(
        &d,
        "Body.ib",
        &[2u32, 1, 0]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect::<Vec<_>>(),
    );
    let c = capture::load_dump(&p).unwrap();
    let m = Mesh::from_capture(&c, &MeshOptions::default()).unwrap();
    assert_eq!(m.layout[0].semantic_name, "ATTRIBUTE");
    assert_eq!(m.indices, [2, 1, 0]);
    assert_eq!(
        attr(&m, "POSITION").values[2],
        [0x4080_0000, 0x40a0_0000, 0, ONE]
    );
    assert_eq!(attr(&m, "COLOR").values[0], [0, 0, ONE, ONE]);
    assert_eq!(attr(&m, "COLOR").values[2], [ONE, 0, 0, 0]);
}

/// blender_3dmigoto writes the whole layout into a `.fmt` (`write_fmt_file`) but a `vbN
/// stride:` line and a buffer only for the slots it exported (`export_3dmigoto`), and its
/// import skips per-instance elements and slots with no buffer ("unavailable due to missing
/// vbN"): the element is left out with a warning, the rest reads exactly. GIMI's single
/// `stride:` with the whole layout: the per-instance element is left out of the merged `.vb`.
#[test]
fn fmt_elements_no_buffer_holds_are_left_out() {
    let d = dir("fmt-left-out");
    let block = |i: u32, name: &str, format: &str, slot: u32, class: &str, rate: u32| {
        format!(
            "element[{i}]:\n  SemanticName: {name}\n  SemanticIndex: 0\n  Format: {format}\n  \
             InputSlot: {slot}\n  AlignedByteOffset: 0\n  InputSlotClass: {class}\n  \
             InstanceDataStepRate: {rate}\n"
        )
    };
    let layout = [
        block(0, "POSITION", "R32G32_FLOAT", 0, "per-vertex", 0),
        block(1, "INSTANCEPOS", "R32G32B32A32_FLOAT", 1, "per-instance", 1),
        block(2, "FOG", "R32_FLOAT", 2, "per-vertex", 0),
    ]
    .concat();
    let positions = f32s(&[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
    let fmt = format!("vb0 stride: 8\nvb2 stride: 4\ntopology: pointlist\n{layout}");
    let p = write(&d, "M.fmt", fmt.as_bytes());
    write(&d, "M.vb0", &positions);
    let c = capture::load_dump(&p).unwrap();
    let names: Vec<_> = c.elements.iter().map(|e| e.semantic_name.clone()).collect();
    assert_eq!(names, [Some("POSITION".to_string())]);
    let w: Vec<&str> = c.warnings.iter().map(|w| w.message.as_str()).collect();
    assert!(
        w.contains(&"element[1] left out: slot 1 has no `vb1 stride:` line (the importers skip what no buffer holds too: blender_3dmigoto's import reads the per-vertex data of the buffers it has)")
            && w.iter().any(|m| m.starts_with("element[2] left out: slot 2 has no buffer (")),
        "{w:?}"
    );
    let m = Mesh::from_capture(&c, &MeshOptions::default()).unwrap();
    assert_eq!(
        attr(&m, "POSITION").values[1],
        [0x4000_0000, 0x4040_0000, 0, ONE]
    );
    // One stride, one merged .vb, the whole layout.
    let fmt = format!(
        "stride: 8\ntopology: pointlist\n{}{}",
        block(0, "POSITION", "R32G32_FLOAT", 0, "per-vertex", 0),
        block(1, "INSTANCEPOS", "R32G32B32A32_FLOAT", 1, "per-instance", 1)
    );
    let p = write(&d, "G.fmt", fmt.as_bytes());
    write(&d, "G.vb", &positions);
    let c = capture::load_dump(&p).unwrap();
    assert_eq!(c.elements.len(), 1);
    assert!(
        c.warnings[0]
            .message
            .starts_with("element[1] left out: per-instance data, and the .vb holds vertices"),
        "{:?}",
        c.warnings
    );
    assert!(Mesh::from_capture(&c, &MeshOptions::default()).is_ok());
    // Nothing left: an error naming every element and why.
    let p = write(
        &d,
        "N.fmt",
        format!("stride: 8\ntopology: pointlist\n{layout}").as_bytes(),
    );
    let e = capture::load_dump(&p).unwrap_err().to_string();
    assert!(
        e.contains("no element has a buffer to read (slot 0 has no buffer ("),
        "{e}"
    );
    assert!(
        e.contains("element[0]") && e.contains("slot 1 has no `vb1 stride:` line: element[1]"),
        "{e}"
    );
}

/// The `.fmt` writer resolves APPEND_ALIGNED offsets: the importers read
/// `AlignedByteOffset` as a number (blender_3dmigoto's `InputLayoutElement.from_file`
/// refuses `append`; XXMITools' `int()` raises). D3D11's rule: after the slot's previous
/// element, rounded up to the element's alignment (4 bytes here; 1-byte after 1-byte packs).
#[test]
fn fmt_text_writes_append_offsets_as_numbers() {
    use inlay::capture::fmt::{FmtFile, parse};
    let e = |name: &str, f: Format, slot: u32| {
        InputElementDesc::per_vertex(name, 0, f, slot, APPEND_ALIGNED_ELEMENT)
    };
    let f = FmtFile {
        strides: vec![(Some(0), 20), (Some(1), 2)],
        elements: vec![
            e("A", Format::R8_UNORM, 0),
            e("B", Format::R32G32_FLOAT, 0),
            e("C", Format::R16_FLOAT, 0),
            e("D", Format::R8_UNORM, 1),
            e("E", Format::R8_UNORM, 1),
        ],
        remapped: vec![None; 5],
        ..FmtFile::default()
    };
    let text = f.to_text();
    let offsets: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("  AlignedByteOffset: "))
        .collect();
    assert_eq!(offsets, ["0", "4", "12", "0", "1"]);
    let back = parse("x.fmt", text.as_bytes()).unwrap();
    let got: Vec<u32> = back
        .elements
        .iter()
        .map(|e| e.aligned_byte_offset)
        .collect();
    assert_eq!(got, [0, 4, 12, 0, 1]);
}

/// RenderDoc CSV: one row per index, vertices rebuilt from IDX.
#[test]
fn renderdoc_csv_rebuilds_the_vertex_list() {
    let d = dir("csv");
    let csv = "VTX, IDX, POSITION.x, POSITION.y, POSITION.z, TEXCOORD0.x, TEXCOORD0.y, BLENDINDICES.x\r\n\
0, 5, 1.0, 2.0, 3.0, 0.5, 0.25, 3\r\n1, 6, 4.0, 5.0, 6.0, 1, 0, 4\r\n2, 7, 7.0, -8.0, 9.0, 0, 1, 5\r\n\
3, 6, 4.0, 5.0, 6.0, 1, 0, 4\r\n4, 5, 1.0, 2.0, 3.0, 0.5, 0.25, 3\r\n5, 8, -1.#INF, 0, 0, 0, 0, 6\r\n";
    let p = write(&d, "draw.csv", csv.as_bytes());
    let c = capture::load_dump(&p).unwrap();
    assert_eq!(c.elements[2].format, Format::R32_UINT);
    let m = Mesh::from_capture(&c, &MeshOptions::default()).unwrap();
    assert_eq!((m.vertex_base, m.vertex_count), (5, 4));
    assert_eq!(m.indices, [0, 1, 2, 1, 0, 3]);
    assert_eq!(
        attr(&m, "POSITION").values[2][..3],
        [0x40e0_0000, 0xc100_0000, 0x4110_0000]
    );
    assert_eq!(attr(&m, "POSITION").values[3][0], 0xff80_0000);
    assert_eq!(attr(&m, "BLENDINDICES").values[1], [4, 0, 0, 1]);
    // Same IDX with other values: a warning naming the line.
    let bad = csv.replace("3, 6, 4.0", "3, 6, 4.5");
    let c = capture::csv::parse("x.csv", bad.as_bytes()).unwrap();
    assert!(
        c.warnings.iter().any(|w| w
            .to_string()
            .starts_with("x.csv:5: this IDX was listed before")),
        "{:?}",
        c.warnings
    );
}

fn err(file: &str, text: &str) -> String {
    capture::migoto::parse_vb_txt(file, text.as_bytes(), true)
        .unwrap_err()
        .to_string()
}

const ONE_ELEMENT: &str = "stride: 4\ntopology: pointlist\nelement[0]:\n  SemanticName: POSITION\n  SemanticIndex: 0\n  Format: R32_FLOAT\n  InputSlot: 0\n  AlignedByteOffset: 0\n  InputSlotClass: per-vertex\n  InstanceDataStepRate: 0\n\nvertex-data:\n\nvb0[0]+000 POSITION: 1\n";

/// Bad input: errors and warnings name the file, the line and the value.
#[test]
fn bad_input_names_file_line_and_value() {
    assert_eq!(
        err("a.txt", &ONE_ELEMENT.replace("R32_FLOAT", "R99_FLOAT")),
        "a.txt:6: unknown DXGI format (expected a name such as R32G32B32_FLOAT) (`R99_FLOAT`)"
    );
    assert_eq!(
        err("a.txt", &ONE_ELEMENT.replace("pointlist", "trianglefan")),
        "a.txt:2: unknown primitive topology (expected trianglelist, trianglestrip, linelist, \
         linestrip, pointlist, …_adj or N_control_point_patchlist) (`trianglefan`)"
    );
    assert_eq!(
        err(
            "a.txt",
            &format!("{ONE_ELEMENT}vb0[70000]+000 POSITION: 2\n")
        ),
        "a.txt:15: vertex number 70000 jumps past the 1 vertices listed before it \
         (`vb0[70000]+000 POSITION: 2`)"
    );
    assert!(err("a.txt", "stride: 4\n").contains("no `element[i]:` blocks"));
    assert_eq!(
        err("a.txt", &ONE_ELEMENT.replace("element[0]", "element[3]")),
        "a.txt:3: expected `element[0]:` (`element[3]:`)"
    );
    // A value the format cannot hold, and a wrong number of values: warnings, value missing.
    let vb = capture::migoto::parse_vb_txt(
        "b.txt",
        format!("{ONE_ELEMENT}\nvb0[1]+000 POSITION: 1, 2\nvb0[2]+000 POSITION: zz\n").as_bytes(),
        true,
    )
    .unwrap();
    let shown: Vec<String> = vb.warnings.iter().map(|w| w.to_string()).collect();
    assert!(
        shown
            .iter()
            .any(|w| w
                .starts_with("b.txt:16: vertex 1 element[0]: 2 values for a 1-component format")),
        "{shown:?}"
    );
    assert!(
        shown.iter().any(
            |w| w.starts_with("b.txt:17: vertex 2 element[0]: not a number")
                && w.ends_with("(`zz`)")
        ),
        "{shown:?}"
    );
    // Index dumps.
    let ib_err = |t: &str| {
        capture::migoto::parse_ib_txt("i.txt", t.as_bytes())
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        ib_err("format: DXGI_FORMAT_R16_UINT\n\n0 1 70000\n"),
        "i.txt:3: index value does not fit the R16_UINT format (`70000`)"
    );
    assert_eq!(
        ib_err("format: DXGI_FORMAT_R8_UINT\n"),
        "i.txt:1: an index buffer format must be DXGI_FORMAT_R16_UINT or DXGI_FORMAT_R32_UINT (`DXGI_FORMAT_R8_UINT`)"
    );
    assert_eq!(
        ib_err("0 1 2\n"),
        "i.txt:1: indices before the `format:` line (`0 1 2`)"
    );
    let ib = capture::migoto::parse_ib_txt(
        "i.txt",
        b"index count: 6\nformat: DXGI_FORMAT_R16_UINT\n\n0 1 2\n",
    )
    .unwrap();
    assert_eq!(
        ib.warnings[0].to_string(),
        "i.txt:1: index count disagrees with the 3 indices listed (`6`)"
    );
    // A truncated .buf: a warning naming the file and its size.
    let d = dir("truncated");
    write(
        &d,
        "T-vb0=1.txt",
        ONE_ELEMENT
            .replace("stride: 4", "stride: 4\nvertex count: 8")
            .as_bytes(),
    );
    write(&d, "T-vb0=1.buf", &[0, 0, 128]);
    let c = capture::load_dump(&d.join("T-vb0=1.txt")).unwrap();
    assert!(
        c.warnings.iter().any(|w| w.value.as_deref() == Some("3")
            && w.file.ends_with("T-vb0=1.buf")
            && w.message.contains("fewer bytes")),
        "{:?}",
        c.warnings
    );
    let m = Mesh::from_capture(&c, &MeshOptions::default()).unwrap();
    assert!(
        m.warnings
            .iter()
            .any(|w| w.contains("read past the buffer's 0 whole vertices")),
        "{:?}",
        m.warnings
    );
    // A .fmt naming no buffer for a slot.
    let f = write(&d, "N.fmt", b"vb0 stride: 4\nelement[0]:\n  SemanticName: P\n  Format: R32_FLOAT\n  InputSlot: 0\n  AlignedByteOffset: 0\n");
    let e = capture::load_dump(&f).unwrap_err().to_string();
    assert!(
        e.contains("no element has a buffer to read (slot 0 has no buffer (")
            && e.contains("N.vb0 or ")
            && e.ends_with("N.vb): element[0])"),
        "{e}"
    );
    // CSV rows shorter than the header.
    let e = capture::csv::parse("r.csv", b"VTX, IDX, POSITION.x\n0, 0\n")
        .unwrap_err()
        .to_string();
    assert_eq!(e, "r.csv:2: 2 cells where the header has 3 (`0, 0`)");
}

/// Readers never panic on damaged input (every prefix of a valid dump, and byte flips).
#[test]
fn damaged_dumps_never_panic() {
    let text = ONE_ELEMENT.as_bytes();
    for n in 0..=text.len() {
        let _ = capture::migoto::parse_vb_txt("p.txt", &text[..n], true);
        let _ = capture::migoto::parse_ib_txt("p.txt", &text[..n]);
        let _ = capture::fmt::parse("p.fmt", &text[..n]);
        let _ = capture::csv::parse("p.csv", &text[..n]);
    }
    let mut t = text.to_vec();
    for i in 0..t.len() {
        let old = t[i];
        for b in [0u8, b'\n', b':', b'[', 0xff] {
            t[i] = b;
            let _ = capture::migoto::parse_vb_txt("p.txt", &t, true);
            let _ = capture::fmt::parse("p.fmt", &t);
        }
        t[i] = old;
    }
}

/// Issue 17: export reads what the draw reads, so the draw-time validation reaches it: a
/// slot the layout uses with no buffer (#348) and instances past a per-instance buffer (#356)
/// are warnings of the mesh, with the first instance and the count; a per-vertex read past
/// the buffer is warned once (the mesh's own count), not twice.
#[test]
fn export_warns_about_missing_slots_and_instances() {
    let elements = [
        InputElementDesc::per_vertex("POSITION", 0, Format::R32G32_FLOAT, 0, 0),
        InputElementDesc::per_instance("INSTANCEDATA", 0, Format::R32_UINT, 1, 0, 2),
        InputElementDesc::per_vertex("NORMAL", 0, Format::R32_FLOAT, 2, 0),
    ];
    // Two vertices of three: the third reads past slot 0.
    let vb = f32s(&[0.0, 0.0, 1.0, 0.0]);
    // Two instance elements: instances 4 (element 2) reads past slot 1.
    let inst: Vec<u8> = [10u32, 20].iter().flat_map(|v| v.to_le_bytes()).collect();
    let input = instanced_input(&elements, &vb, &inst);
    let m = Mesh::build(&input, &MeshOptions::default()).unwrap();
    let unbound: Vec<&String> = m
        .warnings
        .iter()
        .filter(|w| w.starts_with("#348 DEVICE_DRAW_VERTEX_BUFFER_NOT_SET"))
        .collect();
    assert_eq!(unbound.len(), 1, "{:?}", m.warnings);
    assert!(unbound[0].contains("slot 2"), "{}", unbound[0]);
    let instances: Vec<&String> = m
        .warnings
        .iter()
        .filter(|w| w.starts_with("#356 DEVICE_DRAW_VERTEX_BUFFER_TOO_SMALL"))
        .collect();
    assert_eq!(instances.len(), 1, "{:?}", m.warnings);
    assert!(instances[0].contains("slot 1"), "{}", instances[0]);
    assert!(instances[0].contains('4'), "{}", instances[0]);
    let vertex_past: Vec<&String> = m
        .warnings
        .iter()
        .filter(|w| w.starts_with("vb0: 1 of the draw's vertices read past"))
        .collect();
    assert_eq!(vertex_past.len(), 1, "{:?}", m.warnings);
    assert_eq!(m.warnings.len(), 3, "{:?}", m.warnings);
}
