//! Issues and their renderings: one emitter module per output format (`text`,
//! `json`, `sarif`, `html`), each turning a [`Response`] into a string without
//! knowing anything about the analysis.
pub mod console;
pub mod fingerprint;
pub mod groups;
pub mod html;
pub mod json;
pub mod rules;
pub mod sarif;
pub mod sources;
pub mod text;
pub mod write;

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use crate::issue::top_level_class;
pub use crate::issue::{BaselineState, Conflict, FieldId, Issue, IssueKind, Suppression, TraceElem};
pub use sources::{SourceIndex, SourceRef};
pub use write::write_atomic;

use crate::api::{Diagnostic, Error, Request, Response};

/// An output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    Text,
    Json,
    Sarif,
    Html,
}

impl Format {
    pub const ALL: [Format; 4] = [Format::Text, Format::Json, Format::Sarif, Format::Html];

    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Json => "json",
            Format::Sarif => "sarif",
            Format::Html => "html",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> Result<Format, String> {
        Format::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| format!("unknown report format '{s}' (expected text, json, sarif or html)"))
    }
}

/// Renders `response` in `format`, looking up sources under `source_paths`.
pub fn render(format: Format, response: &Response, source_paths: &[PathBuf]) -> String {
    render_with(format, response, &SourceIndex::new(source_paths))
}

/// Like [`render`], reusing a [`SourceIndex`] (and its caches) across formats.
pub fn render_with(format: Format, response: &Response, sources: &SourceIndex) -> String {
    match format {
        Format::Text => text::render(response, sources),
        Format::Json => json::render(response),
        Format::Sarif => sarif::render(response, sources),
        Format::Html => html::render(response, sources),
    }
}

/// Writes every report file named in `request.reports`, each atomically.
pub fn write_reports(request: &Request, response: &Response) -> Result<(), Error> {
    let r = &request.reports;
    if r.json.is_none() && r.sarif.is_none() && r.text.is_none() && r.html.is_none() {
        return Ok(());
    }
    write_reports_with(request, response, &SourceIndex::new(&request.source_paths))
}

/// Like [`write_reports`], reusing a [`SourceIndex`].
pub fn write_reports_with(request: &Request, response: &Response, sources: &SourceIndex) -> Result<(), Error> {
    let reports = &request.reports;
    let wanted: [(Format, Option<&PathBuf>); 4] = [
        (Format::Json, reports.json.as_ref()),
        (Format::Sarif, reports.sarif.as_ref()),
        (Format::Text, reports.text.as_ref()),
        (Format::Html, reports.html.as_ref()),
    ];
    for (format, path) in wanted {
        if let Some(path) = path {
            write_atomic(path, render_with(format, response, sources).as_bytes())?;
        }
    }
    Ok(())
}

// ---- helpers shared by the emitters ------------------------------------------------

/// Diagnostics sorted and de-duplicated, so output never depends on thread timing.
pub(crate) fn sorted_diagnostics(response: &Response) -> Vec<&Diagnostic> {
    let mut d: Vec<&Diagnostic> = response.diagnostics.iter().collect();
    d.sort();
    d.dedup();
    d
}

/// The source of `class`, a class mentioned in `issue` (its trace or conflicts) with the
/// `source_file` given there: the issue's own applies when both share a top-level class,
/// and an older report without one falls back to the class name.
pub(crate) fn source_in_issue(sources: &SourceIndex, issue: &Issue, class: &str, source_file: &str) -> SourceRef {
    if !source_file.is_empty() {
        sources.resolve(class, source_file)
    } else if top_level_class(class) == top_level_class(&issue.class) {
        sources.resolve(class, &issue.source_file)
    } else {
        sources.resolve(class, "")
    }
}

/// Issue counts in [`rules::RULES`] order.
pub(crate) fn counts_by_kind(issues: &[Issue]) -> [usize; 3] {
    let mut counts = [0; 3];
    for issue in issues {
        counts[rules::rule_index(issue.kind)] += 1;
    }
    counts
}

/// `1 issue`, `2 issues`.
pub(crate) fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// A diagnostic's file for reports that must not carry absolute paths: relative to
/// `base` when under it, otherwise just the file name (and any `!/entry` suffix).
pub(crate) fn portable_file(file: &str, base: Option<&Path>) -> String {
    let (outer, entry) = match file.find("!/") {
        Some(i) => (&file[..i], &file[i..]),
        None => (file, ""),
    };
    let path = Path::new(outer);
    if !path.is_absolute() && !outer.starts_with('/') && !outer.starts_with('\\') {
        return file.replace('\\', "/");
    }
    if let Some(rel) = base.and_then(|b| path.strip_prefix(b).ok()) {
        if !rel.as_os_str().is_empty() {
            return format!("{}{entry}", rel.to_string_lossy().replace('\\', "/"));
        }
    }
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    format!("{name}{entry}")
}

#[cfg(test)]
pub(crate) mod test_support {
    //! Hand-built issues and a self-cleaning temporary directory for unit tests.
    use std::path::{Path, PathBuf};

    use super::*;
    use crate::api::{Diagnostic, Response};

    pub fn issue(class: &str, method: &str, path: &str, line: u32) -> Issue {
        let source_file = format!("{}.java", sources::outer_simple_name(class));
        Issue {
            kind: IssueKind::ThreadSafetyViolation,
            class: class.into(),
            method: method.into(),
            descriptor: "()V".into(),
            line,
            source_file,
            access_path: path.into(),
            message: format!("Unprotected write. Non-private method `{method}()` writes to field `{path}` outside of synchronization."),
            trace: vec![TraceElem {
                class: class.into(),
                method: method.into(),
                descriptor: "()V".into(),
                line,
                description: format!("access to `{path}`"),
                source_file: String::new(),
            }],
            conflicts: vec![],
            other_entry_points: 0,
            baseline: BaselineState::New,
            suppressed: None,
            field: path.rsplit('.').next().map(|name| FieldId { class: class.into(), name: name.into() }),
        }
    }

    /// A read/write race with a two-level trace and a conflict, plus odd characters.
    pub fn rich_issue() -> Issue {
        let mut i = issue("a.b.Foo$Inner", "get", "this.h", 4);
        i.message = "Read/Write race. Reads `this.h` <without> \"synchronization\" & more.\nSecond line.".into();
        i.trace = vec![
            TraceElem { class: "a.b.Foo$Inner".into(), method: "get".into(), descriptor: "()V".into(), line: 0, description: "read trace".into(), source_file: String::new() },
            TraceElem { class: "a.b.Foo$Inner".into(), method: "get".into(), descriptor: "()V".into(), line: 3, description: "call to `Helper.peek()`".into(), source_file: String::new() },
            TraceElem { class: "c.Helper".into(), method: "peek".into(), descriptor: "()V".into(), line: 9, description: "access to `this.h`".into(), source_file: String::new() },
        ];
        i.conflicts = vec![Conflict {
            class: "a.b.Foo$Inner".into(),
            method: "<init>".into(),
            descriptor: "()V".into(),
            line: 2,
            access_path: "this.h".into(),
            access: "write".into(),
            locked: false,
            trace: vec![],
            source_file: String::new(),
        }];
        i
    }

    pub fn response(issues: Vec<Issue>) -> Response {
        Response {
            issues,
            diagnostics: vec![
                Diagnostic { file: "lib/z.jar!/x/Y.class".into(), message: "truncated class file".into() },
                Diagnostic { file: "in/A<b>.class".into(), message: "not a class file & \"odd\"".into() },
            ],
            ..Response::default()
        }
    }

    pub struct TempDir(PathBuf);

    impl TempDir {
        pub fn new(tag: &str) -> TempDir {
            use std::sync::atomic::{AtomicU32, Ordering};
            static N: AtomicU32 = AtomicU32::new(0);
            let dir = std::env::temp_dir().join(format!(
                "racer-report-{tag}-{}-{}",
                std::process::id(),
                N.fetch_add(1, Ordering::Relaxed)
            ));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            TempDir(dir)
        }

        pub fn path(&self) -> &Path {
            &self.0
        }

        pub fn write(&self, rel: &str, text: &str) -> PathBuf {
            let p = self.0.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, text).unwrap();
            p
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::*;
    use super::*;

    #[test]
    fn format_parsing() {
        assert_eq!("SARIF".parse::<Format>(), Ok(Format::Sarif));
        assert_eq!("text".parse::<Format>(), Ok(Format::Text));
        assert!("xml".parse::<Format>().unwrap_err().contains("'xml'"));
        for f in Format::ALL {
            assert_eq!(f.to_string().parse::<Format>(), Ok(f));
        }
    }

    #[test]
    fn a_step_in_another_top_level_class_uses_its_own_source_file() {
        let sources = SourceIndex::new(&[]);
        let i = rich_issue();
        assert_eq!(source_in_issue(&sources, &i, "a.b.Foo$Other", "").relative, "a/b/Foo.java", "the issue's file");
        assert_eq!(source_in_issue(&sources, &i, "c.HelperKt", "").relative, "c/HelperKt.java", "guessed without one");
        assert_eq!(source_in_issue(&sources, &i, "c.HelperKt", "Helpers.kt").relative, "c/Helpers.kt");
    }

    #[test]
    fn top_level() {
        assert_eq!(top_level_class("a.b.Foo$Inner$1"), "a.b.Foo");
        assert_eq!(top_level_class("Foo"), "Foo");
        assert_eq!(top_level_class("a.$Gen"), "a.$Gen");
    }

    #[test]
    fn portable_files() {
        assert_eq!(portable_file("build/classes/A.class", None), "build/classes/A.class");
        assert_eq!(portable_file("/home/u/p/build/A.class", Some(Path::new("/home/u/p"))), "build/A.class");
        assert_eq!(portable_file("/elsewhere/lib/z.jar!/x/Y.class", Some(Path::new("/home/u/p"))), "z.jar!/x/Y.class");
    }

    #[test]
    fn writes_every_requested_report() {
        let tmp = TempDir::new("reports");
        let mut request = Request::default();
        request.reports.json = Some(tmp.path().join("out/r.json"));
        request.reports.sarif = Some(tmp.path().join("out/r.sarif"));
        request.reports.html = Some(tmp.path().join("out/r.html"));
        let response = response(vec![rich_issue()]);
        write_reports(&request, &response).unwrap();
        let json = std::fs::read_to_string(tmp.path().join("out/r.json")).unwrap();
        assert_eq!(json, render(Format::Json, &response, &[]));
        assert!(tmp.path().join("out/r.sarif").is_file());
        assert!(tmp.path().join("out/r.html").is_file());
        assert!(!tmp.path().join("out/r.txt").exists());

        request.reports.text = Some(tmp.path().to_path_buf()); // a directory: cannot write
        let err = write_reports(&request, &response).unwrap_err();
        assert!(err.0.starts_with("cannot write "), "{err}");
    }
}
