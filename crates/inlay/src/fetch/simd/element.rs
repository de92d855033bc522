//! The per-element AVX2 kernels: one element over a block of vertices — a linear run or a list
//! of addresses — into an [`ElementSink`] (a register-file column or packed rows), two vertices
//! per 256-bit vector over the run checked as a whole, and the word copies of pure 32-bit rows.

use std::arch::x86_64::*;

use super::super::NO_ADDR;
use super::super::kernel::{Column, ElementSink, PackedRows};
use super::super::program::LaneProgram;
use super::has_avx2;
use super::vector::*;

/// How many leading elements of a linear run of `n` may use unchecked loads of `load` bytes at
/// `start + i·stride` inside `data_len` bytes.
fn unchecked_loads(data_len: usize, start: usize, stride: usize, load: usize, n: usize) -> usize {
    let Some(room) = data_len.checked_sub(start + load) else {
        return 0;
    };
    // Stride 0: every vertex reads the same place.
    n.min(room.checked_div(stride).map_or(n, |k| k + 1))
}

/// How many leading rows of `lanes` lanes may be stored into `dst_len` lanes by whole pairs
/// of [`store_row_pair`]: a pair starting at row `i` writes up to lane `(i + 1)·lanes + tail`
/// (`tail` = 4 for three- and four-lane rows, stored as whole 16-byte vectors in address
/// order, each overwriting the previous row's spare lane; `lanes` for the packed one- and
/// two-lane pairs).
fn unchecked_rows(dst_len: usize, lanes: usize, n: usize) -> usize {
    let tail = if lanes >= 3 { 4 } else { lanes };
    let Some(dst_room) = dst_len.checked_sub(tail) else {
        return 0;
    };
    n.min(dst_room.checked_div(lanes).map_or(n, |k| k + 1))
}

/// An [`ElementSink`] the AVX2 kernels store pairs of vertices into (one per 128-bit half of a
/// converted 256-bit vector) without bounds checks, over a leading run checked as a whole.
pub(in crate::fetch) trait PairSink: ElementSink {
    /// How many of the leading `n` vertices [`PairSink::put_pair`] may store.
    fn unchecked(&self, n: usize) -> usize;

    /// Stores vertex `i` (low half of `y`) and `i + 1` (high half).
    ///
    /// # Safety
    ///
    /// AVX2 is available and `i + 1 < self.unchecked(n)` for the run's `n`.
    unsafe fn put_pair(&mut self, i: usize, y: __m256i);
}

impl PairSink for Column<'_> {
    fn unchecked(&self, n: usize) -> usize {
        let Some(dst_room) = self.dst.len().checked_sub(self.pos + 1) else {
            return 0;
        };
        // Stride 0: every vertex writes the same place.
        n.min(dst_room.checked_div(self.stride).map_or(n, |k| k + 1))
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn put_pair(&mut self, i: usize, y: __m256i) {
        let out = self.dst.as_mut_ptr();
        let (d0, d1) = (i * self.stride + self.pos, (i + 1) * self.stride + self.pos);
        // SAFETY: `unchecked` guarantees `j·stride + pos < dst.len()` for every vertex j it
        // allows, so both 16-byte unaligned stores write inside `dst`, which we borrow
        // mutably.
        unsafe {
            _mm_storeu_si128(out.add(d0).cast::<__m128i>(), _mm256_castsi256_si128(y));
            _mm_storeu_si128(
                out.add(d1).cast::<__m128i>(),
                _mm256_extracti128_si256::<1>(y),
            );
        }
    }
}

impl PairSink for PackedRows<'_> {
    fn unchecked(&self, n: usize) -> usize {
        unchecked_rows(self.dst.len(), self.lanes, n)
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn put_pair(&mut self, i: usize, y: __m256i) {
        // SAFETY: AVX2 is enabled here; `unchecked` guarantees the pair's lanes lie inside
        // `dst`, which we borrow mutably.
        unsafe { store_row_pair(y, self.dst.as_mut_ptr(), i, self.lanes) }
    }
}

/// The linear kernel: `n` elements at `start + i·stride` into `sink`, two vertices per 256-bit
/// vector over the leading run whose loads and stores were bounds-checked as a whole; the rest
/// one by one through checked slices.
#[target_feature(enable = "avx2")]
#[allow(clippy::too_many_arguments)]
fn linear_impl<S: PairSink, const CLASS: u8, const SIGNED: bool>(
    c: &Consts,
    size: usize,
    data: &[u8],
    start: usize,
    stride: usize,
    n: usize,
    sink: &mut S,
) {
    let fast = sink.unchecked(unchecked_loads(data.len(), start, stride, 16, n)) & !1;
    let c2 = Consts2::new(c);
    let src = data.as_ptr();
    let mut i = 0;
    while i < fast {
        let (a0, a1) = (start + i * stride, start + (i + 1) * stride);
        // SAFETY: `unchecked_loads` guarantees `start + j·stride + 16 <= data.len()` for
        // every j < fast, so both 16-byte unaligned loads read inside `data`.
        let (v0, v1) = unsafe {
            (
                _mm_loadu_si128(src.add(a0).cast::<__m128i>()),
                _mm_loadu_si128(src.add(a1).cast::<__m128i>()),
            )
        };
        let y = convert::<_, CLASS, SIGNED>(&c2, _mm256_set_m128i(v1, v0));
        // SAFETY: AVX2 is enabled here and `i + 1 < fast <= sink.unchecked(n)`.
        unsafe { sink.put_pair(i, y) };
        i += 2;
    }
    for i in fast..n {
        let v = convert::<_, CLASS, SIGNED>(c, load(data, start + i * stride, size));
        sink.put(i, bytemuck::cast(v));
    }
}

/// The element at address `a` (all-zero bytes for [`NO_ADDR`], which decode as
/// `convert::out_of_bounds`).
#[inline]
#[target_feature(enable = "avx2")]
fn load_at(data: &[u8], a: usize, size: usize) -> __m128i {
    if a == NO_ADDR {
        _mm_setzero_si128()
    } else {
        load(data, a, size)
    }
}

/// The address-list kernel: the element at each address into `sink`, two vertices per
/// 256-bit vector (one conversion and one pair store for both) over the leading run the sink
/// can take unchecked, as the linear kernel does; the loads stay checked (addresses are
/// arbitrary).
#[target_feature(enable = "avx2")]
fn list_impl<S: PairSink, const CLASS: u8, const SIGNED: bool>(
    c: &Consts,
    size: usize,
    data: &[u8],
    addrs: &[usize],
    sink: &mut S,
) {
    let fast = sink.unchecked(addrs.len()) & !1;
    let c2 = Consts2::new(c);
    for (k, pair) in addrs[..fast].chunks_exact(2).enumerate() {
        let (v0, v1) = (load_at(data, pair[0], size), load_at(data, pair[1], size));
        let y = convert::<_, CLASS, SIGNED>(&c2, _mm256_set_m128i(v1, v0));
        // SAFETY: AVX2 is enabled here and `2k + 1 < fast <= sink.unchecked(n)`.
        unsafe { sink.put_pair(2 * k, y) };
    }
    for (i, &a) in addrs.iter().enumerate().skip(fast) {
        sink.put(
            i,
            bytemuck::cast(convert::<_, CLASS, SIGNED>(c, load_at(data, a, size))),
        );
    }
}

/// Calls `$f::<S, CLASS, SIGNED>($args)` for the program's class, inside an `unsafe` block
/// whose soundness the caller has established (AVX2 detected).
macro_rules! dispatch {
    ($p:expr, $f:ident, $($arg:expr),*) => {{
        let c = Consts::new($p);
        let size = $p.size as usize;
        // SAFETY (for every arm): the caller checked `has_avx2()`, the only precondition of
        // these `#[target_feature(enable = "avx2")]` functions; they touch memory only
        // through bounds-checked slices and the sink's checked pair stores.
        macro_rules! call {
            ($class:expr, $signed:expr) => {
                unsafe { $f::<_, { $class }, { $signed }>(&c, size, $($arg),*) }
            };
        }
        by_class!(class_of($p), $p.signed, call)
    }};
}

/// AVX2 version of the linear kernel (see `Kernel::linear`); returns `false` (and does
/// nothing) when the CPU lacks AVX2.
pub(in crate::fetch) fn linear<S: PairSink>(
    p: &LaneProgram,
    data: &[u8],
    start: usize,
    stride: usize,
    n: usize,
    sink: &mut S,
) -> bool {
    if !has_avx2() {
        return false;
    }
    dispatch!(p, linear_impl, data, start, stride, n, sink);
    true
}

/// AVX2 version of the address-list kernel (see `Kernel::list`); returns `false` (and does
/// nothing) when the CPU lacks AVX2.
pub(in crate::fetch) fn list<S: PairSink>(
    p: &LaneProgram,
    data: &[u8],
    addrs: &[usize],
    sink: &mut S,
) -> bool {
    if !has_avx2() {
        return false;
    }
    dispatch!(p, list_impl, data, addrs, sink);
    true
}

/// Converted rows of two vertices (`y`: one per 128-bit half) stored as rows `i` and `i + 1`
/// of `lanes` lanes at `out`.
///
/// # Safety
///
/// AVX2 is available and lanes `i·lanes .. (i + 1)·lanes + tail` of `out` are writable (see
/// [`unchecked_rows`]).
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn store_row_pair(y: __m256i, out: *mut u32, i: usize, lanes: usize) {
    // SAFETY (every arm): the caller guarantees the lanes written are inside `out`.
    unsafe {
        match lanes {
            1 => {
                // [x0, x1] into one 8-byte store.
                let v = _mm256_permutevar8x32_epi32(y, _mm256_setr_epi32(0, 4, 0, 0, 0, 0, 0, 0));
                _mm_storel_epi64(out.add(i).cast::<__m128i>(), _mm256_castsi256_si128(v));
            }
            2 => {
                // [x0, y0, x1, y1] into one 16-byte store.
                let v = _mm256_permutevar8x32_epi32(y, _mm256_setr_epi32(0, 1, 4, 5, 0, 0, 0, 0));
                _mm_storeu_si128(out.add(2 * i).cast::<__m128i>(), _mm256_castsi256_si128(v));
            }
            _ => {
                // Whole rows in address order: row i + 1 overwrites row i's spare lane.
                _mm_storeu_si128(
                    out.add(i * lanes).cast::<__m128i>(),
                    _mm256_castsi256_si128(y),
                );
                _mm_storeu_si128(
                    out.add((i + 1) * lanes).cast::<__m128i>(),
                    _mm256_extracti128_si256::<1>(y),
                );
            }
        }
    }
}

/// Copies the first `lanes` 32-bit words of each of `n` in-bounds records at `start + i·stride`
/// into consecutive rows of `dst` (the rows of a pure 32-bit copy format, see
/// [`LaneProgram::copies_lanes`]; `dst` holds exactly `n` rows).
pub(in crate::fetch) fn copy_rows(
    data: &[u8],
    start: usize,
    stride: usize,
    n: usize,
    dst: &mut [u32],
    lanes: usize,
) {
    match lanes {
        1 => copy_rows_of::<1>(data, start, stride, n, dst),
        2 => copy_rows_of::<2>(data, start, stride, n, dst),
        3 => copy_rows_of::<3>(data, start, stride, n, dst),
        _ => copy_rows_of::<4>(data, start, stride, n, dst),
    }
}

/// [`copy_rows`] of `L` lanes: one load and one store per row — 16-byte vectors for three
/// and four lanes (each row's store overwriting the previous row's spare lane), 8- and
/// 4-byte moves for two and one. SSE2 only (x86-64 baseline).
fn copy_rows_of<const L: usize>(
    data: &[u8],
    start: usize,
    stride: usize,
    n: usize,
    dst: &mut [u32],
) {
    let wide = L >= 3;
    let load = if wide { 16 } else { 4 * L };
    // Rows whose loads and stores are all inside the slices (an even number).
    let fast = unchecked_rows(
        dst.len(),
        L,
        unchecked_loads(data.len(), start, stride, load, n),
    ) & !1;
    let src = data.as_ptr();
    let out = dst.as_mut_ptr();
    for i in 0..fast {
        let a = start + i * stride;
        // SAFETY: `unchecked_loads` guarantees `start + j·stride + load <= data.len()` and
        // `unchecked_rows` that lanes `j·L .. j·L + (4 if wide else L)` lie inside `dst` for every
        // j < fast, so each unaligned load reads inside `data` and each store writes inside `dst`
        // (borrowed mutably). Rows are written in address order: a three-lane store's spare fourth
        // lane is the next row's first (`dst` holds exactly `n` rows, so that row exists),
        // rewritten later by this loop or the tail loop.
        unsafe {
            match L {
                1 => out
                    .add(i)
                    .write_unaligned(src.add(a).cast::<u32>().read_unaligned()),
                2 => _mm_storel_epi64(
                    out.add(2 * i).cast::<__m128i>(),
                    _mm_loadl_epi64(src.add(a).cast::<__m128i>()),
                ),
                _ => _mm_storeu_si128(
                    out.add(i * L).cast::<__m128i>(),
                    _mm_loadu_si128(src.add(a).cast::<__m128i>()),
                ),
            }
        }
    }
    for (k, row) in dst.chunks_exact_mut(L).enumerate().take(n).skip(fast) {
        let a = start + k * stride;
        for (l, x) in row.iter_mut().enumerate() {
            let w = data
                .get(a + 4 * l..a + 4 * l + 4)
                .and_then(|w| w.try_into().ok());
            *x = w.map_or(0, u32::from_le_bytes);
        }
    }
}
