//! Serde records for the conformance schema's `ELEMENT` and `SIGNATURE_ELEMENT` objects
//! (`shared/conformance/SCHEMA.md`), shared by the JSON and TOML readers.
//!
//! Unknown fields are errors. Defaults (a choice, see `docs/notes/cli.md`): `semantic`,
//! `format` and `offset` must be written (an offset has no safe default: 0 would silently
//! overlap elements); `index`, `slot` and `step_rate` default to 0 and `class` to `"vertex"`,
//! the values C's aggregate initialization gives members left out. For a signature element,
//! `semantic`, `register` and `mask` must be written; `index` defaults to 0, `used` to the
//! mask, `type` to `"float"` and `sv` to `"NONE"`.

use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, Visitor};

use crate::dxbc::signature::{
    ComponentType, MinPrecision, NO_REGISTER, Signature, SignatureElement, SystemValue,
    parse_mask_letters,
};
use crate::element::{
    APPEND_ALIGNED_ELEMENT, INPUT_PER_INSTANCE_DATA, INPUT_PER_VERTEX_DATA, InputElementDesc,
    check_semantic_name,
};
use crate::format::Format;

/// One `ELEMENT` object.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ElementRecord {
    /// `SemanticName`; `null` models a NULL pointer. Required; a NUL character in it is an
    /// error ([`check_semantic_name`]).
    #[serde(deserialize_with = "nullable_semantic")]
    pub semantic: Option<String>,
    /// `SemanticIndex` (default 0).
    #[serde(default)]
    pub index: u32,
    /// `Format`: a name (with or without `DXGI_FORMAT_`) or a number. Required.
    pub format: FormatValue,
    /// `InputSlot` (default 0).
    #[serde(default)]
    pub slot: u32,
    /// `AlignedByteOffset`: a number or `"append"`. Required.
    pub offset: OffsetValue,
    /// `InputSlotClass`: `"vertex"`, `"instance"` or a number (default `"vertex"`).
    #[serde(default)]
    pub class: ClassValue,
    /// `InstanceDataStepRate` (default 0).
    #[serde(default)]
    pub step_rate: u32,
}

impl ElementRecord {
    /// The element description this record states.
    pub fn to_desc(&self) -> InputElementDesc {
        InputElementDesc {
            semantic_name: self.semantic.clone(),
            semantic_index: self.index,
            format: self.format.0,
            input_slot: self.slot,
            aligned_byte_offset: self.offset.0,
            input_slot_class: self.class.0,
            instance_data_step_rate: self.step_rate,
        }
    }
}

/// One `SIGNATURE_ELEMENT` object.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignatureRecord {
    /// Semantic name. Required; a NUL character is an error (DXBC stores names as
    /// NUL-terminated strings: `"PO\u0000S"` would be written as `PO`).
    #[serde(deserialize_with = "semantic_without_nul")]
    pub semantic: String,
    /// Semantic index (default 0).
    #[serde(default)]
    pub index: u32,
    /// Input register, or `null` for none. Required.
    #[serde(deserialize_with = "nullable")]
    pub register: Option<u32>,
    /// Declared components, letters in xyzw order. Required.
    pub mask: MaskValue,
    /// Components the shader reads (`""` for none); defaults to the mask.
    #[serde(default)]
    pub used: Option<MaskValue>,
    /// `"float"`, `"uint"` or `"sint"` (also `"int"`); default `"float"`.
    #[serde(default, rename = "type")]
    pub component_type: TypeValue,
    /// System value: the `D3D_NAME` without prefix (`"NONE"`, `"VERTEX_ID"`, …) or fxc's
    /// spelling (`"VERTID"`); default `"NONE"`.
    #[serde(default)]
    pub sv: SystemValueValue,
}

impl SignatureRecord {
    /// The signature element this record states (stream 0, default precision).
    pub fn to_element(&self) -> SignatureElement {
        SignatureElement {
            stream: 0,
            semantic_name: self.semantic.clone(),
            semantic_index: self.index,
            system_value: self.sv.0,
            component_type: self.component_type.0,
            register: self.register.unwrap_or(NO_REGISTER),
            mask: self.mask.0,
            read_write_mask: self.used.map_or(self.mask.0, |u| u.0),
            min_precision: MinPrecision(0),
        }
    }
}

/// Checks what a record's fields cannot check one by one: the components a shader reads
/// (`used`) must be among those it declares (`mask`), as fxc always writes them. Returns the
/// index of the first bad record and what is wrong (issue 18 item 8: such records were
/// accepted and written as they were).
pub fn check_signature_records(records: &[SignatureRecord]) -> Result<(), (usize, String)> {
    for (i, r) in records.iter().enumerate() {
        if let Some(used) = r.used {
            let extra = used.0 & !r.mask.0;
            if extra != 0 {
                let letters = |m: u8| -> String {
                    "xyzw"
                        .chars()
                        .enumerate()
                        .filter(|(k, _)| m & (1 << k) != 0)
                        .map(|(_, c)| c)
                        .collect()
                };
                return Err((
                    i,
                    format!(
                        "signature element {i} ({}{}): used \"{}\" names {} outside mask \"{}\"; \
                         a shader reads only components it declares",
                        super::excerpt(&r.semantic),
                        r.index,
                        letters(used.0),
                        if extra.count_ones() == 1 {
                            format!("component {}", letters(extra))
                        } else {
                            format!("components {}", letters(extra))
                        },
                        letters(r.mask.0)
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Builds a [`Signature`] from records, in order.
pub fn signature_of(records: &[SignatureRecord]) -> Signature {
    Signature {
        elements: records.iter().map(SignatureRecord::to_element).collect(),
    }
}

/// Deserializes a value that must be present but may be `null`.
fn nullable<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    Option::<T>::deserialize(d)
}

/// A semantic name without NUL characters ([`check_semantic_name`]).
fn semantic_without_nul<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let s = String::deserialize(d)?;
    check_semantic_name(&s).map_err(de::Error::custom)?;
    Ok(s)
}

/// A semantic name or `null`, without NUL characters.
fn nullable_semantic<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    let s = Option::<String>::deserialize(d)?;
    if let Some(s) = &s {
        check_semantic_name(s).map_err(de::Error::custom)?;
    }
    Ok(s)
}

fn u32_from_i64<E: de::Error>(v: i64, what: &str) -> Result<u32, E> {
    u32::try_from(v).map_err(|_| E::custom(format!("{what} {v} is outside 0..=4294967295")))
}

macro_rules! value_type {
    ($(#[$m:meta])* $name:ident($inner:ty), $expecting:literal, $default:expr,
     str: |$s:ident, $E:ident| $from_str:expr, int: |$n:ident| $from_int:expr) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub struct $name(pub $inner);

        impl Default for $name {
            fn default() -> Self {
                $name($default)
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl<'de> Visitor<'de> for V {
                    type Value = $name;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str($expecting)
                    }
                    fn visit_str<$E: de::Error>(self, $s: &str) -> Result<$name, $E> {
                        $from_str.map($name)
                    }
                    fn visit_u64<E: de::Error>(self, v: u64) -> Result<$name, E> {
                        let v = i64::try_from(v).unwrap_or(i64::MAX);
                        self.visit_i64(v)
                    }
                    fn visit_i64<E: de::Error>(self, $n: i64) -> Result<$name, E> {
                        $from_int.map($name)
                    }
                }
                d.deserialize_any(V)
            }
        }
    };
}

value_type!(
    /// A `format` value: a DXGI format name or number.
    FormatValue(Format), "a DXGI format name (such as \"R32G32B32_FLOAT\") or number",
    Format::UNKNOWN,
    str: |s, E| s.parse::<Format>().map_err(|e| E::custom(e.to_string())),
    int: |n| u32_from_i64(n, "format").map(Format)
);

value_type!(
    /// An `offset` value: a byte offset or `"append"` ([`APPEND_ALIGNED_ELEMENT`]).
    OffsetValue(u32), "a byte offset or \"append\"", 0,
    str: |s, E| match s {
        "append" => Ok(APPEND_ALIGNED_ELEMENT),
        _ => Err(E::custom(format!("offset must be a number or \"append\", found \"{}\"", super::excerpt(s)))),
    },
    int: |n| u32_from_i64(n, "offset")
);

value_type!(
    /// A `class` value: `"vertex"`, `"instance"` or a number.
    ClassValue(u32), "\"vertex\", \"instance\" or a number", INPUT_PER_VERTEX_DATA,
    str: |s, E| match s {
        "vertex" => Ok(INPUT_PER_VERTEX_DATA),
        "instance" => Ok(INPUT_PER_INSTANCE_DATA),
        _ => Err(E::custom(format!("class must be \"vertex\", \"instance\" or a number, found \"{}\"", super::excerpt(s)))),
    },
    int: |n| u32_from_i64(n, "class")
);

value_type!(
    /// A component mask written as letters in xyzw order (`"xyz"`, `""`).
    MaskValue(u8), "component letters in xyzw order, such as \"xyz\"", 0,
    str: |s, E| parse_mask_letters(s).ok_or_else(|| E::custom(format!("mask \"{}\" is not component letters in xyzw order (such as \"xyz\" or \"yw\")", super::excerpt(s)))),
    int: |n| Err::<u8, E>(E::custom(format!("a mask is written as letters such as \"xyz\", found the number {n}")))
);

value_type!(
    /// A signature element's `type`: `"float"`, `"uint"`, `"sint"` (or `"int"`).
    TypeValue(ComponentType), "\"float\", \"uint\" or \"sint\"", ComponentType::FLOAT32,
    str: |s, E| match s {
        "float" => Ok(ComponentType::FLOAT32),
        "uint" => Ok(ComponentType::UINT32),
        "sint" | "int" => Ok(ComponentType::SINT32),
        _ => Err(E::custom(format!("type must be \"float\", \"uint\" or \"sint\", found \"{}\"", super::excerpt(s)))),
    },
    int: |n| Err::<ComponentType, E>(E::custom(format!("type must be \"float\", \"uint\" or \"sint\", found the number {n}")))
);

value_type!(
    /// A signature element's `sv`: a `D3D_NAME` without prefix or fxc's spelling.
    SystemValueValue(SystemValue), "a system value name such as \"NONE\" or \"VERTEX_ID\"",
    SystemValue::UNDEFINED,
    str: |s, E| SystemValue::from_name(s).ok_or_else(|| E::custom(format!("unknown system value \"{}\" (expected NONE, POSITION, VERTEX_ID, INSTANCE_ID, …)", super::excerpt(s)))),
    int: |n| u32_from_i64(n, "sv").map(SystemValue).and_then(|v| match v.schema_name() {
        Some(_) => Ok(v),
        None => Err(E::custom(format!("sv {n} is no D3D_NAME value ({}; names such as \"NONE\" or \"VERTEX_ID\" also work)", crate::dxbc::signature::system_value_ranges()))),
    })
);

/// Parses hex data as the conformance schema writes bytes (`"data"`, `"dxbc_hex"`, indirect
/// `args`): an even number of hex digits, either case, nothing else (no spaces, no `0x`).
pub fn parse_hex(s: &str) -> Result<Vec<u8>, String> {
    if !s.len().is_multiple_of(2) {
        return Err(format!(
            "hex data has an odd number of digits ({})",
            s.len()
        ));
    }
    let digit = |c: u8, at: usize| -> Result<u8, String> {
        match c {
            b'0'..=b'9' => Ok(c - b'0'),
            b'a'..=b'f' => Ok(c - b'a' + 10),
            b'A'..=b'F' => Ok(c - b'A' + 10),
            _ => Err(format!(
                "hex data has a non-hex character {:?} at position {at}",
                char::from(c)
            )),
        }
    };
    let b = s.as_bytes();
    (0..b.len() / 2)
        .map(|i| Ok((digit(b[2 * i], 2 * i)? << 4) | digit(b[2 * i + 1], 2 * i + 1)?))
        .collect()
}

/// A serde field deserializer for hex data ([`parse_hex`]), for
/// `#[serde(deserialize_with = "inlay::text::records::hex_bytes")]`.
pub fn hex_bytes<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
    let s = String::deserialize(d)?;
    parse_hex(&s).map_err(de::Error::custom)
}

/// Writes bytes as lower-case hex, the inverse of [`parse_hex`].
pub fn to_hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .fold(String::with_capacity(2 * bytes.len()), |mut s, b| {
            use fmt::Write as _;
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// `{"elements": [...]}` / `[[elements]]`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ElementsDoc {
    pub(crate) elements: Vec<ElementRecord>,
}

/// `{"signature": [...]}` / `[[signature]]`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SignatureDoc {
    pub(crate) signature: Vec<SignatureRecord>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex() {
        assert_eq!(parse_hex("00ffA0").unwrap(), vec![0, 0xff, 0xa0]);
        assert_eq!(parse_hex("").unwrap(), Vec::<u8>::new());
        assert!(parse_hex("0").unwrap_err().contains("odd"));
        assert!(parse_hex("0g").unwrap_err().contains("position 1"));
        assert!(parse_hex("0x00").unwrap_err().contains("position 1"));
        assert_eq!(to_hex(&[0, 0xff, 0xa0, 0x0b]), "00ffa00b");
    }
}
