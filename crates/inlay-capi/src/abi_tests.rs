//! Rust-side tests of the extern functions (the C programs of `tests/c_programs.rs` test them
//! through the built library): every `unsafe` path, and that fetching allocates nothing.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::ffi::{CStr, c_char, c_void};
use std::ptr::{null, null_mut};

use inlay_core::dxbc::signature::{
    ComponentType, MinPrecision, Signature, SignatureElement, SystemValue,
};
use inlay_core::dxbc::signature_blob;
use inlay_core::target::{Api, FeatureLevel, Target};

use super::*;

/// Counts this thread's allocations (tests run on several threads).
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: forwards to the system allocator; the counter is a thread-local Cell, which does not
// allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|a| a.set(a.get() + 1));
        // SAFETY: the caller's contract is forwarded unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is forwarded unchanged.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

fn seed_blob() -> Vec<u8> {
    let e = |name: &str, register| SignatureElement {
        stream: 0,
        semantic_name: name.into(),
        semantic_index: 0,
        system_value: SystemValue::UNDEFINED,
        component_type: ComponentType::FLOAT32,
        register,
        mask: 0b111,
        read_write_mask: 0b111,
        min_precision: MinPrecision(0),
    };
    signature_blob(&Signature {
        elements: vec![e("POSITION", 0), e("COLOR", 1)],
    })
}

fn desc(name: &CStr, format: u32, offset: u32) -> INLAY_INPUT_ELEMENT_DESC {
    INLAY_INPUT_ELEMENT_DESC {
        SemanticName: name.as_ptr(),
        SemanticIndex: 0,
        Format: format,
        InputSlot: 0,
        AlignedByteOffset: offset,
        InputSlotClass: INLAY_PER_VERTEX_DATA,
        InstanceDataStepRate: 0,
    }
}

fn seed_descs() -> [INLAY_INPUT_ELEMENT_DESC; 2] {
    [
        desc(c"POSITION", 6, 0),
        desc(c"COLOR", 6, INLAY_APPEND_ALIGNED_ELEMENT),
    ]
}

/// Creates the seed layout and returns (hresult, layout, diagnostics).
fn create(
    target: *const inlay_target,
    descs: &[INLAY_INPUT_ELEMENT_DESC],
    n: u32,
    blob: &[u8],
) -> (i32, *mut inlay_layout, *mut inlay_diagnostics) {
    let mut layout = null_mut();
    let mut diags = null_mut();
    // SAFETY: every pointer is valid for what it describes.
    let hr = unsafe {
        inlay_create_input_layout(
            target,
            descs.as_ptr(),
            n,
            blob.as_ptr().cast(),
            blob.len(),
            &mut layout,
            &mut diags,
        )
    };
    (hr, layout, diags)
}

/// The messages of `d`: (id, severity, element, text).
fn messages(d: *const inlay_diagnostics) -> Vec<(u32, u32, i32, String)> {
    // SAFETY: `d` is live or NULL; the outputs are valid locals.
    unsafe {
        (0..inlay_diagnostics_count(d))
            .map(|i| {
                let (mut id, mut sev, mut el, mut msg) = (0, 0, 0, null::<c_char>());
                assert_eq!(
                    inlay_diagnostic_get(d, i, &mut id, &mut sev, &mut el, &mut msg),
                    0
                );
                (
                    id,
                    sev,
                    el,
                    CStr::from_ptr(msg).to_string_lossy().into_owned(),
                )
            })
            .collect()
    }
}

#[test]
fn seed_layout_and_accessors() {
    let blob = seed_blob();
    let (hr, layout, diags) = create(null(), &seed_descs(), 2, &blob);
    assert_eq!(hr, INLAY_S_OK);
    assert!(messages(diags).is_empty());
    // SAFETY: live handles, released once.
    unsafe {
        assert_eq!(inlay_layout_element_count(layout), 2);
        assert_eq!(inlay_layout_element_offset(layout, 1), 12);
        assert_eq!(inlay_layout_element_offset(layout, 9), u32::MAX);
        assert_eq!(inlay_layout_element_register(layout, 1), 1);
        assert_eq!(inlay_layout_element_register(layout, 2), -1);
        assert_eq!(inlay_layout_slot_min_stride(layout, 0), 24);
        assert_eq!(inlay_layout_register_mask(layout), 0b11);
        inlay_layout_release(layout);
        inlay_diagnostics_release(diags);
    }
}

#[test]
fn refusals_report_the_runtime_messages_and_create_nothing() {
    let blob = seed_blob();
    let mut descs = seed_descs();
    descs[1].SemanticName = null();
    let (hr, layout, diags) = create(null(), &descs, 2, &blob);
    assert_eq!(hr, INLAY_E_INVALIDARG);
    assert!(layout.is_null());
    let m = messages(diags);
    assert_eq!(
        (m[0].0, m[0].1, m[0].2),
        (162, INLAY_SEVERITY_ERROR, 1),
        "{m:?}"
    );
    // SAFETY: live handle, released once; out-of-range index writes nothing.
    unsafe {
        let mut id = 7;
        assert_eq!(
            inlay_diagnostic_get(diags, 5, &mut id, null_mut(), null_mut(), null_mut()),
            -1
        );
        assert_eq!(id, 7);
        inlay_diagnostics_release(diags);
    }
    // A NULL array (164) and a count over the limit (151) read nothing of the array.
    // SAFETY: NULL descs; the two-element array is never read with a count of 1000.
    unsafe {
        let mut d = null_mut();
        let hr = inlay_create_input_layout(
            null(),
            null(),
            0,
            blob.as_ptr().cast(),
            blob.len(),
            null_mut(),
            &mut d,
        );
        assert_eq!(hr, INLAY_E_INVALIDARG);
        assert_eq!(messages(d)[0].0, 164);
        inlay_diagnostics_release(d);
    }
    let (hr, _, d) = create(null(), &seed_descs(), 1000, &blob);
    assert_eq!(hr, INLAY_E_INVALIDARG);
    assert_eq!(messages(d)[0].0, 151);
    // SAFETY: live handle, released once.
    unsafe { inlay_diagnostics_release(d) };
    // Validate only: S_FALSE, no layout pointer to write.
    // SAFETY: valid pointers; NULL out pointers.
    let hr = unsafe {
        inlay_create_input_layout(
            null(),
            seed_descs().as_ptr(),
            2,
            blob.as_ptr().cast(),
            blob.len(),
            null_mut(),
            null_mut(),
        )
    };
    assert_eq!(hr, INLAY_S_FALSE);
}

#[test]
fn bad_targets_and_pointers_are_refused_before_reading() {
    let blob = seed_blob();
    for t in [
        inlay_target {
            api: 0,
            feature_level: INLAY_FEATURE_LEVEL_11_0,
        },
        inlay_target {
            api: INLAY_API_D3D11,
            feature_level: 0xb200,
        },
    ] {
        let (hr, layout, d) = create(&t, &seed_descs(), 2, &blob);
        assert_eq!(hr, INLAY_E_INVALIDARG);
        assert!(layout.is_null());
        let m = messages(d);
        assert_eq!((m.len(), m[0].0, m[0].2), (1, 0, -1), "{m:?}");
        // SAFETY: live handle, released once.
        unsafe { inlay_diagnostics_release(d) };
    }
    // Issue 34 item 6: a pair no runtime creates is refused as the command line refuses it,
    // with the library's one message (it answered S_OK with D3D10.1's 32 slots at 11_0).
    for (api, level, lib_api, lib_level) in [
        (
            INLAY_API_D3D10_1,
            INLAY_FEATURE_LEVEL_11_0,
            Api::D3D10_1,
            FeatureLevel::L11_0,
        ),
        (
            INLAY_API_D3D10,
            INLAY_FEATURE_LEVEL_10_1,
            Api::D3D10,
            FeatureLevel::L10_1,
        ),
        (
            INLAY_API_D3D10,
            INLAY_FEATURE_LEVEL_9_3,
            Api::D3D10,
            FeatureLevel::L9_3,
        ),
    ] {
        let t = inlay_target {
            api,
            feature_level: level,
        };
        let (hr, layout, d) = create(&t, &seed_descs(), 2, &blob);
        assert_eq!(hr, INLAY_E_INVALIDARG);
        assert!(layout.is_null());
        let m = messages(d);
        let want = Target::checked(lib_api, lib_level).unwrap_err().to_string();
        assert_eq!((m.len(), m[0].0, m[0].3.as_str()), (1, 0, want.as_str()));
        // SAFETY: live handle, released once.
        unsafe { inlay_diagnostics_release(d) };
    }
    // D3D10 at 10_0 accepts the seed.
    let t = inlay_target {
        api: INLAY_API_D3D10,
        feature_level: INLAY_FEATURE_LEVEL_10_0,
    };
    let (hr, layout, d) = create(&t, &seed_descs(), 2, &blob);
    assert_eq!(hr, INLAY_S_OK);
    // SAFETY: live handles, released once.
    unsafe {
        inlay_layout_release(layout);
        inlay_diagnostics_release(d);
    }
    let raw = [0u64; 16];
    let odd = raw.as_ptr().cast::<u8>().wrapping_add(1);
    // SAFETY: the misaligned pointers are refused before any read or write.
    unsafe {
        let mut d = null_mut();
        let hr = inlay_create_input_layout(
            odd.cast(),
            seed_descs().as_ptr(),
            2,
            blob.as_ptr().cast(),
            blob.len(),
            null_mut(),
            &mut d,
        );
        assert_eq!(hr, INLAY_E_INVALIDARG);
        assert!(messages(d)[0].3.contains("aligned"));
        inlay_diagnostics_release(d);
        let hr = inlay_create_input_layout(
            null(),
            odd.cast(),
            1,
            blob.as_ptr().cast(),
            blob.len(),
            null_mut(),
            &mut d,
        );
        assert_eq!(hr, INLAY_E_INVALIDARG);
        inlay_diagnostics_release(d);
        let hr = inlay_create_input_layout(
            null(),
            seed_descs().as_ptr(),
            2,
            blob.as_ptr().cast(),
            blob.len(),
            odd.cast_mut().cast(),
            null_mut(),
        );
        assert_eq!(hr, INLAY_E_INVALIDARG);
        let hr = inlay_create_input_layout(
            null(),
            seed_descs().as_ptr(),
            2,
            blob.as_ptr().cast(),
            usize::MAX,
            null_mut(),
            &mut d,
        );
        assert_eq!(hr, INLAY_E_INVALIDARG);
        assert!(messages(d)[0].3.contains("length"));
        inlay_diagnostics_release(d);
        // NULL handles.
        assert_eq!(inlay_diagnostics_count(null()), 0);
        assert_eq!(inlay_layout_element_count(null()), 0);
        assert_eq!(inlay_layout_slot_min_stride(null(), 0), 0);
        assert_eq!(inlay_layout_register_mask(null()), 0);
        assert_eq!(inlay_stream_register_count(null()), 0);
        assert_eq!(CStr::from_ptr(inlay_stream_error(null())), c"");
        inlay_layout_release(null_mut());
        inlay_diagnostics_release(null_mut());
        inlay_stream_release(null_mut());
    }
    // Non-UTF-8 names are read lossily, never refused for it.
    let mut descs = seed_descs();
    descs[1].SemanticName = c"COL\xffOR".as_ptr();
    let (hr, _, d) = create(null(), &descs, 2, &blob);
    assert_eq!(hr, INLAY_E_INVALIDARG); // COLOR is missing (163)
    assert!(messages(d).iter().any(|m| m.0 == 163));
    // SAFETY: live handle, released once.
    unsafe { inlay_diagnostics_release(d) };
}

/// Fetches every vertex of `draw` in batches of `batch`; returns (ids, registers) and the
/// allocations made by the fetch calls alone.
fn fetch_all(
    stream: *mut inlay_stream,
    batch: usize,
) -> (Vec<inlay_vertex_ids>, Vec<[u32; 4]>, usize) {
    fetch_all_with(stream, batch, true)
}

/// [`fetch_all`], passing NULL for the IDs unless `with_ids` (the IDs returned are then empty).
fn fetch_all_with(
    stream: *mut inlay_stream,
    batch: usize,
    with_ids: bool,
) -> (Vec<inlay_vertex_ids>, Vec<[u32; 4]>, usize) {
    // SAFETY: `stream` is live with a draw begun.
    let w = unsafe { inlay_stream_register_count(stream) } as usize;
    let mut ids = vec![inlay_vertex_ids::default(); if with_ids { batch } else { 0 }];
    let mut regs = vec![[0u32; 4]; batch * w];
    let (mut all_ids, mut all_regs, mut allocs) = (Vec::new(), Vec::new(), 0);
    loop {
        let mut got = 0;
        let before = allocations();
        // SAFETY: outputs sized for `batch` vertices of `w` registers.
        let hr = unsafe {
            inlay_stream_fetch(
                stream,
                batch,
                if with_ids {
                    ids.as_mut_ptr()
                } else {
                    null_mut()
                },
                regs.as_mut_ptr(),
                regs.len(),
                &mut got,
            )
        };
        allocs += allocations() - before;
        if hr == INLAY_S_FALSE {
            assert_eq!(got, 0);
            return (all_ids, all_regs, allocs);
        }
        assert_eq!(hr, INLAY_S_OK);
        if with_ids {
            all_ids.extend_from_slice(&ids[..got]);
        }
        all_regs.extend_from_slice(&regs[..got * w]);
    }
}

#[test]
fn streams_fetch_every_draw_kind_without_allocating() {
    let blob = seed_blob();
    let (_, layout, d) = create(null(), &seed_descs(), 2, &blob);
    let vertices: Vec<u8> = (0..24 * 3000u32).map(|i| (i * 7 % 251) as u8).collect();
    let indices: Vec<u8> = (0..5000u32)
        .flat_map(|i| {
            if i % 50 == 3 {
                0xffffu16
            } else {
                (i * 13 % 3100) as u16
            }
            .to_le_bytes()
        })
        .collect();
    let args: Vec<u8> = [0u32, 900, 2, 5, 1, 7]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let vb = [inlay_vertex_buffer {
        data: vertices.as_ptr().cast(),
        size: vertices.len(),
        stride: 24,
        offset: 0,
    }];
    let ib = inlay_index_buffer {
        data: indices.as_ptr().cast(),
        size: indices.len(),
        format: INLAY_INDEX_R16_UINT,
        offset: 0,
    };
    let state = inlay_ia_state {
        vertex_buffers: vb.as_ptr(),
        num_vertex_buffers: 1,
        topology: 5,
        index_buffer: &ib,
    };
    let base = inlay_draw {
        kind: INLAY_DRAW,
        count: 0,
        instance_count: 0,
        start: 0,
        base_vertex: 0,
        start_instance: 0,
        args: null(),
        args_size: 0,
        args_offset: 0,
        filled_size: 0,
    };
    let draws = [
        (
            inlay_draw {
                kind: INLAY_DRAW,
                count: 3000,
                ..base
            },
            3000,
        ),
        (
            inlay_draw {
                kind: INLAY_DRAW_INDEXED,
                count: 5000,
                ..base
            },
            4900,
        ),
        (
            inlay_draw {
                kind: INLAY_DRAW_INSTANCED,
                count: 1000,
                instance_count: 3,
                ..base
            },
            3000,
        ),
        (
            inlay_draw {
                kind: INLAY_DRAW_INDEXED_INSTANCED,
                count: 100,
                instance_count: 4,
                base_vertex: -1,
                ..base
            },
            392,
        ),
        (
            inlay_draw {
                kind: INLAY_DRAW_INSTANCED_INDIRECT,
                args: args.as_ptr().cast(),
                args_size: args.len(),
                args_offset: 4,
                ..base
            },
            1800,
        ),
        (
            inlay_draw {
                kind: INLAY_DRAW_INDEXED_INSTANCED_INDIRECT,
                args: args.as_ptr().cast(),
                args_size: args.len(),
                args_offset: 4,
                ..base
            },
            1764,
        ),
        (
            inlay_draw {
                kind: INLAY_DRAW_AUTO,
                filled_size: 24 * 2000 + 5,
                ..base
            },
            2000,
        ),
    ];
    // SAFETY: live handles; the buffers outlive the streams' draws.
    unsafe {
        let s = inlay_stream_create();
        for (draw, count) in draws {
            let before = allocations();
            assert_eq!(
                inlay_stream_begin(s, layout, &state, &draw),
                INLAY_S_OK,
                "{draw:?}"
            );
            // The draw's plan is compiled into the stream's reserved storage.
            let begin = allocations() - before;
            assert_eq!(
                begin, 0,
                "{begin} allocations in inlay_stream_begin {draw:?}"
            );
            assert_eq!(inlay_stream_register_count(s), 2);
            let (ids, regs, allocs) = fetch_all(s, 97);
            assert_eq!(ids.len(), count, "{draw:?}");
            assert_eq!(regs.len(), 2 * count);
            assert_eq!(allocs, 0, "inlay_stream_fetch allocated for {draw:?}");
            // Without IDs (the register-only batch form), in other batches: the same rows.
            assert_eq!(inlay_stream_begin(s, layout, &state, &draw), INLAY_S_OK);
            let (no_ids, same, allocs) = fetch_all_with(s, 1000, false);
            assert!(no_ids.is_empty());
            assert!(same == regs, "NULL ids changed the registers of {draw:?}");
            assert_eq!(
                allocs, 0,
                "inlay_stream_fetch (NULL ids) allocated for {draw:?}"
            );
            // Vertex 0 of the Draw: POSITION = bytes 0..12, read as floats.
            if draw.kind == INLAY_DRAW {
                let lane =
                    |k: usize| u32::from_le_bytes(vertices[4 * k..4 * k + 4].try_into().unwrap());
                assert_eq!(regs[0], [lane(0), lane(1), lane(2), 0x3f80_0000]);
                assert_eq!(ids[2999].vertex_id, 2999);
            }
            // Fetching after the end stays S_FALSE.
            let mut got = 5;
            let mut r = [[0u32; 4]; 2];
            assert_eq!(
                inlay_stream_fetch(s, 1, null_mut(), r.as_mut_ptr(), 2, &mut got),
                INLAY_S_FALSE
            );
            assert_eq!(got, 0);
        }
        // Argument errors leave the draw in place; an error message says why.
        assert_eq!(
            inlay_stream_begin(s, layout, &state, &draws[0].0),
            INLAY_S_OK
        );
        let mut got = 0;
        let mut r = [[0u32; 4]; 2];
        assert_eq!(
            inlay_stream_fetch(s, 0, null_mut(), r.as_mut_ptr(), 2, &mut got),
            INLAY_E_INVALIDARG
        );
        assert!(!CStr::from_ptr(inlay_stream_error(s)).is_empty());
        assert_eq!(
            inlay_stream_fetch(s, 1, null_mut(), r.as_mut_ptr(), 1, &mut got),
            INLAY_E_INVALIDARG
        );
        assert_eq!(
            inlay_stream_fetch(s, 1, null_mut(), r.as_mut_ptr(), 2, null_mut()),
            INLAY_E_INVALIDARG
        );
        let odd = r
            .as_mut_ptr()
            .cast::<u8>()
            .wrapping_add(1)
            .cast::<[u32; 4]>();
        assert_eq!(
            inlay_stream_fetch(s, 1, null_mut(), odd, 1, &mut got),
            INLAY_E_INVALIDARG
        );
        assert_eq!(
            inlay_stream_fetch(s, 1, null_mut(), r.as_mut_ptr(), 2, &mut got),
            INLAY_S_OK
        );
        assert_eq!(got, 1);
        assert!(CStr::from_ptr(inlay_stream_error(s)).is_empty());
        // Draw refusals.
        let bad_ib = inlay_index_buffer { format: 99, ..ib };
        let bad_vb = [inlay_vertex_buffer {
            stride: 4096,
            ..vb[0]
        }];
        let null_vb = [inlay_vertex_buffer {
            data: null(),
            size: 8,
            ..vb[0]
        }];
        for (state, draw) in [
            (
                inlay_ia_state {
                    topology: 0,
                    ..state
                },
                base,
            ),
            (
                inlay_ia_state {
                    index_buffer: &bad_ib,
                    ..state
                },
                base,
            ),
            (
                inlay_ia_state {
                    vertex_buffers: bad_vb.as_ptr(),
                    ..state
                },
                base,
            ),
            (
                inlay_ia_state {
                    vertex_buffers: null_vb.as_ptr(),
                    ..state
                },
                base,
            ),
            (
                inlay_ia_state {
                    num_vertex_buffers: 33,
                    ..state
                },
                base,
            ),
            (
                inlay_ia_state {
                    vertex_buffers: null(),
                    ..state
                },
                base,
            ),
            (state, inlay_draw { kind: 9, ..base }),
            (
                state,
                inlay_draw {
                    kind: INLAY_DRAW_INSTANCED_INDIRECT,
                    args: null(),
                    args_size: 4,
                    ..base
                },
            ),
            (
                state,
                inlay_draw {
                    kind: INLAY_DRAW_INSTANCED_INDIRECT,
                    args: args.as_ptr().cast(),
                    args_size: args.len(),
                    args_offset: 12,
                    ..base
                },
            ),
        ] {
            assert_eq!(
                inlay_stream_begin(s, layout, &state, &draw),
                INLAY_E_INVALIDARG,
                "{state:?} {draw:?}"
            );
            assert!(!CStr::from_ptr(inlay_stream_error(s)).is_empty());
            assert_eq!(
                inlay_stream_fetch(s, 1, null_mut(), r.as_mut_ptr(), 2, &mut got),
                INLAY_E_INVALIDARG
            );
        }
        assert_eq!(
            inlay_stream_begin(s, null(), &state, &base),
            INLAY_E_INVALIDARG
        );
        assert_eq!(
            inlay_stream_begin(s, layout, null(), &base),
            INLAY_E_INVALIDARG
        );
        assert_eq!(
            inlay_stream_begin(s, layout, &state, null()),
            INLAY_E_INVALIDARG
        );
        assert_eq!(
            inlay_stream_begin(null_mut(), layout, &state, &base),
            INLAY_E_INVALIDARG
        );
        // A stream keeps its layout alive after the caller's release.
        assert_eq!(
            inlay_stream_begin(s, layout, &state, &draws[0].0),
            INLAY_S_OK
        );
        inlay_layout_release(layout);
        let (ids, _, _) = fetch_all(s, 1000);
        assert_eq!(ids.len(), 3000);
        inlay_stream_release(s);
        inlay_diagnostics_release(d);
    }
}

/// Walks every primitive of the draw begun on `stream` in batches of `batch`; returns
/// (ids, vertex positions) and the allocations made by the calls alone.
fn primitives_all(
    stream: *mut inlay_stream,
    batch: usize,
) -> (Vec<inlay_primitive_ids>, Vec<u64>, usize) {
    // SAFETY: `stream` is live with a draw begun.
    let k = unsafe { inlay_stream_primitive_size(stream) } as usize;
    let mut ids = vec![inlay_primitive_ids::default(); batch];
    let mut pos = vec![0u64; batch * k];
    let (mut all_ids, mut all_pos, mut allocs) = (Vec::new(), Vec::new(), 0);
    loop {
        let mut got = 0;
        let before = allocations();
        // SAFETY: outputs sized for `batch` primitives of `k` vertices.
        let hr = unsafe {
            inlay_stream_primitives(
                stream,
                batch,
                ids.as_mut_ptr(),
                pos.as_mut_ptr(),
                pos.len(),
                &mut got,
            )
        };
        allocs += allocations() - before;
        if hr == INLAY_S_FALSE {
            assert_eq!(got, 0);
            return (all_ids, all_pos, allocs);
        }
        assert_eq!(hr, INLAY_S_OK);
        all_ids.extend_from_slice(&ids[..got]);
        all_pos.extend_from_slice(&pos[..got * k]);
    }
}

/// The per-draw path of a translation layer: one stream, created once, serves draw after
/// draw through layouts of 2 and 32 elements (the most there can be), every topology kind
/// and indexed strips with cuts, and neither `inlay_stream_begin`, `inlay_stream_fetch` nor
/// `inlay_stream_primitives` allocates once (a counting global allocator). Vertices and
/// primitives equal the Rust library's reference iterators of the same draw (the vertex
/// iterator runs `ReferencePlan::assemble`, independent of the fast fetch the stream uses).
#[test]
fn one_stream_serves_every_draw_without_allocating() {
    use inlay_core::assembler::{DrawCall, InputAssembler};
    use inlay_core::buffer::{IndexBufferBinding, IndexFormat, VertexBufferBinding};
    let formats = [2u32, 28, 37, 24, 10, 42, 52, 87]; // RGBA32F, RGBA8UN, RG16SN, RGB10A2, RGBA16F, R32U, RG8SI, BGRA8UN
    let names: Vec<std::ffi::CString> = (0..32)
        .map(|_| std::ffi::CString::new("TEXCOORD").unwrap())
        .collect();
    let wide_descs: Vec<INLAY_INPUT_ELEMENT_DESC> = (0..32u32)
        .map(|i| INLAY_INPUT_ELEMENT_DESC {
            SemanticName: names[i as usize].as_ptr(),
            SemanticIndex: i,
            Format: formats[i as usize % 8],
            InputSlot: i % 3,
            AlignedByteOffset: 16 * (i / 3),
            InputSlotClass: if i % 3 == 2 {
                INLAY_PER_INSTANCE_DATA
            } else {
                INLAY_PER_VERTEX_DATA
            },
            InstanceDataStepRate: u32::from(i % 3 == 2),
        })
        .collect();
    let wide_sig = signature_blob(&Signature {
        elements: (0..32)
            .map(|r| SignatureElement {
                stream: 0,
                semantic_name: "TEXCOORD".into(),
                semantic_index: r,
                system_value: SystemValue::UNDEFINED,
                component_type: ComponentType::FLOAT32,
                register: r,
                mask: 0b1111,
                read_write_mask: 0b1111,
                min_precision: MinPrecision(0),
            })
            .collect(),
    });
    let (hr, wide, wd) = create(null(), &wide_descs, 32, &wide_sig);
    assert_eq!(hr, INLAY_S_OK, "{:?}", messages(wd));
    let (hr, seed, sd) = create(null(), &seed_descs(), 2, &seed_blob());
    assert_eq!(hr, INLAY_S_OK);
    let data: Vec<u8> = (0..8192u32).map(|i| (i * 7 + 3) as u8).collect();
    let ib16: Vec<u8> = (0..600u32)
        .flat_map(|i| {
            if i % 37 == 5 {
                0xffff
            } else {
                (i * 11 % 40) as u16
            }
            .to_le_bytes()
        })
        .collect();
    let ib32: Vec<u8> = (0..300u32)
        .flat_map(|i| if i % 23 == 9 { u32::MAX } else { i * 5 % 40 }.to_le_bytes())
        .collect();
    let vb = |stride| {
        [0u32, 1, 2].map(|slot| inlay_vertex_buffer {
            data: data.as_ptr().cast(),
            size: data.len(),
            stride,
            offset: 4 * slot,
        })
    };
    let ibs = [
        inlay_index_buffer {
            data: ib16.as_ptr().cast(),
            size: ib16.len(),
            format: INLAY_INDEX_R16_UINT,
            offset: 2,
        },
        inlay_index_buffer {
            data: ib32.as_ptr().cast(),
            size: ib32.len(),
            format: INLAY_INDEX_R32_UINT,
            offset: 0,
        },
    ];
    let base = inlay_draw {
        kind: INLAY_DRAW,
        count: 0,
        instance_count: 0,
        start: 0,
        base_vertex: 0,
        start_instance: 0,
        args: null(),
        args_size: 0,
        args_offset: 0,
        filled_size: 0,
    };
    // (layout, stride, index buffer, topology, draw): point/line/triangle lists and strips,
    // adjacency, a 5-point patch list; 16- and 32-bit indices with cuts.
    let cases = [
        (
            wide,
            192,
            0,
            4,
            inlay_draw {
                kind: INLAY_DRAW_INSTANCED,
                count: 30,
                instance_count: 3,
                start: 2,
                start_instance: 1,
                ..base
            },
        ),
        (
            seed,
            24,
            0,
            5,
            inlay_draw {
                kind: INLAY_DRAW_INDEXED,
                count: 590,
                start: 3,
                base_vertex: 2,
                ..base
            },
        ),
        (
            wide,
            160,
            1,
            13,
            inlay_draw {
                kind: INLAY_DRAW_INDEXED_INSTANCED,
                count: 290,
                instance_count: 2,
                base_vertex: -1,
                ..base
            },
        ),
        (
            seed,
            24,
            1,
            3,
            inlay_draw {
                kind: INLAY_DRAW_INDEXED,
                count: 300,
                ..base
            },
        ),
        (
            wide,
            176,
            0,
            1,
            inlay_draw {
                kind: INLAY_DRAW,
                count: 77,
                start: 1,
                ..base
            },
        ),
        (
            seed,
            24,
            0,
            12,
            inlay_draw {
                kind: INLAY_DRAW_INSTANCED,
                count: 40,
                instance_count: 2,
                ..base
            },
        ),
        (
            wide,
            192,
            1,
            37,
            inlay_draw {
                kind: INLAY_DRAW_INDEXED,
                count: 200,
                ..base
            },
        ),
        (
            seed,
            24,
            0,
            2,
            inlay_draw {
                kind: INLAY_DRAW,
                count: 41,
                ..base
            },
        ),
    ];
    // SAFETY: live handles; the buffers outlive the stream's draws.
    unsafe {
        let s = inlay_stream_create();
        for round in 0..2 {
            for &(layout, stride, ib, topology, draw) in &cases {
                let vbs = vb(stride);
                let state = inlay_ia_state {
                    vertex_buffers: vbs.as_ptr(),
                    num_vertex_buffers: 3,
                    topology,
                    index_buffer: &ibs[ib],
                };
                // The library's reference for the same draw.
                let l = &*layout;
                let mut ia = InputAssembler::new(&l.layout, l.target);
                for (slot, b) in vbs.iter().enumerate() {
                    ia.set_vertex_buffer(
                        slot as u32,
                        Some(VertexBufferBinding {
                            data: &data,
                            stride: b.stride,
                            offset: b.offset,
                        }),
                    )
                    .unwrap();
                }
                let (bytes, format) = if ib == 0 {
                    (&ib16[..], IndexFormat::R16Uint)
                } else {
                    (&ib32[..], IndexFormat::R32Uint)
                };
                ia.set_index_buffer(Some(IndexBufferBinding {
                    data: bytes,
                    format,
                    offset: ibs[ib].offset,
                }))
                .unwrap();
                ia.set_topology_d3d(topology).unwrap();
                let call = match draw.kind {
                    INLAY_DRAW => DrawCall::Draw {
                        vertex_count: draw.count,
                        start_vertex: draw.start,
                    },
                    INLAY_DRAW_INDEXED => DrawCall::DrawIndexed {
                        index_count: draw.count,
                        start_index: draw.start,
                        base_vertex: draw.base_vertex,
                    },
                    INLAY_DRAW_INSTANCED => DrawCall::DrawInstanced {
                        vertex_count_per_instance: draw.count,
                        instance_count: draw.instance_count,
                        start_vertex: draw.start,
                        start_instance: draw.start_instance,
                    },
                    _ => DrawCall::DrawIndexedInstanced {
                        index_count_per_instance: draw.count,
                        instance_count: draw.instance_count,
                        start_index: draw.start,
                        base_vertex: draw.base_vertex,
                        start_instance: draw.start_instance,
                    },
                };
                let prepared = ia.draw(&call).unwrap();
                let expected: Vec<_> = prepared.vertices().collect();
                let expected_prims: Vec<_> = prepared.primitives().collect();
                assert!(!expected.is_empty() && !expected_prims.is_empty());

                let before = allocations();
                assert_eq!(
                    inlay_stream_begin(s, layout, &state, &draw),
                    INLAY_S_OK,
                    "{draw:?}"
                );
                let begin = allocations() - before;
                assert_eq!(
                    begin, 0,
                    "round {round}: inlay_stream_begin allocated for {draw:?}"
                );
                let k = inlay_stream_primitive_size(s) as usize;
                assert_eq!(k, expected_prims[0].vertices().len());
                // Primitives first (the walks are independent), then the vertices.
                let (pids, pos, allocs) = primitives_all(s, 13);
                assert_eq!(allocs, 0, "inlay_stream_primitives allocated for {draw:?}");
                assert_eq!(pids.len(), expected_prims.len(), "{draw:?}");
                for (j, p) in expected_prims.iter().enumerate() {
                    assert_eq!(
                        (pids[j].primitive_id, pids[j].instance_id),
                        (p.id, p.instance_id)
                    );
                    assert_eq!(&pos[j * k..(j + 1) * k], p.vertices());
                }
                let (ids, regs, allocs) = fetch_all(s, 61);
                assert_eq!(allocs, 0, "inlay_stream_fetch allocated for {draw:?}");
                let fed: Vec<usize> = (0..32).filter(|&r| expected[0].fed & 1 << r != 0).collect();
                let w = fed.len();
                assert_eq!(inlay_stream_register_count(s) as usize, w);
                assert_eq!(ids.len(), expected.len(), "{draw:?}");
                for (j, e) in expected.iter().enumerate() {
                    assert_eq!(
                        (ids[j].position, ids[j].vertex_id, ids[j].instance_id),
                        (e.position, e.vertex_id, e.instance_id)
                    );
                    for (q, &r) in fed.iter().enumerate() {
                        assert_eq!(regs[j * w + q], e.registers[r], "{draw:?} vertex {j} v{r}");
                    }
                }
            }
        }
        // Bad primitive arguments.
        let mut got = 7;
        let mut pos = [0u64; 2];
        assert_eq!(
            inlay_stream_primitives(null_mut(), 1, null_mut(), pos.as_mut_ptr(), 2, &mut got),
            INLAY_E_INVALIDARG
        );
        assert_eq!(inlay_stream_primitive_size(null()), 0);
        // The last draw is over: S_FALSE.
        assert_eq!(
            inlay_stream_primitives(s, 1, null_mut(), pos.as_mut_ptr(), 2, &mut got),
            INLAY_S_FALSE
        );
        assert_eq!(got, 0);
        let vbs = vb(24);
        let state = inlay_ia_state {
            vertex_buffers: vbs.as_ptr(),
            num_vertex_buffers: 1,
            topology: 4,
            index_buffer: null(),
        };
        let draw = inlay_draw { count: 9, ..base };
        assert_eq!(inlay_stream_begin(s, seed, &state, &draw), INLAY_S_OK);
        assert_eq!(inlay_stream_primitive_size(s), 3);
        assert_eq!(
            inlay_stream_primitives(s, 0, null_mut(), pos.as_mut_ptr(), 2, &mut got),
            INLAY_E_INVALIDARG
        );
        assert!(!CStr::from_ptr(inlay_stream_error(s)).is_empty());
        assert_eq!(
            inlay_stream_primitives(s, 1, null_mut(), pos.as_mut_ptr(), 2, &mut got),
            INLAY_E_INVALIDARG
        );
        assert_eq!(
            inlay_stream_primitives(s, 1, null_mut(), null_mut(), 3, &mut got),
            INLAY_E_INVALIDARG
        );
        assert_eq!(
            inlay_stream_primitives(s, 1, null_mut(), pos.as_mut_ptr(), 2, null_mut()),
            INLAY_E_INVALIDARG
        );
        let mut three = [0u64; 3];
        let mut pid = [inlay_primitive_ids::default(); 1];
        // The arguments left the walk in place: the first triangle is 0, 1, 2.
        assert_eq!(
            inlay_stream_primitives(s, 5, pid.as_mut_ptr(), three.as_mut_ptr(), 3, &mut got),
            INLAY_S_OK
        );
        assert_eq!(
            (got, three, pid[0]),
            (
                1,
                [0, 1, 2],
                inlay_primitive_ids {
                    primitive_id: 0,
                    instance_id: 0
                }
            )
        );
        // A refused draw leaves the stream idle for primitives too.
        let undefined = inlay_ia_state {
            topology: 0,
            ..state
        };
        assert_eq!(
            inlay_stream_begin(s, seed, &undefined, &draw),
            INLAY_E_INVALIDARG
        );
        assert_eq!(
            inlay_stream_primitives(s, 1, null_mut(), three.as_mut_ptr(), 3, &mut got),
            INLAY_E_INVALIDARG
        );
        assert_eq!(inlay_stream_primitive_size(s), 0);
        inlay_stream_release(s);
        inlay_layout_release(wide);
        inlay_layout_release(seed);
        inlay_diagnostics_release(wd);
        inlay_diagnostics_release(sd);
    }
}

#[test]
fn version_is_a_static_c_string() {
    // SAFETY: a static NUL-terminated string.
    let v = unsafe { CStr::from_ptr(inlay_version()) };
    assert_eq!(v.to_bytes(), env!("CARGO_PKG_VERSION").as_bytes());
    let _: *const c_void = inlay_version().cast();
}

/// `INLAY_API_D3D12` with `inlay_create_pipeline_input_layout` gives the library's D3D12 answer
/// (d3d12-rules.md P10, P12): the root signature's input-assembler flag is needed (#683), an
/// unknown strip cut is refused (#684), and 12_x levels belong to D3D12 only.
#[test]
fn d3d12_pipeline_creation() {
    let blob = seed_blob();
    let t12 = inlay_target {
        api: INLAY_API_D3D12,
        feature_level: INLAY_FEATURE_LEVEL_12_0,
    };
    let run = |t: &inlay_target, p: Option<inlay_pipeline_desc>| {
        let (mut layout, mut diags) = (null_mut(), null_mut());
        let pp = p
            .as_ref()
            .map_or(null(), |p| p as *const inlay_pipeline_desc);
        let descs = seed_descs();
        // SAFETY: every pointer is valid for what it describes.
        let hr = unsafe {
            inlay_create_pipeline_input_layout(
                t,
                descs.as_ptr(),
                2,
                blob.as_ptr().cast(),
                blob.len(),
                pp,
                &mut layout,
                &mut diags,
            )
        };
        let m: Vec<u32> = messages(diags).iter().map(|m| m.0).collect();
        // SAFETY: live handles (or NULL), released once.
        unsafe {
            inlay_layout_release(layout);
            inlay_diagnostics_release(diags);
        }
        (hr, m)
    };
    let ok = inlay_pipeline_desc {
        root_signature_flags: INLAY_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT,
        ib_strip_cut_value: 1,
        primitive_topology_type: 3,
    };
    assert_eq!(run(&t12, None), (INLAY_S_OK, vec![]));
    assert_eq!(run(&t12, Some(ok)), (INLAY_S_OK, vec![]));
    let no_flag = inlay_pipeline_desc {
        root_signature_flags: 0,
        ..ok
    };
    assert_eq!(run(&t12, Some(no_flag)), (INLAY_E_INVALIDARG, vec![683]));
    let bad_cut = inlay_pipeline_desc {
        ib_strip_cut_value: 3,
        ..ok
    };
    assert_eq!(run(&t12, Some(bad_cut)), (INLAY_E_INVALIDARG, vec![684]));
    // Under D3D11 the pipeline description is ignored.
    let t11 = inlay_target {
        api: INLAY_API_D3D11,
        feature_level: INLAY_FEATURE_LEVEL_11_0,
    };
    assert_eq!(run(&t11, Some(no_flag)), (INLAY_S_OK, vec![]));
    // D3D12 starts at 11_0; 12_x is D3D12's.
    for (api, level) in [
        (INLAY_API_D3D12, INLAY_FEATURE_LEVEL_10_0),
        (INLAY_API_D3D11, INLAY_FEATURE_LEVEL_12_0),
    ] {
        let (hr, m) = run(
            &inlay_target {
                api,
                feature_level: level,
            },
            None,
        );
        assert_eq!((hr, m), (INLAY_E_INVALIDARG, vec![0]), "{api} {level:#x}");
    }
}
/// Issue 34 item 10: a double `inlay_diagnostics_release` crashed in `free`, a double
/// `inlay_layout_release` went unnoticed (it took a stream's reference). Debug builds of the
/// library catch every such misuse: the child process below commits one, and must die by
/// SIGABRT with a message naming the function and what happened — before touching the
/// handle's memory. (Release builds do not check: the test runs in debug builds only; `.ci/run`
/// runs it with `cargo test -p inlay-capi --lib misuse`.)
#[cfg(all(debug_assertions, unix))]
#[test]
fn misuse_of_handles_aborts_in_debug_builds() {
    use std::os::unix::process::ExitStatusExt;
    for (case, said) in [
        ("diagnostics-twice", "inlay_diagnostics_release(0x"),
        ("layout-twice", "inlay_layout_release(0x"),
        ("stream-twice", "inlay_stream_release(0x"),
        ("layout-after-release", "an inlay_layout_* function(0x"),
        ("stream-begin-after-layout-release", "inlay_stream_begin(0x"),
        ("layout-as-diagnostics", "inlay_diagnostics_release(0x"),
    ] {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "abi_tests::misuse_child",
                "--exact",
                "--ignored",
                "--nocapture",
                "--test-threads=1",
            ])
            .env("INLAY_CAPI_MISUSE", case)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.signal(),
            Some(6),
            "{case}: {:?}\n{stderr}",
            out.status
        );
        assert!(stderr.contains(said), "{case}: {stderr}");
        let what = match case {
            "layout-as-diagnostics" => "this is an inlay_layout handle, not an inlay_diagnostics",
            _ => "was released already (a double release, or a use after release)",
        };
        assert!(stderr.contains(what), "{case}: {stderr}");
        assert!(
            stderr.contains("this debug build of libinlay stops here"),
            "{stderr}"
        );
    }
    // Past the quarantine, released handles are freed for real: many create/release rounds
    // run (the registry stays bounded) and each new handle is live.
    let blob = seed_blob();
    for _ in 0..5000 {
        let (hr, layout, d) = create(null(), &seed_descs(), 2, &blob);
        assert_eq!(hr, INLAY_S_OK);
        // SAFETY: live handles, released once.
        unsafe {
            assert_eq!(inlay_layout_element_count(layout), 2);
            inlay_layout_release(layout);
            inlay_diagnostics_release(d);
        }
    }
}

/// The misuse `INLAY_CAPI_MISUSE` names (run by `misuse_of_handles_aborts_in_debug_builds`
/// in a child process; ignored otherwise).
#[cfg(debug_assertions)]
#[test]
#[ignore = "run as a child process by misuse_of_handles_aborts_in_debug_builds"]
fn misuse_child() {
    let Ok(case) = std::env::var("INLAY_CAPI_MISUSE") else {
        return;
    };
    let blob = seed_blob();
    let (hr, layout, d) = create(null(), &seed_descs(), 2, &blob);
    assert_eq!(hr, INLAY_S_OK);
    // SAFETY: deliberately not: each case breaks the contract once, which the debug build
    // catches before any memory of the handle is touched.
    unsafe {
        match case.as_str() {
            "diagnostics-twice" => {
                inlay_diagnostics_release(d);
                inlay_diagnostics_release(d);
            }
            "layout-twice" => {
                inlay_layout_release(layout);
                inlay_layout_release(layout);
            }
            "stream-twice" => {
                let s = inlay_stream_create();
                inlay_stream_release(s);
                inlay_stream_release(s);
            }
            "layout-after-release" => {
                inlay_layout_release(layout);
                inlay_layout_element_count(layout);
            }
            "stream-begin-after-layout-release" => {
                let s = inlay_stream_create();
                inlay_layout_release(layout);
                let state: inlay_ia_state = std::mem::zeroed();
                let draw: inlay_draw = std::mem::zeroed();
                inlay_stream_begin(s, layout, &state, &draw);
            }
            "layout-as-diagnostics" => inlay_diagnostics_release(layout.cast()),
            other => panic!("unknown case {other}"),
        }
    }
    // Reaching here means the misuse went unnoticed.
    std::process::exit(3);
}

/// In release builds the checks cost nothing: a release is the release itself (and a double
/// release is not looked for — the header says so).
#[cfg(not(debug_assertions))]
#[test]
fn release_builds_do_not_track_handles() {
    let blob = seed_blob();
    let before = allocations();
    let (hr, layout, d) = create(null(), &seed_descs(), 2, &blob);
    assert_eq!(hr, INLAY_S_OK);
    let made = allocations() - before;
    // SAFETY: live handles, released once.
    unsafe {
        inlay_layout_release(layout);
        inlay_diagnostics_release(d);
    }
    // Releasing allocates nothing (a debug build's quarantine would).
    assert_eq!(allocations() - before, made);
}
