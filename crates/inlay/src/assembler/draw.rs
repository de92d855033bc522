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
    /// Which index value cuts a strip.
    pub cut: StripCutRule,
}

/// Which index value of an indexed draw cuts the strip (ia-semantics §5, d3d12-rules.md P19).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum StripCutRule {
    /// Direct3D 10/11: the index format's all-ones value (0xFFFF, 0xFFFFFFFF) always cuts,
    /// in every topology (spec §8.12).
    #[default]
    IndexFormat,
    /// Direct3D 12 with a strip topology and a pipeline strip cut: this value, compared with
    /// the index as read whatever the index format (0xFFFF cuts in an R32_UINT buffer,
    /// 0xFFFFFFFF never matches an R16_UINT index).
    Value(u32),
    /// Direct3D 12 with the strip cut disabled or a list topology: no index cuts.
    Disabled,
}

impl StripCutRule {
    /// The index value that cuts for an index buffer of `format`, `None` when none does.
    pub const fn value(self, format: crate::buffer::IndexFormat) -> Option<u32> {
        match self {
            StripCutRule::IndexFormat => Some(format.cut_value()),
            StripCutRule::Value(v) => Some(v),
            StripCutRule::Disabled => None,
        }
    }
}

impl DrawParams {
    /// `SV_StartVertexLocation` (SM 6.8): StartVertexLocation of a non-indexed draw,
    /// BaseVertexLocation of an indexed one, as the shader's `int` (hlsl-specs proposal 0015;
    /// vkd3d-proton `test_sm68_draw_parameters` checks it for DrawInstanced and ExecuteIndirect; d3d12-rules.md P20).
    pub fn start_vertex_location(&self) -> i32 {
        if self.indexed {
            self.base_vertex
        } else {
            self.start as i32
        }
    }

    /// `SV_StartInstanceLocation` (SM 6.8): StartInstanceLocation (P20).
    pub fn start_instance_location(&self) -> u32 {
        self.start_instance
    }

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

/// `ID3D12GraphicsCommandList::ExecuteIndirect` with a command signature whose only argument
/// is `D3D12_INDIRECT_ARGUMENT_TYPE_DRAW` or `_DRAW_INDEXED` (d3d12-rules.md P21,
/// DirectX-Specs IndirectDrawing.md): command *k* reads its `D3D12_DRAW_ARGUMENTS` (4 words:
/// VertexCountPerInstance, InstanceCount, StartVertexLocation, StartInstanceLocation) or
/// `D3D12_DRAW_INDEXED_ARGUMENTS` (5 words: IndexCountPerInstance, InstanceCount,
/// StartIndexLocation, BaseVertexLocation, StartInstanceLocation) at
/// `ArgumentBufferOffset + k × ByteStride`, and is a draw of its own (primitive IDs restart).
/// The command count is `MaxCommandCount`, or the least of it and the count buffer's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExecuteIndirect<'b> {
    /// `DRAW_INDEXED` (`true`) or `DRAW`.
    pub indexed: bool,
    /// The command signature's `ByteStride`.
    pub byte_stride: u32,
    /// `MaxCommandCount`.
    pub max_command_count: u32,
    /// The argument buffer's bytes.
    pub args: &'b [u8],
    /// `ArgumentBufferOffset`.
    pub offset: u64,
    /// The value the count buffer holds, when there is one.
    pub count: Option<u32>,
}

impl ExecuteIndirect<'_> {
    /// Bytes of one draw argument structure: 16 or 20.
    pub fn argument_size(&self) -> u32 {
        if self.indexed { 20 } else { 16 }
    }

    /// The commands run: `min(MaxCommandCount, count)` (P21).
    pub fn command_count(&self) -> u32 {
        self.count
            .map_or(self.max_command_count, |c| c.min(self.max_command_count))
    }

    /// The draws, one per command, as `DrawInstanced` / `DrawIndexedInstanced` calls.
    /// Refuses a stride that is not a multiple of 4 or shorter than the arguments, an
    /// argument offset that is not a multiple of 4, and a command outside the buffer, before
    /// allocating (the list is bounded by the buffer's size).
    pub fn draws(&self) -> Result<Vec<DrawCall<'static>>, IaError> {
        let needed = self.argument_size();
        let what = if self.indexed {
            "D3D12_DRAW_INDEXED_ARGUMENTS"
        } else {
            "D3D12_DRAW_ARGUMENTS"
        };
        if !self.byte_stride.is_multiple_of(4) || self.byte_stride < needed {
            return Err(IaError::CommandStride {
                stride: self.byte_stride,
                needed,
                what,
            });
        }
        if !self.offset.is_multiple_of(4) {
            return Err(IaError::ArgsMisaligned {
                call: "ExecuteIndirect",
                offset: u32::try_from(self.offset).unwrap_or(u32::MAX),
            });
        }
        let n = self.command_count();
        if n > 0 {
            let last = n - 1;
            let at = self.offset + u64::from(last) * u64::from(self.byte_stride);
            if at + u64::from(needed) > self.args.len() as u64 {
                // The first command that does not fit.
                let fit = (self.args.len() as u64)
                    .checked_sub(self.offset + u64::from(needed))
                    .map_or(0, |room| room / u64::from(self.byte_stride) + 1);
                let command = fit.min(u64::from(last)) as u32;
                return Err(IaError::CommandOutOfRange {
                    command,
                    offset: self.offset + u64::from(command) * u64::from(self.byte_stride),
                    needed,
                    len: self.args.len(),
                });
            }
        }
        let word = |at: u64| read_u32(self.args, at as usize);
        Ok((0..n)
            .map(|k| {
                let at = self.offset + u64::from(k) * u64::from(self.byte_stride);
                let w = |i: u64| word(at + 4 * i);
                if self.indexed {
                    DrawCall::DrawIndexedInstanced {
                        index_count_per_instance: w(0),
                        instance_count: w(1),
                        start_index: w(2),
                        base_vertex: w(3) as i32,
                        start_instance: w(4),
                    }
                } else {
                    DrawCall::DrawInstanced {
                        vertex_count_per_instance: w(0),
                        instance_count: w(1),
                        start_vertex: w(2),
                        start_instance: w(3),
                    }
                }
            })
            .collect())
    }
}
