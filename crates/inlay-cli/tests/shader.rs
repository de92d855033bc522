//! `inlay signature`, `inlay shader` and `inlay check --shader` on written blobs and on the
//! real shader corpus.

mod common;

use std::path::Path;

use common::{corpus, data_dir, inlay, inlay_in, scratch, snapshot};
use serde_json::{Value, json};

/// Writes `description` (from the data folder) as a blob into `dir`, returns its path.
fn write_blob(dir: &Path, description: &str, name: &str) -> String {
    let d = data_dir().join(description);
    let r = inlay_in(dir, &["signature", d.to_str().unwrap(), "--out", name]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    dir.join(name).to_str().unwrap().to_string()
}

#[test]
fn signature_then_shader_then_check() {
    let dir = scratch("sig");
    let desc = data_dir().join("seed-signature.json");
    let desc = desc.to_str().unwrap();
    let r = inlay_in(&dir, &["signature", desc, "--out", "vs.dxbc"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, "");
    assert_eq!(r.stderr, "wrote vs.dxbc (116 bytes, 2 input elements)\n");
    // Same bytes as the library writer gives for the parsed description.
    let blob = std::fs::read(dir.join("vs.dxbc")).unwrap();
    let text = std::fs::read_to_string(desc).unwrap();
    let sig = inlay::text::json::parse_signature(&text).unwrap();
    assert_eq!(blob, inlay::dxbc::signature_blob(&sig));

    let r = inlay_in(&dir, &["shader", "vs.dxbc"]);
    assert_eq!(r.code, 0);
    snapshot("shader-seed-listing", &r.transcript);
    let r = inlay_in(&dir, &["shader", "vs.dxbc", "--json"]);
    assert_eq!(r.code, 0);
    snapshot("shader-seed-json", &r.transcript);

    let vs = dir.join("vs.dxbc");
    let vs = vs.to_str().unwrap();
    let r = inlay(&["check", "seed.h", "--shader", vs]);
    assert_eq!(r.code, 0);
    snapshot("check-seed-shader", &r.transcript.replace(vs, "vs.dxbc"));
    let r = inlay(&[
        "check",
        "seed.toml",
        "--shader",
        vs,
        "--json",
        "--validate-only",
    ]);
    assert_eq!(r.code, 0);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["hresult"], "S_FALSE");
    assert_eq!(v["elements"][1]["register"], 1);
    // A layout without COLOR: the shader's input is missing (163), Windows refuses.
    let r = inlay(&["check", "layouts.h", "--array", "kSprites", "--shader", vs]);
    assert_eq!(r.code, 1);
    snapshot(
        "check-missing-element",
        &r.transcript.replace(vs, "vs.dxbc"),
    );
    let r = inlay(&[
        "check",
        "layouts.h",
        "--array",
        "kSprites",
        "--shader",
        vs,
        "--json",
    ]);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["hresult"], "E_INVALIDARG");
    assert!(
        v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["id"] == 163 && d["severity"] == "error")
    );
    assert_eq!(v["elements"], Value::Null);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn signature_output_is_guarded() {
    let dir = scratch("sig-guard");
    write_blob(&dir, "seed-signature.json", "vs.dxbc");
    let before = std::fs::read(dir.join("vs.dxbc")).unwrap();
    let desc = data_dir().join("sprites-signature.toml");
    let desc = desc.to_str().unwrap();
    let r = inlay_in(&dir, &["signature", desc, "--out", "vs.dxbc"]);
    assert_eq!(
        (r.code, r.stderr.as_str()),
        (
            2,
            "error: vs.dxbc already exists; pass --force to replace it\n"
        )
    );
    assert_eq!(std::fs::read(dir.join("vs.dxbc")).unwrap(), before);
    let r = inlay_in(&dir, &["signature", desc, "--out", "vs.dxbc", "--force"]);
    assert_eq!(r.code, 0);
    assert_ne!(std::fs::read(dir.join("vs.dxbc")).unwrap(), before);
    std::fs::copy(desc, dir.join("sig.toml")).unwrap();
    let r = inlay_in(
        &dir,
        &["signature", "sig.toml", "--out", "sig.toml", "--force"],
    );
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("it is one of this command's inputs"));
    // A bad description: position and caret, nothing written.
    std::fs::write(
        dir.join("bad.json"),
        "[{\"semantic\": \"P\", \"register\": 0, \"mask\": \"xzy\"}]",
    )
    .unwrap();
    let r = inlay_in(&dir, &["signature", "bad.json", "--out", "bad.dxbc"]);
    assert_eq!(r.code, 2);
    snapshot("signature-bad-mask", &r.transcript);
    assert!(!dir.join("bad.dxbc").exists());
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["bad.json", "sig.toml", "vs.dxbc"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shader_refuses_what_is_not_dxbc() {
    let r = inlay(&["shader", "seed.vb"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.starts_with("error: seed.vb: "), "{}", r.stderr);
    assert_eq!(r.stdout, "");
}

#[test]
fn decode_with_a_shader_uses_its_registers() {
    let dir = scratch("decode-shader");
    // Registers in the signature: POSITION v0, INSTANCE0..2 v1..v3 (SV_VertexID v4 is
    // system-generated and needs no element).
    let vs = write_blob(&dir, "sprites-signature.toml", "sprites.dxbc");
    let r = inlay(&[
        "decode",
        "layouts.h",
        "--array",
        "kSprites",
        "--shader",
        &vs,
        "--vb",
        "0=quad.vb",
        "--vb",
        "1=instances.vb",
        "--draw",
        "draw_instanced,vertex_count_per_instance=2,instance_count=2,start_instance=1",
        "--format",
        "csv",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // start_instance 1 with step rate 1: instance 0 reads instance element 1.
    assert_eq!(
        r.stdout,
        "position,vertex_id,element,instance_id,POSITION0.x,POSITION0.y,INSTANCE0.x,INSTANCE0.y,INSTANCE0.z,INSTANCE0.w,INSTANCE1.x,INSTANCE1.y,INSTANCE1.z,INSTANCE1.w,INSTANCE2.x,INSTANCE2.y,INSTANCE2.z,INSTANCE2.w\n\
         0,0,0,0,-1.0,-1.0,2.0,0.0,0.0,0.25,0.0,1.0,0.0,-2.5,10,255,7,129\n\
         1,1,1,0,1.0,-1.0,2.0,0.0,0.0,0.25,0.0,1.0,0.0,-2.5,10,255,7,129\n\
         2,0,0,1,-1.0,-1.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0,0,0,0\n\
         3,1,1,1,1.0,-1.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0,0,0,0\n"
    );
    // A refused layout: the diagnostics go to stderr, exit status 1, no output.
    let seed_vs = write_blob(&dir, "seed-signature.json", "seed.dxbc");
    let r = inlay(&[
        "decode",
        "layouts.h",
        "--array",
        "kSprites",
        "--shader",
        &seed_vs,
        "--vb",
        "0=quad.vb",
    ]);
    assert_eq!((r.code, r.stdout.as_str()), (1, ""));
    assert!(
        r.stderr
            .contains("error[#163 CREATEINPUTLAYOUT_MISSINGELEMENT]"),
        "{}",
        r.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every non-null field of a corpus record's signature element, checked against the JSON
/// report `inlay shader --json` printed.
fn check_element(name: &str, expected: &Value, got: &Value) {
    for (k, v) in expected.as_object().unwrap() {
        if v.is_null() || k.starts_with("listing_") {
            continue;
        }
        assert_eq!(&got[k], v, "{name}: field {k} of {expected}");
    }
}

#[test]
#[cfg_attr(
    not(inlay_has_corpus),
    ignore = "needs the fxc corpus: ../shared/corpus or $INLAY_CORPUS"
)]
fn corpus_shaders_report_and_check() {
    let corpus = corpus();
    let dir = scratch("corpus");
    let mut entries: Vec<_> = std::fs::read_dir(corpus.join("dxbc"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    entries.sort();
    let (mut reported, mut checked) = (0, 0);
    for record_path in entries {
        let record: Value =
            serde_json::from_str(&std::fs::read_to_string(&record_path).unwrap()).unwrap();
        let blob = record_path.with_extension("dxbc");
        let name = record["name"].as_str().unwrap();
        if record["stage"] != "vertex" {
            continue;
        }
        let r = inlay(&["shader", blob.to_str().unwrap(), "--json"]);
        assert_eq!(r.code, 0, "{name}: {}", r.stderr);
        let got: Value = serde_json::from_str(&r.stdout).unwrap();
        assert_eq!(got["stage"], "vertex", "{name}");
        if !record["shader_model"].is_null() {
            assert_eq!(got["shader_model"], record["shader_model"], "{name}");
        }
        assert_eq!(
            got["container"]["checksum_matches"], record["container"]["checksum_matches"],
            "{name}"
        );
        let want = record["input_signature"].as_array().unwrap();
        let have = got["input_signature"].as_array().unwrap();
        assert_eq!(want.len(), have.len(), "{name}");
        for (w, h) in want.iter().zip(have) {
            check_element(name, w, h);
        }
        reported += 1;

        // A layout that feeds every input with a 4-component format of its type: created.
        let elements: Vec<Value> = want
            .iter()
            .filter(|e| {
                let n = e["semantic_name"].as_str().unwrap().to_ascii_uppercase();
                n != "SV_VERTEXID" && n != "SV_INSTANCEID"
            })
            .map(|e| {
                let format = match e["component_type"].as_str().unwrap() {
                    "uint" => "R32G32B32A32_UINT",
                    "int" => "R32G32B32A32_SINT",
                    _ => "R32G32B32A32_FLOAT",
                };
                json!({"semantic": e["semantic_name"], "index": e["semantic_index"], "format": format, "offset": "append"})
            })
            .collect();
        let layout = dir.join(format!("{name}.json"));
        std::fs::write(
            &layout,
            serde_json::to_string(&json!({ "elements": elements })).unwrap(),
        )
        .unwrap();
        let r = inlay(&[
            "check",
            layout.to_str().unwrap(),
            "--shader",
            blob.to_str().unwrap(),
            "--json",
        ]);
        let v: Value = serde_json::from_str(&r.stdout).unwrap();
        if record["container"]["checksum_matches"] == true {
            assert_eq!(
                (r.code, &v["hresult"]),
                (0, &json!("S_OK")),
                "{name}: {}",
                r.stdout
            );
            assert_eq!(
                v["elements"].as_array().unwrap().len(),
                elements.len(),
                "{name}"
            );
        } else {
            assert_eq!(r.code, 1, "{name}: a blob with a bad digest is refused");
        }
        checked += 1;
    }
    eprintln!("corpus: {reported} vertex shaders reported, {checked} checked");
    assert!(reported > 50 && checked == reported, "{reported} {checked}");
    // Held-out blobs: every one reads without error.
    let mut heldout = 0;
    for e in std::fs::read_dir(corpus.join("dxbc-heldout"))
        .into_iter()
        .flatten()
    {
        let p = e.unwrap().path();
        let r = inlay(&["shader", p.to_str().unwrap()]);
        assert_eq!(r.code, 0, "{}: {}", p.display(), r.stderr);
        heldout += 1;
    }
    eprintln!("corpus: {heldout} held-out blobs listed");
    let _ = std::fs::remove_dir_all(&dir);
}
