//! Input element arrays in C or C++ source.
//!
//! Reads definitions such as
//!
//! ```c
//! static const D3D11_INPUT_ELEMENT_DESC vertexDesc[] = {
//!     { "POSITION", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0 },
//!     { "COLOR", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, D3D11_APPEND_ALIGNED_ELEMENT,
//!       D3D11_INPUT_PER_VERTEX_DATA, 0 }, // trailing commas, comments, any line breaks
//! };
//! ```
//!
//! for the element types `D3D10_INPUT_ELEMENT_DESC`, `D3D11_INPUT_ELEMENT_DESC` and
//! `D3D12_INPUT_ELEMENT_DESC` (the three have the same members in the same order, R38), with
//! any of `static`, `const`, `constexpr` around the type. What the parser understands:
//!
//! * definitions: C arrays (`T name[N] = {…}`, `T name[] {…}`, `T const name[]`), C++
//!   out-of-class definitions with qualified names as DirectXTK writes them
//!   (`const D3D11_INPUT_ELEMENT_DESC VertexPositionColor::InputElements[] = {…}`),
//!   `std::array<T, N> name = {{…}}` (zero-filled to `N` as aggregate initialization does),
//!   `std::vector<T> name = {…}` / `name{…}` and `std::initializer_list<T>`; elements may be
//!   written `T{…}`. Arrays inside `namespace`s, `struct`s and `class`es are named with their
//!   scope (`DirectX::VertexPositionColor::InputElements`); arrays in function bodies by their
//!   own name;
//! * the preprocessor ([`super::preprocess`]): object-like and function-like macros used in
//!   arrays are expanded, `#if 0` blocks and include guards are honoured; a name that is
//!   neither a macro defined in the file nor one of the names below is an error naming it;
//! * values: decimal, hexadecimal (`0x`), octal and binary (`0b`) integer literals with
//!   `u`/`U`/`l`/`L` suffixes; the names `DXGI_FORMAT_*` (every name of `dxgiformat.h`),
//!   `D3D10_/D3D11_INPUT_PER_VERTEX_DATA` / `…_PER_INSTANCE_DATA`,
//!   `D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA` / `…_PER_INSTANCE_DATA`,
//!   `D3D10_/D3D11_/D3D12_APPEND_ALIGNED_ELEMENT`, `UINT_MAX`, `NULL` and `nullptr`;
//!   constant expressions over them with `+ - * / | ~`, unary minus, parentheses and casts to
//!   `UINT`/`DXGI_FORMAT`/`D3D1x_INPUT_CLASSIFICATION` (values wrap to 32 bits as the C
//!   conversion to `UINT` does);
//! * semantic names: string literals (adjacent literals are joined, escapes decoded), or
//!   `NULL`/`nullptr`/`0` for a NULL pointer (R14);
//! * C99/C++20 designated initializers (`.SemanticName = "POSITION"`);
//! * fewer than seven members in an element, or fewer elements than a declared array size:
//!   the rest is zero, as C aggregate initialization makes it (so `desc[3] = { a, b }` has a
//!   third element with a NULL name, exactly what `CreateInputLayout` would receive);
//! * comments and line breaks anywhere; `sizeof`, `_countof`, `ARRAYSIZE` and any other code
//!   outside the arrays is skipped.
//!
//! Several arrays may live in one file; [`parse`] picks one by name. The parser is a single
//! forward pass over the text with a few tokens of look-ahead: its work is linear in the input
//! (macro expansion is bounded, see [`super::preprocess`]) and its memory is the elements it
//! returns and the macros the file defines.

use crate::element::InputElementDesc;

use super::lex::{Dialect, Kind, Token};
use super::parser::{Parser, Value, zero_element};
use super::{ElementSpans, Field, ParsedLayout, Span, TextError};

/// Largest number of elements an array may hold (written or zero-filled up to its declared
/// size). `CreateInputLayout` refuses more than 32 (R3); the bound only keeps a declared size
/// such as `desc[1000000000]` from costing memory.
pub const MAX_ELEMENTS: usize = 4096;

pub use super::parser::MAX_EXPRESSION_DEPTH;

/// The element structure names this parser looks for.
pub const ELEMENT_TYPES: [&str; 3] = [
    "D3D10_INPUT_ELEMENT_DESC",
    "D3D11_INPUT_ELEMENT_DESC",
    "D3D12_INPUT_ELEMENT_DESC",
];

/// One element array found in the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArrayInfo {
    /// The array's full name: its scopes (namespaces, classes) and the name as written,
    /// joined with `::` (`DirectX::VertexPositionColor::InputElements`); for C# and Rust the
    /// variable or field it is assigned to (`<unnamed>` when there is none).
    pub name: String,
    /// Where its name is.
    pub name_span: Span,
    /// 1-based line of its name.
    pub line: usize,
    /// The element type it is declared with (`D3D11_INPUT_ELEMENT_DESC`, …, `InputElement`).
    pub element_type: String,
}

/// Lists the element arrays defined in `source` (those with an initializer), in order.
pub fn arrays(source: &str) -> Vec<ArrayInfo> {
    scan(source, Keep::None)
        .0
        .into_iter()
        .map(|c| c.info)
        .collect()
}

/// Parses the element array named `array`, or the only one when `array` is `None`.
///
/// `array` is matched against the full names ([`ArrayInfo::name`]) first; otherwise against
/// their `::`-separated tails, so `InputElements` or `VertexPositionColor::InputElements`
/// choose `DirectX::VertexPositionColor::InputElements` when exactly one array ends that way.
///
/// Errors: no array in the file (or, when the preprocessor could not read part of the file,
/// its first error); several arrays and no name (the message lists them with their lines); a
/// name matching none or several (the message lists them); anything wrong inside the chosen
/// array (line, column and the offending text). Errors inside arrays that were not chosen
/// are ignored.
pub fn parse(source: &str, array: Option<&str>) -> Result<ParsedLayout, TextError> {
    let keep = match array {
        Some(n) => Keep::Named(n),
        None => Keep::First,
    };
    let (candidates, first_error) = scan(source, keep);
    select(
        source,
        candidates,
        array,
        first_error,
        "D3D10_INPUT_ELEMENT_DESC, D3D11_INPUT_ELEMENT_DESC or D3D12_INPUT_ELEMENT_DESC array with an initializer",
    )
}

pub(super) type Elements = (Vec<InputElementDesc>, Vec<ElementSpans>);

/// An array found by a scan: where it is, and its elements or the error inside it.
pub(super) struct Candidate {
    pub info: ArrayInfo,
    pub result: Result<Elements, TextError>,
}

/// A bracket group of a C# or Rust source while it is scanned for element literals: the name
/// it is bound to (`x` of `let x = [`…, `var x = new[] {`…) and the elements read inside it,
/// or the first error. Closed, a group that holds either is a [`Candidate`].
struct Frame {
    name: Option<(String, Span)>,
    ty: String,
    elements: Vec<InputElementDesc>,
    spans: Vec<ElementSpans>,
    error: Option<TextError>,
}

impl Frame {
    fn new(name: Option<(String, Span)>) -> Frame {
        Frame {
            name,
            ty: String::new(),
            elements: Vec::new(),
            spans: Vec::new(),
            error: None,
        }
    }

    /// Adds what reading an element of type `ty` inside the group gave: kept while the group
    /// has no error, up to [`MAX_ELEMENTS`].
    fn add(
        &mut self,
        p: &Parser<'_>,
        ty: &str,
        read: Result<(InputElementDesc, ElementSpans), TextError>,
    ) {
        ty.clone_into(&mut self.ty);
        match read {
            Ok((e, s)) if self.error.is_none() => {
                if self.elements.len() < MAX_ELEMENTS {
                    self.elements.push(e);
                    self.spans.push(s);
                } else {
                    self.error = Some(p.err(
                        s.element,
                        format!("more elements than inlay reads ({MAX_ELEMENTS})"),
                    ));
                }
            }
            Ok(_) => {}
            Err(e) => {
                self.error.get_or_insert(e);
            }
        }
    }

    /// Closes the group: a candidate array in `found` when it holds elements or an error (an
    /// unbound one is `<unnamed>`, at its first element).
    fn close(self, p: &Parser<'_>, found: &mut Vec<Candidate>) {
        if self.elements.is_empty() && self.error.is_none() {
            return;
        }
        let (name, span) = self.name.unwrap_or_else(|| {
            let at = self.spans.first().map_or(0, |s| s.element.start);
            ("<unnamed>".to_string(), Span::new(at, at))
        });
        found.push(Candidate {
            info: ArrayInfo {
                name,
                name_span: span,
                line: super::line_col(p.src, span.start).0,
                element_type: self.ty,
            },
            result: match self.error {
                Some(e) => Err(e),
                None => Ok((self.elements, self.spans)),
            },
        });
    }
}

/// The open bracket groups of a C# or Rust scan (innermost last) and the candidates the
/// closed ones gave.
#[derive(Default)]
pub(super) struct Groups {
    frames: Vec<Frame>,
    found: Vec<Candidate>,
}

impl Groups {
    /// Opens a group bound to `name`.
    pub fn open(&mut self, name: Option<(String, Span)>) {
        self.frames.push(Frame::new(name));
    }

    /// Closes the innermost group (see [`Frame::close`]).
    pub fn close(&mut self, p: &Parser<'_>) {
        if let Some(f) = self.frames.pop() {
            f.close(p, &mut self.found);
        }
    }

    /// Adds what reading an element gave to the innermost group (see [`Frame::add`]); an
    /// element outside every group is dropped.
    pub fn add(
        &mut self,
        p: &Parser<'_>,
        ty: &str,
        read: Result<(InputElementDesc, ElementSpans), TextError>,
    ) {
        if let Some(f) = self.frames.last_mut() {
            f.add(p, ty, read);
        }
    }

    /// How many groups are open.
    pub fn depth(&self) -> usize {
        self.frames.len()
    }

    /// Closes the groups left open at the end of the file, and orders what was found by
    /// position.
    pub fn finish(mut self, p: &Parser<'_>) -> Vec<Candidate> {
        while !self.frames.is_empty() {
            self.close(p);
        }
        self.found.sort_by_key(|c| c.info.name_span.start);
        self.found
    }
}

/// The arrays of a front end that finds them as bracket groups of element literals (C#,
/// Rust): its scan, and how its messages name what it looks for.
pub(super) struct LiteralArrays {
    /// Every group holding elements (or an error), in order.
    pub scan: fn(&str) -> Vec<Candidate>,
    /// What an array of this front end is, for "no … found".
    pub what: &'static str,
}

impl LiteralArrays {
    /// The front end's `arrays`: the arrays in `source`, in order.
    pub fn list(&self, source: &str) -> Vec<ArrayInfo> {
        (self.scan)(source).into_iter().map(|c| c.info).collect()
    }

    /// The front end's `parse`: the array named `array` (see [`parse`] for how names are
    /// matched), or the only one when `array` is `None`.
    pub fn parse(&self, source: &str, array: Option<&str>) -> Result<ParsedLayout, TextError> {
        select(source, (self.scan)(source), array, None, self.what)
    }
}

/// Chooses one candidate by name (see [`parse`]); `what` names what was looked for.
pub(super) fn select(
    source: &str,
    mut candidates: Vec<Candidate>,
    array: Option<&str>,
    first_error: Option<TextError>,
    what: &str,
) -> Result<ParsedLayout, TextError> {
    let listing = |cands: &[&Candidate]| {
        cands
            .iter()
            .map(|c| format!("`{}` (line {})", c.info.name, c.info.line))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if candidates.is_empty() {
        if let Some(e) = first_error {
            return Err(e);
        }
        return Err(TextError::at(
            source,
            Span::new(0, 0),
            format!("no {what} found"),
        ));
    }
    let all: Vec<&Candidate> = candidates.iter().collect();
    let index = match array {
        Some(name) => {
            let exact: Vec<usize> = (0..candidates.len())
                .filter(|&i| candidates[i].info.name == name)
                .collect();
            let tail: Vec<usize> = (0..candidates.len())
                .filter(|&i| {
                    let full = &candidates[i].info.name;
                    full.len() > name.len()
                        && full.ends_with(name)
                        && full[..full.len() - name.len()].ends_with("::")
                })
                .collect();
            let found = if exact.is_empty() { tail } else { exact };
            match found.as_slice() {
                [] => {
                    return Err(TextError::at(
                        source,
                        Span::new(0, 0),
                        format!(
                            "no input element array named `{name}`; this file has {}",
                            listing(&all)
                        ),
                    ));
                }
                // Two arrays of one full name (both branches of a condition inlay could not
                // decide): the first, as before the preprocessor existed.
                [i, ..]
                    if found
                        .iter()
                        .all(|&j| candidates[j].info.name == candidates[*i].info.name) =>
                {
                    *i
                }
                several => {
                    let names: Vec<&Candidate> = several.iter().map(|&i| &candidates[i]).collect();
                    return Err(TextError::at(
                        source,
                        Span::new(0, 0),
                        format!(
                            "`{name}` names {} input element arrays: {}; give more of the name",
                            several.len(),
                            listing(&names)
                        ),
                    ));
                }
            }
        }
        None if candidates.len() == 1 => 0,
        None => {
            return Err(TextError::at(
                source,
                Span::new(0, 0),
                format!(
                    "{} input element arrays in this file: {}; choose one by name \
                     (--array NAME)",
                    candidates.len(),
                    listing(&all)
                ),
            ));
        }
    };
    let chosen = candidates.swap_remove(index);
    let (elements, spans) = chosen.result?;
    Ok(ParsedLayout {
        name: Some(chosen.info.name),
        elements,
        spans,
        element_type: Some(chosen.info.element_type).filter(|t| !t.is_empty()),
    })
}

/// The standard containers whose element type may be an input element description.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Container {
    /// `std::array<T, N>`: aggregate, zero-filled to `N`.
    Array,
    /// `std::vector<T>`, `std::initializer_list<T>`: exactly the elements written.
    List,
}

/// Which arrays [`scan`] keeps the elements of: at most those [`select`] can return (the first
/// exact match and the first `::`-tail match of a name, or the first array), so that many
/// arrays — a zero-filled `a[4096] = {}` costs 4096 elements for 30 bytes of text — cost memory
/// for one or two arrays, not for each (issue 18 item 7). [`arrays`] keeps none.
#[derive(Clone, Copy)]
enum Keep<'n> {
    None,
    First,
    Named(&'n str),
}

fn scan(source: &str, keep: Keep<'_>) -> (Vec<Candidate>, Option<TextError>) {
    let mut p = Parser::new(source, Dialect::C);
    let mut found: Vec<Candidate> = Vec::new();
    let (mut kept_exact, mut kept_tail) = (false, false);
    // Open braces: the scope name each one opens (namespace, struct, class), if any.
    let mut scopes: Vec<Option<String>> = Vec::new();
    let mut pending: Option<String> = None;
    let mut prev: [Option<Token>; 2] = [None, None];
    loop {
        let t = p.next();
        match t.kind {
            Kind::Eof => break,
            Kind::Ident if ELEMENT_TYPES.contains(&p.text(t)) => {
                let container = match prev {
                    [Some(c), Some(lt)] if p.is_punct(lt, "<") => match p.text(c) {
                        "array" => Some(Container::Array),
                        "vector" | "initializer_list" => Some(Container::List),
                        _ => None,
                    },
                    _ => None,
                };
                let scope: Vec<&str> = scopes.iter().flatten().map(String::as_str).collect();
                let scope = scope.join("::");
                if let Some(mut c) = p.array_after_type(t, &scope, container) {
                    let full = c.info.name.as_str();
                    let kept = match keep {
                        Keep::None => false,
                        Keep::First => found.is_empty(),
                        Keep::Named(n) if full == n => !std::mem::replace(&mut kept_exact, true),
                        Keep::Named(n) => {
                            full.len() > n.len()
                                && full.ends_with(n)
                                && full[..full.len() - n.len()].ends_with("::")
                                && !std::mem::replace(&mut kept_tail, true)
                        }
                    };
                    if !kept {
                        c.result = c.result.map(|_| Elements::default());
                    }
                    found.push(c);
                }
                prev = [None, None];
                continue;
            }
            Kind::Ident => match p.text(t) {
                "namespace" => {
                    let mut name = String::new();
                    loop {
                        let u = p.peek();
                        if u.kind == Kind::Ident {
                            name.push_str(p.text(u));
                        } else if p.is_punct(u, "::") {
                            name.push_str("::");
                        } else {
                            break;
                        }
                        p.next();
                    }
                    pending = Some(name).filter(|n| !n.is_empty());
                }
                "struct" | "class" | "union" => pending = p.type_name(),
                _ => {}
            },
            Kind::Punct => match p.text(t) {
                "{" => scopes.push(pending.take()),
                "}" => {
                    scopes.pop();
                    pending = None;
                }
                ";" | "=" | "(" | ")" => pending = None,
                _ => {}
            },
            _ => {}
        }
        prev = [prev[1], Some(t)];
    }
    let first_error = p.toks.as_ref().and_then(|t| t.errors.first().cloned());
    (found, first_error)
}

const QUALIFIERS: [&str; 7] = [
    "const",
    "constexpr",
    "static",
    "volatile",
    "inline",
    "extern",
    "thread_local",
];

/// The C front end's part of the [`Parser`]: definitions, arrays and their elements.
impl Parser<'_> {
    /// Starts collecting preprocessor errors for one array; returns the previous state.
    pub fn begin_array(&mut self) -> Option<u32> {
        self.error_seen.take()
    }

    /// Ends an array begun with [`Parser::begin_array`]: a preprocessor error inside it
    /// replaces its result (it is the cause of whatever went wrong).
    pub fn end_array(
        &mut self,
        saved: Option<u32>,
        result: Result<Elements, TextError>,
    ) -> Result<Elements, TextError> {
        let seen = std::mem::replace(&mut self.error_seen, saved);
        match (seen, &self.toks) {
            (Some(i), Some(t)) => Err(t.errors[i as usize].clone()),
            _ => result,
        }
    }

    /// After `struct`/`class`/`union`: the type's name, if one follows (attributes such as
    /// `alignas(16)` skipped).
    fn type_name(&mut self) -> Option<String> {
        loop {
            let u = self.peek();
            if u.kind != Kind::Ident {
                return None;
            }
            let name = self.text(u);
            if ELEMENT_TYPES.contains(&name) {
                return None;
            }
            self.next();
            if matches!(
                name,
                "alignas" | "__declspec" | "DECLSPEC_ALIGN" | "__attribute__" | "XM_ALIGNED_STRUCT"
            ) {
                if self.peek_is("(") {
                    self.skip_balanced();
                }
                continue;
            }
            return Some(name.to_string());
        }
    }

    /// Skips a balanced `( … )` group starting at the next token.
    fn skip_balanced(&mut self) {
        let mut depth = 0usize;
        loop {
            let t = self.next();
            match t.kind {
                Kind::Eof => return,
                Kind::Punct if self.text(t) == "(" => depth += 1,
                Kind::Punct if self.text(t) == ")" => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return;
                    }
                }
                _ => {}
            }
        }
    }

    /// A possibly qualified name: `[::] NAME (:: NAME)*`, as written.
    fn qualified_name(&mut self) -> Option<(String, Span)> {
        let mut text = String::new();
        // A global qualifier (`::kDesc`) is not part of the name, so not of its span either:
        // the span starts at the first name part. A part made by a macro has the invocation's
        // span (the preprocessor gives a macro body's tokens their invocation's span), so a
        // name written by a macro points at the macro call, on the line the array is defined.
        if self.peek_is("::") {
            self.next();
        }
        let first = self.peek();
        let mut span = Span::new(first.span.start, first.span.start);
        loop {
            let t = self.peek();
            if t.kind != Kind::Ident || ELEMENT_TYPES.contains(&self.text(t)) {
                return None;
            }
            self.next();
            text.push_str(self.text(t));
            span.end = t.span.end;
            if self.peek_is("::") && self.peek_at(1).kind == Kind::Ident {
                self.next();
                text.push_str("::");
                continue;
            }
            return Some((text, span));
        }
    }

    /// After an element type name: `[qualifiers] NAME [ SIZE ] [=] { … }` (or, inside a
    /// container's template arguments, `[, N] > [qualifiers] NAME [=] { … }`). Returns `None`
    /// when this is not a definition (a pointer, a parameter, `sizeof(…)`, a declaration
    /// without initializer), leaving the following tokens to the scan.
    fn array_after_type(
        &mut self,
        ty: Token,
        scope: &str,
        container: Option<Container>,
    ) -> Option<Candidate> {
        let saved = self.begin_array();
        let c = self.definition(ty, scope, container);
        match c {
            Some(mut c) => {
                c.result = self.end_array(saved, c.result);
                Some(c)
            }
            None => {
                self.error_seen = saved;
                None
            }
        }
    }

    fn definition(
        &mut self,
        ty: Token,
        scope: &str,
        container: Option<Container>,
    ) -> Option<Candidate> {
        // The container's remaining template arguments.
        let mut size_tokens: Vec<Token> = Vec::new();
        let mut size_span = Span::default();
        if let Some(kind) = container {
            let mut depth = 0usize;
            let mut in_size = false;
            loop {
                let t = self.next();
                match t.kind {
                    Kind::Eof | Kind::Error(_) => return None,
                    _ if self.is_punct(t, "(") => depth += 1,
                    _ if self.is_punct(t, ")") => depth = depth.saturating_sub(1),
                    _ if self.is_punct(t, ">") && depth == 0 => break,
                    _ if self.is_punct(t, ",") && depth == 0 => {
                        in_size = kind == Container::Array && size_tokens.is_empty();
                        continue;
                    }
                    _ if self.is_punct(t, ";") || self.is_punct(t, "{") => return None,
                    _ => {}
                }
                if in_size {
                    if size_tokens.is_empty() {
                        size_span.start = t.span.start;
                    }
                    size_span.end = t.span.end;
                    size_tokens.push(t);
                }
            }
        }
        while {
            let t = self.peek();
            t.kind == Kind::Ident && QUALIFIERS.contains(&self.text(t))
        } {
            self.next();
        }
        let (written, name_span) = self.qualified_name()?;
        let open = if container.is_none() {
            if !self.peek_is("[") {
                return None;
            }
            let open = self.next();
            // The declared size: tokens up to the matching `]`.
            let mut depth = 0usize;
            size_span = Span::new(self.peek().span.start, self.peek().span.start);
            loop {
                let t = self.peek();
                if t.kind == Kind::Eof {
                    return None;
                }
                if self.is_punct(t, "]") && depth == 0 {
                    break;
                }
                if self.is_punct(t, "[") || self.is_punct(t, "(") {
                    depth += 1;
                }
                if (self.is_punct(t, "]") || self.is_punct(t, ")")) && depth > 0 {
                    depth -= 1;
                }
                if self.is_punct(t, ";") || self.is_punct(t, "{") {
                    return None;
                }
                size_span.end = t.span.end;
                size_tokens.push(t);
                self.next();
            }
            self.next(); // `]`
            open
        } else {
            if size_tokens.is_empty() {
                size_span = name_span;
            }
            Token::new(Kind::Punct, name_span)
        };
        let has_equals = self.peek_is("=");
        if has_equals {
            self.next();
        }
        let name = if scope.is_empty() {
            written
        } else {
            format!("{scope}::{written}")
        };
        let info = ArrayInfo {
            name,
            name_span,
            line: self.lines.line_col(name_span.start).0,
            element_type: self.text(ty).to_string(),
        };
        if !self.peek_is("{") {
            if !has_equals {
                return None;
            }
            let t = self.peek();
            let err = self.err(
                t.span,
                format!(
                    "expected `{{` to start the elements of `{}`, found {}",
                    info.name,
                    self.found(t)
                ),
            );
            return Some(Candidate {
                info,
                result: Err(err),
            });
        }
        let declared = match container {
            Some(Container::List) => Ok(None),
            _ if size_tokens.is_empty() => Ok(None),
            _ => self.size_value(size_tokens, size_span),
        };
        let fill_at = if size_span.start == size_span.end {
            open.span
        } else {
            size_span
        };
        let result = declared.and_then(|declared| {
            // std::array's own braces around the C array inside it: `= {{ … }}`.
            let outer = container == Some(Container::Array)
                && self.peek_punct(1, "{")
                && self.peek_punct(2, "{");
            if outer {
                self.next();
            }
            let r = self.elements(fill_at, declared)?;
            if outer {
                let close = self.next();
                if !self.is_punct(close, "}") {
                    return Err(self.err(
                        close.span,
                        format!(
                            "expected `}}` to close the std::array, found {}",
                            self.found(close)
                        ),
                    ));
                }
            }
            Ok(r)
        });
        if result.is_err() {
            self.skip_to_close();
        }
        Some(Candidate { info, result })
    }

    /// The declared array size, when it is a constant (a name such as `InputElementCount`
    /// that is no macro is not evaluated: the size is then taken from the initializer).
    fn size_value(&self, tokens: Vec<Token>, span: Span) -> Result<Option<usize>, TextError> {
        let mut sub = self.over(tokens, span.end);
        let Ok((Value::Int(n), _)) = sub.value(0) else {
            return Ok(None);
        };
        if sub.peek().kind != Kind::Eof {
            return Ok(None);
        }
        if n < 0 || n > MAX_ELEMENTS as i128 {
            return Err(self.err(
                span,
                format!("array size {n} is outside what inlay reads (1 to {MAX_ELEMENTS})"),
            ));
        }
        Ok(Some(n as usize))
    }

    /// After a parse error, skips to the `}` that closes the array (or the end of the file).
    pub fn skip_to_close(&mut self) {
        let mut depth = 0usize;
        loop {
            let t = self.next();
            match t.kind {
                Kind::Eof => return,
                Kind::Punct if self.text(t) == "{" => depth += 1,
                Kind::Punct if self.text(t) == "}" => {
                    if depth <= 1 {
                        return;
                    }
                    depth -= 1;
                }
                Kind::Punct if self.text(t) == ";" && depth == 0 => return,
                _ => {}
            }
        }
    }

    fn elements(&mut self, fill_at: Span, declared: Option<usize>) -> Result<Elements, TextError> {
        let open = self.next(); // `{`
        let mut elements = Vec::new();
        let mut spans = Vec::new();
        loop {
            let mut t = self.peek();
            if self.is_punct(t, "}") {
                self.next();
                break;
            }
            // C++ `D3D11_INPUT_ELEMENT_DESC{ … }` elements.
            if t.kind == Kind::Ident
                && ELEMENT_TYPES.contains(&self.text(t))
                && self.peek_punct(1, "{")
            {
                self.next();
                t = self.peek();
            }
            if !self.is_punct(t, "{") {
                return Err(self.err(
                    t.span,
                    format!(
                        "expected `{{` to start an element or `}}` to end the array, found {}",
                        self.found(t)
                    ),
                ));
            }
            if elements.len() == declared.unwrap_or(MAX_ELEMENTS) {
                // Issue 18 item 8: an array without a declared size used to be reported as
                // exceeding "the array's declared size 4096".
                return Err(self.err(
                    t.span,
                    match declared {
                        Some(n) => format!("more elements than the array's declared size {n}"),
                        None => format!(
                            "more than {MAX_ELEMENTS} elements in one array: inlay reads at most \
                             {MAX_ELEMENTS} (CreateInputLayout accepts at most 32)"
                        ),
                    },
                ));
            }
            let (e, s) = self.element()?;
            elements.push(e);
            spans.push(s);
            self.list_next("}", " after an element")?;
        }
        let _ = open;
        if let Some(n) = declared {
            // C zero-initializes the elements the initializer leaves out.
            while elements.len() < n {
                elements.push(zero_element());
                spans.push(ElementSpans {
                    element: fill_at,
                    fields: [None; 7],
                });
            }
        }
        Ok((elements, spans))
    }

    /// `{ member, member, … [,] }`.
    fn element(&mut self) -> Result<(InputElementDesc, ElementSpans), TextError> {
        let open = self.next(); // `{`
        let mut desc = zero_element();
        let mut spans = ElementSpans::default();
        let mut next_field = 0usize;
        let close;
        loop {
            let t = self.peek();
            if self.is_punct(t, "}") {
                close = self.next();
                break;
            }
            // Designated initializer.
            let field = if self.is_punct(t, ".") {
                self.next();
                let name = self.next();
                let field = Field::ALL
                    .into_iter()
                    .find(|f| name.kind == Kind::Ident && f.c_name() == self.text(name))
                    .ok_or_else(|| {
                        self.err(
                            name.span,
                            format!(
                                "{} is not a member of the input element description \
                                 (SemanticName, SemanticIndex, Format, InputSlot, \
                                 AlignedByteOffset, InputSlotClass, InstanceDataStepRate)",
                                self.found(name)
                            ),
                        )
                    })?;
                let eq = self.next();
                if !self.is_punct(eq, "=") {
                    return Err(self.err(
                        eq.span,
                        format!(
                            "expected `=` after `.{}`, found {}",
                            field.c_name(),
                            self.found(eq)
                        ),
                    ));
                }
                field
            } else {
                match Field::ALL.get(next_field) {
                    Some(f) => *f,
                    None => {
                        return Err(self.err(
                            t.span,
                            format!(
                                "too many values in an element: it has 7 members, found {}",
                                self.found(t)
                            ),
                        ));
                    }
                }
            };
            if spans.fields[field as usize].is_some() {
                return Err(self.err(
                    t.span,
                    format!("{} is given twice in this element", field.c_name()),
                ));
            }
            let (value, span) = self.value(0)?;
            self.assign(&mut desc, field, value, span)?;
            spans.fields[field as usize] = Some(span);
            next_field = field as usize + 1;
            self.list_next("}", &format!(" after {}", field.c_name()))?;
        }
        spans.element = Span::new(open.span.start, close.span.end);
        Ok((desc, spans))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::element::{APPEND_ALIGNED_ELEMENT, INPUT_PER_INSTANCE_DATA};
    use crate::format::Format;

    const SEED: &str = "const D3D11_INPUT_ELEMENT_DESC vertexDesc[] = { { \"POSITION\", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0 }, { \"COLOR\", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, 12, D3D11_INPUT_PER_VERTEX_DATA, 0 }, };";

    fn err(src: &str, array: Option<&str>) -> TextError {
        parse(src, array).expect_err("should fail")
    }

    #[test]
    fn seed_verbatim() {
        let p = parse(SEED, None).unwrap();
        assert_eq!(p.name.as_deref(), Some("vertexDesc"));
        assert_eq!(
            p.elements,
            vec![
                InputElementDesc::per_vertex("POSITION", 0, Format::R32G32B32_FLOAT, 0, 0),
                InputElementDesc::per_vertex("COLOR", 0, Format::R32G32B32_FLOAT, 0, 12),
            ]
        );
        let s = p.spans[1];
        assert_eq!(
            &SEED[s.element.range()],
            "{ \"COLOR\", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, 12, D3D11_INPUT_PER_VERTEX_DATA, 0 }"
        );
        assert_eq!(&SEED[s.field(Field::Semantic).range()], "\"COLOR\"");
        assert_eq!(&SEED[s.field(Field::Offset).range()], "12");
        assert_eq!(
            &SEED[s.field(Field::Class).range()],
            "D3D11_INPUT_PER_VERTEX_DATA"
        );
        assert_eq!(s.element.start, 134);
    }

    #[test]
    fn every_spelling() {
        let src = r#"
#include <d3d11.h>
#define UNUSED(x) \
    (void)x
// A comment with "quotes" and D3D11_INPUT_ELEMENT_DESC fake[] = {
/* block
   comment */ static constexpr D3D12_INPUT_ELEMENT_DESC kDesc[3] =
{
    {"POS" "ITION", 0u, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 0,
     D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
    { "TEXCOORD", 0x1UL, (DXGI_FORMAT)16, 0x2, D3D12_APPEND_ALIGNED_ELEMENT,
      D3D12_INPUT_CLASSIFICATION_PER_INSTANCE_DATA, 4 * 2 + 1 },
};
"#;
        let p = parse(src, None).unwrap();
        assert_eq!(p.name.as_deref(), Some("kDesc"));
        assert_eq!(
            p.elements,
            vec![
                InputElementDesc::per_vertex("POSITION", 0, Format::R32G32B32A32_FLOAT, 0, 0),
                InputElementDesc::per_instance(
                    "TEXCOORD",
                    1,
                    Format::R32G32_FLOAT,
                    2,
                    APPEND_ALIGNED_ELEMENT,
                    9
                ),
                zero_element(),
            ]
        );
        assert_eq!(p.elements[1].input_slot_class, INPUT_PER_INSTANCE_DATA);
        // The zero-filled third element points at the declared size.
        assert_eq!(&src[p.spans[2].element.range()], "3");
        let (line, col) = super::super::line_col(src, p.spans[1].field(Field::StepRate).start);
        assert_eq!((line, col), (12, 53));
    }

    #[test]
    fn designated_and_short_elements() {
        let src = "D3D10_INPUT_ELEMENT_DESC d[] = { { .SemanticName = \"N\", .Format = DXGI_FORMAT_R8G8B8A8_UNORM, .AlignedByteOffset = ~0u }, { nullptr, 3 } };";
        let p = parse(src, None).unwrap();
        assert_eq!(
            p.elements[0],
            InputElementDesc::per_vertex("N", 0, Format::R8G8B8A8_UNORM, 0, APPEND_ALIGNED_ELEMENT)
        );
        assert_eq!(p.elements[1].semantic_name, None);
        assert_eq!(p.elements[1].semantic_index, 3);
        assert_eq!(p.spans[0].fields[Field::Index as usize], None);
    }

    #[test]
    fn literals() {
        let v = |s: &str| {
            let src = format!("D3D11_INPUT_ELEMENT_DESC d[] = {{ {{ \"A\", {s} }} }};");
            parse(&src, None).map(|p| p.elements[0].semantic_index)
        };
        assert_eq!(v("0x10"), Ok(16));
        assert_eq!(v("010"), Ok(8));
        assert_eq!(v("0b101"), Ok(5));
        assert_eq!(v("7LLU"), Ok(7));
        assert_eq!(v("-1"), Ok(0xffff_ffff));
        assert_eq!(v("(UINT)-2"), Ok(0xffff_fffe));
        assert_eq!(v("static_cast<UINT>(3)"), Ok(3));
        assert_eq!(v("(1 + 2) * 3 - 4 / 2"), Ok(7));
        assert_eq!(v("1 | 4"), Ok(5));
        assert_eq!(v("4294967295"), Ok(0xffff_ffff));
        assert_eq!(v("UINT_MAX"), Ok(0xffff_ffff));
        let e = v("4294967296").unwrap_err();
        assert_eq!((e.line, e.column, e.found.as_str()), (1, 41, "4294967296"));
        assert_eq!(
            e.message,
            "SemanticIndex value 4294967296 does not fit in 32 bits"
        );
        let e = v("1.5f").unwrap_err();
        assert_eq!(
            e.message,
            "expected an integer, found the floating-point literal `1.5f`"
        );
        let e = v("99999999999999999999999").unwrap_err();
        assert_eq!(e.column, 41);
        let e = v("1/0").unwrap_err();
        assert_eq!((e.column, e.message.as_str()), (41, "division by zero"));
    }

    #[test]
    fn semantic_strings() {
        let src = r#"D3D11_INPUT_ELEMENT_DESC d[] = { { "A\x42\103\t", 0 }, { 0 }, { NULL } };"#;
        let p = parse(src, None).unwrap();
        assert_eq!(p.elements[0].semantic_name.as_deref(), Some("ABC\t"));
        assert_eq!(p.elements[1].semantic_name, None);
        assert_eq!(p.elements[2].semantic_name, None);
        let e = err(r#"D3D11_INPUT_ELEMENT_DESC d[] = { { "A\q" } };"#, None);
        assert_eq!((e.column, e.found.as_str()), (38, "\\q"));
        assert_eq!(e.message, "unknown escape `\\q`");
        let e = err("D3D11_INPUT_ELEMENT_DESC d[] = { { \"POS\n\", 0 } };", None);
        assert_eq!(
            (e.line, e.column, e.message.as_str()),
            (1, 36, "unterminated string literal")
        );
        let e = err("D3D11_INPUT_ELEMENT_DESC d[] = { { 5 } };", None);
        assert_eq!(
            e.message,
            "SemanticName must be a string literal or NULL, found a number"
        );
        let e = err(r#"D3D11_INPUT_ELEMENT_DESC d[] = { { L"P" } };"#, None);
        assert_eq!(e.column, 36);
    }

    #[test]
    fn several_arrays() {
        let src = "// layouts\nconst D3D11_INPUT_ELEMENT_DESC a[] = { { \"P\", 0, DXGI_FORMAT_R32_FLOAT } };\n\nconst D3D11_INPUT_ELEMENT_DESC b[] = { { \"Q\", 1, DXGI_FORMAT_R32_UINT, 1 }, { \"BAD\", 0, DXGI_FORMAT_NOPE } };\nstatic const D3D11_INPUT_ELEMENT_DESC c[] =\n{ { \"R\" } };\n";
        let e = err(src, None);
        assert_eq!(
            e.message,
            "3 input element arrays in this file: `a` (line 2), `b` (line 4), `c` (line 5); choose one by name (--array NAME)"
        );
        assert_eq!((e.line, e.column), (1, 1));
        let p = parse(src, Some("c")).unwrap();
        assert_eq!(p.elements[0].semantic_name.as_deref(), Some("R"));
        let p = parse(src, Some("a")).unwrap();
        assert_eq!(p.elements[0].format, Format::R32_FLOAT);
        let e = err(src, Some("b"));
        assert_eq!(
            (e.line, e.column, e.found.as_str()),
            (4, 89, "DXGI_FORMAT_NOPE")
        );
        assert_eq!(e.message, "unknown DXGI format `DXGI_FORMAT_NOPE`");
        let e = err(src, Some("zz"));
        assert_eq!(
            e.message,
            "no input element array named `zz`; this file has `a` (line 2), `b` (line 4), `c` (line 5)"
        );
        let names: Vec<_> = arrays(src).into_iter().map(|a| a.name).collect();
        assert_eq!(names, ["a", "b", "c"]);
    }

    #[test]
    fn not_definitions_are_skipped() {
        let src = "void f(const D3D11_INPUT_ELEMENT_DESC* p, UINT n);\nextern const D3D11_INPUT_ELEMENT_DESC ext[2];\nUINT s = sizeof(D3D11_INPUT_ELEMENT_DESC);\nstd::vector<D3D11_INPUT_ELEMENT_DESC> v;\nD3D11_INPUT_ELEMENT_DESC one[] = { { \"X\" } };";
        let p = parse(src, None).unwrap();
        assert_eq!(p.name.as_deref(), Some("one"));
        let e = err("int x;", None);
        assert!(e.message.starts_with("no D3D10_INPUT_ELEMENT_DESC"));
    }

    #[test]
    fn structural_errors_point_at_the_token() {
        let cases: &[(&str, (usize, usize), &str, &str)] = &[
            (
                "D3D11_INPUT_ELEMENT_DESC d[] = { \"P\" };",
                (1, 34),
                "\"P\"",
                "expected `{` to start an element or `}` to end the array, found `\"P\"`",
            ),
            (
                "D3D11_INPUT_ELEMENT_DESC d[] = { { \"P\" 0 } };",
                (1, 40),
                "0",
                "expected `,` or `}` after SemanticName, found `0`",
            ),
            (
                "D3D11_INPUT_ELEMENT_DESC d[] = { { \"P\",0,0,0,0,0,0,0 } };",
                (1, 52),
                "0",
                "too many values in an element: it has 7 members, found `0`",
            ),
            (
                "D3D11_INPUT_ELEMENT_DESC d[] = {\n  { \"P\", 0, FOO } };",
                (2, 13),
                "FOO",
                "unknown name `FOO`: not a macro defined in this file (#include is not followed) nor a name inlay knows (DXGI_FORMAT_*, D3D1x_INPUT_PER_VERTEX_DATA, D3D1x_INPUT_PER_INSTANCE_DATA, D3D1x_APPEND_ALIGNED_ELEMENT, UINT_MAX, NULL)",
            ),
            (
                "D3D11_INPUT_ELEMENT_DESC d[] = { { \"P\", 0, DXGI_FORMAT_R32_FLOAT, 0, offsetof(V, p) } };",
                (1, 70),
                "offsetof",
                "`offsetof(…)` cannot be evaluated without compiling the program; write the number",
            ),
            (
                "D3D11_INPUT_ELEMENT_DESC d[1] = { {\"A\"}, {\"B\"} };",
                (1, 42),
                "{",
                "more elements than the array's declared size 1",
            ),
            (
                "D3D11_INPUT_ELEMENT_DESC d[] = { { \"P\", 0",
                (1, 42),
                "",
                "expected `,` or `}` after SemanticIndex, found the end of the file",
            ),
            (
                "D3D11_INPUT_ELEMENT_DESC d[] = 5;",
                (1, 32),
                "5",
                "expected `{` to start the elements of `d`, found `5`",
            ),
            (
                "D3D11_INPUT_ELEMENT_DESC d[] = { { .Bogus = 1 } };",
                (1, 37),
                "Bogus",
                "`Bogus` is not a member of the input element description (SemanticName, SemanticIndex, Format, InputSlot, AlignedByteOffset, InputSlotClass, InstanceDataStepRate)",
            ),
            (
                "D3D11_INPUT_ELEMENT_DESC d[] = { { \"P\", .SemanticName = \"Q\" } };",
                (1, 41),
                ".",
                "SemanticName is given twice in this element",
            ),
            (
                "D3D11_INPUT_ELEMENT_DESC d[99999] = { };",
                (1, 28),
                "99999",
                "array size 99999 is outside what inlay reads (1 to 4096)",
            ),
        ];
        for (src, (line, col), found, msg) in cases {
            let e = err(src, None);
            assert_eq!(
                (e.line, e.column, e.found.as_str(), e.message.as_str()),
                (*line, *col, *found, *msg),
                "{src}"
            );
        }
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let src = format!(
            "D3D11_INPUT_ELEMENT_DESC d[] = {{ {{ \"P\", {}1 }} }};",
            "(".repeat(100_000)
        );
        let e = err(&src, None);
        assert_eq!(e.message, "expression nested too deeply");
        let src = format!(
            "D3D11_INPUT_ELEMENT_DESC d[] = {{ {{ \"P\", {}1 }} }};",
            "-".repeat(100_000)
        );
        assert_eq!(err(&src, None).message, "expression nested too deeply");
    }

    /// DirectXTK's style: vertex structs in `namespace DirectX` declare
    /// `static const D3D11_INPUT_ELEMENT_DESC InputElements[InputElementCount]`, a .cpp file
    /// defines them out of class, with `static_assert(sizeof(…))` beside them.
    const DIRECTXTK_STYLE: &str = r#"//--------------------------------------------------------------------------------------
// File: VertexTypes.cpp (written for inlay's tests in the style of DirectXTK)
//--------------------------------------------------------------------------------------

#include "pch.h"
#include "VertexTypes.h"

using namespace DirectX;

namespace DirectX
{
    struct VertexPositionColor
    {
        XMFLOAT3 position;
        XMFLOAT4 color;

        static constexpr unsigned int InputElementCount = 2;
        static const D3D11_INPUT_ELEMENT_DESC InputElements[InputElementCount];
    };
}

//--------------------------------------------------------------------------------------
// Vertex struct holding position and color information.
const D3D11_INPUT_ELEMENT_DESC VertexPositionColor::InputElements[] =
{
    { "SV_Position", 0, DXGI_FORMAT_R32G32B32_FLOAT,    0, D3D11_APPEND_ALIGNED_ELEMENT, D3D11_INPUT_PER_VERTEX_DATA, 0 },
    { "COLOR",       0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, D3D11_APPEND_ALIGNED_ELEMENT, D3D11_INPUT_PER_VERTEX_DATA, 0 },
};

static_assert(sizeof(VertexPositionColor) == 28, "Vertex struct/layout mismatch");
static_assert(_countof(VertexPositionColor::InputElements) == VertexPositionColor::InputElementCount, "mismatch");

//--------------------------------------------------------------------------------------
// Vertex struct holding position and dual texture mapping information.
D3D11_INPUT_ELEMENT_DESC const VertexPositionDualTexture::InputElements[] =
{
    { "SV_Position", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, D3D11_APPEND_ALIGNED_ELEMENT, D3D11_INPUT_PER_VERTEX_DATA, 0 },
    { "TEXCOORD",    0, DXGI_FORMAT_R32G32_FLOAT,    0, D3D11_APPEND_ALIGNED_ELEMENT, D3D11_INPUT_PER_VERTEX_DATA, 0 },
    { "TEXCOORD",    1, DXGI_FORMAT_R32G32_FLOAT,    0, D3D11_APPEND_ALIGNED_ELEMENT, D3D11_INPUT_PER_VERTEX_DATA, 0 },
};

namespace
{
    void Create(ID3D11Device* device, const void* bytecode, size_t length)
    {
        device->CreateInputLayout(VertexPositionDualTexture::InputElements,
            ARRAYSIZE(VertexPositionDualTexture::InputElements), bytecode, length, nullptr);
        UINT n = sizeof(VertexPositionColor::InputElements) / sizeof(VertexPositionColor::InputElements[0]);
    }
}
"#;

    #[test]
    fn directxtk_out_of_class_definitions() {
        let names: Vec<_> = arrays(DIRECTXTK_STYLE)
            .into_iter()
            .map(|a| a.name)
            .collect();
        assert_eq!(
            names,
            [
                "VertexPositionColor::InputElements",
                "VertexPositionDualTexture::InputElements"
            ]
        );
        let p = parse(
            DIRECTXTK_STYLE,
            Some("VertexPositionDualTexture::InputElements"),
        )
        .unwrap();
        assert_eq!(
            p.name.as_deref(),
            Some("VertexPositionDualTexture::InputElements")
        );
        assert_eq!(
            p.elements,
            vec![
                InputElementDesc::per_vertex(
                    "SV_Position",
                    0,
                    Format::R32G32B32_FLOAT,
                    0,
                    APPEND_ALIGNED_ELEMENT
                ),
                InputElementDesc::per_vertex(
                    "TEXCOORD",
                    0,
                    Format::R32G32_FLOAT,
                    0,
                    APPEND_ALIGNED_ELEMENT
                ),
                InputElementDesc::per_vertex(
                    "TEXCOORD",
                    1,
                    Format::R32G32_FLOAT,
                    0,
                    APPEND_ALIGNED_ELEMENT
                ),
            ]
        );
        assert_eq!(
            super::super::line_col(DIRECTXTK_STYLE, p.spans[2].element.start),
            (39, 5)
        );
        // A tail of the name that picks exactly one array; one that picks two is refused.
        let p = parse(DIRECTXTK_STYLE, Some("VertexPositionColor::InputElements")).unwrap();
        assert_eq!(p.elements[1].format, Format::R32G32B32A32_FLOAT);
        let e = err(DIRECTXTK_STYLE, Some("InputElements"));
        assert_eq!(
            e.message,
            "`InputElements` names 2 input element arrays: `VertexPositionColor::InputElements` (line 24), `VertexPositionDualTexture::InputElements` (line 35); give more of the name"
        );
        let e = err(DIRECTXTK_STYLE, Some("Elements"));
        assert!(
            e.message
                .starts_with("no input element array named `Elements`"),
            "{}",
            e.message
        );
    }

    #[test]
    fn containers_scopes_and_braced_initializers() {
        let src = r#"#include <array>
#include <vector>
namespace Engine::Render {
class MeshPass final : public Pass {
public:
    static constexpr std::array<D3D11_INPUT_ELEMENT_DESC, 3> kLayout = {{
        { "POSITION", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0 },
        { "NORMAL", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, 12, D3D11_INPUT_PER_VERTEX_DATA, 0 },
    }};
};
} // namespace Engine::Render

void Build() {
    const std::vector<D3D11_INPUT_ELEMENT_DESC> layout{
        D3D11_INPUT_ELEMENT_DESC{ "POSITION", 0, DXGI_FORMAT_R32G32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0 },
        { "INSTANCE", 0, DXGI_FORMAT_R32_UINT, 1, 0, D3D11_INPUT_PER_INSTANCE_DATA, 1 },
    };
    std::vector<D3D11_INPUT_ELEMENT_DESC> other = { { "A", 0, DXGI_FORMAT_R8_UNORM } };
    D3D11_INPUT_ELEMENT_DESC local[] { { "B" } };
    device->CreateInputLayout(layout.data(), static_cast<UINT>(layout.size()), code, size, &il);
}
"#;
        let names: Vec<_> = arrays(src).into_iter().map(|a| a.name).collect();
        assert_eq!(
            names,
            [
                "Engine::Render::MeshPass::kLayout",
                "layout",
                "other",
                "local"
            ]
        );
        let p = parse(src, Some("kLayout")).unwrap();
        assert_eq!(p.elements.len(), 3, "std::array is zero-filled to its size");
        assert_eq!(p.elements[1].aligned_byte_offset, 12);
        assert_eq!(p.elements[2], zero_element());
        assert_eq!(&src[p.spans[2].element.range()], "3");
        let p = parse(src, Some("layout")).unwrap();
        assert_eq!(
            p.elements,
            vec![
                InputElementDesc::per_vertex("POSITION", 0, Format::R32G32_FLOAT, 0, 0),
                InputElementDesc::per_instance("INSTANCE", 0, Format::R32_UINT, 1, 0, 1),
            ]
        );
        assert_eq!(parse(src, Some("other")).unwrap().elements.len(), 1);
        assert_eq!(
            parse(src, Some("local")).unwrap().elements[0]
                .semantic_name
                .as_deref(),
            Some("B")
        );
    }

    /// Regression (issue 18, `layout_c` fuzz finding): a globally qualified name's span
    /// started at the `::`, which is not part of the name; a name written by a macro points at
    /// the macro's invocation (where the array is defined in the file), for an object-like
    /// and a function-like macro, and its line is the invocation's.
    #[test]
    fn name_spans_leave_out_the_global_qualifier_and_point_at_macro_calls() {
        let row = "{ \"POSITION\", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0 }";
        let global = format!("const D3D11_INPUT_ELEMENT_DESC ::kSprite[] = {{ {row} }};");
        let a = arrays(&global);
        assert_eq!(a.len(), 1);
        assert_eq!(a[0].name, "kSprite");
        assert_eq!(&global[a[0].name_span.range()], "kSprite");
        let qualified =
            format!("const D3D11_INPUT_ELEMENT_DESC :: Scene :: kMesh[] = {{ {row} }};");
        let a = arrays(&qualified);
        assert_eq!(a[0].name, "Scene::kMesh");
        assert_eq!(&qualified[a[0].name_span.range()], "Scene :: kMesh");

        let object = format!(
            "// header\n#define ARR const D3D11_INPUT_ELEMENT_DESC kOld[] = {{ {row} }}\n\nARR;\n"
        );
        let a = arrays(&object);
        assert_eq!(a.len(), 1);
        assert_eq!(a[0].name, "kOld");
        assert_eq!(&object[a[0].name_span.range()], "ARR");
        assert_eq!(a[0].line, 4);
        assert_eq!(parse(&object, Some("kOld")).unwrap().elements.len(), 1);

        let function = format!(
            "#define DECL(n) const D3D11_INPUT_ELEMENT_DESC n[] = {{ {row} }}\nnamespace Scene {{\n  DECL( kOld );\n}}\n"
        );
        let a = arrays(&function);
        assert_eq!(a.len(), 1);
        // The name is the argument, written in the file: its own span.
        assert_eq!(a[0].name, "Scene::kOld");
        assert_eq!(&function[a[0].name_span.range()], "kOld");
        assert_eq!(a[0].line, 3);
        // A name in the body of a function-like macro: the whole call.
        let body = "#define VTX(n) { n, 0, DXGI_FORMAT_R32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0 }\n#define DECL(r) const D3D11_INPUT_ELEMENT_DESC kBody[] = { r }\n\nDECL(VTX(\"A\"));\n";
        let a = arrays(body);
        assert_eq!(a.len(), 1);
        assert_eq!(a[0].name, "kBody");
        assert_eq!(&body[a[0].name_span.range()], "DECL(VTX(\"A\"))");
        assert_eq!(a[0].line, 4);
    }

    #[test]
    fn macros_build_rows() {
        let src = r#"#ifndef LAYOUTS_H
#define LAYOUTS_H
#pragma once

#define PER_VERTEX D3D11_INPUT_PER_VERTEX_DATA, 0
#define VTX(n, f, o) { n, 0, f, 0, o, PER_VERTEX }
#define F3 DXGI_FORMAT_R32G32B32_FLOAT
#define NUM_ELEMENTS (1 + 2)

#if 0
// An old layout, compiled out.
static const D3D11_INPUT_ELEMENT_DESC kMesh[] = { VTX("OLD", F3, 0) };
#endif

#if defined(USE_HALF_UV)
#define UV_FORMAT DXGI_FORMAT_R16G16_FLOAT
#else
#define UV_FORMAT DXGI_FORMAT_R32G32_FLOAT
#endif

static const D3D11_INPUT_ELEMENT_DESC kMesh[NUM_ELEMENTS] =
{
    VTX("POSITION", F3, 0),
    VTX("TEXCOORD", UV_FORMAT, 12),
};

static const D3D11_INPUT_ELEMENT_DESC kBroken[] = { VTX("P", F4, 0) };
static const D3D11_INPUT_ELEMENT_DESC kArity[] = { VTX("P", F3) };
#endif // LAYOUTS_H
"#;
        let p = parse(src, Some("kMesh")).unwrap();
        assert_eq!(
            p.elements,
            vec![
                InputElementDesc::per_vertex("POSITION", 0, Format::R32G32B32_FLOAT, 0, 0),
                InputElementDesc::per_vertex("TEXCOORD", 0, Format::R32G32_FLOAT, 0, 12),
                zero_element(),
            ]
        );
        // The element's span is the macro invocation; a field given as an argument keeps its
        // own place.
        assert_eq!(
            &src[p.spans[1].element.range()],
            "VTX(\"TEXCOORD\", UV_FORMAT, 12)"
        );
        assert_eq!(&src[p.spans[1].field(Field::Offset).range()], "12");
        assert_eq!(
            &src[p.spans[1].field(Field::Semantic).range()],
            "\"TEXCOORD\""
        );
        // An unknown macro is an error naming it, at its place.
        let e = err(src, Some("kBroken"));
        assert_eq!((e.line, e.found.as_str()), (27, "F4"));
        assert!(
            e.message
                .starts_with("unknown name `F4`: not a macro defined in this file"),
            "{}",
            e.message
        );
        let e = err(src, Some("kArity"));
        assert_eq!((e.line, e.column), (28, 52));
        assert_eq!(e.message, "macro `VTX` takes 3 arguments, given 2");
    }

    #[test]
    fn endless_line_is_linear() {
        // 200k elements on one line: bounded by MAX_ELEMENTS, error, no quadratic work.
        let mut src = String::from("D3D11_INPUT_ELEMENT_DESC d[] = {");
        for _ in 0..200_000 {
            src.push_str("{\"P\",0,DXGI_FORMAT_R32_FLOAT},");
        }
        src.push_str("};");
        let e = err(&src, None);
        assert_eq!(
            e.message,
            "more than 4096 elements in one array: inlay reads at most 4096 (CreateInputLayout \
             accepts at most 32)"
        );
        assert_eq!(e.column, 33 + 4096 * 30);
        // Garbage without structure.
        let junk: String = (0..300_000)
            .map(|i| ["{", "}", "\"", "/*", "[", "'"][i % 6])
            .collect();
        assert!(parse(&junk, None).is_err());
    }
}
