//! Input element descriptions: what an application passes to `CreateInputLayout`.
//!
//! [`InputElementDesc`] mirrors `D3D10_INPUT_ELEMENT_DESC` / `D3D11_INPUT_ELEMENT_DESC` (the
//! two are binary-identical, R38) field for field, with raw integers where the real structure
//! can hold invalid values, so that every value an application can pass is representable.

use std::fmt;

use crate::format::Format;

/// `D3D11_APPEND_ALIGNED_ELEMENT` (also `D3D10_…`, `D3D12_…`): place the element right after
/// the previous element of the same slot (R26).
pub const APPEND_ALIGNED_ELEMENT: u32 = 0xffff_ffff;

/// `D3D11_INPUT_PER_VERTEX_DATA`.
pub const INPUT_PER_VERTEX_DATA: u32 = 0;

/// `D3D11_INPUT_PER_INSTANCE_DATA`.
pub const INPUT_PER_INSTANCE_DATA: u32 = 1;

/// One `D3D11_INPUT_ELEMENT_DESC`.
///
/// ```
/// use inlay::element::{InputElementDesc, APPEND_ALIGNED_ELEMENT};
/// use inlay::format::Format;
/// let e = InputElementDesc::per_vertex("COLOR", 0, Format::R8G8B8A8_UNORM, 0, APPEND_ALIGNED_ELEMENT);
/// assert_eq!(e.to_string(), "COLOR0 R8G8B8A8_UNORM slot 0 offset APPEND_ALIGNED per-vertex");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct InputElementDesc {
    /// `SemanticName`; `None` models a NULL pointer (R14). Like the C string it models, the
    /// name ends at its first NUL character, if any.
    pub semantic_name: Option<String>,
    /// `SemanticIndex`.
    pub semantic_index: u32,
    /// `Format`.
    pub format: Format,
    /// `InputSlot`.
    pub input_slot: u32,
    /// `AlignedByteOffset`, or [`APPEND_ALIGNED_ELEMENT`].
    pub aligned_byte_offset: u32,
    /// `InputSlotClass`: [`INPUT_PER_VERTEX_DATA`], [`INPUT_PER_INSTANCE_DATA`] or any other
    /// (invalid) value.
    pub input_slot_class: u32,
    /// `InstanceDataStepRate`.
    pub instance_data_step_rate: u32,
}

impl InputElementDesc {
    /// A per-vertex element with step rate 0.
    pub fn per_vertex(name: &str, index: u32, format: Format, slot: u32, offset: u32) -> Self {
        InputElementDesc {
            semantic_name: Some(name.to_string()),
            semantic_index: index,
            format,
            input_slot: slot,
            aligned_byte_offset: offset,
            input_slot_class: INPUT_PER_VERTEX_DATA,
            instance_data_step_rate: 0,
        }
    }

    /// A per-instance element.
    pub fn per_instance(
        name: &str,
        index: u32,
        format: Format,
        slot: u32,
        offset: u32,
        step_rate: u32,
    ) -> Self {
        InputElementDesc {
            input_slot_class: INPUT_PER_INSTANCE_DATA,
            instance_data_step_rate: step_rate,
            ..Self::per_vertex(name, index, format, slot, offset)
        }
    }

    /// The name as the runtime sees it: the text up to the first NUL, or `None` for a NULL
    /// pointer. (Every reader refuses a name with a NUL — [`check_semantic_name`] — so only
    /// a description built in code can hold one.)
    pub fn name(&self) -> Option<&str> {
        self.semantic_name
            .as_deref()
            .map(|n| n.split('\0').next().unwrap_or(""))
    }
}

impl fmt::Display for InputElementDesc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(n) => write!(f, "{n}{}", self.semantic_index)?,
            None => write!(f, "<NULL>{}", self.semantic_index)?,
        }
        write!(f, " {} slot {} offset ", self.format, self.input_slot)?;
        if self.aligned_byte_offset == APPEND_ALIGNED_ELEMENT {
            f.write_str("APPEND_ALIGNED")?;
        } else {
            write!(f, "{}", self.aligned_byte_offset)?;
        }
        match self.input_slot_class {
            INPUT_PER_VERTEX_DATA => f.write_str(" per-vertex")?,
            INPUT_PER_INSTANCE_DATA => {
                write!(f, " per-instance step {}", self.instance_data_step_rate)?
            }
            c => write!(f, " class {c}")?,
        }
        Ok(())
    }
}

/// Refuses a semantic name holding a NUL character, with the message every reader gives (the
/// layout files of every syntax, Python's `Layout`, the capture readers, signature
/// descriptions): the runtime reads names as NUL-terminated C strings, so `"P\0S"` would be
/// read as `P` — never what a file or a caller meant.
///
/// ```
/// use inlay::element::check_semantic_name;
/// assert!(check_semantic_name("POSITION").is_ok());
/// assert_eq!(
///     check_semantic_name("P\0S").unwrap_err(),
///     "semantic name \"P\\0S\" contains a NUL character; names are NUL-terminated C \
///      strings, so it would be read as \"P\""
/// );
/// ```
pub fn check_semantic_name(name: &str) -> Result<(), String> {
    match name.split_once('\0') {
        None => Ok(()),
        Some((kept, _)) => {
            // At most 64 characters of the name are quoted.
            let shown: String = name.chars().take(64).collect();
            let more = if shown.len() < name.len() { "…" } else { "" };
            Err(format!(
                "semantic name {shown:?}{more} contains a NUL character; names are \
                 NUL-terminated C strings, so it would be read as {kept:?}"
            ))
        }
    }
}
