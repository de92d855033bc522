//! Accessor statistics: the conversions glTF requires of float lanes ([`Conv`]), what they
//! do to a mesh's values (changed, non-finite, bounds) gathered block by block ([`Stats`]),
//! and the float bytes they give.

use crate::format::Kind;

/// Which tool conventions [`FloatStats::fragile`] looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fragile {
    /// None (the attribute gets an exact copy whatever its values).
    No,
    /// −0.0 lanes (positions).
    NegZero,
    /// −0.0 lanes and v flips (texture coordinates).
    NegZeroAndFlip,
}

/// BLENDINDICES that may become `JOINTS_n`: which indices its lanes use.
#[derive(Clone, Debug)]
pub(crate) struct JointStats {
    /// Lanes read (the format's components, at most 4).
    pub(crate) components: usize,
    /// Whether every lane read is a joint index (0…65535).
    pub(crate) in_range: bool,
    /// A bit per index 0…65535: whether a lane holds it.
    pub(crate) used: Vec<u64>,
}

impl JointStats {
    /// Statistics of no values, `components` lanes read.
    pub(crate) fn new(components: usize) -> JointStats {
        JointStats {
            components: components.min(4),
            in_range: true,
            used: vec![0; 1024],
        }
    }

    /// The indices used, in increasing order.
    pub(crate) fn indices(&self) -> impl Iterator<Item = u16> + '_ {
        // Set bits only (a draw uses a few of the 65,536): each word's lowest bit cleared in turn.
        self.used.iter().enumerate().flat_map(|(w, &bits)| {
            std::iter::successors((bits != 0).then_some(bits), |&b| {
                let rest = b & (b - 1);
                (rest != 0).then_some(rest)
            })
            .map(move |b| (w * 64 + b.trailing_zeros() as usize) as u16)
        })
    }
}

/// The change glTF requires of an attribute's float lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Conv {
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
    pub(crate) fn apply(self, x: &mut [f32; 4]) {
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

pub(crate) fn float_lane(bits: u32, kind: Kind) -> f32 {
    match kind {
        Kind::Uint => bits as f32,
        Kind::Sint => bits as i32 as f32,
        _ => f32::from_bits(bits),
    }
}

/// A float bit pattern with NaN and infinity replaced by +0.
#[inline]
pub(crate) fn finite_bits(bits: u32) -> u32 {
    if bits & 0x7f80_0000 == 0x7f80_0000 {
        0
    } else {
        bits
    }
}

/// Each float bit pattern of `lanes` with NaN and infinity replaced by +0, in place.
pub(crate) fn finite_lanes(lanes: &mut [u32]) {
    for x in lanes {
        *x = finite_bits(*x);
    }
}

/// One value's float lanes as written: [`float_lane`] of `kind`, non-finite lanes replaced by
/// 0, then `conv`; with the count of non-finite lanes below `comps` and whether `conv`
/// changed a lane below `comps`.
#[inline(always)]
pub(crate) fn float_value(
    v: &[u32; 4],
    comps: usize,
    kind: Kind,
    conv: Conv,
) -> ([f32; 4], u64, bool) {
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
pub(crate) fn float_stats(
    values: &[[u32; 4]],
    comps: usize,
    kind: Kind,
    conv: Conv,
    with_bounds: bool,
) -> (bool, u64, Vec<f64>, Vec<f64>) {
    let mut stats = FloatStats::new(comps, kind, conv, with_bounds, Fragile::No, comps);
    stats.feed(values);
    let (min, max) = stats.bounds();
    (stats.changed, stats.non_finite, min, max)
}

/// [`float_stats`] gathered block by block: feeding the values in any number of
/// consecutive blocks gives the same results, bit for bit (the bounds are one running fold
/// in value order, as over the whole slice).
#[derive(Clone, Debug)]
pub(crate) struct FloatStats {
    pub(crate) comps: usize,
    /// Which tool conventions to look for ([`FloatStats::fragile`]).
    pub(crate) fragile_check: Fragile,
    /// A lane below `comps` is −0.0.
    pub(crate) neg_zero: bool,
    /// A value's lane 1 does not survive `v → 1 − v → 1 − (1 − v)` in binary32.
    pub(crate) flip_inexact: bool,
    /// The format's components (where a [`Fragile`] check looks for special lanes).
    pub(crate) components: usize,
    /// A lane below `components` is −0.0 or non-finite: an exact copy of the attribute
    /// must hold its lanes as 16-bit halves (see [`RawStats::plain`]).
    pub(crate) special: bool,
    pub(crate) kind: Kind,
    pub(crate) conv: Conv,
    pub(crate) with_bounds: bool,
    /// Values fed.
    pub(crate) count: usize,
    pub(crate) changed: bool,
    pub(crate) non_finite: u64,
    pub(crate) min: [f64; 4],
    pub(crate) max: [f64; 4],
}

impl FloatStats {
    pub(crate) fn new(
        comps: usize,
        kind: Kind,
        conv: Conv,
        with_bounds: bool,
        fragile_check: Fragile,
        components: usize,
    ) -> FloatStats {
        FloatStats {
            comps,
            fragile_check,
            neg_zero: false,
            flip_inexact: false,
            components: components.clamp(1, 4),
            special: false,
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
    pub(crate) fn bounds(&self) -> (Vec<f64>, Vec<f64>) {
        if self.count == 0 || !self.with_bounds {
            return (vec![0.0; self.comps], vec![0.0; self.comps]);
        }
        (
            self.min[..self.comps].to_vec(),
            self.max[..self.comps].to_vec(),
        )
    }

    /// Takes the next values.
    pub(crate) fn feed(&mut self, values: &[[u32; 4]]) {
        let (comps, kind, conv, with_bounds) = (self.comps, self.kind, self.conv, self.with_bounds);
        self.count += values.len();
        self.check_fragile(values);
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
        } else if conv == Conv::Tangent && !int && comps == 4 && !with_bounds {
            let (changed, non_finite) = tangent_stats(values);
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
    /// Whether the values as written hold a lane that a common tool convention would not
    /// keep bit for bit: −0.0 (tools that merge vertices by value, or transform positions
    /// by matrices, make it +0.0), and for texture coordinates a v that does not survive
    /// the `1 − v` flip of tools whose texture origin is the bottom left (Blender).
    pub(crate) fn fragile(&self) -> bool {
        self.neg_zero || self.flip_inexact
    }

    /// Looks for [`FloatStats::fragile`] lanes among `values`' first `comps` lanes (float
    /// lanes kept as they are only: other attributes get exact copies anyway).
    fn check_fragile<const W: usize>(&mut self, values: &[[u32; W]]) {
        if self.fragile_check == Fragile::No
            || self.conv != Conv::Keep
            || matches!(self.kind, Kind::Uint | Kind::Sint)
        {
            return;
        }
        let comps = self.comps.min(W);
        let components = self.components.min(W);
        let flip = self.fragile_check == Fragile::NegZeroAndFlip && comps >= 2;
        if self.neg_zero && self.special && (self.flip_inexact || !flip) {
            // Nothing left to find.
            return;
        }
        // Every row's `W` lanes, each counted where it is below `comps` / `components` (a
        // fixed lane count, so that the loop unrolls).
        let in_comps: [bool; W] = std::array::from_fn(|l| l < comps);
        let in_components: [bool; W] = std::array::from_fn(|l| l < components);
        let (mut neg_zero, mut inexact, mut special) = (false, false, false);
        for v in values {
            for l in 0..W {
                let bits = v[l];
                let nz = bits == 0x8000_0000;
                neg_zero |= nz & in_comps[l];
                special |= (nz | (bits & 0x7f80_0000 == 0x7f80_0000)) & in_components[l];
            }
        }
        if flip {
            for v in values {
                let y = f32::from_bits(finite_bits(v[1]));
                inexact |= (1.0 - (1.0 - y)).to_bits() != y.to_bits();
            }
        }
        self.neg_zero |= neg_zero;
        self.flip_inexact |= inexact;
        self.special |= special;
    }

    /// [`FloatStats::feed`] of rows holding only the `W` lanes the statistics read: a float
    /// kept as it is (`W` = its written lanes) or a normal (`W` = 3); see
    /// [`Stats::row_lanes`].
    pub(crate) fn feed_narrow<const W: usize>(&mut self, values: &[[u32; W]]) {
        self.count += values.len();
        self.check_fragile(values);
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
    pub(crate) fn merge(&mut self, later: &FloatStats) {
        self.count += later.count;
        self.neg_zero |= later.neg_zero;
        self.flip_inexact |= later.flip_inexact;
        self.special |= later.special;
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
pub(crate) fn keep_stats<const W: usize, const C: usize, const BOUNDS: bool>(
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
pub(crate) fn normal_stats<const W: usize>(values: &[[u32; W]]) -> (bool, u64) {
    vector_stats::<W, false>(values)
}

/// [`normal_stats`], and with `TANGENT` [`tangent_stats`]: lane 3 counted among the
/// non-finite ones, and changed unless it is ±1.
#[inline(always)]
fn vector_stats<const W: usize, const TANGENT: bool>(values: &[[u32; W]]) -> (bool, u64) {
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
            if TANGENT {
                n += (v[3] & 0x7f80_0000 == 0x7f80_0000) as u32;
                changed |= finite_bits(v[3]) & 0x7fff_ffff != 0x3f80_0000;
            }
        }
        non_finite += n as u64;
    }
    (changed, non_finite)
}

/// [`FloatStats::feed`] of [`Conv::Tangent`] on float lanes, four written: whether a value is
/// changed, and its non-finite lanes. x, y, z change exactly as [`normal_stats`] says; w
/// (non-finite read as 0) becomes −1 when negative, else +1, so it changes unless it is ±1.
pub(crate) fn tangent_stats(values: &[[u32; 4]]) -> (bool, u64) {
    vector_stats::<4, true>(values)
}

/// Lanes `0..C` of each value, non-finite replaced by 0, as little-endian float bits.
pub(crate) fn copy_lanes<const C: usize>(values: &[[u32; 4]], dst: &mut [u8]) {
    for (d, v) in dst.chunks_exact_mut(4 * C).zip(values) {
        for l in 0..C {
            d[4 * l..4 * l + 4].copy_from_slice(&finite_bits(v[l]).to_le_bytes());
        }
    }
}

/// The bytes of [`Data::Floats`] for `values` into `dst` (`values.len() × comps × 4` bytes).
pub(crate) fn render_floats(
    values: &[[u32; 4]],
    comps: usize,
    kind: Kind,
    conv: Conv,
    dst: &mut [u8],
) {
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
    pub(crate) fn each(values: &[[u32; 4]], comps: usize, kind: Kind, conv: Conv, dst: &mut [u8]) {
        for (d, v) in dst.chunks_exact_mut(4 * comps).zip(values) {
            let (x, _, _) = float_value(v, comps, kind, conv);
            for (d, y) in d.chunks_exact_mut(4).zip(x) {
                d.copy_from_slice(&y.to_le_bytes());
            }
        }
    }
    // Float lanes (every kind but the integers: `float_lane` reads their bits) of a normal's
    // three or a tangent's four lanes are the common case: compiled with both fixed.
    let float = !matches!(kind, Kind::Uint | Kind::Sint);
    match conv {
        Conv::Keep => each(values, comps, kind, Conv::Keep, dst),
        Conv::Normal if float && comps == 3 => each(values, 3, Kind::Float, Conv::Normal, dst),
        Conv::Normal => each(values, comps, kind, Conv::Normal, dst),
        Conv::Tangent if float && comps == 4 => each(values, 4, Kind::Float, Conv::Tangent, dst),
        Conv::Tangent => each(values, comps, kind, Conv::Tangent, dst),
        Conv::Weights { .. } => each(values, comps, kind, conv, dst),
    }
}

pub(crate) fn normalize3(x: &mut [f32; 4], zero: [f32; 3]) {
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
pub(crate) struct Stats {
    /// Values fed.
    pub(crate) count: usize,
    /// The standard float attribute the element may become (POSITION, NORMAL, TANGENT,
    /// TEXCOORD_n, COLOR_n, WEIGHTS_n).
    pub(crate) float: Option<FloatStats>,
    /// BLENDINDICES that may become JOINTS_n: the indices its lanes use.
    pub(crate) joints: Option<JointStats>,
    /// What an exact copy of the attribute needs to know (none for a standard float
    /// attribute whose [`FloatStats`] look at every component: see
    /// [`FloatStats::special`]).
    pub(crate) raw: Option<RawStats>,
}

/// What an exact copy needs to know of an attribute's lanes below its format's components:
/// whether plain floats carry them exactly.
#[derive(Clone, Debug)]
pub(crate) struct RawStats {
    /// The format's components (the lanes copied).
    pub(crate) components: usize,
    /// Integer lanes (signed when `sint`).
    pub(crate) int: bool,
    pub(crate) sint: bool,
    /// Integers: every lane is exact as a float (|value| ≤ 2^24). Floats: no lane is −0.0
    /// or non-finite (glTF holds no NaN or infinity, and tools that merge vertices by value
    /// make −0.0 +0.0). Else the copy holds each lane as two 16-bit halves.
    pub(crate) plain: bool,
}

impl RawStats {
    /// Statistics of no values of an attribute of `components` lanes of `kind`.
    pub(crate) fn new(components: usize, kind: Kind) -> RawStats {
        RawStats {
            components: components.clamp(1, 4),
            int: matches!(kind, Kind::Uint | Kind::Sint),
            sint: kind == Kind::Sint,
            plain: true,
        }
    }

    fn feed(&mut self, values: &[[u32; 4]]) {
        // Once one lane needs halves, the rest cannot change that.
        if !self.plain {
            return;
        }
        // Each lane count its own loop (a fixed count unrolls and vectorises).
        fn all<const C: usize>(values: &[[u32; 4]], ok: impl Fn(u32) -> bool) -> bool {
            values
                .iter()
                .fold(true, |p, v| (0..C).fold(p, |p, l| p & ok(v[l])))
        }
        fn lanes(c: usize, values: &[[u32; 4]], ok: impl Fn(u32) -> bool) -> bool {
            match c {
                1 => all::<1>(values, ok),
                2 => all::<2>(values, ok),
                3 => all::<3>(values, ok),
                _ => all::<4>(values, ok),
            }
        }
        let c = self.components;
        self.plain = match (self.int, self.sint) {
            (true, true) => lanes(c, values, |b| (b as i32 as i64).abs() <= 1 << 24),
            (true, false) => lanes(c, values, |b| b <= 1 << 24),
            _ => lanes(c, values, |b| {
                b != 0x8000_0000 && b & 0x7f80_0000 != 0x7f80_0000
            }),
        };
    }
}

impl Stats {
    /// The lanes of each value that the statistics read, when fewer than four serve (then
    /// feed rows of that many lanes to [`Stats::feed_rows`]): a float attribute kept as it
    /// is, or a normal's three lanes, with no custom attribute's statistics beside; else 4.
    pub(crate) fn row_lanes(&self) -> usize {
        match &self.float {
            Some(f)
                if self.joints.is_none()
                    && self.raw.is_none()
                    && f.components <= f.comps
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
    pub(crate) fn feed_rows(&mut self, rows: &[u32], lanes: usize) {
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
    pub(crate) fn merge(&mut self, later: &Stats) {
        self.count += later.count;
        if let (Some(f), Some(g)) = (&mut self.float, &later.float) {
            f.merge(g);
        }
        if let (Some(j), Some(k)) = (&mut self.joints, &later.joints) {
            j.in_range &= k.in_range;
            for (a, b) in j.used.iter_mut().zip(&k.used) {
                *a |= b;
            }
        }
        if let (Some(r), Some(more)) = (&mut self.raw, &later.raw) {
            r.plain &= more.plain;
        }
    }

    /// Takes the attribute's next values.
    pub(crate) fn feed(&mut self, values: &[[u32; 4]]) {
        self.count += values.len();
        if let Some(f) = &mut self.float {
            f.feed(values);
        }
        if let Some(j) = &mut self.joints {
            let c = j.components;
            for v in values {
                for &x in &v[..c] {
                    if x <= 65535 {
                        j.used[x as usize / 64] |= 1 << (x % 64);
                    } else {
                        j.in_range = false;
                    }
                }
            }
        }
        if let Some(r) = &mut self.raw {
            r.feed(values);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::gltf::writer::{Acc, Data, FLOAT, SkinBlock, Src};

    /// The per-value definition of [`float_stats`]' changed flag and non-finite count.
    fn reference(values: &[[u32; 4]], comps: usize, kind: Kind, conv: Conv) -> (bool, u64) {
        values.iter().fold((false, 0), |(c, n), v| {
            let (_, nf, ch) = float_value(v, comps, kind, conv);
            (c | ch, n + nf)
        })
    }

    /// `RawStats::plain` and the fragile-lane flags, fed one row at a time and all rows at
    /// once, against their definitions lane by lane: every special lane value at every lane
    /// position, every lane count, integer and float kinds.
    #[test]
    fn raw_and_fragile_flags_match_their_definitions() {
        let specials = [
            0u32,
            0x8000_0000,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0001,
            0x3f80_0000,
            0x0100_0000,
            0x0100_0001,
            0xff00_0000,
            0xfeff_ffff,
            0x3e4c_cccd,
            0x3f7f_fffe,
        ];
        let mut rows = Vec::new();
        for &x in &specials {
            for p in 0..4 {
                let mut r = [0x3f00_0000u32; 4];
                r[p] = x;
                rows.push(r);
            }
        }
        let is_special = |b: u32| b == 0x8000_0000 || b & 0x7f80_0000 == 0x7f80_0000;
        let flips = |b: u32| {
            let y = f32::from_bits(finite_bits(b));
            (1.0 - (1.0 - y)).to_bits() != y.to_bits()
        };
        for c in 1..=4 {
            for kind in [Kind::Uint, Kind::Sint, Kind::Float] {
                let ok = |b: u32| match kind {
                    Kind::Uint => b as i64 <= 1 << 24,
                    Kind::Sint => (b as i32 as i64).abs() <= 1 << 24,
                    _ => !is_special(b),
                };
                let mut all = RawStats::new(c, kind);
                all.feed(&rows);
                for (i, r) in rows.iter().enumerate() {
                    let mut one = RawStats::new(c, kind);
                    one.feed(std::slice::from_ref(r));
                    assert_eq!(
                        one.plain,
                        r[..c].iter().all(|&b| ok(b)),
                        "{kind:?} {c} {r:x?}"
                    );
                    // Fed after a row that is not plain: stays not plain.
                    if !one.plain {
                        one.feed(&rows[..=i]);
                        assert!(!one.plain);
                    }
                }
                assert_eq!(
                    all.plain,
                    rows.iter().all(|r| r[..c].iter().all(|&b| ok(b)))
                );
            }
            for comps in 1..=4 {
                for check in [Fragile::NegZero, Fragile::NegZeroAndFlip] {
                    let mk = || FloatStats::new(comps, Kind::Float, Conv::Keep, false, check, c);
                    let mut all = mk();
                    all.check_fragile(&rows);
                    let (mut n, mut sp, mut fl) = (false, false, false);
                    for r in &rows {
                        let mut one = mk();
                        one.check_fragile(std::slice::from_ref(r));
                        let want_n = r[..comps].contains(&0x8000_0000);
                        let want_sp = r[..c].iter().any(|&b| is_special(b));
                        let want_fl = check == Fragile::NegZeroAndFlip && comps >= 2 && flips(r[1]);
                        assert_eq!(
                            (one.neg_zero, one.special, one.flip_inexact),
                            (want_n, want_sp, want_fl),
                            "{comps} {c} {check:?} {r:x?}"
                        );
                        (n, sp, fl) = (n | want_n, sp | want_sp, fl | want_fl);
                        // Three lanes a row, as `feed_narrow` gives them.
                        if comps <= 3 && c <= 3 {
                            let mut three = mk();
                            three.check_fragile(&[[r[0], r[1], r[2]]]);
                            assert_eq!(
                                (three.neg_zero, three.special, three.flip_inexact),
                                (want_n, want_sp, want_fl)
                            );
                        }
                    }
                    assert_eq!((all.neg_zero, all.special, all.flip_inexact), (n, sp, fl));
                }
            }
        }
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
                // Tangents: the same vectors with every kind of w.
                for w in [1.0f32, -1.0, 0.0, -0.0, 2.5, 1.0000001, -0.99999994, 1e-45]
                    .map(f32::to_bits)
                    .into_iter()
                    .chain([0x7fc0_0000, 0x7f80_0000, 0xff80_0000, 0xbf80_0000])
                {
                    let tangents: Vec<[u32; 4]> =
                        values.iter().map(|v| [v[0], v[1], v[2], w]).collect();
                    let (changed, nf, _, _) = float_stats(&tangents, 4, kind, Conv::Tangent, false);
                    assert_eq!(
                        (changed, nf),
                        reference(&tangents, 4, kind, Conv::Tangent),
                        "{tangents:x?}"
                    );
                }
                // The bytes written, against the per-value conversion, for the kinds and
                // lane counts the fixed-lane loops take and those they leave.
                for (conv, comps) in [
                    (Conv::Normal, 3),
                    (Conv::Tangent, 4),
                    (Conv::Normal, 4),
                    (Conv::Tangent, 3),
                ] {
                    for kind in [kind, Kind::Sint, Kind::Uint] {
                        let mut got = vec![0u8; values.len() * comps * 4];
                        render_floats(values, comps, kind, conv, &mut got);
                        let want: Vec<u8> = values
                            .iter()
                            .flat_map(|v| {
                                let (x, _, _) = float_value(v, comps, kind, conv);
                                x[..comps]
                                    .iter()
                                    .flat_map(|y| y.to_le_bytes())
                                    .collect::<Vec<u8>>()
                            })
                            .collect();
                        assert_eq!(got, want, "{conv:?} {comps} {kind:?}");
                    }
                }
                // Unchanged normals are written as their lanes.
                if !changed {
                    let acc = |conv| Acc {
                        name: String::new(),
                        lanes: Vec::new(),
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
                    acc(Conv::Normal).render(
                        values,
                        &[],
                        &SkinBlock::default(),
                        0,
                        values.len(),
                        &mut a,
                    );
                    acc(Conv::Keep).render(
                        values,
                        &[],
                        &SkinBlock::default(),
                        0,
                        values.len(),
                        &mut b,
                    );
                    assert_eq!(a, b);
                    checked += 1;
                }
            }
        }
        // The unit vectors' chunk and the lone-unit chunks of the grid were among them.
        assert!(checked >= 2, "{checked}");
    }
}
