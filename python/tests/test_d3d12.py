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


def decode_case(case, layout, **kw):
    d = case["draw"]
    ib = d.get("index_buffer")
    return inlay.decode(
        layout,
        {vb["slot"]: bytes.fromhex(vb["data"]) for vb in d["vertex_buffers"]},
        index_buffer=bytes.fromhex(ib["data"]) if ib else None,
        index_format=ib["format"] if ib else "R16_UINT",
        topology=d["topology"],
        draw=dict(d["call"]),
        strides={vb["slot"]: vb["stride"] for vb in d["vertex_buffers"]},
        offsets={vb["slot"]: vb.get("offset", 0) for vb in d["vertex_buffers"]},
        **kw,
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
    out = decode_case(case, layout)
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


STRIP_CUT_DRAWS = [
    p for p in d3d12_cases()
    if "draw" in p.values[0] and "ib_strip_cut_value" in (p.values[0].get("pipeline") or {})
]


def test_the_strip_cut_draws_are_there():
    assert len(STRIP_CUT_DRAWS) >= 7


@pytest.mark.parametrize("case", STRIP_CUT_DRAWS)
def test_decode_takes_the_pipeline_with_an_element_list(case):
    """`inlay.decode(elements, api="d3d12", pipeline=...)`: the pipeline's strip cut decides
    which index cuts, as with `inlay decode --api d3d12 --strip-cut`."""
    pipeline = {k: v for k, v in case["pipeline"].items()
                if k in ("ib_strip_cut_value", "primitive_topology_type", "root_signature_flags")}
    out = decode_case(case, case["elements"], api="d3d12", pipeline=pipeline)
    expected = case["expect_draw"]["vertices"]
    assert out["SV_VertexID"].tolist() == [v["vertex_id"] for v in expected]
    assert out["SV_InstanceID"].tolist() == [v["instance_id"] for v in expected]


def test_decode_pipeline_refusals():
    """The same checks as the CLI, as error values."""
    elements = [{"semantic": "POSITION", "index": 0, "format": "R32_FLOAT", "slot": 0, "offset": 0}]
    vb = np.arange(4, dtype=np.float32).tobytes()
    ib = np.array([0, 1, 0xFFFF, 2, 3], dtype=np.uint16).tobytes()
    # Strip cut disabled: 0xFFFF is a vertex (read out of bounds: zeros), not a cut.
    out = inlay.decode(elements, vb, ib, topology="line_strip", api="d3d12",
                       pipeline={"ib_strip_cut_value": 0})
    assert out["SV_VertexID"].tolist() == [0, 1, 0xFFFF, 2, 3]
    out = inlay.decode(elements, vb, ib, topology="line_strip", api="d3d12",
                       pipeline={"ib_strip_cut_value": 1})
    assert out["SV_VertexID"].tolist() == [0, 1, 2, 3]
    # 0xFFFFFFFF never equals a 16-bit index.
    out = inlay.decode(elements, vb, ib, topology="line_strip", api="d3d12",
                       pipeline={"ib_strip_cut_value": 2})
    assert out["SV_VertexID"].tolist() == [0, 1, 0xFFFF, 2, 3]
    # A topology of another type than the pipeline's: D3D12 #611.
    with pytest.raises(inlay.DrawError, match="611"):
        inlay.decode(elements, vb, ib, topology="line_strip", api="d3d12",
                     pipeline={"primitive_topology_type": 3})
    with pytest.raises(inlay.LayoutError, match="need api=.d3d12."):
        inlay.decode(elements, vb, ib, topology="line_strip",
                     pipeline={"ib_strip_cut_value": 1})
    with pytest.raises(inlay.LayoutError, match="unknown key"):
        inlay.decode(elements, vb, ib, topology="line_strip", api="d3d12",
                     pipeline={"strip_cut": 1})
    layout = inlay.create_input_layout(elements, api="d3d12",
                                       pipeline={"primitive_topology_type": 2})
    with pytest.raises(inlay.LayoutError, match="carries the pipeline state"):
        inlay.decode(layout, vb, ib, topology="line_strip", api="d3d12",
                     pipeline={"ib_strip_cut_value": 1})


def test_export_takes_the_pipeline_strip_cut(tmp_path, inlay_cli):
    """`inlay.export(dump, path, api="d3d12", pipeline=...)`: the pipeline's strip cut decides
    which index cuts the strip, and the file is the one `inlay export --api d3d12 --strip-cut`
    writes (one answer for one input). Six vertices, the strip 0 1 2 0xFFFF 3 4 1: cut at
    0xFFFF, two triangles (0 1 2; 3 4 1); not cut, 0xFFFF is a vertex (out of bounds: zeros)
    and the strip is five triangles."""
    elements = [{"semantic": "POSITION", "index": 0, "format": "R32G32B32_FLOAT", "slot": 0,
                 "offset": 0}]
    (tmp_path / "s.fmt").write_text(inlay.fmt_text(elements, {0: 12}, "triangle_strip",
                                                   "R16_UINT"))
    (tmp_path / "s.vb").write_bytes((np.arange(18, dtype=np.float32) * 0.5).tobytes())
    (tmp_path / "s.ib").write_bytes(np.array([0, 1, 2, 0xFFFF, 3, 4, 1], "<u2").tobytes())
    dump = inlay.load_dump(tmp_path / "s.fmt")

    def faces(path):
        return [line for line in path.read_text().splitlines() if line.startswith("f ")]

    settings = [({"ib_strip_cut_value": 1}, ["--strip-cut", "0xffff"], 2),
                ({"ib_strip_cut_value": 0}, ["--strip-cut", "disabled"], 5),
                ({"ib_strip_cut_value": 2}, ["--strip-cut", "0xffffffff"], 5),
                (None, [], 5)]
    for k, (pipeline, flags, triangles) in enumerate(settings):
        py, cli = tmp_path / f"py{k}.obj", tmp_path / f"cli{k}.obj"
        inlay.export(dump, py, api="d3d12", pipeline=pipeline)
        inlay_cli("export", tmp_path / "s.fmt", "--api", "d3d12", *flags, "--output", cli)
        assert len(faces(py)) == triangles, (pipeline, faces(py))
        assert py.read_bytes() == cli.read_bytes(), pipeline
    assert faces(tmp_path / "py0.obj") == ["f 1 2 3", "f 4 5 2"]
    # The same refusals as decode's and the CLI's.
    with pytest.raises(inlay.LayoutError, match="need api=.d3d12."):
        inlay.export(dump, tmp_path / "x.obj", pipeline={"ib_strip_cut_value": 1})
    with pytest.raises(inlay.LayoutError, match="unknown key `strip_cut`"):
        inlay.export(dump, tmp_path / "x.obj", api="d3d12", pipeline={"strip_cut": 1})
    with pytest.raises(inlay.DumpError, match="611"):
        inlay.export(dump, tmp_path / "x.obj", api="d3d12",
                     pipeline={"primitive_topology_type": 2})
    assert not (tmp_path / "x.obj").exists()
