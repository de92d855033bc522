//! The capture readers on arbitrary bytes (issue 18: the dump parsers are the doors most
//! exposed to files from the internet): 3DMigoto `vb`/`ib` text (with and without values),
//! the importers' `.fmt`, RenderDoc mesh-view CSV. Nothing may panic; every error names the
//! file it was given and a line inside the text; a CSV capture (which carries its own data)
//! builds a mesh or refuses with an error value.
#![no_main]

use inlay::capture::{CaptureError, csv, fmt, migoto};
use inlay::mesh::{Mesh, MeshOptions};
use libfuzzer_sys::fuzz_target;

fn check(text: &[u8], file: &str, e: &CaptureError) {
    assert_eq!(e.file, file, "{e:?}");
    if let Some(line) = e.line {
        let lines = text.split(|&b| b == b'\n').count().max(1);
        assert!(line >= 1 && line <= lines + 1, "line {line} of {lines}: {e:?}");
    }
    assert!(e.value.as_ref().is_none_or(|v| v.chars().count() <= 64), "{e:?}");
}

fuzz_target!(|data: &[u8]| {
    for values in [false, true] {
        if let Err(e) = migoto::parse_vb_txt("f-vb0=1.txt", data, values) {
            check(data, "f-vb0=1.txt", &e);
        }
    }
    if let Err(e) = migoto::parse_ib_txt("f-ib=2.txt", data) {
        check(data, "f-ib=2.txt", &e);
    }
    if let Err(e) = fmt::parse("f.fmt", data) {
        check(data, "f.fmt", &e);
    }
    match csv::parse("f.csv", data) {
        Err(e) => check(data, "f.csv", &e),
        Ok(capture) => {
            let _ = Mesh::from_capture(&capture, &MeshOptions::default());
        }
    }
});
