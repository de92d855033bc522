//! Shared helpers of the `ia_*` tests: layouts built by hand and an exact rational reference
//! for conversions, computed with integers only (no f32 arithmetic).
#![allow(dead_code)]

use inlay::format::Format;
use inlay::layout::{InputClass, InputLayout, LayoutElement};

/// A per-vertex element feeding `register`.
pub fn vertex_el(format: Format, slot: u32, offset: u32, register: u32) -> LayoutElement {
    LayoutElement {
        semantic_name: format!("V{register}"),
        semantic_index: 0,
        format,
        slot,
        offset,
        class: InputClass::PerVertex,
        step_rate: 0,
        register: Some(register),
    }
}

/// A per-instance element with step rate `rate` feeding `register`.
pub fn instance_el(
    format: Format,
    slot: u32,
    offset: u32,
    rate: u32,
    register: u32,
) -> LayoutElement {
    LayoutElement {
        class: InputClass::PerInstance,
        step_rate: rate,
        ..vertex_el(format, slot, offset, register)
    }
}

/// The layout of `elements`, made by `CreateInputLayout` (`crate::support::create_layout`).
pub fn layout(elements: Vec<LayoutElement>) -> InputLayout {
    crate::support::create_layout(&elements)
}

/// Number of significant bits of `x` (0 for 0).
fn bit_len(x: u128) -> i32 {
    128 - x.leading_zeros() as i32
}

/// The binary32 nearest to `num / den` (ties to even), as bits; the quotient must be 0 or in
/// the normal range of f32 (true for every conversion the IA does). Integer arithmetic only.
pub fn ratio_f32(num: u128, den: u128) -> u32 {
    assert!(den > 0);
    if num == 0 {
        return 0;
    }
    // e = floor(log2(num / den)).
    let mut e = bit_len(num) - bit_len(den);
    let below = if e >= 0 {
        num < den << e
    } else {
        num << -e < den
    };
    if below {
        e -= 1;
    }
    // m = num · 2^(23 − e) / den, in [2^23, 2^24).
    let s = 23 - e;
    let (n, d) = if s >= 0 {
        (num << s, den)
    } else {
        (num, den << -s)
    };
    let mut m = n / d;
    let r = n % d;
    assert!((1u128 << 23..1u128 << 24).contains(&m));
    if 2 * r > d || (2 * r == d && m & 1 == 1) {
        m += 1;
    }
    if m == 1 << 24 {
        m = 1 << 23;
        e += 1;
    }
    let biased = e + 127;
    assert!(
        (1..255).contains(&biased),
        "quotient outside the normal f32 range"
    );
    ((biased as u32) << 23) | (m as u32 - (1 << 23))
}

/// UNORM reference: `x / (2^bits − 1)`, correctly rounded.
pub fn unorm_ref(x: u32, bits: u32) -> u32 {
    ratio_f32(x as u128, (1u128 << bits) - 1)
}

/// SNORM reference for the raw `bits`-wide code `code`: the most negative code gives −1.0,
/// otherwise `x / (2^(bits−1) − 1)` correctly rounded, sign applied to the magnitude.
pub fn snorm_ref(code: u32, bits: u32) -> u32 {
    let half = 1u32 << (bits - 1);
    if code == half {
        return 0xbf80_0000;
    }
    let max = (half - 1) as u128;
    if code < half {
        ratio_f32(code as u128, max)
    } else {
        let mag = (1u32 << bits) - code;
        0x8000_0000 | ratio_f32(mag as u128, max)
    }
}

/// Sign-extends a `bits`-wide code without shifts tricks: `code − 2^bits` when the top bit
/// is set.
pub fn sint_ref(code: u32, bits: u32) -> u32 {
    let v = if code >= 1 << (bits - 1) {
        code as i64 - (1i64 << bits)
    } else {
        code as i64
    };
    v as i32 as u32
}

/// Reference widening of an unsigned float with a 5-bit exponent (bias 15) and `mbits`
/// mantissa bits, for finite values: `(2^mbits + f) · 2^(e − 15 − mbits)` or, for e = 0,
/// `f · 2^(−14 − mbits)`, computed as an exact integer ratio. `None` for Inf/NaN codes.
pub fn small_float_ref(code: u32, mbits: u32) -> Option<u32> {
    let e = code >> mbits;
    let f = code & ((1 << mbits) - 1);
    if e == 31 {
        return None;
    }
    Some(if e == 0 {
        ratio_f32(f as u128, 1u128 << (14 + mbits))
    } else {
        ratio_f32(((1u128 << mbits) + f as u128) << e, 1u128 << (15 + mbits))
    })
}

/// Reference for a half: sign + [`small_float_ref`] with 10 mantissa bits.
pub fn half_ref(code: u32) -> Option<u32> {
    small_float_ref(code & 0x7fff, 10).map(|m| m | ((code & 0x8000) << 16))
}

/// Parses hex bytes.
pub fn hex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

#[test]
fn ratio_reference_self_check() {
    // 3/255 = 0x3c40c0c1 (ia-semantics §1.3 worked example); exact powers of two.
    assert_eq!(ratio_f32(3, 255), 0x3c40_c0c1);
    assert_eq!(ratio_f32(1, 1), 0x3f80_0000);
    assert_eq!(ratio_f32(1, 2), 0x3f00_0000);
    assert_eq!(ratio_f32(1, 1 << 24), 0x3380_0000);
    assert_eq!(ratio_f32(65504, 1), 0x477f_e000);
    // 1/3 = 0x3eaaaaab (rounded up), 2/3 = 0x3f2aaaab.
    assert_eq!(ratio_f32(1, 3), 0x3eaa_aaab);
    assert_eq!(ratio_f32(2, 3), 0x3f2a_aaab);
    // Tie: (2^24 + 1) / 2^24 lies halfway between 1.0 and 1.0 + 2^-23 → even (1.0).
    assert_eq!(ratio_f32((1 << 24) + 1, 1 << 24), 0x3f80_0000);
    assert_eq!(ratio_f32((1 << 24) + 3, 1 << 24), 0x3f80_0002);
    assert_eq!(snorm_ref(0x81, 8), 0xbf80_0000);
    assert_eq!(snorm_ref(0xff, 8), 0x8000_0000 | ratio_f32(1, 127));
    assert_eq!(half_ref(0x3c00), Some(0x3f80_0000));
    assert_eq!(half_ref(0x0001), Some(0x3380_0000));
    assert_eq!(half_ref(0x8000), Some(0x8000_0000));
}
