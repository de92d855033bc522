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
    // Whether the text may define a macro (line splices removed: `#def\<newline>ine`).
    let has_macros = source.replace("\\\r\n", "").replace("\\\n", "").contains("define");
    for a in &arrays {
        assert!(a.name_span.start < a.name_span.end && a.name_span.end <= source.len());
        assert_eq!(text::line_col(source, a.name_span.start).0, a.line);
        // The full name is the scopes and the name as written (`A::B::kDesc`); a global
        // qualifier is not part of either.
        let written: String = source[a.name_span.range()].split_whitespace().collect();
        assert!(!written.starts_with("::"), "{} / {written}", a.name);
        // A name a macro wrote points at the macro's invocation instead (issue 18 finding):
        // only with a macro may the span's text differ from the name's tail.
        assert!(
            a.name.ends_with(&written) || has_macros,
            "{} / {written}",
            a.name
        );
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
