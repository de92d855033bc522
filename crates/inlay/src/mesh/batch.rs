//! Many draws of a frame exported at once (features `mesh` + `frame`): `inlay export DIR`.
//!
//! [`export_draws`] reads each selected draw of a [`Frame`] as a capture and writes it as a
//! mesh file in `out_dir`, on `jobs` threads. Draws whose inputs are identical — the same
//! layout, buffer bytes, index bytes, draw call and topology, decided by a 128-bit digest of
//! exactly what the export reads — are written once, under the name of the first of them in
//! the order given, whatever order the jobs reach them in; the others name that file. A draw that
//! cannot be read or exported is recorded with the file and reason, and the batch goes on.
//! Memory stays bounded: a draw starts only when the bytes of its dump files fit in what
//! the running draws leave of [`BatchOptions::memory`] (a draw larger than all of it runs
//! alone).

#![forbid(unsafe_code)]

use std::collections::HashMap;
use std::fs;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

use super::streamed::{ExportError, Exported};
use super::{FileKind, Mesh, MeshOptions, input_of, streamed::StreamOptions};
use crate::capture::{Capture, SlotData};
use crate::frame::{Draw, Frame};

/// How [`export_draws`] runs.
#[derive(Clone, Debug)]
pub struct BatchOptions {
    /// The file kind written.
    pub kind: FileKind,
    /// Threads (0: every core).
    pub jobs: usize,
    /// Bytes of dump files the running draws may hold at once.
    pub memory: u64,
    /// Replace files that exist.
    pub overwrite: bool,
    /// How meshes are built.
    pub mesh: MeshOptions,
}

impl Default for BatchOptions {
    fn default() -> Self {
        BatchOptions {
            kind: FileKind::Glb,
            jobs: 0,
            memory: 96 << 20,
            overwrite: false,
            mesh: MeshOptions::default(),
        }
    }
}

/// What became of one draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Written to this file: vertices, primitives.
    Written {
        /// The file.
        path: PathBuf,
        /// Bytes written.
        bytes: u64,
        /// Vertices of the mesh.
        vertices: usize,
        /// Warnings of the capture and the export.
        warnings: Vec<String>,
    },
    /// Identical to a draw already written to this file.
    Same {
        /// The file.
        path: PathBuf,
    },
    /// Not exported.
    Failed {
        /// The file the reason is about (or the draw's id).
        file: String,
        /// Why.
        reason: String,
    },
}

/// One draw's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawOutcome {
    /// The draw's id (`000123`).
    pub draw: String,
    /// What became of it.
    pub outcome: Outcome,
}

/// Every draw's result, in the order given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BatchReport {
    /// Per draw.
    pub draws: Vec<DrawOutcome>,
    /// Bytes written.
    pub bytes_written: u64,
}

impl BatchReport {
    /// Draws written, draws identical to one written, draws that failed.
    pub fn counts(&self) -> (usize, usize, usize) {
        let mut c = (0, 0, 0);
        for d in &self.draws {
            match d.outcome {
                Outcome::Written { .. } => c.0 += 1,
                Outcome::Same { .. } => c.1 += 1,
                Outcome::Failed { .. } => c.2 += 1,
            }
        }
        c
    }
}

/// A 128-bit digest of bytes (two multiply-rotate lanes over 8-byte words; not
/// cryptographic: it tells identical inputs apart from different ones).
#[derive(Clone, Copy)]
struct Digest([u64; 2]);

impl Digest {
    fn new() -> Self {
        Digest([0x9e37_79b9_7f4a_7c15, 0xc2b2_ae3d_27d4_eb4f])
    }
    fn word(&mut self, w: u64) {
        self.0[0] = (self.0[0] ^ w)
            .wrapping_mul(0x0000_0100_0000_01b3)
            .rotate_left(29);
        self.0[1] = (self.0[1] ^ w.rotate_left(17))
            .wrapping_mul(0xff51_afd7_ed55_8ccd)
            .rotate_left(31);
    }
    /// Takes `b` and its length. Whole 32-byte blocks go through four lanes of their own,
    /// each taking one word of a block (independent multiplications, which run side by side:
    /// a single chain of them over a draw's buffers was a twentieth of its export's time),
    /// folded into the state after; the rest word by word.
    fn bytes(&mut self, b: &[u8]) {
        const MUL: [u64; 4] = [
            0x9e37_79b9_7f4a_7c15,
            0xc2b2_ae3d_27d4_eb4f,
            0x1656_67b1_9e37_79f9,
            0xff51_afd7_ed55_8ccd,
        ];
        self.word(b.len() as u64);
        let mut blocks = b.chunks_exact(32);
        if b.len() >= 32 {
            let mut lanes = [self.0[0], self.0[1], !self.0[0], !self.0[1]];
            for block in &mut blocks {
                for (l, lane) in lanes.iter_mut().enumerate() {
                    let w =
                        u64::from_le_bytes(block[8 * l..8 * l + 8].try_into().expect("8 bytes"));
                    *lane = (*lane ^ w).wrapping_mul(MUL[l]).rotate_left(27);
                }
            }
            for lane in lanes {
                self.word(lane);
            }
        }
        let mut words = blocks.remainder().chunks_exact(8);
        for w in &mut words {
            self.word(u64::from_le_bytes(w.try_into().expect("8 bytes")));
        }
        let mut last = [0u8; 8];
        last[..words.remainder().len()].copy_from_slice(words.remainder());
        self.word(u64::from_le_bytes(last));
    }
}

/// The digest of everything an export of `c` reads.
fn digest(c: &Capture) -> [u64; 2] {
    let mut d = Digest::new();
    d.bytes(
        format!(
            "{:?}|{:?}|{:?}|{:?}|{:?}",
            c.elements,
            c.remapped,
            c.topology,
            c.draw,
            c.draw_call()
        )
        .as_bytes(),
    );
    for s in &c.slots {
        d.bytes(format!("{}/{}/{}", s.slot, s.stride, s.offset).as_bytes());
        match &s.data {
            SlotData::Binary(b) => d.bytes(b),
            SlotData::Text(t) => d.bytes(format!("{t:?}").as_bytes()),
        }
    }
    if let Some(i) = &c.index {
        d.bytes(format!("{:?}/{}", i.format, i.offset).as_bytes());
        d.bytes(&i.data);
    }
    d.0
}

/// The file name a draw is written under: its id (`/` of a context folder as `-`) and the
/// kind's extension.
pub fn file_name(d: &Draw, kind: FileKind) -> String {
    format!("{}.{kind}", d.id().replace('/', "-"))
}

/// The bytes the running draws hold, and how many jobs wait for some to be given back.
struct Budget {
    used: Mutex<(u64, usize)>,
    freed: Condvar,
    limit: u64,
}

impl Budget {
    fn take(&self, want: u64) -> u64 {
        let want = want.min(self.limit);
        let mut used = self.used.lock().unwrap_or_else(|e| e.into_inner());
        while used.0 > 0 && used.0 + want > self.limit {
            used.1 += 1;
            used = self.freed.wait(used).unwrap_or_else(|e| e.into_inner());
            used.1 -= 1;
        }
        used.0 += want;
        want
    }
    fn give(&self, n: u64) {
        let mut used = self.used.lock().unwrap_or_else(|e| e.into_inner());
        used.0 -= n;
        // A wake-up is a system call even with no one waiting: one per draw, for nothing.
        if used.1 > 0 {
            self.freed.notify_all();
        }
    }
}

/// Removes the file an export replaces, if there is one, before the new one takes its name:
/// renaming over an existing file (or truncating it) makes ext4 start writing the new one to
/// disk there and then (its guard for replace-by-rename and replace-by-truncate). A 16-core
/// re-export of a 5,000-draw frame over its earlier output took 0.75-1.43 s (up to 15.5 s of
/// system time) that way, and 0.42-0.69 s this way.
///
/// It looks before it removes: a removal locks the folder for writing even when there is
/// nothing to remove, and in a fresh output folder the jobs' removals of files that were
/// never there queued behind each other's file creations (a sixth of a 2-core export's time
/// here, spinning on the folder's lock). A look takes no such lock.
fn remove_old(path: &Path) -> Result<(), String> {
    if fs::symlink_metadata(path).is_err() {
        return Ok(());
    }
    match fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(format!("cannot replace {}: {e}", path.display()))
        }
        _ => Ok(()),
    }
}

/// Why a draw's file was not written.
#[derive(Debug)]
enum WriteError {
    /// Without `overwrite`: this file of the export is there already.
    Exists(PathBuf),
    /// Anything else, said in full.
    Failed(String),
}

impl WriteError {
    /// The outcome of draw `d` that this failure gives.
    fn outcome(self, d: &Draw) -> Outcome {
        match self {
            WriteError::Exists(f) => Outcome::Failed {
                file: f.display().to_string(),
                reason: "exists (replace with --force)".into(),
            },
            WriteError::Failed(reason) => Outcome::Failed {
                file: d.id(),
                reason,
            },
        }
    }
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::Exists(p) => write!(f, "{} exists (replace with --force)", p.display()),
            WriteError::Failed(reason) => f.write_str(reason),
        }
    }
}

/// A file an export writes, opened: where no file has its name, a new file there (created
/// only if still absent; without `overwrite` an existing one is refused); where one is
/// replaced, a `.part` beside it that takes the name once complete, so that a failed export
/// leaves the old file as it was.
///
/// A new file is written in place rather than renamed into place: a creation and a rename
/// are three changes to the output folder, each under the folder's lock (the `.part`'s entry
/// added, then moved), where writing in place is one, and in a fresh folder every draw's file
/// is new.
struct Target {
    file: fs::File,
    /// The `.part` being written, where an existing file is replaced.
    part: Option<PathBuf>,
}

impl Target {
    fn create(path: &Path, part_ext: &str, overwrite: bool) -> Result<Target, WriteError> {
        let fail = |p: &Path, e: std::io::Error| {
            WriteError::Failed(format!("cannot write {}: {e}", p.display()))
        };
        // Created only if absent, even with `overwrite`: no look at the name first. A look
        // is one more lookup in the output folder, and it waits on the folder's lock while
        // the other jobs create their files.
        match fs::File::create_new(path) {
            Ok(file) => return Ok(Target { file, part: None }),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                if !overwrite {
                    return Err(WriteError::Exists(path.to_path_buf()));
                }
            }
            Err(e) => return Err(fail(path, e)),
        }
        let part = path.with_extension(part_ext);
        let file = fs::File::create(&part).map_err(|e| fail(&part, e))?;
        Ok(Target {
            file,
            part: Some(part),
        })
    }

    /// Gives the complete file its name.
    fn finish(&self, path: &Path) -> Result<(), WriteError> {
        if let Some(part) = &self.part {
            // The file it replaces goes only now, once the new one is complete.
            remove_old(path).map_err(WriteError::Failed)?;
            fs::rename(part, path)
                .map_err(|e| WriteError::Failed(format!("cannot write {}: {e}", path.display())))?;
        }
        Ok(())
    }

    /// Removes what a failed export wrote.
    fn discard(&self, path: &Path) {
        let _ = fs::remove_file(self.part.as_deref().unwrap_or(path));
    }
}

fn write_one(c: &Capture, path: &Path, o: &BatchOptions) -> Result<(Exported, u64), WriteError> {
    let main = Target::create(path, &format!("{}.part", o.kind), o.overwrite)?;
    let bin_path = path.with_extension("bin");
    let mut bin = None;
    let result = (|| -> Result<(Exported, u64), WriteError> {
        let input = input_of(c);
        let stream = StreamOptions {
            threads: 1,
            ..StreamOptions::default()
        };
        let written = main.part.as_deref().unwrap_or(path);
        let ioerr = |e: std::io::Error| {
            WriteError::Failed(format!("cannot write {}: {e}", written.display()))
        };
        let xerr = |e: ExportError| match e {
            ExportError::Mesh(e) => WriteError::Failed(e.to_string()),
            ExportError::Io(e) => ioerr(e),
        };
        // 64 KiB: most draws are smaller; a 1 MiB buffer per file cost a fresh mapping (page faults) each time.
        let mut file = BufWriter::with_capacity(1 << 16, &main.file);
        let done = match o.kind {
            FileKind::Glb => {
                super::gltf::export_glb_with(&input, &o.mesh, &stream, &mut file).map_err(xerr)?
            }
            FileKind::Gltf => {
                let uri = bin_path
                    .file_name()
                    .and_then(|n| n.to_str())
                    .unwrap_or("mesh.bin")
                    .to_string();
                // Created as the main file is: an old `.bin` is replaced only once the new
                // one is complete (see `Target`).
                let b = bin.insert(Target::create(&bin_path, "bin.part", o.overwrite)?);
                let mut b = BufWriter::new(&b.file);
                let done = super::gltf::export_gltf_with(
                    &input, &o.mesh, &stream, &mut file, &mut b, &uri,
                )
                .map_err(xerr)?;
                b.flush().map_err(ioerr)?;
                done
            }
            FileKind::Obj | FileKind::Ply => {
                let mesh =
                    Mesh::build(&input, &o.mesh).map_err(|e| WriteError::Failed(e.to_string()))?;
                let warnings = if o.kind == FileKind::Obj {
                    super::obj::write_obj(&mesh, &mut file).map_err(ioerr)?
                } else {
                    super::ply::write_ply(&mesh, &mut file).map_err(ioerr)?
                };
                let mut done = Exported::of_mesh(&mesh);
                done.warnings.extend(warnings);
                done
            }
        };
        file.flush().map_err(ioerr)?;
        let bytes = main.file.metadata().map(|m| m.len()).unwrap_or(0);
        drop(file);
        if let Some(b) = &bin {
            b.finish(&bin_path)?;
        }
        main.finish(path)?;
        Ok((done, bytes))
    })();
    if result.is_err() {
        main.discard(path);
        if let Some(b) = &bin {
            b.discard(&bin_path);
        }
    }
    result
}

/// Exports `draws` of `frame` into `out_dir` (created if missing); `progress` is called after
/// each draw with the number done so far. See the module notes.
pub fn export_draws(
    frame: &Frame,
    draws: &[&Draw],
    out_dir: &Path,
    options: &BatchOptions,
    progress: &(dyn Fn(usize) + Sync),
) -> std::io::Result<BatchReport> {
    let order: Vec<usize> = (0..draws.len()).collect();
    export_in_order(frame, draws, &order, out_dir, options, progress)
}

/// [`export_draws`], the jobs taking the draws in `order` (a permutation of their indices).
fn export_in_order(
    frame: &Frame,
    draws: &[&Draw],
    order: &[usize],
    out_dir: &Path,
    options: &BatchOptions,
    progress: &(dyn Fn(usize) + Sync),
) -> std::io::Result<BatchReport> {
    fs::create_dir_all(out_dir)?;
    let jobs = match options.jobs {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        j => j,
    }
    .min(draws.len().max(1));
    let budget = Budget {
        used: Mutex::new((0, 0)),
        freed: Condvar::new(),
        limit: options.memory.max(1),
    };
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let seen: Seen = Mutex::new(HashMap::new());
    let results: Mutex<Vec<Option<Done>>> = Mutex::new(vec![None; draws.len()]);
    let written = std::sync::atomic::AtomicU64::new(0);
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| {
                while let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let Some(d) = draws.get(i) else { continue };
                    let size: u64 = d
                        .vbs
                        .iter()
                        .map(|v| {
                            v.buf_bytes.unwrap_or(0)
                                + if v.buf.is_none() { 1 << 20 } else { 64 << 10 }
                        })
                        .sum::<u64>()
                        + d.ib.as_ref().map_or(0, |b| b.buf_bytes.unwrap_or(1 << 20));
                    let held = budget.take(size * 2);
                    let outcome = export_one(frame, d, i, out_dir, options, &seen, &written);
                    budget.give(held);
                    results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(outcome);
                    progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    let seen = seen.into_inner().unwrap_or_else(|e| e.into_inner());
    settle_owners(
        frame,
        draws,
        out_dir,
        &mut results,
        &seen,
        options,
        &written,
    );
    let draws = results
        .into_iter()
        .zip(draws)
        .filter_map(|(r, d)| {
            r.map(|(outcome, _)| DrawOutcome {
                draw: d.id(),
                outcome,
            })
        })
        .collect();
    Ok(BatchReport {
        draws,
        bytes_written: written.into_inner(),
    })
}

/// A digest of what an export reads ([`digest`]).
type Key = [u64; 2];

/// A draw's outcome and, where it was read, its digest.
type Done = (Outcome, Option<Key>);

/// The draw (its index) whose file each set of identical draws names, and that file.
type Seen = Mutex<HashMap<Key, (usize, PathBuf)>>;

/// Gives each set of identical draws' file to the first of them in the order given. Jobs run
/// side by side, so a later draw's job may have claimed the set first: then the first draw is
/// written now, the later draw's file removed, and every draw of the set names the new file.
/// A set whose file's write failed while others were already told to name it gets its file
/// from its first draw too. Where that write fails (or, without `overwrite`, the first draw's
/// file exists) the set keeps the file it has, or, with none, its draws fail with the reason.
fn settle_owners(
    frame: &Frame,
    draws: &[&Draw],
    out_dir: &Path,
    results: &mut [Option<Done>],
    seen: &HashMap<Key, (usize, PathBuf)>,
    o: &BatchOptions,
    written: &std::sync::atomic::AtomicU64,
) {
    // Each set's draws (written or naming its file), in order, and its first naming one.
    let mut members: HashMap<Key, Vec<usize>> = HashMap::new();
    let mut first: HashMap<Key, usize> = HashMap::new();
    for (i, r) in results.iter().enumerate() {
        if let Some((outcome, Some(k))) = r {
            members.entry(*k).or_default().push(i);
            if matches!(outcome, Outcome::Same { .. }) {
                first.entry(*k).or_insert(i);
            }
        }
    }
    let mut sets: Vec<(Key, usize)> = first.into_iter().collect();
    sets.sort_by_key(|&(_, i)| i);
    for (key, i) in sets {
        let owner = seen.get(&key);
        let now = match owner {
            Some((j, path)) if *j < i => Ok(path.clone()),
            _ => write_late(frame, draws[i], out_dir, o).map(|(capture, path, bytes, done)| {
                if let Some((j, _)) = owner
                    && let Some((
                        Outcome::Written {
                            path: old,
                            bytes: n,
                            ..
                        },
                        _,
                    )) = &results[*j]
                {
                    if *old != path {
                        for f in files_of(old, o.kind) {
                            let _ = fs::remove_file(f);
                        }
                    }
                    written.fetch_sub(*n, Ordering::Relaxed);
                }
                written.fetch_add(bytes, Ordering::Relaxed);
                results[i] = Some((
                    written_outcome(&capture, path.clone(), bytes, &done),
                    Some(key),
                ));
                path
            }),
        };
        let now = match (now, owner) {
            (Ok(p), _) => Ok(p),
            // The set keeps the file it has.
            (Err(_), Some((_, p))) => Ok(p.clone()),
            (Err(why), None) => Err(why),
        };
        for &k in members.get(&key).into_iter().flatten() {
            let Some((outcome, _)) = &mut results[k] else {
                continue;
            };
            if k == i && matches!(outcome, Outcome::Written { .. }) {
                continue;
            }
            if matches!(outcome, Outcome::Written { path, .. } if Ok(&*path) == now.as_ref()) {
                continue;
            }
            *outcome = match &now {
                Ok(path) => Outcome::Same { path: path.clone() },
                Err(reason) => Outcome::Failed {
                    file: draws[k].id(),
                    reason: format!("identical to a draw whose export failed: {reason}"),
                },
            };
        }
    }
}

/// Writes draw `d` after the jobs (see [`settle_owners`]).
fn write_late(
    frame: &Frame,
    d: &Draw,
    out_dir: &Path,
    o: &BatchOptions,
) -> Result<(Capture, PathBuf, u64, Exported), String> {
    let path = out_dir.join(file_name(d, o.kind));
    let capture = frame.load(d).map_err(|e| e.to_string())?;
    let (done, bytes) = write_one(&capture, &path, o).map_err(|e| e.to_string())?;
    Ok((capture, path, bytes, done))
}

/// The files an export to `path` writes: the file, and for a `.gltf` its `.bin` beside it.
fn files_of(path: &Path, kind: FileKind) -> Vec<PathBuf> {
    let mut v = vec![path.to_path_buf()];
    if kind == FileKind::Gltf {
        v.push(path.with_extension("bin"));
    }
    v
}

/// The outcome of a written draw.
fn written_outcome(c: &Capture, path: PathBuf, bytes: u64, done: &Exported) -> Outcome {
    Outcome::Written {
        path,
        bytes,
        vertices: done.vertex_count as usize,
        warnings: c
            .warnings
            .iter()
            .map(|w| w.to_string())
            .chain(done.warnings.iter().map(|w| w.to_string()))
            .collect(),
    }
}

fn export_one(
    frame: &Frame,
    d: &Draw,
    i: usize,
    out_dir: &Path,
    o: &BatchOptions,
    seen: &Seen,
    written: &std::sync::atomic::AtomicU64,
) -> Done {
    let capture = match frame.load(d) {
        Ok(c) => c,
        Err(e) => {
            let outcome = Outcome::Failed {
                file: e.line.map_or(e.file.clone(), |l| format!("{}:{l}", e.file)),
                reason: match e.value {
                    Some(v) => format!("{} (`{v}`)", e.message),
                    None => e.message,
                },
            };
            return (outcome, None);
        }
    };
    let key = digest(&capture);
    let path = out_dir.join(file_name(d, o.kind));
    {
        let mut seen = seen.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, p)) = seen.get(&key) {
            return (Outcome::Same { path: p.clone() }, Some(key));
        }
        // A file that is there already (without `overwrite`) is found when the file is
        // created, and the claim then given up.
        seen.insert(key, (i, path.clone()));
    }
    match write_one(&capture, &path, o) {
        Ok((done, bytes)) => {
            written.fetch_add(bytes, Ordering::Relaxed);
            (written_outcome(&capture, path, bytes, &done), Some(key))
        }
        Err(why) => {
            // Others identical to it must not name a file that is not there.
            seen.lock().unwrap_or_else(|e| e.into_inner()).remove(&key);
            (why.outcome(d), None)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::synth::{SynthOptions, generate};

    fn files_in(dir: &Path) -> Vec<(String, Vec<u8>)> {
        let mut v: Vec<(String, Vec<u8>)> = fs::read_dir(dir)
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                (
                    e.file_name().to_string_lossy().into_owned(),
                    fs::read(e.path()).unwrap(),
                )
            })
            .collect();
        v.sort();
        v
    }

    /// A frame generated in `root/fa`: `draws` draws of `meshes` distinct meshes.
    fn generated(root: &Path, draws: u32, meshes: u32, vertices: u32) -> Frame {
        let fa = root.join("fa");
        let o = SynthOptions {
            draws,
            meshes,
            vertices,
            dispatches: false,
            ..SynthOptions::default()
        };
        generate(&fa, &o).unwrap();
        Frame::open(&fa).unwrap()
    }

    /// The draws with a vb dump.
    fn dumped(frame: &Frame) -> Vec<&Draw> {
        let filter: crate::frame::Filter = "dumped".parse().unwrap();
        frame.draws.iter().filter(|d| filter.matches(d)).collect()
    }

    /// The same draws in the opposite order give the same files: each set of identical
    /// draws is written under its first draw's name (the reversed jobs reach its last draw
    /// first, so the set is settled after the jobs), and the others name that file. Without
    /// `overwrite`, a first draw's file that exists keeps the set on the file it has.
    #[test]
    fn identical_draws_name_the_first_ones_file_whatever_the_job_order() {
        let root = tempfile::tempdir().unwrap();
        let frame = generated(root.path(), 12, 3, 24);
        let draws = dumped(&frame);
        let mut written_first = Vec::new();
        // A `.gltf` has its `.bin` beside it: a set settled late leaves neither of the later
        // draw's files.
        for (kind, per_draw) in [(FileKind::Gltf, 2), (FileKind::Glb, 1)] {
            let bo = BatchOptions {
                jobs: 1,
                overwrite: true,
                kind,
                ..BatchOptions::default()
            };
            let (out1, out2) = (
                root.path().join(format!("fwd-{kind}")),
                root.path().join(format!("rev-{kind}")),
            );
            let fwd = export_draws(&frame, &draws, &out1, &bo, &|_| {}).unwrap();
            let reverse: Vec<usize> = (0..draws.len()).rev().collect();
            let rev = export_in_order(&frame, &draws, &reverse, &out2, &bo, &|_| {}).unwrap();
            let (w, same, failed) = fwd.counts();
            assert!(w >= 2 && same >= 2 && failed == 0, "{:?}", fwd.counts());
            assert_eq!(rev.counts(), fwd.counts());
            assert_eq!(rev.bytes_written, fwd.bytes_written);
            // Draw for draw: the same outcome with the folder swapped.
            let swap = |p: &Path| out1.join(p.file_name().unwrap());
            for (a, b) in fwd.draws.iter().zip(&rev.draws) {
                assert_eq!(a.draw, b.draw);
                match (&a.outcome, &b.outcome) {
                    (Outcome::Written { path: p, .. }, Outcome::Written { path: q, .. })
                    | (Outcome::Same { path: p }, Outcome::Same { path: q }) => {
                        assert_eq!(*p, swap(q), "draw {}", a.draw)
                    }
                    other => panic!("draw {}: {other:?}", a.draw),
                }
            }
            // Every set's file is its first draw's; no file of a later draw is left.
            written_first.clear();
            for (k, d) in fwd.draws.iter().enumerate() {
                if let Outcome::Same { path } = &d.outcome {
                    let owner = fwd
                        .draws
                        .iter()
                        .position(
                            |e| matches!(&e.outcome, Outcome::Written { path: p, .. } if p == path),
                        )
                        .unwrap();
                    assert!(owner < k);
                    written_first.push(owner);
                }
            }
            assert!(!written_first.is_empty());
            let listed = files_in(&out1);
            assert_eq!(listed, files_in(&out2), "{kind}");
            assert_eq!(listed.len(), w * per_draw, "{kind}");
        }
        let reverse: Vec<usize> = (0..draws.len()).rev().collect();
        let bo = BatchOptions {
            jobs: 1,
            overwrite: true,
            ..BatchOptions::default()
        };
        let fwd_counts = export_draws(&frame, &draws, &root.path().join("again"), &bo, &|_| {})
            .unwrap()
            .counts();

        // Without overwrite: the first draw of a set already has a file (not ours).
        let out3 = root.path().join("kept");
        fs::create_dir_all(&out3).unwrap();
        let first = written_first[0];
        let taken = out3.join(file_name(draws[first], bo.kind));
        fs::write(&taken, b"someone else's").unwrap();
        let keep = BatchOptions {
            overwrite: false,
            ..bo.clone()
        };
        let kept = export_in_order(&frame, &draws, &reverse, &out3, &keep, &|_| {}).unwrap();
        assert_eq!(fs::read(&taken).unwrap(), b"someone else's");
        match &kept.draws[first].outcome {
            Outcome::Same { path } => {
                assert_ne!(*path, taken);
                assert!(path.exists());
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(kept.counts(), fwd_counts);
    }

    /// New files are written in place and existing ones refused without `overwrite` (the
    /// file named, left as it was, and a `.gltf`'s `.bin` checked too, nothing of the draw
    /// left behind); with `overwrite` an existing file is replaced by the complete new one.
    /// No `.part` file is left either way.
    #[test]
    fn existing_files_are_refused_or_replaced_whole() {
        let root = tempfile::tempdir().unwrap();
        let frame = generated(root.path(), 4, 4, 16);
        let draws = dumped(&frame);
        assert_eq!(draws.len(), 4);
        for kind in [FileKind::Glb, FileKind::Gltf] {
            let keep = BatchOptions {
                jobs: 2,
                kind,
                ..BatchOptions::default()
            };
            let out = root.path().join(format!("out-{kind}"));
            let fresh = export_draws(&frame, &draws, &out, &keep, &|_| {}).unwrap();
            assert_eq!(fresh.counts(), (4, 0, 0), "{kind}");
            let expected = files_in(&out);
            let per_draw = if kind == FileKind::Gltf { 2 } else { 1 };
            assert_eq!(expected.len(), 4 * per_draw, "{kind}: {expected:?}");

            // Again without overwrite: every draw refused, naming its file; nothing changed.
            let again = export_draws(&frame, &draws, &out, &keep, &|_| {}).unwrap();
            for (d, r) in draws.iter().zip(&again.draws) {
                let file = out.join(file_name(d, kind)).display().to_string();
                let want = Outcome::Failed {
                    file,
                    reason: "exists (replace with --force)".into(),
                };
                assert_eq!(r.outcome, want, "{kind}");
            }
            assert_eq!(files_in(&out), expected, "{kind}");

            // Overwrite replaces a changed file (and only the draw's own files) whole.
            let first = out.join(file_name(draws[0], kind));
            fs::write(&first, b"old").unwrap();
            let force = BatchOptions {
                overwrite: true,
                ..keep.clone()
            };
            let forced = export_draws(&frame, &draws, &out, &force, &|_| {}).unwrap();
            assert_eq!(forced.counts(), (4, 0, 0), "{kind}");
            assert_eq!(files_in(&out), expected, "{kind}");
        }
        // A `.gltf` export whose `.bin` alone is there: refused naming the `.bin`, and the
        // `.gltf` it would have written is not left behind.
        let out = root.path().join("bin-only");
        fs::create_dir_all(&out).unwrap();
        let bin = out
            .join(file_name(draws[0], FileKind::Gltf))
            .with_extension("bin");
        fs::write(&bin, b"not ours").unwrap();
        let keep = BatchOptions {
            jobs: 1,
            kind: FileKind::Gltf,
            ..BatchOptions::default()
        };
        let r = export_draws(&frame, &draws[..1], &out, &keep, &|_| {}).unwrap();
        let want = Outcome::Failed {
            file: bin.display().to_string(),
            reason: "exists (replace with --force)".into(),
        };
        assert_eq!(r.draws[0].outcome, want);
        let left = files_in(&out);
        assert_eq!(
            left,
            vec![(
                bin.file_name().unwrap().to_string_lossy().into_owned(),
                b"not ours".to_vec()
            )]
        );
    }

    /// The digest tells apart inputs that differ in one bit anywhere (each lane of a block,
    /// the words after the blocks, the last partial word), in length alone (trailing zero
    /// bytes), or in the order of two blocks; equal inputs digest equal.
    #[test]
    fn digests_tell_inputs_apart() {
        let of = |b: &[u8]| {
            let mut d = Digest::new();
            d.bytes(b);
            d.0
        };
        for len in [0usize, 1, 7, 8, 31, 32, 33, 64, 95, 100, 1000] {
            let base: Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
            assert_eq!(of(&base), of(&base.clone()));
            let mut seen = std::collections::HashSet::new();
            assert!(seen.insert(of(&base)));
            for i in 0..len {
                for bit in [0, 3, 7] {
                    let mut v = base.clone();
                    v[i] ^= 1 << bit;
                    assert!(seen.insert(of(&v)), "len {len} byte {i} bit {bit}");
                }
            }
            let mut longer = base.clone();
            longer.push(0);
            assert!(seen.insert(of(&longer)), "len {len} + a zero byte");
            if len >= 64 {
                let mut swapped = base.clone();
                let (a, b) = swapped.split_at_mut(32);
                a.swap_with_slice(&mut b[..32]);
                assert!(seen.insert(of(&swapped)), "len {len}: two blocks swapped");
            }
        }
    }

    /// Jobs whose takes do not fit together run one after another and all finish (the
    /// waiting ones are woken); a take larger than the limit runs alone.
    #[test]
    fn the_budget_holds_jobs_back_and_wakes_them() {
        let budget = Budget {
            used: Mutex::new((0, 0)),
            freed: Condvar::new(),
            limit: 10,
        };
        let (running, most, done) = (
            AtomicUsize::new(0),
            AtomicUsize::new(0),
            AtomicUsize::new(0),
        );
        std::thread::scope(|s| {
            for t in 0..8 {
                let (budget, running, most, done) = (&budget, &running, &most, &done);
                s.spawn(move || {
                    for _ in 0..20 {
                        let held = budget.take(if t == 0 { 25 } else { 6 });
                        let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        std::thread::yield_now();
                        running.fetch_sub(1, Ordering::SeqCst);
                        budget.give(held);
                        done.fetch_add(1, Ordering::SeqCst);
                    }
                });
            }
        });
        assert_eq!(done.into_inner(), 160);
        assert_eq!(most.into_inner(), 1);
        assert_eq!(*budget.used.lock().unwrap(), (0, 0));
    }
}
