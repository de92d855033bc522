//! `inlay import`: a glTF mesh (edited or not) written back as vertex and index buffers in a
//! game's layout, through the encoder.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use inlay::diag::count;
use inlay::element::InputElementDesc;
use inlay::encode::Rounding;
use inlay::mesh::gltf::{self, ImportedMesh};
use inlay::mesh::import::{ImportError, ImportOptions, import_with_original};

use crate::output::AtomicFile;
use crate::source::{self, LayoutFile};
use crate::{CliError, TargetArgs, style};

/// Write a glTF mesh back as vertex/index buffers in a layout
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  inlay import body.glb --layout Body.fmt --output-dir mod/
  inlay import edited.glb --mod Mod.ini --output-dir edited-mod/
  inlay import edited.gltf --layout layout.h --output-dir out/ --name Hat --stride 0=40

LAYOUT is a C/C++, JSON or TOML layout, an importer .fmt, or a 3DMigoto vb text dump (its \
element blocks and stride). Writes NAME.vb (one slot) or NAME.vb0…NAME.vbN, and NAME.ib, in \
DIR. Each vertex takes the exact copies `inlay export` wrote (`_NAME_X`…) unless its standard \
attribute (POSITION, NORMAL, TANGENT, TEXCOORD_n, COLOR_n, JOINTS_n/WEIGHTS_n) was edited; \
when the glTF lost the copies (Blender's default glTF export drops them) and LAYOUT is the \
capture itself (an importer .fmt with its .vb/.ib, a 3DMigoto vb dump), each vertex's exact \
values come from the capture's vertex it matches. An element no vertex source provides is an \
error (exit 1) unless --default or --allow-missing says what to write.

With --mod, the mesh is an `inlay export` of the mod (edited or not; give the same --set or \
--all-states as to the export): each part is found by its node's name, each component's buffers are written in the mod's split and strides, each index \
buffer in its format, with a copy of every INI whose counts (drawindexed count and start, the \
vertex counts of draw passes and override_vertex_count) are rewritten in place; every other \
file is copied unchanged. An unedited export writes every file byte for byte.")]
pub struct ImportArgs {
    /// The mesh: .glb or .gltf (with its .bin)
    pub mesh: PathBuf,
    /// The layout to write in; with --mod, the layout of one of the mod's buffers as
    /// TARGET=FILE (repeatable, as `inlay mod --layout` takes it)
    #[arg(long, value_name = "LAYOUT")]
    pub layout: Vec<String>,
    /// The mod to write back into: its INI (the buffers, the index buffers and a copy of the
    /// INI with updated counts are written to --output-dir)
    #[arg(long = "mod", value_name = "INI")]
    pub mod_ini: Option<PathBuf>,
    /// With --mod: a variable's value, e.g. '$swapvar=1' (repeatable), as given to the export
    #[arg(long = "set", value_name = "$VAR=VALUE")]
    pub set: Vec<String>,
    /// With --mod: the mesh is an export with --all-states (its parts are looked for over
    /// every toggle state)
    #[arg(long)]
    pub all_states: bool,
    /// With --mod: the tool family's buffer profile instead of detection
    #[arg(long, value_name = "NAME")]
    pub profile: Option<String>,
    /// Folder for the buffers (created if missing)
    #[arg(long, value_name = "DIR")]
    pub output_dir: PathBuf,
    /// Base name of the files [default: the mesh file's name]
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// Stride of a slot (repeatable), SLOT=N [default: the layout's, or the export's]
    #[arg(long, value_name = "SLOT=N")]
    pub stride: Vec<String>,
    /// Rounding into narrower formats: nearest or truncate (see `inlay encode`)
    #[arg(long, default_value = "nearest", value_name = "MODE")]
    pub rounding: Rounding,
    /// Replace files that exist
    #[arg(long)]
    pub force: bool,
    /// Write the mesh from element 0, not at the element numbers of the capture it was
    /// exported from (which leaves the records before the draw's first vertex as padding).
    #[arg(long)]
    pub rebase: bool,
    /// The value of an element the mesh does not provide (repeatable), NAME=x[,y,z,w]:
    /// e.g. TANGENT0=1,0,0,1 (NAME is the semantic and index; index 0 may be left out)
    #[arg(long = "default", value_name = "NAME=VALUES")]
    pub defaults: Vec<String>,
    /// Write zeros for elements the mesh does not provide (each named in a warning)
    /// instead of failing
    #[arg(long)]
    pub allow_missing: bool,
    /// Refuse to write more than N padding records before the mesh's first vertex
    #[arg(long, value_name = "N", default_value_t = inlay::assembler::validate::DEFAULT_MAX_ZERO_VERTICES)]
    pub max_vertices: u64,
    /// Which C array to use when the layout file has several
    #[arg(long, value_name = "NAME")]
    pub array: Option<String>,
    #[command(flatten)]
    pub target: TargetArgs,
}

/// A layout to import into: its elements, the strides the file states (slot, stride), and
/// whether it is an importer's single merged buffer.
pub type ImportLayout = (Vec<InputElementDesc>, Vec<(u32, u32)>, bool);

/// The layout's elements and the strides the file states (any layout source,
/// [`LayoutFile::load`]).
fn load_layout(args: &ImportArgs) -> Result<ImportLayout, CliError> {
    let path = match args.layout.as_slice() {
        [one] => PathBuf::from(one),
        _ => {
            return Err(CliError::usage(
                "give the layout to write in with --layout FILE (or the mod with --mod INI)",
            ));
        }
    };
    read_layout_file(&path, args.array.as_deref())
}

/// A layout file in any form `import` reads (any layout source, [`LayoutFile::load`]): its
/// elements, the strides it states, and whether it is an importer's single merged buffer.
pub fn read_layout_file(path: &Path, array: Option<&str>) -> Result<ImportLayout, CliError> {
    let l = LayoutFile::load(path, array, style::stderr())?;
    Ok((l.parsed.elements, l.strides, l.single_buffer))
}

/// Reads the bytes of a glTF's external buffer by its URI, or says why not.
pub type ExternalReader = Box<dyn FnMut(&str) -> Result<Vec<u8>, String>>;

/// The external buffers of a glTF in `dir`: file names beside it only, each read through the
/// library's checked reader under `limit` (a pipe or device is refused, never opened).
fn external_reader(dir: PathBuf, limit: u64) -> ExternalReader {
    Box::new(move |uri: &str| -> Result<Vec<u8>, String> {
        if uri.contains("..") || uri.starts_with('/') || uri.contains(':') {
            return Err("only file names beside the glTF are read".into());
        }
        inlay::input::read_file(&dir.join(uri), limit).map_err(|e| match e {
            inlay::input::ReadError::TooLarge { .. } => {
                format!("{e} (raise it with --max-input-size)")
            }
            e => e.to_string(),
        })
    })
}

/// Reads a glTF file's bytes and resolves its external buffers (file names beside it only).
/// A .glb is at most 4 GiB by its header; `--max-input-size` (default 1 GiB) bounds it like
/// every binary input, and each external buffer file too.
pub fn read_gltf_file(path: &Path) -> Result<(Vec<u8>, ExternalReader), CliError> {
    let limit = source::InputKind::Binary.limit().min(u32::MAX as u64);
    let bytes = source::read_bytes(path, limit)?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    Ok((bytes, external_reader(dir, limit)))
}

fn read_mesh(path: &Path) -> Result<ImportedMesh, CliError> {
    let (bytes, mut external) = read_gltf_file(path)?;
    let name = path.display().to_string();
    let m = if bytes.starts_with(b"glTF") {
        gltf::read_glb(&name, &bytes, &mut external)
    } else {
        gltf::read_gltf(&name, &bytes, &mut external)
    };
    m.map_err(|e| CliError::usage(e.to_string()))
}

/// `--default NAME=x[,y,z,w]`.
fn parse_default(text: &str) -> Result<(String, Vec<f64>), CliError> {
    let (name, values) = text
        .split_once('=')
        .ok_or_else(|| CliError::usage(format!("--default `{text}`: expected NAME=x[,y,z,w]")))?;
    let values = values
        .split(',')
        .map(|v| {
            v.trim().parse::<f64>().map_err(|_| {
                CliError::usage(format!(
                    "--default `{text}`: `{}` is not a number",
                    v.trim()
                ))
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    if name.trim().is_empty() || values.len() > 4 {
        return Err(CliError::usage(format!(
            "--default `{text}`: expected NAME=x[,y,z,w] (one to four values)"
        )));
    }
    Ok((name.trim().to_string(), values))
}

/// The mesh of the capture `--layout` names, when it is one whose buffers are at hand (an
/// importer `.fmt` with its `.vb`/`.ib`, a 3DMigoto vb text dump): the source of exact
/// values for a glTF that lost inlay's copies. `None` for other layouts.
fn original_mesh(args: &ImportArgs, target: inlay::target::Target) -> Option<inlay::mesh::Mesh> {
    let [layout] = args.layout.as_slice() else {
        return None;
    };
    let layout = Path::new(layout);
    let ext = layout
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    if !matches!(ext.as_deref(), Some("fmt" | "txt")) {
        return None;
    }
    let capture = inlay::capture::load_dump(layout).ok()?;
    let options = inlay::mesh::MeshOptions {
        target,
        max_zero_vertices: args.max_vertices,
        pipeline: args.target.mesh_pipeline(),
        ..inlay::mesh::MeshOptions::default()
    };
    inlay::mesh::Mesh::from_capture(&capture, &options).ok()
}

/// Runs `inlay import`.
pub fn run(args: &ImportArgs, stdout: &mut dyn Write) -> Result<u8, CliError> {
    if args.mod_ini.is_some() {
        return crate::modcmd::import(args, stdout);
    }
    let (elements, file_strides, single) = load_layout(args)?;
    let mut strides = file_strides;
    for s in &args.stride {
        let (slot, v) = s
            .split_once('=')
            .ok_or_else(|| CliError::usage(format!("--stride `{s}`: expected SLOT=N")))?;
        let parse = |t: &str| {
            t.trim()
                .parse::<u32>()
                .map_err(|_| CliError::usage(format!("--stride `{s}`: `{t}` is not a number")))
        };
        let (slot, v) = (parse(slot)?, parse(v)?);
        strides.retain(|x| x.0 != slot);
        strides.push((slot, v));
    }
    let target = args.target.target()?;
    let created = inlay::validation::layout_without_shader(&target, &elements);
    let Some(layout) = created.layout.as_ref() else {
        let msgs: Vec<String> = created.errors().map(|d| d.to_string()).collect();
        return Err(CliError {
            code: 1,
            message: format!(
                "{}: CreateInputLayout refuses the layout: {}",
                args.layout.join(" "),
                msgs.join("; ")
            ),
        });
    };
    let mut defaults = Vec::new();
    for d in &args.defaults {
        defaults.push(parse_default(d)?);
    }
    let mesh = read_mesh(&args.mesh)?;
    let original = original_mesh(args, target);
    let result = import_with_original(
        &mesh,
        layout,
        &ImportOptions {
            rounding: args.rounding,
            strides,
            rebase: args.rebase,
            defaults,
            allow_missing: args.allow_missing,
            max_padding: args.max_vertices,
        },
        original.as_ref(),
    )
    .map_err(|e| CliError {
        code: match e {
            ImportError::Missing(_) => 1,
            ImportError::Other(_) => 2,
        },
        message: format!("{}: {e}", args.mesh.display()),
    })?;
    for w in &result.warnings {
        eprintln!("{}: {w}", style::stderr().warning("warning"));
    }
    std::fs::create_dir_all(&args.output_dir)
        .map_err(|e| CliError::io(format!("cannot create {}", args.output_dir.display()), e))?;
    let base = args.name.clone().unwrap_or_else(|| {
        args.mesh
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("mesh")
            .to_string()
    });
    let layout_path = PathBuf::from(args.layout.first().cloned().unwrap_or_default());
    let inputs: Vec<&Path> = vec![args.mesh.as_path(), layout_path.as_path()];
    let mut files: Vec<(PathBuf, &[u8])> = Vec::new();
    let one = result.buffers.len() == 1 && (single || result.buffers[0].slot == 0);
    for b in &result.buffers {
        let name = if one {
            format!("{base}.vb")
        } else {
            format!("{base}.vb{}", b.slot)
        };
        files.push((args.output_dir.join(name), &b.data));
    }
    files.push((args.output_dir.join(format!("{base}.ib")), &result.index.1));
    // Check every destination before writing any.
    for (p, _) in &files {
        crate::output::check_destination(p, &inputs, args.force)?;
    }
    for (p, data) in &files {
        let mut f = AtomicFile::create(p, &inputs, args.force)?;
        f.write_all(data)
            .map_err(|e| CliError::io(format!("cannot write {}", p.display()), e))?;
        f.commit()?;
    }
    for (p, data) in &files {
        writeln!(stdout, "wrote {} ({} bytes)", p.display(), data.len())
            .map_err(CliError::stdout)?;
    }
    writeln!(
        stdout,
        "{}; index buffer {}; topology {}; draw {}",
        count(mesh.vertex_count as u64, "vertex", "vertices"),
        result.index.0.format(),
        result.topology,
        result.draw
    )
    .map_err(CliError::stdout)?;
    for s in &result.sources {
        writeln!(stdout, "  {s}").map_err(CliError::stdout)?;
    }
    Ok(0)
}
