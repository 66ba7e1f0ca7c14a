//! Atomic file output: readers never see a half-written report.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::api::Error;

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// Writes `bytes` to `path`: creates missing parent directories, writes a temporary
/// file beside the target and renames it over the target. On failure the temporary
/// file is removed and the error is one line naming `path`.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    write_atomic_with(path, |w| w.write_all(bytes))
}

/// Like [`write_atomic`], with the content streamed by `fill` (no copy in memory).
pub fn write_atomic_with(path: &Path, fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> Result<(), Error> {
    let fail = |what: &str, e: std::io::Error| Error(format!("cannot write {}: {what}{e}", path.display()));
    let file_name = match path.file_name() {
        Some(name) => name.to_string_lossy().into_owned(),
        None => return Err(Error(format!("cannot write {}: not a file path", path.display()))),
    };
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    fs::create_dir_all(&dir).map_err(|e| fail("cannot create its directory: ", e))?;
    if path.is_dir() {
        return Err(Error(format!("cannot write {}: it is a directory", path.display())));
    }
    let tmp = dir.join(format!(
        ".{file_name}.{}-{}.tmp",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
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
