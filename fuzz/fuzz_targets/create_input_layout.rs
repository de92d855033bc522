//! `CreateInputLayout` on every target with arbitrary element arrays (NULL array, NULL and odd
//! names, any format code, slot, offset, class and step rate, a NumElements that may disagree
//! with the array) and arbitrary or structured (built, then damaged) shader bytecode.
//!
//! Nothing may panic; the result is consistent: a layout exactly when the HRESULT succeeds,
//! `S_FALSE` exactly for successful validate-only calls, one resolved element per described
//! element, every slot inside the target's slot range; and the shader-less path agrees with a
//! shader-less call's element checks.
#![no_main]

use arbitrary::Arbitrary;
use inlay::diag::{HResult, Severity};
use inlay::validation;
use inlay_fuzz::{ArbBytecode, ArbElement, ArbTarget, Biased};
use libfuzzer_sys::fuzz_target;

#[derive(Debug, Arbitrary)]
enum Count {
    /// NumElements equals the array length.
    Exact,
    /// NumElements is this much smaller (saturating).
    Fewer(u8),
    /// Any NumElements.
    Any(Biased),
}

#[derive(Debug, Arbitrary)]
struct Input {
    target: ArbTarget,
    /// `None` is a NULL `pInputElementDescs`.
    elements: Option<Vec<ArbElement>>,
    count: Count,
    bytecode: ArbBytecode,
    validate_only: bool,
}

fuzz_target!(|input: Input| {
    let target = input.target.0;
    let descs: Option<Vec<_>> = input
        .elements
        .as_ref()
        .map(|v| v.iter().map(ArbElement::desc).collect());
    let len = descs.as_ref().map_or(0, |d| d.len() as u32);
    let num = match input.count {
        Count::Exact => len,
        Count::Fewer(k) => len.saturating_sub(k as u32),
        Count::Any(b) => b.0,
    };
    let bytecode = input.bytecode.bytes();
    let c = inlay::CreateInputLayout::raw(&target, descs.as_deref())
.num_elements(num)
.validate_only(input.validate_only)
.bytecode(&bytecode);
    for d in &c.diagnostics {
        assert!(!d.to_string().is_empty());
        assert!(d.element.is_none_or(|e| e < len as usize));
    }
    let has_error = c.diagnostics.iter().any(|d| d.severity == Severity::Error);
    assert_eq!(c.is_success(), !has_error);
    assert_eq!(c.layout.is_some(), c.is_success());
    if c.is_success() {
        let expected = if input.validate_only {
            HResult::S_FALSE
        } else {
            HResult::S_OK
        };
        assert_eq!(c.hresult, expected);
        let layout = c.layout.as_ref().unwrap();
        assert_eq!(layout.elements().len(), num as usize);
        // Registers come from the signature as stored (any u32 in a hostile blob; the
        // assembler refuses one past v31 when drawing); slots are checked (R4).
        for e in layout.elements() {
            assert!(e.slot < target.max_input_slots());
        }
    } else {
        assert_eq!(c.hresult, HResult::E_INVALIDARG);
    }

    // The shader-less path (every element gets its own register) on the same array.
    if let Some(d) = &descs {
        let n = d.len().min(num as usize);
        let s = validation::layout_without_shader(&target, &d[..n]);
        assert_eq!(s.layout.is_some(), s.is_success());
    }
});
