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

/// `D3D12_INDEX_BUFFER_STRIP_CUT_VALUE`: the pipeline state's strip-cut index (D3D12 only;
/// d3d12-rules.md P12).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
pub enum StripCut {
    /// `D3D12_INDEX_BUFFER_STRIP_CUT_VALUE_DISABLED` (0): no index value cuts.
    #[default]
    Disabled,
    /// `D3D12_INDEX_BUFFER_STRIP_CUT_VALUE_0xFFFF` (1).
    Cut16,
    /// `D3D12_INDEX_BUFFER_STRIP_CUT_VALUE_0xFFFFFFFF` (2).
    Cut32,
}

impl StripCut {
    /// The enum value as `D3D12_GRAPHICS_PIPELINE_STATE_DESC` holds it, `None` for others.
    pub const fn from_d3d12(value: u32) -> Option<StripCut> {
        match value {
            0 => Some(StripCut::Disabled),
            1 => Some(StripCut::Cut16),
            2 => Some(StripCut::Cut32),
            _ => None,
        }
    }

    /// The enum value.
    pub const fn d3d12_value(self) -> u32 {
        match self {
            StripCut::Disabled => 0,
            StripCut::Cut16 => 1,
            StripCut::Cut32 => 2,
        }
    }

    /// The index value that cuts a strip, compared with the index as read (zero-extended)
    /// whatever the index format: 0xFFFF cuts in a 32-bit index buffer too, and 0xFFFFFFFF
    /// never matches a 16-bit index (vkd3d-proton `test_primitive_restart`, P12).
    pub const fn cut_value(self) -> Option<u32> {
        match self {
            StripCut::Disabled => None,
            StripCut::Cut16 => Some(0xffff),
            StripCut::Cut32 => Some(0xffff_ffff),
        }
    }

    /// `disabled`, `0xffff` or `0xffffffff` (the conformance and CLI spelling).
    pub const fn as_str(self) -> &'static str {
        match self {
            StripCut::Disabled => "disabled",
            StripCut::Cut16 => "0xffff",
            StripCut::Cut32 => "0xffffffff",
        }
    }
}

/// `D3D12_PRIMITIVE_TOPOLOGY_TYPE`: the class of topology a pipeline state draws (D3D12
/// only; a draw's topology must belong to it, P13).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum TopologyType {
    /// `UNDEFINED` (0).
    Undefined,
    /// `POINT` (1).
    Point,
    /// `LINE` (2).
    Line,
    /// `TRIANGLE` (3).
    Triangle,
    /// `PATCH` (4).
    Patch,
}

impl TopologyType {
    /// The enum value, `None` past `PATCH`.
    pub const fn from_d3d12(value: u32) -> Option<TopologyType> {
        match value {
            0 => Some(TopologyType::Undefined),
            1 => Some(TopologyType::Point),
            2 => Some(TopologyType::Line),
            3 => Some(TopologyType::Triangle),
            4 => Some(TopologyType::Patch),
            _ => None,
        }
    }

    /// The enum value.
    pub const fn d3d12_value(self) -> u32 {
        match self {
            TopologyType::Undefined => 0,
            TopologyType::Point => 1,
            TopologyType::Line => 2,
            TopologyType::Triangle => 3,
            TopologyType::Patch => 4,
        }
    }

    /// `undefined`, `point`, `line`, `triangle` or `patch`.
    pub const fn as_str(self) -> &'static str {
        match self {
            TopologyType::Undefined => "undefined",
            TopologyType::Point => "point",
            TopologyType::Line => "line",
            TopologyType::Triangle => "triangle",
            TopologyType::Patch => "patch",
        }
    }

    /// Parses [`TopologyType::as_str`]'s spelling (any case).
    pub fn from_name(s: &str) -> Option<TopologyType> {
        (0..5)
            .filter_map(TopologyType::from_d3d12)
            .find(|t| t.as_str().eq_ignore_ascii_case(s))
    }
}

/// What a D3D12 pipeline state adds to its input layout for the input assembler: the strip
/// cut and the topology type (`D3D12_GRAPHICS_PIPELINE_STATE_DESC.IBStripCutValue`,
/// `.PrimitiveTopologyType`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct PipelineIa {
    /// The strip-cut index.
    pub strip_cut: StripCut,
    /// The topology type.
    pub topology_type: TopologyType,
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
/// Only `CreateInputLayout` (or, for D3D12, the input-layout part of
/// `CreateGraphicsPipelineState`) makes one ([`create_input_layout`](crate::create_input_layout),
/// [`CreateInputLayout`](crate::CreateInputLayout),
/// [`layout_without_shader`](crate::layout_without_shader)): the fields are private and there
/// is no `Default`, so every layout the assembler and the fetch path see has passed validation
/// (IA formats, slots below the limit, registers below 32, one class and step rate per slot).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct InputLayout {
    elements: Vec<LayoutElement>,
    slots: Vec<SlotLayout>,
    signature: Signature,
    pipeline: Option<PipelineIa>,
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
            pipeline: None,
        }
    }

    /// The layout as part of a D3D12 pipeline state (crate-internal: only D3D12 creation
    /// sets it).
    pub(crate) fn with_pipeline(mut self, pipeline: PipelineIa) -> InputLayout {
        self.pipeline = Some(pipeline);
        self
    }

    /// The D3D12 pipeline state's strip cut and topology type; `None` for a D3D10/D3D11
    /// input layout (whose strips always cut at the index format's all-ones value).
    pub fn pipeline(&self) -> Option<&PipelineIa> {
        self.pipeline.as_ref()
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
