//! Gives the shared library the ELF soname `libinlay.so.0` (ABI version 0), so programs
//! linked against it load the installed `libinlay.so.0` (install.sh makes the links).
//! For this package's tests it also records which of `../shared` and of the C tools this
//! machine has, as cfgs that mark the tests needing them ignored (docs/notes/tests.md).
include!("../inlay/testenv/build_side.rs");

fn main() {
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if os == "linux" || os.ends_with("bsd") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libinlay.so.0");
        soname_link();
    }
    testenv::emit(&[
        testenv::CC,
        testenv::CXX,
        testenv::PKG_CONFIG,
        testenv::CMAKE,
    ]);
}

/// `libinlay.so.0 -> libinlay.so` beside the library cargo writes (`target/release`), so a
/// program linked straight against the build (`-Ltarget/release -linlay`, which records the
/// soname) finds it there (issue 35 item 5). The link is made before the library is linked
/// and is dangling until then; it is the only file this script writes outside `OUT_DIR`.
#[cfg(unix)]
fn soname_link() {
    let Some(out) = std::env::var_os("OUT_DIR") else {
        return;
    };
    // OUT_DIR is <target>/<profile>/build/inlay-capi-HASH/out.
    let Some(profile_dir) = std::path::Path::new(&out).ancestors().nth(3) else {
        return;
    };
    let link = profile_dir.join("libinlay.so.0");
    if std::fs::read_link(&link).is_ok_and(|t| t.as_os_str() == "libinlay.so") {
        return;
    }
    let _ = std::fs::remove_file(&link);
    if let Err(e) = std::os::unix::fs::symlink("libinlay.so", &link) {
        println!(
            "cargo::warning=cannot link {} to libinlay.so: {e}",
            link.display()
        );
    }
}

#[cfg(not(unix))]
fn soname_link() {}
