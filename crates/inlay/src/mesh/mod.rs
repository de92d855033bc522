//! Meshes: a draw's primitives and vertex attributes as an indexed mesh, written as glTF,
//! OBJ or PLY, and glTF read back (feature `mesh`).
//!
//! [`Mesh::build`] runs the draw through the input assembler ([`crate::assembler`]): the walk
//! of the first instance gives each vertex's element number and the topology's primitives
//! (strip cuts honoured), and the fast fetch ([`crate::fetch`]) decodes every element of every
//! vertex the draw reads — once per vertex, not once per index. Primitives become
//! [`Mode::Triangles`], [`Mode::Lines`] or [`Mode::Points`]: strips become lists, adjacency
//! vertices are dropped (triangle `v0 v2 v4`, line `v1 v2` of ia-semantics §6), patch lists
//! give their control points as points (or, on request, 3-control-point patches as
//! triangles).
//!
//! Mesh vertex `k` is element number `vertex_base + k` (or `vertex_elements[k]` when the draw's
//! element numbers are too spread out for a range), so exporting and importing an unedited
//! capture rewrites its buffers byte for byte.
//!
//! Writers: [`gltf`] (`.glb`, `.gltf` + `.bin`, and the reader used by import), [`obj`],
//! [`ply`]. [`export`] picks one by file extension.

// Mesh building and writing need no unsafe code.
#![forbid(unsafe_code)]

use std::fmt;

use crate::assembler::primitive::tri_strip;
use crate::assembler::validate::{DrawCheck, IndexSpan};
use crate::assembler::{DrawCall, InputAssembler, PrimitiveAssembler, Topology, WalkStep};
use crate::buffer::{IndexBufferBinding, IndexFormat, VertexBufferBinding};
use crate::capture::{Capture, SlotData, TextVertices};
use crate::element::InputElementDesc;
use crate::fetch::{FetchPlan, Instance, Vertices};
use crate::format::{Format, Kind};
use crate::layout::{InputClass, InputLayout, LayoutElement};
use crate::target::Target;

#[cfg(feature = "frame")]
pub mod batch;
pub mod gltf;
pub mod import;
#[cfg(feature = "mod")]
pub mod modfile;
pub mod obj;
pub mod ply;
mod streamed;

/// Most vertex-stream positions one export walks (2^28): a larger draw is refused, so a
/// header's count cannot make the builder allocate for nothing.
pub const MAX_POSITIONS: u64 = 1 << 28;

/// Most instances `--instances expand|attributes` writes.
pub const MAX_INSTANCES: u32 = 1 << 16;

/// How per-instance data is exported.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Instances {
    /// The first instance only; per-instance elements become constant vertex attributes.
    #[default]
    First,
    /// One glTF node and mesh per instance (vertex data shared, per-instance attributes
    /// constant per mesh).
    Expand,
    /// One mesh, instanced by `EXT_mesh_gpu_instancing`, the per-instance elements as its
    /// per-instance `_NAME` attributes.
    Attributes,
}

impl std::str::FromStr for Instances {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "first" => Ok(Instances::First),
            "expand" => Ok(Instances::Expand),
            "attributes" => Ok(Instances::Attributes),
            _ => Err(format!(
                "unknown instance mode `{s}` (expected first, expand or attributes)"
            )),
        }
    }
}

/// The primitive kind of the exported mesh (glTF `mode` 0, 1 and 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Points.
    Points,
    /// Lines (pairs of indices).
    Lines,
    /// Triangles (triples of indices).
    Triangles,
}

impl Mode {
    /// Indices per primitive.
    pub fn vertices(self) -> usize {
        match self {
            Mode::Points => 1,
            Mode::Lines => 2,
            Mode::Triangles => 3,
        }
    }
}

/// Options of [`Mesh::build`].
#[derive(Clone, Copy, Debug)]
pub struct MeshOptions {
    /// Per-instance data handling.
    pub instances: Instances,
    /// The target the layout is created for (default D3D11 at 11_0).
    pub target: Target,
    /// Export 3-control-point patch lists as triangles instead of points.
    pub patch_triangles: bool,
    /// Refuse a draw with more than this many consecutive vertices that read nothing but
    /// out-of-bounds zeros ([`DrawReport::refusal`](crate::assembler::validate::DrawReport::refusal),
    /// decode's `--max-vertices`): a mesh is never built from what a draw asks for beyond
    /// its data.
    pub max_zero_vertices: u64,
    /// The D3D12 pipeline state the layout is created with when `target` is D3D12 (ignored
    /// for D3D10/D3D11): its strip cut decides which index cuts a strip (d3d12-rules.md
    /// P19), its topology type is checked against the draw's topology (P22).
    pub pipeline: MeshPipeline,
}

impl Default for MeshOptions {
    fn default() -> MeshOptions {
        MeshOptions {
            instances: Instances::default(),
            target: Target::default(),
            patch_triangles: false,
            max_zero_vertices: crate::assembler::validate::DEFAULT_MAX_ZERO_VERTICES,
            pipeline: MeshPipeline::default(),
        }
    }
}

/// The input-assembler fields of a D3D12 pipeline state (`D3D12_GRAPHICS_PIPELINE_STATE_DESC`)
/// a mesh's layout is created with — what `--api d3d12 --strip-cut … --topology-type …
/// --root-signature-flags …` give `inlay export` and `inlay view`. The default is D3D12's:
/// strip cut disabled (an all-ones index is a vertex), the draw's topology type, the input
/// assembler allowed by the root signature.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MeshPipeline {
    /// `IBStripCutValue` (0 disabled, 1 0xFFFF, 2 0xFFFFFFFF; another value is refused by
    /// creation, as `CreateGraphicsPipelineState` refuses it).
    pub ib_strip_cut_value: u32,
    /// `PrimitiveTopologyType`; `None`: the type of the draw's topology.
    pub primitive_topology_type: Option<u32>,
    /// The root signature's flags; `None`: `ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT`.
    pub root_signature_flags: Option<u32>,
}

impl MeshPipeline {
    /// The pipeline description for a draw of `topology`.
    pub fn desc(&self, topology: Topology) -> crate::validation::PipelineDesc {
        let d = crate::validation::PipelineDesc::default();
        crate::validation::PipelineDesc {
            root_signature_flags: self.root_signature_flags.unwrap_or(d.root_signature_flags),
            ib_strip_cut_value: self.ib_strip_cut_value,
            primitive_topology_type: self
                .primitive_topology_type
                .unwrap_or(topology.topology_type().d3d12_value()),
        }
    }
}

/// `CreateInputLayout` for a mesh input without a shader: the options' target and, under
/// D3D12, their pipeline state for the input's topology.
fn create_layout(input: &MeshInput<'_>, options: &MeshOptions) -> crate::validation::Creation {
    crate::validation::CreateInputLayout::new(&options.target, input.elements)
        .pipeline(options.pipeline.desc(input.topology))
        .without_shader()
}

/// Why a mesh could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MeshError {
    /// `CreateInputLayout` refuses the dump's elements.
    #[error("the input layout is refused by CreateInputLayout: {0}")]
    Layout(String),
    /// The input assembler refuses the binding or the draw.
    #[error("{0}")]
    Draw(String),
    /// The draw is too large to export.
    #[error("{0}")]
    TooLarge(String),
}

/// Where one slot's data comes from.
#[derive(Clone, Copy, Debug)]
pub enum SlotSource<'a> {
    /// Buffer bytes.
    Binary(&'a [u8]),
    /// Values printed by a text dump.
    Text(&'a TextVertices),
}

/// One bound vertex-buffer slot of a [`MeshInput`].
#[derive(Clone, Copy, Debug)]
pub struct InputSlot<'a> {
    /// Slot number.
    pub slot: u32,
    /// Stride.
    pub stride: u32,
    /// Bind offset.
    pub offset: u32,
    /// Data.
    pub data: SlotSource<'a>,
    /// File name for messages.
    pub file: &'a str,
}

/// Everything [`Mesh::build`] needs: elements, slots, index buffer, topology, draw.
#[derive(Clone, Debug)]
pub struct MeshInput<'a> {
    /// Element descriptions (offsets resolved by `CreateInputLayout`).
    pub elements: &'a [InputElementDesc],
    /// Attribute names per element (remapped semantics), `None` for the element's own.
    pub names: Vec<Option<(String, u32)>>,
    /// Bound slots.
    pub slots: Vec<InputSlot<'a>>,
    /// Index buffer (indexed draws) and its file name.
    pub index: Option<(IndexBufferBinding<'a>, &'a str)>,
    /// Topology.
    pub topology: Topology,
    /// The draw call.
    pub draw: DrawCall<'a>,
    /// Source files (recorded in the exported extras).
    pub files: Vec<String>,
}

/// One exported attribute: a layout element's lanes, per vertex or per instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attribute {
    /// Index of the element in [`Mesh::layout`].
    pub element: usize,
    /// Semantic name the attribute is named after (a remapped name when the dump has one).
    pub semantic: String,
    /// Semantic index it is named after.
    pub semantic_index: u32,
    /// The element's format.
    pub format: Format,
    /// Four 32-bit register lanes per vertex (or per instance): exactly what the input
    /// assembler delivers (defaults in the lanes the format lacks).
    pub values: Vec<[u32; 4]>,
}

impl Attribute {
    /// The component kind of the lanes (the format's first present component).
    pub fn kind(&self) -> Kind {
        self.format
            .info()
            .and_then(|i| i.first_kind())
            .unwrap_or(Kind::Float)
    }

    /// Lanes the format supplies from memory (1–4; a 3-component format gives 3).
    pub fn components(&self) -> usize {
        self.format.info().map_or(4, |i| {
            let m = i.lane_mask();
            (8 - m.leading_zeros() as usize).max(1)
        })
    }
}

/// One vertex-buffer slot as the capture bound it (recorded for import).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SlotInfo {
    /// Slot number.
    pub slot: u32,
    /// Stride.
    pub stride: u32,
    /// Bind offset.
    pub offset: u32,
}

/// An indexed mesh built from one draw.
#[derive(Clone, Debug, PartialEq)]
pub struct Mesh {
    /// Primitive kind.
    pub mode: Mode,
    /// The draw's topology.
    pub topology: Topology,
    /// Element number of mesh vertex 0 (when [`Mesh::vertex_elements`] is `None`).
    pub vertex_base: u32,
    /// Number of mesh vertices.
    pub vertex_count: u32,
    /// Element number of each mesh vertex, when they are not a range.
    pub vertex_elements: Option<Vec<u32>>,
    /// Mesh-vertex indices, [`Mode::vertices`] per primitive.
    pub indices: Vec<u32>,
    /// The mesh vertex of each vertex-stream position of the first instance, in draw order
    /// (a strip cut takes no position): the rows `inlay decode` prints for instance 0. Every
    /// instance reads the same stream (ia-semantics §3); instance `i`'s positions follow as
    /// `i × stream.len() + p`.
    pub stream: Vec<u32>,
    /// What the draw adds to `SV_VertexID` to get a position's element number: the
    /// BaseVertexLocation of an indexed draw, the StartVertexLocation of another
    /// (ia-semantics §3–4), so `SV_VertexID = element − vertex_id_base` (wrapping).
    pub vertex_id_base: u32,
    /// StartInstanceLocation: instance `i` of a per-instance element with step rate `r`
    /// reads element number `start_instance + i / r` (`start_instance` for rate 0; spec §8.1.3).
    pub start_instance: u32,
    /// Per-vertex attributes (per-instance elements too under [`Instances::First`], as
    /// constant attributes), in layout order.
    pub attributes: Vec<Attribute>,
    /// Per-instance attributes (one value per instance) under [`Instances::Expand`] and
    /// [`Instances::Attributes`].
    pub instance_attributes: Vec<Attribute>,
    /// Instances exported (1 under [`Instances::First`]).
    pub instance_count: u32,
    /// The instance mode used.
    pub instances: Instances,
    /// The created layout's elements (offsets resolved).
    pub layout: Vec<LayoutElement>,
    /// The elements as the dump described them.
    pub descs: Vec<InputElementDesc>,
    /// Slots.
    pub slots: Vec<SlotInfo>,
    /// The index format of the draw, if indexed.
    pub index_format: Option<IndexFormat>,
    /// The draw call, as text (`draw_indexed,index_count=36,start_index=0,base_vertex=0`).
    pub draw: String,
    /// Source files.
    pub files: Vec<String>,
    /// What the builder doubted: data read past the buffers, missing text values.
    pub warnings: Vec<String>,
}

/// The layout's elements (kept behind one helper while the layout type's fields change).
fn layout_elements(layout: &InputLayout) -> &[LayoutElement] {
    layout.elements()
}

/// The name exported meshes, nodes and objects take: [`crate::capture::capture_name`] (the one
/// rule every shell uses) of the first source file, whose folders may be written with `/` or
/// `\\` (a mod's INI writes Windows paths).
///
/// ```
/// let files = vec!["dumps/Rover/Component 6.fmt".to_string()];
/// assert_eq!(inlay::mesh::capture_name(&files), "Component 6");
/// let files = vec!["FA\\000001-vb0=5a1e0001-vs=9c1f3e2d7b6a5c48.txt".to_string()];
/// assert_eq!(inlay::mesh::capture_name(&files), "000001-vb0=5a1e0001");
/// ```
pub fn capture_name(files: &[String]) -> String {
    let first = files
        .first()
        .map(|f| f.rsplit(['/', '\\']).next().unwrap_or(f));
    crate::capture::capture_name(first.map(std::path::Path::new))
}

/// A draw call as the command line's `--draw` spells it ([`DrawCall::spec_keys`]); an
/// indirect call or `DrawAuto` by its name.
pub fn draw_text(call: &DrawCall<'_>) -> String {
    match call.spec_keys() {
        Some((kind, keys)) => keys
            .iter()
            .fold(kind.to_string(), |mut text, (key, value)| {
                text.push_str(&format!(",{key}={value}"));
                text
            }),
        None => call.name().to_string(),
    }
}

impl Mesh {
    /// Builds the mesh of a capture's draw.
    ///
    /// ```no_run
    /// use inlay::capture::load_dump;
    /// use inlay::mesh::{Mesh, MeshOptions};
    /// let capture = load_dump("Mona-vb0=12345678.txt".as_ref()).unwrap();
    /// let mesh = Mesh::from_capture(&capture, &MeshOptions::default()).unwrap();
    /// let mut glb = Vec::new();
    /// inlay::mesh::gltf::write_glb(&mesh, &mut glb).unwrap();
    /// ```
    pub fn from_capture(capture: &Capture, options: &MeshOptions) -> Result<Mesh, MeshError> {
        Mesh::build(&input_of(capture), options)
    }

    /// The capture's name ([`crate::capture::capture_name`] of the first source file): what
    /// an exported mesh or object is called.
    pub fn name(&self) -> String {
        capture_name(&self.files)
    }

    /// Builds the mesh of a draw.
    pub fn build(input: &MeshInput<'_>, options: &MeshOptions) -> Result<Mesh, MeshError> {
        let created = create_layout(input, options);
        let layout = created_layout(&created)?;
        let mut warnings = Vec::new();
        let (ia, _) = bind(input, layout, options, &mut warnings)?;
        let draw = ia
            .draw(&input.draw)
            .map_err(|e| MeshError::Draw(e.to_string()))?;
        Mesh::build_drawn(input, options, &ia, &draw, warnings)
    }

    /// [`Mesh::build`] past the binding: `ia` is `input` bound to its created layout
    /// ([`bind`], which gave `warnings`), `draw` its draw (the streamed export binds once
    /// for both ways).
    pub(crate) fn build_drawn(
        input: &MeshInput<'_>,
        options: &MeshOptions,
        ia: &InputAssembler<'_>,
        draw: &crate::assembler::PreparedDraw<'_>,
        mut warnings: Vec<String>,
    ) -> Result<Mesh, MeshError> {
        let layout = ia.layout();
        let elements = layout_elements(layout);
        let params = *draw.params();
        if params.count as u64 > MAX_POSITIONS {
            return Err(MeshError::TooLarge(format!(
                "the draw has {} vertices per instance; at most {MAX_POSITIONS} are exported",
                params.count
            )));
        }
        // The walk of instance 0: element numbers per position, primitives (`None`: the
        // element numbers of the first `whole` positions, as in a list draw).
        let (mut elems, mut prims): (Vec<u32>, Option<Vec<u32>>) = (Vec::new(), None);
        let mut whole = 0;
        let topology = input.topology;
        let (mode, pick) = mode_of(topology, options);
        // Lists and strips without cuts a batch at a time (a list's primitives are its first
        // `whole` positions), else step by step.
        let batched = if params.instance_count > 0 && pick.is_empty() {
            list_walk(draw, topology, mode)
                .map(|(e, w)| (e, w, None))
                .or_else(|| strip_walk(draw, topology, mode).map(|(e, p)| (e, 0, Some(p))))
        } else {
            None
        };
        if let Some((e, w, p)) = batched {
            elems = e;
            whole = w;
            prims = p;
        } else if params.instance_count > 0 {
            let (e, p) = step_walk(draw, topology, mode, pick);
            elems = e;
            prims = Some(p);
        } else {
            warnings.push("the draw has no instances: the mesh is empty".to_string());
        }
        // Mesh vertices: the range of element numbers the draw fetched, or (spread out) the
        // distinct ones.
        let (lo, hi) = elems
            .iter()
            .fold((u32::MAX, 0u32), |(a, b), &e| (a.min(e), b.max(e)));
        let (vertex_base, vertex_count, vertex_elements, mut indices) = if elems.is_empty() {
            (0, 0, None, Vec::new())
        } else if ((hi - lo) as u64) < 4 * elems.len() as u64 + 1024 {
            let indices = prims.iter().flatten().map(|&e| e - lo).collect();
            (lo, hi - lo + 1, None, indices)
        } else {
            let mut list = elems.clone();
            list.sort_unstable();
            list.dedup();
            warnings.push(format!(
                "the draw's element numbers spread from {lo} to {hi} for {} vertices; only the {} \
                 vertices used are written, so import will not rebuild the buffer's layout byte for byte",
                elems.len(),
                list.len()
            ));
            let indices = prims
                .iter()
                .flatten()
                .map(|e| list.binary_search(e).unwrap_or(0) as u32)
                .collect();
            (0, list.len() as u32, Some(list), indices)
        };
        // The stream: the mesh vertex of each position (the element numbers are not needed
        // past here, so they are rewritten in place).
        let mut stream = elems;
        match &vertex_elements {
            // (A draw whose lowest element number is 0 needs no rewriting.)
            None if vertex_base == 0 => {}
            None => stream
                .iter_mut()
                .for_each(|e| *e = e.wrapping_sub(vertex_base)),
            Some(list) => stream
                .iter_mut()
                .for_each(|e| *e = list.binary_search(e).unwrap_or(0) as u32),
        }
        if prims.is_none() {
            // A list's primitives are its positions: their mesh vertices are the stream's.
            indices = stream[..whole].to_vec();
        }
        // Per-vertex data: the fast fetch for bound slots, text values for text slots.
        let bindings: Vec<Option<VertexBufferBinding<'_>>> = (0..crate::assembler::MAX_SLOTS
            as u32)
            .map(|s| ia.vertex_buffer(s).copied())
            .collect();
        let plan = FetchPlan::new(layout, &bindings).map_err(|e| MeshError::Draw(e.to_string()))?;
        let instance_count = match options.instances {
            Instances::First => params.instance_count.min(1),
            _ => {
                if params.instance_count > MAX_INSTANCES {
                    return Err(MeshError::TooLarge(format!(
                        "{} instances; at most {MAX_INSTANCES} are exported one by one (use --instances first)",
                        params.instance_count
                    )));
                }
                params.instance_count
            }
        };
        let n = vertex_count as usize;
        let mut per_vertex_values: Vec<Vec<[u32; 4]>> = (0..elements.len())
            .map(|e| {
                if elements[e].class == InputClass::PerVertex {
                    vec![[0u32; 4]; n]
                } else {
                    Vec::new()
                }
            })
            .collect();
        {
            let mut outs: Vec<&mut [[u32; 4]]> = per_vertex_values
                .iter_mut()
                .map(|v| v.as_mut_slice())
                .collect();
            // Per-instance outputs are empty: give them a one-row scratch each.
            let mut scratch: Vec<Vec<[u32; 4]>> = Vec::new();
            let empty: Vec<usize> = outs
                .iter()
                .enumerate()
                .filter(|(_, o)| o.is_empty())
                .map(|(i, _)| i)
                .collect();
            if !empty.is_empty() && n > 0 {
                scratch = empty.iter().map(|_| vec![[0u32; 4]; n]).collect();
            }
            let mut scratch_iter = scratch.iter_mut();
            for i in empty {
                if let Some(s) = scratch_iter.next() {
                    outs[i] = s.as_mut_slice();
                }
            }
            let vertices = match &vertex_elements {
                None => Vertices::Range {
                    first: vertex_base,
                    count: vertex_count,
                },
                Some(list) => Vertices::Indexed {
                    indices: list,
                    base_vertex: 0,
                },
            };
            if n > 0 {
                plan.fetch_elements(vertices, Instance::default(), &mut outs)
                    .map_err(|e| MeshError::Draw(e.to_string()))?;
            }
        }
        let element_of = |k: usize| -> u32 {
            match &vertex_elements {
                None => vertex_base.wrapping_add(k as u32),
                Some(l) => l[k],
            }
        };
        // Reads past the data and missing text values are warnings, never silent.
        for s in &input.slots {
            let slot_elements: Vec<usize> = (0..elements.len())
                .filter(|&e| {
                    elements[e].slot == s.slot && elements[e].class == InputClass::PerVertex
                })
                .collect();
            if slot_elements.is_empty() {
                continue;
            }
            match s.data {
                SlotSource::Binary(data) => {
                    let held = held_vertices(s, data, &slot_elements, elements);
                    let past: Vec<u32> = (0..n)
                        .map(element_of)
                        .filter(|&e| e as u64 >= held)
                        .collect();
                    if let Some(&first) = past.first() {
                        warnings.push(past_warning(s.file, past.len() as u64, held, first));
                    }
                }
                SlotSource::Text(text) => {
                    let mut missing = 0u64;
                    let mut first_missing = None;
                    for &e in &slot_elements {
                        let oob = elements[e]
                            .format
                            .info()
                            .map_or([0; 4], crate::convert::out_of_bounds);
                        for (k, row) in per_vertex_values[e].iter_mut().enumerate() {
                            match text.get(e, element_of(k)) {
                                Some(v) => *row = v,
                                None => {
                                    missing += 1;
                                    first_missing.get_or_insert((k, e));
                                    *row = oob;
                                }
                            }
                        }
                    }
                    if let Some((k, e)) = first_missing {
                        warnings.push(format!(
                            "{}: {missing} element values the draw reads are not in the text dump \
                             (first: vertex {} element[{e}] {}); they read as out-of-bounds data does (zero)",
                            s.file,
                            element_of(k),
                            elements[e].semantic_name
                        ));
                    }
                }
            }
        }
        // Per-instance data.
        let instance_values = |e: usize, id: u32| {
            instance_value(&plan, elements, input, params.start_instance, e, id)
        };
        let (attributes, instance_attributes) =
            attributes_of(input, elements, options.instances, |e, per_vertex| {
                if elements[e].class == InputClass::PerVertex {
                    std::mem::take(&mut per_vertex_values[e])
                } else if per_vertex {
                    let v = if instance_count > 0 {
                        instance_values(e, 0)
                    } else {
                        [0; 4]
                    };
                    vec![v; n]
                } else {
                    (0..instance_count)
                        .map(|id| instance_values(e, id))
                        .collect()
                }
            });
        Ok(Mesh {
            mode,
            topology,
            vertex_base,
            vertex_count,
            vertex_elements,
            indices,
            stream,
            vertex_id_base: vertex_id_base(&params),
            start_instance: params.start_instance,
            attributes,
            instance_attributes,
            instance_count: instance_count.max(1),
            instances: options.instances,
            layout: elements.to_vec(),
            descs: input.elements.to_vec(),
            slots: input
                .slots
                .iter()
                .map(|s| SlotInfo {
                    slot: s.slot,
                    stride: s.stride,
                    offset: s.offset,
                })
                .collect(),
            index_format: input.index.as_ref().map(|(ib, _)| ib.format),
            draw: draw_text(&input.draw),
            files: input.files.clone(),
            warnings,
        })
    }
}

/// A draw's [`Mesh::vertex_id_base`]: its base vertex when indexed, its start vertex
/// otherwise.
fn vertex_id_base(params: &crate::assembler::DrawParams) -> u32 {
    if params.indexed {
        params.base_vertex as u32
    } else {
        params.start
    }
}

/// The created layout, or the error naming why `CreateInputLayout` refuses it.
fn created_layout(created: &crate::validation::Creation) -> Result<&InputLayout, MeshError> {
    created.layout.as_ref().ok_or_else(|| {
        let msgs: Vec<String> = created.errors().map(|d| d.to_string()).collect();
        MeshError::Layout(msgs.join("; "))
    })
}

/// The input assembler with the input's buffers, index buffer and topology bound, the draw
/// checked; the draw-time validation's warnings (those the mesh builder does not count
/// itself) pushed to `warnings`. With it, the element numbers the draw's index positions
/// address, which the validation's scan of the indices found.
fn bind<'l>(
    input: &MeshInput<'l>,
    layout: &'l InputLayout,
    options: &MeshOptions,
    warnings: &mut Vec<String>,
) -> Result<(InputAssembler<'l>, Option<IndexSpan>), MeshError> {
    let target = options.target;
    let elements = layout_elements(layout);
    let mut ia = InputAssembler::new(layout, target);
    for s in &input.slots {
        if let SlotSource::Binary(data) = s.data {
            ia.set_vertex_buffer(
                s.slot,
                Some(VertexBufferBinding {
                    data,
                    stride: s.stride,
                    offset: s.offset,
                }),
            )
            .map_err(|e| MeshError::Draw(format!("{}: {e}", s.file)))?;
        } else if s.stride > crate::buffer::MAX_VERTEX_STRIDE {
            return Err(MeshError::Draw(format!(
                "{}: stride {} exceeds the 2048-byte maximum (spec §8.19.3)",
                s.file, s.stride
            )));
        }
    }
    if let Some((ib, file)) = &input.index {
        ia.set_index_buffer(Some(*ib))
            .map_err(|e| MeshError::Draw(format!("{file}: {e}")))?;
    }
    ia.set_topology(input.topology)
        .map_err(|e| MeshError::Draw(format!("{e}; say the topology (--topology)")))?;
    ia.draw(&input.draw)
        .map_err(|e| MeshError::Draw(e.to_string()))?;
    // The draw-time validation of the bound state (issue 17: reading data that is not
    // there is a warning, never silent): unbound slots, strides too small, instances
    // past a buffer, index buffers missing or too short. A text slot is not bound (its
    // values come from the dump's text), and the per-vertex reads of a binary slot are
    // counted by the builder over the vertices actually exported, so those are left to it.
    let report = crate::assembler::validate::validate_draw(&ia, &input.draw)
        .map_err(|e| MeshError::Draw(e.to_string()))?;
    // Before anything is allocated for the draw's vertices.
    if let Some(why) = report.refusal(options.max_zero_vertices) {
        return Err(MeshError::TooLarge(why));
    }
    for w in &report.warnings {
        let source = w
            .slot
            .and_then(|slot| input.slots.iter().find(|s| s.slot == slot));
        let per_vertex = w.slot.is_some_and(|slot| {
            elements
                .iter()
                .any(|e| e.slot == slot && e.class == InputClass::PerVertex)
        });
        let covered = match (w.check, source.map(|s| &s.data)) {
            (_, Some(SlotSource::Text(_))) => true,
            (DrawCheck::VertexBufferTooSmall | DrawCheck::IndexPastVertexData, Some(_)) => {
                per_vertex
            }
            _ => false,
        };
        if !covered {
            warnings.push(w.to_string());
        }
    }
    Ok((ia, report.indices))
}

/// The primitive kind a topology exports as, and which vertices of each primitive it keeps
/// (empty: the first [`Mode::vertices`], or every vertex for points).
fn mode_of(topology: Topology, options: &MeshOptions) -> (Mode, &'static [usize]) {
    let mode = match topology {
        Topology::LineList
        | Topology::LineStrip
        | Topology::LineListAdj
        | Topology::LineStripAdj => Mode::Lines,
        Topology::TriangleList
        | Topology::TriangleStrip
        | Topology::TriangleListAdj
        | Topology::TriangleStripAdj => Mode::Triangles,
        Topology::PatchList(3) if options.patch_triangles => Mode::Triangles,
        _ => Mode::Points,
    };
    let pick: &[usize] = match topology {
        Topology::LineListAdj | Topology::LineStripAdj => &[1, 2],
        Topology::TriangleListAdj | Topology::TriangleStripAdj => &[0, 2, 4],
        Topology::PatchList(3) if options.patch_triangles => &[0, 1, 2],
        _ => &[],
    };
    (mode, pick)
}

/// How many whole vertices slot `s` holds for the elements `slot_elements` (`u64::MAX` for
/// a stride of 0 whose one record is there).
fn held_vertices(
    s: &InputSlot<'_>,
    data: &[u8],
    slot_elements: &[usize],
    elements: &[LayoutElement],
) -> u64 {
    let extent = slot_elements
        .iter()
        .map(|&e| elements[e].end())
        .max()
        .unwrap_or(0);
    if s.stride == 0 {
        if (s.offset as u64 + extent) <= data.len() as u64 {
            u64::MAX
        } else {
            0
        }
    } else {
        let avail = (data.len() as u64).saturating_sub(s.offset as u64);
        if avail >= extent {
            (avail - extent) / s.stride as u64 + 1
        } else {
            0
        }
    }
}

/// The warning for `count` mesh vertices of `file` past its `held` whole vertices.
fn past_warning(file: &str, count: u64, held: u64, first: u32) -> String {
    format!(
        "{file}: {count} of the draw's vertices read past the buffer's {} whole vertices \
         (first: element number {first}); they read as zero, as the input \
         assembler reads out-of-bounds data (spec §8.19.2)",
        held.min(u32::MAX as u64)
    )
}

/// Element `e`'s lanes for instance `id` (per-instance elements): from a text slot's values,
/// else fetched.
fn instance_value(
    plan: &FetchPlan<'_>,
    elements: &[LayoutElement],
    input: &MeshInput<'_>,
    start_instance: u32,
    e: usize,
    id: u32,
) -> [u32; 4] {
    let le = &elements[e];
    let slot = input.slots.iter().find(|s| s.slot == le.slot);
    let number = Instance {
        id,
        start: start_instance,
    }
    .element_index(le.step_rate);
    match slot.map(|s| s.data) {
        Some(SlotSource::Text(t)) => t.get(e, number).unwrap_or_else(|| {
            le.format
                .info()
                .map_or([0; 4], crate::convert::out_of_bounds)
        }),
        _ => {
            let mut outs: Vec<Vec<[u32; 4]>> = vec![vec![[0u32; 4]; 1]; elements.len()];
            {
                let mut refs: Vec<&mut [[u32; 4]]> =
                    outs.iter_mut().map(|v| v.as_mut_slice()).collect();
                let _ = plan.fetch_elements(
                    Vertices::Range { first: 0, count: 1 },
                    Instance {
                        id,
                        start: start_instance,
                    },
                    &mut refs,
                );
            }
            outs[e][0]
        }
    }
}

/// The mesh's attributes (per vertex, and per instance) in layout order, named by the
/// input's remapped names or the elements' own, with the values `values(e, per_vertex)`
/// gives (`per_vertex`: a per-instance element exported as a vertex attribute).
fn attributes_of(
    input: &MeshInput<'_>,
    elements: &[LayoutElement],
    instances: Instances,
    mut values: impl FnMut(usize, bool) -> Vec<[u32; 4]>,
) -> (Vec<Attribute>, Vec<Attribute>) {
    let mut attributes = Vec::new();
    let mut instance_attributes = Vec::new();
    for (e, le) in elements.iter().enumerate() {
        let (semantic, semantic_index) = input
            .names
            .get(e)
            .cloned()
            .flatten()
            .unwrap_or_else(|| (le.semantic_name.clone(), le.semantic_index));
        let per_vertex = le.class == InputClass::PerVertex || instances == Instances::First;
        let a = Attribute {
            element: e,
            semantic,
            semantic_index,
            format: le.format,
            values: values(e, per_vertex),
        };
        if per_vertex {
            attributes.push(a);
        } else {
            instance_attributes.push(a);
        }
    }
    (attributes, instance_attributes)
}

/// Instance 0 of a draw, step by step through the primitive assembler: the element number
/// of each position, and each primitive's element numbers (the `pick`ed vertices of
/// adjacency primitives, or the mode's first vertices).
fn step_walk(
    draw: &crate::assembler::PreparedDraw<'_>,
    topology: Topology,
    mode: Mode,
    pick: &[usize],
) -> (Vec<u32>, Vec<u32>) {
    let mut elems: Vec<u32> = Vec::with_capacity(draw.params().count as usize);
    let mut prims: Vec<u32> = Vec::new();
    let mut pa = PrimitiveAssembler::new(topology);
    let emit = |p: crate::assembler::Primitive, elems: &[u32], prims: &mut Vec<u32>| {
        let v = p.vertices();
        if pick.is_empty() {
            if mode == Mode::Points {
                prims.extend(v.iter().map(|&q| elems[q as usize]));
            } else {
                prims.extend(v.iter().take(mode.vertices()).map(|&q| elems[q as usize]));
            }
        } else {
            prims.extend(pick.iter().map(|&k| elems[v[k] as usize]));
        }
    };
    for step in draw.walk() {
        if step.instance_id() != 0 {
            break;
        }
        if let WalkStep::Vertex { vertex_index, .. } = step {
            elems.push(vertex_index);
        }
        for p in pa.step(&step).into_iter().flatten() {
            emit(p, &elems, &mut prims);
        }
    }
    if let Some(p) = pa.finish() {
        emit(p, &elems, &mut prims);
    }
    (elems, prims)
}

/// Instance 0 of a list draw without cuts, a batch at a time: the element number of each
/// position, and how many of them make the primitives (consecutive groups of the mode's
/// vertex count, an incomplete last group dropped — the primitive assembler's list rule,
/// ia-semantics §5).
/// `None` for strips, adjacency and patches, and for a draw whose indices hold a cut value
/// (then the step-by-step walk, which ends primitives at cuts, runs instead).
fn list_walk(
    draw: &crate::assembler::PreparedDraw<'_>,
    topology: Topology,
    mode: Mode,
) -> Option<(Vec<u32>, usize)> {
    if !matches!(
        topology,
        Topology::PointList | Topology::LineList | Topology::TriangleList
    ) {
        return None;
    }
    let elems = batch_positions(draw, topology, mode)?;
    let per = mode.vertices();
    let whole = elems.len() - elems.len() % per;
    Some((elems, whole))
}

/// The element number of each position of instance 0, read a batch at a time; `None` for a
/// draw whose indices hold a cut value.
fn batch_positions(
    draw: &crate::assembler::PreparedDraw<'_>,
    topology: Topology,
    mode: Mode,
) -> Option<Vec<u32>> {
    let count = draw.params().count as usize;
    let mut elems: Vec<u32> = Vec::with_capacity(count);
    streamed::walk(
        draw,
        topology,
        mode,
        &[],
        true,
        count.clamp(1, 1 << 16),
        &mut |e| elems.extend_from_slice(e),
        &mut |_| {},
    )?;
    Some(elems)
}

/// Instance 0 of a line or triangle strip draw without cuts, a batch at a time: the element
/// number of each position and the primitives' element numbers, as [`step_walk`] gives them
/// (primitive k of a line strip is positions k, k + 1; of a triangle strip the primitive
/// assembler's own `tri_strip(k)`). `None` for other topologies and for a draw whose indices
/// hold a cut value.
fn strip_walk(
    draw: &crate::assembler::PreparedDraw<'_>,
    topology: Topology,
    mode: Mode,
) -> Option<(Vec<u32>, Vec<u32>)> {
    let per = match (topology, mode) {
        (Topology::LineStrip, Mode::Lines) => 2,
        (Topology::TriangleStrip, Mode::Triangles) => 3,
        _ => return None,
    };
    let elems = batch_positions(draw, topology, mode)?;
    let primitives = elems.len().saturating_sub(per - 1);
    let mut prims: Vec<u32> = Vec::with_capacity(primitives * per);
    if per == 2 {
        for w in elems.windows(2) {
            prims.extend_from_slice(&[w[0], w[1]]);
        }
    } else {
        for k in 0..primitives {
            prims.extend(tri_strip(k as u64).map(|p| elems[p as usize]));
        }
    }
    Some((elems, prims))
}

/// The [`MeshInput`] of a capture.
pub fn input_of(capture: &Capture) -> MeshInput<'_> {
    MeshInput {
        elements: &capture.elements,
        names: capture.remapped.clone(),
        slots: capture
            .slots
            .iter()
            .map(|s| InputSlot {
                slot: s.slot,
                stride: s.stride,
                offset: s.offset,
                data: match &s.data {
                    SlotData::Binary(b) => SlotSource::Binary(b),
                    SlotData::Text(t) => SlotSource::Text(t),
                },
                file: s.source.to_str().unwrap_or("?"),
            })
            .collect(),
        index: capture.index.as_ref().map(|i| {
            (
                IndexBufferBinding {
                    data: &i.data,
                    format: i.format,
                    offset: i.offset,
                },
                i.source.to_str().unwrap_or("?"),
            )
        }),
        topology: capture.topology,
        draw: capture.draw_call(),
        files: capture
            .sources
            .iter()
            .map(|p| p.display().to_string())
            .collect(),
    }
}

/// The file kinds [`export`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// Binary glTF.
    Glb,
    /// glTF JSON with a `.bin` beside it.
    Gltf,
    /// Wavefront OBJ.
    Obj,
    /// Stanford PLY (binary little-endian).
    Ply,
}

impl FileKind {
    /// The kind a file name's extension names.
    pub fn from_path(path: &std::path::Path) -> Option<FileKind> {
        match path.extension()?.to_str()?.to_ascii_lowercase().as_str() {
            "glb" => Some(FileKind::Glb),
            "gltf" => Some(FileKind::Gltf),
            "obj" => Some(FileKind::Obj),
            "ply" => Some(FileKind::Ply),
            _ => None,
        }
    }
}

impl fmt::Display for FileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FileKind::Glb => "glb",
            FileKind::Gltf => "gltf",
            FileKind::Obj => "obj",
            FileKind::Ply => "ply",
        })
    }
}

/// Writes `mesh` to `path` in the format its extension names (`.glb`, `.gltf` with a `.bin`
/// beside it, `.obj`, `.ply`). Files are written directly; the command line adds temporary
/// files and overwrite protection on top. Returns the writer's warnings (NaN and infinite
/// values written as 0); the builder's are in [`Mesh::warnings`].
pub fn export(mesh: &Mesh, path: &std::path::Path) -> std::io::Result<Vec<String>> {
    use std::io::{BufWriter, Error, ErrorKind, Write};
    let kind = FileKind::from_path(path).ok_or_else(|| {
        Error::new(
            ErrorKind::InvalidInput,
            format!(
                "{}: the extension must be .glb, .gltf, .obj or .ply",
                path.display()
            ),
        )
    })?;
    let mut out = BufWriter::new(std::fs::File::create(path)?);
    let warnings = match kind {
        FileKind::Glb => gltf::write_glb(mesh, &mut out)?,
        FileKind::Gltf => {
            let bin = path.with_extension("bin");
            let uri = bin
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("mesh.bin")
                .to_string();
            let mut b = BufWriter::new(std::fs::File::create(&bin)?);
            let warnings = gltf::write_gltf(mesh, &mut out, &mut b, &uri)?;
            b.flush()?;
            warnings
        }
        FileKind::Obj => obj::write_obj(mesh, &mut out)?,
        FileKind::Ply => ply::write_ply(mesh, &mut out)?,
    };
    out.flush()?;
    Ok(warnings)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A layout of one R32_FLOAT element, for the walk tests.
    fn one_float_layout() -> InputLayout {
        crate::validation::layout_without_shader(
            &Target::default(),
            &[InputElementDesc::per_vertex(
                "P",
                0,
                Format::R32_FLOAT,
                0,
                0,
            )],
        )
        .layout
        .expect("layout")
    }

    /// An input assembler with `vb` in slot 0 (stride 4), `index` and `topology` set.
    fn bound<'l>(
        layout: &'l InputLayout,
        vb: &'l [u8],
        index: Option<IndexBufferBinding<'l>>,
        topology: Topology,
    ) -> InputAssembler<'l> {
        let mut ia = InputAssembler::new(layout, Target::default());
        ia.set_vertex_buffer(
            0,
            Some(VertexBufferBinding {
                data: vb,
                stride: 4,
                offset: 0,
            }),
        )
        .unwrap();
        ia.set_index_buffer(index).unwrap();
        ia.set_topology(topology).unwrap();
        ia
    }

    /// The batch walk of list draws gives what the step-by-step walk through the primitive
    /// assembler gives (the oracle), for indexed (16/32-bit, base vertex ±, index values
    /// past the buffer, a start index) and non-indexed draws (start vertex, an incomplete
    /// last primitive), several instances; and it declines strips and cuts.
    #[test]
    fn list_walk_matches_the_step_walk() {
        let layout = one_float_layout();
        let vb = [0u8; 64];
        let i16: Vec<u8> = [5u16, 0, 7, 3, 3, 9, 1000, 2, 4, 6, 8]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let i32b: Vec<u8> = [5u32, 0, 7, 3, 0xffff, 9, 1 << 20, 2, 4, 6]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let cut16: Vec<u8> = [1u16, 2, 0xffff, 3, 4, 5]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let ib = |data, format| IndexBufferBinding {
            data,
            format,
            offset: 0,
        };
        let cases: Vec<(Topology, Option<IndexBufferBinding<'_>>, DrawCall<'_>)> = vec![
            (
                Topology::TriangleList,
                None,
                DrawCall::DrawInstanced {
                    vertex_count_per_instance: 11,
                    instance_count: 3,
                    start_vertex: 7,
                    start_instance: 2,
                },
            ),
            (
                Topology::LineList,
                Some(ib(&i16[..], IndexFormat::R16Uint)),
                DrawCall::DrawIndexed {
                    index_count: 11,
                    start_index: 1,
                    base_vertex: -3,
                },
            ),
            (
                Topology::TriangleList,
                Some(ib(&i32b[..], IndexFormat::R32Uint)),
                DrawCall::DrawIndexedInstanced {
                    index_count_per_instance: 14,
                    instance_count: 2,
                    start_index: 0,
                    base_vertex: 4,
                    start_instance: 0,
                },
            ),
            (
                Topology::PointList,
                Some(ib(&i16[..], IndexFormat::R16Uint)),
                DrawCall::DrawIndexed {
                    index_count: 9,
                    start_index: 2,
                    base_vertex: i32::MAX,
                },
            ),
        ];
        for (topology, index, call) in cases {
            let ia = bound(&layout, &vb, index, topology);
            let draw = ia.draw(&call).unwrap();
            let mode = match topology {
                Topology::LineList => Mode::Lines,
                Topology::TriangleList => Mode::Triangles,
                _ => Mode::Points,
            };
            let (elems, whole) = list_walk(&draw, topology, mode).expect("a list without cuts");
            let fast = (elems.clone(), elems[..whole].to_vec());
            assert_eq!(
                fast,
                step_walk(&draw, topology, mode, &[]),
                "{topology:?} {call:?}"
            );
            assert!(!fast.0.is_empty());
        }
        // Cuts and strips go the step-by-step way.
        let mut ia = InputAssembler::new(&layout, Target::default());
        ia.set_index_buffer(Some(ib(&cut16[..], IndexFormat::R16Uint)))
            .unwrap();
        ia.set_topology(Topology::TriangleList).unwrap();
        let call = DrawCall::DrawIndexed {
            index_count: 6,
            start_index: 0,
            base_vertex: 0,
        };
        let draw = ia.draw(&call).unwrap();
        assert_eq!(
            list_walk(&draw, Topology::TriangleList, Mode::Triangles),
            None
        );
        ia.set_topology(Topology::TriangleStrip).unwrap();
        let draw = ia.draw(&call).unwrap();
        assert_eq!(
            list_walk(&draw, Topology::TriangleStrip, Mode::Triangles),
            None
        );
    }

    /// The batch walk of strips gives what the step-by-step walk through the primitive
    /// assembler gives (the oracle): line and triangle strips of every length up to 9
    /// positions, non-indexed (start vertex, instances) and indexed (16/32-bit, base vertex ±,
    /// a start index, a 32-bit 0xffff that is no cut); it declines cuts, lists and adjacency.
    #[test]
    fn strip_walk_matches_the_step_walk() {
        let layout = one_float_layout();
        let vb = [0u8; 64];
        let bytes16 = |v: &[u16]| -> Vec<u8> { v.iter().flat_map(|x| x.to_le_bytes()).collect() };
        let i16 = bytes16(&[5, 0, 7, 3, 3, 9, 1000, 2, 4, 6, 8, 1]);
        let i32b: Vec<u8> = [5u32, 0, 7, 0xffff, 3, 9, 1 << 20, 2, 4, 6, 8, 1]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let cut16 = bytes16(&[1, 2, 3, 0xffff, 4, 5, 6]);
        let ib = |data, format| IndexBufferBinding {
            data,
            format,
            offset: 0,
        };
        let mut checked = 0;
        for (topology, mode) in [
            (Topology::TriangleStrip, Mode::Triangles),
            (Topology::LineStrip, Mode::Lines),
        ] {
            for n in 0..=9u32 {
                let cases: Vec<(Option<IndexBufferBinding<'_>>, DrawCall<'_>)> = vec![
                    (
                        None,
                        DrawCall::DrawInstanced {
                            vertex_count_per_instance: n,
                            instance_count: 3,
                            start_vertex: 7,
                            start_instance: 2,
                        },
                    ),
                    (
                        Some(ib(&i16[..], IndexFormat::R16Uint)),
                        DrawCall::DrawIndexed {
                            index_count: n.min(11),
                            start_index: 1,
                            base_vertex: -3,
                        },
                    ),
                    (
                        Some(ib(&i32b[..], IndexFormat::R32Uint)),
                        DrawCall::DrawIndexedInstanced {
                            index_count_per_instance: n,
                            instance_count: 2,
                            start_index: 0,
                            base_vertex: 4,
                            start_instance: 0,
                        },
                    ),
                ];
                for (index, call) in cases {
                    let ia = bound(&layout, &vb, index, topology);
                    let draw = ia.draw(&call).unwrap();
                    let fast = strip_walk(&draw, topology, mode).expect("a strip without cuts");
                    assert_eq!(
                        fast,
                        step_walk(&draw, topology, mode, &[]),
                        "{topology:?} {call:?}"
                    );
                    checked += usize::from(fast.1.len() >= 3);
                }
            }
        }
        assert!(checked > 20, "{checked}");
        // Cuts, lists and adjacency go other ways.
        let call = DrawCall::DrawIndexed {
            index_count: 7,
            start_index: 0,
            base_vertex: 0,
        };
        for (topology, mode, cut) in [
            (Topology::TriangleStrip, Mode::Triangles, true),
            (Topology::LineStrip, Mode::Lines, true),
            (Topology::TriangleList, Mode::Triangles, false),
            (Topology::TriangleStripAdj, Mode::Triangles, false),
            (Topology::LineStripAdj, Mode::Lines, false),
        ] {
            let mut ia = InputAssembler::new(&layout, Target::default());
            let data = if cut { &cut16[..] } else { &i16[..] };
            ia.set_index_buffer(Some(ib(data, IndexFormat::R16Uint)))
                .unwrap();
            ia.set_topology(topology).unwrap();
            let draw = ia.draw(&call).unwrap();
            assert_eq!(strip_walk(&draw, topology, mode), None, "{topology:?}");
        }
    }
}
