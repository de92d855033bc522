"""Import a captured draw into Blender through the `inlay` package: exact vertex values, the
draw's own triangles.

Raw buffers (an importer's .vb/.ib, a 3DMigoto .buf) with a layout in any source form inlay
reads (C/C++, JSON, TOML, C#, ...):

    python examples/blender_import_dump.py --layout LAYOUT --vb 0=FILE[,stride=N] [--vb 1=...]
        [--ib FILE[,format=R16_UINT|R32_UINT]] [--topology triangle_list] [--out OUT.blend]

A dump file with its partners (3DMigoto txt/.buf, importer .fmt/.vb/.ib, RenderDoc CSV),
through `inlay.load_dump` (the library's dump readers):

    python examples/blender_import_dump.py DUMP [--out OUT.blend]

Inside Blender: blender --background --python examples/blender_import_dump.py -- ARGS...

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


class RawDump:
    """Buffers and a layout given on the command line, with the interface of inlay's Dump."""

    def __init__(self, layout, vbs, ib, topology):
        self.layout = inlay.Layout.from_file(layout)
        self.vertex_buffers, self.strides = {}, {}
        for spec in vbs:
            slot, rest = spec.split("=", 1)
            path, *opts = rest.split(",")
            self.vertex_buffers[int(slot)] = open(path, "rb").read()
            for o in opts:
                key, value = o.split("=", 1)
                if key != "stride":
                    raise SystemExit(f"--vb {spec}: unknown option {key}")
                self.strides[int(slot)] = int(value)
        self.index_buffer, self.index_format = None, "R16_UINT"
        if ib:
            path, *opts = ib.split(",")
            self.index_buffer = open(path, "rb").read()
            for o in opts:
                key, value = o.split("=", 1)
                if key != "format":
                    raise SystemExit(f"--ib {ib}: unknown option {key}")
                self.index_format = value
        self.topology = topology
        self.draw = {"kind": "draw_indexed" if ib else "draw"}
        self.warnings = []

    def decode(self, **overrides):
        args = dict(index_buffer=self.index_buffer, index_format=self.index_format,
                    topology=self.topology, draw=self.draw, strides=self.strides or None)
        args.update(overrides)
        return inlay.decode(self.layout, self.vertex_buffers, **args)


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


def import_draw(dump, label, name=None):
    for w in dump.warnings:
        print(f"inlay: warning: {w}")
    records, faces = draw_arrays(dump)
    obj = build_mesh(name or "inlay", records, faces)
    print(f"inlay: imported {label}: {len(obj.data.vertices)} vertices, "
          f"{len(obj.data.polygons)} triangles, elements {', '.join(records)}")
    return obj


def main(argv):
    import argparse
    argv = argv[argv.index("--") + 1:] if "--" in argv else argv[1:]
    p = argparse.ArgumentParser(description="Import a draw into Blender through inlay")
    p.add_argument("dump", nargs="?", help="a dump file (needs inlay.load_dump)")
    p.add_argument("--layout", help="layout file (C/C++, JSON, TOML, C#, ...)")
    p.add_argument("--vb", action="append", default=[], help="SLOT=FILE[,stride=N]")
    p.add_argument("--ib", help="FILE[,format=R16_UINT|R32_UINT]")
    p.add_argument("--topology", default="triangle_list")
    p.add_argument("--out", help="save the scene as this .blend")
    args = p.parse_args(argv)
    if args.layout:
        obj = import_draw(RawDump(args.layout, args.vb, args.ib, args.topology), args.layout)
    elif args.dump:
        if not hasattr(inlay, "load_dump"):
            raise SystemExit("this inlay package has no dump readers (inlay.load_dump); "
                             "give --layout and --vb instead")
        obj = import_draw(inlay.load_dump(args.dump), args.dump)
    else:
        p.error("give a dump file, or --layout and --vb")
    if args.out:
        bpy.ops.wm.save_as_mainfile(filepath=args.out)
    return obj


if __name__ == "__main__":
    main(sys.argv)
