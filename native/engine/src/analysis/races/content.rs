//! 9.2-9.5: what a report says: its trace, conflict, message and the rendering of paths,
//! locks and methods.

use crate::classfile::model::{AnnotationValue, MethodRef};
use crate::issue::{top_level_class, Conflict, FieldId, Issue, IssueKind, TraceElem};
use crate::sym::Sym;

use super::super::domain::*;
use super::super::pool::Entry;
use super::{under_other_locks, ClassReporter};

impl<'a> ClassReporter<'a> {
    pub(super) fn formal_names(&self, i: usize) -> &[Sym] {
        &self.class.methods[self.analysis.methods[i].index].formal_names
    }

    pub(super) fn build_issue(&self, kind: IssueKind, e: &Entry<'a>, conflict: Option<&Entry<'a>>) -> Issue {
        let mref = self.analysis.methods[e.method].mref;
        let line = e.access.site.line_in_class(mref.class);
        let path = render_path(e.access.key.kind.path(), self.formal_names(e.method));
        let trace = self.trace(e, &path, mref.class);
        let conflicts = conflict
            .map(|c| {
                let cref = self.mref_of(c);
                let cpath = render_path(c.access.key.kind.path(), self.formal_names_of(c));
                vec![Conflict {
                    class: cref.class.to_string(),
                    method: cref.name.to_string(),
                    descriptor: cref.descriptor.to_string(),
                    line: c.access.site.line_in_class(cref.class),
                    access_path: cpath.clone(),
                    access: if c.is_write() { "write" } else { "read" }.into(),
                    // A synchronized view's write holds the view's own lock.
                    locked: c.access.key.lock || self.iterates_view(e),
                    trace: self.trace(c, &cpath, mref.class),
                    source_file: self.other_source_file(cref.class, mref.class),
                }]
            })
            .unwrap_or_default();
        let message = self.message(kind, e, conflict, &path);
        Issue {
            kind,
            class: mref.class.to_string(),
            method: mref.name.to_string(),
            descriptor: mref.descriptor.to_string(),
            line,
            source_file: self.class.header.source_file.map(|s| s.to_string()).unwrap_or_default(),
            access_path: path,
            message,
            trace,
            conflicts,
            other_entry_points: 0,
            baseline: Default::default(),
            suppressed: None,
            field: last_field(e.access.key.kind.path()),
        }
    }

    /// [`TraceElem::source_file`]: the `SourceFile` of `class`, named in an issue of
    /// `issue_class`, when it is another top-level class (and its header is known).
    pub(super) fn other_source_file(&self, class: Sym, issue_class: Sym) -> String {
        if top_level_class(class.as_str()) == top_level_class(issue_class.as_str()) {
            return String::new();
        }
        let upstream = || (self.cfg.upstream_source_file)(class);
        self.cfg.table.get(class).and_then(|h| h.source_file).or_else(upstream).map(|f| f.to_string()).unwrap_or_default()
    }

    pub(super) fn trace(&self, e: &Entry<'a>, path: &str, issue_class: Sym) -> Vec<TraceElem> {
        let calls = e.access.site.trace.len();
        // A report lists at most REPORTED_CALLS calls (the outermost and innermost halves):
        // every report of a call chain thousands deep would otherwise repeat the whole
        // chain, and reports and memory would grow with the square of its depth.
        let skipped = calls.saturating_sub(REPORTED_CALLS);
        let mut out = Vec::with_capacity(calls.min(REPORTED_CALLS) + 1);
        let mut current = self.mref_of(e);
        for (k, call) in e.access.site.trace.iter().enumerate() {
            let hidden = skipped > 0 && k > REPORTED_CALLS / 2 && k <= REPORTED_CALLS / 2 + skipped;
            if !hidden {
                let mut description = format!("call to {}", render_method(&call.callee));
                if skipped > 0 && k == REPORTED_CALLS / 2 {
                    description.push_str(&format!(" ({skipped} further calls not shown)"));
                }
                out.push(TraceElem {
                    class: current.class.to_string(),
                    method: current.name.to_string(),
                    descriptor: current.descriptor.to_string(),
                    line: call.line,
                    description,
                    source_file: self.other_source_file(current.class, issue_class),
                });
            }
            current = call.callee;
        }
        let description = match &e.access.key.kind {
            AccessKind::Read(_) => format!("access to `{path}` (read)"),
            AccessKind::Write(_) => format!("access to `{path}` (write)"),
            AccessKind::ContainerRead(_, m) => format!("read of container `{path}` via call to `{}`", container_call(m)),
            AccessKind::ContainerWrite(_, m) => format!("write to container `{path}` via call to `{}`", container_call(m)),
            AccessKind::InterfaceCall(_, m) => format!("call to interface method {}", render_method(m)),
        };
        out.push(TraceElem {
            class: current.class.to_string(),
            method: current.name.to_string(),
            descriptor: current.descriptor.to_string(),
            line: e.access.site.line,
            description,
            source_file: self.other_source_file(current.class, issue_class),
        });
        out
    }

    pub(super) fn message(&self, kind: IssueKind, e: &Entry<'a>, conflict: Option<&Entry<'a>>, path: &str) -> String {
        let mref = self.analysis.methods[e.method].mref;
        let who = render_method(&mref);
        let indirect = !e.access.site.trace.is_empty();
        let how = if indirect { " indirectly" } else { "" };
        let what = match &e.access.key.kind {
            AccessKind::ContainerRead(_, m) | AccessKind::ContainerWrite(_, m) => {
                format!("container `{path}` via call to `{}`", container_call(m))
            }
            _ => format!("`{path}`"),
        };
        let explanation = self.explanation(e);
        match kind {
            IssueKind::GuardedByViolation => match e.access.key.lock_on {
                Some(held) if e.access.key.lock => format!(
                    "Write under the wrong lock. Non-private method `{who}`{how} writes to field {what} holding `{}`. \
                     Reporting because the field is annotated `@GuardedBy`, so it should only be accessed while holding the lock it names.",
                    render_lock(held.path(), self.formal_names_of(e))
                ),
                _ => format!(
                    "Unprotected write. Non-private method `{who}`{how} writes to field {what} outside of synchronization. \
                     Reporting because the field is annotated `@GuardedBy`, so it should only be accessed while holding its lock."
                ),
            },
            IssueKind::InterfaceNotThreadSafe => {
                let (iface, m) = match &e.access.key.kind {
                    AccessKind::InterfaceCall(_, m) => (m.class.to_string(), render_method(m)),
                    _ => (String::new(), String::new()),
                };
                format!(
                    "Unprotected call to method `{m}` of un-annotated interface `{iface}`. Consider annotating the \
                     interface with `@ThreadSafe` or adding a lock. {}",
                    explanation.unwrap_or_default()
                )
            }
            IssueKind::ThreadSafetyViolation => {
                let why = self.race_reason(e, explanation) + &self.own_monitor_note(e);
                let verb = match &e.access.key.kind {
                    AccessKind::ContainerWrite(..) => "mutates",
                    _ => "writes to field",
                };
                let other_locks = conflict.filter(|c| under_other_locks(e, c, self.cfg.extensions.different_locks)).map(|c| self.other_locks(e, c));
                if let (true, Some((c, mine, theirs))) = (e.is_write(), &other_locks) {
                    format!(
                        "Write under a different lock. Non-private method `{who}`{how} {verb} {what} holding `{mine}`. \
                         Potentially races with write in method `{c}`, which holds `{theirs}` instead. {why}"
                    )
                } else if e.is_write() {
                    format!("Unprotected write. Non-private method `{who}`{how} {verb} {what} outside of synchronization. {why}")
                } else if self.iterates_view(e) {
                    let c = conflict.map(|c| render_method(&self.mref_of(c))).unwrap_or_default();
                    let call = match &e.access.key.kind {
                        AccessKind::ContainerRead(_, m) => container_call(m),
                        _ => String::new(),
                    };
                    format!(
                        "Read/Write race. Non-private method `{who}`{how} iterates synchronized view `{path}` via call to `{call}` without holding \
                         its lock. Potentially races with write in method `{c}`. A synchronized view \
                         (`Collections.synchronizedMap(...)` and the like) locks each of its own calls, not a whole \
                         iteration: hold `synchronized ({path})` while iterating. {why}"
                    )
                } else {
                    let sync = if e.access.key.lock { "with synchronization" } else { "without synchronization" };
                    let c = conflict.map(|c| render_method(&self.mref_of(c))).unwrap_or_default();
                    let tail = match &other_locks {
                        Some((_, mine, theirs)) => format!(" The read holds `{mine}` and the write `{theirs}`: different locks."),
                        None if e.access.key.lock => " The write is outside synchronization.".to_string(),
                        None => String::new(),
                    };
                    format!(
                        "Read/Write race. Non-private method `{who}`{how} reads {sync} from {what}. \
                         Potentially races with write in method `{c}`.{tail} {why}"
                    )
                }
            }
        }
    }

    /// For a message: the method of `c` and the locks `e` and `c` hold, as the code names them.
    pub(super) fn other_locks(&self, e: &Entry<'a>, c: &Entry<'a>) -> (String, String, String) {
        let name = |x: &Entry<'a>| x.access.key.lock_on.map(|l| render_lock(l.path(), self.formal_names_of(x))).unwrap_or_default();
        (render_method(&self.mref_of(c)), name(e), name(c))
    }

    /// Object-monitors extension: an unprotected static access made under a monitor of `this`
    /// looks protected to a reader of the code; say why it is not.
    pub(super) fn own_monitor_note(&self, e: &Entry<'a>) -> String {
        let path = e.access.key.kind.path();
        let own_monitor = e.inherited.is_none()
            && !e.access.key.lock
            && self.analysis.summaries[e.method].own_monitor_statics.binary_search(path).is_ok();
        if own_monitor {
            " The only locks held are monitors of `this` (a synchronized instance method, `synchronized (this)`): a \
             thread working on another object of the class does not wait for them, so they do not protect a static field."
                .into()
        } else {
            String::new()
        }
    }

    /// 9.4: why the method is considered to run concurrently, if an annotation says so.
    pub(super) fn explanation(&self, e: &Entry<'a>) -> Option<String> {
        let facts = &self.analysis.methods[e.method].facts;
        let mref = self.analysis.methods[e.method].mref;
        if facts.thread_safe_method {
            return Some(format!("Reporting because `{}` is annotated `@ThreadSafe`", render_method(&mref)));
        }
        let table = self.cfg.table;
        let litho = ["MountSpec", "LayoutSpec", "DiffSectionSpec", "GroupSectionSpec"];
        let me = self.class.header.name;
        let found = table.find_in_supertypes(me, |c| {
            let h = table.get(c)?;
            h.annotations.iter().find(|a| litho.iter().any(|n| a.matches(n))).map(|a| (c, a.type_name))
        });
        if let Some((c, a)) = found {
            let simple = a.as_str().rsplit('.').next().unwrap_or("");
            let reason = if matches!(simple, "MountSpec" | "LayoutSpec") {
                "layout is computed on several threads"
            } else {
                "change sets are computed off the main thread"
            };
            let whose = if c == me { "the current class".to_string() } else { format!("a superclass `{c}`") };
            return Some(format!("Reporting because {whose} is annotated `@{simple}`, and {reason}"));
        }
        let found = table.find_in_supertypes(me, |c| {
            let h = table.get(c)?;
            h.annotations
                .iter()
                .any(|a| {
                    (a.matches("ThreadSafe") && !(a.element_count == 1 && a.elements.iter().any(|(n, v)| n.as_str() == "enableChecks" && *v == AnnotationValue::Bool(false))))
                        || self.cfg.thread_safe_aliases.iter().any(|n| a.matches(n))
                })
                .then_some(c)
        });
        found.map(|c| {
            if c == me {
                "Reporting because the current class is annotated `@ThreadSafe`".to_string()
            } else {
                format!("Reporting because a superclass `{c}` is annotated `@ThreadSafe`")
            }
        })
    }

    pub(super) fn race_reason(&self, e: &Entry<'a>, explanation: Option<String>) -> String {
        match (explanation, e.t.is_any()) {
            (Some(x), true) => format!(
                "{x}, so we assume that this method can run in parallel with other non-private methods in the class (including itself)."
            ),
            (Some(x), false) => format!(
                "{x}. Although this access is not known to run on a background thread, it may happen in parallel with another access that does."
            ),
            (None, true) => "Reporting because this access may occur on a background thread.".into(),
            (None, false) => {
                "Reporting because another access to the same memory occurs on a background thread, although this access may not.".into()
            }
        }
    }
}

/// 2.1 rendering: `this.f.g`, `param.[_]`, `pkg.Class.f` for statics.
pub fn render_path(p: &Path, formal_names: &[Sym]) -> String {
    let mut s = match p.base {
        Base::This => "this".to_string(),
        Base::Param(i) => formal_names.get(i as usize).map(|n| n.to_string()).unwrap_or_else(|| format!("arg{i}")),
        Base::Static(c) => render_static_root(c.as_str()),
        Base::NativeResult(m) => format!("{}()", render_static_root(m.as_str())),
        Base::Local(i) => format!("local{i}"),
        Base::Temp(_) => "tmp".into(),
    };
    for step in p.steps.iter() {
        s.push('.');
        match step {
            Step::Field { name, .. } => s.push_str(name.as_str()),
            Step::Array => s.push_str("[_]"),
        }
    }
    s
}


/// A lock as the code names it: `this`, `Foo.class` for a class's monitor, or the path of the
/// object whose monitor or `Lock` it is.
fn render_lock(p: &Path, formal_names: &[Sym]) -> String {
    match p.base {
        Base::Static(c) if p.steps.is_empty() => format!("{}.class", c.as_str().rsplit('.').next().unwrap_or("")),
        _ => render_path(p, formal_names),
    }
}

/// The last field on `p` (`arr` in `this.arr.[_]`).
pub(super) fn last_field(p: &Path) -> Option<FieldId> {
    p.steps.iter().rev().find_map(|step| match step {
        Step::Field { class, name } => Some(FieldId { class: class.to_string(), name: name.to_string() }),
        Step::Array => None,
    })
}

fn render_static_root(class: &str) -> String {
    let mut parts: Vec<&str> = class.split('.').collect();
    let simple = parts.pop().unwrap_or(class);
    match parts.last() {
        Some(pkg) => format!("{pkg}.{simple}"),
        None => simple.to_string(),
    }
}

/// `Class.method(...)`, `Class.method()`, or `Class(...)` for constructors.
pub fn render_method(m: &MethodRef) -> String {
    let simple = m.class.as_str().rsplit('.').next().unwrap_or("");
    let args = if m.params() == "()" { "()" } else { "(...)" };
    match m.name.as_str() {
        "<init>" => format!("{simple}{args}"),
        "<clinit>" => format!("{simple}.<clinit>()"),
        n => format!("{simple}.{n}{args}"),
    }
}

/// The call that reads or writes a container, as a message names it: the method's name, or
/// for a constructor given the container (`new ArrayList<>(items)`) the class's, as Java
/// writes it.
fn container_call(m: &MethodRef) -> String {
    match m.name.as_str() {
        "<init>" => format!("new {}", m.class.as_str().rsplit('.').next().unwrap_or("").replace('$', ".")),
        name => name.to_string(),
    }
}

/// Most calls a reported trace lists (see `trace`).
const REPORTED_CALLS: usize = 64;
