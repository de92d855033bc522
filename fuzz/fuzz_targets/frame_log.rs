//! `frame::log::parse_log` on arbitrary bytes: no panic; every draw's line lies inside the
//! input; every warning names the file and a line inside it (or none).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let log = inlay::frame::log::parse_log("log.txt", data);
    let lines = data.split(|&b| b == b'\n').count();
    assert!(log.lines <= lines);
    for d in &log.draws {
        assert!(d.line >= 1 && d.line <= log.lines);
        let _ = d.call.text();
        assert!(d.vbs.len() <= 32);
    }
    for w in &log.warnings {
        assert_eq!(w.file, "log.txt");
        assert!(w.line.is_none_or(|l| l >= 1 && l <= log.lines.max(1)));
    }
});
