//! `Walker::skip_to_position` (issue 18 item 4): the same state as stepping one position at a
//! time, in O(1) for non-indexed draws and O(index reads) for indexed ones.
//!
//! The oracle is the plain step-by-step walk (the iterator itself), compared after the skip on
//! every following step; the large cases would take minutes (2^32 steps) or never end (2^64)
//! with the old one-by-one skip, so they fail by running out of time before the fix.

use inlay::assembler::DrawParams;
use inlay::assembler::walk::{WalkStep, Walker};
use inlay::buffer::{IndexBufferBinding, IndexFormat};

fn params(indexed: bool, count: u32, instances: u32, start: u32, base: i32) -> DrawParams {
    DrawParams {
        indexed,
        count,
        instance_count: instances,
        start,
        base_vertex: base,
        start_instance: 0,
        cut: Default::default(),
    }
}

/// The walk after skipping one step at a time (the old `--range` skip).
fn naive(mut w: Walker<'_>, target: u64) -> Walker<'_> {
    loop {
        let saved = w.clone();
        match w.next() {
            Some(WalkStep::Vertex { position, .. }) if position >= target => return saved,
            None => return w,
            _ => {}
        }
    }
}

fn rest(w: Walker<'_>) -> Vec<WalkStep> {
    w.filter(|s| matches!(s, WalkStep::Vertex { .. })).collect()
}

#[test]
fn skip_equals_stepping_for_small_draws() {
    // Indices with cuts (0xFFFF) in several places, R16 and R32.
    let r16: Vec<u8> = [3u16, 0xFFFF, 1, 2, 0xFFFF, 0xFFFF, 7, 0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let r32: Vec<u8> = [0xFFFF_FFFFu32, 5, 6, 0xFFFF_FFFF, 9]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let all_cuts: Vec<u8> = [0xFFFFu16; 4]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let buffers = [
        Some(IndexBufferBinding {
            data: &r16,
            format: IndexFormat::R16Uint,
            offset: 0,
        }),
        Some(IndexBufferBinding {
            data: &r16,
            format: IndexFormat::R16Uint,
            offset: 2,
        }),
        Some(IndexBufferBinding {
            data: &r32,
            format: IndexFormat::R32Uint,
            offset: 0,
        }),
        Some(IndexBufferBinding {
            data: &all_cuts,
            format: IndexFormat::R16Uint,
            offset: 0,
        }),
        None,
    ];
    let mut checked = 0;
    for ib in &buffers {
        for indexed in [false, true] {
            for count in 0..7u32 {
                for instances in 0..4u32 {
                    for start in [0u32, 1, 3] {
                        let p = params(indexed, count, instances, start, -2);
                        for pre in [0usize, 1, 3] {
                            // Start the skip from a walk that has already taken `pre` steps.
                            let mut w = Walker::new(p, *ib);
                            for _ in 0..pre {
                                w.next();
                            }
                            for target in 0..(count as u64 * instances as u64 + 3) {
                                let mut fast = w.clone();
                                fast.skip_to_position(target);
                                let slow = naive(w.clone(), target);
                                assert_eq!(
                                    rest(fast),
                                    rest(slow),
                                    "{p:?} pre {pre} target {target} ib {ib:?}"
                                );
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 5000, "{checked}");
}

#[test]
fn non_indexed_skip_is_constant_time_even_at_2_pow_64() {
    let p = params(false, u32::MAX, u32::MAX, 10, 0);
    let mut w = Walker::new(p, None);
    let target = p.steps() - 2;
    w.skip_to_position(target);
    assert_eq!(w.remaining(), 2);
    match w.next() {
        Some(WalkStep::Vertex {
            vertex_id,
            instance_id,
            vertex_index,
            position,
        }) => {
            assert_eq!(position, target);
            // target = (2^32 - 1)^2 - 2 = (2^32 - 2) × (2^32 - 1) + (2^32 - 3).
            assert_eq!(instance_id, u32::MAX - 1);
            assert_eq!(vertex_id, u32::MAX - 2);
            assert_eq!(vertex_index, (u32::MAX - 2).wrapping_add(10));
        }
        other => panic!("{other:?}"),
    }
    // Past the end: the walk ends.
    let mut w = Walker::new(p, None);
    w.skip_to_position(u64::MAX);
    assert_eq!(w.next(), None);
}

#[test]
fn indexed_skip_reads_each_index_a_bounded_number_of_times() {
    // 3 indices, one a cut: two vertices per instance, 2^32 - 1 instances.
    let data: Vec<u8> = [4u16, 0xFFFF, 9]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let ib = IndexBufferBinding {
        data: &data,
        format: IndexFormat::R16Uint,
        offset: 0,
    };
    let p = params(true, 3, u32::MAX, 0, 100);
    let total_vertices = 2 * u32::MAX as u64;
    let mut w = Walker::new(p, Some(ib));
    w.next(); // mid-instance start
    w.skip_to_position(total_vertices - 1);
    assert_eq!(
        w.next(),
        Some(WalkStep::Vertex {
            vertex_id: 9,
            instance_id: u32::MAX - 1,
            vertex_index: 109,
            position: total_vertices - 1
        })
    );
    assert_eq!(w.next(), None);
    // An all-cut index buffer with 2^32 - 1 instances and 2^32 - 1 indices: the skip must not
    // walk 2^64 steps (one instance is read, then the walk ends).
    let cuts = vec![0xFFu8; 64];
    let ib = IndexBufferBinding {
        data: &cuts,
        format: IndexFormat::R16Uint,
        offset: 0,
    };
    // Indices past the buffer read 0 (a vertex), so keep the count inside the buffer.
    let p = params(true, 32, u32::MAX, 0, 0);
    let mut w = Walker::new(p, Some(ib));
    w.skip_to_position(1 << 40);
    assert_eq!(w.next(), None);
}
