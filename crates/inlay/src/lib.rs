//! # inlay — Direct3D 10/11 input layouts, exactly as Windows does them
//!
//! The modules follow the data's path, in layers: a module imports only modules of the layers
//! below its own (`ARCHITECTURE.md` lists them; `tests/module_graph.rs` enforces them):
//!
//! * [`format`](mod@format) — the DXGI format table that drives every per-format decision, and
//!   [`convert`], the reference conversions it drives;
//! * [`level`] — the feature levels, a leaf under both the format table and the targets;
//! * [`input`] — the one checked file reader every shell and file reader goes through (size
//!   limit; devices, pipes and directories refused), a leaf;
//! * [`target`] — runtime (D3D10, D3D10.1, D3D11) × feature level, with limits;
//! * [`element`] — input element descriptions as the application writes them;
//! * [`dxbc`] — shader containers and their signatures;
//! * `validation` — `CreateInputLayout`: HRESULT, debug-layer diagnostics, matching;
//! * [`layout`] — the resolved layout handed to the input assembler;
//! * [`buffer`] — vertex- and index-buffer bindings, the one addressing rule (vertex index,
//!   instance index with step rate, bind offset, out of bounds) and the batch's `VertexIds`,
//!   which both fetch paths share;
//! * [`assembler`] — the input assembler: the reference vertex fetch, draws, topologies,
//!   system values;
//! * [`fetch`] — fast vertex fetch: compiled fetch plans and SIMD kernels, bit-identical to
//!   [`convert`] (the benchmark harness is the workspace crate `inlay-bench`); it shares a
//!   layer with the assembler, so neither imports the other;
//! * [`stream`] — a draw's vertex stream, joining the assembler's walk with either fetch;
//! * [`encode`] — the way back: register lanes to vertex-buffer bytes in every IA format
//!   (both roundings of the conformance schema), a vertex writer, repack between layouts and
//!   a compiled fast encode;
//! * `capture` (feature `capture`) — 3DMigoto, importer and RenderDoc dumps read into elements,
//!   buffers and a draw;
//! * `frame` (feature `frame`) — a whole 3DMigoto frame-analysis folder: its log and dump
//!   names read into an index of draws, each opened as a capture; filters, diffs of two
//!   captures and hash-file updates;
//! * `mesh` (feature `mesh`) — a draw's primitives and attributes as an indexed mesh, written as
//!   glTF, OBJ or PLY, and glTF read back;
//! * [`lower`] — Vulkan and WebGPU vertex input state from a layout, with a report of what
//!   needs a remedy.
//!
//! With the `serde` feature the library's types read and write the conformance schema's
//! spellings (`text::records`, [`Api`], [`FeatureLevel`], [`Topology`], [`IndexFormat`],
//! [`DrawSpec`]): layout files and conformance case files are one grammar. The conformance
//! runner itself is the workspace crate `inlay-conform`.
//!
//! The everyday path, with the common types re-exported here:
//!
//! ```
//! use inlay::{Format, InputElementDesc, Target, APPEND_ALIGNED_ELEMENT};
//! let elements = [
//!     InputElementDesc::per_vertex("POSITION", 0, Format::R32G32B32_FLOAT, 0, 0),
//!     InputElementDesc::per_vertex("COLOR", 0, Format::R8G8B8A8_UNORM, 0, APPEND_ALIGNED_ELEMENT),
//! ];
//! // `create_input_layout(&target, &elements, &bytecode)` with a shader; here without one.
//! let layout = inlay::layout_without_shader(&Target::default(), &elements).into_result()?;
//! assert_eq!(layout.elements()[1].offset, 12);
//! # Ok::<(), inlay::Refused>(())
//! ```
// Only the SIMD modules (`fetch::simd`, `encode::simd`) allow `unsafe`, for runtime-detected
// AVX2 calls, unaligned loads and non-temporal stores.
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod assembler;
pub mod buffer;
#[cfg(feature = "capture")]
pub mod capture;
pub mod convert;
pub mod diag;
pub mod dxbc;
pub mod element;
pub mod encode;
pub mod fetch;
pub mod format;
#[cfg(feature = "frame")]
pub mod frame;
pub mod input;
pub mod layout;
pub mod level;
pub mod lower;
#[cfg(feature = "mesh")]
pub mod mesh;
#[cfg(feature = "mod")]
pub mod migoto_mod;
pub mod stream;
pub mod target;
pub mod text;
pub mod validation;

// The common types at the crate root (the modules keep them too).
pub use assembler::{AssembledVertex, DrawCall, DrawSpec, InputAssembler, Primitive, Topology};
pub use buffer::{IndexBufferBinding, IndexFormat, VertexBufferBinding};
pub use diag::{Diagnostic, HResult, MessageId, Severity};
pub use dxbc::{Container, DxbcError, Signature, SignatureElement};
pub use element::{APPEND_ALIGNED_ELEMENT, InputElementDesc};
pub use fetch::FetchPlan;
pub use format::Format;
pub use layout::{InputClass, InputLayout, LayoutElement, SlotLayout};
pub use target::{Api, FeatureLevel, Target};
pub use validation::{
    CreateInputLayout, Creation, PipelineDesc,
    ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT, Refused, SignatureProblem,
    create_input_layout, layout_without_shader,
};
