//! Only for this package's tests: which of `../shared` this machine has, as cfgs that mark
//! the tests needing it ignored (docs/notes/tests.md).
include!("../inlay/testenv/build_side.rs");

fn main() {
    testenv::emit(&[]);
}
