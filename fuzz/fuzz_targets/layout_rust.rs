//! The Rust layout reader (`windows` crate `D3D11_INPUT_ELEMENT_DESC { … }` literals) on
//! arbitrary text: as `layout_csharp`.
#![no_main]

use inlay::text::{self, Syntax, rust};
use inlay_fuzz::text_checks::check_layout;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else {
        return;
    };
    let arrays = rust::arrays(source);
    for a in &arrays {
        assert!(a.name_span.end <= source.len());
    }
    check_layout(source, &rust::parse(source, None));
    for a in arrays.iter().take(8) {
        check_layout(source, &rust::parse(source, Some(&a.name)));
    }
    check_layout(source, &text::parse_layout(source, Syntax::Rust, None));
});
