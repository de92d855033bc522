"""inlay.load_mod on the shipped example mod (examples/mod/Box.ini): the report, each part's
dump and decode(), another state through ``set``, and the errors naming file and value."""

import os
import struct

import numpy as np
import pytest

import inlay

BOX = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "mod", "Box.ini")


def positions():
    """POSITION of every vertex, read straight from the buffer (40-byte records)."""
    with open(os.path.join(os.path.dirname(BOX), "Meshes", "BoxPosition.buf"), "rb") as f:
        data = f.read()
    return [struct.unpack_from("<3f", data, 40 * v) for v in range(len(data) // 40)]


def indices():
    with open(os.path.join(os.path.dirname(BOX), "Meshes", "Box.ib"), "rb") as f:
        data = f.read()
    return list(struct.unpack(f"<{len(data) // 2}H", data))


def test_default_state():
    m = inlay.load_mod(BOX)
    assert m.profile == "GIMI"
    assert m.state == {"$sides": 0.0}
    assert [p.name for p in m.parts] == ["TextureOverrideBoxCaps", "TextureOverrideBoxSides"]
    assert m.warnings == []
    sides = m.part("TextureOverrideBoxSides")
    assert sides.conditions == ["$sides == 0"]
    assert sides.component == "Box"
    assert sides.at.endswith("Box.ini:44")
    assert [e["semantic"] for e in sides.layout.elements] == [
        "POSITION", "NORMAL", "TANGENT", "BLENDWEIGHT", "BLENDINDICES", "COLOR", "TEXCOORD"]
    assert sorted(sides.vertex_buffers) == [0, 1, 2]
    assert sides.strides == {0: 40, 1: 32, 2: 12}
    mesh = sides.decode()
    # The primitives hold element numbers of the draw's range; rows of the arrays are the
    # vertices it read, in order.
    tri = np.asarray(mesh["primitives"])
    assert tri.shape == (8, 3)
    pos = np.asarray(mesh["POSITION"], dtype=np.float32)
    want = positions()
    ib = indices()[12:36]
    for t, (a, b, c) in enumerate(tri):
        for k, row in enumerate((a, b, c)):
            assert tuple(pos[row]) == pytest.approx(want[ib[3 * t + k]], abs=0)


def test_another_state_and_errors():
    m = inlay.load_mod(BOX, set={"$sides": 1})
    assert [p.name for p in m.parts] == ["TextureOverrideBoxCaps", "TextureOverrideBoxSides"]
    assert m.part("TextureOverrideBoxSides").info["start"] == 36
    assert m.part("TextureOverrideBoxSides").info["count"] == 6
    assert m.report["parts"][0]["note"].startswith("a pass over vertex buffers")
    with pytest.raises(inlay.DumpError, match=r"--set names a variable the mod does not declare"):
        inlay.load_mod(BOX, set={"$nothere": 1})
    with pytest.raises(inlay.DumpError, match=r"nothere\.ini: cannot read"):
        inlay.load_mod(os.path.join(os.path.dirname(BOX), "nothere.ini"))
