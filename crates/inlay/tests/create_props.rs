//! Property tests for CreateInputLayout: arbitrary element arrays (invalid values included)
//! and signatures never panic, and every result is self-consistent.

use inlay::diag::{HResult, Severity};
use inlay::dxbc::signature::{
    ComponentType, MinPrecision, Signature, SignatureElement, SystemValue,
};
use inlay::element::{APPEND_ALIGNED_ELEMENT, InputElementDesc};
use inlay::format::Format;
use inlay::target::{Api, FeatureLevel, Target};
use inlay::validation::{is_system_generated_input, layout_without_shader, supplies};
use proptest::prelude::*;

const NAMES: &[&str] = &[
    "POSITION",
    "position",
    "COLOR",
    "TEXCOORD",
    "TEXCOORD0",
    "SV_VertexID",
    "",
    "N\u{0}UL",
];

fn name() -> impl Strategy<Value = Option<String>> {
    prop_oneof![
        40 => (0..NAMES.len()).prop_map(|i| Some(NAMES[i].to_string())),
        1 => Just(None),
    ]
}

fn element() -> impl Strategy<Value = InputElementDesc> {
    let vertex_formats: Vec<u32> = inlay::format::vertex_formats().map(|f| f.value).collect();
    (
        name(),
        0u32..8,
        prop_oneof![
            40 => prop::sample::select(vertex_formats),
            1 => 0u32..135,
            1 => any::<u32>(),
        ],
        prop_oneof![40 => 0u32..3, 1 => 0u32..40, 1 => any::<u32>()],
        prop_oneof![
            10 => Just(APPEND_ALIGNED_ELEMENT),
            6 => (0u32..10).prop_map(|o| o * 4),
            1 => 0u32..40,
            1 => prop_oneof![any::<u32>(), 0xffff_ff00u32..=0xffff_fffe],
        ],
        prop_oneof![60 => Just(0u32), 10 => Just(1u32), 1 => any::<u32>()],
        prop_oneof![12 => Just(1u32), 2 => Just(0u32), 1 => 2u32..4, 1 => any::<u32>()],
    )
        .prop_map(
            |(semantic_name, semantic_index, format, slot, offset, class, step)| {
                InputElementDesc {
                    semantic_name,
                    semantic_index,
                    format: Format(format),
                    // Per-instance data mostly in slot 2, per-vertex in 0 and 1.
                    input_slot: if slot < 3 {
                        if class == 1 { 2 } else { slot % 2 }
                    } else {
                        slot
                    },
                    aligned_byte_offset: offset,
                    input_slot_class: class,
                    // Mostly valid: per-vertex elements usually step 0.
                    instance_data_step_rate: if class == 0 && step != 7 { 0 } else { step },
                }
            },
        )
}

/// Elements with a signature drawn mostly from their own semantics (so that creation often
/// succeeds), plus an occasional unrelated entry.
fn elements_and_signature() -> impl Strategy<Value = (Vec<InputElementDesc>, Signature)> {
    prop::collection::vec(element(), 0..12).prop_flat_map(|elements| {
        let n = elements.len();
        let entry = (
            prop_oneof![6 => (0..n.max(1)).prop_map(Some), 1 => Just(None)],
            0..NAMES.len() - 2,
            0u32..3,
            prop_oneof![8 => Just(0u32), 1 => Just(1u32)],
            0u32..4,
            0u32..16,
            any::<bool>(),
        );
        let own = elements.clone();
        let signature = prop::collection::vec(entry, 0..5).prop_map(move |entries| Signature {
            elements: entries
                .into_iter()
                .map(|(from, n, index, stream, ty, register, upper)| {
                    let (name, index) = from
                        .and_then(|i| own.get(i))
                        .and_then(|e| e.name().map(|nm| (nm.to_string(), e.semantic_index)))
                        .unwrap_or((NAMES[n].to_string(), index));
                    SignatureElement {
                        stream,
                        semantic_name: if upper {
                            name.to_ascii_uppercase()
                        } else {
                            name
                        },
                        semantic_index: index,
                        system_value: SystemValue::UNDEFINED,
                        component_type: ComponentType(ty),
                        register,
                        mask: 0xf,
                        read_write_mask: 0xf,
                        min_precision: MinPrecision(0),
                    }
                })
                .collect(),
        });
        (Just(elements), signature)
    })
}

fn target() -> impl Strategy<Value = Target> {
    let level = prop_oneof![1 => 0usize..3, 6 => 3usize..7];
    (0usize..3, level, any::<bool>()).prop_map(|(a, l, optional)| Target {
        api: [Api::D3D10, Api::D3D10_1, Api::D3D11][a],
        feature_level: FeatureLevel::ALL[l],
        optional_formats: optional,
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn results_are_consistent(
        target in target(),
        (elements, signature) in elements_and_signature(),
        extra_count in prop_oneof![20 => Just(0u32), 1 => 1u32..3],
    ) {
        let n = elements.len() as u32 + extra_count;
        let c = inlay::CreateInputLayout::new(&target, &elements)
.num_elements(n)
.signature(Ok(&signature));
        let has_error = c.diagnostics.iter().any(|d| d.severity == Severity::Error);
        prop_assert_eq!(c.hresult.is_success(), !has_error);
        prop_assert_eq!(c.layout.is_some(), !has_error);
        for d in &c.diagnostics {
            if let Some(i) = d.element {
                prop_assert!((i as u32) < n);
            }
            prop_assert!(!d.message.is_empty());
        }
        // Validate-only changes only S_OK into S_FALSE.
        let v = inlay::CreateInputLayout::new(&target, &elements)
.num_elements(n)
.validate_only(true)
.signature(Ok(&signature));
        prop_assert_eq!(&v.diagnostics, &c.diagnostics);
        prop_assert_eq!(&v.layout, &c.layout);
        prop_assert_eq!(v.hresult, if has_error { HResult::E_INVALIDARG } else { HResult::S_FALSE });

        let Some(layout) = c.layout else { return Ok(()) };

        prop_assert_eq!(layout.elements().len() as u32, n);
        prop_assert!(n <= target.max_elements());
        for (e, desc) in layout.elements().iter().zip(&elements) {
            let info = e.format.info().unwrap();
            prop_assert!(target.supports_vertex_format(e.format));
            prop_assert_eq!(e.offset % info.offset_alignment(), 0);
            if desc.aligned_byte_offset != APPEND_ALIGNED_ELEMENT {
                prop_assert_eq!(e.offset, desc.aligned_byte_offset);
            }
            prop_assert!(e.slot < target.max_input_slots());
            let slot = layout.slot(e.slot).unwrap();
            prop_assert_eq!(slot.class, e.class);
            prop_assert_eq!(slot.step_rate, e.step_rate);
            prop_assert!(u64::from(slot.min_stride) >= e.end().min(u64::from(u32::MAX)));
            // The register is the one of the entry the element supplies, if any.
            let entry = signature.elements.iter().find(|s| supplies(&e.semantic_name, e.semantic_index, s));
            let expected = entry
                .filter(|s| !is_system_generated_input(&s.semantic_name))
                .and_then(|s| s.register());
            prop_assert_eq!(e.register, expected);
        }
        // Every required entry is supplied.
        for s in &signature.elements {
            if s.stream == 0 && !is_system_generated_input(&s.semantic_name) {
                prop_assert!(layout.elements().iter().any(|e| supplies(&e.semantic_name, e.semantic_index, s)));
            }
        }
    }

    #[test]
    fn without_shader_numbers_registers_in_order(
        target in target(),
        elements in prop::collection::vec(element(), 0..40),
    ) {
        let c = layout_without_shader(&target, &elements);
        if let Some(layout) = c.layout {
            for (i, e) in layout.elements().iter().enumerate() {
                prop_assert_eq!(e.register, Some(i as u32));
            }
        } else {
            prop_assert_eq!(c.hresult, HResult::E_INVALIDARG);
        }
    }
}
