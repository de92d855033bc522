//! Primitive assembly: every topology, strip cuts, instance restarts and SV_PrimitiveID
//! (ia-semantics §5, §6).

mod ia_support;
mod support;

use inlay::assembler::{DrawCall, InputAssembler, Primitive, Topology, WalkStep};
use inlay::buffer::{IndexBufferBinding, IndexFormat};
use inlay::target::Target;

type Prims = Vec<(u32, Vec<u64>)>;

fn flat(p: impl Iterator<Item = Primitive>) -> Prims {
    p.map(|p| (p.id, p.vertices().to_vec())).collect()
}

fn draw_prims(
    topology: Topology,
    call: DrawCall<'_>,
    index: Option<IndexBufferBinding<'_>>,
) -> Prims {
    let l = support::empty_layout();
    let mut ia = InputAssembler::new(&l, Target::default());
    ia.set_topology(topology).unwrap();
    ia.set_index_buffer(index).unwrap();
    flat(ia.draw(&call).unwrap().primitives())
}

fn prims(topology: Topology, n: u32) -> Prims {
    draw_prims(
        topology,
        DrawCall::Draw {
            vertex_count: n,
            start_vertex: 0,
        },
        None,
    )
}

fn p(list: &[&[u64]]) -> Prims {
    list.iter()
        .enumerate()
        .map(|(i, v)| (i as u32, v.to_vec()))
        .collect()
}

#[test]
fn basic_lists_and_strips() {
    assert_eq!(prims(Topology::PointList, 3), p(&[&[0], &[1], &[2]]));
    assert_eq!(prims(Topology::LineList, 5), p(&[&[0, 1], &[2, 3]]));
    assert_eq!(
        prims(Topology::LineStrip, 4),
        p(&[&[0, 1], &[1, 2], &[2, 3]])
    );
    assert_eq!(prims(Topology::LineStrip, 1), p(&[]));
    // Triangle list with 7 vertices → 2 triangles, the rest dropped (§6.3).
    assert_eq!(
        prims(Topology::TriangleList, 7),
        p(&[&[0, 1, 2], &[3, 4, 5]])
    );
    assert_eq!(prims(Topology::TriangleList, 5), p(&[&[0, 1, 2]]));
    // Odd strip triangles as (k, k+2, k+1): same winding, leading vertex first.
    assert_eq!(
        prims(Topology::TriangleStrip, 6),
        p(&[&[0, 1, 2], &[1, 3, 2], &[2, 3, 4], &[3, 5, 4]])
    );
    assert_eq!(prims(Topology::TriangleStrip, 2), p(&[]));
}

#[test]
fn counts_per_topology() {
    // ia-semantics §6.1 "count of complete primitives".
    for n in 0..40u32 {
        let n64 = n as u64;
        let c = |t| prims(t, n).len() as u64;
        assert_eq!(c(Topology::PointList), n64);
        assert_eq!(c(Topology::LineList), n64 / 2);
        assert_eq!(c(Topology::LineStrip), n64.saturating_sub(1));
        assert_eq!(c(Topology::TriangleList), n64 / 3);
        assert_eq!(c(Topology::TriangleStrip), n64.saturating_sub(2));
        assert_eq!(c(Topology::LineListAdj), n64 / 4);
        assert_eq!(c(Topology::LineStripAdj), n64.saturating_sub(3));
        assert_eq!(c(Topology::TriangleListAdj), n64 / 6);
        assert_eq!(
            c(Topology::TriangleStripAdj),
            if n >= 6 { (n64 - 4) / 2 } else { 0 }
        );
        for cp in [1u8, 2, 3, 5, 16, 32] {
            assert_eq!(c(Topology::PatchList(cp)), n64 / cp as u64);
        }
    }
}

#[test]
fn adjacency_lists_and_line_strip() {
    assert_eq!(
        prims(Topology::LineListAdj, 9),
        p(&[&[0, 1, 2, 3], &[4, 5, 6, 7]])
    );
    assert_eq!(
        prims(Topology::LineStripAdj, 6),
        p(&[&[0, 1, 2, 3], &[1, 2, 3, 4], &[2, 3, 4, 5]])
    );
    assert_eq!(prims(Topology::LineStripAdj, 3), p(&[]));
    assert_eq!(
        prims(Topology::TriangleListAdj, 13),
        p(&[&[0, 1, 2, 3, 4, 5], &[6, 7, 8, 9, 10, 11]])
    );
}

#[test]
fn triangle_strip_adjacency_matches_spec_figure() {
    // ia-semantics §6.2: only primitive (n = 6 or 7) → (0,1,2,5,4,3).
    assert_eq!(prims(Topology::TriangleStripAdj, 5), p(&[]));
    assert_eq!(
        prims(Topology::TriangleStripAdj, 6),
        p(&[&[0, 1, 2, 5, 4, 3]])
    );
    assert_eq!(
        prims(Topology::TriangleStripAdj, 7),
        p(&[&[0, 1, 2, 5, 4, 3]])
    );
    // n = 8: first of several, then last (k = 1, odd).
    assert_eq!(
        prims(Topology::TriangleStripAdj, 8),
        p(&[&[0, 1, 2, 6, 4, 3], &[2, 5, 6, 7, 4, 0]])
    );
    // The spec's worked figure for n = 10, and the 11th vertex dangling.
    let fig10 = p(&[
        &[0, 1, 2, 6, 4, 3],
        &[2, 5, 6, 8, 4, 0],
        &[4, 2, 6, 9, 8, 7],
    ]);
    assert_eq!(prims(Topology::TriangleStripAdj, 10), fig10);
    assert_eq!(prims(Topology::TriangleStripAdj, 11), fig10);
    // A 12th vertex creates a 4th primitive (6,9,10,11,8,4); the 3rd becomes a middle one.
    assert_eq!(
        prims(Topology::TriangleStripAdj, 12),
        p(&[
            &[0, 1, 2, 6, 4, 3],
            &[2, 5, 6, 8, 4, 0],
            &[4, 2, 6, 10, 8, 7],
            &[6, 9, 10, 11, 8, 4]
        ])
    );
    // Middle rows for a long strip: k even (2k, 2k−2, 2k+2, 2k+6, 2k+4, 2k+3),
    // k odd (2k, 2k+3, 2k+4, 2k+6, 2k+2, 2k−2).
    let long = prims(Topology::TriangleStripAdj, 30);
    assert_eq!(long.len(), 13);
    for (k, (id, v)) in long.iter().enumerate().skip(1).take(11) {
        let b = 2 * k as u64;
        let want = if k % 2 == 0 {
            vec![b, b - 2, b + 2, b + 6, b + 4, b + 3]
        } else {
            vec![b, b + 3, b + 4, b + 6, b + 2, b - 2]
        };
        assert_eq!((*id, v.clone()), (k as u32, want));
    }
    assert_eq!(long[12].1, vec![24, 22, 26, 29, 28, 27]);
}

#[test]
fn patch_lists() {
    assert_eq!(prims(Topology::PatchList(1), 3), p(&[&[0], &[1], &[2]]));
    assert_eq!(
        prims(Topology::PatchList(3), 10),
        p(&[&[0, 1, 2], &[3, 4, 5], &[6, 7, 8]])
    );
    let p32 = prims(Topology::PatchList(32), 64);
    assert_eq!(p32.len(), 2);
    assert_eq!(p32[1].1, (32..64).collect::<Vec<u64>>());
    assert_eq!(prims(Topology::PatchList(32), 63).len(), 1);
}

fn r16(indices: &[u16]) -> Vec<u8> {
    indices.iter().flat_map(|i| i.to_le_bytes()).collect()
}

fn r32(indices: &[u32]) -> Vec<u8> {
    indices.iter().flat_map(|i| i.to_le_bytes()).collect()
}

fn indexed(
    topology: Topology,
    data: &[u8],
    format: IndexFormat,
    count: u32,
    instances: u32,
) -> Prims {
    draw_prims(
        topology,
        DrawCall::DrawIndexedInstanced {
            index_count_per_instance: count,
            instance_count: instances,
            start_index: 0,
            base_vertex: 0,
            start_instance: 0,
        },
        Some(IndexBufferBinding {
            data,
            format,
            offset: 0,
        }),
    )
}

#[test]
fn strip_cut_restarts_and_ids_continue() {
    // SPEC 8.21 example shape: primitive IDs 0,1 | cut | 2,3 — the cut produces no vertex, so
    // positions continue at 4.
    let idx = r16(&[0, 1, 2, 3, 0xffff, 4, 5, 6, 7]);
    assert_eq!(
        indexed(Topology::TriangleStrip, &idx, IndexFormat::R16Uint, 9, 1),
        p(&[&[0, 1, 2], &[1, 3, 2], &[4, 5, 6], &[5, 7, 6]])
    );
    // R32: 0xffffffff cuts, 0x0000ffff is an ordinary index.
    let idx = r32(&[0, 0xffff, 2, 0xffff_ffff, 4, 5, 6]);
    assert_eq!(
        indexed(Topology::LineStrip, &idx, IndexFormat::R32Uint, 7, 1),
        p(&[&[0, 1], &[1, 2], &[3, 4], &[4, 5]])
    );
    // Consecutive cuts and a cut first: nothing extra.
    let idx = r16(&[0xffff, 0, 1, 0xffff, 0xffff, 2, 3, 4]);
    assert_eq!(
        indexed(Topology::TriangleStrip, &idx, IndexFormat::R16Uint, 8, 1),
        p(&[&[2, 3, 4]])
    );
    // The vertex stream skips the cuts.
    let l = support::empty_layout();
    let mut ia = InputAssembler::new(&l, Target::default());
    ia.set_topology(Topology::TriangleStrip).unwrap();
    ia.set_index_buffer(Some(IndexBufferBinding {
        data: &idx,
        format: IndexFormat::R16Uint,
        offset: 0,
    }))
    .unwrap();
    let d = ia
        .draw(&DrawCall::DrawIndexed {
            index_count: 8,
            start_index: 0,
            base_vertex: 0,
        })
        .unwrap();
    let ids: Vec<_> = d.vertices().map(|v| (v.position, v.vertex_id)).collect();
    assert_eq!(ids, [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)]);
    let cuts = d
        .walk()
        .filter(|s| matches!(s, WalkStep::Cut { .. }))
        .count();
    assert_eq!(cuts, 3);
}

#[test]
fn cut_in_list_topologies() {
    // Choice (open question 4, spec §8.12/8.13): the cut ends the current primitive in list
    // topologies too; the incomplete one is dropped.
    let idx = r16(&[0, 1, 2, 3, 0xffff, 4, 5, 6, 7, 8]);
    assert_eq!(
        indexed(Topology::TriangleList, &idx, IndexFormat::R16Uint, 10, 1),
        p(&[&[0, 1, 2], &[4, 5, 6]])
    );
    let idx = r16(&[0, 0xffff, 1, 2, 3, 0xffff, 4, 5]);
    assert_eq!(
        indexed(Topology::LineList, &idx, IndexFormat::R16Uint, 8, 1),
        p(&[&[1, 2], &[4, 5]])
    );
    assert_eq!(
        indexed(Topology::PointList, &idx, IndexFormat::R16Uint, 8, 1),
        p(&[&[0], &[1], &[2], &[3], &[4], &[5]])
    );
    let idx = r16(&[0, 1, 2, 0xffff, 3, 4, 5, 6, 7, 8, 9]);
    assert_eq!(
        indexed(Topology::TriangleListAdj, &idx, IndexFormat::R16Uint, 11, 1),
        p(&[&[3, 4, 5, 6, 7, 8]])
    );
    let idx = r16(&[0, 1, 2, 0xffff, 3, 4, 5, 6]);
    assert_eq!(
        indexed(Topology::PatchList(2), &idx, IndexFormat::R16Uint, 8, 1),
        p(&[&[0, 1], &[3, 4], &[5, 6]])
    );
}

#[test]
fn triangle_strip_adjacency_with_cuts() {
    // 8 vertices, cut, 6 vertices: the first strip ends with its "last" row at the cut.
    let mut list: Vec<u16> = (0..8).collect();
    list.push(0xffff);
    list.extend(0..6);
    let idx = r16(&list);
    assert_eq!(
        indexed(
            Topology::TriangleStripAdj,
            &idx,
            IndexFormat::R16Uint,
            15,
            1
        ),
        p(&[
            &[0, 1, 2, 6, 4, 3],
            &[2, 5, 6, 7, 4, 0],
            &[8, 9, 10, 13, 12, 11]
        ])
    );
}

#[test]
fn instances_restart_strips_and_primitive_ids() {
    let draw = |t, n, inst| {
        let l = support::empty_layout();
        let mut ia = InputAssembler::new(&l, Target::default());
        ia.set_topology(t).unwrap();
        let d = ia
            .draw(&DrawCall::DrawInstanced {
                vertex_count_per_instance: n,
                instance_count: inst,
                start_vertex: 5,
                start_instance: 9,
            })
            .unwrap();
        d.primitives()
            .map(|p| (p.instance_id, p.id, p.vertices().to_vec()))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        draw(Topology::TriangleStrip, 4, 3),
        [
            (0, 0, vec![0, 1, 2]),
            (0, 1, vec![1, 3, 2]),
            (1, 0, vec![4, 5, 6]),
            (1, 1, vec![5, 7, 6]),
            (2, 0, vec![8, 9, 10]),
            (2, 1, vec![9, 11, 10]),
        ]
    );
    // A triangle list whose per-instance count is not a multiple of 3: no triangle spans
    // instances.
    assert_eq!(
        draw(Topology::TriangleList, 4, 2),
        [(0, 0, vec![0, 1, 2]), (1, 0, vec![4, 5, 6])]
    );
    // Triangle strip with adjacency, 7 per instance: the last row is emitted at the instance
    // boundary.
    assert_eq!(
        draw(Topology::TriangleStripAdj, 7, 2),
        [
            (0, 0, vec![0, 1, 2, 5, 4, 3]),
            (1, 0, vec![7, 8, 9, 12, 11, 10])
        ]
    );
    // Indexed instanced with cuts: IDs keep counting after the cut, restart per instance.
    let idx = r16(&[0, 1, 2, 0xffff, 3, 4, 5]);
    let got = indexed(Topology::LineStrip, &idx, IndexFormat::R16Uint, 7, 2);
    assert_eq!(
        got,
        vec![
            (0, vec![0, 1]),
            (1, vec![1, 2]),
            (2, vec![3, 4]),
            (3, vec![4, 5]),
            (0, vec![6, 7]),
            (1, vec![7, 8]),
            (2, vec![9, 10]),
            (3, vec![10, 11]),
        ]
    );
    // An instance that starts with a cut, after a strip-with-adjacency instance.
    let idx = r16(&[0xffff, 0, 1, 2, 3, 4, 5]);
    assert_eq!(
        indexed(Topology::TriangleStripAdj, &idx, IndexFormat::R16Uint, 7, 2),
        vec![(0, vec![0, 1, 2, 5, 4, 3]), (0, vec![6, 7, 8, 11, 10, 9])]
    );
}

#[test]
fn primitives_match_vertex_stream_length() {
    // Every primitive position refers to an existing vertex of the stream.
    let idx = r16(&[0, 1, 0xffff, 2, 3, 4, 5, 6, 0xffff, 7, 8, 9, 10, 11, 12, 13]);
    let l = support::empty_layout();
    for t in (0..=64).filter_map(Topology::from_d3d) {
        if t == Topology::Undefined {
            continue;
        }
        let mut ia = InputAssembler::new(&l, Target::default());
        ia.set_topology(t).unwrap();
        ia.set_index_buffer(Some(IndexBufferBinding {
            data: &idx,
            format: IndexFormat::R16Uint,
            offset: 0,
        }))
        .unwrap();
        let d = ia
            .draw(&DrawCall::DrawIndexedInstanced {
                index_count_per_instance: 16,
                instance_count: 3,
                start_index: 0,
                base_vertex: 0,
                start_instance: 0,
            })
            .unwrap();
        let n = d.vertices().count() as u64;
        assert_eq!(n, 3 * 14);
        for prim in d.primitives() {
            assert_eq!(prim.vertices().len(), t.vertices_per_primitive(), "{t}");
            assert!(prim.vertices().iter().all(|&v| v < n), "{t}");
        }
    }
}
