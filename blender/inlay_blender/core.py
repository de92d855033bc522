"""Blender data <-> inlay: the add-on's import and export, a thin shell over the `inlay`
package. Every byte is read and written by inlay (`load_dump`, `decode`, `encode`,
`fmt_text`, `create_input_layout`); this module only moves numpy arrays into and out of
Blender's mesh data.

Import: one Blender vertex per vertex record of the captured buffers (every record, so
records the draw does not use stay as loose vertices), faces from the draw's own primitives.
Each record's bytes are kept as integer attributes (`inlay:vbN:K`, four bytes each), so
export can hand them to `inlay.encode(original=...)`: a value that was not edited keeps its
exact bytes (non-canonical codes, NaN payloads, padding included).
"""

import json
import os
import time

import numpy as np

import bpy
import inlay

META = "inlay"  # the object's custom property: the capture's layout, draw and files (JSON)
RAW = "inlay:vb{slot}:{k}"  # a record's bytes, four at a time, per slot
LANES = "xyzw"
# How close (cosine) a corner's normal must be to the captured NORMAL to count as unedited:
# Blender keeps custom normals as two 16-bit angles, a few 1e-5 radians apart.
NORMAL_SAME = 1.0 - 1e-6


# When a list, import_capture appends (stage, wall seconds, process CPU seconds) to it, for
# blender/benchmark.py.
STAGES = None


class _Clock:
    def __init__(self):
        self.t = (time.perf_counter(), time.process_time())

    def __call__(self, stage):
        if STAGES is not None:
            now = (time.perf_counter(), time.process_time())
            STAGES.append((stage, now[0] - self.t[0], now[1] - self.t[1]))
            self.t = now


class InlayError(Exception):
    """A problem the add-on reports in Blender's UI (never a traceback)."""


# --------------------------------------------------------------------------------------------
# Import


def load(path):
    """The capture at `path` through inlay's readers (3DMigoto txt/buf dumps, .fmt/.vb/.ib,
    RenderDoc CSV)."""
    try:
        return inlay.load_dump(path)
    except FileNotFoundError as e:
        raise InlayError(f"{e.filename}: no such file") from None
    except (inlay.LayoutError, OSError) as e:
        raise InlayError(str(e)) from None


def _kind(fmt):
    return inlay.format_info(fmt)[3]


def _key(e):
    return e["semantic"] + (str(e["index"]) if e["index"] else "")


def _elements(dump):
    """The dump's elements with resolved offsets, and the created layout's strides."""
    created = inlay.create_input_layout(dump.layout)
    if created.hresult == "E_INVALIDARG":
        raise InlayError("the capture's layout is refused by CreateInputLayout: "
                         + "; ".join(d.message for d in created.diagnostics))
    elements = []
    for e, off in zip(dump.layout.elements, created.offsets):
        e = dict(e)
        e["offset"] = off
        elements.append(e)
    return elements


WEIGHTS = {}  # BLENDINDICESn key -> its BLENDWEIGHT(S)n key (filled by _roles)


def _roles(elements):
    """Which Blender data holds each element: ("position"|"normal"|"uv"|"color"|"blend"|
    "generic", lanes held natively)."""
    roles = {}
    keys = {_key(e): e for e in elements}
    for e in elements:
        k, sem, kind = _key(e), e["semantic"].upper(), _kind(e["format"])
        n = inlay.format_info(e["format"])[2]
        floats = kind in ("float", "unorm", "snorm")
        if e.get("class", "vertex") == "instance":
            roles[k] = ("instance", 0)
        elif sem == "POSITION" and e["index"] == 0 and floats and n >= 2:
            roles[k] = ("position", min(n, 3))
        elif sem == "NORMAL" and e["index"] == 0 and floats and n >= 3:
            roles[k] = ("normal", 3)
        elif sem == "TEXCOORD" and floats and n >= 2:
            roles[k] = ("uv", 2)
        elif sem == "COLOR" and floats:
            roles[k] = ("color", n)
        elif sem == "BLENDINDICES" and kind in ("uint", "sint"):
            w = next((keys[x] for x in (f"BLENDWEIGHT{e['index'] or ''}",
                                         f"BLENDWEIGHTS{e['index'] or ''}") if x in keys), None)
            if w is not None and _kind(w["format"]) in ("float", "unorm", "snorm"):
                nw = inlay.format_info(w["format"])[2]
                roles[k] = ("blend", min(n, nw))
                roles[_key(w)] = ("weight", min(n, nw))
                WEIGHTS[k] = _key(w)
            else:
                roles[k] = ("generic", 0)
        elif k not in roles:
            roles[k] = ("generic", 0)
    return roles


def _records(dump, elements):
    """Per per-vertex slot: its record bytes as a (records, stride) uint8 array; the number
    of records every per-vertex slot holds."""
    vertex_slots = sorted({e["slot"] for e in elements if e.get("class", "vertex") == "vertex"})
    bufs, n = {}, None
    for s in vertex_slots:
        stride, off = dump.strides.get(s, 0), dump.offsets.get(s, 0)
        data = dump.vertex_buffers.get(s)
        if data is None or stride == 0:
            raise InlayError(f"slot {s}: no buffer (or stride 0): nothing to import")
        held = max(0, len(data) - off) // stride
        n = held if n is None else min(n, held)
        bufs[s] = (data, stride, off)
    n = n or 0
    out = {s: np.frombuffer(d, np.uint8, n * st, off).reshape(n, st) for s, (d, st, off) in
           bufs.items()}
    return out, n


def _faces(dump, elements, n):
    """The draw's primitives as vertex-record numbers (and how many were dropped)."""
    if dump.topology not in ("triangle_list", "triangle_strip", "triangle_list_adj",
                             "triangle_strip_adj"):
        raise InlayError(f"the capture draws a {dump.topology}; the add-on imports triangles")
    # One small element is enough to walk the draw: the primitives and SV_VertexID.
    e = min((e for e in elements if e.get("class", "vertex") == "vertex"),
            key=lambda e: inlay.format_info(e["format"])[1])
    one = dict(e)
    one["semantic"], one["index"] = "INLAY_WALK", 0
    stream = inlay.decode([one], dump.vertex_buffers, index_buffer=dump.index_buffer,
                          index_format=dump.index_format or "R16_UINT",
                          index_offset=dump.index_offset, topology=dump.topology,
                          draw=dump.draw, strides=dump.strides, offsets=dump.offsets)
    draw = dump.draw
    base = draw.get("base_vertex", draw.get("start_vertex", 0))
    prims = stream["primitives"]
    if prims.shape[1] == 6:  # adjacency: the triangle is vertices 0, 2, 4
        prims = prims[:, ::2]
    vid = stream["SV_VertexID"]
    if base == 0 and vid.dtype == np.uint32 and n < 1 << 31:  # the usual draw: 32-bit throughout
        faces = vid[prims]
        ok = (faces < n).all(axis=1)
    else:
        faces = vid.astype(np.int64)[prims] + base
        ok = ((faces >= 0) & (faces < n)).all(axis=1)
    a, b, c = faces[:, 0], faces[:, 1], faces[:, 2]
    ok &= (a != b) & (b != c) & (a != c)
    if ok.all():
        return faces.astype(np.int32), 0
    return faces[ok].astype(np.int32), int((~ok).sum())


def import_mod(path, context=None, state=None):
    """Imports a finished 3DMigoto mod (its INI, read by `inlay.load_mod` for the default
    state, or `state` ({"$var": value})): one object per drawn part, named by the part.
    Returns (objects, warnings)."""
    if not hasattr(inlay, "load_mod"):
        raise InlayError(f"{os.path.basename(path)}: this inlay package reads no mods (it has no "
                         "inlay.load_mod)")
    try:
        mod = inlay.load_mod(path, set=state)
    except FileNotFoundError as e:
        raise InlayError(f"{e.filename}: no such file") from None
    except (inlay.LayoutError, OSError) as e:
        raise InlayError(str(e)) from None
    if not mod.parts:
        raise InlayError(f"{os.path.basename(path)}: no part of the mod draws mesh data in this "
                         "state")
    objects, warnings = [], list(mod.warnings)
    for part in mod.parts:
        obj, w = import_capture(part, context, name=part.name)
        objects.append(obj)
        warnings += [f"{part.name}: {x}" for x in w]
    return objects, warnings


def import_capture(path, context=None, name=None):
    """Imports the capture at `path` (or a dump inlay has read, such as a mod's part):
    returns the new object (linked to the scene) and the warnings."""
    clock = _Clock()
    dump = path if isinstance(path, inlay.Dump) else load(path)
    clock("read files")
    elements = _elements(dump)
    roles = _roles(elements)
    raw, n = _records(dump, elements)
    vertex_elements = [e for e in elements if e.get("class", "vertex") == "vertex"]
    records = inlay.decode(vertex_elements, {s: r for s, r in raw.items()},
                           topology="point_list", draw={"kind": "draw", "vertex_count": n},
                           strides={s: r.shape[1] for s, r in raw.items()},
                           primitives=False, system_values=False)
    clock("decode records")
    faces, dropped = _faces(dump, elements, n)
    clock("walk the draw")
    warnings = list(dump.warnings)
    if dropped:
        warnings.append(f"{dropped} triangle(s) with a repeated vertex or a vertex past the "
                        "buffers are not imported (Blender has no such faces)")

    mesh = bpy.data.meshes.new(name or dump.name)
    mesh.vertices.add(n)
    mesh.loops.add(faces.size)
    mesh.polygons.add(len(faces))
    loops = faces.ravel()
    _fill(mesh, ".corner_vert", "value", loops, lambda: mesh.loops, "vertex_index")
    mesh.polygons.foreach_set("loop_start", np.arange(0, faces.size, 3, dtype=np.int32))
    pos = np.zeros((n, 3), np.float32)
    normals = None
    for e in vertex_elements:
        k = _key(e)
        role, held = roles[k]
        v = records[k]
        if role == "position":
            pos[:, :held] = v[:, :held]
        elif role == "normal":
            normals = v[:, :3]
        elif role == "uv":  # a 2D float corner attribute is a UV map
            uv = mesh.attributes.new(name=k, type="FLOAT2", domain="CORNER")
            uv.data.foreach_set("vector", np.ascontiguousarray(v[loops, :2]).ravel())
        elif role == "color":
            rgba = np.zeros((n, 4), np.float32)
            rgba[:, 3] = 1.0
            rgba[:, :v.shape[1]] = v
            a = mesh.color_attributes.new(name=k, type="FLOAT_COLOR", domain="POINT")
            a.data.foreach_set("color", rgba.ravel())
        # every lane Blender's own data does not hold, exactly, as a generic attribute
        integer = v.dtype != np.float32
        for lane in range(held, v.shape[1]):
            a = mesh.attributes.new(name=f"{k}.{LANES[lane]}",
                                    type="INT" if integer else "FLOAT", domain="POINT")
            a.data.foreach_set("value", np.ascontiguousarray(v[:, lane]).view(
                np.int32 if integer else np.float32))
    _fill(mesh, "position", "vector", pos.ravel(), lambda: mesh.vertices, "co")
    # each record's bytes, four at a time, for export's `original=`
    for s, r in raw.items():
        stride = r.shape[1]
        padded = np.zeros((n, (stride + 3) // 4 * 4), np.uint8)
        padded[:, :stride] = r
        words = padded.view(np.int32)
        for k in range(words.shape[1]):
            a = mesh.attributes.new(name=RAW.format(slot=s, k=k), type="INT", domain="POINT")
            a.data.foreach_set("value", np.ascontiguousarray(words[:, k]))
    clock("mesh data (numpy, attributes.new, foreach_set)")
    mesh.update()  # Blender makes the edges
    clock("edges (Blender's mesh.update)")
    if normals is not None and len(faces):
        mesh.normals_split_custom_set_from_vertices(np.ascontiguousarray(normals, np.float32))
    clock("custom normals (Blender's normals_split_custom_set_from_vertices)")

    obj = bpy.data.objects.new(name or dump.name, mesh)
    _vertex_groups(obj, records, roles, n, clock)
    instance = {str(s): dump.vertex_buffers[s].hex() for s in dump.vertex_buffers
                if s not in raw}
    meta = {
        "version": 1, "name": dump.name, "sources": dump.sources, "elements": elements,
        "layout": [dict(e) for e in dump.layout.elements],
        "strides": {str(s): dump.strides[s] for s in dump.strides},
        "offsets": {str(s): dump.offsets[s] for s in dump.offsets},
        "topology": dump.topology, "draw": dump.draw, "index_format": dump.index_format,
        "records": n, "triangles": int(len(faces)), "dropped_triangles": dropped,
        "instance_buffers": instance, "warnings": warnings,
    }
    if hasattr(dump, "info"):  # a mod's part: where the INI draws it
        meta["mod_part"] = {k: dump.info.get(k) for k in ("name", "section", "at", "component",
                                                          "conditions", "hash", "start",
                                                          "count", "indexed")}
    obj[META] = json.dumps(meta)
    scene = (context or bpy.context).scene
    scene.collection.objects.link(obj)
    return obj, warnings


def _fill(mesh, attribute, field, values, collection, prop):
    """Writes `values` through the mesh's built-in attribute (one copy), or, where this
    Blender has no such attribute, through the older per-item collection."""
    a = mesh.attributes.get(attribute)
    if a is not None:
        a.data.foreach_set(field, values)
    else:
        collection().foreach_set(prop, values)


def _vertex_groups(obj, records, roles, n, clock=None):
    """Vertex groups named by blend index from every BLENDINDICES/BLENDWEIGHT(S) pair (the
    weights of a vertex's lanes that name one index summed in lane order, as float32)."""
    sets = [(k, held) for k, (role, held) in roles.items() if role == "blend"]
    if not sets or not n:
        return
    g = np.concatenate([records[k][:, :h].astype(np.int64) for k, h in sets], 1)
    w = np.concatenate([records[WEIGHTS[k]][:, :h].astype(np.float32) for k, h in sets], 1)
    live = w != 0  # zero weights make no group entry
    named = g[live]
    if (named < 0).any():
        raise InlayError("a blend index is negative: it cannot name a vertex group")
    top = int(named.max(initial=-1))
    if top >= GROUPS_MAX:
        raise InlayError(f"blend index {top} with a nonzero weight: more than {GROUPS_MAX} "
                         "vertex groups (the element does not hold blend indices)")
    # A lane naming the index of an earlier live lane of its vertex adds its weight to the
    # first such lane, lanes taken in order (so the sum is made in lane order, in float32).
    first = live.copy()
    for j in range(1, g.shape[1]):
        target = np.full(n, -1, np.int64)
        for i in range(j - 1, -1, -1):  # descending: the earliest lane wins
            target = np.where(first[:, i] & (g[:, i] == g[:, j]), i, target)
        rows = np.flatnonzero(live[:, j] & (target >= 0))
        if len(rows):
            w[rows, target[rows]] += w[rows, j]
            first[rows, j] = False
    for i in range(top + 1):
        obj.vertex_groups.new(name=str(i))
    if clock:
        clock("vertex groups: lanes merged (numpy), groups made")
    # One `add` per (vertex block, group, weight): Blender's `add` costs about a microsecond
    # a call, and a cache miss an entry when its vertices are spread over the whole mesh, so
    # the vertices go in blocks whose deform data (and whose numpy arrays here) stay in
    # cache. Weights from UNORM and float formats take few values, so this is tens of
    # thousands of calls for a million vertices, not one per vertex and lane.
    # Each (vertex, lane) as one 64-bit key: group (16 bits), weight (its float32 bits),
    # vertex within its block (VERTEX_BITS), so that a plain sort of a block's keys orders its
    # entries by (group, weight) with vertices ascending, and each run is one call.
    adds = [x.add for x in obj.vertex_groups]
    block_size = 1 << VERTEX_BITS
    mask = np.uint64(block_size - 1)
    keys = ((g.astype(np.uint64) << np.uint64(32 + VERTEX_BITS))
            | (w.view(np.uint32).astype(np.uint64) << np.uint64(VERTEX_BITS))
            | (np.arange(n, dtype=np.uint64) & mask)[:, None])
    calls = entries = 0
    for b0 in range(0, n, block_size):
        block = np.sort(keys[b0:b0 + block_size][first[b0:b0 + block_size]])
        if not len(block):  # no weight in this block (an unskinned part, zero weights)
            continue
        head = block >> np.uint64(VERTEX_BITS)
        cut = np.flatnonzero(np.r_[True, head[1:] != head[:-1], True])
        vl = ((block & mask).astype(np.int64) + b0).tolist()
        head = head[cut[:-1]]
        gl = (head >> np.uint64(32)).astype(np.int64).tolist()
        wl = head.astype(np.uint32).view(np.float32).tolist()
        for a, z, gi, wi in zip(cut[:-1].tolist(), cut[1:].tolist(), gl, wl):
            adds[gi](vl[a:z], wi, "REPLACE")
        calls += len(cut) - 1
        entries += len(block)
    if clock:
        clock(f"vertex groups: {calls} VertexGroup.add calls for {entries} weights "
              "(with their numpy grouping)")


GROUPS_MAX = 1 << 16
VERTEX_BITS = 16  # 65 536 vertices a block; at most 16 (64-bit keys)


# --------------------------------------------------------------------------------------------
# Export


class Plan:
    """What export will write, and the pre-flight report about it."""

    def __init__(self):
        self.info, self.warnings, self.errors = [], [], []
        self.buffers, self.index, self.fmt = {}, None, ""
        self.meta = None

    def lines(self):
        return ([("ERROR", x) for x in self.errors] + [("WARNING", x) for x in self.warnings]
                + [("INFO", x) for x in self.info])


def _meta(obj):
    if obj is None or obj.type != "MESH" or META not in obj:
        raise InlayError("the active object was not imported by inlay: it has no captured "
                         "layout to export to")
    try:
        return json.loads(obj[META])
    except ValueError:
        raise InlayError(f"{obj.name}: its inlay layout property is damaged") from None


def _attr(mesh, name, dtype, width=1):
    a = mesh.attributes.get(name)
    if a is None:
        return None
    out = np.zeros(len(a.data) * width, dtype)
    a.data.foreach_get("value" if width == 1 else "vector", out)
    return out if width == 1 else out.reshape(-1, width)


def plan_export(obj, normals="CAPTURED"):
    """The pre-flight: everything export writes, computed, and a report; nothing written.

    `normals`: "CAPTURED" writes NORMAL from the captured values each vertex carries (exact,
    whatever happens to the faces around it: Blender 4.2 keeps custom normals relative to the
    faces, so deleting or moving faces turns them); "BLENDER" writes Blender's corner normals
    where they differ from the captured ones, splitting vertices whose corners differ."""
    p = Plan()
    meta = p.meta = _meta(obj)
    mesh = obj.data
    elements = meta["elements"]
    vertex_elements = [e for e in elements if e.get("class", "vertex") == "vertex"]
    roles = _roles(elements)
    strides = {int(s): v for s, v in meta["strides"].items()}
    slots = sorted({e["slot"] for e in vertex_elements})
    V = len(mesh.vertices)

    # The records each vertex came from (its bytes, kept as integer attributes).
    raw = {}
    for s in slots:
        words = (strides[s] + 3) // 4
        cols = []
        for k in range(words):
            a = _attr(mesh, RAW.format(slot=s, k=k), np.int32)
            if a is None:
                raise InlayError(f"the attribute {RAW.format(slot=s, k=k)} (the captured bytes "
                                 f"of slot {s}) was removed: re-import the capture")
            cols.append(a)
        raw[s] = np.ascontiguousarray(np.stack(cols, 1).view(np.uint8)[:, :strides[s]])
    exact = inlay.decode(vertex_elements, raw, topology="point_list",
                         draw={"kind": "draw", "vertex_count": V}, strides=strides,
                         primitives=False, system_values=False) if V else {}

    # Triangles (n-gons through Blender's triangulation) and each corner's data.
    if len(mesh.polygons) and (np.diff(np.r_[_loop_starts(mesh), len(mesh.loops)]) == 3).all():
        tri_loops = np.arange(len(mesh.loops), dtype=np.int64).reshape(-1, 3)
    else:
        mesh.calc_loop_triangles()
        tri_loops = np.zeros(len(mesh.loop_triangles) * 3, np.int32)
        mesh.loop_triangles.foreach_get("loops", tri_loops)
        tri_loops = tri_loops.reshape(-1, 3).astype(np.int64)
        if len(mesh.polygons):
            p.warnings.append(f"{len(mesh.polygons)} faces include quads or n-gons: written "
                              f"as {len(tri_loops)} triangles")
    L = len(mesh.loops)
    loop_vertex = np.zeros(L, np.int32)
    mesh.loops.foreach_get("vertex_index", loop_vertex)

    key_cols = [loop_vertex.astype(np.uint32)[:, None]]
    corner = {}  # element key -> (L, lanes) values per corner
    for e in vertex_elements:
        k = _key(e)
        role, held = roles[k]
        if role == "uv":
            uv = mesh.attributes.get(k)
            if uv is None or mesh.uv_layers.get(k) is None:
                raise InlayError(f"the UV map {k} was removed; {k} needs it")
            a = np.zeros(L * 2, np.float32)
            uv.data.foreach_get("vector", a)
            corner[k] = a.reshape(-1, 2)
            key_cols.append(corner[k].view(np.uint32))
        elif role == "normal" and L and normals == "BLENDER":
            cn = np.zeros(L * 3, np.float32)
            mesh.corner_normals.foreach_get("vector", cn)
            cn = cn.reshape(-1, 3)
            want = exact[k][:, :3][loop_vertex]
            length = np.linalg.norm(want, axis=1)
            unit = want / np.where(length > 0, length, 1)[:, None]
            same = ((cn * unit).sum(1) >= NORMAL_SAME) | (length == 0)
            corner[k] = np.where(same[:, None], want, cn).astype(np.float32)
            key_cols.append(corner[k].view(np.uint32))
    keys = np.ascontiguousarray(np.concatenate(key_cols, 1))

    # Output vertices: vertex v's first corner's data at row v (loose vertices keep theirs);
    # corners whose data differ from it (UV seams, split normals) become extra rows.
    first = np.full(V, -1, np.int64)
    order = np.argsort(loop_vertex, kind="stable")
    lv = loop_vertex[order]
    starts = np.flatnonzero(np.r_[True, lv[1:] != lv[:-1]]) if L else np.zeros(0, np.int64)
    first[lv[starts]] = order[starts]
    same_as_first = np.ones(L, bool)
    if L:
        same_as_first = (keys == keys[first[loop_vertex]]).all(1)
    out_of_loop = loop_vertex.astype(np.int64)
    extra = np.flatnonzero(~same_as_first)
    source_vertex = np.arange(V)
    source_loop = first.copy()
    if len(extra):
        ukeys, first_at, inverse = np.unique(keys[extra], axis=0, return_index=True,
                                             return_inverse=True)
        inverse = inverse.ravel()
        # in order of first appearance
        rank = np.empty(len(first_at), np.int64)
        rank[np.argsort(first_at, kind="stable")] = np.arange(len(first_at))
        out_of_loop[extra] = V + rank[inverse]
        new_loops = extra[np.sort(first_at)]
        source_vertex = np.r_[source_vertex, loop_vertex[new_loops]]
        source_loop = np.r_[source_loop, new_loops]
        p.info.append(f"{len(new_loops)} vertices split where corners differ (UV seams, "
                      "split normals)")
    N = len(source_vertex)

    arrays = {}
    co = np.zeros(V * 3, np.float32)
    mesh.vertices.foreach_get("co", co)
    co = co.reshape(-1, 3)
    groups = _groups(obj, mesh) if any(r[0] == "blend" for r in roles.values()) else None
    for e in vertex_elements:
        k = _key(e)
        role, held = roles[k]
        _, _, n_lanes, kind = inlay.format_info(e["format"])
        integer = kind in ("uint", "sint")
        v = np.array(exact[k]) if V else np.zeros((0, n_lanes),
                                                  np.int64 if integer else np.float32)
        v = v.astype(np.int64) if integer else v
        if role == "position":
            v[:, :held] = co[:, :held]
        elif role == "color":
            a = mesh.color_attributes.get(k)
            if a is None:
                raise InlayError(f"the colour attribute {k} was removed; {k} needs it")
            c = np.zeros(V * 4, np.float32)
            a.data.foreach_get("color", c)
            v[:] = c.reshape(-1, 4)[:, :n_lanes]
        for lane in range(held, n_lanes):
            a = _attr(mesh, f"{k}.{LANES[lane]}", np.int32 if integer else np.float32)
            if a is None:
                raise InlayError(f"the attribute {k}.{LANES[lane]} was removed; {k} needs it")
            v[:, lane] = a.view(np.uint32) if kind == "uint" else a
        rows = v[source_vertex]
        if k in corner and N:
            has = source_loop >= 0
            rows[has, :corner[k].shape[1]] = corner[k][source_loop[has]]
        arrays[k] = rows
    if groups is not None:
        _blend_lanes(p, arrays, exact, roles, groups, source_vertex, vertex_elements)

    warn = []
    originals = {s: np.ascontiguousarray(raw[s][source_vertex]).tobytes() for s in slots}
    if not p.errors:
        try:
            bufs = inlay.encode(vertex_elements, arrays, vertex_count=N, strides=strides,
                                original=originals, warnings=warn, clamp=True)
        except inlay.LayoutError as e:
            p.errors.append(str(e))
            bufs = {}
        p.warnings += warn
        p.buffers.update(bufs)
    for s, hexed in meta["instance_buffers"].items():
        p.buffers[int(s)] = bytes.fromhex(hexed)

    # The index buffer: the triangles' corners as output vertices.
    tris = out_of_loop[tri_loops] if len(tri_loops) else np.zeros((0, 3), np.int64)
    fmt = meta["index_format"] or "R16_UINT"
    if N > 65535 and fmt == "R16_UINT":  # 0xFFFF is the strip-cut value: 65535 vertices at most
        p.errors.append(f"{N} vertices need 32-bit indices; the capture's index format is "
                        "R16_UINT (the mod's IB format must change to R32_UINT)")
    p.index = tris.astype("<u2" if fmt == "R16_UINT" else "<u4").tobytes()
    topology = meta["topology"]
    if topology != "triangle_list":
        p.warnings.append(f"the capture draws a {topology}; written as a triangle_list")
    p.fmt = inlay.fmt_text(meta.get("layout", elements), strides, "triangle_list", fmt)

    stride_text = ", ".join(f"slot {s}: stride {strides[s]}" for s in sorted(strides))
    p.info.insert(0, f"{obj.name}: {stride_text}")
    p.info.append("formats: " + ", ".join(f"{_key(e)} {e['format']}" for e in elements))
    p.info.append(f"vertices: {N} (captured {meta['records']}); indices: {3 * len(tris)} "
                  f"(captured {3 * meta['triangles']}), {fmt}")
    if meta.get("dropped_triangles"):
        p.warnings.append(f"{meta['dropped_triangles']} captured triangle(s) with a repeated "
                          "vertex were not imported and are not written")
    return p


def _loop_starts(mesh):
    a = np.zeros(len(mesh.polygons), np.int32)
    mesh.polygons.foreach_get("loop_start", a)
    return a


def _groups(obj, mesh):
    """Per vertex, {blend index: weight} of its numeric vertex groups; names that are not
    blend indices are listed."""
    names = {}
    bad = []
    for g in obj.vertex_groups:
        try:
            names[g.index] = int(g.name)
        except ValueError:
            bad.append(g.name)
    out = []
    for v in mesh.vertices:
        d = {}
        for ge in v.groups:
            i = names.get(ge.group)
            if i is not None and ge.weight != 0:
                d[i] = ge.weight
        out.append(d)
    return out, bad


def _blend_lanes(p, arrays, exact, roles, groups, source_vertex, vertex_elements):
    """BLENDINDICES/BLENDWEIGHT lanes from vertex groups: the captured lanes where a vertex's
    groups are what they held, otherwise its groups by weight, largest first."""
    per_vertex, bad = groups
    for name in bad:
        p.warnings.append(f"vertex group '{name}' is not a blend index number: not written")
    sets = [k for k, r in roles.items() if r[0] == "blend"]
    if not sets:
        return
    arity = sum(roles[k][1] for k in sets)
    weights_of = {k: WEIGHTS[k] for k in sets}
    formats = {_key(e): e["format"] for e in vertex_elements}
    # The captured {index: weight} per vertex, from the kept bytes.
    V = len(per_vertex)
    captured = [dict() for _ in range(V)]
    for k in sets:
        held = roles[k][1]
        idx = exact[k][:, :held]
        w = exact[weights_of[k]][:, :held].astype(np.float32)
        for v in range(V):
            d = captured[v]
            for i, x in zip(idx[v].tolist(), w[v].tolist()):
                if x != 0:
                    d[i] = float(np.float32(d.get(i, 0.0)) + np.float32(x))
    for v, d in enumerate(captured):  # Blender keeps a vertex group weight within 0..1
        captured[v] = {i: min(x, 1.0) for i, x in d.items() if x > 0}
    too_many, first_bad = 0, None
    rebuilt = {k: (np.array(exact[k]), np.array(exact[weights_of[k]])) for k in sets}
    for v in range(V):
        got = per_vertex[v]
        if {i: np.float32(x) for i, x in got.items()} == {
                i: np.float32(x) for i, x in captured[v].items()}:
            continue
        lanes = sorted(got.items(), key=lambda t: (-t[1], t[0]))
        if len(lanes) > arity:
            too_many += 1
            first_bad = first_bad if first_bad is not None else (v, len(lanes))
            lanes = lanes[:arity]
        pos = 0
        for k in sets:
            held = roles[k][1]
            idx, w = rebuilt[k]
            for lane in range(held):
                i, x = lanes[pos] if pos < len(lanes) else (0, 0.0)
                idx[v, lane] = i
                w[v, lane] = x
                pos += 1
    if too_many:
        v, n = first_bad
        p.errors.append(f"{too_many} vertices are in more vertex groups than "
                        f"{'/'.join(sets)} hold ({arity}); first: vertex {v} with {n} groups")
    for k in sets:
        idx, w = rebuilt[k]
        held = roles[k][1]
        arrays[k][:, :held] = idx[source_vertex][:, :held]
        arrays[weights_of[k]][:, :held] = w[source_vertex][:, :held]
        top = idx[:, :held].max(initial=0)
        _, _, _, kind = inlay.format_info(formats[k])
        size = inlay.format_info(formats[k])[1] // max(1, inlay.format_info(formats[k])[2])
        if kind == "uint" and size < 4 and top >= 1 << (8 * size):
            p.errors.append(f"{k} ({formats[k]}): blend index {top} does not fit")


def export_capture(obj, path, plan=None):
    """Writes `path` (a .fmt) with its .vb/.vbN and .ib beside it; returns the plan. Nothing
    is written when the pre-flight has errors."""
    p = plan or plan_export(obj)
    if p.errors:
        raise InlayError("; ".join(p.errors))
    stem, _ = os.path.splitext(path)
    slots = sorted(p.buffers)
    files = {}
    if slots == [0]:
        files[stem + ".vb"] = p.buffers[0]
    else:
        for s in slots:
            files[f"{stem}.vb{s}"] = p.buffers[s]
    files[stem + ".ib"] = p.index
    files[stem + ".fmt"] = p.fmt.encode()
    for f, data in files.items():
        with open(f, "wb") as out:
            out.write(data)
    p.written = sorted(files)
    return p
