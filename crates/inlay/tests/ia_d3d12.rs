//! The D3D12 input assembler (d3d12-rules.md §D) on the draws of vkd3d-proton's and Wine's
//! D3D12 tests, which assert what Windows renders: strip cut as pipeline state, vertex buffer
//! views bounded by SizeInBytes, stride 0, step rates with StartInstanceLocation, the SM 6.8
//! start locations, ExecuteIndirect, and the draw-time messages.

use inlay::assembler::validate::{DrawCheck, validate_draw};
use inlay::assembler::{
    AssembledVertex, DrawCall, ExecuteIndirect, IaError, InputAssembler, StripCutRule, Topology,
};
use inlay::buffer::{IndexBufferView, IndexFormat, VertexBufferView};
use inlay::dxbc::{ComponentType, MinPrecision, Signature, SignatureElement, SystemValue};
use inlay::element::{APPEND_ALIGNED_ELEMENT as APPEND, InputElementDesc};
use inlay::format::Format;
use inlay::layout::{InputLayout, StripCut, TopologyType};
use inlay::target::{Api, FeatureLevel, Target};
use inlay::{CreateInputLayout, PipelineDesc};

const D3D12: Target = Target::new(Api::D3D12, FeatureLevel::L11_0);

fn sig(entries: &[(&str, u32, ComponentType)]) -> Signature {
    Signature {
        elements: entries
            .iter()
            .enumerate()
            .map(|(r, &(name, index, ty))| SignatureElement {
                stream: 0,
                semantic_name: name.into(),
                semantic_index: index,
                system_value: SystemValue::UNDEFINED,
                component_type: ty,
                register: r as u32,
                mask: 0xf,
                read_write_mask: 0xf,
                min_precision: MinPrecision(0),
            })
            .collect(),
    }
}

fn pso(
    elements: &[InputElementDesc],
    signature: &Signature,
    cut: StripCut,
    ty: TopologyType,
) -> InputLayout {
    CreateInputLayout::new(&D3D12, elements)
        .pipeline(PipelineDesc {
            ib_strip_cut_value: cut.d3d12_value(),
            primitive_topology_type: ty.d3d12_value(),
            ..PipelineDesc::default()
        })
        .signature(Ok(signature))
        .into_result()
        .unwrap()
}

fn bytes<T: Copy>(v: &[T], f: impl Fn(T) -> Vec<u8>) -> Vec<u8> {
    v.iter().flat_map(|&x| f(x)).collect()
}

fn f32s(v: &[f32]) -> Vec<u8> {
    bytes(v, |x| x.to_le_bytes().to_vec())
}

/// vkd3d-proton `test_primitive_restart` (d3d12_pso.c): a triangle strip over four vertices
/// of a quad, the last index either 3 or 0xFFFF (with the fourth vertex stored there); the
/// table gives, per strip-cut value and index format, whether the whole quad is drawn (the
/// last index is no cut) or one triangle (it cuts). Windows cuts 0xFFFF in an R32_UINT
/// buffer when the pipeline says 0xFFFF, and never cuts a 16-bit 0xFFFF under 0xFFFFFFFF.
#[test]
fn primitive_restart_table_of_vkd3d_proton() {
    let elements = [InputElementDesc::per_vertex(
        "position",
        0,
        Format::R8G8_SINT,
        0,
        0,
    )];
    let s = sig(&[("POSITION", 0, ComponentType::SINT32)]);
    let idx16 = |v: &[u16]| bytes(v, |x| x.to_le_bytes().to_vec());
    let idx32 = |v: &[u32]| bytes(v, |x| x.to_le_bytes().to_vec());
    use IndexFormat::{R16Uint as R16, R32Uint as R32};
    use StripCut::{Cut16, Cut32, Disabled};
    // (cut, format, indices, last index, whole quad)
    let rows: Vec<(StripCut, IndexFormat, Vec<u8>, usize, bool)> = vec![
        (Disabled, R16, idx16(&[0, 1, 2, 3]), 3, true),
        (Disabled, R16, idx16(&[0, 1, 2, 0xffff]), 0xffff, true),
        (Disabled, R32, idx32(&[0, 1, 2, 3]), 3, true),
        (Disabled, R32, idx32(&[0, 1, 2, 0xffff]), 0xffff, true),
        (Cut16, R16, idx16(&[0, 1, 2, 3]), 3, true),
        (Cut16, R16, idx16(&[0, 1, 2, 0xffff]), 0xffff, false),
        (Cut16, R32, idx32(&[0, 1, 2, 3]), 3, true),
        (Cut16, R32, idx32(&[0, 1, 2, 0xffff]), 0xffff, false),
        (Cut32, R16, idx16(&[0, 1, 2, 3]), 3, true),
        (Cut32, R16, idx16(&[0, 1, 2, 0xffff]), 0xffff, true),
        (Cut32, R32, idx32(&[0, 1, 2, 3]), 3, true),
        (Cut32, R32, idx32(&[0, 1, 2, 0xffff]), 0xffff, true),
    ];
    let quad: [[i8; 2]; 4] = [[-1, -1], [-1, 1], [1, -1], [1, 1]];
    for (cut, format, indices, last, whole) in rows {
        let layout = pso(&elements, &s, cut, TopologyType::Triangle);
        let mut vb = vec![0u8; (last + 1) * 2];
        for (k, v) in quad[..3].iter().enumerate() {
            vb[2 * k..2 * k + 2].copy_from_slice(&[v[0] as u8, v[1] as u8]);
        }
        vb[2 * last..2 * last + 2].copy_from_slice(&[quad[3][0] as u8, quad[3][1] as u8]);
        let mut ia = InputAssembler::new(&layout, D3D12);
        let view = VertexBufferView {
            location: 0,
            size_in_bytes: vb.len() as u32,
            stride_in_bytes: 2,
        };
        ia.set_vertex_buffer(0, Some(view.bind(&vb).unwrap()))
            .unwrap();
        let iv = IndexBufferView {
            location: 0,
            size_in_bytes: indices.len() as u32,
            format,
        };
        ia.set_index_buffer(Some(iv.bind(&indices).unwrap()))
            .unwrap();
        ia.set_topology(Topology::TriangleStrip).unwrap();
        let draw = ia
            .draw(&DrawCall::DrawIndexedInstanced {
                index_count_per_instance: 4,
                instance_count: 1,
                start_index: 0,
                base_vertex: 0,
                start_instance: 0,
            })
            .unwrap();
        let triangles = draw.primitives().count();
        assert_eq!(
            triangles,
            if whole { 2 } else { 1 },
            "{cut:?} {format:?} last {last}"
        );
        if whole {
            // The fourth vertex is the quad's corner (1, 1), whatever its index.
            let v: Vec<AssembledVertex> = draw.vertices().collect();
            assert_eq!(v[3].registers[0][..2], [1, 1]);
            assert_eq!(v[3].vertex_id, last as u32);
        }
    }
}

/// vkd3d-proton `test_primitive_restart_list_topology_stream_output` (d3d12_streamout.c): with
/// IBStripCutValue 0xFFFFFFFF, a triangle list fetches 0xFFFFFFFF as a vertex (its
/// SV_VertexID is 0xFFFFFFFF) while a triangle strip cuts there (P19).
#[test]
fn strip_cut_applies_to_strips_only() {
    let s = sig(&[]);
    let indices = bytes(
        &[0u32, 1, u32::MAX, 9, u32::MAX, u32::MAX, 2000, 3000, 4000],
        |x| x.to_le_bytes().to_vec(),
    );
    let layout = pso(&[], &s, StripCut::Cut32, TopologyType::Triangle);
    let mut ia = InputAssembler::new(&layout, D3D12);
    ia.set_index_buffer(Some(
        IndexBufferView {
            location: 0,
            size_in_bytes: indices.len() as u32,
            format: IndexFormat::R32Uint,
        }
        .bind(&indices)
        .unwrap(),
    ))
    .unwrap();
    let call = DrawCall::DrawIndexedInstanced {
        index_count_per_instance: 9,
        instance_count: 1,
        start_index: 0,
        base_vertex: 0,
        start_instance: 0,
    };
    let ids = |ia: &InputAssembler<'_>| -> Vec<Vec<u32>> {
        let d = ia.draw(&call).unwrap();
        let v: Vec<u32> = d.vertices().map(|v| v.vertex_id).collect();
        d.primitives()
            .map(|p| p.vertices().iter().map(|&i| v[i as usize]).collect())
            .collect()
    };
    ia.set_topology(Topology::TriangleStrip).unwrap();
    assert_eq!(ia.cut_rule(), StripCutRule::Value(u32::MAX));
    assert_eq!(ids(&ia), vec![vec![2000, 3000, 4000]]);
    ia.set_topology(Topology::TriangleList).unwrap();
    assert_eq!(ia.cut_rule(), StripCutRule::Disabled);
    assert_eq!(
        ids(&ia),
        vec![
            vec![0, 1, u32::MAX],
            vec![9, u32::MAX, u32::MAX],
            vec![2000, 3000, 4000]
        ]
    );
}

/// vkd3d-proton `test_vbv_stride_edge_cases` (d3d12_command.c): R32G32B32A32_FLOAT at byte 16,
/// a view over the floats 0, 1, 2, … with the table's stride and SizeInBytes; two vertices.
/// An element any byte of which lies past SizeInBytes reads zeros (the table's robust
/// cases); strides smaller than the element read overlapping vertices.
#[test]
fn vertex_buffer_view_size_bounds_the_fetch() {
    let elements = [InputElementDesc::per_vertex(
        "POSITION",
        0,
        Format::R32G32B32A32_FLOAT,
        0,
        16,
    )];
    let s = sig(&[("POSITION", 0, ComponentType::FLOAT32)]);
    let layout = pso(&elements, &s, StripCut::Disabled, TopologyType::Point);
    let data = f32s(&(0..1024).map(|i| i as f32).collect::<Vec<_>>());
    let z = [0.0f32; 4];
    let table: [(u32, u32, [f32; 4], [f32; 4]); 11] = [
        (0, 4, z, z),
        (0, 8, z, z),
        (0, 12, z, z),
        (0, 16, z, z),
        (0, 32, [4., 5., 6., 7.], [4., 5., 6., 7.]),
        (4, 16, z, z),
        (4, 36, [4., 5., 6., 7.], [5., 6., 7., 8.]),
        (8, 16, z, z),
        (8, 40, [4., 5., 6., 7.], [6., 7., 8., 9.]),
        (12, 16, z, z),
        (12, 44, [4., 5., 6., 7.], [7., 8., 9., 10.]),
    ];
    for (stride, size, v0, v1) in table {
        let mut ia = InputAssembler::new(&layout, D3D12);
        let view = VertexBufferView {
            location: 0,
            size_in_bytes: size,
            stride_in_bytes: stride,
        };
        ia.set_vertex_buffer(0, Some(view.bind(&data).unwrap()))
            .unwrap();
        ia.set_topology(Topology::PointList).unwrap();
        let v: Vec<AssembledVertex> = ia
            .draw(&DrawCall::DrawInstanced {
                vertex_count_per_instance: 2,
                instance_count: 1,
                start_vertex: 0,
                start_instance: 0,
            })
            .unwrap()
            .vertices()
            .collect();
        // Out of bounds: a four-component format has no missing component, all four read 0.
        assert_eq!(
            v[0].registers[0],
            v0.map(f32::to_bits),
            "stride {stride} size {size}"
        );
        assert_eq!(
            v[1].registers[0],
            v1.map(f32::to_bits),
            "stride {stride} size {size}"
        );
    }
    // A view outside its buffer is refused.
    let e = VertexBufferView {
        location: 4090,
        size_in_bytes: 16,
        stride_in_bytes: 16,
    }
    .bind(&data)
    .unwrap_err();
    assert_eq!(e.len, 4096);
}

/// vkd3d-proton / Wine `test_zero_vertex_stride`: a per-vertex slot bound with stride 0 at
/// the third colour reads that colour for every vertex (0xff808080: grey); a per-instance
/// slot with stride 0 at the first colour reads it for every instance (green).
#[test]
fn zero_stride_reads_one_element() {
    let s = sig(&[
        ("SV_POSITION", 0, ComponentType::FLOAT32),
        ("COLOR", 0, ComponentType::FLOAT32),
    ]);
    let colors = f32s(&[
        0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.5, 0.5, 0.5, 1.0, 1.0, 0.0, 1.0, 1.0,
    ]);
    let positions = f32s(&[
        -1., -1., 0., 1., -1., 1., 0., 1., 1., -1., 0., 1., 1., 1., 0., 1.,
    ]);
    for (class, location, want) in [
        (0u32, 32u64, [0.5f32, 0.5, 0.5, 1.0]),
        (1, 0, [0.0, 1.0, 0.0, 1.0]),
    ] {
        let color = InputElementDesc {
            input_slot_class: class,
            ..InputElementDesc::per_vertex("color", 0, Format::R32G32B32A32_FLOAT, 1, APPEND)
        };
        let elements = [
            InputElementDesc::per_vertex("sv_position", 0, Format::R32G32B32A32_FLOAT, 0, APPEND),
            color,
        ];
        let layout = pso(&elements, &s, StripCut::Disabled, TopologyType::Triangle);
        let mut ia = InputAssembler::new(&layout, D3D12);
        ia.set_vertex_buffer(
            0,
            Some(
                VertexBufferView {
                    location: 0,
                    size_in_bytes: 64,
                    stride_in_bytes: 16,
                }
                .bind(&positions)
                .unwrap(),
            ),
        )
        .unwrap();
        ia.set_vertex_buffer(
            1,
            Some(
                VertexBufferView {
                    location,
                    size_in_bytes: colors.len() as u32 - location as u32,
                    stride_in_bytes: 0,
                }
                .bind(&colors)
                .unwrap(),
            ),
        )
        .unwrap();
        ia.set_topology(Topology::TriangleStrip).unwrap();
        let call = DrawCall::DrawInstanced {
            vertex_count_per_instance: 4,
            instance_count: 4,
            start_vertex: 0,
            start_instance: 0,
        };
        for v in ia.draw(&call).unwrap().vertices() {
            assert_eq!(v.registers[1], want.map(f32::to_bits));
        }
        // Stride 0 is legal: no STRIDE_TOO_SMALL (#209) at draw time.
        let r = validate_draw(&ia, &call).unwrap();
        assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    }
}

/// Wine `test_instance_id` (tests/d3d12.c): a per-instance R8_UNORM colour with step rates 0,
/// 1 and 2, drawn with DrawInstanced(4, 4, 0, 0) and (4, 4, 0, 4) and through
/// ExecuteIndirect with the same two argument structures: the colour bytes the table expects
/// per instance, and SV_InstanceID 0–3 in both draws (StartInstanceLocation not added).
#[test]
fn instance_step_rates_and_start_instance() {
    let s = sig(&[
        ("POSITION", 0, ComponentType::FLOAT32),
        ("COLOR", 0, ComponentType::FLOAT32),
        ("V_OFFSET", 0, ComponentType::FLOAT32),
    ]);
    let stream0 = f32s(&[0.0; 32]);
    let stream1 = vec![0xf0u8, 0x80, 0x10, 0x40, 0xaa, 0xbb, 0xcc, 0x90];
    let stream2 = f32s(&[0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75]);
    let expected: [(u32, [u8; 8]); 3] = [
        (0, [0xf0, 0xf0, 0xf0, 0xf0, 0xaa, 0xaa, 0xaa, 0xaa]),
        (1, [0xf0, 0x80, 0x10, 0x40, 0xaa, 0xbb, 0xcc, 0x90]),
        (2, [0xf0, 0xf0, 0x80, 0x80, 0xaa, 0xaa, 0xbb, 0xbb]),
    ];
    let args: Vec<u8> = bytes(&[4u32, 4, 4, 0, 4, 4, 4, 4], |x| x.to_le_bytes().to_vec());
    for (step, colors) in expected {
        let elements = [
            InputElementDesc::per_vertex("position", 0, Format::R32G32B32A32_FLOAT, 0, APPEND),
            InputElementDesc::per_instance("color", 0, Format::R8_UNORM, 1, APPEND, step),
            InputElementDesc::per_instance("v_offset", 0, Format::R32_FLOAT, 2, APPEND, 1),
        ];
        let layout = pso(&elements, &s, StripCut::Disabled, TopologyType::Triangle);
        let mut ia = InputAssembler::new(&layout, D3D12);
        for (slot, (data, stride)) in [(&stream0, 16u32), (&stream1, 1), (&stream2, 4)]
            .into_iter()
            .enumerate()
        {
            let view = VertexBufferView {
                location: 0,
                size_in_bytes: data.len() as u32,
                stride_in_bytes: stride,
            };
            ia.set_vertex_buffer(slot as u32, Some(view.bind(data).unwrap()))
                .unwrap();
        }
        ia.set_topology(Topology::TriangleStrip).unwrap();
        let direct = [
            DrawCall::DrawInstanced {
                vertex_count_per_instance: 4,
                instance_count: 4,
                start_vertex: 0,
                start_instance: 0,
            },
            DrawCall::DrawInstanced {
                vertex_count_per_instance: 4,
                instance_count: 4,
                start_vertex: 0,
                start_instance: 4,
            },
        ];
        let indirect = ExecuteIndirect {
            indexed: false,
            byte_stride: 16,
            max_command_count: 2,
            args: &args,
            offset: 0,
            count: None,
        }
        .draws()
        .unwrap();
        // The indirect draws read the second half of stream 0 (StartVertexLocation 4).
        let moved: Vec<DrawCall<'_>> = direct
            .iter()
            .map(|c| match *c {
                DrawCall::DrawInstanced {
                    vertex_count_per_instance,
                    instance_count,
                    start_instance,
                    ..
                } => DrawCall::DrawInstanced {
                    vertex_count_per_instance,
                    instance_count,
                    start_vertex: 4,
                    start_instance,
                },
                other => other,
            })
            .collect();
        assert_eq!(indirect, moved);
        for calls in [&direct[..], &indirect[..]] {
            let mut got = Vec::new();
            for call in calls {
                for v in ia
                    .draw(call)
                    .unwrap()
                    .vertices()
                    .filter(|v| v.vertex_id == 0)
                {
                    got.push(v.registers[1][0]);
                    assert!(v.instance_id < 4);
                }
            }
            let want: Vec<u32> = colors
                .iter()
                .map(|&c| (c as f32 / 255.0).to_bits())
                .collect();
            assert_eq!(got, want, "step rate {step}");
        }
    }
}

/// vkd3d-proton `test_sm68_draw_parameters` (d3d12_sm_advanced.c): for DrawInstanced with
/// the table's (vertex count, instances, base vertex, base instance) — and the same
/// through ExecuteIndirect with a 20-byte stride starting at byte 4 of each record — every
/// vertex sees SV_VertexID < vertex count, SV_InstanceID < instances, SV_StartVertexLocation =
/// StartVertexLocation and SV_StartInstanceLocation = StartInstanceLocation (P20).
#[test]
fn sm68_start_locations() {
    let table = [
        [0u32, 3, 1, 0, 0],
        [1, 3, 1, 4, 2],
        [2, 1, 5, 2, 8],
        [3, 4, 8, 7, 9],
    ];
    let buffer: Vec<u8> = bytes(&table.concat(), |x| x.to_le_bytes().to_vec());
    let layout = pso(&[], &sig(&[]), StripCut::Disabled, TopologyType::Point);
    let mut ia = InputAssembler::new(&layout, D3D12);
    ia.set_topology(Topology::PointList).unwrap();
    for (j, t) in table.iter().enumerate() {
        let direct = DrawCall::DrawInstanced {
            vertex_count_per_instance: t[1],
            instance_count: t[2],
            start_vertex: t[3],
            start_instance: t[4],
        };
        let via = ExecuteIndirect {
            indexed: false,
            byte_stride: 20,
            max_command_count: 1,
            args: &buffer,
            offset: (j * 20 + 4) as u64,
            count: None,
        }
        .draws()
        .unwrap();
        assert_eq!(via, vec![direct]);
        let d = ia.draw(&direct).unwrap();
        assert_eq!(d.params().start_vertex_location(), t[3] as i32);
        assert_eq!(d.params().start_instance_location(), t[4]);
        let mut mask = 0u64;
        for v in d.vertices() {
            assert!(v.vertex_id < t[1] && v.instance_id < t[2]);
            mask |= 1 << (v.vertex_id + v.instance_id * t[1]);
        }
        // The shader ORs one bit per (vertex, instance): all n·m bits set.
        assert_eq!(mask, (2u64 << (t[1] * t[2] - 1)) - 1);
    }
    // Indexed: BaseVertexLocation.
    let d = ia
        .resolve(&DrawCall::DrawIndexedInstanced {
            index_count_per_instance: 3,
            instance_count: 1,
            start_index: 5,
            base_vertex: -2,
            start_instance: 7,
        })
        .unwrap();
    assert_eq!(
        (d.start_vertex_location(), d.start_instance_location()),
        (-2, 7)
    );
}

/// ExecuteIndirect (IndirectDrawing.md): the count buffer's value caps MaxCommandCount, the
/// stride must be a multiple of 4 holding the arguments, commands must lie in the buffer.
#[test]
fn execute_indirect_rules() {
    let args: Vec<u8> = bytes(&[3u32, 1, 0, 0, 0, 6, 2, 1, 5, 0], |x| {
        x.to_le_bytes().to_vec()
    });
    let e = |indexed, byte_stride, max, offset, count| ExecuteIndirect {
        indexed,
        byte_stride,
        max_command_count: max,
        args: &args,
        offset,
        count,
    };
    assert_eq!(e(true, 20, 2, 0, None).draws().unwrap().len(), 2);
    assert_eq!(e(true, 20, 2, 0, Some(1)).draws().unwrap().len(), 1);
    assert_eq!(e(true, 20, 5, 0, Some(0)).draws().unwrap().len(), 0);
    assert_eq!(
        e(true, 20, 2, 0, None).draws().unwrap()[1],
        DrawCall::DrawIndexedInstanced {
            index_count_per_instance: 6,
            instance_count: 2,
            start_index: 1,
            base_vertex: 5,
            start_instance: 0,
        }
    );
    assert_eq!(
        e(true, 16, 1, 0, None).draws().unwrap_err(),
        IaError::CommandStride {
            stride: 16,
            needed: 20,
            what: "D3D12_DRAW_INDEXED_ARGUMENTS"
        }
    );
    assert!(matches!(
        e(false, 18, 1, 0, None).draws(),
        Err(IaError::CommandStride { .. })
    ));
    assert!(matches!(
        e(false, 16, 1, 2, None).draws(),
        Err(IaError::ArgsMisaligned { .. })
    ));
    assert_eq!(
        e(true, 20, 3, 0, None).draws().unwrap_err(),
        IaError::CommandOutOfRange {
            command: 2,
            offset: 40,
            needed: 20,
            len: 40
        }
    );
    // Huge counts are refused before anything is allocated.
    assert!(e(false, 16, u32::MAX, 0, None).draws().is_err());
}

/// P22: a draw whose topology is not of the pipeline state's type is refused (#611); P17 and
/// P23: the D3D12 draw-time messages (#221 unaligned stride, #1418 no instance) and D3D12's
/// numbers for the shared ones (#202 vertex buffer not set).
#[test]
fn draw_time_rules() {
    let s = sig(&[
        ("SV_POSITION", 0, ComponentType::FLOAT32),
        ("COLOR", 0, ComponentType::FLOAT32),
    ]);
    let elements = [
        InputElementDesc::per_vertex("sv_position", 0, Format::R16G16B16A16_SNORM, 0, APPEND),
        InputElementDesc::per_vertex("color", 0, Format::R16G16B16A16_SNORM, 1, APPEND),
    ];
    let layout = pso(&elements, &s, StripCut::Disabled, TopologyType::Triangle);
    let data = vec![0u8; 72];
    let mut ia = InputAssembler::new(&layout, D3D12);
    ia.set_topology(Topology::LineList).unwrap();
    let call = DrawCall::DrawInstanced {
        vertex_count_per_instance: 4,
        instance_count: 4,
        start_vertex: 0,
        start_instance: 0,
    };
    let e = ia.draw(&call).unwrap_err();
    assert!(matches!(e, IaError::TopologyTypeMismatch { .. }));
    assert!(e.to_string().contains("#611"), "{e}");
    ia.set_topology(Topology::TriangleStrip).unwrap();
    // vkd3d-proton `test_unaligned_vertex_stride`: stride 9 for 8-byte elements.
    let view = |stride| VertexBufferView {
        location: 0,
        size_in_bytes: 72,
        stride_in_bytes: stride,
    };
    ia.set_vertex_buffer(0, Some(view(8).bind(&data).unwrap()))
        .unwrap();
    ia.set_vertex_buffer(1, Some(view(9).bind(&data).unwrap()))
        .unwrap();
    let r = validate_draw(&ia, &call).unwrap();
    let found: Vec<(DrawCheck, Option<u32>)> = r
        .warnings
        .iter()
        .map(|w| (w.check, w.id.map(|i| i.0)))
        .collect();
    assert_eq!(found, [(DrawCheck::VertexStrideUnaligned, Some(221))]);
    assert!(
        r.warnings[0]
            .to_string()
            .starts_with("#221 COMMAND_LIST_DRAW_VERTEX_STRIDE_UNALIGNED: slot 1")
    );
    ia.set_vertex_buffer(1, None).unwrap();
    let r = validate_draw(
        &ia,
        &DrawCall::DrawInstanced {
            vertex_count_per_instance: 4,
            instance_count: 0,
            start_vertex: 0,
            start_instance: 0,
        },
    )
    .unwrap();
    let found: Vec<Option<u32>> = r.warnings.iter().map(|w| w.id.map(|i| i.0)).collect();
    assert_eq!(found, [Some(202), Some(1418)]);
    // DrawAuto does not exist in D3D12.
    assert!(matches!(
        ia.draw(&DrawCall::DrawAuto { filled_size: 16 }),
        Err(IaError::DrawUnsupported { .. })
    ));
}

/// Listed choice 13 (d3d12-rules.md §E): command signatures that change vertex or index
/// buffer views or root arguments between draws are not modelled. `ExecuteIndirect` takes one
/// draw argument per command, read at the start of the command's `ByteStride`; the rest of
/// the stride (here a `D3D12_VERTEX_BUFFER_VIEW`-sized 16 bytes that such a signature would
/// put there) is skipped, so the buffers bound before the call stay bound for every command.
/// Modelling those argument types changes what this reads and fails this test.
#[test]
fn choice_13_execute_indirect_reads_only_draw_arguments() {
    // Two 32-byte commands: DRAW arguments (4 words), then 16 bytes a VB view would fill.
    let words = [
        3u32,
        1,
        0,
        0,
        0xdead_0000,
        0xbeef,
        64,
        16, // command 0
        6,
        2,
        9,
        4,
        0x1234_5678,
        0,
        128,
        32, // command 1
    ];
    let args = bytes(&words, |x| x.to_le_bytes().to_vec());
    let draws = ExecuteIndirect {
        indexed: false,
        byte_stride: 32,
        max_command_count: 2,
        args: &args,
        offset: 0,
        count: None,
    }
    .draws()
    .unwrap();
    assert_eq!(
        draws,
        vec![
            DrawCall::DrawInstanced {
                vertex_count_per_instance: 3,
                instance_count: 1,
                start_vertex: 0,
                start_instance: 0,
            },
            DrawCall::DrawInstanced {
                vertex_count_per_instance: 6,
                instance_count: 2,
                start_vertex: 9,
                start_instance: 4,
            },
        ]
    );
}
