//! Module summary files: what downstream modules need to analyse calls into
//! this module's classes without re-reading them (compositional builds).
//!
//! The file is binary (see [`format`]): an index, then the classes in chunks of one
//! package each, compressed, each with its checksum. Everything is sorted and holds no
//! paths or timestamps, so identical inputs give identical bytes on any machine and
//! thread count. Readers decode only the chunks they reach ([`reader`]); which ones a
//! module reaches is worked out in [`crate::context`]. `racer summaries dump` prints a file as JSON.

use std::path::Path;
use std::sync::Arc;

use rayon::prelude::*;

mod codec;
mod format;
mod reader;

pub use reader::UpstreamFiles;

use crate::analysis::domain::Summary;
use crate::api::{Error, TOOL_VERSION};
use crate::classfile::model::{ClassHeader, InlineShape, MethodRef};
use crate::fxhash::FxHashMap;

pub const FORMAT: &str = "racer-summaries";
/// Bump whenever the meaning or shape of the file changes (1 was JSON).
pub const FORMAT_VERSION: u32 = 3;

/// What a module's analysis took from upstream summary files: only what it reaches.
#[derive(Default)]
pub struct Upstream {
    pub classes: Vec<Arc<ClassHeader>>,
    pub summaries: FxHashMap<MethodRef, Arc<Summary>>,
    pub shapes: FxHashMap<MethodRef, InlineShape>,
}

fn bad(path: &Path, what: &str) -> Error {
    Error(format!(
        "racer: {}: {what}; rebuild the upstream module to regenerate its summaries (e.g. run its racer task again)",
        path.display()
    ))
}

/// Writes a module's summary file atomically. `classes` are the module's class headers,
/// `inline` its inline shapes and `summaries` its methods' summaries, in any order.
pub fn write(
    path: &Path,
    mut classes: Vec<ClassHeader>,
    inline: Vec<(MethodRef, InlineShape)>,
    summaries: Vec<(MethodRef, &Summary)>,
) -> Result<(), Error> {
    classes.sort_by(|a, b| {
        let (x, y) = (a.name.as_str(), b.name.as_str());
        format::package_of(x).cmp(format::package_of(y)).then(x.cmp(y))
    });
    // Chunk boundaries: a new package, or CHUNK_CLASSES classes.
    let mut chunk_of_class: FxHashMap<crate::sym::Sym, usize> = FxHashMap::default();
    let mut chunks: Vec<format::Chunk> = Vec::new();
    let mut package = None;
    for c in classes {
        let p = format::package_of(c.name.as_str());
        let full = chunks.last().map_or(true, |ch| ch.classes.len() >= format::CHUNK_CLASSES);
        if package != Some(p) || full {
            chunks.push(format::Chunk { classes: Vec::new(), inline: Vec::new(), summaries: Default::default() });
            package = Some(p);
        }
        chunk_of_class.insert(c.name, chunks.len() - 1);
        chunks.last_mut().expect("a chunk").classes.push(c);
    }
    for (m, shape) in inline {
        if let Some(&i) = chunk_of_class.get(&m.class) {
            chunks[i].inline.push((m, shape));
        }
    }
    let mut by_chunk: Vec<Vec<(MethodRef, &Summary)>> = vec![Vec::new(); chunks.len()];
    for (m, s) in summaries {
        if let Some(&i) = chunk_of_class.get(&m.class) {
            by_chunk[i].push((m, s));
        }
    }
    let mut encoded: Vec<format::EncodedChunk> = chunks
        .into_par_iter()
        .zip(by_chunk.into_par_iter())
        .map(|(mut chunk, mut sums)| {
            chunk.inline.sort_by(|a, b| a.0.cmp(&b.0));
            sums.sort_by(|a, b| a.0.cmp(&b.0));
            chunk.summaries = codec::encode(&sums);
            format::encode_chunk(&chunk)
        })
        .collect();
    let head = format::encode_index(TOOL_VERSION, &mut encoded, FORMAT_VERSION);
    crate::report::write::write_atomic_with(path, |w| {
        w.write_all(&head)?;
        for c in &encoded {
            w.write_all(&c.bytes)?;
        }
        Ok(())
    })
}

/// The whole file as JSON, every chunk checked (for debugging: `racer summaries dump`).
pub fn dump(path: &Path) -> Result<String, Error> {
    let files = UpstreamFiles::open(&[path.to_path_buf()])?;
    let mut classes = Vec::new();
    let mut inline = Vec::new();
    let mut summaries = Vec::new();
    for (_, chunk) in files.all_chunks()? {
        let mut c: Vec<&Arc<ClassHeader>> = chunk.classes.values().collect();
        c.sort_by(|a, b| a.name.cmp(&b.name));
        classes.extend(c.into_iter().map(|h| serde_json::to_value(&**h)));
        let mut i: Vec<_> = chunk.shapes.iter().collect();
        i.sort_by(|a, b| a.0.cmp(b.0));
        inline.extend(i.into_iter().map(|(m, s)| serde_json::to_value((m, s))));
        let mut s: Vec<_> = chunk.summaries.iter().collect();
        s.sort_by(|a, b| a.0.cmp(b.0));
        summaries.extend(s.into_iter().map(|(m, s)| serde_json::to_value(serde_json::json!({"method": m, "summary": &**s}))));
    }
    let collect = |v: Vec<serde_json::Result<serde_json::Value>>| -> Result<Vec<serde_json::Value>, Error> {
        v.into_iter().collect::<Result<_, _>>().map_err(|e| Error(format!("racer: {}: {e}", path.display())))
    };
    let json = serde_json::json!({
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "tool_version": TOOL_VERSION,
        "classes": collect(classes)?,
        "inline": collect(inline)?,
        "summaries": collect(summaries)?,
    });
    let mut text = serde_json::to_string_pretty(&json).map_err(|e| Error(format!("racer: {}: {e}", path.display())))?;
    text.push('\n');
    Ok(text)
}
