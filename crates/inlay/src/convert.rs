//! Reference conversions: one element's bytes to the four 32-bit lanes of an input register.
//!
//! Everything is driven by the component list of the format's row in
//! [`crate::format::FORMATS`]; the per-kind rules follow the D3D11.3 functional spec and
//! `ia-semantics.md` §1–§2:
//!
//! * 32-bit FLOAT/UINT/SINT: bits copied unchanged (NaN payloads, denormals; spec §8.20).
//! * UINT / SINT narrower than 32 bits: zero- / sign-extended (spec §3.2.3.12, §3.2.3.9).
//! * UNORM n bits: `x / (2^n − 1)` correctly rounded to f32. Both operands are exact in f32,
//!   so one IEEE division is the correctly rounded quotient (spec §3.2.3.5, §3.2.3.2).
//! * SNORM n bits: the most negative code is −1.0 exactly, otherwise `x / (2^(n−1) − 1)`
//!   correctly rounded (spec §3.2.3.3).
//! * 16-bit float: exact widening, subnormals become normal f32 values, ±Inf kept (spec §3.1.5).
//! * 11- and 10-bit unsigned floats of `R11G11B10_FLOAT`: exact (spec §3.1.6, §19.3.3).
//! * Lanes the format does not supply: 0, 0, 0 and a typed 1 (spec §19.1.3.3).
//!
//! NaN widening (open question §5 of `ia-semantics.md`): a 16-, 11- or 10-bit NaN becomes the
//! f32 NaN with the same sign (none for the unsigned formats) and the mantissa shifted to the
//! top of the f32 mantissa (`sign | 0x7f800000 | mant << (23 − mbits)`); the quiet bit is not
//! forced. The spec only requires that a NaN stays a NaN.

// Parsers and the reference path never need `unsafe` (only `fetch::simd` may use it).
#![forbid(unsafe_code)]

use crate::format::{FloatEncoding, FormatInfo, Kind};

/// Widens an IEEE half (binary16) to the bits of the exactly equal binary32, keeping NaN
/// payloads as documented in the module comment.
///
/// ```
/// use inlay::convert::f16_to_f32_bits;
/// assert_eq!(f16_to_f32_bits(0x3c00), 0x3f80_0000); // 1.0
/// assert_eq!(f16_to_f32_bits(0x0001), 0x3380_0000); // 2^-24, a normal f32
/// assert_eq!(f16_to_f32_bits(0xfc00), 0xff80_0000); // -Inf
/// assert_eq!(f16_to_f32_bits(0x7d00), 0x7fa0_0000); // signalling NaN stays signalling
/// ```
pub fn f16_to_f32_bits(h: u16) -> u32 {
    float_to_f32_bits(h as u32, FloatEncoding::BINARY16)
}

/// Widens a float field of encoding `enc` (the low `enc.width()` bits of `field`) to the bits
/// of the exactly equal binary32: subnormals become normal f32 values, infinities stay
/// infinite, a NaN keeps its sign (where the encoding has one) and its payload moved to the
/// top of the f32 mantissa (see the module comment). Every field width the table has
/// ([`FloatEncoding::for_width`]) is exact in binary32; binary32 itself is returned unchanged.
///
/// ```
/// use inlay::convert::float_to_f32_bits;
/// use inlay::format::FloatEncoding;
/// assert_eq!(float_to_f32_bits(15 << 6, FloatEncoding::UFLOAT11), 0x3f80_0000); // 1.0
/// assert_eq!(float_to_f32_bits(1, FloatEncoding::UFLOAT10), 0x3600_0000); // 2^-19
/// ```
pub fn float_to_f32_bits(field: u32, enc: FloatEncoding) -> u32 {
    let f32_enc = FloatEncoding::BINARY32;
    if enc == f32_enc {
        return field;
    }
    let mbits = enc.mantissa_bits as u32;
    let sign = if field & enc.sign_mask() != 0 {
        f32_enc.sign_mask()
    } else {
        0
    };
    let exp = (field >> mbits) & enc.exponent_max();
    let mant = field & enc.mantissa_mask();
    let shift = f32_enc.mantissa_bits as u32 - mbits;
    let magnitude = if exp == enc.exponent_max() {
        // Inf (mant = 0) or NaN with its payload moved to the top of the mantissa.
        f32_enc.infinity() | (mant << shift)
    } else if exp == 0 {
        if mant == 0 {
            0
        } else {
            // Subnormal: mant · 2^(1 − bias − mbits); normalise it into an f32.
            let lead = 31 - mant.leading_zeros(); // position of the highest set bit
            let e = lead as i32 + 1 - enc.bias() - mbits as i32; // unbiased exponent
            let frac = (mant ^ (1 << lead)) << (f32_enc.mantissa_bits as u32 - lead);
            (((e + f32_enc.bias()) as u32) << f32_enc.mantissa_bits) | frac
        }
    } else {
        let e = exp as i32 - enc.bias() + f32_enc.bias();
        ((e as u32) << f32_enc.mantissa_bits) | (mant << shift)
    };
    sign | magnitude
}

/// `x / (2^bits − 1)` correctly rounded, as f32 bits (`bits` ≤ 24).
pub fn unorm_to_f32_bits(x: u32, bits: u32) -> u32 {
    let max = ((1u64 << bits) - 1) as f32;
    ((x as f32) / max).to_bits()
}

/// Signed-normalised `x` (already sign-extended, from a `bits`-wide field) as f32 bits: the
/// most negative code gives −1.0, others `x / (2^(bits−1) − 1)` correctly rounded.
pub fn snorm_to_f32_bits(x: i32, bits: u32) -> u32 {
    let max = ((1i64 << (bits - 1)) - 1) as f32;
    let v = (x as f32) / max;
    if v < -1.0 {
        (-1.0f32).to_bits()
    } else {
        v.to_bits()
    }
}

/// Reads `bits` (≤ 32) bits at bit position `bit_offset` of a little-endian element.
/// The caller guarantees the element holds them.
#[inline]
pub fn extract_bits(element: &[u8], bit_offset: u32, bits: u32) -> u32 {
    let first = (bit_offset / 8) as usize;
    let last = ((bit_offset + bits).div_ceil(8)) as usize;
    let mut acc: u64 = 0;
    for (i, b) in element[first..last].iter().enumerate() {
        acc |= (*b as u64) << (8 * i);
    }
    let shifted = acc >> (bit_offset % 8);
    if bits == 32 {
        shifted as u32
    } else {
        (shifted as u32) & ((1u32 << bits) - 1)
    }
}

/// Converts one component's raw field to its 32-bit lane value.
#[inline]
pub fn convert_component(kind: Kind, bits: u32, raw: u32) -> u32 {
    let sign_extend = |v: u32| -> i32 {
        if bits == 32 {
            v as i32
        } else {
            ((v << (32 - bits)) as i32) >> (32 - bits)
        }
    };
    match kind {
        Kind::Float => match kind.float_encoding(bits as u8) {
            Some(enc) => float_to_f32_bits(raw, enc),
            None => 0,
        },
        Kind::Unorm => unorm_to_f32_bits(raw, bits),
        Kind::Snorm => snorm_to_f32_bits(sign_extend(raw), bits),
        Kind::Uint => raw,
        Kind::Sint => sign_extend(raw) as u32,
        // Not IA-readable kinds: never reached for a vertex format.
        _ => raw,
    }
}

/// The four lanes produced by a fetch that reads `element` (at least `info.byte_size()` bytes)
/// as format `info`: present components converted, missing ones defaulted.
///
/// ```
/// use inlay::convert::decode_element;
/// use inlay::format::Format;
/// let info = Format::B8G8R8A8_UNORM.info().unwrap();
/// let lanes = decode_element(info, &[0x00, 0x00, 0xff, 0x80]);
/// assert_eq!(lanes, [0x3f80_0000, 0, 0, 0x3f00_8081]); // (1.0, 0, 0, 128/255)
/// ```
pub fn decode_element(info: &FormatInfo, element: &[u8]) -> [u32; 4] {
    let mut lanes = defaults(info);
    for comp in info.present() {
        if let Some(lane) = comp.channel.lane() {
            let raw = extract_bits(element, comp.bit_offset as u32, comp.bits as u32);
            lanes[lane] = convert_component(comp.kind, comp.bits as u32, raw);
        }
    }
    lanes
}

/// What an out-of-bounds fetch gives: 0 in every present component, defaults in the missing
/// ones (spec §8.19.2).
pub fn out_of_bounds(info: &FormatInfo) -> [u32; 4] {
    let mut lanes = defaults(info);
    for comp in info.present() {
        if let Some(lane) = comp.channel.lane() {
            lanes[lane] = 0;
        }
    }
    lanes
}

/// The default lanes (0, 0, 0, typed 1).
pub fn defaults(info: &FormatInfo) -> [u32; 4] {
    [0, 0, 0, info.default_lane(3)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::Format;

    #[test]
    fn half_matches_half_crate_for_non_nan() {
        for h in 0..=u16::MAX {
            let v = half::f16::from_bits(h);
            if v.is_nan() {
                let got = f16_to_f32_bits(h);
                assert!(f32::from_bits(got).is_nan());
                assert_eq!(got >> 31, (h >> 15) as u32);
                assert_eq!(got & 0x7fffff, ((h & 0x3ff) as u32) << 13);
            } else {
                assert_eq!(f16_to_f32_bits(h), v.to_f32().to_bits(), "{h:#06x}");
            }
        }
    }

    #[test]
    fn unorm8_exact_examples() {
        assert_eq!(unorm_to_f32_bits(3, 8), 0x3c40_c0c1);
        assert_eq!(unorm_to_f32_bits(255, 8), 0x3f80_0000);
        assert_eq!(unorm_to_f32_bits(0, 16), 0);
    }

    #[test]
    fn snorm_clamps_most_negative() {
        assert_eq!(snorm_to_f32_bits(-128, 8), 0xbf80_0000);
        assert_eq!(snorm_to_f32_bits(-127, 8), 0xbf80_0000);
        assert_eq!(snorm_to_f32_bits(-32768, 16), 0xbf80_0000);
        assert_eq!(snorm_to_f32_bits(127, 8), 0x3f80_0000);
    }

    #[test]
    fn r11g11b10() {
        let info = Format::R11G11B10_FLOAT.info().unwrap();
        // R = 1.0 (e=15, m=0), G = +Inf (e=31, m=0), B = smallest 10-bit subnormal (1 · 2^-19).
        let bits: u32 = (15 << 6) | ((31 << 6) << 11) | (1 << 22);
        let lanes = decode_element(info, &bits.to_le_bytes());
        assert_eq!(lanes, [0x3f80_0000, 0x7f80_0000, 0x3600_0000, 0x3f80_0000]);
    }

    #[test]
    fn missing_components_and_oob() {
        let i = Format::R16G16_SINT.info().unwrap();
        assert_eq!(
            decode_element(i, &[0xff, 0xff, 0x02, 0x00]),
            [0xffff_ffff, 2, 0, 1]
        );
        assert_eq!(out_of_bounds(i), [0, 0, 0, 1]);
        let i = Format::R8G8B8A8_UNORM.info().unwrap();
        assert_eq!(out_of_bounds(i), [0, 0, 0, 0]);
        let i = Format::R32G32_FLOAT.info().unwrap();
        assert_eq!(out_of_bounds(i), [0, 0, 0, 0x3f80_0000]);
    }
}
