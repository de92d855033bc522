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
    /// Bytes per index.
    pub const fn size(self) -> u32 {
        match self {
            IndexFormat::R16Uint => 2,
            IndexFormat::R32Uint => 4,
        }
    }

    /// The strip-cut value (spec §8.12).
    pub const fn cut_value(self) -> u32 {
        match self {
            IndexFormat::R16Uint => 0xffff,
            IndexFormat::R32Uint => 0xffff_ffff,
        }
    }

    /// The DXGI format.
    pub const fn format(self) -> crate::format::Format {
        match self {
            IndexFormat::R16Uint => crate::format::Format::R16_UINT,
            IndexFormat::R32Uint => crate::format::Format::R32_UINT,
        }
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
