//! Property tests for the layout text parsers and the conformance case reader (issue "bad
//! input never hurts"): arbitrary text and damaged copies of real files never panic; every
//! error is a value whose line and column agree with its byte offset; every layout has one
//! in-bounds span per element. The cargo-fuzz targets `layout_c`, `layout_json`,
//! `layout_toml` and `conform_case` explore the same properties for millions of inputs; the
//! crashes they found are pinned at the end of this file.

use std::path::Path;

use inlay::text::{self, ParsedLayout, Syntax, TextError, c, json, line_col, toml};
use proptest::prelude::*;

const SEED_C: &str = "const D3D11_INPUT_ELEMENT_DESC vertexDesc[] = { { \"POSITION\", 0, \
    DXGI_FORMAT_R32G32B32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0 }, { \"COLOR\", 0, \
    DXGI_FORMAT_R32G32B32_FLOAT, 0, 12, D3D11_INPUT_PER_VERTEX_DATA, 0 }, };\n\
    // a second array\nstatic D3D10_INPUT_ELEMENT_DESC other[2] = {\n  {\"TEXCOORD\", 1, \
    DXGI_FORMAT_R16G16_FLOAT, 0x1, D3D10_APPEND_ALIGNED_ELEMENT, D3D10_INPUT_PER_INSTANCE_DATA, 1},\n\
    /* comment */ {\"N\", 0, DXGI_FORMAT_R8G8B8A8_UNORM, 0, 0, D3D10_INPUT_PER_VERTEX_DATA, 0 } };\n";

const SEED_JSON: &str = r#"{
  "elements": [
    {"semantic": "POSITION", "index": 0, "format": "R32G32B32_FLOAT", "slot": 0, "offset": 0, "class": "vertex", "step_rate": 0},
    {"semantic": "COLOR", "index": 0, "format": "R32G32B32_FLOAT", "slot": 0, "offset": "append", "class": "vertex", "step_rate": 0}
  ]
}"#;

const SEED_JSON_SIGNATURE: &str = r#"{"signature": [
  {"semantic": "POSITION", "index": 0, "register": 0, "mask": "xyz", "used": "xyz", "type": "float", "sv": "NONE"},
  {"semantic": "COLOR", "index": 0, "register": 1, "mask": "xyz", "used": "xyz", "type": "float", "sv": "NONE"}
]}"#;

const SEED_TOML: &str = "# The seed layout in TOML.\n[[elements]]\nsemantic = \"POSITION\"\n\
    format = \"R32G32B32_FLOAT\"\noffset = 0\n\n[[elements]]\nsemantic = \"COLOR\"\n\
    format = \"R32G32B32_FLOAT\"\noffset = \"append\"\n";

/// What must hold of any parser answer on `source`.
fn check(source: &str, r: &Result<ParsedLayout, TextError>) {
    match r {
        Err(e) => check_error(source, e),
        Ok(l) => {
            assert_eq!(l.elements.len(), l.spans.len());
            for s in &l.spans {
                assert!(s.element.start <= s.element.end && s.element.end <= source.len());
                for f in s.fields.iter().flatten() {
                    assert!(f.start <= f.end && f.end <= source.len());
                }
            }
        }
    }
}

fn check_error(source: &str, e: &TextError) {
    assert!(e.offset <= source.len(), "{e:?}");
    assert_eq!(line_col(source, e.offset), (e.line, e.column), "{e:?}");
    assert!(!e.to_string().is_empty());
    assert!(e.found.chars().count() <= text::MAX_EXCERPT_CHARS + 1);
}

fn parse_everything(source: &str) {
    check(source, &c::parse(source, None));
    for a in c::arrays(source).iter().take(4) {
        assert_eq!(&source[a.name_span.range()], a.name);
        check(source, &c::parse(source, Some(&a.name)));
    }
    check(source, &json::parse_layout(source));
    check(source, &toml::parse_layout(source));
    if let Err(e) = json::parse_signature(source) {
        check_error(source, &e);
    }
    if let Err(e) = toml::parse_signature(source) {
        check_error(source, &e);
    }
    for name in ["a.h", "a.json", "a.toml", "a"] {
        let syntax = Syntax::detect(name, source);
        check(source, &text::parse_layout(source, syntax, None));
    }
    if let Err(e) = inlay_conform::parse_text(Path::new("case.json"), source) {
        assert!(e.line >= 1 && e.column >= 1);
    }
}

/// `seed` with a few bytes replaced, inserted or removed at char boundaries (tokens the
/// parsers care about are favoured).
fn damaged(seed: &'static str) -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "",
        "{",
        "}",
        "[",
        "]",
        "\"",
        ",",
        "0x",
        "-",
        "999999999999999999999",
        "\n",
        "/*",
        "//",
        "\u{feff}",
        "é",
        "\u{10ffff}",
        "\0",
        "DXGI_FORMAT_",
        "D3D11_",
        "append",
        "=",
        "'",
    ]);
    prop::collection::vec((any::<prop::sample::Index>(), 0usize..4, pieces), 1..5).prop_map(
        move |edits| {
            let mut s = seed.to_string();
            for (at, cut, piece) in edits {
                let mut i = at.index(s.len() + 1);
                while !s.is_char_boundary(i) {
                    i -= 1;
                }
                let mut j = (i + cut).min(s.len());
                while !s.is_char_boundary(j) {
                    j += 1;
                }
                s.replace_range(i..j, piece);
            }
            s
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_text_never_panics(source in any::<String>()) {
        parse_everything(&source);
    }

    #[test]
    fn damaged_c_never_panics(source in damaged(SEED_C)) {
        parse_everything(&source);
    }

    #[test]
    fn damaged_json_never_panics(source in damaged(SEED_JSON)) {
        parse_everything(&source);
    }

    #[test]
    fn damaged_json_signatures_never_panic(source in damaged(SEED_JSON_SIGNATURE)) {
        parse_everything(&source);
    }

    #[test]
    fn damaged_toml_never_panics(source in damaged(SEED_TOML)) {
        parse_everything(&source);
    }
}

#[test]
fn the_seeds_parse() {
    let l = c::parse(SEED_C, Some("vertexDesc")).unwrap();
    assert_eq!(l.elements.len(), 2);
    assert_eq!(c::parse(SEED_C, Some("other")).unwrap().elements.len(), 2);
    assert_eq!(json::parse_layout(SEED_JSON).unwrap().elements.len(), 2);
    assert_eq!(toml::parse_layout(SEED_TOML).unwrap().elements.len(), 2);
    assert_eq!(
        json::parse_signature(SEED_JSON_SIGNATURE)
            .unwrap()
            .elements
            .len(),
        2
    );
}

/// Fuzz finding (`layout_json`): serde_json reports columns in bytes, and an error inside a
/// multi-byte character made the error-span code slice the text inside that character.
#[test]
fn json_error_inside_a_multibyte_character_is_a_value() {
    let source = "{\"{.s\u{feff}";
    let e = json::parse_layout(source).unwrap_err();
    check_error(source, &e);
    assert_eq!((e.line, e.column), (1, 6));
    let e = json::parse_signature(source).unwrap_err();
    check_error(source, &e);
}
