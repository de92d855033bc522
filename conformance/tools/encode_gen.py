"""Writes the ENCODE cases of inlay's conformance suite (schema 2) from encode_ref.py.

    python3 conformance/tools/encode_gen.py

Every IA format, both roundings, one case each, with rows covering the edges SCHEMA.md names:
NaN (quiet, signalling, payloads that vanish, negative), +-0, +-infinity, binary32 denormals,
values exactly halfway between two codes and the binary32 values just below and above each such
tie, out-of-range integers, -1.0 for SNORM, binary16 (and 11/10-bit) overflow. Each value is fed
to every lane (rows are rotations of the value list). Expected bytes come from the model alone.
"""

import json
import os
import struct
from fractions import Fraction

import encode_ref as ref

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)

f = ref.f32_bits


def around(bits):
    """bits and the binary32 values just above and below it in magnitude."""
    out = [bits]
    mag = bits & 0x7FFFFFFF
    sign = bits & 0x80000000
    if mag < 0x7F800000:
        out.append(sign | (mag + 1))
        if mag > 0:
            out.append(sign | (mag - 1))
    return out


COMMON = [
    0x00000000, 0x80000000,  # +-0
    0x7F800000, 0xFF800000,  # +-inf
    0x7FC00000, 0xFFC00000,  # quiet NaNs
    0x7F800001, 0x7FA00000, 0x7FBFFFFF, 0xFFF00001, 0x7FFFFFFF,  # signalling NaNs, payloads
    0x00000001, 0x807FFFFF, 0x00800000,  # binary32 denormals, smallest normal
    f(1.0), f(-1.0), f(0.5), f(-0.5), f(2.0), f(-2.0), 0x7F7FFFFF, 0xFF7FFFFF,
]


def norm_values(n, signed):
    """Values for an n-bit UNORM/SNORM field: codes, near-ties, their neighbours."""
    d = (1 << (n - 1)) - 1 if signed else (1 << n) - 1
    out = []
    ks = sorted({0, 1, 2, d // 3, d // 2, d - 2, d - 1, d})
    for k in ks:
        for q in (Fraction(k, d), Fraction(2 * k + 1, 2 * d)):
            if q <= 1:
                b = ref.fraction_to_f32_bits_nearest(q)
                out += around(b)
                if signed:
                    out += around(b | 0x80000000)
    out += around(f(0.5)) + around(f(-0.5))  # the exact ties c*d = d/2
    return out


def float_values(sf):
    """Values for a small float: codes' values, exact midpoints (ties) and neighbours,
    overflow thresholds."""
    vals = sf.values
    picks = [0, 1, 2, 3, (1 << sf.m) - 1, 1 << sf.m, (1 << sf.m) + 1, 15 << sf.m,
             (15 << sf.m) + 1, len(vals) - 2, len(vals) - 1]
    out = []
    for i in picks:
        v = vals[i]
        if v != 0:
            out += around(ref.fraction_to_f32_bits_nearest(v))
        if i + 1 < len(vals):
            mid = (vals[i] + vals[i + 1]) / 2
            out += around(ref.fraction_to_f32_bits_nearest(mid))
    top = sf.max + sf.ulp_max / 2  # nearest: this and above -> infinity
    out += around(ref.fraction_to_f32_bits_nearest(top))
    out += [f(65536.0), f(1e10), f(-65520.0), f(-1e10), f(2.0 ** -25), f(2.0 ** -26), f(2.0 ** -20)]
    return out + [b | 0x80000000 for b in out if not b & 0x80000000]


def int_values(n, signed):
    vals = [0, 1, 2, 300, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, (1 << n) - 1 if n < 32 else 0xFFFFFFFE]
    if n < 32:
        vals += [1 << n, (1 << n) + 1, (1 << (n - 1)) - 1, 1 << (n - 1)]
        if signed:
            vals += [(-(1 << (n - 1))) & 0xFFFFFFFF, (-(1 << (n - 1)) - 1) & 0xFFFFFFFF]
    vals += [0xFFFFFFFE, 0x3F800000]  # -2, and the bits of 1.0 (an integer here)
    return vals


def values_for(fmt):
    size, comps = ref.FORMATS[fmt]
    out = []
    seen = set()
    for lane, off, bits, kind in comps:
        key = (kind, bits)
        if key in seen:
            continue
        seen.add(key)
        if kind == "UN":
            out += COMMON + norm_values(bits, False)
        elif kind == "SN":
            out += COMMON + norm_values(bits, True)
        elif kind == "F":
            if bits == 32:
                out += COMMON
            else:
                out += COMMON + float_values({16: ref.HALF, 11: ref.F11, 10: ref.F10}[bits])
        else:
            out += int_values(bits, kind == "SI")
    # Deduplicate, keep order.
    uniq = []
    s = set()
    for v in out:
        v &= 0xFFFFFFFF
        if v not in s:
            s.add(v)
            uniq.append(v)
    return uniq


def rows_for(values):
    n = len(values)
    return [[values[(i + j) % n] for j in range(4)] for i in range(n)]


def kind_words(fmt):
    kinds = {k for _, _, _, k in ref.FORMATS[fmt][1]}
    names = {"F": "FLOAT", "UN": "UNORM", "SN": "SNORM", "UI": "UINT", "SI": "SINT"}
    return "/".join(sorted(names[k] for k in kinds))


EVIDENCE = {
    "nearest": "SCHEMA.md schema 2 ENCODE case, rounding nearest (UNORM/SNORM nearest code computed "
               "exactly, halves away from zero, -1.0 -> -(2^(n-1)-1); smaller floats nearest-even, "
               "overflow -> infinity, NaN payload top bits kept or the quiet NaN, unsigned floats "
               "negative -> +0; integers saturate); D3D11.3 spec 3.2.3 (UNORM/SNORM/UINT/SINT), "
               "19.1.3.1 (component order, BGR storage); expected bytes from the independent "
               "model conformance/tools/encode_ref.py (exact rational arithmetic)",
    "d3d": "SCHEMA.md schema 2 ENCODE case, rounding d3d (as nearest, but binary32 -> smaller "
           "floats round toward zero and finite overflow gives the largest finite value; D3D11.3 "
           "spec 3.2.2); D3D11.3 spec 3.2.3, 19.1.3.1; expected bytes from the independent model "
           "conformance/tools/encode_ref.py (exact rational arithmetic)",
}


def dump(cases):
    """The file text: one case field per line, one row of lanes per line."""
    out = ['{\n "schema": "inlay-conformance/2",\n "cases": [']
    for i, c in enumerate(cases):
        enc = dict(c["encode"])
        rows = enc.pop("values")
        head = json.dumps(enc)[:-1]
        lines = [
            "  {",
            '   "name": %s,' % json.dumps(c["name"]),
            '   "evidence": %s,' % json.dumps(c["evidence"]),
            '   "encode": %s, "values": [' % head,
            ",\n".join("    " + json.dumps(r) for r in rows),
            "   ]},",
            '   "expect_encode": %s' % json.dumps(c["expect_encode"]),
            "  }" + ("," if i + 1 < len(cases) else ""),
        ]
        out.append("\n".join(lines))
    out.append(" ]\n}\n")
    return "\n".join(out)


def main():
    cases = []
    for fmt in ref.FORMATS:
        values = values_for(fmt)
        rows = rows_for(values)
        for rounding in ("nearest", "d3d"):
            data = b"".join(ref.encode(fmt, r, rounding) for r in rows)
            cases.append({
                "name": "encode-%s-%s" % (fmt.lower(), rounding),
                "evidence": EVIDENCE[rounding] + "; %s edges" % kind_words(fmt),
                "encode": {
                    "format": fmt,
                    "rounding": rounding,
                    "values": [["%08x" % v for v in r] for r in rows],
                },
                "expect_encode": {"data": data.hex()},
            })
    # Rounding omitted: the default is nearest.
    one = "%08x" % f(1.0)
    cases.append({
        "name": "encode-default-rounding-is-nearest",
        "evidence": "SCHEMA.md schema 2: rounding defaults to nearest (65520 -> +infinity, not 65504)",
        "encode": {"format": "R16_FLOAT", "values": [["%08x" % f(65520.0), one, one, one]]},
        "expect_encode": {"data": ref.encode("R16_FLOAT", [f(65520.0), 0, 0, 0]).hex()},
    })
    refused = []
    for fmt in ("R8G8B8A8_TYPELESS", "R8G8B8A8_UNORM_SRGB", "D32_FLOAT", "BC1_UNORM",
                "R9G9B9E5_SHAREDEXP", "A8_UNORM", "R1_UNORM", "UNKNOWN", 200):
        refused.append({
            "name": "encode-refused-%s" % str(fmt).lower(),
            "evidence": "SCHEMA.md schema 2 (expect_encode error: the encoder must refuse); "
                        "ia-semantics 1.1 / D3D11.3 format tables: %s is not an IA vertex-buffer "
                        "format at any feature level, so it has no vertex encoding" % fmt,
            "encode": {"format": fmt, "values": [[one, one, one, one]]},
            "expect_encode": {"error": True},
        })
    for name, cs in (("encode-formats.json", cases), ("encode-refused.json", refused)):
        with open(os.path.join(OUT, name), "w") as fh:
            fh.write(dump(cs))
        print("%s: %d cases" % (name, len(cs)))


if __name__ == "__main__":
    main()
