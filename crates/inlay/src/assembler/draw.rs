//! Draw calls and their resolved parameters (ia-semantics §3, §4, §8).

use super::IaError;

/// One draw call, as `ID3D11DeviceContext` takes it.
///
/// The indirect forms read their argument structure, little-endian, from `args` at byte
/// `offset` (`AlignedByteOffsetForArgs`, a multiple of 4; spec §8.7, §8.8). `DrawAuto` takes
/// the `BufferFilledSize` that stream output recorded for the buffer bound to slot 0
/// (ia-semantics §8; see [`DrawParams`] for the vertex count it gives).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawCall<'b> {
    /// `Draw(VertexCount, StartVertexLocation)`.
    Draw {
        /// `VertexCount`.
        vertex_count: u32,
        /// `StartVertexLocation`.
        start_vertex: u32,
    },
    /// `DrawIndexed(IndexCount, StartIndexLocation, BaseVertexLocation)`.
    DrawIndexed {
        /// `IndexCount`.
        index_count: u32,
        /// `StartIndexLocation`.
        start_index: u32,
        /// `BaseVertexLocation` (added to each index with 32-bit wrap-around, §3).
        base_vertex: i32,
    },
    /// `DrawInstanced(VertexCountPerInstance, InstanceCount, StartVertexLocation,
    /// StartInstanceLocation)`.
    DrawInstanced {
        /// `VertexCountPerInstance`.
        vertex_count_per_instance: u32,
        /// `InstanceCount`.
        instance_count: u32,
        /// `StartVertexLocation`.
        start_vertex: u32,
        /// `StartInstanceLocation`.
        start_instance: u32,
    },
    /// `DrawIndexedInstanced(IndexCountPerInstance, InstanceCount, StartIndexLocation,
    /// BaseVertexLocation, StartInstanceLocation)`.
    DrawIndexedInstanced {
        /// `IndexCountPerInstance`.
        index_count_per_instance: u32,
        /// `InstanceCount`.
        instance_count: u32,
        /// `StartIndexLocation`.
        start_index: u32,
        /// `BaseVertexLocation`.
        base_vertex: i32,
        /// `StartInstanceLocation`.
        start_instance: u32,
    },
    /// `DrawInstancedIndirect`: 16 bytes {VertexCountPerInstance, InstanceCount,
    /// StartVertexLocation, StartInstanceLocation} at `offset` in `args`.
    DrawInstancedIndirect {
        /// The argument buffer's bytes.
        args: &'b [u8],
        /// `AlignedByteOffsetForArgs`.
        offset: u32,
    },
    /// `DrawIndexedInstancedIndirect`: 20 bytes {IndexCountPerInstance, InstanceCount,
    /// StartIndexLocation, BaseVertexLocation, StartInstanceLocation} at `offset` in `args`.
    DrawIndexedInstancedIndirect {
        /// The argument buffer's bytes.
        args: &'b [u8],
        /// `AlignedByteOffsetForArgs`.
        offset: u32,
    },
    /// `DrawAuto()`, with the `BufferFilledSize` (bytes from the start of the buffer) that the
    /// stream-output stage recorded for the buffer bound to slot 0.
    DrawAuto {
        /// `BufferFilledSize` of slot 0's buffer.
        filled_size: u32,
    },
}

impl DrawCall<'_> {
    /// The D3D11 method name (`"DrawIndexedInstancedIndirect"`, …).
    pub fn name(&self) -> &'static str {
        match self {
            DrawCall::Draw { .. } => "Draw",
            DrawCall::DrawIndexed { .. } => "DrawIndexed",
            DrawCall::DrawInstanced { .. } => "DrawInstanced",
            DrawCall::DrawIndexedInstanced { .. } => "DrawIndexedInstanced",
            DrawCall::DrawInstancedIndirect { .. } => "DrawInstancedIndirect",
            DrawCall::DrawIndexedInstancedIndirect { .. } => "DrawIndexedInstancedIndirect",
            DrawCall::DrawAuto { .. } => "DrawAuto",
        }
    }

    /// Whether the draw reads an index buffer.
    pub fn is_indexed(&self) -> bool {
        matches!(
            self,
            DrawCall::DrawIndexed { .. }
                | DrawCall::DrawIndexedInstanced { .. }
                | DrawCall::DrawIndexedInstancedIndirect { .. }
        )
    }

    /// Whether the draw is an instanced form (direct or indirect).
    pub fn is_instanced(&self) -> bool {
        matches!(
            self,
            DrawCall::DrawInstanced { .. }
                | DrawCall::DrawIndexedInstanced { .. }
                | DrawCall::DrawInstancedIndirect { .. }
                | DrawCall::DrawIndexedInstancedIndirect { .. }
        )
    }
}

/// A draw reduced to the numbers the input assembler walks: every draw kind becomes an
/// (optionally indexed) instanced draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct DrawParams {
    /// Whether vertex positions come from the index buffer.
    pub indexed: bool,
    /// Vertices (or indices) per instance.
    pub count: u32,
    /// Instances (1 for the non-instanced forms and DrawAuto).
    pub instance_count: u32,
    /// `StartVertexLocation` (non-indexed) or `StartIndexLocation` (indexed).
    pub start: u32,
    /// `BaseVertexLocation` (0 for non-indexed draws).
    pub base_vertex: i32,
    /// `StartInstanceLocation`.
    pub start_instance: u32,
}

impl DrawParams {
    /// Number of vertex positions the walk visits (indices read, cuts included):
    /// `count × instance_count`, up to 2^64 − 2^33 + 1.
    pub fn steps(&self) -> u64 {
        self.count as u64 * self.instance_count as u64
    }
}

fn read_u32(bytes: &[u8], at: usize) -> u32 {
    let mut w = [0u8; 4];
    w.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(w)
}

/// Reads `words` little-endian 32-bit arguments at `offset` of `args` (spec §8.7, §8.8):
/// the offset must be a multiple of 4 and the structure must lie inside the buffer.
pub(crate) fn read_args<const N: usize>(
    call: &'static str,
    args: &[u8],
    offset: u32,
) -> Result<[u32; N], IaError> {
    if !offset.is_multiple_of(4) {
        return Err(IaError::ArgsMisaligned { call, offset });
    }
    let needed = 4 * N;
    let start = offset as usize;
    if start.checked_add(needed).is_none_or(|end| end > args.len()) {
        return Err(IaError::ArgsOutOfRange {
            call,
            offset,
            needed: needed as u32,
            len: args.len(),
        });
    }
    let mut out = [0u32; N];
    for (k, w) in out.iter_mut().enumerate() {
        *w = read_u32(args, start + 4 * k);
    }
    Ok(out)
}
