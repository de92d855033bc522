//! One element's kernel over a block: where its lanes go ([`ElementSink`]: a register-file
//! column or packed rows) and which code converts them (the reference decode when the element
//! has no lane program, the AVX2 kernels, or the program run lane by lane). Each loop is
//! written once, generic over the sink; every instantiation is compiled for its sink.

use super::NO_ADDR;
use super::program;
#[cfg(target_arch = "x86_64")]
use super::simd;
use super::{ElementPlan, Isa};
use crate::convert;

/// Where one element's converted lanes go, vertex by vertex.
pub(super) trait ElementSink {
    /// Stores vertex `i`'s four lanes (as many as the sink keeps).
    fn put(&mut self, i: usize, v: [u32; 4]);

    /// Stores `v` for vertices `0 .. n`.
    #[inline(always)]
    fn fill(&mut self, n: usize, v: [u32; 4]) {
        for i in 0..n {
            self.put(i, v);
        }
    }

    /// The sink's rows and their lanes, when it is [`PackedRows`] (whose pure 32-bit rows the
    /// kernels copy from the records, converting nothing).
    #[inline(always)]
    fn packed_rows(&mut self) -> Option<(&mut [u32], usize)> {
        None
    }
}

/// The sinks the kernels take.
#[cfg(not(target_arch = "x86_64"))]
pub(super) use ElementSink as BlockSink;
/// The sinks the kernels take: with the AVX2 kernels, also their unchecked pair stores.
#[cfg(target_arch = "x86_64")]
pub(super) use simd::PairSink as BlockSink;

/// A register file's column: vertex `i`'s four lanes at `dst[i·stride + pos]`.
pub(super) struct Column<'d> {
    /// The register rows.
    pub dst: &'d mut [[u32; 4]],
    /// Rows per vertex.
    pub stride: usize,
    /// The element's row within a vertex's rows.
    pub pos: usize,
}

impl<'d> Column<'d> {
    /// One row per vertex (`dst[i]`).
    pub fn rows(dst: &'d mut [[u32; 4]]) -> Column<'d> {
        Column {
            dst,
            stride: 1,
            pos: 0,
        }
    }
}

impl ElementSink for Column<'_> {
    #[inline(always)]
    fn put(&mut self, i: usize, v: [u32; 4]) {
        self.dst[i * self.stride + self.pos] = v;
    }
}

/// Packed rows: vertex `i`'s first `lanes` lanes at `dst[i·lanes ..]` (`dst` holds exactly the
/// block's rows; a vertex past them is not stored).
pub(super) struct PackedRows<'d> {
    /// The rows.
    pub dst: &'d mut [u32],
    /// Lanes per row (1 to 4).
    pub lanes: usize,
}

impl ElementSink for PackedRows<'_> {
    #[inline(always)]
    fn put(&mut self, i: usize, v: [u32; 4]) {
        let l = self.lanes;
        if let Some(row) = self.dst.get_mut(i * l..(i + 1) * l) {
            row.copy_from_slice(&v[..l]);
        }
    }

    #[inline(always)]
    fn packed_rows(&mut self) -> Option<(&mut [u32], usize)> {
        Some((&mut *self.dst, self.lanes))
    }
}

/// One element's kernel bound to its buffer.
pub(super) struct Kernel<'k, 'a> {
    /// The instruction set the plan runs on.
    pub isa: Isa,
    /// The element.
    pub e: &'k ElementPlan<'a>,
    /// Its buffer's bytes.
    pub data: &'a [u8],
}

impl Kernel<'_, '_> {
    /// `n` in-bounds elements at `start + i * stride` (checked by the caller) into `sink`.
    pub fn linear<S: BlockSink>(&self, start: usize, stride: usize, n: usize, sink: &mut S) {
        let size = self.e.size as usize;
        let Some(p) = &self.e.program else {
            for i in 0..n {
                let a = start + i * stride;
                sink.put(
                    i,
                    convert::decode_element(self.e.info, &self.data[a..a + size]),
                );
            }
            return;
        };
        if let Some((dst, lanes)) = sink.packed_rows()
            && p.copies_lanes(lanes)
        {
            return self.copy_words(start, stride, n, dst, lanes);
        }
        #[cfg(target_arch = "x86_64")]
        if self.isa.avx2() && simd::linear(p, self.data, start, stride, n, sink) {
            return;
        }
        for i in 0..n {
            let a = start + i * stride;
            sink.put(i, p.run(&program::chunk_at(self.data, a, size)));
        }
    }

    /// Rows of a pure 32-bit copy format
    /// ([`LaneProgram::copies_lanes`](program::LaneProgram::copies_lanes)): the first `lanes`
    /// 32-bit words of each of the `n` in-bounds records at `start + i·stride` into the `n` rows
    /// of `dst`.
    fn copy_words(&self, start: usize, stride: usize, n: usize, dst: &mut [u32], lanes: usize) {
        #[cfg(target_arch = "x86_64")]
        if self.isa.avx2() {
            return simd::copy_rows(self.data, start, stride, n, dst, lanes);
        }
        for (i, row) in dst.chunks_exact_mut(lanes).take(n).enumerate() {
            let a = start + i * stride;
            let words = self.data[a..a + 4 * lanes].chunks_exact(4);
            for (x, w) in row.iter_mut().zip(words) {
                *x = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
            }
        }
    }

    /// One element per address ([`NO_ADDR`]: out of bounds) into `sink`.
    pub fn list<S: BlockSink>(&self, addrs: &[usize], sink: &mut S) {
        let size = self.e.size as usize;
        let Some(p) = &self.e.program else {
            for (i, &a) in addrs.iter().enumerate() {
                let v = if a == NO_ADDR {
                    self.e.oob
                } else {
                    convert::decode_element(self.e.info, &self.data[a..a + size])
                };
                sink.put(i, v);
            }
            return;
        };
        #[cfg(target_arch = "x86_64")]
        if self.isa.avx2() && simd::list(p, self.data, addrs, sink) {
            return;
        }
        for (i, &a) in addrs.iter().enumerate() {
            // An out-of-bounds fetch decodes as all-zero bytes: present lanes 0, defaults
            // elsewhere — exactly convert::out_of_bounds.
            let chunk = if a == NO_ADDR {
                [0; 16]
            } else {
                program::chunk_at(self.data, a, size)
            };
            sink.put(i, p.run(&chunk));
        }
    }
}
