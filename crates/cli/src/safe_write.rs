//! The one way the CLI writes an output file (`export --out`, `analyze --out`).
//!
//! A path given by a user may name anything: the ledger being read, a device,
//! a FIFO, a directory, a symbolic link, or a file from an earlier run. Output
//! goes to a new temporary file beside its destination and is renamed into
//! place only once complete, and only over a regular file or over nothing:
//!
//! - a directory, device, FIFO or socket is refused, and so is a symbolic link
//!   unless its target is a regular file (which is then replaced, the link kept);
//! - a file that is one of the `protected` files (the ledger and its `-wal` and
//!   `-shm`, compared by device and inode, so through any link) is refused, and
//!   so is any name SQLite gives the ledger's companions (`-wal`, `-shm`,
//!   `-journal`, `-mj…`), existing or not: SQLite deletes or rewrites them;
//! - an existing file is replaced only with `--force`;
//! - a killed process never leaves a partial file under the final name; its
//!   temporary file (`.NAME.PID.attest-tmp`, hidden beside the destination)
//!   is removed on an error, and on Ctrl-C or SIGTERM where the process lives
//!   long enough to do so.
//!
//! A directory of outputs (a Parquet dataset) is built in a [`TempDir`],
//! removed the same way, and moved into place by its writer.

use std::ffi::OsString;
use std::fs::{self, File, Metadata};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once};

use anyhow::{Context, bail};

/// What an output may replace.
#[derive(Debug, Clone, Default)]
pub(crate) struct Overwrite {
    /// Replace an existing regular file.
    pub(crate) force: bool,
    /// Files that no output may replace, however named.
    pub(crate) protected: Vec<PathBuf>,
    /// The SQLite ledger whose companion names no output may take.
    pub(crate) ledger: Option<PathBuf>,
}

impl Overwrite {
    /// The policy of a command that reads the ledger `db`: the ledger and its
    /// write-ahead files are protected.
    /// A SQLite ledger's file and its companions are protected; a ledger in
    /// PostgreSQL (`None`) has no file to protect.
    pub(crate) fn protecting_ledger(force: bool, db: Option<&Path>) -> Overwrite {
        let Some(db) = db else {
            return Overwrite {
                force,
                ..Overwrite::default()
            };
        };
        let with_suffix = |suffix: &str| {
            let mut name = OsString::from(db.as_os_str());
            name.push(suffix);
            PathBuf::from(name)
        };
        Overwrite {
            force,
            protected: vec![db.to_path_buf(), with_suffix("-wal"), with_suffix("-shm")],
            ledger: Some(db.to_path_buf()),
        }
    }

    /// Whether `path` names the ledger or a file SQLite keeps beside it, by
    /// name, in the same directory.
    fn names_a_ledger_file(&self, path: &Path) -> bool {
        let Some(ledger) = &self.ledger else {
            return false;
        };
        let directory = |p: &Path| {
            let parent = p.parent().filter(|d| !d.as_os_str().is_empty());
            fs::canonicalize(parent.unwrap_or(Path::new(".")))
        };
        let (Some(name), Some(ledger_name)) = (path.file_name(), ledger.file_name()) else {
            return false;
        };
        let (Some(name), Some(ledger_name)) = (name.to_str(), ledger_name.to_str()) else {
            return false;
        };
        let Some(suffix) = name.strip_prefix(ledger_name) else {
            return false;
        };
        let companion =
            matches!(suffix, "" | "-wal" | "-shm" | "-journal") || suffix.starts_with("-mj");
        companion && matches!((directory(path), directory(ledger)), (Ok(a), Ok(b)) if a == b)
    }
}

/// Writes the file at `path` through `write`, as the module describes; returns
/// what `write` returned.
pub(crate) fn write_file<T>(
    path: &Path,
    policy: &Overwrite,
    write: impl FnOnce(&mut (dyn Write + Send)) -> anyhow::Result<T>,
) -> anyhow::Result<T> {
    let destination = destination(path, policy)?;
    let temp = TempFile::create(&destination.path)?;
    let mut out = BufWriter::new(temp.file.try_clone().with_context(|| temp.describe())?);
    let value = write(&mut out)?;
    out.into_inner()
        .map_err(|err| err.into_error())
        .and_then(|file| file.sync_all())
        .with_context(|| format!("writing {}", temp.path.display()))?;
    if let Some(existing) = &destination.existing {
        // The replacement keeps the permissions of the file it replaces.
        let _ = fs::set_permissions(&temp.path, existing.permissions());
    }
    // The destination may have changed while the output was written.
    let now = self::destination(path, policy)?;
    temp.publish(&now.path, now.existing.is_some())?;
    Ok(value)
}

/// Where an output goes, and the file it replaces.
struct Destination {
    /// The path renamed over: `path`, or the target of the link `path` is.
    path: PathBuf,
    existing: Option<Metadata>,
}

/// Checks what is at `path` against the policy.
fn destination(path: &Path, policy: &Overwrite) -> anyhow::Result<Destination> {
    let shown = path.display();
    if policy.names_a_ledger_file(path) {
        bail!(
            "{shown}: is the ledger this command reads, or a name SQLite uses for its files; not written"
        );
    }
    let link = match fs::symlink_metadata(path) {
        Ok(link) => link,
        Err(err) if err.kind() == io::ErrorKind::NotFound => {
            return Ok(Destination {
                path: path.to_path_buf(),
                existing: None,
            });
        }
        Err(err) => bail!("{shown}: cannot look at the destination: {err}"),
    };
    let (target, metadata) = if link.file_type().is_symlink() {
        match fs::metadata(path) {
            Ok(metadata) if metadata.is_file() => (
                fs::canonicalize(path).with_context(|| format!("{shown}: following the link"))?,
                metadata,
            ),
            Ok(metadata) => bail!(
                "{shown}: a symbolic link to {}; only a link to a regular file is written through",
                kind(&metadata)
            ),
            Err(err) => bail!("{shown}: a symbolic link that leads nowhere ({err}); not written"),
        }
    } else {
        (path.to_path_buf(), link)
    };
    if !metadata.is_file() {
        bail!(
            "{shown}: is {}; output replaces only a regular file",
            kind(&metadata)
        );
    }
    if policy
        .protected
        .iter()
        .any(|protected| fs::metadata(protected).is_ok_and(|p| same_file(&p, &metadata)))
    {
        bail!("{shown}: is the ledger this command reads (or one of its files); not replaced");
    }
    if !policy.force {
        bail!("{shown}: exists; give --force to replace it");
    }
    Ok(Destination {
        path: target,
        existing: Some(metadata),
    })
}

/// What a file that is not a regular file is, for messages.
fn kind(metadata: &Metadata) -> &'static str {
    let kind = metadata.file_type();
    if kind.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_block_device() || kind.is_char_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    "not a regular file"
}

#[cfg(unix)]
fn same_file(a: &Metadata, b: &Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    (a.dev(), a.ino()) == (b.dev(), b.ino())
}

#[cfg(not(unix))]
fn same_file(a: &Metadata, b: &Metadata) -> bool {
    // Without inodes, size and modification time are the best evidence at hand;
    // a false match refuses a write, never allows one.
    a.len() == b.len() && a.modified().ok() == b.modified().ok()
}

/// Temporary files and directories not yet renamed into place or removed,
/// for the signal handler.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Removes pending temporary files when the process is interrupted or told to
/// stop, then ends it as the signal would have (status 128 + signal).
fn clean_up_on_signals() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        #[cfg(unix)]
        {
            use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
            let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])
            else {
                return;
            };
            std::thread::spawn(move || {
                if let Some(signal) = signals.forever().next() {
                    let pending = PENDING.lock().map(|p| p.clone()).unwrap_or_default();
                    for path in pending {
                        let _ = fs::remove_file(&path).or_else(|_| fs::remove_dir_all(&path));
                    }
                    std::process::exit(128 + signal);
                }
            });
        }
    });
}

/// A temporary file beside a destination, removed unless published.
struct TempFile {
    path: PathBuf,
    file: File,
    published: bool,
}

impl TempFile {
    fn create(destination: &Path) -> anyhow::Result<TempFile> {
        clean_up_on_signals();
        let mut name = OsString::from(".");
        name.push(destination.file_name().unwrap_or_default());
        name.push(format!(".{}.attest-tmp", std::process::id()));
        let path = destination.with_file_name(name);
        // `create_new` never follows a link planted under the temporary name.
        let file = File::options()
            .write(true)
            .create_new(true)
            .open(&path)
            .with_context(|| {
                format!(
                    "{}: cannot create a temporary file beside it",
                    destination.display()
                )
            })?;
        if let Ok(mut pending) = PENDING.lock() {
            pending.push(path.clone());
        }
        Ok(TempFile {
            path,
            file,
            published: false,
        })
    }

    fn describe(&self) -> String {
        format!("writing {}", self.path.display())
    }

    /// Moves the file to `destination`: over the existing file when `replace`,
    /// else only if nothing has appeared there meanwhile.
    fn publish(mut self, destination: &Path, replace: bool) -> anyhow::Result<()> {
        let shown = destination.display();
        if replace {
            fs::rename(&self.path, destination)
                .with_context(|| format!("{shown}: moving the output into place"))?;
        } else {
            // A hard link fails on an existing name, where a rename would replace it.
            match fs::hard_link(&self.path, destination) {
                Ok(()) => {}
                Err(err) if err.kind() == io::ErrorKind::AlreadyExists => {
                    bail!("{shown}: appeared while the output was written; not replaced")
                }
                // Some file systems have no hard links; the destination was
                // found free just before.
                Err(_) => fs::rename(&self.path, destination)
                    .with_context(|| format!("{shown}: moving the output into place"))?,
            }
        }
        self.published = true;
        let _ = fs::remove_file(&self.path);
        self.forget();
        Ok(())
    }

    fn forget(&self) {
        forget_pending(&self.path);
    }
}

fn forget_pending(path: &Path) {
    if let Ok(mut pending) = PENDING.lock() {
        pending.retain(|pending| pending != path);
    }
}

/// A new directory, removed with all it holds when dropped (and on Ctrl-C,
/// SIGTERM or SIGHUP), for outputs that are moved out of it once complete.
pub(crate) struct TempDir {
    path: PathBuf,
}

impl TempDir {
    /// Creates `path`, which must not exist: a directory left by a killed run
    /// is reported rather than emptied, since nothing says whose it is.
    pub(crate) fn create(path: PathBuf) -> anyhow::Result<TempDir> {
        clean_up_on_signals();
        fs::create_dir(&path).with_context(|| {
            format!(
                "{}: cannot create a temporary directory (one left by an earlier run can be deleted)",
                path.display()
            )
        })?;
        if let Ok(mut pending) = PENDING.lock() {
            pending.push(path.clone());
        }
        Ok(TempDir { path })
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.path);
        forget_pending(&self.path);
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if !self.published {
            let _ = fs::remove_file(&self.path);
            self.forget();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write_text(path: &Path, policy: &Overwrite, text: &str) -> anyhow::Result<()> {
        write_file(path, policy, |out| Ok(out.write_all(text.as_bytes())?))
    }

    fn temp_dir() -> PathBuf {
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir =
            std::env::temp_dir().join(format!("attest-safe-write-{}-{n}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// A directory holding a stand-in ledger, and the policy protecting it.
    fn with_ledger() -> (PathBuf, PathBuf, Overwrite) {
        let dir = temp_dir();
        let db = dir.join("attest.db");
        fs::write(&db, "ledger").unwrap();
        let policy = Overwrite::protecting_ledger(true, Some(&db));
        (dir, db, policy)
    }

    fn assert_refused(outcome: anyhow::Result<()>, needle: &str) {
        let message = format!("{:#}", outcome.unwrap_err());
        assert!(message.contains(needle), "{message}");
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn new_files_are_written_and_existing_ones_need_force() {
        let dir = temp_dir();
        let out = dir.join("out.csv");
        write_text(&out, &Overwrite::default(), "one").unwrap();
        assert_refused(write_text(&out, &Overwrite::default(), "two"), "--force");
        assert_eq!(fs::read_to_string(&out).unwrap(), "one");
        let force = Overwrite {
            force: true,
            ..Overwrite::default()
        };
        write_text(&out, &force, "two").unwrap();
        assert_eq!(fs::read_to_string(&out).unwrap(), "two");
        assert_eq!(entries(&dir), ["out.csv"], "no temporary file is left");
    }

    #[test]
    fn a_failed_write_leaves_nothing_behind() {
        let dir = temp_dir();
        let out = dir.join("out.csv");
        let failed: anyhow::Result<()> = write_file(&out, &Overwrite::default(), |out| {
            out.write_all(b"half")?;
            bail!("the query failed")
        });
        assert!(failed.is_err());
        assert!(entries(&dir).is_empty());
    }

    #[test]
    fn directories_and_protected_files_are_refused_even_with_force() {
        let (dir, db, policy) = with_ledger();
        assert_refused(write_text(&db, &policy, "csv"), "a name SQLite uses");
        assert_refused(write_text(&dir, &policy, "csv"), "a directory");
        for companion in ["-journal", "-wal", "-shm", "-mj3f2a91c0"] {
            let mut name = db.clone().into_os_string();
            name.push(companion);
            assert_refused(
                write_text(Path::new(&name), &policy, "csv"),
                "a name SQLite uses",
            );
            assert!(!Path::new(&name).exists(), "{companion} not written");
        }
        assert_eq!(fs::read_to_string(&db).unwrap(), "ledger");
    }

    #[cfg(unix)]
    #[test]
    fn links_are_written_through_only_to_regular_files() {
        use std::os::unix::fs::symlink;
        let (dir, db, policy) = with_ledger();
        symlink(&db, dir.join("to-db")).unwrap();
        assert_refused(
            write_text(&dir.join("to-db"), &policy, "x"),
            "is the ledger",
        );
        fs::hard_link(&db, dir.join("same-db")).unwrap();
        assert_refused(
            write_text(&dir.join("same-db"), &policy, "x"),
            "is the ledger",
        );
        assert_eq!(fs::read_to_string(&db).unwrap(), "ledger");

        fs::write(dir.join("real.csv"), "old").unwrap();
        symlink("real.csv", dir.join("link.csv")).unwrap();
        write_text(&dir.join("link.csv"), &policy, "new").unwrap();
        assert_eq!(fs::read_to_string(dir.join("real.csv")).unwrap(), "new");
        assert!(
            fs::symlink_metadata(dir.join("link.csv"))
                .unwrap()
                .file_type()
                .is_symlink()
        );

        symlink("nowhere", dir.join("dangling")).unwrap();
        assert_refused(
            write_text(&dir.join("dangling"), &policy, "x"),
            "leads nowhere",
        );
        symlink("/dev/null", dir.join("to-null")).unwrap();
        assert_refused(write_text(&dir.join("to-null"), &policy, "x"), "a device");
    }
}
