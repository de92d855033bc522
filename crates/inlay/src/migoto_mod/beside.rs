//! Files the tools leave beside a mod that say more than its INI: an importer `.fmt` (the
//! element layout of the merged vertex buffer the tool split), `hash.json` (GIMI/SRMI/ZZMI
//! collect scripts and XXMITools: which hashes are a component's position, blend, texcoord and
//! index buffers, its name and its parts; the layout of each component is the `…-vb0=HASH.txt`
//! dump the collect script wrote beside it) and `Metadata.json` (WWMI-Tools: per buffer, its
//! elements).
//!
//! A side file that is there but cannot be read is an error naming the file and the field: the
//! reader never falls back to a guess when the tool's own record of the formats is broken.

use std::path::Path;

use serde_json::Value;

use crate::capture::fmt::{FmtFile, parse as parse_fmt};
use crate::element::InputElementDesc;
use crate::format::Format;

use super::{ModError, ModWarning, Where};

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
    /// `object_classifications` (the part letters: `A`, `B`, …).
    pub classifications: Vec<String>,
    /// The layout of the draw the component was dumped from, read from the vb text dump beside
    /// `hash.json` (`<name><component><class>-vb0=<hash>.txt`).
    pub dump: Option<DumpLayout>,
}

/// The element layout of a component's dumped draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DumpLayout {
    /// The vb text dump it was read from.
    pub file: String,
    /// Its elements, in `element[i]` order, offsets as dumped.
    pub elements: Vec<InputElementDesc>,
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

/// Largest part of a vb text dump read for its header (the data lines that follow are not
/// needed: the mod's own buffers hold the data).
const MAX_DUMP_HEADER_BYTES: u64 = 1 << 20;

fn side_error(dir: &Path, name: &str, message: impl Into<String>) -> ModError {
    ModError::new(
        Where::file(&dir.join(name).display().to_string()),
        None,
        message,
    )
}

fn read(dir: &Path, name: &str, limit: u64) -> Result<Vec<u8>, ModError> {
    use std::io::Read;
    let path = dir.join(name);
    let (f, len) = crate::input::open_file(&path, u64::MAX)
        .map_err(|e| side_error(dir, name, crate::capture::why_unread(&e)))?;
    if len > limit && limit == MAX_SIDE_BYTES {
        return Err(side_error(
            dir,
            name,
            format!("{len} bytes, larger than the {limit}-byte limit of a file beside a mod"),
        ));
    }
    let mut out = Vec::new();
    f.take(limit)
        .read_to_end(&mut out)
        .map_err(|e| side_error(dir, name, format!("cannot read: {e}")))?;
    Ok(out)
}

/// Reads the `.fmt`, `hash.json` and `Metadata.json` files in `dir` (not its sub-folders), and
/// for each `hash.json` component the vb text dump beside it that gives its layout. A
/// `hash.json` or `Metadata.json` that cannot be read, or a dump it points to whose header
/// cannot be read, is an error naming the file and the field; an unreadable `.fmt` is a
/// warning (it may belong to something else in the folder).
pub fn read_dir(dir: &Path, warnings: &mut Vec<ModWarning>) -> Result<Beside, ModError> {
    let mut out = Beside::default();
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Ok(out);
    };
    let mut names: Vec<String> = rd
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for n in &names {
        let lower = n.to_ascii_lowercase();
        if lower.ends_with(".fmt") {
            let bytes = match read(dir, n, MAX_SIDE_BYTES) {
                Ok(b) => b,
                Err(e) => {
                    warnings.push(ModWarning::new(
                        Where::file(n),
                        None,
                        format!(".fmt beside the mod not used: {}", e.message),
                    ));
                    continue;
                }
            };
            match parse_fmt(n, &bytes) {
                Ok(f) => out.fmts.push((n.clone(), f)),
                Err(e) => warnings.push(ModWarning::new(
                    Where::file(n),
                    None,
                    format!(".fmt beside the mod not used: {e}"),
                )),
            }
        } else if lower == "hash.json" {
            let bytes = read(dir, n, MAX_SIDE_BYTES)?;
            let mut comps = parse_hash_json(&bytes).map_err(|m| side_error(dir, n, m))?;
            for (i, c) in comps.iter_mut().enumerate() {
                c.dump = find_dump(dir, &names, c)
                    .map_err(|m| side_error(dir, n, format!("[{i}] ({}): {m}", c.name)))?;
            }
            out.hash_json = Some((n.clone(), comps));
        } else if lower == "metadata.json" {
            let bytes = read(dir, n, MAX_SIDE_BYTES)?;
            let b = parse_metadata(&bytes).map_err(|m| side_error(dir, n, m))?;
            out.metadata = Some((n.clone(), b));
        }
    }
    Ok(out)
}

/// The vb text dump of a `hash.json` component: the file named
/// `<anything><component><class>-vb0=<hash>.txt` for one of its classifications (the collect
/// scripts' naming), the one whose hash is `position_vb` first.
fn find_dump(
    dir: &Path,
    names: &[String],
    c: &HashComponent,
) -> Result<Option<DumpLayout>, String> {
    let comp = c.name.to_ascii_lowercase();
    let classes: Vec<String> = if c.classifications.is_empty() {
        vec![String::new()]
    } else {
        c.classifications
            .iter()
            .map(|x| x.to_ascii_lowercase())
            .collect()
    };
    let mut found: Vec<(bool, &String)> = Vec::new();
    for n in names {
        let lower = n.to_ascii_lowercase();
        let Some(stem) = lower.strip_suffix(".txt") else {
            continue;
        };
        let Some((head, hash)) = stem.split_once("-vb0=") else {
            continue;
        };
        if comp.is_empty()
            || !classes
                .iter()
                .any(|k| head.ends_with(&format!("{comp}{k}")))
        {
            continue;
        }
        let is_position = c
            .position_vb
            .is_some_and(|p| u32::from_str_radix(hash, 16).ok() == Some(p));
        found.push((is_position, n));
    }
    found.sort_by_key(|(p, _)| !*p);
    let Some((_, file)) = found.first() else {
        return Ok(None);
    };
    let bytes = read(dir, file, MAX_DUMP_HEADER_BYTES).map_err(|e| e.message)?;
    // Only the header: cut before the first data line (`vb0[0]+000 …`).
    let mut end = bytes.len();
    let mut at = 0;
    while at < bytes.len() {
        let line_end = bytes[at..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |p| at + p + 1);
        let line = &bytes[at..line_end];
        if line.len() > 2 && line[..2].eq_ignore_ascii_case(b"vb") && line[2].is_ascii_digit() {
            end = at;
            break;
        }
        at = line_end;
    }
    let vb = crate::capture::migoto::parse_vb_txt(file, &bytes[..end], false)
        .map_err(|e| format!("its layout {file}: {e}"))?;
    if vb.elements.is_empty() {
        return Err(format!("its layout {file}: no `element[i]:` blocks"));
    }
    Ok(Some(DumpLayout {
        file: (*file).clone(),
        elements: vb.elements,
    }))
}

/// Renders a JSON value for a message (shortened).
fn shown(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 60 {
        s.chars().take(57).chain("...".chars()).collect()
    } else {
        s
    }
}

/// A hash field: absent, `""` (the tools' "none") or hexadecimal digits.
fn hash_field(
    c: &serde_json::Map<String, Value>,
    i: usize,
    key: &str,
) -> Result<Option<u32>, String> {
    match c.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
        Some(Value::String(s)) => u32::from_str_radix(s.trim(), 16)
            .map(Some)
            .map_err(|_| format!("[{i}].{key}: not a hexadecimal 32-bit hash (`{s}`)")),
        Some(v) => Err(format!(
            "[{i}].{key}: expected a hash string, found `{}`",
            shown(v)
        )),
    }
}

/// Parses a `hash.json`: a list of components, each an object with `component_name` (a
/// string) and the hashes `draw_vb`, `position_vb`, `blend_vb`, `texcoord_vb`, `ib`
/// (hexadecimal strings, `""` for none), `object_indexes` (unsigned integers) and
/// `object_classifications` (strings) — the fields the collect scripts write and XXMITools'
/// `HashJsonData` reads. Other fields are not used. An error names the field (`[2].ib`).
pub fn parse_hash_json(bytes: &[u8]) -> Result<Vec<HashComponent>, String> {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    let v: Value = serde_json::from_slice(bytes).map_err(|e| format!("not JSON: {e}"))?;
    let list = v
        .as_array()
        .ok_or_else(|| format!("expected a list of components, found `{}`", shown(&v)))?;
    let mut out = Vec::with_capacity(list.len());
    for (i, c) in list.iter().enumerate() {
        let c = c
            .as_object()
            .ok_or_else(|| format!("[{i}]: expected a component object, found `{}`", shown(c)))?;
        let name = match c.get("component_name") {
            Some(Value::String(s)) => s.clone(),
            Some(v) => {
                return Err(format!(
                    "[{i}].component_name: expected a string, found `{}`",
                    shown(v)
                ));
            }
            None => return Err(format!("[{i}].component_name: missing")),
        };
        if let Some(v) = c.get("object_indexes") {
            let ok = v.as_array().is_some_and(|a| {
                a.iter()
                    .all(|x| x.as_u64().is_some_and(|n| n <= u64::from(u32::MAX)))
            });
            if !ok {
                return Err(format!(
                    "[{i}].object_indexes: expected a list of unsigned integers, found `{}`",
                    shown(v)
                ));
            }
        }
        let classifications = match c.get("object_classifications") {
            None => Vec::new(),
            Some(v) => v
                .as_array()
                .and_then(|a| a.iter().map(|x| x.as_str().map(str::to_string)).collect())
                .ok_or_else(|| {
                    format!(
                        "[{i}].object_classifications: expected a list of strings, found `{}`",
                        shown(v)
                    )
                })?,
        };
        out.push(HashComponent {
            name,
            position_vb: hash_field(c, i, "position_vb")?,
            blend_vb: hash_field(c, i, "blend_vb")?,
            texcoord_vb: hash_field(c, i, "texcoord_vb")?,
            draw_vb: hash_field(c, i, "draw_vb")?,
            ib: hash_field(c, i, "ib")?,
            classifications,
            dump: None,
        });
    }
    Ok(out)
}

/// Splits a component's dumped layout into the buffers its mod has, the way XXMITools'
/// exporter does (leotorrez/XXMITools migoto/data/data_model.py, `DataModelXXMI.from_obj`):
/// POSITION, NORMAL and TANGENT go to `Position`; BLENDWEIGHT(S) and BLENDINDICES to `Blend`;
/// TEXCOORD and COLOR to `Texcoord`, each in the dump's element order, packed from offset 0
/// with the dumped formats. Without a `blend_vb` there is no `Blend` buffer; without a
/// `texcoord_vb` either, everything goes to `Position`. `color_with_position` is the Honkai
/// Impact 3rd Part 2 rule (COLOR with the position data, TEXCOORD alone in `Texcoord`).
/// Elements of other semantics are not exported by the tool and left out. Returns (role,
/// elements, stride) for each non-empty buffer.
pub fn split_dump(
    dump: &[InputElementDesc],
    c: &HashComponent,
    color_with_position: bool,
) -> Vec<(&'static str, Vec<InputElementDesc>, u32)> {
    const PNT: &[&str] = &["POSITION", "NORMAL", "TANGENT"];
    const BLEND: &[&str] = &["BLENDWEIGHT", "BLENDWEIGHTS", "BLENDINDICES"];
    let (pos, blend, tex): (Vec<&str>, &[&str], &[&str]) = if c.blend_vb.is_none() {
        if c.texcoord_vb.is_none() {
            (
                vec!["POSITION", "NORMAL", "TANGENT", "TEXCOORD", "COLOR"],
                &[],
                &[],
            )
        } else {
            (PNT.to_vec(), &[], &["TEXCOORD", "COLOR"])
        }
    } else if color_with_position {
        (
            vec!["POSITION", "NORMAL", "TANGENT", "COLOR"],
            BLEND,
            &["TEXCOORD"],
        )
    } else {
        (PNT.to_vec(), BLEND, &["TEXCOORD", "COLOR"])
    };
    let mut out = Vec::new();
    for (role, set) in [("Position", &pos[..]), ("Blend", blend), ("Texcoord", tex)] {
        let mut elements = Vec::new();
        let mut offset = 0u32;
        for e in dump {
            let name = e
                .semantic_name
                .as_deref()
                .unwrap_or("")
                .to_ascii_uppercase();
            if !set.contains(&name.as_str()) {
                continue;
            }
            let mut d = e.clone();
            d.input_slot = 0;
            d.aligned_byte_offset = offset;
            offset = offset.saturating_add(e.format.info().map_or(0, |i| i.byte_size()));
            elements.push(d);
        }
        if !elements.is_empty() {
            out.push((role, elements, offset));
        }
    }
    out
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
