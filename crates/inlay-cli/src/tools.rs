//! `inlay conform` and `inlay bench`: thin wrappers over the `inlay-conform` crate and the
//! `inlay-bench` harness.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use inlay::fetch::Isa;

use crate::CliError;

/// Run conformance case files (schema inlay-conformance/1)
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  inlay conform conformance/
  inlay conform ../shared/conformance/examples/seed.json --json

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
}

/// Runs `inlay conform`.
pub fn run_conform(args: &ConformArgs, mut out: &mut dyn Write) -> Result<u8, CliError> {
    // $INLAY_CORPUS locates the corpus shaders some cases name, as it does for the tests.
    let options = inlay_conform::RunOptions {
        corpus: std::env::var_os("INLAY_CORPUS").map(PathBuf::from),
    };
    let report = inlay_conform::run_paths_with(&args.paths, &options);
    if args.json {
        writeln!(out, "{}", report.to_json()).map_err(CliError::stdout)?;
    } else {
        report.print_text(&mut out).map_err(CliError::stdout)?;
    }
    Ok(if report.success() { 0 } else { 1 })
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
}

/// Runs `inlay bench`.
pub fn run_bench(args: &BenchArgs, out: &mut dyn Write) -> Result<u8, CliError> {
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
