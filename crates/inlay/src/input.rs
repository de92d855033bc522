//! The one checked way to read an input file: every shell (the command line, Python, the
//! conformance runner) and every library reader that opens files (dumps, their buffers)
//! reads through [`read_file`] (or, reading part of a file, [`open_file`]), so they share its
//! refusals and its words.
//!
//! A file is read only when it is a regular file no larger than the caller's limit: its size
//! is checked before anything is read, and the read itself stops one byte past the limit (a
//! file that grows while read, or a `/proc` file that reports size 0, is bounded the same).
//! Devices (`/dev/zero` never ends), named pipes (a FIFO without a writer never opens, one
//! with a slow writer never ends), sockets and directories are refused from their type
//! without reading — also behind a symbolic link. Standard input, which a command line reads
//! on purpose, goes through [`read_stream`] under the same limit.
//!
//! ```
//! use inlay::input::{ReadError, read_file};
//! let e = read_file(std::path::Path::new("/dev/zero"), 1 << 20).unwrap_err();
//! # #[cfg(unix)]
//! assert!(matches!(e, ReadError::NotAFile { .. }), "{e}");
//! ```

use std::io::Read;
use std::path::Path;

/// The default limit of text inputs (layouts, signature descriptions, case files): 64 MiB. A
/// real layout file is a few kilobytes; the limit keeps a mistaken argument (a mesh, a log)
/// from costing memory.
pub const DEFAULT_TEXT_LIMIT: u64 = 64 << 20;

/// The default limit of binary inputs (shaders, vertex, index and argument buffers, dumps,
/// glTF files and their buffers): 1 GiB.
pub const DEFAULT_BINARY_LIMIT: u64 = 1 << 30;

/// Why an input was not read. Each message names the file.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file could not be opened or read.
    #[error("cannot read {file}: {source}")]
    Io {
        /// The path as given.
        file: String,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// A directory was given where a file was expected.
    #[error("cannot read {file}: it is a directory")]
    Directory {
        /// The path as given.
        file: String,
    },
    /// A device, named pipe or socket: refused from its type, nothing read.
    #[error("refusing to read {file}: it is {what}, not a file ({why})")]
    NotAFile {
        /// The path as given.
        file: String,
        /// `a device`, `a named pipe (FIFO)`, `a socket`, …
        what: &'static str,
        /// Why such a file is not read.
        why: &'static str,
    },
    /// More bytes than the limit.
    #[error(
        "{file} is larger than {limit} bytes ({}); inlay refuses inputs past that size",
        match size { Some(n) => format!("{n} bytes"), None => "or more".to_string() }
    )]
    TooLarge {
        /// The path as given (`-` for standard input).
        file: String,
        /// The limit in force.
        limit: u64,
        /// The file's size when known before reading (`None`: found while reading).
        size: Option<u64>,
    },
}

impl ReadError {
    /// The file the error is about, as given.
    pub fn file(&self) -> &str {
        match self {
            ReadError::Io { file, .. }
            | ReadError::Directory { file }
            | ReadError::NotAFile { file, .. }
            | ReadError::TooLarge { file, .. } => file,
        }
    }
}

/// What a file type that is not a regular file is, and why it is not read.
fn not_a_file(ft: std::fs::FileType) -> (&'static str, &'static str) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_char_device() || ft.is_block_device() {
            return ("a device", "a device such as /dev/zero never ends");
        }
        if ft.is_fifo() {
            return ("a named pipe (FIFO)", "a pipe may never open or never end");
        }
        if ft.is_socket() {
            return ("a socket", "a socket is no file to read");
        }
    }
    let _ = ft;
    ("a special file", "only regular files are read")
}

/// Opens the regular file at `path` for reading, with [`read_file`]'s refusals (checked on
/// the opened handle, so that what is checked is what is read): for readers that read part
/// of a file (a dump's header) or stream it (a frame's log). The caller bounds what it reads;
/// `limit` bounds the file's size as [`read_file`]'s does. Returns the file and its size.
///
/// The file is opened without blocking (`O_NONBLOCK`, `O_NOCTTY`): a named pipe without a
/// writer opens at once instead of never, and is then refused from its type like a device, a
/// socket or a directory, nothing read. (A regular file's reads ignore the flag.) That is one
/// lookup of the path, not a look at its type and then an open, which on a frame of ten
/// thousand dumps was a fifth of the index's time.
pub fn open_file(path: &Path, limit: u64) -> Result<(std::fs::File, u64), ReadError> {
    let io = |source| ReadError::Io {
        file: path.display().to_string(),
        source,
    };
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    let handle = match options.open(path) {
        Ok(h) => h,
        Err(e) => {
            // A socket does not open (ENXIO): say what it is, as for the others.
            if let Ok(meta) = std::fs::metadata(path) {
                check_type(path, &meta, limit)?;
            }
            return Err(io(e));
        }
    };
    let meta = handle.metadata().map_err(io)?;
    check_type(path, &meta, limit)?;
    Ok((handle, meta.len()))
}

/// Reads the whole regular file at `path`, refusing more than `limit` bytes and anything that
/// is not a regular file (see the module documentation). `path` names the file in errors as
/// given.
pub fn read_file(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let (handle, len) = open_file(path, limit)?;
    // The size is a hint for the buffer, never more than the limit allows.
    let mut bytes = Vec::with_capacity(len.min(limit) as usize);
    handle
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|source| ReadError::Io {
            file: path.display().to_string(),
            source,
        })?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge {
            file: path.display().to_string(),
            limit,
            size: None,
        });
    }
    Ok(bytes)
}

/// What a file of type `ft` is when it is neither a regular file nor a folder (`a named pipe
/// (FIFO)`, `a device`, …): for listings that skip such entries with a warning.
pub fn special_file_kind(ft: std::fs::FileType) -> Option<&'static str> {
    (!ft.is_file() && !ft.is_dir() && !ft.is_symlink()).then(|| not_a_file(ft).0)
}

/// Refuses what is not a regular file of at most `limit` bytes.
fn check_type(path: &Path, meta: &std::fs::Metadata, limit: u64) -> Result<(), ReadError> {
    let file = || path.display().to_string();
    let ft = meta.file_type();
    if ft.is_dir() {
        return Err(ReadError::Directory { file: file() });
    }
    if !ft.is_file() {
        let (what, why) = not_a_file(ft);
        return Err(ReadError::NotAFile {
            file: file(),
            what,
            why,
        });
    }
    if meta.len() > limit {
        return Err(ReadError::TooLarge {
            file: file(),
            limit,
            size: Some(meta.len()),
        });
    }
    Ok(())
}

/// Reads `reader` to its end (standard input, a stream the caller opened on purpose),
/// refusing more than `limit` bytes; `name` names it in errors (`-` for standard input).
pub fn read_stream(name: &str, reader: impl Read, limit: u64) -> Result<Vec<u8>, ReadError> {
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|source| ReadError::Io {
            file: name.to_string(),
            source,
        })?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge {
            file: name.to_string(),
            limit,
            size: None,
        });
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("inlay-input-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn regular_files_are_read_up_to_the_limit() {
        let d = scratch("limit");
        let p = d.join("f.bin");
        std::fs::write(&p, [7u8; 300]).unwrap();
        assert_eq!(read_file(&p, 300).unwrap(), [7u8; 300]);
        let e = read_file(&p, 299).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "{} is larger than 299 bytes (300 bytes); inlay refuses inputs past that size",
                p.display()
            )
        );
        assert!(matches!(
            read_file(&d, 10),
            Err(ReadError::Directory { .. })
        ));
        assert!(matches!(
            read_file(&d.join("absent"), 10),
            Err(ReadError::Io { .. })
        ));
        let e = read_stream("-", &[1u8; 11][..], 10).unwrap_err();
        assert_eq!(
            e.to_string(),
            "- is larger than 10 bytes (or more); inlay refuses inputs past that size"
        );
        assert_eq!(read_stream("-", &[1u8; 10][..], 10).unwrap(), [1u8; 10]);
        let _ = std::fs::remove_dir_all(&d);
    }

    /// Issue 34 item 7: `/dev/zero` (also behind a link, as a glTF's buffer file) read until
    /// memory ran out; a FIFO hung in `open`.
    #[cfg(unix)]
    #[test]
    fn devices_pipes_and_links_to_them_are_refused_without_reading() {
        let d = scratch("special");
        let link = d.join("buffer.bin");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        for p in [Path::new("/dev/zero"), &link] {
            let e = read_file(p, u64::MAX).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!(
                    "refusing to read {}: it is a device, not a file (a device such as \
                     /dev/zero never ends)",
                    p.display()
                )
            );
        }
        let fifo = d.join("pipe");
        let ok = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "mkfifo (coreutils) made no FIFO");
        // No writer: opening it would block forever.
        let t = std::time::Instant::now();
        let e = read_file(&fifo, 1 << 20).unwrap_err();
        assert!(t.elapsed() < std::time::Duration::from_secs(5));
        assert!(
            e.to_string().ends_with(
                "it is a named pipe (FIFO), not a file (a pipe may never open or never end)"
            ),
            "{e}"
        );
        // A socket does not open at all: it is named for what it is all the same.
        let sock = d.join("sock");
        let _listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
        let e = read_file(&sock, 1 << 20).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "refusing to read {}: it is a socket, not a file (a socket is no file to read)",
                sock.display()
            )
        );
        let _ = std::fs::remove_dir_all(&d);
    }
}
