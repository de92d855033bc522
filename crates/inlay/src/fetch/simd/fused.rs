//! The fused register-file kernel (AVX2 + FMA + F16C; with the `avx512` feature, its AVX-512
//! form): every register row of a vertex pair converted and stored straight into the output.
//!
//! The per-element kernels ([`super::element`]) run one element over a block, then (when streaming)
//! copy the block out, so conversion and memory traffic alternate instead of overlapping. The fused
//! kernel walks the vertices two at a time and, for each pair, runs every register row's kernel
//! (two vertices per 256-bit vector, specialised per conversion class exactly like [`convert`] on
//! 256 bits) and stores the results straight into the output rows — non-temporal when streaming —
//! so the stores drain while the next pair is being converted. UNORM/SNORM use the FMA quotient
//! ([`quotient_fma`]) instead of `vdivps`, verified equal to the IEEE division for every code of
//! every width the format table has.

use std::arch::x86_64::*;

use super::super::program::{Conv, LaneProgram};
use super::has_avx2;
use super::vector::*;

/// One register row of a fused block: its program and where vertex `i`'s element bytes start
/// (`data[start + i·stride ..]`).
#[derive(Clone, Copy, Debug)]
pub(in crate::fetch) struct FusedRow<'d> {
    /// The row's program (borrowed from the plan), or `None` for a row that reads no memory
    /// and holds [`FusedRow::constant`] for every vertex.
    pub program: Option<&'d LaneProgram>,
    /// The lanes of a row that reads no memory.
    pub constant: [u32; 4],
    /// The bytes the row reads.
    pub data: &'d [u8],
    /// Address of vertex 0's element.
    pub start: usize,
    /// Bytes between consecutive vertices' elements.
    pub stride: usize,
}

impl FusedRow<'_> {
    /// A row that reads no memory: `lanes` for every vertex.
    pub fn constant(lanes: [u32; 4]) -> FusedRow<'static> {
        FusedRow {
            program: None,
            constant: lanes,
            data: &ZERO16,
            start: 0,
            stride: 0,
        }
    }

    /// The row's program ([`LaneProgram::constant`] for a row that reads no memory).
    fn lane_program(&self) -> LaneProgram {
        self.program
            .copied()
            .unwrap_or_else(|| LaneProgram::constant(self.constant))
    }
}

/// Sixteen zero bytes: the source of rows that read no memory.
static ZERO16: [u8; 16] = [0; 16];

/// Conversion selector of a row that reads no memory (its lanes are `defaults`).
const CONSTANT: u8 = 5;

/// Conversion selector of a row of 16-bit halves converted with F16C (fused kernel only;
/// see [`convert2_half`]).
const HALF: u8 = 6;

/// One row of the fused kernel: constants, class and source.
#[derive(Clone, Copy)]
struct FusedElem {
    c: Consts2,
    class: u8,
    signed: bool,
    /// Whether the row converts the 16 bytes the previous loading row loaded (its shuffle
    /// was moved to select its bytes inside them) instead of loading its own.
    reuse: bool,
    src: *const u8,
    stride: usize,
}

/// `x / d` correctly rounded (round to nearest even) for integer-valued `x` with
/// `|x| < 2^16` and the UNORM/SNORM divisors `d = 2^n − 1` (n ≤ 16) of the IA formats, given
/// `hi = RN(1/d)` and `lo = RN(1/d − hi)`: `RN(x·hi + RN(x·lo))` in one FMA. The sum is `x/d`
/// within about 2^−47 relative, and `x/(2^n − 1)` (the bits of `x` repeating) never lies that
/// close to a rounding midpoint for these widths. Not relied on as a proof: checked against
/// `vdivps` and the reference for every code of every UNORM and SNORM width of the 47 IA
/// formats by `tests::fma_quotient_equals_division_for_every_code`.
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(super) fn quotient_fma(x: __m256, hi: __m256, lo: __m256) -> __m256 {
    _mm256_fmadd_ps(x, hi, _mm256_mul_ps(x, lo))
}

/// [`convert`] on 256 bits with the FMA quotient for UNORM/SNORM (the same bits; see
/// [`quotient_fma`]), for the fused kernel. No `present` mask except for the small floats: a lane
/// without a component selects only zero bytes (0x80 in the shuffle, shifts 0, divisor 1.0), so
/// copies, integers and 0 / 1.0 (or max(0, −1)) give +0.0 there, all bits 0, and `defaults` alone
/// supplies the lane. [`UNORM_BYTES`] rows skip the shifts (see [`byte_program`]).
#[inline]
#[target_feature(enable = "avx2,fma")]
fn convert2_fma<const CLASS: u8, const SIGNED: bool>(c: &Consts2, chunk: __m256i) -> __m256i {
    let x = _mm256_shuffle_epi8(chunk, c.shuffle);
    if CLASS == COPY {
        return _mm256_or_si256(x, c.defaults);
    }
    let x = if CLASS == UNORM_BYTES {
        x
    } else {
        let x = _mm256_sllv_epi32(x, c.shl);
        if SIGNED {
            _mm256_srav_epi32(x, c.shr)
        } else {
            _mm256_srlv_epi32(x, c.shr)
        }
    };
    match CLASS {
        UNORM | UNORM_BYTES | SNORM => {
            let q = quotient_fma(_mm256_cvtepi32_ps(x), c.recip, c.recip_lo);
            let q = if CLASS == SNORM {
                _mm256_max_ps(q, _mm256_set1_ps(-1.0))
            } else {
                q
            };
            _mm256_or_si256(_mm256_castps_si256(q), c.defaults)
        }
        BITS => _mm256_or_si256(x, c.defaults),
        _ => convert::<_, CLASS, SIGNED>(c, chunk),
    }
}

/// A row of 16-bit halves (every present lane a half at a byte boundary; the shuffle, see
/// [`half_program`], leaves each zero-extended in its 32-bit lane, no shifts needed) for two
/// vertices, through F16C's `vcvtph2ps`. That instruction is exact for every half (zeros,
/// subnormals, normals, infinities) but sets the quiet bit of a signalling NaN, which
/// `convert.rs` keeps clear (`sign | 0x7f800000 | mantissa << 13`): NaN lanes get bit 22 put
/// back to the half's bit 9. Absent lanes select zero bytes, so convert to +0.0 and take
/// `defaults`. Checked against the reference for every half by
/// `tests::f16c_half_row_equals_the_reference_for_every_half`.
#[inline]
#[target_feature(enable = "avx2,fma,f16c")]
pub(super) fn convert2_half(c: &Consts2, chunk: __m256i) -> __m256i {
    let x = _mm256_shuffle_epi8(chunk, c.shuffle);
    // Each 128-bit half: four halves in its low 8 bytes; then both vertices' in the low 16.
    let packed = _mm256_packus_epi32(x, x);
    let packed = _mm256_permute4x64_epi64::<0b00_00_10_00>(packed);
    let f = _mm256_cvtph_ps(_mm256_castsi256_si128(packed));
    let nan = _mm256_castps_si256(_mm256_cmp_ps::<_CMP_UNORD_Q>(f, f));
    let quiet = _mm256_and_si256(nan, _mm256_set1_epi32(0x0040_0000));
    let clear = _mm256_andnot_si256(_mm256_slli_epi32::<13>(x), quiet);
    _mm256_or_si256(
        _mm256_andnot_si256(clear, _mm256_castps_si256(f)),
        c.defaults,
    )
}

/// The program [`convert2_half`] runs for `p` — the same lanes with bytes 2 and 3 of every
/// lane's word zeroed, which the shifts (`shl = shr = 16`) would have done — or `None` when `p`
/// is not a row of byte-aligned 16-bit halves.
pub(super) fn half_program(p: &LaneProgram) -> Option<LaneProgram> {
    if p.conv != Conv::SmallFloat || p.present == [0; 4] {
        return None;
    }
    let mut h = *p;
    for lane in 0..4 {
        if p.present[lane] == 0 {
            continue;
        }
        if p.sign_mask[lane] != 0x8000 || p.shl[lane] != 16 || p.shr[lane] != 16 {
            return None;
        }
        h.shuffle[4 * lane + 2] = 0x80;
        h.shuffle[4 * lane + 3] = 0x80;
    }
    Some(h)
}

/// Conversion selector of a UNORM row whose fields are whole bytes (8 or 16 bits at a byte
/// boundary; fused kernel only): the shuffle alone extracts them, zero-extended.
const UNORM_BYTES: u8 = 7;

/// The program the fused kernel runs for an unsigned row whose fields are whole bytes (8 or
/// 16 bits at byte boundaries — R8G8B8A8_UNORM, R16G16_UNORM, R8G8B8A8_UINT, …): the same
/// lanes with the bytes above each field deselected (0x80) and no shifts, which is what
/// `shl = shr = 32 − b` did — with its class, [`COPY`] for UINT and [`UNORM_BYTES`] for UNORM;
/// `None` when `p` is signed, a float, already a copy or has a field that is not whole bytes.
fn byte_program(p: &LaneProgram) -> Option<(LaneProgram, u8)> {
    let class = match p.conv {
        Conv::Bits if !p.signed => COPY,
        Conv::Unorm => UNORM_BYTES,
        _ => return None,
    };
    if p.present == [0; 4] || p.is_copy32() {
        return None;
    }
    let mut b = *p;
    for lane in 0..4 {
        if p.present[lane] == 0 {
            continue;
        }
        // shl = 32 − bits − (offset % 8), shr = 32 − bits.
        let bits = 32 - p.shr[lane];
        if p.shl[lane] != p.shr[lane] || !bits.is_multiple_of(8) {
            return None;
        }
        for k in (bits / 8) as usize..4 {
            b.shuffle[4 * lane + k] = 0x80;
        }
        b.shl[lane] = 0;
        b.shr[lane] = 0;
    }
    Some((b, class))
}

const ST_NORMAL: u8 = 0;
const ST_NT: u8 = 1;

/// Row `e`'s lanes for the vertex pairs in the four vectors `x` (eight vertices, one class
/// dispatch for all), as a macro so that the dispatch and the conversions are compiled into
/// the kernel's loop (`#[inline]` functions this large were left out of line, a call per
/// row).
macro_rules! convert_rows {
    ($e:expr, $x:expr) => {{
        let (e, x): (&FusedElem, [__m256i; PAIRS]) = ($e, $x);
        macro_rules! each {
            ($class:expr, $signed:expr) => {
                x.map(|x| convert2_fma::<{ $class }, { $signed }>(&e.c, x))
            };
        }
        by_class!(e.class, e.signed, each,
            (CONSTANT, _) => [e.c.defaults; PAIRS],
            (UNORM_BYTES, _) => each!(UNORM_BYTES, false),
            (HALF, _) => x.map(|x| convert2_half(&e.c, x)),
        )
    }};
}

/// Stores of the fused kernel: 32-byte non-temporal stores (output 32-byte aligned).
const ST_NT32: u8 = 2;

/// Which rows the `k`-th 32-byte store (`k < w`) of a vertex pair of width `w` holds: the
/// pair's `2·w` rows in address order are the first vertex's rows 0 … w − 1, then the
/// second's, and `p[r][j]` holds row `r` of the first vertex in its low half and of the
/// second in its high half. So with `h = ⌊w/2⌋`: stores `k < h` are the first vertex's rows
/// (2k, 2k + 1) from the low halves ([`LOW`]); with `w` even, the rest are the second
/// vertex's same pairs from the high halves ([`HIGH`]); with `w` odd, store `h` is the first
/// vertex's last row beside the second's row 0 ([`MIXED`]: low half of `p[w − 1]`, high half
/// of `p[0]`), then the second's rows (1, 2), (3, 4), …. The one order both [`emit_pair`]
/// (run-time width) and [`emit_pair_const`] (width 1–8 as a constant) store in.
const fn pair_store(w: usize, k: usize) -> (usize, usize, u8) {
    let h = w / 2;
    if k < h {
        (2 * k, 2 * k + 1, LOW)
    } else if w.is_multiple_of(2) {
        (2 * (k - h), 2 * (k - h) + 1, HIGH)
    } else if k == h {
        (w - 1, 0, MIXED)
    } else {
        (2 * (k - h) - 1, 2 * (k - h), HIGH)
    }
}

/// [`pair_store`]: both rows' low halves.
const LOW: u8 = 0;
/// [`pair_store`]: both rows' high halves.
const HIGH: u8 = 1;
/// [`pair_store`]: the first row's low half and the second row's high half.
const MIXED: u8 = 2;

/// The 32-byte vector of store `$s = pair_store(w, k)` of pair `$j` of `$p`
/// (`vperm2i128` / `vpblendd`). To be expanded with AVX2 enabled.
macro_rules! pair_vector {
    ($p:expr, $j:expr, $s:expr) => {{
        let (a, b, half): (usize, usize, u8) = $s;
        let (x, y) = ($p[a][$j], $p[b][$j]);
        match half {
            LOW => _mm256_permute2x128_si256::<0x20>(x, y),
            HIGH => _mm256_permute2x128_si256::<0x31>(x, y),
            _ => _mm256_blend_epi32::<0xf0>(x, y),
        }
    }};
}

/// Stores the register-file rows of two vertices — `p[r][j]` holds row `r` of the first
/// vertex in its low half and of the second in its high half — at `d` (`2·w` rows) in address
/// order: 32-byte stores of two consecutive rows in [`pair_store`]'s order, or with [`ST_NT`]
/// 16-byte non-temporal stores. A macro, so that it is compiled
/// into the kernel's loop. To be expanded inside `unsafe` with AVX2 enabled, `d` valid for
/// `2·w` rows (`w ≤ 32`), 16-byte aligned with [`ST_NT`], 32-byte aligned with [`ST_NT32`].
macro_rules! emit_pair {
    ($store:expr, $p:expr, $j:expr, $w:expr, $d:expr) => {{
        let (p, j, w, d): (&[[__m256i; PAIRS]; 32], usize, usize, *mut [u32; 4]) = ($p, $j, $w, $d);
        if $store == ST_NT {
            for (r, v) in p[..w].iter().enumerate() {
                _mm_stream_si128(d.add(r).cast(), _mm256_castsi256_si128(v[j]));
            }
            for (r, v) in p[..w].iter().enumerate() {
                _mm_stream_si128(d.add(w + r).cast(), _mm256_extracti128_si256::<1>(v[j]));
            }
        } else {
            let d = d.cast::<__m256i>();
            macro_rules! put {
                ($k:expr, $v:expr) => {
                    if $store == ST_NT32 {
                        _mm256_stream_si256(d.add($k), $v)
                    } else {
                        _mm256_storeu_si256(d.add($k), $v)
                    }
                };
            }
            for k in 0..w {
                put!(k, pair_vector!(p, j, pair_store(w, k)));
            }
        }
    }};
}

/// A store of `v` at byte `OFF` after `d`: a 32-byte non-temporal one (`vmovntdq`) unless
/// `STORE` is [`ST_NORMAL`]. The offset is part of the instruction: the standard
/// `_mm256_stream_si256` is an `asm!` block that takes a bare pointer, so each of its stores
/// costs an address computation (`lea`) of its own.
///
/// # Safety
/// AVX; `d + OFF` valid for 32 bytes, 32-byte aligned unless `STORE` is [`ST_NORMAL`].
#[inline]
#[target_feature(enable = "avx")]
unsafe fn put32<const STORE: u8, const OFF: usize>(d: *mut u8, v: __m256i) {
    // SAFETY: the caller's contract.
    unsafe {
        if STORE == ST_NORMAL {
            _mm256_storeu_si256(d.add(OFF).cast(), v);
        } else {
            std::arch::asm!(
                "vmovntdq ymmword ptr [{d} + {o}], {v}",
                d = in(reg) d,
                o = const OFF,
                v = in(ymm_reg) v,
                options(nostack, preserves_flags),
            );
        }
    }
}

/// [`put32`] for 16 bytes (`vmovntdq` of an `xmm` register unless `STORE` is [`ST_NORMAL`]).
///
/// # Safety
/// AVX; `d + OFF` valid for 16 bytes, 16-byte aligned unless `STORE` is [`ST_NORMAL`].
#[inline]
#[target_feature(enable = "avx")]
unsafe fn put16<const STORE: u8, const OFF: usize>(d: *mut u8, v: __m128i) {
    // SAFETY: the caller's contract.
    unsafe {
        if STORE == ST_NORMAL {
            _mm_storeu_si128(d.add(OFF).cast(), v);
        } else {
            std::arch::asm!(
                "vmovntdq xmmword ptr [{d} + {o}], {v}",
                d = in(reg) d,
                o = const OFF,
                v = in(xmm_reg) v,
                options(nostack, preserves_flags),
            );
        }
    }
}

/// [`emit_pair`] for a width `$w` given as a literal (1 to 8) and the pair's rows at byte
/// `$base` (a constant) after `$d`: every store's offset is a constant of the instruction and
/// every row index a constant. Same contract as [`emit_pair`] for the rows at `$d + $base`.
macro_rules! emit_pair_const {
    ($store:expr, $p:expr, $j:expr, $w:literal, $d:expr, $base:expr) => {{
        let (p, d): (&[[__m256i; PAIRS]; 32], *mut u8) = ($p, $d);
        const J: usize = $j;
        const W: usize = $w;
        const B: usize = $base;
        macro_rules! each {
            ($m:ident) => {
                $m!(0);
                $m!(1);
                $m!(2);
                $m!(3);
                $m!(4);
                $m!(5);
                $m!(6);
                $m!(7);
            };
        }
        if $store == ST_NT {
            macro_rules! row {
                ($r:literal) => {
                    if $r < W {
                        put16::<{ $store }, { B + $r * 16 }>(d, _mm256_castsi256_si128(p[$r][J]));
                        put16::<{ $store }, { B + (W + $r) * 16 }>(
                            d,
                            _mm256_extracti128_si256::<1>(p[$r][J]),
                        );
                    }
                };
            }
            each!(row);
        } else {
            macro_rules! store {
                ($k:literal) => {
                    if $k < W {
                        const S: (usize, usize, u8) = pair_store(W, $k);
                        put32::<{ $store }, { B + $k * 32 }>(d, pair_vector!(p, J, S));
                    }
                };
            }
            each!(store);
        }
    }};
}

/// The rows of a whole step — the vertex pairs `p[0 .. PAIRS]`, `2·PAIRS·w` rows at `d` —
/// with the widths of typical layouts (1 to 8 rows) as constants, so that each store is
/// compiled with constant offsets and without the loop bounds tests of a run-time width.
/// Same contract as [`emit_pair`] for each pair.
macro_rules! emit_step {
    ($store:expr, $p:expr, $w:expr, $d:expr) => {{
        let (p, w, d): (&[[__m256i; PAIRS]; 32], usize, *mut [u32; 4]) = ($p, $w, $d);
        macro_rules! all {
            ($k:literal) => {{
                let b = d.cast::<u8>();
                macro_rules! pair {
                    ($j:literal) => {
                        if $j < PAIRS {
                            emit_pair_const!($store, p, $j % PAIRS, $k, b, 32 * $k * $j);
                        }
                    };
                }
                pair!(0);
                pair!(1);
                pair!(2);
                pair!(3);
                pair!(4);
                pair!(5);
                pair!(6);
                pair!(7);
            }};
        }
        match w {
            1 => all!(1),
            2 => all!(2),
            3 => all!(3),
            4 => all!(4),
            5 => all!(5),
            6 => all!(6),
            7 => all!(7),
            8 => all!(8),
            _ => {
                for j in 0..PAIRS {
                    emit_pair!($store, p, j, w, d.add(2 * j * w));
                }
            }
        }
    }};
}

/// Stores the low halves of `p[0 .. w]` (one vertex's rows) at `d`, 16 bytes each
/// (non-temporal unless `STORE` is [`ST_NORMAL`]).
///
/// # Safety
/// AVX2; `d` valid for `w` rows (`w ≤ 32`), 16-byte aligned unless `STORE` is [`ST_NORMAL`].
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn emit_one<const STORE: u8>(
    p: &[[__m256i; PAIRS]; 32],
    j: usize,
    w: usize,
    d: *mut [u32; 4],
) {
    for (r, v) in p[..w].iter().enumerate() {
        let v = _mm256_castsi256_si128(v[j]);
        // SAFETY: the caller's contract.
        unsafe {
            if STORE == ST_NORMAL {
                _mm_storeu_si128(d.add(r).cast(), v);
            } else {
                _mm_stream_si128(d.add(r).cast(), v);
            }
        }
    }
}

/// Which element of every row vertex `i` of a fused run reads: `first + i` (a range) or
/// `base + indices[i]` (wrapping; an index list).
#[derive(Clone, Copy)]
struct Walk {
    indices: *const u32,
    base: u32,
    first: usize,
}

impl Walk {
    /// # Safety
    /// With `INDEXED`, `indices` must be valid for reading entry `i`.
    #[inline(always)]
    unsafe fn vertex<const INDEXED: bool>(&self, i: usize) -> usize {
        if INDEXED {
            // SAFETY: the caller's contract.
            unsafe { (*self.indices.add(i)).wrapping_add(self.base) as usize }
        } else {
            self.first + i
        }
    }
}

/// Vertices `start .. start + count` of `walk` into rows `out[i·width .. (i + 1)·width]`:
/// `2·PAIRS` per step ([`PAIRS`] 256-bit vectors per row, one class dispatch), the last step of
/// a run storing only the vertices it has. With `SKIP`, rows that read no memory are put in
/// place once and each step converts only the others; with `SAME`, every loading row has the
/// first loading row's stride (one slot: the usual case), so each step of an index list
/// multiplies its vertices' element numbers by it once (in 32-bit lanes) instead of once per
/// row. A range's whole steps load every row from one base address per step, and its input
/// is prefetched 64 vertices ahead ([`PREFETCH_AHEAD`]; the addresses are formed with wrapping
/// arithmetic and a prefetch never faults).
///
/// # Safety
/// AVX2, FMA and F16C; for every vertex `i` of the run and every row, the 16-byte load at
/// `src + walk.vertex(i)·stride` lies inside the row's source (rows that read no memory point
/// at 16 zero bytes with stride 0), `indices` covers the run when `INDEXED`, and rows
/// `start·width .. (start + count)·width` of `out` are writable, with the alignment
/// [`emit_pair`] needs for `STORE` at every even `i − start` (and 16 bytes for a single
/// vertex unless [`ST_NORMAL`]); with `SAME` and `INDEXED`, `walk.vertex(i)·stride` fits in
/// 32 bits for every vertex of the run.
#[target_feature(enable = "avx2,fma,f16c")]
unsafe fn fused_impl<const STORE: u8, const INDEXED: bool, const SKIP: bool, const SAME: bool>(
    elems: &[FusedElem],
    walk: Walk,
    start: usize,
    count: usize,
    out: *mut [u32; 4],
    width: usize,
) {
    const STEP: usize = 2 * PAIRS;
    let zero = _mm256_setzero_si256();
    // `p[r][j]`: row `r` of the step's vertices `2j` (low half) and `2j + 1` (high half).
    // Row-major, so that no two rows of a width up to 16 lie a multiple of 4 KiB apart
    // (pair-major arrays of 1 KiB each did for pairs 0 and 4: loads of one waited on stores
    // to the other, "4K aliasing", and a 16-vertex step ran at 0.75 of an 8-vertex one).
    let mut p = [[zero; PAIRS]; 32];
    // With `SKIP`, rows that read no memory (per-instance, unbound or wholly out-of-bounds
    // elements: W3's four matrix rows) hold the same lanes for every vertex: they are put in
    // place once here, and each step converts only the other rows (`active`). A constant row
    // loads nothing and leaves the previous load alone, so a later row that reuses a load
    // sees the same bytes either way.
    let mut active = [0u8; 32];
    let mut n_active = 0;
    for (r, e) in elems.iter().enumerate() {
        if SKIP && e.class == CONSTANT {
            p[r] = [e.c.defaults; PAIRS];
        } else {
            active[n_active] = r as u8;
            n_active += 1;
        }
    }
    let active = &active[..n_active];
    // A range's first loading row: its buffer is read ahead of the kernel.
    let (pf_src, pf_stride) = elems
        .iter()
        .find(|e| e.class != CONSTANT && !e.reuse)
        .map_or((std::ptr::null(), 0), |e| (e.src, e.stride));
    let end = start + count;
    let mut i = start;
    let base32 = _mm256_set1_epi32(walk.base as i32);
    let stride32 = _mm256_set1_epi32(pf_stride as i32);
    // SAFETY (whole body): the contract above bounds every load, index read and store.
    unsafe {
        // One step of `STEP` vertices: one class dispatch per row converts `PAIRS` vectors. A
        // last step of `m < STEP` repeats its last vertex in the missing places (loads inside
        // the run's bounds) and stores only its `m` vertices. A macro, so that the full steps'
        // loop is compiled with `m = STEP` as a constant.
        macro_rules! step {
            ($m:expr) => {{
                let m: usize = $m;
                let whole = m == STEP;
                let v0 = walk.vertex::<INDEXED>(i);
                // Each vertex's element offset (in units of its row's stride unless `SAME`),
                // for every step but a range's whole ones (which load from one base). With
                // `SAME` every loading row has stride `pf_stride`: the offsets are multiplied
                // once per step, not once per row; for a whole step of an index list in 32-bit
                // lanes (`vpaddd` + `vpmulld`: the caller checked that every product fits),
                // not in emulated 64-bit ones.
                let mut o = [0usize; STEP];
                if SAME && INDEXED && whole {
                    for (c, o) in o.chunks_exact_mut(8).enumerate() {
                        let idx = _mm256_loadu_si256(walk.indices.add(i + 8 * c).cast());
                        let prod = _mm256_mullo_epi32(_mm256_add_epi32(idx, base32), stride32);
                        for (o, p) in o.iter_mut().zip(bytemuck::cast::<__m256i, [u32; 8]>(prod)) {
                            *o = p as usize;
                        }
                    }
                } else if INDEXED || !whole {
                    for (k, o) in o.iter_mut().enumerate() {
                        let v = walk.vertex::<INDEXED>(i + k.min(m - 1));
                        *o = if SAME { v * pf_stride } else { v };
                    }
                }
                let step_offset = v0 * pf_stride;
                if !INDEXED && pf_stride > 0 {
                    // The lines of the vertices `PREFETCH_AHEAD` ahead (a prefetch never
                    // faults, so an address past the buffer is harmless; the pointer is only
                    // formed with wrapping arithmetic).
                    let a = pf_src.wrapping_add((v0 + PREFETCH_AHEAD) * pf_stride);
                    let mut off = 0;
                    while off < STEP * pf_stride {
                        _mm_prefetch::<_MM_HINT_T0>(a.wrapping_add(off).cast());
                        off += 64;
                    }
                }
                let mut x = [zero; PAIRS];
                macro_rules! row {
                    ($e:expr, $r:expr) => {{
                        let (e, r): (&FusedElem, usize) = ($e, $r);
                        if !e.reuse && !INDEXED && whole {
                            // A whole step of a range: consecutive elements from one base
                            // address, each load `base + k·stride` (addressing modes with the
                            // stride or its multiples in registers) instead of a product per
                            // vertex.
                            let s = if SAME { pf_stride } else { e.stride };
                            let b = e.src.add(if SAME { step_offset } else { v0 * s });
                            for (q, x) in x.chunks_exact_mut(2).enumerate() {
                                let b = b.add(4 * q * s);
                                x[0] = _mm256_loadu2_m128i(b.add(s).cast(), b.cast());
                                x[1] = _mm256_loadu2_m128i(
                                    b.add(3 * s).cast(),
                                    b.add(2 * s).cast(),
                                );
                            }
                        } else if !e.reuse {
                            let s = if SAME { 1 } else { e.stride };
                            for (k, x) in x.iter_mut().enumerate() {
                                *x = _mm256_loadu2_m128i(
                                    e.src.add(o[2 * k + 1] * s).cast(),
                                    e.src.add(o[2 * k] * s).cast(),
                                );
                            }
                        }
                        let y = convert_rows!(e, x);
                        *p.get_unchecked_mut(r) = y;
                    }};
                }
                if SKIP {
                    for &r in active {
                        let r = r as usize;
                        row!(elems.get_unchecked(r), r);
                    }
                } else {
                    for (r, e) in elems.iter().enumerate() {
                        row!(e, r);
                    }
                }
                let d = out.add(i * width);
                if whole {
                    emit_step!(STORE, &p, width, d);
                } else {
                    for j in 0..m / 2 {
                        emit_pair!(STORE, &p, j, width, d.add(2 * j * width));
                    }
                    if m % 2 == 1 {
                        emit_one::<STORE>(&p, m / 2, width, d.add((m - 1) * width));
                    }
                }
            }};
        }
        while i + STEP <= end {
            step!(STEP);
            i += STEP;
        }
        if i < end {
            step!(end - i);
        }
    }
}

/// Vertex pairs per step of the fused kernel (two vertices per 256-bit vector). Eight pairs
/// (16 vertices a step) took 10 % fewer instructions but ran W1 at 0.90 of four pairs on this
/// project's 2-core AMD machine (more vectors live across the class dispatch: spills).
const PAIRS: usize = 4;

/// Vertices ahead of a range's current step whose bytes the fused kernel prefetches.
const PREFETCH_AHEAD: usize = 64;

/// Whether the fused kernel can run on this CPU (AVX2, FMA and F16C).
pub(super) fn has_fused() -> bool {
    has_avx2()
        && std::arch::is_x86_feature_detected!("fma")
        && std::arch::is_x86_feature_detected!("f16c")
}

/// The vertices of a fused run.
#[derive(Clone, Copy, Debug)]
pub(in crate::fetch) enum FusedVertices<'i> {
    /// `n` vertices: vertex `i` reads element `i` of every row (`FusedRow::start` is the
    /// address of the run's first vertex).
    Range(usize),
    /// Vertex `i` reads element `base_vertex + indices[i]` (wrapping) of every row
    /// (`FusedRow::start` is the address of element 0).
    Indexed {
        /// Index values.
        indices: &'i [u32],
        /// BaseVertexLocation, as added with wrap-around.
        base_vertex: u32,
        /// The largest vertex the list reads, `max(base_vertex + indices[i])` (wrapping):
        /// [`max_vertex`] of the list, which the caller has already computed.
        last: u32,
    },
}

/// The largest `base + indices[i]` (each sum wrapping to 32 bits), or `None` for an empty
/// list: eight lanes at a time with AVX2 (`vpmaxud` has no SSE2 form, so the portable loop
/// is scalar).
pub(in crate::fetch) fn max_vertex(indices: &[u32], base: u32) -> Option<u32> {
    if indices.is_empty() {
        return None;
    }
    if !has_avx2() {
        return indices.iter().map(|&i| i.wrapping_add(base)).max();
    }
    // SAFETY: AVX2 detected just above.
    Some(unsafe { max_vertex_avx2(indices, base) })
}

#[target_feature(enable = "avx2")]
fn max_vertex_avx2(indices: &[u32], base: u32) -> u32 {
    let b = _mm256_set1_epi32(base as i32);
    let mut m = _mm256_setzero_si256();
    let chunks = indices.chunks_exact(8);
    let rest = chunks.remainder();
    for c in chunks {
        let v: __m256i = bytemuck::cast(<[u32; 8]>::try_from(c).unwrap_or_default());
        m = _mm256_max_epu32(m, _mm256_add_epi32(v, b));
    }
    let lanes: [u32; 8] = bytemuck::cast(m);
    let tail = rest.iter().map(|&i| i.wrapping_add(base));
    lanes.into_iter().chain(tail).max().unwrap_or(0)
}

/// Fills register-file rows `out[i·width .. (i + 1)·width]` (`width = rows.len()`) for
/// vertices `i` of `verts` whose 16-byte loads all lie inside their sources — for a range the
/// leading ones, for an index list all or none — and returns how many that was (the caller
/// does the rest another way). `streaming`: non-temporal stores (when the output is 16-byte
/// aligned). Returns 0 when the CPU lacks AVX2, FMA or F16C, or for more than 32 rows.
pub(in crate::fetch) fn fused(
    rows: &[FusedRow<'_>],
    verts: FusedVertices<'_>,
    out: &mut [[u32; 4]],
    streaming: bool,
    avx512: bool,
) -> usize {
    let width = rows.len();
    if width == 0 || width > 32 || !has_fused() {
        return 0;
    }
    let (indices, base, last) = match verts {
        FusedVertices::Range(n) => {
            let mut fast = n.min(out.len() / width);
            for r in rows {
                let Some(room) = r.data.len().checked_sub(r.start + 16) else {
                    return 0;
                };
                fast = fast.min(room.checked_div(r.stride).map_or(n, |k| k + 1));
            }
            #[cfg(feature = "avx512")]
            let done = if avx512 {
                avx512::quads(rows, fast, out, streaming)
            } else {
                0
            };
            #[cfg(not(feature = "avx512"))]
            let done = {
                let _ = avx512;
                0
            };
            if done == fast {
                return done;
            }
            // The rest (all of it without AVX-512) with AVX2.
            let mut shifted = [rows[0]; 32];
            for (s, r) in shifted.iter_mut().zip(rows) {
                *s = FusedRow {
                    start: r.start + done * r.stride,
                    ..*r
                };
            }
            let walk = (std::ptr::null(), 0, None);
            return done
                + avx2_run(
                    &shifted[..width],
                    walk,
                    fast - done,
                    &mut out[done * width..],
                    streaming,
                );
        }
        FusedVertices::Indexed {
            indices,
            base_vertex,
            last,
        } => {
            // The rows fill all of the list or none of it, so `last` covers what is loaded.
            if indices.is_empty() || out.len() / width < indices.len() {
                return 0;
            }
            (indices, base_vertex, last as usize)
        }
    };
    avx2_run(
        rows,
        (indices.as_ptr(), base, Some(last)),
        indices.len(),
        out,
        streaming,
    )
}

/// The AVX2 form of [`fused`] over `n` vertices: a range (`walk.2 = None`; loads checked by
/// the caller for vertices `0 .. n`), or the index list at `walk.0` (`n` entries, `walk.1`
/// added) whose largest vertex is `walk.2` (loads checked here). Returns `n`, or 0 when a
/// row's load cannot be placed inside its source.
fn avx2_run(
    rows: &[FusedRow<'_>],
    walk: (*const u32, u32, Option<usize>),
    n: usize,
    out: &mut [[u32; 4]],
    streaming: bool,
) -> usize {
    let width = rows.len();
    if n == 0 {
        return 0;
    }
    if width > 32 {
        return 0;
    }
    // Only the `width` rows in use are written (a whole array of 32 would be 15 KiB of
    // set-up per call, which a draw fetched in batches of ~1000 vertices pays every batch).
    let mut elems = [const { std::mem::MaybeUninit::<FusedElem>::uninit() }; 32];
    // The last row that loads: (its source, stride, load base). A later row whose bytes lie
    // in the same 16 bytes of every vertex converts that load (W2: two loads per vertex, not
    // six).
    let mut window: Option<(&[u8], usize, usize)> = None;
    for (e, r) in elems.iter_mut().zip(rows) {
        let mut p = r.lane_program();
        if p.present == [0; 4] {
            // Reads nothing: keeps the previous row's load, ignores it.
            e.write(FusedElem {
                // SAFETY: AVX2 detected by the caller.
                c: unsafe { Consts2::new(&Consts::new(&p)) },
                class: CONSTANT,
                signed: false,
                reuse: true,
                src: ZERO16.as_ptr(),
                stride: 0,
            });
            continue;
        }
        let mut class = class_of(&p);
        if let Some(h) = half_program(&p) {
            (p, class) = (h, HALF);
        } else if let Some((b, c)) = byte_program(&p) {
            (p, class) = (b, c);
        }
        let size = p.size as usize;
        let (reuse, delta, base) = match window {
            Some((data, stride, base))
                if std::ptr::eq(data, r.data)
                    && stride == r.stride
                    && r.start >= base
                    && r.start + size <= base + 16 =>
            {
                (true, r.start - base, base)
            }
            _ => {
                // A new load. For an index list, the largest vertex's 16 bytes must lie inside
                // the source: when they would pass its end, the load starts up to 16 − size
                // bytes earlier and the shuffle selects further in (the element itself is in
                // bounds, checked by the plan).
                let back = match walk.2 {
                    None => 0,
                    Some(last) => {
                        let end = last
                            .checked_mul(r.stride)
                            .and_then(|a| a.checked_add(r.start + 16));
                        match end {
                            Some(end) => end.saturating_sub(r.data.len()),
                            None => return 0,
                        }
                    }
                };
                if back > 16 - size || back > r.start {
                    return 0;
                }
                let base = r.start - back;
                window = Some((r.data, r.stride, base));
                (false, back, base)
            }
        };
        // Byte k < size of this row is byte `delta + k` (< 16) of the load, for every vertex
        // (same source, same stride).
        for b in p.shuffle.iter_mut().filter(|b| **b != 0x80) {
            *b += delta as u8;
        }
        e.write(FusedElem {
            // SAFETY: AVX2 detected by the caller.
            c: unsafe { Consts2::new(&Consts::new(&p)) },
            class,
            signed: p.signed,
            reuse,
            src: r.data[base..].as_ptr(),
            stride: r.stride,
        });
    }
    let walk_last = walk.2;
    let walk = Walk {
        indices: walk.0,
        base: walk.1,
        first: 0,
    };
    let indexed = !walk.indices.is_null();
    // SAFETY: the loop above wrote each of the first `width` entries (`rows` has `width`
    // entries, `width ≤ 32`; every path through its body that does not return writes `e`),
    // and `MaybeUninit<FusedElem>` has the layout of `FusedElem`.
    let elems: &[FusedElem] =
        unsafe { std::slice::from_raw_parts(elems.as_ptr().cast::<FusedElem>(), width) };
    let p = out.as_mut_ptr();
    let addr = p as usize;
    // SAFETY: AVX2, FMA and F16C were detected (`has_fused`); the loads of every vertex were
    // checked — for a range by the caller (`fused`), for an index list above (the largest
    // vertex, with the load moved back where needed) — and `out` holds `n·width` rows
    // (`fused` took `n ≤ out.len() / width`). Stores: normal ones need no alignment; with
    // non-temporal stores the run starts 32-byte aligned (ST_NT32), or a first vertex of an
    // odd-width row is peeled with 16-byte stores so the rest starts 32-byte aligned, or (even
    // width, 16 bytes off) every store is a 16-byte one (ST_NT), 16-byte alignment checked.
    unsafe {
        let skip = elems.iter().any(|e| e.class == CONSTANT);
        let mut loading = elems.iter().filter(|e| e.class != CONSTANT && !e.reuse);
        let first = loading.next().map(|e| e.stride);
        // One stride; for an index list, also every element offset `vertex · stride` within
        // 32 bits (the kernel then multiplies in 32-bit lanes).
        let same = loading.all(|e| Some(e.stride) == first)
            && walk_last.is_none_or(|last| {
                (last as u64)
                    .checked_mul(first.unwrap_or(0) as u64)
                    .is_some_and(|end| end <= u32::MAX as u64)
            });
        macro_rules! go {
            ($st:expr, $start:expr, $count:expr) => {
                match (indexed, skip, same) {
                    (true, true, true) => fused_impl::<{ $st }, true, true, true>(
                        elems, walk, $start, $count, p, width,
                    ),
                    (true, true, false) => fused_impl::<{ $st }, true, true, false>(
                        elems, walk, $start, $count, p, width,
                    ),
                    (true, false, true) => fused_impl::<{ $st }, true, false, true>(
                        elems, walk, $start, $count, p, width,
                    ),
                    (true, false, false) => fused_impl::<{ $st }, true, false, false>(
                        elems, walk, $start, $count, p, width,
                    ),
                    (false, true, true) => fused_impl::<{ $st }, false, true, true>(
                        elems, walk, $start, $count, p, width,
                    ),
                    (false, true, false) => fused_impl::<{ $st }, false, true, false>(
                        elems, walk, $start, $count, p, width,
                    ),
                    (false, false, true) => fused_impl::<{ $st }, false, false, true>(
                        elems, walk, $start, $count, p, width,
                    ),
                    (false, false, false) => fused_impl::<{ $st }, false, false, false>(
                        elems, walk, $start, $count, p, width,
                    ),
                }
            };
        }
        if !streaming || !addr.is_multiple_of(16) {
            go!(ST_NORMAL, 0, n);
        } else if addr.is_multiple_of(32) {
            go!(ST_NT32, 0, n);
        } else if width % 2 == 1 {
            go!(ST_NT, 0, 1);
            go!(ST_NT32, 1, n - 1);
        } else {
            go!(ST_NT, 0, n);
        }
    }
    n
}

// The AVX-512 kernel (cargo feature `avx512`: its intrinsics need Rust 1.89, above the
// crate's minimum supported version).
#[cfg(feature = "avx512")]
#[allow(clippy::incompatible_msrv)]
pub(in crate::fetch) mod avx512;

/// [`quotient_fma`] on eight lanes, for the exhaustive test.
#[cfg(test)]
pub(super) fn quotient_fma_lanes(x: [i32; 8], d: f32) -> [u32; 8] {
    #[target_feature(enable = "avx2,fma")]
    fn go(x: [i32; 8], d: f32) -> [u32; 8] {
        let xf = _mm256_cvtepi32_ps(bytemuck::cast::<[i32; 8], __m256i>(x));
        let q = quotient_fma(xf, _mm256_set1_ps(1.0 / d), _mm256_set1_ps(recip_lo(d)));
        bytemuck::cast(q)
    }
    assert!(has_fused());
    // SAFETY: AVX2 and FMA detected just above.
    unsafe { go(x, d) }
}
