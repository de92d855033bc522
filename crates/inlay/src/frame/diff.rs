//! What changed between two captures of a game — before and after a patch: two frames, two
//! dumps, two mods or two layouts (`inlay diff A B`).
//!
//! Each side is a list of [`Part`]s: the distinct meshes a frame draws (draws that bind the same
//! buffers, layout and index range are one part), one dump, the draws of a mod
//! ([`parts_of_mod`]: each [`crate::migoto_mod::Part`] with its component's buffers, the
//! formats the mod reader resolved for them, the hashes of the overrides that bind them and its
//! `drawindexed` range), or one layout. [`diff`] pairs the parts of the two sides, in this
//! order, each pairing used only where it is unique:
//!
//! 1. **same hashes** — the same vertex-buffer hashes per slot and the same index-buffer hash
//!    and first index;
//! 2. **matched by content** — a new hash for the same content: the same layout, strides,
//!    vertex and index counts, first index and topology (what a patch that only re-hashes
//!    resources leaves);
//! 3. **same section** — mods only: the same part name (the `[TextureOverride…]` section
//!    that defines the draw), whatever changed under it;
//! 4. **same index buffer** — the index hash and first index kept, the vertex buffers changed;
//! 5. **same counts** — the layout changed, the vertex and index counts did not.
//!
//! For each pair it lists the hash changes, element-by-element layout differences
//! (semantic name and index are the identity; format, slot, resolved offset, class and step
//! rate are compared), stride and count changes (vertices, indices, first index, base and
//! start vertex: a mod's `drawindexed = count, start, base`), and — where the layout changed — the
//! [`crate::encode::repack`] plan from the old layout to the new: per element the
//! conversion and whether it can lose information, lanes filled from defaults, elements
//! dropped, or the element the old data cannot supply. Parts left unpaired are listed per
//! side. [`Diff::hash_pairs`] is what `--fix-hashes` writes into a hash file.

#![forbid(unsafe_code)]

use std::collections::HashMap;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::name::Shaders;
use super::{Call, Draw, Frame};
use crate::assembler::{DrawCall, Topology};
use crate::buffer::IndexFormat;
use crate::capture::{Capture, SlotData};
use crate::element::InputElementDesc;
use crate::encode::{ElementSource, RepackOptions, SourceBuffer, repack};
use crate::layout::InputLayout;
use crate::migoto_mod::{Mod, Stream};
use crate::target::Target;

/// One mesh of a side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// A name: the first draw's id, or the file.
    pub label: String,
    /// Every draw that draws it (frames).
    pub draws: Vec<String>,
    /// Vertex-buffer hashes by slot.
    pub vb_hashes: Vec<(u32, Option<u32>)>,
    /// Index-buffer hash.
    pub ib_hash: Option<u32>,
    /// Shader hashes.
    pub shaders: Shaders,
    /// The input layout, if known.
    pub elements: Option<Vec<InputElementDesc>>,
    /// Strides by slot.
    pub strides: Vec<(u32, u32)>,
    /// Vertices (for an indexed draw: as many as the dump holds).
    pub vertex_count: Option<u32>,
    /// Indices drawn.
    pub index_count: Option<u32>,
    /// First index.
    pub first_index: u32,
    /// Index format.
    pub index_format: Option<IndexFormat>,
    /// Topology.
    pub topology: Option<Topology>,
    /// Base vertex of an indexed draw.
    pub base_vertex: i32,
    /// Start vertex of a non-indexed draw.
    pub start_vertex: u32,
    /// A mod's part: the name of the section that defines the draw (the identity of the
    /// [`Pairing::SameName`] tier); `None` for frames, dumps and layouts.
    pub section: Option<String>,
    /// Names for slots where `vbN` is not what the user knows them by: a mod's buffers by
    /// stream, `vb0 (Position)`; slots not listed are `vbN`.
    pub slot_names: Vec<(u32, String)>,
}

impl Part {
    /// A frame's draw as a part.
    pub fn of_draw(d: &Draw) -> Part {
        Part {
            label: d.id(),
            draws: vec![d.id()],
            vb_hashes: d.vbs.iter().map(|v| (v.slot, v.hash)).collect(),
            ib_hash: d.ib.as_ref().and_then(|i| i.hash),
            shaders: d.shaders,
            elements: d.layout.as_ref().map(|l| (**l).clone()),
            strides: d
                .vbs
                .iter()
                .filter_map(|v| v.stride.map(|s| (v.slot, s)))
                .collect(),
            vertex_count: d.vertex_count(),
            index_count: d.index_count(),
            first_index: d.ib.as_ref().map_or(0, |i| i.first_index),
            index_format: d.ib.as_ref().and_then(|i| i.format),
            topology: d.topology,
            base_vertex: match d.call() {
                Some(Call::Direct(DrawCall::DrawIndexed { base_vertex, .. }))
                | Some(Call::Direct(DrawCall::DrawIndexedInstanced { base_vertex, .. })) => {
                    *base_vertex
                }
                _ => 0,
            },
            start_vertex: match d.call() {
                Some(Call::Direct(DrawCall::Draw { start_vertex, .. }))
                | Some(Call::Direct(DrawCall::DrawInstanced { start_vertex, .. })) => *start_vertex,
                _ => 0,
            },
            section: None,
            slot_names: Vec::new(),
        }
    }

    /// A capture (one dump) as a part; hashes come from its file names
    /// (`…vbN=HASH…`, `…ib=HASH…`) where they have them.
    pub fn of_capture(label: &str, c: &Capture) -> Part {
        let hash_in = |p: &std::path::Path, key: &str| -> Option<u32> {
            let n = p.file_name()?.to_str()?;
            let at = n.find(key)? + key.len();
            let h = n.get(at..at + 8)?;
            u32::from_str_radix(h, 16).ok()
        };
        let call = c.draw_call();
        let index_count = c.index.as_ref().map(|_| match call {
            crate::assembler::draw::DrawCall::DrawIndexed { index_count, .. } => index_count,
            crate::assembler::draw::DrawCall::DrawIndexedInstanced {
                index_count_per_instance,
                ..
            } => index_count_per_instance,
            _ => 0,
        });
        let vertex_count = c.draw.vertex_count.or_else(|| {
            c.slots.first().map(|s| match &s.data {
                SlotData::Binary(b) if s.stride > 0 => {
                    ((b.len() as u64).saturating_sub(s.offset as u64) / s.stride as u64) as u32
                }
                SlotData::Text(t) => t.rows() as u32,
                _ => 0,
            })
        });
        Part {
            label: label.to_string(),
            draws: Vec::new(),
            vb_hashes: c
                .slots
                .iter()
                .map(|s| (s.slot, hash_in(&s.source, &format!("vb{}=", s.slot))))
                .collect(),
            ib_hash: c.index.as_ref().and_then(|i| {
                hash_in(&i.source, "ib=")
                    .or_else(|| c.sources.iter().find_map(|p| hash_in(p, "ib=")))
            }),
            shaders: Shaders::default(),
            elements: Some(c.elements.clone()),
            strides: c.slots.iter().map(|s| (s.slot, s.stride)).collect(),
            vertex_count,
            index_count,
            first_index: c.draw.start_index,
            index_format: c.index.as_ref().map(|i| i.format),
            topology: Some(c.topology),
            base_vertex: if c.index.is_some() {
                c.draw.base_vertex
            } else {
                0
            },
            start_vertex: if c.index.is_some() {
                0
            } else {
                c.draw.start_vertex
            },
            section: None,
            slot_names: Vec::new(),
        }
    }

    /// Part `i` of a mod: its component's buffers by stream (the hash of each is the one of
    /// the override that binds it — the one binding fewest buffers where several do, as a
    /// skinning pass binds Position under Blend's hash), the elements the mod reader resolved
    /// (`.fmt`, `hash.json`/`Metadata.json`, `--layout`, profiles), the component's vertex
    /// count and the draw's range: index count, start index and base vertex of
    /// `drawindexed` (or of the game's draw the part stands for), vertex count and start of
    /// `draw`. Its index hash is the override's that binds its index buffer, else its
    /// context's. The topology is unknown (the INI does not say it).
    pub fn of_mod_part(m: &Mod, i: usize) -> Part {
        let p = &m.parts[i];
        let comp = p.component.and_then(|c| m.components.get(c));
        let mut vb_hashes = Vec::new();
        let mut strides = Vec::new();
        let mut slot_names = Vec::new();
        let mut elements = None;
        if let Some(c) = comp {
            if c.streams.is_empty() {
                // No layout: the buffers alone, by the INI's strides.
                for (k, &r) in c.resources.iter().enumerate() {
                    let res = &m.resources[r];
                    vb_hashes.push((k as u32, resource_hash(m, r)));
                    if let Some(s) = res.stride {
                        strides.push((k as u32, s));
                    }
                    slot_names.push((k as u32, res.short_name().to_string()));
                }
            } else {
                let mut all = Vec::new();
                for (k, s) in c.streams.iter().enumerate() {
                    vb_hashes.push((k as u32, resource_hash(m, s.resource)));
                    strides.push((k as u32, s.stride));
                    slot_names.push((k as u32, stream_name(m, s)));
                    all.extend(s.elements.iter().cloned());
                }
                elements = Some(all);
            }
        }
        let ib_hash = if p.indexed {
            p.index_buffer.and_then(|r| resource_hash(m, r)).or(p.hash)
        } else {
            None
        };
        Part {
            label: p.name.clone(),
            draws: Vec::new(),
            vb_hashes,
            ib_hash,
            shaders: Shaders::default(),
            elements,
            strides,
            vertex_count: if p.indexed {
                comp.map(|c| c.vertex_count)
            } else {
                Some(p.count)
            },
            index_count: p.indexed.then_some(p.count),
            first_index: if p.indexed { p.start } else { 0 },
            index_format: if p.indexed { p.index_format } else { None },
            topology: None,
            base_vertex: if p.indexed { p.base_vertex } else { 0 },
            start_vertex: if p.indexed { 0 } else { p.start },
            section: Some(p.name.clone()),
            slot_names,
        }
    }

    /// The name a slot is reported by: [`Part::slot_names`]' entry, else `vbN`.
    pub fn slot_label(&self, slot: u32) -> String {
        self.slot_names
            .iter()
            .find(|(s, _)| *s == slot)
            .map_or_else(|| format!("vb{slot}"), |(_, n)| n.clone())
    }

    /// A layout alone as a part.
    pub fn of_layout(label: &str, elements: &[InputElementDesc]) -> Part {
        Part {
            label: label.to_string(),
            draws: Vec::new(),
            vb_hashes: Vec::new(),
            ib_hash: None,
            shaders: Shaders::default(),
            elements: Some(elements.to_vec()),
            strides: Vec::new(),
            vertex_count: None,
            index_count: None,
            first_index: 0,
            index_format: None,
            topology: None,
            base_vertex: 0,
            start_vertex: 0,
            section: None,
            slot_names: Vec::new(),
        }
    }

    #[allow(clippy::type_complexity)]
    fn hash_key(&self) -> (Vec<(u32, Option<u32>)>, Option<u32>, u32) {
        (self.vb_hashes.clone(), self.ib_hash, self.first_index)
    }

    #[allow(clippy::type_complexity)]
    fn content_key(
        &self,
    ) -> (
        Option<Vec<InputElementDesc>>,
        Vec<(u32, u32)>,
        Option<u32>,
        Option<u32>,
        u32,
        Option<Topology>,
    ) {
        (
            self.elements.clone(),
            self.strides.clone(),
            self.vertex_count,
            self.index_count,
            self.first_index,
            self.topology,
        )
    }
}

/// The hash of the override that binds resource `r` to a vertex- or index-buffer slot: where
/// several do, the one whose section binds the fewest such buffers (its own override rather
/// than a pass that binds it beside others), the first of equals.
fn resource_hash(m: &Mod, r: usize) -> Option<u32> {
    let vertex_slot = |s: &str| s == "ib" || s.starts_with("vb");
    m.binds
        .iter()
        .filter(|b| b.resource == r && vertex_slot(&b.slot))
        .filter_map(|b| b.hash.map(|h| (h, b.section)))
        .min_by_key(|&(h, section)| {
            m.binds
                .iter()
                .filter(|o| o.section == section && o.hash == Some(h) && vertex_slot(&o.slot))
                .map(|o| o.resource)
                .collect::<BTreeSet<_>>()
                .len()
        })
        .map(|(h, _)| h)
}

/// `vb0 (Position)`: the stream's slot and role, or what of them is known, else its resource.
fn stream_name(m: &Mod, s: &Stream) -> String {
    match (&s.slot, &s.role) {
        (Some(slot), Some(role)) => format!("{slot} ({role})"),
        (Some(slot), None) => format!("{slot} ({})", m.resources[s.resource].short_name()),
        (None, Some(role)) => role.clone(),
        (None, None) => m.resources[s.resource].short_name().to_string(),
    }
}

/// The draws of a mod, one [`Part`] each ([`Part::of_mod_part`]), for the state it was read
/// in.
pub fn parts_of_mod(m: &Mod) -> Vec<Part> {
    (0..m.parts.len())
        .map(|i| Part::of_mod_part(m, i))
        .collect()
}

/// The mod INI of a folder given to `inlay diff`: `None` when the folder is a frame analysis
/// (it has a `log.txt`) or holds no INI; the one `.ini` file at its top otherwise (3DMigoto
/// skips files whose names start with `DISABLED`; `desktop.ini` and 3DMigoto's own
/// `d3dx.ini`/`d3dx_user.ini` are not mods); an error naming them when there are several.
pub fn mod_ini_in(dir: &Path) -> Result<Option<PathBuf>, String> {
    if dir.join("log.txt").is_file() {
        return Ok(None);
    }
    let rd = std::fs::read_dir(dir).map_err(|e| format!("{}: cannot list: {e}", dir.display()))?;
    let mut inis: Vec<PathBuf> = Vec::new();
    for entry in rd.flatten() {
        let name = entry.file_name().to_string_lossy().to_ascii_lowercase();
        if name.ends_with(".ini")
            && !name.starts_with("disabled")
            && !matches!(name.as_str(), "desktop.ini" | "d3dx.ini" | "d3dx_user.ini")
            && entry.path().is_file()
        {
            inis.push(entry.path());
        }
        if inis.len() > 16 {
            break;
        }
    }
    inis.sort();
    match inis.len() {
        0 => Ok(None),
        1 => Ok(inis.pop()),
        _ => Err(format!(
            "{}: several mod INI files ({}); name the one to compare",
            dir.display(),
            inis.iter()
                .map(|p| p
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// The distinct meshes a frame draws (dispatches and draws without dumps are left out).
#[allow(clippy::type_complexity)]
pub fn parts_of_frame(frame: &Frame) -> Vec<Part> {
    let mut parts: Vec<Part> = Vec::new();
    let mut at: HashMap<
        (
            Vec<(u32, Option<u32>)>,
            Option<u32>,
            u32,
            Option<u32>,
            Option<u32>,
        ),
        usize,
    > = HashMap::new();
    for d in &frame.draws {
        if d.vbs.is_empty() {
            continue;
        }
        let p = Part::of_draw(d);
        let key = (
            p.vb_hashes.clone(),
            p.ib_hash,
            p.first_index,
            p.index_count,
            p.vertex_count,
        );
        match at.get(&key) {
            Some(&i) => parts[i].draws.push(d.id()),
            None => {
                at.insert(key, parts.len());
                parts.push(p);
            }
        }
    }
    parts
}

/// How two parts were paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pairing {
    /// Same vertex- and index-buffer hashes.
    SameHashes,
    /// New hashes, same layout and counts.
    Content,
    /// Mods: the same section name.
    SameName,
    /// Same index buffer, other vertex buffers.
    IndexBuffer,
    /// Same counts, other layout.
    Counts,
    /// Two inputs without hashes (two layout files): compared as given.
    Given,
}

impl Pairing {
    /// A word for the text report.
    pub fn name(self) -> &'static str {
        match self {
            Pairing::SameHashes => "same hashes",
            Pairing::Content => "matched by content",
            Pairing::SameName => "same section",
            Pairing::IndexBuffer => "same index buffer",
            Pairing::Counts => "same counts",
            Pairing::Given => "compared as given",
        }
    }
}

/// A hash that changed: `what` is `vb0`…`vbN`, `ib`, `vs`, `ps`, ….
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HashChange {
    /// Which hash.
    pub what: String,
    /// Before.
    pub old: Option<u64>,
    /// After.
    pub new: Option<u64>,
}

/// One element-level difference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ElementChange {
    /// In the new layout only.
    Added(String),
    /// In the old layout only.
    Removed(String),
    /// In both, with a field changed.
    Changed {
        /// `NAME` + index.
        element: String,
        /// `format`, `slot`, `offset`, `class`, `step_rate`.
        field: &'static str,
        /// Before.
        old: String,
        /// After.
        new: String,
    },
}

/// One element of the repack plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanStep {
    /// `NAME` + index of the new layout's element.
    pub element: String,
    /// The old format it is read from (`None`: no old element supplies it).
    pub from: Option<String>,
    /// The new format.
    pub to: String,
    /// Whether the conversion can lose information.
    pub lossy: bool,
    /// Lanes (x y z w) the new format stores and the old does not supply.
    pub defaulted_lanes: String,
}

/// The repack plan from the old layout to the new one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Per element of the new layout.
    pub steps: Vec<PlanStep>,
    /// Old elements the new layout drops.
    pub dropped: Vec<String>,
    /// Why no plan exists (an element the old data cannot supply, a layout that does not
    /// create).
    pub impossible: Option<String>,
}

impl Plan {
    /// Whether repacking keeps every value.
    pub fn is_lossless(&self) -> bool {
        self.impossible.is_none()
            && self.dropped.is_empty()
            && self.steps.iter().all(|s| !s.lossy && s.from.is_some())
    }
}

/// A pair of parts and what differs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairDiff {
    /// The old part (index into the old side).
    pub old: usize,
    /// The new part.
    pub new: usize,
    /// How they were paired.
    pub pairing: Pairing,
    /// Hashes that changed.
    pub hashes: Vec<HashChange>,
    /// Layout differences.
    pub elements: Vec<ElementChange>,
    /// Strides that changed: (slot, old, new).
    pub strides: Vec<(u32, Option<u32>, Option<u32>)>,
    /// Counts and formats that changed: (what, old, new).
    pub counts: Vec<(&'static str, String, String)>,
    /// The repack plan, where the layout changed.
    pub plan: Option<Plan>,
}

impl PairDiff {
    /// Whether nothing differs.
    pub fn is_same(&self) -> bool {
        self.hashes.is_empty()
            && self.elements.is_empty()
            && self.strides.is_empty()
            && self.counts.is_empty()
    }
}

/// The whole comparison.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diff {
    /// The old side's parts.
    pub old: Vec<Part>,
    /// The new side's parts.
    pub new: Vec<Part>,
    /// The pairs.
    pub pairs: Vec<PairDiff>,
    /// Old parts with no partner.
    pub only_old: Vec<usize>,
    /// New parts with no partner.
    pub only_new: Vec<usize>,
}

impl Diff {
    /// Every (old, new) hash pair the pairs establish, for hash files: resource hashes as
    /// 8 hex digits, shader hashes as 16, each old hash once (a hash paired with two
    /// different new ones is left out).
    pub fn hash_pairs(&self) -> Vec<(String, String)> {
        let mut map: Vec<(String, String)> = Vec::new();
        let mut conflicted: Vec<String> = Vec::new();
        for p in &self.pairs {
            for h in &p.hashes {
                let (Some(o), Some(n)) = (h.old, h.new) else {
                    continue;
                };
                let width = if h.what.ends_with('s') && h.what.len() == 2 {
                    16
                } else {
                    8
                };
                let (o, n) = (format!("{o:0width$x}"), format!("{n:0width$x}"));
                match map.iter().find(|(a, _)| *a == o) {
                    Some((_, b)) if *b != n => conflicted.push(o),
                    Some(_) => {}
                    None => map.push((o, n)),
                }
            }
        }
        map.retain(|(o, _)| !conflicted.contains(o));
        map
    }
}

fn element_name(e: &InputElementDesc) -> String {
    format!("{}{}", e.name().unwrap_or("?"), e.semantic_index)
}

fn resolved(elements: &[InputElementDesc]) -> Option<InputLayout> {
    crate::validation::layout_without_shader(&Target::default(), elements).layout
}

/// The element differences of two layouts.
pub fn element_changes(old: &[InputElementDesc], new: &[InputElementDesc]) -> Vec<ElementChange> {
    let (lo, ln) = (resolved(old), resolved(new));
    let offset = |l: &Option<InputLayout>, i: usize, e: &InputElementDesc| {
        l.as_ref()
            .and_then(|l| l.elements().get(i).map(|x| x.offset))
            .unwrap_or(e.aligned_byte_offset)
    };
    let same = |a: &InputElementDesc, b: &InputElementDesc| {
        a.semantic_index == b.semantic_index
            && a.name()
                .unwrap_or("")
                .eq_ignore_ascii_case(b.name().unwrap_or(""))
    };
    let mut out = Vec::new();
    for (i, a) in old.iter().enumerate() {
        match new.iter().position(|b| same(a, b)) {
            None => out.push(ElementChange::Removed(element_name(a))),
            Some(j) => {
                let b = &new[j];
                let class = |c: u32| {
                    if c == 1 {
                        "per-instance".to_string()
                    } else {
                        "per-vertex".to_string()
                    }
                };
                let fields: [(&'static str, String, String); 5] = [
                    ("format", a.format.to_string(), b.format.to_string()),
                    ("slot", a.input_slot.to_string(), b.input_slot.to_string()),
                    (
                        "offset",
                        offset(&lo, i, a).to_string(),
                        offset(&ln, j, b).to_string(),
                    ),
                    (
                        "class",
                        class(a.input_slot_class),
                        class(b.input_slot_class),
                    ),
                    (
                        "step_rate",
                        a.instance_data_step_rate.to_string(),
                        b.instance_data_step_rate.to_string(),
                    ),
                ];
                for (field, o, n) in fields {
                    if o != n {
                        out.push(ElementChange::Changed {
                            element: element_name(a),
                            field,
                            old: o,
                            new: n,
                        });
                    }
                }
            }
        }
    }
    for b in new {
        if !old.iter().any(|a| same(a, b)) {
            out.push(ElementChange::Added(element_name(b)));
        }
    }
    out
}

/// The repack plan from layout `old` to layout `new` (no data needed: the plan is what
/// [`repack`] decides per element).
pub fn plan(old: &[InputElementDesc], new: &[InputElementDesc]) -> Plan {
    let (Some(lo), Some(ln)) = (resolved(old), resolved(new)) else {
        return Plan {
            steps: Vec::new(),
            dropped: Vec::new(),
            impossible: Some("a layout that CreateInputLayout refuses".into()),
        };
    };
    let sources: Vec<SourceBuffer<'_>> = lo
        .slots()
        .iter()
        .map(|s| SourceBuffer {
            slot: s.slot,
            data: &[],
            stride: None,
        })
        .collect();
    let options = RepackOptions {
        vertices: Some(0),
        instances: Some(0),
        ..RepackOptions::default()
    };
    match repack(&lo, &sources, &ln, &options) {
        Ok(r) => Plan {
            steps: r
                .report
                .elements
                .iter()
                .map(|e| PlanStep {
                    element: format!("{}{}", e.semantic, e.index),
                    from: match e.source {
                        ElementSource::Element(_) => e.from.map(|f| f.to_string()),
                        ElementSource::Default => None,
                    },
                    to: e.to.to_string(),
                    lossy: e.lossy,
                    defaulted_lanes: (0..4)
                        .filter(|l| e.defaulted_lanes & (1 << l) != 0)
                        .map(|l| ['x', 'y', 'z', 'w'][l])
                        .collect(),
                })
                .collect(),
            dropped: r.report.dropped.clone(),
            impossible: None,
        },
        Err(e) => Plan {
            steps: Vec::new(),
            dropped: Vec::new(),
            impossible: Some(e.to_string()),
        },
    }
}

/// A slot's name in a pair's report: the old part's name for it, else the new one's.
pub fn slot_label(old: &Part, new: &Part, slot: u32) -> String {
    if old.slot_names.iter().any(|(s, _)| *s == slot) {
        old.slot_label(slot)
    } else {
        new.slot_label(slot)
    }
}

fn compare(old: &Part, new: &Part, oi: usize, ni: usize, pairing: Pairing) -> PairDiff {
    let mut hashes = Vec::new();
    let mut slots: Vec<u32> = old
        .vb_hashes
        .iter()
        .chain(&new.vb_hashes)
        .map(|(s, _)| *s)
        .collect();
    slots.sort();
    slots.dedup();
    for s in slots {
        let o = old
            .vb_hashes
            .iter()
            .find(|(x, _)| *x == s)
            .and_then(|(_, h)| *h);
        let n = new
            .vb_hashes
            .iter()
            .find(|(x, _)| *x == s)
            .and_then(|(_, h)| *h);
        if o != n {
            hashes.push(HashChange {
                what: slot_label(old, new, s),
                old: o.map(u64::from),
                new: n.map(u64::from),
            });
        }
    }
    if old.ib_hash != new.ib_hash {
        hashes.push(HashChange {
            what: "ib".into(),
            old: old.ib_hash.map(u64::from),
            new: new.ib_hash.map(u64::from),
        });
    }
    for ((stage, o), (_, n)) in old.shaders.iter().zip(new.shaders.iter()) {
        if o != n && o.is_some() && n.is_some() {
            hashes.push(HashChange {
                what: stage.into(),
                old: o,
                new: n,
            });
        }
    }
    let elements = match (&old.elements, &new.elements) {
        (Some(a), Some(b)) => element_changes(a, b),
        _ => Vec::new(),
    };
    let mut strides = Vec::new();
    let mut ss: Vec<u32> = old
        .strides
        .iter()
        .chain(&new.strides)
        .map(|(s, _)| *s)
        .collect();
    ss.sort();
    ss.dedup();
    for s in ss {
        let o = old.strides.iter().find(|(x, _)| *x == s).map(|(_, v)| *v);
        let n = new.strides.iter().find(|(x, _)| *x == s).map(|(_, v)| *v);
        if o != n {
            strides.push((s, o, n));
        }
    }
    let opt = |v: Option<u32>| v.map_or("-".to_string(), |v| v.to_string());
    let mut counts = Vec::new();
    for (what, o, n) in [
        ("vertex count", opt(old.vertex_count), opt(new.vertex_count)),
        ("index count", opt(old.index_count), opt(new.index_count)),
        (
            "first index",
            old.first_index.to_string(),
            new.first_index.to_string(),
        ),
        (
            "base vertex",
            old.base_vertex.to_string(),
            new.base_vertex.to_string(),
        ),
        (
            "start vertex",
            old.start_vertex.to_string(),
            new.start_vertex.to_string(),
        ),
        (
            "index format",
            old.index_format
                .map_or("-".into(), |f| f.format().to_string()),
            new.index_format
                .map_or("-".into(), |f| f.format().to_string()),
        ),
        (
            "topology",
            old.topology.map_or("-".into(), |t| t.name()),
            new.topology.map_or("-".into(), |t| t.name()),
        ),
    ] {
        if o != n && old.vertex_count.is_some() == new.vertex_count.is_some() {
            counts.push((what, o, n));
        }
    }
    let plan = match (&old.elements, &new.elements) {
        (Some(a), Some(b)) if !elements.is_empty() => Some(plan(a, b)),
        _ => None,
    };
    PairDiff {
        old: oi,
        new: ni,
        pairing,
        hashes,
        elements,
        strides,
        counts,
        plan,
    }
}

/// Pairs and compares two sides (see the module notes).
pub fn diff(old: Vec<Part>, new: Vec<Part>) -> Diff {
    let mut taken_old = vec![false; old.len()];
    let mut taken_new = vec![false; new.len()];
    let mut pairs = Vec::new();
    // A whole-side comparison of one part each (two dumps, two layouts) pairs them outright.
    if old.len() == 1 && new.len() == 1 {
        let pairing = if old[0].vb_hashes.is_empty() && new[0].vb_hashes.is_empty() {
            Pairing::Given
        } else if old[0].hash_key() == new[0].hash_key() {
            Pairing::SameHashes
        } else if old[0].content_key() == new[0].content_key() {
            Pairing::Content
        } else {
            Pairing::Counts
        };
        pairs.push(compare(&old[0], &new[0], 0, 0, pairing));
        return Diff {
            old,
            new,
            pairs,
            only_old: Vec::new(),
            only_new: Vec::new(),
        };
    }
    type KeyFn = fn(&Part) -> Option<String>;
    let tiers: [(Pairing, KeyFn); 5] = [
        (Pairing::SameHashes, |p| {
            (!p.vb_hashes.is_empty()).then(|| format!("{:?}", p.hash_key()))
        }),
        (Pairing::Content, |p| {
            p.elements
                .as_ref()
                .map(|_| format!("{:?}", p.content_key()))
        }),
        (Pairing::SameName, |p| p.section.clone()),
        (Pairing::IndexBuffer, |p| {
            p.ib_hash.map(|h| format!("{h:08x}/{}", p.first_index))
        }),
        (Pairing::Counts, |p| {
            p.vertex_count
                .map(|v| format!("{v}/{:?}/{}/{:?}", p.index_count, p.first_index, p.topology))
        }),
    ];
    for (pairing, key) in tiers {
        let mut a: HashMap<String, Vec<usize>> = HashMap::new();
        let mut b: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, p) in old.iter().enumerate().filter(|(i, _)| !taken_old[*i]) {
            if let Some(k) = key(p) {
                a.entry(k).or_default().push(i);
            }
        }
        for (i, p) in new.iter().enumerate().filter(|(i, _)| !taken_new[*i]) {
            if let Some(k) = key(p) {
                b.entry(k).or_default().push(i);
            }
        }
        let mut found: Vec<(usize, usize)> = a
            .iter()
            .filter_map(
                |(k, ia)| match (ia.as_slice(), b.get(k).map(|v| v.as_slice())) {
                    ([i], Some([j])) => Some((*i, *j)),
                    _ => None,
                },
            )
            .collect();
        found.sort();
        for (i, j) in found {
            taken_old[i] = true;
            taken_new[j] = true;
            pairs.push(compare(&old[i], &new[j], i, j, pairing));
        }
    }
    pairs.sort_by_key(|p| p.old);
    let only_old = (0..old.len()).filter(|i| !taken_old[*i]).collect();
    let only_new = (0..new.len()).filter(|i| !taken_new[*i]).collect();
    Diff {
        old,
        new,
        pairs,
        only_old,
        only_new,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::Format;

    fn el(n: &str, f: Format, off: u32) -> InputElementDesc {
        InputElementDesc::per_vertex(n, 0, f, 0, off)
    }

    #[test]
    fn a_changed_layout_gets_its_plan() {
        let old = [
            el("POSITION", Format::R32G32B32_FLOAT, 0),
            el("TEXCOORD", Format::R32G32_FLOAT, 12),
        ];
        let new = [
            el("POSITION", Format::R32G32B32_FLOAT, 0),
            el("TEXCOORD", Format::R16G16_FLOAT, 12),
            el("COLOR", Format::R8G8B8A8_UNORM, 16),
        ];
        let ch = element_changes(&old, &new);
        assert_eq!(
            ch,
            vec![
                ElementChange::Changed {
                    element: "TEXCOORD0".into(),
                    field: "format",
                    old: "R32G32_FLOAT".into(),
                    new: "R16G16_FLOAT".into()
                },
                ElementChange::Added("COLOR0".into())
            ]
        );
        let p = plan(&old, &new);
        // COLOR has no source: the plan says which element the old data cannot supply.
        assert!(
            p.impossible.as_deref().is_some_and(|m| m.contains("COLOR")),
            "{p:?}"
        );
        let p = plan(&old, &new[..2]);
        assert_eq!(p.steps[1].from.as_deref(), Some("R32G32_FLOAT"));
        assert!(p.steps[1].lossy && !p.steps[0].lossy);
        assert!(!p.is_lossless());
        let p = plan(&new[..2], &old);
        assert!(p.steps.iter().all(|s| !s.lossy), "{p:?}");
    }
}
