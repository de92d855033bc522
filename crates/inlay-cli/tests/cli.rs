//! The `inlay` binary on real files: whole outputs compared with snapshots, exit statuses
//! included.

mod common;

use common::{data_dir, inlay, inlay_in, scratch, snapshot, snapshot_run};

#[test]
fn demo_without_arguments() {
    let r = snapshot_run("demo", 0, &[]);
    // `inlay demo` is the same.
    assert_eq!(inlay(&["demo"]).stdout, r.stdout);
}

#[test]
fn check_seed_snippet_without_shader() {
    snapshot_run("check-seed-h", 0, &["check", "seed.h"]);
    let r = inlay(&["check", "seed.h", "--validate-only"]);
    assert_eq!(r.code, 0);
    assert!(
        r.stdout.contains("result: S_FALSE (0x00000001)"),
        "{}",
        r.stdout
    );
}

#[test]
fn check_json_and_toml_give_the_same_layout() {
    let json = inlay(&["check", "seed.json", "--json"]);
    let toml = inlay(&["check", "seed.toml", "--json"]);
    assert_eq!((json.code, toml.code), (0, 0));
    snapshot("check-seed-json", &json.transcript);
    let elements = |s: &str| {
        let v: serde_json::Value = serde_json::from_str(s).unwrap();
        v["elements"].clone()
    };
    assert_eq!(elements(&json.stdout), elements(&toml.stdout));
    assert_eq!(elements(&json.stdout)[1]["offset"], 12);
    assert_eq!(elements(&json.stdout)[1]["register"], 1);
}

#[test]
fn check_refused_layout_points_at_the_fields() {
    snapshot_run(
        "check-broken",
        1,
        &["check", "layouts.h", "--array", "kBroken"],
    );
    snapshot_run(
        "check-broken-json",
        1,
        &["check", "layouts.h", "--array", "kBroken", "--json"],
    );
}

#[test]
fn check_follows_the_target() {
    // Instancing at feature level 9_1 is refused; on D3D10 slot 16 does not exist.
    snapshot_run(
        "check-sprites-9_1",
        1,
        &[
            "check",
            "layouts.h",
            "--array",
            "kSprites",
            "--feature-level",
            "9_1",
        ],
    );
    let r = inlay(&[
        "check",
        "layouts.h",
        "--array",
        "kSprites",
        "--api",
        "d3d10",
        "--json",
    ]);
    assert_eq!(r.code, 0);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        (v["api"].as_str(), v["feature_level"].as_str()),
        (Some("d3d10"), Some("10_0"))
    );
    // 12_0 is a level since D3D12 (issue 37), but not one the default d3d11 runtime creates:
    // the pair is refused, naming the runtime that does create it.
    let r = inlay(&["check", "seed.h", "--feature-level", "12_0"]);
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr,
        "error: the d3d11 runtime has no feature level 12_0 devices (d3d11 creates 9_1 to 11_1; \
         the d3d12 runtime creates 12_0)\n"
    );
    let r = inlay(&["check", "seed.h", "--feature-level", "13_0"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("unknown feature level `13_0`"),
        "{}",
        r.stderr
    );
}

#[test]
fn several_arrays_need_a_name() {
    snapshot_run("check-several-arrays", 2, &["check", "layouts.h"]);
    let r = inlay(&["check", "layouts.h", "--array", "kMissing"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("no input element array named `kMissing`"),
        "{}",
        r.stderr
    );
}

#[test]
fn parse_errors_are_usage_errors_with_positions() {
    for (name, file) in [
        ("parse-error-json", "bad-field.json"),
        ("parse-error-toml", "bad-format.toml"),
        ("parse-error-c", "bad-value.h"),
    ] {
        let r = inlay(&["check", file]);
        assert_eq!(r.code, 2, "{file}");
        assert_eq!(r.stdout, "", "{file}");
        snapshot(name, &r.transcript);
    }
    let r = inlay(&["check", "no-such-file.h"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.starts_with("error: cannot read no-such-file.h: "),
        "{}",
        r.stderr
    );
}

#[test]
fn endless_line_is_refused_quickly_with_a_bounded_message() {
    let dir = scratch("endless");
    let mut src = String::from("D3D11_INPUT_ELEMENT_DESC d[] = {");
    for _ in 0..100_000 {
        src.push_str("{\"P\",0,DXGI_FORMAT_R32_FLOAT},");
    }
    src.push_str("{\"Q\",0,DXGI_FORMAT_NOPE}};");
    std::fs::write(dir.join("endless.h"), &src).unwrap();
    let r = inlay_in(&dir, &["check", "endless.h"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.len() < 2000, "{}", r.stderr.len());
    assert!(
        r.stderr
            .contains("more than 4096 elements in one array: inlay reads at most 4096"),
        "{}",
        r.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn map_pictures() {
    snapshot_run("map-seed", 0, &["map", "seed.h"]);
    snapshot_run(
        "map-static-mesh",
        0,
        &["map", "layouts.h", "--array", "kStaticMesh"],
    );
    snapshot_run(
        "map-sprites",
        0,
        &[
            "map",
            "layouts.h",
            "--array",
            "kSprites",
            "--stride",
            "1=48",
        ],
    );
    snapshot_run(
        "map-aliased",
        0,
        &["map", "layouts.h", "--array", "kAliased", "--stride", "24"],
    );
    let r = inlay(&["map", "layouts.h", "--array", "kBroken"]);
    assert_eq!(r.code, 1);
    assert!(
        r.stdout
            .contains("error[#159 CREATEINPUTLAYOUT_INVALIDALIGNMENT]")
    );
    let r = inlay(&["map", "seed.h", "--stride", "4096"]);
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr,
        "error: --stride: `4096` is not a stride from 0 to 2048\n"
    );
}

#[test]
fn map_svg_is_written_safely() {
    let dir = scratch("svg");
    let layout = data_dir().join("layouts.h");
    let layout = layout.to_str().unwrap();
    let r = inlay_in(
        &dir,
        &[
            "map",
            layout,
            "--array",
            "kAliased",
            "--stride",
            "24",
            "--svg",
            "aliased.svg",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.starts_with("wrote aliased.svg ("), "{}", r.stderr);
    let svg = std::fs::read_to_string(dir.join("aliased.svg")).unwrap();
    snapshot("map-aliased-svg", &svg.replace(layout, "layouts.h"));
    // No replacing without --force.
    let r = inlay_in(
        &dir,
        &["map", layout, "--array", "kSprites", "--svg", "aliased.svg"],
    );
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr,
        "error: aliased.svg already exists; pass --force to replace it\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("aliased.svg")).unwrap(),
        svg
    );
    let r = inlay_in(
        &dir,
        &[
            "map",
            layout,
            "--array",
            "kSprites",
            "--svg",
            "aliased.svg",
            "--force",
        ],
    );
    assert_eq!(r.code, 0);
    assert!(
        std::fs::read_to_string(dir.join("aliased.svg"))
            .unwrap()
            .contains("INSTANCE1")
    );
    // Never onto an input, even with --force.
    std::fs::copy(data_dir().join("seed.json"), dir.join("seed.json")).unwrap();
    let r = inlay_in(
        &dir,
        &["map", "seed.json", "--svg", "./seed.json", "--force"],
    );
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr,
        "error: refusing to write ./seed.json: it is one of this command's inputs (seed.json \
         is the same file); --force never replaces an input\n"
    );
    assert!(
        std::fs::read_to_string(dir.join("seed.json"))
            .unwrap()
            .starts_with("{\n  \"elements\"")
    );
    // No temporary files left behind.
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["aliased.svg", "seed.json"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn decode_seed_triangle_in_every_format() {
    snapshot_run(
        "decode-seed-table",
        0,
        &["decode", "seed.h", "--vb", "0=seed.vb"],
    );
    snapshot_run(
        "decode-seed-csv",
        0,
        &[
            "decode",
            "seed.json",
            "--vb",
            "0=seed.vb",
            "--format",
            "csv",
            "--all-lanes",
        ],
    );
    let r = snapshot_run(
        "decode-seed-json-hex",
        0,
        &[
            "decode",
            "seed.toml",
            "--vb",
            "0=seed.vb",
            "--format",
            "json",
            "--hex",
            "--range",
            "1..",
        ],
    );
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        v[0]["POSITION0"],
        serde_json::json!(["3f000000", "bf000000", "3f000000"])
    );
}

#[test]
fn decode_indexed_instanced_draw() {
    let r = inlay(&[
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
        "draw_indexed_instanced,instance_count=2,start_instance=0",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    snapshot("decode-sprites", &r.transcript);
}

#[test]
fn decode_output_file_is_atomic_and_guarded() {
    let dir = scratch("decode-out");
    let d = data_dir();
    let (layout, vb) = (d.join("seed.h"), d.join("seed.vb"));
    let vb_arg = format!("0={}", vb.display());
    let args = [
        "decode",
        layout.to_str().unwrap(),
        "--vb",
        &vb_arg,
        "--format",
        "csv",
        "--output",
        "out.csv",
    ];
    let r = inlay_in(&dir, &args);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""));
    assert_eq!(
        std::fs::read_to_string(dir.join("out.csv")).unwrap(),
        "position,vertex_id,element,instance_id,POSITION0.x,POSITION0.y,POSITION0.z,COLOR0.x,COLOR0.y,COLOR0.z\n\
         0,0,0,0,0.0,0.5,0.5,1.0,0.0,0.0\n1,1,1,0,0.5,-0.5,0.5,0.0,1.0,0.0\n2,2,2,0,-0.5,-0.5,0.5,0.0,0.0,1.0\n"
    );
    let r = inlay_in(&dir, &args);
    assert_eq!(r.code, 2);
    // Onto the vertex buffer it reads: refused.
    let onto = vb.display().to_string();
    let r = inlay_in(
        &dir,
        &[
            "decode",
            layout.to_str().unwrap(),
            "--vb",
            &vb_arg,
            "--output",
            &onto,
            "--force",
        ],
    );
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("it is one of this command's inputs"),
        "{}",
        r.stderr
    );
    assert_eq!(std::fs::read(&vb).unwrap().len(), 72);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn decode_usage_errors() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["decode", "seed.h", "--vb", "seed.vb"],
            "error: --vb `seed.vb`: expected SLOT=FILE[,stride=N][,offset=N]\n",
        ),
        (
            &["decode", "seed.h", "--vb", "0=seed.vb,stride=4096"],
            "error: --vb 0: vertex buffer slot 0: stride 4096 exceeds the 2048-byte maximum (D3D11_REQ_MULTI_ELEMENT_STRUCTURE_SIZE_IN_BYTES, spec §8.19.3)\n",
        ),
        (
            &[
                "decode",
                "seed.h",
                "--vb",
                "0=seed.vb",
                "--draw",
                "draw_indexed",
            ],
            "error: an indexed draw needs --ib FILE,format=… or --draw draw_indexed,index_count=N\n",
        ),
        (
            &["decode", "seed.h", "--vb", "0=seed.vb", "--ib", "quad.ib"],
            "error: --ib `quad.ib`: say the index format: FILE,format=R16_UINT or R32_UINT\n",
        ),
        (
            &["decode", "seed.h", "--vb", "0=seed.vb", "--range", "5..2"],
            "error: --range `5..2`: the end is before the start\n",
        ),
    ];
    for (args, stderr) in cases {
        let r = inlay(args);
        assert_eq!((r.code, r.stderr.as_str()), (2, *stderr), "{args:?}");
    }
    // clap's own usage errors exit with 2 too.
    assert_eq!(inlay(&["decode", "seed.h"]).code, 2);
    assert_eq!(inlay(&["check"]).code, 2);
    assert_eq!(inlay(&["frobnicate"]).code, 2);
}

#[test]
fn every_subcommand_has_help_with_an_example() {
    for sub in [
        "demo",
        "check",
        "shader",
        "signature",
        "map",
        "decode",
        "encode",
        "repack",
        "conform",
        "bench",
    ] {
        let r = inlay(&[sub, "--help"]);
        assert_eq!(r.code, 0, "{sub}");
        assert!(r.stdout.contains("Example"), "{sub}: {}", r.stdout);
        assert!(r.stdout.contains(&format!("inlay {sub}")), "{sub}");
    }
    let r = inlay(&["--help"]);
    assert!(
        r.stdout
            .contains("Exit status: 0 ok, 1 when Windows would refuse")
    );
}

#[test]
#[cfg_attr(
    not(inlay_has_shared_examples),
    ignore = "needs the shared example cases: ../shared/conformance/examples or $INLAY_SHARED"
)]
fn conform_runs_the_shared_examples() {
    let examples = std::path::PathBuf::from(env!("INLAY_TEST_SHARED")).join("conformance/examples");
    let r = inlay(&["conform", examples.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(r.stdout.ends_with(" passed, 0 failed\n"), "{}", r.stdout);
}

#[test]
fn conform_reports_failures_with_status_1() {
    let dir = scratch("conform");
    let case = r#"{"schema": "inlay-conformance/1", "cases": [
 {"name": "wrong-on-purpose", "evidence": "test of the runner's exit status",
  "elements": [{"semantic": "POSITION", "index": 0, "format": "R32G32B32_FLOAT", "slot": 0, "offset": 1, "class": "vertex", "step_rate": 0}],
  "shader": {"signature": [{"semantic": "POSITION", "index": 0, "register": 0, "mask": "xyz", "used": "xyz", "type": "float", "sv": "NONE"}]},
  "expect": {"hresult": "S_OK"}}]}"#;
    std::fs::write(dir.join("case.json"), case).unwrap();
    let r = inlay_in(&dir, &["conform", "case.json"]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stdout.ends_with("0 passed, 1 failed\n"), "{}", r.stdout);
    let r = inlay_in(&dir, &["conform", "case.json", "--json"]);
    assert_eq!(r.code, 1);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["failed"], 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bench_wrapper_prints_every_workload() {
    // A smoke test of the wrapper only: tiny sizes, no timing is asserted.
    let r = inlay(&["bench", "--vertices", "2000", "--repeats", "1", "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let names: Vec<&str> = v["workloads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["W1", "W2", "W3", "W1e", "W2e"]);
    for key in [
        "mvert_per_s",
        "roof_mvert_per_s",
        "ratio",
        "pairs",
        "dropped",
        "roof_vs_memcpy",
    ] {
        assert!(v["workloads"][0][key].is_number(), "{key}");
    }
    assert!(v["workloads"][2]["ratios"].is_array());
    assert_eq!(inlay(&["bench", "--vertices", "0"]).code, 2);
}

/// The indirect forms read their argument structure from a file at an offset (spec §8.7);
/// DrawAuto counts whole vertices in slot 0's filled size (ia-semantics §8).
#[test]
fn decode_indirect_and_auto_draws() {
    // indirect-args.bin: one word of padding, then {3 vertices, 2 instances, start 0, start 0}.
    let r = inlay(&[
        "decode",
        "seed.h",
        "--vb",
        "0=seed.vb",
        "--draw",
        "draw_instanced_indirect,args=indirect-args.bin,offset=4",
        "--format",
        "csv",
    ]);
    assert_eq!(r.code, 0, "{}", r.transcript);
    snapshot("decode-seed-indirect", &r.transcript);
    assert_eq!(r.stdout.lines().count(), 1 + 6);
    // 48 filled bytes with stride 24: two vertices.
    let r = inlay(&[
        "decode",
        "seed.h",
        "--vb",
        "0=seed.vb",
        "--draw",
        "draw_auto,filled_size=48",
        "--format",
        "csv",
    ]);
    assert_eq!(r.code, 0, "{}", r.transcript);
    assert_eq!(r.stdout.lines().count(), 1 + 2);
    // An argument structure that does not fit is a usage error naming the problem.
    let r = inlay(&[
        "decode",
        "seed.h",
        "--vb",
        "0=seed.vb",
        "--draw",
        "draw_indexed_instanced_indirect,args=indirect-args.bin,offset=4",
    ]);
    assert_eq!(r.code, 2, "{}", r.transcript);
    snapshot("decode-indirect-args-too-short", &r.transcript);
}

/// A format the IA reads only from 10_0 up (R8G8B8A8_SNORM) is refused at 9_1 with 1048599, and
/// the explanation says why (R20, R42); the same layout is created at 10_0.
#[test]
fn check_format_unsupported_at_level_9() {
    let r = inlay(&["check", "level9-snorm.h", "--feature-level", "9_1"]);
    assert_eq!(r.code, 1, "{}", r.transcript);
    snapshot("check-level9-snorm", &r.transcript);
    let r = inlay(&["check", "level9-snorm.h", "--feature-level", "10_0"]);
    assert_eq!(r.code, 0, "{}", r.transcript);
}
