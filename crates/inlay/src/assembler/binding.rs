//! Buffer bindings: what `IASetVertexBuffers` and `IASetIndexBuffer` record.

/// `D3D11_REQ_MULTI_ELEMENT_STRUCTURE_SIZE_IN_BYTES`: the largest vertex stride (spec §8.19.3).
pub const MAX_VERTEX_STRIDE: u32 = 2048;

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
    pub const fn format(self) -> crate::format::Format {
        match self {
            IndexFormat::R16Uint => crate::format::Format::R16_UINT,
            IndexFormat::R32Uint => crate::format::Format::R32_UINT,
        }
    }

    /// The index format of a DXGI format, if it is one (`R16_UINT`, `R32_UINT`).
    pub fn from_format(format: crate::format::Format) -> Option<IndexFormat> {
        IndexFormat::ALL.into_iter().find(|i| i.format() == format)
    }

    /// The format's row in [`crate::format::FORMATS`] (found at compile time).
    pub const fn info(self) -> &'static crate::format::FormatInfo {
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
const R16_ROW: &crate::format::FormatInfo = index_row(IndexFormat::R16Uint);
const R32_ROW: &crate::format::FormatInfo = index_row(IndexFormat::R32Uint);

const fn index_row(i: IndexFormat) -> &'static crate::format::FormatInfo {
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

    /// Accepts what [`crate::format::Format`] parses (`R16_UINT`, `DXGI_FORMAT_R32_UINT` in any
    /// case, `57`, `0x2a`) when it names a format with index-buffer support.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.parse::<crate::format::Format>()
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
