//! Gives the shared library the ELF soname `libinlay.so.0` (ABI version 0), so programs
//! linked against it load the installed `libinlay.so.0` (install.sh makes the links).
//! For this package's tests it also records which of `../shared` and of the C tools this
//! machine has, as cfgs that mark the tests needing them ignored (docs/notes/tests.md).
include!("../inlay/testenv/build_side.rs");

fn main() {
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if os == "linux" || os.ends_with("bsd") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libinlay.so.0");
    }
    testenv::emit(&[
        testenv::CC,
        testenv::CXX,
        testenv::PKG_CONFIG,
        testenv::CMAKE,
    ]);
}
