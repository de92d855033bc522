//! Writing edits back into a mod: new vertex buffers for a component (in the same split and
//! strides), new indices for its parts (in the same index-buffer files and formats), and a copy
//! of each INI file whose counts are rewritten in place — every other byte unchanged.
//!
//! What changes in the INI, and only where the INI writes the value as a plain number:
//! * `drawindexed = COUNT, START, base` (and `drawindexedinstanced`): the count and start of
//!   each part whose index range moved or changed size;
//! * `draw = N, start` of a pass over a component's vertex buffers (the skinning pass), and
//!   `override_vertex_count = N` (XXMI loaders), when `N` is the component's old vertex count:
//!   the new vertex count;
//! * `global $…vertex_count = N` in `[Constants]` when `N` is the old vertex count of the mod's
//!   only component (WWMI's `$mesh_vertex_count`).
//!
//! `match_first_index` and `match_index_count` are never changed: they select the game's draw
//! call, which an edit does not change. A part drawn by the game's own call (no `drawindexed`,
//! only `ib = …` replaced) keeps the game's index count: fewer indices are padded with
//! degenerate triangles (with a warning), more are an error.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::buffer::IndexFormat;

use super::{Mod, ModError, Where};

/// The identity of a part's index range: index buffer, start, count, base vertex.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RangeKey {
    /// The index buffer resource.
    pub ib: usize,
    /// Start index.
    pub start: u32,
    /// Index count.
    pub count: u32,
    /// Base vertex.
    pub base: i32,
}

/// New data for one component.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ComponentEdit {
    /// The component (index into [`Mod::components`]).
    pub component: usize,
    /// New bytes of each of its buffers: (resource, bytes), whole records of its stride.
    pub buffers: Vec<(usize, Vec<u8>)>,
    /// New vertex count.
    pub vertex_count: u32,
    /// New indices per index range: vertex numbers (base vertex included) in the new buffers.
    pub ranges: Vec<(RangeKey, Vec<u32>)>,
}

/// Everything to write back.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Edits {
    /// Per edited component.
    pub components: Vec<ComponentEdit>,
}

/// One file of the written mod.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrittenFile {
    /// Path relative to the main INI's folder (with `/`).
    pub name: String,
    /// The bytes.
    pub bytes: Vec<u8>,
    /// Whether the bytes differ from the original file's.
    pub changed: bool,
}

/// The written mod: every INI and buffer file, and what was doubted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Written {
    /// Files, the main INI first.
    pub files: Vec<WrittenFile>,
    /// INI edits made: (file:line, old text, new text).
    pub ini_edits: Vec<(String, String, String)>,
    /// Doubts.
    pub warnings: Vec<String>,
}

/// Index ranges of the mod's parts (over every state given), with their literal spans.
#[derive(Clone, Debug, Default)]
struct RangeInfo {
    count_spans: Vec<(usize, usize, usize)>,
    start_spans: Vec<(usize, usize, usize)>,
    caller: bool,
    at: Option<Where>,
    name: String,
}

fn rel_name(m: &Mod, path: &std::path::Path) -> Option<String> {
    let base = m.path.parent().unwrap_or(std::path::Path::new(""));
    let rel = path.strip_prefix(base).ok()?;
    let s = rel.to_string_lossy().replace('\\', "/");
    if s.split('/').any(|c| c == "..") || s.is_empty() {
        return None;
    }
    Some(s)
}

fn read_original(path: &std::path::Path) -> Result<Vec<u8>, String> {
    crate::input::read_file(path, super::MAX_BUFFER_BYTES).map_err(|e| e.to_string())
}

/// Applies `edits` to mod `m`, read in every state of `states` (the parts of all of them are
/// kept): the new bytes of every INI and buffer file the mod names.
pub fn write_back(m: &Mod, states: &[Mod], edits: &Edits) -> Result<Written, ModError> {
    let main = Where::file(&m.ini.files[0].name);
    let mut out = Written::default();
    let mut ini_bytes: Vec<Vec<u8>> = m.ini.files.iter().map(|f| f.bytes.clone()).collect();
    // Replacements per INI file: (start, end, new text).
    let mut repl: Vec<BTreeMap<usize, (usize, String)>> = vec![BTreeMap::new(); m.ini.files.len()];
    let mut add_repl = |file: usize, span: (usize, usize), text: String| -> Result<(), ModError> {
        if let Some((end, old)) = repl[file].get(&span.0)
            && (*end != span.1 || *old != text)
        {
            return Err(ModError::new(
                Where::file(&m.ini.files[file].name),
                Some(text),
                format!("two edits of the same value disagree (`{old}`)"),
            ));
        }
        repl[file].insert(span.0, (span.1, text));
        Ok(())
    };
    // Index ranges over all states.
    let mut ranges: BTreeMap<RangeKey, RangeInfo> = BTreeMap::new();
    for s in states.iter().chain(std::iter::once(m)) {
        for p in &s.parts {
            let (Some(ib), true) = (p.index_buffer, p.indexed) else {
                continue;
            };
            let key = RangeKey {
                ib,
                start: p.start,
                count: p.count,
                base: p.base_vertex,
            };
            let info = ranges.entry(key).or_default();
            if let Some(sp) = p.count_span
                && !info.count_spans.contains(&sp)
            {
                info.count_spans.push(sp);
            }
            if let Some(sp) = p.start_span
                && !info.start_spans.contains(&sp)
            {
                info.start_spans.push(sp);
            }
            info.caller |= p
                .inferred
                .as_deref()
                .is_some_and(|t| t.starts_with("the game's draw"));
            info.at.get_or_insert(p.at.clone());
            if info.name.is_empty() {
                info.name = p.name.clone();
            }
        }
    }
    let mut new_buffers: BTreeMap<usize, Vec<u8>> = BTreeMap::new();
    for ce in &edits.components {
        let c = m.components.get(ce.component).ok_or_else(|| {
            ModError::new(
                main.clone(),
                Some(ce.component.to_string()),
                "no such component",
            )
        })?;
        for (r, bytes) in &ce.buffers {
            let s = c.streams.iter().find(|s| s.resource == *r).ok_or_else(|| {
                ModError::new(
                    main.clone(),
                    Some(m.describe(*r)),
                    "not a buffer of the component",
                )
            })?;
            if bytes.len() % s.stride as usize != 0 {
                return Err(ModError::new(
                    main.clone(),
                    Some(m.describe(*r)),
                    format!(
                        "{} bytes are not whole {}-byte records",
                        bytes.len(),
                        s.stride
                    ),
                ));
            }
            new_buffers.insert(*r, bytes.clone());
        }
        let old_n = c.vertex_count;
        if ce.vertex_count != old_n {
            // Vertex counts in the INI.
            for site in vertex_count_sites(m, states, ce.component) {
                add_repl(site.0, (site.1, site.2), ce.vertex_count.to_string())?;
            }
        }
    }
    // Index buffers: ranges of each buffer in order, rebuilt.
    let mut by_ib: BTreeMap<usize, Vec<RangeKey>> = BTreeMap::new();
    for k in ranges.keys() {
        by_ib.entry(k.ib).or_default().push(*k);
    }
    let edited: BTreeMap<RangeKey, &Vec<u32>> = edits
        .components
        .iter()
        .flat_map(|c| c.ranges.iter().map(|(k, v)| (*k, v)))
        .collect();
    for (ib, mut keys) in by_ib {
        if !keys.iter().any(|k| edited.contains_key(k)) {
            continue;
        }
        keys.sort();
        keys.dedup_by(|a, b| {
            a.start == b.start && a.count == b.count && {
                // Same range with another base vertex: both must be given the same indices.
                a.base == b.base
            }
        });
        let res = &m.resources[ib];
        let format = match res.format {
            Some(f) if f == crate::format::Format::R16_UINT => IndexFormat::R16Uint,
            Some(f) if f == crate::format::Format::R32_UINT => IndexFormat::R32Uint,
            _ => {
                return Err(ModError::new(
                    res.at.clone(),
                    Some(res.name.clone()),
                    "the index buffer has no R16_UINT/R32_UINT format",
                ));
            }
        };
        let size = format.size() as usize;
        let old = m.buffer(ib).ok_or_else(|| {
            ModError::new(
                res.at.clone(),
                Some(m.describe(ib)),
                "the index buffer was not read",
            )
        })?;
        let mut new = Vec::with_capacity(old.len());
        let mut pos = 0usize; // in indices, in the old buffer
        for k in &keys {
            let start = k.start as usize;
            if start < pos {
                return Err(ModError::new(
                    ranges[k].at.clone().unwrap_or(res.at.clone()),
                    Some(ranges[k].name.clone()),
                    format!(
                        "its index range {}..{} overlaps another part's range in {}; ranges that share indices cannot be rewritten",
                        k.start,
                        k.start as u64 + k.count as u64,
                        m.describe(ib)
                    ),
                ));
            }
            // Bytes before the range, unchanged.
            new.extend_from_slice(&old[pos * size..start * size]);
            let info = &ranges[k];
            let values: Vec<u32> = match edited.get(k) {
                Some(v) => {
                    let mut out = Vec::with_capacity(v.len());
                    for (i, &x) in v.iter().enumerate() {
                        let rel = i64::from(x) - i64::from(k.base);
                        let max = if size == 2 { 0xffff } else { u32::MAX as i64 };
                        if rel < 0 || rel > max {
                            return Err(ModError::new(
                                info.at.clone().unwrap_or(res.at.clone()),
                                Some(x.to_string()),
                                format!(
                                    "{}: index {i} of part {} is vertex {x}, which {} (base vertex {}) cannot hold",
                                    m.describe(ib),
                                    info.name,
                                    format.format(),
                                    k.base
                                ),
                            ));
                        }
                        out.push(rel as u32);
                    }
                    out
                }
                None => old[start * size..(start + k.count as usize) * size]
                    .chunks_exact(size)
                    .map(|c| {
                        if size == 2 {
                            u32::from(u16::from_le_bytes([c[0], c[1]]))
                        } else {
                            u32::from_le_bytes([c[0], c[1], c[2], c[3]])
                        }
                    })
                    .collect(),
            };
            let mut values = values;
            let new_start = new.len() / size;
            if info.caller {
                if values.len() > k.count as usize {
                    return Err(ModError::new(
                        info.at.clone().unwrap_or(res.at.clone()),
                        Some(info.name.clone()),
                        format!(
                            "the part has {} indices; the game's own draw call draws {} (the INI has no drawindexed whose count could change)",
                            values.len(),
                            k.count
                        ),
                    ));
                }
                if values.len() < k.count as usize {
                    out.warnings.push(format!(
                        "{}: {} indices padded to the game draw's {} with degenerate triangles",
                        info.name,
                        values.len(),
                        k.count
                    ));
                    let fill = values.first().copied().unwrap_or(0);
                    values.resize(k.count as usize, fill);
                }
                if new_start as i64 != i64::from(k.start) {
                    return Err(ModError::new(
                        info.at.clone().unwrap_or(res.at.clone()),
                        Some(info.name.clone()),
                        format!(
                            "the game's draw starts at index {}; edits before it moved it to {new_start}",
                            k.start
                        ),
                    ));
                }
            }
            for v in &values {
                new.extend_from_slice(&v.to_le_bytes()[..size]);
            }
            let new_count = values.len();
            if new_count != k.count as usize && !info.caller {
                if info.count_spans.is_empty() {
                    return Err(ModError::new(
                        info.at.clone().unwrap_or(res.at.clone()),
                        Some(info.name.clone()),
                        format!(
                            "the part now has {new_count} indices (was {}), and its draw's count is not written as a number in the INI",
                            k.count
                        ),
                    ));
                }
                for sp in &info.count_spans {
                    add_repl(sp.0, (sp.1, sp.2), new_count.to_string())?;
                }
            }
            if new_start as i64 != i64::from(k.start) && !info.caller {
                if info.start_spans.is_empty() && !info.count_spans.is_empty() {
                    return Err(ModError::new(
                        info.at.clone().unwrap_or(res.at.clone()),
                        Some(info.name.clone()),
                        format!(
                            "the part now starts at index {new_start} (was {}), and its draw's start is not written as a number",
                            k.start
                        ),
                    ));
                }
                for sp in &info.start_spans {
                    add_repl(sp.0, (sp.1, sp.2), new_start.to_string())?;
                }
            }
            pos = start + k.count as usize;
        }
        new.extend_from_slice(&old[(pos * size).min(old.len())..]);
        new_buffers.insert(ib, new);
    }
    // INI text.
    for (f, edits_in) in repl.iter().enumerate() {
        let mut bytes = Vec::with_capacity(ini_bytes[f].len());
        let mut pos = 0;
        for (&start, (end, text)) in edits_in {
            let old = String::from_utf8_lossy(&ini_bytes[f][start..*end]).into_owned();
            if old == *text {
                continue;
            }
            bytes.extend_from_slice(&ini_bytes[f][pos..start]);
            bytes.extend_from_slice(text.as_bytes());
            pos = *end;
            let line = ini_bytes[f][..start]
                .iter()
                .filter(|&&b| b == b'\n')
                .count()
                + 1;
            out.ini_edits
                .push((format!("{}:{line}", m.ini.files[f].name), old, text.clone()));
        }
        bytes.extend_from_slice(&ini_bytes[f][pos..]);
        ini_bytes[f] = bytes;
    }
    for (f, file) in m.ini.files.iter().enumerate() {
        let name = if f == 0 {
            file.path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| "mod.ini".into())
        } else {
            file.name.clone()
        };
        out.files.push(WrittenFile {
            name,
            changed: ini_bytes[f] != file.bytes,
            bytes: std::mem::take(&mut ini_bytes[f]),
        });
    }
    // Every file a resource names: new bytes, or the original.
    let mut done: Vec<PathBuf> = Vec::new();
    for (i, r) in m.resources.iter().enumerate() {
        let Some(path) = &r.path else { continue };
        if done.contains(path) {
            if new_buffers.contains_key(&i) {
                out.warnings.push(format!(
                    "{}: its file is also another resource's; written once",
                    m.describe(i)
                ));
            }
            continue;
        }
        done.push(path.clone());
        let Some(name) = rel_name(m, path) else {
            out.warnings.push(format!(
                "{}: the file lies outside the mod's folder; not copied",
                m.describe(i)
            ));
            continue;
        };
        let (bytes, changed) = match new_buffers.remove(&i) {
            Some(b) => {
                let changed = m.buffer(i).is_none_or(|o| o != b.as_slice());
                (b, changed)
            }
            None => match m.buffer(i) {
                Some(b) => (b.to_vec(), false),
                None => match read_original(path) {
                    Ok(b) => (b, false),
                    Err(_) => continue,
                },
            },
        };
        out.files.push(WrittenFile {
            name,
            bytes,
            changed,
        });
    }
    Ok(out)
}

/// Places in the INI that state a component's vertex count: (file, start, end).
fn vertex_count_sites(m: &Mod, states: &[Mod], component: usize) -> Vec<(usize, usize, usize)> {
    let c = &m.components[component];
    let n = c.vertex_count.to_string();
    let mut out = Vec::new();
    // Passes drawing the component's vertices: `draw = N, 0`.
    for s in states.iter().chain(std::iter::once(m)) {
        for p in &s.parts {
            if p.indexed || p.component.map(|x| &s.components[x].resources) != Some(&c.resources) {
                continue;
            }
            if p.count == c.vertex_count
                && let Some(sp) = p.count_span
                && !out.contains(&sp)
            {
                out.push(sp);
            }
        }
    }
    let prefix = format!("textureoverride{}", c.name.to_ascii_lowercase());
    let only = m.components.len() == 1;
    for sec in &m.ini.sections {
        let lower = sec.name.to_ascii_lowercase();
        let constants = lower == "constants";
        if !(lower.starts_with(&prefix)
            || (only && lower.starts_with("textureoverride"))
            || constants)
        {
            continue;
        }
        for e in &sec.entries {
            let k = e.key.to_ascii_lowercase();
            let hit = if constants {
                only && k.starts_with("global") && k.ends_with("vertex_count")
            } else {
                k == "override_vertex_count"
            };
            if hit && e.value.trim() == n {
                let sp = (e.file, e.value_span.0, e.value_span.1);
                if !out.contains(&sp) {
                    out.push(sp);
                }
            }
        }
    }
    out
}
