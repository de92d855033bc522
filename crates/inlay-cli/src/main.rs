//! The `inlay` command-line tool: check, inspect, picture and decode Direct3D input layouts.
//!
//! Every subcommand is a thin shell over public calls of the `inlay` library. Exit status:
//! 0 when all is well, 1 when Windows would refuse the layout (or a conformance case fails),
//! 2 for usage and I/O errors (clap's own usage errors also exit with 2).

mod check;
mod decode;
mod demo;
mod diff;
mod draw_source;
mod encode;
mod export;
mod frame;
mod import;
mod lower;
mod map;
mod modcmd;
mod output;
mod primitives;
mod repack;
mod shader;
mod source;
mod style;
mod tools;
mod view;
mod view_frame;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use inlay::target::{Api, FeatureLevel, Target};

/// An error that ends the run: a message for stderr and the exit status.
#[derive(Debug)]
pub struct CliError {
    /// Exit status (2 for usage and I/O errors; 0 for a closed output pipe).
    pub code: u8,
    /// What went wrong, printed after `error: ` (may span several lines). Empty: print
    /// nothing.
    pub message: String,
}

impl CliError {
    /// A usage error (exit status 2).
    pub fn usage(message: impl Into<String>) -> Self {
        CliError {
            code: 2,
            message: message.into(),
        }
    }

    /// An I/O error (exit status 2), except a closed pipe on the output (`inlay … | head`),
    /// which ends the run quietly with status 0.
    pub fn io(context: impl Into<String>, e: io::Error) -> Self {
        if e.kind() == io::ErrorKind::BrokenPipe {
            return CliError {
                code: 0,
                message: String::new(),
            };
        }
        CliError::usage(format!("{}: {e}", context.into()))
    }

    /// A failed write to standard output.
    pub fn stdout(e: io::Error) -> Self {
        CliError::io("cannot write to standard output", e)
    }
}

const ABOUT: &str =
    "Check, inspect, picture and decode Direct3D 10/11 input layouts exactly as Windows does";

const LONG_ABOUT: &str = "\
Check, inspect, picture and decode Direct3D 10/11 input layouts exactly as Windows does.

With no arguments, inlay runs its demo: the seed layout {POSITION, COLOR} is checked against a \
built-in vertex shader signature, and a triangle is fetched through the input assembler.

A LAYOUT argument is C or C++ source holding D3D10/D3D11/D3D12_INPUT_ELEMENT_DESC arrays \
(pick one with --array NAME when there are several), or JSON/TOML using the ELEMENT fields of \
the conformance schema (semantic, index, format, slot, offset, class, step_rate).

Exit status: 0 ok, 1 when Windows would refuse the layout or a conformance case fails, \
2 for usage or I/O errors. Colours: --color auto|always|never (auto follows NO_COLOR, \
CLICOLOR_FORCE and TERM=dumb, and is off when output is not a terminal). A FILE argument `-` \
is standard input; --output - is standard output.";

const EXAMPLES: &str = "\
Examples:
  inlay                                          run the demo
  inlay check layout.h --shader vs.dxbc          what CreateInputLayout returns, and why
  inlay map layout.json --svg layout.svg         picture each slot's vertex
  inlay decode layout.h --vb 0=mesh.vb --format csv
  inlay mod Mod.ini                              what a 3DMigoto mod draws";

#[derive(Parser, Debug)]
#[command(name = "inlay", version, about = ABOUT, long_about = LONG_ABOUT, after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    global: GlobalArgs,
}

/// Options every subcommand takes.
#[derive(Args, Debug)]
struct GlobalArgs {
    /// When to colour output: auto (a terminal, NO_COLOR unset, TERM not dumb; CLICOLOR_FORCE
    /// forces it), always or never
    #[arg(long, global = true, value_enum, default_value_t = style::ColorChoice::Auto, value_name = "WHEN")]
    color: style::ColorChoice,
    /// Largest input file read, e.g. 2G [default: 64M for layouts and other text, 1G for
    /// shaders and buffers]
    #[arg(long, global = true, value_name = "SIZE", value_parser = source::parse_size)]
    max_input_size: Option<u64>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run the demo (the same as no arguments)
    #[command(after_help = "Example:\n  inlay demo")]
    Demo,
    Check(check::CheckArgs),
    Shader(shader::ShaderArgs),
    Signature(shader::SignatureArgs),
    Map(map::MapArgs),
    Decode(decode::DecodeArgs),
    Encode(encode::EncodeArgs),
    Repack(repack::RepackArgs),
    Export(export::ExportArgs),
    Frame(frame::FrameArgs),
    Diff(diff::DiffArgs),
    Import(import::ImportArgs),
    Lower(lower::LowerArgs),
    Mod(modcmd::ModCmdArgs),
    Conform(tools::ConformArgs),
    Bench(tools::BenchArgs),
    View(view::ViewArgs),
}

/// `--api` and `--feature-level`, and the D3D12 pipeline-state fields the input layout
/// depends on.
#[derive(Args, Debug, Clone)]
pub struct TargetArgs {
    /// Runtime whose rules apply: d3d11, d3d10.1, d3d10, or d3d12 (the input-layout part of
    /// CreateGraphicsPipelineState)
    #[arg(long, default_value = "d3d11", value_name = "API")]
    pub api: Api,
    /// Device feature level: 9_1, 9_2, 9_3, 10_0, 10_1, 11_0, 11_1, and for d3d12 also 12_0, 12_1 or 12_2 [default: 11_0, 10_1 for d3d10.1, 10_0 for d3d10]
    #[arg(long, value_name = "LEVEL")]
    pub feature_level: Option<FeatureLevel>,
    /// D3D12 only: the pipeline state's IBStripCutValue: disabled, 0xffff or 0xffffffff (or
    /// the enum value 0, 1, 2) [default: disabled]
    #[arg(long, value_name = "VALUE", value_parser = parse_strip_cut)]
    pub strip_cut: Option<u32>,
    /// D3D12 only: the pipeline state's PrimitiveTopologyType: point, line, triangle, patch,
    /// undefined (or the enum value) [default: the draw's topology's type, triangle without a
    /// draw]
    #[arg(long, value_name = "TYPE", value_parser = parse_topology_type)]
    pub topology_type: Option<u32>,
    /// D3D12 only: the root signature's D3D12_ROOT_SIGNATURE_FLAGS (decimal or 0x hex)
    /// [default: 0x1, ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT]
    #[arg(long, value_name = "FLAGS", value_parser = parse_u32)]
    pub root_signature_flags: Option<u32>,
}

fn parse_u32(s: &str) -> Result<u32, String> {
    let t = s.trim();
    let r = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => u32::from_str_radix(h, 16),
        None => t.parse(),
    };
    r.map_err(|_| format!("`{s}` is not a 32-bit number (decimal or 0x hex)"))
}

fn parse_strip_cut(s: &str) -> Result<u32, String> {
    match s.trim().to_ascii_lowercase().as_str() {
        "disabled" | "none" => Ok(0),
        "0xffff" => Ok(1),
        "0xffffffff" => Ok(2),
        other => other.parse().map_err(|_| {
            format!("`{s}` is not a strip cut (disabled, 0xffff, 0xffffffff, or 0, 1, 2)")
        }),
    }
}

fn parse_topology_type(s: &str) -> Result<u32, String> {
    match inlay::layout::TopologyType::from_name(s.trim()) {
        Some(t) => Ok(t.d3d12_value()),
        None => s.trim().parse().map_err(|_| {
            format!("`{s}` is not a topology type (point, line, triangle, patch, undefined)")
        }),
    }
}

impl TargetArgs {
    /// The target these arguments name; a pair no device has (`--api d3d10 --feature-level
    /// 11_0`) is a usage error. Without `--feature-level`, the runtime's usual level: 11_0
    /// for D3D11 and D3D12, its highest (10_1, 10_0) for D3D10.1 and D3D10. The D3D12
    /// pipeline fields without `--api d3d12` are a usage error too.
    pub fn target(&self) -> Result<Target, CliError> {
        use inlay::target::Api as A;
        let level = self.feature_level.unwrap_or(match self.api {
            A::D3D11 | A::D3D12 => self.api.default_feature_level(),
            api => api.feature_levels()[api.feature_levels().len() - 1],
        });
        if !self.api.is_d3d12()
            && (self.strip_cut.is_some()
                || self.topology_type.is_some()
                || self.root_signature_flags.is_some())
        {
            return Err(CliError::usage(format!(
                "--strip-cut, --topology-type and --root-signature-flags are D3D12 pipeline-state \
                 fields; they need --api d3d12 (got --api {})",
                self.api
            )));
        }
        Target::checked(self.api, level).map_err(|e| CliError::usage(e.to_string()))
    }

    /// The D3D12 pipeline-state fields given, for a mesh (`inlay export`, `inlay view`): the
    /// topology type defaults to the draw's, which the mesh builder reads from the capture.
    pub fn mesh_pipeline(&self) -> inlay::mesh::MeshPipeline {
        inlay::mesh::MeshPipeline {
            ib_strip_cut_value: self.strip_cut.unwrap_or_default(),
            primitive_topology_type: self.topology_type,
            root_signature_flags: self.root_signature_flags,
        }
    }

    /// The D3D12 pipeline-state fields given (defaults for the others), with the topology
    /// type `draw_type` when `--topology-type` is absent.
    pub fn pipeline(&self, draw_type: Option<inlay::layout::TopologyType>) -> inlay::PipelineDesc {
        let d = inlay::PipelineDesc::default();
        inlay::PipelineDesc {
            root_signature_flags: self.root_signature_flags.unwrap_or(d.root_signature_flags),
            ib_strip_cut_value: self.strip_cut.unwrap_or(d.ib_strip_cut_value),
            primitive_topology_type: self
                .topology_type
                .or(draw_type.map(|t| t.d3d12_value()))
                .unwrap_or(d.primitive_topology_type),
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    style::set_choice(cli.global.color);
    if let Some(n) = cli.global.max_input_size {
        source::set_max_input_size(n);
    }
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let result = match cli.command {
        None | Some(Command::Demo) => demo::run(&mut out),
        Some(Command::Check(a)) => check::run(&a, &mut out),
        Some(Command::Shader(a)) => shader::run_shader(&a, &mut out),
        Some(Command::Signature(a)) => shader::run_signature(&a, &mut out),
        Some(Command::Map(a)) => map::run(&a, &mut out),
        Some(Command::Decode(a)) => decode::run(&a, &mut out),
        Some(Command::Encode(a)) => encode::run(&a, &mut out),
        Some(Command::Repack(a)) => repack::run(&a, &mut out),
        Some(Command::Export(a)) => export::run(&a, &mut out),
        Some(Command::Frame(a)) => frame::run(&a, &mut out),
        Some(Command::Diff(a)) => diff::run(&a, &mut out),
        Some(Command::Import(a)) => import::run(&a, &mut out),
        Some(Command::Lower(a)) => lower::run(&a, &mut out),
        Some(Command::Mod(a)) => modcmd::run(&a, &mut out),
        Some(Command::Conform(a)) => tools::run_conform(&a, &mut out),
        Some(Command::Bench(a)) => tools::run_bench(&a, &mut out),
        Some(Command::View(a)) => view::run(&a, &mut out),
    };
    let result = result.and_then(|code| out.flush().map(|_| code).map_err(CliError::stdout));
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            drop(out);
            if !e.message.is_empty() {
                eprint!("{}: {}", style::stderr().error("error"), e.message);
                if !e.message.ends_with('\n') {
                    eprintln!();
                }
            }
            ExitCode::from(e.code)
        }
    }
}
