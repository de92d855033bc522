//! Raw file bytes as the command line reads them: `decode_source` (UTF-16 with a byte-order
//! mark, or UTF-8) and then every layout syntax, the C preprocessor included. Nothing may
//! panic; errors must have consistent positions in the decoded text.
#![no_main]

use inlay::text::{self, Syntax};
use inlay_fuzz::text_checks::check_layout;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let source = text::decode_source(data);
    for syntax in [Syntax::C, Syntax::CSharp, Syntax::Rust] {
        check_layout(&source, &text::parse_layout(&source, syntax, None));
    }
    let _ = Syntax::detect("layout", &source);
});
