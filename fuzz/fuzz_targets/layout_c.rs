//! The C/C++ layout parser on arbitrary text: the array listing, the only-array parse and the
//! parse of each named array (first eight). Errors must be values with a consistent position;
//! layouts must have in-bounds spans and go through `CreateInputLayout`; nothing may panic.
#![no_main]

use inlay::text::{self, Syntax, c};
use inlay_fuzz::text_checks::check_layout;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else {
        return;
    };
    let arrays = c::arrays(source);
    for a in &arrays {
        assert!(a.name_span.end <= source.len());
        // The full name is the scopes and the name as written (`A::B::kDesc`).
        let written: String = source[a.name_span.range()].split_whitespace().collect();
        assert!(a.name.ends_with(&written), "{} / {written}", a.name);
    }
    check_layout(source, &c::parse(source, None));
    for a in arrays.iter().take(8) {
        let r = c::parse(source, Some(&a.name));
        check_layout(source, &r);
    }
    check_layout(source, &c::parse(source, Some("vertexDesc")));
    let _ = Syntax::detect("layout", source);
    check_layout(source, &text::parse_layout(source, Syntax::C, None));
});
