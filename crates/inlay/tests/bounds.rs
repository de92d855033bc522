//! Resource bounds (issue "bad input never hurts"): inputs that *claim* huge sizes — a blob
//! header with 2^32 − 1 chunks, a signature chunk with 2^32 − 1 elements, an index count of
//! 2^32 − 1 (times 2^32 − 1 instances), a vertex buffer with a huge stride, a 10^6-element
//! array — are answered with error values or lazy streams, and no allocation grows with the
//! claimed count: this test binary counts every allocation per thread (a global allocator
//! wrapping `System`) and each test asserts the peak bytes live during the call.
//!
//! The limits asserted here are the ones documented in fuzz/README.md and docs/notes/fuzz.md.
// The counting allocator needs `unsafe impl GlobalAlloc`; the library itself forbids unsafe
// code outside the fast-fetch SIMD module. Each unsafe block below says why it is sound.
#![allow(unsafe_code)]

mod support;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use inlay::assembler::{DrawCall, IaError, InputAssembler, Topology};
use inlay::buffer::{IndexBufferBinding, IndexFormat, VertexBufferBinding};
use inlay::diag::{HResult, MessageId};
use inlay::dxbc::{
    self, ComponentType, Container, DxbcError, MinPrecision, Signature, SignatureElement,
    SignatureKind, SystemValue,
};
use inlay::element::InputElementDesc;
use inlay::fetch::{FetchPlan, Instance, Vertices};
use inlay::format::Format;
use inlay::layout::{InputClass, InputLayout, LayoutElement};
use inlay::target::Target;

thread_local! {
    /// Bytes this thread has allocated and not freed (a block freed on another thread counts
    /// there, so this may go negative), and the most seen since the last reset. Per thread,
    /// because the test harness runs tests (and their setup) on several threads at once.
    /// Const-initialised without a destructor, so the allocator can use it without
    /// allocating.
    static COUNTS: Cell<(isize, isize)> = const { Cell::new((0, 0)) };
}

/// `System`, counting live bytes per thread.
struct Counting;

fn count(delta: isize) {
    // `try_with`: nothing is counted while the thread's locals are being torn down.
    let _ = COUNTS.try_with(|c| {
        let (now, peak) = c.get();
        let now = now + delta;
        c.set((now, peak.max(now)));
    });
}

fn grew(by: usize) {
    count(by as isize);
}

fn shrank(by: usize) {
    count(-(by as isize));
}

// SAFETY: every method forwards its arguments unchanged to `System`, which upholds the
// `GlobalAlloc` contract; the counters are a const thread-local `Cell`, which never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller guarantees `layout` has a non-zero size, as `System.alloc` needs.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller guarantees `ptr` came from this allocator (so from `System`) with
        // this `layout`.
        unsafe { System.dealloc(ptr, layout) };
        shrank(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller guarantees `ptr`/`layout` describe a live block of this allocator
        // and that `new_size` is valid for `layout`'s alignment.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            shrank(layout.size());
            grew(new_size);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Runs `f` on this thread and returns its result with the peak bytes this thread allocated
/// during the call beyond what was live before it (the result's own allocations included).
fn peak_during<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let (base, _) = COUNTS.with(Cell::get);
    COUNTS.with(|c| c.set((base, base)));
    let r = f();
    let (_, peak) = COUNTS.with(Cell::get);
    (r, (peak - base).max(0) as usize)
}

/// A 32-byte DXBC header claiming `count` chunks and a container of `size` bytes.
fn header(size: u32, count: u32) -> Vec<u8> {
    let mut b = b"DXBC".to_vec();
    b.extend_from_slice(&[0; 16]);
    b.extend_from_slice(&1u32.to_le_bytes());
    b.extend_from_slice(&size.to_le_bytes());
    b.extend_from_slice(&count.to_le_bytes());
    b
}

fn sign(mut blob: Vec<u8>) -> Vec<u8> {
    let d = dxbc::checksum(&blob);
    blob[4..20].copy_from_slice(&d);
    blob
}

fn position_desc() -> InputElementDesc {
    InputElementDesc::per_vertex("POSITION", 0, Format::R32G32B32A32_FLOAT, 0, 0)
}

#[test]
fn header_claiming_u32_max_chunks_is_refused_without_allocating() {
    // The 32-byte header alone, and the same header at the front of 1 MiB of zeros.
    for len in [32usize, 1 << 20] {
        let mut blob = header(len as u32, u32::MAX);
        blob.resize(len, 0);
        let (r, peak) = peak_during(|| Container::parse(&blob).map(|c| c.chunk_count()));
        assert_eq!(
            r,
            Err(DxbcError::ChunkCountTooLarge {
                count: u32::MAX,
                needed: 32 + 4 * u64::from(u32::MAX),
                size: len,
            })
        );
        assert_eq!(peak, 0, "Container::parse allocates nothing");

        // Through CreateInputLayout: error 161, memory for the diagnostic text only.
        let blob = sign(blob);
        let elements = [position_desc()];
        let (c, peak) = peak_during(|| {
            inlay::CreateInputLayout::new(&Target::default(), &elements)
                .num_elements(1)
                .bytecode(&blob)
        });
        assert_eq!(c.hresult, HResult::E_INVALIDARG);
        assert_eq!(
            c.error_ids(),
            [MessageId::CREATEINPUTLAYOUT_UNPARSEABLEINPUTSIGNATURE]
        );
        assert!(peak < 16 << 10, "peak {peak} bytes for a {len}-byte blob");
    }
}

#[test]
fn signature_chunk_claiming_u32_max_elements_is_refused_without_allocating() {
    let mut data = u32::MAX.to_le_bytes().to_vec();
    data.extend_from_slice(&8u32.to_le_bytes());
    data.resize(4096, 0);
    for kind in SignatureKind::ALL {
        let (r, peak) = peak_during(|| dxbc::parse_signature_chunk(kind, &data));
        assert_eq!(
            r,
            Err(DxbcError::SignatureElementsPastEnd {
                tag: kind.tag(),
                at: 0,
                count: u32::MAX,
                first: 8,
                stride: kind.element_size(),
                len: 4096,
            })
        );
        assert_eq!(peak, 0);
    }
    // The same chunk in a signed container handed to CreateInputLayout.
    let blob = dxbc::write_container(&[(*b"ISGN", &data)]);
    let elements = [position_desc()];
    let (c, peak) = peak_during(|| {
        inlay::CreateInputLayout::new(&Target::default(), &elements)
            .num_elements(1)
            .bytecode(&blob)
    });
    assert_eq!(
        c.error_ids(),
        [MessageId::CREATEINPUTLAYOUT_UNPARSEABLEINPUTSIGNATURE]
    );
    assert!(peak < 16 << 10, "peak {peak}");
}

/// A chunk of `len` bytes whose elements all share one long name: before the fix this decoded
/// to about len²/96 bytes (a 64 KiB chunk to 44 MB, 1 MiB to 11 GiB). Now the names a chunk
/// decodes to are bounded by 8 × its length (at least 64 KiB), and past that it is refused.
#[test]
fn elements_sharing_one_long_name_cannot_multiply_memory() {
    let len = 64usize << 10;
    let name_len = len / 2 - 16;
    let count = ((len - name_len - 8 - 1) / 24) as u32;
    let name_offset = 8 + 24 * count;
    let mut data = count.to_le_bytes().to_vec();
    data.extend_from_slice(&8u32.to_le_bytes());
    for i in 0..count {
        for w in [name_offset, i, 0, 3, i % 32, 0x0f0f] {
            data.extend_from_slice(&w.to_le_bytes());
        }
    }
    data.resize(name_offset as usize + name_len, b'N');
    data.push(0);
    data.resize(len, 0);
    let (r, peak) = peak_during(|| dxbc::parse_signature_chunk(SignatureKind::Isgn, &data));
    let limit = 8 * len as u64;
    // Element 16 is the first whose name (32 KiB) no longer fits in 512 KiB.
    assert_eq!(
        r,
        Err(DxbcError::SignatureNamesTooLarge {
            tag: dxbc::FourCC::ISGN,
            at: 0,
            element: 16,
            total: 17 * name_len as u64,
            limit,
            len,
        })
    );
    // Names up to the limit, plus the element vector (bounded by the chunk: one element per
    // 24 bytes of it).
    assert!(
        (peak as u64) < limit + 4 * len as u64,
        "peak {peak} bytes for a {len}-byte chunk (limit {limit})"
    );

    // A real signature (fxc's shape: names stored once, short) is far inside the budget.
    let el = |name: &str, index, register| SignatureElement {
        stream: 0,
        semantic_name: name.to_string(),
        semantic_index: index,
        system_value: SystemValue::UNDEFINED,
        component_type: ComponentType::FLOAT32,
        register,
        mask: 0xf,
        read_write_mask: 0xf,
        min_precision: MinPrecision::default(),
    };
    let sig = Signature {
        elements: (0..32).map(|i| el("TEXCOORD", i, i)).collect(),
    };
    let chunk = dxbc::write_signature_chunk(SignatureKind::Isgn, &sig);
    assert_eq!(
        dxbc::parse_signature_chunk(SignatureKind::Isgn, &chunk),
        Ok(sig)
    );
}

/// Chunk offsets may all point at one chunk: the container parses without allocating, and
/// its rewrite (each copy written out) is refused before allocating when over the limit.
#[test]
fn overlapping_chunks_are_not_multiplied_by_the_rewrite() {
    let count = 4000u32;
    let table_end = 32 + 4 * count as usize;
    let data_len = 60_000u32;
    let size = table_end + 8 + data_len as usize;
    let mut blob = header(size as u32, count);
    for _ in 0..count {
        blob.extend_from_slice(&(table_end as u32).to_le_bytes());
    }
    blob.extend_from_slice(b"STAT");
    blob.extend_from_slice(&data_len.to_le_bytes());
    blob.resize(size, 0);
    let (c, peak) = peak_during(|| Container::parse(&blob).unwrap());
    assert_eq!(peak, 0);
    assert_eq!(c.chunk_count(), 4000);
    let expected = 32 + u64::from(count) * (4 + 8 + u64::from(data_len));
    assert_eq!(c.rewritten_size(), expected);
    let (r, peak) = peak_during(|| c.try_rewrite(16 << 20));
    assert_eq!(
        r,
        Err(DxbcError::RewriteTooLarge {
            size: expected,
            limit: 16 << 20
        })
    );
    assert_eq!(peak, 0);
}

fn one_element_layout() -> InputLayout {
    support::create_layout(&[LayoutElement {
        semantic_name: "POSITION".into(),
        semantic_index: 0,
        format: Format::R32G32B32A32_FLOAT,
        slot: 0,
        offset: 0,
        class: InputClass::PerVertex,
        step_rate: 0,
        register: Some(0),
    }])
}

#[test]
fn index_count_of_u32_max_streams_lazily() {
    let layout = one_element_layout();
    let vb = [0u8; 64];
    let ib: Vec<u8> = [0u16, 1, 2, 3]
        .iter()
        .flat_map(|i| i.to_le_bytes())
        .collect();
    let mut ia = InputAssembler::new(&layout, Target::default());
    ia.set_vertex_buffer(
        0,
        Some(VertexBufferBinding {
            data: &vb,
            stride: 16,
            offset: 0,
        }),
    )
    .unwrap();
    ia.set_index_buffer(Some(IndexBufferBinding {
        data: &ib,
        format: IndexFormat::R16Uint,
        offset: 0,
    }))
    .unwrap();
    ia.set_topology(Topology::TriangleStrip).unwrap();
    let call = DrawCall::DrawIndexedInstanced {
        index_count_per_instance: u32::MAX,
        instance_count: u32::MAX,
        start_index: 0,
        base_vertex: 0,
        start_instance: 0,
    };
    let ((ids, prims), peak) = peak_during(|| {
        let draw = ia.draw(&call).unwrap();
        assert_eq!(
            draw.params().steps(),
            u64::from(u32::MAX) * u64::from(u32::MAX)
        );
        let ids: Vec<u32> = draw.vertices().take(6).map(|v| v.vertex_id).collect();
        let prims: Vec<Vec<u64>> = draw
            .primitives()
            .take(3)
            .map(|p| p.vertices().to_vec())
            .collect();
        (ids, prims)
    });
    // Indices past the 4-entry buffer read 0 (ia-semantics §5).
    assert_eq!(ids, [0, 1, 2, 3, 0, 0]);
    assert_eq!(prims, [vec![0, 1, 2], vec![1, 3, 2], vec![2, 3, 4]]);
    assert!(peak < 16 << 10, "peak {peak} bytes");
}

#[test]
fn huge_strides_are_refused_or_read_out_of_bounds() {
    let layout = one_element_layout();
    let vb = [0x3fu8; 64];
    let mut ia = InputAssembler::new(&layout, Target::default());
    // IASetVertexBuffers refuses strides above 2048.
    assert_eq!(
        ia.set_vertex_buffer(
            0,
            Some(VertexBufferBinding {
                data: &vb,
                stride: u32::MAX,
                offset: 0
            })
        ),
        Err(IaError::StrideTooLarge {
            slot: 0,
            stride: u32::MAX
        })
    );
    // The largest legal stride: vertex 0 is in the buffer, every later one out of bounds.
    ia.set_vertex_buffer(
        0,
        Some(VertexBufferBinding {
            data: &vb,
            stride: 2048,
            offset: 0,
        }),
    )
    .unwrap();
    ia.set_topology(Topology::PointList).unwrap();
    let (regs, peak) = peak_during(|| {
        let draw = ia
            .draw(&DrawCall::Draw {
                vertex_count: u32::MAX,
                start_vertex: 0,
            })
            .unwrap();
        draw.vertices()
            .take(3)
            .map(|v| v.registers[0])
            .collect::<Vec<_>>()
    });
    assert_eq!(regs[0], [0x3f3f_3f3f; 4]);
    assert_eq!(regs[1], [0; 4]);
    assert_eq!(regs[2], [0; 4]);
    assert!(peak < 16 << 10, "peak {peak}");

    // The fetch plan takes any stride (its caller binds buffers): u32::MAX wraps the address
    // arithmetic, and only the caller's output is written.
    let bindings = [Some(VertexBufferBinding {
        data: &vb,
        stride: u32::MAX,
        offset: 0,
    })];
    let plan = FetchPlan::new(&layout, &bindings).unwrap();
    let mut out = vec![[7u32; 4]; 1024];
    let (r, peak) = peak_during(|| {
        plan.fetch_registers(
            Vertices::Range {
                first: 0,
                count: 1024,
            },
            Instance::default(),
            &mut out,
        )
    });
    assert_eq!(r, Ok(()));
    assert_eq!(peak, 0, "the fetch plan allocates nothing per call");
    assert_eq!(out[0], [0x3f3f_3f3f; 4]);
    // Vertex k reads at 2^32 − k (wrapping): past the 64-byte buffer, so out of bounds.
    assert_eq!(out[1], [0; 4]);
    assert!(out[2..].iter().all(|r| *r == [0; 4]));
}

#[test]
fn a_million_element_array_is_refused_by_count_not_walked() {
    let elements = vec![position_desc(); 1_000_000];
    let blob = dxbc::signature_blob(&Signature::default());
    let t = Target::default();
    let (c, peak) = peak_during(|| {
        inlay::CreateInputLayout::new(&t, &elements)
            .num_elements(1_000_000)
            .bytecode(&blob)
    });
    assert_eq!(c.hresult, HResult::E_INVALIDARG);
    assert_eq!(
        c.error_ids(),
        [MessageId::CREATEINPUTLAYOUT_TOOMANYELEMENTS]
    );
    assert!(peak < 16 << 10, "peak {peak} bytes");
    // NumElements within the limit: only those elements are looked at, whatever the array.
    let (c, peak) = peak_during(|| {
        inlay::CreateInputLayout::new(&t, &elements)
            .num_elements(32)
            .bytecode(&blob)
    });
    assert_eq!(c.hresult, HResult::E_INVALIDARG);
    assert!(
        c.error_ids()
            .contains(&MessageId::CREATEINPUTLAYOUT_DUPLICATESEMANTIC)
    );
    assert!(peak < 256 << 10, "peak {peak} bytes");
}

/// The counter itself works (else every `peak == 0` above would hold vacuously).
#[test]
fn the_counting_allocator_sees_allocations() {
    let (v, peak) = peak_during(|| vec![1u8; 100_000]);
    assert_eq!(v.len(), 100_000);
    assert!((100_000..200_000).contains(&peak), "peak {peak}");
    let ((), peak) = peak_during(|| drop(vec![1u8; 10]));
    assert_eq!(peak, 10);
}

/// A C file of one endless line (4 MiB, no newline), inside and outside an array: an error
/// whose excerpt is cut to 60 characters, and memory linear in the input: nothing outside an
/// array (the scanner keeps no tokens), at most 3 × the input inside one (the array's tokens;
/// measured: 2 × for a 4 MiB identifier).
#[test]
fn an_endless_c_line_gives_a_short_error_and_little_memory() {
    use inlay::text::{MAX_EXCERPT_CHARS, c};
    let endless = "x".repeat(4 << 20);
    let in_array = format!("const D3D11_INPUT_ELEMENT_DESC a[] = {{ {{ {endless}");
    for source in [endless.as_str(), in_array.as_str()] {
        let (r, peak) = peak_during(|| c::parse(source, None));
        let e = r.unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.found.chars().count() <= MAX_EXCERPT_CHARS + 1, "{e:?}");
        let bound = if source.len() == endless.len() {
            64 << 10
        } else {
            3 * source.len()
        };
        assert!(peak < bound, "peak {peak} bytes for {} bytes", source.len());
    }
}

/// Issue 18 item 7 (found while fixing item 3): every C array's elements used to be kept until
/// the end of the scan, and a zero-filled `a[4096] = {}` costs 4096 elements for 30 bytes of
/// text — 200 of them took ~200 MB. Now only the chosen array keeps its elements.
#[test]
fn many_zero_filled_c_arrays_cost_one_array() {
    use inlay::text::c;
    let mut src = String::new();
    for i in 0..200 {
        src.push_str(&format!("D3D11_INPUT_ELEMENT_DESC a{i}[4096] = {{}};\n"));
    }
    let (r, peak) = peak_during(|| c::parse(&src, Some("a199")));
    assert_eq!(r.unwrap().elements.len(), 4096);
    // One array: 4096 elements and their spans (~1 MB), plus the names of the others.
    assert!(peak < 4 << 20, "peak {peak} bytes");
    let (list, peak) = peak_during(|| c::arrays(&src));
    assert_eq!(list.len(), 200);
    assert!(peak < 2 << 20, "peak {peak} bytes");
}

/// Issue 18 item 7: a TOML layout of 400 000 elements (27 MB) took 965 MB; JSON/TOML texts with
/// more separators than `MAX_SEPARATORS` are refused before the readers build anything.
#[test]
fn huge_json_and_toml_layouts_are_refused_before_materialising() {
    use inlay::text::{MAX_SEPARATORS, json, toml};
    let n = 200_000;
    let toml_src = "[[elements]]\nsemantic = \"P\"\nformat = 2\noffset = 0\n".repeat(n);
    let json_src = format!(
        "[{}]",
        vec![r#"{"semantic": "P", "format": 2, "offset": 0}"#; n].join(",")
    );
    for (src, r) in [
        (
            &toml_src,
            peak_during(|| toml::parse_layout(&toml_src).map(|_| ())),
        ),
        (
            &json_src,
            peak_during(|| json::parse_layout(&json_src).map(|_| ())),
        ),
    ] {
        let (r, peak) = r;
        let e = r.unwrap_err();
        assert!(
            e.message.contains(&format!(
                "holds more than {MAX_SEPARATORS} values and separators"
            )),
            "{e}"
        );
        assert!(peak < 64 << 10, "peak {peak} bytes for {} bytes", src.len());
    }
    // The same readers on a 4096-element layout (the most a C array holds) still work.
    let ok = "[[elements]]\nsemantic = \"P\"\nformat = 2\noffset = 0\n".repeat(4096);
    assert_eq!(toml::parse_layout(&ok).unwrap().elements.len(), 4096);
    let ok = format!(
        "[{}]",
        vec![
            r#"{"semantic": "P", "index": 0, "format": 2, "slot": 0, "offset": 0, "class": "vertex", "step_rate": 0}"#;
            4096
        ]
        .join(",")
    );
    assert_eq!(json::parse_layout(&ok).unwrap().elements.len(), 4096);
}
