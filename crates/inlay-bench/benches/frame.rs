//! Frame-analysis speed (`cargo bench -p inlay-bench --bench frame`): a generated 2 GB folder
//! of 5,000 draws indexed against reading the same files, and all its draws exported against
//! writing the same bytes; both ratios printed (see `inlay_bench::frame`).
//!
//! Environment: `INLAY_FRAME_BENCH_DIR` (default `target/frame-bench`), `INLAY_FRAME_BENCH_BYTES`
//! (default 2000000000), `INLAY_FRAME_BENCH_DRAWS` (default 5000), `INLAY_FRAME_BENCH_PAIRS`
//! (default 5), `INLAY_FRAME_BENCH_THREADS` (default every core).

use inlay_bench::frame::{FrameBenchOptions, run};

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    // `cargo test --benches` runs bench targets with `--bench` absent: do nothing there.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let dir = std::env::var_os("INLAY_FRAME_BENCH_DIR")
        .map(Into::into)
        .unwrap_or_else(|| {
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/frame-bench")
        });
    let o = FrameBenchOptions {
        dir,
        draws: env("INLAY_FRAME_BENCH_DRAWS", 5000) as u32,
        bytes: env("INLAY_FRAME_BENCH_BYTES", 2_000_000_000),
        threads: env("INLAY_FRAME_BENCH_THREADS", 0) as usize,
        pairs: env("INLAY_FRAME_BENCH_PAIRS", 5) as usize,
    };
    match run(&o) {
        Ok(r) => print!("{r}"),
        Err(e) => {
            eprintln!("frame bench: {e}");
            std::process::exit(2);
        }
    }
}
