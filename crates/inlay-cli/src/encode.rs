//! `inlay encode`: vertex values (CSV or JSON, as `inlay decode` prints them) written back into
//! slot buffers through a layout, with `inlay::encode::VertexWriter`.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use inlay::encode::values::{ElementValues as Column, LANES};
use inlay::encode::{EncodeError, Rounding, SlotBuffer, VertexWriter, WriterOptions};
use inlay::layout::{InputClass, InputLayout};

use crate::output::{self, AtomicFile};
use crate::source::{self, LayoutFile, MAX_TEXT_BYTES};
use crate::{CliError, TargetArgs, check, style};

/// Encode vertex values (CSV or JSON as `inlay decode` prints them) into vertex buffers
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  inlay decode seed.json --vb 0=seed.vb --format csv --output seed.csv
  inlay encode seed.json --input seed.csv --out 0=copy.vb
  inlay encode mesh.h --input verts.json --out 0=pos.vb --out 1=inst.vb --rounding d3d

The input has one row (CSV) or object (JSON) per vertex with `vertex_id`, optionally \
`instance_id` (default 0), and for every element of the layout its components: CSV columns \
NAME<index>.x/.y/.z/.w, or a JSON array under NAME<index>. Values are floats for FLOAT, UNORM \
and SNORM formats (NaN, inf, -inf accepted) and integers for UINT/SINT; with --hex every value \
is the 32-bit register as 8 hex digits (what `inlay decode --hex` prints, exact for NaN \
payloads). Per-vertex elements go to vertex `vertex_id` of their slot, per-instance ones to the \
record instance `instance_id` reads (instance_id / step rate). Lanes a format lacks (printed \
by `decode --all-lanes`) are ignored. A value the element's format cannot hold (40000 in \
R16_SINT, 65520 in R16_FLOAT, 1.5 in UNORM, a number past the 32-bit float range such as 1e400) \
is an error naming the line, element, vertex and value; --clamp saturates such values instead, \
as the encoder defines it. Nothing is written unless every value is valid.")]
pub struct EncodeArgs {
    /// Layout file: C/C++, C#, Rust, JSON, TOML, an importer .fmt or a 3DMigoto vb dump (`-`:
    /// standard input)
    pub layout: PathBuf,
    /// The values: a CSV or JSON file (`-` for standard input)
    #[arg(long, value_name = "FILE")]
    pub input: PathBuf,
    /// How to read --input [default: from the file name, .json = json, else csv]
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub input_format: Option<ValuesFormat>,
    /// Output buffer of a slot (one for every slot the layout uses; `-`: standard output)
    #[arg(long = "out", value_name = "SLOT=FILE", required = true)]
    pub out: Vec<String>,
    /// Stride of a slot's output (default: the layout's smallest stride for it)
    #[arg(long = "stride", value_name = "SLOT=N")]
    pub stride: Vec<String>,
    /// Values are 32-bit registers as 8 hex digits
    #[arg(long)]
    pub hex: bool,
    /// Saturate values the format cannot hold (integers to the format's range, UNORM/SNORM
    /// to [0, 1]/[-1, 1], floats past the range to infinity or the largest value per
    /// --rounding) instead of refusing them
    #[arg(long)]
    pub clamp: bool,
    /// Rounding of narrower formats: nearest (exact nearest code) or d3d (the pipeline's rules)
    #[arg(long, default_value = "nearest", value_name = "R")]
    pub rounding: Rounding,
    /// Value of every byte no element covers (padding)
    #[arg(long, default_value = "0", value_name = "BYTE")]
    pub padding: String,
    /// Values for an element the input lacks: NAME<index>=x,y,z,w (as the input spells values)
    #[arg(long = "default", value_name = "ELEMENT=x,y,z,w")]
    pub defaults: Vec<String>,
    /// Refuse to write more than this many bytes in all
    #[arg(long, default_value_t = 1 << 30, value_name = "BYTES")]
    pub max_bytes: u64,
    /// Replace output files that exist
    #[arg(long)]
    pub force: bool,
    /// Which C array to use when the file has several
    #[arg(long, value_name = "NAME")]
    pub array: Option<String>,
    #[command(flatten)]
    pub target: TargetArgs,
}

/// `--input-format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ValuesFormat {
    /// Comma-separated values with a header line
    Csv,
    /// A JSON array of vertex objects
    Json,
}

/// A number from the command line: decimal or 0x hexadecimal.
pub fn parse_number(what: &str, s: &str) -> Result<u64, CliError> {
    inlay::text::parse_u64(s)
        .ok_or_else(|| CliError::usage(format!("{what}: `{s}` is not a number")))
}

/// `SLOT=VALUE` pairs (`--out`, `--stride`).
pub fn parse_slot_pairs(flag: &str, items: &[String]) -> Result<Vec<(u32, String)>, CliError> {
    let mut out: Vec<(u32, String)> = Vec::new();
    for s in items {
        let (slot, v) = s
            .split_once('=')
            .ok_or_else(|| CliError::usage(format!("{flag} `{s}`: expected SLOT=VALUE")))?;
        let slot = parse_number(&format!("{flag} slot"), slot)?;
        let slot = u32::try_from(slot)
            .map_err(|_| CliError::usage(format!("{flag} `{s}`: slot {slot} is too large")))?;
        if v.is_empty() {
            return Err(CliError::usage(format!("{flag} `{s}`: nothing after `=`")));
        }
        if out.iter().any(|(o, _)| *o == slot) {
            return Err(CliError::usage(format!("{flag}: slot {slot} given twice")));
        }
        out.push((slot, v.to_string()));
    }
    Ok(out)
}

/// `--stride SLOT=N` values.
pub fn parse_strides(items: &[String]) -> Result<Vec<(u32, u32)>, CliError> {
    parse_slot_pairs("--stride", items)?
        .into_iter()
        .map(|(slot, v)| {
            let n = parse_number("--stride", &v)?;
            u32::try_from(n)
                .map(|n| (slot, n))
                .map_err(|_| CliError::usage(format!("--stride {slot}: {n} is too large")))
        })
        .collect()
}

/// `--padding`.
pub fn parse_padding(s: &str) -> Result<u8, CliError> {
    let n = parse_number("--padding", s)?;
    u8::try_from(n)
        .map_err(|_| CliError::usage(format!("--padding: {n} is not a byte value (0 to 255)")))
}

/// The `--out` files, checked against the layout's slots: every used slot needs one, and no
/// other slot may be named.
pub fn output_paths(layout: &InputLayout, out: &[String]) -> Result<Vec<(u32, PathBuf)>, CliError> {
    let outs = parse_slot_pairs("--out", out)?;
    let named: Vec<&Path> = outs.iter().map(|(_, p)| Path::new(p.as_str())).collect();
    output::one_dash(&named)?;
    for (slot, _) in &outs {
        if layout.slot(*slot).is_none() {
            let used: Vec<String> = layout.slots().iter().map(|s| s.slot.to_string()).collect();
            return Err(CliError::usage(format!(
                "--out {slot}: the layout has no element in slot {slot} (its slots: {})",
                used.join(", ")
            )));
        }
    }
    let mut paths = Vec::new();
    for s in layout.slots() {
        let p = outs.iter().find(|(o, _)| *o == s.slot).ok_or_else(|| {
            CliError::usage(format!(
                "slot {} holds elements of the layout: give --out {}=FILE",
                s.slot, s.slot
            ))
        })?;
        paths.push((s.slot, PathBuf::from(&p.1)));
    }
    Ok(paths)
}

/// Writes every buffer: files atomically, all temporary files written before any is renamed;
/// `-` (at most one) to standard output, after the files are written and before they are
/// renamed.
pub fn write_buffers(
    buffers: &[SlotBuffer],
    paths: &[(u32, PathBuf)],
    stdout: &mut dyn Write,
    inputs: &[&Path],
    force: bool,
) -> Result<(), CliError> {
    let outputs: Vec<&Path> = paths.iter().map(|(_, p)| p.as_path()).collect();
    output::one_dash(&outputs)?;
    let mut files = Vec::new();
    let mut to_stdout = None;
    for (slot, path) in paths {
        if paths.iter().filter(|(_, p)| p == path).count() > 1 {
            return Err(CliError::usage(format!(
                "--out: {} is named for more than one slot",
                path.display()
            )));
        }
        let buf = buffers.iter().find(|b| b.slot == *slot);
        if output::is_dash(path) {
            to_stdout = Some(buf);
            continue;
        }
        files.push((AtomicFile::create(path, inputs, force)?, path, buf));
    }
    for (f, path, buf) in &mut files {
        if let Some(b) = buf {
            f.write_all(&b.data)
                .map_err(|e| CliError::io(format!("cannot write {}", path.display()), e))?;
        }
    }
    if let Some(Some(b)) = to_stdout {
        stdout.write_all(&b.data).map_err(CliError::stdout)?;
    }
    for (f, _, _) in files {
        f.commit()?;
    }
    Ok(())
}

fn columns(layout: &InputLayout, clamp: bool) -> Result<Vec<Column>, CliError> {
    let mut cols = Column::of_layout(layout).map_err(|e| CliError::usage(e.0))?;
    for c in &mut cols {
        c.clamp = clamp;
    }
    Ok(cols)
}

/// Where a value came from, for messages.
struct At<'a> {
    file: &'a str,
    /// `line N` (CSV) or `vertex object N` (JSON).
    place: String,
    vertex: u64,
}

impl At<'_> {
    fn err(&self, msg: String) -> CliError {
        CliError::usage(format!(
            "{}: {}, vertex {}: {msg}",
            self.file, self.place, self.vertex
        ))
    }
}

/// One value as a 32-bit lane of an element of `col` (the library's check and message).
fn parse_value(
    col: &Column,
    lane: usize,
    text: &str,
    hex: bool,
    at: &At<'_>,
) -> Result<u32, CliError> {
    col.lane_from_text(lane, text, hex).map_err(|e| at.err(e.0))
}

/// One parsed vertex: ids and per element the lanes (None = element not given).
struct Row {
    vertex: u32,
    instance: u32,
    values: Vec<Option<[u32; 4]>>,
    place: String,
}

fn parse_id(at: &At<'_>, what: &str, t: &str) -> Result<u32, CliError> {
    t.trim().parse::<u32>().map_err(|_| {
        at.err(format!(
            "{what}: `{}` is not a number from 0 to 4294967295",
            t.trim()
        ))
    })
}

fn parse_csv(text: &str, file: &str, cols: &[Column], hex: bool) -> Result<Vec<Row>, CliError> {
    // The library's CSV reader (quoted cells, CRLF, a byte-order mark), as for RenderDoc CSV.
    let records = inlay::capture::csv::read_records(file, text.as_bytes())
        .map_err(|e| CliError::usage(e.to_string()))?;
    let mut lines = records.iter();
    let Some(header) = lines.next() else {
        return Err(CliError::usage(format!("{file}: no header line")));
    };
    let names: Vec<&str> = header.cells.iter().map(String::as_str).collect();
    let hl = header.line;
    let find = |n: &str| names.iter().position(|h| h.eq_ignore_ascii_case(n));
    let vid = find("vertex_id").ok_or_else(|| {
        CliError::usage(format!("{file}:{hl}: the header has no vertex_id column"))
    })?;
    let iid = find("instance_id");
    // Per element: the column index of each lane.
    let mut lane_cols: Vec<[Option<usize>; 4]> = vec![[None; 4]; cols.len()];
    for (i, h) in names.iter().enumerate() {
        if matches!(
            h.to_ascii_lowercase().as_str(),
            "position" | "vertex_id" | "element" | "instance_id"
        ) {
            continue;
        }
        let Some((elem, lane)) = h.rsplit_once('.') else {
            return Err(CliError::usage(format!(
                "{file}:{hl}: column `{h}` is not ELEMENT.x/y/z/w"
            )));
        };
        let Some(l) = LANES.iter().position(|x| x.eq_ignore_ascii_case(lane)) else {
            return Err(CliError::usage(format!(
                "{file}:{hl}: column `{h}`: `{lane}` is not a lane (x, y, z or w)"
            )));
        };
        let Some(e) = cols.iter().position(|c| c.name.eq_ignore_ascii_case(elem)) else {
            let known: Vec<&str> = cols.iter().map(|c| c.name.as_str()).collect();
            return Err(CliError::usage(format!(
                "{file}:{hl}: column `{h}`: the layout has no element {elem} (it has {})",
                known.join(", ")
            )));
        };
        if lane_cols[e][l].replace(i).is_some() {
            return Err(CliError::usage(format!(
                "{file}:{hl}: column `{h}` appears twice"
            )));
        }
    }
    let mut rows = Vec::new();
    for record in lines {
        let n = record.line;
        let cells = &record.cells;
        let place = format!("line {n}");
        let pre = At {
            file,
            place: place.clone(),
            vertex: 0,
        };
        if cells.len() != names.len() {
            return Err(CliError::usage(format!(
                "{file}:{n}: {}, the header has {}",
                inlay::diag::count(cells.len() as u64, "value", "values"),
                inlay::diag::count(names.len() as u64, "column", "columns")
            )));
        }
        let vertex = parse_id(&pre, "vertex_id", &cells[vid])?;
        let instance = match iid {
            Some(i) => parse_id(&pre, "instance_id", &cells[i])?,
            None => 0,
        };
        let at = At {
            file,
            place: place.clone(),
            vertex: vertex as u64,
        };
        let mut values = Vec::with_capacity(cols.len());
        for (e, c) in cols.iter().enumerate() {
            if lane_cols[e].iter().all(|x| x.is_none()) {
                values.push(None);
                continue;
            }
            let mut lanes = [0u32; 4];
            for (l, lane) in lanes.iter_mut().enumerate() {
                match lane_cols[e][l] {
                    Some(ci) => *lane = parse_value(c, l, &cells[ci], hex, &at)?,
                    None if c.mask & (1 << l) != 0 => return Err(at.err(c.missing_lane(l).0)),
                    None => {}
                }
            }
            values.push(Some(lanes));
        }
        rows.push(Row {
            vertex,
            instance,
            values,
            place,
        });
    }
    Ok(rows)
}

fn parse_json(text: &str, file: &str, cols: &[Column], hex: bool) -> Result<Vec<Row>, CliError> {
    let v: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| CliError::usage(format!("{file}:{}:{}: {e}", e.line(), e.column())))?;
    let arr = v
        .as_array()
        .ok_or_else(|| CliError::usage(format!("{file}: expected an array of vertex objects")))?;
    let mut rows = Vec::with_capacity(arr.len());
    for (n, obj) in arr.iter().enumerate() {
        let place = format!("vertex object {n}");
        let pre = At {
            file,
            place: place.clone(),
            vertex: n as u64,
        };
        let obj = obj
            .as_object()
            .ok_or_else(|| pre.err("not an object".to_string()))?;
        let id = |k: &str| -> Result<Option<u32>, CliError> {
            match obj.iter().find(|(key, _)| key.eq_ignore_ascii_case(k)) {
                None => Ok(None),
                Some((_, v)) => v
                    .as_u64()
                    .and_then(|x| u32::try_from(x).ok())
                    .map(Some)
                    .ok_or_else(|| {
                        pre.err(format!("{k}: {v} is not a number from 0 to 4294967295"))
                    }),
            }
        };
        let vertex = id("vertex_id")?.ok_or_else(|| pre.err("no vertex_id".to_string()))?;
        let instance = id("instance_id")?.unwrap_or(0);
        let at = At {
            file,
            place: place.clone(),
            vertex: vertex as u64,
        };
        for key in obj.keys() {
            let k = key.to_ascii_lowercase();
            if !matches!(
                k.as_str(),
                "position" | "vertex_id" | "element" | "instance_id"
            ) && !cols.iter().any(|c| c.name.eq_ignore_ascii_case(key))
            {
                let known: Vec<&str> = cols.iter().map(|c| c.name.as_str()).collect();
                return Err(at.err(format!(
                    "`{key}`: the layout has no such element (it has {})",
                    known.join(", ")
                )));
            }
        }
        let mut values = Vec::with_capacity(cols.len());
        for c in cols {
            let Some((_, val)) = obj.iter().find(|(k, _)| k.eq_ignore_ascii_case(&c.name)) else {
                values.push(None);
                continue;
            };
            let list = val
                .as_array()
                .ok_or_else(|| at.err(format!("{}: expected an array of lane values", c.name)))?;
            c.check_lane_count(list.len()).map_err(|e| at.err(e.0))?;
            // Values are the format's lanes in x..w order (decode prints the present ones,
            // or all four with --all-lanes).
            let lanes_of: Vec<usize> = if list.len() == 4 {
                (0..4).collect()
            } else {
                (0..4).filter(|l| c.mask & (1 << l) != 0).collect()
            };
            let mut lanes = [0u32; 4];
            for (x, &l) in list.iter().zip(&lanes_of) {
                let text = match x {
                    serde_json::Value::String(s) => s.clone(),
                    serde_json::Value::Number(num) => num.to_string(),
                    other => {
                        return Err(
                            at.err(format!("{}.{}: {other} is not a number", c.name, LANES[l]))
                        );
                    }
                };
                lanes[l] = parse_value(c, l, &text, hex, &at)?;
            }
            values.push(Some(lanes));
        }
        rows.push(Row {
            vertex,
            instance,
            values,
            place,
        });
    }
    Ok(rows)
}

/// `--default NAME<index>=x,y,z,w` for the columns' elements.
fn parse_defaults(
    items: &[String],
    cols: &[Column],
    hex: bool,
) -> Result<Vec<Option<[u32; 4]>>, CliError> {
    let mut out = vec![None; cols.len()];
    for s in items {
        let (name, vals) = s
            .split_once('=')
            .ok_or_else(|| CliError::usage(format!("--default `{s}`: expected ELEMENT=x,y,z,w")))?;
        let e = cols
            .iter()
            .position(|c| c.name.eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| {
                CliError::usage(format!("--default `{s}`: the layout has no element {name}"))
            })?;
        let at = At {
            file: "--default",
            place: name.to_string(),
            vertex: 0,
        };
        let parts: Vec<&str> = vals.split(',').collect();
        if parts.len() > 4 {
            return Err(CliError::usage(format!(
                "--default `{s}`: more than 4 lanes"
            )));
        }
        let mut lanes = [0u32; 4];
        for (l, p) in parts.iter().enumerate() {
            lanes[l] = parse_value(&cols[e], l, p, hex, &at)?;
        }
        out[e] = Some(lanes);
    }
    Ok(out)
}

/// Writes `rows` through `writer`, refusing an element written twice with different bytes.
fn write_rows(
    writer: &mut VertexWriter<'_>,
    layout: &InputLayout,
    rows: &[Row],
    cols: &[Column],
    defaults: &[Option<[u32; 4]>],
    file: &str,
) -> Result<(), CliError> {
    // (element, record) → the row that wrote it and its lanes.
    let mut seen: HashMap<(usize, u32), (usize, [u32; 4])> = HashMap::new();
    for (ri, row) in rows.iter().enumerate() {
        let at = At {
            file,
            place: row.place.clone(),
            vertex: row.vertex as u64,
        };
        let mut values = Vec::with_capacity(cols.len());
        for (e, c) in cols.iter().enumerate() {
            let lanes = row.values[e].or(defaults[e]).ok_or_else(|| {
                at.err(format!(
                    "no values for element {} ({}); add its columns or --default {}=…",
                    c.name, c.format, c.name
                ))
            })?;
            let el = &layout.elements()[e];
            let record = match el.class {
                InputClass::PerVertex => row.vertex,
                InputClass::PerInstance if el.step_rate == 0 => 0,
                InputClass::PerInstance => row.instance / el.step_rate,
            };
            if let Some((prev, old)) = seen.insert((e, record), (ri, lanes))
                && old != lanes
            {
                let what = if el.class == InputClass::PerVertex {
                    format!("vertex {record}")
                } else {
                    format!("instance record {record}")
                };
                return Err(at.err(format!(
                    "{}: {what} was given other values by {} ({}); one record holds one value",
                    c.name,
                    rows[prev].place,
                    format_lanes(&old, c.mask)
                )));
            }
            values.push(lanes);
        }
        writer
            .write_vertex(row.vertex, row.instance, &values)
            .map_err(|e| match e {
                EncodeError::ValueOutOfRange { .. } => at.err(format!("{e}; --clamp saturates it")),
                e => at.err(e.to_string()),
            })?;
    }
    Ok(())
}

fn format_lanes(l: &[u32; 4], mask: u8) -> String {
    (0..4)
        .filter(|i| mask & (1 << i) != 0)
        .map(|i| format!("{:08x}", l[i]))
        .collect::<Vec<_>>()
        .join(" ")
}

fn encode_error(e: EncodeError) -> CliError {
    match e {
        EncodeError::SizeLimit { .. } => {
            CliError::usage(format!("{e} (raise it with --max-bytes)"))
        }
        e => CliError::usage(e.to_string()),
    }
}

/// Runs `inlay encode`.
pub fn run(args: &EncodeArgs, stdout: &mut dyn Write) -> Result<u8, CliError> {
    let err_style = style::stderr();
    let layout_file = LayoutFile::load(&args.layout, args.array.as_deref(), err_style)?;
    let target = args.target.target()?;
    let creation = check::create(
        &layout_file,
        None,
        &target,
        args.target.pipeline(None),
        false,
    )?;
    let Some(layout) = &creation.layout else {
        let mut err = std::io::stderr();
        check::write_diagnostics(&mut err, &layout_file, &creation, err_style)?;
        check::write_result(&mut err, &creation, err_style)?;
        return Ok(1);
    };
    let paths = output_paths(layout, &args.out)?;
    let mut strides = parse_strides(&args.stride)?;
    // The strides the layout file states (a .fmt, a dump) are the defaults.
    for &(slot, stride) in &layout_file.strides {
        if !strides.iter().any(|(s, _)| *s == slot) {
            strides.push((slot, stride));
        }
    }
    let padding = parse_padding(&args.padding)?;
    let cols = columns(layout, args.clamp)?;
    let defaults = parse_defaults(&args.defaults, &cols, args.hex)?;

    let file = args.input.display().to_string();
    let bytes = source::read_bytes(&args.input, MAX_TEXT_BYTES)?;
    let text = String::from_utf8(bytes)
        .map_err(|e| CliError::usage(format!("{file}: not UTF-8 text ({e})")))?;
    let format = args.input_format.unwrap_or_else(|| {
        if file.to_ascii_lowercase().ends_with(".json") {
            ValuesFormat::Json
        } else {
            ValuesFormat::Csv
        }
    });
    let rows = match format {
        ValuesFormat::Csv => parse_csv(&text, &file, &cols, args.hex)?,
        ValuesFormat::Json => parse_json(&text, &file, &cols, args.hex)?,
    };
    let vertices = rows.iter().map(|r| r.vertex as u64 + 1).max().unwrap_or(0);
    let instances = rows
        .iter()
        .map(|r| r.instance as u64 + 1)
        .max()
        .unwrap_or(0);
    let (vertices, instances) = (
        u32::try_from(vertices).unwrap_or(u32::MAX),
        u32::try_from(instances).unwrap_or(u32::MAX),
    );
    let options = WriterOptions {
        rounding: args.rounding,
        padding,
        strides,
        max_bytes: Some(args.max_bytes),
    };
    let mut writer =
        VertexWriter::with_options(layout, vertices, instances, &options).map_err(|e| {
            // Say which row asked for that much.
            let far = rows.iter().max_by_key(|r| r.vertex);
            let why = match (&e, far) {
                (EncodeError::SizeLimit { .. }, Some(r)) => format!(
                    "; the largest vertex_id is {} ({file}, {})",
                    r.vertex, r.place
                ),
                _ => String::new(),
            };
            let c = encode_error(e);
            CliError::usage(format!("{}{why}", c.message))
        })?;
    writer.set_clamp(args.clamp);
    write_rows(&mut writer, layout, &rows, &cols, &defaults, &file)?;
    let buffers = writer.into_buffers();
    let inputs: Vec<&Path> = vec![&args.layout, &args.input];
    write_buffers(&buffers, &paths, stdout, &inputs, args.force)?;
    // With `--out SLOT=-` the buffer is standard output, and this summary standard error.
    let mut stderr = std::io::stderr();
    let outputs: Vec<&Path> = paths.iter().map(|(_, p)| p.as_path()).collect();
    let report = output::report_stream(stdout, &mut stderr, &outputs);
    for (b, (_, p)) in buffers.iter().zip(&paths) {
        writeln!(
            report,
            "slot {}: {} of {} bytes -> {} ({} bytes)",
            b.slot,
            if b.class == InputClass::PerVertex {
                inlay::diag::count(b.records(), "vertex", "vertices")
            } else {
                inlay::diag::count(b.records(), "instance record", "instance records")
            },
            b.stride,
            crate::output::shown(p),
            b.data.len()
        )
        .map_err(CliError::stdout)?;
    }
    Ok(0)
}
