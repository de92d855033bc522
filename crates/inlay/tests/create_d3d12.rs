//! The input-layout part of `ID3D12Device::CreateGraphicsPipelineState` (d3d12-rules.md):
//! the layouts of vkd3d-proton's tests (which run on Windows) with their recorded results,
//! the pipeline-state fields (root signature flag, strip cut, topology type), DXIL bytecode
//! with every digest form, and the D3D12 message numbers.

use inlay::diag::{HResult, MessageId};
use inlay::dxbc::dxil::{DigestKind, DxilBlob};
use inlay::dxbc::{ComponentType, MinPrecision, Signature, SignatureElement, SystemValue};
use inlay::element::{APPEND_ALIGNED_ELEMENT as APPEND, InputElementDesc};
use inlay::format::Format;
use inlay::layout::{StripCut, TopologyType};
use inlay::target::{Api, FeatureLevel, Target};
use inlay::validation::{SignatureProblem, read_input_signature_for};
use inlay::{CreateInputLayout, Creation, PipelineDesc};

const D3D12: Target = Target::new(Api::D3D12, FeatureLevel::L12_0);

fn entry(name: &str, index: u32, register: u32, ty: ComponentType, mask: u8) -> SignatureElement {
    SignatureElement {
        stream: 0,
        semantic_name: name.to_string(),
        semantic_index: index,
        system_value: SystemValue::UNDEFINED,
        component_type: ty,
        register,
        mask,
        read_write_mask: mask,
        min_precision: MinPrecision(0),
    }
}

fn f32e(name: &str, index: u32, register: u32) -> SignatureElement {
    entry(name, index, register, ComponentType::FLOAT32, 0xf)
}

/// A vs_6_0 DXIL container with this input signature, made by inlay's writer.
fn vs(input: Vec<SignatureElement>, digest: DigestKind) -> Vec<u8> {
    DxilBlob {
        program_version: 0x0001_0060,
        dxil_version: 0x0100,
        bitcode: b"BC\xc0\xde\x01".to_vec(),
        input: Signature { elements: input },
        output: Signature {
            elements: vec![SignatureElement {
                system_value: SystemValue::POSITION,
                ..f32e("SV_Position", 0, 0)
            }],
        },
        psv: None,
        feature_flags: Some(0),
        digest: Some(digest),
    }
    .write()
}

fn ids(c: &Creation) -> (Vec<u32>, Vec<u32>) {
    (
        c.error_ids().iter().map(|m| m.0).collect(),
        c.warning_ids().iter().map(|m| m.0).collect(),
    )
}

fn pso(elements: &[InputElementDesc], bytecode: &[u8], pipeline: PipelineDesc) -> Creation {
    CreateInputLayout::new(&D3D12, elements)
        .pipeline(pipeline)
        .bytecode(bytecode)
}

fn vtx(name: &str, index: u32, format: Format, slot: u32, offset: u32) -> InputElementDesc {
    InputElementDesc::per_vertex(name, index, format, slot, offset)
}

fn inst(name: &str, index: u32, format: Format, slot: u32, step: u32) -> InputElementDesc {
    InputElementDesc::per_instance(name, index, format, slot, APPEND, step)
}

/// vkd3d-proton `test_append_aligned_element` (d3d12_pso.c): five APPEND_ALIGNED elements in
/// slots 1, 5, 0, 5, 1 with mixed-case names; S_OK, and the colours it reads back put COLOR2 and
/// COLOR3 at 0 and COLOR1 and COLOR0 at 8 of their slots (P9, R26).
#[test]
fn append_aligned_element_of_vkd3d_proton() {
    let elements = [
        inst("CoLoR", 2, Format::R32G32_FLOAT, 1, 1),
        inst("ColoR", 3, Format::R32G32_FLOAT, 5, 1),
        vtx("POSITION", 0, Format::R32G32B32A32_FLOAT, 0, APPEND),
        inst("ColoR", 0, Format::R32G32_FLOAT, 5, 1),
        inst("cOLOr", 1, Format::R32G32_FLOAT, 1, 1),
    ];
    let blob = vs(
        vec![
            f32e("POSITION", 0, 0),
            entry("COLOR", 0, 1, ComponentType::FLOAT32, 3),
            entry("COLOR", 1, 2, ComponentType::FLOAT32, 3),
            entry("COLOR", 2, 3, ComponentType::FLOAT32, 3),
            entry("COLOR", 3, 4, ComponentType::FLOAT32, 3),
        ],
        DigestKind::Valid,
    );
    let c = pso(&elements, &blob, PipelineDesc::default());
    assert_eq!(c.hresult, HResult::S_OK, "{:?}", c.diagnostics);
    assert_eq!(ids(&c), (vec![], vec![]));
    let layout = c.into_result().unwrap();
    let offsets: Vec<u32> = layout.elements().iter().map(|e| e.offset).collect();
    assert_eq!(offsets, [0, 0, 0, 8, 8]);
    let registers: Vec<Option<u32>> = layout.elements().iter().map(|e| e.register).collect();
    assert_eq!(registers, [Some(3), Some(4), Some(0), Some(1), Some(2)]);
    let p = layout.pipeline().unwrap();
    assert_eq!(p.strip_cut, StripCut::Disabled);
    assert_eq!(p.topology_type, TopologyType::Triangle);
}

/// vkd3d-proton `test_primitive_restart`: the same layout is created with each strip-cut
/// value (S_OK each time, whatever index format the draws later use; P12).
#[test]
fn every_strip_cut_value_creates() {
    let elements = [vtx("position", 0, Format::R8G8_SINT, 0, 0)];
    let blob = vs(
        vec![entry("POSITION", 0, 0, ComponentType::SINT32, 0xf)],
        DigestKind::Valid,
    );
    for (value, cut) in [
        (0, StripCut::Disabled),
        (1, StripCut::Cut16),
        (2, StripCut::Cut32),
    ] {
        let c = pso(
            &elements,
            &blob,
            PipelineDesc {
                ib_strip_cut_value: value,
                ..PipelineDesc::default()
            },
        );
        assert_eq!(c.hresult, HResult::S_OK);
        assert_eq!(c.into_result().unwrap().pipeline().unwrap().strip_cut, cut);
    }
    let c = pso(
        &elements,
        &blob,
        PipelineDesc {
            ib_strip_cut_value: 3,
            ..PipelineDesc::default()
        },
    );
    assert_eq!(c.hresult, HResult::E_INVALIDARG);
    assert_eq!(ids(&c), (vec![684], vec![]));
}

/// vkd3d-proton / Wine `test_instance_id` and `test_zero_vertex_stride`: per-instance
/// elements with step rate 0, 1 and 2 are created (P9).
#[test]
fn per_instance_step_rates_create() {
    let blob = vs(
        vec![
            f32e("POSITION", 0, 0),
            entry("COLOR", 0, 1, ComponentType::FLOAT32, 1),
            entry("V_OFFSET", 0, 2, ComponentType::FLOAT32, 1),
            SignatureElement {
                system_value: SystemValue::INSTANCE_ID,
                ..entry("SV_InstanceID", 0, 3, ComponentType::UINT32, 1)
            },
        ],
        DigestKind::Valid,
    );
    for step in [0, 1, 2] {
        let elements = [
            vtx("position", 0, Format::R32G32B32A32_FLOAT, 0, APPEND),
            inst("color", 0, Format::R8_UNORM, 1, step),
            inst("v_offset", 0, Format::R32_FLOAT, 2, 1),
        ];
        let c = pso(&elements, &blob, PipelineDesc::default());
        assert_eq!(ids(&c), (vec![], vec![]), "step {step}");
        let layout = c.into_result().unwrap();
        assert_eq!(layout.slot(1).unwrap().step_rate, step);
    }
}

/// P10: a layout with elements needs ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT; an empty one does
/// not. P8: `{NULL, 0}` is no input layout at all (no message); a non-NULL empty array warns
/// EMPTY_LAYOUT (#253).
#[test]
fn root_signature_flag_and_empty_layouts() {
    let blob = vs(vec![f32e("POSITION", 0, 0)], DigestKind::Valid);
    let no_flags = PipelineDesc {
        root_signature_flags: 0,
        ..PipelineDesc::default()
    };
    let elements = [vtx("POSITION", 0, Format::R32G32B32A32_FLOAT, 0, 0)];
    let c = pso(&elements, &blob, no_flags);
    assert_eq!(c.hresult, HResult::E_INVALIDARG);
    assert_eq!(ids(&c), (vec![683], vec![]));
    assert_eq!(
        c.diagnostics[0].to_string(),
        "error #683 CREATEGRAPHICSPIPELINESTATE_MISSING_ROOT_SIGNATURE_FLAGS: the input layout \
         has 1 element(s) but the root signature's flags (0x0) lack \
         D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT (0x1) [P10]"
    );
    let no_inputs = vs(vec![], DigestKind::Valid);
    let c = CreateInputLayout::null_elements(&D3D12)
        .pipeline(no_flags)
        .bytecode(&no_inputs);
    assert_eq!((c.hresult, ids(&c)), (HResult::S_OK, (vec![], vec![])));
    assert!(c.layout.unwrap().elements().is_empty());
    let c = CreateInputLayout::new(&D3D12, &[])
        .pipeline(no_flags)
        .bytecode(&no_inputs);
    assert_eq!((c.hresult, ids(&c)), (HResult::S_OK, (vec![], vec![253])));
    let c = CreateInputLayout::null_elements(&D3D12)
        .num_elements(1)
        .bytecode(&no_inputs);
    assert_eq!(
        (c.hresult, ids(&c)),
        (HResult::E_INVALIDARG, (vec![0], vec![]))
    );
    // Without an input layout the shader's inputs go unfed: MISSINGELEMENT (#65).
    let c = CreateInputLayout::null_elements(&D3D12).bytecode(&blob);
    assert_eq!(ids(&c), (vec![65], vec![]));
}

/// P13: PrimitiveTopologyType UNDEFINED or past PATCH is refused (#673).
#[test]
fn topology_type() {
    let blob = vs(vec![], DigestKind::Valid);
    for (value, ok) in [
        (0, false),
        (1, true),
        (2, true),
        (3, true),
        (4, true),
        (5, false),
    ] {
        let c = CreateInputLayout::null_elements(&D3D12)
            .pipeline(PipelineDesc {
                primitive_topology_type: value,
                ..PipelineDesc::default()
            })
            .bytecode(&blob);
        assert_eq!(c.is_success(), ok, "type {value}");
        if !ok {
            assert_eq!(ids(&c), (vec![673], vec![]));
        } else {
            let t = c.layout.unwrap().pipeline().unwrap().topology_type;
            assert_eq!(t.d3d12_value(), value);
        }
    }
}

/// P3: the validator's hash and BYPASS run; zeros, PREVIEW and other digests are
/// UNPARSEABLEINPUTSIGNATURE (#63, the id the D3D12 debug layer printed for `-Vd` shaders,
/// DirectXShaderCompiler#2550). P2: the size field must equal the bytecode length.
#[test]
fn digests_and_sizes() {
    let elements = [vtx("POSITION", 0, Format::R32G32B32A32_FLOAT, 0, 0)];
    for (kind, ok) in [
        (DigestKind::Valid, true),
        (DigestKind::Bypass, true),
        (DigestKind::Zero, false),
        (DigestKind::Preview, false),
        (DigestKind::Mismatch, false),
    ] {
        let blob = vs(vec![f32e("POSITION", 0, 0)], kind);
        let c = pso(&elements, &blob, PipelineDesc::default());
        assert_eq!(c.is_success(), ok, "{kind:?}");
        if !ok {
            assert_eq!(ids(&c), (vec![63], vec![]));
        }
        let r = read_input_signature_for(Api::D3D12, &blob);
        match kind {
            DigestKind::Zero | DigestKind::Preview => {
                assert_eq!(r.unwrap_err(), SignatureProblem::Unsigned { kind })
            }
            DigestKind::Mismatch => {
                assert!(matches!(r, Err(SignatureProblem::Checksum { .. })))
            }
            _ => assert!(r.is_ok()),
        }
    }
    let mut longer = vs(vec![f32e("POSITION", 0, 0)], DigestKind::Valid);
    let declared = longer.len() as u32;
    longer.push(0);
    assert_eq!(
        read_input_signature_for(Api::D3D12, &longer).unwrap_err(),
        SignatureProblem::SizeMismatch {
            declared,
            length: longer.len()
        }
    );
    // D3D11 reads the same longer blob (bytes past the size field are ignored there).
    assert!(read_input_signature_for(Api::D3D11, &longer).is_ok());
}

/// P2: a DXIL container whose parts end unaligned (dxc writes exact lengths) is read by
/// D3D12 and refused by D3D11's alignment rule (R31, #161).
#[test]
fn unaligned_dxil_container_is_d3d12_only() {
    let blob = DxilBlob {
        program_version: 0x0001_0060,
        dxil_version: 0x0100,
        bitcode: vec![1, 2, 3, 4, 5],
        input: Signature {
            elements: vec![f32e("POSITION", 0, 0)],
        },
        output: Signature::default(),
        psv: Some(inlay::dxbc::dxil::Psv0 {
            runtime_info_size: 24,
            runtime_info: vec![0; 24],
            ..Default::default()
        }),
        feature_flags: Some(0),
        digest: Some(DigestKind::Valid),
    }
    .write();
    let elements = [vtx("POSITION", 0, Format::R32G32B32A32_FLOAT, 0, 0)];
    // PSV0 of 4 + 24 + 4 = 32 bytes, DXIL part of 29: the DXIL part is the last and ends
    // unaligned; add an odd SFI0-like part before it to misalign its start.
    assert!(pso(&elements, &blob, PipelineDesc::default()).is_success());
    let mut odd = blob.clone();
    let parts: Vec<([u8; 4], Vec<u8>)> = inlay::dxbc::Container::parse_detected(&blob)
        .unwrap()
        .chunks()
        .map(|c| (c.tag.0, c.data.to_vec()))
        .collect();
    let mut with_odd: Vec<([u8; 4], &[u8])> = vec![(*b"ODD1", &[7u8][..])];
    with_odd.extend(parts.iter().map(|(t, d)| (*t, d.as_slice())));
    odd.clear();
    odd.extend(inlay::dxbc::dxil::write_contiguous(&with_odd));
    let digest = inlay::dxbc::checksum(&odd);
    odd[4..20].copy_from_slice(&digest);
    assert!(pso(&elements, &odd, PipelineDesc::default()).is_success());
    let d3d11 = inlay::create_input_layout(&Target::default(), &elements, &odd);
    assert_eq!(
        d3d11.error_ids(),
        [MessageId::CREATEINPUTLAYOUT_UNPARSEABLEINPUTSIGNATURE]
    );
}

/// §C: the D3D12 debug layer's numbers for the input-layout messages it shares with D3D11.
#[test]
fn d3d12_message_numbers() {
    let blob = vs(
        vec![f32e("POSITION", 0, 0), f32e("TEXCOORD", 0, 1)],
        DigestKind::Valid,
    );
    let cases: Vec<(Vec<InputElementDesc>, Vec<u32>, Vec<u32>)> = vec![
        // MISSINGELEMENT 65 (TEXCOORD0), TRAILING_DIGIT 239.
        (
            vec![
                vtx("POSITION", 0, Format::R32G32B32_FLOAT, 0, 0),
                vtx("TEXCOORD0", 0, Format::R32G32_FLOAT, 0, 12),
            ],
            vec![65],
            vec![239],
        ),
        // DUPLICATESEMANTIC 62.
        (
            vec![
                vtx("POSITION", 0, Format::R32G32B32_FLOAT, 0, 0),
                vtx("texcoord", 0, Format::R32G32_FLOAT, 0, 12),
                vtx("TEXCOORD", 0, Format::R32G32_FLOAT, 0, 20),
            ],
            vec![62],
            vec![],
        ),
        // INVALIDSLOT 56, INVALIDFORMAT 54, INVALIDALIGNMENT 61, TYPE_MISMATCH 245.
        (
            vec![
                vtx("POSITION", 0, Format::R32G32B32_FLOAT, 32, 0),
                vtx("TEXCOORD", 0, Format::R32G32_FLOAT, 0, 2),
                vtx("EXTRA", 0, Format(0), 0, 0),
            ],
            vec![56, 61, 54],
            vec![],
        ),
        (
            vec![
                vtx("POSITION", 0, Format::R32G32B32_UINT, 0, 0),
                vtx("TEXCOORD", 0, Format::R32G32_FLOAT, 0, 12),
            ],
            vec![],
            vec![245],
        ),
        // INVALIDINPUTSLOTCLASS 57, STEPRATESLOTCLASSMISMATCH 58, slot class change 59,
        // step-rate change 60, NULLSEMANTIC 64.
        (
            vec![
                InputElementDesc {
                    input_slot_class: 7,
                    ..vtx("POSITION", 0, Format::R32G32B32_FLOAT, 0, 0)
                },
                InputElementDesc {
                    instance_data_step_rate: 3,
                    ..vtx("TEXCOORD", 0, Format::R32G32_FLOAT, 0, 12)
                },
                inst("A", 0, Format::R32_FLOAT, 1, 1),
                vtx("B", 0, Format::R32_FLOAT, 1, 8),
                inst("C", 0, Format::R32_FLOAT, 2, 1),
                inst("D", 0, Format::R32_FLOAT, 2, 2),
                InputElementDesc {
                    semantic_name: None,
                    ..vtx("E", 0, Format::R32_FLOAT, 3, 0)
                },
            ],
            vec![57, 58, 59, 60, 64],
            vec![],
        ),
    ];
    for (elements, errors, warnings) in cases {
        let c = pso(&elements, &blob, PipelineDesc::default());
        let (mut e, w) = ids(&c);
        e.sort();
        let mut want = errors.clone();
        want.sort();
        assert_eq!((e, w), (want, warnings), "{:#?}", c.diagnostics);
    }
    // 33 elements: TOOMANYELEMENTS 53.
    let many: Vec<InputElementDesc> = (0..33)
        .map(|i| vtx("E", i, Format::R32_FLOAT, 0, APPEND))
        .collect();
    let c = pso(&many, &blob, PipelineDesc::default());
    assert_eq!(ids(&c), (vec![53], vec![]));
}

/// P15: a 16-bit input is reported as type `unknown` by the D3D12 debug layer: TYPE_MISMATCH
/// (#245) whatever the format; D3D11 (which never sees such a type from fxc) says nothing.
#[test]
fn sixteen_bit_inputs_warn_under_d3d12() {
    let sig = vec![entry("TEXCOORD", 0, 0, ComponentType::FLOAT16, 3)];
    let elements = [vtx("TEXCOORD", 0, Format::R16G16_FLOAT, 0, 0)];
    let c = pso(
        &elements,
        &vs(sig.clone(), DigestKind::Valid),
        PipelineDesc::default(),
    );
    assert_eq!((c.hresult, ids(&c)), (HResult::S_OK, (vec![], vec![245])));
    let d3d11 = CreateInputLayout::new(&Target::default(), &elements)
        .signature(Ok(&Signature { elements: sig }));
    assert_eq!(ids(&d3d11), (vec![], vec![]));
}

/// P1: D3D12 devices are 11_0 to 12_2; the 12_x levels read 11_1's format column.
#[test]
fn d3d12_targets() {
    assert_eq!(Api::D3D12.feature_levels(), &FeatureLevel::D3D12);
    assert!(Target::checked(Api::D3D12, FeatureLevel::L10_0).is_err());
    let e = Target::checked(Api::D3D11, FeatureLevel::L12_1).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the d3d11 runtime has no feature level 12_1 devices (d3d11 creates 9_1 to 11_1; the \
         d3d12 runtime creates 12_1)"
    );
    for level in FeatureLevel::D3D12 {
        let t = Target::new(Api::D3D12, level);
        assert_eq!((t.max_input_slots(), t.max_elements()), (32, 32));
        assert!(t.supports_vertex_format(Format::R10G10B10A2_UNORM));
        assert!(!t.supports_vertex_format(Format::R8G8B8A8_UNORM_SRGB));
    }
    assert_eq!("d3d12".parse::<Api>(), Ok(Api::D3D12));
    assert_eq!("12_2".parse::<FeatureLevel>(), Ok(FeatureLevel::L12_2));
}

/// Listed choice 14 (d3d12-rules.md §E): D3D12's optional unrestricted vertex element
/// alignment (`UnrestrictedVertexElementAlignmentSupported`) is not modelled — R25 applies
/// under D3D12 as under D3D11: an explicit offset must be aligned to min(next_pow2(format
/// size), 4). A 4-byte format at offset 2 is refused, the same array at offset 4 created;
/// a 2-byte format at offset 2 is fine. Modelling the feature fails this test.
#[test]
fn choice_14_unrestricted_element_alignment_is_not_modelled() {
    let blob = vs(vec![f32e("A", 0, 0), f32e("B", 0, 1)], DigestKind::Valid);
    let layout =
        |f: Format, off: u32| [vtx("A", 0, Format::R16_UINT, 0, 0), vtx("B", 0, f, 0, off)];
    let refused = pso(
        &layout(Format::R32_FLOAT, 2),
        &blob,
        PipelineDesc::default(),
    );
    assert_eq!(refused.hresult, HResult::E_INVALIDARG);
    assert!(!refused.error_ids().is_empty());
    // The same rule (and message) as D3D11's.
    let d3d11 =
        CreateInputLayout::new(&Target::default(), &layout(Format::R32_FLOAT, 2)).without_shader();
    assert_eq!(d3d11.hresult, HResult::E_INVALIDARG);
    let text = |c: &Creation| -> Vec<String> { c.errors().map(|d| d.message.clone()).collect() };
    assert_eq!(text(&refused), text(&d3d11));
    assert!(
        pso(
            &layout(Format::R32_FLOAT, 4),
            &blob,
            PipelineDesc::default()
        )
        .is_success()
    );
    assert!(
        pso(
            &layout(Format::R16_FLOAT, 2),
            &blob,
            PipelineDesc::default()
        )
        .is_success()
    );
}

/// Listed choice 15 (d3d12-rules.md §E): an `IBStripCutValue` of 0xFFFF or 0xFFFFFFFF with a
/// POINT or PATCH topology type (which has no strips) is accepted, no message — no evidence of
/// a check — and the pipeline keeps the value (lists never cut with it, P19). A check added
/// later fails this test.
#[test]
fn choice_15_strip_cut_with_point_and_patch_types_is_accepted() {
    let elements = [vtx("position", 0, Format::R8G8_SINT, 0, 0)];
    let blob = vs(
        vec![entry("POSITION", 0, 0, ComponentType::SINT32, 0xf)],
        DigestKind::Valid,
    );
    for ty in [TopologyType::Point, TopologyType::Patch] {
        for (value, cut) in [(1, StripCut::Cut16), (2, StripCut::Cut32)] {
            let c = pso(
                &elements,
                &blob,
                PipelineDesc {
                    ib_strip_cut_value: value,
                    primitive_topology_type: ty.d3d12_value(),
                    ..PipelineDesc::default()
                },
            );
            assert_eq!(c.hresult, HResult::S_OK, "{ty:?} {value}");
            assert_eq!(ids(&c), (vec![], vec![]), "{ty:?} {value}");
            let p = *c.into_result().unwrap().pipeline().unwrap();
            assert_eq!((p.strip_cut, p.topology_type), (cut, ty));
        }
    }
}
