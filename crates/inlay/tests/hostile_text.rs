//! Issue 18 regressions in the text readers: positions found incrementally (item 3), and
//! inputs that used to be accepted silently or described wrongly (item 8).

use inlay::text::{LineCursor, c, json, line_col, toml};

mod text_support;
use text_support::arrays;

/// Item 3: 100 000 arrays took 242 s, because each array's line was counted from the start of
/// the file (quadratic). The speed is a benchmark (`cargo bench -p inlay --bench text`, a
/// paired ratio), not a timed test; this test checks that every one of 50 000 arrays is
/// listed on its own line and that an array deep in the file is chosen by name.
#[test]
fn many_arrays_are_listed_on_their_lines() {
    let n = 50_000;
    let large = arrays(n);
    let list = c::arrays(&large);
    assert_eq!(list.len(), n);
    for (i, array) in list.iter().enumerate().step_by(997) {
        assert_eq!(array.line, i + 1, "array {i}");
    }
    assert_eq!(list[n - 1].line, n);
    let p = c::parse(&large, Some("a49999")).unwrap();
    assert_eq!(p.elements.len(), 1);
    assert_eq!(p.elements[0].semantic_name.as_deref(), Some("P"));
}

#[test]
fn line_cursor_agrees_with_line_col_in_any_order() {
    let src = "ab\ncdé\n\nfgh\r\nij";
    let cursor = LineCursor::new(src);
    let mut offsets: Vec<usize> = (0..=src.len() + 2).collect();
    // Forward, backward, and a jumbled order.
    let jumbled: Vec<usize> = offsets.iter().map(|o| (o * 7) % (src.len() + 3)).collect();
    for &o in offsets
        .iter()
        .chain(offsets.clone().iter().rev())
        .chain(&jumbled)
    {
        assert_eq!(cursor.line_col(o), line_col(src, o), "offset {o}");
    }
    offsets.clear();
}

/// Item 8: an array without a declared size was said to exceed "the array's declared size
/// 4096".
#[test]
fn element_limit_messages_say_what_limit() {
    let mut undeclared = String::from("D3D11_INPUT_ELEMENT_DESC d[] = {");
    let mut declared = String::from("D3D11_INPUT_ELEMENT_DESC d[2] = {");
    for _ in 0..4097 {
        undeclared.push_str("{\"P\",0,DXGI_FORMAT_R32_FLOAT},");
    }
    for _ in 0..3 {
        declared.push_str("{\"P\",0,DXGI_FORMAT_R32_FLOAT},");
    }
    undeclared.push_str("};");
    declared.push_str("};");
    assert_eq!(
        c::parse(&undeclared, None).unwrap_err().message,
        "more than 4096 elements in one array: inlay reads at most 4096 (CreateInputLayout \
         accepts at most 32)"
    );
    assert_eq!(
        c::parse(&declared, None).unwrap_err().message,
        "more elements than the array's declared size 2"
    );
}

/// Item 8: `"PO\u0000S"` was written as `PO`.
#[test]
fn signature_semantic_with_nul_is_an_error() {
    let e = json::parse_signature(r#"[{"semantic": "PO\u0000S", "register": 0, "mask": "xyzw"}]"#)
        .unwrap_err();
    assert!(
        e.message.starts_with(
            "semantic name \"PO\\0S\" contains a NUL character; names are NUL-terminated C \
             strings, so it would be read as \"PO\""
        ),
        "{}",
        e.message
    );
    assert_eq!((e.line, e.column), (1, 15));
    let e = toml::parse_signature(
        "[[signature]]\nsemantic = \"PO\\u0000S\"\nregister = 0\nmask = \"xyzw\"\n",
    )
    .unwrap_err();
    assert!(
        e.message.contains("contains a NUL character"),
        "{}",
        e.message
    );
    assert_eq!(e.line, 2);
}

/// Item 8: `used` bits outside `mask` were accepted.
#[test]
fn used_outside_mask_is_an_error() {
    let src = r#"[
  {"semantic": "POSITION", "register": 0, "mask": "xyzw"},
  {"semantic": "TEXCOORD", "index": 1, "register": 1, "mask": "xy", "used": "xyzw"}
]"#;
    let e = json::parse_signature(src).unwrap_err();
    assert_eq!(
        e.message,
        "signature element 1 (TEXCOORD1): used \"xyzw\" names components zw outside mask \
         \"xy\"; a shader reads only components it declares"
    );
    assert_eq!((e.line, e.column), (3, 3));
    let e = toml::parse_signature(
        "[[signature]]\nsemantic = \"A\"\nregister = 0\nmask = \"x\"\n\n[[signature]]\n\
         semantic = \"B\"\nregister = 1\nmask = \"xz\"\nused = \"y\"\n",
    )
    .unwrap_err();
    assert_eq!(
        e.message,
        "signature element 1 (B0): used \"y\" names component y outside mask \"xz\"; a shader \
         reads only components it declares"
    );
    assert_eq!((e.line, e.column), (6, 1));
    // A subset (or nothing) is fine.
    let ok = r#"[{"semantic": "A", "register": 0, "mask": "xyz", "used": "xz"},
                 {"semantic": "B", "register": 1, "mask": "xy", "used": ""}]"#;
    assert_eq!(json::parse_signature(ok).unwrap().elements.len(), 2);
}

/// Item 8: `sv` numbers that no `D3D_NAME` has were accepted.
#[test]
fn unknown_system_value_numbers_are_errors() {
    let e = json::parse_signature(r#"[{"semantic": "A", "register": 0, "mask": "x", "sv": 42}]"#)
        .unwrap_err();
    assert_eq!(
        e.message,
        "sv 42 is no D3D_NAME value (0 to 16, 23 to 25 or 64 to 70; names such as \"NONE\" or \
         \"VERTEX_ID\" also work)"
    );
    for ok in [0, 6, 16, 23, 25, 64, 70] {
        let src = format!(r#"[{{"semantic": "A", "register": 0, "mask": "x", "sv": {ok}}}]"#);
        let s = json::parse_signature(&src).unwrap();
        assert_eq!(s.elements[0].system_value.0, ok);
    }
    for bad in [17, 19, 20, 22, 26, 63, 71, 4_294_967_295u32] {
        let src = format!(r#"[{{"semantic": "A", "register": 0, "mask": "x", "sv": {bad}}}]"#);
        assert!(json::parse_signature(&src).is_err(), "{bad}");
    }
}

/// Issue 34 item 9: a NUL in an element's semantic name was refused by `signature` but not by
/// layouts (JSON `"P\u0000S"` printed as `P0` in `map`). Every reader of names refuses it now
/// with one message, at the name: the JSON/TOML ELEMENT records (so Python's `Layout` too),
/// the C, C# and Rust parsers (a Rust literal's conventional trailing NUL aside) and the
/// capture readers.
#[test]
fn semantic_names_with_nul_are_refused_by_every_reader() {
    use inlay::text::{csharp, rust};
    let msg = "semantic name \"P\\0S\" contains a NUL character; names are NUL-terminated C \
               strings, so it would be read as \"P\"";
    let e = json::parse_layout(
        r#"{"elements": [{"semantic": "P\u0000S", "format": "R32_FLOAT", "offset": 0}]}"#,
    )
    .unwrap_err();
    assert!(e.message.starts_with(msg), "{}", e.message);
    assert_eq!(e.line, 1);
    let e = toml::parse_layout(
        "[[elements]]\nsemantic = \"P\\u0000S\"\nformat = \"R32_FLOAT\"\noffset = 0\n",
    )
    .unwrap_err();
    assert!(e.message.contains(msg), "{}", e.message);
    assert_eq!(e.line, 2);
    let src = "D3D11_INPUT_ELEMENT_DESC d[] = {\n  { \"P\\0S\", 0, DXGI_FORMAT_R32_FLOAT, 0, 0, \
               D3D11_INPUT_PER_VERTEX_DATA, 0 },\n};";
    let e = c::parse(src, None).unwrap_err();
    assert_eq!(e.message, msg);
    assert_eq!(&src[e.offset..e.offset + 7], "\"P\\0S\",");
    let e = csharp::parse(
        "var d = new[] {\n  new InputElement(\"P\\0S\", 0, Format.R32_Float, 0, 0),\n};",
        None,
    )
    .unwrap_err();
    assert_eq!((e.message.as_str(), e.line), (msg, 2));
    let rust_src = |name: &str| {
        format!(
            "let d = [D3D11_INPUT_ELEMENT_DESC {{\n SemanticName: {name},\n SemanticIndex: 0,\n \
             Format: DXGI_FORMAT_R32_FLOAT,\n InputSlot: 0,\n AlignedByteOffset: 0,\n \
             InputSlotClass: D3D11_INPUT_PER_VERTEX_DATA,\n InstanceDataStepRate: 0 }}];"
        )
    };
    let e = rust::parse(&rust_src("PCSTR(b\"P\\0S\\0\".as_ptr())"), None).unwrap_err();
    assert_eq!((e.message.as_str(), e.line), (msg, 2));
    // The literal's trailing NUL is how a PCSTR is written: not part of the name.
    let ok = rust::parse(&rust_src("PCSTR(b\"POSITION\\0\".as_ptr())"), None).unwrap();
    assert_eq!(ok.elements[0].semantic_name.as_deref(), Some("POSITION"));
}

/// Issue 34 item 9, the capture readers: a 3DMigoto buffer dump and a RenderDoc CSV header.
#[cfg(feature = "capture")]
#[test]
fn captured_semantic_names_with_nul_are_refused() {
    use inlay::capture::{csv as rd_csv, migoto};
    let msg = "semantic name \"P\\0S\" contains a NUL character; names are NUL-terminated C \
               strings, so it would be read as \"P\"";
    let txt = b"stride: 4\nfirst vertex: 0\nvertex count: 1\ntopology: pointlist\n\
element[0]:\n  SemanticName: P\0S\n  SemanticIndex: 0\n  Format: R32_FLOAT\n  InputSlot: 0\n  \
AlignedByteOffset: 0\n  InputSlotClass: per-vertex\n  InstanceDataStepRate: 0\n";
    let e = migoto::parse_vb_txt("d-vb0=1.txt", txt, false).unwrap_err();
    assert!(e.to_string().contains(msg), "{e}");
    assert_eq!(e.line, Some(6));
    let e = rd_csv::parse("m.csv", b"VTX, IDX, P\0S.x\n0, 0, 1.0\n").unwrap_err();
    assert!(e.to_string().contains(msg), "{e}");
}
