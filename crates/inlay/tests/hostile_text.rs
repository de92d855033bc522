//! Issue 18 regressions in the text readers: positions found incrementally (item 3), and
//! inputs that used to be accepted silently or described wrongly (item 8).

use std::time::Instant;

use inlay::text::{LineCursor, c, json, line_col, toml};

/// `n` small arrays, one per line.
fn arrays(n: usize) -> String {
    let mut s = String::with_capacity(n * 100);
    for i in 0..n {
        s.push_str(&format!(
            "D3D11_INPUT_ELEMENT_DESC a{i}[] = {{ {{ \"P\", 0, DXGI_FORMAT_R32_FLOAT, 0, 0, \
             D3D11_INPUT_PER_VERTEX_DATA, 0 }} }};\n"
        ));
    }
    s
}

/// Item 3: 100 000 arrays took 242 s, because each array's line was counted from the start of
/// the file (quadratic). The check is a ratio measured in this run, not a fixed time: ten
/// times the arrays must cost at most ~30 times the time (linear work gives ~10, the old
/// quadratic work ~100). The best of two runs of each size keeps noise out.
#[test]
fn many_arrays_cost_linear_time() {
    let (n_small, n_large) = (5_000, 50_000);
    let small = arrays(n_small);
    let large = arrays(n_large);
    let best = |src: &str, n: usize| {
        (0..2)
            .map(|_| {
                let t = Instant::now();
                let list = c::arrays(src);
                let e = t.elapsed();
                // The listed lines are right (array i is on line i + 1).
                assert_eq!(list.len(), n);
                assert_eq!(list[n - 1].line, n);
                e
            })
            .min()
            .unwrap()
    };
    let (ts, tl) = (best(&small, n_small), best(&large, n_large));
    let ratio = tl.as_secs_f64() / ts.as_secs_f64().max(1e-6);
    assert!(
        ratio < 30.0,
        "10× the arrays took {ratio:.1}× the time ({ts:?} vs {tl:?})"
    );
    // Errors in arrays that are not chosen are positioned incrementally too.
    let p = c::parse(&large, Some("a4999")).unwrap();
    assert_eq!(p.elements.len(), 1);
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
            "semantic \"PO\\0S\" contains a NUL character; DXBC stores semantic names as \
             NUL-terminated strings, so it would be written as \"PO\""
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
