"""`inlay.Layout`: every layout source form through the library's one reader."""

import json

import pytest

import inlay

EXPECTED = [
    {"semantic": "POSITION", "index": 0, "format": "R32G32B32_FLOAT", "slot": 0, "offset": 0,
     "class": "vertex", "step_rate": 0},
    {"semantic": "TEXCOORD", "index": 1, "format": "R16G16_UNORM", "slot": 0,
     "offset": "append", "class": "vertex", "step_rate": 0},
    {"semantic": "WORLD", "index": 0, "format": "R32G32B32A32_FLOAT", "slot": 1, "offset": 0,
     "class": "instance", "step_rate": 1},
]

C_SRC = """
// The SDK snippet, verbatim.
const D3D11_INPUT_ELEMENT_DESC layout[] = {
    { "POSITION", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0 },
    { "TEXCOORD", 1, DXGI_FORMAT_R16G16_UNORM, 0, D3D11_APPEND_ALIGNED_ELEMENT,
      D3D11_INPUT_PER_VERTEX_DATA, 0 },
    { "WORLD", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 1, 0x0, D3D11_INPUT_PER_INSTANCE_DATA, 1 },
};
"""

CS_SRC = """
var elements = new[] {
    new InputElement("POSITION", 0, Format.R32G32B32_Float, 0, 0),
    new InputElement("TEXCOORD", 1, Format.R16G16_UNorm, InputElement.AppendAligned, 0),
    new InputElement("WORLD", 0, Format.R32G32B32A32_Float, 0, 1,
                     InputClassification.PerInstanceData, 1),
};
"""

TOML_SRC = """
[[elements]]
semantic = "POSITION"
format = "R32G32B32_FLOAT"
offset = 0

[[elements]]
semantic = "TEXCOORD"
index = 1
format = "R16G16_UNORM"
offset = "append"

[[elements]]
semantic = "WORLD"
format = "R32G32B32A32_FLOAT"
slot = 1
offset = 0
class = "instance"
step_rate = 1
"""


@pytest.mark.parametrize("src,syntax", [(C_SRC, "C"), (CS_SRC, "C#"), (TOML_SRC, "TOML"),
                                        (json.dumps({"elements": EXPECTED}), "JSON")])
def test_every_source_form_gives_the_same_elements(src, syntax):
    layout = inlay.Layout.from_source(src)
    assert layout.syntax == syntax
    assert layout.elements == EXPECTED
    assert len(layout) == 3
    assert inlay.Layout.from_elements(layout.elements).elements == EXPECTED


def test_from_file_reads_utf16_and_names_the_array(tmp_path):
    p = tmp_path / "layout.h"
    p.write_bytes(b"\xff\xfe" + C_SRC.encode("utf-16-le"))
    layout = inlay.Layout.from_file(p)
    assert layout.elements == EXPECTED and layout.name == "layout"
    assert inlay.Layout.from_file(str(p), array="layout").name == "layout"
    with pytest.raises(inlay.ParseError):
        inlay.Layout.from_file(p, array="other")


def test_create_input_layout_resolves_offsets_and_strides():
    c = inlay.create_input_layout(inlay.Layout.from_source(C_SRC))
    assert (c.hresult, c.ok, bool(c)) == ("S_OK", True, True)
    assert c.offsets == [0, 12, 0]
    assert c.strides == {0: 16, 1: 16}
    assert c.registers == [0, 1, 2]
    assert [e["offset"] for e in c.elements] == [0, 12, 0]
    assert (c.api, c.feature_level) == ("d3d11", "11_0")
    assert inlay.create_input_layout(EXPECTED, api="d3d10").feature_level == "10_0"
    # A trailing digit in a name is a warning (385), the call still succeeds.
    w = inlay.create_input_layout([{"semantic": "TEXCOORD1", "format": "R32_FLOAT",
                                    "offset": 0}])
    assert w.hresult == "S_OK" and [(d.id, d.severity) for d in w.diagnostics] == [
        (385, "warning")]
    assert w.diagnostics[0].name == "CREATEINPUTLAYOUT_TRAILING_DIGIT_IN_SEMANTIC"
    assert w.diagnostics[0].element == 0


def test_a_real_signature_blob_decides_registers_and_missing_elements(inlay_cli, tmp_path):
    """A signature-only DXBC blob written by `inlay signature`, passed as bytes."""
    sig = [{"semantic": "POSITION", "register": 0, "mask": "xyz"},
           {"semantic": "TEXCOORD", "index": 1, "register": 3, "mask": "xy", "type": "uint"}]
    (tmp_path / "sig.json").write_text(json.dumps(sig))
    inlay_cli("signature", tmp_path / "sig.json", "--out", tmp_path / "sig.dxbc")
    blob = (tmp_path / "sig.dxbc").read_bytes()
    c = inlay.create_input_layout(EXPECTED, shader=blob)
    assert c.hresult == "S_OK"
    assert c.registers == [0, 3, None]           # WORLD is not read by the shader
    assert [d.id for d in c.diagnostics] == [391]  # UNORM data into a uint input
    missing = inlay.create_input_layout(EXPECTED[:1], shader=bytearray(blob))
    assert missing.hresult == "E_INVALIDARG"
    assert [d.id for d in missing.diagnostics] == [163]
    out = inlay.decode(c, {0: bytes(16), 1: bytes(16)}, topology="point_list")
    assert set(out) >= {"POSITION", "TEXCOORD1", "WORLD"}


def test_type_stubs_cover_the_public_names():
    import ast
    import pathlib
    stub = pathlib.Path(inlay.__file__).with_name("__init__.pyi")
    assert stub.with_name("py.typed").exists()
    tree = ast.parse(stub.read_text())
    names = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    assert set(inlay.__all__) <= names, set(inlay.__all__) - names
    for name in inlay.__all__:
        assert getattr(inlay, name).__doc__, name
