//! `inlay lower`: the Vulkan or WebGPU vertex input state of a layout, and what needs a remedy.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use inlay::assembler::Topology;
use inlay::diag::count;
use inlay::lower::{self, DeviceProfile, DrawShape, Remedy, Subject};

use crate::source::{LayoutFile, read_bytes};
use crate::{CliError, TargetArgs, check, map, style};

/// Largest device profile read (a real one is a few kilobytes).
const PROFILE_LIMIT: u64 = 1 << 20;

/// Lower a layout to Vulkan or WebGPU vertex input, with a remedy for what the target lacks
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  inlay lower layout.h --target vulkan
  inlay lower layout.json --target vulkan --device-profile profiles/nvidia-h200.json --json
  inlay lower layout.h --target wgpu --topology triangle_strip --indexed --stride 0=32
  inlay lower layout.h --target vulkan --api d3d12 --topology triangle_strip --indexed \
      --index-format R32_UINT --strip-cut 0xffff")]
pub struct LowerArgs {
    /// Layout file: C/C++, C#, Rust, JSON, TOML, an importer .fmt or a 3DMigoto vb dump (`-`:
    /// standard input)
    pub layout: PathBuf,
    /// Target API: vulkan or wgpu
    #[arg(long, value_name = "API")]
    pub target: String,
    /// Device profile (JSON, as `inlay-gpu profile` writes it) [default: the Vulkan spec's
    /// required support, or WebGPU's default limits]
    #[arg(long, value_name = "FILE")]
    pub device_profile: Option<PathBuf>,
    /// Primitive topology of the draw
    #[arg(long, default_value = "triangle_list", value_name = "TOPOLOGY")]
    pub topology: Topology,
    /// The draw is indexed and its index buffer may hold the index format's all-ones value
    /// (0xFFFF, 0xFFFFFFFF: a cut in D3D11, a cut or a vertex in D3D12)
    #[arg(long)]
    pub indexed: bool,
    /// With --indexed: the index buffer holds no all-ones index, so no cut or all-ones vertex
    /// needs a remedy
    #[arg(long, requires = "indexed")]
    pub no_all_ones: bool,
    /// Index format of an indexed draw (R16_UINT or R32_UINT): with --api d3d12 the
    /// pipeline's strip cut is compared with it
    #[arg(long, value_name = "FORMAT")]
    pub index_format: Option<inlay::buffer::IndexFormat>,
    /// Stride for every slot (N) or for one slot (SLOT=N) [default: each slot's minimum]
    #[arg(long, value_name = "N|SLOT=N")]
    pub stride: Vec<String>,
    /// Which C array to use when the file has several
    #[arg(long, value_name = "NAME")]
    pub array: Option<String>,
    /// Print the lowering as JSON
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub d3d: TargetArgs,
}

fn remedy_text(r: &Remedy) -> String {
    match r {
        Remedy::ConvertFormat { to, exact } => format!(
            "convert on the CPU to {} ({})",
            to.name,
            if *exact { "exact" } else { "inexact" }
        ),
        Remedy::ExpandInstances { step_rate } => {
            format!("expand per-instance data (step rate {step_rate}) to one element per instance")
        }
        Remedy::RewriteIndices => "rewrite the index buffer without cuts".to_string(),
        Remedy::ReplaceIndex { from, to } => {
            format!("rewrite index values {from:#x} as {to:#x} (the target's restart value)")
        }
        Remedy::WidenIndices => {
            "widen the 16-bit indices to 32-bit (0xFFFF is then no restart value)".to_string()
        }
        Remedy::StripToList { cut } => format!(
            "unroll the strip into a list of its primitives ({}), restart off",
            match cut {
                Some(c) => format!("cutting at {c:#x}"),
                None => "no index cuts".to_string(),
            }
        ),
        Remedy::Restride => "copy into a tighter, aligned buffer".to_string(),
        Remedy::Rebind { binding } => format!("use binding {binding}"),
        Remedy::ZeroBuffer => "bind a zero buffer, stride 0, four 32-bit lanes".to_string(),
        Remedy::Enable { feature } => format!("enable {feature}"),
        Remedy::None => "none in the data (shader or device side)".to_string(),
    }
}

/// Runs `inlay lower`.
pub fn run(args: &LowerArgs, out: &mut dyn Write) -> Result<u8, CliError> {
    let mut profile = match args.target.to_ascii_lowercase().as_str() {
        "vulkan" | "vk" => DeviceProfile::vulkan_required(),
        "wgpu" | "webgpu" => DeviceProfile::wgpu_default(),
        t => {
            return Err(CliError::usage(format!(
                "--target: `{t}` is not a lowering target (vulkan or wgpu)"
            )));
        }
    };
    if let Some(path) = &args.device_profile {
        let bytes = read_bytes(path, PROFILE_LIMIT)?;
        let text = String::from_utf8(bytes)
            .map_err(|_| CliError::usage(format!("{}: not UTF-8 text", path.display())))?;
        let p = DeviceProfile::from_json(&text)
            .map_err(|e| CliError::usage(format!("{}: {e}", path.display())))?;
        if p.api != profile.api {
            return Err(CliError::usage(format!(
                "{}: a {} profile cannot lower for --target {}",
                path.display(),
                p.api.name(),
                args.target
            )));
        }
        profile = p;
    }
    let (all, per) = map::parse_strides(&args.stride)?;
    let layout_file = LayoutFile::load(&args.layout, args.array.as_deref(), style::stderr())?;
    let creation = inlay::CreateInputLayout::new(&args.d3d.target()?, &layout_file.parsed.elements)
        .pipeline(args.d3d.pipeline(Some(args.topology.topology_type())))
        .without_shader();
    let style = style::stdout();
    let Some(layout) = &creation.layout else {
        check::write_diagnostics(out, &layout_file, &creation, style)?;
        check::write_result(out, &creation, style)?;
        return Ok(1);
    };
    let mut shape = DrawShape::tight(layout, args.topology, args.indexed);
    shape.index_format = args.index_format;
    shape.may_cut = args.indexed && !args.no_all_ones;
    for (slot, stride) in shape.strides.iter_mut() {
        if let Some(a) = all {
            *stride = a;
        }
        if let Some((_, s)) = per.iter().find(|(s, _)| s == slot) {
            *stride = *s;
        }
    }
    let lowering = lower::lower(layout, &shape, &profile);
    if args.json {
        let text = serde_json::to_string_pretty(&lowering)
            .map_err(|e| CliError::usage(format!("cannot write JSON: {e}")))?;
        writeln!(out, "{text}").map_err(CliError::stdout)?;
        return Ok(0);
    }
    let w = |out: &mut dyn Write, s: String| writeln!(out, "{s}").map_err(CliError::stdout);
    w(out, layout_file.describe())?;
    w(
        out,
        format!("lowered for {} ({})", profile.name, profile.api.name()),
    )?;
    w(out, String::new())?;
    w(out, "bindings".to_string())?;
    for b in &lowering.state.bindings {
        w(
            out,
            format!(
                "  {:>2}  {:<8} stride {:>4}  {}{}",
                b.binding,
                b.slot.map_or("-".to_string(), |s| format!("slot {s}")),
                b.stride,
                if b.per_instance {
                    "per instance"
                } else {
                    "per vertex"
                },
                match b.divisor {
                    Some(d) => format!(", divisor {d}"),
                    None => String::new(),
                } + match b.source {
                    lower::BindingSource::Slot => "",
                    lower::BindingSource::ExpandedInstances => " (expanded instances)",
                    lower::BindingSource::Converted => " (converted elements)",
                    lower::BindingSource::Zero => " (zero buffer)",
                }
            ),
        )?;
    }
    w(out, "attributes".to_string())?;
    for a in &lowering.state.attributes {
        let e = &layout.elements()[a.element];
        w(
            out,
            format!(
                "  location {:>2}  binding {:>2}  offset {:>4}  {:<26} {}{} ({})",
                a.location,
                a.binding,
                a.offset,
                a.format.name,
                e.semantic_name,
                e.semantic_index,
                e.format
            ),
        )?;
    }
    w(
        out,
        format!(
            "topology {}, primitive restart {}",
            lowering.state.topology.unwrap_or("none"),
            if lowering.state.primitive_restart {
                "on"
            } else {
                "off"
            }
        ),
    )?;
    w(out, String::new())?;
    if lowering.findings.is_empty() {
        w(out, "everything maps natively".to_string())?;
    } else {
        w(
            out,
            count(lowering.findings.len() as u64, "finding", "findings"),
        )?;
        for f in &lowering.findings {
            // Element and slot problems name their subject; draw-wide ones get a prefix.
            let prefix = if f.subject == Subject::Draw {
                "draw: "
            } else {
                ""
            };
            w(out, format!("  {prefix}{}", f.problem))?;
            w(out, format!("    remedy: {}", remedy_text(&f.remedy)))?;
        }
    }
    Ok(0)
}
