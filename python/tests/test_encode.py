"""`inlay.encode`: the library's encoder through numpy, checked against the repository's
ENCODE conformance cases (where present), hand-computed bytes and decode round trips."""

import json
import struct

import numpy as np
import pytest

import inlay
from conftest import ROOT
from test_decode import IA_FORMATS


def test_hand_computed_bytes_and_roundings():
    layout = [
        {"semantic": "POSITION", "format": "R16G16_FLOAT", "offset": 0},
        {"semantic": "COLOR", "format": "B8G8R8A8_UNORM", "offset": "append"},
        {"semantic": "N", "format": "R8G8_SNORM", "offset": "append"},
        {"semantic": "I", "index": 2, "format": "R8_UINT", "offset": "append"},
    ]
    arrays = {
        "POSITION": [[1.0, 65520.0]],            # 65520 rounds to infinity (nearest)
        "COLOR": [[1.0, 0.0, 0.5, 0.25]],         # red in byte 2, 0.5*255=127.5 -> 128
        "N": [[-1.0, 0.5]],                        # -1 -> -127 (never -128), 63.5 -> 64
        "I2": [300],                               # saturates to 255
    }
    out = inlay.encode(layout, arrays)
    assert list(out) == [0]
    assert out[0] == (struct.pack("<HH", 0x3C00, 0x7C00) + bytes([128, 0, 255, 64])
                      + bytes([0x81, 0x40, 255]))
    d3d = inlay.encode(layout, arrays, rounding="d3d")
    assert d3d[0][2:4] == struct.pack("<H", 0x7BFF)  # toward zero, largest finite
    # An integer outside the 32-bit register's range is refused, as `inlay encode` refuses it.
    arrays["I2"] = [-5]
    with pytest.raises(inlay.LayoutError, match="I2.x: `-5` is not an integer from 0 to 4294967295"):
        inlay.encode(layout, arrays)


@pytest.mark.parametrize("fmt", IA_FORMATS)
def test_decode_encode_round_trip(fmt):
    """Random codes decoded then re-encoded give the same bytes whenever the code is
    canonical (re-decoding gives the same values, always)."""
    _, size, comps, kind = inlay.format_info(fmt)
    rng = np.random.default_rng(abs(hash(fmt)) % 2**32)
    raw = rng.integers(0, 256, size=size * 512, dtype=np.uint8).tobytes()
    layout = [{"semantic": "A", "format": fmt, "offset": 0}]
    dec = inlay.decode(layout, raw, topology="point_list")
    enc = inlay.encode(layout, dec)[0]
    again = inlay.decode(layout, enc, topology="point_list")
    a, b = dec["A"], again["A"]
    if kind == "float":
        # NaN payloads are kept by both directions; compare the bits.
        np.testing.assert_array_equal(a.view(np.uint32), b.view(np.uint32))
    else:
        np.testing.assert_array_equal(a, b)


def test_encode_conformance_cases():
    cases = []
    for path in sorted((ROOT / "conformance").glob("*.json")):
        for case in json.loads(path.read_text())["cases"]:
            if "encode" in case:
                cases.append(case)
    if not cases:
        print("NOTICE: the repository's conformance suite has no ENCODE cases yet")
        pytest.skip("no ENCODE conformance cases in conformance/")
    for case in cases:
        e = case["encode"]
        rows = np.array([[int(x, 16) for x in r] for r in e["values"]], dtype=np.uint32)
        layout = [{"semantic": "V", "format": e["format"], "offset": 0}]
        want = case["expect_encode"]
        if want.get("error"):
            # A refused format may already fail as a layout (no such format, or not a vertex
            # format); either way the error is a LayoutError.
            with pytest.raises(inlay.LayoutError):
                inlay.encode(layout, {"V": rows}, rounding=e.get("rounding", "nearest"))
            continue
        _, _, comps, kind = inlay.format_info(str(e["format"]))
        dtype = {"uint": np.uint32, "sint": np.int32}.get(kind, np.float32)
        got = inlay.encode(layout, {"V": rows.view(dtype)}, rounding=e.get("rounding", "nearest"))
        assert got[0].hex() == want["data"], case["name"]


def test_instanced_slots_and_strides():
    layout = [
        {"semantic": "P", "format": "R32_FLOAT", "offset": 0},
        {"semantic": "T", "format": "R8G8_UINT", "slot": 1, "offset": 0, "class": "instance",
         "step_rate": 2},
    ]
    out = inlay.encode(layout, {"P": np.array([1.5, 2.5], dtype=np.float32),
                                "T": [[1, 2], [3, 4]]}, strides={0: 8}, padding=0xEE)
    assert out[0] == struct.pack("<f", 1.5) + b"\xee" * 4 + struct.pack("<f", 2.5) + b"\xee" * 4
    assert out[1] == bytes([1, 2, 3, 4])
    dec = inlay.decode(layout, out, strides={0: 8},
                       draw={"kind": "draw_instanced", "instance_count": 4})
    assert dec["T"].tolist() == [[1, 2]] * 4 + [[3, 4]] * 4


def test_encode_errors():
    layout = [{"semantic": "P", "format": "R32G32_FLOAT", "offset": 0},
              {"semantic": "Q", "format": "R8_UNORM", "offset": 8}]
    with pytest.raises(inlay.LayoutError, match="no array for element Q"):
        inlay.encode(layout, {"P": [[0, 0]]})
    with pytest.raises(inlay.LayoutError, match="`R` is not an element"):
        inlay.encode(layout, {"P": [[0, 0]], "Q": [0], "R": [1]})
    with pytest.raises(inlay.LayoutError, match="arrays\\[Q\\]: Q0: 2 rows, but 1 are expected"):
        inlay.encode(layout, {"P": [[0, 0]], "Q": [0, 1]})
    with pytest.raises(inlay.LayoutError, match="rounding"):
        inlay.encode(layout, {"P": [[0, 0]], "Q": [0]}, rounding="up")
    with pytest.raises(inlay.LayoutError, match="stride 4 is smaller than the 9 bytes"):
        inlay.encode(layout, {"P": [[0, 0]], "Q": [0]}, strides=4)
    with pytest.raises(inlay.LayoutError, match="P0: 5 values, a register has 4 lanes"):
        inlay.encode(layout, {"P": np.zeros((1, 5)), "Q": [0]})


def _encode_model():
    import sys
    tools = str(ROOT / "conformance" / "tools")
    if tools not in sys.path:
        sys.path.insert(0, tools)
    import encode_gen
    import encode_ref
    return encode_ref, encode_gen


@pytest.mark.parametrize("rounding", ["nearest", "d3d"])
@pytest.mark.parametrize("fmt", IA_FORMATS)
def test_every_format_against_the_independent_encoding_model(fmt, rounding):
    """conformance/tools/encode_ref.py (exact rationals, no inlay code) on the edge values its
    case generator picks: NaNs, ±0, ±inf, denormals, ties and their neighbours, overflow."""
    ref, gen = _encode_model()
    rows = gen.rows_for(gen.values_for(fmt))
    want = b"".join(ref.encode(fmt, r, rounding) for r in rows)
    _, _, comps, kind = inlay.format_info(fmt)
    lanes = np.array(rows, dtype=np.uint32)
    dtype = {"uint": np.uint32, "sint": np.int32}.get(kind, np.float32)
    got = inlay.encode([{"semantic": "V", "format": fmt, "offset": 0}],
                       {"V": lanes.view(dtype)}, rounding=rounding)[0]
    assert got.hex() == want.hex()


# Issue 35 item 2: the checks of `inlay encode` (one library call, `inlay::encode::values`),
# with the command line's own words, for the inputs Python used to write silently.
ENCODE_REFUSALS = [
    # (format, Python array, CLI JSON lanes, the library's message)
    ("R8G8B8A8_UINT", np.full((1, 4), 1.5), [1.5, 1, 1, 1],
     "A0.x: `1.5` is not an integer from 0 to 4294967295 (A0 is R8G8B8A8_UINT, a UINT format)"),
    ("R16G16_FLOAT", np.zeros((1, 1), np.float32), [0.0],
     "A0: 1 values, R16G16_FLOAT has 2 components"),
    ("R32_SINT", np.array([[2**31]]), [2**31],
     "A0.x: `2147483648` is not an integer from -2147483648 to 2147483647 (A0 is R32_SINT, a SINT format)"),
    ("R32_UINT", np.array([[2**32]], np.uint64), [2**32],
     "A0.x: `4294967296` is not an integer from 0 to 4294967295 (A0 is R32_UINT, a UINT format)"),
    ("R32_FLOAT", np.zeros((1, 5)), [0, 0, 0, 0, 0], "A0: 5 values, a register has 4 lanes"),
]


@pytest.mark.parametrize("fmt,array,lanes,message", ENCODE_REFUSALS)
def test_encode_refuses_what_the_cli_refuses(fmt, array, lanes, message, inlay_cli, tmp_path):
    layout = [{"semantic": "A", "format": fmt, "offset": 0}]
    with pytest.raises(inlay.LayoutError) as e:
        inlay.encode(layout, {"A": array})
    assert message in str(e.value)
    (tmp_path / "l.json").write_text(json.dumps({"elements": layout}))
    (tmp_path / "v.json").write_text(json.dumps([{"vertex_id": 0, "A0": lanes}]))
    r = inlay_cli("encode", tmp_path / "l.json", "--input", tmp_path / "v.json",
                  "--out", f"0={tmp_path / 'o.vb'}", check=False)
    assert r.returncode != 0 and message in r.stderr, r.stderr
    assert not (tmp_path / "o.vb").exists()


def test_encode_float_array_for_an_integer_format():
    """A (16, 3) float array for R8G8B8A8_UINT was written as [0, 5, 93, 0]: now refused
    (3 lanes for a 4-lane format), and floats are refused for an integer format even when
    whole, as the command line refuses `1.0`."""
    layout = [{"semantic": "BLENDINDICES", "format": "R8G8B8A8_UINT", "offset": 0}]
    with pytest.raises(inlay.LayoutError, match=r"arrays\[BLENDINDICES\]: BLENDINDICES0: "
                       r"3 values, R8G8B8A8_UINT has 4 components"):
        inlay.encode(layout, {"BLENDINDICES": np.ones((16, 3))})
    with pytest.raises(inlay.LayoutError, match=r"arrays\[BLENDINDICES\]: row 0: "
                       r"BLENDINDICES0.x: `1` is not an integer from 0 to 4294967295"):
        inlay.encode(layout, {"BLENDINDICES": np.ones((16, 4))})
    ok = inlay.encode(layout, {"BLENDINDICES": np.full((2, 4), 7, np.int64)})
    assert ok[0] == bytes([7] * 8)


def test_original_records_keep_unchanged_codes():
    """`original=`: values equal to what the earlier bytes decode to keep those bytes
    (SNORM -128 and a float16 NaN payload survive), changed ones are encoded, padding is
    copied."""
    layout = [{"semantic": "N", "format": "R8G8_SNORM", "offset": 0},
              {"semantic": "H", "format": "R16_FLOAT", "offset": 2}]
    raw = bytes([0x80, 0x81, 0x01, 0x7D, 0xEE, 0xEE,     # N = (-1, -1), H = NaN 0x7d01
                 0x7F, 0x00, 0x00, 0x3C, 0xAB, 0xCD])    # N = (1, 0), H = 1.0
    strides = {0: 6}
    dec = inlay.decode(layout, raw, strides=strides, topology="point_list")
    # A plain encode writes the canonical codes (-127, the quiet NaN) and zero padding.
    plain = inlay.encode(layout, dec, strides=strides)[0]
    assert plain != raw
    assert inlay.encode(layout, dec, strides=strides, original={0: raw})[0] == raw
    dec["H"][1] = 0.5
    out = inlay.encode(layout, dec, strides=strides, original={0: raw})[0]
    assert out == raw[:8] + bytes([0x00, 0x38]) + raw[10:]
    with pytest.raises(inlay.LayoutError, match=r"original\[0\]: .*11 bytes"):
        inlay.encode(layout, dec, strides=strides, original={0: raw[:-1]})


def test_encode_warns_of_values_a_format_cannot_hold():
    layout = [{"semantic": "C", "format": "R8G8_UNORM", "offset": 0},
              {"semantic": "H", "format": "R16_FLOAT", "offset": 2},
              {"semantic": "I", "format": "R8_UINT", "offset": 4}]
    w = []
    out = inlay.encode(layout, {"C": [[0.5, 1.5], [2, 0]], "H": [1.0, 70000.0], "I": [3, 300]},
                       warnings=w)
    assert out[0] == bytes([128, 255, 0x00, 0x3C, 3, 255, 0, 0x00, 0x7C, 255])
    assert w == [
        "arrays[C]: 2 value(s) the format cannot hold; first, row 0: C0 (R8G8_UNORM) lane y: "
        "1.5 is outside 0..1 and is clamped",
        "arrays[H]: 1 value(s) the format cannot hold; first, row 1: H0 (R16_FLOAT) lane x: "
        "70000 is beyond the format's largest value and becomes infinity",
        "arrays[I]: 1 value(s) the format cannot hold; first, row 1: I0 (R8_UINT) lane x: "
        "300 is beyond 8 bits and is saturated",
    ]
    w = []
    inlay.encode(layout, {"C": [[0, 1]], "H": [65504.0], "I": [255]}, warnings=w)
    assert w == []
