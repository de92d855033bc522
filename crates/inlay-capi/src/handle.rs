//! Contract misuse of the handles, caught in debug builds (issue 34 item 10).
//!
//! Releasing a handle twice, or using it after its release, is undefined behaviour by the C
//! contract (`include/inlay.h` says so at every release function). A release build does not
//! look: [`made`], [`check`] and [`release`] compile to nothing but the release itself.
//!
//! A debug build of the library (`cargo build -p inlay-capi`, `debug_assertions` on) keeps a
//! registry of its live handles, each with its kind — the magic word that says which
//! function made it — and a quarantine of the last 4096 released ones, whose memory
//! it keeps (marked released) instead of freeing. A release or use of a quarantined handle is
//! a double release or a use after release; of an address that is no live handle, a foreign
//! or long-released pointer; of a handle of another kind, a mix-up. Each prints one line
//! naming the function, the pointer and what happened, and aborts — before touching the
//! handle's memory, so the report is never itself undefined behaviour.

#![cfg_attr(not(debug_assertions), allow(unused_variables))]

/// What made a handle (its magic word).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `inlay_create_input_layout`'s layout.
    Layout,
    /// `inlay_create_input_layout`'s diagnostics.
    Diagnostics,
    /// `inlay_stream_create`'s stream.
    Stream,
}

impl Kind {
    #[cfg(debug_assertions)]
    fn name(self) -> &'static str {
        match self {
            Kind::Layout => "inlay_layout",
            Kind::Diagnostics => "inlay_diagnostics",
            Kind::Stream => "inlay_stream",
        }
    }
}

/// Released handles whose memory a debug build keeps, oldest freed first.
#[cfg(debug_assertions)]
pub(crate) const QUARANTINE: usize = 4096;

#[cfg(debug_assertions)]
mod registry {
    use std::collections::{HashMap, VecDeque};
    use std::sync::Mutex;

    use super::Kind;

    /// Frees a quarantined handle's memory.
    pub(super) type Free = Box<dyn FnOnce() + Send>;

    #[derive(Default)]
    pub(super) struct Registry {
        pub live: HashMap<usize, Kind>,
        pub released: HashMap<usize, Kind>,
        pub quarantine: VecDeque<(usize, Free)>,
    }

    pub(super) static REGISTRY: Mutex<Option<Registry>> = Mutex::new(None);

    /// Runs `f` on the registry (a poisoned lock is taken over: the registry stays usable).
    pub(super) fn with<T>(f: impl FnOnce(&mut Registry) -> T) -> T {
        let mut g = REGISTRY.lock().unwrap_or_else(|e| e.into_inner());
        f(g.get_or_insert_with(Registry::default))
    }
}

/// Prints what `function` was given and aborts (debug builds).
#[cfg(debug_assertions)]
fn misuse(function: &str, addr: usize, what: String) -> ! {
    eprintln!(
        "inlay: {function}({addr:#x}): {what} — undefined behaviour by the C contract; this \
         debug build of libinlay stops here (include/inlay.h)"
    );
    std::process::abort()
}

/// Why `addr` is not a live handle of `kind`, if it is not.
#[cfg(debug_assertions)]
fn problem(r: &registry::Registry, addr: usize, kind: Kind) -> Option<String> {
    match (r.live.get(&addr), r.released.get(&addr)) {
        (Some(&k), _) if k == kind => None,
        (Some(&k), _) => Some(format!(
            "this is an {} handle, not an {}",
            k.name(),
            kind.name()
        )),
        (None, Some(_)) => Some(format!(
            "this {} handle was released already (a double release, or a use after release)",
            kind.name()
        )),
        (None, None) => Some(format!(
            "this is no live {} handle (never made by inlay, or released long ago)",
            kind.name()
        )),
    }
}

/// Records a handle just made (debug builds; nothing in release builds).
#[inline]
pub(crate) fn made(addr: usize, kind: Kind) {
    #[cfg(debug_assertions)]
    registry::with(|r| {
        r.released.remove(&addr);
        r.live.insert(addr, kind);
    });
}

/// Checks that `addr` (not NULL) is a live handle of `kind` before `function` uses it (debug
/// builds; nothing in release builds).
#[inline]
pub(crate) fn check(addr: usize, kind: Kind, function: &str) {
    #[cfg(debug_assertions)]
    if let Some(what) = registry::with(|r| problem(r, addr, kind)) {
        misuse(function, addr, what);
    }
}

/// Releases the handle at `addr` (not NULL) with `free`: at once in release builds; in debug
/// builds after checking it is a live handle of `kind` (aborting otherwise), moving it to the
/// quarantine and freeing the oldest quarantined handle past the 4096 kept.
#[inline]
pub(crate) fn release(
    addr: usize,
    kind: Kind,
    function: &str,
    free: impl FnOnce() + Send + 'static,
) {
    #[cfg(not(debug_assertions))]
    free();
    #[cfg(debug_assertions)]
    {
        let evicted = registry::with(|r| {
            if let Some(what) = problem(r, addr, kind) {
                return Err(what);
            }
            r.live.remove(&addr);
            r.released.insert(addr, kind);
            r.quarantine.push_back((addr, Box::new(free)));
            Ok(if r.quarantine.len() > QUARANTINE {
                r.quarantine.pop_front().map(|(old, f)| {
                    r.released.remove(&old);
                    f
                })
            } else {
                None
            })
        });
        match evicted {
            Err(what) => misuse(function, addr, what),
            // Freed outside the lock: a layout's last reference may go with it.
            Ok(Some(f)) => f(),
            Ok(None) => {}
        }
    }
}
