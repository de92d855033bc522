//! `inlay._inlay`: the native half of the `inlay` Python package (PyO3 + numpy).
//!
//! A thin shell over public calls of the `inlay` library: layout text goes through
//! `inlay::text`, creation through `inlay::validation`, draws through `inlay::assembler`
//! (bindings, draw resolution, the walk, primitives), the vertex data through the fast
//! per-element fetch of `inlay::fetch`, written straight into numpy arrays allocated once,
//! and back through `inlay::encode`.
//! The Python-facing names, docstrings and type stubs live in `python/inlay/`.
//!
//! Errors are Python exceptions of the `inlay.LayoutError` family, with the words the CLI
//! uses; the library never panics on bad input, and PyO3 turns any panic that still happened
//! into a `pyo3_runtime.PanicException` instead of aborting the interpreter.

// PyO3's macros expand to code that needs no `unsafe` of ours; the one raw access (numpy's
// output arrays) goes through rust-numpy's safe borrow API.
#![forbid(unsafe_code)]

mod create;
mod decode;
mod dump;
mod encode;
mod errors;
mod frame;
mod layout;
mod modfile;

use pyo3::prelude::*;

/// The extension module, imported by `python/inlay/__init__.py` as `inlay._inlay`.
#[pymodule]
fn _inlay(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    errors::register(py, m)?;
    m.add_class::<layout::Layout>()?;
    m.add_class::<create::InputLayout>()?;
    m.add_class::<create::Diagnostic>()?;
    m.add_function(wrap_pyfunction!(create::create_input_layout, m)?)?;
    m.add_function(wrap_pyfunction!(decode::decode, m)?)?;
    m.add_function(wrap_pyfunction!(encode::encode, m)?)?;
    m.add_class::<dump::NativeDump>()?;
    m.add_function(wrap_pyfunction!(dump::load_dump, m)?)?;
    m.add_function(wrap_pyfunction!(dump::export, m)?)?;
    m.add_function(wrap_pyfunction!(dump::fmt_text, m)?)?;
    // `inlay.load_frame` (frame.rs).
    m.add_class::<frame::NativeFrame>()?;
    m.add_function(wrap_pyfunction!(frame::load_frame, m)?)?;
    m.add_function(wrap_pyfunction!(decode::library_decode_seconds, m)?)?;
    m.add_function(wrap_pyfunction!(decode::bench_workload, m)?)?;
    m.add_function(wrap_pyfunction!(layout::format_info, m)?)?;
    // Finished 3DMigoto mods (inlay::migoto_mod).
    m.add_function(wrap_pyfunction!(modfile::load_mod, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
