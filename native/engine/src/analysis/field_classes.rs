//! Fields holding objects of one known class (`field_receiver_dispatch`): a private or final
//! field that every store in the analysed code gives a new object of one class (`final Worker
//! mWorker = new CountingWorker()`) holds an object of that class, so a call on it in its own
//! class, named through the field's declared type, runs that class's implementation, not the one
//! the declared type names.
//!
//! A store may also give the field what a static field of the same class (or of its source file,
//! see [`classes_of`]) holds, read directly or through a static getter of the static's class, and
//! a conditional may choose between such values (`pending =
//! discard ? DISCARDING_QUEUE : new ConcurrentLinkedQueue<>()`). A thread-safe container among
//! the classes a field may hold adds no access of its own wherever a call on it is dispatched, so
//! a field whose other values are all of one class holds that class for dispatch.
//!
//! Only the field's own class is trusted to call through it: its bodies are in the same module
//! as the stores (a final field is stored by its class only, a private one by its nest), so a
//! module analysed alone finds the same fact, and its class's references name the candidate
//! implementations (see the lowering's `dispatched` pairs, made on the same terms).

use rayon::prelude::*;

use crate::classfile::descriptor::is_object_of;
use crate::classfile::model::*;
use crate::fxhash::{FxHashMap, FxHashSet};
use crate::hierarchy::{ClassTable, Origin};
use crate::issue::top_level_class;
use crate::sym::Sym;

use super::extensions::Extensions;
use super::models;

const ACC_PRIVATE: u16 = 0x0002;
const ACC_FINAL: u16 = 0x0010;

/// What a field holds: objects of `class`, in a field declared of type `declared`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeldClass {
    pub class: Sym,
    pub declared: Sym,
}

/// By (declaring class, name).
pub type FieldClasses = FxHashMap<(Sym, Sym), HeldClass>;

/// The implementation method of the lambda a field holds, by (declaring class, name).
pub type FieldLambdas = FxHashMap<(Sym, Sym), MethodRef>;

/// Where a value stored into a field comes from, as the storing code shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// A new object of this class, made by the constructor call just before.
    New(Sym),
    /// What a static field holds: read with `getstatic`, or returned by a static getter
    /// (`static Queue discardingQueue() { return DISCARDING_QUEUE; }`).
    Static(FieldRef),
    /// No object (`cache = enabled ? new Cache() : null`): nothing is called or reached through it.
    Null,
    /// A lambda or method reference (its implementation method) capturing nothing, or only
    /// the storing method's own object (`private final Runnable tick = () -> ticks++`).
    Lambda(MethodRef),
}

/// What the stores seen so far give a field: values from these sources, or (None) anything
/// else, with the field's descriptor.
pub type Stores = FxHashMap<(Sym, Sym), (Option<Vec<Source>>, Sym)>;

/// What the stores of the analysed code give the private or final fields of analysed classes:
/// scanned once for [`collect`] and [`fresh_fields`]. `static_getter` names the static field a
/// static method of the field's class returns, when that is all it does (see
/// [`returned_static`]).
pub fn stores<'b>(
    table: &ClassTable,
    static_getter: &(dyn Fn(&MethodRef) -> Option<FieldRef> + Sync),
    bodies: impl ParallelIterator<Item = &'b Body>,
) -> Stores {
    bodies
        .fold(Stores::default, |mut seen, body| {
            let mut targets: Option<Vec<bool>> = None;
            for (f, before) in body.field_stores(|d| d.starts_with('L')) {
                let Some(key) = fact_field(table, f) else { continue };
                let store = before.map_or(0, |b| b + 1);
                note_store(&mut seen, key, (value_sources(body, store, &mut targets, static_getter), f.descriptor));
            }
            seen
        })
        .reduce(Stores::default, |mut a, b| {
            for (key, store) in b {
                note_store(&mut a, key, store);
            }
            a
        })
}

/// The fields whose `stored` values are objects of one class, besides thread-safe containers.
pub fn collect(table: &ClassTable, ext: Extensions, stored: &Stores) -> FieldClasses {
    stored
        .iter()
        .filter_map(|(key, (sources, descriptor))| {
            let classes = classes_of(table, stored, *key, sources.as_deref()?)?;
            let shared: Vec<Sym> = classes.iter().copied().filter(|c| !models::is_synchronized_container(table, *c, ext)).collect();
            let class = match shared[..] {
                [one] => one,
                [] => *classes.first()?,
                _ => return None,
            };
            Some((*key, HeldClass { class, declared: declared_class(*descriptor)? }))
        })
        .collect()
}

/// The fields every store of the analysed code gives a new object, made for the store
/// (`this.state = new State()`), or null, by (declaring class, name): no other object holds what such a
/// field holds, unless its holder hands it on (see `Facts::fresh_fields`).
pub fn fresh_fields(stored: &Stores) -> FxHashSet<(Sym, Sym)> {
    stored
        .iter()
        .filter(|(_, (sources, _))| sources.as_ref().is_some_and(|s| s.iter().all(|s| matches!(s, Source::New(_) | Source::Null))))
        .map(|(key, _)| *key)
        .collect()
}

/// The classes of the objects `sources` give field `key`, by name: a static field counts when
/// every store gives it new objects and it is of the same class, or of another class of the same
/// source file (a nested or outer class) holding objects of classes of that file only: the
/// module has their code, so a module analysed alone finds the same, with no upstream summary
/// to load for them (the lowering pairs only a class's own statics).
fn classes_of(table: &ClassTable, stored: &Stores, key: (Sym, Sym), sources: &[Source]) -> Option<Vec<Sym>> {
    let file = |class: Sym| top_level_class(class.as_str());
    let mut classes = Vec::new();
    for source in sources {
        match source {
            Source::New(class) => classes.push(*class),
            Source::Null => {}
            Source::Lambda(_) => return None,
            Source::Static(f) => {
                let held = fact_field(table, f)?;
                let same_class = held.0 == key.0;
                if !same_class && file(held.0) != file(key.0) {
                    return None;
                }
                for inner in stored.get(&held)?.0.as_deref()? {
                    let class = match inner {
                        Source::New(class) => class,
                        Source::Null => continue,
                        Source::Static(_) | Source::Lambda(_) => return None,
                    };
                    if !same_class && file(*class) != file(key.0) {
                        return None;
                    }
                    classes.push(*class);
                }
            }
        }
    }
    classes.sort_by(|a, b| a.as_str().cmp(b.as_str()));
    classes.dedup();
    Some(classes)
}

/// The sources of the value the store at index `store` writes, one per way control reaches it:
/// the instruction before it and, where the store joins the branches of a conditional (`c ?
/// new A() : B.CONSTANT`), the instruction before each `goto` to it; casts are looked through.
/// None when any of them is something else, or when a conditional jump, a switch or a handler
/// leads to the store. `targets` holds the body's jump targets once they were needed.
pub fn value_sources(
    body: &Body,
    store: usize,
    targets: &mut Option<Vec<bool>>,
    static_getter: &dyn Fn(&MethodRef) -> Option<FieldRef>,
) -> Option<Vec<Source>> {
    let insns = &body.insns;
    let before = store.checked_sub(1)?;
    // Most stored values are of no known source: settled before the jump targets are needed.
    let mut at = before;
    while matches!(insns[at], Insn::CheckCast) {
        at = at.checked_sub(1)?;
    }
    if !matches!(insns[at], Insn::Invoke { .. } | Insn::InvokeDynamic(_) | Insn::GetStatic(_) | Insn::Const { value: ConstVal::Null, .. }) {
        return None;
    }
    let targets = targets.get_or_insert_with(|| super::cfg::jump_targets(body));
    let source_at = |at: usize| source_at(insns, targets, at, static_getter);
    if !targets[store] {
        return Some(vec![source_at(before)?]);
    }
    let mut sources = Vec::new();
    for i in 0..insns.len() {
        let mut reaches = false;
        super::cfg::for_each_successor(insns, i, |s| reaches |= s == store);
        if !reaches {
            continue;
        }
        let source = match insns[i] {
            // A `goto` reached by a jump itself joins more branches.
            Insn::Goto { .. } if !targets[i] => source_at(i.checked_sub(1)?)?,
            Insn::Goto { .. } | Insn::If { .. } | Insn::Switch { .. } | Insn::Jsr { .. } => return None,
            _ => source_at(i)?,
        };
        sources.push(source);
    }
    let handled = body.handlers.iter().any(|h| h.target as usize == store);
    (!handled).then_some(sources)
}

/// The static field of its own class `class` that a static method (`flags`, `body`) does
/// nothing but return (`static Queue discardingQueue() { return DISCARDING_QUEUE; }`, casts
/// aside).
pub fn returned_static(class: Sym, flags: u16, body: &Body) -> Option<FieldRef> {
    if flags & ACC_STATIC == 0 {
        return None;
    }
    let mut insns = body.insns.iter().filter(|i| !matches!(i, Insn::CheckCast | Insn::Nop));
    match (insns.next(), insns.next(), insns.next()) {
        (Some(Insn::GetStatic(f)), Some(Insn::Return { value: Some(_) }), None) if f.class == class => Some(**f),
        _ => None,
    }
}

/// The source of the value instruction `at` leaves on the stack, looking through casts that no
/// jump leads to.
fn source_at(insns: &[Insn], targets: &[bool], mut at: usize, static_getter: &dyn Fn(&MethodRef) -> Option<FieldRef>) -> Option<Source> {
    while matches!(insns[at], Insn::CheckCast) && !targets[at] {
        at = at.checked_sub(1)?;
    }
    match &insns[at] {
        // The object `new C` pushed before the constructor's arguments, whatever they were.
        Insn::Invoke { method, .. } if method.name.as_str() == "<init>" => Some(Source::New(method.class)),
        Insn::GetStatic(f) => Some(Source::Static(**f)),
        Insn::Const { value: ConstVal::Null, .. } => Some(Source::Null),
        Insn::Invoke { method, kind: InvokeKind::Static } => static_getter(method).map(Source::Static),
        Insn::InvokeDynamic(_) => lambda_made_at(insns, at).map(|(body, _)| Source::Lambda(body)),
        _ => None,
    }
}

/// The lambda or method reference the `invokedynamic` at `at` makes, when it captures nothing
/// or only the running method's own object: its implementation method, and whether it
/// captures that object (`this`, loaded just before, of the implementation's class).
pub(super) fn lambda_made_at(insns: &[Insn], at: usize) -> Option<(MethodRef, bool)> {
    let Insn::InvokeDynamic(DynamicCall { lambda: Some(body), descriptor, .. }) = &insns[at] else { return None };
    // The captured values are the call site's parameters: none, or `this` alone.
    let captures = descriptor.as_str().strip_prefix('(')?.split(')').next()?;
    let captures_own_object =
        at > 0 && matches!(insns[at - 1], Insn::Load { slot: 0, wide: false }) && is_object_of(captures, body.class.as_str());
    (captures.is_empty() || captures_own_object).then_some((*body, captures_own_object))
}

/// The lambdas held by fields (see [`Source::Lambda`]): the fields every store gives the same
/// lambda (or null), by (declaring class, name), with the lambda's implementation method.
pub fn lambdas(stored: &Stores) -> FieldLambdas {
    stored
        .iter()
        .filter_map(|(key, (sources, _))| {
            let mut held = sources.as_ref()?.iter().filter(|s| !matches!(s, Source::Null));
            let Some(Source::Lambda(body)) = held.next() else { return None };
            held.all(|s| *s == Source::Lambda(*body)).then_some((*key, *body))
        })
        .collect()
}

/// The (declaring class, name) of a field a fact can be about: private or final, of an analysed
/// class. Most stores name a field of the class they name, whose flags then settle it.
pub(super) fn fact_field(table: &ClassTable, f: &FieldRef) -> Option<(Sym, Sym)> {
    let (declaring, header) = match table.field(f.class, f.name) {
        Some(header) => (f.class, header),
        None => {
            let declaring = table.resolve_field(f.class, f.name);
            (declaring, table.field(declaring, f.name)?)
        }
    };
    (header.flags & (ACC_PRIVATE | ACC_FINAL) != 0 && table.origin(declaring) == Some(Origin::Analysed)).then_some((declaring, f.name))
}

fn note_store(seen: &mut Stores, key: (Sym, Sym), (sources, descriptor): (Option<Vec<Source>>, Sym)) {
    match seen.get_mut(&key) {
        None => {
            seen.insert(key, (sources, descriptor));
        }
        Some((known, _)) => match (known.as_mut(), sources) {
            (Some(known), Some(more)) => {
                for s in more {
                    if !known.contains(&s) {
                        known.push(s);
                    }
                }
            }
            _ => *known = None,
        },
    }
}

/// The class a field of object type is declared with (`Lp/Worker;`: `p.Worker`).
pub fn declared_class(descriptor: Sym) -> Option<Sym> {
    crate::classfile::descriptor::object_class(descriptor.as_str()).map(|c| Sym::new(&c))
}

/// The classes of the objects the fields with a known class that `body` (of a method of
/// `class`) reads hold: the implementations its calls on them may run. A read counts when it
/// names the field through `class` itself (`this.f`), as the interpreter asks.
pub fn read_by(fields: &FieldClasses, class: Sym, body: &Body) -> Vec<Sym> {
    let mut classes = Vec::new();
    for held in own_fields_read(fields, class, body) {
        if !classes.contains(&held.class) {
            classes.push(held.class);
        }
    }
    classes
}

/// The distinct facts of the fields, by (declaring class, name), that `body` (of a method of
/// `class`) reads naming them through `class` itself (`this.f`), as the interpreter asks.
pub fn own_fields_read<T: Copy + PartialEq>(facts: &FxHashMap<(Sym, Sym), T>, class: Sym, body: &Body) -> Vec<T> {
    let mut out = Vec::new();
    if facts.is_empty() {
        return out;
    }
    for insn in &body.insns {
        if let Insn::GetField(f) | Insn::GetStatic(f) = insn {
            // The facts are by declaring class: one of `class`'s is a field it declares.
            if let Some(&fact) = facts.get(&(f.class, f.name)).filter(|_| f.class == class) {
                if !out.contains(&fact) {
                    out.push(fact);
                }
            }
        }
    }
    out
}
