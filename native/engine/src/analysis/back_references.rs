//! Fields that lead back to their holder (back-references extension). A final or private field
//! that its own class's code only ever gives a new helper made with the holder itself (`final
//! Worker task = new Worker(this)`, or an inner object, which javac and kotlinc make with `this`
//! as its `this$0`), whose constructor keeps that argument in a field of its own that nothing
//! else changes (`this.owner = owner`, or a weak reference to it with `weak_references`), holds
//! a helper whose field names the holder: `x.task.owner` is `x`, for every object `x` of the
//! class. A path through the two steps then names the holder's location, so the helper's
//! `owner.count++`, called as `this.task.run()`, writes `this.count` and races with the holder's
//! own accesses to `count`, where the two paths (`this.task.owner.count` and `this.count`) would
//! never meet.
//!
//! Only helpers of the holder's source file count, and paths are shortened only in the methods
//! of that file: the constructors and those methods are all in the module that analyses the
//! holder, so a module analysed alone names every access as the whole build does (code of other
//! files sees the shortened paths through the summaries of the file's methods).

use rayon::prelude::*;

use crate::classfile::descriptor::param_widths;
use crate::classfile::model::*;
use crate::fxhash::{FxHashMap, FxHashSet};
use crate::hierarchy::ClassTable;
use crate::issue::top_level_class;
use crate::sym::Sym;

use super::domain::{Path, Step, Steps};
use super::extensions::Extensions;
use super::models;

const ACC_PRIVATE: u16 = 0x0002;
const ACC_FINAL: u16 = 0x0010;

/// The holder's field (declaring class, name) with the helper's field that names the holder.
#[derive(Debug, Default)]
pub struct BackReferences {
    by_field: FxHashMap<(Sym, Sym), (Sym, Sym)>,
}

impl BackReferences {
    pub fn is_empty(&self) -> bool {
        self.by_field.is_empty()
    }

    /// `path` without the pairs of steps that lead from an object back to itself, when another
    /// step follows them (the pair alone is a read of the helper's own field), in a method of
    /// `class`: only the pairs of holders of `class`'s source file go. None when none does.
    pub fn shortened(&self, table: &ClassTable, class: Sym, path: &Path) -> Option<Path> {
        if self.by_field.is_empty() || path.steps.len() < 3 {
            return None;
        }
        // Nothing goes unless two adjacent steps of `path` itself lead back (a pair made by an
        // earlier removal needs one before it): most paths are looked at without building one.
        let pairs_followed = path.steps.len() - 2;
        if !path.steps.windows(2).take(pairs_followed).any(|w| self.leads_back(w[0], w[1])) {
            return None;
        }
        let mut steps: Vec<Step> = Vec::new();
        let mut changed = false;
        for (i, step) in path.steps.iter().enumerate() {
            steps.push(*step);
            let n = steps.len();
            let more_follow = i + 1 < path.steps.len();
            if n >= 2 && more_follow && self.leads_back(steps[n - 2], steps[n - 1]) && same_source_file(table, holder(steps[n - 2]), class) {
                steps.truncate(n - 2);
                changed = true;
            }
        }
        changed.then(|| Path { base: path.base, steps: Steps::from(&steps[..]) })
    }

    fn leads_back(&self, holder_field: Step, helper_field: Step) -> bool {
        match (holder_field, helper_field) {
            (Step::Field { class, name }, Step::Field { class: hc, name: hn }) => self.by_field.get(&(class, name)) == Some(&(hc, hn)),
            _ => false,
        }
    }
}

fn holder(step: Step) -> Sym {
    match step {
        Step::Field { class, .. } => class,
        Step::Array => unreachable!("a back reference is a field step"),
    }
}

/// The back references of the analysed classes, from their constructors' bodies.
pub fn collect(table: &ClassTable, bodies: &[(&MethodRef, &Body)], ext: Extensions) -> BackReferences {
    let constructors: FxHashMap<MethodRef, &Body> =
        bodies.iter().filter(|(m, _)| m.name.as_str() == "<init>").map(|(m, b)| (**m, *b)).collect();
    let set_after_construction = stored_outside_constructors(table, bodies);
    let kept: FxHashMap<MethodRef, Vec<(usize, Sym)>> = constructors
        .par_iter()
        .map(|(m, body)| (*m, kept_parameters(table, m, body, &set_after_construction, ext)))
        .filter(|(_, kept)| !kept.is_empty())
        .collect();
    // Every store of a final or private field must give the same helper field: a store by
    // other code (a nested class's, a lenient older class file's) or of another value leaves the
    // field out. Such a field has no stores outside the analysed code's source file.
    let mut stores: FxHashMap<(Sym, Sym), Option<(Sym, Sym)>> = FxHashMap::default();
    let kept = &kept;
    let found: Vec<((Sym, Sym), Option<(Sym, Sym)>)> = bodies
        .par_iter()
        .flat_map_iter(|(m, body)| {
            body.insns.iter().enumerate().filter_map(move |(i, insn)| {
                let Insn::PutField(f) = insn else { return None };
                // A field set to null holds no helper for a while: no path goes through it then.
                if matches!(body.insns[i.checked_sub(1)?], Insn::Const { value: ConstVal::Null, .. }) {
                    return None;
                }
                let declaring = table.resolve_field(f.class, f.name);
                let field = table.field(declaring, f.name)?;
                (field.flags & (ACC_FINAL | ACC_PRIVATE) != 0).then(|| ((declaring, f.name), helper_field_at(table, kept, m, body, i, declaring)))
            })
        })
        .collect();
    for (field, helper) in found {
        match stores.get(&field) {
            None => {
                stores.insert(field, helper);
            }
            Some(known) if *known != helper => {
                stores.insert(field, None);
            }
            Some(_) => {}
        }
    }
    let by_field = stores.into_iter().filter_map(|(field, helper)| Some((field, helper?))).collect();
    BackReferences { by_field }
}

/// The helper field that names the holder, when the store at `insns[at]` (into a final or
/// private field of `holder`, in `m`'s body) gives `this`'s field a new object made with
/// `this`, in an instance method of `holder`, and that object's constructor keeps the argument
/// in a field nothing else changes (see [`kept_parameters`]).
fn helper_field_at(
    table: &ClassTable,
    kept: &FxHashMap<MethodRef, Vec<(usize, Sym)>>,
    m: &MethodRef,
    body: &Body,
    at: usize,
    holder: Sym,
) -> Option<(Sym, Sym)> {
    if m.class != holder {
        return None;
    }
    // The helper made just before the store, cast to the field's type or not (kotlinc casts an
    // `observable` delegate to `ReadWriteProperty`).
    let made_at = body.before_casts(at.checked_sub(1)?);
    let Insn::Invoke { kind: InvokeKind::Special, method: made } = body.insns.get(made_at)? else { return None };
    // The walk of the whole body last, for the few stores that pass the rest.
    if made.name.as_str() != "<init>" || !same_source_file(table, holder, made.class) || is_static(table, m) || reassigns_slot(body, 0) {
        return None;
    }
    // The field's object is `this`, its value the new helper; the arguments given `this`.
    let makers = super::operands::argument_makers(body, |i| i == made_at || i == at);
    let is_this = |maker: &Option<usize>| matches!(maker.map(|j| &body.insns[j]), Some(Insn::Load { slot: 0, wide: false }));
    match makers.get(&at)?.as_slice() {
        [object, value] if is_this(object) && *value == Some(made_at) => {}
        _ => return None,
    }
    let given_this: Vec<usize> = makers.get(&made_at)?.iter().enumerate().filter(|(_, m)| is_this(m)).map(|(k, _)| k).collect();
    let mut fields = kept.get(made)?.iter().filter(|(k, _)| given_this.contains(k)).map(|(_, field)| *field);
    match (fields.next(), fields.next()) {
        (Some(field), None) => Some((made.class, field)),
        _ => None,
    }
}

/// The fields, by (declaring class, name), that some code other than their class's
/// constructors stores into.
fn stored_outside_constructors(table: &ClassTable, bodies: &[(&MethodRef, &Body)]) -> FxHashSet<(Sym, Sym)> {
    bodies
        .par_iter()
        .flat_map_iter(|(m, body)| {
            body.insns.iter().filter_map(move |insn| {
                let Insn::PutField(f) = insn else { return None };
                let declaring = table.resolve_field(f.class, f.name);
                (m.name.as_str() != "<init>" || m.class != declaring).then_some((declaring, f.name))
            })
        })
        .collect()
}

/// The parameters (by index, from 0) that constructor `m` keeps in a field of its own class
/// that nothing else changes: `this.owner = owner`, the only store of `owner` in the body, of a
/// parameter the body never reassigns, into a final field or a private one that no code but the
/// class's constructors stores into (`set_after_construction`). The field then holds the
/// argument or, where the store is not reached, nothing.
fn kept_parameters(
    table: &ClassTable,
    m: &MethodRef,
    body: &Body,
    set_after_construction: &FxHashSet<(Sym, Sym)>,
    ext: Extensions,
) -> Vec<(usize, Sym)> {
    let widths = param_widths(m.descriptor.as_str());
    let slot_of = |k: usize| 1 + widths[..k].iter().map(|w| if *w { 2 } else { 1 }).sum::<usize>();
    let is_store = |i: usize| matches!(body.insns.get(i), Some(Insn::PutField(_)));
    // Walked once, and only for a constructor with a store that may keep a parameter.
    let mut makers = None;
    let mut kept = Vec::new();
    for (i, insn) in body.insns.iter().enumerate() {
        let Insn::PutField(f) = insn else { continue };
        let kept_field = table.field(m.class, f.name).is_some_and(|h| h.flags & (ACC_FINAL | ACC_PRIVATE) != 0);
        if f.class != m.class || !kept_field || i < 2 || set_after_construction.contains(&(m.class, f.name)) {
            continue;
        }
        let makers = makers.get_or_insert_with(|| super::operands::argument_makers(body, |j| is_store(j) || is_store(j + 1)));
        let Some(slot) = stored_local(body, makers, i, ext) else { continue };
        let Some(k) = (0..widths.len()).find(|&k| !widths[k] && slot_of(k) == slot as usize) else { continue };
        let stores_once = body.insns.iter().filter(|x| matches!(x, Insn::PutField(g) if g.class == f.class && g.name == f.name)).count() == 1;
        if stores_once && !reassigns_slot(body, slot) && !reassigns_slot(body, 0) {
            kept.push((k, f.name));
        }
    }
    kept
}

/// The local slot whose value the field store at `insns[at]` gives `this`'s field: `this.owner
/// = owner`, or, with the weak-references extension, `this.owner = new WeakReference<>(owner)`
/// (also given a queue: a reference stands for the object it was made with).
/// `makers`: the operand makers of the body's field stores and of the instructions before them.
fn stored_local(body: &Body, makers: &FxHashMap<usize, Vec<Option<usize>>>, at: usize, ext: Extensions) -> Option<u16> {
    let slot_loaded = |maker: Option<usize>| match &body.insns[maker?] {
        Insn::Load { slot, wide: false } => Some(*slot),
        _ => None,
    };
    let [object, value] = makers.get(&at)?.as_slice() else { return None };
    if slot_loaded(*object) != Some(0) {
        return None;
    }
    match &body.insns[(*value)?] {
        Insn::Load { .. } => slot_loaded(*value),
        Insn::Invoke { kind: InvokeKind::Special, method } if *value == Some(at - 1) && models::makes_reference(method, ext) => {
            slot_loaded(*makers.get(&(at - 1))?.first()?)
        }
        _ => None,
    }
}

fn is_static(table: &ClassTable, m: &MethodRef) -> bool {
    let header = table.get(m.class).and_then(|c| table.method(c, m.name, m.descriptor));
    header.map_or(true, |h| h.flags & ACC_STATIC != 0)
}

/// Whether `body` assigns local `slot` anywhere.
pub(super) fn reassigns_slot(body: &Body, slot: u16) -> bool {
    body.insns.iter().any(|i| matches!(i, Insn::Store { slot: s, .. } | Insn::Iinc { slot: s } if *s == slot))
}

/// A nested class of the holder's top-level class, or another class of its source file.
pub fn same_source_file(table: &ClassTable, a: Sym, b: Sym) -> bool {
    if top_level_class(a.as_str()) == top_level_class(b.as_str()) {
        return true;
    }
    let package = |c: &'static str| &c[..c.rfind('.').unwrap_or(0)];
    let file = |c: Sym| table.get(c).and_then(|h| h.source_file);
    package(a.as_str()) == package(b.as_str()) && file(a).is_some() && file(a) == file(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::domain::Base;

    fn field(class: &str, name: &str) -> Step {
        Step::Field { class: Sym::new(class), name: Sym::new(name) }
    }

    fn references() -> BackReferences {
        let mut by_field = FxHashMap::default();
        by_field.insert((Sym::new("p.Owner"), Sym::new("task")), (Sym::new("p.Worker"), Sym::new("owner")));
        BackReferences { by_field }
    }

    fn path(steps: &[Step]) -> Path {
        Path { base: Base::This, steps: Steps::from(steps) }
    }

    #[test]
    fn a_field_of_the_holder_reached_through_its_helper_is_the_holders_own() {
        let through = path(&[field("p.Owner", "task"), field("p.Worker", "owner"), field("p.Owner", "count")]);
        assert_eq!(references().shortened(&ClassTable::new(), Sym::new("p.Owner"), &through), Some(path(&[field("p.Owner", "count")])));
    }

    #[test]
    fn the_helpers_own_field_and_other_fields_are_left_alone() {
        let own = path(&[field("p.Owner", "task"), field("p.Worker", "owner")]);
        assert_eq!(references().shortened(&ClassTable::new(), Sym::new("p.Owner"), &own), None);
        let other = path(&[field("p.Owner", "task"), field("p.Worker", "other"), field("p.Owner", "count")]);
        assert_eq!(references().shortened(&ClassTable::new(), Sym::new("p.Owner"), &other), None);
    }

    #[test]
    fn code_of_another_source_file_keeps_the_path() {
        let through = path(&[field("p.Owner", "task"), field("p.Worker", "owner"), field("p.Owner", "count")]);
        assert_eq!(references().shortened(&ClassTable::new(), Sym::new("q.Caller"), &through), None);
    }

    #[test]
    fn pairs_repeated_down_a_path_all_go() {
        let twice = path(&[
            field("p.Owner", "task"),
            field("p.Worker", "owner"),
            field("p.Owner", "task"),
            field("p.Worker", "owner"),
            field("p.Owner", "count"),
        ]);
        assert_eq!(references().shortened(&ClassTable::new(), Sym::new("p.Owner"), &twice), Some(path(&[field("p.Owner", "count")])));
    }
}
