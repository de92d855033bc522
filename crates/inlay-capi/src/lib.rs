//! The C ABI of inlay: `libinlay.so` / `libinlay.a` and the header `include/inlay.h`, which
//! cbindgen generates from this crate (the doc comments below become the header's comments;
//! `tests/header.rs` fails when the committed header differs from a fresh generation).
//!
//! Every function is a thin shell over public calls of the Rust library (`inlay_core` here,
//! the `inlay` crate): [`inlay_create_input_layout`] is
//! `inlay::validation::create_input_layout`, the stream functions drive
//! `inlay::assembler::InputAssembler` and its batch fetch `VertexStream::fill_registers`.
//! Nothing Rust-typed crosses the boundary: handles are opaque pointers, everything else is a
//! `#[repr(C)]` struct of fixed-size integers and pointers.
//!
//! Robustness (issue "C ABI", *Behaviour*): no panic unwinds into C — every entry point runs
//! inside [`guard`], which turns a panic into `INLAY_E_FAIL` (or the function's documented
//! neutral value); NULL and misaligned pointers and impossible sizes are refused with
//! `INLAY_E_INVALIDARG` before anything is read.
#![allow(non_camel_case_types, non_snake_case)]
#![deny(missing_docs, unsafe_op_in_unsafe_fn)]

// Child modules name the root as `super::`, never `crate::`, so that the fuzz target
// `capi` can compile these sources as a module of its own crate (fuzz/README.md).
mod create;
mod handle;
mod stream;

pub use create::*;
pub use stream::*;

use std::ffi::c_char;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// `S_OK`: the call succeeded.
pub const INLAY_S_OK: i32 = 0;
/// `S_FALSE`: a validate-only `inlay_create_input_layout` (NULL `out_layout`) that passed; the
/// end of a vertex stream for `inlay_stream_fetch`.
pub const INLAY_S_FALSE: i32 = 1;
// The failure codes are written as negative decimal literals (their two's-complement value)
// so that the header's macros are plain `int` constants, without an implementation-defined
// conversion of 0x80070057 to int32_t.

/// `E_INVALIDARG`, `(int32_t)0x80070057`: the call was refused.
pub const INLAY_E_INVALIDARG: i32 = -2_147_024_809;
/// `E_OUTOFMEMORY`, `(int32_t)0x8007000E`.
pub const INLAY_E_OUTOFMEMORY: i32 = -2_147_024_882;
/// `E_FAIL`, `(int32_t)0x80004005`: an internal error inside inlay (a caught panic: a bug,
/// please report it); nothing was created.
pub const INLAY_E_FAIL: i32 = -2_147_467_259;

/// Runs `f`, turning a panic into `on_panic`, so that no unwinding crosses the C boundary.
/// The panic message still goes to the panic hook (stderr by default).
pub(crate) fn guard<T>(on_panic: T, f: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or(on_panic)
}

/// The version of the library, e.g. `"0.1.0"`: a static NUL-terminated string, never NULL.
///
/// Thread safety: may be called from any thread at any time.
#[unsafe(no_mangle)]
pub extern "C" fn inlay_version() -> *const c_char {
    const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), "\0");
    VERSION.as_ptr().cast()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;

    #[test]
    fn version_is_the_package_version() {
        // SAFETY: inlay_version returns a static NUL-terminated string.
        let v = unsafe { CStr::from_ptr(inlay_version()) };
        assert_eq!(v.to_str().unwrap(), env!("CARGO_PKG_VERSION"));
    }

    #[test]
    fn guard_turns_a_panic_into_the_fallback() {
        assert_eq!(
            guard(INLAY_E_FAIL, || -> i32 { panic!("boom") }),
            INLAY_E_FAIL
        );
        assert_eq!(guard(INLAY_E_FAIL, || INLAY_S_OK), INLAY_S_OK);
    }

    #[test]
    fn hresults_have_the_windows_bits() {
        assert_eq!(INLAY_E_INVALIDARG as u32, 0x8007_0057);
        assert_eq!(INLAY_E_OUTOFMEMORY as u32, 0x8007_000E);
        assert_eq!(INLAY_E_FAIL as u32, 0x8000_4005);
        assert_eq!(
            INLAY_E_INVALIDARG as u32,
            inlay_core::diag::HResult::E_INVALIDARG.code()
        );
    }
}

#[cfg(test)]
mod abi_tests;
