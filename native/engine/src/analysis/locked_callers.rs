//! Package-private helpers that every caller calls with a lock held (extension
//! `locked_callers`). Code outside its package cannot call such a method, so the analysed code
//! holds all its callers (and all the callers of the methods it overrides, through which it
//! may be called): when each call is made from a `synchronized` method, inside a
//! `synchronized` block, between `lock()` and `unlock()`, or from another such helper, the
//! method is reported through its callers, as a private method is (the accesses they make
//! without a lock are theirs).
//!
//! Decided from the bytecode before any method is analysed (the demand depends on it), and
//! only where the code says so plainly: a lock region is followed in instruction order, so a
//! call after an early `return` out of a `synchronized` block counts as unlocked, never the
//! other way.

use crate::classfile::model::*;
use crate::fxhash::FxHashMap;
use crate::hierarchy::ClassTable;

use super::schedule::{Bodies, MethodEntry};

/// By method: whether it is a package-private helper all of whose calls hold a lock (see the
/// module's comment). `takes_no_lock` says whether a method's own code takes none: one that
/// locks names what it does, not what its callers hold.
pub(super) fn called_only_under_lock(
    table: &ClassTable,
    classes: &[std::sync::Arc<Class>],
    methods: &[MethodEntry],
    bodies: &Bodies,
    by_ref: &FxHashMap<MethodRef, usize>,
    takes_no_lock: impl Fn(usize, usize) -> bool,
) -> Vec<bool> {
    let header = |i: usize| &classes[methods[i].class].methods[methods[i].index].header;
    let mut candidate = vec![false; methods.len()];
    // By method: the candidates overriding it, which a virtual call to it may run.
    let mut overriders: FxHashMap<usize, Vec<usize>> = FxHashMap::default();
    for (i, e) in methods.iter().enumerate() {
        if !is_candidate(classes, e, header(i)) || !takes_no_lock(e.class, e.index) {
            continue;
        }
        // An override is reached through calls to what it overrides: all must be seen.
        let Some(overridden) = overridden_methods(table, by_ref, &e.mref) else { continue };
        candidate[i] = true;
        for o in overridden {
            overriders.entry(o).or_default().push(i);
        }
    }
    // Each candidate's calls: (caller, whether the call holds a lock).
    let mut calls: Vec<Vec<(usize, bool)>> = vec![Vec::new(); methods.len()];
    for (caller, e) in methods.iter().enumerate() {
        let Some(body) = &bodies[e.class][e.index] else { continue };
        let synchronized = header(caller).flags & ACC_SYNCHRONIZED != 0;
        let callee = |m: &MethodRef| by_ref.get(&table.resolve_method(m).unwrap_or(*m)).copied();
        let mut depth = 0u32;
        for insn in &body.insns {
            match insn {
                Insn::MonitorEnter => depth += 1,
                Insn::MonitorExit => depth = depth.saturating_sub(1),
                Insn::Invoke { method, .. } if is_lock_call(method, "lock") || is_lock_call(method, "lockInterruptibly") => {
                    depth += 1
                }
                Insn::Invoke { method, .. } if is_lock_call(method, "unlock") => depth = depth.saturating_sub(1),
                Insn::Invoke { method, kind } => {
                    let Some(c) = callee(method) else { continue };
                    let locked = synchronized || depth > 0;
                    let dispatched = match kind {
                        InvokeKind::Virtual | InvokeKind::Interface => overriders.get(&c).map(Vec::as_slice).unwrap_or(&[]),
                        _ => &[],
                    };
                    for &target in std::iter::once(&c).chain(dispatched) {
                        if candidate[target] {
                            calls[target].push((caller, locked));
                        }
                    }
                }
                // A method reference runs whenever its holder calls it, lock or not.
                Insn::InvokeDynamic(DynamicCall { lambda: Some(l), .. }) => {
                    if let Some(c) = callee(l) {
                        candidate[c] = false;
                        for &o in overriders.get(&c).map(Vec::as_slice).unwrap_or(&[]) {
                            candidate[o] = false;
                        }
                    }
                }
                _ => {}
            }
        }
    }
    // The least fixpoint: a helper joins once every call it gets holds a lock or comes from
    // a helper already in, so helpers that only call each other never do.
    let mut held = vec![false; methods.len()];
    loop {
        let mut changed = false;
        for c in 0..methods.len() {
            if candidate[c] && !held[c] && !calls[c].is_empty() && calls[c].iter().all(|&(caller, locked)| locked || held[caller]) {
                held[c] = true;
                changed = true;
            }
        }
        if !changed {
            return held;
        }
    }
}

/// A package-private or private, non-synthetic method with code, not a constructor. Private
/// ones are never reported for themselves; they carry a lock from their callers to the
/// helpers they call.
fn is_candidate(classes: &[std::sync::Arc<Class>], e: &MethodEntry, h: &MethodHeader) -> bool {
    if !e.analysed || h.flags & (ACC_PUBLIC | ACC_PROTECTED | ACC_SYNTHETIC | ACC_BRIDGE | ACC_SYNCHRONIZED) != 0 {
        return false;
    }
    !matches!(h.name.as_str(), "<init>" | "<clinit>") && !classes[e.class].header.is_interface()
}

/// The analysed methods `m` overrides (those of its supertypes with its name and descriptor),
/// or `None` when one of them is not analysed code, whose callers racer does not see.
fn overridden_methods(table: &ClassTable, by_ref: &FxHashMap<MethodRef, usize>, m: &MethodRef) -> Option<Vec<usize>> {
    let mut out = Vec::new();
    let unseen = table.find_in_supertypes(m.class, |s| {
        if s == m.class {
            return None;
        }
        let declares = table.get(s).is_some_and(|h| table.method(h, m.name, m.descriptor).is_some());
        if !declares {
            return None;
        }
        match by_ref.get(&MethodRef { class: s, ..*m }) {
            Some(&i) => {
                out.push(i);
                None
            }
            None => Some(()),
        }
    });
    unseen.is_none().then_some(out)
}

/// `lock()V`, `lockInterruptibly()V`, `unlock()V`: the methods of `java.util.concurrent.locks.Lock`
/// by name and shape (a `FileChannel.lock()` returns its lock and is no mutex).
fn is_lock_call(m: &MethodRef, name: &str) -> bool {
    m.name.as_str() == name && m.descriptor.as_str() == "()V"
}
