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
pub mod dump;
mod format;
mod reader;
mod spill;

pub use reader::UpstreamFiles;

use crate::analysis::domain::Summary;
use crate::analysis::kept_schedulers::ModuleSchedulers;
use crate::api::{Error, TOOL_VERSION};
use crate::classfile::model::{Class, ClassHeader, InlineShape, MethodHeader, MethodRef, ACC_PRIVATE};
use crate::fxhash::{FxHashMap, FxHashSet};

pub const FORMAT: &str = "racer-summaries";
/// Bump whenever the meaning or shape of the file changes (1 was JSON).
pub const FORMAT_VERSION: u32 = 33;
/// Chunks encoded (in parallel) before they are set aside: enough to keep both threads busy
/// past the odd large chunk, few enough that their encoded bytes stay small.
const CHUNKS_PER_BATCH: usize = 32;

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

/// Whether another module can name a method: private methods cannot be called or
/// overridden from outside their class's module, so they are left out of summary files
/// unless annotated (annotations are read from headers).
fn downstream_visible(m: &MethodHeader) -> bool {
    m.flags & ACC_PRIVATE == 0 || !m.annotations.is_empty()
}

/// What other modules need of a class header: its methods they can name.
pub fn downstream_view(header: &ClassHeader) -> ClassHeader {
    let mut h = header.clone();
    h.methods.retain(downstream_visible);
    h
}

/// An anonymous or local class (`Outer$1`, `Outer$1Local`, `Outer$run$1`): Java code in
/// another module cannot name it, so it never calls, overrides or allocates it there. Only
/// its initializers can be asked for downstream (the synchronized-container filter, 8.4,
/// reads the constructors of the classes declaring the fields it meets in summaries).
fn is_unnamed_class(name: &str) -> bool {
    let simple = name.rsplit('.').next().unwrap_or(name);
    simple.split('$').skip(1).any(|part| part.starts_with(|c: char| c.is_ascii_digit()))
}

/// The methods whose summaries and inline shapes a module's summary file carries: those
/// another module can name (not those of anonymous and local classes, but their
/// initializers), and the targets of the inlined forwarders among them (a downstream
/// analysis follows a synthetic accessor into the private method it calls). A private
/// method's effect reaches downstream through the summaries of its callers, so it needs no
/// summary of its own.
pub fn downstream_methods(classes: &[Arc<Class>]) -> FxHashSet<MethodRef> {
    let mut out = FxHashSet::default();
    for class in classes {
        // Kotlin inline functions may use their own anonymous classes in other modules (a
        // non-capturing lambda's singleton is not copied): Kotlin classes keep everything.
        let unnamed = is_unnamed_class(class.header.name.as_str()) && !class.header.is_kotlin();
        for m in &class.methods {
            let initializer = matches!(m.header.name.as_str(), "<init>" | "<clinit>");
            if downstream_visible(&m.header) && (!unnamed || initializer) {
                out.insert(MethodRef { class: class.header.name, name: m.header.name, descriptor: m.header.descriptor });
            }
        }
    }
    // Forward targets of forwarders carried, and of those targets in turn.
    let shapes: FxHashMap<MethodRef, &InlineShape> = classes
        .iter()
        .flat_map(|c| {
            c.methods.iter().filter_map(move |m| {
                let r = MethodRef { class: c.header.name, name: m.header.name, descriptor: m.header.descriptor };
                m.inline_shape.as_ref().map(|s| (r, s))
            })
        })
        .collect();
    let mut stack: Vec<MethodRef> = out.iter().copied().collect();
    while let Some(m) = stack.pop() {
        if let Some(InlineShape::Forward(next, _)) = shapes.get(&m) {
            if out.insert(*next) {
                stack.push(*next);
            }
        }
    }
    out
}

/// Writes a module's summary file atomically. `mode` is the analysis mode that made it
/// (`Extensions::mode`), `schedulers` what it says of the schedulers it keeps, `classes`
/// are the module's class headers, `inline` its inline shapes and `summaries` its methods'
/// summaries, in any order.
pub fn write(
    path: &Path,
    mode: &str,
    schedulers: &ModuleSchedulers,
    mut classes: Vec<ClassHeader>,
    inline: Vec<(MethodRef, InlineShape)>,
    summaries: Vec<(MethodRef, &Summary)>,
) -> Result<(), Error> {
    let started = std::time::Instant::now();
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
    let cannot = |e: std::io::Error| Error(format!("cannot write {}: {e}", path.display()));
    // Encoded in parallel a batch at a time, and set aside in order.
    let mut spill = spill::Spill::next_to(path);
    let mut entries = Vec::with_capacity(chunks.len());
    let mut jobs = chunks.into_iter().zip(by_chunk);
    loop {
        let batch: Vec<_> = jobs.by_ref().take(CHUNKS_PER_BATCH).collect();
        if batch.is_empty() {
            break;
        }
        let encoded: Vec<format::EncodedChunk> = batch
            .into_par_iter()
            .map(|(mut chunk, mut sums)| {
                chunk.inline.sort_by(|a, b| a.0.cmp(&b.0));
                sums.sort_by(|a, b| a.0.cmp(&b.0));
                chunk.summaries = codec::encode(&sums);
                format::encode_chunk(&chunk)
            })
            .collect();
        for c in encoded {
            spill.write(&c.bytes).map_err(cannot)?;
            entries.push(c.entry);
        }
    }
    if std::env::var_os("RACER_TIMINGS").is_some() {
        eprintln!("racer: timing:   summaries encoded: {:.4}s", started.elapsed().as_secs_f64());
    }
    let head = format::IndexHead { tool_version: TOOL_VERSION, mode, schedulers };
    let head = format::encode_index(&head, &mut entries, FORMAT_VERSION);
    crate::report::write::write_atomic_with(path, |w| {
        w.write_all(&head)?;
        spill.copy_to(w)
    })
}

/// The summary file at `path` as JSON text (see [`dump::write`], which streams it).
pub fn dump(path: &Path) -> Result<String, Error> {
    let mut out = Vec::new();
    dump::write(path, &[], &mut out)?;
    String::from_utf8(out).map_err(|e| Error(format!("racer: {}: {e}", path.display())))
}

#[cfg(test)]
mod tests {
    use super::is_unnamed_class;

    #[test]
    fn anonymous_and_local_classes_are_unnamed() {
        for name in ["a.b.Outer$1", "a.b.Outer$1Local", "a.b.Outer$Inner$2", "a.b.FooKt$run$1", "Top$3"] {
            assert!(is_unnamed_class(name), "{name}");
        }
        for name in ["a.b.Outer", "a.b.Outer$Inner", "a.b.Foo$Companion", "a.b.Scala$", "a1.b2.C3"] {
            assert!(!is_unnamed_class(name), "{name}");
        }
    }
}
