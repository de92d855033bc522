//! `inlay.decode`: a draw's vertex stream decoded into numpy arrays.
//!
//! The input assembler of the library resolves the draw (bindings, topology, draw kind,
//! defaults like `inlay decode`'s), its walk hands out runs of consecutive vertices of one
//! instance, and the library's per-element fast fetch (`FetchPlan::fetch_element_rows`)
//! decodes each run straight into the numpy arrays' rows, each at its element's width. Every
//! output array is allocated once, by numpy, before the GIL is released.

use std::time::Instant;

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use inlay::assembler::walk::read_index;
use inlay::assembler::{
    DrawDefaults, DrawForm, DrawKind, DrawSpec, DrawSyntax, InputAssembler, MAX_SLOTS, Topology,
    WalkBatch,
};
use inlay::buffer::{IndexBufferBinding, IndexFormat, VertexBufferBinding};
use inlay::fetch::{ElementRows, FetchPlan, Instance, STREAM_THRESHOLD_BYTES, StoreMode, Vertices};
use inlay::format::{FormatInfo, Kind};
use inlay::layout::{InputClass, InputLayout as ResolvedLayout};
use inlay::target::Target;
use inlay::text::records::parse_hex;

use crate::create::{InputLayout, target_of};
use crate::errors::{self, draw_error, layout_error};
use crate::layout::elements_of;

/// Vertices decoded per run of the walk.
const BLOCK: usize = 4096;

/// A zero-copy `uint8` view of a bytes-like object (bytes, bytearray, memoryview, a
/// C-contiguous numpy array) made by `numpy.frombuffer`, which holds a buffer export: a
/// bytearray cannot be resized while the view lives.
fn byte_view<'py>(
    np: &Bound<'py, PyModule>,
    obj: &Bound<'py, PyAny>,
    what: &str,
) -> PyResult<PyReadonlyArray1<'py, u8>> {
    if obj.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!(
            "{what}: expected bytes, bytearray, memoryview or a numpy array, got str"
        )));
    }
    let view = np
        .call_method1("frombuffer", (obj, np.getattr("uint8")?))
        .map_err(|e| {
            PyTypeError::new_err(format!(
                "{what}: expected a contiguous bytes-like object (bytes, bytearray, memoryview, \
                 C-contiguous numpy array): {}",
                e.value(obj.py())
            ))
        })?;
    let arr = view.cast_into::<PyArray1<u8>>()?;
    Ok(arr.readonly())
}

/// `(slot, value)` pairs of a dict `{slot: value}` or a sequence (position = slot; None
/// entries skipped).
fn slot_items<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Vec<(u32, Bound<'py, PyAny>)>> {
    let mut out = Vec::new();
    if let Ok(d) = obj.cast::<PyDict>() {
        for (k, v) in d.iter() {
            let slot: u32 = k.extract().map_err(|_| {
                PyTypeError::new_err(format!(
                    "{what}: slot `{k}` is not a number from 0 to 4294967295"
                ))
            })?;
            out.push((slot, v));
        }
    } else if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        for (i, v) in obj.try_iter()?.enumerate() {
            let v = v?;
            if !v.is_none() {
                out.push((i as u32, v));
            }
        }
    } else {
        return Err(PyTypeError::new_err(format!(
            "{what}: expected a dict {{slot: value}} or a list indexed by slot, got {}",
            obj.get_type().name()?
        )));
    }
    out.sort_by_key(|(s, _)| *s);
    Ok(out)
}

/// Per-slot integers (`strides`, `offsets`): a dict or list by slot, or one int for all.
pub(crate) fn slot_numbers(obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<SlotNumbers> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(SlotNumbers::None);
    };
    if let Ok(v) = obj.extract::<u32>() {
        return Ok(SlotNumbers::All(v));
    }
    let mut m = Vec::new();
    for (slot, v) in slot_items(obj, what)? {
        let n: u32 = v.extract().map_err(|_| {
            layout_error(format!(
                "{what}[{slot}]: `{v}` is not a number from 0 to 4294967295"
            ))
        })?;
        m.push((slot, n));
    }
    Ok(SlotNumbers::Some(m))
}

pub(crate) enum SlotNumbers {
    None,
    All(u32),
    Some(Vec<(u32, u32)>),
}

impl SlotNumbers {
    fn get(&self, slot: u32) -> Option<u32> {
        match self {
            SlotNumbers::None => None,
            SlotNumbers::All(v) => Some(*v),
            SlotNumbers::Some(m) => m.iter().find(|(s, _)| *s == slot).map(|(_, v)| *v),
        }
    }
}

/// The resolved layout and target `decode` works with: a created `InputLayout` as it is, or
/// a `Layout` / ELEMENT list validated without a shader (element *i* feeds register *i*).
pub(crate) fn resolve_layout(
    py: Python<'_>,
    layout: &Bound<'_, PyAny>,
    api: &str,
    feature_level: Option<&str>,
) -> PyResult<(ResolvedLayout, Target)> {
    if let Ok(c) = layout.cast::<InputLayout>() {
        let c = c.get();
        return Ok((c.resolved(py)?.clone(), c.target));
    }
    let elements = elements_of(py, layout)?;
    let target = target_of(api, feature_level)?;
    let creation = inlay::validation::layout_without_shader(&target, &elements);
    match creation.layout {
        Some(l) => Ok((l, target)),
        None => Err(errors::create_error(py, &creation)),
    }
}

/// The layout `inlay.decode` draws with. An element list is created as `inlay decode`
/// creates it: under D3D12 with the `pipeline` dict's state ([`crate::create::pipeline_of`],
/// the topology type defaulting to the draw's, so the strip cut and the topology type
/// check apply as they do with `--api d3d12 --strip-cut … --topology-type …`). An
/// `InputLayout` carries the pipeline state it was created with; `pipeline` beside one, or
/// under D3D10/D3D11, is a `LayoutError`.
fn resolve_draw_layout(
    py: Python<'_>,
    layout: &Bound<'_, PyAny>,
    api: &str,
    feature_level: Option<&str>,
    pipeline: Option<&Bound<'_, PyDict>>,
    topology: Topology,
) -> PyResult<(ResolvedLayout, Target)> {
    let Some(pipeline) = pipeline else {
        if layout.cast::<InputLayout>().is_ok() {
            return resolve_layout(py, layout, api, feature_level);
        }
        let elements = elements_of(py, layout)?;
        let target = target_of(api, feature_level)?;
        return create_for_draw(py, &target, &elements, None, topology);
    };
    if layout.cast::<InputLayout>().is_ok() {
        return Err(layout_error(
            "pipeline: an InputLayout carries the pipeline state it was created with \
             (create_input_layout(..., pipeline=...)); pass pipeline with an element list"
                .to_string(),
        ));
    }
    let elements = elements_of(py, layout)?;
    let target = target_of(api, feature_level)?;
    if !target.api.is_d3d12() {
        return Err(crate::create::non_d3d12_pipeline(target.api));
    }
    create_for_draw(py, &target, &elements, Some(pipeline), topology)
}

/// `CreateInputLayout` without a shader for a draw of `topology`, D3D12 pipeline state from
/// `pipeline` (the topology type defaulting to the draw's).
fn create_for_draw(
    py: Python<'_>,
    target: &Target,
    elements: &[inlay::element::InputElementDesc],
    pipeline: Option<&Bound<'_, PyDict>>,
    topology: Topology,
) -> PyResult<(ResolvedLayout, Target)> {
    let defaults = inlay::PipelineDesc {
        primitive_topology_type: topology.topology_type().d3d12_value(),
        ..Default::default()
    };
    let p = crate::create::pipeline_of(pipeline, defaults)?;
    let creation = inlay::CreateInputLayout::new(target, elements)
        .pipeline(p)
        .without_shader();
    match creation.layout {
        Some(l) => Ok((l, *target)),
        None => Err(errors::create_error(py, &creation)),
    }
}

/// `index_format`: `R16_UINT` or `R32_UINT` (any case, `DXGI_FORMAT_` prefix allowed; the
/// library's `IndexFormat` parser).
fn index_format_of(s: &str) -> PyResult<IndexFormat> {
    s.parse::<IndexFormat>()
        .map_err(|e| layout_error(format!("index_format: {e}")))
}

/// The `draw` dict (the conformance schema's `call` keys) as a draw call: the library's
/// [`DrawSpec::from_keys`], missing counts taken from the buffers as `inlay decode` does,
/// missing starts 0. Python ints are handed over as their decimal text; the indirect forms'
/// `args` is a dict `{"data": bytes or hex, "offset": N}` read here.
fn parse_draw(
    py: Python<'_>,
    draw: Option<&Bound<'_, PyDict>>,
    has_ib: bool,
    d: &DrawDefaults,
) -> PyResult<DrawSpec> {
    let kind: String = match draw.and_then(|d| d.get_item("kind").ok().flatten()) {
        Some(k) => k
            .extract::<String>()
            .map_err(|_| layout_error("draw: `kind` must be a string"))?,
        None => if has_ib { "draw_indexed" } else { "draw" }.to_string(),
    };
    let mut keys: Vec<(String, String)> = Vec::new();
    let mut args = None;
    if let Some(dict) = draw {
        for (k, v) in dict.iter() {
            let k: String = k
                .extract()
                .map_err(|_| layout_error("draw: keys must be strings"))?;
            match k.as_str() {
                "kind" => {}
                // The schema nests an indirect draw's offset in `args`.
                "offset" if is_indirect(&kind.trim().to_ascii_lowercase()) => {
                    return Err(layout_error(format!(
                        "draw {}: unknown key `offset` (expected args)",
                        kind.trim().to_ascii_lowercase()
                    )));
                }
                "args" => args = Some(v),
                _ => keys.push((k, number_text(&v)?)),
            }
        }
    }
    let kind_name = kind.trim().to_ascii_lowercase();
    let args = match args {
        Some(a) if is_indirect(&kind_name) => {
            let (data, offset) = indirect_args(py, &kind_name, &a)?;
            keys.push(("offset".to_string(), offset.to_string()));
            Some(data)
        }
        // A direct draw does not take `args`: the library says so.
        Some(_) => Some(Vec::new()),
        None => None,
    };
    DrawSpec::from_keys(
        &kind,
        keys.iter().map(|(k, v)| (k.as_str(), v.as_str())),
        args,
        d,
    )
    .map_err(|e| layout_error(e.message_for(&PythonDraw)))
}

/// How the Python package gives a draw's values (`draw={"kind": …, key: N}`), for the
/// library's messages ([`inlay::assembler::DrawSpecError::message_for`]).
struct PythonDraw;

impl DrawSyntax for PythonDraw {
    fn option(&self) -> &str {
        "draw"
    }
    fn give(&self, kind: &str, key: &str) -> String {
        format!("draw={{\"kind\": \"{kind}\", \"{key}\": N}}")
    }
    fn give_args(&self, _kind: &str) -> String {
        "\"args\": {\"data\": bytes, \"offset\": N}".to_string()
    }
    fn index_buffer(&self) -> &str {
        "index_buffer=…"
    }
    fn slot0(&self) -> &str {
        ""
    }
}

/// A draw value as the text the library reads: an int as its decimal digits; anything else
/// (a float, a str, None) as its `repr`, which is no number, so the library's message names it.
fn number_text(v: &Bound<'_, PyAny>) -> PyResult<String> {
    match v.extract::<i128>() {
        Ok(n) => Ok(n.to_string()),
        Err(_) => Ok(v.repr()?.to_string()),
    }
}

/// The `args` dict of an indirect draw: its bytes (bytes-like or hex text) and offset.
fn indirect_args(py: Python<'_>, kind: &str, args: &Bound<'_, PyAny>) -> PyResult<(Vec<u8>, u32)> {
    let args = args.cast::<PyDict>().map_err(|_| {
        layout_error(format!(
            "draw {kind}: `args` must be a dict {{\"data\", \"offset\"}}"
        ))
    })?;
    let mut data = None;
    let mut offset = 0u32;
    for (k, v) in args.iter() {
        match k.extract::<String>().as_deref() {
            Ok("data") => {
                data = Some(if let Ok(hex) = v.extract::<String>() {
                    // The schema's hex (`inlay::text::records::parse_hex`), spaces allowed.
                    let digits: String = hex.split_whitespace().collect();
                    parse_hex(&digits).map_err(|e| {
                        layout_error(format!("draw {kind}: args data is not hex bytes: {e}"))
                    })?
                } else {
                    crate::create::bytes_of(py, &v)?
                })
            }
            Ok("offset") => {
                offset = v.extract().map_err(|_| {
                    layout_error(format!(
                        "draw {kind}: args offset `{v}` is not a number from 0 to 4294967295"
                    ))
                })?
            }
            _ => {
                return Err(layout_error(format!(
                    "draw {kind}: unknown args key `{k}` (expected data, offset)"
                )));
            }
        }
    }
    let data = data.ok_or_else(|| layout_error(format!("draw {kind}: args needs data")))?;
    Ok((data, offset))
}

/// Whether `kind` (lower case) names an indirect draw kind of the library's table.
fn is_indirect(kind: &str) -> bool {
    DrawKind::from_name(kind).is_some_and(|k| matches!(k.info().form, DrawForm::Indirect { .. }))
}

/// Register lanes an element's output row holds: x up to the format's last lane.
fn width_of(info: &FormatInfo) -> usize {
    (8 - info.lane_mask().leading_zeros()) as usize
}

/// The output array's element name: semantic, with the index appended when it is not 0.
pub(crate) fn element_name(name: &str, index: u32) -> String {
    if index == 0 {
        name.to_string()
    } else {
        format!("{name}{index}")
    }
}

/// Fills the outputs from the draw's walk with the GIL released.
struct Job<'a> {
    plan: FetchPlan<'a>,
    walker: inlay::assembler::Walker<'a>,
    start_instance: u32,
    total: usize,
    widths: Vec<usize>,
}

/// Fewest vertex rows a decode thread is given: below it, starting a thread costs more than
/// the rows it would decode.
const MIN_ROWS_PER_THREAD: usize = 1 << 15;

impl Job<'_> {
    /// Fills every row, split over up to `threads` threads (scoped, no pool). Each thread
    /// takes a contiguous share of the rows (a multiple of [`BLOCK`]) and its own walker moved
    /// to the share's first row with [`inlay::assembler::Walker::skip_to_position`] (rows are
    /// vertex-stream positions: cut indices give none), so the outputs are the same rows a
    /// single walk writes, whatever the thread count.
    fn run(
        self,
        outs: &mut [&mut [u32]],
        vid: Option<&mut [u32]>,
        iid: Option<&mut [u32]>,
        threads: usize,
    ) {
        let threads = threads.clamp(1, (self.total / MIN_ROWS_PER_THREAD).max(1));
        if threads == 1 {
            let mut walker = self.walker.clone();
            self.run_rows(&mut walker, outs, vid, iid, self.total);
            return;
        }
        let share = self.total.div_ceil(threads).next_multiple_of(BLOCK);
        let this = &self;
        std::thread::scope(|s| {
            let mut outs: Vec<&mut [u32]> = outs.iter_mut().map(|o| &mut **o).collect();
            let (mut vid, mut iid) = (vid, iid);
            let mut start = 0;
            while start < this.total {
                let rows = share.min(this.total - start);
                let mut mine = Vec::with_capacity(outs.len());
                let mut rest = Vec::with_capacity(outs.len());
                for (o, &w) in outs.into_iter().zip(&this.widths) {
                    let (a, b) = o.split_at_mut(rows * w);
                    mine.push(a);
                    rest.push(b);
                }
                outs = rest;
                let (v_mine, v_rest) = split_rows(vid, rows);
                let (i_mine, i_rest) = split_rows(iid, rows);
                (vid, iid) = (v_rest, i_rest);
                let mut walker = this.walker.clone();
                s.spawn(move || {
                    walker.skip_to_position(start as u64);
                    this.run_rows(&mut walker, &mut mine, v_mine, i_mine, rows);
                });
                start += rows;
            }
        });
    }

    /// Fills the first `total` rows of `outs` (and of the ID arrays) from `walker`.
    fn run_rows(
        &self,
        walker: &mut inlay::assembler::Walker<'_>,
        outs: &mut [&mut [u32]],
        vid: Option<&mut [u32]>,
        iid: Option<&mut [u32]>,
        total: usize,
    ) {
        let mut indices = vec![0u32; BLOCK];
        let (mut vid, mut iid) = (vid, iid);
        let mut n = 0;
        while n < total {
            let Some(batch) = walker.next_batch(BLOCK.min(total - n), &mut indices) else {
                break;
            };
            let k = batch.len().min(total - n);
            if k == 0 {
                continue;
            }
            let instance = Instance {
                id: batch.instance_id(),
                start: self.start_instance,
            };
            let vertices = match batch {
                WalkBatch::Range {
                    instance_id,
                    first_vertex_id,
                    first_vertex_index,
                    ..
                } => {
                    if let Some(v) = vid.as_deref_mut() {
                        for (j, x) in v[n..n + k].iter_mut().enumerate() {
                            *x = first_vertex_id.wrapping_add(j as u32);
                        }
                    }
                    if let Some(v) = iid.as_deref_mut() {
                        v[n..n + k].fill(instance_id);
                    }
                    Vertices::Range {
                        first: first_vertex_index,
                        count: k as u32,
                    }
                }
                WalkBatch::Indexed {
                    instance_id,
                    base_vertex,
                    ..
                } => {
                    if let Some(v) = vid.as_deref_mut() {
                        v[n..n + k].copy_from_slice(&indices[..k]);
                    }
                    if let Some(v) = iid.as_deref_mut() {
                        v[n..n + k].fill(instance_id);
                    }
                    Vertices::Indexed {
                        indices: &indices[..k],
                        base_vertex,
                    }
                }
            };
            let mut rows: Vec<ElementRows<'_>> = outs
                .iter_mut()
                .zip(&self.widths)
                .map(|(out, &lanes)| ElementRows {
                    lanes,
                    data: &mut out[n * lanes..(n + k) * lanes],
                })
                .collect();
            // Every array holds `k` rows of its width (1 to 4) and there is one per element:
            // cannot fail.
            let _ = self.plan.fetch_element_rows(vertices, instance, &mut rows);
            n += k;
        }
    }
}

/// Splits an optional ID array after `rows` rows.
fn split_rows(ids: Option<&mut [u32]>, rows: usize) -> (Option<&mut [u32]>, Option<&mut [u32]>) {
    match ids {
        Some(v) => {
            let (a, b) = v.split_at_mut(rows);
            (Some(a), Some(b))
        }
        None => (None, None),
    }
}

/// Vertex rows of the draw's stream: every step, less the cut indices (counted over one
/// instance: every instance reads the same indices).
fn stream_rows(params: &inlay::assembler::DrawParams, ib: Option<&IndexBufferBinding<'_>>) -> u64 {
    let per_instance = match ib.filter(|_| params.indexed) {
        // The draw's cut rule: D3D10/11 the format's all-ones value, D3D12 the pipeline's
        // strip cut in strips only (d3d12-rules.md P19).
        Some(ib) => match params.cut.value(ib.format) {
            Some(cut) => {
                let cuts = (0..params.count)
                    .filter(|&k| read_index(Some(ib), params.start.wrapping_add(k)) == cut)
                    .count() as u64;
                params.count as u64 - cuts
            }
            None => params.count as u64,
        },
        None => params.count as u64,
    };
    per_instance * params.instance_count as u64
}

/// Decodes a draw into numpy arrays; see `inlay.decode` in `python/inlay/__init__.py`.
#[pyfunction]
#[pyo3(signature = (layout, vertex_buffers, index_buffer=None, index_format="R16_UINT",
    topology="triangle_list", draw=None, strides=None, offsets=None, index_offset=0,
    api="d3d11", feature_level=None, primitives=true, system_values=true, out=None,
    threads=None, pipeline=None))]
#[allow(clippy::too_many_arguments)]
pub fn decode<'py>(
    py: Python<'py>,
    layout: &Bound<'py, PyAny>,
    vertex_buffers: &Bound<'py, PyAny>,
    index_buffer: Option<&Bound<'py, PyAny>>,
    index_format: &str,
    topology: &str,
    draw: Option<&Bound<'py, PyDict>>,
    strides: Option<&Bound<'py, PyAny>>,
    offsets: Option<&Bound<'py, PyAny>>,
    index_offset: u32,
    api: &str,
    feature_level: Option<&str>,
    primitives: bool,
    system_values: bool,
    out: Option<&Bound<'py, PyDict>>,
    threads: Option<usize>,
    pipeline: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let np = py.import("numpy")?;
    let reuse = out;
    // Threads for the element decode: every core unless told (a share is never below
    // MIN_ROWS_PER_THREAD rows, so small draws stay on one thread).
    let threads = match threads {
        Some(0) => {
            return Err(draw_error(
                "threads: 0 threads cannot decode; pass 1 or more, or None for every core"
                    .to_string(),
            ));
        }
        Some(t) => t,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let topology: Topology =
        topology
            .parse()
            .map_err(|e: inlay::assembler::ParseTopologyError| {
                layout_error(format!("topology: {e}"))
            })?;
    let (layout, target) = resolve_draw_layout(py, layout, api, feature_level, pipeline, topology)?;
    let strides = slot_numbers(strides, "strides")?;
    let bind_offsets = slot_numbers(offsets, "offsets")?;

    // Zero-copy views of the buffers, alive until the end of the call.
    let vb_items = if vertex_buffers.is_instance_of::<PyDict>()
        || vertex_buffers.is_instance_of::<PyList>()
        || vertex_buffers.is_instance_of::<PyTuple>()
    {
        slot_items(vertex_buffers, "vertex_buffers")?
    } else {
        vec![(0, vertex_buffers.clone())]
    };
    let mut views = Vec::with_capacity(vb_items.len());
    for (slot, obj) in &vb_items {
        if *slot as usize >= MAX_SLOTS {
            return Err(draw_error(format!(
                "vertex_buffers[{slot}]: vertex buffer slot {slot} does not exist: the target has {} slots (ia-semantics §7, §9)",
                target.max_input_slots()
            )));
        }
        views.push((
            *slot,
            byte_view(&np, obj, &format!("vertex_buffers[{slot}]"))?,
        ));
    }
    let ib_view = match index_buffer.filter(|o| !o.is_none()) {
        Some(o) => Some(byte_view(&np, o, "index_buffer")?),
        None => None,
    };
    let ib_format = index_format_of(index_format)?;

    let mut ia = InputAssembler::new(&layout, target);
    let mut bindings: [Option<VertexBufferBinding<'_>>; MAX_SLOTS] = [None; MAX_SLOTS];
    let mut vertex_count: Option<u32> = None;
    let mut filled_size = None;
    for (slot, view) in &views {
        let data = view.as_slice()?;
        let s = layout.slot(*slot);
        let min_stride = s.map_or(0, |s| s.min_stride);
        let stride = strides.get(*slot).unwrap_or(min_stride);
        let offset = bind_offsets.get(*slot).unwrap_or(0);
        let binding = VertexBufferBinding {
            data,
            stride,
            offset,
        };
        ia.set_vertex_buffer(*slot, Some(binding))
            .map_err(|e| draw_error(format!("vertex_buffers[{slot}]: {e}")))?;
        bindings[*slot as usize] = Some(binding);
        if let Some(s) = s.filter(|s| s.class == InputClass::PerVertex && stride > 0) {
            let avail = (data.len() as u64).saturating_sub(offset as u64);
            let n = if avail >= s.min_stride as u64 {
                (avail - s.min_stride as u64) / stride as u64 + 1
            } else {
                0
            };
            let n = u32::try_from(n).unwrap_or(u32::MAX);
            vertex_count = Some(vertex_count.map_or(n, |c| c.min(n)));
        }
        if *slot == 0 {
            filled_size = Some(u32::try_from(data.len()).unwrap_or(u32::MAX));
        }
    }
    let mut index_count = None;
    if let Some(view) = &ib_view {
        let data = view.as_slice()?;
        ia.set_index_buffer(Some(IndexBufferBinding {
            data,
            format: ib_format,
            offset: index_offset,
        }))
        .map_err(|e| draw_error(format!("index_buffer: {e}")))?;
        let avail = (data.len() as u64).saturating_sub(index_offset as u64);
        index_count = Some(u32::try_from(avail / ib_format.size() as u64).unwrap_or(u32::MAX));
    }
    ia.set_topology(topology)
        .map_err(|e| draw_error(format!("topology: {e}")))?;
    let spec = parse_draw(
        py,
        draw,
        ib_view.is_some(),
        &DrawDefaults {
            vertex_count,
            index_count,
            filled_size,
        },
    )?;
    let call = spec.call();
    let prepared = ia.draw(&call).map_err(|e| {
        let msg = e.to_string();
        if msg.starts_with(call.name()) {
            draw_error(msg)
        } else {
            draw_error(format!("{}: {msg}", call.name()))
        }
    })?;
    let plan = FetchPlan::new(&layout, &bindings).map_err(|e| draw_error(e.to_string()))?;

    let params = *prepared.params();
    let ib_binding = prepared.index_buffer().copied();
    let rows = py.detach(|| stream_rows(&params, ib_binding.as_ref()));
    let total = usize::try_from(rows)
        .ok()
        .filter(|&r| r <= isize::MAX as usize / 64)
        .ok_or_else(|| {
            draw_error(format!(
                "{}: the draw's vertex stream has {rows} vertices, more than inlay can hold in memory",
                call.name()
            ))
        })?;

    // Outputs, allocated once by numpy (a failed allocation is numpy's MemoryError), or the
    // caller's arrays from an earlier decode when they fit.
    let out = PyDict::new(py);
    let mut arrays = Vec::with_capacity(layout.elements().len());
    let mut widths = Vec::with_capacity(layout.elements().len());
    for e in layout.elements() {
        let info = e
            .format
            .info()
            .ok_or_else(|| draw_error(format!("{} is not a DXGI format", e.format)))?;
        let w = width_of(info);
        let kind = info.first_kind();
        let dtype = match kind {
            Some(Kind::Uint) => "uint32",
            Some(Kind::Sint) => "int32",
            _ => "float32",
        };
        let name = element_name(&e.semantic_name, e.semantic_index);
        let a = match reusable(&np, reuse, &name, &[total, w], dtype)? {
            Some(pair) => pair,
            None => {
                let a = np
                    .call_method1("empty", ((total, w), np.getattr("uint32")?))?
                    .cast_into::<PyArray2<u32>>()?;
                let shown = if dtype == "uint32" {
                    a.clone().into_any()
                } else {
                    a.call_method1("view", (np.getattr(dtype)?,))?
                };
                (a.into_any(), shown)
            }
        };
        arrays.push((name, a));
        widths.push(w);
    }
    let ids = if system_values {
        let mk = |key: &str| -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
            if let Some(pair) = reusable(&np, reuse, key, &[total], "uint32")? {
                return Ok(pair);
            }
            let a = np.call_method1("empty", (total, np.getattr("uint32")?))?;
            Ok((a.clone(), a))
        };
        Some((mk("SV_VertexID")?, mk("SV_InstanceID")?))
    } else {
        None
    };
    {
        let typed2 = arrays
            .iter()
            .map(|(_, (a, _))| a.cast::<PyArray2<u32>>().cloned())
            .collect::<Result<Vec<_>, _>>()?;
        let mut borrows = typed2
            .iter()
            .map(|a| a.try_readwrite())
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| layout_error(format!("out: {e}")))?;
        let mut outs: Vec<&mut [u32]> = Vec::with_capacity(borrows.len());
        for b in borrows.iter_mut() {
            outs.push(b.as_slice_mut()?);
        }
        let typed1 = match &ids {
            Some(((v, _), (i, _))) => Some((
                v.cast::<PyArray1<u32>>()?.clone(),
                i.cast::<PyArray1<u32>>()?.clone(),
            )),
            None => None,
        };
        let mut id_borrows = match &typed1 {
            Some((v, i)) => Some((
                v.try_readwrite()
                    .map_err(|e| layout_error(format!("out: {e}")))?,
                i.try_readwrite()
                    .map_err(|e| layout_error(format!("out: {e}")))?,
            )),
            None => None,
        };
        let (vid, iid) = match id_borrows.as_mut() {
            Some((v, i)) => (Some(v.as_slice_mut()?), Some(i.as_slice_mut()?)),
            None => (None, None),
        };
        // The store mode of one library call over the whole draw (the walk's runs are
        // fetched in calls of at most BLOCK rows): non-temporal stores from
        // STREAM_THRESHOLD_BYTES of output on.
        let out_bytes = widths.iter().sum::<usize>().saturating_mul(total * 4);
        let plan = if out_bytes >= STREAM_THRESHOLD_BYTES {
            plan.with_store_mode(StoreMode::Streaming)
        } else {
            plan
        };
        let job = Job {
            plan,
            walker: prepared.walk(),
            start_instance: params.start_instance,
            total,
            widths: widths.clone(),
        };
        py.detach(|| job.run(&mut outs, vid, iid, threads));
    }
    for (name, (_, shown)) in arrays {
        out.set_item(name, shown)?;
    }
    if let Some(((_, v), (_, i))) = ids {
        set_reserved(&out, "SV_VertexID", v)?;
        set_reserved(&out, "SV_InstanceID", i)?;
    }
    if primitives {
        let k = topology.vertices_per_primitive();
        if total as u64 > u32::MAX as u64 {
            return Err(draw_error(format!(
                "{}: the vertex stream has {total} vertices; primitives list positions as uint32 \
                 (pass primitives=False)",
                call.name()
            )));
        }
        // A list topology over a stream without cuts (the draw's every step is a vertex) is
        // primitive k = positions k·n … k·n+n−1 of each instance (its steps are consecutive
        // stream positions; the primitive ID restarts per instance), which the table's rows
        // state; it is written straight away. Every other draw takes the assembler's
        // primitives in one pass.
        let list = matches!(
            topology,
            Topology::PointList
                | Topology::LineList
                | Topology::TriangleList
                | Topology::LineListAdj
                | Topology::TriangleListAdj
                | Topology::PatchList(_)
        );
        let (flat, id_list) = if list && k > 0 && total as u64 == params.steps() {
            let per = params.count as usize / k;
            let instances = params.instance_count as usize;
            py.detach(|| {
                let mut flat = Vec::with_capacity(per * k * instances);
                let mut id_list = Vec::with_capacity(per * instances);
                for j in 0..instances {
                    let base = j * params.count as usize;
                    flat.extend((0..per * k).map(|q| (base + q) as u32));
                    id_list.extend(0..per as u32);
                }
                (flat, id_list)
            })
        } else {
            py.detach(|| {
                let (mut flat, mut id_list) = (Vec::new(), Vec::new());
                for p in prepared.primitives() {
                    flat.extend(p.vertices().iter().map(|&s| s as u32));
                    id_list.push(p.id);
                }
                (flat, id_list)
            })
        };
        let count = id_list.len();
        let prims = PyArray1::from_vec(py, flat).reshape([count, k])?;
        let ids = PyArray1::from_vec(py, id_list);
        set_reserved(&out, "primitives", prims.into_any())?;
        set_reserved(&out, "SV_PrimitiveID", ids.into_any())?;
    }
    Ok(out)
}

/// The array `key` of a previous result `reuse`, when it has this shape and dtype, is
/// C-contiguous and writeable: `(its uint32 view, the array itself)`.
fn reusable<'py>(
    np: &Bound<'py, PyModule>,
    reuse: Option<&Bound<'py, PyDict>>,
    key: &str,
    shape: &[usize],
    dtype: &str,
) -> PyResult<Option<(Bound<'py, PyAny>, Bound<'py, PyAny>)>> {
    let Some(a) = reuse.map(|d| d.get_item(key)).transpose()?.flatten() else {
        return Ok(None);
    };
    let Ok(arr) = a.cast::<numpy::PyUntypedArray>() else {
        return Ok(None);
    };
    let same_dtype: bool = arr
        .getattr("dtype")?
        .eq(np.getattr("dtype")?.call1((dtype,))?)?;
    if !same_dtype || arr.shape() != shape || !arr.is_c_contiguous() {
        return Ok(None);
    }
    if !arr
        .getattr("flags")?
        .getattr("writeable")?
        .extract::<bool>()?
    {
        return Ok(None);
    }
    let view = a.call_method1("view", (np.getattr("uint32")?,))?;
    Ok(Some((view, a)))
}

/// Adds a system-value array unless an element of that name is already there (the element
/// wins: it is data the caller asked for by name).
fn set_reserved(out: &Bound<'_, PyDict>, key: &str, v: Bound<'_, PyAny>) -> PyResult<()> {
    if !out.contains(key)? {
        out.set_item(key, v)?;
    }
    Ok(())
}

/// W1's or W2's elements (the `inlay bench` workloads) and vertex stride.
fn workload(name: &str) -> PyResult<(Vec<inlay::element::InputElementDesc>, u32)> {
    match name {
        "W1" => Ok((inlay_bench::fetch::w1_elements(), 48)),
        "W2" => Ok((inlay_bench::fetch::w2_elements(), 28)),
        _ => Err(layout_error(format!(
            "unknown workload `{name}` (W1 or W2)"
        ))),
    }
}

/// The library's own per-element decode of an `inlay bench` workload, timed: `repeats`
/// runs of `FetchPlan::fetch_elements` over every vertex of `data` into 16-byte rows per
/// element (`lanes=True`: of `FetchPlan::fetch_element_rows` into rows of each element's
/// width, the numpy arrays' shape); returns the seconds of each run. `fresh=False`: into
/// buffers allocated once and touched by an untimed first pass (a program that keeps its
/// buffers); `fresh=True`: into
/// buffers allocated inside each timed run (their pages are mapped as the decode first
/// writes them, as a new numpy array's are). The benchmark script measures `inlay.decode`
/// beside it in the same process.
#[pyfunction]
#[pyo3(signature = (workload_name, data, repeats, fresh=false, lanes=false))]
pub fn library_decode_seconds(
    py: Python<'_>,
    workload_name: &str,
    data: &Bound<'_, PyAny>,
    repeats: usize,
    fresh: bool,
    lanes: bool,
) -> PyResult<Vec<f64>> {
    let np = py.import("numpy")?;
    let (elements, stride) = workload(workload_name)?;
    let layout = inlay_bench::fetch::layout(&elements);
    let view = byte_view(&np, data, "data")?;
    let bytes = view.as_slice()?;
    let n = bytes.len() / stride as usize;
    let bindings = [Some(VertexBufferBinding {
        data: bytes,
        stride,
        offset: 0,
    })];
    let plan = FetchPlan::new(&layout, &bindings).map_err(|e| layout_error(e.to_string()))?;
    let widths = layout
        .elements()
        .iter()
        .map(|e| {
            if !lanes {
                return 4;
            }
            e.format.info().map_or(4, width_of)
        })
        .collect::<Vec<_>>();
    let alloc = || -> Vec<Vec<u32>> { widths.iter().map(|&w| vec![0; n * w]).collect() };
    let vertices = Vertices::Range {
        first: 0,
        count: n as u32,
    };
    let run = |outs: &mut Vec<Vec<u32>>| {
        if lanes {
            let mut rows: Vec<ElementRows<'_>> = outs
                .iter_mut()
                .zip(&widths)
                .map(|(o, &lanes)| ElementRows { lanes, data: o })
                .collect();
            let _ = plan.fetch_element_rows(vertices, Instance::default(), &mut rows);
        } else {
            let mut rows: Vec<&mut [[u32; 4]]> = outs
                .iter_mut()
                .map(|o| bytemuck::try_cast_slice_mut(&mut o[..]).unwrap_or_default())
                .collect();
            let _ = plan.fetch_elements(vertices, Instance::default(), &mut rows);
        }
    };
    Ok(py.detach(|| {
        let mut kept = alloc();
        run(&mut kept);
        (0..repeats)
            .map(|_| {
                let t = Instant::now();
                if fresh {
                    let mut outs = alloc();
                    run(&mut outs);
                    let e = t.elapsed().as_secs_f64();
                    drop(outs);
                    e
                } else {
                    run(&mut kept);
                    t.elapsed().as_secs_f64()
                }
            })
            .collect()
    }))
}

/// An `inlay bench` workload: `(elements, stride, data)` with the ELEMENT dicts of its
/// layout and `vertices` vertices of its deterministic data.
#[pyfunction]
pub fn bench_workload<'py>(
    py: Python<'py>,
    name: &str,
    vertices: u32,
) -> PyResult<(Bound<'py, PyList>, u32, Bound<'py, pyo3::types::PyBytes>)> {
    let (elements, stride) = workload(name)?;
    let layout = inlay_bench::fetch::layout(&elements);
    let items = elements
        .iter()
        .map(|e| crate::layout::element_dict(py, e))
        .collect::<PyResult<Vec<_>>>()?;
    let data = inlay_bench::fetch::make_data(&layout, 0, stride, vertices, 1);
    Ok((
        PyList::new(py, items)?,
        stride,
        pyo3::types::PyBytes::new(py, &data),
    ))
}
