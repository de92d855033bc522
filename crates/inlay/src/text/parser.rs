//! The token reader and value evaluator that the C/C++, C# and Rust front ends share: a
//! parser over the preprocessed token stream (or a list of tokens already read), the constant
//! expressions element members are written with, string literals, the names every dialect
//! resolves, and the member lists of C# object initializers and Rust struct literals. Each
//! front end (`c`, `csharp`, `rust`) finds its element arrays and reads their elements with it.

use std::collections::VecDeque;

use crate::element::InputElementDesc;
use crate::format::Format;

use super::lex::{Dialect, Kind, Token};
use super::preprocess::Tokens;
use super::{ElementSpans, Field, Span, TextError};

/// Deepest nesting of parentheses and unary operators in a value expression.
pub const MAX_EXPRESSION_DEPTH: usize = 64;

/// The recursive-descent reader of element initializers, shared by the C, C# and Rust
/// front ends (the dialect decides how names are resolved).
pub(super) struct Parser<'a> {
    pub src: &'a str,
    pub(super) toks: Option<Tokens<'a>>,
    buf: VecDeque<Token>,
    /// Where the end of a token list is (for parsers over a list).
    end: usize,
    /// The first preprocessor error token consumed since it was last cleared.
    pub(super) error_seen: Option<u32>,
    pub dialect: Dialect,
    /// Positions for array lines and errors, found incrementally (issue 18 item 3: a line
    /// counted from the start per array made 100 000 arrays take 242 s).
    pub(super) lines: super::LineCursor<'a>,
}

/// What stands in a member's place of a member list ([`Parser::members`]).
pub(super) enum Member {
    /// A member naming this field.
    Field(Field),
    /// The rest of the literal, left to defaults (Rust's `..Default::default()`).
    Rest,
}

/// A value written in an initializer.
pub(super) enum Value {
    /// A string literal (adjacent literals joined).
    Str(String),
    /// `NULL` or `nullptr`.
    Null,
    /// An integer constant expression's value.
    Int(i128),
}

const CAST_TYPES: [&str; 15] = [
    "UINT",
    "uint",
    "Format",
    "InputClassification",
    "INT",
    "DWORD",
    "unsigned",
    "int",
    "uint32_t",
    "int32_t",
    "DXGI_FORMAT",
    "D3D10_INPUT_CLASSIFICATION",
    "D3D11_INPUT_CLASSIFICATION",
    "D3D12_INPUT_CLASSIFICATION",
    "LPCSTR",
];

impl<'a> Parser<'a> {
    pub fn new(src: &'a str, dialect: Dialect) -> Self {
        Parser {
            src,
            toks: Some(Tokens::new(src, dialect)),
            buf: VecDeque::new(),
            end: src.len(),
            error_seen: None,
            dialect,
            lines: super::LineCursor::new(src),
        }
    }

    /// A parser over a list of tokens already read.
    pub fn over(&self, tokens: Vec<Token>, end: usize) -> Parser<'a> {
        Parser {
            src: self.src,
            toks: None,
            buf: tokens.into(),
            end,
            error_seen: None,
            dialect: self.dialect,
            lines: self.lines.clone(),
        }
    }

    fn raw_next(&mut self) -> Token {
        match &mut self.toks {
            Some(t) => t.next(),
            None => Token::new(Kind::Eof, Span::new(self.end, self.end)),
        }
    }

    pub fn next(&mut self) -> Token {
        let t = match self.buf.pop_front() {
            Some(t) => t,
            None => self.raw_next(),
        };
        if let Kind::Error(i) = t.kind {
            self.error_seen.get_or_insert(i);
        }
        t
    }

    pub fn peek(&mut self) -> Token {
        self.peek_at(0)
    }

    /// The token `n` places ahead (0: the next one).
    pub fn peek_at(&mut self, n: usize) -> Token {
        while self.buf.len() <= n {
            let t = self.raw_next();
            self.buf.push_back(t);
            if t.kind == Kind::Eof {
                return t;
            }
        }
        self.buf[n]
    }

    /// The text of the token `n` places ahead.
    pub fn peek_text(&mut self, n: usize) -> &'a str {
        let t = self.peek_at(n);
        self.text(t)
    }

    /// Whether the token `n` places ahead is the punctuator `p`.
    pub fn peek_punct(&mut self, n: usize, p: &str) -> bool {
        let t = self.peek_at(n);
        self.is_punct(t, p)
    }

    pub fn text(&self, t: Token) -> &'a str {
        self.src.get(t.text.range()).unwrap_or("")
    }

    pub fn peek_is(&mut self, p: &str) -> bool {
        let t = self.peek();
        self.is_punct(t, p)
    }

    pub fn is_punct(&self, t: Token, p: &str) -> bool {
        t.kind == Kind::Punct && self.text(t) == p
    }

    /// After an item of a comma-separated list that `close` ends: consumes a `,` and returns
    /// `true` (another item may follow), or returns `false` at `close` (left unread); anything
    /// else is an error: "expected `,` or `close``after`, found …".
    pub fn list_next(&mut self, close: &str, after: &str) -> Result<bool, TextError> {
        let t = self.peek();
        if self.is_punct(t, ",") {
            self.next();
            return Ok(true);
        }
        if self.is_punct(t, close) {
            return Ok(false);
        }
        Err(self.err(
            t.span,
            format!("expected `,` or `{close}`{after}, found {}", self.found(t)),
        ))
    }

    pub fn err(&self, span: Span, message: impl Into<String>) -> TextError {
        TextError::at_cursor(&self.lines, span, message)
    }

    /// A description of a token for "expected X, found Y" messages.
    pub fn found(&self, t: Token) -> String {
        match t.kind {
            Kind::Eof => "the end of the file".to_string(),
            Kind::Error(_) => "text inlay could not preprocess".to_string(),
            _ => format!("`{}`", super::excerpt(self.text(t))),
        }
    }
}

impl<'a> Parser<'a> {
    /// Moves one balanced bracket group, from its opening bracket, into `tokens`, and returns
    /// the end of its closing bracket: the C# and Rust front ends read an element whole first,
    /// so that an error inside it stays inside it.
    pub fn group(&mut self, tokens: &mut Vec<Token>) -> Result<usize, TextError> {
        let mut depth = 0usize;
        loop {
            let t = self.next();
            match t.kind {
                Kind::Eof => {
                    return Err(self.err(t.span, "unexpected end of file inside an element"));
                }
                Kind::Punct if matches!(self.text(t), "(" | "{" | "[") => depth += 1,
                Kind::Punct if matches!(self.text(t), ")" | "}" | "]") => {
                    depth = depth.saturating_sub(1)
                }
                _ => {}
            }
            tokens.push(t);
            if depth == 0 {
                return Ok(t.span.end);
            }
        }
    }

    /// Reads an element's member list after its `{`, through the closing `}`: `NAME SEP value`
    /// separated by commas (a trailing comma allowed), as C#'s object initializers
    /// (`SemanticName = "POSITION"`, `sep` `=`) and Rust's struct literals
    /// (`SemanticName: s!("POSITION")`, `sep` `:`) write them. `member` tells what a token in
    /// a member's place is — a [`Field`], the rest of the literal ([`Member::Rest`]: skipped to
    /// the `}`), or an error naming it. Each member may be given once; values are assigned as
    /// [`Parser::assign`] does and their spans recorded in `spans`. Returns whether the rest
    /// was left to defaults.
    pub fn members(
        &mut self,
        sep: &str,
        desc: &mut InputElementDesc,
        spans: &mut ElementSpans,
        member: impl Fn(&mut Parser<'a>, Token) -> Result<Member, TextError>,
    ) -> Result<bool, TextError> {
        let mut rest = false;
        loop {
            let t = self.next();
            if self.is_punct(t, "}") {
                return Ok(rest);
            }
            let field = match member(self, t)? {
                Member::Field(f) => f,
                Member::Rest => {
                    rest = true;
                    while self.peek().kind != Kind::Eof && !self.peek_is("}") {
                        self.next();
                    }
                    continue;
                }
            };
            let s = self.next();
            if !self.is_punct(s, sep) {
                return Err(self.err(s.span, format!("expected `{sep}`, found {}", self.found(s))));
            }
            if spans.fields[field as usize].is_some() {
                return Err(self.err(t.span, format!("{} is given twice", field.c_name())));
            }
            let (v, span) = self.value(0)?;
            self.assign(desc, field, v, span)?;
            spans.fields[field as usize] = Some(span);
            if !self.list_next("}", "")? {
                self.next();
                return Ok(rest);
            }
        }
    }

    pub fn assign(
        &self,
        desc: &mut InputElementDesc,
        field: Field,
        value: Value,
        span: Span,
    ) -> Result<(), TextError> {
        if field == Field::Semantic {
            desc.semantic_name = match value {
                Value::Str(s) => {
                    crate::element::check_semantic_name(&s).map_err(|m| self.err(span, m))?;
                    Some(s)
                }
                Value::Null | Value::Int(0) => None,
                Value::Int(_) => {
                    return Err(self.err(
                        span,
                        "SemanticName must be a string literal or NULL, found a number",
                    ));
                }
            };
            return Ok(());
        }
        let n = match value {
            Value::Int(n) => to_uint(n).ok_or_else(|| {
                self.err(
                    span,
                    format!("{} value {n} does not fit in 32 bits", field.c_name()),
                )
            })?,
            Value::Null => 0,
            Value::Str(_) => {
                return Err(self.err(
                    span,
                    format!(
                        "{} must be a number or a name, found a string",
                        field.c_name()
                    ),
                ));
            }
        };
        match field {
            Field::Semantic => {}
            Field::Index => desc.semantic_index = n,
            Field::Format => desc.format = Format(n),
            Field::Slot => desc.input_slot = n,
            Field::Offset => desc.aligned_byte_offset = n,
            Field::Class => desc.input_slot_class = n,
            Field::StepRate => desc.instance_data_step_rate = n,
        }
        Ok(())
    }

    /// A value: string literal(s) or an integer constant expression (`|` lowest).
    pub fn value(&mut self, depth: usize) -> Result<(Value, Span), TextError> {
        let t = self.peek();
        if let Kind::Str { .. } = t.kind {
            return self.strings();
        }
        let (first, mut span) = self.additive(depth)?;
        let mut acc = first;
        while self.peek_is("|") {
            self.next();
            let (rhs, rspan) = self.additive(depth)?;
            let (a, b) = (self.int(acc, span)?, self.int(rhs, rspan)?);
            acc = Value::Int(to_uint(a).unwrap_or(0) as i128 | to_uint(b).unwrap_or(0) as i128);
            span.end = rspan.end;
        }
        Ok((acc, span))
    }

    fn int(&self, v: Value, span: Span) -> Result<i128, TextError> {
        match v {
            Value::Int(n) => Ok(n),
            Value::Null => Ok(0),
            Value::Str(_) => Err(self.err(span, "a string cannot be used in arithmetic")),
        }
    }

    fn additive(&mut self, depth: usize) -> Result<(Value, Span), TextError> {
        let (mut acc, mut span) = self.multiplicative(depth)?;
        loop {
            let t = self.peek();
            let plus = self.is_punct(t, "+");
            if !plus && !self.is_punct(t, "-") {
                return Ok((acc, span));
            }
            self.next();
            let (rhs, rspan) = self.multiplicative(depth)?;
            let (a, b) = (self.int(acc, span)?, self.int(rhs, rspan)?);
            span.end = rspan.end;
            acc = Value::Int(self.checked(
                if plus {
                    a.checked_add(b)
                } else {
                    a.checked_sub(b)
                },
                span,
            )?);
        }
    }

    fn multiplicative(&mut self, depth: usize) -> Result<(Value, Span), TextError> {
        let (mut acc, mut span) = self.unary(depth)?;
        loop {
            let t = self.peek();
            let times = self.is_punct(t, "*");
            if !times && !self.is_punct(t, "/") {
                return Ok((acc, span));
            }
            self.next();
            let (rhs, rspan) = self.unary(depth)?;
            let (a, b) = (self.int(acc, span)?, self.int(rhs, rspan)?);
            span.end = rspan.end;
            if !times && b == 0 {
                return Err(self.err(span, "division by zero"));
            }
            acc = Value::Int(self.checked(
                if times {
                    a.checked_mul(b)
                } else {
                    a.checked_div(b)
                },
                span,
            )?);
        }
    }

    fn checked(&self, v: Option<i128>, span: Span) -> Result<i128, TextError> {
        v.filter(|v| v.unsigned_abs() < 1 << 64)
            .ok_or_else(|| self.err(span, "value out of range"))
    }

    fn unary(&mut self, depth: usize) -> Result<(Value, Span), TextError> {
        let t = self.peek();
        if depth >= MAX_EXPRESSION_DEPTH {
            return Err(self.err(t.span, "expression nested too deeply"));
        }
        for op in ["-", "+", "~"] {
            if self.is_punct(t, op) {
                self.next();
                let (v, s) = self.unary(depth + 1)?;
                let n = self.int(v, s)?;
                let span = Span::new(t.span.start, s.end);
                let r = match op {
                    "-" => -n,
                    "+" => n,
                    _ => !(to_uint(n).unwrap_or(0)) as i128,
                };
                return Ok((Value::Int(r), span));
            }
        }
        self.primary(depth)
    }

    fn primary(&mut self, depth: usize) -> Result<(Value, Span), TextError> {
        let t = self.next();
        match t.kind {
            Kind::Number => Ok((Value::Int(self.number(t)?), t.span)),
            Kind::Ident if self.dialect == Dialect::CSharp => super::csharp::name_value(self, t),
            Kind::Ident if self.dialect == Dialect::Rust => super::rust::name_value(self, t),
            Kind::Ident => {
                let name = self.text(t);
                if matches!(name, "static_cast" | "reinterpret_cast") {
                    // static_cast<TYPE>(expr)
                    let mut u = self.next();
                    if self.is_punct(u, "<") {
                        u = self.next();
                        while u.kind == Kind::Ident || self.is_punct(u, "::") {
                            u = self.next();
                        }
                    }
                    if !self.is_punct(u, ">") || !self.peek_is("(") {
                        return Err(self.err(u.span, format!("expected `{name}<TYPE>(…)`")));
                    }
                    return self
                        .primary(depth + 1)
                        .map(|(v, s)| (v, Span::new(t.span.start, s.end)));
                }
                resolve_name(name)
                    .map(|v| (v, t.span))
                    .ok_or_else(|| self.unknown_name(t))
            }
            Kind::Punct if self.text(t) == "(" => {
                if depth >= MAX_EXPRESSION_DEPTH {
                    return Err(self.err(t.span, "expression nested too deeply"));
                }
                // A cast such as (UINT) or (DXGI_FORMAT).
                let u = self.peek();
                if u.kind == Kind::Ident && CAST_TYPES.contains(&self.text(u)) {
                    self.next();
                    let close = self.next();
                    if !self.is_punct(close, ")") {
                        return Err(self.err(
                            close.span,
                            format!("expected `)` after a cast, found {}", self.found(close)),
                        ));
                    }
                    return self
                        .unary(depth + 1)
                        .map(|(v, s)| (v, Span::new(t.span.start, s.end)));
                }
                let (v, _) = self.value(depth + 1)?;
                let close = self.next();
                if !self.is_punct(close, ")") {
                    return Err(self.err(
                        close.span,
                        format!("expected `)`, found {}", self.found(close)),
                    ));
                }
                Ok((v, Span::new(t.span.start, close.span.end)))
            }
            Kind::Str { .. } => Err(self.err(t.span, "a string cannot be used in arithmetic")),
            Kind::Char => Err(self.err(
                t.span,
                format!(
                    "character literal {} is not supported here; write a number",
                    self.found(t)
                ),
            )),
            Kind::Eof => Err(self.err(t.span, "unexpected end of file inside an element")),
            Kind::Directive | Kind::Error(_) => {
                Err(self.err(t.span, format!("expected a value, found {}", self.found(t))))
            }
            Kind::Punct => {
                Err(self.err(t.span, format!("expected a value, found {}", self.found(t))))
            }
        }
    }

    pub fn unknown_name(&self, t: Token) -> TextError {
        let name = self.text(t);
        let message = if name.starts_with("DXGI_FORMAT_") {
            format!("unknown DXGI format `{name}`")
        } else if matches!(name, "offsetof" | "sizeof" | "_countof" | "ARRAYSIZE") {
            format!(
                "`{name}(…)` cannot be evaluated without compiling the program; write the number"
            )
        } else {
            format!(
                "unknown name `{name}`: not a macro defined in this file (#include is not \
                 followed) nor a name inlay knows (DXGI_FORMAT_*, D3D1x_INPUT_PER_VERTEX_DATA, \
                 D3D1x_INPUT_PER_INSTANCE_DATA, D3D1x_APPEND_ALIGNED_ELEMENT, UINT_MAX, NULL)"
            )
        };
        self.err(t.span, message)
    }

    /// An integer literal with optional `u`/`l` suffixes.
    pub fn number(&self, t: Token) -> Result<i128, TextError> {
        let text = self.text(t);
        // Digit separators: C++14 `'`, C# and Rust `_`; Rust's type suffixes.
        let cleaned: String = text.chars().filter(|c| !matches!(c, '\'' | '_')).collect();
        let mut body = cleaned.as_str();
        if self.dialect == Dialect::Rust {
            for suffix in [
                "u8", "u16", "u32", "u64", "usize", "i8", "i16", "i32", "i64", "isize",
            ] {
                if let Some(b) = body.strip_suffix(suffix).filter(|b| !b.is_empty()) {
                    body = b;
                    break;
                }
            }
        } else {
            body = body.trim_end_matches(['u', 'U', 'l', 'L']);
        }
        let (digits, radix) =
            if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
                (h, 16)
            } else if let Some(b) = body.strip_prefix("0b").or_else(|| body.strip_prefix("0B")) {
                (b, 2)
            } else if let Some(o) = body
                .strip_prefix("0o")
                .filter(|_| self.dialect == Dialect::Rust)
            {
                (o, 8)
            } else if body.len() > 1 && body.starts_with('0') && self.dialect == Dialect::C {
                (&body[1..], 8)
            } else {
                (body, 10)
            };
        let is_float = radix == 10 && (body.contains('.') || body.contains(['e', 'E']))
            || body.ends_with(['f', 'F']) && radix != 16;
        if is_float {
            return Err(self.err(
                t.span,
                format!(
                    "expected an integer, found the floating-point literal `{}`",
                    super::excerpt(text)
                ),
            ));
        }
        if digits.is_empty() || digits.len() > 40 {
            return Err(self.err(
                t.span,
                format!("malformed integer literal `{}`", super::excerpt(text)),
            ));
        }
        u128::from_str_radix(digits, radix)
            .ok()
            .filter(|v| *v < 1 << 64)
            .map(|v| v as i128)
            .ok_or_else(|| {
                self.err(
                    t.span,
                    format!(
                        "malformed or too large integer literal `{}`",
                        super::excerpt(text)
                    ),
                )
            })
    }

    /// One or more adjacent string literals.
    pub fn strings(&mut self) -> Result<(Value, Span), TextError> {
        let mut out = String::new();
        let first = self.peek().span;
        let mut end = first.end;
        while let Kind::Str { terminated } = self.peek().kind {
            let t = self.next();
            if !terminated {
                return Err(self.err(t.span, "unterminated string literal"));
            }
            let text = self.text(t);
            let open = text.find('"').unwrap_or(0);
            if open > 0
                && !text.starts_with("u8")
                && !(self.dialect == Dialect::Rust && text.starts_with('b'))
            {
                return Err(self.err(
                    t.span,
                    "SemanticName is a narrow string (LPCSTR); remove the L/u/U prefix",
                ));
            }
            unescape(&text[open + 1..text.len() - 1], &mut out).map_err(|(at, len, what)| {
                let s = t.span.start + open + 1 + at;
                self.err(Span::new(s, s + len), what)
            })?;
            end = t.span.end;
        }
        Ok((Value::Str(out), Span::new(first.start, end)))
    }
}

/// Converts a C integer value to `UINT` the way C does for values that fit `UINT` or `INT`;
/// `None` for anything else.
pub(super) fn to_uint(n: i128) -> Option<u32> {
    if (0..=u32::MAX as i128).contains(&n) {
        Some(n as u32)
    } else if (i32::MIN as i128..0).contains(&n) {
        Some(n as i32 as u32)
    } else {
        None
    }
}

pub(super) fn zero_element() -> InputElementDesc {
    InputElementDesc {
        semantic_name: None,
        semantic_index: 0,
        format: Format::UNKNOWN,
        input_slot: 0,
        aligned_byte_offset: 0,
        input_slot_class: 0,
        instance_data_step_rate: 0,
    }
}

/// The value of a name, for names the parser knows.
pub(super) fn resolve_name(name: &str) -> Option<Value> {
    if let Some(rest) = name.strip_prefix("DXGI_FORMAT_") {
        if rest.is_empty() || rest.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        return name.parse::<Format>().ok().map(|f| Value::Int(f.0 as i128));
    }
    let v = match name {
        "NULL" | "nullptr" => return Some(Value::Null),
        "D3D10_INPUT_PER_VERTEX_DATA"
        | "D3D11_INPUT_PER_VERTEX_DATA"
        | "D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA" => 0,
        "D3D10_INPUT_PER_INSTANCE_DATA"
        | "D3D11_INPUT_PER_INSTANCE_DATA"
        | "D3D12_INPUT_CLASSIFICATION_PER_INSTANCE_DATA" => 1,
        "D3D10_APPEND_ALIGNED_ELEMENT"
        | "D3D11_APPEND_ALIGNED_ELEMENT"
        | "D3D12_APPEND_ALIGNED_ELEMENT"
        | "UINT_MAX"
        | "UINT32_MAX" => 0xffff_ffff,
        _ => return None,
    };
    Some(Value::Int(v))
}

/// Decodes C escapes of a string literal's body into `out`. On error: byte position in
/// `body`, length and message.
fn unescape(body: &str, out: &mut String) -> Result<(), (usize, usize, String)> {
    let mut bytes: Vec<u8> = Vec::with_capacity(body.len());
    let b = body.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            bytes.push(b[i]);
            i += 1;
            continue;
        }
        let Some(&e) = b.get(i + 1) else {
            return Err((
                i,
                1,
                "a string literal cannot end with a lone backslash".into(),
            ));
        };
        let (byte, len) = match e {
            b'n' => (b'\n', 2),
            b't' => (b'\t', 2),
            b'r' => (b'\r', 2),
            b'a' => (7, 2),
            b'b' => (8, 2),
            b'f' => (12, 2),
            b'v' => (11, 2),
            b'\\' | b'"' | b'\'' | b'?' => (e, 2),
            b'x' => {
                let digits = b[i + 2..]
                    .iter()
                    .take_while(|c| c.is_ascii_hexdigit())
                    .count();
                if digits == 0 || digits > 2 {
                    return Err((
                        i,
                        2 + digits,
                        "\\x must be followed by one or two hex digits".into(),
                    ));
                }
                let v = u8::from_str_radix(&body[i + 2..i + 2 + digits], 16).unwrap_or(0);
                (v, 2 + digits)
            }
            b'0'..=b'7' => {
                let digits = b[i + 1..]
                    .iter()
                    .take(3)
                    .take_while(|c| (b'0'..=b'7').contains(c))
                    .count();
                let v = u32::from_str_radix(&body[i + 1..i + 1 + digits], 8).unwrap_or(0);
                if v > 255 {
                    return Err((i, 1 + digits, "octal escape larger than a byte".into()));
                }
                (v as u8, 1 + digits)
            }
            _ => {
                let len = body[i + 1..].chars().next().map_or(1, char::len_utf8) + 1;
                return Err((i, len, format!("unknown escape `{}`", &body[i..i + len])));
            }
        };
        bytes.push(byte);
        i += len;
    }
    out.push_str(&String::from_utf8_lossy(&bytes));
    Ok(())
}
