//! One bytecode instruction (2.1-2.3): moves values between locals, the operand
//! stack and fields, and hands reads, writes and calls to their transfer functions.

use crate::classfile::descriptor::return_kind;
use crate::classfile::model::*;
use crate::sym::Sym;

use super::super::domain::*;
use super::super::handoffs::is_singleton_instance;
use super::super::models::LockEffect;
use super::locks::{apply_lock_effect, enter_own_monitor, exit_own_monitor, lock_identity};
use super::ownership::{own, own_e};
use super::state::*;
use super::Interp;

impl<'a, 'e> Interp<'a, 'e> {
    pub(super) fn step(&mut self, st: &mut State, insn: &Insn) {
        match insn {
            Insn::Nop | Insn::CheckCast => {}
            Insn::Const { value, wide } => push(st, Expr::Const(*value), *wide),
            // Only a lock needs to know which class (lock identities); else a constant like any.
            Insn::ClassConst { class } if self.env.extensions.lock_identities => push(st, Expr::Class(*class), false),
            Insn::ClassConst { .. } => push(st, Expr::Const(ConstVal::Other), false),
            Insn::Load { slot, wide } => {
                let e = self.load_local(st, *slot);
                push(st, e, *wide);
            }
            Insn::Store { slot, wide } => {
                let v = pop(st, *wide);
                self.store_local(st, *slot, &v, *wide);
            }
            Insn::Iinc { slot } => self.increment_local(st, *slot),
            Insn::ArrayLoad { wide } => {
                let index = pop(st, false);
                self.read_expr(st, &index);
                let array = pop(st, false);
                let e = match &array {
                    Expr::Path(p) => match p.with(Step::Array) {
                        Some(q) => Expr::Path(q),
                        None => Expr::opaque(vec![p.clone()], None, Own::Unowned),
                    },
                    Expr::Compound(c) if let Some(element) = self.through_snapshot(c, |p| p.with(Step::Array)) => {
                        self.read_through_snapshot(st, element)
                    }
                    other => {
                        let o = own_e(st, other);
                        Expr::opaque(other.paths().to_vec(), None, o)
                    }
                };
                push(st, e, *wide);
            }
            Insn::ArrayStore { wide } => {
                let value = pop(st, *wide);
                self.maybe_thread_stored(st, &value);
                let index = pop(st, false);
                self.read_expr(st, &index);
                let array = pop(st, false);
                match &array {
                    Expr::Path(p) => match p.with(Step::Array) {
                        Some(lhs) => {
                            // A reference for sure when it is an object made here (the
                            // instruction does not say: numbers are stored alike).
                            let made_here = self.allocated_at(st, &value).is_some();
                            self.assign(st, &lhs, &value, *wide);
                            self.heap_stored(st, &lhs, &value, false);
                            if made_here {
                                self.element_stored(st, &lhs, &value);
                            }
                        }
                        None => {
                            self.read_expr(st, &value);
                            self.read_expr(st, &array);
                        }
                    },
                    Expr::Compound(c) if let Some(element) = self.through_snapshot(c, |p| p.with(Step::Array)) => {
                        self.write_through_snapshot(st, element, &value, *wide, false);
                    }
                    other => {
                        self.read_expr(st, &value);
                        self.read_expr(st, other);
                    }
                }
            }
            Insn::Op { args, wide_args, result } => {
                let mut operands = Vec::with_capacity(*args as usize);
                for k in (0..*args).rev() {
                    operands.push(pop(st, wide_args & (1 << k) != 0));
                }
                operands.reverse();
                let mut paths = Vec::new();
                for o in &operands {
                    for p in o.paths() {
                        if !paths.contains(p) {
                            paths.push(p.clone());
                        }
                    }
                }
                let attrs: Vec<Option<Attr>> = operands.iter().map(|o| attr_e(st, o)).collect();
                let attr = if attrs.windows(2).all(|w| w[0] == w[1]) { attrs.first().copied().flatten() } else { None };
                let attr = attr.or_else(|| compared_stamp(*args, *wide_args, *result, &operands, &attrs));
                if let Some(w) = result {
                    push(st, Expr::opaque(paths, attr, Own::Unowned), *w);
                }
            }
            Insn::Pop => {
                st.stack.pop();
            }
            Insn::Pop2 => {
                st.stack.pop();
                st.stack.pop();
            }
            Insn::Dup => dup_slots(st, 1, 0),
            Insn::DupX1 => dup_slots(st, 1, 1),
            Insn::DupX2 => dup_slots(st, 1, 2),
            Insn::Dup2 => dup_slots(st, 2, 0),
            Insn::Dup2X1 => dup_slots(st, 2, 1),
            Insn::Dup2X2 => dup_slots(st, 2, 2),
            Insn::Swap => {
                let n = st.stack.len();
                if n >= 2 {
                    st.stack.swap(n - 1, n - 2);
                }
            }
            Insn::GetField(f) => {
                let obj = pop(st, false);
                let e = self.get_field(st, &obj, f);
                push(st, e, f.is_wide());
            }
            // A lambda that captures nothing, kept in one instance: code, as if made here.
            Insn::GetStatic(f) if self.env.facts.handed_classes.contains_key(&f.class) && is_singleton_instance(f) => {
                let t = self.fresh_value(st);
                self.note_handed_value(st, &t, Vec::new());
                push(st, Expr::Path(t), false);
            }
            Insn::GetStatic(f) => {
                let declaring = self.declaring(f);
                let e = match Path::of(Base::Static(declaring)).field(declaring, f.name) {
                    Some(p) => Expr::Path(p),
                    None => Expr::opaque(vec![], None, Own::Unowned),
                };
                push(st, e, f.is_wide());
            }
            Insn::PutField(f) => {
                let value = pop(st, f.is_wide());
                let obj = pop(st, false);
                self.put_field(st, &obj, f, &value);
            }
            Insn::PutStatic(f) => {
                let value = pop(st, f.is_wide());
                let declaring = self.declaring(f);
                // Putting its object back on a pool's free list lends it to the next holder.
                self.publishes_own_object |= value.is_this() && !self.env.facts.statics.pool_heads.contains(&(declaring, f.name));
                match Path::of(Base::Static(declaring)).field(declaring, f.name) {
                    Some(lhs) => {
                        self.assign(st, &lhs, &value, f.is_wide());
                        self.heap_stored(st, &lhs, &value, is_reference(f));
                    }
                    None => self.read_expr(st, &value),
                }
            }
            Insn::Invoke { kind, method } => self.invoke(st, *kind, method),
            Insn::InvokeDynamic(call) => {
                let DynamicCall { descriptor, lambda, concat } = **call;
                let args = pop_args(st, descriptor.as_str(), false);
                for a in &args {
                    self.read_expr(st, a);
                }
                if concat && self.env.extensions.collection_models {
                    self.concatenated(st, descriptor, &args);
                }
                if let Some(w) = return_kind(descriptor.as_str()) {
                    let t = self.fresh_value(st);
                    if lambda.is_some() && self.env.extensions.thread_handoffs {
                        self.note_handed_value(st, &t, args);
                    }
                    push(st, Expr::Path(t), w);
                }
            }
            Insn::New { class } => {
                let t = self.fresh_value(st);
                if self.env.facts.handed_classes.contains_key(class) {
                    self.note_handed_value(st, &t, Vec::new());
                }
                push(st, Expr::Path(t), false);
            }
            Insn::NewArray { dims } => {
                for _ in 0..*dims {
                    let size = pop(st, false);
                    self.read_expr(st, &size);
                }
                let t = self.fresh_value(st);
                push(st, Expr::Path(t), false);
            }
            Insn::ArrayLength | Insn::InstanceOf => {
                let v = pop(st, false);
                self.read_expr(st, &v);
                push(st, Expr::opaque(vec![], None, Own::Unowned), false);
            }
            Insn::MonitorEnter | Insn::MonitorExit => {
                let v = pop(st, false);
                self.read_expr(st, &v);
                let effect = if matches!(insn, Insn::MonitorEnter) { LockEffect::Acquire } else { LockEffect::Release };
                if self.fresh_lock_effect(st, effect, &v) {
                    return;
                }
                if effect == LockEffect::Release {
                    self.flush_pending_reads(st);
                }
                // Inlined accessors have no monitors of their own: `this` is the method's.
                let own_monitor = self.inline_depth == 0
                    && v.is_this()
                    && self.own_monitor_is_per_object();
                if own_monitor && effect == LockEffect::Release {
                    exit_own_monitor(st);
                }
                let ext = self.env.extensions;
                let lock = lock_identity(&v, ext.lock_identities);
                apply_lock_effect(st, effect, ext.callee_releases, lock, self.foreign_lock(Some(&v), lock));
                if own_monitor && effect == LockEffect::Acquire {
                    enter_own_monitor(st);
                }
            }
            // Control flow is handled by `run_block`.
            Insn::Return { .. } | Insn::Athrow | Insn::Goto { .. } | Insn::If { .. } | Insn::Switch { .. } | Insn::Jsr { .. } | Insn::Ret => {}
        }
    }

    pub(super) fn get_field(&mut self, st: &mut State, obj: &Expr, f: &FieldRef) -> Expr {
        match obj {
            Expr::Path(p) => match self.field_path(p, f) {
                Some(q) => self.field_value(st, q),
                None => Expr::opaque(vec![p.clone()], None, own(st, p)),
            },
            // Read through each object it may be.
            Expr::Compound(c) if c.either && !c.paths.is_empty() && c.paths.iter().all(|p| self.field_path(p, f).is_some()) => {
                let fields: Vec<Path> = c.paths.iter().filter_map(|p| self.field_path(p, f)).collect();
                let o = fields.iter().map(|q| own(st, q)).reduce(Own::join).unwrap_or(Own::Unowned);
                Expr::either(fields, None, o)
            }
            Expr::Compound(c) if let Some(field) = self.through_snapshot(c, |p| self.field_path(p, f)) => {
                self.read_through_snapshot(st, field)
            }
            other => {
                self.read_expr(st, other);
                Expr::opaque(vec![], None, own_e(st, other))
            }
        }
    }

    pub(super) fn put_field(&mut self, st: &mut State, obj: &Expr, f: &FieldRef, value: &Expr) {
        match obj {
            Expr::Path(p) => match self.field_path(p, f) {
                Some(lhs) => {
                    self.assign(st, &lhs, value, f.is_wide());
                    self.heap_stored(st, &lhs, value, is_reference(f));
                    self.note_field_stored(st, p, &lhs, value, is_reference(f));
                }
                None => {
                    self.read_expr(st, value);
                    self.read_expr(st, obj);
                }
            },
            // Written through each object it may be.
            Expr::Compound(c) if c.either && !c.paths.is_empty() => {
                for p in &c.paths {
                    self.put_field(st, &Expr::Path(p.clone()), f, value);
                }
            }
            Expr::Compound(c) if let Some(field) = self.through_snapshot(c, |p| self.field_path(p, f)) => {
                self.write_through_snapshot(st, field, value, f.is_wide(), is_reference(f));
            }
            other => {
                self.read_expr(st, value);
                self.read_expr(st, other);
            }
        }
    }

    pub(super) fn local_path(&self, slot: u16) -> Path {
        let m = self.input.method;
        match m.formal_slots.iter().position(|&s| s == slot) {
            Some(0) if !m.header.is_static() => Path::of(Base::This),
            Some(i) => Path::of(Base::Param(i as u16)),
            None => Path::of(Base::Local(slot)),
        }
    }

    pub(super) fn declaring(&self, f: &FieldRef) -> Sym {
        match self.env.facts.field(f) {
            Some(ff) => ff.declaring,
            None => self.env.table.resolve_field(f.class, f.name),
        }
    }

    pub(super) fn field_path(&self, base: &Path, f: &FieldRef) -> Option<Path> {
        base.field(self.declaring(f), f.name)
    }

    pub(super) fn temp(&self) -> Path {
        Path::of(Base::Temp(self.pc as u32))
    }

    /// The temporary of a value this instruction makes: owned, with no attribute yet.
    fn fresh_value(&self, st: &mut State) -> Path {
        let t = self.temp();
        st.own.set(&t, Some(OWNED));
        st.attrs.set(&t, None);
        t
    }
}

/// A field holding an object or an array (not a number).
fn is_reference(f: &FieldRef) -> bool {
    matches!(f.descriptor.as_str().as_bytes().first(), Some(b'L' | b'['))
}

/// `lcmp` of a `StampedLock` try's stamp with a constant (`s == 0L`, lock-precision
/// extension): the comparison is zero exactly where the stamp is, so it says whether the lock
/// was taken as the stamp does.
fn compared_stamp(args: u8, wide_args: u8, result: Option<bool>, operands: &[Expr], attrs: &[Option<Attr>]) -> Option<Attr> {
    if (args, wide_args, result) != (2, 0b11, Some(false)) {
        return None;
    }
    let held = |a: Option<Attr>| a.filter(|a| matches!(a, Attr::LockHeld | Attr::ReadLockHeld));
    match operands {
        [Expr::Const(_), _] => held(attrs[1]),
        [_, Expr::Const(_)] => held(attrs[0]),
        _ => None,
    }
}
