//! A whole 3DMigoto frame analysis at once (feature `frame`): the `FrameAnalysis-…` folder
//! read into an index of its draws, each of which opens as a [`Capture`] like a single dump.
//!
//! [`Frame::open`] reads the folder the way 3DMigoto's `FrameAnalysis.cpp` writes it:
//!
//! * `log.txt` (and `log-0xPTR.txt` with a `ctx-0xPTR/` folder per deferred context) — every
//!   call with its draw number, the input-assembler state at each draw and the
//!   `Dumping Buffer A -> B` lines that link per-draw names to de-duplicated files
//!   ([`log`]);
//! * the per-draw dumps `[F.]DDDDDD-vbN=HASH-vs=…-ps=….txt/.buf`, `…-ib=HASH-….txt/.buf`,
//!   constant buffers, textures and targets, in either name order (`filename_reg`), with
//!   `hold` frame numbers, contamination marks, handles, and `.lnk` shortcuts ([`name`]);
//! * `deduped/` — the content-named files the per-draw names are hard links, symbolic links
//!   or shortcuts to; where a per-draw file is missing or a shortcut, the log's
//!   `Dumping Buffer` line leads to its de-duplicated file.
//!
//! Each vb and ib text dump's header (stride, offsets, counts, topology, the layout's
//! `element[i]` blocks) is read — only the header (4 KiB at first), never the values — on
//! every core, each draw's as soon as it is put together from the listing and the log; the
//! binary dumps are only measured, on every core too (the listing takes file types from the
//! folder, not a `stat` per file), and `log.txt` is parsed while the folder is listed. A draw whose files disagree with its log line (hashes,
//! counts, formats, topology, a `.buf` shorter than its header says) carries each
//! disagreement as a [`Draw::problems`] entry naming the file and line.
//!
//! Bad input is normal input: an unreadable file, a symbolic-link loop, a name that does not
//! parse or a log cut short becomes a warning naming the file (and line), and the index
//! goes on. Memory is bounded by the number of draws (a few hundred bytes each), never by the
//! size of the files.
//!
//! ```no_run
//! use inlay::frame::{Filter, Frame};
//! let frame = Frame::open("FrameAnalysis-2024-05-01-120000".as_ref()).unwrap();
//! let filter: Filter = "has=BLENDINDICES,draws=100-200".parse().unwrap();
//! for draw in frame.draws.iter().filter(|d| filter.matches(d)) {
//!     let capture = frame.load(draw).unwrap(); // elements, buffers and draw of that call
//!     println!("{} {} {}", draw.id(), draw.call_text(), capture.elements.len());
//! }
//! ```

#![forbid(unsafe_code)]

use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::assembler::Topology;
use crate::assembler::draw::DrawCall;
use crate::buffer::IndexFormat;
// The draws' reader's own tests for the end of a header: a header the index keeps for
// `Frame::load` must end where the reader's would.
use crate::capture::migoto::{DrawFiles, SlotFiles, ib_data_line, parse_vb_txt, vb_data_line};
use crate::capture::{Capture, CaptureError, CaptureWarning, parse_index_format, parse_topology};
use crate::element::InputElementDesc;

pub mod diff;
pub mod filter;
pub mod hashes;
pub mod log;
pub mod name;
pub mod synth;

pub use filter::Filter;
pub use log::{Call, LoggedDraw};
pub use name::{Register, Shaders};

/// Bytes of a text dump read for its header: far more than 32 element blocks take.
const HEAD_BYTES: usize = 64 * 1024;

/// Most warnings a frame keeps (the rest are counted).
pub const MAX_WARNINGS: usize = 500;

/// A vertex-buffer dump of a draw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VbDump {
    /// The slot.
    pub slot: u32,
    /// The resource hash (from the file name, else the log).
    pub hash: Option<u32>,
    /// The `(ORIG)` hash of the file name: the resource's hash where the name carries another
    /// (XXMI's `track_region_hashes` names the region's hash first, and the log the resource's).
    pub orig_hash: Option<u32>,
    /// The text dump.
    pub txt: Option<PathBuf>,
    /// The binary dump.
    pub buf: Option<PathBuf>,
    /// The binary dump's size in bytes.
    pub buf_bytes: Option<u64>,
    /// `stride:` of the text dump.
    pub stride: Option<u32>,
    /// `byte offset:` (the bind offset).
    pub offset: u32,
    /// `first vertex:` (BaseVertexLocation for an indexed draw).
    pub first_vertex: u32,
    /// `vertex count:`.
    pub vertex_count: Option<u32>,
    /// `first instance:`.
    pub first_instance: u32,
    /// `instance count:`.
    pub instance_count: Option<u32>,
    /// The text dump's header as the index parsed it, where it parsed whole and without a
    /// warning: [`Frame::load`] then does not read and parse it again.
    head: Option<ParsedHead>,
}

/// What the index keeps of a vb text dump's header for [`Frame::load`]: the parse's result
/// less its values (a slot with a binary dump reads none), the layout shared between the
/// draws that have it. A few dozen bytes a dump.
#[derive(Clone, Debug, PartialEq, Eq)]
struct ParsedHead {
    byte_offset: u32,
    stride: Option<u32>,
    first_vertex: u32,
    vertex_count: Option<u32>,
    first_instance: u32,
    instance_count: Option<u32>,
    topology: Option<Topology>,
    elements: Arc<Vec<InputElementDesc>>,
    /// `None` where no element is remapped.
    remapped: Option<Arc<Remapped>>,
    slot: Option<u32>,
}

/// Each element's `RemappedSemanticName`/`Index`, if any ([`VbText::remapped`]).
///
/// [`VbText::remapped`]: crate::capture::migoto::VbText::remapped
type Remapped = Vec<Option<(String, u32)>>;

impl ParsedHead {
    /// The parse as `parse_vb_txt` gave it.
    fn text(&self) -> crate::capture::migoto::VbText {
        crate::capture::migoto::VbText {
            byte_offset: self.byte_offset,
            stride: self.stride,
            first_vertex: self.first_vertex,
            vertex_count: self.vertex_count,
            first_instance: self.first_instance,
            instance_count: self.instance_count,
            topology: self.topology,
            elements: (*self.elements).clone(),
            remapped: match &self.remapped {
                Some(r) => (**r).clone(),
                None => vec![None; self.elements.len()],
            },
            slot: self.slot,
            values: None,
            warnings: Vec::new(),
        }
    }
}

/// The index-buffer dump of a draw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IbDump {
    /// The resource hash.
    pub hash: Option<u32>,
    /// The `(ORIG)` hash of the file name (see [`VbDump::orig_hash`]).
    pub orig_hash: Option<u32>,
    /// The text dump.
    pub txt: Option<PathBuf>,
    /// The binary dump.
    pub buf: Option<PathBuf>,
    /// The binary dump's size in bytes.
    pub buf_bytes: Option<u64>,
    /// `format:`.
    pub format: Option<IndexFormat>,
    /// `byte offset:`.
    pub offset: u32,
    /// `first index:`.
    pub first_index: u32,
    /// `index count:`.
    pub index_count: Option<u32>,
    /// The text dump's header as the index parsed it for [`Frame::load`] (see
    /// [`VbDump`]'s), where it parsed whole, without a warning, with an index count.
    head: Option<ParsedIbHead>,
}

/// What the index keeps of an ib text dump's header for [`Frame::load`]: the parse's result
/// less its values (a draw with a binary dump reads none).
#[derive(Clone, Debug, PartialEq, Eq)]
struct ParsedIbHead {
    byte_offset: u32,
    first_index: u32,
    index_count: Option<u32>,
    topology: Option<Topology>,
    format: IndexFormat,
}

impl ParsedIbHead {
    /// The parse as the draw's reader makes it.
    fn text(&self) -> crate::capture::migoto::IbText {
        crate::capture::migoto::IbText {
            byte_offset: self.byte_offset,
            first_index: self.first_index,
            index_count: self.index_count,
            topology: self.topology,
            format: self.format,
            indices: Vec::new(),
            warnings: Vec::new(),
        }
    }
}

/// Another resource dumped for a draw (constant buffer, texture, target, UAV).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResourceDump {
    /// The stage letter of a `cb`/`t` slot (`v`, `p`, …).
    pub stage: Option<char>,
    /// The register.
    pub register: Register,
    /// The resource hash.
    pub hash: Option<u32>,
    /// The file.
    pub path: PathBuf,
}

/// One draw (or dispatch) of a frame: what the log says of it and what its files hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Draw {
    /// The deferred context's address (`ctx-0xPTR/`), `None` for the immediate context.
    pub context: Option<u64>,
    /// The `hold` frame number.
    pub frame: Option<u32>,
    /// The draw number.
    pub number: u32,
    /// The log's record of the call, if the log has it.
    pub log: Option<LoggedDraw>,
    /// The vertex-buffer dumps, by slot.
    pub vbs: Vec<VbDump>,
    /// The index-buffer dump.
    pub ib: Option<IbDump>,
    /// Other dumped resources.
    pub resources: Vec<ResourceDump>,
    /// The shader hashes (the file names', else the log's).
    pub shaders: Shaders,
    /// The input layout the text dumps give (shared between draws with the same layout).
    pub layout: Option<Arc<Vec<InputElementDesc>>>,
    /// The primitive topology (the dumps', else the log's).
    pub topology: Option<Topology>,
    /// Where the files disagree with each other or with the log, and files that are
    /// missing or unreadable.
    pub problems: Vec<CaptureWarning>,
}

impl Draw {
    /// The draw's name as the file names start: `000123`, `2.000123` (hold), with
    /// `ctx-0xPTR/` before it for a deferred context.
    pub fn id(&self) -> String {
        let mut s = String::new();
        if let Some(c) = self.context {
            s.push_str(&format!("ctx-0x{c:016X}/"));
        }
        if let Some(f) = self.frame {
            s.push_str(&format!("{f}."));
        }
        s.push_str(&format!("{:06}", self.number));
        s
    }

    /// The call (from the log).
    pub fn call(&self) -> Option<&Call> {
        self.log.as_ref().map(|l| &l.call)
    }

    /// The call with its arguments as logged, or `?` when the log has no line for it.
    pub fn call_text(&self) -> String {
        self.call().map_or_else(|| "?".into(), |c| c.text())
    }

    /// Indices drawn: the logged call's, else the ib dump's count.
    pub fn index_count(&self) -> Option<u32> {
        match self.call() {
            Some(Call::Direct(DrawCall::DrawIndexed { index_count, .. })) => Some(*index_count),
            Some(Call::Direct(DrawCall::DrawIndexedInstanced {
                index_count_per_instance,
                ..
            })) => Some(*index_count_per_instance),
            Some(c) if !c.indexed() => None,
            _ => self.ib.as_ref().and_then(|i| i.index_count),
        }
    }

    /// Vertices: the logged call's count for a non-indexed draw, else the vb dumps' count
    /// (for an indexed draw 3DMigoto dumps up to the largest index + 1).
    pub fn vertex_count(&self) -> Option<u32> {
        match self.call() {
            Some(Call::Direct(DrawCall::Draw { vertex_count, .. })) => Some(*vertex_count),
            Some(Call::Direct(DrawCall::DrawInstanced {
                vertex_count_per_instance,
                ..
            })) => Some(*vertex_count_per_instance),
            _ => self.vbs.iter().find_map(|v| v.vertex_count),
        }
    }

    /// Instances: the logged call's count, else the vb dumps'.
    pub fn instance_count(&self) -> Option<u32> {
        match self.call() {
            Some(Call::Direct(DrawCall::DrawInstanced { instance_count, .. }))
            | Some(Call::Direct(DrawCall::DrawIndexedInstanced { instance_count, .. })) => {
                Some(*instance_count)
            }
            Some(Call::Direct(_)) => None,
            _ => self.vbs.iter().find_map(|v| v.instance_count),
        }
    }

    /// Every resource hash of the draw: vertex buffers, index buffer, other resources, and
    /// the buffers the log binds at it (also those not dumped: `dump_ib` without `dump_vb`).
    pub fn resource_hashes(&self) -> impl Iterator<Item = u32> + '_ {
        let logged = self.log.iter().flat_map(|l| {
            l.vbs
                .iter()
                .filter_map(|b| b.hash)
                .chain(l.ib.as_ref().and_then(|i| i.hash))
        });
        self.vbs
            .iter()
            .filter_map(|v| v.hash)
            .chain(self.ib.as_ref().and_then(|i| i.hash))
            .chain(self.resources.iter().filter_map(|r| r.hash))
            .chain(logged)
    }

    /// The layout in brief: `POSITION R32G32B32_FLOAT, NORMAL R32G32B32_FLOAT, …` with the
    /// slot as `/N` where it is not 0.
    pub fn layout_brief(&self) -> String {
        let Some(l) = &self.layout else {
            return String::new();
        };
        l.iter()
            .map(|e| {
                let mut s = e.name().unwrap_or("?").to_string();
                if e.semantic_index != 0 {
                    s.push_str(&e.semantic_index.to_string());
                }
                s.push(' ');
                s.push_str(&e.format.to_string());
                if e.input_slot != 0 {
                    s.push_str(&format!("/{}", e.input_slot));
                }
                s
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Whether the layout has an element of semantic `name` (case-insensitive, as
    /// `CreateInputLayout` matches), with index `index` when given.
    pub fn has_semantic(&self, name: &str, index: Option<u32>) -> bool {
        self.layout.as_ref().is_some_and(|l| {
            l.iter().any(|e| {
                e.name().is_some_and(|n| n.eq_ignore_ascii_case(name))
                    && index.is_none_or(|i| i == e.semantic_index)
            })
        })
    }

    /// The files a capture of this draw reads (text dumps with their binaries), or why there
    /// are none.
    pub fn files(&self) -> Result<DrawFiles, CaptureError> {
        let name = self.id();
        let err = |m: &str| CaptureError {
            file: name.clone(),
            line: None,
            value: None,
            message: m.to_string(),
        };
        if self.call().is_some_and(|c| c.is_dispatch()) {
            return Err(err("a compute dispatch has no input assembler to export"));
        }
        if self.vbs.is_empty() {
            return Err(err(
                "no vertex buffer was dumped for this draw (3DMigoto's dump_vb option)",
            ));
        }
        let mut vbs = Vec::new();
        for v in &self.vbs {
            let Some(txt) = &v.txt else {
                return Err(err(&format!(
                    "vb{} has only a binary dump: its layout is in the text dump (3DMigoto's \
                     txt option)",
                    v.slot
                )));
            };
            vbs.push(SlotFiles {
                slot: v.slot,
                txt: txt.clone(),
                buf: v.buf.clone(),
            });
        }
        let ib = match &self.ib {
            // 3DMigoto dumps the bound index buffer at every draw (`DumpMesh` with dump_ib);
            // a draw that is not indexed does not read it.
            Some(_) if self.call().is_some_and(|c| !c.indexed()) => None,
            Some(ib) => match &ib.txt {
                Some(txt) => Some(SlotFiles {
                    slot: 0,
                    txt: txt.clone(),
                    buf: ib.buf.clone(),
                }),
                None => {
                    return Err(err(
                        "the index buffer has only a binary dump: its format is in the text dump",
                    ));
                }
            },
            None if self.call().is_some_and(|c| c.indexed()) => {
                return Err(err(&format!(
                    "{} reads an index buffer, and none was dumped",
                    self.call_text()
                )));
            }
            None => None,
        };
        Ok(DrawFiles { vbs, ib })
    }

    /// Every file of the draw (text and binary dumps, other resources).
    pub fn all_files(&self) -> Vec<&Path> {
        let mut v: Vec<&Path> = Vec::new();
        for b in &self.vbs {
            v.extend(b.txt.as_deref());
            v.extend(b.buf.as_deref());
        }
        if let Some(i) = &self.ib {
            v.extend(i.txt.as_deref());
            v.extend(i.buf.as_deref());
        }
        v.extend(self.resources.iter().map(|r| r.path.as_path()));
        v
    }
}

/// What [`Frame::open_with`] may use.
#[derive(Clone, Debug, Default)]
pub struct FrameOptions {
    /// Threads reading dump headers (0: every core).
    pub threads: usize,
}

/// A frame-analysis folder, indexed.
#[derive(Clone, Debug, Default)]
pub struct Frame {
    /// The folder.
    pub root: PathBuf,
    /// `analyse_options` of the log.
    pub options: Option<u32>,
    /// The logs read.
    pub logs: Vec<PathBuf>,
    /// Every draw, by context, frame and number.
    pub draws: Vec<Draw>,
    /// Whether a `deduped/` folder was found.
    pub deduped: bool,
    /// What the index doubted: unreadable files, names that do not parse, log lines.
    pub warnings: Vec<CaptureWarning>,
    /// Warnings beyond [`MAX_WARNINGS`], counted only.
    pub warnings_dropped: usize,
    /// Files looked at.
    pub files_seen: usize,
    /// Bytes of the dump files the index lists (text and binary).
    pub bytes: u64,
}

/// A file of the folder.
#[derive(Debug)]
struct Entry {
    name: name::DumpName,
    path: PathBuf,
    /// The size, where the listing looked it up (links, and every binary dump when the
    /// listing's names are read on other cores); else sized later, on every core, with
    /// their draw's headers.
    len: Option<u64>,
    /// A text dump's header, where the listing read it (see [`Frame::scan_dir`]).
    head: Option<Head>,
}

/// A text dump's header read and parsed ahead of its draw ([`read_vb_head`],
/// [`read_ib_head`]): the same results the draw's reader would get.
#[derive(Debug)]
enum Head {
    Vb(VbHead),
    Ib(IbHead),
}

/// A vb text dump's size, parsed header and whether that was the whole header
/// ([`header_part`]), or why it was not read.
type VbHead = Result<
    (
        u64,
        Result<crate::capture::migoto::VbText, CaptureError>,
        bool,
    ),
    crate::input::ReadError,
>;

/// An ib text dump's size, header and warnings, or why it was not read.
type IbHead =
    Result<(u64, (IbHeader, Vec<CaptureWarning>), Option<ParsedIbHead>), crate::input::ReadError>;

/// The headers of one draw's text dumps that the listing read: each vb slot's (the last
/// file of the slot, as the draw takes it) and the ib's.
#[derive(Default)]
struct Heads {
    vbs: Vec<(u32, VbHead)>,
    ib: Option<IbHead>,
}

type Key = (Option<u64>, Option<u32>, u32);

struct Scan {
    /// Each draw's files, sorted by key.
    entries: Vec<(Key, Vec<Entry>)>,
    deduped: HashMap<String, (PathBuf, Option<u64>)>,
    logs: Vec<(Option<u64>, PathBuf)>,
    files_seen: usize,
}

/// Text-dump headers the listing's threads read ahead at most ([`Frame::scan_dir`]): parsed
/// headers wait for their draws a few kilobytes each, so a frame of any size holds at most
/// some tens of megabytes of them (the bench frame's 10,000 all fit); the rest are read by
/// their draws' readers.
const AHEAD_HEADS: usize = 16 << 10;

/// How a folder's names are read: by `workers` threads beside the listing (none: by the
/// listing's own thread, nothing read ahead), which read ahead as many text-dump headers as
/// `heads` still allows.
struct Listing {
    workers: usize,
    heads: AtomicUsize,
}

/// Where a listed folder is: a deferred context's (`ctx-0x…/`), `deduped/`, or the top.
#[derive(Clone, Copy)]
struct Place {
    ctx: Option<u64>,
    in_deduped: bool,
}

/// What one name of a listed folder is ([`classify`]). (Held a few chunks at a time while
/// the listing goes, so the dump's size is no concern.)
#[allow(clippy::large_enum_variant)]
enum Item {
    /// Skipped, with this warning.
    Warn(PathBuf, String),
    /// A folder to list after this one: `deduped/` or a deferred context's.
    Subdir(Option<u64>, PathBuf),
    /// A file of `deduped/`, by name.
    Deduped(String, PathBuf, Option<u64>),
    /// A log (`log.txt`, `log-0x….txt`).
    Log(Option<u64>, PathBuf),
    /// A dump of a draw.
    Dump(Key, Entry),
    /// Nothing the index reads (a resource dumped outside a draw, another folder).
    Skip,
}

/// What the folder entry `entry` at `place` is. Symbolic links (3DMigoto's `symlink` option)
/// are followed, refusing loops and links to nothing; a plain file or folder is told by the
/// listing's type, and only a link is looked up (a `stat` per file was most of the listing's
/// time).
fn classify(entry: &fs::DirEntry, place: Place, ahead: Option<&AtomicUsize>) -> Item {
    let path = entry.path();
    // The name, borrowed from the path (no copy per file).
    let Some(fname) = path.file_name().and_then(|n| n.to_str()) else {
        return Item::Warn(path, "a file name that is not UTF-8; skipped".into());
    };
    let ft = match entry.file_type() {
        Ok(t) => t,
        Err(e) => return Item::Warn(path, format!("cannot read: {e}")),
    };
    let (is_dir, len) = if ft.is_symlink() {
        match fs::metadata(&path) {
            Ok(m) if !m.is_dir() && !m.is_file() => {
                let what =
                    crate::input::special_file_kind(m.file_type()).unwrap_or("a special file");
                return Item::Warn(
                    path,
                    format!("a symbolic link to {what}, not a file (never opened); skipped"),
                );
            }
            Ok(m) => (m.is_dir(), Some(m.len())),
            Err(e) => {
                let why = if e.raw_os_error() == Some(40) {
                    "a symbolic-link loop".to_string()
                } else {
                    format!("a symbolic link to nothing readable ({e})")
                };
                return Item::Warn(path, format!("{why}; skipped"));
            }
        }
    } else if let Some(what) = crate::input::special_file_kind(ft) {
        // A named pipe would block the reader that opened it; a device never ends.
        return Item::Warn(path, format!("{what}, not a file (never opened); skipped"));
    } else {
        (ft.is_dir(), None)
    };
    let Place { ctx, in_deduped } = place;
    if is_dir {
        if ctx.is_some() || in_deduped {
            return Item::Skip;
        }
        if fname == "deduped" {
            return Item::Subdir(None, path);
        }
        if let Some(p) = fname
            .strip_prefix("ctx-0x")
            .or_else(|| fname.strip_prefix("ctx-0X"))
        {
            return match u64::from_str_radix(p, 16) {
                Ok(c) => Item::Subdir(Some(c), path),
                Err(_) => Item::Warn(
                    path,
                    "a ctx- folder whose address does not parse; skipped".into(),
                ),
            };
        }
        return Item::Skip;
    }
    if in_deduped {
        return Item::Deduped(fname.to_string(), path, len);
    }
    if ctx.is_none() && (fname == "log.txt" || fname.starts_with("log-0x")) {
        let c = fname
            .strip_prefix("log-0x")
            .and_then(|s| s.strip_suffix(".txt"))
            .and_then(|s| u64::from_str_radix(s, 16).ok());
        if fname != "log.txt" && c.is_none() {
            return Item::Warn(
                path,
                "a log-0x… file whose address does not parse; skipped".into(),
            );
        }
        return Item::Log(c, path);
    }
    match name::parse_dump_name(fname) {
        Some(n) => {
            let key = (ctx, n.frame, n.draw);
            let (mut len, mut head) = (len, None);
            // A header is read ahead while the allowance lasts (see `AHEAD_HEADS`).
            let allowed = |a: &AtomicUsize| {
                a.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
                    .is_ok()
            };
            if let Some(ahead) = ahead
                && !n.shortcut
            {
                match (n.register, n.ext.as_str()) {
                    (Register::Vb(_), "txt") if allowed(ahead) => {
                        head = Some(Head::Vb(read_vb_head(&path)))
                    }
                    (Register::Ib, "txt") if allowed(ahead) => {
                        head = Some(Head::Ib(read_ib_head(&path)))
                    }
                    (Register::Vb(_) | Register::Ib, "buf") if len.is_none() => {
                        len = size_of(&path)
                    }
                    _ => {}
                }
            }
            Item::Dump(
                key,
                Entry {
                    name: n,
                    path,
                    len,
                    head,
                },
            )
        }
        None => {
            let lower = fname.to_ascii_lowercase();
            // A resource dumped outside a draw is 3DMigoto's, and no draw's.
            if (lower.ends_with(".txt") || lower.ends_with(".buf"))
                && !name::is_resource_dump_name(fname)
            {
                Item::Warn(
                    path,
                    "not a 3DMigoto frame-analysis name (DDDDDD-vbN=HASH-vs=…-ps=….txt); skipped"
                        .into(),
                )
            } else {
                Item::Skip
            }
        }
    }
}

impl Frame {
    /// Indexes the frame-analysis folder `dir` on every core (see the module notes).
    /// Only an unreadable folder is an error; everything else is a warning or a problem of
    /// a draw.
    pub fn open(dir: &Path) -> Result<Frame, CaptureError> {
        Frame::open_with(dir, &FrameOptions::default())
    }

    /// [`Frame::open`] with options.
    pub fn open_with(dir: &Path, options: &FrameOptions) -> Result<Frame, CaptureError> {
        Frame::open_ahead(dir, options, AHEAD_HEADS)
    }

    /// [`Frame::open_with`], reading at most `heads` text-dump headers ahead.
    fn open_ahead(dir: &Path, options: &FrameOptions, heads: usize) -> Result<Frame, CaptureError> {
        let mut frame = Frame {
            root: dir.to_path_buf(),
            ..Frame::default()
        };
        // The main log is read while the folder is listed (each on a thread of its own; on
        // a frame of thousands of draws each is a good part of the index's time), the
        // listing's names read on the other cores.
        let threads = match options.threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            t => t,
        };
        let listing = Listing {
            workers: threads.saturating_sub(2),
            heads: AtomicUsize::new(heads),
        };
        let main_log = dir.join("log.txt");
        let (scan, mut early) = std::thread::scope(|s| {
            let early = s.spawn(|| read_log(&main_log));
            let scan = frame.scan(dir, &listing);
            (scan, early.join().ok())
        });
        let scan = scan?;
        frame.files_seen = scan.files_seen;
        frame.deduped = !scan.deduped.is_empty();
        // The logs.
        let mut logged: BTreeMap<Key, Vec<LoggedDraw>> = BTreeMap::new();
        let mut deferred = Vec::new();
        for (ctx, path) in &scan.logs {
            let file = path.display().to_string();
            let read = match early.take() {
                Some(r) if *path == main_log => r,
                other => {
                    early = other;
                    read_log(path)
                }
            };
            let log = match read {
                Ok(log) => log,
                Err(e) => {
                    frame.warn(CaptureWarning {
                        file,
                        line: None,
                        value: None,
                        message: crate::capture::why_unread(&e),
                    });
                    continue;
                }
            };
            if ctx.is_none() {
                frame.options = log.options;
            }
            for w in log.warnings {
                frame.warn(w);
            }
            for d in log.draws {
                logged.entry((*ctx, d.frame, d.number)).or_default().push(d);
            }
            deferred.extend(log.deferred_dumps.into_iter().map(|d| (file.clone(), d)));
            frame.logs.push(path.clone());
        }
        // `deferred_ctx_accurate`: a deferred context's dumps logged by the immediate one.
        for (file, dd) in deferred {
            match logged
                .get_mut(&(Some(dd.context), dd.frame, dd.draw))
                .and_then(|v| v.first_mut())
            {
                Some(d) => d.dumped.push(dd.dumped),
                None => frame.warn(CaptureWarning {
                    file,
                    line: Some(dd.line),
                    value: Some(crate::capture::excerpt(dd.dumped.0.as_bytes())),
                    message: format!(
                        "a dump of draw {} of deferred context 0x{:016X}, and that context's \
                         log (log-0x{:016X}.txt) has no draw {}",
                        dd.draw, dd.context, dd.context, dd.draw
                    ),
                }),
            }
        }
        let has_log: Vec<Option<u64>> = scan.logs.iter().map(|(c, _)| *c).collect();
        // The draws go to the other cores in chunks as this thread puts them together; there
        // each draw's headers are read and checked against its files and log line, and the
        // chunks come back. This thread joins in once the last draw is put together.
        let readers = threads.saturating_sub(1);
        let (tx, rx) = std::sync::mpsc::sync_channel::<(usize, Vec<(Draw, Heads)>)>(256);
        let rx = std::sync::Mutex::new(rx);
        let finish = |mut done: Finished, start: usize, chunk: Vec<(Draw, Heads)>| {
            let mut draws = Vec::with_capacity(chunk.len());
            for (mut d, heads) in chunk {
                done.bytes += read_headers(&mut d, heads, &mut done.layouts);
                check(&mut d);
                draws.push(d);
            }
            done.chunks.push((start, draws));
            done
        };
        let read = || {
            let mut done = Finished::default();
            loop {
                let next = rx.lock().unwrap_or_else(|e| e.into_inner()).recv();
                let Ok((start, chunk)) = next else { break };
                done = finish(done, start, chunk);
            }
            done
        };
        let finished = std::thread::scope(|s| {
            let hs: Vec<_> = (0..readers).map(|_| s.spawn(read)).collect();
            let mut mine = Finished::default();
            let (mut start, mut chunk) = (0, Vec::with_capacity(16));
            let mut put = |d: (Draw, Heads), mine: &mut Finished| {
                chunk.push(d);
                if chunk.len() == 16 {
                    let full = std::mem::replace(&mut chunk, Vec::with_capacity(16));
                    if readers == 0 {
                        *mine = finish(std::mem::take(mine), start, full);
                    } else {
                        let _ = tx.send((start, full));
                    }
                    start += 16;
                }
            };
            // Every key either source names, in order (both maps are sorted by key).
            let mut logged = logged.into_iter().peekable();
            let mut entries = scan.entries.into_iter().peekable();
            loop {
                let key = match (logged.peek(), entries.peek()) {
                    (Some((a, _)), Some((b, _))) => *a.min(b),
                    (Some((a, _)), None) => *a,
                    (None, Some((b, _))) => *b,
                    (None, None) => break,
                };
                let logs = logged.next_if(|(k, _)| *k == key).map(|(_, v)| v);
                let files = entries.next_if(|(k, _)| *k == key).map(|(_, v)| v);
                let mut logs = logs.unwrap_or_default().into_iter();
                let first = logs.next();
                let draw = frame.assemble(
                    key,
                    first,
                    files.unwrap_or_default(),
                    &scan.deduped,
                    has_log.contains(&key.0),
                );
                put(draw, &mut mine);
                // A second call under one number (3DMigoto numbers each context's calls; a
                // repeated number means two logs were merged): listed without files.
                for extra in logs {
                    let d = Draw {
                        shaders: extra.shaders,
                        topology: extra.topology,
                        log: Some(extra),
                        ..bare_draw(key)
                    };
                    put((d, Heads::default()), &mut mine);
                }
            }
            mine = finish(mine, start, chunk);
            drop(tx);
            let mut all = vec![mine, read()];
            all.extend(hs.into_iter().map(|h| h.join().unwrap_or_default()));
            all
        });
        let mut chunks = Vec::new();
        for f in finished {
            frame.bytes += f.bytes;
            chunks.extend(f.chunks);
        }
        chunks.sort_by_key(|c| c.0);
        frame.draws = chunks.into_iter().flat_map(|c| c.1).collect();
        Ok(frame)
    }

    fn warn(&mut self, w: CaptureWarning) {
        if self.warnings.len() < MAX_WARNINGS {
            self.warnings.push(w);
        } else {
            self.warnings_dropped += 1;
        }
    }

    fn warn_at(&mut self, path: &Path, message: impl Into<String>) {
        self.warn(CaptureWarning {
            file: path.display().to_string(),
            line: None,
            value: None,
            message: message.into(),
        });
    }

    /// Lists the folder (and `deduped/`, `ctx-0x…/`): dump names, logs. With `listing`'s
    /// worker threads beside this one, the names are read on those as the listing goes (see
    /// [`Frame::scan_dir`]).
    fn scan(&mut self, dir: &Path, listing: &Listing) -> Result<Scan, CaptureError> {
        let mut scan = Scan {
            entries: Vec::new(),
            deduped: HashMap::new(),
            logs: Vec::new(),
            files_seen: 0,
        };
        let top = fs::read_dir(dir).map_err(|e| CaptureError {
            file: dir.display().to_string(),
            line: None,
            value: None,
            message: format!("cannot read the folder: {e}"),
        })?;
        let mut dumps: HashMap<Key, Vec<Entry>> = HashMap::new();
        let mut subdirs: Vec<(Option<u64>, PathBuf)> = Vec::new();
        let place = Place {
            ctx: None,
            in_deduped: dir.file_name().is_some_and(|n| n == "deduped"),
        };
        self.scan_dir(
            top,
            dir,
            place,
            &mut scan,
            &mut dumps,
            &mut subdirs,
            listing,
        );
        for (ctx, sub) in std::mem::take(&mut subdirs) {
            match fs::read_dir(&sub) {
                Ok(rd) => {
                    // Only the top folder's subfolders are looked into.
                    let place = Place {
                        ctx,
                        in_deduped: ctx.is_none(),
                    };
                    self.scan_dir(
                        rd,
                        &sub,
                        place,
                        &mut scan,
                        &mut dumps,
                        &mut subdirs,
                        listing,
                    );
                }
                Err(e) => self.warn_at(&sub, format!("cannot read the folder: {e}")),
            }
        }
        // By key; each draw's files stay in the listing's order.
        scan.entries = dumps.into_iter().collect();
        scan.entries.sort_unstable_by_key(|e| e.0);
        Ok(scan)
    }

    /// Lists one folder into `scan`, `dumps` and (the top folder's) `subdirs`. The listing
    /// stays on this thread, a system call per few hundred names; what each name is (a dump
    /// parsed, a link followed, a log, a folder) is read by `listing`'s worker threads, a
    /// chunk of names at a time, as the listing goes: on 16 cores that was most of the
    /// listing's time, done while every other core but the log's waited. Those threads also
    /// read each text dump's header (while [`AHEAD_HEADS`] allows) and size each binary dump
    /// then, while the log is still parsed
    /// (on 16 cores the log's parse outlasts the listing); the draws' readers read only what
    /// the listing could not (files found through the log). The chunks' findings are taken
    /// in the listing's order, so warnings and files come in the same order whatever the
    /// threads.
    #[allow(clippy::too_many_arguments)]
    fn scan_dir(
        &mut self,
        rd: fs::ReadDir,
        dir: &Path,
        place: Place,
        scan: &mut Scan,
        dumps: &mut HashMap<Key, Vec<Entry>>,
        subdirs: &mut Vec<(Option<u64>, PathBuf)>,
        listing: &Listing,
    ) {
        const CHUNK: usize = 256;
        let workers = listing.workers;
        let mut failed = None;
        let mut file = |this: &mut Frame, item: Item| {
            scan.files_seen += 1;
            match item {
                Item::Warn(path, message) => this.warn_at(&path, message),
                Item::Subdir(ctx, path) => subdirs.push((ctx, path)),
                Item::Deduped(name, path, len) => {
                    scan.deduped.insert(name, (path, len));
                }
                Item::Log(ctx, path) => scan.logs.push((ctx, path)),
                Item::Dump(key, entry) => dumps.entry(key).or_default().push(entry),
                Item::Skip => {}
            }
        };
        if workers == 0 {
            for entry in rd {
                match entry {
                    Ok(e) => file(self, classify(&e, place, None)),
                    Err(e) => {
                        failed = Some(e);
                        break;
                    }
                }
            }
        } else {
            let (tx, rx) = std::sync::mpsc::sync_channel::<(usize, Vec<fs::DirEntry>)>(64);
            let (done_tx, done_rx) = std::sync::mpsc::channel::<(usize, Vec<Item>)>();
            let rx = std::sync::Mutex::new(rx);
            std::thread::scope(|s| {
                for _ in 0..workers {
                    let (rx, done_tx) = (&rx, done_tx.clone());
                    s.spawn(move || {
                        loop {
                            let next = rx.lock().unwrap_or_else(|e| e.into_inner()).recv();
                            let Ok((n, chunk)) = next else { break };
                            let items = chunk
                                .iter()
                                .map(|e| classify(e, place, Some(&listing.heads)))
                                .collect();
                            if done_tx.send((n, items)).is_err() {
                                break;
                            }
                        }
                    });
                }
                drop(done_tx);
                // Chunks come back in any order and are filed in the listing's, as soon as
                // each one's turn comes (so that what waits to be filed stays a few chunks,
                // whatever the folder's size).
                let mut back: BTreeMap<usize, Vec<Item>> = BTreeMap::new();
                let mut turn = 0;
                let mut take = |this: &mut Frame, n: usize, items: Vec<Item>| {
                    back.insert(n, items);
                    while let Some(items) = back.remove(&turn) {
                        for item in items {
                            file(this, item);
                        }
                        turn += 1;
                    }
                };
                let (mut n, mut chunk) = (0, Vec::with_capacity(CHUNK));
                for entry in rd {
                    match entry {
                        Ok(e) => {
                            chunk.push(e);
                            if chunk.len() == CHUNK {
                                let full = std::mem::replace(&mut chunk, Vec::with_capacity(CHUNK));
                                let _ = tx.send((n, full));
                                n += 1;
                                while let Ok((k, items)) = done_rx.try_recv() {
                                    take(self, k, items);
                                }
                            }
                        }
                        Err(e) => {
                            failed = Some(e);
                            break;
                        }
                    }
                }
                if !chunk.is_empty() {
                    let _ = tx.send((n, chunk));
                }
                drop(tx);
                // Until every reader is done (a reader that stopped early would leave its
                // chunk's names unfiled; none can: `classify` returns for every name).
                for (k, items) in done_rx {
                    take(self, k, items);
                }
            });
        }
        if let Some(e) = failed {
            self.warn_at(dir, format!("cannot list the folder further: {e}"));
        }
    }

    /// Builds one draw from its log record and files.
    fn assemble(
        &mut self,
        key: Key,
        logged: Option<LoggedDraw>,
        files: Vec<Entry>,
        deduped: &HashMap<String, (PathBuf, Option<u64>)>,
        context_has_log: bool,
    ) -> (Draw, Heads) {
        let mut d = bare_draw(key);
        let mut heads = Heads::default();
        let mut name_shaders: Option<Shaders> = None;
        for e in files {
            let n = &e.name;
            // A shortcut stands for the file its log line names; resolved below.
            if n.shortcut {
                continue;
            }
            if name_shaders.is_none() {
                name_shaders = Some(n.shaders);
            } else if name_shaders != Some(n.shaders) {
                d.problems.push(CaptureWarning {
                    file: e.path.display().to_string(),
                    line: None,
                    value: None,
                    message: "its shader hashes differ from the draw's other files'".into(),
                });
            }
            let is_txt = n.ext == "txt";
            let is_buf = n.ext == "buf";
            match n.register {
                Register::Vb(slot) if is_txt || is_buf => {
                    let v = match d.vbs.iter_mut().find(|v| v.slot == slot) {
                        Some(v) => v,
                        None => {
                            d.vbs.push(VbDump {
                                slot,
                                hash: n.hash,
                                orig_hash: n.orig_hash,
                                ..VbDump::default()
                            });
                            d.vbs.last_mut().expect("pushed")
                        }
                    };
                    if is_txt {
                        v.txt = Some(e.path);
                        // The slot's last text dump is the one read: so is its header.
                        heads.vbs.retain(|h| h.0 != slot);
                        if let Some(Head::Vb(h)) = e.head {
                            heads.vbs.push((slot, h));
                        }
                    } else {
                        v.buf_bytes = e.len;
                        v.buf = Some(e.path);
                    }
                }
                Register::Ib if is_txt || is_buf => {
                    let ib = d.ib.get_or_insert_with(|| IbDump {
                        hash: n.hash,
                        orig_hash: n.orig_hash,
                        ..IbDump::default()
                    });
                    if is_txt {
                        ib.txt = Some(e.path);
                        heads.ib = match e.head {
                            Some(Head::Ib(h)) => Some(h),
                            _ => None,
                        };
                    } else {
                        ib.buf_bytes = e.len;
                        ib.buf = Some(e.path);
                    }
                }
                register => {
                    if !d
                        .resources
                        .iter()
                        .any(|r| r.register == register && r.stage == n.stage)
                    {
                        d.resources.push(ResourceDump {
                            stage: n.stage,
                            register,
                            hash: n.hash,
                            path: e.path,
                        });
                    }
                }
            }
        }
        d.vbs.sort_by_key(|v| v.slot);
        // Per-draw files that are missing or shortcuts: follow the log's `Dumping Buffer`.
        if let Some(l) = &logged {
            for (per_draw, saved) in &l.dumped {
                let Some(n) = name::parse_dump_name(per_draw) else {
                    continue;
                };
                let have = match n.register {
                    Register::Vb(s) => d.vbs.iter().find(|v| v.slot == s).is_some_and(|v| {
                        if n.ext == "txt" {
                            v.txt.is_some()
                        } else {
                            v.buf.is_some()
                        }
                    }),
                    Register::Ib => d.ib.as_ref().is_some_and(|i| {
                        if n.ext == "txt" {
                            i.txt.is_some()
                        } else {
                            i.buf.is_some()
                        }
                    }),
                    _ => true,
                };
                if have {
                    continue;
                }
                let base = saved.rsplit(['\\', '/']).next().unwrap_or(saved);
                let Some((path, len)) = deduped.get(base).cloned() else {
                    d.problems.push(CaptureWarning {
                        file: per_draw.clone(),
                        line: Some(l.line),
                        value: Some(crate::capture::excerpt(saved.as_bytes())),
                        message: "the log says this was dumped, and neither it nor its \
                                  de-duplicated file is in the folder"
                            .into(),
                    });
                    continue;
                };
                let is_txt = n.ext == "txt";
                match n.register {
                    Register::Vb(slot) => {
                        let v = match d.vbs.iter_mut().find(|v| v.slot == slot) {
                            Some(v) => v,
                            None => {
                                d.vbs.push(VbDump {
                                    slot,
                                    hash: n.hash,
                                    orig_hash: n.orig_hash,
                                    ..VbDump::default()
                                });
                                d.vbs.last_mut().expect("pushed")
                            }
                        };
                        if is_txt {
                            v.txt = Some(path);
                        } else {
                            v.buf_bytes = len;
                            v.buf = Some(path);
                        }
                    }
                    Register::Ib => {
                        let ib = d.ib.get_or_insert_with(|| IbDump {
                            hash: n.hash,
                            orig_hash: n.orig_hash,
                            ..IbDump::default()
                        });
                        if is_txt {
                            ib.txt = Some(path);
                        } else {
                            ib.buf_bytes = len;
                            ib.buf = Some(path);
                        }
                    }
                    _ => {}
                }
                if name_shaders.is_none() {
                    name_shaders = Some(n.shaders);
                }
            }
            d.vbs.sort_by_key(|v| v.slot);
        }
        d.shaders = name_shaders
            .or_else(|| logged.as_ref().map(|l| l.shaders))
            .unwrap_or_default();
        if logged.is_none() && context_has_log && (!d.vbs.is_empty() || d.ib.is_some()) {
            d.problems.push(CaptureWarning {
                file: d
                    .vbs
                    .iter()
                    .find_map(|v| v.txt.clone().or(v.buf.clone()))
                    .map_or_else(|| d.id(), |p| p.display().to_string()),
                line: None,
                value: None,
                message: format!(
                    "draw {} has dump files and no line in the log (cut short?)",
                    d.id()
                ),
            });
        }
        d.topology = logged.as_ref().and_then(|l| l.topology);
        d.log = logged;
        (d, heads)
    }

    /// Reads draw `draw` of this frame as a [`Capture`] (its text and binary dumps, no
    /// folder search), as `capture::load_dump` reads a single dump. The header of a vb text
    /// dump with a binary dump is not read again where the index parsed it whole and
    /// without a warning, nor an ib text dump's header with a binary dump and an index
    /// count: the draw is then read as the index saw that header (its values come from the
    /// binary dump, read now).
    pub fn load(&self, draw: &Draw) -> Result<Capture, CaptureError> {
        let files = draw.files()?;
        // `files.vbs` are `draw.vbs` in order (each has its text dump, or `files` failed).
        let mut heads: Vec<_> = draw
            .vbs
            .iter()
            .map(|v| v.head.as_ref().map(ParsedHead::text))
            .collect();
        // The ib dump's kept header, where the draw reads that dump (`files.ib`).
        let ib = files
            .ib
            .as_ref()
            .and(draw.ib.as_ref())
            .and_then(|ib| ib.head.as_ref().map(ParsedIbHead::text));
        crate::capture::migoto::load_files_with(&files, &mut heads, ib)
    }

    /// The draws `filter` selects.
    pub fn select<'a>(&'a self, filter: &'a Filter) -> impl Iterator<Item = &'a Draw> + 'a {
        self.draws.iter().filter(move |d| filter.matches(d))
    }
}

/// The header of an ib text dump.
#[derive(Clone, Debug, Default)]
struct IbHeader {
    byte_offset: u32,
    first_index: u32,
    index_count: Option<u32>,
    topology: Option<Topology>,
    format: Option<IndexFormat>,
}

#[derive(Default)]
struct Headers {
    /// Each vb slot's parsed header, and whether it was the whole header.
    vbs: Vec<(u32, crate::capture::migoto::VbText, bool)>,
    ib: Option<IbHeader>,
    /// The ib header kept for [`Frame::load`] ([`read_ib_head`]).
    ib_head: Option<ParsedIbHead>,
    problems: Vec<CaptureWarning>,
    /// Sizes of the binary dumps the listing did not size: (vb slot, bytes); the ib's.
    vb_bufs: Vec<(u32, u64)>,
    ib_buf: Option<u64>,
    /// Bytes of the draw's vb and ib dumps, text and binary.
    bytes: u64,
}

/// Reads and parses a log file.
fn read_log(path: &Path) -> Result<log::Log, crate::input::ReadError> {
    let (f, _) = crate::input::open_file(path, u64::MAX)?;
    Ok(log::parse_log(
        &path.display().to_string(),
        std::io::BufReader::with_capacity(1 << 18, f),
    ))
}

/// Reads the start of a text dump: 4 KiB, then four times as much at a time, until a complete
/// line that `ends` recognises as past the header (its data), the end of the file, or
/// [`HEAD_BYTES`]. The headers it gives are those of the first [`HEAD_BYTES`]; it reads a
/// header's bytes, not 64 KiB of every file (the index's reads were most of the folder's).
fn read_head(
    path: &Path,
    ends: fn(&[u8]) -> bool,
) -> Result<(Vec<u8>, u64), crate::input::ReadError> {
    let io = |source| crate::input::ReadError::Io {
        file: path.display().to_string(),
        source,
    };
    let (mut f, len) = crate::input::open_file(path, u64::MAX)?;
    let mut v = Vec::with_capacity(4096);
    let mut want = 4096;
    let mut scanned = 0;
    loop {
        let asked = want - v.len();
        let got = (&mut f)
            .take(asked as u64)
            .read_to_end(&mut v)
            .map_err(io)?;
        // Complete lines not yet looked at.
        let end = v.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
        if end > scanned {
            if v[scanned..end]
                .split_inclusive(|&b| b == b'\n')
                .any(|l| ends(l.trim_ascii()))
            {
                return Ok((v, len));
            }
            scanned = end;
        }
        if got < asked || v.len() >= HEAD_BYTES {
            return Ok((v, len));
        }
        want = (want * 4).min(HEAD_BYTES);
    }
}

/// The header part of a text dump's start ([`read_head`]): up to its first line that
/// `data_line` takes for data (a vb dump's `vertex-data:`/`instance-data:` line or first
/// `vbN[i]…` line, an ib dump's first index), else its last complete line; and whether that
/// is the whole header (a data line, or the end of the file, came within [`HEAD_BYTES`]).
fn header_part(text: &[u8], data_line: fn(&[u8]) -> bool) -> (&[u8], bool) {
    let mut pos = 0;
    for line in text.split_inclusive(|&b| b == b'\n') {
        if data_line(line.trim_ascii()) {
            return (&text[..pos], true);
        }
        if !line.ends_with(b"\n") {
            break;
        }
        pos += line.len();
    }
    if text.len() < HEAD_BYTES {
        (text, true)
    } else {
        (&text[..pos], false)
    }
}

fn ib_header(file: &str, text: &[u8]) -> (IbHeader, Vec<CaptureWarning>) {
    let mut h = IbHeader::default();
    let mut w = Vec::new();
    for (i, line) in text.split(|&b| b == b'\n').enumerate() {
        let t = line.trim_ascii();
        if t.is_empty() {
            continue;
        }
        if t[0].is_ascii_digit() {
            break;
        }
        let Some(c) = t.iter().position(|&b| b == b':') else {
            continue;
        };
        let (k, v) = (t[..c].trim_ascii(), t[c + 1..].trim_ascii());
        let v = String::from_utf8_lossy(v);
        let num = v.parse::<u32>().ok();
        let mut bad = false;
        match k {
            b"byte offset" => {
                h.byte_offset = num.unwrap_or_else(|| {
                    bad = true;
                    0
                })
            }
            b"first index" => {
                h.first_index = num.unwrap_or_else(|| {
                    bad = true;
                    0
                })
            }
            b"index count" => {
                h.index_count = num;
                bad = num.is_none();
            }
            b"topology" => {
                h.topology = parse_topology(&v);
                bad = h.topology.is_none();
            }
            b"format" => {
                h.format = parse_index_format(&v);
                bad = h.format.is_none();
            }
            _ => {}
        }
        if bad {
            w.push(CaptureWarning {
                file: file.to_string(),
                line: Some(i + 1),
                value: Some(crate::capture::excerpt(v.as_bytes())),
                message: format!("`{}:` does not parse", String::from_utf8_lossy(k)),
            });
        }
    }
    (h, w)
}

/// A file's size (`None`: it cannot be looked up; reading it says why).
fn size_of(path: &Path) -> Option<u64> {
    fs::metadata(path).ok().map(|m| m.len())
}

/// The draw of `key` with nothing read yet.
fn bare_draw(key: Key) -> Draw {
    Draw {
        context: key.0,
        frame: key.1,
        number: key.2,
        log: None,
        vbs: Vec::new(),
        ib: None,
        resources: Vec::new(),
        shaders: Shaders::default(),
        layout: None,
        topology: None,
        problems: Vec::new(),
    }
}

/// The layouts read so far, each kept once (draws of one layout share it).
type Layouts = HashMap<Vec<InputElementDesc>, Arc<Vec<InputElementDesc>>>;

/// What a thread that read and checked chunks of draws hands back: the chunks (each with
/// the index of its first draw), the bytes of their dumps, the layouts it kept.
#[derive(Default)]
struct Finished {
    chunks: Vec<(usize, Vec<Draw>)>,
    bytes: u64,
    layouts: Layouts,
}

/// Reads `d`'s headers into it (strides, offsets, counts, layout, topology, index format, the
/// binary dumps' sizes, problems); returns the bytes of its dumps.
fn read_headers(d: &mut Draw, heads: Heads, layouts: &mut Layouts) -> u64 {
    let h = read_draw_headers(d, heads);
    for (slot, n) in h.vb_bufs {
        if let Some(v) = d.vbs.iter_mut().find(|v| v.slot == slot) {
            v.buf_bytes = Some(n);
        }
    }
    if let (Some(ib), Some(n)) = (&mut d.ib, h.ib_buf) {
        ib.buf_bytes = Some(n);
    }
    for (slot, vb, whole) in h.vbs {
        let Some(v) = d.vbs.iter_mut().find(|v| v.slot == slot) else {
            continue;
        };
        v.stride = vb.stride;
        v.offset = vb.byte_offset;
        v.first_vertex = vb.first_vertex;
        v.vertex_count = vb.vertex_count;
        v.first_instance = vb.first_instance;
        v.instance_count = vb.instance_count;
        // The draw's layout where the slot has the same (most draws), else the shared one.
        let elements = match &d.layout {
            Some(l) if **l == vb.elements => l.clone(),
            _ => match layouts.get(&vb.elements) {
                Some(l) => l.clone(),
                None => {
                    let l = Arc::new(vb.elements);
                    layouts.insert((*l).clone(), l.clone());
                    l
                }
            },
        };
        // Kept for `Frame::load` where its parse is the one the draw's reader would make:
        // the whole header, without a warning (a header that warns is read again, so that
        // the reader's warnings are its own).
        if whole && vb.warnings.is_empty() && vb.values.is_none() {
            let plain =
                vb.remapped.len() == elements.len() && vb.remapped.iter().all(Option::is_none);
            v.head = Some(ParsedHead {
                byte_offset: vb.byte_offset,
                stride: vb.stride,
                first_vertex: vb.first_vertex,
                vertex_count: vb.vertex_count,
                first_instance: vb.first_instance,
                instance_count: vb.instance_count,
                topology: vb.topology,
                elements: elements.clone(),
                remapped: (!plain).then(|| Arc::new(vb.remapped)),
                slot: vb.slot,
            });
        }
        if d.layout.is_none() && !elements.is_empty() {
            d.layout = Some(elements);
        } else if let Some(l) = &d.layout
            && !elements.is_empty()
            && **l != *elements
        {
            d.problems.push(CaptureWarning {
                file: v
                    .txt
                    .as_ref()
                    .map(|p| p.display().to_string())
                    .unwrap_or_default(),
                line: None,
                value: None,
                message: "its element blocks differ from the draw's other vb dumps'".into(),
            });
        }
        if let Some(t) = vb.topology {
            d.topology = Some(t);
        }
    }
    if let (Some(ib), Some(hi)) = (&mut d.ib, h.ib) {
        ib.head = h.ib_head;
        ib.format = hi.format;
        ib.offset = hi.byte_offset;
        ib.first_index = hi.first_index;
        ib.index_count = hi.index_count;
        if let Some(t) = hi.topology {
            d.topology = d.topology.or(Some(t));
        }
    }
    d.problems.extend(h.problems);
    h.bytes
}

fn read_draw_headers(d: &Draw, mut heads: Heads) -> Headers {
    let mut out = Headers::default();
    // A text dump's size comes with its head (the handle's, not one more `stat`).
    for v in &d.vbs {
        if let Some(b) = &v.buf {
            let n = v.buf_bytes.or_else(|| size_of(b));
            if v.buf_bytes.is_none()
                && let Some(n) = n
            {
                out.vb_bufs.push((v.slot, n));
            }
            out.bytes += n.unwrap_or(0);
        }
    }
    if let Some(ib) = &d.ib
        && let Some(b) = &ib.buf
    {
        let n = ib.buf_bytes.or_else(|| size_of(b));
        if ib.buf_bytes.is_none() {
            out.ib_buf = n;
        }
        out.bytes += n.unwrap_or(0);
    }
    for v in &d.vbs {
        let Some(txt) = &v.txt else { continue };
        let read = match heads.vbs.iter().position(|h| h.0 == v.slot) {
            Some(i) => heads.vbs.swap_remove(i).1,
            None => read_vb_head(txt),
        };
        match read {
            Ok((len, parsed, whole)) => {
                out.bytes += len;
                match parsed {
                    Ok(vb) => out.vbs.push((v.slot, vb, whole)),
                    Err(e) => out.problems.push(CaptureWarning {
                        file: e.file,
                        line: e.line,
                        value: e.value,
                        message: e.message,
                    }),
                }
            }
            Err(e) => out.problems.push(CaptureWarning {
                file: txt.display().to_string(),
                line: None,
                value: None,
                message: crate::capture::why_unread(&e),
            }),
        }
    }
    if let Some(ib) = &d.ib
        && let Some(txt) = &ib.txt
    {
        match heads.ib.take().unwrap_or_else(|| read_ib_head(txt)) {
            Ok((len, (h, w), parsed)) => {
                out.bytes += len;
                out.ib = Some(h);
                out.ib_head = parsed;
                out.problems.extend(w);
            }
            Err(e) => out.problems.push(CaptureWarning {
                file: txt.display().to_string(),
                line: None,
                value: None,
                message: crate::capture::why_unread(&e),
            }),
        }
    }
    out
}

/// Reads and parses a vb text dump's header (see [`Head`]).
fn read_vb_head(txt: &Path) -> VbHead {
    let (text, len) = read_head(txt, vb_data_line)?;
    let file = txt.display().to_string();
    let (header, whole) = header_part(&text, vb_data_line);
    Ok((len, parse_vb_txt(&file, header, false), whole))
}

/// Reads and parses an ib text dump's header (see [`Head`]).
fn read_ib_head(txt: &Path) -> IbHead {
    let (text, len) = read_head(txt, ib_data_line)?;
    let file = txt.display().to_string();
    // The draw's reader parses the header again (its own parser) unless this one, made as
    // it makes it, is kept: whole, without a warning, with an index count.
    let (header, whole) = header_part(&text, ib_data_line);
    let parsed = if whole {
        crate::capture::migoto::parse_ib(&file, header, false)
            .ok()
            .filter(|ib| ib.warnings.is_empty() && ib.index_count.is_some())
            .map(|ib| ParsedIbHead {
                byte_offset: ib.byte_offset,
                first_index: ib.first_index,
                index_count: ib.index_count,
                topology: ib.topology,
                format: ib.format,
            })
    } else {
        None
    };
    Ok((len, ib_header(&file, &text), parsed))
}

/// Records where a draw's files disagree with each other or with its log line.
fn check(d: &mut Draw) {
    let mut p: Vec<CaptureWarning> = Vec::new();
    let id = d.id();
    let say =
        |p: &mut Vec<CaptureWarning>, file: Option<&PathBuf>, line: Option<usize>, m: String| {
            p.push(CaptureWarning {
                file: file.map_or_else(|| id.clone(), |f| f.display().to_string()),
                line,
                value: None,
                message: m,
            })
        };
    if let Some(l) = &d.log {
        let line = Some(l.line);
        // Hashes: the names' against the log's.
        for v in &d.vbs {
            let logged = l.vbs.iter().find(|b| b.slot == v.slot);
            match (logged, v.hash) {
                (None, _) if !l.call.is_dispatch() => say(
                    &mut p,
                    v.txt.as_ref().or(v.buf.as_ref()),
                    line,
                    format!(
                        "vb{} was dumped, and the log binds no buffer to slot {} at this draw",
                        v.slot, v.slot
                    ),
                ),
                (Some(b), Some(h))
                    if b.hash.is_some_and(|lh| lh != h && Some(lh) != v.orig_hash) =>
                {
                    say(
                        &mut p,
                        v.txt.as_ref().or(v.buf.as_ref()),
                        line,
                        format!(
                            "the name says vb{} hash {h:08x}, the log's IASetVertexBuffers says {:08x}",
                            v.slot,
                            b.hash.unwrap_or(0)
                        ),
                    )
                }
                _ => {}
            }
        }
        if let (Some(ib), Some(lib)) = (&d.ib, &l.ib) {
            let f = ib.txt.as_ref().or(ib.buf.as_ref());
            if let (Some(h), Some(lh)) = (ib.hash, lib.hash)
                && h != lh
                && Some(lh) != ib.orig_hash
            {
                say(
                    &mut p,
                    f,
                    line,
                    format!(
                        "the name says ib hash {h:08x}, the log's IASetIndexBuffer says {lh:08x}"
                    ),
                );
            }
            if ib.txt.is_some() {
                if let Some(fmt) = ib.format
                    && lib.format != Some(fmt)
                {
                    say(
                        &mut p,
                        f,
                        line,
                        format!(
                            "format {} in the dump, IASetIndexBuffer Format:{} in the log",
                            fmt.format(),
                            lib.format_value
                        ),
                    );
                }
                if ib.offset != lib.offset {
                    say(
                        &mut p,
                        f,
                        line,
                        format!(
                            "byte offset {} in the dump, IASetIndexBuffer Offset:{} in the log",
                            ib.offset, lib.offset
                        ),
                    );
                }
            }
        }
        for (stage, h) in d.shaders.iter() {
            let lh = l.shaders.get(stage);
            if let (Some(h), Some(lh)) = (h, lh)
                && h != lh
            {
                say(
                    &mut p,
                    None,
                    line,
                    format!(
                        "the file names say {stage} {h:016x}, the log's {}SetShader says {lh:016x}",
                        stage[..1].to_ascii_uppercase() + "S"
                    ),
                );
            }
        }
        // Counts: the headers' against the call.
        let vb0 = d.vbs.iter().find(|v| v.txt.is_some());
        match &l.call {
            Call::Direct(DrawCall::Draw {
                vertex_count,
                start_vertex,
            })
            | Call::Direct(DrawCall::DrawInstanced {
                vertex_count_per_instance: vertex_count,
                start_vertex,
                ..
            }) => {
                if let Some(v) = vb0 {
                    if v.vertex_count.is_some_and(|c| c != *vertex_count) {
                        say(
                            &mut p,
                            v.txt.as_ref(),
                            line,
                            format!(
                                "vertex count {} in the dump, {} in the log",
                                v.vertex_count.unwrap_or(0),
                                l.call.text()
                            ),
                        );
                    }
                    if v.first_vertex != *start_vertex {
                        say(
                            &mut p,
                            v.txt.as_ref(),
                            line,
                            format!(
                                "first vertex {} in the dump, {} in the log",
                                v.first_vertex,
                                l.call.text()
                            ),
                        );
                    }
                }
            }
            Call::Direct(DrawCall::DrawIndexed {
                index_count,
                start_index,
                base_vertex,
            })
            | Call::Direct(DrawCall::DrawIndexedInstanced {
                index_count_per_instance: index_count,
                start_index,
                base_vertex,
                ..
            }) => {
                match &d.ib {
                    Some(ib) if ib.txt.is_some() => {
                        if ib.index_count.is_some_and(|c| c != *index_count) {
                            say(
                                &mut p,
                                ib.txt.as_ref(),
                                line,
                                format!(
                                    "index count {} in the dump, {} in the log",
                                    ib.index_count.unwrap_or(0),
                                    l.call.text()
                                ),
                            );
                        }
                        if ib.first_index != *start_index {
                            say(
                                &mut p,
                                ib.txt.as_ref(),
                                line,
                                format!(
                                    "first index {} in the dump, {} in the log",
                                    ib.first_index,
                                    l.call.text()
                                ),
                            );
                        }
                    }
                    None if vb0.is_some() && *index_count > 0 => say(
                        &mut p,
                        vb0.and_then(|v| v.txt.as_ref()),
                        line,
                        format!(
                            "{} is indexed, and no ib dump is in the folder (3DMigoto dumps it with every vb text dump of an indexed draw)",
                            l.call.name()
                        ),
                    ),
                    _ => {}
                }
                if let Some(v) = vb0
                    && (v.first_vertex != 0 || v.vertex_count.is_some())
                    && v.first_vertex != *base_vertex as u32
                {
                    say(
                        &mut p,
                        v.txt.as_ref(),
                        line,
                        format!(
                            "first vertex {} in the dump, BaseVertexLocation {} in the log",
                            v.first_vertex, base_vertex
                        ),
                    );
                }
            }
            _ => {}
        }
        if let Some(v) = vb0
            && let Some(ic) = d.instance_count()
            && l.call.text().contains("Instanced(")
            && v.instance_count.is_some_and(|c| c != ic)
        {
            say(
                &mut p,
                v.txt.as_ref(),
                line,
                format!(
                    "instance count {} in the dump, {ic} in the log",
                    v.instance_count.unwrap_or(0)
                ),
            );
        }
        if let (Some(lt), Some(t)) = (l.topology, d.topology)
            && lt != t
        {
            say(
                &mut p,
                vb0.and_then(|v| v.txt.as_ref()),
                line,
                format!(
                    "topology {} in the dump, IASetPrimitiveTopology {} in the log",
                    t.name(),
                    lt.name()
                ),
            );
        }
    }
    // Binary sizes against the headers.
    let indexed = d.call().map_or(d.ib.is_some(), |c| c.indexed());
    for v in &d.vbs {
        if let (Some(size), Some(stride)) = (v.buf_bytes, v.stride) {
            // A slot of per-instance data holds instances, not vertices (3DMigoto writes the
            // draw's vertex range into every slot's header).
            let per_instance = d.layout.as_ref().is_some_and(|l| {
                let mine: Vec<_> = l.iter().filter(|e| e.input_slot == v.slot).collect();
                !mine.is_empty()
                    && mine
                        .iter()
                        .all(|e| e.input_slot_class == crate::element::INPUT_PER_INSTANCE_DATA)
            });
            let rows = if per_instance {
                let rate = d
                    .layout
                    .as_ref()
                    .and_then(|l| l.iter().find(|e| e.input_slot == v.slot))
                    .map_or(1, |e| e.instance_data_step_rate.max(1));
                v.first_instance as u64
                    + (d.instance_count().unwrap_or(1) as u64).div_ceil(rate as u64)
            } else {
                crate::capture::migoto::header_rows(v.first_vertex, v.vertex_count, indexed)
            };
            let need = v.offset as u64 + stride as u64 * rows;
            if need > size {
                say(
                    &mut p,
                    v.buf.as_ref(),
                    None,
                    format!(
                        "{size} bytes, and its text dump's header needs {need} (byte offset + stride × the {} it reads)",
                        if per_instance {
                            "instances"
                        } else {
                            "first vertex + vertex count"
                        }
                    ),
                );
            }
        }
    }
    if let Some(ib) = &d.ib
        && let (Some(size), Some(f), Some(c)) = (ib.buf_bytes, ib.format, ib.index_count)
    {
        let need = ib.offset as u64 + (ib.first_index as u64 + c as u64) * f.size() as u64;
        if need > size {
            say(
                &mut p,
                ib.buf.as_ref(),
                None,
                format!(
                    "{size} bytes, and its text dump's header needs {need} (byte offset + (first index + index count) × index size)"
                ),
            );
        }
    }
    // De-duplicated text names carry the header's values too.
    for v in &d.vbs {
        let Some(txt) = &v.txt else { continue };
        let Some(n) = txt
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(name::parse_deduped_name)
        else {
            continue;
        };
        for (k, have) in [("stride", v.stride), ("count", v.vertex_count)] {
            if let Some(want) = n.number(k)
                && have.is_some_and(|h| h != want)
            {
                say(
                    &mut p,
                    Some(txt),
                    None,
                    format!("the name says {k}={want}, the header {}", have.unwrap_or(0)),
                );
            }
        }
    }
    d.problems.extend(p);
}

fn hex8(h: Option<u32>) -> String {
    h.map_or(String::new(), |h| format!("{h:08x}"))
}

fn hex16(h: Option<u64>) -> String {
    h.map_or(String::new(), |h| format!("{h:016x}"))
}

impl Draw {
    /// The columns of [`Draw::row`], in order (the CSV header of `inlay frame --csv`).
    pub const COLUMNS: [&'static str; 17] = [
        "draw",
        "call",
        "index_count",
        "vertex_count",
        "instance_count",
        "topology",
        "vb",
        "ib",
        "vs",
        "hs",
        "ds",
        "gs",
        "ps",
        "cs",
        "strides",
        "layout",
        "problems",
    ];

    /// The draw as one row of text fields ([`Draw::COLUMNS`]): hashes in hex, `vb` as
    /// `SLOT=HASH` joined by spaces, strides as `SLOT:STRIDE`.
    pub fn row(&self) -> Vec<String> {
        let opt = |v: Option<u32>| v.map_or(String::new(), |v| v.to_string());
        vec![
            self.id(),
            self.call().map_or("?".into(), |c| c.name().to_string()),
            opt(self.index_count()),
            opt(self.vertex_count()),
            opt(self.instance_count()),
            self.topology.map_or(String::new(), |t| t.name()),
            self.vbs
                .iter()
                .map(|v| format!("{}={}", v.slot, hex8(v.hash)))
                .collect::<Vec<_>>()
                .join(" "),
            hex8(self.ib.as_ref().and_then(|i| i.hash)),
            hex16(self.shaders.vs),
            hex16(self.shaders.hs),
            hex16(self.shaders.ds),
            hex16(self.shaders.gs),
            hex16(self.shaders.ps),
            hex16(self.shaders.cs),
            self.vbs
                .iter()
                .filter_map(|v| v.stride.map(|s| format!("{}:{s}", v.slot)))
                .collect::<Vec<_>>()
                .join(" "),
            self.layout_brief(),
            self.problems.len().to_string(),
        ]
    }

    /// The draw as JSON: what the log says, each dump with its files, the layout and the
    /// problems (the record of `inlay frame --json`, the page's list and Python's draws).
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::json;
        let path = |p: &Option<PathBuf>| p.as_ref().map(|p| p.display().to_string());
        json!({
            "draw": self.id(),
            "number": self.number,
            "frame": self.frame,
            "context": self.context.map(|c| format!("0x{c:016X}")),
            "call": self.call().map(|c| c.name()),
            "call_text": self.call().map(|c| c.text()),
            "log_line": self.log.as_ref().map(|l| l.line),
            "index_count": self.index_count(),
            "vertex_count": self.vertex_count(),
            "instance_count": self.instance_count(),
            "topology": self.topology.map(|t| t.name()),
            "shaders": self.shaders.iter().filter_map(|(s, h)| h.map(|h| (s.to_string(), json!(format!("{h:016x}"))))).collect::<serde_json::Map<_, _>>(),
            "vbs": self.vbs.iter().map(|v| json!({
                "slot": v.slot, "hash": v.hash.map(|h| format!("{h:08x}")), "stride": v.stride,
                "offset": v.offset, "first_vertex": v.first_vertex, "vertex_count": v.vertex_count,
                "txt": path(&v.txt), "buf": path(&v.buf), "buf_bytes": v.buf_bytes,
            })).collect::<Vec<_>>(),
            "ib": self.ib.as_ref().map(|i| json!({
                "hash": i.hash.map(|h| format!("{h:08x}")), "format": i.format.map(|f| f.format().to_string()),
                "offset": i.offset, "first_index": i.first_index, "index_count": i.index_count,
                "txt": path(&i.txt), "buf": path(&i.buf), "buf_bytes": i.buf_bytes,
            })),
            "resources": self.resources.iter().map(|r| json!({
                "register": format!("{}{}", r.stage.map(|s| format!("{s}s-")).unwrap_or_default(), r.register.name()),
                "hash": r.hash.map(|h| format!("{h:08x}")), "file": r.path.display().to_string(),
            })).collect::<Vec<_>>(),
            "layout": self.layout.as_ref().map(|l| l.iter().map(|e| json!({
                "semantic": e.name(), "index": e.semantic_index, "format": e.format.to_string(),
                "slot": e.input_slot,
                "offset": if e.aligned_byte_offset == crate::element::APPEND_ALIGNED_ELEMENT { json!("append") } else { json!(e.aligned_byte_offset) },
                "class": if e.input_slot_class == crate::element::INPUT_PER_INSTANCE_DATA { "per-instance" } else { "per-vertex" },
                "step_rate": e.instance_data_step_rate,
            })).collect::<Vec<_>>()),
            "problems": self.problems.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::synth::{Dedupe, SynthOptions, generate};

    /// However many headers the listing may read ahead (none, some, all), the index is the
    /// same as one read with no thread beside the listing: the draws past the allowance have
    /// their headers read by their readers.
    #[test]
    fn the_headers_read_ahead_are_bounded_and_change_nothing() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("fa");
        let o = SynthOptions {
            draws: 120,
            dedupe: Dedupe::Copies,
            problems: true,
            ..SynthOptions::default()
        };
        generate(&dir, &o).unwrap();
        let one = Frame::open_with(&dir, &FrameOptions { threads: 1 }).unwrap();
        assert!(one.draws.iter().any(|d| !d.problems.is_empty()));
        let texts = one
            .draws
            .iter()
            .map(|d| {
                d.vbs.iter().filter(|v| v.txt.is_some()).count()
                    + d.ib.as_ref().map_or(0, |i| usize::from(i.txt.is_some()))
            })
            .sum::<usize>();
        assert!(texts > 100, "{texts} text dumps");
        for heads in [0, 7, texts / 2, usize::MAX] {
            let f = Frame::open_ahead(&dir, &FrameOptions { threads: 6 }, heads).unwrap();
            assert_eq!(f.draws, one.draws, "{heads} heads ahead");
            assert_eq!(f.warnings, one.warnings, "{heads} heads ahead");
            assert_eq!(f.bytes, one.bytes, "{heads} heads ahead");
        }
    }

    /// `Frame::load` reads each draw as `load_files` reads the draw's files from the disk,
    /// whether it takes the vb and ib headers the index kept or reads them again: on frames
    /// of every naming and storage variant, with a remapped element, and with headers that
    /// warn (not kept: the draw's reader reads them again and warns).
    #[test]
    fn a_draw_loads_the_same_with_the_headers_the_index_kept() {
        let root = tempfile::tempdir().unwrap();
        let variants = [
            SynthOptions {
                dedupe: Dedupe::Copies,
                problems: true,
                ..SynthOptions::default()
            },
            SynthOptions {
                hold: Some(2),
                deferred: true,
                register_first: true,
                geometry_shader: true,
                ..SynthOptions::default()
            },
            SynthOptions {
                dedupe: Dedupe::Symlinks,
                layout_change: true,
                ..SynthOptions::default()
            },
            SynthOptions {
                buf: false,
                ..SynthOptions::default()
            },
            SynthOptions {
                dedupe: Dedupe::Legacy,
                ..SynthOptions::default()
            },
        ];
        let same = |f: &Frame, what: &str| -> (usize, usize) {
            let mut kept = (0, 0);
            for d in &f.draws {
                kept.0 += d
                    .vbs
                    .iter()
                    .filter(|v| v.head.is_some() && v.buf.is_some())
                    .count();
                kept.1 +=
                    d.ib.as_ref()
                        .map_or(0, |i| usize::from(i.head.is_some() && i.buf.is_some()));
                let fresh = d
                    .files()
                    .and_then(|files| crate::capture::migoto::load_files(&files));
                assert_eq!(f.load(d), fresh, "{what}: draw {}", d.id());
            }
            kept
        };
        for (k, o) in variants.iter().enumerate() {
            let dir = root.path().join(format!("v{k}"));
            generate(&dir, o).unwrap();
            let f = Frame::open_with(&dir, &FrameOptions { threads: 3 }).unwrap();
            let (vb, ib) = same(&f, &format!("variant {k}"));
            // Kept wherever a slot has both dumps and a layout in its text.
            assert_eq!(
                vb > 0,
                o.buf && o.dedupe != Dedupe::Legacy,
                "variant {k}: {vb}"
            );
            assert_eq!(ib > 0, o.buf, "variant {k}: {ib}");
        }
        // Two draws' vb0 headers changed: one element remapped, one line that warns.
        let dir = root.path().join("v0");
        let f = Frame::open_with(&dir, &FrameOptions { threads: 1 }).unwrap();
        let mut with_buf = f.draws.iter().filter(|d| {
            d.vbs
                .first()
                .is_some_and(|v| v.head.is_some() && v.buf.is_some())
        });
        let (a, b) = (with_buf.next().unwrap(), with_buf.next().unwrap());
        let c = f
            .draws
            .iter()
            .find(|d| d.ib.as_ref().is_some_and(|i| i.head.is_some()) && d.id() != b.id())
            .unwrap();
        let ib_txt = c.ib.as_ref().unwrap().txt.clone().unwrap();
        let text = fs::read_to_string(&ib_txt).unwrap();
        fs::write(&ib_txt, format!("unheard of: 2\n{text}")).unwrap();
        let c = c.id();
        let edit = |d: &Draw, f: &dyn Fn(String) -> String| {
            let path = d.vbs[0].txt.clone().unwrap();
            let text = fs::read_to_string(&path).unwrap();
            fs::write(&path, f(text)).unwrap();
        };
        edit(a, &|t| {
            t.replacen(
                "  InstanceDataStepRate: 0\n",
                "  InstanceDataStepRate: 0\n  RemappedSemanticName: TEXCOORD\n  \
                 RemappedSemanticIndex: 7\n",
                1,
            )
        });
        edit(b, &|t| format!("unheard of: 1\n{t}"));
        let (a, b) = (a.id(), b.id());
        let f = Frame::open_with(&dir, &FrameOptions { threads: 1 }).unwrap();
        let draw = |id: &str| f.draws.iter().find(|d| d.id() == id).unwrap();
        let remapped = &draw(&a).vbs[0].head.as_ref().unwrap().remapped;
        assert_eq!(
            remapped.as_deref().map(|r| r[0].clone()),
            Some(Some(("TEXCOORD".to_string(), 7)))
        );
        assert!(draw(&b).vbs[0].head.is_none());
        assert!(draw(&c).ib.as_ref().unwrap().head.is_none());
        let warned = f.load(draw(&c)).unwrap();
        assert!(
            warned.warnings.iter().any(|w| w.message == "unknown header line ignored"
                && Path::new(&w.file) == ib_txt),
            "{:?}",
            warned.warnings
        );
        let warned = f.load(draw(&b)).unwrap();
        assert!(
            warned
                .warnings
                .iter()
                .any(|w| w.message == "unknown header line ignored"
                    && Path::new(&w.file) == draw(&b).vbs[0].txt.as_deref().unwrap()),
            "{:?}",
            warned.warnings
        );
        same(&f, "edited");
    }
}
