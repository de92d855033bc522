//! The fast-fetch benchmark: decode throughput measured against the memory roof in the same
//! process (issue "Fast fetch at the memory roof").
//!
//! Two workloads ([`workloads`]), slot 0, per-vertex, deterministic pseudo-random valid data:
//!
//! * **W1 "float mesh"**, stride 48: POSITION R32G32B32_FLOAT @0, NORMAL R32G32B32_FLOAT @12,
//!   TEXCOORD0 R32G32_FLOAT @24, TANGENT R32G32B32A32_FLOAT @32.
//! * **W2 "packed mesh"**, stride 28: POSITION R16G16B16A16_FLOAT @0, NORMAL
//!   R10G10B10A2_UNORM @8, TEXCOORD0 R16G16_UNORM @12, COLOR B8G8R8A8_UNORM @16,
//!   BLENDINDICES R8G8B8A8_UINT @20, BLENDWEIGHT R8G8B8A8_UNORM @24.
//!
//! For each workload three kernels run over the same vertices: the decode
//! ([`FetchPlan::fetch_registers`], 16 output bytes per element and vertex), and a memory-roof
//! kernel that reads the same input bytes and writes the same number of output bytes in one
//! streaming pass — once with normal stores, once with non-temporal stores (normal stores on
//! the portable path). Each is timed `repeats` times, interleaved, after one warm-up run; the
//! medians are reported as millions of vertices per second, with `ratio` = decode ÷ roof and
//! `ratio_nt` = decode ÷ non-temporal roof.

use std::time::{Duration, Instant};

use super::{FetchPlan, Instance, Isa, Vertices};
use crate::assembler::binding::VertexBufferBinding;
use crate::element::InputElementDesc;
use crate::format::{Format, Kind};
use crate::layout::InputLayout;
use crate::target::Target;

/// Options of [`run`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchOptions {
    /// Vertices per workload (default 1,000,000).
    pub vertices: u32,
    /// Threads the vertex range is split over (default 1; more than 1 needs the `parallel`
    /// feature, without it one thread runs and the report says so).
    pub threads: usize,
    /// Timed runs per kernel; medians are reported (default 7).
    pub repeats: usize,
    /// Force the portable kernels (default: the best this CPU has).
    pub portable: bool,
}

impl Default for BenchOptions {
    fn default() -> Self {
        BenchOptions {
            vertices: 1_000_000,
            threads: 1,
            repeats: 7,
            portable: false,
        }
    }
}

/// One workload's figures.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct WorkloadReport {
    /// `"W1"` or `"W2"`.
    pub name: String,
    /// Short description (`"float mesh"`, `"packed mesh"`).
    pub description: String,
    /// Input bytes per vertex (the stride).
    pub input_bytes_per_vertex: u32,
    /// Output bytes per vertex (16 per element).
    pub output_bytes_per_vertex: u32,
    /// Decode throughput, millions of vertices per second (median).
    pub mvert_per_s: f64,
    /// Roof kernel with normal stores, millions of vertices per second (median).
    pub roof_mvert_per_s: f64,
    /// Roof kernel with non-temporal stores, millions of vertices per second (median).
    pub roof_nt_mvert_per_s: f64,
    /// `mvert_per_s / roof_mvert_per_s`.
    pub ratio: f64,
    /// `mvert_per_s / roof_nt_mvert_per_s`.
    pub ratio_nt: f64,
    /// Decode throughput of every timed run, in run order (to judge the noise).
    pub runs_mvert_per_s: Vec<f64>,
}

/// Everything [`run`] measured.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct BenchReport {
    /// Per-workload figures.
    pub workloads: Vec<WorkloadReport>,
    /// Vertices per workload.
    pub vertices: u32,
    /// Threads used.
    pub threads: usize,
    /// Timed runs per kernel.
    pub repeats: usize,
    /// Kernel instruction set (`"avx512"`, `"avx2"` or `"portable"`).
    pub isa: String,
    /// CPU model name from `/proc/cpuinfo`, when available.
    pub cpu: Option<String>,
}

impl BenchReport {
    /// The report as JSON: `{"workloads": [{"name": "W1", "mvert_per_s": …,
    /// "roof_mvert_per_s": …, "roof_nt_mvert_per_s": …, "ratio": …, "ratio_nt": …, …}, …], …}`.
    #[cfg(feature = "serde")]
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

impl std::fmt::Display for BenchReport {
    /// A text table, one line per workload.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "fast fetch: {} vertices, {} thread(s), {} kernels, median of {} runs{}",
            self.vertices,
            self.threads,
            self.isa,
            self.repeats,
            self.cpu
                .as_deref()
                .map(|c| format!(", {c}"))
                .unwrap_or_default()
        )?;
        writeln!(
            f,
            "{:<4} {:<12} {:>7} {:>12} {:>12} {:>12} {:>7} {:>8}",
            "",
            "workload",
            "B in/out",
            "decode Mv/s",
            "roof Mv/s",
            "roofNT Mv/s",
            "ratio",
            "ratio_nt"
        )?;
        for w in &self.workloads {
            writeln!(
                f,
                "{:<4} {:<12} {:>3}/{:<4} {:>12.1} {:>12.1} {:>12.1} {:>7.2} {:>8.2}",
                w.name,
                w.description,
                w.input_bytes_per_vertex,
                w.output_bytes_per_vertex,
                w.mvert_per_s,
                w.roof_mvert_per_s,
                w.roof_nt_mvert_per_s,
                w.ratio,
                w.ratio_nt
            )?;
        }
        Ok(())
    }
}

/// A benchmark workload: a single-slot per-vertex layout and its stride.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Workload {
    /// `"W1"`, `"W2"`.
    pub name: &'static str,
    /// Short description.
    pub description: &'static str,
    /// The layout (slot 0, registers 0, 1, … in element order).
    pub layout: InputLayout,
    /// Vertex stride in bytes.
    pub stride: u32,
}

impl Workload {
    fn new(
        name: &'static str,
        description: &'static str,
        stride: u32,
        elements: &[(&str, u32, Format, u32)],
    ) -> Workload {
        let elements: Vec<InputElementDesc> = elements
            .iter()
            .map(|&(sem, index, format, offset)| {
                InputElementDesc::per_vertex(sem, index, format, 0, offset)
            })
            .collect();
        // Element i feeds register i, as a layout without a shader gives it.
        let layout = crate::validation::layout_without_shader(&Target::default(), &elements)
            .into_result()
            .expect("the benchmark workloads are valid layouts");
        Workload {
            name,
            description,
            layout,
            stride,
        }
    }

    /// Output bytes per vertex: 16 per element.
    pub fn output_bytes_per_vertex(&self) -> u32 {
        16 * self.layout.elements().len() as u32
    }

    /// `vertices` vertices of deterministic pseudo-random valid data: 32-bit floats in
    /// [−100, 100), halves normal and finite, every other component (packed, normalised,
    /// integer) uniformly random bits. Decided per component from the format table.
    pub fn make_data(&self, vertices: u32, seed: u64) -> Vec<u8> {
        let mut rng = SplitMix64(seed);
        let stride = self.stride as usize;
        let mut data = vec![0u8; vertices as usize * stride];
        for vertex in data.chunks_exact_mut(stride) {
            for e in self.layout.elements() {
                let Some(info) = e.format.info() else {
                    continue;
                };
                let size = info.byte_size() as usize;
                let bytes = &mut vertex[e.offset as usize..e.offset as usize + size];
                // Random bits first, then the float components replaced by valid values.
                for b in bytes.iter_mut() {
                    *b = rng.next() as u8;
                }
                for c in info.present().filter(|c| c.kind == Kind::Float) {
                    let at = c.bit_offset as usize / 8;
                    match c.bits {
                        32 => {
                            let u = (rng.next() >> 40) as f32 / (1u32 << 24) as f32;
                            let v = u * 200.0 - 100.0;
                            bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
                        }
                        16 => {
                            let r = rng.next();
                            let exp = 1 + (r % 30) as u16; // 1 ..= 30: normal, finite
                            let h =
                                ((r >> 8) as u16 & 0x8000) | (exp << 10) | (r >> 20) as u16 & 0x3ff;
                            bytes[at..at + 2].copy_from_slice(&h.to_le_bytes());
                        }
                        _ => {}
                    }
                }
            }
        }
        data
    }
}

/// The two benchmark workloads, W1 and W2.
pub fn workloads() -> Vec<Workload> {
    vec![
        Workload::new(
            "W1",
            "float mesh",
            48,
            &[
                ("POSITION", 0, Format::R32G32B32_FLOAT, 0),
                ("NORMAL", 0, Format::R32G32B32_FLOAT, 12),
                ("TEXCOORD", 0, Format::R32G32_FLOAT, 24),
                ("TANGENT", 0, Format::R32G32B32A32_FLOAT, 32),
            ],
        ),
        Workload::new(
            "W2",
            "packed mesh",
            28,
            &[
                ("POSITION", 0, Format::R16G16B16A16_FLOAT, 0),
                ("NORMAL", 0, Format::R10G10B10A2_UNORM, 8),
                ("TEXCOORD", 0, Format::R16G16_UNORM, 12),
                ("COLOR", 0, Format::B8G8R8A8_UNORM, 16),
                ("BLENDINDICES", 0, Format::R8G8B8A8_UINT, 20),
                ("BLENDWEIGHT", 0, Format::R8G8B8A8_UNORM, 24),
            ],
        ),
    ]
}

/// A small deterministic generator (SplitMix64).
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// The memory-roof kernel over `vertices` (stride `stride`, ≥ 16) writing `rows_per_vertex`
/// 16-byte rows each: row `e` of a vertex is the 16 input bytes at
/// `min(16·e, stride − 16)`, so every input byte is read and every output byte written once,
/// in one pass. `nt`: non-temporal stores (AVX2 machines; normal stores otherwise).
pub fn roof(input: &[u8], stride: usize, out: &mut [[u32; 4]], rows_per_vertex: usize, nt: bool) {
    let offsets: Vec<usize> = (0..rows_per_vertex)
        .map(|e| (16 * e).min(stride.saturating_sub(16)))
        .collect();
    let nt = nt && Isa::Avx2.is_supported();
    for (vertex, rows) in input
        .chunks_exact(stride)
        .zip(out.chunks_exact_mut(rows_per_vertex))
    {
        for (row, &o) in rows.iter_mut().zip(&offsets) {
            let bytes: [u8; 16] = vertex
                .get(o..o + 16)
                .and_then(|s| s.try_into().ok())
                .unwrap_or([0; 16]);
            let v: [u32; 4] = bytemuck::cast(bytes);
            if nt {
                stream_row(row, v);
            } else {
                *row = v;
            }
        }
    }
    if nt {
        super::stream_fence(Isa::Avx2);
    }
}

#[inline(always)]
fn stream_row(row: &mut [u32; 4], v: [u32; 4]) {
    #[cfg(target_arch = "x86_64")]
    super::simd::stream_row(row, v);
    #[cfg(not(target_arch = "x86_64"))]
    {
        *row = v;
    }
}

/// Runs `f(first_vertex, vertex_count, output_rows)` over `threads` contiguous shares.
fn split<F>(vertices: usize, rows_per_vertex: usize, threads: usize, out: &mut [[u32; 4]], f: F)
where
    F: Fn(usize, usize, &mut [[u32; 4]]) + Sync,
{
    let threads = threads.clamp(1, vertices.max(1));
    if threads == 1 {
        return f(0, vertices, out);
    }
    let share = vertices.div_ceil(threads).next_multiple_of(1024);
    std::thread::scope(|s| {
        let mut rest = &mut out[..vertices * rows_per_vertex];
        let mut start = 0;
        while start < vertices {
            let m = share.min(vertices - start);
            let (mine, tail) = rest.split_at_mut(m * rows_per_vertex);
            rest = tail;
            let f = &f;
            s.spawn(move || f(start, m, mine));
            start += m;
        }
    });
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// The CPU model name from `/proc/cpuinfo`, if readable.
pub fn cpu_model() -> Option<String> {
    let text = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    text.lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split(':').nth(1))
        .map(|s| s.trim().to_string())
}

/// Runs both workloads and returns the medians (see the module comment), with the best
/// kernels this CPU has ([`Isa::detect`]), or the portable ones when `opts.portable`.
pub fn run(opts: &BenchOptions) -> BenchReport {
    let isa = if opts.portable {
        Isa::Portable
    } else {
        Isa::detect()
    };
    run_with_isa(opts, isa)
}

/// [`run`] with the kernels of `isa` (clamped to what this CPU supports, see
/// [`FetchPlan::with_isa`]); `opts.portable` is ignored.
pub fn run_with_isa(opts: &BenchOptions, isa: Isa) -> BenchReport {
    let repeats = opts.repeats.max(1);
    let isa = if isa.is_supported() {
        isa
    } else {
        Isa::Portable
    };
    let n = opts.vertices as usize;
    // Without the `parallel` feature the library spawns no threads: one thread runs.
    let threads = if cfg!(feature = "parallel") {
        opts.threads.max(1)
    } else {
        1
    };
    let mut reports = Vec::new();
    for w in workloads() {
        let data = w.make_data(opts.vertices, 0x1a7 ^ w.stride as u64);
        let stride = w.stride as usize;
        let rows = w.layout.elements().len();
        let bindings = [Some(VertexBufferBinding {
            data: &data,
            stride: w.stride,
            offset: 0,
        })];
        let plan = match FetchPlan::new(&w.layout, &bindings) {
            Ok(p) => p.with_isa(isa),
            Err(_) => continue,
        };
        let mut out = vec![[0u32; 4]; n * rows];
        let decode = |out: &mut [[u32; 4]]| {
            let t = Instant::now();
            let vertices = Vertices::Range {
                first: 0,
                count: opts.vertices,
            };
            #[cfg(feature = "parallel")]
            let _ = plan.fetch_registers_parallel(vertices, Instance::default(), out, threads);
            #[cfg(not(feature = "parallel"))]
            let _ = plan.fetch_registers(vertices, Instance::default(), out);
            t.elapsed()
        };
        let roof_run = |out: &mut [[u32; 4]], nt: bool| {
            let t = Instant::now();
            split(n, rows, threads, out, |v0, m, o| {
                roof(&data[v0 * stride..(v0 + m) * stride], stride, o, rows, nt)
            });
            t.elapsed()
        };
        // Warm-up: faults the output pages in and brings the code into cache.
        decode(&mut out);
        roof_run(&mut out, false);
        roof_run(&mut out, true);
        let (mut td, mut tr, mut tn) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..repeats {
            td.push(decode(&mut out));
            tr.push(roof_run(&mut out, false));
            tn.push(roof_run(&mut out, true));
        }
        let mv = |d: Duration| n as f64 / d.as_secs_f64().max(1e-12) / 1e6;
        let runs = td.iter().map(|d| mv(*d)).collect();
        let (d, r, nt) = (mv(median(td)), mv(median(tr)), mv(median(tn)));
        reports.push(WorkloadReport {
            name: w.name.to_string(),
            description: w.description.to_string(),
            input_bytes_per_vertex: w.stride,
            output_bytes_per_vertex: w.output_bytes_per_vertex(),
            mvert_per_s: d,
            roof_mvert_per_s: r,
            roof_nt_mvert_per_s: nt,
            ratio: d / r,
            ratio_nt: d / nt,
            runs_mvert_per_s: runs,
        });
    }
    BenchReport {
        workloads: reports,
        vertices: opts.vertices,
        threads,
        repeats,
        isa: isa.as_str().to_string(),
        cpu: cpu_model(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::convert::decode_element;

    #[test]
    fn workload_data_is_valid_and_decodes_like_the_reference() {
        for w in workloads() {
            let data = w.make_data(300, 7);
            let bindings = [Some(VertexBufferBinding {
                data: &data,
                stride: w.stride,
                offset: 0,
            })];
            let plan = FetchPlan::new(&w.layout, &bindings).unwrap();
            let rows = w.layout.elements().len();
            let mut out = vec![[0u32; 4]; 300 * rows];
            plan.fetch_registers(
                Vertices::Range {
                    first: 0,
                    count: 300,
                },
                Instance::default(),
                &mut out,
            )
            .unwrap();
            for v in 0..300 {
                for (r, e) in w.layout.elements().iter().enumerate() {
                    let info = e.format.info().unwrap();
                    let at = v * w.stride as usize + e.offset as usize;
                    let want = decode_element(info, &data[at..at + info.byte_size() as usize]);
                    assert_eq!(out[v * rows + r], want, "{} vertex {v} element {r}", w.name);
                    for c in info.present().filter(|c| c.kind == Kind::Float) {
                        let lane = c.channel.lane().unwrap();
                        let f = f32::from_bits(want[lane]);
                        if c.bits == 32 {
                            assert!((-100.0..100.0).contains(&f), "{} {f}", w.name);
                        } else {
                            assert!(f.is_normal(), "{} {f}", w.name);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn roof_reads_every_input_byte_once_per_pass() {
        let input: Vec<u8> = (0..28 * 3).map(|i| i as u8).collect();
        let mut out = vec![[0u32; 4]; 6 * 3];
        roof(&input, 28, &mut out, 6, true);
        let bytes: &[u8] = bytemuck::cast_slice(&out);
        // Vertex 1, row 0 = input bytes 28..44; row 1 = bytes 40..56 (stride − 16 = 12).
        assert_eq!(&bytes[96..112], &input[28..44]);
        assert_eq!(&bytes[112..128], &input[40..56]);
    }

    #[test]
    fn tiny_run_reports_both_workloads() {
        let r = run(&BenchOptions {
            vertices: 5000,
            threads: 2,
            repeats: 1,
            portable: false,
        });
        assert_eq!(r.workloads.len(), 2);
        assert_eq!(r.workloads[0].name, "W1");
        assert_eq!(r.workloads[1].output_bytes_per_vertex, 96);
        assert!(
            r.workloads
                .iter()
                .all(|w| w.mvert_per_s > 0.0 && w.ratio > 0.0)
        );
    }
}
