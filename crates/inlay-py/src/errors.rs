//! The `inlay.LayoutError` exception family, and the conversions from library errors.
//!
//! Messages carry the same words as the `inlay` command line: a layout text error is
//! `NAME:LINE:COLUMN: message (found `TEXT`)`, a refused creation lists its HRESULT and
//! debug-layer messages, a refused draw or binding says what the input assembler says.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use inlay::text::TextError;
use inlay::validation::Creation;

create_exception!(
    inlay,
    LayoutError,
    PyValueError,
    "Base class of every error inlay raises for bad input (a ValueError)."
);
create_exception!(
    inlay,
    ParseError,
    LayoutError,
    "A layout source that cannot be read; `.line`, `.column` and `.found` say where."
);
create_exception!(
    inlay,
    CreateError,
    LayoutError,
    "CreateInputLayout refused the layout; `.hresult` and `.diagnostics` say why."
);
create_exception!(
    inlay,
    DrawError,
    LayoutError,
    "The input assembler refused a binding, a topology or a draw call."
);
create_exception!(
    inlay,
    DumpError,
    LayoutError,
    "A capture dump that cannot be read or exported; the message names the file, line and value."
);

/// Adds the exception classes to the module.
pub fn register(py: Python<'_>, m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("LayoutError", py.get_type::<LayoutError>())?;
    m.add("ParseError", py.get_type::<ParseError>())?;
    m.add("CreateError", py.get_type::<CreateError>())?;
    m.add("DrawError", py.get_type::<DrawError>())?;
    m.add("DumpError", py.get_type::<DumpError>())?;
    Ok(())
}

/// A layout text error: `NAME:LINE:COLUMN: message`, with the position as attributes.
pub fn parse_error(py: Python<'_>, name: &str, e: &TextError) -> PyErr {
    let err = ParseError::new_err(format!("{name}:{e}"));
    let v = err.value(py);
    let _ = v.setattr("source_name", name);
    let _ = v.setattr("line", e.line);
    let _ = v.setattr("column", e.column);
    let _ = v.setattr("found", e.found.as_str());
    err
}

/// A refused creation (E_INVALIDARG): the HRESULT, then each error message on its own line,
/// as `inlay check` prints them.
pub fn create_error(py: Python<'_>, creation: &Creation) -> PyErr {
    let mut msg = format!(
        "CreateInputLayout returns {} (the layout is refused)",
        creation.hresult
    );
    for d in creation.errors() {
        msg.push_str("\n  ");
        msg.push_str(&d.to_string());
    }
    let err = CreateError::new_err(msg);
    let v = err.value(py);
    let _ = v.setattr("hresult", creation.hresult.name());
    let diags: Vec<crate::create::Diagnostic> = creation
        .diagnostics
        .iter()
        .map(crate::create::Diagnostic::from)
        .collect();
    if let Ok(list) = diags.into_pyobject(py) {
        let _ = v.setattr("diagnostics", list);
    }
    err
}

/// A plain [`LayoutError`].
pub fn layout_error(msg: impl Into<String>) -> PyErr {
    LayoutError::new_err(msg.into())
}

/// A [`DrawError`].
pub fn draw_error(msg: impl Into<String>) -> PyErr {
    DrawError::new_err(msg.into())
}
