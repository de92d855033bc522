//! Only for this package's tests: which of `../shared` (fxc corpus, dumps, shared example
//! cases) this machine has, as cfgs that mark the tests needing it ignored
//! (docs/notes/tests.md). The library itself reads none of them.
include!("testenv/build_side.rs");

fn main() {
    testenv::emit(&[]);
}
