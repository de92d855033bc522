//! Every code of every component of ≤ 16 bits of every IA vertex format, through the input
//! assembler, against an independent exact reference (ia-semantics §1.2, §1.3, §2; R44, R48).
//!
//! The reference does not look at the format table: each format's components, bit positions
//! and kind are parsed from its *name* (first-named component in the least significant bits,
//! spec §19.1.3.1), and every expected f32 is computed with integer arithmetic only (correctly
//! rounded quotient, ties to even) — never with an f32 division.

mod ia_support;
mod support;

use ia_support::*;
use inlay::assembler::{DrawCall, InputAssembler, Topology};
use inlay::buffer::VertexBufferBinding;
use inlay::format::{self, Format};
use inlay::target::Target;

#[derive(Clone, Copy, Debug, PartialEq)]
enum RefKind {
    Float,
    Unorm,
    Snorm,
    Uint,
    Sint,
}

#[derive(Clone, Copy, Debug)]
struct RefComponent {
    /// Register lane (R→x, G→y, B→z, A→w), `None` for X bits.
    lane: Option<usize>,
    bit_offset: u32,
    bits: u32,
}

/// Parses `B5G6R5_UNORM` into its components and kind.
fn parse_name(name: &str) -> (Vec<RefComponent>, RefKind) {
    let (layout, suffix) = name.split_once('_').unwrap();
    let kind = match suffix {
        "FLOAT" => RefKind::Float,
        "UNORM" => RefKind::Unorm,
        "SNORM" => RefKind::Snorm,
        "UINT" => RefKind::Uint,
        "SINT" => RefKind::Sint,
        other => panic!("unexpected IA format kind {other} in {name}"),
    };
    let mut comps = Vec::new();
    let mut chars = layout.chars().peekable();
    let mut offset = 0;
    while let Some(c) = chars.next() {
        let mut digits = String::new();
        while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
            digits.push(*d);
            chars.next();
        }
        let bits: u32 = digits.parse().unwrap();
        let lane = match c {
            'R' => Some(0),
            'G' => Some(1),
            'B' => Some(2),
            'A' => Some(3),
            'X' => None,
            other => panic!("unexpected channel {other} in {name}"),
        };
        comps.push(RefComponent {
            lane,
            bit_offset: offset,
            bits,
        });
        offset += bits;
    }
    (comps, kind)
}

/// Expected lane for `code` of a `bits`-wide component of `kind`. Inf/NaN of small floats:
/// Inf exact; NaN per the documented choice (sign | 0x7f800000 | mantissa shifted to the top).
fn expected(kind: RefKind, bits: u32, code: u32) -> u32 {
    match kind {
        RefKind::Unorm => unorm_ref(code, bits),
        RefKind::Snorm => snorm_ref(code, bits),
        RefKind::Uint => code,
        RefKind::Sint => sint_ref(code, bits),
        RefKind::Float => {
            let (mbits, signed) = match bits {
                16 => (10, true),
                11 => (6, false),
                10 => (5, false),
                _ => panic!("no {bits}-bit float"),
            };
            let sign = if signed { (code >> 15) << 31 } else { 0 };
            let mag = if signed { code & 0x7fff } else { code };
            match small_float_ref(mag, mbits) {
                Some(v) => sign | v,
                None => sign | 0x7f80_0000 | ((mag & ((1 << mbits) - 1)) << (23 - mbits)),
            }
        }
    }
}

fn put_bits(element: &mut [u8], bit_offset: u32, bits: u32, value: u32) {
    for b in 0..bits {
        if value >> b & 1 == 1 {
            let at = bit_offset + b;
            element[(at / 8) as usize] |= 1 << (at % 8);
        }
    }
}

#[test]
fn every_code_of_every_small_component() {
    let mut formats = 0;
    let mut components = 0;
    let mut codes = 0u64;
    for info in format::vertex_formats() {
        formats += 1;
        let (comps, kind) = parse_name(info.name);
        let total_bits: u32 = comps.iter().map(|c| c.bits).sum();
        assert_eq!(total_bits, info.bits as u32, "{}", info.name);
        let size = info.byte_size();
        // Missing lanes: 0, 0, 0 and a 1 typed by the kind (R44).
        let one = match kind {
            RefKind::Uint | RefKind::Sint => 1,
            _ => 0x3f80_0000,
        };
        let mut base = [0, 0, 0, one];
        for c in &comps {
            if let Some(l) = c.lane {
                base[l] = 0; // every present component of code 0 converts to bits 0
            }
        }
        let l = layout(vec![vertex_el(Format(info.value), 0, 0, 0)]);
        for comp in comps.iter().filter(|c| c.lane.is_some() && c.bits <= 16) {
            components += 1;
            let lane = comp.lane.unwrap();
            let n = 1u32 << comp.bits;
            let mut data = vec![0u8; (size * n) as usize];
            for code in 0..n {
                let at = (code * size) as usize;
                put_bits(
                    &mut data[at..at + size as usize],
                    comp.bit_offset,
                    comp.bits,
                    code,
                );
            }
            let mut ia = InputAssembler::new(&l, Target::default());
            ia.set_vertex_buffer(
                0,
                Some(VertexBufferBinding {
                    data: &data,
                    stride: size,
                    offset: 0,
                }),
            )
            .unwrap();
            ia.set_topology(Topology::PointList).unwrap();
            let draw = ia
                .draw(&DrawCall::Draw {
                    vertex_count: n,
                    start_vertex: 0,
                })
                .unwrap();
            let mut seen = 0;
            for v in draw.vertices() {
                let code = v.vertex_id;
                let mut want = base;
                want[lane] = expected(kind, comp.bits, code);
                assert_eq!(
                    v.registers[0], want,
                    "{} lane {lane} code {code:#x}: got {:08x?} want {:08x?}",
                    info.name, v.registers[0], want
                );
                seen += 1;
            }
            assert_eq!(seen, n);
            codes += n as u64;
        }
    }
    // The 47 IA vertex formats of ia-semantics §1.1 (XLS), and all their ≤16-bit components.
    assert_eq!(formats, 47);
    assert_eq!(components, 92);
    assert!(codes > 2_000_000, "{codes}");
}

/// Register 0 of every vertex of a point-list draw over `data`, one element of `format` per
/// `size` bytes, in vertex order.
fn decode_all(format: Format, data: &[u8], size: u32) -> Vec<[u32; 4]> {
    let l = layout(vec![vertex_el(format, 0, 0, 0)]);
    let mut ia = InputAssembler::new(&l, Target::default());
    ia.set_vertex_buffer(
        0,
        Some(VertexBufferBinding {
            data,
            stride: size,
            offset: 0,
        }),
    )
    .unwrap();
    ia.set_topology(Topology::PointList).unwrap();
    let draw = ia
        .draw(&DrawCall::Draw {
            vertex_count: data.len() as u32 / size,
            start_vertex: 0,
        })
        .unwrap();
    let mut out = vec![[0u32; 4]; data.len() / size as usize];
    for v in draw.vertices() {
        out[v.vertex_id as usize] = v.registers[0];
    }
    out
}

#[test]
fn half_float_lanes_agree_with_the_half_crate() {
    // A second oracle, independent of this file's integer reference: every R16_FLOAT code
    // through the input assembler against the `half` crate's widening (non-NaN codes), and
    // every NaN code stays a NaN of the same sign.
    let data: Vec<u8> = (0..=0xffffu16).flat_map(u16::to_le_bytes).collect();
    let got = decode_all(Format::R16_FLOAT, &data, 2);
    assert_eq!(got.len(), 0x10000);
    for (code, regs) in got.iter().enumerate() {
        let h = half::f16::from_bits(code as u16);
        let x = f32::from_bits(regs[0]);
        if h.is_nan() {
            assert!(x.is_nan(), "{code:#06x} -> {:#010x}", regs[0]);
            assert_eq!(regs[0] >> 31, code as u32 >> 15, "{code:#06x}");
        } else {
            assert_eq!(regs[0], h.to_f32().to_bits(), "{code:#06x}");
        }
        assert_eq!(regs[1..], [0, 0, 0x3f80_0000], "{code:#06x}");
    }
}

#[test]
fn unorm8_is_the_exact_quotient_not_the_reciprocal_product() {
    // ia-semantics §1.3: x / 255 must be the correctly rounded quotient; x · (1/255) differs
    // by 1 ULP for 126 of the 256 codes. Oracle: the quotient in f64 (exact to 53 bits, so
    // its rounding to f32 is the correctly rounded f32 quotient for these 256 values), and
    // the count of codes where a reciprocal multiply would have been wrong.
    let data: Vec<u8> = (0..=255u8).collect();
    let got = decode_all(Format::R8_UNORM, &data, 1);
    let recip = 1.0f32 / 255.0;
    let mut differs_from_reciprocal = 0;
    for (x, regs) in got.iter().enumerate() {
        let want = (x as f64 / 255.0) as f32;
        assert_eq!(regs[0], want.to_bits(), "code {x}");
        if regs[0] != (x as f32 * recip).to_bits() {
            differs_from_reciprocal += 1;
        }
    }
    assert_eq!(differs_from_reciprocal, 126);
    assert_eq!(got[3][0], 0x3c40_c0c1);
    // SNORM8: -128 and -127 both give -1.0 (D3D11.3 §3.2.3.3), the rest the exact quotient.
    let got = decode_all(Format::R8_SNORM, &data, 1);
    for (byte, regs) in got.iter().enumerate() {
        let x = byte as u8 as i8;
        let want = ((x.max(-127)) as f64 / 127.0) as f32;
        assert_eq!(regs[0], want.to_bits(), "code {x}");
    }
}

#[test]
fn thirty_two_bit_components_pass_through() {
    // Sampled codes for the 32-bit FLOAT/UINT/SINT components: every special class.
    let samples: Vec<u32> = (0..4096u32)
        .map(|i| i.wrapping_mul(0x9e37_79b9))
        .chain([
            0,
            0x8000_0000,
            0x0000_0001,
            0x807f_ffff,
            0x7f80_0000,
            0xff80_0000,
            0x7f80_0001,
            0x7fc0_0000,
            0xffff_ffff,
        ])
        .collect();
    for info in format::vertex_formats() {
        let (comps, kind) = parse_name(info.name);
        if comps.iter().any(|c| c.bits != 32) {
            continue;
        }
        let size = info.byte_size();
        let n = samples.len() as u32;
        let mut data = vec![0u8; (size * n) as usize];
        for (v, s) in samples.iter().enumerate() {
            for (k, c) in comps.iter().enumerate() {
                let at = v * size as usize + (c.bit_offset / 8) as usize;
                data[at..at + 4].copy_from_slice(&s.rotate_left(k as u32 * 7).to_le_bytes());
            }
        }
        let l = layout(vec![vertex_el(Format(info.value), 0, 0, 0)]);
        let mut ia = InputAssembler::new(&l, Target::default());
        ia.set_vertex_buffer(
            0,
            Some(VertexBufferBinding {
                data: &data,
                stride: size,
                offset: 0,
            }),
        )
        .unwrap();
        ia.set_topology(Topology::PointList).unwrap();
        let one = if matches!(kind, RefKind::Uint | RefKind::Sint) {
            1
        } else {
            0x3f80_0000
        };
        let d = ia
            .draw(&DrawCall::Draw {
                vertex_count: n,
                start_vertex: 0,
            })
            .unwrap();
        for v in d.vertices() {
            let s = samples[v.vertex_id as usize];
            let mut want = [0, 0, 0, one];
            for (k, c) in comps.iter().enumerate() {
                want[c.lane.unwrap()] = s.rotate_left(k as u32 * 7);
            }
            assert_eq!(v.registers[0], want, "{}", info.name);
        }
    }
}
