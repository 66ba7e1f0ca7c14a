//! The methods a class inherits from its superclasses (extension `inherited_accesses`):
//! they run on the subclass's objects, so their accesses to `this` meet the subclass's own.

use crate::classfile::model::*;
use crate::fxhash::FxHashSet;
use crate::hierarchy::ClassTable;
use crate::sym::Sym;

use super::annotations::is_synthetic_name;

/// The instance methods `class` inherits and does not override, nearest superclass first:
/// not constructors, private, synthetic or bridge methods (they are not entry points of
/// the subclass's objects). Superclasses missing from the table end the walk.
pub fn inherited_methods(table: &ClassTable, class: &ClassHeader) -> Vec<MethodRef> {
    let mut declared: FxHashSet<(Sym, Sym)> = class.methods.iter().map(|m| (m.name, m.descriptor)).collect();
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
        for m in &header.methods {
            let entry_point = m.flags & (ACC_STATIC | ACC_PRIVATE | ACC_BRIDGE) == 0
                && !matches!(m.name.as_str(), "<init>" | "<clinit>")
                && !is_synthetic_name(m.name);
            if declared.insert((m.name, m.descriptor)) && entry_point {
                out.push(MethodRef { class: s, name: m.name, descriptor: m.descriptor });
            }
        }
        next = header.super_class;
    }
    out
}
