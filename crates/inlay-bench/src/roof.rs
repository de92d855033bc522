//! The true memory roof: the fastest a kernel that reads a workload's input bytes and writes its
//! output bytes can possibly run on this machine, measured by doing only that.
//!
//! One pass over the vertices in blocks of [`BLOCK`] vertices; per block the input bytes are
//! read with 32-byte loads, each exactly once, and the output bytes are written with 32-byte
//! non-temporal stores (`vmovntdq`), each exactly once, in address order; when the output is
//! the larger side (decode), the next block's input lines are prefetched meanwhile (as the
//! decode kernels prefetch a range's input; one thread's demand loads alone are bound by
//! memory latency, not bandwidth, on a server part, and a roof a prefetching kernel can beat
//! is no roof). When the output is
//! larger than the input (decode) output vector `o` of a block is input vector
//! `⌊o·in/out⌋` (kept in a register between its stores); when it is smaller (encode) it is the
//! XOR of the input vectors `⌊o·in/out⌋ .. ⌊(o+1)·in/out⌋`. No conversion work at all, so
//! `decode ÷ roof` says how close a kernel comes to pure data movement. [`memcpy`] moves the
//! same number of output bytes with the C library's `memcpy` so the report can show the roof
//! is not slower than the ordinary way of moving memory (`roof_vs_memcpy`).
//!
//! Without AVX2 (or for an output that is not 32-byte aligned) the same pass runs with 8-byte
//! loads and normal stores.
#![allow(unsafe_code)]

/// Vertices per block of the roof kernel.
pub const BLOCK: usize = 64;

/// Runs the roof over `n` vertices: reads `input[..n·in_bpv]`, writes `out[..n·out_bpv]`.
/// Panics (a harness bug, not an input) when either slice is shorter.
pub fn roof(input: &[u8], in_bpv: usize, out: &mut [u8], out_bpv: usize, n: usize) {
    let (in_len, out_len) = (n * in_bpv, n * out_bpv);
    let (input, out) = (&input[..in_len], &mut out[..out_len]);
    let blocks = n / BLOCK;
    let (in_vecs, out_vecs) = (BLOCK * in_bpv / 32, BLOCK * out_bpv / 32);
    let (bulk_in, bulk_out) = (blocks * in_vecs * 32, blocks * out_vecs * 32);
    #[cfg(target_arch = "x86_64")]
    let done = if std::arch::is_x86_feature_detected!("avx2")
        && out.as_ptr().align_offset(32) == 0
        && in_vecs > 0
        && out_vecs > 0
    {
        // SAFETY: AVX2 was detected; `blocks·in_vecs·32 = blocks·64·in_bpv ≤ input.len()` and
        // `blocks·out_vecs·32 ≤ out.len()` bound every load and store (see `roof_avx2`), and
        // `out` starts 32-byte aligned, as the 32-byte non-temporal stores need (every block
        // is a multiple of 32 bytes long, so each block start stays aligned).
        unsafe {
            roof_avx2(input.as_ptr(), in_vecs, out.as_mut_ptr(), out_vecs, blocks);
        }
        true
    } else {
        false
    };
    #[cfg(not(target_arch = "x86_64"))]
    let done = false;
    if done {
        portable(&input[bulk_in..], &mut out[bulk_out..]);
    } else {
        portable(input, out);
    }
}

/// The same data movement with normal stores: output byte `k` is input byte `⌊k·in/out⌋`
/// (larger output), or the XOR of its share of the input (smaller output), block by block.
fn portable(input: &[u8], out: &mut [u8]) {
    if out.is_empty() {
        return;
    }
    if input.is_empty() {
        out.fill(0);
        return;
    }
    let (i, o) = (input.len(), out.len());
    if o >= i {
        for (k, b) in out.iter_mut().enumerate() {
            *b = input[k * i / o];
        }
    } else {
        for (k, b) in out.iter_mut().enumerate() {
            *b = input[k * i / o..(k + 1) * i / o]
                .iter()
                .fold(0, |a, &x| a ^ x);
        }
    }
}

/// The AVX2 roof over `blocks` blocks of `in_vecs` input and `out_vecs` output vectors.
///
/// # Safety
/// AVX2 must be available; `src` must be readable for `blocks·in_vecs·32` bytes and `dst`
/// writable for `blocks·out_vecs·32` bytes and 32-byte aligned; `in_vecs, out_vecs > 0`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn roof_avx2(src: *const u8, in_vecs: usize, dst: *mut u8, out_vecs: usize, blocks: usize) {
    use std::arch::x86_64::*;
    for b in 0..blocks {
        // SAFETY (whole body): input vector `i < in_vecs` of block `b` lies at
        // `src + 32·(b·in_vecs + i)`, output vector `o < out_vecs` at `dst + 32·(b·out_vecs + o)`,
        // inside the ranges of the contract; the output ones are 32-byte aligned.
        unsafe {
            let s = src.add(32 * b * in_vecs);
            let d = dst.add(32 * b * out_vecs);
            // Decode shape: the next block's input, requested now (what the decode kernels
            // do for a range): without it one thread's loads wait on memory latency, and a
            // kernel that prefetches would outrun the "roof". (The encode shape reads more
            // than it writes and ran slower with it, 0.45-0.6x memcpy, so it does not.) A
            // prefetch never faults; the address is formed with wrapping arithmetic, so one
            // past the input is harmless.
            if out_vecs >= in_vecs {
                let next = s.wrapping_add(32 * in_vecs);
                let mut line = 0;
                while line < 32 * in_vecs {
                    _mm_prefetch::<_MM_HINT_T0>(next.wrapping_add(line).cast::<i8>());
                    line += 64;
                }
            }
            let load = |i: usize| _mm256_loadu_si256(s.add(32 * i).cast::<__m256i>());
            if out_vecs >= in_vecs {
                // Bresenham walk: input vector i feeds outputs ⌈i·out/in⌉ .. ⌈(i+1)·out/in⌉,
                // loaded once and kept in a register.
                let (mut acc, mut i) = (0, 0);
                let mut v = load(0);
                for o in 0..out_vecs {
                    _mm256_stream_si256(d.add(32 * o).cast::<__m256i>(), v);
                    acc += in_vecs;
                    if acc >= out_vecs {
                        acc -= out_vecs;
                        i += 1;
                        if i < in_vecs {
                            v = load(i);
                        }
                    }
                }
            } else {
                for o in 0..out_vecs {
                    let (lo, hi) = (o * in_vecs / out_vecs, (o + 1) * in_vecs / out_vecs);
                    let mut v = load(lo);
                    for i in lo + 1..hi {
                        v = _mm256_xor_si256(v, load(i));
                    }
                    _mm256_stream_si256(d.add(32 * o).cast::<__m256i>(), v);
                }
            }
        }
    }
    _mm_sfence();
}

/// `out.copy_from_slice(src)` (the C library's `memcpy`), the reference the roof is checked
/// against.
pub fn memcpy(src: &[u8], out: &mut [u8]) {
    out.copy_from_slice(src);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 64-byte aligned bytes, as the harness allocates them.
    fn aligned(len: usize) -> crate::AlignedBytes {
        crate::AlignedBytes::zeroed(len)
    }

    #[test]
    fn larger_output_repeats_every_input_vector_in_order() {
        // W2's shape: 28 input and 96 output bytes per vertex, two blocks and a tail of 5.
        let n = 2 * BLOCK + 5;
        let input: Vec<u8> = (0..n * 28).map(|i| (i * 7 + i / 251) as u8).collect();
        let mut out = aligned(n * 96);
        roof(&input, 28, out.as_mut_slice(), 96, n);
        let out = out.as_slice();
        let (iv, ov) = (BLOCK * 28 / 32, BLOCK * 96 / 32);
        let mut seen = vec![false; 2 * iv];
        for b in 0..2 {
            for o in 0..ov {
                let i = o * iv / ov;
                let want = &input[32 * (b * iv + i)..32 * (b * iv + i + 1)];
                assert_eq!(
                    &out[32 * (b * ov + o)..32 * (b * ov + o + 1)],
                    want,
                    "{b} {o}"
                );
                seen[b * iv + i] = true;
            }
        }
        assert!(seen.iter().all(|&s| s), "every input vector is read");
        // The tail: byte k of the last 5·96 output bytes is input byte ⌊k·140/480⌋ of the tail.
        let (ti, to) = (&input[2 * BLOCK * 28..], &out[2 * BLOCK * 96..]);
        for (k, &b) in to.iter().enumerate() {
            assert_eq!(b, ti[k * ti.len() / to.len()], "tail byte {k}");
        }
    }

    #[test]
    fn smaller_output_folds_every_input_vector_once() {
        // An encode shape: 96 input and 28 output bytes per vertex.
        let n = BLOCK;
        let input: Vec<u8> = (0..n * 96).map(|i| (i * 13 + i / 256) as u8).collect();
        let mut out = aligned(n * 28);
        roof(&input, 96, out.as_mut_slice(), 28, n);
        let out = out.as_slice();
        let (iv, ov) = (BLOCK * 96 / 32, BLOCK * 28 / 32);
        for o in 0..ov {
            let mut want = [0u8; 32];
            for i in o * iv / ov..(o + 1) * iv / ov {
                for (w, x) in want.iter_mut().zip(&input[32 * i..32 * i + 32]) {
                    *w ^= x;
                }
            }
            assert_eq!(&out[32 * o..32 * o + 32], &want, "vector {o}");
        }
    }

    #[test]
    fn unaligned_output_takes_the_portable_pass() {
        let n = BLOCK;
        let input: Vec<u8> = (0..n * 48).map(|i| i as u8).collect();
        let mut buf = aligned(n * 64 + 16);
        let out = &mut buf.as_mut_slice()[16..];
        roof(&input, 48, out, 64, n);
        for (k, &b) in out[..n * 64].iter().enumerate() {
            assert_eq!(b, input[k * 48 / 64], "byte {k}");
        }
    }
}
