//! Every real fxc blob of the shared corpus against its record (shared/corpus/README.md), and
//! every held-out blob parsed without error.
//!
//! Corpus location: `$INLAY_CORPUS`, else `$INLAY_SHARED/corpus`, else
//! `<workspace root>/../shared/corpus`; without it both tests are listed as ignored
//! (docs/notes/tests.md).

use std::fs;
use std::path::{Path, PathBuf};

use inlay::dxbc::report::ShaderReport;
use inlay::dxbc::signature::mask_letters;
use inlay::dxbc::{Container, SignatureKind, parse_signature_chunk, write_signature_chunk};
use serde_json::Value;

#[path = "../testenv/test_side.rs"]
mod testenv;

/// The corpus folder the build found (the tests needing it are ignored without it).
fn corpus_dir() -> PathBuf {
    testenv::corpus()
}

fn blobs(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "dxbc"))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

fn hex(d: &[u8]) -> String {
    d.iter().map(|b| format!("{b:02x}")).collect()
}

/// Rebuilding from the parsed chunks keeps every chunk byte for byte, and the whole blob when
/// the stored digest is the standard one (the header layout is canonical). Signature chunks
/// re-written from their parsed form are byte-identical to fxc's.
fn check_round_trips(name: &str, bytes: &[u8], c: &Container<'_>, errs: &mut Vec<String>) {
    let rebuilt = c.rewrite();
    let r = match Container::parse(&rebuilt) {
        Ok(r) => r,
        Err(e) => {
            errs.push(format!("{name}: rewritten blob does not parse: {e}"));
            return;
        }
    };
    if !r.checksum_matches() {
        errs.push(format!("{name}: rewritten blob has a bad digest"));
    }
    let a: Vec<_> = c.chunks().map(|x| (x.tag, x.data)).collect();
    let b: Vec<_> = r.chunks().map(|x| (x.tag, x.data)).collect();
    if a != b {
        errs.push(format!("{name}: rewritten chunks differ"));
    }
    if c.checksum_matches() && rebuilt != bytes {
        errs.push(format!("{name}: rewritten blob differs from the original"));
    }
    for ch in c.chunks() {
        let Some(kind) = SignatureKind::from_tag(ch.tag) else {
            continue;
        };
        match parse_signature_chunk(kind, ch.data) {
            Ok(sig) => {
                let again = write_signature_chunk(kind, &sig);
                if again != ch.data {
                    errs.push(format!("{name}: {} re-written differs from fxc's", ch.tag));
                }
                match parse_signature_chunk(kind, &again) {
                    Ok(s2) if s2 == sig => {}
                    _ => errs.push(format!("{name}: {} does not round-trip", ch.tag)),
                }
            }
            Err(e) => errs.push(format!("{name}: {} does not parse: {e}", ch.tag)),
        }
    }
}

fn check_record(name: &str, bytes: &[u8], rec: &Value, errs: &mut Vec<String>) {
    let mut fail = |what: String| errs.push(format!("{name}: {what}"));
    let c = match Container::parse(bytes) {
        Ok(c) => c,
        Err(e) => {
            fail(format!("does not parse: {e}"));
            return;
        }
    };
    let cont = &rec["container"];
    if cont["size"].as_u64() != Some(bytes.len() as u64) || c.size() != bytes.len() {
        fail(format!("size {} vs record {}", c.size(), cont["size"]));
    }
    if cont["checksum"].as_str() != Some(hex(&c.digest()).as_str()) {
        fail(format!(
            "stored digest {} vs record {}",
            hex(&c.digest()),
            cont["checksum"]
        ));
    }
    if cont["checksum_matches"].as_bool() != Some(c.checksum_matches()) {
        fail(format!(
            "checksum_matches {} vs record",
            c.checksum_matches()
        ));
    }
    let version = c.shader_version();
    if let Some(stage) = rec["stage"].as_str()
        && version.map(|v| v.stage.name()) != Some(stage)
    {
        fail(format!("stage {version:?} vs record {stage}"));
    }
    if let Some(model) = rec["shader_model"].as_str()
        && c.shader_model_string().as_deref() != Some(model)
    {
        fail(format!(
            "shader model {:?} vs record {model}",
            c.shader_model_string()
        ));
    }
    if let Some(profile) = rec["profile"].as_str()
        && c.profile().as_deref() != Some(profile)
    {
        fail(format!("profile {:?} vs record {profile}", c.profile()));
    }
    if let Some(l9) = rec["level9_bytecode"].as_str() {
        let got = c.level9_bytecode().and_then(|l| l.profile());
        if got.as_deref() != Some(l9) {
            fail(format!("level-9 code {got:?} vs record {l9}"));
        }
    } else if c.has_level9_bytecode() && rec["shader_model"].is_string() {
        fail("Aon9 chunk present but the record has no level9_bytecode".into());
    }

    let sig = match c.input_signature() {
        Ok(Some(s)) => s,
        Ok(None) => {
            fail("no input signature chunk".into());
            return;
        }
        Err(e) => {
            fail(format!("input signature: {e}"));
            return;
        }
    };
    let want = rec["input_signature"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    if want.len() != sig.elements.len() {
        fail(format!(
            "{} input elements vs record {}",
            sig.elements.len(),
            want.len()
        ));
        return;
    }
    for (i, (e, w)) in sig.elements.iter().zip(&want).enumerate() {
        let mut field = |f: &str, got: Value| {
            let exp = &w[f];
            if !exp.is_null() && *exp != got {
                fail(format!("input element {i} {f}: {got} vs record {exp}"));
            }
        };
        field("semantic_name", Value::from(e.semantic_name.clone()));
        field("semantic_index", Value::from(e.semantic_index));
        field(
            "system_value",
            Value::from(e.system_value.fxc_name().unwrap_or("?")),
        );
        field("component_type", Value::from(e.component_type.fxc_name()));
        if e.register().is_some() {
            field("register", Value::from(e.register));
            field("mask", Value::from(mask_letters(e.mask)));
            field("used", Value::from(mask_letters(e.read_write_mask)));
        }
        // N/A rows: the record has register null and the listing's special register.
        let reg_null = w.get("register").is_some_and(Value::is_null);
        let listed_na = w.get("listing_register").is_some();
        if (reg_null && listed_na) != e.register().is_none() {
            fail(format!(
                "input element {i}: register {:#x} vs N/A row {listed_na}",
                e.register
            ));
        }
        match (
            w.get("min_precision").and_then(Value::as_str),
            e.min_precision.corpus_name(),
        ) {
            (a, b) if a == b => {}
            (a, b) => fail(format!(
                "input element {i} min_precision {b:?} vs record {a:?}"
            )),
        }
    }

    // The serialisable report uses the record's field names and spellings exactly.
    let report = match ShaderReport::new(&c) {
        Ok(r) => r,
        Err(e) => {
            fail(format!("report: {e}"));
            return;
        }
    };
    let json = serde_json::to_value(&report).unwrap_or(Value::Null);
    if let Some(stage) = rec["stage"].as_str()
        && json["stage"] != stage
    {
        fail(format!("report stage {}", json["stage"]));
    }
    if !rec["shader_model"].is_null() && json["shader_model"] != rec["shader_model"] {
        fail(format!("report shader_model {}", json["shader_model"]));
    }
    if json["container"]["checksum_matches"] != cont["checksum_matches"] {
        fail("report checksum_matches".into());
    }
    // The record's container object and profile, under the same names.
    for k in ["size", "checksum", "checksum_matches"] {
        if json["container"][k] != cont[k] {
            fail(format!(
                "report container.{k} {} vs record {}",
                json["container"][k], cont[k]
            ));
        }
    }
    if !rec["profile"].is_null() && json["profile"] != rec["profile"] {
        fail(format!(
            "report profile {} vs record {}",
            json["profile"], rec["profile"]
        ));
    }
    for k in ["level9_bytecode"] {
        if !rec[k].is_null() && json[k] != rec[k] {
            fail(format!("report {k} {} vs record {}", json[k], rec[k]));
        }
    }
    let got = json["input_signature"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        let Some(wobj) = w.as_object() else { continue };
        for (k, v) in wobj {
            if !v.is_null() && g.get(k) != Some(v) {
                fail(format!(
                    "report input element {i} {k}: {:?} vs record {v}",
                    g.get(k)
                ));
            }
        }
        if let Some(gobj) = g.as_object() {
            for k in gobj.keys() {
                if !wobj.contains_key(k) {
                    fail(format!("report input element {i} has extra field {k}"));
                }
            }
        }
    }
}

#[test]
#[cfg_attr(
    not(inlay_has_corpus),
    ignore = "needs the fxc corpus: ../shared/corpus or $INLAY_CORPUS"
)]
fn visible_corpus_matches_records() {
    let dir = corpus_dir();
    let files = blobs(&dir.join("dxbc"));
    assert!(
        files.len() >= 300,
        "only {} blobs in {}",
        files.len(),
        dir.display()
    );
    let mut errs = Vec::new();
    let mut mismatched_digests = Vec::new();
    for p in &files {
        let name = p.file_stem().unwrap().to_string_lossy().into_owned();
        let bytes = fs::read(p).unwrap();
        let rec: Value = match fs::read_to_string(p.with_extension("json")) {
            Ok(t) => serde_json::from_str(&t).unwrap(),
            Err(e) => {
                errs.push(format!("{name}: no record: {e}"));
                continue;
            }
        };
        check_record(&name, &bytes, &rec, &mut errs);
        if let Ok(c) = Container::parse(&bytes) {
            if !c.checksum_matches() {
                mismatched_digests.push(name.clone());
            }
            check_round_trips(&name, &bytes, &c, &mut errs);
        }
    }
    assert!(
        errs.is_empty(),
        "{} problems:\n{}",
        errs.len(),
        errs.join("\n")
    );
    // The one visible anomaly (README, *Anomalies*).
    assert_eq!(
        mismatched_digests,
        vec!["dxdecompiler__3Dmigoto_debug".to_string()]
    );
}

#[test]
#[cfg_attr(
    not(inlay_has_corpus),
    ignore = "needs the fxc corpus: ../shared/corpus or $INLAY_CORPUS"
)]
fn heldout_corpus_parses() {
    let dir = corpus_dir();
    let files = blobs(&dir.join("dxbc-heldout"));
    assert!(!files.is_empty(), "no held-out blobs in {}", dir.display());
    let mut errs = Vec::new();
    let mut mismatched_digests = Vec::new();
    for p in &files {
        let name = p.file_stem().unwrap().to_string_lossy().into_owned();
        let bytes = fs::read(p).unwrap();
        let c = match Container::parse(&bytes) {
            Ok(c) => c,
            Err(e) => {
                errs.push(format!("{name}: {e}"));
                continue;
            }
        };
        if c.shader_version().is_none() || c.shader_model_string().is_none() {
            errs.push(format!("{name}: no shader version"));
        }
        for kind in SignatureKind::ALL {
            if let Err(e) = c.signature(kind) {
                errs.push(format!("{name}: {e}"));
            }
        }
        match c.input_signature() {
            Ok(Some(_)) => {}
            other => errs.push(format!("{name}: input signature {other:?}")),
        }
        if let Err(e) = ShaderReport::new(&c) {
            errs.push(format!("{name}: report: {e}"));
        }
        if let Err(e) = inlay::dxbc::report::listing(&c) {
            errs.push(format!("{name}: listing: {e}"));
        }
        if !c.checksum_matches() {
            mismatched_digests.push(name.clone());
        }
        check_round_trips(&name, &bytes, &c, &mut errs);
    }
    assert!(
        errs.is_empty(),
        "{} problems:\n{}",
        errs.len(),
        errs.join("\n")
    );
    assert_eq!(
        mismatched_digests,
        vec!["dxdecompiler__FxDis_test_PS".to_string()]
    );
}

/// The build saw the `../shared` folders and tools this machine has (and, under `.ci/run`,
/// all of them): otherwise a test above would be ignored that could run.
#[test]
fn build_saw_this_machine() {
    testenv::check_build_saw_this_machine();
}
