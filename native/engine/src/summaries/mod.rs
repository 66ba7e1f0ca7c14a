//! Module summary files: what downstream modules need to analyse calls into
//! this module's classes without re-reading them (issue: compositional builds).
//!
//! The file is JSON: a format tag and version, the tool version, the class
//! headers (hierarchy, annotations, field flags) and every analysed method's
//! summary, all sorted, with no paths or timestamps, so identical inputs give
//! identical bytes on any machine.

use crate::fxhash::FxHashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

mod codec;

use crate::analysis::domain::Summary;
use crate::api::{Error, TOOL_VERSION};
use crate::classfile::model::{ClassHeader, InlineShape, MethodRef};

pub const FORMAT: &str = "racer-summaries";
/// Bump whenever the meaning or shape of the file changes.
pub const FORMAT_VERSION: u32 = 1;

#[derive(Serialize, Deserialize)]
pub struct SummaryFile {
    pub format: String,
    pub format_version: u32,
    pub tool_version: String,
    pub classes: Vec<ClassHeader>,
    /// Synthetic accessors that callers inline (2.4), sorted by method.
    pub inline: Vec<(MethodRef, InlineShape)>,
    pub summaries: codec::Encoded,
}

impl SummaryFile {
    /// `summaries` must be sorted by method (the file is then byte-identical for identical input).
    pub fn new(classes: Vec<ClassHeader>, inline: Vec<(MethodRef, InlineShape)>, summaries: &[(MethodRef, &Summary)]) -> SummaryFile {
        SummaryFile {
            format: FORMAT.into(),
            format_version: FORMAT_VERSION,
            tool_version: TOOL_VERSION.into(),
            classes,
            inline,
            summaries: codec::encode(summaries),
        }
    }
}

/// Everything loaded from upstream summary files.
#[derive(Default)]
pub struct Upstream {
    pub classes: Vec<Arc<ClassHeader>>,
    pub summaries: FxHashMap<MethodRef, Arc<Summary>>,
    pub shapes: FxHashMap<MethodRef, InlineShape>,
}

/// Minimal header read first, so version mismatches are reported before the
/// (possibly incompatible) body is decoded.
#[derive(Deserialize)]
struct Header {
    format: Option<String>,
    format_version: Option<u32>,
    tool_version: Option<String>,
}

fn bad(path: &Path, what: &str) -> Error {
    Error(format!(
        "racer: {}: {what}; rebuild the upstream module to regenerate its summaries (e.g. run its racer task again)",
        path.display()
    ))
}

pub fn load_all(paths: &[PathBuf]) -> Result<Upstream, Error> {
    let files: Vec<Result<(SummaryFile, Vec<(MethodRef, Summary)>), Error>> = paths
        .par_iter()
        .map(|p| {
            let f = load(p)?;
            let decoded = codec::decode(&f.summaries).map_err(|e| bad(p, &format!("malformed summary file: {e}")))?;
            Ok((f, decoded))
        })
        .collect();
    let mut up = Upstream::default();
    for f in files {
        let f = f?;
        let (f, decoded) = f;
        for c in f.classes {
            up.classes.push(Arc::new(c));
        }
        for (m, shape) in f.inline {
            up.shapes.insert(m, shape);
        }
        for (m, s) in decoded {
            up.summaries.entry(m).or_insert_with(|| Arc::new(s));
        }
    }
    Ok(up)
}

pub fn load(path: &Path) -> Result<SummaryFile, Error> {
    let bytes = std::fs::read(path).map_err(|e| {
        Error(format!("racer: {}: cannot read summary file: {}", path.display(), e))
    })?;
    // One full parse when all is well; only a file that does not parse is looked at
    // again, for its header, to say what is wrong with it.
    let parsed: Result<SummaryFile, serde_json::Error> = serde_json::from_slice(&bytes);
    let header = match &parsed {
        Ok(f) => Header {
            format: Some(f.format.clone()),
            format_version: Some(f.format_version),
            tool_version: Some(f.tool_version.clone()),
        },
        Err(_) => serde_json::from_slice::<Header>(&bytes).map_err(|e| {
            if e.is_eof() {
                bad(path, &format!("truncated summary file ({e})"))
            } else {
                bad(path, &format!("not a racer summary file (invalid JSON: {e})"))
            }
        })?,
    };
    if header.format.as_deref() != Some(FORMAT) {
        return Err(bad(path, "not a racer summary file"));
    }
    if header.format_version != Some(FORMAT_VERSION) {
        return Err(bad(
            path,
            &format!(
                "summary format version {} is not supported (this racer reads version {FORMAT_VERSION})",
                header.format_version.map_or("?".to_string(), |v| v.to_string())
            ),
        ));
    }
    let written_by = header.tool_version.unwrap_or_default();
    if written_by != TOOL_VERSION {
        return Err(bad(path, &format!("written by racer {written_by}, but this is racer {TOOL_VERSION}")));
    }
    parsed.map_err(|e| bad(path, &format!("malformed summary file: {e}")))
}

/// Writes the file atomically, streaming the JSON (summary files can be large).
pub fn write(path: &Path, file: &SummaryFile) -> Result<(), Error> {
    crate::report::write::write_atomic_with(path, |w| {
        serde_json::to_writer(&mut *w, file).map_err(std::io::Error::other)?;
        std::io::Write::write_all(w, b"\n")
    })
}
