//! Draw-time validation: every way a draw reads data that is not there.
//!
//! Reading past a buffer or from an unbound slot is *defined* in Direct3D 11 — the reads
//! return 0 (spec §8.19.2, ia-semantics §2; R44, R45) — so a draw never fails for it, and the
//! reference assembler does exactly that. But a draw that reads zeros is almost always a
//! mistake (a `--vb 3=` typo when the layout uses slot 1, a stride off by four bytes), so
//! [`validate_draw`] reports each case as a [`DrawWarning`]:
//!
//! | check | when | id |
//! |---|---|---|
//! | [`DrawCheck::VertexBufferNotSet`] | a slot the layout uses has no buffer bound | debug layer 348 `DEVICE_DRAW_VERTEX_BUFFER_NOT_SET` |
//! | [`DrawCheck::VertexBufferStrideTooSmall`] | a bound stride (≠ 0) is smaller than the slot's elements need | 355 `DEVICE_DRAW_VERTEX_BUFFER_STRIDE_TOO_SMALL` |
//! | [`DrawCheck::VertexBufferTooSmall`] | a non-indexed draw's vertices, or any draw's instances, reach past a buffer's end | 356 `DEVICE_DRAW_VERTEX_BUFFER_TOO_SMALL` |
//! | [`DrawCheck::IndexBufferNotSet`] | an indexed draw with no index buffer | 357 `DEVICE_DRAW_INDEX_BUFFER_NOT_SET` |
//! | [`DrawCheck::IndexBufferTooSmall`] | an indexed draw reads index positions past the index buffer's end | 359 `DEVICE_DRAW_INDEX_BUFFER_TOO_SMALL` |
//! | [`DrawCheck::IndexPastVertexData`] | index values (plus base vertex) address vertices past a per-vertex buffer's end | inlay's own (the debug layer does not read index values) |
//!
//! The ids and names are those of `D3D11_MESSAGE_ID` in `d3d11sdklayers.h`; the debug layer
//! reports them as warnings when it draws (it says the reads are defined to return 0), and so
//! does inlay. `DEVICE_DRAW_INPUTLAYOUT_NOT_SET` (349) cannot happen here — an
//! [`InputAssembler`] always holds a layout — and the layout/shader linkage check
//! (`DEVICE_SHADER_LINKAGE_SEMANTICNAME_NOT_FOUND`, 342) is [`check_linkage`], for callers
//! that bind a different shader than the layout was created with.
//!
//! Which element numbers read inside a buffer is [`crate::buffer`]'s addressing rule, asked
//! per element ([`VertexBufferBinding::element_address`]) or, for the thresholds that keep the
//! work constant per slot, once per run from 0 ([`VertexBufferBinding::in_bounds_prefix`],
//! [`IndexBufferBinding::in_bounds_prefix`](crate::buffer::IndexBufferBinding::in_bounds_prefix)):
//! past those thresholds a vertex counts as reading past the end (only addresses past 4 GiB,
//! which wrap, make the two differ). The work is constant per slot, plus one pass over the
//! bytes of the index buffer for indexed draws; nothing is allocated beyond the warnings.

use crate::diag::MessageId;
use crate::dxbc::Signature;
use crate::layout::{InputClass, InputLayout};

use super::{DrawCall, IaError, InputAssembler};
use crate::buffer::{IndexFormat, VertexBufferBinding};

/// The default bound of [`DrawReport::refusal`]: a draw that would produce more than 100
/// million vertices that read nothing but zeros is refused.
pub const DEFAULT_MAX_ZERO_VERTICES: u64 = 100_000_000;

/// What a [`DrawWarning`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawCheck {
    /// A slot the layout uses has no vertex buffer: every element of it reads 0.
    VertexBufferNotSet,
    /// The bound stride is smaller than the slot's elements cover: vertices overlap.
    VertexBufferStrideTooSmall,
    /// Vertices or instances read past the end of a vertex buffer.
    VertexBufferTooSmall,
    /// An indexed draw without an index buffer: every index reads 0.
    IndexBufferNotSet,
    /// Index positions past the end of the index buffer (they read index 0).
    IndexBufferTooSmall,
    /// Index values that address vertices past a per-vertex buffer's end.
    IndexPastVertexData,
    /// The bound shader reads a semantic the layout does not supply.
    LinkageSemanticNotFound,
    /// D3D12: a stride (≠ 0) that is not a multiple of min(4, the largest element of the
    /// slot): the elements are read misaligned, the result is undefined (d3d12-rules.md P17).
    VertexStrideUnaligned,
    /// D3D12: a draw of no instance (P23).
    InstanceCountZero,
}

impl DrawCheck {
    /// The debug layer's message id, when the debug layer has one for this check.
    pub const fn message_id(self) -> Option<MessageId> {
        Some(match self {
            DrawCheck::VertexBufferNotSet => MessageId::DEVICE_DRAW_VERTEX_BUFFER_NOT_SET,
            DrawCheck::VertexBufferStrideTooSmall => {
                MessageId::DEVICE_DRAW_VERTEX_BUFFER_STRIDE_TOO_SMALL
            }
            DrawCheck::VertexBufferTooSmall => MessageId::DEVICE_DRAW_VERTEX_BUFFER_TOO_SMALL,
            DrawCheck::IndexBufferNotSet => MessageId::DEVICE_DRAW_INDEX_BUFFER_NOT_SET,
            DrawCheck::IndexBufferTooSmall => MessageId::DEVICE_DRAW_INDEX_BUFFER_TOO_SMALL,
            DrawCheck::LinkageSemanticNotFound => {
                MessageId::DEVICE_SHADER_LINKAGE_SEMANTICNAME_NOT_FOUND
            }
            DrawCheck::VertexStrideUnaligned => {
                MessageId::D3D12_COMMAND_LIST_DRAW_VERTEX_STRIDE_UNALIGNED
            }
            DrawCheck::InstanceCountZero => MessageId::D3D12_COMMAND_LIST_DRAW_INSTANCE_COUNT_ZERO,
            DrawCheck::IndexPastVertexData => return None,
        })
    }

    /// The message id the debug layer of `api` reports this check under: the D3D11 number
    /// under D3D10/D3D11 (`None` for the D3D12-only checks), the `D3D12_MESSAGE_ID` under
    /// D3D12.
    pub fn message_id_in(self, api: crate::target::Api) -> Option<MessageId> {
        let id = self.message_id()?;
        if api.is_d3d12() {
            id.in_d3d12()
        } else {
            (id.0 < 0x8000_0000).then_some(id)
        }
    }

    /// The name: the debug layer's (without `D3D11_MESSAGE_ID_`), or inlay's own
    /// (`INLAY_…`) for checks the debug layer does not make.
    pub fn name(self) -> &'static str {
        let id = self.message_id();
        id.and_then(MessageId::name)
            .or_else(|| id.and_then(MessageId::in_d3d12).and_then(MessageId::name))
            .unwrap_or("INLAY_INDEX_PAST_VERTEX_DATA")
    }
}

/// One way a draw reads data that is not there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawWarning {
    /// Which check.
    pub check: DrawCheck,
    /// The vertex-buffer slot, when the warning is about one.
    pub slot: Option<u32>,
    /// The first vertex, instance or index position affected.
    pub first: Option<u64>,
    /// How many vertices, instances or index positions are affected.
    pub count: Option<u64>,
    /// A sentence naming the slot, the numbers and what is read instead.
    pub message: String,
    /// The debug layer's message id for the runtime the draw ran on
    /// ([`DrawCheck::message_id_in`]); `None` for inlay's own checks.
    pub id: Option<MessageId>,
}

impl std::fmt::Display for DrawWarning {
    /// `#356 DEVICE_DRAW_VERTEX_BUFFER_TOO_SMALL: …` or `inlay INLAY_…: …`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.id {
            Some(id) => write!(f, "#{} {}: {}", id.0, self.check.name(), self.message),
            None => write!(f, "inlay {}: {}", self.check.name(), self.message),
        }
    }
}

/// What [`validate_draw`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DrawReport {
    /// Every warning, by slot order (index-buffer warnings first).
    pub warnings: Vec<DrawWarning>,
    /// Positions of the draw's vertex stream (vertices or indices × instances, cut indices
    /// included).
    pub vertices: u64,
    /// Invocations in which every element of the layout reads nothing (unbound or out of
    /// bounds): they see only zeros and defaults. 0 when the layout has no elements.
    pub zero_vertices: u64,
    /// The longest run of consecutive such invocations in the vertex stream: what a reader
    /// would stream as nothing but zeros.
    pub longest_zero_run: u64,
    /// For an indexed draw that reads vertices: the element numbers its index positions
    /// address, found by the same scan (`None` otherwise).
    pub indices: Option<IndexSpan>,
    /// For an indexed draw: the index positions, over all instances, that lie past the end of
    /// the index buffer (or all of them when none is bound). Each reads index 0 — a vertex
    /// that may well be in bounds, so these positions need not be [`DrawReport::zero_vertices`].
    pub missing_indices: u64,
    /// The longest run of consecutive such index positions in the draw's stream: what a
    /// reader would stream as copies of vertex `base_vertex` read from no index at all.
    pub longest_missing_index_run: u64,
}

/// The element numbers one instance of an indexed draw addresses: each non-cut index
/// position's `index + base_vertex` (32-bit wrapping; positions past the index buffer, or
/// with none bound, read index 0), and the cut positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IndexSpan {
    /// The least element number (`u32::MAX` when every position is a cut).
    pub min: u32,
    /// The greatest element number (0 when every position is a cut).
    pub max: u32,
    /// Positions holding the cut value.
    pub cuts: u64,
}

impl IndexSpan {
    /// No position yet.
    fn empty() -> IndexSpan {
        IndexSpan {
            min: u32::MAX,
            max: 0,
            cuts: 0,
        }
    }

    /// Takes element number `n`.
    #[inline(always)]
    fn take(&mut self, n: u32) {
        self.min = self.min.min(n);
        self.max = self.max.max(n);
    }
}

impl DrawReport {
    /// A refusal message when the draw would stream more than `max` consecutive vertices
    /// that read nothing but zeros ([`DrawReport::longest_zero_run`]), or more than `max`
    /// consecutive index positions past the end of the index buffer
    /// ([`DrawReport::longest_missing_index_run`]; `None` otherwise). Streaming gigabytes of
    /// zeros, or of one vertex repeated from indices that are not there, is never what the
    /// caller meant; the bound is the caller's to raise. Zero vertices interleaved with real
    /// data (an index pattern reaching one vertex too far) are warned about, not refused.
    pub fn refusal(&self, max: u64) -> Option<String> {
        if self.longest_zero_run > max {
            return Some(format!(
                "the draw would produce {} consecutive vertices that read nothing but \
                 out-of-bounds zeros (more than the bound of {max}); bind the data, or raise \
                 the bound (--max-vertices)",
                self.longest_zero_run
            ));
        }
        (self.longest_missing_index_run > max).then(|| {
            format!(
                "the draw would read {} consecutive index positions past the end of the index \
                 buffer, which read index 0 (more than the bound of {max}); bind the indices, \
                 lower the index count, or raise the bound (--max-vertices)",
                self.longest_missing_index_run
            )
        })
    }
}

struct SlotInfo {
    slot: u32,
    class: InputClass,
    step_rate: u32,
    min_stride: u32,
}

/// Per-slot thresholds: element numbers from which some / every element of the slot is out
/// of bounds (`u64::MAX`: never).
struct SlotReach<'a> {
    slot: u32,
    class: InputClass,
    step_rate: u32,
    some_out: u64,
    all_out: u64,
    buffer: Option<VertexBufferBinding<'a>>,
    /// (offset, size) of each element.
    elements: Vec<(u32, u32)>,
}

impl SlotReach<'_> {
    fn bound(&self) -> bool {
        self.buffer.is_some()
    }

    fn len(&self) -> usize {
        self.buffer.map_or(0, |b| b.data.len())
    }

    fn stride(&self) -> u32 {
        self.buffer.map_or(0, |b| b.stride)
    }

    /// Whether element number `n` has some / every element out of bounds, exactly as the
    /// assembler decides ([`VertexBufferBinding::element_address`]).
    fn vertex_out(&self, n: u32) -> (bool, bool) {
        let Some(b) = &self.buffer else {
            return (true, true);
        };
        let (mut some, mut all) = (false, true);
        for &(off, size) in &self.elements {
            let out = b.element_address(off, size, n).is_none();
            some |= out;
            all &= out;
        }
        (some, all)
    }

    /// The element numbers `0..n` for which [`SlotReach::vertex_out`] is `(false, false)`
    /// for certain ([`VertexBufferBinding::in_bounds_prefix`] of every element). 0 when
    /// unbound or without elements (then nothing is promised).
    fn in_bounds_below(&self) -> u64 {
        let Some(b) = &self.buffer else {
            return 0;
        };
        self.elements
            .iter()
            .map(|&(off, size)| b.in_bounds_prefix(off, size))
            .min()
            .unwrap_or(0)
    }
}

/// Instances `i` in `0..count` whose element number `start + i / rate` (rate 0: `start`) is
/// at least `n0`: returns (first instance, how many).
fn instances_from(n0: u64, start: u64, rate: u32, count: u64) -> Option<(u64, u64)> {
    let first = if n0 <= start {
        0
    } else if rate == 0 {
        return None;
    } else {
        (n0 - start).saturating_mul(rate as u64)
    };
    (first < count).then(|| (first, count - first))
}

/// Checks a draw against the bound state without running it (see the module documentation
/// for every check). Errors are the assembler's own refusals of the call (as
/// [`InputAssembler::draw`] gives them).
pub fn validate_draw(ia: &InputAssembler<'_>, call: &DrawCall<'_>) -> Result<DrawReport, IaError> {
    let api = ia.target().api;
    let mut report = checks(ia, call)?;
    for w in &mut report.warnings {
        w.id = w.check.message_id_in(api);
    }
    Ok(report)
}

/// D3D12's stride rule (P17): a stride other than 0 must be a multiple of min(4, the largest
/// element of the slot) — strides come from the vertex buffer view, not the layout.
fn d3d12_stride_checks(ia: &InputAssembler<'_>, report: &mut DrawReport) {
    let layout = ia.layout();
    for slot in layout.slots() {
        let Some(b) = ia.vertex_buffer(slot.slot) else {
            continue;
        };
        let align = layout
            .elements()
            .iter()
            .filter(|e| e.slot == slot.slot)
            .map(|e| e.byte_size().min(4))
            .max()
            .unwrap_or(1)
            .max(1);
        if b.stride != 0 && !b.stride.is_multiple_of(align) {
            report.warnings.push(DrawWarning {
                check: DrawCheck::VertexStrideUnaligned,
                id: None,
                slot: Some(slot.slot),
                first: None,
                count: None,
                message: format!(
                    "slot {} is bound with StrideInBytes {} but its largest element needs {align}-byte \
                     alignment (min(4, element size)): vertices after the first are read \
                     misaligned and the result is undefined [P17]",
                    slot.slot, b.stride
                ),
            });
        }
    }
}

fn checks(ia: &InputAssembler<'_>, call: &DrawCall<'_>) -> Result<DrawReport, IaError> {
    let p = ia.resolve(call)?;
    let layout = ia.layout();
    let mut report = DrawReport {
        vertices: p.steps(),
        ..DrawReport::default()
    };
    let mut slots = Vec::new();
    // The slots the layout's elements use, from the elements themselves (so that hand-built
    // layouts are checked too): class and step rate of the slot's first element, the stride
    // its elements need.
    let mut used: Vec<(u32, InputClass, u32, u32)> = Vec::new();
    for e in layout.elements() {
        let end = u32::try_from(e.end()).unwrap_or(u32::MAX);
        match used.iter_mut().find(|u| u.0 == e.slot) {
            Some(u) => u.3 = u.3.max(end),
            None => used.push((e.slot, e.class, e.step_rate, end)),
        }
    }
    used.sort_by_key(|u| u.0);
    for &(slot, class, step_rate, min_stride) in &used {
        let s = SlotInfo {
            slot,
            class,
            step_rate,
            min_stride,
        };
        let elements = layout.elements().iter().filter(|e| e.slot == s.slot);
        let b = ia.vertex_buffer(s.slot);
        let (mut some_out, mut all_out) = (u64::MAX, 0u64);
        for e in elements {
            let n0 = b.map_or(0, |b| b.in_bounds_prefix(e.offset, e.byte_size()));
            some_out = some_out.min(n0);
            all_out = all_out.max(n0);
        }
        slots.push(SlotReach {
            slot: s.slot,
            class: s.class,
            step_rate: s.step_rate,
            some_out,
            all_out,
            buffer: b.copied(),
            elements: layout
                .elements()
                .iter()
                .filter(|e| e.slot == s.slot)
                .map(|e| (e.offset, e.byte_size()))
                .collect(),
        });
        match b {
            None => report.warnings.push(DrawWarning {
                check: DrawCheck::VertexBufferNotSet,
                id: DrawCheck::VertexBufferNotSet.message_id(),
                slot: Some(s.slot),
                first: None,
                count: None,
                message: format!(
                    "the layout reads slot {} ({}) but no vertex buffer is bound there: every \
                     element of it reads 0",
                    s.slot,
                    slot_semantics(layout, s.slot)
                ),
            }),
            Some(b) if b.stride != 0 && b.stride < s.min_stride => {
                report.warnings.push(DrawWarning {
                    check: DrawCheck::VertexBufferStrideTooSmall,
                    id: DrawCheck::VertexBufferStrideTooSmall.message_id(),
                    slot: Some(s.slot),
                    first: None,
                    count: None,
                    message: format!(
                        "slot {} is bound with stride {} but its elements cover {} bytes: each \
                         vertex overlaps the next",
                        s.slot, b.stride, s.min_stride
                    ),
                })
            }
            _ => {}
        }
    }

    if ia.target().api.is_d3d12() {
        d3d12_stride_checks(ia, &mut report);
        if p.instance_count == 0 {
            report.warnings.push(DrawWarning {
                check: DrawCheck::InstanceCountZero,
                id: None,
                slot: None,
                first: None,
                count: None,
                message: format!(
                    "{}: InstanceCount is 0, nothing is drawn [P23]",
                    call.name()
                ),
            });
        }
    }
    // A draw of no vertex reads nothing.
    if p.count == 0 || p.instance_count == 0 {
        return Ok(report);
    }
    // Instances (every draw kind).
    let instances = p.instance_count as u64;
    let mut zero_instances = instances;
    let mut has_instance_slots = false;
    for s in slots.iter().filter(|s| s.class == InputClass::PerInstance) {
        has_instance_slots = true;
        let all = instances_from(s.all_out, p.start_instance as u64, s.step_rate, instances);
        zero_instances = zero_instances.min(all.map_or(0, |(_, n)| n));
        if !s.bound() {
            continue;
        }
        if let Some((first, n)) =
            instances_from(s.some_out, p.start_instance as u64, s.step_rate, instances)
        {
            report.warnings.push(DrawWarning {
                check: DrawCheck::VertexBufferTooSmall,
                id: DrawCheck::VertexBufferTooSmall.message_id(),
                slot: Some(s.slot),
                first: Some(first),
                count: Some(n),
                message: format!(
                    "instances {first} to {} ({n} of {instances}) read past the end of slot {}'s \
                     {}-byte buffer (stride {}): those elements read 0",
                    first + n - 1,
                    s.slot,
                    s.len(),
                    s.stride()
                ),
            });
        }
    }
    if !has_instance_slots {
        zero_instances = instances;
    }

    let vertex_slots: Vec<&SlotReach<'_>> = slots
        .iter()
        .filter(|s| s.class == InputClass::PerVertex)
        .collect();
    let all_zero_from = vertex_slots.iter().map(|s| s.all_out).max().unwrap_or(0);
    let (per_instance_zero, run, per_instance) = if !p.indexed {
        let (start, count) = (p.start as u64, p.count as u64);
        let end = start + count;
        for s in vertex_slots.iter().filter(|s| s.bound()) {
            let first = start.max(s.some_out);
            if first < end {
                report.warnings.push(DrawWarning {
                    check: DrawCheck::VertexBufferTooSmall,
                    id: DrawCheck::VertexBufferTooSmall.message_id(),
                    slot: Some(s.slot),
                    first: Some(first),
                    count: Some(end - first),
                    message: format!(
                        "vertices {first} to {} ({} of {count}) read past the end of slot {}'s \
                         {}-byte buffer (stride {}): those elements read 0",
                        end - 1,
                        end - first,
                        s.slot,
                        s.len(),
                        s.stride()
                    ),
                });
            }
        }
        let tail = end.saturating_sub(start.max(all_zero_from));
        (tail, tail, count)
    } else {
        indexed_checks(ia, &p, &vertex_slots, &mut report)
    };
    if !layout.elements().is_empty() && zero_instances > 0 {
        report.zero_vertices = per_instance_zero.saturating_mul(zero_instances);
        // Whole instances of zeros follow each other (the zero instances are a tail).
        report.longest_zero_run = if per_instance_zero == per_instance {
            report.zero_vertices
        } else {
            run
        };
    }
    Ok(report)
}

/// Index positions tested at once by [`run_inside`].
const RUN: usize = 64;

/// Whether every index of `run` (little-endian, `S` = 2 or 4 bytes each) is not the cut
/// value and addresses a vertex (`index + base`, wrapping) below `in_bounds`, with the least
/// and greatest such vertex; written without early exits so that it compiles to vector code.
#[inline(always)]
fn run_inside<const S: usize>(
    run: &[u8],
    cut: Option<u32>,
    base: u32,
    in_bounds: u64,
) -> (bool, u32, u32) {
    // No cut value: a comparison masked off, so that the loop stays branch-free.
    let (cut, can_cut) = (cut.unwrap_or(0), cut.is_some());
    // In 32-bit lanes: the vertices are compared with the last one inside, all three
    // comparisons signed on the vertex with its top bit flipped (what baseline x86 vector
    // code compares).
    let Some(last) = in_bounds.min(1 << 32).checked_sub(1) else {
        return (false, 0, 0);
    };
    const FLIP: u32 = 0x8000_0000;
    let last = (last as u32 ^ FLIP) as i32;
    let mut bad = false;
    let (mut lo, mut hi) = (i32::MAX, i32::MIN);
    for b in run.chunks_exact(S) {
        let index = le_index::<S>(b);
        let vertex = (index.wrapping_add(base) ^ FLIP) as i32;
        bad |= ((index == cut) & can_cut) | (vertex > last);
        lo = lo.min(vertex);
        hi = hi.max(vertex);
    }
    (!bad, lo as u32 ^ FLIP, hi as u32 ^ FLIP)
}

/// The little-endian index in `b` (its first `S` = 2 or 4 bytes).
#[inline(always)]
fn le_index<const S: usize>(b: &[u8]) -> u32 {
    if S == 2 {
        u16::from_le_bytes([b[0], b[1]]) as u32
    } else {
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }
}

/// The indices `bytes` holds (`S` bytes each; the first at draw position `start`), `RUN` at a
/// time: a run that [`run_inside`] passes only counts its positions as inside every slot and
/// breaks the zero run; the others go index by index, cuts skipped, positions outside some
/// slot's data to `note`; every position's vertex (cuts counted instead) to `span`. Returns
/// the positions found inside.
#[allow(clippy::too_many_arguments)]
fn scan_indices<const S: usize>(
    bytes: &[u8],
    start: u64,
    cut: Option<u32>,
    base: u32,
    in_bounds: u64,
    zero_run: &std::cell::Cell<u64>,
    past: &mut Vec<(u64, u64, u64)>,
    span: &mut IndexSpan,
    note: &mut impl FnMut(u64, u32, &mut Vec<(u64, u64, u64)>) -> bool,
) -> u64 {
    let mut inside = 0u64;
    for (c, run) in bytes.chunks(RUN * S).enumerate() {
        if run.len() == RUN * S {
            let (ok, lo, hi) = run_inside::<S>(run, cut, base, in_bounds);
            if ok {
                inside += RUN as u64;
                zero_run.set(0);
                span.take(lo);
                span.take(hi);
                continue;
            }
        }
        for (k, b) in run.chunks_exact(S).enumerate() {
            let index = le_index::<S>(b);
            let vertex = index.wrapping_add(base);
            if Some(index) == cut {
                span.cuts += 1;
                continue;
            }
            span.take(vertex);
            if (vertex as u64) < in_bounds {
                inside += 1;
                zero_run.set(0);
            } else {
                note(start + (c * RUN + k) as u64, vertex, past);
            }
        }
    }
    inside
}

/// The index-buffer checks; returns the positions (per instance) whose vertex reads nothing.
fn indexed_checks(
    ia: &InputAssembler<'_>,
    p: &super::DrawParams,
    vertex_slots: &[&SlotReach<'_>],
    report: &mut DrawReport,
) -> (u64, u64, u64) {
    let (start, count) = (p.start as u64, p.count as u64);
    let base = p.base_vertex as u32;
    let Some(ib) = ia.index_buffer() else {
        report.warnings.insert(
            0,
            DrawWarning {
                check: DrawCheck::IndexBufferNotSet,
                id: DrawCheck::IndexBufferNotSet.message_id(),
                slot: None,
                first: None,
                count: Some(count),
                message: format!(
                    "an indexed draw of {count} indices with no index buffer bound: every index \
                     reads 0 (vertex {base})"
                ),
            },
        );
        report.indices = Some(IndexSpan {
            min: base,
            max: base,
            cuts: 0,
        });
        let instances = p.instance_count as u64;
        report.missing_indices = count.saturating_mul(instances);
        report.longest_missing_index_run = report.missing_indices;
        let zero = vertex_slots.iter().all(|s| s.vertex_out(base).1);
        for s in vertex_slots
            .iter()
            .filter(|s| s.bound() && s.vertex_out(base).0)
        {
            report
                .warnings
                .push(past_vertex_data(s, 0, count, count, base as u64));
        }
        return if zero {
            (count, count, count)
        } else {
            (0, 0, count)
        };
    };
    let size = ib.format.size() as u64;
    // `None`: no index value cuts (a D3D12 list, or its strip cut disabled).
    let cut = p.cut.value(ib.format);
    // Positions whose index lies in the buffer.
    let in_buffer = ib.in_bounds_prefix();
    let first_past = start.max(in_buffer);
    let end = start + count;
    let instances = p.instance_count as u64;
    let missing = end.saturating_sub(first_past);
    report.missing_indices = missing.saturating_mul(instances);
    // The missing positions are each instance's tail: whole instances of them follow each
    // other when no position of an instance is in the buffer.
    report.longest_missing_index_run = if missing == count {
        report.missing_indices
    } else {
        missing
    };
    let mut warnings = Vec::new();
    if first_past < end {
        warnings.push(DrawWarning {
            check: DrawCheck::IndexBufferTooSmall,
            id: DrawCheck::IndexBufferTooSmall.message_id(),
            slot: None,
            first: Some(first_past),
            count: Some(end - first_past),
            message: format!(
                "index positions {first_past} to {} ({} of {count}) lie past the end of the \
                 {}-byte index buffer (offset {}): they read index 0 (vertex {base})",
                end - 1,
                end - first_past,
                ib.data.len(),
                ib.offset
            ),
        });
    }
    // Per slot: positions whose vertex is past its data (first position and its value).
    let mut past: Vec<(u64, u64, u64)> = vec![(0, u64::MAX, 0); vertex_slots.len()];
    let mut zero = 0u64;
    // Longest run of consecutive all-zero vertices (cuts neither extend nor break it), and
    // the vertices (non-cut positions) of one instance.
    let (cur, mut best, mut noncut) = (std::cell::Cell::new(0u64), 0u64, 0u64);
    // Vertices below this number are within every slot's data (not zero, nothing past).
    let in_bounds = if vertex_slots.is_empty() {
        0
    } else {
        vertex_slots
            .iter()
            .map(|s| s.in_bounds_below())
            .min()
            .unwrap_or(0)
    };
    let mut note = |pos: u64, vertex: u32, past: &mut Vec<(u64, u64, u64)>| -> bool {
        let mut all = true;
        for (k, s) in vertex_slots.iter().enumerate() {
            let (some_out, all_out) = s.vertex_out(vertex);
            all &= all_out;
            if s.bound() && some_out {
                let e = &mut past[k];
                e.0 += 1;
                if e.1 == u64::MAX {
                    e.1 = pos;
                    e.2 = vertex as u64;
                }
            }
        }
        noncut += 1;
        if all {
            zero += 1;
            cur.set(cur.get() + 1);
            best = best.max(cur.get());
        } else {
            cur.set(0);
        }
        all
    };
    // Positions start..first_past lie in the buffer (first_past ≤ in_buffer).
    let from = (ib.offset as u64 + start * size) as usize;
    let to = (ib.offset as u64 + first_past.min(end) * size) as usize;
    let bytes = ib.data.get(from..to.max(from)).unwrap_or(&[]);
    // Non-cut positions whose vertex lies within every slot's data: what `note` finds for
    // them (not zero, nothing past, the zero run broken), without the per-slot loop.
    let mut span = IndexSpan::empty();
    let inside = match ib.format {
        IndexFormat::R16Uint => scan_indices::<2>(
            bytes, start, cut, base, in_bounds, &cur, &mut past, &mut span, &mut note,
        ),
        IndexFormat::R32Uint => scan_indices::<4>(
            bytes, start, cut, base, in_bounds, &cur, &mut past, &mut span, &mut note,
        ),
    };
    // Positions past the buffer read index 0, all alike.
    if first_past < end {
        span.take(base);
        let before: Vec<u64> = past.iter().map(|e| e.0).collect();
        let all = note(first_past, base, &mut past);
        let extra = end - first_past - 1;
        for (k, e) in past.iter_mut().enumerate() {
            if e.0 > before[k] {
                e.0 += extra;
            }
        }
        noncut += extra;
        if all {
            zero += extra;
            cur.set(cur.get() + extra);
            best = best.max(cur.get());
        }
    }
    for (k, s) in vertex_slots.iter().enumerate() {
        let (n, first, value) = past[k];
        if n > 0 {
            warnings.push(past_vertex_data(s, first, n, count, value));
        }
    }
    report.warnings.splice(0..0, warnings);
    report.indices = Some(span);
    (zero, best, noncut + inside)
}

fn past_vertex_data(s: &SlotReach<'_>, first: u64, n: u64, count: u64, vertex: u64) -> DrawWarning {
    let whole = s.some_out;
    DrawWarning {
        check: DrawCheck::IndexPastVertexData,
        id: DrawCheck::IndexPastVertexData.message_id(),
        slot: Some(s.slot),
        first: Some(first),
        count: Some(n),
        message: format!(
            "{n} of {count} indices address vertices past slot {}'s data ({}-byte buffer, \
             stride {}, {} whole vertices), the first at index position {first} (vertex \
             {vertex}): those elements read 0",
            s.slot,
            s.len(),
            s.stride(),
            if whole == u64::MAX {
                "all".to_string()
            } else {
                whole.to_string()
            }
        ),
    }
}

fn slot_semantics(layout: &InputLayout, slot: u32) -> String {
    let names: Vec<String> = layout
        .elements()
        .iter()
        .filter(|e| e.slot == slot)
        .map(|e| format!("{}{}", e.semantic_name, e.semantic_index))
        .collect();
    names.join(", ")
}

/// The draw-time linkage check between the bound layout and the bound vertex shader's input
/// signature: one [`DrawCheck::LinkageSemanticNotFound`] (debug layer 342
/// `DEVICE_SHADER_LINKAGE_SEMANTICNAME_NOT_FOUND`) per signature entry that no layout element
/// supplies (semantic names compared case-insensitively, system values such as
/// `SV_VertexID` exempt, R33). Empty when the shader is the one the layout was created with
/// (creation already refused a missing element, 163).
pub fn check_linkage(layout: &InputLayout, shader_input: &Signature) -> Vec<DrawWarning> {
    shader_input
        .elements
        .iter()
        .filter(|s| !crate::validation::is_system_generated_input(&s.semantic_name))
        .filter(|s| {
            !layout.elements().iter().any(|e| {
                e.semantic_index == s.semantic_index
                    && e.semantic_name.eq_ignore_ascii_case(&s.semantic_name)
            })
        })
        .map(|s| DrawWarning {
            check: DrawCheck::LinkageSemanticNotFound,
            id: DrawCheck::LinkageSemanticNotFound.message_id(),
            slot: None,
            first: None,
            count: None,
            message: format!(
                "the vertex shader reads {}{} (v{}) but the bound input layout has no element \
                 for it: the register is undefined",
                s.semantic_name, s.semantic_index, s.register
            ),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `in_bounds_below` promises only what `vertex_out` finds: every element number below
    /// it has no element out of bounds, and (where it is not 0 or unbounded) the number at
    /// it has one — for strides 0 and up, bind offsets past the data, and elements that
    /// never fit.
    #[test]
    fn in_bounds_below_agrees_with_vertex_out() {
        let mut checked = 0;
        for len in [0usize, 3, 12, 40, 41, 100] {
            for offset in [0u32, 1, 4, 38, 40, 0xffff_fff0] {
                for stride in [0u32, 1, 4, 12, 16, 0x8000_0000] {
                    for elements in [vec![(0u32, 4u32)], vec![(0, 8), (8, 4)], vec![(4, 12)]] {
                        let data = vec![0u8; len];
                        let s = SlotReach {
                            slot: 0,
                            class: InputClass::PerVertex,
                            step_rate: 0,
                            some_out: 0,
                            all_out: 0,
                            buffer: Some(VertexBufferBinding {
                                data: &data,
                                stride,
                                offset,
                            }),
                            elements,
                        };
                        let below = s.in_bounds_below();
                        for n in 0..below.min(200) {
                            assert_eq!(
                                s.vertex_out(n as u32),
                                (false, false),
                                "{len} {offset} {stride} {n}"
                            );
                        }
                        if below < 200 {
                            assert!(
                                s.vertex_out(below as u32).0,
                                "{len} {offset} {stride} {below}"
                            );
                        } else {
                            assert_eq!(s.vertex_out(u32::MAX), (false, false));
                        }
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, 6 * 6 * 6 * 3);
        let unbound = SlotReach {
            slot: 0,
            class: InputClass::PerVertex,
            step_rate: 0,
            some_out: 0,
            all_out: 0,
            buffer: None,
            elements: vec![(0, 4)],
        };
        assert_eq!(unbound.in_bounds_below(), 0);
    }
}
