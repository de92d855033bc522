//! Finished 3DMigoto mods read as parts (synthetic mods written here, and Mona.ini from the
//! shared dumps when present).

use std::path::{Path, PathBuf};

use inlay::migoto_mod::{Mod, ModOptions};

fn shared_mona() -> Option<PathBuf> {
    let dir = match std::env::var_os("INLAY_SHARED") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    };
    let p = dir.join("dumps/SilentNightSound+GI-Model-Importer/Examples/MonaHatless/Mona.ini");
    if p.is_file() {
        Some(p)
    } else {
        assert!(
            std::env::var_os("INLAY_REQUIRE_SHARED").is_none_or(|v| v != "1"),
            "{} is missing and INLAY_REQUIRE_SHARED=1",
            p.display()
        );
        eprintln!("skipping: {} not found", p.display());
        None
    }
}

#[test]
fn mona_debug() {
    let Some(p) = shared_mona() else { return };
    let m = Mod::load(&p, &ModOptions::default()).unwrap();
    eprintln!("{:#?}", m.profile);
    for c in &m.components {
        eprintln!(
            "{} {:?} {} {:?}",
            c.name, c.resources, c.vertex_count, c.problem
        );
        for s in &c.streams {
            eprintln!("  {:?} {} {}", s.role, s.stride, s.source);
        }
    }
    for p in &m.parts {
        eprintln!("{p:?}");
    }
    for w in &m.warnings {
        eprintln!("{w}");
    }
}
