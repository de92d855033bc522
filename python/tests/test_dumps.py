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
    # Issue 35 item 7: a missing file is what Python users catch, an OSError
    # (FileNotFoundError with errno and file name); DumpError stays for what is in a file.
    absent = tmp_path / "absent-vb0=12345678.txt"
    with pytest.raises(FileNotFoundError) as e:
        inlay.load_dump(absent)
    assert e.value.filename == str(absent) and e.value.errno == 2
    assert not isinstance(e.value, inlay.DumpError)
    with pytest.raises(OSError):
        inlay.load_dump([bad, absent])


def test_dump_names_are_the_captures():
    d = ROOT / "examples" / "dump"
    dump = inlay.load_dump(d / "000001-vb0=5a1e0001-vs=9c1f3e2d7b6a5c48.txt")
    assert dump.name == "000001-vb0=5a1e0001"
    assert "000001-vb0=5a1e0001" in repr(dump)


def test_text_slot_bytes_are_the_buf_bytes(tmp_path):
    """Issue 35 item 2: a text dump's slot bytes come from one library call
    (`Capture::slot_bytes`): every element printed at an explicit offset, with the values
    3DMigoto prints, encodes back to exactly the .buf bytes it was printed from."""
    rng = np.random.default_rng(7)
    n = 5
    pos = rng.normal(size=(n, 3)).astype("<f4")
    col = rng.integers(0, 256, size=(n, 4), dtype=np.uint8)
    idx = rng.integers(0, 2**31, size=(n, 2)).astype("<i4")
    raw = np.zeros((n, 28), np.uint8)
    raw[:, 0:12] = pos.view(np.uint8)
    raw[:, 12:16] = col
    raw[:, 16:24] = idx.view(np.uint8)
    lines = ["stride: 28", "first vertex: 0", f"vertex count: {n}", "topology: pointlist"]
    for i, (sem, fmt, off) in enumerate([("POSITION", "R32G32B32_FLOAT", 0),
                                         ("COLOR", "R8G8B8A8_UNORM", 12),
                                         ("BLENDINDICES", "R32G32_SINT", 16)]):
        lines += [f"element[{i}]:", f"  SemanticName: {sem}", "  SemanticIndex: 0",
                  f"  Format: {fmt}", "  InputSlot: 0", f"  AlignedByteOffset: {off}",
                  "  InputSlotClass: per-vertex", "  InstanceDataStepRate: 0"]
    lines += ["", "vertex-data:", ""]
    for v in range(n):
        lines.append(f"vb0[{v}]+000 POSITION: " + ", ".join(f"{x:.9g}" for x in pos[v]))
        lines.append(f"vb0[{v}]+012 COLOR: " + ", ".join(f"{x / 255:.9g}" for x in col[v]))
        lines.append(f"vb0[{v}]+016 BLENDINDICES: " + ", ".join(str(x) for x in idx[v]))
    vb = tmp_path / "000003-vb0=00c0ffee-vs=1234567890abcdef.txt"
    vb.write_text("\n".join(lines) + "\n")
    dump = inlay.load_dump(vb)
    want = raw.tobytes()
    got = dump.vertex_buffers[0]
    # Bytes 24..28 of each record are padding no element covers: zero.
    assert got == want, (got.hex(), want.hex())


def test_devices_and_pipes_are_refused_without_reading(tmp_path):
    """Issue 34 item 7: load_dump('/dev/zero') read until memory ran out; a FIFO hung. Every
    file goes through the library's one checked reader, as the CLI's do."""
    import os
    import time

    t = time.monotonic()
    with pytest.raises(inlay.DumpError, match="it is a device, not a file"):
        inlay.load_dump("/dev/zero")
    link = tmp_path / "zero-vb0=12345678.txt"
    link.symlink_to("/dev/zero")
    with pytest.raises(inlay.DumpError, match="it is a device, not a file"):
        inlay.load_dump(link)
    fifo = tmp_path / "pipe-vb0=12345678.txt"
    os.mkfifo(fifo)
    with pytest.raises(inlay.DumpError, match="named pipe"):
        inlay.load_dump(fifo)
    with pytest.raises(inlay.LayoutError, match="it is a device, not a file"):
        inlay.Layout.from_file("/dev/zero")
    with pytest.raises(inlay.LayoutError, match="named pipe"):
        inlay.Layout.from_file(fifo)
    assert time.monotonic() - t < 10


SYNTHETIC_VB = """byte offset: {offset}
stride: 20
first vertex: {first}
vertex count: 2
topology: trianglelist
element[0]:
  SemanticName: POSITION
  SemanticIndex: 0
  Format: R32G32B32_FLOAT
  InputSlot: 0
  AlignedByteOffset: 0
  InputSlotClass: per-vertex
  InstanceDataStepRate: 0
element[1]:
  SemanticName: COLOR
  SemanticIndex: 0
  Format: R8G8B8A8_UNORM
  InputSlot: 0
  AlignedByteOffset: 12
  InputSlotClass: per-vertex
  InstanceDataStepRate: 0
element[2]:
  SemanticName: BLENDINDICES
  SemanticIndex: 0
  Format: R8G8B8A8_UINT
  InputSlot: 0
  AlignedByteOffset: append
  InputSlotClass: per-vertex
  InstanceDataStepRate: 0

vertex-data:

vb0[{first}]+000 POSITION: 1, -2.5, 0.375
vb0[{first}]+000 COLOR: 1, 0, 0.5, 1
vb0[{first}]+000 BLENDINDICES: 1, 2, 3, 4
vb0[{first1}]+020 POSITION: -1.#QNAN, 1.#INF, -0
vb0[{first1}]+020 COLOR: 0, 1, 0, 0
vb0[{first1}]+020 BLENDINDICES: 5, 6, 7, 8
"""


def test_synthetic_text_dump_always_runs(tmp_path):
    # No ../shared needed: a 3DMigoto text dump with an `append` offset (resolved to 16 by the
    # Direct3D rule, where 3DMigoto decoded offset 0), 3DMigoto's NaN/infinity spellings and no
    # .buf beside it.
    vb = tmp_path / "000001-vb0=0badf00d-vs=1234567890abcdef.txt"
    vb.write_text(SYNTHETIC_VB.format(offset=0, first=0, first1=1))
    dump = inlay.load_dump(vb)
    # A relative path names the same draw (the readers look for its partners beside it).
    cwd = os.getcwd()
    try:
        os.chdir(tmp_path)
        assert inlay.load_dump(vb.name).strides == {0: 20}
    finally:
        os.chdir(cwd)
    assert [e["offset"] for e in dump.layout.elements] == [0, 12, "append"]
    assert inlay.create_input_layout(dump.layout).offsets == [0, 12, 16]
    assert dump.strides == {0: 20} and dump.index_buffer is None
    out = dump.decode(topology="point_list", draw={"kind": "draw", "vertex_count": 2},
                      primitives=False)
    bits = out["POSITION"].view("<u4")
    # -1.#QNAN is the default quiet NaN 3DMigoto prints for 0xffc00000; 1.#INF is +inf.
    assert bits.tolist() == [[0x3F800000, 0xC0200000, 0x3EC00000], [0xFFC00000, 0x7F800000, 0x80000000]]
    # UNORM8 through the encoder and back: 0.5 -> 128 -> 128/255.
    assert out["COLOR"].tolist() == [[1.0, 0.0, np.float32(128 / 255), 1.0], [0.0, 1.0, 0.0, 0.0]]
    # The `append` element's printed values were decoded by 3DMigoto at the wrong offset: they
    # are not used, and the dump says so (a warning, not a silent zero).
    assert out["BLENDINDICES"].tolist() == [[0, 0, 0, 0], [0, 0, 0, 0]]
    assert any("append" in w and "BLENDINDICES" in w for w in dump.warnings), dump.warnings
    for ext in ("glb", "gltf", "obj", "ply"):
        inlay.export(dump, tmp_path / f"mesh.{ext}", instances="first")
        assert (tmp_path / f"mesh.{ext}").stat().st_size > 0
    assert (tmp_path / "mesh.bin").is_file()
    with pytest.raises(inlay.LayoutError, match="instances"):
        inlay.export(dump, tmp_path / "x.glb", instances="every")


def test_text_dump_with_a_huge_offset_is_refused_not_allocated(tmp_path):
    vb = tmp_path / "000002-vb0=0badf00d-vs=1234567890abcdef.txt"
    vb.write_text(SYNTHETIC_VB.format(offset=4000000000, first=0, first1=1))
    with pytest.raises(inlay.DumpError, match="limit"):
        inlay.load_dump(vb)


def test_readme_example_dump_matches_its_buf_and_the_cli(tmp_path, inlay_cli):
    # The committed synthetic dump of the README (always present): values checked against the
    # .buf bytes read by numpy, the GLB against `inlay export` of the same file.
    d = ROOT / "examples" / "dump"
    vb = d / "000001-vb0=5a1e0001-vs=9c1f3e2d7b6a5c48.txt"
    dump = inlay.load_dump(vb)
    assert dump.index_format == "R16_UINT" and dump.draw["kind"] == "draw_indexed"
    out = dump.decode()
    raw = np.frombuffer((d / "000001-vb0=5a1e0001-vs=9c1f3e2d7b6a5c48.buf").read_bytes(),
                        dtype=np.uint8).reshape(-1, 20)
    ib = np.frombuffer((d / "000001-ib=3f2e1d0c-vs=9c1f3e2d7b6a5c48.buf").read_bytes(), "<u2")
    np.testing.assert_array_equal(out["POSITION"], raw[:, :12].copy().view("<f4")[ib])
    np.testing.assert_array_equal(out["COLOR"], (raw[:, 12:16] / np.float32(255)).astype(
        np.float32)[ib])
    np.testing.assert_array_equal(out["TEXCOORD"], raw[:, 16:20].copy().view("<f2")
                                  .astype(np.float32)[ib])
    assert out["primitives"].tolist() == [[0, 1, 2], [3, 4, 5]]
    inlay.export(dump, tmp_path / "py.glb")
    inlay_cli("export", vb, "--output", tmp_path / "cli.glb")
    assert (tmp_path / "py.glb").read_bytes() == (tmp_path / "cli.glb").read_bytes()


def test_export_warns_of_non_finite_values_written_as_zero(tmp_path, inlay_cli):
    """OBJ and PLY hold finite numbers only: `inlay.export` returns the warning the CLI prints
    (count and first value) for a NaN POSITION.y, and writes the CLI's bytes; a glTF's
    standard attributes hold none either, and both say so."""
    elements = [{"semantic": "POSITION", "index": 0, "format": "R32G32B32_FLOAT", "slot": 0,
                 "offset": 0}]
    (tmp_path / "n.fmt").write_text(inlay.fmt_text(elements, {0: 12}, "triangle_list",
                                                   "R16_UINT"))
    words = np.array([0, 0, 0, 0x3F800000, 0x7FC00000, 0, 0, 0x3F800000, 0], "<u4")
    (tmp_path / "n.vb").write_bytes(words.tobytes())
    (tmp_path / "n.ib").write_bytes(np.array([0, 1, 2], "<u2").tobytes())
    dump = inlay.load_dump(tmp_path / "n.fmt")
    for ext, name in (("obj", "OBJ"), ("ply", "PLY")):
        said = inlay.export(dump, tmp_path / f"py.{ext}")
        assert said == [
            f"1 NaN or infinite values were written as 0 ({name} holds finite numbers only; "
            "the first is POSITION0.y of vertex 1); export to .glb to keep them in its exact "
            "copies"], said
        run = inlay_cli("export", tmp_path / "n.fmt", "--output", tmp_path / f"cli.{ext}")
        assert said[0] in run.stderr
        assert (tmp_path / f"py.{ext}").read_bytes() == (tmp_path / f"cli.{ext}").read_bytes()
    assert "v 1 0 0" in (tmp_path / "py.obj").read_text().splitlines()
    said = inlay.export(dump, tmp_path / "py.glb")
    assert said == ["1 NaN or infinite values were written as 0 in the standard attributes "
                    "(glTF accessors hold finite numbers only; the exact copies keep them)"], said
    run = inlay_cli("export", tmp_path / "n.fmt", "--output", tmp_path / "cli.glb")
    assert said[0] in run.stderr
