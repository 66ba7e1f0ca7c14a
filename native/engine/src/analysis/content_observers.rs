//! Content observers (Android models, `docs/android.md`): a `ContentObserver` runs its
//! `onChange` on the looper of the handler its constructor is given, or, given none (`null`),
//! on the binder thread that delivers the change notification. Spec 4.1 counts `onChange` as a
//! main-thread `on*` method; here an observer made with no handler, or with a handler on a
//! `HandlerThread`'s looper, has it run in the background instead, and one made with a handler on
//! the main looper runs it there from its registration (`registrations.rs`).
//!
//! Only the observer's own source file is read for the handler it is made with (an anonymous
//! observer is made there): a module analysed alone then finds the same.

use crate::classfile::descriptor::{param_at_slot, param_widths};
use crate::classfile::model::*;
use crate::fxhash::FxHashMap;
use crate::hierarchy::ClassTable;
use crate::issue::top_level_class;
use crate::sym::Sym;

use super::domain::Target;
use super::handoffs::looper_thread;

const CONTENT_OBSERVER: &str = "android.database.ContentObserver";
const SUPER_DESCRIPTOR: &str = "(Landroid/os/Handler;)V";

/// Where a content observer's `onChange` runs, as the handler it is made with says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnChange {
    /// Made with no handler: on the binder threads, several at once.
    Binder,
    /// Made with a handler on a `HandlerThread`'s looper: there, one change at a time.
    Worker,
    /// Made with a handler on the main looper.
    Main,
}

/// The handler a constructor gives `super(handler)`, or a constructor call its observer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Given {
    Known(OnChange),
    /// The constructor's parameter at this index.
    Param(usize),
}

/// The direct `ContentObserver` subclasses among `classes` made with a handler of a known thread
/// (or none), by a constructor or at a `new` of their source file. An observer made with none
/// and with a handler runs `onChange` on the binder threads too, one made with a worker's and
/// the main looper's handler on the worker's thread too.
pub fn observers_made(table: &ClassTable, classes: &[std::sync::Arc<Class>], bodies: &[Vec<Option<Body>>]) -> FxHashMap<Sym, OnChange> {
    let mut out = FxHashMap::default();
    let observers: Vec<usize> = (0..classes.len())
        .filter(|&ci| classes[ci].header.super_class.is_some_and(|s| s.as_str() == CONTENT_OBSERVER))
        .collect();
    if observers.is_empty() {
        return out;
    }
    let mut by_file: FxHashMap<&str, Vec<usize>> = FxHashMap::default();
    for (ci, class) in classes.iter().enumerate() {
        by_file.entry(top_level_class(class.header.name.as_str())).or_default().push(ci);
    }
    for ci in observers {
        let class = &classes[ci];
        let file = SourceFile { table, bodies: by_file[top_level_class(class.header.name.as_str())].iter().flat_map(|&fi| bodies[fi].iter().flatten()).collect() };
        let mut found = Vec::new();
        for (mi, method) in class.methods.iter().enumerate() {
            let Some(body) = bodies[ci][mi].as_ref().filter(|_| method.header.name.as_str() == "<init>") else { continue };
            match file.constructor_handler(body, method.header.descriptor.as_str()) {
                Some(Given::Known(on)) => found.push(on),
                Some(Given::Param(k)) => {
                    let constructor = MethodRef { class: class.header.name, name: method.header.name, descriptor: method.header.descriptor };
                    found.extend(file.made_with(&constructor, k));
                }
                None => {}
            }
        }
        let on_change = [OnChange::Binder, OnChange::Worker, OnChange::Main].into_iter().find(|on| found.contains(on));
        if let Some(on) = on_change {
            out.insert(class.header.name, on);
        }
    }
    out
}

/// Whether `m` is an observer's `onChange` (any overload) that `observers` says runs off the
/// main thread, and where.
pub fn on_change_thread(observers: &FxHashMap<Sym, OnChange>, m: &MethodRef) -> Option<OnChange> {
    if observers.is_empty() || m.name.as_str() != "onChange" {
        return None;
    }
    observers.get(&m.class).copied().filter(|on| *on != OnChange::Main)
}

/// The code of an observer's source file, where the handlers it is made with are looked for.
struct SourceFile<'b> {
    table: &'b ClassTable,
    bodies: Vec<&'b Body>,
}

impl SourceFile<'_> {
    /// The handler a constructor's `super(handler)` call gives: `null`, one of its parameters,
    /// or one made there (see [`SourceFile::handler_given`]).
    fn constructor_handler(&self, body: &Body, descriptor: &str) -> Option<Given> {
        let call = body.insns.iter().position(|insn| {
            matches!(insn, Insn::Invoke { kind: InvokeKind::Special, method }
                if method.class.as_str() == CONTENT_OBSERVER && method.name.as_str() == "<init>" && method.descriptor.as_str() == SUPER_DESCRIPTOR)
        })?;
        match &body.insns[call.checked_sub(1)?] {
            Insn::Load { slot, .. } => param_at_slot(descriptor, *slot).map(Given::Param),
            _ => self.handler_given(&body.insns, call).map(Given::Known),
        }
    }

    /// Where the observers `constructor` makes in the file run `onChange`, given the handler as
    /// its last parameter `k`: one entry per `new` whose handler is known.
    fn made_with(&self, constructor: &MethodRef, k: usize) -> Vec<OnChange> {
        if k + 1 != param_widths(constructor.descriptor.as_str()).len() {
            return Vec::new();
        }
        let makes = |insn: &Insn| matches!(insn, Insn::Invoke { kind: InvokeKind::Special, method } if **method == *constructor);
        let calls = self.bodies.iter().flat_map(|b| b.insns.iter().enumerate().filter(|(_, insn)| makes(insn)).map(move |(at, _)| (b, at)));
        calls.filter_map(|(b, at)| self.handler_given(&b.insns, at)).collect()
    }

    /// The handler the instructions just before the call at `call` give as its last argument:
    /// one made there (see [`SourceFile::handler_made`]), or read from a field of the file's
    /// classes that every store of the file gives such a handler, the same.
    fn handler_given(&self, insns: &[Insn], call: usize) -> Option<OnChange> {
        let Some(Insn::GetField(field)) = call.checked_sub(1).map(|at| &insns[at]) else { return self.handler_made(insns, call) };
        let mut given = self.bodies.iter().flat_map(|b| {
            let stores = b.insns.iter().enumerate().filter(move |(_, insn)| matches!(insn, Insn::PutField(f) if f == field));
            stores.map(move |(at, _)| self.handler_made(&b.insns, at))
        });
        let first = given.next()??;
        given.all(|on| on == Some(first)).then_some(first)
    }

    /// The handler the instructions just before the call at `call` give as its last argument
    /// (directly, or through the local they stored it in): `null`, or a handler made there on a
    /// looper of known thread (`new Handler(thread.getLooper())`, `new
    /// Handler(Looper.getMainLooper())`: see `handoffs::looper_thread`).
    fn handler_made(&self, insns: &[Insn], call: usize) -> Option<OnChange> {
        let looper = match &insns[..call] {
            [.., Insn::Const { value: ConstVal::Null, .. }] => return Some(OnChange::Binder),
            [.., Insn::Invoke { method: looper, .. }, Insn::Invoke { kind: InvokeKind::Special, method: handler }]
                if handler.class.as_str() == "android.os.Handler" && handler.name.as_str() == "<init>" && handler.descriptor.as_str() == "(Landroid/os/Looper;)V" =>
            {
                looper
            }
            // kotlinc computes an object expression's super-constructor argument into a local first.
            [before @ .., Insn::Load { slot, .. }] => {
                let stored = before.iter().rposition(|insn| matches!(insn, Insn::Store { slot: s, .. } if s == slot))?;
                return self.handler_made(insns, stored);
            }
            _ => return None,
        };
        // The thread making the observer is not known: the current looper is no known one.
        match looper_thread(self.table, looper, false)? {
            Target::Background => Some(OnChange::Worker),
            Target::Main => Some(OnChange::Main),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(kind: InvokeKind, class: &str, name: &str, descriptor: &str) -> Insn {
        let method = crate::interned::method_ref(MethodRef { class: Sym::new(class), name: Sym::new(name), descriptor: Sym::new(descriptor) });
        Insn::Invoke { kind, method }
    }

    /// `new Handler(<looper call>)`, the looper got by `looper`.
    fn handler_on(looper: Insn) -> Vec<Insn> {
        vec![Insn::New { class: Sym::new("android.os.Handler") }, Insn::Dup, looper, call(InvokeKind::Special, "android.os.Handler", "<init>", "(Landroid/os/Looper;)V")]
    }

    fn main_looper() -> Insn {
        call(InvokeKind::Static, "android.os.Looper", "getMainLooper", "()Landroid/os/Looper;")
    }

    fn handler_field() -> &'static FieldRef {
        crate::interned::field_ref(FieldRef { class: Sym::new("p.A"), name: Sym::new("mHandler"), descriptor: Sym::new("Landroid/os/Handler;") })
    }

    fn table() -> ClassTable {
        let mut table = ClassTable::new();
        table.freeze();
        table
    }

    /// The handler given just before `insns` end, in a file of no other code.
    fn handler_made(insns: &[Insn]) -> Option<OnChange> {
        SourceFile { table: &table(), bodies: Vec::new() }.handler_made(insns, insns.len())
    }

    fn body(insns: Vec<Insn>) -> Body {
        let lines = vec![0; insns.len()];
        Body { insns, lines, max_locals: 4, handlers: Vec::new() }
    }

    #[test]
    fn the_handler_given_is_null_a_workers_or_the_main_loopers() {
        let null = [Insn::Const { value: ConstVal::Null, wide: false }];
        assert_eq!(handler_made(&null), Some(OnChange::Binder));
        let worker = handler_on(call(InvokeKind::Virtual, "android.os.HandlerThread", "getLooper", "()Landroid/os/Looper;"));
        assert_eq!(handler_made(&worker), Some(OnChange::Worker));
        let main = handler_on(main_looper());
        assert_eq!(handler_made(&main), Some(OnChange::Main));
        let other = handler_on(call(InvokeKind::Static, "android.os.Looper", "myLooper", "()Landroid/os/Looper;"));
        assert_eq!(handler_made(&other), None);
    }

    #[test]
    fn a_handler_stored_in_a_local_first_is_the_one_made_there() {
        // kotlinc: the object expression's super-constructor argument, then the object.
        let mut insns = handler_on(main_looper());
        insns.extend([Insn::Store { slot: 3, wide: false }, Insn::New { class: Sym::new("p.A$1") }, Insn::Dup, Insn::Load { slot: 0, wide: false }, Insn::Load { slot: 3, wide: false }]);
        assert_eq!(handler_made(&insns), Some(OnChange::Main));
        let parameter = [Insn::Load { slot: 0, wide: false }, Insn::Load { slot: 1, wide: false }];
        assert_eq!(handler_made(&parameter), None);
    }

    #[test]
    fn a_handler_field_counts_when_every_store_gives_one_kind() {
        let store = |looper: Insn| {
            let mut insns = vec![Insn::Load { slot: 0, wide: false }];
            insns.extend(handler_on(looper));
            insns.push(Insn::PutField(handler_field()));
            body(insns)
        };
        let read = [Insn::Load { slot: 0, wide: false }, Insn::GetField(handler_field())];
        let main = store(main_looper());
        let table = table();
        assert_eq!(SourceFile { table: &table, bodies: vec![&main] }.handler_given(&read, 2), Some(OnChange::Main));
        let unknown = store(call(InvokeKind::Static, "p.A", "looper", "()Landroid/os/Looper;"));
        assert_eq!(SourceFile { table: &table, bodies: vec![&main, &unknown] }.handler_given(&read, 2), None);
        assert_eq!(SourceFile { table: &table, bodies: vec![] }.handler_given(&read, 2), None);
    }
}
