"""Import a captured draw (3DMigoto txt/.buf dump, importer .fmt/.vb/.ib, RenderDoc CSV) into
Blender through the `inlay` package: exact vertex values, the draw's own triangles.

Inside Blender:      blender --background --python examples/blender_import_dump.py -- DUMP [OUT.blend]
With the bpy module: python examples/blender_import_dump.py DUMP [OUT.blend]

The mesh's vertices are the dump's vertex records (decoded once each, every element: POSITION
becomes the vertex positions, TEXCOORDn UV layers, COLORn colour attributes, everything else
a generic attribute of its own name); its faces are the primitives the input assembler
assembles for the recorded draw (index buffer, strips and cuts, base vertex included), so the
mesh is what the game drew.
"""

import sys

import numpy as np

import bpy
import inlay


def draw_arrays(dump):
    """The dump's vertex records (each decoded once) and its triangles as record numbers."""
    # One row per vertex record of the buffers (a non-indexed draw over all of them) ...
    records = dump.decode(topology="point_list", draw={"kind": "draw"}, primitives=False,
                          system_values=False)
    # ... and the draw itself, for its primitives: row r of the draw's stream is vertex record
    # SV_VertexID[r] + base (BaseVertexLocation, or StartVertexLocation when not indexed).
    stream = dump.decode()
    draw = dump.draw
    base = draw.get("base_vertex", draw.get("start_vertex", 0))
    prims = stream["primitives"]
    if prims.shape[1] != 3:
        raise SystemExit(f"the draw is a {dump.topology}; this example imports triangles")
    faces = stream["SV_VertexID"].astype(np.int64)[prims] + base
    return records, faces


def build_mesh(name, records, faces):
    """A Blender mesh object: POSITION as vertex positions, TEXCOORDn as UV layers, float
    COLORn as colour attributes, every other element as one attribute per component."""
    positions = records["POSITION"][:, :3].astype(np.float32)
    mesh = bpy.data.meshes.new(name)
    mesh.vertices.add(len(positions))
    mesh.vertices.foreach_set("co", positions.ravel())
    mesh.loops.add(faces.size)
    mesh.loops.foreach_set("vertex_index", faces.ravel().astype(np.int32))
    mesh.polygons.add(len(faces))
    mesh.polygons.foreach_set("loop_start", np.arange(0, faces.size, 3, dtype=np.int32))
    mesh.polygons.foreach_set("loop_total", np.full(len(faces), 3, dtype=np.int32))
    loop_vertices = faces.ravel()
    for key, values in records.items():
        if key == "POSITION":
            continue
        if key.startswith("TEXCOORD") and values.shape[1] >= 2 and values.dtype == np.float32:
            uv = mesh.uv_layers.new(name=key)
            uv.data.foreach_set("uv", values[loop_vertices][:, :2].ravel())
        elif key.startswith("COLOR") and values.dtype == np.float32:
            rgba = np.ones((len(values), 4), dtype=np.float32)
            rgba[:, : values.shape[1]] = values
            attr = mesh.color_attributes.new(name=key, type="FLOAT_COLOR", domain="POINT")
            attr.data.foreach_set("color", rgba.ravel())
        else:
            integer = values.dtype != np.float32
            for c in range(values.shape[1]):
                attr = mesh.attributes.new(name=f"{key}.{'xyzw'[c]}",
                                           type="INT" if integer else "FLOAT", domain="POINT")
                attr.data.foreach_set("value", values[:, c].astype(
                    np.int32 if integer else np.float32))
    mesh.validate()
    mesh.update()
    obj = bpy.data.objects.new(name, mesh)
    bpy.context.scene.collection.objects.link(obj)
    return obj


def import_dump(path, name=None):
    dump = inlay.load_dump(path)
    for w in dump.warnings:
        print(f"inlay: warning: {w}")
    records, faces = draw_arrays(dump)
    obj = build_mesh(name or "inlay", records, faces)
    print(f"inlay: imported {path}: {len(obj.data.vertices)} vertices, "
          f"{len(obj.data.polygons)} triangles, elements {', '.join(records)}")
    return obj


def main(argv):
    if "--" in argv:
        argv = argv[argv.index("--") + 1:]
    else:
        argv = argv[1:]
    if not argv:
        raise SystemExit(__doc__)
    obj = import_dump(argv[0])
    if len(argv) > 1:
        bpy.ops.wm.save_as_mainfile(filepath=argv[1])
    return obj


if __name__ == "__main__":
    main(sys.argv)
