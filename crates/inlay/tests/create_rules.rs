//! CreateInputLayout rules R1–R43 (`createinputlayout-rules.md`): one or more tests per rule,
//! each asserting the exact HRESULT, the error and warning message ids and, on success, the
//! resolved offsets, registers and slots.

use inlay::diag::{HResult, MessageId};
use inlay::dxbc::signature::{
    ComponentType, MinPrecision, Signature, SignatureElement, SystemValue,
};
use inlay::dxbc::{DxbcError, FourCC};
use inlay::element::{APPEND_ALIGNED_ELEMENT as APPEND, InputElementDesc};
use inlay::format::Format;
use inlay::layout::InputClass;
use inlay::target::{Api, FeatureLevel, Target};
use inlay::validation::{Creation, SignatureProblem, layout_without_shader};

// ------------------------------------------------------------------------------------------
// Helpers

fn entry(name: &str, index: u32, register: u32, ty: ComponentType) -> SignatureElement {
    SignatureElement {
        stream: 0,
        semantic_name: name.to_string(),
        semantic_index: index,
        system_value: SystemValue::UNDEFINED,
        component_type: ty,
        register,
        mask: 0xf,
        read_write_mask: 0xf,
        min_precision: MinPrecision(0),
    }
}

fn float(name: &str, index: u32, register: u32) -> SignatureElement {
    entry(name, index, register, ComponentType::FLOAT32)
}

fn sig(entries: Vec<SignatureElement>) -> Signature {
    Signature { elements: entries }
}

/// The VS of the Wine tests: POSITION float4 in v0.
fn position_only() -> Signature {
    sig(vec![float("POSITION", 0, 0)])
}

fn vtx(name: &str, index: u32, format: Format, slot: u32, offset: u32) -> InputElementDesc {
    InputElementDesc::per_vertex(name, index, format, slot, offset)
}

fn inst(name: &str, format: Format, slot: u32, offset: u32, step: u32) -> InputElementDesc {
    InputElementDesc::per_instance(name, 0, format, slot, offset, step)
}

fn create_on(target: Target, elements: &[InputElementDesc], signature: &Signature) -> Creation {
    inlay::CreateInputLayout::new(&target, elements).signature(Ok(signature))
}

fn create(elements: &[InputElementDesc], signature: &Signature) -> Creation {
    create_on(Target::default(), elements, signature)
}

fn ids(v: &[u32]) -> Vec<MessageId> {
    v.iter().map(|&i| MessageId(i)).collect()
}

/// Asserts HRESULT, error ids and warning ids exactly.
#[track_caller]
fn check(c: &Creation, hresult: HResult, errors: &[u32], warnings: &[u32]) {
    assert_eq!(c.hresult, hresult, "diagnostics: {:#?}", c.diagnostics);
    assert_eq!(
        c.error_ids(),
        ids(errors),
        "diagnostics: {:#?}",
        c.diagnostics
    );
    assert_eq!(
        c.warning_ids(),
        ids(warnings),
        "diagnostics: {:#?}",
        c.diagnostics
    );
    assert_eq!(c.layout.is_some(), hresult.is_success());
    assert_eq!(c.is_success(), hresult.is_success());
}

fn offsets(c: &Creation) -> Vec<u32> {
    c.layout
        .as_ref()
        .expect("layout")
        .elements()
        .iter()
        .map(|e| e.offset)
        .collect()
}

fn registers(c: &Creation) -> Vec<Option<u32>> {
    c.layout
        .as_ref()
        .expect("layout")
        .elements()
        .iter()
        .map(|e| e.register)
        .collect()
}

fn t(api: Api, level: FeatureLevel) -> Target {
    Target::new(api, level)
}

/// `n` distinct extra elements (names E0_, E1_, …) of R32_FLOAT in slot 0.
fn many(n: usize) -> Vec<InputElementDesc> {
    (0..n)
        .map(|i| vtx(&format!("E{i}_"), 0, Format::R32_FLOAT, 0, APPEND))
        .collect()
}

// ------------------------------------------------------------------------------------------
// A. Pointer and count parameters

#[test]
fn r1_null_desc_fails_even_with_zero_count() {
    for count in [0, 2, u32::MAX] {
        let c = inlay::CreateInputLayout::null_elements(&Target::default())
            .num_elements(count)
            .signature(Ok(&Signature::default()));
        check(&c, HResult::E_INVALIDARG, &[164], &[]);
        assert_eq!(c.diagnostics[0].element, None);
    }
}

#[test]
fn r2_empty_layout_succeeds_only_when_nothing_is_needed() {
    let elements = [vtx("POSITION", 0, Format::R32G32B32A32_FLOAT, 0, 0)];
    let target = Target::default();
    // Count 0 with a non-NULL array against a shader without inputs: S_OK + warning 420.
    let c = inlay::CreateInputLayout::new(&target, &elements)
        .num_elements(0)
        .signature(Ok(&sig(vec![])));
    check(&c, HResult::S_OK, &[], &[420]);
    let layout = c.layout.unwrap();
    assert!(layout.elements().is_empty() && layout.slots().is_empty());
    // Only system-generated inputs: still nothing to feed.
    let ids_only = sig(vec![
        entry("SV_VertexID", 0, 0, ComponentType::UINT32),
        entry("SV_InstanceID", 0, 1, ComponentType::UINT32),
    ]);
    let c = inlay::CreateInputLayout::new(&target, &elements)
        .num_elements(0)
        .signature(Ok(&ids_only));
    check(&c, HResult::S_OK, &[], &[420]);
    // A shader that needs POSITION: missing element.
    let c = inlay::CreateInputLayout::new(&target, &elements)
        .num_elements(0)
        .signature(Ok(&position_only()));
    check(&c, HResult::E_INVALIDARG, &[163], &[420]);
    // An empty slice with count 0 is the same non-NULL empty array.
    let c = inlay::CreateInputLayout::new(&target, &[])
        .num_elements(0)
        .signature(Ok(&sig(vec![])));
    check(&c, HResult::S_OK, &[], &[420]);
}

#[test]
fn r3_too_many_elements() {
    let sig0 = Signature::default();
    // 32 is the D3D11 limit at 11_0.
    check(&create(&many(32), &sig0), HResult::S_OK, &[], &[]);
    check(
        &create(&many(33), &sig0),
        HResult::E_INVALIDARG,
        &[151],
        &[],
    );
    // D3D10: 16.
    let d3d10 = t(Api::D3D10, FeatureLevel::L10_0);
    check(&create_on(d3d10, &many(16), &sig0), HResult::S_OK, &[], &[]);
    check(
        &create_on(d3d10, &many(17), &sig0),
        HResult::E_INVALIDARG,
        &[151],
        &[],
    );
    // A million elements: one message, no per-element work.
    let huge = vec![vtx("X", 0, Format::R32_FLOAT, 0, 0); 1_000_000];
    let c = create(&huge, &sig0);
    check(&c, HResult::E_INVALIDARG, &[151], &[]);
    assert!(c.diagnostics[0].message.contains("1000000"));
    // The limit is checked before the array length: a huge count over a short array is 151.
    let c = inlay::CreateInputLayout::new(&Target::default(), &many(2))
        .num_elements(u32::MAX)
        .signature(Ok(&sig0));
    check(&c, HResult::E_INVALIDARG, &[151], &[]);
}

#[test]
fn count_larger_than_array_is_refused_without_reading_past_it() {
    let elements = many(3);
    let c = inlay::CreateInputLayout::new(&Target::default(), &elements)
        .num_elements(5)
        .signature(Ok(&Signature::default()));
    check(&c, HResult::E_INVALIDARG, &[0], &[]);
    assert!(c.diagnostics[0].message.contains("NumElements 5"));
    assert!(c.diagnostics[0].message.contains("3 element"));
}

#[test]
fn count_smaller_than_array_uses_the_prefix() {
    // The third element would be misaligned, but only two are passed.
    let mut elements = many(2);
    elements.push(vtx("BAD", 0, Format::R32_FLOAT, 0, 1));
    let c = inlay::CreateInputLayout::new(&Target::default(), &elements)
        .num_elements(2)
        .signature(Ok(&Signature::default()));
    check(&c, HResult::S_OK, &[], &[]);
    assert_eq!(offsets(&c), vec![0, 4]);
}

#[test]
fn r4_component_total_has_no_check_of_its_own() {
    // 32 four-component elements = 128 components, the D3D11 maximum: fine.
    let elements: Vec<_> = (0..32)
        .map(|i| vtx("T", i, Format::R32G32B32A32_FLOAT, i % 4, APPEND))
        .collect();
    let c = create(&elements, &Signature::default());
    check(&c, HResult::S_OK, &[], &[]);
    assert_eq!(c.layout.unwrap().slots()[0].min_stride, 8 * 16);
}

#[test]
fn r5_validate_only_returns_s_false() {
    let elements = [vtx("POSITION", 0, Format::R32G32B32A32_FLOAT, 0, 0)];
    let c = inlay::CreateInputLayout::new(&Target::default(), &elements)
        .num_elements(1)
        .validate_only(true)
        .signature(Ok(&position_only()));
    check(&c, HResult::S_FALSE, &[], &[]);
    assert_eq!(registers(&c), vec![Some(0)]);
    // Validation still runs: a failure is E_INVALIDARG, not S_FALSE.
    let bad = [vtx("POSITION", 0, Format::R32G32B32A32_FLOAT, 0, 2)];
    let c = inlay::CreateInputLayout::new(&Target::default(), &bad)
        .num_elements(1)
        .validate_only(true)
        .signature(Ok(&position_only()));
    check(&c, HResult::E_INVALIDARG, &[159], &[]);
}

#[test]
fn r6_failure_creates_no_layout() {
    let bad = [vtx("POSITION", 0, Format::UNKNOWN, 0, 0)];
    let c = create(&bad, &position_only());
    check(&c, HResult::E_INVALIDARG, &[152], &[]);
    assert!(c.layout.is_none());
}

#[test]
fn r7_created_layout_keeps_the_signature_it_was_matched_against() {
    let signature = position_only();
    let elements = [vtx("POSITION", 0, Format::R32G32B32A32_FLOAT, 0, 0)];
    let layout = create(&elements, &signature).layout.unwrap();
    assert_eq!(layout.signature(), &signature);
}

// ------------------------------------------------------------------------------------------
// B. Slots, classes, step rates

#[test]
fn r8_input_slot_range() {
    let sig0 = Signature::default();
    let at = |slot| [vtx("X", 0, Format::R32_FLOAT, slot, 0)];
    check(&create(&at(31), &sig0), HResult::S_OK, &[], &[]);
    let c = create(&at(32), &sig0);
    check(&c, HResult::E_INVALIDARG, &[154], &[]);
    assert_eq!(c.diagnostics[0].element, Some(0));
    check(
        &create(&at(u32::MAX), &sig0),
        HResult::E_INVALIDARG,
        &[154],
        &[],
    );
    for target in [
        t(Api::D3D11, FeatureLevel::L10_0),
        t(Api::D3D11, FeatureLevel::L9_3),
        t(Api::D3D10, FeatureLevel::L10_0),
        t(Api::D3D10_1, FeatureLevel::L10_0),
    ] {
        check(&create_on(target, &at(15), &sig0), HResult::S_OK, &[], &[]);
        check(
            &create_on(target, &at(16), &sig0),
            HResult::E_INVALIDARG,
            &[154],
            &[],
        );
    }
}

#[test]
fn r9_input_slot_class_must_be_0_or_1() {
    for class in [2, 7, u32::MAX] {
        let mut e = vtx("POSITION", 0, Format::R32G32B32A32_FLOAT, 0, 0);
        e.input_slot_class = class;
        let c = create(&[e], &position_only());
        check(&c, HResult::E_INVALIDARG, &[155], &[]);
        assert!(c.diagnostics[0].message.contains(&class.to_string()));
    }
}

#[test]
fn r10_per_vertex_step_rate_must_be_zero() {
    let mut e = vtx("POSITION", 0, Format::R32G32B32A32_FLOAT, 0, 0);
    e.instance_data_step_rate = 1;
    check(
        &create(&[e], &position_only()),
        HResult::E_INVALIDARG,
        &[156],
        &[],
    );
}

#[test]
fn r11_per_instance_any_step_rate() {
    for step in [0, 1, 2, 1000, u32::MAX] {
        let elements = [
            vtx("POSITION", 0, Format::R32G32B32A32_FLOAT, 0, 0),
            inst("COLOR", Format::R8G8B8A8_UNORM, 2, 0, step),
        ];
        let c = create(&elements, &position_only());
        check(&c, HResult::S_OK, &[], &[]);
        let layout = c.layout.unwrap();
        let slot = layout.slot(2).unwrap();
        assert_eq!(
            (slot.class, slot.step_rate, slot.min_stride),
            (InputClass::PerInstance, step, 4)
        );
        assert_eq!(layout.elements()[1].step_rate, step);
    }
}

#[test]
fn r12_one_class_per_slot_including_unused_elements() {
    // COLOR is not in the signature, yet its class conflicts with POSITION's (Wine test).
    let elements = [
        inst("POSITION", Format::R32G32B32A32_FLOAT, 0, 0, 0),
        vtx("COLOR", 0, Format::R32G32B32A32_FLOAT, 0, 16),
    ];
    let c = create(&elements, &position_only());
    check(&c, HResult::E_INVALIDARG, &[157], &[]);
    assert_eq!(c.diagnostics[0].element, Some(1));
    // The per-instance element alone is fine.
    let c = create(&elements[..1], &position_only());
    check(&c, HResult::S_OK, &[], &[]);
    // Different slots may differ.
    let elements = [
        inst("POSITION", Format::R32G32B32A32_FLOAT, 0, 0, 0),
        vtx("COLOR", 0, Format::R32G32B32A32_FLOAT, 1, 0),
    ];
    check(
        &create(&elements, &position_only()),
        HResult::S_OK,
        &[],
        &[],
    );
}

#[test]
fn r13_one_step_rate_per_instance_slot() {
    let elements = [
        vtx("POSITION", 0, Format::R32G32B32A32_FLOAT, 0, 0),
        inst("A", Format::R32_FLOAT, 1, 0, 1),
        inst("B", Format::R32_FLOAT, 1, 4, 2),
        inst("C", Format::R32_FLOAT, 1, 8, 1),
    ];
    let c = create(&elements, &position_only());
    check(&c, HResult::E_INVALIDARG, &[158], &[]);
    assert_eq!(c.diagnostics[0].element, Some(2));
    let mut ok = elements.clone();
    ok[2].instance_data_step_rate = 1;
    let c = create(&ok, &position_only());
    check(&c, HResult::S_OK, &[], &[]);
    assert_eq!(c.layout.unwrap().slot(1).unwrap().step_rate, 1);
}

// ------------------------------------------------------------------------------------------
// C. Names

#[test]
fn r14_null_semantic_name() {
    let mut e = vtx("X", 0, Format::R32_FLOAT, 0, 0);
    e.semantic_name = None;
    let c = create(std::slice::from_ref(&e), &Signature::default());
    check(&c, HResult::E_INVALIDARG, &[162], &[]);
    assert!(
        c.diagnostics[0]
            .message
            .contains("element 0 (NULL SemanticName")
    );
    // A NULL name supplies nothing.
    let c = create(&[e], &position_only());
    check(&c, HResult::E_INVALIDARG, &[162, 163], &[]);
}

#[test]
fn r15_names_match_case_insensitively() {
    let signature = sig(vec![
        float("POSITION", 0, 0),
        float("COLOR", 0, 1),
        float("sv_position", 0, 2),
        float("Normal", 3, 3),
    ]);
    let elements = [
        vtx("position", 0, Format::R32G32B32_FLOAT, 0, 0),
        vtx("cOLOr", 0, Format::R8G8B8A8_UNORM, 0, APPEND),
        vtx("SV_POSITION", 0, Format::R32G32_FLOAT, 1, 0),
        vtx("NORMAL", 3, Format::R32G32B32_FLOAT, 2, 0),
    ];
    let c = create(&elements, &signature);
    check(&c, HResult::S_OK, &[], &[]);
    assert_eq!(registers(&c), vec![Some(0), Some(1), Some(2), Some(3)]);
    assert_eq!(offsets(&c), vec![0, 12, 0, 0]);
}

#[test]
fn r16_trailing_number_is_not_an_index() {
    // "POSITION2"/0 supplies neither POSITION0 nor POSITION2.
    for signature in [position_only(), sig(vec![float("POSITION", 2, 0)])] {
        let c = create(
            &[vtx("POSITION2", 0, Format::R32G32B32A32_FLOAT, 0, 0)],
            &signature,
        );
        check(&c, HResult::E_INVALIDARG, &[163], &[385]);
    }
    // The missing-element message points at the glued name.
    let c = create(
        &[vtx("POSITION0", 0, Format::R32G32B32A32_FLOAT, 0, 0)],
        &position_only(),
    );
    check(&c, HResult::E_INVALIDARG, &[163], &[385]);
    let missing = c.errors().next().unwrap();
    assert!(
        missing.message.contains("POSITION0 (v0, float)"),
        "{missing}"
    );
    assert!(missing.message.contains("element 0"), "{missing}");
    // Choice §6.2: the trailing digit alone is a warning that does not fail the call.
    let elements = [
        vtx("POSITION", 0, Format::R32G32B32A32_FLOAT, 0, 0),
        vtx("TEXCOORD0", 0, Format::R32G32_FLOAT, 0, 16),
    ];
    let c = create(&elements, &position_only());
    check(&c, HResult::S_OK, &[], &[385]);
    assert_eq!(c.diagnostics[0].element, Some(1));
    // A signature entry whose own name ends in a digit is matched whole.
    let c = create(
        &[vtx("TEXCOORD0", 0, Format::R32G32_FLOAT, 0, 0)],
        &sig(vec![float("TEXCOORD0", 0, 5)]),
    );
    check(&c, HResult::S_OK, &[], &[385]);
    assert_eq!(registers(&c), vec![Some(5)]);
}

#[test]
fn r17_names_are_free_form() {
    let long = "N".repeat(100_000);
    let elements = [
        vtx("POSITION", 0, Format::R32G32B32A32_FLOAT, 0, 0),
        vtx("", 0, Format::R32_FLOAT, 1, 0),
        vtx("we\u{1}ird name\u{7f}é", 0, Format::R32_FLOAT, 2, 0),
        vtx(&long, 0, Format::R32_FLOAT, 3, 0),
    ];
    let c = create(&elements, &position_only());
    check(&c, HResult::S_OK, &[], &[]);
    assert_eq!(registers(&c), vec![Some(0), None, None, None]);
    // A name ends at its first NUL, like the C string it models.
    let c = create(
        &[vtx(
            "POSITION\0garbage",
            0,
            Format::R32G32B32A32_FLOAT,
            0,
            0,
        )],
        &position_only(),
    );
    check(&c, HResult::S_OK, &[], &[]);
    assert_eq!(c.layout.unwrap().elements()[0].semantic_name, "POSITION");
    // Odd names appear escaped and bounded in messages.
    let mut bad = elements.clone();
    bad[2].aligned_byte_offset = 1;
    bad[3].aligned_byte_offset = 2;
    let c = create(&bad, &position_only());
    check(&c, HResult::E_INVALIDARG, &[159, 159], &[]);
    assert!(
        c.diagnostics[0]
            .message
            .contains("\"we\\u{1}ird name\\u{7f}é\" index 0")
    );
    let quoted = format!("element 3 ({}…0)", "N".repeat(64));
    assert!(
        c.diagnostics[1].message.starts_with(&quoted),
        "{}",
        c.diagnostics[1]
    );
    assert!(c.diagnostics[1].message.len() < 1000);
}

#[test]
fn r18_system_value_names_are_ordinary_elements() {
    let mut sv_position = float("SV_Position", 0, 0);
    sv_position.system_value = SystemValue::POSITION; // as in a PS input signature
    let signature = sig(vec![sv_position, float("SV_ClipDistance", 0, 1)]);
    let elements = [
        vtx("SV_POSITION", 0, Format::R32G32B32A32_FLOAT, 0, 0),
        vtx("sv_clipdistance", 0, Format::R32_FLOAT, 0, APPEND),
    ];
    let c = create(&elements, &signature);
    check(&c, HResult::S_OK, &[], &[]);
    assert_eq!(registers(&c), vec![Some(0), Some(1)]);
    assert_eq!(offsets(&c), vec![0, 16]);
}

#[test]
fn r19_duplicate_semantics() {
    let sig0 = Signature::default();
    // Unused duplicates count, names compare case-insensitively (choice §6.1).
    let c = create(
        &[
            vtx("COLOR", 0, Format::R32_FLOAT, 0, 0),
            vtx("COLOR", 1, Format::R32_FLOAT, 0, 4),
            vtx("color", 0, Format::R32_FLOAT, 1, 0),
        ],
        &sig0,
    );
    check(&c, HResult::E_INVALIDARG, &[160], &[]);
    assert_eq!(c.diagnostics[0].element, Some(2));
    assert!(c.diagnostics[0].message.contains("element 0 (COLOR0)"));
    // Three copies: two messages, each naming the first.
    let c = create(
        &[
            vtx("A", 0, Format::R32_FLOAT, 0, 0),
            vtx("A", 0, Format::R32_FLOAT, 0, 4),
            vtx("A", 0, Format::R32_FLOAT, 0, 8),
        ],
        &sig0,
    );
    check(&c, HResult::E_INVALIDARG, &[160, 160], &[]);
}

// ------------------------------------------------------------------------------------------
// D. Formats

#[test]
fn r20_invalid_incompatible_and_unsupported_formats() {
    let one = |format, offset| [vtx("POSITION", 0, format, 0, offset)];
    let sig = position_only();
    // 152: UNKNOWN and values dxgiformat.h does not define.
    for f in [
        Format::UNKNOWN,
        Format(200),
        Format(9999),
        Format(u32::MAX - 1),
    ] {
        check(
            &create(&one(f, 0), &sig),
            HResult::E_INVALIDARG,
            &[152],
            &[],
        );
    }
    // 153: defined but never an IA vertex format. No alignment message follows (offset 1).
    for f in [
        Format::R32G32B32A32_TYPELESS,
        Format::R8G8B8A8_UNORM_SRGB,
        Format::D32_FLOAT,
        Format::D16_UNORM,
        Format::BC1_UNORM,
        Format::R9G9B9E5_SHAREDEXP,
        Format::A8_UNORM,
        Format(103), // NV12
    ] {
        check(
            &create(&one(f, 1), &sig),
            HResult::E_INVALIDARG,
            &[153],
            &[],
        );
    }
    // 1048599: a vertex format, but not at this level.
    let c = create_on(
        t(Api::D3D11, FeatureLevel::L9_1),
        &one(Format::B8G8R8A8_UNORM, 0),
        &sig,
    );
    check(&c, HResult::E_INVALIDARG, &[1048599], &[]);
    // Optional formats: accepted by default, refused when the target says so.
    let e = [
        vtx("POSITION", 0, Format::R32G32B32A32_FLOAT, 0, 0),
        vtx("C", 0, Format::B5G6R5_UNORM, 0, 16),
    ];
    check(&create(&e, &sig), HResult::S_OK, &[], &[]);
    let no_optional = Target {
        optional_formats: false,
        ..Target::default()
    };
    let c = create_on(no_optional, &e, &sig);
    check(&c, HResult::E_INVALIDARG, &[1048599], &[]);
    assert!(c.diagnostics[0].message.contains("optional"));
    // Unsupported-at-level formats still have a size: alignment is still checked.
    let c = create_on(
        t(Api::D3D11, FeatureLevel::L9_3),
        &one(Format::R32_UINT, 2),
        &sig,
    );
    check(&c, HResult::E_INVALIDARG, &[1048599, 159], &[]);
}

#[test]
fn r21_windows_tested_formats_create() {
    let formats = [
        Format::R32G32_FLOAT,
        Format::R32G32_UINT,
        Format::R32G32_SINT,
        Format::R16G16_FLOAT,
        Format::R16G16_UINT,
        Format::R16G16_SINT,
        Format::R11G11B10_FLOAT,
        Format::R32_FLOAT,
        Format::R32_UINT,
        Format::R32_SINT,
        Format::R16_FLOAT,
        Format::R16_UINT,
        Format::R16_SINT,
        Format::R8G8_UNORM,
        Format::R8_UINT,
        Format::R8_SINT,
        Format::B8G8R8A8_UNORM,
        Format::R32G32B32A32_FLOAT,
        Format::R16G16B16A16_UINT,
        Format::R16G16B16A16_SINT,
        Format::R16G16B16A16_UNORM,
        Format::R16G16B16A16_SNORM,
        Format::R8G8B8A8_UINT,
        Format::R8G8B8A8_SINT,
        Format::R8G8B8A8_UNORM,
        Format::R8G8B8A8_SNORM,
        Format::R10G10B10A2_UNORM,
        Format::R10G10B10A2_UINT,
    ];
    for target in [
        t(Api::D3D11, FeatureLevel::L10_0),
        t(Api::D3D11, FeatureLevel::L11_0),
        t(Api::D3D10, FeatureLevel::L10_0),
    ] {
        for f in formats {
            let c = create_on(target, &[vtx("POSITION", 0, f, 0, 0)], &position_only());
            let integer = f.name().unwrap().ends_with("INT");
            // Integer data into a float4 input: created, with the R23 warning.
            let warnings: &[u32] = if integer { &[391] } else { &[] };
            check(&c, HResult::S_OK, &[], warnings);
        }
    }
}

#[test]
fn r22_component_counts_may_differ() {
    let mut float2 = float("TEXCOORD", 0, 1);
    float2.mask = 0b0011;
    float2.read_write_mask = 0b0011;
    let signature = sig(vec![float("POSITION", 0, 0), float2]);
    let elements = [
        vtx("POSITION", 0, Format::R32_FLOAT, 0, 0), // fewer than float4
        vtx("TEXCOORD", 0, Format::R32G32B32A32_FLOAT, 0, 4), // more than float2
    ];
    let c = create(&elements, &signature);
    check(&c, HResult::S_OK, &[], &[]);
    assert_eq!(c.layout.unwrap().slots()[0].min_stride, 20);
}

#[test]
fn r23_type_mismatch_is_a_warning() {
    let cases = [
        (Format::R8G8B8A8_UINT, ComponentType::SINT32, true),
        (Format::R16G16B16A16_UINT, ComponentType::FLOAT32, true),
        (Format::R32_SINT, ComponentType::UINT32, true),
        (Format::R16G16_SNORM, ComponentType::UINT32, true),
        (Format::R32_FLOAT, ComponentType::SINT32, true),
        (Format::R8G8B8A8_UNORM, ComponentType::FLOAT32, false),
        (Format::R16G16_SNORM, ComponentType::FLOAT32, false),
        (Format::R11G11B10_FLOAT, ComponentType::FLOAT32, false),
        (Format::R8G8B8A8_UINT, ComponentType::UINT32, false),
        (Format::R16_SINT, ComponentType::SINT32, false),
        (Format::R10G10B10A2_UINT, ComponentType::UINT32, false),
    ];
    for (format, ty, warns) in cases {
        let signature = sig(vec![entry("BLENDINDICES", 0, 0, ty)]);
        let c = create(&[vtx("BLENDINDICES", 0, format, 0, 0)], &signature);
        let w: &[u32] = if warns { &[391] } else { &[] };
        check(&c, HResult::S_OK, &[], w);
        if warns {
            let d = &c.diagnostics[0];
            assert_eq!(d.element, Some(0));
            assert!(d.message.contains(format.name().unwrap()), "{d}");
        }
    }
    // Extra elements are compared with nothing.
    let c = create(
        &[
            vtx("POSITION", 0, Format::R32G32B32A32_FLOAT, 0, 0),
            vtx("EXTRA", 0, Format::R32_UINT, 0, 16),
        ],
        &position_only(),
    );
    check(&c, HResult::S_OK, &[], &[]);
}

// ------------------------------------------------------------------------------------------
// E. Offsets and alignment

#[test]
fn r24_offsets_are_per_slot() {
    let elements = [
        vtx("POSITION", 0, Format::R32G32B32_FLOAT, 0, 0),
        vtx("NORMAL", 0, Format::R32G32B32_FLOAT, 1, 0),
        vtx("TEXCOORD", 0, Format::R32G32_FLOAT, 1, 12),
        vtx("COLOR", 0, Format::R8G8B8A8_UNORM, 0, 12),
    ];
    let c = create(&elements, &Signature::default());
    check(&c, HResult::S_OK, &[], &[]);
    let layout = c.layout.unwrap();
    assert_eq!(layout.slots().len(), 2);
    assert_eq!(
        (layout.slots()[0].slot, layout.slots()[0].min_stride),
        (0, 16)
    );
    assert_eq!(
        (layout.slots()[1].slot, layout.slots()[1].min_stride),
        (1, 20)
    );
}

/// The Wine `test_input_layout_alignment` cases: POSITION R32G32B32A32_FLOAT at 0 plus an
/// extra COLOR element whose offset is under test.
#[test]
fn r25_alignment_wine_cases() {
    let cases = [
        (Format::R16_UINT, 1, false),
        (Format::R32_UINT, 2, false),
        (Format::R32G32B32A32_FLOAT, 2, false),
        (Format::R32G32B32A32_FLOAT, 17, false),
        (Format::R32G32B32A32_FLOAT, 18, false),
        (Format::R32G32B32A32_FLOAT, 19, false),
        (Format::R16_UINT, 2, true),
        (Format::R8_UINT, 1, true),
        (Format::R32G32B32A32_FLOAT, 16, true),
        (Format::R32G32B32A32_FLOAT, 20, true),
    ];
    for api in [Api::D3D11, Api::D3D10] {
        let target = t(api, FeatureLevel::L10_0);
        for (format, offset, ok) in cases {
            let elements = [
                vtx("POSITION", 0, Format::R32G32B32A32_FLOAT, 0, 0),
                vtx("COLOR", 0, format, 0, offset),
            ];
            let c = create_on(target, &elements, &position_only());
            if ok {
                check(&c, HResult::S_OK, &[], &[]);
                assert_eq!(offsets(&c), vec![0, offset]);
            } else {
                check(&c, HResult::E_INVALIDARG, &[159], &[]);
                assert_eq!(c.diagnostics[0].element, Some(1));
            }
        }
    }
}

#[test]
fn r25_alignment_is_min_of_pow2_size_and_4() {
    let cases = [
        (Format::R32G32B32_FLOAT, 4, true), // 12 bytes: 4, not 12 or 16
        (Format::R32G32B32_FLOAT, 6, false),
        (Format::R16G16B16A16_UNORM, 4, true), // 8 bytes: 4
        (Format::R8G8_UNORM, 3, false),
        (Format::R8G8_UNORM, 6, true),
        (Format::B5G6R5_UNORM, 2, true),
        (Format::R10G10B10A2_UNORM, 2, false),
        (Format::R8G8B8A8_UNORM, 4, true),
        (Format::R8_SNORM, 7, true),
    ];
    for (format, offset, ok) in cases {
        let c = create(&[vtx("X", 0, format, 0, offset)], &Signature::default());
        if ok {
            check(&c, HResult::S_OK, &[], &[]);
        } else {
            check(&c, HResult::E_INVALIDARG, &[159], &[]);
        }
    }
    // The message names the element, the semantic, the value and the rule.
    let c = create(
        &[
            vtx("POSITION", 0, Format::R32G32B32A32_FLOAT, 0, 0),
            vtx("COLOR", 0, Format::R32_FLOAT, 0, 2),
        ],
        &position_only(),
    );
    let m = &c.diagnostics[0].message;
    for needle in [
        "element 1 (COLOR0)",
        "AlignedByteOffset 2",
        "multiple of 4",
        "R32_FLOAT",
        "R25",
    ] {
        assert!(m.contains(needle), "{m}");
    }
}

#[test]
fn r26_append_aligned_examples() {
    let sig0 = Signature::default();
    // R8_UNORM then R32_FLOAT: 0 and 4 (test_instanced_draw).
    let c = create(
        &[
            vtx("A", 0, Format::R8_UNORM, 0, APPEND),
            vtx("B", 0, Format::R32_FLOAT, 0, APPEND),
        ],
        &sig0,
    );
    check(&c, HResult::S_OK, &[], &[]);
    assert_eq!(offsets(&c), vec![0, 4]);
    assert_eq!(c.layout.unwrap().slots()[0].min_stride, 8);
    // Interleaved slots (test_il_append_aligned): COLOR2 and COLOR1 in slot 1 are 0 and 8
    // whatever lies between them; COLOR3 and COLOR0 in slot 2 likewise. COLOR2/COLOR3 are not
    // in the signature yet shape the offsets.
    let signature = sig(vec![
        float("POSITION", 0, 0),
        float("COLOR", 0, 1),
        float("COLOR", 1, 2),
    ]);
    let elements = [
        vtx("COLOR", 2, Format::R32G32_FLOAT, 1, APPEND),
        vtx("COLOR", 3, Format::R32G32_FLOAT, 2, APPEND),
        vtx("POSITION", 0, Format::R32G32_FLOAT, 0, APPEND),
        vtx("COLOR", 0, Format::R32G32_FLOAT, 2, APPEND),
        vtx("COLOR", 1, Format::R32G32_FLOAT, 1, APPEND),
    ];
    let c = create(&elements, &signature);
    check(&c, HResult::S_OK, &[], &[]);
    assert_eq!(offsets(&c), vec![0, 0, 0, 8, 8]);
    assert_eq!(registers(&c), vec![None, None, Some(0), Some(1), Some(2)]);
    // Tight packing of small formats: 1 after 1, 2 after 1 rounds to 2, 4 after 2 rounds to 4.
    let c = create(
        &[
            vtx("A", 0, Format::R8_UINT, 0, APPEND),
            vtx("B", 0, Format::R8_UINT, 0, APPEND),
            vtx("C", 0, Format::R16_UINT, 0, APPEND),
            vtx("D", 0, Format::R8_UINT, 0, APPEND),
            vtx("E", 0, Format::R32G32B32_FLOAT, 0, APPEND),
        ],
        &sig0,
    );
    check(&c, HResult::S_OK, &[], &[]);
    assert_eq!(offsets(&c), vec![0, 1, 2, 4, 8]);
    assert_eq!(c.layout.unwrap().slots()[0].min_stride, 20);
    // After an explicit offset, append continues from that element's end.
    let c = create(
        &[
            vtx("A", 0, Format::R32_FLOAT, 0, 100),
            vtx("B", 0, Format::R16_FLOAT, 0, APPEND),
        ],
        &sig0,
    );
    assert_eq!(offsets(&c), vec![100, 104]);
}

#[test]
fn r26_previous_element_is_last_in_array_order() {
    // Choice §6.6: after A@8 and B@0 (both 4 bytes) C goes after B (4), not after A (12).
    let c = create(
        &[
            vtx("A", 0, Format::R32_FLOAT, 0, 8),
            vtx("B", 0, Format::R32_FLOAT, 0, 0),
            vtx("C", 0, Format::R32_FLOAT, 0, APPEND),
        ],
        &Signature::default(),
    );
    check(&c, HResult::S_OK, &[], &[]);
    assert_eq!(offsets(&c), vec![8, 0, 4]);
    assert_eq!(c.layout.unwrap().slots()[0].min_stride, 12);
}

#[test]
fn r26_append_does_not_cascade_or_overflow() {
    let sig0 = Signature::default();
    // An invalid format before an appended element: only the format error.
    let c = create(
        &[
            vtx("A", 0, Format::BC1_UNORM, 0, 0),
            vtx("B", 0, Format::R32_FLOAT, 0, APPEND),
        ],
        &sig0,
    );
    check(&c, HResult::E_INVALIDARG, &[153], &[]);
    // Past the 32-bit range: an error value, no panic.
    let c = create(
        &[
            vtx("A", 0, Format::R32G32B32A32_FLOAT, 0, 0xffff_fff8),
            vtx("B", 0, Format::R8_UINT, 0, APPEND),
        ],
        &sig0,
    );
    check(&c, HResult::E_INVALIDARG, &[0], &[]);
    assert_eq!(c.diagnostics[0].element, Some(1));
    // Landing exactly on 0xffffffff would alias APPEND_ALIGNED itself: refused too.
    let c = create(
        &[
            vtx("A", 0, Format::R8_UINT, 0, 0xffff_fffe),
            vtx("B", 0, Format::R8_UINT, 0, APPEND),
        ],
        &sig0,
    );
    check(&c, HResult::E_INVALIDARG, &[0], &[]);
}

#[test]
fn r27_overlapping_elements_are_allowed() {
    let signature = sig(vec![float("POSITION", 0, 0), float("COLOR", 0, 1)]);
    let elements = [
        vtx("POSITION", 0, Format::R32G32B32A32_FLOAT, 0, 0),
        vtx("COLOR", 0, Format::R32G32B32A32_FLOAT, 0, 0),
    ];
    for level in [FeatureLevel::L9_1, FeatureLevel::L11_0] {
        let c = create_on(t(Api::D3D11, level), &elements, &signature);
        check(&c, HResult::S_OK, &[], &[]);
        assert_eq!(offsets(&c), vec![0, 0]);
    }
}

#[test]
fn r28_no_upper_bound_on_offsets() {
    let c = create(
        &[
            vtx("A", 0, Format::R32_FLOAT, 0, 4096),
            vtx("B", 0, Format::R32G32B32A32_FLOAT, 1, 0xffff_fffc),
        ],
        &Signature::default(),
    );
    check(&c, HResult::S_OK, &[], &[]);
    let layout = c.layout.unwrap();
    assert_eq!(layout.slots()[0].min_stride, 4100);
    // The end (2^32 + 12) does not fit: the stride saturates.
    assert_eq!(layout.slots()[1].min_stride, u32::MAX);
}

// ------------------------------------------------------------------------------------------
// F. Bytecode and signature

#[test]
fn r29_any_signature_works() {
    // A pixel-shader-like input signature (SV_Position with system value POSITION).
    let mut pos = float("SV_Position", 0, 0);
    pos.system_value = SystemValue::POSITION;
    let signature = sig(vec![pos, float("TEXCOORD", 0, 1)]);
    let elements = [
        vtx("SV_Position", 0, Format::R32G32B32A32_FLOAT, 0, 0),
        vtx("TEXCOORD", 0, Format::R32G32_FLOAT, 0, APPEND),
    ];
    let c = create(&elements, &signature);
    check(&c, HResult::S_OK, &[], &[]);
    assert_eq!(registers(&c), vec![Some(0), Some(1)]);
}

#[test]
fn r30_min_precision_entries_match_like_others() {
    let mut half = float("TEXCOORD", 0, 1);
    half.min_precision = MinPrecision(1);
    let signature = sig(vec![float("POSITION", 0, 0), half]);
    let elements = [
        vtx("POSITION", 0, Format::R32G32B32A32_FLOAT, 0, 0),
        vtx("TEXCOORD", 0, Format::R16G16_FLOAT, 0, 16),
    ];
    let c = create(&elements, &signature);
    check(&c, HResult::S_OK, &[], &[]);
    assert_eq!(registers(&c), vec![Some(0), Some(1)]);
}

#[test]
fn r31_r32_unreadable_signature() {
    let elements = [
        vtx("POSITION", 0, Format::R32G32B32A32_FLOAT, 0, 0),
        vtx("COLOR", 0, Format::R32_FLOAT, 0, 2),
    ];
    for problem in [
        SignatureProblem::NoBytecode,
        SignatureProblem::Container(DxbcError::BadMagic {
            found: FourCC(*b"DXBX"),
        }),
        SignatureProblem::NoInputSignature,
        SignatureProblem::Signature(DxbcError::NameOffsetOutOfRange {
            tag: FourCC::ISGN,
            at: 16,
            element: 0,
            name_offset: 900,
            len: 56,
        }),
    ] {
        let text = problem.to_string();
        let c = inlay::CreateInputLayout::new(&Target::default(), &elements[..1])
            .num_elements(1)
            .signature(Err(problem.clone()));
        check(&c, HResult::E_INVALIDARG, &[161], &[]);
        assert!(c.diagnostics[0].message.contains(&text));
        // Element errors are reported too.
        let c = inlay::CreateInputLayout::new(&Target::default(), &elements)
            .num_elements(2)
            .validate_only(true)
            .signature(Err(problem));
        check(&c, HResult::E_INVALIDARG, &[159, 161], &[]);
    }
}

// ------------------------------------------------------------------------------------------
// G. Matching

#[test]
fn r33_every_entry_must_be_supplied() {
    let mut unread = float("CUSTOMDATA", 0, 1);
    unread.read_write_mask = 0;
    let signature = sig(vec![float("POSITION", 0, 0), unread, float("COLOR", 0, 2)]);
    let elements = [vtx("POSITION", 0, Format::R32G32B32A32_FLOAT, 0, 0)];
    let c = create(&elements, &signature);
    // Entries the shader never reads are still required.
    check(&c, HResult::E_INVALIDARG, &[163, 163], &[]);
    assert!(c.diagnostics[0].message.contains("CUSTOMDATA0 (v1, float)"));
    assert!(c.diagnostics[0].message.contains("never read"));
    assert!(c.diagnostics[1].message.contains("COLOR0 (v2, float)"));
    // Index must match exactly.
    let c = create(
        &[vtx("POSITION", 1, Format::R32G32B32A32_FLOAT, 0, 0)],
        &position_only(),
    );
    check(&c, HResult::E_INVALIDARG, &[163], &[]);
}

#[test]
fn r33_sv_vertexid_and_sv_instanceid_are_exempt_by_name() {
    let mut vid = entry("SV_VertexID", 0, 1, ComponentType::UINT32);
    vid.system_value = SystemValue::VERTEX_ID;
    // Exempt by name even with system value NONE (PS-signature case), any case.
    let iid = entry("SV_InstanceId", 0, 2, ComponentType::UINT32);
    let signature = sig(vec![float("POSITION", 0, 0), vid, iid]);
    let elements = [vtx("POSITION", 0, Format::R32G32B32A32_FLOAT, 0, 0)];
    let c = create(&elements, &signature);
    check(&c, HResult::S_OK, &[], &[]);
    assert_eq!(registers(&c), vec![Some(0)]);
    // Supplying them anyway is allowed; the element feeds no register (choice §6.5).
    let elements = [
        vtx("POSITION", 0, Format::R32G32B32A32_FLOAT, 0, 0),
        vtx("SV_VertexID", 0, Format::R32_UINT, 0, 16),
    ];
    let c = create(&elements, &signature);
    check(&c, HResult::S_OK, &[], &[]);
    assert_eq!(registers(&c), vec![Some(0), None]);
}

#[test]
fn r33_sv_position_and_other_system_values_are_required() {
    let mut pos = float("SV_Position", 0, 0);
    pos.system_value = SystemValue::POSITION;
    let mut clip = float("SV_ClipDistance", 0, 1);
    clip.system_value = SystemValue::CLIP_DISTANCE;
    let mut prim = entry("SV_PrimitiveID", 0, 2, ComponentType::UINT32);
    prim.system_value = SystemValue::PRIMITIVE_ID;
    let signature = sig(vec![pos, clip, prim]);
    let c = create(&[vtx("POSITION", 0, Format::R32_FLOAT, 0, 0)], &signature);
    check(&c, HResult::E_INVALIDARG, &[163, 163, 163], &[]);
    // SV_Position with system value NONE (VS input) is required as well.
    let c = create(
        &[vtx("POSITION", 0, Format::R32_FLOAT, 0, 0)],
        &sig(vec![float("SV_Position", 0, 0)]),
    );
    check(&c, HResult::E_INVALIDARG, &[163], &[]);
}

#[test]
fn r34_extra_elements_are_validated() {
    let base = vtx("POSITION", 0, Format::R32G32B32A32_FLOAT, 0, 0);
    for (extra, error) in [
        (vtx("EXTRA", 0, Format::R32_FLOAT, 0, 3), 159),
        (vtx("EXTRA", 0, Format::UNKNOWN, 0, 16), 152),
        (vtx("EXTRA", 0, Format::R32_FLOAT, 40, 0), 154),
        (vtx("POSITION", 0, Format::R32_FLOAT, 1, 0), 160),
    ] {
        let c = create(&[base.clone(), extra], &position_only());
        check(&c, HResult::E_INVALIDARG, &[error], &[]);
    }
    let c = create(
        &[base, vtx("EXTRA", 0, Format::R32_FLOAT, 0, APPEND)],
        &position_only(),
    );
    check(&c, HResult::S_OK, &[], &[]);
    assert_eq!(offsets(&c), vec![0, 16]);
    assert_eq!(registers(&c), vec![Some(0), None]);
}

#[test]
fn r35_only_stream_zero_entries_count() {
    let mut other_stream = float("COLOR", 0, 1);
    other_stream.stream = 1;
    let signature = sig(vec![float("POSITION", 0, 0), other_stream]);
    let elements = [
        vtx("POSITION", 0, Format::R32G32B32A32_FLOAT, 0, 0),
        vtx("COLOR", 0, Format::R32_FLOAT, 0, 16),
    ];
    let c = create(&elements[..1], &signature);
    check(&c, HResult::S_OK, &[], &[]);
    // And a stream-1 entry feeds nothing.
    let c = create(&elements, &signature);
    check(&c, HResult::S_OK, &[], &[]);
    assert_eq!(registers(&c), vec![Some(0), None]);
}

#[test]
fn r36_layout_is_register_based_and_reusable_with_identical_signatures() {
    let signature = sig(vec![float("TEXCOORD", 0, 3), float("POSITION", 0, 7)]);
    let elements = [
        vtx("POSITION", 0, Format::R32G32B32_FLOAT, 0, 0),
        vtx("TEXCOORD", 0, Format::R32G32_FLOAT, 1, 0),
    ];
    let c = create(&elements, &signature);
    check(&c, HResult::S_OK, &[], &[]);
    assert_eq!(registers(&c), vec![Some(7), Some(3)]);
    let layout = c.layout.unwrap();
    let e = &layout.elements()[1];
    assert_eq!(
        (e.slot, e.offset, e.format, e.class, e.step_rate),
        (1, 0, Format::R32G32_FLOAT, InputClass::PerVertex, 0)
    );
    assert!(layout.is_compatible_with(&signature));
    let mut renamed = signature.clone();
    renamed.elements[0].semantic_name = "texcoord".into();
    assert!(!layout.is_compatible_with(&renamed));
    let mut moved = signature.clone();
    moved.elements[0].register = 4;
    assert!(!layout.is_compatible_with(&moved));
}

#[test]
fn r37_masks_are_not_compared() {
    let mut e = float("POSITION", 0, 0);
    e.mask = 0b0001;
    e.read_write_mask = 0b0000;
    let c = create(
        &[vtx("POSITION", 0, Format::R32G32B32A32_FLOAT, 0, 0)],
        &sig(vec![e]),
    );
    check(&c, HResult::S_OK, &[], &[]);
}

// ------------------------------------------------------------------------------------------
// H. API and feature level

#[test]
fn r38_d3d10_limits_and_results() {
    let d3d10 = t(Api::D3D10, FeatureLevel::L10_0);
    let c = create_on(
        d3d10,
        &[
            vtx("POSITION", 0, Format::R32G32B32A32_FLOAT, 0, 0),
            vtx("COLOR", 0, Format::R32G32B32A32_FLOAT, 15, 0),
        ],
        &position_only(),
    );
    check(&c, HResult::S_OK, &[], &[]);
    let c = inlay::CreateInputLayout::null_elements(&d3d10).signature(Ok(&position_only()));
    check(&c, HResult::E_INVALIDARG, &[164], &[]);
    let c = inlay::CreateInputLayout::new(
        &d3d10,
        &[vtx("POSITION", 0, Format::R32G32B32A32_FLOAT, 0, 0)],
    )
    .num_elements(1)
    .validate_only(true)
    .signature(Ok(&position_only()));
    check(&c, HResult::S_FALSE, &[], &[]);
}

#[test]
fn r39_d3d10_1_limits_follow_the_feature_level() {
    let sig0 = Signature::default();
    let at_10_1 = t(Api::D3D10_1, FeatureLevel::L10_1);
    check(
        &create_on(at_10_1, &many(32), &sig0),
        HResult::S_OK,
        &[],
        &[],
    );
    let slot31 = [vtx("X", 0, Format::R32_FLOAT, 31, 0)];
    check(&create_on(at_10_1, &slot31, &sig0), HResult::S_OK, &[], &[]);
    let at_10_0 = t(Api::D3D10_1, FeatureLevel::L10_0);
    check(
        &create_on(at_10_0, &many(17), &sig0),
        HResult::E_INVALIDARG,
        &[151],
        &[],
    );
    check(
        &create_on(at_10_0, &slot31, &sig0),
        HResult::E_INVALIDARG,
        &[154],
        &[],
    );
}

#[test]
fn r40_d3d11_limits_per_feature_level() {
    let sig0 = Signature::default();
    for (level, limit) in [
        (FeatureLevel::L9_1, 16),
        (FeatureLevel::L9_3, 16),
        (FeatureLevel::L10_0, 16),
        (FeatureLevel::L10_1, 32),
        (FeatureLevel::L11_1, 32),
    ] {
        let target = t(Api::D3D11, level);
        check(
            &create_on(target, &many(limit), &sig0),
            HResult::S_OK,
            &[],
            &[],
        );
        check(
            &create_on(target, &many(limit + 1), &sig0),
            HResult::E_INVALIDARG,
            &[151],
            &[],
        );
    }
}

#[test]
fn r41_level9_instancing() {
    let pos = vtx("POSITION", 0, Format::R32G32B32A32_FLOAT, 0, 0);
    for api in [Api::D3D11, Api::D3D10_1] {
        for level in [FeatureLevel::L9_1, FeatureLevel::L9_2] {
            let c = create_on(
                t(api, level),
                &[pos.clone(), inst("I", Format::R32G32B32A32_FLOAT, 1, 0, 1)],
                &position_only(),
            );
            check(&c, HResult::E_INVALIDARG, &[3146124], &[]);
        }
        let l93 = t(api, FeatureLevel::L9_3);
        // Step rate 1 in another slot: fine.
        let c = create_on(
            l93,
            &[pos.clone(), inst("I", Format::R32G32B32A32_FLOAT, 1, 0, 1)],
            &position_only(),
        );
        check(&c, HResult::S_OK, &[], &[]);
        // Step rate other than 1.
        for step in [0, 2] {
            let c = create_on(
                l93,
                &[
                    pos.clone(),
                    inst("I", Format::R32G32B32A32_FLOAT, 1, 0, step),
                ],
                &position_only(),
            );
            check(&c, HResult::E_INVALIDARG, &[3146123], &[]);
        }
        // Slot 0 per-instance while slot 1 is per-vertex.
        let c = create_on(
            l93,
            &[
                inst("I", Format::R32G32B32A32_FLOAT, 0, 0, 1),
                vtx("POSITION", 0, Format::R32G32B32A32_FLOAT, 1, 0),
            ],
            &position_only(),
        );
        check(&c, HResult::E_INVALIDARG, &[1048633], &[]);
        assert_eq!(c.diagnostics[0].element, Some(0));
        // Only per-instance data, slot 0 included: nothing per-vertex to displace.
        let c = create_on(
            l93,
            &[InputElementDesc::per_instance(
                "POSITION",
                0,
                Format::R32G32B32A32_FLOAT,
                0,
                0,
                1,
            )],
            &position_only(),
        );
        check(&c, HResult::S_OK, &[], &[]);
    }
    // At 10_0 none of this applies.
    let c = create_on(
        t(Api::D3D11, FeatureLevel::L10_0),
        &[
            inst("I", Format::R32G32B32A32_FLOAT, 0, 0, 3),
            vtx("POSITION", 0, Format::R32G32B32A32_FLOAT, 1, 0),
        ],
        &position_only(),
    );
    check(&c, HResult::S_OK, &[], &[]);
}

#[test]
fn r42_level9_formats() {
    let sig = position_only();
    let cases = [
        (FeatureLevel::L9_1, Format::R16G16B16A16_FLOAT, false),
        (FeatureLevel::L9_3, Format::R16G16B16A16_FLOAT, true),
        (FeatureLevel::L9_2, Format::R16G16_FLOAT, false),
        (FeatureLevel::L9_3, Format::R16G16_FLOAT, true),
        (FeatureLevel::L9_3, Format::B8G8R8A8_UNORM, false),
        (FeatureLevel::L9_3, Format::R8G8B8A8_SNORM, false),
        (FeatureLevel::L9_3, Format::R32_UINT, false),
        (FeatureLevel::L9_3, Format::R16G16B16A16_UNORM, false),
        (FeatureLevel::L9_3, Format::R8G8_UINT, false),
        (FeatureLevel::L9_3, Format::R11G11B10_FLOAT, false),
        (FeatureLevel::L9_3, Format::R10G10B10A2_UNORM, false),
        (FeatureLevel::L9_3, Format::R16_FLOAT, false),
        (FeatureLevel::L9_1, Format::R8G8B8A8_UNORM, true),
        (FeatureLevel::L9_1, Format::R16G16_SNORM, true),
        (FeatureLevel::L9_1, Format::R32G32B32_FLOAT, true),
    ];
    for (level, format, ok) in cases {
        let c = create_on(
            t(Api::D3D11, level),
            &[vtx("POSITION", 0, format, 0, 0)],
            &sig,
        );
        if ok {
            check(&c, HResult::S_OK, &[], &[]);
        } else {
            check(&c, HResult::E_INVALIDARG, &[1048599], &[]);
        }
    }
}

#[test]
fn r43_feature_level_11_1_adds_no_checks() {
    let elements = [
        vtx("POSITION", 0, Format::R32G32B32A32_FLOAT, 0, 0),
        vtx("COLOR", 0, Format::R32_FLOAT, 0, 2),
    ];
    for level in [FeatureLevel::L11_0, FeatureLevel::L11_1] {
        let target = t(Api::D3D11, level);
        check(
            &create_on(target, &elements, &position_only()),
            HResult::E_INVALIDARG,
            &[159],
            &[],
        );
        check(
            &create_on(target, &elements[..1], &position_only()),
            HResult::S_OK,
            &[],
            &[],
        );
    }
}

// ------------------------------------------------------------------------------------------
// Reporting and the shader-less entry point

#[test]
fn independent_errors_are_all_reported_in_element_order() {
    let mut bad_class = vtx("B", 0, Format::R32_FLOAT, 0, 0);
    bad_class.input_slot_class = 5;
    let elements = [
        vtx("A", 0, Format::R32_FLOAT, 0, 1),  // 159
        bad_class,                             // 155 (no slot comparison)
        vtx("C", 0, Format::UNKNOWN, 99, 3),   // 154, 152 (no alignment)
        inst("D", Format::R32_FLOAT, 0, 0, 1), // 157 with A
        vtx("A", 0, Format::R32_FLOAT, 1, 0),  // 160
    ];
    let c = create(&elements, &position_only());
    check(
        &c,
        HResult::E_INVALIDARG,
        &[159, 155, 154, 152, 157, 160, 163],
        &[],
    );
    let by_element: Vec<_> = c.diagnostics.iter().map(|d| d.element).collect();
    assert_eq!(
        by_element,
        vec![Some(0), Some(1), Some(2), Some(2), Some(3), Some(4), None]
    );
}

#[test]
fn an_element_with_a_bad_format_still_supplies_its_semantic() {
    let c = create(
        &[vtx("POSITION", 0, Format::R32G32B32A32_TYPELESS, 0, 0)],
        &position_only(),
    );
    check(&c, HResult::E_INVALIDARG, &[153], &[]);
}

#[test]
fn layout_without_shader_gives_one_register_per_element() {
    let elements = [
        vtx("POSITION", 0, Format::R32G32B32_FLOAT, 0, APPEND),
        vtx("COLOR", 0, Format::R8G8B8A8_UNORM, 0, APPEND),
        inst("OFFSET", Format::R32G32_FLOAT, 1, APPEND, 2),
    ];
    let c = layout_without_shader(&Target::default(), &elements);
    check(&c, HResult::S_OK, &[], &[]);
    assert_eq!(registers(&c), vec![Some(0), Some(1), Some(2)]);
    assert_eq!(offsets(&c), vec![0, 12, 0]);
    let layout = c.layout.unwrap();
    assert_eq!(layout.slots()[1].class, InputClass::PerInstance);
    assert_eq!(layout.slots()[1].step_rate, 2);
    assert!(layout.is_compatible_with(&Signature::default()));
    // Still validated; empty arrays warn.
    let c = layout_without_shader(&Target::default(), &[vtx("X", 0, Format::UNKNOWN, 0, 0)]);
    check(&c, HResult::E_INVALIDARG, &[152], &[]);
    let c = layout_without_shader(&Target::default(), &[]);
    check(&c, HResult::S_OK, &[], &[420]);
    let c = layout_without_shader(&Target::default(), &many(33));
    check(&c, HResult::E_INVALIDARG, &[151], &[]);
}

/// A signature entry naming a register past v31 (only a damaged or hand-made blob can) makes
/// the signature unusable: 161 on the element that matches it, and no layout ever feeds a
/// register outside v0…v31. An entry no element matches is not looked at (it fails 163 anyway).
#[test]
fn r31_signature_register_past_v31_is_unusable() {
    let signature = sig(vec![float("POSITION", 0, 0), float("COLOR", 0, 32)]);
    let elements = [
        vtx("POSITION", 0, Format::R32G32B32_FLOAT, 0, 0),
        vtx("COLOR", 0, Format::R8G8B8A8_UNORM, 0, 12),
    ];
    let c = create(&elements, &signature);
    check(&c, HResult::E_INVALIDARG, &[161], &[]);
    assert_eq!(c.errors().next().unwrap().element, Some(1));
    let signature = sig(vec![float("POSITION", 0, 0), float("COLOR", 0, 31)]);
    let c = create(&elements, &signature);
    check(&c, HResult::S_OK, &[], &[]);
    assert_eq!(registers(&c), [Some(0), Some(31)]);
}
