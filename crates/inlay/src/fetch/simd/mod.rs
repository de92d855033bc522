//! SIMD kernels (x86-64, runtime-detected): per-element AVX2 kernels, the fused register-file
//! kernel (AVX2 + FMA + F16C) and, with the `avx512` feature, its AVX-512 form.
//!
//! Each vertex's element is one 128-bit vector: `pshufb` gathers every lane's field bytes
//! ([`LaneProgram::shuffle`](super::program::LaneProgram::shuffle)), `vpsllvd`/`vpsrlvd`/`vpsravd`
//! isolate and extend the field, then the conversion class runs on four lanes at once:
//! `vcvtdq2ps` + `vdivps` (per-element kernels) or the FMA quotient (fused kernels;
//! [`quotient_fma`](fused::quotient_fma), checked equal to the IEEE division for every code),
//! `vmaxps` for the SNORM clamp, and integer operations for the half / 11-bit / 10-bit float
//! widening. The fused kernel (which needs AVX2, FMA and F16C) widens rows of 16-bit halves with
//! F16C's `vcvtph2ps` and puts back the quiet bit of signalling NaNs, which that instruction sets
//! and the reference keeps clear ([`convert2_half`](fused::convert2_half)). Defaults are blended in
//! last. Every operation is exact, so the bits equal
//! [`LaneProgram::run`](super::program::LaneProgram::run)'s.
//!
//! `unsafe` is used for (a) entering `#[target_feature]` functions after
//! `is_x86_feature_detected!` said yes, (b) unaligned loads and stores through raw pointers
//! inside runs whose bounds were checked as a whole beforehand (each site states the check),
//! and (c) non-temporal stores to rows checked to be 16- (or 32-) byte aligned.
//!
//! The files follow the kernels' parts: [`vector`] the conversion over a vector width,
//! [`element`] the per-element kernels, [`fused`] the fused kernel (and its AVX-512 form),
//! [`memory`] the moves that convert nothing.
#![allow(unsafe_code)]

/// Whether AVX2 kernels may run on this CPU (cached by the standard library).
fn has_avx2() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
}

/// The one class dispatch of every kernel: `$go!(CLASS, SIGNED)` for the conversion class and
/// signedness of a row — one const-generic instantiation per arm, so each kernel's loop is
/// compiled per class — after the kernel's own extra arms (`pattern => expression`, tried
/// first). Unknown classes take the small-float arm, as before.
macro_rules! by_class {
    ($class:expr, $signed:expr, $go:ident $(, $extra:pat => $arm:expr)* $(,)?) => {
        match ($class, $signed) {
            $($extra => $arm,)*
            (COPY, _) => $go!(COPY, false),
            (BITS, false) => $go!(BITS, false),
            (BITS, true) => $go!(BITS, true),
            (UNORM, _) => $go!(UNORM, false),
            (SNORM, _) => $go!(SNORM, true),
            _ => $go!(SMALL_FLOAT, false),
        }
    };
}

mod element;
mod fused;
mod memory;
mod vector;

pub(super) use element::{PairSink, copy_rows, linear, list};
#[cfg(feature = "avx512")]
pub(super) use fused::avx512;
pub(super) use fused::{FusedRow, FusedVertices, fused, max_vertex};
pub(super) use memory::{fence, prefetch, stream_copy, stream_copy_lanes, vertex_ids};

#[cfg(test)]
mod tests;
