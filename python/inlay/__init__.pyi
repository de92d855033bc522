"""Type stubs of the `inlay` package (the native module is `inlay._inlay`)."""

from os import PathLike
from typing import Any, Dict, List, Literal, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str

# A bytes-like object read in place: bytes, bytearray, memoryview, a C-contiguous ndarray.
Buffer = Union[bytes, bytearray, memoryview, npt.NDArray[Any]]
# An ELEMENT dict of the conformance schema: semantic, index, format, slot, offset, class,
# step_rate.
Element = Dict[str, Any]
HResult = Literal["S_OK", "S_FALSE", "E_INVALIDARG"]
Severity = Literal["error", "warning", "info"]
FormatKind = Literal["float", "unorm", "snorm", "uint", "sint"]

class LayoutError(ValueError):
    """Base class of every error inlay raises for bad input."""

class ParseError(LayoutError):
    """A layout source that cannot be read."""
    source_name: str
    line: int
    column: int
    found: str

class CreateError(LayoutError):
    """CreateInputLayout refused the layout."""
    hresult: HResult
    diagnostics: List[Diagnostic]

class DrawError(LayoutError):
    """The input assembler refused a binding, a topology or a draw call."""

class DumpError(LayoutError):
    """A capture dump that cannot be read or exported (names the file, line and value)."""

class Layout:
    """An input element array read from a layout source."""
    @staticmethod
    def from_source(text: str, array: Optional[str] = None) -> Layout: ...
    @staticmethod
    def from_file(path: Union[str, PathLike[str]], array: Optional[str] = None) -> Layout: ...
    @staticmethod
    def from_elements(elements: Sequence[Mapping[str, Any]]) -> Layout: ...
    @property
    def elements(self) -> List[Element]: ...
    @property
    def name(self) -> Optional[str]: ...
    @property
    def syntax(self) -> str: ...
    def __len__(self) -> int: ...

class Diagnostic:
    """One debug-layer message."""
    @property
    def id(self) -> int: ...
    @property
    def name(self) -> Optional[str]: ...
    @property
    def severity(self) -> Severity: ...
    @property
    def element(self) -> Optional[int]: ...
    @property
    def message(self) -> str: ...

class InputLayout:
    """What CreateInputLayout returned."""
    @property
    def hresult(self) -> HResult: ...
    @property
    def ok(self) -> bool: ...
    @property
    def diagnostics(self) -> List[Diagnostic]: ...
    @property
    def offsets(self) -> Optional[List[int]]: ...
    @property
    def registers(self) -> Optional[List[Optional[int]]]: ...
    @property
    def strides(self) -> Optional[Dict[int, int]]: ...
    @property
    def elements(self) -> Optional[List[Element]]: ...
    @property
    def api(self) -> str: ...
    @property
    def feature_level(self) -> str: ...
    def check(self) -> InputLayout: ...
    def __bool__(self) -> bool: ...

LayoutLike = Union[Layout, InputLayout, Sequence[Mapping[str, Any]]]
PerSlot = Union[int, Mapping[int, int], Sequence[Optional[int]]]

def create_input_layout(
    layout_or_elements: Union[Layout, Sequence[Mapping[str, Any]]],
    shader: Optional[Buffer] = None,
    api: str = "d3d11",
    feature_level: Optional[str] = None,
    validate_only: bool = False,
    pipeline: Optional[Mapping[str, int]] = None,
) -> InputLayout: ...
def decode(
    layout: LayoutLike,
    vertex_buffers: Union[Buffer, Mapping[int, Buffer], Sequence[Optional[Buffer]]],
    index_buffer: Optional[Buffer] = None,
    index_format: str = "R16_UINT",
    topology: str = "triangle_list",
    draw: Optional[Mapping[str, Any]] = None,
    strides: Optional[PerSlot] = None,
    *,
    offsets: Optional[PerSlot] = None,
    index_offset: int = 0,
    api: str = "d3d11",
    feature_level: Optional[str] = None,
    primitives: bool = True,
    system_values: bool = True,
    out: Optional[Mapping[str, np.ndarray]] = None,
    threads: Optional[int] = None,
    pipeline: Optional[Mapping[str, int]] = None,
) -> Dict[str, np.ndarray]: ...
def encode(
    layout: LayoutLike,
    arrays: Mapping[str, npt.ArrayLike],
    vertex_count: Optional[int] = None,
    rounding: Literal["nearest", "d3d"] = "nearest",
    *,
    strides: Optional[PerSlot] = None,
    instance_count: Optional[int] = None,
    padding: int = 0,
    api: str = "d3d11",
    feature_level: Optional[str] = None,
    original: Optional[Mapping[int, Buffer]] = None,
    warnings: Optional[List[str]] = None,
    clamp: bool = False,
) -> Dict[int, bytes]: ...
def format_info(format: str) -> Tuple[str, int, int, Optional[FormatKind]]: ...

class Dump:
    """A captured draw read by :func:`load_dump`."""
    @property
    def layout(self) -> Layout: ...
    @property
    def vertex_buffers(self) -> Dict[int, bytes]: ...
    @property
    def strides(self) -> Dict[int, int]: ...
    @property
    def offsets(self) -> Dict[int, int]: ...
    @property
    def index_buffer(self) -> Optional[bytes]: ...
    @property
    def index_format(self) -> Optional[Literal["R16_UINT", "R32_UINT"]]: ...
    @property
    def index_offset(self) -> int: ...
    @property
    def topology(self) -> str: ...
    @property
    def draw(self) -> Dict[str, Any]: ...
    @property
    def warnings(self) -> List[str]: ...
    @property
    def sources(self) -> List[str]: ...
    @property
    def name(self) -> str: ...
    @property
    def remapped(self) -> List[Optional[Tuple[str, int]]]: ...
    def decode(self, **overrides: Any) -> Dict[str, np.ndarray]: ...

DumpPath = Union[str, bytes, PathLike[str]]

def load_dump(path: Union[DumpPath, Sequence[DumpPath]]) -> Dump: ...

class FrameDraw:
    """One draw of a frame analysis read by :func:`load_frame` (its ``inlay frame --json`` record)."""
    record: Dict[str, Any]
    id: str
    number: Optional[int]
    call: Optional[str]
    call_text: Optional[str]
    index_count: Optional[int]
    vertex_count: Optional[int]
    instance_count: Optional[int]
    topology: Optional[str]
    shaders: Optional[Dict[str, str]]
    vbs: Any
    ib: Any
    layout: Any
    problems: Any
    def open(self) -> Dump: ...

def load_frame(path: Union[str, PathLike[str]], select: Optional[str] = ...) -> List[FrameDraw]: ...

def export(
    dump: Union[Dump, DumpPath, Sequence[DumpPath]],
    path: Union[str, PathLike[str]],
    *,
    instances: Literal["first", "expand", "attributes"] = "first",
    patch_triangles: bool = False,
    api: str = "d3d11",
    feature_level: Optional[str] = None,
    pipeline: Optional[Mapping[str, int]] = None,
) -> List[str]: ...


# --- Finished 3DMigoto mods ---------------------------------------------------------------

class ModPart(Dump):
    """One draw of a mod read by :func:`load_mod` (a :class:`Dump` of its buffers and draw)."""
    info: Dict[str, Any]
    @property
    def name(self) -> str: ...
    @property
    def section(self) -> str: ...
    @property
    def at(self) -> str: ...
    @property
    def component(self) -> Optional[str]: ...
    @property
    def conditions(self) -> List[str]: ...
    @property
    def hash(self) -> Optional[str]: ...

class Mod:
    """A finished 3DMigoto mod read by :func:`load_mod` for one state."""
    report: Dict[str, Any]
    parts: List[ModPart]
    @property
    def profile(self) -> Optional[str]: ...
    @property
    def state(self) -> Dict[str, float]: ...
    @property
    def toggles(self) -> List[Dict[str, Any]]: ...
    @property
    def warnings(self) -> List[str]: ...
    def part(self, name: str) -> ModPart: ...

def load_mod(
    path: Union[str, PathLike[str]],
    set: Optional[Mapping[str, float]] = ...,
    profile: Optional[str] = ...,
) -> Mod: ...

def fmt_text(
    layout: LayoutLike,
    strides: Mapping[int, int],
    topology: str = "triangle_list",
    index_format: Optional[Literal["R16_UINT", "R32_UINT"]] = None,
) -> str: ...
