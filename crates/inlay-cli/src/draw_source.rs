//! The draw a command line names — a layout with `--vb`/`--ib`/`--draw`, or 3DMigoto /
//! importer dumps — as one set of arguments ([`MeshSourceArgs`], flattened into `export` and
//! `view`) and one loader ([`load_mesh`]) that builds its [`Mesh`] through the library.
//!
//! The subcommands that write files keep their own `--output`/`--force` checks: they pass
//! them to [`load_mesh`] as a callback that runs once every input file is known and before
//! any buffer is read.

use std::path::{Path, PathBuf};

use clap::Args;
use inlay::assembler::{DrawDefaults, Topology};
use inlay::buffer::IndexBufferBinding;
use inlay::capture::{self, Capture};
use inlay::mesh::{InputSlot, Mesh, MeshInput, MeshOptions, SlotSource};

use crate::decode;
use crate::source::LayoutFile;
use crate::{CliError, TargetArgs, style};

/// Where a draw comes from: dumps, or a layout file with its buffers and draw.
#[derive(Args, Debug, Clone)]
pub struct MeshSourceArgs {
    /// Dump files (vb/ib .txt, .buf, .fmt, .csv; `-`: a RenderDoc CSV on standard input) or a
    /// layout file (any layout source, `-` too) with --vb
    #[arg(required = true, value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,
    /// With a layout: vertex buffer of a slot, as `decode` takes it (repeatable)
    #[arg(long = "vb", value_name = "SLOT=FILE[,stride=N][,offset=N]")]
    pub vb: Vec<String>,
    /// With a layout: the index buffer; with dumps: the ib text dump to use
    #[arg(
        long,
        allow_hyphen_values = true,
        value_name = "FILE[,format=R16_UINT|R32_UINT][,offset=N]"
    )]
    pub ib: Option<String>,
    /// Primitive topology (overrides the dump's)
    #[arg(long, value_name = "T")]
    pub topology: Option<Topology>,
    /// With a layout: the draw call, as `decode` takes it
    #[arg(long, value_name = "KIND,key=value...")]
    pub draw: Option<String>,
    /// Treat 3-control-point patch lists as triangles (default: control points as points)
    #[arg(long)]
    pub patch_triangles: bool,
    /// Which C array to use when the layout file has several
    #[arg(long, value_name = "NAME")]
    pub array: Option<String>,
    /// Refuse a draw with more than N vertices that read nothing but out-of-bounds zeros
    #[arg(long, value_name = "N", default_value_t = inlay::assembler::validate::DEFAULT_MAX_ZERO_VERTICES)]
    pub max_vertices: u64,
    #[command(flatten)]
    pub target: TargetArgs,
}

/// The bytes one vertex-buffer slot binds (a text dump's values encoded through the layout by
/// `Capture::slot_bytes`), as the draw bound them.
#[derive(Debug, Clone)]
pub struct SlotBytes {
    /// Slot number.
    pub slot: u32,
    /// The whole buffer, from its start (the bind offset applies).
    pub bytes: Option<Vec<u8>>,
    /// The file it came from.
    pub file: String,
}

/// A loaded draw: its mesh, every input file read and each slot's bytes.
#[derive(Debug)]
pub struct Loaded {
    /// The mesh the library built.
    pub mesh: Mesh,
    /// Every file read (for the output checks).
    pub inputs: Vec<PathBuf>,
    /// The slots' buffers.
    pub slots: Vec<SlotBytes>,
}

/// A draw from standard input (`-`): a RenderDoc mesh-view CSV, which holds the whole draw.
/// A 3DMigoto dump or a `.fmt` names buffers found beside it by file name, which standard
/// input has not: those are refused, with what to give instead.
fn stdin_capture(inputs: &[PathBuf]) -> Result<Capture, CliError> {
    if inputs.len() != 1 {
        return Err(CliError::usage(
            "a draw read from standard input (`-`) is read alone (a RenderDoc CSV)",
        ));
    }
    let bytes = crate::source::read_text_input(Path::new("-"))?;
    let text = inlay::text::decode_source(&bytes);
    let first = text.trim_start_matches('\u{feff}').trim_start();
    if !first.starts_with("VTX") {
        return Err(CliError::usage(
            "-: standard input is read as a RenderDoc mesh-view CSV (`VTX, IDX, …`), the one \
             dump that holds its whole draw; a 3DMigoto dump or an importer .fmt finds its \
             buffers beside it by name, so name the file — or give a layout (any source, `-` \
             too) with --vb SLOT=FILE",
        ));
    }
    let mut c =
        capture::csv::parse("-", text.as_bytes()).map_err(|e| CliError::usage(e.to_string()))?;
    c.sources.clear();
    Ok(c)
}

/// Reads the draw `args` name and builds its [`Mesh`] through the library
/// (`Mesh::build` / `Mesh::from_capture`). `before_read` sees every input file once they are
/// known, before any buffer is read (a writing subcommand checks its `--output` there).
/// Warnings go to stderr.
pub fn load_mesh(
    args: &MeshSourceArgs,
    options: &MeshOptions,
    before_read: &dyn Fn(&[&Path]) -> Result<(), CliError>,
) -> Result<Loaded, CliError> {
    let (mesh, inputs, slots) = load_draw(args, options, before_read, |input| {
        Mesh::build(input, options).map_err(|e| CliError::usage(e.to_string()))
    })?;
    let err_style = style::stderr();
    for w in &mesh.warnings {
        eprintln!("{}: {w}", err_style.warning("warning"));
    }
    Ok(Loaded {
        mesh,
        inputs,
        slots,
    })
}

/// Reads the draw `args` name and hands its [`MeshInput`] to `use_input` (which builds or
/// exports it); returns what it made, every input file read and each slot's bytes.
/// `before_read` is as for [`load_mesh`]; the capture's own warnings go to stderr.
pub fn load_draw<R>(
    args: &MeshSourceArgs,
    options: &MeshOptions,
    before_read: &dyn Fn(&[&Path]) -> Result<(), CliError>,
    use_input: impl FnOnce(&MeshInput<'_>) -> Result<R, CliError>,
) -> Result<(R, Vec<PathBuf>, Vec<SlotBytes>), CliError> {
    let layout_mode =
        !args.vb.is_empty() || inlay::capture::names_layout_text(&args.inputs[0].to_string_lossy());
    let mut inputs: Vec<PathBuf> = args.inputs.clone();
    let err_style = style::stderr();
    let (mesh, slot_bytes) = if layout_mode {
        if args.inputs.len() != 1 {
            return Err(CliError::usage(
                "with a layout file, give exactly one INPUT and the buffers with --vb/--ib",
            ));
        }
        if args.vb.is_empty() {
            return Err(CliError::usage(
                "a layout file needs its vertex buffers: --vb SLOT=FILE",
            ));
        }
        let layout = LayoutFile::load(&args.inputs[0], args.array.as_deref(), err_style)?;
        let vbs: Vec<decode::VbSpec> = args
            .vb
            .iter()
            .map(|s| decode::parse_vb(s))
            .collect::<Result<_, _>>()?;
        let ib = args.ib.as_deref().map(decode::parse_ib).transpose()?;
        inputs.extend(vbs.iter().map(|v| v.path.clone()));
        inputs.extend(ib.iter().map(|i| i.path.clone()));
        let all: Vec<&Path> = inputs.iter().map(|p| p.as_path()).collect();
        before_read(&all)?;
        let data: Vec<Vec<u8>> = vbs
            .iter()
            .map(|v| decode::read_buffer(&v.path))
            .collect::<Result<_, _>>()?;
        let ib_data = ib
            .as_ref()
            .map(|i| decode::read_buffer(&i.path))
            .transpose()?;
        // Default strides and counts, as `decode` computes them.
        let created =
            inlay::validation::layout_without_shader(&options.target, &layout.parsed.elements);
        let resolved = created.layout.as_ref();
        let mut vertex_count: Option<u32> = None;
        let mut slots = Vec::new();
        let names: Vec<String> = vbs.iter().map(|v| v.path.display().to_string()).collect();
        for ((spec, d), name) in vbs.iter().zip(&data).zip(&names) {
            let min_stride = resolved
                .and_then(|l| l.slot(spec.slot))
                .map_or(0, |s| s.min_stride);
            let stride = spec
                .stride
                .or_else(|| layout.stated_stride(spec.slot))
                .unwrap_or(min_stride);
            if stride > 0 && min_stride > 0 {
                let avail = (d.len() as u64).saturating_sub(spec.offset as u64);
                let n = if avail >= min_stride as u64 {
                    (avail - min_stride as u64) / stride as u64 + 1
                } else {
                    0
                };
                let n = u32::try_from(n).unwrap_or(u32::MAX);
                vertex_count = Some(vertex_count.map_or(n, |c| c.min(n)));
            }
            slots.push(InputSlot {
                slot: spec.slot,
                stride,
                offset: spec.offset,
                data: SlotSource::Binary(d),
                file: name,
            });
        }
        let ib_name = ib
            .as_ref()
            .map(|i| i.path.display().to_string())
            .unwrap_or_default();
        let index = ib.as_ref().zip(ib_data.as_ref()).map(|(spec, d)| {
            (
                IndexBufferBinding {
                    data: d,
                    format: spec.format,
                    offset: spec.offset,
                },
                ib_name.as_str(),
            )
        });
        let index_count = index.as_ref().map(|(b, _)| {
            u32::try_from(
                (b.data.len() as u64).saturating_sub(b.offset as u64) / b.format.size() as u64,
            )
            .unwrap_or(u32::MAX)
        });
        let spec = decode::parse_draw(
            args.draw.as_deref(),
            ib.is_some(),
            &DrawDefaults {
                vertex_count,
                index_count,
                filled_size: data
                    .first()
                    .map(|d| u32::try_from(d.len()).unwrap_or(u32::MAX)),
            },
        )?
        .map_args(|file| decode::read_buffer(Path::new(&file)))?;
        let draw = spec.call();
        let input = MeshInput {
            elements: &layout.parsed.elements,
            names: Vec::new(),
            slots,
            index,
            topology: args.topology.unwrap_or(Topology::PointList),
            draw,
            files: inputs.iter().map(|p| p.display().to_string()).collect(),
        };
        let mesh = use_input(&input)?;
        drop(input);
        let slot_bytes = vbs
            .iter()
            .zip(data)
            .zip(names)
            .map(|((spec, bytes), file)| SlotBytes {
                slot: spec.slot,
                bytes: Some(bytes),
                file,
            })
            .collect();
        (mesh, slot_bytes)
    } else {
        if args.draw.is_some() {
            return Err(CliError::usage(
                "--draw applies to a layout with --vb; a dump states its draw",
            ));
        }
        if let Some(ib) = &args.ib {
            inputs.push(PathBuf::from(ib.split(',').next().unwrap_or(ib)));
        }
        let mut capture: Capture = if inputs.iter().any(|p| crate::output::is_dash(p)) {
            stdin_capture(&inputs)?
        } else {
            capture::load_dumps(&inputs).map_err(|e| CliError::usage(e.to_string()))?
        };
        if let Some(t) = args.topology {
            capture.topology = t;
        }
        let all: Vec<&Path> = capture.sources.iter().map(|p| p.as_path()).collect();
        before_read(&all)?;
        for w in &capture.warnings {
            eprintln!("{}: {w}", err_style.warning("warning"));
        }
        let mesh = use_input(&inlay::mesh::input_of(&capture))?;
        // Every slot's bytes through the library's one call (a text slot's values encoded
        // through the layout), as Python's `Dump.vertex_buffers` and the Blender add-on have them.
        let made = capture
            .slot_bytes()
            .map_err(|e| CliError::usage(e.to_string()))?;
        // (Its warnings about values the text lacks repeat the mesh builder's, which name the
        // first vertex concerned, so they are not printed twice.)
        let slot_bytes = made
            .slots
            .into_iter()
            .zip(&capture.slots)
            .map(|(b, s)| SlotBytes {
                slot: b.slot,
                bytes: Some(b.bytes.into_owned()),
                file: s.source.display().to_string(),
            })
            .collect();
        (mesh, slot_bytes)
    };
    Ok((mesh, inputs, slot_bytes))
}
