//! 3DMigoto frame-analysis dumps: `vbN` and `ib` text files and the `.buf` binaries beside
//! them.
//!
//! A vb text dump holds header lines (`byte offset`, `stride`, `first vertex`, `vertex count`,
//! `first instance`, `instance count`, `topology`), the input layout as `element[i]:` blocks
//! (`SemanticName` … `InstanceDataStepRate`, `AlignedByteOffset: append` for
//! `D3D11_APPEND_ALIGNED_ELEMENT`), then `vertex-data:` (or `instance-data:`) lines
//! `vbN[i]+OOO NAME: v, v, …`, one per element of slot N, a blank line between vertices. An ib
//! text dump holds `byte offset`, `first index`, `index count`, `topology`,
//! `format: DXGI_FORMAT_R16_UINT` and the indices.
//!
//! Rules this reader follows (each a choice where the dumps leave a question open):
//! * the `+OOO` of a data line is never used: offsets come from the layout, `append` resolved
//!   by `CreateInputLayout`'s rule (R26). 3DMigoto prints an appended element at `+000` and
//!   decodes it from there, so text values of an appended element whose real offset is not
//!   0 are wrong: they are dropped with a warning, and the element reads as missing;
//! * text values are used only for a slot with no `.buf` beside its text file;
//! * `vbN[i]` is vertex `i` of the dump, which starts at `first vertex` (3DMigoto's dumper
//!   prints `vertex − start`), so it is element number `first vertex + i`; for an indexed
//!   draw `first vertex` is taken as BaseVertexLocation;
//! * the text of an ib dump starts at `first index` (3DMigoto prints from there), so a text-only
//!   index buffer holds exactly the listed indices and the draw starts at 0;
//! * `# WARNING` lines (3DMigoto's own doubts) become warnings.

use std::path::{Path, PathBuf};

use super::{
    At, Capture, CaptureError, CaptureWarning, DrawInfo, ElementBlock, IndexCapture, SlotCapture,
    SlotData, TextVertices, element_field, finish_elements, index_bytes, lines, name_of,
    parse_index_format, parse_topology, parse_u32, read_file, trim,
};
use crate::assembler::Topology;
use crate::buffer::IndexFormat;
use crate::element::{APPEND_ALIGNED_ELEMENT, INPUT_PER_INSTANCE_DATA, InputElementDesc};
use crate::format::{FormatInfo, Kind};
use crate::validation::layout_without_shader;

/// Most warnings one file contributes (the rest are counted in one last warning).
const MAX_WARNINGS_PER_FILE: usize = 64;

/// A parsed vb text dump.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VbText {
    /// `byte offset` (the bind offset), 0 when absent.
    pub byte_offset: u32,
    /// `stride`.
    pub stride: Option<u32>,
    /// `first vertex`.
    pub first_vertex: u32,
    /// `vertex count`.
    pub vertex_count: Option<u32>,
    /// `first instance`.
    pub first_instance: u32,
    /// `instance count`.
    pub instance_count: Option<u32>,
    /// `topology`.
    pub topology: Option<Topology>,
    /// The layout's elements, in `element[i]` order.
    pub elements: Vec<InputElementDesc>,
    /// `RemappedSemanticName`/`Index` per element.
    pub remapped: Vec<Option<(String, u32)>>,
    /// The slot the data lines belong to (`vbN`), if any data line was read.
    pub slot: Option<u32>,
    /// The values of the data lines (read only when asked for).
    pub values: Option<TextVertices>,
    /// Warnings.
    pub warnings: Vec<CaptureWarning>,
}

/// A parsed ib text dump.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IbText {
    /// `byte offset`.
    pub byte_offset: u32,
    /// `first index`.
    pub first_index: u32,
    /// `index count`.
    pub index_count: Option<u32>,
    /// `topology`.
    pub topology: Option<Topology>,
    /// `format`.
    pub format: IndexFormat,
    /// The index values listed.
    pub indices: Vec<u32>,
    /// Warnings.
    pub warnings: Vec<CaptureWarning>,
}

struct Warnings<'a> {
    file: &'a str,
    list: Vec<CaptureWarning>,
    dropped: usize,
}

impl Warnings<'_> {
    fn push(&mut self, w: CaptureWarning) {
        if self.list.len() < MAX_WARNINGS_PER_FILE {
            self.list.push(w);
        } else {
            self.dropped += 1;
        }
    }

    fn finish(mut self) -> Vec<CaptureWarning> {
        if self.dropped > 0 {
            self.list.push(CaptureWarning {
                file: self.file.to_string(),
                line: None,
                value: None,
                message: format!("{} more warnings like the above", self.dropped),
            });
        }
        self.list
    }
}

/// Splits `key: value` at the first colon.
fn key_value(line: &[u8]) -> Option<(&[u8], &[u8])> {
    let c = line.iter().position(|&b| b == b':')?;
    Some((trim(&line[..c]), trim(&line[c + 1..])))
}

/// The name 3DMigoto prints for an element on a data line: the semantic name, then the index
/// when it is not 0.
fn print_name(e: &InputElementDesc) -> Vec<u8> {
    let mut n = e.name().unwrap_or("").as_bytes().to_vec();
    if e.semantic_index != 0 {
        n.extend_from_slice(e.semantic_index.to_string().as_bytes());
    }
    n
}

/// `vbN[i]+OOO NAME: values` → (N, i, NAME, values).
fn data_line(line: &[u8]) -> Option<(u32, u32, &[u8], &[u8])> {
    let rest = line
        .strip_prefix(b"vb")
        .or_else(|| line.strip_prefix(b"ib"))?;
    let open = rest.iter().position(|&b| b == b'[')?;
    let slot = parse_u32(&rest[..open])?;
    let rest = &rest[open + 1..];
    let close = rest.iter().position(|&b| b == b']')?;
    let index = parse_u32(&rest[..close])?;
    let rest = &rest[close + 1..];
    // `+OOO` (ignored), then white space, the name, a colon.
    let rest = match rest.strip_prefix(b"+") {
        Some(r) => {
            let digits = r.iter().take_while(|b| b.is_ascii_digit()).count();
            &r[digits..]
        }
        None => rest,
    };
    let colon = rest.iter().position(|&b| b == b':')?;
    Some((slot, index, trim(&rest[..colon]), &rest[colon + 1..]))
}

/// Lanes of one element from its printed values (in lane order x, y, z, w), defaults where the
/// format has no component. Returns the problem with the first bad value.
fn element_lanes(info: &FormatInfo, values: &[u8]) -> Result<[u32; 4], (Option<Vec<u8>>, String)> {
    let mut lanes = [0, 0, 0, info.default_lane(3)];
    let mut components: Vec<(usize, Kind, u8)> = info
        .present()
        .filter_map(|c| c.channel.lane().map(|l| (l, c.kind, c.bits)))
        .collect();
    components.sort_unstable_by_key(|c| c.0);
    let mut n = 0;
    for v in values.split(|&b| b == b',') {
        let v = trim(v);
        if v.is_empty() && n == 0 && components.is_empty() {
            break;
        }
        let Some(&(lane, kind, bits)) = components.get(n) else {
            return Err((
                Some(values.to_vec()),
                format!(
                    "{} values for a {}-component format {}",
                    values.split(|&b| b == b',').count(),
                    components.len(),
                    info.name
                ),
            ));
        };
        let x = super::parse_value(v, kind)
            .map_err(|why| (Some(v.to_vec()), format!("{why} ({})", info.name)))?;
        let fits = match kind {
            Kind::Uint => bits >= 32 || x < (1u32 << bits),
            Kind::Sint => {
                let s = x as i32 as i64;
                bits >= 32 || (s >= -(1i64 << (bits - 1)) && s < (1i64 << (bits - 1)))
            }
            Kind::Unorm => {
                let f = f32::from_bits(x);
                f.is_nan() || (0.0..=1.0).contains(&f)
            }
            Kind::Snorm => {
                let f = f32::from_bits(x);
                f.is_nan() || (-1.0..=1.0).contains(&f)
            }
            _ => true,
        };
        if !fits {
            return Err((
                Some(v.to_vec()),
                format!(
                    "value outside what a {bits}-bit {kind:?} component of {} can hold",
                    info.name
                ),
            ));
        }
        lanes[lane] = x;
        n += 1;
    }
    if n != components.len() {
        return Err((
            Some(values.to_vec()),
            format!(
                "{n} values for a {}-component format {}",
                components.len(),
                info.name
            ),
        ));
    }
    Ok(lanes)
}

/// Parses a vb text dump. With `values`, the data lines are read into
/// [`VbText::values`]; without, only the header and layout are read (a `.buf` holds the data).
pub fn parse_vb_txt(file: &str, text: &[u8], values: bool) -> Result<VbText, CaptureError> {
    let mut out = VbText::default();
    let mut warnings = Warnings {
        file,
        list: Vec::new(),
        dropped: 0,
    };
    let mut blocks: Vec<(usize, ElementBlock)> = Vec::new();
    let mut header_lines: [Option<usize>; 2] = [None, None];
    let mut data_started = false;
    let mut section_instance = false;
    // Data state, set up at the first data line.
    struct Data {
        slot: u32,
        /// Capture element indices of the slot, their print names, format rows, and whether
        /// their text values are unusable (appended elements decoded at +0).
        elements: Vec<(usize, Vec<u8>, &'static FormatInfo, bool)>,
        values: TextVertices,
        next: usize,
        lines: usize,
        rows_seen: u64,
    }
    let mut data: Option<Data> = None;
    let mut resolved_offsets: Vec<u32> = Vec::new();
    for (n, line) in lines(text) {
        let at = At {
            file,
            line: Some(n),
        };
        let t = trim(line);
        if t.is_empty() {
            continue;
        }
        if t.starts_with(b"#") {
            warnings.push(at.warning(Some(t), "3DMigoto's dump says"));
            continue;
        }
        if data_started {
            if t == b"vertex-data:" || t == b"instance-data:" {
                section_instance = t == b"instance-data:";
                continue;
            }
            if !values {
                continue;
            }
            let Some((slot, index, name, vals)) = data_line(t) else {
                warnings
                    .push(at.warning(Some(t), "not a `vbN[i]+OFFSET NAME: values` line; ignored"));
                continue;
            };
            if data.is_none() {
                let els: Vec<(usize, Vec<u8>, &'static FormatInfo, bool)> = out
                    .elements
                    .iter()
                    .enumerate()
                    .filter(|(_, e)| e.input_slot == slot)
                    .filter_map(|(i, e)| {
                        let appended_wrong = e.aligned_byte_offset == APPEND_ALIGNED_ELEMENT
                            && resolved_offsets.get(i).copied().unwrap_or(0) != 0;
                        e.format
                            .info()
                            .map(|f| (i, print_name(e), f, appended_wrong))
                    })
                    .collect();
                for (i, name, _, wrong) in &els {
                    if *wrong {
                        warnings.push(at.warning(
                            Some(name),
                            format!(
                                "element[{i}] has AlignedByteOffset append, which resolves to \
                                 offset {} (R26); 3DMigoto decoded its text values at offset 0, \
                                 so they are not used — give the .buf dump to read it",
                                resolved_offsets.get(*i).copied().unwrap_or(0)
                            ),
                        ));
                    }
                }
                let first = if section_instance {
                    out.first_instance
                } else {
                    out.first_vertex
                };
                data = Some(Data {
                    slot,
                    values: TextVertices {
                        first,
                        elements: els.iter().map(|e| e.0).collect(),
                        values: Vec::new(),
                    },
                    elements: els,
                    next: 0,
                    lines: 0,
                    rows_seen: 0,
                });
                out.slot = Some(slot);
            }
            let d = data.as_mut().expect("set above");
            d.lines += 1;
            if slot != d.slot {
                warnings.push(at.warning(
                    Some(t),
                    format!(
                        "a line of slot {slot} in a dump of slot {}; ignored",
                        d.slot
                    ),
                ));
                continue;
            }
            if d.elements.is_empty() {
                warnings.push(at.warning(
                    Some(t),
                    format!("no element of the layout is in slot {slot}; line ignored"),
                ));
                continue;
            }
            // Each vertex has at least one line, so a vertex number past the lines read so far
            // cannot come from a dump (and would make us allocate for nothing).
            if index as u64 > d.rows_seen.max(d.lines as u64) {
                return Err(at.error(
                    Some(t),
                    format!(
                        "vertex number {index} jumps past the {} vertices listed before it",
                        d.rows_seen
                    ),
                ));
            }
            let k = if d.elements[d.next % d.elements.len()].1 == name {
                d.next % d.elements.len()
            } else if let Some(k) = d.elements.iter().position(|e| e.1 == name) {
                k
            } else {
                warnings.push(at.warning(
                    Some(name),
                    format!("no element of slot {slot} prints as this name; line ignored"),
                ));
                continue;
            };
            d.next = k + 1;
            let width = d.elements.len();
            let row = index as usize;
            if row >= d.values.rows() {
                d.values.values.resize((row + 1) * width, None);
                d.rows_seen = (row + 1) as u64;
            }
            let (ce, _, info, wrong) = &d.elements[k];
            if *wrong {
                continue;
            }
            match element_lanes(info, vals) {
                Ok(lanes) => {
                    let cell = &mut d.values.values[row * width + k];
                    // Per-instance rows with a step rate above 1 are printed once per
                    // instance (`dump_vb_instance_data`: row (instance - start) / rate +
                    // start), so a row may come again with the same values.
                    if cell.is_some() && !(section_instance && *cell == Some(lanes)) {
                        warnings.push(at.warning(
                            Some(name),
                            format!(
                                "vertex {index} lists element[{ce}] twice; the last line is used"
                            ),
                        ));
                    }
                    *cell = Some(lanes);
                }
                Err((v, why)) => {
                    warnings.push(at.warning(
                        v.as_deref(),
                        format!("vertex {index} element[{ce}]: {why}; the value is missing"),
                    ));
                }
            }
            continue;
        }
        if t == b"vertex-data:" || t == b"instance-data:" {
            section_instance = t == b"instance-data:";
            data_started = true;
            let (elements, remapped) = finish_elements(file, std::mem::take(&mut blocks))?;
            out.elements = elements;
            out.remapped = remapped;
            // The offsets `CreateInputLayout` gives (R26), to know which appended elements
            // 3DMigoto decoded at the wrong place.
            let created = layout_without_shader(&crate::target::Target::default(), &out.elements);
            resolved_offsets = match &created.layout {
                Some(l) => l.elements().iter().map(|e| e.offset).collect(),
                None => Vec::new(),
            };
            continue;
        }
        if let Some(rest) = t.strip_prefix(b"element[") {
            let ok = rest.ends_with(b"]:")
                && parse_u32(&rest[..rest.len() - 2]) == Some(blocks.len() as u32);
            if !ok {
                return Err(at.error(Some(t), format!("expected `element[{}]:`", blocks.len())));
            }
            blocks.push((n, ElementBlock::default()));
            continue;
        }
        let Some((key, value)) = key_value(t) else {
            warnings.push(at.warning(Some(t), "unrecognised line ignored"));
            continue;
        };
        let indented = line.first().is_some_and(|b| *b == b' ' || *b == b'\t');
        if indented && let Some((_, block)) = blocks.last_mut() {
            element_field(at, block, key, value, &mut warnings.list)?;
            continue;
        }
        let num = |what: &str| {
            parse_u32(value)
                .ok_or_else(|| at.error(Some(value), format!("{what} must be a number")))
        };
        match key {
            b"byte offset" => out.byte_offset = num("byte offset")?,
            b"stride" => out.stride = Some(num("stride")?),
            b"first vertex" => {
                out.first_vertex = num("first vertex")?;
                header_lines[0] = Some(n);
            }
            b"vertex count" => {
                out.vertex_count = Some(num("vertex count")?);
                header_lines[0] = Some(n);
            }
            b"first instance" => out.first_instance = num("first instance")?,
            b"instance count" => {
                out.instance_count = Some(num("instance count")?);
                header_lines[1] = Some(n);
            }
            b"topology" => {
                let s = String::from_utf8_lossy(value);
                out.topology = Some(parse_topology(&s).ok_or_else(|| {
                    at.error(
                        Some(value),
                        "unknown primitive topology (expected trianglelist, trianglestrip, \
                         linelist, linestrip, pointlist, …_adj or N_control_point_patchlist)",
                    )
                })?);
            }
            _ if blocks.is_empty() => {
                warnings.push(at.warning(Some(key), "unknown header line ignored"))
            }
            _ => {
                // An element field written without indentation.
                let (_, block) = blocks.last_mut().expect("not empty");
                element_field(at, block, key, value, &mut warnings.list)?;
            }
        }
    }
    if !data_started {
        let (elements, remapped) = finish_elements(file, blocks)?;
        out.elements = elements;
        out.remapped = remapped;
    }
    if out.elements.is_empty() {
        return Err(At { file, line: None }.error(
            None,
            "no `element[i]:` blocks: the dump does not say how its vertices are laid out",
        ));
    }
    if let Some(d) = data {
        let rows = d.values.rows() as u64;
        let count = if section_instance {
            // Distinct rows of `dump_vb_instance_data`: one per `rate` instances (one per
            // instance at rate 0, as it prints them).
            let rate = out
                .elements
                .iter()
                .filter(|e| e.input_slot_class == INPUT_PER_INSTANCE_DATA)
                .map(|e| e.instance_data_step_rate)
                .min()
                .unwrap_or(0);
            out.instance_count
                .map(|c| if rate > 1 { c.div_ceil(rate) } else { c })
        } else {
            out.vertex_count
        };
        if let Some(c) = count
            && c as u64 != rows
        {
            let line = header_lines[section_instance as usize];
            warnings.push(At { file, line }.warning(
                Some(c.to_string().as_bytes()),
                format!("the header's count disagrees with the {rows} vertices listed"),
            ));
        }
        out.values = Some(d.values);
    }
    out.warnings = warnings.finish();
    Ok(out)
}

/// Parses an ib text dump.
pub fn parse_ib_txt(file: &str, text: &[u8]) -> Result<IbText, CaptureError> {
    parse_ib(file, text, true)
}

/// Parses an ib text dump's header or whole text; with `values` false (the indices are in a
/// `.buf`) the listed indices are not counted against `index count:`.
pub(crate) fn parse_ib(file: &str, text: &[u8], values: bool) -> Result<IbText, CaptureError> {
    let mut warnings = Warnings {
        file,
        list: Vec::new(),
        dropped: 0,
    };
    let mut byte_offset = 0;
    let mut first_index = 0;
    let mut index_count = None;
    let mut count_line = None;
    let mut topology = None;
    let mut format: Option<IndexFormat> = None;
    let mut indices = Vec::new();
    for (n, line) in lines(text) {
        let at = At {
            file,
            line: Some(n),
        };
        let t = trim(line);
        if t.is_empty() {
            continue;
        }
        if t.starts_with(b"#") {
            warnings.push(at.warning(Some(t), "3DMigoto's dump says"));
            continue;
        }
        if t[0].is_ascii_digit() && !t.contains(&b':') {
            let Some(format) = format else {
                return Err(at.error(Some(t), "indices before the `format:` line"));
            };
            // The largest index the format holds: every bit set.
            let max = format.cut_value();
            for v in t
                .split(|b| b.is_ascii_whitespace())
                .filter(|v| !v.is_empty())
            {
                let x = parse_u32(v).ok_or_else(|| at.error(Some(v), "not an index value"))?;
                if x > max {
                    return Err(at.error(
                        Some(v),
                        format!("index value does not fit the {} format", format.format()),
                    ));
                }
                indices.push(x);
            }
            continue;
        }
        let Some((key, value)) = key_value(t) else {
            // `format 57 is illegal` (3DMigoto's own words for a bad format).
            if t.starts_with(b"format ") {
                return Err(at.error(
                    Some(t),
                    "the dump's index format is not R16_UINT or R32_UINT",
                ));
            }
            warnings.push(at.warning(Some(t), "unrecognised line ignored"));
            continue;
        };
        let num = |what: &str| {
            parse_u32(value)
                .ok_or_else(|| at.error(Some(value), format!("{what} must be a number")))
        };
        match key {
            b"byte offset" => byte_offset = num("byte offset")?,
            b"first index" => first_index = num("first index")?,
            b"index count" => {
                index_count = Some(num("index count")?);
                count_line = Some(n);
            }
            b"topology" => {
                let s = String::from_utf8_lossy(value);
                topology = Some(
                    parse_topology(&s)
                        .ok_or_else(|| at.error(Some(value), "unknown primitive topology"))?,
                );
            }
            b"format" => {
                let s = String::from_utf8_lossy(value);
                format = Some(parse_index_format(&s).ok_or_else(|| {
                    at.error(
                        Some(value),
                        "an index buffer format must be DXGI_FORMAT_R16_UINT or DXGI_FORMAT_R32_UINT",
                    )
                })?);
            }
            _ => warnings.push(at.warning(Some(key), "unknown header line ignored")),
        }
    }
    let format = format.ok_or_else(|| {
        At { file, line: None }.error(None, "no `format:` line (DXGI_FORMAT_R16_UINT or R32_UINT)")
    })?;
    if let Some(c) = index_count
        && values
        && c as usize != indices.len()
    {
        warnings.push(
            At {
                file,
                line: count_line,
            }
            .warning(
                Some(c.to_string().as_bytes()),
                format!(
                    "index count disagrees with the {} indices listed",
                    indices.len()
                ),
            ),
        );
    }
    Ok(IbText {
        byte_offset,
        first_index,
        index_count,
        topology,
        format,
        indices,
        warnings: warnings.finish(),
    })
}

/// What a file name says it is.
#[derive(Debug, PartialEq, Eq)]
enum Role {
    /// `vbN=` with the text before it.
    Vb(u32, String),
    /// `ib=` with the text before it.
    Ib(String),
}

fn role(path: &Path) -> Option<Role> {
    let name = path.file_name()?.to_str()?;
    if let Some(p) = name
        .find("-ib=")
        .map(|p| p + 1)
        .or_else(|| name.starts_with("ib=").then_some(0))
    {
        return Some(Role::Ib(name[..p].to_string()));
    }
    let bytes = name.as_bytes();
    let mut i = 0;
    while let Some(off) = name[i..].find("vb") {
        let p = i + off;
        let digits = bytes[p + 2..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        if digits > 0
            && bytes.get(p + 2 + digits) == Some(&b'=')
            && (p == 0 || bytes[p - 1] == b'-')
            && let Some(slot) = name[p + 2..p + 2 + digits].parse().ok()
        {
            return Some(Role::Vb(slot, name[..p].to_string()));
        }
        i = p + 2;
    }
    None
}

fn with_extension(path: &Path, ext: &str) -> PathBuf {
    path.with_extension(ext)
}

/// The text dumps of one draw: the files named, or (one file named) its partners found by
/// name in its folder.
/// The vb dumps by slot and the ib dump of one draw.
type Partners = (Vec<(u32, PathBuf)>, Option<PathBuf>);

fn partners(paths: &[PathBuf]) -> Result<Partners, CaptureError> {
    let mut vbs = Vec::new();
    let mut ib = None;
    let classify = |p: &Path,
                    vbs: &mut Vec<(u32, PathBuf)>,
                    ib: &mut Option<PathBuf>,
                    strict: bool|
     -> Result<(), CaptureError> {
        let file = name_of(p);
        match role(p) {
            Some(Role::Vb(slot, _)) => {
                if vbs.iter().any(|(s, _)| *s == slot) {
                    return Err(At {
                        file: &file,
                        line: None,
                    }
                    .error(None, format!("a second vb{slot} dump for one draw")));
                }
                vbs.push((slot, p.to_path_buf()));
            }
            Some(Role::Ib(_)) => {
                if ib.is_some() {
                    return Err(At {
                        file: &file,
                        line: None,
                    }
                    .error(None, "a second ib dump for one draw"));
                }
                *ib = Some(p.to_path_buf());
            }
            None if strict => {
                // Named explicitly without the usual naming: decide by content.
                let bytes = read_file(p)?;
                let head = &bytes[..bytes.len().min(4096)];
                if head.windows(12).any(|w| w == b"first index:")
                    || head.windows(7).any(|w| w == b"format:")
                        && !head.windows(8).any(|w| w == b"element[")
                {
                    *ib = Some(p.to_path_buf());
                } else {
                    let slot = vbs.len() as u32;
                    vbs.push((slot, p.to_path_buf()));
                }
            }
            None => {}
        }
        Ok(())
    };
    for p in paths {
        if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("buf")) {
            // A .buf named directly stands for its text dump.
            let txt = with_extension(p, "txt");
            classify(&txt, &mut vbs, &mut ib, true)?;
        } else {
            classify(p, &mut vbs, &mut ib, true)?;
        }
    }
    if paths.len() == 1 {
        let p = &paths[0];
        let prefix = match role(p) {
            Some(Role::Vb(_, pre)) | Some(Role::Ib(pre)) => Some(pre),
            None => None,
        };
        if let Some(prefix) = prefix {
            let dir = match p.parent() {
                Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
                _ => PathBuf::from("."),
            };
            let mut found: Vec<PathBuf> = std::fs::read_dir(&dir)
                .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
                .unwrap_or_default();
            found.sort();
            for f in found {
                // `read_dir(".")` yields `./NAME` for a bare `NAME`: the file named is the
                // same file name in the same folder, not the same path spelling.
                if f.file_name() == p.file_name()
                    || !f.extension().is_some_and(|e| e.eq_ignore_ascii_case("txt"))
                {
                    continue;
                }
                let same_draw = match role(&f) {
                    Some(Role::Vb(_, pre)) | Some(Role::Ib(pre)) => pre == prefix,
                    None => false,
                };
                if same_draw {
                    classify(&f, &mut vbs, &mut ib, false)?;
                }
            }
        }
    }
    vbs.sort_by_key(|v| v.0);
    Ok((vbs, ib))
}

/// Reads a 3DMigoto draw from its text dumps (see [`super::load_dumps`]).
pub fn load(paths: &[PathBuf]) -> Result<Capture, CaptureError> {
    let (vbs, ib_path) = partners(paths)?;
    let pair = |txt: PathBuf| {
        let buf = with_extension(&txt, "buf");
        let buf = buf.is_file().then_some(buf);
        (txt, buf)
    };
    let files = DrawFiles {
        vbs: vbs
            .into_iter()
            .map(|(slot, txt)| {
                let (txt, buf) = pair(txt);
                SlotFiles { slot, txt, buf }
            })
            .collect(),
        ib: ib_path.map(|txt| {
            let (txt, buf) = pair(txt);
            SlotFiles { slot: 0, txt, buf }
        }),
    };
    if files.vbs.is_empty() {
        let file = paths.first().map(|p| name_of(p)).unwrap_or_default();
        return Err(At {
            file: &file,
            line: None,
        }
        .error(
            None,
            "no vb text dump found (a file named …vb0=HASH….txt with element blocks)",
        ));
    }
    load_files(&files)
}

/// The header of a text dump: its lines up to the first that `data_line` says is data (a vb
/// dump's `vertex-data:`, `instance-data:` or `vbN[i]…`; an ib dump's first index), read in
/// 4 KiB blocks so a large dump's values are not read.
fn read_header(path: &Path, data_line: fn(&[u8]) -> bool) -> Result<Vec<u8>, CaptureError> {
    use std::io::Read;
    let file = name_of(path);
    let at = At {
        file: &file,
        line: None,
    };
    let (mut f, _) = crate::input::open_file(path, super::MAX_FILE_BYTES)
        .map_err(|e| at.error(None, super::why_unread(&e)))?;
    let mut text = Vec::new();
    let mut scanned = 0;
    let mut block = vec![0u8; 4 * 1024];
    loop {
        let n = f
            .read(&mut block)
            .map_err(|e| at.error(None, format!("cannot read: {e}")))?;
        text.extend_from_slice(&block[..n]);
        // Look at the complete lines not yet scanned.
        let end = if n == 0 {
            text.len()
        } else {
            text.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1)
        };
        while scanned < end {
            let stop = text[scanned..end]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(end, |p| scanned + p + 1);
            if data_line(text[scanned..stop].trim_ascii()) {
                text.truncate(scanned);
                return Ok(text);
            }
            scanned = stop;
        }
        if n == 0 || text.len() as u64 > super::MAX_FILE_BYTES {
            return Ok(text);
        }
    }
}

/// The text dump of one buffer of a draw and the binary dump of the same buffer, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlotFiles {
    /// The vertex-buffer slot the file name gives (`vbN`); 0 for an index buffer.
    pub slot: u32,
    /// The text dump (`….txt`): header, layout and (where no binary exists) the values.
    pub txt: PathBuf,
    /// The binary dump of the same buffer (`….buf`), whole from its first byte.
    pub buf: Option<PathBuf>,
}

/// The vertex rows a vb text dump's header says the draw reads: `first vertex` + `vertex
/// count`. For an indexed draw `first vertex` is BaseVertexLocation, which 3DMigoto prints
/// with `%u` (`DumpVBTxt`), so a negative base vertex reads as its two's complement and the
/// rows are its value plus the count, none below zero.
pub fn header_rows(first_vertex: u32, vertex_count: Option<u32>, indexed: bool) -> u64 {
    let count = i64::from(vertex_count.unwrap_or(0));
    let first = if indexed {
        i64::from(first_vertex as i32)
    } else {
        i64::from(first_vertex)
    };
    (first + count).max(0) as u64
}

/// Every file of one 3DMigoto draw, named explicitly: [`load_files`] reads exactly these
/// (no folder is searched), which is what a reader that already knows a frame's files needs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DrawFiles {
    /// The vertex-buffer dumps, one per slot.
    pub vbs: Vec<SlotFiles>,
    /// The index-buffer dump, for an indexed draw.
    pub ib: Option<SlotFiles>,
}

/// Reads a 3DMigoto draw from the files named in `files` (see [`super::load_dumps`] for the
/// rules; a slot's text values are used only where it has no binary).
pub fn load_files(files: &DrawFiles) -> Result<Capture, CaptureError> {
    load_files_with(files, &mut [], None)
}

/// A vb text dump's (trimmed) line past its header: `vertex-data:`, `instance-data:` or a
/// first data line `vbN[i]…`.
pub(crate) fn vb_data_line(t: &[u8]) -> bool {
    t == b"vertex-data:"
        || t == b"instance-data:"
        || (t.starts_with(b"vb") && t.get(2).is_some_and(|b| b.is_ascii_digit()))
}

/// An ib text dump's (trimmed) line past its header: an index.
pub(crate) fn ib_data_line(t: &[u8]) -> bool {
    t.first().is_some_and(u8::is_ascii_digit)
}

/// [`load_files`] with the text dumps' headers parsed beforehand where `heads` and `ib_head`
/// have them (`heads[i]` for `files.vbs[i]`: what [`parse_vb_txt`] gives the header, without
/// values; `ib_head`: what [`parse_ib`] gives the header without values, with an index
/// count). Such a header is
/// used only for a dump with a binary dump, and its text file is not read.
pub(crate) fn load_files_with(
    files: &DrawFiles,
    heads: &mut [Option<VbText>],
    ib_head: Option<IbText>,
) -> Result<Capture, CaptureError> {
    if files.vbs.is_empty() {
        let file = files
            .ib
            .as_ref()
            .map(|f| name_of(&f.txt))
            .unwrap_or_default();
        return Err(At {
            file: &file,
            line: None,
        }
        .error(
            None,
            "no vb text dump found (a file named …vb0=HASH….txt with element blocks)",
        ));
    }
    let mut vbs: Vec<(&SlotFiles, Option<VbText>)> = files
        .vbs
        .iter()
        .enumerate()
        .map(|(i, f)| (f, heads.get_mut(i).and_then(Option::take)))
        .collect();
    vbs.sort_by_key(|v| v.0.slot);
    if let Some(w) = vbs.windows(2).find(|w| w[0].0.slot == w[1].0.slot) {
        return Err(At {
            file: &name_of(&w[1].0.txt),
            line: None,
        }
        .error(
            None,
            format!("a second vb{} dump for one draw", w[1].0.slot),
        ));
    }
    let mut warnings = Vec::new();
    let mut sources = Vec::new();
    let mut slots = Vec::new();
    let mut elements: Option<(super::Elements, String)> = None;
    let mut draw = DrawInfo::default();
    let mut topology = None;
    let indexed = files.ib.is_some();
    for (files, head) in vbs {
        let (slot_from_name, path) = (&files.slot, &files.txt);
        let file = name_of(path);
        let at = At {
            file: &file,
            line: None,
        };
        let binary = files.buf.as_deref().map(read_file).transpose()?;
        // With a binary dump only the header and layout are read (or were, beforehand): the
        // values are in the .buf.
        let vb = match (&binary, head) {
            (Some(_), Some(vb)) => vb,
            _ => {
                let text = if binary.is_some() {
                    read_header(path, vb_data_line)?
                } else {
                    read_file(path)?
                };
                parse_vb_txt(&file, &text, binary.is_none())?
            }
        };
        sources.push(path.clone());
        warnings.extend(vb.warnings.iter().cloned());
        let slot = vb.slot.unwrap_or(*slot_from_name);
        if vb.slot.is_some_and(|s| s != *slot_from_name) {
            warnings.push(at.warning(
                None,
                format!("the file name says vb{slot_from_name}, its lines say vb{slot}; vb{slot} is used"),
            ));
        }
        match &elements {
            None => elements = Some(((vb.elements.clone(), vb.remapped.clone()), file.clone())),
            Some(((e, _), first)) if *e != vb.elements => warnings.push(at.warning(
                None,
                format!("its element blocks differ from {first}'s; {first}'s are used"),
            )),
            _ => {}
        }
        if topology.is_none() {
            topology = vb.topology;
        }
        if slots.is_empty() {
            draw.start_vertex = vb.first_vertex;
            draw.vertex_count = vb.vertex_count;
            draw.start_instance = vb.first_instance;
            draw.instance_count = vb.instance_count;
        }
        let stride = vb
            .stride
            .ok_or_else(|| at.error(None, "no `stride:` line"))?;
        let data = match binary {
            Some(b) => {
                let buf = files.buf.clone().unwrap_or_default();
                sources.push(buf.clone());
                // Rows the draw reads: vertices for a slot with per-vertex data; for a slot
                // of per-instance data only, StartInstanceLocation + ceil(instances / step
                // rate) (one row at step rate 0), whatever the header's vertex count says.
                let of_slot = || vb.elements.iter().filter(|e| e.input_slot == slot);
                let rows = if of_slot().all(|e| e.input_slot_class == INPUT_PER_INSTANCE_DATA)
                    && of_slot().next().is_some()
                {
                    let rate = of_slot()
                        .map(|e| e.instance_data_step_rate)
                        .min()
                        .unwrap_or(1);
                    let count = vb.instance_count.unwrap_or(1) as u64;
                    vb.first_instance as u64
                        + if rate == 0 {
                            1
                        } else {
                            count.div_ceil(rate as u64)
                        }
                } else {
                    header_rows(vb.first_vertex, vb.vertex_count, indexed)
                };
                let need = vb.byte_offset as u64 + stride as u64 * rows;
                if (b.len() as u64) < need {
                    warnings.push(At { file: &name_of(&buf), line: None }.warning(
                        Some(b.len().to_string().as_bytes()),
                        format!(
                            "the .buf holds fewer bytes than the header's byte offset + stride × \
                             the rows the draw reads = {need}; rows past its end read as missing"
                        ),
                    ));
                }
                SlotData::Binary(b)
            }
            None => SlotData::Text(vb.values.unwrap_or_default()),
        };
        slots.push(SlotCapture {
            slot,
            stride,
            offset: vb.byte_offset,
            data,
            source: path.clone(),
        });
    }
    let ((elements, remapped), _) = elements.expect("at least one vb");
    let mut index = None;
    if let Some(ib_files) = &files.ib {
        let path = ib_files.txt.clone();
        let file = name_of(&path);
        sources.push(path.clone());
        // With a binary dump only the header is read (up to the first index), unless it does
        // not say the index count.
        let mut ib = None;
        if ib_files.buf.is_some() {
            ib = match ib_head {
                Some(h) => Some(h),
                None => {
                    let head = read_header(&path, ib_data_line)?;
                    Some(parse_ib(&file, &head, false)?)
                }
            }
            .filter(|h| h.index_count.is_some());
        }
        let ib = match ib {
            Some(ib) => ib,
            None => parse_ib_txt(&file, &read_file(&path)?)?,
        };
        warnings.extend(ib.warnings.iter().cloned());
        if let (Some(a), Some(b)) = (topology, ib.topology)
            && a != b
        {
            warnings.push(
                At {
                    file: &file,
                    line: None,
                }
                .warning(
                    Some(b.name().as_bytes()),
                    format!("topology disagrees with the vb dump's {a}; the ib dump's is used"),
                ),
            );
        }
        topology = ib.topology.or(topology);
        // For an indexed draw `first vertex` is BaseVertexLocation (see the module notes).
        draw.base_vertex = draw.start_vertex as i32;
        draw.index_count = ib.index_count.or(Some(ib.indices.len() as u32));
        if let Some(buf) = ib_files.buf.clone() {
            let data = read_file(&buf)?;
            sources.push(buf.clone());
            draw.start_index = ib.first_index;
            index = Some(IndexCapture {
                format: ib.format,
                offset: ib.byte_offset,
                data,
                source: buf,
            });
        } else {
            draw.start_index = 0;
            draw.index_count = Some(ib.indices.len() as u32);
            index = Some(IndexCapture {
                format: ib.format,
                offset: 0,
                data: index_bytes(ib.format, &ib.indices),
                source: path,
            });
        }
    }
    Ok(Capture {
        elements,
        remapped,
        slots,
        index,
        topology: topology.unwrap_or(Topology::Undefined),
        draw,
        warnings,
        sources,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_from_names() {
        assert_eq!(
            role(Path::new("d/000012-vb1=aabbccdd-vs=1-ps=2.txt")),
            Some(Role::Vb(1, "000012-".into()))
        );
        assert_eq!(
            role(Path::new("Mona-ib=5d4bd489.txt")),
            Some(Role::Ib("Mona-".into()))
        );
        assert_eq!(role(Path::new("navbar.txt")), None);
    }

    #[test]
    fn data_lines() {
        let (s, i, n, v) = data_line(b"vb0[12]+024 TANGENT: 0, -1").unwrap();
        assert_eq!((s, i, n, v), (0, 12, &b"TANGENT"[..], &b" 0, -1"[..]));
        assert!(data_line(b"vb0 POSITION: 1").is_none());
    }
}
