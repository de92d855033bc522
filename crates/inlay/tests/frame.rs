//! Frame-analysis folders of every variant the generator writes (`frame::synth`), indexed and
//! compared with what was written; each draw opened as a capture and compared, byte for
//! byte, with its text-only twin.

use std::path::Path;

use inlay::capture::SlotData;
use inlay::frame::synth::{Dedupe, SynthOptions, SynthReport, generate};
use inlay::frame::{Filter, Frame};

/// A folder of its own for a test, removed with everything in it when the guard drops (also
/// when the test fails). Every frame here is a few hundred kB.
fn tmp(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("inlay-frame-test-{name}-"))
        .tempdir()
        .unwrap()
}

fn check_against_truth(frame: &Frame, truth: &SynthReport) {
    for t in &truth.draws {
        let d = frame
            .draws
            .iter()
            .find(|d| d.number == t.number && d.context == t.context)
            .unwrap_or_else(|| panic!("draw {} {:?} not indexed", t.number, t.context));
        let call = d.call().map(|c| c.name()).unwrap_or("?");
        assert!(t.call.starts_with(call), "{} vs {}", t.call, call);
        if t.call == "Dispatch" {
            assert_eq!(d.shaders.cs, t.shaders.cs);
            continue;
        }
        assert_eq!(d.shaders, t.shaders, "draw {}", t.number);
        let hashes: Vec<(u32, u32)> = d.vbs.iter().map(|v| (v.slot, v.hash.unwrap())).collect();
        assert_eq!(hashes, t.vb_hashes, "draw {}", t.number);
        assert_eq!(
            d.ib.as_ref().and_then(|i| i.hash),
            t.ib_hash,
            "draw {}",
            t.number
        );
        assert_eq!(
            d.problems.is_empty(),
            t.problem.is_none(),
            "draw {}: {:?}",
            t.number,
            d.problems
        );
    }
}

fn open(dir: &Path) -> Frame {
    Frame::open(dir).unwrap()
}

#[test]
fn every_storage_variant_indexes_to_the_truth() {
    for (i, dedupe) in [
        Dedupe::HardLinks,
        Dedupe::Symlinks,
        Dedupe::Shortcuts,
        Dedupe::Copies,
    ]
    .into_iter()
    .enumerate()
    {
        for register_first in [false, true] {
            let guard = tmp(&format!("v{i}-{register_first}"));
            let dir = guard.path().join("fa");
            let o = SynthOptions {
                dedupe,
                register_first,
                hold: register_first.then_some(2),
                deferred: true,
                marks: true,
                problems: true,
                ..SynthOptions::default()
            };
            let truth = generate(&dir, &o).unwrap();
            let frame = open(&dir);
            assert!(
                frame.warnings.is_empty(),
                "{dedupe:?}: {:?}",
                frame.warnings
            );
            assert_eq!(frame.draws.len(), truth.draws.len(), "{dedupe:?}");
            check_against_truth(&frame, &truth);
            // Every draw opens as a capture.
            for d in frame.draws.iter().filter(|d| !d.vbs.is_empty()) {
                let c = frame
                    .load(d)
                    .unwrap_or_else(|e| panic!("{dedupe:?} {}: {e}", d.id()));
                assert_eq!(c.elements, **d.layout.as_ref().unwrap());
            }
        }
    }
}

#[test]
fn text_values_equal_the_binary_dumps() {
    // The same frame twice: with .buf files, and text only. Every element of every vertex
    // must decode to the same register bits from the text as from the bytes.
    let guard = tmp("text");
    let both = guard.path().join("both");
    let text = guard.path().join("text");
    let o = SynthOptions {
        dedupe: Dedupe::Copies,
        dispatches: false,
        ..SynthOptions::default()
    };
    generate(&both, &o).unwrap();
    generate(
        &text,
        &SynthOptions {
            buf: false,
            ..o.clone()
        },
    )
    .unwrap();
    let a = open(&both);
    let b = open(&text);
    let target = inlay::Target::default();
    let mut compared = 0;
    for (da, db) in a.draws.iter().zip(&b.draws) {
        let ca = a.load(da).unwrap();
        let cb = b.load(db).unwrap();
        assert!(cb.slots.iter().all(|s| matches!(s.data, SlotData::Text(_))));
        let layout = inlay::layout_without_shader(&target, &ca.elements)
            .into_result()
            .unwrap();
        for (k, e) in layout.elements().iter().enumerate() {
            if ca.elements[k].aligned_byte_offset == inlay::APPEND_ALIGNED_ELEMENT && e.offset != 0
            {
                continue; // 3DMigoto printed it from offset 0: not in the text.
            }
            let sa = ca.slot(e.slot).unwrap();
            let SlotData::Binary(bytes) = &sa.data else {
                panic!()
            };
            let SlotData::Text(tv) = &cb.slot(e.slot).unwrap().data else {
                panic!()
            };
            for n in tv.first..tv.first + tv.rows() as u32 {
                let at = (n * sa.stride + e.offset) as usize;
                let size = e.format.info().unwrap().byte_size() as usize;
                let want =
                    inlay::convert::decode_element(e.format.info().unwrap(), &bytes[at..at + size]);
                assert_eq!(
                    tv.get(k, n),
                    Some(want),
                    "draw {} element {k} vertex {n}",
                    da.number
                );
                compared += 1;
            }
        }
    }
    assert!(compared > 1000, "{compared}");
}

#[test]
fn filters_select_the_draws_they_name() {
    let guard = tmp("filters");
    let dir = guard.path().join("fa");
    let truth = generate(&dir, &SynthOptions::default()).unwrap();
    let frame = open(&dir);
    let t = &truth.draws[3];
    let f: Filter = format!("vs={:x}", t.shaders.vs.unwrap()).parse().unwrap();
    let got: Vec<u32> = frame.select(&f).map(|d| d.number).collect();
    let want: Vec<u32> = truth
        .draws
        .iter()
        .filter(|d| d.shaders.vs == t.shaders.vs)
        .map(|d| d.number)
        .collect();
    assert_eq!(got, want);
    let f: Filter = format!("hash={:08x}", t.vb_hashes[0].1).parse().unwrap();
    let got: Vec<u32> = frame.select(&f).map(|d| d.number).collect();
    let want: Vec<u32> = truth
        .draws
        .iter()
        .filter(|d| d.vb_hashes.contains(&t.vb_hashes[0]))
        .map(|d| d.number)
        .collect();
    assert_eq!(got, want);
    let f: Filter = "has=BLENDINDICES,draws=1-20".parse().unwrap();
    let got: Vec<u32> = frame.select(&f).map(|d| d.number).collect();
    let want: Vec<u32> = truth
        .draws
        .iter()
        .filter(|d| d.number <= 20 && d.elements.iter().any(|e| e.name() == Some("BLENDINDICES")))
        .map(|d| d.number)
        .collect();
    assert!(!want.is_empty());
    assert_eq!(got, want);
}

#[test]
fn every_analyse_option_variant_indexes_to_the_truth() {
    // 3DMigoto's analyse_options: which buffers, which formats, name order, hold, symbolic
    // links, deferred contexts; the pre-2018 layout-less text; geometry shaders in names.
    for (i, (words, dedupe)) in [
        ("dump_vb dump_ib txt buf", Dedupe::Legacy),
        ("dump_vb dump_ib buf", Dedupe::HardLinks),
        ("dump_vb dump_ib txt", Dedupe::HardLinks),
        ("dump_vb txt", Dedupe::Copies),
        ("dump_vb buf", Dedupe::HardLinks),
        ("dump_ib txt buf", Dedupe::HardLinks),
        (
            "dump_vb_txt dump_ib_txt filename_reg hold",
            Dedupe::HardLinks,
        ),
        (
            "dump_vb dump_ib txt buf symlink deferred_ctx_immediate",
            Dedupe::HardLinks,
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let guard = tmp(&format!("opt{i}"));
        let dir = guard.path().join("fa");
        let o = SynthOptions {
            dedupe,
            geometry_shader: true,
            draws: 24,
            ..SynthOptions::default()
        }
        .with_analyse_options(words)
        .unwrap();
        let truth = generate(&dir, &o).unwrap();
        let frame = open(&dir);
        assert!(frame.warnings.is_empty(), "{words}: {:?}", frame.warnings);
        assert_eq!(frame.draws.len(), truth.draws.len(), "{words}");
        let mut gs = 0;
        for t in &truth.draws {
            let d = frame
                .draws
                .iter()
                .find(|d| d.number == t.number && d.context == t.context)
                .unwrap_or_else(|| panic!("{words}: draw {} not indexed", t.number));
            assert_eq!(d.shaders, t.shaders, "{words}: draw {}", t.number);
            gs += usize::from(d.shaders.gs.is_some());
            let legacy = dedupe == Dedupe::Legacy;
            if legacy && o.dump_vb && t.call != "Dispatch" {
                // The pre-2018 text has no element blocks: said, once per vb text dump.
                assert!(
                    !d.problems.is_empty()
                        && d.problems
                            .iter()
                            .all(|p| p.message.starts_with("no `element[i]:` blocks")),
                    "{words}: {:?}",
                    d.problems
                );
            } else {
                assert!(d.problems.is_empty(), "{words}: {:?}", d.problems);
            }
            if t.call == "Dispatch" {
                continue;
            }
            // Dumped vbs by name; every bound buffer is found by --hash through the log.
            let dumped: Vec<(u32, u32)> = d.vbs.iter().map(|v| (v.slot, v.hash.unwrap())).collect();
            if o.dump_vb {
                assert_eq!(dumped, t.vb_hashes, "{words}: draw {}", t.number);
            } else {
                assert!(dumped.is_empty());
            }
            let hashes: Vec<u32> = d.resource_hashes().collect();
            for (_, h) in &t.vb_hashes {
                assert!(hashes.contains(h), "{words}: draw {} {h:08x}", t.number);
            }
            let ib_dumped = o.dump_ib || (o.dump_vb && o.txt);
            assert_eq!(
                d.ib.as_ref().and_then(|i| i.hash),
                t.ib_hash.filter(|_| ib_dumped),
                "{words}: draw {}",
                t.number
            );
            // A layout exactly where a vb text dump gives one; then the draw opens.
            assert_eq!(d.layout.is_some(), o.dump_vb && o.txt && !legacy, "{words}");
            if let Some(l) = &d.layout {
                assert_eq!(**l, t.elements, "{words}: draw {}", t.number);
                let c = frame
                    .load(d)
                    .unwrap_or_else(|e| panic!("{words} {}: {e}", d.id()));
                assert_eq!(c.elements, t.elements);
            }
        }
        assert!(gs > 0, "{words}: no draw through a geometry shader");
    }
}

/// The listing's names are read on other threads as the listing goes (from three threads
/// up), and the headers on other threads while the draws are put together (and, with one
/// thread, after): every thread count gives the same index, field for field, problems and
/// warnings in the same order. The frame spans many of the listing's chunks (256 names), with
/// names that warn scattered through it.
#[test]
fn the_index_does_not_depend_on_the_thread_count() {
    for (i, dedupe) in [Dedupe::Shortcuts, Dedupe::Copies].into_iter().enumerate() {
        let guard = tmp(&format!("threads{i}"));
        let dir = guard.path().join("fa");
        let o = SynthOptions {
            draws: 240,
            dedupe,
            deferred: true,
            marks: true,
            problems: true,
            ..SynthOptions::default()
        };
        generate(&dir, &o).unwrap();
        for k in 0..12 {
            std::fs::write(dir.join(format!("notes-{k}.txt")), "not a dump").unwrap();
        }
        #[cfg(unix)]
        for k in 0..4 {
            let link = dir.join(format!("000{k:03}-vb0=deadbeef-vs=0-ps=0.buf"));
            std::os::unix::fs::symlink(dir.join(format!("gone-{k}")), link).unwrap();
        }
        let one = Frame::open_with(&dir, &inlay::frame::FrameOptions { threads: 1 }).unwrap();
        assert!(one.draws.iter().any(|d| !d.problems.is_empty()));
        assert!(one.bytes > 0);
        assert!(one.files_seen > 3 * 256, "{} files", one.files_seen);
        let warned = |f: &Frame, what: &str| {
            f.warnings
                .iter()
                .filter(|w| w.message.contains(what))
                .count()
        };
        assert_eq!(warned(&one, "not a 3DMigoto frame-analysis name"), 12);
        #[cfg(unix)]
        assert_eq!(warned(&one, "a symbolic link to nothing readable"), 4);
        for threads in [2, 3, 8] {
            let many = Frame::open_with(&dir, &inlay::frame::FrameOptions { threads }).unwrap();
            let at = format!("{dedupe:?}, {threads} threads");
            assert_eq!(many.draws, one.draws, "{at}");
            assert_eq!(many.warnings, one.warnings, "{at}");
            assert_eq!(many.bytes, one.bytes, "{at}");
            assert_eq!(many.files_seen, one.files_seen, "{at}");
            assert_eq!(many.logs, one.logs, "{at}");
            assert_eq!(many.deduped, one.deduped, "{at}");
        }
    }
}
