// The build-script half of the test-environment switches (docs/notes/tests.md), included by
// the build script of every package whose tests need something the repository does not ship:
// `include!("../inlay/testenv/build_side.rs");` then `testenv::emit(&[…tools…]);`.
//
// Stable Rust has no runtime `ignore`, so whether a test can run is decided when its crate is
// compiled: this looks for `../shared` (or `$INLAY_SHARED`), the fxc corpus (`$INLAY_CORPUS`,
// else `<shared>/corpus`) and the named tools, and sets one cfg per thing found. Tests carry
// `#[cfg_attr(not(inlay_has_corpus), ignore = "…")]`, so `cargo test` lists them as
// `ignored, <reason>` and counts them in its summary. The paths checked reach the tests as
// `INLAY_TEST_SHARED` / `INLAY_TEST_CORPUS` (compile-time `env!`), so a test reads exactly
// what its build saw. Cargo reruns this when either variable changes, when a folder that was
// found changes or disappears, or when this file changes; a folder that appears after the
// build is caught by the guard test (`testenv::check_build_saw_this_machine`).

#[allow(dead_code)]
mod testenv {
    use std::path::{Path, PathBuf};
    use std::process::Command;

    /// Every cfg a test may use; all are declared in every package (`check-cfg`), set or not.
    const CFGS: &[&str] = &[
        "inlay_has_shared",
        "inlay_has_corpus",
        "inlay_has_dxil_corpus",
        "inlay_has_dumps",
        "inlay_has_shared_examples",
        "inlay_has_cc",
        "inlay_has_cxx",
        "inlay_has_pkg_config",
        "inlay_has_cmake",
        "inlay_has_avx2",
    ];

    /// A tool a package's tests run: its cfg, the command, and the variable that overrides it.
    pub struct Tool {
        pub cfg: &'static str,
        pub command: &'static str,
        pub env: Option<&'static str>,
    }

    /// The C compiler (`$CC`, else `cc`).
    pub const CC: Tool = Tool { cfg: "inlay_has_cc", command: "cc", env: Some("CC") };
    /// The C++ compiler (`$CXX`, else `c++`).
    pub const CXX: Tool = Tool { cfg: "inlay_has_cxx", command: "c++", env: Some("CXX") };
    /// `pkg-config`.
    pub const PKG_CONFIG: Tool = Tool { cfg: "inlay_has_pkg_config", command: "pkg-config", env: None };
    /// `cmake`.
    pub const CMAKE: Tool = Tool { cfg: "inlay_has_cmake", command: "cmake", env: None };

    fn absolute(p: PathBuf) -> PathBuf {
        std::path::absolute(&p).unwrap_or(p)
    }

    /// Sets the cfgs and `INLAY_TEST_*` variables for this package's tests.
    pub fn emit(tools: &[Tool]) {
        println!("cargo::rerun-if-changed=build.rs");
        println!("cargo::rerun-if-changed=../inlay/testenv/build_side.rs");
        println!("cargo::rustc-check-cfg=cfg({})", CFGS.join(", "));
        for var in ["INLAY_SHARED", "INLAY_CORPUS"] {
            println!("cargo::rerun-if-env-changed={var}");
        }
        let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap());
        let shared = absolute(match std::env::var_os("INLAY_SHARED") {
            Some(p) => PathBuf::from(p),
            None => manifest.join("../../../shared"),
        });
        let corpus = absolute(match std::env::var_os("INLAY_CORPUS") {
            Some(p) => PathBuf::from(p),
            None => shared.join("corpus"),
        });
        println!("cargo::rustc-env=INLAY_TEST_SHARED={}", shared.display());
        println!("cargo::rustc-env=INLAY_TEST_CORPUS={}", corpus.display());
        let data = [
            ("inlay_has_shared", shared.clone()),
            ("inlay_has_corpus", corpus.join("dxbc")),
            ("inlay_has_dxil_corpus", corpus.join("dxil")),
            ("inlay_has_dumps", shared.join("dumps")),
            ("inlay_has_shared_examples", shared.join("conformance/examples")),
        ];
        for (cfg, dir) in data {
            if dir.is_dir() {
                println!("cargo::rustc-cfg={cfg}");
                // A folder that was found is watched (cargo scans it): its removal reruns this.
                // One that was not is not watched (a missing path would rerun this, and rebuild
                // the package, on every build); the guard test reports it when it appears.
                println!("cargo::rerun-if-changed={}", dir.display());
            }
        }
        let mut checked = Vec::new();
        for tool in tools {
            let command = tool
                .env
                .inspect(|var| println!("cargo::rerun-if-env-changed={var}"))
                .and_then(std::env::var_os)
                .map(PathBuf::from)
                .unwrap_or_else(|| PathBuf::from(tool.command));
            let runs = Command::new(&command)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success());
            if runs {
                println!("cargo::rustc-cfg={}", tool.cfg);
                if let Some(path) = on_path(&command) {
                    println!("cargo::rerun-if-changed={}", path.display());
                }
            }
            checked.push(format!("{}={}", tool.cfg, command.display()));
        }
        // Which tools this package's build looked for, so the guard test checks only those.
        println!("cargo::rustc-env=INLAY_TEST_TOOLS={}", checked.join(";"));
        let host_is_target = std::env::var("HOST").ok() == std::env::var("TARGET").ok();
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        if host_is_target && std::arch::is_x86_feature_detected!("avx2") {
            println!("cargo::rustc-cfg=inlay_has_avx2");
        }
        let _ = host_is_target;
    }

    /// Where `command` is found on `PATH` (or itself when it names a path).
    fn on_path(command: &Path) -> Option<PathBuf> {
        if command.components().count() > 1 {
            return command.is_file().then(|| command.to_path_buf());
        }
        std::env::split_paths(&std::env::var_os("PATH")?)
            .map(|dir| dir.join(command))
            .find(|p| p.is_file())
    }
}
