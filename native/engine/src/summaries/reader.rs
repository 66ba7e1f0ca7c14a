//! Lazy reading of upstream summary files: opening a file reads and checks its prefix and
//! index only; a chunk is read (one positioned read of its bytes), checked and decoded the
//! first time a class or method in it is asked for. What a downstream module costs thus
//! follows the classes it reaches, not the size of its upstream modules.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use once_cell::sync::OnceCell;

use super::format::{self, ChunkEntry, PREFIX_LEN};
use super::{bad, codec, FORMAT_VERSION};
use crate::analysis::domain::Summary;
use crate::api::{Error, TOOL_VERSION};
use crate::classfile::model::{ClassHeader, InlineShape, MethodRef};
use crate::fxhash::FxHashMap;
use crate::sym::Sym;

/// A decoded chunk.
pub struct Loaded {
    pub classes: FxHashMap<Sym, Arc<ClassHeader>>,
    pub summaries: codec::Decoder,
    pub shapes: FxHashMap<MethodRef, InlineShape>,
}

struct OpenFile {
    path: PathBuf,
    file: Mutex<File>,
    chunks: Vec<ChunkEntry>,
    loaded: Vec<OnceCell<Arc<Loaded>>>,
}

/// The upstream summary files of a run, opened.
pub struct UpstreamFiles {
    files: Vec<OpenFile>,
    /// Package -> (file, chunk) pairs holding classes of it, in file order.
    packages: FxHashMap<String, Vec<(usize, usize)>>,
}

impl UpstreamFiles {
    pub fn open(paths: &[PathBuf]) -> Result<UpstreamFiles, Error> {
        let files: Vec<OpenFile> = paths.iter().map(|p| open(p)).collect::<Result<_, _>>()?;
        let mut packages: FxHashMap<String, Vec<(usize, usize)>> = FxHashMap::default();
        for (fi, f) in files.iter().enumerate() {
            for (ci, c) in f.chunks.iter().enumerate() {
                packages.entry(c.package.clone()).or_default().push((fi, ci));
            }
        }
        Ok(UpstreamFiles { files, packages })
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The chunks that may hold `class`, first file first.
    fn chunks_of<'s>(&'s self, class: &'s str) -> impl Iterator<Item = (usize, usize)> + 's {
        let candidates = self.packages.get(format::package_of(class)).map(|v| v.as_slice()).unwrap_or(&[]);
        candidates.iter().copied().filter(move |&(fi, ci)| {
            let e = &self.files[fi].chunks[ci];
            e.first.as_str() <= class && class <= e.last.as_str()
        })
    }

    fn chunk(&self, fi: usize, ci: usize) -> Result<&Arc<Loaded>, Error> {
        let f = &self.files[fi];
        f.loaded[ci].get_or_try_init(|| load_chunk(f, ci).map(Arc::new))
    }

    /// The header of an upstream class (the first file that has it wins).
    pub fn class(&self, name: Sym) -> Result<Option<Arc<ClassHeader>>, Error> {
        for (fi, ci) in self.chunks_of(name.as_str()) {
            if let Some(h) = self.chunk(fi, ci)?.classes.get(&name) {
                return Ok(Some(h.clone()));
            }
        }
        Ok(None)
    }

    /// The summary and inline shape of an upstream method, from the file declaring its class.
    pub fn method(&self, m: &MethodRef) -> Result<(Option<Arc<Summary>>, Option<InlineShape>), Error> {
        for (fi, ci) in self.chunks_of(m.class.as_str()) {
            let chunk = self.chunk(fi, ci)?;
            if chunk.classes.contains_key(&m.class) {
                let summary = chunk.summaries.get(m).map_err(|e| bad(&self.files[fi].path, &format!("malformed summary file: {e}")))?;
                return Ok((summary, chunk.shapes.get(m).cloned()));
            }
        }
        Ok((None, None))
    }

    /// Visits every chunk of every file in order, each decoded for the visit only and not
    /// kept (`racer summaries dump` of a large file holds one chunk at a time).
    pub fn each_chunk(&self, mut visit: impl FnMut(&Path, &Loaded) -> Result<(), Error>) -> Result<(), Error> {
        for f in &self.files {
            for ci in 0..f.chunks.len() {
                visit(&f.path, &load_chunk(f, ci)?)?;
            }
        }
        Ok(())
    }
}

fn read_at(file: &mut File, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
    file.seek(SeekFrom::Start(offset))?;
    file.read_exact(buf)
}

fn open(path: &Path) -> Result<OpenFile, Error> {
    let cannot = |e: std::io::Error| Error(format!("racer: {}: cannot read summary file: {e}", path.display()));
    let mut file = File::open(path).map_err(cannot)?;
    let size = file.metadata().map_err(cannot)?.len();
    let mut head = Vec::with_capacity(PREFIX_LEN);
    (&mut file).take(PREFIX_LEN as u64).read_to_end(&mut head).map_err(cannot)?;
    let prefix = match <&[u8; PREFIX_LEN]>::try_from(head.as_slice()) {
        Ok(bytes) => format::decode_prefix(bytes),
        Err(_) if !head.is_empty() && (head.starts_with(format::MAGIC) || format::MAGIC.starts_with(&head)) => {
            return Err(bad(path, "truncated summary file"));
        }
        Err(_) => None,
    };
    let Some(prefix) = prefix else {
        return Err(bad(path, &not_binary(&mut file)));
    };
    if prefix.format_version != FORMAT_VERSION {
        return Err(bad(
            path,
            &format!(
                "summary format version {} is not supported (this racer reads version {FORMAT_VERSION})",
                prefix.format_version
            ),
        ));
    }
    if (PREFIX_LEN + prefix.index_len) as u64 > size {
        return Err(bad(path, "truncated summary file"));
    }
    let mut index = vec![0u8; prefix.index_len];
    read_at(&mut file, PREFIX_LEN as u64, &mut index).map_err(cannot)?;
    if !format::checksum_matches(&index, prefix.index_crc) {
        return Err(bad(path, "checksum mismatch in the index (corrupt file)"));
    }
    let (written_by, entries) = format::decode_index(&index).map_err(|e| bad(path, &e))?;
    if written_by != TOOL_VERSION {
        return Err(bad(path, &format!("written by racer {written_by}, but this is racer {TOOL_VERSION}")));
    }
    let chunks = entries().map_err(|e| bad(path, &e))?;
    if let Some(c) = chunks.iter().find(|c| c.offset + c.len as u64 > size) {
        return Err(bad(path, &format!("truncated summary file (package '{}' is cut off)", c.package)));
    }
    let loaded = (0..chunks.len()).map(|_| OnceCell::new()).collect();
    Ok(OpenFile { path: path.to_path_buf(), file: Mutex::new(file), chunks, loaded })
}

/// What a file without the magic number is: an old JSON summary file says its version.
fn not_binary(file: &mut File) -> String {
    #[derive(serde::Deserialize)]
    struct OldHeader {
        format: Option<String>,
        format_version: Option<u32>,
    }
    let mut text = Vec::new();
    let old = file
        .seek(SeekFrom::Start(0))
        .and_then(|_| file.read_to_end(&mut text))
        .ok()
        .and_then(|_| serde_json::from_slice::<OldHeader>(&text).ok());
    match old {
        Some(OldHeader { format: Some(f), format_version: Some(v) }) if f == super::FORMAT => {
            format!("summary format version {v} is not supported (this racer reads version {FORMAT_VERSION})")
        }
        _ => "not a racer summary file".to_string(),
    }
}

fn load_chunk(f: &OpenFile, ci: usize) -> Result<Loaded, Error> {
    let e = &f.chunks[ci];
    let mut bytes = vec![0u8; e.len as usize];
    {
        let mut file = f.file.lock().unwrap_or_else(|p| p.into_inner());
        read_at(&mut file, e.offset, &mut bytes)
            .map_err(|err| Error(format!("racer: {}: cannot read summary file: {err}", f.path.display())))?;
    }
    let chunk = format::decode_chunk(e, &bytes).map_err(|m| bad(&f.path, &m))?;
    let summaries =
        codec::Decoder::new(chunk.summaries).map_err(|m| bad(&f.path, &format!("malformed summary file: {m}")))?;
    Ok(Loaded {
        classes: chunk.classes.into_iter().map(|c| (c.name, Arc::new(c))).collect(),
        summaries,
        shapes: chunk.inline.into_iter().collect(),
    })
}
