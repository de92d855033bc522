//! A generator of frame-analysis folders as 3DMigoto writes them, for tests and benchmarks
//! (no real frame is shipped: frames are third-party data).
//!
//! [`generate`] writes `log.txt`, per-draw vb/ib text and binary dumps, constant-buffer and
//! texture dumps, and — by [`Dedupe`] — a `deduped/` folder with hard links, symbolic links or
//! `.lnk` shortcuts to it, plain copies, or the pre-2018 layout-less text. The text follows
//! `FrameAnalysis.cpp` line for line: `DumpVBTxt` headers and `element[i]` blocks, `%.9g`
//! values (appended elements printed from offset 0, as 3DMigoto does), `DumpIBTxt`'s grouping,
//! the `Dumping Buffer A -> B` log lines, `%u` for DrawIndexed's BaseVertexLocation. Draws
//! reuse a set of meshes (several layouts: one slot, three slots with blend data, packed
//! formats with `append` offsets and a triangle strip, per-instance data), so identical draws
//! occur as in a real frame; dispatches, `hold` numbers, a deferred context, both name orders,
//! contamination marks and handles are options. [`SynthReport`] tells what was written, so
//! tests can compare an index against the truth.

#![forbid(unsafe_code)]

use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::name::{DumpName, Register, Shaders, format_dump_name};
use crate::assembler::Topology;
use crate::buffer::IndexFormat;
use crate::element::{APPEND_ALIGNED_ELEMENT, INPUT_PER_INSTANCE_DATA, InputElementDesc};
use crate::format::Format;

/// How the dumps are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dedupe {
    /// `deduped/` holds each distinct file once; the per-draw names are hard links to it
    /// (3DMigoto's default on NTFS).
    HardLinks,
    /// The per-draw names are relative symbolic links (`symlink` option).
    Symlinks,
    /// The per-draw names are Windows shortcuts `NAME.lnk` (where hard links failed); the
    /// log's `Dumping Buffer` lines tell what they stand for.
    Shortcuts,
    /// Per-draw files are plain copies and `deduped/` is absent (a folder copied without it).
    Copies,
    /// 3DMigoto before de-duplication (2018): no `deduped/`, no `Dumping Buffer` lines, and
    /// vb text dumps without the layout (raw `vbN[i]+OFF: 0xHEX FLOAT` lines).
    Legacy,
}

/// What to generate.
#[derive(Clone, Debug)]
pub struct SynthOptions {
    /// Draw calls (dispatches come on top, one per 16 draws when `dispatches`).
    pub draws: u32,
    /// Distinct meshes the draws use (draws beyond this repeat meshes).
    pub meshes: u32,
    /// Vertices per mesh (each mesh varies around it).
    pub vertices: u32,
    /// Seed of the pseudo-random values.
    pub seed: u64,
    /// Write text dumps (`txt` option).
    pub txt: bool,
    /// Write binary dumps (`buf` option).
    pub buf: bool,
    /// How files are stored.
    pub dedupe: Dedupe,
    /// Register-first names (`filename_reg` option).
    pub register_first: bool,
    /// `hold` frame number prefix.
    pub hold: Option<u32>,
    /// Also write a deferred context's log and folder.
    pub deferred: bool,
    /// Interleave compute dispatches (with `cs-cb0` dumps).
    pub dispatches: bool,
    /// Mark some hashes contaminated and give some a handle.
    pub marks: bool,
    /// Make a few draws' files disagree with their log lines (see [`SynthReport::problems`]).
    pub problems: bool,
    /// Hash salt: a different salt gives every resource a new hash (a "game patch").
    pub salt: u32,
    /// A patch that also changes a layout: the one-slot meshes store TEXCOORD as
    /// R16G16_FLOAT instead of R32G32_FLOAT (same stride).
    pub layout_change: bool,
    /// Dump vertex buffers (`dump_vb` option); without it only the log knows them.
    pub dump_vb: bool,
    /// Dump index buffers (`dump_ib` option).
    pub dump_ib: bool,
    /// Draw the packed meshes through a geometry shader (`-gs=` in their names,
    /// `GSSetShader` in the log).
    pub geometry_shader: bool,
}

impl Default for SynthOptions {
    fn default() -> Self {
        SynthOptions {
            draws: 40,
            meshes: 12,
            vertices: 60,
            seed: 1,
            txt: true,
            buf: true,
            dedupe: Dedupe::HardLinks,
            register_first: false,
            hold: None,
            deferred: false,
            dispatches: true,
            marks: false,
            problems: false,
            salt: 0,
            layout_change: false,
            dump_vb: true,
            dump_ib: true,
            geometry_shader: false,
        }
    }
}

/// What one `analyse_options` word sets in [`SynthOptions`].
pub type SetOption = fn(&mut SynthOptions);

/// The `analyse_options` words (3DMigoto's `d3dx.ini` spelling) the generator follows, each
/// with what it sets: `dump_vb`, `dump_ib` (which buffers are dumped), `txt`, `buf` (text
/// and binary dumps), `dump_vb_txt`/`dump_ib_txt` (both), `filename_reg` (register-first
/// names), `hold` (frame-number prefix, frame 1), `symlink` (symbolic links to `deduped/`),
/// `deferred_ctx_immediate` (a deferred context's log and folder too). A list replaces the
/// defaults of the options it can name (`dump_vb dump_ib txt buf`).
pub const ANALYSE_OPTIONS: [(&str, SetOption); 10] = [
    ("dump_vb", |o| o.dump_vb = true),
    ("dump_ib", |o| o.dump_ib = true),
    ("txt", |o| o.txt = true),
    ("buf", |o| o.buf = true),
    ("dump_vb_txt", |o| {
        o.dump_vb = true;
        o.txt = true
    }),
    ("dump_ib_txt", |o| {
        o.dump_ib = true;
        o.txt = true
    }),
    ("filename_reg", |o| o.register_first = true),
    ("hold", |o| o.hold = Some(1)),
    ("symlink", |o| o.dedupe = Dedupe::Symlinks),
    ("deferred_ctx_immediate", |o| o.deferred = true),
];

impl SynthOptions {
    /// These options with an `analyse_options` list applied (words separated by spaces or
    /// commas, see [`ANALYSE_OPTIONS`]); an unknown word is an error naming it.
    pub fn with_analyse_options(mut self, words: &str) -> Result<Self, String> {
        self.dump_vb = false;
        self.dump_ib = false;
        self.txt = false;
        self.buf = false;
        for w in words.split([' ', ',']).filter(|w| !w.is_empty()) {
            let (_, set) = ANALYSE_OPTIONS
                .iter()
                .find(|(name, _)| name.eq_ignore_ascii_case(w))
                .ok_or_else(|| {
                    let names: Vec<&str> = ANALYSE_OPTIONS.iter().map(|(n, _)| *n).collect();
                    format!("analyse option {w:?}: expected one of {}", names.join(", "))
                })?;
            set(&mut self);
        }
        if !self.txt && !self.buf {
            // 3DMigoto dumps buffers as text when neither format is named.
            self.txt = true;
        }
        Ok(self)
    }
}

/// One draw as generated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SynthDraw {
    /// Draw number.
    pub number: u32,
    /// Deferred context, if any.
    pub context: Option<u64>,
    /// The mesh it draws.
    pub mesh: u32,
    /// The API call as logged.
    pub call: String,
    /// vb hashes by slot.
    pub vb_hashes: Vec<(u32, u32)>,
    /// ib hash.
    pub ib_hash: Option<u32>,
    /// VS and PS hashes (CS for a dispatch).
    pub shaders: Shaders,
    /// The layout.
    pub elements: Vec<InputElementDesc>,
    /// Whether a disagreement was planted.
    pub problem: Option<String>,
}

/// What [`generate`] wrote.
#[derive(Clone, Debug, Default)]
pub struct SynthReport {
    /// Every draw and dispatch, in order.
    pub draws: Vec<SynthDraw>,
    /// Bytes written (files, not counting links).
    pub bytes: u64,
    /// Files and links written.
    pub files: usize,
}

impl SynthReport {
    /// Numbers of the draws with a planted disagreement.
    pub fn problems(&self) -> Vec<u32> {
        self.draws
            .iter()
            .filter(|d| d.problem.is_some())
            .map(|d| d.number)
            .collect()
    }
}

/// xorshift64*.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// FNV-1a, the stand-in for 3DMigoto's resource and content hashes.
fn fnv(bytes: &[u8], salt: u32) -> u32 {
    let mut h: u32 = 0x811c_9dc5 ^ salt.wrapping_mul(0x9e37_79b9);
    for &b in bytes {
        h ^= b as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

/// C's `%.9g` of a double (what 3DMigoto's text dumps print; MSVC's exponent has at least
/// two digits).
pub fn g9(x: f64) -> String {
    if x.is_nan() {
        return if x.is_sign_negative() {
            "-1.#QNAN".into()
        } else {
            "1.#QNAN".into()
        };
    }
    if x.is_infinite() {
        return if x < 0.0 {
            "-1.#INF".into()
        } else {
            "1.#INF".into()
        };
    }
    if x == 0.0 {
        return if x.is_sign_negative() {
            "-0".into()
        } else {
            "0".into()
        };
    }
    let e = format!("{x:.8e}");
    let (mant, exp) = e.split_once('e').expect("{:e} has an e");
    let exp: i32 = exp.parse().expect("exponent");
    let strip = |s: &str| -> String {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s.to_string()
        }
    };
    if !(-4..9).contains(&exp) {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{}e{sign}{:02}", strip(mant), exp.abs())
    } else {
        let decimals = (8 - exp).max(0) as usize;
        strip(&format!("{x:.decimals$}"))
    }
}

/// A mesh's layout family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Family {
    /// One slot, 48 bytes, R16 indices, triangle list.
    Simple,
    /// Three slots as GIMI characters have (40 / 32 / 12 bytes), R32 indices.
    Character,
    /// Packed formats with `append` offsets, a non-indexed triangle strip.
    Packed,
    /// Per-vertex slot 0 and a per-instance slot 1, DrawIndexedInstanced.
    Instanced,
}

const FAMILIES: [Family; 4] = [
    Family::Simple,
    Family::Character,
    Family::Packed,
    Family::Instanced,
];

fn el(name: &str, index: u32, format: Format, slot: u32, offset: u32) -> InputElementDesc {
    InputElementDesc::per_vertex(name, index, format, slot, offset)
}

impl Family {
    fn elements(self, changed: bool) -> Vec<InputElementDesc> {
        let a = APPEND_ALIGNED_ELEMENT;
        match self {
            Family::Simple => vec![
                el("POSITION", 0, Format::R32G32B32_FLOAT, 0, 0),
                el("NORMAL", 0, Format::R32G32B32_FLOAT, 0, 12),
                el("TANGENT", 0, Format::R32G32B32A32_FLOAT, 0, 24),
                el(
                    "TEXCOORD",
                    0,
                    if changed {
                        Format::R16G16_FLOAT
                    } else {
                        Format::R32G32_FLOAT
                    },
                    0,
                    40,
                ),
            ],
            Family::Character => vec![
                el("POSITION", 0, Format::R32G32B32_FLOAT, 0, 0),
                el("NORMAL", 0, Format::R32G32B32_FLOAT, 0, 12),
                el("TANGENT", 0, Format::R32G32B32A32_FLOAT, 0, 24),
                el("BLENDWEIGHT", 0, Format::R32G32B32A32_FLOAT, 1, 0),
                el("BLENDINDICES", 0, Format::R32G32B32A32_SINT, 1, 16),
                el("COLOR", 0, Format::R8G8B8A8_UNORM, 2, 0),
                el("TEXCOORD", 0, Format::R32G32_FLOAT, 2, 4),
            ],
            Family::Packed => vec![
                el("POSITION", 0, Format::R16G16B16A16_FLOAT, 0, 0),
                el("NORMAL", 0, Format::R8G8B8A8_SNORM, 0, a),
                el("TEXCOORD", 0, Format::R16G16_FLOAT, 0, a),
                el("COLOR", 0, Format::R8G8B8A8_UNORM, 0, a),
            ],
            Family::Instanced => {
                let mut i = el("TEXCOORD", 1, Format::R32G32B32A32_FLOAT, 1, 0);
                i.input_slot_class = INPUT_PER_INSTANCE_DATA;
                i.instance_data_step_rate = 1;
                vec![
                    el("POSITION", 0, Format::R32G32B32_FLOAT, 0, 0),
                    el("COLOR", 0, Format::R8G8B8A8_UNORM, 0, 12),
                    i,
                ]
            }
        }
    }

    fn strides(self) -> &'static [(u32, u32)] {
        match self {
            Family::Simple => &[(0, 48)],
            Family::Character => &[(0, 40), (1, 32), (2, 12)],
            Family::Packed => &[(0, 20)],
            Family::Instanced => &[(0, 16), (1, 16)],
        }
    }

    fn index_format(self) -> Option<IndexFormat> {
        match self {
            Family::Simple | Family::Instanced => Some(IndexFormat::R16Uint),
            Family::Character => Some(IndexFormat::R32Uint),
            Family::Packed => None,
        }
    }

    fn topology(self) -> Topology {
        match self {
            Family::Packed => Topology::TriangleStrip,
            _ => Topology::TriangleList,
        }
    }
}

/// A mesh: buffers per slot, indices, counts.
struct Mesh {
    family: Family,
    elements: Vec<InputElementDesc>,
    /// (slot, stride, bytes, resource hash).
    slots: Vec<(u32, u32, Vec<u8>, u32)>,
    /// (format, bytes, resource hash).
    ib: Option<(IndexFormat, Vec<u8>, u32)>,
    vertices: u32,
    indices: u32,
    instances: u32,
    /// Largest index + 1 (3DMigoto's vertex count of an indexed dump).
    max_index: u32,
    vs: u64,
    ps: u64,
    /// Geometry shader, if the mesh is drawn through one.
    gs: Option<u64>,
}

fn put_value(out: &mut Vec<u8>, f: Format, rng: &mut Rng, slot_kind: u32) {
    match f {
        Format::R32G32B32_FLOAT | Format::R32G32B32A32_FLOAT | Format::R32G32_FLOAT => {
            let n = f.info().map_or(0, |i| i.byte_size() as usize / 4);
            for c in 0..n {
                let v = if slot_kind == 1 && c == 3 {
                    1.0
                } else {
                    rng.unit() * 2.0 - 1.0
                };
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        Format::R32G32B32A32_SINT => {
            for _ in 0..4 {
                out.extend_from_slice(&(rng.below(200) as i32).to_le_bytes());
            }
        }
        Format::R8G8B8A8_UNORM => {
            for _ in 0..4 {
                out.push(rng.below(256) as u8);
            }
        }
        Format::R8G8B8A8_SNORM => {
            for _ in 0..4 {
                // -128 reads as -1 in D3D and as -1.0078… in 3DMigoto's print; keep clear.
                out.push((rng.below(255) as i32 - 127) as i8 as u8);
            }
        }
        Format::R16G16_FLOAT | Format::R16G16B16A16_FLOAT => {
            let n = f.info().map_or(0, |i| i.byte_size() as usize / 2);
            for _ in 0..n {
                let h = half::f16::from_f32(rng.unit() * 4.0 - 2.0);
                out.extend_from_slice(&h.to_bits().to_le_bytes());
            }
        }
        _ => {
            let n = f.info().map_or(4, |i| i.byte_size() as usize);
            for _ in 0..n {
                out.push(rng.below(256) as u8);
            }
        }
    }
}

fn make_mesh(i: u32, o: &SynthOptions) -> Mesh {
    let mut rng = Rng(o.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ ((i as u64 + 1) * 0x1234_5678_9abc_def1)
        | 1);
    let family = FAMILIES[(i as usize) % FAMILIES.len()];
    let elements = family.elements(o.layout_change);
    let vertices = (o.vertices / 2 + rng.below(o.vertices as u64 + 1) as u32).max(4);
    let instances = if family == Family::Instanced { 3 } else { 1 };
    let created =
        crate::validation::layout_without_shader(&crate::target::Target::default(), &elements);
    let offsets: Vec<u32> = created
        .layout
        .as_ref()
        .map(|l| l.elements().iter().map(|e| e.offset).collect())
        .unwrap_or_default();
    let mut slots = Vec::new();
    for &(slot, stride) in family.strides() {
        let rows = if elements
            .iter()
            .any(|e| e.input_slot == slot && e.input_slot_class == INPUT_PER_INSTANCE_DATA)
        {
            instances
        } else {
            vertices
        };
        let mut bytes = Vec::with_capacity((rows * stride) as usize);
        for _ in 0..rows {
            let start = bytes.len();
            for (k, e) in elements
                .iter()
                .enumerate()
                .filter(|(_, e)| e.input_slot == slot)
            {
                let want = start + offsets.get(k).copied().unwrap_or(0) as usize;
                bytes.resize(want.max(bytes.len()), 0);
                put_value(
                    &mut bytes,
                    e.format,
                    &mut rng,
                    u32::from(e.name() == Some("TANGENT")),
                );
            }
            bytes.resize(start + stride as usize, 0);
        }
        let hash = fnv(&bytes, o.salt ^ slot);
        slots.push((slot, stride, bytes, hash));
    }
    let (ib, indices, max_index) = match family.index_format() {
        Some(fmt) => {
            let tris = vertices; // vertices triangles' worth of indices
            let mut b = Vec::new();
            let mut max = 0;
            for _ in 0..tris * 3 {
                let v = rng.below(vertices as u64) as u32;
                max = max.max(v);
                match fmt {
                    IndexFormat::R16Uint => b.extend_from_slice(&(v as u16).to_le_bytes()),
                    IndexFormat::R32Uint => b.extend_from_slice(&v.to_le_bytes()),
                }
            }
            let h = fnv(&b, o.salt ^ 0x1b);
            (Some((fmt, b, h)), tris * 3, max + 1)
        }
        None => (None, 0, 0),
    };
    let vs = (fnv(&i.to_le_bytes(), o.salt ^ 0x55) as u64) << 32 | fnv(b"vs", i) as u64;
    let ps = (fnv(&i.to_le_bytes(), o.salt ^ 0x77) as u64) << 32 | fnv(b"ps", i) as u64;
    let gs = (o.geometry_shader && family == Family::Packed)
        .then(|| (fnv(&i.to_le_bytes(), o.salt ^ 0x99) as u64) << 32 | fnv(b"gs", i) as u64);
    Mesh {
        gs,
        family,
        elements,
        slots,
        ib,
        vertices,
        indices,
        instances,
        max_index,
        vs,
        ps,
    }
}

/// Where the frame's files go and how they are linked.
struct Writer<'a> {
    root: &'a Path,
    o: &'a SynthOptions,
    report: SynthReport,
    /// Windows path 3DMigoto would have logged for the root.
    win_root: String,
}

impl Writer<'_> {
    fn write_file(&mut self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        if let Some(p) = path.parent() {
            fs::create_dir_all(p)?;
        }
        let mut f = BufWriter::with_capacity(1 << 16, fs::File::create(path)?);
        f.write_all(bytes)?;
        f.flush()?;
        self.report.bytes += bytes.len() as u64;
        self.report.files += 1;
        Ok(())
    }

    /// Writes a dump under its per-draw name `dir/name`, the way the options say; returns the
    /// `Dumping Buffer` log line's right-hand side (the saved file's Windows path).
    fn dump(&mut self, dir: &Path, name: &str, saved: &str, bytes: &[u8]) -> io::Result<String> {
        let per_draw = dir.join(name);
        let deduped_dir = self.root.join("deduped");
        let win_saved = format!("{}\\deduped\\{saved}", self.win_root);
        match self.o.dedupe {
            Dedupe::Copies | Dedupe::Legacy => {
                self.write_file(&per_draw, bytes)?;
            }
            Dedupe::HardLinks | Dedupe::Symlinks | Dedupe::Shortcuts => {
                let target = deduped_dir.join(saved);
                if !target.exists() {
                    self.write_file(&target, bytes)?;
                }
                match self.o.dedupe {
                    Dedupe::HardLinks => {
                        if fs::hard_link(&target, &per_draw).is_err() {
                            // A file system without hard links: 3DMigoto's last resort too.
                            self.write_file(&per_draw, bytes)?;
                        }
                    }
                    Dedupe::Symlinks => {
                        let rel = if dir == self.root {
                            PathBuf::from("deduped").join(saved)
                        } else {
                            PathBuf::from("..").join("deduped").join(saved)
                        };
                        #[cfg(unix)]
                        std::os::unix::fs::symlink(&rel, &per_draw)?;
                        #[cfg(not(unix))]
                        {
                            let _ = rel;
                            self.write_file(&per_draw, bytes)?;
                        }
                    }
                    _ => {
                        // A shell link's header (not a working shortcut; readers use the log).
                        let mut lnk = vec![0x4c, 0, 0, 0, 0x01, 0x14, 0x02, 0];
                        lnk.extend_from_slice(win_saved.as_bytes());
                        self.write_file(&dir.join(format!("{name}.lnk")), &lnk)?;
                    }
                }
                self.report.files += 1;
            }
        }
        Ok(win_saved)
    }
}

fn topo_str(t: Topology) -> &'static str {
    match t {
        Topology::TriangleStrip => "trianglestrip",
        Topology::LineList => "linelist",
        Topology::PointList => "pointlist",
        _ => "trianglelist",
    }
}

/// The printed value of element `e` at `bytes` (3DMigoto's `fprint_dxgi_format` for the
/// formats the generator uses).
fn print_element(out: &mut String, f: Format, b: &[u8]) {
    let word = |i: usize| u32::from_le_bytes(b[i * 4..i * 4 + 4].try_into().expect("4 bytes"));
    let list: Vec<String> = match f {
        Format::R32G32B32A32_FLOAT | Format::R32G32B32_FLOAT | Format::R32G32_FLOAT => {
            let n = f.info().map_or(0, |i| i.byte_size() as usize / 4);
            (0..n).map(|i| g9(f32::from_bits(word(i)) as f64)).collect()
        }
        Format::R32G32B32A32_SINT => (0..4).map(|i| (word(i) as i32).to_string()).collect(),
        Format::R8G8B8A8_UNORM => b[..4]
            .iter()
            .map(|&v| g9((v as f32 / 255.0) as f64))
            .collect(),
        Format::R8G8B8A8_SNORM => b[..4]
            .iter()
            .map(|&v| g9((v as i8 as f32 / 127.0) as f64))
            .collect(),
        Format::R16G16_FLOAT | Format::R16G16B16A16_FLOAT => {
            let n = f.info().map_or(0, |i| i.byte_size() as usize / 2);
            (0..n)
                .map(|i| {
                    let h = u16::from_le_bytes([b[i * 2], b[i * 2 + 1]]);
                    g9(half::f16::from_bits(h).to_f32() as f64)
                })
                .collect()
        }
        _ => vec![b.iter().map(|v| format!("{v:02x}")).collect()],
    };
    out.push_str(&list.join(", "));
}

/// `DumpVBTxt` for one slot.
#[allow(clippy::too_many_arguments)]
fn vb_txt(
    m: &Mesh,
    slot: u32,
    stride: u32,
    data: &[u8],
    first: u32,
    count: u32,
    first_inst: u32,
    inst_count: u32,
    legacy: bool,
) -> String {
    let mut s = String::new();
    s.push_str(&format!("stride: {stride}\n"));
    if first != 0 || count != 0 {
        s.push_str(&format!("first vertex: {first}\nvertex count: {count}\n"));
    }
    if legacy {
        let start = first as u64;
        let end = (data.len() as u64 / stride as u64).min(start + count as u64);
        for v in start..end {
            s.push('\n');
            for j in 0..stride / 4 {
                let at = (v * stride as u64) as usize + j as usize * 4;
                let w = u32::from_le_bytes(data[at..at + 4].try_into().expect("4"));
                s.push_str(&format!(
                    "vb{slot}[{}]+{:03}: 0x{w:08x} {}\n",
                    v - start,
                    j * 4,
                    g9(f32::from_bits(w) as f64)
                ));
            }
        }
        return s;
    }
    if first_inst != 0 || inst_count != 0 {
        s.push_str(&format!(
            "first instance: {first_inst}\ninstance count: {inst_count}\n"
        ));
    }
    s.push_str(&format!("topology: {}\n", topo_str(m.family.topology())));
    let (mut per_vert, mut per_inst) = (false, false);
    for (i, e) in m.elements.iter().enumerate() {
        s.push_str(&format!("element[{i}]:\n"));
        s.push_str(&format!("  SemanticName: {}\n", e.name().unwrap_or("")));
        s.push_str(&format!("  SemanticIndex: {}\n", e.semantic_index));
        s.push_str(&format!("  Format: {}\n", e.format));
        s.push_str(&format!("  InputSlot: {}\n", e.input_slot));
        if e.aligned_byte_offset == APPEND_ALIGNED_ELEMENT {
            s.push_str("  AlignedByteOffset: append\n");
        } else {
            s.push_str(&format!("  AlignedByteOffset: {}\n", e.aligned_byte_offset));
        }
        if e.input_slot_class == INPUT_PER_INSTANCE_DATA {
            s.push_str("  InputSlotClass: per-instance\n");
            per_inst |= e.input_slot == slot;
        } else {
            s.push_str("  InputSlotClass: per-vertex\n");
            per_vert |= e.input_slot == slot;
        }
        s.push_str(&format!(
            "  InstanceDataStepRate: {}\n",
            e.instance_data_step_rate
        ));
    }
    let rows = data.len() as u64 / stride as u64;
    let print_rows = |s: &mut String, start: u64, n: u32, class: u32| {
        let end = rows.min(start + n as u64);
        for v in start..end {
            s.push('\n');
            for e in m
                .elements
                .iter()
                .filter(|e| e.input_slot == slot && e.input_slot_class == class)
            {
                // 3DMigoto reads an appended element at offset 0.
                let off = if e.aligned_byte_offset == APPEND_ALIGNED_ELEMENT {
                    0
                } else {
                    e.aligned_byte_offset
                };
                let at = (v * stride as u64) as usize + off as usize;
                let size = e.format.info().map_or(4, |i| i.byte_size() as usize);
                s.push_str(&format!(
                    "vb{slot}[{}]+{off:03} {}",
                    v - start,
                    e.name().unwrap_or("")
                ));
                if e.semantic_index != 0 {
                    s.push_str(&e.semantic_index.to_string());
                }
                s.push_str(": ");
                if at + size <= data.len() {
                    print_element(s, e.format, &data[at..at + size]);
                }
                s.push('\n');
            }
        }
    };
    if per_vert {
        s.push_str("\nvertex-data:\n");
        print_rows(&mut s, first as u64, count, 0);
    }
    if per_inst {
        s.push_str("\ninstance-data:\n");
        print_rows(
            &mut s,
            first_inst as u64,
            inst_count,
            INPUT_PER_INSTANCE_DATA,
        );
    }
    s
}

/// `DumpIBTxt`.
fn ib_txt(fmt: IndexFormat, data: &[u8], first: u32, count: u32, topology: Topology) -> String {
    let mut s = String::from("byte offset: 0\n");
    if first != 0 || count != 0 {
        s.push_str(&format!("first index: {first}\nindex count: {count}\n"));
    }
    s.push_str(&format!("topology: {}\n", topo_str(topology)));
    s.push_str(&format!("format: DXGI_FORMAT_{}\n", fmt.format()));
    let grouping = match topology {
        Topology::TriangleList => 3,
        Topology::LineList => 2,
        _ => 1,
    };
    let size = fmt.size() as usize;
    let total = data.len() / size;
    let end = total.min(first as usize + count as usize);
    for (k, i) in (first as usize..end).enumerate() {
        s.push(if k % grouping == 0 { '\n' } else { ' ' });
        let v = match fmt {
            IndexFormat::R16Uint => u16::from_le_bytes([data[i * 2], data[i * 2 + 1]]) as u32,
            IndexFormat::R32Uint => {
                u32::from_le_bytes(data[i * 4..i * 4 + 4].try_into().expect("4"))
            }
        };
        s.push_str(&v.to_string());
    }
    s.push('\n');
    s
}

/// Writes a frame-analysis folder at `dir` (created; it should be empty).
pub fn generate(dir: &Path, o: &SynthOptions) -> io::Result<SynthReport> {
    fs::create_dir_all(dir)?;
    // Meshes are made when drawn (each from its number alone), not all held at once: a
    // frame of gigabytes is written in the memory of one mesh.
    let meshes = o.meshes.max(1);
    let mut w = Writer {
        root: dir,
        o,
        report: SynthReport::default(),
        win_root: "C:\\Games\\Game\\FrameAnalysis-2024-05-01-120000".into(),
    };
    let options: u32 = if o.dump_vb { 0x10 } else { 0 }
        | if o.dump_ib { 0x20 } else { 0 }
        | if o.txt { 0x400 } else { 0 }
        | if o.buf { 0x200 } else { 0 }
        | if o.register_first { 0x2000 } else { 0 }
        | if o.hold.is_some() { 0x40000 } else { 0 }
        | if o.dedupe == Dedupe::Symlinks {
            0x0100_0000
        } else {
            0
        };
    let mut log = format!("analyse_options: {options:08x}\n");
    write_context(&mut w, meshes, dir, None, o.draws, &mut log)?;
    w.write_file(&dir.join("log.txt"), log.as_bytes())?;
    if o.deferred {
        let ctx: u64 = 0x0000_01F2_A3B4_C5D0;
        let sub = dir.join(format!("ctx-0x{ctx:016X}"));
        fs::create_dir_all(&sub)?;
        let mut log = format!("analyse_options: {options:08x}\n");
        write_context(
            &mut w,
            meshes,
            &sub,
            Some(ctx),
            (o.draws / 8).max(2),
            &mut log,
        )?;
        w.write_file(&dir.join(format!("log-0x{ctx:016X}.txt")), log.as_bytes())?;
    }
    Ok(w.report)
}

fn write_context(
    w: &mut Writer<'_>,
    meshes: u32,
    dir: &Path,
    context: Option<u64>,
    draws: u32,
    log: &mut String,
) -> io::Result<()> {
    let o = w.o;
    let mut rng = Rng(o.seed ^ 0xabcdef ^ context.unwrap_or(0) | 1);
    let mut number: u32 = 1;
    let prefix = |n: u32| match o.hold {
        Some(f) => format!("{f}.{n:06} "),
        None => format!("{n:06} "),
    };
    let mut done = 0;
    let mut cur_mesh: Option<u32> = None;
    let mut cur_layout: u64 = 0;
    let mut cur_gs: Option<u64> = None;
    let mut dispatched_before: Option<u32> = None;
    let mut made: Option<(u32, Mesh)> = None;
    while done < draws {
        // A dispatch now and then (one before every 16th draw).
        if o.dispatches && done % 16 == 7 && dispatched_before != Some(done) {
            dispatched_before = Some(done);
            let cs: u64 = 0x0000_0000_dead_0000 | (number as u64 & 0xffff);
            let p = prefix(number);
            log.push_str(&format!("{p}CSSetShader(pComputeShader:0x000001F2A3B50000, ppClassInstances:0x0000000000000000, NumClassInstances:0) hash={cs:016x}\n"));
            log.push_str(&format!("{p}CSSetConstantBuffers(StartSlot:0, NumBuffers:1, ppConstantBuffers:0x0000000000AAF000)\n       0: resource=0x000001F2A3B60000 hash=0c0c0c0c\n"));
            log.push_str(&format!(
                "{p}Dispatch(ThreadGroupCountX:64, ThreadGroupCountY:1, ThreadGroupCountZ:1)\n"
            ));
            let cb: Vec<u8> = (0..64u32).flat_map(|i| (i as f32).to_le_bytes()).collect();
            let name = DumpName {
                frame: o.hold,
                draw: number,
                stage: Some('c'),
                register: Register::Cb(0),
                register_first: o.register_first,
                contamination: None,
                hash: Some(0x0c0c0c0c),
                orig_hash: None,
                handle: None,
                shaders: Shaders {
                    cs: Some(cs),
                    ..Shaders::default()
                },
                ext: "buf".into(),
                shortcut: false,
            };
            if o.buf {
                let saved = format!("{:08x}.buf", fnv(&cb, 3));
                let s = w.dump(dir, &format_dump_name(&name), &saved, &cb)?;
                if !matches!(o.dedupe, Dedupe::Legacy) {
                    log.push_str(&format!(
                        "{p}3DMigoto Dumping Buffer {}\\{} -> {s}\n",
                        w.win_root,
                        format_dump_name(&name)
                    ));
                }
            }
            w.report.draws.push(SynthDraw {
                number,
                context,
                mesh: u32::MAX,
                call: "Dispatch".into(),
                vb_hashes: Vec::new(),
                ib_hash: None,
                shaders: Shaders {
                    cs: Some(cs),
                    ..Shaders::default()
                },
                elements: Vec::new(),
                problem: None,
            });
            number += 1;
            continue;
        }
        let mi = if done < meshes {
            done
        } else {
            rng.below(meshes as u64) as u32
        };
        if made.as_ref().is_none_or(|(i, _)| *i != mi) {
            made = Some((mi, make_mesh(mi, o)));
        }
        let m = &made.as_ref().expect("made above").1;
        let p = prefix(number);
        // State calls (only what changed, as an application sets it).
        if cur_mesh != Some(mi) {
            let layout_ptr = 0x0000_01F2_0000_0000u64 | (m.family as u64 + 1) << 12;
            if layout_ptr != cur_layout {
                log.push_str(&format!(
                    "{p}IASetInputLayout(pInputLayout:0x{layout_ptr:016X})\n"
                ));
                cur_layout = layout_ptr;
            }
            log.push_str(&format!(
                "{p}IASetVertexBuffers(StartSlot:0, NumBuffers:{}, ppVertexBuffers:0x0000000000AAF000, pStrides:0x0000000000AAF100, pOffsets:0x0000000000AAF200)\n",
                m.slots.len()
            ));
            for (slot, _, _, h) in &m.slots {
                log.push_str(&format!(
                    "       {slot}: resource=0x000001F2A3B4{:04X} hash={h:08x}\n",
                    slot * 0x100
                ));
            }
            match &m.ib {
                Some((fmt, _, h)) => log.push_str(&format!(
                    "{p}IASetIndexBuffer(pIndexBuffer:0x000001F2A3B50200, Format:{}, Offset:0) hash={h:08x}\n",
                    fmt.format().0
                )),
                None => log.push_str(&format!("{p}IASetIndexBuffer(pIndexBuffer:0x0000000000000000, Format:0, Offset:0)\n")),
            }
            log.push_str(&format!(
                "{p}IASetPrimitiveTopology(Topology:{})\n",
                m.family.topology().d3d_value()
            ));
            log.push_str(&format!("{p}VSSetShader(pVertexShader:0x000001F2A3B70000, ppClassInstances:0x0000000000000000, NumClassInstances:0) hash={:016x}\n", m.vs));
            if m.gs != cur_gs {
                match m.gs {
                    Some(h) => log.push_str(&format!("{p}GSSetShader(pShader:0x000001F2A3B7F000, ppClassInstances:0x0000000000000000, NumClassInstances:0) hash={h:016x}\n")),
                    None => log.push_str(&format!("{p}GSSetShader(pShader:0x0000000000000000, ppClassInstances:0x0000000000000000, NumClassInstances:0)\n")),
                }
                cur_gs = m.gs;
            }
            log.push_str(&format!("{p}PSSetShader(pPixelShader:0x000001F2A3B80000, ppClassInstances:0x0000000000000000, NumClassInstances:0) hash={:016x}\n", m.ps));
            log.push_str(&format!("{p}PSSetShaderResources(StartSlot:0, NumViews:1, ppShaderResourceViews:0x0000000000AAF300)\n       0: view=0x000001F2A3B90000 resource=0x000001F2A3BA0000 hash=7e7e7e7e\n"));
            cur_mesh = Some(mi);
        }
        // The call.
        let negative_base = m.family == Family::Simple && o.buf && !o.txt && done % 5 == 0;
        let base: i32 = if negative_base { -2 } else { 0 };
        let (call, first, count, inst_first, inst_count) = match m.family {
            Family::Packed => (
                format!("Draw(VertexCount:{}, StartVertexLocation:0)", m.vertices),
                0u32,
                m.vertices,
                0,
                0,
            ),
            Family::Instanced => (
                format!(
                    "DrawIndexedInstanced(IndexCountPerInstance:{}, InstanceCount:{}, StartIndexLocation:0, BaseVertexLocation:0, StartInstanceLocation:0)",
                    m.indices, m.instances
                ),
                0,
                m.max_index,
                0,
                m.instances,
            ),
            _ => (
                format!(
                    "DrawIndexed(IndexCount:{}, StartIndexLocation:0, BaseVertexLocation:{})",
                    m.indices, base as u32
                ),
                base as u32,
                m.max_index,
                0,
                0,
            ),
        };
        // A planted disagreement: the log line's count is one more than the files hold.
        let problem = o.problems && done % 11 == 5;
        let logged_call = if problem {
            call.replacen(
                &format!(
                    ":{}",
                    if m.ib.is_some() {
                        m.indices
                    } else {
                        m.vertices
                    }
                ),
                &format!(
                    ":{}",
                    if m.ib.is_some() {
                        m.indices + 3
                    } else {
                        m.vertices + 1
                    }
                ),
                1,
            )
        } else {
            call.clone()
        };
        log.push_str(&format!("{p}{logged_call}\n"));
        let name = |register: Register, hash: u32, ext: &str| DumpName {
            frame: o.hold,
            draw: number,
            stage: None,
            register,
            register_first: o.register_first,
            contamination: (o.marks && number % 7 == 3).then(|| "U".to_string()),
            hash: Some(hash),
            orig_hash: (o.marks && number % 7 == 3).then_some(hash ^ 0x1111_1111),
            handle: (o.marks && number % 5 == 4).then_some(0x0000_01F2_A3B4_0000 | number as u64),
            shaders: Shaders {
                vs: Some(m.vs),
                gs: m.gs,
                ps: Some(m.ps),
                ..Shaders::default()
            },
            ext: ext.to_string(),
            shortcut: false,
        };
        let legacy = o.dedupe == Dedupe::Legacy;
        let mut dumping = Vec::new();
        // ib first, as DumpMesh does.
        // DumpMesh dumps the ib of an indexed draw whenever vbs are dumped as text too (the
        // text dump's vertex count comes from it).
        if let Some((fmt, data, h)) = m.ib.as_ref().filter(|_| o.dump_ib || (o.dump_vb && o.txt)) {
            let content = fnv(data, 0x1b);
            if o.buf {
                let n = format_dump_name(&name(Register::Ib, *h, "buf"));
                let s = w.dump(dir, &n, &format!("{content:08x}.buf"), data)?;
                dumping.push((n, s));
            }
            if o.txt {
                let n = format_dump_name(&name(Register::Ib, *h, "txt"));
                let saved = format!(
                    "{content:08x}-ib-format={}-topology={}-count={}.txt",
                    fmt.format(),
                    topo_str(m.family.topology()),
                    m.indices
                );
                let text = ib_txt(*fmt, data, 0, m.indices, m.family.topology());
                let s = w.dump(dir, &n, &saved, text.as_bytes())?;
                dumping.push((n, s));
            }
        }
        let mut vb_hashes = Vec::new();
        for (slot, stride, data, h) in &m.slots {
            vb_hashes.push((*slot, *h));
            if !o.dump_vb {
                continue;
            }
            let content = fnv(data, *slot);
            if o.buf {
                let n = format_dump_name(&name(Register::Vb(*slot), *h, "buf"));
                let s = w.dump(dir, &n, &format!("{content:08x}.buf"), data)?;
                dumping.push((n, s));
            }
            if o.txt {
                let n = format_dump_name(&name(Register::Vb(*slot), *h, "txt"));
                let mut saved = format!(
                    "{content:08x}-vb{slot}-layout={:08x}-topology={}-stride={stride}",
                    fnv(m.family.topology().name().as_bytes(), m.family as u32),
                    topo_str(m.family.topology())
                );
                if first != 0 {
                    saved.push_str(&format!("-first={first}"));
                }
                if count != 0 {
                    saved.push_str(&format!("-count={count}"));
                }
                if inst_count != 0 {
                    saved.push_str(&format!("-inst_count={inst_count}"));
                }
                saved.push_str(".txt");
                let text = vb_txt(
                    m, *slot, *stride, data, first, count, inst_first, inst_count, legacy,
                );
                let s = w.dump(dir, &n, &saved, text.as_bytes())?;
                dumping.push((n, s));
            }
        }
        if !legacy {
            for (n, s) in &dumping {
                log.push_str(&format!(
                    "{p}3DMigoto Dumping Buffer {}\\{n} -> {s}\n",
                    w.win_root
                ));
            }
        }
        // A texture dump of ps-t0.
        if done % 9 == 2 {
            let mut t = name(Register::T(0), 0x7e7e7e7e, "dds");
            t.stage = Some('p');
            t.contamination = None;
            t.orig_hash = None;
            w.write_file(&dir.join(format_dump_name(&t)), b"DDS \x7c\x00\x00\x00")?;
        }
        w.report.draws.push(SynthDraw {
            number,
            context,
            mesh: mi,
            call: call.clone(),
            vb_hashes,
            ib_hash: m.ib.as_ref().map(|i| i.2),
            shaders: Shaders {
                vs: Some(m.vs),
                gs: m.gs,
                ps: Some(m.ps),
                ..Shaders::default()
            },
            elements: m.elements.clone(),
            problem: problem.then(|| "the log's count is larger than the dump's".to_string()),
        });
        number += 1;
        done += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn g9_is_c_printf() {
        assert_eq!(g9(1.0), "1");
        assert_eq!(g9(0.5), "0.5");
        assert_eq!(g9((1.0f32 / 3.0) as f64), "0.333333343");
        assert_eq!(g9(123456789.0), "123456789");
        assert_eq!(g9(1234567890.0), "1.23456789e+09");
        assert_eq!(g9(0.0001), "0.0001");
        assert_eq!(g9(0.00001), "1e-05");
        assert_eq!(g9(-0.0), "-0");
        assert_eq!(g9((128.0f32 / 255.0) as f64), "0.501960814");
    }
}
