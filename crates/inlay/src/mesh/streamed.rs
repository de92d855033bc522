//! The streaming glTF export ([`super::gltf::export_glb`]): the file [`Mesh::build`] and
//! [`super::gltf::write_glb`] would write, byte for byte, without building the mesh.
//!
//! Two passes over the draw, both in blocks that are reused (no memory proportional to the
//! mesh). Before them, the element-number range and the primitives' index bounds: a list's
//! from the draw-time validation's scan of the indices (or the draw's range), other
//! topologies' from a walk of instance 0. The first pass only reads — each block of vertices
//! fetched as wide as the statistics read it (a float kept as it is: its written lanes, which
//! a 32-bit float format copies straight from the records) feeds every attribute's
//! `Stats` — after which the document and the BIN layout are fixed; the
//! second fetches each block once more and writes every accessor's part of it at its known
//! offset (a part that copies float lanes is the fetched rows themselves, made finite in
//! place), then the indices (32-bit list indices that need no change straight from the index
//! buffer). With [`StreamOptions::threads`] > 1 (feature `parallel`) the first pass is split
//! into runs of blocks whose statistics merge in order, and the second pass's blocks are
//! prepared by worker threads while the calling thread writes: the bytes do not depend on
//! the thread count. Draws this cannot describe — text-dump slots, instances expanded or as
//! attributes, element numbers too spread out for a range, no instances — are built and
//! written the materialised way.

use std::io::{self, Seek, SeekFrom, Write};

use super::gltf::{self, IndexInfo};
use super::{
    InputSlot, Instances, Mesh, MeshError, MeshInput, MeshOptions, Mode, SlotInfo, SlotSource,
};
use crate::assembler::validate::IndexSpan;
use crate::assembler::walk::WalkBatch;
use crate::assembler::{InputAssembler, PreparedDraw, PrimitiveAssembler, Topology, WalkStep};
use crate::buffer::{IndexFormat, VertexBufferBinding};
use crate::fetch::{ElementRows, FetchPlan, Instance, Vertices};
use crate::layout::InputClass;

/// Positions of a strip's walk kept for its primitives (a primitive never reaches further
/// back; a walk that would is exported the materialised way).
const WINDOW: usize = 64;

/// The walk of instance 0 found in the first pass.
#[derive(Clone, Copy, Debug)]
struct Scan {
    /// A list without cuts: its primitives are its first `whole` positions.
    list: bool,
    positions: u64,
    lo: u32,
    hi: u32,
    prims: u64,
    pmin: u32,
    pmax: u32,
}

/// Instance 0's walk, `block` positions at a time: `positions` sees every position's element
/// number, `prims` every primitive vertex's, in order. A list walk (`list`) gives up (`None`)
/// at a cut; a step walk gives up when a primitive reaches behind its window.
#[allow(clippy::too_many_arguments)]
pub(super) fn walk(
    draw: &PreparedDraw<'_>,
    topology: Topology,
    mode: Mode,
    pick: &[usize],
    list: bool,
    block: usize,
    positions: &mut dyn FnMut(&[u32]),
    prims: &mut dyn FnMut(&[u32]),
) -> Option<()> {
    let count = draw.params().count as u64;
    let per = mode.vertices() as u64;
    let mut buf = vec![0u32; block.max(WINDOW)];
    if list {
        let whole = count - count % per;
        let mut walker = draw.walk();
        let mut at = 0u64;
        while let Some(batch) = walker.next_batch(buf.len(), &mut buf) {
            if batch.instance_id() != 0 {
                break;
            }
            let n = match batch {
                WalkBatch::Range {
                    first_vertex_index,
                    count,
                    ..
                } => {
                    for (k, e) in buf[..count].iter_mut().enumerate() {
                        *e = first_vertex_index.wrapping_add(k as u32);
                    }
                    count
                }
                WalkBatch::Indexed {
                    base_vertex,
                    count,
                    cuts,
                    ..
                } => {
                    if cuts > 0 {
                        return None;
                    }
                    let base = base_vertex as u32;
                    if base != 0 {
                        buf[..count]
                            .iter_mut()
                            .for_each(|e| *e = e.wrapping_add(base));
                    }
                    count
                }
            };
            positions(&buf[..n]);
            let take = (whole.saturating_sub(at)).min(n as u64) as usize;
            if take > 0 {
                prims(&buf[..take]);
            }
            at += n as u64;
        }
        return Some(());
    }
    // Step by step through the primitive assembler, as `step_walk` does, keeping the last
    // positions only.
    let mut window: Vec<u32> = Vec::with_capacity(2 * WINDOW + block);
    let mut window_start = 0u64;
    let mut pos_out: Vec<u32> = Vec::with_capacity(block);
    let mut prim_out: Vec<u32> = Vec::with_capacity(block + 32);
    let mut pa = PrimitiveAssembler::new(topology);
    let emit = |p: crate::assembler::Primitive,
                window: &[u32],
                window_start: u64,
                prim_out: &mut Vec<u32>|
     -> Option<()> {
        let v = p.vertices();
        let at = |q: u64| -> Option<u32> {
            window
                .get(usize::try_from(q.checked_sub(window_start)?).ok()?)
                .copied()
        };
        if pick.is_empty() {
            let keep = if mode == Mode::Points {
                v.len()
            } else {
                mode.vertices()
            };
            for &q in v.iter().take(keep) {
                prim_out.push(at(q)?);
            }
        } else {
            for &k in pick {
                prim_out.push(at(*v.get(k)?)?);
            }
        }
        Some(())
    };
    for step in draw.walk() {
        if step.instance_id() != 0 {
            break;
        }
        if let WalkStep::Vertex { vertex_index, .. } = step {
            window.push(vertex_index);
            pos_out.push(vertex_index);
            if pos_out.len() >= block {
                positions(&pos_out);
                pos_out.clear();
            }
        }
        for p in pa.step(&step).into_iter().flatten() {
            emit(p, &window, window_start, &mut prim_out)?;
        }
        if prim_out.len() >= block {
            prims(&prim_out);
            prim_out.clear();
        }
        if window.len() >= 2 * WINDOW + block {
            let drop = window.len() - WINDOW;
            window.drain(..drop);
            window_start += drop as u64;
        }
    }
    if let Some(p) = pa.finish() {
        emit(p, &window, window_start, &mut prim_out)?;
    }
    positions(&pos_out);
    prims(&prim_out);
    Some(())
}

/// The first pass's walk: bounds of the element numbers and of the primitives' vertices.
/// A list's are known without walking where the draw allows: a non-indexed one's are its
/// range, an indexed one's what the draw-time validation's scan of the indices found
/// (`span`), when it has no cuts and only whole primitives.
fn scan(
    draw: &PreparedDraw<'_>,
    topology: Topology,
    mode: Mode,
    pick: &[usize],
    block: usize,
    span: Option<IndexSpan>,
) -> Option<Scan> {
    let list = pick.is_empty()
        && matches!(
            topology,
            Topology::PointList | Topology::LineList | Topology::TriangleList
        );
    let p = draw.params();
    let count = p.count as u64;
    let whole = count - count % mode.vertices() as u64;
    let known = match (p.indexed, span) {
        _ if !list || count == 0 => None,
        (true, Some(s)) if s.cuts == 0 && whole == count => Some((s.min, s.max, s.min, s.max)),
        (false, _) if p.start as u64 + count <= 1 << 32 => {
            let last = |n: u64| p.start.wrapping_add(n.max(1) as u32 - 1);
            let (pmin, pmax) = if whole == 0 {
                (u32::MAX, 0)
            } else {
                (p.start, last(whole))
            };
            Some((p.start, last(count), pmin, pmax))
        }
        _ => None,
    };
    if let Some((lo, hi, pmin, pmax)) = known {
        return Some(Scan {
            list: true,
            positions: count,
            lo,
            hi,
            prims: whole,
            pmin,
            pmax,
        });
    }
    for list in [list, false] {
        let mut s = Scan {
            list,
            positions: 0,
            lo: u32::MAX,
            hi: 0,
            prims: 0,
            pmin: u32::MAX,
            pmax: 0,
        };
        let (mut lo, mut hi, mut n) = (u32::MAX, 0u32, 0u64);
        let (mut plo, mut phi, mut pn) = (u32::MAX, 0u32, 0u64);
        let done = walk(
            draw,
            topology,
            mode,
            pick,
            list,
            block,
            &mut |e| {
                n += e.len() as u64;
                for &x in e {
                    lo = lo.min(x);
                    hi = hi.max(x);
                }
            },
            &mut |e| {
                pn += e.len() as u64;
                for &x in e {
                    plo = plo.min(x);
                    phi = phi.max(x);
                }
            },
        );
        if done.is_some() {
            (s.lo, s.hi, s.positions) = (lo, hi, n);
            (s.pmin, s.pmax, s.prims) = (plo, phi, pn);
            return Some(s);
        }
        if !list {
            break;
        }
    }
    None
}

/// How the streaming export is run. The bytes written are the same whatever the options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StreamOptions {
    /// Vertices (and indices) per block: every buffer the export works in holds one block
    /// (0: about 1 MiB of fetched lanes, from the layout's element count).
    pub block_vertices: usize,
    /// Threads that work on the export, the calling thread included (0: the machine's
    /// available parallelism, at most [`StreamOptions::AUTO_THREADS`]). With 1 the calling thread fetches, converts and writes each
    /// block in turn; with `t` > 1 the first pass is split over `t` threads, and in the
    /// second `t` − 1 threads prepare blocks (two each, reused) while the calling thread
    /// writes them. Needs the `parallel` feature; without it the export runs on the calling
    /// thread alone.
    pub threads: usize,
}

impl StreamOptions {
    /// The most threads `threads: 0` takes: past the writing thread's speed more preparing
    /// threads only hold more blocks (two each).
    pub const AUTO_THREADS: usize = 16;

    /// The threads an export with these options uses.
    pub fn thread_count(&self) -> usize {
        if !cfg!(feature = "parallel") {
            return 1;
        }
        match self.threads {
            0 => std::thread::available_parallelism()
                .map_or(1, |n| n.get())
                .min(StreamOptions::AUTO_THREADS),
            t => t,
        }
    }
}

/// Why an export failed: the draw, or the writing.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The mesh cannot be made from the draw.
    #[error(transparent)]
    Mesh(#[from] MeshError),
    /// Writing failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// What an export wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exported {
    /// Primitive kind.
    pub mode: Mode,
    /// Mesh vertices.
    pub vertex_count: u32,
    /// Primitives.
    pub primitives: u64,
    /// Attributes written (per vertex and per instance).
    pub attributes: usize,
    /// Instances exported.
    pub instance_count: u32,
    /// What the builder doubted ([`Mesh::warnings`]).
    pub warnings: Vec<String>,
    /// Whether the draw was streamed (`false`: built as a [`Mesh`] first, see the module
    /// documentation for which draws).
    pub streamed: bool,
    /// Threads the export ran with, the calling thread included
    /// ([`StreamOptions::thread_count`]; a draw of fewer blocks uses fewer; 1 when not
    /// streamed).
    pub threads: usize,
}

impl Exported {
    /// The summary of a built mesh (written without streaming).
    pub fn of_mesh(mesh: &Mesh) -> Exported {
        Exported::of(mesh, false)
    }

    fn of(mesh: &Mesh, streamed: bool) -> Exported {
        Exported {
            mode: mesh.mode,
            vertex_count: mesh.vertex_count,
            primitives: (mesh.indices.len() / mesh.mode.vertices()) as u64,
            attributes: mesh.attributes.len() + mesh.instance_attributes.len(),
            instance_count: mesh.instance_count,
            warnings: mesh.warnings.clone(),
            streamed,
            threads: 1,
        }
    }
}

/// Where the streamed file goes: a GLB (head, then the BIN chunk) or a `.gltf` JSON file and
/// its `.bin`.
pub(super) enum Target<'o, W: Write + Seek> {
    /// A GLB file.
    Glb(&'o mut W),
    /// JSON to the first writer, the buffer to the second, named by the URI.
    Gltf(&'o mut dyn Write, &'o mut W, &'o str),
}

/// Exports `input` streamed where it can, else through [`Mesh::build`].
pub(super) fn export<W: Write + Seek>(
    input: &MeshInput<'_>,
    options: &MeshOptions,
    stream: &StreamOptions,
    target: Target<'_, W>,
) -> Result<Exported, ExportError> {
    let streamable = options.instances == Instances::First
        && input
            .slots
            .iter()
            .all(|s| matches!(s.data, SlotSource::Binary(_)));
    // Bound once, for whichever way the draw goes.
    let created = super::create_layout(input, options);
    let layout = super::created_layout(&created)?;
    let mut warnings = Vec::new();
    let (ia, span) = super::bind(input, layout, options, &mut warnings)?;
    let draw = ia
        .draw(&input.draw)
        .map_err(|e| MeshError::Draw(e.to_string()))?;
    let mut target = target;
    if streamable {
        let bound = Bound {
            ia: &ia,
            draw: &draw,
            span,
            warnings: &warnings,
        };
        if let Some(done) = try_stream(input, options, stream, &mut target, bound)? {
            return Ok(done);
        }
    }
    let mesh = Mesh::build_drawn(input, options, &ia, &draw, warnings)?;
    let written = match target {
        Target::Glb(out) => gltf::write_glb(&mesh, out)?,
        Target::Gltf(json, bin, uri) => gltf::write_gltf(&mesh, json, bin, uri)?,
    };
    let mut done = Exported::of(&mesh, false);
    done.warnings.extend(written);
    Ok(done)
}

/// The most bytes of register rows a draw's built mesh may need for it to be built in memory
/// rather than streamed (with [`StreamOptions::block_vertices`] 0): 8 MiB, so that a batch
/// export's jobs stay within its memory goal whatever the draws.
const IN_MEMORY_BYTES: u64 = 8 << 20;

/// A draw's input bound to its layout ([`super::bind`]): the input assembler, the draw, the
/// index span the draw-time validation found and the binding's warnings.
struct Bound<'b, 'l> {
    ia: &'b InputAssembler<'l>,
    draw: &'b PreparedDraw<'l>,
    span: Option<IndexSpan>,
    warnings: &'b [String],
}

/// The streamed export, or `None` (nothing written) for a draw it does not describe or that
/// is small enough to build in memory.
fn try_stream<W: Write + Seek>(
    input: &MeshInput<'_>,
    options: &MeshOptions,
    stream: &StreamOptions,
    target: &mut Target<'_, W>,
    bound: Bound<'_, '_>,
) -> Result<Option<Exported>, ExportError> {
    let Bound {
        ia,
        draw,
        span,
        warnings,
    } = bound;
    let layout = ia.layout();
    let elements = super::layout_elements(layout);
    let mut warnings = warnings.to_vec();
    let params = *draw.params();
    if params.count as u64 > super::MAX_POSITIONS {
        return Err(MeshError::TooLarge(format!(
            "the draw has {} vertices per instance; at most {} are exported",
            params.count,
            super::MAX_POSITIONS
        ))
        .into());
    }
    if params.instance_count == 0 {
        return Ok(None);
    }
    // A small draw (most of a frame's) is built in memory and written in one go: with the
    // default blocks its two passes, second index walk and per-part seeks cost more than the
    // few hundred kilobytes of values they save (one job over 1,000 draws of 0.4 MB: 0.56 s →
    // 0.41 s, the same bytes). An explicit block size always streams.
    // The most the built mesh can hold: its rows span at most 4 × count + 1024 element numbers
    // (past that it keeps a list of the ones used), 16 bytes per element per row.
    let built = (4 * params.count as u64 + 1024) * elements.len().max(1) as u64 * 16;
    if stream.block_vertices == 0 && built <= IN_MEMORY_BYTES {
        return Ok(None);
    }
    let block = match stream.block_vertices {
        0 => ((1usize << 20) / (16 * elements.len().max(1))).clamp(1024, 1 << 16),
        b => b,
    };
    let topology = input.topology;
    let (mode, pick) = super::mode_of(topology, options);
    let Some(scan) = scan(draw, topology, mode, pick, block, span) else {
        return Ok(None);
    };
    let (lo, hi) = (scan.lo, scan.hi);
    let n = if scan.positions == 0 {
        0
    } else if ((hi - lo) as u64) < 4 * scan.positions + 1024 {
        hi - lo + 1
    } else {
        return Ok(None);
    };
    let vertex_base = if n == 0 { 0 } else { lo };
    // The vertex blocks need not be longer than the draw's vertices: a small draw (most of a
    // frame's) then zeroes and touches its few kilobytes of rows, not a fresh 1 MiB twice.
    let block = block.min((n as usize).max(1));
    // Reads past the data are warnings, as the builder gives them.
    for s in &input.slots {
        let slot_elements: Vec<usize> = (0..elements.len())
            .filter(|&e| elements[e].slot == s.slot && elements[e].class == InputClass::PerVertex)
            .collect();
        if slot_elements.is_empty() {
            continue;
        }
        if let SlotSource::Binary(data) = s.data {
            let held = super::held_vertices(s, data, &slot_elements, elements);
            let end = vertex_base as u64 + n as u64;
            let first = (vertex_base as u64).max(held);
            if first < end {
                warnings.push(super::past_warning(s.file, end - first, held, first as u32));
            }
        }
    }
    let bindings: Vec<Option<VertexBufferBinding<'_>>> = (0..crate::assembler::MAX_SLOTS as u32)
        .map(|s| ia.vertex_buffer(s).copied())
        .collect();
    let plan = FetchPlan::new(layout, &bindings).map_err(|e| MeshError::Draw(e.to_string()))?;
    let (attributes, _) =
        super::attributes_of(input, elements, Instances::First, |_, _| Vec::new());
    // A per-instance element's lanes in a block: its one value repeated.
    let constants: Vec<Option<Vec<[u32; 4]>>> = elements
        .iter()
        .enumerate()
        .map(|(e, le)| {
            (le.class != InputClass::PerVertex).then(|| {
                let v = super::instance_value(&plan, elements, input, params.start_instance, e, 0);
                vec![v; block]
            })
        })
        .collect();
    let threads = stream.thread_count().max(1);
    let blocks = Blocks {
        plan: &plan,
        vertex_base,
        n,
        block,
    };
    // Pass 1: the statistics, each element fetched only as wide as they read it.
    let empty = gltf::plan_stats(&attributes);
    let lanes1 = widths(elements.len(), &constants, |e| {
        attributes
            .iter()
            .zip(&empty)
            .filter(move |(a, _)| a.element == e)
            .map(|(_, s)| s.row_lanes())
    });
    let stats = first_pass(&blocks, &attributes, &constants, &lanes1, &empty, threads)?;
    let header = Mesh {
        mode,
        topology,
        vertex_base,
        vertex_count: n,
        vertex_elements: None,
        indices: Vec::new(),
        stream: Vec::new(),
        vertex_id_base: super::vertex_id_base(&params),
        start_instance: params.start_instance,
        attributes,
        instance_attributes: Vec::new(),
        instance_count: 1,
        instances: Instances::First,
        layout: elements.to_vec(),
        descs: input.elements.to_vec(),
        slots: input
            .slots
            .iter()
            .map(|s: &InputSlot<'_>| SlotInfo {
                slot: s.slot,
                stride: s.stride,
                offset: s.offset,
            })
            .collect(),
        index_format: input.index.as_ref().map(|(ib, _)| ib.format),
        draw: super::draw_text(&input.draw),
        files: input.files.clone(),
        warnings,
    };
    let index = IndexInfo {
        count: scan.prims as usize,
        min: scan.pmin.wrapping_sub(lo),
        max: scan.pmax.wrapping_sub(lo),
    };
    let doc = gltf::document(&header, &stats, index);
    let summary = Exported {
        mode,
        vertex_count: n,
        primitives: scan.prims / mode.vertices() as u64,
        attributes: header.attributes.len(),
        instance_count: 1,
        warnings: header
            .warnings
            .iter()
            .chain(&doc.warnings)
            .cloned()
            .collect(),
        streamed: true,
        threads,
    };
    // Pass 2: the file.
    let mut doc = doc;
    let bin: &mut W = match target {
        Target::Glb(out) => {
            out.write_all(&gltf::glb_head(&doc)?)?;
            out
        }
        Target::Gltf(json, bin, uri) => {
            gltf::gltf_json(&mut doc, uri, &mut **json)?;
            bin
        }
    };
    let base = bin.stream_position()?;
    let parts: Vec<gltf::Part> = (0..doc.part_count()).map(|i| doc.part(i)).collect();
    // Each vertex part's source element (its attribute's), and how wide each element is
    // fetched: as wide as the parts that copy float lanes read it, when they all read the
    // same lanes (those parts are then the fetched rows themselves), else four lanes.
    let sources: Vec<Option<usize>> = parts
        .iter()
        .map(|p| {
            p.vertex
                .filter(|_| p.count > 0 && p.esize > 0)
                .map(|a| header.attributes[a].element)
        })
        .collect();
    let lanes2 = widths(elements.len(), &constants, |e| {
        parts
            .iter()
            .zip(&sources)
            .filter(move |(_, s)| **s == Some(e))
            .map(|(p, _)| {
                p.float_lanes
                    .filter(|_| cfg!(target_endian = "little"))
                    .unwrap_or(4)
            })
    });
    let second = SecondPass {
        blocks: &blocks,
        doc: &doc,
        parts: &parts,
        sources: &sources,
        constants: &constants,
        lanes: &lanes2,
        attribute_elements: &header
            .attributes
            .iter()
            .map(|a| a.element)
            .collect::<Vec<_>>(),
        skinned: parts.iter().any(|p| p.skin),
    };
    second.run(bin, base, threads)?;
    if let Some(part) = parts.iter().find(|p| p.index.is_some() && p.count > 0) {
        let wide = part.index == Some(true);
        bin.seek(SeekFrom::Start(base + part.offset as u64))?;
        let direct = input.index.as_ref().and_then(|(ib, _)| {
            let start = ib.offset as u64 + params.start as u64 * 4;
            let end = start + scan.prims * 4;
            (scan.list
                && params.indexed
                && wide
                && ib.format == IndexFormat::R32Uint
                && params.base_vertex as u32 == lo
                && params.start as u64 + scan.prims <= 1 << 32
                && end <= ib.data.len() as u64
                && cfg!(target_endian = "little"))
            .then(|| &ib.data[start as usize..end as usize])
        });
        if let Some(bytes) = direct {
            // The index buffer holds the very bytes: written from it, no copy.
            bin.write_all(bytes)?;
        } else {
            let mut failed: io::Result<()> = Ok(());
            let mut buf: Vec<u8> = Vec::new();
            walk(
                draw,
                topology,
                mode,
                pick,
                scan.list,
                block,
                &mut |_| {},
                &mut |e| {
                    if failed.is_ok() && !e.is_empty() {
                        buf.clear();
                        buf.resize(e.len() * if wide { 4 } else { 2 }, 0);
                        gltf::render_indices(e, lo, wide, &mut buf);
                        failed = bin.write_all(&buf);
                    }
                },
            );
            failed?;
        }
    }
    // The parts made with the document (the skin's inverse bind matrices).
    let mut fixed = Vec::new();
    for (i, part) in parts.iter().enumerate().filter(|(_, p)| p.fixed) {
        fixed.clear();
        doc.render_fixed(i, &mut fixed);
        bin.seek(SeekFrom::Start(base + part.offset as u64))?;
        bin.write_all(&fixed)?;
    }
    // The zeros between and after the parts.
    let zeros = [0u8; 64];
    for (i, part) in parts.iter().enumerate() {
        let data_end = part.offset
            + if part.count > 0 && part.esize > 0 {
                part.count * part.stride
            } else {
                0
            };
        let next = parts.get(i + 1).map_or(doc.bin_len(), |p| p.offset);
        if next > data_end {
            bin.seek(SeekFrom::Start(base + data_end as u64))?;
            bin.write_all(&zeros[..next - data_end])?;
        }
    }
    if parts.is_empty() {
        bin.write_all(&zeros[..doc.bin_len()])?;
    }
    bin.seek(SeekFrom::Start(base + doc.bin_len() as u64))?;
    Ok(Some(summary))
}

/// The draw's vertices `0..n` (element numbers from `vertex_base`), `block` at a time.
struct Blocks<'p, 'a> {
    plan: &'p FetchPlan<'a>,
    vertex_base: u32,
    n: u32,
    block: usize,
}

impl Blocks<'_, '_> {
    /// Blocks in all.
    fn count(&self) -> usize {
        (self.n as usize).div_ceil(self.block)
    }

    /// Block `b`'s first vertex and length.
    fn range(&self, b: usize) -> (u32, usize) {
        let k0 = (b * self.block) as u32;
        (k0, (self.n - k0).min(self.block as u32) as usize)
    }

    /// Working rows for one block: four lanes per vertex per element.
    fn rows(&self) -> Vec<Vec<u32>> {
        vec![vec![0u32; self.block * 4]; self.plan.element_count()]
    }

    /// Fetches vertices `k0..k0 + len`, element `e`'s first `lanes[e]` lanes of each into
    /// `rows[e]`.
    fn fetch(
        &self,
        k0: u32,
        len: usize,
        lanes: &[usize],
        rows: &mut [Vec<u32>],
    ) -> Result<(), MeshError> {
        let mut outs: Vec<ElementRows<'_>> = rows
            .iter_mut()
            .zip(lanes)
            .map(|(r, &lanes)| ElementRows {
                lanes,
                data: &mut r[..len * lanes],
            })
            .collect();
        self.plan
            .fetch_element_rows(
                Vertices::Range {
                    first: self.vertex_base.wrapping_add(k0),
                    count: len as u32,
                },
                Instance::default(),
                &mut outs,
            )
            .map_err(|e| MeshError::Draw(e.to_string()))
    }
}

/// How many lanes of each element a pass fetches: the one width its users (`users(e)`)
/// all read, else 4; 1 for a per-instance element (its lanes are a constant's) or one
/// nothing reads.
fn widths<I: Iterator<Item = usize>>(
    count: usize,
    constants: &[Option<Vec<[u32; 4]>>],
    users: impl Fn(usize) -> I,
) -> Vec<usize> {
    (0..count)
        .map(|e| {
            if constants[e].is_some() {
                return 1;
            }
            let mut width = None;
            for w in users(e) {
                width = match width {
                    None => Some(w),
                    Some(v) if v == w => Some(v),
                    Some(_) => Some(4),
                };
            }
            width.unwrap_or(1)
        })
        .collect()
}

/// Bytes of fetched rows the first pass works on at a time.
const STATS_PIECE_BYTES: usize = 64 << 10;

/// The statistics of vertices `range` (a whole number of blocks, from `empty`'s copies).
fn stats_of_range(
    blocks: &Blocks<'_, '_>,
    range: std::ops::Range<usize>,
    attributes: &[super::Attribute],
    constants: &[Option<Vec<[u32; 4]>>],
    lanes: &[usize],
    empty: &[gltf::Stats],
) -> Result<Vec<gltf::Stats>, MeshError> {
    let mut stats = empty.to_vec();
    let mut rows = blocks.rows();
    // Each block in pieces whose rows stay in a core's cache between the fetch and the
    // statistics (the rows are not written, so the block size serves the writes only).
    let piece = (STATS_PIECE_BYTES / (4 * lanes.iter().sum::<usize>()).max(1)).max(64);
    for b in range {
        let (block_k0, block_len) = blocks.range(b);
        let mut done = 0;
        while done < block_len {
            let len = (block_len - done).min(piece);
            let k0 = block_k0 + done as u32;
            blocks.fetch(k0, len, lanes, &mut rows)?;
            for (s, a) in stats.iter_mut().zip(attributes) {
                let e = a.element;
                match &constants[e] {
                    Some(c) => s.feed(&c[..len]),
                    None => s.feed_rows(&rows[e][..len * lanes[e]], lanes[e]),
                }
            }
            done += len;
        }
    }
    Ok(stats)
}

/// Pass 1: every attribute's statistics, the blocks split in `threads` runs of consecutive
/// blocks whose statistics are merged in order (the same as one run's, bit for bit).
fn first_pass(
    blocks: &Blocks<'_, '_>,
    attributes: &[super::Attribute],
    constants: &[Option<Vec<[u32; 4]>>],
    lanes: &[usize],
    empty: &[gltf::Stats],
    threads: usize,
) -> Result<Vec<gltf::Stats>, MeshError> {
    let count = blocks.count();
    let threads = threads.clamp(1, count.max(1));
    let run = |r: &std::ops::Range<usize>| {
        stats_of_range(blocks, r.clone(), attributes, constants, lanes, empty)
    };
    if threads == 1 {
        return run(&(0..count));
    }
    let share = count.div_ceil(threads);
    let ranges: Vec<std::ops::Range<usize>> = (0..threads)
        .map(|t| (t * share).min(count)..((t + 1) * share).min(count))
        .collect();
    let results = parallel_map(&ranges, &run);
    let mut all: Option<Vec<gltf::Stats>> = None;
    for r in results {
        let r = r?;
        match &mut all {
            None => all = Some(r),
            Some(all) => all.iter_mut().zip(&r).for_each(|(s, later)| s.merge(later)),
        }
    }
    all.map_or_else(|| run(&(0..0)), Ok)
}

/// `f` of each item, the first on the calling thread and the others on scoped threads.
#[cfg(feature = "parallel")]
fn parallel_map<T: Sync, R: Send>(items: &[T], f: &(impl Fn(&T) -> R + Sync)) -> Vec<R> {
    let Some((first, rest)) = items.split_first() else {
        return Vec::new();
    };
    std::thread::scope(|s| {
        let handles: Vec<_> = rest.iter().map(|t| s.spawn(move || f(t))).collect();
        let mut out = vec![f(first)];
        for h in handles {
            match h.join() {
                Ok(r) => out.push(r),
                Err(p) => std::panic::resume_unwind(p),
            }
        }
        out
    })
}

/// Without the `parallel` feature: `f` of each item in turn.
#[cfg(not(feature = "parallel"))]
fn parallel_map<T, R>(items: &[T], f: &impl Fn(&T) -> R) -> Vec<R> {
    items.iter().map(f).collect()
}

/// One prepared block of pass 2: its rows, the bytes rendered from them, and which of them
/// each part's piece is.
struct Slab {
    rows: Vec<Vec<u32>>,
    bytes: Vec<u8>,
    /// (part, piece) in part order.
    pieces: Vec<(usize, Piece)>,
    /// The block's first vertex.
    k0: u32,
}

/// Where a part's bytes for a block are.
#[derive(Clone, Copy)]
enum Piece {
    /// The first `len` values of an element's rows.
    Rows { element: usize, len: usize },
    /// `Slab::bytes[start..end]`.
    Bytes { start: usize, end: usize },
}

/// Pass 2: each block of vertices fetched once more and every vertex part's bytes for it
/// written at the part's offset.
struct SecondPass<'s, 'p, 'a> {
    blocks: &'s Blocks<'p, 'a>,
    doc: &'s gltf::Document,
    parts: &'s [gltf::Part],
    /// Each part's source element (vertex parts with data only).
    sources: &'s [Option<usize>],
    constants: &'s [Option<Vec<[u32; 4]>>],
    /// Lanes fetched per element.
    lanes: &'s [usize],
    /// Each per-vertex attribute's element.
    attribute_elements: &'s [usize],
    /// Whether any part is a skin one (`JOINTS_n` / `WEIGHTS_n`).
    skinned: bool,
}

impl SecondPass<'_, '_, '_> {
    fn slab(&self) -> Slab {
        Slab {
            rows: self.blocks.rows(),
            bytes: Vec::with_capacity(self.blocks.block * 16 + 64),
            pieces: Vec::with_capacity(self.parts.len()),
            k0: 0,
        }
    }

    /// Fills `slab` with block `b`: fetched, float lanes made finite in place for the parts
    /// that are the rows themselves, every other part rendered.
    fn prepare(&self, b: usize, slab: &mut Slab) -> Result<(), MeshError> {
        let (k0, len) = self.blocks.range(b);
        slab.k0 = k0;
        self.blocks.fetch(k0, len, self.lanes, &mut slab.rows)?;
        slab.bytes.clear();
        slab.pieces.clear();
        // The skin's influences, from the rows as fetched (before any is made finite in
        // place); the skin's elements are fetched four lanes wide (their skin parts read
        // them whole).
        let skin = if self.skinned {
            let rows = &slab.rows;
            self.doc.skin.block(
                |a| {
                    let e = self.attribute_elements[a];
                    match &self.constants[e] {
                        Some(c) => &c[..len],
                        None => bytemuck::cast_slice(&rows[e][..len * 4]),
                    }
                },
                0,
                len,
            )
        } else {
            gltf::SkinBlock::default()
        };
        let mut finite = vec![false; self.lanes.len()];
        for (i, (part, source)) in self.parts.iter().zip(self.sources).enumerate() {
            if part.ids {
                let start = slab.bytes.len();
                self.doc.render_ids(i, k0 as usize, len, &mut slab.bytes);
                let end = slab.bytes.len();
                slab.pieces.push((i, Piece::Bytes { start, end }));
                continue;
            }
            let Some(e) = *source else {
                continue;
            };
            let lanes = self.lanes[e];
            match (&self.constants[e], part.float_lanes) {
                // Made finite in place: harmless to the element's other parts, which are
                // all float parts too (they replace non-finite lanes by 0 themselves).
                (None, Some(c)) if c == lanes => {
                    if !finite[e] {
                        gltf::finite_lanes(&mut slab.rows[e][..len * c]);
                        finite[e] = true;
                    }
                    slab.pieces.push((i, Piece::Rows { element: e, len }));
                }
                (constant, _) => {
                    let values: &[[u32; 4]] = match constant {
                        Some(c) => &c[..len],
                        None => bytemuck::cast_slice(&slab.rows[e][..len * 4]),
                    };
                    let start = slab.bytes.len();
                    self.doc.render_part(i, values, &skin, len, &mut slab.bytes);
                    let end = slab.bytes.len();
                    slab.pieces.push((i, Piece::Bytes { start, end }));
                }
            }
        }
        Ok(())
    }

    /// Writes a prepared block's pieces at their offsets.
    fn write<W: Write + Seek>(&self, slab: &Slab, bin: &mut W, base: u64) -> io::Result<()> {
        for &(i, piece) in &slab.pieces {
            let part = &self.parts[i];
            let bytes: &[u8] = match piece {
                Piece::Rows { element, len } => {
                    let lanes = self.lanes[element];
                    bytemuck::cast_slice(&slab.rows[element][..len * lanes])
                }
                Piece::Bytes { start, end } => &slab.bytes[start..end],
            };
            bin.seek(SeekFrom::Start(
                base + (part.offset + slab.k0 as usize * part.stride) as u64,
            ))?;
            bin.write_all(bytes)?;
        }
        Ok(())
    }

    /// Every block, prepared and written on the calling thread (`threads` ≤ 1) or prepared
    /// by `threads` − 1 others while it writes them in order.
    fn run<W: Write + Seek>(
        &self,
        bin: &mut W,
        base: u64,
        threads: usize,
    ) -> Result<(), ExportError> {
        let count = self.blocks.count();
        #[cfg(feature = "parallel")]
        {
            let workers = threads.saturating_sub(1).min(count);
            if workers > 0 {
                return self.run_parallel(bin, base, workers);
            }
        }
        #[cfg(not(feature = "parallel"))]
        let _ = threads;
        let mut slab = self.slab();
        for b in 0..count {
            self.prepare(b, &mut slab)?;
            self.write(&slab, bin, base)?;
        }
        Ok(())
    }

    /// [`SecondPass::run`] with `workers` threads preparing: worker `w` takes blocks `w`,
    /// `w + workers`, … into its two slabs, which the calling thread writes in block order
    /// and hands back.
    #[cfg(feature = "parallel")]
    fn run_parallel<W: Write + Seek>(
        &self,
        bin: &mut W,
        base: u64,
        workers: usize,
    ) -> Result<(), ExportError> {
        use std::sync::mpsc::sync_channel;
        const SLABS: usize = 2;
        let count = self.blocks.count();
        std::thread::scope(|s| {
            let mut free = Vec::with_capacity(workers);
            let mut filled = Vec::with_capacity(workers);
            for w in 0..workers {
                let (free_tx, free_rx) = sync_channel::<Slab>(SLABS);
                let (done_tx, done_rx) = sync_channel::<Result<Slab, MeshError>>(SLABS);
                s.spawn(move || {
                    for b in (w..count).step_by(workers) {
                        let Ok(mut slab) = free_rx.recv() else {
                            return;
                        };
                        let done = self.prepare(b, &mut slab).map(|()| slab);
                        let failed = done.is_err();
                        if done_tx.send(done).is_err() || failed {
                            return;
                        }
                    }
                });
                for _ in 0..SLABS {
                    // The worker holds its receiver until it ends: the send cannot fail
                    // before it has started.
                    let _ = free_tx.send(self.slab());
                }
                free.push(free_tx);
                filled.push(done_rx);
            }
            // Dropping the channels (on return) ends the workers that still wait.
            let (free, filled) = (free, filled);
            for b in 0..count {
                let w = b % workers;
                let slab = filled[w]
                    .recv()
                    .map_err(|_| MeshError::Draw("a block's preparing thread ended".into()))??;
                self.write(&slab, bin, base)?;
                let _ = free[w].send(slab);
            }
            Ok(())
        })
    }
}
