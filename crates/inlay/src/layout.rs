//! The resolved input layout: what `CreateInputLayout` hands the driver.
//!
//! After creation the runtime keeps, per element, {slot, offset, format, class, step rate,
//! register}; semantic names no longer matter (R36). inlay keeps the names too, for display,
//! and the input signature the layout was matched against, so that
//! [`InputLayout::is_compatible_with`] can tell whether the layout may be reused with another
//! shader (identical input signature, semantics included; Learn CreateInputLayout remarks).

use crate::dxbc::signature::Signature;
use crate::format::Format;

/// Input class of a slot or element.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum InputClass {
    /// `D3D11_INPUT_PER_VERTEX_DATA`.
    PerVertex,
    /// `D3D11_INPUT_PER_INSTANCE_DATA`.
    PerInstance,
}

impl InputClass {
    /// `"vertex"` or `"instance"` (the conformance schema's spelling).
    pub const fn as_str(self) -> &'static str {
        match self {
            InputClass::PerVertex => "vertex",
            InputClass::PerInstance => "instance",
        }
    }
}

/// One element after validation, with its offset resolved and its register found.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LayoutElement {
    /// Semantic name as the application gave it.
    pub semantic_name: String,
    /// Semantic index.
    pub semantic_index: u32,
    /// Format (always an IA vertex format once validated).
    pub format: Format,
    /// Input slot.
    pub slot: u32,
    /// Byte offset inside the slot's vertex, APPEND_ALIGNED resolved (R26).
    pub offset: u32,
    /// Input class.
    pub class: InputClass,
    /// Instance data step rate (0 for per-vertex elements).
    pub step_rate: u32,
    /// Input register fed by this element, or `None` when the signature has no such input.
    pub register: Option<u32>,
}

impl LayoutElement {
    /// Byte size of the element's format.
    pub fn byte_size(&self) -> u32 {
        self.format.info().map(|i| i.byte_size()).unwrap_or(0)
    }

    /// One past the last byte the element reads.
    pub fn end(&self) -> u64 {
        self.offset as u64 + self.byte_size() as u64
    }
}

/// What the layout says about one used input slot.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SlotLayout {
    /// Slot number.
    pub slot: u32,
    /// Class shared by every element of the slot (R12).
    pub class: InputClass,
    /// Step rate shared by the slot's elements (R13).
    pub step_rate: u32,
    /// Smallest stride that covers every element of the slot: the largest `offset + size`.
    pub min_stride: u32,
}

/// A successfully created input layout.
///
/// Only `CreateInputLayout` makes one ([`create_input_layout`](crate::create_input_layout),
/// [`CreateInputLayout`](crate::CreateInputLayout),
/// [`layout_without_shader`](crate::layout_without_shader)): the fields are private and there
/// is no `Default`, so every layout the assembler and the fetch path see has passed validation
/// (IA formats, slots below the limit, registers below 32, one class and step rate per slot).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct InputLayout {
    elements: Vec<LayoutElement>,
    slots: Vec<SlotLayout>,
    signature: Signature,
}

impl InputLayout {
    /// Assembles a layout from parts validation has resolved (crate-internal on purpose).
    pub(crate) fn from_parts(
        elements: Vec<LayoutElement>,
        slots: Vec<SlotLayout>,
        signature: Signature,
    ) -> InputLayout {
        InputLayout {
            elements,
            slots,
            signature,
        }
    }

    /// Elements in the caller's array order.
    pub fn elements(&self) -> &[LayoutElement] {
        &self.elements
    }

    /// Slots that have at least one element, in increasing slot order.
    pub fn slots(&self) -> &[SlotLayout] {
        &self.slots
    }

    /// The input signature the layout was created against.
    pub fn signature(&self) -> &Signature {
        &self.signature
    }

    /// Whether this layout may be used with a shader whose input signature is `other`:
    /// the signatures must be identical, semantic names included (case as stored).
    pub fn is_compatible_with(&self, other: &Signature) -> bool {
        self.signature == *other
    }

    /// The slot description for `slot`, if the layout uses it.
    pub fn slot(&self, slot: u32) -> Option<&SlotLayout> {
        self.slots.iter().find(|s| s.slot == slot)
    }
}
