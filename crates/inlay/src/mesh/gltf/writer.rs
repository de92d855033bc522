//! The glTF writer: each element's accessors from its name, format and [`Stats`], the
//! document (JSON and the BIN chunk's layout), and the bytes of `.glb` / `.gltf` + `.bin`.

use std::io::{self, Write};

use serde_json::{Value, json};

use super::stats::*;
use crate::format::Kind;
use crate::mesh::{Attribute, Instances, Mesh, Mode};

pub(crate) const FLOAT: u32 = 5126;
pub(crate) const BYTE: u32 = 5120;
pub(crate) const UNSIGNED_BYTE: u32 = 5121;
pub(crate) const SHORT: u32 = 5122;
pub(crate) const UNSIGNED_SHORT: u32 = 5123;
pub(crate) const UNSIGNED_INT: u32 = 5125;

/// One accessor before it is laid out: its shape, and where its bytes come from.
pub(crate) struct Acc {
    pub(crate) name: String,
    pub(crate) ctype: u32,
    pub(crate) comps: usize,
    pub(crate) count: usize,
    /// How the element bytes are made from the lanes of [`Data`]'s source while the BIN
    /// chunk is written (tightly packed; padding is added when laid out).
    pub(crate) data: Data,
    pub(crate) min_max: Option<(Vec<f64>, Vec<f64>)>,
    pub(crate) normalized: bool,
}

impl Acc {
    pub(crate) fn element_size(&self) -> usize {
        self.comps * ctype_size(self.ctype)
    }

    /// Appends the bytes of elements `start..end` to `out`: from `lanes[start..end]` (the
    /// source attribute's lanes, or a block of them with `start` counted from the block's
    /// first value), `indices[start..end]` for [`Data::Indices`].
    pub(crate) fn render(
        &self,
        lanes: &[[u32; 4]],
        indices: &[u32],
        start: usize,
        end: usize,
        out: &mut Vec<u8>,
    ) {
        let comps = self.comps;
        let base = out.len();
        out.resize(base + (end - start) * self.element_size(), 0);
        let dst = &mut out[base..];
        match &self.data {
            Data::Floats { kind, conv, .. } => {
                render_floats(&lanes[start..end], comps, *kind, *conv, dst)
            }
            Data::Ints { sint, .. } => {
                let value = |b: u32| -> i64 { if *sint { b as i32 as i64 } else { b as i64 } };
                for (d, v) in dst.chunks_exact_mut(16).zip(&lanes[start..end]) {
                    for (d, &b) in d.chunks_exact_mut(4).zip(v) {
                        d.copy_from_slice(&(value(b) as f32).to_le_bytes());
                    }
                }
            }
            Data::Halves { shift, .. } => {
                for (d, v) in dst.chunks_exact_mut(16).zip(&lanes[start..end]) {
                    for (d, &b) in d.chunks_exact_mut(4).zip(v) {
                        d.copy_from_slice(&(((b >> shift) & 0xffff) as f32).to_le_bytes());
                    }
                }
            }
            Data::Joints {
                components, wide, ..
            } => {
                let size = if *wide { 8 } else { 4 };
                for (d, v) in dst.chunks_exact_mut(size).zip(&lanes[start..end]) {
                    for (l, &lane) in v.iter().enumerate() {
                        let x = if l < *components { lane } else { 0 };
                        if *wide {
                            d[2 * l..2 * l + 2].copy_from_slice(&(x as u16).to_le_bytes());
                        } else {
                            d[l] = x as u8;
                        }
                    }
                }
            }
            Data::Indices { wide } => render_indices(&indices[start..end], 0, *wide, dst),
            Data::Zeros => {}
            Data::Bytes(bytes) => {
                let size = self.element_size();
                dst.copy_from_slice(&bytes[start * size..end * size]);
            }
        }
    }

    /// The same accessor with its bytes made now from `lanes` (for values that do not
    /// outlive the call).
    pub(crate) fn owned(self, lanes: &[[u32; 4]]) -> Acc {
        let mut bytes = Vec::new();
        self.render(lanes, &[], 0, self.count, &mut bytes);
        Acc {
            data: Data::Bytes(bytes),
            ..self
        }
    }
}

/// `indices` less `base` (wrapping) as little-endian u32, or u16 (truncated) unless `wide`,
/// into `dst`.
pub(crate) fn render_indices(indices: &[u32], base: u32, wide: bool, dst: &mut [u8]) {
    if wide {
        for (d, &i) in dst.chunks_exact_mut(4).zip(indices) {
            d.copy_from_slice(&i.wrapping_sub(base).to_le_bytes());
        }
    } else {
        for (d, &i) in dst.chunks_exact_mut(2).zip(indices) {
            d.copy_from_slice(&(i.wrapping_sub(base) as u16).to_le_bytes());
        }
    }
}

/// Which values an accessor's lanes are: a per-vertex attribute's or a per-instance one's
/// (by position in [`Mesh::attributes`] / [`Mesh::instance_attributes`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Src {
    Vertex(usize),
    Instance(usize),
}

/// Where an accessor's bytes come from.
pub(crate) enum Data {
    /// Lanes `0..comps` of each value as floats ([`float_lane`] of `kind`), NaN and infinity
    /// replaced by 0 in all four lanes, then changed by `conv`.
    Floats { src: Src, kind: Kind, conv: Conv },
    /// All four integer lanes as their float values (signed when `sint`).
    Ints { src: Src, sint: bool },
    /// All four lanes' 16-bit halves at `shift` as float values.
    Halves { src: Src, shift: u32 },
    /// Joint indices: the lanes below `components` (the others 0) as u8, or u16 when `wide`.
    Joints {
        src: Src,
        components: usize,
        wide: bool,
    },
    /// The mesh's indices as u16, or u32 when `wide`.
    Indices { wide: bool },
    /// All zero.
    Zeros,
    /// Bytes made beforehand.
    Bytes(Vec<u8>),
}

impl Data {
    /// The values whose lanes the bytes are made from, if any.
    pub(crate) fn src(&self) -> Option<Src> {
        match *self {
            Data::Floats { src, .. }
            | Data::Ints { src, .. }
            | Data::Halves { src, .. }
            | Data::Joints { src, .. } => Some(src),
            _ => None,
        }
    }
}

pub(crate) fn ctype_size(c: u32) -> usize {
    match c {
        BYTE | UNSIGNED_BYTE => 1,
        SHORT | UNSIGNED_SHORT => 2,
        _ => 4,
    }
}

pub(crate) fn type_name(comps: usize) -> &'static str {
    match comps {
        1 => "SCALAR",
        2 => "VEC2",
        3 => "VEC3",
        _ => "VEC4",
    }
}

/// What one layout element became.
pub(crate) struct Mapped {
    pub(crate) element: usize,
    /// The standard attribute, if any.
    pub(crate) standard: Option<String>,
    /// The custom attribute(s) with the exact lanes, if any.
    pub(crate) raw: Vec<String>,
    pub(crate) conversion: String,
}

pub(crate) fn is(semantic: &str, names: &[&str]) -> bool {
    names.iter().any(|n| semantic.eq_ignore_ascii_case(n))
}

pub(crate) enum Role {
    /// A float attribute: name, lanes written, conversion, whether min/max are recorded.
    Float(String, usize, Conv, bool),
    /// JOINTS_n (if its values are joint indices).
    Joints,
    /// WEIGHTS_n (if the BLENDINDICES of its index become JOINTS_n).
    Weights,
    /// A custom attribute only.
    Custom,
}

/// Each attribute's role before any value is read: the sets of TEXCOORD and COLOR
/// (continuity needs only names and formats), BLENDINDICES and BLENDWEIGHT as candidates.
pub(crate) fn roles(attrs: &[Attribute]) -> Vec<Role> {
    let float_ok = |a: &Attribute| a.format.info().is_some();
    let tex = continuous(attrs, &["TEXCOORD"], float_ok);
    let col = continuous(attrs, &["COLOR"], |a| a.components() >= 3);
    attrs
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let comps = a.components();
            if is(&a.semantic, &["POSITION"]) && a.semantic_index == 0 {
                Role::Float("POSITION".into(), 3, Conv::Keep, true)
            } else if is(&a.semantic, &["NORMAL"]) && a.semantic_index == 0 {
                Role::Float("NORMAL".into(), 3, Conv::Normal, false)
            } else if is(&a.semantic, &["TANGENT"]) && a.semantic_index == 0 {
                Role::Float("TANGENT".into(), 4, Conv::Tangent, false)
            } else if let Some(set) = tex.iter().position(|&t| t == i) {
                Role::Float(format!("TEXCOORD_{set}"), 2, Conv::Keep, false)
            } else if let Some(set) = col.iter().position(|&t| t == i) {
                Role::Float(format!("COLOR_{set}"), comps.min(4), Conv::Keep, false)
            } else if is(&a.semantic, &["BLENDINDICES"]) && joint_candidate(attrs, a) {
                Role::Joints
            } else if is(&a.semantic, &["BLENDWEIGHT", "BLENDWEIGHTS"]) {
                Role::Weights
            } else {
                Role::Custom
            }
        })
        .collect()
}

/// Whether BLENDINDICES `a` may become JOINTS_n by name and format: integer lanes, and a
/// float-like BLENDWEIGHT(S) of the same index beside it.
pub(crate) fn joint_candidate(attrs: &[Attribute], a: &Attribute) -> bool {
    matches!(a.kind(), Kind::Uint | Kind::Sint)
        && attrs.iter().any(|w| {
            is(&w.semantic, &["BLENDWEIGHT", "BLENDWEIGHTS"])
                && w.semantic_index == a.semantic_index
                && w.kind().is_float_like()
        })
}

/// The statistics each attribute's accessors need, empty (feed them every value, in
/// order, then pass them to the writer).
pub(crate) fn plan_stats(attrs: &[Attribute]) -> Vec<Stats> {
    roles(attrs)
        .into_iter()
        .zip(attrs)
        .map(|(role, a)| {
            let kind = a.kind();
            let int = matches!(kind, Kind::Uint | Kind::Sint);
            let comps = a.components();
            let float = match &role {
                Role::Float(_, out, conv, bounds) => {
                    Some(FloatStats::new(*out, kind, *conv, *bounds))
                }
                Role::Weights => Some(FloatStats::new(
                    4,
                    kind,
                    Conv::Weights { components: comps },
                    false,
                )),
                _ => None,
            };
            Stats {
                count: 0,
                float,
                joints: matches!(role, Role::Joints).then_some((comps.min(4), true, false)),
                // A standard float attribute's own count covers the non-finite lanes.
                raw_float: (!int && !matches!(role, Role::Float(..))).then_some(0),
                raw_int: int.then_some(true),
                sint: kind == Kind::Sint,
            }
        })
        .collect()
}

/// The statistics of attributes whose values are at hand.
pub(crate) fn stats_of(attrs: &[Attribute]) -> Vec<Stats> {
    let mut stats = plan_stats(attrs);
    for (s, a) in stats.iter_mut().zip(attrs) {
        s.feed(&a.values);
    }
    stats
}

/// The exact lanes of an attribute as custom accessors: always VEC4 FLOAT — the four register
/// lanes the input assembler delivers — so that every custom attribute has one shape (Blender
/// 4.2's importer mixes up custom attributes of different shapes, glTF-Blender-IO #2658).
/// Integers are exact as floats up to 2^24; past that the low and high 16-bit halves go to
/// `_NAME` and `_NAME_HI`. Returns them with the non-finite lanes of a float attribute.
pub(crate) fn raw_accessors(src: Src, a: &Attribute, stats: &Stats, name: &str) -> (Vec<Acc>, u64) {
    let kind = a.kind();
    let count = stats.count;
    let acc = |name: String, data: Data| Acc {
        name,
        ctype: FLOAT,
        comps: 4,
        count,
        data,
        min_max: None,
        normalized: false,
    };
    if !matches!(kind, Kind::Uint | Kind::Sint) {
        let data = Data::Floats {
            src,
            kind: Kind::Float,
            conv: Conv::Keep,
        };
        return (
            vec![acc(name.to_string(), data)],
            stats.raw_float.unwrap_or(0),
        );
    }
    let sint = kind == Kind::Sint;
    if stats.raw_int.unwrap_or(false) {
        return (vec![acc(name.to_string(), Data::Ints { src, sint })], 0);
    }
    (
        vec![
            acc(name.to_string(), Data::Halves { src, shift: 0 }),
            acc(format!("{name}_HI"), Data::Halves { src, shift: 16 }),
        ],
        0,
    )
}

pub(crate) fn custom_name(a: &Attribute, taken: &mut Vec<String>) -> String {
    let mut base = format!("_{}", a.semantic);
    if a.semantic_index > 0 {
        base.push_str(&a.semantic_index.to_string());
    }
    let mut name = base.clone();
    let mut k = 2;
    while taken.iter().any(|t| t.eq_ignore_ascii_case(&name))
        || taken
            .iter()
            .any(|t| t.eq_ignore_ascii_case(&format!("{name}_HI")))
    {
        name = format!("{base}_{k}");
        k += 1;
    }
    taken.push(name.clone());
    name
}

/// Which set numbers of an indexed semantic may be mapped (0, 1, 2, … without gaps).
pub(crate) fn continuous(
    attrs: &[Attribute],
    names: &[&str],
    ok: impl Fn(&Attribute) -> bool,
) -> Vec<usize> {
    let mut sets = Vec::new();
    let mut n = 0;
    while let Some(i) = attrs
        .iter()
        .position(|a| is(&a.semantic, names) && a.semantic_index == n && ok(a))
    {
        sets.push(i);
        n += 1;
    }
    sets
}

/// The per-vertex accessors of a mesh's attributes and what each element became, from the
/// attributes' names and formats and their values' [`Stats`].
pub(crate) fn vertex_accessors(
    attrs: &[Attribute],
    stats: &[Stats],
    warnings: &mut Vec<String>,
) -> (Vec<Acc>, Vec<Mapped>) {
    let mut accs = Vec::new();
    let mut mapped = Vec::new();
    let mut taken: Vec<String> = Vec::new();
    let roles = roles(attrs);
    let joints_ok = |a: &Attribute| {
        let i = attrs
            .iter()
            .position(|b| std::ptr::eq(a, b))
            .unwrap_or(usize::MAX);
        matches!(roles.get(i), Some(Role::Joints))
            && stats.get(i).and_then(|s| s.joints).is_some_and(|j| j.1)
    };
    let joints = continuous(attrs, &["BLENDINDICES"], joints_ok);
    let mut non_finite_total = 0u64;
    for (i, (a, st)) in attrs.iter().zip(stats).enumerate() {
        let kind = a.kind();
        let comps = a.components();
        let src = Src::Vertex(i);
        let mut m = Mapped {
            element: a.element,
            standard: None,
            raw: Vec::new(),
            conversion: String::new(),
        };
        let mut push_std = |name: String, accs: &mut Vec<Acc>| -> (bool, u64) {
            let Some(f) = &st.float else {
                return (true, 0);
            };
            taken.push(name.clone());
            accs.push(Acc {
                name,
                ctype: FLOAT,
                comps: f.comps,
                count: st.count,
                // A conversion that changed no value is left out of the writing: the bytes
                // are those of the lanes as they are.
                data: Data::Floats {
                    src,
                    kind,
                    conv: if f.changed { f.conv } else { Conv::Keep },
                },
                min_max: f.with_bounds.then(|| f.bounds()),
                normalized: false,
            });
            (f.changed, f.non_finite)
        };
        let int = matches!(kind, Kind::Uint | Kind::Sint);
        let exact;
        if let Role::Float(name, ..) = &roles[i] {
            let (changed, nf) = push_std(name.clone(), &mut accs);
            non_finite_total += nf;
            m.standard = Some(name.clone());
            let name = name.as_str();
            let (conversion, fits) = match name {
                "POSITION" => ("x, y, z", comps <= 3),
                "NORMAL" => ("x, y, z normalised", comps <= 3),
                "TANGENT" => ("x, y, z normalised, w = ±1", true),
                _ if name.starts_with("TEXCOORD_") => ("x, y", comps <= 2),
                _ => ("as decoded", true),
            };
            m.conversion = conversion.into();
            exact = !changed && nf == 0 && fits && !int;
        } else if let Some(set) = joints.iter().position(|&t| t == i) {
            let name = format!("JOINTS_{set}");
            let wide = st.joints.is_some_and(|j| j.2);
            let ct = if wide { UNSIGNED_SHORT } else { UNSIGNED_BYTE };
            taken.push(name.clone());
            accs.push(Acc {
                name: name.clone(),
                ctype: ct,
                comps: 4,
                count: st.count,
                data: Data::Joints {
                    src,
                    components: comps,
                    wide,
                },
                min_max: None,
                normalized: false,
            });
            m.standard = Some(name);
            m.conversion = "joint indices".into();
            exact = comps <= 4;
        } else if let Some(set) = joints.iter().position(|&j| {
            is(&a.semantic, &["BLENDWEIGHT", "BLENDWEIGHTS"])
                && attrs[j].semantic_index == a.semantic_index
        }) {
            let name = format!("WEIGHTS_{set}");
            let (changed, nf) = push_std(name.clone(), &mut accs);
            non_finite_total += nf;
            m.standard = Some(name);
            m.conversion = "weights scaled to sum 1".into();
            exact = !changed && nf == 0 && !int;
        } else {
            exact = false;
            m.conversion = "custom attribute".into();
        }
        if !exact {
            let name = custom_name(a, &mut taken);
            let (raw, nf) = raw_accessors(src, a, st, &name);
            if m.standard.is_none() {
                non_finite_total += nf;
            }
            m.raw = raw.iter().map(|r| r.name.clone()).collect();
            accs.extend(raw);
        }
        mapped.push(m);
    }
    if non_finite_total > 0 {
        warnings.push(format!(
            "{non_finite_total} NaN or infinite values were written as 0 (glTF accessors hold finite numbers only)"
        ));
    }
    (accs, mapped)
}

/// The glTF document and its binary buffer's layout.
pub(crate) struct Document {
    pub(crate) json: Value,
    /// (byte offset, accessor, element stride) of each accessor's data in the buffer.
    pub(crate) bin_parts: Vec<(usize, Acc, usize)>,
    pub(crate) bin_len: usize,
}

/// One accessor's place in the buffer, as the streaming writer needs it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Part {
    /// Byte offset in the buffer.
    pub offset: usize,
    /// Bytes from one element to the next.
    pub stride: usize,
    /// Bytes of one element.
    pub esize: usize,
    /// Elements.
    pub count: usize,
    /// The per-vertex attribute (index in [`Mesh::attributes`]) whose lanes make it.
    pub vertex: Option<usize>,
    /// `Some(wide)` for the indices.
    pub index: Option<bool>,
    /// `Some(c)` when the bytes are each source value's first `c` float lanes as they are,
    /// non-finite lanes written as 0 (and the elements packed: `stride` = `esize` = 4c).
    pub float_lanes: Option<usize>,
}

impl Document {
    /// Bytes of the buffer.
    pub(crate) fn bin_len(&self) -> usize {
        self.bin_len
    }

    /// Accessors in the buffer, in offset order.
    pub(crate) fn part_count(&self) -> usize {
        self.bin_parts.len()
    }

    /// Accessor `i`'s place.
    pub(crate) fn part(&self, i: usize) -> Part {
        let (offset, acc, stride) = &self.bin_parts[i];
        Part {
            offset: *offset,
            stride: *stride,
            esize: acc.element_size(),
            count: acc.count,
            vertex: match acc.data.src() {
                Some(Src::Vertex(a)) => Some(a),
                _ => None,
            },
            index: match acc.data {
                Data::Indices { wide } => Some(wide),
                _ => None,
            },
            float_lanes: match acc.data {
                Data::Floats {
                    conv: Conv::Keep,
                    kind,
                    ..
                } if !matches!(kind, Kind::Uint | Kind::Sint)
                    && acc.ctype == FLOAT
                    && (1..=4).contains(&acc.comps)
                    && *stride == 4 * acc.comps =>
                {
                    Some(acc.comps)
                }
                _ => None,
            },
        }
    }

    /// Appends accessor `i`'s bytes for `len` values whose lanes are `lanes` (a block of its
    /// source attribute's values), at its stride.
    pub(crate) fn render_part(&self, i: usize, lanes: &[[u32; 4]], len: usize, out: &mut Vec<u8>) {
        let (_, acc, stride) = &self.bin_parts[i];
        render_strided(acc, *stride, lanes, &[], 0, len, out);
    }
}

/// The index accessor of a mesh: how many indices, their least and greatest value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct IndexInfo {
    /// Indices.
    pub count: usize,
    /// Least index (`u32::MAX` for none).
    pub min: u32,
    /// Greatest index (0 for none).
    pub max: u32,
}

impl IndexInfo {
    /// The accessor of `indices`.
    pub(crate) fn of(indices: &[u32]) -> IndexInfo {
        let (min, max) = indices
            .iter()
            .fold((u32::MAX, 0u32), |(lo, hi), &i| (lo.min(i), hi.max(i)));
        IndexInfo {
            count: indices.len(),
            min,
            max,
        }
    }
}

pub(crate) fn layout_json(mesh: &Mesh, mapped: &[Mapped], extra_warnings: &[String]) -> Value {
    let layout: Vec<Value> = mesh
        .layout
        .iter()
        .zip(&mesh.descs)
        .map(|(l, d)| {
            json!({
                "semantic": l.semantic_name,
                "index": l.semantic_index,
                "format": l.format.to_string(),
                "slot": l.slot,
                "offset": l.offset,
                "declared_offset": if d.aligned_byte_offset == crate::element::APPEND_ALIGNED_ELEMENT {
                    json!("append")
                } else {
                    json!(d.aligned_byte_offset)
                },
                "class": l.class.as_str(),
                "step_rate": l.step_rate,
            })
        })
        .collect();
    let attributes: Vec<Value> = mapped
        .iter()
        .map(|m| {
            json!({
                "element": m.element,
                "attribute": m.standard,
                "exact": if m.raw.is_empty() { m.standard.clone().map(Value::from).unwrap_or(Value::Null) } else { json!(m.raw[0]) },
                "exact_high": m.raw.get(1),
                "conversion": m.conversion,
            })
        })
        .collect();
    let mut warnings: Vec<String> = mesh.warnings.clone();
    warnings.extend(extra_warnings.iter().cloned());
    json!({
        "generator": "inlay",
        "version": 1,
        "layout": layout,
        "slots": mesh.slots.iter().map(|s| json!({"slot": s.slot, "stride": s.stride, "offset": s.offset})).collect::<Vec<_>>(),
        "topology": mesh.topology.name(),
        "draw": mesh.draw,
        "index_format": mesh.index_format.map(|f| f.format().to_string()),
        "vertex_base": mesh.vertex_base,
        "vertex_count": mesh.vertex_count,
        "compacted": mesh.vertex_elements.is_some(),
        "instances": match mesh.instances { Instances::First => "first", Instances::Expand => "expand", Instances::Attributes => "attributes" },
        "instance_count": mesh.instance_count,
        "attributes": attributes,
        "files": mesh.files,
        "warnings": warnings,
    })
}

/// The document of a mesh: its per-vertex attributes' accessors from `stats` (one per
/// attribute, [`plan_stats`] fed every value), its indices' from `index`; the values of
/// per-instance attributes (expand and attributes modes) are read from the mesh.
pub(crate) fn document(mesh: &Mesh, stats: &[Stats], index: IndexInfo) -> Document {
    let mut warnings = Vec::new();
    let (vaccs, mapped) = vertex_accessors(&mesh.attributes, stats, &mut warnings);
    let mut accessors: Vec<Value> = Vec::new();
    let mut views: Vec<Value> = Vec::new();
    let mut parts: Vec<(usize, Acc, usize)> = Vec::new();
    let mut offset = 0usize;
    let mut add = |acc: Acc, target: Option<u32>, vertex_attribute: bool| -> usize {
        let esize = acc.element_size();
        let stride = if vertex_attribute {
            esize.next_multiple_of(4)
        } else {
            esize
        };
        let len = if acc.count == 0 {
            0
        } else {
            stride * acc.count
        };
        let mut view = json!({"buffer": 0, "byteOffset": offset, "byteLength": len.max(4)});
        if vertex_attribute && stride != esize {
            view["byteStride"] = json!(stride);
        }
        if let Some(t) = target {
            view["target"] = json!(t);
        }
        views.push(view);
        let mut a = json!({
            "bufferView": views.len() - 1,
            "componentType": acc.ctype,
            "count": acc.count,
            "type": type_name(acc.comps),
        });
        if acc.normalized {
            a["normalized"] = json!(true);
        }
        if let Some((min, max)) = &acc.min_max {
            a["min"] = json!(min);
            a["max"] = json!(max);
        }
        accessors.push(a);
        let data_len = len.max(4);
        parts.push((offset, acc, stride));
        offset += data_len.next_multiple_of(4);
        accessors.len() - 1
    };
    let mut attributes = serde_json::Map::new();
    for acc in vaccs {
        let name = acc.name.clone();
        let i = add(acc, Some(34962), true);
        attributes.insert(name, json!(i));
    }
    let wide = mesh.vertex_count > 65535;
    let index_acc = (index.count > 0).then(|| {
        add(
            Acc {
                name: String::new(),
                ctype: if wide { UNSIGNED_INT } else { UNSIGNED_SHORT },
                comps: 1,
                count: index.count,
                data: Data::Indices { wide },
                min_max: Some((vec![index.min as f64], vec![index.max as f64])),
                normalized: false,
            },
            Some(34963),
            false,
        )
    });
    let mode = match mesh.mode {
        Mode::Points => 0,
        Mode::Lines => 1,
        Mode::Triangles => 4,
    };
    let primitive = |attrs: &serde_json::Map<String, Value>| {
        let mut p = json!({"attributes": attrs, "mode": mode});
        if let Some(i) = index_acc {
            p["indices"] = json!(i);
        }
        p
    };
    let extras_warnings = warnings.clone();
    let extras = layout_json(mesh, &mapped, &extras_warnings);
    let mut meshes = Vec::new();
    let mut nodes = Vec::new();
    let mut extensions_used: Vec<&str> = Vec::new();
    match mesh.instances {
        Instances::First => {
            meshes.push(json!({"name": "draw", "primitives": [primitive(&attributes)], "extras": {"inlay": extras}}));
            nodes.push(json!({"name": "draw", "mesh": 0}));
        }
        Instances::Expand => {
            let n = mesh.vertex_count as usize;
            for id in 0..mesh.instance_count as usize {
                let mut attrs = attributes.clone();
                let mut taken: Vec<String> = attrs.keys().cloned().collect();
                for ia in &mesh.instance_attributes {
                    let one = Attribute {
                        values: vec![ia.values.get(id).copied().unwrap_or([0; 4]); n],
                        ..ia.clone()
                    };
                    let name = custom_name(ia, &mut taken);
                    let one_stats = stats_of(std::slice::from_ref(&one));
                    let (raw, _) = raw_accessors(Src::Vertex(0), &one, &one_stats[0], &name);
                    for acc in raw.into_iter().map(|a| a.owned(&one.values)) {
                        let nm = acc.name.clone();
                        let i = add(acc, Some(34962), true);
                        attrs.insert(nm, json!(i));
                    }
                }
                let mut m =
                    json!({"name": format!("instance {id}"), "primitives": [primitive(&attrs)]});
                if id == 0 {
                    m["extras"] = json!({"inlay": extras.clone()});
                }
                meshes.push(m);
                nodes.push(json!({"name": format!("instance {id}"), "mesh": id}));
            }
        }
        Instances::Attributes => {
            let mut inst = serde_json::Map::new();
            let mut taken: Vec<String> = Vec::new();
            let inst_stats = stats_of(&mesh.instance_attributes);
            for (k, (ia, st)) in mesh.instance_attributes.iter().zip(&inst_stats).enumerate() {
                let name = custom_name(ia, &mut taken);
                let (raw, _) = raw_accessors(Src::Instance(k), ia, st, &name);
                for acc in raw {
                    let nm = acc.name.clone();
                    let i = add(acc, None, false);
                    inst.insert(nm, json!(i));
                }
            }
            if !inst.is_empty() {
                // Identity placements: the extension's viewers (Blender among them) need a
                // transform attribute to instance the mesh at all.
                let i = add(
                    Acc {
                        name: "TRANSLATION".into(),
                        ctype: FLOAT,
                        comps: 3,
                        count: mesh.instance_count as usize,
                        data: Data::Zeros,
                        min_max: None,
                        normalized: false,
                    },
                    None,
                    false,
                );
                inst.insert("TRANSLATION".into(), json!(i));
            }
            meshes.push(json!({"name": "draw", "primitives": [primitive(&attributes)], "extras": {"inlay": extras}}));
            let mut node = json!({"name": "draw", "mesh": 0});
            if !inst.is_empty() {
                node["extensions"] = json!({"EXT_mesh_gpu_instancing": {"attributes": inst}});
                extensions_used.push("EXT_mesh_gpu_instancing");
            }
            nodes.push(node);
        }
    }
    let node_ids: Vec<usize> = (0..nodes.len()).collect();
    let mut json = json!({
        "asset": {"version": "2.0", "generator": "inlay"},
        "scene": 0,
        "scenes": [{"nodes": node_ids}],
        "nodes": nodes,
        "meshes": meshes,
        "accessors": accessors,
        "bufferViews": views,
        "buffers": [{"byteLength": offset.max(4)}],
    });
    if !extensions_used.is_empty() {
        json["extensionsUsed"] = json!(extensions_used);
    }
    Document {
        json,
        bin_parts: parts,
        bin_len: offset.max(4),
    }
}

/// Bytes the BIN chunk is made and written in: at least a 1 MiB `BufWriter`'s capacity, so
/// that a buffered writer passes them straight through.
pub(crate) const BIN_BLOCK: usize = 1 << 20;

/// The lanes `src` names in `mesh`.
pub(crate) fn mesh_lanes(mesh: &Mesh, src: Option<Src>) -> &[[u32; 4]] {
    match src {
        Some(Src::Vertex(i)) => &mesh.attributes[i].values,
        Some(Src::Instance(i)) => &mesh.instance_attributes[i].values,
        None => &[],
    }
}

/// Writes the buffer: each accessor's elements made from the mesh a block at a time (no copy
/// of the whole buffer in memory), zeros between and after them.
pub(crate) fn write_bin(doc: &Document, mesh: &Mesh, out: &mut dyn Write) -> io::Result<()> {
    let mut written = 0usize;
    let mut block: Vec<u8> = Vec::with_capacity(BIN_BLOCK + 64);
    for (offset, acc, stride) in &doc.bin_parts {
        // `offset` and `stride` were laid out from this accessor, so padding is < 64 bytes.
        block.resize(block.len() + (*offset - written), 0);
        written = *offset;
        let (esize, stride) = (acc.element_size(), *stride);
        if esize == 0 || acc.count == 0 {
            continue;
        }
        if let Data::Indices { wide: true } = &acc.data
            && cfg!(target_endian = "little")
        {
            // 32-bit indices are already the bytes to write: no copy into the block.
            out.write_all(&block)?;
            block.clear();
            for run in mesh.indices.chunks(BIN_BLOCK / 4) {
                out.write_all(bytemuck::cast_slice(run))?;
            }
            written += mesh.indices.len() * 4;
            continue;
        }
        let lanes = mesh_lanes(mesh, acc.data.src());
        let per_block = BIN_BLOCK.div_ceil(stride);
        let mut start = 0;
        while start < acc.count {
            let end = (start + per_block).min(acc.count);
            render_strided(acc, stride, lanes, &mesh.indices, start, end, &mut block);
            written += (end - start) * stride;
            start = end;
            if block.len() >= BIN_BLOCK {
                out.write_all(&block)?;
                block.clear();
            }
        }
    }
    block.resize(block.len() + doc.bin_len.saturating_sub(written), 0);
    out.write_all(&block)
}

/// [`Acc::render`] of elements `start..end` at `stride` bytes each: padded to 4-byte
/// strides (glTF §3.6.2.4) when the elements are smaller.
pub(crate) fn render_strided(
    acc: &Acc,
    stride: usize,
    lanes: &[[u32; 4]],
    indices: &[u32],
    start: usize,
    end: usize,
    out: &mut Vec<u8>,
) {
    let esize = acc.element_size();
    if esize == stride {
        acc.render(lanes, indices, start, end, out);
    } else {
        for k in start..end {
            acc.render(lanes, indices, k, k + 1, out);
            out.resize(out.len() + stride - esize, 0);
        }
    }
}

pub(crate) fn too_large(what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("{what} would exceed the 4 GiB a GLB file can hold"),
    )
}

/// Everything of a GLB file before the BIN chunk's data: header, JSON chunk, BIN chunk
/// header.
pub(crate) fn glb_head(doc: &Document) -> io::Result<Vec<u8>> {
    let mut json = serde_json::to_vec(&doc.json).map_err(io::Error::other)?;
    while json.len() % 4 != 0 {
        json.push(b' ');
    }
    let total = 12u64 + 8 + json.len() as u64 + 8 + doc.bin_len as u64;
    if total > u32::MAX as u64 {
        return Err(too_large("the mesh"));
    }
    let mut head = Vec::with_capacity(json.len() + 28);
    head.extend_from_slice(b"glTF");
    head.extend_from_slice(&2u32.to_le_bytes());
    head.extend_from_slice(&(total as u32).to_le_bytes());
    head.extend_from_slice(&(json.len() as u32).to_le_bytes());
    head.extend_from_slice(b"JSON");
    head.extend_from_slice(&json);
    head.extend_from_slice(&(doc.bin_len as u32).to_le_bytes());
    head.extend_from_slice(b"BIN\0");
    Ok(head)
}

/// The document's JSON as a `.gltf` file naming `bin_uri` as its buffer.
pub(crate) fn gltf_json(
    doc: &mut Document,
    bin_uri: &str,
    json_out: &mut dyn Write,
) -> io::Result<()> {
    doc.json["buffers"][0]["uri"] = json!(uri_escape(bin_uri));
    serde_json::to_writer_pretty(&mut *json_out, &doc.json).map_err(io::Error::other)?;
    json_out.write_all(b"\n")
}

/// The document of a built mesh.
pub(crate) fn mesh_document(mesh: &Mesh) -> Document {
    document(
        mesh,
        &stats_of(&mesh.attributes),
        IndexInfo::of(&mesh.indices),
    )
}

/// Writes `mesh` as a binary glTF (`.glb`).
pub fn write_glb(mesh: &Mesh, out: &mut dyn Write) -> io::Result<()> {
    let doc = mesh_document(mesh);
    out.write_all(&glb_head(&doc)?)?;
    write_bin(&doc, mesh, out)
}

/// Writes `mesh` as glTF JSON to `json_out` and its buffer to `bin_out`, which the JSON
/// names `bin_uri` (a relative URI: the `.bin` file's name).
pub fn write_gltf(
    mesh: &Mesh,
    json_out: &mut dyn Write,
    bin_out: &mut dyn Write,
    bin_uri: &str,
) -> io::Result<()> {
    let mut doc = mesh_document(mesh);
    gltf_json(&mut doc, bin_uri, json_out)?;
    write_bin(&doc, mesh, bin_out)
}

pub(crate) fn uri_escape(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
