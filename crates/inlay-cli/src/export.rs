//! `inlay export`: a captured draw (3DMigoto dumps, importer `.fmt` files, RenderDoc CSV, or
//! a layout with buffers) written as a mesh: `.glb`, `.gltf` + `.bin`, `.obj` or `.ply`.

use std::io::{Cursor, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use clap::Args;
use inlay::diag::count;
use inlay::mesh::gltf::{ExportError, Exported};
use inlay::mesh::{self, FileKind, Instances, Mesh, MeshInput, MeshOptions};

use crate::CliError;
use crate::draw_source::{MeshSourceArgs, load_draw};
use crate::output::{self, AtomicFile};

/// Write a captured draw as a mesh (glTF, OBJ, PLY)
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  inlay export 000042-vb0=8a2c31f0-vs=1-ps=2.txt --output draw42.glb
  inlay export Body.fmt --output body.gltf            (Body.vb/.vb0…, Body.ib beside it)
  inlay export capture.csv --output mesh.obj          (RenderDoc mesh-view CSV)
  inlay export Mod.ini --output mod.glb               (a 3DMigoto mod: one node per part)
  inlay export Mod.ini --all-states --output all.glb  (one node per toggle state)
  inlay export layout.h --vb 0=mesh.vb --ib mesh.ib,format=R16_UINT --topology triangle_strip \\
      --output mesh.ply

  inlay export FrameAnalysis-2024-05-01 --select has=BLENDINDICES --output-dir meshes/
  inlay export FA --select vs=e8425f64cfb887cd,draws=100-200 --output-dir out --format obj --jobs 4

INPUT a folder: a 3DMigoto frame analysis (see `inlay frame`); every draw --select picks (the \
filter grammar of `inlay frame --select`; default: every draw with a vertex-buffer dump) is \
exported into --output-dir as DRAW.glb (or --format), on --jobs threads, with a progress bar \
on a terminal. Draws whose inputs are identical (layout, buffer bytes, index bytes, call) are \
written once, under the first one's name whatever the number of jobs; the others are listed \
as the same file in OUT/export.json, beside every draw's outcome. A draw that cannot be exported is one line naming its file and reason, and the \
batch goes on; the exit status is 1 when any draw failed.

A vb text dump finds the other slots' vbN dumps, its ib dump and the .buf files beside them by \
3DMigoto's naming (PREFIXvbN=…, PREFIXib=…); name several files to choose them yourself. The \
format comes from the output's extension. glTF keeps everything: standard attributes (POSITION, \
NORMAL, TANGENT, TEXCOORD_n, COLOR_n, JOINTS_n/WEIGHTS_n) with glTF's conversions, and every \
other or converted element unchanged as a `_NAME` attribute; the layout, formats and draw are \
in meshes[0].extras.inlay, which `inlay import` reads back.

A mod INI is read as `inlay mod` reads it (--set, --profile, --layout, --all-states): each \
drawn part is a node named after its section; parts of one component share its vertices (in \
glTF, the same accessors); `inlay import edited.glb --mod Mod.ini` writes the mod back.")]
pub struct ExportArgs {
    #[command(flatten)]
    pub source: MeshSourceArgs,
    /// The mesh file to write: .glb, .gltf (+ .bin beside it), .obj or .ply (`-`: standard
    /// output, .glb unless --format says otherwise)
    #[arg(
        long,
        short,
        value_name = "FILE",
        required_unless_present = "output_dir"
    )]
    pub output: Option<PathBuf>,
    /// With a frame folder: the folder the meshes go to
    #[arg(long, value_name = "DIR", conflicts_with = "output")]
    pub output_dir: Option<PathBuf>,
    /// With a frame folder: which draws (hash=H,vs=H,ps=H,draws=A-B,has=SEM,call=NAME,problems)
    #[arg(long, value_name = "FILTER")]
    pub select: Option<String>,
    /// With a frame folder: threads [default: every core]
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub jobs: usize,
    /// The mesh format, when the output's extension does not say it (or to override it); with
    /// a frame folder, every draw's format (default glb)
    #[arg(long, value_name = "glb|gltf|obj|ply", value_parser = parse_kind)]
    pub format: Option<FileKind>,
    /// Replace the output if it exists
    #[arg(long)]
    pub force: bool,
    /// Per-instance data: first instance only, one mesh per instance, or EXT_mesh_gpu_instancing attributes
    #[arg(long, default_value = "first", value_name = "first|expand|attributes")]
    pub instances: Instances,
    #[command(flatten)]
    pub mod_args: crate::modcmd::ModArgs,
}

const KINDS: [FileKind; 4] = [FileKind::Glb, FileKind::Gltf, FileKind::Obj, FileKind::Ply];

/// `--format NAME`: the kind whose name (as the library prints it) is NAME.
fn parse_kind(s: &str) -> Result<FileKind, String> {
    KINDS
        .into_iter()
        .find(|k| k.to_string().eq_ignore_ascii_case(s))
        .ok_or_else(|| {
            let names: Vec<String> = KINDS.iter().map(|k| k.to_string()).collect();
            format!("expected one of {}", names.join(", "))
        })
}

/// `--output` (one draw); empty when only `--output-dir` is given.
pub fn out(args: &ExportArgs) -> &Path {
    args.output.as_deref().unwrap_or(Path::new(""))
}

/// The output's format: `--format`, else the extension, else (standard output) glb.
pub fn output_kind(args: &ExportArgs) -> Result<FileKind, CliError> {
    let stdout = output::is_dash(out(args));
    let kind = match args.format {
        Some(k) => k,
        None if stdout => FileKind::Glb,
        None => FileKind::from_path(out(args)).ok_or_else(|| {
            CliError::usage(format!(
                "--output {}: the extension must be .glb, .gltf, .obj or .ply (or give \
                 --format)",
                out(args).display()
            ))
        })?,
    };
    if stdout && kind == FileKind::Gltf {
        return Err(CliError::usage(
            "--output -: a .gltf needs its .bin file beside it; standard output takes glb, obj \
             or ply (--format)",
        ));
    }
    Ok(kind)
}

/// Runs `inlay export`.
pub fn run(args: &ExportArgs, stdout: &mut dyn Write) -> Result<u8, CliError> {
    if args.source.inputs.len() == 1 && args.source.inputs[0].is_dir() {
        return run_frame(args, stdout);
    }
    if args.output_dir.is_some() || args.select.is_some() {
        return Err(CliError::usage(
            "--output-dir and --select apply to a frame-analysis folder; for one draw give --output FILE",
        ));
    }
    if args.output.is_none() {
        return Err(CliError::usage("--output FILE is needed"));
    }
    if crate::modcmd::is_ini(&args.source.inputs[0]) {
        return crate::modcmd::export(args, stdout);
    }
    let kind = output_kind(args)?;
    if kind != FileKind::Glb && kind != FileKind::Gltf && args.instances != Instances::First {
        return Err(CliError::usage(format!(
            "--instances {:?} needs glTF output: OBJ and PLY hold one instance",
            args.instances
        )));
    }
    let options = MeshOptions {
        instances: args.instances,
        target: args.source.target.target()?,
        patch_triangles: args.source.patch_triangles,
        max_zero_vertices: args.source.max_vertices,
        pipeline: args.source.target.mesh_pipeline(),
    };
    let (done, _, _) = load_draw(
        &args.source,
        &options,
        &|all| check_output_paths(args, all),
        |input| write_mesh(args, &input.files, kind, input, &options, &mut *stdout),
    )?;
    let err_style = crate::style::stderr();
    for w in &done.warnings {
        eprintln!("{}: {w}", err_style.warning("warning"));
    }
    // With `--output -` the mesh is standard output, and this line standard error.
    let mut stderr = std::io::stderr();
    let report = output::report_stream(stdout, &mut stderr, &[out(args)]);
    writeln!(
        report,
        "wrote {}: {}, {} ({}{})",
        if output::is_dash(out(args)) {
            "standard output".to_string()
        } else {
            out(args).display().to_string()
        },
        count(done.vertex_count.into(), "vertex", "vertices"),
        match done.mode {
            mesh::Mode::Points => count(done.primitives, "point", "points"),
            mesh::Mode::Lines => count(done.primitives, "line", "lines"),
            mesh::Mode::Triangles => count(done.primitives, "triangle", "triangles"),
        },
        count(done.attributes as u64, "attribute", "attributes"),
        if done.instance_count > 1 {
            format!(
                ", {}",
                count(done.instance_count.into(), "instance", "instances")
            )
        } else {
            String::new()
        }
    )
    .map_err(CliError::stdout)?;
    Ok(0)
}

fn bin_path(output: &Path) -> PathBuf {
    output.with_extension("bin")
}

fn check_output_paths(args: &ExportArgs, inputs: &[&Path]) -> Result<(), CliError> {
    crate::output::check_destination(out(args), inputs, args.force)?;
    if output_kind(args)? == FileKind::Gltf {
        crate::output::check_destination(&bin_path(out(args)), inputs, args.force)?;
    }
    Ok(())
}

/// Writes the draw: glTF streamed (`gltf::export_glb`/`export_gltf`), OBJ and PLY from the
/// built mesh.
fn write_mesh(
    args: &ExportArgs,
    inputs: &[String],
    kind: FileKind,
    input: &MeshInput<'_>,
    options: &MeshOptions,
    stdout: &mut dyn Write,
) -> Result<Exported, CliError> {
    let all: Vec<&Path> = inputs.iter().map(Path::new).collect();
    let name = out(args).display().to_string();
    let werr = |e: std::io::Error| CliError::io(format!("cannot write {name}"), e);
    let xerr = |e: ExportError| match e {
        ExportError::Mesh(e) => CliError::usage(e.to_string()),
        ExportError::Io(e) => werr(e),
    };
    let built = || Mesh::build(input, options).map_err(|e| CliError::usage(e.to_string()));
    // Standard output cannot seek (a .glb's header is written last): the mesh is built in
    // memory and then copied there.
    let mut file = if output::is_dash(out(args)) {
        Sink::Memory(Cursor::new(Vec::new()))
    } else {
        Sink::File(AtomicFile::create(out(args), &all, args.force)?)
    };
    let done = match kind {
        FileKind::Glb => mesh::gltf::export_glb(input, options, &mut file).map_err(xerr)?,
        FileKind::Obj => {
            let mesh = built()?;
            let warnings = mesh::obj::write_obj(&mesh, &mut file).map_err(werr)?;
            let mut done = Exported::of_mesh(&mesh);
            done.warnings.extend(warnings);
            done
        }
        FileKind::Ply => {
            let mesh = built()?;
            let warnings = mesh::ply::write_ply(&mesh, &mut file).map_err(werr)?;
            let mut done = Exported::of_mesh(&mesh);
            done.warnings.extend(warnings);
            done
        }
        FileKind::Gltf => {
            let bin = bin_path(out(args));
            let uri = bin
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("mesh.bin")
                .to_string();
            let mut b = AtomicFile::create(&bin, &all, args.force)?;
            let done =
                mesh::gltf::export_gltf(input, options, &mut file, &mut b, &uri).map_err(xerr)?;
            b.commit()?;
            done
        }
    };
    match file {
        Sink::File(f) => f.commit()?,
        Sink::Memory(m) => stdout
            .write_all(&m.into_inner())
            .map_err(CliError::stdout)?,
    }
    Ok(done)
}

/// Where the mesh is written: a file, or memory bound for standard output.
enum Sink {
    File(AtomicFile),
    Memory(Cursor<Vec<u8>>),
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Sink::File(f) => f.write(buf),
            Sink::Memory(m) => m.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Sink::File(f) => f.flush(),
            Sink::Memory(m) => m.flush(),
        }
    }
}

impl Seek for Sink {
    fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
        match self {
            Sink::File(f) => f.seek(pos),
            Sink::Memory(m) => m.seek(pos),
        }
    }
}

/// `inlay export DIR`: every selected draw of a frame, in parallel.
fn run_frame(args: &ExportArgs, stdout: &mut dyn Write) -> Result<u8, CliError> {
    use inlay::frame::Filter;
    use inlay::mesh::batch::{BatchOptions, Outcome, export_draws};
    let dir = &args.source.inputs[0];
    let out_dir = args.output_dir.as_ref().ok_or_else(|| {
        CliError::usage("a frame-analysis folder is exported with --output-dir DIR")
    })?;
    let kind = args.format.unwrap_or(FileKind::Glb);
    let filter: Filter = match &args.select {
        Some(s) => s
            .parse()
            .map_err(|e: inlay::frame::filter::FilterError| CliError::usage(e.to_string()))?,
        None => "dumped".parse().expect("a valid filter"),
    };
    let frame = crate::frame::open_frame(dir, args.jobs)?;
    let draws: Vec<_> = frame.select(&filter).collect();
    let options = BatchOptions {
        kind,
        jobs: args.jobs,
        overwrite: args.force,
        mesh: MeshOptions {
            instances: args.instances,
            target: args.source.target.target()?,
            patch_triangles: args.source.patch_triangles,
            max_zero_vertices: args.source.max_vertices,
            pipeline: args.source.target.mesh_pipeline(),
        },
        ..BatchOptions::default()
    };
    let bar = if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        let b = indicatif::ProgressBar::new(draws.len() as u64);
        if let Ok(s) = indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} draws {elapsed_precise} ETA {eta}",
        ) {
            b.set_style(s);
        }
        b
    } else {
        indicatif::ProgressBar::hidden()
    };
    let report = export_draws(&frame, &draws, out_dir, &options, &|n| {
        bar.set_position(n as u64)
    })
    .map_err(|e| CliError::io(format!("cannot write {}", out_dir.display()), e))?;
    bar.finish_and_clear();
    let st = crate::style::stderr();
    let mut manifest = Vec::new();
    for d in &report.draws {
        let entry = match &d.outcome {
            Outcome::Written {
                path,
                vertices,
                warnings,
                ..
            } => {
                for w in warnings {
                    eprintln!("{}: {}: {w}", st.warning("warning"), d.draw);
                }
                serde_json::json!({"draw": d.draw, "file": path.file_name().map(|n| n.to_string_lossy().into_owned()), "vertices": vertices})
            }
            Outcome::Same { path } => {
                serde_json::json!({"draw": d.draw, "same_as": path.file_name().map(|n| n.to_string_lossy().into_owned())})
            }
            Outcome::Failed { file, reason } => {
                eprintln!("{}: draw {}: {file}: {reason}", st.error("failed"), d.draw);
                serde_json::json!({"draw": d.draw, "error": format!("{file}: {reason}")})
            }
        };
        manifest.push(entry);
    }
    let mpath = out_dir.join("export.json");
    let text = serde_json::to_string_pretty(&serde_json::json!({
        "frame": dir.display().to_string(),
        "select": filter.to_string(),
        "draws": manifest,
    }))
    .unwrap_or_default();
    std::fs::write(&mpath, text + "\n")
        .map_err(|e| CliError::io(format!("cannot write {}", mpath.display()), e))?;
    let (written, same, failed) = report.counts();
    writeln!(
        stdout,
        "exported {} of {} draws into {}: {} ({}), {same} identical to one written, {failed} failed",
        written + same,
        draws.len(),
        out_dir.display(),
        count(written as u64, "file", "files"),
        count(report.bytes_written, "byte", "bytes")
    )
    .map_err(CliError::stdout)?;
    Ok(if failed > 0 { 1 } else { 0 })
}
