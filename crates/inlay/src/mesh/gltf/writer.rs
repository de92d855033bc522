//! The glTF writer: each element's accessors from its name, format and [`Stats`], the
//! document ([`schema::Root`] and the BIN chunk's layout), and the bytes of `.glb` /
//! `.gltf` + `.bin`.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::Arc;

use super::schema::{
    self, ARRAY_BUFFER, AccessorType, ELEMENT_ARRAY_BUFFER, ExtrasAttribute, ExtrasElement,
    ExtrasSlot, InlayExtras, Root, component,
};
use super::stats::*;
use crate::format::Kind;
use crate::mesh::{Attribute, Instances, Mesh, Mode};

pub(crate) use component::{FLOAT, UNSIGNED_BYTE, UNSIGNED_INT, UNSIGNED_SHORT};

/// The attribute holding each vertex's number.
pub(crate) const VERTEX_ID: &str = "_INLAY_VERTEX";

/// The letters of the lanes in the names of exact copies (`_TANGENT_X` …).
pub(crate) const LANE_NAMES: [&str; 4] = ["X", "Y", "Z", "W"];

/// One bufferView's content before it is laid out: its shape, where its bytes come from,
/// and the accessors that read it.
pub(crate) struct Acc {
    /// The accessor's name (attribute name), when one accessor reads the whole element.
    pub(crate) name: String,
    /// One SCALAR accessor per component instead, with these names: an exact copy, whose
    /// lanes are read as separate attributes (one shape for every copy: Blender 4.2's
    /// importer mixes up custom attributes of different shapes, glTF-Blender-IO #2658, and
    /// makes four-component float attributes colours).
    pub(crate) lanes: Vec<String>,
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
    /// One accessor named `name` reading the whole element.
    fn whole(name: String, ctype: u32, comps: usize, count: usize, data: Data) -> Acc {
        Acc {
            name,
            lanes: Vec::new(),
            ctype,
            comps,
            count,
            data,
            min_max: None,
            normalized: false,
        }
    }

    pub(crate) fn element_size(&self) -> usize {
        self.comps * ctype_size(self.ctype)
    }

    /// Appends the bytes of elements `start..end` to `out`: from `lanes[start..end]` (the
    /// source attribute's lanes, or a block of them with `start` counted from the block's
    /// first value), `indices[start..end]` for [`Data::Indices`], `skin` (made for at least
    /// `start..end`, counted the same way) for [`Data::Joints`] and [`Data::Weights`].
    pub(crate) fn render(
        &self,
        lanes: &[[u32; 4]],
        indices: &[u32],
        skin: &SkinBlock,
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
                for (d, v) in dst.chunks_exact_mut(4 * comps).zip(&lanes[start..end]) {
                    for (d, &b) in d.chunks_exact_mut(4).zip(v) {
                        d.copy_from_slice(&(value(b) as f32).to_le_bytes());
                    }
                }
            }
            Data::Halves { shift, .. } => {
                for (d, v) in dst.chunks_exact_mut(4 * comps).zip(&lanes[start..end]) {
                    for (d, &b) in d.chunks_exact_mut(4).zip(v) {
                        d.copy_from_slice(&(((b >> shift) & 0xffff) as f32).to_le_bytes());
                    }
                }
            }
            Data::Joints { set, wide, .. } => {
                let size = if *wide { 8 } else { 4 };
                for (d, k) in dst.chunks_exact_mut(size).zip(start..end) {
                    for (l, &(joint, _)) in skin.of(k, *set).iter().enumerate() {
                        if *wide {
                            d[2 * l..2 * l + 2].copy_from_slice(&joint.to_le_bytes());
                        } else {
                            d[l] = joint as u8;
                        }
                    }
                }
            }
            Data::Weights { set, .. } => {
                for (d, k) in dst.chunks_exact_mut(16).zip(start..end) {
                    for (d, &(_, w)) in d.chunks_exact_mut(4).zip(skin.of(k, *set)) {
                        d.copy_from_slice(&w.to_le_bytes());
                    }
                }
            }
            Data::Indices { wide } => render_indices(&indices[start..end], 0, *wide, dst),
            Data::VertexIds { shift } => {
                for (d, k) in dst.chunks_exact_mut(4).zip(start..end) {
                    let v = match shift {
                        None => k as f32,
                        Some(s) => ((k as u64 >> s) & 0xffff) as f32,
                    };
                    d.copy_from_slice(&v.to_le_bytes());
                }
            }
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
        self.render(lanes, &[], &SkinBlock::default(), 0, self.count, &mut bytes);
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
    /// Integer lanes `0..comps` as their float values (signed when `sint`).
    Ints { src: Src, sint: bool },
    /// Lanes `0..comps`' 16-bit halves at `shift` as float values.
    Halves { src: Src, shift: u32 },
    /// `JOINTS_n` of skin set `set` ([`Skin::influences`]): u8, or u16 when `wide`.
    Joints { src: Src, set: usize, wide: bool },
    /// `WEIGHTS_n` of skin set `set` ([`Skin::influences`]), as floats.
    Weights { src: Src, set: usize },
    /// The mesh's indices as u16, or u32 when `wide`.
    Indices { wide: bool },
    /// Each vertex's own number (its index in the mesh) as a float: whole, or its 16-bit
    /// half at `shift` for numbers past 2^24.
    VertexIds { shift: Option<u32> },
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
            | Data::Joints { src, .. }
            | Data::Weights { src, .. } => Some(src),
            _ => None,
        }
    }
}

pub(crate) fn ctype_size(c: u32) -> usize {
    component::size(c).unwrap_or(4)
}

/// What one layout element became.
pub(crate) struct Mapped {
    pub(crate) element: usize,
    /// The standard attribute, if any.
    pub(crate) standard: Option<String>,
    /// The custom attributes with the exact lanes, one per component, if any.
    pub(crate) raw: Vec<String>,
    /// The custom attributes with the high halves of integer lanes, if any.
    pub(crate) raw_high: Vec<String>,
    pub(crate) conversion: String,
}

pub(crate) fn is(semantic: &str, names: &[&str]) -> bool {
    names.iter().any(|n| semantic.eq_ignore_ascii_case(n))
}

/// The blend sets that became `JOINTS_n` / `WEIGHTS_n`: a vertex's influences over every
/// set are written as one valid glTF skin ([`Skin::influences`]); the exact copies keep the
/// values as they were.
#[derive(Clone, Debug, Default)]
pub(crate) struct Skin {
    /// Per set, in set order.
    pub(crate) sets: Vec<SkinSet>,
    /// Blend index → the joint's position in the skin's joints.
    pub(crate) remap: Arc<[u16]>,
}

/// One `JOINTS_n` / `WEIGHTS_n` pair's sources.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SkinSet {
    /// The BLENDINDICES attribute (a per-vertex one) and its components.
    pub(crate) joints: usize,
    pub(crate) joint_lanes: usize,
    /// The BLENDWEIGHT(S) attribute of the same index, its kind and components.
    pub(crate) weights: Option<(usize, Kind, usize)>,
}

/// One skin set's lanes: its blend indices', and its weights' with their kind and
/// components.
type SetLanes<'a> = (&'a [[u32; 4]], Option<(&'a [[u32; 4]], Kind, usize)>);

/// The influences of a run of vertices: [`Skin::influences`] of each, one
/// `[(joint, weight); 4]` per set.
#[derive(Clone, Debug, Default)]
pub(crate) struct SkinBlock {
    /// The first vertex (counted as the lanes the block was made from are).
    first: usize,
    sets: usize,
    values: Vec<[(u16, f32); 4]>,
}

impl SkinBlock {
    /// Vertex `k`'s influences in set `set`.
    fn of(&self, k: usize, set: usize) -> &[(u16, f32); 4] {
        &self.values[(k - self.first) * self.sets + set]
    }
}

/// The validator's tolerance for a vertex's weight sum: 2·10⁻⁷ per non-zero weight, the
/// weights added in binary32 lane by lane, each lane over every set.
#[inline(always)]
fn weight_sum(sets: &[[(u16, f32); 4]]) -> (f32, f64) {
    let (mut sum, mut tolerance) = (0f32, 0f64);
    for l in 0..4 {
        for s in sets {
            if s[l].1 != 0.0 {
                sum += s[l].1;
                tolerance += 2e-7;
            }
        }
    }
    (sum, tolerance)
}

impl Skin {
    /// Vertices `start..end`'s influences, the lanes of per-vertex attribute `a` being
    /// `lanes(a)` (indexed as `start..end` are).
    pub(crate) fn block<'a>(
        &self,
        lanes: impl Fn(usize) -> &'a [[u32; 4]],
        start: usize,
        end: usize,
    ) -> SkinBlock {
        let n = self.sets.len();
        let mut values = vec![[(0u16, 0f32); 4]; (end - start) * n];
        if n > 0 {
            let sources: Vec<SetLanes<'_>> = self
                .sets
                .iter()
                .map(|s| (lanes(s.joints), s.weights.map(|(w, k, c)| (lanes(w), k, c))))
                .collect();
            // One set (most skins) or two: a fixed count, so that the merging of lanes
            // that name one joint unrolls.
            match n {
                1 => self.fill::<1>(&sources, &mut values, start),
                2 => self.fill::<2>(&sources, &mut values, start),
                _ => {
                    for (v, k) in values.chunks_exact_mut(n).zip(start..end) {
                        self.influences(&sources, k, v);
                    }
                }
            }
        }
        SkinBlock {
            first: start,
            sets: n,
            values,
        }
    }

    /// [`Skin::block`]'s influences of `N` sets, vertex `start` on, into `values`.
    fn fill<const N: usize>(
        &self,
        sources: &[SetLanes<'_>],
        values: &mut [[(u16, f32); 4]],
        start: usize,
    ) {
        for (v, k) in values.as_chunks_mut::<N>().0.iter_mut().zip(start..) {
            self.influences(sources, k, v);
        }
    }

    /// Vertex `k`'s influences as valid glTF (what the Khronos validator checks): a blend
    /// index given twice has its weights summed into its first lane; lanes of weight 0
    /// (negative, NaN and infinite weights are 0) name joint 0; the weights are scaled to
    /// sum 1 as the validator adds them (binary32, within 2·10⁻⁷ per weight), and a vertex
    /// without weight gets weight 1 on its first blend index. Lanes past a format's
    /// components are joint 0, weight 0.
    #[inline(always)]
    fn influences(&self, sources: &[SetLanes<'_>], k: usize, out: &mut [[(u16, f32); 4]]) {
        let joint = |b: u32| self.remap.get(b as usize).copied().unwrap_or(0);
        for ((set, (j, w)), o) in self.sets.iter().zip(sources).zip(out.iter_mut()) {
            for l in 0..4 {
                let weight = match w {
                    Some((w, kind, comps)) if l < *comps && l < set.joint_lanes => {
                        let x = float_lane(w[k][l], *kind);
                        if x.is_finite() && x > 0.0 { x } else { 0.0 }
                    }
                    _ => 0.0,
                };
                let b = if l < set.joint_lanes { j[k][l] } else { 0 };
                o[l] = (joint(b), weight);
            }
        }
        // One lane per joint: later lanes' weights go to its first.
        let flat = |i: usize| (i / 4, i % 4);
        for i in 0..out.len() * 4 {
            let (s, l) = flat(i);
            let (jn, w) = out[s][l];
            if w == 0.0 {
                continue;
            }
            if let Some(first) = (0..i).find(|&p| {
                let (ps, pl) = flat(p);
                out[ps][pl].1 != 0.0 && out[ps][pl].0 == jn
            }) {
                let (ps, pl) = flat(first);
                out[ps][pl].1 += w;
                out[s][l].1 = 0.0;
            }
        }
        let total: f64 = out.iter().flatten().map(|x| x.1 as f64).sum();
        if !(total > 0.0 && total.is_finite()) {
            let first = sources.first().map_or(0, |(j, _)| {
                if self.sets[0].joint_lanes > 0 {
                    j[k][0]
                } else {
                    0
                }
            });
            for o in out.iter_mut() {
                *o = [(0, 0.0); 4];
            }
            if let Some(o) = out.first_mut() {
                o[0] = (joint(first), 1.0);
            }
            return;
        }
        for x in out.iter_mut().flatten() {
            if x.1 == 0.0 {
                x.0 = 0;
            } else {
                x.1 = (x.1 as f64 / total) as f32;
            }
        }
        // The sum as the validator adds it: the heaviest weight takes up the difference.
        for _ in 0..8 {
            let (sum, tolerance) = weight_sum(out);
            if ((sum as f64) - 1.0).abs() <= tolerance {
                break;
            }
            let Some(heaviest) = out.iter_mut().flatten().max_by(|a, b| a.1.total_cmp(&b.1)) else {
                break;
            };
            heaviest.1 = (heaviest.1 as f64 + (1.0 - sum as f64)) as f32;
        }
    }
}

/// The standard attribute role an element may take, from its name and format alone.
pub(crate) enum Role {
    /// A float attribute: name, lanes written, conversion, whether min/max are recorded,
    /// which tool conventions decide whether it also gets an exact copy.
    Float(String, usize, Conv, bool, Fragile),
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
                Role::Float("POSITION".into(), 3, Conv::Keep, true, Fragile::NegZero)
            } else if is(&a.semantic, &["NORMAL"]) && a.semantic_index == 0 {
                Role::Float("NORMAL".into(), 3, Conv::Normal, false, Fragile::No)
            } else if is(&a.semantic, &["TANGENT"]) && a.semantic_index == 0 {
                Role::Float("TANGENT".into(), 4, Conv::Tangent, false, Fragile::No)
            } else if let Some(set) = tex.iter().position(|&t| t == i) {
                let name = format!("TEXCOORD_{set}");
                Role::Float(name, 2, Conv::Keep, false, Fragile::NegZeroAndFlip)
            } else if let Some(set) = col.iter().position(|&t| t == i) {
                let name = format!("COLOR_{set}");
                Role::Float(name, comps.min(4), Conv::Keep, false, Fragile::No)
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
                Role::Float(_, out, conv, bounds, fragile) => {
                    Some(FloatStats::new(*out, kind, *conv, *bounds, *fragile, comps))
                }
                Role::Weights => Some(FloatStats::new(
                    4,
                    kind,
                    Conv::Weights { components: comps },
                    false,
                    Fragile::No,
                    comps,
                )),
                _ => None,
            };
            // A float attribute checked for fragile values looks at every component itself.
            let checked = matches!(&role, Role::Float(_, _, _, _, f) if *f != Fragile::No) && !int;
            Stats {
                count: 0,
                float,
                joints: matches!(role, Role::Joints).then(|| JointStats::new(comps)),
                raw: (!checked).then(|| RawStats::new(comps, kind)),
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

/// The exact lanes of an attribute as custom attributes: one bufferView of the format's
/// components as floats, read by one SCALAR FLOAT accessor per component (`_NAME_X`,
/// `_NAME_Y`, …: see [`Acc::lanes`]). Integers up to 2^24 and floats other than −0.0, NaN
/// and infinity are their own float values; else every lane's low 16-bit half goes to
/// `_NAME_X` … and its high half to `_NAME_X_HI` … (as whole numbers, which every tool keeps).
pub(crate) fn raw_accessors(src: Src, a: &Attribute, stats: &Stats, name: &str) -> Vec<Acc> {
    let kind = a.kind();
    let comps = a.components().clamp(1, 4);
    let count = stats.count;
    let acc = |suffix: &str, data: Data| Acc {
        name: String::new(),
        lanes: LANE_NAMES[..comps]
            .iter()
            .map(|l| format!("{name}_{l}{suffix}"))
            .collect(),
        ctype: FLOAT,
        comps,
        count,
        data,
        min_max: None,
        normalized: false,
    };
    let plain = match (&stats.raw, &stats.float) {
        (Some(r), _) => r.plain,
        (None, Some(f)) => !f.special,
        (None, None) => false,
    };
    match (plain, kind) {
        (true, Kind::Uint | Kind::Sint) => {
            let sint = kind == Kind::Sint;
            vec![acc("", Data::Ints { src, sint })]
        }
        (true, _) => vec![acc(
            "",
            Data::Floats {
                src,
                kind: Kind::Float,
                conv: Conv::Keep,
            },
        )],
        (false, _) => vec![
            acc("", Data::Halves { src, shift: 0 }),
            acc("_HI", Data::Halves { src, shift: 16 }),
        ],
    }
}

/// The base name of an attribute's exact copies: `_SEMANTIC` (`_SEMANTICi` for index
/// i > 0), upper case, made unique among `taken` (case-insensitively) by `_2`, `_3`, ….
pub(crate) fn custom_name(a: &Attribute, taken: &mut Vec<String>) -> String {
    let mut base = format!("_{}", a.semantic.to_ascii_uppercase());
    if a.semantic_index > 0 {
        base.push_str(&a.semantic_index.to_string());
    }
    let mut name = base.clone();
    let mut k = 2;
    while taken.iter().any(|t| t.eq_ignore_ascii_case(&name)) {
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

/// The per-vertex accessors of a mesh's attributes, what each element became, and the
/// blend indices that became joints (in joint order), from the attributes' names and
/// formats and their values' [`Stats`].
pub(crate) fn vertex_accessors(
    attrs: &[Attribute],
    stats: &[Stats],
    warnings: &mut Vec<String>,
) -> VertexAccessors {
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
            && stats
                .get(i)
                .and_then(|s| s.joints.as_ref())
                .is_some_and(|j| j.in_range)
    };
    let joints = continuous(attrs, &["BLENDINDICES"], joints_ok);
    // The skin's joints: every blend index any JOINTS set uses, in increasing order.
    let mut used = vec![0u64; 1024];
    for &j in &joints {
        if let Some(js) = &stats[j].joints {
            for (u, w) in used.iter_mut().zip(&js.used) {
                *u |= w;
            }
        }
    }
    let joint_list: Vec<u16> = JointStats {
        components: 0,
        in_range: true,
        used,
    }
    .indices()
    .collect();
    // Up to the highest blend index used (a frame's draws use a few hundred at most; a
    // table of all 65,536 cost each draw 128 KiB zeroed and copied): higher ones read 0.
    let mut remap = vec![0u16; joint_list.last().map_or(0, |&b| b as usize + 1)];
    for (k, &b) in joint_list.iter().enumerate() {
        remap[b as usize] = k as u16;
    }
    let remap: Arc<[u16]> = remap.into();
    let wide_joints = joint_list.len() > 256;
    let weights_of = |j: usize| {
        attrs.iter().position(|w| {
            is(&w.semantic, &["BLENDWEIGHT", "BLENDWEIGHTS"])
                && w.semantic_index == attrs[j].semantic_index
        })
    };
    let skin = Arc::new(Skin {
        sets: joints
            .iter()
            .map(|&j| SkinSet {
                joints: j,
                joint_lanes: attrs[j].components(),
                weights: weights_of(j)
                    .filter(|&w| stats[w].float.is_some())
                    .map(|w| (w, attrs[w].kind(), attrs[w].components())),
            })
            .collect(),
        remap: remap.clone(),
    });
    // Each vertex's number, which tools carry as a custom attribute: the vertex's identity
    // through reordering and splitting (import puts each back at its record).
    let count = stats.first().map_or(0, |s| s.count);
    let mut vertex_id = Vec::new();
    if count > 0 {
        let halves = count > 1 << 24;
        let shifts: &[Option<u32>] = if halves {
            &[Some(0), Some(16)]
        } else {
            &[None]
        };
        for (h, &shift) in shifts.iter().enumerate() {
            let name = if h == 0 {
                VERTEX_ID
            } else {
                "_INLAY_VERTEX_HI"
            };
            taken.push(name.to_string());
            vertex_id.push(name.to_string());
            accs.push(Acc::whole(
                name.to_string(),
                FLOAT,
                1,
                count,
                Data::VertexIds { shift },
            ));
        }
    }
    let mut non_finite_total = 0u64;
    for (i, (a, st)) in attrs.iter().zip(stats).enumerate() {
        let kind = a.kind();
        let comps = a.components();
        let src = Src::Vertex(i);
        let mut m = Mapped {
            element: a.element,
            standard: None,
            raw: Vec::new(),
            raw_high: Vec::new(),
            conversion: String::new(),
        };
        let mut push_std = |name: String, accs: &mut Vec<Acc>| -> (bool, u64, bool) {
            let Some(f) = &st.float else {
                return (true, 0, false);
            };
            taken.push(name.clone());
            let mut acc = Acc::whole(
                name,
                FLOAT,
                f.comps,
                st.count,
                // A conversion that changed no value is left out of the writing: the bytes
                // are those of the lanes as they are.
                Data::Floats {
                    src,
                    kind,
                    conv: if f.changed { f.conv } else { Conv::Keep },
                },
            );
            acc.min_max = f.with_bounds.then(|| f.bounds());
            accs.push(acc);
            (f.changed, f.non_finite, f.fragile())
        };
        let int = matches!(kind, Kind::Uint | Kind::Sint);
        // Whether the standard attribute alone holds the element exactly, in every tool
        // that keeps glTF's values: else it also gets an exact copy.
        let exact;
        if let Role::Float(name, _, _, _, fragile) = &roles[i] {
            let (changed, nf, fragile_values) = push_std(name.clone(), &mut accs);
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
            // Normals, tangents and colours are re-encoded by the tools that edit them
            // (custom normals, recomputed tangents, colour management): always copied.
            exact =
                *fragile != Fragile::No && !changed && nf == 0 && fits && !int && !fragile_values;
        } else if let Some(set) = joints.iter().position(|&t| t == i) {
            let name = format!("JOINTS_{set}");
            let ct = if wide_joints {
                UNSIGNED_SHORT
            } else {
                UNSIGNED_BYTE
            };
            taken.push(name.clone());
            accs.push(Acc::whole(
                name.clone(),
                ct,
                4,
                st.count,
                Data::Joints {
                    src,
                    set,
                    wide: wide_joints,
                },
            ));
            m.standard = Some(name);
            m.conversion = "joint numbers: the skin's joints are named by blend index".into();
            // Tools sort a vertex's influences by weight: the lanes' order needs the copy.
            exact = false;
        } else if let Some(set) = joints.iter().position(|&j| {
            is(&a.semantic, &["BLENDWEIGHT", "BLENDWEIGHTS"])
                && attrs[j].semantic_index == a.semantic_index
        }) {
            let name = format!("WEIGHTS_{set}");
            taken.push(name.clone());
            accs.push(Acc::whole(
                name.clone(),
                FLOAT,
                4,
                st.count,
                Data::Weights { src, set },
            ));
            non_finite_total += st.float.as_ref().map_or(0, |f| f.non_finite);
            m.standard = Some(name);
            m.conversion = "weights scaled to sum 1".into();
            exact = false;
        } else {
            exact = false;
            m.conversion = "custom attribute".into();
        }
        if !exact {
            let name = custom_name(a, &mut taken);
            let raw = raw_accessors(src, a, st, &name);
            m.raw = raw[0].lanes.clone();
            m.raw_high = raw.get(1).map(|r| r.lanes.clone()).unwrap_or_default();
            accs.extend(raw);
        }
        mapped.push(m);
    }
    if non_finite_total > 0 {
        warnings.push(format!(
            "{non_finite_total} NaN or infinite values were written as 0 in the standard attributes (glTF accessors hold finite numbers only; the exact copies keep them)"
        ));
    }
    let joint_list = match (joints.is_empty(), joint_list.is_empty()) {
        (true, _) => Vec::new(),
        // No values: joint 0 still exists for the (empty) JOINTS accessors to name.
        (false, true) => vec![0],
        (false, false) => joint_list,
    };
    VertexAccessors {
        accs,
        mapped,
        joints: joint_list,
        skin,
        taken,
        vertex_id,
    }
}

/// What [`vertex_accessors`] made.
pub(crate) struct VertexAccessors {
    /// The bufferViews and their accessors.
    pub(crate) accs: Vec<Acc>,
    /// What each attribute became.
    pub(crate) mapped: Vec<Mapped>,
    /// The blend indices that became the skin's joints, in joint order (none without
    /// `JOINTS_n`).
    pub(crate) joints: Vec<u16>,
    /// The sets `JOINTS_n` / `WEIGHTS_n` are made from.
    pub(crate) skin: Arc<Skin>,
    /// The attribute names and exact copies' base names given out.
    pub(crate) taken: Vec<String>,
    /// The attribute(s) holding each vertex's number (low and high halves past 2^24).
    pub(crate) vertex_id: Vec<String>,
}

/// The glTF document and its binary buffer's layout.
pub(crate) struct Document {
    pub(crate) root: Root,
    /// (byte offset, accessor, element stride) of each bufferView's data in the buffer.
    pub(crate) bin_parts: Vec<(usize, Acc, usize)>,
    pub(crate) bin_len: usize,
    /// The sets `JOINTS_n` / `WEIGHTS_n` are made from (none without a skin).
    pub(crate) skin: Arc<Skin>,
    /// What the writer itself changed (NaN and infinite values written as 0 in the standard
    /// attributes), beside the mesh's own warnings.
    pub(crate) warnings: Vec<String>,
}

/// One bufferView's place in the buffer, as the streaming writer needs it.
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
    /// Whether the bytes were made with the document ([`Document::render_fixed`]).
    pub fixed: bool,
    /// Whether the bytes are the vertices' numbers ([`Document::render_ids`]).
    pub ids: bool,
    /// Whether the bytes are `JOINTS_n` / `WEIGHTS_n`, made from [`Document::skin`]'s block.
    pub skin: bool,
}

impl Document {
    /// Bytes of the buffer.
    pub(crate) fn bin_len(&self) -> usize {
        self.bin_len
    }

    /// BufferViews in the buffer, in offset order.
    pub(crate) fn part_count(&self) -> usize {
        self.bin_parts.len()
    }

    /// BufferView `i`'s place.
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
            fixed: matches!(acc.data, Data::Bytes(_) | Data::Zeros),
            skin: matches!(acc.data, Data::Joints { .. } | Data::Weights { .. }),
            ids: matches!(acc.data, Data::VertexIds { .. }),
        }
    }

    /// Appends bufferView `i`'s bytes for `len` values whose lanes are `lanes` (a block of its
    /// source attribute's values), at its stride.
    /// `skin` is [`Document::skin`]'s block for the same values (made when a part is a
    /// [`Part::skin`] one).
    pub(crate) fn render_part(
        &self,
        i: usize,
        lanes: &[[u32; 4]],
        skin: &SkinBlock,
        len: usize,
        out: &mut Vec<u8>,
    ) {
        let (_, acc, stride) = &self.bin_parts[i];
        render_strided(acc, *stride, lanes, &[], skin, 0, len, out);
    }

    /// Appends bufferView `i`'s bytes for vertices `first..first + len` (a [`Part::ids`]
    /// one), at its stride.
    pub(crate) fn render_ids(&self, i: usize, first: usize, len: usize, out: &mut Vec<u8>) {
        let (_, acc, stride) = &self.bin_parts[i];
        render_strided(
            acc,
            *stride,
            &[],
            &[],
            &SkinBlock::default(),
            first,
            first + len,
            out,
        );
    }

    /// Appends the bytes of bufferView `i`, made with the document (a [`Part::fixed`] one),
    /// at its stride.
    pub(crate) fn render_fixed(&self, i: usize, out: &mut Vec<u8>) {
        let (_, acc, stride) = &self.bin_parts[i];
        render_strided(
            acc,
            *stride,
            &[],
            &[],
            &SkinBlock::default(),
            0,
            acc.count,
            out,
        );
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

/// A path's last component (the whole text when it has none): exported files name the
/// files read, never the folders they were in.
fn file_name(path: &str) -> String {
    path.rsplit(['/', '\\'])
        .next()
        .filter(|n| !n.is_empty())
        .unwrap_or(path)
        .to_string()
}

/// `text` with every path of `files` replaced by its file name.
fn without_folders(text: &str, files: &[String]) -> String {
    let mut out = text.to_string();
    // Longest first, so that a path is not cut by a shorter one it contains.
    let mut paths: Vec<&String> = files.iter().collect();
    paths.sort_by_key(|p| std::cmp::Reverse(p.len()));
    for p in paths {
        let name = file_name(p);
        if *p != name {
            out = out.replace(p.as_str(), &name);
        }
    }
    out
}

/// The `meshes[0].extras.inlay` record of `mesh`.
fn inlay_extras(
    mesh: &Mesh,
    mapped: &[Mapped],
    vertex_id: &[String],
    extra_warnings: &[String],
) -> InlayExtras {
    let layout = mesh
        .layout
        .iter()
        .zip(&mesh.descs)
        .map(|(l, d)| ExtrasElement {
            semantic: l.semantic_name.clone(),
            index: l.semantic_index,
            format: l.format.to_string(),
            slot: l.slot,
            offset: l.offset,
            declared_offset: if d.aligned_byte_offset == crate::element::APPEND_ALIGNED_ELEMENT {
                schema::DeclaredOffset::Append(schema::AppendTag::Append)
            } else {
                schema::DeclaredOffset::Bytes(d.aligned_byte_offset)
            },
            class: l.class.as_str().to_string(),
            step_rate: l.step_rate,
        })
        .collect();
    let attributes = mapped
        .iter()
        .map(|m| ExtrasAttribute {
            element: m.element,
            attribute: m.standard.clone(),
            conversion: m.conversion.clone(),
            exact: m.raw.clone(),
            exact_high: m.raw_high.clone(),
        })
        .collect();
    let warnings = mesh
        .warnings
        .iter()
        .chain(extra_warnings)
        .map(|w| without_folders(w, &mesh.files))
        .collect();
    InlayExtras {
        generator: "inlay".into(),
        version: InlayExtras::VERSION,
        name: super::super::capture_name(&mesh.files),
        layout,
        slots: mesh
            .slots
            .iter()
            .map(|s| ExtrasSlot {
                slot: s.slot,
                stride: s.stride,
                offset: s.offset,
            })
            .collect(),
        topology: mesh.topology.name().to_string(),
        draw: mesh.draw.clone(),
        index_format: mesh.index_format.map(|f| f.format().to_string()),
        vertex_base: mesh.vertex_base,
        vertex_count: mesh.vertex_count,
        compacted: mesh.vertex_elements.is_some(),
        instances: match mesh.instances {
            Instances::First => "first",
            Instances::Expand => "expand",
            Instances::Attributes => "attributes",
        }
        .into(),
        instance_count: mesh.instance_count,
        attributes,
        vertex_id: vertex_id.to_vec(),
        files: mesh.files.iter().map(|f| file_name(f)).collect(),
        warnings,
    }
}

/// The `extras.inlay` record an export of `mesh` writes (what each element becomes).
pub(crate) fn extras_of(mesh: &Mesh) -> InlayExtras {
    let stats = stats_of(&mesh.attributes);
    let made = vertex_accessors(&mesh.attributes, &stats, &mut Vec::new());
    inlay_extras(mesh, &made.mapped, &made.vertex_id, &[])
}

/// The document of a mesh: its per-vertex attributes' accessors from `stats` (one per
/// attribute, [`plan_stats`] fed every value), its indices' from `index`; the values of
/// per-instance attributes (expand and attributes modes) are read from the mesh.
pub(crate) fn document(mesh: &Mesh, stats: &[Stats], index: IndexInfo) -> Document {
    let mut warnings = Vec::new();
    let VertexAccessors {
        accs: vaccs,
        mapped,
        joints: joint_list,
        skin: skin_sets,
        taken: vertex_taken,
        vertex_id,
    } = vertex_accessors(&mesh.attributes, stats, &mut warnings);
    let mut root = Root {
        asset: schema::Asset {
            version: "2.0".into(),
            generator: Some("inlay".into()),
        },
        ..Root::default()
    };
    let mut parts: Vec<(usize, Acc, usize)> = Vec::new();
    let mut offset = 0usize;
    // Lays out `acc` as a bufferView and its accessor(s); returns them by name.
    let mut add = |root: &mut Root,
                   acc: Acc,
                   target: Option<u32>,
                   vertex_attribute: bool|
     -> Vec<(String, u32)> {
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
        let view = root.buffer_views.len() as u32;
        root.buffer_views.push(schema::BufferView {
            buffer: 0,
            byte_offset: offset as u64,
            byte_length: len.max(4) as u64,
            // Required where several accessors share the view (an exact copy's lanes).
            byte_stride: (vertex_attribute && (stride != esize || !acc.lanes.is_empty()))
                .then_some(stride as u64),
            target,
        });
        let accessor = |byte_offset: Option<u64>, kind: AccessorType| schema::Accessor {
            buffer_view: Some(view),
            byte_offset,
            component_type: acc.ctype,
            normalized: acc.normalized,
            count: acc.count as u64,
            kind,
            max: acc.min_max.as_ref().map(|m| m.1.clone()),
            min: acc.min_max.as_ref().map(|m| m.0.clone()),
            sparse: None,
        };
        let mut names = Vec::new();
        if acc.lanes.is_empty() {
            names.push((acc.name.clone(), root.accessors.len() as u32));
            let kind = if acc.comps == 16 {
                AccessorType::Mat4
            } else {
                AccessorType::vector(acc.comps)
            };
            root.accessors.push(accessor(None, kind));
        } else {
            let csize = ctype_size(acc.ctype) as u64;
            for (l, lane) in acc.lanes.iter().enumerate() {
                names.push((lane.clone(), root.accessors.len() as u32));
                let at = (l > 0).then_some(l as u64 * csize);
                root.accessors.push(accessor(at, AccessorType::Scalar));
            }
        }
        let data_len = len.max(4);
        parts.push((offset, acc, stride));
        offset += data_len.next_multiple_of(4);
        names
    };
    let mut attributes = BTreeMap::new();
    for acc in vaccs {
        attributes.extend(add(&mut root, acc, Some(ARRAY_BUFFER), true));
    }
    let wide = mesh.vertex_count > 65535;
    let index_acc = (index.count > 0).then(|| {
        let mut acc = Acc::whole(
            String::new(),
            if wide { UNSIGNED_INT } else { UNSIGNED_SHORT },
            1,
            index.count,
            Data::Indices { wide },
        );
        acc.min_max = Some((vec![index.min as f64], vec![index.max as f64]));
        add(&mut root, acc, Some(ELEMENT_ARRAY_BUFFER), false)[0].1
    });
    // One joint per blend index used, identity inverse bind matrices: the mesh as drawn is
    // its bind pose, and the skin makes the weights vertex groups named by blend index.
    let skin = (!joint_list.is_empty()).then(|| {
        let mut ibm = Vec::with_capacity(joint_list.len() * 64);
        for _ in &joint_list {
            for r in 0..4 {
                for c in 0..4 {
                    ibm.extend_from_slice(&(if r == c { 1f32 } else { 0.0 }).to_le_bytes());
                }
            }
        }
        let acc = Acc::whole(String::new(), FLOAT, 16, joint_list.len(), Data::Bytes(ibm));
        add(&mut root, acc, None, false)[0].1
    });
    let mode = match mesh.mode {
        Mode::Points => 0,
        Mode::Lines => 1,
        Mode::Triangles => 4,
    };
    let primitive = |attributes: BTreeMap<String, u32>| schema::Primitive {
        attributes,
        indices: index_acc,
        mode: Some(mode),
    };
    let name = super::super::capture_name(&mesh.files);
    let extras = Some(schema::MeshExtras {
        inlay: Some(schema::Record::Typed(Box::new(inlay_extras(
            mesh, &mapped, &vertex_id, &warnings,
        )))),
        inlay_mod: None,
    });
    let skin_index = skin.map(|_| 0u32);
    match mesh.instances {
        Instances::First => {
            root.meshes.push(schema::Mesh {
                name: Some(name.clone()),
                primitives: vec![primitive(attributes)],
                extras,
            });
            root.nodes.push(schema::Node {
                name: Some(name.clone()),
                mesh: Some(0),
                skin: skin_index,
                ..schema::Node::default()
            });
        }
        Instances::Expand => {
            let n = mesh.vertex_count as usize;
            for id in 0..mesh.instance_count as usize {
                let mut attrs = attributes.clone();
                let mut taken = vertex_taken.clone();
                for ia in &mesh.instance_attributes {
                    let one = Attribute {
                        values: vec![ia.values.get(id).copied().unwrap_or([0; 4]); n],
                        ..ia.clone()
                    };
                    let base = custom_name(ia, &mut taken);
                    let one_stats = stats_of(std::slice::from_ref(&one));
                    let raw = raw_accessors(Src::Vertex(0), &one, &one_stats[0], &base);
                    for acc in raw.into_iter().map(|a| a.owned(&one.values)) {
                        attrs.extend(add(&mut root, acc, Some(ARRAY_BUFFER), true));
                    }
                }
                let label = format!("{name} instance {id}");
                root.meshes.push(schema::Mesh {
                    name: Some(label.clone()),
                    primitives: vec![primitive(attrs)],
                    extras: if id == 0 { extras.clone() } else { None },
                });
                root.nodes.push(schema::Node {
                    name: Some(label),
                    mesh: Some(id as u32),
                    skin: skin_index,
                    ..schema::Node::default()
                });
            }
        }
        Instances::Attributes => {
            let mut inst = BTreeMap::new();
            let mut taken: Vec<String> = Vec::new();
            let inst_stats = stats_of(&mesh.instance_attributes);
            for (k, (ia, st)) in mesh.instance_attributes.iter().zip(&inst_stats).enumerate() {
                let base = custom_name(ia, &mut taken);
                let raw = raw_accessors(Src::Instance(k), ia, st, &base);
                for acc in raw {
                    inst.extend(add(&mut root, acc, None, false));
                }
            }
            if !inst.is_empty() {
                // Identity placements: the extension's viewers (Blender among them) need a
                // transform attribute to instance the mesh at all.
                let acc = Acc::whole(
                    "TRANSLATION".into(),
                    FLOAT,
                    3,
                    mesh.instance_count as usize,
                    Data::Zeros,
                );
                inst.extend(add(&mut root, acc, None, false));
            }
            root.meshes.push(schema::Mesh {
                name: Some(name.clone()),
                primitives: vec![primitive(attributes)],
                extras,
            });
            let mut node = schema::Node {
                name: Some(name.clone()),
                mesh: Some(0),
                skin: skin_index,
                ..schema::Node::default()
            };
            if !inst.is_empty() {
                node.extensions = Some(schema::NodeExtensions {
                    gpu_instancing: Some(schema::GpuInstancing { attributes: inst }),
                });
                root.extensions_used.push("EXT_mesh_gpu_instancing".into());
            }
            root.nodes.push(node);
        }
    }
    let mut scene_nodes: Vec<u32> = (0..root.nodes.len() as u32).collect();
    if let Some(ibm) = skin {
        let first = root.nodes.len() as u32;
        for b in &joint_list {
            root.nodes.push(schema::Node {
                name: Some(b.to_string()),
                ..schema::Node::default()
            });
        }
        let joints: Vec<u32> = (first..root.nodes.len() as u32).collect();
        // One parent for every joint: a skin's joints need a common root (the validator's
        // SKIN_NO_COMMON_ROOT), and tools make it the armature.
        scene_nodes.push(root.nodes.len() as u32);
        root.nodes.push(schema::Node {
            name: Some(format!("{name} skeleton")),
            children: joints.clone(),
            ..schema::Node::default()
        });
        root.skins.push(schema::Skin {
            name: Some(format!("{name} blend indices")),
            inverse_bind_matrices: Some(ibm),
            skeleton: None,
            joints,
        });
    }
    root.scene = Some(0);
    root.scenes.push(schema::Scene {
        name: None,
        nodes: scene_nodes,
        extras: None,
    });
    root.buffers.push(schema::Buffer {
        byte_length: offset.max(4) as u64,
        uri: None,
    });
    Document {
        root,
        bin_parts: parts,
        bin_len: offset.max(4),
        skin: skin_sets,
        warnings,
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
    let mut block: Vec<u8> = Vec::with_capacity(BIN_BLOCK + 64);
    let mut written = 0usize;
    // The last skin block made: `JOINTS_n` and `WEIGHTS_n` of a draw that fits one block
    // (most draws) are made from the same influences, computed once.
    let mut last_skin: Option<(usize, usize, SkinBlock)> = None;
    let no_skin = SkinBlock::default();
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
        let is_skin = matches!(acc.data, Data::Joints { .. } | Data::Weights { .. });
        while start < acc.count {
            let end = (start + per_block).min(acc.count);
            let skin = if is_skin {
                if !matches!(&last_skin, Some((s, e, _)) if (*s, *e) == (start, end)) {
                    let b = doc
                        .skin
                        .block(|a| &mesh.attributes[a].values[..], start, end);
                    last_skin = Some((start, end, b));
                }
                last_skin.as_ref().map_or(&no_skin, |(_, _, b)| b)
            } else {
                &no_skin
            };
            render_strided(
                acc,
                stride,
                lanes,
                &mesh.indices,
                skin,
                start,
                end,
                &mut block,
            );
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
#[allow(clippy::too_many_arguments)]
pub(crate) fn render_strided(
    acc: &Acc,
    stride: usize,
    lanes: &[[u32; 4]],
    indices: &[u32],
    skin: &SkinBlock,
    start: usize,
    end: usize,
    out: &mut Vec<u8>,
) {
    let esize = acc.element_size();
    if esize == stride {
        acc.render(lanes, indices, skin, start, end, out);
    } else {
        for k in start..end {
            acc.render(lanes, indices, skin, k, k + 1, out);
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
    let mut json = serde_json::to_vec(&doc.root).map_err(io::Error::other)?;
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
    if let Some(b) = doc.root.buffers.first_mut() {
        b.uri = Some(uri_escape(bin_uri));
    }
    serde_json::to_writer_pretty(&mut *json_out, &doc.root).map_err(io::Error::other)?;
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

/// Writes `mesh` as a binary glTF (`.glb`); returns the writer's warnings (NaN and infinite
/// values written as 0 in the standard attributes; their exact copies keep them).
pub fn write_glb(mesh: &Mesh, out: &mut dyn Write) -> io::Result<Vec<String>> {
    let doc = mesh_document(mesh);
    out.write_all(&glb_head(&doc)?)?;
    write_bin(&doc, mesh, out)?;
    Ok(doc.warnings)
}

/// Writes `mesh` as glTF JSON to `json_out` and its buffer to `bin_out`, which the JSON
/// names `bin_uri` (a relative URI: the `.bin` file's name); returns the writer's warnings
/// as [`write_glb`] does.
pub fn write_gltf(
    mesh: &Mesh,
    json_out: &mut dyn Write,
    bin_out: &mut dyn Write,
    bin_uri: &str,
) -> io::Result<Vec<String>> {
    let mut doc = mesh_document(mesh);
    gltf_json(&mut doc, bin_uri, json_out)?;
    write_bin(&doc, mesh, bin_out)?;
    Ok(doc.warnings)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A skin of `sets` (blend indices attribute, its lanes, weights attribute, its lanes;
    /// float weights), blend indices 3, 5, 7, 9, 200 being joints 0..5.
    fn skin(sets: &[(usize, usize, usize, usize)]) -> Skin {
        let mut remap = vec![0u16; 256];
        for (k, b) in [3usize, 5, 7, 9, 200].into_iter().enumerate() {
            remap[b] = k as u16;
        }
        Skin {
            sets: sets
                .iter()
                .map(|&(j, jl, w, wl)| SkinSet {
                    joints: j,
                    joint_lanes: jl,
                    weights: Some((w, Kind::Float, wl)),
                })
                .collect(),
            remap: remap.into(),
        }
    }

    fn f(x: [f32; 4]) -> [u32; 4] {
        x.map(f32::to_bits)
    }

    /// The influences of one vertex whose attributes' lanes are `attrs`.
    fn one(s: &Skin, attrs: &[[u32; 4]]) -> Vec<[(u16, f32); 4]> {
        let cols: Vec<Vec<[u32; 4]>> = attrs.iter().map(|a| vec![*a]).collect();
        let b = s.block(|a| &cols[a][..], 0, 1);
        (0..s.sets.len()).map(|set| *b.of(0, set)).collect()
    }

    /// The Khronos validator's rule (gltf-validator 2.0.0-dev.3.10): weights added in
    /// binary32, lane by lane over every set, within 2·10⁻⁷ of 1 per non-zero weight; no
    /// joint twice with weight; a zero weight names joint 0.
    fn valid(v: &[[(u16, f32); 4]]) -> bool {
        let (mut sum, mut tol, mut seen) = (0f32, 0f64, Vec::new());
        for l in 0..4 {
            for s in v {
                let (j, w) = s[l];
                if w != 0.0 {
                    if seen.contains(&j) {
                        return false;
                    }
                    seen.push(j);
                    sum += w;
                    tol += 2e-7;
                } else if j != 0 {
                    return false;
                }
            }
        }
        ((sum as f64) - 1.0).abs() <= tol
    }

    #[test]
    fn skin_influences_are_valid_gltf() {
        let s = skin(&[(0, 4, 1, 4)]);
        // A blend index twice (3): its weights summed into its first lane; the zero weight
        // names joint 0; weights summing to 0.5 scaled to 1.
        let v = one(&s, &[ints(&[3, 200, 7, 3]), f([0.125, 0.25, 0.0, 0.125])]);
        assert_eq!(v, vec![[(0, 0.5), (4, 0.5), (0, 0.0), (0, 0.0)]]);
        // No weight at all (negative, NaN, infinite count as 0): weight 1 on the first.
        let v = one(
            &s,
            &[ints(&[7, 9, 3, 5]), f([-1.0, f32::NAN, f32::INFINITY, 0.0])],
        );
        assert_eq!(v, vec![[(2, 1.0), (0, 0.0), (0, 0.0), (0, 0.0)]]);
        // Two sets, the second of two lanes: the sum is over both; a joint of set 0 given
        // again in set 1 is summed into set 0's lane; lanes past a format's are zero.
        let s2 = skin(&[(0, 4, 1, 4), (2, 2, 3, 2)]);
        let v = one(
            &s2,
            &[
                ints(&[5, 5, 5, 5]),
                f([0.25, 0.0, 0.0, 0.0]),
                ints(&[5, 9, 200, 200]),
                f([0.25, 0.5, 1.0, 1.0]),
            ],
        );
        assert_eq!(
            v,
            vec![
                [(1, 0.5), (0, 0.0), (0, 0.0), (0, 0.0)],
                [(0, 0.0), (3, 0.5), (0, 0.0), (0, 0.0)],
            ]
        );
        // Three sets (the block's general path; one and two sets have loops of their own):
        // set 1's joint 1 is summed into set 0's lane, the total of 2 scaled to 1.
        let s3 = skin(&[(0, 4, 1, 4), (2, 2, 3, 2), (4, 1, 5, 1)]);
        let v = one(
            &s3,
            &[
                ints(&[5, 5, 5, 5]),
                f([0.25, 0.0, 0.0, 0.0]),
                ints(&[5, 9, 200, 200]),
                f([0.25, 0.5, 1.0, 1.0]),
                ints(&[7, 3, 3, 3]),
                f([1.0, 1.0, 1.0, 1.0]),
            ],
        );
        assert_eq!(
            v,
            vec![
                [(1, 0.25), (0, 0.0), (0, 0.0), (0, 0.0)],
                [(0, 0.0), (3, 0.25), (0, 0.0), (0, 0.0)],
                [(2, 0.5), (0, 0.0), (0, 0.0), (0, 0.0)],
            ]
        );
        // Weights whose binary32 sum is not 1 after scaling pass the validator's rule.
        for w in [
            [0.1f32, 0.2, 0.3, 0.4],
            [0.7, 0.1, 0.1, 0.1],
            [1e-7, 0.3333, 0.3333, 0.3333],
            [0.9, 0.05, 0.03, 0.019_999],
        ] {
            let v = one(&s, &[ints(&[3, 5, 7, 9]), f(w)]);
            assert!(valid(&v), "{w:?}: {v:?}");
        }
    }

    /// Integer lanes (blend indices) as they are.
    fn ints(j: &[u32; 4]) -> [u32; 4] {
        *j
    }
}
