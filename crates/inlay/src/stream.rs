//! A draw's vertex stream: the input assembler's walk ([`crate::assembler`]) fetched one vertex
//! at a time by the reference ([`ReferencePlan::assemble`]) or in batches by the compiled fast
//! fetch ([`crate::fetch::FetchPlan`]), with the same results.
//!
//! This module sits above both fetch paths and joins them, so that neither imports the other
//! (house rule: the fast path never leans on the reference it is checked against, and the
//! reference never reaches up into the fast path): the assembler hands over its walk's batches
//! ([`Walker::next_batch`]) and its reference plan's bound elements ([`ReferencePlan::elements`],
//! [`crate::buffer::ElementFetch`]), from which [`FetchPlan::from_elements`] compiles the fast
//! plan. It also gives [`PreparedDraw`] its [`PreparedDraw::vertices`].

use crate::assembler::walk::{WalkBatch, Walker};
use crate::assembler::{
    AssembledVertex, DrawCall, DrawParams, IaError, InputAssembler, MAX_REGISTERS, PreparedDraw,
    ReferencePlan, VertexIds,
};
use crate::buffer::Instance;
use crate::fetch::{FetchPlan, StoreMode, Vertices};

impl<'a> InputAssembler<'a> {
    /// As `self.draw(call)?.vertices()`, but into `stream`, reusing its storage: the same
    /// validation, and `stream` then hands out the draw's vertices from the first. Nothing is
    /// allocated when `stream` has held a draw of at least as many layout elements before or
    /// was [`VertexStream::reserve`]d for them — the per-draw path of a caller that keeps one
    /// stream for many draws (the C ABI's `inlay_stream_begin`). On an error `stream` is left
    /// empty ([`VertexStream::clear`]).
    pub fn draw_into(
        &self,
        call: &DrawCall<'_>,
        stream: &mut VertexStream<'a>,
    ) -> Result<(), IaError> {
        stream.clear();
        let params = self.check_draw(call)?;
        let walker = Walker::new(params, self.draw_index_buffer(&params));
        stream.restart(walker, |plan| {
            self.reference_plan_into(params.start_instance, plan)
        })
    }
}

impl<'a> PreparedDraw<'a> {
    /// The vertex stream: the draw's walk ([`PreparedDraw::walk`]) fetched through its plan
    /// ([`PreparedDraw::plan`]).
    pub fn vertices(&self) -> VertexStream<'a> {
        VertexStream::new(self.walk(), self.plan().clone())
    }
}

/// Index values taken from the walk per batch (a 16 KiB stack buffer: constant memory). Each
/// batch pays one set-up of the fast fetch (its rows' constants, per-instance values, bounds),
/// so a caller filling 4096 vertices per [`VertexStream::fill_registers`] call spends about a
/// quarter of what 1024 would on it (W3 of `inlay bench`: +13 % locally).
const BATCH_INDICES: usize = 4096;

/// Steps (index reads, cuts included) a batch may take beyond the vertices it may hold, so
/// that cut indices do not split a call of the batch API into a full batch and a small one
/// (W3 of `inlay bench`: 4096 vertices a call, one cut per 512 indices).
const CUT_SLACK: usize = 256;

/// The vertex stream of a draw: an iterator of [`AssembledVertex`] in draw order, in
/// constant memory whatever the counts.
///
/// The iterator runs the reference fetch ([`ReferencePlan::assemble`]) one vertex at a time;
/// the batch forms [`VertexStream::fill`], [`VertexStream::fill_registers`] and
/// [`VertexStream::fill_registers_only`] run the fast
/// fetch ([`crate::fetch::FetchPlan`], compiled from the same plan) over the walk's batches
/// ([`Walker::next_batch`]) and give the same results.
#[derive(Clone, Debug)]
pub struct VertexStream<'a> {
    walker: Walker<'a>,
    plan: ReferencePlan<'a>,
    fast: FetchPlan<'a>,
}

impl<'a> VertexStream<'a> {
    /// The stream of `walker`'s vertices fetched through `plan`.
    pub fn new(walker: Walker<'a>, plan: ReferencePlan<'a>) -> Self {
        let fast = FetchPlan::from_elements(&plan.elements);
        VertexStream { walker, plan, fast }
    }

    /// A stream of no vertices that holds no buffer, ready to be reused by
    /// [`InputAssembler::draw_into`].
    pub fn empty() -> Self {
        VertexStream {
            walker: Walker::new(DrawParams::default(), None),
            plan: ReferencePlan::default(),
            fast: FetchPlan::empty(),
        }
    }

    /// Reserves room for draws of layouts of up to `elements` elements, so that
    /// [`InputAssembler::draw_into`] allocates nothing for them (the largest layout
    /// `CreateInputLayout` accepts has 32 elements).
    pub fn reserve(&mut self, elements: usize) {
        self.plan
            .elements
            .reserve(elements.saturating_sub(self.plan.elements.len()));
        self.fast.reserve(elements);
    }

    /// Ends the stream and drops every reference it holds to vertex and index buffers,
    /// keeping its storage: it then yields no vertex.
    pub fn clear(&mut self) {
        self.walker = Walker::new(DrawParams::default(), None);
        self.plan.elements.clear();
        self.plan.fed = 0;
        self.fast.clear();
    }

    /// Restarts the stream on `walker` with the reference plan `fill` writes (in place), and
    /// recompiles the fast plan in place; on an error the stream is left cleared.
    fn restart<E>(
        &mut self,
        walker: Walker<'a>,
        fill: impl FnOnce(&mut ReferencePlan<'a>) -> Result<(), E>,
    ) -> Result<(), E> {
        if let Err(e) = fill(&mut self.plan) {
            self.clear();
            return Err(e);
        }
        self.fast.recompile_from_elements(&self.plan.elements);
        self.walker = walker;
        Ok(())
    }

    /// Uses `mode` for the batch forms' stores. With [`StoreMode::Auto`] (the default) one
    /// [`VertexStream::fill_registers`] call streams (non-temporal stores) when its whole
    /// `registers` slice is at least [`crate::fetch::STREAM_THRESHOLD_BYTES`], though it is
    /// written in batches.
    pub fn with_store_mode(mut self, mode: StoreMode) -> Self {
        self.fast = self.fast.with_store_mode(mode);
        self
    }

    /// The fast fetch plan the batch forms use (compiled from [`VertexStream::plan`]).
    pub fn fetch_plan(&self) -> &FetchPlan<'a> {
        &self.fast
    }

    /// The registers of one row of [`VertexStream::fill_registers`]'s output, ascending: the
    /// registers some element feeds (the set bits of [`ReferencePlan::fed`]).
    pub fn register_row(&self) -> &[u32] {
        self.fast.registers()
    }

    /// Batch form over caller-provided arrays, through the fast fetch: for the next vertices
    /// of the stream, `ids[k]` gets the system values of the `k`-th and
    /// `registers[k·w .. (k + 1)·w]` (`w = register_row().len()`) its fed registers in
    /// [`VertexStream::register_row`] order. Returns how many vertices were written:
    /// `min(ids.len(), registers.len() / w)` (`ids.len()` when `w` = 0), fewer only at the end
    /// of the draw. The lanes equal what the iterator puts in
    /// [`AssembledVertex::registers`]; nothing is allocated.
    pub fn fill_registers(&mut self, ids: &mut [VertexIds], registers: &mut [[u32; 4]]) -> usize {
        let w = self.fast.registers().len();
        let cap = match registers.len().checked_div(w) {
            Some(rows) => ids.len().min(rows),
            None => ids.len(),
        };
        self.fill_batches(Some(ids), registers, cap)
    }

    /// [`VertexStream::fill_registers`] without the system values, for a vertex shader that
    /// reads neither `SV_VertexID` nor `SV_InstanceID` (the input assembler generates a system
    /// value when the shader's input declaration carries its semantic: Microsoft's "Using
    /// System-Generated Values" for the IA stage; the values themselves are ia-semantics §4):
    /// for the next vertices of the stream, `registers[k·w .. (k + 1)·w]` gets the `k`-th
    /// one's fed registers. Returns how many vertices were written, `registers.len() / w`,
    /// fewer only at the end of the draw; the same lanes as `fill_registers`. A layout that
    /// feeds no register (`w` = 0) gives this form nothing to write: it returns 0 and leaves
    /// the stream where it was (its vertices' system values come from `fill_registers`).
    ///
    /// Writing no [`VertexIds`] saves their 16 bytes per vertex of stores (W3 of `inlay
    /// bench`, an indexed strip: about 13 % of its time).
    pub fn fill_registers_only(&mut self, registers: &mut [[u32; 4]]) -> usize {
        let w = self.fast.registers().len();
        let cap = registers.len().checked_div(w).unwrap_or(0);
        self.fill_batches(None, registers, cap)
    }

    /// The batch forms' loop: up to `cap` vertices (`cap·w ≤ registers.len()`, and
    /// `cap ≤ ids.len()` when given), their system values into `ids` when given.
    fn fill_batches(
        &mut self,
        mut ids: Option<&mut [VertexIds]>,
        registers: &mut [[u32; 4]],
        cap: usize,
    ) -> usize {
        let w = self.fast.registers().len();
        let start = self.plan.start_instance;
        let total_rows = registers.len();
        let mut indices = [0u32; BATCH_INDICES];
        let mut n = 0;
        // Consecutive cuts in batches without a vertex: a whole instance of them ends the
        // stream (bounded work per call; see `Walker::all_cuts_after`).
        let mut cuts = 0u64;
        while n < cap {
            // At most `cap − n` vertices (for an index list, the index buffer's length,
            // with up to `CUT_SLACK` more steps than that: a batch that meets a few cuts
            // still fills the call, instead of leaving a second batch, and its set-up, a
            // handful of vertices).
            let room = (cap - n).min(BATCH_INDICES);
            let steps = if self.walker.params().indexed {
                (cap - n).saturating_add(CUT_SLACK)
            } else {
                cap - n
            };
            let Some(batch) = self.walker.next_batch(steps, &mut indices[..room]) else {
                break;
            };
            let k = batch.len();
            match batch {
                WalkBatch::Indexed {
                    count: 0, cuts: c, ..
                } => {
                    cuts += c as u64;
                    if self.walker.all_cuts_after(cuts) {
                        self.walker.exhaust();
                        break;
                    }
                }
                _ => cuts = 0,
            }
            let instance = Instance {
                id: batch.instance_id(),
                start,
            };
            let vertices = match batch {
                WalkBatch::Range {
                    instance_id,
                    first_vertex_id,
                    first_vertex_index,
                    count,
                    first_position,
                } => {
                    if let Some(ids) = ids.as_deref_mut() {
                        for (j, id) in ids[n..n + count].iter_mut().enumerate() {
                            *id = VertexIds {
                                position: first_position + j as u64,
                                vertex_id: first_vertex_id.wrapping_add(j as u32),
                                instance_id,
                            };
                        }
                    }
                    Vertices::Range {
                        first: first_vertex_index,
                        count: count as u32,
                    }
                }
                WalkBatch::Indexed {
                    instance_id,
                    base_vertex,
                    count,
                    first_position,
                    ..
                } => {
                    if let Some(ids) = ids.as_deref_mut() {
                        crate::fetch::write_vertex_ids(
                            &mut ids[n..n + count],
                            &indices[..count],
                            first_position,
                            instance_id,
                        );
                    }
                    Vertices::Indexed {
                        indices: &indices[..count],
                        base_vertex,
                    }
                }
            };
            // The output holds `k` rows of `w` registers (k ≤ cap − n), so this cannot fail.
            let _ = self.fast.fetch_registers_batch(
                vertices,
                instance,
                &mut registers[n * w..(n + k) * w],
                total_rows,
            );
            n += k;
        }
        self.fast.end_batches(total_rows);
        n
    }

    /// The fetch plan.
    pub fn plan(&self) -> &ReferencePlan<'a> {
        &self.plan
    }

    /// The walk still to come.
    pub fn walker(&self) -> &Walker<'a> {
        &self.walker
    }

    /// Batch form: fills `out` from the front with the next vertices of the stream and
    /// returns how many were written (fewer than `out.len()` only at the end of the draw).
    /// Runs the fast fetch through [`VertexStream::fill_registers`] in chunks of 64 vertices
    /// (stack buffers); the result equals the iterator's.
    pub fn fill(&mut self, out: &mut [AssembledVertex]) -> usize {
        const CHUNK: usize = 64;
        let mut ids = [VertexIds::default(); CHUNK];
        let mut regs = [[0u32; 4]; CHUNK * MAX_REGISTERS];
        let w = self.fast.registers().len();
        let mut n = 0;
        while n < out.len() {
            let m = (out.len() - n).min(CHUNK);
            let got = self.fill_registers(&mut ids[..m], &mut regs[..m * w]);
            for (k, v) in out[n..n + got].iter_mut().enumerate() {
                v.position = ids[k].position;
                v.vertex_id = ids[k].vertex_id;
                v.instance_id = ids[k].instance_id;
                v.fed = self.plan.fed;
                v.registers = [[0; 4]; MAX_REGISTERS];
                for (j, &r) in self.fast.registers().iter().enumerate() {
                    v.registers[r as usize] = regs[k * w + j];
                }
            }
            n += got;
            if got < m {
                break;
            }
        }
        n
    }
}

impl Iterator for VertexStream<'_> {
    type Item = AssembledVertex;

    fn next(&mut self) -> Option<AssembledVertex> {
        let mut v = AssembledVertex::default();
        // Consecutive cuts: a whole instance of them ends the stream (bounded work per call).
        let mut cuts = 0u64;
        loop {
            let step = self.walker.next()?;
            if self.plan.assemble(&step, &mut v) {
                return Some(v);
            }
            cuts += 1;
            if self.walker.all_cuts_after(cuts) {
                self.walker.exhaust();
                return None;
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        // Cuts take no vertex, so only the upper bound is known.
        (0, self.walker.size_hint().1)
    }
}
