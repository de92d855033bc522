//! The importers' `.fmt` files (3DMigoto's Blender add-on and the GIMI/ZZMI/WWMI tools that
//! grew from it) with the `.vb`/`.vb0`…`.vbN` and `.ib` binaries beside them.
//!
//! A `.fmt` holds `stride: N` (one interleaved buffer) or `vbN stride: N` lines (one per slot),
//! `topology:`, `format:` (the index format) and `element[i]:` blocks like a 3DMigoto vb dump,
//! optionally with `RemappedSemanticName`/`RemappedSemanticIndex`.
//!
//! Choice: with a single `stride:` and a single `NAME.vb`, the file is the importer's merged
//! buffer and every per-vertex element reads from it, whatever its `InputSlot` says (a warning
//! names the elements whose slot is moved to 0).
//!
//! The importers write the whole input layout into a `.fmt` but buffers only for the slots
//! that hold vertices (blender_3dmigoto's `export_3dmigoto` writes a `vbN stride:` line per
//! exported slot; `write_fmt_file` every element), and their import skips what no buffer
//! holds (`import_vertices`: per-instance elements; "Vertex semantic … unavailable due to
//! missing vbN"). So does [`load`]: an element whose slot has no stride line or no buffer,
//! and a per-instance element in the merged `.vb`, is left out with a warning naming it.

use std::path::{Path, PathBuf};

use super::{
    At, Capture, CaptureError, CaptureWarning, DrawInfo, ElementBlock, IndexCapture, SlotCapture,
    SlotData, element_field, finish_elements, lines, name_of, parse_index_format, parse_topology,
    parse_u32, read_file, trim,
};
use crate::assembler::Topology;
use crate::buffer::IndexFormat;
use crate::element::InputElementDesc;

/// A parsed `.fmt` file.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct FmtFile {
    /// `stride:` (no slot named) as slot `None`, `vbN stride:` as `Some(N)`.
    pub strides: Vec<(Option<u32>, u32)>,
    /// `topology:`.
    pub topology: Option<Topology>,
    /// `format:` (index format).
    pub index_format: Option<IndexFormat>,
    /// Elements.
    pub elements: Vec<InputElementDesc>,
    /// Remapped names per element.
    pub remapped: Vec<Option<(String, u32)>>,
    /// Warnings.
    pub warnings: Vec<CaptureWarning>,
}

/// Parses a `.fmt` file.
pub fn parse(file: &str, text: &[u8]) -> Result<FmtFile, CaptureError> {
    let mut out = FmtFile::default();
    let mut blocks: Vec<(usize, ElementBlock)> = Vec::new();
    for (n, line) in lines(text) {
        let at = At {
            file,
            line: Some(n),
        };
        let t = trim(line);
        if t.is_empty() || t.starts_with(b"#") {
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
        let Some(c) = t.iter().position(|&b| b == b':') else {
            out.warnings
                .push(at.warning(Some(t), "unrecognised line ignored"));
            continue;
        };
        let (key, value) = (trim(&t[..c]), trim(&t[c + 1..]));
        let indented = line.first().is_some_and(|b| *b == b' ' || *b == b'\t');
        if indented && let Some((_, block)) = blocks.last_mut() {
            element_field(at, block, key, value, &mut out.warnings)?;
            continue;
        }
        if key == b"stride" || key.ends_with(b" stride") {
            let slot = if key == b"stride" {
                None
            } else {
                let s = trim(&key[..key.len() - 7]);
                let Some(n) = s.strip_prefix(b"vb").and_then(parse_u32) else {
                    return Err(at.error(Some(key), "expected `stride:` or `vbN stride:`"));
                };
                Some(n)
            };
            let stride =
                parse_u32(value).ok_or_else(|| at.error(Some(value), "stride must be a number"))?;
            out.strides.push((slot, stride));
            continue;
        }
        match key {
            b"topology" => {
                let s = String::from_utf8_lossy(value);
                out.topology = Some(
                    parse_topology(&s)
                        .ok_or_else(|| at.error(Some(value), "unknown primitive topology"))?,
                );
            }
            b"format" => {
                let s = String::from_utf8_lossy(value);
                out.index_format = Some(parse_index_format(&s).ok_or_else(|| {
                    at.error(
                        Some(value),
                        "an index buffer format must be DXGI_FORMAT_R16_UINT or DXGI_FORMAT_R32_UINT",
                    )
                })?);
            }
            _ if !blocks.is_empty() => {
                let (_, block) = blocks.last_mut().expect("not empty");
                element_field(at, block, key, value, &mut out.warnings)?;
            }
            _ => out
                .warnings
                .push(at.warning(Some(key), "unknown header line ignored")),
        }
    }
    let (elements, remapped) = finish_elements(file, blocks)?;
    if elements.is_empty() {
        return Err(At { file, line: None }.error(None, "no `element[i]:` blocks"));
    }
    if out.strides.is_empty() {
        return Err(At { file, line: None }.error(None, "no `stride:` line"));
    }
    out.elements = elements;
    out.remapped = remapped;
    Ok(out)
}

impl FmtFile {
    /// The file's text, as the importers write it and [`parse`] reads it back: `stride: N`
    /// for one slot (`vbN stride: N` lines for several), `topology:` in 3DMigoto's spelling
    /// (`trianglelist`), `format: DXGI_FORMAT_…` for the index format, then one
    /// `element[i]:` block per element (the remapped name where there is one). An
    /// `APPEND_ALIGNED_ELEMENT` offset is written as the number D3D11 resolves it to: the
    /// importers read `AlignedByteOffset` as a number (blender_3dmigoto refuses `append`,
    /// XXMITools' `int()` raises); only a layout `CreateInputLayout` refuses keeps `append`.
    /// Warnings are not written.
    ///
    /// ```
    /// use inlay::capture::fmt::{FmtFile, parse};
    /// use inlay::element::InputElementDesc;
    /// use inlay::format::Format;
    /// let f = FmtFile {
    ///     strides: vec![(None, 12)],
    ///     topology: Some(inlay::assembler::Topology::TriangleList),
    ///     index_format: Some(inlay::buffer::IndexFormat::R16Uint),
    ///     elements: vec![InputElementDesc::per_vertex("POSITION", 0, Format::R32G32B32_FLOAT, 0, 0)],
    ///     remapped: vec![None],
    ///     warnings: vec![],
    /// };
    /// let text = f.to_text();
    /// assert!(text.starts_with("stride: 12\ntopology: trianglelist\nformat: DXGI_FORMAT_R16_UINT\n"));
    /// assert_eq!(parse("x.fmt", text.as_bytes()).unwrap(), f);
    /// ```
    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let mut t = String::new();
        for (slot, stride) in &self.strides {
            let _ = match slot {
                None => writeln!(t, "stride: {stride}"),
                Some(n) => writeln!(t, "vb{n} stride: {stride}"),
            };
        }
        if let Some(top) = self.topology {
            let name = match top {
                Topology::PatchList(n) => format!("{n}_control_point_patchlist"),
                Topology::LineListAdj
                | Topology::LineStripAdj
                | Topology::TriangleListAdj
                | Topology::TriangleStripAdj => {
                    let n = top.name();
                    let base = n.strip_suffix("_adj").unwrap_or(&n).replace('_', "");
                    format!("{base}_adj")
                }
                other => other.name().replace('_', ""),
            };
            let _ = writeln!(t, "topology: {name}");
        }
        if let Some(f) = self.index_format {
            let _ = writeln!(t, "format: DXGI_FORMAT_{}", f.name());
        }
        let created = crate::validation::layout_without_shader(
            &crate::target::Target::default(),
            &self.elements,
        );
        let resolved: Option<Vec<u32>> = created
            .layout
            .as_ref()
            .map(|l| l.elements().iter().map(|e| e.offset).collect())
            .filter(|o: &Vec<u32>| o.len() == self.elements.len());
        for (i, e) in self.elements.iter().enumerate() {
            let _ = writeln!(t, "element[{i}]:");
            let _ = writeln!(
                t,
                "  SemanticName: {}",
                e.semantic_name.as_deref().unwrap_or("")
            );
            let _ = writeln!(t, "  SemanticIndex: {}", e.semantic_index);
            if let Some(Some((name, index))) = self.remapped.get(i) {
                let _ = writeln!(t, "  RemappedSemanticName: {name}");
                let _ = writeln!(t, "  RemappedSemanticIndex: {index}");
            }
            let _ = writeln!(t, "  Format: {}", e.format);
            let _ = writeln!(t, "  InputSlot: {}", e.input_slot);
            let offset = match &resolved {
                Some(o) => o[i],
                None => e.aligned_byte_offset,
            };
            if offset == crate::element::APPEND_ALIGNED_ELEMENT {
                let _ = writeln!(t, "  AlignedByteOffset: append");
            } else if offset != e.aligned_byte_offset {
                let _ = writeln!(t, "  AlignedByteOffset: {offset}");
            } else {
                let _ = writeln!(t, "  AlignedByteOffset: {}", e.aligned_byte_offset);
            }
            let class = if e.input_slot_class == crate::element::INPUT_PER_INSTANCE_DATA {
                "per-instance"
            } else {
                "per-vertex"
            };
            let _ = writeln!(t, "  InputSlotClass: {class}");
            let _ = writeln!(t, "  InstanceDataStepRate: {}", e.instance_data_step_rate);
        }
        t
    }
}

/// Removes the elements `gone` names, with their remapped names.
fn drop_elements(f: &mut FmtFile, gone: &[(usize, String)]) {
    let keep: Vec<bool> = (0..f.elements.len())
        .map(|i| !gone.iter().any(|(g, _)| *g == i))
        .collect();
    let mut k = keep.iter();
    f.elements.retain(|_| k.next().copied().unwrap_or(true));
    let mut k = keep.iter();
    f.remapped.retain(|_| k.next().copied().unwrap_or(true));
}

/// Reads a `.fmt` and its buffers. `extra` may name the buffers explicitly (`.vb`, `.vbN`,
/// `.ib`); otherwise they are found beside the `.fmt` under the same name.
pub fn load(path: &Path, extra: &[PathBuf]) -> Result<Capture, CaptureError> {
    let file = name_of(path);
    let text = read_file(path)?;
    let mut f = parse(&file, &text)?;
    let mut warnings = std::mem::take(&mut f.warnings);
    let mut sources = vec![path.to_path_buf()];
    let ext_of = |p: &Path| {
        p.extension()
            .and_then(|e| e.to_str())
            .map(|e| e.to_ascii_lowercase())
    };
    let named = |ext: &str| -> Option<PathBuf> {
        extra
            .iter()
            .find(|p| ext_of(p).as_deref() == Some(ext))
            .cloned()
            .or_else(|| {
                let p = path.with_extension(ext);
                p.is_file().then_some(p)
            })
    };
    let mut slots = Vec::new();
    let at = At {
        file: &file,
        line: None,
    };
    let single = f.strides.len() == 1 && f.strides[0].0.is_none();
    // Elements no buffer holds, left out: (element, why).
    let mut left_out: Vec<(usize, String)> = Vec::new();
    if single && let Some(vb) = named("vb") {
        let data = read_file(&vb)?;
        sources.push(vb.clone());
        let mut moved = Vec::new();
        for (i, e) in f.elements.iter_mut().enumerate() {
            if e.input_slot_class == crate::element::INPUT_PER_INSTANCE_DATA {
                left_out.push((i, "per-instance data, and the .vb holds vertices".into()));
            } else if e.input_slot != 0 {
                e.input_slot = 0;
                moved.push(format!("element[{i}]"));
            }
        }
        if !moved.is_empty() {
            warnings.push(at.warning(
                None,
                format!(
                    "one stride and one .vb: the importer's merged buffer; {} read from it as slot 0",
                    moved.join(", ")
                ),
            ));
        }
        slots.push(SlotCapture {
            slot: 0,
            stride: f.strides[0].1,
            offset: 0,
            data: SlotData::Binary(data),
            source: vb,
        });
    } else {
        let mut used: Vec<u32> = f.elements.iter().map(|e| e.input_slot).collect();
        used.sort_unstable();
        used.dedup();
        for slot in used {
            let stride = f
                .strides
                .iter()
                .find(|(s, _)| *s == Some(slot) || (s.is_none() && slot == 0))
                .map(|s| s.1);
            let vb =
                named(&format!("vb{slot}")).or_else(|| if slot == 0 { named("vb") } else { None });
            let (stride, vb) = match (stride, vb) {
                (Some(stride), Some(vb)) => (stride, vb),
                (stride, _) => {
                    let why = if stride.is_none() {
                        format!("slot {slot} has no `vb{slot} stride:` line")
                    } else if slot == 0 {
                        format!(
                            "slot 0 has no buffer ({} or {})",
                            name_of(&path.with_extension("vb0")),
                            name_of(&path.with_extension("vb"))
                        )
                    } else {
                        format!(
                            "slot {slot} has no buffer ({})",
                            name_of(&path.with_extension(format!("vb{slot}")))
                        )
                    };
                    for (i, e) in f.elements.iter().enumerate() {
                        if e.input_slot == slot {
                            left_out.push((i, why.clone()));
                        }
                    }
                    continue;
                }
            };
            let data = read_file(&vb)?;
            sources.push(vb.clone());
            slots.push(SlotCapture {
                slot,
                stride,
                offset: 0,
                data: SlotData::Binary(data),
                source: vb,
            });
        }
    }
    drop_elements(&mut f, &left_out);
    // One line per reason: the elements it leaves out.
    let mut reasons: Vec<(String, Vec<String>)> = Vec::new();
    for (i, why) in &left_out {
        match reasons.iter_mut().find(|(w, _)| w == why) {
            Some((_, v)) => v.push(format!("element[{i}]")),
            None => reasons.push((why.clone(), vec![format!("element[{i}]")])),
        }
    }
    if f.elements.is_empty() {
        let why: Vec<String> = reasons
            .iter()
            .map(|(why, e)| format!("{why}: {}", e.join(", ")))
            .collect();
        return Err(at.error(
            None,
            format!("no element has a buffer to read ({})", why.join("; ")),
        ));
    }
    for (why, e) in &reasons {
        warnings.push(at.warning(
            None,
            format!(
                "{} left out: {why} (the importers skip what no buffer holds too: \
                 blender_3dmigoto's import reads the per-vertex data of the buffers it has)",
                e.join(", ")
            ),
        ));
    }
    for s in &slots {
        if s.stride > 0
            && let SlotData::Binary(b) = &s.data
            && b.len() % s.stride as usize != 0
        {
            warnings.push(
                At {
                    file: &name_of(&s.source),
                    line: None,
                }
                .warning(
                    Some(b.len().to_string().as_bytes()),
                    format!(
                        "the buffer's size is not a multiple of the stride {}; the last {} bytes are no whole vertex",
                        s.stride,
                        b.len() % s.stride as usize
                    ),
                ),
            );
        }
    }
    let mut index = None;
    if let Some(ib) = named("ib") {
        let data = read_file(&ib)?;
        sources.push(ib.clone());
        let format = f.index_format.unwrap_or_else(|| {
            warnings.push(at.warning(None, "no `format:` line; the .ib is read as R16_UINT"));
            IndexFormat::R16Uint
        });
        if data.len() % format.size() as usize != 0 {
            warnings.push(
                At {
                    file: &name_of(&ib),
                    line: None,
                }
                .warning(
                    Some(data.len().to_string().as_bytes()),
                    format!(
                        "the size is not a multiple of {} bytes; the last index is cut",
                        format.size()
                    ),
                ),
            );
        }
        index = Some(IndexCapture {
            format,
            offset: 0,
            data,
            source: ib,
        });
    }
    let topology = f.topology.unwrap_or_else(|| {
        warnings.push(at.warning(None, "no `topology:` line; trianglelist assumed"));
        Topology::TriangleList
    });
    Ok(Capture {
        elements: f.elements,
        remapped: f.remapped,
        slots,
        index,
        topology,
        draw: DrawInfo::default(),
        warnings,
        sources,
    })
}
