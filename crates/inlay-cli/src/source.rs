//! Reading layout files and pointing into them like a compiler does.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use inlay::capture::{self, LayoutSyntax};
use inlay::diag::{Diagnostic, MessageId, Severity};
use inlay::input::{self, ReadError};
use inlay::text::{self, ElementSpans, Field, ParsedLayout, Span, TextError};

use crate::style::Style;
use crate::{CliError, output};

/// Default size limit of text inputs (layouts, signature descriptions): 64 MiB. A real
/// layout file is a few kilobytes; the limit keeps a mistaken argument (a mesh, a log) from
/// costing memory. `--max-input-size` raises it (`inlay --help`).
pub const DEFAULT_TEXT_LIMIT: u64 = input::DEFAULT_TEXT_LIMIT;

/// Default size limit of binary inputs (shaders, vertex, index and argument buffers): 1 GiB.
/// `--max-input-size` raises it.
pub const DEFAULT_BINARY_LIMIT: u64 = input::DEFAULT_BINARY_LIMIT;

/// The largest input size of the previous name, kept for callers written against it.
#[allow(dead_code)]
pub const MAX_TEXT_BYTES: u64 = DEFAULT_BINARY_LIMIT;

/// `--max-input-size`, when given (0: not given).
static MAX_INPUT: AtomicU64 = AtomicU64::new(0);

/// Sets the limit `--max-input-size` gives (for every kind of input).
pub fn set_max_input_size(bytes: u64) {
    MAX_INPUT.store(bytes.max(1), Ordering::Relaxed);
}

/// What is read: decides the default size limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// Layouts, signature descriptions, case files.
    Text,
    /// Shaders, vertex/index/argument buffers, dumps.
    Binary,
}

impl InputKind {
    /// The limit in force for this kind: `--max-input-size` if given, else the default.
    pub fn limit(self) -> u64 {
        match MAX_INPUT.load(Ordering::Relaxed) {
            0 => match self {
                InputKind::Text => DEFAULT_TEXT_LIMIT,
                InputKind::Binary => DEFAULT_BINARY_LIMIT,
            },
            n => n,
        }
    }
}

/// Parses a size: `N`, or `N` with `K`, `M`, `G` or `T` (powers of 1024, optional `iB`/`B`).
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (n, unit) = t.split_at(digits);
    let n: u64 = n
        .parse()
        .map_err(|_| format!("`{s}` is not a size (e.g. 4096, 64M, 2G)"))?;
    let shift = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        "T" | "TB" | "TIB" => 40,
        _ => return Err(format!("`{s}`: unknown unit (use K, M, G or T)")),
    };
    n.checked_mul(1 << shift)
        .filter(|&v| v > 0)
        .ok_or_else(|| format!("`{s}` is not a size from 1 byte to 2^64 - 1"))
}

/// Reads a whole file (or standard input for `-`), refusing more than `limit` bytes, through
/// the library's one checked reader ([`inlay::input`]): a regular file's size is checked
/// before anything is read; devices (`/dev/zero`, a terminal), named pipes and directories are
/// refused outright; standard input is read up to the limit. The file is recorded as an input
/// of the run ([`output::note_input`]), so no output replaces it.
pub fn read_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, CliError> {
    let result = if output::is_dash(path) {
        input::read_stream("-", std::io::stdin().lock(), limit)
    } else {
        output::note_input(path);
        input::read_file(path, limit)
    };
    result.map_err(read_error)
}

/// [`read_bytes`] of a file the command rewrites in place (`diff --fix-hashes hash.json`): the
/// same checked reader, the file not recorded as an input that no output may replace.
pub fn read_file_to_rewrite(path: &Path, limit: u64) -> Result<Vec<u8>, CliError> {
    input::read_file(path, limit).map_err(read_error)
}

/// The command line's words for a checked read that failed.
fn read_error(e: ReadError) -> CliError {
    match e {
        ReadError::Io { file, source } => CliError::io(format!("cannot read {file}"), source),
        ReadError::TooLarge { .. } => {
            CliError::usage(format!("{e} (raise it with --max-input-size)"))
        }
        ReadError::NotAFile { .. } => {
            CliError::usage(format!("{e}; give a file, or `-` for standard input"))
        }
        ReadError::Directory { .. } => CliError::usage(e.to_string()),
    }
}

/// Reads a text input (layout, signature description) under the text limit.
pub fn read_text_input(path: &Path) -> Result<Vec<u8>, CliError> {
    read_bytes(path, InputKind::Text.limit())
}

/// Reads a binary input (shader, buffer, arguments) under the binary limit.
pub fn read_binary_input(path: &Path) -> Result<Vec<u8>, CliError> {
    read_bytes(path, InputKind::Binary.limit())
}

/// A layout read from a file of any kind a layout comes in ([`inlay::capture::read_layout`]:
/// C/C++, C#, Rust, JSON, TOML, an importer's `.fmt`, a 3DMigoto vb text dump), or from
/// standard input (`-`, the reader chosen by the text).
pub struct LayoutFile {
    /// The path as given.
    pub path: PathBuf,
    /// The text (invalid UTF-8 replaced).
    pub text: String,
    /// What it was read as.
    pub syntax: LayoutSyntax,
    /// The parsed elements with their spans (no spans for `.fmt` files and dumps).
    pub parsed: ParsedLayout,
    /// The strides the file states, as (slot, stride) (`.fmt` files and dumps).
    pub strides: Vec<(u32, u32)>,
    /// An importer's single merged buffer (a `.fmt` with one unslotted `stride:`).
    pub single_buffer: bool,
}

impl LayoutFile {
    /// Reads and parses `path`; `array` picks a C array by name. Parse errors are rendered
    /// with the offending line; a file no reader accepts is refused with each reader's error.
    /// The readers' warnings go to stderr.
    pub fn load(path: &Path, array: Option<&str>, style: Style) -> Result<LayoutFile, CliError> {
        let bytes = read_text_input(path)?;
        // UTF-16 with a byte-order mark (Visual Studio's "Unicode") or UTF-8.
        let text = text::decode_source(&bytes).into_owned();
        let name = path.display().to_string();
        let source = capture::read_layout(&name, &bytes, array).map_err(|e| {
            match e.tried.as_slice() {
                // One source-text parser, chosen by the extension: the compiler-style
                // message with the line.
                [(_, capture::layout::LayoutReadError::Text(t))] => {
                    CliError::usage(render_text_error(&name, &text, t, style))
                }
                _ => CliError::usage(e.to_string()),
            }
        })?;
        for w in &source.warnings {
            eprintln!("{}: {w}", style.warning("warning"));
        }
        Ok(LayoutFile {
            path: path.to_path_buf(),
            text,
            syntax: source.syntax,
            parsed: source.parsed,
            strides: source.strides,
            single_buffer: source.single_buffer,
        })
    }

    /// The stride the file states for `slot`, if any.
    pub fn stated_stride(&self, slot: u32) -> Option<u32> {
        self.strides
            .iter()
            .find(|(s, _)| *s == slot)
            .map(|(_, stride)| *stride)
    }

    /// A short description: `file.h (array vertexDesc, 2 elements, C)`.
    pub fn describe(&self) -> String {
        let n = self.parsed.elements.len();
        let name = match &self.parsed.name {
            Some(a) => format!("array {a}, "),
            None => String::new(),
        };
        format!(
            "{} ({name}{n} element{}, {})",
            self.path.display(),
            if n == 1 { "" } else { "s" },
            self.syntax.as_str()
        )
    }
}

/// A text error as a compiler prints it (without the leading `error: `).
pub fn render_text_error(name: &str, source: &str, e: &TextError, style: Style) -> String {
    // The snippet shows the offending text, so the message is not followed by it.
    let mut out = e.message.clone();
    out.push('\n');
    if e.found.is_empty() && e.offset == 0 {
        // About the whole file (no array found, several arrays, empty input).
        out.push_str(&format!(" {} {name}\n", style.accent("-->")));
    } else {
        out.push_str(&snippet(name, source, e.span(), style, "1;31"));
    }
    out
}

/// Longest part of a source line shown, in characters.
const WINDOW: usize = 100;

/// ` --> name:line:col`, the line with a gutter, and carets under `span` (coloured with the
/// SGR `colour`). Long lines are cut to a window around the span; tabs and control
/// characters are shown as spaces so the carets line up.
///
/// Memory is bounded by the window, whatever the line's length (issue 18 item 7: a 600 MB line
/// used to be copied into a `Vec<char>`); time is one pass over the line.
pub fn snippet(name: &str, source: &str, span: Span, style: Style, colour: &str) -> String {
    let start = floor_boundary(source, span.start);
    let (line_no, col) = text::line_col(source, start);
    let line_start = source[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = source[line_start..]
        .find('\n')
        .map_or(source.len(), |i| line_start + i);
    let line = source[line_start..line_end].trim_end_matches('\r');
    let line_chars = line.chars().count();
    let first = col - 1;
    let span_end = floor_boundary(source, span.end.clamp(start, line_end));
    // Characters under the span, counted no further than the window needs.
    let len = source[start..span_end]
        .chars()
        .take(WINDOW + 1)
        .count()
        .max(1);
    // Window.
    let (from, prefix) = if line_chars > WINDOW && first > WINDOW / 3 {
        (first.min(line_chars) - WINDOW / 3, "…")
    } else {
        (0, "")
    };
    let to = (from + WINDOW).min(line_chars);
    let suffix = if to < line_chars { "…" } else { "" };
    // The window's first character: walk back from the span's start (at most WINDOW / 3
    // characters) rather than from the line's start.
    let start_in_line = (start - line_start).min(line.len());
    let back = first.min(line_chars).saturating_sub(from);
    let window_start = line[..start_in_line]
        .char_indices()
        .rev()
        .take(back)
        .last()
        .map_or(start_in_line, |(i, _)| i);
    let window_start = if from == 0 { 0 } else { window_start };
    let shown: String = line[window_start..]
        .chars()
        .take(to.saturating_sub(from))
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let caret_at = prefix.chars().count() + first - from;
    let caret_len = len.min(to.saturating_sub(first).max(1));
    let gutter = line_no.to_string().len();
    let pad = " ".repeat(gutter);
    format!(
        "{pad}{} {name}:{line_no}:{col}\n{pad} {}\n{} {} {prefix}{}{suffix}\n{pad} {} {}{}\n",
        style.accent("-->"),
        style.accent("|"),
        style.accent(&line_no.to_string()),
        style.accent("|"),
        shown.trim_end(),
        style.accent("|"),
        " ".repeat(caret_at),
        style.paint(colour, &"^".repeat(caret_len)),
    )
}

fn floor_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The field a message is about, for choosing what to underline.
pub fn field_of(id: MessageId) -> Option<Field> {
    // D3D12 numbers map back to the message of the same name (d3d12-rules.md §C).
    Some(match id.from_d3d12() {
        MessageId::CREATEINPUTLAYOUT_INVALIDFORMAT
        | MessageId::CREATEINPUTLAYOUT_INCOMPATIBLEFORMAT
        | MessageId::CREATEINPUTLAYOUT_UNSUPPORTED_FORMAT
        | MessageId::CREATEINPUTLAYOUT_TYPE_MISMATCH => Field::Format,
        MessageId::CREATEINPUTLAYOUT_INVALIDSLOT => Field::Slot,
        MessageId::CREATEINPUTLAYOUT_INVALIDINPUTSLOTCLASS
        | MessageId::CREATEINPUTLAYOUT_INVALIDSLOTCLASSCHANGE
        | MessageId::SLOT_ZERO_MUST_BE_D3D10_INPUT_PER_VERTEX_DATA
        | MessageId::CREATEINPUTLAYOUT_LEVEL9_INSTANCING_NOT_SUPPORTED => Field::Class,
        MessageId::CREATEINPUTLAYOUT_STEPRATESLOTCLASSMISMATCH
        | MessageId::CREATEINPUTLAYOUT_INVALIDSTEPRATECHANGE
        | MessageId::CREATEINPUTLAYOUT_LEVEL9_STEPRATE_NOT_1 => Field::StepRate,
        MessageId::CREATEINPUTLAYOUT_INVALIDALIGNMENT => Field::Offset,
        MessageId::CREATEINPUTLAYOUT_DUPLICATESEMANTIC
        | MessageId::CREATEINPUTLAYOUT_NULLSEMANTIC
        | MessageId::CREATEINPUTLAYOUT_TRAILING_DIGIT_IN_SEMANTIC => Field::Semantic,
        _ => return None,
    })
}

/// A longer explanation of what a message means and how to fix it (our own words).
pub fn explanation(id: MessageId) -> Option<&'static str> {
    Some(match id {
        MessageId::CREATEINPUTLAYOUT_TOOMANYELEMENTS => {
            "a layout holds at most 32 elements (16 on D3D10 and below feature level 10_1)"
        }
        MessageId::CREATEINPUTLAYOUT_INVALIDFORMAT => {
            "the value is DXGI_FORMAT_UNKNOWN or no DXGI_FORMAT at all; pick a format the \
             input assembler can read from a vertex buffer"
        }
        MessageId::CREATEINPUTLAYOUT_INCOMPATIBLEFORMAT => {
            "the format is not a vertex-buffer format at all (typeless, depth, compressed, …)"
        }
        MessageId::CREATEINPUTLAYOUT_UNSUPPORTED_FORMAT => {
            "the input assembler reads this format from vertex buffers only at higher feature \
             levels (or it is one of the optional 16-bit BGR formats and the device was modelled \
             without them)"
        }
        MessageId::CREATEINPUTLAYOUT_INVALIDSLOT => {
            "InputSlot must be below the number of vertex-buffer slots (32, or 16 on D3D10 and \
             below feature level 10_1)"
        }
        MessageId::CREATEINPUTLAYOUT_INVALIDINPUTSLOTCLASS => {
            "InputSlotClass must be D3D11_INPUT_PER_VERTEX_DATA (0) or \
             D3D11_INPUT_PER_INSTANCE_DATA (1)"
        }
        MessageId::CREATEINPUTLAYOUT_STEPRATESLOTCLASSMISMATCH => {
            "per-vertex elements must have InstanceDataStepRate 0"
        }
        MessageId::CREATEINPUTLAYOUT_INVALIDSLOTCLASSCHANGE => {
            "every element of one input slot must have the same InputSlotClass"
        }
        MessageId::CREATEINPUTLAYOUT_INVALIDSTEPRATECHANGE => {
            "every per-instance element of one input slot must have the same \
             InstanceDataStepRate"
        }
        MessageId::CREATEINPUTLAYOUT_INVALIDALIGNMENT => {
            "AlignedByteOffset must be a multiple of the format's alignment, min(size rounded \
             up to a power of two, 4) bytes; D3D11_APPEND_ALIGNED_ELEMENT places it for you"
        }
        MessageId::CREATEINPUTLAYOUT_DUPLICATESEMANTIC => {
            "two elements have the same semantic name (compared without case) and index"
        }
        MessageId::CREATEINPUTLAYOUT_UNPARSEABLEINPUTSIGNATURE => {
            "CreateInputLayout reads the input signature from the shader bytecode; give the \
             compiled vertex shader (or a signature blob) the layout is meant for"
        }
        MessageId::CREATEINPUTLAYOUT_NULLSEMANTIC => "SemanticName must not be NULL",
        MessageId::CREATEINPUTLAYOUT_MISSINGELEMENT => {
            "every input the vertex shader declares (except SV_VertexID and SV_InstanceID) \
             needs an element with the same semantic name and index"
        }
        MessageId::CREATEINPUTLAYOUT_NULLDESC => {
            "pInputElementDescs is NULL; pass the element array"
        }
        MessageId::CREATEINPUTLAYOUT_TRAILING_DIGIT_IN_SEMANTIC => {
            "a semantic name ending in a digit is ambiguous: put the number in SemanticIndex \
             (TEXCOORD + index 1, not TEXCOORD1)"
        }
        MessageId::CREATEINPUTLAYOUT_TYPE_MISMATCH => {
            "the format's numeric class (float/unorm/snorm versus uint versus sint) differs \
             from the component type the shader declares; the shader will reinterpret the bits"
        }
        MessageId::CREATEINPUTLAYOUT_EMPTY_LAYOUT => {
            "the layout has no elements; that is allowed, but the shader then gets no vertex data"
        }
        MessageId::SLOT_ZERO_MUST_BE_D3D10_INPUT_PER_VERTEX_DATA => {
            "on feature level 9_3 slot 0 must hold per-vertex data"
        }
        MessageId::CREATEINPUTLAYOUT_LEVEL9_STEPRATE_NOT_1 => {
            "on feature level 9_3 per-instance elements must have InstanceDataStepRate 1"
        }
        MessageId::CREATEINPUTLAYOUT_LEVEL9_INSTANCING_NOT_SUPPORTED => {
            "feature levels 9_1 and 9_2 have no instancing: every element must be per-vertex"
        }
        _ => return None,
    })
}

/// One diagnostic as a compiler prints it: `error[#159 NAME]: message`, the element's source
/// line with the field underlined, and a note with the explanation.
pub fn render_diagnostic(
    d: &Diagnostic,
    layout: &LayoutFile,
    elements_spans: &[ElementSpans],
    style: Style,
) -> String {
    let (label, colour) = match d.severity {
        Severity::Error => (style.error("error"), "1;31"),
        Severity::Warning => (style.warning("warning"), "1;33"),
        Severity::Info => (style.bold("info"), "1"),
    };
    let mut out = format!(
        "{label}{}: {}\n",
        style.bold(&format!("[{}]", d.id)),
        style.bold(&d.message)
    );
    if let Some(spans) = d.element.and_then(|i| elements_spans.get(i)) {
        let span = match field_of(d.id) {
            Some(f) => spans.field(f),
            None => spans.element,
        };
        let name = layout.path.display().to_string();
        out.push_str(&snippet(&name, &layout.text, span, style, colour));
    }
    if let Some(text) = explanation(d.id) {
        out.push_str(&format!("  {} {text}\n", style.accent("=")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snippet_points_at_the_span() {
        let src = "line one\n\tfoo = BAD;\n";
        let s = snippet("f.h", src, Span::new(16, 19), Style::PLAIN, "1");
        assert_eq!(s, " --> f.h:2:8\n  |\n2 |  foo = BAD;\n  |        ^^^\n");
    }

    #[test]
    fn long_lines_are_windowed() {
        let src = format!("{}XYZ{}", "a".repeat(5000), "b".repeat(5000));
        let s = snippet("x", &src, Span::new(5000, 5003), Style::PLAIN, "1");
        let lines: Vec<&str> = s.lines().collect();
        assert_eq!(lines[0], " --> x:1:5001");
        assert_eq!(
            lines[2],
            format!("1 | …{}XYZ{}…", "a".repeat(33), "b".repeat(64))
        );
        assert_eq!(lines[3], format!("  | {}^^^", " ".repeat(34)));
    }
}
