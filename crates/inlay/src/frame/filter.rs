//! Which draws of a frame to take: one grammar for `inlay frame --hash/--vs/--ps/--draws/--has`,
//! `inlay export DIR --select FILTER` and Python's `load_frame(…, select=…)`.
//!
//! A filter is terms separated by commas or spaces: `hash=H` (any resource: a vertex buffer
//! of any slot, the index buffer, a constant buffer or texture dumped for the draw — or any
//! shader), `vs=H`, `hs=H`, `ds=H`, `gs=H`, `ps=H`, `cs=H`, `draws=A-B` (or `draws=N`, `A-`,
//! `-B`), `has=SEMANTIC` (`has=TEXCOORD1` for an index), `call=NAME` (`DrawIndexed`, …),
//! `problems` (draws whose files disagree with their log line), `dumped` (draws with a vertex
//! buffer dump). Terms of one key are alternatives; different keys must all hold. Hashes are
//! hexadecimal, any case. `all` (or nothing) selects every draw.

#![forbid(unsafe_code)]

use std::fmt;
use std::str::FromStr;

use super::Draw;

/// A parsed filter (see the module notes).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// `hash=` alternatives.
    pub hash: Vec<u64>,
    /// Per stage (`vs`, `hs`, `ds`, `gs`, `ps`, `cs`), the hash alternatives.
    pub shaders: Vec<(String, Vec<u64>)>,
    /// `draws=` ranges (inclusive).
    pub draws: Vec<(u32, u32)>,
    /// `has=` semantics (name, index).
    pub has: Vec<(String, Option<u32>)>,
    /// `call=` names.
    pub calls: Vec<String>,
    /// `problems`.
    pub problems: bool,
    /// `dumped`.
    pub dumped: bool,
}

/// A filter term that does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("filter term `{term}`: {message}")]
pub struct FilterError {
    /// The term.
    pub term: String,
    /// What is wrong.
    pub message: String,
}

fn hex(term: &str, v: &str) -> Result<u64, FilterError> {
    let t = v.strip_prefix("0x").unwrap_or(v);
    if t.is_empty() || t.len() > 16 {
        return Err(FilterError {
            term: term.into(),
            message: "a hash is 1 to 16 hexadecimal digits".into(),
        });
    }
    u64::from_str_radix(t, 16).map_err(|_| FilterError {
        term: term.into(),
        message: "a hash is hexadecimal digits".into(),
    })
}

impl FromStr for Filter {
    type Err = FilterError;

    fn from_str(s: &str) -> Result<Filter, FilterError> {
        let mut f = Filter::default();
        for term in s.split([',', ' ', '\t']).filter(|t| !t.is_empty()) {
            f.add(term)?;
        }
        Ok(f)
    }
}

impl Filter {
    /// Adds one term (`vs=…`, `draws=…`, …).
    pub fn add(&mut self, term: &str) -> Result<(), FilterError> {
        let bad = |m: &str| FilterError {
            term: term.into(),
            message: m.into(),
        };
        match term {
            "all" => return Ok(()),
            "problems" => {
                self.problems = true;
                return Ok(());
            }
            "dumped" => {
                self.dumped = true;
                return Ok(());
            }
            _ => {}
        }
        let Some((k, v)) = term.split_once('=') else {
            return Err(bad(
                "expected KEY=VALUE (hash, vs, hs, ds, gs, ps, cs, draws, has, call) or all, problems, dumped",
            ));
        };
        match k {
            "hash" => self.hash.push(hex(term, v)?),
            "vs" | "hs" | "ds" | "gs" | "ps" | "cs" => {
                let h = hex(term, v)?;
                match self.shaders.iter_mut().find(|(s, _)| s == k) {
                    Some((_, l)) => l.push(h),
                    None => self.shaders.push((k.to_string(), vec![h])),
                }
            }
            "draws" | "draw" => {
                let num = |x: &str| {
                    x.parse::<u32>()
                        .map_err(|_| bad("a draw number is a decimal number"))
                };
                let (a, b) = match v.split_once('-') {
                    Some((a, b)) => (
                        if a.is_empty() { 0 } else { num(a)? },
                        if b.is_empty() { u32::MAX } else { num(b)? },
                    ),
                    None => {
                        let n = num(v)?;
                        (n, n)
                    }
                };
                if a > b {
                    return Err(bad("the range's first draw is after its last"));
                }
                self.draws.push((a, b));
            }
            "has" => {
                if v.is_empty() {
                    return Err(bad("has= needs a semantic name"));
                }
                let digits = v.bytes().rev().take_while(|b| b.is_ascii_digit()).count();
                let (name, idx) = v.split_at(v.len() - digits);
                if name.is_empty() {
                    return Err(bad("a semantic name does not start with a digit"));
                }
                self.has.push((
                    name.to_string(),
                    if idx.is_empty() {
                        None
                    } else {
                        Some(idx.parse().map_err(|_| bad("semantic index too large"))?)
                    },
                ));
            }
            "call" => self.calls.push(v.to_string()),
            _ => return Err(bad("unknown key")),
        }
        Ok(())
    }

    /// Whether the filter selects every draw.
    pub fn is_all(&self) -> bool {
        *self == Filter::default()
    }

    /// Whether `d` passes.
    pub fn matches(&self, d: &Draw) -> bool {
        if !self.hash.is_empty() {
            let any = self.hash.iter().any(|&h| {
                d.resource_hashes().any(|r| r as u64 == h)
                    || d.shaders.iter().any(|(_, s)| s == Some(h))
                    || d.log.as_ref().is_some_and(|l| {
                        l.vbs.iter().any(|b| b.hash.map(u64::from) == Some(h))
                            || l.ib.and_then(|i| i.hash).map(u64::from) == Some(h)
                    })
            });
            if !any {
                return false;
            }
        }
        for (stage, hs) in &self.shaders {
            let have = d.shaders.get(stage);
            if !hs.iter().any(|h| have == Some(*h)) {
                return false;
            }
        }
        if !self.draws.is_empty() && !self.draws.iter().any(|&(a, b)| (a..=b).contains(&d.number)) {
            return false;
        }
        if !self.has.iter().all(|(n, i)| d.has_semantic(n, *i)) {
            return false;
        }
        if !self.calls.is_empty()
            && !self
                .calls
                .iter()
                .any(|c| d.call().is_some_and(|x| x.name().eq_ignore_ascii_case(c)))
        {
            return false;
        }
        if self.problems && d.problems.is_empty() {
            return false;
        }
        if self.dumped && d.vbs.is_empty() {
            return false;
        }
        true
    }
}

impl fmt::Display for Filter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut t: Vec<String> = Vec::new();
        t.extend(self.hash.iter().map(|h| format!("hash={h:x}")));
        for (s, hs) in &self.shaders {
            t.extend(hs.iter().map(|h| format!("{s}={h:016x}")));
        }
        t.extend(self.draws.iter().map(|(a, b)| format!("draws={a}-{b}")));
        t.extend(
            self.has
                .iter()
                .map(|(n, i)| format!("has={n}{}", i.map(|i| i.to_string()).unwrap_or_default())),
        );
        t.extend(self.calls.iter().map(|c| format!("call={c}")));
        if self.problems {
            t.push("problems".into());
        }
        if self.dumped {
            t.push("dumped".into());
        }
        if t.is_empty() {
            t.push("all".into());
        }
        f.write_str(&t.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_parse_and_print_back() {
        let f: Filter = "vs=E8425F64CFB887CD, draws=100-200 has=TEXCOORD1,hash=8a2c31f0,problems"
            .parse()
            .unwrap();
        assert_eq!(
            f.shaders,
            vec![("vs".to_string(), vec![0xe8425f64cfb887cd])]
        );
        assert_eq!(f.draws, vec![(100, 200)]);
        assert_eq!(f.has, vec![("TEXCOORD".to_string(), Some(1))]);
        assert_eq!(f.hash, vec![0x8a2c31f0]);
        assert!(f.problems);
        let again: Filter = f.to_string().parse().unwrap();
        assert_eq!(again, f);
        assert!("".parse::<Filter>().unwrap().is_all());
        for bad in [
            "vs=xyz",
            "draws=5-3",
            "has=",
            "has=1",
            "size=3",
            "draws=a",
            "ps=12345678901234567",
        ] {
            assert!(bad.parse::<Filter>().is_err(), "{bad}");
        }
        let f: Filter = "draws=-5,draws=9-".parse().unwrap();
        assert_eq!(f.draws, vec![(0, 5), (9, u32::MAX)]);
    }
}
