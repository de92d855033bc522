//! The bytes each slot of a capture binds: binary data as read, a text dump's printed values
//! encoded through the layout by the library's encoder. One call for every shell (the CLI's
//! `view`, Python's `Dump.vertex_buffers`, the Blender add-on), so one input has one answer.
#![forbid(unsafe_code)]

use std::borrow::Cow;

use crate::element::{INPUT_PER_INSTANCE_DATA, InputElementDesc};
use crate::encode::{VertexWriter, WriterOptions};
use crate::layout::InputLayout;
use crate::target::Target;

use super::{At, Capture, CaptureError, CaptureWarning, SlotCapture, SlotData, TextVertices};

/// The most bytes one text dump slot is encoded into (the CLI's limit on a binary input):
/// a header's byte offset or first vertex can name gigabytes that the text does not hold.
pub const MAX_TEXT_BUFFER: u64 = 1 << 30;

/// The bytes of one slot, from the buffer's start (the bind offset applies).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlotBytes<'a> {
    /// Slot number.
    pub slot: u32,
    /// The bytes: borrowed from a binary slot, made for a text one.
    pub bytes: Cow<'a, [u8]>,
}

/// What [`Capture::slot_bytes`] gives: every slot's bytes, and the doubts met making them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CaptureBuffers<'a> {
    /// One entry per slot of the capture, in its slot order.
    pub slots: Vec<SlotBytes<'a>>,
    /// Values a text dump lacks (written as zero), one warning per slot.
    pub warnings: Vec<CaptureWarning>,
}

impl Capture {
    /// The bytes each slot binds. A binary slot's data is borrowed as read. A text slot (a
    /// 3DMigoto dump without its `.buf`, a RenderDoc CSV) holds values, not bytes: they are
    /// encoded through the capture's layout by [`VertexWriter`] (rounding
    /// [`crate::encode::Rounding::Nearest`], which gives back the code each printed value was
    /// decoded from), at element numbers `first..first + rows` with the slot's stride, after
    /// `offset` zero bytes (the bind offset counts from the buffer's start). Element numbers
    /// before `first`, padding, and values the text lacks are zero, each slot with missing
    /// values warned about once.
    ///
    /// Fails when the dump's layout is refused by `CreateInputLayout`, a value cannot be
    /// encoded, or a text slot would take more than [`MAX_TEXT_BUFFER`] bytes.
    pub fn slot_bytes(&self) -> Result<CaptureBuffers<'_>, CaptureError> {
        let mut out = CaptureBuffers::default();
        let mut layout: Option<InputLayout> = None;
        for s in &self.slots {
            let bytes = match &s.data {
                SlotData::Binary(b) => Cow::Borrowed(b.as_slice()),
                SlotData::Text(t) => {
                    if layout.is_none() {
                        layout = Some(self.created_layout(s)?);
                    }
                    let Some(l) = layout.as_ref() else {
                        continue;
                    };
                    Cow::Owned(text_bytes(l, s, t, &mut out.warnings)?)
                }
            };
            out.slots.push(SlotBytes {
                slot: s.slot,
                bytes,
            });
        }
        Ok(out)
    }

    /// The capture's elements through `CreateInputLayout` without a shader.
    fn created_layout(&self, s: &SlotCapture) -> Result<InputLayout, CaptureError> {
        let created = crate::validation::layout_without_shader(&Target::default(), &self.elements);
        let msgs: Vec<String> = created.errors().map(|d| d.to_string()).collect();
        created.layout.ok_or_else(|| {
            at(s).error(
                None,
                format!(
                    "the dump's layout is refused by CreateInputLayout: {}",
                    msgs.join("; ")
                ),
            )
        })
    }
}

fn at(s: &SlotCapture) -> At<'_> {
    At {
        file: s.source.to_str().unwrap_or("?"),
        line: None,
    }
}

/// A text slot's values written through the layout's elements of that slot.
fn text_bytes(
    layout: &InputLayout,
    s: &SlotCapture,
    t: &TextVertices,
    warnings: &mut Vec<CaptureWarning>,
) -> Result<Vec<u8>, CaptureError> {
    let here = at(s);
    let records = t.first.saturating_add(t.rows() as u32);
    let size = u64::from(s.offset) + u64::from(records) * u64::from(s.stride);
    if size > MAX_TEXT_BUFFER {
        return Err(here.error(
            None,
            format!(
                "byte offset {} + {records} vertices x stride {} = {size} bytes is more than \
                 the {MAX_TEXT_BUFFER}-byte limit of a text dump's buffer",
                s.offset, s.stride
            ),
        ));
    }
    // Only this slot's elements are written: a layout of them alone, created like any layout
    // (their resolved offsets kept).
    let globals: Vec<usize> = (0..layout.elements().len())
        .filter(|&g| layout.elements()[g].slot == s.slot)
        .collect();
    let descs: Vec<InputElementDesc> = globals
        .iter()
        .map(|&g| {
            let e = &layout.elements()[g];
            InputElementDesc {
                semantic_name: Some(e.semantic_name.clone()),
                semantic_index: e.semantic_index,
                format: e.format,
                input_slot: e.slot,
                aligned_byte_offset: e.offset,
                input_slot_class: match e.class {
                    crate::layout::InputClass::PerVertex => 0,
                    crate::layout::InputClass::PerInstance => INPUT_PER_INSTANCE_DATA,
                },
                instance_data_step_rate: e.step_rate,
            }
        })
        .collect();
    let own = crate::validation::layout_without_shader(&Target::default(), &descs)
        .into_result()
        .map_err(|e| here.error(None, e.to_string()))?;
    let options = WriterOptions {
        strides: vec![(s.slot, s.stride)],
        ..Default::default()
    };
    let mut writer = VertexWriter::with_options(&own, records, records, &options)
        .map_err(|e| here.error(None, e.to_string()))?;
    let mut missing = 0usize;
    for (k, &global) in globals.iter().enumerate() {
        for r in t.first..records {
            match t.get(global, r) {
                Some(lanes) => writer
                    .write_element(k, r, &lanes)
                    .map_err(|e| here.error(None, e.to_string()))?,
                None => missing += 1,
            }
        }
    }
    if missing > 0 {
        warnings.push(here.warning(
            None,
            format!("{missing} element values are not in the text dump; they are read as 0"),
        ));
    }
    let data = writer
        .into_buffers()
        .into_iter()
        .next()
        .map(|b| b.data)
        .unwrap_or_default();
    let mut bytes = vec![0u8; s.offset as usize];
    bytes.extend_from_slice(&data);
    Ok(bytes)
}
