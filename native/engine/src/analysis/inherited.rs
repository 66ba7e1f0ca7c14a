//! The methods a class inherits from its superclasses (extension `inherited_accesses`):
//! they run on the subclass's objects, so their accesses to `this` meet the subclass's own.

use crate::classfile::model::*;
use crate::fxhash::FxHashSet;
use crate::hierarchy::ClassTable;
use crate::sym::Sym;

use super::annotations::{is_compiler_named, is_thread_safe_annotation};
use super::extensions::Extensions;

/// The inherited methods whose accesses `class` pools with its own: every one with
/// `inherited_accesses`; with `thread_safe_inherited` those marked `@ThreadSafe` (rule L1:
/// on the method, one it overrides, its class or a superclass), whose superclass says they
/// may run concurrently with anything the subclass does; else none.
pub fn pooled_methods(table: &ClassTable, ext: Extensions, thread_safe_aliases: &[String], class: &ClassHeader) -> Vec<MethodRef> {
    if ext.inherited_accesses {
        return inherited_methods(table, ext, class);
    }
    if !ext.thread_safe_inherited {
        return Vec::new();
    }
    let thread_safe = |a: &Annotation| is_thread_safe_annotation(a, thread_safe_aliases);
    // What rule L1 looks at for an inherited method is all in the strict supertypes: most
    // classes have no annotation there at all, and are done without listing their methods.
    let marked = |s: Sym| {
        let h = table.get(s)?;
        (s != class.name && (h.annotations.iter().any(thread_safe) || h.methods.iter().any(|m| m.annotations.iter().any(thread_safe))))
            .then_some(())
    };
    if table.find_in_supertypes(class.name, marked).is_none() {
        return Vec::new();
    }
    let mut methods = inherited_methods(table, ext, class);
    methods.retain(|m| table.lookup_l1(m, &|a| thread_safe(a)).is_some());
    methods
}

/// The instance methods `class` inherits and does not override, nearest superclass first:
/// not constructors, private, synthetic or bridge methods (they are not entry points of
/// the subclass's objects). Superclasses missing from the table end the walk. A bridge of
/// the subclass does not override the public method of a class that is not public: javac
/// adds it only to make that method callable from other packages, and it calls it.
pub fn inherited_methods(table: &ClassTable, ext: Extensions, class: &ClassHeader) -> Vec<MethodRef> {
    let mut declared: FxHashSet<(Sym, Sym)> =
        class.methods.iter().filter(|m| m.flags & ACC_BRIDGE == 0).map(|m| (m.name, m.descriptor)).collect();
    let bridges: FxHashSet<(Sym, Sym)> =
        class.methods.iter().filter(|m| m.flags & ACC_BRIDGE != 0).map(|m| (m.name, m.descriptor)).collect();
    let mut out = Vec::new();
    let mut seen: FxHashSet<Sym> = FxHashSet::default();
    let mut next = class.super_class;
    while let Some(s) = next {
        // A cycle in a malformed hierarchy ends the walk.
        if !seen.insert(s) {
            break;
        }
        let header = match table.get(s) {
            Some(h) => h,
            None => break,
        };
        let visibility_bridges = header.flags & ACC_PUBLIC == 0;
        for m in &header.methods {
            if !visibility_bridges && bridges.contains(&(m.name, m.descriptor)) {
                declared.insert((m.name, m.descriptor));
            }
            let entry_point = m.flags & (ACC_STATIC | ACC_PRIVATE | ACC_BRIDGE) == 0
                && !matches!(m.name.as_str(), "<init>" | "<clinit>")
                && !is_compiler_named(header, m, ext);
            if declared.insert((m.name, m.descriptor)) && entry_point {
                out.push(MethodRef { class: s, name: m.name, descriptor: m.descriptor });
            }
        }
        next = header.super_class;
    }
    out
}
