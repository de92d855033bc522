//! Property tests for `CreateInputLayout` with shader bytecode (issue "bad input never
//! hurts"): arbitrary element arrays (NULL array and names, any format, slot, offset, class,
//! step rate, a NumElements that disagrees with the array) against arbitrary or damaged
//! bytecode on every target never panic, and the result is self-consistent. Array-only
//! properties are in `create_props.rs`; the cargo-fuzz target `create_input_layout` explores
//! the same space for millions of inputs.

mod prop_support;

use inlay::diag::{HResult, MessageId, Severity};
use inlay::dxbc;
use inlay::validation::{SignatureProblem, read_input_signature};
use prop_support::{biased, bytecode, element, target};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn creation_never_panics_and_is_consistent(
        t in target(),
        elements in prop::option::weighted(0.95, prop::collection::vec(element(), 0..10)),
        count in prop_oneof![Just(None), biased().prop_map(Some)],
        code in bytecode(),
        validate_only in any::<bool>(),
    ) {
        let len = elements.as_ref().map_or(0, |e| e.len() as u32);
        let num = count.unwrap_or(len);
        let c = inlay::CreateInputLayout::raw(&t, elements.as_deref())
.num_elements(num)
.validate_only(validate_only)
.bytecode(&code);
        let has_error = c.diagnostics.iter().any(|d| d.severity == Severity::Error);
        prop_assert_eq!(c.is_success(), !has_error);
        prop_assert_eq!(c.layout.is_some(), c.is_success());
        for d in &c.diagnostics {
            prop_assert!(!d.message.is_empty());
            prop_assert!(d.element.is_none_or(|e| e < len as usize));
        }
        if let Some(layout) = &c.layout {
            let expected = if validate_only { HResult::S_FALSE } else { HResult::S_OK };
            prop_assert_eq!(c.hresult, expected);
            prop_assert_eq!(layout.elements().len(), num as usize);
            // Registers are the signature's as stored (any value in a hostile blob); slots
            // are checked (R4).
            for e in layout.elements() {
                prop_assert!(e.slot < t.max_input_slots());
            }
        } else {
            prop_assert_eq!(c.hresult, HResult::E_INVALIDARG);
        }
        // Unreadable bytecode is an error value naming the problem (R31), never a success.
        if let Err(p) = read_input_signature(&code) {
            prop_assert!(!p.to_string().is_empty());
            if elements.is_some() && num <= len && num <= t.max_elements() {
                prop_assert!(c.error_ids().contains(&MessageId::CREATEINPUTLAYOUT_UNPARSEABLEINPUTSIGNATURE));
            }
            if code.is_empty() {
                prop_assert_eq!(p, SignatureProblem::NoBytecode);
            }
        }
    }

    /// A digest-correct blob whose signature chunk parses gives back exactly that signature.
    #[test]
    fn readable_bytecode_gives_its_signature(code in bytecode()) {
        if let Ok(sig) = read_input_signature(&code) {
            let c = dxbc::Container::parse(&code).unwrap();
            prop_assert!(c.checksum_matches());
            prop_assert_eq!(c.input_signature(), Ok(Some(sig)));
        }
    }
}
