//! Finding the source file of a class under the configured source roots, and
//! extracting snippets from it. Lookups and file contents are cached.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Where an issue's source file is, or would be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceRef {
    /// `/`-separated path relative to the source root that holds the file, or, when
    /// the file was not found, derived from the package (`a/b/Foo.java`).
    pub relative: String,
    /// The bare file name (`Foo.java`).
    pub file_name: String,
    /// The file on disk, when found.
    pub found: Option<PathBuf>,
}

/// Source roots plus lookup caches. Safe to share between threads.
#[derive(Debug)]
pub struct SourceIndex {
    roots: Vec<PathBuf>,
    lookups: Mutex<HashMap<(String, String), SourceRef>>,
    /// Per root, lazily built.
    by_name: Mutex<Vec<Option<Arc<NameIndex>>>>,
    texts: Mutex<HashMap<PathBuf, Option<Arc<Vec<String>>>>>,
}

/// File name -> relative paths (sorted) of the source files with that name under a root.
type NameIndex = HashMap<String, Vec<String>>;

/// Lines around the issue line: `(line number, text)` pairs, and the marked line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snippet {
    pub lines: Vec<(u32, String)>,
    pub marked: u32,
}

/// Lines shown before and after the marked line in snippets.
pub const SNIPPET_CONTEXT: u32 = 2;

/// Directories never descended into by the by-name search.
const SKIPPED_DIRS: [&str; 4] = ["build", "target", "node_modules", "out"];

/// How many directory entries the by-name search visits per root at most.
const MAX_WALK_ENTRIES: usize = 200_000;

impl SourceIndex {
    pub fn new(roots: &[PathBuf]) -> SourceIndex {
        SourceIndex {
            roots: roots.to_vec(),
            lookups: Mutex::new(HashMap::new()),
            by_name: Mutex::new(vec![None; roots.len()]),
            texts: Mutex::new(HashMap::new()),
        }
    }

    pub fn roots(&self) -> &[PathBuf] {
        &self.roots
    }

    /// Locates the source of binary class `class` (`a.b.Foo$Inner`) whose `SourceFile`
    /// attribute is `source_file` ("" when unknown: `Foo.java`, then `Foo.kt`, is tried).
    pub fn resolve(&self, class: &str, source_file: &str) -> SourceRef {
        let key = (class.to_string(), source_file.to_string());
        if let Some(hit) = lock(&self.lookups).get(&key) {
            return hit.clone();
        }
        let found = self.resolve_uncached(class, source_file);
        lock(&self.lookups).insert(key, found.clone());
        found
    }

    fn resolve_uncached(&self, class: &str, source_file: &str) -> SourceRef {
        let package = package_dirs(class);
        let names: Vec<String> = match clean_file_name(source_file) {
            Some(name) => vec![name],
            None => {
                let outer = outer_simple_name(class);
                vec![format!("{outer}.java"), format!("{outer}.kt")]
            }
        };
        // 1. The conventional place: <root>/<package dirs>/<file>.
        for name in &names {
            let relative = join_rel(&package, name);
            for root in &self.roots {
                let path = root.join(&relative);
                if path.is_file() {
                    return SourceRef { relative, file_name: name.clone(), found: Some(path) };
                }
            }
        }
        // 2. Anywhere under a root with that file name (Kotlin files needn't match the
        //    package). Prefer the candidate whose directory shares the longest package
        //    suffix, then the shortest path, then the first in byte order.
        for name in &names {
            let mut candidates = Vec::new();
            for root_index in 0..self.roots.len() {
                let index = self.name_index(root_index);
                for rel in index.get(name.as_str()).into_iter().flatten() {
                    let key = (std::cmp::Reverse(shared_suffix(&package, rel)), rel.len());
                    candidates.push((key, rel.clone(), root_index));
                }
            }
            if let Some((_, relative, root_index)) = candidates.into_iter().min() {
                let found = Some(self.roots[root_index].join(&relative));
                return SourceRef { relative, file_name: name.clone(), found };
            }
        }
        let name = names.into_iter().next().unwrap_or_default();
        SourceRef { relative: join_rel(&package, &name), file_name: name, found: None }
    }

    fn name_index(&self, root_index: usize) -> Arc<NameIndex> {
        if let Some(Some(index)) = lock(&self.by_name).get(root_index) {
            return Arc::clone(index);
        }
        let index = Arc::new(build_name_index(&self.roots[root_index]));
        if let Some(slot) = lock(&self.by_name).get_mut(root_index) {
            *slot = Some(Arc::clone(&index));
        }
        index
    }

    /// The lines of a found source file (cached), or `None` when unreadable.
    pub fn lines(&self, path: &Path) -> Option<Arc<Vec<String>>> {
        if let Some(hit) = lock(&self.texts).get(path) {
            return hit.clone();
        }
        let text = fs::read(path).ok().map(|bytes| {
            let text = String::from_utf8_lossy(&bytes);
            Arc::new(text.lines().map(|l| l.trim_end_matches('\r').to_string()).collect())
        });
        lock(&self.texts).insert(path.to_path_buf(), text.clone());
        text
    }

    /// `SNIPPET_CONTEXT` lines on each side of `line` in the found file `source`.
    pub fn snippet(&self, source: &SourceRef, line: u32) -> Option<Snippet> {
        let path = source.found.as_ref()?;
        if line == 0 {
            return None;
        }
        let lines = self.lines(path)?;
        if line as usize > lines.len() {
            return None;
        }
        let first = line.saturating_sub(SNIPPET_CONTEXT).max(1);
        let last = (line + SNIPPET_CONTEXT).min(lines.len() as u32);
        let lines = (first..=last).map(|n| (n, lines[n as usize - 1].clone())).collect();
        Some(Snippet { lines, marked: line })
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// `a/b` for `a.b.Foo$Inner`; "" for the default package. Odd components are dropped.
pub fn package_dirs(class: &str) -> String {
    match class.rfind('.') {
        Some(i) => class[..i]
            .split('.')
            .filter(|c| is_plain_component(c))
            .collect::<Vec<_>>()
            .join("/"),
        None => String::new(),
    }
}

/// `Foo` for `a.b.Foo$Inner$1`.
pub fn outer_simple_name(class: &str) -> &str {
    let top = crate::issue::top_level_class(class);
    top.rsplit('.').next().unwrap_or(top)
}

/// The path used when the file is not found: `<package dirs>/<source_file>`, where an
/// empty `source_file` becomes `<Outer>.java`.
pub fn derived_path(class: &str, source_file: &str) -> String {
    let name = clean_file_name(source_file)
        .unwrap_or_else(|| format!("{}.java", outer_simple_name(class)));
    join_rel(&package_dirs(class), &name)
}

fn join_rel(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

/// A `SourceFile` attribute reduced to a safe bare file name (no directories).
fn clean_file_name(source_file: &str) -> Option<String> {
    let name = source_file.rsplit(['/', '\\']).next().unwrap_or("");
    is_plain_component(name).then(|| name.to_string())
}

fn is_plain_component(c: &str) -> bool {
    !c.is_empty() && c != "." && c != ".." && !c.contains(['/', '\\', '\0', ':'])
}

/// Number of trailing package components matched by the directories of `rel`.
fn shared_suffix(package: &str, rel: &str) -> usize {
    let dirs: Vec<&str> = rel.split('/').collect();
    let dirs = &dirs[..dirs.len().saturating_sub(1)];
    package
        .split('/')
        .filter(|c| !c.is_empty())
        .rev()
        .zip(dirs.iter().rev())
        .take_while(|(a, b)| a == *b)
        .count()
}

fn build_name_index(root: &Path) -> NameIndex {
    let mut index = NameIndex::new();
    let mut stack: Vec<(PathBuf, String)> = vec![(root.to_path_buf(), String::new())];
    let mut visited = 0usize;
    while let Some((dir, rel)) = stack.pop() {
        let Ok(entries) = fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            visited += 1;
            if visited > MAX_WALK_ENTRIES {
                break;
            }
            let Ok(name) = entry.file_name().into_string() else { continue };
            let Ok(kind) = entry.file_type() else { continue };
            let child_rel = join_rel(&rel, &name);
            if kind.is_dir() {
                if !name.starts_with('.') && !SKIPPED_DIRS.contains(&name.as_str()) {
                    stack.push((entry.path(), child_rel));
                }
            } else if name.ends_with(".java") || name.ends_with(".kt") {
                index.entry(name).or_default().push(child_rel);
            }
        }
    }
    for paths in index.values_mut() {
        paths.sort();
    }
    index
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::test_support::TempDir;

    #[test]
    fn names_and_packages() {
        assert_eq!(package_dirs("a.b.Foo$Inner"), "a/b");
        assert_eq!(package_dirs("Foo"), "");
        assert_eq!(outer_simple_name("a.b.Foo$Inner$1"), "Foo");
        assert_eq!(outer_simple_name("a.b.$Odd"), "$Odd");
        assert_eq!(derived_path("a.b.Foo$Inner", "Foo.java"), "a/b/Foo.java");
        assert_eq!(derived_path("a.b.Foo$Inner", ""), "a/b/Foo.java");
        assert_eq!(derived_path("a.b.Foo", "../../etc/passwd"), "a/b/passwd");
        assert_eq!(derived_path("Foo", ".."), "Foo.java");
    }

    #[test]
    fn finds_by_package_then_by_name() {
        let tmp = TempDir::new("sources");
        let java = tmp.path().join("java");
        let kotlin = tmp.path().join("kotlin");
        tmp.write("java/a/b/Foo.java", "package a.b;\nclass Foo {\n  int n;\n  void set() { n = 1; }\n}\n");
        tmp.write("kotlin/util/Bar.kt", "package a.b\nclass Bar\n");
        tmp.write("kotlin/other/x/Bar.kt", "package x\n");
        let index = SourceIndex::new(&[java.clone(), kotlin.clone()]);

        let foo = index.resolve("a.b.Foo$Inner", "Foo.java");
        assert_eq!(foo.relative, "a/b/Foo.java");
        assert_eq!(foo.found, Some(java.join("a/b/Foo.java")));

        let bar = index.resolve("a.b.BarKt", "Bar.kt");
        assert_eq!(bar.relative, "util/Bar.kt", "shortest of the equally good matches");
        assert_eq!(bar.found, Some(kotlin.join("util/Bar.kt")));

        let x = index.resolve("x.BarKt", "Bar.kt");
        assert_eq!(x.relative, "other/x/Bar.kt", "package suffix wins");

        let missing = index.resolve("c.d.Gone", "Gone.java");
        assert_eq!(missing, SourceRef { relative: "c/d/Gone.java".into(), file_name: "Gone.java".into(), found: None });

        let unknown = index.resolve("a.b.Foo", "");
        assert_eq!(unknown.relative, "a/b/Foo.java");
        assert!(unknown.found.is_some());
        // cached
        assert_eq!(index.resolve("a.b.Foo$Inner", "Foo.java"), foo);
    }

    #[test]
    fn snippets() {
        let tmp = TempDir::new("snippet");
        tmp.write("a/Foo.java", "l1\r\nl2\nl3\nl4\nl5\nl6\n");
        let index = SourceIndex::new(&[tmp.path().to_path_buf()]);
        let foo = index.resolve("a.Foo", "Foo.java");
        let s = index.snippet(&foo, 1).unwrap();
        assert_eq!(s.lines, vec![(1, "l1".into()), (2, "l2".into()), (3, "l3".into())]);
        let s = index.snippet(&foo, 6).unwrap();
        assert_eq!(s.lines.first().unwrap().0, 4);
        assert_eq!(s.lines.last().unwrap().0, 6);
        assert!(index.snippet(&foo, 0).is_none());
        assert!(index.snippet(&foo, 7).is_none());
    }
}
