//! Moves that convert nothing: non-temporal copies and row stores, prefetches, the store fence
//! and the system-value records of a block.

use std::arch::x86_64::*;

use super::has_avx2;
use crate::buffer::VertexIds;

/// Copies `src` to `dst` (32-bit lanes) with 32-byte non-temporal stores from the first
/// 32-byte aligned lane on; normal stores before it and for the last partial vector.
pub(in crate::fetch) fn stream_copy_lanes(dst: &mut [u32], src: &[u32]) {
    if !has_avx2() {
        dst.copy_from_slice(src);
        return;
    }
    // SAFETY: AVX2 detected just above.
    unsafe { stream_copy_lanes_avx2(dst, src) }
}

#[target_feature(enable = "avx2")]
fn stream_copy_lanes_avx2(dst: &mut [u32], src: &[u32]) {
    let n = dst.len().min(src.len());
    let head = dst.as_ptr().cast::<u8>().align_offset(32) / 4;
    // A `u32` slice is 4-byte aligned, so `head` < 8 lanes reach a 32-byte boundary.
    let head = head.min(n);
    dst[..head].copy_from_slice(&src[..head]);
    let blocks = (n - head) / 8;
    let d = dst[head..].as_mut_ptr();
    let s = src[head..].as_ptr();
    for k in 0..blocks {
        // SAFETY: lanes `head + 8k .. head + 8k + 8` exist in both slices (8k + 8 <= n − head);
        // `dst + head` is 32-byte aligned (align_offset above), so the non-temporal store is
        // aligned; the source load is unaligned-tolerant.
        unsafe {
            let v = _mm256_loadu_si256(s.add(8 * k).cast::<__m256i>());
            _mm256_stream_si256(d.add(8 * k).cast::<__m256i>(), v);
        }
    }
    let done = head + 8 * blocks;
    dst[done..n].copy_from_slice(&src[done..n]);
}

/// Copies `src` to `dst` with non-temporal stores (normal stores when `dst` is not 16-byte
/// aligned).
pub(in crate::fetch) fn stream_copy(dst: &mut [[u32; 4]], src: &[[u32; 4]]) {
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
fn stream_row(d: &mut [u32; 4], v: [u32; 4]) {
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
pub(in crate::fetch) fn prefetch(data: &[u8], lo: usize, hi: usize) {
    let hi = hi.min(data.len());
    let mut a = lo;
    while a < hi {
        // SAFETY: `a < data.len()`, so the address lies inside `data`; a prefetch never
        // faults or changes memory in any case. SSE is part of the x86-64 baseline.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(data.as_ptr().add(a).cast::<i8>()) };
        a += 64;
    }
}

/// Writes `out[j] = VertexIds { position: first + j, vertex_id: ids[j], instance_id }` for
/// `j < min(out.len(), ids.len())` (positions wrapping) and returns how many it wrote: four
/// records per step with AVX2 (16 bytes each, `VertexIds` being `repr(C)`), none without.
pub(in crate::fetch) fn vertex_ids(
    out: &mut [VertexIds],
    ids: &[u32],
    first: u64,
    instance_id: u32,
) -> usize {
    if !has_avx2() {
        return 0;
    }
    // SAFETY: AVX2 detected just above.
    unsafe { vertex_ids_avx2(out, ids, first, instance_id) }
}

#[target_feature(enable = "avx2")]
fn vertex_ids_avx2(out: &mut [VertexIds], ids: &[u32], first: u64, instance_id: u32) -> usize {
    const _: () = assert!(std::mem::size_of::<VertexIds>() == 16);
    let n = out.len().min(ids.len()) / 4 * 4;
    let high = _mm256_set1_epi64x(((instance_id as u64) << 32) as i64);
    let step = _mm256_set1_epi64x(4);
    let f = first as i64;
    let mut pos = _mm256_set_epi64x(f.wrapping_add(3), f.wrapping_add(2), f.wrapping_add(1), f);
    for (o, v) in out[..n].chunks_exact_mut(4).zip(ids.chunks_exact(4)) {
        let v: __m128i = bytemuck::cast(<[u32; 4]>::try_from(v).unwrap_or_default());
        // The second 8 bytes of each record: vertex ID, then instance ID.
        let w = _mm256_or_si256(_mm256_cvtepu32_epi64(v), high);
        let lo = _mm256_unpacklo_epi64(pos, w);
        let hi = _mm256_unpackhi_epi64(pos, w);
        let d = o.as_mut_ptr().cast::<__m256i>();
        // SAFETY: `o` is four 16-byte `repr(C)` records (position, vertex ID, instance ID):
        // 64 writable bytes at `d`, written unaligned.
        unsafe {
            _mm256_storeu_si256(d, _mm256_permute2x128_si256::<0x20>(lo, hi));
            _mm256_storeu_si256(d.add(1), _mm256_permute2x128_si256::<0x31>(lo, hi));
        }
        pos = _mm256_add_epi64(pos, step);
    }
    n
}

/// `sfence`: makes earlier non-temporal stores globally visible before later stores.
pub(in crate::fetch) fn fence() {
    // SAFETY: `sfence` only needs SSE, which every x86-64 CPU has; it touches no memory.
    unsafe { _mm_sfence() }
}
