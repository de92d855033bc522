"""inlay for Blender: File > Import > Direct3D vertex data (inlay), File > Export > back to
the captured layout (inlay). A thin shell over the `inlay` Python package (bundled as a
wheel): every byte is read and written by inlay; see core.py."""

import bpy
from bpy.props import EnumProperty, StringProperty
from bpy_extras.io_utils import ExportHelper, ImportHelper

from . import core


class IMPORT_MESH_OT_inlay(bpy.types.Operator, ImportHelper):
    """Import a captured draw (3DMigoto txt/buf dump, .fmt with .vb/.ib, RenderDoc CSV)
    with its exact vertex values, or a finished 3DMigoto mod's INI (one object per part)"""

    bl_idname = "import_mesh.inlay"
    bl_label = "Import Direct3D vertex data (inlay)"
    bl_options = {"REGISTER", "UNDO"}

    filter_glob: StringProperty(default="*.txt;*.buf;*.fmt;*.csv;*.ini", options={"HIDDEN"})

    def execute(self, context):
        try:
            if self.filepath.lower().endswith(".ini"):
                # a finished 3DMigoto mod: one object per drawn part
                objects, warnings = core.import_mod(self.filepath, context)
                obj = objects[-1]
            else:
                objects = None
                obj, warnings = core.import_capture(self.filepath, context)
        except core.InlayError as e:
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        except Exception as e:  # never a traceback in the UI: the message, as an error
            self.report({"ERROR"}, f"inlay: {type(e).__name__}: {e}")
            return {"CANCELLED"}
        for w in warnings:
            self.report({"WARNING"}, w)
        for o in context.view_layer.objects:
            o.select_set(False)
        context.view_layer.objects.active = obj
        for o in objects or [obj]:
            o.select_set(True)
        if objects:
            self.report({"INFO"}, f"inlay: imported {len(objects)} parts of the mod: "
                                  + ", ".join(o.name for o in objects))
            return {"FINISHED"}
        self.report({"INFO"}, f"inlay: imported {obj.name}: {len(obj.data.vertices)} vertices, "
                              f"{len(obj.data.polygons)} triangles")
        return {"FINISHED"}


class EXPORT_MESH_OT_inlay(bpy.types.Operator, ExportHelper):
    """Write the active object's buffers back in the layout it was captured with (.fmt,
    .vb/.vbN, .ib), after a pre-flight report"""

    bl_idname = "export_mesh.inlay"
    bl_label = "Export back to the captured layout (inlay)"
    bl_options = {"REGISTER"}

    filename_ext = ".fmt"
    filter_glob: StringProperty(default="*.fmt", options={"HIDDEN"})
    normals: EnumProperty(
        name="Normals",
        items=[("CAPTURED", "Captured", "NORMAL as captured, exactly (Blender 4.2 turns custom "
                "normals when faces around them change)"),
               ("BLENDER", "Blender's", "Blender's corner normals where they differ from the "
                "captured ones; vertices split where corners differ")],
        default="CAPTURED")

    def draw(self, context):
        # The pre-flight report, shown in the file browser before anything is written.
        layout = self.layout
        layout.prop(self, "normals")
        try:
            plan = core.plan_export(context.active_object, self.normals)
            lines = plan.lines()
        except core.InlayError as e:
            lines = [("ERROR", str(e))]
        except Exception as e:
            lines = [("ERROR", f"{type(e).__name__}: {e}")]
        box = layout.box()
        box.label(text="Pre-flight")
        icons = {"ERROR": "ERROR", "WARNING": "INFO", "INFO": "CHECKMARK"}
        for level, text in lines:
            box.label(text=text, icon=icons[level])

    def execute(self, context):
        try:
            plan = core.plan_export(context.active_object, self.normals)
            for level, text in plan.lines():
                self.report({level if level != "ERROR" else "ERROR"}, text)
            if plan.errors:
                self.report({"ERROR"}, "inlay: nothing written (see the pre-flight errors)")
                return {"CANCELLED"}
            core.export_capture(context.active_object, self.filepath, plan)
        except core.InlayError as e:
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        except Exception as e:  # never a traceback in the UI
            self.report({"ERROR"}, f"inlay: {type(e).__name__}: {e}")
            return {"CANCELLED"}
        self.report({"INFO"}, "inlay: wrote " + ", ".join(plan.written))
        return {"FINISHED"}


def menu_import(self, context):
    self.layout.operator(IMPORT_MESH_OT_inlay.bl_idname, text="Direct3D vertex data (inlay)")


def menu_export(self, context):
    self.layout.operator(EXPORT_MESH_OT_inlay.bl_idname,
                         text="back to the captured layout (inlay)")


CLASSES = (IMPORT_MESH_OT_inlay, EXPORT_MESH_OT_inlay)


def register():
    for c in CLASSES:
        bpy.utils.register_class(c)
    bpy.types.TOPBAR_MT_file_import.append(menu_import)
    bpy.types.TOPBAR_MT_file_export.append(menu_export)


def unregister():
    bpy.types.TOPBAR_MT_file_export.remove(menu_export)
    bpy.types.TOPBAR_MT_file_import.remove(menu_import)
    for c in reversed(CLASSES):
        bpy.utils.unregister_class(c)
