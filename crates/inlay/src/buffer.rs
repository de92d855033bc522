//! Buffers bound to the input assembler — what `IASetVertexBuffers` and `IASetIndexBuffer`
//! record — and the one addressing rule that turns a vertex or an instance into the bytes an
//! element reads.
//!
//! Both fetch paths use this module and nothing of each other: the reference input assembler
//! ([`crate::assembler`]) and the compiled fast fetch ([`crate::fetch`], checked bit for bit
//! against the reference). The rule, written once here (D3D11.3 functional spec §8.1.3, §8.4.1,
//! §8.6.1, §8.19.1–§8.19.2, §8.20; `ia-semantics.md` §2–§3; `createinputlayout-rules.md`
//! R44–R46; Wine `test_vertex_id`, `test_instanced_draw`, `test_unbound_streams`):
//!
//! * **vertex index** — a non-indexed draw's vertex `i` is element `StartVertexLocation + i`
//!   ([`sequential_vertex`]); an indexed draw's vertex is element `BaseVertexLocation + index`
//!   ([`indexed_vertex`]), the index value zero-extended. All IA arithmetic is 32-bit unsigned
//!   and wraps; the signed base vertex is reinterpreted unchanged (§8.19.1).
//! * **instance index** — a per-instance element of instance `j` reads element
//!   `StartInstanceLocation + j / step_rate`, and element `StartInstanceLocation` for step
//!   rate 0, whose counter never advances ([`Instance::element_index`]; §8.1.3, R46).
//! * **address** — element `n` of a slot lies at `bind offset + stride × n + element offset`,
//!   wrapping ([`VertexBufferBinding::element_address`]); index `k` of an index buffer at
//!   `bind offset + k × index size` ([`IndexBufferBinding::read`]).
//! * **out of bounds** — when any byte of the element lies outside
//!   `[bind offset, ByteWidth)` the read is out of bounds (§8.19.2: the bind offset is the
//!   lower bound, no negative indexing; a straddling element counts as wholly outside): the
//!   format's present components read 0 and the missing ones their defaults
//!   ([`crate::convert::out_of_bounds`], R44); an out-of-bounds index reads 0. A slot with no
//!   buffer bound reads 0 in all four lanes, the w default included (§8.20, R45).

use crate::convert;
use crate::format::{Format, FormatInfo};
use crate::layout::InputClass;

/// `D3D11_REQ_MULTI_ELEMENT_STRUCTURE_SIZE_IN_BYTES`: the largest vertex stride (spec §8.19.3).
pub const MAX_VERTEX_STRIDE: u32 = 2048;

/// Start of the `size` bytes at `bind_offset + stride × n + element_offset` (32-bit wrapping
/// arithmetic) when they all lie inside `[bind_offset, len)`; `None` when the read is out of
/// bounds (spec §8.19.1–§8.19.2).
#[inline]
fn bounded_address(
    bind_offset: u32,
    stride: u32,
    n: u32,
    element_offset: u32,
    size: u32,
    len: usize,
) -> Option<usize> {
    let addr = bind_offset
        .wrapping_add(stride.wrapping_mul(n))
        .wrapping_add(element_offset);
    (addr >= bind_offset && addr as u64 + size as u64 <= len as u64).then_some(addr as usize)
}

/// How many of the element numbers `0, 1, 2, …` [`bounded_address`] finds inside before the
/// first it might not: those whose address `bind_offset + stride × n + element_offset`,
/// counted without the 32-bit wrap, is at most both `len − size` and 2^32 − 1 — so none of
/// them wraps and all lie inside. `u64::MAX` when the stride is 0 and element 0 is inside; 0
/// when element 0 is not. The rule of [`bounded_address`] for a run from 0, decided once.
#[inline]
fn bounded_prefix(
    bind_offset: u32,
    stride: u32,
    element_offset: u32,
    size: u32,
    len: usize,
) -> u64 {
    let Some(limit) = (len as u64).checked_sub(size as u64) else {
        return 0;
    };
    let first = bind_offset as u64 + element_offset as u64;
    let Some(room) = limit.min(u32::MAX as u64).checked_sub(first) else {
        return 0;
    };
    match room.checked_div(stride as u64) {
        Some(q) => q + 1,
        None => u64::MAX,
    }
}

/// The element number a non-indexed draw's `i`-th vertex of an instance reads:
/// `StartVertexLocation + i`, wrapping (spec §8.4.1, §8.19.1).
#[inline]
pub const fn sequential_vertex(start_vertex: u32, i: u32) -> u32 {
    start_vertex.wrapping_add(i)
}

/// The element number an indexed draw's vertex with index value `index` reads:
/// `BaseVertexLocation + index`, the signed base reinterpreted as 32-bit unsigned, wrapping
/// (spec §8.6.1, §8.19.1).
#[inline]
pub const fn indexed_vertex(base_vertex: i32, index: u32) -> u32 {
    (base_vertex as u32).wrapping_add(index)
}

/// A vertex buffer bound to one slot: the whole buffer (its `ByteWidth` is `data.len()`),
/// the stride and the bind offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VertexBufferBinding<'a> {
    /// The buffer's bytes.
    pub data: &'a [u8],
    /// Bytes between consecutive vertices (or instances) of this slot; at most 2048.
    pub stride: u32,
    /// Byte offset of element 0 inside the buffer.
    pub offset: u32,
}

impl<'a> VertexBufferBinding<'a> {
    /// Byte address of element number `n` of a `size`-byte element at `element_offset` inside
    /// each vertex: `offset + stride × n + element_offset` (wrapping), or `None` when any of its
    /// bytes lies outside `[offset, data.len())` — an out-of-bounds read (spec §8.19.2).
    ///
    /// ```
    /// use inlay::buffer::VertexBufferBinding;
    /// let data = [0u8; 32];
    /// let b = VertexBufferBinding { data: &data, stride: 12, offset: 4 };
    /// assert_eq!(b.element_address(8, 4, 1), Some(24)); // 4 + 12·1 + 8
    /// assert_eq!(b.element_address(8, 8, 1), Some(24)); // bytes 24..32: the last ones there are
    /// assert_eq!(b.element_address(8, 12, 1), None); // bytes 24..36 straddle the end
    /// // 4 + 12·0xffff_ffff + 8 wraps to 0, below the bind offset: out of bounds.
    /// assert_eq!(b.element_address(8, 4, u32::MAX), None);
    /// ```
    #[inline]
    pub fn element_address(&self, element_offset: u32, size: u32, n: u32) -> Option<usize> {
        bounded_address(
            self.offset,
            self.stride,
            n,
            element_offset,
            size,
            self.data.len(),
        )
    }

    /// How many element numbers from 0 read a `size`-byte element at `element_offset` in
    /// bounds, by the rule of [`VertexBufferBinding::element_address`], before the first that
    /// may not (an address past the buffer or past 2^32 − 1); `u64::MAX` for stride 0 with
    /// element 0 inside. What a check that must not walk every vertex (draw validation) asks.
    ///
    /// ```
    /// use inlay::buffer::VertexBufferBinding;
    /// let data = [0u8; 32];
    /// let b = VertexBufferBinding { data: &data, stride: 12, offset: 4 };
    /// assert_eq!(b.in_bounds_prefix(8, 4), 2); // elements 0 and 1 (bytes 12..16, 24..28)
    /// assert_eq!(b.element_address(8, 4, 2), None);
    /// ```
    #[inline]
    pub fn in_bounds_prefix(&self, element_offset: u32, size: u32) -> u64 {
        bounded_prefix(
            self.offset,
            self.stride,
            element_offset,
            size,
            self.data.len(),
        )
    }

    /// The `size` bytes [`VertexBufferBinding::element_address`] finds, or `None` out of
    /// bounds.
    #[inline]
    pub fn element_bytes(&self, element_offset: u32, size: u32, n: u32) -> Option<&'a [u8]> {
        let a = self.element_address(element_offset, size, n)?;
        Some(&self.data[a..a + size as usize])
    }

    /// How the element numbers `first .. first + n` of a `size`-byte element at
    /// `element_offset` read, decided once for the whole run by the rule of
    /// [`VertexBufferBinding::element_address`]: when neither the element number nor the
    /// address wraps inside the run, addresses grow with the element number from at least the
    /// bind offset, so the run is wholly inside when its last element is, wholly outside when
    /// its first element is; anything else (a run reaching the buffer's end or wrapping, or an
    /// empty run) is [`Span::Mixed`].
    pub fn span(&self, element_offset: u32, size: u32, first: u32, n: usize) -> Span {
        if n == 0 {
            return Span::Mixed;
        }
        let last = first as u64 + n as u64 - 1;
        let addr = |v: u64| self.offset as u64 + self.stride as u64 * v + element_offset as u64;
        let (a0, a1) = (addr(first as u64), addr(last));
        let len = self.data.len() as u64;
        if last > u32::MAX as u64 || a1 > u32::MAX as u64 {
            Span::Mixed
        } else if a1 + size as u64 <= len {
            Span::Inside {
                start: a0 as usize,
                stride: self.stride as usize,
            }
        } else if a0 + size as u64 > len {
            Span::Outside
        } else {
            Span::Mixed
        }
    }
}

/// How a run of consecutive element numbers reads ([`VertexBufferBinding::span`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Span {
    /// Every element of the run is in bounds: the `i`-th at byte `start + i × stride`.
    Inside {
        /// Address of the run's first element.
        start: usize,
        /// The slot's stride.
        stride: usize,
    },
    /// Every element of the run is out of bounds.
    Outside,
    /// Decide element by element ([`VertexBufferBinding::element_address`]).
    Mixed,
}

/// Index format of an index buffer.
///
/// With the `serde` feature it is spelt as the conformance schema's `index_buffer.format`:
/// `"R16_UINT"` or `"R32_UINT"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize, serde::Serialize))]
pub enum IndexFormat {
    /// `DXGI_FORMAT_R16_UINT`: 2-byte indices, cut value 0xFFFF.
    #[cfg_attr(feature = "serde", serde(rename = "R16_UINT"))]
    R16Uint,
    /// `DXGI_FORMAT_R32_UINT`: 4-byte indices, cut value 0xFFFFFFFF.
    #[cfg_attr(feature = "serde", serde(rename = "R32_UINT"))]
    R32Uint,
}

impl IndexFormat {
    /// Both index formats, smallest first: the rows of [`crate::format::FORMATS`] with
    /// index-buffer support (see [`crate::format::index_formats`]).
    pub const ALL: [IndexFormat; 2] = [IndexFormat::R16Uint, IndexFormat::R32Uint];

    /// The DXGI format: the one place a variant is tied to its table row. Everything else
    /// (size, cut value, name) is read from that row.
    pub const fn format(self) -> Format {
        match self {
            IndexFormat::R16Uint => Format::R16_UINT,
            IndexFormat::R32Uint => Format::R32_UINT,
        }
    }

    /// The index format of a DXGI format, if it is one (`R16_UINT`, `R32_UINT`).
    pub fn from_format(format: Format) -> Option<IndexFormat> {
        IndexFormat::ALL.into_iter().find(|i| i.format() == format)
    }

    /// The format's row in [`crate::format::FORMATS`] (found at compile time).
    pub const fn info(self) -> &'static FormatInfo {
        match self {
            IndexFormat::R16Uint => R16_ROW,
            IndexFormat::R32Uint => R32_ROW,
        }
    }

    /// Bytes per index: the byte size of the format's table row.
    pub const fn size(self) -> u32 {
        self.info().byte_size()
    }

    /// The strip-cut value, every bit of an index set (spec §8.12): 0xFFFF, 0xFFFFFFFF.
    pub const fn cut_value(self) -> u32 {
        u32::MAX >> (32 - 8 * self.size())
    }

    /// The format's name without `DXGI_FORMAT_` (`"R16_UINT"`), from the table.
    pub const fn name(self) -> &'static str {
        self.info().name
    }
}

/// The table rows of the index formats, looked up once by the compiler (a missing row would
/// fail the build, never a draw).
const R16_ROW: &FormatInfo = index_row(IndexFormat::R16Uint);
const R32_ROW: &FormatInfo = index_row(IndexFormat::R32Uint);

const fn index_row(i: IndexFormat) -> &'static FormatInfo {
    match crate::format::lookup(i.format().0) {
        Some(row) => row,
        None => panic!("an index format without a row in FORMATS"),
    }
}

impl std::fmt::Display for IndexFormat {
    /// The format's name (`R16_UINT`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Error from parsing an index format: the text is no format with index-buffer support.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseIndexFormatError(pub String);

impl std::fmt::Display for ParseIndexFormatError {
    /// "index format `X` must be R16_UINT or R32_UINT" (the names from the table).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [a, b] = IndexFormat::ALL.map(IndexFormat::name);
        write!(f, "index format `{}` must be {a} or {b}", self.0)
    }
}

impl std::error::Error for ParseIndexFormatError {}

impl std::str::FromStr for IndexFormat {
    type Err = ParseIndexFormatError;

    /// Accepts what [`Format`] parses (`R16_UINT`, `DXGI_FORMAT_R32_UINT` in any
    /// case, `57`, `0x2a`) when it names a format with index-buffer support.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.parse::<Format>()
            .ok()
            .and_then(IndexFormat::from_format)
            .ok_or_else(|| ParseIndexFormatError(s.to_string()))
    }
}

/// An index buffer binding: the whole buffer, its format and the bind offset in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IndexBufferBinding<'a> {
    /// The buffer's bytes.
    pub data: &'a [u8],
    /// Index format.
    pub format: IndexFormat,
    /// Byte offset of index 0.
    pub offset: u32,
}

impl IndexBufferBinding<'_> {
    /// Index number `k`, zero-extended: read at `offset + k × size` (wrapping); an index whose
    /// bytes are not all inside `[offset, data.len())` reads 0 (the general out-of-bounds rule
    /// of spec §8.19.2 applied to index buffers, §8.20; `ia-semantics.md` open question 3).
    #[inline]
    pub fn read(&self, k: u32) -> u32 {
        let size = self.format.size();
        let Some(a) = bounded_address(self.offset, size, k, 0, size, self.data.len()) else {
            return 0;
        };
        let d = &self.data[a..];
        match self.format {
            IndexFormat::R16Uint => u16::from_le_bytes([d[0], d[1]]) as u32,
            IndexFormat::R32Uint => u32::from_le_bytes([d[0], d[1], d[2], d[3]]),
        }
    }

    /// How many index positions from 0 [`IndexBufferBinding::read`] finds inside the buffer
    /// before the first it does not (the rule of `read` for a run from 0, decided once).
    #[inline]
    pub fn in_bounds_prefix(&self) -> u64 {
        let size = self.format.size();
        bounded_prefix(self.offset, size, 0, size, self.data.len())
    }
}

/// The system values of one vertex of a batch filled by
/// [`VertexStream::fill_registers`](crate::stream::VertexStream::fill_registers). C layout
/// (16 bytes, the fields in this order), which the batch path writes four records at a time.
/// It lives here, below both fetch paths, because the reference walk and the fast fetch's
/// batch writer both produce it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct VertexIds {
    /// 0-based position in the draw's vertex stream.
    pub position: u64,
    /// `SV_VertexID` (ia-semantics §4).
    pub vertex_id: u32,
    /// `SV_InstanceID` (ia-semantics §4).
    pub instance_id: u32,
}

/// A D3D12 buffer view (`D3D12_VERTEX_BUFFER_VIEW` / `D3D12_INDEX_BUFFER_VIEW`) that does
/// not lie inside the buffer given for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the view's {size_in_bytes} bytes at byte {location} do not lie inside the {len}-byte buffer \
     (a D3D12 view must address memory of its resource; d3d12-rules.md P17)"
)]
pub struct ViewOutsideBuffer {
    /// The view's start in the buffer.
    pub location: u64,
    /// `SizeInBytes`.
    pub size_in_bytes: u32,
    /// The buffer's length.
    pub len: usize,
}

fn view_bytes(buffer: &[u8], location: u64, size: u32) -> Result<&[u8], ViewOutsideBuffer> {
    let end = location.checked_add(u64::from(size));
    match end {
        Some(end) if end <= buffer.len() as u64 => Ok(&buffer[location as usize..end as usize]),
        _ => Err(ViewOutsideBuffer {
            location,
            size_in_bytes: size,
            len: buffer.len(),
        }),
    }
}

/// `D3D12_VERTEX_BUFFER_VIEW`, located in a buffer's bytes: there is no input-layout stride
/// in D3D12, the view carries it (d3d12-rules.md P17).
///
/// `SizeInBytes` bounds the view: an element any byte of which lies outside the view's
/// `SizeInBytes` bytes reads as out of bounds (vkd3d-proton `test_vbv_stride_edge_cases`),
/// and `StrideInBytes` 0 makes every vertex read the view's first element
/// (`test_zero_vertex_stride`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct VertexBufferView {
    /// `BufferLocation` as a byte offset into the buffer.
    pub location: u64,
    /// `SizeInBytes`.
    pub size_in_bytes: u32,
    /// `StrideInBytes`.
    pub stride_in_bytes: u32,
}

impl VertexBufferView {
    /// The binding the input assembler reads: the view's bytes, its stride, bind offset 0.
    pub fn bind<'a>(&self, buffer: &'a [u8]) -> Result<VertexBufferBinding<'a>, ViewOutsideBuffer> {
        Ok(VertexBufferBinding {
            data: view_bytes(buffer, self.location, self.size_in_bytes)?,
            stride: self.stride_in_bytes,
            offset: 0,
        })
    }
}

/// `D3D12_INDEX_BUFFER_VIEW`, located in a buffer's bytes: indices past `SizeInBytes` read 0
/// as past the end of a D3D11 index buffer do (P18).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IndexBufferView {
    /// `BufferLocation` as a byte offset into the buffer.
    pub location: u64,
    /// `SizeInBytes`.
    pub size_in_bytes: u32,
    /// `Format`.
    pub format: IndexFormat,
}

impl IndexBufferView {
    /// The binding the input assembler reads: the view's bytes, offset 0.
    pub fn bind<'a>(&self, buffer: &'a [u8]) -> Result<IndexBufferBinding<'a>, ViewOutsideBuffer> {
        Ok(IndexBufferBinding {
            data: view_bytes(buffer, self.location, self.size_in_bytes)?,
            format: self.format,
            offset: 0,
        })
    }
}

/// Which instance per-instance elements are fetched for (spec §8.1.3, §8.4.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Instance {
    /// The instance's ordinal inside the draw (`SV_InstanceID`), `j`.
    pub id: u32,
    /// StartInstanceLocation.
    pub start: u32,
}

impl Instance {
    /// Element number a per-instance element with `step_rate` reads: `start + id / step_rate`,
    /// or `start` for step rate 0 (the step counter never advances; spec §8.1.3, R46),
    /// wrapping.
    #[inline]
    pub fn element_index(&self, step_rate: u32) -> u32 {
        match self.id.checked_div(step_rate) {
            None => self.start,
            Some(step) => self.start.wrapping_add(step),
        }
    }
}

/// How one layout element is fetched in a particular draw: its register, format, the buffer
/// bound to its slot (if any) and how its element number is chosen — a layout element bound
/// to its buffer.
#[derive(Clone, Copy, Debug)]
pub struct ElementFetch<'a> {
    /// Index of the element in the layout.
    pub element: usize,
    /// Input register fed.
    pub register: u32,
    /// The element's format row.
    pub info: &'static FormatInfo,
    /// Byte offset of the element inside a vertex of its slot.
    pub offset: u32,
    /// The buffer bound to the element's slot, `None` when unbound.
    pub buffer: Option<VertexBufferBinding<'a>>,
    /// Per-vertex or per-instance.
    pub class: InputClass,
    /// Instance data step rate (per-instance elements).
    pub step_rate: u32,
}

impl ElementFetch<'_> {
    /// The element number this element reads for a vertex with per-vertex number
    /// `vertex_index` of instance `instance_id` of a draw starting at `start_instance`:
    /// `vertex_index` for per-vertex data, [`Instance::element_index`] for per-instance data
    /// (spec §8.4.1, R46).
    #[inline]
    pub fn element_number(&self, vertex_index: u32, instance_id: u32, start_instance: u32) -> u32 {
        match self.class {
            InputClass::PerVertex => vertex_index,
            InputClass::PerInstance => Instance {
                id: instance_id,
                start: start_instance,
            }
            .element_index(self.step_rate),
        }
    }

    /// The four lanes for element number `n`, by the module's rule: the bytes at
    /// [`VertexBufferBinding::element_address`] decoded by the reference conversions; out of
    /// bounds, the present components 0 and the missing ones defaulted; an unbound slot, 0 in
    /// every lane, w included (spec §8.19.2, §8.20; R44, R45).
    #[inline]
    pub fn fetch(&self, n: u32) -> [u32; 4] {
        let Some(b) = &self.buffer else {
            return [0; 4];
        };
        match b.element_bytes(self.offset, self.info.byte_size(), n) {
            Some(bytes) => convert::decode_element(self.info, bytes),
            None => convert::out_of_bounds(self.info),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The run form of the rule agrees with the rule element by element: every number below
    /// `bounded_prefix` has an address, and the one at it (when there is one) has none or
    /// wraps past 2^32 − 1 — for vertex buffers of every stride and index buffers alike.
    #[test]
    fn bounded_prefix_agrees_with_bounded_address() {
        for len in [0usize, 3, 12, 40, 41, 100] {
            for offset in [0u32, 1, 4, 38, 40, 0xffff_fff0] {
                for stride in [0u32, 1, 2, 4, 12, 0x8000_0000] {
                    for (eo, size) in [(0u32, 4u32), (8, 4), (4, 12), (0, 2)] {
                        let p = bounded_prefix(offset, stride, eo, size, len);
                        for n in 0..p.min(300) {
                            assert!(
                                bounded_address(offset, stride, n as u32, eo, size, len).is_some(),
                                "{len} {offset} {stride} {eo} {size} {n}"
                            );
                        }
                        if p < 300 {
                            let wraps =
                                offset as u64 + stride as u64 * p + eo as u64 > u32::MAX as u64;
                            assert!(
                                wraps
                                    || bounded_address(offset, stride, p as u32, eo, size, len)
                                        .is_none(),
                                "{len} {offset} {stride} {eo} {size} at {p}"
                            );
                        } else {
                            assert_eq!(p, u64::MAX);
                            assert_eq!(stride, 0);
                        }
                    }
                }
            }
        }
        let data = [0u8; 10];
        let ib = |offset| IndexBufferBinding {
            data: &data,
            format: IndexFormat::R32Uint,
            offset,
        };
        assert_eq!(ib(0).in_bounds_prefix(), 2);
        assert_eq!(ib(2).in_bounds_prefix(), 2);
        assert_eq!(ib(3).in_bounds_prefix(), 1);
        assert_eq!(ib(7).in_bounds_prefix(), 0);
        assert_eq!(ib(11).in_bounds_prefix(), 0);
    }

    /// `span` against the per-element rule, for every run of small buffers, bind offsets,
    /// strides and element offsets, near the buffer's end and across the 32-bit wrap.
    #[test]
    fn span_agrees_with_the_per_element_rule() {
        let data = [0u8; 40];
        for len in [0usize, 7, 16, 40] {
            for offset in [0u32, 3, 8, u32::MAX - 5] {
                for stride in [0u32, 1, 4, 12] {
                    let b = VertexBufferBinding {
                        data: &data[..len],
                        stride,
                        offset,
                    };
                    for (eo, size) in [(0u32, 4u32), (4, 8), (2, 1)] {
                        for first in [0u32, 1, 2, u32::MAX - 1] {
                            for n in 1..6usize {
                                let each: Vec<_> = (0..n as u32)
                                    .map(|i| b.element_address(eo, size, first.wrapping_add(i)))
                                    .collect();
                                match b.span(eo, size, first, n) {
                                    Span::Inside { start, stride: s } => {
                                        let want: Vec<_> =
                                            (0..n).map(|i| Some(start + i * s)).collect();
                                        assert_eq!(each, want, "{b:?} {eo} {size} {first} {n}");
                                    }
                                    Span::Outside => {
                                        assert!(each.iter().all(Option::is_none), "{b:?} {first}")
                                    }
                                    Span::Mixed => {}
                                }
                            }
                        }
                    }
                }
            }
        }
        // Wholly inside and wholly outside runs are recognised, not left to `Mixed`.
        let b = VertexBufferBinding {
            data: &data,
            stride: 8,
            offset: 4,
        };
        assert_eq!(
            b.span(0, 4, 1, 4),
            Span::Inside {
                start: 12,
                stride: 8
            }
        );
        assert_eq!(b.span(0, 4, 5, 3), Span::Outside); // element 5 at 44 > 40
        assert_eq!(b.span(0, 4, 3, 3), Span::Mixed); // 28 and 36 inside, 44 not
    }

    #[test]
    fn indices_read_little_endian_and_zero_out_of_bounds() {
        let data = [1u8, 2, 3, 4, 5, 6];
        let ib = IndexBufferBinding {
            data: &data,
            format: IndexFormat::R16Uint,
            offset: 2,
        };
        assert_eq!(ib.read(0), 0x0403);
        assert_eq!(ib.read(1), 0x0605);
        assert_eq!(ib.read(2), 0); // bytes 6..8 past the end
        assert_eq!(ib.read(u32::MAX), 0); // 2 + 2·0xffff_ffff wraps to 0, below the offset
        let ib32 = IndexBufferBinding {
            format: IndexFormat::R32Uint,
            offset: 1,
            ..ib
        };
        assert_eq!(ib32.read(0), 0x0504_0302);
        assert_eq!(ib32.read(1), 0);
    }

    #[test]
    fn step_rate_zero_never_advances_and_others_divide() {
        let at = |id, start, rate| Instance { id, start }.element_index(rate);
        assert_eq!(at(7, 4, 0), 4);
        assert_eq!(at(7, 4, 2), 7); // 4 + 7/2
        assert_eq!(at(5, u32::MAX, 1), 4); // wraps
        assert_eq!(indexed_vertex(-1, 0), u32::MAX);
        assert_eq!(indexed_vertex(-2, 5), 3);
        assert_eq!(sequential_vertex(u32::MAX, 2), 1);
    }
}
