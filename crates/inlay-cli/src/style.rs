//! Terminal colours: on only when the stream is a terminal and `NO_COLOR` is unset or empty
//! (<https://no-color.org>).

use std::io::IsTerminal;

/// Whether colours are wanted on a stream that is (or is not) a terminal.
pub fn colours_wanted(is_terminal: bool) -> bool {
    is_terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// Colours for standard output.
pub fn stdout() -> Style {
    Style {
        enabled: colours_wanted(std::io::stdout().is_terminal()),
    }
}

/// Colours for standard error.
pub fn stderr() -> Style {
    Style {
        enabled: colours_wanted(std::io::stderr().is_terminal()),
    }
}

/// ANSI styling that is a no-op when disabled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    /// Whether escape sequences are written.
    pub enabled: bool,
}

impl Style {
    /// No colours.
    #[cfg_attr(not(test), allow(dead_code))]
    pub const PLAIN: Style = Style { enabled: false };

    /// `text` wrapped in the SGR sequence `code` (e.g. `"1;31"`).
    pub fn paint(&self, code: &str, text: &str) -> String {
        if self.enabled {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    /// Bold red.
    pub fn error(&self, text: &str) -> String {
        self.paint("1;31", text)
    }

    /// Bold yellow.
    pub fn warning(&self, text: &str) -> String {
        self.paint("1;33", text)
    }

    /// Bold green.
    pub fn ok(&self, text: &str) -> String {
        self.paint("1;32", text)
    }

    /// Bold blue (gutters, arrows).
    pub fn accent(&self, text: &str) -> String {
        self.paint("1;34", text)
    }

    /// Bold.
    pub fn bold(&self, text: &str) -> String {
        self.paint("1", text)
    }

    /// Dim.
    pub fn dim(&self, text: &str) -> String {
        self.paint("2", text)
    }
}
