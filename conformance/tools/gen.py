#!/usr/bin/env python3
"""Writes inlay's conformance suite (conformance/*.json) from the rules.

Run from anywhere: `python3 conformance/tools/gen.py`. Expected values come from the rules files
(createinputlayout-rules.md R1-R48, ia-semantics.md sections 1-10) and from the independent
model in ref.py; nothing here runs inlay. Each case names its evidence.
"""

import json
import os
import struct

from ref import (FORMATS, FORMAT_VALUE, IA_FORMATS, MASK32, ONE, assemble, f32_bits, f32le,
                 fmt, half, hexs, lanes_hex, resolve_offsets, simulate, u16le, u32le)

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)
CORPUS = "../../shared/corpus/dxbc/"

FILES = {}


def add(file, case):
    FILES.setdefault(file, []).append(case)


# ----------------------------------------------------------------------------------------------
# Builders


def E(sem, format, slot=0, off=0, cls="vertex", rate=0, idx=0):
    return dict(semantic=sem, index=idx, format=format, slot=slot, offset=off, **{"class": cls},
                step_rate=rate)


def S(sem, reg, idx=0, mask="xyzw", used=None, typ="float", sv="NONE"):
    return dict(semantic=sem, index=idx, register=reg, mask=mask,
                used=mask if used is None else used, type=typ, sv=sv)


def sig(*entries):
    return {"signature": list(entries)}


def corpus(name):
    return {"dxbc": CORPUS + name + ".dxbc"}


def case(name, evidence, elements, shader, hresult, errors=None, warnings=None, offsets=None,
         absent=None, **extra):
    c = dict(name=name, evidence=evidence)
    for k in ("api", "feature_level"):
        if k in extra:
            c[k] = extra.pop(k)
    c["elements"] = elements
    if "num_elements" in extra:
        c["num_elements"] = extra.pop("num_elements")
    c["shader"] = shader
    if extra.pop("validate_only", False):
        c["validate_only"] = True
    exp = dict(hresult=hresult)
    if errors:
        exp["errors"] = errors
    if warnings:
        exp["warnings"] = warnings
    if offsets is not None:
        exp["offsets"] = offsets
    if absent:
        exp["absent"] = absent
    c["expect"] = exp
    c.update(extra)
    return c


def registers_for(elements, signature):
    """Register fed by each element: the signature entry with the same name (case-insensitive)
    and index (R15, R36); SV_VertexID/SV_InstanceID elements feed nothing."""
    regs = []
    for e in elements:
        r = None
        for s in signature:
            if (e["semantic"] is not None and s["semantic"].lower() == e["semantic"].lower()
                    and s["index"] == e["index"]
                    and s["semantic"].lower() not in ("sv_vertexid", "sv_instanceid")):
                r = s["register"]
        regs.append(r)
    return regs


def draw_case(file, name, evidence, elements, signature, vbs, call, topology="point_list",
              ib=None, prims=False, hresult="S_OK", warnings=None, compare=None, **extra):
    """A successful creation plus a draw; the expected stream comes from ref.simulate.
    vbs: {slot: (bytes, stride, offset)}; ib: (format, offset, bytes) or None;
    compare: registers to list (default: all fed registers)."""
    offsets = resolve_offsets(elements)
    resolved = [dict(e, offset=o) for e, o in zip(elements, offsets)]
    regs = registers_for(elements, signature)
    verts, runs = simulate(resolved, regs, vbs, ib, call)
    out_verts = []
    for v in verts:
        rr = {}
        for r, lanes in sorted(v["registers"].items()):
            if compare is None or r in compare:
                rr[str(r)] = lanes_hex(lanes)
        out_verts.append(dict(vertex_id=v["vertex_id"], instance_id=v["instance_id"],
                              registers=rr))
    d = dict(topology=topology,
             vertex_buffers=[dict(slot=s, stride=st, offset=o, data=hexs(b))
                             for s, (b, st, o) in sorted(vbs.items())])
    if ib is not None:
        d["index_buffer"] = dict(format=ib[0], offset=ib[1], data=hexs(ib[2]))
    d["call"] = call
    ed = dict(vertices=out_verts)
    if prims:
        ed["primitives"] = assemble(topology, runs)
    c = case(name, evidence, elements, sig(*signature), hresult, warnings=warnings,
             offsets=offsets, draw=d, expect_draw=ed, **extra)
    add(file, c)
    return c


def draw(n, start=0):
    return dict(kind="draw", vertex_count=n, start_vertex=start)


def draw_indexed(n, start=0, base=0):
    return dict(kind="draw_indexed", index_count=n, start_index=start, base_vertex=base)


def draw_instanced(n, inst, start=0, sinst=0):
    return dict(kind="draw_instanced", vertex_count_per_instance=n, instance_count=inst,
                start_vertex=start, start_instance=sinst)


def draw_indexed_instanced(n, inst, start=0, base=0, sinst=0):
    return dict(kind="draw_indexed_instanced", index_count_per_instance=n, instance_count=inst,
                start_index=start, base_vertex=base, start_instance=sinst)


POS = E("POSITION", "R32G32B32A32_FLOAT")
POS_SIG = S("POSITION", 0)
EMPTY = sig()

# ----------------------------------------------------------------------------------------------
# create-pointers.json: R1-R5 (R6, R7 are not observable through the schema)

F = "create-pointers.json"
add(F, case("null-desc-count-0", "createinputlayout-rules R1 (Wine test_create_input_layout: "
            "NULL array with count 0 fails); message 164", None, EMPTY, "E_INVALIDARG",
            errors=[164]))
add(F, case("null-desc-count-1", "createinputlayout-rules R1: a NULL pInputElementDescs is "
            "refused whatever NumElements says", None, sig(POS_SIG), "E_INVALIDARG",
            errors=[164], num_elements=1))
add(F, case("null-desc-validate-only", "createinputlayout-rules R1 + R5: validate-only mode "
            "runs every check, so a NULL array still fails", None, EMPTY, "E_INVALIDARG",
            errors=[164], validate_only=True))
add(F, case("null-desc-d3d10", "createinputlayout-rules R1, R38 (D3D10 shares the rule)",
            None, EMPTY, "E_INVALIDARG", errors=[164], api="d3d10"))
add(F, case("empty-array-empty-signature", "createinputlayout-rules R2 (Wine: count 0 with a "
            "VS without inputs succeeds); warning 420 EMPTY_LAYOUT", [], EMPTY, "S_OK",
            warnings=[420], offsets=[]))
add(F, case("count-0-with-array-empty-signature", "createinputlayout-rules R2: a non-NULL "
            "array with NumElements 0 is legal; elements past NumElements are not read",
            [POS], EMPTY, "S_OK", warnings=[420], offsets=[], num_elements=0))
add(F, case("count-0-needs-position", "createinputlayout-rules R2 + R33 (Wine: "
            "layout_desc, 0, vs_code fails): nothing supplies POSITION", [POS], sig(POS_SIG),
            "E_INVALIDARG", errors=[163], num_elements=0))
add(F, case("count-0-vertex-id-only", "createinputlayout-rules R2 + R33: a signature holding "
            "only SV_VertexID needs no element", [], sig(S("SV_VertexID", 0, mask="x",
                                                          typ="uint", sv="VERTEX_ID")),
            "S_OK", warnings=[420]))
add(F, case("count-0-instance-id-only-validate", "createinputlayout-rules R2 + R5: validate-only "
            "success is S_FALSE", [], sig(S("SV_InstanceID", 0, mask="x", typ="uint",
                                          sv="INSTANCE_ID")), "S_FALSE", warnings=[420],
            validate_only=True))
add(F, case("count-smaller-than-array", "createinputlayout-rules R2/R3: only the first "
            "NumElements elements are read, so an invalid element after them is never seen",
            [POS, E("COLOR", 0, off=3)], sig(POS_SIG), "S_OK", offsets=[0], absent=[152, 159],
            num_elements=1))
add(F, case("validate-only-success", "createinputlayout-rules R5 (Learn CreateInputLayout: a "
            "NULL ppInputLayout validates only and returns S_FALSE)", [POS], sig(POS_SIG),
            "S_FALSE", validate_only=True))
add(F, case("validate-only-failure", "createinputlayout-rules R5: validate-only mode still "
            "reports failures as E_INVALIDARG", [E("COLOR", "R32G32B32A32_FLOAT")],
            sig(POS_SIG), "E_INVALIDARG", errors=[163], validate_only=True))
add(F, case("validate-only-d3d10", "createinputlayout-rules R5, R38 (same S_FALSE convention "
            "in D3D10)", [POS], sig(POS_SIG), "S_FALSE", validate_only=True, api="d3d10"))


def many(n, fmt_name="R32G32B32A32_FLOAT"):
    return [E("TEXCOORD", fmt_name, slot=i % 16, idx=i, off="append") for i in range(n)]


def many_sig(n):
    return sig(*[S("TEXCOORD", i, idx=i) for i in range(n)])


add(F, case("elements-32-d3d11", "createinputlayout-rules R3/R4/R40: 32 elements of 4 "
            "components (128 components) are the D3D11 maximum", many(32), many_sig(32), "S_OK",
            absent=[151]))
add(F, case("elements-33-d3d11", "createinputlayout-rules R3: more than 32 elements -> "
            "TOOMANYELEMENTS (151)", many(33), many_sig(32), "E_INVALIDARG", errors=[151]))
add(F, case("elements-33-count-32", "createinputlayout-rules R3: the limit applies to "
            "NumElements, not to the array length", many(33), many_sig(32), "S_OK",
            num_elements=32))
add(F, case("elements-16-d3d10", "createinputlayout-rules R3/R38: D3D10 allows 16 elements",
            many(16), many_sig(16), "S_OK", api="d3d10"))
add(F, case("elements-17-d3d10", "createinputlayout-rules R3/R38: D3D10 allows 16 elements "
            "(D3D10_IA_VERTEX_INPUT_STRUCTURE_ELEMENT_COUNT)", many(17), many_sig(16),
            "E_INVALIDARG", errors=[151], api="d3d10"))
add(F, case("elements-32-d3d10-1", "createinputlayout-rules R39: D3D10.1 at 10_1 allows 32",
            many(32), many_sig(32), "S_OK", api="d3d10.1", feature_level="10_1"))
add(F, case("elements-17-d3d11-fl10-0", "createinputlayout-rules R3/R40 open question 6.3; "
            "inlay's documented choice (target.rs max_elements): 16 elements below 10_1",
            many(17), many_sig(16), "E_INVALIDARG", errors=[151], feature_level="10_0"))

# ----------------------------------------------------------------------------------------------
# create-slots.json: R8-R13, R34 (extra elements validated), R38-R40 slot limits

F = "create-slots.json"
C = E("COLOR", "R32G32B32A32_FLOAT")


def slot_case(name, evidence, slot, hresult, **kw):
    els = [POS, E("COLOR", "R8G8B8A8_UNORM", slot=slot)]
    add(F, case(name, evidence, els, sig(POS_SIG), hresult,
                errors=[154] if hresult == "E_INVALIDARG" else None,
                absent=[154] if hresult != "E_INVALIDARG" else None, **kw))


slot_case("slot-31-d3d11", "createinputlayout-rules R8/R40: slots 0-31 at FL >= 10_1", 31, "S_OK")
slot_case("slot-32-d3d11", "createinputlayout-rules R8: slot 32 is out of range (154); the "
          "element is not in the signature but is still validated (R34)", 32, "E_INVALIDARG")
slot_case("slot-15-fl10-0", "createinputlayout-rules R8/R40: 16 slots at 10_0", 15, "S_OK",
          feature_level="10_0")
slot_case("slot-16-fl10-0", "createinputlayout-rules R8/R40: 16 slots at 10_0", 16,
          "E_INVALIDARG", feature_level="10_0")
slot_case("slot-31-fl10-1", "createinputlayout-rules R8/R40: 32 slots at 10_1", 31, "S_OK",
          feature_level="10_1")
slot_case("slot-16-d3d10", "createinputlayout-rules R8/R38: D3D10 has 16 slots", 16,
          "E_INVALIDARG", api="d3d10")
slot_case("slot-15-d3d10", "createinputlayout-rules R8/R38: D3D10 has 16 slots", 15, "S_OK",
          api="d3d10")
slot_case("slot-31-d3d10-1-fl10-1", "createinputlayout-rules R39: D3D10.1 at 10_1 has 32 slots",
          31, "S_OK", api="d3d10.1", feature_level="10_1")
slot_case("slot-16-d3d10-1-fl10-0", "createinputlayout-rules R39: D3D10.1 at 10_0 keeps 16 "
          "slots", 16, "E_INVALIDARG", api="d3d10.1", feature_level="10_0")
slot_case("slot-16-fl9-3", "createinputlayout-rules R40: 16 slots at 9_x", 16, "E_INVALIDARG",
          feature_level="9_3")
slot_case("slot-huge", "createinputlayout-rules R8: any slot >= the limit is refused",
          0xFFFFFFFF, "E_INVALIDARG")
add(F, case("slot-used-element-out-of-range", "createinputlayout-rules R8: the slot of a used "
            "element out of range", [E("POSITION", "R32G32B32A32_FLOAT", slot=40)],
            sig(POS_SIG), "E_INVALIDARG", errors=[154]))
add(F, case("class-2", "createinputlayout-rules R9: InputSlotClass must be 0 or 1 (155)",
            [E("POSITION", "R32G32B32A32_FLOAT", cls=2)], sig(POS_SIG), "E_INVALIDARG",
            errors=[155]))
add(F, case("class-huge-extra-element", "createinputlayout-rules R9 + R34: an extra element's "
            "class is validated too", [POS, E("COLOR", "R32_FLOAT", slot=1, cls=0x80000000)],
            sig(POS_SIG), "E_INVALIDARG", errors=[155]))
add(F, case("vertex-step-rate-1", "createinputlayout-rules R10 (Learn D3D11_INPUT_ELEMENT_DESC:"
            " step rate must be 0 for per-vertex data); message 156",
            [E("POSITION", "R32G32B32A32_FLOAT", rate=1)], sig(POS_SIG), "E_INVALIDARG",
            errors=[156]))
add(F, case("instance-step-rate-0", "createinputlayout-rules R11 (Wine test_create_input_layout"
            ": per-instance with step rate 0 succeeds)",
            [E("POSITION", "R32G32B32A32_FLOAT", cls="instance", rate=0)], sig(POS_SIG),
            "S_OK", absent=[156, 157, 158]))
add(F, case("instance-step-rate-7", "createinputlayout-rules R11: any per-instance step rate",
            [POS, E("COLOR", "R32G32B32A32_FLOAT", slot=1, cls="instance", rate=7)],
            sig(POS_SIG, S("COLOR", 1)), "S_OK", offsets=[0, 0]))
add(F, case("mixed-class-one-slot", "createinputlayout-rules R12 (Wine test_create_input_layout"
            ": per-instance POSITION + per-vertex COLOR in slot 0 fails on Windows); 157",
            [E("POSITION", "R32G32B32A32_FLOAT", cls="instance"),
             E("COLOR", "R32G32B32A32_FLOAT", off=16)], sig(POS_SIG), "E_INVALIDARG",
            errors=[157]))
add(F, case("mixed-class-one-slot-reversed", "createinputlayout-rules R12: the order of the "
            "two classes does not matter", [POS, E("COLOR", "R32_FLOAT", off=16,
                                                    cls="instance", rate=1)],
            sig(POS_SIG), "E_INVALIDARG", errors=[157]))
add(F, case("mixed-class-two-slots", "createinputlayout-rules R12: classes only have to agree "
            "within one slot", [POS, E("COLOR", "R32_FLOAT", slot=1, cls="instance", rate=1)],
            sig(POS_SIG, S("COLOR", 1)), "S_OK", absent=[157]))
add(F, case("step-rate-change-one-slot", "createinputlayout-rules R13 (spec 8.1.3: per-instance "
            "elements of one slot share the step rate); 158",
            [POS, E("COLOR", "R32_FLOAT", slot=1, cls="instance", rate=1),
             E("TEXCOORD", "R32_FLOAT", slot=1, off=4, cls="instance", rate=2)],
            sig(POS_SIG), "E_INVALIDARG", errors=[158]))
add(F, case("step-rate-same-one-slot", "createinputlayout-rules R13: equal step rates in a slot",
            [POS, E("COLOR", "R32_FLOAT", slot=1, cls="instance", rate=3),
             E("TEXCOORD", "R32_FLOAT", slot=1, off="append", cls="instance", rate=3)],
            sig(POS_SIG, S("COLOR", 1, mask="x"), S("TEXCOORD", 2, mask="x")), "S_OK",
            offsets=[0, 0, 4], absent=[158]))
add(F, case("step-rate-differs-across-slots", "createinputlayout-rules R13: the step rate is "
            "per slot", [POS, E("COLOR", "R32_FLOAT", slot=1, cls="instance", rate=1),
                         E("TEXCOORD", "R32_FLOAT", slot=2, cls="instance", rate=2)],
            sig(POS_SIG), "S_OK", absent=[158]))

# ----------------------------------------------------------------------------------------------
# create-semantics.json: R14-R19

F = "create-semantics.json"
add(F, case("null-semantic", "createinputlayout-rules R14: NULL SemanticName (162)",
            [POS, E(None, "R32_FLOAT", off=16)], sig(POS_SIG), "E_INVALIDARG", errors=[162]))
add(F, case("case-insensitive-lower", "createinputlayout-rules R15 (Wine tests: names match "
            "case-insensitively)", [E("position", "R32G32B32A32_FLOAT")], sig(POS_SIG), "S_OK"))
add(F, case("case-insensitive-mixed", "createinputlayout-rules R15 (Wine test_il_append_aligned:"
            " CoLoR / cOLOr)", [E("CoLoR", "R32G32_FLOAT"), E("cOLOr", "R32G32_FLOAT", idx=1,
                                                               off="append")],
            sig(S("COLOR", 0, mask="xy"), S("COLOR", 1, idx=1, mask="xy")), "S_OK",
            offsets=[0, 8]))
add(F, case("case-insensitive-sv-position", "createinputlayout-rules R15/R18: 'sv_position' "
            "matches a signature entry spelled SV_Position",
            [E("sv_position", "R32G32B32A32_FLOAT")], sig(S("SV_Position", 0)), "S_OK"))
add(F, case("trailing-digit-not-an-index", "createinputlayout-rules R16 (Wine: 'POSITION2' with"
            " index 0 fails because POSITION0 is missing)",
            [E("POSITION2", "R32G32B32A32_FLOAT")], sig(POS_SIG), "E_INVALIDARG",
            errors=[163]))
add(F, case("trailing-digit-vs-index-2", "createinputlayout-rules R16: 'POSITION2'/0 does not "
            "supply POSITION/2 either", [E("POSITION2", "R32G32B32A32_FLOAT")],
            sig(S("POSITION", 0, idx=2)), "E_INVALIDARG", errors=[163]))
add(F, case("trailing-digit-warning", "createinputlayout-rules R16 open question 6.2; inlay's "
            "documented choice (validation array.rs): 385 is a warning that never fails",
            [POS, E("TEXCOORD0", "R32_FLOAT", off=16)], sig(POS_SIG), "S_OK", warnings=[385]))
add(F, case("semantic-index-2", "createinputlayout-rules R16/R33: name and index are matched "
            "separately", [E("POSITION", "R32G32B32A32_FLOAT", idx=2)],
            sig(S("POSITION", 0, idx=2)), "S_OK"))
add(F, case("wrong-semantic-index", "createinputlayout-rules R33 (Wine: a wrong SemanticIndex "
            "fails)", [E("POSITION", "R32G32B32A32_FLOAT", idx=1)], sig(POS_SIG),
            "E_INVALIDARG", errors=[163]))
add(F, case("free-form-extra-name", "createinputlayout-rules R17: no character-set check; an "
            "unmatched name is just an extra element",
            [POS, E("my.attr-$1 x", "R32_FLOAT", off=16)], sig(POS_SIG), "S_OK",
            absent=[162, 163]))
add(F, case("sv-names-as-elements", "createinputlayout-rules R18 (Wine "
            "check_layout_element_exclusion: SV_ names in the element array create)",
            [E("SV_Position", "R32G32B32A32_FLOAT"), E("SV_ClipDistance", "R32_FLOAT", off=16),
             E("SV_InstanceID", "R32_UINT", off=20), E("SV_VertexID", "R32_UINT", off=24)],
            sig(S("SV_Position", 0), S("SV_ClipDistance", 1, mask="x")), "S_OK",
            offsets=[0, 16, 20, 24]))
add(F, case("sv-position-input-is-ordinary", "createinputlayout-rules R18/R33: a VS input "
            "declared SV_Position (system value NONE) needs an element like any semantic",
            [E("POSITION", "R32G32B32A32_FLOAT")], sig(S("SV_Position", 0)), "E_INVALIDARG",
            errors=[163]))
add(F, case("duplicate-semantic", "createinputlayout-rules R19: the same name+index twice (160)",
            [POS, E("POSITION", "R32G32B32A32_FLOAT", off=16)], sig(POS_SIG),
            "E_INVALIDARG", errors=[160]))
add(F, case("duplicate-semantic-case-insensitive", "createinputlayout-rules R19 open question "
            "6.1; inlay's documented choice (validation array.rs check_duplicates): names "
            "compare case-insensitively", [POS, E("Position", "R32G32B32A32_FLOAT", off=16)],
            sig(POS_SIG), "E_INVALIDARG", errors=[160]))
add(F, case("same-name-different-index", "createinputlayout-rules R19: only equal name AND "
            "index is a duplicate", [E("TEXCOORD", "R32G32_FLOAT"),
                                     E("TEXCOORD", "R32G32_FLOAT", idx=1, off=8)],
            sig(S("TEXCOORD", 0, mask="xy"), S("TEXCOORD", 1, idx=1, mask="xy")), "S_OK",
            absent=[160]))

# ----------------------------------------------------------------------------------------------
# create-formats.json: R20-R23, R37

F = "create-formats.json"


def fmt_case(name, evidence, format, hresult, errors=None, **kw):
    add(F, case(name, evidence, [E("POSITION", format)], sig(POS_SIG), hresult, errors=errors,
                **kw))


fmt_case("format-unknown", "createinputlayout-rules R20: DXGI_FORMAT_UNKNOWN is refused "
         "(INVALIDFORMAT 152, inlay's documented id choice)", "UNKNOWN", "E_INVALIDARG", [152])
fmt_case("format-out-of-range", "createinputlayout-rules R20: an undefined format value is "
         "refused (152)", 9999, "E_INVALIDARG", [152])
for fname in ("R32G32B32A32_TYPELESS", "R8G8B8A8_UNORM_SRGB", "D32_FLOAT", "BC1_UNORM",
              "R9G9B9E5_SHAREDEXP", "A8_UNORM", "R10G10B10_XR_BIAS_A2_UNORM", "D16_UNORM"):
    fmt_case("format-not-ia-" + fname.lower().replace("_", "-"),
             "createinputlayout-rules R20 + section 3 (no IA vertex-buffer support at any level:"
             " typeless/sRGB/depth/BC/shared-exponent/A8/XR_BIAS); INCOMPATIBLEFORMAT 153",
             fname, "E_INVALIDARG", [153])
add(F, case("format-invalid-on-extra-element", "createinputlayout-rules R20: every element's "
            "format is checked, used or not", [POS, E("COLOR", "R16G16_TYPELESS", off=16)],
            sig(POS_SIG), "E_INVALIDARG", errors=[153]))
for v, fname in IA_FORMATS:
    pass  # every IA format is created (and drawn) in draw-formats.json (R21)
fmt_case("format-by-number", "createinputlayout-rules R21: format 2 (R32G32B32A32_FLOAT) given "
         "as a number", 2, "S_OK")
fmt_case("format-optional-b5g6r5", "createinputlayout-rules section 3: B5G6R5_UNORM is "
         "optional from 10_0; inlay's target accepts optional formats by default",
         "B5G6R5_UNORM", "S_OK", feature_level="10_0")
fmt_case("format-bgra-10-0", "createinputlayout-rules section 3: B8G8R8A8_UNORM at 10_0",
         "B8G8R8A8_UNORM", "S_OK", feature_level="10_0")
add(F, case("fewer-components-than-shader", "createinputlayout-rules R22 (Wine: R32_FLOAT feeds"
            " a float4 input)", [E("POSITION", "R32_FLOAT")], sig(POS_SIG), "S_OK",
            absent=[391]))
add(F, case("more-components-than-shader", "createinputlayout-rules R22/R37: extra components "
            "are dropped, masks are not compared", [E("POSITION", "R32G32B32A32_FLOAT")],
            sig(S("POSITION", 0, mask="xy")), "S_OK", absent=[391]))
add(F, case("mask-not-compared", "createinputlayout-rules R37: a 2-component format for an "
            "input whose mask is only 'z'", [E("POSITION", "R32G32_FLOAT")],
            sig(S("POSITION", 0, mask="z")), "S_OK", absent=[391]))
for name, fname, typ, warn in [
    ("type-uint-to-float", "R16G16B16A16_UINT", "float", True),
    ("type-uint-to-sint", "R8G8B8A8_UINT", "sint", True),
    ("type-sint-to-uint", "R32_SINT", "uint", True),
    ("type-float-to-uint", "R32G32_FLOAT", "uint", True),
    ("type-unorm-to-float", "R8G8B8A8_UNORM", "float", False),
    ("type-snorm-to-float", "R16G16_SNORM", "float", False),
    ("type-uint-to-uint", "R10G10B10A2_UINT", "uint", False),
    ("type-sint-to-sint", "R16_SINT", "sint", False),
    ("type-unorm-to-sint", "R8G8_UNORM", "sint", True),
]:
    add(F, case(name, "createinputlayout-rules R23 (Learn remarks; Wine test_input_assembler; "
                "debug output quoted in R23): format/signature type mismatch is WARNING 391, "
                "FLOAT/UNORM/SNORM count as float", [E("ATTR", fname)],
                sig(S("ATTR", 0, typ=typ)), "S_OK", warnings=[391] if warn else None,
                absent=None if warn else [391]))

# ----------------------------------------------------------------------------------------------
# create-alignment.json: R24, R25, R27, R28

F = "create-alignment.json"


def align_case(name, format, off, ok, **kw):
    els = [POS, E("COLOR", format, off=off)]
    add(F, case(name, "createinputlayout-rules R25 (spec 4.4.6: align to min(pow2(size), 4); "
                "Wine test_input_layout_alignment); the COLOR element is unused but checked",
                els, sig(POS_SIG), "S_OK" if ok else "E_INVALIDARG",
                errors=None if ok else [159], absent=[159] if ok else None,
                offsets=[0, off] if ok else None, **kw))


for fname, off, ok in [
    ("R16_UINT", 1, False), ("R16_UINT", 2, True), ("R32_FLOAT", 2, False),
    ("R32G32B32A32_FLOAT", 2, False), ("R32G32B32A32_FLOAT", 17, False),
    ("R32G32B32A32_FLOAT", 18, False), ("R32G32B32A32_FLOAT", 19, False),
    ("R32G32B32A32_FLOAT", 16, True), ("R32G32B32A32_FLOAT", 20, True), ("R8_UINT", 1, True),
    ("R8_UNORM", 7, True), ("R32G32B32_FLOAT", 4, True), ("R32G32B32_FLOAT", 6, False),
    ("R8G8B8A8_UNORM", 2, False), ("R8G8B8A8_UNORM", 4, True), ("R10G10B10A2_UNORM", 2, False),
    ("R11G11B10_FLOAT", 6, False), ("R16G16B16A16_FLOAT", 4, True), ("R8G8_UNORM", 1, False),
    ("R8G8_SINT", 2, True), ("B5G6R5_UNORM", 1, False), ("B5G6R5_UNORM", 2, True),
    ("B4G4R4A4_UNORM", 3, False), ("R16G16_FLOAT", 2, False), ("R32G32_UINT", 12, True),
]:
    align_case("align-%s-at-%d" % (fname.lower().replace("_", "-"), off), fname, off, ok)
align_case("align-d3d10-r32-at-2", "R32_FLOAT", 2, False, api="d3d10")
align_case("align-d3d10-r8-at-3", "R8_SINT", 3, True, api="d3d10")
add(F, case("overlap-same-offset", "createinputlayout-rules R27 (Wine: POSITION and COLOR both"
            " at slot 0 offset 0)", [POS, E("COLOR", "R8G8B8A8_UNORM")],
            sig(POS_SIG, S("COLOR", 1)), "S_OK", offsets=[0, 0]))
add(F, case("overlap-partial", "createinputlayout-rules R27/spec 8.19.4: partially overlapping "
            "elements are not checked", [POS, E("COLOR", "R32G32_FLOAT", off=12)],
            sig(POS_SIG, S("COLOR", 1, mask="xy")), "S_OK", offsets=[0, 12]))
add(F, case("offset-beyond-2048", "createinputlayout-rules R28 open question 6.7; inlay's "
            "documented choice (validation array.rs): explicit offsets have no upper bound",
            [E("POSITION", "R32G32B32A32_FLOAT", off=4096)], sig(POS_SIG), "S_OK",
            offsets=[4096]))

# ----------------------------------------------------------------------------------------------
# create-append.json: R26 (+ R24)

F = "create-append.json"


def app(name, evidence, elements, signature, **kw):
    offsets = resolve_offsets(elements)
    add(F, case(name, evidence, elements, sig(*signature), "S_OK", offsets=offsets, **kw))
    return offsets


A = "append"
o = app("append-after-float3", "createinputlayout-rules R26 (D3D11_INPUT_ELEMENT_DESC page)",
        [E("POSITION", "R32G32B32_FLOAT"), E("NORMAL", "R32G32B32_FLOAT", off=A),
         E("TEXCOORD", "R32G32_FLOAT", off=A)],
        [S("POSITION", 0, mask="xyz"), S("NORMAL", 1, mask="xyz"), S("TEXCOORD", 2, mask="xy")])
assert o == [0, 12, 24]
o = app("append-first-of-slot-is-0", "createinputlayout-rules R26: the first element of a slot"
        " gets offset 0", [E("POSITION", "R32G32B32A32_FLOAT", off=A)], [POS_SIG])
assert o == [0]
o = app("append-rounds-up-r8-then-r32", "createinputlayout-rules R26 (Wine test_instanced_draw:"
        " R8_UNORM then R32_FLOAT -> 0, 4)", [E("COLOR", "R8_UNORM"),
                                             E("POSITION", "R32_FLOAT", off=A)],
        [S("COLOR", 0, mask="x"), S("POSITION", 1, mask="x")])
assert o == [0, 4]
o = app("append-per-slot-interleaved", "createinputlayout-rules R26 (Wine test_il_append_aligned"
        ": COLOR2 R32G32 then COLOR1 R32G32 on slot 1 with other slots between -> 0, 8)",
        [E("COLOR", "R32G32_FLOAT", slot=1, idx=2, off=A, cls="instance", rate=1),
         E("COLOR", "R32G32_FLOAT", slot=2, idx=3, off=A, cls="instance", rate=2),
         E("POSITION", "R32G32B32A32_FLOAT", off=A),
         E("COLOR", "R32G32_FLOAT", slot=1, idx=1, off=A, cls="instance", rate=1),
         E("COLOR", "R32G32_FLOAT", slot=2, idx=0, off=A, cls="instance", rate=2)],
        [POS_SIG, S("COLOR", 1, mask="xy"), S("COLOR", 2, idx=1, mask="xy")])
assert o == [0, 0, 0, 8, 8]
o = app("append-r8-after-r8-packs", "createinputlayout-rules R26 (spec 4.4.6; 1-byte after "
        "1-byte packs tightly: offset 1)", [E("A", "R8_UINT"), E("B", "R8_UINT", off=A),
                                           E("C", "R8_UINT", off=A)],
        [S("A", 0, mask="x", typ="uint")])
assert o == [0, 1, 2]
o = app("append-r16-after-r8", "createinputlayout-rules R26/R25: a 2-byte element is rounded to"
        " an even offset", [E("A", "R8_UINT"), E("B", "R16_UINT", off=A)],
        [S("A", 0, mask="x", typ="uint")])
assert o == [0, 2]
o = app("append-r8g8-after-r8", "createinputlayout-rules R26/R25: R8G8 needs alignment 2",
        [E("A", "R8_UINT"), E("B", "R8G8_UINT", off=A), E("C", "R8_UINT", off=A)],
        [S("A", 0, mask="x", typ="uint")])
assert o == [0, 2, 4]
o = app("append-float3-after-r16", "createinputlayout-rules R26/R25: 12-byte elements align to "
        "4, not 12", [E("A", "R16_FLOAT"), E("B", "R32G32B32_FLOAT", off=A),
                      E("C", "R32G32B32A32_FLOAT", off=A)], [S("A", 0, mask="x")])
assert o == [0, 4, 16]
o = app("append-after-explicit", "createinputlayout-rules R26: appends follow an explicit offset",
        [E("A", "R32_FLOAT", off=20), E("B", "R8_UNORM", off=A), E("C", "R16_UNORM", off=A)],
        [S("A", 0, mask="x")])
assert o == [20, 24, 26]
o = app("append-after-earlier-explicit", "createinputlayout-rules R26 open question 6.6; inlay's"
        " documented choice (validation array.rs): the previous element in array order, not "
        "the furthest end", [E("A", "R32G32B32A32_FLOAT", off=16), E("B", "R32_FLOAT", off=0),
                             E("C", "R32_FLOAT", off=A)], [S("A", 0)])
assert o == [16, 0, 4]
o = app("append-counts-unused-elements", "createinputlayout-rules R26/R34 (DXVK fc8573891; Wine"
        " test_il_append_aligned): elements the shader does not read still move the offset",
        [E("UNUSED", "R32G32B32A32_FLOAT"), E("POSITION", "R32G32_FLOAT", off=A)],
        [S("POSITION", 0, mask="xy")])
assert o == [0, 16]
o = app("append-after-misaligned-r8", "createinputlayout-rules R26: after an R8 at offset 1 an "
        "R32 goes to 4", [E("A", "R8_UNORM", off=1), E("B", "R32_UINT", off=A)],
        [S("A", 0, mask="x")])
assert o == [1, 4]
o = app("append-bgra-and-packed", "createinputlayout-rules R26/R25 with packed formats",
        [E("A", "B5G6R5_UNORM"), E("B", "B8G8R8A8_UNORM", off=A),
         E("C", "R10G10B10A2_UINT", off=A), E("D", "B4G4R4A4_UNORM", off=A),
         E("E", "R11G11B10_FLOAT", off=A)], [S("A", 0)])
assert o == [0, 4, 8, 12, 16]
o = app("append-many-slots", "createinputlayout-rules R26: each slot keeps its own running end",
        [E("A", "R32G32B32A32_FLOAT", slot=3, off=A), E("B", "R32_FLOAT", slot=0, off=A),
         E("C", "R32_FLOAT", slot=3, off=A), E("D", "R16G16_SINT", slot=0, off=A),
         E("E", "R8_SINT", slot=31, off=A), E("F", "R8_SINT", slot=31, off=A)], [S("A", 0)])
assert o == [0, 0, 16, 4, 0, 1]
app("append-d3d10", "createinputlayout-rules R26/R38 (same append rules in d3d10core tests)",
    [E("COLOR", "R8_UNORM"), E("POSITION", "R32_FLOAT", off=A)],
    [S("COLOR", 0, mask="x"), S("POSITION", 1, mask="x")], api="d3d10")
add(F, case("append-validate-only", "createinputlayout-rules R26 + R5; inlay's documented "
            "choice: the would-be layout (and its offsets) is reported in validate-only mode",
            [E("POSITION", "R32G32B32_FLOAT"), E("COLOR", "R8G8B8A8_UNORM", off=A)],
            sig(S("POSITION", 0, mask="xyz"), S("COLOR", 1)), "S_FALSE", offsets=[0, 12],
            validate_only=True))

# ----------------------------------------------------------------------------------------------
# create-matching.json: R29-R37

F = "create-matching.json"
add(F, case("missing-element", "createinputlayout-rules R33 (163)", [POS],
            sig(POS_SIG, S("COLOR", 1)), "E_INVALIDARG", errors=[163]))
add(F, case("missing-unused-entry", "createinputlayout-rules R33: an entry the shader never "
            "reads (used '') is still required", [POS],
            sig(POS_SIG, S("CUSTOMDATA", 1, used="")), "E_INVALIDARG", errors=[163]))
add(F, case("vertex-id-exempt", "createinputlayout-rules R33 (Wine test_vertex_id: SV_VertexID "
            "needs no element)", [POS], sig(POS_SIG, S("SV_VertexID", 1, mask="x", typ="uint",
                                                       sv="VERTEX_ID")), "S_OK"))
add(F, case("instance-id-exempt-by-name", "createinputlayout-rules R33: the exemption is by name"
            " - an SV_InstanceID entry with system value NONE is still optional", [POS],
            sig(POS_SIG, S("SV_InstanceID", 1, mask="x", typ="uint", sv="NONE")), "S_OK"))
add(F, case("instance-id-exempt-any-case", "createinputlayout-rules R15/R33 (Wine: "
            "'SV_InstanceId' is recognised)", [POS],
            sig(POS_SIG, S("SV_InstanceId", 1, mask="x", typ="uint", sv="INSTANCE_ID")), "S_OK"))
add(F, case("vertex-id-supplied-anyway", "createinputlayout-rules R33: supplying SV_VertexID is "
            "allowed", [POS, E("SV_VertexID", "R32_UINT", off=16)],
            sig(POS_SIG, S("SV_VertexID", 1, mask="x", typ="uint", sv="VERTEX_ID")), "S_OK"))
add(F, case("sv-position-pos-required", "createinputlayout-rules R33: SV_Position with system "
            "value POSITION (a PS input) is required", [E("TEXCOORD", "R32G32_FLOAT")],
            sig(S("SV_Position", 0, sv="POSITION", used=""), S("TEXCOORD", 1, mask="xy")),
            "E_INVALIDARG", errors=[163]))
add(F, case("clip-distance-required", "createinputlayout-rules R33: SV_ClipDistance is required",
            [POS], sig(POS_SIG, S("SV_ClipDistance", 1, mask="x", sv="CLIP_DISTANCE")),
            "E_INVALIDARG", errors=[163]))
add(F, case("primitive-id-required", "createinputlayout-rules R33 open question 6.5; inlay's "
            "documented choice (validation matching.rs): only SV_VertexID/SV_InstanceID are "
            "exempt", [POS], sig(POS_SIG, S("SV_PrimitiveID", 1, mask="x", typ="uint",
                                            sv="PRIMITIVE_ID")), "E_INVALIDARG", errors=[163]))
add(F, case("extra-element-allowed", "createinputlayout-rules R34 (Wine: COLOR extra in every "
            "test layout)", [POS, E("COLOR", "R32G32B32A32_FLOAT", off=16)], sig(POS_SIG),
            "S_OK", offsets=[0, 16], absent=[163]))
add(F, case("extra-element-misaligned", "createinputlayout-rules R34 + R25: extra elements are "
            "validated", [POS, E("COLOR", "R32_FLOAT", off=18)], sig(POS_SIG), "E_INVALIDARG",
            errors=[159]))
add(F, case("several-errors-reported", "createinputlayout-rules R8 + R25 + R33: independent "
            "errors are all among the errors reported",
            [E("POSITION", "R32_FLOAT", off=2), E("COLOR", "R32_FLOAT", slot=33)],
            sig(POS_SIG, S("NORMAL", 1)), "E_INVALIDARG", errors=[159, 154, 163]))
add(F, case("unparseable-short", "createinputlayout-rules R31: bytes that are not a DXBC "
            "container (161)", [POS], {"dxbc_hex": "00"}, "E_INVALIDARG", errors=[161]))
add(F, case("unparseable-bad-magic", "createinputlayout-rules R31: bad magic (161)", [POS],
            {"dxbc_hex": "58425844" + "00" * 28}, "E_INVALIDARG", errors=[161]))
add(F, case("unparseable-empty", "createinputlayout-rules R31 open question 6.4; inlay's "
            "documented choice (validation SignatureProblem::NoBytecode): zero length is "
            "unparseable", [POS], {"dxbc_hex": ""}, "E_INVALIDARG", errors=[161]))
add(F, case("unparseable-truncated-header", "createinputlayout-rules R31: a DXBC header whose "
            "size field exceeds the bytes given", [POS],
            {"dxbc_hex": "44584243" + "00" * 16 + "01000000" + "00010000" + "00000000"},
            "E_INVALIDARG", errors=[161]))
add(F, case("container-without-isgn", "createinputlayout-rules R32 (open: Wine treats it as "
            "empty, DXVK refuses); inlay's documented choice (validation notes, R31/R32 row): "
            "refuse with 161. The bytes are a valid DXBC container (checksum written by inlay's "
            "DXBC writer) holding one 8-byte SHEX chunk and no ISGN/ISG1", [POS],
            {"dxbc_hex": "4458424312f4b363e4b4e4fcb8564ee71843510b010000003400000001000000240000"
                         "0053484558080000000000000000000000"}, "E_INVALIDARG", errors=[161]))
add(F, case("fl11-1-same-rules", "createinputlayout-rules R43: no new CreateInputLayout checks "
            "in D3D11.1; alignment (R25) still applies", [POS, E("COLOR", "R32_FLOAT", off=2)],
            sig(POS_SIG), "E_INVALIDARG", errors=[159], feature_level="11_1"))
add(F, case("fl11-1-success", "createinputlayout-rules R43/R40 (32 slots at 11_1)",
            [POS, E("COLOR", "R32_FLOAT", slot=31)], sig(POS_SIG), "S_OK", offsets=[0, 0],
            feature_level="11_1"))
add(F, case("empty-signature-extra-element", "createinputlayout-rules R29/R34: an empty "
            "signature with an extra element", [POS], EMPTY, "S_OK", offsets=[0]))


# R36: registers come from the signature, not from array order (draw)
def draw_case_f(file, *a, **k):
    return draw_case(file, *a, **k)


vb = f32le(1, 2, 3, 4, 5, 6, 7, 8) + f32le(-1, -2, -3, -4, 0.5, 0.25, 0.125, 0)
draw_case(F, "registers-from-signature", "createinputlayout-rules R36: elements feed the "
          "register of their signature entry (COLOR at v0, POSITION at v3), not array order",
          [E("POSITION", "R32G32B32A32_FLOAT"), E("COLOR", "R32G32B32A32_FLOAT", off=A)],
          [S("COLOR", 0), S("POSITION", 3)], {0: (vb, 32, 0)}, draw(2))
draw_case(F, "case-insensitive-match-feeds-register", "createinputlayout-rules R15/R36: a "
          "case-insensitive match feeds the entry's register",
          [E("texcoord", "R32G32_FLOAT", idx=1), E("Texcoord", "R32G32_FLOAT", off=A)],
          [S("TEXCOORD", 1, mask="xy"), S("TEXCOORD", 2, idx=1, mask="xy")],
          {0: (f32le(1, 2, 3, 4), 16, 0)}, draw(1))

# ----------------------------------------------------------------------------------------------
# create-level9.json: R40-R42

F = "create-level9.json"


def l9(name, evidence, elements, signature, hresult, errors=None, **kw):
    add(F, case(name, evidence, elements, sig(*signature), hresult, errors=errors, **kw))


for fl in ("9_1", "9_2"):
    l9("instancing-refused-" + fl, "createinputlayout-rules R41 (Learn 10Level9 reference: no "
       "instancing at 9_1/9_2); 3146124",
       [POS, E("COLOR", "R8G8B8A8_UNORM", slot=1, cls="instance", rate=1)],
       [POS_SIG, S("COLOR", 1)], "E_INVALIDARG", [3146124], feature_level=fl)
l9("instancing-rate-1-9-3", "createinputlayout-rules R41: 9_3 allows per-instance data with "
   "step rate 1", [POS, E("COLOR", "R8G8B8A8_UNORM", slot=1, cls="instance", rate=1)],
   [POS_SIG, S("COLOR", 1)], "S_OK", feature_level="9_3", absent=[3146123, 1048633])
l9("instancing-rate-2-9-3", "createinputlayout-rules R41: 9_3 needs step rate 1 (3146123)",
   [POS, E("COLOR", "R8G8B8A8_UNORM", slot=1, cls="instance", rate=2)],
   [POS_SIG, S("COLOR", 1)], "E_INVALIDARG", [3146123], feature_level="9_3")
l9("instancing-rate-0-9-3", "createinputlayout-rules R41: 9_3 needs step rate 1, 0 included",
   [POS, E("COLOR", "R8G8B8A8_UNORM", slot=1, cls="instance", rate=0)],
   [POS_SIG, S("COLOR", 1)], "E_INVALIDARG", [3146123], feature_level="9_3")
l9("slot-0-per-instance-9-3", "createinputlayout-rules R41 open question 6.8; inlay's documented"
   " choice (validation array.rs): slot 0 per-instance while another slot is per-vertex "
   "(1048633)", [E("COLOR", "R8G8B8A8_UNORM", cls="instance", rate=1),
                 E("POSITION", "R32G32B32A32_FLOAT", slot=1)],
   [POS_SIG, S("COLOR", 1)], "E_INVALIDARG", [1048633], feature_level="9_3")
l9("instancing-at-10-0", "createinputlayout-rules R41/R11: full instancing from 10_0",
   [POS, E("COLOR", "R8G8B8A8_UNORM", slot=1, cls="instance", rate=5)],
   [POS_SIG, S("COLOR", 1)], "S_OK", feature_level="10_0")
for fl, fname, ok in [
    ("9_1", "R32G32B32A32_FLOAT", True), ("9_1", "R32G32B32_FLOAT", True),
    ("9_1", "R32G32_FLOAT", True), ("9_1", "R32_FLOAT", True), ("9_1", "R8G8B8A8_UNORM", True),
    ("9_1", "R8G8B8A8_UINT", True), ("9_1", "R16G16_SNORM", True), ("9_1", "R16G16_SINT", True),
    ("9_1", "R16G16B16A16_SNORM", True), ("9_1", "R16G16B16A16_SINT", True),
    ("9_1", "B8G8R8A8_UNORM", False), ("9_1", "R8G8B8A8_SNORM", False),
    ("9_1", "R8G8B8A8_SINT", False), ("9_1", "R32_UINT", False), ("9_1", "R32G32B32A32_SINT", False),
    ("9_1", "R16G16B16A16_FLOAT", False), ("9_2", "R16G16_FLOAT", False),
    ("9_2", "R16G16B16A16_UNORM", False), ("9_2", "R10G10B10A2_UNORM", False),
    ("9_3", "R16G16B16A16_FLOAT", True), ("9_3", "R16G16_FLOAT", True),
    ("9_3", "R8G8_UINT", False), ("9_3", "R11G11B10_FLOAT", False), ("9_3", "R16_FLOAT", False),
    ("9_3", "R8_UNORM", False), ("9_3", "B5G6R5_UNORM", False), ("9_3", "R16G16_UINT", False),
    ("10_0", "R8G8_UINT", True), ("10_0", "R11G11B10_FLOAT", True),
]:
    l9("format-%s-%s" % (fname.lower().replace("_", "-"), fl.replace("_", "-")),
       "createinputlayout-rules R42 + section 3 (D3D11_3_Formats_FL%s.xls 'Input Assembler "
       "Vertex Buffer'; Wine test_format_support)%s" % (fl, "" if ok else "; UNSUPPORTED_FORMAT "
                                                          "1048599"),
       [E("POSITION", fname)], [POS_SIG], "S_OK" if ok else "E_INVALIDARG",
       None if ok else [1048599], feature_level=fl)
l9("slot-15-9-1", "createinputlayout-rules R40: 16 slots at 9_x",
   [POS, E("COLOR", "R32_FLOAT", slot=15)], [POS_SIG], "S_OK", feature_level="9_1")
l9("elements-16-9-3", "createinputlayout-rules R3/R40 with inlay's documented choice "
   "(target.rs): 16 elements at 9_x", many(16), [S("TEXCOORD", i, idx=i) for i in range(16)],
   "S_OK", feature_level="9_3")

# ----------------------------------------------------------------------------------------------
# create-corpus.json: real fxc blobs (R18, R29, R33, R41/R42 with level-9 shaders)

F = "create-corpus.json"
ONELIGHT = "dxtk__BasicEffect_VSBasicOneLightTx"  # SV_Position v0, NORMAL v1, TEXCOORD0 v2
dxtk_elems = [E("SV_Position", "R32G32B32A32_FLOAT"), E("NORMAL", "R32G32B32_FLOAT", off=A),
              E("TEXCOORD", "R32G32_FLOAT", off=A)]
add(F, case("dxtk-vs-onelight-tx", "corpus record %s (SV_Position v0, NORMAL v1 xyz, "
            "TEXCOORD0 v2 xy; fxc listing); createinputlayout-rules R18/R26/R29" % ONELIGHT,
            dxtk_elems, corpus(ONELIGHT), "S_OK", offsets=[0, 16, 28], absent=[391, 163]))
add(F, case("dxtk-vs-onelight-tx-missing-texcoord", "corpus record %s; "
            "createinputlayout-rules R33 (163)" % ONELIGHT, dxtk_elems[:2], corpus(ONELIGHT),
            "E_INVALIDARG", errors=[163]))
add(F, case("dxtk-vs-position-instead-of-sv-position", "corpus record %s: the input is named "
            "SV_Position, so a POSITION element does not supply it (R18/R33; DXVK issue 2809, "
            "MonoGame retry)" % ONELIGHT,
            [E("POSITION", "R32G32B32A32_FLOAT")] + dxtk_elems[1:], corpus(ONELIGHT),
            "E_INVALIDARG", errors=[163]))
add(F, case("dxtk-vs-onelight-tx-9-1", "corpus record %s is a 4_0_level_9_1 shader; "
            "createinputlayout-rules R42 (all three formats are IA formats at 9_1)" % ONELIGHT,
            dxtk_elems, corpus(ONELIGHT), "S_OK", offsets=[0, 16, 28], feature_level="9_1"))
QUAD = "dxtk__PostProcess_VSQuad"  # SV_VertexId only
add(F, case("dxtk-vs-vertex-id-only", "corpus record %s (only SV_VertexId, VERTID); "
            "createinputlayout-rules R2/R33: an empty layout works, warning 420" % QUAD, [],
            corpus(QUAD), "S_OK", warnings=[420]))
add(F, case("dxtk-vs-vertex-id-only-null", "corpus record %s; createinputlayout-rules R1"
            % QUAD, None, corpus(QUAD), "E_INVALIDARG", errors=[164]))
PS = "sdl__D3D11_PixelShader_Colors_g_main__24b450df"  # SV_POSITION(POS) v0, TEXCOORD0 v1, COLOR0 v2
ps_elems = [E("SV_POSITION", "R32G32B32A32_FLOAT"), E("TEXCOORD", "R32G32_FLOAT", off=A),
            E("COLOR", "R8G8B8A8_UNORM", off=A)]
add(F, case("pixel-shader-blob", "corpus record %s (pixel shader: SV_POSITION POS, TEXCOORD0 "
            "unread, COLOR0); createinputlayout-rules R29 (Wine check_layout_element_exclusion:"
            " the stage is not checked)" % PS, ps_elems, corpus(PS), "S_OK",
            offsets=[0, 16, 24]))
add(F, case("pixel-shader-blob-needs-sv-position", "corpus record %s; createinputlayout-rules "
            "R33: SV_Position with system value POSITION is required" % PS, ps_elems[1:],
            corpus(PS), "E_INVALIDARG", errors=[163]))
add(F, case("pixel-shader-blob-needs-unread-texcoord", "corpus record %s; createinputlayout-rules"
            " R33: TEXCOORD0 is never read but still required" % PS, [ps_elems[0], ps_elems[2]],
            corpus(PS), "E_INVALIDARG", errors=[163]))
CS = "directxtex__BC7Encode_EncodeBlockCS"
add(F, case("compute-shader-empty-signature", "corpus record %s (compute shader, empty input "
            "signature); createinputlayout-rules R29 + R2" % CS, [], corpus(CS), "S_OK",
            warnings=[420]))
add(F, case("compute-shader-extra-elements", "corpus record %s; createinputlayout-rules R29/R34"
            % CS, [POS, E("COLOR", "R8G8B8A8_UNORM", off=A)], corpus(CS), "S_OK",
            offsets=[0, 16]))
VC = "dxtk__BasicEffect_VSBasicVc"  # SV_Position v0, COLOR0 v1 (level 9_1)
add(F, case("level9-vs-color-rgba8-9-1", "corpus record %s (4_0_level_9_1); "
            "createinputlayout-rules R42: R8G8B8A8_UNORM is a 9_1 vertex format" % VC,
            [E("SV_Position", "R32G32B32A32_FLOAT"), E("COLOR", "R8G8B8A8_UNORM", off=A)],
            corpus(VC), "S_OK", offsets=[0, 16], feature_level="9_1"))
add(F, case("level9-vs-color-bgra8-9-1", "corpus record %s; createinputlayout-rules R42 "
            "(B8G8R8A8_UNORM has no IA support below 10_0; 1048599)" % VC,
            [E("SV_Position", "R32G32B32A32_FLOAT"), E("COLOR", "B8G8R8A8_UNORM", off=A)],
            corpus(VC), "E_INVALIDARG", errors=[1048599], feature_level="9_1"))
CLEAR93 = "angle__clearfloat11vs_g_VS_ClearFloat__0dbda057"  # POSITION xyz, COLOR xyzw (9_3)
add(F, case("level9-3-vs-half-color", "corpus record %s (4_0_level_9_3; POSITION v0 xyz, COLOR0 "
            "v1); createinputlayout-rules R42: R16G16B16A16_FLOAT from 9_3" % CLEAR93,
            [E("POSITION", "R32G32B32_FLOAT"), E("COLOR", "R16G16B16A16_FLOAT", off=A)],
            corpus(CLEAR93), "S_OK", offsets=[0, 12], feature_level="9_3"))
SKIN = "dxtk__SkinnedEffect_VSSkinnedOneLightFourBones"
skin = [E("SV_Position", "R32G32B32A32_FLOAT"), E("NORMAL", "R32G32B32_FLOAT", off=A),
        E("TEXCOORD", "R32G32_FLOAT", off=A), E("BLENDINDICES", "R8G8B8A8_UINT", off=A),
        E("BLENDWEIGHT", "R8G8B8A8_UNORM", off=A)]
add(F, case("skinned-vs-uint-indices", "corpus record %s (BLENDINDICES0 uint v3, BLENDWEIGHT0 "
            "float v4); createinputlayout-rules R23: UINT data for a uint input, no warning"
            % SKIN, skin, corpus(SKIN), "S_OK", offsets=[0, 16, 28, 36, 40], absent=[391]))
add(F, case("skinned-vs-unorm-indices-warns", "corpus record %s; createinputlayout-rules R23: "
            "UNORM data for a uint input is WARNING 391 only" % SKIN,
            skin[:3] + [E("BLENDINDICES", "R8G8B8A8_UNORM", off=A)] + skin[4:], corpus(SKIN),
            "S_OK", warnings=[391]))
CLIP = "wine_d3d11__test_clip_distance__vs_code"  # POSITION, CLIP_DISTANCE0/1 (plain inputs)
add(F, case("clip-distance-inputs-required", "corpus record %s (CLIP_DISTANCE0/1 are ordinary "
            "inputs); createinputlayout-rules R33" % CLIP, [POS], corpus(CLIP), "E_INVALIDARG",
            errors=[163]))
add(F, case("clip-distance-inputs-supplied", "corpus record %s; createinputlayout-rules R33/R26"
            % CLIP, [POS, E("CLIP_DISTANCE", "R32_FLOAT", off=A),
                     E("CLIP_DISTANCE", "R32_FLOAT", idx=1, off=A)], corpus(CLIP), "S_OK",
            offsets=[0, 16, 20]))
SO = "wine_d3d11__test_stream_output__vs_code"  # SV_Position, ATTRIB1, attrib2, ATTriB3, ATTRIB4
add(F, case("mixed-case-signature-names", "corpus record %s (names 'attrib2', 'ATTriB3' as "
            "stored); createinputlayout-rules R15" % SO,
            [E("SV_POSITION", "R32G32B32A32_FLOAT"), E("ATTRIB", "R32G32B32A32_FLOAT", idx=1,
                                                       off=A),
             E("ATTRIB", "R32G32B32_FLOAT", idx=2, off=A), E("attrib", "R32G32_FLOAT", idx=3,
                                                             off=A),
             E("Attrib", "R32_FLOAT", idx=4, off=A)], corpus(SO), "S_OK",
            offsets=[0, 16, 32, 44, 52]))
VID = "wine_d3d11__test_vertex_id__vs_code"  # ID0 uint v0, SV_InstanceID v1, SV_VertexID v2
add(F, case("vertex-id-shader-needs-only-id", "corpus record %s (ID0 uint, SV_InstanceID, "
            "SV_VertexID); createinputlayout-rules R33 (Wine test_vertex_id)" % VID,
            [E("ID", "R32_UINT")], corpus(VID), "S_OK", offsets=[0]))
D10 = "wine_d3d10core__test_create_shader__vs_4_0"  # POSITION v0, NORMAL v1
add(F, case("d3d10-vs-4-0", "corpus record %s (POSITION, NORMAL); createinputlayout-rules R38"
            % D10, [POS, E("NORMAL", "R32G32B32_FLOAT", off=A)], corpus(D10), "S_OK",
            offsets=[0, 16], api="d3d10"))
add(F, case("d3d10-vs-4-0-missing-normal", "corpus record %s; createinputlayout-rules R33/R38"
            % D10, [POS], corpus(D10), "E_INVALIDARG", errors=[163], api="d3d10"))

ISG1 = "dxdecompiler__3Dmigoto_signatures_vs"  # ISG1 chunk: SV_Position v0, SV_VertexID v1
add(F, case("isg1-signature-d3d11-1", "corpus record %s (vs_5_0 whose input signature is an ISG1 "
            "chunk: SV_Position v0, SV_VertexID v1); createinputlayout-rules R30/R43 (D3D11.1 "
            "parses ISG1) and R33 (SV_VertexID exempt)" % ISG1,
            [E("SV_Position", "R32G32B32A32_FLOAT")], corpus(ISG1), "S_OK", offsets=[0],
            feature_level="11_1"))
add(F, case("isg1-signature-needs-position", "corpus record %s; createinputlayout-rules R30/R33"
            % ISG1, [E("POSITION", "R32G32B32A32_FLOAT")], corpus(ISG1), "E_INVALIDARG",
            errors=[163], feature_level="11_1"))

# Corpus-backed draws: the signature registers come from the corpus record.
d = draw_case(F, "dxtk-vs-onelight-tx-draw", "corpus record %s: registers v0/v1/v2 from the "
              "signature; ia-semantics 1.3 (32-bit floats copied) and 2 (missing w = 1.0)"
              % ONELIGHT, dxtk_elems,
              [S("SV_Position", 0), S("NORMAL", 1, mask="xyz"), S("TEXCOORD", 2, mask="xy")],
              {0: (f32le(1, 2, 3, 1, 0, 0, -1, 0.5, 0.75) + f32le(-1, -2, -3, 1, 0, 1, 0, 0.25,
                                                                  0.125), 36, 0)}, draw(2))
d["shader"] = corpus(ONELIGHT)

# ----------------------------------------------------------------------------------------------
# draw-formats.json: every IA format's conversion with edge codes (ia-semantics 1.2-1.4, 2)

F = "draw-formats.json"


def edge_codes(kind, bits):
    mx = (1 << bits) - 1
    if kind == "UNORM":
        if bits <= 2:
            return list(range(1 << bits))
        return [0, mx, 1, 1 << (bits - 1), mx - 1, (0x5A5A5A5A & mx), 3]
    if kind == "SNORM":
        h = 1 << (bits - 1)
        return [0, h - 1, h, h + 1, mx, 1, (0x25 & mx), (h | 0x17) & mx]
    if kind == "UINT":
        if bits <= 2:
            return list(range(1 << bits))
        return [0, mx, 1, 0xA5A5A5A5 & mx, 777 & mx, 1 << (bits - 1)]
    if kind == "SINT":
        h = 1 << (bits - 1)
        return [0, mx, h, h - 1, 1, (-77) & mx]
    if kind == "FLOAT":
        if bits == 32:
            return [0x3F800000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FA12345, 0x00000001,
                    0x7F7FFFFF, 0xC0490FDB, 0xFFC00001]
        if bits == 16:
            return [0x3C00, 0x8000, 0x0001, 0x03FF, 0x7BFF, 0x7C00, 0xFC00, 0x7E00, 0xFD01,
                    0xC000, 0x0400, 0x3555]
        if bits == 11:
            return [0x3C0, 0x000, 0x001, 0x03F, 0x7BF, 0x7C0, 0x7C1, 0x7FF, 0x040, 0x3FF]
        if bits == 10:
            return [0x1E0, 0x000, 0x001, 0x01F, 0x3DF, 0x3E0, 0x3E1, 0x020, 0x1FF]
    raise ValueError((kind, bits))


for v, fname in IA_FORMATS:
    f = fmt(fname)
    lists = []
    for ch, pos, bits in f.comps:
        lists.append([0x5A, 0xFF] if ch == "X" else edge_codes(f.kind, bits))
    n = max(len(l) for l in lists)
    data = b"".join(f.pack([lists[c][(i + c) % len(lists[c])] for c in range(len(lists))])
                    for i in range(n))
    ev = ("ia-semantics 1.2 (component order, BGR swizzle, X unused), 1.3 (%s conversion: "
          "32-bit copied, UNORM/SNORM correctly rounded, most negative SNORM -> -1.0, half and "
          "11/10-bit floats widened exactly incl. subnormal/Inf; NaN payloads per inlay's "
          "documented choice, convert.rs), 2 (missing components 0,0,0,1 typed by the first "
          "component); D3D11.3 spec 8.20, 19.1.3.3; createinputlayout-rules R21/R44/R48"
          % f.kind)
    draw_case(F, "format-" + fname.lower().replace("_", "-"), ev, [E("ATTR", fname)],
              [S("ATTR", 0, typ=f.sig_type())], {0: (data, f.size, 0)}, draw(n))

# ----------------------------------------------------------------------------------------------
# draw-defaults.json: defaults (R44), unbound slots (R45), offsets (R24), stride 0, overlap

F = "draw-defaults.json"
for fname in ("R32_FLOAT", "R32G32_FLOAT", "R32G32B32_FLOAT", "R16G16_UINT", "R16_SINT",
              "R8G8_SNORM", "R32G32B32_UINT", "R32G32B32_SINT", "R8_UNORM", "R16G16_FLOAT",
              "R32_SINT", "R8G8_UINT", "R11G11B10_FLOAT", "B5G6R5_UNORM", "B8G8R8X8_UNORM"):
    f = fmt(fname)
    data = bytes((0x11 * (i + 1)) & 0xFF for i in range(f.size))
    draw_case(F, "default-w-" + fname.lower().replace("_", "-"),
              "createinputlayout-rules R44; ia-semantics 2 (spec 19.1.3.3: missing components "
              "are 0,0,0 and 1 typed by the first component: 1.0f for FLOAT/UNORM/SNORM, "
              "integer 1 for UINT/SINT)", [E("ATTR", fname)], [S("ATTR", 0, typ=f.sig_type())],
              {0: (data, f.size, 0)}, draw(1))
two = [E("POSITION", "R32G32B32A32_FLOAT"), E("COLOR", "R32G32_FLOAT", slot=1)]
two_sig = [S("POSITION", 0), S("COLOR", 1, mask="xy")]
pos_vb = f32le(1, 2, 3, 4, 5, 6, 7, 8)
draw_case(F, "unbound-slot-float2", "createinputlayout-rules R45; ia-semantics 2 (spec 8.20: an "
          "unbound slot reads 0 in every lane, w included - inlay's documented choice for "
          "open question 2)", two, two_sig, {0: (pos_vb, 16, 0)}, draw(2))
for fname in ("R8G8B8A8_UINT", "R32_SINT", "R16G16B16A16_FLOAT", "R8_UNORM"):
    f = fmt(fname)
    draw_case(F, "unbound-slot-" + fname.lower().replace("_", "-"),
              "createinputlayout-rules R45; ia-semantics 2 (unbound slot: all four lanes 0)",
              [E("POSITION", "R32G32B32A32_FLOAT"), E("COLOR", fname, slot=5)],
              [S("POSITION", 0), S("COLOR", 1, typ=f.sig_type())], {0: (pos_vb, 16, 0)},
              draw(2))
draw_case(F, "all-slots-unbound", "createinputlayout-rules R45: nothing bound, every register "
          "reads zero", two, two_sig, {}, draw(3))
draw_case(F, "element-offset-inside-vertex", "createinputlayout-rules R24: AlignedByteOffset is "
          "measured from the start of the vertex; ia-semantics 3 (address = bind offset + "
          "stride*n + element offset)", [E("TEXCOORD", "R32G32_FLOAT", off=8)],
          [S("TEXCOORD", 0, mask="xy")], {0: (f32le(*range(12)), 24, 0)}, draw(2))
draw_case(F, "bind-offset", "ia-semantics 3: the slot's bind offset is added to every address",
          [E("TEXCOORD", "R32_UINT")], [S("TEXCOORD", 0, mask="x", typ="uint")],
          {0: (u32le(10, 11, 12, 13, 14, 15), 4, 8)}, draw(3))
draw_case(F, "stride-zero", "ia-semantics 3 (stride 0: every vertex reads the same element)",
          [E("TEXCOORD", "R32G32_UINT")], [S("TEXCOORD", 0, mask="xy", typ="uint")],
          {0: (u32le(7, 8, 9, 10), 0, 4)}, draw(3))
draw_case(F, "stride-smaller-than-element", "ia-semantics 3 / spec 8.19.4: the stride need not "
          "cover the elements; vertices overlap", [E("TEXCOORD", "R32G32B32A32_UINT")],
          [S("TEXCOORD", 0, typ="uint")], {0: (u32le(*range(1, 9)), 4, 0)}, draw(3))
draw_case(F, "overlapping-elements-same-bytes", "createinputlayout-rules R27; ia-semantics 3: two "
          "elements reading the same bytes with different formats",
          [E("A", "R32_UINT"), E("B", "R8G8B8A8_UNORM"), E("C", "R16G16_SINT")],
          [S("A", 0, mask="x", typ="uint"), S("B", 1), S("C", 2, mask="xy", typ="sint")],
          {0: (bytes([0x80, 0xFF, 0x01, 0x7F, 0x00, 0x80, 0xFF, 0xFF]), 4, 0)}, draw(2))
draw_case(F, "integer-format-into-float-input", "ia-semantics 1.4 / createinputlayout-rules R23:"
          " the format chooses the conversion, the lane holds the raw integer (R8_UINT 1 -> "
          "00000001, R8_SINT -1 -> ffffffff); warning 391", [E("A", "R8_UINT"),
                                                              E("B", "R8_SINT", off=1)],
          [S("A", 0), S("B", 1)], {0: (bytes([1, 0xFF, 2, 0x80]), 2, 0)}, draw(2),
          warnings=[391])
draw_case(F, "extra-element-not-fetched", "createinputlayout-rules R34/R36: an element the "
          "signature lacks feeds no register; the others are unaffected",
          [E("UNUSED", "R32G32B32A32_FLOAT"), E("POSITION", "R32G32_FLOAT", off=A)],
          [S("POSITION", 0, mask="xy")], {0: (f32le(*range(12)), 24, 0)}, draw(2))
draw_case(F, "two-slots-interleaved", "ia-semantics 3: each slot has its own stride and offset",
          [E("POSITION", "R32G32B32_FLOAT"), E("COLOR", "R8G8B8A8_UNORM", slot=3),
           E("TEXCOORD", "R16G16_UNORM", slot=1, off=4)],
          [S("POSITION", 0, mask="xyz"), S("COLOR", 1), S("TEXCOORD", 2, mask="xy")],
          {0: (f32le(1, 2, 3, 4, 5, 6), 12, 0),
           3: (bytes([0, 64, 128, 255, 1, 2, 3, 4]), 4, 0),
           1: (u16le(0, 0, 0, 0xFFFF, 9, 9, 0x8000, 0x7FFF), 8, 0)}, draw(2))

# ----------------------------------------------------------------------------------------------
# draw-oob.json: out-of-bounds fetches (ia-semantics 2, 3, 7; R45)

F = "draw-oob.json"
EV_OOB = ("createinputlayout-rules R45; ia-semantics 2 and 7 (spec 8.19.2: an out-of-bounds "
          "element reads 0 in its present components and the defaults in the missing ones)")
for fname in ("R32G32_FLOAT", "R8G8B8A8_UNORM", "R16G16_SINT", "R32_UINT", "R11G11B10_FLOAT",
              "B8G8R8X8_UNORM"):
    f = fmt(fname)
    data = bytes(range(1, 1 + 2 * f.size))
    draw_case(F, "past-end-" + fname.lower().replace("_", "-"), EV_OOB, [E("ATTR", fname)],
              [S("ATTR", 0, typ=f.sig_type())], {0: (data, f.size, 0)}, draw(4))
draw_case(F, "partially-out-of-bounds", EV_OOB + "; partially out-of-bounds elements are wholly"
          " out of bounds (open question 1, inlay's documented choice, assembler notes 1)",
          [E("ATTR", "R32G32B32A32_FLOAT")], [S("ATTR", 0)],
          {0: (f32le(1, 2, 3, 4, 5, 6, 7), 16, 0)}, draw(2))
draw_case(F, "partially-out-of-bounds-element-offset", EV_OOB + "; the element at offset 4 of "
          "the last vertex straddles the end (assembler notes 1)",
          [E("A", "R32_FLOAT"), E("B", "R32G32_FLOAT", off=4)],
          [S("A", 0, mask="x"), S("B", 1, mask="xy")], {0: (f32le(1, 2, 3, 4, 5, 6, 7), 12, 0)},
          draw(3))
draw_case(F, "bind-offset-past-end", EV_OOB + ": a bind offset at the buffer's end",
          [E("ATTR", "R16G16_UNORM")], [S("ATTR", 0, mask="xy")], {0: (u16le(1, 2, 3, 4), 4, 8)},
          draw(2))
draw_case(F, "start-vertex-past-end", EV_OOB, [E("ATTR", "R32_SINT")],
          [S("ATTR", 0, mask="x", typ="sint")], {0: (u32le(5, 6, 7), 4, 0)}, draw(3, start=2))
draw_case(F, "index-past-buffer", EV_OOB + "; ia-semantics 5 (an index naming a vertex beyond "
          "the buffer)", [E("ATTR", "R32G32_UINT")], [S("ATTR", 0, mask="xy", typ="uint")],
          {0: (u32le(1, 2, 3, 4), 8, 0)}, draw_indexed(3),
          ib=("R16_UINT", 0, u16le(1, 7, 0)))
draw_case(F, "base-vertex-past-end", EV_OOB, [E("ATTR", "R32_FLOAT")], [S("ATTR", 0, mask="x")],
          {0: (f32le(1, 2, 3, 4), 4, 0)}, draw_indexed(3, base=2),
          ib=("R32_UINT", 0, u32le(0, 1, 2)))
draw_case(F, "negative-base-vertex-in-range", "ia-semantics 3 and 5 (spec 8.19.1: BaseVertex is"
          " added with 32-bit wrap; a negative base landing on valid vertices is fine)",
          [E("ATTR", "R32_UINT")], [S("ATTR", 0, mask="x", typ="uint")],
          {0: (u32le(100, 101, 102), 4, 0)}, draw_indexed(3, base=-2),
          ib=("R16_UINT", 0, u16le(2, 3, 4)))
draw_case(F, "negative-base-vertex-wraps-out", EV_OOB + "; a negative sum wraps to a huge "
          "address (ia-semantics 3, assembler notes 7)", [E("ATTR", "R32_UINT")],
          [S("ATTR", 0, mask="x", typ="uint")], {0: (u32le(100, 101, 102), 4, 0)},
          draw_indexed(2, base=-1), ib=("R16_UINT", 0, u16le(0, 1)))
draw_case(F, "per-instance-past-end", EV_OOB + " (per-instance data)",
          [E("POSITION", "R32_FLOAT"), E("COLOR", "R8G8_UNORM", slot=1, cls="instance", rate=1)],
          [S("POSITION", 0, mask="x"), S("COLOR", 1, mask="xy")],
          {0: (f32le(1), 4, 0), 1: (bytes([255, 0, 0, 255]), 2, 0)}, draw_instanced(1, 3))
draw_case(F, "unbound-index-buffer", "ia-semantics 2 (spec 8.20: an unbound index buffer reads "
          "index 0, so SV_VertexID is 0 and each vertex fetches element BaseVertexLocation)",
          [E("ATTR", "R32_UINT")], [S("ATTR", 0, mask="x", typ="uint")],
          {0: (u32le(10, 11, 12, 13), 4, 0)}, draw_indexed(3, base=2))
draw_case(F, "unbound-index-buffer-instanced", "ia-semantics 2: unbound index buffer in an "
          "instanced draw", [E("ATTR", "R32_UINT"), E("INST", "R32_UINT", slot=1,
                                                       cls="instance", rate=1)],
          [S("ATTR", 0, mask="x", typ="uint"), S("INST", 1, mask="x", typ="uint")],
          {0: (u32le(10, 11), 4, 0), 1: (u32le(20, 21, 22), 4, 0)},
          draw_indexed_instanced(2, 2, start=5, base=1, sinst=1))
draw_case(F, "empty-buffer", EV_OOB + ": a bound buffer of zero bytes",
          [E("ATTR", "R16G16B16A16_SINT")], [S("ATTR", 0, typ="sint")], {0: (b"", 8, 0)},
          draw(2))

# ----------------------------------------------------------------------------------------------
# draw-instancing.json: step rates 0/1/n and start instance (R11, R46)

F = "draw-instancing.json"
EV_INST = ("createinputlayout-rules R46; ia-semantics 3 (spec 8.4.1: per-instance element = "
           "StartInstanceLocation + floor(instance / step rate), rate 0 -> always "
           "StartInstanceLocation; Wine test_instanced_draw)")
inst_vb = u32le(*range(100, 110))
for rate, inst, sinst in [(1, 4, 0), (1, 3, 2), (2, 5, 0), (2, 4, 3), (0, 3, 0), (0, 4, 4),
                          (3, 7, 1), (5, 2, 0)]:
    draw_case(F, "rate-%d-instances-%d-start-%d" % (rate, inst, sinst), EV_INST,
              [E("POSITION", "R32_FLOAT"), E("INST", "R32_UINT", slot=1, cls="instance",
                                             rate=rate)],
              [S("POSITION", 0, mask="x"), S("INST", 1, mask="x", typ="uint")],
              {0: (f32le(0.5, 1.5), 4, 0), 1: (inst_vb, 4, 0)}, draw_instanced(2, inst, 0, sinst))
draw_case(F, "per-instance-stride-zero", EV_INST + "; stride 0 reads element 0 for every "
          "instance", [E("POSITION", "R32_FLOAT"), E("INST", "R32_UINT", slot=1, cls="instance",
                                                    rate=1)],
          [S("POSITION", 0, mask="x"), S("INST", 1, mask="x", typ="uint")],
          {0: (f32le(0.5), 4, 0), 1: (inst_vb, 0, 8)}, draw_instanced(1, 3, 0, 2))
draw_case(F, "per-instance-ignores-start-vertex", EV_INST + "; per-instance data ignores "
          "StartVertexLocation and the index buffer (spec 8.6.1)",
          [E("POSITION", "R32_UINT"), E("INST", "R32_UINT", slot=1, cls="instance", rate=1)],
          [S("POSITION", 0, mask="x", typ="uint"), S("INST", 1, mask="x", typ="uint")],
          {0: (u32le(*range(10)), 4, 0), 1: (inst_vb, 4, 0)}, draw_instanced(2, 2, 5, 1))
draw_case(F, "indexed-instanced-mixed", EV_INST, [E("POSITION", "R32_UINT"),
                                                  E("INST", "R16G16_UINT", slot=2,
                                                    cls="instance", rate=2)],
          [S("POSITION", 0, mask="x", typ="uint"), S("INST", 1, mask="xy", typ="uint")],
          {0: (u32le(*range(50, 60)), 4, 0), 2: (u16le(*range(1, 13)), 4, 0)},
          draw_indexed_instanced(3, 3, start=1, base=2, sinst=1),
          ib=("R16_UINT", 0, u16le(0, 3, 1, 2, 0)))
draw_case(F, "two-instance-slots-different-rates", EV_INST,
          [E("POSITION", "R32_FLOAT"), E("A", "R32_UINT", slot=1, cls="instance", rate=1),
           E("B", "R32_UINT", slot=2, cls="instance", rate=3)],
          [S("POSITION", 0, mask="x"), S("A", 1, mask="x", typ="uint"),
           S("B", 2, mask="x", typ="uint")],
          {0: (f32le(0), 4, 0), 1: (inst_vb, 4, 0), 2: (u32le(7, 8, 9), 4, 0)},
          draw_instanced(1, 5))
draw_case(F, "instance-count-zero", "ia-semantics 8 (zero counts produce nothing)",
          [E("POSITION", "R32_FLOAT")], [S("POSITION", 0, mask="x")], {0: (f32le(1, 2), 4, 0)},
          draw_instanced(2, 0))
draw_case(F, "per-instance-element-offsets-append", EV_INST + "; createinputlayout-rules R26 "
          "(Wine test_il_append_aligned: per-instance slots with rates 1 and 2)",
          [E("COLOR", "R32G32_FLOAT", slot=1, idx=2, off=A, cls="instance", rate=1),
           E("COLOR", "R32G32_FLOAT", slot=2, idx=3, off=A, cls="instance", rate=2),
           E("POSITION", "R32G32B32A32_FLOAT", off=A),
           E("COLOR", "R32G32_FLOAT", slot=1, idx=1, off=A, cls="instance", rate=1),
           E("COLOR", "R32G32_FLOAT", slot=2, idx=0, off=A, cls="instance", rate=2)],
          [S("POSITION", 0), S("COLOR", 1, mask="xy"), S("COLOR", 2, idx=1, mask="xy")],
          {0: (f32le(-1, -1, 0, 1, 1, -1, 0, 1), 16, 0),
           1: (f32le(*range(16)), 16, 0), 2: (f32le(*range(100, 116)), 16, 0)},
          draw_instanced(2, 4))

# ----------------------------------------------------------------------------------------------
# draw-ids.json: SV_VertexID / SV_InstanceID (R47)

F = "draw-ids.json"
EV_ID = ("createinputlayout-rules R47; ia-semantics 4 (spec 8.16/8.18: VertexID counts from 0 "
         "for non-indexed draws and is the raw index for indexed ones; InstanceID counts from 0; "
         "Start/Base locations only move the fetch; Wine test_vertex_id)")
ID_EL = [E("ID", "R32_UINT")]
ID_SIG = [S("ID", 0, mask="x", typ="uint"), S("SV_VertexID", 1, mask="x", typ="uint",
                                               sv="VERTEX_ID"),
          S("SV_InstanceID", 2, mask="x", typ="uint", sv="INSTANCE_ID")]
id_vb = u32le(*range(1000, 1020))
draw_case(F, "draw-start-vertex-3", EV_ID, ID_EL, ID_SIG, {0: (id_vb, 4, 0)}, draw(3, start=3))
draw_case(F, "draw-start-vertex-0", EV_ID, ID_EL, ID_SIG, {0: (id_vb, 4, 0)}, draw(4))
draw_case(F, "draw-indexed-base-vertex-9", EV_ID, ID_EL, ID_SIG, {0: (id_vb, 4, 0)},
          draw_indexed(3, base=9), ib=("R16_UINT", 0, u16le(0, 1, 2)))
draw_case(F, "draw-indexed-start-index", EV_ID + "; index address = bind offset + "
          "StartIndexLocation*size (spec 8.6.1)", ID_EL, ID_SIG, {0: (id_vb, 4, 0)},
          draw_indexed(3, start=2, base=1), ib=("R32_UINT", 0, u32le(9, 9, 5, 0, 7)))
draw_case(F, "draw-indexed-ib-offset", EV_ID + "; Wine test_index_buffer_offset (the bind "
          "offset shifts the first index)", ID_EL, ID_SIG, {0: (id_vb, 4, 0)}, draw_indexed(3),
          ib=("R32_UINT", 8, u32le(15, 15, 3, 2, 1)))
draw_case(F, "draw-indexed-ib-offset-r16", EV_ID, ID_EL, ID_SIG, {0: (id_vb, 4, 0)},
          draw_indexed(2, start=1), ib=("R16_UINT", 2, u16le(9, 9, 4, 6)))
draw_case(F, "draw-instanced-start-instance-16", EV_ID + " (Wine: DrawInstanced(3, 1, 3, 16) "
          "-> VertexID 0,1,2, InstanceID 0)", ID_EL, ID_SIG, {0: (id_vb, 4, 0)},
          draw_instanced(3, 2, 3, 16))
draw_case(F, "draw-indexed-instanced", EV_ID, ID_EL, ID_SIG, {0: (id_vb, 4, 0)},
          draw_indexed_instanced(2, 3, start=1, base=4, sinst=7),
          ib=("R16_UINT", 0, u16le(8, 3, 0)))
draw_case(F, "raw-index-large-value", EV_ID + "; the fetch is out of bounds but the ID is the "
          "raw index", ID_EL, ID_SIG, {0: (id_vb, 4, 0)}, draw_indexed(2, base=3),
          ib=("R32_UINT", 0, u32le(0x12345, 0xFFFFFFFE)))
draw_case(F, "r16-index-zero-extended", EV_ID + "; 16-bit indices are zero-extended",
          ID_EL, ID_SIG, {0: (id_vb, 4, 0)}, draw_indexed(2), ib=("R16_UINT", 0, u16le(0x8000,
                                                                                      0xFFFE)))
draw_case(F, "vertex-count-zero", "ia-semantics 8: a draw of 0 vertices produces nothing",
          ID_EL, ID_SIG, {0: (id_vb, 4, 0)}, draw(0, start=2))
draw_case(F, "no-elements-ids-only", EV_ID + "; createinputlayout-rules R2 (a layout with no "
          "elements still generates IDs)", [], ID_SIG[1:], {}, draw_instanced(3, 2, 10, 10),
          warnings=[420])

# ----------------------------------------------------------------------------------------------
# draw-topologies.json: primitive assembly (ia-semantics 6)

F = "draw-topologies.json"
EV_TOP = ("ia-semantics 6.1 (spec 8.13/8.14 and the GS-input figures: primitive k's vertices "
          "with the leading vertex first, odd triangle-strip triangles as k, k+2, k+1, "
          "incomplete primitives dropped) and 6.4 (SV_PrimitiveID counts completed primitives "
          "from 0)")
TOP_EL = [E("N", "R32_UINT")]
TOP_SIG = [S("N", 0, mask="x", typ="uint")]
top_vb = u32le(*range(200, 270))
for topo, n in [("point_list", 3), ("line_list", 5), ("line_list", 1), ("line_strip", 4),
                ("line_strip", 1), ("triangle_list", 7), ("triangle_list", 2),
                ("triangle_strip", 6), ("triangle_strip", 2), ("line_list_adj", 9),
                ("line_strip_adj", 6), ("line_strip_adj", 3), ("triangle_list_adj", 13),
                ("triangle_strip_adj", 5), ("triangle_strip_adj", 6), ("triangle_strip_adj", 7),
                ("triangle_strip_adj", 8), ("triangle_strip_adj", 10),
                ("triangle_strip_adj", 11), ("triangle_strip_adj", 12),
                ("triangle_strip_adj", 14), ("patch_list_1", 3), ("patch_list_3", 7),
                ("patch_list_4", 8), ("patch_list_16", 33), ("patch_list_32", 65)]:
    ev = EV_TOP
    if topo == "triangle_strip_adj":
        ev += "; 6.2 (strip-with-adjacency table, verified against the spec's n = 10 figure)"
    if topo.startswith("patch"):
        ev += "; patch lists: floor(n/N) patches of N control points (spec 8.11)"
    draw_case(F, "%s-%d" % (topo.replace("_", "-"), n), ev, TOP_EL, TOP_SIG, {0: (top_vb, 4, 0)},
              draw(n), topology=topo, prims=True)
for m in range(1, 33):
    if m in (1, 3, 4, 16, 32):
        continue
    draw_case(F, "patch-list-%d-%d" % (m, 2 * m + 1), EV_TOP + "; patch lists: floor(n/N) "
              "patches of N control points, the leftover vertex dropped (spec 8.11, 8.13)",
              TOP_EL, TOP_SIG, {0: (top_vb, 4, 0)}, draw(2 * m + 1), topology="patch_list_%d" % m,
              prims=True)
draw_case(F, "triangle-strip-instanced-restarts", EV_TOP + "; ia-semantics 5 (an implicit cut "
          "after every instance) and 6.4 (PrimitiveID resets per instance)", TOP_EL, TOP_SIG,
          {0: (top_vb, 4, 0)}, draw_instanced(4, 2, 1), topology="triangle_strip", prims=True)
draw_case(F, "line-strip-indexed", EV_TOP, TOP_EL, TOP_SIG, {0: (top_vb, 4, 0)}, draw_indexed(4),
          ib=("R16_UINT", 0, u16le(3, 0, 2, 1)), topology="line_strip", prims=True)
draw_case(F, "triangle-list-adj-indexed-instanced", EV_TOP, TOP_EL, TOP_SIG,
          {0: (top_vb, 4, 0)}, draw_indexed_instanced(6, 2, base=1),
          ib=("R32_UINT", 0, u32le(5, 4, 3, 2, 1, 0)), topology="triangle_list_adj", prims=True)

# ----------------------------------------------------------------------------------------------
# draw-cut.json: strip cuts (ia-semantics 5, 6.4)

F = "draw-cut.json"
EV_CUT = ("ia-semantics 5 (spec 8.12: cut value 0xFFFF / 0xFFFFFFFF restarts the strip, produces"
          " no vertex and no VertexID) and 6.4 (SV_PrimitiveID keeps counting across a cut, "
          "spec 8.21 example)")
for topo, ifmt, idx in [
    ("triangle_strip", "R16_UINT", [0, 1, 2, 3, 0xFFFF, 4, 5, 6, 7]),
    ("triangle_strip", "R32_UINT", [0, 1, 2, 0xFFFFFFFF, 3, 4, 5]),
    ("line_strip", "R16_UINT", [0, 1, 0xFFFF, 2, 0xFFFF, 3, 4, 5]),
    ("line_strip", "R32_UINT", [0xFFFFFFFF, 0xFFFFFFFF, 1, 2, 0xFFFFFFFF]),
    ("triangle_strip", "R16_UINT", [0, 1, 0xFFFF, 2, 3, 4]),
    ("line_strip_adj", "R16_UINT", [0, 1, 2, 3, 4, 0xFFFF, 5, 6, 7, 8]),
    ("triangle_strip_adj", "R32_UINT", [0, 1, 2, 3, 4, 5, 6, 7, 0xFFFFFFFF, 8, 9, 10, 11, 12,
                                        13]),
]:
    width = 2 if ifmt == "R16_UINT" else 4
    data = u16le(*idx) if width == 2 else u32le(*idx)
    name = "%s-%s-cut-%d" % (topo.replace("_", "-"), ifmt[:3].lower(),
                             len([i for i in idx if i in (0xFFFF, 0xFFFFFFFF)]))
    if name in [c["name"] for c in FILES.get(F, [])]:
        name += "-b"
    draw_case(F, name, EV_CUT, TOP_EL, TOP_SIG, {0: (top_vb, 4, 0)}, draw_indexed(len(idx)),
              ib=(ifmt, 0, data), topology=topo, prims=True)
draw_case(F, "r32-index-ffff-is-ordinary", "ia-semantics 5: with 32-bit indices 0x0000FFFF is an"
          " ordinary index (fetch out of bounds, VertexID 65535)", TOP_EL, TOP_SIG,
          {0: (top_vb, 4, 0)}, draw_indexed(4), ib=("R32_UINT", 0, u32le(0, 1, 0xFFFF, 2)),
          topology="triangle_strip", prims=True)
draw_case(F, "r16-index-ffffffff-bytes", "ia-semantics 5: with 16-bit indices only 0xFFFF cuts",
          TOP_EL, TOP_SIG, {0: (top_vb, 4, 0)}, draw_indexed(4),
          ib=("R16_UINT", 0, u16le(0, 1, 0xFFFE, 2)), topology="line_strip", prims=True)
for topo, idx in [("triangle_list", [0, 1, 0xFFFF, 2, 3, 4, 5]),
                  ("line_list", [0, 0xFFFF, 1, 2, 3]), ("point_list", [0, 0xFFFF, 1])]:
    draw_case(F, "%s-cut" % topo.replace("_", "-"), EV_CUT + "; a cut in a list topology ends the "
              "current incomplete primitive (spec 8.12/8.13; open question 4, inlay's documented"
              " choice, assembler notes 4)", TOP_EL, TOP_SIG, {0: (top_vb, 4, 0)},
              draw_indexed(len(idx)), ib=("R16_UINT", 0, u16le(*idx)), topology=topo,
              prims=True)
draw_case(F, "cut-with-instances", EV_CUT + "; an implicit cut after each instance, PrimitiveID "
          "reset per instance", TOP_EL, TOP_SIG, {0: (top_vb, 4, 0)},
          draw_indexed_instanced(7, 2, base=1), ib=("R16_UINT", 0, u16le(0, 1, 2, 0xFFFF, 3, 4,
                                                                           5)),
          topology="triangle_strip", prims=True)
draw_case(F, "cut-base-vertex-not-added", EV_CUT + "; BaseVertexLocation is not added before the"
          " cut test (the raw index is compared)", TOP_EL, TOP_SIG, {0: (top_vb, 4, 0)},
          draw_indexed(5, base=1), ib=("R16_UINT", 0, u16le(0, 1, 0xFFFF, 2, 3)),
          topology="line_strip", prims=True)

# ----------------------------------------------------------------------------------------------
# draw-indirect.json: indirect argument structures (ia-semantics 8)

F = "draw-indirect.json"
EV_IND = ("ia-semantics 8 (spec 8.7/8.8: DrawInstancedIndirect reads {VertexCountPerInstance, "
          "InstanceCount, StartVertexLocation, StartInstanceLocation}, "
          "DrawIndexedInstancedIndirect {IndexCountPerInstance, InstanceCount, "
          "StartIndexLocation, BaseVertexLocation, StartInstanceLocation} at "
          "AlignedByteOffsetForArgs) and 4 (IDs)")
IND_EL = [E("ID", "R32_UINT"), E("INST", "R32_UINT", slot=1, cls="instance", rate=1)]
IND_SIG = ID_SIG + [S("INST", 3, mask="x", typ="uint")]
IND_VB = {0: (id_vb, 4, 0), 1: (inst_vb, 4, 0)}


def indirect(words, offset, indexed=False, pad=0xDEADBEEF):
    data = u32le(*([pad] * (offset // 4) + list(words) + [pad]))
    return dict(kind="draw_indexed_instanced_indirect" if indexed else "draw_instanced_indirect",
                args=dict(data=hexs(data), offset=offset))


draw_case(F, "instanced-indirect-offset-0", EV_IND, IND_EL, IND_SIG, IND_VB,
          indirect([3, 2, 1, 0], 0))
draw_case(F, "instanced-indirect-offset-12", EV_IND, IND_EL, IND_SIG, IND_VB,
          indirect([2, 3, 4, 4], 12))
draw_case(F, "instanced-indirect-rate-0-start-4", EV_IND + "; R46 (Wine test_instanced_draw "
          "indirect args with StartInstanceLocation 4 and a rate-0 slot)",
          [E("ID", "R32_UINT"), E("INST", "R32_UINT", slot=1, cls="instance", rate=0)], IND_SIG,
          IND_VB, indirect([4, 4, 4, 4], 4))
draw_case(F, "indexed-indirect-offset-4", EV_IND, IND_EL, IND_SIG, IND_VB,
          indirect([3, 2, 1, 5, 2], 4, indexed=True), ib=("R16_UINT", 0, u16le(7, 0, 1, 2, 3)))
draw_case(F, "indexed-indirect-negative-base", EV_IND + "; BaseVertexLocation is a signed word "
          "(0xFFFFFFFE = -2)", IND_EL, IND_SIG, IND_VB,
          indirect([3, 1, 0, -2 & MASK32, 0], 8, indexed=True),
          ib=("R32_UINT", 0, u32le(2, 3, 4)))
draw_case(F, "indexed-indirect-strip-cut", EV_IND + "; ia-semantics 5 (cut)", IND_EL, IND_SIG,
          IND_VB, indirect([5, 2, 0, 0, 1], 0, indexed=True),
          ib=("R16_UINT", 0, u16le(0, 1, 0xFFFF, 2, 3)), topology="line_strip", prims=True)
draw_case(F, "instanced-indirect-zero-instances", EV_IND + "; zero instances draw nothing",
          IND_EL, IND_SIG, IND_VB, indirect([3, 0, 0, 0], 0))
draw_case(F, "instanced-indirect-triangle-strip", EV_IND + "; ia-semantics 6", IND_EL, IND_SIG,
          IND_VB, indirect([5, 2, 2, 1], 16), topology="triangle_strip", prims=True)

# ----------------------------------------------------------------------------------------------
# draw-targets.json: the same IA rules on other runtimes and feature levels (ia-semantics 7, 9)

F = "draw-targets.json"
EV_T = ("ia-semantics 7 (conversion, defaults, out-of-bounds and ID rules are the same in D3D10 "
        "and D3D11; 16 slots at 10_0 and 9_x, 32 from 10_1)")
t_vb = bytes([0, 64, 128, 255, 1, 2, 3, 4, 0x80, 0x81, 0x7F, 0x00])
for api, fl in [("d3d10", None), ("d3d10.1", "10_1"), ("d3d11", "10_0"), ("d3d11", "11_1"),
                ("d3d11", "9_1")]:
    kw = dict(api=api)
    if fl:
        kw["feature_level"] = fl
    draw_case(F, "rgba8-unorm-%s-%s" % (api.replace(".", "-"), (fl or "default").replace("_", "-")),
              EV_T + "; UNORM8 conversion (ia-semantics 1.3)",
              [E("COLOR", "R8G8B8A8_UNORM"), E("POSITION", "R32G32_FLOAT", slot=1)],
              [S("COLOR", 0), S("POSITION", 1, mask="xy")],
              {0: (t_vb, 4, 0), 1: (f32le(1, 2, 3, 4), 8, 0)}, draw(4),
              topology="triangle_list", prims=True, **kw)
draw_case(F, "d3d10-line-strip-adj", EV_T + "; adjacency topologies exist from D3D10 (spec 8.1.2)",
          TOP_EL, TOP_SIG, {0: (top_vb, 4, 0)}, draw(6), topology="line_strip_adj", prims=True,
          api="d3d10")
draw_case(F, "d3d10-indexed-cut", EV_T + "; ia-semantics 5 (cut values in D3D10)", TOP_EL,
          TOP_SIG, {0: (top_vb, 4, 0)}, draw_indexed(6, base=2),
          ib=("R16_UINT", 2, u16le(9, 0, 1, 2, 0xFFFF, 3, 4)), topology="triangle_strip",
          prims=True, api="d3d10")
draw_case(F, "slot-15-fl10-0", EV_T + "; slot 15 is the last slot at 10_0",
          [E("A", "R32_UINT", slot=15)], [S("A", 0, mask="x", typ="uint")],
          {15: (u32le(5, 6), 4, 0)}, draw(2), feature_level="10_0")
draw_case(F, "slot-31-fl11-0", EV_T + "; slot 31 is the last slot from 10_1",
          [E("A", "R32_UINT", slot=31)], [S("A", 0, mask="x", typ="uint")],
          {31: (u32le(5, 6), 4, 0)}, draw(2))
draw_case(F, "level9-3-instanced-rate-1", EV_T + "; R41 (9_3 instancing with step rate 1); R46",
          [E("POSITION", "R32G32_FLOAT"), E("COLOR", "R8G8B8A8_UNORM", slot=1, cls="instance",
                                            rate=1)],
          [S("POSITION", 0, mask="xy"), S("COLOR", 1)],
          {0: (f32le(1, 2, 3, 4), 8, 0), 1: (t_vb, 4, 0)}, draw_instanced(2, 3, 0, 0),
          feature_level="9_3")
draw_case(F, "level9-1-r16-indices", EV_T + "; ia-semantics 5 (R16_UINT index buffers at every "
          "level)", [E("POSITION", "R16G16_SNORM")], [S("POSITION", 0, mask="xy")],
          {0: (u16le(0x8000, 0x7FFF, 0x8001, 1, 0, 0xFFFF), 4, 0)}, draw_indexed(3),
          ib=("R16_UINT", 0, u16le(2, 0, 1)), feature_level="9_1")
draw_case(F, "stride-2048", "ia-semantics 3 and 9: the largest stride, 2048 bytes "
          "(D3D11_REQ_MULTI_ELEMENT_STRUCTURE_SIZE_IN_BYTES)", [E("A", "R32_UINT", off=2044)],
          [S("A", 0, mask="x", typ="uint")],
          {0: (bytes(2044) + u32le(77) + bytes(2044) + u32le(78), 2048, 0)}, draw(3))
c = draw_case(F, "bgrx-w-not-compared", "ia-semantics 1.2: B8G8R8X8_UNORM's w is 1.0 by the spec "
              "but undefined on some hardware (Wine test_vertex_formats, AMD); a portable case "
              "leaves that lane out (null)", [E("COLOR", "B8G8R8X8_UNORM")], [S("COLOR", 0)],
              {0: (bytes([0x21, 0x43, 0x65, 0x87]), 4, 0)}, draw(1))
for v in c["expect_draw"]["vertices"]:
    v["registers"]["0"][3] = None
c = draw_case(F, "unorm8-one-ulp-tolerance", "ia-semantics 1.3 open question 6 (Wine compares "
              "IA results with 1-2 ULP tolerance because some drivers are not correctly "
              "rounded); expected values are the spec's correctly rounded ones",
              [E("COLOR", "R8G8B8A8_UNORM")], [S("COLOR", 0)],
              {0: (bytes([3, 5, 77, 254]), 4, 0)}, draw(1))
c["tolerance_ulp"] = 1

# ----------------------------------------------------------------------------------------------
# Write


def main():
    total = 0
    names_seen = {}
    for file, cases in sorted(FILES.items()):
        names = [c["name"] for c in cases]
        assert len(names) == len(set(names)), (file, [n for n in names if names.count(n) > 1])
        with open(os.path.join(OUT, file), "w") as fh:
            json.dump({"schema": "inlay-conformance/1", "cases": cases}, fh, indent=1)
            fh.write("\n")
        print("%-26s %4d cases" % (file, len(cases)))
        total += len(cases)
    print("%-26s %4d cases" % ("total", total))


main()
