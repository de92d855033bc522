//! Issue 35 item 7: what the command line says counts things in the right number ("1
//! finding", never "1 findings"; no "0 instances" for a draw without per-instance data), and
//! every subcommand's `--help` opens with a summary sentence, not its usage line.

mod common;

use common::{examples_copy, inlay_in};

#[test]
fn counts_are_in_the_right_number() {
    let ex = examples_copy("wording");
    // WebGPU: one finding (out-of-bounds reads); Vulkan: two.
    let r = inlay_in(&ex, &["lower", "layout.h", "--target", "wgpu"]);
    assert_eq!(r.code, 0, "{}", r.transcript);
    assert!(r.stdout.contains("\n1 finding\n"), "{}", r.stdout);
    let r = inlay_in(&ex, &["lower", "layout.h", "--target", "vulkan"]);
    assert!(r.stdout.contains("\n2 findings\n"), "{}", r.stdout);
    // A draw without per-instance data covers no instances: none are counted.
    let r = inlay_in(
        &ex,
        &[
            "repack",
            "float.h",
            "packed.h",
            "--vb",
            "0=mesh.vb",
            "--out",
            "0=packed.vb",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.transcript);
    assert!(r.stdout.starts_with("4 vertices\n"), "{}", r.stdout);
    // A signature-only blob has one chunk (examples/vs.dxbc is a compiled shader: three).
    let r = inlay_in(&ex, &["signature", "sig.toml", "--out", "sig.dxbc"]);
    assert_eq!(r.code, 0, "{}", r.transcript);
    let r = inlay_in(&ex, &["shader", "sig.dxbc"]);
    assert!(r.stdout.contains(", 1 chunk:\n"), "{}", r.stdout);
    // One vertex, one point, one index.
    std::fs::write(ex.join("one.vb"), [0u8; 24]).unwrap();
    let r = inlay_in(
        &ex,
        &[
            "export", "layout.h", "--vb", "0=one.vb", "--output", "one.ply",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.transcript);
    assert!(r.stdout.contains(": 1 vertex, 1 point ("), "{}", r.stdout);
    let r = inlay_in(
        &ex,
        &[
            "decode", "layout.h", "--vb", "0=one.vb", "--output", "one.json",
        ],
    );
    assert!(
        r.stderr.contains("wrote one.json (1 vertex)"),
        "{}",
        r.stderr
    );
    let r = inlay_in(
        &ex,
        &[
            "encode",
            "layout.h",
            "--input",
            "one.json",
            "--out",
            "0=again.vb",
        ],
    );
    assert!(
        r.stdout.contains("slot 0: 1 vertex of 24 bytes"),
        "{}",
        r.stdout
    );
    // A frame of one draw: "1 draw", "1 file (N bytes)".
    let r = inlay_in(&ex, &["frame", "--generate", "fa", "--generate-draws", "1"]);
    assert_eq!(r.code, 0, "{}", r.transcript);
    let r = inlay_in(&ex, &["frame", "fa", "--csv"]);
    let draws = r.stdout.lines().count() - 1;
    let r = inlay_in(&ex, &["view", "fa", "--output", "list.html"]);
    assert_eq!(r.code, 0, "{}", r.transcript);
    let said = if draws == 1 {
        "1 draw\n".to_string()
    } else {
        format!("{draws} draws\n")
    };
    assert!(r.stdout.ends_with(&format!(": {said}")), "{}", r.stdout);
    let r = inlay_in(
        &ex,
        &["export", "fa", "--select", "draw=1", "--output-dir", "one"],
    );
    assert_eq!(r.code, 0, "{}", r.transcript);
    assert!(r.stdout.contains(": 1 file ("), "{}", r.stdout);
    let _ = std::fs::remove_dir_all(ex.parent().unwrap());
}

#[test]
fn every_subcommand_has_a_summary_sentence() {
    let dir = common::data_dir();
    let r = inlay_in(&dir, &["--help"]);
    let list = &r.stdout[r.stdout.find("Commands:\n").unwrap() + 10..];
    let mut seen = 0;
    for line in list.lines().take_while(|l| l.starts_with("  ")) {
        let (name, summary) = line.trim().split_once(' ').unwrap();
        let summary = summary.trim();
        if name == "help" {
            continue;
        }
        seen += 1;
        assert!(
            summary.starts_with(|c: char| c.is_ascii_uppercase()) && !summary.contains(" LAYOUT "),
            "`inlay {name}`: its summary is not a sentence: {summary}"
        );
        let help = inlay_in(&dir, &[name, "--help"]);
        assert_eq!(
            help.stdout.lines().next(),
            Some(summary),
            "`inlay {name} --help` opens with another line"
        );
    }
    assert!(seen >= 14, "only {seen} subcommands listed");
}
