//! `racer summaries dump FILE`: a summary file as JSON, for debugging. Streamed: one chunk is
//! decoded at a time and each element is written as it is made, so a file of any size dumps
//! in little memory (the JSON of a large module is many times the size of its file: a
//! framework jar's 94 MB file is more than 65 GB of JSON, which is why `--class` limits the
//! dump to the classes asked for, decoding only the chunks that hold them).

use std::cell::RefCell;
use std::io::Write;
use std::path::Path;

use serde::ser::{Error as _, SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};

use super::reader::{Loaded, UpstreamFiles};
use super::{bad, FORMAT, FORMAT_VERSION};
use crate::api::{Error, TOOL_VERSION};
use crate::sym::Sym;
use crate::triage::glob::ClassGlob;

/// Writes the dump of the summary file at `path` to `out`: of the classes matching one of
/// `classes` (names or globs, as `--ignore-class` takes them), or of every class if none.
pub fn write(path: &Path, classes: &[String], out: &mut dyn Write) -> Result<(), Error> {
    let chosen = Chosen::new(classes)?;
    let files = UpstreamFiles::open(&[path.to_path_buf()])?;
    // Every chunk dumped is checked before anything is printed: a damaged file prints only
    // its error.
    files.each_chunk(|path, chunk| {
        if !chosen.any_in(chunk) {
            return Ok(());
        }
        let decoded = chunk.all_classes().and_then(|_| chunk.all_summaries());
        decoded.map(drop).map_err(|m| bad(path, &format!("malformed summary file: {m}")))
    })?;
    let failure = RefCell::new(None);
    let dump = Dump { files: &files, chosen: &chosen, failure: &failure };
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

/// The classes a dump shows.
struct Chosen(Option<Vec<ClassGlob>>);

impl Chosen {
    fn new(patterns: &[String]) -> Result<Chosen, Error> {
        if patterns.is_empty() {
            return Ok(Chosen(None));
        }
        let globs = patterns.iter().map(|p| ClassGlob::new(p)).collect::<Result<_, _>>().map_err(|e| Error(format!("racer: --class: {e}")))?;
        Ok(Chosen(Some(globs)))
    }

    fn class(&self, name: Sym) -> bool {
        self.0.as_ref().map_or(true, |globs| globs.iter().any(|g| g.is_match(name.as_str())))
    }

    fn any_in(&self, chunk: &Loaded) -> bool {
        self.0.is_none() || chunk.class_names().any(|c| self.class(c))
    }
}

struct Dump<'a> {
    files: &'a UpstreamFiles,
    chosen: &'a Chosen,
    /// A decoding error met while writing (serde's error would lose its text).
    failure: &'a RefCell<Option<Error>>,
}

/// Keys in alphabetical order, as the dump has always listed them.
impl Serialize for Dump<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(8))?;
        map.serialize_entry("analysis_mode", &self.files.first_mode())?;
        map.serialize_entry("classes", &Elements { dump: self, section: Section::Classes })?;
        map.serialize_entry("format", FORMAT)?;
        map.serialize_entry("format_version", &FORMAT_VERSION)?;
        map.serialize_entry("inline", &Elements { dump: self, section: Section::Inline })?;
        map.serialize_entry("kept_schedulers", &self.files.schedulers())?;
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
        let chosen = self.dump.chosen;
        let visited = self.dump.files.each_chunk(|path, chunk| {
            if !chosen.any_in(chunk) {
                return Ok(());
            }
            for value in elements(path, chunk, self.section, chosen)? {
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
fn elements(path: &Path, chunk: &Loaded, section: Section, chosen: &Chosen) -> Result<Vec<serde_json::Value>, Error> {
    let json = |r: serde_json::Result<serde_json::Value>| r.map_err(|e| Error(format!("racer: {}: {e}", path.display())));
    let mut out = Vec::new();
    match section {
        Section::Classes => {
            let malformed = |m: String| bad(path, &format!("malformed summary file: {m}"));
            for c in chunk.all_classes().map_err(malformed)?.into_iter().filter(|c| chosen.class(c.name)) {
                out.push(json(serde_json::to_value(&*c))?);
            }
        }
        Section::Inline => {
            let shapes = chunk.shapes().map_err(|m| bad(path, &format!("malformed summary file: {m}")))?;
            let mut shapes: Vec<_> = shapes.iter().filter(|(m, _)| chosen.class(m.class)).collect();
            shapes.sort_by(|a, b| a.0.cmp(b.0));
            for shape in shapes {
                out.push(json(serde_json::to_value(shape))?);
            }
        }
        Section::Summaries => {
            let all = chunk.all_summaries().map_err(|m| bad(path, &format!("malformed summary file: {m}")))?;
            let mut summaries: Vec<_> = all.iter().filter(|(m, _)| chosen.class(m.class)).collect();
            summaries.sort_by(|a, b| a.0.cmp(&b.0));
            for (m, s) in summaries {
                out.push(json(serde_json::to_value(serde_json::json!({"method": m, "summary": &**s})))?);
            }
        }
    }
    Ok(out)
}
