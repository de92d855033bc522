//! Lowering to Vulkan and WebGPU: every DXGI vertex format against names written out here
//! from the Vulkan and WebGPU specifications (an independent table, not derived like the
//! library's), the three profiles' conversions, and each remedy against hand-computed bytes.

use inlay::assembler::Topology;
use inlay::element::{APPEND_ALIGNED_ELEMENT, InputElementDesc};
use inlay::format::{Format, vertex_formats};
use inlay::layout::InputLayout;
use inlay::lower::remedy::SlotData;
use inlay::lower::{
    self, BindingSource, DeviceProfile, DrawShape, Remedy, Subject, TargetApi, format_mapping,
};
use inlay::target::Target;

/// DXGI vertex format → (Vulkan format, WebGPU format), from the two specifications' format
/// lists (Vulkan: packed formats are named from the most significant bit; WebGPU: `-` where
/// no vertex format has the same memory layout and values).
const EXPECTED: &[(&str, &str, &str)] = &[
    ("R32G32B32A32_FLOAT", "R32G32B32A32_SFLOAT", "Float32x4"),
    ("R32G32B32A32_UINT", "R32G32B32A32_UINT", "Uint32x4"),
    ("R32G32B32A32_SINT", "R32G32B32A32_SINT", "Sint32x4"),
    ("R32G32B32_FLOAT", "R32G32B32_SFLOAT", "Float32x3"),
    ("R32G32B32_UINT", "R32G32B32_UINT", "Uint32x3"),
    ("R32G32B32_SINT", "R32G32B32_SINT", "Sint32x3"),
    ("R16G16B16A16_FLOAT", "R16G16B16A16_SFLOAT", "Float16x4"),
    ("R16G16B16A16_UNORM", "R16G16B16A16_UNORM", "Unorm16x4"),
    ("R16G16B16A16_UINT", "R16G16B16A16_UINT", "Uint16x4"),
    ("R16G16B16A16_SNORM", "R16G16B16A16_SNORM", "Snorm16x4"),
    ("R16G16B16A16_SINT", "R16G16B16A16_SINT", "Sint16x4"),
    ("R32G32_FLOAT", "R32G32_SFLOAT", "Float32x2"),
    ("R32G32_UINT", "R32G32_UINT", "Uint32x2"),
    ("R32G32_SINT", "R32G32_SINT", "Sint32x2"),
    (
        "R10G10B10A2_UNORM",
        "A2B10G10R10_UNORM_PACK32",
        "Unorm10_10_10_2",
    ),
    ("R10G10B10A2_UINT", "A2B10G10R10_UINT_PACK32", "-"),
    ("R11G11B10_FLOAT", "B10G11R11_UFLOAT_PACK32", "-"),
    ("R8G8B8A8_UNORM", "R8G8B8A8_UNORM", "Unorm8x4"),
    ("R8G8B8A8_UINT", "R8G8B8A8_UINT", "Uint8x4"),
    ("R8G8B8A8_SNORM", "R8G8B8A8_SNORM", "Snorm8x4"),
    ("R8G8B8A8_SINT", "R8G8B8A8_SINT", "Sint8x4"),
    ("R16G16_FLOAT", "R16G16_SFLOAT", "Float16x2"),
    ("R16G16_UNORM", "R16G16_UNORM", "Unorm16x2"),
    ("R16G16_UINT", "R16G16_UINT", "Uint16x2"),
    ("R16G16_SNORM", "R16G16_SNORM", "Snorm16x2"),
    ("R16G16_SINT", "R16G16_SINT", "Sint16x2"),
    ("R32_FLOAT", "R32_SFLOAT", "Float32"),
    ("R32_UINT", "R32_UINT", "Uint32"),
    ("R32_SINT", "R32_SINT", "Sint32"),
    ("R8G8_UNORM", "R8G8_UNORM", "Unorm8x2"),
    ("R8G8_UINT", "R8G8_UINT", "Uint8x2"),
    ("R8G8_SNORM", "R8G8_SNORM", "Snorm8x2"),
    ("R8G8_SINT", "R8G8_SINT", "Sint8x2"),
    ("R16_FLOAT", "R16_SFLOAT", "Float16"),
    ("R16_UNORM", "R16_UNORM", "Unorm16"),
    ("R16_UINT", "R16_UINT", "Uint16"),
    ("R16_SNORM", "R16_SNORM", "Snorm16"),
    ("R16_SINT", "R16_SINT", "Sint16"),
    ("R8_UNORM", "R8_UNORM", "Unorm8"),
    ("R8_UINT", "R8_UINT", "Uint8"),
    ("R8_SNORM", "R8_SNORM", "Snorm8"),
    ("R8_SINT", "R8_SINT", "Sint8"),
    ("B5G6R5_UNORM", "R5G6B5_UNORM_PACK16", "-"),
    ("B5G5R5A1_UNORM", "A1R5G5B5_UNORM_PACK16", "-"),
    ("B8G8R8A8_UNORM", "B8G8R8A8_UNORM", "Unorm8x4Bgra"),
    ("B8G8R8X8_UNORM", "-", "-"),
    ("B4G4R4A4_UNORM", "A4R4G4B4_UNORM_PACK16", "-"),
];

fn everything_vulkan() -> DeviceProfile {
    DeviceProfile {
        name: "every format".into(),
        vertex_formats: lower::names::VK_FORMATS
            .iter()
            .map(|f| f.name.to_string())
            .collect(),
        ..DeviceProfile::vulkan_required()
    }
}

fn h200() -> DeviceProfile {
    let text = include_str!("../../../profiles/nvidia-h200.json");
    DeviceProfile::from_json(text).expect("the committed H200 profile reads")
}

#[test]
fn every_vertex_format_has_its_spec_twin() {
    let all: Vec<_> = vertex_formats().collect();
    assert_eq!(all.len(), 47);
    assert_eq!(EXPECTED.len(), 47);
    let vk = everything_vulkan();
    let wg = DeviceProfile::wgpu_default();
    for (dxgi, v, w) in EXPECTED {
        let f: Format = dxgi.parse().unwrap();
        let got_v = format_mapping(f, &vk).map(|t| t.name).unwrap_or("-");
        let got_w = format_mapping(f, &wg).map(|t| t.name).unwrap_or("-");
        assert_eq!((got_v, got_w), (*v, *w), "{dxgi}");
    }
}

#[test]
fn vk_format_values_are_the_specs() {
    // VkFormat enumerants, Vulkan spec §"Formats".
    for (name, value) in [
        ("R8G8B8A8_UNORM", 37),
        ("A2B10G10R10_UNORM_PACK32", 64),
        ("R16G16B16A16_SFLOAT", 97),
        ("R32G32B32_SFLOAT", 106),
        ("B10G11R11_UFLOAT_PACK32", 122),
        ("A4R4G4B4_UNORM_PACK16", 1_000_340_000),
    ] {
        assert_eq!(
            lower::names::vk_format(name).unwrap().value,
            value,
            "{name}"
        );
    }
}

fn needing_conversion(p: &DeviceProfile) -> Vec<&'static str> {
    EXPECTED
        .iter()
        .filter(|(d, _, _)| format_mapping(d.parse().unwrap(), p).is_err())
        .map(|(d, _, _)| *d)
        .collect()
}

#[test]
fn each_profile_converts_what_it_cannot_fetch() {
    assert_eq!(
        needing_conversion(&DeviceProfile::vulkan_required()),
        [
            "R10G10B10A2_UINT",
            "R11G11B10_FLOAT",
            "B5G6R5_UNORM",
            "B5G5R5A1_UNORM",
            "B8G8R8X8_UNORM",
            "B4G4R4A4_UNORM"
        ]
    );
    // The H200 fetches 43 of the 47 formats; the 16-bpp packed ones and BGRX need help.
    assert_eq!(
        needing_conversion(&h200()),
        [
            "B5G6R5_UNORM",
            "B5G5R5A1_UNORM",
            "B8G8R8X8_UNORM",
            "B4G4R4A4_UNORM"
        ]
    );
    // The six DXGI vertex formats WebGPU lacks.
    assert_eq!(
        needing_conversion(&DeviceProfile::wgpu_default()),
        [
            "R10G10B10A2_UINT",
            "R11G11B10_FLOAT",
            "B5G6R5_UNORM",
            "B5G5R5A1_UNORM",
            "B8G8R8X8_UNORM",
            "B4G4R4A4_UNORM"
        ]
    );
}

fn layout(elements: &[InputElementDesc]) -> InputLayout {
    inlay::validation::layout_without_shader(&Target::default(), elements)
        .layout
        .expect("valid layout")
}

fn inst(name: &str, f: Format, slot: u32, off: u32, rate: u32) -> InputElementDesc {
    InputElementDesc {
        semantic_name: Some(name.into()),
        semantic_index: 0,
        format: f,
        input_slot: slot,
        aligned_byte_offset: off,
        input_slot_class: 1,
        instance_data_step_rate: rate,
    }
}

#[test]
fn a_native_layout_maps_one_to_one() {
    let l = layout(&[
        InputElementDesc::per_vertex("POSITION", 0, Format::R32G32B32_FLOAT, 0, 0),
        InputElementDesc::per_vertex(
            "COLOR",
            0,
            Format::R8G8B8A8_UNORM,
            0,
            APPEND_ALIGNED_ELEMENT,
        ),
        inst("WORLD", Format::R32G32B32A32_FLOAT, 1, 0, 1),
    ]);
    let shape = DrawShape::tight(&l, Topology::TriangleStrip, true);
    let low = lower::lower(&l, &shape, &h200());
    let s = &low.state;
    assert_eq!(s.bindings.len(), 2);
    assert_eq!(
        (
            s.bindings[0].binding,
            s.bindings[0].stride,
            s.bindings[0].per_instance
        ),
        (0, 16, false)
    );
    assert_eq!(
        (
            s.bindings[1].binding,
            s.bindings[1].stride,
            s.bindings[1].per_instance
        ),
        (1, 16, true)
    );
    let attrs: Vec<_> = s
        .attributes
        .iter()
        .map(|a| {
            (
                a.location,
                a.binding,
                a.offset,
                a.format.name,
                a.format.value,
            )
        })
        .collect();
    assert_eq!(
        attrs,
        [
            (0, 0, 0, "R32G32B32_SFLOAT", 106),
            (1, 0, 12, "R8G8B8A8_UNORM", 37),
            (2, 1, 0, "R32G32B32A32_SFLOAT", 109)
        ]
    );
    assert_eq!(s.topology, Some("TRIANGLE_STRIP"));
    assert!(s.primitive_restart, "Direct3D always cuts indexed strips");
    // Only the shader-side system-value note remains.
    assert_eq!(low.findings.len(), 1);
    assert_eq!(low.findings[0].subject, Subject::Draw);
    assert_eq!(low.findings[0].remedy, Remedy::None);
}

#[test]
fn step_rates_need_divisors_or_expansion() {
    let l = layout(&[
        InputElementDesc::per_vertex("POSITION", 0, Format::R32G32_FLOAT, 0, 0),
        inst("A", Format::R32_FLOAT, 1, 0, 0),
        inst("B", Format::R32_FLOAT, 2, 0, 3),
    ]);
    let shape = DrawShape::tight(&l, Topology::PointList, false);
    let remedies = |p: &DeviceProfile| -> Vec<(Subject, Remedy)> {
        lower::lower(&l, &shape, p)
            .findings
            .into_iter()
            .filter(|f| matches!(f.subject, Subject::Slot(_)))
            .map(|f| (f.subject, f.remedy))
            .collect()
    };
    let h = lower::lower(&l, &shape, &h200());
    assert_eq!(h.state.bindings[1].divisor, Some(0));
    assert_eq!(h.state.bindings[2].divisor, Some(3));
    assert!(matches!(remedies(&h200())[0].1, Remedy::Enable { .. }));
    for p in [
        DeviceProfile::vulkan_required(),
        DeviceProfile::wgpu_default(),
    ] {
        assert_eq!(
            remedies(&p),
            [
                (Subject::Slot(1), Remedy::ExpandInstances { step_rate: 0 }),
                (Subject::Slot(2), Remedy::ExpandInstances { step_rate: 3 })
            ],
            "{}",
            p.name
        );
        let low = lower::lower(&l, &shape, &p);
        assert_eq!(
            low.state.bindings[1].source,
            BindingSource::ExpandedInstances
        );
        assert_eq!(low.state.bindings[1].divisor, None);
    }
}

#[test]
fn cuts_in_lists_need_list_restart_or_a_rewrite() {
    let l = layout(&[InputElementDesc::per_vertex(
        "P",
        0,
        Format::R32_FLOAT,
        0,
        0,
    )]);
    let shape = DrawShape::tight(&l, Topology::TriangleList, true);
    let draw_remedies = |p: &DeviceProfile| -> Vec<Remedy> {
        lower::lower(&l, &shape, p)
            .findings
            .into_iter()
            .filter(|f| f.subject == Subject::Draw && f.remedy != Remedy::None)
            .filter(|f| !matches!(f.remedy, Remedy::Enable { feature } if feature.starts_with("robust")))
            .map(|f| f.remedy)
            .collect()
    };
    assert_eq!(
        draw_remedies(&DeviceProfile::vulkan_required()),
        [Remedy::RewriteIndices]
    );
    assert_eq!(
        draw_remedies(&DeviceProfile::wgpu_default()),
        [Remedy::RewriteIndices]
    );
    assert!(matches!(
        draw_remedies(&h200())[..],
        [Remedy::Enable { .. }]
    ));
    assert!(lower::lower(&l, &shape, &h200()).state.primitive_restart);
}

#[test]
fn limits_unbound_slots_and_alignment() {
    // Slot 20 is past the required 16 bindings; element 1 sits at offset 2 (WebGPU needs 4);
    // slot 3 is left unbound.
    let l = layout(&[
        InputElementDesc::per_vertex("P", 0, Format::R16_UNORM, 20, 0),
        InputElementDesc::per_vertex("Q", 0, Format::R16_UNORM, 20, 2),
        InputElementDesc::per_vertex("R", 0, Format::R8G8B8A8_UINT, 3, 0),
    ]);
    let mut shape = DrawShape::tight(&l, Topology::PointList, false);
    shape.strides.retain(|(s, _)| *s != 3);
    let vk = lower::lower(&l, &shape, &DeviceProfile::vulkan_required());
    assert!(vk.findings.iter().any(|f| f.subject == Subject::Slot(20)
        && matches!(f.remedy, Remedy::Rebind { binding } if binding < 16)));
    let zero: Vec<_> = vk
        .findings_for(Subject::Slot(3))
        .map(|f| &f.remedy)
        .collect();
    assert_eq!(zero, [&Remedy::ZeroBuffer]);
    let r = vk.state.attributes.iter().find(|a| a.element == 2).unwrap();
    assert_eq!(
        r.format.name, "R32G32B32A32_UINT",
        "an unbound slot reads four zero lanes"
    );
    assert_eq!(
        vk.state
            .bindings
            .iter()
            .find(|b| b.slot == Some(3))
            .unwrap()
            .stride,
        0
    );

    let wg = lower::lower(&l, &shape, &DeviceProfile::wgpu_default());
    let q: Vec<_> = wg
        .findings_for(Subject::Element(1))
        .map(|f| &f.remedy)
        .collect();
    assert!(matches!(q[..], [Remedy::ConvertFormat { to, exact: true }] if to.name == "Float32"));
    // WebGPU buffers are positional.
    let numbers: Vec<_> = wg.state.bindings.iter().map(|b| b.binding).collect();
    assert_eq!(numbers, [0, 1, 2]);
}

/// WebGPU spec §"GPUVertexBufferLayout": `arrayStride` must be a multiple of 4. A slot of
/// stride 2 is restrided: its elements go through the conversion on the slot's own binding
/// (so no stride-2 buffer is left in the state, which wgpu refuses even without attributes),
/// and the lowered stride is the packed lanes' 4 bytes. Found by the wgpu suite of
/// `crates/inlay-gpu` (`--api wgpu`).
#[test]
fn a_stride_webgpu_cannot_take_is_restrided_on_its_own_binding() {
    let l = layout(&[InputElementDesc::per_vertex(
        "P",
        0,
        Format::R16_UNORM,
        0,
        0,
    )]);
    let shape = DrawShape::tight(&l, Topology::PointList, false);
    assert_eq!(shape.strides, [(0, 2)]);
    let wg = lower::lower(&l, &shape, &DeviceProfile::wgpu_default());
    let slot: Vec<_> = wg
        .findings_for(Subject::Slot(0))
        .map(|f| &f.remedy)
        .collect();
    assert_eq!(slot, [&Remedy::Restride]);
    assert!(matches!(
        wg.findings_for(Subject::Element(0)).map(|f| &f.remedy).collect::<Vec<_>>()[..],
        [Remedy::ConvertFormat { to, exact: true }] if to.name == "Float32"
    ));
    assert_eq!(wg.state.bindings.len(), 1, "{:?}", wg.state.bindings);
    let b = &wg.state.bindings[0];
    assert_eq!(
        (b.binding, b.slot, b.source, b.stride),
        (0, Some(0), BindingSource::Converted, 4)
    );
    let a = &wg.state.attributes[0];
    assert_eq!((a.binding, a.offset, a.format.name), (0, 0, "Float32"));
    assert_eq!(wg.converted_elements(&l), [(0, 0, 1)]);
    // The packed stream holds the registers: 0xffff is 1.0, 0 is 0.0.
    let data = [0xff, 0xff, 0x00, 0x00];
    let out = lower::convert_elements(
        &l,
        &[(0, 1)],
        SlotData {
            data: &data,
            stride: 2,
            offset: 0,
        },
        0,
        2,
        1 << 20,
    )
    .unwrap();
    assert_eq!(out, [0x00, 0x00, 0x80, 0x3f, 0, 0, 0, 0]);
    // Vulkan takes stride 2: nothing to do there.
    let vk = lower::lower(&l, &shape, &DeviceProfile::vulkan_required());
    assert_eq!(vk.state.bindings[0].stride, 2);
    assert_eq!(vk.findings_for(Subject::Slot(0)).count(), 0);
}

#[test]
fn convert_elements_writes_the_registers_direct3d_delivers() {
    let l = layout(&[
        InputElementDesc::per_vertex("C", 0, Format::B5G6R5_UNORM, 0, 0),
        InputElementDesc::per_vertex("X", 0, Format::B8G8R8X8_UNORM, 0, 4),
    ]);
    // Vertex 0: B5G6R5 0xffff (all ones) and BGRX (0x00, 0xff, 0x80, 0x12).
    let data = [0xff, 0xff, 0xaa, 0xaa, 0x00, 0xff, 0x80, 0x12];
    let slot = SlotData {
        data: &data,
        stride: 8,
        offset: 0,
    };
    let out = lower::convert_elements(&l, &[(0, 3), (1, 3)], slot, 0, 2, 1 << 20).unwrap();
    let words: Vec<u32> = out
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    // 0x80 / 255 correctly rounded to f32 is 0x3f008081; 0xff → 1.0; X is dropped, w defaults.
    assert_eq!(
        &words[..6],
        [
            0x3f80_0000,
            0x3f80_0000,
            0x3f80_0000,
            0x3f00_8081,
            0x3f80_0000,
            0
        ]
    );
    // Vertex 1 is out of bounds: zeros in the present lanes.
    assert_eq!(&words[6..], [0; 6]);
    assert!(matches!(
        lower::convert_elements(&l, &[(0, 3)], slot, 0, 1 << 40, 1 << 20),
        Err(lower::remedy::RemedyError::TooLarge { .. })
    ));
}

#[test]
fn expand_instances_follows_the_step_rate_rule() {
    let src: Vec<u8> = (0u8..8).collect(); // 8 one-byte instance elements
    let slot = SlotData {
        data: &src,
        stride: 1,
        offset: 0,
    };
    // Rate 3, StartInstanceLocation 2, 7 instances: element 2 + j/3.
    let e = lower::expand_instances(slot, 3, 2, 7, 1 << 20).unwrap();
    assert_eq!(e, [0, 0, 2, 2, 2, 3, 3, 3, 4]);
    // Rate 0: every instance reads element StartInstanceLocation.
    let z = lower::expand_instances(slot, 0, 5, 3, 1 << 20).unwrap();
    assert_eq!(z, [0, 0, 0, 0, 0, 5, 5, 5]);
    assert!(lower::expand_instances(slot, 1, 0, u32::MAX, 1 << 20).is_err());
}

#[test]
fn list_cuts_drop_the_partial_primitive() {
    let cut = 0xffff;
    assert_eq!(
        lower::rewrite_list_cuts(&[0, 1, 2, 3, cut, 4, 5, 6, 7, 8, 9, cut, 10, 11], cut, 3),
        [0, 1, 2, 4, 5, 6, 7, 8, 9]
    );
    assert_eq!(
        lower::rewrite_list_cuts(&[0, 1, cut, 2, 3], cut, 2),
        [0, 1, 2, 3]
    );
}

#[test]
fn profiles_reject_unknown_formats() {
    let mut p = DeviceProfile::vulkan_required();
    p.vertex_formats.push("R9G9B9_BOGUS".into());
    let err = DeviceProfile::from_json(&p.to_json()).unwrap_err();
    assert!(err.to_string().contains("R9G9B9_BOGUS"), "{err}");
    assert_eq!(h200().api, TargetApi::Vulkan);
    assert!(DeviceProfile::from_json("{").is_err());
}

#[cfg(feature = "vulkan")]
#[test]
fn vulkan_structures() {
    let l = layout(&[
        InputElementDesc::per_vertex("P", 0, Format::R32G32B32_FLOAT, 0, 0),
        inst("I", Format::R8G8B8A8_UINT, 1, 0, 3),
    ]);
    let low = lower::lower(
        &l,
        &DrawShape::tight(&l, Topology::LineStrip, true),
        &h200(),
    );
    let v = low.state.to_vulkan().unwrap();
    assert_eq!(v.bindings.len(), 2);
    assert_eq!(v.bindings[1].input_rate, ash::vk::VertexInputRate::INSTANCE);
    assert_eq!(v.divisors.len(), 1);
    assert_eq!((v.divisors[0].binding, v.divisors[0].divisor), (1, 3));
    assert_eq!(v.attributes[1].format, ash::vk::Format::R8G8B8A8_UINT);
    assert_eq!(v.topology, ash::vk::PrimitiveTopology::LINE_STRIP);
    assert!(v.primitive_restart);
}

#[cfg(feature = "wgpu")]
#[test]
fn wgpu_structures() {
    let l = layout(&[
        InputElementDesc::per_vertex("P", 0, Format::R32G32B32_FLOAT, 0, 0),
        InputElementDesc::per_vertex("C", 0, Format::B8G8R8A8_UNORM, 0, 12),
    ]);
    let low = lower::lower(
        &l,
        &DrawShape::tight(&l, Topology::TriangleList, false),
        &DeviceProfile::wgpu_default(),
    );
    let w = low.state.to_wgpu().unwrap();
    assert_eq!(w.buffers.len(), 1);
    let (stride, step, attrs) = &w.buffers[0];
    assert_eq!((*stride, *step), (16, wgpu_types::VertexStepMode::Vertex));
    assert_eq!(attrs[1].format, wgpu_types::VertexFormat::Unorm8x4Bgra);
    assert_eq!(attrs[1].offset, 12);
    assert_eq!(
        w.topology,
        Some(wgpu_types::PrimitiveTopology::TriangleList)
    );
}

/// d3d12-rules.md P24: a D3D12 layout lowers like a D3D11 one plus what D3D12 changes —
/// strides set with the views (Vulkan dynamic stride state; a non-zero stride below the
/// attributes' extent needs restriding), and strip cuts at the pipeline's value for strips
/// only, whatever the index format.
#[test]
fn d3d12_layouts() {
    use inlay::buffer::IndexFormat::{R16Uint, R32Uint};
    use inlay::layout::StripCut;
    use inlay::target::{Api, FeatureLevel};
    let elements = [InputElementDesc::per_vertex(
        "POSITION",
        0,
        Format::R32G32B32_FLOAT,
        0,
        0,
    )];
    let t12 = Target::new(Api::D3D12, FeatureLevel::L12_0);
    let layout12 = |cut: StripCut, ty| {
        inlay::CreateInputLayout::new(&t12, &elements)
            .pipeline(inlay::PipelineDesc {
                ib_strip_cut_value: cut.d3d12_value(),
                primitive_topology_type: ty,
                ..Default::default()
            })
            .without_shader()
            .into_result()
            .unwrap()
    };
    let vk = DeviceProfile::vulkan_required();
    let draw = |t: Topology, f| {
        let mut s = DrawShape::tight(&layout12(StripCut::Disabled, 3), t, true);
        s.index_format = Some(f);
        s
    };
    let dynamic = Remedy::Enable {
        feature: "VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE (extendedDynamicState)",
    };
    // (cut, topology, index format) → restart, cut remedy.
    let rows: [(StripCut, Topology, _, bool, Option<Remedy>); 7] = [
        (
            StripCut::Cut16,
            Topology::TriangleStrip,
            R16Uint,
            true,
            None,
        ),
        // The buffer may also hold 0xFFFFFFFF, a vertex here: no restart value expresses
        // both, so the strip is unrolled (with --no-all-ones it is ReplaceIndex, below).
        (
            StripCut::Cut16,
            Topology::TriangleStrip,
            R32Uint,
            false,
            Some(Remedy::StripToList { cut: Some(0xffff) }),
        ),
        (
            StripCut::Cut32,
            Topology::TriangleStrip,
            R16Uint,
            false,
            None,
        ),
        (
            StripCut::Cut32,
            Topology::TriangleStrip,
            R32Uint,
            true,
            None,
        ),
        (
            StripCut::Disabled,
            Topology::TriangleStrip,
            R32Uint,
            false,
            None,
        ),
        // Lists never cut in D3D12: restart off, nothing to rewrite (D3D11 rewrites).
        (
            StripCut::Cut32,
            Topology::TriangleList,
            R32Uint,
            false,
            None,
        ),
        (StripCut::Cut16, Topology::LineList, R16Uint, false, None),
    ];
    for (cut, topology, format, restart, remedy) in rows {
        let layout = layout12(cut, topology.topology_type().d3d12_value());
        let l = lower::lower(&layout, &draw(topology, format), &vk);
        assert_eq!(
            l.state.primitive_restart, restart,
            "{cut:?} {topology} {format}"
        );
        let draw_remedies: Vec<&Remedy> = l
            .findings_for(Subject::Draw)
            .map(|f| &f.remedy)
            .filter(|r| !matches!(r, Remedy::None | Remedy::Enable { .. }))
            .collect();
        assert_eq!(draw_remedies, remedy.iter().collect::<Vec<_>>());
        assert!(l.findings.iter().any(|f| f.remedy == dynamic));
    }
    // Cut 0xFFFF in 32-bit indices that hold no 0xFFFFFFFF: rewrite 0xFFFF to the target's
    // restart value, restart on, the strip stays a strip.
    let layout = layout12(StripCut::Cut16, 3);
    let mut s = draw(Topology::TriangleStrip, R32Uint);
    s.may_cut = false;
    let l = lower::lower(&layout, &s, &vk);
    assert!(l.state.primitive_restart);
    assert_eq!(l.state.topology, Some("TRIANGLE_STRIP"));
    assert!(l.findings.iter().any(|f| f.remedy
        == Remedy::ReplaceIndex {
            from: 0xffff,
            to: 0xffff_ffff
        }));
    // The unrolled strip is drawn as a list.
    let l = lower::lower(&layout, &draw(Topology::TriangleStrip, R32Uint), &vk);
    assert_eq!(l.state.topology, Some("TRIANGLE_LIST"));
    // The same list with cuts under D3D11 needs a remedy.
    let l11 = inlay::layout_without_shader(&Target::default(), &elements)
        .into_result()
        .unwrap();
    let mut s = DrawShape::tight(&l11, Topology::TriangleList, true);
    s.index_format = Some(R32Uint);
    let l = lower::lower(&l11, &s, &vk);
    assert!(
        l.findings
            .iter()
            .any(|f| f.remedy == Remedy::RewriteIndices)
    );
    assert!(!l.findings.iter().any(|f| f.remedy == dynamic));
    // A stride of 4 below the element's 12 bytes: Vulkan's dynamic strides refuse it.
    let layout = layout12(StripCut::Disabled, 3);
    let mut s = DrawShape::tight(&layout, Topology::TriangleList, false);
    s.strides = vec![(0, 4)];
    let l = lower::lower(&layout, &s, &vk);
    assert!(
        l.findings_for(Subject::Slot(0))
            .any(|f| f.remedy == Remedy::Restride)
    );
    s.strides = vec![(0, 0)];
    let l = lower::lower(&layout, &s, &vk);
    assert!(l.findings_for(Subject::Slot(0)).next().is_none());
}

/// d3d12-rules.md P24 on WebGPU, which restarts every indexed strip at the index format's
/// all-ones value and cannot turn restart off (WebGPU spec §"Primitive Assembly"; CTS
/// `vertex_state/index_format`): where that value is a vertex in D3D12 the lowering widens
/// 16-bit indices or unrolls 32-bit strips; Vulkan turns restart off instead.
#[test]
fn d3d12_strips_whose_all_ones_index_is_a_vertex() {
    use inlay::buffer::IndexFormat::{self, R16Uint, R32Uint};
    use inlay::layout::StripCut;
    use inlay::target::{Api, FeatureLevel};
    let elements = [InputElementDesc::per_vertex(
        "POSITION",
        0,
        Format::R32G32B32_FLOAT,
        0,
        0,
    )];
    let t12 = Target::new(Api::D3D12, FeatureLevel::L12_0);
    let layout12 = |cut: StripCut| {
        inlay::CreateInputLayout::new(&t12, &elements)
            .pipeline(inlay::PipelineDesc {
                ib_strip_cut_value: cut.d3d12_value(),
                primitive_topology_type: 3,
                ..Default::default()
            })
            .without_shader()
            .into_result()
            .unwrap()
    };
    let wg = DeviceProfile::wgpu_default();
    let vk = DeviceProfile::vulkan_required();
    let lowered = |cut, topology, format: IndexFormat, may_cut, profile: &DeviceProfile| {
        let layout = layout12(cut);
        let mut s = DrawShape::tight(&layout, topology, true);
        s.index_format = Some(format);
        s.may_cut = may_cut;
        lower::lower(&layout, &s, profile)
    };
    let cut_remedies = |l: &lower::Lowering| -> Vec<Remedy> {
        l.findings_for(Subject::Draw)
            .map(|f| f.remedy.clone())
            .filter(|r| {
                matches!(
                    r,
                    Remedy::WidenIndices | Remedy::StripToList { .. } | Remedy::ReplaceIndex { .. }
                )
            })
            .collect()
    };
    // (cut, topology, format, may hold all-ones) → WebGPU (topology, restart, remedy).
    type Row = (
        StripCut,
        Topology,
        IndexFormat,
        bool,
        &'static str,
        bool,
        Option<Remedy>,
    );
    let rows: [Row; 9] = [
        // Strip cut disabled, 16-bit: widen, still a strip with a 32-bit strip format.
        (
            StripCut::Disabled,
            Topology::TriangleStrip,
            R16Uint,
            true,
            "TriangleStrip",
            true,
            Some(Remedy::WidenIndices),
        ),
        (
            StripCut::Disabled,
            Topology::LineStrip,
            R16Uint,
            true,
            "LineStrip",
            true,
            Some(Remedy::WidenIndices),
        ),
        // 0xFFFFFFFF never equals a 16-bit index: D3D12 never cuts: widen.
        (
            StripCut::Cut32,
            Topology::TriangleStrip,
            R16Uint,
            true,
            "TriangleStrip",
            true,
            Some(Remedy::WidenIndices),
        ),
        // Strip cut disabled, 32-bit: no wider index exists: unroll to a list.
        (
            StripCut::Disabled,
            Topology::TriangleStrip,
            R32Uint,
            true,
            "TriangleList",
            false,
            Some(Remedy::StripToList { cut: None }),
        ),
        (
            StripCut::Disabled,
            Topology::LineStrip,
            R32Uint,
            true,
            "LineList",
            false,
            Some(Remedy::StripToList { cut: None }),
        ),
        (
            StripCut::Cut16,
            Topology::TriangleStrip,
            R32Uint,
            true,
            "TriangleList",
            false,
            Some(Remedy::StripToList { cut: Some(0xffff) }),
        ),
        // No all-ones index in the buffer: nothing to do.
        (
            StripCut::Disabled,
            Topology::TriangleStrip,
            R16Uint,
            false,
            "TriangleStrip",
            true,
            None,
        ),
        // Matching cut values restart natively; lists never restart.
        (
            StripCut::Cut16,
            Topology::TriangleStrip,
            R16Uint,
            true,
            "TriangleStrip",
            true,
            None,
        ),
        (
            StripCut::Disabled,
            Topology::TriangleList,
            R16Uint,
            true,
            "TriangleList",
            false,
            None,
        ),
    ];
    for (cut, topology, format, may_cut, drawn, restart, remedy) in rows {
        let what = format!("{cut:?} {topology} {format} may_cut={may_cut}");
        let l = lowered(cut, topology, format, may_cut, &wg);
        assert_eq!(l.state.topology, Some(drawn), "{what}");
        assert_eq!(l.state.primitive_restart, restart, "{what}");
        assert_eq!(
            cut_remedies(&l),
            remedy.iter().cloned().collect::<Vec<_>>(),
            "{what}"
        );
        // Vulkan: a disabled cut or one the format cannot hold is restart off, no remedy.
        if cut == StripCut::Disabled || (cut == StripCut::Cut32 && format == R16Uint) {
            let v = lowered(cut, topology, format, may_cut, &vk);
            assert!(!v.state.primitive_restart, "{what}");
            let native = match topology {
                Topology::TriangleStrip => "TRIANGLE_STRIP",
                Topology::LineStrip => "LINE_STRIP",
                _ => "TRIANGLE_LIST",
            };
            assert_eq!(v.state.topology, Some(native), "{what}");
            assert!(cut_remedies(&v).is_empty(), "{what}");
        }
    }
}

/// The remedies' data, against bytes written out by hand.
#[test]
fn d3d12_strip_remedies_exact_bytes() {
    // Widening: each little-endian 16-bit index zero-extended to 32 bits.
    let r16 = [0x00, 0x00, 0xff, 0xff, 0x34, 0x12, 0xfe, 0xff];
    assert_eq!(
        lower::widen_indices(&r16).unwrap(),
        vec![
            0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0x00, 0x00, 0x34, 0x12, 0x00, 0x00, 0xfe, 0xff,
            0x00, 0x00
        ]
    );
    assert!(lower::widen_indices(&r16[..3]).is_err());

    // A triangle strip whose 0xFFFFFFFF is a vertex (cut disabled): triangles k even
    // (k, k+1, k+2), k odd (k, k+2, k+1).
    let strip = [5, 6, 0xffff_ffff, 7, 8];
    let (t, list) = lower::strip_to_list(&strip, None, Topology::TriangleStrip, 100).unwrap();
    assert_eq!(t, Topology::TriangleList);
    assert_eq!(
        list,
        vec![5, 6, 0xffff_ffff, 6, 7, 0xffff_ffff, 0xffff_ffff, 7, 8]
    );
    // Cut 0xFFFF in 32-bit indices: 0xFFFF ends the strip, 0xFFFFFFFF is a vertex, and the
    // partial strip before the second cut (one vertex) draws nothing.
    let strip = [0, 1, 2, 3, 0xffff, 9, 0xffff, 0xffff_ffff, 4, 5];
    let (_, list) =
        lower::strip_to_list(&strip, Some(0xffff), Topology::TriangleStrip, 100).unwrap();
    assert_eq!(list, vec![0, 1, 2, 1, 3, 2, 0xffff_ffff, 4, 5]);
    // A line strip: each segment.
    let (t, list) =
        lower::strip_to_list(&[1, 0xffff_ffff, 3], None, Topology::LineStrip, 100).unwrap();
    assert_eq!(t, Topology::LineList);
    assert_eq!(list, vec![1, 0xffff_ffff, 0xffff_ffff, 3]);
    // A triangle strip with adjacency of 8 vertices: two triangles (ia-semantics §6.2 table:
    // first of several = 0 1 2 6 4 3; last, k = 1 odd = 2k 2k+3 2k+4 2k+5 2k+2 2k-2).
    let (t, list) = lower::strip_to_list(
        &[0, 1, 2, 3, 4, 5, 6, 7],
        None,
        Topology::TriangleStripAdj,
        100,
    )
    .unwrap();
    assert_eq!(t, Topology::TriangleListAdj);
    assert_eq!(list, vec![0, 1, 2, 6, 4, 3, 2, 5, 6, 7, 4, 0]);
    // Bounded: more than `limit` indices is an error, and a list is no strip.
    assert!(lower::strip_to_list(&[0, 1, 2, 3], None, Topology::TriangleStrip, 5).is_err());
    assert!(lower::strip_to_list(&[0, 1, 2], None, Topology::TriangleList, 100).is_err());
}
