//! Input element arrays in C# source, as SharpDX and Vortice programs write them.
//!
//! ```csharp
//! var elements = new[]
//! {
//!     new InputElement("POSITION", 0, Format.R32G32B32_Float, 0, 0),
//!     new InputElement("TEXCOORD", 0, Format.R32G32_Float, InputElement.AppendAligned, 0),
//!     new InputElement("WORLD", 0, Format.R32G32B32A32_Float, 0, 1,
//!                      InputClassification.PerInstanceData, 1),
//! };
//! ```
//!
//! The element constructors of `SharpDX.Direct3D11.InputElement` and
//! `Vortice.Direct3D11.InputElementDescription` (also their D3D12 namesakes) take
//! `(name, index, format, slot)` — the offset is then `AppendAligned` —,
//! `(name, index, format, offset, slot)` or
//! `(name, index, format, offset, slot, slotClass, stepRate)`; a missing class is
//! `PerVertexData` and a missing step rate 0, as those constructors set them. Named arguments
//! (`slot: 1`) and object initializers (`new InputElement { SemanticName = "POSITION", … }`,
//! fields `SemanticName`, `SemanticIndex`, `Format`, `Slot`, `AlignedByteOffset`,
//! `Classification`, `InstanceDataStepRate`; unset fields 0 as in a C# struct) are read too.
//!
//! Values: integer literals (`u`/`U`/`L` suffixes), `Format.*` in either binding's spelling
//! (`R32G32B32_Float`, `R8G8B8A8_UNorm_SRgb`, `R32G32B32Float`: matched to the DXGI name
//! ignoring case and underscores), `InputClassification.PerVertexData` / `PerInstanceData`,
//! `InputElement.AppendAligned` / `InputElementDescription.AppendAligned` (−1, i.e.
//! 0xFFFFFFFF), `null`, casts such as `(int)`, and the C operators of [`super::c`].
//!
//! An array is each brace or bracket group holding element constructors (`new[] { … }`,
//! `new InputElement[] { … }`, a collection initializer or a C# 12 collection expression); it
//! is named after the variable, field or property it is assigned to.

use crate::element::APPEND_ALIGNED_ELEMENT;
use crate::format::{FORMATS, Format};

use super::c::{ArrayInfo, Candidate, Groups, LiteralArrays};
use super::lex::{Dialect, Kind, Token};
use super::parser::{Member, Parser, Value, zero_element};
use super::{ElementSpans, Field, ParsedLayout, Span, TextError};

/// The element types read (their last name segment).
pub const ELEMENT_TYPES: [&str; 2] = ["InputElement", "InputElementDescription"];

/// C#'s arrays: groups of element constructors and object initializers.
const ARRAYS: LiteralArrays = LiteralArrays {
    scan,
    what: "array of `new InputElement(…)` or `new InputElementDescription(…)` elements",
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
    let mut p = Parser::new(source, Dialect::CSharp);
    let mut groups = Groups::default();
    let mut binding: Option<(String, Span)> = None;
    let mut last_ident: Option<Token> = None;
    loop {
        let t = p.next();
        let ident = t.kind == Kind::Ident;
        match t.kind {
            Kind::Eof => break,
            Kind::Ident if p.text(t) == "new" => {
                if let Some(ty) = element_type_after_new(&mut p) {
                    let r = element(&mut p, t);
                    groups.add(&p, ty, r);
                }
            }
            Kind::Punct => match p.text(t) {
                "{" | "[" | "(" => groups.open(binding.clone()),
                close @ ("}" | "]" | ")") => {
                    groups.close(&p);
                    if close == "}" {
                        binding = None;
                    }
                }
                "=" => {
                    let next = p.peek();
                    let assign = !(p.is_punct(next, "=") && next.span.start == t.span.end);
                    if let Some(n) = last_ident.filter(|_| assign) {
                        binding = Some((p.text(n).to_string(), n.span));
                    }
                }
                ";" => binding = None,
                _ => {}
            },
            _ => {}
        }
        last_ident = if ident { Some(t) } else { None };
    }
    groups.finish(&p)
}

/// After `new`: when an element type follows (possibly qualified, then `(` or `{`), consumes
/// it and returns its name.
fn element_type_after_new(p: &mut Parser) -> Option<&'static str> {
    let mut k = 0;
    loop {
        let t = p.peek_at(k);
        if t.kind != Kind::Ident {
            return None;
        }
        let next = p.peek_at(k + 1);
        if p.is_punct(next, ".") {
            k += 2;
            continue;
        }
        let ty = ELEMENT_TYPES.iter().find(|n| **n == p.text(t))?;
        if !(p.is_punct(next, "(") || p.is_punct(next, "{")) {
            return None;
        }
        for _ in 0..=k {
            p.next();
        }
        return Some(ty);
    }
}

/// The constructor call or object initializer after `new TYPE`, read as a whole (balanced)
/// and then parsed, so that an error inside stays inside.
fn element(
    p: &mut Parser,
    new: Token,
) -> Result<(crate::element::InputElementDesc, ElementSpans), TextError> {
    let mut tokens = Vec::new();
    let has_args = p.peek_is("(");
    let mut end = p.group(&mut tokens)?;
    let has_init = if !has_args {
        true
    } else if p.peek_is("{") {
        end = p.group(&mut tokens)?;
        true
    } else {
        false
    };
    let element_span = Span::new(new.span.start, end);
    let mut sub = p.over(tokens, end);
    let mut desc = zero_element();
    let mut spans = ElementSpans {
        element: element_span,
        fields: [None; 7],
    };
    if has_args {
        let open = sub.next();
        let mut positional: Vec<(Value, Span)> = Vec::new();
        let mut named: Vec<(Field, Value, Span)> = Vec::new();
        if sub.peek_is(")") {
            sub.next();
        } else {
            loop {
                let t = sub.peek();
                let name = if t.kind == Kind::Ident && sub.peek_punct(1, ":") {
                    sub.next();
                    sub.next();
                    Some(parameter(&sub, t)?)
                } else {
                    None
                };
                let (v, s) = sub.value(0)?;
                match name {
                    Some(f) => named.push((f, v, s)),
                    None if !named.is_empty() => {
                        return Err(
                            sub.err(s, "a positional argument cannot follow named arguments")
                        );
                    }
                    None => positional.push((v, s)),
                }
                if !sub.list_next(")", " in the constructor call")? {
                    sub.next();
                    break;
                }
            }
        }
        let _ = open;
        let order: &[Field] = match positional.len() + named.len() {
            4 => &[Field::Semantic, Field::Index, Field::Format, Field::Slot],
            5 => &[
                Field::Semantic,
                Field::Index,
                Field::Format,
                Field::Offset,
                Field::Slot,
            ],
            7 => &[
                Field::Semantic,
                Field::Index,
                Field::Format,
                Field::Offset,
                Field::Slot,
                Field::Class,
                Field::StepRate,
            ],
            n => {
                return Err(p.err(
                    element_span,
                    format!(
                        "the element constructors take 4, 5 or 7 arguments \
                         (name, index, format[, offset], slot[, slotClass, stepRate]), given {n}"
                    ),
                ));
            }
        };
        if order.len() == 4 {
            desc.aligned_byte_offset = APPEND_ALIGNED_ELEMENT;
        }
        let mut assigned = Vec::new();
        for ((v, s), f) in positional.into_iter().zip(order) {
            sub.assign(&mut desc, *f, v, s)?;
            spans.fields[*f as usize] = Some(s);
            assigned.push(*f);
        }
        for (f, v, s) in named {
            if assigned.contains(&f) || !order.contains(&f) {
                return Err(sub.err(
                    s,
                    format!(
                        "{} is given twice, or is not a parameter of this constructor",
                        f.c_name()
                    ),
                ));
            }
            sub.assign(&mut desc, f, v, s)?;
            spans.fields[f as usize] = Some(s);
            assigned.push(f);
        }
    }
    if has_init {
        sub.next(); // `{`
        sub.members("=", &mut desc, &mut spans, |sub, t| {
            if t.kind == Kind::Ident {
                member(sub, t).map(Member::Field)
            } else {
                Err(sub.err(
                    t.span,
                    format!("expected a member name or `}}`, found {}", sub.found(t)),
                ))
            }
        })?;
    }
    Ok((desc, spans))
}

/// A constructor parameter name (SharpDX's and Vortice's spellings).
fn parameter(p: &Parser, t: Token) -> Result<Field, TextError> {
    Ok(match p.text(t) {
        "name" | "semanticName" => Field::Semantic,
        "index" | "semanticIndex" => Field::Index,
        "format" => Field::Format,
        "offset" | "alignedByteOffset" => Field::Offset,
        "slot" | "inputSlot" => Field::Slot,
        "slotClass" | "inputSlotClass" | "classification" => Field::Class,
        "stepRate" | "instanceDataStepRate" => Field::StepRate,
        other => {
            return Err(p.err(
                t.span,
                format!(
                    "`{other}` is not a parameter of the element constructors (name, index, \
                     format, offset, slot, slotClass, stepRate)"
                ),
            ));
        }
    })
}

/// A struct member name of `InputElement` / `InputElementDescription`.
fn member(p: &Parser, t: Token) -> Result<Field, TextError> {
    Ok(match p.text(t) {
        "SemanticName" => Field::Semantic,
        "SemanticIndex" => Field::Index,
        "Format" => Field::Format,
        "Slot" | "InputSlot" => Field::Slot,
        "AlignedByteOffset" => Field::Offset,
        "Classification" | "InputSlotClass" => Field::Class,
        "InstanceDataStepRate" => Field::StepRate,
        other => {
            return Err(p.err(
                t.span,
                format!(
                    "`{other}` is not a member of the element (SemanticName, SemanticIndex, \
                     Format, Slot, AlignedByteOffset, Classification, InstanceDataStepRate)"
                ),
            ));
        }
    })
}

/// The format whose DXGI name equals `name` ignoring case and underscores.
pub fn format_by_binding_name(name: &str) -> Option<Format> {
    let key: String = name
        .chars()
        .filter(|c| *c != '_')
        .map(|c| c.to_ascii_uppercase())
        .collect();
    FORMATS
        .iter()
        .find(|f| f.name.len() >= key.len() && f.name.chars().filter(|c| *c != '_').eq(key.chars()))
        .map(|f| Format(f.value))
}

/// A (dotted) name in a C# value.
pub(super) fn name_value(p: &mut Parser, first: Token) -> Result<(Value, Span), TextError> {
    let mut segments = vec![p.text(first)];
    let mut span = first.span;
    while p.peek_is(".") && p.peek_at(1).kind == Kind::Ident {
        p.next();
        let t = p.next();
        segments.push(p.text(t));
        span.end = t.span.end;
    }
    let last = segments[segments.len() - 1];
    let owner = segments.len().checked_sub(2).map(|i| segments[i]);
    let value = match (owner, last) {
        (None, "null") => Some(Value::Null),
        (Some("Format"), f) => format_by_binding_name(f).map(|f| Value::Int(f.0 as i128)),
        (Some("InputClassification"), "PerVertexData") => Some(Value::Int(0)),
        (Some("InputClassification"), "PerInstanceData") => Some(Value::Int(1)),
        (Some("InputElement" | "InputElementDescription"), "AppendAligned") => Some(Value::Int(-1)),
        (Some("uint"), "MaxValue") => Some(Value::Int(u32::MAX as i128)),
        _ => None,
    };
    value.map(|v| (v, span)).ok_or_else(|| {
        let written = segments.join(".");
        let message = if owner == Some("Format") {
            format!("unknown DXGI format `{written}`")
        } else {
            format!(
                "unknown name `{written}`: inlay knows Format.*, InputClassification.PerVertexData, \
                 InputClassification.PerInstanceData, InputElement.AppendAligned, null"
            )
        };
        p.err(span, message)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::element::InputElementDesc;

    /// SharpDX sample style: a vertex shader signature and an inline `new[]` inside the
    /// `InputLayout` constructor, plus a per-instance buffer.
    const SHARPDX: &str = r#"using SharpDX;
using SharpDX.Direct3D11;
using SharpDX.DXGI;

namespace MiniCubeInstanced
{
    internal static class Program
    {
        private static void Main()
        {
            var vertexShaderByteCode = ShaderBytecode.CompileFromFile("MiniCube.fx", "VS", "vs_4_0");
            var vertexShader = new VertexShader(device, vertexShaderByteCode);

            // Layout from VertexShader input signature
            var layout = new InputLayout(device, ShaderSignature.GetInputSignature(vertexShaderByteCode), new[]
                    {
                        new InputElement("POSITION", 0, Format.R32G32B32A32_Float, 0, 0),
                        new InputElement("COLOR", 0, Format.R32G32B32A32_Float, 16, 0),
                        new InputElement("WORLD", 0, Format.R32G32B32A32_Float, 0, 1, InputClassification.PerInstanceData, 1),
                        new InputElement("TEXCOORD", 0, Format.R8G8B8A8_UNorm_SRgb, 1),
                    });
        }
    }
}
"#;

    #[test]
    fn sharpdx_inline_array() {
        let p = parse(SHARPDX, None).unwrap();
        assert_eq!(p.name.as_deref(), Some("layout"));
        assert_eq!(
            p.elements,
            vec![
                InputElementDesc::per_vertex("POSITION", 0, Format::R32G32B32A32_FLOAT, 0, 0),
                InputElementDesc::per_vertex("COLOR", 0, Format::R32G32B32A32_FLOAT, 0, 16),
                InputElementDesc::per_instance("WORLD", 0, Format::R32G32B32A32_FLOAT, 1, 0, 1),
                InputElementDesc::per_vertex(
                    "TEXCOORD",
                    0,
                    Format::R8G8B8A8_UNORM_SRGB,
                    1,
                    APPEND_ALIGNED_ELEMENT
                ),
            ]
        );
        let s = p.spans[2];
        assert_eq!(
            &SHARPDX[s.field(Field::Class).range()],
            "InputClassification.PerInstanceData"
        );
        assert!(SHARPDX[s.element.range()].starts_with("new InputElement(\"WORLD\""));
        assert_eq!(super::super::line_col(SHARPDX, s.element.start), (19, 25));
    }

    /// Vortice style: a static readonly field with the `InputElementDescription` type,
    /// Vortice's format spelling and named arguments.
    #[test]
    fn vortice_fields_and_object_initializers() {
        let src = r#"using Vortice.Direct3D11;
using Vortice.DXGI;

public readonly struct VertexPositionNormal
{
    public static readonly InputElementDescription[] InputElements = new InputElementDescription[]
    {
        new InputElementDescription("POSITION", 0, Format.R32G32B32_Float, 0, 0),
        new InputElementDescription("NORMAL", 0, Format.R32G32B32Float, 12, 0),
        new InputElementDescription("INSTANCE", 0, Format.R32_UInt, offset: 0, slot: 1,
            slotClass: InputClassification.PerInstanceData, stepRate: 2),
    };

    public static InputElement[] Other => new[] {
        new InputElement { SemanticName = "BLENDINDICES", Format = Format.R8G8B8A8_UInt, AlignedByteOffset = InputElement.AppendAligned },
    };
}
"#;
        let names: Vec<_> = arrays(src).into_iter().map(|a| a.name).collect();
        assert_eq!(names, ["InputElements", "Other"]);
        let p = parse(src, Some("InputElements")).unwrap();
        assert_eq!(
            p.elements,
            vec![
                InputElementDesc::per_vertex("POSITION", 0, Format::R32G32B32_FLOAT, 0, 0),
                InputElementDesc::per_vertex("NORMAL", 0, Format::R32G32B32_FLOAT, 0, 12),
                InputElementDesc::per_instance("INSTANCE", 0, Format::R32_UINT, 1, 0, 2),
            ]
        );
        let p = parse(src, Some("Other")).unwrap();
        assert_eq!(
            p.elements,
            vec![InputElementDesc::per_vertex(
                "BLENDINDICES",
                0,
                Format::R8G8B8A8_UINT,
                0,
                APPEND_ALIGNED_ELEMENT
            )]
        );
    }

    #[test]
    fn errors_point_at_the_value() {
        let src =
            "var e = new[] {\n  new InputElement(\"P\", 0, Format.R32G32B32_Flaot, 0, 0),\n};";
        let e = parse(src, None).unwrap_err();
        assert_eq!(
            (e.line, e.column, e.found.as_str()),
            (2, 28, "Format.R32G32B32_Flaot")
        );
        assert_eq!(e.message, "unknown DXGI format `Format.R32G32B32_Flaot`");
        let e = parse("var e = new[] { new InputElement(\"P\", 0) };", None).unwrap_err();
        assert_eq!(e.column, 17);
        assert!(e.message.contains("given 2"), "{}", e.message);
        assert!(
            parse("class A {}", None)
                .unwrap_err()
                .message
                .starts_with("no array of")
        );
    }

    #[test]
    fn binding_spellings_are_unique() {
        // Stripping underscores and case never makes two DXGI names equal, so the match is
        // exact for both bindings' spellings.
        let mut keys: Vec<String> = FORMATS.iter().map(|f| f.name.replace('_', "")).collect();
        let n = keys.len();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), n);
        assert_eq!(
            format_by_binding_name("R11G11B10_Float"),
            Some(Format::R11G11B10_FLOAT)
        );
        assert_eq!(
            format_by_binding_name("B8G8R8A8UNormSRgb"),
            Some(Format(91))
        );
        assert_eq!(format_by_binding_name("R32G32"), None);
    }
}
