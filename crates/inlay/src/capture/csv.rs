//! RenderDoc mesh-view CSV exports.
//!
//! The file is CSV as RFC 4180 writes it, read by the `csv` crate: fields in double quotes may
//! hold commas, quotes (doubled) and line breaks, lines end in LF or CRLF, a UTF-8 byte-order
//! mark is skipped, blank lines are skipped and cells are trimmed. The header is
//! `VTX, IDX, NAME.x, NAME.y, …`: one row per vertex of the draw's stream (`VTX`
//! its position, `IDX` the index value it fetched), the attribute columns grouped by the name
//! before the last dot when what follows it is a component, `x y z w` (RenderDoc's
//! `headerData` writes `NAME.x` … for an element of several components and the bare name for
//! one; it never writes `r g b a`). Any other column is a one-component element named in
//! full, dots included: a SPIR-V struct member `vs_out.fog`, or `COLOR.r` (with a warning:
//! `.r` is a member's name, not a component). The vertex list is
//! rebuilt from the rows: a vertex per distinct `IDX` (rows with one `IDX` are one vertex;
//! different values for it are a warning), the index buffer is the `IDX` column in `VTX`
//! order. The element numbers are the `IDX` values (row 0 the least) while they span at
//! most 4 × rows + 1,024 numbers, so memory follows the rows read. A wider spread — a
//! sub-mesh drawn with absolute indices into a shared buffer, `IDX` 100000, 100001, 102000
//! — or an `IDX` of 0xFFFFFFFF (the index buffer's cut value) is not refused: the distinct
//! values are numbered from 0 in increasing order instead, with a warning saying so; every
//! value is kept, only the element numbers are not the capture's.
//!
//! Choices: each group becomes an element of slot 0 (`R32…_FLOAT` by component count, or
//! `R32…_UINT`/`_SINT` when every value of the group is an integer literal without a point),
//! at appended offsets; a name ending in digits is split into name and semantic index
//! (`TEXCOORD0` → TEXCOORD, 0). The CSV says no topology: triangle list unless the caller
//! overrides it. RenderDoc rounds values for display (about five significant digits); they
//! are taken as printed, with a warning.
//!
//! What RenderDoc writes besides numbers (qrenderdoc `BufferViewer.cpp`,
//! `BufferItemModel::data`):
//!
//! * **Primitive restart.** A row whose index is the pipeline's restart index reads `--` in
//!   `IDX` and ` Restart` in every other cell. It is a strip cut, and stays one: the capture's
//!   `R32_UINT` index buffer holds the format's cut value 0xFFFFFFFF there, so the input
//!   assembler cuts exactly at that row. RenderDoc lists restarts only where the pipeline
//!   enables them (Direct3D 11: strip topologies only; Direct3D 12, OpenGL, Vulkan: the
//!   pipeline's restart state), so a CSV with restart rows is read as a **triangle strip**
//!   (a warning says so; the caller may set another topology). In a list topology the cut
//!   still ends the current primitive, dropping it when incomplete, and the next primitive
//!   starts after the cut — Direct3D 11's rule (ia-semantics §5) and OpenGL's and Vulkan's
//!   for restart in lists — so no primitive after a restart shifts. (Under Direct3D 12's
//!   rules a list never cuts, and the cut value is fetched as a vertex, as D3D12 does.)
//! * **Out of bounds.** A cell of a vertex past the end of its buffer reads `---`
//!   (`outOfBounds()`). The input assembler reads such data as 0 (ia-semantics §2, missing
//!   lanes defaulted), and so does this reader, with one warning per column (or per run of
//!   an element's columns) naming it, how many rows and the first row's line; such cells
//!   do not decide a group's number kind. An `IDX` of `---` (an index read past the index
//!   buffer) is refused: the row's vertex is not known.
//! * **Mesh shaders.** A mesh shader's output lists `VTX` as `MESHLET[VERTEX]` (`%1[%2]`).
//!   `VTX` only checks the row order (rows from 0; for meshlets, each meshlet's vertices
//!   from 0 and meshlets increasing), with a warning when it is out of order: the rows are
//!   used in file order either way.

use super::{
    At, Capture, CaptureError, DrawInfo, IndexCapture, SlotCapture, SlotData, TextVertices,
    index_bytes, parse_u32, parse_value,
};
use crate::assembler::Topology;
use crate::buffer::IndexFormat;
use crate::element::{APPEND_ALIGNED_ELEMENT, InputElementDesc};
use crate::format::{Format, Kind};

/// The `IDX` cell of a primitive-restart row: RenderDoc's `BufferItemModel::data` returns
/// `col == 1 ? "--" : " Restart"` for a row whose index is the pipeline's restart index.
const RESTART_IDX: &[u8] = b"--";

/// The attribute cells of a primitive-restart row (` Restart`, trimmed).
const RESTART_CELL: &[u8] = b"Restart";

/// A cell RenderDoc could not fill: `outOfBounds()`, for a vertex (or an index) past the end
/// of its buffer.
const OUT_OF_BOUNDS: &[u8] = b"---";

/// A restart row's index in the capture's `R32_UINT` index buffer: the format's strip-cut
/// value, which the Direct3D 10/11 input assembler cuts at in every topology (ia-semantics §5).
const CUT: u32 = u32::MAX;

/// A `VTX` cell: the row's position in the draw's vertex stream, or for a mesh shader's
/// output `MESHLET[VERTEX]` (RenderDoc's `QFormatStr("%1[%2]")`, the meshlet counted from the
/// draw's first and the vertex from the meshlet's first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Vtx {
    /// A row number.
    Row(u32),
    /// Meshlet and vertex.
    Meshlet(u32, u32),
}

impl Vtx {
    fn parse(cell: &[u8]) -> Option<Vtx> {
        match cell.strip_suffix(b"]") {
            Some(head) => {
                let open = head.iter().position(|&b| b == b'[')?;
                let meshlet = parse_u32(&head[..open])?;
                Some(Vtx::Meshlet(meshlet, parse_u32(&head[open + 1..])?))
            }
            None => parse_u32(cell).map(Vtx::Row),
        }
    }

    /// Whether this cell may follow `previous` on row `k`: rows count from 0; a meshlet's
    /// vertices count from 0 and meshlets increase (RenderDoc skips empty ones).
    fn follows(self, previous: Option<Vtx>, k: usize) -> bool {
        match (self, previous) {
            (Vtx::Row(n), _) => n as usize == k,
            (Vtx::Meshlet(_, v), None) => v == 0,
            (Vtx::Meshlet(m, v), Some(Vtx::Meshlet(pm, pv))) => {
                (m == pm && pv.checked_add(1) == Some(v)) || (m > pm && v == 0)
            }
            (Vtx::Meshlet(..), Some(Vtx::Row(_))) => false,
        }
    }
}

/// One attribute group of the header.
struct Group {
    name: String,
    index: u32,
    /// (column, lane).
    columns: Vec<(usize, usize)>,
    kind: Kind,
}

fn split_semantic(name: &str) -> (String, u32) {
    let digits = name
        .bytes()
        .rev()
        .take_while(|b| b.is_ascii_digit())
        .count();
    if digits == 0 || digits == name.len() || digits > 9 {
        return (name.to_string(), 0);
    }
    let (n, i) = name.split_at(name.len() - digits);
    (n.to_string(), i.parse().unwrap_or(0))
}

/// The lane a column-name suffix names. RenderDoc's `BufferItemModel::headerData` writes
/// `NAME.x` … `NAME.w` for the columns of an element of several components and the bare
/// `NAME` for an element of one: never `r g b a` or digits, so those belong to the name.
fn lane_of(suffix: &str) -> Option<usize> {
    match suffix {
        "x" | "X" => Some(0),
        "y" | "Y" => Some(1),
        "z" | "Z" => Some(2),
        "w" | "W" => Some(3),
        _ => None,
    }
}

fn format_for(kind: Kind, n: usize) -> Format {
    let name = match (kind, n) {
        (Kind::Uint, 1) => "R32_UINT",
        (Kind::Uint, 2) => "R32G32_UINT",
        (Kind::Uint, 3) => "R32G32B32_UINT",
        (Kind::Uint, _) => "R32G32B32A32_UINT",
        (Kind::Sint, 1) => "R32_SINT",
        (Kind::Sint, 2) => "R32G32_SINT",
        (Kind::Sint, 3) => "R32G32B32_SINT",
        (Kind::Sint, _) => "R32G32B32A32_SINT",
        (_, 1) => "R32_FLOAT",
        (_, 2) => "R32G32_FLOAT",
        (_, 3) => "R32G32B32_FLOAT",
        _ => "R32G32B32A32_FLOAT",
    };
    name.parse().expect("a table format")
}

/// The records of a CSV text with the line each starts on: the `csv` crate's reading (quoted
/// fields, CRLF), a leading UTF-8 byte-order mark dropped, cells trimmed, blank lines skipped.
/// Memory is the records themselves: a few times the text at most.
fn records(file: &str, text: &[u8]) -> Result<Vec<(usize, csv::ByteRecord)>, CaptureError> {
    let text = text.strip_prefix(b"\xef\xbb\xbf").unwrap_or(text);
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text);
    let mut out = Vec::new();
    for record in reader.byte_records() {
        let record = record.map_err(|e| {
            let line = e.position().map(|p| p.line() as usize);
            At { file, line }.error(None, format!("not CSV: {e}"))
        })?;
        if record.len() == 1 && record[0].is_empty() {
            continue;
        }
        // The crate's position is where it started reading, before the blank lines it skips.
        let line = record.position().map_or(0, |p| {
            let skipped = text.get(p.byte() as usize..).unwrap_or_default();
            let blank = skipped.iter().take_while(|&&b| b == b'\r' || b == b'\n');
            p.line() as usize + blank.filter(|&&b| b == b'\n').count()
        });
        out.push((line, record));
    }
    Ok(out)
}

/// One record of a CSV text: the line it starts on (from 1) and its cells, trimmed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The line the record starts on, counting from 1 (blank lines count).
    pub line: usize,
    /// The cells, unquoted and trimmed of spaces.
    pub cells: Vec<String>,
}

/// Reads a CSV text the way this module reads a RenderDoc export (the `csv` crate: quoted
/// fields with commas, doubled quotes and line breaks; LF or CRLF; a UTF-8 byte-order mark
/// dropped; cells trimmed; blank lines skipped): the reader under every CSV input, such as
/// `inlay encode --input values.csv`. A record that is not CSV or not UTF-8 is an error
/// naming its line.
pub fn read_records(file: &str, text: &[u8]) -> Result<Vec<Record>, CaptureError> {
    records(file, text)?
        .into_iter()
        .map(|(line, record)| {
            let cells = record
                .iter()
                .map(|c| {
                    String::from_utf8(c.to_vec()).map_err(|_| {
                        At {
                            file,
                            line: Some(line),
                        }
                        .error(Some(c), "not UTF-8 text")
                    })
                })
                .collect::<Result<_, _>>()?;
            Ok(Record { line, cells })
        })
        .collect()
}

/// A cell as a CSV writer must write it for [`read_records`] to read it back: in double
/// quotes, its quotes doubled, when it holds a comma, a quote or a line break; as it is
/// otherwise. (The reader trims every cell, quoted or not: edge spaces do not survive.)
pub fn field(cell: &str) -> std::borrow::Cow<'_, str> {
    if cell.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", cell.replace('"', "\"\"")).into()
    } else {
        cell.into()
    }
}

/// A record's cells joined by `", "`, for messages.
fn joined(record: &csv::ByteRecord) -> Vec<u8> {
    record.iter().collect::<Vec<_>>().join(&b", "[..])
}

/// Parses a RenderDoc mesh-view CSV export.
pub fn parse(file: &str, text: &[u8]) -> Result<Capture, CaptureError> {
    let mut rows = records(file, text)?.into_iter();
    let Some((hline, header)) = rows.next() else {
        return Err(At { file, line: None }.error(None, "empty file"));
    };
    let hat = At {
        file,
        line: Some(hline),
    };
    let cols: Vec<String> = header
        .iter()
        .map(|c| String::from_utf8_lossy(c).to_string())
        .collect();
    if cols.len() < 3
        || !cols[0].eq_ignore_ascii_case("VTX")
        || !cols[1].eq_ignore_ascii_case("IDX")
    {
        return Err(hat.error(
            Some(&joined(&header)),
            "not a RenderDoc mesh-view CSV: the header must start with `VTX, IDX,`",
        ));
    }
    let mut warnings = vec![At { file, line: None }.warning(
        None,
        "RenderDoc rounds CSV values for display; they are used as printed",
    )];
    let mut groups: Vec<Group> = Vec::new();
    for (c, col) in cols.iter().enumerate().skip(2) {
        let component = col
            .rsplit_once('.')
            .and_then(|(b, s)| Some((b.to_string(), lane_of(s)?)));
        let (base, lane) = match component {
            Some(named) => named,
            None => {
                // A one-component element is written by its whole name, dots included (a
                // SPIR-V struct member such as `vs_out.fog`).
                let suffix = col.rsplit_once('.').map_or("", |(_, s)| s);
                if ["r", "g", "b", "a", "0", "1", "2", "3"]
                    .contains(&suffix.to_ascii_lowercase().as_str())
                    && warnings.len() < 64
                {
                    warnings.push(hat.warning(
                        Some(col.as_bytes()),
                        format!(
                            "one column named in full: RenderDoc names components .x .y .z \
                             .w only, so `.{suffix}` is part of the name (a struct member), \
                             not a component"
                        ),
                    ));
                }
                (col.clone(), 0)
            }
        };
        if base.is_empty() {
            return Err(hat.error(Some(col.as_bytes()), "a column without a name"));
        }
        crate::element::check_semantic_name(&base)
            .map_err(|m| hat.error(Some(col.as_bytes()), m))?;
        let (name, index) = split_semantic(&base);
        match groups
            .iter_mut()
            .find(|g| g.name == name && g.index == index)
        {
            Some(g) => {
                if g.columns.iter().any(|&(_, l)| l == lane) {
                    return Err(hat.error(Some(col.as_bytes()), "the same component twice"));
                }
                g.columns.push((c, lane));
            }
            None => groups.push(Group {
                name,
                index,
                columns: vec![(c, lane)],
                kind: Kind::Uint,
            }),
        }
    }
    for g in &mut groups {
        g.columns.sort_by_key(|c| c.1);
        let lanes: Vec<usize> = g.columns.iter().map(|c| c.1).collect();
        if lanes != (0..lanes.len()).collect::<Vec<_>>() {
            return Err(hat.error(
                Some(g.name.as_bytes()),
                "components must be x, then y, z, w without gaps",
            ));
        }
    }
    // First pass: cells, and each group's kind (a restart row says nothing about it).
    let mut table: Vec<(usize, csv::ByteRecord)> = Vec::new();
    for (n, cells) in rows {
        if cells.len() != cols.len() {
            return Err(At {
                file,
                line: Some(n),
            }
            .error(
                Some(&joined(&cells)),
                format!("{} cells where the header has {}", cells.len(), cols.len()),
            ));
        }
        if &cells[1] == RESTART_IDX {
            table.push((n, cells));
            continue;
        }
        for g in &mut groups {
            for &(c, _) in &g.columns {
                let v = &cells[c];
                if v == OUT_OF_BOUNDS {
                    continue;
                }
                let integer = !v.is_empty()
                    && v.iter()
                        .enumerate()
                        .all(|(i, b)| b.is_ascii_digit() || (i == 0 && *b == b'-'));
                if !integer {
                    g.kind = Kind::Float;
                } else if v[0] == b'-' && g.kind == Kind::Uint {
                    g.kind = Kind::Sint;
                }
            }
        }
        table.push((n, cells));
    }
    if table.is_empty() {
        return Err(At { file, line: None }.error(None, "no rows after the header"));
    }
    let elements: Vec<InputElementDesc> = groups
        .iter()
        .map(|g| {
            InputElementDesc::per_vertex(
                &g.name,
                g.index,
                format_for(g.kind, g.columns.len()),
                0,
                APPEND_ALIGNED_ELEMENT,
            )
        })
        .collect();
    let stride: u32 = elements
        .iter()
        .map(|e| e.format.info().map_or(0, |i| i.byte_size()))
        .sum();
    // Second pass: vertices by IDX, the index list in VTX order.
    // Per row, its IDX; `None` for a restart.
    let mut indices: Vec<Option<u32>> = Vec::with_capacity(table.len());
    let mut previous: Option<Vtx> = None;
    // The first restart row's line and the number of restart rows.
    let mut restarts: Option<(usize, u64)> = None;
    // Per column, the number of `---` cells and the line of the first.
    let mut out_of_bounds: Vec<Option<(u64, usize)>> = vec![None; cols.len()];
    let mut parsed: Vec<(u32, Vec<[u32; 4]>, usize)> = Vec::with_capacity(table.len());
    let (mut lo, mut hi) = (u32::MAX, 0u32);
    for (k, (n, cells)) in table.iter().enumerate() {
        let at = At {
            file,
            line: Some(*n),
        };
        let vtx = Vtx::parse(&cells[0]).ok_or_else(|| {
            at.error(
                Some(&cells[0]),
                "VTX is not a number (nor a mesh shader's `MESHLET[VERTEX]`)",
            )
        })?;
        if !vtx.follows(previous, k) && warnings.len() < 64 {
            let after = match previous {
                Some(Vtx::Meshlet(m, v)) => format!("after `{m}[{v}]`"),
                _ => format!("row {k}"),
            };
            warnings.push(at.warning(
                Some(&cells[0]),
                format!("VTX out of order ({after}); rows are used in file order"),
            ));
        }
        previous = Some(vtx);
        if &cells[1] == RESTART_IDX {
            // RenderDoc writes ` Restart` in every other cell of the row.
            if let Some(c) = (2..cells.len()).find(|&c| &cells[c] != RESTART_CELL) {
                return Err(at.error(
                    Some(&cells[c]),
                    format!(
                        "{}: a primitive-restart row (IDX `--`) reads `Restart` in every \
                         attribute column, as RenderDoc writes it",
                        cols[c]
                    ),
                ));
            }
            restarts.get_or_insert((*n, 0)).1 += 1;
            indices.push(None);
            continue;
        }
        if &cells[1] == OUT_OF_BOUNDS {
            return Err(at.error(
                Some(&cells[1]),
                "IDX `---`: RenderDoc read this index past the end of the index buffer, so \
                 which vertex the row stands for is not known",
            ));
        }
        let idx =
            parse_u32(&cells[1]).ok_or_else(|| at.error(Some(&cells[1]), "IDX is not a number"))?;
        let mut values = Vec::with_capacity(groups.len());
        for (g, e) in groups.iter().zip(&elements) {
            let info = e.format.info().expect("table format");
            let mut lanes = [0, 0, 0, info.default_lane(3)];
            for &(c, lane) in &g.columns {
                if &cells[c] == OUT_OF_BOUNDS {
                    // Read as the input assembler reads past a buffer: 0 (the format's
                    // missing lanes keep their defaults, ia-semantics §2).
                    let (count, _) = out_of_bounds[c].get_or_insert((0, *n));
                    *count += 1;
                    lanes[lane] = 0;
                    continue;
                }
                lanes[lane] = parse_value(&cells[c], g.kind)
                    .map_err(|why| at.error(Some(&cells[c]), format!("{}: {why}", cols[c])))?;
            }
            values.push(lanes);
        }
        lo = lo.min(idx);
        hi = hi.max(idx);
        indices.push(Some(idx));
        parsed.push((idx, values, *n));
    }
    // One warning per run of a group's columns with the same count and first line (all of
    // an element's columns read `---` together when its vertex lies past the buffer).
    for g in &groups {
        let mut k = 0;
        while k < g.columns.len() {
            let Some((count, line)) = out_of_bounds[g.columns[k].0] else {
                k += 1;
                continue;
            };
            let mut names = vec![cols[g.columns[k].0].as_str()];
            k += 1;
            while k < g.columns.len() && out_of_bounds[g.columns[k].0] == Some((count, line)) {
                names.push(&cols[g.columns[k].0]);
                k += 1;
            }
            warnings.push(
                At {
                    file,
                    line: Some(line),
                }
                .warning(
                    Some(OUT_OF_BOUNDS),
                    format!(
                        "{}: {count} row{} past the end of the vertex buffer (RenderDoc's \
                         `---`, the first here), read as 0 as the input assembler reads data \
                         out of bounds",
                        names.join(", "),
                        if count == 1 { "" } else { "s" }
                    ),
                ),
            );
        }
    }
    if parsed.is_empty() {
        // Every row is a restart: no vertex at all.
        lo = 0;
        hi = 0;
    }
    // Element numbers: the IDX values themselves, rows from the least; or, when they spread
    // over more numbers than the rows bound (memory follows the rows read) or one of them is
    // the cut value, the distinct values in increasing order, numbered from 0.
    let span = (hi - lo) as u64 + 1;
    let spread = span > 4 * table.len() as u64 + 1024;
    let holds_cut = !parsed.is_empty() && hi == CUT;
    let distinct: Option<Vec<u32>> = (spread || holds_cut).then(|| {
        let mut d: Vec<u32> = parsed.iter().map(|p| p.0).collect();
        d.sort_unstable();
        d.dedup();
        d
    });
    let row_of = |idx: u32| match &distinct {
        // Every IDX is in the list: the search finds it.
        Some(d) => d.binary_search(&idx).unwrap_or_else(|k| k),
        None => (idx - lo) as usize,
    };
    let (first, rows) = match &distinct {
        Some(d) => {
            let why = if spread {
                format!(
                    "IDX values spread over {span} element numbers for {} rows (a part of a \
                     larger vertex buffer drawn with its own indices)",
                    table.len()
                )
            } else {
                format!("IDX {CUT} is the R32 index buffer's strip-cut value")
            };
            warnings.push(At { file, line: None }.warning(
                Some(format!("{lo}..{hi}").as_bytes()),
                format!(
                    "{why}: its {} vertices are numbered from 0 in IDX order instead, so \
                     element numbers are not the capture's (the values are as printed)",
                    d.len()
                ),
            ));
            (0, d.len())
        }
        None if parsed.is_empty() => (0, 0),
        None => (lo, span as usize),
    };
    let indices: Vec<u32> = indices
        .iter()
        .map(|i| match (i, &distinct) {
            (None, _) => CUT,
            (Some(idx), Some(_)) => row_of(*idx) as u32,
            (Some(idx), None) => *idx,
        })
        .collect();
    let width = groups.len();
    let mut values: Vec<Option<[u32; 4]>> = vec![None; rows * width];
    for (idx, vals, n) in parsed {
        let r = row_of(idx);
        let row = &mut values[r * width..(r + 1) * width];
        if row[0].is_some() {
            let same = row.iter().zip(&vals).all(|(a, b)| *a == Some(*b));
            if !same && warnings.len() < 64 {
                warnings.push(
                    At {
                        file,
                        line: Some(n),
                    }
                    .warning(
                        Some(idx.to_string().as_bytes()),
                        "this IDX was listed before with other values; the first row's are used",
                    ),
                );
            }
            continue;
        }
        for (cell, v) in row.iter_mut().zip(vals) {
            *cell = Some(v);
        }
    }
    let topology = match restarts {
        None => {
            warnings.push(At { file, line: None }.warning(
                None,
                "the CSV does not say the topology; triangle list assumed",
            ));
            Topology::TriangleList
        }
        Some((line, n)) => {
            warnings.push(
                At {
                    file,
                    line: Some(line),
                }
                .warning(
                    Some(RESTART_IDX),
                    format!(
                        "the CSV does not say the topology; {n} primitive-restart row{} \
                         (RenderDoc lists restarts where the pipeline enables them, on \
                         Direct3D 11 for strips only): triangle strip assumed, cut at each \
                         restart (index 0xFFFFFFFF)",
                        if n == 1 { "" } else { "s" }
                    ),
                ),
            );
            Topology::TriangleStrip
        }
    };
    let count = indices.len() as u32;
    Ok(Capture {
        remapped: vec![None; elements.len()],
        elements,
        slots: vec![SlotCapture {
            slot: 0,
            stride,
            offset: 0,
            data: SlotData::Text(TextVertices {
                first,
                elements: (0..width).collect(),
                values,
            }),
            source: file.into(),
        }],
        index: Some(IndexCapture {
            format: IndexFormat::R32Uint,
            offset: 0,
            data: index_bytes(IndexFormat::R32Uint, &indices),
            source: file.into(),
        }),
        topology,
        draw: DrawInfo {
            index_count: Some(count),
            ..DrawInfo::default()
        },
        warnings,
        sources: vec![file.into()],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// CSV as RFC 4180 writes it, read by the `csv` crate: a quoted semantic with a comma and a
    /// doubled quote, CRLF and LF line ends, a byte-order mark, blank lines, a quoted value.
    #[test]
    fn quoted_fields_crlf_bom_and_a_semantic_with_a_comma() {
        // A field is quoted when the quote is its first character (RFC 4180): right after the
        // comma, not after the space RenderDoc writes there (RenderDoc itself quotes nothing).
        let text = b"\xef\xbb\xbfVTX, IDX,\"MY,SEM\"\"X.x\",\"MY,SEM\"\"X.y\", C.x\r\n\
                     \r\n\
                     0, 0, 1.5,\"2\", 7\r\n\
                     1, 1, -1, 0.25, 8\n\
                     2, 0, 1.5, 2, 7\n";
        let c = parse("q.csv", text).unwrap();
        let names = element_names(&c);
        assert_eq!(
            names,
            [
                ("MY,SEM\"X", 0, Format::R32G32_FLOAT),
                ("C", 0, Format::R32_UINT)
            ]
        );
        let SlotData::Text(v) = &c.slots[0].data else {
            panic!("text vertices")
        };
        assert_eq!(v.first, 0);
        assert_eq!(
            v.values,
            [
                Some([1.5f32.to_bits(), 2f32.to_bits(), 0, 1f32.to_bits()]),
                Some([7, 0, 0, 1]),
                Some([(-1f32).to_bits(), 0.25f32.to_bits(), 0, 1f32.to_bits()]),
                Some([8, 0, 0, 1]),
            ]
        );
        let idx = &c.index.as_ref().unwrap().data;
        assert_eq!(idx, &[0u8, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
        // Line numbers count the blank line; a field left open is named, not split.
        let e = parse("q.csv", b"VTX, IDX, P.x\n\n0, 0, 1\n1, 1\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "q.csv:4: 2 cells where the header has 3 (`1, 1`)"
        );
        let e = parse("q.csv", b"VTX, IDX, P.x\r\n\r\n\n1, 1\r\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "q.csv:4: 2 cells where the header has 3 (`1, 1`)"
        );
        // The shared reader: lines from 1, blank ones counted; quoted cells; not UTF-8 named.
        let r = read_records("r.csv", b"\xef\xbb\xbfa,\"b,\"\"c\"\r\n\r\n  \n d ,e\n").unwrap();
        let want = |line: usize, cells: &[&str]| Record {
            line,
            cells: cells.iter().map(|c| c.to_string()).collect(),
        };
        assert_eq!(r, [want(1, &["a", "b,\"c"]), want(4, &["d", "e"])]);
        let e = read_records("r.csv", b"a\n\n\xff,b\n").unwrap_err();
        assert_eq!(e.to_string(), "r.csv:3: not UTF-8 text (`\u{fffd}`)");
        // What `field` writes, the reader reads back.
        for cell in ["plain", "MY,SEM", "say \"hi\"", "two\nlines", ""] {
            let text = format!("{},x\n", field(cell));
            let r = read_records("f.csv", text.as_bytes()).unwrap();
            assert_eq!(r[0].cells, [cell, "x"], "{text}");
        }
        assert_eq!(field("a,b"), "\"a,b\"");
        assert_eq!(field("TEXCOORD0.x"), "TEXCOORD0.x");
        let e = parse("q.csv", b"VTX, IDX, P.x\n0, 0,\"1, 2\"\n").unwrap_err();
        assert!(e.to_string().starts_with("q.csv:2: P.x: "), "{e}");
    }

    /// Each element's semantic name, index and format.
    fn element_names(c: &Capture) -> Vec<(&str, u32, Format)> {
        c.elements
            .iter()
            .map(|e| {
                (
                    e.semantic_name.as_deref().unwrap(),
                    e.semantic_index,
                    e.format,
                )
            })
            .collect()
    }

    /// The capture's index buffer as numbers.
    fn index_values(c: &Capture) -> Vec<u32> {
        let ib = c.index.as_ref().expect("an index buffer");
        assert_eq!(ib.format, IndexFormat::R32Uint);
        ib.data
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect()
    }

    /// The capture's text rows: element number of row 0 and the values.
    fn text_rows(c: &Capture) -> (u32, &[Option<[u32; 4]>]) {
        let SlotData::Text(v) = &c.slots[0].data else {
            panic!("text vertices")
        };
        (v.first, &v.values)
    }

    /// A RenderDoc primitive-restart row (`--` in IDX, ` Restart` in every other cell, as
    /// `BufferItemModel::data` writes it) is a strip cut: 0xFFFFFFFF (the R32 cut value) at
    /// its position in the index buffer, a triangle strip assumed, and the rows after it keep
    /// their element numbers. Float bits are written out by hand.
    #[test]
    fn restart_rows_are_strip_cuts() {
        let text = b"VTX, IDX, POSITION.x, POSITION.y\n\
                     0, 4,  1.50,  0.00\n1, 5,  2.50,  0.00\n2, 6,  3.50,  0.00\n\
                     3, --,  Restart,  Restart\n\
                     4, 5,  2.50,  0.00\n5, 4,  1.50,  0.00\n6, 7, -0.25,  1.00\n";
        let c = parse("r.csv", text).unwrap();
        assert_eq!(c.topology, Topology::TriangleStrip);
        assert_eq!(index_values(&c), [4, 5, 6, 0xffff_ffff, 5, 4, 7]);
        assert_eq!(c.draw.index_count, Some(7));
        let one = 0x3f80_0000;
        assert_eq!(
            text_rows(&c),
            (
                4,
                &[
                    Some([0x3fc0_0000, 0, 0, one]),
                    Some([0x4020_0000, 0, 0, one]),
                    Some([0x4060_0000, 0, 0, one]),
                    Some([0xbe80_0000, one, 0, one]),
                ][..]
            )
        );
        let last = c.warnings.last().unwrap().to_string();
        assert_eq!(
            last,
            "r.csv:5: the CSV does not say the topology; 1 primitive-restart row (RenderDoc \
             lists restarts where the pipeline enables them, on Direct3D 11 for strips only): \
             triangle strip assumed, cut at each restart (index 0xFFFFFFFF) (`--`)"
        );
        // A restart row holding a value is not what RenderDoc writes.
        let e = parse("r.csv", b"VTX, IDX, P.x, P.y\n0, --, Restart, 1.0\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "r.csv:2: P.y: a primitive-restart row (IDX `--`) reads `Restart` in every \
             attribute column, as RenderDoc writes it (`1.0`)"
        );
        // Rows of restarts only: no vertex, an index buffer of cuts.
        let c = parse("r.csv", b"VTX, IDX, P.x\n0, --, Restart\n1, --, Restart\n").unwrap();
        assert_eq!(index_values(&c), [0xffff_ffff, 0xffff_ffff]);
        assert_eq!(text_rows(&c), (0, &[][..]));
    }

    /// RenderDoc's `---` (`outOfBounds()`: a vertex past the end of its buffer) reads as 0,
    /// as the input assembler reads out of bounds (missing lanes defaulted), with one
    /// warning per run of columns with one count; `---` does not make an integer group
    /// float. An IDX of `---` is refused with its reason.
    #[test]
    fn out_of_bounds_cells_read_as_zero() {
        let text = b"VTX, IDX, P.x, P.y, B.x\n\
                     0, 0, 1.5, -2, 3\n\
                     1, 2, ---, ---, ---\n\
                     2, 3, ---, ---, ---\n\
                     3, 1, 0.5, ---, 4\n";
        let c = parse("o.csv", text).unwrap();
        let formats: Vec<Format> = c.elements.iter().map(|e| e.format).collect();
        assert_eq!(formats, [Format::R32G32_FLOAT, Format::R32_UINT]);
        let one = 0x3f80_0000;
        assert_eq!(
            text_rows(&c),
            (
                0,
                &[
                    Some([0x3fc0_0000, 0xc000_0000, 0, one]),
                    Some([3, 0, 0, 1]),
                    Some([0x3f00_0000, 0, 0, one]),
                    Some([4, 0, 0, 1]),
                    Some([0, 0, 0, one]),
                    Some([0, 0, 0, 1]),
                    Some([0, 0, 0, one]),
                    Some([0, 0, 0, 1]),
                ][..]
            )
        );
        assert_eq!(index_values(&c), [0, 2, 3, 1]);
        let said: Vec<String> = c.warnings.iter().map(|w| w.to_string()).collect();
        let tail = "past the end of the vertex buffer (RenderDoc's `---`, the first here), read \
                    as 0 as the input assembler reads data out of bounds (`---`)";
        assert_eq!(
            said[1..4],
            [
                format!("o.csv:3: P.x: 2 rows {tail}"),
                format!("o.csv:3: P.y: 3 rows {tail}"),
                format!("o.csv:3: B.x: 2 rows {tail}"),
            ]
        );
        let c = parse("o.csv", b"VTX, IDX, P.x, P.y\n0, 0, ---, ---\n").unwrap();
        assert_eq!(
            c.warnings[1].to_string(),
            format!("o.csv:2: P.x, P.y: 1 row {tail}")
        );
        let e = parse("o.csv", b"VTX, IDX, P.x\n0, ---, ---\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "o.csv:2: IDX `---`: RenderDoc read this index past the end of the index buffer, \
             so which vertex the row stands for is not known (`---`)"
        );
    }

    /// A mesh shader's output (RenderDoc writes VTX as `%1[%2]`, meshlet[vertex]) reads as
    /// any other: VTX only checks the order, a jump or a meshlet not starting at 0 warns.
    #[test]
    fn mesh_shader_vtx_is_meshlet_and_vertex() {
        let text = b"VTX, IDX, SV_Position.x\n\
                     3[0], 0, 0.5\n3[1], 1, 1.0\n3[2], 2, 0.5\n\
                     5[0], 3, 2.0\n5[1], 4, -1.0\n5[2], 3, 2.0\n";
        let c = parse("m.csv", text).unwrap();
        assert_eq!(index_values(&c), [0, 1, 2, 3, 4, 3]);
        let lane = |x: u32| Some([x, 0, 0, 0x3f80_0000]);
        assert_eq!(
            text_rows(&c),
            (
                0,
                &[
                    lane(0x3f00_0000),
                    lane(0x3f80_0000),
                    lane(0x3f00_0000),
                    lane(0x4000_0000),
                    lane(0xbf80_0000),
                ][..]
            )
        );
        let said: Vec<String> = c.warnings.iter().map(|w| w.to_string()).collect();
        assert!(!said.iter().any(|w| w.contains("VTX")), "{said:?}");
        let odd = b"VTX, IDX, P.x\n0[1], 0, 1\n0[3], 1, 1\n1[1], 2, 1\n4, 2, 1\n";
        let said: Vec<String> = parse("m.csv", odd)
            .unwrap()
            .warnings
            .iter()
            .map(|w| w.to_string())
            .collect();
        assert_eq!(
            said[1..5],
            [
                "m.csv:2: VTX out of order (row 0); rows are used in file order (`0[1]`)",
                "m.csv:3: VTX out of order (after `0[1]`); rows are used in file order (`0[3]`)",
                "m.csv:4: VTX out of order (after `0[3]`); rows are used in file order (`1[1]`)",
                "m.csv:5: VTX out of order (after `1[1]`); rows are used in file order (`4`)",
            ]
        );
        let e = parse("m.csv", b"VTX, IDX, P.x\n0[x], 0, 1\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "m.csv:2: VTX is not a number (nor a mesh shader's `MESHLET[VERTEX]`) (`0[x]`)"
        );
    }

    /// A one-component element is written by its whole name (RenderDoc's `headerData`
    /// returns `el.name` for one column), dots included: `vs_out.fog` is one column, not
    /// component `fog` of `vs_out`. RenderDoc names components x y z w only, so `tint.r` is a
    /// member named `r`: one column, with a warning, never lane 0 of `tint`.
    #[test]
    fn dotted_one_component_columns_keep_their_whole_name() {
        let text = b"VTX, IDX, gl_Position.x, gl_Position.y, vs_out.uv.x, vs_out.uv.y, \
                     vs_out.fog, tint.r, tint.g\n\
                     0, 0, 0.5, 1.0, 0.25, 0.75, 0.5, 2.0, 3\n";
        let c = parse("s.csv", text).unwrap();
        let names = element_names(&c);
        assert_eq!(
            names,
            [
                ("gl_Position", 0, Format::R32G32_FLOAT),
                ("vs_out.uv", 0, Format::R32G32_FLOAT),
                ("vs_out.fog", 0, Format::R32_FLOAT),
                ("tint.r", 0, Format::R32_FLOAT),
                ("tint.g", 0, Format::R32_UINT),
            ]
        );
        let one = 0x3f80_0000;
        assert_eq!(
            text_rows(&c).1,
            [
                Some([0x3f00_0000, one, 0, one]),
                Some([0x3e80_0000, 0x3f40_0000, 0, one]),
                Some([0x3f00_0000, 0, 0, one]),
                Some([0x4000_0000, 0, 0, one]),
                Some([3, 0, 0, 1]),
            ]
        );
        let said: Vec<String> = c.warnings.iter().map(|w| w.to_string()).collect();
        let why = |l: &str| {
            format!(
                "s.csv:1: one column named in full: RenderDoc names components .x .y .z .w \
                 only, so `.{l}` is part of the name (a struct member), not a component \
                 (`tint.{l}`)"
            )
        };
        assert_eq!(said[1..3], [why("r"), why("g")]);
        assert!(!said.iter().any(|w| w.contains("fog")), "{said:?}");
    }

    /// A sub-mesh drawn with absolute indices into a shared buffer (IDX 100000, 100001,
    /// 102000 for three rows: more numbers than the rows bound) is read, not refused: the
    /// distinct IDX values are numbered from 0 in increasing order, with a warning, and every
    /// value is kept. An IDX of 0xFFFFFFFF (the cut value) is renumbered the same way, so it
    /// does not cut; restarts stay cuts. A spread within the bound keeps the IDX values.
    #[test]
    fn spread_idx_values_are_numbered_from_zero() {
        let text = b"VTX, IDX, P.x\n0, 102000, 3.5\n1, 100000, 1.5\n2, 100001, 2.5\n\
                     3, --, Restart\n4, 102000, 3.5\n";
        let c = parse("s.csv", text).unwrap();
        assert_eq!(index_values(&c), [2, 0, 1, 0xffff_ffff, 2]);
        let lane = |x: u32| Some([x, 0, 0, 0x3f80_0000]);
        assert_eq!(
            text_rows(&c),
            (
                0,
                &[lane(0x3fc0_0000), lane(0x4020_0000), lane(0x4060_0000)][..]
            )
        );
        assert_eq!(
            c.warnings[1].to_string(),
            "s.csv: IDX values spread over 2001 element numbers for 5 rows (a part of a larger \
             vertex buffer drawn with its own indices): its 3 vertices are numbered from 0 in \
             IDX order instead, so element numbers are not the capture's (the values are as \
             printed) (`100000..102000`)"
        );
        let c = parse(
            "s.csv",
            b"VTX, IDX, P.x\n0, 4294967295, 1.5\n1, 4294967294, 2.5\n",
        )
        .unwrap();
        assert_eq!(index_values(&c), [1, 0]);
        assert_eq!(
            text_rows(&c),
            (0, &[lane(0x4020_0000), lane(0x3fc0_0000)][..])
        );
        assert_eq!(
            c.warnings[1].to_string(),
            "s.csv: IDX 4294967295 is the R32 index buffer's strip-cut value: its 2 vertices \
             are numbered from 0 in IDX order instead, so element numbers are not the \
             capture's (the values are as printed) (`4294967294..4294967295`)"
        );
        // 1,029 numbers for one row: within the bound, kept (rows of no IDX are empty).
        let c = parse("s.csv", b"VTX, IDX, P.x\n0, 1028, 1.5\n1, 0, 2.5\n").unwrap();
        assert_eq!(index_values(&c), [1028, 0]);
        let (first, rows) = text_rows(&c);
        assert_eq!(
            (first, rows.len(), rows[0], rows[1028]),
            (0, 1029, lane(0x4020_0000), lane(0x3fc0_0000))
        );
    }

    #[test]
    fn semantics_split_trailing_digits() {
        assert_eq!(split_semantic("TEXCOORD0"), ("TEXCOORD".into(), 0));
        assert_eq!(split_semantic("COLOR12"), ("COLOR".into(), 12));
        assert_eq!(split_semantic("POSITION"), ("POSITION".into(), 0));
        assert_eq!(split_semantic("7"), ("7".into(), 0));
    }
}
