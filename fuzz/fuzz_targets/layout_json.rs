//! The JSON layout and signature parsers on arbitrary text. Errors must be values with a
//! consistent position; layouts must have in-bounds spans and go through `CreateInputLayout`;
//! signatures must write to blobs that read back; nothing may panic.
#![no_main]

use inlay::text::{self, Syntax, json};
use inlay_fuzz::text_checks::{check_layout, check_signature};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else {
        return;
    };
    check_layout(source, &json::parse_layout(source));
    check_signature(source, &json::parse_signature(source));
    let _ = Syntax::detect("layout.json", source);
    check_layout(source, &text::parse_layout(source, Syntax::Json, Some("x")));
});
