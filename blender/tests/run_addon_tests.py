"""The Blender add-on's round trips, in ONE real Blender (PyPI `bpy` 4.2) process:

    BLENDER_USER_RESOURCES=EMPTY_DIR python blender/tests/run_addon_tests.py ZIP

installs the extension zip that `python blender/build.py` wrote into that clean Blender
(user resources in EMPTY_DIR), checks that `inlay` is the wheel bundled in it, then for every
capture in ../shared/dumps (or $INLAY_SHARED/dumps) and the synthetic ones made here:

  (a) File > Import > Direct3D vertex data (inlay), then File > Export > back to the captured
      layout (inlay), unedited: the .vb/.vbN, .ib and .fmt are byte-identical to the capture;
  (c) every vertex translated: only the POSITION bytes change, each by exactly the move as
      the format encodes it;
  (d) faces deleted: every remaining vertex keeps every other element's bytes exactly;

and that captures inlay refuses, and exports the pre-flight refuses, end in an error report
(CANCELLED), never a traceback. Prints `N passed, M failed` last; exit 1 on a failure.
With INLAY_REQUIRE_SHARED=1 a missing ../shared is a failure.
"""

import json
import os
import pathlib
import struct
import sys
import tempfile
import traceback

import numpy as np

import bpy

ROOT = pathlib.Path(__file__).resolve().parents[2]
results = {"passed": 0, "failed": 0}


def check(name, fn):
    try:
        fn()
    except Exception:
        results["failed"] += 1
        print(f"FAIL {name}\n{traceback.format_exc()}")
    else:
        results["passed"] += 1
        print(f"ok   {name}")


def install(zip_path):
    res = bpy.ops.extensions.package_install_files(filepath=str(zip_path), repo="user_default",
                                                   enable_on_install=True)
    assert res == {"FINISHED"}, res
    import inlay
    user = pathlib.Path(os.environ["BLENDER_USER_RESOURCES"]).resolve()
    assert pathlib.Path(inlay.__file__).resolve().is_relative_to(user), (
        f"inlay was imported from {inlay.__file__}, not from the extension's bundled wheel")
    assert hasattr(bpy.ops.import_mesh, "inlay") and hasattr(bpy.ops.export_mesh, "inlay")


class Reports:
    """Captures operator reports (bpy's `report` goes to stdout in background mode; the
    operator's return value says whether it failed)."""


def op(fn, **kw):
    """Runs an operator; an error report (which bpy raises as RuntimeError when called from
    Python) comes back as CANCELLED with its message, which must not be a traceback."""
    try:
        return fn(**kw)
    except RuntimeError as e:
        assert "Traceback" not in str(e), str(e)
        print(f"     (reported: {str(e).strip()[:150]})")
        return {"CANCELLED"}


def run_import(path):
    for o in list(bpy.data.objects):
        bpy.data.objects.remove(o)
    res = op(bpy.ops.import_mesh.inlay, filepath=str(path))
    assert res == {"FINISHED"}, f"import of {path} returned {res}"
    return bpy.context.view_layer.objects.active


def run_export(obj, out):
    bpy.context.view_layer.objects.active = obj
    return op(bpy.ops.export_mesh.inlay, filepath=str(out))


def captured(path):
    """The capture's own bytes per slot (the records the add-on imports), index bytes of the
    draw, and .fmt text, through inlay."""
    import inlay
    d = inlay.load_dump(str(path))
    created = inlay.create_input_layout(d.layout)
    vslots = sorted({e["slot"] for e in d.layout.elements if e.get("class", "vertex") == "vertex"})
    n = min((len(d.vertex_buffers[s]) - d.offsets[s]) // d.strides[s] for s in vslots)
    vbs = {s: d.vertex_buffers[s][d.offsets[s]:d.offsets[s] + n * d.strides[s]] if s in vslots
           else d.vertex_buffers[s] for s in d.vertex_buffers}
    ib = d.index_buffer
    if ib is not None:
        size = 2 if d.index_format == "R16_UINT" else 4
        start = d.index_offset + d.draw.get("start_index", 0) * size
        ib = ib[start:start + d.draw.get("index_count", (len(ib) - start) // size) * size]
    assert created.hresult != "E_INVALIDARG"
    return d, vbs, ib


def read_export(out, slots):
    stem = str(out)[:-4]
    vbs = {}
    for s in slots:
        f = stem + (".vb" if slots == [0] else f".vb{s}")
        vbs[s] = pathlib.Path(f).read_bytes()
    return vbs, pathlib.Path(stem + ".ib").read_bytes(), pathlib.Path(stem + ".fmt").read_text()


def weights_exact(obj, d, vbs):
    """Every vertex's vertex groups, read back from Blender, hold exactly (bit for bit) the
    capture's blend weights: per blend index, the float32 sum of its nonzero lanes' weights
    in lane order (Blender keeps a weight within 0..1), decoded by inlay from the capture's
    bytes and summed here vertex by vertex, independently of the add-on's grouping."""
    import inlay
    created = inlay.create_input_layout(d.layout)
    els = []
    for e, off in zip(d.layout.elements, created.offsets):
        if e.get("class", "vertex") == "vertex":
            e = dict(e)
            e["offset"] = off
            els.append(e)
    by_key = {e["semantic"].upper() + str(e["index"]): e for e in els}
    pairs = []
    for e in els:
        if e["semantic"].upper() != "BLENDINDICES" or inlay.format_info(e["format"])[3] not in (
                "uint", "sint"):
            continue
        w = by_key.get(f"BLENDWEIGHT{e['index']}") or by_key.get(f"BLENDWEIGHTS{e['index']}")
        if w is not None and inlay.format_info(w["format"])[3] in ("float", "unorm", "snorm"):
            pairs.append((e, w, min(inlay.format_info(e["format"])[2],
                                    inlay.format_info(w["format"])[2])))
    if not pairs:
        return
    n = len(obj.data.vertices)
    one = []
    for k, (e, w, _) in enumerate(pairs):
        for el, name in ((e, f"I{k}"), (w, f"W{k}")):
            x = dict(el)
            x["semantic"], x["index"] = name, 0
            one.append(x)
    dec = inlay.decode(one, vbs, topology="point_list", draw={"kind": "draw", "vertex_count": n},
                       strides={s: d.strides[s] for s in vbs}, primitives=False,
                       system_values=False)
    names = {g.index: int(g.name) for g in obj.vertex_groups}
    bits = lambda x: struct.pack("<f", x)  # noqa: E731
    for v in range(n):
        want = {}
        for k, (_, _, held) in enumerate(pairs):
            for i, x in zip(dec[f"I{k}"][v, :held].tolist(),
                            np.asarray(dec[f"W{k}"][v, :held], np.float32).tolist()):
                if x != 0:
                    want[i] = float(np.float32(want.get(i, 0.0)) + np.float32(x))
        want = {i: bits(min(x, 1.0)) for i, x in want.items() if x > 0}
        got = {names[ge.group]: bits(ge.weight) for ge in obj.data.vertices[v].groups
               if ge.weight != 0}
        assert got == want, f"vertex {v}: vertex groups {got}, capture {want}"


def round_trips(path, tmp):
    import inlay
    d, vbs, ib = captured(path)
    slots = sorted(d.vertex_buffers)

    def unedited():
        obj = run_import(path)
        assert obj.name == d.name, (obj.name, d.name)
        weights_exact(obj, d, vbs)
        out = tmp / f"{d.name}-a.fmt"
        assert run_export(obj, out) == {"FINISHED"}
        got_vbs, got_ib, fmt = read_export(out, slots)
        for s in slots:
            assert got_vbs[s] == vbs[s], f"slot {s}: {len(got_vbs[s])} vs {len(vbs[s])} bytes"
        if ib is not None:
            assert got_ib == ib, "index buffer differs"
        else:  # a non-indexed list: the indices are the vertices in order
            assert np.array_equal(np.frombuffer(got_ib, "<u2" if len(vbs) else "<u4"),
                                  np.arange(len(got_ib) // 2)), "indices differ"
        strides = {s: d.strides[s] for s in slots}
        want_fmt = inlay.fmt_text(d.layout, strides, "triangle_list",
                                  d.index_format or "R16_UINT")
        assert fmt == want_fmt
        if str(path).endswith(".fmt"):
            assert fmt == pathlib.Path(path).read_text().replace("\r\n", "\n")

    def translated():
        obj = run_import(path)
        me = obj.data
        co = np.zeros(len(me.vertices) * 3, np.float32)
        me.vertices.foreach_get("co", co)
        move = np.array([0.25, -1.5, 3.0], np.float32)
        moved = (co.reshape(-1, 3) + move).astype(np.float32)
        me.vertices.foreach_set("co", moved.ravel())
        me.update()
        out = tmp / f"{d.name}-c.fmt"
        assert run_export(obj, out) == {"FINISHED"}
        got_vbs, got_ib, _ = read_export(out, slots)
        elements = [dict(e, offset=o) for e, o in
                    zip(d.layout.elements, inlay.create_input_layout(d.layout).offsets)]
        pos = next(e for e in elements if e["semantic"].upper() == "POSITION" and e["index"] == 0)
        s, stride = pos["slot"], d.strides[pos["slot"]]
        size = inlay.format_info(pos["format"])[1]
        a = np.frombuffer(vbs[s], np.uint8).reshape(-1, stride)
        b = np.frombuffer(got_vbs[s], np.uint8).reshape(-1, stride)
        mask = np.ones(stride, bool)
        mask[pos["offset"]:pos["offset"] + size] = False
        assert np.array_equal(a[:, mask], b[:, mask]), "bytes other than POSITION changed"
        for t in slots:
            if t != s:
                assert got_vbs[t] == vbs[t], f"slot {t} changed"
        # POSITION: exactly the captured value plus the move, as the format encodes it.
        one = [dict(pos, offset=0, slot=0)]
        old = inlay.decode(one, np.ascontiguousarray(a[:, pos["offset"]:pos["offset"] + size]),
                           topology="point_list", primitives=False)["POSITION"]
        want = old.copy()
        want[:, :3] = (old[:, :3] + move[:old.shape[1]]) if old.shape[1] < 3 else old[:, :3] + move
        enc = inlay.encode(one, {"POSITION": want})[0]
        got = np.ascontiguousarray(b[:, pos["offset"]:pos["offset"] + size]).tobytes()
        assert got == enc, "POSITION bytes are not the move as encoded"
        if ib is not None:
            assert got_ib == ib

    def faces_deleted():
        import bmesh
        obj = run_import(path)
        me = obj.data
        ids = me.attributes.new("test_record", "INT", "POINT")
        ids.data.foreach_set("value", np.arange(len(me.vertices), dtype=np.int32))
        bm = bmesh.new()
        bm.from_mesh(me)
        bm.faces.ensure_lookup_table()
        doomed = [f for i, f in enumerate(bm.faces) if i % 3 == 0]
        bmesh.ops.delete(bm, geom=doomed, context="FACES")
        bm.to_mesh(me)
        bm.free()
        me.update()
        kept = np.zeros(len(me.vertices), np.int32)
        me.attributes["test_record"].data.foreach_get("value", kept)
        me.attributes.remove(me.attributes["test_record"])
        out = tmp / f"{d.name}-d.fmt"
        assert run_export(obj, out) == {"FINISHED"}
        got_vbs, got_ib, _ = read_export(out, slots)
        for s in slots:
            if s not in d.vertex_buffers or len(vbs[s]) == 0:
                continue
            stride = d.strides[s]
            a = np.frombuffer(vbs[s], np.uint8).reshape(-1, stride)
            b = np.frombuffer(got_vbs[s], np.uint8).reshape(-1, stride)
            if len(b) != len(a) or s in [e["slot"] for e in d.layout.elements
                                         if e.get("class", "vertex") == "vertex"]:
                assert len(b) == len(kept), (len(b), len(kept))
                assert np.array_equal(b, a[kept]), "a remaining vertex's bytes changed"
        tri = np.frombuffer(got_ib, "<u2" if (d.index_format or "R16_UINT") == "R16_UINT"
                            else "<u4")
        assert tri.size % 3 == 0 and (tri < len(kept)).all()

    check(f"(a) unedited round trip: {path.name}", unedited)
    check(f"(c) translated, only POSITION changes: {path.name}", translated)
    check(f"(d) faces deleted, the rest exact: {path.name}", faces_deleted)


SYNTH_HEADER = "stride: {stride}\nfirst vertex: 0\nvertex count: {n}\ntopology: trianglelist\n"


def synthetic(tmp):
    """Captures made here: every kind of lane the add-on must carry exactly (SNORM -128,
    float16 NaN payloads, UNORM16 colours, integer lanes, 8 blend influences in two sets,
    padding bytes, records no triangle uses), as .fmt/.vb/.ib and as a 3DMigoto dump with two
    slots and .buf partners."""
    import inlay
    rng = np.random.default_rng(31)
    n, stride = 40, 64
    elements = [
        ("POSITION", 0, "R32G32B32_FLOAT", 0), ("NORMAL", 0, "R8G8B8A8_SNORM", 12),
        ("TANGENT", 0, "R16G16B16A16_FLOAT", 16), ("BLENDINDICES", 0, "R8G8B8A8_UINT", 24),
        ("BLENDWEIGHT", 0, "R8G8B8A8_UNORM", 28), ("BLENDINDICES", 1, "R16G16B16A16_UINT", 32),
        ("BLENDWEIGHTS", 1, "R16G16B16A16_UNORM", 40), ("COLOR", 0, "R16G16_UNORM", 48),
        ("TEXCOORD", 0, "R16G16_FLOAT", 52), ("TEXCOORD", 1, "R32_UINT", 56),
    ]  # bytes 60..63: padding
    raw = rng.integers(0, 256, size=(n, stride), dtype=np.uint8)
    pos = rng.normal(size=(n, 3)).astype("<f4")
    raw[:, 0:12] = pos.view(np.uint8)
    raw[0, 12:16] = [0x80, 0x80, 0x81, 0x7F]            # SNORM -128 beside -127
    raw[1, 16:18] = [0x01, 0x7D]                        # float16 signalling NaN payload
    raw[:, 24:28] = rng.integers(0, 60, size=(n, 4))    # blend indices
    raw[:, 32:40] = np.frombuffer(rng.integers(0, 300, size=(n, 4)).astype("<u2").tobytes(),
                                  np.uint8).reshape(n, 8)
    uv = rng.uniform(-2, 2, size=(n, 2)).astype("<f2")
    raw[:, 52:56] = uv.view(np.uint8)
    tris = rng.permutation(n - 4)[: (n - 4) // 3 * 3].reshape(-1, 3)  # 4 records unused
    fmt_elements = [{"semantic": s, "index": i, "format": f, "offset": o} for s, i, f, o in elements]
    d = tmp / "synthetic"
    d.mkdir()
    fmt = inlay.fmt_text(fmt_elements, {0: stride}, "triangle_list", "R16_UINT")
    (d / "Synth.fmt").write_text(fmt)
    (d / "Synth.vb").write_bytes(raw.tobytes())
    (d / "Synth.ib").write_bytes(tris.astype("<u2").tobytes())
    # A 3DMigoto dump: two slots (.buf partners), an R32 index buffer.
    s0 = np.ascontiguousarray(raw[:, :24])
    s1 = np.ascontiguousarray(raw[:, 24:64])
    def header(slot, st, els):
        t = SYNTH_HEADER.format(stride=st, n=n)
        for k, (s, i, f, o) in enumerate(els):
            t += (f"element[{k}]:\n  SemanticName: {s}\n  SemanticIndex: {i}\n  Format: {f}\n"
                  f"  InputSlot: {slot}\n  AlignedByteOffset: {o}\n  InputSlotClass: per-vertex\n"
                  f"  InstanceDataStepRate: 0\n")
        return t + "\nvertex-data:\n\n"
    e0 = [e for e in elements if e[3] < 24]
    e1 = [(s, i, f, o - 24) for s, i, f, o in elements if o >= 24]
    for slot, st, els, data in ((0, 24, e0, s0), (1, 40, e1, s1)):
        name = d / f"000012-vb{slot}=0000aa{slot}0-vs=1111222233334444"
        pathlib.Path(str(name) + ".txt").write_text(header(slot, st, els))
        pathlib.Path(str(name) + ".buf").write_bytes(data.tobytes())
    ibn = d / "000012-ib=0000bb00-vs=1111222233334444"
    pathlib.Path(str(ibn) + ".txt").write_text(
        "byte offset: 0\nfirst index: 0\nindex count: %d\ntopology: trianglelist\n"
        "format: DXGI_FORMAT_R32_UINT\n\n" % tris.size
        + "".join(f"{a} {b} {c}\n" for a, b, c in tris))
    pathlib.Path(str(ibn) + ".buf").write_bytes(tris.astype("<u4").tobytes())
    # A bent grid whose vertices are shared by several triangles (UV seams and split normals
    # need vertices with more than one corner); float32 normals, so Blender's corner normals
    # are written exactly.
    side = 4
    gx, gy = np.meshgrid(np.arange(side, dtype=np.float32), np.arange(side, dtype=np.float32))
    gz = rng.uniform(-0.5, 0.5, size=gx.shape).astype(np.float32)
    gpos = np.stack([gx.ravel(), gy.ravel(), gz.ravel()], 1).astype("<f4")
    gnor = rng.normal(size=(side * side, 3)).astype(np.float32) * 0.2 + [0, 0, 1]
    gnor = (gnor / np.linalg.norm(gnor, axis=1)[:, None]).astype("<f4")
    guv = (gpos[:, :2] / side).astype("<f2")
    grid = np.zeros((side * side, 28), np.uint8)
    grid[:, 0:12] = gpos.view(np.uint8)
    grid[:, 12:24] = gnor.view(np.uint8)
    grid[:, 24:28] = guv.view(np.uint8)
    q = (np.arange(side - 1)[None, :] + side * np.arange(side - 1)[:, None]).ravel()
    gtris = np.stack([q, q + 1, q + side, q + 1, q + side + 1, q + side], 1).reshape(-1, 3)
    gel = [{"semantic": "POSITION", "format": "R32G32B32_FLOAT", "offset": 0},
           {"semantic": "NORMAL", "format": "R32G32B32_FLOAT", "offset": 12},
           {"semantic": "TEXCOORD", "format": "R16G16_FLOAT", "offset": 24}]
    (d / "Grid.fmt").write_text(inlay.fmt_text(gel, {0: 28}, "triangle_list", "R16_UINT"))
    (d / "Grid.vb").write_bytes(grid.tobytes())
    (d / "Grid.ib").write_bytes(gtris.astype("<u2").tobytes())
    return [d / "Synth.fmt", pathlib.Path(str(d / "000012-vb0=0000aa00-vs=1111222233334444") + ".txt"),
            d / "Grid.fmt"]


def weight_blocks(tmp):
    """Captures whose vertex groups cross the add-on's vertex blocks (65 536 vertices): 70 000
    vertices, the first block's weights zero but for every 1000th vertex, the rest random with
    repeated indices in a vertex (summed in lane order); and a capture whose weights are all
    zero (no vertex group entry at all)."""
    import inlay
    rng = np.random.default_rng(3131)
    out = []
    for name, n in (("Blocks", 70_000), ("Unweighted", 30)):
        raw = np.zeros((n, 20), np.uint8)
        raw[:, 0:12] = rng.normal(size=(n, 3)).astype("<f4").view(np.uint8)
        raw[:, 12:16] = rng.integers(0, 40, size=(n, 4))
        raw[:, 13] = np.where(rng.random(n) < 0.3, raw[:, 12], raw[:, 13])  # a repeated index
        if name == "Blocks":
            raw[:, 16:20] = rng.integers(0, 256, size=(n, 4))
            quiet = np.arange(n) < 65_536 + 100
            quiet[::1000] = False
            raw[quiet, 16:20] = 0
        tris = rng.permutation(n)[: 3000].reshape(-1, 3)
        fmt = inlay.fmt_text([
            {"semantic": "POSITION", "index": 0, "format": "R32G32B32_FLOAT", "offset": 0},
            {"semantic": "BLENDINDICES", "index": 0, "format": "R8G8B8A8_UINT", "offset": 12},
            {"semantic": "BLENDWEIGHT", "index": 0, "format": "R8G8B8A8_UNORM", "offset": 16},
        ], {0: 20}, "triangle_list", "R32_UINT")
        (tmp / f"{name}.fmt").write_text(fmt)
        (tmp / f"{name}.vb").write_bytes(raw.tobytes())
        (tmp / f"{name}.ib").write_bytes(tris.astype("<u4").tobytes())
        out.append(tmp / f"{name}.fmt")
    return out


def grid_records(stem):
    """Records (rows of 28 bytes) and triangles of a Grid.fmt export."""
    vb = np.frombuffer(pathlib.Path(stem + ".vb").read_bytes(), np.uint8).reshape(-1, 28)
    ib = np.frombuffer(pathlib.Path(stem + ".ib").read_bytes(), "<u2").reshape(-1, 3)
    return vb, ib


def uv_seam(tmp):
    """A UV edited on one corner of a shared vertex: that corner becomes a new vertex (the
    original's bytes with the new TEXCOORD), its index points there, nothing else moves; the
    export imports and exports again byte for byte."""
    src = tmp / "synthetic" / "Grid"
    vb0, ib0 = grid_records(str(src))
    obj = run_import(str(src) + ".fmt")
    me = obj.data
    lv = np.zeros(len(me.loops), np.int32)
    me.loops.foreach_get("vertex_index", lv)
    v = 5  # an inner vertex: six corners
    corners = np.flatnonzero(lv == v)
    assert len(corners) == 6, corners
    last = int(corners[-1])
    me.uv_layers["TEXCOORD"].data[last].uv = (0.5, 0.25)  # exact in float16
    out = tmp / "grid-seam.fmt"
    assert run_export(obj, out) == {"FINISHED"}
    vb, ib = grid_records(str(out)[:-4])
    assert len(vb) == len(vb0) + 1, len(vb)
    assert np.array_equal(vb[:len(vb0)], vb0), "an original record changed"
    want = vb0[v].copy()
    want[24:28] = np.array([0.5, 0.25], "<f2").view(np.uint8)
    assert np.array_equal(vb[len(vb0)], want), (vb[len(vb0)], want)
    flat0, flat = ib0.ravel().copy(), ib.ravel()
    flat0[last] = len(vb0)
    assert np.array_equal(flat, flat0), "indices other than the edited corner's changed"
    obj = run_import(out)
    again = tmp / "grid-seam-again.fmt"
    assert run_export(obj, again) == {"FINISHED"}
    vb2, ib2 = grid_records(str(again)[:-4])
    assert vb2.tobytes() == vb.tobytes() and ib2.tobytes() == ib.tobytes()


def blender_normals(tmp):
    """Export's Normals option: "Blender's" on an unedited import writes the captured NORMAL
    bytes; after the mesh is shaded flat (custom normals cleared), every corner's NORMAL is
    Blender's corner normal, read here from Blender, exactly (float32), and the vertices split
    where their corners differ; every other byte is the source vertex's."""
    src = tmp / "synthetic" / "Grid"
    vb0, ib0 = grid_records(str(src))
    obj = run_import(str(src) + ".fmt")
    out = tmp / "grid-bn-a.fmt"
    bpy.context.view_layer.objects.active = obj
    assert op(bpy.ops.export_mesh.inlay, filepath=str(out), normals="BLENDER") == {"FINISHED"}
    vb, ib = grid_records(str(out)[:-4])
    assert vb.tobytes() == vb0.tobytes() and ib.tobytes() == ib0.tobytes()
    me = obj.data
    me.normals_split_custom_set([(0.0, 0.0, 0.0)] * len(me.loops))  # back to Blender's own
    me.shade_flat()
    me.update()
    cn = np.zeros(len(me.loops) * 3, np.float32)
    me.corner_normals.foreach_get("vector", cn)
    cn = cn.reshape(-1, 3)
    out = tmp / "grid-bn-b.fmt"
    assert op(bpy.ops.export_mesh.inlay, filepath=str(out), normals="BLENDER") == {"FINISHED"}
    vb, ib = grid_records(str(out)[:-4])
    corners = ib.ravel()
    assert len(vb) > len(vb0), "flat shading split no vertex"
    got = vb[corners, 12:24].copy().view("<f4")
    assert np.array_equal(got.view(np.uint32), cn.astype("<f4").view(np.uint32)), \
        "a corner's NORMAL is not Blender's corner normal"
    # every record is its source vertex's bytes but NORMAL; the captured vertex order is kept
    source = np.full(len(vb), -1)
    source[corners] = ib0.ravel()
    source[:len(vb0)] = np.arange(len(vb0))
    keep = np.r_[0:12, 24:28]
    assert np.array_equal(vb[:, keep], vb0[source][:, keep]), "bytes other than NORMAL changed"
    # one record per distinct (vertex, normal)
    pairs = {(int(a), bytes(b)) for a, b in zip(ib0.ravel(), vb[corners, 12:24])}
    assert len(vb) == len(vb0) + len(pairs) - len({p[0] for p in pairs})


def shared_samples():
    base = os.environ.get("INLAY_SHARED")
    dumps = pathlib.Path(base) / "dumps" if base else ROOT.parent / "shared" / "dumps"
    if not dumps.is_dir():
        msg = f"the shared dumps are not at {dumps} (set INLAY_SHARED)"
        if os.environ.get("INLAY_REQUIRE_SHARED") == "1":
            print(f"FAIL {msg}")
            results["failed"] += 1
        else:
            print(f"SKIPPED: {msg}: the shared samples are skipped")
        return []
    files = [f for f in sorted(dumps.rglob("*")) if f.is_file()
             and (f.suffix.lower() in (".fmt", ".csv") or (f.suffix == ".txt" and "-vb" in f.name)
                  or (f.suffix == ".txt" and "-ib=" in f.name))]
    return files


def main():
    zip_path = pathlib.Path(sys.argv[-1])
    check("the extension installs into a clean Blender and bundles inlay", lambda: install(zip_path))
    if results["failed"]:
        print(f"{results['passed']} passed, {results['failed']} failed")
        sys.exit(1)
    import inlay
    with tempfile.TemporaryDirectory() as t:
        tmp = pathlib.Path(t)
        for f in synthetic(tmp) + weight_blocks(tmp) + shared_samples():
            try:
                inlay.load_dump(str(f))
            except (inlay.LayoutError, OSError) as e:
                # A capture inlay refuses: the import reports the error, no traceback.
                def refused(f=f, e=e):
                    res = op(bpy.ops.import_mesh.inlay, filepath=str(f))
                    assert res == {"CANCELLED"}, res
                check(f"refused cleanly ({str(e)[:80]}): {f.name}", refused)
                continue
            round_trips(f, tmp)
        check("export pre-flight errors name the vertex, write nothing", lambda: preflight(tmp))
        if hasattr(inlay, "load_mod"):
            check("a finished mod imports, one object per part; parts export its buffers",
                  lambda: mod_import(tmp))
        else:  # the mod reader (issue 32) has not landed in this checkout
            print("SKIPPED: inlay.load_mod is not in this inlay: the mod import is skipped")
        check("UV seam: an edited corner splits its vertex, round trip exact",
              lambda: uv_seam(tmp))
        check("Normals option: Blender's normals exact, split where corners differ",
              lambda: blender_normals(tmp))
        check("a finished mod imports as one object per part (examples/mod/Box.ini)", mod_box)
        mona = shared_mona()
        if mona is not None:
            check("a finished mod imports as one object per part (Mona.ini)", lambda: mod_mona(mona))
    print(f"{results['passed']} passed, {results['failed']} failed")
    sys.exit(1 if results["failed"] else 0)


def mod_import(tmp):
    """File > Import of a finished mod's INI (examples/mod/Box.ini): one object per part,
    named by the part; its triangles' positions are the buffer's (read here with struct);
    an unedited export writes the mod's own buffer files' bytes and the part's index range."""
    ini = ROOT / "examples" / "mod" / "Box.ini"
    meshes = ini.parent / "Meshes"
    for o in list(bpy.data.objects):
        bpy.data.objects.remove(o)
    res = op(bpy.ops.import_mesh.inlay, filepath=str(ini))
    assert res == {"FINISHED"}, res
    objs = {o.name: o for o in bpy.data.objects}
    assert sorted(objs) == ["TextureOverrideBoxCaps", "TextureOverrideBoxSides"], sorted(objs)
    pos_buf = (meshes / "BoxPosition.buf").read_bytes()
    positions = [struct.unpack_from("<3f", pos_buf, 40 * v) for v in range(len(pos_buf) // 40)]
    ib_buf = (meshes / "Box.ib").read_bytes()
    ib = struct.unpack(f"<{len(ib_buf) // 2}H", ib_buf)
    files = {40: (meshes / "BoxPosition.buf").read_bytes(), 32: (meshes / "BoxBlend.buf").read_bytes(),
             12: (meshes / "BoxTexcoord.buf").read_bytes()}
    for name, start, count in (("TextureOverrideBoxCaps", 0, 12), ("TextureOverrideBoxSides", 12, 24)):
        obj = objs[name]
        me = obj.data
        assert len(me.polygons) == count // 3, (name, len(me.polygons))
        lv = np.zeros(len(me.loops), np.int32)
        me.loops.foreach_get("vertex_index", lv)
        co = np.zeros(len(me.vertices) * 3, np.float32)
        me.vertices.foreach_get("co", co)
        co = co.reshape(-1, 3)
        assert list(lv) == list(ib[start:start + count]), name
        for v in lv:
            assert tuple(co[v]) == positions[v], (name, v)
        out = tmp / f"{name}.fmt"
        assert run_export(obj, out) == {"FINISHED"}
        meta = json.loads(obj["inlay"])
        strides = {int(k): v for k, v in meta["strides"].items()}
        for slot, stride in strides.items():
            got = pathlib.Path(str(out)[:-4] + f".vb{slot}").read_bytes()
            assert got == files[stride], (name, slot)
        got_ib = pathlib.Path(str(out)[:-4] + ".ib").read_bytes()
        assert got_ib == ib_buf[2 * start:2 * (start + count)], name
        assert meta["mod_part"]["section"] == name and meta["mod_part"]["component"] == "Box"
    res = op(bpy.ops.import_mesh.inlay, filepath=str(ini.parent / "Missing.ini"))
    assert res == {"CANCELLED"}, res
def import_ini(path):
    for o in list(bpy.data.objects):
        bpy.data.objects.remove(o)
    res = op(bpy.ops.import_mesh.inlay, filepath=str(path))
    assert res == {"FINISHED"}, f"import of {path} returned {res}"
    return sorted(bpy.context.scene.objects, key=lambda o: o.name)


def mod_box():
    import json
    import struct
    box = ROOT / "examples" / "mod" / "Box.ini"
    objs = import_ini(box)
    assert [o.name for o in objs] == ["TextureOverrideBoxCaps", "TextureOverrideBoxSides"], objs
    pos = (box.parent / "Meshes" / "BoxPosition.buf").read_bytes()
    want = [struct.unpack_from("<3f", pos, 40 * v) for v in range(len(pos) // 40)]
    ib = (box.parent / "Meshes" / "Box.ib").read_bytes()
    ib = struct.unpack(f"<{len(ib) // 2}H", ib)
    ranges = {"TextureOverrideBoxCaps": (0, 12), "TextureOverrideBoxSides": (12, 36)}
    for o in objs:
        co = [tuple(v.co) for v in o.data.vertices]
        assert co == [tuple(np.float32(x) for x in w) for w in want], (o.name, co[:2])
        a, b = ranges[o.name]
        got = sorted(tuple(p.vertices) for p in o.data.polygons)
        assert got == sorted(tuple(ib[i:i + 3]) for i in range(a, b, 3)), (o.name, got)
        meta = json.loads(o["inlay"])
        assert meta["records"] == len(want) and meta["dropped_triangles"] == 0, meta


def shared_mona():
    shared = pathlib.Path(os.environ.get("INLAY_SHARED", ROOT.parent / "shared"))
    p = shared / "dumps/SilentNightSound+GI-Model-Importer/Examples/MonaHatless/Mona.ini"
    if p.is_file():
        return p
    msg = f"{p} not found"
    if os.environ.get("INLAY_REQUIRE_SHARED") == "1":
        print(f"FAIL {msg}")
        results["failed"] += 1
    else:
        print(f"SKIPPED: {msg}: the mod import of Mona is skipped")
    return None


def mod_mona(ini):
    objs = import_ini(ini)
    assert [o.name for o in objs] == ["TextureOverrideMonaBody", "TextureOverrideMonaHead"], objs
    import json
    # 17688 and 35814 indices; Blender has no face for a triangle that repeats a vertex,
    # which the import counts
    count = {"TextureOverrideMonaHead": 17688, "TextureOverrideMonaBody": 35814}
    for o in objs:
        meta = json.loads(o["inlay"])
        assert len(o.data.polygons) == meta["triangles"], o.name
        assert meta["triangles"] + meta["dropped_triangles"] == count[o.name] // 3, meta
        assert len(o.data.vertices) == 12991 == meta["records"]


def preflight(tmp):
    from bl_ext.user_default.inlay import core
    obj = run_import(tmp / "synthetic" / "Synth.fmt")
    for i in range(60, 66):  # vertex 3 joins six more groups: 14 > 8 influences
        g = obj.vertex_groups.get(str(i)) or obj.vertex_groups.new(name=str(i))
        g.add([3], 0.5, "REPLACE")
    plan = core.plan_export(obj)
    assert any("first: vertex 3" in e for e in plan.errors), plan.errors
    out = tmp / "refused.fmt"
    assert run_export(obj, out) == {"CANCELLED"}
    assert not out.exists() and not (tmp / "refused.vb").exists()
    assert any("Synth" in line for _, line in plan.lines())


if __name__ == "__main__":
    main()
