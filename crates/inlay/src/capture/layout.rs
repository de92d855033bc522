//! A layout from any file a user has (issue 35 item 3): source text with element arrays
//! (C/C++, C#, Rust, JSON, TOML — [`crate::text`]), an importer's `.fmt` file ([`super::fmt`])
//! or a 3DMigoto vertex-buffer text dump ([`super::migoto`], its header). Every command of the
//! CLI, the C ABI and the bindings that take a layout read it through [`read_layout`], so one
//! file gives one answer everywhere.
//!
//! The reader is chosen by the file's extension (`.fmt`; `.txt`; `.json`, `.toml`, `.cs`,
//! `.rs` and the C/C++ extensions). A name without one of these — standard input (`-`)
//! among them — is tried with every reader, the likeliest first (an `element[0]:` block
//! suggests a dump or `.fmt`, a `vertex-data:` or `vbN[i]+` line a dump); the first that
//! accepts it wins, and a refusal lists each reader tried with its error.

use std::fmt as sfmt;

use super::{CaptureError, CaptureWarning, fmt, migoto};
use crate::text::{self, ParsedLayout, Syntax, TextError};

/// What a layout file was read as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LayoutSyntax {
    /// Source text: element arrays or JSON/TOML element lists ([`crate::text::parse_layout`]).
    Text(Syntax),
    /// An importer's `.fmt` file (its `stride:` and `element[i]:` blocks).
    Fmt,
    /// A 3DMigoto frame-analysis vertex-buffer text dump (`…-vb0=HASH….txt`): its header.
    MigotoVb,
}

impl LayoutSyntax {
    /// A name for messages: `C`, `JSON`, …, `.fmt`, `3DMigoto vb dump`.
    pub const fn as_str(self) -> &'static str {
        match self {
            LayoutSyntax::Text(s) => s.as_str(),
            LayoutSyntax::Fmt => ".fmt",
            LayoutSyntax::MigotoVb => "3DMigoto vb dump",
        }
    }
}

impl sfmt::Display for LayoutSyntax {
    fn fmt(&self, f: &mut sfmt::Formatter<'_>) -> sfmt::Result {
        f.write_str(self.as_str())
    }
}

/// A layout read from a file of any kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutSource {
    /// What the file was read as.
    pub syntax: LayoutSyntax,
    /// The elements (with their source spans for text; no spans for `.fmt` and dumps).
    pub parsed: ParsedLayout,
    /// The strides the file states, as (slot, stride): a `.fmt`'s `stride:` lines, a dump's
    /// `stride:`. Empty for source text, which states none.
    pub strides: Vec<(u32, u32)>,
    /// An importer's single merged buffer: a `.fmt` with one `stride:` and no slot named
    /// (every element is then in slot 0).
    pub single_buffer: bool,
    /// Doubts the reader noted.
    pub warnings: Vec<CaptureWarning>,
}

/// Why one reader refused a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayoutReadError {
    /// A source-text parser's error (position within the text).
    Text(TextError),
    /// A `.fmt` or dump reader's error (file, line, value).
    Capture(CaptureError),
}

impl sfmt::Display for LayoutReadError {
    fn fmt(&self, f: &mut sfmt::Formatter<'_>) -> sfmt::Result {
        match self {
            LayoutReadError::Text(e) => write!(f, "{e}"),
            LayoutReadError::Capture(e) => write!(f, "{e}"),
        }
    }
}

/// No reader accepted a layout file: each reader tried, in order, with its error.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct LayoutSourceError {
    /// The file, as named.
    pub file: String,
    /// Whether the file's extension chose the one reader tried.
    pub by_extension: bool,
    /// Each reader tried and why it refused the file.
    pub tried: Vec<(LayoutSyntax, LayoutReadError)>,
}

impl sfmt::Display for LayoutSourceError {
    fn fmt(&self, f: &mut sfmt::Formatter<'_>) -> sfmt::Result {
        match self.tried.as_slice() {
            [(syntax, LayoutReadError::Text(e))] => write!(
                f,
                "{}:{e} (read as {syntax}{})",
                self.file,
                if self.by_extension {
                    ", by its extension"
                } else {
                    ""
                }
            ),
            [(syntax, e)] => write!(f, "{e} (read as {syntax})"),
            tried => {
                write!(
                    f,
                    "{}: no layout reader accepts it; tried, in order:",
                    self.file
                )?;
                for (syntax, e) in tried {
                    match e {
                        LayoutReadError::Text(e) => write!(f, "\n  {syntax}: {e}")?,
                        LayoutReadError::Capture(e) => write!(f, "\n  {syntax}: {e}")?,
                    }
                }
                Ok(())
            }
        }
    }
}

/// Whether `file`'s extension names a layout in source text (C/C++, C#, Rust, JSON, TOML):
/// a file [`read_layout`] reads only as a layout, never as a capture (`.fmt` and vb dump
/// `.txt` files are both). Commands that take a layout or a capture decide with this.
pub fn names_layout_text(file: &str) -> bool {
    matches!(by_extension(file, ""), Some(LayoutSyntax::Text(_)))
}

/// The readers for `file` (by extension), or `None` when the name chooses none.
fn by_extension(file: &str, text: &str) -> Option<LayoutSyntax> {
    let lower = file.to_ascii_lowercase();
    let (_, ext) = lower.rsplit_once('.')?;
    match ext {
        "fmt" => Some(LayoutSyntax::Fmt),
        "txt" => Some(LayoutSyntax::MigotoVb),
        "json" | "toml" | "cs" | "rs" | "c" | "cc" | "cpp" | "cxx" | "c++" | "h" | "hh" | "hpp"
        | "hxx" | "h++" | "inl" | "ipp" | "m" | "mm" => {
            Some(LayoutSyntax::Text(Syntax::detect(file, text)))
        }
        _ => None,
    }
}

/// Every reader, the likeliest for `text` first.
fn by_content(file: &str, text: &str) -> Vec<LayoutSyntax> {
    let lines = || text.lines().map(str::trim_start);
    let blocks = lines().any(|l| l.starts_with("element["));
    let dump = lines().any(|l| {
        l.starts_with("vertex-data:")
            || l.starts_with("first vertex:")
            || (l.starts_with("vb")
                && l[2..]
                    .trim_start_matches(|c: char| c.is_ascii_digit())
                    .starts_with('['))
    });
    let source = LayoutSyntax::Text(Syntax::detect(file, text));
    match (blocks, dump) {
        (true, true) => vec![LayoutSyntax::MigotoVb, LayoutSyntax::Fmt, source],
        (true, false) => vec![LayoutSyntax::Fmt, LayoutSyntax::MigotoVb, source],
        _ => vec![source, LayoutSyntax::Fmt, LayoutSyntax::MigotoVb],
    }
}

fn read_as(
    syntax: LayoutSyntax,
    file: &str,
    bytes: &[u8],
    text: &str,
    array: Option<&str>,
) -> Result<LayoutSource, LayoutReadError> {
    let capture_array = |what: &str| {
        array.map_or(Ok(()), |a| {
            Err(LayoutReadError::Capture(CaptureError {
                file: file.to_string(),
                line: None,
                value: Some(a.chars().take(60).collect()),
                message: format!("--array chooses among C arrays; {what} holds one layout"),
            }))
        })
    };
    match syntax {
        LayoutSyntax::Text(s) => {
            let parsed = text::parse_layout(text, s, array).map_err(LayoutReadError::Text)?;
            Ok(LayoutSource {
                syntax,
                parsed,
                strides: Vec::new(),
                single_buffer: false,
                warnings: Vec::new(),
            })
        }
        LayoutSyntax::Fmt => {
            capture_array("a .fmt file")?;
            let mut f = fmt::parse(file, bytes).map_err(LayoutReadError::Capture)?;
            let single = f.strides.len() == 1 && f.strides[0].0.is_none();
            if single {
                for e in &mut f.elements {
                    e.input_slot = 0;
                }
            }
            Ok(LayoutSource {
                syntax,
                parsed: ParsedLayout {
                    elements: f.elements,
                    ..ParsedLayout::default()
                },
                strides: f
                    .strides
                    .iter()
                    .map(|(s, v)| (s.unwrap_or(0), *v))
                    .collect(),
                single_buffer: single,
                warnings: f.warnings,
            })
        }
        LayoutSyntax::MigotoVb => {
            capture_array("a 3DMigoto dump")?;
            let vb = migoto::parse_vb_txt(file, bytes, false).map_err(LayoutReadError::Capture)?;
            // The dump's slot is the one its elements name when its data lines say none.
            let slot = vb
                .slot
                .or_else(|| vb.elements.first().map(|e| e.input_slot))
                .unwrap_or(0);
            Ok(LayoutSource {
                syntax,
                parsed: ParsedLayout {
                    elements: vb.elements,
                    ..ParsedLayout::default()
                },
                strides: vb.stride.map(|s| vec![(slot, s)]).unwrap_or_default(),
                single_buffer: false,
                warnings: vb.warnings,
            })
        }
    }
}

/// Reads a layout from `bytes`, the contents of `file` (its name chooses the reader; see the
/// module documentation). Text may be UTF-8 or UTF-16 with a byte-order mark. `array` picks
/// one C array by name; it is an error for the formats that hold one layout.
pub fn read_layout(
    file: &str,
    bytes: &[u8],
    array: Option<&str>,
) -> Result<LayoutSource, LayoutSourceError> {
    let text = text::decode_source(bytes);
    let chosen = by_extension(file, &text);
    let order = match chosen {
        Some(s) => vec![s],
        None => by_content(file, &text),
    };
    let mut tried = Vec::new();
    for syntax in order {
        match read_as(syntax, file, bytes, &text, array) {
            Ok(source) => return Ok(source),
            Err(e) => tried.push((syntax, e)),
        }
    }
    Err(LayoutSourceError {
        file: file.to_string(),
        by_extension: chosen.is_some(),
        tried,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const FMT: &str = "stride: 20\ntopology: trianglelist\nformat: DXGI_FORMAT_R16_UINT\n\
        element[0]:\n  SemanticName: POSITION\n  SemanticIndex: 0\n  Format: R32G32B32_FLOAT\n\
        \x20 InputSlot: 0\n  AlignedByteOffset: 0\n  InputSlotClass: per-vertex\n\
        \x20 InstanceDataStepRate: 0\nelement[1]:\n  SemanticName: TEXCOORD\n\
        \x20 SemanticIndex: 0\n  Format: R32G32_FLOAT\n  InputSlot: 0\n  AlignedByteOffset: 12\n\
        \x20 InputSlotClass: per-vertex\n  InstanceDataStepRate: 0\n";

    #[test]
    fn source_text_names_are_layouts_and_capture_names_are_not() {
        for name in [
            "a.h", "a.HPP", "a.hxx", "a.inl", "a.c", "a.cpp", "a.cs", "a.rs", "a.json", "a.toml",
            "a.mm",
        ] {
            assert!(names_layout_text(name), "{name}");
        }
        for name in [
            "a.fmt",
            "a-vb0=0badf00d.txt",
            "a.csv",
            "a.buf",
            "a",
            "-",
            "a.ini",
        ] {
            assert!(!names_layout_text(name), "{name}");
        }
    }

    #[test]
    fn a_fmt_file_is_a_layout_by_extension_and_by_content() {
        for name in ["mesh.fmt", "-", "mesh"] {
            let l = read_layout(name, FMT.as_bytes(), None).unwrap();
            assert_eq!(l.syntax, LayoutSyntax::Fmt, "{name}");
            assert_eq!(l.parsed.elements.len(), 2);
            assert_eq!(
                l.parsed.elements[1].semantic_name.as_deref(),
                Some("TEXCOORD")
            );
            assert_eq!(l.parsed.elements[1].aligned_byte_offset, 12);
            assert_eq!(l.strides, [(0, 20)]);
            assert!(l.single_buffer);
        }
    }

    #[test]
    fn source_text_from_standard_input_is_detected() {
        let json = r#"[{"semantic": "POSITION", "index": 0, "format": "R32G32B32_FLOAT",
            "slot": 0, "offset": 0, "class": "vertex", "step_rate": 0}]"#;
        let l = read_layout("-", json.as_bytes(), None).unwrap();
        assert_eq!(l.syntax, LayoutSyntax::Text(Syntax::Json));
        assert_eq!(l.parsed.elements.len(), 1);
        assert!(l.strides.is_empty());
    }

    #[test]
    fn a_refusal_names_every_reader_tried() {
        let e = read_layout("-", b"not a layout at all", None).unwrap_err();
        assert!(!e.by_extension);
        let names: Vec<_> = e.tried.iter().map(|(s, _)| *s).collect();
        assert_eq!(
            names,
            [
                LayoutSyntax::Text(Syntax::C),
                LayoutSyntax::Fmt,
                LayoutSyntax::MigotoVb
            ]
        );
        let text = e.to_string();
        assert!(
            text.starts_with("-: no layout reader accepts it; tried, in order:\n  C: "),
            "{text}"
        );
        assert!(text.contains("\n  .fmt: "), "{text}");
        assert!(text.contains("\n  3DMigoto vb dump: "), "{text}");
        // By extension, one reader, named.
        let e = read_layout("x.fmt", b"stride: 4\n", None).unwrap_err();
        assert!(e.by_extension);
        assert_eq!(e.tried.len(), 1);
        assert!(e.to_string().ends_with("(read as .fmt)"), "{e}");
    }

    #[test]
    fn array_is_refused_for_single_layout_formats() {
        let e = read_layout("m.fmt", FMT.as_bytes(), Some("x")).unwrap_err();
        assert!(
            e.to_string().contains("--array chooses among C arrays"),
            "{e}"
        );
    }
}
