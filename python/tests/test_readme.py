"""The README's Python blocks, run as written (issue 35 item 6: every README command works in a
fresh clone). The first runs in a copy of `examples/` (it names `layout.h`, `vs.dxbc`,
`mesh.vb`, `mesh.ib` there); the second in a folder laid out like the clone (it names
`examples/dump/...` and writes `draw.glb`)."""

import re
import shutil

from conftest import ROOT


def python_blocks():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("\n## Python\n"):]
    section = section[:section.index("\n## ", 1)]
    return re.findall(r"\n```python\n(.*?)\n```", section, re.S)


def test_readme_python_blocks_run_as_written(tmp_path, monkeypatch):
    blocks = python_blocks()
    assert len(blocks) == 2, blocks
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path / "examples")
    first = {}
    exec(compile(blocks[0], "README.md (Python, first block)", "exec"), first)
    # What it computed: the quad of examples/mesh.vb decoded in index order (mesh.ib: 0 1 2,
    # 2 1 3) and encoded back one record per row, so the buffer is mesh.vb's 24-byte records
    # in that order, byte for byte.
    vb = (tmp_path / "examples" / "mesh.vb").read_bytes()
    assert first["mesh"]["SV_VertexID"].tolist() == [0, 1, 2, 2, 1, 3]
    assert first["buffers"] == {0: b"".join(vb[24 * v:24 * v + 24] for v in [0, 1, 2, 2, 1, 3])}
    monkeypatch.chdir(tmp_path)
    second = {}
    exec(compile(blocks[1], "README.md (Python, second block)", "exec"), second)
    assert (tmp_path / "draw.glb").read_bytes()[:4] == b"glTF"
