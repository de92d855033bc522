//! Layouts and signature descriptions in TOML.
//!
//! A layout is an array of tables named `elements` whose keys are the `ELEMENT` fields (see
//! [`super::records::ElementRecord`]); a signature description is an array of tables named
//! `signature` with the `SIGNATURE_ELEMENT` fields:
//!
//! ```
//! let src = r#"
//! [[elements]]
//! semantic = "POSITION"
//! format = "R32G32B32_FLOAT"
//! offset = 0
//!
//! [[elements]]
//! semantic = "COLOR"
//! format = "R8G8B8A8_UNORM"
//! offset = "append"
//! "#;
//! let layout = inlay::text::toml::parse_layout(src).unwrap();
//! assert_eq!(layout.elements.len(), 2);
//! assert_eq!(&src[layout.spans[1].fields[4].unwrap().range()], "\"append\"");
//! ```
//!
//! Errors carry the line, column and text that the `toml` crate points at.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde::de::DeserializeOwned;

use super::records::{
    ElementRecord, ElementsDoc, SignatureDoc, check_signature_records, signature_of,
};
use super::{ElementSpans, Field, ParsedLayout, Span, TextError};
use crate::dxbc::signature::Signature;

/// Parses a TOML layout.
pub fn parse_layout(source: &str) -> Result<ParsedLayout, TextError> {
    super::check_separators(source, "TOML")?;
    let records = from_str::<ElementsDoc>(source)?.elements;
    let mut spans = element_spans(source).unwrap_or_default();
    spans.resize(records.len(), ElementSpans::default());
    Ok(ParsedLayout {
        name: None,
        elements: records.iter().map(ElementRecord::to_desc).collect(),
        spans,
        element_type: None,
    })
}

/// Parses a TOML signature description.
pub fn parse_signature(source: &str) -> Result<Signature, TextError> {
    super::check_separators(source, "TOML")?;
    let records = from_str::<SignatureDoc>(source)?.signature;
    check_signature_records(&records).map_err(|(i, message)| {
        // Points at the element's `[[signature]]` header when it has one.
        let at = source
            .match_indices("[[signature]]")
            .nth(i)
            .map_or(Span::new(0, 0), |(at, h)| Span::new(at, at + h.len()));
        TextError::at(source, at, message)
    })?;
    Ok(signature_of(&records))
}

fn from_str<T: DeserializeOwned>(source: &str) -> Result<T, TextError> {
    ::toml::from_str(source).map_err(|e| {
        let span = e
            .span()
            .map_or(Span::new(0, 0), |r| Span::new(r.start, r.end));
        TextError::at(source, span, e.message().trim_end())
    })
}

#[derive(Deserialize)]
struct SpanDoc {
    elements: Vec<::toml::Spanned<BTreeMap<String, ::toml::Spanned<::toml::Value>>>>,
}

fn element_spans(source: &str) -> Option<Vec<ElementSpans>> {
    let doc: SpanDoc = ::toml::from_str(source).ok()?;
    Some(
        doc.elements
            .iter()
            .map(|e| {
                let mut spans = ElementSpans {
                    element: Span::new(e.span().start, e.span().end),
                    fields: [None; 7],
                };
                for (k, v) in e.get_ref() {
                    if let Some(f) = Field::from_name(k) {
                        spans.fields[f as usize] = Some(Span::new(v.span().start, v.span().end));
                    }
                }
                spans
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::element::{APPEND_ALIGNED_ELEMENT, InputElementDesc};
    use crate::format::Format;

    const SRC: &str = "# seed\n[[elements]]\nsemantic = \"POSITION\"\nformat = \"R32G32B32_FLOAT\"\noffset = 0\n\n[[elements]]\nsemantic = \"COLOR\"\nindex = 1\nformat = 87\nslot = 2\noffset = \"append\"\nclass = \"instance\"\nstep_rate = 3\n";

    #[test]
    fn layout() {
        let p = parse_layout(SRC).unwrap();
        assert_eq!(
            p.elements,
            vec![
                InputElementDesc::per_vertex("POSITION", 0, Format::R32G32B32_FLOAT, 0, 0),
                InputElementDesc::per_instance(
                    "COLOR",
                    1,
                    Format::B8G8R8A8_UNORM,
                    2,
                    APPEND_ALIGNED_ELEMENT,
                    3
                ),
            ]
        );
        let s = p.spans[1];
        assert_eq!(&SRC[s.field(Field::Format).range()], "87");
        assert_eq!(
            super::super::line_col(SRC, s.field(Field::StepRate).start),
            (14, 13)
        );
        assert_eq!(super::super::line_col(SRC, s.element.start), (7, 1));
        assert_eq!(
            s.fields[Field::Semantic as usize].map(|f| &SRC[f.range()]),
            Some("\"COLOR\"")
        );
    }

    #[test]
    fn errors() {
        let e = parse_layout(
            "[[elements]]\nsemantic = \"P\"\nformat = \"R32_FLOAT\"\noffset = 0\ncolour = 1\n",
        )
        .unwrap_err();
        assert_eq!((e.line, e.column, e.found.as_str()), (5, 1, "colour"));
        assert_eq!(
            e.message,
            "unknown field `colour`, expected one of `semantic`, `index`, `format`, `slot`, `offset`, `class`, `step_rate`"
        );
        let e = parse_layout("[[elements]]\nsemantic = \"P\"\nformat = \"NOPE\"\noffset = 0\n")
            .unwrap_err();
        assert_eq!((e.line, e.column, e.found.as_str()), (3, 10, "\"NOPE\""));
        let e = parse_layout("[[elements]]\nsemantic = \"P\"\nformat = 2\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 1));
        assert_eq!(e.message, "missing field `offset`");
        let e = parse_layout("[[elements]\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 12));
        let e = parse_layout("").unwrap_err();
        assert_eq!(e.message, "missing field `elements`");
    }

    #[test]
    fn signature() {
        let s = parse_signature("[[signature]]\nsemantic = \"POSITION\"\nregister = 0\nmask = \"xyzw\"\nused = \"xy\"\n").unwrap();
        assert_eq!((s.elements[0].mask, s.elements[0].read_write_mask), (15, 3));
        let e = parse_signature("[[signature]]\nsemantic = \"P\"\nregister = 0\nmask = \"q\"\n")
            .unwrap_err();
        assert_eq!((e.line, e.column, e.found.as_str()), (4, 8, "\"q\""));
    }
}
