//! The tokenizer shared by the C/C++, C# and Rust layout readers.
//!
//! Tokens are spans of the source; nothing is copied. Two spans per token: `text` is where its
//! characters are, `span` is where a message about it points. They differ only for tokens a
//! macro expansion produced (their text is in the `#define`, their place is the invocation).

use super::Span;

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Ident,
    /// A preprocessing number (`12`, `0x1Fu`, `1.5f`, `0_u32`).
    Number,
    /// A string literal (with its prefix, `L"…"`, `u8"…"`, `b"…"`); `terminated` is false when
    /// the line ended first.
    Str {
        terminated: bool,
    },
    /// A character literal.
    Char,
    /// Any other single character (or `::`).
    Punct,
    /// A whole preprocessor line, `#` to the end of the line (continuations included). Only
    /// produced in C mode.
    Directive,
    /// An error the preprocessor found here; the number indexes its error list.
    Error(u32),
    Eof,
}

/// One token.
#[derive(Clone, Copy, Debug)]
pub(super) struct Token {
    pub kind: Kind,
    /// Where messages about the token point.
    pub span: Span,
    /// Where its text is.
    pub text: Span,
}

impl Token {
    pub fn new(kind: Kind, span: Span) -> Token {
        Token {
            kind,
            span,
            text: span,
        }
    }
}

/// Which language's lexical details apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Dialect {
    /// C and C++: `#` lines are directives.
    C,
    /// C#: `#region`, `#if` lines are skipped.
    CSharp,
    /// Rust: `#[…]` attribute lines are skipped, `'a` is a lifetime, `b"…"` a byte string.
    Rust,
}

pub(super) struct Lexer<'a> {
    src: &'a [u8],
    pub pos: usize,
    /// Only whitespace (or comments) since the last line break: a `#` starts a directive.
    line_start: bool,
    dialect: Dialect,
    /// Inside a directive line: `#` is an ordinary punctuator.
    in_directive: bool,
}

impl<'a> Lexer<'a> {
    pub fn new(src: &'a str, dialect: Dialect) -> Self {
        Lexer {
            src: src.as_bytes(),
            pos: 0,
            line_start: true,
            dialect,
            in_directive: false,
        }
    }

    /// A lexer over `src[start..end]` of a directive line (after its `#`).
    pub fn directive(src: &'a str, start: usize, end: usize) -> Self {
        Lexer {
            src: &src.as_bytes()[..end.min(src.len())],
            pos: start.min(end),
            line_start: false,
            dialect: Dialect::C,
            in_directive: true,
        }
    }

    fn peek_byte(&self, ahead: usize) -> Option<u8> {
        self.src.get(self.pos + ahead).copied()
    }

    /// Skips whitespace and comments (and, outside C, preprocessor or attribute lines).
    /// Returns true when a C directive starts at the current position.
    fn skip_trivia(&mut self) -> bool {
        while let Some(b) = self.peek_byte(0) {
            match b {
                b'\n' => {
                    self.pos += 1;
                    self.line_start = true;
                }
                b' ' | b'\t' | b'\r' | 0x0b | 0x0c => self.pos += 1,
                b'/' if self.peek_byte(1) == Some(b'/') => self.skip_line(),
                b'/' if self.peek_byte(1) == Some(b'*') => {
                    let rest = &self.src[self.pos + 2..];
                    match rest.windows(2).position(|w| w == b"*/") {
                        Some(i) => {
                            if rest[..i].contains(&b'\n') {
                                self.line_start = true;
                            }
                            self.pos += 2 + i + 2;
                        }
                        None => self.pos = self.src.len(),
                    }
                }
                b'#' if self.line_start && !self.in_directive => {
                    if self.dialect == Dialect::C {
                        return true;
                    }
                    self.skip_line();
                }
                b'\\' if self.peek_byte(1) == Some(b'\n') => self.pos += 2,
                b'\\' if self.peek_byte(1) == Some(b'\r') && self.peek_byte(2) == Some(b'\n') => {
                    self.pos += 3
                }
                // A UTF-8 byte-order mark.
                0xef if self.src[self.pos..].starts_with(&[0xef, 0xbb, 0xbf]) => self.pos += 3,
                _ => return false,
            }
        }
        false
    }

    /// Skips to the end of the line, honouring backslash-newline continuations.
    fn skip_line(&mut self) {
        while let Some(b) = self.peek_byte(0) {
            if b == b'\n' {
                if self.pos > 0 && self.src[self.pos - 1] == b'\\'
                    || self.pos > 1
                        && self.src[self.pos - 1] == b'\r'
                        && self.src[self.pos - 2] == b'\\'
                {
                    self.pos += 1;
                    continue;
                }
                return;
            }
            self.pos += 1;
        }
    }

    pub fn next_token(&mut self) -> Token {
        let directive = self.skip_trivia();
        self.line_start = false;
        let start = self.pos;
        if directive {
            self.skip_line();
            return Token::new(Kind::Directive, Span::new(start, self.pos));
        }
        let Some(b) = self.peek_byte(0) else {
            return Token::new(Kind::Eof, Span::new(start, start));
        };
        let kind = if b.is_ascii_alphabetic() || b == b'_' {
            while self
                .peek_byte(0)
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_')
            {
                self.pos += 1;
            }
            // String prefixes (u8"", L"", u"", U"", Rust b"") belong to the literal.
            let prefix = &self.src[start..self.pos];
            if self.peek_byte(0) == Some(b'"')
                && (matches!(prefix, b"u8" | b"L" | b"u" | b"U")
                    || self.dialect == Dialect::Rust && prefix == b"b")
            {
                self.pos += 1;
                self.quoted(b'"')
            } else {
                Kind::Ident
            }
        } else if b.is_ascii_digit()
            || b == b'.' && self.peek_byte(1).is_some_and(|c| c.is_ascii_digit())
        {
            self.pos += 1;
            while let Some(c) = self.peek_byte(0) {
                if matches!(c, b'e' | b'E' | b'p' | b'P')
                    && matches!(self.peek_byte(1), Some(b'+' | b'-'))
                {
                    self.pos += 2;
                } else if c.is_ascii_alphanumeric()
                    || c == b'_'
                    || c == b'.'
                        && !(self.dialect == Dialect::Rust && self.peek_byte(1) == Some(b'.'))
                    || c == b'\''
                        && self.dialect == Dialect::C
                        && self.peek_byte(1).is_some_and(|d| d.is_ascii_hexdigit())
                {
                    // (C++14 digit separators `1'000`.)
                    self.pos += 1;
                } else {
                    break;
                }
            }
            Kind::Number
        } else if b == b'"' {
            self.pos += 1;
            self.quoted(b'"')
        } else if b == b'\'' {
            if self.dialect == Dialect::Rust && self.is_lifetime() {
                self.pos += 1;
                while self
                    .peek_byte(0)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_')
                {
                    self.pos += 1;
                }
                Kind::Ident
            } else {
                self.pos += 1;
                match self.quoted(b'\'') {
                    Kind::Str { .. } => Kind::Char,
                    k => k,
                }
            }
        } else if b == b':' && self.peek_byte(1) == Some(b':') {
            self.pos += 2;
            Kind::Punct
        } else {
            // One character (whole UTF-8 sequence, so spans stay on character boundaries).
            let len = match b {
                0xf0..=0xf7 => 4,
                0xe0..=0xef => 3,
                0xc0..=0xdf => 2,
                _ => 1,
            };
            self.pos = (self.pos + len).min(self.src.len());
            while self.pos < self.src.len() && (self.src[self.pos] & 0xc0) == 0x80 {
                self.pos += 1;
            }
            Kind::Punct
        };
        Token::new(kind, Span::new(start, self.pos))
    }

    /// `'a` or `'static` (not `'a'`): a Rust lifetime.
    fn is_lifetime(&self) -> bool {
        let Some(c) = self.peek_byte(1) else {
            return false;
        };
        if !(c.is_ascii_alphabetic() || c == b'_') {
            return false;
        }
        self.peek_byte(2) != Some(b'\'')
    }

    /// Reads the rest of a quoted literal; the opening quote is consumed.
    fn quoted(&mut self, quote: u8) -> Kind {
        while let Some(c) = self.peek_byte(0) {
            match c {
                b'\\' => self.pos = (self.pos + 2).min(self.src.len()),
                b'\n' => return Kind::Str { terminated: false },
                c if c == quote => {
                    self.pos += 1;
                    return Kind::Str { terminated: true };
                }
                _ => self.pos += 1,
            }
        }
        Kind::Str { terminated: false }
    }
}
