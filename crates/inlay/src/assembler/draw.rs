//! Draw calls and their resolved parameters (ia-semantics §3, §4, §8), from one table.
//!
//! Every draw kind is one row of the `draw_kinds!` table below: its enum variant and fields,
//! its `kind` spelling, its API method, its C ABI value, the APIs and the lowest feature level
//! that have it, how it gives its numbers ([`DrawForm`]: keys, an indirect argument structure,
//! or DrawAuto's filled size) and each field's meaning ([`DrawField`]). [`DrawCall`],
//! [`DrawKind`] with its [`DrawKindInfo`], the key/value grammar and the file grammar
//! ([`crate::assembler::spec`]), the command line's help, the C ABI's `inlay_draw` and the
//! assembler's resolution to [`DrawParams`] are all generated from, or walk, that table; a new
//! draw kind (D3D12's, say) is a new row.

use super::IaError;
use crate::target::{Api, FeatureLevel};

/// What a draw's number means, whichever kind names it: the fields of [`DrawValues`], and the
/// meaning each key of a kind's row has ([`DrawKey::field`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawField {
    /// Vertices or indices (per instance): `VertexCount`, `IndexCountPerInstance`, …
    Count,
    /// `InstanceCount`.
    InstanceCount,
    /// `StartVertexLocation` or `StartIndexLocation`.
    Start,
    /// `BaseVertexLocation` (signed; [`DrawValues`] keeps its bits).
    BaseVertex,
    /// `StartInstanceLocation`.
    StartInstance,
    /// The indirect argument buffer ([`DrawValues::args`]).
    Args,
    /// `AlignedByteOffsetForArgs`.
    Offset,
    /// DrawAuto's `BufferFilledSize`.
    FilledSize,
}

impl DrawField {
    /// Every field, in the order of [`DrawValues`]' numbers.
    pub const ALL: [DrawField; 8] = [
        DrawField::Count,
        DrawField::InstanceCount,
        DrawField::Start,
        DrawField::BaseVertex,
        DrawField::StartInstance,
        DrawField::Args,
        DrawField::Offset,
        DrawField::FilledSize,
    ];

    /// Whether the value is signed (`BaseVertexLocation`, from −2^31 to 2^31 − 1).
    pub const fn is_signed(self) -> bool {
        matches!(self, DrawField::BaseVertex)
    }
}

/// Every value a draw call can take, by meaning: what a [`DrawCall`] of any kind holds
/// ([`DrawCall::values`]) and what one is built from ([`DrawCall::from_values`]) — the C
/// ABI's `inlay_draw` is this struct. Numbers a kind does not take keep their defaults
/// ([`DrawValues::default`]: one instance, everything else 0, no argument bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawValues<'b> {
    /// The numbers, indexed by [`DrawField`] (`values[DrawField::Count]`); `BaseVertex` as
    /// its 32-bit pattern, `Args` unused.
    numbers: [u32; DrawField::ALL.len()],
    /// The indirect argument buffer's bytes ([`DrawField::Args`]).
    pub args: &'b [u8],
}

impl Default for DrawValues<'_> {
    fn default() -> Self {
        let mut numbers = [0; DrawField::ALL.len()];
        numbers[DrawField::InstanceCount as usize] = 1;
        DrawValues { numbers, args: &[] }
    }
}

impl std::ops::Index<DrawField> for DrawValues<'_> {
    type Output = u32;
    fn index(&self, f: DrawField) -> &u32 {
        &self.numbers[f as usize]
    }
}

impl std::ops::IndexMut<DrawField> for DrawValues<'_> {
    fn index_mut(&mut self, f: DrawField) -> &mut u32 {
        &mut self.numbers[f as usize]
    }
}

/// How a field's value moves between a [`DrawCall`] variant and [`DrawValues`] (the
/// table's field types: `u32`, `i32` kept as its bits, the argument bytes).
trait FieldValue<'b>: Sized {
    fn put(self, v: &mut DrawValues<'b>, f: DrawField);
    fn take(v: &DrawValues<'b>, f: DrawField) -> Self;
}

impl FieldValue<'_> for u32 {
    fn put(self, v: &mut DrawValues<'_>, f: DrawField) {
        v[f] = self;
    }
    fn take(v: &DrawValues<'_>, f: DrawField) -> Self {
        v[f]
    }
}

impl FieldValue<'_> for i32 {
    fn put(self, v: &mut DrawValues<'_>, f: DrawField) {
        v[f] = self as u32;
    }
    fn take(v: &DrawValues<'_>, f: DrawField) -> Self {
        v[f] as i32
    }
}

impl<'b> FieldValue<'b> for &'b [u8] {
    fn put(self, v: &mut DrawValues<'b>, _: DrawField) {
        v.args = self;
    }
    fn take(v: &DrawValues<'b>, _: DrawField) -> Self {
        v.args
    }
}

/// How a draw kind gives its numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawForm {
    /// Each number is a key of its own (`vertex_count=…`): the direct draws.
    Keys,
    /// An argument structure in a buffer (`args` at `offset`): the words of `reads`' keys, in
    /// its order, little-endian.
    Indirect {
        /// The direct kind whose parameters the structure holds.
        reads: DrawKind,
    },
    /// DrawAuto: the vertex count comes from the stream-output filled size of slot 0.
    Auto,
}

/// One key of a draw kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawKey {
    /// The key (and [`DrawCall`] field) name: `vertex_count`, `args`, …
    pub name: &'static str,
    /// The API's parameter name: `VertexCount`, `AlignedByteOffsetForArgs`, …
    pub param: &'static str,
    /// What the value means.
    pub field: DrawField,
}

/// A draw kind's row of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawKindInfo {
    /// The kind.
    pub kind: DrawKind,
    /// The spelling of `kind` in files, on the command line and in Python (`draw_indexed`).
    pub name: &'static str,
    /// The API method (`DrawIndexed`).
    pub method: &'static str,
    /// The APIs whose device context has the method.
    pub apis: &'static [Api],
    /// The lowest feature level that has it.
    pub min_level: FeatureLevel,
    /// The rule refusing it elsewhere (`""` for a kind every API and level has).
    pub needs: &'static str,
    /// Whether it reads an index buffer.
    pub indexed: bool,
    /// Whether it is an instanced form.
    pub instanced: bool,
    /// How it gives its numbers.
    pub form: DrawForm,
    /// Its keys, in the API's parameter order.
    pub keys: &'static [DrawKey],
    /// Their names (`keys[i].name`).
    pub key_names: &'static [&'static str],
}

impl DrawKind {
    /// The kind spelt `name` (exactly: the caller folds case).
    pub fn from_name(name: &str) -> Option<DrawKind> {
        DRAW_KINDS.iter().copied().find(|k| k.info().name == name)
    }

    /// The kind whose C ABI value (`inlay_draw.kind`, `INLAY_DRAW_*`) is `value`.
    pub fn from_c(value: u32) -> Option<DrawKind> {
        DRAW_KINDS.iter().copied().find(|&k| k as u32 == value)
    }

    /// Every kind's spelling, in table order, as an error message lists them
    /// (`draw, draw_indexed, … or draw_auto`).
    pub fn names_listed() -> String {
        let names: Vec<&str> = DRAW_KINDS.iter().map(|k| k.info().name).collect();
        match names.split_last() {
            Some((last, [])) => last.to_string(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        }
    }
}

/// The table: a row per draw kind. Each row: doc lines; `Variant = C value`, the `kind`
/// spelling, the API method, the APIs that have it, the lowest feature level and the rule
/// that says so, `indexed`/`instanced` flags, the form (`Keys`, `Indirect(DirectKind)`,
/// `Auto`) and the fields, each with its doc, type, meaning and API parameter name.
macro_rules! draw_kinds {
    (@form Keys) => { DrawForm::Keys };
    (@form Auto) => { DrawForm::Auto };
    (@form Indirect $reads:ident) => { DrawForm::Indirect { reads: DrawKind::$reads } };
    (@shape Indirect $variant:ident) => { Indirect };
    (@shape $form:ident $variant:ident) => { $variant };
    (@shape_item Indirect $variant:ident { $($field:ident: $ty:ty),* }) => {};
    (@shape_item $form:ident $variant:ident { $($field:ident: $ty:ty),* }) => {
        #[derive(Deserialize, Serialize)]
        #[serde(deny_unknown_fields)]
        pub(in crate::assembler) struct $variant {
            $( $field: $ty, )*
        }
    };
    (@from_shape Indirect $variant:ident $shape:ident { $args:ident, $offset:ident }) => {
        (
            DrawKind::$variant,
            $shape.args.data,
            DrawCall::$variant { $args: &[], $offset: $shape.args.offset },
        )
    };
    (@from_shape $form:ident $variant:ident $shape:ident { $($field:ident),* }) => {
        (DrawKind::$variant, Vec::new(), DrawCall::$variant { $( $field: $shape.$field ),* })
    };
    (@to_shape Indirect $variant:ident { $args:ident, $offset:ident }) => {
        Indirect { args: ArgsObject { data: $args.to_vec(), offset: $offset } }
    };
    (@to_shape $form:ident $variant:ident { $($field:ident),* }) => {
        $variant { $($field),* }
    };
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident = $c:literal, $kind:literal, $method:literal,
        apis [$($api:ident),*], $level:ident, $needs:literal,
        indexed $indexed:literal, instanced $instanced:literal,
        $form:ident $(($reads:ident))? {
            $( $(#[doc = $fdoc:literal])* $field:ident: $ty:ty => $role:ident $param:literal ),* $(,)?
        }
    )*) => {
        /// One draw call, as the device context takes it (a row of this module's table each).
        ///
        /// The indirect forms read their argument structure, little-endian, from `args` at
        /// byte `offset` (`AlignedByteOffsetForArgs`, a multiple of 4; spec §8.7, §8.8).
        /// `DrawAuto` takes the `BufferFilledSize` that stream output recorded for the buffer
        /// bound to slot 0 (ia-semantics §8; see [`DrawParams`] for the vertex count it gives).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum DrawCall<'b> {
            $(
                $(#[doc = $doc])*
                $variant {
                    $( $(#[doc = $fdoc])* $field: $ty, )*
                },
            )*
        }

        /// A draw kind: a [`DrawCall`] variant without its values. The discriminant is the C
        /// ABI's `inlay_draw.kind` (`INLAY_DRAW_*`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(u32)]
        pub enum DrawKind {
            $(
                #[doc = concat!("`", $method, "` (`", $kind, "`).")]
                $variant = $c,
            )*
        }

        /// Every draw kind, in table order.
        pub const DRAW_KINDS: &[DrawKind] = &[$(DrawKind::$variant),*];

        impl DrawKind {
            /// The kind's row of the table.
            pub const fn info(self) -> &'static DrawKindInfo {
                match self {
                    $(
                        DrawKind::$variant => &DrawKindInfo {
                            kind: DrawKind::$variant,
                            name: $kind,
                            method: $method,
                            apis: &[$(Api::$api),*],
                            min_level: FeatureLevel::$level,
                            needs: $needs,
                            indexed: $indexed,
                            instanced: $instanced,
                            form: draw_kinds!(@form $form $($reads)?),
                            keys: &[$(DrawKey {
                                name: stringify!($field),
                                param: $param,
                                field: DrawField::$role,
                            }),*],
                            key_names: &[$(stringify!($field)),*],
                        },
                    )*
                }
            }
        }

        impl<'b> DrawCall<'b> {
            /// The call's kind.
            pub const fn kind(&self) -> DrawKind {
                match self {
                    $( DrawCall::$variant { .. } => DrawKind::$variant, )*
                }
            }

            /// The call's values by meaning (the kind's other fields at their defaults).
            pub fn values(&self) -> DrawValues<'b> {
                let mut v = DrawValues::default();
                match *self {
                    $(
                        DrawCall::$variant { $($field),* } => {
                            $( FieldValue::put($field, &mut v, DrawField::$role); )*
                        }
                    )*
                }
                v
            }

            /// The call of `kind` with the values of `v` that the kind takes.
            pub fn from_values(kind: DrawKind, v: &DrawValues<'b>) -> DrawCall<'b> {
                match kind {
                    $(
                        DrawKind::$variant => DrawCall::$variant {
                            $( $field: FieldValue::take(v, DrawField::$role), )*
                        },
                    )*
                }
            }
        }

        /// The file grammar's shapes, one per kind (`spec`'s serde implementations).
        #[cfg(feature = "serde")]
        pub(super) mod file_shapes {
            use serde::{Deserialize, Serialize};

            use super::{DrawCall, DrawKind};
            use crate::text::records::{hex_bytes, to_hex};

            /// A `call` object on disk: the kind's keys, every one required; the indirect
            /// forms nest `args` and `offset` as `args: {data, offset}`.
            #[derive(Deserialize, Serialize)]
            #[serde(tag = "kind")]
            pub(in crate::assembler) enum CallObject {
                $(
                    #[serde(rename = $kind)]
                    $variant(draw_kinds!(@shape $form $variant)),
                )*
            }

            $( draw_kinds!(@shape_item $form $variant { $($field: $ty),* }); )*

            /// An indirect draw's `args` object.
            #[derive(Deserialize, Serialize)]
            #[serde(deny_unknown_fields)]
            pub(in crate::assembler) struct Indirect {
                args: ArgsObject,
            }

            #[derive(Deserialize, Serialize)]
            #[serde(deny_unknown_fields)]
            struct ArgsObject {
                #[serde(deserialize_with = "hex_bytes", serialize_with = "hex_string")]
                data: Vec<u8>,
                offset: u32,
            }

            fn hex_string<S: serde::Serializer>(data: &[u8], s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(&to_hex(data))
            }

            impl CallObject {
                /// The call the object spells: its kind, the argument bytes (indirect forms)
                /// and the call with any indirect argument bytes empty.
                pub(in crate::assembler) fn into_call(self) -> (DrawKind, Vec<u8>, DrawCall<'static>) {
                    match self {
                        $(
                            CallObject::$variant(shape) => {
                                draw_kinds!(@from_shape $form $variant shape { $($field),* })
                            }
                        )*
                    }
                }

                /// The object spelling `call`.
                pub(in crate::assembler) fn from_call(call: DrawCall<'_>) -> CallObject {
                    match call {
                        $(
                            DrawCall::$variant { $($field),* } => CallObject::$variant(
                                draw_kinds!(@to_shape $form $variant { $($field),* })
                            ),
                        )*
                    }
                }
            }
        }
    };
}

draw_kinds! {
    /// `Draw(VertexCount, StartVertexLocation)`.
    Draw = 0, "draw", "Draw",
        apis [D3D10, D3D10_1, D3D11], L9_1, "",
        indexed false, instanced false,
        Keys {
            /// `VertexCount`.
            vertex_count: u32 => Count "VertexCount",
            /// `StartVertexLocation`.
            start_vertex: u32 => Start "StartVertexLocation",
        }
    /// `DrawIndexed(IndexCount, StartIndexLocation, BaseVertexLocation)`.
    DrawIndexed = 1, "draw_indexed", "DrawIndexed",
        apis [D3D10, D3D10_1, D3D11], L9_1, "",
        indexed true, instanced false,
        Keys {
            /// `IndexCount`.
            index_count: u32 => Count "IndexCount",
            /// `StartIndexLocation`.
            start_index: u32 => Start "StartIndexLocation",
            /// `BaseVertexLocation` (added to each index with 32-bit wrap-around, §3).
            base_vertex: i32 => BaseVertex "BaseVertexLocation",
        }
    /// `DrawInstanced(VertexCountPerInstance, InstanceCount, StartVertexLocation,
    /// StartInstanceLocation)`.
    DrawInstanced = 2, "draw_instanced", "DrawInstanced",
        apis [D3D10, D3D10_1, D3D11], L9_3, "instancing needs feature level 9_3",
        indexed false, instanced true,
        Keys {
            /// `VertexCountPerInstance`.
            vertex_count_per_instance: u32 => Count "VertexCountPerInstance",
            /// `InstanceCount`.
            instance_count: u32 => InstanceCount "InstanceCount",
            /// `StartVertexLocation`.
            start_vertex: u32 => Start "StartVertexLocation",
            /// `StartInstanceLocation`.
            start_instance: u32 => StartInstance "StartInstanceLocation",
        }
    /// `DrawIndexedInstanced(IndexCountPerInstance, InstanceCount, StartIndexLocation,
    /// BaseVertexLocation, StartInstanceLocation)`.
    DrawIndexedInstanced = 3, "draw_indexed_instanced", "DrawIndexedInstanced",
        apis [D3D10, D3D10_1, D3D11], L9_3, "instancing needs feature level 9_3",
        indexed true, instanced true,
        Keys {
            /// `IndexCountPerInstance`.
            index_count_per_instance: u32 => Count "IndexCountPerInstance",
            /// `InstanceCount`.
            instance_count: u32 => InstanceCount "InstanceCount",
            /// `StartIndexLocation`.
            start_index: u32 => Start "StartIndexLocation",
            /// `BaseVertexLocation`.
            base_vertex: i32 => BaseVertex "BaseVertexLocation",
            /// `StartInstanceLocation`.
            start_instance: u32 => StartInstance "StartInstanceLocation",
        }
    /// `DrawInstancedIndirect`: 16 bytes {VertexCountPerInstance, InstanceCount,
    /// StartVertexLocation, StartInstanceLocation} at `offset` in `args`.
    DrawInstancedIndirect = 4, "draw_instanced_indirect", "DrawInstancedIndirect",
        apis [D3D11], L10_0, "indirect draws need the D3D11 API and feature level 10_0 or above",
        indexed false, instanced true,
        Indirect(DrawInstanced) {
            /// The argument buffer's bytes.
            args: &'b [u8] => Args "pBufferForArgs",
            /// `AlignedByteOffsetForArgs`.
            offset: u32 => Offset "AlignedByteOffsetForArgs",
        }
    /// `DrawIndexedInstancedIndirect`: 20 bytes {IndexCountPerInstance, InstanceCount,
    /// StartIndexLocation, BaseVertexLocation, StartInstanceLocation} at `offset` in `args`.
    DrawIndexedInstancedIndirect = 5, "draw_indexed_instanced_indirect", "DrawIndexedInstancedIndirect",
        apis [D3D11], L10_0, "indirect draws need the D3D11 API and feature level 10_0 or above",
        indexed true, instanced true,
        Indirect(DrawIndexedInstanced) {
            /// The argument buffer's bytes.
            args: &'b [u8] => Args "pBufferForArgs",
            /// `AlignedByteOffsetForArgs`.
            offset: u32 => Offset "AlignedByteOffsetForArgs",
        }
    /// `DrawAuto()`, with the `BufferFilledSize` (bytes from the start of the buffer) that the
    /// stream-output stage recorded for the buffer bound to slot 0.
    DrawAuto = 6, "draw_auto", "DrawAuto",
        apis [D3D10, D3D10_1, D3D11], L10_0, "DrawAuto needs stream output (feature level 10_0)",
        indexed false, instanced false,
        Auto {
            /// `BufferFilledSize` of slot 0's buffer.
            filled_size: u32 => FilledSize "BufferFilledSize",
        }
}

impl DrawCall<'_> {
    /// The API method name (`"DrawIndexedInstancedIndirect"`, …); the kind's spelling is
    /// `kind().info().name`.
    #[allow(clippy::misnamed_getters)]
    pub fn name(&self) -> &'static str {
        self.kind().info().method
    }

    /// Whether the draw reads an index buffer.
    pub fn is_indexed(&self) -> bool {
        self.kind().info().indexed
    }

    /// Whether the draw is an instanced form (direct or indirect).
    pub fn is_instanced(&self) -> bool {
        self.kind().info().instanced
    }
}

/// A draw reduced to the numbers the input assembler walks: every draw kind becomes an
/// (optionally indexed) instanced draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct DrawParams {
    /// Whether vertex positions come from the index buffer.
    pub indexed: bool,
    /// Vertices (or indices) per instance.
    pub count: u32,
    /// Instances (1 for the non-instanced forms and DrawAuto).
    pub instance_count: u32,
    /// `StartVertexLocation` (non-indexed) or `StartIndexLocation` (indexed).
    pub start: u32,
    /// `BaseVertexLocation` (0 for non-indexed draws).
    pub base_vertex: i32,
    /// `StartInstanceLocation`.
    pub start_instance: u32,
}

impl DrawParams {
    /// Number of vertex positions the walk visits (indices read, cuts included):
    /// `count × instance_count`, up to 2^64 − 2^33 + 1.
    pub fn steps(&self) -> u64 {
        self.count as u64 * self.instance_count as u64
    }
}

/// Reads `out.len()` little-endian 32-bit arguments at `offset` of `args` (spec §8.7, §8.8):
/// the offset must be a multiple of 4 and the structure must lie inside the buffer.
pub(crate) fn read_args(
    call: &'static str,
    args: &[u8],
    offset: u32,
    out: &mut [u32],
) -> Result<(), IaError> {
    if !offset.is_multiple_of(4) {
        return Err(IaError::ArgsMisaligned { call, offset });
    }
    let needed = 4 * out.len();
    let start = offset as usize;
    let Some(words) = start
        .checked_add(needed)
        .and_then(|end| args.get(start..end))
    else {
        return Err(IaError::ArgsOutOfRange {
            call,
            offset,
            needed: needed as u32,
            len: args.len(),
        });
    };
    for (w, b) in out.iter_mut().zip(words.chunks_exact(4)) {
        *w = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table's rows agree with each other: spellings, C values and key names unique; an
    /// indirect kind reads a keyed kind of the same indexing; the names list is the keys.
    #[test]
    fn the_table_is_consistent() {
        let mut names = Vec::new();
        for &k in DRAW_KINDS {
            let info = k.info();
            assert_eq!(info.kind, k);
            assert_eq!(DrawKind::from_name(info.name), Some(k));
            assert_eq!(DrawKind::from_c(k as u32), Some(k));
            assert!(!names.contains(&info.name), "{} twice", info.name);
            names.push(info.name);
            let keys: Vec<&str> = info.keys.iter().map(|k| k.name).collect();
            assert_eq!(keys, info.key_names);
            for (i, key) in info.keys.iter().enumerate() {
                assert!(
                    !info.keys[..i].iter().any(|o| o.field == key.field),
                    "{}: two keys mean {:?}",
                    info.name,
                    key.field
                );
            }
            if let DrawForm::Indirect { reads } = info.form {
                assert_eq!(reads.info().form, DrawForm::Keys, "{}", info.name);
                assert_eq!(reads.info().indexed, info.indexed, "{}", info.name);
                assert!(reads.info().keys.len() <= DrawField::ALL.len());
            }
            assert!(!info.apis.is_empty(), "{}", info.name);
        }
        assert_eq!(DrawKind::from_c(DRAW_KINDS.len() as u32 + 100), None);
        assert_eq!(
            DrawKind::names_listed(),
            "draw, draw_indexed, draw_instanced, draw_indexed_instanced, \
             draw_instanced_indirect, draw_indexed_instanced_indirect or draw_auto"
        );
    }

    /// Every kind's call carries exactly the values of its fields: built from values that
    /// differ per field, it gives them back, and the fields it does not take keep their
    /// defaults.
    #[test]
    fn calls_and_values_round_trip() {
        let bytes = [1u8, 2, 3];
        let mut given = DrawValues::default();
        for (i, &f) in DrawField::ALL.iter().enumerate() {
            given[f] = 0x100 + i as u32;
        }
        given.args = &bytes;
        for &k in DRAW_KINDS {
            let call = DrawCall::from_values(k, &given);
            assert_eq!(call.kind(), k);
            let back = call.values();
            let info = k.info();
            for f in DrawField::ALL {
                let taken = info.keys.iter().any(|key| key.field == f);
                let want = if taken {
                    given[f]
                } else {
                    DrawValues::default()[f]
                };
                if f != DrawField::Args {
                    assert_eq!(back[f], want, "{} {f:?}", info.name);
                }
            }
            let takes_args = info.keys.iter().any(|key| key.field == DrawField::Args);
            assert_eq!(back.args, if takes_args { &bytes[..] } else { &[] });
        }
        // BaseVertexLocation keeps its sign through its bit pattern.
        let call = DrawCall::DrawIndexed {
            index_count: 3,
            start_index: 0,
            base_vertex: -7,
        };
        assert_eq!(call.values()[DrawField::BaseVertex], (-7i32) as u32);
        assert_eq!(DrawCall::from_values(call.kind(), &call.values()), call);
    }
}
