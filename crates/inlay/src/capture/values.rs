//! Numbers as dumps print them.
//!
//! 3DMigoto prints floats with `%.9g` (the shortest text that round-trips an `f32`), and the
//! Microsoft C runtime it is built with spells non-finite values `1.#INF`, `-1.#INF`,
//! `1.#QNAN`, `-1.#QNAN`, `-1.#IND` and `1.#SNAN` (sometimes followed by zeros: `1.#QNAN0`).
//! Python-written dumps use `nan`, `inf`, `-inf`; RenderDoc prints `NaN`/`Inf`.

use crate::format::Kind;

/// Register-lane bits of one printed value for a component of `kind`: the `f32` bits for
/// FLOAT/UNORM/SNORM components (the decimal is rounded to the nearest `f32`, so every
/// `%.9g` print gives back its exact value), the two's-complement bits for UINT/SINT.
///
/// Non-finite spellings: `±1.#INF`/`±inf` → ±infinity; `±1.#QNAN`/`±nan` → quiet NaN
/// `sign | 0x7fc00000`; `-1.#IND` → `0xffc00000` (the x86 "indefinite"); `±1.#SNAN` →
/// `sign | 0x7f800001` (the text keeps no payload, so any signalling NaN is as good).
///
/// ```
/// use inlay::capture::parse_value;
/// use inlay::format::Kind;
/// assert_eq!(parse_value(b"0.501960814", Kind::Unorm), Ok(0x3f008081));
/// assert_eq!(parse_value(b"-1.#QNAN", Kind::Float), Ok(0xffc00000));
/// assert_eq!(parse_value(b"1.#INF", Kind::Float), Ok(0x7f800000));
/// assert_eq!(parse_value(b"-3", Kind::Sint), Ok(0xfffffffd));
/// assert!(parse_value(b"1.5", Kind::Uint).is_err());
/// ```
pub fn parse_value(text: &[u8], kind: Kind) -> Result<u32, &'static str> {
    let t = text.trim_ascii();
    if t.is_empty() {
        return Err("empty value");
    }
    let s = std::str::from_utf8(t).map_err(|_| "not a number")?;
    match kind {
        Kind::Uint => s
            .parse::<u32>()
            .map_err(|_| "not an unsigned integer from 0 to 4294967295 (the format is UINT)"),
        Kind::Sint => s
            .parse::<i32>()
            .map(|v| v as u32)
            .map_err(|_| "not an integer from -2147483648 to 2147483647 (the format is SINT)"),
        _ => parse_float(s),
    }
}

fn parse_float(s: &str) -> Result<u32, &'static str> {
    let (negative, body) = match s.as_bytes()[0] {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    let sign = if negative { 0x8000_0000 } else { 0 };
    if let Some(special) = body.strip_prefix("1.#") {
        let word: String = special
            .chars()
            .take_while(|c| c.is_ascii_alphabetic())
            .collect::<String>()
            .to_ascii_uppercase();
        let rest = &special[word.len()..];
        if !rest.bytes().all(|b| b.is_ascii_digit()) {
            return Err("not a number");
        }
        return match word.as_str() {
            "INF" => Ok(sign | 0x7f80_0000),
            "QNAN" => Ok(sign | 0x7fc0_0000),
            "IND" => Ok(sign | 0x7fc0_0000),
            "SNAN" => Ok(sign | 0x7f80_0001),
            _ => Err("not a number"),
        };
    }
    let lower = body.to_ascii_lowercase();
    match lower.as_str() {
        "nan" | "qnan" => return Ok(sign | 0x7fc0_0000),
        "inf" | "infinity" => return Ok(sign | 0x7f80_0000),
        _ => {}
    }
    // Plain decimal: digits, one point, an exponent. Reject what Rust's parser would also take
    // but a dump never writes ("infinity" handled above).
    if !body
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'-' | b'+'))
    {
        return Err("not a number");
    }
    s.parse::<f32>()
        .map(f32::to_bits)
        .map_err(|_| "not a number")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_round_trip_exactly() {
        for bits in [
            0u32,
            0x8000_0000,
            1,
            0x3f80_0000,
            0xbf80_0000,
            0x7f7f_ffff,
            0x0080_0000,
            0x3eaa_aaab,
        ] {
            let f = f32::from_bits(bits);
            // `{:e}` with 9 significant digits is what %.9g carries.
            let text = format!("{f:.8e}");
            assert_eq!(
                parse_value(text.as_bytes(), Kind::Float),
                Ok(bits),
                "{text}"
            );
        }
        // 3DMigoto's %.9g print of the f32 0x2f0310d0.
        assert_eq!(parse_value(b"1.19203536e-10", Kind::Float), Ok(0x2f03_10d0));
    }

    #[test]
    fn msvc_and_python_specials() {
        assert_eq!(parse_value(b"1.#QNAN", Kind::Float), Ok(0x7fc0_0000));
        assert_eq!(parse_value(b"-1.#QNAN0", Kind::Float), Ok(0xffc0_0000));
        assert_eq!(parse_value(b"-1.#IND", Kind::Float), Ok(0xffc0_0000));
        assert_eq!(parse_value(b"-1.#INF", Kind::Float), Ok(0xff80_0000));
        assert_eq!(parse_value(b"1.#SNAN", Kind::Snorm), Ok(0x7f80_0001));
        assert_eq!(parse_value(b"nan", Kind::Float), Ok(0x7fc0_0000));
        assert_eq!(parse_value(b"-inf", Kind::Float), Ok(0xff80_0000));
        assert_eq!(parse_value(b"NaN", Kind::Float), Ok(0x7fc0_0000));
        assert!(parse_value(b"1.#WHAT", Kind::Float).is_err());
        assert!(parse_value(b"0x3f800000", Kind::Float).is_err());
        assert!(parse_value(b"", Kind::Float).is_err());
        assert!(parse_value(b"4294967296", Kind::Uint).is_err());
        assert_eq!(parse_value(b"4294967295", Kind::Uint), Ok(u32::MAX));
    }
}
