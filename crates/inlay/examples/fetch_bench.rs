//! Runs the fast-fetch benchmark: `cargo run --release -p inlay --example fetch_bench --
//! [--json] [--vertices N] [--threads N] [--repeats N] [--portable]`.

use inlay::fetch::bench::{BenchOptions, run};

fn main() {
    let mut opts = BenchOptions::default();
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
            "--portable" => opts.portable = true,
            "--vertices" => opts.vertices = num("--vertices") as u32,
            "--threads" => opts.threads = num("--threads") as usize,
            "--repeats" => opts.repeats = num("--repeats") as usize,
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
