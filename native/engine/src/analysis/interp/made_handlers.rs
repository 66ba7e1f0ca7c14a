//! Handlers made in the method (thread handoffs): a message sent to one runs the
//! `handleMessage` of the `Handler` subclass made (see `HandoffModel::HandlerSubclassInit`),
//! or of the `Handler.Callback` it was made with (`new Handler(looper, callback)`; the
//! framework's `Handler.dispatchMessage` tries the callback first; `Handler.createAsync(looper,
//! callback)` makes one too), on its looper.
//!
//! Only code of the method's source file counts, as for handlers kept in fields: a module
//! analysed alone then finds the same code.

use crate::classfile::model::*;
use crate::issue::top_level_class;
use crate::sym::Sym;

use super::super::domain::*;
use super::super::handler_callbacks::{callback_code, is_callback_class, makes_handler_with_callback, HandlerCallback};
use super::super::handoffs::message_handler;
use super::handoffs::{Capture, Handed};
use super::state::*;
use super::Interp;

/// The callback a handler made in the method was given.
#[derive(Clone)]
pub(super) enum MadeCallback {
    /// A lambda or method reference, made at this instruction.
    Lambda(u32),
    /// The method's own object, a `Handler.Callback` itself (`new Handler(looper, this)`).
    Holder(Expr),
    /// An object of this class made at this instruction (an anonymous `Handler.Callback`).
    Object { made: u32, class: Sym },
}

impl<'a, 'e> Interp<'a, 'e> {
    /// The `handleMessage` a message sent to `handler`, made here, runs: that of a `Handler`
    /// subclass of this source file, on the new object with the outer instance its constructor
    /// was given; or that of the callback the handler was made with.
    pub(super) fn made_handler_code(&self, st: &State, handler: &Expr) -> Option<Handed> {
        let pc = self.allocated_at(st, handler)?;
        if let Some(callback) = self.made_handler_callbacks.get(&pc) {
            return self.made_callback_code(callback);
        }
        let Some(Insn::New { class }) = self.body.insns.get(pc as usize) else { return None };
        if !self.of_own_file(*class) {
            return None;
        }
        let body = message_handler(self.env.table, *class)?;
        let captured = self.handed_values.get(&pc)?.clone();
        let object = Some(handler.clone());
        Some(Handed { bodies: vec![body], captured, capture: Capture::OuterInstance, inline: false, object, started: false, serial: false, held: Vec::new() })
    }

    /// `new Handler(looper, callback)`, `new Handler(callback)` or `Handler.createAsync(looper,
    /// callback)` making `handler` here: notes the callback, when its code is known, for the
    /// messages sent to the handler.
    pub(super) fn note_made_handler_callback(&mut self, st: &State, maker: &MethodRef, handler: &Expr, args: &[Expr]) {
        if !makes_handler_with_callback(maker) {
            return;
        }
        let Some(callback) = args.last() else { return };
        let Some(made) = self.allocated_at(st, handler) else { return };
        let table = self.env.table;
        let own = self.input.mref.class;
        let known = match attr_e(st, callback) {
            Some(Attr::Handed(pc)) if matches!(self.body.insns.get(pc as usize), Some(Insn::InvokeDynamic(_))) => Some(MadeCallback::Lambda(pc)),
            _ if callback.is_this() => is_callback_class(table, own).then(|| MadeCallback::Holder(callback.clone())),
            // An object whose constructor arguments were noted (`made_handler_callback_object`).
            _ => self.allocated_at(st, callback).filter(|pc| self.handed_values.contains_key(pc)).and_then(|made| {
                let Some(Insn::New { class }) = self.body.insns.get(made as usize) else { return None };
                Some(MadeCallback::Object { made, class: *class })
            }),
        };
        match known {
            Some(callback) => self.made_handler_callbacks.insert(made, callback),
            None => self.made_handler_callbacks.remove(&made),
        };
    }

    /// The new object `receiver` of `constructor` when it is a `Handler.Callback` of this
    /// source file: what it captures is noted, for a handler made with it.
    pub(super) fn made_handler_callback_object(&self, st: &State, receiver: &Expr, constructor: &MethodRef) -> Option<u32> {
        if !self.of_own_file(constructor.class) || !is_callback_class(self.env.table, constructor.class) {
            return None;
        }
        self.allocated_at(st, receiver)
    }

    fn made_callback_code(&self, callback: &MadeCallback) -> Option<Handed> {
        let table = self.env.table;
        let (body, captured, capture) = match callback {
            MadeCallback::Lambda(pc) => return self.handed_made_at(*pc),
            MadeCallback::Holder(this) => (callback_code(table, HandlerCallback::Holder(self.input.mref.class))?, vec![this.clone()], Capture::Formals),
            // Its outer instance is what its constructor was given; its own fields are those of
            // an object nothing else reaches.
            MadeCallback::Object { made, class } => {
                (callback_code(table, HandlerCallback::Object(*class))?, self.handed_values.get(made)?.clone(), Capture::OuterInstance)
            }
        };
        Some(Handed { bodies: vec![body], captured, capture, inline: false, object: None, started: false, serial: false, held: Vec::new() })
    }

    fn of_own_file(&self, class: Sym) -> bool {
        top_level_class(class.as_str()) == top_level_class(self.input.mref.class.as_str())
    }
}
