//! `capture::read_layout`, the one call through which every layout command reads a layout
//! file (issue 35: `.fmt`, 3DMigoto vb dumps and source text alike), on arbitrary bytes under
//! every name that chooses a reader and under `-` (standard input: each reader tried in turn
//! by content). Nothing may panic; an error names the file as given and lists at least one
//! reader, exactly one when the extension chose it; a layout read goes through the
//! shader-less `CreateInputLayout` at D3D11 11_0.
#![no_main]

use inlay::capture::read_layout;
use inlay::target::Target;
use inlay::validation::layout_without_shader;
use libfuzzer_sys::fuzz_target;

const NAMES: [&str; 9] = [
    "-",
    "l.fmt",
    "d-vb0=1.txt",
    "l.json",
    "l.toml",
    "l.h",
    "l.cs",
    "l.rs",
    "l.bin",
];

fuzz_target!(|data: &[u8]| {
    // The first byte picks the name (and whether a C array is asked for by name), the rest
    // is the file, so every reader sees every input over a run.
    let Some((&pick, bytes)) = data.split_first() else {
        return;
    };
    let name = NAMES[pick as usize % NAMES.len()];
    let array = (pick & 0x80 != 0).then_some("layout");
    match read_layout(name, bytes, array) {
        Ok(source) => {
            let _ = layout_without_shader(&Target::default(), &source.parsed.elements);
        }
        Err(e) => {
            assert_eq!(e.file, name, "{e}");
            assert!(!e.tried.is_empty(), "{e}");
            if e.by_extension {
                assert_eq!(e.tried.len(), 1, "{e}");
            }
            let _ = e.to_string();
        }
    }
});
