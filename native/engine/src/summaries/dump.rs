//! `racer summaries dump FILE`: a summary file as JSON, for debugging. Streamed: one chunk is
//! decoded at a time and each element is written as it is made, so a file of any size dumps
//! in little memory (the JSON of a large module is many times the size of its file).

use std::cell::RefCell;
use std::io::Write;
use std::path::Path;

use serde::ser::{Error as _, SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};

use super::reader::{Loaded, UpstreamFiles};
use super::{bad, FORMAT, FORMAT_VERSION};
use crate::api::{Error, TOOL_VERSION};

/// Writes the dump of the summary file at `path` to `out`.
pub fn write(path: &Path, out: &mut dyn Write) -> Result<(), Error> {
    let files = UpstreamFiles::open(&[path.to_path_buf()])?;
    // Every chunk is checked before anything is printed: a damaged file prints only its error.
    files.each_chunk(|path, chunk| {
        let decoded = chunk.all_classes().and_then(|_| chunk.all_summaries());
        decoded.map(drop).map_err(|m| bad(path, &format!("malformed summary file: {m}")))
    })?;
    let failure = RefCell::new(None);
    let dump = Dump { files: &files, failure: &failure };
    let mut out = std::io::BufWriter::new(out);
    let written = serde_json::to_writer_pretty(&mut out, &dump).map_err(|e| e.to_string());
    if let Some(e) = failure.into_inner() {
        return Err(e);
    }
    written.and_then(|_| out.write_all(b"\n").and_then(|_| out.flush()).map_err(|e| e.to_string()))
        .map_err(|e| Error(format!("racer: {}: {e}", path.display())))
}

#[derive(Clone, Copy)]
enum Section {
    Classes,
    Inline,
    Summaries,
}

struct Dump<'a> {
    files: &'a UpstreamFiles,
    /// A decoding error met while writing (serde's error would lose its text).
    failure: &'a RefCell<Option<Error>>,
}

/// Keys in alphabetical order, as the dump has always listed them.
impl Serialize for Dump<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(7))?;
        map.serialize_entry("analysis_mode", &self.files.first_mode())?;
        map.serialize_entry("classes", &Elements { dump: self, section: Section::Classes })?;
        map.serialize_entry("format", FORMAT)?;
        map.serialize_entry("format_version", &FORMAT_VERSION)?;
        map.serialize_entry("inline", &Elements { dump: self, section: Section::Inline })?;
        map.serialize_entry("summaries", &Elements { dump: self, section: Section::Summaries })?;
        map.serialize_entry("tool_version", TOOL_VERSION)?;
        map.end()
    }
}

struct Elements<'a> {
    dump: &'a Dump<'a>,
    section: Section,
}

impl Serialize for Elements<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(None)?;
        let mut written: Result<(), S::Error> = Ok(());
        let visited = self.dump.files.each_chunk(|path, chunk| {
            for value in elements(path, chunk, self.section)? {
                if written.is_ok() {
                    written = seq.serialize_element(&value);
                }
            }
            Ok(())
        });
        written?;
        if let Err(e) = visited {
            let text = e.0.clone();
            *self.dump.failure.borrow_mut() = Some(e);
            return Err(S::Error::custom(text));
        }
        seq.end()
    }
}

/// One chunk's elements of a section, sorted, as JSON values (whose object keys are sorted).
fn elements(path: &Path, chunk: &Loaded, section: Section) -> Result<Vec<serde_json::Value>, Error> {
    let json = |r: serde_json::Result<serde_json::Value>| r.map_err(|e| Error(format!("racer: {}: {e}", path.display())));
    let mut out = Vec::new();
    match section {
        Section::Classes => {
            let malformed = |m: String| bad(path, &format!("malformed summary file: {m}"));
            for c in chunk.all_classes().map_err(malformed)? {
                out.push(json(serde_json::to_value(&*c))?);
            }
        }
        Section::Inline => {
            let shapes = chunk.shapes().map_err(|m| bad(path, &format!("malformed summary file: {m}")))?;
            let mut shapes: Vec<_> = shapes.iter().collect();
            shapes.sort_by(|a, b| a.0.cmp(b.0));
            for shape in shapes {
                out.push(json(serde_json::to_value(shape))?);
            }
        }
        Section::Summaries => {
            let all = chunk.all_summaries().map_err(|m| bad(path, &format!("malformed summary file: {m}")))?;
            let mut summaries: Vec<_> = all.iter().collect();
            summaries.sort_by(|a, b| a.0.cmp(&b.0));
            for (m, s) in summaries {
                out.push(json(serde_json::to_value(serde_json::json!({"method": m, "summary": &**s})))?);
            }
        }
    }
    Ok(out)
}
