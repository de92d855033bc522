//! `frame::name::parse_dump_name` / `parse_deduped_name` and the filter grammar on arbitrary
//! text: no panic; a per-draw name that parses writes back (`format_dump_name`) to a name that
//! parses to the same fields; a filter that parses prints back to itself.
#![no_main]

use inlay::frame::name::{format_dump_name, parse_deduped_name, parse_dump_name};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else { return };
    if let Some(n) = parse_dump_name(s) {
        let again = parse_dump_name(&format_dump_name(&n)).expect("a written name parses");
        assert_eq!(again.draw, n.draw);
        assert_eq!(again.frame, n.frame);
        assert_eq!(again.register, n.register);
        assert_eq!(again.hash, n.hash);
        assert_eq!(again.shaders, n.shaders);
    }
    let _ = parse_deduped_name(s);
    if let Ok(f) = s.parse::<inlay::frame::Filter>() {
        let back: inlay::frame::Filter = f.to_string().parse().expect("a printed filter parses");
        assert_eq!(back, f);
    }
});
