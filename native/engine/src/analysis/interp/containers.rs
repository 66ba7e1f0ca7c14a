//! Container calls (5.7) with the thread-safe container rules (6.4-6.6).

use crate::classfile::model::{Insn, MethodRef, ACC_FINAL};

use super::super::domain::*;
use super::super::facts::{self, CallFacts};
use super::super::access_order;
use super::super::kotlin_delegates;
use super::super::models::{self, ArgumentAccess, ContainerAccess};
use crate::issue::top_level_class;
use crate::sym::Sym;
use super::ownership::{escape_value, own, Holders};
use super::state::*;
use super::apply::ModelledHandoff;
use super::{Callee, Interp};

impl<'a, 'e> Interp<'a, 'e> {
    /// Returns the path the result stands for: the receiver's, for a view of it; the receiver's
    /// elements, for one of its elements (a map's value, a list's element).
    pub(super) fn container_call(
        &mut self,
        st: &mut State,
        cf: &CallFacts,
        access: ContainerAccess,
        args: &[Expr],
        ret: &Path,
    ) -> Option<Path> {
        let receiver = match args.first() {
            Some(Expr::Path(p)) => p.clone(),
            _ => return None,
        };
        // A view stands for its container; an element for the container's elements (`this.m.[_]`).
        let stands_for = if cf.returns_view {
            Some(receiver.clone())
        } else if cf.returns_value {
            receiver.with(Step::Array)
        } else {
            None
        };
        let resolved = &cf.resolved;
        // Decided before the arguments escape below: whether each is still fresh.
        let added = if access == ContainerAccess::Write { self.fresh_objects_added(st, &receiver, &args[1..]) } else { Vec::new() };
        // What is added to a container escapes to it (also to a thread-safe one).
        if access == ContainerAccess::Write && self.env.extensions.escape_ownership {
            let bound = own(st, &receiver);
            for a in &args[1..] {
                if let Some(h) = Holders::holder_of(&receiver) {
                    st.holders.hold(h, a);
                }
                escape_value(st, a, bound);
            }
        }
        self.alias_stored_objects(st, added);
        if cf.synchronized_container {
            return stands_for;
        }
        if let Some(own_pre) = self.record_container_access(st, &receiver, access, resolved, true) {
            st.own.set(ret, Some(own_pre));
        }
        stands_for
    }

    /// A string concatenation (`"names: " + this.names`) turns each object it is given into text
    /// with the object's `toString`, which for a library collection, map or mutable object is a
    /// read of it, as the call `this.names.toString()` is (collection-models extension). The
    /// object's type is the one the call's descriptor gives it (`invokedynamic`, older javac and
    /// kotlinc). Callers check the extension is on.
    pub(super) fn concatenated(&mut self, st: &State, descriptor: Sym, args: &[Expr]) {
        let types = crate::classfile::descriptor::param_types(descriptor.as_str());
        for (arg, ty) in args.iter().zip(types) {
            if let Expr::Path(path) = arg {
                self.read_as_text(st, path, ty);
            }
        }
    }

    /// `String.valueOf(object)` and `StringBuilder.append(object)`, which javac and kotlinc make
    /// of a concatenation's objects, turn the object into text: for an object read from a field
    /// by the instruction just before, of the field's declared type, see [`Self::concatenated`].
    pub(super) fn made_text(&mut self, st: &State, named: &MethodRef, args: &[Expr]) {
        if !models::makes_text_of_object(named) {
            return;
        }
        let Some(Expr::Path(path)) = args.last() else { return };
        let loaded = self.pc.checked_sub(1).and_then(|at| self.body.insns.get(at));
        let Some(Insn::GetField(field) | Insn::GetStatic(field)) = loaded else { return };
        if matches!(path.steps.last(), Some(Step::Field { name, .. }) if *name == field.name) {
            self.read_as_text(st, path, field.descriptor.as_str());
        }
    }

    /// Asking a Kotlin property's delegate that keeps its value with no lock, kept in a field
    /// only ever given such a delegate: a read or a write of it (see `kotlin_delegates`).
    pub(super) fn delegate_access(&self, named: &MethodRef, args: &[Expr]) -> Option<ContainerAccess> {
        if !self.env.extensions.collection_models || !kotlin_delegates::may_ask_delegate(named) {
            return None;
        }
        let Some(Expr::Path(receiver)) = args.first() else { return None };
        let field = self.own_class_field_at(receiver)?;
        let delegate = self.env.facts.delegate_fields.get(&field)?;
        kotlin_delegates::access(named, *delegate)
    }

    /// Setting a Kotlin property kept by an observed delegate (`Delegates.observable`,
    /// `vetoable`) runs the delegate's callbacks there, on the delegate object, given the
    /// property and the new value (see `kotlin_delegates`).
    pub(super) fn run_observers(&mut self, st: &mut State, named: &MethodRef, args: &[Expr]) {
        if !self.env.extensions.collection_models || !kotlin_delegates::sets_property(named) {
            return;
        }
        let Some(Expr::Path(receiver)) = args.first() else { return };
        let Some(field) = self.own_class_field_at(receiver) else { return };
        let Some(&kotlin_delegates::Delegate::Observed(class)) = self.env.facts.delegate_fields.get(&field) else { return };
        // setValue(thisRef, property, value); a callback takes (property, old value, new value).
        let [delegate, _, property, value] = args else { return };
        let old = Expr::opaque(Vec::new(), None, Own::Unowned);
        let callback_args = [delegate.clone(), property.clone(), old, value.clone()];
        for callback in kotlin_delegates::observer_callbacks(self.env.table, class) {
            if let Callee::Summary(s) = (self.env.callee)(&callback) {
                let ret = self.temp();
                self.apply_summary(st, &callback, s, &callback_args, &ret, ModelledHandoff::None);
            }
        }
    }

    /// Whether the lookup `named` is in an access-ordered `LinkedHashMap`, which it changes by
    /// moving the entry it finds (see `access_order`): a map of a class whose constructor asks
    /// for access order, or in a field only ever given one.
    pub(super) fn reordering_lookup(&self, named: &MethodRef, args: &[Expr]) -> bool {
        if !self.env.extensions.collection_models || !access_order::reorders(named) {
            return false;
        }
        let facts = &self.env.facts;
        if access_order::is_ordered_class(self.env.table, named.class, &facts.ordered_classes) {
            return true;
        }
        let Some(Expr::Path(receiver)) = args.first() else { return false };
        self.own_class_field_at(receiver).is_some_and(|field| facts.access_ordered_fields.contains(&field))
    }

    /// The field, by (declaring class, name), that `path` ends in, when it is one of this
    /// method's own top-level class: facts found from the stores into a private or final field
    /// are asked only there, where every module that has this code also has those stores.
    fn own_class_field_at(&self, path: &Path) -> Option<(Sym, Sym)> {
        let Some(Step::Field { class, name }) = path.steps.last() else { return None };
        let declaring = self.env.table.resolve_field(*class, *name);
        let same_file = top_level_class(declaring.as_str()) == top_level_class(self.input.mref.class.as_str());
        same_file.then_some((declaring, *name))
    }

    /// The read `toString` makes of the object at `path`, of type `descriptor`, when that is a
    /// library collection, map or mutable object.
    fn read_as_text(&mut self, st: &State, path: &Path, descriptor: &str) {
        let Some(class) = descriptor.strip_prefix('L').and_then(|t| t.strip_suffix(';')) else { return };
        if class == "java/lang/String" {
            return;
        }
        let to_string =
            MethodRef { class: Sym::new(&class.replace('/', ".")), name: Sym::new("toString"), descriptor: Sym::new("()Ljava/lang/String;") };
        if models::container_access(self.env.table, &to_string, self.env.extensions) == Some(ContainerAccess::Read) {
            self.record_container_access(st, path, ContainerAccess::Read, &to_string, true);
        }
    }

    /// Self-locking-collections extension: whether the container method `method` has a summary
    /// (its code is analysed here or upstream) showing a lock held around every access to its
    /// own object: each write, and each read of a field that is not final (the lock itself is
    /// read from a final field before it is taken), with at least one such access. The
    /// container access the call makes is then protected, by the collection's own lock.
    fn container_locks_itself(&self, method: &MethodRef) -> bool {
        if !self.env.extensions.self_locking_collections {
            return false;
        }
        let Callee::Summary(summary) = (self.env.callee)(method) else { return false };
        let mut own = summary
            .accesses
            .iter()
            .filter(|a| a.key.kind.path().base == Base::This && !self.reads_final_field(&a.key.kind))
            .peekable();
        own.peek().is_some() && own.all(|a| a.key.lock)
    }

    /// A plain read of a final field, written only by constructors.
    fn reads_final_field(&self, kind: &AccessKind) -> bool {
        let AccessKind::Read(path) = kind else { return false };
        match path.steps.last() {
            Some(Step::Field { class, name }) => {
                self.env.table.field(*class, *name).is_some_and(|f| f.flags & ACC_FINAL != 0)
            }
            _ => false,
        }
    }

    /// Records a read or write of the container at `path` through `method`, unless the
    /// container is known to be thread-safe; returns the container's ownership when recorded.
    /// `on_receiver`: the container is the call's receiver, so the call is protected when
    /// `method` locks itself (only then, and only for an access that is recorded, is its
    /// summary read).
    fn record_container_access(
        &mut self,
        st: &State,
        path: &Path,
        access: ContainerAccess,
        method: &MethodRef,
        on_receiver: bool,
    ) -> Option<Own> {
        if st.attrs.get(path) == Some(Attr::Synchronized) || self.is_synchronized_collection_field(path) {
            return None;
        }
        if let Some(Step::Field { class, name }) = path.steps.last() {
            if self.env.extensions.collection_models && facts::is_confined_field(self.env.table, *class, *name) {
                return None;
            }
            if self.env.facts.thread_local_classes.contains(class) {
                return None;
            }
        }
        let own_pre = own(st, path);
        let kind = match access {
            ContainerAccess::Write => AccessKind::ContainerWrite(path.clone(), CalledMethod::new(*method)),
            ContainerAccess::Read => AccessKind::ContainerRead(path.clone(), CalledMethod::new(*method)),
        };
        let locks_itself = on_receiver && self.recording && !own_pre.is_owned() && self.container_locks_itself(method);
        let line = self.line;
        self.record_held(kind, st, own_pre, Trace::empty(), line, locks_itself);
        Some(own_pre)
    }

    /// Collection-models extension: a library call reading or changing a container or an
    /// array it is given (`Collections.sort(this.list)`, `new ArrayList<>(this.list)`,
    /// `System.arraycopy(src, 0, this.buffer, 0, n)`).
    pub(super) fn argument_accesses(&mut self, st: &State, cf: &CallFacts, args: &[Expr]) {
        for &(i, access) in &cf.argument_accesses {
            let Some(Expr::Path(p)) = args.get(i) else { continue };
            match access {
                ArgumentAccess::Container(a) => {
                    self.record_container_access(st, p, a, &cf.resolved, false);
                }
                ArgumentAccess::Elements(a) => {
                    if let Some(elements) = p.with(Step::Array) {
                        self.record_path(st, &elements, a == ContainerAccess::Write);
                    }
                }
                ArgumentAccess::EntryOf(a) => {
                    if p.steps.last() == Some(&Step::Array) {
                        let map = p.prefix(p.steps.len() - 1);
                        self.record_container_access(st, &map, a, &cf.resolved, false);
                    }
                }
            }
        }
    }

    /// 6.6: the receiver is a field annotated `@SynchronizedCollection`. The reference finds
    /// the annotation only on a path of one field (`this.f`); with the collection models it
    /// is found on the last field of any path (`this.holder.f`).
    pub(super) fn is_synchronized_collection_field(&self, receiver: &Path) -> bool {
        if receiver.steps.len() != 1 && !self.env.extensions.collection_models {
            return false;
        }
        let Some(last) = receiver.steps.last() else { return false };
        match *last {
            Step::Field { class, name } => self
                .env
                .table
                .field(class, name)
                .map_or(false, |f| f.annotations.iter().any(|a| a.matches("SynchronizedCollection"))),
            Step::Array => false,
        }
    }
}
