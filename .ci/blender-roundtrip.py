"""Blender's own glTF importer and exporter (PyPI bpy 4.2, the `bpy` module) over every
.glb named on the command line, all in this one process (the round-trip test of
crates/inlay-cli/tests/blender.rs runs it once). For each FILE.glb it writes, beside it:

  FILE.default.glb        File › Import › glTF, then File › Export › glTF with default settings
  FILE.ticked.glb         the same export with Include › Custom Properties and Data › Mesh ›
                          Attributes ticked (export_extras, export_attributes), as the README says
  FILE.moved.glb          every mesh vertex translated by (0.0625, -0.125, 0.03125) in Blender's axes
                          ((0.5, 1.25, 2) in glTF's), then exported ticked
  FILE.moved-default.glb  the same translation, exported with default settings
  FILE.groups.txt         the vertex groups Blender's import made (one name a line, sorted):
                          the skin's joints, named by blend index

The translation is a binary32 addition per coordinate (numpy), so the expected positions are
exact. Exits 1 if any import or export fails.
"""
import os
import sys

import bpy
import numpy as np

TICKED = {"export_extras": True, "export_attributes": True}
MOVE = np.array([0.0625, -0.125, 0.03125], dtype=np.float32)


def load(path):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    result = bpy.ops.import_scene.gltf(filepath=path)
    if "FINISHED" not in result:
        raise RuntimeError(f"import returned {result}")


def move():
    for obj in bpy.context.scene.objects:
        if obj.type != "MESH":
            continue
        co = np.empty(len(obj.data.vertices) * 3, dtype=np.float32)
        obj.data.vertices.foreach_get("co", co)
        co = (co.reshape(-1, 3) + MOVE).astype(np.float32)
        obj.data.vertices.foreach_set("co", co.ravel())
        obj.data.update()


def save(path, options):
    result = bpy.ops.export_scene.gltf(filepath=path, **options)
    if "FINISHED" not in result or not os.path.exists(path):
        raise RuntimeError(f"export returned {result}")


failures = 0
for src in sys.argv[1:]:
    stem = src[: -len(".glb")]
    for tag, moved, options in [
        ("default", False, {}),
        ("ticked", False, TICKED),
        ("moved", True, TICKED),
        ("moved-default", True, {}),
    ]:
        out = f"{stem}.{tag}.glb"
        try:
            load(src)
            if tag == "default":
                groups = sorted(
                    {g.name for o in bpy.context.scene.objects if o.type == "MESH" for g in o.vertex_groups}
                )
                with open(f"{stem}.groups.txt", "w") as fh:
                    fh.write("".join(g + "\n" for g in groups))
            if moved:
                move()
            save(out, options)
            print(f"{out}: written")
        except Exception as e:  # the add-on raises on files it cannot handle
            print(f"{out}: FAILED: {e}")
            failures += 1
print(f"{len(sys.argv[1:]) * 4 - failures} of {len(sys.argv[1:]) * 4} Blender round trips written")
sys.stdout.flush()
# bpy 4.2 can crash while the interpreter shuts down; leave without the teardown.
os._exit(1 if failures else 0)
