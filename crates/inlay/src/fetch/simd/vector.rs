//! The conversion written once over a vector width: a lane program's constants as vectors
//! ([`Consts`] for one element in 128 bits, [`Consts2`] for two in 256), the conversion classes
//! each kernel is compiled per, and [`convert`] over the [`Width`] operations.

use std::arch::x86_64::*;

use super::super::program::{Conv, LaneProgram, REBIAS, chunk_at};

/// A program's constants as vectors of one width: `I` for integers, `F` for floats
/// ([`Consts`] for one element in 128 bits, [`Consts2`] for two in 256).
#[derive(Clone, Copy, Debug)]
pub(super) struct Vectors<I, F> {
    pub(super) shuffle: I,
    pub(super) shl: I,
    pub(super) shr: I,
    pub(super) div: F,
    pub(super) recip: F,
    pub(super) recip_lo: F,
    pub(super) mag_mask: I,
    pub(super) sign_mask: I,
    pub(super) mant_shift: I,
    pub(super) exp_max: I,
    pub(super) sub_limit: I,
    pub(super) sub_scale: F,
    pub(super) present: I,
    pub(super) defaults: I,
}

/// One element's constants (128 bits).
pub(super) type Consts = Vectors<__m128i, __m128>;

impl Consts {
    pub(super) fn new(p: &LaneProgram) -> Consts {
        let i = |a: [u32; 4]| bytemuck::cast::<[u32; 4], __m128i>(a);
        let f = |a: [f32; 4]| bytemuck::cast::<[f32; 4], __m128>(a);
        // The mag >= exp_max comparison is signed; the sentinel u32::MAX (never Inf/NaN)
        // must stay above every magnitude, so clamp it to i32::MAX.
        let exp_max = p.exp_max.map(|v| v.min(i32::MAX as u32));
        Vectors {
            shuffle: bytemuck::cast::<[u8; 16], __m128i>(p.shuffle),
            shl: i(p.shl),
            shr: i(p.shr),
            div: f(p.div),
            // Most lanes divide by 1 (every format but UNORM/SNORM): no divisions for them.
            recip: f(p.div.map(|d| if d == 1.0 { 1.0 } else { 1.0 / d })),
            recip_lo: f(p.div.map(|d| if d == 1.0 { 0.0 } else { recip_lo(d) })),
            mag_mask: i(p.mag_mask),
            sign_mask: i(p.sign_mask),
            mant_shift: i(p.mant_shift),
            exp_max: i(exp_max),
            sub_limit: i(p.sub_limit),
            sub_scale: f(p.sub_scale),
            present: i(p.present),
            defaults: i(p.defaults),
        }
    }
}

/// Conversion classes as const-generic selectors (so each loop is compiled per class).
pub(super) const COPY: u8 = 0;
pub(super) const BITS: u8 = 1;
pub(super) const UNORM: u8 = 2;
pub(super) const SNORM: u8 = 3;
pub(super) const SMALL_FLOAT: u8 = 4;

pub(super) fn class_of(p: &LaneProgram) -> u8 {
    match p.conv {
        Conv::Bits if p.is_copy32() => COPY,
        Conv::Bits => BITS,
        Conv::Unorm => UNORM,
        Conv::Snorm => SNORM,
        Conv::SmallFloat => SMALL_FLOAT,
    }
}

/// A vector width the conversion runs at, as the AVX2 operations it needs: `__m128i` (one
/// element's four lanes) or `__m256i` (two elements, one per 128-bit half, each half doing
/// exactly what the 128-bit form does). [`convert`] is written once over it.
pub(super) trait Width: Copy {
    /// The float vector of the same width.
    type F: Copy;
    /// `vpshufb`: bytes of `a` picked per 128-bit half by `b`.
    unsafe fn shuffle(a: Self, b: Self) -> Self;
    /// `vpsllvd`.
    unsafe fn sllv(a: Self, b: Self) -> Self;
    /// `vpsrlvd`.
    unsafe fn srlv(a: Self, b: Self) -> Self;
    /// `vpsravd`.
    unsafe fn srav(a: Self, b: Self) -> Self;
    /// `vpslld` by 16.
    unsafe fn slli16(a: Self) -> Self;
    /// `vpand`.
    unsafe fn and(a: Self, b: Self) -> Self;
    /// `vpandn`: `!a & b`.
    unsafe fn andnot(a: Self, b: Self) -> Self;
    /// `vpor`.
    unsafe fn or(a: Self, b: Self) -> Self;
    /// `vpaddd`.
    unsafe fn add(a: Self, b: Self) -> Self;
    /// `vpcmpgtd` (signed).
    unsafe fn cmpgt(a: Self, b: Self) -> Self;
    /// `vpblendvb`: bytes of `b` where `mask`'s are set, else of `a`.
    unsafe fn blendv(a: Self, b: Self, mask: Self) -> Self;
    /// Every 32-bit lane `v`.
    unsafe fn splat(v: i32) -> Self;
    /// `vcvtdq2ps`.
    unsafe fn to_float(a: Self) -> Self::F;
    /// The float vector's bits.
    unsafe fn bits(a: Self::F) -> Self;
    /// `vdivps`.
    unsafe fn div(a: Self::F, b: Self::F) -> Self::F;
    /// `vmulps`.
    unsafe fn mul(a: Self::F, b: Self::F) -> Self::F;
    /// `vmaxps`.
    unsafe fn max(a: Self::F, b: Self::F) -> Self::F;
    /// Every lane `v`.
    unsafe fn splat_float(v: f32) -> Self::F;
}

/// [`Width`] for one prefix of intrinsics (`_mm` on 128 bits, `_mm256` on 256).
macro_rules! width {
    ($i:ty, $f:ty, $shuffle:ident, $sllv:ident, $srlv:ident, $srav:ident, $slli:ident,
     $and:ident, $andnot:ident, $or:ident, $add:ident, $cmpgt:ident, $blendv:ident,
     $set1:ident, $cvt:ident, $cast:ident, $div:ident, $mul:ident, $max:ident, $set1f:ident) => {
        impl Width for $i {
            type F = $f;
            #[inline]
            #[target_feature(enable = "avx2")]
            unsafe fn shuffle(a: Self, b: Self) -> Self {
                $shuffle(a, b)
            }
            #[inline]
            #[target_feature(enable = "avx2")]
            unsafe fn sllv(a: Self, b: Self) -> Self {
                $sllv(a, b)
            }
            #[inline]
            #[target_feature(enable = "avx2")]
            unsafe fn srlv(a: Self, b: Self) -> Self {
                $srlv(a, b)
            }
            #[inline]
            #[target_feature(enable = "avx2")]
            unsafe fn srav(a: Self, b: Self) -> Self {
                $srav(a, b)
            }
            #[inline]
            #[target_feature(enable = "avx2")]
            unsafe fn slli16(a: Self) -> Self {
                $slli::<16>(a)
            }
            #[inline]
            #[target_feature(enable = "avx2")]
            unsafe fn and(a: Self, b: Self) -> Self {
                $and(a, b)
            }
            #[inline]
            #[target_feature(enable = "avx2")]
            unsafe fn andnot(a: Self, b: Self) -> Self {
                $andnot(a, b)
            }
            #[inline]
            #[target_feature(enable = "avx2")]
            unsafe fn or(a: Self, b: Self) -> Self {
                $or(a, b)
            }
            #[inline]
            #[target_feature(enable = "avx2")]
            unsafe fn add(a: Self, b: Self) -> Self {
                $add(a, b)
            }
            #[inline]
            #[target_feature(enable = "avx2")]
            unsafe fn cmpgt(a: Self, b: Self) -> Self {
                $cmpgt(a, b)
            }
            #[inline]
            #[target_feature(enable = "avx2")]
            unsafe fn blendv(a: Self, b: Self, mask: Self) -> Self {
                $blendv(a, b, mask)
            }
            #[inline]
            #[target_feature(enable = "avx2")]
            unsafe fn splat(v: i32) -> Self {
                $set1(v)
            }
            #[inline]
            #[target_feature(enable = "avx2")]
            unsafe fn to_float(a: Self) -> $f {
                $cvt(a)
            }
            #[inline]
            #[target_feature(enable = "avx2")]
            unsafe fn bits(a: $f) -> Self {
                $cast(a)
            }
            #[inline]
            #[target_feature(enable = "avx2")]
            unsafe fn div(a: $f, b: $f) -> $f {
                $div(a, b)
            }
            #[inline]
            #[target_feature(enable = "avx2")]
            unsafe fn mul(a: $f, b: $f) -> $f {
                $mul(a, b)
            }
            #[inline]
            #[target_feature(enable = "avx2")]
            unsafe fn max(a: $f, b: $f) -> $f {
                $max(a, b)
            }
            #[inline]
            #[target_feature(enable = "avx2")]
            unsafe fn splat_float(v: f32) -> $f {
                $set1f(v)
            }
        }
    };
}

width!(
    __m128i,
    __m128,
    _mm_shuffle_epi8,
    _mm_sllv_epi32,
    _mm_srlv_epi32,
    _mm_srav_epi32,
    _mm_slli_epi32,
    _mm_and_si128,
    _mm_andnot_si128,
    _mm_or_si128,
    _mm_add_epi32,
    _mm_cmpgt_epi32,
    _mm_blendv_epi8,
    _mm_set1_epi32,
    _mm_cvtepi32_ps,
    _mm_castps_si128,
    _mm_div_ps,
    _mm_mul_ps,
    _mm_max_ps,
    _mm_set1_ps
);
width!(
    __m256i,
    __m256,
    _mm256_shuffle_epi8,
    _mm256_sllv_epi32,
    _mm256_srlv_epi32,
    _mm256_srav_epi32,
    _mm256_slli_epi32,
    _mm256_and_si256,
    _mm256_andnot_si256,
    _mm256_or_si256,
    _mm256_add_epi32,
    _mm256_cmpgt_epi32,
    _mm256_blendv_epi8,
    _mm256_set1_epi32,
    _mm256_cvtepi32_ps,
    _mm256_castps_si256,
    _mm256_div_ps,
    _mm256_mul_ps,
    _mm256_max_ps,
    _mm256_set1_ps
);

/// Converts each element's 16 bytes (one per 128-bit half of `W`) to its four lanes.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn convert<W: Width, const CLASS: u8, const SIGNED: bool>(
    c: &Vectors<W, W::F>,
    chunk: W,
) -> W {
    // SAFETY: every `Width` operation needs AVX2 only, which this function enables.
    unsafe {
        let x = W::shuffle(chunk, c.shuffle);
        let x = if CLASS == COPY {
            x
        } else {
            let x = W::sllv(x, c.shl);
            if SIGNED {
                W::srav(x, c.shr)
            } else {
                W::srlv(x, c.shr)
            }
        };
        let v = match CLASS {
            UNORM => W::bits(W::div(W::to_float(x), c.div)),
            SNORM => {
                let q = W::div(W::to_float(x), c.div);
                W::bits(W::max(q, W::splat_float(-1.0)))
            }
            SMALL_FLOAT => {
                let mag = W::and(x, c.mag_mask);
                let sign = W::slli16(W::and(x, c.sign_mask));
                let rebias = W::splat(REBIAS as i32);
                let normal = W::add(W::sllv(mag, c.mant_shift), rebias);
                // Inf/NaN (mag >= exp_max, i.e. not exp_max > mag): add the bias difference
                // again.
                let not_special = W::cmpgt(c.exp_max, mag);
                let normal = W::add(normal, W::andnot(not_special, rebias));
                let sub = W::bits(W::mul(W::to_float(mag), c.sub_scale));
                let is_sub = W::cmpgt(c.sub_limit, mag);
                W::or(W::blendv(normal, sub, is_sub), sign)
            }
            _ => x,
        };
        W::or(W::and(v, c.present), c.defaults)
    }
}

/// The element's 16 bytes at `a` (padded with zeros past the buffer's end).
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn load(data: &[u8], a: usize, size: usize) -> __m128i {
    let bytes: [u8; 16] = match data.get(a..a + 16) {
        Some(s) => <[u8; 16]>::try_from(s).unwrap_or([0; 16]),
        None => chunk_at(data, a, size),
    };
    bytemuck::cast(bytes)
}

/// [`Consts`] broadcast to both 128-bit halves (one vertex per half).
pub(super) type Consts2 = Vectors<__m256i, __m256>;

impl Consts2 {
    #[target_feature(enable = "avx2")]
    pub(super) fn new(c: &Consts) -> Consts2 {
        c.map(
            |v| _mm256_broadcastsi128_si256(v),
            |v| _mm256_castsi256_ps(_mm256_broadcastsi128_si256(_mm_castps_si128(v))),
        )
    }
}

impl<I: Copy, F: Copy> Vectors<I, F> {
    /// The same constants at another width: `i` of every integer vector, `f` of every float
    /// vector (a broadcast to both or all four 128-bit lanes).
    #[inline(always)]
    pub(super) fn map<J, G>(&self, i: impl Fn(I) -> J, f: impl Fn(F) -> G) -> Vectors<J, G> {
        Vectors {
            shuffle: i(self.shuffle),
            shl: i(self.shl),
            shr: i(self.shr),
            div: f(self.div),
            recip: f(self.recip),
            recip_lo: f(self.recip_lo),
            mag_mask: i(self.mag_mask),
            sign_mask: i(self.sign_mask),
            mant_shift: i(self.mant_shift),
            exp_max: i(self.exp_max),
            sub_limit: i(self.sub_limit),
            sub_scale: f(self.sub_scale),
            present: i(self.present),
            defaults: i(self.defaults),
        }
    }
}

/// The low part of `1/d` for [`quotient_fma`](super::fused::quotient_fma): `RN(1/d − RN(1/d))`
/// (computed in f64).
pub(super) fn recip_lo(d: f32) -> f32 {
    let hi = 1.0 / d;
    (1.0 / d as f64 - hi as f64) as f32
}
