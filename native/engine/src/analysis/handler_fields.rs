//! Handlers kept in fields (a thread-handoff model, `handoffs.rs`): a post through a field every
//! store into which gives a handler of one known thread runs on that thread.
//!
//! A store gives a known handler when the call just before it made one on a looper of known
//! thread (`new Handler(Looper.getMainLooper())`, `new Handler(thread.getLooper())`, a `Handler`
//! subclass whose constructor says which looper). It gives the handler of another field's thread
//! when it copies that field, or makes a handler on its looper
//! (`new Handler(mWorker.getLooper())`), and the handler of a method's thread when it keeps what
//! the method returns (`mHandler = BackgroundThread.getHandler()`), or makes a handler on its
//! looper. A method's thread is that of the handler fields it returns: every value it returns
//! must be read from one (`synchronized (BackgroundThread.class) { ensureThreadLocked(); return
//! sHandler; }`). A constructor's handler or looper parameter, kept or made a handler on, gives
//! the thread every call of the constructor from its package gives it
//! (`this(BackgroundThread.get().getLooper(), false)`). Those are followed from field to field
//! until nothing changes.

use serde::{Deserialize, Serialize};

use crate::classfile::descriptor::{param_at_slot, params};
use crate::classfile::model::*;
use crate::fxhash::{FxHashMap, FxHashSet};
use crate::hierarchy::ClassTable;
use crate::sym::Sym;

use super::cfg::jump_targets;
use super::domain::Target;
use super::handoffs::{
    handler_subclass_looper, looper_thread, makes_handler_on_calling_looper, makes_handler_on_looper_given, HANDLER, HANDLER_DESCRIPTOR,
    LOOPER_GETTER,
};

/// How far before `createAsync(looper)` its looper argument is looked for: `getMainLooper()`
/// just before, or a `HandlerThread` loaded and its `getLooper()`.
const LOOPER_REACH: usize = 3;

const LOOPER_DESCRIPTOR: &str = "Landroid/os/Looper;";

/// What a module's summary file says of the handlers its code keeps, for the modules below it,
/// which do not analyse that code: the thread of each handler field of its classes, and of each
/// of its methods returning one's handler (a post downstream through `BackgroundThread.sHandler`
/// or what `BackgroundThread.getHandler()` returns runs there). A module adds those of every
/// upstream file to its own.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ModuleHandlers {
    /// By declaring class and name, sorted.
    pub fields: Vec<(Sym, Sym, Target)>,
    /// Sorted.
    pub getters: Vec<(MethodRef, Target)>,
}

impl ModuleHandlers {
    /// Another module's too.
    pub fn merge(&mut self, other: &ModuleHandlers) {
        self.fields.extend(other.fields.iter().copied());
        self.getters.extend(other.getters.iter().copied());
    }
}

/// The threads of the handlers the analysed code keeps: by field (declaring class, name), and
/// by method returning a field's handler.
#[derive(Default)]
pub struct HandlerThreads {
    pub fields: FxHashMap<(Sym, Sym), Target>,
    pub getters: FxHashMap<MethodRef, Target>,
}

impl HandlerThreads {
    /// The thread of a handler read elsewhere (see [`handler_read`]) or made on a looper of known
    /// thread, when known (of this module or upstream); a parameter's is not kept.
    pub fn thread_of(&self, table: &ClassTable, handler: &Stored) -> Option<Target> {
        match handler {
            Stored::Made(target) => Some(*target),
            Stored::Returned(m) => self.getters.get(&table.resolve_method(m)?).copied(),
            Stored::Copied(f) => self.fields.get(&(table.resolve_field(f.class, f.name), f.name)).copied(),
            Stored::Param(..) => None,
        }
    }

    /// What the summary file says of those of the classes `own` accepts.
    pub fn exported(&self, own: impl Fn(Sym) -> bool) -> ModuleHandlers {
        let mut fields: Vec<(Sym, Sym, Target)> =
            self.fields.iter().filter(|((class, _), _)| own(*class)).map(|(&(class, name), &t)| (class, name, t)).collect();
        fields.sort();
        let mut getters: Vec<(MethodRef, Target)> = self.getters.iter().filter(|(m, _)| own(m.class)).map(|(m, t)| (*m, *t)).collect();
        getters.sort();
        ModuleHandlers { fields, getters }
    }
}

/// What one store into a field gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stored {
    /// A handler made on a looper of this thread.
    Made(Target),
    /// The handler this method returns, or one on its looper.
    Returned(&'static MethodRef),
    /// The handler this field holds, or one on its looper.
    Copied(&'static FieldRef),
    /// The handler (or looper) the constructor's parameter at this index is given, by every
    /// call of it that says (`this(context, BackgroundThread.get().getLooper(), false)`).
    Param(MethodRef, u16),
}

/// Where a handler store or argument is read: the method, its body, and whether it runs on
/// the main thread from its start (see [`super::handoffs::starts_on_main_looper`]), whose looper
/// a handler made there without one (`new Handler()`), or with `Looper.myLooper()`, is on.
#[derive(Clone, Copy)]
pub struct Code<'a> {
    pub method: &'a MethodRef,
    pub body: &'a Body,
    pub on_main: bool,
}

impl Code<'_> {
    /// What local `slot` holds, in a constructor, when it is the parameter of one of `types`
    /// (descriptors): that parameter.
    fn param(&self, slot: u16, types: &[&str]) -> Option<Stored> {
        if self.method.name.as_str() != "<init>" {
            return None;
        }
        let descriptor = self.method.descriptor.as_str();
        let index = param_at_slot(descriptor, slot)?;
        let typed = params(descriptor).nth(index)?;
        types.contains(&typed).then(|| Stored::Param(*self.method, index as u16))
    }
}

/// The stores of one body that give a handler field a handler, with what each gives: `f = new
/// Handler(Looper.getMainLooper())` (main), `f = new Handler(handlerThread.getLooper())`
/// (background), a getter's, another field's or a constructor parameter's handler; a store a
/// jump reaches is left out.
pub fn handler_stores(table: &ClassTable, code: Code<'_>) -> Vec<(FieldRef, Stored)> {
    let mut out = Vec::new();
    let mut targets: Option<Vec<bool>> = None;
    for (field, before) in code.body.field_stores(|_| true) {
        let Some((value, stored)) = before.and_then(|value| Some((value, stored_value(table, code, value)?))) else { continue };
        // A store a jump reaches (`f = c ? a : b`) need not store what the instruction before
        // it made: not counted, as a parameter's handler is not. Only looked for at the few
        // stores of a handler, not at every store.
        if !targets.get_or_insert_with(|| jump_targets(code.body))[value + 1] {
            out.push((*field, stored));
        }
    }
    out
}

/// What the value instruction `value` leaves says of the handler stored: made there, a getter's,
/// another field's or a constructor parameter's.
fn stored_value(table: &ClassTable, code: Code<'_>, value: usize) -> Option<Stored> {
    let Code { body, on_main, .. } = code;
    if let Some(read) = handler_read(&body.insns[value]) {
        return Some(read);
    }
    let made_at = match &body.insns[value] {
        Insn::Invoke { method: m, .. } if makes_handler_on_calling_looper(m) => return on_main.then_some(Stored::Made(Target::Main)),
        Insn::Invoke { method: m, .. } if m.name.as_str() == "<init>" && m.class.as_str() == HANDLER => value,
        // The looper is the call's first argument, computed just before it.
        Insn::Invoke { method: m, .. } if makes_handler_on_looper_given(m) => {
            let first = value.saturating_sub(LOOPER_REACH);
            return (first..value).rev().find_map(|at| looper_at(table, body, at, on_main));
        }
        Insn::Load { slot, .. } => return code.param(*slot, &[HANDLER_DESCRIPTOR]),
        // A handler subclass's constructor that makes its handler on a looper it is given
        // is looked at as `new Handler(looper)`; the others say which looper themselves.
        Insn::Invoke { method: m, .. } => {
            let made = match handler_subclass_looper(table, m)? {
                HandlerLooper::Param(_) => return looper_given(table, code, value, m.class),
                HandlerLooper::Main => Target::Main,
                HandlerLooper::Worker => Target::Background,
                HandlerLooper::Calling if on_main => Target::Main,
                HandlerLooper::Calling => return None,
            };
            return Some(Stored::Made(made));
        }
        _ => return None,
    };
    looper_given(table, code, made_at, Sym::new(HANDLER))
}

/// What the looper given to the constructor of `made` called at `made_at` says of its thread:
/// computed between the `new` and the call (as javac orders them), or kept in a local just before
/// the `new` and loaded between them (kotlinc computes the super-constructor arguments of an
/// object expression first), or a constructor's looper parameter.
fn looper_given(table: &ClassTable, code: Code<'_>, made_at: usize, made: Sym) -> Option<Stored> {
    let Code { body, on_main, .. } = code;
    let mut loaded = None;
    for (at, insn) in body.insns[..made_at].iter().enumerate().rev() {
        match insn {
            Insn::New { class } if *class == made => {
                let slot = loaded?;
                return match body.insns[..at] {
                    [.., Insn::Invoke { .. }, Insn::Store { slot: stored, .. }] if stored == slot => looper_at(table, body, at - 2, on_main),
                    _ => code.param(slot, &[LOOPER_DESCRIPTOR]),
                };
            }
            Insn::Invoke { .. } => {
                if let Some(stored) = looper_at(table, body, at, on_main) {
                    return Some(stored);
                }
            }
            // The last local loaded is the last argument; the outer instance is `this` (slot 0).
            Insn::Load { slot, .. } if *slot != 0 && loaded.is_none() => loaded = Some(*slot),
            _ => {}
        }
    }
    None
}

/// The handlers and loopers `code` gives constructors' parameters of those types, by
/// constructor and parameter index, for the constructors of its own package: a module analysed
/// alone does not see the calls of the modules using it, so the whole build must not count them
/// either (a package is one module's). An argument is read where it ends, which is known when each
/// argument after it is one instruction (a constant, a local) and no jump leads between it and
/// the call (`this(onMain ? main : worker, false)`); `None` where it is not, or where the argument
/// is of unknown thread.
pub fn handler_arguments(table: &ClassTable, code: Code<'_>) -> Vec<(MethodRef, u16, Option<Stored>)> {
    let insns = &code.body.insns;
    let mut out = Vec::new();
    let mut targets: Option<Vec<bool>> = None;
    for (at, insn) in insns.iter().enumerate() {
        let Insn::Invoke { method, .. } = insn else { continue };
        let descriptor = method.descriptor.as_str();
        if method.name.as_str() != "<init>" || !(descriptor.contains(HANDLER_DESCRIPTOR) || descriptor.contains(LOOPER_DESCRIPTOR)) {
            continue;
        }
        if package_of(method.class.as_str()) != package_of(code.method.class.as_str()) {
            continue;
        }
        let types: Vec<&str> = params(descriptor).collect();
        for (index, typed) in types.iter().enumerate() {
            if *typed != HANDLER_DESCRIPTOR && *typed != LOOPER_DESCRIPTOR {
                continue;
            }
            let after = types.len() - 1 - index;
            let end = at.checked_sub(after + 1);
            let targets = targets.get_or_insert_with(|| jump_targets(code.body));
            let simple_after = |end: usize| {
                insns[end + 1..at].iter().all(|i| matches!(i, Insn::Const { .. } | Insn::Load { .. })) && !targets[end + 1..=at].contains(&true)
            };
            let stored = end.filter(|&end| simple_after(end)).and_then(|end| value_at(table, code, end));
            out.push((**method, index as u16, stored));
        }
    }
    out
}

/// What the handler or looper instruction `at` leaves says of its thread.
fn value_at(table: &ClassTable, code: Code<'_>, at: usize) -> Option<Stored> {
    let insn = &code.body.insns[at];
    if let Some(read) = handler_read(insn) {
        return Some(read);
    }
    match insn {
        Insn::Invoke { .. } => looper_at(table, code.body, at, code.on_main),
        Insn::Load { slot, .. } => code.param(*slot, &[HANDLER_DESCRIPTOR, LOOPER_DESCRIPTOR]),
        _ => None,
    }
}

/// What the call at `at`, when it gives a looper, says of the handlers made on it: a looper of
/// known thread, or the looper of a handler a method returns or a field holds, read just before
/// (`BackgroundThread.getHandler().getLooper()`, `mWorker.getLooper()`).
fn looper_at(table: &ClassTable, body: &Body, at: usize, on_main: bool) -> Option<Stored> {
    let Insn::Invoke { method, .. } = &body.insns[at] else { return None };
    if let Some(target) = looper_thread(table, method, on_main) {
        return Some(Stored::Made(target));
    }
    let handler = handler_read(&body.insns[at.checked_sub(1)?])?;
    let of_handler = method.name.as_str() == "getLooper"
        && method.descriptor.as_str() == LOOPER_GETTER
        && table.is_subtype_of_any(method.class, &[HANDLER]);
    of_handler.then_some(handler)
}

/// The handler `insn` reads when it is one kept elsewhere: a handler field's (`mWorker`), or the
/// one a method returns (`BackgroundThread.getHandler()`); not a handler `createAsync(looper)`
/// makes, which is on the looper it is given.
pub fn handler_read(insn: &Insn) -> Option<Stored> {
    match insn {
        Insn::Invoke { method, .. }
            if returns_handler(method) && method.name.as_str() != "<init>" && !makes_handler_on_looper_given(method) =>
        {
            Some(Stored::Returned(method))
        }
        Insn::GetField(f) | Insn::GetStatic(f) if f.descriptor.as_str() == HANDLER_DESCRIPTOR => Some(Stored::Copied(f)),
        _ => None,
    }
}

/// Whether `method` is declared to return a `Handler`.
pub fn returns_handler(method: &MethodRef) -> bool {
    method.descriptor.as_str().strip_suffix(HANDLER_DESCRIPTOR).is_some_and(|d| d.ends_with(')'))
}

/// The fields a method returning a `Handler` returns, when every value it returns is read from
/// a field, just before or through a local every store into which is (javac's form of a return
/// inside a `synchronized` block); `None` for any other return.
pub fn returned_fields(body: &Body) -> Option<Vec<&'static FieldRef>> {
    let insns = &body.insns;
    // The instruction that left the value `at` takes, past casts and the monitor exits a
    // `synchronized` block ends with (each loads the lock it releases).
    let value_before = |at: usize| -> Option<usize> {
        let mut i = at.checked_sub(1)?;
        loop {
            match insns[i] {
                Insn::CheckCast => i = i.checked_sub(1)?,
                Insn::MonitorExit if i >= 2 && matches!(insns[i - 1], Insn::Load { .. }) => i -= 2,
                _ => return Some(i),
            }
        }
    };
    let field_read_before = |at: usize| -> Option<&'static FieldRef> {
        match &insns[value_before(at)?] {
            Insn::GetField(f) | Insn::GetStatic(f) => Some(*f),
            _ => None,
        }
    };
    let mut out = Vec::new();
    for (at, insn) in insns.iter().enumerate() {
        if !matches!(insn, Insn::Return { value: Some(_) }) {
            continue;
        }
        match value_before(at).map(|i| &insns[i]) {
            Some(Insn::Load { slot, .. }) => {
                let stores: Vec<usize> =
                    (0..insns.len()).filter(|&i| matches!(insns[i], Insn::Store { slot: s, .. } if s == *slot)).collect();
                if stores.is_empty() {
                    return None;
                }
                for store in stores {
                    out.push(field_read_before(store)?);
                }
            }
            _ => out.push(field_read_before(at)?),
        }
    }
    (!out.is_empty()).then_some(out)
}

/// The thread of every handler field, by (declaring class, name), that its stores agree on: a
/// field given handlers of two threads is left unmodelled, and so is one whose stores read a
/// field, method or parameter left so. Stores of unknown handlers are not counted.
/// `arguments`: what the calls of constructors give their handler and looper parameters (see
/// [`handler_arguments`]): a parameter is known when every call gives one thread (a constructor
/// is written to be given other loopers, so no call may be left out). `getters`: the analysed methods returning
/// a handler, each with the fields it returns (see [`returned_fields`]); a method another
/// overrides returns what the object's class says: not followed. `upstream`: what the upstream
/// modules' summary files say of theirs.
pub fn resolve(
    table: &ClassTable,
    stores: &[(FieldRef, Stored)],
    arguments: &[(MethodRef, u16, Option<Stored>)],
    getters: &FxHashMap<MethodRef, Option<Vec<&'static FieldRef>>>,
    upstream: &ModuleHandlers,
) -> HandlerThreads {
    let overridden: FxHashSet<MethodRef> = getters
        .keys()
        .filter_map(|m| {
            let above = table.get(m.class)?.super_class?;
            table.resolve_method(&MethodRef { class: above, ..*m })
        })
        .collect();
    let upstream_getters: FxHashMap<MethodRef, Target> = upstream.getters.iter().copied().collect();
    let key = |f: &FieldRef| (table.resolve_field(f.class, f.name), f.name);
    let thread_of_getter = |fields: &FxHashMap<(Sym, Sym), Target>, m: &MethodRef| -> Option<Target> {
        let declared = table.resolve_method(m).filter(|d| !overridden.contains(d))?;
        let Some(returned) = getters.get(&declared) else { return upstream_getters.get(&declared).copied() };
        let thread_of_field = |f: &FieldRef| fields.get(&key(f)).copied();
        let first = thread_of_field(returned.as_ref()?[0])?;
        returned.as_ref()?[1..].iter().all(|f| thread_of_field(f) == Some(first)).then_some(first)
    };
    let mut fields: FxHashMap<(Sym, Sym), Target> = FxHashMap::default();
    let mut params: FxHashMap<(MethodRef, u16), Target> = FxHashMap::default();
    let (mut conflicted_fields, mut conflicted_params) = (FxHashSet::default(), FxHashSet::default());
    // A chain of getters, copies and constructors is a few links long; the cap only bounds a
    // pathological one.
    for _ in 0..MAX_ROUNDS {
        let thread = |stored: &Stored| match stored {
            Stored::Made(target) => Some(*target),
            Stored::Returned(m) => thread_of_getter(&fields, m),
            Stored::Copied(f) => fields.get(&key(f)).copied(),
            Stored::Param(m, i) => params.get(&(*m, *i)).copied(),
        };
        let upstream_fields = upstream.fields.iter().map(|&(class, name, target)| ((class, name), target));
        let next_fields = agreed(upstream_fields, stores.iter().map(|(f, s)| (key(f), thread(s))), &mut conflicted_fields);
        let next_params = all_agree(arguments.iter().map(|(m, i, s)| ((*m, *i), s.as_ref().and_then(thread))), &mut conflicted_params);
        if next_fields == fields && next_params == params {
            break;
        }
        (fields, params) = (next_fields, next_params);
    }
    // Upstream getters too, for the calls here (the summary file keeps only this module's).
    let own_getters = getters.keys().filter_map(|m| Some((*m, thread_of_getter(&fields, m)?)));
    let getters = upstream_getters.iter().map(|(m, t)| (*m, *t)).chain(own_getters).collect();
    HandlerThreads { fields, getters }
}

/// The thread each key's values all give, none unknown: a key given two is left out, and stays
/// out in the later rounds (`conflicted`); one given an unknown value may be known in a later one.
/// Whatever the values' order, the answer is the same.
fn all_agree<K: Copy + Eq + std::hash::Hash>(
    values: impl IntoIterator<Item = (K, Option<Target>)>,
    conflicted: &mut FxHashSet<K>,
) -> FxHashMap<K, Target> {
    // Per key: the thread its known values give, and whether one was unknown.
    let mut each: FxHashMap<K, (Option<Target>, bool)> = FxHashMap::default();
    for (k, target) in values {
        let (known, unknown) = each.entry(k).or_insert((None, false));
        match (target, *known) {
            (None, _) => *unknown = true,
            (Some(t), None) => *known = Some(t),
            (Some(t), Some(first)) if t != first => {
                conflicted.insert(k);
            }
            _ => {}
        }
    }
    each.into_iter().filter(|(k, (_, unknown))| !unknown && !conflicted.contains(k)).filter_map(|(k, (t, _))| Some((k, t?))).collect()
}

/// The thread each key's values agree on, from `seeds` and the known `values`: a key given two
/// is left out, and stays out in the later rounds (`conflicted`): they only add what is known.
fn agreed<K: Copy + Eq + std::hash::Hash>(
    seeds: impl IntoIterator<Item = (K, Target)>,
    values: impl IntoIterator<Item = (K, Option<Target>)>,
    conflicted: &mut FxHashSet<K>,
) -> FxHashMap<K, Target> {
    let mut next: FxHashMap<K, Target> = seeds.into_iter().collect();
    for (k, target) in values {
        let Some(target) = target else { continue };
        if !conflicted.contains(&k) && *next.entry(k).or_insert(target) != target {
            conflicted.insert(k);
        }
    }
    next.retain(|k, _| !conflicted.contains(k));
    next
}

const MAX_ROUNDS: usize = 16;

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::hierarchy::Origin;

    fn handler_field(class: &str, name: &str) -> &'static FieldRef {
        crate::interned::field_ref(FieldRef { class: Sym::new(class), name: Sym::new(name), descriptor: Sym::new(HANDLER_DESCRIPTOR) })
    }

    fn getter(class: &str, name: &str) -> &'static MethodRef {
        crate::interned::method_ref(MethodRef { class: Sym::new(class), name: Sym::new(name), descriptor: Sym::new("()Landroid/os/Handler;") })
    }

    fn body(insns: Vec<Insn>) -> Body {
        Body { lines: vec![0; insns.len()], insns, max_locals: 2, handlers: Vec::new() }
    }

    fn value_return() -> Insn {
        Insn::Return { value: Some(false) }
    }

    /// A class declaring the methods named, each returning a handler.
    fn class(name: &str, super_class: &str, getters: &[&str]) -> Arc<ClassHeader> {
        let method = |name: &str| MethodHeader::plain(name, "()Landroid/os/Handler;", 0);
        Arc::new(ClassHeader {
            name: Sym::new(name),
            flags: 0,
            super_class: Some(Sym::new(super_class)),
            interfaces: Vec::new(),
            annotations: Vec::new(),
            fields: Vec::new(),
            methods: getters.iter().map(|g| method(g)).collect(),
            source_file: None,
            kotlin_internal: false,
        })
    }

    #[test]
    fn a_getter_returns_the_fields_it_reads_just_before_or_through_a_local() {
        let (shared, other) = (handler_field("p.T", "sHandler"), handler_field("p.T", "sOther"));
        // synchronized (T.class) { ensure(); return sHandler; }: the lock is loaded and released
        // between the read and the return.
        let locked = body(vec![
            Insn::GetStatic(shared),
            Insn::Load { slot: 0, wide: false },
            Insn::MonitorExit,
            value_return(),
        ]);
        assert_eq!(returned_fields(&locked), Some(vec![shared]));
        // Through a local given two fields: both are returned.
        let through_local = body(vec![
            Insn::GetStatic(shared),
            Insn::Store { slot: 1, wide: false },
            Insn::GetStatic(other),
            Insn::Store { slot: 1, wide: false },
            Insn::Load { slot: 1, wide: false },
            value_return(),
        ]);
        assert_eq!(returned_fields(&through_local), Some(vec![shared, other]));
        // A parameter, or a handler made in the method, is not a field's.
        assert_eq!(returned_fields(&body(vec![Insn::Load { slot: 0, wide: false }, value_return()])), None);
        let made = crate::interned::method_ref(MethodRef { class: Sym::new(HANDLER), name: Sym::new("<init>"), descriptor: Sym::new("()V") });
        assert_eq!(returned_fields(&body(vec![Insn::Invoke { kind: InvokeKind::Special, method: made }, value_return()])), None);
    }

    #[test]
    fn stores_take_the_thread_of_the_getters_and_fields_they_keep() {
        let mut table = ClassTable::new();
        table.insert(class("p.Threads", "java.lang.Object", &["worker", "job"]), Origin::Analysed);
        table.insert(class("p.MainJobs", "p.Threads", &["job"]), Origin::Analysed);
        table.freeze();
        let worker_field = handler_field("p.Threads", "sWorker");
        let (kept, copied, mixed, job) =
            (handler_field("p.A", "kept"), handler_field("p.A", "copied"), handler_field("p.A", "mixed"), handler_field("p.A", "job"));
        let (worker, job_getter) = (getter("p.Threads", "worker"), getter("p.Threads", "job"));
        let stores = vec![
            (*worker_field, Stored::Made(Target::Background)),
            // Listed before what it copies is known: the rounds settle it.
            (*copied, Stored::Copied(kept)),
            (*kept, Stored::Returned(worker)),
            (*mixed, Stored::Returned(worker)),
            (*mixed, Stored::Made(Target::Main)),
            (*job, Stored::Returned(job_getter)),
        ];
        let mut getters: FxHashMap<MethodRef, Option<Vec<&'static FieldRef>>> = FxHashMap::default();
        getters.insert(*worker, Some(vec![worker_field]));
        getters.insert(*job_getter, Some(vec![worker_field]));
        getters.insert(*getter("p.MainJobs", "job"), None);
        let known = resolve(&table, &stores, &[], &getters, &ModuleHandlers::default()).fields;
        let thread = |f: &FieldRef| known.get(&(f.class, f.name)).copied();
        assert_eq!(thread(kept), Some(Target::Background));
        assert_eq!(thread(copied), Some(Target::Background));
        // Given two threads' handlers; kept from a getter a subclass overrides.
        assert_eq!(thread(mixed), None);
        assert_eq!(thread(job), None);
    }

    /// A constructor's parameter is known when every call gives one thread, in any order of
    /// the calls; two threads keep it out for good.
    #[test]
    fn a_parameter_takes_the_thread_all_its_calls_give() {
        let (main, worker) = (Some(Target::Main), Some(Target::Background));
        let answer = |values: &[Option<Target>]| {
            let mut conflicted = FxHashSet::default();
            let known = all_agree(values.iter().map(|v| (0, *v)), &mut conflicted);
            (known.get(&0).copied(), conflicted.contains(&0))
        };
        assert_eq!(answer(&[main, main]), (main, false));
        assert_eq!(answer(&[main, None]), (None, false));
        assert_eq!(answer(&[None, main]), (None, false));
        for order in [[main, None, worker], [main, worker, None], [None, worker, main]] {
            assert_eq!(answer(&order), (None, true), "{order:?}");
        }
    }
}
