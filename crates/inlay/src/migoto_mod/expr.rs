//! 3DMigoto's command-list expressions (`CommandList.cpp`: `tokenise`, `group_parenthesis`,
//! the operator tables, `CommandListOperand::parse`), evaluated offline.
//!
//! Expressions are lower-cased before parsing, as 3DMigoto does. Tokens: the operators
//! `=== !== == != // <= >= && || ** ( ) ! * / % + - < >`; resource-slot names (`ps-t0`, `vb1`,
//! `ib`, `o0`, …, used for texture filtering); identifiers (`$var`, `$\namespace\var`, keywords
//! such as `time` or `draw_type`, ini parameters `x`, `y2`, …, shader filters `vs`, `ps`, …);
//! numbers as C's `%f` reads them. Precedence, tightest first: unary `! - +` (right to left),
//! `**` (right-associative), `* / // %`, `+ -`, `< <= > >=`, `== != === !==`, `&&`, `||`.
//! Values are 32-bit floats; comparisons give 1 or 0.
//!
//! Offline, only numbers and variables have values: every run-time operand (keywords, ini
//! parameters, texture and shader filters) evaluates to [`Val::Unknown`], and so does an
//! operator with an unknown operand, except `&&` with a known false side and `||` with a
//! known true side.

use std::fmt;

/// Deepest expression parsed: nested parentheses and unary operators, and the height of the
/// operator tree (`1+1+…+1` with N terms nests N-1 operators). It bounds every recursion over
/// an [`Expr`] — parsing, evaluation, cloning, comparison, printing and `Drop` — whatever the
/// input; a deeper expression is a [`SyntaxError`] ("nested deeper than 200").
pub const MAX_DEPTH: usize = 200;

/// An expression's value offline.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Val {
    /// A value 3DMigoto would compute the same way.
    Known(f32),
    /// A value only the running game knows (named in [`Expr::runtime`]).
    Unknown,
}

impl Val {
    /// Whether the value is a known non-zero value (`Some(true)`), known zero (`Some(false)`),
    /// or unknown.
    pub fn truth(self) -> Option<bool> {
        match self {
            Val::Known(v) => Some(v != 0.0),
            Val::Unknown => None,
        }
    }
}

/// An operand.
#[derive(Clone, Debug, PartialEq)]
pub enum Operand {
    /// A number.
    Number(f32),
    /// A variable, by the name as written (lower case).
    Var(String),
    /// Something only the game knows at run time: a keyword, ini parameter, texture or shader
    /// filter.
    Runtime(String),
}

/// A parsed expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// An operand.
    Operand(Operand),
    /// A unary operator (`!`, `-`, `+`) and its operand.
    Unary(&'static str, Box<Expr>),
    /// A binary operator and its operands.
    Binary(&'static str, Box<Expr>, Box<Expr>),
}

/// Why an expression did not parse: the message and the character position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// What is wrong.
    pub message: String,
    /// 0-based character offset in the expression.
    pub pos: usize,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at character {}", self.message, self.pos + 1)
    }
}

const OPERATORS: &[&str] = &[
    "===", "!==", "==", "!=", "//", "<=", ">=", "&&", "||", "**", "(", ")", "!", "*", "/", "%",
    "+", "-", "<", ">",
];

/// The keywords `ParamOverrideTypeNames` lists.
const KEYWORDS: &[&str] = &[
    "rt_width",
    "rt_height",
    "res_width",
    "res_height",
    "window_width",
    "window_height",
    "vertex_count",
    "index_count",
    "instance_count",
    "first_vertex",
    "first_index",
    "first_instance",
    "thread_group_count_x",
    "thread_group_count_y",
    "thread_group_count_z",
    "indirect_offset",
    "draw_type",
    "cursor_showing",
    "cursor_screen_x",
    "cursor_screen_y",
    "cursor_window_x",
    "cursor_window_y",
    "cursor_x",
    "cursor_y",
    "cursor_hotspot_x",
    "cursor_hotspot_y",
    "time",
    "scissor_left",
    "scissor_top",
    "scissor_right",
    "scissor_bottom",
    "separation",
    "raw_separation",
    "eye_separation",
    "convergence",
    "stereo_active",
    "stereo_available",
    "sli",
    "hunting",
    "frame_analysis",
    "effective_dpi",
];

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Op(&'static str, usize),
    Operand(Operand, usize),
}

/// Whether `t` names a resource slot (`ResourceCopyTarget::ParseTarget` with `is_source`), for
/// texture filtering. `resource…` names are custom resources.
pub fn is_slot_name(t: &str) -> bool {
    let num = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && s.len() < 4;
    let stage = |s: &str| {
        s.len() > 3
            && matches!(
                s.get(..3),
                Some("vs-" | "hs-" | "ds-" | "gs-" | "ps-" | "cs-")
            )
    };
    if stage(t) {
        let r = &t[3..];
        return r
            .strip_prefix("cb")
            .or_else(|| r.strip_prefix('t'))
            .or_else(|| r.strip_prefix('u'))
            .is_some_and(num);
    }
    if let Some(n) = t.strip_prefix("vb").or_else(|| t.strip_prefix("so")) {
        return num(n);
    }
    if let Some(n) = t.strip_prefix('o') {
        return num(n) || n == "d";
    }
    matches!(
        t,
        "ib" | "null"
            | "this"
            | "stereoparams"
            | "iniparams"
            | "cursor_mask"
            | "cursor_color"
            | "bb"
            | "r_bb"
            | "f_bb"
    ) || (t.len() >= 9 && t.starts_with("resource"))
}

/// Whether `t` is an ini parameter name (`x`, `y`, `z`, `w`, optionally followed by a number).
pub fn is_ini_param(t: &str) -> bool {
    let mut c = t.chars();
    matches!(c.next(), Some('x' | 'y' | 'z' | 'w'))
        && c.as_str().bytes().all(|b| b.is_ascii_digit())
        && c.as_str().len() < 6
}

fn runtime_operand(t: &str) -> bool {
    if KEYWORDS.contains(&t) || is_ini_param(t) || is_slot_name(t) {
        return true;
    }
    // Shader filters: `vs`, `ps`, … (partner filtering).
    if matches!(t, "vs" | "hs" | "ds" | "gs" | "ps" | "cs") {
        return true;
    }
    // scissorN_side
    if let Some(r) = t.strip_prefix("scissor") {
        let digits: String = r.chars().take_while(char::is_ascii_digit).collect();
        if !digits.is_empty()
            && let Some(side) = r[digits.len()..].strip_prefix('_')
        {
            return matches!(side, "left" | "top" | "right" | "bottom");
        }
    }
    false
}

/// The length of the number at the start of `s` as C's `%f` reads it (sign excluded: the
/// tokeniser has taken `-` as an operator), and its value.
fn number(s: &str) -> Option<(usize, f32)> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let int = i;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
    }
    if int == 0 && i <= 1 {
        return None;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        let mut j = i + 1;
        if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
            j += 1;
        }
        let digits = j;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        if j > digits {
            i = j;
        }
    }
    let v: f32 = s[..i].parse().ok()?;
    Some((i, v))
}

/// Most tokens in one expression: bounds what one line can make the parser allocate (a real
/// mod's longest expressions have a few dozen tokens; a million is about 40 MB).
pub const MAX_TOKENS: usize = 1 << 20;

fn tokenise(expr: &str) -> Result<Vec<Tok>, SyntaxError> {
    let mut toks = Vec::new();
    let mut pos = 0;
    let mut last_operand = false;
    let err = |m: &str, p: usize| SyntaxError {
        message: m.to_string(),
        pos: p,
    };
    'next: while pos < expr.len() {
        if toks.len() >= MAX_TOKENS {
            return Err(err(&format!("longer than {MAX_TOKENS} tokens"), pos));
        }
        let rest = &expr[pos..];
        let ws = rest.len() - rest.trim_start_matches([' ', '\t']).len();
        if ws > 0 {
            pos += ws;
            continue;
        }
        for op in OPERATORS {
            if rest.starts_with(op) {
                toks.push(Tok::Op(op, pos));
                pos += op.len();
                last_operand = false;
                continue 'next;
            }
        }
        let push = |toks: &mut Vec<Tok>, o: Operand, last: &mut bool| {
            if *last {
                return Err(err("unexpected identifier", pos));
            }
            toks.push(Tok::Operand(o, pos));
            *last = true;
            Ok(())
        };
        // Resource slots (texture filtering), which may contain `-`.
        let slot_len = rest
            .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-'))
            .unwrap_or(rest.len());
        if slot_len > 0 && is_slot_name(&rest[..slot_len]) && rest[..slot_len].contains('-') {
            push(
                &mut toks,
                Operand::Runtime(rest[..slot_len].to_string()),
                &mut last_operand,
            )?;
            pos += slot_len;
            continue;
        }
        // Identifiers (not starting with a digit).
        if !rest.starts_with(|c: char| c.is_ascii_digit()) {
            let n = rest
                .find(|c: char| {
                    !(c.is_ascii_lowercase()
                        || c.is_ascii_digit()
                        || matches!(c, '_' | '$' | '\\' | '.'))
                })
                .unwrap_or(rest.len());
            if n > 0 {
                let t = &rest[..n];
                let operand = if t.starts_with('$') {
                    Operand::Var(t.to_string())
                } else if t == "inf" {
                    Operand::Number(f32::INFINITY)
                } else if t == "nan" {
                    Operand::Number(f32::NAN)
                } else if runtime_operand(t) {
                    Operand::Runtime(t.to_string())
                } else {
                    return Err(err(&format!("unrecognised identifier `{t}`"), pos));
                };
                push(&mut toks, operand, &mut last_operand)?;
                pos += n;
                continue;
            }
        }
        if let Some((n, v)) = number(rest) {
            push(&mut toks, Operand::Number(v), &mut last_operand)?;
            pos += n;
            continue;
        }
        return Err(err("parse error", pos));
    }
    Ok(toks)
}

fn level(op: &str) -> Option<(u8, bool)> {
    // (precedence, right-associative); higher binds tighter.
    Some(match op {
        "**" => (7, true),
        "*" | "/" | "//" | "%" => (6, false),
        "+" | "-" => (5, false),
        "<" | "<=" | ">" | ">=" => (4, false),
        "==" | "!=" | "===" | "!==" => (3, false),
        "&&" => (2, false),
        "||" => (1, false),
        _ => return None,
    })
}

struct Parser {
    toks: Vec<Tok>,
    at: usize,
    end: usize,
}

impl Parser {
    fn pos(&self) -> usize {
        match self.toks.get(self.at) {
            Some(Tok::Op(_, p)) | Some(Tok::Operand(_, p)) => *p,
            None => self.end,
        }
    }

    /// The error for an expression nested too deep, at the operator that nests it.
    fn too_deep(pos: usize) -> SyntaxError {
        SyntaxError {
            message: format!("nested deeper than {MAX_DEPTH}"),
            pos,
        }
    }

    /// An operand, a parenthesised expression or a unary operator and its operand, with the
    /// height of its tree; `depth` counts the parser's own recursion.
    fn primary(&mut self, depth: usize) -> Result<(Expr, usize), SyntaxError> {
        let pos = self.pos();
        if depth > MAX_DEPTH {
            return Err(Parser::too_deep(pos));
        }
        match self.toks.get(self.at).cloned() {
            Some(Tok::Operand(o, _)) => {
                self.at += 1;
                Ok((Expr::Operand(o), 1))
            }
            Some(Tok::Op("(", _)) => {
                self.at += 1;
                let e = self.binary(0, depth + 1)?;
                match self.toks.get(self.at) {
                    Some(Tok::Op(")", _)) => {
                        self.at += 1;
                        Ok(e)
                    }
                    _ => Err(SyntaxError {
                        message: "unmatched (".into(),
                        pos,
                    }),
                }
            }
            Some(Tok::Op(op @ ("!" | "-" | "+"), _)) => {
                self.at += 1;
                let (e, h) = self.primary(depth + 1)?;
                if h + 1 > MAX_DEPTH {
                    return Err(Parser::too_deep(pos));
                }
                Ok((Expr::Unary(op, Box::new(e)), h + 1))
            }
            Some(Tok::Op(")", _)) => Err(SyntaxError {
                message: "unmatched )".into(),
                pos,
            }),
            Some(Tok::Op(op, _)) => Err(SyntaxError {
                message: format!("operator `{op}` without a left operand"),
                pos,
            }),
            None => Err(SyntaxError {
                message: "missing operand".into(),
                pos,
            }),
        }
    }

    /// Operators binding at least as tightly as `min`, with the height of the tree built: a
    /// left-associative chain grows the tree by one per operator without recursing, so the
    /// height is checked here, not only the recursion.
    fn binary(&mut self, min: u8, depth: usize) -> Result<(Expr, usize), SyntaxError> {
        let (mut lhs, mut height) = self.primary(depth)?;
        while let Some(Tok::Op(op, _)) = self.toks.get(self.at).cloned() {
            let Some((prec, right)) = level(op) else {
                break;
            };
            if prec < min {
                break;
            }
            let op_pos = self.pos();
            self.at += 1;
            let (rhs, rh) = self.binary(if right { prec } else { prec + 1 }, depth + 1)?;
            height = height.max(rh) + 1;
            if height > MAX_DEPTH {
                return Err(Parser::too_deep(op_pos));
            }
            lhs = Expr::Binary(op, Box::new(lhs), Box::new(rhs));
        }
        Ok((lhs, height))
    }
}

impl Expr {
    /// Parses an expression (already lower-cased, as 3DMigoto lower-cases command lists).
    pub fn parse(text: &str) -> Result<Expr, SyntaxError> {
        let toks = tokenise(text)?;
        if toks.is_empty() {
            return Err(SyntaxError {
                message: "empty expression".into(),
                pos: 0,
            });
        }
        let mut p = Parser {
            toks,
            at: 0,
            end: text.len(),
        };
        let (e, _) = p.binary(0, 0)?;
        if p.at < p.toks.len() {
            let pos = p.pos();
            return Err(SyntaxError {
                message: match &p.toks[p.at] {
                    Tok::Op(")", _) => "unmatched )".to_string(),
                    Tok::Op(o, _) => format!("unexpected `{o}`"),
                    Tok::Operand(..) => "unexpected identifier".to_string(),
                },
                pos,
            });
        }
        Ok(e)
    }

    /// The variables the expression reads, in order of appearance.
    pub fn variables(&self) -> Vec<&str> {
        let mut out = Vec::new();
        self.walk(&mut |o| {
            if let Operand::Var(v) = o {
                out.push(v.as_str());
            }
        });
        out
    }

    /// The run-time operands the expression reads.
    pub fn runtime(&self) -> Vec<&str> {
        let mut out = Vec::new();
        self.walk(&mut |o| {
            if let Operand::Runtime(v) = o {
                out.push(v.as_str());
            }
        });
        out
    }

    fn walk<'a>(&'a self, f: &mut dyn FnMut(&'a Operand)) {
        match self {
            Expr::Operand(o) => f(o),
            Expr::Unary(_, e) => e.walk(f),
            Expr::Binary(_, a, b) => {
                a.walk(f);
                b.walk(f);
            }
        }
    }

    /// Evaluates with `var` giving each variable's value (`None`: not known offline).
    pub fn eval(&self, var: &dyn Fn(&str) -> Option<f32>) -> Val {
        match self {
            Expr::Operand(Operand::Number(n)) => Val::Known(*n),
            Expr::Operand(Operand::Var(v)) => var(v).map_or(Val::Unknown, Val::Known),
            Expr::Operand(Operand::Runtime(_)) => Val::Unknown,
            Expr::Unary(op, e) => match e.eval(var) {
                Val::Known(x) => Val::Known(match *op {
                    "!" => b(x == 0.0),
                    "-" => -x,
                    _ => x,
                }),
                Val::Unknown => Val::Unknown,
            },
            Expr::Binary(op, a, bb) => {
                let (x, y) = (a.eval(var), bb.eval(var));
                match (*op, x, y) {
                    ("&&", Val::Known(p), _) | ("&&", _, Val::Known(p)) if p == 0.0 => {
                        Val::Known(0.0)
                    }
                    ("||", Val::Known(p), _) | ("||", _, Val::Known(p)) if p != 0.0 => {
                        Val::Known(1.0)
                    }
                    (_, Val::Known(p), Val::Known(q)) => Val::Known(apply(op, p, q)),
                    _ => Val::Unknown,
                }
            }
        }
    }
}

fn b(v: bool) -> f32 {
    if v { 1.0 } else { 0.0 }
}

fn apply(op: &str, p: f32, q: f32) -> f32 {
    match op {
        "**" => p.powf(q),
        "*" => p * q,
        "/" => p / q,
        "//" => (p / q).floor(),
        "%" => p % q,
        "+" => p + q,
        "-" => p - q,
        "<" => b(p < q),
        "<=" => b(p <= q),
        ">" => b(p > q),
        ">=" => b(p >= q),
        "==" => b(p == q),
        "!=" => b(p != q),
        "===" => b(p.to_bits() == q.to_bits()),
        "!==" => b(p.to_bits() != q.to_bits()),
        "&&" => b(p != 0.0 && q != 0.0),
        _ => b(p != 0.0 || q != 0.0),
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expr::Operand(Operand::Number(n)) => write!(f, "{n}"),
            Expr::Operand(Operand::Var(v) | Operand::Runtime(v)) => f.write_str(v),
            Expr::Unary(op, e) => write!(f, "{op}{e}"),
            Expr::Binary(op, a, c) => write!(f, "({a} {op} {c})"),
        }
    }
}

/// Reads a number as 3DMigoto's `%f` reads a whole value (`1`, `-0.5`, `1e3`), for
/// initialisers and key values.
pub fn parse_number(s: &str) -> Option<f32> {
    let t = s.trim();
    let (neg, body) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let (n, v) = number(body)?;
    (n == body.len()).then_some(if neg { -v } else { v })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A name whose third byte is inside a character is no slot name, and no panic (found by
    /// the mod_ini fuzz target on the 16-core host).
    #[test]
    fn slot_names_cut_inside_a_character() {
        assert!(!is_slot_name("ab\u{e9}-t0"));
        assert!(!is_slot_name("\u{fffd}\u{fffd} x"));
        assert!(is_slot_name("ps-t0"));
    }

    fn ev(s: &str) -> Val {
        Expr::parse(s).expect(s).eval(&|v| match v {
            "$a" => Some(2.0),
            "$b" => Some(0.0),
            _ => None,
        })
    }

    #[test]
    fn precedence_as_3dmigoto() {
        assert_eq!(ev("1 + 2 * 3"), Val::Known(7.0));
        assert_eq!(ev("-2 ** 2"), Val::Known(4.0)); // unary binds tighter than **
        assert_eq!(ev("2 ** 3 ** 2"), Val::Known(512.0)); // right-associative
        assert_eq!(ev("7 // 2"), Val::Known(3.0));
        assert_eq!(ev("7 % 4"), Val::Known(3.0));
        assert_eq!(ev("1 < 2 == 1"), Val::Known(1.0));
        assert_eq!(ev("$a == 2 && ($b != 0 || 1)"), Val::Known(1.0));
        assert_eq!(ev("!$b"), Val::Known(1.0));
        assert_eq!(ev("-0.0 === 0"), Val::Known(0.0));
        assert_eq!(ev("$a >= 2.5e0"), Val::Known(0.0));
    }

    #[test]
    fn runtime_operands_are_unknown() {
        assert_eq!(ev("draw_type == 1"), Val::Unknown);
        assert_eq!(ev("$b && draw_type == 1"), Val::Known(0.0));
        assert_eq!(ev("1 || time > 3"), Val::Known(1.0));
        assert_eq!(ev("ps-t0 == 1 && $a"), Val::Unknown);
        assert_eq!(ev("$undeclared"), Val::Unknown);
        let e = Expr::parse("cs == 3381.1111 || x2 > $\\ns\\v").unwrap();
        assert_eq!(e.runtime(), vec!["cs", "x2"]);
        assert_eq!(e.variables(), vec!["$\\ns\\v"]);
    }

    #[test]
    fn syntax_errors() {
        for (s, pos) in [
            ("(1", 0),
            ("1)", 1),
            ("1 2", 2),
            ("foo", 0),
            ("", 0),
            ("1 +", 3),
        ] {
            let e = Expr::parse(s).unwrap_err();
            assert_eq!(e.pos, pos, "{s}: {e}");
        }
        let deep = "(".repeat(1000) + "1" + &")".repeat(1000);
        assert!(Expr::parse(&deep).is_err());
        let deep = "-".repeat(1000) + "1";
        assert!(Expr::parse(&deep).is_err());
    }

    /// A left-associative chain nests one operator per term without recursing in the parser:
    /// its tree's height is bounded too, so that evaluation, clone, comparison and drop (all
    /// recursive) stay within the stack (3DMigoto's own evaluator, `CommandListOperator`,
    /// recurses the same way and has no bound).
    #[test]
    fn long_chains_are_bounded() {
        let chain = |n: usize, op: &str| vec!["1"; n].join(op);
        // 199 operators: height 200, the most accepted.
        let e = Expr::parse(&chain(200, "+")).unwrap();
        assert_eq!(e.eval(&|_| None), Val::Known(200.0));
        assert_eq!(e.clone(), e);
        for (text, pos) in [
            (chain(201, "+"), 399),
            (chain(100_000, "+"), 399),
            (chain(100_000, "&&"), 598),
            (chain(100_000, " ** "), 1005),
            (format!("{}1", "-(".repeat(150)) + &")".repeat(150), 201),
        ] {
            let err = Expr::parse(&text).unwrap_err();
            assert_eq!(err.message, "nested deeper than 200", "{}", &text[..20]);
            assert_eq!(err.pos, pos, "{}", &text[..20]);
        }
        let many = "1+".repeat(MAX_TOKENS) + "1";
        let err = Expr::parse(&many).unwrap_err();
        assert_eq!(err.message, format!("longer than {MAX_TOKENS} tokens"));
    }

    #[test]
    fn numbers() {
        assert_eq!(parse_number("-1.5"), Some(-1.5));
        assert_eq!(parse_number(" 3 "), Some(3.0));
        assert_eq!(parse_number("1e2"), Some(100.0));
        assert_eq!(parse_number("1x"), None);
        assert_eq!(parse_number(""), None);
    }
}
