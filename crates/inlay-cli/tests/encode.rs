//! `inlay encode` and `inlay repack`: round trips through `inlay decode`, bad input with exit
//! codes and messages, outputs written atomically.

mod common;

use common::{data_dir, inlay, inlay_in, scratch, snapshot};

fn read(p: &std::path::Path) -> Vec<u8> {
    std::fs::read(p).unwrap()
}

#[test]
fn encode_round_trips_what_decode_prints() {
    let d = scratch("encode-rt");
    let data = data_dir();
    for (fmt, ext, hex) in [
        ("csv", "csv", false),
        ("json", "json", false),
        ("json", "json", true),
    ] {
        let values = d.join(format!("seed-{hex}.{ext}"));
        let mut args = vec!["decode", "seed.json", "--vb", "0=seed.vb", "--format", fmt];
        if hex {
            args.push("--hex");
        }
        let v = values.to_str().unwrap();
        args.extend(["--output", v]);
        assert_eq!(inlay(&args).code, 0);
        let out = d.join(format!("copy-{ext}-{hex}.vb"));
        let o = format!("0={}", out.display());
        let mut enc = vec!["encode", "seed.json", "--input", v, "--out", &o];
        if hex {
            enc.push("--hex");
        }
        let r = inlay(&enc);
        assert_eq!(r.code, 0, "{}", r.transcript);
        assert_eq!(read(&out), read(&data.join("seed.vb")), "{fmt} hex={hex}");
    }
    // The transcript of the plain CSV run.
    let r = inlay_in(
        &d,
        &[
            "encode",
            &data.join("seed.json").to_string_lossy(),
            "--input",
            "seed-false.csv",
            "--out",
            "0=again.vb",
        ],
    );
    snapshot(
        "encode-seed-csv",
        &r.transcript.replace(&*data.to_string_lossy(), "DATA"),
    );
}

#[test]
fn encode_two_slots_with_instances_through_the_reference_decoder() {
    let d = scratch("encode-skin");
    let r = inlay_in(
        &d,
        &[
            "encode",
            &data_dir().join("skin.json").to_string_lossy(),
            "--input",
            &data_dir().join("skin.csv").to_string_lossy(),
            "--out",
            "0=v.vb",
            "--out",
            "1=i.vb",
            "--clamp",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.transcript);
    snapshot(
        "encode-skin",
        &r.transcript.replace(&*data_dir().to_string_lossy(), "DATA"),
    );
    // Saturated integers (--clamp): 300 → 255; the instance slot holds 2 records of 4 bytes.
    let v = read(&d.join("v.vb"));
    assert_eq!(v.len(), 2 * 16);
    assert_eq!(&v[12..16], &[0, 1, 2, 3]);
    assert_eq!(&v[28..32], &[255, 255, 0, 1]);
    assert_eq!(
        read(&d.join("i.vb")),
        [0xfb, 0xff, 7, 0, 100, 0, 0x00, 0x80]
    );
    let r = inlay_in(
        &d,
        &[
            "decode",
            &data_dir().join("skin.json").to_string_lossy(),
            "--vb",
            "0=v.vb",
            "--vb",
            "1=i.vb",
            "--draw",
            "draw_instanced,instances=2",
            "--format",
            "csv",
        ],
    );
    snapshot(
        "encode-skin-decoded",
        &r.transcript.replace(&*data_dir().to_string_lossy(), "DATA"),
    );
}

/// Writes `text` as the values file NAME in `d` and runs encode on skin.json with it
/// (`--clamp` among `extra` where skin.csv's 300 in R8G8B8A8_UINT must saturate).
fn bad(d: &std::path::Path, name: &str, text: &str, extra: &[&str]) -> common::Run {
    std::fs::write(d.join(name), text).unwrap();
    let layout = data_dir().join("skin.json");
    let mut args = vec![
        "encode",
        layout.to_str().unwrap(),
        "--input",
        name,
        "--out",
        "0=v.vb",
        "--out",
        "1=i.vb",
    ];
    args.extend(extra);
    let r = inlay_in(d, &args);
    assert!(
        !d.join("v.vb").exists() && !d.join("i.vb").exists(),
        "nothing is written: {}",
        r.transcript
    );
    r
}

#[test]
fn encode_bad_values_name_element_vertex_and_value() {
    let d = scratch("encode-bad");
    let good = std::fs::read_to_string(data_dir().join("skin.csv")).unwrap();
    let cases: [(&str, String, &[&str]); 9] = [
        // A float for a UINT element.
        ("float-uint.csv", good.replace("255,300", "2.5,300"), &[]),
        // A row with too few values, and a header without a lane the format has.
        ("short.csv", good.replace("0,1,2,3,-5,7", "0,1,2,3,-5"), &[]),
        (
            "lane.csv",
            good.replace(",POSITION0.z", "")
                .replace(",-1.0,", ",")
                .replace(",NaN,", ","),
            &[],
        ),
        // JSON: too few lanes, a string that is no number, an unknown element.
        (
            "few.json",
            r#"[{"vertex_id": 0, "POSITION0": [1.0, 2.0], "BLENDINDICES0": [1,2,3,4], "OFFSET0": [1,2]}]"#.into(),
            &[],
        ),
        (
            "word.json",
            r#"[{"vertex_id": 0, "POSITION0": [1.0, "one", 2.0], "BLENDINDICES0": [1,2,3,4], "OFFSET0": [1,2]}]"#.into(),
            &[],
        ),
        (
            "sint.json",
            r#"[{"vertex_id": 0, "POSITION0": [1.0, 2.0, 3.0], "BLENDINDICES0": [1,2,3,4], "OFFSET0": [1, 3000000000]}]"#.into(),
            &[],
        ),
        // A per-instance record given two different values.
        (
            "conflict.csv",
            good.replacen("100,-32768", "100,-32767", 1),
            &["--clamp"],
        ),
        // Over the size cap (a vertex_id far away).
        (
            "far.csv",
            good.replacen("\n1,1,0", "\n1,90000000,0", 1),
            &["--clamp"],
        ),
        ("cap.csv", good.clone(), &["--max-bytes", "16", "--clamp"]),
    ];
    let mut transcript = String::new();
    for (name, text, extra) in &cases {
        let r = bad(&d, name, text, extra);
        assert_eq!(r.code, 2, "{name}");
        transcript += &r.transcript;
    }
    // A missing --out.
    let layout = data_dir().join("skin.json");
    let r = inlay_in(
        &d,
        &[
            "encode",
            layout.to_str().unwrap(),
            "--input",
            "cap.csv",
            "--out",
            "0=v.vb",
        ],
    );
    assert_eq!(r.code, 2);
    transcript += &r.transcript;
    snapshot(
        "encode-bad-input",
        &transcript.replace(&*data_dir().to_string_lossy(), "DATA"),
    );
}

#[test]
fn encode_outputs_are_guarded() {
    let d = scratch("encode-guard");
    std::fs::write(d.join("v.vb"), b"keep").unwrap();
    let layout = data_dir().join("skin.json");
    let values = data_dir().join("skin.csv");
    let args = [
        "encode",
        layout.to_str().unwrap(),
        "--input",
        values.to_str().unwrap(),
        "--out",
        "0=v.vb",
        "--out",
        "1=i.vb",
        "--clamp",
    ];
    let r = inlay_in(&d, &args);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("v.vb already exists; pass --force to replace it"),
        "{}",
        r.stderr
    );
    // Neither file was written: the existing one is untouched, the other absent.
    assert_eq!(read(&d.join("v.vb")), b"keep");
    assert!(!d.join("i.vb").exists());
    let mut forced = args.to_vec();
    forced.push("--force");
    assert_eq!(inlay_in(&d, &forced).code, 0);
    assert_eq!(read(&d.join("v.vb")).len(), 32);
    // Never onto an input.
    let r = inlay_in(
        &d,
        &[
            "encode",
            layout.to_str().unwrap(),
            "--input",
            values.to_str().unwrap(),
            "--out",
            &format!("0={}", values.display()),
            "--out",
            "1=i2.vb",
            "--force",
            "--clamp",
        ],
    );
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("is one of this command's inputs"),
        "{}",
        r.stderr
    );
    let names: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert!(names.iter().all(|n| !n.contains("inlay-tmp")), "{names:?}");
}

#[test]
fn repack_to_a_packed_layout_and_back() {
    let d = scratch("repack");
    let data = data_dir();
    let r = inlay_in(
        &data,
        &[
            "repack",
            "seed.json",
            "seed-packed.json",
            "--vb",
            "0=seed.vb",
            "--out",
            &format!("0={}", d.join("p.vb").display()),
        ],
    );
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("TEXCOORD0 (R16G16_UNORM) of the output layout has no matching element"),
        "{}",
        r.stderr
    );
    let p = d.join("p.vb");
    let r = inlay_in(
        &data,
        &[
            "repack",
            "seed.json",
            "seed-packed.json",
            "--vb",
            "0=seed.vb",
            "--out",
            &format!("0={}", p.display()),
            "--default",
            "TEXCOORD0=0.25,1",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.transcript);
    snapshot(
        "repack-seed-packed",
        &r.transcript.replace(&*d.to_string_lossy(), "OUT"),
    );
    assert_eq!(read(&p).len(), 48);
    // And back: the seed buffer again, byte for byte (its values are exact in halves/UNORM8).
    let back = d.join("back.vb");
    let r = inlay_in(
        &data,
        &[
            "repack",
            "seed-packed.json",
            "seed.json",
            "--vb",
            &format!("0={}", p.display()),
            "--out",
            &format!("0={}", back.display()),
            "--strict",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.transcript);
    assert_eq!(read(&back), read(&data.join("seed.vb")));
    // --strict: a changed value exits 1.
    let r = inlay_in(
        &data,
        &[
            "repack",
            "seed.json",
            "seed-packed.json",
            "--vb",
            "0=seed.vb",
            "--out",
            &format!("0={}", d.join("s.vb").display()),
            "--default",
            "TEXCOORD0=0.25,1",
            "--strict",
        ],
    );
    assert_eq!(r.code, 1, "{}", r.transcript);
}

#[test]
fn repack_refuses_buffers_that_are_not_whole_vertices() {
    let d = scratch("repack-bad");
    let mut vb = read(&data_dir().join("seed.vb"));
    vb.extend([1, 2, 3]);
    std::fs::write(d.join("odd.vb"), &vb).unwrap();
    let seed = data_dir().join("seed.json");
    let r = inlay_in(
        &d,
        &[
            "repack",
            seed.to_str().unwrap(),
            seed.to_str().unwrap(),
            "--vb",
            "0=odd.vb",
            "--out",
            "0=o.vb",
        ],
    );
    assert_eq!(r.code, 2);
    assert!(!d.join("o.vb").exists());
    snapshot(
        "repack-not-whole-vertices",
        &r.transcript.replace(&*data_dir().to_string_lossy(), "DATA"),
    );
}

/// Issue 34 item 8: out-of-range values were saturated silently (CSV `1e400` → +inf, 40000
/// into R16_SINT → 32767, 65520 into R16_FLOAT → inf, 300 into R8_UINT → 255), though
/// nothing is written unless every value is valid. Each is now an error naming the line (or
/// JSON object), vertex, element, lane and value; `--clamp` saturates as before.
#[test]
fn out_of_range_values_are_refused_unless_clamped() {
    let d = scratch("encode-range");
    std::fs::write(
        d.join("l.json"),
        r#"{"elements": [
 {"semantic": "POSITION", "format": "R32G32B32_FLOAT", "offset": 0},
 {"semantic": "NORMAL", "format": "R16G16_SINT", "offset": 12},
 {"semantic": "TEXCOORD", "format": "R16G16_FLOAT", "offset": 16},
 {"semantic": "COLOR", "format": "R8G8B8A8_UNORM", "offset": 20},
 {"semantic": "BLENDINDICES", "format": "R8_UINT", "offset": 24}
]}"#,
    )
    .unwrap();
    let header = "vertex_id,POSITION0.x,POSITION0.y,POSITION0.z,NORMAL0.x,NORMAL0.y,\
                  TEXCOORD0.x,TEXCOORD0.y,COLOR0.x,COLOR0.y,COLOR0.z,COLOR0.w,BLENDINDICES0.x";
    let good = "0,1.0,2.0,3.0,-32768,32767,65504,-0.5,0,1,0.5,1,255";
    let run = |name: &str, row: &str, extra: &[&str]| {
        std::fs::write(d.join(name), format!("{header}\n{good}\n{row}\n")).unwrap();
        let _ = std::fs::remove_file(d.join("o.vb"));
        let mut args = vec!["encode", "l.json", "--input", name, "--out", "0=o.vb"];
        args.extend_from_slice(extra);
        inlay_in(&d, &args)
    };
    for (name, row, why) in [
        (
            "inf.csv",
            "1,1e400,2.0,3.0,0,0,0,0,0,0,0,0,0",
            "line 3, vertex 1: POSITION0.x: 1e400 is out of range for a 32-bit float \
             (finite values up to ±3.4028235e38; write inf for infinity); clamping (--clamp, \
             clamp=True) makes it infinite",
        ),
        (
            "sint.csv",
            "1,0,0,0,40000,0,0,0,0,0,0,0,0",
            "line 3, vertex 1: NORMAL0.x: 40000 is out of range for R16G16_SINT (-32768 to \
             32767); --clamp saturates it",
        ),
        (
            "half.csv",
            "1,0,0,0,0,0,0,65520,0,0,0,0,0",
            "line 3, vertex 1: TEXCOORD0.y: 65520.0 is out of range for R16G16_FLOAT (finite \
             values up to ±65504); --clamp saturates it",
        ),
        (
            "unorm.csv",
            "1,0,0,0,0,0,0,0,0,0,1.5,0,0",
            "line 3, vertex 1: COLOR0.z: 1.5 is out of range for R8G8B8A8_UNORM (0 to 1); \
             --clamp saturates it",
        ),
        (
            "uint.csv",
            "1,0,0,0,0,0,0,0,0,0,0,0,256",
            "line 3, vertex 1: BLENDINDICES0.x: 256 is out of range for R8_UINT (0 to 255); \
             --clamp saturates it",
        ),
    ] {
        let r = run(name, row, &[]);
        assert_eq!(r.code, 2, "{}", r.transcript);
        assert_eq!(r.stderr, format!("error: {name}: {why}\n"), "{name}");
        assert!(!d.join("o.vb").exists(), "{name}: nothing is written");
        // --clamp writes what the encoder makes of it.
        let r = run(name, row, &["--clamp"]);
        assert_eq!(r.code, 0, "{}", r.transcript);
        let o = std::fs::read(d.join("o.vb")).unwrap();
        assert_eq!(o.len(), 2 * 25, "{name}");
        let v = &o[25..];
        match name {
            "inf.csv" => assert_eq!(v[0..4], f32::INFINITY.to_le_bytes()),
            "sint.csv" => assert_eq!(v[12..14], 32767i16.to_le_bytes()),
            "half.csv" => assert_eq!(v[18..20], 0x7c00u16.to_le_bytes()),
            "unorm.csv" => assert_eq!(v[22], 255),
            _ => assert_eq!(v[24], 255),
        }
    }
    // The same in JSON (a number past the 32-bit range, an integer past the format's).
    std::fs::write(
        d.join("v.json"),
        r#"[{"vertex_id": 0, "POSITION0": [1e39, 0, 0], "NORMAL0": [0, 0], "TEXCOORD0": [0, 0],
            "COLOR0": [0, 0, 0, 0], "BLENDINDICES0": [0]}]"#,
    )
    .unwrap();
    let r = inlay_in(
        &d,
        &["encode", "l.json", "--input", "v.json", "--out", "0=o.vb"],
    );
    assert_eq!(r.code, 2, "{}", r.transcript);
    assert!(
        r.stderr.starts_with("error: v.json: vertex object 0, vertex 0: POSITION0.x: 1e+39 is out of range for a 32-bit float"),
        "{}",
        r.stderr
    );
    // Values the format holds after rounding are not out of range: 65519 rounds to 65504.
    let r = run("ok.csv", "1,0,0,0,0,0,65519,-65519,0,0,0,0,0", &[]);
    assert_eq!(r.code, 0, "{}", r.transcript);
}

/// `--input` CSV is read as CSV (the library's reader, as for RenderDoc CSV): a byte-order
/// mark, CRLF line ends, blank lines, quoted values, and a semantic with a comma in it, which
/// `inlay decode --format csv` quotes and `inlay encode` reads back byte for byte.
#[test]
fn encode_reads_quoted_csv_crlf_bom_and_a_semantic_with_a_comma() {
    let d = scratch("encode-csv-quoting");
    std::fs::write(
        d.join("l.json"),
        r#"{"elements": [
  {"semantic": "MY,SEM\"X", "index": 1, "format": "R16G16_UINT", "slot": 0, "offset": 0},
  {"semantic": "C", "index": 0, "format": "R8_UINT", "slot": 0, "offset": "append"}
]}"#,
    )
    .unwrap();
    std::fs::write(
        d.join("v.csv"),
        "\u{feff}vertex_id,\"MY,SEM\"\"X1.x\",\"MY,SEM\"\"X1.y\",C0.x\r\n\r\n\
         0,\"7\",65535,3\r\n1, 1,2,\"255\"\r\n",
    )
    .unwrap();
    let r = inlay_in(
        &d,
        &["encode", "l.json", "--input", "v.csv", "--out", "0=v.vb"],
    );
    assert_eq!(r.code, 0, "{}", r.transcript);
    // Stride 8 (4 + 1, rounded to the largest element alignment by the layout), little endian.
    let v = read(&d.join("v.vb"));
    let stride = v.len() / 2;
    assert_eq!(&v[..5], &[7, 0, 0xff, 0xff, 3]);
    assert_eq!(&v[stride..stride + 5], &[1, 0, 2, 0, 255]);
    // decode quotes the header's names where CSV needs it; encode reads its output back.
    let r = inlay_in(
        &d,
        &[
            "decode", "l.json", "--vb", "0=v.vb", "--format", "csv", "--output", "out.csv",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.transcript);
    let text = std::fs::read_to_string(d.join("out.csv")).unwrap();
    assert!(
        text.starts_with(
            "position,vertex_id,element,instance_id,\"MY,SEM\"\"X1.x\",\"MY,SEM\"\"X1.y\",C0.x\n"
        ),
        "{text}"
    );
    let r = inlay_in(
        &d,
        &["encode", "l.json", "--input", "out.csv", "--out", "0=w.vb"],
    );
    assert_eq!(r.code, 0, "{}", r.transcript);
    assert_eq!(read(&d.join("w.vb")), v);
    // A quoted comma stays in its cell: one value `1,2`, refused as a number, not two cells.
    let d = scratch("encode-csv-quoting-bad");
    let r = bad(&d, "comma.csv", "vertex_id,POSITION0.x\n\n0,\"1,2\"\n", &[]);
    assert_eq!(r.code, 2, "{}", r.transcript);
    assert!(
        r.transcript
            .contains("comma.csv: line 3, vertex 0: POSITION0.x: `1,2` is not a number"),
        "{}",
        r.transcript
    );
    assert!(r.transcript.contains("`1,2`"), "{}", r.transcript);
}
