"""Independent reference model used to write the expected values of inlay's conformance suite.

Nothing here calls inlay: conversions are computed with exact rational arithmetic (fractions)
and correctly rounded to binary32 by hand; the input-assembler addressing and primitive
assembly follow the formulas of ia-semantics.md (sections 1-6) and the D3D11.3 functional
spec sections they cite. Rule numbers R1-R48 refer to createinputlayout-rules.md.
"""

import re
import struct
from fractions import Fraction

MASK32 = 0xFFFFFFFF

# ----------------------------------------------------------------------------------------------
# Exact binary32 rounding


def f32_bits_of_fraction(q):
    """Correctly rounded (nearest, ties to even) binary32 bits of the rational q."""
    q = Fraction(q)
    if q == 0:
        return 0
    sign = 0
    if q < 0:
        sign = 0x80000000
        q = -q
    e = q.numerator.bit_length() - q.denominator.bit_length()
    # Adjust so that 2^e <= q < 2^(e+1)
    while Fraction(2) ** e > q:
        e -= 1
    while Fraction(2) ** (e + 1) <= q:
        e += 1
    assert -126 <= e <= 127, "only normal results are needed here"
    scaled = q / (Fraction(2) ** e) * (1 << 23)  # in [2^23, 2^24)
    m = scaled.numerator // scaled.denominator
    rem = scaled - m
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and m % 2 == 1):
        m += 1
    if m == 1 << 24:
        m = 1 << 23
        e += 1
    return sign | ((e + 127) << 23) | (m - (1 << 23))


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


ONE = 0x3F800000

# ----------------------------------------------------------------------------------------------
# Per-kind conversions (ia-semantics 1.3)


def unorm(code, n):
    return f32_bits_of_fraction(Fraction(code, (1 << n) - 1))


def snorm(code, n):
    # code is the raw n-bit field
    v = code - (1 << n) if code & (1 << (n - 1)) else code
    if v == -(1 << (n - 1)):
        return 0xBF800000
    return f32_bits_of_fraction(Fraction(v, (1 << (n - 1)) - 1))


def sint(code, n):
    v = code - (1 << n) if code & (1 << (n - 1)) else code
    return v & MASK32


def small_float(code, mbits, signed):
    """Widen a float with a 5-bit exponent (bias 15) and mbits mantissa bits to f32 bits.

    NaN payloads: inlay's documented choice (convert.rs; ia-semantics open question 5) keeps
    the sign and moves the mantissa to the top of the f32 mantissa without forcing the quiet bit.
    """
    sign = 0
    if signed:
        sign = 0x80000000 if code & (1 << (5 + mbits)) else 0
        code &= (1 << (5 + mbits)) - 1
    e = code >> mbits
    m = code & ((1 << mbits) - 1)
    if e == 31:
        return sign | 0x7F800000 | (m << (23 - mbits))
    if e == 0:
        if m == 0:
            return sign
        val = Fraction(m, 1 << mbits) * Fraction(1, 1 << 14)
    else:
        val = Fraction(2) ** (e - 15) * (1 + Fraction(m, 1 << mbits))
    return sign | f32_bits_of_fraction(val)


def half(code):
    return small_float(code, 10, True)


# ----------------------------------------------------------------------------------------------
# The 47 IA vertex formats (createinputlayout-rules section 3), described by their names.

IA_FORMATS = [
    (2, "R32G32B32A32_FLOAT"), (3, "R32G32B32A32_UINT"), (4, "R32G32B32A32_SINT"),
    (6, "R32G32B32_FLOAT"), (7, "R32G32B32_UINT"), (8, "R32G32B32_SINT"),
    (10, "R16G16B16A16_FLOAT"), (11, "R16G16B16A16_UNORM"), (12, "R16G16B16A16_UINT"),
    (13, "R16G16B16A16_SNORM"), (14, "R16G16B16A16_SINT"),
    (16, "R32G32_FLOAT"), (17, "R32G32_UINT"), (18, "R32G32_SINT"),
    (24, "R10G10B10A2_UNORM"), (25, "R10G10B10A2_UINT"), (26, "R11G11B10_FLOAT"),
    (28, "R8G8B8A8_UNORM"), (30, "R8G8B8A8_UINT"), (31, "R8G8B8A8_SNORM"), (32, "R8G8B8A8_SINT"),
    (34, "R16G16_FLOAT"), (35, "R16G16_UNORM"), (36, "R16G16_UINT"), (37, "R16G16_SNORM"),
    (38, "R16G16_SINT"),
    (41, "R32_FLOAT"), (42, "R32_UINT"), (43, "R32_SINT"),
    (49, "R8G8_UNORM"), (50, "R8G8_UINT"), (51, "R8G8_SNORM"), (52, "R8G8_SINT"),
    (54, "R16_FLOAT"), (56, "R16_UNORM"), (57, "R16_UINT"), (58, "R16_SNORM"), (59, "R16_SINT"),
    (61, "R8_UNORM"), (62, "R8_UINT"), (63, "R8_SNORM"), (64, "R8_SINT"),
    (85, "B5G6R5_UNORM"), (86, "B5G5R5A1_UNORM"), (87, "B8G8R8A8_UNORM"),
    (88, "B8G8R8X8_UNORM"), (115, "B4G4R4A4_UNORM"),
]
assert len(IA_FORMATS) == 47

LANE = {"R": 0, "G": 1, "B": 2, "A": 3}


class Fmt:
    def __init__(self, name):
        self.name = name
        chans, kind = name.rsplit("_", 1)
        self.kind = kind  # FLOAT UNORM SNORM UINT SINT
        self.comps = []  # (channel, bit offset, bits) in storage order
        pos = 0
        for ch, bits in re.findall(r"([RGBAX])(\d+)", chans):
            self.comps.append((ch, pos, int(bits)))
            pos += int(bits)
        self.bits = pos
        self.size = pos // 8

    @property
    def present(self):
        return [c for c in self.comps if c[0] != "X"]

    def align(self):
        p = 1
        while p < self.size:
            p *= 2
        return min(p, 4)

    def float_like(self):
        return self.kind in ("FLOAT", "UNORM", "SNORM")

    def sig_type(self):
        return {"UINT": "uint", "SINT": "sint"}.get(self.kind, "float")

    def default_w(self):
        return ONE if self.float_like() else 1

    def convert(self, bits, code):
        k = self.kind
        if k == "FLOAT":
            if bits == 32:
                return code
            if bits == 16:
                return half(code)
            if bits == 11:
                return small_float(code, 6, False)
            if bits == 10:
                return small_float(code, 5, False)
            raise ValueError(bits)
        if k == "UNORM":
            return unorm(code, bits)
        if k == "SNORM":
            return snorm(code, bits)
        if k == "UINT":
            return code
        if k == "SINT":
            return sint(code, bits)
        raise ValueError(k)

    def pack(self, codes):
        """codes: raw field values for every component in storage order (X included)."""
        v = 0
        for (ch, pos, bits), c in zip(self.comps, codes):
            assert 0 <= c < (1 << bits)
            v |= c << pos
        return v.to_bytes(self.size, "little")

    def decode(self, data):
        """Register lanes for element bytes (section 1.2/1.3 + defaults of section 2)."""
        v = int.from_bytes(data[: self.size], "little")
        lanes = [0, 0, 0, self.default_w()]
        for ch, pos, bits in self.present:
            code = (v >> pos) & ((1 << bits) - 1)
            lanes[LANE[ch]] = self.convert(bits, code)
        return lanes

    def oob(self):
        """Out-of-bounds fetch: present components 0, missing ones defaulted (section 2)."""
        lanes = [0, 0, 0, self.default_w()]
        for ch, _, _ in self.present:
            lanes[LANE[ch]] = 0
        return lanes


FORMATS = {name: Fmt(name) for _, name in IA_FORMATS}
FORMAT_VALUE = {name: v for v, name in IA_FORMATS}


def fmt(name):
    return FORMATS[name]


# ----------------------------------------------------------------------------------------------
# Input-assembler model (ia-semantics sections 2-6)


def hexs(b):
    return bytes(b).hex()


def u32le(*words):
    return b"".join(struct.pack("<I", w & MASK32) for w in words)


def u16le(*words):
    return b"".join(struct.pack("<H", w & 0xFFFF) for w in words)


def f32le(*xs):
    return b"".join(struct.pack("<f", x) for x in xs)


def resolve_offsets(elements):
    """APPEND_ALIGNED resolution per slot, in array order (R26)."""
    end = {}
    out = []
    for e in elements:
        f = fmt(e["format"])
        if e["offset"] == "append":
            prev = end.get(e["slot"], 0)
            a = f.align()
            off = (prev + a - 1) // a * a
        else:
            off = e["offset"]
        end[e["slot"]] = off + f.size
        out.append(off)
    return out


def simulate(elements, registers, vbs, ib, call):
    """The IA vertex stream.

    elements: element dicts (format, slot, offset, class, step_rate) with offsets resolved in
    `offset`; registers: register per element (None = not consumed); vbs: {slot: (data, stride,
    offset)}; ib: None or (format, offset, data); call: schema call dict.
    Returns (vertices, cuts) where vertices is a list of dicts (vertex_id, instance_id,
    registers) and cuts is, per instance, the list of stream positions after which a cut occurred.
    """
    kind = call["kind"]
    if kind in ("draw_instanced_indirect", "draw_indexed_instanced_indirect"):
        data = bytes.fromhex(call["args"]["data"])
        o = call["args"]["offset"]
        words = struct.unpack_from("<5I" if "indexed" in kind else "<4I", data, o)
        if "indexed" in kind:
            call = dict(kind="draw_indexed_instanced", index_count_per_instance=words[0],
                        instance_count=words[1], start_index=words[2],
                        base_vertex=struct.unpack("<i", struct.pack("<I", words[3]))[0],
                        start_instance=words[4])
        else:
            call = dict(kind="draw_instanced", vertex_count_per_instance=words[0],
                        instance_count=words[1], start_vertex=words[2], start_instance=words[3])
        kind = call["kind"]
    indexed = "indexed" in kind
    if kind == "draw":
        count, instances, start, base, sinst = call["vertex_count"], 1, call["start_vertex"], 0, 0
    elif kind == "draw_indexed":
        count, instances, start, base, sinst = (call["index_count"], 1, call["start_index"],
                                                call["base_vertex"], 0)
    elif kind == "draw_instanced":
        count, instances, start, base, sinst = (call["vertex_count_per_instance"],
                                                call["instance_count"], call["start_vertex"], 0,
                                                call["start_instance"])
    else:
        count, instances, start, base, sinst = (call["index_count_per_instance"],
                                                call["instance_count"], call["start_index"],
                                                call["base_vertex"], call["start_instance"])
    out = []
    runs = []  # per instance: list of runs (lists of stream positions)
    for j in range(instances):
        inst_runs = [[]]
        for k in range(count):
            if indexed:
                if ib is None:
                    idx = 0  # unbound index buffer reads 0 (section 2)
                else:
                    ifmt, ioff, idata = ib
                    size = 2 if ifmt == "R16_UINT" else 4
                    addr = ioff + (start + k) * size
                    if addr + size > len(idata):
                        raise ValueError("index read out of bounds: not used by the suite")
                    idx = int.from_bytes(idata[addr: addr + size], "little")
                    if idx == (0xFFFF if size == 2 else MASK32):
                        inst_runs.append([])
                        continue
                vid = idx
                vindex = (base + idx) & MASK32
            else:
                vid = k
                vindex = (start + k) & MASK32
            regs = {}
            for e, r in zip(elements, registers):
                if r is None:
                    continue
                f = fmt(e["format"])
                if e["slot"] not in vbs:
                    regs[r] = [0, 0, 0, 0]  # unbound slot: all zero (R45)
                    continue
                data, stride, boff = vbs[e["slot"]]
                if e["class"] == "instance":
                    rate = e["step_rate"]
                    n = sinst + (j // rate if rate else 0)
                else:
                    n = vindex
                addr = (boff + stride * n + e["offset"]) & MASK32
                if addr < boff or addr + f.size > len(data):
                    regs[r] = f.oob()
                else:
                    regs[r] = f.decode(data[addr: addr + f.size])
            inst_runs[-1].append(len(out))
            out.append(dict(vertex_id=vid & MASK32, instance_id=j, registers=regs))
        runs.append([r for r in inst_runs])
    return out, runs


def assemble(topology, runs):
    """Primitives per topology (section 6): list of (id, [stream positions])."""
    prims = []
    for inst_runs in runs:
        pid = 0
        for run in inst_runs:
            n = len(run)
            local = []
            if topology == "point_list":
                local = [[k] for k in range(n)]
            elif topology == "line_list":
                local = [[2 * k, 2 * k + 1] for k in range(n // 2)]
            elif topology == "line_strip":
                local = [[k, k + 1] for k in range(max(n - 1, 0))]
            elif topology == "triangle_list":
                local = [[3 * k, 3 * k + 1, 3 * k + 2] for k in range(n // 3)]
            elif topology == "triangle_strip":
                local = [[k, k + 1, k + 2] if k % 2 == 0 else [k, k + 2, k + 1]
                         for k in range(max(n - 2, 0))]
            elif topology == "line_list_adj":
                local = [[4 * k, 4 * k + 1, 4 * k + 2, 4 * k + 3] for k in range(n // 4)]
            elif topology == "line_strip_adj":
                local = [[k, k + 1, k + 2, k + 3] for k in range(max(n - 3, 0))]
            elif topology == "triangle_list_adj":
                local = [[6 * k + i for i in range(6)] for k in range(n // 6)]
            elif topology == "triangle_strip_adj":
                cnt = (n - 4) // 2 if n >= 6 else 0
                for k in range(cnt):
                    t = 2 * k
                    if cnt == 1:
                        local.append([0, 1, 2, 5, 4, 3])
                    elif k == 0:
                        local.append([0, 1, 2, 6, 4, 3])
                    elif k == cnt - 1:
                        if k % 2 == 0:
                            local.append([t, t - 2, t + 2, t + 5, t + 4, t + 3])
                        else:
                            local.append([t, t + 3, t + 4, t + 5, t + 2, t - 2])
                    else:
                        if k % 2 == 0:
                            local.append([t, t - 2, t + 2, t + 6, t + 4, t + 3])
                        else:
                            local.append([t, t + 3, t + 4, t + 6, t + 2, t - 2])
            elif topology.startswith("patch_list_"):
                m = int(topology[len("patch_list_"):])
                local = [[m * k + i for i in range(m)] for k in range(n // m)]
            else:
                raise ValueError(topology)
            for p in local:
                prims.append(dict(id=pid, vertices=[run[i] for i in p]))
                pid += 1
    return prims


def lanes_hex(lanes):
    return [None if v is None else "%08x" % (v & MASK32) for v in lanes]
