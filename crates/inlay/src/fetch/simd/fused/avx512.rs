//! The AVX-512 form of the fused kernel (cargo feature `avx512`: its intrinsics need Rust
//! 1.89, above the crate's minimum supported version): four vertices per 512-bit vector.

use super::*;
use crate::fetch::program::REBIAS;

// ---------------------------------------------------------------------------------------------
// AVX-512 kernel: four vertices per 512-bit vector.
//
// The structure of the AVX2 fused kernel (every row of four vertices, then the next four,
// stored straight into the output), with one vertex per 128-bit lane and the same lane
// operations as `convert` (UNORM/SNORM through the FMA quotient), so the same bits.

/// A program's constants broadcast to all four 128-bit lanes.
type Consts4 = Vectors<__m512i, __m512>;

/// [`Consts`] broadcast to all four 128-bit lanes.
#[target_feature(enable = "avx512f")]
fn consts4(c: &Consts) -> Consts4 {
    c.map(|v| _mm512_broadcast_i32x4(v), |v| _mm512_broadcast_f32x4(v))
}

/// [`convert`] on four elements at once (one per 128-bit lane): the same operations lane for
/// lane (UNORM/SNORM through the FMA quotient, see [`quotient_fma`]), so the same bits.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn convert4<const CLASS: u8, const SIGNED: bool>(c: &Consts4, chunk: __m512i) -> __m512i {
    let x = _mm512_shuffle_epi8(chunk, c.shuffle);
    let x = if CLASS == COPY {
        x
    } else {
        let x = _mm512_sllv_epi32(x, c.shl);
        if SIGNED {
            _mm512_srav_epi32(x, c.shr)
        } else {
            _mm512_srlv_epi32(x, c.shr)
        }
    };
    let v = match CLASS {
        UNORM | SNORM => {
            let xf = _mm512_cvtepi32_ps(x);
            let q = _mm512_mul_ps(xf, c.recip);
            let e = _mm512_fnmadd_ps(q, c.div, xf);
            let q = _mm512_fmadd_ps(e, c.recip, q);
            let q = if CLASS == SNORM {
                _mm512_max_ps(q, _mm512_set1_ps(-1.0))
            } else {
                q
            };
            _mm512_castps_si512(q)
        }
        SMALL_FLOAT => {
            let mag = _mm512_and_si512(x, c.mag_mask);
            let sign = _mm512_slli_epi32::<16>(_mm512_and_si512(x, c.sign_mask));
            let rebias = _mm512_set1_epi32(REBIAS as i32);
            let normal = _mm512_add_epi32(_mm512_sllv_epi32(mag, c.mant_shift), rebias);
            // Inf/NaN: add the bias difference again.
            let special = _mm512_cmpge_epu32_mask(mag, c.exp_max);
            let normal = _mm512_mask_add_epi32(normal, special, normal, rebias);
            let sub = _mm512_castps_si512(_mm512_mul_ps(_mm512_cvtepi32_ps(mag), c.sub_scale));
            let is_sub = _mm512_cmplt_epu32_mask(mag, c.sub_limit);
            _mm512_or_si512(_mm512_mask_blend_epi32(is_sub, normal, sub), sign)
        }
        _ => x,
    };
    _mm512_or_si512(_mm512_and_si512(v, c.present), c.defaults)
}

/// One row of the AVX-512 kernel.
#[derive(Clone, Copy)]
struct GroupElem {
    c: Consts4,
    class: u8,
    signed: bool,
    src: *const u8,
    stride: usize,
}

/// Row `e` of the four vertices `i .. i + 4` into `d + k·width` (vertex `i + k`).
///
/// # Safety
/// The four 16-byte loads at `e.src + (i + k)·e.stride` must lie inside one live slice, the
/// four rows inside one slice the caller borrows mutably (16-byte aligned when non-temporal).
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn quad_row<const STORE: u8>(e: &GroupElem, i: usize, d: *mut [u32; 4], width: usize) {
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn load4(a: *const u8, s: usize) -> __m512i {
        // SAFETY: the caller's contract.
        unsafe {
            let v = _mm512_castsi128_si512(_mm_loadu_si128(a.cast::<__m128i>()));
            let v = _mm512_inserti32x4::<1>(v, _mm_loadu_si128(a.add(s).cast::<__m128i>()));
            let v = _mm512_inserti32x4::<2>(v, _mm_loadu_si128(a.add(2 * s).cast::<__m128i>()));
            _mm512_inserti32x4::<3>(v, _mm_loadu_si128(a.add(3 * s).cast::<__m128i>()))
        }
    }
    // SAFETY: the caller's contract.
    unsafe {
        let y = if e.class == CONSTANT {
            e.c.defaults
        } else {
            let x = load4(e.src.add(i * e.stride), e.stride);
            macro_rules! four {
                ($class:expr, $signed:expr) => {
                    convert4::<{ $class }, { $signed }>(&e.c, x)
                };
            }
            by_class!(e.class, e.signed, four)
        };
        let parts = [
            _mm512_castsi512_si128(y),
            _mm512_extracti32x4_epi32::<1>(y),
            _mm512_extracti32x4_epi32::<2>(y),
            _mm512_extracti32x4_epi32::<3>(y),
        ];
        for (k, v) in parts.into_iter().enumerate() {
            let p = d.add(k * width).cast::<__m128i>();
            if STORE == ST_NT {
                _mm_stream_si128(p, v);
            } else {
                _mm_storeu_si128(p, v);
            }
        }
    }
}

#[target_feature(enable = "avx512f,avx512bw")]
fn quads_impl<const STORE: u8>(
    elems: &[GroupElem],
    quads: usize,
    out: *mut [u32; 4],
    width: usize,
) {
    for q in 0..quads {
        let i = 4 * q;
        // SAFETY: `fused` checked every load of vertices `< 4·quads` and every output row
        // `< 4·quads·width` (16-byte aligned when non-temporal).
        unsafe {
            let o = out.add(i * width);
            for (pos, e) in elems.iter().enumerate() {
                quad_row::<STORE>(e, i, o.add(pos), width);
            }
        }
    }
}

/// Whether the AVX-512 kernel can run on this CPU.
pub(in crate::fetch) fn has_avx512() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512bw")
}

/// The AVX-512 form of [`fused`]: a multiple of 4 leading vertices, or 0.
pub(super) fn quads(
    rows: &[FusedRow<'_>],
    fast: usize,
    out: &mut [[u32; 4]],
    streaming: bool,
) -> usize {
    let width = rows.len();
    let quads = fast / 4;
    if quads == 0 || !has_avx512() {
        return 0;
    }
    // SAFETY (constants): AVX-512F detected above.
    let make = |p: &LaneProgram| unsafe { consts4(&Consts::new(p)) };
    let mut elems = [GroupElem {
        c: make(&LaneProgram::constant([0; 4])),
        class: CONSTANT,
        signed: false,
        src: ZERO16.as_ptr(),
        stride: 0,
    }; 32];
    for (e, r) in elems.iter_mut().zip(rows) {
        let p = &r.lane_program();
        *e = GroupElem {
            c: make(p),
            class: if p.present == [0; 4] {
                CONSTANT
            } else {
                class_of(p)
            },
            signed: p.signed,
            src: r.data[r.start..].as_ptr(),
            stride: r.stride,
        };
    }
    let nt = streaming && out.as_ptr().cast::<u8>().align_offset(16) == 0;
    let p = out.as_mut_ptr();
    // SAFETY: AVX-512F/BW detected; `fast` (checked by `fused`) bounds every load and store.
    unsafe {
        if nt {
            quads_impl::<ST_NT>(&elems[..width], quads, p, width);
        } else {
            quads_impl::<ST_NORMAL>(&elems[..width], quads, p, width);
        }
    }
    4 * quads
}
