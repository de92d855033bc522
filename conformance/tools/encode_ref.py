"""Independent model of vertex encoding (conformance schema 2, ENCODE cases).

Nothing here calls inlay or shares its code: the format list below is written from the DXGI
naming rule (D3D11.3 spec 19.1.3.1: the first-named component sits in the least significant
bits, BGR formats store blue first; the register lane of a component is its colour: R->x,
G->y, B->z, A->w), and every conversion is computed with exact rational arithmetic
(fractions.Fraction) as SCHEMA.md ("ENCODE case") defines the two roundings:

nearest: UNORM  NaN->0, clamp [0,1], nearest integer to c*(2^n-1), halves up.
         SNORM  NaN->0, clamp [-1,1], nearest integer to c*(2^(n-1)-1), halves away from 0.
         binary32 -> binary16 / 11-bit / 10-bit float: nearest, ties to the even code; too
         large -> infinity; NaN -> NaN keeping the top mantissa bits (0 -> the quiet NaN);
         denormals kept; unsigned formats: negative values, -0 and -inf -> +0.
         UINT/SINT: saturate to the field's range.
d3d:     as nearest, except binary32 -> smaller floats rounds toward zero and a finite value
         too large gives the largest finite value of its sign (D3D11.3 3.2.2 / 3.2.3).

Smaller floats are rounded by searching the sorted list of every finite value of the target
format (Fractions), not by bit manipulation.
"""

import bisect
import struct
from fractions import Fraction

# ----------------------------------------------------------------------------------------------
# The 47 IA vertex formats: name -> (size in bytes, [(lane, bit offset, bits, kind)], storage
# order). kind: F (float), UN, SN, UI, SI.


def _uniform(n, bits, kind, lanes=(0, 1, 2, 3)):
    return [(lanes[i], i * bits, bits, kind) for i in range(n)]


FORMATS = {}


def _add(name, size, comps):
    FORMATS[name] = (size, comps)


for kind, suffix in (("F", "FLOAT"), ("UI", "UINT"), ("SI", "SINT")):
    _add("R32G32B32A32_" + suffix, 16, _uniform(4, 32, kind))
    _add("R32G32B32_" + suffix, 12, _uniform(3, 32, kind))
    _add("R32G32_" + suffix, 8, _uniform(2, 32, kind))
    _add("R32_" + suffix, 4, _uniform(1, 32, kind))
for kind, suffix in (("F", "FLOAT"), ("UN", "UNORM"), ("UI", "UINT"), ("SN", "SNORM"), ("SI", "SINT")):
    _add("R16G16B16A16_" + suffix, 8, _uniform(4, 16, kind))
    _add("R16G16_" + suffix, 4, _uniform(2, 16, kind))
    _add("R16_" + suffix, 2, _uniform(1, 16, kind))
for kind, suffix in (("UN", "UNORM"), ("UI", "UINT"), ("SN", "SNORM"), ("SI", "SINT")):
    _add("R8G8B8A8_" + suffix, 4, _uniform(4, 8, kind))
    _add("R8G8_" + suffix, 2, _uniform(2, 8, kind))
    _add("R8_" + suffix, 1, _uniform(1, 8, kind))
_add("R10G10B10A2_UNORM", 4, [(0, 0, 10, "UN"), (1, 10, 10, "UN"), (2, 20, 10, "UN"), (3, 30, 2, "UN")])
_add("R10G10B10A2_UINT", 4, [(0, 0, 10, "UI"), (1, 10, 10, "UI"), (2, 20, 10, "UI"), (3, 30, 2, "UI")])
_add("R11G11B10_FLOAT", 4, [(0, 0, 11, "F"), (1, 11, 11, "F"), (2, 22, 10, "F")])
# BGR formats: blue (lane z) in the low bits.
_add("B5G6R5_UNORM", 2, [(2, 0, 5, "UN"), (1, 5, 6, "UN"), (0, 11, 5, "UN")])
_add("B5G5R5A1_UNORM", 2, [(2, 0, 5, "UN"), (1, 5, 5, "UN"), (0, 10, 5, "UN"), (3, 15, 1, "UN")])
_add("B8G8R8A8_UNORM", 4, _uniform(4, 8, "UN", lanes=(2, 1, 0, 3)))
_add("B8G8R8X8_UNORM", 4, _uniform(3, 8, "UN", lanes=(2, 1, 0)))  # X8: written as 0
_add("B4G4R4A4_UNORM", 2, _uniform(4, 4, "UN", lanes=(2, 1, 0, 3)))

assert len(FORMATS) == 47, len(FORMATS)

# ----------------------------------------------------------------------------------------------
# binary32 values


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def f32_value(bits):
    """('nan', sign) / ('inf', sign) / ('num', Fraction) of binary32 bits."""
    sign = -1 if bits >> 31 else 1
    e = (bits >> 23) & 0xFF
    m = bits & 0x7FFFFF
    if e == 0xFF:
        return ("nan", sign) if m else ("inf", sign)
    if e == 0:
        v = Fraction(m, 1 << 149)
    else:
        v = Fraction((1 << 23) | m) * Fraction(2) ** (e - 150)
    return ("num", sign * v)


def is_negative(bits):
    return bits >> 31 == 1


def fraction_to_f32_bits_nearest(q):
    """The binary32 nearest to the rational q (finite, normal range), ties to even."""
    if q == 0:
        return 0
    sign = 0x80000000 if q < 0 else 0
    q = abs(q)
    e = 0
    while Fraction(2) ** e > q:
        e -= 1
    while Fraction(2) ** (e + 1) <= q:
        e += 1
    scaled = q / Fraction(2) ** e * (1 << 23)
    m = scaled.numerator // scaled.denominator
    rem = scaled - m
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and m % 2 == 1):
        m += 1
    if m == 1 << 24:
        m = 1 << 23
        e += 1
    return sign | ((e + 127) << 23) | (m - (1 << 23))


# ----------------------------------------------------------------------------------------------
# Components


def floor_half_up(v):
    """floor(v + 1/2) for a non-negative rational v."""
    t = v + Fraction(1, 2)
    return t.numerator // t.denominator


def enc_unorm(bits, n):
    kind, v = f32_value(bits)
    if kind == "nan":
        return 0
    if kind == "inf":
        return (1 << n) - 1 if v > 0 else 0
    c = min(max(v, Fraction(0)), Fraction(1))
    return floor_half_up(c * ((1 << n) - 1))


def enc_snorm(bits, n):
    kind, v = f32_value(bits)
    mx = (1 << (n - 1)) - 1
    if kind == "nan":
        k = 0
    elif kind == "inf":
        k = mx if v > 0 else -mx
    else:
        c = min(max(v, Fraction(-1)), Fraction(1))
        mag = floor_half_up(abs(c) * mx)
        k = -mag if c < 0 else mag
    return k & ((1 << n) - 1)


def enc_uint(bits, n):
    return min(bits, (1 << n) - 1)


def enc_sint(bits, n):
    v = bits - (1 << 32) if bits >> 31 else bits
    v = max(-(1 << (n - 1)), min(v, (1 << (n - 1)) - 1))
    return v & ((1 << n) - 1)


class SmallFloat:
    """A float with a 5-bit exponent (bias 15) and m mantissa bits, signed or not."""

    def __init__(self, m, signed):
        self.m = m
        self.signed = signed
        self.values = []  # (Fraction, code) for every finite non-negative code, ascending
        for code in range(31 << m):
            e, f = code >> m, code & ((1 << m) - 1)
            if e == 0:
                v = Fraction(f, 1 << (14 + m))
            else:
                v = (1 + Fraction(f, 1 << m)) * Fraction(2) ** (e - 15)
            self.values.append(v)
        self.max = self.values[-1]
        self.ulp_max = Fraction(2) ** (15 - m)
        self.inf = 31 << m
        self.sign_bit = (1 << (m + 5)) if signed else 0

    def encode(self, bits, rounding):
        m = self.m
        kind, v = f32_value(bits)
        neg = is_negative(bits)
        s = self.sign_bit if (neg and self.signed) else 0
        if kind == "nan":
            payload = (bits & 0x7FFFFF) >> (23 - m)
            if payload == 0:
                payload = 1 << (m - 1)
            return s | self.inf | payload
        if neg and not self.signed:
            return 0
        if kind == "inf":
            return s | self.inf
        a = abs(v)
        if rounding == "d3d":
            if a >= self.max:
                return s | (len(self.values) - 1)
            i = bisect.bisect_right(self.values, a)
            return s | (i - 1)
        if a >= self.max + self.ulp_max / 2:
            return s | self.inf  # the tie at max + ulp/2 goes to the even code: infinity
        if a >= self.max:
            return s | (len(self.values) - 1)
        i = bisect.bisect_right(self.values, a)
        lo, hi = self.values[i - 1], self.values[i]
        dl, dh = a - lo, hi - a
        if dl < dh or (dl == dh and (i - 1) % 2 == 0):
            return s | (i - 1)
        return s | i


HALF = SmallFloat(10, True)
F11 = SmallFloat(6, False)
F10 = SmallFloat(5, False)


def enc_component(kind, bits_wide, lane_bits, rounding):
    if kind == "F":
        if bits_wide == 32:
            return lane_bits
        return {16: HALF, 11: F11, 10: F10}[bits_wide].encode(lane_bits, rounding)
    if kind == "UN":
        return enc_unorm(lane_bits, bits_wide)
    if kind == "SN":
        return enc_snorm(lane_bits, bits_wide)
    if kind == "UI":
        return enc_uint(lane_bits, bits_wide)
    return enc_sint(lane_bits, bits_wide)


def encode(fmt, lanes, rounding="nearest"):
    """The bytes of one element of format name fmt for four lane bit patterns."""
    size, comps = FORMATS[fmt]
    word = 0
    for lane, off, bits, kind in comps:
        word |= enc_component(kind, bits, lanes[lane], rounding) << off
    return word.to_bytes(size, "little")


# ----------------------------------------------------------------------------------------------
# Self-checks of the model (run: python3 encode_ref.py)


def _self_test():
    one = f32_bits(1.0)
    assert encode("R8G8B8A8_UNORM", [f32_bits(0.5), 0, one, one]) == bytes([128, 0, 255, 255])
    assert encode("R8_SNORM", [f32_bits(-1.0), 0, 0, 0]) == bytes([0x81])
    assert encode("R8_SNORM", [f32_bits(-0.5), 0, 0, 0]) == bytes([0xC0])  # -63.5 -> -64
    assert encode("B8G8R8A8_UNORM", [one, 0, 0, 0]) == bytes([0, 0, 255, 0])
    assert encode("R16_FLOAT", [f32_bits(65520.0), 0, 0, 0]) == bytes([0x00, 0x7C])
    assert encode("R16_FLOAT", [f32_bits(65520.0), 0, 0, 0], "d3d") == bytes([0xFF, 0x7B])
    assert encode("R16_FLOAT", [0x7FA00000, 0, 0, 0]) == bytes([0x00, 0x7D])
    assert encode("R16_FLOAT", [0x7F800001, 0, 0, 0]) == bytes([0x00, 0x7E])
    assert encode("R16_FLOAT", [f32_bits(2.0 ** -25), 0, 0, 0]) == bytes([0, 0])  # tie -> even 0
    assert encode("R16_FLOAT", [f32_bits(3 * 2.0 ** -25), 0, 0, 0]) == bytes([2, 0])  # tie -> 2
    assert encode("R11G11B10_FLOAT", [f32_bits(-1.0), one, one, 0]) == (
        ((15 << 6) << 11) | ((15 << 5) << 22)).to_bytes(4, "little")
    assert encode("R16_SINT", [0xFFFF0000, 0, 0, 0]) == bytes([0x00, 0x80])
    assert encode("R10G10B10A2_UINT", [5000, 1, 2, 9]) == (1023 | 1 << 10 | 2 << 20 | 3 << 30).to_bytes(4, "little")
    print("encode_ref self-test passed")


if __name__ == "__main__":
    _self_test()
