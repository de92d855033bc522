//! Fast-fetch criterion benchmarks: the W1, W2 and W3 decodes (the default kernels of this
//! CPU) and, on the same bytes, the true roof kernel (`inlay_bench::roof::roof`), 1,000,000
//! vertices each, throughput in vertices. `cargo bench -p inlay-bench --bench fetch`.
//!
//! For the paired ratio kernel ÷ roof measured in one process, run `inlay bench --json`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use inlay_bench::{AlignedBytes, Options, roof};

fn fetch(c: &mut Criterion) {
    let opts = Options::default();
    for w in inlay_bench::workloads(&opts) {
        let n = w.vertices();
        let (ib, ob) = (w.input_bytes_per_vertex(), w.output_bytes_per_vertex());
        let mut out = AlignedBytes::zeroed(n * ob);
        let mut g = c.benchmark_group(format!("{} {}", w.name(), w.description()));
        g.throughput(Throughput::Elements(n as u64))
            .sample_size(20)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(6));
        g.bench_function("decode", |b| {
            b.iter(|| w.run(1, 0..n, black_box(out.as_mut_slice())))
        });
        g.bench_function("roof", |b| {
            b.iter(|| roof::roof(black_box(w.roof_input()), ib, out.as_mut_slice(), ob, n))
        });
        g.finish();
    }
}

criterion_group!(benches, fetch);
criterion_main!(benches);
