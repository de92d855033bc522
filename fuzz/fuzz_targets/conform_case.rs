//! The conformance case reader on arbitrary text, and every case it accepts run through the
//! runner (creation and the bounded draw).
//!
//! Cases that name a `dxbc` file are parsed but not run: the runner reads whatever path a case
//! file names (by design: case files are the user's own), and a fuzzer-made path such as
//! `/dev/zero` would test the file system, not inlay. Errors must be values with a line and
//! column inside the text; nothing may panic.
#![no_main]

use std::path::Path;

use inlay_conform::{self as conform, Outcome, schema::Shader};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let path = Path::new("fuzz.json");
    match conform::parse_text(path, text) {
        Err(e) => {
            assert!(e.line >= 1 && e.column >= 1, "{e:?}");
            assert!(e.line <= text.lines().count().max(1) + 1, "{e:?}");
            assert!(!e.to_string().is_empty());
        }
        Ok(file) => {
            for case in &file.cases {
                if matches!(case.shader, Shader::Dxbc(_)) {
                    continue;
                }
                match conform::run_case(case, Path::new("/nonexistent-inlay-fuzz")) {
                    Outcome::Pass | Outcome::Skip(_) => {}
                    Outcome::Fail(why) => assert!(!why.is_empty()),
                }
            }
        }
    }
});
