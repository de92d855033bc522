//! Frame-analysis speed: indexing a generated frame folder against reading the same files,
//! and exporting all its draws against writing the same bytes (`inlay bench --frame DIR`,
//! `cargo bench -p inlay-bench --bench frame`).
//!
//! The folder is generated once by `inlay::frame::synth` (3DMigoto's layout: `log.txt`,
//! per-draw vb/ib text and binary dumps as plain copies, every draw a distinct mesh) to the
//! size asked for, and reused while its `bench.json` matches. Then, in pairs whose order
//! alternates:
//!
//! * **index** — `Frame::open_with` on every core, paired with **read**: every file of the
//!   folder read whole on the same threads (page cache warm: one read pass runs first).
//!   Ratio = read time / index time, i.e. the index's speed in bytes of the folder per second
//!   over the read bandwidth of the same files.
//! * **export** — `mesh::batch::export_draws` of every draw (glTF binary) on every core,
//!   paired with **write**: files of the same sizes as the export wrote, written on the same
//!   threads. Ratio = write time / export time.
//!
//! A run during which the process was descheduled drops its pair. A run whose process had
//! at least 90% of its cores' time throughout was not (its own threads may still preempt
//! each other); otherwise one whose threads lost their core to another task more than once
//! each plus 50 times a second each (involuntary context switches, `getrusage`: sharing a
//! core preempts a thread every few milliseconds, a quiet machine's housekeeping a few
//! times a second) was, or — where that count is not available — one whose process CPU time
//! is below half of wall time × threads. (CPU time alone misjudges the index, whose listing
//! of the folder and reading of the log run on one thread.) The median
//! ratio of the kept pairs is reported, with the process's peak resident memory (`VmHWM`).

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use inlay::frame::synth::{Dedupe, SynthOptions, generate};
use inlay::frame::{Filter, Frame, FrameOptions};
use inlay::mesh::batch::{BatchOptions, export_draws};
use serde::Serialize;

use crate::sys;

/// What to measure.
#[derive(Clone, Debug)]
pub struct FrameBenchOptions {
    /// The folder the frame is generated in (and the export's scratch beside it).
    pub dir: PathBuf,
    /// Draws of the frame.
    pub draws: u32,
    /// Bytes the frame's files should add up to (about).
    pub bytes: u64,
    /// Threads (0: every core).
    pub threads: usize,
    /// Paired runs per measurement.
    pub pairs: usize,
}

/// One measurement's figures.
#[derive(Clone, Debug, Serialize)]
pub struct Measured {
    /// Median ratio over the kept pairs (reference time / inlay time).
    pub ratio: f64,
    /// The goal the issue sets.
    pub goal: f64,
    /// Pairs kept / run.
    pub kept: usize,
    /// Pairs run.
    pub pairs: usize,
    /// Median inlay time (s) and reference time (s) of the kept pairs.
    pub seconds: (f64, f64),
    /// Bytes the reference moved per run.
    pub bytes: u64,
}

/// The report.
#[derive(Clone, Debug, Serialize)]
pub struct FrameBenchReport {
    /// CPU model.
    pub cpu: Option<String>,
    /// Threads used.
    pub threads: usize,
    /// Load average at the start.
    pub load: Option<[f64; 3]>,
    /// Draws indexed.
    pub draws: usize,
    /// Files and bytes of the folder.
    pub files: usize,
    /// Bytes of the folder.
    pub folder_bytes: u64,
    /// Index vs read.
    pub index: Measured,
    /// Export vs write.
    pub export: Measured,
    /// Peak resident memory of the process, MiB.
    pub peak_mib: Option<f64>,
}

impl std::fmt::Display for FrameBenchReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "frame: {} draws, {} files, {:.2} GB; {} threads on {}; load {}",
            self.draws,
            self.files,
            self.folder_bytes as f64 / 1e9,
            self.threads,
            self.cpu.as_deref().unwrap_or("?"),
            self.load.map_or("?".into(), |l| format!(
                "{:.2} {:.2} {:.2}",
                l[0], l[1], l[2]
            ))
        )?;
        for (name, m, what) in [
            ("index ", &self.index, "read of the same files"),
            ("export", &self.export, "write of the same bytes"),
        ] {
            writeln!(
                f,
                "{name}: ratio {:.2} (goal >= {:.1}) = {what} {:.3} s / inlay {:.3} s, {:.2} GB/s reference; {}/{} pairs kept",
                m.ratio,
                m.goal,
                m.seconds.1,
                m.seconds.0,
                m.bytes as f64 / 1e9 / m.seconds.1.max(1e-9),
                m.kept,
                m.pairs
            )?;
        }
        writeln!(
            f,
            "peak memory: {} MiB (goal <= 256)",
            self.peak_mib.map_or("?".into(), |m| format!("{m:.0}"))
        )
    }
}

/// Peak resident memory (`VmHWM`), MiB.
pub fn peak_mib() -> Option<f64> {
    let s = fs::read_to_string("/proc/self/status").ok()?;
    let l = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = l.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

struct Run {
    wall: Duration,
    cpu: Option<Duration>,
    switches: Option<u64>,
}

fn timed(f: impl FnOnce()) -> Run {
    let c0 = sys::process_cpu_time();
    let s0 = sys::involuntary_switches();
    let t = Instant::now();
    f();
    let wall = t.elapsed();
    let cpu = sys::process_cpu_time()
        .zip(c0)
        .map(|(a, b)| a.saturating_sub(b));
    let switches = sys::involuntary_switches()
        .zip(s0)
        .map(|(a, b)| a.saturating_sub(b));
    Run {
        wall,
        cpu,
        switches,
    }
}

impl Run {
    fn descheduled(&self, threads: usize) -> bool {
        let cores = threads.min(sys::cpus()) as f64;
        let wall = self.wall.as_secs_f64();
        // Most of its cores' time for the whole run: nothing else took them, whatever the
        // switch count says (its own threads, more than the cores, preempt each other).
        if self
            .cpu
            .is_some_and(|c| c.as_secs_f64() >= 0.9 * wall * cores)
        {
            return false;
        }
        if let Some(n) = self.switches {
            // Sharing a core with another task preempts a thread every few milliseconds;
            // a quiet machine's housekeeping takes a core a few times a second.
            return n as f64 > threads as f64 * (1.0 + 50.0 * wall);
        }
        self.cpu
            .is_some_and(|c| c.as_secs_f64() < 0.5 * wall * cores)
    }
}

fn files_of(dir: &Path) -> Vec<(PathBuf, u64)> {
    let mut v = Vec::new();
    for e in fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        match e.metadata() {
            Ok(m) if m.is_file() => v.push((p, m.len())),
            Ok(m) if m.is_dir() => v.extend(files_of(&p)),
            _ => {}
        }
    }
    v
}

fn parallel(threads: usize, n: usize, f: impl Fn(usize) + Sync) {
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n {
                        break;
                    }
                    f(i);
                }
            });
        }
    });
}

fn read_all(files: &[(PathBuf, u64)], threads: usize) {
    parallel(threads, files.len(), |i| {
        let mut buf = vec![0u8; 1 << 20];
        if let Ok(mut f) = fs::File::open(&files[i].0) {
            while matches!(f.read(&mut buf), Ok(n) if n > 0) {}
        }
    });
}

fn write_all(dir: &Path, sizes: &[u64], threads: usize) {
    let _ = fs::create_dir_all(dir);
    let chunk = vec![0x5au8; 1 << 20];
    parallel(threads, sizes.len(), |i| {
        if let Ok(f) = fs::File::create(dir.join(format!("{i}.bin"))) {
            let mut w = std::io::BufWriter::with_capacity(1 << 20, f);
            let mut left = sizes[i];
            while left > 0 {
                let n = left.min(chunk.len() as u64) as usize;
                if w.write_all(&chunk[..n]).is_err() {
                    break;
                }
                left -= n as u64;
            }
            let _ = w.flush();
        }
    });
}

/// Cuts every file in `dir` to no bytes (see `run`).
fn empty_files(dir: &Path) {
    for e in fs::read_dir(dir).into_iter().flatten().flatten() {
        if let Ok(f) = fs::OpenOptions::new().write(true).open(e.path()) {
            let _ = f.set_len(0);
        }
    }
}

/// Removes the runs' folders in `dir` (`export-N`, `write-N`), this run's and any an earlier
/// run left.
fn remove_runs(dir: &Path) {
    for e in fs::read_dir(dir).into_iter().flatten().flatten() {
        let name = e.file_name();
        let name = name.to_string_lossy();
        let run = ["export-", "write-"].iter().any(|p| {
            name.strip_prefix(p)
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        });
        if run {
            let _ = fs::remove_dir_all(e.path());
        }
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn measure(
    pairs: usize,
    threads: usize,
    goal: f64,
    bytes: u64,
    mut ours: impl FnMut() -> Run,
    mut reference: impl FnMut() -> Run,
) -> Measured {
    let mut kept: Vec<(f64, f64)> = Vec::new();
    let mut all: Vec<(f64, f64)> = Vec::new();
    for p in 0..pairs {
        let (a, b) = if p % 2 == 0 {
            let a = ours();
            (a, reference())
        } else {
            let b = reference();
            (ours(), b)
        };
        let pair = (a.wall.as_secs_f64(), b.wall.as_secs_f64());
        all.push(pair);
        if !a.descheduled(threads) && !b.descheduled(threads) {
            kept.push(pair);
        }
    }
    let used = if kept.is_empty() { &all } else { &kept };
    Measured {
        ratio: median(used.iter().map(|(a, b)| b / a).collect()),
        goal,
        kept: kept.len(),
        pairs,
        seconds: (
            median(used.iter().map(|p| p.0).collect()),
            median(used.iter().map(|p| p.1).collect()),
        ),
        bytes,
    }
}

/// Generates (or reuses) the frame and measures both ratios.
pub fn run(o: &FrameBenchOptions) -> std::io::Result<FrameBenchReport> {
    let threads = match o.threads {
        0 => sys::cpus(),
        t => t,
    };
    let frame_dir = o.dir.join("frame");
    let stamp = format!("{{\"draws\":{},\"bytes\":{},\"v\":1}}", o.draws, o.bytes);
    let stamp_path = o.dir.join("bench.json");
    if fs::read_to_string(&stamp_path).ok().as_deref() != Some(stamp.as_str()) {
        let _ = fs::remove_dir_all(&frame_dir);
        // About 270 bytes of files per vertex (text and binary dumps of the four layouts).
        let vertices = (o.bytes / o.draws.max(1) as u64 / 270).clamp(8, 1 << 22) as u32;
        let s = SynthOptions {
            draws: o.draws,
            meshes: o.draws,
            vertices,
            dedupe: Dedupe::Copies,
            dispatches: false,
            ..SynthOptions::default()
        };
        generate(&frame_dir, &s)?;
        fs::write(&stamp_path, &stamp)?;
    }
    // Folders an interrupted earlier run left.
    remove_runs(&o.dir);
    let load = sys::load_average();
    let files = files_of(&frame_dir);
    let folder_bytes: u64 = files.iter().map(|f| f.1).sum();
    // Warm the page cache.
    read_all(&files, threads);
    let fo = FrameOptions { threads };
    let mut draws = 0;
    let index = measure(
        o.pairs,
        threads,
        0.8,
        folder_bytes,
        || {
            // The index is timed until it is there; freeing it (5,000 draws' files and
            // headers: 5-9 ms on one core here) is its user's business and comes after.
            let mut kept = None;
            let run = timed(|| {
                kept = Some(Frame::open_with(&frame_dir, &fo).expect("the generated frame opens"));
            });
            draws = kept.as_ref().map_or(0, |f| f.draws.len());
            drop(kept);
            run
        },
        || timed(|| read_all(&files, threads)),
    );
    let frame =
        Frame::open_with(&frame_dir, &fo).map_err(|e| std::io::Error::other(e.to_string()))?;
    let filter: Filter = "dumped".parse().expect("valid");
    let selected: Vec<_> = frame.select(&filter).collect();
    // Each timed run writes into a folder of its own, and a run's files are cut to no bytes
    // after it (their pages freed, their inodes kept); the folders go only once every run is
    // done. Removing a run's thousands of files just before the next run made ext4 without a
    // journal step over the freed inodes on each of that run's file creations for seconds
    // afterwards (`find_inode_bit`, `recently_deleted`), a cost that fell on whichever side ran
    // next (exports of 1.5-4.0 s here against 1.5 s in a fresh folder).
    let runs = std::cell::Cell::new(0usize);
    let fresh = |what: &str| {
        runs.set(runs.get() + 1);
        o.dir.join(format!("{what}-{}", runs.get()))
    };
    let bo = BatchOptions {
        jobs: threads,
        overwrite: true,
        ..BatchOptions::default()
    };
    // One untimed export gives the sizes the write reference writes.
    let first_dir = fresh("export");
    let first = export_draws(&frame, &selected, &first_dir, &bo, &|_| {})?;
    empty_files(&first_dir);
    let sizes: Vec<u64> = first
        .draws
        .iter()
        .filter_map(|d| match &d.outcome {
            inlay::mesh::batch::Outcome::Written { bytes, .. } => Some(*bytes),
            _ => None,
        })
        .collect();
    let written: u64 = sizes.iter().sum();
    let export = measure(
        o.pairs,
        threads,
        0.5,
        written,
        || {
            let out = fresh("export");
            let run = timed(|| {
                export_draws(&frame, &selected, &out, &bo, &|_| {}).expect("export runs");
            });
            empty_files(&out);
            run
        },
        || {
            let scratch = fresh("write");
            let run = timed(|| write_all(&scratch, &sizes, threads));
            empty_files(&scratch);
            run
        },
    );
    remove_runs(&o.dir);
    Ok(FrameBenchReport {
        cpu: sys::cpu_model(),
        threads,
        load,
        draws,
        files: files.len(),
        folder_bytes,
        index,
        export,
        peak_mib: peak_mib(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(wall_ms: u64, cpu_ms: Option<u64>, switches: Option<u64>) -> Run {
        Run {
            wall: Duration::from_millis(wall_ms),
            cpu: cpu_ms.map(Duration::from_millis),
            switches,
        }
    }

    /// One thread, so the test does not depend on the machine's core count.
    #[test]
    fn descheduled_runs_are_told_apart() {
        // Its core's whole time: kept, even with its own threads preempting each other.
        assert!(!run(1000, Some(950), Some(400)).descheduled(1));
        // Half the time, preempted 400 times a second: another task had the core.
        assert!(run(1000, Some(500), Some(400)).descheduled(1));
        // A single-threaded phase on a quiet machine: little CPU, few switches, kept.
        assert!(!run(1000, Some(500), Some(10)).descheduled(1));
        // The limit: once plus 50 a second.
        assert!(!run(1000, Some(500), Some(51)).descheduled(1));
        assert!(run(1000, Some(500), Some(52)).descheduled(1));
        // No switch count: CPU time below half of wall time.
        assert!(run(1000, Some(400), None).descheduled(1));
        assert!(!run(1000, Some(600), None).descheduled(1));
    }

    /// A run's files are cut to no bytes and kept; only the runs' own folders are removed.
    #[test]
    fn run_folders_are_emptied_then_removed() {
        let root = std::env::temp_dir().join(format!("inlay-bench-runs-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        for d in [
            "export-1",
            "write-12",
            "export-",
            "exports-1",
            "write-1a",
            "frame",
        ] {
            fs::create_dir_all(root.join(d)).unwrap();
            fs::write(root.join(d).join("a.bin"), [7u8; 100]).unwrap();
        }
        empty_files(&root.join("export-1"));
        assert_eq!(fs::metadata(root.join("export-1/a.bin")).unwrap().len(), 0);
        assert_eq!(
            fs::metadata(root.join("write-12/a.bin")).unwrap().len(),
            100
        );
        remove_runs(&root);
        let mut left: Vec<String> = fs::read_dir(&root)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["export-", "exports-1", "frame", "write-1a"]);
        fs::remove_dir_all(&root).unwrap();
    }
}
