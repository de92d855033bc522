//! `inlay shader` (what a DXBC container holds) and `inlay signature` (write a signature-only
//! blob from a JSON/TOML description).

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use inlay::dxbc::Container;
use inlay::dxbc::report::{ShaderReport, listing};
use inlay::text::{self, Syntax};

use crate::source;
use crate::style;
use crate::{CliError, output};

/// Show a DXBC container: stage, shader model, digest, chunks and signatures
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  inlay shader vs.dxbc
  inlay shader vs.dxbc --json

The listing prints each signature like fxc (Name, Index, Mask, Register, SysValue, Format, \
Used). --json uses the corpus records' field names (semantic_name, semantic_index, register, \
mask, used, system_value, component_type, min_precision). Exit status 2 when the file is not \
a readable container.")]
pub struct ShaderArgs {
    /// Compiled shader or signature blob (DXBC)
    pub shader: PathBuf,
    /// Print a JSON report instead of the listing
    #[arg(long)]
    pub json: bool,
}

/// Runs `inlay shader`.
pub fn run_shader(args: &ShaderArgs, out: &mut dyn Write) -> Result<u8, CliError> {
    let bytes = source::read_binary_input(&args.shader)?;
    let name = args.shader.display();
    let bad = |e: inlay::dxbc::DxbcError| CliError::usage(format!("{name}: {e}"));
    let container = Container::parse(&bytes).map_err(bad)?;
    let text = if args.json {
        let report = ShaderReport::new(&container).map_err(bad)?;
        serde_json::to_string_pretty(&report).unwrap_or_default() + "\n"
    } else {
        listing(&container).map_err(bad)?
    };
    out.write_all(text.as_bytes()).map_err(CliError::stdout)?;
    Ok(0)
}

/// Write a signature-only DXBC blob from a JSON or TOML signature description
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  inlay signature vs-inputs.json --out vs-inputs.dxbc
  inlay signature inputs.toml --out inputs.dxbc --force

The description lists SIGNATURE_ELEMENT objects (semantic, index, register, mask, used, type, \
sv), as a JSON array, {\"signature\": [...]}, or TOML [[signature]] tables:
  [{\"semantic\": \"POSITION\", \"index\": 0, \"register\": 0, \"mask\": \"xyz\", \"used\": \"xyz\",
    \"type\": \"float\", \"sv\": \"NONE\"}]
The blob holds one ISGN chunk with a valid checksum: what D3DGetInputSignatureBlob returns, \
and what CreateInputLayout accepts as bytecode. The file is written atomically, never onto \
the description, and replaces an existing file only with --force.")]
pub struct SignatureArgs {
    /// Signature description (JSON or TOML)
    pub description: PathBuf,
    /// Where to write the blob (`-`: standard output)
    #[arg(long, value_name = "FILE.dxbc")]
    pub out: PathBuf,
    /// Replace the output file if it exists
    #[arg(long)]
    pub force: bool,
}

/// Runs `inlay signature`.
pub fn run_signature(args: &SignatureArgs, out: &mut dyn Write) -> Result<u8, CliError> {
    output::check_destination(&args.out, &[&args.description], args.force)?;
    let bytes = source::read_text_input(&args.description)?;
    let text = String::from_utf8_lossy(&bytes);
    let name = args.description.display().to_string();
    let parsed = match Syntax::detect(&name, &text) {
        Syntax::Toml => text::toml::parse_signature(&text),
        _ => text::json::parse_signature(&text),
    };
    let signature = parsed.map_err(|e| {
        CliError::usage(source::render_text_error(&name, &text, &e, style::stderr()))
    })?;
    let blob = inlay::dxbc::signature_blob(&signature);
    // The status line goes to standard error, as for every file written (issue 17); `-` is
    // standard output (issue 35).
    let n = signature.elements.len();
    output::write_output(
        &args.out,
        &blob,
        out,
        &[&args.description],
        args.force,
        &format!(
            "{} bytes, {n} input element{}",
            blob.len(),
            if n == 1 { "" } else { "s" }
        ),
    )?;
    Ok(0)
}
