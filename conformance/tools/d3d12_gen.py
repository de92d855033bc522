#!/usr/bin/env python3
"""Writes conformance/d3d12-create.json and d3d12-draw.json (schema inlay-conformance/3).

Expected results come from the D3D12 rules of docs/spec/d3d12-rules.md and the Windows-run
tests they cite (vkd3d-proton, Wine's vkd3d); the small model below (strip cuts compared with
the index as read whatever its format, strips only; stride-0 views; step rates) is written from
those rules and runs no inlay code. Regenerate with `python3 conformance/tools/d3d12_gen.py`.
"""

import json
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent
SCHEMA = "inlay-conformance/3"


def el(sem, fmt, slot=0, offset=0, cls="vertex", step=0, index=0):
    return {"semantic": sem, "index": index, "format": fmt, "slot": slot, "offset": offset,
            "class": cls, "step_rate": step}


def sig(sem, reg, mask="x", typ="uint", sv="NONE", used=None, index=0):
    return {"semantic": sem, "index": index, "register": reg, "mask": mask,
            "used": mask if used is None else used, "type": typ, "sv": sv}


def case(name, evidence, elements, signature, expect, pipeline=None, level=None, **extra):
    c = {"name": name, "evidence": evidence, "api": "d3d12"}
    if level:
        c["feature_level"] = level
    c["elements"] = elements
    if "num_elements" in extra:
        c["num_elements"] = extra.pop("num_elements")
    c["shader"] = {"signature": signature}
    if pipeline is not None:
        c["pipeline"] = pipeline
    c["expect"] = expect
    c.update(extra)
    return c


def u32(v):
    return "%08x" % (v & 0xFFFFFFFF)


def words(vals, width=4):
    return "".join(v.to_bytes(width, "little").hex() for v in vals)


# --- creation -----------------------------------------------------------------------------

POS = [el("POSITION", "R32G32B32_FLOAT")]
POS_SIG = [sig("POSITION", 0, "xyz", "float")]
create = [
    case("root-signature-allows-ia", "d3d12-rules.md P10 (LEARN D3D12_ROOT_SIGNATURE_FLAGS: "
         "the app opts in to the input assembler with ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT)",
         POS, POS_SIG, {"hresult": "S_OK", "offsets": [0]},
         pipeline={"root_signature_flags": 1}),
    case("root-signature-without-ia-flag", "d3d12-rules.md P10 (LEARN; vkd3d-proton state.c "
         "returns E_INVALIDARG; #683 MISSING_ROOT_SIGNATURE_FLAGS, d3d12sdklayers.h)",
         POS, POS_SIG, {"hresult": "E_INVALIDARG", "errors": [683]},
         pipeline={"root_signature_flags": 0}),
    case("no-input-layout-needs-no-flag", "d3d12-rules.md P8/P10 (vkd3d-proton "
         "test_primitive_restart_list_topology_stream_output creates an SV_VertexID-only "
         "pipeline with InputLayout {NULL, 0})",
         None, [sig("SV_VertexID", 0, "x", "uint", "VERTEX_ID", used="x")],
         {"hresult": "S_OK"}, pipeline={"root_signature_flags": 0}),
    case("no-input-layout-missing-element", "d3d12-rules.md P8 and P9 R33 (#65 MISSINGELEMENT: "
         "a shader input that is not system-generated needs an element)",
         None, POS_SIG, {"hresult": "E_INVALIDARG", "errors": [65]}),
    case("empty-array-warns", "d3d12-rules.md P8 choice §E 4 (non-NULL array, NumElements 0: "
         "S_OK with #253 EMPTY_LAYOUT, as D3D11's R2)",
         [], [], {"hresult": "S_OK", "warnings": [253]}),
] + [
    case(f"strip-cut-{v}", "d3d12-rules.md P12 (vkd3d-proton test_primitive_restart creates "
         "pipelines with every IBStripCutValue; LEARN D3D12_INDEX_BUFFER_STRIP_CUT_VALUE)",
         POS, POS_SIG, {"hresult": "S_OK"}, pipeline={"ib_strip_cut_value": v})
    for v in (0, 1, 2)
] + [
    case("strip-cut-3-refused", "d3d12-rules.md P12 (values past 0xFFFFFFFF's 2: vkd3d-proton "
         "state.c E_INVALIDARG; #684 INVALID_INDEX_BUFFER_PROPERTIES)",
         POS, POS_SIG, {"hresult": "E_INVALIDARG", "errors": [684]},
         pipeline={"ib_strip_cut_value": 3}),
    case("topology-type-undefined-refused", "d3d12-rules.md P13 choice §E 6 "
         "(#673 INVALID_PRIMITIVETOPOLOGY)",
         POS, POS_SIG, {"hresult": "E_INVALIDARG", "errors": [673]},
         pipeline={"primitive_topology_type": 0}),
    case("topology-type-patch", "d3d12-rules.md P13 (PATCH is 4)",
         POS, POS_SIG, {"hresult": "S_OK"}, pipeline={"primitive_topology_type": 4}),
    case("append-aligned-per-slot", "d3d12-rules.md P9 R26 (vkd3d-proton "
         "test_append_aligned_element: APPEND_ALIGNED in slots 1, 5, 0, 5, 1 places each "
         "element after the previous one of its slot; vkd3d-proton#884)",
         [el("color", "R32G32_FLOAT", 1, 0xFFFFFFFF, index=0),
          el("COLOR", "R32G32_FLOAT", 5, 0xFFFFFFFF, index=1),
          el("Color", "R32G32B32A32_FLOAT", 0, 0xFFFFFFFF, index=2),
          el("COLOR", "R8G8B8A8_UNORM", 5, 0xFFFFFFFF, index=3),
          el("COLOR", "R16G16_FLOAT", 1, 0xFFFFFFFF, index=4)],
         [sig("COLOR", i, "xyzw", "float", index=i) for i in range(5)],
         {"hresult": "S_OK", "offsets": [0, 0, 0, 8, 8]}),
    case("duplicate-semantic", "d3d12-rules.md P9 R19 (#62 DUPLICATESEMANTIC, "
         "case-insensitive)",
         [el("TEXCOORD", "R32_FLOAT", 0, 0), el("texcoord", "R32_FLOAT", 0, 4)],
         [sig("TEXCOORD", 0, "x", "float")], {"hresult": "E_INVALIDARG", "errors": [62]}),
    case("type-mismatch-warns", "d3d12-rules.md P9 R23 (#245 TYPE_MISMATCH, warning)",
         [el("N", "R32_FLOAT")], [sig("N", 0, "x", "uint")],
         {"hresult": "S_OK", "warnings": [245]}),
    case("misaligned-offset", "d3d12-rules.md P9 R25 (#61 INVALIDALIGNMENT: offset a "
         "multiple of min(4, size))",
         [el("N", "R32_UINT", 0, 2)], [sig("N", 0)],
         {"hresult": "E_INVALIDARG", "errors": [61]}),
    case("instance-step-rate-0", "d3d12-rules.md P9 (Wine vkd3d test_instance_id creates "
         "per-instance step rates 0, 1, 2)",
         [el("POSITION", "R32G32_FLOAT"), el("COLOR", "R8G8B8A8_UNORM", 1, 0, "instance", 0),
          el("V", "R32_FLOAT", 2, 0, "instance", 2)],
         [sig("POSITION", 0, "xy", "float"), sig("COLOR", 1, "xyzw", "float"),
          sig("V", 2, "x", "float")],
         {"hresult": "S_OK", "offsets": [0, 0, 0]}),
    case("vertex-step-rate-1-refused", "d3d12-rules.md P9 R10 (#58 STEPRATESLOTCLASSMISMATCH)",
         [el("N", "R32_UINT", 0, 0, "vertex", 1)], [sig("N", 0)],
         {"hresult": "E_INVALIDARG", "errors": [58]}),
    case("feature-level-12-2-32-slots", "d3d12-rules.md P1 and P9 R8 (slot < 32)",
         [el("N", "R32_UINT", 31, 0)], [sig("N", 0)], {"hresult": "S_OK"}, level="12_2"),
    case("slot-32-refused", "d3d12-rules.md P9 R8 (#56 INVALIDSLOT)",
         [el("N", "R32_UINT", 32, 0)], [sig("N", 0)],
         {"hresult": "E_INVALIDARG", "errors": [56]}, level="12_0"),
]

# --- draws --------------------------------------------------------------------------------

N_ELEM = [el("N", "R32_UINT")]
N_SIG = [sig("N", 0)]
VB = list(range(200, 216))  # vertex v holds 200 + v


def reg_n(v):
    return {"0": [u32(v), "00000000", "00000000", "00000001"]}


def ib_stream(indices, cut, strip, base=0):
    """The D3D12 vertex stream of an indexed draw: an index equal to the pipeline's cut value
    (compared as read, whatever the format) ends a strip and makes no vertex; lists never cut
    (d3d12-rules.md P19)."""
    out = []
    for i in indices:
        if strip and cut is not None and i == cut:
            continue
        vid = i  # SV_VertexID is the index as read (base vertex 0 here)
        v = (i + base) & 0xFFFFFFFF
        vert = {"vertex_id": vid, "instance_id": 0}
        if v < len(VB):
            vert["registers"] = reg_n(VB[v])
        out.append(vert)
    return out


def indexed_case(name, evidence, indices, fmt, topology, cut_value, cut, strip):
    width = 2 if fmt == "R16_UINT" else 4
    ttype = {"triangle": 3, "line": 2, "point": 1}[topology.split("_")[0]]
    return case(name, evidence, N_ELEM, N_SIG, {"hresult": "S_OK", "offsets": [0]},
                pipeline={"ib_strip_cut_value": cut_value, "primitive_topology_type": ttype},
                draw={"topology": topology,
                      "vertex_buffers": [{"slot": 0, "stride": 4, "offset": 0,
                                          "data": words(VB)}],
                      "index_buffer": {"format": fmt, "offset": 0,
                                       "data": words(indices, width)},
                      "call": {"kind": "draw_indexed_instanced",
                               "index_count_per_instance": len(indices), "instance_count": 1,
                               "start_index": 0, "base_vertex": 0, "start_instance": 0}},
                expect_draw={"vertices": ib_stream(indices, cut, strip)})


RESTART = ("d3d12-rules.md P19 (vkd3d-proton and Wine vkd3d test_primitive_restart, run on "
           "Windows: the strip cut is compared with the index as read whatever the format)")
LIST = ("d3d12-rules.md P19 (vkd3d-proton test_primitive_restart_list_topology_stream_output: "
        "list topologies never cut; 0xFFFFFFFF is fetched as a vertex)")
draws = [
    indexed_case("strip-cut-ffff-r16", RESTART, [0, 1, 2, 0xFFFF, 3, 4, 5], "R16_UINT",
                 "triangle_strip", 1, 0xFFFF, True),
    indexed_case("strip-cut-ffff-r32-cuts-0000ffff", RESTART, [0, 1, 2, 0xFFFF, 3, 4, 5],
                 "R32_UINT", "triangle_strip", 1, 0xFFFF, True),
    indexed_case("strip-cut-ffffffff-r16-ffff-is-a-vertex", RESTART,
                 [0, 1, 2, 0xFFFF, 3, 4], "R16_UINT", "triangle_strip", 2, 0xFFFFFFFF, True),
    indexed_case("strip-cut-ffffffff-r32", RESTART, [0, 1, 2, 0xFFFFFFFF, 3, 4, 5],
                 "R32_UINT", "triangle_strip", 2, 0xFFFFFFFF, True),
    indexed_case("strip-cut-disabled-r16-ffff-is-a-vertex", RESTART, [0, 1, 0xFFFF, 2],
                 "R16_UINT", "line_strip", 0, None, True),
    indexed_case("list-never-cuts-r32", LIST, [0, 1, 0xFFFFFFFF, 2, 3, 4], "R32_UINT",
                 "triangle_list", 2, 0xFFFFFFFF, False),
    indexed_case("list-never-cuts-r16", LIST, [0, 0xFFFF, 1, 2], "R16_UINT", "line_list", 1,
                 0xFFFF, False),
    case("stride-0-view", "d3d12-rules.md P17 (vkd3d-proton test_zero_vertex_stride: a view "
         "with StrideInBytes 0 gives every vertex the element at the view's start)",
         N_ELEM, N_SIG, {"hresult": "S_OK", "offsets": [0]},
         pipeline={"primitive_topology_type": 1},
         draw={"topology": "point_list",
               "vertex_buffers": [{"slot": 0, "stride": 0, "offset": 8, "data": words(VB)}],
               "call": {"kind": "draw_instanced", "vertex_count_per_instance": 4,
                        "instance_count": 1, "start_vertex": 0, "start_instance": 0}},
         expect_draw={"vertices": [{"vertex_id": v, "instance_id": 0, "registers": reg_n(202)}
                                   for v in range(4)]}),
    case("instance-step-rates", "d3d12-rules.md P20 (Wine vkd3d test_instance_id: SV_InstanceID "
         "excludes StartInstanceLocation; a per-instance element reads StartInstanceLocation + "
         "instance / step rate, step rate 0 always StartInstanceLocation)",
         [el("A", "R32_UINT", 0, 0, "instance", 0), el("B", "R32_UINT", 1, 0, "instance", 1),
          el("C", "R32_UINT", 2, 0, "instance", 2)],
         [sig("A", 0), sig("B", 1), sig("C", 2)], {"hresult": "S_OK", "offsets": [0, 0, 0]},
         pipeline={"primitive_topology_type": 1},
         draw={"topology": "point_list",
               "vertex_buffers": [{"slot": s, "stride": 4, "offset": 0, "data": words(VB)}
                                  for s in range(3)],
               "call": {"kind": "draw_instanced", "vertex_count_per_instance": 1,
                        "instance_count": 4, "start_vertex": 0, "start_instance": 4}},
         expect_draw={"vertices": [
             {"vertex_id": 0, "instance_id": i, "registers": {
                 "0": [u32(VB[4]), "00000000", "00000000", "00000001"],
                 "1": [u32(VB[4 + i]), "00000000", "00000000", "00000001"],
                 "2": [u32(VB[4 + i // 2]), "00000000", "00000000", "00000001"]}}
             for i in range(4)]}),
    case("instance-count-0-draws-nothing", "d3d12-rules.md P23 (InstanceCount 0 draws nothing; "
         "#1418 DRAW_INSTANCE_COUNT_ZERO)",
         N_ELEM, N_SIG, {"hresult": "S_OK", "offsets": [0]},
         draw={"topology": "triangle_list",
               "vertex_buffers": [{"slot": 0, "stride": 4, "offset": 0, "data": words(VB)}],
               "call": {"kind": "draw_instanced", "vertex_count_per_instance": 3,
                        "instance_count": 0, "start_vertex": 0, "start_instance": 0}},
         expect_draw={"vertices": []}),
]

for name, cases in (("d3d12-create", create), ("d3d12-draw", draws)):
    text = json.dumps({"schema": SCHEMA, "cases": cases}, indent=1) + "\n"
    (OUT / f"{name}.json").write_text(text)
    print(f"{name}.json: {len(cases)} cases")
