//! Handlers made with a callback and kept in a field (`thread_handoffs`): `new Handler(looper,
//! this)`, `new Handler(looper, msg -> ...)`, `new Handler(looper, new Callback() {...})` and the
//! same through `createAsync`. A message sent to such a handler runs the callback's
//! `handleMessage` on the handler's looper (the framework's `Handler.dispatchMessage` gives a
//! message without a `Runnable` to the callback first).
//!
//! Only the code of the field's source file counts, as for the other code held by fields (see
//! `handoffs::field_held_code`): a module analysed alone then finds the same callback.

use rayon::prelude::*;

use crate::classfile::descriptor::is_object_of;
use crate::classfile::model::*;
use crate::fxhash::FxHashMap;
use crate::hierarchy::ClassTable;
use crate::issue::top_level_class;
use crate::sym::Sym;

const HANDLER_FIELD: &str = "Landroid/os/Handler;";
const CALLBACK: &str = "android.os.Handler$Callback";
const CALLBACK_DESCRIPTOR: &str = "Landroid/os/Handler$Callback;";

/// The callback a handler field's handler was made with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HandlerCallback {
    /// The field's holder itself (`new Handler(looper, this)`): a class implementing
    /// `Handler.Callback`.
    Holder(Sym),
    /// A lambda or method reference (its implementation method), capturing the holder or nothing.
    Lambda { body: MethodRef, captures_holder: bool },
    /// An object of this class made for the handler (an anonymous `Handler.Callback`).
    Object(Sym),
}

/// By the field's (declaring class, name).
pub type HandlerCallbacks = FxHashMap<(Sym, Sym), HandlerCallback>;

/// What a handler field's store gives its handler as callback, before callback fields are known.
#[derive(Clone, Copy, PartialEq)]
enum Given {
    Callback(HandlerCallback),
    /// The value of a callback field of the handler field's own class (`new Handler(looper,
    /// mCallback)`).
    Field(FieldRef),
}

impl Given {
    fn callback(self) -> Option<HandlerCallback> {
        match self {
            Given::Callback(c) => Some(c),
            Given::Field(_) => None,
        }
    }
}

/// The handler fields every store of `bodies` gives a handler made with the same callback of
/// the field's source file (a store of null aside): one given at the call, or one a callback
/// field of the same class is only ever given.
pub fn collect<'b>(table: &ClassTable, bodies: impl ParallelIterator<Item = &'b Body>) -> HandlerCallbacks {
    let stores: Vec<(FieldRef, Option<Given>)> = bodies
        .flat_map_iter(|body| {
            body.field_stores(|d| d == HANDLER_FIELD || d == CALLBACK_DESCRIPTOR)
                .filter(|(_, before)| !matches!(before.map(|b| &body.insns[b]), Some(Insn::Const { value: ConstVal::Null, .. })))
                .map(|(f, before)| {
                    let holder = table.resolve_field(f.class, f.name);
                    let given = if f.descriptor.as_str() == HANDLER_FIELD {
                        before.and_then(|b| callback_given(table, body, b, holder))
                    } else {
                        before.and_then(|b| callback_at(table, body, b, holder, b + 1)).map(Given::Callback)
                    };
                    (*f, given)
                })
                .collect::<Vec<_>>()
        })
        .collect();
    let (handlers, callbacks): (Vec<_>, Vec<_>) = stores.into_iter().partition(|(f, _)| f.descriptor.as_str() == HANDLER_FIELD);
    let callback_fields = super::facts::one_value_each(table, callbacks.into_iter().map(|(f, given)| (f, given.and_then(Given::callback))));
    let handlers = handlers.into_iter().map(|(f, given)| {
        let holder = table.resolve_field(f.class, f.name);
        let callback = given.and_then(|g| match g {
            Given::Callback(c) => Some(c),
            // A callback field of the same class: the holder a callback of `this` names is that
            // of the handler field too.
            Given::Field(cf) => {
                let declaring = table.resolve_field(cf.class, cf.name);
                (declaring == holder).then(|| callback_fields.get(&(declaring, cf.name)).copied()).flatten()
            }
        });
        (f, callback.filter(|c| of_file(*c, holder)))
    });
    super::facts::one_value_each(table, handlers)
}

/// The code a message sent to a handler made with `callback` runs: its `handleMessage`.
pub fn callback_code(table: &ClassTable, callback: HandlerCallback) -> Option<MethodRef> {
    static HANDLE_MESSAGE: once_cell::sync::Lazy<(Sym, Sym)> =
        once_cell::sync::Lazy::new(|| (Sym::new("handleMessage"), Sym::new("(Landroid/os/Message;)Z")));
    let (name, descriptor) = *HANDLE_MESSAGE;
    match callback {
        HandlerCallback::Holder(class) | HandlerCallback::Object(class) => table.resolve_method(&MethodRef { class, name, descriptor }),
        HandlerCallback::Lambda { body, .. } => Some(table.resolve_method(&body).unwrap_or(body)),
    }
}

/// Whether `method` makes a `Handler` with a callback, given as its last argument: a constructor
/// (`new Handler(looper, callback)`, `new Handler(callback)`) or a static factory
/// (`Handler.createAsync(looper, callback)`, androidx's `HandlerCompat.createAsync`).
pub fn makes_handler_with_callback(method: &MethodRef) -> bool {
    let makes_handler = match (method.class.as_str(), method.name.as_str()) {
        ("android.os.Handler", "<init>") => true,
        ("android.os.Handler" | "androidx.core.os.HandlerCompat", "createAsync") => true,
        _ => false,
    };
    makes_handler && method.descriptor.as_str().split(')').next().is_some_and(|params| params.ends_with(CALLBACK_DESCRIPTOR))
}

/// Whether objects of `class` are `Handler.Callback`s.
pub fn is_callback_class(table: &ClassTable, class: Sym) -> bool {
    table.is_subtype_of_any(class, &[CALLBACK])
}

/// The callback of the handler the call at `made` makes, when it takes one as its last
/// argument, computed just before the call; the handler is stored into a field of `holder`.
fn callback_given(table: &ClassTable, body: &Body, made: usize, holder: Sym) -> Option<Given> {
    if !makes_handler_with_callback(body.call_at(Some(made))?) {
        return None;
    }
    // kotlinc casts `this` to the interface it implements.
    let mut at = made.checked_sub(1)?;
    while matches!(body.insns[at], Insn::CheckCast) {
        at = at.checked_sub(1)?;
    }
    match &body.insns[at] {
        Insn::GetField(f) if at > 0 && matches!(body.insns[at - 1], Insn::Load { slot: 0, .. }) && f.descriptor.as_str() == CALLBACK_DESCRIPTOR => {
            Some(Given::Field(**f))
        }
        Insn::GetStatic(f) if f.descriptor.as_str() == CALLBACK_DESCRIPTOR => Some(Given::Field(**f)),
        _ => callback_at(table, body, at, holder, made + 1).map(Given::Callback),
    }
}

/// The callback the instructions ending at `at` compute, in a body of `holder` (or of its
/// outer class) whose instruction `stored` stores the result (or what it is given to) into
/// an instance field of `holder`.
fn callback_at(table: &ClassTable, body: &Body, at: usize, holder: Sym, stored: usize) -> Option<HandlerCallback> {
    match &body.insns[at] {
        // `this`, stored into an instance field: the holder.
        Insn::Load { slot: 0, .. } if matches!(body.insns.get(stored), Some(Insn::PutField(_))) => {
            table.is_subtype_of_any(holder, &[CALLBACK]).then_some(HandlerCallback::Holder(holder))
        }
        Insn::InvokeDynamic(DynamicCall { lambda: Some(lambda), descriptor, .. }) => {
            let (captures, returns) = descriptor.as_str().strip_prefix('(')?.split_once(')')?;
            if returns != CALLBACK_DESCRIPTOR {
                return None;
            }
            let captures_holder = at > 0 && matches!(body.insns[at - 1], Insn::Load { slot: 0, .. }) && is_object_of(captures, lambda.class.as_str());
            (captures.is_empty() || captures_holder).then_some(HandlerCallback::Lambda { body: *lambda, captures_holder })
        }
        Insn::Invoke { method, .. } if method.name.as_str() == "<init>" && table.is_subtype_of_any(method.class, &[CALLBACK]) => {
            Some(HandlerCallback::Object(method.class))
        }
        _ => None,
    }
}

/// Whether the callback's code is of the source file of `class`.
fn of_file(callback: HandlerCallback, class: Sym) -> bool {
    let code = match callback {
        HandlerCallback::Holder(c) | HandlerCallback::Object(c) => c,
        HandlerCallback::Lambda { body, .. } => body.class,
    };
    top_level_class(code.as_str()) == top_level_class(class.as_str())
}
