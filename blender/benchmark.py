"""How fast a large capture imports into Blender through the add-on, against a pure-Python
per-element decoder of the kind the existing importers use (struct.unpack per element),
measured in the same run:

    python blender/benchmark.py [--vertices 1000000] [--repeats 3]

(with `bpy` and the `inlay` package importable, e.g. target/ci-tools/venv after
`pip install .`). Writes a synthetic .fmt/.vb/.ib capture of the WWMI 48-byte layout (ten
elements: float32 positions, SNORM8 normals and tangents, UINT8 blend indices, UNORM8 weights
and colours, float16 UVs, UNORM16 colour), then prints for each run the add-on's whole import
(decode, mesh, normals, UV maps, colours, vertex groups, attributes) in seconds, the
pure-Python decode of the same vertex buffer (every element of every vertex, no Blender work
at all), and their ratio. The goals: the import within 3 s, and the ratio at least 10.
"""

import argparse
import pathlib
import struct
import sys
import tempfile
import time

import numpy as np

import bpy

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "blender"))
from inlay_blender import core  # noqa: E402  (the add-on's own module, as installed)

import inlay  # noqa: E402

LAYOUT = [  # (semantic, index, format, offset, struct format, scale)
    ("POSITION", 0, "R32G32B32_FLOAT", 0, "<3f", None),
    ("TANGENT", 0, "R8G8B8A8_SNORM", 12, "<4b", 127.0),
    ("NORMAL", 0, "R8G8B8A8_SNORM", 16, "<4b", 127.0),
    ("BLENDINDICES", 0, "R8G8B8A8_UINT", 20, "<4B", None),
    ("BLENDWEIGHT", 0, "R8G8B8A8_UNORM", 24, "<4B", 255.0),
    ("COLOR", 0, "R8G8B8A8_UNORM", 28, "<4B", 255.0),
    ("TEXCOORD", 0, "R16G16_FLOAT", 32, "<2e", None),
    ("COLOR", 1, "R16G16_UNORM", 36, "<2H", 65535.0),
    ("TEXCOORD", 1, "R16G16_FLOAT", 40, "<2e", None),
    ("TEXCOORD", 2, "R16G16_FLOAT", 44, "<2e", None),
]


def make_capture(folder, n):
    """A grid of n vertices (two triangles per cell), plausible values in every element."""
    side = int(np.ceil(np.sqrt(n)))
    rng = np.random.default_rng(1)
    raw = np.zeros((n, 48), np.uint8)
    i = np.arange(n)
    pos = np.stack([i % side, i // side, rng.normal(size=n) * 0.01], 1).astype("<f4")
    raw[:, 0:12] = pos.view(np.uint8)
    raw[:, 12:16] = rng.integers(-127, 128, size=(n, 4)).astype(np.int8).view(np.uint8)
    raw[:, 16:20] = np.array([0, 0, 127, 0], np.int8).view(np.uint8)
    raw[:, 20:24] = rng.integers(0, 120, size=(n, 4))
    w = rng.integers(0, 64, size=(n, 4))
    w[:, 0] = 255 - w[:, 1:].sum(1)
    raw[:, 24:28] = w
    raw[:, 28:32] = rng.integers(0, 256, size=(n, 4))
    raw[:, 32:36] = rng.uniform(0, 1, size=(n, 2)).astype("<f2").view(np.uint8)
    raw[:, 36:40] = rng.integers(0, 65536, size=(n, 2)).astype("<u2").view(np.uint8)
    raw[:, 40:48] = rng.uniform(0, 1, size=(n, 4)).astype("<f2").view(np.uint8)
    x, y = np.meshgrid(np.arange(side - 1), np.arange(side - 1))
    a = (y * side + x).ravel()
    quads = np.stack([a, a + 1, a + side, a + 1, a + side + 1, a + side], 1).reshape(-1, 3)
    quads = quads[(quads < n).all(1)]
    fmt = inlay.fmt_text([{"semantic": s, "index": k, "format": f, "offset": o}
                          for s, k, f, o, _, _ in LAYOUT], {0: 48}, "triangle_list", "R32_UINT")
    (folder / "Bench.fmt").write_text(fmt)
    (folder / "Bench.vb").write_bytes(raw.tobytes())
    (folder / "Bench.ib").write_bytes(quads.astype("<u4").tobytes())
    return folder / "Bench.fmt"


def pure_python_decode(vb):
    """Every element of every vertex with struct.unpack_from, scaled as the importers do."""
    out = {s + str(k): [] for s, k, _, _, _, _ in LAYOUT}
    units = [(s + str(k), struct.Struct(f), o, scale) for s, k, _, o, f, scale in LAYOUT]
    for base in range(0, len(vb), 48):
        for name, st, off, scale in units:
            v = st.unpack_from(vb, base + off)
            if scale is not None:
                v = tuple(max(x / scale, -1.0) for x in v)
            out[name].append(v)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vertices", type=int, default=1_000_000)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as t:
        path = make_capture(pathlib.Path(t), args.vertices)
        vb = (pathlib.Path(t) / "Bench.vb").read_bytes()
        print(f"{args.vertices} vertices, {len(vb) // 48 * 48} bytes of 48-byte records, "
              f"{(pathlib.Path(t) / 'Bench.ib').stat().st_size // 12} triangles")
        print("run  add-on import (s)  pure-Python decode (s)  ratio")
        for r in range(args.repeats):
            for o in list(bpy.data.objects):
                bpy.data.objects.remove(o)
            for m in list(bpy.data.meshes):
                bpy.data.meshes.remove(m)
            t0 = time.perf_counter()
            obj, _ = core.import_capture(str(path))
            t1 = time.perf_counter()
            assert len(obj.data.vertices) == args.vertices
            t2 = time.perf_counter()
            pure_python_decode(vb)
            t3 = time.perf_counter()
            print(f"{r + 1:3d}  {t1 - t0:18.2f}  {t3 - t2:22.2f}  {(t3 - t2) / (t1 - t0):5.1f}")


if __name__ == "__main__":
    main()
