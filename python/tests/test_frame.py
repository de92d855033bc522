"""inlay.load_frame on a frame folder written by `inlay frame --generate` (the generator of the
library, through the built binary when it is there) — or by the library's test helper."""

import os
import shutil
import subprocess

import pytest

import inlay

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _inlay_binary():
    for p in (os.environ.get("INLAY_BIN"), os.path.join(ROOT, "target", "release", "inlay"),
              shutil.which("inlay")):
        if p and os.path.exists(p):
            return p
    return None


def test_load_frame_draws_open_like_dumps(tmp_path):
    binary = _inlay_binary()
    if binary is None:
        pytest.skip("no inlay binary to generate a frame (cargo build --release -p inlay-cli)")
    fa = tmp_path / "fa"
    subprocess.run([binary, "frame", "--generate", str(fa), "--generate-draws", "12"], check=True)
    draws = inlay.load_frame(fa)
    assert len(draws) == 13  # 12 draws and a dispatch
    blend = inlay.load_frame(fa, select="has=BLENDINDICES")
    assert blend and all(any(e["semantic"] == "BLENDINDICES" for e in d.layout) for d in blend)
    d = blend[0]
    dump = d.open()
    assert len(dump.layout) == len(d.layout)
    assert sorted(dump.vertex_buffers) == [v["slot"] for v in d.vbs]
    # The same draw through load_dump: the same buffers, byte for byte.
    direct = inlay.load_dump(d.vbs[0]["txt"])
    assert direct.vertex_buffers == dump.vertex_buffers
    assert direct.index_buffer == dump.index_buffer
    with pytest.raises(ValueError):
        inlay.load_frame(fa, select="nonsense=1")
    with pytest.raises(inlay.DumpError):
        inlay.load_frame(tmp_path / "missing")
