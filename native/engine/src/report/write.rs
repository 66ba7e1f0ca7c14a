//! Atomic file output: readers never see a half-written report.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::api::Error;

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// Writes `bytes` to `path`: creates missing parent directories, writes a temporary
/// file beside the target and renames it over the target. On failure the temporary
/// file is removed and the error is one line naming `path`. A symbolic link is followed
/// (the link stays, its target is replaced), and a path that is not a regular file
/// (`/dev/null`, `/dev/stdout`, a pipe) is written in place: renaming over it would
/// replace the device with a plain file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    write_atomic_with(path, |w| w.write_all(bytes))
}

/// Like [`write_atomic`], with the content streamed by `fill` (no copy in memory).
pub fn write_atomic_with(path: &Path, fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> Result<(), Error> {
    let fail = |what: &str, e: std::io::Error| Error(format!("cannot write {}: {what}{e}", path.display()));
    if let Ok(meta) = fs::metadata(path) {
        if !meta.is_file() && !meta.is_dir() {
            return write_in_place(path, fill).map_err(|e| fail("", e));
        }
    }
    // Rename over the link's target, not over the link.
    let resolved = match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => fs::canonicalize(path).ok(),
        _ => None,
    };
    let path = resolved.as_deref().unwrap_or(path);
    let file_name = match path.file_name() {
        Some(name) => name.to_string_lossy().into_owned(),
        None => return Err(Error(format!("cannot write {}: not a file path", path.display()))),
    };
    let dir = directory_of(path);
    fs::create_dir_all(&dir).map_err(|e| fail("cannot create its directory: ", e))?;
    if path.is_dir() {
        return Err(Error(format!("cannot write {}: it is a directory", path.display())));
    }
    let tmp = scratch_beside(&dir, &file_name, "tmp");
    let result = (|| {
        let mut file = std::io::BufWriter::with_capacity(1 << 16, fs::File::create(&tmp)?);
        fill(&mut file)?;
        file.flush()?;
        drop(file);
        fs::rename(&tmp, path)
    })();
    result.map_err(|e| {
        let _ = fs::remove_file(&tmp);
        fail("", e)
    })
}

/// The directory a file at `path` goes in (`.` for a bare file name).
pub(crate) fn directory_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// A name in `dir` for a scratch file made while writing `file_name`: hidden, and unique to
/// this process and call, so concurrent writers never meet.
pub(crate) fn scratch_beside(dir: &Path, file_name: &str, kind: &str) -> PathBuf {
    dir.join(format!(".{file_name}.{}-{}.{kind}", std::process::id(), COUNTER.fetch_add(1, Ordering::Relaxed)))
}

/// Writes a special file (a device or a pipe) directly: it has no content to protect.
fn write_in_place(path: &Path, fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(fs::OpenOptions::new().write(true).open(path)?);
    fill(&mut out)?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::test_support::TempDir;

    #[test]
    fn creates_parents_and_replaces() {
        let tmp = TempDir::new("write");
        let target = tmp.path().join("a/b/report.json");
        write_atomic(&target, b"one").unwrap();
        write_atomic(&target, b"two").unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"two");
        let leftovers: Vec<_> = fs::read_dir(tmp.path().join("a/b")).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temporary files left behind");
    }

    #[cfg(unix)]
    #[test]
    fn follows_links_and_leaves_devices_in_place() {
        use std::os::unix::fs::FileTypeExt;
        let tmp = TempDir::new("write-special");
        let real = tmp.path().join("real.json");
        let link = tmp.path().join("link.json");
        write_atomic(&real, b"one").unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_atomic(&link, b"two").unwrap();
        assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link stays a link");
        assert_eq!(fs::read(&real).unwrap(), b"two");

        let null = Path::new("/dev/null");
        if fs::metadata(null).map(|m| m.file_type().is_char_device()).unwrap_or(false) {
            write_atomic(null, b"discarded").unwrap();
            assert!(fs::metadata(null).unwrap().file_type().is_char_device(), "/dev/null is still a device");
        }
    }

    #[test]
    fn errors_name_the_file_on_one_line() {
        let tmp = TempDir::new("write-err");
        tmp.write("blocker", "x");
        let target = tmp.path().join("blocker/report.json");
        let err = write_atomic(&target, b"x").unwrap_err();
        assert!(err.0.contains("blocker/report.json") || err.0.contains("blocker\\report.json"), "{err}");
        assert!(!err.0.contains('\n'));
        let dir_target = tmp.path().to_path_buf();
        let err = write_atomic(&dir_target, b"x").unwrap_err();
        assert!(err.0.contains("directory"), "{err}");
    }
}
