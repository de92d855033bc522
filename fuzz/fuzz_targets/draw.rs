//! A draw with arbitrary layout, bindings, buffers, topology and draw parameters, through the
//! reference input assembler and the compiled fetch plan.
//!
//! Counts come from the input and may be anything up to 2^32 × 2^32; the work is bounded by
//! this target instead: at most `WALK_LIMIT` walk steps, `VERTEX_LIMIT` vertices and
//! `PRIMITIVE_LIMIT` primitives are taken from the lazy streams. Nothing may panic, and the
//! fetch plan (portable, AVX2 or AVX-512 — the fuzz crate enables inlay's `avx512` feature; an
//! ISA the CPU lacks falls back to portable —, normal or streaming stores) must give exactly
//! the reference assembler's register bits for every vertex taken, through both
//! `fetch_registers`, `fetch_elements` and `fetch_element_rows` (issue 18; rows of 1–4 lanes per
//! element equal the portable four-lane output's first lanes, and nothing past them is written). `fetch_elements` fills one array per
//! layout element: an element whose register no later element shares must equal the
//! reference register; every element must equal what the portable plan gives.
#![no_main]

use arbitrary::Arbitrary;
use inlay::assembler::{AssembledVertex, DrawCall, InputAssembler, WalkBatch};
use inlay::buffer::{IndexBufferBinding, IndexFormat, VertexBufferBinding};
use inlay::fetch::{ElementRows, FetchError, FetchPlan, Instance, Isa, StoreMode, Vertices};
use inlay::validation;
use inlay::{CreateInputLayout, Signature};
use inlay_fuzz::{ArbElement, ArbLayoutElement, ArbTarget, Biased};
use libfuzzer_sys::fuzz_target;

/// Walk steps taken from one draw.
const WALK_LIMIT: usize = 4096;
/// Vertices taken from one draw (reference stream and fetch plan).
const VERTEX_LIMIT: usize = 1024;
/// Primitives taken from one draw.
const PRIMITIVE_LIMIT: usize = 1024;
/// Largest batch handed to the fetch plan at once.
const BATCH: usize = 128;

#[derive(Debug, Arbitrary)]
enum LayoutSource {
    /// Resolved elements (slot, offset, class, register) through `CreateInputLayout` with a
    /// signature that puts each on its register (layouts exist only through creation).
    Raw(Vec<ArbLayoutElement>),
    /// Elements through the shader-less `CreateInputLayout` path.
    Created(Vec<ArbElement>),
}

#[derive(Debug, Arbitrary)]
struct VertexBuffer {
    slot: Biased,
    data: Vec<u8>,
    stride: Biased,
    offset: Biased,
    unbind: bool,
}

#[derive(Debug, Arbitrary)]
struct IndexBuffer {
    data: Vec<u8>,
    r32: bool,
    offset: Biased,
}

#[derive(Debug, Arbitrary)]
enum Call {
    Draw(Biased, Biased),
    DrawIndexed(Biased, Biased, i32),
    DrawInstanced(Biased, Biased, Biased, Biased),
    DrawIndexedInstanced(Biased, Biased, Biased, i32, Biased),
    DrawInstancedIndirect(Vec<u8>, Biased),
    DrawIndexedInstancedIndirect(Vec<u8>, Biased),
    DrawAuto(Biased),
}

#[derive(Debug, Arbitrary)]
struct Input {
    target: ArbTarget,
    layout: LayoutSource,
    buffers: Vec<VertexBuffer>,
    index: Option<IndexBuffer>,
    topology: u8,
    call: Call,
    isa: u8,
    streaming: bool,
    elements: bool,
    /// Lanes per element for `fetch_element_rows` (cycled; `l % 6`: 1–4 valid, 0 and 5
    /// must be refused with `FetchError::LaneCount`).
    lanes: Vec<u8>,
}

fuzz_target!(|input: Input| {
    let target = input.target.0;
    let layout = match &input.layout {
        LayoutSource::Raw(v) => {
            let v = &v[..v.len().min(64)];
            let descs: Vec<_> = v.iter().enumerate().map(|(i, e)| e.desc(i)).collect();
            let signature = Signature {
                elements: v
                    .iter()
                    .enumerate()
                    .filter_map(|(i, e)| e.signature_entry(i))
                    .collect(),
            };
            match CreateInputLayout::new(&target, &descs)
                .signature(Ok(&signature))
                .layout
            {
                Some(l) => l,
                None => return,
            }
        }
        LayoutSource::Created(v) => {
            let descs: Vec<_> = v.iter().map(ArbElement::desc).collect();
            match validation::layout_without_shader(&target, &descs).layout {
                Some(l) => l,
                None => return,
            }
        }
    };
    let mut ia = InputAssembler::new(&layout, target);
    for b in &input.buffers {
        let binding = (!b.unbind).then_some(VertexBufferBinding {
            data: &b.data,
            stride: b.stride.0,
            offset: b.offset.0,
        });
        let _ = ia.set_vertex_buffer(b.slot.0, binding);
    }
    if let Some(ib) = &input.index {
        let format = if ib.r32 {
            IndexFormat::R32Uint
        } else {
            IndexFormat::R16Uint
        };
        let _ = ia.set_index_buffer(Some(IndexBufferBinding {
            data: &ib.data,
            format,
            offset: ib.offset.0,
        }));
    }
    // Mostly a defined topology (patch lists included), sometimes any value up to 69.
    const DEFINED: [u32; 12] = [1, 2, 3, 4, 5, 10, 11, 12, 13, 33, 40, 64];
    let topology = if input.topology < 192 {
        DEFINED[usize::from(input.topology) % DEFINED.len()]
    } else {
        u32::from(input.topology) % 70
    };
    let _ = ia.set_topology_d3d(topology);
    let call = match &input.call {
        Call::Draw(c, s) => DrawCall::Draw {
            vertex_count: c.0,
            start_vertex: s.0,
        },
        Call::DrawIndexed(c, s, b) => DrawCall::DrawIndexed {
            index_count: c.0,
            start_index: s.0,
            base_vertex: *b,
        },
        Call::DrawInstanced(c, n, s, si) => DrawCall::DrawInstanced {
            vertex_count_per_instance: c.0,
            instance_count: n.0,
            start_vertex: s.0,
            start_instance: si.0,
        },
        Call::DrawIndexedInstanced(c, n, s, b, si) => DrawCall::DrawIndexedInstanced {
            index_count_per_instance: c.0,
            instance_count: n.0,
            start_index: s.0,
            base_vertex: *b,
            start_instance: si.0,
        },
        Call::DrawInstancedIndirect(args, o) => {
            DrawCall::DrawInstancedIndirect { args, offset: o.0 }
        }
        Call::DrawIndexedInstancedIndirect(args, o) => {
            DrawCall::DrawIndexedInstancedIndirect { args, offset: o.0 }
        }
        Call::DrawAuto(f) => DrawCall::DrawAuto { filled_size: f.0 },
    };

    // The fetch plan compiles whatever the reference thinks of the layout.
    let bindings: Vec<Option<VertexBufferBinding<'_>>> =
        (0..32).map(|s| ia.vertex_buffer(s).copied()).collect();
    let plan = FetchPlan::new(&layout, &bindings).map(|p| {
        p.with_isa(match input.isa % 4 {
            0 => Isa::Portable,
            1 => Isa::Avx512,
            _ => Isa::detect(),
        })
        .with_store_mode(if input.streaming {
            StoreMode::Streaming
        } else {
            StoreMode::Normal
        })
    });

    let Ok(draw) = ia.draw(&call) else { return };
    let params = *draw.params();

    // The walk: bounded number of steps, positions in order.
    let steps = draw.walk().take(WALK_LIMIT).count() as u64;
    assert_eq!(steps, params.steps().min(WALK_LIMIT as u64));

    // Primitives: each names positions in increasing order that the draw has.
    for p in draw.primitives().take(PRIMITIVE_LIMIT) {
        assert!(!p.vertices().is_empty());
    }

    // Reference vertices.
    let reference: Vec<AssembledVertex> = draw.vertices().take(VERTEX_LIMIT).collect();
    let Ok(plan) = plan else { return };
    let portable = plan.clone().with_isa(Isa::Portable);
    // Elements whose lanes are the reference register's: a register no later element uses
    // (the later element wins a shared register).
    let unique_register: Vec<Option<u32>> = layout
        .elements()
        .iter()
        .enumerate()
        .map(|(i, e)| {
            e.register.filter(|r| {
                !layout.elements()[i + 1..]
                    .iter()
                    .any(|l| l.register == Some(*r))
            })
        })
        .collect();
    let n_elements = plan.element_count();
    // Every layout element has a vertex format here (the reference accepted it), so the
    // plan compiled; compare its register file with the reference, batch by batch.
    let regs = plan.registers().to_vec();
    let row = regs.len();
    let mut walker = draw.walk();
    let mut indices = [0u32; BATCH];
    let mut out = vec![[0u32; 4]; BATCH * row.max(1)];
    let mut k = 0usize;
    while k < reference.len() {
        let Some(batch) = walker.next_batch(BATCH.min(reference.len() - k), &mut indices) else {
            break;
        };
        let instance = Instance {
            id: batch.instance_id(),
            start: params.start_instance,
        };
        let n = batch.len();
        let vertices = match batch {
            WalkBatch::Range {
                first_vertex_index,
                count,
                ..
            } => Vertices::Range {
                first: first_vertex_index,
                count: count as u32,
            },
            WalkBatch::Indexed {
                base_vertex, count, ..
            } => Vertices::Indexed {
                indices: &indices[..count],
                base_vertex,
            },
        };
        plan.fetch_registers(vertices, instance, &mut out[..n * row])
            .expect("output sized for the batch");
        if input.elements && n_elements == layout.elements().len() {
            let mut got = vec![[[0u32; 4]; BATCH]; n_elements];
            let mut want = vec![[[0u32; 4]; BATCH]; n_elements];
            {
                let mut outs: Vec<&mut [[u32; 4]]> = got.iter_mut().map(|a| &mut a[..n]).collect();
                plan.fetch_elements(vertices, instance, &mut outs)
                    .expect("one output per element, sized for the batch");
                let mut outs: Vec<&mut [[u32; 4]]> = want.iter_mut().map(|a| &mut a[..n]).collect();
                portable
                    .fetch_elements(vertices, instance, &mut outs)
                    .expect("one output per element, sized for the batch");
            }
            for e in 0..n_elements {
                for v in 0..n.min(reference.len() - k) {
                    assert_eq!(
                        got[e][v],
                        want[e][v],
                        "vertex {} element {e}: fetch_elements {:?} vs portable",
                        k + v,
                        plan.isa()
                    );
                    if let Some(reg) = unique_register[e] {
                        if (reg as usize) < reference[k + v].registers.len() {
                            assert_eq!(
                                got[e][v],
                                reference[k + v].registers[reg as usize],
                                "vertex {} element {e}: fetch_elements vs reference",
                                k + v
                            );
                        }
                    }
                }
            }
        }
        if input.elements && n_elements == layout.elements().len() && !input.lanes.is_empty() {
            // `fetch_element_rows`: each element's rows at its own lane count hold the first
            // lanes of the portable four-lane output; nothing past the rows is written.
            const SENTINEL: u32 = 0x5eed_f00d;
            let lanes: Vec<usize> = (0..n_elements)
                .map(|e| (input.lanes[e % input.lanes.len()] % 6) as usize)
                .collect();
            let mut four = vec![[[0u32; 4]; BATCH]; n_elements];
            {
                let mut outs: Vec<&mut [[u32; 4]]> = four.iter_mut().map(|a| &mut a[..n]).collect();
                portable
                    .fetch_elements(vertices, instance, &mut outs)
                    .expect("one output per element, sized for the batch");
            }
            let mut rows: Vec<Vec<u32>> =
                lanes.iter().map(|&l| vec![SENTINEL; n * l + 3]).collect();
            let result = {
                let mut outs: Vec<ElementRows> = rows
                    .iter_mut()
                    .zip(&lanes)
                    .map(|(data, &lanes)| ElementRows { lanes, data })
                    .collect();
                plan.fetch_element_rows(vertices, instance, &mut outs)
            };
            match lanes.iter().position(|l| !(1..=4).contains(l)) {
                Some(bad) => assert_eq!(
                    result,
                    Err(FetchError::LaneCount {
                        element: bad,
                        lanes: lanes[bad]
                    })
                ),
                None => {
                    result.expect("rows sized for the batch");
                    for e in 0..n_elements {
                        let l = lanes[e];
                        for v in 0..n {
                            assert_eq!(
                                &rows[e][v * l..(v + 1) * l],
                                &four[e][v][..l],
                                "vertex {} element {e} lanes {l}: fetch_element_rows {:?} vs portable fetch_elements",
                                k + v,
                                plan.isa()
                            );
                        }
                        assert!(
                            rows[e][n * l..].iter().all(|&x| x == SENTINEL),
                            "element {e}: fetch_element_rows wrote past its rows"
                        );
                    }
                }
            }
        }
        for v in 0..n.min(reference.len() - k) {
            let r = &reference[k + v];
            assert_eq!(r.instance_id, batch.instance_id());
            for (pos, &reg) in regs.iter().enumerate() {
                assert_eq!(
                    out[v * row + pos],
                    r.registers[reg as usize],
                    "vertex {} register {reg}: fetch plan vs reference",
                    k + v
                );
            }
        }
        k += n;
    }
});
