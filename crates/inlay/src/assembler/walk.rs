//! The draw walk: which vertex each position of a draw fetches, without fetching it.
//!
//! The walk is separated from the fetch so that a faster fetch (the compiled fetch plan of
//! `crate::fetch`) can reuse the exact ordering, ID and cut rules, and so that primitive
//! assembly can run without fetching at all.

use super::binding::IndexBufferBinding;
use super::draw::DrawParams;

/// One step of a draw walk: an index read (or vertex ordinal) of one instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WalkStep {
    /// A vertex of the stream.
    Vertex {
        /// `SV_VertexID`: the ordinal inside the instance (non-indexed draws) or the raw index
        /// value (indexed draws); never includes StartVertexLocation / BaseVertexLocation
        /// (ia-semantics §4, R47).
        vertex_id: u32,
        /// `SV_InstanceID`: the instance ordinal, never including StartInstanceLocation.
        instance_id: u32,
        /// The element number per-vertex slots fetch: `StartVertexLocation + i` or
        /// `BaseVertexLocation + index`, with 32-bit wrap-around (ia-semantics §3).
        vertex_index: u32,
        /// 0-based position of this vertex in the draw's vertex stream (cuts take none).
        position: u64,
    },
    /// A strip-cut index (0xFFFF / 0xFFFFFFFF): no vertex; the current primitive ends
    /// (ia-semantics §5).
    Cut {
        /// The instance the cut belongs to.
        instance_id: u32,
    },
}

impl WalkStep {
    /// The instance this step belongs to.
    pub fn instance_id(&self) -> u32 {
        match *self {
            WalkStep::Vertex { instance_id, .. } | WalkStep::Cut { instance_id } => instance_id,
        }
    }
}

/// Reads index `k` of an index buffer: `offset + k × size` (32-bit wrap-around). An index
/// whose bytes are not all inside `[bind offset, buffer end)` reads as 0 (ia-semantics §2,
/// open question 3: the general out-of-bounds rule); an unbound index buffer reads 0.
pub fn read_index(ib: Option<&IndexBufferBinding<'_>>, k: u32) -> u32 {
    let Some(ib) = ib else { return 0 };
    let size = ib.format.size();
    let addr = ib.offset.wrapping_add(k.wrapping_mul(size));
    if addr < ib.offset || addr as u64 + size as u64 > ib.data.len() as u64 {
        return 0;
    }
    let a = addr as usize;
    match size {
        2 => u16::from_le_bytes([ib.data[a], ib.data[a + 1]]) as u32,
        _ => u32::from_le_bytes([ib.data[a], ib.data[a + 1], ib.data[a + 2], ib.data[a + 3]]),
    }
}

/// Iterator over the steps of a draw, instance by instance, in constant memory.
#[derive(Clone, Debug)]
pub struct Walker<'a> {
    params: DrawParams,
    index: Option<IndexBufferBinding<'a>>,
    /// Ordinal inside the current instance.
    i: u64,
    /// Current instance.
    j: u64,
    /// Vertex-stream position of the next vertex.
    position: u64,
    /// Steps taken so far.
    taken: u64,
}

impl<'a> Walker<'a> {
    /// A walk of `params`, reading indices from `index` when the draw is indexed (an unbound
    /// index buffer, `None`, reads every index as 0).
    pub fn new(params: DrawParams, index: Option<IndexBufferBinding<'a>>) -> Self {
        Walker {
            params,
            index,
            i: 0,
            j: 0,
            position: 0,
            taken: 0,
        }
    }

    /// The parameters walked.
    pub fn params(&self) -> &DrawParams {
        &self.params
    }

    /// Steps not yet taken.
    pub fn remaining(&self) -> u64 {
        self.params.steps() - self.taken
    }
}

impl Iterator for Walker<'_> {
    type Item = WalkStep;

    fn next(&mut self) -> Option<WalkStep> {
        if self.taken >= self.params.steps() {
            return None;
        }
        let p = &self.params;
        let i = self.i as u32;
        let instance_id = self.j as u32;
        self.taken += 1;
        self.i += 1;
        if self.i == p.count as u64 {
            self.i = 0;
            self.j += 1;
        }
        let (vertex_id, vertex_index) = if p.indexed {
            let value = read_index(self.index.as_ref(), p.start.wrapping_add(i));
            if let Some(ib) = &self.index {
                if value == ib.format.cut_value() {
                    return Some(WalkStep::Cut { instance_id });
                }
            }
            (value, (p.base_vertex as u32).wrapping_add(value))
        } else {
            (i, p.start.wrapping_add(i))
        };
        let position = self.position;
        self.position += 1;
        Some(WalkStep::Vertex {
            vertex_id,
            instance_id,
            vertex_index,
            position,
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let r = self.remaining();
        match usize::try_from(r) {
            Ok(r) => (r, Some(r)),
            Err(_) => (usize::MAX, None),
        }
    }
}
