//! Draw-time validation (`assembler::validate`) against a brute-force oracle: every draw of a
//! grid of small states is walked step by step with the reference assembler's own order, and
//! each element's bytes are checked against its buffer directly; the warnings' first/count
//! and the count of all-zero vertices must agree exactly.

mod ia_support;
mod support;

use inlay::assembler::validate::{DrawCheck, check_linkage, validate_draw};
use inlay::assembler::{DrawCall, InputAssembler, Topology, WalkStep};
use inlay::buffer::{IndexBufferBinding, IndexFormat, VertexBufferBinding};
use inlay::format::Format;
use inlay::target::Target;

use ia_support::{instance_el, layout, vertex_el};

/// (element offset, size) of the slot-0 and slot-1 elements of the test layout.
const SLOT0: [(u32, u32); 2] = [(0, 8), (8, 4)];
const SLOT1: [(u32, u32); 1] = [(0, 4)];

fn out_of_bounds(b: Option<&VertexBufferBinding<'_>>, n: u32, (off, size): (u32, u32)) -> bool {
    let Some(b) = b else { return true };
    let addr = b
        .offset
        .wrapping_add(b.stride.wrapping_mul(n))
        .wrapping_add(off);
    addr < b.offset || addr as u64 + size as u64 > b.data.len() as u64
}

#[test]
fn warnings_match_a_brute_force_walk() {
    let mut checked = 0;
    for rate in [0u32, 1, 2] {
        let l = layout(vec![
            vertex_el(Format::R32G32_FLOAT, 0, 0, 0),
            vertex_el(Format::R8G8B8A8_UNORM, 0, 8, 1),
            instance_el(Format::R32_FLOAT, 1, 0, rate, 2),
        ]);
        let vb0 = vec![0u8; 40];
        let vb1 = vec![0u8; 9];
        let ib_data: Vec<u8> = [0u16, 5, 1, 0xffff, 2, 9]
            .iter()
            .flat_map(|i| i.to_le_bytes())
            .collect();
        for (stride, offset) in [(12u32, 0u32), (16, 4), (0, 0), (0, 38), (8, 0), (12, 40)] {
            for bind1 in [false, true] {
                for indexed in [false, true] {
                    for (count, start, instances, base) in [
                        (3u32, 0u32, 1u32, 0i32),
                        (6, 1, 3, 1),
                        (4, 2, 4, -1),
                        (0, 0, 2, 0),
                        (7, 0, 5, 2),
                    ] {
                        let mut ia = InputAssembler::new(&l, Target::default());
                        ia.set_topology(Topology::PointList).unwrap();
                        ia.set_vertex_buffer(
                            0,
                            Some(VertexBufferBinding {
                                data: &vb0,
                                stride,
                                offset,
                            }),
                        )
                        .unwrap();
                        if bind1 {
                            ia.set_vertex_buffer(
                                1,
                                Some(VertexBufferBinding {
                                    data: &vb1,
                                    stride: 4,
                                    offset: 1,
                                }),
                            )
                            .unwrap();
                        }
                        ia.set_index_buffer(Some(IndexBufferBinding {
                            data: &ib_data,
                            format: IndexFormat::R16Uint,
                            offset: 2,
                        }))
                        .unwrap();
                        let call = if indexed {
                            DrawCall::DrawIndexedInstanced {
                                index_count_per_instance: count,
                                instance_count: instances,
                                start_index: start,
                                base_vertex: base,
                                start_instance: 1,
                            }
                        } else {
                            DrawCall::DrawInstanced {
                                vertex_count_per_instance: count,
                                instance_count: instances,
                                start_vertex: start,
                                start_instance: 1,
                            }
                        };
                        let report = validate_draw(&ia, &call).unwrap();
                        let draw = ia.draw(&call).unwrap();
                        let (b0, b1) = (ia.vertex_buffer(0).copied(), ia.vertex_buffer(1).copied());
                        // Oracle.
                        let mut zero = 0u64;
                        let mut short_vertices: Vec<u32> = Vec::new();
                        let mut short_positions = 0u64;
                        let mut short_instances: Vec<u32> = Vec::new();
                        let mut steps = 0u64;
                        for (pos, s) in draw.walk().enumerate() {
                            steps += 1;
                            let WalkStep::Vertex {
                                instance_id,
                                vertex_index,
                                ..
                            } = s
                            else {
                                continue;
                            };
                            let inst_n =
                                1u32.wrapping_add(instance_id.checked_div(rate).unwrap_or(0));
                            let pv: Vec<bool> = SLOT0
                                .iter()
                                .map(|&e| out_of_bounds(b0.as_ref(), vertex_index, e))
                                .collect();
                            let pi = out_of_bounds(b1.as_ref(), inst_n, SLOT1[0]);
                            if pv.iter().all(|&o| o) && pi {
                                zero += 1;
                            }
                            if instance_id == 0 && pv.iter().any(|&o| o) {
                                short_vertices.push(vertex_index);
                                short_positions += 1;
                            }
                            if b1.is_some() && pi && !short_instances.contains(&instance_id) {
                                short_instances.push(instance_id);
                            }
                            let _ = pos;
                        }
                        assert_eq!(report.vertices, steps);
                        assert_eq!(
                            report.zero_vertices, zero,
                            "zero: rate {rate} stride {stride} offset {offset} bind1 {bind1} indexed {indexed} {count} {start} {instances} {base}: {:#?}",
                            report.warnings
                        );
                        let w = |check: DrawCheck, slot: u32| {
                            report
                                .warnings
                                .iter()
                                .find(|w| w.check == check && w.slot == Some(slot))
                        };
                        if indexed {
                            let past = w(DrawCheck::IndexPastVertexData, 0);
                            assert_eq!(
                                past.and_then(|w| w.count).unwrap_or(0),
                                short_positions,
                                "{:#?}",
                                report.warnings
                            );
                        } else {
                            let past = w(DrawCheck::VertexBufferTooSmall, 0);
                            assert_eq!(
                                past.and_then(|w| w.count).unwrap_or(0),
                                short_vertices.len() as u64,
                                "{:#?}",
                                report.warnings
                            );
                            assert_eq!(
                                past.and_then(|w| w.first),
                                short_vertices.first().map(|&v| v as u64)
                            );
                        }
                        let inst = w(DrawCheck::VertexBufferTooSmall, 1);
                        assert_eq!(
                            inst.and_then(|w| w.count).unwrap_or(0),
                            short_instances.len() as u64,
                            "{:#?}",
                            report.warnings
                        );
                        assert_eq!(
                            inst.and_then(|w| w.first),
                            short_instances.iter().min().map(|&v| v as u64)
                        );
                        assert_eq!(w(DrawCheck::VertexBufferNotSet, 1).is_some(), !bind1);
                        assert_eq!(
                            w(DrawCheck::VertexBufferStrideTooSmall, 0).is_some(),
                            stride == 8
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    assert_eq!(checked, 3 * 6 * 2 * 2 * 5);
}

#[test]
fn index_buffer_warnings() {
    let l = layout(vec![vertex_el(Format::R32_FLOAT, 0, 0, 0)]);
    let vb = vec![0u8; 16];
    let ib: Vec<u8> = [0u32, 1, 7].iter().flat_map(|i| i.to_le_bytes()).collect();
    let mut ia = InputAssembler::new(&l, Target::default());
    ia.set_topology(Topology::PointList).unwrap();
    ia.set_vertex_buffer(
        0,
        Some(VertexBufferBinding {
            data: &vb,
            stride: 4,
            offset: 0,
        }),
    )
    .unwrap();
    let call = DrawCall::DrawIndexed {
        index_count: 5,
        start_index: 1,
        base_vertex: 0,
    };
    let r = validate_draw(&ia, &call).unwrap();
    assert_eq!(r.warnings[0].check, DrawCheck::IndexBufferNotSet);
    assert_eq!(
        r.warnings[0].to_string(),
        "#357 DEVICE_DRAW_INDEX_BUFFER_NOT_SET: an indexed draw of 5 indices with no index buffer bound: every index reads 0 (vertex 0)"
    );
    ia.set_index_buffer(Some(IndexBufferBinding {
        data: &ib,
        format: IndexFormat::R32Uint,
        offset: 0,
    }))
    .unwrap();
    let r = validate_draw(&ia, &call).unwrap();
    // Positions 1, 2 in the buffer (values 1, 7); 3..=5 past it (index 0).
    assert_eq!(
        (
            r.warnings[0].check,
            r.warnings[0].first,
            r.warnings[0].count
        ),
        (DrawCheck::IndexBufferTooSmall, Some(3), Some(3))
    );
    assert_eq!(
        (
            r.warnings[1].check,
            r.warnings[1].first,
            r.warnings[1].count
        ),
        (DrawCheck::IndexPastVertexData, Some(2), Some(1))
    );
    assert_eq!(r.warnings[1].check.name(), "INLAY_INDEX_PAST_VERTEX_DATA");
    assert!(
        r.warnings[1]
            .to_string()
            .starts_with("inlay INLAY_INDEX_PAST_VERTEX_DATA: 1 of 5 indices")
    );
    assert_eq!(r.zero_vertices, 1);
    assert_eq!(r.longest_zero_run, 1);
    // Positions 3..=5 read no index (issue 34 item 3): they count against the bound too.
    assert_eq!((r.missing_indices, r.longest_missing_index_run), (3, 3));
    assert!(r.refusal(2).is_some() && r.refusal(3).is_none());
}

/// Issue 34 item 3: index positions past the end of the index buffer read index 0 — often a
/// vertex in bounds, so no zero vertex — and a draw of 2^32 − 1 of them streamed billions of
/// copies of vertex 0 unrefused. They are counted (`missing_indices`) and their longest
/// consecutive run bounds the draw like a run of zero vertices does; checked against the
/// flattened stream of positions and their byte addresses.
#[test]
fn index_positions_past_the_buffer_count_against_the_bound() {
    let l = layout(vec![vertex_el(Format::R32_FLOAT, 0, 0, 0)]);
    let vb = vec![0u8; 16];
    let ib: Vec<u8> = (0u8..18).collect();
    let mut checked = 0;
    for format in [IndexFormat::R16Uint, IndexFormat::R32Uint] {
        for ib_offset in [0u32, 2, 8, 18, 40] {
            for (count, start, instances) in [
                (3u32, 0u32, 1u32),
                (6, 2, 3),
                (9, 0, 2),
                (4, 9, 3),
                (1, 3, 5),
                (0, 0, 2),
            ] {
                let mut ia = InputAssembler::new(&l, Target::default());
                ia.set_topology(Topology::PointList).unwrap();
                let vbb = VertexBufferBinding {
                    data: &vb,
                    stride: 4,
                    offset: 0,
                };
                ia.set_vertex_buffer(0, Some(vbb)).unwrap();
                ia.set_index_buffer(Some(IndexBufferBinding {
                    data: &ib,
                    format,
                    offset: ib_offset,
                }))
                .unwrap();
                let call = DrawCall::DrawIndexedInstanced {
                    index_count_per_instance: count,
                    instance_count: instances,
                    start_index: start,
                    base_vertex: 0,
                    start_instance: 0,
                };
                let r = validate_draw(&ia, &call).unwrap();
                // Oracle: every position of every instance, in stream order.
                let size = format.size() as u64;
                let (mut missing, mut run, mut longest) = (0u64, 0u64, 0u64);
                for _ in 0..instances {
                    for k in 0..count as u64 {
                        let addr = ib_offset as u64 + (start as u64 + k) * size;
                        if addr + size > ib.len() as u64 {
                            missing += 1;
                            run += 1;
                            longest = longest.max(run);
                        } else {
                            run = 0;
                        }
                    }
                }
                let what = format!("{format:?} offset {ib_offset} {count}@{start} ×{instances}");
                assert_eq!(r.missing_indices, missing, "{what}");
                assert_eq!(r.longest_missing_index_run, longest, "{what}");
                assert_eq!(
                    r.refusal(longest).is_some(),
                    r.longest_zero_run > longest,
                    "{what}"
                );
                if longest > 0 && r.longest_zero_run < longest {
                    let why = r.refusal(longest - 1).unwrap();
                    assert!(
                        why.contains(&format!(
                            "{longest} consecutive index positions past the end"
                        )),
                        "{why}"
                    );
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 2 * 5 * 6);
    // No index buffer: every position of every instance reads no index.
    let mut ia = InputAssembler::new(&l, Target::default());
    ia.set_topology(Topology::PointList).unwrap();
    let call = DrawCall::DrawIndexedInstanced {
        index_count_per_instance: 7,
        instance_count: 3,
        start_index: 0,
        base_vertex: 0,
        start_instance: 0,
    };
    let r = validate_draw(&ia, &call).unwrap();
    assert_eq!((r.missing_indices, r.longest_missing_index_run), (21, 21));
    // The draw: 2^32 − 1 indices over 36 in the buffer.
    ia.set_vertex_buffer(
        0,
        Some(VertexBufferBinding {
            data: &vb,
            stride: 4,
            offset: 0,
        }),
    )
    .unwrap();
    let small = vec![0u8; 72];
    ia.set_index_buffer(Some(IndexBufferBinding {
        data: &small,
        format: IndexFormat::R16Uint,
        offset: 0,
    }))
    .unwrap();
    let call = DrawCall::DrawIndexed {
        index_count: u32::MAX,
        start_index: 0,
        base_vertex: 0,
    };
    let r = validate_draw(&ia, &call).unwrap();
    assert_eq!(r.zero_vertices, 0);
    assert_eq!(r.longest_missing_index_run, u32::MAX as u64 - 36);
    assert!(
        r.refusal(inlay::assembler::validate::DEFAULT_MAX_ZERO_VERTICES)
            .is_some()
    );
}

#[test]
fn linkage_names_the_missing_semantic() {
    use inlay::dxbc::{ComponentType, MinPrecision, Signature, SignatureElement, SystemValue};
    let l = layout(vec![vertex_el(Format::R32_FLOAT, 0, 0, 0)]); // semantic V0
    let el = |name: &str, register| SignatureElement {
        stream: 0,
        semantic_name: name.to_string(),
        semantic_index: 0,
        system_value: SystemValue::UNDEFINED,
        component_type: ComponentType::FLOAT32,
        register,
        mask: 1,
        read_write_mask: 1,
        min_precision: MinPrecision(0),
    };
    let sig = Signature {
        elements: vec![el("v0", 0), el("NORMAL", 1), el("SV_VertexID", 2)],
    };
    let w = check_linkage(&l, &sig);
    assert_eq!(w.len(), 1);
    assert_eq!(
        w[0].to_string(),
        "#342 DEVICE_SHADER_LINKAGE_SEMANTICNAME_NOT_FOUND: the vertex shader reads NORMAL0 (v1) but the bound input layout has no element for it: the register is undefined"
    );
}

/// Long index buffers, where validation tests whole runs of indices at once: runs wholly
/// inside the data, runs with one cut, one index past the data or a wrapping base vertex
/// must give what the brute-force walk gives (past count and first position, all-zero
/// vertices, the longest zero run), for 16- and 32-bit indices.
#[test]
fn long_index_buffers_match_a_brute_force_walk() {
    let l = layout(vec![
        vertex_el(Format::R32G32_FLOAT, 0, 0, 0),
        vertex_el(Format::R8G8B8A8_UNORM, 0, 8, 1),
    ]);
    let vb = vec![0u8; 12 * 100];
    let mut pattern: Vec<u32> = Vec::new();
    for k in 0..1000u32 {
        pattern.push(match k {
            130 => 0xffff,        // a cut in the third run (16-bit)
            300 => 100,           // one vertex past the data
            400..=470 => 150 + k, // a zero run across a run boundary
            640 => 0xffff_ffff,   // the 32-bit cut
            _ => (k * 7) % 100,
        });
    }
    let mut checked = 0;
    for format in [IndexFormat::R16Uint, IndexFormat::R32Uint] {
        let ib: Vec<u8> = match format {
            IndexFormat::R16Uint => pattern
                .iter()
                .flat_map(|&i| (i as u16).to_le_bytes())
                .collect(),
            IndexFormat::R32Uint => pattern.iter().flat_map(|&i| i.to_le_bytes()).collect(),
        };
        for (start, count, base) in [
            (0u32, 1000u32, 0i32),
            (3, 990, 0),
            (64, 700, -5),
            (0, 1000, 40),
            (1, 999, i32::MIN),
        ] {
            let mut ia = InputAssembler::new(&l, Target::default());
            ia.set_topology(Topology::PointList).unwrap();
            ia.set_vertex_buffer(
                0,
                Some(VertexBufferBinding {
                    data: &vb,
                    stride: 12,
                    offset: 0,
                }),
            )
            .unwrap();
            ia.set_index_buffer(Some(IndexBufferBinding {
                data: &ib,
                format,
                offset: 0,
            }))
            .unwrap();
            let call = DrawCall::DrawIndexed {
                index_count: count,
                start_index: start,
                base_vertex: base,
            };
            let report = validate_draw(&ia, &call).unwrap();
            let draw = ia.draw(&call).unwrap();
            let b0 = ia.vertex_buffer(0).copied();
            let (mut zero, mut run, mut longest) = (0u64, 0u64, 0u64);
            let (mut past, mut first) = (0u64, None);
            for (pos, s) in draw.walk().enumerate() {
                let WalkStep::Vertex { vertex_index, .. } = s else {
                    continue;
                };
                let out: Vec<bool> = SLOT0
                    .iter()
                    .map(|&e| out_of_bounds(b0.as_ref(), vertex_index, e))
                    .collect();
                if out.iter().any(|&o| o) {
                    past += 1;
                    first.get_or_insert(start as u64 + pos as u64);
                }
                if out.iter().all(|&o| o) {
                    zero += 1;
                    run += 1;
                    longest = longest.max(run);
                } else {
                    run = 0;
                }
            }
            let w = report
                .warnings
                .iter()
                .find(|w| w.check == DrawCheck::IndexPastVertexData);
            let what = format!("{format:?} {start} {count} {base}: {:#?}", report.warnings);
            assert_eq!(w.and_then(|w| w.count).unwrap_or(0), past, "{what}");
            assert_eq!(w.and_then(|w| w.first), first, "{what}");
            assert_eq!(report.zero_vertices, zero, "{what}");
            assert_eq!(report.longest_zero_run, longest, "{what}");
            checked += 1;
        }
    }
    assert_eq!(checked, 10);
}
