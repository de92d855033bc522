//! The test half of the test-environment switches (docs/notes/tests.md): where the data the
//! build saw is, and the guard that the build saw what this machine has.
//!
//! Include it from a test crate with
//! `#[path = "../../inlay/testenv/test_side.rs"] mod testenv;` (from `crates/inlay/tests`:
//! `"../testenv/test_side.rs"`); the package's `build.rs` runs `build_side.rs`. A test that
//! needs `../shared` data carries the matching attribute, for example
//! `#[cfg_attr(not(inlay_has_corpus), ignore = "needs the fxc corpus (../shared/corpus or $INLAY_CORPUS)")]`,
//! and reads its folder through the functions here.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;

/// `../shared` (or `$INLAY_SHARED`) as the build resolved it.
pub fn shared() -> PathBuf {
    PathBuf::from(env!("INLAY_TEST_SHARED"))
}

/// The fxc corpus folder (`$INLAY_CORPUS`, else `<shared>/corpus`) as the build resolved it.
pub fn corpus() -> PathBuf {
    PathBuf::from(env!("INLAY_TEST_CORPUS"))
}

/// The shared modding dumps (`<shared>/dumps`).
pub fn dumps() -> PathBuf {
    shared().join("dumps")
}

/// The shared conformance example cases (`<shared>/conformance/examples`).
pub fn shared_examples() -> PathBuf {
    shared().join("conformance/examples")
}

/// The corpus folder when the build found it (for tests that run either way and only pass
/// the folder on, such as a conformance run whose corpus cases are listed as skipped).
pub fn corpus_if_built() -> Option<PathBuf> {
    cfg!(inlay_has_corpus).then(corpus)
}

fn flag(var: &str) -> bool {
    std::env::var_os(var).is_some_and(|v| v == "1")
}

/// Fails when a test that the build compiled as ignored could run here, or when CI requires
/// what the build did not see: `INLAY_REQUIRE_SHARED=1` (`.ci/run`) requires every shared
/// folder, `INLAY_REQUIRE_C_TOOLS=1` every tool this package's build looked for. Each package
/// whose tests use the switches runs this from one test.
pub fn check_build_saw_this_machine() {
    let mut problems = Vec::new();
    let data = [
        ("inlay_has_shared", cfg!(inlay_has_shared), shared()),
        (
            "inlay_has_corpus",
            cfg!(inlay_has_corpus),
            corpus().join("dxbc"),
        ),
        (
            "inlay_has_dxil_corpus",
            cfg!(inlay_has_dxil_corpus),
            corpus().join("dxil"),
        ),
        ("inlay_has_dumps", cfg!(inlay_has_dumps), dumps()),
        (
            "inlay_has_shared_examples",
            cfg!(inlay_has_shared_examples),
            shared_examples(),
        ),
    ];
    for (cfg, built, dir) in data {
        let here = dir.is_dir();
        if flag("INLAY_REQUIRE_SHARED") && !built {
            problems.push(format!(
                "INLAY_REQUIRE_SHARED=1 but this build did not find {} ({cfg}): set \
                 INLAY_SHARED / INLAY_CORPUS",
                dir.display()
            ));
        } else if here && !built {
            problems.push(format!(
                "{} exists but did not when this test was built ({cfg} unset), so the tests \
                 that need it were compiled as ignored: `touch` the package's build.rs (or \
                 run `cargo clean`) and test again",
                dir.display()
            ));
        }
    }
    let tools = env!("INLAY_TEST_TOOLS");
    for entry in tools.split(';').filter(|e| !e.is_empty()) {
        let (cfg, command) = entry.split_once('=').unwrap();
        let built = match cfg {
            "inlay_has_cc" => cfg!(inlay_has_cc),
            "inlay_has_cxx" => cfg!(inlay_has_cxx),
            "inlay_has_pkg_config" => cfg!(inlay_has_pkg_config),
            "inlay_has_cmake" => cfg!(inlay_has_cmake),
            other => panic!("unknown tool cfg {other}"),
        };
        let here = Command::new(command)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        if flag("INLAY_REQUIRE_C_TOOLS") && !built {
            problems.push(format!(
                "INLAY_REQUIRE_C_TOOLS=1 but this build did not find `{command}` ({cfg})"
            ));
        } else if here && !built {
            problems.push(format!(
                "`{command}` runs but did not when this test was built ({cfg} unset): `touch` \
                 the package's build.rs and test again"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
