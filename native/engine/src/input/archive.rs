//! Where the classes are in the archives racer reads. A plain jar holds its classes at its
//! root; an Android library (`.aar`) holds its code in `classes.jar` and the jars it bundles
//! in `libs/`; a web application (`.war`) holds its classes in `WEB-INF/classes/` and its
//! libraries in `WEB-INF/lib/`; a Spring Boot jar the same under `BOOT-INF/`. The archive's
//! own classes are analysed; the jars it bundles are its dependencies, context for the
//! analysis as a classpath would give them, never reported on, and so are the classes at the
//! root of an archive that has a class folder (Spring Boot's launcher). A JDK module (`.jmod`)
//! holds its classes in `classes/`.

use std::borrow::Cow;
use std::io::{Cursor, Read};
use std::sync::Arc;

use zip::ZipArchive;

use super::Unit;

/// The folders holding a packaged application's own classes, by their path within it.
const CLASS_ROOTS: &[&str] = &["BOOT-INF/classes/", "WEB-INF/classes/"];

/// A JDK module's classes, and the magic number its file starts with (the zip follows).
const JMOD_CLASS_ROOTS: &[&str] = &["classes/"];
const JMOD_MAGIC: &[u8] = b"JM\x01\x00";

/// The folders holding a packaged application's libraries.
const LIBRARY_FOLDERS: [&str; 2] = ["BOOT-INF/lib/", "WEB-INF/lib/"];

/// An Android library's code, and the folder of the jars it bundles.
const AAR_CLASSES: &str = "classes.jar";
const AAR_LIBRARIES: &str = "libs/";

/// The most an entry's declared size reserves before it is read.
const MAX_RESERVED_BYTES: u64 = 64 << 20;

/// An archive read whole into memory; its entries are read when needed.
pub struct Jar {
    pub display: String,
    /// Cloning an archive shares its parsed central directory.
    archive: ZipArchive<Cursor<Arc<[u8]>>>,
    /// Where classes may be besides the archive's root.
    class_roots: &'static [&'static str],
}

/// What an archive holds: its own classes, and the classes that are context for them (those
/// of the jars it bundles, in name order of the jars, and its launcher's).
pub struct Opened {
    pub classes: Vec<Unit>,
    pub context: Vec<Unit>,
}

impl Jar {
    /// Reads entry `index` whole.
    pub(super) fn entry_bytes(&self, index: usize) -> Result<Vec<u8>, String> {
        let mut archive = self.archive.clone();
        let mut entry = archive.by_index(index).map_err(|e| format!("corrupt jar entry: {e}"))?;
        // The size an entry declares is only a hint (a damaged or hostile archive can claim
        // gigabytes): what is reserved up front is bounded.
        let mut out = Vec::with_capacity(entry.size().min(MAX_RESERVED_BYTES) as usize);
        entry.read_to_end(&mut out).map_err(|e| format!("corrupt jar entry: {e}"))?;
        Ok(out)
    }

    fn names(&self) -> impl Iterator<Item = (usize, Cow<'_, str>)> {
        (0..self.archive.len()).filter_map(|i| self.archive.name_for_index(i).and_then(|r| r.ok()).map(|n| (i, n)))
    }

    /// The path of the class entry `name` holds, relative to its class root (`a/b/C.class`),
    /// or none for an entry that is not one of the archive's classes: another file, a class
    /// of another Java version (`META-INF/versions/`), a module or package descriptor.
    pub(super) fn class_path<'n>(&self, name: &'n str) -> Option<&'n str> {
        let path = self.class_roots.iter().find_map(|root| name.strip_prefix(root)).unwrap_or(name);
        (path.ends_with(".class") && !super::is_versioned_or_module(path)).then_some(path)
    }

    /// Whether entry `name` is in one of the archive's class folders.
    fn in_class_folder(&self, name: &str) -> bool {
        self.class_roots.iter().any(|root| name.starts_with(root))
    }

    /// The class entries of this archive, in name order (see [`Jar::class_path`]).
    pub(super) fn class_units(self: &Arc<Jar>) -> Vec<Unit> {
        let named = self.names().filter(|(_, name)| self.class_path(name).is_some()).map(|(i, name)| (name.into_owned(), i));
        self.units(named.collect())
    }

    /// Units of the entries `named` (name, index), in name order.
    fn units(self: &Arc<Jar>, mut named: Vec<(String, usize)>) -> Vec<Unit> {
        named.sort();
        named.into_iter().map(|(name, index)| Unit::JarEntry { jar: self.clone(), index, name }).collect()
    }

    /// The archive nested in entry `index`, or why it cannot be read.
    fn nested(&self, index: usize, name: &str) -> Result<Arc<Jar>, String> {
        let bytes = self.entry_bytes(index).map_err(|e| format!("{name}: {e}"))?;
        open_bytes(format!("{}!/{name}", self.display), bytes.into()).map_err(|e| format!("{name}: {e}"))
    }
}

/// Opens the archive at `display` whose bytes are `bytes`.
pub fn open_bytes(display: String, bytes: Arc<[u8]>) -> Result<Arc<Jar>, String> {
    let class_roots = if bytes.starts_with(JMOD_MAGIC) { JMOD_CLASS_ROOTS } else { CLASS_ROOTS };
    let archive = ZipArchive::new(Cursor::new(bytes)).map_err(|e| format!("not a readable jar/zip file: {e}"))?;
    Ok(Arc::new(Jar { display, archive, class_roots }))
}

/// Whether entry `name` is a jar the application bundles: one directly in a library folder.
fn is_bundled_jar(name: &str, is_aar: bool) -> bool {
    let mut folders = LIBRARY_FOLDERS.iter().chain(is_aar.then_some(&AAR_LIBRARIES));
    name.ends_with(".jar") && folders.any(|f| name.strip_prefix(f).is_some_and(|rest| !rest.contains('/')))
}

/// The classes of `jar` and of an Android library's `classes.jar`, and those that are context
/// for them. A nested jar that cannot be read is a warning (`problems`); the rest is read.
pub fn contents(jar: &Arc<Jar>, problems: &mut Vec<String>) -> Opened {
    // One pass over the entries (an archive on a long classpath is opened at every start).
    let (mut in_folder, mut at_root, mut jars) = (Vec::new(), Vec::new(), Vec::new());
    let (mut has_class_folder, mut is_aar) = (false, false);
    for (index, name) in jar.names() {
        let folder = jar.in_class_folder(&name);
        has_class_folder |= folder;
        is_aar |= name == AAR_CLASSES;
        if jar.class_path(&name).is_some() {
            (if folder { &mut in_folder } else { &mut at_root }).push((name.into_owned(), index));
        } else if name.ends_with(".jar") {
            jars.push((name.into_owned(), index));
        }
    }
    // With a class folder, the classes at the root are the launcher's, not the application's.
    let mut opened = if has_class_folder {
        Opened { classes: jar.units(in_folder), context: jar.units(at_root) }
    } else {
        Opened { classes: jar.units(at_root), context: Vec::new() }
    };
    jars.retain(|(name, _)| name == AAR_CLASSES || is_bundled_jar(name, is_aar));
    jars.sort();
    for (name, index) in jars {
        match jar.nested(index, &name) {
            Ok(inner) if name == AAR_CLASSES => opened.classes.extend(inner.class_units()),
            Ok(inner) => opened.context.extend(inner.class_units()),
            Err(e) => problems.push(e),
        }
    }
    opened
}
