//! Fields holding objects of one known class (`field_receiver_dispatch`): a private or final
//! field that every store in the analysed code gives a new object of one class (`final Worker
//! mWorker = new CountingWorker()`) holds an object of that class, so a call on it in its own
//! class runs that class's implementation, not the one its declared type names.
//!
//! Only the field's own class is trusted to call through it: its bodies are in the same module
//! as the stores (a final field is stored by its class only, a private one by its nest), so a
//! module analysed alone finds the same fact, and its class's references name the candidate
//! implementations (see the lowering's `dispatched` pairs).

use rayon::prelude::*;

use crate::classfile::model::*;
use crate::fxhash::FxHashMap;
use crate::hierarchy::{ClassTable, Origin};
use crate::sym::Sym;

const ACC_PRIVATE: u16 = 0x0002;
const ACC_FINAL: u16 = 0x0010;

/// The class of the objects each such field holds, by (declaring class, name).
pub type FieldClasses = FxHashMap<(Sym, Sym), Sym>;

/// The fields of analysed classes, private or final, that every store in `bodies` gives a new
/// object of one class.
pub fn collect<'b>(table: &ClassTable, bodies: impl ParallelIterator<Item = &'b Body>) -> FieldClasses {
    // None: a store of anything else, or of objects of two classes.
    let stored: FxHashMap<(Sym, Sym), Option<Sym>> = bodies
        .fold(FxHashMap::default, |mut seen, body| {
            let mut targets: Option<Vec<bool>> = None;
            for (f, before) in body.field_stores(|d| d.starts_with('L')) {
                // The constructor call just before made the object stored, unless a jump also
                // leads to the store (`c ? new A() : new B()`).
                let mut joined = || targets.get_or_insert_with(|| body.jump_targets())[before.map_or(0, |b| b + 1)];
                let made = body.call_at(before).filter(|m| m.name.as_str() == "<init>").filter(|_| !joined()).map(|m| m.class);
                let key = (table.resolve_field(f.class, f.name), f.name);
                note_store(&mut seen, key, made);
            }
            seen
        })
        .reduce(FxHashMap::default, |mut a, b| {
            for (key, made) in b {
                note_store(&mut a, key, made);
            }
            a
        });
    stored
        .into_iter()
        .filter_map(|(key, made)| Some((key, made?)))
        .filter(|&((class, name), _)| {
            table.origin(class) == Some(Origin::Analysed)
                && table.field(class, name).is_some_and(|f| f.flags & (ACC_PRIVATE | ACC_FINAL) != 0)
        })
        .collect()
}

fn note_store(seen: &mut FxHashMap<(Sym, Sym), Option<Sym>>, key: (Sym, Sym), made: Option<Sym>) {
    seen.entry(key).and_modify(|known| *known = known.filter(|c| Some(*c) == made)).or_insert(made);
}

/// The classes of the objects the fields with a known class that `body` (of a method of
/// `class`) reads hold: the implementations its calls on them may run.
pub fn read_by(table: &ClassTable, fields: &FieldClasses, class: Sym, body: &Body) -> Vec<Sym> {
    if fields.is_empty() {
        return Vec::new();
    }
    let mut classes = Vec::new();
    for insn in &body.insns {
        if let Insn::GetField(f) | Insn::GetStatic(f) = insn {
            let declaring = table.resolve_field(f.class, f.name);
            if let Some(&held) = fields.get(&(declaring, f.name)).filter(|_| declaring == class) {
                if !classes.contains(&held) {
                    classes.push(held);
                }
            }
        }
    }
    classes
}
