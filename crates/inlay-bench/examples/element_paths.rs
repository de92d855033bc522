//! The per-element fetch paths, which `inlay bench` does not reach (its workloads take the
//! fused register-file kernel): `FetchPlan::fetch_elements` (one four-lane column per element)
//! and `FetchPlan::fetch_element_rows` (packed rows at each element's width), over a range and
//! over an index list, with the W1 and W2 layouts. Prints each case's median and best
//! throughput of 15 runs; `.ci/bench-ab.sh elements` runs it for two revisions, interleaved.
//!
//! `cargo run --release -p inlay-bench --example element_paths [VERTICES]`

use inlay::buffer::VertexBufferBinding;
use inlay::fetch::{ElementRows, FetchPlan, Instance, StoreMode, Vertices};
use inlay_bench::fetch::{layout, make_data, w1_elements, w2_elements};
use std::time::Instant;

const REPEATS: usize = 15;

fn main() {
    let n: u32 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(500_000);
    for (name, elements, stride) in [("W1", w1_elements(), 48), ("W2", w2_elements(), 28)] {
        let layout = layout(&elements);
        let data = make_data(&layout, 0, stride, n, 7);
        let bindings = [Some(VertexBufferBinding {
            data: &data,
            stride,
            offset: 0,
        })];
        let plan = FetchPlan::new(&layout, &bindings)
            .expect("benchmark layouts compile")
            .with_store_mode(StoreMode::Normal);
        let widths: Vec<usize> = elements
            .iter()
            .map(|e| e.format.info().map_or(4, |i| i.component_count()))
            .collect();
        let mut columns: Vec<Vec<[u32; 4]>> = vec![vec![[0; 4]; n as usize]; widths.len()];
        let mut rows: Vec<Vec<u32>> = widths.iter().map(|&w| vec![0; w * n as usize]).collect();
        // Every vertex once, each block of 64 in reverse order.
        let indices: Vec<u32> = (0..n)
            .map(|i| ((i / 64) * 64 + 63 - i % 64).min(n - 1))
            .collect();
        for (case, indexed, packed) in [
            ("elements range", false, false),
            ("elements list", true, false),
            ("rows range", false, true),
            ("rows list", true, true),
        ] {
            let vertices = if indexed {
                Vertices::Indexed {
                    indices: &indices,
                    base_vertex: 0,
                }
            } else {
                Vertices::Range { first: 0, count: n }
            };
            let mut seconds = Vec::with_capacity(REPEATS);
            for _ in 0..REPEATS {
                let start = Instant::now();
                let done = if packed {
                    let mut outs: Vec<ElementRows> = rows
                        .iter_mut()
                        .zip(&widths)
                        .map(|(data, &lanes)| ElementRows { lanes, data })
                        .collect();
                    plan.fetch_element_rows(vertices, Instance::default(), &mut outs)
                } else {
                    let mut outs: Vec<&mut [[u32; 4]]> =
                        columns.iter_mut().map(|c| &mut c[..]).collect();
                    plan.fetch_elements(vertices, Instance::default(), &mut outs)
                };
                done.expect("the outputs fit");
                seconds.push(start.elapsed().as_secs_f64());
            }
            seconds.sort_by(f64::total_cmp);
            let rate = |s: f64| n as f64 / s / 1e6;
            println!(
                "{name} {case}: {:.1} Mv/s (best {:.1})",
                rate(seconds[REPEATS / 2]),
                rate(seconds[0])
            );
        }
    }
}
