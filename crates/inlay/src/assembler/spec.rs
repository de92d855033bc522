//! Draw calls as people and files name them: the conformance schema's `call` object, the
//! command line's `--draw KIND,key=value…` and the Python package's `draw=` dict are one
//! grammar, read here into a [`DrawSpec`] (`shared/conformance/SCHEMA.md`, DRAW).
//!
//! A [`DrawCall`] borrows its indirect-argument bytes (it is what
//! [`InputAssembler::draw`](super::InputAssembler::draw) takes, as `ID3D11DeviceContext`
//! takes a buffer); a [`DrawSpec`] owns them, or names where they are (a file name on the
//! command line), and lends a [`DrawCall`] with [`DrawSpec::call`]. That is why the file
//! grammar deserializes into `DrawSpec<Vec<u8>>` and not into `DrawCall` itself: a hex string
//! in a file cannot be borrowed as bytes.
//!
//! The key/value form ([`DrawSpec::from_keys`], [`DrawSpec::parse`]) takes the schema's key
//! names, the short aliases `count`, `start`, `base` and `instances`, and `draw_auto` with
//! `filled_size` (DrawAuto has no conformance-schema case). Counts that are not given come from
//! [`DrawDefaults`] (what the caller's buffers hold); starts and the base vertex default to 0,
//! instance counts to 1.
//!
//! ```
//! use inlay::assembler::{DrawCall, DrawDefaults, DrawSpec};
//! let defaults = DrawDefaults { vertex_count: Some(6), ..DrawDefaults::default() };
//! let spec = DrawSpec::parse("draw_instanced,instances=2", &defaults, |_| false)?;
//! assert_eq!(
//!     spec.call(),
//!     DrawCall::DrawInstanced {
//!         vertex_count_per_instance: 6,
//!         instance_count: 2,
//!         start_vertex: 0,
//!         start_instance: 0,
//!     }
//! );
//! # Ok::<(), inlay::assembler::DrawSpecError>(())
//! ```

use super::draw::{DrawCall, DrawField, DrawForm, DrawKind, DrawValues};

/// A draw call that owns (or names) its indirect-argument bytes.
///
/// `A` is what the indirect forms read their argument structure from: the bytes themselves
/// (`Vec<u8>`, what a conformance case or the Python package gives), or, on the command line,
/// the name of the file that holds them (`String`, read by the caller with
/// [`DrawSpec::map_args`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DrawSpec<A = Vec<u8>> {
    /// Every parameter is known: any direct draw, and DrawAuto.
    Direct(DrawCall<'static>),
    /// A draw of an indirect kind ([`DrawForm::Indirect`]: `DrawInstancedIndirect`,
    /// `DrawIndexedInstancedIndirect`), its argument structure read from `args` at byte
    /// `offset`.
    Indirect {
        /// The draw kind.
        kind: DrawKind,
        /// The argument buffer (or where it is).
        args: A,
        /// `AlignedByteOffsetForArgs`.
        offset: u32,
    },
}

impl<A: AsRef<[u8]>> DrawSpec<A> {
    /// The draw call, with the indirect forms borrowing the argument bytes.
    pub fn call(&self) -> DrawCall<'_> {
        match self {
            DrawSpec::Direct(call) => *call,
            DrawSpec::Indirect { kind, args, offset } => {
                let mut v = DrawValues::default();
                v.args = args.as_ref();
                v[DrawField::Offset] = *offset;
                DrawCall::from_values(*kind, &v)
            }
        }
    }
}

impl<A> DrawSpec<A> {
    /// Replaces what names the argument bytes (a file name by the file's bytes, say).
    pub fn map_args<B, E>(self, f: impl FnOnce(A) -> Result<B, E>) -> Result<DrawSpec<B>, E> {
        Ok(match self {
            DrawSpec::Direct(call) => DrawSpec::Direct(call),
            DrawSpec::Indirect { kind, args, offset } => DrawSpec::Indirect {
                kind,
                args: f(args)?,
                offset,
            },
        })
    }

    /// The `kind` spelling of this draw (`"draw_indexed_instanced_indirect"`, …).
    pub fn kind(&self) -> &'static str {
        match self {
            DrawSpec::Direct(call) => call.kind().info().name,
            DrawSpec::Indirect { kind, .. } => kind.info().name,
        }
    }
}

impl DrawCall<'_> {
    /// The direct call written in the grammar [`DrawSpec::from_keys`] reads: its `kind` and
    /// every schema key with its value, in the schema's order (`SCHEMA.md`, DRAW), so that
    /// reading them back gives the same call. `None` for the indirect calls and `DrawAuto`,
    /// whose arguments are not key values.
    ///
    /// ```
    /// use inlay::assembler::DrawCall;
    /// let call = DrawCall::DrawIndexed { index_count: 6, start_index: 0, base_vertex: -2 };
    /// let (kind, keys) = call.spec_keys().unwrap();
    /// assert_eq!(kind, "draw_indexed");
    /// assert_eq!(keys, [("index_count", 6), ("start_index", 0), ("base_vertex", -2)]);
    /// ```
    pub fn spec_keys(&self) -> Option<(&'static str, Vec<(&'static str, i64)>)> {
        let info = self.kind().info();
        if info.form != DrawForm::Keys {
            return None;
        }
        let v = self.values();
        let keys = info
            .keys
            .iter()
            .map(|k| {
                let n = v[k.field];
                let n = if k.field.is_signed() {
                    n as i32 as i64
                } else {
                    n as i64
                };
                (k.name, n)
            })
            .collect();
        Some((info.name, keys))
    }
}

/// The counts a key/value draw takes when it does not give them: what the bound buffers hold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DrawDefaults {
    /// Vertices per instance for `draw` / `draw_instanced` (`None`: the caller cannot tell).
    pub vertex_count: Option<u32>,
    /// Indices per instance for the indexed forms (`None`: no index buffer).
    pub index_count: Option<u32>,
    /// DrawAuto's `BufferFilledSize` (`None`: slot 0 is not bound).
    pub filled_size: Option<u32>,
}

/// A key/value draw that cannot be read. Each variant names the kind, key and value concerned.
/// The messages are written to follow a shell's prefix: `--draw: ` before
/// [`NotKeyValue`](Self::NotKeyValue) and [`UnknownKind`](Self::UnknownKind), `--draw ` before
/// the others (which begin with the kind or key); the two missing-value variants are where a
/// shell says how to give the value in its own syntax ([`DrawSpecError::message_for`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DrawSpecError {
    /// A part of the text has no `=`.
    #[error("`{0}` is not key=value")]
    NotKeyValue(String),
    /// The kind is none of the table's ([`DRAW_KINDS`](super::DRAW_KINDS)).
    #[error("unknown kind `{0}` (expected {kinds})", kinds = DrawKind::names_listed())]
    UnknownKind(String),
    /// The key does not belong to the kind.
    #[error("{kind}: unknown key `{key}` (expected {})", expected.join(", "))]
    UnknownKey {
        /// The draw kind.
        kind: &'static str,
        /// The key given (after aliases are resolved).
        key: String,
        /// The keys the kind takes.
        expected: &'static [&'static str],
    },
    /// An unsigned value is not a number from 0 to 2^32 − 1 (decimal or `0x` hex).
    #[error("{key}: `{value}` is not a number from 0 to 4294967295")]
    NotUnsigned {
        /// The key.
        key: &'static str,
        /// The value given.
        value: String,
    },
    /// `base_vertex` is not a decimal number from −2^31 to 2^31 − 1.
    #[error("{key}: `{value}` is not a number from -2147483648 to 2147483647")]
    NotSigned {
        /// The key.
        key: &'static str,
        /// The value given.
        value: String,
    },
    /// A count is not given and [`DrawDefaults`] has none: `key` is `vertex_count` or
    /// `vertex_count_per_instance` (no per-vertex buffer to count), `index_count` or
    /// `index_count_per_instance` (no index buffer), or `filled_size` (slot 0 unbound).
    #[error("{kind}: no {key} given and none to take from the buffers")]
    MissingCount {
        /// The draw kind.
        kind: &'static str,
        /// The count's key.
        key: &'static str,
    },
    /// An indirect draw without `args`.
    #[error("{kind}: no argument structure (`args`) given")]
    MissingArgs {
        /// The draw kind.
        kind: &'static str,
    },
}

/// How a shell (the command line, the Python package) spells a draw's values, for the
/// messages of [`DrawSpecError::message_for`]: one text for one mistake, whichever shell
/// reports it.
pub trait DrawSyntax {
    /// What names the draw in messages: `--draw`, `draw`.
    fn option(&self) -> &str;
    /// How to give `key` of `kind` a value: `--draw draw,vertex_count=N`.
    fn give(&self, kind: &str, key: &str) -> String;
    /// How to say where an indirect draw's argument structure is: `KIND,args=FILE[,offset=N]`.
    fn give_args(&self, kind: &str) -> String;
    /// How to bind an index buffer: `--ib FILE,format=…`.
    fn index_buffer(&self) -> &str;
    /// How to bind slot 0, in brackets after "slot 0 bound" (`" (--vb 0=FILE)"`; may be empty).
    fn slot0(&self) -> &str;
}

impl DrawSpecError {
    /// The message as a shell shows it: prefixed with the shell's name for the draw, and for a
    /// value that is missing, how to give it in the shell's own syntax.
    pub fn message_for(&self, shell: &impl DrawSyntax) -> String {
        let option = shell.option();
        match self {
            DrawSpecError::NotKeyValue(_) | DrawSpecError::UnknownKind(_) => {
                format!("{option}: {self}")
            }
            DrawSpecError::MissingCount { kind, key } => {
                let field = DrawKind::from_name(kind)
                    .and_then(|k| k.info().keys.iter().find(|k| k.name == *key))
                    .map(|k| k.field);
                let indexed = DrawKind::from_name(kind).is_some_and(|k| k.info().indexed);
                let give = shell.give(kind, key);
                match field {
                    Some(DrawField::FilledSize) => {
                        format!("{kind} needs slot 0 bound{} or {give}", shell.slot0())
                    }
                    _ if indexed => {
                        format!("an indexed draw needs {} or {give}", shell.index_buffer())
                    }
                    _ => format!(
                        "cannot tell how many vertices to draw (no per-vertex buffer with a \
                         stride); give {give}"
                    ),
                }
            }
            DrawSpecError::MissingArgs { kind } => format!(
                "{option} {kind}: say where the argument structure is: {}",
                shell.give_args(kind)
            ),
            _ => format!("{option} {self}"),
        }
    }
}

/// The short names a key may be given by, and what they stand for in any kind that has a key
/// of that meaning.
const ALIASES: [(&str, DrawField); 4] = [
    ("count", DrawField::Count),
    ("start", DrawField::Start),
    ("base", DrawField::BaseVertex),
    ("instances", DrawField::InstanceCount),
];

/// A decimal or `0x` hexadecimal `u32`, spaces around it ignored ([`crate::text::parse_u32`]).
fn unsigned(key: &'static str, value: &str) -> Result<u32, DrawSpecError> {
    crate::text::parse_u32(value).ok_or_else(|| DrawSpecError::NotUnsigned {
        key,
        value: value.to_string(),
    })
}

/// A decimal `i32`, spaces around it ignored, as its 32-bit pattern.
fn signed(key: &'static str, value: &str) -> Result<u32, DrawSpecError> {
    value
        .trim()
        .parse::<i32>()
        .map(|v| v as u32)
        .map_err(|_| DrawSpecError::NotSigned {
            key,
            value: value.to_string(),
        })
}

impl DrawKind {
    /// The kind spelt `text`, ignoring case and surrounding spaces.
    fn parse(text: &str) -> Result<DrawKind, DrawSpecError> {
        let lower = text.trim().to_ascii_lowercase();
        DrawKind::from_name(&lower).ok_or(DrawSpecError::UnknownKind(lower))
    }
}

impl<A> DrawSpec<A> {
    /// Reads a draw from its kind and `key=value` pairs (the later of two equal keys wins).
    ///
    /// `kind` is matched ignoring case and surrounding spaces; keys may be the schema's names
    /// or the aliases `count`, `start`, `base`, `instances`. `args` is what an indirect draw
    /// reads its argument structure from (the `args` key: not among `keys`); giving it to a
    /// direct draw is an unknown key, like any other key the kind does not take.
    ///
    /// ```
    /// use inlay::assembler::{DrawDefaults, DrawKind, DrawSpec, DrawSpecError};
    /// let d = DrawDefaults::default();
    /// let spec = DrawSpec::from_keys("draw_indexed_instanced_indirect", [("offset", "4")],
    ///     Some(vec![0u8; 24]), &d)?;
    /// assert!(matches!(spec,
    ///     DrawSpec::Indirect { kind: DrawKind::DrawIndexedInstancedIndirect, offset: 4, .. }));
    /// let e = DrawSpec::<Vec<u8>>::from_keys("draw", [("count", "x")], None, &d).unwrap_err();
    /// assert_eq!(e.to_string(), "vertex_count: `x` is not a number from 0 to 4294967295");
    /// # Ok::<(), DrawSpecError>(())
    /// ```
    pub fn from_keys<'k>(
        kind: &str,
        keys: impl IntoIterator<Item = (&'k str, &'k str)>,
        args: Option<A>,
        defaults: &DrawDefaults,
    ) -> Result<DrawSpec<A>, DrawSpecError> {
        let kind = DrawKind::parse(kind)?;
        let info = kind.info();
        let unknown = |key: &str| DrawSpecError::UnknownKey {
            kind: info.name,
            key: key.to_string(),
            expected: info.key_names,
        };
        let mut given: Vec<(DrawField, &str)> = Vec::new();
        for (key, value) in keys {
            let key = key.trim();
            let found = info
                .keys
                .iter()
                .find(|k| k.name == key || ALIASES.iter().any(|&(a, f)| a == key && f == k.field));
            match found {
                Some(k) if k.field != DrawField::Args => given.push((k.field, value)),
                Some(k) => return Err(unknown(k.name)),
                None => return Err(unknown(key)),
            }
        }
        if args.is_some() && !info.keys.iter().any(|k| k.field == DrawField::Args) {
            return Err(unknown("args"));
        }
        let mut values = DrawValues::default();
        for k in info.keys.iter().filter(|k| k.field != DrawField::Args) {
            values[k.field] = match given.iter().rev().find(|(f, _)| *f == k.field) {
                Some((_, v)) if k.field.is_signed() => signed(k.name, v)?,
                Some((_, v)) => unsigned(k.name, v)?,
                // Counts not given come from the buffers; without them the draw cannot be read.
                None => {
                    let default = match k.field {
                        DrawField::Count if info.indexed => defaults.index_count,
                        DrawField::Count => defaults.vertex_count,
                        DrawField::FilledSize => defaults.filled_size,
                        _ => continue,
                    };
                    default.ok_or(DrawSpecError::MissingCount {
                        kind: info.name,
                        key: k.name,
                    })?
                }
            };
        }
        if let DrawForm::Indirect { .. } = info.form {
            let args = args.ok_or(DrawSpecError::MissingArgs { kind: info.name })?;
            return Ok(DrawSpec::Indirect {
                kind,
                args,
                offset: values[DrawField::Offset],
            });
        }
        Ok(DrawSpec::Direct(DrawCall::from_values(kind, &values)))
    }
}

impl DrawSpec<String> {
    /// Reads the command line's `KIND,key=value,...` (`--draw`), for example
    /// `draw_indexed,count=36,base=-4` or `draw_instanced_indirect,args=args.bin,offset=16`.
    ///
    /// `args=NAME` names where the argument structure is; an empty name is no name. A name
    /// may contain commas when it names something that exists: `exists` is asked about
    /// `NAME`, `NAME,next-part`, … (up to 64 parts) and the longest name it knows wins
    /// (issue 17: file names with commas). Otherwise the name ends at the next comma.
    /// See [`DrawSpec::from_keys`] for the rest.
    pub fn parse(
        text: &str,
        defaults: &DrawDefaults,
        exists: impl Fn(&str) -> bool,
    ) -> Result<DrawSpec<String>, DrawSpecError> {
        let mut parts = text.split(',');
        let kind = parts.next().unwrap_or("");
        let rest: Vec<&str> = parts.collect();
        let mut keys: Vec<(&str, &str)> = Vec::new();
        let mut args: Option<String> = None;
        let mut i = 0;
        while i < rest.len() {
            let p = rest[i];
            i += 1;
            if let Some(name) = p.strip_prefix("args=") {
                let mut candidate = String::from(name);
                let mut longest = (0, name.to_string());
                for (n, next) in rest[i..].iter().take(64).enumerate() {
                    candidate.push(',');
                    candidate.push_str(next);
                    if exists(&candidate) {
                        longest = (n + 1, candidate.clone());
                    }
                }
                i += longest.0;
                args = Some(longest.1);
                continue;
            }
            let (k, v) = p
                .split_once('=')
                .ok_or_else(|| DrawSpecError::NotKeyValue(p.to_string()))?;
            keys.push((k, v));
        }
        // An empty `args=` is no argument buffer for an indirect draw, and still a key that a
        // direct draw does not take.
        let indirect =
            DrawKind::parse(kind).is_ok_and(|k| matches!(k.info().form, DrawForm::Indirect { .. }));
        if args.as_deref() == Some("") && indirect {
            args = None;
        }
        DrawSpec::from_keys(kind, keys, args, defaults)
    }
}

/// The file grammar: the conformance schema's `call` object (`shared/conformance/SCHEMA.md`,
/// DRAW), with the indirect forms' `args` as `{"data": HEX, "offset": N}`, one shape per row
/// of the draw-kind table. Every key is required and unknown keys are errors; `draw_auto` is
/// not part of the schema.
#[cfg(feature = "serde")]
mod file {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::super::draw::file_shapes::CallObject;
    use super::{DrawForm, DrawSpec};

    impl<'de> Deserialize<'de> for DrawSpec<Vec<u8>> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let (kind, args, call) = CallObject::deserialize(d)?.into_call();
            let info = kind.info();
            Ok(match info.form {
                DrawForm::Keys => DrawSpec::Direct(call),
                DrawForm::Indirect { .. } => DrawSpec::Indirect {
                    kind,
                    args,
                    offset: call.values()[super::DrawField::Offset],
                },
                DrawForm::Auto => {
                    return Err(serde::de::Error::custom(format_args!(
                        "`{}` has no conformance-schema spelling (SCHEMA.md, DRAW)",
                        info.name
                    )));
                }
            })
        }
    }

    /// Writes the schema's `call` object; DrawAuto has no spelling there and is an error.
    impl Serialize for DrawSpec<Vec<u8>> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let call = self.call();
            if call.kind().info().form == DrawForm::Auto {
                return Err(serde::ser::Error::custom(format_args!(
                    "{} has no conformance-schema spelling",
                    call.kind().info().name
                )));
            }
            CallObject::from_call(call).serialize(s)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const D: DrawDefaults = DrawDefaults {
        vertex_count: Some(10),
        index_count: Some(6),
        filled_size: Some(72),
    };
    const NONE: DrawDefaults = DrawDefaults {
        vertex_count: None,
        index_count: None,
        filled_size: None,
    };

    fn parse(text: &str, d: &DrawDefaults) -> Result<DrawSpec<String>, DrawSpecError> {
        DrawSpec::parse(text, d, |name| name == "my,args.bin" || name == "a,b,c")
    }

    fn direct(text: &str) -> DrawCall<'static> {
        match parse(text, &D).unwrap() {
            DrawSpec::Direct(call) => call,
            other => panic!("{text}: {other:?}"),
        }
    }

    /// Every kind with every key written, with the defaults, and with each alias.
    #[test]
    fn every_kind_and_key() {
        assert_eq!(
            direct("draw,vertex_count=3,start_vertex=0x10"),
            DrawCall::Draw {
                vertex_count: 3,
                start_vertex: 16
            }
        );
        assert_eq!(
            direct("draw"),
            DrawCall::Draw {
                vertex_count: 10,
                start_vertex: 0
            }
        );
        assert_eq!(
            direct("Draw , count=4,start=1"),
            DrawCall::Draw {
                vertex_count: 4,
                start_vertex: 1
            }
        );
        assert_eq!(
            direct("draw_indexed,index_count=3,start_index=2,base_vertex=-7"),
            DrawCall::DrawIndexed {
                index_count: 3,
                start_index: 2,
                base_vertex: -7
            }
        );
        assert_eq!(
            direct("draw_indexed,count=5,start=1,base=2147483647"),
            DrawCall::DrawIndexed {
                index_count: 5,
                start_index: 1,
                base_vertex: i32::MAX
            }
        );
        assert_eq!(
            direct("draw_indexed"),
            DrawCall::DrawIndexed {
                index_count: 6,
                start_index: 0,
                base_vertex: 0
            }
        );
        assert_eq!(
            direct(
                "draw_instanced,vertex_count_per_instance=3,instance_count=2,start_vertex=4,\
                 start_instance=5"
            ),
            DrawCall::DrawInstanced {
                vertex_count_per_instance: 3,
                instance_count: 2,
                start_vertex: 4,
                start_instance: 5
            }
        );
        assert_eq!(
            direct("draw_instanced,count=7,instances=8,start=9"),
            DrawCall::DrawInstanced {
                vertex_count_per_instance: 7,
                instance_count: 8,
                start_vertex: 9,
                start_instance: 0
            }
        );
        assert_eq!(
            direct("draw_instanced"),
            DrawCall::DrawInstanced {
                vertex_count_per_instance: 10,
                instance_count: 1,
                start_vertex: 0,
                start_instance: 0
            }
        );
        assert_eq!(
            direct(
                "draw_indexed_instanced,index_count_per_instance=3,instance_count=2,\
                 start_index=1,base_vertex=-2147483648,start_instance=4294967295"
            ),
            DrawCall::DrawIndexedInstanced {
                index_count_per_instance: 3,
                instance_count: 2,
                start_index: 1,
                base_vertex: i32::MIN,
                start_instance: u32::MAX
            }
        );
        assert_eq!(
            direct("draw_indexed_instanced,count=1,instances=3,start=2,base=-1"),
            DrawCall::DrawIndexedInstanced {
                index_count_per_instance: 1,
                instance_count: 3,
                start_index: 2,
                base_vertex: -1,
                start_instance: 0
            }
        );
        assert_eq!(
            direct("draw_auto,filled_size=48"),
            DrawCall::DrawAuto { filled_size: 48 }
        );
        assert_eq!(direct("draw_auto"), DrawCall::DrawAuto { filled_size: 72 });
        // The later of two equal keys wins, alias or not.
        assert_eq!(
            direct("draw,vertex_count=1,count=2"),
            DrawCall::Draw {
                vertex_count: 2,
                start_vertex: 0
            }
        );
    }

    #[test]
    fn indirect_forms_name_their_arguments() {
        assert_eq!(
            parse("draw_instanced_indirect,args=a.bin,offset=16", &NONE).unwrap(),
            DrawSpec::Indirect {
                kind: DrawKind::DrawInstancedIndirect,
                args: "a.bin".to_string(),
                offset: 16
            }
        );
        assert_eq!(
            parse("draw_indexed_instanced_indirect,args=a.bin", &NONE).unwrap(),
            DrawSpec::Indirect {
                kind: DrawKind::DrawIndexedInstancedIndirect,
                args: "a.bin".to_string(),
                offset: 0
            }
        );
        // Names with commas: the longest one that exists wins; otherwise the first comma ends it.
        assert_eq!(
            parse("draw_instanced_indirect,args=my,args.bin,offset=4", &NONE).unwrap(),
            DrawSpec::Indirect {
                kind: DrawKind::DrawInstancedIndirect,
                args: "my,args.bin".to_string(),
                offset: 4
            }
        );
        assert_eq!(
            parse("draw_instanced_indirect,offset=4,args=a,b,c", &NONE).unwrap(),
            DrawSpec::Indirect {
                kind: DrawKind::DrawInstancedIndirect,
                args: "a,b,c".to_string(),
                offset: 4
            }
        );
        assert_eq!(
            parse("draw_instanced_indirect,args=a,b", &NONE),
            Err(DrawSpecError::NotKeyValue("b".to_string()))
        );
        for text in ["draw_instanced_indirect", "draw_instanced_indirect,args="] {
            assert_eq!(
                parse(text, &D),
                Err(DrawSpecError::MissingArgs {
                    kind: "draw_instanced_indirect"
                })
            );
        }
        // The spec lends the call with the bytes it owns.
        let bytes = vec![1, 0, 0, 0, 2, 0, 0, 0];
        let spec =
            DrawSpec::from_keys("draw_instanced_indirect", [], Some(bytes.clone()), &NONE).unwrap();
        assert_eq!(
            spec.call(),
            DrawCall::DrawInstancedIndirect {
                args: &bytes,
                offset: 0
            }
        );
        assert_eq!(spec.kind(), "draw_instanced_indirect");
        let read = parse("draw_indexed_instanced_indirect,args=x", &NONE)
            .unwrap()
            .map_args(|name| Ok::<_, ()>(name.into_bytes()))
            .unwrap();
        assert_eq!(
            read.call(),
            DrawCall::DrawIndexedInstancedIndirect {
                args: b"x",
                offset: 0
            }
        );
    }

    #[test]
    fn bad_input_names_the_key_value_and_rule() {
        for (text, message) in [
            ("draw,count", "`count` is not key=value"),
            (
                "drawindexed",
                "unknown kind `drawindexed` (expected draw, draw_indexed, draw_instanced, \
                 draw_indexed_instanced, draw_instanced_indirect, \
                 draw_indexed_instanced_indirect or draw_auto)",
            ),
            (
                "draw,index_count=3",
                "draw: unknown key `index_count` (expected vertex_count, start_vertex)",
            ),
            (
                "draw,args=x",
                "draw: unknown key `args` (expected vertex_count, start_vertex)",
            ),
            (
                "draw_auto,offset=4",
                "draw_auto: unknown key `offset` (expected filled_size)",
            ),
            (
                "draw,count=4294967296",
                "vertex_count: `4294967296` is not a number from 0 to 4294967295",
            ),
            (
                "draw_instanced,instances=-1",
                "instance_count: `-1` is not a number from 0 to 4294967295",
            ),
            (
                "draw_instanced_indirect,args=a,offset=0xg",
                "offset: `0xg` is not a number from 0 to 4294967295",
            ),
            (
                "draw_indexed,base=0x10",
                "base_vertex: `0x10` is not a number from -2147483648 to 2147483647",
            ),
            (
                "draw_indexed,base=2147483648",
                "base_vertex: `2147483648` is not a number from -2147483648 to 2147483647",
            ),
        ] {
            assert_eq!(parse(text, &D).unwrap_err().to_string(), message, "{text}");
        }
        // Each kind's count, when neither given nor in the buffers.
        for (kind, key) in [
            ("draw", "vertex_count"),
            ("draw_instanced", "vertex_count_per_instance"),
            ("draw_indexed", "index_count"),
            ("draw_indexed_instanced", "index_count_per_instance"),
            ("draw_auto", "filled_size"),
        ] {
            assert_eq!(
                parse(kind, &NONE),
                Err(DrawSpecError::MissingCount { kind, key }),
                "{kind}"
            );
        }
    }

    /// The file grammar is the conformance schema's `call`: every key required, `args` nested,
    /// no `draw_auto`, and what is written reads back.
    #[cfg(feature = "serde")]
    #[test]
    fn schema_call_objects() {
        let read = |text: &str| serde_json::from_str::<DrawSpec>(text);
        assert_eq!(
            read(
                r#"{"kind": "draw_indexed", "index_count": 3, "start_index": 1, "base_vertex": -2}"#
            )
            .unwrap(),
            DrawSpec::Direct(DrawCall::DrawIndexed {
                index_count: 3,
                start_index: 1,
                base_vertex: -2
            })
        );
        let spec = read(
            r#"{"kind": "draw_indexed_instanced_indirect", "args": {"data": "0300000001000000", "offset": 4}}"#,
        )
        .unwrap();
        assert_eq!(
            spec,
            DrawSpec::Indirect {
                kind: DrawKind::DrawIndexedInstancedIndirect,
                args: vec![3, 0, 0, 0, 1, 0, 0, 0],
                offset: 4
            }
        );
        let text = serde_json::to_string(&spec).unwrap();
        assert_eq!(
            text,
            r#"{"kind":"draw_indexed_instanced_indirect","args":{"data":"0300000001000000","offset":4}}"#
        );
        assert_eq!(read(&text).unwrap(), spec);
        let err = |text: &str| read(text).unwrap_err().to_string();
        assert!(
            err(r#"{"kind": "draw", "vertex_count": 3}"#).contains("missing field `start_vertex`")
        );
        assert!(
            err(r#"{"kind": "draw", "vertex_count": 3, "start_vertex": 0, "start_instance": 0}"#)
                .contains("unknown field `start_instance`")
        );
        assert!(
            err(r#"{"kind": "draw_auto", "filled_size": 3}"#)
                .contains("`draw_auto` has no conformance-schema spelling")
        );
        assert!(
            err(r#"{"kind": "draw_instanced_indirect", "args": {"data": "0g", "offset": 0}}"#)
                .contains("non-hex")
        );
        assert!(
            serde_json::to_string(&DrawSpec::<Vec<u8>>::Direct(DrawCall::DrawAuto {
                filled_size: 1
            }))
            .is_err()
        );
    }
}
