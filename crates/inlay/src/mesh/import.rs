//! Import: a mesh read back from glTF ([`super::gltf::ImportedMesh`]) written as vertex and
//! index buffers in a game's layout, through the encoder ([`crate::encode`]).
//!
//! Each layout element takes its values from, in this order:
//! 1. the attribute `meshes[0].extras.inlay` names as exact for it, when the extras describe
//!    the same layout (same elements, formats and offsets) — so an unedited export comes back
//!    byte for byte wherever the formats round-trip;
//! 2. the custom attribute `_NAME` (`_NAMEi` for semantic index i > 0), with `_NAME_HI`
//!    holding high halves when present;
//! 3. the glTF attribute its semantic maps to (POSITION, NORMAL, TANGENT, TEXCOORD_n,
//!    COLOR_n, JOINTS_n for BLENDINDICESn, WEIGHTS_n for BLENDWEIGHT(S)n; names compared
//!    case-insensitively).
//!
//! An element none of these supplies is written as zero with a warning naming it. Mesh vertex
//! `k` is written as element number `vertex_base + k`, where `vertex_base` is the element the
//! export's mesh started at (`extras.inlay.vertex_base`, when the extras describe this layout
//! and the export did not compact the vertices; 0 otherwise, or with
//! [`ImportOptions::rebase`]): a capture whose draw starts past element 0 comes back at the
//! same element numbers, the records before it written as padding with a warning, since the
//! draw never fetched them. The index buffer holds element numbers (the mesh's indices plus
//! `vertex_base`, for a draw with base vertex 0) as a triangle, line or point list, in the
//! extras' index format when the indices fit it, else R16_UINT when they fit, else R32_UINT. Per-instance elements take their values from the node's
//! `EXT_mesh_gpu_instancing` attributes, else from vertex 0 of a constant vertex attribute
//! (an export with `--instances first`).

use serde_json::Value;

use super::gltf::ImportedMesh;
use crate::assembler::Topology;
use crate::buffer::IndexFormat;
use crate::encode::{Rounding, VertexWriter, WriterOptions};
use crate::format::Kind;
use crate::layout::{InputClass, InputLayout, LayoutElement};

/// Options of [`import`].
#[derive(Clone, Debug, Default)]
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
    /// Per element: where its values came from.
    pub sources: Vec<String>,
    /// Doubts (elements without values, values an integer format cannot hold).
    pub warnings: Vec<String>,
}

/// Why an import failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ImportError(pub String);

fn extras_layout_matches(inlay: &Value, layout: &[LayoutElement]) -> bool {
    let Some(list) = inlay["layout"].as_array() else {
        return false;
    };
    list.len() == layout.len()
        && list.iter().zip(layout).all(|(j, e)| {
            j["semantic"].as_str() == Some(e.semantic_name.as_str())
                && j["index"].as_u64() == Some(e.semantic_index as u64)
                && j["format"].as_str() == Some(e.format.to_string().as_str())
                && j["slot"].as_u64() == Some(e.slot as u64)
                && j["offset"].as_u64() == Some(e.offset as u64)
        })
}

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

/// Writes `mesh` in `layout` (see the module notes).
pub fn import(
    mesh: &ImportedMesh,
    layout: &InputLayout,
    options: &ImportOptions,
) -> Result<Imported, ImportError> {
    let elements = super::layout_elements(layout);
    let extras = mesh
        .inlay
        .as_ref()
        .filter(|x| extras_layout_matches(x, elements));
    let mut warnings = Vec::new();
    let mut sources = Vec::new();
    let find = |name: &str| {
        mesh.attributes
            .iter()
            .find(|a| a.0.eq_ignore_ascii_case(name))
    };
    let find_inst = |name: &str| {
        mesh.instance_attributes
            .iter()
            .find(|a| a.0.eq_ignore_ascii_case(name))
    };
    let mesh_vertices = u32::try_from(mesh.vertex_count)
        .map_err(|_| ImportError(format!("{} vertices are too many", mesh.vertex_count)))?;
    // The element number of mesh vertex 0 in the capture (module notes).
    let vertex_base = match extras {
        Some(x) if !options.rebase && x["compacted"].as_bool() != Some(true) => {
            x["vertex_base"].as_u64().unwrap_or(0)
        }
        _ => 0,
    };
    let vertex_base = u32::try_from(vertex_base)
        .ok()
        .filter(|b| b.checked_add(mesh_vertices).is_some())
        .ok_or_else(|| {
            ImportError(format!(
                "extras.inlay.vertex_base {vertex_base} + {mesh_vertices} vertices pass the last element number (2^32 - 1)"
            ))
        })?;
    let vertex_count = vertex_base + mesh_vertices;
    if vertex_base > 0
        && layout
            .slots()
            .iter()
            .any(|s| s.class == InputClass::PerVertex)
    {
        warnings.push(format!(
            "the mesh starts at element {vertex_base} (the capture's first fetched vertex): elements 0..{} of the per-vertex slots were not part of the draw and are written as padding (--rebase writes the mesh from element 0)",
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
        let from_extras = extras.and_then(|x| {
            x["slots"].as_array()?.iter().find_map(|j| {
                (j["slot"].as_u64()? == s.slot as u64)
                    .then(|| j["stride"].as_u64().map(|v| v as u32))?
            })
        });
        strides.push((s.slot, from_extras.unwrap_or(s.min_stride)));
    }
    let mut writer = VertexWriter::with_options(
        layout,
        vertex_count,
        instance_count,
        &WriterOptions {
            rounding: options.rounding,
            strides: strides.clone(),
            ..WriterOptions::default()
        },
    )
    .map_err(|e| ImportError(e.to_string()))?;
    for (i, e) in elements.iter().enumerate() {
        let kind = e
            .format
            .info()
            .and_then(|f| f.first_kind())
            .unwrap_or(Kind::Float);
        let label = format!("element {i} ({}{})", e.semantic_name, e.semantic_index);
        // Candidate attribute names, best first.
        let mut names: Vec<(String, Option<String>)> = Vec::new();
        if let Some(x) = extras {
            let a = &x["attributes"][i];
            if let Some(n) = a["exact"].as_str() {
                names.push((n.to_string(), a["exact_high"].as_str().map(str::to_string)));
            }
        }
        let mut custom = format!("_{}", e.semantic_name);
        if e.semantic_index > 0 {
            custom.push_str(&e.semantic_index.to_string());
        }
        names.push((custom.clone(), Some(format!("{custom}_HI"))));
        if let Some(s) = standard_name(e) {
            names.push((s, None));
        }
        let per_instance = e.class == InputClass::PerInstance;
        let mut done = false;
        for (name, high) in &names {
            let found = if per_instance {
                find_inst(name)
                    .map(|a| (a, true))
                    .or(find(name).map(|a| (a, false)))
            } else {
                find(name).map(|a| (a, false))
            };
            let Some(((_, values, float), from_instances)) = found else {
                continue;
            };
            let hi = high.as_ref().and_then(|h| {
                if from_instances {
                    find_inst(h)
                } else {
                    find(h)
                }
            });
            let mut rounded = 0u64;
            let records: u32 = if per_instance {
                if from_instances {
                    values.len() as u32
                } else {
                    1
                }
            } else {
                mesh_vertices
            };
            for k in 0..records {
                let Some(mut v) = values.get(k as usize).copied() else {
                    break;
                };
                let mut is_float = *float;
                if let Some((_, hv, hfloat)) = hi {
                    // Low and high 16-bit halves (as float values when the export wrote floats).
                    let h = hv.get(k as usize).copied().unwrap_or([0; 4]);
                    let whole = |x: u32, f: bool| if f { f32::from_bits(x) as u32 } else { x };
                    for (lane, high) in v.iter_mut().zip(h) {
                        *lane = (whole(*lane, *float) & 0xffff) | (whole(high, *hfloat) << 16);
                    }
                    is_float = false;
                }
                let (lanes, r) = convert(v, is_float, kind);
                rounded += r as u64;
                let record = if per_instance && from_instances {
                    // Instance j reads record j / step rate; write the record of each first
                    // instance that reads it.
                    if e.step_rate == 0 {
                        if k > 0 {
                            continue;
                        }
                        0
                    } else if k % e.step_rate == 0 {
                        k / e.step_rate
                    } else {
                        continue;
                    }
                } else if per_instance {
                    k
                } else {
                    vertex_base + k
                };
                writer
                    .write_element(i, record, &lanes)
                    .map_err(|err| ImportError(format!("{label}: {err}")))?;
            }
            if rounded > 0 {
                warnings.push(format!(
                    "{label}: {rounded} values of `{name}` were not whole numbers and were rounded for {}",
                    e.format
                ));
            }
            sources.push(format!(
                "{label} ← {name}{}",
                if hi.is_some() { " (+ high halves)" } else { "" }
            ));
            done = true;
            break;
        }
        if !done {
            warnings.push(format!(
                "{label}: the mesh has no attribute for it ({}); written as zero",
                names
                    .iter()
                    .map(|n| n.0.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
            sources.push(format!("{label} ← nothing (zero)"));
        }
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
    // Element numbers: vertex_base + k fits (checked above) for every k < mesh_vertices.
    let mut indices = Vec::with_capacity(mesh.indices.len());
    for (at, &i) in mesh.indices.iter().enumerate() {
        if i >= mesh_vertices {
            return Err(ImportError(format!(
                "index {at} is {i}, past the mesh's {mesh_vertices} vertices"
            )));
        }
        indices.push(vertex_base + i);
    }
    let max = indices.iter().copied().max().unwrap_or(0);
    let wanted = extras
        .and_then(|x| x["index_format"].as_str())
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
            return Err(ImportError(format!(
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
