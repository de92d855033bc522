//! Fast-fetch criterion benchmarks (issue 8): the W1 and W2 decodes (`FetchPlan::
//! fetch_registers`, the default kernels of this CPU) and, on the same bytes, the memory-roof
//! kernels (`fetch::bench::roof`, normal and non-temporal stores), 1,000,000 vertices each,
//! throughput in vertices. `cargo bench -p inlay --bench fetch`.
//!
//! For the ratio decode ÷ roof measured in one process, use the example runner
//! (`cargo run --release -p inlay --example fetch_bench -- --json`).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use inlay::assembler::binding::VertexBufferBinding;
use inlay::fetch::bench::{roof, workloads};
use inlay::fetch::{FetchPlan, Instance, Vertices};

const VERTICES: u32 = 1_000_000;

fn fetch(c: &mut Criterion) {
    for w in workloads() {
        let data = w.make_data(VERTICES, 0x1a7 ^ w.stride as u64);
        let rows = w.layout.elements().len();
        let bindings = [Some(VertexBufferBinding {
            data: &data,
            stride: w.stride,
            offset: 0,
        })];
        let plan = FetchPlan::new(&w.layout, &bindings).expect("workload layout compiles");
        let mut out = vec![[0u32; 4]; VERTICES as usize * rows];
        let mut g = c.benchmark_group(format!("{} {}", w.name, w.description));
        g.throughput(Throughput::Elements(VERTICES as u64))
            .sample_size(20)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(6));
        g.bench_function(format!("decode ({})", plan.isa().as_str()), |b| {
            b.iter(|| {
                plan.fetch_registers(
                    Vertices::Range {
                        first: 0,
                        count: VERTICES,
                    },
                    Instance::default(),
                    black_box(&mut out),
                )
                .expect("output is large enough");
            })
        });
        for (name, nt) in [("roof", false), ("roof_nt", true)] {
            g.bench_function(name, |b| {
                b.iter(|| roof(black_box(&data), w.stride as usize, &mut out, rows, nt))
            });
        }
        g.finish();
    }
}

criterion_group!(benches, fetch);
criterion_main!(benches);
