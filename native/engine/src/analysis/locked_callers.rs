//! Package-private helpers that every caller calls with a lock held (extension
//! `locked_callers`). Code outside its package cannot call such a method, nor a protected one
//! of a class that is not public, nor code outside its module a Kotlin `internal` one (with
//! `kotlin_internal`: an internal function, or a function of an internal class), so the
//! analysed code holds all its callers (and all the callers of the methods it overrides,
//! abstract ones included, through which it may be called): when each call is made from a
//! `synchronized` method, inside a `synchronized` block, between `lock()` and `unlock()`, or
//! from another such helper, the
//! method is reported through its callers, as a private method is (the accesses they make
//! without a lock are theirs). An internal property's accessor that nothing calls never runs,
//! and is not reported at all. A public or protected helper must override nothing racer cannot
//! see (`Object`'s methods, a JDK interface's), which code it does not see may call.
//!
//! With `looper_callers`, a call from a message handler (a `Handler` subclass's or a
//! `Handler.Callback`'s `handleMessage`) counts as such a call too: the handler's looper runs
//! its messages one at a time on its own thread ("you will receive it in handleMessage, in the
//! thread attached to this handler", Handler reference), so a helper only its message handlers
//! call runs there, and is reported through them, where their messages are sent.
//!
//! Decided from the bytecode before any method is analysed (the demand depends on it), and
//! only where the code says so plainly: the locks held at a call are those held on every path
//! to it ([`held_locks`]), never more.

use rayon::prelude::*;

use crate::classfile::model::*;
use crate::fxhash::{FxHashMap, FxHashSet};
use crate::hierarchy::ClassTable;
use crate::interned::ByAddress;
use crate::sym::Sym;

use super::schedule::{Bodies, MethodEntry};

/// By method: whether it is a package-private (or private) helper all of whose calls hold a
/// lock (see the module's comment). `takes_no_lock` says whether a method's own code takes none: one that
/// locks names what it does, not what its callers hold.
pub(super) fn called_only_under_lock(
    table: &ClassTable,
    classes: &[std::sync::Arc<Class>],
    methods: &[MethodEntry],
    bodies: &Bodies,
    by_ref: &FxHashMap<MethodRef, usize>,
    takes_no_lock: impl Fn(usize, usize) -> bool + Sync,
    looper_callers: bool,
    kotlin_internal: bool,
) -> Vec<bool> {
    let header = |i: usize| &classes[methods[i].class].methods[methods[i].index].header;
    let publicly_inherited = publicly_inherited(table, classes, kotlin_internal);
    // Each candidate with the methods it overrides: an override is reached through calls to
    // them, so all must be analysed code, whose calls are seen (abstract ones included), and
    // no other module may call them. For a protected candidate none is public, and each is of
    // its package or of a Kotlin internal class; for a public function of an internal class
    // each is of an internal class. Then they are of the candidate's module, and a module
    // analysed alone, whose upstream classes are not analysed code, decides as the whole build.
    let overriding: Vec<Option<Vec<Overridden>>> = (0..methods.len())
        .into_par_iter()
        .map(|i| {
            let e = &methods[i];
            let releases = || bodies[e.class][e.index].as_ref().is_some_and(releases_a_lock);
            if !is_candidate(classes, e, header(i), kotlin_internal, &publicly_inherited)
                || !takes_no_lock(e.class, e.index)
                || releases()
            {
                return None;
            }
            let overridden = overridden_methods(table, &e.mref)?;
            // A public or protected method may override one of a supertype whose methods racer
            // does not know (`java.lang.Object`'s, the bundled JDK table's, a class off the
            // classpath), which code it does not see calls: `toString()`, `run()`. Not a Kotlin
            // internal function, whose name carries its module's.
            let exported = header(i).flags & (ACC_PUBLIC | ACC_PROTECTED) != 0;
            let mangled = super::annotations::is_kotlin_internal(&classes[e.class].header, header(i));
            if exported && !mangled && may_override_unseen(table, &e.mref) {
                return None;
            }
            let package = package_of(e.mref.class.as_str());
            let internal_class = |o: &Overridden| kotlin_internal && table.get(o.method.class).is_some_and(|c| c.kotlin_internal);
            let hidden = |o: &Overridden| o.flags & ACC_PUBLIC == 0 && (package_of(o.method.class.as_str()) == package || internal_class(o));
            let reached_only_here = if is_protected_helper(header(i)) {
                overridden.iter().all(hidden)
            } else if is_internal_class_member(&classes[e.class].header, header(i)) {
                overridden.iter().all(internal_class)
            } else {
                true
            };
            reached_only_here.then_some(overridden)
        })
        .collect();
    let mut candidate: Vec<bool> = overriding.iter().map(Option::is_some).collect();
    // Any package of the module may call a Kotlin internal candidate, or a protected one of an
    // internal class (from a subclass).
    let module_wide = kotlin_internal
        && (0..methods.len()).any(|i| candidate[i] && (header(i).flags & ACC_PUBLIC != 0 || classes[methods[i].class].header.kotlin_internal));
    // Only code of a method's own package may call it when it is package-private or private,
    // or name it in a method reference (the JVM's access rule): the bodies of other packages
    // need no scan. The packages of the methods a candidate overrides count too, since a call
    // to one of those may run the candidate.
    let packages: FxHashSet<&str> = overriding
        .iter()
        .enumerate()
        .filter_map(|(i, overridden)| {
            let classes = overridden.as_ref()?.iter().map(|o| o.method.class);
            Some(std::iter::once(methods[i].mref.class).chain(classes))
        })
        .flatten()
        .map(|class| package_of(class.as_str()))
        .collect();
    // By method: the candidates overriding it, which a virtual call to it may run.
    let mut overriders: FxHashMap<MethodRef, Vec<usize>> = FxHashMap::default();
    for (i, overridden) in overriding.into_iter().enumerate() {
        for o in overridden.unwrap_or_default() {
            overriders.entry(o.method).or_default().push(i);
        }
    }
    // The calls each body makes to candidates, and the candidates it uses as method references.
    // Each worker remembers the methods it has resolved (a callee has about ten call sites).
    let scanned: Vec<(Vec<Call>, Vec<usize>)> = (0..methods.len())
        .into_par_iter()
        .map_init(FxHashMap::<ByAddress<MethodRef>, Resolved>::default, |resolved, caller| {
            let e = &methods[caller];
            if !module_wide && !packages.contains(package_of(e.mref.class.as_str())) {
                return Default::default();
            }
            let synchronized = header(caller).flags & ACC_SYNCHRONIZED != 0;
            let on_looper = looper_callers && is_message_handler(table, &e.mref);
            bodies[e.class][e.index].as_ref().map_or_else(Default::default, |body| {
                let mut resolve = |m: &'static MethodRef| {
                    *resolved.entry(ByAddress(m)).or_insert_with(|| {
                        let declared = table.resolve_method(m).unwrap_or(*m);
                        Resolved { declared, analysed: by_ref.get(&declared).copied() }
                    })
                };
                scan_calls(body, caller, synchronized || on_looper, &mut resolve, &overriders, &candidate)
            })
        })
        .collect();
    let mut calls: Vec<Call> = Vec::new();
    for (found, referenced) in scanned {
        calls.extend(found);
        // A method reference runs whenever its holder calls it, lock or not.
        for c in referenced {
            candidate[c] = false;
        }
    }
    // The accessor of a Kotlin internal property (or of a property of an internal class) that
    // nothing in its module calls never runs: only its module's code may call it, and the
    // property's own class reads and writes its field directly. Not one `@PublishedApi` marks,
    // which other modules' copies of the module's inline functions call. Only accessors: a
    // module that calls another's internal functions against the language's rule (kotlinx's
    // debug module calls the core's probes) does so for functions that do work.
    let dead_accessor: Vec<bool> = (0..methods.len())
        .map(|i| {
            if !(kotlin_internal && candidate[i]) {
                return false;
            }
            let (e, class, h) = (&methods[i], &classes[methods[i].class].header, header(i));
            let internal = super::annotations::is_kotlin_internal(class, h)
                || (class.kotlin_internal && h.flags & (ACC_PUBLIC | ACC_PROTECTED) != 0);
            internal
                && !super::annotations::is_published_internal(class, h)
                && bodies[e.class][e.index].as_ref().is_some_and(|b| is_field_accessor(b, e.mref.class))
        })
        .collect();
    held_helpers(&candidate, &calls, &dead_accessor)
}

/// Whether `m` is a message handler: `handleMessage(Message)` of a `Handler` subclass, or of a
/// `Handler.Callback` (which returns whether it handled the message).
fn is_message_handler(table: &ClassTable, m: &MethodRef) -> bool {
    if m.name.as_str() != "handleMessage" {
        return false;
    }
    match m.descriptor.as_str() {
        "(Landroid/os/Message;)V" => table.is_subtype_of_any(m.class, &["android.os.Handler"]),
        "(Landroid/os/Message;)Z" => table.is_subtype_of_any(m.class, &["android.os.Handler$Callback"]),
        _ => false,
    }
}

/// A method a candidate overrides, by the reference calls to it resolve to, with its flags.
struct Overridden {
    method: MethodRef,
    flags: u16,
}

/// A called method: the one declaring it, and its index when it has analysed code.
#[derive(Clone, Copy)]
struct Resolved {
    declared: MethodRef,
    analysed: Option<usize>,
}

/// A call: (callee, caller, whether it holds a lock or runs on a looper).
type Call = (usize, usize, bool);

/// The calls of `body` (method `caller`) to candidates, each with whether it holds a lock
/// (the caller is `synchronized`, or every path to the call holds a monitor or a `lock()`), a
/// virtual call counted for every override it may run too; and the
/// candidates it takes as method references.
fn scan_calls(
    body: &Body,
    caller: usize,
    synchronized: bool,
    resolve: &mut dyn FnMut(&'static MethodRef) -> Resolved,
    overriders: &FxHashMap<MethodRef, Vec<usize>>,
    candidate: &[bool],
) -> (Vec<Call>, Vec<usize>) {
    let overriding = |m: &MethodRef| overriders.get(m).map(Vec::as_slice).unwrap_or(&[]);
    let (mut calls, mut referenced) = (Vec::new(), Vec::new());
    // The dataflow only for a body that calls a candidate.
    let mut held: Option<Vec<u32>> = None;
    for (at, insn) in body.insns.iter().enumerate() {
        match insn {
            Insn::Invoke { method, kind } if !is_lock_effect(method) => {
                let callee = resolve(method);
                let dispatched = match kind {
                    InvokeKind::Virtual | InvokeKind::Interface => overriding(&callee.declared),
                    _ => &[],
                };
                let mut targets = callee.analysed.iter().chain(dispatched).filter(|&&target| candidate[target]).peekable();
                if targets.peek().is_none() {
                    continue;
                }
                let locked = synchronized || held.get_or_insert_with(|| held_locks(body)).get(at).is_some_and(|&n| n > 0);
                calls.extend(targets.map(|&target| (target, caller, locked)));
            }
            Insn::InvokeDynamic(DynamicCall { lambda: Some(l), .. }) => {
                let callee = resolve(l);
                referenced.extend(callee.analysed.iter().chain(overriding(&callee.declared)).filter(|&&m| candidate[m]));
            }
            _ => {}
        }
    }
    (calls, referenced)
}

/// The least fixpoint: a candidate with calls joins once each of them holds a lock or comes
/// from a method already in, so helpers that only call each other never do; one of
/// `uncalled_never_runs` (a Kotlin internal property's accessor) joins when nothing calls it. A worklist:
/// each candidate counts its calls still unaccounted for.
fn held_helpers(candidate: &[bool], calls: &[Call], uncalled_never_runs: &[bool]) -> Vec<bool> {
    let mut called = vec![false; candidate.len()];
    let mut unaccounted = vec![0u32; candidate.len()];
    let mut waiting_on: Vec<Vec<usize>> = vec![Vec::new(); candidate.len()];
    // Method references may have taken candidates out since the calls were listed.
    // A recursive call runs inside another call, which holds the lock once the others all do:
    // it neither counts as a call nor waits.
    for &(target, caller, locked) in calls.iter().filter(|c| candidate[c.0] && c.0 != c.1) {
        called[target] = true;
        if !locked {
            unaccounted[target] += 1;
            waiting_on[caller].push(target);
        }
    }
    let mut held = vec![false; candidate.len()];
    let mut ready: Vec<usize> =
        (0..candidate.len()).filter(|&m| candidate[m] && (called[m] || uncalled_never_runs[m]) && unaccounted[m] == 0).collect();
    while let Some(m) = ready.pop() {
        if std::mem::replace(&mut held[m], true) {
            continue;
        }
        for &target in &waiting_on[m] {
            unaccounted[target] -= 1;
            if unaccounted[target] == 0 {
                ready.push(target);
            }
        }
    }
    held
}

/// A package-private or private, non-synthetic method with code, not a constructor (nor one
/// that takes or releases a lock itself, checked by the caller). Private
/// ones are never reported for themselves; they carry a lock from their callers to the
/// helpers they call.
///
/// A protected method of a class that is not public, and that no public class inherits, is
/// one too: code of another package can neither name the class nor extend it (a subclass
/// must be of its package), and a protected method it overrides can only be called there on
/// objects of the caller's own subclasses (JLS 6.6.2), never on this class's (the caller
/// checks that the methods it overrides are not public, and of its package or, with
/// `kotlin_internal`, of internal classes). With `kotlin_internal`, so is a protected method of a
/// Kotlin `internal` class that no class other modules may name inherits: Kotlin lets only
/// subclasses call it, and the subclasses of an internal class are its module's.
fn is_candidate(
    classes: &[std::sync::Arc<Class>],
    e: &MethodEntry,
    h: &MethodHeader,
    kotlin_internal: bool,
    publicly_inherited: &FxHashSet<Sym>,
) -> bool {
    let class = &classes[e.class].header;
    let hidden_class = class.hidden_from_other_modules(kotlin_internal) && !publicly_inherited.contains(&class.name);
    let internal = kotlin_internal
        && h.flags & ACC_PUBLIC != 0
        && (super::annotations::is_kotlin_internal(class, h)
            || super::annotations::is_published_internal(class, h)
            || (is_internal_class_member(class, h) && hidden_class));
    let hidden = h.flags & (ACC_PUBLIC | ACC_PROTECTED) == 0 || internal || (is_protected_helper(h) && hidden_class);
    if !e.analysed || !hidden || h.flags & (ACC_SYNTHETIC | ACC_BRIDGE | ACC_SYNCHRONIZED) != 0 {
        return false;
    }
    !matches!(h.name.as_str(), "<init>" | "<clinit>") && !class.is_interface()
}

/// A public method of a Kotlin `internal` class: the Kotlin code of other modules cannot name
/// its class. It may still be reached from them through a method it overrides, which the
/// caller checks is of an internal class too.
fn is_internal_class_member(class: &ClassHeader, h: &MethodHeader) -> bool {
    class.kotlin_internal && h.flags & ACC_PUBLIC != 0 && h.flags & ACC_SYNTHETIC == 0
}

fn is_protected_helper(h: &MethodHeader) -> bool {
    h.flags & ACC_PROTECTED != 0
}

/// The analysed classes that a class other modules may name extends, directly or not: code of
/// any package may call the protected and public methods they declare through that subclass.
fn publicly_inherited(table: &ClassTable, classes: &[std::sync::Arc<Class>], kotlin_internal: bool) -> FxHashSet<Sym> {
    let mut out = FxHashSet::default();
    for c in classes.iter().filter(|c| !c.header.hidden_from_other_modules(kotlin_internal)) {
        let mut next = c.header.super_class;
        while let Some(s) = next.filter(|&s| out.insert(s)) {
            next = table.get(s).and_then(|h| h.super_class);
        }
    }
    out
}

/// Whether `body` only reads or writes a field of its own object of `class` (a property's getter
/// or setter, the setter after Kotlin's check of its parameter).
fn is_field_accessor(body: &Body, class: Sym) -> bool {
    let insns: Vec<&Insn> = body.insns.iter().filter(|i| !matches!(i, Insn::Nop)).collect();
    let own = |f: &FieldRef| f.class == class;
    let checked = |m: &MethodRef| m.class.as_str() == "kotlin.jvm.internal.Intrinsics" && m.name.as_str().starts_with("check");
    let setter = |rest: &[&Insn]| {
        matches!(rest, [Insn::Load { slot: 0, .. }, Insn::Load { slot: 1, .. }, Insn::PutField(f), Insn::Return { value: None }] if own(f))
    };
    match insns.as_slice() {
        [Insn::Load { slot: 0, .. }, Insn::GetField(f), Insn::Return { value: Some(_) }] => own(f),
        [Insn::Load { slot: 1, .. }, Insn::Const { .. }, Insn::Invoke { method, .. }, rest @ ..] => checked(method) && setter(rest),
        rest => setter(rest),
    }
}

/// The methods of `java.lang.Object` a class may override: the bundled JDK table lists no methods.
const OBJECT_METHODS: &[(&str, &str)] = &[
    ("toString", "()Ljava/lang/String;"),
    ("equals", "(Ljava/lang/Object;)Z"),
    ("hashCode", "()I"),
    ("clone", "()Ljava/lang/Object;"),
    ("finalize", "()V"),
];

/// JDK types that declare no method of their own to override (`Object`'s are above).
const WITHOUT_METHODS: &[&str] = &["java.lang.Object", "java.io.Serializable", "java.lang.Cloneable", "java.util.RandomAccess", "java.util.EventListener"];

/// Whether `m` may override a method racer cannot see: one of `java.lang.Object`'s, or one of a
/// supertype missing from the table (a library off the classpath) or known by name only (the
/// bundled JDK table: `Runnable`, `Thread`, `Comparable`), whose callers it does not see.
fn may_override_unseen(table: &ClassTable, m: &MethodRef) -> bool {
    if OBJECT_METHODS.contains(&(m.name.as_str(), m.descriptor.as_str())) {
        return true;
    }
    let mut seen: FxHashSet<Sym> = FxHashSet::default();
    let mut next = vec![m.class];
    while let Some(c) = next.pop() {
        if !seen.insert(c) || WITHOUT_METHODS.contains(&c.as_str()) {
            continue;
        }
        let Some(h) = table.get(c) else { return true };
        if table.origin(c) != Some(crate::hierarchy::Origin::Analysed) && h.methods.is_empty() {
            return true;
        }
        next.extend(h.super_class);
        next.extend(h.interfaces.iter().copied());
    }
    false
}

/// The methods `m` overrides (those of its supertypes with its name and descriptor), or `None`
/// when one of them is not of the analysed code, whose callers racer does not see.
fn overridden_methods(table: &ClassTable, m: &MethodRef) -> Option<Vec<Overridden>> {
    let mut out = Vec::new();
    let unseen = table.find_in_supertypes(m.class, |s| {
        if s == m.class {
            return None;
        }
        let declared = table.get(s).and_then(|h| table.method(h, m.name, m.descriptor))?;
        if table.origin(s) != Some(crate::hierarchy::Origin::Analysed) {
            return Some(());
        }
        out.push(Overridden { method: MethodRef { class: s, ..*m }, flags: declared.flags });
        None
    });
    unseen.is_none().then_some(out)
}

/// The locks held when each instruction of `body` starts, on every path that reaches it (the
/// least count over them): from the method's entry, and into a handler from every instruction
/// of its range. A `synchronized` block left early by a `return` (Kotlin's `synchronized(x) { if
/// (done) return }`) still holds its monitor on the branch that stays. Instructions no path
/// reaches hold none. Empty when the body takes no lock.
fn held_locks(body: &Body) -> Vec<u32> {
    let insns = &body.insns;
    let takes = insns.iter().any(|i| matches!(i, Insn::MonitorEnter) || matches!(i, Insn::Invoke { method, .. } if is_lock_effect(method)));
    if !takes || insns.is_empty() {
        return Vec::new();
    }
    let mut held: Vec<Option<u32>> = vec![None; insns.len()];
    held[0] = Some(0);
    let mut work = vec![0usize];
    loop {
        while let Some(i) = work.pop() {
            let n = held[i].unwrap_or(0);
            let after = match &insns[i] {
                Insn::MonitorEnter => n + 1,
                Insn::MonitorExit => n.saturating_sub(1),
                Insn::Invoke { method, .. } if is_lock_call(method, "lock") || is_lock_call(method, "lockInterruptibly") => n + 1,
                Insn::Invoke { method, .. } if is_lock_call(method, "unlock") => n.saturating_sub(1),
                _ => n,
            };
            super::cfg::for_each_successor(insns, i, |s| {
                if held[s].map_or(true, |old| after < old) {
                    held[s] = Some(after);
                    work.push(s);
                }
            });
        }
        for h in &body.handlers {
            let range = (h.start as usize).min(insns.len())..(h.end as usize).min(insns.len());
            let (Some(least), Some(entry)) = (held[range].iter().flatten().min().copied(), held.get_mut(h.target as usize)) else { continue };
            if entry.map_or(true, |old| least < old) {
                *entry = Some(least);
                work.push(h.target as usize);
            }
        }
        if work.is_empty() {
            break;
        }
    }
    held.into_iter().map(|n| n.unwrap_or(0)).collect()
}

/// A `lock()`, `lockInterruptibly()` or `unlock()` call: it changes the locks held, and calls no helper.
fn is_lock_effect(m: &MethodRef) -> bool {
    is_lock_call(m, "lock") || is_lock_call(m, "lockInterruptibly") || is_lock_call(m, "unlock")
}

/// Whether a body ends a monitor region or calls `unlock()`: a helper that releases its caller's
/// lock does what follows without it, which its callers' summaries would not show.
fn releases_a_lock(body: &Body) -> bool {
    body.insns.iter().any(|insn| match insn {
        Insn::MonitorExit => true,
        Insn::Invoke { method, .. } => is_lock_call(method, "unlock"),
        _ => false,
    })
}

/// `lock()V`, `lockInterruptibly()V`, `unlock()V`: the methods of `java.util.concurrent.locks.Lock`
/// by name and shape (a `FileChannel.lock()` returns its lock and is no mutex).
fn is_lock_call(m: &MethodRef, name: &str) -> bool {
    m.name.as_str() == name && m.descriptor.as_str() == "()V"
}

#[cfg(test)]
mod tests {
    use super::{held_helpers, is_field_accessor, publicly_inherited};
    use crate::classfile::model::*;
    use crate::hierarchy::{ClassTable, Origin};
    use crate::sym::Sym;
    use std::sync::Arc;

    fn class(name: &str, super_class: &str, public: bool, kotlin_internal: bool) -> Arc<Class> {
        let header = ClassHeader {
            name: Sym::new(name),
            flags: if public { ACC_PUBLIC } else { 0 },
            super_class: Some(Sym::new(super_class)),
            interfaces: Vec::new(),
            annotations: Vec::new(),
            fields: Vec::new(),
            methods: Vec::new(),
            source_file: None,
            kotlin_internal,
        };
        Arc::new(Class { header: Arc::new(header), methods: Vec::new(), references: Default::default() })
    }

    /// An internal class that a public (Java) class extends is reached from other modules
    /// through it; one that only internal classes extend is not, unless internal classes are
    /// taken as public (`kotlin_internal` off).
    #[test]
    fn classes_inherited_by_classes_other_modules_name() {
        let classes = [
            class("p.Base", "java.lang.Object", true, true),
            class("p.JavaSub", "p.Base", true, false),
            class("p.Base2", "java.lang.Object", true, true),
            class("p.Sub2", "p.Base2", true, true),
            class("p.Hidden", "java.lang.Object", false, false),
            class("p.HiddenSub", "p.Hidden", false, false),
        ];
        let mut table = ClassTable::new();
        for c in &classes {
            table.insert(c.header.clone(), Origin::Analysed);
        }
        table.freeze();
        let inherited = publicly_inherited(&table, &classes, true);
        let named = |n: &str| inherited.contains(&Sym::new(n));
        assert!(named("p.Base") && !named("p.Base2") && !named("p.Hidden"));
        assert!(publicly_inherited(&table, &classes, false).contains(&Sym::new("p.Base2")));
    }

    /// Method 0 is no candidate; 1 is called by it with the lock held, 2 by 1 without; 3 by 0
    /// without; 4 and 5 only call each other; 6 only calls itself; 7 is called with the lock
    /// held and calls itself.
    #[test]
    fn helpers_join_from_locked_calls_and_held_callers_only() {
        let candidate = [false, true, true, true, true, true, true, true];
        let calls = [(1, 0, true), (2, 1, false), (3, 0, false), (4, 5, false), (5, 4, false), (6, 6, false), (7, 0, true), (7, 7, false)];
        assert_eq!(held_helpers(&candidate, &calls, &[false; 8]), [false, true, true, false, false, false, false, true]);
    }

    fn body(insns: Vec<Insn>) -> Body {
        Body { lines: vec![0; insns.len()], insns, max_locals: 2, handlers: Vec::new() }
    }

    /// A getter, a setter (after Kotlin's check of its parameter) of the class's own field; not a
    /// setter of another class's field, nor one that does more.
    #[test]
    fn field_accessors_are_a_getter_or_a_setter_of_an_own_field() {
        let own = crate::interned::field_ref(FieldRef { class: Sym::new("p.C"), name: Sym::new("f"), descriptor: Sym::new("I") });
        let other = crate::interned::field_ref(FieldRef { class: Sym::new("p.D"), ..*own });
        let check = crate::interned::method_ref(MethodRef {
            class: Sym::new("kotlin.jvm.internal.Intrinsics"),
            name: Sym::new("checkNotNullParameter"),
            descriptor: Sym::new("(Ljava/lang/Object;Ljava/lang/String;)V"),
        });
        let load = |slot| Insn::Load { slot, wide: false };
        let ret = |value| Insn::Return { value };
        let class = Sym::new("p.C");
        assert!(is_field_accessor(&body(vec![load(0), Insn::GetField(own), ret(Some(false))]), class));
        assert!(is_field_accessor(&body(vec![load(0), load(1), Insn::PutField(own), ret(None)]), class));
        let checked = vec![load(1), Insn::Const { value: ConstVal::Null, wide: false }, Insn::Invoke { kind: InvokeKind::Static, method: check }];
        assert!(is_field_accessor(&body([checked, vec![load(0), load(1), Insn::PutField(own), ret(None)]].concat()), class));
        assert!(!is_field_accessor(&body(vec![load(0), load(1), Insn::PutField(other), ret(None)]), class));
        assert!(!is_field_accessor(&body(vec![load(0), Insn::GetField(own), Insn::Pop, load(0), Insn::GetField(own), ret(Some(false))]), class));
    }

    /// Method 1 is a helper nothing calls; 2 is one too, whose uncalled state says it never runs;
    /// 3 says so too, but is called without the lock; 4 says so and only 2 calls it.
    #[test]
    fn uncalled_helpers_join_only_when_they_never_run() {
        let candidate = [false, true, true, true, true];
        let calls = [(3, 0, false), (4, 2, false)];
        let never_runs = [false, false, true, true, true];
        assert_eq!(held_helpers(&candidate, &calls, &never_runs), [false, false, true, false, true]);
    }
}
