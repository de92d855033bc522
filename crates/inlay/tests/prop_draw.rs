//! Property tests for draws with bad input (issue "bad input never hurts"): arbitrary layouts,
//! bindings, buffers, topologies and draw parameters (counts up to 2^32 − 1) never panic; the
//! streams are lazy, so taking a bounded number of steps, vertices and primitives is cheap
//! whatever the counts; the compiled fetch plan gives exactly the reference assembler's bits;
//! and the streams' early end (a whole instance of cuts, or of steps without a primitive, ends
//! the stream — docs/notes/fuzz.md) gives exactly what a step-by-step replay gives.

mod prop_support;

mod support;

use inlay::assembler::{
    AssembledVertex, DrawCall, InputAssembler, PrimitiveAssembler, Topology, WalkBatch,
};
use inlay::buffer::{IndexBufferBinding, IndexFormat, VertexBufferBinding};
use inlay::fetch::{FetchPlan, Instance, Isa, Vertices};
use inlay::format::Format;
use inlay::layout::{InputClass, InputLayout, LayoutElement};
use inlay::target::Target;
use prop_support::{biased, target, vertex_format};
use proptest::prelude::*;

/// Walk steps, vertices and primitives taken from one draw.
const LIMIT: usize = 512;

/// Format, slot, offset, per-instance, step rate, register of one layout element.
type ElementParts = (Format, u32, u32, bool, u32, Option<u32>);

fn layout_element() -> impl Strategy<Value = ElementParts> {
    (
        vertex_format(),
        prop_oneof![8 => 0u32..4, 1 => biased()],
        biased(),
        any::<bool>(),
        biased(),
        prop::option::weighted(0.9, prop_oneof![8 => 0u32..8, 1 => biased()]),
    )
}

fn layout(elements: &[ElementParts]) -> InputLayout {
    let elements: Vec<LayoutElement> = elements
        .iter()
        .enumerate()
        .map(
            |(i, &(format, slot, offset, instance, step_rate, register))| LayoutElement {
                semantic_name: "TEXCOORD".into(),
                semantic_index: i as u32,
                format,
                slot,
                offset,
                class: if instance {
                    InputClass::PerInstance
                } else {
                    InputClass::PerVertex
                },
                step_rate,
                register,
            },
        )
        .collect();
    support::create_layout(&support::valid(&elements))
}

fn call(kind: u8, w: [u32; 5], args: &[u8]) -> DrawCall<'_> {
    match kind % 7 {
        0 => DrawCall::Draw {
            vertex_count: w[0],
            start_vertex: w[1],
        },
        1 => DrawCall::DrawIndexed {
            index_count: w[0],
            start_index: w[1],
            base_vertex: w[2] as i32,
        },
        2 => DrawCall::DrawInstanced {
            vertex_count_per_instance: w[0],
            instance_count: w[3],
            start_vertex: w[1],
            start_instance: w[4],
        },
        3 => DrawCall::DrawIndexedInstanced {
            index_count_per_instance: w[0],
            instance_count: w[3],
            start_index: w[1],
            base_vertex: w[2] as i32,
            start_instance: w[4],
        },
        4 => DrawCall::DrawInstancedIndirect { args, offset: w[1] },
        5 => DrawCall::DrawIndexedInstancedIndirect { args, offset: w[1] },
        _ => DrawCall::DrawAuto { filled_size: w[0] },
    }
}

/// Checks one draw: bounded streams, and the fetch plan against the reference.
fn check_draw(ia: &InputAssembler<'_>, layout: &InputLayout, call: &DrawCall<'_>) {
    let Ok(draw) = ia.draw(call) else { return };
    let params = *draw.params();
    assert_eq!(
        draw.walk().take(LIMIT).count() as u64,
        params.steps().min(LIMIT as u64)
    );
    for p in draw.primitives().take(LIMIT) {
        assert!(!p.vertices().is_empty());
    }
    let reference: Vec<AssembledVertex> = draw.vertices().take(LIMIT).collect();
    let bindings: Vec<_> = (0..32).map(|s| ia.vertex_buffer(s).copied()).collect();
    for isa in [Isa::Portable, Isa::detect()] {
        let plan = FetchPlan::new(layout, &bindings)
            .expect("formats the reference accepts compile")
            .with_isa(isa);
        let regs = plan.registers().to_vec();
        let row = regs.len();
        let mut walker = draw.walk();
        let mut indices = [0u32; 64];
        let mut out = vec![[0u32; 4]; 64 * row.max(1)];
        let mut k = 0;
        while k < reference.len() {
            let Some(batch) = walker.next_batch(64.min(reference.len() - k), &mut indices) else {
                break;
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
            let instance = Instance {
                id: batch.instance_id(),
                start: params.start_instance,
            };
            plan.fetch_registers(vertices, instance, &mut out[..n * row])
                .unwrap();
            for v in 0..n.min(reference.len() - k) {
                for (pos, &r) in regs.iter().enumerate() {
                    assert_eq!(
                        out[v * row + pos],
                        reference[k + v].registers[r as usize],
                        "{isa:?} vertex {} register {r}",
                        k + v
                    );
                }
            }
            k += n;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_draws_never_panic_and_fetch_matches_reference(
        t in prop_oneof![3 => Just(Target::default()), 1 => target()],
        elements in prop::collection::vec(layout_element(), 0..6),
        buffers in prop::collection::vec(
            (prop_oneof![4 => 0u32..4, 1 => biased()],
             prop::collection::vec(any::<u8>(), 0..96), biased(), biased()),
            0..4,
        ),
        index in prop::option::of((prop::collection::vec(
            prop_oneof![Just(0xffu8), any::<u8>()], 0..40), any::<bool>(), biased())),
        topology in prop_oneof![
            6 => prop::sample::select(vec![1u32, 2, 3, 4, 5, 10, 11, 12, 13, 33, 40, 64]),
            1 => 0u32..70,
        ],
        kind in any::<u8>(),
        words in [biased(), biased(), biased(), biased(), biased()],
        args in prop::collection::vec(any::<u8>(), 0..32),
    ) {
        let layout = layout(&elements);
        let mut ia = InputAssembler::new(&layout, t);
        for (slot, data, stride, offset) in &buffers {
            let _ = ia.set_vertex_buffer(*slot, Some(VertexBufferBinding {
                data, stride: *stride, offset: *offset,
            }));
        }
        if let Some((data, r32, offset)) = &index {
            let format = if *r32 { IndexFormat::R32Uint } else { IndexFormat::R16Uint };
            let _ = ia.set_index_buffer(Some(IndexBufferBinding { data, format, offset: *offset }));
        }
        let _ = ia.set_topology_d3d(topology);
        check_draw(&ia, &layout, &call(kind, words, &args));
    }

    /// Small draws (few instances, indices with cut values): the streams, with their early
    /// end, equal a plain replay of the walk through `PrimitiveAssembler` and the reference
    /// plan, step by step.
    #[test]
    fn streams_equal_a_step_by_step_replay(
        indices in prop::collection::vec(prop_oneof![2 => Just(0xffffu16), 3 => 0u16..6], 0..12),
        count in 0u32..14,
        instances in 0u32..5,
        start in 0u32..4,
        topology in prop::sample::select(vec![1u32, 2, 3, 4, 5, 10, 11, 12, 13, 33, 35, 38, 64]),
        indexed in any::<bool>(),
    ) {
        let layout = support::create_layout(&[LayoutElement {
                semantic_name: "P".into(), semantic_index: 0, format: Format::R8_UINT, slot: 0,
                offset: 0, class: InputClass::PerVertex, step_rate: 0, register: Some(0),
            }]);
        let vb: Vec<u8> = (0..16).collect();
        let ib: Vec<u8> = indices.iter().flat_map(|i| i.to_le_bytes()).collect();
        let mut ia = InputAssembler::new(&layout, Target::default());
        ia.set_vertex_buffer(0, Some(VertexBufferBinding { data: &vb, stride: 1, offset: 0 })).unwrap();
        ia.set_index_buffer(Some(IndexBufferBinding { data: &ib, format: IndexFormat::R16Uint, offset: 0 })).unwrap();
        ia.set_topology(Topology::from_d3d(topology).unwrap()).unwrap();
        let call = if indexed {
            DrawCall::DrawIndexedInstanced { index_count_per_instance: count, instance_count: instances,
                start_index: start, base_vertex: 0, start_instance: 0 }
        } else {
            DrawCall::DrawInstanced { vertex_count_per_instance: count, instance_count: instances,
                start_vertex: start, start_instance: 0 }
        };
        let draw = ia.draw(&call).unwrap();

        let mut replay_vertices = Vec::new();
        let mut replay_primitives = Vec::new();
        let mut pa = PrimitiveAssembler::new(draw.topology());
        for step in draw.walk() {
            let mut v = AssembledVertex::default();
            if draw.plan().assemble(&step, &mut v) {
                replay_vertices.push(v);
            }
            replay_primitives.extend(pa.step(&step).into_iter().flatten());
        }
        replay_primitives.extend(pa.finish());

        prop_assert_eq!(draw.vertices().collect::<Vec<_>>(), replay_vertices.clone());
        prop_assert_eq!(draw.primitives().collect::<Vec<_>>(), replay_primitives);
        let mut filled = vec![AssembledVertex::default(); replay_vertices.len() + 3];
        let n = draw.vertices().fill(&mut filled);
        prop_assert_eq!(&filled[..n], &replay_vertices[..]);
    }
}

/// One instance of only cut values, then 2^32 − 1 more: the vertex stream ends after the
/// first instance instead of walking ~2^33 cuts (fuzz finding, docs/notes/fuzz.md).
#[test]
fn all_cut_instances_end_the_vertex_stream() {
    let layout = support::empty_layout();
    let ib = [0xffu8; 4];
    let mut ia = InputAssembler::new(&layout, Target::default());
    ia.set_index_buffer(Some(IndexBufferBinding {
        data: &ib,
        format: IndexFormat::R16Uint,
        offset: 0,
    }))
    .unwrap();
    ia.set_topology(Topology::TriangleList).unwrap();
    let draw = ia
        .draw(&DrawCall::DrawIndexedInstanced {
            index_count_per_instance: 2,
            instance_count: u32::MAX,
            start_index: 0,
            base_vertex: 0,
            start_instance: 0,
        })
        .unwrap();
    assert_eq!(draw.vertices().next(), None);
    assert_eq!(
        draw.vertices().fill(&mut [AssembledVertex::default(); 4]),
        0
    );
    assert_eq!(draw.primitives().next(), None);
    // The walk itself still reports every step (cuts included), lazily.
    assert_eq!(draw.walk().take(5).count(), 5);
}

/// The fuzz finding itself: 17 vertices per instance can never fill a 26-control-point patch;
/// with 976 894 522 instances the primitive stream used to walk ~1.7·10^10 steps before
/// answering `None`.
#[test]
fn instances_too_short_for_a_primitive_end_the_primitive_stream() {
    let layout = support::empty_layout();
    let mut ia = InputAssembler::new(&layout, Target::default());
    ia.set_topology_d3d(58).unwrap();
    assert_eq!(ia.topology(), Topology::PatchList(26));
    let draw = ia
        .draw(&DrawCall::DrawIndexedInstanced {
            index_count_per_instance: 17,
            instance_count: 976_894_522,
            start_index: 16_777_000,
            base_vertex: 0,
            start_instance: 0,
        })
        .unwrap();
    assert_eq!(draw.primitives().next(), None);
    // Vertices still stream (no index buffer: every index reads 0).
    let v: Vec<_> = draw
        .vertices()
        .take(3)
        .map(|v| (v.vertex_id, v.instance_id))
        .collect();
    assert_eq!(v, [(0, 0), (0, 0), (0, 0)]);
}
