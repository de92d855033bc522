//! `inlay export`: a captured draw (3DMigoto dumps, importer `.fmt` files, RenderDoc CSV, or
//! a layout with buffers) written as a mesh: `.glb`, `.gltf` + `.bin`, `.obj` or `.ply`.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use inlay::assembler::Topology;
use inlay::assembler::binding::IndexBufferBinding;
use inlay::capture::{self, Capture};
use inlay::mesh::{self, FileKind, InputSlot, Instances, Mesh, MeshInput, MeshOptions, SlotSource};

use crate::decode;
use crate::output::AtomicFile;
use crate::source::LayoutFile;
use crate::{CliError, TargetArgs, style};
use inlay::assembler::DrawDefaults;

/// Write a captured draw as a mesh (glTF, OBJ, PLY)
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  inlay export 000042-vb0=8a2c31f0-vs=1-ps=2.txt --output draw42.glb
  inlay export Body.fmt --output body.gltf            (Body.vb/.vb0…, Body.ib beside it)
  inlay export capture.csv --output mesh.obj          (RenderDoc mesh-view CSV)
  inlay export layout.h --vb 0=mesh.vb --ib mesh.ib,format=R16_UINT --topology triangle_strip \\
      --output mesh.ply

A vb text dump finds the other slots' vbN dumps, its ib dump and the .buf files beside them by \
3DMigoto's naming (PREFIXvbN=…, PREFIXib=…); name several files to choose them yourself. The \
format comes from the output's extension. glTF keeps everything: standard attributes (POSITION, \
NORMAL, TANGENT, TEXCOORD_n, COLOR_n, JOINTS_n/WEIGHTS_n) with glTF's conversions, and every \
other or converted element unchanged as a `_NAME` attribute; the layout, formats and draw are \
in meshes[0].extras.inlay, which `inlay import` reads back.")]
pub struct ExportArgs {
    /// Dump files (vb/ib .txt, .buf, .fmt, .csv) or a layout file (C/C++, JSON, TOML) with --vb
    #[arg(required = true, value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,
    /// The mesh file to write: .glb, .gltf (+ .bin beside it), .obj or .ply
    #[arg(long, short, value_name = "FILE")]
    pub output: PathBuf,
    /// Replace the output if it exists
    #[arg(long)]
    pub force: bool,
    /// With a layout: vertex buffer of a slot, as `decode` takes it (repeatable)
    #[arg(long = "vb", value_name = "SLOT=FILE[,stride=N][,offset=N]")]
    pub vb: Vec<String>,
    /// With a layout: the index buffer; with dumps: the ib text dump to use
    #[arg(long, value_name = "FILE[,format=R16_UINT|R32_UINT][,offset=N]")]
    pub ib: Option<String>,
    /// Primitive topology (overrides the dump's)
    #[arg(long, value_name = "T")]
    pub topology: Option<Topology>,
    /// With a layout: the draw call, as `decode` takes it
    #[arg(long, value_name = "KIND,key=value...")]
    pub draw: Option<String>,
    /// Per-instance data: first instance only, one mesh per instance, or EXT_mesh_gpu_instancing attributes
    #[arg(long, default_value = "first", value_name = "first|expand|attributes")]
    pub instances: Instances,
    /// Export 3-control-point patch lists as triangles (default: control points as points)
    #[arg(long)]
    pub patch_triangles: bool,
    /// Which C array to use when the layout file has several
    #[arg(long, value_name = "NAME")]
    pub array: Option<String>,
    #[command(flatten)]
    pub target: TargetArgs,
}

fn is_layout(path: &Path) -> bool {
    matches!(
        path.extension()
            .and_then(|e| e.to_str())
            .map(|e| e.to_ascii_lowercase())
            .as_deref(),
        Some("h" | "hpp" | "hh" | "c" | "cc" | "cpp" | "cxx" | "json" | "toml" | "inl")
    )
}

/// Runs `inlay export`.
pub fn run(args: &ExportArgs, stdout: &mut dyn Write) -> Result<u8, CliError> {
    let kind = FileKind::from_path(&args.output).ok_or_else(|| {
        CliError::usage(format!(
            "--output {}: the extension must be .glb, .gltf, .obj or .ply",
            args.output.display()
        ))
    })?;
    if kind != FileKind::Glb && kind != FileKind::Gltf && args.instances != Instances::First {
        return Err(CliError::usage(format!(
            "--instances {:?} needs glTF output: OBJ and PLY hold one instance",
            args.instances
        )));
    }
    let options = MeshOptions {
        instances: args.instances,
        target: args.target.target()?,
        patch_triangles: args.patch_triangles,
    };
    let (mesh, inputs) = load_mesh(args, &options, true)?;
    write_mesh(args, &inputs, kind, &mesh)?;
    let prims = mesh.indices.len() / mesh.mode.vertices();
    writeln!(
        stdout,
        "wrote {}: {} vertices, {} {} ({} attributes{})",
        args.output.display(),
        mesh.vertex_count,
        prims,
        match mesh.mode {
            mesh::Mode::Points => "points",
            mesh::Mode::Lines => "lines",
            mesh::Mode::Triangles => "triangles",
        },
        mesh.attributes.len() + mesh.instance_attributes.len(),
        if mesh.instance_count > 1 {
            format!(", {} instances", mesh.instance_count)
        } else {
            String::new()
        }
    )
    .map_err(CliError::stdout)?;
    Ok(0)
}

/// Reads the draw an `export` (or `view`) command line names — a layout with `--vb`/`--ib`,
/// or 3DMigoto/importer dumps — and builds its [`Mesh`] through the library. With `check`,
/// `--output` is first checked not to overwrite an input (or an existing file without
/// `--force`). Warnings go to stderr. Returns the mesh and every input file read.
pub(crate) fn load_mesh(
    args: &ExportArgs,
    options: &MeshOptions,
    check: bool,
) -> Result<(Mesh, Vec<PathBuf>), CliError> {
    let layout_mode = !args.vb.is_empty() || is_layout(&args.inputs[0]);
    let mut inputs: Vec<PathBuf> = args.inputs.clone();
    let err_style = style::stderr();
    let mesh = if layout_mode {
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
        if check {
            check_output(args, &inputs)?;
        }
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
            let stride = spec.stride.unwrap_or(min_stride);
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
        .map_args(|file| decode::read_buffer(std::path::Path::new(&file)))?;
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
        Mesh::build(&input, options).map_err(|e| CliError::usage(e.to_string()))?
    } else {
        if args.draw.is_some() {
            return Err(CliError::usage(
                "--draw applies to a layout with --vb; a dump states its draw",
            ));
        }
        if let Some(ib) = &args.ib {
            inputs.push(PathBuf::from(ib.split(',').next().unwrap_or(ib)));
        }
        let mut capture: Capture =
            capture::load_dumps(&inputs).map_err(|e| CliError::usage(e.to_string()))?;
        if let Some(t) = args.topology {
            capture.topology = t;
        }
        let all: Vec<&Path> = capture.sources.iter().map(|p| p.as_path()).collect();
        if check {
            check_output_paths(args, &all)?;
        }
        for w in &capture.warnings {
            eprintln!("{}: {w}", err_style.warning("warning"));
        }
        Mesh::from_capture(&capture, options).map_err(|e| CliError::usage(e.to_string()))?
    };
    for w in &mesh.warnings {
        eprintln!("{}: {w}", err_style.warning("warning"));
    }
    Ok((mesh, inputs))
}

fn bin_path(output: &Path) -> PathBuf {
    output.with_extension("bin")
}

fn check_output(args: &ExportArgs, inputs: &[PathBuf]) -> Result<(), CliError> {
    let all: Vec<&Path> = inputs.iter().map(|p| p.as_path()).collect();
    check_output_paths(args, &all)
}

fn check_output_paths(args: &ExportArgs, inputs: &[&Path]) -> Result<(), CliError> {
    crate::output::check_destination(&args.output, inputs, args.force)?;
    if FileKind::from_path(&args.output) == Some(FileKind::Gltf) {
        crate::output::check_destination(&bin_path(&args.output), inputs, args.force)?;
    }
    Ok(())
}

fn write_mesh(
    args: &ExportArgs,
    inputs: &[PathBuf],
    kind: FileKind,
    mesh: &Mesh,
) -> Result<(), CliError> {
    let all: Vec<&Path> = inputs.iter().map(|p| p.as_path()).collect();
    let name = args.output.display().to_string();
    let werr = |e: std::io::Error| CliError::io(format!("cannot write {name}"), e);
    let mut file = AtomicFile::create(&args.output, &all, args.force)?;
    match kind {
        FileKind::Glb => mesh::gltf::write_glb(mesh, &mut file).map_err(werr)?,
        FileKind::Obj => mesh::obj::write_obj(mesh, &mut file).map_err(werr)?,
        FileKind::Ply => mesh::ply::write_ply(mesh, &mut file).map_err(werr)?,
        FileKind::Gltf => {
            let bin = bin_path(&args.output);
            let uri = bin
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("mesh.bin")
                .to_string();
            let mut b = AtomicFile::create(&bin, &all, args.force)?;
            mesh::gltf::write_gltf(mesh, &mut file, &mut b, &uri).map_err(werr)?;
            b.commit()?;
        }
    }
    file.commit()
}
