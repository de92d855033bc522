//! The element encoder against independent oracles, exhaustively where the code space allows.
//!
//! * `encode(decode(code)) == code` for every code of every component of at most 16 bits of
//!   every IA vertex format (non-canonical SNORM codes map to their canonical neighbour), and
//!   for every whole element of every IA format of at most 16 bits.
//! * `decode(encode(x))` is the representable value nearest to `x`: UNORM/SNORM checked against
//!   exact integer arithmetic on the binary32's significand and exponent (u128), the smaller
//!   floats against a sorted list of every finite value of the target format (binary64, where
//!   every value and every midpoint is exact), for every code's value, the midpoints between
//!   neighbours, the binary32 values just below and above each midpoint, and a stride through
//!   the whole binary32 space.
//!
//! None of the oracles calls the encoder's arithmetic; decoding uses `inlay::convert`, the
//! reference decoder (itself tested against the `half` crate and exact quotients).

use inlay::convert::{convert_component, decode_element};
use inlay::encode::{Rounding, encode_component, encode_element};
use inlay::format::{Component, Format, FormatInfo, Kind, vertex_formats};

/// Every distinct (kind, bits) component of the IA vertex formats, with one example.
fn components() -> Vec<Component> {
    let mut out: Vec<Component> = Vec::new();
    for f in vertex_formats() {
        for c in f.present() {
            if !out.iter().any(|o| o.kind == c.kind && o.bits == c.bits) {
                out.push(*c);
            }
        }
    }
    out
}

fn sign_extend(v: u32, bits: u32) -> i64 {
    let v = v as i64;
    if v >= 1 << (bits - 1) {
        v - (1 << bits)
    } else {
        v
    }
}

#[test]
fn every_code_of_every_small_component_round_trips() {
    let comps = components();
    // The table has the kinds and widths the 47 formats need.
    let widths: Vec<(Kind, u8)> = comps.iter().map(|c| (c.kind, c.bits)).collect();
    for want in [
        (Kind::Unorm, 8),
        (Kind::Unorm, 2),
        (Kind::Unorm, 1),
        (Kind::Unorm, 4),
        (Kind::Snorm, 16),
        (Kind::Float, 16),
        (Kind::Float, 11),
        (Kind::Float, 10),
        (Kind::Uint, 10),
        (Kind::Sint, 8),
    ] {
        assert!(widths.contains(&want), "{want:?} missing from {widths:?}");
    }
    let mut checked = 0u64;
    for c in comps.iter().filter(|c| c.bits <= 16) {
        let bits = c.bits as u32;
        for code in 0..(1u32 << bits) {
            let lane = convert_component(c.kind, bits, code);
            let canonical = match c.kind {
                // −2^(n−1) decodes to −1.0 like −(2^(n−1) − 1), which −1.0 encodes to.
                Kind::Snorm if sign_extend(code, bits) == -(1i64 << (bits - 1)) => code + 1,
                _ => code,
            };
            for r in [Rounding::Nearest, Rounding::D3d] {
                assert_eq!(
                    encode_component(c, lane, r),
                    canonical,
                    "{:?}{} code {code:#x} lane {lane:#010x} {r}",
                    c.kind,
                    c.bits
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 250_000, "{checked}");
}

#[test]
fn every_element_of_every_small_format_round_trips() {
    for info in vertex_formats().filter(|f| f.bits <= 16) {
        let size = info.byte_size() as usize;
        for code in 0..(1u32 << info.bits) {
            let bytes = &code.to_le_bytes()[..size];
            let lanes = decode_element(info, bytes);
            let mut out = [0u8; 4];
            encode_element(Format(info.value), &lanes, Rounding::Nearest, &mut out).unwrap();
            // Canonical form: every SNORM field at its most negative code moves up by one.
            let mut want = code;
            for c in info.present().filter(|c| c.kind == Kind::Snorm) {
                let f = (code >> c.bit_offset) & ((1 << c.bits) - 1);
                if f == 1 << (c.bits - 1) {
                    want += 1 << c.bit_offset;
                }
            }
            assert_eq!(
                &out[..size],
                &want.to_le_bytes()[..size],
                "{} {code:#x}",
                info.name
            );
        }
    }
}

#[test]
fn larger_elements_round_trip_on_pseudo_random_codes() {
    let mut s = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    for info in vertex_formats().filter(|f| f.bits > 16) {
        let size = info.byte_size() as usize;
        for _ in 0..20_000 {
            let mut bytes = [0u8; 16];
            for b in bytes.chunks_mut(8) {
                b.copy_from_slice(&next().to_le_bytes());
            }
            let lanes = decode_element(info, &bytes[..size]);
            let mut out = [0u8; 16];
            encode_element(Format(info.value), &lanes, Rounding::Nearest, &mut out).unwrap();
            // The re-encoded element decodes to the same lanes (bit for bit) and differs from
            // the input only in SNORM most-negative fields and unused X bits.
            assert_eq!(decode_element(info, &out[..size]), lanes, "{}", info.name);
            let mut expect = bytes;
            for c in info.components {
                let all = u128::from_le_bytes(expect);
                let mask = ((1u128 << c.bits) - 1) << c.bit_offset;
                let field = ((all & mask) >> c.bit_offset) as u64;
                let new = match c.kind {
                    Kind::Unused => 0,
                    Kind::Snorm if field == 1 << (c.bits - 1) => field + 1,
                    _ => field,
                };
                expect = ((all & !mask) | ((new as u128) << c.bit_offset)).to_le_bytes();
            }
            assert_eq!(&out[..size], &expect[..size], "{}", info.name);
        }
    }
}

/// `f` and the binary32 values just above and below it (finite `f`).
fn around(f: f32) -> [f32; 3] {
    let b = f.to_bits();
    let (up, down) = if f == 0.0 {
        (1, 0x8000_0001)
    } else if f > 0.0 {
        (b + 1, b - 1)
    } else {
        (b - 1, b + 1)
    };
    [f, f32::from_bits(up), f32::from_bits(down)]
}

// ----- UNORM / SNORM against exact integer arithmetic -----

/// `(m, e)` with `value = m · 2^e` exactly, `m` < 2^24 (finite, non-negative `f`).
fn split(f: f32) -> (u128, i32) {
    let b = f.to_bits() & 0x7fff_ffff;
    let e = (b >> 23) as i32;
    let m = b & 0x7f_ffff;
    if e == 0 {
        (m as u128, -149)
    } else {
        ((m | 0x80_0000) as u128, e - 150)
    }
}

/// ⌊m·k·2^e + ½⌋ computed exactly: "nearest, halves up" of a non-negative product.
fn round_half_up(m: u128, k: u128, e: i32) -> u128 {
    let p = m * k;
    if e >= 0 {
        return p << e;
    }
    let s = (-e) as u32;
    if s > 100 {
        return 0;
    }
    let q = p >> s;
    let rem = p - (q << s);
    if rem * 2 >= (1u128 << s) { q + 1 } else { q }
}

fn unorm_oracle(x: f32, bits: u32) -> u32 {
    if x.is_nan() || x <= 0.0 {
        return 0;
    }
    if x >= 1.0 {
        return (1 << bits) - 1;
    }
    let (m, e) = split(x);
    round_half_up(m, (1u128 << bits) - 1, e) as u32
}

fn snorm_oracle(x: f32, bits: u32) -> u32 {
    let max = (1i64 << (bits - 1)) - 1;
    let v: i64 = if x.is_nan() {
        0
    } else if x >= 1.0 {
        max
    } else if x <= -1.0 {
        -max
    } else {
        let (m, e) = split(x.abs());
        let mag = round_half_up(m, max as u128, e) as i64;
        if x < 0.0 { -mag } else { mag }
    };
    (v as u32) & ((1u32 << bits) - 1)
}

/// Test values for an n-code normalised field with divisor d: every code's value, the exact
/// midpoints between neighbours (as the nearest binary32 values and their neighbours), and
/// the specials.
fn norm_inputs(d: u32, signed: bool) -> Vec<f32> {
    let mut v = vec![
        0.0,
        -0.0,
        f32::NAN,
        -f32::NAN,
        f32::from_bits(0x7f80_0001),
        f32::INFINITY,
        f32::NEG_INFINITY,
        1.0,
        -1.0,
        f32::MIN_POSITIVE,
        f32::from_bits(1),
        f32::from_bits(0x8000_0001),
        1.0 + f32::EPSILON,
        2.0,
        -2.0,
        f32::MAX,
        f32::MIN,
    ];
    let lo = if signed { -(d as i64) } else { 0 };
    for k in lo..=d as i64 {
        let exact = k as f64 / d as f64;
        let mid = (k as f64 + 0.5) / d as f64;
        for x in [exact, mid] {
            let f = x as f32;
            v.extend(around(f));
        }
    }
    v
}

#[test]
fn unorm_and_snorm_are_the_exact_nearest_code() {
    for c in components() {
        let bits = c.bits as u32;
        match c.kind {
            Kind::Unorm => {
                for x in norm_inputs((1 << bits) - 1, false) {
                    let got = encode_component(&c, x.to_bits(), Rounding::Nearest);
                    assert_eq!(
                        got,
                        unorm_oracle(x, bits),
                        "UNORM{bits} {x:e} ({:#010x})",
                        x.to_bits()
                    );
                    assert_eq!(got, encode_component(&c, x.to_bits(), Rounding::D3d));
                }
            }
            Kind::Snorm => {
                for x in norm_inputs((1 << (bits - 1)) - 1, true) {
                    let got = encode_component(&c, x.to_bits(), Rounding::Nearest);
                    assert_eq!(
                        got,
                        snorm_oracle(x, bits),
                        "SNORM{bits} {x:e} ({:#010x})",
                        x.to_bits()
                    );
                    assert_eq!(got, encode_component(&c, x.to_bits(), Rounding::D3d));
                }
            }
            _ => {}
        }
    }
}

#[test]
fn unorm_and_snorm_over_a_stride_of_all_binary32() {
    let unorm: Vec<Component> = components()
        .into_iter()
        .filter(|c| matches!(c.kind, Kind::Unorm | Kind::Snorm))
        .collect();
    let mut b = 0u32;
    loop {
        let x = f32::from_bits(b);
        for c in &unorm {
            let bits = c.bits as u32;
            let want = if c.kind == Kind::Unorm {
                unorm_oracle(x, bits)
            } else {
                snorm_oracle(x, bits)
            };
            assert_eq!(
                encode_component(c, b, Rounding::Nearest),
                want,
                "{:?}{bits} {b:#010x}",
                c.kind
            );
        }
        // Inside [−1, 1] densely, elsewhere coarsely.
        let step = if (b & 0x7fff_ffff) <= 0x3f80_0000 && (b & 0x7fff_ffff) >= 0x3000_0000 {
            61
        } else {
            65_537
        };
        match b.checked_add(step) {
            Some(n) => b = n,
            None => break,
        }
    }
}

/// The decoded value of `code` is the nearest representable one: a brute check that the
/// oracle itself means "nearest" (every other code is at least as far away, ties up).
#[test]
fn unorm8_oracle_is_nearest_by_brute_force() {
    for x in norm_inputs(255, false) {
        if !(0.0..=1.0).contains(&x) {
            continue;
        }
        let k = unorm_oracle(x, 8) as f64;
        let d = (x as f64 - k / 255.0).abs();
        for j in 0..=255 {
            let dj = (x as f64 - j as f64 / 255.0).abs();
            assert!(dj >= d || (dj == d && j as f64 > k), "{x} {k} {j}");
        }
    }
}

// ----- small floats against the list of every target value -----

struct Target {
    name: &'static str,
    component: Component,
    /// (value, code) of every finite non-negative code, ascending.
    values: Vec<(f64, u32)>,
    mantissa_bits: u32,
    signed: bool,
}

fn float_targets() -> Vec<Target> {
    let mut out = Vec::new();
    for (name, format, lane) in [
        ("binary16", Format::R16_FLOAT, 0usize),
        ("float11", Format::R11G11B10_FLOAT, 0),
        ("float10", Format::R11G11B10_FLOAT, 2),
    ] {
        let info: &FormatInfo = format.info().unwrap();
        let component = *info
            .present()
            .find(|c| c.channel.lane() == Some(lane))
            .unwrap();
        let m = match component.bits {
            16 => 10,
            11 => 6,
            _ => 5,
        };
        // Value of a finite code from first principles: bias 15, 5 exponent bits.
        let mut values = Vec::new();
        for code in 0u32..(31 << m) {
            let e = code >> m;
            let f = code & ((1 << m) - 1);
            let v = if e == 0 {
                f as f64 * 2f64.powi(-14 - m as i32)
            } else {
                (1.0 + f as f64 / (1u32 << m) as f64) * 2f64.powi(e as i32 - 15)
            };
            values.push((v, code));
        }
        out.push(Target {
            name,
            component,
            values,
            mantissa_bits: m,
            signed: component.bits == 16,
        });
    }
    out
}

/// The expected code of `x` in `t` under `r`, from the value list (ties to the even code).
fn float_oracle(t: &Target, x: f32, r: Rounding) -> u32 {
    let m = t.mantissa_bits;
    let inf = 31u32 << m;
    let sign_bit = if t.signed { 1u32 << (m + 5) } else { 0 };
    let bits = x.to_bits();
    if x.is_nan() {
        let payload = (bits & 0x7f_ffff) >> (23 - m);
        let payload = if payload == 0 { 1 << (m - 1) } else { payload };
        let s = if bits >> 31 == 1 { sign_bit } else { 0 };
        return s | inf | payload;
    }
    let neg = x.is_sign_negative();
    if neg && !t.signed {
        return 0;
    }
    let s = if neg { sign_bit } else { 0 };
    let a = (x as f64).abs();
    let (max, max_code) = *t.values.last().unwrap();
    let ulp_max = 2f64.powi(15 - m as i32);
    if a.is_infinite() {
        return s | inf;
    }
    let code = match r {
        Rounding::D3d => {
            if a >= max {
                max_code
            } else {
                // Largest value ≤ a.
                let i = t.values.partition_point(|(v, _)| *v <= a);
                t.values[i - 1].1
            }
        }
        Rounding::Nearest => {
            if a >= max + ulp_max / 2.0 {
                inf // the tie at max + ½ulp goes to the even "next" code, infinity
            } else if a >= max {
                max_code
            } else {
                let i = t.values.partition_point(|(v, _)| *v <= a);
                let (lo, lo_code) = t.values[i - 1];
                let (hi, hi_code) = t.values[i];
                let (dl, dh) = (a - lo, hi - a);
                if dl < dh || (dl == dh && lo_code % 2 == 0) {
                    lo_code
                } else {
                    hi_code
                }
            }
        }
    };
    s | code
}

#[test]
fn small_floats_are_the_correctly_rounded_code() {
    for t in float_targets() {
        // Every value, midpoint and their binary32 neighbours, both signs.
        let mut inputs: Vec<f32> = Vec::new();
        for w in t.values.windows(2) {
            let (a, b) = (w[0].0, w[1].0);
            for x in [a, (a + b) / 2.0] {
                let f = x as f32;
                assert_eq!(f as f64, x, "values and midpoints are exact in binary32");
                inputs.extend(around(f));
            }
        }
        let (max, _) = *t.values.last().unwrap();
        let over = max + 2f64.powi(15 - t.mantissa_bits as i32) / 2.0;
        for x in [max, over, 65536.0, 1e10] {
            let f = x as f32;
            inputs.extend(around(f));
        }
        inputs.extend([
            0.0,
            f32::INFINITY,
            f32::MAX,
            f32::from_bits(1),
            f32::MIN_POSITIVE,
            f32::NAN,
            f32::from_bits(0x7f80_0001), // sNaN whose top bits are 0: becomes the quiet NaN
            f32::from_bits(0x7fa0_0000), // sNaN kept signalling
            f32::from_bits(0x7fff_ffff),
        ]);
        let n = inputs.len();
        for i in 0..n {
            inputs.push(-inputs[i]);
        }
        for x in inputs {
            for r in [Rounding::Nearest, Rounding::D3d] {
                let got = encode_component(&t.component, x.to_bits(), r);
                let want = float_oracle(&t, x, r);
                assert_eq!(
                    got,
                    want,
                    "{} {x:e} ({:#010x}) {r}: got {got:#x}, want {want:#x}",
                    t.name,
                    x.to_bits()
                );
            }
        }
    }
}

#[test]
fn small_floats_over_a_stride_of_all_binary32() {
    let targets = float_targets();
    let mut b = 0u32;
    loop {
        let x = f32::from_bits(b);
        for t in &targets {
            for r in [Rounding::Nearest, Rounding::D3d] {
                assert_eq!(
                    encode_component(&t.component, b, r),
                    float_oracle(t, x, r),
                    "{} {b:#010x} {r}",
                    t.name
                );
            }
        }
        match b.checked_add(997) {
            Some(n) => b = n,
            None => break,
        }
    }
}

#[test]
fn binary16_nearest_agrees_with_the_half_crate_except_nan_payloads() {
    // A second, external oracle for round-to-nearest-even (the half crate forces the quiet bit
    // on NaNs, which SCHEMA.md does not: NaNs are checked above).
    let c = *Format::R16_FLOAT.info().unwrap().present().next().unwrap();
    let mut b = 0u32;
    loop {
        let x = f32::from_bits(b);
        if !x.is_nan() {
            assert_eq!(
                encode_component(&c, b, Rounding::Nearest),
                half::f16::from_f32(x).to_bits() as u32,
                "{b:#010x}"
            );
        }
        match b.checked_add(331) {
            Some(n) => b = n,
            None => break,
        }
    }
}

// ----- integers -----

#[test]
fn integers_saturate_to_the_field() {
    for c in components() {
        let bits = c.bits as u32;
        let probes: Vec<i64> = vec![
            0,
            1,
            -1,
            (1 << (bits - 1)) - 1,
            1 << (bits - 1),
            -(1 << (bits - 1)),
            -(1 << (bits - 1)) - 1,
            (1 << bits) - 1,
            1 << bits,
            i32::MAX as i64,
            i32::MIN as i64,
            u32::MAX as i64,
        ];
        for p in probes {
            let lane = p as u32; // two's complement bits of the probe
            let got = encode_component(&c, lane, Rounding::Nearest) as i64;
            let want = match c.kind {
                Kind::Uint => (lane as i64).min((1i64 << bits) - 1),
                Kind::Sint => {
                    let v = (lane as i32) as i64;
                    v.clamp(-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1) & ((1i64 << bits) - 1)
                }
                _ => continue,
            };
            assert_eq!(got, want, "{:?}{bits} {p}", c.kind);
        }
    }
}

#[test]
fn formats_that_are_not_vertex_formats_are_refused() {
    let mut out = [0u8; 16];
    for f in [
        "R8G8B8A8_TYPELESS",
        "R8G8B8A8_UNORM_SRGB",
        "D32_FLOAT",
        "BC1_UNORM",
        "R9G9B9E5_SHAREDEXP",
        "UNKNOWN",
    ] {
        let f: Format = f.parse().unwrap();
        assert!(
            encode_element(f, &[0; 4], Rounding::Nearest, &mut out).is_err(),
            "{f}"
        );
    }
    assert!(encode_element(Format(9999), &[0; 4], Rounding::Nearest, &mut out).is_err());
    let e = encode_element(
        Format::R32G32B32A32_FLOAT,
        &[0; 4],
        Rounding::Nearest,
        &mut out[..8],
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "output holds 8 bytes, the R32G32B32A32_FLOAT element needs 16"
    );
    // All 47 IA formats encode.
    assert_eq!(
        vertex_formats()
            .filter(
                |f| encode_element(Format(f.value), &[0; 4], Rounding::Nearest, &mut out).is_ok()
            )
            .count(),
        47
    );
}

#[test]
fn edge_values_pinned() {
    let enc = |f: Format, lanes: [u32; 4], r: Rounding| {
        let mut out = [0u8; 16];
        let n = encode_element(f, &lanes, r, &mut out).unwrap();
        out[..n].to_vec()
    };
    let f = |x: f32| x.to_bits();
    // −1.0 in SNORM8 is 0x81, never 0x80; −2 clamps to the same.
    assert_eq!(
        enc(
            Format::R8G8_SNORM,
            [f(-1.0), f(-2.0), 0, 0],
            Rounding::Nearest
        ),
        [0x81, 0x81]
    );
    // 0.5 · 255 = 127.5 rounds up; SNORM 0.5 · 127 = 63.5 away from zero both ways.
    assert_eq!(
        enc(Format::R8G8B8A8_UNORM, [f(0.5), 0, 0, 0], Rounding::Nearest),
        [128, 0, 0, 0]
    );
    assert_eq!(
        enc(
            Format::R8G8_SNORM,
            [f(0.5), f(-0.5), 0, 0],
            Rounding::Nearest
        ),
        [64, 0xc0]
    );
    // Half overflow: nearest → inf, d3d → 65504; 65519.996 stays finite under nearest.
    assert_eq!(
        enc(Format::R16_FLOAT, [f(65520.0), 0, 0, 0], Rounding::Nearest),
        [0x00, 0x7c]
    );
    assert_eq!(
        enc(
            Format::R16_FLOAT,
            [f(65519.996), 0, 0, 0],
            Rounding::Nearest
        ),
        [0xff, 0x7b]
    );
    assert_eq!(
        enc(Format::R16_FLOAT, [f(-1e9), 0, 0, 0], Rounding::D3d),
        [0xff, 0xfb]
    );
    assert_eq!(
        enc(
            Format::R16_FLOAT,
            [f(f32::NEG_INFINITY), 0, 0, 0],
            Rounding::D3d
        ),
        [0x00, 0xfc]
    );
    // Unsigned 11/10-bit floats: negatives → 0, NaN stays NaN.
    assert_eq!(
        u32::from_le_bytes(
            enc(
                Format::R11G11B10_FLOAT,
                [f(-1.0), f(f32::NAN), f(1.0), 0],
                Rounding::Nearest
            )
            .try_into()
            .unwrap()
        ),
        (0x7c0 | 0x20) << 11 | (15 << 5) << 22
    );
    // B8G8R8X8: X byte written as 0.
    assert_eq!(
        enc(
            Format::B8G8R8X8_UNORM,
            [f(1.0), 0, 0, f(1.0)],
            Rounding::Nearest
        ),
        [0, 0, 0xff, 0]
    );
}

/// Issue 34 item 8: `component_range` (what a non-clamping writer refuses) against an oracle
/// on the decoded result: a value is held exactly when decoding what the encoder writes lands
/// within the format's rounding of it (integers: exactly; UNORM/SNORM: within half a step, a
/// tie only toward the larger magnitude; 16/11/10-bit floats: a finite result within half a
/// step (nearest) or one step (toward zero) of the value at its exponent, infinities and NaNs
/// as themselves; negative values in unsigned floats only when they become 0 anyway).
#[test]
fn component_range_is_exactly_what_the_encoder_cannot_hold() {
    use inlay::encode::component_range;
    let mut lanes: Vec<u32> = Vec::new();
    for v in [
        0.0f32,
        -0.0,
        1.0,
        -1.0,
        0.5,
        1.5,
        -1.5,
        2.0,
        255.0,
        65504.0,
        65519.0,
        65520.0,
        65535.0,
        65536.0,
        70000.0,
        1e-10,
        -1e-10,
        1e-8,
        -1e-8,
        6e-8,
        -6e-8,
        1e30,
        -1e30,
        f32::MAX,
        f32::MIN_POSITIVE,
        64512.0,
        64513.0,
        65024.0,
        65055.0,
        65056.0,
    ] {
        for d in [-2i32, -1, 0, 1, 2] {
            lanes.push((v.to_bits() as i32).wrapping_add(d) as u32);
        }
    }
    lanes.extend([
        f32::INFINITY.to_bits(),
        f32::NEG_INFINITY.to_bits(),
        f32::NAN.to_bits(),
        0xffc0_0000,
    ]);
    // Integers around every width's bounds (and their negatives, as SINT lanes).
    for b in 1..=32u32 {
        for base in [1u64 << (b - 1), 1u64 << b] {
            for d in [-2i64, -1, 0, 1] {
                let v = (base as i64 + d) as u32;
                lanes.extend([v, v.wrapping_neg()]);
            }
        }
    }
    let mut checked = 0;
    for c in components() {
        let bits = c.bits as u32;
        for rounding in [Rounding::Nearest, Rounding::D3d] {
            for &lane in &lanes {
                let got = component_range(&c, lane, rounding).is_none();
                let dec = convert_component(c.kind, bits, encode_component(&c, lane, rounding));
                let x = f32::from_bits(lane) as f64;
                let y = f32::from_bits(dec) as f64;
                let want = match c.kind {
                    Kind::Uint | Kind::Sint => dec == lane,
                    Kind::Unorm | Kind::Snorm => {
                        let steps = if c.kind == Kind::Unorm {
                            ((1u64 << bits) - 1) as f64
                        } else {
                            ((1u64 << (bits - 1)) - 1) as f64
                        };
                        // The code's exact value (the decoder's binary32 is rounded).
                        let raw = encode_component(&c, lane, rounding);
                        let k = if c.kind == Kind::Unorm {
                            raw as f64
                        } else {
                            sign_extend(raw, bits) as f64
                        };
                        let y = k / steps;
                        let (d, half) = ((y - x).abs(), 0.5 / steps);
                        !x.is_nan() && (d < half || (d == half && x.abs() < y.abs()))
                    }
                    Kind::Float if bits == 32 => true,
                    Kind::Float => {
                        let unsigned = bits < 16;
                        if x.is_nan() {
                            true
                        } else if unsigned && x < 0.0 {
                            // Held when its magnitude rounds to 0 too.
                            let abs = encode_component(&c, lane & 0x7fff_ffff, rounding);
                            convert_component(c.kind, bits, abs) == 0
                        } else if x.is_infinite() {
                            y == x
                        } else if y.is_infinite() {
                            false
                        } else {
                            // The step of the target format at y's exponent (5 exponent
                            // bits, bias 15, denormals below 2^-14).
                            let m = match bits {
                                16 => 10,
                                11 => 6,
                                _ => 5,
                            };
                            let e = if y == 0.0 {
                                -14
                            } else {
                                (y.abs().log2().floor() as i32).max(-14)
                            };
                            let step = 2f64.powi(e - m);
                            match rounding {
                                Rounding::Nearest => (x - y).abs() <= step / 2.0,
                                Rounding::D3d => (x - y).abs() < step,
                            }
                        }
                    }
                    _ => continue,
                };
                assert_eq!(
                    got, want,
                    "{:?}{} {rounding:?} lane {lane:#010x} ({x}) → {dec:#010x} ({y})",
                    c.kind, bits
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}
