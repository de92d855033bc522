//! Safe outputs (issue 7): every file the CLI writes is written to a temporary file in the
//! same directory and renamed over the destination only when complete, is never one of the
//! run's own inputs, and replaces an existing file only with `--force`.
//!
//! An interrupted run (error, panic, Ctrl-C before the rename) leaves at most the temporary
//! file, named `.NAME.inlay-tmp-PID-N`; the [`AtomicFile`] removes it when dropped without
//! [`AtomicFile::commit`]. A signal that kills the process outright can leave the temporary
//! file, never a half-written destination.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use crate::CliError;

/// Checks that `dest` may be written: it is not one of `inputs` (compared after resolving
/// links and `..`), and it does not exist unless `force`.
pub fn check_destination(dest: &Path, inputs: &[&Path], force: bool) -> Result<(), CliError> {
    let dest_canon = canonical_destination(dest);
    for input in inputs {
        let same = match (fs::canonicalize(input), &dest_canon) {
            (Ok(a), Some(b)) => a == *b,
            _ => false,
        };
        if same {
            return Err(CliError::usage(format!(
                "refusing to write {}: it is one of this command's inputs",
                dest.display()
            )));
        }
    }
    match fs::symlink_metadata(dest) {
        Ok(m) if m.is_dir() => Err(CliError::usage(format!(
            "cannot write {}: it is a directory",
            dest.display()
        ))),
        Ok(_) if !force => Err(CliError::usage(format!(
            "{} already exists; pass --force to replace it",
            dest.display()
        ))),
        _ => Ok(()),
    }
}

/// The destination's canonical path (its directory resolved, the name appended), if the
/// directory exists.
fn canonical_destination(dest: &Path) -> Option<PathBuf> {
    if let Ok(p) = fs::canonicalize(dest) {
        return Some(p);
    }
    let name = dest.file_name()?;
    let dir = match dest.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    Some(fs::canonicalize(dir).ok()?.join(name))
}

/// A file being written next to its destination; renamed into place by
/// [`AtomicFile::commit`], deleted if dropped first.
pub struct AtomicFile {
    dest: PathBuf,
    temp: PathBuf,
    writer: Option<BufWriter<File>>,
}

static COUNTER: AtomicU32 = AtomicU32::new(0);

impl AtomicFile {
    /// Checks the destination (see [`check_destination`]) and creates the temporary file.
    pub fn create(dest: &Path, inputs: &[&Path], force: bool) -> Result<Self, CliError> {
        check_destination(dest, inputs, force)?;
        let name = dest
            .file_name()
            .ok_or_else(|| CliError::usage(format!("{} is not a file name", dest.display())))?;
        let dir = match dest.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let temp = dir.join(format!(
            ".{}.inlay-tmp-{}-{}",
            name.to_string_lossy(),
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)
            .map_err(|e| CliError::io(format!("cannot create {}", temp.display()), e))?;
        Ok(AtomicFile {
            dest: dest.to_path_buf(),
            temp,
            writer: Some(BufWriter::new(file)),
        })
    }

    /// Flushes, syncs and renames the temporary file onto the destination.
    pub fn commit(mut self) -> Result<(), CliError> {
        let writer = self.writer.take().expect("writer present until commit");
        let file = writer.into_inner().map_err(|e| {
            CliError::io(
                format!("cannot write {}", self.temp.display()),
                e.into_error(),
            )
        })?;
        file.sync_all()
            .map_err(|e| CliError::io(format!("cannot write {}", self.temp.display()), e))?;
        drop(file);
        fs::rename(&self.temp, &self.dest).map_err(|e| {
            CliError::io(
                format!(
                    "cannot move {} to {}",
                    self.temp.display(),
                    self.dest.display()
                ),
                e,
            )
        })
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.writer
            .as_mut()
            .ok_or_else(|| io::Error::other("file already committed"))?
            .write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.writer.as_mut() {
            Some(w) => w.flush(),
            None => Ok(()),
        }
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.writer.take().is_some() {
            let _ = fs::remove_file(&self.temp);
        }
    }
}

/// Writes `bytes` to `dest` atomically (see the module documentation).
pub fn write_file(
    dest: &Path,
    bytes: &[u8],
    inputs: &[&Path],
    force: bool,
) -> Result<(), CliError> {
    let mut f = AtomicFile::create(dest, inputs, force)?;
    f.write_all(bytes)
        .map_err(|e| CliError::io(format!("cannot write {}", dest.display()), e))?;
    f.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("inlay-cli-output-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn writes_refuses_and_cleans_up() {
        let d = scratch("a");
        let out = d.join("out.bin");
        write_file(&out, b"one", &[], false).unwrap();
        assert_eq!(fs::read(&out).unwrap(), b"one");
        let e = write_file(&out, b"two", &[], false).unwrap_err();
        assert_eq!(e.code, 2);
        assert!(
            e.message
                .ends_with("already exists; pass --force to replace it"),
            "{}",
            e.message
        );
        write_file(&out, b"two", &[], true).unwrap();
        assert_eq!(fs::read(&out).unwrap(), b"two");
        // Onto an input, even spelled differently.
        let input = d.join("in.json");
        fs::write(&input, b"[]").unwrap();
        let spelled = d.join(".").join("in.json");
        let e = write_file(&spelled, b"x", &[&input], true).unwrap_err();
        assert!(e.message.contains("is one of this command's inputs"));
        assert_eq!(fs::read(&input).unwrap(), b"[]");
        // Dropped without commit: no destination, no temporary file left.
        {
            let mut f = AtomicFile::create(&d.join("never.bin"), &[], false).unwrap();
            f.write_all(b"partial").unwrap();
        }
        let names: Vec<_> = fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        let mut names = names;
        names.sort();
        assert_eq!(names, ["in.json", "out.bin"]);
        let _ = fs::remove_dir_all(&d);
    }
}
