"""`inlay.load_dump` and `inlay.export` on the real modding dumps of ../shared/dumps (or
$INLAY_SHARED/dumps): the library's readers through the package, values checked against the
dump's own text and against the CLI's reference decode."""

import json
import os
import pathlib

import numpy as np
import pytest

import inlay
from conftest import ROOT


def dumps_dir():
    base = os.environ.get("INLAY_SHARED")
    d = pathlib.Path(base) / "dumps" if base else ROOT.parent / "shared" / "dumps"
    if not d.is_dir():
        msg = f"the shared dumps are not at {d} (set INLAY_SHARED): dump tests skipped"
        if os.environ.get("INLAY_REQUIRE_SHARED") == "1":
            pytest.fail(msg)
        print("NOTICE:", msg)
        pytest.skip(msg)
    return d


def test_fmt_vb_ib_dump_decodes_and_exports(tmp_path):
    d = dumps_dir() / "SpectrumQT+WWMI-Assets" / "PlayerCharacterData" / "RoverFemale"
    dump = inlay.load_dump(d / "Component 6.fmt")
    assert [e["semantic"] for e in dump.layout.elements][:3] == ["POSITION", "TANGENT", "NORMAL"]
    assert dump.strides == {0: 48} and dump.index_format == "R16_UINT"
    assert dump.topology == "triangle_list" and dump.draw["kind"] == "draw_indexed"
    out = dump.decode()
    # 48 indices, 16 triangles, values straight from the .vb bytes.
    assert out["POSITION"].shape == (48, 3) and out["primitives"].shape == (16, 3)
    vb = np.frombuffer((d / "Component 6.vb").read_bytes(), dtype=np.uint8).reshape(-1, 48)
    ib = np.frombuffer((d / "Component 6.ib").read_bytes(), dtype="<u2")
    pos = vb[:, :12].copy().view("<f4")
    np.testing.assert_array_equal(out["POSITION"], pos[ib])
    np.testing.assert_array_equal(out["SV_VertexID"], ib)
    for ext in ("glb", "obj", "ply"):
        inlay.export(dump, tmp_path / f"mesh.{ext}")
        assert (tmp_path / f"mesh.{ext}").stat().st_size > 0
    with pytest.raises(OSError, match="extension"):
        inlay.export(dump, tmp_path / "mesh.fbx")


def test_text_dump_values_are_the_printed_ones():
    d = dumps_dir() / "SilentNightSound+GI-Model-Importer-Assets" / "NPCData" / "LaSignoraFace"
    vb = next(d.glob("*-vb0=*.txt"))
    dump = inlay.load_dump(vb)
    out = dump.decode(topology="point_list", draw={"kind": "draw"}, primitives=False)
    # The first vertex's POSITION line, as 3DMigoto printed it (%.9g round-trips binary32).
    for line in vb.read_text().splitlines():
        if line.startswith("vb0[0]+000 POSITION:"):
            want = [np.float32(float(x)) for x in line.split(":")[1].split(",")]
            break
    else:
        raise AssertionError("no POSITION line in the dump")
    assert out["POSITION"][0].tolist() == want
    assert out["POSITION"].shape[0] == 26


def test_dump_errors_name_the_file(tmp_path):
    bad = tmp_path / "broken.fmt"
    bad.write_text("stride: x\n")
    with pytest.raises(inlay.DumpError, match="broken.fmt"):
        inlay.load_dump(bad)
    with pytest.raises(inlay.LayoutError):
        inlay.load_dump(tmp_path / "absent-vb0=12345678.txt")
