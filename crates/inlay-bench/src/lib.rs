//! The inlay benchmark harness (`inlay bench`): each workload's kernel measured against the
//! true memory roof of the same bytes, in the same process, on a machine that may be shared.
//!
//! # Method
//!
//! * Every workload ([`Workload`]) names the bytes its kernel reads and writes per vertex.
//!   The roof ([`roof::roof`]) moves exactly those bytes and does nothing else: one pass,
//!   32-byte loads, 32-byte non-temporal stores in blocks of 64 vertices, every input byte
//!   read once and every output byte written once, the next block's input prefetched (as the
//!   decode kernels prefetch a range's input: without it a prefetching kernel outran the
//!   "roof" on the 16-core Xeon by up to 1.23×). It is checked against `memcpy` of the
//!   output bytes in the same run (`roof_vs_memcpy`, bytes moved per second, ≥ 1 when the
//!   roof is a true one).
//! * Output buffers are 64-byte aligned ([`AlignedBytes`]), for the kernel and the roof alike.
//! * Paired runs: each timed kernel run is paired with a timed roof run right before or after
//!   it (the order alternates), so both see the same machine state; the figure of merit is
//!   the **median of the paired ratios** `roof time ÷ kernel time`.
//! * A run during which the process was descheduled — process CPU time below
//!   [`DESCHEDULED`] of wall time × threads (at most the CPUs available) — drops its pair; the
//!   report says how many were dropped, and more pairs are taken (up to three times the number
//!   asked for) so that the median rests on the number asked for where possible.
//!   `ratio_cpu` is the same median over every pair with process CPU time in place of wall
//!   time, a cross-check when a busy machine leaves few pairs. [`Options::parts`] can cut a
//!   pass into parts timed and paired one by one (shorter runs; default: whole passes).
//! * One warm-up run of each kernel first (page faults, caches, code).
//!
//! # Adding a workload
//!
//! Implement [`Workload`] (see `fetch.rs` for the decode workloads: a struct holding its input
//! and what its roof reads, `run` doing the kernel over a range of vertices into the output)
//! and add its constructor to [`workloads`]; the roof, the pairing, the JSON and the table come
//! with it.
#![deny(unsafe_code)]

use std::ops::Range;
use std::time::{Duration, Instant};

use inlay::fetch::Isa;
use serde::Serialize;

pub mod encode;
pub mod fetch;
pub mod frame;
pub mod roof;
pub mod sys;

/// A run is descheduled when its process CPU time is below this fraction of wall time × the
/// threads it ran (one thread), or [`DESCHEDULED_PARALLEL`] of it (several threads, whose
/// start-up and uneven ends already cost some).
pub const DESCHEDULED: f64 = 0.9;
/// [`DESCHEDULED`] for runs of more than one thread.
pub const DESCHEDULED_PARALLEL: f64 = 0.8;

/// What to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Vertices per workload (W3 rounds to whole strips and instances; default 1,000,000).
    pub vertices: u32,
    /// Threads each kernel and its roof are split over (default 1).
    pub threads: usize,
    /// Paired runs to keep per workload (default 15).
    pub pairs: usize,
    /// Parts each pass is timed in (0 or 1: whole passes; more cuts a pass into parts timed
    /// and paired separately, shorter runs that a busy machine interrupts less often).
    pub parts: usize,
    /// Kernels to use (default: the best this CPU has, [`Isa::detect`]); clamped to what the
    /// CPU supports.
    pub isa: Option<Isa>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            vertices: 1_000_000,
            threads: 1,
            pairs: 15,
            parts: 0,
            isa: None,
        }
    }
}

impl Options {
    /// Parts a pass is timed in: `parts`, at least 1.
    pub fn parts(&self) -> usize {
        match self.parts {
            0 => 1,
            p => p,
        }
    }

    /// The instruction set the kernels use: `isa` when this CPU has it, else portable.
    pub fn isa(&self) -> Isa {
        match self.isa {
            Some(i) if i.is_supported() => i,
            Some(_) => Isa::Portable,
            None => Isa::detect(),
        }
    }
}

/// A benchmarked kernel: one whole pass over its vertices, plus what its memory roof moves.
pub trait Workload: Sync {
    /// Short name (`"W1"`).
    fn name(&self) -> &str;
    /// What it is (`"float mesh"`).
    fn description(&self) -> &str;
    /// Vertices one pass handles.
    fn vertices(&self) -> usize;
    /// Bytes per vertex the roof reads (what the kernel must read from memory).
    fn input_bytes_per_vertex(&self) -> usize;
    /// Bytes per vertex the kernel (and the roof) writes.
    fn output_bytes_per_vertex(&self) -> usize;
    /// The bytes the roof reads: `vertices() · input_bytes_per_vertex()` of them.
    fn roof_input(&self) -> &[u8];
    /// The vertices of part `k` of a pass cut into `parts` parts (`k < parts`): consecutive,
    /// together every vertex once, each starting at a multiple of [`roof::BLOCK`] so that its
    /// output stays 64-byte aligned. The default cuts equal shares of whole blocks.
    fn part(&self, k: usize, parts: usize) -> Range<usize> {
        let blocks = self.vertices().div_ceil(roof::BLOCK);
        let at = |k: usize| (k * blocks / parts * roof::BLOCK).min(self.vertices());
        at(k)..at(k + 1)
    }
    /// The kernel over `vertices` (a range [`Workload::part`] gave, or all of them) with
    /// `threads` threads, into `out`: those vertices' output bytes
    /// (`vertices.len() · output_bytes_per_vertex()`, 64-byte aligned).
    fn run(&self, threads: usize, vertices: Range<usize>, out: &mut [u8]);
}

/// The workloads `inlay bench` runs, in report order.
pub fn workloads(opts: &Options) -> Vec<Box<dyn Workload>> {
    let isa = opts.isa();
    vec![
        Box::new(fetch::MeshDecode::w1(opts.vertices, isa)),
        Box::new(fetch::MeshDecode::w2(opts.vertices, isa)),
        Box::new(fetch::StripDecode::w3(opts.vertices)),
        Box::new(encode::MeshEncode::w1(opts.vertices, isa)),
        Box::new(encode::MeshEncode::w2(opts.vertices, isa)),
    ]
}

/// A zeroed byte buffer whose start is 64-byte aligned.
pub struct AlignedBytes {
    lines: Vec<Line>,
    len: usize,
}

/// One 64-byte line.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Line([u8; 64]);

#[allow(unsafe_code)]
impl AlignedBytes {
    /// `len` zero bytes.
    pub fn zeroed(len: usize) -> AlignedBytes {
        AlignedBytes {
            lines: vec![Line([0; 64]); len.div_ceil(64)],
            len,
        }
    }

    /// The bytes.
    pub fn as_slice(&self) -> &[u8] {
        // SAFETY: `Line` is `repr(C)` around one `[u8; 64]` and 64 bytes long (no padding), so
        // the vector's `lines.len()` lines are `64·lines.len() ≥ len` initialised bytes.
        unsafe { std::slice::from_raw_parts(self.lines.as_ptr().cast::<u8>(), self.len) }
    }

    /// The bytes, writable.
    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        // SAFETY: as in `as_slice`; the borrow of `self.lines` is exclusive for the result's
        // lifetime, and every bit pattern is a valid `Line`.
        unsafe { std::slice::from_raw_parts_mut(self.lines.as_mut_ptr().cast::<u8>(), self.len) }
    }
}

/// One timed run: wall time and process CPU time.
#[derive(Clone, Copy, Debug)]
struct Timed {
    wall: Duration,
    cpu: Option<Duration>,
}

impl Timed {
    fn of(f: impl FnOnce()) -> Timed {
        let c0 = sys::process_cpu_time();
        let t = Instant::now();
        f();
        let wall = t.elapsed();
        let cpu = sys::process_cpu_time()
            .zip(c0)
            .map(|(c1, c0)| c1.saturating_sub(c0));
        Timed { wall, cpu }
    }

    /// Whether the process lost its CPU(s) for a noticeable part of the run.
    fn descheduled(&self, threads: usize) -> bool {
        let Some(cpu) = self.cpu else { return false };
        let (limit, busy) = if threads <= 1 {
            (DESCHEDULED, 1)
        } else {
            (DESCHEDULED_PARALLEL, threads.min(sys::cpus()))
        };
        cpu.as_secs_f64() < limit * self.wall.as_secs_f64() * busy as f64
    }
}

/// One workload's figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WorkloadReport {
    /// `"W1"`, …
    pub name: String,
    /// `"float mesh"`, …
    pub description: String,
    /// Vertices per pass.
    pub vertices: usize,
    /// Parts each pass was timed in (each pair times one part).
    pub parts: usize,
    /// Bytes read per vertex (what the roof reads).
    pub input_bytes_per_vertex: usize,
    /// Bytes written per vertex.
    pub output_bytes_per_vertex: usize,
    /// Kernel throughput, millions of vertices per second (median of the kept runs).
    pub mvert_per_s: f64,
    /// Roof throughput, millions of vertices per second (median of the kept runs).
    pub roof_mvert_per_s: f64,
    /// Median of the paired ratios roof time ÷ kernel time (1.0 = at the memory roof).
    pub ratio: f64,
    /// Smallest kept paired ratio.
    pub ratio_min: f64,
    /// Largest kept paired ratio.
    pub ratio_max: f64,
    /// What `ratio` and the throughputs rest on: `"wall"` (the kept pairs' wall times) or, when
    /// every pair was dropped, `"cpu"` (every pair's process CPU times).
    pub ratio_source: &'static str,
    /// Median over every pair, the dropped ones too, of roof CPU time ÷ kernel CPU time
    /// (process CPU time does not run while the process is descheduled; 0 where the clock is
    /// not available) — a cross-check of `ratio` on a machine too busy to keep many pairs.
    pub ratio_cpu: f64,
    /// Every kept paired ratio, in run order.
    pub ratios: Vec<f64>,
    /// Pairs kept (with `ratio_source` `"cpu"`: the pairs whose CPU times were used).
    pub pairs: usize,
    /// Pairs dropped because a run of theirs was descheduled.
    pub dropped: usize,
    /// Roof bandwidth, input plus output bytes per second, in GB/s (median).
    pub roof_gb_per_s: f64,
    /// `memcpy` of the output bytes of each part (after its pair), read plus written bytes per
    /// second, in GB/s (median).
    pub memcpy_gb_per_s: f64,
    /// `roof_gb_per_s ÷ memcpy_gb_per_s`.
    pub roof_vs_memcpy: f64,
}

/// Everything [`run`] measured.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// Per-workload figures.
    pub workloads: Vec<WorkloadReport>,
    /// Vertices asked for per workload.
    pub vertices: u32,
    /// Threads per kernel.
    pub threads: usize,
    /// Pairs asked for per workload.
    pub pairs: usize,
    /// Kernel instruction set (`"avx2"`, `"avx512"`, `"portable"`).
    pub isa: String,
    /// CPU model name from `/proc/cpuinfo`, when readable.
    pub cpu: Option<String>,
    /// CPUs this process may run on.
    pub cpus: usize,
    /// `/proc/loadavg`'s 1-, 5- and 15-minute load averages when the run began, if readable.
    pub load_average: Option<[f64; 3]>,
    /// What a dropped pair means, for readers of the JSON.
    pub method: &'static str,
}

const METHOD: &str = "ratio = median over pairs of (roof time / kernel time), each kernel run \
paired with a roof run of the same bytes in the same process (one pass, 32-byte loads, 32-byte \
non-temporal stores, blocks of 64 vertices, the next block's input prefetched); output buffers \
64-byte aligned; a pair is dropped \
when a run's process CPU time is below 0.9 (one thread) or 0.8 (several) of wall time x threads; \
ratio_cpu = the same median over all pairs with process CPU time instead of wall time";

impl Report {
    /// The report as pretty-printed JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

impl std::fmt::Display for Report {
    /// A text table, one line per workload.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "inlay bench: {} thread(s), {} kernels, median of {} paired runs{}{}",
            self.threads,
            self.isa,
            self.pairs,
            self.cpu
                .as_deref()
                .map(|c| format!(", {c}"))
                .unwrap_or_default(),
            self.load_average
                .map(|l| format!(", load {:.2}", l[0]))
                .unwrap_or_default()
        )?;
        writeln!(
            f,
            "{:<4} {:<14} {:>9} {:>8} {:>11} {:>9} {:>6} {:>11} {:>7} {:>5} {:>8}",
            "",
            "workload",
            "vertices",
            "B in/out",
            "kernel Mv/s",
            "roof Mv/s",
            "ratio",
            "(min-max)",
            "dropped",
            "cpu",
            "roof/mcp"
        )?;
        for w in &self.workloads {
            writeln!(
                f,
                "{:<4} {:<14} {:>9} {:>3}/{:<4} {:>11.1} {:>9.1} {:>6.2} {:>5.2}-{:<5.2} {:>3}/{:<3} {:>5.2} {:>8.2}",
                w.name,
                w.description,
                w.vertices,
                w.input_bytes_per_vertex,
                w.output_bytes_per_vertex,
                w.mvert_per_s,
                w.roof_mvert_per_s,
                w.ratio,
                w.ratio_min,
                w.ratio_max,
                w.dropped,
                if w.ratio_source == "cpu" {
                    w.pairs
                } else {
                    w.dropped + w.pairs
                },
                w.ratio_cpu,
                w.roof_vs_memcpy
            )?;
        }
        let cpu: Vec<&str> = self
            .workloads
            .iter()
            .filter(|w| w.ratio_source == "cpu")
            .map(|w| w.name.as_str())
            .collect();
        if !cpu.is_empty() {
            writeln!(
                f,
                "every pair of {} was descheduled: its figures come from CPU times",
                cpu.join(", ")
            )?;
        }
        Ok(())
    }
}

/// Runs every workload of [`workloads`] (see the crate comment for the method).
pub fn run(opts: &Options) -> Report {
    let load_average = sys::load_average();
    let reports = workloads(opts)
        .iter()
        .map(|w| measure(w.as_ref(), opts))
        .collect();
    Report {
        workloads: reports,
        vertices: opts.vertices,
        threads: opts.threads.max(1),
        pairs: opts.pairs.max(1),
        isa: opts.isa().as_str().to_string(),
        cpu: sys::cpu_model(),
        cpus: sys::cpus(),
        load_average,
        method: METHOD,
    }
}

/// Paired runs of one workload and its roof.
pub fn measure(w: &dyn Workload, opts: &Options) -> WorkloadReport {
    let threads = opts.threads.max(1);
    let want = opts.pairs.max(1);
    let parts = opts
        .parts()
        .clamp(1, w.vertices().div_ceil(roof::BLOCK).max(1));
    let n = w.vertices();
    let (ib, ob) = (w.input_bytes_per_vertex(), w.output_bytes_per_vertex());
    let mut out = AlignedBytes::zeroed(n * ob);
    let copy_src = AlignedBytes::zeroed(n * ob);
    let kernel = |out: &mut AlignedBytes, r: Range<usize>| {
        let o = &mut out.as_mut_slice()[r.start * ob..r.end * ob];
        Timed::of(|| w.run(threads, r, o))
    };
    let roof_run = |out: &mut AlignedBytes, r: Range<usize>| {
        let (input, o) = (
            &w.roof_input()[r.start * ib..],
            &mut out.as_mut_slice()[r.start * ob..],
        );
        Timed::of(|| {
            split(r.len(), ob, threads, o, |v0, m, o| {
                roof::roof(&input[v0 * ib..], ib, o, ob, m)
            })
        })
    };
    let memcpy_run = |out: &mut AlignedBytes, r: Range<usize>| {
        let (src, o) = (
            &copy_src.as_slice()[r.start * ob..r.end * ob],
            &mut out.as_mut_slice()[r.start * ob..r.end * ob],
        );
        Timed::of(|| {
            split(r.len(), ob, threads, o, |v0, m, o| {
                roof::memcpy(&src[v0 * ob..(v0 + m) * ob], o)
            })
        })
    };
    // Warm-up: a whole pass of each.
    kernel(&mut out, 0..n);
    roof_run(&mut out, 0..n);
    memcpy_run(&mut out, 0..n);
    let secs = |d: Duration| d.as_secs_f64().max(1e-12);
    let (mut kept, mut dropped, mut copies) = (Vec::new(), 0, Vec::new());
    let (mut cpu_ratios, mut cpu_pairs, mut copies_cpu) = (Vec::new(), Vec::new(), Vec::new());
    for attempt in 0..3 * want {
        if kept.len() >= want {
            break;
        }
        // Parts in pass order; the order inside a pair alternates every pass.
        let k = attempt % parts;
        let r = w.part(k, parts);
        let m = r.len();
        let (tk, tr) = if (attempt / parts).is_multiple_of(2) {
            let tk = kernel(&mut out, r.clone());
            (tk, roof_run(&mut out, r.clone()))
        } else {
            let tr = roof_run(&mut out, r.clone());
            (kernel(&mut out, r.clone()), tr)
        };
        if m == 0 {
            continue;
        }
        let c = memcpy_run(&mut out, r);
        if !c.descheduled(threads) {
            copies.push(2.0 * (m * ob) as f64 / secs(c.wall) / 1e9);
        }
        if let Some(cc) = c.cpu {
            copies_cpu.push(2.0 * (m * ob) as f64 / secs(cc) / 1e9);
        }
        if let (Some(ck), Some(cr)) = (tk.cpu, tr.cpu) {
            cpu_ratios.push(secs(cr) / secs(ck));
            cpu_pairs.push((m, ck, cr));
        }
        if tk.descheduled(threads) || tr.descheduled(threads) {
            dropped += 1;
        } else {
            kept.push((m, tk.wall, tr.wall));
        }
    }
    // Every pair disturbed: the ratios come from the CPU times of all pairs (`ratio_source`
    // says so), the throughputs from them too.
    let source = if kept.is_empty() && !cpu_pairs.is_empty() {
        kept = cpu_pairs;
        "cpu"
    } else {
        if kept.is_empty() {
            let tk = kernel(&mut out, 0..n);
            kept.push((n, tk.wall, roof_run(&mut out, 0..n).wall));
        }
        "wall"
    };
    if copies.is_empty() {
        copies = copies_cpu;
    }
    if copies.is_empty() {
        copies.push(2.0 * (n * ob) as f64 / secs(memcpy_run(&mut out, 0..n).wall) / 1e9);
    }
    let ratios: Vec<f64> = kept.iter().map(|&(_, k, r)| secs(r) / secs(k)).collect();
    let kernel_mv = median(
        &kept
            .iter()
            .map(|&(m, k, _)| m as f64 / secs(k) / 1e6)
            .collect::<Vec<_>>(),
    );
    let roof_mv = median(
        &kept
            .iter()
            .map(|&(m, _, r)| m as f64 / secs(r) / 1e6)
            .collect::<Vec<_>>(),
    );
    let roof_gb = roof_mv * 1e6 * (ib + ob) as f64 / 1e9;
    let memcpy_gb = median(&copies);
    WorkloadReport {
        name: w.name().to_string(),
        description: w.description().to_string(),
        vertices: n,
        parts,
        input_bytes_per_vertex: ib,
        output_bytes_per_vertex: ob,
        mvert_per_s: kernel_mv,
        roof_mvert_per_s: roof_mv,
        ratio: median(&ratios),
        ratio_min: ratios.iter().copied().fold(f64::INFINITY, f64::min),
        ratio_max: ratios.iter().copied().fold(0.0, f64::max),
        ratio_cpu: median(&cpu_ratios),
        ratio_source: source,
        pairs: ratios.len(),
        ratios,
        dropped,
        roof_gb_per_s: roof_gb,
        memcpy_gb_per_s: memcpy_gb,
        roof_vs_memcpy: roof_gb / memcpy_gb,
    }
}

/// Runs `f(first_vertex, vertex_count, output_bytes)` over `threads` contiguous shares of
/// whole roof blocks (so every share's output stays 64-byte aligned).
pub fn split<F>(vertices: usize, out_bpv: usize, threads: usize, out: &mut [u8], f: F)
where
    F: Fn(usize, usize, &mut [u8]) + Sync,
{
    let threads = threads.clamp(1, vertices.div_ceil(roof::BLOCK).max(1));
    if threads == 1 {
        return f(0, vertices, &mut out[..vertices * out_bpv]);
    }
    let share = vertices.div_ceil(threads).next_multiple_of(roof::BLOCK);
    std::thread::scope(|s| {
        let mut rest = &mut out[..vertices * out_bpv];
        let mut start = 0;
        while start < vertices {
            let m = share.min(vertices - start);
            let (mine, tail) = rest.split_at_mut(m * out_bpv);
            rest = tail;
            let f = &f;
            s.spawn(move || f(start, m, mine));
            start += m;
        }
    });
}

fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aligned_bytes_start_on_a_line() {
        for len in [0, 1, 63, 64, 65, 1000] {
            let mut b = AlignedBytes::zeroed(len);
            assert_eq!(b.as_slice().len(), len);
            assert_eq!(b.as_mut_slice().as_ptr().align_offset(64), 0);
            assert!(b.as_slice().iter().all(|&x| x == 0));
        }
    }

    #[test]
    fn median_of_even_and_odd_counts() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
    }

    #[test]
    fn a_run_with_little_cpu_time_is_descheduled() {
        let t = |wall_ms, cpu_ms| Timed {
            wall: Duration::from_millis(wall_ms),
            cpu: Some(Duration::from_millis(cpu_ms)),
        };
        assert!(!t(100, 95).descheduled(1));
        assert!(t(100, 80).descheduled(1));
        assert!(
            !Timed {
                wall: Duration::from_millis(100),
                cpu: None
            }
            .descheduled(1)
        );
        // Several threads: wall × min(threads, CPUs) is what they could have used.
        let busy = 4.min(sys::cpus()) as u64;
        assert!(!t(100, 90 * busy).descheduled(4));
        assert!(t(100, 50 * busy).descheduled(4));
    }

    #[test]
    fn split_shares_cover_the_output_in_whole_blocks() {
        let mut out = vec![0u8; 1000 * 4];
        let seen = std::sync::Mutex::new(Vec::new());
        split(1000, 4, 3, &mut out, |v0, m, o| {
            assert_eq!(o.len(), m * 4);
            o.fill(1);
            seen.lock().unwrap().push((v0, m));
        });
        let mut seen = seen.into_inner().unwrap();
        seen.sort();
        assert_eq!(seen, [(0, 384), (384, 384), (768, 232)]);
        assert!(out.iter().all(|&b| b == 1));
    }

    #[test]
    fn tiny_run_reports_every_workload_with_paired_ratios() {
        let r = run(&Options {
            vertices: 5000,
            threads: 2,
            pairs: 3,
            parts: 2,
            isa: None,
        });
        let names: Vec<&str> = r.workloads.iter().map(|w| w.name.as_str()).collect();
        assert_eq!(names, ["W1", "W2", "W3", "W1e", "W2e"]);
        for w in &r.workloads {
            // Three kept pairs, or all nine attempts made, or none kept and one reported.
            let (p, d) = (w.pairs, w.dropped);
            assert!(
                (p == 3 && d <= 6) || p + d == 9 || (w.ratio_source == "cpu" && (p, d) == (9, 9)),
                "{}: {p} kept, {d} dropped",
                w.name
            );
            assert_eq!(w.ratios.len(), w.pairs, "{}", w.name);
            assert!(w.ratio > 0.0 && w.mvert_per_s > 0.0 && w.roof_vs_memcpy > 0.0);
            assert!(
                w.ratio_min <= w.ratio && w.ratio <= w.ratio_max,
                "{}",
                w.name
            );
        }
        let json: serde_json::Value = serde_json::from_str(&r.to_json()).unwrap();
        assert_eq!(json["workloads"][1]["output_bytes_per_vertex"], 96);
        assert_eq!(json["workloads"][0]["input_bytes_per_vertex"], 48);
    }
}
