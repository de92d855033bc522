//! Terminal colours: `--color auto|always|never` (default `auto`). With `auto`, colours are on
//! only when the stream is a terminal, `NO_COLOR` is unset or empty (<https://no-color.org>)
//! and `TERM` is not `dumb`; `CLICOLOR_FORCE` set to anything but `0` turns them on for pipes
//! too (<https://bixense.com/clicolors/>), unless `NO_COLOR` is set, which wins. `always` and
//! `never` override every variable.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicU8, Ordering};

/// `--color`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ColorChoice {
    /// Colours on a terminal, following NO_COLOR, CLICOLOR_FORCE and TERM=dumb
    #[default]
    Auto,
    /// Always colour, even into a pipe or file
    Always,
    /// Never colour
    Never,
}

static CHOICE: AtomicU8 = AtomicU8::new(0);

/// Sets the `--color` choice for the rest of the run.
pub fn set_choice(c: ColorChoice) {
    CHOICE.store(c as u8, Ordering::Relaxed);
}

fn choice() -> ColorChoice {
    match CHOICE.load(Ordering::Relaxed) {
        1 => ColorChoice::Always,
        2 => ColorChoice::Never,
        _ => ColorChoice::Auto,
    }
}

/// Whether colours are wanted on a stream that is (or is not) a terminal, under `choice` and
/// the environment read through `var`.
pub fn decide(
    choice: ColorChoice,
    is_terminal: bool,
    var: impl Fn(&str) -> Option<std::ffi::OsString>,
) -> bool {
    let set = |name: &str| var(name).is_some_and(|v| !v.is_empty());
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            if set("NO_COLOR") {
                false
            } else if var("CLICOLOR_FORCE").is_some_and(|v| !v.is_empty() && v != "0") {
                true
            } else if var("TERM").is_some_and(|t| t == "dumb") {
                false
            } else {
                is_terminal
            }
        }
    }
}

/// Whether colours are wanted on a stream that is (or is not) a terminal.
pub fn colours_wanted(is_terminal: bool) -> bool {
    decide(choice(), is_terminal, |n| std::env::var_os(n))
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsString;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<OsString> + 'a {
        move |n| vars.iter().find(|(k, _)| *k == n).map(|(_, v)| v.into())
    }

    #[test]
    fn colour_decisions() {
        use ColorChoice::*;
        // (choice, terminal, environment) → colours.
        type Case<'a> = (ColorChoice, bool, &'a [(&'a str, &'a str)], bool);
        let cases: &[Case] = &[
            (Auto, true, &[], true),
            (Auto, false, &[], false),
            (Auto, true, &[("NO_COLOR", "1")], false),
            (Auto, true, &[("NO_COLOR", "")], true),
            (Auto, false, &[("CLICOLOR_FORCE", "1")], true),
            (Auto, false, &[("CLICOLOR_FORCE", "0")], false),
            (
                Auto,
                false,
                &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")],
                false,
            ),
            (Auto, true, &[("TERM", "dumb")], false),
            (
                Auto,
                false,
                &[("TERM", "dumb"), ("CLICOLOR_FORCE", "1")],
                true,
            ),
            (Always, false, &[("NO_COLOR", "1"), ("TERM", "dumb")], true),
            (Never, true, &[("CLICOLOR_FORCE", "1")], false),
        ];
        for &(c, tty, vars, want) in cases {
            assert_eq!(decide(c, tty, env(vars)), want, "{c:?} {tty} {vars:?}");
        }
    }
}
