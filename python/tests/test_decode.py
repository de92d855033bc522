"""`inlay.decode` against the command line's reference decode and hand-computed bits."""

import json
import random
import struct

import numpy as np
import pytest

import inlay

# Every format the input assembler reads (the format table, through inlay.format_info).
IA_FORMATS = [
    "R32G32B32A32_FLOAT", "R32G32B32A32_UINT", "R32G32B32A32_SINT", "R32G32B32_FLOAT",
    "R32G32B32_UINT", "R32G32B32_SINT", "R16G16B16A16_FLOAT", "R16G16B16A16_UNORM",
    "R16G16B16A16_UINT", "R16G16B16A16_SNORM", "R16G16B16A16_SINT", "R32G32_FLOAT",
    "R32G32_UINT", "R32G32_SINT", "R10G10B10A2_UNORM", "R10G10B10A2_UINT",
    "R11G11B10_FLOAT", "R8G8B8A8_UNORM", "R8G8B8A8_UINT", "R8G8B8A8_SNORM", "R8G8B8A8_SINT",
    "R16G16_FLOAT", "R16G16_UNORM", "R16G16_UINT", "R16G16_SNORM", "R16G16_SINT",
    "R32_FLOAT", "R32_UINT", "R32_SINT", "R8G8_UNORM", "R8G8_UINT", "R8G8_SNORM", "R8G8_SINT",
    "R16_FLOAT", "R16_UNORM", "R16_UINT", "R16_SNORM", "R16_SINT", "R8_UNORM", "R8_UINT",
    "R8_SNORM", "R8_SINT", "B5G6R5_UNORM", "B5G5R5A1_UNORM", "B8G8R8A8_UNORM",
    "B8G8R8X8_UNORM", "B4G4R4A4_UNORM",
]


def test_the_format_list_is_every_ia_format():
    assert len(IA_FORMATS) == 47
    for f in IA_FORMATS:
        name, size, comps, kind = inlay.format_info(f)
        assert name == f and kind in ("float", "unorm", "snorm", "uint", "sint")
    assert inlay.format_info("R24G8_TYPELESS")[3] is None


def cli_decode(inlay_cli, tmp_path, elements, buffers, extra=(), strides=None):
    """`inlay decode --format json --hex --all-lanes`: the reference fetch's register bits."""
    (tmp_path / "layout.json").write_text(json.dumps({"elements": elements}))
    args = ["decode", tmp_path / "layout.json", "--format", "json", "--hex", "--all-lanes"]
    for slot, data in buffers.items():
        (tmp_path / f"vb{slot}.bin").write_bytes(data)
        stride = f",stride={strides[slot]}" if strides else ""
        args += ["--vb", f"{slot}={tmp_path / f'vb{slot}.bin'}{stride}"]
    return json.loads(inlay_cli(*args, *extra).stdout)


@pytest.mark.parametrize("fmt", IA_FORMATS)
def test_every_format_matches_the_reference_decode(fmt, inlay_cli, tmp_path):
    """Random bytes (NaNs, denormals, most negative SNORM codes included) in every format,
    decoded with an odd stride and past the buffer's end, bit for bit against the CLI."""
    _, size, comps, kind = inlay.format_info(fmt)
    rng = random.Random(fmt)
    stride = size + 4
    n = 300
    data = bytearray(rng.getrandbits(8) for _ in range(stride * n + size // 2))
    # A few fixed edge codes at the start: all zero, all ones, most negative.
    data[0:size] = b"\x00" * size
    data[stride:stride + size] = b"\xff" * size
    data[2 * stride:2 * stride + size] = (b"\x00" * (size - 1) + b"\x80")
    elements = [{"semantic": "A", "format": fmt, "offset": 0},
                {"semantic": "B", "index": 3, "format": fmt, "offset": 4 if size <= 4 else 0}]
    draw = {"kind": "draw", "vertex_count": n + 2}
    out = inlay.decode(elements, {0: data}, strides={0: stride}, topology="point_list",
                       draw=draw)
    ref = cli_decode(inlay_cli, tmp_path, elements, {0: bytes(data)},
                     ["--topology", "point_list", "--draw", f"draw,vertex_count={n + 2}"],
                     strides={0: stride})
    assert len(ref) == n + 2
    dtype = {"uint": np.uint32, "sint": np.int32}.get(kind, np.float32)
    for key, col in (("A", "A0"), ("B3", "B3")):
        arr = out[key]
        assert arr.dtype == dtype and arr.shape == (n + 2, arr.shape[1])
        assert 1 <= arr.shape[1] <= 4
        bits = arr.view(np.uint32)
        want = np.array([[int(x, 16) for x in v[col]] for v in ref], dtype=np.uint32)
        np.testing.assert_array_equal(bits, want[:, : arr.shape[1]])


def test_hand_computed_bits():
    # R8G8B8A8_SNORM: -128 and -127 both give -1.0, 127 gives 1.0, 64 gives 64/127.
    # R10G10B10A2_UNORM: 1023 -> 1.0, 1 -> 1/1023, alpha 3 -> 1.0.
    # R16G16_FLOAT: 0x3c00 -> 1.0, 0x0001 -> 2^-24; missing z, w -> 0, 1 (not returned).
    vb = bytes([0x80, 0x81, 0x7F, 0x40]) + struct.pack("<I", 1023 | (1 << 10) | (3 << 30))
    vb += struct.pack("<HH", 0x3C00, 0x0001)
    layout = inlay.Layout.from_source("""
        D3D11_INPUT_ELEMENT_DESC d[] = {
          {"NORMAL", 0, DXGI_FORMAT_R8G8B8A8_SNORM, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0},
          {"TANGENT", 0, DXGI_FORMAT_R10G10B10A2_UNORM, 0, D3D11_APPEND_ALIGNED_ELEMENT, D3D11_INPUT_PER_VERTEX_DATA, 0},
          {"TEXCOORD", 2, DXGI_FORMAT_R16G16_FLOAT, 0, D3D11_APPEND_ALIGNED_ELEMENT, D3D11_INPUT_PER_VERTEX_DATA, 0},
        };""")
    out = inlay.decode(layout, vb, topology="point_list")
    assert set(out) == {"NORMAL", "TANGENT", "TEXCOORD2", "SV_VertexID", "SV_InstanceID",
                        "primitives", "SV_PrimitiveID"}
    assert out["NORMAL"].view(np.uint32).tolist() == [[0xBF800000, 0xBF800000, 0x3F800000,
                                                       0x3F010204]]
    assert out["TANGENT"].view(np.uint32).tolist() == [[0x3F800000, 0x3A802008, 0, 0x3F800000]]
    assert out["TEXCOORD2"].view(np.uint32).tolist() == [[0x3F800000, 0x33800000]]
    assert out["primitives"].tolist() == [[0]]


def test_instancing_with_step_rates_and_start_instance():
    elements = [
        {"semantic": "POSITION", "format": "R32_FLOAT", "offset": 0},
        {"semantic": "OFFSET", "format": "R32_UINT", "slot": 1, "offset": 0,
         "class": "instance", "step_rate": 2},
        {"semantic": "TINT", "format": "R8_UINT", "slot": 2, "offset": 0,
         "class": "instance", "step_rate": 0},
    ]
    pos = struct.pack("<3f", 0.5, 1.5, 2.5)
    inst = struct.pack("<4I", 10, 11, 12, 13)
    out = inlay.decode(elements, [pos, inst, b"\x07\x09"],
                       draw={"kind": "draw_instanced", "vertex_count_per_instance": 3,
                             "instance_count": 4, "start_instance": 1})
    assert out["SV_InstanceID"].tolist() == [0] * 3 + [1] * 3 + [2] * 3 + [3] * 3
    assert out["SV_VertexID"].tolist() == [0, 1, 2] * 4
    assert out["POSITION"][:, 0].tolist() == [0.5, 1.5, 2.5] * 4
    # element start + instance // 2: 11, 11, 12, 12; step rate 0 always reads element start 1.
    assert out["OFFSET"][:, 0].tolist() == [11] * 6 + [12] * 6
    assert out["TINT"][:, 0].tolist() == [9] * 12
    assert out["primitives"].tolist() == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 11]]
    assert out["OFFSET"].dtype == np.uint32 and out["POSITION"].dtype == np.float32


def test_triangle_strip_with_cuts_and_base_vertex():
    data = np.arange(16, dtype=np.int32) * -3
    ib = np.array([0, 1, 2, 3, 0xFFFF, 4, 5, 6, 0xFFFF, 0xFFFF, 7], dtype=np.uint16)
    out = inlay.decode([{"semantic": "N", "format": "R32_SINT", "offset": 0}], {0: data},
                       index_buffer=ib, topology="triangle_strip",
                       draw={"kind": "draw_indexed", "base_vertex": 2})
    assert out["SV_VertexID"].tolist() == [0, 1, 2, 3, 4, 5, 6, 7]
    assert out["N"][:, 0].tolist() == [-3 * (i + 2) for i in [0, 1, 2, 3, 4, 5, 6, 7]]
    assert out["N"].dtype == np.int32
    # Strip 0..3 gives two triangles (the second one wound k, k+2, k+1); after the cut the
    # strip 4, 5, 6 gives one; the lone 7 gives none. SV_PrimitiveID keeps counting.
    assert out["primitives"].tolist() == [[0, 1, 2], [1, 3, 2], [4, 5, 6]]
    assert out["SV_PrimitiveID"].tolist() == [0, 1, 2]


def test_list_primitives_per_instance_and_after_a_cut():
    """Lists without cuts take the direct path: whole groups per instance (a leftover vertex
    makes none), IDs restarting per instance; a cut sends the draw through the assembler."""
    data = np.arange(8, dtype=np.float32)
    one = [{"semantic": "X", "format": "R32_FLOAT", "offset": 0}]
    out = inlay.decode(one, {0: data}, topology="triangle_list",
                       draw={"kind": "draw_instanced", "vertex_count_per_instance": 7,
                             "instance_count": 2})
    assert out["primitives"].tolist() == [[0, 1, 2], [3, 4, 5], [7, 8, 9], [10, 11, 12]]
    assert out["SV_PrimitiveID"].tolist() == [0, 1, 0, 1]
    assert out["primitives"].dtype == np.uint32 and out["SV_PrimitiveID"].dtype == np.uint32
    out = inlay.decode(one, {0: data}, topology="line_list_adj",
                       draw={"kind": "draw", "vertex_count": 8})
    assert out["primitives"].tolist() == [[0, 1, 2, 3], [4, 5, 6, 7]]
    # A cut ends the strip of a list too: 0 1 | 2 3 4 5 gives one triangle, (2 3 4) at
    # stream positions 2..4, and 5 is left over.
    ib = np.array([0, 1, 0xFFFF, 2, 3, 4, 5], dtype=np.uint16)
    out = inlay.decode(one, {0: data}, index_buffer=ib, topology="triangle_list",
                       draw={"kind": "draw_indexed"})
    assert out["SV_VertexID"].tolist() == [0, 1, 2, 3, 4, 5]
    assert out["primitives"].tolist() == [[2, 3, 4]]
    assert out["SV_PrimitiveID"].tolist() == [0]


def test_large_draw_matches_the_reference_on_every_path(inlay_cli, tmp_path):
    """10,000 indexed vertices, 3 instances, block boundaries and a buffer edge: the fast
    decode equals the CLI's vertex-by-vertex reference."""
    rng = np.random.default_rng(5)
    n = 10_000
    vb = rng.integers(0, 256, size=n * 28, dtype=np.uint8)
    ib = rng.integers(0, n + 8, size=5000, dtype=np.uint32)
    ib[::97] = 0xFFFFFFFF
    elements = [
        {"semantic": "POSITION", "format": "R16G16B16A16_FLOAT", "offset": 0},
        {"semantic": "NORMAL", "format": "R10G10B10A2_UNORM", "offset": "append"},
        {"semantic": "TEXCOORD", "format": "R16G16_SNORM", "offset": "append"},
        {"semantic": "COLOR", "format": "B8G8R8A8_UNORM", "offset": "append"},
        {"semantic": "BLENDINDICES", "format": "R8G8B8A8_UINT", "offset": "append"},
        {"semantic": "BLENDWEIGHT", "format": "R8G8B8A8_UNORM", "offset": "append"},
    ]
    draw = {"kind": "draw_indexed_instanced", "instance_count": 3, "base_vertex": 3}
    out = inlay.decode(elements, {0: vb}, index_buffer=memoryview(ib.tobytes()),
                       index_format="R32_UINT", topology="point_list", draw=draw,
                       primitives=False)
    (tmp_path / "ib.bin").write_bytes(ib.tobytes())
    ref = cli_decode(inlay_cli, tmp_path, elements, {0: vb.tobytes()},
                     ["--ib", f"{tmp_path / 'ib.bin'},format=R32_UINT", "--draw",
                      "draw_indexed_instanced,instances=3,base=3"])
    assert len(ref) == out["SV_VertexID"].shape[0] == 3 * (5000 - len(ib[::97]))
    assert "primitives" not in out
    for e in elements:
        name = e["semantic"]
        arr = out[name].view(np.uint32)
        want = np.array([[int(x, 16) for x in v[name + "0"]] for v in ref], dtype=np.uint32)
        np.testing.assert_array_equal(arr, want[:, : arr.shape[1]], err_msg=name)
    assert out["SV_VertexID"].tolist() == [v["vertex_id"] for v in ref]
    assert out["SV_InstanceID"].tolist() == [v["instance_id"] for v in ref]


def test_threads_give_the_rows_of_one_walk(inlay_cli, tmp_path):
    """Decoding on several threads splits the rows into shares, each thread's walk moved to
    its first row: every thread count gives the single walk's arrays, for an indexed strip
    with cuts over three instances (shares start mid-instance and after cuts) and a
    non-indexed instanced draw; spot rows against the CLI's reference."""
    rng = np.random.default_rng(11)
    n = 50_000
    vb = rng.integers(0, 256, size=n * 12, dtype=np.uint8)
    ib = rng.integers(0, n, size=45_000, dtype=np.uint32)
    ib[::53] = 0xFFFFFFFF
    elements = [
        {"semantic": "POSITION", "format": "R16G16B16A16_FLOAT", "offset": 0},
        {"semantic": "NORMAL", "format": "R10G10B10A2_UNORM", "offset": "append"},
    ]
    cases = [
        dict(index_buffer=ib.tobytes(), index_format="R32_UINT", topology="triangle_strip",
             draw={"kind": "draw_indexed_instanced", "instance_count": 3, "base_vertex": 2}),
        dict(topology="point_list",
             draw={"kind": "draw_instanced", "vertex_count_per_instance": n - 7,
                   "instance_count": 2, "start_vertex": 5}),
    ]
    for case in cases:
        one = inlay.decode(elements, {0: vb}, threads=1, **case)
        rows = one["SV_VertexID"].shape[0]
        assert rows > 3 * 32768, rows
        for threads in (2, 3, 4, 7, None):
            many = inlay.decode(elements, {0: vb}, threads=threads, **case)
            assert set(many) == set(one)
            for k in one:
                np.testing.assert_array_equal(many[k], one[k], err_msg=f"{k} threads={threads}")
    # The strip's rows at the shares' edges, against the vertex-by-vertex reference.
    (tmp_path / "ib.bin").write_bytes(ib.tobytes())
    ref = cli_decode(inlay_cli, tmp_path, elements, {0: vb.tobytes()},
                     ["--ib", f"{tmp_path / 'ib.bin'},format=R32_UINT", "--topology",
                      "triangle_strip", "--draw", "draw_indexed_instanced,instances=3,base=2"])
    many = inlay.decode(elements, {0: vb}, threads=4, **cases[0])
    assert len(ref) == many["SV_VertexID"].shape[0]
    share = -(-len(ref) // 4 // 4096) * 4096
    for row in (0, share - 1, share, 2 * share - 1, 2 * share, len(ref) - 1):
        v = ref[row]
        assert many["SV_VertexID"][row] == v["vertex_id"]
        assert many["SV_InstanceID"][row] == v["instance_id"]
        assert many["NORMAL"].view(np.uint32)[row].tolist() == [int(x, 16) for x in v["NORMAL0"]]
    with pytest.raises(inlay.LayoutError, match="threads"):
        inlay.decode(elements, {0: vb}, threads=0, **cases[1])


def test_buffers_are_read_in_place_and_outputs_are_owned_arrays():
    data = bytearray(struct.pack("<4f", 1, 2, 3, 4))
    out = inlay.decode([{"semantic": "P", "format": "R32G32B32A32_FLOAT", "offset": 0}],
                       {0: data}, topology="point_list", system_values=False,
                       primitives=False)
    assert list(out) == ["P"]
    p = out["P"]
    assert p.flags["C_CONTIGUOUS"] and p.flags["OWNDATA"] or p.base is not None
    assert p.tolist() == [[1.0, 2.0, 3.0, 4.0]]
    # The input may be any contiguous buffer: numpy arrays of any dtype, memoryviews.
    again = inlay.decode([{"semantic": "P", "format": "R32G32B32A32_FLOAT", "offset": 0}],
                         np.frombuffer(bytes(data), dtype=np.float32), topology="point_list")
    assert again["P"].tolist() == [[1.0, 2.0, 3.0, 4.0]]


def test_created_layout_with_a_signature_decodes_through_its_offsets():
    created = inlay.create_input_layout(
        [{"semantic": "A", "format": "R8G8_UINT", "offset": "append"},
         {"semantic": "B", "format": "R32_FLOAT", "offset": "append"}])
    assert created.offsets == [0, 4] and created.strides == {0: 8}
    out = inlay.decode(created, {0: bytes([1, 2, 0, 0]) + struct.pack("<f", -0.0)},
                       topology="point_list")
    assert out["A"].tolist() == [[1, 2]]
    assert out["B"].view(np.uint32).tolist() == [[0x80000000]]


def test_out_reuses_matching_arrays_only():
    layout = [{"semantic": "P", "format": "R16G16_UNORM", "offset": 0},
              {"semantic": "I", "format": "R16_SINT", "offset": 4}]
    vb = struct.pack("<HHh", 65535, 0, -7) + b"\0\0"
    first = inlay.decode(layout, vb, topology="point_list")
    first["P"][:] = 42.0
    again = inlay.decode(layout, vb, topology="point_list", out=first)
    assert again["P"] is first["P"] and again["I"] is first["I"]
    assert again["SV_VertexID"] is first["SV_VertexID"]
    assert again["P"].tolist() == [[1.0, 0.0]] and again["I"].tolist() == [[-7]]
    # A result of another shape is not reused (a new array is returned).
    two = inlay.decode(layout, vb * 2, topology="point_list", out=first)
    assert two["P"] is not first["P"] and two["P"].shape == (2, 2)
    # Read-only arrays are never written.
    ro = {"P": np.zeros((1, 2), dtype=np.float32)}
    ro["P"].flags.writeable = False
    assert inlay.decode(layout, vb, topology="point_list", out=ro)["P"] is not ro["P"]


def test_the_gil_is_released_while_decoding():
    """Another Python thread keeps running while a long decode runs: the largest pause it sees
    is far below the decode's duration (it would be the whole duration with the GIL held)."""
    import threading
    import time

    n = 3_000_000
    data = np.zeros(n * 16, dtype=np.uint8)
    layout = [{"semantic": "P", "format": "R16G16B16A16_UNORM", "offset": 0},
              {"semantic": "Q", "format": "R8G8B8A8_SNORM", "offset": 8},
              {"semantic": "R", "format": "R16G16_FLOAT", "offset": 12}]
    done = threading.Event()
    span = []

    def work():
        t = time.perf_counter()
        inlay.decode(layout, data, topology="point_list", primitives=False)
        span.append(time.perf_counter() - t)
        done.set()

    worker = threading.Thread(target=work)
    last, gap = time.perf_counter(), 0.0
    worker.start()
    while not done.is_set():
        now = time.perf_counter()
        gap = max(gap, now - last)
        last = now
        time.sleep(0.001)
    worker.join()
    assert span[0] > 0.02, "the decode was too short to tell"
    assert gap < 0.5 * span[0], (gap, span[0])
