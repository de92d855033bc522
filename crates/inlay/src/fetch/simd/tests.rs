//! The SIMD kernels against the reference conversion, bit for bit.

use std::arch::x86_64::*;

use super::fused::*;
use super::vector::*;
use super::*;
use crate::buffer::VertexIds;
use crate::convert::{snorm_to_f32_bits, unorm_to_f32_bits};
use crate::fetch::program::LaneProgram;
use crate::format::{Kind, vertex_formats};

/// `vertex_ids` (four 16-byte records a step) against records built field by field: every
/// length 0..=13 of the id list, an output shorter, equal and longer, positions that wrap
/// past 2^64; it writes the whole fours of `min(out, ids)` and nothing else.
#[test]
fn vertex_ids_are_the_records_field_by_field() {
    if !has_avx2() {
        eprintln!("SKIPPED vertex_ids_are_the_records_field_by_field: no AVX2");
        return;
    }
    let junk = VertexIds {
        position: 0xdead,
        vertex_id: 0xbeef,
        instance_id: 0xf00d,
    };
    for len in 0..=13usize {
        let ids: Vec<u32> = (0..len as u32)
            .map(|k| k.wrapping_mul(0x9e37_79b9))
            .collect();
        for out_len in [len.saturating_sub(3), len, len + 2] {
            for first in [0u64, 5, u64::MAX - 1] {
                let mut out = vec![junk; out_len];
                let done = vertex_ids(&mut out, &ids, first, 0x1234_5678);
                assert_eq!(done, out_len.min(len) / 4 * 4, "len {len} out {out_len}");
                for (j, o) in out.iter().enumerate() {
                    let want = if j < done {
                        VertexIds {
                            position: first.wrapping_add(j as u64),
                            vertex_id: ids[j],
                            instance_id: 0x1234_5678,
                        }
                    } else {
                        junk
                    };
                    assert_eq!(*o, want, "len {len} out {out_len} first {first} record {j}");
                }
            }
        }
    }
}

/// `max_vertex` (eight lanes at a time, then the tail) against the plain maximum of the
/// wrapped sums, for every length 0..=40 (whole vectors, tails, empty) and bases that make
/// some sums wrap past 2^32.
#[test]
fn max_vertex_is_the_largest_wrapped_sum() {
    let mut x = 0x2545_f491u32;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x
    };
    for len in 0..=40 {
        let list: Vec<u32> = (0..len).map(|_| next() >> (next() % 32)).collect();
        for base in [0, 1, 7, 0x8000_0000, u32::MAX - 3, u32::MAX] {
            let want = list.iter().map(|&i| i.wrapping_add(base)).max();
            assert_eq!(max_vertex(&list, base), want, "len {len} base {base:#x}");
        }
    }
}

/// Every UNORM and SNORM component width of the IA vertex formats, from the table.
fn norm_widths() -> Vec<(Kind, u32)> {
    let mut w: Vec<(Kind, u32)> = vertex_formats()
        .flat_map(|f| f.present())
        .filter(|c| matches!(c.kind, Kind::Unorm | Kind::Snorm))
        .map(|c| (c.kind, c.bits as u32))
        .collect();
    w.sort_by_key(|&(k, b)| (k == Kind::Snorm, b));
    w.dedup();
    w
}

#[test]
fn f16c_half_row_equals_the_reference_for_every_half() {
    if !has_fused() {
        eprintln!("skipping: no AVX2+FMA+F16C on this CPU");
        return;
    }
    let mut formats = 0;
    for info in vertex_formats() {
        let Some(p) = LaneProgram::compile(info) else {
            continue;
        };
        let Some(h) = half_program(&p) else {
            continue;
        };
        formats += 1;
        // SAFETY: AVX2 detected above.
        let c = unsafe { Consts2::new(&Consts::new(&h)) };
        let size = p.size as usize;
        for base in (0..=u16::MAX).step_by(2) {
            // Vertex v, half k: base + v + 7k (wrapping), so every lane sees every half.
            let mut bytes = [[0u8; 16]; 2];
            for (v, b) in bytes.iter_mut().enumerate() {
                for k in 0..size / 2 {
                    let half = base.wrapping_add(v as u16).wrapping_add(7 * k as u16);
                    b[2 * k..2 * k + 2].copy_from_slice(&half.to_le_bytes());
                }
            }
            let x: __m256i = bytemuck::cast(bytes);
            // SAFETY: AVX2, FMA and F16C detected above.
            let got: [[u32; 4]; 2] = bytemuck::cast(unsafe { convert2_half(&c, x) });
            for v in 0..2 {
                let want = crate::convert::decode_element(info, &bytes[v][..size]);
                assert_eq!(got[v], want, "{info:?}: bytes {:02x?}", &bytes[v][..size]);
            }
        }
    }
    // R16_FLOAT, R16G16_FLOAT, R16G16B16A16_FLOAT.
    assert_eq!(formats, 3);
}

#[test]
fn fma_quotient_equals_division_for_every_code() {
    if !has_fused() {
        eprintln!("skipping: no AVX2+FMA on this CPU");
        return;
    }
    let widths = norm_widths();
    // UNORM 1, 2, 4, 5, 6, 8, 10, 16 (2: R10G10B10A2's alpha) and SNORM 8, 16.
    let unorm: Vec<u32> = widths
        .iter()
        .filter(|w| w.0 == Kind::Unorm)
        .map(|w| w.1)
        .collect();
    let snorm: Vec<u32> = widths
        .iter()
        .filter(|w| w.0 == Kind::Snorm)
        .map(|w| w.1)
        .collect();
    assert_eq!(
        unorm,
        [1, 2, 4, 5, 6, 8, 10, 16],
        "UNORM widths of the table"
    );
    assert_eq!(snorm, [8, 16], "SNORM widths of the table");
    let mut checked = 0u64;
    for (kind, bits) in widths {
        let (lo, hi, d) = match kind {
            Kind::Unorm => (0i32, (1i32 << bits) - 1, ((1u64 << bits) - 1) as f32),
            _ => (
                -(1i32 << (bits - 1)),
                (1i32 << (bits - 1)) - 1,
                ((1u64 << (bits - 1)) - 1) as f32,
            ),
        };
        let codes: Vec<i32> = (lo..=hi).collect();
        for chunk in codes.chunks(8) {
            let mut x = [0i32; 8];
            x[..chunk.len()].copy_from_slice(chunk);
            let got = quotient_fma_lanes(x, d);
            for (k, &c) in chunk.iter().enumerate() {
                // The IEEE division the reference does, and the reference itself.
                let div = ((c as f32) / d).to_bits();
                assert_eq!(
                    got[k], div,
                    "{kind:?}{bits} code {c}: {:#010x} vs {div:#010x}",
                    got[k]
                );
                let clamped = if f32::from_bits(got[k]) < -1.0 {
                    (-1.0f32).to_bits()
                } else {
                    got[k]
                };
                let reference = match kind {
                    Kind::Unorm => unorm_to_f32_bits(c as u32, bits),
                    _ => snorm_to_f32_bits(c, bits),
                };
                assert_eq!(clamped, reference, "{kind:?}{bits} code {c}");
                checked += 1;
            }
        }
    }
    // 2 + 4 + 16 + 32 + 64 + 256 + 1024 + 65536 UNORM codes, 256 + 65536 SNORM codes.
    assert_eq!(checked, 132_726);
}
