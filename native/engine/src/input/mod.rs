//! Finding and decoding class files in directories and jars.
//!
//! Reading, unzipping, parsing and lowering are fused per class and run on
//! rayon's pool; a class that cannot be read becomes a [`Diagnostic`] and the
//! rest go on.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use crate::api::{Diagnostic, Error};
use crate::classfile::lower::lower_class;
use crate::classfile::model::Class;

mod archive;
pub use archive::Jar;

/// Newest class file major version racer reads (Java 25).
pub const MAX_MAJOR_VERSION: u16 = 69;

/// Where one class file's bytes come from.
#[derive(Clone)]
pub enum Unit {
    File(PathBuf),
    JarEntry { jar: Arc<Jar>, index: usize, name: String },
}

impl Unit {
    pub fn display(&self) -> String {
        match self {
            Unit::File(p) => p.display().to_string(),
            Unit::JarEntry { jar, name, .. } => format!("{}!/{}", jar.display, name),
        }
    }

    /// The jar a jar entry comes from, or the class file itself.
    pub fn container(&self) -> String {
        match self {
            Unit::File(p) => p.display().to_string(),
            Unit::JarEntry { jar, .. } => jar.display.clone(),
        }
    }

    /// For a jar entry, the class its path below the archive's class folder names
    /// (`a/b/C.class` -> `a.b.C`).
    pub fn entry_class_name(&self) -> Option<String> {
        match self {
            Unit::JarEntry { jar, name, .. } => {
                Some(jar.class_path(name).unwrap_or(name).trim_end_matches(".class").replace('/', "."))
            }
            Unit::File(_) => None,
        }
    }

    fn read(&self) -> Result<Vec<u8>, String> {
        match self {
            Unit::File(p) => std::fs::read(p).map_err(|e| format!("cannot read: {e}")),
            Unit::JarEntry { jar, index, .. } => jar.entry_bytes(*index),
        }
    }
}

fn is_versioned_or_module(name: &str) -> bool {
    name.starts_with("META-INF/") || name.ends_with("module-info.class") || name.ends_with("package-info.class")
}

/// What one input path holds: the classes to analyse, and the classes an archive holds as
/// context for them (see [`archive`]).
#[derive(Default)]
pub struct Listed {
    pub units: Vec<Unit>,
    pub context: Vec<Unit>,
}

/// Lists the class units of one input path. A path that does not exist is a
/// fatal error; an unreadable jar is a diagnostic, and so is an input with no class.
pub fn list_units(path: &Path, diagnostics: &mut Vec<Diagnostic>) -> Result<Listed, Error> {
    let meta = std::fs::metadata(path)
        .map_err(|e| Error(format!("racer: {}: cannot open input: {}", path.display(), io_reason(&e))))?;
    let mut listed = Listed::default();
    let diagnostic = |message: String| Diagnostic { file: path.display().to_string(), message };
    if meta.is_dir() {
        let mut files = Vec::new();
        walk_dir(path, &mut files, diagnostics);
        files.sort();
        let before = files.len();
        listed.units.extend(files.into_iter().filter(|p| !is_versioned_or_module(&p.to_string_lossy())).map(Unit::File));
        if before == 0 {
            diagnostics.push(diagnostic("directory contains no class files".into()));
        }
    } else if path.extension().map_or(false, |e| e == "class") {
        listed.units.push(Unit::File(path.to_path_buf()));
    } else {
        match open_jar(path) {
            Ok(jar) => {
                let mut problems = Vec::new();
                let opened = archive::contents(&jar, &mut problems);
                diagnostics.extend(problems.into_iter().map(diagnostic));
                if opened.classes.is_empty() {
                    diagnostics.push(diagnostic(
                        "archive contains no class files (none at its root, in classes.jar, WEB-INF/classes or BOOT-INF/classes)".into(),
                    ));
                }
                listed = Listed { units: opened.classes, context: opened.context };
            }
            Err(message) => diagnostics.push(diagnostic(message)),
        }
    }
    Ok(listed)
}

fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

fn walk_dir(dir: &Path, out: &mut Vec<PathBuf>, diagnostics: &mut Vec<Diagnostic>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            diagnostics.push(Diagnostic { file: dir.display().to_string(), message: format!("cannot list directory: {}", io_reason(&e)) });
            return;
        }
    };
    for entry in entries.flatten() {
        let p = entry.path();
        match entry.file_type() {
            Ok(t) if t.is_dir() => walk_dir(&p, out, diagnostics),
            Ok(_) if p.extension().map_or(false, |e| e == "class") => out.push(p),
            _ => {}
        }
    }
}

fn open_jar(path: &Path) -> Result<Arc<Jar>, String> {
    let bytes: Arc<[u8]> = std::fs::read(path).map_err(|e| format!("cannot read: {}", io_reason(&e)))?.into();
    archive::open_bytes(path.display().to_string(), bytes)
}

/// Reads, parses and lowers every unit in parallel. Order of the result follows `units`.
pub fn load_classes(units: &[Unit], with_bodies: bool) -> Vec<Result<Class, Diagnostic>> {
    // Small pieces: left to itself, rayon can hand one thread a last run of a thousand
    // classes while the other has nothing left (a twentieth of the phase on the corpus).
    units.par_iter().with_max_len(16).map(|u| load_one(u, with_bodies)).collect()
}

pub fn load_one(unit: &Unit, with_bodies: bool) -> Result<Class, Diagnostic> {
    crate::memory::check();
    let fail = |message: String| Diagnostic { file: unit.display(), message };
    let bytes = unit.read().map_err(fail)?;
    decode(&bytes, with_bodies).map_err(fail)
}

/// Parses class bytes (guarding against parser panics) and lowers them.
pub fn decode(bytes: &[u8], with_bodies: bool) -> Result<Class, String> {
    if bytes.len() < 10 || bytes[0..4] != [0xCA, 0xFE, 0xBA, 0xBE] {
        return Err("not a class file (bad magic number)".into());
    }
    let major = u16::from_be_bytes([bytes[6], bytes[7]]);
    if major > MAX_MAJOR_VERSION || major < 45 {
        return Err(format!(
            "unsupported class file version {major} (racer reads versions 45 to {MAX_MAJOR_VERSION}, Java 1.1 to 25)"
        ));
    }
    // The parser panics on some malformed constant pools (and lowering trusts what it
    // parsed): that is bad input, reported as the file's warning, not a crash.
    let decoded = crate::guard::quietly(|| {
        let parse = |bytecode: bool| {
            let mut opts = cafebabe::ParseOptions::default();
            opts.parse_bytecode(bytecode);
            cafebabe::parse_class_with_options(bytes, &opts).map_err(|e| e.to_string())
        };
        let mut cf = parse(with_bodies)?;
        // An AIDL proxy's code is read even for its header: it says which calls are one-way;
        // so is an executor's: it says whether it posts to a handler. A class whose code does
        // not parse keeps the header read without it.
        let code_says = |cf: &cafebabe::ClassFile<'_>| {
            crate::classfile::aidl::is_proxy(&cf.this_class) || cf.interfaces.iter().any(|i| &**i == "java/util/concurrent/Executor")
        };
        if !with_bodies && code_says(&cf) {
            if let Ok(Ok(with_code)) = crate::guard::quietly(|| parse(true)) {
                cf = with_code;
            }
        }
        Ok(lower_class(&cf, with_bodies))
    });
    match decoded {
        Ok(Ok(class)) => Ok(class),
        Ok(Err(e)) | Err(e) => Err(format!("malformed or truncated class file: {e}")),
    }
}

/// A lazily loaded classpath: class name -> unit, loaded on demand. Jars are indexed when
/// the run starts; a directory is not listed at all: a class is looked up in it by its
/// path, so a long classpath of upstream class directories (a module deep in a
/// multi-module build) costs only the lookups of the classes the analysis asks for.
#[derive(Default)]
pub struct ClasspathIndex {
    entries: Vec<ClasspathEntry>,
}

enum ClasspathEntry {
    Dir(PathBuf),
    Jar(HashMap<String, Unit>),
}

impl ClasspathEntry {
    /// A jar's classes by name; the first entry of a name wins.
    fn of_units(units: Vec<Unit>) -> ClasspathEntry {
        let mut by_name = HashMap::new();
        for u in units {
            if let Some(class) = u.entry_class_name() {
                by_name.entry(class).or_insert(u);
            }
        }
        ClasspathEntry::Jar(by_name)
    }
}

impl ClasspathIndex {
    /// Opens every entry; missing classpath entries are skipped, unreadable jars are diagnostics.
    pub fn build(paths: &[PathBuf], diagnostics: &mut Vec<Diagnostic>) -> ClasspathIndex {
        let mut entries = Vec::new();
        for path in paths {
            if !path.exists() {
                // Build tools routinely pass classpath entries that do not exist yet.
                continue;
            }
            if path.is_dir() {
                entries.push(ClasspathEntry::Dir(path.clone()));
                continue;
            }
            match open_jar(path) {
                Ok(jar) => {
                    // An archive on the classpath is context whole, its bundled jars included.
                    let mut problems = Vec::new();
                    let opened = archive::contents(&jar, &mut problems);
                    diagnostics.extend(problems.into_iter().map(|message| Diagnostic { file: path.display().to_string(), message }));
                    entries.push(ClasspathEntry::of_units(opened.classes.into_iter().chain(opened.context).collect()));
                }
                Err(message) => diagnostics.push(Diagnostic { file: path.display().to_string(), message }),
            }
        }
        ClasspathIndex { entries }
    }

    /// Adds the context the input archives hold (see [`Listed::context`]) after the classpath
    /// given.
    pub fn add_context(&mut self, units: Vec<Unit>) {
        self.entries.push(ClasspathEntry::of_units(units));
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The first entry holding `class` (binary name), as the JVM's class path would pick.
    pub fn get(&self, class: &str) -> Option<Unit> {
        let rel = format!("{}.class", class.replace('.', "/"));
        self.entries.iter().find_map(|e| match e {
            ClasspathEntry::Dir(dir) => {
                let file = dir.join(&rel);
                file.is_file().then_some(Unit::File(file))
            }
            ClasspathEntry::Jar(units) => units.get(class).cloned(),
        })
    }
}
