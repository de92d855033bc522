//! Captures: the vertex data modders already have, read into input elements, buffers and a
//! draw (feature `capture`).
//!
//! * [`migoto`] — 3DMigoto frame-analysis text dumps (`…-vb0=HASH….txt`, `…-ib=HASH….txt`)
//!   and the `.buf` binary dumps beside them, several `vbN` files merged by slot;
//! * [`fmt`] — the importers' `.fmt` files with `.vb`/`.vb0`…`.vbN` and `.ib` beside them;
//! * [`csv`] — RenderDoc mesh-view CSV exports (`VTX, IDX, POSITION.x, …`);
//! * [`layout`] — a layout from any of these or from source text ([`read_layout`]), for the
//!   commands that take a layout.
//!
//! Everything becomes one [`Capture`]: the element descriptions exactly as the dump states them
//! (`append` kept as [`APPEND_ALIGNED_ELEMENT`], so offsets are resolved later by
//! `CreateInputLayout`'s rule R26, never by the dump's own per-line `+offset`), per slot either
//! the binary buffer or — only where no binary buffer exists — the values printed in the text,
//! the index buffer, the topology and the draw; [`Capture::slot_bytes`] gives every slot's
//! bytes (a text slot's values encoded through the layout). [`load_dump`] finds a dump's partner files
//! by the dump's naming; [`load_dumps`] merges several named files.
//!
//! Bad input is normal input: every error is a [`CaptureError`] and every doubt a
//! [`CaptureWarning`], both naming the file, the line and the offending value. No input makes
//! a reader panic or allocate more than the input's size justifies.

// Parsers of untrusted text: no unsafe code.
#![forbid(unsafe_code)]

use std::fmt as sfmt;
use std::path::{Path, PathBuf};

use crate::assembler::Topology;
use crate::assembler::draw::DrawCall;
use crate::buffer::IndexFormat;
use crate::element::{APPEND_ALIGNED_ELEMENT, INPUT_PER_INSTANCE_DATA, InputElementDesc};
use crate::format::Format;

mod buffers;
pub mod csv;
pub mod fmt;
pub mod layout;
pub mod migoto;
mod values;

pub use buffers::{CaptureBuffers, MAX_TEXT_BUFFER, SlotBytes};
pub use layout::{LayoutSource, LayoutSourceError, LayoutSyntax, names_layout_text, read_layout};
pub use values::parse_value;

/// Largest file a reader accepts (1 GiB): text dumps of real draws are far smaller, and the
/// limit bounds what one call can allocate.
pub const MAX_FILE_BYTES: u64 = 1 << 30;

/// What a reader could not accept: file, line (1-based, when the problem has one), the
/// offending value and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", render(file, *line, value, message))]
pub struct CaptureError {
    /// The file (as named to the reader).
    pub file: String,
    /// 1-based line, if the problem lies on one.
    pub line: Option<usize>,
    /// The offending text or value (at most 60 characters).
    pub value: Option<String>,
    /// What is wrong, and which rule says so.
    pub message: String,
}

/// A doubt about the input that did not stop the reader (same fields as [`CaptureError`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaptureWarning {
    /// The file.
    pub file: String,
    /// 1-based line, if any.
    pub line: Option<usize>,
    /// The offending text or value.
    pub value: Option<String>,
    /// What is doubtful.
    pub message: String,
}

impl sfmt::Display for CaptureWarning {
    fn fmt(&self, f: &mut sfmt::Formatter<'_>) -> sfmt::Result {
        f.write_str(&render(&self.file, self.line, &self.value, &self.message))
    }
}

fn render(file: &str, line: Option<usize>, value: &Option<String>, message: &str) -> String {
    let mut s = file.to_string();
    if let Some(l) = line {
        s.push_str(&format!(":{l}"));
    }
    s.push_str(": ");
    s.push_str(message);
    if let Some(v) = value {
        s.push_str(&format!(" (`{v}`)"));
    }
    s
}

/// Cuts an offending value down to 60 characters for a message.
pub(crate) fn excerpt(text: &[u8]) -> String {
    let s = String::from_utf8_lossy(text);
    let s = s.trim();
    if s.chars().count() > 60 {
        let mut t: String = s.chars().take(57).collect();
        t.push_str("...");
        t
    } else {
        s.to_string()
    }
}

/// Where an error or warning is: a file and a line.
#[derive(Clone, Copy, Debug)]
pub(crate) struct At<'a> {
    pub file: &'a str,
    pub line: Option<usize>,
}

impl At<'_> {
    pub fn error(&self, value: Option<&[u8]>, message: impl Into<String>) -> CaptureError {
        CaptureError {
            file: self.file.to_string(),
            line: self.line,
            value: value.map(excerpt),
            message: message.into(),
        }
    }

    pub fn warning(&self, value: Option<&[u8]>, message: impl Into<String>) -> CaptureWarning {
        CaptureWarning {
            file: self.file.to_string(),
            line: self.line,
            value: value.map(excerpt),
            message: message.into(),
        }
    }
}

/// Vertex values printed in a text dump, for a slot that has no binary buffer.
///
/// Row `r` holds the element number `first + r` (the vertex the input assembler fetches,
/// counted from the slot's bind offset); each row has one entry per element of the slot, in
/// [`TextVertices::elements`] order, holding the four 32-bit register lanes the text
/// describes (floats as their bits, integers as two's complement) or `None` where the text
/// has no line for it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct TextVertices {
    /// Element number of row 0.
    pub first: u32,
    /// Indices into [`Capture::elements`] of the elements this slot's rows hold.
    pub elements: Vec<usize>,
    /// `rows × elements.len()` entries, row-major.
    pub values: Vec<Option<[u32; 4]>>,
}

impl TextVertices {
    /// Number of rows (vertices) held.
    pub fn rows(&self) -> usize {
        self.values
            .len()
            .checked_div(self.elements.len())
            .unwrap_or(0)
    }

    /// The lanes of capture element `element` for element number `n`, if the text has them.
    pub fn get(&self, element: usize, n: u32) -> Option<[u32; 4]> {
        let k = self.elements.iter().position(|&e| e == element)?;
        let r = n.checked_sub(self.first)? as usize;
        if r >= self.rows() {
            return None;
        }
        self.values[r * self.elements.len() + k]
    }
}

/// The data of one vertex-buffer slot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SlotData {
    /// The buffer's bytes, from the start of the buffer (the bind offset applies).
    Binary(Vec<u8>),
    /// Only the values a text dump printed (no binary buffer exists).
    Text(TextVertices),
}

/// One vertex-buffer slot of a capture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlotCapture {
    /// Slot number.
    pub slot: u32,
    /// `IASetVertexBuffers` stride.
    pub stride: u32,
    /// `IASetVertexBuffers` offset (bytes from the buffer's start).
    pub offset: u32,
    /// The data.
    pub data: SlotData,
    /// The file the data came from.
    pub source: PathBuf,
}

/// The index buffer of a capture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexCapture {
    /// `R16_UINT` or `R32_UINT`.
    pub format: IndexFormat,
    /// `IASetIndexBuffer` offset.
    pub offset: u32,
    /// The buffer's bytes (little-endian indices).
    pub data: Vec<u8>,
    /// The file the data came from.
    pub source: PathBuf,
}

/// The draw a capture records. Counts the dump does not state are `None`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct DrawInfo {
    /// StartVertexLocation (non-indexed draws).
    pub start_vertex: u32,
    /// VertexCount (non-indexed draws).
    pub vertex_count: Option<u32>,
    /// StartIndexLocation.
    pub start_index: u32,
    /// IndexCount (indexed draws).
    pub index_count: Option<u32>,
    /// BaseVertexLocation (indexed draws).
    pub base_vertex: i32,
    /// StartInstanceLocation.
    pub start_instance: u32,
    /// InstanceCount, when the dump states one.
    pub instance_count: Option<u32>,
}

/// A draw read from a dump: elements, buffers, topology and draw parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Capture {
    /// The input elements as the dump describes them (`append` as
    /// [`APPEND_ALIGNED_ELEMENT`]).
    pub elements: Vec<InputElementDesc>,
    /// Per element, the importer's `RemappedSemanticName`/`RemappedSemanticIndex`, if any: the
    /// name a mesh attribute should get (the layout keeps the game's name).
    pub remapped: Vec<Option<(String, u32)>>,
    /// Vertex-buffer slots, in increasing slot order.
    pub slots: Vec<SlotCapture>,
    /// The index buffer, for indexed draws.
    pub index: Option<IndexCapture>,
    /// The primitive topology.
    pub topology: Topology,
    /// The draw parameters.
    pub draw: DrawInfo,
    /// What the readers doubted.
    pub warnings: Vec<CaptureWarning>,
    /// Every file read.
    pub sources: Vec<PathBuf>,
}

impl Capture {
    /// The draw call this capture records: indexed when it has an index buffer, instanced when
    /// it has per-instance elements or states an instance count. Missing counts are taken
    /// from the data: the index buffer's entries after the start index, or the vertices every
    /// per-vertex slot holds after the start vertex.
    pub fn draw_call(&self) -> DrawCall<'static> {
        let d = self.draw;
        let instanced = d.instance_count.is_some()
            || self
                .elements
                .iter()
                .any(|e| e.input_slot_class == INPUT_PER_INSTANCE_DATA);
        let instances = d.instance_count.unwrap_or(1);
        if let Some(ib) = &self.index {
            let available = ((ib.data.len() as u64).saturating_sub(ib.offset as u64)
                / ib.format.size() as u64)
                .saturating_sub(d.start_index as u64);
            let count = d
                .index_count
                .unwrap_or(u32::try_from(available).unwrap_or(u32::MAX));
            if instanced {
                DrawCall::DrawIndexedInstanced {
                    index_count_per_instance: count,
                    instance_count: instances,
                    start_index: d.start_index,
                    base_vertex: d.base_vertex,
                    start_instance: d.start_instance,
                }
            } else {
                DrawCall::DrawIndexed {
                    index_count: count,
                    start_index: d.start_index,
                    base_vertex: d.base_vertex,
                }
            }
        } else {
            let count = d.vertex_count.unwrap_or_else(|| self.vertices_available());
            if instanced {
                DrawCall::DrawInstanced {
                    vertex_count_per_instance: count,
                    instance_count: instances,
                    start_vertex: d.start_vertex,
                    start_instance: d.start_instance,
                }
            } else {
                DrawCall::Draw {
                    vertex_count: count,
                    start_vertex: d.start_vertex,
                }
            }
        }
    }

    /// Vertices every per-vertex slot holds after the start vertex.
    fn vertices_available(&self) -> u32 {
        let mut n: Option<u64> = None;
        for s in &self.slots {
            let per_vertex = self
                .elements
                .iter()
                .any(|e| e.input_slot == s.slot && e.input_slot_class != INPUT_PER_INSTANCE_DATA);
            if !per_vertex {
                continue;
            }
            let held = match &s.data {
                SlotData::Binary(b) => {
                    if s.stride == 0 {
                        continue;
                    }
                    (b.len() as u64).saturating_sub(s.offset as u64) / s.stride as u64
                }
                SlotData::Text(t) => t.first as u64 + t.rows() as u64,
            };
            let held = held.saturating_sub(self.draw.start_vertex as u64);
            n = Some(n.map_or(held, |m| m.min(held)));
        }
        u32::try_from(n.unwrap_or(0)).unwrap_or(u32::MAX)
    }

    /// The capture's name, for a mesh or an object made from it: the first file's stem without
    /// a 3DMigoto dump's buffer and shader parts (`LaSignoraFace3Head-vb0=842ec7a5.txt` →
    /// `LaSignoraFace3Head`), keeping the buffer's hash when the rest is only a draw number
    /// (`000001-vb0=5a1e0001-vs=9c1f….txt` → `000001-vb0=5a1e0001`); an importer's `.fmt`
    /// or a CSV by its stem (`Component 6`). `capture` when there is no file name.
    pub fn name(&self) -> String {
        capture_name(self.sources.first().map(PathBuf::as_path))
    }

    /// The slot capture of `slot`, if any.
    pub fn slot(&self, slot: u32) -> Option<&SlotCapture> {
        self.slots.iter().find(|s| s.slot == slot)
    }
}

/// A 3DMigoto dump name's prefix and its buffer part (`vb0=HASH` or `ib=HASH`), if it has one.
/// The name of a capture whose first source file is `first` ([`Capture::name`], the one rule
/// for every shell and exporter): a 3DMigoto dump's prefix (its buffer hash kept when the prefix
/// is only a draw number), else the file's stem; `capture` when there is none.
///
/// ```
/// use std::path::Path;
/// use inlay::capture::capture_name;
/// assert_eq!(capture_name(Some(Path::new("d/LaSignoraFace3Head-vb0=842ec7a5.txt"))), "LaSignoraFace3Head");
/// assert_eq!(capture_name(Some(Path::new("000001-vb0=5a1e0001-vs=9c1f3e2d7b6a5c48.txt"))), "000001-vb0=5a1e0001");
/// assert_eq!(capture_name(Some(Path::new("Rover/Component 6.fmt"))), "Component 6");
/// assert_eq!(capture_name(None), "capture");
/// ```
pub fn capture_name(first: Option<&Path>) -> String {
    let stem = first
        .and_then(|p| p.file_stem())
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match migoto_parts(&stem) {
        Some((prefix, buffer)) if prefix.bytes().all(|b| b.is_ascii_digit()) => {
            format!("{prefix}-{buffer}")
        }
        Some((prefix, _)) => prefix.to_string(),
        None => stem,
    };
    if name.is_empty() {
        "capture".to_string()
    } else {
        name
    }
}

fn migoto_parts(stem: &str) -> Option<(&str, &str)> {
    let at = stem.match_indices('-').map(|(i, _)| i).find(|&i| {
        let rest = &stem[i + 1..];
        rest.starts_with("ib=")
            || (rest.starts_with("vb")
                && rest[2..]
                    .trim_start_matches(|c: char| c.is_ascii_digit())
                    .starts_with('='))
    })?;
    let rest = &stem[at + 1..];
    let buffer = rest.split('-').next().unwrap_or(rest);
    Some((&stem[..at], buffer))
}

/// Reads a dump and the files that belong with it, by the dump's naming:
///
/// * a 3DMigoto vb text dump `PREFIXvbN=HASH….txt` finds the other slots' `PREFIXvbM=….txt`,
///   the index dump `PREFIXib=….txt` and each one's `.buf` binary beside it (same name,
///   `.buf`), in the same folder;
/// * an ib text dump finds its vb dumps the same way;
/// * an importer `.fmt` finds `NAME.vb` or `NAME.vb0`…`NAME.vbN` and `NAME.ib`;
/// * a `.csv` is read as a RenderDoc mesh-view export.
///
/// ```no_run
/// let capture = inlay::capture::load_dump("Mona-vb0=12345678.txt".as_ref()).unwrap();
/// for w in &capture.warnings { eprintln!("warning: {w}"); }
/// ```
pub fn load_dump(path: &Path) -> Result<Capture, CaptureError> {
    load_dumps(&[path.to_path_buf()])
}

/// Reads several dump files of one draw (any mix of vb/ib text dumps, `.buf` files, one
/// `.fmt`, one `.csv`) and merges them by slot; partners not named are found as
/// [`load_dump`] does.
pub fn load_dumps(paths: &[PathBuf]) -> Result<Capture, CaptureError> {
    let Some(first) = paths.first() else {
        return Err(CaptureError {
            file: String::new(),
            line: None,
            value: None,
            message: "no dump file given".into(),
        });
    };
    match kind_of(first) {
        DumpKind::Fmt => fmt::load(first, &paths[1..]),
        DumpKind::Csv => {
            if paths.len() > 1 {
                return Err(At {
                    file: &name_of(&paths[1]),
                    line: None,
                }
                .error(None, "a RenderDoc CSV export is read alone"));
            }
            let bytes = read_file(first)?;
            let mut c = csv::parse(&name_of(first), &bytes)?;
            c.sources = vec![first.clone()];
            for s in &mut c.slots {
                s.source = first.clone();
            }
            Ok(c)
        }
        DumpKind::Migoto => migoto::load(paths),
    }
}

enum DumpKind {
    Fmt,
    Csv,
    Migoto,
}

fn kind_of(path: &Path) -> DumpKind {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(|e| e.to_ascii_lowercase())
        .as_deref()
    {
        Some("fmt") => DumpKind::Fmt,
        Some("csv") => DumpKind::Csv,
        _ => DumpKind::Migoto,
    }
}

/// The file name used in messages: the path as given.
pub(crate) fn name_of(path: &Path) -> String {
    path.display().to_string()
}

/// Reads a whole file through the library's one checked reader ([`crate::input::read_file`]):
/// files above [`MAX_FILE_BYTES`], devices, pipes and directories are refused without reading.
pub(crate) fn read_file(path: &Path) -> Result<Vec<u8>, CaptureError> {
    let file = name_of(path);
    crate::input::read_file(path, MAX_FILE_BYTES).map_err(|e| {
        At {
            file: &file,
            line: None,
        }
        .error(None, why_unread(&e))
    })
}

/// Why a dump file was not read, for a message that names the file itself.
pub(crate) fn why_unread(e: &crate::input::ReadError) -> String {
    use crate::input::ReadError;
    match e {
        ReadError::Io { source, .. } => format!("cannot read: {source}"),
        ReadError::TooLarge {
            size: Some(size), ..
        } => format!("{size} bytes is larger than the {MAX_FILE_BYTES}-byte limit of a dump file"),
        ReadError::TooLarge { size: None, .. } => {
            format!("larger than the {MAX_FILE_BYTES}-byte limit of a dump file")
        }
        ReadError::Directory { .. } => "cannot read: it is a directory".into(),
        ReadError::NotAFile { what, why, .. } => {
            format!("refusing to read: it is {what}, not a file ({why})")
        }
    }
}

/// Splits text into lines (`\n`, with a trailing `\r` removed), numbered from 1.
pub(crate) fn lines(text: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    text.split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .enumerate()
        .map(|(i, l)| (i + 1, l))
}

/// Trims ASCII white space.
pub(crate) fn trim(s: &[u8]) -> &[u8] {
    s.trim_ascii()
}

/// Parses an unsigned decimal (or `0x` hexadecimal) number ([`crate::text::parse_u32`]).
pub(crate) fn parse_u32(s: &[u8]) -> Option<u32> {
    crate::text::parse_u32(std::str::from_utf8(s).ok()?)
}

/// Parses a `D3D11_PRIMITIVE_TOPOLOGY` as dumps spell it: `trianglelist`,
/// `D3D11_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP`, `trianglelist_adj`, `3_control_point_patchlist`,
/// the schema names, or the number.
pub fn parse_topology(s: &str) -> Option<Topology> {
    if let Ok(t) = s.parse::<Topology>() {
        return Some(t);
    }
    let t = s.trim().to_ascii_lowercase();
    let t = [
        "d3d_primitive_topology_",
        "d3d11_primitive_topology_",
        "d3d10_primitive_topology_",
    ]
    .iter()
    .find_map(|p| t.strip_prefix(p))
    .unwrap_or(&t)
    .to_string();
    let squash = |x: &str| x.replace('_', "");
    let wanted = squash(&t);
    let basic = [
        Topology::PointList,
        Topology::LineList,
        Topology::LineStrip,
        Topology::TriangleList,
        Topology::TriangleStrip,
        Topology::LineListAdj,
        Topology::LineStripAdj,
        Topology::TriangleListAdj,
        Topology::TriangleStripAdj,
    ];
    for b in basic {
        if squash(&b.name()) == wanted {
            return Some(b);
        }
    }
    // `N_control_point_patchlist` in any squashing.
    let n: String = wanted.chars().take_while(|c| c.is_ascii_digit()).collect();
    if !n.is_empty() && wanted[n.len()..] == *"controlpointpatchlist" {
        return n
            .parse::<u8>()
            .ok()
            .filter(|n| (1..=32).contains(n))
            .map(Topology::PatchList);
    }
    None
}

/// Parses an index format (`DXGI_FORMAT_R16_UINT`, `R32_UINT`, 3DMigoto's DX9
/// `D3DFMT_INDEX16`/`D3DFMT_INDEX32`).
pub fn parse_index_format(s: &str) -> Option<IndexFormat> {
    match s.trim().to_ascii_uppercase().as_str() {
        "D3DFMT_INDEX16" => Some(IndexFormat::R16Uint),
        "D3DFMT_INDEX32" => Some(IndexFormat::R32Uint),
        _ => s.parse().ok(),
    }
}

/// One `element[i]:` block being read (3DMigoto vb dumps and `.fmt` files share it).
#[derive(Clone, Debug, Default)]
pub(crate) struct ElementBlock {
    pub desc: Option<InputElementDesc>,
    pub remapped_name: Option<String>,
    pub remapped_index: Option<u32>,
}

/// Reads one `  Key: value` line of an element block into `block`. Returns `Ok(false)` when
/// the key is not an element key.
pub(crate) fn element_field(
    at: At<'_>,
    block: &mut ElementBlock,
    key: &[u8],
    value: &[u8],
    warnings: &mut Vec<CaptureWarning>,
) -> Result<bool, CaptureError> {
    let d = block.desc.get_or_insert_with(|| InputElementDesc {
        semantic_name: Some(String::new()),
        semantic_index: 0,
        format: Format(0),
        input_slot: 0,
        aligned_byte_offset: APPEND_ALIGNED_ELEMENT,
        input_slot_class: 0,
        instance_data_step_rate: 0,
    });
    let text = String::from_utf8_lossy(value).trim().to_string();
    let num = |what: &str| {
        parse_u32(value).ok_or_else(|| {
            at.error(
                Some(value),
                format!("{what} must be a number from 0 to 4294967295"),
            )
        })
    };
    match key {
        b"SemanticName" => {
            crate::element::check_semantic_name(&text).map_err(|m| at.error(Some(value), m))?;
            d.semantic_name = Some(text)
        }
        b"SemanticIndex" => d.semantic_index = num("SemanticIndex")?,
        b"Format" => {
            d.format = text.parse::<Format>().map_err(|_| {
                at.error(
                    Some(value),
                    "unknown DXGI format (expected a name such as R32G32B32_FLOAT)",
                )
            })?;
            if d.format.info().is_none() {
                return Err(at.error(Some(value), "not a DXGI_FORMAT value"));
            }
        }
        b"InputSlot" => d.input_slot = num("InputSlot")?,
        b"AlignedByteOffset" => {
            d.aligned_byte_offset = if text.eq_ignore_ascii_case("append") {
                APPEND_ALIGNED_ELEMENT
            } else {
                num("AlignedByteOffset")?
            }
        }
        b"InputSlotClass" => {
            d.input_slot_class = match text.to_ascii_lowercase().as_str() {
                "per-vertex" | "per_vertex" | "d3d11_input_per_vertex_data" | "0" => 0,
                "per-instance" | "per_instance" | "d3d11_input_per_instance_data" | "1" => 1,
                _ => {
                    return Err(at.error(
                        Some(value),
                        "InputSlotClass must be per-vertex or per-instance",
                    ));
                }
            }
        }
        b"InstanceDataStepRate" => d.instance_data_step_rate = num("InstanceDataStepRate")?,
        b"RemappedSemanticName" => block.remapped_name = Some(text),
        b"RemappedSemanticIndex" => block.remapped_index = Some(num("RemappedSemanticIndex")?),
        // 3DMigoto's DX9 build prints D3DVERTEXELEMENT9 fields; they are not D3D11 layouts.
        b"Offset" | b"Method" => {
            return Err(at.error(
                Some(key),
                "a Direct3D 9 vertex declaration (Offset/Method), not a D3D10/11 input layout",
            ));
        }
        _ => {
            warnings.push(at.warning(Some(key), "unknown element field ignored"));
        }
    }
    Ok(true)
}

/// Elements with their remapped names, as the readers return them.
pub(crate) type Elements = (Vec<InputElementDesc>, Vec<Option<(String, u32)>>);

/// Finishes element blocks: every block needs a name and a format.
pub(crate) fn finish_elements(
    file: &str,
    blocks: Vec<(usize, ElementBlock)>,
) -> Result<Elements, CaptureError> {
    let mut elements = Vec::with_capacity(blocks.len());
    let mut remapped = Vec::with_capacity(blocks.len());
    for (line, b) in blocks {
        let at = At {
            file,
            line: Some(line),
        };
        let Some(d) = b.desc else {
            return Err(at.error(None, "element block without fields"));
        };
        if d.format.0 == 0 {
            return Err(at.error(None, "element block without a Format line"));
        }
        if d.semantic_name.as_deref().is_none_or(str::is_empty) {
            return Err(at.error(None, "element block without a SemanticName line"));
        }
        remapped.push(
            b.remapped_name
                .map(|n| (n, b.remapped_index.unwrap_or(d.semantic_index))),
        );
        elements.push(d);
    }
    Ok((elements, remapped))
}

/// Bytes of `n` little-endian indices of `format` from `values`.
pub(crate) fn index_bytes(format: IndexFormat, values: &[u32]) -> Vec<u8> {
    let size = format.size() as usize;
    let mut out = Vec::with_capacity(values.len() * size);
    for &v in values {
        // The low `size` bytes, little-endian (a value too large is truncated to them).
        out.extend_from_slice(&v.to_le_bytes()[..size]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capture_names() {
        let named = |file: &str| {
            Capture {
                elements: vec![],
                remapped: vec![],
                slots: vec![],
                index: None,
                topology: Topology::TriangleList,
                draw: DrawInfo::default(),
                warnings: vec![],
                sources: vec![PathBuf::from("/x/y").join(file)],
            }
            .name()
        };
        assert_eq!(
            named("LaSignoraFace3Head-vb0=842ec7a5.txt"),
            "LaSignoraFace3Head"
        );
        assert_eq!(named("AlbedoExtra-ib=35a9a3e9.txt"), "AlbedoExtra");
        assert_eq!(
            named("000001-vb0=5a1e0001-vs=9c1f3e2d7b6a5c48.txt"),
            "000001-vb0=5a1e0001"
        );
        assert_eq!(named("000007-vb12=aa-vs=1-ps=2.buf"), "000007-vb12=aa");
        assert_eq!(named("Component 6.fmt"), "Component 6");
        assert_eq!(named("my-vbo-mesh.csv"), "my-vbo-mesh");
        assert_eq!(named(""), "y");
    }

    #[test]
    fn topologies_as_dumps_spell_them() {
        assert_eq!(parse_topology("trianglelist"), Some(Topology::TriangleList));
        assert_eq!(
            parse_topology("D3D11_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP"),
            Some(Topology::TriangleStrip)
        );
        assert_eq!(
            parse_topology("trianglelist_adj"),
            Some(Topology::TriangleListAdj)
        );
        assert_eq!(
            parse_topology("4_control_point_patchlist"),
            Some(Topology::PatchList(4))
        );
        assert_eq!(parse_topology("33_control_point_patchlist"), None);
        assert_eq!(parse_topology("trianglesfan"), None);
        assert_eq!(parse_topology("4"), Some(Topology::TriangleList));
    }

    #[test]
    fn index_formats() {
        assert_eq!(
            parse_index_format("DXGI_FORMAT_R16_UINT"),
            Some(IndexFormat::R16Uint)
        );
        assert_eq!(
            parse_index_format("D3DFMT_INDEX32"),
            Some(IndexFormat::R32Uint)
        );
        assert_eq!(parse_index_format("DXGI_FORMAT_R8_UINT"), None);
    }

    #[test]
    fn messages_name_file_line_and_value() {
        let e = At {
            file: "a.txt",
            line: Some(7),
        }
        .error(Some(b"  R99_FLOAT "), "unknown DXGI format");
        assert_eq!(e.to_string(), "a.txt:7: unknown DXGI format (`R99_FLOAT`)");
        let long = vec![b'x'; 100];
        assert_eq!(excerpt(&long).chars().count(), 60);
    }
}
