//! Vertex fetch for one draw: `inlay_stream_*`, over the library's input assembler
//! (`InputAssembler::draw`) and its batch fetch (`VertexStream::fill_registers`).

use std::ffi::{CStr, CString, c_char, c_void};
use std::sync::Arc;

use inlay_core::assembler::{
    DrawCall, DrawField, DrawKind, DrawParams, DrawValues, InputAssembler, MAX_SLOTS, Primitives,
    Topology, VertexIds, Walker,
};
use inlay_core::buffer::{IndexBufferBinding, IndexFormat, VertexBufferBinding};
use inlay_core::format::Format;
use inlay_core::stream::VertexStream;

use super::create::{c_string, inlay_layout, read_bytes, register_mask};
use super::{INLAY_E_FAIL, INLAY_E_INVALIDARG, INLAY_S_FALSE, INLAY_S_OK, guard};

/// `inlay_draw.kind`: `Draw(count, start)`.
pub const INLAY_DRAW: u32 = 0;
/// `inlay_draw.kind`: `DrawIndexed(count, start, base_vertex)`.
pub const INLAY_DRAW_INDEXED: u32 = 1;
/// `inlay_draw.kind`: `DrawInstanced(count, instance_count, start, start_instance)`.
pub const INLAY_DRAW_INSTANCED: u32 = 2;
/// `inlay_draw.kind`: `DrawIndexedInstanced(count, instance_count, start, base_vertex,
/// start_instance)`.
pub const INLAY_DRAW_INDEXED_INSTANCED: u32 = 3;
/// `inlay_draw.kind`: `DrawInstancedIndirect`: the 16-byte argument structure
/// {VertexCountPerInstance, InstanceCount, StartVertexLocation, StartInstanceLocation} is read
/// from `args` at `args_offset`.
pub const INLAY_DRAW_INSTANCED_INDIRECT: u32 = 4;
/// `inlay_draw.kind`: `DrawIndexedInstancedIndirect`: the 20-byte argument structure
/// {IndexCountPerInstance, InstanceCount, StartIndexLocation, BaseVertexLocation,
/// StartInstanceLocation} is read from `args` at `args_offset`.
pub const INLAY_DRAW_INDEXED_INSTANCED_INDIRECT: u32 = 5;
/// `inlay_draw.kind`: `DrawAuto()`: `filled_size` is the `BufferFilledSize` stream output
/// recorded for the buffer bound to slot 0; the vertex count is
/// (filled_size − slot 0's offset) / slot 0's stride, rounded down.
pub const INLAY_DRAW_AUTO: u32 = 6;

/// `DXGI_FORMAT_R32_UINT`: 32-bit indices (cut value 0xffffffff).
pub const INLAY_INDEX_R32_UINT: u32 = 42;
/// `DXGI_FORMAT_R16_UINT`: 16-bit indices (cut value 0xffff).
pub const INLAY_INDEX_R16_UINT: u32 = 57;

/// One vertex buffer binding (`IASetVertexBuffers` for one slot).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct inlay_vertex_buffer {
    /// The buffer's bytes; NULL leaves the slot unbound (every lane reads 0).
    pub data: *const c_void,
    /// The buffer's size in bytes (`ByteWidth`); must be 0 when `data` is NULL.
    pub size: usize,
    /// Bytes between consecutive vertices (or instances); at most 2048.
    pub stride: u32,
    /// Byte offset of element 0 inside the buffer (the bind offset).
    pub offset: u32,
}

/// The index buffer binding (`IASetIndexBuffer`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct inlay_index_buffer {
    /// The buffer's bytes; may be NULL only with `size` 0 (every index then reads 0).
    pub data: *const c_void,
    /// The buffer's size in bytes.
    pub size: usize,
    /// `INLAY_INDEX_R16_UINT` (57) or `INLAY_INDEX_R32_UINT` (42), the `DXGI_FORMAT` values.
    pub format: u32,
    /// Byte offset of index 0.
    pub offset: u32,
}

/// The input-assembler state a draw runs with.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct inlay_ia_state {
    /// `num_vertex_buffers` bindings, entry i for slot i (may be NULL when
    /// `num_vertex_buffers` is 0); slots past the array are unbound.
    pub vertex_buffers: *const inlay_vertex_buffer,
    /// Number of entries of `vertex_buffers`, at most 32 (and at most the target's slot count
    /// for entries whose `data` is not NULL).
    pub num_vertex_buffers: u32,
    /// A `D3D_PRIMITIVE_TOPOLOGY` value (e.g. 4 for a triangle list); it must be available
    /// on the layout's target, and not 0 (undefined).
    pub topology: u32,
    /// The index buffer, or NULL for none (indexed draws then read index 0 everywhere).
    pub index_buffer: *const inlay_index_buffer,
}

/// One draw call. `kind` picks the call (`INLAY_DRAW` … `INLAY_DRAW_AUTO`); each call reads
/// only the fields its D3D11 method has, the others are ignored.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct inlay_draw {
    /// `INLAY_DRAW`, `INLAY_DRAW_INDEXED`, `INLAY_DRAW_INSTANCED`,
    /// `INLAY_DRAW_INDEXED_INSTANCED`, `INLAY_DRAW_INSTANCED_INDIRECT`,
    /// `INLAY_DRAW_INDEXED_INSTANCED_INDIRECT` or `INLAY_DRAW_AUTO`.
    pub kind: u32,
    /// `VertexCount`, `IndexCount`, `VertexCountPerInstance` or `IndexCountPerInstance`.
    pub count: u32,
    /// `InstanceCount` (instanced forms).
    pub instance_count: u32,
    /// `StartVertexLocation` or `StartIndexLocation`.
    pub start: u32,
    /// `BaseVertexLocation` (indexed forms).
    pub base_vertex: i32,
    /// `StartInstanceLocation` (instanced forms).
    pub start_instance: u32,
    /// The argument buffer's bytes (indirect forms); read during `inlay_stream_begin` only.
    pub args: *const c_void,
    /// The argument buffer's size in bytes.
    pub args_size: usize,
    /// `AlignedByteOffsetForArgs`: a multiple of 4.
    pub args_offset: u32,
    /// `BufferFilledSize` of slot 0's buffer (`INLAY_DRAW_AUTO`).
    pub filled_size: u32,
}

/// The system values of one fetched vertex.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct inlay_vertex_ids {
    /// 0-based position in the draw's vertex stream (strip cuts take no position).
    pub position: u64,
    /// `SV_VertexID`.
    pub vertex_id: u32,
    /// `SV_InstanceID`.
    pub instance_id: u32,
}

/// The system values of one assembled primitive (`inlay_stream_primitives`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct inlay_primitive_ids {
    /// `SV_PrimitiveID`: the primitive's number in its instance, from 0 (a strip cut does
    /// not reset it).
    pub primitive_id: u32,
    /// `SV_InstanceID` of the instance the primitive belongs to.
    pub instance_id: u32,
}

/// The most layout elements `CreateInputLayout` accepts on any target (the element limit
/// follows the slot limit, at most 32): a stream reserves room for a draw of this many
/// elements when it is created, so no draw's `inlay_stream_begin` allocates.
const RESERVED_ELEMENTS: usize = MAX_SLOTS;

/// The vertex stream of one draw. Create one per thread with `inlay_stream_create` and reuse it
/// for every draw: `inlay_stream_begin` prepares a draw in the stream's own storage (reserved
/// at creation for the largest layout), `inlay_stream_fetch` hands out its vertices and
/// `inlay_stream_primitives` its primitives in batches into caller memory; neither allocates.
pub struct inlay_stream {
    /// The draw's vertices (the library's stream, restarted in place for every draw). It
    /// borrows the caller's buffers (which the caller keeps valid) and holds no reference to
    /// the layout; it is cleared (every buffer reference dropped) when the draw ends.
    vertices: VertexStream<'static>,
    /// The draw's primitives, walked independently of the vertices (it reads the index
    /// buffer only); an empty walk when no draw is begun or its primitives are over.
    primitives: Primitives<'static>,
    /// Vertices per primitive of the draw's topology.
    primitive_size: usize,
    /// The layout of the draw begun last, kept alive by the stream (`None`: idle).
    layout: Option<Arc<inlay_layout>>,
    /// Whether vertices remain to be fetched.
    vertices_left: bool,
    /// Whether primitives remain to be walked.
    primitives_left: bool,
    width: usize,
    /// Why the last call failed (`None` after a success: clearing it allocates nothing).
    error: Option<CString>,
}

/// A walk of no primitives that holds no buffer.
fn no_primitives() -> Primitives<'static> {
    Primitives::new(
        Walker::new(DrawParams::default(), None),
        Topology::Undefined,
    )
}

impl inlay_stream {
    /// Ends the draw (dropping every reference to the caller's buffers and the layout),
    /// keeping the storage.
    fn reset(&mut self) {
        self.vertices.clear();
        self.primitives = no_primitives();
        self.primitive_size = 0;
        self.layout = None;
        self.vertices_left = false;
        self.primitives_left = false;
        self.width = 0;
        self.error = None;
    }

    fn fail(&mut self, message: String) -> i32 {
        self.reset();
        self.error = Some(c_string(&message));
        INLAY_E_INVALIDARG
    }
}

/// The stream behind a C handle.
///
/// # Safety
/// `stream` is NULL or a live pointer from `inlay_stream_create`, used by this thread alone.
unsafe fn stream_mut<'a>(stream: *mut inlay_stream) -> Option<&'a mut inlay_stream> {
    if !stream.is_aligned() {
        return None;
    }
    // SAFETY: NULL or live and unshared (caller's contract), aligned (checked above).
    unsafe { stream.as_mut() }
}

/// A new, idle stream; NULL only when memory runs out. Create one per thread (or per
/// command list) and reuse it for every draw: this is the only call of the draw path that
/// allocates — it reserves the storage of a draw of the largest layout (32 elements), so that
/// `inlay_stream_begin`, `inlay_stream_fetch` and `inlay_stream_primitives` allocate nothing
/// for any layout and any draw afterwards (only a refused call allocates, for its
/// `inlay_stream_error` message).
///
/// Thread safety: may be called from any thread.
#[unsafe(no_mangle)]
pub extern "C" fn inlay_stream_create() -> *mut inlay_stream {
    guard(std::ptr::null_mut(), || {
        let mut vertices = VertexStream::empty();
        vertices.reserve(RESERVED_ELEMENTS);
        Box::into_raw(Box::new(inlay_stream {
            vertices,
            primitives: no_primitives(),
            primitive_size: 0,
            layout: None,
            vertices_left: false,
            primitives_left: false,
            width: 0,
            error: None,
        }))
    })
}

/// Reads the C draw into the library's draw call.
///
/// # Safety
/// `d.args` is NULL or holds `d.args_size` readable bytes for `'a`.
unsafe fn read_draw<'a>(d: &inlay_draw) -> Result<DrawCall<'a>, String> {
    let args = || {
        if d.args.is_null() && d.args_size != 0 {
            return Err(format!(
                "inlay_draw.args is NULL but args_size is {}",
                d.args_size
            ));
        }
        // SAFETY: NULL (→ empty) or `args_size` readable bytes (caller's contract).
        unsafe { read_bytes(d.args, d.args_size, "inlay_draw.args") }
    };
    // The kind's row of the library's draw-kind table: `inlay_draw`'s fields are its
    // `DrawValues`, by meaning; the kind takes those its method has.
    let kind = DrawKind::from_c(d.kind)
        .ok_or_else(|| format!("inlay_draw.kind {} is not an INLAY_DRAW_* value", d.kind))?;
    let mut v = DrawValues::default();
    v[DrawField::Count] = d.count;
    v[DrawField::InstanceCount] = d.instance_count;
    v[DrawField::Start] = d.start;
    v[DrawField::BaseVertex] = d.base_vertex as u32;
    v[DrawField::StartInstance] = d.start_instance;
    v[DrawField::Offset] = d.args_offset;
    v[DrawField::FilledSize] = d.filled_size;
    if kind.info().keys.iter().any(|k| k.field == DrawField::Args) {
        v.args = args()?;
    }
    Ok(DrawCall::from_values(kind, &v))
}

/// Prepares one draw through `layout` with the buffers and topology of `state`: validates it
/// as the input assembler does (slots, strides ≤ 2048, index format, topology available on
/// the layout's target, draw kind available, indirect arguments inside their buffer) and
/// positions `stream` at the draw's first vertex. Any draw `stream` held before is dropped.
///
/// Returns `INLAY_S_OK`, or `INLAY_E_INVALIDARG` when a pointer is NULL or misaligned or the
/// draw is refused — `inlay_stream_error` then says why (slot, value and rule) — or
/// `INLAY_E_FAIL` for an internal error.
///
/// The stream keeps its own reference to `layout` and reads the vertex and index buffers of
/// `state` while vertices are fetched, and the index buffer while primitives are walked:
/// their memory must stay valid and unchanged until the stream is begun again or released,
/// or both `inlay_stream_fetch` and `inlay_stream_primitives` have returned `INLAY_S_FALSE`
/// (a caller that never asks for primitives keeps the index buffer until the stream is begun
/// again or released). `state`, `draw` and the indirect argument buffer are read during this
/// call only.
///
/// Allocation: none. The draw's fetch plan is compiled into the stream's storage, reserved by
/// `inlay_stream_create` for the largest layout — the per-draw call of a translation layer's
/// software path (only a refused draw allocates, for its `inlay_stream_error` message).
///
/// Thread safety: a stream is used by one thread at a time; any number of streams may use one
/// layout on different threads at once.
///
/// # Safety
/// `stream` is a live stream; `layout` is live; `state` and `draw` point to readable
/// structures whose buffer pointers satisfy the contract above.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn inlay_stream_begin(
    stream: *mut inlay_stream,
    layout: *const inlay_layout,
    state: *const inlay_ia_state,
    draw: *const inlay_draw,
) -> i32 {
    // SAFETY: NULL or live (caller's contract).
    let Some(s) = (unsafe { stream_mut(stream) }) else {
        return INLAY_E_INVALIDARG;
    };
    guard(INLAY_E_FAIL, || {
        s.reset();
        // SAFETY: forwarded contract of this function.
        match unsafe { begin(s, layout, state, draw) } {
            Ok(()) => INLAY_S_OK,
            Err(message) => s.fail(message),
        }
    })
}

/// The body of [`inlay_stream_begin`].
///
/// # Safety
/// As [`inlay_stream_begin`].
unsafe fn begin(
    s: &mut inlay_stream,
    layout: *const inlay_layout,
    state: *const inlay_ia_state,
    draw: *const inlay_draw,
) -> Result<(), String> {
    if layout.is_null() {
        return Err("layout is NULL".into());
    }
    if state.is_null() || !state.is_aligned() {
        return Err(format!("state pointer {state:p} is NULL or misaligned"));
    }
    if draw.is_null() || !draw.is_aligned() {
        return Err(format!("draw pointer {draw:p} is NULL or misaligned"));
    }
    // SAFETY: `layout` came from Arc::into_raw and is live (caller's contract): taking one more
    // strong reference and owning it gives the stream its own reference.
    let owned = unsafe {
        Arc::increment_strong_count(layout);
        Arc::from_raw(layout)
    };
    // SAFETY: the reference lives in `s.layout` as long as `s.vertices`, which is dropped
    // first (field order, and `reset` clears `vertices` before `layout`).
    let l: &'static inlay_layout = unsafe { &*Arc::as_ptr(&owned) };
    s.layout = Some(owned);
    // SAFETY: non-NULL and aligned (checked above), readable (caller's contract).
    let (state, draw) = unsafe { (state.read(), draw.read()) };

    let mut ia = InputAssembler::new(&l.layout, l.target);
    let n = state.num_vertex_buffers as usize;
    if n > MAX_SLOTS {
        return Err(format!(
            "num_vertex_buffers {n} is more than the {MAX_SLOTS} input slots"
        ));
    }
    if n > 0 && (state.vertex_buffers.is_null() || !state.vertex_buffers.is_aligned()) {
        return Err(format!(
            "vertex_buffers pointer {:p} is NULL or misaligned with num_vertex_buffers {n}",
            state.vertex_buffers
        ));
    }
    let buffers = if n == 0 {
        &[][..]
    } else {
        // SAFETY: non-NULL, aligned (checked above), n ≤ 32 readable entries (contract).
        unsafe { std::slice::from_raw_parts(state.vertex_buffers, n) }
    };
    for (slot, vb) in buffers.iter().enumerate() {
        if vb.data.is_null() {
            if vb.size != 0 {
                return Err(format!(
                    "vertex buffer slot {slot}: data is NULL but size is {}",
                    vb.size
                ));
            }
            continue;
        }
        // SAFETY: `size` readable bytes that stay valid and unchanged until the stream ends
        // (the contract of inlay_stream_begin), hence the 'static lifetime.
        let data: &'static [u8] = unsafe { read_bytes(vb.data, vb.size, "vertex buffer") }?;
        ia.set_vertex_buffer(
            slot as u32,
            Some(VertexBufferBinding {
                data,
                stride: vb.stride,
                offset: vb.offset,
            }),
        )
        .map_err(|e| e.to_string())?;
    }
    if !state.index_buffer.is_null() {
        if !state.index_buffer.is_aligned() {
            return Err("index_buffer pointer is misaligned".into());
        }
        // SAFETY: non-NULL, aligned (checked above), readable (contract).
        let ib = unsafe { state.index_buffer.read() };
        let format = match ib.format {
            INLAY_INDEX_R16_UINT => IndexFormat::R16Uint,
            INLAY_INDEX_R32_UINT => IndexFormat::R32Uint,
            other => {
                return Err(format!(
                    "index buffer format {} is not DXGI_FORMAT_R16_UINT (57) or \
                     DXGI_FORMAT_R32_UINT (42)",
                    Format(other)
                ));
            }
        };
        if ib.data.is_null() && ib.size != 0 {
            return Err(format!(
                "index buffer: data is NULL but size is {}",
                ib.size
            ));
        }
        // SAFETY: as for the vertex buffers.
        let data: &'static [u8] = unsafe { read_bytes(ib.data, ib.size, "index buffer") }?;
        ia.set_index_buffer(Some(IndexBufferBinding {
            data,
            format,
            offset: ib.offset,
        }))
        .map_err(|e| e.to_string())?;
    }
    ia.set_topology_d3d(state.topology)
        .map_err(|e| e.to_string())?;
    // SAFETY: the argument buffer is readable during this call (contract).
    let call = unsafe { read_draw(&draw) }?;
    ia.draw_into(&call, &mut s.vertices)
        .map_err(|e| e.to_string())?;
    let width = s.vertices.register_row().len();
    if width != register_mask(&l.layout).count_ones() as usize {
        return Err(format!(
            "internal: the draw's register row has {width} registers, the layout's mask {:#x}",
            register_mask(&l.layout)
        ));
    }
    s.width = width;
    // The primitives walk the same draw from its start (a copy of the untouched walk).
    s.primitives = Primitives::new(s.vertices.walker().clone(), ia.topology());
    s.primitive_size = ia.topology().vertices_per_primitive();
    s.vertices_left = true;
    s.primitives_left = true;
    Ok(())
}

/// Vertices fetched per step into a stack buffer of IDs (the registers go straight to the
/// caller's memory).
const ID_CHUNK: usize = 256;

/// Fetches the next vertices of the draw begun on `stream`, at most `max_vertices`: vertex k
/// gets its system values in `ids[k]` (`ids` may be NULL: a caller whose shader reads no
/// system value saves their cost, and the registers are then fetched in larger batches) and
/// its input registers in `registers[k·w … k·w + w − 1]`, four 32-bit lanes each, where w is
/// the number of registers the layout feeds (`inlay_layout_register_mask`, lowest register
/// first) — the exact bits the vertex shader receives. `registers` holds `register_rows`
/// entries (it may be NULL when w is 0); at most `register_rows / w` vertices are written.
/// The number written goes to `*out_count`.
///
/// Returns `INLAY_S_OK` when at least one vertex was written, `INLAY_S_FALSE` (with
/// `*out_count` 0) when the draw has no more vertices (the stream then no longer reads the
/// buffers), `INLAY_E_INVALIDARG` when no draw is begun, `max_vertices` is 0, a pointer is
/// NULL or misaligned, or `registers` cannot hold one vertex (`inlay_stream_error` says
/// which), `INLAY_E_FAIL` for an internal error. Nothing is allocated; each call does work
/// proportional to the vertices it writes (strip cuts in between included).
///
/// Thread safety: a stream is used by one thread at a time.
///
/// # Safety
/// `stream` is a live stream; `ids` is NULL or writable for `max_vertices` entries;
/// `registers` is NULL or writable for `register_rows` entries; `out_count` is writable; the
/// buffers given to `inlay_stream_begin` are still valid.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn inlay_stream_fetch(
    stream: *mut inlay_stream,
    max_vertices: usize,
    ids: *mut inlay_vertex_ids,
    registers: *mut [u32; 4],
    register_rows: usize,
    out_count: *mut usize,
) -> i32 {
    // SAFETY: forwarded contract of this function.
    unsafe {
        batch(stream, out_count, |s| {
            fetch(s, max_vertices, ids, registers, register_rows)
        })
    }
}

/// The shell both batch calls share: checks `stream` and `out_count`, runs `body` with
/// panics caught, writes the count it returns (0 first, so a refused call leaves 0), and maps
/// the result to S_OK (some written), S_FALSE (the stream is done) or E_INVALIDARG (a bad
/// argument: the message is kept for `inlay_stream_error`, the stream stays where it was).
///
/// # Safety
/// `stream` is NULL or a live stream no other thread uses; `out_count` is NULL or writable.
unsafe fn batch(
    stream: *mut inlay_stream,
    out_count: *mut usize,
    body: impl FnOnce(&mut inlay_stream) -> Result<usize, String>,
) -> i32 {
    // SAFETY: NULL or live (caller's contract).
    let Some(s) = (unsafe { stream_mut(stream) }) else {
        return INLAY_E_INVALIDARG;
    };
    guard(INLAY_E_FAIL, || {
        if out_count.is_null() || !out_count.is_aligned() {
            s.error = Some(c_string("out_count is NULL or misaligned"));
            return INLAY_E_INVALIDARG;
        }
        // SAFETY: non-NULL, aligned (checked above), writable (contract).
        unsafe { out_count.write(0) };
        match body(s) {
            Ok(n) => {
                s.error = None;
                // SAFETY: as above.
                unsafe { out_count.write(n) };
                if n == 0 { INLAY_S_FALSE } else { INLAY_S_OK }
            }
            Err(message) => {
                s.error = Some(c_string(&message));
                INLAY_E_INVALIDARG
            }
        }
    })
}

/// The body of [`inlay_stream_fetch`]: the number of vertices written.
///
/// # Safety
/// As [`inlay_stream_fetch`].
unsafe fn fetch(
    s: &mut inlay_stream,
    max_vertices: usize,
    ids: *mut inlay_vertex_ids,
    registers: *mut [u32; 4],
    register_rows: usize,
) -> Result<usize, String> {
    let w = s.width;
    if !s.vertices_left {
        if s.layout.is_some() {
            return Ok(0); // finished
        }
        return Err("no draw is begun on this stream (inlay_stream_begin)".into());
    }
    let vertices = &mut s.vertices;
    if max_vertices == 0 {
        return Err("max_vertices is 0".into());
    }
    if !ids.is_aligned() || !registers.is_aligned() {
        return Err("ids or registers pointer is misaligned".into());
    }
    let cap = if w == 0 {
        max_vertices
    } else {
        if registers.is_null() || register_rows < w {
            return Err(format!(
                "registers must hold at least one vertex of {w} registers (got {} rows at {:p})",
                register_rows, registers
            ));
        }
        max_vertices.min(register_rows / w)
    };
    if cap
        .checked_mul(w.max(1) * 16)
        .is_none_or(|b| b > isize::MAX as usize)
        || cap
            .checked_mul(size_of::<inlay_vertex_ids>())
            .is_none_or(|b| b > isize::MAX as usize)
    {
        return Err(format!("{cap} vertices is larger than any array can be"));
    }
    let regs: &mut [[u32; 4]] = if w == 0 {
        &mut []
    } else {
        // SAFETY: non-NULL, aligned (checked above), cap·w ≤ register_rows writable entries
        // (contract), size ≤ isize::MAX (checked above).
        unsafe { std::slice::from_raw_parts_mut(registers, cap * w) }
    };
    let mut out_ids: Option<&mut [inlay_vertex_ids]> = if ids.is_null() {
        None
    } else {
        // SAFETY: non-NULL, aligned (checked above), cap ≤ max_vertices writable entries
        // (contract), size ≤ isize::MAX (checked above).
        Some(unsafe { std::slice::from_raw_parts_mut(ids, cap) })
    };
    // Without IDs asked for (and registers to write), the register-only batch form takes the
    // whole request at once; otherwise ID_CHUNK vertices at a time through the stack buffer.
    let registers_only = out_ids.is_none() && w > 0;
    let mut chunk = [VertexIds::default(); ID_CHUNK];
    let mut n = 0;
    while n < cap {
        let (m, got) = if registers_only {
            (cap - n, vertices.fill_registers_only(&mut regs[n * w..]))
        } else {
            let m = (cap - n).min(ID_CHUNK);
            let got = vertices.fill_registers(&mut chunk[..m], &mut regs[n * w..(n + m) * w]);
            (m, got)
        };
        if let Some(out) = out_ids.as_deref_mut() {
            for (o, v) in out[n..n + got].iter_mut().zip(&chunk[..got]) {
                *o = inlay_vertex_ids {
                    position: v.position,
                    vertex_id: v.vertex_id,
                    instance_id: v.instance_id,
                };
            }
        }
        n += got;
        if got < m {
            // The draw is over: drop its buffer references, so the buffers are no longer read.
            vertices.clear();
            s.vertices_left = false;
            break;
        }
    }
    Ok(n)
}

/// Hands out the next primitives of the draw begun on `stream`, at most `max_primitives`,
/// as the input assembler's primitive assembly makes them for the draw's topology
/// (ia-semantics §5–§6): primitive k gets its system values in `ids[k]` (`ids` may be NULL)
/// and its vertices in `vertices[k·n … k·n + n − 1]`, where n is
/// `inlay_stream_primitive_size` (1 for points, 2 lines, 3 triangles, 4 and 6 with
/// adjacency, c for a c-control-point patch list). Each vertex is its `position` in the
/// draw's vertex stream — the `inlay_vertex_ids.position` of the vertex `inlay_stream_fetch`
/// hands out — in the order a geometry shader receives them: leading vertex first, odd
/// triangle-strip triangles as k, k+2, k+1, adjacency vertices included; strip cuts and
/// instance boundaries restart strips, incomplete primitives are dropped. `vertices` holds
/// `vertex_capacity` entries; at most `vertex_capacity / n` primitives are written. The
/// number written goes to `*out_count`.
///
/// The primitive walk is independent of the vertex fetch (either may run ahead; a caller
/// fetches the vertices of a batch of primitives by position). Returns `INLAY_S_OK` when at
/// least one primitive was written, `INLAY_S_FALSE` (with `*out_count` 0) when the draw has
/// no more primitives (the walk then no longer reads the index buffer), `INLAY_E_INVALIDARG`
/// when no draw is begun, `max_primitives` is 0, a pointer is NULL or misaligned, or
/// `vertices` cannot hold one primitive (`inlay_stream_error` says which), `INLAY_E_FAIL` for
/// an internal error. Nothing is allocated; each call does work proportional to the steps of
/// the draw it walks, and at most 2 × the draw's vertex (index) count steps past its last
/// primitive.
///
/// Thread safety: a stream is used by one thread at a time.
///
/// # Safety
/// `stream` is a live stream; `ids` is NULL or writable for `max_primitives` entries;
/// `vertices` is writable for `vertex_capacity` entries; `out_count` is writable; the index
/// buffer given to `inlay_stream_begin` is still valid.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn inlay_stream_primitives(
    stream: *mut inlay_stream,
    max_primitives: usize,
    ids: *mut inlay_primitive_ids,
    vertices: *mut u64,
    vertex_capacity: usize,
    out_count: *mut usize,
) -> i32 {
    // SAFETY: forwarded contract of this function.
    unsafe {
        batch(stream, out_count, |s| {
            primitives(s, max_primitives, ids, vertices, vertex_capacity)
        })
    }
}

/// The body of [`inlay_stream_primitives`]: the number of primitives written.
///
/// # Safety
/// As [`inlay_stream_primitives`].
unsafe fn primitives(
    s: &mut inlay_stream,
    max_primitives: usize,
    ids: *mut inlay_primitive_ids,
    vertices: *mut u64,
    vertex_capacity: usize,
) -> Result<usize, String> {
    if !s.primitives_left {
        if s.layout.is_some() {
            return Ok(0); // finished
        }
        return Err("no draw is begun on this stream (inlay_stream_begin)".into());
    }
    let k = s.primitive_size;
    if max_primitives == 0 {
        return Err("max_primitives is 0".into());
    }
    if !ids.is_aligned() || !vertices.is_aligned() {
        return Err("ids or vertices pointer is misaligned".into());
    }
    if vertices.is_null() || vertex_capacity < k {
        return Err(format!(
            "vertices must hold at least one primitive of {k} vertices (got {vertex_capacity} \
             entries at {vertices:p})"
        ));
    }
    let cap = max_primitives.min(vertex_capacity / k.max(1));
    if cap
        .checked_mul(k.max(1) * size_of::<u64>())
        .is_none_or(|b| b > isize::MAX as usize)
        || cap
            .checked_mul(size_of::<inlay_primitive_ids>())
            .is_none_or(|b| b > isize::MAX as usize)
    {
        return Err(format!("{cap} primitives is larger than any array can be"));
    }
    // SAFETY: non-NULL, aligned (checked above), cap·k ≤ vertex_capacity writable entries
    // (contract), size ≤ isize::MAX (checked above).
    let out = unsafe { std::slice::from_raw_parts_mut(vertices, cap * k) };
    let mut out_ids: Option<&mut [inlay_primitive_ids]> = if ids.is_null() {
        None
    } else {
        // SAFETY: non-NULL, aligned (checked above), cap ≤ max_primitives writable entries
        // (contract), size ≤ isize::MAX (checked above).
        Some(unsafe { std::slice::from_raw_parts_mut(ids, cap) })
    };
    let mut n = 0;
    while n < cap {
        let Some(p) = s.primitives.next() else {
            // The draw's primitives are over: drop the walk's index buffer reference.
            s.primitives = no_primitives();
            s.primitives_left = false;
            break;
        };
        let v = p.vertices();
        if v.len() != k {
            return Err(format!(
                "internal: a primitive of {} vertices in a draw of {k}-vertex primitives",
                v.len()
            ));
        }
        out[n * k..(n + 1) * k].copy_from_slice(v);
        if let Some(o) = out_ids.as_deref_mut() {
            o[n] = inlay_primitive_ids {
                primitive_id: p.id,
                instance_id: p.instance_id,
            };
        }
        n += 1;
    }
    Ok(n)
}

/// Vertices per primitive (n) of the draw begun on `stream`, as `inlay_stream_primitives`
/// writes them: 1, 2, 3, 4, 6 or a patch list's control-point count; 0 when no draw is begun
/// or `stream` is NULL.
///
/// Thread safety: a stream is used by one thread at a time.
///
/// # Safety
/// `stream` is NULL or a live stream.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn inlay_stream_primitive_size(stream: *const inlay_stream) -> u32 {
    guard(0, || {
        if !stream.is_aligned() {
            return 0;
        }
        // SAFETY: NULL or live (caller's contract), aligned (checked above).
        unsafe { stream.as_ref() }.map_or(0, |s| s.primitive_size as u32)
    })
}

/// Number of registers (w) each vertex of the draw begun on `stream` takes in
/// `inlay_stream_fetch`'s `registers`; 0 when no draw is begun or `stream` is NULL.
///
/// Thread safety: a stream is used by one thread at a time.
///
/// # Safety
/// `stream` is NULL or a live stream.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn inlay_stream_register_count(stream: *const inlay_stream) -> u32 {
    guard(0, || {
        if !stream.is_aligned() {
            return 0;
        }
        // SAFETY: NULL or live (caller's contract), aligned (checked above).
        unsafe { stream.as_ref() }.map_or(0, |s| s.width as u32)
    })
}

/// Why the last `inlay_stream_begin`, `inlay_stream_fetch` or `inlay_stream_primitives` on
/// `stream` failed, as a
/// NUL-terminated UTF-8 sentence naming the slot, value and rule; `""` after a success. Valid
/// until the next call on the stream. Never NULL.
///
/// Thread safety: a stream is used by one thread at a time.
///
/// # Safety
/// `stream` is NULL or a live stream.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn inlay_stream_error(stream: *const inlay_stream) -> *const c_char {
    guard(c"".as_ptr(), || {
        if !stream.is_aligned() {
            return c"".as_ptr();
        }
        // SAFETY: NULL or live (caller's contract), aligned (checked above).
        unsafe { stream.as_ref() }
            .and_then(|s| s.error.as_deref())
            .map_or(c"".as_ptr(), CStr::as_ptr)
    })
}

/// Frees a stream (NULL is ignored), with its reference to the layout of its draw.
///
/// Thread safety: must not run while another thread uses the stream.
///
/// # Safety
/// `stream` is NULL or a live pointer from `inlay_stream_create`, released once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn inlay_stream_release(stream: *mut inlay_stream) {
    guard((), || {
        if !stream.is_null() && stream.is_aligned() {
            // SAFETY: made by Box::into_raw in inlay_stream_create, released once.
            drop(unsafe { Box::from_raw(stream) });
        }
    })
}
