"""The Direct3D 12 conformance cases (schema 3, conformance/d3d12-*.json) through Python.

Creation: `inlay.create_input_layout(..., api="d3d12", pipeline=...)` must give each case's
HRESULT, D3D12 message ids and offsets. Draws: the created layout (which keeps the pipeline's
strip cut) decoded with `inlay.decode` must give the expected SV_VertexID / SV_InstanceID
and register bits. Expected values come from conformance/tools/d3d12_gen.py (the D3D12 rules
and the Windows-run tests they cite), not from inlay.
"""

import json

import numpy as np
import pytest

import inlay
from conftest import ROOT

SUITE = ROOT / "conformance"


def d3d12_cases():
    for path in sorted(SUITE.glob("d3d12-*.json")):
        data = json.loads(path.read_text())
        assert data["schema"] == "inlay-conformance/3"
        for case in data["cases"]:
            yield pytest.param(case, id=f"{path.stem}:{case['name']}")


def test_the_suite_is_there():
    cases = [p.values[0] for p in d3d12_cases()]
    assert len(cases) >= 25
    assert all(c["api"] == "d3d12" and c["evidence"] for c in cases)


def signature_blob(case, inlay_cli, tmp_path):
    """The case's signature as a signature-only blob, written by `inlay signature`."""
    (tmp_path / "sig.json").write_text(json.dumps(case["shader"]["signature"]))
    inlay_cli("signature", tmp_path / "sig.json", "--out", tmp_path / "sig.dxbc")
    return (tmp_path / "sig.dxbc").read_bytes()


def create(case, blob):
    return inlay.create_input_layout(
        case["elements"],
        blob,
        api="d3d12",
        feature_level=case.get("feature_level"),
        pipeline=case.get("pipeline"),
    )


# A NULL element array has no Python spelling (a list is always an array): those cases run
# through the library (inlay conform) and the C ABI (crates/inlay-capi/tests/c_programs.rs).
@pytest.mark.parametrize(
    "case", [p for p in d3d12_cases() if p.values[0]["elements"] is not None])
def test_d3d12_case(case, inlay_cli, tmp_path):
    layout = create(case, signature_blob(case, inlay_cli, tmp_path))
    expect = case["expect"]
    assert layout.hresult == expect["hresult"]
    errors = {d.id for d in layout.diagnostics if d.severity == "error"}
    warnings = {d.id for d in layout.diagnostics if d.severity == "warning"}
    assert set(expect.get("errors", [])) <= errors
    assert set(expect.get("warnings", [])) <= warnings
    if "offsets" in expect:
        assert list(layout.offsets) == expect["offsets"]
    if "draw" not in case:
        return
    d = case["draw"]
    if "ib_strip_cut_value" in (case.get("pipeline") or {}):
        # inlay.decode takes no D3D12 pipeline state yet: its strips cut as D3D11's do, so the
        # D3D12 strip-cut draws run through `inlay conform` and the C ABI only (issue 37, open).
        pytest.xfail("inlay.decode has no ib_strip_cut_value parameter yet (issue 37)")
    ib = d.get("index_buffer")
    out = inlay.decode(
        layout,
        {vb["slot"]: bytes.fromhex(vb["data"]) for vb in d["vertex_buffers"]},
        index_buffer=bytes.fromhex(ib["data"]) if ib else None,
        index_format=ib["format"] if ib else "R16_UINT",
        topology=d["topology"],
        draw=dict(d["call"]),
        strides={vb["slot"]: vb["stride"] for vb in d["vertex_buffers"]},
        offsets={vb["slot"]: vb.get("offset", 0) for vb in d["vertex_buffers"]},
    )
    expected = case["expect_draw"]["vertices"]
    assert out["SV_VertexID"].tolist() == [v["vertex_id"] for v in expected]
    assert out["SV_InstanceID"].tolist() == [v["instance_id"] for v in expected]
    names = [e["semantic"] for e in case["elements"]]
    for row, v in enumerate(expected):
        for reg, lanes in v.get("registers", {}).items():
            arr = out[names[int(reg)]]
            bits = np.ascontiguousarray(arr[row]).view(np.uint32).ravel().tolist()
            want = [int(x, 16) for x in lanes[: len(bits)]]
            assert bits == want, (case["name"], row, reg)
