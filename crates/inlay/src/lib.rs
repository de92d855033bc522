//! # inlay — Direct3D 10/11 input layouts, exactly as Windows does them
//!
//! The modules follow the data's path:
//!
//! * [`format`](mod@format) — the DXGI format table that drives every per-format decision, and
//!   [`convert`], the reference conversions it drives;
//! * [`target`] — runtime (D3D10, D3D10.1, D3D11) × feature level, with limits;
//! * [`element`] — input element descriptions as the application writes them;
//! * [`dxbc`] — shader containers and their signatures;
//! * `validation` — `CreateInputLayout`: HRESULT, debug-layer diagnostics, matching;
//! * [`layout`] — the resolved layout handed to the input assembler;
//! * [`assembler`] — the input assembler: vertex fetch, draws, topologies, system values;
//! * [`fetch`] — fast vertex fetch: compiled fetch plans and SIMD kernels, bit-identical to
//!   [`convert`] (the benchmark harness is the workspace crate `inlay-bench`);
//! * [`encode`] — the way back: register lanes to vertex-buffer bytes in every IA format
//!   (both roundings of the conformance schema), a vertex writer, repack between layouts and
//!   a compiled fast encode;
//! * `capture` (feature `capture`) — 3DMigoto, importer and RenderDoc dumps read into elements,
//!   buffers and a draw;
//! * `mesh` (feature `mesh`) — a draw's primitives and attributes as an indexed mesh, written as
//!   glTF, OBJ or PLY, and glTF read back;
//! * [`lower`] — Vulkan and WebGPU vertex input state from a layout, with a report of what
//!   needs a remedy.
// Only the fast-fetch SIMD module (`fetch::simd`) allows `unsafe`, for runtime-detected
// AVX2 calls and non-temporal stores.
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod assembler;
#[cfg(feature = "capture")]
pub mod capture;
#[cfg(feature = "serde")]
pub mod conform;
pub mod convert;
pub mod diag;
pub mod dxbc;
pub mod element;
pub mod encode;
pub mod fetch;
pub mod format;
pub mod layout;
pub mod lower;
#[cfg(feature = "mesh")]
pub mod mesh;
pub mod target;
pub mod text;
pub mod validation;
