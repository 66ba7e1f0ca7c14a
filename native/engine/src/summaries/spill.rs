//! The compressed chunks of a summary file, set aside as they are made. The index that
//! precedes them in the file needs all their lengths; holding the chunks in memory until then
//! cost 120 MB at the peak of a run on the Android framework. They go to a scratch file next
//! to the output (on the disk the output goes to), or stay in memory when no file can be made
//! there (the output is a device or a pipe).

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::report::write::{directory_of, scratch_beside};

pub enum Spill {
    File { path: PathBuf, out: BufWriter<File> },
    Memory(Vec<u8>),
}

impl Spill {
    /// A scratch file in the directory of `output` (created if missing, as the output's own
    /// writing would), or memory.
    pub fn next_to(output: &Path) -> Spill {
        let regular_or_new = fs::metadata(output).map_or(true, |m| m.is_file());
        let dir = directory_of(output);
        let name = output.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if regular_or_new && fs::create_dir_all(&dir).is_ok() {
            let path = scratch_beside(&dir, &name, "chunks");
            if let Ok(file) = OpenOptions::new().read(true).write(true).create_new(true).open(&path) {
                return Spill::File { path, out: BufWriter::with_capacity(1 << 16, file) };
            }
        }
        Spill::Memory(Vec::new())
    }

    pub fn write(&mut self, bytes: &[u8]) -> io::Result<()> {
        match self {
            Spill::File { out, .. } => out.write_all(bytes),
            Spill::Memory(v) => {
                v.extend_from_slice(bytes);
                Ok(())
            }
        }
    }

    /// Everything set aside, in the order written, copied to `to`.
    pub fn copy_to(&mut self, to: &mut dyn Write) -> io::Result<()> {
        match self {
            Spill::File { out, .. } => {
                out.flush()?;
                let file = out.get_mut();
                file.seek(SeekFrom::Start(0))?;
                io::copy(file, to).map(drop)
            }
            Spill::Memory(v) => to.write_all(v),
        }
    }
}

impl Drop for Spill {
    fn drop(&mut self) {
        if let Spill::File { path, .. } = self {
            let _ = fs::remove_file(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::test_support::TempDir;

    #[test]
    fn chunks_go_to_a_scratch_file_next_to_the_output_and_it_is_removed() {
        let tmp = TempDir::new("spill");
        let output = tmp.path().join("sub/module.summaries");
        let mut spill = Spill::next_to(&output);
        assert!(matches!(spill, Spill::File { .. }));
        spill.write(b"abc").unwrap();
        spill.write(b"def").unwrap();
        let mut copied = Vec::new();
        spill.copy_to(&mut copied).unwrap();
        assert_eq!(copied, b"abcdef");
        assert_eq!(fs::read_dir(tmp.path().join("sub")).unwrap().count(), 1, "the scratch file only");
        drop(spill);
        assert_eq!(fs::read_dir(tmp.path().join("sub")).unwrap().count(), 0);
    }

    #[test]
    fn a_device_output_keeps_the_chunks_in_memory() {
        let mut spill = Spill::next_to(Path::new("/dev/null"));
        assert!(matches!(spill, Spill::Memory(_)));
        spill.write(b"xyz").unwrap();
        let mut copied = Vec::new();
        spill.copy_to(&mut copied).unwrap();
        assert_eq!(copied, b"xyz");
    }
}
