//! Fields holding objects of one known class (`field_receiver_dispatch`): a private or final
//! field that every store in the analysed code gives a new object of one class (`final Worker
//! mWorker = new CountingWorker()`) holds an object of that class, so a call on it in its own
//! class, named through the field's declared type, runs that class's implementation, not the one
//! the declared type names.
//!
//! Only the field's own class is trusted to call through it: its bodies are in the same module
//! as the stores (a final field is stored by its class only, a private one by its nest), so a
//! module analysed alone finds the same fact, and its class's references name the candidate
//! implementations (see the lowering's `dispatched` pairs, made on the same terms).

use rayon::prelude::*;

use crate::classfile::model::*;
use crate::fxhash::FxHashMap;
use crate::hierarchy::{ClassTable, Origin};
use crate::sym::Sym;

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

/// What the stores seen so far give a field: objects of one class, or (None) anything else,
/// with the field's descriptor.
type Stores = FxHashMap<(Sym, Sym), (Option<Sym>, Sym)>;

/// The fields of analysed classes, private or final, that every store in `bodies` gives a new
/// object of one class.
pub fn collect<'b>(table: &ClassTable, bodies: impl ParallelIterator<Item = &'b Body>) -> FieldClasses {
    let stored: Stores = bodies
        .fold(Stores::default, |mut seen, body| {
            let mut targets: Option<Vec<bool>> = None;
            for (f, before) in body.field_stores(|d| d.starts_with('L')) {
                let Some(key) = fact_field(table, f) else { continue };
                // The constructor call just before made the object stored, unless a jump also
                // leads to the store (`c ? new A() : new B()`).
                let mut joined = || targets.get_or_insert_with(|| jump_targets(body))[before.map_or(0, |b| b + 1)];
                let made = body.call_at(before).filter(|m| m.name.as_str() == "<init>").filter(|_| !joined()).map(|m| m.class);
                note_store(&mut seen, key, (made, f.descriptor));
            }
            seen
        })
        .reduce(Stores::default, |mut a, b| {
            for (key, store) in b {
                note_store(&mut a, key, store);
            }
            a
        });
    stored
        .into_iter()
        .filter_map(|(key, (made, descriptor))| Some((key, HeldClass { class: made?, declared: declared_class(descriptor)? })))
        .collect()
}

/// The (declaring class, name) of a field a fact can be about: private or final, of an analysed
/// class. Most stores name a field of the class they name, whose flags then settle it.
fn fact_field(table: &ClassTable, f: &FieldRef) -> Option<(Sym, Sym)> {
    let (declaring, header) = match table.field(f.class, f.name) {
        Some(header) => (f.class, header),
        None => {
            let declaring = table.resolve_field(f.class, f.name);
            (declaring, table.field(declaring, f.name)?)
        }
    };
    (header.flags & (ACC_PRIVATE | ACC_FINAL) != 0 && table.origin(declaring) == Some(Origin::Analysed)).then_some((declaring, f.name))
}

/// Per instruction, whether control reaches it other than by falling from the one before (a
/// jump, a switch, an exception handler): that one then need not have made the values it finds.
fn jump_targets(body: &Body) -> Vec<bool> {
    let mut targets = vec![false; body.insns.len()];
    for i in 0..body.insns.len() {
        super::cfg::for_each_successor(&body.insns, i, |s| {
            if s != i + 1 {
                targets[s] = true;
            }
        });
    }
    for h in &body.handlers {
        if let Some(t) = targets.get_mut(h.target as usize) {
            *t = true;
        }
    }
    targets
}

fn note_store(seen: &mut Stores, key: (Sym, Sym), (made, descriptor): (Option<Sym>, Sym)) {
    seen.entry(key).and_modify(|(known, _)| *known = known.filter(|c| Some(*c) == made)).or_insert((made, descriptor));
}

/// The class a field of object type is declared with (`Lp/Worker;`: `p.Worker`).
pub fn declared_class(descriptor: Sym) -> Option<Sym> {
    crate::classfile::descriptor::object_class(descriptor.as_str()).map(|c| Sym::new(&c))
}

/// The classes of the objects the fields with a known class that `body` (of a method of
/// `class`) reads hold: the implementations its calls on them may run. A read counts when it
/// names the field through `class` itself (`this.f`), as the interpreter asks.
pub fn read_by(fields: &FieldClasses, class: Sym, body: &Body) -> Vec<Sym> {
    if fields.is_empty() {
        return Vec::new();
    }
    let mut classes = Vec::new();
    for insn in &body.insns {
        if let Insn::GetField(f) | Insn::GetStatic(f) = insn {
            // The facts are by declaring class: one of `class`'s is a field it declares.
            if let Some(held) = fields.get(&(f.class, f.name)).filter(|_| f.class == class) {
                if !classes.contains(&held.class) {
                    classes.push(held.class);
                }
            }
        }
    }
    classes
}
