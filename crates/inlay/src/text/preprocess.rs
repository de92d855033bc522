//! The C preprocessor, as far as layout definitions need it.
//!
//! What it does (C17 §6.10, with the limits said here):
//!
//! * object-like `#define NAME tokens` and function-like `#define NAME(a, b, ...) tokens`
//!   macros (`__VA_ARGS__` included), expanded with rescanning and without recursion into a
//!   macro being expanded (§6.10.3.4); `#undef`;
//! * `#if`, `#ifdef`, `#ifndef`, `#elif`, `#elifdef`, `#elifndef`, `#else`, `#endif`, so `#if 0`
//!   blocks and include guards work; `#if` expressions are integer constant expressions over
//!   numbers, `defined`, macros, `! ~ - + * / % << >> < > <= >= == != & ^ | && ||` and
//!   parentheses; an identifier that is not a macro counts as 0 there, as §6.10.1 says;
//!   `_WIN32` and `_WIN64` are predefined (layouts are Windows code);
//! * `#include`, `#pragma`, `#error`, `#line` and other directives are not followed (an
//!   included file is not read: a macro it would have defined is unknown).
//!
//! What it refuses, as an error at the place it is used: the `#` and `##` operators in a
//! macro that a layout uses, a wrong number of macro arguments, a malformed `#if`, an
//! unterminated conditional, expansions nested deeper than [`MAX_EXPANSION_DEPTH`] or larger
//! than the input justifies. Errors are tokens in the stream: the layout
//! parser reports one only when it lies inside the array it reads, so a construct elsewhere in
//! a file that inlay cannot preprocess does not stop a layout from being read.

use std::collections::{HashMap, VecDeque};
use std::rc::Rc;

use super::lex::{Dialect, Kind, Lexer, Token};
use super::{Span, TextError};

/// Deepest nesting of macro expansions.
pub const MAX_EXPANSION_DEPTH: usize = 64;

/// Macros defined before the file starts (layouts are Windows code).
const PREDEFINED: [(&str, i128); 2] = [("_WIN32", 1), ("_WIN64", 1)];

struct Macro {
    /// `None` for an object-like macro; the parameter names otherwise.
    params: Option<Vec<Span>>,
    variadic: bool,
    body: Vec<Token>,
    /// The body uses `#` or `##`.
    pastes: bool,
}

struct Cond {
    /// This branch is being read.
    active: bool,
    /// The enclosing branch is being read.
    parent_active: bool,
    /// A branch of this conditional was taken already.
    taken: bool,
    /// Where the `#if` is.
    span: Span,
}

/// The token stream of a source: lexed, and for C preprocessed.
pub(super) struct Tokens<'a> {
    src: &'a str,
    lx: Lexer<'a>,
    preprocess: bool,
    macros: HashMap<&'a str, Rc<Macro>>,
    conds: Vec<Cond>,
    out: VecDeque<Token>,
    /// Errors found; [`Kind::Error`] tokens index this list.
    pub errors: Vec<TextError>,
    /// Tokens macro expansion may still produce.
    budget: usize,
}

impl<'a> Tokens<'a> {
    pub fn new(src: &'a str, dialect: Dialect) -> Self {
        Tokens {
            src,
            lx: Lexer::new(src, dialect),
            preprocess: dialect == Dialect::C,
            macros: HashMap::new(),
            conds: Vec::new(),
            out: VecDeque::new(),
            errors: Vec::new(),
            // Expansion may produce up to 16 tokens per source byte, at least a million.
            budget: src.len().saturating_mul(16).max(1 << 20),
        }
    }

    fn text(&self, s: Span) -> &'a str {
        self.src.get(s.range()).unwrap_or("")
    }

    fn active(&self) -> bool {
        self.conds.last().is_none_or(|c| c.active)
    }

    fn error_token(&mut self, span: Span, message: String) -> Token {
        let index = self.errors.len() as u32;
        self.errors.push(TextError::at(self.src, span, message));
        Token {
            kind: Kind::Error(index),
            span,
            text: Span::new(span.start, span.start),
        }
    }

    pub fn next(&mut self) -> Token {
        loop {
            if let Some(t) = self.out.pop_front() {
                return t;
            }
            let t = self.lx.next_token();
            match t.kind {
                Kind::Eof => {
                    if let Some(c) = self.conds.first() {
                        let span = c.span;
                        self.conds.clear();
                        return self.error_token(
                            span,
                            "this conditional has no matching `#endif`".to_string(),
                        );
                    }
                    return t;
                }
                Kind::Directive => self.directive(t),
                _ if !self.active() => {}
                Kind::Ident if self.preprocess && self.macros.contains_key(self.text(t.text)) => {
                    self.expand_top(t)
                }
                _ => return t,
            }
        }
    }

    // -----------------------------------------------------------------------------------------
    // Directives
    // -----------------------------------------------------------------------------------------

    fn directive(&mut self, t: Token) {
        let mut lx = Lexer::directive(self.src, t.span.start + 1, t.span.end);
        let name = lx.next_token();
        let mut rest = Vec::new();
        loop {
            let u = lx.next_token();
            if u.kind == Kind::Eof {
                break;
            }
            rest.push(u);
        }
        let word = if name.kind == Kind::Ident {
            self.text(name.span)
        } else {
            ""
        };
        let active = self.active();
        match word {
            "if" | "ifdef" | "ifndef" => {
                let value = if !active {
                    false
                } else if word == "if" {
                    self.condition(t.span, &rest)
                } else {
                    self.defined_directive(t.span, word == "ifndef", &rest)
                };
                self.conds.push(Cond {
                    active: active && value,
                    parent_active: active,
                    taken: value,
                    span: t.span,
                });
            }
            "elif" | "elifdef" | "elifndef" | "else" => {
                let Some(c) = self.conds.last() else {
                    let e = self.error_token(t.span, format!("`#{word}` without `#if`"));
                    self.out.push_back(e);
                    return;
                };
                let (parent, taken) = (c.parent_active, c.taken);
                let value = if !parent || taken {
                    false
                } else if word == "else" {
                    true
                } else if word == "elif" {
                    self.condition(t.span, &rest)
                } else {
                    self.defined_directive(t.span, word == "elifndef", &rest)
                };
                if let Some(c) = self.conds.last_mut() {
                    c.active = parent && value;
                    c.taken = taken || value;
                }
            }
            "endif" if self.conds.pop().is_none() => {
                let e = self.error_token(t.span, "`#endif` without `#if`".to_string());
                self.out.push_back(e);
            }
            "endif" => {}
            _ if !active => {}
            "define" => self.define(t.span, &rest),
            "undef" => {
                if let Some(n) = rest.first().filter(|n| n.kind == Kind::Ident) {
                    let name = self.text(n.span);
                    self.macros.remove(name);
                }
            }
            // #include, #pragma, #error, #warning, #line, #import, null directives: not
            // followed (documented in the module).
            _ => {}
        }
    }

    fn defined_directive(&mut self, at: Span, negate: bool, rest: &[Token]) -> bool {
        match rest.first() {
            Some(n) if n.kind == Kind::Ident => self.is_defined(self.text(n.span)) != negate,
            _ => {
                let e = self.error_token(at, "expected a macro name after the directive".into());
                self.out.push_back(e);
                false
            }
        }
    }

    fn is_defined(&self, name: &str) -> bool {
        self.macros.contains_key(name) || PREDEFINED.iter().any(|(n, _)| *n == name)
    }

    fn define(&mut self, at: Span, rest: &[Token]) {
        let Some(name) = rest.first().filter(|n| n.kind == Kind::Ident) else {
            let e = self.error_token(at, "expected a macro name after `#define`".into());
            self.out.push_back(e);
            return;
        };
        let mut i = 1;
        let mut params = None;
        let mut variadic = false;
        // Function-like only when `(` follows the name without a space (§6.10.3 ¶3).
        if rest
            .get(1)
            .is_some_and(|p| self.text(p.span) == "(" && p.span.start == name.span.end)
        {
            let mut names = Vec::new();
            i = 2;
            loop {
                let Some(p) = rest.get(i) else {
                    let e = self.error_token(at, "unterminated macro parameter list".into());
                    self.out.push_back(e);
                    return;
                };
                i += 1;
                match (p.kind, self.text(p.span)) {
                    (Kind::Punct, ")") => break,
                    (Kind::Punct, ",") => {}
                    (Kind::Ident, _) => names.push(p.span),
                    (Kind::Punct, ".") => {
                        // `...` is three `.` tokens.
                        variadic = true;
                        i += 2;
                    }
                    _ => {
                        let e = self.error_token(p.span, "malformed macro parameter list".into());
                        self.out.push_back(e);
                        return;
                    }
                }
            }
            params = Some(names);
        }
        let body: Vec<Token> = rest[i.min(rest.len())..].to_vec();
        let pastes = body.iter().any(|b| {
            b.kind == Kind::Punct && self.text(b.span) == "#" && params.is_some()
                || b.kind == Kind::Punct
                    && self.text(b.span) == "#"
                    && body
                        .iter()
                        .any(|c| c.span.start == b.span.end && self.text(c.span) == "#")
        });
        let key = self.text(name.span);
        self.macros.insert(
            key,
            Rc::new(Macro {
                params,
                variadic,
                body,
                pastes,
            }),
        );
    }

    // -----------------------------------------------------------------------------------------
    // Expansion
    // -----------------------------------------------------------------------------------------

    /// Expands the macro named by `name`, read from the file, into the output queue.
    fn expand_top(&mut self, name: Token) {
        let key = self.text(name.text);
        let Some(m) = self.macros.get(key).cloned() else {
            self.out.push_back(name);
            return;
        };
        let mut toks = vec![name];
        let mut end = name.span.end;
        if m.params.is_some() {
            // The arguments come from the file: read up to the matching `)`.
            let saved = (self.lx.pos, self.out.len());
            let open = self.lx.next_token();
            if !(open.kind == Kind::Punct && self.text(open.span) == "(") {
                // A function-like macro's name without arguments is not an invocation.
                self.lx.pos = saved.0;
                self.out.push_back(name);
                return;
            }
            toks.push(open);
            let mut depth = 1usize;
            while depth > 0 {
                let t = self.lx.next_token();
                match (t.kind, self.text(t.span)) {
                    (Kind::Eof, _) => {
                        let e = self.error_token(
                            name.span,
                            format!("unterminated arguments of macro `{key}`"),
                        );
                        self.out.push_back(e);
                        return;
                    }
                    (Kind::Directive, _) => continue,
                    (Kind::Punct, "(") => depth += 1,
                    (Kind::Punct, ")") => depth -= 1,
                    _ => {}
                }
                end = t.span.end;
                toks.push(t);
            }
        }
        let invocation = Span::new(name.span.start, end);
        let mut hide = Vec::new();
        let mut result = self.expand_list(&toks, &mut hide, 0);
        for t in &mut result {
            if t.text.start < invocation.start || t.text.end > invocation.end {
                t.span = invocation;
            }
        }
        self.out.extend(result);
    }

    /// Expands every macro invocation in `toks` (rescanning results), except the names in
    /// `hide` (those being expanded).
    fn expand_list(&mut self, toks: &[Token], hide: &mut Vec<&'a str>, depth: usize) -> Vec<Token> {
        let mut out = Vec::with_capacity(toks.len());
        let mut i = 0;
        while i < toks.len() {
            let t = toks[i];
            i += 1;
            let name = self.text(t.text);
            let m = match t.kind {
                Kind::Ident if !hide.contains(&name) => self.macros.get(name).cloned(),
                _ => None,
            };
            let Some(m) = m else {
                out.push(t);
                continue;
            };
            if depth >= MAX_EXPANSION_DEPTH {
                out.push(self.error_token(
                    t.span,
                    format!("macro `{name}` expands more than {MAX_EXPANSION_DEPTH} levels deep"),
                ));
                return out;
            }
            let expanded = match &m.params {
                None => {
                    if m.pastes {
                        vec![self.paste_error(t, name)]
                    } else {
                        hide.push(name);
                        let r = self.expand_list(&m.body, hide, depth + 1);
                        hide.pop();
                        r
                    }
                }
                Some(params) => {
                    if !toks
                        .get(i)
                        .is_some_and(|p| p.kind == Kind::Punct && self.text(p.text) == "(")
                    {
                        out.push(t);
                        continue;
                    }
                    // Arguments: top-level comma-separated token ranges up to `)`.
                    let mut args: Vec<(usize, usize)> = Vec::new();
                    let mut depth_p = 0usize;
                    let mut start = i + 1;
                    let mut j = i + 1;
                    let mut closed = false;
                    while j < toks.len() {
                        let u = toks[j];
                        match (u.kind, self.text(u.text)) {
                            (Kind::Punct, "(") => depth_p += 1,
                            (Kind::Punct, ")") if depth_p == 0 => {
                                args.push((start, j));
                                closed = true;
                                break;
                            }
                            (Kind::Punct, ")") => depth_p -= 1,
                            (Kind::Punct, ",") if depth_p == 0 => {
                                args.push((start, j));
                                start = j + 1;
                            }
                            _ => {}
                        }
                        j += 1;
                    }
                    if !closed {
                        out.push(t);
                        continue;
                    }
                    i = j + 1;
                    if params.is_empty() && !m.variadic && args.len() == 1 && args[0].0 == args[0].1
                    {
                        args.clear();
                    }
                    let arity_ok = if m.variadic {
                        args.len() >= params.len()
                    } else {
                        args.len() == params.len()
                    };
                    if !arity_ok {
                        out.push(self.error_token(
                            t.span,
                            format!(
                                "macro `{name}` takes {}{} argument{}, given {}",
                                if m.variadic { "at least " } else { "" },
                                params.len(),
                                if params.len() == 1 { "" } else { "s" },
                                args.len()
                            ),
                        ));
                        continue;
                    }
                    if m.pastes {
                        vec![self.paste_error(t, name)]
                    } else {
                        // Arguments are expanded before substitution (§6.10.3.1).
                        let mut expanded_args = Vec::with_capacity(args.len());
                        for &(a, b) in args.iter().take(params.len()) {
                            expanded_args.push(self.expand_list(&toks[a..b], hide, depth + 1));
                        }
                        let va: Vec<Token> = if m.variadic && args.len() > params.len() {
                            let (a, _) = args[params.len()];
                            let (_, b) = args[args.len() - 1];
                            self.expand_list(&toks[a..b], hide, depth + 1)
                        } else {
                            Vec::new()
                        };
                        let mut body = Vec::with_capacity(m.body.len());
                        for b in &m.body {
                            let text = self.text(b.text);
                            if b.kind == Kind::Ident {
                                if let Some(k) = params.iter().position(|p| self.text(*p) == text) {
                                    body.extend_from_slice(&expanded_args[k]);
                                    continue;
                                }
                                if m.variadic && text == "__VA_ARGS__" {
                                    body.extend_from_slice(&va);
                                    continue;
                                }
                            }
                            body.push(*b);
                        }
                        hide.push(name);
                        let r = self.expand_list(&body, hide, depth + 1);
                        hide.pop();
                        r
                    }
                }
            };
            if expanded.len() > self.budget {
                self.budget = 0;
                out.push(self.error_token(
                    t.span,
                    "macro expansion larger than inlay reads (16 tokens per byte of input)".into(),
                ));
                return out;
            }
            self.budget -= expanded.len();
            out.extend(expanded);
        }
        out
    }

    fn paste_error(&mut self, t: Token, name: &str) -> Token {
        self.error_token(
            t.span,
            format!(
                "macro `{name}` uses the `#` or `##` operator, which inlay does not expand; \
                 write the element out"
            ),
        )
    }

    // -----------------------------------------------------------------------------------------
    // #if expressions
    // -----------------------------------------------------------------------------------------

    /// Evaluates an `#if`/`#elif` condition; a malformed one is an error token and false.
    fn condition(&mut self, at: Span, rest: &[Token]) -> bool {
        // `defined X` / `defined(X)` first, then macro expansion, then evaluation.
        let mut items: Vec<Item> = Vec::new();
        let mut run: Vec<Token> = Vec::new();
        let mut i = 0;
        while i < rest.len() {
            let t = rest[i];
            if t.kind == Kind::Ident && self.text(t.span) == "defined" {
                let (name, next) = match rest.get(i + 1) {
                    Some(p) if self.text(p.span) == "(" => (
                        rest.get(i + 2).copied(),
                        if rest.get(i + 3).is_some_and(|c| self.text(c.span) == ")") {
                            i + 4
                        } else {
                            usize::MAX
                        },
                    ),
                    other => (other.copied(), i + 2),
                };
                match name.filter(|n| n.kind == Kind::Ident && next != usize::MAX) {
                    Some(n) => {
                        self.flush(&mut run, &mut items);
                        items.push(Item::Num(self.is_defined(self.text(n.span)) as i128));
                        i = next;
                        continue;
                    }
                    None => return self.bad_condition(t.span, "malformed `defined`"),
                }
            }
            run.push(t);
            i += 1;
        }
        self.flush(&mut run, &mut items);
        if let Some(e) = items.iter().find_map(|i| match i {
            Item::Err(s, m) => Some((*s, m.clone())),
            _ => None,
        }) {
            return self.bad_condition(e.0, &e.1);
        }
        let mut ev = Eval {
            items: &items,
            pos: 0,
        };
        match ev.ternary(0) {
            Ok(v) if ev.pos == items.len() => v != 0,
            Ok(_) => {
                let s = match items.get(ev.pos) {
                    Some(Item::Op(_, s)) => *s,
                    _ => at,
                };
                self.bad_condition(s, "unexpected text in `#if` expression")
            }
            Err(None) => self.bad_condition(at, "incomplete `#if` expression"),
            Err(Some((s, m))) => self.bad_condition(s, m),
        }
    }

    fn bad_condition(&mut self, span: Span, what: &str) -> bool {
        let e = self.error_token(
            span,
            format!("{what}; inlay treats this conditional as false"),
        );
        self.out.push_back(e);
        false
    }

    /// Macro-expands `run` and appends its evaluable items.
    fn flush(&mut self, run: &mut Vec<Token>, items: &mut Vec<Item>) {
        if run.is_empty() {
            return;
        }
        let mut hide = Vec::new();
        let toks = self.expand_list(run, &mut hide, 0);
        run.clear();
        let mut k = 0;
        while k < toks.len() {
            let t = toks[k];
            let text = self.text(t.text);
            match t.kind {
                Kind::Error(e) => {
                    let err = &self.errors[e as usize];
                    items.push(Item::Err(t.span, err.message.clone()));
                }
                Kind::Number => match pp_number(text) {
                    Some(v) => items.push(Item::Num(v)),
                    None => items.push(Item::Err(t.span, format!("`{text}` is not an integer"))),
                },
                // §6.10.1 ¶4: remaining identifiers are 0 (`true` is 1 in C++).
                Kind::Ident => items.push(Item::Num((text == "true") as i128)),
                Kind::Punct => {
                    // Two-character operators are two adjacent punctuators.
                    let two = toks
                        .get(k + 1)
                        .filter(|u| u.kind == Kind::Punct && u.text.start == t.text.end);
                    if let Some(u) = two {
                        let pair = format!("{text}{}", self.text(u.text));
                        if let Some(op) = TWO_CHAR_OPS.iter().find(|o| **o == pair) {
                            items.push(Item::Op(op, Span::new(t.span.start, u.span.end)));
                            k += 2;
                            continue;
                        }
                    }
                    match ONE_CHAR_OPS.iter().find(|o| **o == text) {
                        Some(op) => items.push(Item::Op(op, t.span)),
                        None => items.push(Item::Err(
                            t.span,
                            format!("`{text}` cannot be used in an `#if` expression"),
                        )),
                    }
                }
                _ => items.push(Item::Err(
                    t.span,
                    "only integers can be used in an `#if` expression".to_string(),
                )),
            }
            k += 1;
        }
    }
}

const TWO_CHAR_OPS: [&str; 8] = ["&&", "||", "==", "!=", "<=", ">=", "<<", ">>"];
const ONE_CHAR_OPS: [&str; 16] = [
    "(", ")", "!", "~", "-", "+", "*", "/", "%", "<", ">", "&", "^", "|", "?", ":",
];

#[derive(Debug)]
enum Item {
    Num(i128),
    Op(&'static str, Span),
    Err(Span, String),
}

/// An integer literal of an `#if` expression (suffixes `u`, `l` allowed).
fn pp_number(text: &str) -> Option<i128> {
    let body = text
        .trim_end_matches(['u', 'U', 'l', 'L'])
        .replace('\'', "");
    let (digits, radix) = if let Some(h) = body.strip_prefix("0x").or(body.strip_prefix("0X")) {
        (h.to_string(), 16)
    } else if let Some(b) = body.strip_prefix("0b").or(body.strip_prefix("0B")) {
        (b.to_string(), 2)
    } else if body.len() > 1 && body.starts_with('0') {
        (body[1..].to_string(), 8)
    } else {
        (body, 10)
    };
    if digits.is_empty() || digits.len() > 40 {
        return None;
    }
    u64::from_str_radix(&digits, radix).ok().map(i128::from)
}

/// Precedence climbing over `#if` items; errors are `(span, message)`, `None` at the end.
struct Eval<'i> {
    items: &'i [Item],
    pos: usize,
}

type EvalResult = Result<i128, Option<(Span, &'static str)>>;

impl Eval<'_> {
    fn op(&self) -> Option<(&'static str, Span)> {
        match self.items.get(self.pos) {
            Some(Item::Op(o, s)) => Some((o, *s)),
            _ => None,
        }
    }

    fn ternary(&mut self, depth: usize) -> EvalResult {
        let c = self.binary(0, depth)?;
        if let Some(("?", _)) = self.op() {
            self.pos += 1;
            let a = self.ternary(depth + 1)?;
            match self.op() {
                Some((":", _)) => {}
                Some((_, s)) => return Err(Some((s, "expected `:`"))),
                None => return Err(None),
            }
            self.pos += 1;
            let b = self.ternary(depth + 1)?;
            return Ok(if c != 0 { a } else { b });
        }
        Ok(c)
    }

    fn binary(&mut self, level: usize, depth: usize) -> EvalResult {
        const LEVELS: [&[&str]; 10] = [
            &["||"],
            &["&&"],
            &["|"],
            &["^"],
            &["&"],
            &["==", "!="],
            &["<", ">", "<=", ">="],
            &["<<", ">>"],
            &["+", "-"],
            &["*", "/", "%"],
        ];
        if level == LEVELS.len() {
            return self.unary(depth);
        }
        let mut acc = self.binary(level + 1, depth)?;
        while let Some((op, span)) = self.op().filter(|(o, _)| LEVELS[level].contains(o)) {
            self.pos += 1;
            let b = self.binary(level + 1, depth)?;
            let wrap = |v: i128| v as i64 as i128;
            acc = match op {
                "||" => ((acc != 0) || (b != 0)) as i128,
                "&&" => ((acc != 0) && (b != 0)) as i128,
                "|" => acc | b,
                "^" => acc ^ b,
                "&" => acc & b,
                "==" => (acc == b) as i128,
                "!=" => (acc != b) as i128,
                "<" => (acc < b) as i128,
                ">" => (acc > b) as i128,
                "<=" => (acc <= b) as i128,
                ">=" => (acc >= b) as i128,
                "<<" => wrap(acc.checked_shl((b & 63) as u32).unwrap_or(0)),
                ">>" => acc >> (b & 63),
                "+" => wrap(acc.wrapping_add(b)),
                "-" => wrap(acc.wrapping_sub(b)),
                "*" => wrap(acc.wrapping_mul(b)),
                _ if b == 0 => return Err(Some((span, "division by zero in `#if`"))),
                "/" => wrap(acc.wrapping_div(b)),
                _ => wrap(acc.wrapping_rem(b)),
            };
        }
        Ok(acc)
    }

    fn unary(&mut self, depth: usize) -> EvalResult {
        if depth > 64 {
            return Err(Some((
                Span::default(),
                "`#if` expression nested too deeply",
            )));
        }
        match self.items.get(self.pos) {
            None => Err(None),
            Some(Item::Num(v)) => {
                self.pos += 1;
                Ok(*v)
            }
            Some(Item::Err(s, _)) => Err(Some((*s, "malformed `#if` expression"))),
            Some(Item::Op(o, s)) => {
                let (o, s) = (*o, *s);
                self.pos += 1;
                match o {
                    "!" => Ok((self.unary(depth + 1)? == 0) as i128),
                    "~" => Ok(!self.unary(depth + 1)?),
                    "-" => Ok(-self.unary(depth + 1)?),
                    "+" => self.unary(depth + 1),
                    "(" => {
                        let v = self.ternary(depth + 1)?;
                        match self.op() {
                            Some((")", _)) => {
                                self.pos += 1;
                                Ok(v)
                            }
                            Some((_, s)) => Err(Some((s, "expected `)`"))),
                            None => Err(None),
                        }
                    }
                    _ => Err(Some((s, "expected a value"))),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(src: &str) -> Vec<String> {
        let mut t = Tokens::new(src, Dialect::C);
        let mut out = Vec::new();
        loop {
            let k = t.next();
            match k.kind {
                Kind::Eof => return out,
                Kind::Error(e) => out.push(format!("error: {}", t.errors[e as usize].message)),
                _ => out.push(src[k.text.range()].to_string()),
            }
        }
    }

    #[test]
    fn conditionals_and_guards() {
        let src = "#ifndef LAYOUT_H\n#define LAYOUT_H\n#if 0\nskipped\n#elif defined(LAYOUT_H) && (1 << 3) == 8\nkept\n#else\nnot\n#endif\n#ifdef _WIN32\nwin\n#endif\n#if UNKNOWN_NAME\nno\n#endif\n#endif\n";
        assert_eq!(texts(src), ["kept", "win"]);
        assert_eq!(
            texts("#if 1\nx\n"),
            ["x", "error: this conditional has no matching `#endif`"]
        );
        assert_eq!(texts("#endif\ny"), ["error: `#endif` without `#if`", "y"]);
        assert_eq!(
            texts("#if 1 +\nz\n#endif"),
            ["error: incomplete `#if` expression; inlay treats this conditional as false"]
        );
        assert_eq!(texts("#if 0\n#if 1\nq\n#endif\n#else\nr\n#endif"), ["r"]);
    }

    #[test]
    fn macros_expand_with_rescanning() {
        let src = "#define F3 DXGI_FORMAT_R32G32B32_FLOAT\n#define VTX(n, f, o) { n, 0, f, 0, o }\n#define LOOP LOOP\n#define V(...) [__VA_ARGS__]\nVTX(\"P\", F3, (4 * 3)) LOOP V(a, b) VTX NOT";
        assert_eq!(
            texts(src).join(" "),
            "{ \"P\" , 0 , DXGI_FORMAT_R32G32B32_FLOAT , 0 , ( 4 * 3 ) } LOOP [ a , b ] VTX NOT"
        );
        assert_eq!(
            texts("#define M(a, b) a b\nM(1)"),
            ["error: macro `M` takes 2 arguments, given 1"]
        );
        assert_eq!(
            texts("#define S(x) #x\nS(a)"),
            [
                "error: macro `S` uses the `#` or `##` operator, which inlay does not expand; write the element out"
            ]
        );
        assert_eq!(texts("#define A 1\n#undef A\nA"), ["A"]);
    }

    #[test]
    fn expansion_is_bounded() {
        // Each level doubles: 2^40 tokens unless the budget stops it.
        let mut src = String::from("#define M0 x\n");
        for i in 1..=40 {
            src.push_str(&format!("#define M{i} M{} M{}\n", i - 1, i - 1));
        }
        src.push_str("M40");
        let out = texts(&src);
        assert!(out.len() <= (1 << 21), "{}", out.len());
        assert!(
            out.iter()
                .any(|t| t.starts_with("error: macro expansion larger"))
        );
        // Spans of expanded tokens point at the invocation.
        let src = "#define E { 1 }\nE";
        let mut t = Tokens::new(src, Dialect::C);
        let open = t.next();
        assert_eq!(
            (open.span, &src[open.text.range()]),
            (Span::new(16, 17), "{")
        );
    }
}
