"""inlay — Direct3D 10/11 input layouts, exactly as Windows does them, with numpy in and out.

Read a layout from the sources people have (C/C++ ``D3D11_INPUT_ELEMENT_DESC`` arrays, JSON,
TOML, ...), ask what ``CreateInputLayout`` answers for it, and decode vertex buffers through it
into numpy arrays with inlay's exact input assembler (SNORM clamp, missing-component defaults,
packed formats, ``APPEND_ALIGNED_ELEMENT``, instancing, strips with cuts)::

    import inlay
    layout = inlay.Layout.from_file("layout.h")
    mesh = inlay.decode(layout, {0: open("mesh.vb", "rb").read()},
                        index_buffer=open("mesh.ib", "rb").read())
    mesh["POSITION"]        # float32 array, shape (vertices, 3)
    mesh["primitives"]      # uint32 array, shape (triangles, 3): rows of the arrays above

Every error is an :class:`inlay.LayoutError` (a ``ValueError``) with the words of the
``inlay`` command line. The work runs in Rust with the GIL released; input buffers are read
in place (no copy) and each output array is allocated once.
"""

from __future__ import annotations

import os

from . import _inlay
from ._inlay import (
    CreateError,
    Diagnostic,
    DrawError,
    DumpError,
    InputLayout,
    Layout,
    LayoutError,
    ParseError,
)

__all__ = [
    "Layout",
    "InputLayout",
    "Diagnostic",
    "create_input_layout",
    "decode",
    "encode",
    "format_info",
    "LayoutError",
    "ParseError",
    "CreateError",
    "DrawError",
    "DumpError",
    "Dump",
    "load_dump",
    "load_frame",
    "FrameDraw",
    "export",
    "fmt_text",
]

__version__ = _inlay.__version__


def create_input_layout(
    layout_or_elements,
    shader=None,
    api="d3d11",
    feature_level=None,
    validate_only=False,
    pipeline=None,
):
    """What ``ID3D11Device::CreateInputLayout`` returns for an element array and a shader.

    ``layout_or_elements`` is a :class:`Layout` or a list of dicts with the conformance
    schema's ELEMENT keys (``semantic``, ``index``, ``format``, ``slot``, ``offset`` — a
    number or ``"append"`` —, ``class`` — ``"vertex"``/``"instance"`` —, ``step_rate``).
    ``shader`` is the bytes of a DXBC blob (a compiled vertex shader or a signature blob), or
    None for the no-shader rule of ``inlay decode`` (the array's own rules; element *i* feeds
    register *i*). ``api`` is ``"d3d11"``, ``"d3d10.1"`` or ``"d3d10"``; ``feature_level``
    ``"9_1"`` … ``"11_1"`` (None: ``"11_0"``, ``"10_0"`` for d3d10). ``validate_only`` models
    a NULL ``ppInputLayout`` (success is then ``S_FALSE``).

    With ``api="d3d12"`` (feature levels ``"11_0"`` … ``"12_2"``) the call is the input-layout
    part of ``ID3D12Device::CreateGraphicsPipelineState`` (``docs/spec/d3d12-rules.md``):
    ``pipeline`` is a dict of the pipeline state's ``root_signature_flags``,
    ``ib_strip_cut_value`` (0 disabled, 1 0xFFFF, 2 0xFFFFFFFF) and
    ``primitive_topology_type`` (1 point … 4 patch), each optional (default ``1``, ``0``,
    ``3``); the layout keeps the strip cut and topology type for :func:`decode`. ``shader``
    may be a DXIL container. Messages carry D3D12's message ids.

    Returns an :class:`InputLayout` with ``.hresult`` (``"S_OK"``, ``"S_FALSE"``,
    ``"E_INVALIDARG"``), ``.diagnostics`` (each with ``.id``, ``.severity``, ``.element``,
    ``.message``), ``.offsets`` (resolved, in array order) and ``.strides`` (per slot). A
    refused layout is a result, not an exception; ``.check()`` raises :class:`CreateError`.
    """
    return _inlay.create_input_layout(
        layout_or_elements, shader, api, feature_level, validate_only, pipeline
    )


def decode(
    layout,
    vertex_buffers,
    index_buffer=None,
    index_format="R16_UINT",
    topology="triangle_list",
    draw=None,
    strides=None,
    *,
    offsets=None,
    index_offset=0,
    api="d3d11",
    feature_level=None,
    primitives=True,
    system_values=True,
    out=None,
    threads=None,
    pipeline=None,
):
    """Decodes a draw's vertex stream into numpy arrays, exactly as the input assembler does.

    ``layout``: a :class:`Layout` or ELEMENT list (validated without a shader, element *i*
    feeds register *i*), or an :class:`InputLayout` from :func:`create_input_layout`.

    ``vertex_buffers``: ``{slot: buffer}`` (or a list indexed by slot, or one buffer for
    slot 0); a buffer is bytes, bytearray, memoryview or a C-contiguous numpy array and is
    read in place. ``index_buffer`` likewise, with ``index_format`` ``"R16_UINT"`` or
    ``"R32_UINT"`` and byte offset ``index_offset``. ``strides`` / ``offsets``: per slot
    (dict or list, or one int for every slot); a stride defaults to the slot's smallest
    covering stride, an offset to 0. ``topology``: ``"point_list"``, ``"triangle_list"``,
    ``"triangle_strip"``, ``"line_list_adj"``, ``"patch_list_3"``, …

    ``draw``: a dict with the conformance schema's ``call`` keys, e.g. ``{"kind":
    "draw_indexed_instanced", "instance_count": 4}``; missing counts come from the buffers
    (every whole vertex of the per-vertex buffers, the whole index buffer), missing starts are
    0. Default: ``draw`` (``draw_indexed`` with an index buffer) over the whole buffers. The
    indirect kinds take ``"args": {"data": bytes, "offset": n}``; ``draw_auto`` takes
    ``filled_size`` (default: slot 0's size).

    Returns a dict: for each element, under its semantic name with the index appended when it
    is not 0 (``"POSITION"``, ``"TEXCOORD1"``), an array of shape (vertices, components) —
    float32 for FLOAT/UNORM/SNORM formats, uint32 for UINT, int32 for SINT — with one row per
    vertex of the IA's stream (instance by instance, one row per index read; a strip-cut index
    gives none); ``"SV_VertexID"`` and ``"SV_InstanceID"`` (uint32, one per row) unless
    ``system_values=False``; ``"primitives"`` (uint32, shape (primitives, vertices per
    primitive), rows of the stream in the order a geometry shader receives them) and
    ``"SV_PrimitiveID"`` unless ``primitives=False``. An element whose name is one of those
    keys keeps the key.

    ``out``: a dict from an earlier decode whose arrays are refilled in place when their shapes
    and dtypes fit. ``threads``: how many threads decode the elements (``None``: every core;
    a thread is given at least 32768 rows, so small draws use one); the arrays are the same
    for any count.

    ``pipeline`` (``api="d3d12"`` with an ELEMENT list): the D3D12 pipeline state, the keys of
    :func:`create_input_layout`'s ``pipeline`` — ``ib_strip_cut_value`` (0 disabled, 1 0xFFFF,
    2 0xFFFFFFFF; default disabled), ``primitive_topology_type`` (default: ``topology``'s
    type) and ``root_signature_flags`` — as ``inlay decode --api d3d12 --strip-cut …
    --topology-type …`` takes them: strips cut at the pipeline's value whatever the index
    format, lists never, and a topology of another type is a :class:`DrawError` (D3D12 #611).
    An :class:`InputLayout` made with ``api="d3d12"`` carries the pipeline state it was
    created with, so ``pipeline`` goes to :func:`create_input_layout` there.

    Raises :class:`CreateError` for a layout ``CreateInputLayout`` refuses, :class:`DrawError`
    for a binding, topology or draw the input assembler refuses, :class:`LayoutError` for
    other bad arguments.
    """
    return _inlay.decode(
        layout,
        vertex_buffers,
        index_buffer,
        index_format,
        topology,
        draw,
        strides,
        offsets,
        index_offset,
        api,
        feature_level,
        primitives,
        system_values,
        out,
        threads,
        pipeline,
    )


def encode(
    layout,
    arrays,
    vertex_count=None,
    rounding="nearest",
    *,
    strides=None,
    instance_count=None,
    padding=0,
    api="d3d11",
    feature_level=None,
    original=None,
    warnings=None,
    clamp=False,
):
    """Writes element arrays into vertex buffers through a layout: the inverse of :func:`decode`.

    ``arrays`` maps element names (semantic, with the index appended when it is not 0, as
    :func:`decode` names them) to arrays of shape (rows, components) or (rows,) for one
    component; every element of the layout needs one (the ``SV_*`` and ``primitives`` keys of a
    decoded dict are ignored, so ``encode(layout, decode(layout, ...))`` round-trips). Values
    are floats for FLOAT/UNORM/SNORM formats (float16/float32 arrays are taken bit for bit,
    float64 rounded to the nearest binary32) and integers for UINT/SINT (floats are refused
    there, and integers outside the 32-bit register's range). Every array goes through the
    checks ``inlay encode`` applies to its input, with its words: the lanes per row (at least
    the format's components, at most 4), the rows, each value's kind and range. Per-vertex arrays have one row per
    vertex (``vertex_count``, default their row count); per-instance arrays one row per
    instance record (``instance_count`` instances at the slot's step rate; default from the
    first per-instance array).

    ``rounding``: ``"nearest"`` (what a mesh tool wants) or ``"d3d"`` (the pipeline's
    conversion rules), as the conformance schema defines them. ``strides`` per slot (default
    each slot's smallest stride), ``padding`` the value of bytes no element covers.

    ``original``: ``{slot: bytes}``, a slot's records as they were before an edit (one per
    row, the output's stride): bytes no element covers are copied from them, and an element
    whose values are exactly what its original bytes decode to keeps those bytes — so codes
    that decode alike (SNORM −128 and −127) and NaN payloads survive an unedited round trip.

    ``warnings``: a list to which one line per element is appended when some of its values
    are ones its format cannot hold and the encoder changes (clamped UNORM/SNORM values,
    saturated integers, finite floats that become infinity), naming the first row.

    ``clamp``: a value the element's format cannot hold (40000 in R16_SINT, 65520 in
    R16_FLOAT, 1.5 in UNORM, a float64 past the 32-bit float range) raises
    :class:`LayoutError` naming the array, row, lane and value, as ``inlay encode`` refuses
    it; ``clamp=True`` saturates such values as the encoder defines it (and ``warnings``
    names them).

    Returns ``{slot: bytes}`` for each slot the layout uses.
    """
    return _inlay.encode(
        layout,
        arrays,
        vertex_count,
        rounding,
        strides,
        instance_count,
        padding,
        api,
        feature_level,
        original,
        warnings,
        clamp,
    )


def format_info(format):
    """``(name, byte_size, components, kind)`` of a DXGI format from inlay's format table.

    ``format`` is a name (``"R16G16_UNORM"``, with or without ``DXGI_FORMAT_``) or a number
    as a string; ``kind`` is ``"float"``, ``"unorm"``, ``"snorm"``, ``"uint"`` or ``"sint"``,
    or None for a format the input assembler cannot read.
    """
    return _inlay.format_info(format)


class Dump:
    """A captured draw read by :func:`load_dump`: the layout, the buffers, the topology and the
    draw call, ready for :func:`decode` (``dump.decode()``) and :func:`export`."""

    def __init__(self, native):
        self._native = native

    layout = property(lambda self: self._native.layout,
                      doc="The elements as the dump describes them (a :class:`Layout`).")
    vertex_buffers = property(lambda self: self._native.vertex_buffers,
                              doc="``{slot: bytes}``: the buffers (a text dump's values are "
                                  "encoded through the layout by inlay's encoder).")
    strides = property(lambda self: self._native.strides, doc="``{slot: stride}``.")
    offsets = property(lambda self: self._native.offsets, doc="``{slot: bind offset}``.")
    index_buffer = property(lambda self: self._native.index_buffer,
                            doc="The index buffer's bytes, or None.")
    index_format = property(lambda self: self._native.index_format,
                            doc='``"R16_UINT"``, ``"R32_UINT"`` or None.')
    index_offset = property(lambda self: self._native.index_offset,
                            doc="The index buffer's bind offset.")
    topology = property(lambda self: self._native.topology, doc="The primitive topology.")
    draw = property(lambda self: self._native.draw,
                    doc="The draw call as a dict of the conformance schema's ``call`` keys.")
    warnings = property(lambda self: self._native.warnings,
                        doc="What the readers doubted (file:line: message).")
    sources = property(lambda self: self._native.sources, doc="Every file read.")
    name = property(lambda self: self._native.name,
                    doc="The capture's name: the dump's file name without its buffer and shader "
                        "hashes (``LaSignoraFace3Head``, ``000001-vb0=5a1e0001``), a ``.fmt``'s "
                        "stem (``Component 6``).")
    remapped = property(lambda self: self._native.remapped,
                        doc="Per element, the importer's remapped (semantic, index), or None.")

    def decode(self, **overrides):
        """:func:`decode` of the recorded draw; keyword arguments override the dump's."""
        args = dict(
            vertex_buffers=self.vertex_buffers,
            index_buffer=self.index_buffer,
            index_format=self.index_format or "R16_UINT",
            index_offset=self.index_offset,
            topology=self.topology,
            draw=self.draw,
            strides=self.strides,
            offsets=self.offsets,
        )
        args.update(overrides)
        return decode(self.layout, **args)

    def __repr__(self):
        return (f"Dump({self.name!r}, {len(self.layout)} elements, slots {sorted(self.vertex_buffers)}, "
                f"{self.topology}, {self.draw.get('kind')})")


def load_dump(path):
    """Reads a captured draw: a 3DMigoto frame-analysis vb/ib ``.txt`` (with its ``.buf``
    partners found beside it), an importer ``.fmt`` with its ``.vb``/``.ib``, or a RenderDoc
    mesh-view ``.csv``; ``path`` may also be a list of files of one draw. Returns a
    :class:`Dump`. A file that is not there raises ``FileNotFoundError`` (an ``OSError``, as
    ``open`` does); what is wrong inside a file raises :class:`DumpError` naming the file,
    line and value."""
    paths = [path] if isinstance(path, (str, bytes)) or hasattr(path, "__fspath__") else list(path)
    # Absolute paths: the readers compare a file with the partners they find beside it.
    return Dump(_inlay.load_dump([os.path.abspath(os.fsdecode(p)) for p in paths]))


class FrameDraw:
    """One draw of a frame analysis (:func:`load_frame`): ``id`` (``"000123"``), ``number``,
    ``call`` (``"DrawIndexed"``…), ``call_text``, ``index_count``, ``vertex_count``,
    ``instance_count``, ``topology``, ``shaders`` (``{"vs": hash, …}``), ``vbs`` (per slot:
    hash, stride, files), ``ib``, ``layout``, ``problems`` (where its files disagree with the
    log), as ``inlay frame --json`` prints them; :meth:`open` reads it as a :class:`Dump`."""

    def __init__(self, native, record):
        self._native = native
        self.record = record
        self.id = record["draw"]
        for key in ("number", "call", "call_text", "index_count", "vertex_count",
                    "instance_count", "topology", "shaders", "vbs", "ib", "layout", "problems"):
            setattr(self, key, record.get(key))

    def open(self):
        """The draw's files read as a :class:`Dump` (as :func:`load_dump` reads one)."""
        return Dump(self._native.open(self.id))

    def __repr__(self):
        return f"FrameDraw({self.id}, {self.call_text})"


def load_frame(path, select=None):
    """Indexes a 3DMigoto frame-analysis folder (``log.txt``, per-draw dumps, ``deduped/``)
    and returns its draws as :class:`FrameDraw` objects, each openable like a dump.
    ``select`` is a filter as ``inlay frame --select`` takes it (``"vs=…,has=BLENDINDICES"``).
    Raises :class:`DumpError` when the folder cannot be read, ValueError for a bad filter."""
    import json
    native = _inlay.load_frame(os.path.abspath(os.fsdecode(path)), select)
    return [FrameDraw(native, r) for r in json.loads(native.draws_json())]


def export(dump, path, *, instances="first", patch_triangles=False, api="d3d11",
           feature_level=None, pipeline=None):
    """Writes the mesh of a dump's draw (a :class:`Dump`, or a dump path) as ``.glb``,
    ``.gltf`` (with a ``.bin`` beside it), ``.obj`` or ``.ply``, by the extension of ``path``:
    the draw's primitives over exactly the vertex values the input assembler gives.
    ``instances``: ``"first"``, ``"expand"`` or ``"attributes"`` (EXT_mesh_gpu_instancing).
    With ``api="d3d12"``, ``pipeline`` is the pipeline state as for :func:`decode`
    (``ib_strip_cut_value``, ``primitive_topology_type``, ``root_signature_flags``; what
    ``inlay export --api d3d12 --strip-cut ...`` takes): the strip cut decides which index cuts
    a strip. Returns the builder's warnings."""
    if not isinstance(dump, Dump):
        dump = load_dump(dump)
    return _inlay.export(dump._native, path, instances, patch_triangles, api, feature_level,
                         pipeline)


def fmt_text(layout, strides, topology="triangle_list", index_format=None):
    """The text of an importer's ``.fmt`` file (what :func:`load_dump` reads beside ``.vb`` /
    ``.vbN`` and ``.ib`` files): ``strides`` is ``{slot: stride}`` (slot 0 alone is written
    ``stride: N`` for a ``NAME.vb``; otherwise ``vbN stride: N`` for ``NAME.vbN``), then the
    topology, the index format (``"R16_UINT"``/``"R32_UINT"``, or None) and every element of
    ``layout`` (a :class:`Layout` or ELEMENT dicts)."""
    return _inlay.fmt_text(layout, dict(strides), topology, index_format)


# --- Finished 3DMigoto mods (inlay.migoto_mod) --------------------------------------------

class ModPart(Dump):
    """One draw of a mod read by :func:`load_mod`: a :class:`Dump` of its component's buffers
    (one slot per buffer, in the profile's order), its index buffer and its draw, so
    ``part.decode()`` gives its vertices and primitives; plus what the INI says about it."""

    def __init__(self, info, native):
        super().__init__(native)
        self.info = info

    name = property(lambda self: self.info["name"],
                    doc="The section the draw's context is named after (``#n`` for several draws).")
    section = property(lambda self: self.info["section"], doc="The section holding the draw.")
    at = property(lambda self: self.info["at"], doc="``file:line`` of the draw command.")
    component = property(lambda self: self.info["component"],
                         doc="The component (vertex set) whose buffers it draws.")
    conditions = property(lambda self: self.info["conditions"],
                          doc="The conditions the draw depends on, as written.")
    hash = property(lambda self: self.info["hash"], doc="The context's hash (hex), or None.")

    def __repr__(self):
        return (f"ModPart({self.name!r}, {self.info['count']} "
                f"{'indices' if self.info['indexed'] else 'vertices'} from {self.info['start']})")


class Mod:
    """A finished 3DMigoto mod read by :func:`load_mod` for one state: ``parts`` (the drawn
    parts that are mesh data, each a :class:`ModPart`), and ``report`` — what ``inlay mod
    --json`` prints (components with their buffers' layouts, every part with its index range
    and conditions, the profile and its evidence, variables, toggles, warnings)."""

    def __init__(self, report, parts):
        self.report = report
        self.parts = parts

    profile = property(lambda self: self.report["profile"]["name"],
                       doc="The tool family's profile used for the formats, or None.")
    state = property(lambda self: self.report["state"], doc="``{variable: value}`` of the state.")
    toggles = property(lambda self: self.report["toggles"], doc="The ``[Key…]`` sections.")
    warnings = property(lambda self: self.report["warnings"],
                        doc="What the reader did not understand or doubted (file:line: message).")

    def part(self, name):
        """The part named ``name``."""
        for p in self.parts:
            if p.name == name:
                return p
        raise KeyError(name)

    def __repr__(self):
        return f"Mod({self.report['ini']!r}, parts {[p.name for p in self.parts]})"


def load_mod(path, set=None, profile=None):
    """Reads a finished 3DMigoto mod — its INI (with included files), buffers, and any
    ``.fmt``/``hash.json``/``Metadata.json`` beside it — for the default state, with ``set``
    (``{"$swapvar": 1}``) applied. ``profile`` names a tool family's buffer formats (``GIMI``,
    ``SRMI``, ``ZZMI``, ``HIMI``, ``WWMI``, ``NBP``) instead of detecting them. Returns a :class:`Mod`;
    raises :class:`DumpError` naming the file, line and value."""
    import json

    report, natives = _inlay.load_mod(os.fsdecode(path), dict(set or {}), profile)
    report = json.loads(report)
    parts = [ModPart(info, native) for info, native in zip(report["parts"], natives)
             if native is not None]
    return Mod(report, parts)


__all__ += ["Mod", "ModPart", "load_mod"]
