"""Every draw case of the repository's conformance suite, decoded through `inlay.decode`.

The expected registers of these cases were computed by the independent Python model in
conformance/tools (exact rational rounding, no inlay code). Covers all 47 IA formats
(draw-formats), defaults and out-of-bounds reads, instancing with step rates, strips with
cuts, every topology's primitives, indirect draws and the targets.
"""

import json

import numpy as np
import pytest

import inlay
from conftest import ROOT

SUITE = ROOT / "conformance"


def draw_cases():
    for path in sorted(SUITE.glob("draw-*.json")):
        for case in json.loads(path.read_text())["cases"]:
            if "draw" in case:
                yield pytest.param(case, id=f"{path.stem}:{case['name']}")


def test_the_suite_is_there():
    names = {p.stem for p in SUITE.glob("draw-*.json")}
    assert {"draw-formats", "draw-instancing", "draw-cut", "draw-topologies"} <= names
    assert sum(1 for _ in draw_cases()) >= 200


def register_of(element, signature):
    for s in signature:
        if (s["semantic"].lower() == (element["semantic"] or "").lower()
                and s.get("index", 0) == element.get("index", 0)):
            return s.get("register")
    return None


def key_of(element):
    index = element.get("index", 0)
    return element["semantic"] + (str(index) if index else "")


@pytest.mark.parametrize("case", list(draw_cases()))
def test_draw_case(case):
    d = case["draw"]
    api = case.get("api", "d3d11")
    level = case.get("feature_level")
    call = dict(d["call"])
    ib = d.get("index_buffer")
    out = inlay.decode(
        case["elements"],
        {vb["slot"]: bytes.fromhex(vb["data"]) for vb in d["vertex_buffers"]},
        index_buffer=bytes.fromhex(ib["data"]) if ib else None,
        index_format=ib["format"] if ib else "R16_UINT",
        index_offset=ib.get("offset", 0) if ib else 0,
        topology=d["topology"],
        draw=call,
        strides={vb["slot"]: vb["stride"] for vb in d["vertex_buffers"]},
        offsets={vb["slot"]: vb.get("offset", 0) for vb in d["vertex_buffers"]},
        api=api,
        feature_level=level,
    )
    expected = case["expect_draw"]["vertices"]
    assert out["SV_VertexID"].shape == (len(expected),)
    assert out["SV_VertexID"].tolist() == [v["vertex_id"] for v in expected]
    assert out["SV_InstanceID"].tolist() == [v["instance_id"] for v in expected]
    signature = case["shader"]["signature"]
    # A later element feeding the same register wins (as in the assembler).
    fed = {}
    for e in case["elements"]:
        r = register_of(e, signature)
        if r is not None:
            fed[str(r)] = e
    compared = 0
    for reg, e in fed.items():
        arr = out[key_of(e)]
        bits = arr.view(np.uint32)
        assert bits.shape[0] == len(expected)
        for row, v in zip(bits, expected):
            want = v["registers"].get(reg)
            if want is None:
                continue
            for lane, w in enumerate(want[: arr.shape[1]]):
                if w is not None:
                    assert f"{int(row[lane]):08x}" == w, (reg, lane, v)
                    compared += 1
    if expected and fed:
        assert compared > 0
    prims = case["expect_draw"].get("primitives")
    if prims is not None:
        assert out["primitives"].tolist() == [p["vertices"] for p in prims]
        assert out["SV_PrimitiveID"].tolist() == [p["id"] for p in prims]
