//! Gives the shared library the ELF soname `libinlay.so.0` (ABI version 0), so programs
//! linked against it load the installed `libinlay.so.0` (install.sh makes the links).
fn main() {
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if os == "linux" || os.ends_with("bsd") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libinlay.so.0");
    }
}
