//! AVX2 encode kernels (x86-64, runtime-detected) for the packed elements of
//! [`super::EncodePlan`]: two vertices per 256-bit vector, the four register lanes of each
//! converted at once with per-lane constants, then OR-ed into the element's 32-bit words.
//!
//! The conversions are the scalar ones of [`super::element`], operation for operation where
//! rounding happens, so the bits are the same:
//!
//! * UNORM: `vmaxps` with +0 (which returns the second operand for a NaN, as `f32::max` does
//!   the non-NaN one), `vminps` with 1, then `⌊c·d + 0.5⌋` (`d = 2^n − 1`), which the scalar
//!   code computes exactly in binary64, from two FMAs: `k = trunc(RN(c·d + 0.5))` is that
//!   floor or one more (rounding moves it by at most half an ulp, ≤ 2^−8 below 2^16, and never down
//!   across an integer, which is representable), and `RN(c·d + (0.5 − k))` has the sign of
//!   the exact difference (an exact zero is +0), so a negative one takes 1 off `k`.
//! * SNORM: the same on `|clamp(c, −1, 1)|`, negated for a set sign bit, NaN lanes 0.
//! * UINT / SINT: `vpminud` / `vpminsd` + `vpmaxsd`, then the field mask.
//! * binary16 (only for rounding `nearest`; F16C): `vcvtps2ph` rounding to nearest even,
//!   which is IEEE 754's conversion (overflow to infinity, denormals produced); NaN lanes are
//!   then rebuilt as [`super::encode_small_float`] builds them (`vcvtps2ph` sets the quiet
//!   bit, the reference keeps the top payload bits and uses the quiet NaN only for an empty
//!   payload).
//!
//! `unsafe` is used for (a) calling the `#[target_feature]` kernels after
//! `is_x86_feature_detected!` said yes, and (b) 16-byte loads from `&[u32; 4]` rows (a
//! reference to 16 readable bytes) and SSE2 register moves. Stores go through bounds-checked
//! slices. Tested against the scalar conversions here (every lane, a sweep of all binary32
//! plus every tie and its neighbours) and through the plan in `tests/encode_layouts.rs`.
#![allow(unsafe_code)]

use std::arch::x86_64::*;

/// The conversion of a kernel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Conv {
    Unorm,
    Snorm,
    Uint,
    Sint,
    Half,
}

/// One packed element, as per-register-lane constants (absent lanes: mask 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Kernel {
    pub conv: Conv,
    /// Element bytes: 1, 2, 4 or 8.
    pub bytes: usize,
    /// UNORM `2^n − 1`, SNORM `2^(n−1) − 1` (exact in binary32).
    pub scale: [f32; 4],
    /// UINT: the largest code; SINT: the largest value.
    pub max: [i32; 4],
    /// SINT: the smallest value.
    pub min: [i32; 4],
    /// The field mask (0 for a lane no component reads).
    pub mask: [u32; 4],
    /// The field's shift inside its 32-bit word of the element (word 0 for lanes 0–1 of an
    /// 8-byte element and for every lane of a smaller one, word 1 for lanes 2–3 of an 8-byte
    /// element).
    pub shift: [u32; 4],
    /// When every field is 8 or 16 bits at a byte offset: the `vpshufb` control that moves
    /// each field's low bytes from its lane's code to the element's bytes (the codes' low
    /// bytes are the fields, two's complement for the signed kinds), zeroing the rest.
    pub pick: Option<[u8; 16]>,
}

impl Kernel {
    /// A kernel for components `(lane, bits, bit_offset)` of `conv` in a `bytes`-byte
    /// element, or `None` when the element's shape is not one the kernel packs (a field
    /// crossing a 32-bit word, or a word other than the one its lane is combined into).
    pub(super) fn new(conv: Conv, bytes: usize, comps: &[(usize, u32, u32)]) -> Option<Kernel> {
        if !matches!(bytes, 1 | 2 | 4 | 8) || comps.len() > 4 {
            return None;
        }
        let mut k = Kernel {
            conv,
            bytes,
            scale: [0.0; 4],
            max: [0; 4],
            min: [0; 4],
            mask: [0; 4],
            shift: [0; 4],
            pick: None,
        };
        let mut pick = [0x80u8; 16];
        let mut bytewise = true;
        for &(lane, bits, offset) in comps {
            if matches!(bits, 8 | 16) && offset % 8 == 0 && offset + bits <= 8 * bytes as u32 {
                for b in 0..bits / 8 {
                    pick[(offset / 8 + b) as usize] = (4 * lane as u32 + b) as u8;
                }
            } else {
                bytewise = false;
            }
            if lane > 3 || k.mask[lane] != 0 || !(1..=16).contains(&bits) {
                return None;
            }
            let word = if bytes == 8 { lane as u32 / 2 } else { 0 };
            if offset / 32 != word || offset % 32 + bits > 32 || offset + bits > 8 * bytes as u32 {
                return None;
            }
            if conv == Conv::Half && bits != 16 || conv == Conv::Snorm && bits < 2 {
                return None;
            }
            k.mask[lane] = (1u32 << bits) - 1;
            k.shift[lane] = offset % 32;
            match conv {
                Conv::Unorm => k.scale[lane] = ((1u32 << bits) - 1) as f32,
                Conv::Snorm => k.scale[lane] = ((1u32 << (bits - 1)) - 1) as f32,
                Conv::Uint => k.max[lane] = ((1u32 << bits) - 1) as i32,
                Conv::Sint => {
                    k.max[lane] = (1i32 << (bits - 1)) - 1;
                    k.min[lane] = -(1i32 << (bits - 1));
                }
                Conv::Half => {}
            }
        }
        if bytewise {
            k.pick = Some(pick);
        }
        Some(k)
    }
}

/// Whether this CPU runs the kernels (AVX2, FMA and F16C, which every AVX2 CPU shipped has;
/// `conv` is kept for a finer test).
pub(super) fn available(_conv: Conv) -> bool {
    std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("fma")
        && std::arch::is_x86_feature_detected!("f16c")
}

/// Encodes element row `row` of `count` vertices of `block` (`rows` rows per vertex) into
/// `out`, one element every `stride` bytes from `out[0]`. Returns `false` (and writes
/// nothing) when this CPU lacks the kernel's instructions.
///
/// Panics when `block` holds fewer than `count` vertices or `out` is too short.
pub(super) fn encode(
    k: &Kernel,
    block: &[[u32; 4]],
    rows: usize,
    row: usize,
    stride: usize,
    count: usize,
    out: &mut [u8],
) -> bool {
    if !available(k.conv) {
        return false;
    }
    if count == 0 {
        return true;
    }
    assert!(row < rows && block.len() >= count * rows);
    assert!(out.len() >= (count - 1) * stride + k.bytes);
    // SAFETY (every call): `available` checked AVX2, FMA and F16C, and the
    // asserts above are the bounds `kernel` relies on.
    macro_rules! call {
        ($c:expr, $b:expr, $p:expr) => {
            unsafe { kernel::<{ $c }, { $b }, { $p }>(k, block, rows, row, stride, count, out) }
        };
    }
    macro_rules! go {
        ($c:expr) => {
            match (k.bytes, k.pick.is_some()) {
                (1, true) => call!($c, 1, true),
                (1, false) => call!($c, 1, false),
                (2, true) => call!($c, 2, true),
                (2, false) => call!($c, 2, false),
                (4, true) => call!($c, 4, true),
                (4, false) => call!($c, 4, false),
                (_, true) => call!($c, 8, true),
                (_, false) => call!($c, 8, false),
            }
        };
    }
    match k.conv {
        Conv::Unorm => go!(UNORM),
        Conv::Snorm => go!(SNORM),
        Conv::Uint => go!(UINT),
        Conv::Sint => go!(SINT),
        Conv::Half => go!(HALF),
    }
    true
}

const UNORM: u8 = 0;
const SNORM: u8 = 1;
const UINT: u8 = 2;
const SINT: u8 = 3;
const HALF: u8 = 4;

/// The vertex loop: pairs of vertices, then a last single one.
///
/// # Safety
/// AVX2 and F16C must be available; `block.len() >= count · rows`, `row < rows`, `count ≥ 1`
/// and `out.len() >= (count − 1) · stride + B` (checked by [`encode`]).
#[target_feature(enable = "avx2,fma,f16c")]
#[allow(clippy::too_many_arguments)]
unsafe fn kernel<const C: u8, const B: usize, const P: bool>(
    k: &Kernel,
    block: &[[u32; 4]],
    rows: usize,
    row: usize,
    stride: usize,
    count: usize,
    out: &mut [u8],
) {
    let c = Consts::new(k);
    let src = block.as_ptr();
    let dst = out.as_mut_ptr();
    let mut v = 0;
    // SAFETY (loads and stores below): vertex `v < count` reads row `v·rows + row <
    // count·rows <= block.len()` (16 bytes of a `[u32; 4]`) and writes `out[v·stride ..
    // v·stride + B]`, inside `out` as `v·stride + B <= (count − 1)·stride + B <= out.len()`.
    unsafe {
        while v + 2 <= count {
            let lo = _mm_loadu_si128(src.add(v * rows + row).cast());
            let hi = _mm_loadu_si128(src.add((v + 1) * rows + row).cast());
            let t = convert::<C, B, P>(&c, _mm256_set_m128i(hi, lo));
            store::<B>(dst.add(v * stride), _mm256_castsi256_si128(t));
            store::<B>(dst.add((v + 1) * stride), _mm256_extracti128_si256::<1>(t));
            v += 2;
        }
        if v < count {
            let lo = _mm_loadu_si128(src.add(v * rows + row).cast());
            let t = convert::<C, B, P>(&c, _mm256_set_m128i(lo, lo));
            store::<B>(dst.add(v * stride), _mm256_castsi256_si128(t));
        }
    }
}

/// Writes the element's `B` bytes, the low bytes of `t`, at `at` (unaligned).
///
/// # Safety
/// `at .. at + B` must be writable.
#[inline(always)]
unsafe fn store<const B: usize>(at: *mut u8, t: __m128i) {
    // SAFETY: SSE2 (baseline on x86-64) register moves; the caller guarantees the bytes.
    unsafe {
        let w0 = _mm_cvtsi128_si32(t) as u32;
        match B {
            1 => at.write(w0 as u8),
            2 => at.cast::<u16>().write_unaligned(w0 as u16),
            4 => at.cast::<u32>().write_unaligned(w0),
            _ => at
                .cast::<u64>()
                .write_unaligned(_mm_cvtsi128_si64(t) as u64),
        }
    }
}

/// A kernel's constants as vectors (both 128-bit halves alike).
struct Consts {
    scale: __m256,
    max: __m256i,
    min: __m256i,
    mask: __m256i,
    shift: __m256i,
    pick: __m256i,
}

impl Consts {
    #[target_feature(enable = "avx2")]
    fn new(k: &Kernel) -> Consts {
        let s = k.scale;
        Consts {
            scale: _mm256_setr_ps(s[0], s[1], s[2], s[3], s[0], s[1], s[2], s[3]),
            max: splat4(k.max),
            min: splat4(k.min),
            mask: splat4(k.mask.map(|m| m as i32)),
            shift: splat4(k.shift.map(|m| m as i32)),
            pick: {
                let p = k.pick.unwrap_or([0x80; 16]).map(|b| b as i8);
                _mm256_setr_epi8(
                    p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10], p[11],
                    p[12], p[13], p[14], p[15], p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7],
                    p[8], p[9], p[10], p[11], p[12], p[13], p[14], p[15],
                )
            },
        }
    }
}

/// `a` in both 128-bit halves.
#[inline]
#[target_feature(enable = "avx2")]
fn splat4(a: [i32; 4]) -> __m256i {
    _mm256_setr_epi32(a[0], a[1], a[2], a[3], a[0], a[1], a[2], a[3])
}

/// `⌊c·scale + 0.5⌋` (exact) for the 8 non-negative lanes of `c` (at most 1 each): see the
/// module documentation.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn scaled(c: &Consts, x: __m256) -> __m256i {
    let half = _mm256_set1_ps(0.5);
    let k = _mm256_cvttps_epi32(_mm256_fmadd_ps(x, c.scale, half));
    let e = _mm256_fmadd_ps(x, c.scale, _mm256_sub_ps(half, _mm256_cvtepi32_ps(k)));
    _mm256_add_epi32(k, _mm256_srai_epi32::<31>(_mm256_castps_si256(e)))
}

/// Two vertices' rows in, each 128-bit half's element word(s) in its low lane(s) out.
#[inline]
#[target_feature(enable = "avx2,fma,f16c")]
fn convert<const C: u8, const B: usize, const P: bool>(c: &Consts, x: __m256i) -> __m256i {
    let codes = match C {
        UNORM => {
            let f = _mm256_castsi256_ps(x);
            let f = _mm256_min_ps(_mm256_max_ps(f, _mm256_setzero_ps()), _mm256_set1_ps(1.0));
            scaled(c, f)
        }
        SNORM => {
            let f = _mm256_castsi256_ps(x);
            let nan = _mm256_castps_si256(_mm256_cmp_ps::<_CMP_UNORD_Q>(f, f));
            let f = _mm256_max_ps(_mm256_min_ps(f, _mm256_set1_ps(1.0)), _mm256_set1_ps(-1.0));
            let abs = _mm256_and_ps(f, _mm256_castsi256_ps(_mm256_set1_epi32(0x7fff_ffff)));
            let mag = scaled(c, abs);
            let sign = _mm256_srai_epi32::<31>(_mm256_castps_si256(f));
            let v = _mm256_sub_epi32(_mm256_xor_si256(mag, sign), sign);
            _mm256_andnot_si256(nan, v)
        }
        UINT => _mm256_min_epu32(x, c.max),
        SINT => _mm256_max_epi32(_mm256_min_epi32(x, c.max), c.min),
        _ => {
            let h = _mm256_cvtepu16_epi32(_mm256_cvtps_ph::<_MM_FROUND_TO_NEAREST_INT>(
                _mm256_castsi256_ps(x),
            ));
            let abs = _mm256_and_si256(x, _mm256_set1_epi32(0x7fff_ffff));
            let nan = _mm256_cmpgt_epi32(abs, _mm256_set1_epi32(0x7f80_0000));
            if _mm256_testz_si256(nan, nan) != 0 {
                h
            } else {
                let payload =
                    _mm256_srli_epi32::<13>(_mm256_and_si256(x, _mm256_set1_epi32(0x007f_ffff)));
                let empty = _mm256_cmpeq_epi32(payload, _mm256_setzero_si256());
                let payload =
                    _mm256_or_si256(payload, _mm256_and_si256(empty, _mm256_set1_epi32(0x200)));
                let sign = _mm256_and_si256(_mm256_srli_epi32::<16>(x), _mm256_set1_epi32(0x8000));
                let q = _mm256_or_si256(_mm256_or_si256(sign, _mm256_set1_epi32(0x7c00)), payload);
                _mm256_blendv_epi8(h, q, nan)
            }
        }
    };
    if P {
        return _mm256_shuffle_epi8(codes, c.pick);
    }
    let y = _mm256_sllv_epi32(_mm256_and_si256(codes, c.mask), c.shift);
    // Lanes (0, 1) and (2, 3) OR-ed: words of 8-byte elements in lanes 0 and 2.
    let t = _mm256_or_si256(y, _mm256_shuffle_epi32::<0b10_11_00_01>(y));
    if B == 8 {
        _mm256_shuffle_epi32::<0b00_00_10_00>(t)
    } else {
        _mm256_or_si256(t, _mm256_shuffle_epi32::<0b01_00_11_10>(t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::{Rounding, encode_small_float, encode_snorm, encode_unorm};
    use crate::format::FloatEncoding;

    /// Runs a one-lane-per-component kernel over `xs` (four values a vertex, lanes in
    /// order), returning each vertex's element word(s).
    fn run(k: &Kernel, xs: &[u32]) -> Vec<u64> {
        let block: Vec<[u32; 4]> = xs.chunks(4).map(|c| [c[0], c[1], c[2], c[3]]).collect();
        let mut out = vec![0u8; block.len() * 8];
        assert!(encode(k, &block, 1, 0, 8, block.len(), &mut out));
        out.chunks(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap()) & (u64::MAX >> (64 - 8 * k.bytes)))
            .collect()
    }

    /// Every binary32 in a sweep of odd stride (every residue of the low bits hit), plus
    /// every value within 3 ulp of each tie and code of every UNORM/SNORM divisor, and around
    /// every half and halfway point between halves, both signs.
    fn inputs() -> Vec<u32> {
        let mut v: Vec<u32> = (0..=u32::MAX / 0x3fd).map(|i| i * 0x3fd).collect();
        // UNORM n bits divides by 2^n − 1, SNORM n bits by 2^(n−1) − 1: every d of both.
        for bits in 1u32..=16 {
            let d = ((1u32 << bits) - 1) as f64;
            for code in 0..=(1u32 << bits) {
                for t in [code as f64 / d, (code as f64 + 0.5) / d] {
                    let f = (t as f32).to_bits();
                    for x in f.saturating_sub(3)..=f + 3 {
                        v.extend([x, x | 0x8000_0000]);
                    }
                }
            }
        }
        for h in 0u32..0x8000 {
            let f = crate::convert::f16_to_f32_bits(h as u16);
            let mid = f.wrapping_add(0x1000);
            for x in [
                f,
                f + 1,
                f.wrapping_sub(1),
                mid,
                mid + 1,
                mid.wrapping_sub(1),
            ] {
                v.extend([x, x | 0x8000_0000]);
            }
        }
        v.extend([
            0,
            0x8000_0000,
            0x7f80_0000,
            0xff80_0000,
            0x7f80_0001,
            0x7fc0_0000,
        ]);
        v.extend([
            0xffff_ffff,
            0x7fa0_0000,
            0xff80_2000,
            0x0000_0001,
            0x807f_ffff,
        ]);
        v.extend([
            0x477f_f000,
            0x477f_efff,
            0x477f_f001,
            0x3380_0000,
            0x3380_0001,
        ]);
        while !v.len().is_multiple_of(4) {
            v.push(0);
        }
        v
    }

    #[test]
    fn kernels_equal_the_scalar_conversions_on_every_lane() {
        if !available(Conv::Half) {
            return;
        }
        let xs = inputs();
        let lanes = [(0, 16, 0), (1, 16, 16), (2, 16, 32), (3, 16, 48)];
        let half = Kernel::new(Conv::Half, 8, &lanes).unwrap();
        for (i, w) in run(&half, &xs).into_iter().enumerate() {
            for l in 0..4 {
                let x = xs[4 * i + l];
                let want = encode_small_float(x, FloatEncoding::BINARY16, Rounding::Nearest);
                assert_eq!((w >> (16 * l)) & 0xffff, want as u64, "half {x:#010x}");
            }
        }
        for bits in [1u32, 2, 4, 5, 6, 8, 10, 16] {
            let comps = [(0, bits, 0), (1, bits, 16), (2, bits, 32), (3, bits, 48)];
            for conv in [Conv::Unorm, Conv::Snorm] {
                let Some(k) = Kernel::new(conv, 8, &comps) else {
                    assert!(conv == Conv::Snorm && bits == 1);
                    continue;
                };
                for (i, w) in run(&k, &xs).into_iter().enumerate() {
                    for l in 0..4 {
                        let x = xs[4 * i + l];
                        let f = f32::from_bits(x);
                        let want = match conv {
                            Conv::Unorm => encode_unorm(f, bits),
                            _ => encode_snorm(f, bits),
                        };
                        let got = (w >> (16 * l)) & ((1 << bits) - 1);
                        assert_eq!(got, want as u64, "{conv:?}{bits} {x:#010x}");
                    }
                }
            }
        }
    }

    /// Every non-negative binary32 (all of [0, 1], the values above, +∞ and the positive
    /// NaNs; the negative ones clamp to 0 before the arithmetic) through the UNORM kernel of
    /// every IA UNORM width and of widths 7 and 15 (the divisors 127 and 32767 of SNORM8/16,
    /// whose magnitudes take the same arithmetic), against [`encode_unorm`]. About four
    /// minutes in release on two cores:
    /// `cargo test --release -p inlay --lib every_non_negative -- --ignored`.
    #[test]
    #[ignore]
    fn every_non_negative_binary32_through_every_unorm_width() {
        if !available(Conv::Unorm) {
            return;
        }
        for bits in [1u32, 2, 4, 5, 6, 7, 8, 10, 15, 16] {
            let k = Kernel::new(
                Conv::Unorm,
                8,
                &[(0, bits, 0), (1, bits, 16), (2, bits, 32), (3, bits, 48)],
            )
            .unwrap();
            let mut start = 0u32;
            while start < 0x8000_0000 {
                let xs: Vec<u32> = (start..start + (1 << 22)).collect();
                for (i, w) in run(&k, &xs).into_iter().enumerate() {
                    for l in 0..4 {
                        let x = xs[4 * i + l];
                        let want = encode_unorm(f32::from_bits(x), bits);
                        let got = (w >> (16 * l)) & ((1 << bits) - 1);
                        assert_eq!(got, want as u64, "UNORM{bits} {x:#010x}");
                    }
                }
                start += 1 << 22;
            }
        }
    }

    #[test]
    fn shapes_the_kernel_cannot_pack_are_refused() {
        // A field crossing a 32-bit word, a lane in the other word, a 32-bit field.
        assert!(Kernel::new(Conv::Uint, 8, &[(0, 16, 24)]).is_none());
        assert!(Kernel::new(Conv::Uint, 8, &[(0, 16, 32)]).is_none());
        assert!(Kernel::new(Conv::Uint, 4, &[(0, 32, 0)]).is_none());
        assert!(Kernel::new(Conv::Half, 4, &[(0, 10, 0)]).is_none());
        assert!(Kernel::new(Conv::Uint, 4, &[(0, 8, 0), (0, 8, 8)]).is_none());
        assert!(Kernel::new(Conv::Uint, 4, &[(0, 8, 0), (1, 8, 8)]).is_some());
    }
}
