//! The reference vertex fetch: element bytes → input registers (ia-semantics §1–§3).

use super::binding::VertexBufferBinding;
use super::draw::DrawParams;
use super::walk::{WalkBatch, WalkStep, Walker};
use crate::convert;
use crate::fetch::{FetchPlan, Instance, StoreMode, Vertices};
use crate::format::FormatInfo;
use crate::layout::InputClass;

/// Number of vertex-shader input registers an [`AssembledVertex`] holds
/// (`D3D11_VS_INPUT_REGISTER_COUNT`, ia-semantics §9).
pub const MAX_REGISTERS: usize = 32;

/// What the vertex shader receives for one vertex position of a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AssembledVertex {
    /// 0-based position in the draw's vertex stream.
    pub position: u64,
    /// `SV_VertexID` (ia-semantics §4).
    pub vertex_id: u32,
    /// `SV_InstanceID` (ia-semantics §4).
    pub instance_id: u32,
    /// Bit `r` set when some layout element feeds input register `r`.
    pub fed: u32,
    /// Input registers `v0` … `v31`, four 32-bit lanes each; registers no element feeds are 0.
    pub registers: [[u32; 4]; MAX_REGISTERS],
}

impl Default for AssembledVertex {
    fn default() -> Self {
        AssembledVertex {
            position: 0,
            vertex_id: 0,
            instance_id: 0,
            fed: 0,
            registers: [[0; 4]; MAX_REGISTERS],
        }
    }
}

impl AssembledVertex {
    /// Register `r`, if some element feeds it.
    pub fn register(&self, r: u32) -> Option<[u32; 4]> {
        if r < MAX_REGISTERS as u32 && self.fed & (1 << r) != 0 {
            Some(self.registers[r as usize])
        } else {
            None
        }
    }
}

/// How one layout element is fetched in a particular draw: its register, format, the buffer
/// bound to its slot (if any) and how its element number is chosen.
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
    /// `vertex_index` for per-vertex data; `StartInstanceLocation + (rate == 0 ? 0 :
    /// instance / rate)` for per-instance data (ia-semantics §3, R46).
    #[inline]
    pub fn element_number(&self, vertex_index: u32, instance_id: u32, start_instance: u32) -> u32 {
        match self.class {
            InputClass::PerVertex => vertex_index,
            InputClass::PerInstance => {
                let step = instance_id.checked_div(self.step_rate).unwrap_or(0);
                start_instance.wrapping_add(step)
            }
        }
    }

    /// The four lanes for element number `n`: the byte address is
    /// `bind offset + stride × n + element offset` in wrapping 32-bit arithmetic; if any
    /// byte of the element lies outside `[bind offset, buffer length)` the fetch is out of
    /// bounds (present components 0, missing ones defaulted); an unbound slot gives 0 in
    /// every lane, w included (ia-semantics §2, §3; R44, R45).
    #[inline]
    pub fn fetch(&self, n: u32) -> [u32; 4] {
        let Some(b) = &self.buffer else {
            return [0; 4];
        };
        let addr = b
            .offset
            .wrapping_add(b.stride.wrapping_mul(n))
            .wrapping_add(self.offset);
        let size = self.info.byte_size();
        if addr < b.offset || addr as u64 + size as u64 > b.data.len() as u64 {
            return convert::out_of_bounds(self.info);
        }
        let a = addr as usize;
        convert::decode_element(self.info, &b.data[a..a + size as usize])
    }
}

/// A draw's fetch: one [`ElementFetch`] per layout element that feeds a register.
#[derive(Clone, Debug, Default)]
pub struct ReferencePlan<'a> {
    /// Elements in layout order (a later element feeding the same register overwrites it).
    pub elements: Vec<ElementFetch<'a>>,
    /// Bit `r` set when some element feeds register `r`.
    pub fed: u32,
    /// `StartInstanceLocation` of the draw.
    pub start_instance: u32,
}

impl ReferencePlan<'_> {
    /// Fills `out` for the walk step `step`; returns `false` (leaving `out` alone) for a cut.
    #[inline]
    pub fn assemble(&self, step: &WalkStep, out: &mut AssembledVertex) -> bool {
        let WalkStep::Vertex {
            vertex_id,
            instance_id,
            vertex_index,
            position,
        } = *step
        else {
            return false;
        };
        out.position = position;
        out.vertex_id = vertex_id;
        out.instance_id = instance_id;
        out.fed = self.fed;
        out.registers = [[0; 4]; MAX_REGISTERS];
        for e in &self.elements {
            let n = e.element_number(vertex_index, instance_id, self.start_instance);
            out.registers[e.register as usize] = e.fetch(n);
        }
        true
    }
}

/// The system values of one vertex of a batch filled by [`VertexStream::fill_registers`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct VertexIds {
    /// 0-based position in the draw's vertex stream.
    pub position: u64,
    /// `SV_VertexID` (ia-semantics §4).
    pub vertex_id: u32,
    /// `SV_InstanceID` (ia-semantics §4).
    pub instance_id: u32,
}

/// Index values taken from the walk per batch (a stack buffer: constant memory).
const BATCH_INDICES: usize = 1024;

/// The vertex stream of a draw: an iterator of [`AssembledVertex`] in draw order, in
/// constant memory whatever the counts.
///
/// The iterator runs the reference fetch ([`ReferencePlan::assemble`]) one vertex at a time;
/// the batch forms [`VertexStream::fill`] and [`VertexStream::fill_registers`] run the fast
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
        let fast = FetchPlan::from_reference(&plan);
        VertexStream { walker, plan, fast }
    }

    /// A stream of no vertices that holds no buffer, ready to be reused by
    /// [`InputAssembler::draw_into`](super::InputAssembler::draw_into).
    pub fn empty() -> Self {
        VertexStream {
            walker: Walker::new(DrawParams::default(), None),
            plan: ReferencePlan::default(),
            fast: FetchPlan::empty(),
        }
    }

    /// Reserves room for draws of layouts of up to `elements` elements, so that
    /// [`InputAssembler::draw_into`](super::InputAssembler::draw_into) allocates nothing for
    /// them (the largest layout `CreateInputLayout` accepts has 32 elements).
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
    pub(crate) fn restart<E>(
        &mut self,
        walker: Walker<'a>,
        fill: impl FnOnce(&mut ReferencePlan<'a>) -> Result<(), E>,
    ) -> Result<(), E> {
        if let Err(e) = fill(&mut self.plan) {
            self.clear();
            return Err(e);
        }
        self.fast.recompile_from_reference(&self.plan);
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
        let start = self.plan.start_instance;
        let total_rows = registers.len();
        let mut indices = [0u32; BATCH_INDICES];
        let mut n = 0;
        // Consecutive cuts in batches without a vertex: a whole instance of them ends the
        // stream (bounded work per call; see `Walker::all_cuts_after`).
        let mut cuts = 0u64;
        while n < cap {
            let Some(batch) = self.walker.next_batch(cap - n, &mut indices) else {
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
                    for (j, id) in ids[n..n + count].iter_mut().enumerate() {
                        *id = VertexIds {
                            position: first_position + j as u64,
                            vertex_id: first_vertex_id.wrapping_add(j as u32),
                            instance_id,
                        };
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
                    for (j, id) in ids[n..n + count].iter_mut().enumerate() {
                        *id = VertexIds {
                            position: first_position + j as u64,
                            vertex_id: indices[j],
                            instance_id,
                        };
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
