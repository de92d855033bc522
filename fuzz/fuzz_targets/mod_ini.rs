//! The 3DMigoto mod INI reader on arbitrary bytes (issue 32): the INI layer, command lists,
//! expressions, the offline evaluation of every toggle state, profile detection and the
//! write-back with no edits; the same bytes as a `hash.json` and a `Metadata.json` beside a
//! mod. Nothing may panic; every error and warning names the file it was
//! given and a line inside the text; an unedited write-back gives the INI's own bytes.
#![no_main]

use inlay::migoto_mod::writeback::{Edits, write_back};
use inlay::migoto_mod::{Mod, ModOptions, Where};
use libfuzzer_sys::fuzz_target;

fn check_at(text: &[u8], at: &Where) {
    assert_eq!(at.file, "f.ini", "{at:?}");
    if let Some(line) = at.line {
        let lines = text.split(|&b| b == b'\n').count().max(1);
        assert!(line >= 1 && line <= lines, "line {line} of {lines}");
    }
}

fuzz_target!(|data: &[u8]| {
    // The side files' parsers: a value or an error message, never a panic.
    let _ = inlay::migoto_mod::beside::parse_hash_json(data);
    let _ = inlay::migoto_mod::beside::parse_metadata(data);
    match Mod::parse_bytes("f.ini", data, &ModOptions::default()) {
        Err(e) => check_at(data, &e.at),
        Ok(m) => {
            for w in &m.warnings {
                check_at(data, &w.at);
            }
            // Every state the toggles reach (bounded by the reader).
            if let Ok(states) = m.states() {
                for s in states.iter().take(8) {
                    let _ = m.with_state(s);
                }
            }
            let _ = m.report();
            if let Ok(w) = write_back(&m, &[], &Edits::default()) {
                assert_eq!(w.files[0].bytes, data, "an unedited write-back changed the INI");
            }
        }
    }
});
