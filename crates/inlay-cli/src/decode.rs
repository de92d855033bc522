//! `inlay decode`: the vertices the input assembler produces for a draw, streamed as a table,
//! CSV or JSON.

use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use inlay::assembler::{
    AssembledVertex, DRAW_KINDS, DrawDefaults, DrawForm, DrawSpec, DrawSyntax, InputAssembler,
    Topology,
};
use inlay::buffer::{IndexBufferBinding, IndexFormat, VertexBufferBinding};
use inlay::format::Kind;
use inlay::layout::{InputClass, InputLayout};
use inlay::stream::VertexStream;

use crate::output::{self, Output};
use crate::source::LayoutFile;
use crate::style;
use crate::{CliError, TargetArgs, check};

/// Decode vertex buffers through a layout: the vertices the input assembler produces
#[derive(Args, Debug)]
#[command(after_help = decode_after_help())]
pub struct DecodeArgs {
    /// Layout file: C/C++ source, JSON or TOML
    pub layout: PathBuf,
    /// Compiled vertex shader or signature blob: registers come from its input signature
    #[arg(long, value_name = "FILE.dxbc")]
    pub shader: Option<PathBuf>,
    /// Vertex buffer of a slot (repeatable; FILE `-` is standard input); stride defaults to
    /// the layout's smallest stride. A FILE that exists is taken whole, commas included
    #[arg(
        long = "vb",
        value_name = "SLOT=FILE[,stride=N][,offset=N]",
        required = true
    )]
    pub vb: Vec<String>,
    /// Index buffer (`-,format=…`: standard input)
    #[arg(
        long,
        allow_hyphen_values = true,
        value_name = "FILE,format=R16_UINT|R32_UINT[,offset=N]"
    )]
    pub ib: Option<String>,
    /// Primitive topology (point_list, triangle_list, triangle_strip, patch_list_3, …)
    #[arg(long, default_value = "point_list", value_name = "T")]
    pub topology: Topology,
    /// The draw call [default: draw (or draw_indexed with --ib) over the whole buffers]
    #[arg(long, value_name = "KIND,key=value...")]
    pub draw: Option<String>,
    /// Output format [default: from --output's extension (.csv, .json), else table]
    #[arg(long, value_enum)]
    pub format: Option<OutputFormat>,
    /// Stride of a slot's vertex buffer (SLOT=N; repeatable), the same as --vb's stride=N
    #[arg(long, value_name = "SLOT=N")]
    pub stride: Vec<String>,
    /// Bind offset of a slot's vertex buffer (SLOT=N; repeatable), the same as --vb's offset=N
    #[arg(long, value_name = "SLOT=N")]
    pub offset: Vec<String>,
    /// Only vertex-stream positions A to B-1 (A.., ..B also work)
    #[arg(long, value_name = "A..B")]
    pub range: Option<String>,
    /// Print register bits as 8 hex digits instead of numbers
    #[arg(long)]
    pub hex: bool,
    /// Print all four register lanes, not just the components the format has
    #[arg(long)]
    pub all_lanes: bool,
    /// Print the primitives (SV_PrimitiveID, instance, stream positions, element numbers)
    /// instead of the vertices
    #[arg(long)]
    pub primitives: bool,
    /// Write to FILE (atomically; `-` is standard output) instead of standard output
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Replace the --output file if it exists
    #[arg(long)]
    pub force: bool,
    /// Which C array to use when the file has several
    #[arg(long, value_name = "NAME")]
    pub array: Option<String>,
    /// Refuse a draw with more than N vertices that read nothing but out-of-bounds zeros
    #[arg(long, value_name = "N", default_value_t = inlay::assembler::validate::DEFAULT_MAX_ZERO_VERTICES)]
    pub max_vertices: u64,
    #[command(flatten)]
    pub target: TargetArgs,
}

/// `inlay decode --help`'s closing text: examples and the draw kinds with their keys, from
/// the library's draw-kind table.
fn decode_after_help() -> String {
    let mut s = String::from(
        "Examples:
  inlay decode layout.h --vb 0=mesh.vb
  inlay decode layout.json --shader vs.dxbc --vb 0=pos.vb,stride=12 --vb 1=inst.vb,stride=16 \\
      --draw draw_instanced,vertex_count_per_instance=3,instance_count=2 --format csv
  inlay decode layout.h --vb 0=mesh.vb --ib mesh.ib,format=R16_UINT --topology triangle_list \\
      --range 0..100 --format json --output first100.json

Draw kinds and keys (conformance schema names; missing counts are taken from the buffers, \
missing starts are 0):
",
    );
    for kind in DRAW_KINDS {
        let info = kind.info();
        let keys = match info.form {
            DrawForm::Keys => info.key_names.join(" "),
            DrawForm::Indirect { reads } => {
                let params: Vec<&str> = reads.info().keys.iter().map(|k| k.param).collect();
                format!(
                    "args=FILE offset ({} bytes: {})",
                    4 * params.len(),
                    params.join(", ")
                )
            }
            DrawForm::Auto => format!(
                "{} (slot 0's BufferFilledSize; default: the whole slot-0 file)",
                info.key_names.join(" ")
            ),
        };
        let _ = writeln!(s, "  {:<23}  {keys}", info.name);
    }
    s.push_str(
        "Without --shader element i feeds register v<i>. Values print as floats for \
         FLOAT/UNORM/SNORM formats and integers for UINT/SINT (--hex prints the register bits). \
         Output streams: any buffer size decodes in constant memory.",
    );
    s
}

/// How the command line gives a draw's values (`--draw KIND,key=N`), for the library's
/// messages ([`inlay::assembler::DrawSpecError::message_for`]).
struct CommandLine;

impl DrawSyntax for CommandLine {
    fn option(&self) -> &str {
        "--draw"
    }
    fn give(&self, kind: &str, key: &str) -> String {
        format!("--draw {kind},{key}=N")
    }
    fn give_args(&self, kind: &str) -> String {
        format!("{kind},args=FILE[,offset=N]")
    }
    fn index_buffer(&self) -> &str {
        "--ib FILE,format=…"
    }
    fn slot0(&self) -> &str {
        " (--vb 0=FILE)"
    }
}

/// `--format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// Aligned columns
    Table,
    /// Comma-separated values with a header line
    Csv,
    /// A JSON array, one vertex object per line
    Json,
}

#[derive(Debug)]
pub(crate) struct VbSpec {
    pub(crate) slot: u32,
    pub(crate) path: PathBuf,
    pub(crate) stride: Option<u32>,
    pub(crate) offset: u32,
}

fn parse_u32(what: &str, s: &str) -> Result<u32, CliError> {
    inlay::text::parse_u32(s).ok_or_else(|| {
        CliError::usage(format!(
            "{what}: `{s}` is not a number from 0 to 4294967295"
        ))
    })
}

/// Splits `FILE[,key=value...]`. A value that names an existing file is taken whole, so file
/// names containing commas can be given (issue 17: `--vb 0=my,mesh.vb --stride 0=48`);
/// otherwise the file name ends at the first comma.
fn split_file(rest: &str) -> (PathBuf, Vec<&str>) {
    if rest == "-" || Path::new(rest).is_file() {
        return (PathBuf::from(rest), Vec::new());
    }
    let mut parts = rest.split(',');
    let path = PathBuf::from(parts.next().unwrap_or(""));
    (path, parts.collect())
}

/// `SLOT=N` of `--stride` / `--offset`.
fn parse_slot_value(flag: &str, s: &str) -> Result<(u32, u32), CliError> {
    let (slot, n) = s
        .split_once('=')
        .ok_or_else(|| CliError::usage(format!("{flag} `{s}`: expected SLOT=N")))?;
    Ok((
        parse_u32(&format!("{flag} slot"), slot)?,
        parse_u32(flag, n)?,
    ))
}

pub(crate) fn parse_vb(s: &str) -> Result<VbSpec, CliError> {
    let (slot, rest) = s.split_once('=').ok_or_else(|| {
        CliError::usage(format!(
            "--vb `{s}`: expected SLOT=FILE[,stride=N][,offset=N]"
        ))
    })?;
    let slot = parse_u32("--vb slot", slot)?;
    let (path, parts) = split_file(rest);
    if path.as_os_str().is_empty() {
        return Err(CliError::usage(format!("--vb `{s}`: no file name")));
    }
    let mut spec = VbSpec {
        slot,
        path,
        stride: None,
        offset: 0,
    };
    for p in parts {
        match p.split_once('=') {
            Some(("stride", v)) => spec.stride = Some(parse_u32("--vb stride", v)?),
            Some(("offset", v)) => spec.offset = parse_u32("--vb offset", v)?,
            _ => {
                return Err(CliError::usage(format!(
                    "--vb `{s}`: unknown option `{p}` (expected stride=N or offset=N)"
                )));
            }
        }
    }
    Ok(spec)
}

#[derive(Debug)]
pub(crate) struct IbSpec {
    pub(crate) path: PathBuf,
    pub(crate) format: IndexFormat,
    pub(crate) offset: u32,
}

pub(crate) fn parse_ib(s: &str) -> Result<IbSpec, CliError> {
    let (path, parts) = match s.rsplit_once(",format=") {
        // `FILE,format=…` where FILE exists: FILE taken whole, commas included.
        Some((file, _)) if Path::new(file).is_file() => (
            PathBuf::from(file),
            s[file.len() + 1..].split(',').collect::<Vec<_>>(),
        ),
        _ => split_file(s),
    };
    let mut format = None;
    let mut offset = 0;
    for p in parts {
        match p.split_once('=') {
            Some(("format", v)) => {
                format = Some(
                    v.parse::<IndexFormat>()
                        .map_err(|e| CliError::usage(format!("--ib: {e}")))?,
                )
            }
            Some(("offset", v)) => offset = parse_u32("--ib offset", v)?,
            _ => {
                return Err(CliError::usage(format!(
                    "--ib `{s}`: unknown option `{p}` (expected format=R16_UINT|R32_UINT or offset=N)"
                )));
            }
        }
    }
    let format = format.ok_or_else(|| {
        CliError::usage(format!(
            "--ib `{s}`: say the index format: FILE,format=R16_UINT or R32_UINT"
        ))
    })?;
    if path.as_os_str().is_empty() {
        return Err(CliError::usage(format!("--ib `{s}`: no file name")));
    }
    Ok(IbSpec {
        path,
        format,
        offset,
    })
}

/// `--draw KIND,key=value…`, or the default draw (`draw`, or `draw_indexed` with `--ib`) over
/// what the buffers hold: the library's [`DrawSpec::parse`], with the messages saying how to
/// give a missing value on this command line. `args=FILE` names the indirect arguments' file;
/// a FILE with commas is taken whole when it exists.
pub(crate) fn parse_draw(
    s: Option<&str>,
    has_ib: bool,
    d: &DrawDefaults,
) -> Result<DrawSpec<String>, CliError> {
    let text = s.unwrap_or(if has_ib { "draw_indexed" } else { "draw" });
    DrawSpec::parse(text, d, |name| Path::new(name).is_file())
        .map_err(|e| CliError::usage(e.message_for(&CommandLine)))
}

fn parse_range(s: Option<&str>) -> Result<(u64, Option<u64>), CliError> {
    let Some(s) = s else { return Ok((0, None)) };
    let (a, b) = s
        .split_once("..")
        .ok_or_else(|| CliError::usage(format!("--range `{s}`: expected A..B, A.. or ..B")))?;
    let num = |t: &str| {
        t.trim()
            .parse::<u64>()
            .map_err(|_| CliError::usage(format!("--range `{s}`: `{t}` is not a number")))
    };
    let a = if a.trim().is_empty() { 0 } else { num(a)? };
    let b = if b.trim().is_empty() {
        None
    } else {
        Some(num(b)?)
    };
    if b.is_some_and(|b| b < a) {
        return Err(CliError::usage(format!(
            "--range `{s}`: the end is before the start"
        )));
    }
    Ok((a, b))
}

/// One output column group: an element's register lanes.
struct Column {
    name: String,
    register: usize,
    lanes: Vec<usize>,
    kind: Kind,
}

fn columns(layout: &InputLayout, all_lanes: bool) -> Vec<Column> {
    layout
        .elements()
        .iter()
        .filter_map(|e| {
            let register = e.register? as usize;
            if register >= inlay::assembler::MAX_REGISTERS {
                return None;
            }
            let info = e.format.info()?;
            let mask = if all_lanes { 0xf } else { info.lane_mask() };
            Some(Column {
                name: format!("{}{}", e.semantic_name, e.semantic_index),
                register,
                lanes: (0..4).filter(|l| mask & (1 << l) != 0).collect(),
                kind: info.first_kind().unwrap_or(Kind::Float),
            })
        })
        .collect()
}

const LANE: [&str; 4] = ["x", "y", "z", "w"];

fn write_value(out: &mut String, bits: u32, kind: Kind, hex: bool) -> std::fmt::Result {
    if hex {
        return write!(out, "{bits:08x}");
    }
    match kind {
        Kind::Uint => write!(out, "{bits}"),
        Kind::Sint => write!(out, "{}", bits as i32),
        _ => write!(out, "{:?}", f32::from_bits(bits)),
    }
}

#[cfg(test)]
fn value_text(bits: u32, kind: Kind, hex: bool) -> String {
    let mut s = String::new();
    let _ = write_value(&mut s, bits, kind, hex);
    s
}

fn value_json(bits: u32, kind: Kind, hex: bool) -> String {
    if hex {
        return format!("\"{bits:08x}\"");
    }
    match kind {
        Kind::Uint => bits.to_string(),
        Kind::Sint => (bits as i32).to_string(),
        _ => {
            let f = f32::from_bits(bits);
            if f.is_finite() {
                format!("{f:?}")
            } else {
                format!("\"{f:?}\"")
            }
        }
    }
}

fn json_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

struct Writer<'c> {
    format: OutputFormat,
    columns: &'c [Column],
    hex: bool,
    widths: Vec<usize>,
    first: bool,
    /// The row being built (table and CSV).
    line: String,
    /// One cell being built (table).
    cell: String,
    /// The per-vertex element number is `first + vertex_id` (StartVertexLocation, or
    /// BaseVertexLocation for indexed draws; ia-semantics §3).
    element_base: u32,
}

impl Writer<'_> {
    /// Appends cell `index` (written by `f`) to the line: right-aligned to its column width
    /// for a table, comma-separated for CSV.
    fn cell(&mut self, index: usize, f: impl FnOnce(&mut String) -> std::fmt::Result) {
        self.cell.clear();
        let _ = f(&mut self.cell);
        if index > 0 {
            self.line.push(if self.format == OutputFormat::Csv {
                ','
            } else {
                ' '
            });
        }
        if self.format == OutputFormat::Table {
            let w = self.widths.get(index).copied().unwrap_or(0);
            for _ in self.cell.chars().count()..w {
                self.line.push(' ');
            }
        }
        self.line.push_str(&self.cell);
    }

    fn header(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        let mut names = vec![
            "position".to_string(),
            "vertex_id".to_string(),
            "element".to_string(),
            "instance_id".to_string(),
        ];
        for c in self.columns {
            for &l in &c.lanes {
                names.push(format!("{}.{}", c.name, LANE[l]));
            }
        }
        match self.format {
            OutputFormat::Table => {
                // Streamed rows cannot be measured first, so each column is as wide as the
                // widest value its kind can print (issue 17: wide values misaligned): 10
                // digits for positions and IDs, `{:?}` floats up to 15 characters
                // (`-1.1754942e-38`, `-3.4028235e38`), 11 for SINT, 10 for UINT, 8 hex.
                let mut kinds = Vec::new();
                for c in self.columns {
                    for _ in &c.lanes {
                        kinds.push(c.kind);
                    }
                }
                self.widths = names
                    .iter()
                    .enumerate()
                    .map(|(i, n)| {
                        let value = if i < 4 {
                            10
                        } else if self.hex {
                            8
                        } else {
                            match kinds[i - 4] {
                                Kind::Uint => 10,
                                Kind::Sint => 11,
                                _ => 15,
                            }
                        };
                        n.len().max(value)
                    })
                    .collect();
                let line: Vec<String> = names
                    .iter()
                    .zip(&self.widths)
                    .map(|(n, w)| format!("{n:>w$}"))
                    .collect();
                writeln!(out, "{}", line.join(" "))
            }
            OutputFormat::Csv => writeln!(out, "{}", names.join(",")),
            OutputFormat::Json => writeln!(out, "["),
        }
    }

    fn row(&mut self, out: &mut dyn Write, v: &AssembledVertex) -> std::io::Result<()> {
        match self.format {
            OutputFormat::Table | OutputFormat::Csv => {
                // One reusable line buffer: no allocation per vertex.
                self.line.clear();
                let mut index = 0;
                self.cell(index, |b| write!(b, "{}", v.position));
                index += 1;
                self.cell(index, |b| write!(b, "{}", v.vertex_id));
                index += 1;
                let element = self.element_base.wrapping_add(v.vertex_id);
                self.cell(index, |b| write!(b, "{element}"));
                index += 1;
                self.cell(index, |b| write!(b, "{}", v.instance_id));
                for c in self.columns {
                    for &l in &c.lanes {
                        index += 1;
                        let bits = v.registers[c.register][l];
                        let (kind, hex) = (c.kind, self.hex);
                        self.cell(index, |b| write_value(b, bits, kind, hex));
                    }
                }
                self.line.push('\n');
                out.write_all(self.line.as_bytes())
            }
            OutputFormat::Json => {
                let mut s = format!(
                    "{}{{\"position\": {}, \"vertex_id\": {}, \"element\": {}, \"instance_id\": {}",
                    if self.first { " " } else { "," },
                    v.position,
                    v.vertex_id,
                    self.element_base.wrapping_add(v.vertex_id),
                    v.instance_id
                );
                self.first = false;
                for c in self.columns {
                    let vals: Vec<String> = c
                        .lanes
                        .iter()
                        .map(|&l| value_json(v.registers[c.register][l], c.kind, self.hex))
                        .collect();
                    s.push_str(&format!(
                        ", {}: [{}]",
                        json_string(&c.name),
                        vals.join(", ")
                    ));
                }
                writeln!(out, "{s}}}")
            }
        }
    }

    fn footer(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        if self.format == OutputFormat::Json {
            writeln!(out, "]")?;
        }
        Ok(())
    }
}

/// Progress on stderr, only when stderr is a terminal and the work is long.
struct Progress {
    total: u64,
    done: u64,
    shown: bool,
}

impl Progress {
    const MIN_WORK: u64 = 1 << 20;
    const EVERY: u64 = 1 << 16;

    fn new(total: u64) -> Self {
        Progress {
            total,
            done: 0,
            shown: total >= Self::MIN_WORK && std::io::stderr().is_terminal(),
        }
    }

    fn tick(&mut self) {
        self.done += 1;
        if self.shown && self.done.is_multiple_of(Self::EVERY) {
            let frac = self.done as f64 / self.total.max(1) as f64;
            let filled = (frac * 30.0) as usize;
            eprint!(
                "\r[{}{}] {:>3}% {}/{} vertices",
                "#".repeat(filled.min(30)),
                " ".repeat(30 - filled.min(30)),
                (frac * 100.0) as u32,
                self.done,
                self.total
            );
        }
    }

    fn finish(&mut self) {
        if self.shown {
            eprint!("\r{}\r", " ".repeat(70));
        }
    }
}

/// A vertex, index or argument buffer, under the binary input limit (a device such as
/// `/dev/zero` is refused; `-` reads standard input).
pub(crate) fn read_buffer(path: &Path) -> Result<Vec<u8>, CliError> {
    crate::source::read_binary_input(path)
}

/// `--format`, or the format `--output`'s extension names (`.csv`, `.json`), else a table.
fn output_format(args: &DecodeArgs) -> OutputFormat {
    if let Some(f) = args.format {
        return f;
    }
    let ext = args
        .output
        .as_deref()
        .and_then(|p| p.extension())
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    match ext.as_deref() {
        Some("csv") => OutputFormat::Csv,
        Some("json") => OutputFormat::Json,
        _ => OutputFormat::Table,
    }
}

/// Runs `inlay decode`.
pub fn run(args: &DecodeArgs, stdout: &mut dyn Write) -> Result<u8, CliError> {
    let mut vbs: Vec<VbSpec> = args
        .vb
        .iter()
        .map(|s| parse_vb(s))
        .collect::<Result<_, _>>()?;
    for (flag, list) in [("--stride", &args.stride), ("--offset", &args.offset)] {
        for s in list {
            let (slot, n) = parse_slot_value(flag, s)?;
            let vb = vbs.iter_mut().find(|v| v.slot == slot).ok_or_else(|| {
                CliError::usage(format!("{flag} {slot}={n}: no --vb {slot}=FILE is given"))
            })?;
            if flag == "--stride" {
                vb.stride = Some(n);
            } else {
                vb.offset = n;
            }
        }
    }
    let stdin_inputs = vbs.iter().filter(|v| output::is_dash(&v.path)).count()
        + usize::from(args.layout.as_os_str() == "-");
    if stdin_inputs > 1 {
        return Err(CliError::usage(
            "standard input (`-`) can be read for one input only",
        ));
    }
    let ib = args.ib.as_deref().map(parse_ib).transpose()?;
    let (range_start, range_end) = parse_range(args.range.as_deref())?;
    let err_style = style::stderr();
    let layout_file = LayoutFile::load(&args.layout, args.array.as_deref(), err_style)?;
    let target = args.target.target()?;
    if let Some(note) = check::d3d12_note(&layout_file) {
        eprintln!("note: {note}");
    }

    // Every file the command reads is protected (issue 18 item 1): the indirect-arguments
    // file is named up front here, and output::AtomicFile checks every file read again
    // before its rename.
    let args_file = args.draw.as_deref().and_then(|d| {
        d.split(',')
            .find_map(|p| p.trim().strip_prefix("args="))
            .map(PathBuf::from)
    });
    let mut inputs: Vec<&Path> = vec![&args.layout];
    inputs.extend(args.shader.as_deref());
    inputs.extend(vbs.iter().map(|v| v.path.as_path()));
    inputs.extend(ib.as_ref().map(|i| i.path.as_path()));
    inputs.extend(args_file.as_deref());
    let format = output_format(args);
    let mut out = Output::create(args.output.as_deref(), stdout, &inputs, args.force)?;

    let creation = check::create(&layout_file, args.shader.as_ref(), &target, false)?;
    let Some(layout) = &creation.layout else {
        let mut err = std::io::stderr();
        check::write_diagnostics(&mut err, &layout_file, &creation, err_style)?;
        check::write_result(&mut err, &creation, err_style)?;
        return Ok(1);
    };

    let vb_data: Vec<Vec<u8>> = vbs
        .iter()
        .map(|v| read_buffer(&v.path))
        .collect::<Result<_, _>>()?;
    let ib_data = ib.as_ref().map(|i| read_buffer(&i.path)).transpose()?;

    let mut ia = InputAssembler::new(layout, target);
    let mut vertex_count: Option<u32> = None;
    for (spec, data) in vbs.iter().zip(&vb_data) {
        let slot = layout.slot(spec.slot);
        let min_stride = slot.map_or(0, |s| s.min_stride);
        // `--stride`, else the stride the layout file states (a .fmt, a dump), else the
        // layout's smallest.
        let stride = spec
            .stride
            .or_else(|| layout_file.stated_stride(spec.slot))
            .unwrap_or(min_stride);
        ia.set_vertex_buffer(
            spec.slot,
            Some(VertexBufferBinding {
                data,
                stride,
                offset: spec.offset,
            }),
        )
        .map_err(|e| CliError::usage(format!("--vb {}: {e}", spec.slot)))?;
        if let Some(s) = slot.filter(|s| s.class == InputClass::PerVertex && stride > 0) {
            let avail = (data.len() as u64).saturating_sub(spec.offset as u64);
            let n = if avail >= s.min_stride as u64 {
                (avail - s.min_stride as u64) / stride as u64 + 1
            } else {
                0
            };
            let n = u32::try_from(n).unwrap_or(u32::MAX);
            vertex_count = Some(vertex_count.map_or(n, |c| c.min(n)));
        }
    }
    let filled_size = vbs
        .iter()
        .zip(&vb_data)
        .find(|(v, _)| v.slot == 0)
        .map(|(_, data)| u32::try_from(data.len()).unwrap_or(u32::MAX));
    let mut index_count = None;
    if let (Some(spec), Some(data)) = (&ib, &ib_data) {
        ia.set_index_buffer(Some(IndexBufferBinding {
            data,
            format: spec.format,
            offset: spec.offset,
        }))
        .map_err(|e| CliError::usage(format!("--ib: {e}")))?;
        let avail = (data.len() as u64).saturating_sub(spec.offset as u64);
        index_count = Some(u32::try_from(avail / spec.format.size() as u64).unwrap_or(u32::MAX));
    }
    ia.set_topology(args.topology)
        .map_err(|e| CliError::usage(format!("--topology: {e}")))?;
    let spec = parse_draw(
        args.draw.as_deref(),
        ib.is_some(),
        &DrawDefaults {
            vertex_count,
            index_count,
            filled_size,
        },
    )?
    .map_args(|file| read_buffer(Path::new(&file)))?;
    let call = spec.call();
    let draw = ia.draw(&call).map_err(|e| {
        let msg = e.to_string();
        // Most messages name the call already; prefix only those that do not.
        if msg.starts_with(call.name()) {
            CliError::usage(msg)
        } else {
            CliError::usage(format!("{}: {msg}", call.name()))
        }
    })?;

    // Draw-time validation: every read of data that is not there is a warning (stderr; one
    // JSON object per line with --format json), and a draw of nothing but zeros beyond the
    // bound is refused.
    let report = inlay::assembler::validate::validate_draw(&ia, &call)
        .map_err(|e| CliError::usage(format!("{}: {e}", call.name())))?;
    write_warnings(&report, format == OutputFormat::Json)?;
    if let Some(why) = report.refusal(args.max_vertices) {
        return Err(CliError::usage(why));
    }

    if args.primitives {
        crate::primitives::write(&draw, format, &mut out)
            .map_err(|e| CliError::io(format!("cannot write {}", out.name()), e))?;
        return out.commit().map(|_| 0);
    }

    // Skip to the first position wanted without fetching: O(1) for non-indexed draws,
    // O(indices per instance) for indexed ones (issue 18 item 4).
    let mut walker = draw.walk();
    walker.skip_to_position(range_start);
    let total = draw
        .params()
        .steps()
        .min(range_end.map_or(u64::MAX, |e| e - range_start));
    let vertices = VertexStream::new(walker, draw.plan().clone());

    let cols = columns(layout, args.all_lanes);
    let mut w = Writer {
        format,
        columns: &cols,
        hex: args.hex,
        widths: Vec::new(),
        first: true,
        line: String::new(),
        cell: String::new(),
        element_base: if draw.params().indexed {
            draw.params().base_vertex as u32
        } else {
            draw.params().start
        },
    };
    let target_name = out.name();
    let werr = |e: std::io::Error| CliError::io(format!("cannot write {target_name}"), e);
    let mut progress = Progress::new(total);
    w.header(&mut out).map_err(werr)?;
    let mut written = 0u64;
    for v in vertices.take_while(|v| range_end.is_none_or(|e| v.position < e)) {
        w.row(&mut out, &v).map_err(werr)?;
        written += 1;
        progress.tick();
    }
    progress.finish();
    w.footer(&mut out).map_err(werr)?;
    let is_file = out.is_file();
    out.commit()?;
    if is_file && let Some(p) = &args.output {
        output::say_wrote(
            p,
            &format!("{written} vert{}", if written == 1 { "ex" } else { "ices" }),
        );
    }
    Ok(0)
}

/// The draw's warnings on stderr: `warning: #356 NAME: …` lines, or JSON objects.
fn write_warnings(
    report: &inlay::assembler::validate::DrawReport,
    json: bool,
) -> Result<(), CliError> {
    let mut err = std::io::stderr().lock();
    let style = style::stderr();
    for w in &report.warnings {
        let r = if json {
            let v = serde_json::json!({ "warning": {
                "id": w.check.message_id().map(|m| m.0),
                "name": w.check.name(),
                "slot": w.slot,
                "first": w.first,
                "count": w.count,
                "message": w.message,
            }});
            writeln!(err, "{v}")
        } else {
            writeln!(err, "{}: {w}", style.warning("warning"))
        };
        r.map_err(|e| CliError::io("cannot write standard error".to_string(), e))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use inlay::assembler::{DrawCall, DrawKind};

    #[test]
    fn draw_specs() {
        let d = DrawDefaults {
            vertex_count: Some(10),
            index_count: Some(6),
            filled_size: Some(72),
        };
        assert_eq!(
            parse_draw(None, false, &d).unwrap(),
            DrawSpec::Direct(DrawCall::Draw {
                vertex_count: 10,
                start_vertex: 0
            })
        );
        assert_eq!(
            parse_draw(None, true, &d).unwrap(),
            DrawSpec::Direct(DrawCall::DrawIndexed {
                index_count: 6,
                start_index: 0,
                base_vertex: 0
            })
        );
        assert_eq!(
            parse_draw(
                Some("draw_indexed_instanced,instances=3,base=-2,start_instance=5"),
                true,
                &d
            )
            .unwrap(),
            DrawSpec::Direct(DrawCall::DrawIndexedInstanced {
                index_count_per_instance: 6,
                instance_count: 3,
                start_index: 0,
                base_vertex: -2,
                start_instance: 5
            })
        );
        assert_eq!(
            parse_draw(Some("draw,count=0x10,start=2"), false, &d).unwrap(),
            DrawSpec::Direct(DrawCall::Draw {
                vertex_count: 16,
                start_vertex: 2
            })
        );
        let e = parse_draw(Some("draw,index_count=3"), false, &d).unwrap_err();
        assert_eq!(
            e.message,
            "--draw draw: unknown key `index_count` (expected vertex_count, start_vertex)"
        );
        let none = DrawDefaults::default();
        assert!(
            parse_draw(Some("draw_indexed"), false, &none)
                .unwrap_err()
                .message
                .starts_with("an indexed draw needs")
        );
        // The indirect forms name the argument file; DrawAuto defaults to the slot-0 file size.
        assert_eq!(
            parse_draw(
                Some("draw_indexed_instanced_indirect,args=a.bin,offset=8"),
                true,
                &d
            )
            .unwrap(),
            DrawSpec::Indirect {
                kind: DrawKind::DrawIndexedInstancedIndirect,
                args: "a.bin".to_string(),
                offset: 8
            }
        );
        assert!(
            parse_draw(Some("draw_instanced_indirect"), false, &d)
                .unwrap_err()
                .message
                .contains("args=FILE")
        );
        assert_eq!(
            parse_draw(Some("draw_auto"), false, &d).unwrap(),
            DrawSpec::Direct(DrawCall::DrawAuto { filled_size: 72 })
        );
        assert_eq!(
            parse_draw(Some("draw_auto,filled_size=48"), false, &none).unwrap(),
            DrawSpec::Direct(DrawCall::DrawAuto { filled_size: 48 })
        );
        assert!(parse_draw(Some("draw_auto"), false, &none).is_err());
    }

    #[test]
    fn buffer_specs() {
        let v = parse_vb("1=a.bin,stride=24,offset=8").unwrap();
        assert_eq!(
            (v.slot, v.path.to_str().unwrap(), v.stride, v.offset),
            (1, "a.bin", Some(24), 8)
        );
        assert!(parse_vb("a.bin").is_err());
        assert!(
            parse_vb("0=a.bin,strid=4")
                .unwrap_err()
                .message
                .contains("unknown option `strid=4`")
        );
        let i = parse_ib("i.bin,format=DXGI_FORMAT_R32_UINT,offset=4").unwrap();
        assert_eq!((i.format, i.offset), (IndexFormat::R32Uint, 4));
        assert!(parse_ib("i.bin").is_err());
        assert_eq!(parse_range(Some("5..9")).unwrap(), (5, Some(9)));
        assert_eq!(parse_range(Some("..9")).unwrap(), (0, Some(9)));
        assert_eq!(parse_range(Some("7..")).unwrap(), (7, None));
        assert!(parse_range(Some("9..5")).is_err());
    }

    #[test]
    fn values() {
        assert_eq!(value_text(0x3f80_0000, Kind::Unorm, false), "1.0");
        assert_eq!(value_text(0x0000_0001, Kind::Float, false), "1e-45");
        assert_eq!(value_text(0xffff_ffff, Kind::Sint, false), "-1");
        assert_eq!(value_text(0xffff_ffff, Kind::Uint, false), "4294967295");
        assert_eq!(value_json(0x7fc0_0000, Kind::Float, false), "\"NaN\"");
        assert_eq!(value_json(0x3f00_0000, Kind::Float, true), "\"3f000000\"");
    }
}
