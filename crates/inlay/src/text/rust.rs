//! Input element arrays in Rust source, as programs using the `windows` crate write them.
//!
//! ```rust,ignore
//! let input_element_descs: [D3D11_INPUT_ELEMENT_DESC; 2] = [
//!     D3D11_INPUT_ELEMENT_DESC {
//!         SemanticName: s!("POSITION"),
//!         SemanticIndex: 0,
//!         Format: DXGI_FORMAT_R32G32B32_FLOAT,
//!         InputSlot: 0,
//!         AlignedByteOffset: 0,
//!         InputSlotClass: D3D11_INPUT_PER_VERTEX_DATA,
//!         InstanceDataStepRate: 0,
//!     },
//!     // …
//! ];
//! ```
//!
//! Struct literals of `D3D10_/D3D11_/D3D12_INPUT_ELEMENT_DESC` (paths such as
//! `Direct3D11::D3D11_INPUT_ELEMENT_DESC` too) with the C member names, in any order; either
//! every member is given or the literal ends with `..Default::default()` (or any other `..`
//! base: the `windows` crate's defaults are all zero), as Rust requires. Values:
//!
//! * `SemanticName`: `s!("…")` (also `windows::core::s!`), `PCSTR(b"…\0".as_ptr())`,
//!   `PCSTR::from_raw(…)`, `PCSTR::null()`;
//! * the constants of [`super::c`] by their last path segment
//!   (`Common::DXGI_FORMAT_R32G32B32_FLOAT`, `D3D11_APPEND_ALIGNED_ELEMENT`), newtype
//!   constructors `DXGI_FORMAT(6)`, `D3D11_INPUT_CLASSIFICATION(1)`, `.0`, `as u32`, and
//!   integer literals with `_` separators and type suffixes (`12_u32`).
//!
//! An array is each `[…]` (array, `vec![…]`, slice) or other bracket group holding such
//! literals; it is named after the `let`, `const` or `static` it is bound to.

use crate::element::InputElementDesc;

use super::c::{ArrayInfo, Candidate, ELEMENT_TYPES, Groups, LiteralArrays};
use super::lex::{Dialect, Kind, Token};
use super::parser::{Member, Parser, Value, resolve_name, zero_element};
use super::{ElementSpans, Field, ParsedLayout, Span, TextError};

/// Rust's arrays: groups of `D3D1x_INPUT_ELEMENT_DESC { … }` struct literals.
const ARRAYS: LiteralArrays = LiteralArrays {
    scan,
    what: "array of `D3D11_INPUT_ELEMENT_DESC { … }` struct literals",
};

/// Lists the element arrays in `source`, in order.
pub fn arrays(source: &str) -> Vec<ArrayInfo> {
    ARRAYS.list(source)
}

/// Parses the element array named `array` (see [`super::c::parse`] for how names are
/// matched), or the only one when `array` is `None`.
pub fn parse(source: &str, array: Option<&str>) -> Result<ParsedLayout, TextError> {
    ARRAYS.parse(source, array)
}

fn scan(source: &str) -> Vec<Candidate> {
    let mut p = Parser::new(source, Dialect::Rust);
    let mut groups = Groups::default();
    let mut binding: Option<((String, Span), usize)> = None;
    loop {
        let t = p.next();
        match t.kind {
            Kind::Eof => break,
            Kind::Ident if matches!(p.text(t), "let" | "const" | "static") => {
                if p.peek_text(0) == "mut" {
                    p.next();
                }
                let n = p.peek();
                if n.kind == Kind::Ident {
                    binding = Some(((p.text(n).to_string(), n.span), groups.depth()));
                }
            }
            Kind::Ident if ELEMENT_TYPES.contains(&p.text(t)) && p.peek_is("{") => {
                let r = element(&mut p, t);
                groups.add(&p, p.text(t), r);
            }
            Kind::Punct => match p.text(t) {
                "{" | "[" | "(" => groups.open(binding.as_ref().map(|b| b.0.clone())),
                "}" | "]" | ")" => {
                    groups.close(&p);
                    if binding.as_ref().is_some_and(|b| groups.depth() < b.1) {
                        binding = None;
                    }
                }
                ";" if binding.as_ref().is_some_and(|b| groups.depth() <= b.1) => binding = None,
                _ => {}
            },
            _ => {}
        }
    }
    groups.finish(&p)
}

/// `TYPE { Member: value, …, [..base] }`, the type name consumed.
fn element(p: &mut Parser, ty: Token) -> Result<(InputElementDesc, ElementSpans), TextError> {
    // Collect the balanced braces first so that an error stays inside the literal.
    let mut tokens = Vec::new();
    let end = p.group(&mut tokens)?;
    let element_span = Span::new(ty.span.start, end);
    let mut sub = p.over(tokens, end);
    sub.next(); // `{`
    let mut desc = zero_element();
    let mut spans = ElementSpans {
        element: element_span,
        fields: [None; 7],
    };
    let rest = sub.members(":", &mut desc, &mut spans, |sub, t| {
        if sub.is_punct(t, ".") && sub.peek_punct(0, ".") {
            // `..Default::default()`: the remaining members are zero.
            return Ok(Member::Rest);
        }
        Field::ALL
            .into_iter()
            .find(|f| t.kind == Kind::Ident && f.c_name() == sub.text(t))
            .map(Member::Field)
            .ok_or_else(|| {
                sub.err(
                    t.span,
                    format!(
                        "{} is not a member of the input element description (SemanticName, \
                         SemanticIndex, Format, InputSlot, AlignedByteOffset, InputSlotClass, \
                         InstanceDataStepRate)",
                        sub.found(t)
                    ),
                )
            })
    })?;
    if !rest
        && let Some(f) = Field::ALL
            .into_iter()
            .find(|f| spans.fields[*f as usize].is_none())
    {
        return Err(p.err(
            element_span,
            format!(
                "missing member {} (Rust needs every member, or `..Default::default()` for the \
                 rest)",
                f.c_name()
            ),
        ));
    }
    Ok((desc, spans))
}

/// A path (and what follows it: a macro call, a constructor, `.0`, `as T`) in a Rust value.
pub(super) fn name_value(p: &mut Parser, first: Token) -> Result<(Value, Span), TextError> {
    let mut segments = vec![p.text(first)];
    let mut span = first.span;
    while p.peek_is("::") && p.peek_at(1).kind == Kind::Ident {
        p.next();
        let t = p.next();
        segments.push(p.text(t));
        span.end = t.span.end;
    }
    let last = segments[segments.len() - 1];
    let written = segments.join("::");
    let mut value = if p.peek_is("!") {
        // A macro: s!("…").
        p.next();
        let open = p.next();
        if !p.is_punct(open, "(") {
            return Err(p.err(open.span, format!("expected `(` after `{written}!`")));
        }
        if last != "s" {
            return Err(p.err(
                span,
                format!(
                    "`{written}!` is not a narrow string macro; SemanticName is a PCSTR: write s!(\"…\")"
                ),
            ));
        }
        let (v, s) = p.strings()?;
        let close = p.next();
        if !p.is_punct(close, ")") {
            return Err(p.err(
                close.span,
                format!("expected `)`, found {}", p.found(close)),
            ));
        }
        span.end = close.span.end;
        let _ = s;
        v
    } else if p.peek_is("(") {
        p.next();
        let v = match last {
            "null" | "null_mut" => Value::Null,
            _ => {
                let (v, _) = p.value(0)?;
                // b"…\0".as_ptr()
                if p.peek_is(".") && p.peek_text(1) == "as_ptr" {
                    p.next();
                    p.next();
                    if p.peek_is("(") && p.peek_punct(1, ")") {
                        p.next();
                        p.next();
                    }
                }
                match (last, v) {
                    ("PCSTR" | "from_raw", Value::Str(s)) => {
                        Value::Str(s.strip_suffix('\0').map(str::to_string).unwrap_or(s))
                    }
                    ("PCSTR" | "from_raw", Value::Null) => Value::Null,
                    (
                        "DXGI_FORMAT"
                        | "D3D10_INPUT_CLASSIFICATION"
                        | "D3D11_INPUT_CLASSIFICATION"
                        | "D3D12_INPUT_CLASSIFICATION",
                        v @ Value::Int(_),
                    ) => v,
                    _ => {
                        return Err(p.err(
                            span,
                            format!("inlay cannot evaluate `{written}(…)`; write the value"),
                        ));
                    }
                }
            }
        };
        let close = p.next();
        if !p.is_punct(close, ")") {
            return Err(p.err(
                close.span,
                format!("expected `)`, found {}", p.found(close)),
            ));
        }
        span.end = close.span.end;
        v
    } else {
        let owner = segments.len().checked_sub(2).map(|i| segments[i]);
        match (owner, last) {
            (Some("u32"), "MAX") => Value::Int(u32::MAX as i128),
            _ => resolve_name(last).ok_or_else(|| {
                let message = if last.starts_with("DXGI_FORMAT_") {
                    format!("unknown DXGI format `{written}`")
                } else {
                    format!(
                        "unknown name `{written}`: inlay knows DXGI_FORMAT_*, \
                         D3D1x_INPUT_PER_VERTEX_DATA, D3D1x_INPUT_PER_INSTANCE_DATA, \
                         D3D1x_APPEND_ALIGNED_ELEMENT, u32::MAX, s!(…), PCSTR(…)"
                    )
                };
                p.err(span, message)
            })?,
        }
    };
    // Postfix `.0` (the newtype's field) and `as u32`.
    loop {
        if p.peek_is(".") && p.peek_text(1) == "0" {
            p.next();
            span.end = p.next().span.end;
        } else if p.peek().kind == Kind::Ident && p.peek_text(0) == "as" {
            p.next();
            span.end = p.next().span.end;
            if let Value::Int(n) = value {
                value = Value::Int(n);
            }
        } else {
            return Ok((value, span));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::element::APPEND_ALIGNED_ELEMENT;
    use crate::format::Format;

    /// windows-rs sample style (a D3D12 pipeline's input layout) and a D3D11 `const` array
    /// with module paths and `..Default::default()`.
    const WINDOWS_RS: &str = r#"use windows::{
    core::*, Win32::Foundation::*, Win32::Graphics::Direct3D::Fxc::*,
    Win32::Graphics::Direct3D12::*, Win32::Graphics::Dxgi::Common::*,
};

fn create_pipeline_state(device: &ID3D12Device, root_signature: &ID3D12RootSignature) -> Result<ID3D12PipelineState> {
    let mut input_element_descs: [D3D12_INPUT_ELEMENT_DESC; 2] = [
        D3D12_INPUT_ELEMENT_DESC {
            SemanticName: s!("POSITION"),
            SemanticIndex: 0,
            Format: DXGI_FORMAT_R32G32B32_FLOAT,
            InputSlot: 0,
            AlignedByteOffset: 0,
            InputSlotClass: D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA,
            InstanceDataStepRate: 0,
        },
        D3D12_INPUT_ELEMENT_DESC {
            SemanticName: s!("COLOR"),
            SemanticIndex: 0,
            Format: DXGI_FORMAT_R32G32B32A32_FLOAT,
            InputSlot: 0,
            AlignedByteOffset: 12,
            InputSlotClass: D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA,
            InstanceDataStepRate: 0,
        },
    ];
    let desc = D3D12_GRAPHICS_PIPELINE_STATE_DESC {
        InputLayout: D3D12_INPUT_LAYOUT_DESC {
            pInputElementDescs: input_element_descs.as_mut_ptr(),
            NumElements: input_element_descs.len() as u32,
        },
        ..Default::default()
    };
    unsafe { device.CreateGraphicsPipelineState(&desc) }
}

const INSTANCED: &'static [Direct3D11::D3D11_INPUT_ELEMENT_DESC] = &[
    Direct3D11::D3D11_INPUT_ELEMENT_DESC {
        SemanticName: windows::core::s!("WORLD"),
        Format: Common::DXGI_FORMAT_R16G16B16A16_FLOAT,
        InputSlot: 1_u32,
        AlignedByteOffset: Direct3D11::D3D11_APPEND_ALIGNED_ELEMENT,
        InputSlotClass: Direct3D11::D3D11_INPUT_PER_INSTANCE_DATA,
        InstanceDataStepRate: 1,
        ..Default::default()
    },
    D3D11_INPUT_ELEMENT_DESC {
        SemanticName: PCSTR(b"BLENDWEIGHT\0".as_ptr()),
        SemanticIndex: 0,
        Format: DXGI_FORMAT(28),
        InputSlot: 0,
        AlignedByteOffset: 0x10,
        InputSlotClass: D3D11_INPUT_CLASSIFICATION(0),
        InstanceDataStepRate: 0,
    },
];
"#;

    #[test]
    fn windows_crate_literals() {
        let names: Vec<_> = arrays(WINDOWS_RS).into_iter().map(|a| a.name).collect();
        assert_eq!(names, ["input_element_descs", "INSTANCED"]);
        let p = parse(WINDOWS_RS, Some("input_element_descs")).unwrap();
        assert_eq!(
            p.elements,
            vec![
                InputElementDesc::per_vertex("POSITION", 0, Format::R32G32B32_FLOAT, 0, 0),
                InputElementDesc::per_vertex("COLOR", 0, Format::R32G32B32A32_FLOAT, 0, 12),
            ]
        );
        assert_eq!(
            &WINDOWS_RS[p.spans[1].field(Field::Semantic).range()],
            "s!(\"COLOR\")"
        );
        assert_eq!(
            super::super::line_col(WINDOWS_RS, p.spans[0].element.start),
            (8, 9)
        );
        let p = parse(WINDOWS_RS, Some("INSTANCED")).unwrap();
        assert_eq!(
            p.elements,
            vec![
                InputElementDesc::per_instance(
                    "WORLD",
                    0,
                    Format::R16G16B16A16_FLOAT,
                    1,
                    APPEND_ALIGNED_ELEMENT,
                    1
                ),
                InputElementDesc::per_vertex("BLENDWEIGHT", 0, Format::R8G8B8A8_UNORM, 0, 16),
            ]
        );
        assert!(
            parse(WINDOWS_RS, None)
                .unwrap_err()
                .message
                .starts_with("2 input element arrays")
        );
    }

    #[test]
    fn errors() {
        let src = "let d = [D3D11_INPUT_ELEMENT_DESC { SemanticName: s!(\"P\"), Format: DXGI_FORMAT_R32_FLOAT }];";
        let e = parse(src, None).unwrap_err();
        assert_eq!(e.column, 10);
        assert_eq!(
            e.message,
            "missing member SemanticIndex (Rust needs every member, or `..Default::default()` for the rest)"
        );
        let src =
            "let d = [D3D11_INPUT_ELEMENT_DESC { SemanticName: w!(\"P\"), ..Default::default() }];";
        let e = parse(src, None).unwrap_err();
        assert_eq!((e.column, e.found.as_str()), (51, "w"));
        let src =
            "let d = [D3D11_INPUT_ELEMENT_DESC { Format: Common::DXGI_FORMAT_NOPE, ..zeroed() }];";
        let e = parse(src, None).unwrap_err();
        assert_eq!(e.found, "Common::DXGI_FORMAT_NOPE");
        assert_eq!(e.message, "unknown DXGI format `Common::DXGI_FORMAT_NOPE`");
    }
}
