//! The draw walk: which vertex each position of a draw fetches, without fetching it.
//!
//! The walk is separated from the fetch so that a faster fetch (the compiled fetch plan of
//! `crate::fetch`) can reuse the exact ordering, ID and cut rules, and so that primitive
//! assembly can run without fetching at all.

use super::draw::DrawParams;
use crate::buffer::{self, IndexBufferBinding};

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

/// Reads index `k` of an index buffer ([`IndexBufferBinding::read`]: `offset + k × size`,
/// wrapping; an index not wholly inside `[bind offset, buffer end)` reads 0); an unbound index
/// buffer reads 0 (spec §8.20).
pub fn read_index(ib: Option<&IndexBufferBinding<'_>>, k: u32) -> u32 {
    ib.map_or(0, |ib| ib.read(k))
}

/// Iterator over the steps of a draw, instance by instance, in constant memory.
#[derive(Clone, Debug)]
pub struct Walker<'a> {
    params: DrawParams,
    index: Option<IndexBufferBinding<'a>>,
    /// The index value that cuts ([`DrawParams::cut`] for the bound index format).
    cut: Option<u32>,
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
            cut: index.and_then(|ib| params.cut.value(ib.format)),
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

    /// Ends the walk: every step not yet taken is dropped. The vertex and primitive streams
    /// call it once they have proved that no later step can produce output (see
    /// [`Walker::all_cuts_after`]).
    pub(crate) fn exhaust(&mut self) {
        self.taken = self.params.steps();
    }

    /// Whether `run` consecutive steps without output prove the rest of the draw empty.
    ///
    /// Every instance reads the same indices (`start + i`, `i < count`), so the walk's pattern
    /// of cuts and vertices repeats per instance. `count` consecutive cuts therefore cover every
    /// position of an instance: all remaining steps are cuts too. Without this, a draw of
    /// 2^32 instances whose indices are all cut values would make one `next()` walk 2^32
    /// steps before answering `None` (found by the `draw` fuzz target, docs/notes/fuzz.md).
    pub(crate) fn all_cuts_after(&self, run: u64) -> bool {
        run > 0 && run >= u64::from(self.params.count)
    }
}

/// A run of consecutive vertices of one instance, as [`Walker::next_batch`] hands them out
/// for a fetch that works on blocks (vertex `k` of the run has stream position
/// `first_position + k`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WalkBatch {
    /// Non-indexed: vertex `k` has `SV_VertexID` `first_vertex_id + k` and fetches per-vertex
    /// element `first_vertex_index + k` (32-bit wrap-around).
    Range {
        /// `SV_InstanceID` of every vertex of the run.
        instance_id: u32,
        /// `SV_VertexID` of the first vertex.
        first_vertex_id: u32,
        /// Element number of the first vertex (`StartVertexLocation + first_vertex_id`).
        first_vertex_index: u32,
        /// Vertices in the run.
        count: usize,
        /// Stream position of the first vertex.
        first_position: u64,
    },
    /// Indexed: the run's index values (cuts removed) were written to the front of the
    /// caller's buffer; vertex `k` has `SV_VertexID` `indices[k]` and fetches per-vertex
    /// element `base_vertex + indices[k]` (32-bit wrap-around).
    Indexed {
        /// `SV_InstanceID` of every vertex of the run.
        instance_id: u32,
        /// `BaseVertexLocation`.
        base_vertex: i32,
        /// Index values written (may be 0 when the steps taken were all cuts).
        count: usize,
        /// Cuts skipped among the steps taken.
        cuts: usize,
        /// Stream position of the first vertex.
        first_position: u64,
    },
}

impl WalkBatch {
    /// Vertices in the run.
    pub fn len(&self) -> usize {
        match *self {
            WalkBatch::Range { count, .. } | WalkBatch::Indexed { count, .. } => count,
        }
    }

    /// Whether the run has no vertex.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `SV_InstanceID` of the run.
    pub fn instance_id(&self) -> u32 {
        match *self {
            WalkBatch::Range { instance_id, .. } | WalkBatch::Indexed { instance_id, .. } => {
                instance_id
            }
        }
    }
}

impl Walker<'_> {
    /// Takes up to `max` steps of the current instance at once (for indexed draws at most
    /// `indices.len()` vertices, written to `indices`), never crossing an instance boundary.
    /// Returns `None` at the end of the draw. Same order, IDs and cut rules as the per-step
    /// iterator; a batch of an indexed draw may hold no vertex (only cuts were read). With
    /// `max` = 0 nothing is taken and `None` is returned.
    pub fn next_batch(&mut self, max: usize, indices: &mut [u32]) -> Option<WalkBatch> {
        if self.taken >= self.params.steps() || max == 0 {
            return None;
        }
        let p = self.params;
        let instance_id = self.j as u32;
        let first_position = self.position;
        let left_in_instance = p.count as u64 - self.i;
        if !p.indexed {
            let count = left_in_instance.min(max as u64);
            let first_vertex_id = self.i as u32;
            self.advance(count);
            self.position += count;
            return Some(WalkBatch::Range {
                instance_id,
                first_vertex_id,
                first_vertex_index: buffer::sequential_vertex(p.start, first_vertex_id),
                count: count as usize,
                first_position,
            });
        }
        let cap = max.min(indices.len());
        let (mut count, mut cuts, mut steps) = (0usize, 0usize, 0u64);
        // Fast path: when every index this call may read lies inside the buffer without an
        // address wrap, read them straight from the slice (same values, order and cut rule as
        // `read_index` below).
        let span = left_in_instance.min(max as u64);
        let k0 = p.start.wrapping_add(self.i as u32) as u64;
        if let Some(ib) = self.index.filter(|_| cap > 0 && k0 + span <= 1 << 32) {
            let size = ib.format.size() as u64;
            let (lo, hi) = (
                ib.offset as u64 + k0 * size,
                ib.offset as u64 + (k0 + span) * size,
            );
            if hi <= (ib.data.len() as u64).min(1 << 32) {
                let bytes = &ib.data[lo as usize..hi as usize];
                let cut = self.cut;
                // One index: a cut takes no vertex; false once the batch is full.
                macro_rules! take {
                    ($value:expr) => {{
                        let value: u32 = $value;
                        steps += 1;
                        if Some(value) == cut {
                            cuts += 1;
                        } else {
                            indices[count] = value;
                            count += 1;
                        }
                        count < cap
                    }};
                }
                if size == 2 {
                    // Sixteen indices at a time: a group without a cut that fits the batch is
                    // widened as a whole; a group holding a cut, or one that would fill the
                    // batch, is taken one index at a time (the same order and cut rule). The
                    // test and the widening are written lane by lane without early exits, so
                    // that they compile to vector compares and zero-extensions.
                    let mut groups = bytes.chunks_exact(32);
                    let mut full = false;
                    // A cut value above 0xFFFF never matches a 16-bit index.
                    let (cut16, can_cut) = match cut {
                        Some(c) if c <= 0xffff => (c as u16, true),
                        _ => (0, false),
                    };
                    for group in groups.by_ref() {
                        let values: [u16; 16] =
                            bytemuck::pod_read_unaligned::<[u16; 16]>(group).map(u16::from_le);
                        let has_cut =
                            can_cut && values.iter().fold(false, |a, &v| a | (v == cut16));
                        if count + 16 <= cap && !has_cut {
                            for (d, &v) in indices[count..count + 16].iter_mut().zip(&values) {
                                *d = v as u32;
                            }
                            count += 16;
                            steps += 16;
                            full = count == cap;
                        } else {
                            full = !group
                                .chunks_exact(2)
                                .all(|c| take!(u16::from_le_bytes([c[0], c[1]]) as u32));
                        }
                        if full {
                            break;
                        }
                    }
                    if !full {
                        for c in groups.remainder().chunks_exact(2) {
                            if !take!(u16::from_le_bytes([c[0], c[1]]) as u32) {
                                break;
                            }
                        }
                    }
                } else {
                    for c in bytes.chunks_exact(4) {
                        if !take!(u32::from_le_bytes([c[0], c[1], c[2], c[3]])) {
                            break;
                        }
                    }
                }
                self.advance(steps);
                self.position += count as u64;
                return Some(WalkBatch::Indexed {
                    instance_id,
                    base_vertex: p.base_vertex,
                    count,
                    cuts,
                    first_position,
                });
            }
        }
        // Bound the steps too, so that a run of cuts cannot make one call unbounded.
        while count < cap && steps < left_in_instance && steps < max as u64 {
            let k = p.start.wrapping_add((self.i + steps) as u32);
            let value = read_index(self.index.as_ref(), k);
            steps += 1;
            if Some(value) == self.cut {
                cuts += 1;
            } else {
                indices[count] = value;
                count += 1;
            }
        }
        self.advance(steps);
        self.position += count as u64;
        Some(WalkBatch::Indexed {
            instance_id,
            base_vertex: p.base_vertex,
            count,
            cuts,
            first_position,
        })
    }

    /// Skips forward so that the next vertex the walk yields is the first with stream position
    /// `target` or more (cut steps just before it may remain); a walk already there does not
    /// move, and a draw with fewer vertices ends. The vertices, IDs and positions afterwards
    /// are exactly those the step-by-step walk would give (issue 18 item 4: `--range` used to step one position at
    /// a time, so a start near 2^32 took minutes and 2^64-scale ranges never ended).
    ///
    /// Cost: O(1) for non-indexed draws. For indexed draws O(`count`) index reads: the rest
    /// of the current instance, one instance to count its vertices (every instance reads the
    /// same indices, so every instance yields the same number of vertices), then whole
    /// instances are skipped arithmetically, then at most one more instance is walked.
    pub fn skip_to_position(&mut self, target: u64) {
        if self.position >= target || self.taken >= self.params.steps() {
            return;
        }
        let p = self.params;
        let count = p.count as u64;
        if !p.indexed {
            // Every step is a vertex: position = steps taken.
            let to = target.min(p.steps());
            self.taken = to;
            self.position = to;
            self.j = to / count;
            self.i = to % count;
            return;
        }
        // Walk the rest of the current instance (and stop early when the target is in it).
        if self.i > 0 && self.step_until(target, count - self.i) {
            return;
        }
        if self.taken >= p.steps() {
            return;
        }
        // At an instance boundary: vertices per instance.
        let per_instance = (0..p.count)
            .filter(|&k| {
                let value = read_index(self.index.as_ref(), p.start.wrapping_add(k));
                Some(value) != self.cut
            })
            .count() as u64;
        if per_instance == 0 {
            // Only cuts: no later vertex exists.
            self.exhaust();
            return;
        }
        let instances_left = p.instance_count as u64 - self.j;
        let whole = ((target - self.position) / per_instance).min(instances_left);
        self.j += whole;
        self.taken += whole * count;
        self.position += whole * per_instance;
        if self.taken < p.steps() {
            self.step_until(target, count);
        }
    }

    /// Takes at most `limit` steps of an indexed draw, stopping before the first vertex whose
    /// position is `target` or more; returns whether it stopped there.
    fn step_until(&mut self, target: u64, limit: u64) -> bool {
        for _ in 0..limit {
            if self.taken >= self.params.steps() {
                return false;
            }
            let k = self.params.start.wrapping_add(self.i as u32);
            let value = read_index(self.index.as_ref(), k);
            let cut = Some(value) == self.cut;
            if !cut {
                if self.position >= target {
                    return true;
                }
                self.position += 1;
            }
            self.advance(1);
        }
        false
    }

    /// Moves `steps` steps forward inside the current instance.
    fn advance(&mut self, steps: u64) {
        self.taken += steps;
        self.i += steps;
        if self.i == self.params.count as u64 {
            self.i = 0;
            self.j += 1;
        }
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
        let (start, indexed, base_vertex) = (p.start, p.indexed, p.base_vertex);
        self.advance(1);
        let (vertex_id, vertex_index) = if indexed {
            let value = read_index(self.index.as_ref(), start.wrapping_add(i));
            if Some(value) == self.cut {
                return Some(WalkStep::Cut { instance_id });
            }
            (value, buffer::indexed_vertex(base_vertex, value))
        } else {
            (i, buffer::sequential_vertex(start, i))
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
