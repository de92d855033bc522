//! Wording helpers for diagnostics: how an element and a semantic are named in a message.

use std::fmt;

use crate::element::InputElementDesc;

/// Longest part of a semantic name quoted in a message; longer names are cut with `…`.
const NAME_QUOTE_LIMIT: usize = 64;

/// A semantic name made safe to print: control characters escaped, length bounded.
pub(crate) struct Name<'a>(pub &'a str);

impl fmt::Display for Name<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut chars = self.0.chars();
        for ch in chars.by_ref().take(NAME_QUOTE_LIMIT) {
            if ch.is_control() {
                write!(f, "{}", ch.escape_default())?;
            } else {
                write!(f, "{ch}")?;
            }
        }
        if chars.next().is_some() {
            f.write_str("…")?;
        }
        Ok(())
    }
}

/// A semantic as "COLOR1"; written as `"POSITION2" index 0` when the name is empty, ends in a
/// digit or holds control characters (printed escaped), where gluing the index on would be
/// ambiguous.
pub(crate) struct Semantic<'a>(pub &'a str, pub u32);

impl fmt::Display for Semantic<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Semantic(name, index) = *self;
        let ambiguous = name.is_empty()
            || name.ends_with(|c: char| c.is_ascii_digit())
            || name.chars().any(char::is_control);
        if ambiguous {
            write!(f, "\"{}\" index {index}", Name(name))
        } else {
            write!(f, "{}{index}", Name(name))
        }
    }
}

/// "element 3 (COLOR1)" or "element 3 (NULL SemanticName, index 1)".
pub(crate) struct Who<'a>(pub usize, pub &'a InputElementDesc);

impl fmt::Display for Who<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Who(i, e) = self;
        match e.name() {
            Some(n) => write!(f, "element {i} ({})", Semantic(n, e.semantic_index)),
            None => write!(
                f,
                "element {i} (NULL SemanticName, index {})",
                e.semantic_index
            ),
        }
    }
}
