//! The former home of the buffer bindings, kept so that existing paths still resolve: the
//! bindings now live in the leaf module [`crate::buffer`], which the assembler and the fast
//! fetch share.

pub use crate::buffer::{IndexBufferBinding, IndexFormat, MAX_VERTEX_STRIDE, VertexBufferBinding};
