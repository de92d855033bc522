//! Runs the benchmark with a chosen instruction set: `cargo run --release -p inlay-bench
//! --example fetch_bench -- [--json] [--vertices N] [--threads N] [--pairs N]
//! [--parts N] [--isa avx2|avx512|portable]` (`inlay bench` runs the same with the default kernels).

use inlay::fetch::Isa;
use inlay_bench::{Options, run};

fn main() {
    let mut opts = Options::default();
    let mut json = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut num = |name: &str| -> u64 {
            args.next()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{name} needs a number"))
        };
        match a.as_str() {
            "--json" => json = true,
            "--isa" => {
                opts.isa = Some(match args.next().as_deref() {
                    Some("avx512") => Isa::Avx512,
                    Some("avx2") => Isa::Avx2,
                    Some("portable") => Isa::Portable,
                    other => panic!("--isa takes avx512, avx2 or portable, not {other:?}"),
                })
            }
            "--vertices" => opts.vertices = num("--vertices") as u32,
            "--threads" => opts.threads = num("--threads") as usize,
            "--pairs" => opts.pairs = num("--pairs") as usize,
            "--parts" => opts.parts = num("--parts") as usize,
            other => panic!("unknown argument {other}"),
        }
    }
    let report = run(&opts);
    if json {
        println!("{}", report.to_json());
    } else {
        print!("{report}");
    }
}
