//! The glTF reader: a `.glb` or `.gltf` (+ buffers) read back into [`ImportedMesh`] for
//! import.

use serde_json::Value;

use super::writer::{BYTE, FLOAT, SHORT, UNSIGNED_BYTE, UNSIGNED_INT, UNSIGNED_SHORT};

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
    /// `meshes[0].extras.inlay`, if present.
    pub inlay: Option<Value>,
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
    let doc: Value = serde_json::from_slice(json).map_err(|e| err(format!("JSON chunk: {e}")))?;
    read_document(file, &doc, bin, external)
}

/// Reads a `.gltf` JSON document; `external` resolves buffer URIs (relative file names).
pub fn read_gltf(
    file: &str,
    json: &[u8],
    external: &mut dyn FnMut(&str) -> Result<Vec<u8>, String>,
) -> Result<ImportedMesh, ReadError> {
    let doc: Value = serde_json::from_slice(json).map_err(|e| ReadError {
        file: file.to_string(),
        message: format!("not glTF JSON: {e}"),
    })?;
    read_document(file, &doc, None, external)
}

fn read_document(
    file: &str,
    doc: &Value,
    glb_bin: Option<&[u8]>,
    external: &mut dyn FnMut(&str) -> Result<Vec<u8>, String>,
) -> Result<ImportedMesh, ReadError> {
    let err = |m: String| ReadError {
        file: file.to_string(),
        message: m,
    };
    let mut buffers: Vec<Vec<u8>> = Vec::new();
    for (i, b) in doc["buffers"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        let data = match b["uri"].as_str() {
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
        let declared = b["byteLength"].as_u64().unwrap_or(0);
        if (data.len() as u64) < declared {
            return Err(err(format!(
                "buffers[{i}] is {} bytes, byteLength says {declared}",
                data.len()
            )));
        }
        buffers.push(data);
    }
    let mesh = &doc["meshes"][0];
    if mesh.is_null() {
        return Err(err("no meshes[0]".into()));
    }
    let prim = &mesh["primitives"][0];
    if prim.is_null() {
        return Err(err("meshes[0] has no primitives".into()));
    }
    let read = |index: &Value, what: &str| -> Result<(Vec<[u32; 4]>, bool), ReadError> {
        let i = index
            .as_u64()
            .ok_or_else(|| err(format!("{what}: not an accessor index")))? as usize;
        read_accessor(doc, &buffers, i).map_err(|m| err(format!("{what} (accessors[{i}]): {m}")))
    };
    let mut attributes = Vec::new();
    let mut vertex_count = None;
    if let Some(map) = prim["attributes"].as_object() {
        for (name, idx) in map {
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
    }
    let vertex_count = vertex_count.unwrap_or(0);
    let indices = if prim["indices"].is_null() {
        (0..vertex_count as u32).collect()
    } else {
        let (v, _) = read(&prim["indices"], "indices")?;
        let idx: Vec<u32> = v.iter().map(|x| x[0]).collect();
        if let Some(bad) = idx.iter().find(|&&i| i as usize >= vertex_count) {
            return Err(err(format!(
                "index {bad} is past the {vertex_count} vertices"
            )));
        }
        idx
    };
    let mut instance_attributes = Vec::new();
    if let Some(nodes) = doc["nodes"].as_array()
        && let Some(node) = nodes.iter().find(|n| n["mesh"].as_u64() == Some(0))
        && let Some(map) = node["extensions"]["EXT_mesh_gpu_instancing"]["attributes"].as_object()
    {
        for (name, idx) in map {
            let (vals, float) = read(idx, &format!("instance attribute {name}"))?;
            instance_attributes.push((name.clone(), vals, float));
        }
    }
    Ok(ImportedMesh {
        attributes,
        vertex_count,
        indices,
        mode: prim["mode"].as_u64().unwrap_or(4) as u32,
        inlay: mesh["extras"].get("inlay").cloned(),
        instance_attributes,
    })
}

/// Reads accessor `i` into lanes; `true` when its values are floats (FLOAT or normalised).
fn read_accessor(
    doc: &Value,
    buffers: &[Vec<u8>],
    i: usize,
) -> Result<(Vec<[u32; 4]>, bool), String> {
    let a = &doc["accessors"][i];
    if a.is_null() {
        return Err("no such accessor".into());
    }
    let ctype = a["componentType"].as_u64().unwrap_or(0) as u32;
    let count = a["count"].as_u64().ok_or("no count")? as usize;
    let comps = match a["type"].as_str() {
        Some("SCALAR") => 1,
        Some("VEC2") => 2,
        Some("VEC3") => 3,
        Some("VEC4") => 4,
        other => return Err(format!("type {other:?} is not SCALAR or VEC2..4")),
    };
    let normalized = a["normalized"].as_bool().unwrap_or(false);
    let csize = match ctype {
        BYTE | UNSIGNED_BYTE => 1,
        SHORT | UNSIGNED_SHORT => 2,
        UNSIGNED_INT | FLOAT => 4,
        c => return Err(format!("componentType {c} is not a glTF component type")),
    };
    let esize = csize * comps;
    if a["sparse"].is_object() {
        return Err("sparse accessors are not read".into());
    }
    let mut out = vec![[0u32, 0, 0, 0]; count];
    let Some(view_index) = a["bufferView"].as_u64() else {
        return Ok((out, ctype == FLOAT || normalized));
    };
    let view = &doc["bufferViews"][view_index as usize];
    let buffer = view["buffer"].as_u64().ok_or("bufferView without buffer")? as usize;
    let data = buffers
        .get(buffer)
        .ok_or("bufferView names a missing buffer")?;
    let vstart = view["byteOffset"].as_u64().unwrap_or(0) as usize;
    let vlen = view["byteLength"]
        .as_u64()
        .ok_or("bufferView without byteLength")? as usize;
    let stride = view["byteStride"]
        .as_u64()
        .map(|s| s as usize)
        .unwrap_or(esize);
    let aoff = a["byteOffset"].as_u64().unwrap_or(0) as usize;
    let view_data = vstart
        .checked_add(vlen)
        .and_then(|e| data.get(vstart..e))
        .ok_or("bufferView runs past its buffer")?;
    if count > 0 {
        let last = aoff
            .checked_add((count - 1).checked_mul(stride).ok_or("too large")?)
            .and_then(|x| x.checked_add(esize))
            .ok_or("too large")?;
        if last > view_data.len() {
            return Err(format!(
                "{count} elements of {esize} bytes every {stride} bytes run past the bufferView"
            ));
        }
    }
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
    Ok((out, ctype == FLOAT || normalized))
}
