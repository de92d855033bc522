"""Imports every .glb/.gltf in the folder given into Blender (the `bpy` module) and checks
that each yields at least one mesh object with vertices; exits 1 on any failure."""
import glob
import os
import sys

import bpy

failures = 0
files = sorted(glob.glob(os.path.join(sys.argv[1], "*.glb")) + glob.glob(os.path.join(sys.argv[1], "*.gltf")))
if not files:
    print("no glTF files in", sys.argv[1])
    sys.exit(1)
for f in files:
    bpy.ops.wm.read_factory_settings(use_empty=True)
    try:
        result = bpy.ops.import_scene.gltf(filepath=f)
    except Exception as e:  # the importer raises on files it cannot read
        print(f"{f}: import failed: {e}")
        failures += 1
        continue
    meshes = [o for o in bpy.context.scene.objects if o.type == "MESH"]
    verts = sum(len(o.data.vertices) for o in meshes)
    ok = "FINISHED" in result and meshes and verts > 0
    print(f"{f}: {result}, {len(meshes)} mesh objects, {verts} vertices{'' if ok else '  <-- FAILED'}")
    failures += not ok
print(f"{len(files) - failures} of {len(files)} files imported")
sys.stdout.flush()
# bpy 4.2 can crash while the interpreter shuts down; leave without the teardown.
os._exit(1 if failures else 0)
