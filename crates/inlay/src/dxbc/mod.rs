//! DXBC shader containers: reading, verifying and writing, and their signature chunks.

pub mod signature;
