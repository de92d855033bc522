//! `inlay decode` never reads zeros silently (issue 17): every way a draw reads data that is
//! not there gives its warning — the debug layer's id and name where it has one, inlay's own
//! otherwise — with the exit status, and a draw of nothing but zeros past the bound is
//! refused.

mod common;

use common::{inlay, snapshot};

/// Runs a case, checks its exit status and snapshot, and returns stderr.
fn case(name: &str, args: &[&str], code: i32) -> String {
    let r = inlay(args);
    assert_eq!(r.code, code, "{}", r.transcript);
    snapshot(name, &r.transcript);
    r.stderr
}

#[test]
fn slot_without_buffer() {
    // A `--vb 3=` typo: the layout reads slot 1.
    let e = case(
        "decode-warn-vb-not-set",
        &[
            "decode",
            "layouts.h",
            "--array",
            "kSprites",
            "--vb",
            "0=quad.vb",
            "--vb",
            "3=instances.vb",
            "--draw",
            "draw_instanced,instances=2",
            "--format",
            "csv",
        ],
        0,
    );
    assert!(e.contains("warning: #348 DEVICE_DRAW_VERTEX_BUFFER_NOT_SET: the layout reads slot 1 (INSTANCE0, INSTANCE1, INSTANCE2)"), "{e}");
}

#[test]
fn vertices_past_the_end() {
    let e = case(
        "decode-warn-vb-too-small",
        &[
            "decode",
            "seed.h",
            "--vb",
            "0=seed.vb",
            "--draw",
            "draw,count=5",
            "--format",
            "csv",
        ],
        0,
    );
    // 72 bytes at stride 24 hold vertices 0..=2: 3 and 4 read past the end.
    assert!(
        e.contains("#356 DEVICE_DRAW_VERTEX_BUFFER_TOO_SMALL: vertices 3 to 4 (2 of 5)"),
        "{e}"
    );
    let e = case(
        "decode-warn-vb-too-small-json",
        &[
            "decode",
            "seed.h",
            "--vb",
            "0=seed.vb",
            "--draw",
            "draw,count=5,start=1",
            "--format",
            "json",
        ],
        0,
    );
    let v: serde_json::Value = serde_json::from_str(e.lines().next().unwrap()).unwrap();
    assert_eq!(v["warning"]["id"], 356);
    assert_eq!(
        (
            v["warning"]["first"].as_u64(),
            v["warning"]["count"].as_u64()
        ),
        (Some(3), Some(3))
    );
}

#[test]
fn instances_past_the_end() {
    // instances.vb holds 2 instances of 36 bytes; the third reads past it.
    let e = case(
        "decode-warn-instances",
        &[
            "decode",
            "layouts.h",
            "--array",
            "kSprites",
            "--vb",
            "0=quad.vb",
            "--vb",
            "1=instances.vb",
            "--draw",
            "draw_instanced,count=1,instances=3",
            "--format",
            "csv",
        ],
        0,
    );
    assert!(e.contains("#356 DEVICE_DRAW_VERTEX_BUFFER_TOO_SMALL: instances 2 to 2 (1 of 3) read past the end of slot 1's 72-byte buffer"), "{e}");
}

#[test]
fn index_buffer_cases() {
    let e = case(
        "decode-warn-ib-not-set",
        &[
            "decode",
            "seed.h",
            "--vb",
            "0=seed.vb",
            "--draw",
            "draw_indexed,count=3",
            "--format",
            "csv",
        ],
        0,
    );
    assert!(e.contains("#357 DEVICE_DRAW_INDEX_BUFFER_NOT_SET"), "{e}");
    // quad.ib holds 7 R16 indices; positions 7 and 8 read index 0.
    let e = case(
        "decode-warn-ib-too-small",
        &[
            "decode",
            "layouts.h",
            "--array",
            "kSprites",
            "--vb",
            "0=quad.vb",
            "--vb",
            "1=instances.vb",
            "--ib",
            "quad.ib,format=R16_UINT",
            "--topology",
            "triangle_strip",
            "--draw",
            "draw_indexed,count=9",
            "--format",
            "csv",
        ],
        0,
    );
    assert!(
        e.contains("#359 DEVICE_DRAW_INDEX_BUFFER_TOO_SMALL: index positions 7 to 8 (2 of 9)"),
        "{e}"
    );
    // Base vertex 2: indices 2 and 3 address vertices 4 and 5 of a 4-vertex buffer.
    let e = case(
        "decode-warn-index-past-data",
        &[
            "decode",
            "layouts.h",
            "--array",
            "kSprites",
            "--vb",
            "0=quad.vb",
            "--vb",
            "1=instances.vb",
            "--ib",
            "quad.ib,format=R16_UINT",
            "--topology",
            "triangle_strip",
            "--draw",
            "draw_indexed,base=2",
            "--format",
            "csv",
        ],
        0,
    );
    assert!(e.contains("inlay INLAY_INDEX_PAST_VERTEX_DATA:"), "{e}");
}

#[test]
fn stride_smaller_than_the_elements() {
    let e = case(
        "decode-warn-stride",
        &[
            "decode",
            "seed.h",
            "--vb",
            "0=seed.vb,stride=12",
            "--draw",
            "draw,count=3",
            "--format",
            "csv",
        ],
        0,
    );
    assert!(e.contains("#355 DEVICE_DRAW_VERTEX_BUFFER_STRIDE_TOO_SMALL: slot 0 is bound with stride 12 but its elements cover 24 bytes"), "{e}");
}

/// Issue 34 item 3: 2^32 − 1 index positions over a 72-byte index buffer read index 0 (vertex
/// 0, in bounds) past the buffer's 36 indices — 4.3 × 10^9 rows were streamed unrefused.
#[test]
fn index_positions_past_the_index_buffer_are_refused_past_the_bound() {
    let e = case(
        "decode-refuse-missing-indices",
        &[
            "decode",
            "seed.h",
            "--vb",
            "0=seed.vb",
            "--ib",
            "seed.vb,format=R16_UINT",
            "--draw",
            "draw_indexed,index_count=4294967295",
        ],
        2,
    );
    assert!(
        e.contains("error: the draw would read 4294967259 consecutive index positions past the end of the index buffer"),
        "{e}"
    );
}

#[test]
fn nothing_but_zeros_is_refused_past_the_bound() {
    let e = case(
        "decode-refuse-zeros",
        &[
            "decode",
            "seed.h",
            "--vb",
            "0=seed.vb",
            "--draw",
            "draw,count=4000000000",
        ],
        2,
    );
    assert!(
        e.contains("3999999997 consecutive vertices that read nothing but out-of-bounds zeros"),
        "{e}"
    );
    // Raised, the draw runs (and --range keeps the output short).
    let r = inlay(&[
        "decode",
        "seed.h",
        "--vb",
        "0=seed.vb",
        "--draw",
        "draw,count=4000000000",
        "--max-vertices",
        "4000000000",
        "--range",
        "2..4",
        "--format",
        "csv",
    ]);
    assert_eq!(r.code, 0, "{}", r.transcript);
    assert_eq!(r.stdout.lines().count(), 3, "{}", r.stdout);
}
