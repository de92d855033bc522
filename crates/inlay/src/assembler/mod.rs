//! The input assembler: vertex fetch through a layout, draws, topologies and system values.

pub mod binding;
