//! Runs inlay's own conformance suite (`conformance/` at the workspace root) and the shared
//! example cases (`$INLAY_SHARED/conformance/examples`, else `<workspace>/../shared/...`)
//! through `inlay_conform`, and fails on any failing case or malformed case file.
//!
//! Corpus-backed cases whose `.dxbc` file is absent are skipped, not failed.

use std::path::PathBuf;

use inlay_conform::{Report, RunOptions, Status, run_paths_with};

/// The corpus folder the cases' corpus shaders are found in ($INLAY_CORPUS, as for the CLI).
fn options() -> RunOptions {
    RunOptions {
        corpus: std::env::var_os("INLAY_CORPUS").map(PathBuf::from),
    }
}

fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn check(report: &Report) {
    let mut text = Vec::new();
    report.print_text(&mut text).unwrap();
    let text = String::from_utf8(text).unwrap();
    print!("{text}");
    for c in report.cases.iter().filter(|c| c.status == Status::Skipped) {
        eprintln!(
            "skipped: {}: {}: {}",
            c.file.display(),
            c.name,
            c.detail.as_deref().unwrap_or("")
        );
    }
    assert!(report.success(), "conformance failures:\n{text}");
}

#[test]
fn own_suite_passes() {
    let dir = workspace_root().join("conformance");
    let report = run_paths_with(&[dir], &options());
    check(&report);
    // The suite is at least 200 cases (issue 5); a folder that silently lost its files fails.
    assert!(
        report.cases.len() >= 200,
        "only {} cases found",
        report.cases.len()
    );
}

#[test]
fn shared_examples_pass() {
    let dir = match std::env::var_os("INLAY_SHARED") {
        Some(s) => PathBuf::from(s).join("conformance/examples"),
        None => workspace_root().join("../shared/conformance/examples"),
    };
    if !dir.is_dir() {
        // `.ci/run` sets INLAY_REQUIRE_SHARED=1: there a missing folder fails instead.
        assert!(
            std::env::var_os("INLAY_REQUIRE_SHARED").is_none_or(|v| v != "1"),
            "INLAY_REQUIRE_SHARED=1 but the shared conformance examples are not at {} \
             (set INLAY_SHARED)",
            dir.display()
        );
        eprintln!(
            "skipping: shared conformance examples not found at {}",
            dir.display()
        );
        return;
    }
    let report = run_paths_with(&[dir], &options());
    check(&report);
    assert!(!report.cases.is_empty());
}
