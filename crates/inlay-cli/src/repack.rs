//! `inlay repack`: vertex buffers read through one layout and written through another, with
//! `inlay::encode::repack`.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use inlay::encode::{ElementDefault, RepackOptions, Rounding, SourceBuffer, WriterOptions};
use inlay::layout::InputLayout;

use crate::encode::{output_paths, parse_number, parse_padding, parse_strides, write_buffers};
use crate::source::LayoutFile;
use crate::{CliError, TargetArgs, check, style};

/// Convert vertex buffers from one layout to another (drop, reorder, repack elements)
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  inlay repack float.h packed.h --vb 0=mesh.vb --out 0=mesh-packed.vb
  inlay repack a.json b.json --vb 0=pos.vb --vb 1=inst.vb,stride=32 --out 0=all.vb \\
      --default COLOR0=1,1,1,1 --rounding d3d

Elements of the output layout take the input element with the same semantic name (any case) \
and index; one the input lacks needs --default NAME<index>=x,y,z,w (floats for FLOAT/UNORM/SNORM \
formats, integers for UINT/SINT). Input buffers must hold a whole number of vertices (or \
instance records) of their stride. The report on standard output names each element's \
conversion, says which can lose information (\"lossy\") and counts the values that changed; \
--strict makes any change exit with status 1 (the files are written all the same).")]
pub struct RepackArgs {
    /// Layout the input buffers are in
    pub from: PathBuf,
    /// Layout to write
    pub to: PathBuf,
    /// Input buffer of a slot of the first layout (repeatable); stride defaults to its smallest
    #[arg(
        long = "vb",
        value_name = "SLOT=FILE[,stride=N][,offset=N]",
        required = true
    )]
    pub vb: Vec<String>,
    /// Output buffer of a slot of the second layout (one for every slot it uses; `-`:
    /// standard output, the report then goes to standard error)
    #[arg(long = "out", value_name = "SLOT=FILE", required = true)]
    pub out: Vec<String>,
    /// Stride of a slot's output (default: the second layout's smallest stride for it)
    #[arg(long = "stride", value_name = "SLOT=N")]
    pub stride: Vec<String>,
    /// Values for an output element the input lacks: NAME<index>=x,y,z,w
    #[arg(long = "default", value_name = "ELEMENT=x,y,z,w")]
    pub defaults: Vec<String>,
    /// Rounding of narrower formats: nearest (exact nearest code) or d3d (the pipeline's rules)
    #[arg(long, default_value = "nearest", value_name = "R")]
    pub rounding: Rounding,
    /// Value of every byte no element covers (padding)
    #[arg(long, default_value = "0", value_name = "BYTE")]
    pub padding: String,
    /// Refuse to write more than this many bytes in all
    #[arg(long, default_value_t = 1 << 30, value_name = "BYTES")]
    pub max_bytes: u64,
    /// Exit with status 1 when a value changed
    #[arg(long)]
    pub strict: bool,
    /// Replace output files that exist
    #[arg(long)]
    pub force: bool,
    /// Which C array of the first layout file to use
    #[arg(long, value_name = "NAME")]
    pub from_array: Option<String>,
    /// Which C array of the second layout file to use
    #[arg(long, value_name = "NAME")]
    pub to_array: Option<String>,
    #[command(flatten)]
    pub target: TargetArgs,
}

struct Vb {
    slot: u32,
    path: PathBuf,
    stride: Option<u32>,
    offset: u64,
}

fn parse_vb(s: &str) -> Result<Vb, CliError> {
    let (slot, rest) = s.split_once('=').ok_or_else(|| {
        CliError::usage(format!(
            "--vb `{s}`: expected SLOT=FILE[,stride=N][,offset=N]"
        ))
    })?;
    let slot = u32::try_from(parse_number("--vb slot", slot)?)
        .map_err(|_| CliError::usage(format!("--vb `{s}`: the slot is too large")))?;
    let mut parts = rest.split(',');
    let path = PathBuf::from(parts.next().unwrap_or(""));
    if path.as_os_str().is_empty() {
        return Err(CliError::usage(format!("--vb `{s}`: no file name")));
    }
    let mut vb = Vb {
        slot,
        path,
        stride: None,
        offset: 0,
    };
    for p in parts {
        match p.split_once('=') {
            Some(("stride", v)) => {
                vb.stride = Some(
                    u32::try_from(parse_number("--vb stride", v)?)
                        .map_err(|_| CliError::usage(format!("--vb `{s}`: stride too large")))?,
                )
            }
            Some(("offset", v)) => vb.offset = parse_number("--vb offset", v)?,
            _ => {
                return Err(CliError::usage(format!(
                    "--vb `{s}`: unknown option `{p}` (expected stride=N or offset=N)"
                )));
            }
        }
    }
    Ok(vb)
}

/// A layout created from a file, with the strides the file states (slot, stride).
type Loaded = (InputLayout, Vec<(u32, u32)>);

fn load(
    path: &Path,
    array: Option<&str>,
    target: &inlay::target::Target,
) -> Result<Result<Loaded, u8>, CliError> {
    let err_style = style::stderr();
    let file = LayoutFile::load(path, array, err_style)?;
    let creation = check::create(&file, None, target, false)?;
    match creation.layout {
        // With the strides the file states (a .fmt, a dump), the defaults for its buffers.
        Some(l) => Ok(Ok((l, file.strides))),
        None => {
            let mut err = std::io::stderr();
            check::write_diagnostics(&mut err, &file, &creation, err_style)?;
            check::write_result(&mut err, &creation, err_style)?;
            Ok(Err(1))
        }
    }
}

fn parse_default(s: &str) -> Result<(String, u32, Vec<String>), CliError> {
    let (name, vals) = s
        .split_once('=')
        .ok_or_else(|| CliError::usage(format!("--default `{s}`: expected ELEMENT=x,y,z,w")))?;
    let name = name.trim();
    let digits = name.len() - name.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let (sem, idx) = name.split_at(name.len() - digits);
    let index = if idx.is_empty() {
        0
    } else {
        idx.parse::<u32>()
            .map_err(|_| CliError::usage(format!("--default `{s}`: bad index")))?
    };
    if sem.is_empty() {
        return Err(CliError::usage(format!(
            "--default `{s}`: no semantic name"
        )));
    }
    let parts: Vec<String> = vals.split(',').map(|p| p.trim().to_string()).collect();
    if parts.len() > 4 {
        return Err(CliError::usage(format!(
            "--default `{s}`: more than 4 lanes"
        )));
    }
    Ok((sem.to_string(), index, parts))
}

/// Runs `inlay repack`.
pub fn run(args: &RepackArgs, stdout: &mut dyn Write) -> Result<u8, CliError> {
    let target = args.target.target()?;
    let from = match load(&args.from, args.from_array.as_deref(), &target)? {
        Ok(l) => l,
        Err(code) => return Ok(code),
    };
    let to = match load(&args.to, args.to_array.as_deref(), &target)? {
        Ok(l) => l,
        Err(code) => return Ok(code),
    };
    let (from, from_strides) = from;
    let (to, to_strides) = to;
    let paths = output_paths(&to, &args.out)?;
    let mut strides = parse_strides(&args.stride)?;
    for &(slot, stride) in &to_strides {
        if !strides.iter().any(|(s, _)| *s == slot) {
            strides.push((slot, stride));
        }
    }
    let padding = parse_padding(&args.padding)?;
    let mut vbs: Vec<Vb> = args
        .vb
        .iter()
        .map(|s| parse_vb(s))
        .collect::<Result<_, _>>()?;
    for (i, v) in vbs.iter().enumerate() {
        if vbs[..i].iter().any(|o| o.slot == v.slot) {
            return Err(CliError::usage(format!(
                "--vb: slot {} given twice",
                v.slot
            )));
        }
    }
    for v in &mut vbs {
        if v.stride.is_none() {
            v.stride = from_strides
                .iter()
                .find(|(s, _)| *s == v.slot)
                .map(|(_, stride)| *stride);
        }
    }
    // Defaults: lanes typed by the output element's format.
    let mut defaults = Vec::new();
    for s in &args.defaults {
        let (sem, index, parts) = parse_default(s)?;
        let e = to
            .elements()
            .iter()
            .find(|e| e.semantic_index == index && e.semantic_name.eq_ignore_ascii_case(&sem))
            .ok_or_else(|| {
                CliError::usage(format!(
                    "--default `{s}`: the output layout has no element {sem}{index}"
                ))
            })?;
        let kind = e.format.info().and_then(|i| i.first_kind());
        let mut lanes = [0u32; 4];
        for (l, p) in parts.iter().enumerate() {
            lanes[l] = match kind {
                Some(inlay::format::Kind::Uint) => p.parse::<u32>().ok(),
                Some(inlay::format::Kind::Sint) => p.parse::<i32>().ok().map(|v| v as u32),
                _ => p.parse::<f32>().ok().map(f32::to_bits),
            }
            .ok_or_else(|| {
                CliError::usage(format!(
                    "--default `{s}`: lane {l}: `{p}` is not a value of {} ({})",
                    e.format,
                    if matches!(
                        kind,
                        Some(inlay::format::Kind::Uint | inlay::format::Kind::Sint)
                    ) {
                        "an integer"
                    } else {
                        "a float"
                    }
                ))
            })?;
        }
        defaults.push(ElementDefault {
            semantic: sem,
            index,
            lanes,
        });
    }
    let data: Vec<Vec<u8>> = vbs
        .iter()
        .map(|v| crate::decode::read_buffer(&v.path))
        .collect::<Result<_, _>>()?;
    let mut sources = Vec::new();
    for (v, d) in vbs.iter().zip(&data) {
        let start = usize::try_from(v.offset)
            .ok()
            .filter(|&o| o <= d.len())
            .ok_or_else(|| {
                CliError::usage(format!(
                    "--vb {}: offset {} is past the end of {} ({} bytes)",
                    v.slot,
                    v.offset,
                    v.path.display(),
                    d.len()
                ))
            })?;
        sources.push(SourceBuffer {
            slot: v.slot,
            data: &d[start..],
            stride: v.stride,
        });
    }
    let options = RepackOptions {
        writer: WriterOptions {
            rounding: args.rounding,
            padding,
            strides,
            max_bytes: Some(args.max_bytes),
        },
        defaults,
        vertices: None,
        instances: None,
    };
    let out = inlay::encode::repack(&from, &sources, &to, &options).map_err(|e| {
        let msg = e.to_string();
        match e {
            inlay::encode::EncodeError::SizeLimit { .. } => {
                CliError::usage(format!("{msg} (raise it with --max-bytes)"))
            }
            _ => CliError::usage(msg),
        }
    })?;
    let mut inputs: Vec<&Path> = vec![&args.from, &args.to];
    inputs.extend(vbs.iter().map(|v| v.path.as_path()));
    write_buffers(&out.buffers, &paths, stdout, &inputs, args.force)?;
    // With `--out SLOT=-` the buffer is standard output, and the report standard error.
    let mut stderr = std::io::stderr();
    let outputs: Vec<&Path> = paths.iter().map(|(_, p)| p.as_path()).collect();
    let report = crate::output::report_stream(stdout, &mut stderr, &outputs);
    write!(report, "{}", out.report).map_err(CliError::stdout)?;
    for (b, (_, p)) in out.buffers.iter().zip(&paths) {
        writeln!(
            report,
            "slot {} -> {} ({} bytes, stride {})",
            b.slot,
            crate::output::shown(p),
            b.data.len(),
            b.stride
        )
        .map_err(CliError::stdout)?;
    }
    let changed = out.report.elements.iter().any(|e| e.altered > 0);
    Ok(if args.strict && changed { 1 } else { 0 })
}
