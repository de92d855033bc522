//! The bare walk and its batch form (what a block-based fetch consumes) agree with the
//! per-step walk and with the reference vertex stream.

mod ia_support;
mod support;

use ia_support::*;
use inlay::assembler::{DrawCall, InputAssembler, PreparedDraw, Topology, WalkBatch, WalkStep};
use inlay::buffer::{IndexBufferBinding, IndexFormat, VertexBufferBinding};
use inlay::format::Format;
use inlay::target::Target;

/// (position, vertex_id, instance_id, vertex_index) of every vertex, from the batch API.
fn from_batches(
    d: &PreparedDraw<'_>,
    max: usize,
    buf: usize,
) -> (Vec<(u64, u32, u32, u32)>, usize) {
    let mut w = d.walk();
    let mut out = Vec::new();
    let mut idx = vec![0u32; buf];
    let mut cuts = 0;
    let mut pos = 0u64;
    while let Some(b) = w.next_batch(max, &mut idx) {
        match b {
            WalkBatch::Range {
                instance_id,
                first_vertex_id,
                first_vertex_index,
                count,
                first_position,
            } => {
                assert_eq!(first_position, pos);
                assert!(count <= max);
                for k in 0..count as u32 {
                    out.push((
                        first_position + k as u64,
                        first_vertex_id + k,
                        instance_id,
                        first_vertex_index.wrapping_add(k),
                    ));
                }
            }
            WalkBatch::Indexed {
                instance_id,
                base_vertex,
                count,
                cuts: c,
                first_position,
            } => {
                assert_eq!(first_position, pos);
                assert!(count + c <= max && count <= buf);
                cuts += c;
                for (k, &i) in idx[..count].iter().enumerate() {
                    out.push((
                        first_position + k as u64,
                        i,
                        instance_id,
                        (base_vertex as u32).wrapping_add(i),
                    ));
                }
            }
        }
        pos += b.len() as u64;
    }
    (out, cuts)
}

fn from_steps(d: &PreparedDraw<'_>) -> (Vec<(u64, u32, u32, u32)>, usize) {
    let mut cuts = 0;
    let mut out = Vec::new();
    for s in d.walk() {
        match s {
            WalkStep::Vertex {
                vertex_id,
                instance_id,
                vertex_index,
                position,
            } => out.push((position, vertex_id, instance_id, vertex_index)),
            WalkStep::Cut { .. } => cuts += 1,
        }
    }
    (out, cuts)
}

#[test]
fn batches_equal_steps() {
    let data: Vec<u8> = (0..=255u8).collect();
    let idx: Vec<u8> = [5u16, 0xffff, 0xffff, 0xffff, 9, 1, 0xffff, 4, 7, 2, 0xffff]
        .iter()
        .flat_map(|i| i.to_le_bytes())
        .collect();
    let l = layout(support::valid(&[
        vertex_el(Format::R8G8_UINT, 0, 1, 0),
        instance_el(Format::R8_SNORM, 1, 0, 2, 1),
    ]));
    let calls = [
        DrawCall::DrawInstanced {
            vertex_count_per_instance: 7,
            instance_count: 3,
            start_vertex: u32::MAX - 2,
            start_instance: 4,
        },
        DrawCall::DrawIndexedInstanced {
            index_count_per_instance: 11,
            instance_count: 3,
            start_index: 0,
            base_vertex: -3,
            start_instance: 1,
        },
        DrawCall::DrawIndexed {
            index_count: 9,
            start_index: 3,
            base_vertex: 0,
        },
    ];
    for bound in [true, false] {
        let mut ia = InputAssembler::new(&l, Target::default());
        ia.set_topology(Topology::TriangleStrip).unwrap();
        ia.set_vertex_buffer(
            0,
            Some(VertexBufferBinding {
                data: &data,
                stride: 3,
                offset: 2,
            }),
        )
        .unwrap();
        ia.set_vertex_buffer(
            1,
            Some(VertexBufferBinding {
                data: &data,
                stride: 1,
                offset: 0,
            }),
        )
        .unwrap();
        if bound {
            ia.set_index_buffer(Some(IndexBufferBinding {
                data: &idx,
                format: IndexFormat::R16Uint,
                offset: 0,
            }))
            .unwrap();
        }
        for call in &calls {
            let d = ia.draw(call).unwrap();
            let want = from_steps(&d);
            for (max, buf) in [(1, 1), (2, 5), (3, 3), (4, 2), (7, 7), (100, 100), (100, 1)] {
                assert_eq!(
                    from_batches(&d, max, buf),
                    want,
                    "{call:?} max {max} buf {buf}"
                );
            }
            // The reference stream agrees with the walk.
            let stream: Vec<_> = d
                .vertices()
                .map(|v| (v.position, v.vertex_id, v.instance_id))
                .collect();
            let walk: Vec<_> = want.0.iter().map(|w| (w.0, w.1, w.2)).collect();
            assert_eq!(stream, walk);
        }
    }
}

#[test]
fn batch_of_empty_or_finished_walk() {
    let l = layout(vec![]);
    let mut ia = InputAssembler::new(&l, Target::default());
    ia.set_topology(Topology::PointList).unwrap();
    let d = ia
        .draw(&DrawCall::Draw {
            vertex_count: 0,
            start_vertex: 0,
        })
        .unwrap();
    assert_eq!(d.walk().next_batch(8, &mut [0; 8]), None);
    let d = ia
        .draw(&DrawCall::Draw {
            vertex_count: 3,
            start_vertex: 0,
        })
        .unwrap();
    let mut w = d.walk();
    assert_eq!(w.next_batch(0, &mut []), None);
    assert_eq!(w.next_batch(8, &mut []).map(|b| b.len()), Some(3));
    assert_eq!(w.next_batch(8, &mut []), None);
}

/// Long 16-bit index lists: the batch walk reads sixteen indices at a time where no cut is
/// among them, so cuts at every position of a group (first, middle, last lane, across a
/// group boundary, runs of cuts), cut-free stretches and batches that end inside a group
/// must give exactly the per-step walk's vertices and cut count.
#[test]
fn long_index_lists_batch_like_the_steps() {
    let data: Vec<u8> = (0..=255u8).cycle().take(4096).collect();
    let l = layout(support::valid(&[vertex_el(Format::R8G8_UINT, 0, 1, 0)]));
    // Index values from a small generator; cut positions chosen per pattern.
    let patterns: [&[usize]; 6] = [
        &[],
        &[0, 16, 32, 47, 63, 64],
        &[15, 16, 17, 100, 101, 102, 103, 250],
        &[
            31, 32, 200, 201, 202, 203, 204, 205, 206, 207, 208, 209, 210, 211, 212, 213, 214,
        ],
        &[
            1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
        ],
        &[299],
    ];
    for cuts_at in patterns {
        let mut seed = 0x9e37_79b9u32;
        let values: Vec<u16> = (0..300)
            .map(|k| {
                seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                if cuts_at.contains(&k) {
                    0xffff
                } else {
                    ((seed >> 16) % 2000) as u16
                }
            })
            .collect();
        let idx: Vec<u8> = values.iter().flat_map(|i| i.to_le_bytes()).collect();
        let mut ia = InputAssembler::new(&l, Target::default());
        ia.set_topology(Topology::TriangleStrip).unwrap();
        ia.set_vertex_buffer(
            0,
            Some(VertexBufferBinding {
                data: &data,
                stride: 2,
                offset: 0,
            }),
        )
        .unwrap();
        ia.set_index_buffer(Some(IndexBufferBinding {
            data: &idx,
            format: IndexFormat::R16Uint,
            offset: 2,
        }))
        .unwrap();
        for call in [
            DrawCall::DrawIndexedInstanced {
                index_count_per_instance: 290,
                instance_count: 2,
                start_index: 3,
                base_vertex: 5,
                start_instance: 0,
            },
            DrawCall::DrawIndexed {
                index_count: 299,
                start_index: 0,
                base_vertex: 0,
            },
        ] {
            let d = ia.draw(&call).unwrap();
            let want = from_steps(&d);
            for (max, buf) in [
                (16, 16),
                (17, 17),
                (31, 31),
                (32, 32),
                (33, 20),
                (48, 48),
                (100, 100),
                (1000, 1000),
                (1000, 40),
            ] {
                assert_eq!(
                    from_batches(&d, max, buf),
                    want,
                    "cuts at {cuts_at:?}, {call:?}, max {max} buf {buf}"
                );
            }
        }
    }
}
