//! Lazy reading of upstream summary files: opening a file reads and checks its prefix and
//! index only; a chunk is read (one positioned read of its bytes), checked and its class
//! headers decoded the first time a class or method in it is asked for, and its summaries
//! the first time a method in it is. What a downstream module costs thus
//! follows the classes it reaches, not the size of its upstream modules.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use once_cell::sync::OnceCell;

use super::format::{self, ChunkEntry, PREFIX_LEN};
use super::{bad, codec, FORMAT_VERSION};
use crate::analysis::domain::Summary;
use crate::analysis::kept_schedulers::ModuleSchedulers;
use crate::api::{Diagnostic, Error, TOOL_VERSION};
use crate::classfile::model::{ClassHeader, InlineShape, MethodRef};
use crate::fxhash::FxHashMap;
use crate::sym::Sym;

/// A chunk read and checked, whose parts are decoded when first asked for. Errors say what
/// is malformed (the caller names the file).
pub struct Loaded {
    package: String,
    bytes: Vec<u8>,
    classes: FxHashMap<Sym, (Range<usize>, OnceCell<Arc<ClassHeader>>)>,
    rest: usize,
    methods: OnceCell<Methods>,
}

/// A chunk's inline shapes and summaries, decoded.
struct Methods {
    shapes: FxHashMap<MethodRef, InlineShape>,
    summaries: codec::Decoder,
}

impl Loaded {
    fn new(package: String, chunk: format::ReadChunk) -> Loaded {
        let classes = chunk.classes.into_iter().map(|(name, range)| (Sym::new(&name), (range, OnceCell::new()))).collect();
        Loaded { package, bytes: chunk.bytes, classes, rest: chunk.rest, methods: OnceCell::new() }
    }

    pub fn has_class(&self, name: Sym) -> bool {
        self.classes.contains_key(&name)
    }

    /// The names of the chunk's classes, in no order (known without decoding anything).
    pub fn class_names(&self) -> impl Iterator<Item = Sym> + '_ {
        self.classes.keys().copied()
    }

    pub fn class(&self, name: Sym) -> Result<Option<Arc<ClassHeader>>, String> {
        let Some((range, header)) = self.classes.get(&name) else { return Ok(None) };
        let decode = || format::decode_header(name.as_str(), &self.bytes[range.clone()]).map(Arc::new);
        header.get_or_try_init(decode).map(|h| Some(h.clone()))
    }

    /// The chunk's class headers, sorted by name.
    pub fn all_classes(&self) -> Result<Vec<Arc<ClassHeader>>, String> {
        let mut names: Vec<Sym> = self.classes.keys().copied().collect();
        names.sort();
        names.into_iter().map(|n| self.class(n).map(|h| h.expect("a listed class"))).collect()
    }

    fn methods(&self) -> Result<&Methods, String> {
        self.methods.get_or_try_init(|| {
            let (shapes, encoded) = format::decode_rest(&self.package, &self.bytes[self.rest..])?;
            Ok(Methods { shapes: shapes.into_iter().collect(), summaries: codec::Decoder::new(encoded)? })
        })
    }

    /// The summary and inline shape of method `m` of a class of the chunk.
    pub fn method(&self, m: &MethodRef) -> Result<(Option<Arc<Summary>>, Option<InlineShape>), String> {
        let methods = self.methods()?;
        Ok((methods.summaries.get(m)?, methods.shapes.get(m).cloned()))
    }

    pub fn shapes(&self) -> Result<&FxHashMap<MethodRef, InlineShape>, String> {
        Ok(&self.methods()?.shapes)
    }

    /// Every summary of the chunk, in the chunk's order.
    pub fn all_summaries(&self) -> Result<Vec<(MethodRef, Arc<Summary>)>, String> {
        self.methods()?.summaries.all()
    }
}

struct OpenFile {
    path: PathBuf,
    /// The analysis mode that made the file (`Extensions::mode`).
    mode: String,
    /// What the module says of the schedulers it keeps.
    schedulers: ModuleSchedulers,
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

    /// A warning for each file made in another analysis mode than `mode`: calls into its
    /// classes then follow the other mode's rules (an extension turned off upstream misses
    /// there what it would find here), so the module's reports may differ from those of
    /// analysing everything at once.
    pub fn made_in_other_modes(&self, mode: &str) -> Vec<Diagnostic> {
        self.files
            .iter()
            .filter(|f| f.mode != mode)
            .map(|f| Diagnostic {
                file: f.path.display().to_string(),
                message: format!(
                    "summaries made in {} mode, but this run is in {mode} mode: calls into these classes follow the other mode's rules; give every module the same racerd-compat and without-extension options",
                    f.mode
                ),
            })
            .collect()
    }

    /// What all the files' modules say of the schedulers they keep (a file says it of its own
    /// module only; a build passes every transitive upstream module's file).
    pub fn schedulers(&self) -> ModuleSchedulers {
        let mut all = ModuleSchedulers::default();
        for f in &self.files {
            all.merge(&f.schedulers);
        }
        all
    }

    /// The analysis mode that made the first file (`racer summaries dump` opens one).
    pub fn first_mode(&self) -> Option<&str> {
        self.files.first().map(|f| f.mode.as_str())
    }

    /// Whether any file has classes in a package starting with `prefix`.
    pub fn has_packages_under(&self, prefix: &str) -> bool {
        self.packages.keys().any(|p| p.starts_with(prefix))
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
            let found = self.chunk(fi, ci)?.class(name).map_err(|e| self.malformed(fi, &e))?;
            if found.is_some() {
                return Ok(found);
            }
        }
        Ok(None)
    }

    /// The summary and inline shape of an upstream method, from the file declaring its class.
    pub fn method(&self, m: &MethodRef) -> Result<(Option<Arc<Summary>>, Option<InlineShape>), Error> {
        for (fi, ci) in self.chunks_of(m.class.as_str()) {
            let chunk = self.chunk(fi, ci)?;
            if chunk.has_class(m.class) {
                return chunk.method(m).map_err(|e| self.malformed(fi, &e));
            }
        }
        Ok((None, None))
    }

    fn malformed(&self, fi: usize, what: &str) -> Error {
        bad(&self.files[fi].path, &format!("malformed summary file: {what}"))
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
    let (mode, schedulers, chunks) = entries().map_err(|e| bad(path, &e))?;
    if let Some(c) = chunks.iter().find(|c| c.offset + c.len as u64 > size) {
        return Err(bad(path, &format!("truncated summary file (package '{}' is cut off)", c.package)));
    }
    let loaded = (0..chunks.len()).map(|_| OnceCell::new()).collect();
    Ok(OpenFile { path: path.to_path_buf(), mode, schedulers, file: Mutex::new(file), chunks, loaded })
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
    Ok(Loaded::new(e.package.clone(), chunk))
}
