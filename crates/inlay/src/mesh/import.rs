//! Import: a mesh read back from glTF ([`super::gltf::ImportedMesh`]) written as vertex and
//! index buffers in a game's layout, through the encoder ([`crate::encode`]).
//!
//! Each layout element has up to two sources per vertex:
//! - its **exact lanes**: the custom attributes `meshes[0].extras.inlay` names for it
//!   (`_NAME_X`, `_NAME_Y`, … and `_NAME_X_HI` … for integers past 2^24; found by those
//!   names, and the older `_NAME` VEC4 form, when the extras are gone), or the standard
//!   attribute itself when the export found it exact; or, when the glTF carries neither
//!   (a tool's default export drops custom attributes and extras), the values of the
//!   original capture's vertex it matches ([`import_with_original`]);
//! - its **standard attribute** (POSITION, NORMAL, TANGENT, TEXCOORD_n, COLOR_n,
//!   JOINTS_n/WEIGHTS_n; names compared case-insensitively): what an editor shows and
//!   changes.
//!
//! A vertex takes the exact lanes unless its standard attribute was edited: unless the
//! standard value differs from what the export wrote for the exact lanes by more than the
//! tools' transport changes ([`Transport`]: Blender re-encodes normals, stores colours as
//! 8-bit sRGB and flips v). An edited vertex takes the lanes the standard attribute holds
//! from it and the others (NORMAL.w, a colour's fourth lane) from the exact lanes. Blend
//! indices and weights are compared as one set of (blend index, weight) influences per
//! vertex over every set, since tools sort influences by weight; the skin's joint names
//! give the blend indices (`inlay export` names them so).
//!
//! An element a vertex has no value for is an error ([`ImportError::Missing`], naming the
//! element and the vertices), unless [`ImportOptions::defaults`] gives its value or
//! [`ImportOptions::allow_missing`] lets it be zero, with a warning saying how many
//! vertices took it.
//!
//! Mesh vertex `k` is written as element number `vertex_base + k`, where `vertex_base` is
//! the element the export's mesh started at (`extras.inlay.vertex_base`, when the extras
//! describe the same layout and the export did not compact the vertices; 0 otherwise, or
//! with [`ImportOptions::rebase`]): a capture whose draw starts past element 0 comes back at
//! the same element numbers, the records before it written as padding with a warning (at
//! most [`ImportOptions::max_padding`] of them). When every vertex matched a distinct vertex
//! of the original capture and every original vertex was matched, each is written at its
//! original element number (a tool that reordered the vertices gives the capture's order
//! back). The index buffer holds element numbers as a triangle, line or point list, in the
//! extras' index format when the indices fit it, else R16_UINT when they fit, else
//! R32_UINT. Per-instance elements take their values from the node's
//! `EXT_mesh_gpu_instancing` attributes, else from vertex 0 of a constant vertex attribute
//! (an export with `--instances first`).

use std::collections::HashMap;

use super::gltf::ImportedMesh;
use super::gltf::schema::{ExtrasAttribute, InlayExtras};
use super::gltf::stats::{Conv, float_value};
use super::{Attribute, Mesh};
use crate::assembler::Topology;
use crate::buffer::IndexFormat;
use crate::encode::{Rounding, VertexWriter, WriterOptions};
use crate::format::Kind;
use crate::layout::{InputClass, InputLayout, LayoutElement};

/// Options of [`import`].
#[derive(Clone, Debug)]
pub struct ImportOptions {
    /// Rounding of values into narrower formats.
    pub rounding: Rounding,
    /// Strides per slot (`(slot, stride)`); slots not listed use the extras' stride when the
    /// extras describe this layout, else the layout's smallest stride.
    pub strides: Vec<(u32, u32)>,
    /// Write mesh vertex 0 as element 0 even when the export started at a later element
    /// (`extras.inlay.vertex_base`): a compact buffer for an edited mesh instead of the
    /// capture's element numbering.
    pub rebase: bool,
    /// Values for elements the mesh gives no value for: element name (`TANGENT0`, or
    /// `TANGENT` for index 0; case-insensitive) and its lanes as numbers (floats for float
    /// and normalised formats, whole numbers for integer formats; lanes not given are 0,
    /// the fourth 1).
    pub defaults: Vec<(String, Vec<f64>)>,
    /// Write zeros for elements the mesh gives no value for (with a warning) instead of
    /// failing.
    pub allow_missing: bool,
    /// The most records before the mesh's first vertex (`vertex_base`) written as padding:
    /// a larger base is refused (memory bounded by what was read, not by what a file asks).
    pub max_padding: u64,
}

impl Default for ImportOptions {
    fn default() -> ImportOptions {
        ImportOptions {
            rounding: Rounding::default(),
            strides: Vec::new(),
            rebase: false,
            defaults: Vec::new(),
            allow_missing: false,
            max_padding: crate::assembler::validate::DEFAULT_MAX_ZERO_VERTICES,
        }
    }
}

/// One written vertex buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportedBuffer {
    /// Slot.
    pub slot: u32,
    /// Stride.
    pub stride: u32,
    /// Bytes.
    pub data: Vec<u8>,
}

/// What [`import`] wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Imported {
    /// Vertex buffers, one per used slot in increasing slot order.
    pub buffers: Vec<ImportedBuffer>,
    /// Index format and bytes.
    pub index: (IndexFormat, Vec<u8>),
    /// The topology of the index buffer.
    pub topology: Topology,
    /// The draw to issue, as `--draw` spells it.
    pub draw: String,
    /// Per element: where its values came from, and for how many vertices.
    pub sources: Vec<String>,
    /// Doubts, each naming the element and how many vertices it touched.
    pub warnings: Vec<String>,
}

/// An element the mesh gives some vertices no value for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MissingElement {
    /// Index in the layout.
    pub element: usize,
    /// Its name (`TANGENT0`).
    pub name: String,
    /// The lanes without a value: empty for the whole element, else their letters (`w`
    /// when the standard attribute holds x, y, z of a four-component element).
    pub lanes: String,
    /// Vertices (or instances) without a value.
    pub missing: u64,
    /// Vertices (or instances) written.
    pub of: u64,
    /// The attributes looked for.
    pub looked_for: Vec<String>,
}

/// Why an import failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    /// Elements the mesh gives no value for, without a default or
    /// [`ImportOptions::allow_missing`].
    #[error("{}", missing_message(.0))]
    Missing(Vec<MissingElement>),
    /// Anything else: the message says what.
    #[error("{0}")]
    Other(String),
}

fn missing_message(list: &[MissingElement]) -> String {
    let items: Vec<String> = list
        .iter()
        .map(|m| {
            let what = if m.lanes.is_empty() {
                String::new()
            } else {
                format!("lanes {} in ", m.lanes)
            };
            format!(
                "element {} ({}): no value for {what}{} of {} vertices (looked for {})",
                m.element,
                m.name,
                m.missing,
                m.of,
                m.looked_for.join(", ")
            )
        })
        .collect();
    format!(
        "{}; give a value with --default NAME=x,y,z,w, or --allow-missing to write zeros (in Blender's glTF export, tick Include › Custom Properties and Data › Mesh › Attributes to keep inlay's exact copies)",
        items.join("; ")
    )
}

fn other(message: impl Into<String>) -> ImportError {
    ImportError::Other(message.into())
}

/// The element's name as messages and `--default` spell it: `TANGENT0`.
fn element_name(e: &LayoutElement) -> String {
    format!("{}{}", e.semantic_name, e.semantic_index)
}

fn extras_layout_matches(x: &InlayExtras, layout: &[LayoutElement]) -> bool {
    x.layout.len() == layout.len()
        && x.layout.iter().zip(layout).all(|(j, e)| {
            j.semantic == e.semantic_name
                && j.index == e.semantic_index
                && j.format == e.format.to_string()
                && j.slot == e.slot
                && j.offset == e.offset
        })
}

/// The standard attribute a semantic maps to when there are no extras.
fn standard_name(e: &LayoutElement) -> Option<String> {
    let s = e.semantic_name.to_ascii_uppercase();
    let n = e.semantic_index;
    Some(match s.as_str() {
        "POSITION" | "NORMAL" | "TANGENT" if n == 0 => s,
        "TEXCOORD" => format!("TEXCOORD_{n}"),
        "COLOR" => format!("COLOR_{n}"),
        "BLENDINDICES" => format!("JOINTS_{n}"),
        "BLENDWEIGHT" | "BLENDWEIGHTS" => format!("WEIGHTS_{n}"),
        _ => return None,
    })
}

/// What the tools that carry a standard attribute may change in it without an edit: the
/// tolerance within which a standard value still counts as the exact lanes' (glTF-Blender-IO
/// 4.2: custom normals re-encoded, colours stored as 8-bit sRGB, v flipped, −0 made +0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transport {
    /// Bit for bit, except −0 = +0 (POSITION).
    Exact,
    /// Each component within 0.05 (NORMAL, TANGENT xyz; TANGENT w by sign): Blender keeps
    /// custom normals relative to the faces around a vertex and bends those that lean
    /// further than the faces allow (0.022 per component seen on a RenderDoc capture).
    Direction,
    /// Within 2⁻²² × max(1, |v|) (TEXCOORD: `1 − (1 − v)`).
    Coordinate,
    /// Within 1/255 once clamped to 0…1 and sRGB-encoded (COLOR: 8-bit sRGB storage).
    Colour,
}

/// A standard attribute's role: its conversion, lanes and transport.
#[derive(Clone, Copy, Debug)]
struct StdRole {
    conv: Conv,
    lanes: usize,
    transport: Transport,
}

fn std_role(name: &str, element_comps: usize) -> Option<StdRole> {
    let role = |conv, lanes, transport| {
        Some(StdRole {
            conv,
            lanes,
            transport,
        })
    };
    match name {
        "POSITION" => role(Conv::Keep, 3, Transport::Exact),
        "NORMAL" => role(Conv::Normal, 3, Transport::Direction),
        "TANGENT" => role(Conv::Tangent, 4, Transport::Direction),
        _ if name.starts_with("TEXCOORD_") => role(Conv::Keep, 2, Transport::Coordinate),
        _ if name.starts_with("COLOR_") => {
            role(Conv::Keep, element_comps.min(4), Transport::Colour)
        }
        _ => None,
    }
}

fn srgb(x: f32) -> f32 {
    let x = x.clamp(0.0, 1.0);
    if x <= 0.003_130_8 {
        x * 12.92
    } else {
        1.055 * x.powf(1.0 / 2.4) - 0.055
    }
}

/// Whether standard value `got` is the exported `want` as `transport` carries it
/// (`lanes` compared; TANGENT's w by sign).
fn same_within(transport: Transport, lanes: usize, want: &[f32; 4], got: &[f32; 4]) -> bool {
    (0..lanes).all(|l| {
        let (a, b) = (want[l], got[l]);
        match transport {
            Transport::Exact => a.to_bits() == b.to_bits() || (a == 0.0 && b == 0.0),
            Transport::Direction if l == 3 => (a < 0.0) == (b < 0.0),
            Transport::Direction => (a - b).abs() <= 0.05,
            Transport::Coordinate => (a - b).abs() <= a.abs().max(1.0) * (1.0 / 4_194_304.0),
            Transport::Colour => (srgb(a) - srgb(b)).abs() <= 1.0 / 255.0 + 1e-6,
        }
    })
}

/// A standard attribute's lanes as floats.
fn std_floats(v: &[u32; 4], float: bool) -> [f32; 4] {
    v.map(|x| {
        if float {
            f32::from_bits(x)
        } else {
            x as i32 as f32
        }
    })
}

/// Lanes for an element of `kind` from an attribute's lanes (`float`: the attribute holds
/// floats). Returns the lanes and whether a float had to be rounded to an integer.
fn convert(v: [u32; 4], float: bool, kind: Kind) -> ([u32; 4], bool) {
    let mut out = v;
    let mut rounded = false;
    for l in &mut out {
        match (float, kind) {
            (true, Kind::Uint) => {
                let f = f32::from_bits(*l);
                let r = f.round().clamp(0.0, u32::MAX as f32);
                rounded |= r != f;
                *l = r as u32;
            }
            (true, Kind::Sint) => {
                let f = f32::from_bits(*l);
                let r = f.round().clamp(i32::MIN as f32, i32::MAX as f32);
                rounded |= r != f;
                *l = r as i32 as u32;
            }
            (false, Kind::Uint | Kind::Sint) => {}
            (false, _) => *l = (*l as i32 as f32).to_bits(),
            (true, _) => {}
        }
    }
    (out, rounded)
}

/// One attribute of an [`ImportedMesh`]: name, lanes, whether they are floats.
type MeshAttr = (String, Vec<[u32; 4]>, bool);

/// An element's standard attribute: its name and the mesh's attribute.
type StdAttr<'m> = Option<(String, &'m MeshAttr)>;

/// A standard attribute the original capture's vertices are compared on: the original
/// attribute, the mesh's lanes, whether they are floats, the role.
struct Check<'a> {
    original: &'a Attribute,
    lanes: &'a [[u32; 4]],
    float: bool,
    role: StdRole,
}

/// The exact lanes an element has in the mesh: per vertex, in the element's domain (float
/// bits for float-like formats, integers for integer ones).
struct ExactLanes {
    /// Where they come from, for the report.
    source: String,
    values: Vec<[u32; 4]>,
    /// Values that were not whole numbers where the format holds integers.
    rounded: u64,
}

/// The attribute `name` of `mesh` (case-insensitive).
fn find<'m>(
    list: &'m [(String, Vec<[u32; 4]>, bool)],
    name: &str,
) -> Option<&'m (String, Vec<[u32; 4]>, bool)> {
    list.iter().find(|a| a.0.eq_ignore_ascii_case(name))
}

/// Exact lanes from per-component SCALAR copies (`lanes`), with `high` halves.
fn lanes_from_copies(
    list: &[(String, Vec<[u32; 4]>, bool)],
    lanes: &[String],
    high: &[String],
    kind: Kind,
    count: usize,
) -> Option<ExactLanes> {
    let low: Vec<_> = lanes.iter().map(|n| find(list, n)).collect::<Option<_>>()?;
    let hi: Option<Vec<_>> = if high.is_empty() {
        None
    } else {
        Some(high.iter().map(|n| find(list, n)).collect::<Option<_>>()?)
    };
    let whole = |x: u32, f: bool| {
        if f {
            f32::from_bits(x) as i64
        } else {
            x as i32 as i64
        }
    };
    let mut values = vec![[0u32; 4]; count];
    let mut rounded = 0;
    for (k, v) in values.iter_mut().enumerate() {
        let mut any_rounded = false;
        for (l, (_, vals, float)) in low.iter().enumerate() {
            let x = vals.get(k).map_or(0, |x| x[0]);
            v[l] = match &hi {
                Some(h) => {
                    let (_, hv, hf) = h[l];
                    let hx = hv.get(k).map_or(0, |x| x[0]);
                    ((whole(x, *float) as u32) & 0xffff) | ((whole(hx, *hf) as u32) << 16)
                }
                None => {
                    let (lane, r) = convert([x, 0, 0, 0], *float, kind);
                    any_rounded |= r;
                    lane[0]
                }
            };
        }
        rounded += any_rounded as u64;
    }
    let mut source = lanes.join(", ");
    if !high.is_empty() {
        source.push_str(" (+ high halves)");
    }
    Some(ExactLanes {
        source,
        values,
        rounded,
    })
}

/// The older form of an exact copy: one VEC4 `_NAME` (and `_NAME_HI`).
fn lanes_from_vec4(
    list: &[(String, Vec<[u32; 4]>, bool)],
    name: &str,
    kind: Kind,
    count: usize,
) -> Option<ExactLanes> {
    let (_, vals, float) = find(list, name)?;
    let hi = find(list, &format!("{name}_HI"));
    let whole = |x: u32, f: bool| if f { f32::from_bits(x) as u32 } else { x };
    let mut rounded = 0;
    let values = (0..count)
        .map(|k| {
            let v = vals.get(k).copied().unwrap_or([0; 4]);
            match hi {
                Some((_, hv, hf)) => {
                    let h = hv.get(k).copied().unwrap_or([0; 4]);
                    std::array::from_fn(|l| {
                        (whole(v[l], *float) & 0xffff) | (whole(h[l], *hf) << 16)
                    })
                }
                None => {
                    let (lanes, r) = convert(v, *float, kind);
                    rounded += r as u64;
                    lanes
                }
            }
        })
        .collect();
    Some(ExactLanes {
        source: name.to_string(),
        values,
        rounded,
    })
}

/// The original capture's vertices as the mesh's: for each mesh vertex, the original
/// vertex it is (see [`match_original`]).
struct Identity {
    of: Vec<Option<usize>>,
}

/// Writes `mesh` in `layout` (see the module notes).
pub fn import(
    mesh: &ImportedMesh,
    layout: &InputLayout,
    options: &ImportOptions,
) -> Result<Imported, ImportError> {
    import_with_original(mesh, layout, options, None)
}

/// [`import`], with the mesh of the capture it was exported from (the capture `--layout`
/// names: an importer `.fmt` with its buffers, a 3DMigoto dump): where the glTF carries no
/// exact copies (a tool's default export dropped them), the exact lanes are those of the
/// original vertex each mesh vertex matches — the vertex at the same index when the vertex
/// counts agree and every vertex's standard attributes other than POSITION match it (so a
/// moved vertex keeps its identity), else an original vertex with the same POSITION whose
/// other standard attributes match. `original` must have been built from the same layout;
/// it is ignored otherwise.
pub fn import_with_original(
    mesh: &ImportedMesh,
    layout: &InputLayout,
    options: &ImportOptions,
    original: Option<&Mesh>,
) -> Result<Imported, ImportError> {
    let elements = super::layout_elements(layout);
    let original = original.filter(|o| {
        o.layout.len() == elements.len()
            && o.layout.iter().zip(elements).all(|(a, b)| {
                a.semantic_name == b.semantic_name
                    && a.semantic_index == b.semantic_index
                    && a.format == b.format
                    && a.slot == b.slot
                    && a.offset == b.offset
            })
    });
    let original_extras = original.map(super::gltf::extras_of);
    let extras: Option<&InlayExtras> = mesh
        .inlay
        .as_ref()
        .or(original_extras.as_ref())
        .filter(|x| extras_layout_matches(x, elements));
    let mut warnings = Vec::new();
    if let Some(why) = &mesh.inlay_problem {
        warnings.push(format!(
            "meshes[0].extras.inlay was not read ({why}): values are taken by attribute name"
        ));
    }
    let mut sources = Vec::new();
    let mesh_vertices = u32::try_from(mesh.vertex_count)
        .map_err(|_| other(format!("{} vertices are too many", mesh.vertex_count)))?;
    let n = mesh.vertex_count;
    // The element number of mesh vertex 0 in the capture (module notes).
    let vertex_base = match extras {
        Some(x) if !options.rebase && !x.compacted => x.vertex_base,
        _ => 0,
    };
    if vertex_base as u64 > options.max_padding {
        return Err(other(format!(
            "the mesh starts at element {vertex_base} (extras.inlay.vertex_base): writing the {vertex_base} records before it as padding passes the bound of {} (--max-vertices); --rebase writes the mesh from element 0",
            options.max_padding
        )));
    }
    vertex_base.checked_add(mesh_vertices).ok_or_else(|| {
        other(format!(
            "extras.inlay.vertex_base {vertex_base} + {mesh_vertices} vertices pass the last element number (2^32 - 1)"
        ))
    })?;
    let has_per_vertex = layout
        .slots()
        .iter()
        .any(|s| s.class == InputClass::PerVertex);
    if vertex_base > 0 && has_per_vertex {
        warnings.push(format!(
            "every per-vertex element: the mesh starts at element {vertex_base} (the capture's first fetched vertex): elements 0..{} of the per-vertex slots were not part of the draw and are written as padding ({vertex_base} records; --rebase writes the mesh from element 0)",
            vertex_base - 1
        ));
    }
    let instance_count = mesh
        .instance_attributes
        .first()
        .map_or(1, |a| a.1.len() as u32)
        .max(1);
    // Strides: given, else the extras', else the layout's smallest.
    let mut strides: Vec<(u32, u32)> = options.strides.clone();
    for s in layout.slots() {
        if strides.iter().any(|x| x.0 == s.slot) {
            continue;
        }
        let from_extras =
            extras.and_then(|x| x.slots.iter().find(|j| j.slot == s.slot).map(|j| j.stride));
        strides.push((s.slot, from_extras.unwrap_or(s.min_stride)));
    }
    let kinds: Vec<Kind> = elements
        .iter()
        .map(|e| {
            e.format
                .info()
                .and_then(|f| f.first_kind())
                .unwrap_or(Kind::Float)
        })
        .collect();
    let mapping: Vec<Option<&ExtrasAttribute>> = (0..elements.len())
        .map(|i| extras.and_then(|x| x.attributes.iter().find(|a| a.element == i)))
        .collect();
    // Each per-vertex element's standard attribute.
    let standard: Vec<StdAttr<'_>> = elements
        .iter()
        .enumerate()
        .map(|(i, e)| {
            if e.class != InputClass::PerVertex {
                return None;
            }
            let name = match mapping[i] {
                Some(m) => m.attribute.clone()?,
                None => standard_name(e)?,
            };
            find(&mesh.attributes, &name).map(|a| (name, a))
        })
        .collect();
    let joint_of = |j: u32| -> Option<u32> {
        match &mesh.joints {
            Some(names) => names.get(j as usize).copied().flatten(),
            None => Some(j),
        }
    };
    // Exact lanes carried by the glTF.
    let mut copies_found = false;
    let mut exact: Vec<Option<ExactLanes>> = elements
        .iter()
        .enumerate()
        .map(|(i, e)| {
            if e.class != InputClass::PerVertex {
                return None;
            }
            let kind = kinds[i];
            if let Some(m) = mapping[i] {
                if !m.exact.is_empty() {
                    let x = lanes_from_copies(&mesh.attributes, &m.exact, &m.exact_high, kind, n);
                    copies_found |= x.is_some();
                    return x;
                }
                // The export found the standard attribute exact: then no lane was −0.0
                // (the export copies those), so a −0.0 is a tool's (Blender's axis
                // conversion turns +0.0 into −0.0 and back), and is +0.0.
                if let Some((name, (_, vals, float))) = &standard[i]
                    && !name.starts_with("JOINTS_")
                {
                    let mut rounded = 0;
                    let values = vals
                        .iter()
                        .map(|v| {
                            let (mut l, r) = convert(*v, *float, kind);
                            rounded += r as u64;
                            if kind.is_float_like() {
                                for x in &mut l {
                                    if *x == 0x8000_0000 {
                                        *x = 0;
                                    }
                                }
                            }
                            l
                        })
                        .collect();
                    return Some(ExactLanes {
                        source: name.clone(),
                        values,
                        rounded,
                    });
                }
                return None;
            }
            let base = custom_base(e);
            let comps = e
                .format
                .info()
                .map_or(4, |f| f.component_count())
                .clamp(1, 4);
            let lanes: Vec<String> = super::gltf::LANE_NAMES[..comps]
                .iter()
                .map(|l| format!("{base}_{l}"))
                .collect();
            let high: Vec<String> = lanes.iter().map(|l| format!("{l}_HI")).collect();
            let has_high = high.iter().all(|h| find(&mesh.attributes, h).is_some());
            let x = lanes_from_copies(
                &mesh.attributes,
                &lanes,
                if has_high { &high } else { &[] },
                kind,
                n,
            )
            .or_else(|| lanes_from_vec4(&mesh.attributes, &base, kind, n));
            copies_found |= x.is_some();
            x
        })
        .collect();
    // No exact copies in the glTF: the original capture's lanes, by vertex identity.
    let identity = match original {
        Some(o) if !copies_found => {
            let id = match_original(mesh, o, elements, &standard, &joint_of);
            for (i, e) in elements.iter().enumerate() {
                if e.class != InputClass::PerVertex {
                    continue;
                }
                let Some(a) = o.attributes.iter().find(|a| a.element == i) else {
                    exact[i] = None;
                    continue;
                };
                let matched = id.of.iter().filter(|x| x.is_some()).count();
                if matched == 0 {
                    exact[i] = None;
                    continue;
                }
                exact[i] = Some(ExactLanes {
                    source: format!(
                        "the original capture's vertex ({matched} of {n} vertices matched)"
                    ),
                    values: id
                        .of
                        .iter()
                        .map(|m| m.map_or([0; 4], |k| a.values[k]))
                        .collect(),
                    rounded: 0,
                });
            }
            Some(id)
        }
        _ => None,
    };
    let known = |k: usize| -> bool { identity.as_ref().is_none_or(|id| id.of[k].is_some()) };
    // Blend influences: edited or not, per vertex, over every set.
    let skin = skin_sets(elements, &kinds);
    let skin_std = skin_standard(&skin, &standard);
    let skin_edited: Vec<Option<bool>> = (0..n)
        .map(|k| {
            if !known(k) || skin_std.is_empty() {
                return None;
            }
            let mut sets = Vec::new();
            for &(bi, bw) in &skin {
                let (Some(ei), Some(ew)) = (&exact[bi], &exact[bw]) else {
                    return None;
                };
                sets.push((
                    ei.values[k],
                    ew.values[k],
                    comps_of(&elements[bi]).min(comps_of(&elements[bw])),
                    kinds[bw],
                ));
            }
            let got = std_influences(&skin_std, k, &joint_of)?;
            Some(!same_influences(&influences(&sets), &got))
        })
        .collect();
    // Each per-vertex element's lanes per mesh vertex.
    let mut rows: Vec<Vec<[u32; 4]>> = vec![Vec::new(); elements.len()];
    let mut missing_list = Vec::new();
    let mut element_sources: Vec<String> = vec![String::new(); elements.len()];
    for (i, e) in elements.iter().enumerate() {
        let kind = kinds[i];
        let label = format!("element {i} ({})", element_name(e));
        let default = default_for(options, e, kind).map_err(|m| other(format!("{label}: {m}")))?;
        if e.class != InputClass::PerVertex {
            continue;
        }
        let mut out = Vec::with_capacity(n);
        let std = standard[i].as_ref();
        let comps = e.format.info().map_or(4, |f| f.component_count());
        let role = std.and_then(|(name, _)| std_role(name, comps));
        let in_skin = skin.iter().any(|&(a, b)| a == i || b == i);
        let (mut from_exact, mut from_std, mut edited, mut missing, mut rounded) =
            (0u64, 0u64, 0u64, 0u64, 0u64);
        let mut unknown_joints = 0u64;
        // Vertices whose standard attribute holds only the first `held` lanes, with no exact
        // lanes for the rest.
        let held = role.map_or(4, |r| r.lanes).min(comps);
        let mut partial = 0u64;
        for k in 0..n {
            let ex = exact[i].as_ref().filter(|_| known(k)).map(|x| x.values[k]);
            let st = std.map(|(_, (_, v, f))| (v[k], *f));
            // Whether the standard attribute was edited at this vertex.
            let changed = match (ex, st, role) {
                (Some(x), Some((s, f)), Some(r)) => {
                    let want = float_value(&x, r.lanes, kind, r.conv).0;
                    !same_within(r.transport, r.lanes, &want, &std_floats(&s, f))
                }
                _ if in_skin => skin_edited[k].unwrap_or(false),
                _ => false,
            };
            let lanes = match (ex, st) {
                (Some(x), _) if !changed => {
                    from_exact += 1;
                    x
                }
                (_, Some((s, f))) => {
                    from_std += 1;
                    edited += (ex.is_some()) as u64;
                    let s = if std.is_some_and(|(name, _)| name.starts_with("JOINTS_")) {
                        let out = s.map(|j| {
                            joint_of(j).unwrap_or_else(|| {
                                unknown_joints += 1;
                                0
                            })
                        });
                        (out, false)
                    } else {
                        (s, f)
                    };
                    let (mut lanes, r) = convert(s.0, s.1, kind);
                    rounded += r as u64;
                    // Lanes the standard attribute does not hold come from the exact ones, else
                    // from --default.
                    match (ex, default) {
                        (Some(x), _) => lanes[held..].copy_from_slice(&x[held..]),
                        (None, d) if held < comps => {
                            partial += 1;
                            lanes[held..].copy_from_slice(&d.unwrap_or_default()[held..]);
                        }
                        _ => {}
                    }
                    lanes
                }
                (Some(x), None) => {
                    from_exact += 1;
                    x
                }
                (None, None) => {
                    missing += 1;
                    default.unwrap_or_default()
                }
            };
            out.push(lanes);
        }
        rows[i] = out;
        let mut parts = Vec::new();
        if from_exact > 0 {
            let src = exact[i].as_ref().map_or("?".into(), |x| x.source.clone());
            parts.push(format!("{src} (exact) for {from_exact} vertices"));
            if let Some(x) = &exact[i]
                && x.rounded > 0
            {
                warnings.push(format!(
                    "{label}: {} vertices of `{}` held values that are not whole numbers, rounded for {}",
                    x.rounded, x.source, e.format
                ));
            }
        }
        if from_std > 0 {
            let name = std.map_or("?", |(n, _)| n.as_str());
            parts.push(if edited > 0 {
                format!("{name} for {from_std} vertices ({edited} edited)")
            } else {
                format!("{name} for {from_std} vertices")
            });
        }
        if rounded > 0 {
            warnings.push(format!(
                "{label}: {rounded} vertices held values that are not whole numbers, rounded for {}",
                e.format
            ));
        }
        if unknown_joints > 0 {
            warnings.push(format!(
                "{label}: {unknown_joints} influences name a joint whose name is no blend index (a bone added in the editor?), written as blend index 0"
            ));
        }
        for (missing, lanes) in [
            (missing, String::new()),
            (partial, lane_letters(held, comps)),
        ] {
            if missing == 0 {
                continue;
            }
            let looked_for = looked_for(e, mapping[i]);
            let what = if lanes.is_empty() {
                String::new()
            } else {
                format!(" lanes {lanes} of")
            };
            match (default, options.allow_missing) {
                (Some(_), _) => {
                    parts.push(format!("--default for{what} {missing} vertices"));
                    warnings.push(format!(
                        "{label}:{what} {missing} of {n} vertices took the --default value (the mesh has none: looked for {})",
                        looked_for.join(", ")
                    ));
                }
                (None, true) => {
                    parts.push(format!("zero for{what} {missing} vertices"));
                    warnings.push(format!(
                        "{label}:{what} {missing} of {n} vertices written as zero (--allow-missing; the mesh has none: looked for {})",
                        looked_for.join(", ")
                    ));
                }
                (None, false) => missing_list.push(MissingElement {
                    element: i,
                    name: element_name(e),
                    lanes,
                    missing,
                    of: n as u64,
                    looked_for,
                }),
            }
        }
        element_sources[i] = format!("{label} ← {}", parts.join("; "));
    }
    // Where each mesh vertex goes: at its original record when every original vertex is
    // there (vertices a tool split are one record again), else in the glTF's order.
    let ids = vertex_ids(mesh, extras)
        .or_else(|| identity.as_ref().map(|id| id.of.clone()))
        .filter(|_| !options.rebase && !extras.is_some_and(|x| x.compacted));
    let count = extras.map_or(n, |x| x.vertex_count as usize);
    let placed = ids.as_deref().and_then(|ids| place(ids, count, &rows));
    match &placed {
        None if ids.is_some() => warnings.push(format!(
            "every per-vertex element: the mesh lacks some of the export's {count} vertices (deleted in the editor): its {n} vertices are written in the glTF's order"
        )),
        Some((_, appended)) if *appended > 0 => warnings.push(format!(
            "every per-vertex element: {appended} vertices are new or differ from another copy of their vertex (added, or split with other values, in the editor): written after the export's {count} vertices"
        )),
        _ => {}
    }
    let records = placed.as_ref().map_or(n, |(_, a)| count + a);
    let record_of = |k: usize| -> u32 {
        vertex_base
            + match &placed {
                Some((p, _)) => p[k] as u32,
                None => k as u32,
            }
    };
    let records = u32::try_from(records)
        .ok()
        .and_then(|r| r.checked_add(vertex_base))
        .ok_or_else(|| {
            other(format!(
                "{records} vertices from element {vertex_base} are too many"
            ))
        })?;
    let mut writer = VertexWriter::with_options(
        layout,
        records,
        instance_count,
        &WriterOptions {
            rounding: options.rounding,
            strides: strides.clone(),
            ..WriterOptions::default()
        },
    )
    .map_err(|e| other(e.to_string()))?;
    for (i, e) in elements.iter().enumerate() {
        let label = format!("element {i} ({})", element_name(e));
        if e.class != InputClass::PerVertex {
            let default =
                default_for(options, e, kinds[i]).map_err(|m| other(format!("{label}: {m}")))?;
            per_instance(
                mesh,
                e,
                i,
                kinds[i],
                mapping[i],
                default,
                options,
                &label,
                &mut writer,
                &mut sources,
                &mut warnings,
                &mut missing_list,
            )?;
            continue;
        }
        for (k, lanes) in rows[i].iter().enumerate() {
            writer
                .write_element(i, record_of(k), lanes)
                .map_err(|err| other(format!("{label}: {err}")))?;
        }
        sources.push(std::mem::take(&mut element_sources[i]));
    }
    if !missing_list.is_empty() {
        return Err(ImportError::Missing(missing_list));
    }
    let buffers = writer
        .buffers()
        .iter()
        .map(|b| ImportedBuffer {
            slot: b.slot,
            stride: b.stride,
            data: b.data.clone(),
        })
        .collect();
    let mut indices = Vec::with_capacity(mesh.indices.len());
    for (at, &i) in mesh.indices.iter().enumerate() {
        if i >= mesh_vertices {
            return Err(other(format!(
                "index {at} is {i}, past the mesh's {mesh_vertices} vertices"
            )));
        }
        indices.push(record_of(i as usize));
    }
    let max = indices.iter().copied().max().unwrap_or(0);
    let wanted = extras
        .and_then(|x| x.index_format.as_deref())
        .and_then(crate::capture::parse_index_format);
    let format = match wanted {
        Some(IndexFormat::R16Uint) if max < 0xffff => IndexFormat::R16Uint,
        Some(IndexFormat::R32Uint) => IndexFormat::R32Uint,
        _ if max < 0xffff => IndexFormat::R16Uint,
        _ => IndexFormat::R32Uint,
    };
    let index = (format, crate::capture::index_bytes(format, &indices));
    let topology = match mesh.mode {
        0 => Topology::PointList,
        1 => Topology::LineList,
        3 => Topology::LineStrip,
        5 => Topology::TriangleStrip,
        4 => Topology::TriangleList,
        m => {
            return Err(other(format!(
                "primitive mode {m} (line loop or triangle fan) has no Direct3D topology"
            )));
        }
    };
    let draw = if instance_count > 1 {
        format!(
            "draw_indexed_instanced,index_count_per_instance={},instance_count={instance_count}",
            mesh.indices.len()
        )
    } else {
        format!("draw_indexed,index_count={}", mesh.indices.len())
    };
    Ok(Imported {
        buffers,
        index,
        topology,
        draw,
        sources,
        warnings,
    })
}

/// `_SEMANTIC` (`_SEMANTICi` for index i > 0): the base name of an element's exact copies.
fn custom_base(e: &LayoutElement) -> String {
    let mut base = format!("_{}", e.semantic_name.to_ascii_uppercase());
    if e.semantic_index > 0 {
        base.push_str(&e.semantic_index.to_string());
    }
    base
}

/// The letters of lanes `from..to` (`z, w`).
fn lane_letters(from: usize, to: usize) -> String {
    ["x", "y", "z", "w"][from.min(4)..to.min(4)].join(", ")
}

/// The attribute names an element was looked for under.
fn looked_for(e: &LayoutElement, mapping: Option<&ExtrasAttribute>) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    if let Some(m) = mapping {
        names.extend(m.exact.iter().cloned());
        names.extend(m.attribute.iter().cloned());
    }
    if names.is_empty() {
        names.push(format!("{}_X…", custom_base(e)));
        names.extend(standard_name(e));
    }
    names
}

/// Each mesh vertex's number in the export, from the vertex-number attribute inlay
/// writes (`None` for a vertex whose value is no vertex number; `None` in all when the
/// attribute is absent).
fn vertex_ids(mesh: &ImportedMesh, extras: Option<&InlayExtras>) -> Option<Vec<Option<usize>>> {
    let names: Vec<String> = match extras {
        Some(x) if !x.vertex_id.is_empty() => x.vertex_id.clone(),
        _ => vec![
            super::gltf::VERTEX_ID.to_string(),
            format!("{}_HI", super::gltf::VERTEX_ID),
        ],
    };
    let (_, low, lf) = find(&mesh.attributes, &names[0])?;
    let high = names.get(1).and_then(|h| find(&mesh.attributes, h));
    let whole = |x: u32, float: bool| -> Option<u64> {
        if !float {
            return Some(x as u64);
        }
        let f = f32::from_bits(x);
        (f >= 0.0 && f.fract() == 0.0 && f < 16_777_217.0).then_some(f as u64)
    };
    Some(
        (0..mesh.vertex_count)
            .map(|k| {
                let lo = whole(low.get(k)?[0], *lf)?;
                let id = match high {
                    Some((_, hv, hf)) => {
                        let hi = whole(hv.get(k)?[0], *hf)?;
                        (lo < 1 << 16 && hi < 1 << 16).then_some(lo | hi << 16)?
                    }
                    None => lo,
                };
                usize::try_from(id).ok()
            })
            .collect(),
    )
}

/// Each mesh vertex's record (from 0) when `ids` name every one of the export's `count`
/// vertices: each vertex back at its record, the copies of a vertex that a tool split go
/// to the same record when they have the same lanes in every element, and vertices with
/// no number or whose lanes differ from the first copy's (a new seam, a vertex made by
/// extruding) after the export's vertices, in the glTF's order. `None` when a vertex
/// number is missing (the editor deleted vertices): then the glTF's order is kept. Also
/// returns how many records were appended.
fn place(
    ids: &[Option<usize>],
    count: usize,
    rows: &[Vec<[u32; 4]>],
) -> Option<(Vec<usize>, usize)> {
    let mut first: Vec<Option<usize>> = vec![None; count];
    for (k, id) in ids.iter().enumerate() {
        if let Some(id) = *id
            && id < count
            && first[id].is_none()
        {
            first[id] = Some(k);
        }
    }
    if first.iter().any(Option::is_none) {
        return None;
    }
    let mut appended = 0;
    let out = ids
        .iter()
        .enumerate()
        .map(|(k, id)| match (*id).filter(|&i| i < count) {
            Some(id)
                if first[id].is_some_and(|f| {
                    f == k || rows.iter().all(|r| r.is_empty() || r[f] == r[k])
                }) =>
            {
                id
            }
            _ => {
                appended += 1;
                count + appended - 1
            }
        })
        .collect();
    Some((out, appended))
}

/// The `--default` lanes of element `e`, if given.
fn default_for(
    options: &ImportOptions,
    e: &LayoutElement,
    kind: Kind,
) -> Result<Option<[u32; 4]>, String> {
    let full = element_name(e);
    let Some((_, values)) = options.defaults.iter().find(|(name, _)| {
        name.eq_ignore_ascii_case(&full)
            || (e.semantic_index == 0 && name.eq_ignore_ascii_case(&e.semantic_name))
    }) else {
        return Ok(None);
    };
    if values.is_empty() || values.len() > 4 {
        return Err(format!(
            "--default gives {} values, expected 1 to 4",
            values.len()
        ));
    }
    let mut lanes = [0u32; 4];
    for (l, lane) in lanes.iter_mut().enumerate() {
        let v = values
            .get(l)
            .copied()
            .unwrap_or(if l == 3 { 1.0 } else { 0.0 });
        *lane = match kind {
            Kind::Uint | Kind::Sint => {
                let ok = v.fract() == 0.0
                    && if kind == Kind::Uint {
                        (0.0..=u32::MAX as f64).contains(&v)
                    } else {
                        (i32::MIN as f64..=i32::MAX as f64).contains(&v)
                    };
                if !ok {
                    return Err(format!(
                        "--default value {v} is not a whole number {} holds",
                        e.format
                    ));
                }
                if kind == Kind::Uint {
                    v as u32
                } else {
                    v as i32 as u32
                }
            }
            _ => (v as f32).to_bits(),
        };
    }
    Ok(Some(lanes))
}

/// The (BLENDINDICES, BLENDWEIGHT(S)) element pairs of one semantic index each.
fn skin_sets(elements: &[LayoutElement], kinds: &[Kind]) -> Vec<(usize, usize)> {
    let is = |e: &LayoutElement, names: &[&str]| {
        names
            .iter()
            .any(|n| e.semantic_name.eq_ignore_ascii_case(n))
    };
    elements
        .iter()
        .enumerate()
        .filter(|(i, e)| {
            is(e, &["BLENDINDICES"])
                && e.class == InputClass::PerVertex
                && matches!(kinds[*i], Kind::Uint | Kind::Sint)
        })
        .filter_map(|(i, e)| {
            let w = elements.iter().position(|w| {
                is(w, &["BLENDWEIGHT", "BLENDWEIGHTS"])
                    && w.semantic_index == e.semantic_index
                    && w.class == InputClass::PerVertex
            })?;
            Some((i, w))
        })
        .collect()
}

/// The format components of an element.
fn comps_of(e: &LayoutElement) -> usize {
    e.format.info().map_or(4, |f| f.component_count())
}

/// One set's standard `JOINTS_n` and `WEIGHTS_n` lanes, and whether the weights are floats.
type SkinSet<'m> = (&'m [[u32; 4]], &'m [[u32; 4]], bool);

/// The standard `JOINTS_n` / `WEIGHTS_n` of the skin sets the mesh has: (joints, weights,
/// weights are floats).
fn skin_standard<'m>(skin: &[(usize, usize)], standard: &[StdAttr<'m>]) -> Vec<SkinSet<'m>> {
    skin.iter()
        .filter_map(|&(bi, bw)| {
            let (_, (_, js, _)) = standard[bi].as_ref()?;
            let (_, (_, ws, wf)) = standard[bw].as_ref()?;
            Some((js.as_slice(), ws.as_slice(), *wf))
        })
        .collect()
}

/// Vertex `k`'s influences in the standard attributes: (blend index, weight) per lane, the
/// blend index from the skin's joint names (`None` when one is no blend index).
fn std_influences(
    sets: &[SkinSet<'_>],
    k: usize,
    joint_of: &dyn Fn(u32) -> Option<u32>,
) -> Option<Vec<(u32, f32)>> {
    let mut out = Vec::new();
    for (js, ws, wf) in sets {
        for (&j, w) in js[k].iter().zip(std_floats(&ws[k], *wf)) {
            out.push((joint_of(j)?, w));
        }
    }
    Some(out)
}

/// A vertex's influences from exact lanes: per set (blend indices, weight lanes, the
/// lanes both have, the weights' kind), the weights as decoded (over every set, they are
/// scaled to sum 1 together as export's skin is).
fn influences(sets: &[([u32; 4], [u32; 4], usize, Kind)]) -> Vec<(u32, f32)> {
    let mut out = Vec::new();
    for &(idx, w, comps, kind) in sets {
        let w = float_value(&w, 4, kind, Conv::Keep).0;
        out.extend((0..comps.min(4)).map(|l| (idx[l], w[l])));
    }
    out
}

/// Whether standard influences `b` carry exact influences `a`: the weights of each index
/// summed and scaled to sum 1 (no weight at all: weight 1 on the first index, as export
/// writes it), those of at most 10⁻⁴ left out (Blender's exporter drops
/// them), `a` cut to its `b.len()` heaviest and scaled again (Blender exports the four
/// heaviest by default), each weight within 10⁻⁵.
fn same_influences(a: &[(u32, f32)], b: &[(u32, f32)]) -> bool {
    fn set(list: &[(u32, f32)]) -> Vec<(u32, f32)> {
        let weight = |w: f32| if w.is_finite() { w.max(0.0) } else { 0.0 };
        let total: f32 = list.iter().map(|x| weight(x.1)).sum();
        let mut out: Vec<(u32, f32)> = Vec::new();
        if total <= 0.0 {
            return out;
        }
        for &(j, w) in list {
            let w = weight(w) / total;
            match out.iter_mut().find(|x| x.0 == j) {
                Some(x) => x.1 += w,
                None => out.push((j, w)),
            }
        }
        out.retain(|x| x.1 > 1e-4);
        out.sort_by_key(|x| x.0);
        out
    }
    // A vertex without weight is exported as weight 1 on its first blend index.
    let unweighted = a.first().map(|&(j, _)| vec![(j, 1.0)]);
    let mut a = match set(a) {
        empty if empty.is_empty() => unweighted.map_or(empty, |one| set(&one)),
        a => a,
    };
    if a.len() > b.len() {
        a.sort_by(|x, y| y.1.total_cmp(&x.1));
        a.truncate(b.len());
        a = set(&a);
    }
    let b = set(b);
    a.len() == b.len()
        && a.iter()
            .zip(&b)
            .all(|(x, y)| x.0 == y.0 && (x.1 - y.1).abs() <= 1e-5)
}

/// Which original vertex each mesh vertex is (see [`import_with_original`]).
fn match_original(
    mesh: &ImportedMesh,
    original: &Mesh,
    elements: &[LayoutElement],
    standard: &[StdAttr<'_>],
    joint_of: &dyn Fn(u32) -> Option<u32>,
) -> Identity {
    let n = mesh.vertex_count;
    let attr_of = |i: usize| original.attributes.iter().find(|a| a.element == i);
    // The standard attributes other than POSITION and the joints, with their original
    // attribute and role.
    let mut checks: Vec<Check<'_>> = Vec::new();
    let mut position = None;
    for (i, e) in elements.iter().enumerate() {
        let (Some((name, (_, vals, float))), Some(a)) = (&standard[i], attr_of(i)) else {
            continue;
        };
        let comps = e.format.info().map_or(4, |f| f.component_count());
        let Some(role) = std_role(name, comps) else {
            continue;
        };
        if name == "POSITION" {
            position = Some((a, vals.as_slice(), *float));
        } else {
            checks.push(Check {
                original: a,
                lanes: vals,
                float: *float,
                role,
            });
        }
    }
    let skin = skin_sets(
        elements,
        &elements
            .iter()
            .map(|e| {
                e.format
                    .info()
                    .and_then(|f| f.first_kind())
                    .unwrap_or(Kind::Float)
            })
            .collect::<Vec<_>>(),
    );
    let skin_std = skin_standard(&skin, standard);
    let skin_original: Vec<(&Attribute, &Attribute)> = skin
        .iter()
        .filter_map(|&(bi, bw)| Some((attr_of(bi)?, attr_of(bw)?)))
        .collect();
    let fits = |k: usize, c: usize| -> bool {
        checks.iter().all(|ch| {
            let (a, role) = (ch.original, ch.role);
            let want = float_value(&a.values[c], role.lanes, a.kind(), role.conv).0;
            same_within(
                role.transport,
                role.lanes,
                &want,
                &std_floats(&ch.lanes[k], ch.float),
            )
        }) && (skin_std.is_empty() || {
            let sets: Vec<_> = skin_original
                .iter()
                .map(|(ai, aw)| {
                    let comps = ai.components().min(aw.components());
                    (ai.values[c], aw.values[c], comps, aw.kind())
                })
                .collect();
            std_influences(&skin_std, k, joint_of)
                .is_some_and(|got| same_influences(&influences(&sets), &got))
        })
    };
    let count = original.attributes.first().map_or(0, |a| a.values.len());
    let mut of: Vec<Option<usize>> = vec![None; n];
    if n == count && (0..n).all(|k| fits(k, k)) {
        of = (0..n).map(Some).collect();
    } else if let Some((a, vals, float)) = position {
        let key = |v: [u32; 4]| -> [u32; 3] {
            std::array::from_fn(|l| if v[l] == 0x8000_0000 { 0 } else { v[l] })
        };
        let mut by_position: HashMap<[u32; 3], Vec<usize>> = HashMap::new();
        for (c, v) in a.values.iter().enumerate() {
            let f = float_value(v, 3, a.kind(), Conv::Keep).0;
            by_position
                .entry(key(f.map(f32::to_bits)))
                .or_default()
                .push(c);
        }
        let mut used = vec![false; count];
        for k in 0..n {
            let p = std_floats(&vals[k], float).map(f32::to_bits);
            let Some(cands) = by_position.get(&key(p)) else {
                continue;
            };
            let pick = cands
                .iter()
                .copied()
                .find(|&c| !used[c] && fits(k, c))
                .or_else(|| cands.iter().copied().find(|&c| fits(k, c)))
                .or_else(|| (cands.len() == 1).then(|| cands[0]));
            if let Some(c) = pick {
                used[c] = true;
                of[k] = Some(c);
            }
        }
    }
    Identity { of }
}

/// A per-instance element: from the node's `EXT_mesh_gpu_instancing` attributes, else from
/// vertex 0 of a constant vertex attribute (an export with `--instances first`).
#[allow(clippy::too_many_arguments)]
fn per_instance(
    mesh: &ImportedMesh,
    e: &LayoutElement,
    i: usize,
    kind: Kind,
    mapping: Option<&ExtrasAttribute>,
    default: Option<[u32; 4]>,
    options: &ImportOptions,
    label: &str,
    writer: &mut VertexWriter<'_>,
    sources: &mut Vec<String>,
    warnings: &mut Vec<String>,
    missing_list: &mut Vec<MissingElement>,
) -> Result<(), ImportError> {
    let base = custom_base(e);
    let comps = e
        .format
        .info()
        .map_or(4, |f| f.component_count())
        .clamp(1, 4);
    let mut lanes: Vec<String> = mapping.map(|m| m.exact.clone()).unwrap_or_default();
    let mut high: Vec<String> = mapping.map(|m| m.exact_high.clone()).unwrap_or_default();
    if lanes.is_empty() {
        lanes = super::gltf::LANE_NAMES[..comps]
            .iter()
            .map(|l| format!("{base}_{l}"))
            .collect();
        high = lanes.iter().map(|l| format!("{l}_HI")).collect();
    }
    // From the instances first, else from the vertices (constant).
    for (list, from_instances) in [(&mesh.instance_attributes, true), (&mesh.attributes, false)] {
        let count = list.first().map_or(0, |a| a.1.len());
        let has_high = high.iter().all(|h| find(list, h).is_some());
        let found = lanes_from_copies(
            list,
            &lanes,
            if has_high { &high } else { &[] },
            kind,
            count,
        )
        .or_else(|| lanes_from_vec4(list, &base, kind, count));
        let Some(x) = found else {
            continue;
        };
        let records = if from_instances {
            x.values.len()
        } else {
            x.values.len().min(1)
        };
        for k in 0..records {
            let record = if from_instances {
                // Instance j reads record j / step rate; write the record of each first
                // instance that reads it.
                if e.step_rate == 0 {
                    if k > 0 {
                        continue;
                    }
                    0
                } else if (k as u32).is_multiple_of(e.step_rate) {
                    k as u32 / e.step_rate
                } else {
                    continue;
                }
            } else {
                k as u32
            };
            writer
                .write_element(i, record, &x.values[k])
                .map_err(|err| other(format!("{label}: {err}")))?;
        }
        if x.rounded > 0 {
            warnings.push(format!(
                "{label}: {} instances of `{}` held values that are not whole numbers, rounded for {}",
                x.rounded, x.source, e.format
            ));
        }
        sources.push(format!(
            "{label} ← {} ({records} instance records)",
            x.source
        ));
        return Ok(());
    }
    let mut looked = lanes.clone();
    looked.push(base);
    match (default, options.allow_missing) {
        (Some(d), _) => {
            writer
                .write_element(i, 0, &d)
                .map_err(|err| other(format!("{label}: {err}")))?;
            warnings.push(format!(
                "{label}: 1 instance record took the --default value (the mesh has none: looked for {})",
                looked.join(", ")
            ));
            sources.push(format!("{label} ← --default"));
        }
        (None, true) => {
            warnings.push(format!(
                "{label}: 1 instance record written as zero (--allow-missing; the mesh has none: looked for {})",
                looked.join(", ")
            ));
            sources.push(format!("{label} ← zero"));
        }
        (None, false) => missing_list.push(MissingElement {
            element: i,
            name: element_name(e),
            lanes: String::new(),
            missing: 1,
            of: 1,
            looked_for: looked,
        }),
    }
    Ok(())
}
