//! Output-file safety: every file a sweep writes (checkpoint, CSV, JSON, a
//! front end's plot) is written atomically beside its target, through
//! symlinks, keeping the target's mode, and special files (devices, FIFOs,
//! folders) and hard-linked files are refused before any work.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

use super::SweepError;

pub(super) fn io_error(path: &Path) -> impl Fn(io::Error) -> SweepError + '_ {
    move |source| SweepError::Io {
        path: path.to_owned(),
        source,
    }
}

/// Where writing `path` lands: symbolic links followed to the file they
/// name (which may not exist yet). The path itself when it is not a link.
pub fn resolve_output(path: &Path) -> io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..40 {
        match fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                if let Some(fd) = open_descriptor(&current) {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidInput,
                        format!(
                            "names the open file descriptor {} ({}), not a file: an output is written beside \
                             its file and renamed over it (and a CSV is the sweep's checkpoint), which a stream \
                             cannot take; write to a file and read that",
                            fd.display(),
                            describe_descriptor(&fd)
                        ),
                    ));
                }
                let link = fs::read_link(&current)?;
                current = match current.parent() {
                    Some(dir) if link.is_relative() => dir.join(link),
                    _ => link,
                };
            }
            Ok(_) => return Ok(current),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(current),
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// `path` itself if it is one of the kernel's links to an open file
/// descriptor (`/proc/self/fd/1`, `/dev/fd/1`, `/dev/stdout` once followed
/// there): its folder is a process's `fd` folder under `/proc`. Following
/// such a link leads to a pipe's pseudo-name or to a file the descriptor
/// has open, which a rename would replace behind the descriptor's back.
fn open_descriptor(path: &Path) -> Option<PathBuf> {
    let folder = fs::canonicalize(path.parent()?).ok()?;
    let mut parts = folder
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned());
    let _root = parts.next()?;
    let names: Vec<String> = parts.collect();
    let under_proc = names.first().is_some_and(|n| n == "proc");
    let fd_folder = names.last().is_some_and(|n| n == "fd" || n == "fdinfo");
    (under_proc && fd_folder).then(|| folder.join(path.file_name().unwrap_or_default()))
}

/// What an open descriptor's number is by convention, for an error.
fn describe_descriptor(fd: &Path) -> &'static str {
    match fd.file_name().and_then(|n| n.to_str()) {
        Some("0") => "standard input",
        Some("1") => "standard output",
        Some("2") => "standard error",
        _ => "an open file",
    }
}

/// What a file that is not a regular file is, for an error.
pub(super) fn kind_of(file_type: fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if file_type.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if file_type.is_socket() {
            return "a socket";
        }
        if file_type.is_block_device() || file_type.is_char_device() {
            return "a device";
        }
    }
    if file_type.is_dir() {
        "a folder"
    } else {
        "not a regular file"
    }
}

/// The resolved target of `path`, refused unless it is a regular file or
/// does not exist yet; and the temporary file beside it (same folder, so
/// the rename is atomic).
pub(super) fn output_target(path: &Path) -> io::Result<(PathBuf, PathBuf)> {
    let target = resolve_output(path)?;
    match fs::metadata(&target) {
        Ok(meta) if !meta.file_type().is_file() => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "is {}, not a regular file: refusing to replace it",
                    kind_of(meta.file_type())
                ),
            ));
        }
        Ok(meta) => {
            #[cfg(unix)]
            {
                use std::os::unix::fs::MetadataExt as _;
                if meta.nlink() > 1 {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidInput,
                        format!(
                            "has {} hard links: replacing it would leave the other names with the old \
                             content; write to another path",
                            meta.nlink()
                        ),
                    ));
                }
            }
            let _ = meta;
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    let name = target
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "names no file"))?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".{}.tmp", std::process::id()));
    let tmp = target.with_file_name(tmp_name);
    Ok((target, tmp))
}

/// Creates the temporary file afresh (a stale one of an earlier run with
/// the same process id is removed first; never followed through a link).
pub(super) fn create_temp(tmp: &Path) -> io::Result<File> {
    let create = || OpenOptions::new().write(true).create_new(true).open(tmp);
    match create() {
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            fs::remove_file(tmp)?;
            create()
        }
        other => other,
    }
}

/// Checks, before any work, that [`write_output`] can write `path`: it is
/// (through any symlink) a regular file with one link, or nothing yet, and
/// its folder takes a new file (one is created and removed). Errors name
/// `path` as given.
pub fn check_output(path: &Path) -> Result<(), SweepError> {
    let (_, tmp) = output_target(path).map_err(io_error(path))?;
    create_temp(&tmp).map_err(io_error(path))?;
    fs::remove_file(&tmp).map_err(io_error(path))
}

/// Writes `bytes` to `path` atomically: to a temporary file beside the
/// target (a symlink is followed, so the link stays and the file it names
/// gets the content), synced, then renamed over it; the file is always
/// either the old or the new content. A replaced file keeps its permissions
/// (and, where allowed, its owner). A path that exists and is not a regular
/// file (device, FIFO, socket, folder), or a file with several hard links,
/// is refused. Errors name `path` as given.
pub fn write_output(path: &Path, bytes: &[u8]) -> Result<(), SweepError> {
    let (target, tmp) = output_target(path).map_err(io_error(path))?;
    let written = (|| -> io::Result<()> {
        let mut file = create_temp(&tmp)?;
        if let Ok(meta) = fs::metadata(&target) {
            file.set_permissions(meta.permissions())?;
            #[cfg(unix)]
            {
                use std::os::unix::fs::MetadataExt as _;
                // Only root may give a file away; others keep their own.
                let _ = std::os::unix::fs::fchown(&file, Some(meta.uid()), Some(meta.gid()));
            }
        }
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        fs::rename(&tmp, &target)
    })();
    if let Err(e) = written {
        let _ = fs::remove_file(&tmp);
        return Err(io_error(path)(e));
    }
    // Best effort: make the rename itself durable.
    if let Some(dir) = target.parent().filter(|d| !d.as_os_str().is_empty())
        && let Ok(dir) = File::open(dir)
    {
        let _ = dir.sync_all();
    }
    Ok(())
}
