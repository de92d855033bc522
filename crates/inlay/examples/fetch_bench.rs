//! Runs the fast-fetch benchmark: `cargo run --release -p inlay --example fetch_bench --
//! [--json] [--vertices N] [--threads N] [--repeats N] [--portable | --isa avx2|avx512|portable]`.

use inlay::fetch::Isa;
use inlay::fetch::bench::{BenchOptions, run_with_isa};

fn main() {
    let mut opts = BenchOptions::default();
    let mut json = false;
    let mut isa = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut num = |name: &str| -> u64 {
            args.next()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{name} needs a number"))
        };
        match a.as_str() {
            "--json" => json = true,
            "--portable" => opts.portable = true,
            "--isa" => {
                isa = Some(match args.next().as_deref() {
                    Some("avx512") => Isa::Avx512,
                    Some("avx2") => Isa::Avx2,
                    Some("portable") => Isa::Portable,
                    other => panic!("--isa takes avx512, avx2 or portable, not {other:?}"),
                })
            }
            "--vertices" => opts.vertices = num("--vertices") as u32,
            "--threads" => opts.threads = num("--threads") as usize,
            "--repeats" => opts.repeats = num("--repeats") as usize,
            other => panic!("unknown argument {other}"),
        }
    }
    let isa = isa.unwrap_or(if opts.portable {
        Isa::Portable
    } else {
        Isa::detect()
    });
    let report = run_with_isa(&opts, isa);
    if json {
        println!("{}", report.to_json());
    } else {
        print!("{report}");
    }
}
