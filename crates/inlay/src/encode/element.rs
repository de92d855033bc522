//! Encoding of one component and one element: the reverse of [`crate::convert`].
//!
//! Every rule below is the one `shared/conformance/SCHEMA.md` (schema 2, "ENCODE case") states
//! for the two roundings; the per-kind arithmetic is chosen so that the result is *exact* (no
//! intermediate rounding), which the exhaustive tests check against integer oracles.
#![forbid(unsafe_code)]

use crate::format::{Component, FloatEncoding, FormatInfo, Kind};

use super::{EncodeError, Rounding};

/// Encodes one register lane into the raw field of `component` (its `bits` low bits; the
/// caller shifts it to the component's bit position).
///
/// * FLOAT, 32 bits: the lane's bits unchanged (NaN payloads, −0, denormals; spec §8.20).
/// * FLOAT, 16/11/10 bits: see [`encode_small_float`].
/// * UNORM n bits: NaN → 0, clamp to [0, 1], the integer nearest to `c·(2^n − 1)` computed
///   exactly, halves rounding up (SCHEMA.md; D3D11.3 §3.2.3.6 allows 0.6 ULP, this is exact).
/// * SNORM n bits: NaN → 0, clamp to [−1, 1], the integer nearest to `c·(2^(n−1) − 1)`,
///   halves away from zero; −1.0 gives `−(2^(n−1) − 1)`, never the most negative code
///   (SCHEMA.md; D3D11.3 §3.2.3.4).
/// * UINT / SINT: the lane as an unsigned / two's-complement integer, saturated to the
///   field's range (SCHEMA.md; D3D11.3 §3.2.3.10, §3.2.3.13).
///
/// Components of other kinds (unused `X` bits, typeless, sRGB, shared exponent) give 0; they
/// never occur in an IA vertex format, which [`super::check_format`] enforces.
///
/// ```
/// use inlay::encode::{encode_component, Rounding};
/// use inlay::format::Format;
/// let unorm8 = Format::R8G8B8A8_UNORM.info().unwrap().components[0];
/// assert_eq!(encode_component(&unorm8, 0.5f32.to_bits(), Rounding::Nearest), 128); // 127.5 → 128
/// let snorm8 = Format::R8G8B8A8_SNORM.info().unwrap().components[0];
/// assert_eq!(encode_component(&snorm8, (-1.0f32).to_bits(), Rounding::Nearest), 0x81); // −127
/// ```
#[inline]
pub fn encode_component(component: &Component, lane: u32, rounding: Rounding) -> u32 {
    let bits = component.bits as u32;
    match component.kind {
        Kind::Float => match component.float_encoding() {
            Some(FloatEncoding::BINARY32) => lane,
            Some(enc) => encode_small_float(lane, enc, rounding),
            None => 0,
        },
        Kind::Unorm => encode_unorm(f32::from_bits(lane), bits),
        Kind::Snorm => encode_snorm(f32::from_bits(lane), bits),
        Kind::Uint => {
            let max = field_mask(bits);
            lane.min(max)
        }
        Kind::Sint => {
            let v = lane as i32;
            if bits >= 32 {
                return lane;
            }
            let max = (1i32 << (bits - 1)) - 1;
            let min = -(1i32 << (bits - 1));
            (v.clamp(min, max) as u32) & field_mask(bits)
        }
        _ => 0,
    }
}

/// The mask of a field `bits` wide.
#[inline]
pub(crate) const fn field_mask(bits: u32) -> u32 {
    if bits >= 32 {
        u32::MAX
    } else {
        (1u32 << bits) - 1
    }
}

/// UNORM n bits (n ≤ 24) from a binary32 value, as SCHEMA.md's `nearest` defines it.
///
/// Exactness: after the clamp `c = m·2^e` with `m < 2^24`, so `c·(2^n − 1)` has at most
/// 24 + n ≤ 48 significant bits and is exact in binary64; adding 0.5 is exact too whenever the
/// sum can reach the next integer (the sum is ≥ 0.5 and its ulp is at most that of `c·2^n`),
/// and truncating a non-negative binary64 is its floor. So `⌊c·(2^n − 1) + 0.5⌋` is exactly
/// "nearest, halves up".
#[inline]
pub fn encode_unorm(c: f32, bits: u32) -> u32 {
    // f32::max returns the other operand for a NaN: NaN → 0 (clamp would keep the NaN).
    #[allow(clippy::manual_clamp)]
    let c = c.max(0.0).min(1.0);
    let scale = field_mask(bits) as f64;
    (c as f64 * scale + 0.5) as u32
}

/// SNORM n bits (n ≤ 24) from a binary32 value, as SCHEMA.md's `nearest` defines it; the
/// result is the two's-complement field (n low bits). Same exactness argument as
/// [`encode_unorm`], applied to `|c|`.
#[inline]
pub fn encode_snorm(c: f32, bits: u32) -> u32 {
    if c.is_nan() {
        return 0;
    }
    let c = c.clamp(-1.0, 1.0);
    let scale = field_mask(bits - 1) as f64;
    let mag = (c.abs() as f64 * scale + 0.5) as u32;
    let v = if c.is_sign_negative() {
        -(mag as i32)
    } else {
        mag as i32
    };
    (v as u32) & field_mask(bits)
}

/// A binary32 value to a smaller float with a 5-bit exponent (binary16, or the unsigned 11-
/// and 10-bit floats of `R11G11B10_FLOAT`), exactly as SCHEMA.md defines both roundings:
///
/// * [`Rounding::Nearest`]: round to nearest, ties to even; a value too large becomes
///   infinity.
/// * [`Rounding::D3d`]: round toward zero (D3D11.3 §3.2.2, "float32 to lower-precision
///   float"); a finite value too large becomes the largest finite value of its sign.
///
/// In both: denormals of the target are produced (not flushed); a NaN becomes a NaN whose
/// payload is the top mantissa bits of the source, or the quiet NaN (top mantissa bit set)
/// when those bits are all zero; the sign of a NaN is kept where the target has a sign. For
/// the unsigned formats, negative values, −0 and −infinity become +0 (a negative NaN is a
/// NaN).
///
/// ```
/// use inlay::encode::{encode_small_float, Rounding};
/// use inlay::format::FloatEncoding;
/// let half = FloatEncoding::BINARY16;
/// assert_eq!(encode_small_float(1.0f32.to_bits(), half, Rounding::Nearest), 0x3c00);
/// assert_eq!(encode_small_float(70000f32.to_bits(), half, Rounding::Nearest), 0x7c00);
/// assert_eq!(encode_small_float(70000f32.to_bits(), half, Rounding::D3d), 0x7bff);
/// assert_eq!(encode_small_float(0x7fa0_0000, half, Rounding::Nearest), 0x7d00); // sNaN kept
/// ```
pub fn encode_small_float(bits: u32, enc: FloatEncoding, rounding: Rounding) -> u32 {
    let m = enc.mantissa_bits as u32;
    let bias = enc.bias();
    let inf = enc.infinity();
    let negative = bits >> 31 != 0;
    let sign = if negative { enc.sign_mask() } else { 0 };
    let abs = bits & 0x7fff_ffff;
    if abs > 0x7f80_0000 {
        let mut payload = (abs & 0x007f_ffff) >> (23 - m);
        if payload == 0 {
            payload = 1 << (m - 1);
        }
        return sign | inf | payload;
    }
    if negative && !enc.signed {
        return 0;
    }
    if abs == 0x7f80_0000 {
        return sign | inf;
    }
    if abs == 0 {
        return sign;
    }
    // value = sig · 2^x with sig < 2^24.
    let e32 = (abs >> 23) as i32;
    let (sig, x) = if e32 == 0 {
        (abs, -149)
    } else {
        ((abs & 0x007f_ffff) | 0x0080_0000, e32 - 150)
    };
    let top = 31 - sig.leading_zeros() as i32; // value in [2^(top+x), 2^(top+x+1))
    let emin = 1 - bias;
    let te = (top + x).max(emin); // the target exponent (denormals share emin)
    let overflow = if rounding == Rounding::Nearest {
        inf
    } else {
        inf - 1
    };
    if te > bias {
        return sign | overflow;
    }
    let q = te - m as i32; // the target's quantum is 2^q
    let k = if x >= q {
        // Exact: k < 2^(m+1).
        sig << (x - q)
    } else {
        let s = (q - x) as u32;
        if s > 25 {
            0 // value < 2^(q−1): rounds to 0 either way
        } else {
            let k = sig >> s;
            let rem = sig & ((1 << s) - 1);
            let half = 1 << (s - 1);
            match rounding {
                Rounding::D3d => k,
                Rounding::Nearest => {
                    if rem > half || (rem == half && k & 1 == 1) {
                        k + 1
                    } else {
                        k
                    }
                }
            }
        }
    };
    // Normal: k ∈ [2^m, 2^(m+1)) and the field is ((te + bias) << m) + (k − 2^m); a denormal
    // (te = emin, k < 2^m) is k; rounding up to 2^(m+1) carries into the exponent.
    let magnitude = (((te + bias - 1) as u32) << m) + k;
    if magnitude >= inf {
        return sign | overflow;
    }
    sign | magnitude
}

/// Writes `value`'s low `bits` bits at bit position `bit_offset` of a little-endian element
/// (the reverse of [`crate::convert::extract_bits`]); bits outside the field are kept.
#[inline]
pub(crate) fn insert_bits(element: &mut [u8], bit_offset: u32, bits: u32, value: u32) {
    let first = (bit_offset / 8) as usize;
    let last = (bit_offset + bits).div_ceil(8) as usize;
    let shift = bit_offset % 8;
    let mask = (field_mask(bits) as u64) << shift;
    let v = ((value as u64) << shift) & mask;
    for (i, b) in element[first..last].iter_mut().enumerate() {
        let m = (mask >> (8 * i)) as u8;
        *b = (*b & !m) | ((v >> (8 * i)) as u8 & m);
    }
}

/// Encodes four lanes into one element of `info` (already checked encodable), writing
/// exactly `info.byte_size()` bytes at the start of `out`; unused `X` bits are written as 0.
pub(crate) fn encode_into(info: &FormatInfo, lanes: &[u32; 4], rounding: Rounding, out: &mut [u8]) {
    let size = info.byte_size() as usize;
    let element = &mut out[..size];
    element.fill(0);
    for comp in info.present() {
        if let Some(lane) = comp.channel.lane() {
            let raw = encode_component(comp, lanes[lane], rounding);
            insert_bits(element, comp.bit_offset as u32, comp.bits as u32, raw);
        }
    }
}

/// Why `lane` is a value `component` cannot hold — a value the encoder would saturate (UINT,
/// SINT), clamp (UNORM, SNORM: outside [0, 1] or [−1, 1], or NaN), make infinite or clamp to
/// the largest finite value (a finite value too large for a 16/11/10-bit float, per
/// `rounding`), or make +0 (a negative value for an unsigned float): the range the component
/// holds, as text. `None` when the value is held (up to rounding, which is not saturation).
pub fn component_range(component: &Component, lane: u32, rounding: Rounding) -> Option<String> {
    let bits = component.bits as u32;
    match component.kind {
        Kind::Float => {
            let enc = component.float_encoding()?;
            if enc == FloatEncoding::BINARY32 {
                return None;
            }
            let x = f32::from_bits(lane);
            // The largest finite value: all-ones mantissa, the largest exponent below the
            // infinities'.
            let m = enc.mantissa_bits as i32;
            let emax = (1i32 << (enc.exponent_bits - 1)) - 1;
            let max = (2.0 - 2f64.powi(-m)) * 2f64.powi(emax);
            let range = if enc.signed {
                format!("finite values up to ±{max}")
            } else {
                format!("0 to {max}, no negative values")
            };
            if x.is_nan() {
                return None;
            }
            if !enc.signed && x < 0.0 {
                // Negative values become +0: out of range unless they round to 0 anyway.
                return (encode_small_float((-x).to_bits(), enc, rounding) != 0).then_some(range);
            }
            if x.is_infinite() {
                return None;
            }
            let too_large = match rounding {
                // Nearest rounds up to infinity from halfway past the largest finite value.
                Rounding::Nearest => {
                    encode_small_float(lane, enc, rounding) & !enc.sign_mask() == enc.infinity()
                }
                // Toward zero, everything below the next power of two truncates to the
                // largest finite value as any value truncates to its lower neighbour; from
                // there on it is clamped.
                Rounding::D3d => (x.abs() as f64) >= 2f64.powi(emax + 1),
            };
            too_large.then_some(range)
        }
        // Out of range when the code nearest to `x` on the unbounded grid of the format's
        // steps lies past its codes: 1.0000001 is 1 rounded, 1.5 is clamped. Exact in
        // binary64 (the argument of `encode_unorm`).
        Kind::Unorm => {
            let x = f32::from_bits(lane);
            let scale = field_mask(bits) as f64;
            let k = (x as f64 * scale + 0.5).floor();
            (x.is_nan() || k < 0.0 || k > scale).then(|| "0 to 1".to_string())
        }
        Kind::Snorm => {
            let x = f32::from_bits(lane);
            let scale = field_mask(bits - 1) as f64;
            let k = ((x as f64).abs() * scale + 0.5).floor();
            (x.is_nan() || k > scale).then(|| "-1 to 1".to_string())
        }
        Kind::Uint => {
            let max = field_mask(bits);
            (lane > max).then(|| format!("0 to {max}"))
        }
        Kind::Sint => {
            if bits >= 32 {
                return None;
            }
            let v = lane as i32;
            let max = (1i32 << (bits - 1)) - 1;
            let min = -(1i32 << (bits - 1));
            (v < min || v > max).then(|| format!("{min} to {max}"))
        }
        _ => None,
    }
}

/// Whether every component of `info` can be encoded, and the element is an IA vertex format.
pub(crate) fn encodable(info: &FormatInfo) -> Result<(), EncodeError> {
    if !info.is_vertex_format() {
        return Err(EncodeError::NotAVertexFormat {
            format: info.name.to_string(),
        });
    }
    for c in info.present() {
        let ok = match c.kind {
            Kind::Float => c.float_encoding().is_some(),
            Kind::Unorm | Kind::Snorm => {
                (2..=24).contains(&c.bits) || (c.kind == Kind::Unorm && c.bits == 1)
            }
            Kind::Uint | Kind::Sint => (1..=32).contains(&c.bits),
            _ => false,
        };
        if !ok {
            return Err(EncodeError::NotAVertexFormat {
                format: info.name.to_string(),
            });
        }
    }
    Ok(())
}
