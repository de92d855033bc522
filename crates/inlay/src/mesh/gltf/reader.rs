//! The glTF reader: a `.glb` or `.gltf` (+ buffers) read back into [`ImportedMesh`] for
//! import.

use super::schema::component::{BYTE, FLOAT, UNSIGNED_BYTE, UNSIGNED_INT, UNSIGNED_SHORT};
use super::schema::{self, InlayExtras, Root};

fn uri_unescape(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let Ok(v) = u8::from_str_radix(
                std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("zz"),
                16,
            )
        {
            out.push(v);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A mesh read back from glTF: the first mesh's first primitive.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportedMesh {
    /// Attribute name → four lanes per vertex: floats as `f32` bits, integers as integers
    /// (normalised integers become their float values).
    pub attributes: Vec<(String, Vec<[u32; 4]>, bool)>,
    /// Vertex count.
    pub vertex_count: usize,
    /// Indices (0..vertex_count for a non-indexed primitive).
    pub indices: Vec<u32>,
    /// glTF primitive mode (0 points, 1 lines, 4 triangles, …).
    pub mode: u32,
    /// `meshes[0].extras.inlay`, if present and of the version this inlay reads.
    pub inlay: Option<InlayExtras>,
    /// Why `meshes[0].extras.inlay` was present but not read (another version, a tool
    /// that changed it).
    pub inlay_problem: Option<String>,
    /// The skin of the node that places the mesh: per joint (what `JOINTS_n` values
    /// number), the blend index its name gives (`inlay export` names joints by blend
    /// index; `None` for a name that is no number). `None` without a skin.
    pub joints: Option<Vec<Option<u32>>>,
    /// Per-instance attributes of `EXT_mesh_gpu_instancing` on the node using the mesh.
    pub instance_attributes: Vec<(String, Vec<[u32; 4]>, bool)>,
}

impl ImportedMesh {
    /// The attribute named `name` (lanes, and whether it holds floats).
    pub fn attribute(&self, name: &str) -> Option<(&[[u32; 4]], bool)> {
        self.attributes
            .iter()
            .find(|a| a.0 == name)
            .map(|a| (a.1.as_slice(), a.2))
    }
}

/// Why a glTF file could not be imported.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}: {message}")]
pub struct ReadError {
    /// The file.
    pub file: String,
    /// What is wrong (the JSON path and value).
    pub message: String,
}

/// Reads a `.glb`. `file` names it in messages; `external` resolves a buffer URI to its
/// bytes (for `.glb` files that reference external buffers).
pub fn read_glb(
    file: &str,
    bytes: &[u8],
    external: &mut dyn FnMut(&str) -> Result<Vec<u8>, String>,
) -> Result<ImportedMesh, ReadError> {
    let err = |m: String| ReadError {
        file: file.to_string(),
        message: m,
    };
    let u32_at = |o: usize| -> Option<u32> {
        bytes
            .get(o..o + 4)
            .map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")))
    };
    if bytes.get(..4) != Some(b"glTF") {
        return Err(err("not a GLB file (no `glTF` magic)".into()));
    }
    if u32_at(4) != Some(2) {
        return Err(err(format!("GLB version {:?}, expected 2", u32_at(4))));
    }
    let total = u32_at(8).ok_or_else(|| err("truncated header".into()))? as usize;
    if total > bytes.len() {
        return Err(err(format!(
            "header says {total} bytes, the file has {}",
            bytes.len()
        )));
    }
    let mut pos = 12;
    let mut json = None;
    let mut bin = None;
    while pos + 8 <= total {
        let len = u32_at(pos).unwrap_or(0) as usize;
        let kind = &bytes[pos + 4..pos + 8];
        let start = pos + 8;
        let end = start
            .checked_add(len)
            .filter(|&e| e <= total)
            .ok_or_else(|| {
                err(format!(
                    "chunk at byte {pos} runs past the end ({len} bytes)"
                ))
            })?;
        match kind {
            b"JSON" if json.is_none() => json = Some(&bytes[start..end]),
            b"BIN\0" if bin.is_none() => bin = Some(&bytes[start..end]),
            _ => {}
        }
        pos = end.next_multiple_of(4);
    }
    let json = json.ok_or_else(|| err("no JSON chunk".into()))?;
    let doc: Root = serde_json::from_slice(json).map_err(|e| err(format!("JSON chunk: {e}")))?;
    read_document(file, &doc, bin, bytes.len(), external)
}

/// Reads a `.gltf` JSON document; `external` resolves buffer URIs (relative file names).
pub fn read_gltf(
    file: &str,
    json: &[u8],
    external: &mut dyn FnMut(&str) -> Result<Vec<u8>, String>,
) -> Result<ImportedMesh, ReadError> {
    let doc: Root = serde_json::from_slice(json).map_err(|e| ReadError {
        file: file.to_string(),
        message: format!("not glTF JSON: {e}"),
    })?;
    read_document(file, &doc, None, json.len(), external)
}

/// Reads the document: `glb_bin` is the GLB's BIN chunk, `file_len` the bytes of the file
/// itself (what bounds an accessor that has no bytes behind it).
fn read_document(
    file: &str,
    doc: &Root,
    glb_bin: Option<&[u8]>,
    file_len: usize,
    external: &mut dyn FnMut(&str) -> Result<Vec<u8>, String>,
) -> Result<ImportedMesh, ReadError> {
    let err = |m: String| ReadError {
        file: file.to_string(),
        message: m,
    };
    let mut buffers: Vec<Vec<u8>> = Vec::new();
    for (i, b) in doc.buffers.iter().enumerate() {
        let data = match b.uri.as_deref() {
            None => glb_bin
                .ok_or_else(|| {
                    err(format!(
                        "buffers[{i}] has no uri and there is no GLB BIN chunk"
                    ))
                })?
                .to_vec(),
            Some(uri) if uri.starts_with("data:") => {
                return Err(err(format!(
                    "buffers[{i}]: data URIs are not read; save the glTF with a separate .bin or as .glb"
                )));
            }
            Some(uri) => external(&uri_unescape(uri))
                .map_err(|e| err(format!("buffers[{i}] `{uri}`: {e}")))?,
        };
        if (data.len() as u64) < b.byte_length {
            return Err(err(format!(
                "buffers[{i}] is {} bytes, byteLength says {}",
                data.len(),
                b.byte_length
            )));
        }
        buffers.push(data);
    }
    // An accessor without a bufferView holds zeros that no byte backs: at most one element
    // per byte of everything read (file and buffers), so that memory stays bounded by what
    // was read.
    let read_bytes = buffers
        .iter()
        .fold(file_len as u64, |n, b| n.saturating_add(b.len() as u64));
    let mesh = doc
        .meshes
        .first()
        .ok_or_else(|| err("no meshes[0]".into()))?;
    let prim = mesh
        .primitives
        .first()
        .ok_or_else(|| err("meshes[0] has no primitives".into()))?;
    let read = |i: u32, what: &str| -> Result<(Vec<[u32; 4]>, bool), ReadError> {
        read_accessor(doc, &buffers, i as usize, read_bytes)
            .map_err(|m| err(format!("{what} (accessors[{i}]): {m}")))
    };
    let mut attributes = Vec::new();
    let mut vertex_count = None;
    for (name, &idx) in &prim.attributes {
        let (vals, float) = read(idx, &format!("attribute {name}"))?;
        if let Some(n) = vertex_count
            && n != vals.len()
        {
            return Err(err(format!(
                "attribute {name} has {} values, others have {n}",
                vals.len()
            )));
        }
        vertex_count = Some(vals.len());
        attributes.push((name.clone(), vals, float));
    }
    let vertex_count = vertex_count.unwrap_or(0);
    let indices = match prim.indices {
        None => (0..vertex_count as u32).collect(),
        Some(i) => {
            let (v, _) = read(i, "indices")?;
            let idx: Vec<u32> = v.iter().map(|x| x[0]).collect();
            if let Some(bad) = idx.iter().find(|&&i| i as usize >= vertex_count) {
                return Err(err(format!(
                    "index {bad} is past the {vertex_count} vertices"
                )));
            }
            idx
        }
    };
    let node = doc.nodes.iter().find(|n| n.mesh == Some(0));
    let mut instance_attributes = Vec::new();
    if let Some(inst) = node
        .and_then(|n| n.extensions.as_ref())
        .and_then(|e| e.gpu_instancing.as_ref())
    {
        for (name, &idx) in &inst.attributes {
            let (vals, float) = read(idx, &format!("instance attribute {name}"))?;
            instance_attributes.push((name.clone(), vals, float));
        }
    }
    let joints = match node.and_then(|n| n.skin) {
        None => None,
        Some(s) => {
            let skin = doc.skins.get(s as usize).ok_or_else(|| {
                err(format!(
                    "the mesh's node names skins[{s}], which is missing"
                ))
            })?;
            Some(
                skin.joints
                    .iter()
                    .map(|&j| {
                        doc.nodes
                            .get(j as usize)
                            .and_then(|n| n.name.as_deref())
                            .and_then(|name| name.trim().parse::<u32>().ok())
                    })
                    .collect(),
            )
        }
    };
    let (inlay, inlay_problem) = match mesh.extras.as_ref().and_then(|x| x.inlay_record()) {
        None => (None, None),
        Some(Ok(x)) => (Some(x), None),
        Some(Err(why)) => (None, Some(why)),
    };
    Ok(ImportedMesh {
        attributes,
        vertex_count,
        indices,
        mode: prim.mode.unwrap_or(4),
        inlay,
        inlay_problem,
        joints,
        instance_attributes,
    })
}

/// Reads accessor `i` into lanes; `true` when its values are floats (FLOAT or normalised).
/// Every element count is checked against the bytes behind it before anything is
/// allocated; an accessor without a bufferView (all zeros) may hold at most `zero_bound`
/// elements.
fn read_accessor(
    doc: &Root,
    buffers: &[Vec<u8>],
    i: usize,
    zero_bound: u64,
) -> Result<(Vec<[u32; 4]>, bool), String> {
    let a = doc.accessors.get(i).ok_or("no such accessor")?;
    let ctype = a.component_type;
    let comps = match a.kind {
        schema::AccessorType::Scalar => 1,
        schema::AccessorType::Vec2 => 2,
        schema::AccessorType::Vec3 => 3,
        schema::AccessorType::Vec4 => 4,
        other => return Err(format!("type {other:?} is not SCALAR or VEC2..4")),
    };
    let normalized = a.normalized;
    let csize = schema::component::size(ctype)
        .ok_or_else(|| format!("componentType {ctype} is not a glTF component type"))?;
    let esize = csize * comps;
    if a.sparse.is_some() {
        return Err("sparse accessors are not read".into());
    }
    let float = ctype == FLOAT || normalized;
    let Some(view_index) = a.buffer_view else {
        if a.count > zero_bound {
            return Err(format!(
                "count {} without a bufferView: more zero elements than the {zero_bound} bytes read",
                a.count
            ));
        }
        return Ok((vec![[0u32; 4]; a.count as usize], float));
    };
    let view = doc
        .buffer_views
        .get(view_index as usize)
        .ok_or_else(|| format!("bufferView {view_index} is missing"))?;
    let data = buffers
        .get(view.buffer as usize)
        .ok_or("bufferView names a missing buffer")?;
    let stride = match view.byte_stride {
        Some(s) if s < esize as u64 => {
            return Err(format!(
                "byteStride {s} is less than the {esize} bytes of an element"
            ));
        }
        Some(s) => s,
        None => esize as u64,
    };
    let view_data = view
        .byte_offset
        .checked_add(view.byte_length)
        .filter(|&e| e <= data.len() as u64)
        .map(|e| &data[view.byte_offset as usize..e as usize])
        .ok_or("bufferView runs past its buffer")?;
    let aoff = a.byte_offset.unwrap_or(0);
    let count = a.count;
    if count > 0 {
        let last = (count - 1)
            .checked_mul(stride)
            .and_then(|x| x.checked_add(aoff))
            .and_then(|x| x.checked_add(esize as u64));
        if last.is_none_or(|l| l > view_data.len() as u64) {
            return Err(format!(
                "{count} elements of {esize} bytes every {stride} bytes from byte {aoff} run past the {}-byte bufferView",
                view_data.len()
            ));
        }
    }
    // Bounded now: count × stride bytes lie in the view.
    let (count, stride, aoff) = (count as usize, stride as usize, aoff as usize);
    let mut out = vec![[0u32, 0, 0, 0]; count];
    for (k, o) in out.iter_mut().enumerate() {
        let e = &view_data[aoff + k * stride..aoff + k * stride + esize];
        for c in 0..comps {
            let b = &e[c * csize..(c + 1) * csize];
            o[c] = match ctype {
                FLOAT => u32::from_le_bytes(b.try_into().expect("4")),
                UNSIGNED_INT => u32::from_le_bytes(b.try_into().expect("4")),
                UNSIGNED_BYTE => {
                    if normalized {
                        (b[0] as f32 / 255.0).to_bits()
                    } else {
                        b[0] as u32
                    }
                }
                BYTE => {
                    let v = b[0] as i8;
                    if normalized {
                        (v as f32 / 127.0).max(-1.0).to_bits()
                    } else {
                        v as i32 as u32
                    }
                }
                UNSIGNED_SHORT => {
                    let v = u16::from_le_bytes([b[0], b[1]]);
                    if normalized {
                        (v as f32 / 65535.0).to_bits()
                    } else {
                        v as u32
                    }
                }
                _ => {
                    let v = i16::from_le_bytes([b[0], b[1]]);
                    if normalized {
                        (v as f32 / 32767.0).max(-1.0).to_bits()
                    } else {
                        v as i32 as u32
                    }
                }
            };
        }
    }
    Ok((out, float))
}
