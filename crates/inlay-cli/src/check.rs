//! `inlay check`: what `CreateInputLayout` returns for a layout and a shader, and why.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use inlay::diag::{HResult, Severity};
use inlay::layout::InputLayout;
use inlay::target::Target;
use inlay::validation::Creation;
use serde_json::{Value, json};

use crate::source::{self, LayoutFile};
use crate::style::{self, Style};
use crate::{CliError, TargetArgs};

/// Check a layout against a vertex shader: the HRESULT and every debug-layer message
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  inlay check layout.h --shader vs.dxbc
  inlay check layouts.h --array vertexDesc --shader vs.dxbc --api d3d10 --json
  inlay check layout.toml --shader vs.dxbc --feature-level 9_3 --validate-only

Exit status: 0 when the layout is created (S_OK, or S_FALSE with --validate-only), 1 when \
Windows would refuse it (E_INVALIDARG), 2 for usage or I/O errors.")]
pub struct CheckArgs {
    /// Layout file: C/C++, C#, Rust, JSON, TOML, an importer .fmt or a 3DMigoto vb dump (`-`:
    /// standard input)
    pub layout: PathBuf,
    /// Compiled vertex shader or signature blob (DXBC). Without it only the element array's
    /// own rules are checked (signature matching is skipped)
    #[arg(long, value_name = "FILE.dxbc")]
    pub shader: Option<PathBuf>,
    #[command(flatten)]
    pub target: TargetArgs,
    /// Model a NULL ppInputLayout: validate only (success is S_FALSE)
    #[arg(long)]
    pub validate_only: bool,
    /// Which C array to use when the file has several
    #[arg(long, value_name = "NAME")]
    pub array: Option<String>,
    /// Print a JSON report instead of text
    #[arg(long)]
    pub json: bool,
}

/// Runs `inlay check`.
pub fn run(args: &CheckArgs, out: &mut dyn Write) -> Result<u8, CliError> {
    let err_style = style::stderr();
    let layout = LayoutFile::load(&args.layout, args.array.as_deref(), err_style)?;
    let target = args.target.target()?;
    let creation = create(
        &layout,
        args.shader.as_ref(),
        &target,
        args.target.pipeline(None),
        args.validate_only,
    )?;
    if args.json {
        let report = json_report(&layout, args, &target, &creation);
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&report).unwrap_or_default()
        )
        .map_err(CliError::stdout)?;
    } else {
        let style = style::stdout();
        let shader = match &args.shader {
            Some(p) => p.display().to_string(),
            None => "no shader (array rules only, signature matching skipped)".to_string(),
        };
        writeln!(
            out,
            "checking {} against {shader} on {}, feature level {}{}",
            layout.describe(),
            target.api,
            target.feature_level,
            if args.validate_only {
                ", validate only"
            } else {
                ""
            }
        )
        .map_err(CliError::stdout)?;
        if let Some(note) = d3d12_note(&layout, &target) {
            writeln!(out, "note: {note}").map_err(CliError::stdout)?;
        }
        write_diagnostics(out, &layout, &creation, style)?;
        write_result(out, &creation, style)?;
        if let Some(l) = &creation.layout {
            write!(out, "{}", layout_table(l)).map_err(CliError::stdout)?;
            if let Some(p) = l.pipeline() {
                writeln!(
                    out,
                    "  pipeline state: strip cut {}, topology type {}",
                    p.strip_cut.as_str(),
                    p.topology_type.as_str()
                )
                .map_err(CliError::stdout)?;
            }
        }
    }
    Ok(if creation.is_success() { 0 } else { 1 })
}

/// `CreateInputLayout` for a loaded layout, with the shader file's bytes (or the array rules
/// alone without a shader).
pub fn create(
    layout: &LayoutFile,
    shader: Option<&PathBuf>,
    target: &Target,
    pipeline: inlay::PipelineDesc,
    validate_only: bool,
) -> Result<Creation, CliError> {
    let call = inlay::CreateInputLayout::new(target, &layout.parsed.elements)
        .pipeline(pipeline)
        .validate_only(validate_only);
    Ok(match shader {
        Some(path) => call.bytecode(&source::read_binary_input(path)?),
        None => call.without_shader(),
    })
}

/// Every diagnostic, compiler-style.
pub fn write_diagnostics(
    out: &mut dyn Write,
    layout: &LayoutFile,
    creation: &Creation,
    style: Style,
) -> Result<(), CliError> {
    for d in &creation.diagnostics {
        let text = source::render_diagnostic(d, layout, &layout.parsed.spans, style);
        writeln!(out, "{text}").map_err(CliError::stdout)?;
    }
    Ok(())
}

/// The `result:` line.
pub fn write_result(
    out: &mut dyn Write,
    creation: &Creation,
    style: Style,
) -> Result<(), CliError> {
    let errors = creation.errors().count();
    let warnings = creation.warnings().count();
    let counts = match (errors, warnings) {
        (0, 0) => String::new(),
        (e, w) => format!(
            " ({e} error{}, {w} warning{})",
            if e == 1 { "" } else { "s" },
            if w == 1 { "" } else { "s" }
        ),
    };
    let h = creation.hresult;
    let verdict = match h {
        HResult::S_OK => style.ok("created"),
        HResult::S_FALSE => style.ok("valid (validate only: nothing created)"),
        _ => style.error("Windows refuses this layout"),
    };
    writeln!(
        out,
        "result: {} (0x{:08X}): {verdict}{counts}",
        style.bold(h.name()),
        h.code()
    )
    .map_err(CliError::stdout)
}

/// The resolved layout as a table: one line per element, then one per slot.
pub fn layout_table(l: &InputLayout) -> String {
    let mut s = format!(
        "  {:>2}  {:<16} {:<22} {:>4} {:>6}  {:<8} {:>4}  {}\n",
        "#", "element", "format", "slot", "offset", "class", "step", "register"
    );
    for (i, e) in l.elements().iter().enumerate() {
        s.push_str(&format!(
            "  {:>2}  {:<16} {:<22} {:>4} {:>6}  {:<8} {:>4}  {}\n",
            i,
            format!("{}{}", e.semantic_name, e.semantic_index),
            e.format.to_string(),
            e.slot,
            e.offset,
            e.class.as_str(),
            e.step_rate,
            e.register.map_or("-".to_string(), |r| format!("v{r}"))
        ));
    }
    for slot in l.slots() {
        s.push_str(&format!(
            "  slot {}: per-{}{}, elements cover {} bytes (smallest stride)\n",
            slot.slot,
            slot.class.as_str(),
            if slot.step_rate != 0 || slot.class == inlay::layout::InputClass::PerInstance {
                format!(", step rate {}", slot.step_rate)
            } else {
                String::new()
            },
            slot.min_stride
        ));
    }
    s
}

fn json_report(layout: &LayoutFile, args: &CheckArgs, target: &Target, c: &Creation) -> Value {
    let diagnostics: Vec<Value> = c
        .diagnostics
        .iter()
        .map(|d| {
            let (line, column) = match d.element.and_then(|i| layout.parsed.spans.get(i)) {
                Some(s) => {
                    let span = match source::field_of(d.id) {
                        Some(f) => s.field(f),
                        None => s.element,
                    };
                    let (l, c) = inlay::text::line_col(&layout.text, span.start);
                    (json!(l), json!(c))
                }
                None => (Value::Null, Value::Null),
            };
            json!({
                "id": d.id.0,
                "name": d.id.name(),
                "severity": d.severity.as_str(),
                "element": d.element,
                "message": d.message,
                "line": line,
                "column": column,
            })
        })
        .collect();
    let elements = c.layout.as_ref().map(|l| {
        l.elements()
            .iter()
            .map(|e| {
                json!({
                    "semantic": e.semantic_name,
                    "index": e.semantic_index,
                    "format": e.format.to_string(),
                    "slot": e.slot,
                    "offset": e.offset,
                    "class": e.class.as_str(),
                    "step_rate": e.step_rate,
                    "register": e.register,
                })
            })
            .collect::<Vec<_>>()
    });
    let slots = c.layout.as_ref().map(|l| {
        l.slots()
            .iter()
            .map(|s| {
                json!({
                    "slot": s.slot,
                    "class": s.class.as_str(),
                    "step_rate": s.step_rate,
                    "min_stride": s.min_stride,
                })
            })
            .collect::<Vec<_>>()
    });
    let mut report = json!({
        "layout": layout.path.display().to_string(),
        "array": layout.parsed.name,
        "shader": args.shader.as_ref().map(|p| p.display().to_string()),
        "api": target.api.as_str(),
        "feature_level": target.feature_level.as_str(),
        "validate_only": args.validate_only,
        "hresult": c.hresult.name(),
        "hresult_code": format!("0x{:08X}", c.hresult.code()),
        "errors": c.errors().count(),
        "warnings": c.warnings().filter(|d| d.severity == Severity::Warning).count(),
        "diagnostics": diagnostics,
        "elements": elements,
        "slots": slots,
    });
    if let Some(note) = d3d12_note(layout, target) {
        report["note"] = json!(note);
    }
    if let Some(p) = c.layout.as_ref().and_then(|l| l.pipeline()) {
        report["pipeline"] = json!({
            "strip_cut": p.strip_cut.as_str(),
            "topology_type": p.topology_type.as_str(),
        });
    }
    report
}

/// What to say when the array is a `D3D12_INPUT_ELEMENT_DESC` array checked under another
/// runtime's rules (the structure is the same, R38): `--api d3d12` gives D3D12's own.
pub fn d3d12_note(layout: &LayoutFile, target: &Target) -> Option<String> {
    (layout.parsed.is_d3d12() && !target.api.is_d3d12()).then(|| {
        format!(
            "a D3D12_INPUT_ELEMENT_DESC array, checked under {}'s CreateInputLayout rules; \
             --api d3d12 checks it as CreateGraphicsPipelineState does",
            target.api
        )
    })
}
