//! glTF 2.0: the mesh written as `.glb` or `.gltf` + `.bin`, and read back for import.
//!
//! Semantics map to glTF attributes with the conversions the glTF 2.0 specification
//! (§3.7.2.1) requires, names compared case-insensitively as Direct3D does:
//!
//! | element | glTF attribute | conversion |
//! |---|---|---|
//! | POSITION0 | `POSITION` VEC3 float, min/max | x, y, z as floats |
//! | NORMAL0 | `NORMAL` VEC3 float | normalised (zero vectors → +Z) |
//! | TANGENT0 | `TANGENT` VEC4 float | x, y, z normalised (zero → +X), w = −1 when negative, else +1 |
//! | TEXCOORDn | `TEXCOORD_n` VEC2 float | x, y |
//! | COLORn (3 or 4 components) | `COLOR_n` VEC3/VEC4 float | as decoded |
//! | BLENDINDICESn with BLENDWEIGHT(S)n | `JOINTS_n` VEC4 u8/u16, `WEIGHTS_n` VEC4 float | indices 0…65535; weights scaled to sum 1 (all zero → 1, 0, 0, 0) |
//!
//! Indexed semantics are mapped only while their set numbers run 0, 1, 2, … (glTF requires
//! continuity). Every other element, and every element a conversion changed (values
//! normalised, lanes dropped, non-finite floats replaced by 0, integers made floats), is also
//! written unchanged as a custom attribute `_NAME` (`_NAMEi` for semantic index i > 0): the
//! four register lanes as VEC4 FLOAT, integers as their exact float values, or — past 2^24 —
//! as the float values of their low and high 16-bit halves in `_NAME` and `_NAME_HI`. So
//! nothing is lost, except NaN/infinity values, which glTF cannot hold (replaced by 0,
//! counted in a warning). Under `--instances attributes` the node's `EXT_mesh_gpu_instancing`
//! holds the per-instance elements the same way, beside an all-zero `TRANSLATION`. The original layout, formats, slots, draw and
//! the attribute ↔ element map go into `meshes[0].extras.inlay`, which [`read_glb`] /
//! [`read_gltf`] use to import the mesh back.
//!
//! Positions and winding are written as the draw has them (no handedness conversion).

use std::io::{self, Seek, Write};

use serde_json::{Value, json};

use super::{Attribute, Instances, Mesh, MeshInput, MeshOptions, Mode};
use crate::format::Kind;

const FLOAT: u32 = 5126;
const BYTE: u32 = 5120;
const UNSIGNED_BYTE: u32 = 5121;
const SHORT: u32 = 5122;
const UNSIGNED_SHORT: u32 = 5123;
const UNSIGNED_INT: u32 = 5125;

/// One accessor before it is laid out: its shape, and where its bytes come from.
struct Acc {
    name: String,
    ctype: u32,
    comps: usize,
    count: usize,
    /// How the element bytes are made from the lanes of [`Data`]'s source while the BIN
    /// chunk is written (tightly packed; padding is added when laid out).
    data: Data,
    min_max: Option<(Vec<f64>, Vec<f64>)>,
    normalized: bool,
}

impl Acc {
    fn element_size(&self) -> usize {
        self.comps * ctype_size(self.ctype)
    }

    /// Appends the bytes of elements `start..end` to `out`: from `lanes[start..end]` (the
    /// source attribute's lanes, or a block of them with `start` counted from the block's
    /// first value), `indices[start..end]` for [`Data::Indices`].
    fn render(
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
    fn owned(self, lanes: &[[u32; 4]]) -> Acc {
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
pub(super) fn render_indices(indices: &[u32], base: u32, wide: bool, dst: &mut [u8]) {
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
enum Src {
    Vertex(usize),
    Instance(usize),
}

/// Where an accessor's bytes come from.
enum Data {
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
    fn src(&self) -> Option<Src> {
        match *self {
            Data::Floats { src, .. }
            | Data::Ints { src, .. }
            | Data::Halves { src, .. }
            | Data::Joints { src, .. } => Some(src),
            _ => None,
        }
    }
}

/// The change glTF requires of an attribute's float lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Conv {
    /// None.
    Keep,
    /// x, y, z normalised (zero vectors → +Z).
    Normal,
    /// x, y, z normalised (zero → +X), w = ±1.
    Tangent,
    /// Negative weights and the lanes from `components` on made 0, then scaled to sum 1.
    Weights { components: usize },
}

impl Conv {
    #[inline(always)]
    fn apply(self, x: &mut [f32; 4]) {
        match self {
            Conv::Keep => {}
            Conv::Normal => normalize3(x, [0.0, 0.0, 1.0]),
            Conv::Tangent => {
                normalize3(x, [1.0, 0.0, 0.0]);
                x[3] = if x[3] < 0.0 { -1.0 } else { 1.0 };
            }
            Conv::Weights { components } => {
                for c in x.iter_mut().take(components) {
                    if *c < 0.0 {
                        *c = 0.0;
                    }
                }
                for c in x.iter_mut().skip(components) {
                    *c = 0.0;
                }
                let s: f32 = x.iter().sum();
                if (s - 1.0).abs() > 1e-4 {
                    if s <= 0.0 {
                        *x = [1.0, 0.0, 0.0, 0.0];
                    } else {
                        for c in x.iter_mut() {
                            *c /= s;
                        }
                    }
                }
            }
        }
    }
}

fn ctype_size(c: u32) -> usize {
    match c {
        BYTE | UNSIGNED_BYTE => 1,
        SHORT | UNSIGNED_SHORT => 2,
        _ => 4,
    }
}

fn type_name(comps: usize) -> &'static str {
    match comps {
        1 => "SCALAR",
        2 => "VEC2",
        3 => "VEC3",
        _ => "VEC4",
    }
}

/// What one layout element became.
struct Mapped {
    element: usize,
    /// The standard attribute, if any.
    standard: Option<String>,
    /// The custom attribute(s) with the exact lanes, if any.
    raw: Vec<String>,
    conversion: String,
}

fn is(semantic: &str, names: &[&str]) -> bool {
    names.iter().any(|n| semantic.eq_ignore_ascii_case(n))
}

fn float_lane(bits: u32, kind: Kind) -> f32 {
    match kind {
        Kind::Uint => bits as f32,
        Kind::Sint => bits as i32 as f32,
        _ => f32::from_bits(bits),
    }
}

/// A float bit pattern with NaN and infinity replaced by +0.
#[inline]
fn finite_bits(bits: u32) -> u32 {
    if bits & 0x7f80_0000 == 0x7f80_0000 {
        0
    } else {
        bits
    }
}

/// Each float bit pattern of `lanes` with NaN and infinity replaced by +0, in place.
pub(super) fn finite_lanes(lanes: &mut [u32]) {
    for x in lanes {
        *x = finite_bits(*x);
    }
}

/// One value's float lanes as written: [`float_lane`] of `kind`, non-finite lanes replaced by
/// 0, then `conv`; with the count of non-finite lanes below `comps` and whether `conv`
/// changed a lane below `comps`.
#[inline(always)]
fn float_value(v: &[u32; 4], comps: usize, kind: Kind, conv: Conv) -> ([f32; 4], u64, bool) {
    let mut x = [0f32; 4];
    let mut non_finite = 0u64;
    for l in 0..4 {
        x[l] = float_lane(v[l], kind);
        if !x[l].is_finite() {
            if l < comps {
                non_finite += 1;
            }
            x[l] = 0.0;
        }
    }
    let before = x;
    conv.apply(&mut x);
    let changed = (0..comps).any(|l| x[l].to_bits() != before[l].to_bits());
    (x, non_finite, changed)
}

/// What writing [`Data::Floats`] of `values` does, without writing: (whether `conv` changed
/// a value, non-finite lanes below `comps`, min, max — the bounds only `with_bounds`, and
/// zeros for no values).
#[cfg(test)]
fn float_stats(
    values: &[[u32; 4]],
    comps: usize,
    kind: Kind,
    conv: Conv,
    with_bounds: bool,
) -> (bool, u64, Vec<f64>, Vec<f64>) {
    let mut stats = FloatStats::new(comps, kind, conv, with_bounds);
    stats.feed(values);
    let (min, max) = stats.bounds();
    (stats.changed, stats.non_finite, min, max)
}

/// [`float_stats`] gathered block by block: feeding the values in any number of
/// consecutive blocks gives the same results, bit for bit (the bounds are one running fold
/// in value order, as over the whole slice).
#[derive(Clone, Debug)]
struct FloatStats {
    comps: usize,
    kind: Kind,
    conv: Conv,
    with_bounds: bool,
    /// Values fed.
    count: usize,
    changed: bool,
    non_finite: u64,
    min: [f64; 4],
    max: [f64; 4],
}

impl FloatStats {
    fn new(comps: usize, kind: Kind, conv: Conv, with_bounds: bool) -> FloatStats {
        FloatStats {
            comps,
            kind,
            conv,
            with_bounds,
            count: 0,
            changed: false,
            non_finite: 0,
            min: [f64::INFINITY; 4],
            max: [f64::NEG_INFINITY; 4],
        }
    }

    /// The bounds of lanes `0..comps` (zeros without bounds or values).
    fn bounds(&self) -> (Vec<f64>, Vec<f64>) {
        if self.count == 0 || !self.with_bounds {
            return (vec![0.0; self.comps], vec![0.0; self.comps]);
        }
        (
            self.min[..self.comps].to_vec(),
            self.max[..self.comps].to_vec(),
        )
    }

    /// Takes the next values.
    fn feed(&mut self, values: &[[u32; 4]]) {
        let (comps, kind, conv, with_bounds) = (self.comps, self.kind, self.conv, self.with_bounds);
        self.count += values.len();
        let int = matches!(kind, Kind::Uint | Kind::Sint);
        if conv == Conv::Keep && !int && (1..=4).contains(&comps) {
            // The lanes are the bits themselves: count the non-finite ones, bound the rest.
            let (min, max) = (&mut self.min, &mut self.max);
            self.non_finite += match (comps, with_bounds) {
                (1, false) => keep_stats::<4, 1, false>(values, min, max),
                (2, false) => keep_stats::<4, 2, false>(values, min, max),
                (3, false) => keep_stats::<4, 3, false>(values, min, max),
                (4, false) => keep_stats::<4, 4, false>(values, min, max),
                (1, true) => keep_stats::<4, 1, true>(values, min, max),
                (2, true) => keep_stats::<4, 2, true>(values, min, max),
                (3, true) => keep_stats::<4, 3, true>(values, min, max),
                _ => keep_stats::<4, 4, true>(values, min, max),
            };
        } else if conv == Conv::Normal && !int && comps == 3 {
            let (changed, non_finite) = normal_stats::<4>(values);
            self.changed |= changed;
            self.non_finite += non_finite;
        } else {
            // One loop per conversion, so that each is compiled with its conversion inlined.
            #[inline(always)]
            fn each(
                values: &[[u32; 4]],
                comps: usize,
                kind: Kind,
                conv: Conv,
                mut f: impl FnMut([f32; 4], u64, bool),
            ) {
                for v in values {
                    let (x, nf, ch) = float_value(v, comps, kind, conv);
                    f(x, nf, ch);
                }
            }
            let (min, max) = (&mut self.min, &mut self.max);
            let (non_finite, changed) = (&mut self.non_finite, &mut self.changed);
            let f = |x: [f32; 4], nf: u64, ch: bool| {
                *non_finite += nf;
                *changed |= ch;
                if with_bounds {
                    for l in 0..comps {
                        min[l] = min[l].min(x[l] as f64);
                        max[l] = max[l].max(x[l] as f64);
                    }
                }
            };
            match conv {
                Conv::Keep => each(values, comps, kind, Conv::Keep, f),
                Conv::Normal => each(values, comps, kind, Conv::Normal, f),
                Conv::Tangent => each(values, comps, kind, Conv::Tangent, f),
                Conv::Weights { .. } => each(values, comps, kind, conv, f),
            }
        }
    }
}

impl FloatStats {
    /// [`FloatStats::feed`] of rows holding only the `W` lanes the statistics read: a float
    /// kept as it is (`W` = its written lanes) or a normal (`W` = 3); see
    /// [`Stats::row_lanes`].
    fn feed_narrow<const W: usize>(&mut self, values: &[[u32; W]]) {
        self.count += values.len();
        let (min, max) = (&mut self.min, &mut self.max);
        if self.conv == Conv::Normal {
            let (changed, non_finite) = normal_stats::<W>(values);
            self.changed |= changed;
            self.non_finite += non_finite;
        } else if self.with_bounds {
            self.non_finite += keep_stats::<W, W, true>(values, min, max);
        } else {
            self.non_finite += keep_stats::<W, W, false>(values, min, max);
        }
    }

    /// Takes the statistics of the values that follow this one's (fed to `later`): the
    /// same as feeding them here, bit for bit — the bounds fold `later`'s bound into this
    /// one's as one more value, which picks among equal values (±0) as the running fold does.
    fn merge(&mut self, later: &FloatStats) {
        self.count += later.count;
        self.changed |= later.changed;
        self.non_finite += later.non_finite;
        for l in 0..4 {
            self.min[l] = self.min[l].min(later.min[l]);
            self.max[l] = self.max[l].max(later.max[l]);
        }
    }
}

/// [`FloatStats::feed`] of float lanes kept as they are, in rows of `W` ≥ `C` lanes: returns
/// the non-finite lanes among `0..C`, and (`BOUNDS`) folds each lane into `min` and `max` with
/// non-finite lanes as 0.
fn keep_stats<const W: usize, const C: usize, const BOUNDS: bool>(
    values: &[[u32; W]],
    min: &mut [f64; 4],
    max: &mut [f64; 4],
) -> u64 {
    let mut non_finite = 0u64;
    if BOUNDS {
        for v in values {
            for l in 0..C {
                let bits = v[l];
                non_finite += (bits & 0x7f80_0000 == 0x7f80_0000) as u64;
                let y = f32::from_bits(finite_bits(bits)) as f64;
                min[l] = min[l].min(y);
                max[l] = max[l].max(y);
            }
        }
    } else {
        // Counted in blocks of 32-bit sums (a block holds fewer than 2^32 lanes).
        for block in values.chunks(1 << 24) {
            let mut n = 0u32;
            for v in block {
                for &bits in &v[..C] {
                    n += (bits & 0x7f80_0000 == 0x7f80_0000) as u32;
                }
            }
            non_finite += n as u64;
        }
    }
    non_finite
}

/// [`FloatStats::feed`] of [`Conv::Normal`] on float lanes, three written: whether a vector
/// is changed, and the non-finite lanes among the three. [`normalize3`] changes a vector
/// exactly when its length is not within its tolerance of 1 (a zero, overflowing or other
/// length: the vector is replaced or divided, which leaves no non-zero vector's bits as they
/// were), so that test alone decides, without branches. Rows of `W` ≥ 3 lanes.
fn normal_stats<const W: usize>(values: &[[u32; W]]) -> (bool, u64) {
    let mut changed = false;
    let mut non_finite = 0u64;
    for block in values.chunks(1 << 24) {
        let mut n = 0u32;
        for v in block {
            let mut x = [0f32; 3];
            for l in 0..3 {
                n += (v[l] & 0x7f80_0000 == 0x7f80_0000) as u32;
                x[l] = f32::from_bits(finite_bits(v[l]));
            }
            let len = (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]).sqrt();
            // Finite lanes give no NaN length (at most an infinite one), so `>` is the
            // negation of normalize3's `<=`.
            changed |= (len - 1.0).abs() > 0.0004;
        }
        non_finite += n as u64;
    }
    (changed, non_finite)
}

/// Lanes `0..C` of each value, non-finite replaced by 0, as little-endian float bits.
fn copy_lanes<const C: usize>(values: &[[u32; 4]], dst: &mut [u8]) {
    for (d, v) in dst.chunks_exact_mut(4 * C).zip(values) {
        for l in 0..C {
            d[4 * l..4 * l + 4].copy_from_slice(&finite_bits(v[l]).to_le_bytes());
        }
    }
}

/// The bytes of [`Data::Floats`] for `values` into `dst` (`values.len() × comps × 4` bytes).
fn render_floats(values: &[[u32; 4]], comps: usize, kind: Kind, conv: Conv, dst: &mut [u8]) {
    if conv == Conv::Keep && !matches!(kind, Kind::Uint | Kind::Sint) {
        match comps {
            1 => return copy_lanes::<1>(values, dst),
            2 => return copy_lanes::<2>(values, dst),
            3 => return copy_lanes::<3>(values, dst),
            4 => return copy_lanes::<4>(values, dst),
            _ => {}
        }
    }
    // One loop per conversion, so that each is compiled with its conversion inlined.
    #[inline(always)]
    fn each(values: &[[u32; 4]], comps: usize, kind: Kind, conv: Conv, dst: &mut [u8]) {
        for (d, v) in dst.chunks_exact_mut(4 * comps).zip(values) {
            let (x, _, _) = float_value(v, comps, kind, conv);
            for (d, y) in d.chunks_exact_mut(4).zip(x) {
                d.copy_from_slice(&y.to_le_bytes());
            }
        }
    }
    match conv {
        Conv::Keep => each(values, comps, kind, Conv::Keep, dst),
        Conv::Normal => each(values, comps, kind, Conv::Normal, dst),
        Conv::Tangent => each(values, comps, kind, Conv::Tangent, dst),
        Conv::Weights { .. } => each(values, comps, kind, conv, dst),
    }
}

fn normalize3(x: &mut [f32; 4], zero: [f32; 3]) {
    let len = (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]).sqrt();
    // The validator's unit-length tolerance is 0.0005; leave vectors that already pass
    // untouched so that their bits round-trip.
    if (len - 1.0).abs() <= 0.0004 {
        return;
    }
    if len == 0.0 || !len.is_finite() {
        x[..3].copy_from_slice(&zero);
    } else {
        for c in x.iter_mut().take(3) {
            *c /= len;
        }
    }
}

/// What the document needs to know of one attribute's values (which accessors it gets,
/// their bounds, the warnings), gathered block by block ([`Stats::feed`]) so that a writer
/// that never holds the whole mesh can decide everything before it writes. Made by
/// [`plan_stats`] from the attributes' names and formats alone.
#[derive(Clone, Debug)]
pub(super) struct Stats {
    /// Values fed.
    count: usize,
    /// The standard float attribute the element may become (POSITION, NORMAL, TANGENT,
    /// TEXCOORD_n, COLOR_n, WEIGHTS_n).
    float: Option<FloatStats>,
    /// BLENDINDICES that may become JOINTS_n: the lanes below `components` (at most 4):
    /// whether all are joint indices (0…65535), whether one is past 255.
    joints: Option<(usize, bool, bool)>,
    /// Non-finite lanes of the four, for a float custom attribute.
    raw_float: Option<u64>,
    /// Whether every lane of an integer attribute is exact as a float (|value| ≤ 2^24).
    raw_int: Option<bool>,
    /// Whether the integer lanes are signed.
    sint: bool,
}

impl Stats {
    /// The lanes of each value that the statistics read, when fewer than four serve (then
    /// feed rows of that many lanes to [`Stats::feed_rows`]): a float attribute kept as it
    /// is, or a normal's three lanes, with no custom attribute's statistics beside; else 4.
    pub(super) fn row_lanes(&self) -> usize {
        match &self.float {
            Some(f)
                if self.joints.is_none()
                    && self.raw_float.is_none()
                    && self.raw_int.is_none()
                    && !matches!(f.kind, Kind::Uint | Kind::Sint)
                    && (f.conv == Conv::Keep || (f.conv == Conv::Normal && f.comps == 3))
                    && (1..=3).contains(&f.comps) =>
            {
                f.comps
            }
            _ => 4,
        }
    }

    /// [`Stats::feed`] of rows `lanes` wide ([`Stats::row_lanes`]; 4: whole values), the
    /// `k`-th value's lanes at `rows[k * lanes..]`.
    pub(super) fn feed_rows(&mut self, rows: &[u32], lanes: usize) {
        fn narrow<const W: usize>(s: &mut Stats, rows: &[u32])
        where
            [u32; W]: bytemuck::Pod,
        {
            let v: &[[u32; W]] = bytemuck::cast_slice(&rows[..rows.len() / W * W]);
            s.count += v.len();
            if let Some(f) = &mut s.float {
                f.feed_narrow::<W>(v);
            }
        }
        match lanes {
            1 => narrow::<1>(self, rows),
            2 => narrow::<2>(self, rows),
            3 => narrow::<3>(self, rows),
            _ => self.feed(bytemuck::cast_slice(&rows[..rows.len() / 4 * 4])),
        }
    }

    /// Takes the statistics of the values that follow this one's (fed to `later`, a copy
    /// of the same empty plan): the same as feeding them here.
    pub(super) fn merge(&mut self, later: &Stats) {
        self.count += later.count;
        if let (Some(f), Some(g)) = (&mut self.float, &later.float) {
            f.merge(g);
        }
        if let (Some(j), Some(k)) = (&mut self.joints, &later.joints) {
            j.1 &= k.1;
            j.2 |= k.2;
        }
        if let (Some(nf), Some(more)) = (&mut self.raw_float, later.raw_float) {
            *nf += more;
        }
        if let (Some(exact), Some(also)) = (&mut self.raw_int, later.raw_int) {
            *exact &= also;
        }
    }

    /// Takes the attribute's next values.
    pub(super) fn feed(&mut self, values: &[[u32; 4]]) {
        self.count += values.len();
        if let Some(f) = &mut self.float {
            f.feed(values);
        }
        if let Some((components, in_range, wide)) = &mut self.joints {
            let c = *components;
            for v in values {
                for &x in &v[..c] {
                    *in_range &= (x as i32 as i64) >= 0 && x <= 65535;
                    *wide |= x > 255;
                }
            }
        }
        if let Some(nf) = &mut self.raw_float {
            let (mut min, mut max) = ([0.0; 4], [0.0; 4]);
            *nf += keep_stats::<4, 4, false>(values, &mut min, &mut max);
        }
        if let Some(exact) = &mut self.raw_int {
            let sint = self.sint;
            for v in values {
                for &b in v {
                    let value = if sint { b as i32 as i64 } else { b as i64 };
                    *exact &= value.abs() <= 1 << 24;
                }
            }
        }
    }
}

/// The standard attribute role an element may take, from its name and format alone.
enum Role {
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
fn roles(attrs: &[Attribute]) -> Vec<Role> {
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
fn joint_candidate(attrs: &[Attribute], a: &Attribute) -> bool {
    matches!(a.kind(), Kind::Uint | Kind::Sint)
        && attrs.iter().any(|w| {
            is(&w.semantic, &["BLENDWEIGHT", "BLENDWEIGHTS"])
                && w.semantic_index == a.semantic_index
                && w.kind().is_float_like()
        })
}

/// The statistics each attribute's accessors need, empty (feed them every value, in
/// order, then pass them to the writer).
pub(super) fn plan_stats(attrs: &[Attribute]) -> Vec<Stats> {
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
pub(super) fn stats_of(attrs: &[Attribute]) -> Vec<Stats> {
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
fn raw_accessors(src: Src, a: &Attribute, stats: &Stats, name: &str) -> (Vec<Acc>, u64) {
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

fn custom_name(a: &Attribute, taken: &mut Vec<String>) -> String {
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
fn continuous(attrs: &[Attribute], names: &[&str], ok: impl Fn(&Attribute) -> bool) -> Vec<usize> {
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
fn vertex_accessors(
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
pub(super) struct Document {
    json: Value,
    /// (byte offset, accessor, element stride) of each accessor's data in the buffer.
    bin_parts: Vec<(usize, Acc, usize)>,
    bin_len: usize,
}

/// One accessor's place in the buffer, as the streaming writer needs it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Part {
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
    pub(super) fn bin_len(&self) -> usize {
        self.bin_len
    }

    /// Accessors in the buffer, in offset order.
    pub(super) fn part_count(&self) -> usize {
        self.bin_parts.len()
    }

    /// Accessor `i`'s place.
    pub(super) fn part(&self, i: usize) -> Part {
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
    pub(super) fn render_part(&self, i: usize, lanes: &[[u32; 4]], len: usize, out: &mut Vec<u8>) {
        let (_, acc, stride) = &self.bin_parts[i];
        render_strided(acc, *stride, lanes, &[], 0, len, out);
    }
}

/// The index accessor of a mesh: how many indices, their least and greatest value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct IndexInfo {
    /// Indices.
    pub count: usize,
    /// Least index (`u32::MAX` for none).
    pub min: u32,
    /// Greatest index (0 for none).
    pub max: u32,
}

impl IndexInfo {
    /// The accessor of `indices`.
    pub(super) fn of(indices: &[u32]) -> IndexInfo {
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

fn layout_json(mesh: &Mesh, mapped: &[Mapped], extra_warnings: &[String]) -> Value {
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
pub(super) fn document(mesh: &Mesh, stats: &[Stats], index: IndexInfo) -> Document {
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
const BIN_BLOCK: usize = 1 << 20;

/// The lanes `src` names in `mesh`.
fn mesh_lanes(mesh: &Mesh, src: Option<Src>) -> &[[u32; 4]] {
    match src {
        Some(Src::Vertex(i)) => &mesh.attributes[i].values,
        Some(Src::Instance(i)) => &mesh.instance_attributes[i].values,
        None => &[],
    }
}

/// Writes the buffer: each accessor's elements made from the mesh a block at a time (no copy
/// of the whole buffer in memory), zeros between and after them.
fn write_bin(doc: &Document, mesh: &Mesh, out: &mut dyn Write) -> io::Result<()> {
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
fn render_strided(
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

fn too_large(what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("{what} would exceed the 4 GiB a GLB file can hold"),
    )
}

/// Everything of a GLB file before the BIN chunk's data: header, JSON chunk, BIN chunk
/// header.
pub(super) fn glb_head(doc: &Document) -> io::Result<Vec<u8>> {
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
pub(super) fn gltf_json(
    doc: &mut Document,
    bin_uri: &str,
    json_out: &mut dyn Write,
) -> io::Result<()> {
    doc.json["buffers"][0]["uri"] = json!(uri_escape(bin_uri));
    serde_json::to_writer_pretty(&mut *json_out, &doc.json).map_err(io::Error::other)?;
    json_out.write_all(b"\n")
}

/// The document of a built mesh.
fn mesh_document(mesh: &Mesh) -> Document {
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

pub use super::streamed::{ExportError, Exported, StreamOptions};

/// Exports the draw `input` as a binary glTF to `out`: the bytes [`Mesh::build`] and
/// [`write_glb`] give, without building the mesh where the draw allows (see
/// [`Exported::streamed`]): two passes over the draw in blocks of about 1 MiB that are
/// reused — one that reads (bounds, statistics), one that writes each block's accessor bytes
/// at their offsets (so `out` must seek) — and 32-bit list indices written straight from the
/// index buffer. With the `parallel` feature both passes use every available thread
/// ([`StreamOptions::threads`]; the calling thread does the writing), without it the
/// calling thread alone. Memory stays bounded by the block size and the thread count,
/// whatever the draw's size. Other
/// draws (text-dump slots, `--instances expand|attributes`, element numbers spread too far
/// for a range) are built as a [`Mesh`] first. `out` is left at the end of what was written.
///
/// ```no_run
/// use inlay::capture::load_dump;
/// use inlay::mesh::{gltf, input_of, MeshOptions};
/// let capture = load_dump("Mona-vb0=12345678.txt".as_ref()).unwrap();
/// let mut file = std::fs::File::create("mona.glb").unwrap();
/// let done = gltf::export_glb(&input_of(&capture), &MeshOptions::default(), &mut file).unwrap();
/// for w in &done.warnings {
///     eprintln!("warning: {w}");
/// }
/// ```
pub fn export_glb<W: Write + Seek>(
    input: &MeshInput<'_>,
    options: &MeshOptions,
    out: &mut W,
) -> Result<Exported, ExportError> {
    export_glb_with(input, options, &StreamOptions::default(), out)
}

/// [`export_glb`] with the block size and threads of `stream`.
pub fn export_glb_with<W: Write + Seek>(
    input: &MeshInput<'_>,
    options: &MeshOptions,
    stream: &StreamOptions,
    out: &mut W,
) -> Result<Exported, ExportError> {
    super::streamed::export(input, options, stream, super::streamed::Target::Glb(out))
}

/// Exports the draw `input` as glTF JSON to `json_out` and its buffer to `bin_out` (named
/// `bin_uri` in the JSON): the bytes [`Mesh::build`] and [`write_gltf`] give, streamed as
/// [`export_glb`] streams.
pub fn export_gltf<B: Write + Seek>(
    input: &MeshInput<'_>,
    options: &MeshOptions,
    json_out: &mut dyn Write,
    bin_out: &mut B,
    bin_uri: &str,
) -> Result<Exported, ExportError> {
    export_gltf_with(
        input,
        options,
        &StreamOptions::default(),
        json_out,
        bin_out,
        bin_uri,
    )
}

/// [`export_gltf`] with the block size and threads of `stream`.
pub fn export_gltf_with<B: Write + Seek>(
    input: &MeshInput<'_>,
    options: &MeshOptions,
    stream: &StreamOptions,
    json_out: &mut dyn Write,
    bin_out: &mut B,
    bin_uri: &str,
) -> Result<Exported, ExportError> {
    super::streamed::export(
        input,
        options,
        stream,
        super::streamed::Target::Gltf(json_out, bin_out, bin_uri),
    )
}

fn uri_escape(s: &str) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The per-value definition of [`float_stats`]' changed flag and non-finite count.
    fn reference(values: &[[u32; 4]], comps: usize, kind: Kind, conv: Conv) -> (bool, u64) {
        values.iter().fold((false, 0), |(c, n), v| {
            let (_, nf, ch) = float_value(v, comps, kind, conv);
            (c | ch, n + nf)
        })
    }

    /// The fast paths of `float_stats` (lanes kept, normals) and of the writer (a conversion
    /// that changed nothing written as a copy) agree with the per-value conversion on
    /// vectors near and far from unit length, zero, subnormal, huge, NaN and infinite lanes.
    #[test]
    fn fast_float_paths_match_the_per_value_conversion() {
        let lanes = [
            0.0f32,
            -0.0,
            1.0,
            -1.0,
            0.6,
            0.8,
            0.5773503,
            1.0003,
            0.9995,
            1e-45,
            1e-39,
            3e38,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            -7.25,
        ];
        let mut all = Vec::new();
        for &a in &lanes {
            for &b in &lanes {
                for &c in &lanes {
                    all.push([a.to_bits(), b.to_bits(), c.to_bits(), 2.5f32.to_bits()]);
                }
            }
        }
        let units: Vec<[u32; 4]> = [[0.0f32, 0.6, 0.8], [1.0, 0.0, -0.0], [0.0, 0.0, 1.0003]]
            .iter()
            .map(|v| [v[0].to_bits(), v[1].to_bits(), v[2].to_bits(), 0])
            .collect();
        let mut checked = 0;
        for values in all.chunks(37).chain([units.as_slice()]) {
            for kind in [Kind::Float, Kind::Unorm] {
                for comps in 1..=4 {
                    let (changed, nf, _, _) = float_stats(values, comps, kind, Conv::Keep, false);
                    assert_eq!((changed, nf), reference(values, comps, kind, Conv::Keep));
                }
                let (changed, nf, _, _) = float_stats(values, 3, kind, Conv::Normal, false);
                assert_eq!(
                    (changed, nf),
                    reference(values, 3, kind, Conv::Normal),
                    "{values:?}"
                );
                // Unchanged normals are written as their lanes.
                if !changed {
                    let acc = |conv| Acc {
                        name: String::new(),
                        ctype: FLOAT,
                        comps: 3,
                        count: values.len(),
                        data: Data::Floats {
                            src: Src::Vertex(0),
                            kind,
                            conv,
                        },
                        min_max: None,
                        normalized: false,
                    };
                    let (mut a, mut b) = (Vec::new(), Vec::new());
                    acc(Conv::Normal).render(values, &[], 0, values.len(), &mut a);
                    acc(Conv::Keep).render(values, &[], 0, values.len(), &mut b);
                    assert_eq!(a, b);
                    checked += 1;
                }
            }
        }
        // The unit vectors' chunk and the lone-unit chunks of the grid were among them.
        assert!(checked >= 2, "{checked}");
    }
}
