//! AVX2 kernels (x86-64, runtime-detected).
//!
//! Each vertex's element is one 128-bit vector: `pshufb` gathers every lane's field bytes
//! ([`LaneProgram::shuffle`]), `vpsllvd`/`vpsrlvd`/`vpsravd` isolate and extend the field, then
//! the conversion class runs on four lanes at once: `vcvtdq2ps` + `vdivps` (a real IEEE
//! division, so UNORM/SNORM are correctly rounded exactly like the reference), `vmaxps` for the
//! SNORM clamp, and integer operations for the half / 11-bit / 10-bit float widening (F16C's
//! `vcvtph2ps` would quiet signalling NaNs, which the reference keeps). Defaults are blended in
//! last. Every operation is exact, so the bits equal [`LaneProgram::run`]'s.
//!
//! Memory is read and written through bounds-checked slices converted with `bytemuck`; the
//! only `unsafe` is (a) entering a `#[target_feature(enable = "avx2")]` function after
//! `is_x86_feature_detected!("avx2")` said yes, and (b) the non-temporal stores, whose
//! destination is a live `&mut` row checked to be 16-byte aligned.
#![allow(unsafe_code)]

use std::arch::x86_64::*;

use super::NO_ADDR;
use super::program::{Conv, LaneProgram, REBIAS, chunk_at};

/// Whether AVX2 kernels may run on this CPU (cached by the standard library).
fn has_avx2() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
}

/// A program's constants as vectors.
#[derive(Clone, Copy, Debug)]
struct Consts {
    shuffle: __m128i,
    shl: __m128i,
    shr: __m128i,
    div: __m128,
    mag_mask: __m128i,
    sign_mask: __m128i,
    mant_shift: __m128i,
    exp_max: __m128i,
    sub_limit: __m128i,
    sub_scale: __m128,
    present: __m128i,
    defaults: __m128i,
}

impl Consts {
    fn new(p: &LaneProgram) -> Consts {
        let i = |a: [u32; 4]| bytemuck::cast::<[u32; 4], __m128i>(a);
        let f = |a: [f32; 4]| bytemuck::cast::<[f32; 4], __m128>(a);
        // The mag >= exp_max comparison is signed; the sentinel u32::MAX (never Inf/NaN)
        // must stay above every magnitude, so clamp it to i32::MAX.
        let exp_max = p.exp_max.map(|v| v.min(i32::MAX as u32));
        Consts {
            shuffle: bytemuck::cast::<[u8; 16], __m128i>(p.shuffle),
            shl: i(p.shl),
            shr: i(p.shr),
            div: f(p.div),
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
const COPY: u8 = 0;
const BITS: u8 = 1;
const UNORM: u8 = 2;
const SNORM: u8 = 3;
const SMALL_FLOAT: u8 = 4;

fn class_of(p: &LaneProgram) -> u8 {
    match p.conv {
        Conv::Bits if p.is_copy32() => COPY,
        Conv::Bits => BITS,
        Conv::Unorm => UNORM,
        Conv::Snorm => SNORM,
        Conv::SmallFloat => SMALL_FLOAT,
    }
}

/// Converts one element's 16 bytes to its four lanes.
#[inline]
#[target_feature(enable = "avx2")]
fn convert<const CLASS: u8, const SIGNED: bool>(c: &Consts, chunk: __m128i) -> __m128i {
    let x = _mm_shuffle_epi8(chunk, c.shuffle);
    let x = if CLASS == COPY {
        x
    } else {
        let x = _mm_sllv_epi32(x, c.shl);
        if SIGNED {
            _mm_srav_epi32(x, c.shr)
        } else {
            _mm_srlv_epi32(x, c.shr)
        }
    };
    let v = match CLASS {
        UNORM => _mm_castps_si128(_mm_div_ps(_mm_cvtepi32_ps(x), c.div)),
        SNORM => {
            let q = _mm_div_ps(_mm_cvtepi32_ps(x), c.div);
            _mm_castps_si128(_mm_max_ps(q, _mm_set1_ps(-1.0)))
        }
        SMALL_FLOAT => {
            let mag = _mm_and_si128(x, c.mag_mask);
            let sign = _mm_slli_epi32::<16>(_mm_and_si128(x, c.sign_mask));
            let rebias = _mm_set1_epi32(REBIAS as i32);
            let normal = _mm_add_epi32(_mm_sllv_epi32(mag, c.mant_shift), rebias);
            // Inf/NaN (mag >= exp_max, i.e. not exp_max > mag): add the bias difference again.
            let not_special = _mm_cmpgt_epi32(c.exp_max, mag);
            let normal = _mm_add_epi32(normal, _mm_andnot_si128(not_special, rebias));
            let sub = _mm_castps_si128(_mm_mul_ps(_mm_cvtepi32_ps(mag), c.sub_scale));
            let is_sub = _mm_cmpgt_epi32(c.sub_limit, mag);
            _mm_or_si128(_mm_blendv_epi8(normal, sub, is_sub), sign)
        }
        _ => x,
    };
    _mm_or_si128(_mm_and_si128(v, c.present), c.defaults)
}

/// The element's 16 bytes at `a` (padded with zeros past the buffer's end).
#[inline]
#[target_feature(enable = "avx2")]
fn load(data: &[u8], a: usize, size: usize) -> __m128i {
    let bytes: [u8; 16] = match data.get(a..a + 16) {
        Some(s) => <[u8; 16]>::try_from(s).unwrap_or([0; 16]),
        None => chunk_at(data, a, size),
    };
    bytemuck::cast(bytes)
}

/// [`Consts`] broadcast to both 128-bit halves (one vertex per half).
#[derive(Clone, Copy, Debug)]
struct Consts2 {
    shuffle: __m256i,
    shl: __m256i,
    shr: __m256i,
    div: __m256,
    mag_mask: __m256i,
    sign_mask: __m256i,
    mant_shift: __m256i,
    exp_max: __m256i,
    sub_limit: __m256i,
    sub_scale: __m256,
    present: __m256i,
    defaults: __m256i,
}

impl Consts2 {
    #[target_feature(enable = "avx2")]
    fn new(c: &Consts) -> Consts2 {
        let i = |v: __m128i| _mm256_broadcastsi128_si256(v);
        let f = |v: __m128| _mm256_castsi256_ps(_mm256_broadcastsi128_si256(_mm_castps_si128(v)));
        Consts2 {
            shuffle: i(c.shuffle),
            shl: i(c.shl),
            shr: i(c.shr),
            div: f(c.div),
            mag_mask: i(c.mag_mask),
            sign_mask: i(c.sign_mask),
            mant_shift: i(c.mant_shift),
            exp_max: i(c.exp_max),
            sub_limit: i(c.sub_limit),
            sub_scale: f(c.sub_scale),
            present: i(c.present),
            defaults: i(c.defaults),
        }
    }
}

/// [`convert`] on two elements at once (one per 128-bit half); the same operations lane
/// for lane, so the same bits.
#[inline]
#[target_feature(enable = "avx2")]
fn convert2<const CLASS: u8, const SIGNED: bool>(c: &Consts2, chunk: __m256i) -> __m256i {
    let x = _mm256_shuffle_epi8(chunk, c.shuffle);
    let x = if CLASS == COPY {
        x
    } else {
        let x = _mm256_sllv_epi32(x, c.shl);
        if SIGNED {
            _mm256_srav_epi32(x, c.shr)
        } else {
            _mm256_srlv_epi32(x, c.shr)
        }
    };
    let v = match CLASS {
        UNORM => _mm256_castps_si256(_mm256_div_ps(_mm256_cvtepi32_ps(x), c.div)),
        SNORM => {
            let q = _mm256_div_ps(_mm256_cvtepi32_ps(x), c.div);
            _mm256_castps_si256(_mm256_max_ps(q, _mm256_set1_ps(-1.0)))
        }
        SMALL_FLOAT => {
            let mag = _mm256_and_si256(x, c.mag_mask);
            let sign = _mm256_slli_epi32::<16>(_mm256_and_si256(x, c.sign_mask));
            let rebias = _mm256_set1_epi32(REBIAS as i32);
            let normal = _mm256_add_epi32(_mm256_sllv_epi32(mag, c.mant_shift), rebias);
            let not_special = _mm256_cmpgt_epi32(c.exp_max, mag);
            let normal = _mm256_add_epi32(normal, _mm256_andnot_si256(not_special, rebias));
            let sub = _mm256_castps_si256(_mm256_mul_ps(_mm256_cvtepi32_ps(mag), c.sub_scale));
            let is_sub = _mm256_cmpgt_epi32(c.sub_limit, mag);
            _mm256_or_si256(_mm256_blendv_epi8(normal, sub, is_sub), sign)
        }
        _ => x,
    };
    _mm256_or_si256(_mm256_and_si256(v, c.present), c.defaults)
}

/// How many leading vertices (an even number) of a linear run may use unchecked 16-byte
/// loads at `start + i·stride` and stores at `i·dst_stride + pos`.
fn unchecked_count(
    data_len: usize,
    start: usize,
    stride: usize,
    n: usize,
    dst_len: usize,
    dst_stride: usize,
    pos: usize,
) -> usize {
    let Some(room) = data_len.checked_sub(start + 16) else {
        return 0;
    };
    let Some(dst_room) = dst_len.checked_sub(pos + 1) else {
        return 0;
    };
    // Stride 0: every vertex reads (or writes) the same place.
    let loads = room.checked_div(stride).map_or(n, |k| k + 1);
    let stores = dst_room.checked_div(dst_stride).map_or(n, |k| k + 1);
    n.min(loads).min(stores) & !1
}

#[target_feature(enable = "avx2")]
#[allow(clippy::too_many_arguments)]
fn linear_impl<const CLASS: u8, const SIGNED: bool>(
    c: &Consts,
    size: usize,
    data: &[u8],
    start: usize,
    stride: usize,
    n: usize,
    dst: &mut [[u32; 4]],
    dst_stride: usize,
    pos: usize,
) {
    // Two vertices per 256-bit vector over the leading run whose loads and stores were
    // bounds-checked as a whole; the rest one by one through checked slices.
    let fast = unchecked_count(data.len(), start, stride, n, dst.len(), dst_stride, pos);
    let c2 = Consts2::new(c);
    let src = data.as_ptr();
    let out = dst.as_mut_ptr();
    let mut i = 0;
    while i < fast {
        let (a0, a1) = (start + i * stride, start + (i + 1) * stride);
        // SAFETY: `unchecked_count` guarantees `start + j·stride + 16 <= data.len()` for
        // every j < fast, so both 16-byte unaligned loads read inside `data`.
        let (v0, v1) = unsafe {
            (
                _mm_loadu_si128(src.add(a0).cast::<__m128i>()),
                _mm_loadu_si128(src.add(a1).cast::<__m128i>()),
            )
        };
        let y = convert2::<CLASS, SIGNED>(&c2, _mm256_set_m128i(v1, v0));
        let (d0, d1) = (i * dst_stride + pos, (i + 1) * dst_stride + pos);
        // SAFETY: `unchecked_count` guarantees `j·dst_stride + pos < dst.len()` for every
        // j < fast, so both 16-byte unaligned stores write inside `dst`, which we borrow
        // mutably.
        unsafe {
            _mm_storeu_si128(out.add(d0).cast::<__m128i>(), _mm256_castsi256_si128(y));
            _mm_storeu_si128(
                out.add(d1).cast::<__m128i>(),
                _mm256_extracti128_si256::<1>(y),
            );
        }
        i += 2;
    }
    for i in fast..n {
        let v = convert::<CLASS, SIGNED>(c, load(data, start + i * stride, size));
        dst[i * dst_stride + pos] = bytemuck::cast(v);
    }
}

#[target_feature(enable = "avx2")]
fn list_impl<const CLASS: u8, const SIGNED: bool>(
    c: &Consts,
    size: usize,
    data: &[u8],
    addrs: &[usize],
    dst: &mut [[u32; 4]],
    dst_stride: usize,
    pos: usize,
) {
    for (i, &a) in addrs.iter().enumerate() {
        // Out of bounds decodes as all-zero bytes (= convert::out_of_bounds).
        let chunk = if a == NO_ADDR {
            _mm_setzero_si128()
        } else {
            load(data, a, size)
        };
        dst[i * dst_stride + pos] = bytemuck::cast(convert::<CLASS, SIGNED>(c, chunk));
    }
}

/// Calls `$f::<CLASS, SIGNED>($args)` for the program's class, inside an `unsafe` block
/// whose soundness the caller has established (AVX2 detected).
macro_rules! dispatch {
    ($p:expr, $f:ident, $($arg:expr),*) => {{
        let c = Consts::new($p);
        let size = $p.size as usize;
        // SAFETY (for every arm): the caller checked `has_avx2()`, the only precondition of
        // these `#[target_feature(enable = "avx2")]` functions; they touch memory only
        // through bounds-checked slices.
        match (class_of($p), $p.signed) {
            (COPY, _) => unsafe { $f::<COPY, false>(&c, size, $($arg),*) },
            (BITS, false) => unsafe { $f::<BITS, false>(&c, size, $($arg),*) },
            (BITS, true) => unsafe { $f::<BITS, true>(&c, size, $($arg),*) },
            (UNORM, _) => unsafe { $f::<UNORM, false>(&c, size, $($arg),*) },
            (SNORM, _) => unsafe { $f::<SNORM, true>(&c, size, $($arg),*) },
            _ => unsafe { $f::<SMALL_FLOAT, false>(&c, size, $($arg),*) },
        }
    }};
}

/// AVX2 version of the linear kernel (see `Kernel::linear`); portable when AVX2 is absent.
#[allow(clippy::too_many_arguments)]
pub(super) fn linear(
    p: &LaneProgram,
    data: &[u8],
    start: usize,
    stride: usize,
    n: usize,
    dst: &mut [[u32; 4]],
    dst_stride: usize,
    pos: usize,
) {
    if !has_avx2() {
        for i in 0..n {
            let a = start + i * stride;
            dst[i * dst_stride + pos] = p.run(&chunk_at(data, a, p.size as usize));
        }
        return;
    }
    dispatch!(p, linear_impl, data, start, stride, n, dst, dst_stride, pos)
}

/// AVX2 version of the address-list kernel (see `Kernel::list`).
pub(super) fn list(
    p: &LaneProgram,
    data: &[u8],
    addrs: &[usize],
    dst: &mut [[u32; 4]],
    dst_stride: usize,
    pos: usize,
) {
    if !has_avx2() {
        for (i, &a) in addrs.iter().enumerate() {
            let chunk = if a == NO_ADDR {
                [0; 16]
            } else {
                chunk_at(data, a, p.size as usize)
            };
            dst[i * dst_stride + pos] = p.run(&chunk);
        }
        return;
    }
    dispatch!(p, list_impl, data, addrs, dst, dst_stride, pos)
}

/// Copies `src` to `dst` with non-temporal stores (normal stores when `dst` is not 16-byte
/// aligned).
pub(super) fn stream_copy(dst: &mut [[u32; 4]], src: &[[u32; 4]]) {
    if !has_avx2() || dst.as_ptr().cast::<u8>().align_offset(16) != 0 {
        dst.copy_from_slice(src);
        return;
    }
    // SAFETY: AVX2 detected just above.
    unsafe { stream_copy_avx2(dst, src) }
}

#[target_feature(enable = "avx2")]
fn stream_copy_avx2(dst: &mut [[u32; 4]], src: &[[u32; 4]]) {
    let n = dst.len().min(src.len());
    // One row to reach 32-byte alignment, then pairs of rows, then the last row.
    let head = if dst.as_ptr().cast::<u8>().align_offset(32) == 0 {
        0
    } else {
        1
    }
    .min(n);
    for k in 0..head {
        stream_row(&mut dst[k], src[k]);
    }
    let pairs = (n - head) / 2;
    let d = dst[head..].as_mut_ptr();
    let s = src[head..].as_ptr();
    for k in 0..pairs {
        // SAFETY: rows `head + 2k` and `head + 2k + 1` exist in both slices (2k + 1 <
        // n − head); `dst + head` is 32-byte aligned (checked above, rows are 16 bytes), so
        // the 32-byte non-temporal store is aligned; the source load is unaligned-tolerant.
        unsafe {
            let v = _mm256_loadu_si256(s.add(2 * k).cast::<__m256i>());
            _mm256_stream_si256(d.add(2 * k).cast::<__m256i>(), v);
        }
    }
    for k in head + 2 * pairs..n {
        stream_row(&mut dst[k], src[k]);
    }
}

/// Writes one 16-byte row with a non-temporal store (a normal store if `d` is not 16-byte
/// aligned).
#[inline(always)]
pub(super) fn stream_row(d: &mut [u32; 4], v: [u32; 4]) {
    if d.as_ptr().cast::<u8>().align_offset(16) != 0 {
        *d = v;
        return;
    }
    let v: __m128i = bytemuck::cast(v);
    // SAFETY: `d` is a live, exclusive reference to 16 writable bytes and was just checked to
    // be 16-byte aligned, which is `movntdq`'s only requirement; SSE2 is part of the x86-64
    // baseline.
    unsafe { _mm_stream_si128(std::ptr::from_mut(d).cast::<__m128i>(), v) }
}

/// Prefetches `data[lo..hi]` into the cache, one request per 64-byte line.
pub(super) fn prefetch(data: &[u8], lo: usize, hi: usize) {
    let hi = hi.min(data.len());
    let mut a = lo;
    while a < hi {
        // SAFETY: `a < data.len()`, so the address lies inside `data`; a prefetch never
        // faults or changes memory in any case. SSE is part of the x86-64 baseline.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(data.as_ptr().add(a).cast::<i8>()) };
        a += 64;
    }
}

/// `sfence`: makes earlier non-temporal stores globally visible before later stores.
pub(super) fn fence() {
    // SAFETY: `sfence` only needs SSE, which every x86-64 CPU has; it touches no memory.
    unsafe { _mm_sfence() }
}
