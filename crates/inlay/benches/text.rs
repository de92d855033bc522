//! The C layout reader's cost against the number of arrays in a file (issue 18 item 3:
//! 100 000 arrays once took 242 s, because each array's line was counted from the start of
//! the file).
//!
//! `cargo bench -p inlay --bench text`. Paired rounds: each round times `c::arrays` on 5 000
//! and on 50 000 one-line arrays back to back, and prints the ratio of the two times. Linear
//! work gives about 10, the old quadratic work about 100; the goal is under 30. The median
//! of the rounds is the figure, so a round descheduled by another process does not count.

use std::hint::black_box;
use std::time::Instant;

use inlay::text::c;

#[path = "../tests/text_support/mod.rs"]
mod text_support;
use text_support::arrays;

fn seconds(src: &str, n: usize) -> f64 {
    let t = Instant::now();
    let list = black_box(c::arrays(black_box(src)));
    let e = t.elapsed().as_secs_f64();
    assert_eq!(list.len(), n);
    e
}

fn main() {
    let (n_small, n_large) = (5_000, 50_000);
    let (small, large) = (arrays(n_small), arrays(n_large));
    let mut ratios: Vec<f64> = (0..9)
        .map(|_| {
            let ts = seconds(&small, n_small);
            let tl = seconds(&large, n_large);
            tl / ts.max(1e-9)
        })
        .collect();
    ratios.sort_by(f64::total_cmp);
    let median = ratios[ratios.len() / 2];
    println!(
        "c::arrays, 10x the arrays: {median:.1}x the time (median of {} paired rounds; \
         linear ~10, quadratic ~100; goal < 30): {}",
        ratios.len(),
        if median < 30.0 { "met" } else { "NOT met" }
    );
}
