//! Layout text: input element arrays read from the files people already have.
//!
//! * [`c`] reads `D3D10_INPUT_ELEMENT_DESC`, `D3D11_INPUT_ELEMENT_DESC` and
//!   `D3D12_INPUT_ELEMENT_DESC` arrays out of C or C++ source (through [`preprocess`]);
//! * [`csharp`] reads SharpDX/Vortice `new InputElement(…)` arrays, [`rust`] the `windows`
//!   crate's `D3D11_INPUT_ELEMENT_DESC { … }` struct literals;
//! * [`decode_source`] turns a file's bytes into text (UTF-8, or UTF-16 with a byte-order
//!   mark as Visual Studio may save it);
//! * `json` and `toml` (feature `serde`) read arrays of the conformance schema's `ELEMENT`
//!   objects, and signature descriptions made of its `SIGNATURE_ELEMENT` objects.
//!
//! Every parser returns, next to the [`InputElementDesc`]s, the source span of each element and
//! of each of its fields ([`ElementSpans`]), so that a caller can print diagnostics the way a
//! compiler does. Every parser treats bad input as normal input: it returns a [`TextError`]
//! naming the line, the column and the offending text, never panics, does work linear in the
//! input's length and allocates no more than the input's size justifies.
//!
//! ```
//! use inlay::text::{parse_layout, Syntax};
//! let src = r#"const D3D11_INPUT_ELEMENT_DESC vertexDesc[] = {
//!     { "POSITION", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0 },
//!     { "COLOR", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, 12, D3D11_INPUT_PER_VERTEX_DATA, 0 },
//! };"#;
//! let layout = parse_layout(src, Syntax::C, None).unwrap();
//! assert_eq!(layout.name.as_deref(), Some("vertexDesc"));
//! assert_eq!(layout.elements[1].aligned_byte_offset, 12);
//! assert_eq!(inlay::text::line_col(src, layout.spans[1].element.start), (3, 5));
//! ```

// Parsers of untrusted text: no unsafe code (issue 7).
#![forbid(unsafe_code)]

use std::fmt;
use std::ops::Range;

use crate::element::InputElementDesc;

pub mod c;
pub mod csharp;
mod encoding;
#[cfg(feature = "serde")]
pub mod json;
mod lex;
pub mod preprocess;
#[cfg(feature = "serde")]
pub mod records;
pub mod rust;
#[cfg(feature = "serde")]
pub mod toml;

pub use encoding::decode_source;

/// A number as the command line, the Python package and the key/value grammars take one:
/// decimal or `0x`/`0X` hexadecimal, spaces around it ignored; `None` when it is neither.
///
/// ```
/// assert_eq!(inlay::text::parse_u64(" 0x10 "), Some(16));
/// assert_eq!(inlay::text::parse_u64("12"), Some(12));
/// assert_eq!(inlay::text::parse_u64("0x"), None);
/// ```
pub fn parse_u64(text: &str) -> Option<u64> {
    let t = text.trim();
    match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => t.parse::<u64>().ok(),
    }
}

/// [`parse_u64`] for a 32-bit value: `None` also when it is above 2^32 − 1.
pub fn parse_u32(text: &str) -> Option<u32> {
    parse_u64(text).and_then(|v| u32::try_from(v).ok())
}

/// Longest offending-text excerpt kept in a [`TextError`] (in characters).
pub const MAX_EXCERPT_CHARS: usize = 60;

/// Most separators (`,` `:` `=` `[` `{`) a JSON or TOML layout or signature text may hold.
/// Each value after the first needs one of them, so this bounds the values the `serde_json` and
/// `toml` readers would otherwise materialise before any element count is checked (issue 18
/// item 7: 27 MB of TOML with 400 000 elements took 965 MB). A fully written 4096-element JSON
/// layout needs about 61 000; characters inside strings count too (the bound is conservative).
pub const MAX_SEPARATORS: usize = 1 << 17;

/// Refuses, before parsing, a JSON/TOML text with more than [`MAX_SEPARATORS`] separators;
/// the error points at the first separator past the bound. Linear time, no allocation.
#[cfg_attr(not(feature = "serde"), allow(dead_code))]
pub(crate) fn check_separators(source: &str, syntax: &str) -> Result<(), TextError> {
    let past = source
        .bytes()
        .enumerate()
        .filter(|(_, b)| matches!(b, b',' | b':' | b'=' | b'[' | b'{'))
        .nth(MAX_SEPARATORS);
    match past {
        None => Ok(()),
        Some((at, _)) => Err(TextError::at(
            source,
            Span::new(at, at + 1),
            format!(
                "this {syntax} text holds more than {MAX_SEPARATORS} values and separators; \
                 a layout has at most 4096 elements (CreateInputLayout accepts 32), so inlay \
                 refuses it before reading it into memory"
            ),
        )),
    }
}

/// A byte range of the source text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// A span from a byte range.
    pub const fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    /// The span as a range, for slicing the source.
    pub const fn range(self) -> Range<usize> {
        self.start..self.end
    }
}

/// One field of an input element description, in `D3D11_INPUT_ELEMENT_DESC` order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    /// `SemanticName` (schema: `semantic`).
    Semantic,
    /// `SemanticIndex` (schema: `index`).
    Index,
    /// `Format` (schema: `format`).
    Format,
    /// `InputSlot` (schema: `slot`).
    Slot,
    /// `AlignedByteOffset` (schema: `offset`).
    Offset,
    /// `InputSlotClass` (schema: `class`).
    Class,
    /// `InstanceDataStepRate` (schema: `step_rate`).
    StepRate,
}

impl Field {
    /// All fields in structure order.
    pub const ALL: [Field; 7] = [
        Field::Semantic,
        Field::Index,
        Field::Format,
        Field::Slot,
        Field::Offset,
        Field::Class,
        Field::StepRate,
    ];

    /// The C structure member name (`SemanticName`, …).
    pub const fn c_name(self) -> &'static str {
        match self {
            Field::Semantic => "SemanticName",
            Field::Index => "SemanticIndex",
            Field::Format => "Format",
            Field::Slot => "InputSlot",
            Field::Offset => "AlignedByteOffset",
            Field::Class => "InputSlotClass",
            Field::StepRate => "InstanceDataStepRate",
        }
    }

    /// The conformance schema's field name (`semantic`, …).
    pub const fn schema_name(self) -> &'static str {
        match self {
            Field::Semantic => "semantic",
            Field::Index => "index",
            Field::Format => "format",
            Field::Slot => "slot",
            Field::Offset => "offset",
            Field::Class => "class",
            Field::StepRate => "step_rate",
        }
    }

    /// Looks a field up by its C member name or schema name.
    pub fn from_name(name: &str) -> Option<Field> {
        Field::ALL
            .into_iter()
            .find(|f| f.c_name() == name || f.schema_name() == name)
    }
}

/// Where one element, and each of its fields, sits in the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct ElementSpans {
    /// The whole element (`{ … }` in C, the object in JSON/TOML).
    pub element: Span,
    /// Each field's value, indexed by [`Field`] order; `None` when the field was left out
    /// (and took its default).
    pub fields: [Option<Span>; 7],
}

impl ElementSpans {
    /// The span of one field's value, falling back to the whole element when the field was
    /// not written.
    pub fn field(&self, field: Field) -> Span {
        self.fields[field as usize].unwrap_or(self.element)
    }
}

/// A parsed layout: the elements, in array order, with their spans.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ParsedLayout {
    /// The C array's name, if the layout came from C source.
    pub name: Option<String>,
    /// The elements, in array order.
    pub elements: Vec<InputElementDesc>,
    /// One entry per element: where it is in the source.
    pub spans: Vec<ElementSpans>,
    /// The element type the source declares (`D3D11_INPUT_ELEMENT_DESC`, `InputElement`, …),
    /// when it names one.
    pub element_type: Option<String>,
}

impl ParsedLayout {
    /// Whether the array is a `D3D12_INPUT_ELEMENT_DESC` array. inlay checks those under
    /// D3D11's `CreateInputLayout` rules (the structure is the same, R38); D3D12 validates
    /// input layouts at pipeline-state creation with its own rules, which are outside this
    /// project's scope, so callers should say so.
    pub fn is_d3d12(&self) -> bool {
        self.element_type.as_deref() == Some("D3D12_INPUT_ELEMENT_DESC")
    }
}

/// 1-based line and 1-based column (in characters) of byte `offset` in `source`. An offset
/// past the end, or inside a character, is moved back to the nearest character boundary.
pub fn line_col(source: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(source.len());
    while !source.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &source[..offset];
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = source[line_start..offset].chars().count() + 1;
    (line, column)
}

/// Incremental [`line_col`]: remembers the last position asked for, so that positions asked in
/// increasing order (what a forward parser does) cost time proportional to the distance
/// between them, not to the offset. A position before the last one on the same line is found
/// by counting back; one on an earlier line restarts from the beginning. Allocates nothing.
///
/// Issue 18 item 3: a C file with 100 000 arrays used to take 242 s because each array's line
/// was counted from the start of the file.
///
/// ```
/// let src = "a\nbc\nd";
/// let lines = inlay::text::LineCursor::new(src);
/// assert_eq!(lines.line_col(4), (2, 3));
/// assert_eq!(lines.line_col(5), (3, 1));
/// assert_eq!(lines.line_col(0), (1, 1));
/// ```
#[derive(Clone, Debug)]
pub struct LineCursor<'a> {
    source: &'a str,
    /// (offset, line, column, start of that line) of the last answer.
    last: std::cell::Cell<(usize, usize, usize, usize)>,
}

impl<'a> LineCursor<'a> {
    /// A cursor at the start of `source`.
    pub const fn new(source: &'a str) -> Self {
        LineCursor {
            source,
            last: std::cell::Cell::new((0, 1, 1, 0)),
        }
    }

    /// The text the cursor walks.
    pub const fn source(&self) -> &'a str {
        self.source
    }

    /// 1-based line and 1-based column (in characters) of byte `offset`, as [`line_col`]
    /// gives them.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let s = self.source;
        let mut offset = offset.min(s.len());
        while !s.is_char_boundary(offset) {
            offset -= 1;
        }
        let (mut at, mut line, mut col, mut line_start) = self.last.get();
        if offset < line_start {
            (at, line, col, line_start) = (0, 1, 1, 0);
        }
        if offset >= at {
            let gap = &s[at..offset];
            match gap.rfind('\n') {
                Some(i) => {
                    line += gap.bytes().filter(|&b| b == b'\n').count();
                    line_start = at + i + 1;
                    col = s[line_start..offset].chars().count() + 1;
                }
                None => col += gap.chars().count(),
            }
        } else {
            // Same line, earlier column.
            col -= s[offset..at].chars().count();
        }
        self.last.set((offset, line, col, line_start));
        (line, col)
    }
}

/// Byte offset of a 1-based line and 1-based byte column (as `serde_json` reports them),
/// clamped to the source.
pub fn offset_of(source: &str, line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match source[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return source.len(),
        }
    }
    let line_end = source[start..]
        .find('\n')
        .map_or(source.len(), |i| start + i);
    (start + column.saturating_sub(1)).min(line_end)
}

/// At most [`MAX_EXCERPT_CHARS`] characters of `text`, with `…` when cut.
pub fn excerpt(text: &str) -> String {
    let mut chars = text.char_indices();
    match chars.nth(MAX_EXCERPT_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

/// A layout or signature text that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct TextError {
    /// Byte offset of the problem.
    pub offset: usize,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// The offending text (at most [`MAX_EXCERPT_CHARS`] characters; empty at the end of the
    /// input).
    pub found: String,
    /// What is wrong.
    pub message: String,
}

impl TextError {
    /// An error at `span` of `source`: position from the span's start, excerpt from its text.
    pub fn at(source: &str, span: Span, message: impl Into<String>) -> Self {
        Self::at_cursor(&LineCursor::new(source), span, message)
    }

    /// [`TextError::at`] with the position found by a [`LineCursor`] (parsers that report many
    /// errors keep one cursor, so positions cost no recount from the start).
    pub fn at_cursor(lines: &LineCursor<'_>, span: Span, message: impl Into<String>) -> Self {
        let source = lines.source();
        let start = span.start.min(source.len());
        let end = span.end.clamp(start, source.len());
        let (line, column) = lines.line_col(start);
        let found = source.get(start..end).map(excerpt).unwrap_or_default();
        TextError {
            offset: start,
            line,
            column,
            found,
            message: message.into(),
        }
    }

    /// The span the error points at (its offset, and the excerpt's length when it was not
    /// cut).
    pub fn span(&self) -> Span {
        let len = if self.found.ends_with('…') {
            self.found.len() - '…'.len_utf8()
        } else {
            self.found.len()
        };
        Span::new(self.offset, self.offset + len)
    }
}

impl fmt::Display for TextError {
    /// `LINE:COLUMN: MESSAGE`, then `` (found `TEXT`)`` unless the message already quotes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)?;
        if !self.found.is_empty() && !self.message.contains(&format!("`{}`", self.found)) {
            write!(f, " (found `{}`)", self.found)?;
        }
        Ok(())
    }
}

/// The syntax of a layout or signature text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Syntax {
    /// C or C++ source with `D3D1x_INPUT_ELEMENT_DESC` arrays.
    C,
    /// JSON (conformance schema `ELEMENT` / `SIGNATURE_ELEMENT` objects).
    Json,
    /// TOML (`[[elements]]` / `[[signature]]` tables).
    Toml,
    /// C# (SharpDX / Vortice `new InputElement(…)`).
    CSharp,
    /// Rust (`windows` crate struct literals).
    Rust,
}

impl Syntax {
    /// Picks a syntax from a file name's extension (`.json`, `.toml`, `.cs`, `.rs`, C/C++
    /// extensions), or, for any other name, from the text: JSON when it starts with `[` or
    /// `{`, TOML when a line starts with `[[elements]]`, `[[signature]]`, `elements` or
    /// `signature`, C# when it holds `new InputElement`, Rust when it holds `SemanticName:`,
    /// C otherwise.
    pub fn detect(file_name: &str, source: &str) -> Syntax {
        let lower = file_name.to_ascii_lowercase();
        let ext = lower.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
        match ext {
            "json" => return Syntax::Json,
            "toml" => return Syntax::Toml,
            "cs" => return Syntax::CSharp,
            "rs" => return Syntax::Rust,
            "c" | "cc" | "cpp" | "cxx" | "c++" | "h" | "hh" | "hpp" | "hxx" | "h++" | "inl"
            | "ipp" | "m" | "mm" => return Syntax::C,
            _ => {}
        }
        let trimmed = source.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
        if trimmed.starts_with('[') && !trimmed.starts_with("[[") || trimmed.starts_with('{') {
            return Syntax::Json;
        }
        let toml_like = source.lines().any(|l| {
            let l = l.trim_start();
            ["[[elements]]", "[[signature]]", "elements", "signature"]
                .iter()
                .any(|k| l.starts_with(k) && !l.contains("D3D"))
        });
        if toml_like {
            Syntax::Toml
        } else if source.contains("new InputElement") {
            Syntax::CSharp
        } else if source.contains("SemanticName:") {
            Syntax::Rust
        } else {
            Syntax::C
        }
    }

    /// `"C"`, `"JSON"` or `"TOML"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Syntax::C => "C",
            Syntax::Json => "JSON",
            Syntax::Toml => "TOML",
            Syntax::CSharp => "C#",
            Syntax::Rust => "Rust",
        }
    }
}

/// Parses a layout in the given syntax. `array` chooses one array by name in C source with
/// several (see [`c::parse`]); it is an error for JSON and TOML, which hold one layout.
pub fn parse_layout(
    source: &str,
    syntax: Syntax,
    array: Option<&str>,
) -> Result<ParsedLayout, TextError> {
    match syntax {
        Syntax::C => c::parse(source, array),
        Syntax::CSharp => csharp::parse(source, array),
        Syntax::Rust => rust::parse(source, array),
        #[cfg(feature = "serde")]
        Syntax::Json | Syntax::Toml if array.is_some() => Err(TextError::at(
            source,
            Span::new(0, 0),
            format!(
                "--array chooses among C arrays; a {} file holds one layout",
                syntax.as_str()
            ),
        )),
        #[cfg(feature = "serde")]
        Syntax::Json => json::parse_layout(source),
        #[cfg(feature = "serde")]
        Syntax::Toml => toml::parse_layout(source),
        #[cfg(not(feature = "serde"))]
        _ => Err(TextError::at(
            source,
            Span::new(0, 0),
            format!("{} layouts need inlay's `serde` feature", syntax.as_str()),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions() {
        let s = "ab\ncdé\nf";
        assert_eq!(line_col(s, 0), (1, 1));
        assert_eq!(line_col(s, 3), (2, 1));
        assert_eq!(line_col(s, 7), (2, 4)); // after 'é' (2 bytes)
        assert_eq!(line_col(s, 6), (2, 3)); // inside 'é' → its start
        assert_eq!(line_col(s, 100), (3, 2));
        assert_eq!(offset_of(s, 2, 2), 4);
        assert_eq!(offset_of(s, 2, 99), 7);
        assert_eq!(offset_of(s, 9, 1), s.len());
    }

    #[test]
    fn excerpts_are_bounded() {
        let long = "x".repeat(500);
        let e = TextError::at(&long, Span::new(10, 500), "bad");
        assert_eq!(e.found.chars().count(), MAX_EXCERPT_CHARS + 1);
        assert_eq!(e.span(), Span::new(10, 10 + MAX_EXCERPT_CHARS));
        assert_eq!(e.column, 11);
        let e = TextError::at("a\nbcd", Span::new(3, 4), "oops");
        assert_eq!(e.to_string(), "2:2: oops (found `c`)");
    }

    #[test]
    fn detection() {
        assert_eq!(Syntax::detect("a.JSON", ""), Syntax::Json);
        assert_eq!(Syntax::detect("a.hpp", "[1]"), Syntax::C);
        assert_eq!(Syntax::detect("-", "  [ {"), Syntax::Json);
        assert_eq!(Syntax::detect("-", "{\"elements\":[]}"), Syntax::Json);
        assert_eq!(
            Syntax::detect("layout", "# x\n[[elements]]\nsemantic='P'"),
            Syntax::Toml
        );
        assert_eq!(
            Syntax::detect("layout", "D3D11_INPUT_ELEMENT_DESC elements[] = {};"),
            Syntax::C
        );
    }
}

/// Property tests (issue 7): the parsers never panic, their error positions agree with the
/// text, and layouts written out as C, JSON or TOML read back identically.
#[cfg(all(test, feature = "serde"))]
mod proptests {
    use proptest::prelude::*;

    use super::*;
    use crate::element::{APPEND_ALIGNED_ELEMENT, InputElementDesc};
    use crate::format::Format;

    fn element() -> impl Strategy<Value = InputElementDesc> {
        (
            prop::option::weighted(0.9, "[A-Za-z_][A-Za-z_0-9]{0,10}"),
            prop_oneof![0..8u32, any::<u32>()],
            prop_oneof![0..120u32, any::<u32>()],
            prop_oneof![0..32u32, any::<u32>()],
            prop_oneof![
                (0..64u32).prop_map(|o| o * 4),
                Just(APPEND_ALIGNED_ELEMENT),
                any::<u32>()
            ],
            prop_oneof![0..2u32, any::<u32>()],
            prop_oneof![0..4u32, any::<u32>()],
        )
            .prop_map(|(name, index, format, slot, offset, class, step)| {
                InputElementDesc {
                    semantic_name: name,
                    semantic_index: index,
                    format: Format(format),
                    input_slot: slot,
                    aligned_byte_offset: offset,
                    input_slot_class: class,
                    instance_data_step_rate: step,
                }
            })
    }

    fn to_c(elements: &[InputElementDesc], hex: bool) -> String {
        let num = |v: u32| {
            if hex {
                format!("0x{v:X}u")
            } else {
                v.to_string()
            }
        };
        let mut s =
            String::from("// generated\nstatic const D3D11_INPUT_ELEMENT_DESC layout[] =\n{\n");
        for e in elements {
            let name = e
                .semantic_name
                .as_ref()
                .map_or("NULL".to_string(), |n| format!("\"{n}\""));
            let format = match e.format.name() {
                Some(n) => format!("DXGI_FORMAT_{n}"),
                None => num(e.format.0),
            };
            let offset = match e.aligned_byte_offset {
                APPEND_ALIGNED_ELEMENT => "D3D11_APPEND_ALIGNED_ELEMENT".to_string(),
                o => num(o),
            };
            let class = match e.input_slot_class {
                0 => "D3D11_INPUT_PER_VERTEX_DATA".to_string(),
                1 => "D3D11_INPUT_PER_INSTANCE_DATA".to_string(),
                c => num(c),
            };
            s.push_str(&format!(
                "    {{ {name}, {}, {format}, /* slot */ {},\n      {offset}, {class}, {} }},\n",
                num(e.semantic_index),
                num(e.input_slot),
                num(e.instance_data_step_rate)
            ));
        }
        s.push_str("};\n");
        s
    }

    fn to_json(elements: &[InputElementDesc]) -> String {
        let items: Vec<serde_json::Value> = elements
            .iter()
            .map(|e| {
                serde_json::json!({
                    "semantic": e.semantic_name,
                    "index": e.semantic_index,
                    "format": e.format.name().map_or(serde_json::json!(e.format.0), |n| serde_json::json!(n)),
                    "slot": e.input_slot,
                    "offset": if e.aligned_byte_offset == APPEND_ALIGNED_ELEMENT { serde_json::json!("append") } else { serde_json::json!(e.aligned_byte_offset) },
                    "class": match e.input_slot_class { 0 => serde_json::json!("vertex"), 1 => serde_json::json!("instance"), c => serde_json::json!(c) },
                    "step_rate": e.instance_data_step_rate,
                })
            })
            .collect();
        serde_json::to_string_pretty(&serde_json::json!({ "elements": items })).unwrap()
    }

    fn to_toml(elements: &[InputElementDesc]) -> String {
        let mut s = String::new();
        for e in elements {
            s.push_str("[[elements]]\n");
            // TOML has no null: only named elements are written.
            s.push_str(&format!(
                "semantic = \"{}\"\n",
                e.semantic_name.as_deref().unwrap_or("")
            ));
            s.push_str(&format!("index = {}\n", e.semantic_index));
            match e.format.name() {
                Some(n) => s.push_str(&format!("format = \"{n}\"\n")),
                None => s.push_str(&format!("format = {}\n", e.format.0)),
            }
            s.push_str(&format!("slot = {}\n", e.input_slot));
            if e.aligned_byte_offset == APPEND_ALIGNED_ELEMENT {
                s.push_str("offset = \"append\"\n");
            } else {
                s.push_str(&format!("offset = {}\n", e.aligned_byte_offset));
            }
            s.push_str(&format!(
                "class = {}\nstep_rate = {}\n\n",
                e.input_slot_class, e.instance_data_step_rate
            ));
        }
        s
    }

    /// Tokens that C layouts are made of, to build near-valid garbage.
    fn c_token() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "{",
            "}",
            ",",
            ";",
            "=",
            "[",
            "]",
            "(",
            ")",
            "\"POSITION\"",
            "\"",
            "0",
            "12",
            "0x1F",
            "-",
            "~",
            "|",
            "*",
            "/",
            "DXGI_FORMAT_R32G32B32_FLOAT",
            "DXGI_FORMAT_",
            "D3D11_INPUT_PER_VERTEX_DATA",
            "D3D11_APPEND_ALIGNED_ELEMENT",
            "D3D11_INPUT_ELEMENT_DESC",
            "layout",
            "const",
            "/*",
            "*/",
            "//",
            "\n",
            "#define X 1\n",
            ".SemanticName",
            "NULL",
            "1.5f",
            "'a'",
            "\\",
            "é",
            "99999999999999999999999",
        ])
    }

    /// Tokens of C#, Rust and preprocessor text, to build near-valid garbage.
    fn other_token() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "new",
            "InputElement",
            "InputElementDescription",
            "(",
            ")",
            "{",
            "}",
            "[",
            "]",
            ",",
            ";",
            "=",
            ":",
            "::",
            ".",
            "!",
            "\"P\"",
            "0",
            "12_u32",
            "Format.R32_Float",
            "InputClassification.PerInstanceData",
            "D3D11_INPUT_ELEMENT_DESC",
            "s!",
            "s",
            "SemanticName",
            "Format",
            "..",
            "Default::default()",
            "PCSTR",
            "b\"P\\0\"",
            "'a",
            "let",
            "x",
            "#define M(a) { a }\n",
            "M",
            "#if 0\n",
            "#endif\n",
            "#else\n",
            "#define N N N\n",
            "N",
            "#if (1\n",
            "DXGI_FORMAT_R32_FLOAT",
            "\n",
            "std::array<",
            "std::vector<",
            ">",
            "namespace",
            "struct",
            "é",
        ])
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn c_round_trip(elements in prop::collection::vec(element(), 1..12), hex in any::<bool>()) {
            let src = to_c(&elements, hex);
            let p = c::parse(&src, None).unwrap();
            prop_assert_eq!(&p.elements, &elements);
            prop_assert_eq!(p.spans.len(), elements.len());
            for s in &p.spans {
                let text = &src[s.element.range()];
                prop_assert!(text.starts_with('{') && text.ends_with('}'), "element span {:?}", text);
            }
        }

        #[test]
        fn json_round_trip(elements in prop::collection::vec(element(), 0..12)) {
            let p = json::parse_layout(&to_json(&elements)).unwrap();
            prop_assert_eq!(p.elements, elements);
        }

        #[test]
        fn toml_round_trip(elements in prop::collection::vec(element(), 0..12)) {
            let elements: Vec<_> = elements.into_iter().map(|mut e| { e.semantic_name.get_or_insert_with(String::new); e }).collect();
            let src = to_toml(&elements);
            if elements.is_empty() {
                prop_assert!(toml::parse_layout(&src).is_err());
            } else {
                prop_assert_eq!(toml::parse_layout(&src).unwrap().elements, elements);
            }
        }

        #[test]
        fn c_garbage_never_panics(tokens in prop::collection::vec(c_token(), 0..200), sep in prop::sample::select(vec![" ", "", "\n"])) {
            let src = format!("D3D11_INPUT_ELEMENT_DESC d[] = {{{}", tokens.join(sep));
            if let Err(e) = c::parse(&src, None) {
                prop_assert_eq!(line_col(&src, e.offset), (e.line, e.column));
                prop_assert!(e.found.chars().count() <= MAX_EXCERPT_CHARS + 1);
            }
        }

        #[test]
        fn any_text_never_panics(src in "\\PC{0,300}") {
            for syntax in [Syntax::C, Syntax::Json, Syntax::Toml, Syntax::CSharp, Syntax::Rust] {
                if let Err(e) = parse_layout(&src, syntax, None) {
                    prop_assert_eq!(line_col(&src, e.offset), (e.line, e.column));
                }
            }
            let _ = json::parse_signature(&src);
            let _ = toml::parse_signature(&src);
        }

        #[test]
        fn other_languages_garbage_never_panics(tokens in prop::collection::vec(other_token(), 0..200), sep in prop::sample::select(vec![" ", "", "\n"])) {
            let src = tokens.join(sep);
            for r in [csharp::parse(&src, None), rust::parse(&src, None), c::parse(&src, None)] {
                if let Err(e) = r {
                    prop_assert_eq!(line_col(&src, e.offset), (e.line, e.column));
                    prop_assert!(e.found.chars().count() <= MAX_EXCERPT_CHARS + 1);
                }
            }
        }

        #[test]
        fn mutated_json_never_panics(elements in prop::collection::vec(element(), 1..4), cut in any::<prop::sample::Index>(), byte in any::<u8>()) {
            let mut bytes = to_json(&elements).into_bytes();
            let i = cut.index(bytes.len());
            bytes[i] = byte;
            let src = String::from_utf8_lossy(&bytes);
            if let Err(e) = json::parse_layout(&src) {
                prop_assert_eq!(line_col(&src, e.offset), (e.line, e.column));
            }
        }
    }
}
