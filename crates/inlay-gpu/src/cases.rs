//! The suite: every IA format (every code of every ≤16-bit component), every draw kind,
//! indexed draws with base vertex, strips with cuts, instancing with step rates 0, 1 and 3
//! and a start instance, several slots, bind offsets — each compared with inlay's reference
//! input assembler.

use std::collections::{HashMap, HashSet};

use inlay::assembler::{DrawCall, InputAssembler, Topology};
use inlay::buffer::{IndexBufferBinding, IndexFormat, VertexBufferBinding};
use inlay::element::InputElementDesc;
use inlay::format::{Format, Kind};
use inlay::layout::InputLayout;
use inlay::layout::StripCut;
use inlay::lower::remedy::SlotData;
use inlay::lower::{self, BindingSource, DrawShape, Remedy, Subject};
use inlay::target::{Api, FeatureLevel, Target};

use crate::draw::{Backend, GpuBuffer, GpuDraw};
use crate::spirv::InputType;

/// The outcome of one case.
pub struct CaseResult {
    /// Case name.
    pub name: String,
    /// Vertex records compared.
    pub compared: u64,
    /// Records that differ (or are missing, or extra).
    pub differences: u64,
    /// Lanes that differed within the UNORM/SNORM tolerance.
    pub within_tolerance: u64,
    /// Lanes where the device quieted a signalling NaN that Direct3D (and inlay) keep
    /// signalling, counted only when that tolerance is on.
    pub nan_quieted: u64,
    /// Remedies the lowering applied.
    pub remedies: Vec<String>,
    /// The first difference, described.
    pub first_difference: Option<String>,
    /// A failure to run the case at all.
    pub error: Option<String>,
}

struct Slot {
    slot: u32,
    data: Vec<u8>,
    stride: u32,
    offset: u32,
}

struct Case {
    name: String,
    elements: Vec<InputElementDesc>,
    slots: Vec<Slot>,
    index: Option<(Vec<u8>, IndexFormat, u32)>,
    topology: Topology,
    call: Call,
    /// A Direct3D 12 case: the pipeline's strip cut (d3d12-rules.md §D); `None` for D3D11.
    d3d12: Option<StripCut>,
}

#[derive(Clone, Copy)]
enum Call {
    Draw(u32, u32),
    DrawIndexed(u32, u32, i32),
    DrawInstanced(u32, u32, u32, u32),
    DrawIndexedInstanced(u32, u32, u32, i32, u32),
    InstancedIndirect(u32, u32, u32, u32),
    IndexedInstancedIndirect(u32, u32, u32, i32, u32),
    Auto(u32),
}

/// Vulkan draw parameters for a D3D call: (count, instances, first, vertex offset, first
/// instance, indirect). DrawAuto becomes a Draw of `filled_size / stride` vertices, what
/// a translation layer without transform feedback does.
fn vk_params(call: Call, slot0_stride: u32) -> (u32, u32, u32, i32, u32, bool) {
    match call {
        Call::Draw(n, s) => (n, 1, s, 0, 0, false),
        Call::DrawIndexed(n, si, bv) => (n, 1, si, bv, 0, false),
        Call::DrawInstanced(n, i, sv, st) => (n, i, sv, 0, st, false),
        Call::DrawIndexedInstanced(n, i, si, bv, st) => (n, i, si, bv, st, false),
        Call::InstancedIndirect(n, i, sv, st) => (n, i, sv, 0, st, true),
        Call::IndexedInstancedIndirect(n, i, si, bv, st) => (n, i, si, bv, st, true),
        Call::Auto(filled) => (filled / slot0_stride.max(1), 1, 0, 0, 0, false),
    }
}

fn words(ws: &[u32]) -> Vec<u8> {
    ws.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// 32-bit lane values worth seeing: zeros, denormals, infinities, NaNs (quiet, signalling,
/// with payloads), extremes; then a scrambled sweep.
const SPECIALS: [u32; 16] = [
    0,
    0x8000_0000,
    1,
    0x807f_ffff,
    0x7f80_0000,
    0xff80_0000,
    0x7fc0_0000,
    0x7f80_0001,
    0xffff_ffff,
    0x3f80_0000,
    0x0080_0000,
    0x7f7f_ffff,
    0x7fff_ffff,
    0x8000_0001,
    0xbf80_0000,
    0x4b00_0001,
];

fn format_case(format: Format, quick: bool) -> Case {
    let info = format.info().expect("IA format has a row");
    let max_bits = info.components.iter().map(|c| c.bits).max().unwrap_or(8) as u32;
    let n: u32 = if max_bits <= 16 {
        if quick {
            (1u32 << max_bits).min(1024)
        } else {
            1 << max_bits
        }
    } else {
        4096
    };
    let size = info.byte_size() as usize;
    let mut data = vec![0u8; size * n as usize];
    for v in 0..n {
        let mut bits: u128 = 0;
        for (ci, c) in info.components.iter().enumerate() {
            let b = c.bits as u32;
            let code: u64 = if b <= 16 {
                // An odd multiplier makes v -> code a bijection on every b-bit range.
                ((v as u64) * (2 * ci as u64 + 1) + 37 * ci as u64) & ((1u64 << b) - 1)
            } else if (v as usize) < SPECIALS.len() {
                SPECIALS[(v as usize + ci) % SPECIALS.len()] as u64
            } else {
                (v as u64)
                    .wrapping_mul(0x9e37_79b9)
                    .wrapping_add(ci as u64 * 0x85eb_ca6b)
                    & 0xffff_ffff
            };
            bits |= (code as u128) << c.bit_offset;
        }
        let bytes = bits.to_le_bytes();
        data[v as usize * size..(v as usize + 1) * size].copy_from_slice(&bytes[..size]);
    }
    Case {
        name: format!("format {format}"),
        elements: vec![InputElementDesc::per_vertex("V", 0, format, 0, 0)],
        slots: vec![Slot {
            slot: 0,
            data,
            stride: size as u32,
            offset: 0,
        }],
        index: None,
        topology: Topology::PointList,
        call: Call::Draw(n, 0),
        d3d12: None,
    }
}

/// Three per-vertex and three per-instance slots (step rates 1, 3 and 0), a bind offset.
fn multi_slot(
    name: &str,
    call: Call,
    topology: Topology,
    index: Option<(Vec<u8>, IndexFormat, u32)>,
) -> Case {
    use inlay::element::APPEND_ALIGNED_ELEMENT as APP;
    let per_instance = |name: &str, idx, f, slot, off, rate| InputElementDesc {
        semantic_name: Some(name.to_string()),
        semantic_index: idx,
        format: f,
        input_slot: slot,
        aligned_byte_offset: off,
        input_slot_class: 1,
        instance_data_step_rate: rate,
    };
    let elements = vec![
        InputElementDesc::per_vertex("POSITION", 0, Format::R32G32B32_FLOAT, 0, 0),
        InputElementDesc::per_vertex("COLOR", 0, Format::R8G8B8A8_UNORM, 0, APP),
        InputElementDesc::per_vertex("NORMAL", 0, Format::R10G10B10A2_UNORM, 0, APP),
        InputElementDesc::per_vertex("TEXCOORD", 0, Format::R16G16_SNORM, 1, 0),
        InputElementDesc::per_vertex("TEXCOORD", 1, Format::R16G16B16A16_FLOAT, 1, APP),
        InputElementDesc::per_vertex("BLENDINDICES", 0, Format::R8G8B8A8_UINT, 2, 0),
        per_instance("WORLD", 0, Format::R32G32B32A32_FLOAT, 3, 0, 1),
        per_instance("WORLD", 1, Format::R32G32B32A32_FLOAT, 3, APP, 1),
        per_instance("WORLD", 2, Format::R32G32B32A32_FLOAT, 3, APP, 1),
        per_instance("WORLD", 3, Format::R32G32B32A32_FLOAT, 3, APP, 1),
        per_instance("TINT", 0, Format::R16G16B16A16_SINT, 4, 0, 3),
        per_instance("ID", 0, Format::R32_UINT, 5, 0, 0),
    ];
    let pattern = |len: usize, seed: u32| -> Vec<u8> {
        (0..len)
            .map(|i| ((i as u32).wrapping_mul(2_654_435_761).wrapping_add(seed) >> 13) as u8)
            .collect()
    };
    // Positions as real floats so every lane is a finite number; the rest raw patterns.
    let verts = 64usize;
    let mut s0 = Vec::new();
    for v in 0..verts {
        for c in 0..3 {
            s0.extend_from_slice(&((v * 3 + c) as f32 * 0.25 - 7.0).to_le_bytes());
        }
        s0.extend_from_slice(&pattern(8, v as u32)); // COLOR + NORMAL
    }
    Case {
        name: name.to_string(),
        elements,
        slots: vec![
            Slot {
                slot: 0,
                data: s0,
                stride: 20,
                offset: 0,
            },
            Slot {
                slot: 1,
                data: pattern(12 * verts + 12, 7),
                stride: 12,
                offset: 12,
            },
            Slot {
                slot: 2,
                data: pattern(4 * verts, 99),
                stride: 4,
                offset: 0,
            },
            Slot {
                slot: 3,
                data: words(
                    &(0..64 * 16)
                        .map(|i| (i as f32 * 0.5).to_bits())
                        .collect::<Vec<_>>(),
                ),
                stride: 64,
                offset: 0,
            },
            Slot {
                slot: 4,
                data: pattern(8 * 32, 5),
                stride: 8,
                offset: 0,
            },
            Slot {
                slot: 5,
                data: words(&(0..32).map(|i| 1000 + i).collect::<Vec<_>>()),
                stride: 4,
                offset: 0,
            },
        ],
        index,
        topology,
        call,
        d3d12: None,
    }
}

/// A [`multi_slot`] case drawn through Direct3D 12's rules with the pipeline's strip cut.
fn d3d12_case(
    name: &str,
    call: Call,
    topology: Topology,
    index: Option<(Vec<u8>, IndexFormat, u32)>,
    cut: StripCut,
) -> Case {
    Case {
        d3d12: Some(cut),
        ..multi_slot(name, call, topology, index)
    }
}

fn indices16(v: &[u16]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn all_cases(quick: bool) -> Vec<Case> {
    let mut cases: Vec<Case> = inlay::format::vertex_formats()
        .map(|i| format_case(Format(i.value), quick))
        .collect();
    let idx: Vec<u16> = (0..40).map(|i| ((i * 7) % 30 + 2) as u16).collect();
    let ib = || Some((indices16(&idx), IndexFormat::R16Uint, 0));
    cases.push(multi_slot(
        "Draw, several slots",
        Call::Draw(30, 4),
        Topology::PointList,
        None,
    ));
    cases.push(multi_slot(
        "DrawInstanced, step rates 1/3/0, start instance 2",
        Call::DrawInstanced(20, 10, 5, 2),
        Topology::TriangleList,
        None,
    ));
    cases.push(multi_slot(
        "DrawIndexed, base vertex 9",
        Call::DrawIndexed(36, 2, 9),
        Topology::TriangleList,
        ib(),
    ));
    cases.push(multi_slot(
        "DrawIndexed, base vertex -2",
        Call::DrawIndexed(30, 0, -2),
        Topology::LineList,
        ib(),
    ));
    cases.push(multi_slot(
        "DrawIndexedInstanced, base vertex 3, start instance 4",
        Call::DrawIndexedInstanced(33, 7, 4, 3, 4),
        Topology::TriangleList,
        ib(),
    ));
    cases.push(multi_slot(
        "DrawInstancedIndirect",
        Call::InstancedIndirect(12, 6, 3, 1),
        Topology::PointList,
        None,
    ));
    cases.push(multi_slot(
        "DrawIndexedInstancedIndirect",
        Call::IndexedInstancedIndirect(24, 5, 6, 5, 3),
        Topology::TriangleList,
        ib(),
    ));
    cases.push(multi_slot(
        "DrawAuto (filled 400 bytes)",
        Call::Auto(400),
        Topology::PointList,
        None,
    ));
    let strip16 = indices16(&[
        0, 1, 2, 3, 0xffff, 4, 5, 6, 7, 8, 0xffff, 0xffff, 9, 10, 11, 12, 0xffff, 13,
    ]);
    cases.push(multi_slot(
        "triangle strip, R16 cuts, instanced",
        Call::DrawIndexedInstanced(18, 3, 0, 1, 0),
        Topology::TriangleStrip,
        Some((strip16, IndexFormat::R16Uint, 0)),
    ));
    let strip32: Vec<u8> = words(&[5, 6, 7, 0xffff_ffff, 8, 9, 10, 11, 0xffff_ffff, 12, 13]);
    cases.push(multi_slot(
        "line strip, R32 cuts, index offset 4",
        Call::DrawIndexed(10, 0, 0),
        Topology::LineStrip,
        Some((strip32, IndexFormat::R32Uint, 4)),
    ));
    let list_cut = indices16(&[0, 1, 2, 3, 0xffff, 4, 5, 6, 7, 8, 9, 0xffff, 10, 11, 12]);
    cases.push(multi_slot(
        "triangle list with cuts",
        Call::DrawIndexed(15, 0, 0),
        Topology::TriangleList,
        Some((list_cut, IndexFormat::R16Uint, 0)),
    ));
    // Direct3D 12 (d3d12-rules.md §D): strip cut as pipeline state, compared with the index
    // whatever its format, strips only; ExecuteIndirect; a stride-0 view.
    cases.push(d3d12_case(
        "D3D12 triangle strip, strip cut 0xFFFF, R16 cuts, instanced",
        Call::DrawIndexedInstanced(18, 3, 0, 1, 0),
        Topology::TriangleStrip,
        Some((
            indices16(&[
                0, 1, 2, 3, 0xffff, 4, 5, 6, 7, 8, 0xffff, 0xffff, 9, 10, 11, 12, 0xffff, 13,
            ]),
            IndexFormat::R16Uint,
            0,
        )),
        StripCut::Cut16,
    ));
    cases.push(d3d12_case(
        "D3D12 triangle strip, strip cut 0xFFFF, R32 index 0xFFFF cuts",
        Call::DrawIndexed(11, 0, 0),
        Topology::TriangleStrip,
        Some((
            words(&[5, 6, 7, 0xffff, 8, 9, 10, 11, 0xffff, 12, 13]),
            IndexFormat::R32Uint,
            0,
        )),
        StripCut::Cut16,
    ));
    // Indices near 0xFFFF with base vertex -65520 address vertices 10-15: 0xFFFF is a
    // vertex (vertex 15) whenever it does not cut.
    let high = indices16(&[65530, 65531, 65532, 65535, 65533, 65534, 65531, 65535]);
    cases.push(d3d12_case(
        "D3D12 triangle strip, strip cut 0xFFFFFFFF, R16 index 0xFFFF is a vertex",
        Call::DrawIndexed(8, 0, -65520),
        Topology::TriangleStrip,
        Some((high.clone(), IndexFormat::R16Uint, 0)),
        StripCut::Cut32,
    ));
    cases.push(d3d12_case(
        "D3D12 triangle list, strip cut 0xFFFF, R16 index 0xFFFF is a vertex",
        Call::DrawIndexed(6, 0, -65520),
        Topology::TriangleList,
        Some((high, IndexFormat::R16Uint, 0)),
        StripCut::Cut16,
    ));
    cases.push(d3d12_case(
        "D3D12 line strip, strip cut disabled, R16 0xFFFF addresses no cut",
        Call::DrawIndexed(6, 0, -65520),
        Topology::LineStrip,
        Some((
            indices16(&[65530, 65535, 65531, 65532, 65535, 65533]),
            IndexFormat::R16Uint,
            0,
        )),
        StripCut::Disabled,
    ));
    // A 32-bit index 0xFFFFFFFF that is a vertex (strip cut 0xFFFF or disabled): with the
    // per-vertex views at stride 0 it reads element 0 in bounds, as every vertex does. No
    // restart value expresses it on a target: the lowering unrolls the strip (Vulkan restart
    // stays off where the cut is disabled).
    let all_ones_vertex = |name: &str, topology, indices: &[u32], cut| {
        let mut c = d3d12_case(
            name,
            Call::DrawIndexedInstanced(indices.len() as u32, 2, 0, 0, 1),
            topology,
            Some((words(indices), IndexFormat::R32Uint, 0)),
            cut,
        );
        for s in &mut c.slots[..3] {
            s.stride = 0;
        }
        c
    };
    cases.push(all_ones_vertex(
        "D3D12 triangle strip, strip cut 0xFFFF, R32 0xFFFF cuts and 0xFFFFFFFF is a vertex",
        Topology::TriangleStrip,
        &[0, 1, 2, 0xffff_ffff, 3, 0xffff, 4, 5, 6, 0xffff_ffff, 7],
        StripCut::Cut16,
    ));
    cases.push(all_ones_vertex(
        "D3D12 line strip, strip cut disabled, R32 0xFFFFFFFF is a vertex",
        Topology::LineStrip,
        &[4, 0xffff_ffff, 5, 6, 0xffff_ffff, 0xffff],
        StripCut::Disabled,
    ));
    cases.push(d3d12_case(
        "D3D12 ExecuteIndirect, one DRAW command",
        Call::InstancedIndirect(9, 4, 2, 3),
        Topology::TriangleList,
        None,
        StripCut::Disabled,
    ));
    let mut zero = d3d12_case(
        "D3D12 DrawInstanced, stride-0 view in slot 2",
        Call::DrawInstanced(12, 2, 1, 0),
        Topology::PointList,
        None,
        StripCut::Disabled,
    );
    zero.slots[2].stride = 0;
    cases.push(zero);
    cases
}

fn input_type(f: Format) -> InputType {
    match f.info().and_then(|i| i.first_kind()) {
        Some(Kind::Uint) => InputType::Uint,
        Some(Kind::Sint) => InputType::Sint,
        _ => InputType::Float,
    }
}

/// Runs every case; `ulp` is the UNORM/SNORM tolerance.
pub fn run_all(gpu: &dyn Backend, ulp: u32, nan_quiet: bool, quick: bool) -> Vec<CaseResult> {
    all_cases(quick)
        .into_iter()
        .map(|c| {
            let name = c.name.clone();
            run_case(gpu, &c, ulp, nan_quiet)
                .unwrap_or_else(|e| CaseResult {
                    name,
                    compared: 0,
                    differences: 0,
                    within_tolerance: 0,
                    nan_quieted: 0,
                    remedies: Vec::new(),
                    first_difference: None,
                    error: Some(e.clone()),
                })
                .with_error_note()
        })
        .collect()
}

impl CaseResult {
    fn with_error_note(mut self) -> Self {
        if let Some(e) = &self.error {
            self.first_difference = Some(format!("error: {e}"));
        }
        self
    }
}

/// The runtime a case runs on: D3D11 at 11_0, or D3D12 at 12_0.
fn target_of(case: &Case) -> Target {
    match case.d3d12 {
        Some(_) => Target::new(Api::D3D12, FeatureLevel::L12_0),
        None => Target::default(),
    }
}

fn layout_of(case: &Case) -> Result<InputLayout, String> {
    let target = target_of(case);
    let pipeline = inlay::PipelineDesc {
        ib_strip_cut_value: case.d3d12.unwrap_or_default().d3d12_value(),
        primitive_topology_type: case.topology.topology_type().d3d12_value(),
        ..inlay::PipelineDesc::default()
    };
    let created = inlay::CreateInputLayout::new(&target, &case.elements)
        .pipeline(pipeline)
        .without_shader();
    created
        .layout
        .ok_or_else(|| format!("{}: layout refused: {:?}", case.name, created.diagnostics))
}

fn d3d_call<'a>(call: Call, args: &'a [u8]) -> DrawCall<'a> {
    match call {
        Call::Draw(n, s) => DrawCall::Draw {
            vertex_count: n,
            start_vertex: s,
        },
        Call::DrawIndexed(n, si, bv) => DrawCall::DrawIndexed {
            index_count: n,
            start_index: si,
            base_vertex: bv,
        },
        Call::DrawInstanced(n, i, sv, st) => DrawCall::DrawInstanced {
            vertex_count_per_instance: n,
            instance_count: i,
            start_vertex: sv,
            start_instance: st,
        },
        Call::DrawIndexedInstanced(n, i, si, bv, st) => DrawCall::DrawIndexedInstanced {
            index_count_per_instance: n,
            instance_count: i,
            start_index: si,
            base_vertex: bv,
            start_instance: st,
        },
        Call::InstancedIndirect(..) | Call::IndexedInstancedIndirect(..) => {
            DrawCall::DrawInstancedIndirect { args, offset: 0 }
        }
        Call::Auto(filled) => DrawCall::DrawAuto {
            filled_size: filled,
        },
    }
}

fn run_case(
    gpu: &dyn Backend,
    case: &Case,
    ulp: u32,
    nan_quiet: bool,
) -> Result<CaseResult, String> {
    let layout = layout_of(case)?;
    let mut ia = InputAssembler::new(&layout, target_of(case));
    for s in &case.slots {
        ia.set_vertex_buffer(
            s.slot,
            Some(VertexBufferBinding {
                data: &s.data,
                stride: s.stride,
                offset: s.offset,
            }),
        )
        .map_err(|e| e.to_string())?;
    }
    if let Some((data, fmt, off)) = &case.index {
        ia.set_index_buffer(Some(IndexBufferBinding {
            data,
            format: *fmt,
            offset: *off,
        }))
        .map_err(|e| e.to_string())?;
    }
    ia.set_topology(case.topology).map_err(|e| e.to_string())?;
    let slot0_stride = case.slots.first().map(|s| s.stride).unwrap_or(0);
    let (count, instances, first, vertex_offset, first_instance, indirect) =
        vk_params(case.call, slot0_stride);
    let args = match case.call {
        Call::InstancedIndirect(n, i, sv, st) => words(&[n, i, sv, st]),
        Call::IndexedInstancedIndirect(n, i, si, bv, st) => words(&[n, i, si, bv as u32, st]),
        _ => Vec::new(),
    };
    let mut call = match case.call {
        Call::IndexedInstancedIndirect(..) => DrawCall::DrawIndexedInstancedIndirect {
            args: &args,
            offset: 0,
        },
        c => d3d_call(c, &args),
    };
    // D3D12 reads indirect arguments through ExecuteIndirect (P21): one command here.
    let commands;
    if case.d3d12.is_some() && matches!(case.call, Call::InstancedIndirect(..)) {
        commands = inlay::assembler::ExecuteIndirect {
            indexed: false,
            byte_stride: 16,
            max_command_count: 1,
            args: &args,
            offset: 0,
            count: None,
        }
        .draws()
        .map_err(|e| e.to_string())?;
        call = commands[0];
    }
    let draw = ia.draw(&call).map_err(|e| e.to_string())?;
    let indexed = case.index.is_some();

    // The reference: every vertex position's registers, keyed by the target's indices.
    let to_gpu_vi = |vid: u32| -> i64 {
        if indexed {
            vid.wrapping_add(vertex_offset as u32) as i32 as i64
        } else {
            vid as i64 + first as i64
        }
    };
    let mut expected: HashMap<(i64, u32), [[u32; 4]; 32]> = HashMap::new();
    for v in draw.vertices() {
        expected.insert((to_gpu_vi(v.vertex_id), v.instance_id), v.registers);
    }
    // Vertices in complete primitives must be seen; others may be (a target may skip
    // vertices that belong to no primitive).
    let mut required: HashSet<(i64, u32)> = HashSet::new();
    {
        let by_position: HashMap<u64, (i64, u32)> = draw
            .vertices()
            .map(|v| (v.position, (to_gpu_vi(v.vertex_id), v.instance_id)))
            .collect();
        for p in draw.primitives() {
            for pos in p.vertices() {
                if let Some(k) = by_position.get(pos) {
                    required.insert(*k);
                }
            }
        }
    }
    let vmin = expected.keys().map(|k| k.0).min().unwrap_or(0);
    let vmax = expected.keys().map(|k| k.0).max().unwrap_or(0);
    let span = (vmax - vmin + 1).max(1) as u32;
    let capacity = span * instances.max(1);

    // Lower for this device.
    let shape = DrawShape {
        strides: case.slots.iter().map(|s| (s.slot, s.stride)).collect(),
        topology: case.topology,
        indexed,
        may_cut: case.index.as_ref().is_some_and(|(d, f, off)| {
            let size = f.size() as usize;
            d.get(*off as usize..)
                .unwrap_or(&[])
                .chunks_exact(size)
                .any(|c| {
                    let v = if size == 2 {
                        u16::from_le_bytes([c[0], c[1]]) as u32
                    } else {
                        u32::from_le_bytes([c[0], c[1], c[2], c[3]])
                    };
                    v == f.cut_value()
                })
        }),
        index_format: case.index.as_ref().map(|(_, f, _)| *f),
    };
    let lowering = lower::lower(&layout, &shape, gpu.profile());
    let mut remedies = Vec::new();
    let mut index = case.index.clone();
    // The draw's index values, as Direct3D reads them (first .. first + count).
    let draw_indices = |(data, fmt, off): &(Vec<u8>, IndexFormat, u32)| -> Vec<u32> {
        let size = fmt.size() as usize;
        let raw: Vec<u32> = data[*off as usize..]
            .chunks_exact(size)
            .map(|c| {
                if size == 2 {
                    u16::from_le_bytes([c[0], c[1]]) as u32
                } else {
                    u32::from_le_bytes([c[0], c[1], c[2], c[3]])
                }
            })
            .collect();
        let start = (first as usize).min(raw.len());
        let end = (first as usize + count as usize).min(raw.len());
        raw[start..end].to_vec()
    };
    // A remedy that replaces the draw's indices with a new list drawn from index 0.
    let mut rewritten = false;
    for f in &lowering.findings {
        match &f.remedy {
            Remedy::None | Remedy::Enable { .. } => {}
            r => remedies.push(
                format!("{:?}", r)
                    .split_whitespace()
                    .next()
                    .unwrap_or("")
                    .to_string(),
            ),
        }
        if let Remedy::ReplaceIndex { from, to } = f.remedy
            && let Some((data, fmt, off)) = &mut index
            && *fmt == IndexFormat::R32Uint
        {
            for c in data[*off as usize..].chunks_exact_mut(4) {
                if u32::from_le_bytes([c[0], c[1], c[2], c[3]]) == from {
                    c.copy_from_slice(&to.to_le_bytes());
                }
            }
        }
        // WebGPU restarts every indexed strip at 0xFFFF, a vertex in this D3D12 draw: the
        // lowering widens the indices (first index and count stay).
        if f.remedy == Remedy::WidenIndices
            && let Some((data, fmt, off)) = &mut index
            && *fmt == IndexFormat::R16Uint
        {
            *data = lower::widen_indices(&data[*off as usize..]).map_err(|e| e.to_string())?;
            *fmt = IndexFormat::R32Uint;
            *off = 0;
        }
        // An all-ones 32-bit index is a vertex in this D3D12 strip: the lowering unrolls the
        // strip into the list its state names.
        if let Remedy::StripToList { cut } = f.remedy
            && let Some(ib) = &case.index
        {
            let (_, list) = lower::strip_to_list(&draw_indices(ib), cut, case.topology, 1 << 28)
                .map_err(|e| e.to_string())?;
            index = Some((words(&list), IndexFormat::R32Uint, 0));
            rewritten = true;
        }
        if f.remedy == Remedy::RewriteIndices
            && let Some(ib @ (_, fmt, _)) = &case.index
        {
            {
                let size = fmt.size() as usize;
                let kept = lower::rewrite_list_cuts(
                    &draw_indices(ib),
                    fmt.cut_value(),
                    case.topology.vertices_per_primitive(),
                );
                let bytes: Vec<u8> = kept
                    .iter()
                    .flat_map(|&i| {
                        if size == 2 {
                            (i as u16).to_le_bytes().to_vec()
                        } else {
                            i.to_le_bytes().to_vec()
                        }
                    })
                    .collect();
                index = Some((bytes, *fmt, 0));
                rewritten = true;
            }
        }
    }
    remedies.sort();
    remedies.dedup();
    let (count, first) = if rewritten {
        let (d, f, _) = index.as_ref().expect("rewritten index");
        ((d.len() / f.size() as usize) as u32, 0)
    } else {
        (count, first)
    };

    let mut buffers = Vec::new();
    let limit = 1u64 << 30;
    let max_vertex_element = (vmax.max(0) as u64) + 1;
    let instance_elements = first_instance as u64 + instances as u64;
    for b in &lowering.state.bindings {
        let Some(slot) = b.slot else { continue };
        let src = case.slots.iter().find(|s| s.slot == slot);
        match b.source {
            BindingSource::Slot => {
                if let Some(s) = src {
                    buffers.push(GpuBuffer {
                        binding: b.binding,
                        data: s.data.clone(),
                        offset: s.offset as u64,
                    });
                }
            }
            BindingSource::Zero => buffers.push(GpuBuffer {
                binding: b.binding,
                data: vec![0; 16],
                offset: 0,
            }),
            BindingSource::ExpandedInstances => {
                if let Some(s) = src {
                    let rate = layout.slot(slot).map(|l| l.step_rate).unwrap_or(1);
                    let data = lower::expand_instances(
                        SlotData {
                            data: &s.data,
                            stride: s.stride,
                            offset: s.offset,
                        },
                        rate,
                        first_instance,
                        instances,
                        limit,
                    )
                    .map_err(|e| e.to_string())?;
                    buffers.push(GpuBuffer {
                        binding: b.binding,
                        data,
                        offset: 0,
                    });
                }
            }
            BindingSource::Converted => {
                let Some(s) = src else { continue };
                let elems: Vec<(usize, usize)> = lowering
                    .converted_elements(&layout)
                    .into_iter()
                    .filter(|(sl, _, _)| *sl == slot)
                    .map(|(_, e, l)| (e, l))
                    .collect();
                // The converted stream follows the slot's own binding: expanded first if
                // the slot is expanded.
                let expanded;
                let (data, stride, offset, elements_needed) = if b.per_instance {
                    let rate = layout.slot(slot).map(|l| l.step_rate).unwrap_or(1);
                    let expand = lowering
                        .findings_for(Subject::Slot(slot))
                        .any(|f| matches!(f.remedy, Remedy::ExpandInstances { .. }));
                    if expand {
                        expanded = lower::expand_instances(
                            SlotData {
                                data: &s.data,
                                stride: s.stride,
                                offset: s.offset,
                            },
                            rate,
                            first_instance,
                            instances,
                            limit,
                        )
                        .map_err(|e| e.to_string())?;
                        (&expanded[..], s.stride, 0, instance_elements)
                    } else {
                        (&s.data[..], s.stride, s.offset, instance_elements)
                    }
                } else {
                    (&s.data[..], s.stride, s.offset, max_vertex_element)
                };
                let data = lower::convert_elements(
                    &layout,
                    &elems,
                    SlotData {
                        data,
                        stride,
                        offset,
                    },
                    0,
                    elements_needed,
                    limit,
                )
                .map_err(|e| e.to_string())?;
                buffers.push(GpuBuffer {
                    binding: b.binding,
                    data,
                    offset: 0,
                });
            }
        }
    }
    // Attributes the shader reads: the lowered attributes' locations.
    let mut inputs: Vec<(u32, InputType)> = lowering
        .state
        .attributes
        .iter()
        .map(|a| (a.location, input_type(layout.elements()[a.element].format)))
        .collect();
    inputs.sort_by_key(|i| i.0);
    let gd = GpuDraw {
        state: lowering.state.clone(),
        inputs: inputs.clone(),
        buffers,
        index: index
            .as_ref()
            .map(|(d, f, o)| (d.clone(), *f == IndexFormat::R32Uint, *o as u64)),
        count,
        instances,
        first,
        vertex_offset,
        first_instance,
        indirect,
        span,
        vbase: vmin as i32,
    };
    let out = gpu.run(&gd, capacity)?;
    let rw = crate::spirv::record_words(inputs.len()) as usize;

    // Compare.
    let tolerant: Vec<bool> = inputs
        .iter()
        .map(|(loc, _)| {
            layout
                .elements()
                .iter()
                .find(|e| e.register == Some(*loc))
                .and_then(|e| e.format.info())
                .is_some_and(|i| {
                    i.components
                        .iter()
                        .any(|c| matches!(c.kind, Kind::Unorm | Kind::Snorm))
                })
        })
        .collect();
    let mut result = CaseResult {
        name: case.name.clone(),
        compared: 0,
        differences: 0,
        within_tolerance: 0,
        nan_quieted: 0,
        remedies,
        first_difference: None,
        error: None,
    };
    let note = |r: &mut CaseResult, what: String| {
        r.differences += 1;
        if r.first_difference.is_none() {
            r.first_difference = Some(what);
        }
    };
    let mut seen = 0u64;
    for rec in 0..capacity as usize {
        let w = &out[rec * rw..(rec + 1) * rw];
        if w[0] == 0xDEAD_BEEF && w[1] == 0xDEAD_BEEF {
            continue;
        }
        seen += 1;
        let key = (w[0] as i32 as i64, w[1].wrapping_sub(first_instance));
        let Some(regs) = expected.get(&key) else {
            note(
                &mut result,
                format!(
                    "GPU ran vertex {} instance {} that Direct3D does not",
                    w[0], w[1]
                ),
            );
            continue;
        };
        result.compared += 1;
        for (k, (loc, _)) in inputs.iter().enumerate() {
            let want = regs[*loc as usize];
            let got = [w[2 + 4 * k], w[3 + 4 * k], w[4 + 4 * k], w[5 + 4 * k]];
            if want == got {
                continue;
            }
            let close = tolerant[k]
                && want
                    .iter()
                    .zip(got.iter())
                    .all(|(a, b)| (*a as i64 - *b as i64).unsigned_abs() <= ulp as u64);
            let is_nan = |x: u32| x & 0x7f80_0000 == 0x7f80_0000 && x & 0x007f_ffff != 0;
            let quieted = nan_quiet
                && want.iter().zip(got.iter()).all(|(a, b)| {
                    a == b || (is_nan(*a) && *a & 0x0040_0000 == 0 && *b == *a | 0x0040_0000)
                });
            if close {
                result.within_tolerance += 1;
            } else if quieted {
                result.nan_quieted += 1;
            } else {
                note(
                    &mut result,
                    format!(
                        "vertex {} instance {} v{loc}: inlay {want:08x?} GPU {got:08x?}",
                        key.0, key.1
                    ),
                );
                break;
            }
        }
    }
    for key in &required {
        let rec = key.1 as i64 * span as i64 + (key.0 - vmin);
        let w0 = out.get(rec as usize * rw).copied().unwrap_or(0xDEAD_BEEF);
        if w0 == 0xDEAD_BEEF {
            note(
                &mut result,
                format!("GPU did not run vertex {} instance {}", key.0, key.1),
            );
        }
    }
    let _ = seen;
    Ok(result)
}
