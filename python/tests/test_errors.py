"""Bad input is normal input: every error is an `inlay.LayoutError` with the CLI's words."""

import struct

import numpy as np
import pytest

import inlay

POS = [{"semantic": "POSITION", "format": "R32G32B32_FLOAT", "offset": 0}]


def test_the_exception_family():
    for cls in (inlay.ParseError, inlay.CreateError, inlay.DrawError):
        assert issubclass(cls, inlay.LayoutError)
    assert issubclass(inlay.LayoutError, ValueError)


def test_parse_errors_name_line_column_and_text():
    src = 'D3D11_INPUT_ELEMENT_DESC d[] = {\n  { "P", 0, DXGI_FORMAT_R32_FLOT, 0, 0, 0, 0 },\n};'
    with pytest.raises(inlay.ParseError) as e:
        inlay.Layout.from_source(src)
    assert (e.value.line, e.value.column) == (2, 13)
    assert e.value.found == "DXGI_FORMAT_R32_FLOT"
    assert str(e.value).startswith("<source>:2:13: unknown DXGI format `DXGI_FORMAT_R32_FLOT`")


def test_from_file_names_the_file(tmp_path):
    p = tmp_path / "bad.json"
    p.write_text('{"elements": [{"semantic": "P", "format": "R32_FLOAT"}]}')
    with pytest.raises(inlay.ParseError) as e:
        inlay.Layout.from_file(p)
    assert str(e.value).startswith(f"{p}:1:")
    assert "missing field `offset`" in str(e.value)
    with pytest.raises(OSError, match="cannot read"):
        inlay.Layout.from_file(tmp_path / "absent.h")


def test_several_arrays_need_a_name():
    src = """D3D11_INPUT_ELEMENT_DESC a[] = {{"P",0,DXGI_FORMAT_R32_FLOAT,0,0,0,0}};
             D3D11_INPUT_ELEMENT_DESC b[] = {{"Q",0,DXGI_FORMAT_R8_UINT,0,0,0,0}};"""
    with pytest.raises(inlay.ParseError, match="a, b|`a`"):
        inlay.Layout.from_source(src)
    assert inlay.Layout.from_source(src, array="b").elements[0]["semantic"] == "Q"


def test_element_dicts_are_read_like_a_json_layout():
    with pytest.raises(inlay.LayoutError, match="^element 1: unknown field `fomat`"):
        inlay.create_input_layout(POS + [{"semantic": "C", "fomat": "R8_UINT", "offset": 0}])
    with pytest.raises(TypeError, match="element 0: expected a dict"):
        inlay.create_input_layout(["POSITION"])
    with pytest.raises(TypeError, match="expected an inlay.Layout or a list"):
        inlay.create_input_layout("POSITION")


def test_refused_layouts_are_results_then_errors_when_used():
    bad = [{"semantic": "P", "format": "R32_FLOAT", "offset": 2},
           {"semantic": "P", "format": "R32_FLOAT", "offset": 4}]
    c = inlay.create_input_layout(bad)
    assert c.hresult == "E_INVALIDARG" and not c and c.offsets is None and c.strides is None
    ids = [(d.id, d.severity, d.element) for d in c.diagnostics]
    assert (159, "error", 0) in ids and (160, "error", 1) in ids
    assert all(d.message for d in c.diagnostics)
    assert str(c.diagnostics[0]).startswith("error #159 CREATEINPUTLAYOUT_INVALIDALIGNMENT: ")
    with pytest.raises(inlay.CreateError) as e:
        c.check()
    assert e.value.hresult == "E_INVALIDARG"
    assert [d.id for d in e.value.diagnostics] == [d.id for d in c.diagnostics]
    with pytest.raises(inlay.CreateError, match="returns E_INVALIDARG"):
        inlay.decode(c, b"\0" * 16)
    with pytest.raises(inlay.CreateError, match="#160"):
        inlay.decode(bad, b"\0" * 16)


def test_shader_bytecode_problems_are_161():
    c = inlay.create_input_layout(POS, shader=b"not a shader")
    assert c.hresult == "E_INVALIDARG"
    assert [d.id for d in c.diagnostics] == [161]
    assert "not a readable DXBC container" in c.diagnostics[0].message
    v = inlay.create_input_layout(POS, validate_only=True)
    assert v.hresult == "S_FALSE" and v.offsets == [0]


def test_targets():
    c = inlay.create_input_layout(
        [{"semantic": "I", "format": "R32_FLOAT", "offset": 0, "class": "instance",
          "step_rate": 1}], feature_level="9_1")
    assert [d.id for d in c.diagnostics] == [3146124]
    with pytest.raises(inlay.LayoutError, match="d3d11 runtime has no feature level 12_0"):
        inlay.create_input_layout(POS, feature_level="12_0")
    with pytest.raises(inlay.LayoutError, match="d3d12 runtime has no feature level 10_0"):
        inlay.create_input_layout(POS, api="d3d12", feature_level="10_0")
    with pytest.raises(inlay.LayoutError, match="unknown API `d3d13`"):
        inlay.create_input_layout(POS, api="d3d13")
    with pytest.raises(inlay.LayoutError, match="pipeline: unknown key `strip_cut`"):
        inlay.create_input_layout(POS, api="d3d12", pipeline={"strip_cut": 1})
    with pytest.raises(inlay.LayoutError, match="pipeline: ib_strip_cut_value = -1"):
        inlay.create_input_layout(POS, api="d3d12", pipeline={"ib_strip_cut_value": -1})


def test_draw_errors():
    vb = struct.pack("<3f", 1, 2, 3)
    with pytest.raises(inlay.DrawError, match="stride 4096 exceeds the 2048-byte maximum"):
        inlay.decode(POS, {0: vb}, strides={0: 4096})
    with pytest.raises(inlay.DrawError, match="slot 40 does not exist"):
        inlay.decode(POS, {40: vb})
    with pytest.raises(inlay.LayoutError, match="unknown key `index_count`"):
        inlay.decode(POS, vb, draw={"kind": "draw", "index_count": 3})
    with pytest.raises(inlay.LayoutError, match="unknown kind `drawindexed`"):
        inlay.decode(POS, vb, draw={"kind": "drawindexed"})
    with pytest.raises(inlay.LayoutError, match="an indexed draw needs index_buffer"):
        inlay.decode(POS, vb, draw={"kind": "draw_indexed"})
    with pytest.raises(inlay.LayoutError, match="must be R16_UINT or R32_UINT"):
        inlay.decode(POS, vb, index_buffer=b"\0\0", index_format="R8_UINT")
    with pytest.raises(inlay.LayoutError, match="topology"):
        inlay.decode(POS, vb, topology="triangle_fan")
    with pytest.raises(inlay.DrawError, match="not available with d3d11 at feature level 9_3"):
        inlay.decode(POS, vb, topology="line_list_adj", feature_level="9_3")
    with pytest.raises(inlay.DrawError, match="does not fit in the 8-byte argument buffer"):
        inlay.decode(POS, vb, draw={"kind": "draw_instanced_indirect",
                                    "args": {"data": b"\0" * 8, "offset": 0}})
    with pytest.raises(inlay.LayoutError, match="is not a number"):
        inlay.decode(POS, vb, draw={"kind": "draw", "vertex_count": -1})
    with pytest.raises(TypeError, match="got str"):
        inlay.decode(POS, {0: "abc"})
    with pytest.raises(TypeError, match="contiguous"):
        inlay.decode(POS, {0: np.zeros((4, 4), dtype=np.float32)[:, 1]})


def test_huge_draws_are_refused_or_memory_errors_never_crashes():
    vb = struct.pack("<3f", 1, 2, 3)
    draw = {"kind": "draw_instanced", "vertex_count_per_instance": 0xFFFFFFFF,
            "instance_count": 0xFFFFFFFF}
    with pytest.raises((inlay.DrawError, MemoryError)):
        inlay.decode(POS, vb, draw=draw, topology="point_list")
    # Out-of-range reads are normal: zeros (and defaults), as the assembler gives them.
    out = inlay.decode(POS, vb, draw={"kind": "draw", "vertex_count": 3}, topology="point_list")
    assert out["POSITION"].tolist() == [[1, 2, 3], [0, 0, 0], [0, 0, 0]]


def test_an_all_cut_index_buffer_gives_an_empty_stream_quickly():
    ib = np.full(1000, 0xFFFF, dtype=np.uint16)
    out = inlay.decode(POS, b"\0" * 12, index_buffer=ib, topology="triangle_strip",
                       draw={"kind": "draw_indexed_instanced", "instance_count": 0xFFFFFFFF})
    assert out["POSITION"].shape == (0, 3) and out["primitives"].shape == (0, 3)


def test_a_runtime_without_the_feature_level_is_refused_as_the_cli_refuses_it(inlay_cli, tmp_path):
    """Issue 34 item 6: D3D10.1 at 11_0 was accepted (32 slots); the CLI refuses it. Both go
    through the library's one checked constructor and give its message."""
    p = tmp_path / "l.json"
    p.write_text('{"elements": [{"semantic": "POSITION", "format": "R32_FLOAT", "offset": 0}]}')
    for api, level in [("d3d10.1", "11_0"), ("d3d10", "10_1"), ("d3d10", "9_3")]:
        with pytest.raises(inlay.LayoutError) as e:
            inlay.create_input_layout(POS, api=api, feature_level=level)
        cli = inlay_cli("check", p, "--api", api, "--feature-level", level, check=False)
        assert cli.returncode == 2, cli.stderr
        assert cli.stderr.strip() == f"error: {e.value}"
        assert f"the {api} runtime has no feature level {level} devices" in str(e.value)


def test_a_nul_in_a_semantic_name_is_refused_everywhere(inlay_cli, tmp_path):
    """Issue 34 item 9: Layout gave 'P' for "P\\0S" (the CLI's map printed P0). Every way a
    name enters refuses it with the library's one message."""
    msg = ('semantic name "P\\0S" contains a NUL character; names are NUL-terminated C '
           'strings, so it would be read as "P"')
    el = [{"semantic": "P\0S", "format": "R32_FLOAT", "offset": 0}]
    with pytest.raises(inlay.LayoutError) as e:
        inlay.Layout.from_elements(el)
    assert msg in str(e.value)
    with pytest.raises(inlay.LayoutError) as e:
        inlay.create_input_layout(el)
    assert msg in str(e.value)
    with pytest.raises(inlay.ParseError) as e:
        inlay.Layout.from_source('D3D11_INPUT_ELEMENT_DESC d[] = {\n'
                                 '  { "P\\0S", 0, DXGI_FORMAT_R32_FLOAT, 0, 0, 0, 0 } };')
    assert msg in str(e.value)
    p = tmp_path / "l.json"
    p.write_text('{"elements": [{"semantic": "P\\u0000S", "format": "R32_FLOAT", "offset": 0}]}')
    cli = inlay_cli("map", p, check=False)
    assert cli.returncode == 2 and msg in cli.stderr, cli.stderr
