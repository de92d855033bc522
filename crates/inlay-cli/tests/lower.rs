//! `inlay lower`: whole transcripts for a layout with every kind of trap, against the
//! Vulkan spec's required support, the committed H200 profile and WebGPU.

mod common;

use common::{inlay, snapshot};

#[test]
fn lower_vulkan_required() {
    let r = inlay(&[
        "lower",
        "lowering.json",
        "--target",
        "vulkan",
        "--topology",
        "triangle_list",
        "--indexed",
    ]);
    assert_eq!(r.code, 0, "{}", r.transcript);
    snapshot("lower-vulkan-required", &r.transcript);
}

#[test]
fn lower_h200_profile() {
    let profile = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../profiles/nvidia-h200.json"
    );
    let r = inlay(&[
        "lower",
        "lowering.json",
        "--target",
        "vulkan",
        "--device-profile",
        profile,
        "--topology",
        "triangle_strip",
        "--indexed",
    ]);
    assert_eq!(r.code, 0, "{}", r.transcript);
    // The H200 converts BGRX and B5G6R5 only, and has divisors: no expansion.
    assert!(
        r.stdout.contains("convert on the CPU to R32G32B32_SFLOAT"),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("expand per-instance"), "{}", r.stdout);
    assert!(r.stdout.contains("divisor 3"), "{}", r.stdout);
    assert!(r.stdout.contains("primitive restart on"), "{}", r.stdout);
}

#[test]
fn lower_wgpu_json() {
    let r = inlay(&["lower", "lowering.json", "--target", "wgpu", "--json"]);
    assert_eq!(r.code, 0, "{}", r.transcript);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("JSON");
    let attrs = v["state"]["attributes"].as_array().unwrap();
    let formats: Vec<&str> = attrs
        .iter()
        .map(|a| a["format"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        formats,
        [
            "Float32x3",
            "Float32x3",
            "Float32x3",
            "Unorm16x2",
            "Float32x4",
            "Float32x3"
        ]
    );
    let expands = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["remedy"]["remedy"] == "expand_instances")
        .count();
    assert_eq!(expands, 2);
}

#[test]
fn lower_refuses_a_wrong_target_and_profile() {
    let r = inlay(&["lower", "lowering.json", "--target", "metal"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("`metal` is not a lowering target"),
        "{}",
        r.stderr
    );
    let r = inlay(&[
        "lower",
        "lowering.json",
        "--target",
        "wgpu",
        "--device-profile",
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../profiles/nvidia-h200.json"
        ),
    ]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("a Vulkan profile cannot lower for --target wgpu"),
        "{}",
        r.stderr
    );
}

/// Issue 37: a D3D12 strip whose all-ones index is a vertex (strip cut disabled) on WebGPU,
/// which restarts every indexed strip: 16-bit indices are widened, 32-bit strips unrolled to
/// a list; `--no-all-ones` says the buffer holds none, and nothing is needed. Vulkan turns
/// restart off instead.
#[test]
fn lower_d3d12_strip_whose_all_ones_index_is_a_vertex() {
    let run = |target: &str, format: &str, extra: &[&str]| {
        let mut args = vec![
            "lower",
            "lowering.json",
            "--target",
            target,
            "--api",
            "d3d12",
            "--strip-cut",
            "disabled",
            "--topology",
            "triangle_strip",
            "--indexed",
            "--index-format",
            format,
        ];
        args.extend_from_slice(extra);
        let r = inlay(&args);
        assert_eq!(r.code, 0, "{}", r.transcript);
        r.stdout
    };
    let out = run("wgpu", "R16_UINT", &[]);
    assert!(
        out.contains("topology TriangleStrip, primitive restart on"),
        "{out}"
    );
    assert!(
        out.contains(
            "    remedy: widen the 16-bit indices to 32-bit (0xFFFF is then no restart value)"
        ),
        "{out}"
    );
    let out = run("wgpu", "R32_UINT", &[]);
    assert!(
        out.contains("topology TriangleList, primitive restart off"),
        "{out}"
    );
    assert!(
        out.contains("    remedy: unroll the strip into a list of its primitives (no index cuts), restart off"),
        "{out}"
    );
    let out = run("wgpu", "R32_UINT", &["--no-all-ones"]);
    assert!(out.contains("topology TriangleStrip"), "{out}");
    assert!(!out.contains("unroll") && !out.contains("widen"), "{out}");
    let out = run("vulkan", "R16_UINT", &[]);
    assert!(
        out.contains("topology TRIANGLE_STRIP, primitive restart off"),
        "{out}"
    );
    assert!(!out.contains("unroll") && !out.contains("widen"), "{out}");
}
