//! Safe outputs (issues 7 and 18): every file the CLI writes is written to a temporary file in
//! the same directory and renamed over the destination only when complete, is never one of the
//! run's own inputs, and replaces an existing file only with `--force`.
//!
//! * **Protected inputs.** Every file a command reads through [`crate::source`] is recorded
//!   ([`note_input`]); a destination is refused when it is one of them — compared by device
//!   and inode (hard links and symbolic links included) and by canonical path — both when the
//!   output is opened ([`check_destination`], with the inputs the command names up front) and
//!   again just before the rename ([`AtomicFile::commit`]), so an input read after the output
//!   was opened (an indirect-arguments file, a dump's buffers) is protected too, with or
//!   without `--force`.
//! * **No temporary file left behind.** The temporary file, `.NAME.inlay-tmp-PID-N`, is
//!   removed on every failure path: a failed write, flush, `fsync` or rename (a full disk), an
//!   error or panic that drops the [`AtomicFile`] before [`AtomicFile::commit`], a closed
//!   output pipe, and SIGINT, SIGTERM or SIGHUP: the first [`AtomicFile`] installs a handler
//!   thread (`signal-hook`) that removes every registered temporary file and then ends the
//!   process with the signal's default action (so the parent still sees "killed by signal").
//!   Only SIGKILL (which no process can catch) or a power cut can leave one.
//! * **`-`** names standard output for `--output`-style options ([`Output`]).

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, MutexGuard, Once};

use crate::CliError;

/// Whether `path` is `-`: standard output (for an output) or standard input (for an input).
pub fn is_dash(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// The identity of a file: device and inode (Unix), and its canonical path.
#[derive(Clone, Debug, PartialEq, Eq)]
struct FileId {
    #[cfg(unix)]
    dev_ino: Option<(u64, u64)>,
    canonical: Option<PathBuf>,
    shown: PathBuf,
}

impl FileId {
    /// The identity of an existing file (`None` when it cannot be examined).
    fn of(path: &Path) -> Option<FileId> {
        let canonical = fs::canonicalize(path).ok();
        #[cfg(unix)]
        let dev_ino = {
            use std::os::unix::fs::MetadataExt;
            fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
        };
        #[cfg(unix)]
        if dev_ino.is_none() && canonical.is_none() {
            return None;
        }
        #[cfg(not(unix))]
        canonical.as_ref()?;
        Some(FileId {
            #[cfg(unix)]
            dev_ino,
            canonical,
            shown: path.to_path_buf(),
        })
    }

    fn same(&self, other: &FileId) -> bool {
        #[cfg(unix)]
        if let (Some(a), Some(b)) = (self.dev_ino, other.dev_ino) {
            return a == b;
        }
        matches!((&self.canonical, &other.canonical), (Some(a), Some(b)) if a == b)
    }
}

/// Files read so far by this run.
static INPUTS: Mutex<Vec<FileId>> = Mutex::new(Vec::new());

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Records that this run reads `path`, so that no output of the run may replace it. Standard
/// input (`-`) and paths that cannot be examined are ignored. [`crate::source`] calls it for
/// every file it reads; a subcommand that reads a file some other way must call it too.
pub fn note_input(path: &Path) {
    if is_dash(path) {
        return;
    }
    if let Some(id) = FileId::of(path) {
        let mut inputs = lock(&INPUTS);
        if !inputs.iter().any(|i| i.same(&id)) {
            inputs.push(id);
        }
    }
}

/// The input `dest` would replace, if any: one of `inputs` or a file recorded by
/// [`note_input`]. A destination that does not exist yet is compared by canonical path.
fn clashing_input(dest: &Path, inputs: &[&Path]) -> Option<PathBuf> {
    let dest_id = FileId::of(dest).or_else(|| {
        Some(FileId {
            #[cfg(unix)]
            dev_ino: None,
            canonical: Some(canonical_destination(dest)?),
            shown: dest.to_path_buf(),
        })
    })?;
    for input in inputs.iter().filter(|p| !is_dash(p)) {
        if FileId::of(input).is_some_and(|id| id.same(&dest_id)) {
            return Some(input.to_path_buf());
        }
    }
    lock(&INPUTS)
        .iter()
        .find(|id| id.same(&dest_id))
        .map(|id| id.shown.clone())
}

fn refuse_input(dest: &Path, input: &Path) -> CliError {
    let also = if input == dest {
        String::new()
    } else {
        format!(" ({} is the same file)", input.display())
    };
    CliError::usage(format!(
        "refusing to write {}: it is one of this command's inputs{also}; --force never \
         replaces an input",
        dest.display()
    ))
}

/// Checks that `dest` may be written: it is not one of `inputs` nor a file this run has read
/// (compared by identity, after resolving links and `..`), it is not a directory, and it does
/// not exist unless `force`. `-` (standard output) is always allowed.
pub fn check_destination(dest: &Path, inputs: &[&Path], force: bool) -> Result<(), CliError> {
    if is_dash(dest) {
        return Ok(());
    }
    if let Some(input) = clashing_input(dest, inputs) {
        return Err(refuse_input(dest, &input));
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

/// Temporary files that exist right now (removed by the signal handler).
static TEMPS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
static SIGNALS: Once = Once::new();

/// Installs, once, the thread that removes temporary files on SIGINT, SIGTERM and SIGHUP.
///
/// The handler thread takes the [`TEMPS`] lock, removes every file in it and re-raises the
/// signal with its default action while still holding the lock, so no temporary file can be
/// created or renamed in between. SIGPIPE stays ignored (Rust's default): a closed pipe is a
/// write error, handled like any other.
fn install_signal_cleanup() {
    SIGNALS.call_once(|| {
        #[cfg(unix)]
        {
            use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
            let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])
            else {
                return;
            };
            let _ = std::thread::Builder::new()
                .name("inlay-signal-cleanup".into())
                .spawn(move || {
                    if let Some(sig) = signals.forever().next() {
                        let temps = lock(&TEMPS);
                        for t in temps.iter() {
                            let _ = fs::remove_file(t);
                        }
                        let _ = signal_hook::low_level::emulate_default_handler(sig);
                        // Not reached for the three signals above (their default action ends
                        // the process); exit with the conventional status anyway.
                        std::process::exit(128 + sig);
                    }
                });
        }
    });
}

/// A file being written next to its destination; renamed into place by
/// [`AtomicFile::commit`], deleted on every other path (error, drop, signal).
pub struct AtomicFile {
    dest: PathBuf,
    temp: PathBuf,
    writer: Option<BufWriter<File>>,
    /// Set once the rename has succeeded.
    committed: bool,
}

static COUNTER: AtomicU32 = AtomicU32::new(0);

impl AtomicFile {
    /// Checks the destination (see [`check_destination`]) and creates the temporary file.
    pub fn create(dest: &Path, inputs: &[&Path], force: bool) -> Result<Self, CliError> {
        // `-` is standard output for every output (issue 35); a command that reaches here
        // with it has missed that, and a file named `-` is never what was meant (`./-` is).
        if is_dash(dest) {
            return Err(CliError::usage(
                "this output cannot be standard output (`-`); give a file name (`./-` for a \
                 file named -)",
            ));
        }
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
        install_signal_cleanup();
        // Created and registered under the lock: a signal cannot fall in between.
        let file = {
            let mut temps = lock(&TEMPS);
            let file = OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&temp)
                .map_err(|e| CliError::io(format!("cannot create {}", temp.display()), e))?;
            temps.push(temp.clone());
            file
        };
        Ok(AtomicFile {
            dest: dest.to_path_buf(),
            temp,
            writer: Some(BufWriter::new(file)),
            committed: false,
        })
    }

    /// The destination.
    pub fn dest(&self) -> &Path {
        &self.dest
    }

    /// Flushes, syncs and renames the temporary file onto the destination, after checking
    /// once more that the destination is none of the files this run has read. On any error
    /// the temporary file is removed and the destination is untouched.
    pub fn commit(mut self) -> Result<(), CliError> {
        let result = self.finish();
        self.committed = result.is_ok();
        result
    }

    fn finish(&mut self) -> Result<(), CliError> {
        let cannot_write =
            |t: &Path, e: io::Error| CliError::io(format!("cannot write {}", t.display()), e);
        let writer = self
            .writer
            .take()
            .ok_or_else(|| CliError::usage("internal: file committed twice"))?;
        let file = writer
            .into_inner()
            .map_err(|e| cannot_write(&self.temp, e.into_error()))?;
        file.sync_all().map_err(|e| cannot_write(&self.temp, e))?;
        drop(file);
        if let Some(input) = clashing_input(&self.dest, &[]) {
            return Err(refuse_input(&self.dest, &input));
        }
        let mut temps = lock(&TEMPS);
        fs::rename(&self.temp, &self.dest).map_err(|e| {
            CliError::io(
                format!(
                    "cannot move {} to {}",
                    self.temp.display(),
                    self.dest.display()
                ),
                e,
            )
        })?;
        temps.retain(|t| *t != self.temp);
        Ok(())
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

impl io::Seek for AtomicFile {
    fn seek(&mut self, pos: io::SeekFrom) -> io::Result<u64> {
        self.writer
            .as_mut()
            .ok_or_else(|| io::Error::other("file already committed"))?
            .seek(pos)
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if !self.committed {
            // Close first (the buffered bytes are discarded, not flushed into a file that is
            // about to go), then remove.
            if let Some(w) = self.writer.take() {
                let (file, _) = w.into_parts();
                drop(file);
            }
            let mut temps = lock(&TEMPS);
            let _ = fs::remove_file(&self.temp);
            temps.retain(|t| *t != self.temp);
        }
    }
}

/// Writes a whole output: `-` to standard output (`stdout`, the writer `main` hands the
/// command), any other path to a file atomically, then says `wrote FILE (DETAIL)` on standard
/// error (nothing for standard output, which holds the data).
pub fn write_output(
    dest: &Path,
    bytes: &[u8],
    stdout: &mut dyn Write,
    inputs: &[&Path],
    force: bool,
    detail: &str,
) -> Result<(), CliError> {
    if is_dash(dest) {
        return stdout.write_all(bytes).map_err(CliError::stdout);
    }
    write_file(dest, bytes, inputs, force)?;
    say_wrote(dest, detail);
    Ok(())
}

/// Where a command's own report goes: standard output, unless one of its outputs is `-`
/// (standard output then holds that output's data, and the report goes to standard error).
pub fn report_stream<'a>(
    stdout: &'a mut dyn Write,
    stderr: &'a mut io::Stderr,
    outputs: &[&Path],
) -> &'a mut dyn Write {
    if outputs.iter().any(|p| is_dash(p)) {
        stderr
    } else {
        stdout
    }
}

/// An output's name for messages: the path, or `standard output` for `-`.
pub fn shown(path: &Path) -> String {
    if is_dash(path) {
        "standard output".to_string()
    } else {
        path.display().to_string()
    }
}

/// Refuses `-` for more than one output of a command (standard output holds one).
pub fn one_dash(outputs: &[&Path]) -> Result<(), CliError> {
    if outputs.iter().filter(|p| is_dash(p)).count() > 1 {
        return Err(CliError::usage(
            "standard output (`-`) can take one output only",
        ));
    }
    Ok(())
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

/// Where a command's main output goes: standard output (no `--output`, or `--output -`) or a
/// file written atomically.
pub enum Output<'a> {
    /// Standard output (the writer `main` hands the command).
    Stdout(&'a mut dyn Write),
    /// A file, renamed into place by [`Output::commit`].
    File(AtomicFile),
}

impl<'a> Output<'a> {
    /// `--output PATH` (`-` or `None`: standard output), checked like [`AtomicFile::create`].
    pub fn create(
        path: Option<&Path>,
        stdout: &'a mut dyn Write,
        inputs: &[&Path],
        force: bool,
    ) -> Result<Self, CliError> {
        match path {
            Some(p) if !is_dash(p) => Ok(Output::File(AtomicFile::create(p, inputs, force)?)),
            // `-` or no path: standard output.
            _ => Ok(Output::Stdout(stdout)),
        }
    }

    /// The output's name for messages: the file, or `standard output`.
    pub fn name(&self) -> String {
        match self {
            Output::Stdout(_) => "standard output".to_string(),
            Output::File(f) => f.dest().display().to_string(),
        }
    }

    /// Whether this is a file (then `wrote FILE …` is said on stderr by the command).
    pub fn is_file(&self) -> bool {
        matches!(self, Output::File(_))
    }

    /// Finishes the output: renames a file into place (standard output is flushed by `main`).
    pub fn commit(self) -> Result<(), CliError> {
        match self {
            Output::Stdout(w) => w.flush().map_err(CliError::stdout),
            Output::File(f) => f.commit(),
        }
    }
}

impl Write for Output<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Output::Stdout(w) => w.write(buf),
            Output::File(f) => f.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Output::Stdout(w) => w.flush(),
            Output::File(f) => f.flush(),
        }
    }
}

/// `wrote FILE (DETAIL)` on standard error, the status line every command that writes a file
/// prints (cargo and ripgrep keep such lines off standard output).
pub fn say_wrote(dest: &Path, detail: &str) {
    if detail.is_empty() {
        eprintln!("wrote {}", dest.display());
    } else {
        eprintln!("wrote {} ({detail})", dest.display());
    }
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

    fn names(d: &Path) -> Vec<String> {
        let mut names: Vec<_> = fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
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
        assert_eq!(names(&d), ["in.json", "out.bin"]);
        let _ = fs::remove_dir_all(&d);
    }

    /// Issue 18 item 5: a failed rename (here the destination became a non-empty folder after
    /// the check) used to leave the temporary file behind.
    #[test]
    fn failed_rename_leaves_no_temporary_file() {
        let d = scratch("rename");
        let dest = d.join("out.csv");
        let mut f = AtomicFile::create(&dest, &[], false).unwrap();
        f.write_all(b"data").unwrap();
        fs::create_dir(&dest).unwrap();
        fs::write(dest.join("keep"), b"k").unwrap();
        let e = f.commit().unwrap_err();
        assert!(e.message.starts_with("cannot move "), "{}", e.message);
        assert_eq!(names(&d), ["out.csv"]);
        assert_eq!(fs::read(dest.join("keep")).unwrap(), b"k");
        assert!(TEMPS.lock().unwrap().iter().all(|t| !t.starts_with(&d)));
        let _ = fs::remove_dir_all(&d);
    }

    /// Issue 18 item 1: a file read after the output was opened (an indirect-arguments file)
    /// is protected at commit time, with --force.
    #[test]
    fn inputs_read_later_are_protected_at_commit() {
        let d = scratch("late");
        let args = d.join("args.bin");
        fs::write(&args, [7u8; 16]).unwrap();
        // A hard link is the same file under another name.
        let link = d.join("link.bin");
        fs::hard_link(&args, &link).unwrap();
        let mut f = AtomicFile::create(&link, &[], true).unwrap();
        note_input(&args);
        f.write_all(b"text").unwrap();
        let e = f.commit().unwrap_err();
        assert!(
            e.message.contains("is one of this command's inputs"),
            "{}",
            e.message
        );
        assert_eq!(fs::read(&args).unwrap(), [7u8; 16]);
        assert_eq!(names(&d), ["args.bin", "link.bin"]);
        // And up front, once noted.
        let e = check_destination(&args, &[], true).unwrap_err();
        assert!(e.message.contains("--force never replaces an input"));
        // Forget the inputs before their files go: a freed inode can be reused by another
        // test's output in this process, which would then look like this test's input.
        lock(&INPUTS).clear();
        let _ = fs::remove_dir_all(&d);
    }
}
