//! Files the tools leave beside a mod that say more than its INI: an importer `.fmt` (the
//! element layout of the merged vertex buffer the tool split), `hash.json` (GIMI/SRMI/ZZMI
//! collect scripts: which hashes are a component's position, blend, texcoord and index
//! buffers) and `Metadata.json` (WWMI-Tools: per buffer, its elements).

use std::path::Path;

use serde_json::Value;

use crate::capture::fmt::{FmtFile, parse as parse_fmt};
use crate::element::InputElementDesc;
use crate::format::Format;

use super::{ModWarning, Where};

/// Largest side file read (the same bound as an INI file).
const MAX_SIDE_BYTES: u64 = super::ini::MAX_INI_BYTES;

/// A `hash.json` component.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HashComponent {
    /// `component_name`.
    pub name: String,
    /// `position_vb`.
    pub position_vb: Option<u32>,
    /// `blend_vb`.
    pub blend_vb: Option<u32>,
    /// `texcoord_vb`.
    pub texcoord_vb: Option<u32>,
    /// `draw_vb`.
    pub draw_vb: Option<u32>,
    /// `ib`.
    pub ib: Option<u32>,
}

/// One buffer of `Metadata.json`'s `export_format`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MetaBuffer {
    /// The buffer's name (`Position`, `TexCoord`, …).
    pub name: String,
    /// Its elements (slot 0, offsets from the record start).
    pub elements: Vec<InputElementDesc>,
    /// Record size.
    pub stride: u32,
}

/// What was found beside the INI.
#[derive(Clone, Debug, Default)]
pub struct Beside {
    /// `.fmt` files: (file name, contents).
    pub fmts: Vec<(String, FmtFile)>,
    /// `hash.json`: (file name, components).
    pub hash_json: Option<(String, Vec<HashComponent>)>,
    /// `Metadata.json`: (file name, buffers).
    pub metadata: Option<(String, Vec<MetaBuffer>)>,
}

fn read(path: &Path) -> Option<Vec<u8>> {
    let meta = std::fs::metadata(path).ok()?;
    if meta.len() > MAX_SIDE_BYTES {
        return None;
    }
    std::fs::read(path).ok()
}

/// Reads the `.fmt`, `hash.json` and `Metadata.json` files in `dir` (not its sub-folders).
pub fn read_dir(dir: &Path, warnings: &mut Vec<ModWarning>) -> Beside {
    let mut out = Beside::default();
    let Ok(rd) = std::fs::read_dir(dir) else {
        return out;
    };
    let mut names: Vec<String> = rd
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for n in names {
        let lower = n.to_ascii_lowercase();
        let path = dir.join(&n);
        if lower.ends_with(".fmt") {
            let Some(bytes) = read(&path) else { continue };
            match parse_fmt(&n, &bytes) {
                Ok(f) => out.fmts.push((n, f)),
                Err(e) => warnings.push(ModWarning::new(
                    Where::file(&n),
                    None,
                    format!(".fmt beside the mod not used: {e}"),
                )),
            }
        } else if lower == "hash.json" {
            let Some(bytes) = read(&path) else { continue };
            match parse_hash_json(&bytes) {
                Ok(c) => out.hash_json = Some((n, c)),
                Err(m) => warnings.push(ModWarning::new(
                    Where::file(&n),
                    None,
                    format!("not used: {m}"),
                )),
            }
        } else if lower == "metadata.json" {
            let Some(bytes) = read(&path) else { continue };
            match parse_metadata(&bytes) {
                Ok(b) => out.metadata = Some((n, b)),
                Err(m) => warnings.push(ModWarning::new(
                    Where::file(&n),
                    None,
                    format!("not used: {m}"),
                )),
            }
        }
    }
    out
}

fn hex(v: &Value) -> Option<u32> {
    let s = v.as_str()?.trim();
    if s.is_empty() {
        return None;
    }
    u32::from_str_radix(s, 16).ok()
}

/// Parses a `hash.json` (a list of components).
pub fn parse_hash_json(bytes: &[u8]) -> Result<Vec<HashComponent>, String> {
    let v: Value = serde_json::from_slice(bytes).map_err(|e| format!("not JSON: {e}"))?;
    let list = v.as_array().ok_or("expected a list of components")?;
    Ok(list
        .iter()
        .map(|c| HashComponent {
            name: c["component_name"].as_str().unwrap_or("").to_string(),
            position_vb: hex(&c["position_vb"]),
            blend_vb: hex(&c["blend_vb"]),
            texcoord_vb: hex(&c["texcoord_vb"]),
            draw_vb: hex(&c["draw_vb"]),
            ib: hex(&c["ib"]),
        })
        .collect())
}

/// The DXGI format of a `Metadata.json` semantic: the named format when its size is the
/// semantic's stride; a one-channel format repeated to fill the stride (`R8_UINT` with stride
/// 4 is `R8G8B8A8_UINT`); a three-channel 8-bit name DXGI lacks (`R8G8B8_SNORM`) read as its
/// four-channel form (the fourth byte is the next semantic's, which keeps its own element).
fn meta_format(name: &str, stride: u32) -> Option<Format> {
    let upper = name.trim().to_ascii_uppercase();
    if let Ok(f) = upper.parse::<Format>()
        && let Some(info) = f.info()
    {
        if info.byte_size() == stride {
            return Some(f);
        }
        let n = stride / info.byte_size().max(1);
        if info.components.len() == 1
            && stride.is_multiple_of(info.byte_size().max(1))
            && (2..=4).contains(&n)
        {
            let (bits, kind) = upper.split_once('_')?;
            let bits = bits.strip_prefix('R')?;
            let channels = ["R", "G", "B", "A"];
            let wide: String = channels[..n as usize]
                .iter()
                .map(|c| format!("{c}{bits}"))
                .collect();
            // Three-channel 8- and 16-bit formats do not exist in DXGI.
            return format!("{wide}_{kind}")
                .parse()
                .ok()
                .filter(|f: &Format| f.info().is_some());
        }
        return None;
    }
    if let Some(k) = upper.strip_prefix("R8G8B8_") {
        return format!("R8G8B8A8_{k}").parse().ok();
    }
    None
}

/// Parses `Metadata.json`'s `export_format`.
pub fn parse_metadata(bytes: &[u8]) -> Result<Vec<MetaBuffer>, String> {
    let v: Value = serde_json::from_slice(bytes).map_err(|e| format!("not JSON: {e}"))?;
    let ef = v["export_format"]
        .as_object()
        .ok_or("no `export_format` object")?;
    let mut out = Vec::new();
    'buffers: for (name, b) in ef {
        let sems = b["semantics"]
            .as_array()
            .ok_or(format!("export_format.{name}: no semantics"))?;
        let mut elements = Vec::new();
        let mut offset = 0u32;
        for s in sems {
            let sname = s["name"]
                .as_str()
                .ok_or(format!("export_format.{name}: a semantic without name"))?;
            let fname = s["format"].as_str().unwrap_or("");
            let stride = s["stride"]
                .as_u64()
                .and_then(|x| u32::try_from(x).ok())
                .unwrap_or(0);
            let index = s["index"]
                .as_u64()
                .and_then(|x| u32::try_from(x).ok())
                .unwrap_or(0);
            // Buffers that are not vertex data (the index and shape-key buffers) have formats
            // no vertex element has; they are left out.
            let Some(f) = meta_format(fname, stride) else {
                continue 'buffers;
            };
            elements.push(InputElementDesc::per_vertex(sname, index, f, 0, offset));
            offset = offset.checked_add(stride).ok_or("stride overflow")?;
        }
        out.push(MetaBuffer {
            name: name.clone(),
            elements,
            stride: offset,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_formats() {
        assert_eq!(meta_format("R8_UINT", 4), Some(Format::R8G8B8A8_UINT));
        assert_eq!(meta_format("R8G8B8_SNORM", 3), Some(Format::R8G8B8A8_SNORM));
        assert_eq!(meta_format("R16G16_FLOAT", 4), Some(Format::R16G16_FLOAT));
        assert_eq!(meta_format("R32_UINT", 12), Some(Format::R32G32B32_UINT));
        assert_eq!(meta_format("R16_UINT", 6), None);
        let m = parse_metadata(
            br#"{"export_format":{"Blend":{"semantics":[
            {"name":"BLENDINDICES","index":0,"format":"R8_UINT","stride":4},
            {"name":"BLENDWEIGHT","index":0,"format":"R8_UINT","stride":4}]}}}"#,
        )
        .unwrap();
        assert_eq!(m[0].stride, 8);
        assert_eq!(m[0].elements[1].aligned_byte_offset, 4);
    }
}
