//! Every real dxc container of the shared DXIL corpus against its MANIFEST entry
//! (shared/corpus/dxil/MANIFEST.md, written from an independent parser): stage and shader
//! model, DXIL version, size, parts, SFI0 flags, the ISG1 table row for row and the OSG1 /
//! PSG1 summaries; each ISG1 entry is also found in the container's own PSV0 record.
//!
//! Corpus location: `$INLAY_CORPUS`, else `<workspace root>/../shared/corpus`; skipped with a
//! notice when absent (a failure under `INLAY_REQUIRE_SHARED`).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use inlay::dxbc::dxil::Psv0;
use inlay::dxbc::signature::SignatureElement;
use inlay::dxbc::{Container, ContainerRules, NO_REGISTER, SignatureKind, SystemValue};

fn corpus_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("INLAY_CORPUS") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"),
    };
    if dir.join("dxil/MANIFEST.md").is_file() {
        Some(dir.join("dxil"))
    } else {
        assert!(
            std::env::var_os("INLAY_REQUIRE_SHARED").is_none(),
            "INLAY_REQUIRE_SHARED is set but {}/dxil/MANIFEST.md is missing",
            dir.display()
        );
        eprintln!("skipping: DXIL corpus not found at {}/dxil", dir.display());
        None
    }
}

/// One file's section of the MANIFEST.
#[derive(Default, Debug)]
struct Entry {
    stage_model: String,
    dxil: String,
    size: usize,
    parts: String,
    sfi0: Option<String>,
    isg1: Vec<String>,
    isg1_empty: bool,
    outputs: BTreeMap<String, String>,
}

fn manifest(text: &str) -> BTreeMap<String, Entry> {
    let mut out: BTreeMap<String, Entry> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        if let Some(head) = line.strip_prefix("### ") {
            // A removed file's section ("### `name` (removed: …)") ends the previous one.
            current = head
                .strip_prefix('`')
                .and_then(|r| r.strip_suffix('`'))
                .map(str::to_string);
            if let Some(name) = &current {
                out.insert(name.clone(), Entry::default());
            }
            continue;
        }
        let Some(e) = current.as_ref().and_then(|c| out.get_mut(c)) else {
            continue;
        };
        if let Some(r) = line.strip_prefix("- stage / model: **") {
            let (sm, rest) = r.split_once("**").unwrap();
            e.stage_model = sm.to_string();
            e.dxil = rest
                .split_once("), DXIL ")
                .unwrap()
                .1
                .split(';')
                .next()
                .unwrap()
                .to_string();
        } else if let Some(r) = line.strip_prefix("- size ") {
            e.size = r.split(' ').next().unwrap().parse().unwrap();
        } else if let Some(r) = line.strip_prefix("- parts: ") {
            e.parts = r.to_string();
        } else if let Some(r) = line.strip_prefix("- SFI0 flags: ") {
            // "0x40000 (NativeLowPrecision)": the value before the names.
            e.sfi0 = Some(r.split(' ').next().unwrap_or("").to_string());
        } else if line.starts_with("- ISG1: empty") {
            e.isg1_empty = true;
        } else if let Some(r) = line.strip_prefix("  | ") {
            if !r.starts_with("name |") && !r.starts_with("---") {
                e.isg1.push(r.trim_end_matches(" |").to_string());
            }
        } else if let Some(r) = line
            .strip_prefix("- OSG1 ")
            .or_else(|| line.strip_prefix("- PSG1 "))
        {
            let tag = &line[2..6];
            let list = r.split_once("): ").map(|x| x.1).unwrap_or("");
            e.outputs.insert(tag.to_string(), list.to_string());
        }
    }
    out
}

/// The MANIFEST's spellings (its column header: name, index, register, mask with the read
/// mask in brackets when it differs, component type, system value, minimum precision).
fn mask(m: u8) -> String {
    "xyzw"
        .chars()
        .enumerate()
        .map(|(i, c)| if m & (1 << i) != 0 { c } else { '_' })
        .collect()
}

fn sysval(sv: SystemValue) -> String {
    if sv == SystemValue::UNDEFINED {
        "NONE".into()
    } else {
        sv.semantic().map_or(format!("SV{}", sv.0), str::to_string)
    }
}

fn min_precision(code: u32) -> &'static str {
    match code {
        0 => "default",
        1 => "min16float",
        2 => "min10float",
        4 => "min16int",
        5 => "min16uint",
        _ => "other",
    }
}

fn row(e: &SignatureElement) -> String {
    let reg = if e.register == NO_REGISTER {
        "none".to_string()
    } else {
        e.register.to_string()
    };
    let m = if e.read_write_mask & 0xf == e.mask & 0xf {
        mask(e.mask)
    } else {
        format!("{} ({})", mask(e.mask), mask(e.read_write_mask))
    };
    format!(
        "{} | {} | {reg} | {m} | {} | {} | {}",
        e.semantic_name,
        e.semantic_index,
        e.component_type.dxil_name(),
        sysval(e.system_value),
        min_precision(e.min_precision.0)
    )
}

fn summary(e: &SignatureElement) -> String {
    let reg = if e.register == NO_REGISTER {
        "none".to_string()
    } else {
        e.register.to_string()
    };
    let mut s = format!(
        "{}{} r{reg} {} {}",
        e.semantic_name,
        e.semantic_index,
        mask(e.mask),
        e.component_type.dxil_name()
    );
    if e.min_precision.0 != 0 {
        s.push(' ');
        s.push_str(min_precision(e.min_precision.0));
    }
    if e.stream != 0 {
        s.push_str(&format!(" stream{}", e.stream));
    }
    s
}

/// Each ISG1 entry is a row of a PSV0 input element of the same name, component type and
/// semantic index, at the same register (row) when allocated.
fn cross_check(sig: &[SignatureElement], psv: &Psv0) -> Result<(), String> {
    for e in sig {
        // PSV0 keeps system values without a name, under their semantic kind.
        let same_name = |p: &inlay::dxbc::dxil::PsvSignatureElement| {
            if p.semantic_name.is_empty() {
                p.semantic_kind
                    .name()
                    .is_some_and(|k| e.semantic_name.eq_ignore_ascii_case(&format!("SV_{k}")))
            } else {
                p.semantic_name.eq_ignore_ascii_case(&e.semantic_name)
            }
        };
        let found = psv.inputs.iter().any(|p| {
            same_name(p)
                && p.component_type == e.component_type
                && p.semantic_indexes
                    .iter()
                    .position(|&i| i == e.semantic_index)
                    .is_some_and(|k| p.start_row.map(|r| u32::from(r) + k as u32) == e.register())
        });
        if !found {
            return Err(format!(
                "{}{} is not in PSV0's inputs",
                e.semantic_name, e.semantic_index
            ));
        }
    }
    if psv.inputs.len() > sig.len() {
        return Err(format!(
            "PSV0 has {} inputs, ISG1 {}",
            psv.inputs.len(),
            sig.len()
        ));
    }
    Ok(())
}

#[test]
fn dxil_corpus_matches_manifest() {
    let Some(dir) = corpus_dir() else { return };
    let text = fs::read_to_string(dir.join("MANIFEST.md")).unwrap();
    let entries = manifest(&text);
    assert_eq!(entries.len(), 74, "MANIFEST entries");
    let mut errs = Vec::new();
    let mut vertex_inputs = 0;
    let mut unaligned = 0;
    for (name, want) in &entries {
        let bytes = fs::read(dir.join(name)).unwrap();
        let mut err = |m: String| errs.push(format!("{name}: {m}"));
        // D3D11's rules refuse some of them (unaligned parts), D3D12's read them all.
        if Container::parse(&bytes).is_err() {
            unaligned += 1;
        }
        let c = match Container::parse_detected(&bytes) {
            Ok(c) => c,
            Err(e) => {
                err(format!("does not parse: {e}"));
                continue;
            }
        };
        assert_eq!(c.rules(), ContainerRules::Dxc);
        let prog = c.dxil_program().unwrap().unwrap();
        let got = format!("{} {}", c.stage_name().unwrap(), prog.profile());
        if got != want.stage_model {
            err(format!("stage/model {got}, manifest {}", want.stage_model));
        }
        if prog.dxil_version_string() != want.dxil {
            err(format!("DXIL {}", prog.dxil_version_string()));
        }
        if c.size() != want.size || bytes.len() != want.size {
            err(format!("size {}", c.size()));
        }
        let parts: Vec<String> = c.chunks().map(|p| p.tag.to_string()).collect();
        if parts.join(" ") != want.parts {
            err(format!("parts {}", parts.join(" ")));
        }
        if let Some(flags) = &want.sfi0 {
            let f = c.feature_flags().unwrap().unwrap();
            if format!("{:#x}", f.0) != *flags {
                err(format!("SFI0 {:#x}", f.0));
            }
        }
        if !c.checksum_matches() {
            err("digest is not the validator's hash".into());
        }
        // ISG1 row for row.
        let isg1 = c.signature(SignatureKind::Isg1).unwrap();
        let rows: Vec<String> = isg1
            .as_ref()
            .map(|s| s.elements.iter().map(row).collect())
            .unwrap_or_default();
        if want.isg1_empty != (isg1.is_some() && rows.is_empty()) || rows != want.isg1 {
            err(format!(
                "ISG1\n  ours:     {rows:?}\n  manifest: {:?}",
                want.isg1
            ));
        }
        if prog.kind().name() == Some("vertex") && !rows.is_empty() {
            vertex_inputs += 1;
        }
        for (tag, kind) in [("OSG1", SignatureKind::Osg1), ("PSG1", SignatureKind::Psg1)] {
            if let Some(list) = want.outputs.get(tag) {
                let sig = c.signature(kind).unwrap().unwrap_or_default();
                let ours: Vec<String> = sig.elements.iter().map(summary).collect();
                if ours.join(", ") != *list {
                    err(format!("{tag} {}", ours.join(", ")));
                }
            }
        }
        if let (Some(psv), Some(sig)) = (c.psv0(), isg1.as_ref()) {
            match psv {
                Ok(p) => {
                    if let Err(e) = cross_check(&sig.elements, &p) {
                        err(format!("PSV0 cross-check: {e}"));
                    }
                    if p.shader_stage() != Some(prog.kind()) && p.version() >= Some(1) {
                        err("PSV0 stage differs".into());
                    }
                }
                Err(e) => err(format!("PSV0: {e}")),
            }
        }
    }
    assert!(
        errs.is_empty(),
        "{} problems:\n{}",
        errs.len(),
        errs.join("\n")
    );
    // The MANIFEST's counts: 39 vertex shaders, 36 of them with input elements; 8
    // containers D3D11's alignment rule (R31) refuses.
    assert_eq!(unaligned, 8, "containers with unaligned parts");
    assert_eq!(vertex_inputs, 36, "vertex shaders with input elements");
}

/// D3D12 reads every container with dxc's rules (d3d12-rules.md P2): fxc's DXBC output
/// satisfies them too, so no fxc blob of the shared corpus is refused under D3D12.
#[test]
fn fxc_corpus_satisfies_dxc_rules() {
    let Some(dir) = corpus_dir() else { return };
    let mut n = 0;
    for e in fs::read_dir(dir.join("../dxbc")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "dxbc") {
            let b = fs::read(&p).unwrap();
            if let Err(e) = Container::parse_with(&b, ContainerRules::Dxc) {
                panic!("{}: {e}", p.display());
            }
            n += 1;
        }
    }
    assert!(n >= 300, "only {n} fxc blobs");
}

/// Every vertex shader of the corpus creates a D3D12 pipeline state with a layout built
/// from its own ISG1 (one element per non-system input, a format of the entry's type and
/// width), with no error and no warning except TYPE_MISMATCH (#245) for 16-bit inputs (P15);
/// under D3D11 the same layout is refused exactly for the containers whose parts are not
/// 4-byte aligned (R31, #161).
#[test]
fn dxil_vertex_shaders_create_pipeline_states() {
    use inlay::diag::MessageId;
    use inlay::dxbc::ComponentType;
    use inlay::element::{APPEND_ALIGNED_ELEMENT, InputElementDesc};
    use inlay::format::Format;
    use inlay::target::{Api, FeatureLevel, Target};
    let Some(dir) = corpus_dir() else { return };
    let mut n = 0;
    for e in fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_none_or(|x| x != "dxil") {
            continue;
        }
        let bytes = fs::read(&p).unwrap();
        let c = Container::parse_detected(&bytes).unwrap();
        if c.stage_name().as_deref() != Some("vertex") {
            continue;
        }
        n += 1;
        let sig = c.input_signature().unwrap().unwrap_or_default();
        let mut sixteen = false;
        let elements: Vec<InputElementDesc> = sig
            .elements
            .iter()
            .filter(|e| !inlay::validation::is_system_generated_input(&e.semantic_name))
            .map(|e| {
                let width = (e.mask & 0xf).count_ones().max(1);
                let ty = e.component_type.register_class();
                sixteen |= ty.is_some() && ty != Some(e.component_type);
                let f = match (ty, width) {
                    (Some(ComponentType::UINT32), 1) => Format::R32_UINT,
                    (Some(ComponentType::UINT32), 2) => Format::R32G32_UINT,
                    (Some(ComponentType::UINT32), 3) => Format::R32G32B32_UINT,
                    (Some(ComponentType::UINT32), _) => Format::R32G32B32A32_UINT,
                    (Some(ComponentType::SINT32), _) => Format::R32G32B32A32_SINT,
                    (_, 1) => Format::R32_FLOAT,
                    (_, 2) => Format::R32G32_FLOAT,
                    (_, 3) => Format::R32G32B32_FLOAT,
                    _ => Format::R32G32B32A32_FLOAT,
                };
                InputElementDesc::per_vertex(
                    &e.semantic_name,
                    e.semantic_index,
                    f,
                    0,
                    APPEND_ALIGNED_ELEMENT,
                )
            })
            .collect();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        let t12 = Target::new(Api::D3D12, FeatureLevel::L12_0);
        let c12 = inlay::create_input_layout(&t12, &elements, &bytes);
        assert!(c12.is_success(), "{name}: {:?}", c12.diagnostics);
        let want_warnings: Vec<MessageId> = if sixteen {
            vec![MessageId(245)]
        } else {
            vec![]
        };
        let mut warnings = c12.warning_ids();
        warnings.dedup();
        let want_warnings = if elements.is_empty() {
            vec![MessageId(253)]
        } else {
            want_warnings
        };
        assert_eq!(warnings, want_warnings, "{name}");
        let c11 = inlay::create_input_layout(&Target::default(), &elements, &bytes);
        let aligned = Container::parse(&bytes).is_ok();
        assert_eq!(c11.is_success(), aligned, "{name}: {:?}", c11.diagnostics);
        if !aligned {
            assert!(
                c11.error_ids()
                    .contains(&MessageId::CREATEINPUTLAYOUT_UNPARSEABLEINPUTSIGNATURE)
            );
        }
    }
    assert_eq!(n, 39, "vertex shaders");
}
