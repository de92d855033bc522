//! The data side of the remedies a [`super::Lowering`] names: CPU format conversion,
//! instance-data expansion and index rewriting (list cuts, D3D12 strips: widening and
//! unrolling). Each is bounded by the caller's counts and a
//! size limit, and returns an error value rather than allocating without bound.

use crate::assembler::{Primitive, PrimitiveAssembler, Topology, WalkStep};
use crate::convert;
use crate::layout::InputLayout;

/// Why a remedy could not produce its buffer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RemedyError {
    /// The output would exceed the caller's limit.
    #[error("the {what} buffer would take {bytes} bytes, above the limit of {limit}")]
    TooLarge {
        /// Which buffer.
        what: &'static str,
        /// Bytes it would take.
        bytes: u64,
        /// The limit.
        limit: u64,
    },
    /// An element index that is not in the layout.
    #[error("element {0} is not in the layout")]
    NoSuchElement(usize),
    /// A step rate or stride of zero where the remedy needs one.
    #[error("{0}")]
    Invalid(&'static str),
}

/// Where one slot's data lies: the whole bound buffer, its stride and bind offset (what
/// `IASetVertexBuffers` records).
#[derive(Clone, Copy, Debug)]
pub struct SlotData<'a> {
    /// The buffer's bytes (its `ByteWidth`).
    pub data: &'a [u8],
    /// Stride.
    pub stride: u32,
    /// Bind offset.
    pub offset: u32,
}

impl SlotData<'_> {
    /// The element's bytes for element number `n`, or `None` out of bounds (any byte outside
    /// the buffer makes the whole element out of bounds; ia-semantics §2).
    fn element(&self, n: u64, elem_offset: u32, size: u32) -> Option<&[u8]> {
        let start = self.offset as u64 + self.stride as u64 * n + elem_offset as u64;
        // Direct3D computes addresses in 32 bits (ia-semantics §5): a wrapped address is
        // still an address.
        let start = start & 0xffff_ffff;
        let end = start + size as u64;
        if end > self.data.len() as u64 || start < self.offset as u64 {
            return None;
        }
        Some(&self.data[start as usize..end as usize])
    }
}

/// Converts elements of one slot to their 32-bit stand-ins: for element numbers
/// `first .. first + count`, the listed elements' registers, exactly as the reference
/// assembler computes them ([`crate::convert::decode_element`], out-of-bounds elements as
/// [`crate::convert::out_of_bounds`]), first `lanes` lanes of each, little-endian, packed in
/// list order — the layout of the `Converted` binding [`super::lower`] describes.
///
/// Exact by construction: a 32-bit float, uint or sint lane fetched by any API is the value
/// stored, so the target receives the bits Direct3D would deliver.
pub fn convert_elements(
    layout: &InputLayout,
    elements: &[(usize, usize)],
    slot: SlotData<'_>,
    first: u64,
    count: u64,
    limit: u64,
) -> Result<Vec<u8>, RemedyError> {
    let per: u64 = elements.iter().map(|(_, l)| 4 * *l as u64).sum();
    let bytes = per.saturating_mul(count);
    if bytes > limit {
        return Err(RemedyError::TooLarge {
            what: "converted",
            bytes,
            limit,
        });
    }
    let mut rows = Vec::with_capacity(elements.len());
    for &(e, lanes) in elements {
        let el = layout
            .elements()
            .get(e)
            .ok_or(RemedyError::NoSuchElement(e))?;
        let info = el.format.info().ok_or(RemedyError::NoSuchElement(e))?;
        rows.push((el.offset, info, lanes.min(4)));
    }
    let mut out = Vec::with_capacity(bytes as usize);
    for n in first..first.saturating_add(count) {
        for (offset, info, lanes) in &rows {
            let regs = match slot.element(n, *offset, info.byte_size()) {
                Some(b) => convert::decode_element(info, b),
                None => convert::out_of_bounds(info),
            };
            for lane in &regs[..*lanes] {
                out.extend_from_slice(&lane.to_le_bytes());
            }
        }
    }
    Ok(out)
}

/// Expands a per-instance slot for a target without the needed instance divisor: element
/// `StartInstanceLocation + j` of the result is element `StartInstanceLocation + j / rate`
/// of the source (`StartInstanceLocation` for rate 0), for `j` in `0..instance_count`
/// (ia-semantics §3, spec §8.4.1). The result is bound with stride `stride`, offset 0 and
/// divisor 1; its first `start_instance` elements are zero (never read).
pub fn expand_instances(
    slot: SlotData<'_>,
    step_rate: u32,
    start_instance: u32,
    instance_count: u32,
    limit: u64,
) -> Result<Vec<u8>, RemedyError> {
    let stride = slot.stride as u64;
    if stride == 0 {
        return Err(RemedyError::Invalid(
            "a stride of 0 needs no expansion: every instance reads the same bytes",
        ));
    }
    let total = start_instance as u64 + instance_count as u64;
    let bytes = total.saturating_mul(stride);
    if bytes > limit {
        return Err(RemedyError::TooLarge {
            what: "expanded instance",
            bytes,
            limit,
        });
    }
    let mut out = vec![0u8; bytes as usize];
    for j in 0..instance_count as u64 {
        let src = start_instance as u64
            + if step_rate == 0 {
                0
            } else {
                j / step_rate as u64
            };
        let dst = ((start_instance as u64 + j) * stride) as usize;
        // Out-of-bounds source bytes stay zero here; the lowered layout reads the same
        // out-of-bounds rule through robustness (the report says so).
        let s = (slot.offset as u64 + src * stride) as usize;
        let avail = slot.data.len().saturating_sub(s).min(stride as usize);
        if avail > 0 && s < slot.data.len() {
            out[dst..dst + avail].copy_from_slice(&slot.data[s..s + avail]);
        }
    }
    Ok(out)
}

/// Rewrites an index list for a list topology so that it needs no primitive restart:
/// Direct3D ends the primitive under construction at a cut value and starts counting again
/// (inlay's documented choice for list topologies, ia-semantics §8); the result keeps
/// every complete primitive's indices and drops cut values and the partial primitives they
/// end. `per_primitive` is the topology's vertex count (1, 2, 3, 4 or 6, or N for patches).
pub fn rewrite_list_cuts(indices: &[u32], cut: u32, per_primitive: usize) -> Vec<u32> {
    let mut out = Vec::with_capacity(indices.len());
    let mut pending = 0usize;
    for &i in indices {
        if i == cut {
            out.truncate(out.len() - pending);
            pending = 0;
            continue;
        }
        out.push(i);
        pending += 1;
        if pending == per_primitive.max(1) {
            pending = 0;
        }
    }
    out.truncate(out.len() - pending);
    out
}

/// Rewrites a 16-bit index buffer (`R16_UINT`, little-endian bytes from the bind offset on)
/// as a 32-bit one, every index zero-extended: the remedy for a target that restarts strips
/// at 0xFFFF where Direct3D 12 fetches index 0xFFFF as a vertex (the pipeline's strip cut
/// disabled, or 0xFFFFFFFF, which no 16-bit index equals; d3d12-rules.md P24).
///
/// Exact: the vertex fetched is `BaseVertexLocation + index` either way, `SV_VertexID` is the
/// same index value, and no zero-extended index equals the 32-bit restart value 0xFFFFFFFF,
/// so the target cuts nowhere — as Direct3D 12 does. Strip vertex order, primitive IDs and
/// the draw's first index and count are unchanged (index `n` of the result is index `n` of
/// the source). A buffer of odd length is an error: its last byte is no index.
pub fn widen_indices(indices: &[u8]) -> Result<Vec<u8>, RemedyError> {
    if !indices.len().is_multiple_of(2) {
        return Err(RemedyError::Invalid(
            "a 16-bit index buffer has an even number of bytes",
        ));
    }
    Ok(indices
        .chunks_exact(2)
        .flat_map(|c| (u16::from_le_bytes([c[0], c[1]]) as u32).to_le_bytes())
        .collect())
}

/// The list topology a strip becomes under [`strip_to_list`]: line strip → line list,
/// triangle strip → triangle list, and the same for adjacency; `None` for any other topology.
pub fn list_of_strip(topology: Topology) -> Option<Topology> {
    Some(match topology {
        Topology::LineStrip => Topology::LineList,
        Topology::TriangleStrip => Topology::TriangleList,
        Topology::LineStripAdj => Topology::LineListAdj,
        Topology::TriangleStripAdj => Topology::TriangleListAdj,
        _ => return None,
    })
}

/// Unrolls an indexed strip into the equivalent indexed list: the remedy for an index value
/// that is a vertex in Direct3D 12 but a restart in the target (a 32-bit 0xFFFFFFFF under a
/// strip cut that is disabled or 0xFFFF, where widening cannot help).
///
/// `indices` are the draw's index values (`IndexCountPerInstance` of them from
/// `StartIndexLocation`); `cut` is the value that cuts the strip in Direct3D
/// ([`crate::assembler::StripCutRule::value`]), `None` when none does. The result lists, in
/// order, every primitive Direct3D assembles from them (inlay's primitive assembler, spec
/// §8.10 / ia-semantics §6) with its vertices in the order a geometry shader receives them
/// — leading vertex first, odd triangle-strip triangles as `k, k+2, k+1` (the winding and
/// provoking vertex a strip gives them, and Vulkan's own strip order), adjacency vertices in
/// the list-with-adjacency order. Partial primitives at a cut or at the end are dropped, as
/// Direct3D draws nothing for them; `SV_PrimitiveID` counts the same primitives (a cut does
/// not reset it, ia-semantics §6.4). Drawn as a list with restart off, every index is a
/// vertex: Vulkan restarts lists only with `primitiveRestartEnable`, WebGPU never (the WebGPU
/// CTS, `vertex_state/index_format`: "never active for other topologies, where the primitive
/// restart value ... should be treated as a regular index value"). Base vertex, instance
/// parameters and index values are unchanged, so every vertex and `SV_VertexID` is too; the
/// draw becomes `result.len()` indices from index 0 of a 32-bit buffer.
///
/// Errors for a topology that is no strip, or when the list would hold more than `limit`
/// indices (at most six per source index).
pub fn strip_to_list(
    indices: &[u32],
    cut: Option<u32>,
    topology: Topology,
    limit: u64,
) -> Result<(Topology, Vec<u32>), RemedyError> {
    let list = list_of_strip(topology).ok_or(RemedyError::Invalid(
        "only a strip topology unrolls into a list",
    ))?;
    let mut vertices: Vec<u32> = Vec::with_capacity(indices.len());
    let mut out: Vec<u32> = Vec::new();
    let mut pa = PrimitiveAssembler::new(topology);
    let push = |p: Option<Primitive>, vertices: &[u32], out: &mut Vec<u32>| {
        let Some(p) = p else { return Ok(()) };
        if (out.len() + p.vertices().len()) as u64 > limit {
            return Err(RemedyError::TooLarge {
                what: "unrolled index",
                bytes: 4 * (out.len() + p.vertices().len()) as u64,
                limit: 4 * limit,
            });
        }
        out.extend(p.vertices().iter().map(|&pos| vertices[pos as usize]));
        Ok(())
    };
    for &i in indices {
        let step = if Some(i) == cut {
            WalkStep::Cut { instance_id: 0 }
        } else {
            vertices.push(i);
            WalkStep::Vertex {
                vertex_id: i,
                instance_id: 0,
                vertex_index: i,
                position: vertices.len() as u64 - 1,
            }
        };
        for p in pa.step(&step) {
            push(p, &vertices, &mut out)?;
        }
    }
    push(pa.finish(), &vertices, &mut out)?;
    Ok((list, out))
}
