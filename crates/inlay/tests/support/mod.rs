//! Helpers shared by the integration tests (each test file that needs them says `mod support;`).
//!
//! * [`create_layout`] — an [`InputLayout`] can only come out of `CreateInputLayout`, so tests
//!   that describe a layout by its resolved elements (slot, offset, register) get it through
//!   the real call, with a signature that puts each element on its register; [`valid`] first
//!   turns randomly generated elements into ones the call accepts.
#![allow(dead_code)]

use inlay::dxbc::{ComponentType, MinPrecision, Signature, SignatureElement, SystemValue};
use inlay::element::InputElementDesc;
use inlay::layout::{InputClass, InputLayout, LayoutElement};
use inlay::target::Target;
use inlay::{CreateInputLayout, Creation};

/// Runs `CreateInputLayout` (D3D11, 11_0) for the layout `elements` describe: each element's
/// slot, explicit offset, class and step rate, matched against a signature that puts each
/// element with a register on that register (all four components, float). Element names and
/// indices are kept unless two elements share one (CreateInputLayout refuses duplicates, 160);
/// then the element is renamed `E<array position>`.
pub fn try_create_layout(elements: &[LayoutElement]) -> Creation {
    let mut descs: Vec<InputElementDesc> = Vec::with_capacity(elements.len());
    let mut signature = Signature::default();
    for (i, e) in elements.iter().enumerate() {
        let duplicate = elements[..i].iter().any(|p| {
            p.semantic_name.eq_ignore_ascii_case(&e.semantic_name)
                && p.semantic_index == e.semantic_index
        });
        let (name, index) = if duplicate {
            (format!("E{i}"), 0)
        } else {
            (e.semantic_name.clone(), e.semantic_index)
        };
        let d = match e.class {
            InputClass::PerVertex => {
                InputElementDesc::per_vertex(&name, index, e.format, e.slot, e.offset)
            }
            InputClass::PerInstance => InputElementDesc::per_instance(
                &name,
                index,
                e.format,
                e.slot,
                e.offset,
                e.step_rate,
            ),
        };
        if let Some(register) = e.register {
            signature.elements.push(SignatureElement {
                stream: 0,
                semantic_name: name.clone(),
                semantic_index: index,
                system_value: SystemValue::UNDEFINED,
                component_type: ComponentType::FLOAT32,
                register,
                mask: 0xf,
                read_write_mask: 0xf,
                min_precision: MinPrecision(0),
            });
        }
        descs.push(d);
    }
    CreateInputLayout::new(&Target::default(), &descs).signature(Ok(&signature))
}

/// The nearest elements `CreateInputLayout` accepts, for randomly generated layouts: at most
/// 32 elements, slots and registers below 32 (taken modulo 32), each element's offset rounded
/// up to its format's alignment (R25; down when rounding up would pass 2^32; 0xffffffff, the
/// append marker, is taken as 0xfffffffe first), and each slot's
/// class and step rate those of its first element (R12, R13); elements whose format is not
/// an IA vertex format at D3D11 11_0 are left out (R20).
pub fn valid(elements: &[LayoutElement]) -> Vec<LayoutElement> {
    let target = Target::default();
    let mut out: Vec<LayoutElement> = Vec::new();
    for e in elements
        .iter()
        .filter(|e| target.supports_vertex_format(e.format))
        .take(32)
    {
        let mut e = e.clone();
        e.slot %= 32;
        e.register = e.register.map(|r| r % 32);
        // 0xffffffff is D3D11_APPEND_ALIGNED_ELEMENT, not an offset: take the last byte below.
        if e.offset == inlay::element::APPEND_ALIGNED_ELEMENT {
            e.offset -= 1;
        }
        if let Some(info) = e.format.info() {
            let a = info.offset_alignment();
            let down = e.offset - e.offset % a;
            e.offset = if down == e.offset {
                down
            } else {
                down.checked_add(a).unwrap_or(down)
            };
        }
        if let Some(first) = out.iter().find(|p| p.slot == e.slot) {
            e.class = first.class;
            e.step_rate = first.step_rate;
        }
        if e.class == InputClass::PerVertex {
            e.step_rate = 0;
        }
        out.push(e);
    }
    out
}

/// [`try_create_layout`], which must succeed; the layout's elements are then exactly
/// `elements` (names aside when renamed).
pub fn create_layout(elements: &[LayoutElement]) -> InputLayout {
    let layout = try_create_layout(elements)
        .into_result()
        .unwrap_or_else(|e| panic!("the test layout {elements:?} is refused: {e}"));
    for (made, wanted) in layout.elements().iter().zip(elements) {
        assert_eq!(
            (
                made.format,
                made.slot,
                made.offset,
                made.class,
                made.step_rate,
                made.register
            ),
            (
                wanted.format,
                wanted.slot,
                wanted.offset,
                wanted.class,
                wanted.step_rate,
                wanted.register
            ),
            "CreateInputLayout resolved a test element differently"
        );
    }
    layout
}

/// The layout of no elements (`CreateInputLayout` with `NumElements` 0: S_OK and warning 420).
pub fn empty_layout() -> InputLayout {
    create_layout(&[])
}
