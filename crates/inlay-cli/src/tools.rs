//! `inlay conform` and `inlay bench`: thin wrappers over the `inlay-conform` crate and the
//! `inlay-bench` harness.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use inlay::fetch::Isa;

use crate::CliError;

/// Run conformance case files (schema inlay-conformance/1), or export them for a real D3D11
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  inlay conform conformance/
  inlay conform ../shared/conformance/examples/seed.json --json
  inlay conform conformance/ --export-runner runner-cases     # for conformance/runner (a real d3d11.dll)
  inlay conform conformance/ --import-report report.json      # the runner's report as a deviation table

Prints each failing case with its first difference, each skipped case with the reason, then \
`N passed, M failed[, K skipped]`. Cases naming corpus shaders find them through \
$INLAY_CORPUS (else the path the case gives). Exit status 1 when any case fails or a file is \
malformed.")]
pub struct ConformArgs {
    /// Case files, or folders searched recursively for *.json
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Print the report as JSON
    #[arg(long)]
    pub json: bool,
    /// Instead of running the cases, write them into DIR for the Windows runner
    /// (conformance/runner/README.md)
    #[arg(long, value_name = "DIR", conflicts_with_all = ["json", "import_report"])]
    pub export_runner: Option<PathBuf>,
    /// Instead of running the cases, read the runner's report and print the cases where the
    /// implementation it ran on deviates, with each case's evidence (Markdown)
    #[arg(long, value_name = "REPORT", conflicts_with = "json")]
    pub import_report: Option<PathBuf>,
    /// With --import-report: a report of an earlier run of the same implementation; exit 1
    /// when a case it ran (passed or deviating) no longer runs (unsupported, crashed, missing)
    #[arg(long, value_name = "REPORT", requires = "import_report")]
    pub baseline: Option<PathBuf>,
}

/// Runs `inlay conform`.
pub fn run_conform(args: &ConformArgs, mut out: &mut dyn Write) -> Result<u8, CliError> {
    // $INLAY_CORPUS locates the corpus shaders some cases name, as it does for the tests.
    let options = inlay_conform::RunOptions {
        corpus: std::env::var_os("INLAY_CORPUS").map(PathBuf::from),
    };
    if let Some(dir) = &args.export_runner {
        return export_runner(args, dir, &options, out);
    }
    if let Some(report) = &args.import_report {
        return import_report(args, report, out);
    }
    let report = inlay_conform::run_paths_with(&args.paths, &options);
    if args.json {
        writeln!(out, "{}", report.to_json()).map_err(CliError::stdout)?;
    } else {
        report.print_text(&mut out).map_err(CliError::stdout)?;
    }
    Ok(if report.success() { 0 } else { 1 })
}

/// `inlay conform --export-runner DIR`.
fn export_runner(
    args: &ConformArgs,
    dir: &std::path::Path,
    options: &inlay_conform::RunOptions,
    out: &mut dyn Write,
) -> Result<u8, CliError> {
    use inlay_conform::runner;
    let exported = runner::export_runner(&args.paths, dir, options)
        .map_err(|e| CliError::usage(with_causes(&e)))?;
    let mut text = String::new();
    for e in &exported.errors {
        text.push_str(&format!("error: {e}\n"));
    }
    for (id, why) in &exported.skipped {
        text.push_str(&format!("not exported: {id}: {why}\n"));
    }
    for (id, why) in &exported.unsupported {
        text.push_str(&format!("unsupported by the runner: {id}: {why}\n"));
    }
    text.push_str(&format!(
        "wrote {} ({} {}, {} with a draw, {} unsupported by the runner)\n",
        dir.join("cases.txt").display(),
        exported.cases,
        plural(exported.cases, "case", "cases"),
        exported.draws,
        exported.unsupported.len()
    ));
    out.write_all(text.as_bytes()).map_err(CliError::stdout)?;
    Ok(if exported.errors.is_empty() { 0 } else { 1 })
}

/// An error's message followed by its causes (`: cause`).
fn with_causes(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        s.push_str(&format!(": {c}"));
        cause = c.source();
    }
    s
}

fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}

/// `inlay conform --import-report REPORT [--baseline REPORT]`.
fn import_report(
    args: &ConformArgs,
    path: &std::path::Path,
    out: &mut dyn Write,
) -> Result<u8, CliError> {
    use inlay_conform::runner;
    let read =
        |p: &std::path::Path| runner::read_report(p).map_err(|e| CliError::usage(with_causes(&e)));
    let report = read(path)?;
    let dev = runner::deviations(&report, &args.paths);
    let mut text = String::new();
    for (k, v) in &report.device {
        text.push_str(&format!("{k}: {v}\n"));
    }
    text.push('\n');
    text.push_str(&dev.markdown());
    text.push('\n');
    let mut lost = Vec::new();
    if let Some(b) = &args.baseline {
        let base = read(b)?;
        let now: std::collections::BTreeMap<&str, &str> = report
            .cases
            .iter()
            .map(|c| (c.id.as_str(), c.status.as_str()))
            .collect();
        for c in &base.cases {
            let ran = |s: &str| s == "pass" || s == "fail";
            if ran(&c.status) && !now.get(c.id.as_str()).is_some_and(|s| ran(s)) {
                lost.push(format!(
                    "{}: ran in the baseline ({}), now {}",
                    c.id,
                    c.status,
                    now.get(c.id.as_str()).copied().unwrap_or("missing")
                ));
            }
        }
        for l in &lost {
            text.push_str(&format!("no longer runs: {l}\n"));
        }
    }
    text.push_str(&dev.summary());
    text.push('\n');
    out.write_all(text.as_bytes()).map_err(CliError::stdout)?;
    Ok(if lost.is_empty() { 0 } else { 1 })
}

/// Measure fast-fetch decode throughput against the memory roof
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  inlay bench
  inlay bench --vertices 100000 --json
  inlay bench --threads 4

Workloads W1 (float mesh, stride 48), W2 (packed mesh, stride 28) and W3 (indexed, instanced \
triangle strip with cuts). Each decode run is paired with a run of the true memory roof over the \
same bytes (one pass, 32-byte loads, 32-byte non-temporal stores); ratio = median of the paired \
ratios roof time / decode time. Pairs in which the process was descheduled are dropped and \
counted.")]
pub struct BenchArgs {
    /// Print the report as JSON
    #[arg(long)]
    pub json: bool,
    /// Vertices per workload
    #[arg(long, default_value_t = 1_000_000)]
    pub vertices: u32,
    /// Threads the vertex range is split over
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Paired runs per workload (the median of their ratios is reported)
    #[arg(long, default_value_t = 15)]
    pub repeats: usize,
    /// Use the portable kernels even where SIMD ones are available
    #[arg(long)]
    pub portable: bool,
    /// Instead: the frame-analysis benchmark in this folder (a frame generated there once,
    /// indexed against reading its files and exported against writing the same bytes)
    #[arg(long, value_name = "DIR")]
    pub frame: Option<PathBuf>,
    /// With --frame: draws of the generated frame
    #[arg(
        long = "frame-draws",
        value_name = "N",
        default_value_t = 5000,
        requires = "frame"
    )]
    pub frame_draws: u32,
    /// With --frame: bytes of the generated frame, e.g. 2G
    #[arg(long = "frame-bytes", value_name = "SIZE", default_value = "2000000000", value_parser = crate::source::parse_size, requires = "frame")]
    pub frame_bytes: u64,
}

/// Runs `inlay bench`.
pub fn run_bench(args: &BenchArgs, out: &mut dyn Write) -> Result<u8, CliError> {
    if let Some(dir) = &args.frame {
        let r = inlay_bench::frame::run(&inlay_bench::frame::FrameBenchOptions {
            dir: dir.clone(),
            draws: args.frame_draws.max(1),
            bytes: args.frame_bytes,
            threads: if args.threads == 1 { 0 } else { args.threads },
            pairs: if args.repeats == 15 { 5 } else { args.repeats },
        })
        .map_err(|e| {
            CliError::io(
                format!("cannot run the frame benchmark in {}", dir.display()),
                e,
            )
        })?;
        if args.json {
            writeln!(out, "{}", serde_json::to_string(&r).unwrap_or_default())
                .map_err(CliError::stdout)?;
        } else {
            write!(out, "{r}").map_err(CliError::stdout)?;
        }
        return Ok(0);
    }
    if args.vertices == 0 || args.threads == 0 || args.repeats == 0 {
        return Err(CliError::usage(
            "--vertices, --threads and --repeats must be at least 1",
        ));
    }
    let report = inlay_bench::run(&inlay_bench::Options {
        vertices: args.vertices,
        threads: args.threads,
        pairs: args.repeats,
        parts: 0,
        isa: args.portable.then_some(Isa::Portable),
    });
    if args.json {
        writeln!(out, "{}", report.to_json()).map_err(CliError::stdout)?;
    } else {
        write!(out, "{report}").map_err(CliError::stdout)?;
    }
    Ok(0)
}
