//! The vertex writer: whole vertices through a created layout into slot buffers.
#![forbid(unsafe_code)]

use crate::format::FormatInfo;
use crate::layout::{InputClass, InputLayout};

use super::element::encode_into;
use super::{EncodeError, Rounding, check_format};

/// How a [`VertexWriter`] (or [`super::repack`]) lays out its buffers.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct WriterOptions {
    /// Rounding of narrower formats (default [`Rounding::Nearest`]).
    pub rounding: Rounding,
    /// The value of every byte no element covers (padding inside and after a vertex); 0 by
    /// default.
    pub padding: u8,
    /// Strides per slot, `(slot, stride)`; a slot not listed gets the layout's smallest
    /// stride for it (the largest `offset + size` of its elements, R36). A stride smaller
    /// than that is an error.
    pub strides: Vec<(u32, u32)>,
    /// The most bytes all slot buffers together may take; `None` = no limit beyond memory.
    /// Checked before anything is allocated.
    pub max_bytes: Option<u64>,
}

/// One output buffer: the data of one input slot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlotBuffer {
    /// Input slot.
    pub slot: u32,
    /// Bytes from one record (vertex, or instance record) to the next.
    pub stride: u32,
    /// Class of the slot's elements.
    pub class: InputClass,
    /// Step rate of a per-instance slot (0 for per-vertex).
    pub step_rate: u32,
    /// The bytes: `records × stride`.
    pub data: Vec<u8>,
}

impl SlotBuffer {
    /// Number of records (vertices for a per-vertex slot, instance records otherwise).
    pub fn records(&self) -> u64 {
        if self.stride == 0 {
            0
        } else {
            self.data.len() as u64 / self.stride as u64
        }
    }
}

/// Writes whole vertices through a created layout into one buffer per used slot.
///
/// The writer is sized up front for `vertices` vertices and `instances` instances: a
/// per-vertex slot holds `vertices` records, a per-instance slot with step rate `r` holds
/// `⌈instances / r⌉` records (one record when `r` is 0: every instance reads element 0;
/// ia-semantics §2). Every byte starts as the padding value, so bytes no element covers keep
/// it; elements are written by [`VertexWriter::write_vertex`] (all elements of one vertex,
/// the per-instance ones at the record instance `instance` reads) or
/// [`VertexWriter::write_element`]. A later write of the same bytes replaces an earlier one.
///
/// ```
/// use inlay::element::InputElementDesc;
/// use inlay::encode::VertexWriter;
/// use inlay::format::Format;
/// use inlay::target::Target;
/// let elements = [
///     InputElementDesc::per_vertex("POSITION", 0, Format::R32G32_FLOAT, 0, 0),
///     InputElementDesc::per_vertex("COLOR", 0, Format::R8G8B8A8_UNORM, 0, 8),
/// ];
/// let created = inlay::validation::layout_without_shader(&Target::default(), &elements);
/// let layout = created.layout.unwrap();
/// let mut w = VertexWriter::new(&layout, 2, 1).unwrap();
/// let one = 1.0f32.to_bits();
/// w.write_vertex(1, 0, &[[one, one, 0, 0], [one, 0, 0, one]]).unwrap();
/// let buffers = w.into_buffers();
/// assert_eq!(buffers[0].data.len(), 24); // 2 vertices × stride 12
/// assert_eq!(&buffers[0].data[20..24], &[0xff, 0, 0, 0xff]);
/// ```
#[derive(Clone, Debug)]
pub struct VertexWriter<'l> {
    layout: &'l InputLayout,
    rounding: Rounding,
    vertices: u32,
    instances: u32,
    /// Per element: its format row and the index of its buffer in `buffers`.
    elements: Vec<(&'static FormatInfo, usize)>,
    buffers: Vec<SlotBuffer>,
    /// Per buffer: whether it was started from earlier bytes ([`VertexWriter::start_from`]).
    kept: Vec<bool>,
}

/// Records a slot of `class`/`step_rate` holds for the given counts.
pub(crate) fn records_for(class: InputClass, step_rate: u32, vertices: u32, instances: u32) -> u64 {
    match class {
        InputClass::PerVertex => vertices as u64,
        InputClass::PerInstance if instances == 0 => 0,
        InputClass::PerInstance if step_rate == 0 => 1,
        InputClass::PerInstance => (instances as u64).div_ceil(step_rate as u64),
    }
}

/// The record an element of `class`/`step_rate` reads for (vertex, instance).
pub(crate) fn record_of(class: InputClass, step_rate: u32, vertex: u32, instance: u32) -> u32 {
    match class {
        InputClass::PerVertex => vertex,
        InputClass::PerInstance if step_rate == 0 => 0,
        InputClass::PerInstance => instance / step_rate,
    }
}

impl<'l> VertexWriter<'l> {
    /// A writer for `vertices` vertices and `instances` instances with default options (the
    /// layout's strides, zero padding, [`Rounding::Nearest`], no size limit).
    pub fn new(
        layout: &'l InputLayout,
        vertices: u32,
        instances: u32,
    ) -> Result<Self, EncodeError> {
        Self::with_options(layout, vertices, instances, &WriterOptions::default())
    }

    /// A writer with explicit options. Fails when an element's format cannot be encoded, a
    /// stride is too small, or the buffers would exceed `options.max_bytes` (nothing is
    /// allocated then).
    pub fn with_options(
        layout: &'l InputLayout,
        vertices: u32,
        instances: u32,
        options: &WriterOptions,
    ) -> Result<Self, EncodeError> {
        let mut plan = Vec::new();
        let mut total: u64 = 0;
        for s in layout.slots() {
            let stride = match options
                .strides
                .iter()
                .rev()
                .find(|(slot, _)| *slot == s.slot)
            {
                Some(&(_, stride)) if stride < s.min_stride => {
                    return Err(EncodeError::StrideTooSmall {
                        slot: s.slot,
                        stride,
                        min: s.min_stride,
                    });
                }
                Some(&(_, stride)) => stride,
                None => s.min_stride,
            };
            let records = records_for(s.class, s.step_rate, vertices, instances);
            total = total.saturating_add(records.saturating_mul(stride as u64));
            plan.push((s, stride, records));
        }
        let limit = options.max_bytes.unwrap_or(isize::MAX as u64);
        if total > limit {
            let (s, stride, records) = plan
                .iter()
                .max_by_key(|(_, stride, records)| records.saturating_mul(*stride as u64))
                .copied()
                .expect("a positive total has a slot");
            return Err(EncodeError::SizeLimit {
                slot: s.slot,
                records,
                stride,
                bytes: total,
                limit,
            });
        }
        let mut buffers = Vec::with_capacity(plan.len());
        for (s, stride, records) in plan {
            let len = (records * stride as u64) as usize;
            let mut data = Vec::new();
            data.try_reserve_exact(len)
                .map_err(|_| EncodeError::SizeLimit {
                    slot: s.slot,
                    records,
                    stride,
                    bytes: total,
                    limit,
                })?;
            data.resize(len, options.padding);
            buffers.push(SlotBuffer {
                slot: s.slot,
                stride,
                class: s.class,
                step_rate: s.step_rate,
                data,
            });
        }
        let mut elements = Vec::with_capacity(layout.elements().len());
        for (i, e) in layout.elements().iter().enumerate() {
            let info = check_format(e.format)?;
            let b = buffers.iter().position(|b| b.slot == e.slot).ok_or(
                EncodeError::InconsistentLayout {
                    element: i,
                    slot: e.slot,
                },
            )?;
            elements.push((info, b));
        }
        let kept = vec![false; buffers.len()];
        Ok(VertexWriter {
            layout,
            rounding: options.rounding,
            vertices,
            instances,
            elements,
            buffers,
            kept,
        })
    }

    /// Starts slot `slot`'s buffer from `bytes`, the records as they were before an edit (the
    /// same number of records and stride): bytes no element covers keep their values, and a
    /// later write of an element whose bytes there already decode to exactly the lanes
    /// written (the bits of every lane the format stores) leaves those bytes as they are.
    /// So values that were not changed keep their codes, the non-canonical ones too (an SNORM
    /// −128 beside −127, both −1.0; a 16-bit NaN's payload), and an unedited round trip
    /// through decoded values gives the same bytes.
    ///
    /// ```
    /// use inlay::element::InputElementDesc;
    /// use inlay::encode::VertexWriter;
    /// use inlay::format::Format;
    /// use inlay::target::Target;
    /// let elements = [InputElementDesc::per_vertex("NORMAL", 0, Format::R8G8_SNORM, 0, 0)];
    /// let layout = inlay::validation::layout_without_shader(&Target::default(), &elements)
    ///     .layout
    ///     .unwrap();
    /// let minus_one = (-1.0f32).to_bits();
    /// let mut w = VertexWriter::new(&layout, 1, 0).unwrap();
    /// w.start_from(0, &[0x80, 0x80]).unwrap(); // −128, −128: both decode to −1.0
    /// w.write_element(0, 0, &[minus_one, minus_one, 0, 0]).unwrap();
    /// assert_eq!(w.buffers()[0].data, [0x80, 0x80]); // unchanged values keep their codes
    /// w.write_element(0, 0, &[minus_one, 0, 0, 0]).unwrap();
    /// assert_eq!(w.buffers()[0].data, [0x81, 0x00]); // a changed value is encoded (−127)
    /// ```
    pub fn start_from(&mut self, slot: u32, bytes: &[u8]) -> Result<(), EncodeError> {
        let Some(b) = self.buffers.iter().position(|b| b.slot == slot) else {
            return Err(EncodeError::BadSource {
                slot,
                why: "the layout has no element in this slot".into(),
            });
        };
        let buf = &mut self.buffers[b];
        if bytes.len() != buf.data.len() {
            return Err(EncodeError::BadSource {
                slot,
                why: format!(
                    "the earlier records are {} bytes; {} records of {} bytes are {}",
                    bytes.len(),
                    buf.records(),
                    buf.stride,
                    buf.data.len()
                ),
            });
        }
        buf.data.copy_from_slice(bytes);
        self.kept[b] = true;
        Ok(())
    }

    /// The layout written through.
    pub fn layout(&self) -> &'l InputLayout {
        self.layout
    }

    /// Writes every element of vertex `vertex` of instance `instance`: `values[i]` are the
    /// lanes of layout element `i` (array order). Per-vertex elements go to record `vertex`
    /// of their slot, per-instance ones to the record instance `instance` reads
    /// (`instance / step_rate`, 0 for step rate 0). Checks everything before writing, so an
    /// error leaves the buffers unchanged.
    pub fn write_vertex(
        &mut self,
        vertex: u32,
        instance: u32,
        values: &[[u32; 4]],
    ) -> Result<(), EncodeError> {
        if values.len() != self.elements.len() {
            return Err(EncodeError::ValueCount {
                vertex: vertex as u64,
                expected: self.elements.len(),
                got: values.len(),
            });
        }
        let mut has_instanced = false;
        let mut has_vertex = false;
        for e in self.layout.elements() {
            match e.class {
                InputClass::PerVertex => has_vertex = true,
                InputClass::PerInstance => has_instanced = true,
            }
        }
        if has_vertex && vertex >= self.vertices {
            return Err(EncodeError::OutOfRange {
                what: "vertex",
                index: vertex as u64,
                count: self.vertices as u64,
            });
        }
        if has_instanced && instance >= self.instances {
            return Err(EncodeError::OutOfRange {
                what: "instance",
                index: instance as u64,
                count: self.instances as u64,
            });
        }
        for (i, lanes) in values.iter().enumerate() {
            let e = &self.layout.elements()[i];
            let record = record_of(e.class, e.step_rate, vertex, instance);
            self.put(i, record, lanes);
        }
        Ok(())
    }

    /// Writes one element (`element` = index in the layout's array) at record `record` of
    /// its slot.
    pub fn write_element(
        &mut self,
        element: usize,
        record: u32,
        lanes: &[u32; 4],
    ) -> Result<(), EncodeError> {
        let Some(&(_, b)) = self.elements.get(element) else {
            return Err(EncodeError::Shape(format!(
                "element {element} does not exist: the layout has {} elements",
                self.elements.len()
            )));
        };
        let records = self.buffers[b].records();
        if record as u64 >= records {
            return Err(EncodeError::OutOfRange {
                what: "record",
                index: record as u64,
                count: records,
            });
        }
        self.put(element, record, lanes);
        Ok(())
    }

    fn put(&mut self, element: usize, record: u32, lanes: &[u32; 4]) {
        let (info, b) = self.elements[element];
        let buf = &mut self.buffers[b];
        let at =
            record as usize * buf.stride as usize + self.layout.elements()[element].offset as usize;
        if self.kept[b] {
            let was = crate::convert::decode_element(info, &buf.data[at..]);
            let mask = info.lane_mask();
            if (0..4).all(|l| mask & (1 << l) == 0 || was[l] == lanes[l]) {
                return;
            }
        }
        encode_into(info, lanes, self.rounding, &mut buf.data[at..]);
    }

    /// The buffers, one per used slot in increasing slot order.
    pub fn buffers(&self) -> &[SlotBuffer] {
        &self.buffers
    }

    /// The buffers, consuming the writer.
    pub fn into_buffers(self) -> Vec<SlotBuffer> {
        self.buffers
    }
}
