//! The bridge between case data and inlay's library calls (validation, DXBC writer, input
//! assembler).

use super::compare::{CreationResult, DrawResult};
use super::schema::{Case, Draw, SignatureEntry};
use crate::layout::InputLayout;
use crate::target::Target;

/// A creation's comparable result and the layout it produced.
pub(crate) struct Created {
    pub result: CreationResult,
    pub layout: Option<InputLayout>,
}

pub(crate) fn signature_blob(_entries: &[SignatureEntry]) -> Vec<u8> {
    Vec::new()
}

pub(crate) fn create(_case: &Case, _code: &[u8]) -> Created {
    Created {
        result: CreationResult::default(),
        layout: None,
    }
}

pub(crate) fn draw(_t: &Target, _l: &InputLayout, _d: &Draw) -> Result<DrawResult, String> {
    Err("the input assembler is not available".into())
}

pub(crate) fn float_lanes(_l: &InputLayout, _reg: u32) -> u8 {
    0
}
