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
    out = inlay.encode(layout, arrays, clamp=True)
    assert list(out) == [0]
    assert out[0] == (struct.pack("<HH", 0x3C00, 0x7C00) + bytes([128, 0, 255, 64])
                      + bytes([0x81, 0x40, 255]))
    d3d = inlay.encode(layout, arrays, rounding="d3d", clamp=True)
    assert d3d[0][2:4] == struct.pack("<H", 0x7BFF)  # toward zero, largest finite
    arrays["I2"] = [-5]
    assert inlay.encode(layout, arrays, clamp=True)[0][10] == 0


def test_out_of_range_values_are_refused_unless_clamped():
    """Issue 34 item 8: 65520 into R16_FLOAT became inf and 300 into R8_UINT 255, silently.
    Without clamp=True each is refused naming the row, element, lane and value, in the CLI's
    words; with it the encoder saturates."""
    layout = [
        {"semantic": "POSITION", "format": "R16G16_FLOAT", "offset": 0},
        {"semantic": "NORMAL", "format": "R16G16_SINT", "offset": 4},
        {"semantic": "I", "index": 2, "format": "R8_UINT", "offset": 8},
    ]
    good = {"POSITION": [[1.0, 2.0], [65504.0, 0.0]],
            "NORMAL": np.array([[1, 2], [-32768, 32767]], dtype=np.int32), "I2": [0, 255]}
    assert len(inlay.encode(layout, good)[0]) == 2 * 9
    for key, row, msg, at, saturated in [
        ("POSITION", [65520.0, 0.0],
         "POSITION0.x: 65520.0 is out of range for R16G16_FLOAT (finite values up to ±65504)",
         slice(0, 2), struct.pack("<H", 0x7C00)),
        ("NORMAL", [40000, 0],
         "NORMAL0.x: 40000 is out of range for R16G16_SINT (-32768 to 32767)",
         slice(4, 6), struct.pack("<h", 32767)),
        ("I2", 300, "I2.x: 300 is out of range for R8_UINT (0 to 255)", slice(8, 9), b"\xff"),
    ]:
        arrays = {k: np.array(v) for k, v in good.items()}
        arrays[key][1] = row
        with pytest.raises(inlay.LayoutError) as e:
            inlay.encode(layout, arrays)
        assert str(e.value) == f"row 1: {msg}; clamp=True saturates it"
        clamped = inlay.encode(layout, arrays, clamp=True)[0]
        assert clamped[9:][at] == saturated


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
        # The cases pin the encoder's own conversion, saturation included (clamp=True).
        got = inlay.encode(layout, {"V": rows.view(dtype)},
                           rounding=e.get("rounding", "nearest"), clamp=True)
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
    with pytest.raises(inlay.LayoutError, match="arrays\\[Q\\]: 2 rows, but 1"):
        inlay.encode(layout, {"P": [[0, 0]], "Q": [0, 1]})
    with pytest.raises(inlay.LayoutError, match="rounding"):
        inlay.encode(layout, {"P": [[0, 0]], "Q": [0]}, rounding="up")
    with pytest.raises(inlay.LayoutError, match="stride 4 is smaller than the 9 bytes"):
        inlay.encode(layout, {"P": [[0, 0]], "Q": [0]}, strides=4)
    with pytest.raises(inlay.LayoutError, match="5 components"):
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
                       {"V": lanes.view(dtype)}, rounding=rounding, clamp=True)[0]
    assert got.hex() == want.hex()
