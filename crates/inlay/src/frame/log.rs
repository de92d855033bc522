//! 3DMigoto's frame-analysis log (`log.txt`, and `log-0xPTR.txt` per deferred context), read
//! back into the draws it records.
//!
//! Every line 3DMigoto writes starts with the draw number the call precedes (`%06u `, after
//! `F.` with the `hold` option), then the call as `NAME(Key:value, …)`; calls whose log line
//! ends with a hash (`VSSetShader(…) hash=%016llx`, `IASetIndexBuffer(…) hash=%08x`) carry it
//! after the closing parenthesis. Bound resources follow on lines of their own without a
//! number: `       N: resource=0x… hash=%08x[ orig_hash=%08x][ hash_contamination=…]`
//! (`FrameAnalysisLogResource`). The first line is `analyse_options: %08x`. 3DMigoto's own
//! messages are `NNNNNN 3DMigoto …`, among them `Dumping Buffer PER-DRAW-PATH -> SAVED-PATH`,
//! which links each per-draw name to the de-duplicated file that holds it.
//!
//! The reader keeps the input-assembler state as the calls set it (`IASetVertexBuffers`,
//! `IASetIndexBuffer`, `IASetInputLayout`, `IASetPrimitiveTopology`, `xxSetShader`,
//! `ClearState`, and `ExecuteCommandList(…, RestoreContextState:false)`, which leaves the
//! default state) and records a [`LoggedDraw`] at each draw or dispatch. `DrawIndexed` logs
//! `BaseVertexLocation` with `%u`, so a negative base vertex reads as its two's complement;
//! 3DMigoto 1.2 logs a shader hash of all zeros for no shader, read as none. The line of a
//! query call it does not track (`Begin`, `End`, `GetData`, `SetPredication`) is not ended,
//! so the next call runs on after it; both are read. A `Dumping Buffer` line of a resource
//! dumped outside a draw (`DDDDDD.K-update=…`) is passed over, and one of a deferred
//! context's draw logged by the immediate context (`deferred_ctx_accurate`) is kept in
//! [`Log::deferred_dumps`] for its draw.
//! Lines are read one at a time (at most [`MAX_LINE`] bytes are kept of a line), so memory
//! is bounded by the number of draws, not the log's size.

#![forbid(unsafe_code)]

use std::io::BufRead;

use super::name::Shaders;
use crate::assembler::Topology;
use crate::assembler::draw::DrawCall;
use crate::buffer::IndexFormat;
use crate::capture::CaptureWarning;

/// Longest line kept (bytes); the rest of a longer line (a `data:` hex dump) is skipped.
pub const MAX_LINE: usize = 64 * 1024;

/// Most warnings one log contributes (the rest are counted in a last one).
const MAX_WARNINGS: usize = 200;

/// D3D11's vertex-buffer slot count.
const VB_SLOTS: usize = 32;

/// A draw or dispatch call as the log records it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Call {
    /// `Draw`, `DrawIndexed`, `DrawInstanced` or `DrawIndexedInstanced` with its arguments.
    Direct(DrawCall<'static>),
    /// `DrawAuto()`.
    DrawAuto,
    /// `DrawInstancedIndirect(pBufferForArgs, AlignedByteOffsetForArgs)`.
    DrawInstancedIndirect {
        /// `AlignedByteOffsetForArgs`.
        offset: u32,
        /// The argument buffer's hash, if logged.
        args_hash: Option<u32>,
    },
    /// `DrawIndexedInstancedIndirect(pBufferForArgs, AlignedByteOffsetForArgs)`.
    DrawIndexedInstancedIndirect {
        /// `AlignedByteOffsetForArgs`.
        offset: u32,
        /// The argument buffer's hash, if logged.
        args_hash: Option<u32>,
    },
    /// `Dispatch(X, Y, Z)`.
    Dispatch {
        /// Thread-group counts.
        groups: [u32; 3],
    },
    /// `DispatchIndirect(pBufferForArgs, AlignedByteOffsetForArgs)`.
    DispatchIndirect {
        /// `AlignedByteOffsetForArgs`.
        offset: u32,
        /// The argument buffer's hash, if logged.
        args_hash: Option<u32>,
    },
}

impl Call {
    /// The API call's name.
    pub fn name(&self) -> &'static str {
        match self {
            Call::Direct(d) => d.name(),
            Call::DrawAuto => "DrawAuto",
            Call::DrawInstancedIndirect { .. } => "DrawInstancedIndirect",
            Call::DrawIndexedInstancedIndirect { .. } => "DrawIndexedInstancedIndirect",
            Call::Dispatch { .. } => "Dispatch",
            Call::DispatchIndirect { .. } => "DispatchIndirect",
        }
    }

    /// Whether the call reads the index buffer.
    pub fn indexed(&self) -> bool {
        match self {
            Call::Direct(d) => matches!(
                d,
                DrawCall::DrawIndexed { .. } | DrawCall::DrawIndexedInstanced { .. }
            ),
            Call::DrawIndexedInstancedIndirect { .. } => true,
            _ => false,
        }
    }

    /// Whether the call is a compute dispatch (no input assembler).
    pub fn is_dispatch(&self) -> bool {
        matches!(self, Call::Dispatch { .. } | Call::DispatchIndirect { .. })
    }

    /// The call with its arguments as the log spells them, e.g.
    /// `DrawIndexed(IndexCount:300, StartIndexLocation:0, BaseVertexLocation:0)`.
    pub fn text(&self) -> String {
        match self {
            Call::Direct(DrawCall::Draw {
                vertex_count,
                start_vertex,
            }) => format!("Draw(VertexCount:{vertex_count}, StartVertexLocation:{start_vertex})"),
            Call::Direct(DrawCall::DrawIndexed {
                index_count,
                start_index,
                base_vertex,
            }) => format!(
                "DrawIndexed(IndexCount:{index_count}, StartIndexLocation:{start_index}, BaseVertexLocation:{base_vertex})"
            ),
            Call::Direct(DrawCall::DrawInstanced {
                vertex_count_per_instance,
                instance_count,
                start_vertex,
                start_instance,
            }) => format!(
                "DrawInstanced(VertexCountPerInstance:{vertex_count_per_instance}, InstanceCount:{instance_count}, StartVertexLocation:{start_vertex}, StartInstanceLocation:{start_instance})"
            ),
            Call::Direct(DrawCall::DrawIndexedInstanced {
                index_count_per_instance,
                instance_count,
                start_index,
                base_vertex,
                start_instance,
            }) => format!(
                "DrawIndexedInstanced(IndexCountPerInstance:{index_count_per_instance}, InstanceCount:{instance_count}, StartIndexLocation:{start_index}, BaseVertexLocation:{base_vertex}, StartInstanceLocation:{start_instance})"
            ),
            Call::Direct(d) => d.name().to_string(),
            Call::DrawAuto => "DrawAuto()".into(),
            Call::DrawInstancedIndirect { offset, .. }
            | Call::DrawIndexedInstancedIndirect { offset, .. }
            | Call::DispatchIndirect { offset, .. } => {
                format!("{}(AlignedByteOffsetForArgs:{offset})", self.name())
            }
            Call::Dispatch { groups: [x, y, z] } => format!(
                "Dispatch(ThreadGroupCountX:{x}, ThreadGroupCountY:{y}, ThreadGroupCountZ:{z})"
            ),
        }
    }
}

/// A vertex buffer bound at a draw, as the log records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoggedBuffer {
    /// The slot.
    pub slot: u32,
    /// Its hash (`None` when 3DMigoto had none for it).
    pub hash: Option<u32>,
    /// The original hash, when it differs.
    pub orig_hash: Option<u32>,
}

/// The index buffer bound at a draw, as the log records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoggedIndexBuffer {
    /// Its hash.
    pub hash: Option<u32>,
    /// `Format`, if it is an index format.
    pub format: Option<IndexFormat>,
    /// The raw `Format` number.
    pub format_value: u32,
    /// `Offset`.
    pub offset: u32,
}

/// One draw or dispatch of the log, with the state it ran with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoggedDraw {
    /// The `hold` frame number.
    pub frame: Option<u32>,
    /// The draw number.
    pub number: u32,
    /// The log line (1-based) of the call.
    pub line: usize,
    /// The call.
    pub call: Call,
    /// Bound vertex buffers, by slot.
    pub vbs: Vec<LoggedBuffer>,
    /// The bound index buffer.
    pub ib: Option<LoggedIndexBuffer>,
    /// The primitive topology set, if any.
    pub topology: Option<Topology>,
    /// The input layout object's address (`IASetInputLayout`), 0 for none.
    pub layout: Option<u64>,
    /// The shaders bound.
    pub shaders: Shaders,
    /// `Dumping Buffer A -> B` lines of this draw: (A's file name, B's path as logged).
    pub dumped: Vec<(String, String)>,
}

/// A `Dumping Buffer` line of a deferred context's draw, logged elsewhere
/// ([`Log::deferred_dumps`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeferredDump {
    /// The deferred context (`ctx-0xPTR` of the path).
    pub context: u64,
    /// The `hold` frame number of the per-draw name.
    pub frame: Option<u32>,
    /// The draw number of the per-draw name (the deferred context's count).
    pub draw: u32,
    /// The per-draw file name and the saved path, as for [`LoggedDraw::dumped`].
    pub dumped: (String, String),
    /// The log line (1-based).
    pub line: usize,
}

/// A whole log, read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Log {
    /// `analyse_options` of the first line.
    pub options: Option<u32>,
    /// The draws and dispatches, in log order.
    pub draws: Vec<LoggedDraw>,
    /// Lines read.
    pub lines: usize,
    /// Whether the last line had no line end (a log cut short).
    pub truncated: bool,
    /// `Dumping Buffer` lines for a draw of a deferred context (`…\ctx-0xPTR\DDDDDD-….ext`)
    /// that are not the log's draw before them: with `deferred_ctx_accurate`, 3DMigoto dumps
    /// a deferred context's buffers on the immediate context after `ExecuteCommandList`
    /// (`dump_deferred_resources`), so the line is in the immediate context's log under its
    /// own draw number. The frame attaches each to its context's draw.
    pub deferred_dumps: Vec<DeferredDump>,
    /// What the reader doubted, naming the file and line.
    pub warnings: Vec<CaptureWarning>,
}

#[derive(Default, Clone)]
struct State {
    vbs: [Option<LoggedBuffer>; VB_SLOTS],
    ib: Option<LoggedIndexBuffer>,
    topology: Option<Topology>,
    layout: Option<u64>,
    shaders: Shaders,
}

/// Which call the un-numbered slot lines that follow belong to.
enum Pending {
    None,
    VertexBuffers,
}

/// Reads one line into `buf` (without its line end), keeping at most [`MAX_LINE`] bytes.
/// Returns `None` at the end of input, else whether the line ended with `\n`.
fn read_line(r: &mut dyn BufRead, buf: &mut Vec<u8>) -> std::io::Result<Option<bool>> {
    buf.clear();
    let mut any = false;
    loop {
        let chunk = r.fill_buf()?;
        if chunk.is_empty() {
            return Ok(any.then_some(false));
        }
        any = true;
        match newline(chunk) {
            Some(p) => {
                let room = MAX_LINE.saturating_sub(buf.len());
                buf.extend_from_slice(&chunk[..p.min(room)]);
                r.consume(p + 1);
                if buf.last() == Some(&b'\r') {
                    buf.pop();
                }
                return Ok(Some(true));
            }
            None => {
                let n = chunk.len();
                let room = MAX_LINE.saturating_sub(buf.len());
                buf.extend_from_slice(&chunk[..n.min(room)]);
                r.consume(n);
            }
        }
    }
}

/// The first `\n` in `bytes` (a log is megabytes of lines of a hundred bytes or so; a
/// byte-at-a-time search was a seventh of its parse).
fn newline(bytes: &[u8]) -> Option<usize> {
    memchr::memchr(b'\n', bytes)
}

fn hex_u32(s: &str) -> Option<u32> {
    if s.len() != 8 {
        return None;
    }
    u32::from_str_radix(s, 16).ok()
}

fn hex_u64(s: &str) -> Option<u64> {
    let s = s
        .strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .unwrap_or(s);
    if s.is_empty() || s.len() > 16 {
        return None;
    }
    u64::from_str_radix(s, 16).ok()
}

/// `[F.]DDDDDD ` at the start of a line.
fn split_number(line: &str) -> Option<(Option<u32>, u32, &str)> {
    let sp = line.find(' ')?;
    let (num, rest) = (&line[..sp], &line[sp + 1..]);
    let (frame, draw) = match num.split_once('.') {
        Some((f, d)) => (Some(f.parse().ok()?), d),
        None => (None, num),
    };
    if draw.is_empty() || !draw.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((frame, draw.parse().ok()?, rest))
}

/// Where a second call starts on a numbered line, if one does. 3DMigoto ends the line of
/// `Begin`, `End`, `GetData` and `SetPredication` only for a query it knows
/// (`FrameAnalysisLogAsyncQuery`), so the next call, with the same number (no draw came
/// between), runs on: `000012 End(pAsync:0x…)000012 IASetVertexBuffers(…)`. The second call
/// is the line's number and a space followed by a call name and `(`, after the first `)`.
fn run_on(line: &[u8]) -> Option<usize> {
    let sp = line.iter().position(|&b| b == b' ')?;
    let number = &line[..sp + 1];
    if sp == 0 || !line[..sp].iter().all(|b| b.is_ascii_digit() || *b == b'.') {
        return None;
    }
    // Only these calls' lines may be left open (most lines end here, unsearched): in
    // 3DMigoto's HackerContext.cpp / FrameAnalysis.cpp, Begin, End, GetData and
    // SetPredication log through `FrameAnalysisLogNoNL` and then `FrameAnalysisLogAsyncQuery`,
    // which returns without the line's `\n` for a query it does not track; the other
    // `NoNL` calls, Map and Unmap, end theirs in `FrameAnalysisLogResourceHash`.
    let call = &line[sp + 1..];
    if ![&b"Begin("[..], b"End(", b"GetData(", b"SetPredication("]
        .iter()
        .any(|c| call.starts_with(c))
    {
        return None;
    }
    let close = sp + line[sp..].iter().position(|&b| b == b')')?;
    let mut from = close + 1;
    // Each space that ends a copy of the number (spaces are few; most follow a comma).
    while let Some(p) = line
        .get(from + number.len() - 1..)
        .and_then(|rest| memchr::memchr(b' ', rest))
    {
        // The copy that this space would end starts here.
        let at = from + p;
        if !line[at..].starts_with(number) {
            from = at + 1;
            continue;
        }
        let after = &line[at + number.len()..];
        let name = after
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric())
            .count();
        if name > 0 && after.get(name) == Some(&b'(') {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// The context of a `ctx-0xPTR` folder name.
fn context_folder(name: &str) -> Option<u64> {
    name.strip_prefix("ctx-").and_then(hex_u64)
}

/// The arguments of a call, `K:v, K:v` (split at each `, `; each holds a `:`), looked up by
/// key without a list being made: a call has a few, and a log has a call a line.
#[derive(Clone, Copy)]
struct Args<'a>(&'a str);

impl<'a> Args<'a> {
    /// Each `K:v` piece.
    fn pieces(self) -> impl Iterator<Item = &'a str> {
        let text = self.0;
        let mut from = Some(0);
        std::iter::from_fn(move || {
            let start = from?;
            let rest = &text[start..];
            // The next `, ` (a comma without a space after it is part of the value).
            let mut at = 0;
            loop {
                match memchr::memchr(b',', &rest.as_bytes()[at..]) {
                    Some(c) if rest.as_bytes().get(at + c + 1) == Some(&b' ') => {
                        from = Some(start + at + c + 2);
                        return Some(&rest[..at + c]);
                    }
                    Some(c) => at += c + 1,
                    None => {
                        from = None;
                        return Some(rest);
                    }
                }
            }
        })
    }

    /// Each piece as (key, value), trimmed; `None` for a piece without `:`.
    fn pairs(self) -> impl Iterator<Item = Option<(&'a str, &'a str)>> {
        self.pieces().map(|a| {
            let c = memchr::memchr(b':', a.as_bytes())?;
            Some((a[..c].trim(), a[c + 1..].trim()))
        })
    }

    /// The value of `key`.
    fn get(self, key: &str) -> Option<&'a str> {
        self.pairs()
            .flatten()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v)
    }
}

/// `NAME(K:v, K:v)TAIL` → (NAME, arguments, TAIL).
fn split_call(text: &str) -> Option<(&str, Args<'_>, &str)> {
    let open = memchr::memchr(b'(', text.as_bytes())?;
    let name = &text[..open];
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return None;
    }
    let close = open + memchr::memchr(b')', &text.as_bytes()[open..])?;
    let args = &text[open + 1..close];
    let args = if args.trim().is_empty() { "" } else { args };
    let parsed = Args(args);
    if !args.is_empty() && parsed.pairs().any(|p| p.is_none()) {
        return None;
    }
    Some((name, parsed, &text[close + 1..]))
}

/// ` hash=H orig_hash=H hash_contamination=…` after a call or on a slot line.
fn tail_hashes(tail: &str) -> (Option<&str>, Option<&str>) {
    let mut hash = None;
    let mut orig = None;
    for w in tail.split_whitespace() {
        if let Some(h) = w.strip_prefix("hash=") {
            hash = Some(h);
        } else if let Some(h) = w.strip_prefix("orig_hash=") {
            orig = Some(h);
        }
    }
    (hash, orig)
}

struct Reader<'a> {
    file: &'a str,
    warnings: Vec<CaptureWarning>,
    dropped: usize,
}

impl Reader<'_> {
    fn warn(&mut self, line: usize, value: &str, message: impl Into<String>) {
        if self.warnings.len() < MAX_WARNINGS {
            self.warnings.push(CaptureWarning {
                file: self.file.to_string(),
                line: Some(line),
                value: (!value.is_empty()).then(|| crate::capture::excerpt(value.as_bytes())),
                message: message.into(),
            });
        } else {
            self.dropped += 1;
        }
    }
}

/// Reads a frame-analysis log. `file` names it in warnings. An unreadable stretch ends the
/// reading with a warning; nothing panics.
pub fn parse_log(file: &str, mut input: impl BufRead) -> Log {
    let mut rd = Reader {
        file,
        warnings: Vec::new(),
        dropped: 0,
    };
    let mut log = Log::default();
    let mut state = State::default();
    let mut pending = Pending::None;
    let mut buf = Vec::new();
    let mut n = 0usize;
    // Draws by number, for `Dumping Buffer` lines that follow their draw.
    let mut last_draw: Option<(Option<u32>, u32, usize)> = None;
    // The rest of a line that held two calls (see `run_on`), read as the next line.
    let mut queued: Option<Vec<u8>> = None;
    let arrow = memchr::memmem::Finder::new(b" -> ");
    loop {
        if let Some(q) = queued.take() {
            buf = q;
        } else {
            let ended = match read_line(&mut input, &mut buf) {
                Ok(Some(e)) => e,
                Ok(None) => break,
                Err(e) => {
                    rd.warn(n + 1, "", format!("cannot read further: {e}"));
                    break;
                }
            };
            n += 1;
            if !ended {
                log.truncated = true;
            }
        }
        if let Some(at) = run_on(&buf) {
            queued = Some(buf[at..].to_vec());
            buf.truncate(at);
        }
        if buf.len() >= MAX_LINE {
            rd.warn(
                n,
                "",
                format!("a line longer than {MAX_LINE} bytes; its rest is ignored"),
            );
        }
        // Valid UTF-8 (a log's lines are ASCII) is checked by the fast validator; only a
        // line that fails it goes through the replacing one.
        let text = match std::str::from_utf8(&buf) {
            Ok(t) => std::borrow::Cow::Borrowed(t),
            Err(_) => String::from_utf8_lossy(&buf),
        };
        let line = text.as_ref();
        if line.trim().is_empty() {
            continue;
        }
        if n == 1
            && let Some(v) = line.strip_prefix("analyse_options: ")
        {
            log.options = hex_u32(v.trim()).or_else(|| u32::from_str_radix(v.trim(), 16).ok());
            continue;
        }
        if line.starts_with(' ') {
            // A slot line of the call before.
            let t = line.trim_start();
            if let Pending::VertexBuffers = pending
                && let Some((slot, rest)) = t.split_once(':')
                && let Ok(slot) = slot.parse::<usize>()
            {
                if slot >= VB_SLOTS {
                    rd.warn(
                        n,
                        t,
                        format!("vertex-buffer slot {slot} is past D3D11's {VB_SLOTS}"),
                    );
                    continue;
                }
                let (h, o) = tail_hashes(rest);
                let hash = h.and_then(hex_u32);
                if h.is_some() && hash.is_none() {
                    rd.warn(n, t, "a hash that is not 8 hexadecimal digits");
                }
                state.vbs[slot] = Some(LoggedBuffer {
                    slot: slot as u32,
                    hash,
                    orig_hash: o.and_then(hex_u32),
                });
            }
            continue;
        }
        let Some((frame, number, rest)) = split_number(line) else {
            if line.contains("Frame analysis aborted") {
                // Hunting.cpp writes this when the analysis is stopped part way (a key, or
                // an error); what follows is not this frame's.
                rd.warn(n, line, "3DMigoto stopped the frame analysis here");
            } else if !line.starts_with("analyse_options") {
                rd.warn(
                    n,
                    line,
                    "not a frame-analysis log line (`NNNNNN Call(…)`); ignored",
                );
            }
            continue;
        };
        pending = Pending::None;
        if let Some(msg) = rest.strip_prefix("3DMigoto ") {
            if let Some(paths) = msg.strip_prefix("Dumping Buffer ") {
                match arrow
                    .find(paths.as_bytes())
                    .map(|i| (&paths[..i], &paths[i + 4..]))
                {
                    Some((a, b)) => {
                        // The file name, and the folder it is in (`ctx-0x…` for a deferred
                        // context's dump).
                        let sep = |t: &str| memchr::memrchr2(b'\\', b'/', t.as_bytes());
                        let (a_name, context) = match sep(a) {
                            Some(i) => {
                                let folder = &a[..i];
                                let folder = sep(folder).map_or(folder, |j| &folder[j + 1..]);
                                (a[i + 1..].to_string(), context_folder(folder))
                            }
                            None => (a.to_string(), None),
                        };
                        // Only a deferred context's dump needs the name read.
                        let per_draw = || super::name::parse_dump_name(&a_name);
                        match log.draws.last_mut() {
                            Some(d)
                                if last_draw
                                    .is_some_and(|(f, num, _)| f == frame && num == number) =>
                            {
                                d.dumped.push((a_name, b.trim().to_string()))
                            }
                            // A resource dumped outside a draw (`dump_on_update`,
                            // `dump_on_unmap`, an INI's `dump =`): no draw's file.
                            _ if super::name::is_resource_dump_name(&a_name) => {}
                            _ if context.is_some() && per_draw().is_some() => {
                                if let (Some(context), Some(p)) = (context, &per_draw()) {
                                    log.deferred_dumps.push(DeferredDump {
                                        context,
                                        frame: p.frame,
                                        draw: p.draw,
                                        dumped: (a_name, b.trim().to_string()),
                                        line: n,
                                    })
                                }
                            }
                            _ => rd.warn(
                                n,
                                line,
                                format!("a dump of draw {number} with no draw {number} before it"),
                            ),
                        }
                    }
                    None => rd.warn(n, line, "`Dumping Buffer` without ` -> `"),
                }
            }
            continue;
        }
        let Some((name, args, tail)) = split_call(rest) else {
            rd.warn(n, line, "not a call `Name(Key:value, …)`; ignored");
            continue;
        };
        let num = |k: &str| args.get(k).and_then(|v| v.parse::<u32>().ok());
        // `%u` of a negative BaseVertexLocation in DrawIndexed; `%i` in DrawIndexedInstanced.
        let signed = |k: &str| {
            args.get(k).and_then(|v| {
                v.parse::<i32>()
                    .ok()
                    .or_else(|| v.parse::<u32>().ok().map(|u| u as i32))
            })
        };
        let ptr = |k: &str| args.get(k).and_then(hex_u64);
        let (th, _) = tail_hashes(tail);
        let mut call = None;
        let mut bad = false;
        match name {
            "IASetVertexBuffers" => match (num("StartSlot"), num("NumBuffers")) {
                (Some(s), Some(c)) => {
                    let end = (s as usize).saturating_add(c as usize).min(VB_SLOTS);
                    for v in state.vbs.iter_mut().take(end).skip(s as usize) {
                        *v = None;
                    }
                    if ptr("ppVertexBuffers") != Some(0) {
                        pending = Pending::VertexBuffers;
                    }
                }
                _ => bad = true,
            },
            "IASetIndexBuffer" => match (ptr("pIndexBuffer"), num("Format"), num("Offset")) {
                (Some(0), _, _) => state.ib = None,
                (Some(_), Some(f), Some(o)) => {
                    state.ib = Some(LoggedIndexBuffer {
                        hash: th.and_then(hex_u32),
                        format: IndexFormat::ALL.into_iter().find(|x| x.format().0 == f),
                        format_value: f,
                        offset: o,
                    })
                }
                _ => bad = true,
            },
            "IASetInputLayout" => match ptr("pInputLayout") {
                Some(p) => state.layout = Some(p),
                None => bad = true,
            },
            "IASetPrimitiveTopology" => match num("Topology") {
                Some(t) => {
                    state.topology = Topology::from_d3d(t);
                    if state.topology.is_none() {
                        rd.warn(
                            n,
                            line,
                            format!("topology {t} is no D3D11_PRIMITIVE_TOPOLOGY"),
                        );
                    }
                }
                None => bad = true,
            },
            "VSSetShader" | "HSSetShader" | "DSSetShader" | "GSSetShader" | "PSSetShader"
            | "CSSetShader" => {
                let stage = name[..2].to_ascii_lowercase();
                // 3DMigoto 1.2 logs every stage's hash, all zeros for no shader.
                let h = th
                    .and_then(|h| u64::from_str_radix(h, 16).ok())
                    .filter(|&h| h != 0);
                if let Some(slot) = state.shaders.get_mut(&stage) {
                    *slot = h;
                }
            }
            "ClearState" => state = State::default(),
            // `RestoreContextState:false` leaves the immediate context in its default state
            // after the command list (ID3D11DeviceContext::ExecuteCommandList).
            "ExecuteCommandList" => match args.get("RestoreContextState") {
                Some("false" | "0") => state = State::default(),
                Some("true" | "1") => {}
                _ => bad = true,
            },
            "Draw" => match (num("VertexCount"), num("StartVertexLocation")) {
                (Some(vertex_count), Some(start_vertex)) => {
                    call = Some(Call::Direct(DrawCall::Draw {
                        vertex_count,
                        start_vertex,
                    }))
                }
                _ => bad = true,
            },
            "DrawIndexed" => match (
                num("IndexCount"),
                num("StartIndexLocation"),
                signed("BaseVertexLocation"),
            ) {
                (Some(index_count), Some(start_index), Some(base_vertex)) => {
                    call = Some(Call::Direct(DrawCall::DrawIndexed {
                        index_count,
                        start_index,
                        base_vertex,
                    }))
                }
                _ => bad = true,
            },
            "DrawInstanced" => match (
                num("VertexCountPerInstance"),
                num("InstanceCount"),
                num("StartVertexLocation"),
                num("StartInstanceLocation"),
            ) {
                (Some(a), Some(b), Some(c), Some(d)) => {
                    call = Some(Call::Direct(DrawCall::DrawInstanced {
                        vertex_count_per_instance: a,
                        instance_count: b,
                        start_vertex: c,
                        start_instance: d,
                    }))
                }
                _ => bad = true,
            },
            "DrawIndexedInstanced" => match (
                num("IndexCountPerInstance"),
                num("InstanceCount"),
                num("StartIndexLocation"),
                signed("BaseVertexLocation"),
                num("StartInstanceLocation"),
            ) {
                (Some(a), Some(b), Some(c), Some(d), Some(e)) => {
                    call = Some(Call::Direct(DrawCall::DrawIndexedInstanced {
                        index_count_per_instance: a,
                        instance_count: b,
                        start_index: c,
                        base_vertex: d,
                        start_instance: e,
                    }))
                }
                _ => bad = true,
            },
            "DrawAuto" => call = Some(Call::DrawAuto),
            "DrawInstancedIndirect" | "DrawIndexedInstancedIndirect" | "DispatchIndirect" => {
                match num("AlignedByteOffsetForArgs") {
                    Some(offset) => {
                        let args_hash = th.and_then(hex_u32);
                        call = Some(match name {
                            "DrawInstancedIndirect" => {
                                Call::DrawInstancedIndirect { offset, args_hash }
                            }
                            "DrawIndexedInstancedIndirect" => {
                                Call::DrawIndexedInstancedIndirect { offset, args_hash }
                            }
                            _ => Call::DispatchIndirect { offset, args_hash },
                        })
                    }
                    None => bad = true,
                }
            }
            "Dispatch" => match (
                num("ThreadGroupCountX"),
                num("ThreadGroupCountY"),
                num("ThreadGroupCountZ"),
            ) {
                (Some(x), Some(y), Some(z)) => call = Some(Call::Dispatch { groups: [x, y, z] }),
                _ => bad = true,
            },
            _ => {}
        }
        if bad {
            rd.warn(
                n,
                line,
                format!("{name}: an argument is missing or not a number; the call is ignored"),
            );
            continue;
        }
        if let Some(call) = call {
            if let Some((f, num, l)) = last_draw
                && f == frame
                && num == number
            {
                rd.warn(
                    n,
                    line,
                    format!(
                        "a second draw numbered {number} (the first is on line {l}); both are kept"
                    ),
                );
            }
            let compute = call.is_dispatch();
            let mut shaders = state.shaders;
            if compute {
                shaders = Shaders {
                    cs: state.shaders.cs,
                    ..Shaders::default()
                };
            } else {
                shaders.cs = None;
            }
            log.draws.push(LoggedDraw {
                frame,
                number,
                line: n,
                vbs: if compute {
                    Vec::new()
                } else {
                    state.vbs.iter().flatten().copied().collect()
                },
                ib: if compute { None } else { state.ib },
                topology: if compute { None } else { state.topology },
                layout: if compute { None } else { state.layout },
                shaders,
                call,
                dumped: Vec::new(),
            });
            last_draw = Some((frame, number, n));
        }
    }
    log.lines = n;
    if log.truncated {
        rd.warn(n, "", "the log ends in the middle of a line (cut short?)");
    }
    let mut warnings = rd.warnings;
    if rd.dropped > 0 {
        warnings.push(CaptureWarning {
            file: file.to_string(),
            line: None,
            value: None,
            message: format!("{} more warnings like the above", rd.dropped),
        });
    }
    log.warnings = warnings;
    log
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Arguments split at each `, ` only, each with a `:`; the first of a repeated key.
    #[test]
    fn call_arguments_split_at_comma_space_only() {
        let (name, args, tail) =
            split_call("Draw(VertexCount:3, StartVertexLocation:0) hash=1").unwrap();
        assert_eq!(name, "Draw");
        assert_eq!(args.get("VertexCount"), Some("3"));
        assert_eq!(args.get("StartVertexLocation"), Some("0"));
        assert_eq!(args.get("Vertex"), None);
        assert_eq!(tail, " hash=1");
        let (_, a, _) = split_call("F(A:1,2, B: x )").unwrap();
        assert_eq!(a.get("A"), Some("1,2"));
        assert_eq!(a.get("B"), Some("x"));
        let (_, r, _) = split_call("F(A:1, A:2)").unwrap();
        assert_eq!(r.get("A"), Some("1"));
        let (_, e, _) = split_call("ClearState(  )").unwrap();
        assert_eq!(e.get(""), None);
        for bad in [
            "F(A:1, , B:2)",
            "F(A:1, )",
            "F(A)",
            "(A:1)",
            "F A:1)",
            "F(A:1",
            "F-G(A:1)",
        ] {
            assert!(split_call(bad).is_none(), "{bad}");
        }
    }

    /// Only a query call's line runs on (see `run_on`): the second call starts at its
    /// number (after `= 0` for GetData); a line of any other call keeps a copy of its number followed
    /// by a name and `(` (a folder named so in a dump's path) as its own text.
    #[test]
    fn only_a_query_calls_line_runs_on() {
        let end = b"000012 End(pAsync:0x000001F2A3B99000)000012 IASetPrimitiveTopology(Topology:4)";
        assert_eq!(run_on(end), Some(37));
        assert_eq!(&end[37..44], b"000012 ");
        let get = b"000001 GetData(pAsync:0x1, pData:0x0, DataSize:0, GetDataFlags:0) = 0000001 Draw(VertexCount:3, StartVertexLocation:0)";
        assert_eq!(run_on(get), Some(69));
        assert_eq!(&get[69..83], b"000001 Draw(Ve");
        let dump = b"000012 3DMigoto Dumping Buffer C:\\FA\\000012 Copy(2)\\000012-vb0=8a2c31f0-vs=e8425f64cfb887cd-ps=0123456789abcdef.txt";
        assert_eq!(run_on(dump), None);
        let map = b"000012 Map(pResource:0x1, Subresource:0, MapType:4, MapFlags:0, pMappedResource:0x2)000012 Unmap(pResource:0x1, Subresource:0)";
        assert_eq!(run_on(map), None);
    }

    #[test]
    fn newline_is_the_first_line_feed_at_every_place_and_byte_value() {
        // Every position of the first `\n` in buffers of 0..40 bytes, the other bytes each
        // of the values that could borrow into it (0x00, 0x0b, 0x8a, 0xff, `\r`), and later
        // line feeds after it: the same answer as a byte-by-byte search.
        for len in 0..40 {
            for fill in [0x00u8, b'a', 0x0b, 0x8a, 0xff, b'\r', 0x09] {
                let mut v = vec![fill; len];
                assert_eq!(newline(&v), None, "{len} bytes of {fill:#x}");
                for at in 0..len {
                    v.fill(fill);
                    v[at] = b'\n';
                    if at + 3 < len {
                        v[at + 3] = b'\n';
                    }
                    assert_eq!(
                        newline(&v),
                        Some(at),
                        "{len} bytes of {fill:#x}, \\n at {at}"
                    );
                }
            }
        }
    }

    const LOG: &str = "analyse_options: 00000630\n\
000001 IASetInputLayout(pInputLayout:0x000001F2A3B4C5D0)\n\
000001 IASetVertexBuffers(StartSlot:0, NumBuffers:2, ppVertexBuffers:0x0000000000AAF000, pStrides:0x0000000000AAF100, pOffsets:0x0000000000AAF200)\n\
\x20      0: resource=0x000001F2A3B40000 hash=8a2c31f0\n\
\x20      1: resource=0x000001F2A3B40100 hash=11111111 orig_hash=22222222 hash_contamination=Map,\n\
000001 IASetIndexBuffer(pIndexBuffer:0x000001F2A3B40200, Format:57, Offset:0) hash=5d4bd489\n\
000001 IASetPrimitiveTopology(Topology:4)\n\
000001 VSSetShader(pVertexShader:0x000001F2A3B40300, ppClassInstances:0x0000000000000000, NumClassInstances:0) hash=e8425f64cfb887cd\n\
000001 PSSetShader(pPixelShader:0x000001F2A3B40400, ppClassInstances:0x0000000000000000, NumClassInstances:0) hash=0123456789abcdef\n\
000001 DrawIndexed(IndexCount:300, StartIndexLocation:6, BaseVertexLocation:4294967295)\n\
000001 3DMigoto Dumping Buffer C:\\FA\\000001-ib=5d4bd489-vs=e8425f64cfb887cd-ps=0123456789abcdef.txt -> C:\\FA\\deduped\\0badf00d-ib-format=DXGI_FORMAT_R16_UINT-topology=trianglelist-first=6-count=300.txt\n\
000002 CSSetShader(pComputeShader:0x000001F2A3B40500, ppClassInstances:0x0000000000000000, NumClassInstances:0) hash=00000000deadbeef\n\
000002 Dispatch(ThreadGroupCountX:8, ThreadGroupCountY:1, ThreadGroupCountZ:1)\n\
000003 VSSetShader(pVertexShader:0x0000000000000000, ppClassInstances:0x0000000000000000, NumClassInstances:0)\n\
000003 DrawInstanced(VertexCountPerInstance:4, InstanceCount:2, StartVertexLocation:0, StartInstanceLocation:1)\n\
000004 DrawIndexed(IndexCount:3";

    #[test]
    fn a_log_reads_back() {
        let log = parse_log("log.txt", LOG.as_bytes());
        assert_eq!(log.options, Some(0x630));
        assert_eq!(log.draws.len(), 3);
        let d = &log.draws[0];
        assert_eq!((d.number, d.line), (1, 10));
        assert_eq!(
            d.call,
            Call::Direct(DrawCall::DrawIndexed {
                index_count: 300,
                start_index: 6,
                base_vertex: -1
            })
        );
        assert_eq!(d.vbs.len(), 2);
        assert_eq!(d.vbs[1].hash, Some(0x11111111));
        assert_eq!(d.vbs[1].orig_hash, Some(0x22222222));
        let ib = d.ib.unwrap();
        assert_eq!(
            (ib.hash, ib.format),
            (Some(0x5d4bd489), Some(IndexFormat::R16Uint))
        );
        assert_eq!(d.topology, Some(Topology::TriangleList));
        assert_eq!(d.shaders.vs, Some(0xe8425f64cfb887cd));
        assert_eq!(d.layout, Some(0x1F2A3B4C5D0));
        assert_eq!(d.dumped.len(), 1);
        assert!(d.dumped[0].1.ends_with("count=300.txt"));
        assert_eq!(
            d.dumped[0].0,
            "000001-ib=5d4bd489-vs=e8425f64cfb887cd-ps=0123456789abcdef.txt"
        );
        let c = &log.draws[1];
        assert_eq!(c.call, Call::Dispatch { groups: [8, 1, 1] });
        assert_eq!(c.shaders.cs, Some(0xdeadbeef));
        assert_eq!(c.shaders.vs, None);
        assert!(c.vbs.is_empty());
        let e = &log.draws[2];
        assert_eq!(e.shaders.vs, None);
        assert_eq!(e.shaders.ps, Some(0x0123456789abcdef));
        // The cut-short last line is a warning naming its line.
        assert!(log.truncated);
        assert!(
            log.warnings.iter().any(|w| w.line == Some(16)),
            "{:?}",
            log.warnings
        );
    }

    #[test]
    fn long_lines_and_garbage_do_not_panic() {
        let mut s = String::from("000001 Map(");
        s.push_str(&"x".repeat(MAX_LINE * 2));
        s.push_str("\n\u{0}\u{1}junk\n000001 Draw(VertexCount:x, StartVertexLocation:0)\n");
        let log = parse_log("log.txt", s.as_bytes());
        assert!(log.draws.is_empty());
        assert!(log.warnings.len() >= 2);
    }
}
