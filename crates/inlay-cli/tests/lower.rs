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
