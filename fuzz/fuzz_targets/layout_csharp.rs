//! The C# layout reader (SharpDX / Vortice `new InputElement(…)` arrays) on arbitrary text:
//! the listing, the only-array parse and each named array (first eight). Errors must be values
//! with a consistent position; layouts must have in-bounds spans and go through
//! `CreateInputLayout`; nothing may panic.
#![no_main]

use inlay::text::{self, Syntax, csharp};
use inlay_fuzz::text_checks::check_layout;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else {
        return;
    };
    let arrays = csharp::arrays(source);
    for a in &arrays {
        assert!(a.name_span.end <= source.len());
    }
    check_layout(source, &csharp::parse(source, None));
    for a in arrays.iter().take(8) {
        check_layout(source, &csharp::parse(source, Some(&a.name)));
    }
    check_layout(source, &text::parse_layout(source, Syntax::CSharp, None));
});
