//! The C ABI's entry points (`crates/inlay-capi`) called as a C program calls them, with
//! arbitrary contents and lengths behind every pointer: `inlay_create_input_layout` with any
//! target values (invalid ones included), element arrays (NULL array, NULL names, names cut at
//! a NUL, any field), a `num_elements` that may disagree with the array, NULL or arbitrary or
//! matching bytecode, validate-only and NULL diagnostics; then every diagnostic and layout
//! accessor at arbitrary indices; then one stream, begun with arbitrary vertex buffers (NULL
//! data, sizes, strides, offsets, more slots than exist), index buffer (any format value),
//! topology and draw call (any kind value, indirect argument buffers), fetched and walked in
//! arbitrary batches (NULL id arrays, too-small outputs, zero counts), begun again and released.
//!
//! The crate has no Rust library target (it builds `libinlay.so`/`.a` only), so its sources
//! are compiled here as the module `capi`, instrumented like the rest, and called through
//! their `extern "C"` functions only.
//!
//! What must hold: no panic (none is caught either: a caught panic would answer `E_FAIL`,
//! which is asserted never to happen); the HRESULT of a creation equals the Rust library's for
//! the same (readable) input; a layout exactly on `S_OK`, `S_FALSE` exactly for valid
//! validate-only calls; the accessors agree with the library's layout and answer neutral
//! values out of range; every fetch and primitive call answers `S_OK` with 1 ≤ count ≤ the
//! batch, `S_FALSE` with 0, or `E_INVALIDARG` with a message; and the vertices and primitives
//! a begun draw hands out equal the library's reference iterators of the same draw (the first
//! 4096 of each).
#![no_main]

// The C ABI's sources name the Rust library `inlay_core` (a renamed dependency there).
extern crate inlay as inlay_core;

#[allow(dead_code, unused_imports, clippy::all)]
#[path = "../../crates/inlay-capi/src/lib.rs"]
mod capi;

use std::ffi::{CStr, CString, c_char};
use std::ptr::{null, null_mut};

use arbitrary::Arbitrary;
use capi::*;
use inlay::buffer::{IndexBufferBinding, IndexFormat, VertexBufferBinding};
use inlay::assembler::{DrawCall, InputAssembler};
use inlay::dxbc::{self, ComponentType, MinPrecision, Signature, SignatureElement, SystemValue};
use inlay::target::{Api, FeatureLevel, Target};
use inlay_fuzz::{ArbBytecode, ArbElement, Biased};
use libfuzzer_sys::fuzz_target;

#[derive(Debug, Arbitrary)]
enum ArbTargetValue {
    /// NULL (D3D11 at 11_0).
    Null,
    /// One of the 21 API × level pairs (those no device has are refused).
    Valid(u8, u8),
    /// Any values.
    Raw(Biased, Biased),
}

#[derive(Debug, Arbitrary)]
enum Count {
    Exact,
    Fewer(u8),
    Any(Biased),
}

#[derive(Debug, Arbitrary)]
enum Shader {
    /// NULL bytecode with this length.
    Null(Biased),
    /// Arbitrary or damaged bytecode.
    Any(ArbBytecode),
    /// An input signature matching the elements (element i → register i): creations
    /// succeed often enough to reach the streams.
    Matching,
}

#[derive(Debug, Arbitrary)]
struct ArbVb {
    data: Option<Vec<u8>>,
    /// Pass fewer bytes than the data holds.
    cut: Option<u16>,
    stride: Biased,
    offset: Biased,
}

#[derive(Debug, Arbitrary)]
struct ArbIb {
    data: Option<Vec<u8>>,
    /// 0: R16, 1: R32, else this value.
    format: Biased,
    offset: Biased,
}

#[derive(Debug, Arbitrary)]
struct ArbDraw {
    kind: Biased,
    count: Biased,
    instance_count: Biased,
    start: Biased,
    base_vertex: Biased,
    start_instance: Biased,
    args: Option<Vec<u8>>,
    args_offset: Biased,
    filled_size: Biased,
}

#[derive(Debug, Arbitrary)]
enum Call {
    Fetch { max: u16, ids: bool, rows: u16 },
    Primitives { max: u16, ids: bool, capacity: u16 },
    Begin,
}

#[derive(Debug, Arbitrary)]
struct Input {
    target: ArbTargetValue,
    elements: Option<Vec<ArbElement>>,
    count: Count,
    shader: Shader,
    validate_only: bool,
    no_diagnostics: bool,
    probes: Vec<Biased>,
    buffers: Vec<ArbVb>,
    null_buffer_array: bool,
    extra_slots: u8,
    index: Option<ArbIb>,
    topology: Biased,
    draw: ArbDraw,
    calls: Vec<Call>,
}

const APIS: [(u32, Api); 3] = [
    (INLAY_API_D3D10, Api::D3D10),
    (INLAY_API_D3D10_1, Api::D3D10_1),
    (INLAY_API_D3D11, Api::D3D11),
];

/// The `D3D_FEATURE_LEVEL` values of `FeatureLevel::ALL`, in its order.
const LEVELS: [u32; 7] = [
    INLAY_FEATURE_LEVEL_9_1,
    INLAY_FEATURE_LEVEL_9_2,
    INLAY_FEATURE_LEVEL_9_3,
    INLAY_FEATURE_LEVEL_10_0,
    INLAY_FEATURE_LEVEL_10_1,
    INLAY_FEATURE_LEVEL_11_0,
    INLAY_FEATURE_LEVEL_11_1,
];

/// At most this many vertices and primitives are compared with the library per draw.
const COMPARED: usize = 4096;

fn message_of(p: *const c_char) -> String {
    assert!(!p.is_null());
    // SAFETY: the ABI returns NUL-terminated strings, valid until the next call.
    unsafe { CStr::from_ptr(p) }.to_str().unwrap().to_string()
}

fuzz_target!(|input: Input| {
    // The target.
    let (target_value, target) = match input.target {
        ArbTargetValue::Null => (None, Some(Target::default())),
        ArbTargetValue::Valid(a, l) => {
            let (code, api) = APIS[a as usize % 3];
            let k = l as usize % LEVELS.len();
            let level = FeatureLevel::ALL[k];
            (
                Some(inlay_target {
                    api: code,
                    feature_level: LEVELS[k],
                }),
                // A pair no device has is refused by every shell (Target::checked).
                Target::checked(api, level).ok(),
            )
        }
        ArbTargetValue::Raw(a, l) => (
            Some(inlay_target {
                api: a.0,
                feature_level: l.0,
            }),
            None,
        ),
    };
    // The elements as C structures; names are cut at their first NUL, as C reads them.
    let descs: Option<Vec<_>> = input
        .elements
        .as_ref()
        .map(|v| v.iter().map(ArbElement::desc).collect());
    let descs: Option<Vec<_>> = descs.map(|v: Vec<inlay::element::InputElementDesc>| {
        v.into_iter()
            .map(|mut d| {
                if let Some(n) = &mut d.semantic_name {
                    n.truncate(n.find('\0').unwrap_or(n.len()));
                }
                d
            })
            .collect()
    });
    let names: Vec<Option<CString>> = descs.as_ref().map_or(Vec::new(), |v| {
        v.iter()
            .map(|d| d.semantic_name.as_ref().map(|n| CString::new(n.as_str()).unwrap()))
            .collect()
    });
    let c_descs: Option<Vec<INLAY_INPUT_ELEMENT_DESC>> = descs.as_ref().map(|v| {
        v.iter()
            .zip(&names)
            .map(|(d, n)| INLAY_INPUT_ELEMENT_DESC {
                SemanticName: n.as_ref().map_or(null(), |n| n.as_ptr()),
                SemanticIndex: d.semantic_index,
                Format: d.format.0,
                InputSlot: d.input_slot,
                AlignedByteOffset: d.aligned_byte_offset,
                InputSlotClass: d.input_slot_class,
                InstanceDataStepRate: d.instance_data_step_rate,
            })
            .collect()
    });
    let len = c_descs.as_ref().map_or(0, |d| d.len() as u32);
    // A count past the array would make the ABI read beyond it: only a NULL array, or a
    // count above every element limit (refused from the count alone), may exceed it.
    let num = match input.count {
        Count::Exact => len,
        Count::Fewer(k) => len.saturating_sub(k as u32),
        Count::Any(b) if c_descs.is_none() || b.0 <= len || b.0 > 32 => b.0,
        Count::Any(_) => len,
    };
    let (bytecode, bytecode_len): (Option<Vec<u8>>, usize) = match &input.shader {
        Shader::Null(n) => (None, n.0 as usize),
        Shader::Any(b) => {
            let b = b.bytes();
            let n = b.len();
            (Some(b), n)
        }
        Shader::Matching => {
            let elements = descs.as_deref().unwrap_or(&[]);
            let sig = Signature {
                elements: elements
                    .iter()
                    .take(32)
                    .enumerate()
                    .map(|(i, d)| SignatureElement {
                        stream: 0,
                        semantic_name: d.semantic_name.clone().unwrap_or_default(),
                        semantic_index: d.semantic_index,
                        system_value: SystemValue::UNDEFINED,
                        component_type: ComponentType::FLOAT32,
                        register: i as u32,
                        mask: 0b1111,
                        read_write_mask: 0b1111,
                        min_precision: MinPrecision(0),
                    })
                    .collect(),
            };
            let b = dxbc::signature_blob(&sig);
            let n = b.len();
            (Some(b), n)
        }
    };

    let mut layout: *mut inlay_layout = null_mut();
    let mut diags: *mut inlay_diagnostics = null_mut();
    // SAFETY: every pointer is NULL or valid for what it describes (the count never runs past
    // the array, see above; a NULL bytecode is passed with any length).
    let hr = unsafe {
        inlay_create_input_layout(
            target_value.as_ref().map_or(null(), |t| t as *const _),
            c_descs.as_ref().map_or(null(), |d| d.as_ptr()),
            num,
            bytecode.as_ref().map_or(null(), |b| b.as_ptr().cast()),
            bytecode_len,
            if input.validate_only { null_mut() } else { &mut layout },
            if input.no_diagnostics { null_mut() } else { &mut diags },
        )
    };
    assert_ne!(hr, INLAY_E_FAIL, "a panic was caught");
    assert!(matches!(hr, INLAY_S_OK | INLAY_S_FALSE | INLAY_E_INVALIDARG));
    assert_eq!(!layout.is_null(), hr == INLAY_S_OK);
    assert_eq!(hr == INLAY_S_FALSE, input.validate_only && hr >= 0);
    assert_eq!(diags.is_null(), input.no_diagnostics);

    // The library's answer to the same call (valid targets and readable bytecode).
    let reference = match (&target, &bytecode) {
        (Some(t), Some(b)) => Some(
            inlay::CreateInputLayout::raw(t, descs.as_deref())
                .num_elements(num)
                .validate_only(input.validate_only)
                .bytecode(b),
        ),
        _ => None,
    };
    if let Some(r) = &reference {
        assert_eq!(hr as u32, r.hresult.code(), "{:?}", r.diagnostics);
    }

    // Diagnostics.
    // SAFETY: `diags` is NULL or live.
    unsafe {
        let n = inlay_diagnostics_count(diags);
        if let Some(r) = &reference
            && !diags.is_null()
        {
            assert_eq!(n, r.diagnostics.len());
        }
        for i in 0..n + 2 {
            let (mut id, mut sev, mut el, mut msg) = (0u32, 0u32, -2i32, null());
            let got = inlay_diagnostic_get(diags, i, &mut id, &mut sev, &mut el, &mut msg);
            if i < n {
                assert_eq!(got, 0);
                assert!(!message_of(msg).is_empty());
                assert!(el == -1 || (el >= 0 && (el as u32) < num.max(len)));
                if let Some(r) = &reference {
                    assert_eq!(id, r.diagnostics[i].id.0);
                }
            } else {
                assert_eq!(got, -1);
            }
        }
        // NULL outputs are allowed.
        if n > 0 {
            assert_eq!(
                inlay_diagnostic_get(diags, 0, null_mut(), null_mut(), null_mut(), null_mut()),
                0
            );
        }
        inlay_diagnostics_release(diags);
    }
    if layout.is_null() {
        return;
    }

    // Layout accessors at arbitrary indices, checked against the library's layout.
    let made = reference.as_ref().and_then(|r| r.layout.as_ref());
    // SAFETY: `layout` is live until released below.
    unsafe {
        let count = inlay_layout_element_count(layout);
        if let Some(m) = made {
            assert_eq!(count as usize, m.elements().len());
        }
        for p in input.probes.iter().take(16).map(|p| p.0).chain(0..count.min(4)) {
            let offset = inlay_layout_element_offset(layout, p);
            let register = inlay_layout_element_register(layout, p);
            let _ = inlay_layout_slot_min_stride(layout, p);
            match made.and_then(|m| m.elements().get(p as usize)) {
                Some(e) => {
                    assert_eq!(offset, e.offset);
                    assert_eq!(register, e.register.map_or(-1, |r| r as i32));
                }
                None if p >= count => {
                    assert_eq!(offset, u32::MAX);
                    assert_eq!(register, -1);
                }
                None => {}
            }
        }
        let _ = inlay_layout_register_mask(layout);
    }

    // One draw through a stream.
    let vbs: Vec<inlay_vertex_buffer> = input
        .buffers
        .iter()
        .take(32 + input.extra_slots as usize % 4)
        .map(|b| {
            let size = b.data.as_ref().map_or(0, |d| {
                b.cut.map_or(d.len(), |c| (c as usize).min(d.len()))
            });
            inlay_vertex_buffer {
                data: b.data.as_ref().map_or(null(), |d| d.as_ptr().cast()),
                size,
                stride: b.stride.0,
                offset: b.offset.0,
            }
        })
        .collect();
    let ib = input.index.as_ref().map(|i| inlay_index_buffer {
        data: i.data.as_ref().map_or(null(), |d| d.as_ptr().cast()),
        size: i.data.as_ref().map_or(0, Vec::len),
        format: match i.format.0 {
            0 => INLAY_INDEX_R16_UINT,
            1 => INLAY_INDEX_R32_UINT,
            f => f,
        },
        offset: i.offset.0,
    });
    let d = &input.draw;
    let draw = inlay_draw {
        kind: if d.kind.0 < 64 { d.kind.0 % 8 } else { d.kind.0 },
        count: d.count.0,
        instance_count: d.instance_count.0,
        start: d.start.0,
        base_vertex: d.base_vertex.0 as i32,
        start_instance: d.start_instance.0,
        args: d.args.as_ref().map_or(null(), |a| a.as_ptr().cast()),
        args_size: d.args.as_ref().map_or(0, Vec::len),
        args_offset: d.args_offset.0,
        filled_size: d.filled_size.0,
    };
    let state = inlay_ia_state {
        vertex_buffers: if input.null_buffer_array && vbs.is_empty() {
            null()
        } else {
            vbs.as_ptr()
        },
        num_vertex_buffers: vbs.len() as u32,
        topology: input.topology.0,
        index_buffer: ib.as_ref().map_or(null(), |i| i as *const _),
    };

    // The library's reference of the same draw, when the ABI's reading of it is plain.
    // SAFETY: `layout` is live.
    let l = unsafe { &*layout };
    let mut ia = InputAssembler::new(&l.layout, l.target);
    let mut plain = vbs.len() <= 32;
    for (slot, (b, _)) in input.buffers.iter().zip(&vbs).enumerate() {
        if let Some(data) = &b.data {
            plain &= ia
                .set_vertex_buffer(
                    slot as u32,
                    Some(VertexBufferBinding {
                        data: &data[..vbs[slot].size],
                        stride: b.stride.0,
                        offset: b.offset.0,
                    }),
                )
                .is_ok();
        }
    }
    if let (Some(i), Some(c)) = (&input.index, &ib) {
        let format = match c.format {
            INLAY_INDEX_R16_UINT => Some(IndexFormat::R16Uint),
            INLAY_INDEX_R32_UINT => Some(IndexFormat::R32Uint),
            _ => None,
        };
        match (format, &i.data) {
            (Some(format), data) => {
                plain &= ia
                    .set_index_buffer(Some(IndexBufferBinding {
                        data: data.as_deref().unwrap_or(&[]),
                        format,
                        offset: c.offset,
                    }))
                    .is_ok();
            }
            _ => plain = false,
        }
    }
    plain &= ia.set_topology_d3d(state.topology).is_ok();
    let args = d.args.as_deref().unwrap_or(&[]);
    let call = match draw.kind {
        INLAY_DRAW => Some(DrawCall::Draw {
            vertex_count: draw.count,
            start_vertex: draw.start,
        }),
        INLAY_DRAW_INDEXED => Some(DrawCall::DrawIndexed {
            index_count: draw.count,
            start_index: draw.start,
            base_vertex: draw.base_vertex,
        }),
        INLAY_DRAW_INSTANCED => Some(DrawCall::DrawInstanced {
            vertex_count_per_instance: draw.count,
            instance_count: draw.instance_count,
            start_vertex: draw.start,
            start_instance: draw.start_instance,
        }),
        INLAY_DRAW_INDEXED_INSTANCED => Some(DrawCall::DrawIndexedInstanced {
            index_count_per_instance: draw.count,
            instance_count: draw.instance_count,
            start_index: draw.start,
            base_vertex: draw.base_vertex,
            start_instance: draw.start_instance,
        }),
        INLAY_DRAW_INSTANCED_INDIRECT => Some(DrawCall::DrawInstancedIndirect {
            args,
            offset: draw.args_offset,
        }),
        INLAY_DRAW_INDEXED_INSTANCED_INDIRECT => Some(DrawCall::DrawIndexedInstancedIndirect {
            args,
            offset: draw.args_offset,
        }),
        INLAY_DRAW_AUTO => Some(DrawCall::DrawAuto {
            filled_size: draw.filled_size,
        }),
        _ => None,
    };
    let prepared = match (plain, &call) {
        (true, Some(c)) => ia.draw(c).ok(),
        _ => None,
    };

    // SAFETY: every pointer below is valid for the sizes passed; the buffers outlive the
    // stream, which is released before they are.
    unsafe {
        let s = inlay_stream_create();
        assert!(!s.is_null());
        let begin = |s| {
            let hr = inlay_stream_begin(s, layout, &state, &draw);
            assert!(hr == INLAY_S_OK || hr == INLAY_E_INVALIDARG, "begin {hr}");
            if hr != INLAY_S_OK {
                assert!(!message_of(inlay_stream_error(s)).is_empty());
            }
            hr == INLAY_S_OK
        };
        let mut begun = begin(s);
        if prepared.is_some() {
            assert!(begun, "{}", message_of(inlay_stream_error(s)));
        }
        let mut expected_vertices = prepared.as_ref().map(|p| p.vertices().take(COMPARED));
        let mut expected_primitives = prepared.as_ref().map(|p| p.primitives().take(COMPARED));
        let (mut vertices_seen, mut primitives_seen) = (0usize, 0usize);
        let w = inlay_stream_register_count(s) as usize;
        let k = inlay_stream_primitive_size(s) as usize;
        for c in input.calls.iter().take(24) {
            match *c {
                Call::Fetch { max, ids, rows } => {
                    let max = max as usize % 600;
                    let rows = rows as usize % 2400;
                    let mut id_out = vec![inlay_vertex_ids::default(); max];
                    let mut reg_out = vec![[0u32; 4]; rows];
                    let mut got = usize::MAX;
                    let hr = inlay_stream_fetch(
                        s,
                        max,
                        if ids { id_out.as_mut_ptr() } else { null_mut() },
                        if rows == 0 { null_mut() } else { reg_out.as_mut_ptr() },
                        rows,
                        &mut got,
                    );
                    let cap = if w == 0 { max } else { max.min(rows / w) };
                    match hr {
                        INLAY_S_OK => {
                            assert!(got >= 1 && got <= cap);
                            if let Some(exp) = expected_vertices.as_mut() {
                                for j in 0..got {
                                    let Some(e) = exp.next() else {
                                        assert!(vertices_seen >= COMPARED, "extra vertices");
                                        break;
                                    };
                                    vertices_seen += 1;
                                    if ids {
                                        let v = id_out[j];
                                        assert_eq!(
                                            (v.position, v.vertex_id, v.instance_id),
                                            (e.position, e.vertex_id, e.instance_id)
                                        );
                                    }
                                    let fed = (0..32).filter(|&r| e.fed & 1 << r != 0);
                                    for (q, r) in fed.enumerate() {
                                        assert_eq!(reg_out[j * w + q], e.registers[r]);
                                    }
                                }
                            }
                        }
                        INLAY_S_FALSE => {
                            assert_eq!(got, 0);
                            if let Some(exp) = expected_vertices.as_mut()
                                && begun
                                && vertices_seen < COMPARED
                            {
                                assert!(exp.next().is_none(), "the stream ended early");
                            }
                        }
                        INLAY_E_INVALIDARG => {
                            assert_eq!(got, 0);
                            assert!(!message_of(inlay_stream_error(s)).is_empty());
                            assert!(!begun || max == 0 || cap == 0);
                        }
                        other => panic!("fetch answered {other}"),
                    }
                }
                Call::Primitives { max, ids, capacity } => {
                    let max = max as usize % 300;
                    let capacity = capacity as usize % 2400;
                    let mut id_out = vec![inlay_primitive_ids::default(); max];
                    let mut pos = vec![0u64; capacity];
                    let mut got = usize::MAX;
                    let hr = inlay_stream_primitives(
                        s,
                        max,
                        if ids { id_out.as_mut_ptr() } else { null_mut() },
                        if capacity == 0 { null_mut() } else { pos.as_mut_ptr() },
                        capacity,
                        &mut got,
                    );
                    match hr {
                        INLAY_S_OK => {
                            assert!(k >= 1 && got >= 1 && got <= max.min(capacity / k));
                            if let Some(exp) = expected_primitives.as_mut() {
                                for j in 0..got {
                                    let Some(e) = exp.next() else {
                                        assert!(primitives_seen >= COMPARED, "extra primitives");
                                        break;
                                    };
                                    primitives_seen += 1;
                                    assert_eq!(&pos[j * k..(j + 1) * k], e.vertices());
                                    if ids {
                                        assert_eq!(
                                            (id_out[j].primitive_id, id_out[j].instance_id),
                                            (e.id, e.instance_id)
                                        );
                                    }
                                }
                            }
                        }
                        INLAY_S_FALSE => {
                            assert_eq!(got, 0);
                            if let Some(exp) = expected_primitives.as_mut()
                                && begun
                                && primitives_seen < COMPARED
                            {
                                assert!(exp.next().is_none(), "the primitives ended early");
                            }
                        }
                        INLAY_E_INVALIDARG => {
                            assert_eq!(got, 0);
                            assert!(!message_of(inlay_stream_error(s)).is_empty());
                            assert!(!begun || max == 0 || capacity < k);
                        }
                        other => panic!("primitives answered {other}"),
                    }
                }
                Call::Begin => {
                    begun = begin(s);
                    expected_vertices = prepared.as_ref().map(|p| p.vertices().take(COMPARED));
                    expected_primitives =
                        prepared.as_ref().map(|p| p.primitives().take(COMPARED));
                    vertices_seen = 0;
                    primitives_seen = 0;
                }
            }
        }
        inlay_stream_release(s);
        inlay_layout_release(layout);
    }
});
