//! `inlay export`: a captured draw (3DMigoto dumps, importer `.fmt` files, RenderDoc CSV, or
//! a layout with buffers) written as a mesh: `.glb`, `.gltf` + `.bin`, `.obj` or `.ply`.

use std::io::{Cursor, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use clap::Args;
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
    #[arg(long, short, value_name = "FILE")]
    pub output: PathBuf,
    /// The mesh format, when the output's extension does not say it (or to override it)
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

/// The output's format: `--format`, else the extension, else (standard output) glb.
pub fn output_kind(args: &ExportArgs) -> Result<FileKind, CliError> {
    let stdout = output::is_dash(&args.output);
    let kind = match args.format {
        Some(k) => k,
        None if stdout => FileKind::Glb,
        None => FileKind::from_path(&args.output).ok_or_else(|| {
            CliError::usage(format!(
                "--output {}: the extension must be .glb, .gltf, .obj or .ply (or give \
                 --format)",
                args.output.display()
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
    let report = output::report_stream(stdout, &mut stderr, &[&args.output]);
    writeln!(
        report,
        "wrote {}: {} vertices, {} {} ({} attributes{})",
        if output::is_dash(&args.output) {
            "standard output".to_string()
        } else {
            args.output.display().to_string()
        },
        done.vertex_count,
        done.primitives,
        match done.mode {
            mesh::Mode::Points => "points",
            mesh::Mode::Lines => "lines",
            mesh::Mode::Triangles => "triangles",
        },
        done.attributes,
        if done.instance_count > 1 {
            format!(", {} instances", done.instance_count)
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
    crate::output::check_destination(&args.output, inputs, args.force)?;
    if output_kind(args)? == FileKind::Gltf {
        crate::output::check_destination(&bin_path(&args.output), inputs, args.force)?;
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
    let name = args.output.display().to_string();
    let werr = |e: std::io::Error| CliError::io(format!("cannot write {name}"), e);
    let xerr = |e: ExportError| match e {
        ExportError::Mesh(e) => CliError::usage(e.to_string()),
        ExportError::Io(e) => werr(e),
    };
    let built = || Mesh::build(input, options).map_err(|e| CliError::usage(e.to_string()));
    // Standard output cannot seek (a .glb's header is written last): the mesh is built in
    // memory and then copied there.
    let mut file = if output::is_dash(&args.output) {
        Sink::Memory(Cursor::new(Vec::new()))
    } else {
        Sink::File(AtomicFile::create(&args.output, &all, args.force)?)
    };
    let done = match kind {
        FileKind::Glb => mesh::gltf::export_glb(input, options, &mut file).map_err(xerr)?,
        FileKind::Obj => {
            let mesh = built()?;
            mesh::obj::write_obj(&mesh, &mut file).map_err(werr)?;
            Exported::of_mesh(&mesh)
        }
        FileKind::Ply => {
            let mesh = built()?;
            mesh::ply::write_ply(&mesh, &mut file).map_err(werr)?;
            Exported::of_mesh(&mesh)
        }
        FileKind::Gltf => {
            let bin = bin_path(&args.output);
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
