//! Layouts and signature descriptions in JSON.
//!
//! A layout is an array of `ELEMENT` objects (see [`super::records::ElementRecord`]), either as
//! the whole document or as the `elements` member of an object:
//!
//! ```
//! let src = r#"{"elements": [
//!   {"semantic": "POSITION", "format": "R32G32B32_FLOAT", "offset": 0},
//!   {"semantic": "COLOR", "index": 0, "format": 87, "offset": "append", "class": "vertex"}
//! ]}"#;
//! let layout = inlay::text::json::parse_layout(src).unwrap();
//! assert_eq!(layout.elements[1].format, inlay::format::Format::B8G8R8A8_UNORM);
//! assert_eq!(&src[layout.spans[1].fields[2].unwrap().range()], "87");
//! ```
//!
//! A signature description is an array of `SIGNATURE_ELEMENT` objects, as the whole document
//! or as the `signature` member of an object (the form of a conformance case's `shader`).
//!
//! Errors (syntax, wrong types, unknown or missing fields) carry the line, column and text
//! where `serde_json` stopped. Spans come from a second, structural pass over the (then known
//! to be valid) text.

use serde::de::DeserializeOwned;

use super::records::{
    ElementRecord, ElementsDoc, SignatureDoc, SignatureRecord, check_signature_records,
    signature_of,
};
use super::{ElementSpans, Field, ParsedLayout, Span, TextError, offset_of};
use crate::dxbc::signature::Signature;

/// Parses a JSON layout.
pub fn parse_layout(source: &str) -> Result<ParsedLayout, TextError> {
    super::check_separators(source, "JSON")?;
    let records: Vec<ElementRecord> = if starts_with_object(source) {
        from_str::<ElementsDoc>(source)?.elements
    } else {
        from_str(source)?
    };
    let mut spans = element_spans(source, "elements").unwrap_or_default();
    spans.resize(records.len(), ElementSpans::default());
    Ok(ParsedLayout {
        name: None,
        elements: records.iter().map(ElementRecord::to_desc).collect(),
        spans,
        element_type: None,
    })
}

/// Parses a JSON signature description.
pub fn parse_signature(source: &str) -> Result<Signature, TextError> {
    super::check_separators(source, "JSON")?;
    let records: Vec<SignatureRecord> = if starts_with_object(source) {
        from_str::<SignatureDoc>(source)?.signature
    } else {
        from_str(source)?
    };
    check_signature_records(&records).map_err(|(i, message)| {
        let span = element_spans(source, "signature")
            .and_then(|s| s.get(i).map(|s| s.element))
            .unwrap_or_default();
        TextError::at(source, span, message)
    })?;
    Ok(signature_of(&records))
}

fn starts_with_object(source: &str) -> bool {
    source
        .trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}')
        .starts_with('{')
}

fn from_str<T: DeserializeOwned>(source: &str) -> Result<T, TextError> {
    let body = source.strip_prefix('\u{feff}').unwrap_or(source);
    let skipped = source.len() - body.len();
    serde_json::from_str(body).map_err(|e| {
        let text = e.to_string();
        let message = match text.rfind(" at line ") {
            Some(i) => text[..i].to_string(),
            None => text,
        };
        if e.line() == 0 {
            return TextError::at(source, Span::new(0, 0), message);
        }
        // serde_json's (1-based) column is that of the last byte it read.
        let last = offset_of(body, e.line(), e.column());
        let span = token_at(body, last);
        let span = Span::new(span.start + skipped, span.end + skipped);
        TextError::at(source, span, message)
    })
}

/// The JSON token containing byte `at`: a string (when `at` is its closing quote or inside
/// it, found by looking back at most 256 bytes), a word (number, literal) or one character.
fn token_at(src: &str, at: usize) -> Span {
    let b = src.as_bytes();
    // serde_json counts columns in bytes: the position may fall inside a character.
    let mut at = at.min(b.len());
    while !src.is_char_boundary(at) {
        at -= 1;
    }
    if at >= b.len() {
        return Span::new(b.len(), b.len());
    }
    let word = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'+' | b'.' | b'_');
    if b[at] == b'"' {
        let lo = at.saturating_sub(256);
        let mut i = at;
        while i > lo {
            i -= 1;
            if b[i] == b'"' && (i == 0 || b[i - 1] != b'\\') {
                return Span::new(i, at + 1);
            }
            if b[i] == b'\n' {
                break;
            }
        }
        return Span::new(at, at + 1);
    }
    if word(b[at]) {
        let mut s = at;
        while s > 0 && word(b[s - 1]) && at - s < 256 {
            s -= 1;
        }
        let mut e = at;
        while e < b.len() && word(b[e]) && e - at < 256 {
            e += 1;
        }
        return Span::new(s, e);
    }
    let len = src[at..].chars().next().map_or(1, char::len_utf8);
    Span::new(at, at + len)
}

/// Spans of the element objects of a valid JSON document: the items of the top-level array,
/// or of the array under `key` of a top-level object. `None` if the structure is not that.
pub(crate) fn element_spans(source: &str, key: &str) -> Option<Vec<ElementSpans>> {
    let mut s = Scanner {
        b: source.as_bytes(),
        pos: 0,
    };
    if source.starts_with('\u{feff}') {
        s.pos = 3;
    }
    s.ws();
    if s.peek()? == b'{' {
        let members = s.object(0)?;
        let (_, value) = members
            .into_iter()
            .find(|(k, _)| &source[k.start + 1..k.end - 1] == key)?;
        s.pos = value.start;
    }
    if s.peek()? != b'[' {
        return None;
    }
    s.pos += 1;
    let mut out = Vec::new();
    loop {
        s.ws();
        if s.eat(b']') {
            return Some(out);
        }
        let start = s.pos;
        let mut spans = ElementSpans::default();
        if s.peek()? == b'{' {
            for (k, v) in s.object(1)? {
                if let Some(f) = Field::from_name(&source[k.start + 1..k.end - 1]) {
                    spans.fields[f as usize] = Some(v);
                }
            }
        } else {
            s.value(1)?;
        }
        spans.element = Span::new(start, s.pos);
        out.push(spans);
        s.ws();
        if !s.eat(b',') {
            s.ws();
            return s.eat(b']').then_some(out);
        }
    }
}

/// A structural JSON scanner (no value decoding) over text `serde_json` has accepted.
struct Scanner<'a> {
    b: &'a [u8],
    pos: usize,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.pos).copied()
    }

    fn eat(&mut self, c: u8) -> bool {
        let hit = self.peek() == Some(c);
        if hit {
            self.pos += 1;
        }
        hit
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn string(&mut self) -> Option<Span> {
        let start = self.pos;
        if !self.eat(b'"') {
            return None;
        }
        loop {
            match self.peek()? {
                b'\\' => self.pos += 2,
                b'"' => {
                    self.pos += 1;
                    return Some(Span::new(start, self.pos));
                }
                _ => self.pos += 1,
            }
        }
    }

    /// `{ "key": value, … }` → (key span with quotes, value span) pairs.
    fn object(&mut self, depth: usize) -> Option<Vec<(Span, Span)>> {
        self.pos += 1; // `{`
        let mut members = Vec::new();
        loop {
            self.ws();
            if self.eat(b'}') {
                return Some(members);
            }
            let key = self.string()?;
            self.ws();
            if !self.eat(b':') {
                return None;
            }
            self.ws();
            let value = self.value(depth + 1)?;
            members.push((key, value));
            self.ws();
            if !self.eat(b',') {
                self.ws();
                return self.eat(b'}').then_some(members);
            }
        }
    }

    fn value(&mut self, depth: usize) -> Option<Span> {
        if depth > 256 {
            return None;
        }
        let start = self.pos;
        match self.peek()? {
            b'"' => return self.string(),
            b'{' => {
                self.object(depth)?;
            }
            b'[' => {
                self.pos += 1;
                loop {
                    self.ws();
                    if self.eat(b']') {
                        break;
                    }
                    self.value(depth + 1)?;
                    self.ws();
                    if !self.eat(b',') {
                        self.ws();
                        if !self.eat(b']') {
                            return None;
                        }
                        break;
                    }
                }
            }
            _ => {
                while matches!(self.peek(), Some(c) if c.is_ascii_alphanumeric() || matches!(c, b'-' | b'+' | b'.'))
                {
                    self.pos += 1;
                }
                if self.pos == start {
                    return None;
                }
            }
        }
        Some(Span::new(start, self.pos))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dxbc::signature::{ComponentType, NO_REGISTER, SystemValue};
    use crate::element::{APPEND_ALIGNED_ELEMENT, InputElementDesc};
    use crate::format::Format;

    const SEED: &str = r#"[
  {"semantic": "POSITION", "index": 0, "format": "R32G32B32_FLOAT", "slot": 0, "offset": 0, "class": "vertex", "step_rate": 0},
  {"semantic": "COLOR", "index": 0, "format": "R32G32B32_FLOAT", "slot": 0, "offset": 12, "class": "vertex", "step_rate": 0}
]"#;

    #[test]
    fn seed_layout() {
        let p = parse_layout(SEED).unwrap();
        assert_eq!(
            p.elements,
            vec![
                InputElementDesc::per_vertex("POSITION", 0, Format::R32G32B32_FLOAT, 0, 0),
                InputElementDesc::per_vertex("COLOR", 0, Format::R32G32B32_FLOAT, 0, 12),
            ]
        );
        let s = p.spans[1];
        assert_eq!(super::super::line_col(SEED, s.element.start), (3, 3));
        assert_eq!(&SEED[s.field(Field::Offset).range()], "12");
        assert_eq!(&SEED[s.field(Field::Semantic).range()], "\"COLOR\"");
        assert!(SEED[s.element.range()].starts_with("{\"semantic\": \"COLOR\""));
        assert!(SEED[s.element.range()].ends_with("\"step_rate\": 0}"));
    }

    #[test]
    fn every_value_form() {
        let src = r#"{"elements": [
 {"semantic": null, "format": 87, "offset": "append", "class": 7, "slot": 3, "step_rate": 2},
 {"semantic": "T", "index": 4, "format": "DXGI_FORMAT_R8_UINT", "offset": 4294967295, "class": "instance"}
]}"#;
        let p = parse_layout(src).unwrap();
        assert_eq!(
            p.elements[0],
            InputElementDesc {
                semantic_name: None,
                semantic_index: 0,
                format: Format::B8G8R8A8_UNORM,
                input_slot: 3,
                aligned_byte_offset: APPEND_ALIGNED_ELEMENT,
                input_slot_class: 7,
                instance_data_step_rate: 2,
            }
        );
        assert_eq!(
            p.elements[1],
            InputElementDesc::per_instance("T", 4, Format::R8_UINT, 0, APPEND_ALIGNED_ELEMENT, 0)
        );
        assert_eq!(p.spans[1].fields[Field::Slot as usize], None);
        assert_eq!(&src[p.spans[0].field(Field::Class).range()], "7");
        let empty = parse_layout("[]").unwrap();
        assert!(empty.elements.is_empty());
    }

    fn err(src: &str) -> (usize, usize, String, String) {
        let e = parse_layout(src).expect_err("should fail");
        (e.line, e.column, e.found, e.message)
    }

    #[test]
    fn errors_have_positions() {
        assert_eq!(
            err("[\n {\"semantic\": \"P\", \"format\": \"R32_FLOAT\", \"offset\": 0, \"colour\": 1}\n]"),
            (2, 56, "\"colour\"".into(), "unknown field `colour`, expected one of `semantic`, `index`, `format`, `slot`, `offset`, `class`, `step_rate`".into())
        );
        assert_eq!(
            err("[{\"semantic\": \"P\", \"format\": \"R32_FLAT\", \"offset\": 0}]"),
            (1, 30, "\"R32_FLAT\"".into(), "unknown DXGI format `R32_FLAT` (expected a name such as R32G32B32_FLOAT or a number)".into())
        );
        assert_eq!(
            err("[{\"semantic\": \"P\", \"format\": 2, \"offset\": -4}]"),
            (
                1,
                43,
                "-4".into(),
                "offset -4 is outside 0..=4294967295".into()
            )
        );
        assert_eq!(
            err("[{\"semantic\": \"P\", \"format\": 2}]"),
            (1, 31, "}".into(), "missing field `offset`".into())
        );
        assert_eq!(
            err("[{\"format\": 2, \"offset\": 0}]"),
            (1, 27, "}".into(), "missing field `semantic`".into())
        );
        assert_eq!(
            err("[{\"semantic\": \"P\", \"format\": 2, \"offset\": \"end\"}]"),
            (
                1,
                43,
                "\"end\"".into(),
                "offset must be a number or \"append\", found \"end\"".into()
            )
        );
        assert_eq!(
            err("{\"elements\": [], \"extra\": 1}"),
            (
                1,
                18,
                "\"extra\"".into(),
                "unknown field `extra`, expected `elements`".into()
            )
        );
        assert_eq!(err("[{,]").0..=err("[{,]").1, 1..=3);
        assert_eq!(err("").3, "EOF while parsing a value");
        // Found by the property test: an error position inside a multi-byte character.
        assert_eq!(err("\"\u{109d2}").0..=err("\"\u{109d2}").1, 1..=2);
    }

    #[test]
    fn signature() {
        let src = r#"{"signature": [
  {"semantic": "POSITION", "index": 0, "register": 0, "mask": "xyz", "used": "xyz", "type": "float", "sv": "NONE"},
  {"semantic": "SV_VertexID", "register": 1, "mask": "x", "used": "", "type": "uint", "sv": "VERTEX_ID"},
  {"semantic": "I", "index": 2, "register": null, "mask": "yw", "type": "sint", "sv": "VERTID"}
]}"#;
        let s = parse_signature(src).unwrap();
        let e = &s.elements;
        assert_eq!((e[0].mask, e[0].read_write_mask, e[0].register), (7, 7, 0));
        assert_eq!(e[0].component_type, ComponentType::FLOAT32);
        assert_eq!(
            (e[1].read_write_mask, e[1].system_value),
            (0, SystemValue::VERTEX_ID)
        );
        assert_eq!(e[1].component_type, ComponentType::UINT32);
        assert_eq!(
            (e[2].register, e[2].mask, e[2].read_write_mask),
            (NO_REGISTER, 0b1010, 0b1010)
        );
        assert_eq!(
            (e[2].semantic_index, e[2].component_type),
            (2, ComponentType::SINT32)
        );
        assert_eq!(e[2].system_value, SystemValue::VERTEX_ID);
        let bare =
            parse_signature(r#"[{"semantic": "A", "register": 3, "mask": "xyzw"}]"#).unwrap();
        assert_eq!(bare.elements[0].register, 3);
        let e =
            parse_signature(r#"[{"semantic": "A", "register": 3, "mask": "xzy"}]"#).unwrap_err();
        assert_eq!((e.line, e.column, e.found.as_str()), (1, 43, "\"xzy\""));
        assert_eq!(
            e.message,
            "mask \"xzy\" is not component letters in xyzw order (such as \"xyz\" or \"yw\")"
        );
        let e =
            parse_signature(r#"[{"semantic": "A", "register": 3, "mask": "x", "sv": "BOGUS"}]"#)
                .unwrap_err();
        assert_eq!(e.column, 54);
    }
}
