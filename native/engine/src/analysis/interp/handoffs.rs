//! Thread handoffs (extension, `analysis/handoffs.rs` for the models): code handed to
//! another thread is applied where it is handed, as a call whose accesses keep the thread
//! they are handed to and only the locks the handed code takes itself. So the class that
//! hands the code over sees them, and reports them like its own accesses.

use crate::classfile::descriptor::{object_class, param_types, return_kind};
use crate::classfile::model::*;
use crate::issue::top_level_class;
use crate::sym::Sym;

use super::super::annotations::is_lambda_body_name;
use super::super::domain::*;
use super::super::handler_callbacks::{callback_code, HandlerCallback};
use super::super::handoffs::{field_held_code, field_thread_code, is_kotlin_lambda_class, message_handler, ExecutorKind, HandoffModel, Target};
use super::super::registrations::{registered_callback, Unseen};
use super::access_set::NewKey;
use super::apply::{key_at_call, own_given, substitute, thread_and_lock_at_call};
use super::aliases::holds_callers_object;
use super::ownership::{escape_value, own, own_e};
use super::joins::handed_code_made_at;
use super::state::*;
use super::{waits, Callee, Env, Interp};

/// How the handed code's formals relate to the values captured where it was made.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Capture {
    /// A lambda or method reference: formal `i` is captured value `i`.
    Formals,
    /// A `Runnable` object of an inner class: its `this.this$0` is constructor argument 0,
    /// and its own fields belong to the object (see [`Handed::object`]).
    OuterInstance,
}

/// Where handed code runs: on another thread, or during the call it is given to.
#[derive(Clone, Copy, PartialEq)]
enum Place {
    Thread(Target),
    Caller,
}

pub(super) struct Handed {
    /// The methods the code runs: one, or a callback object's several (`bodies_of_class`).
    pub(super) bodies: Vec<MethodRef>,
    pub(super) captured: Vec<Expr>,
    pub(super) capture: Capture,
    /// A lambda body of this class: its accesses are shown at their own lines, as code of
    /// the method that holds the lambda.
    pub(super) inline: bool,
    /// With `OuterInstance`, a shared path naming the object here (a thread kept in a field,
    /// then started): its own fields are reached through it. Without one, they belong to a
    /// fresh object nothing else reaches.
    pub(super) object: Option<Expr>,
    /// The `run()` of a started `Thread` object that a shared path names, or the code of a thread
    /// kept in a field: on that object's own fields (for a task made for the thread, on its
    /// outer instance's) it runs on the object's one thread (see `AccessKey::started`).
    pub(super) started: bool,
    /// Code given to an executor with one thread (a `java.util.Timer`, a single-thread
    /// executor): it runs one task at a time, so its accesses do not race with each other's
    /// (marked as a started thread's are).
    pub(super) serial: bool,
    /// With `OuterInstance`, the fields of a fresh object that hold shared objects its
    /// constructor was given (a top-level `Worker(Counter owner)` keeping `owner`): what the
    /// code reaches through them it reaches on those objects.
    pub(super) held: Vec<(Step, Path)>,
}

impl<'a, 'e> Interp<'a, 'e> {
    /// `invokedynamic` of a lambda or method reference, and `new` of a `Runnable`/`Callable`
    /// class: the value made here is code that may be handed over.
    pub(super) fn note_handed_value(&mut self, st: &mut State, made: &Path, captured: Vec<Expr>) {
        st.attrs.set(made, Some(Attr::Handed(self.pc as u32)));
        self.handed_values.insert(self.pc as u32, captured);
    }

    /// A constructor call: when it makes a handed object, what the object captures (the
    /// outer instance first).
    pub(super) fn note_constructor_args(&mut self, st: &State, constructor: &MethodRef, args: &[Expr]) {
        let made = match args.first().and_then(|a| attr_e(st, a)) {
            Some(Attr::Handed(pc)) => Some(pc),
            _ => args.first().and_then(|a| self.made_handler_callback_object(st, a, constructor)),
        };
        if let Some(pc) = made {
            if matches!(self.body.insns.get(pc as usize), Some(Insn::New { .. })) {
                // What this visit's object holds (a loop may visit the `new` again).
                let held = match args.first() {
                    Some(Expr::Path(object)) => st.held.shared_fields_of(object.base),
                    _ => Vec::new(),
                };
                if held.is_empty() {
                    self.handed_fields.remove(&pc);
                } else {
                    self.handed_fields.insert(pc, held);
                }
                let mut captured = args[1..].to_vec();
                if let Some(outer) = self.outer_instance_parameter(constructor) {
                    captured[..=outer].rotate_right(1);
                }
                self.handed_values.insert(pc, captured);
            }
        }
    }

    /// The parameter of `constructor` that gives its object the outer instance (`this$0`), when
    /// it is not the first: javac passes it first, kotlinc passes it last to the classes it
    /// inlines a flow operator into. Headers keep no field types: the outer instance is the
    /// first parameter of a class enclosing the one made.
    fn outer_instance_parameter(&self, constructor: &MethodRef) -> Option<usize> {
        let made = constructor.class.as_str();
        self.env.table.get(constructor.class)?.fields.iter().find(|f| f.name.as_str() == "this$0")?;
        let encloses = |param: &str| {
            object_class(param).is_some_and(|outer| made.strip_prefix(outer.as_str()).is_some_and(|inner| inner.starts_with('$')))
        };
        param_types(constructor.descriptor.as_str()).iter().position(|p| encloses(p)).filter(|&i| i > 0)
    }

    pub(super) fn handoff(&mut self, st: &mut State, model: HandoffModel, kind: InvokeKind, named: &MethodRef, args: &[Expr], ret: &Path) {
        let params = if kind == InvokeKind::Static { args } else { args.get(1..).unwrap_or(&[]) };
        let receiver = || if kind == InvokeKind::Static { None } else { args.first() };
        match model {
            HandoffModel::ThreadConstructor | HandoffModel::MadeThread => self.thread_made_with(st, model, receiver(), params, ret),
            HandoffModel::Arguments(target) => self.hand_to_executor(st, target, named, receiver(), args, params, ret),
            HandoffModel::ThreadStart => {
                if let Some(r) = receiver() {
                    self.thread_started(st, named, r);
                }
            }
            HandoffModel::ShutdownHook => {
                if let Some(thread) = params.first() {
                    self.thread_started(st, named, thread);
                }
            }
            // `thread.run()` on a thread made here with code: the code runs now, in this thread,
            // as a call would (its making handed nothing over, `made_thread_run_at_once`).
            HandoffModel::ThreadRun => {
                let made = receiver().and_then(|r| match attr_e(st, r) {
                    Some(Attr::ThreadOf(pc)) if self.env.extensions.direct_executors => Some(pc),
                    _ => None,
                });
                if let Some(code) = made.and_then(|pc| self.handed_made_at(pc)) {
                    self.apply_in_place(st, &code);
                }
            }
            // The action runs before the call returns, as if called here. Not this object's
            // own `run()`: see `run_privileged_actions`.
            HandoffModel::Privileged => self.run_privileged_actions(st, params),
            HandoffModel::StreamOp => {
                if receiver().and_then(|r| attr_e(st, r)) == Some(Attr::ParallelStream) {
                    // The operation's functions run on many threads, all done before the
                    // terminal operation returns.
                    self.applying_as(Some(JoinedThread::MANY), |me| me.hand_all(st, params, Target::Background, true, false));
                    let stream = return_kind(named.descriptor.as_str()).is_some()
                        && named.descriptor.as_str().contains(")Ljava/util/stream/");
                    if stream && named.name.as_str() != "sequential" {
                        st.attrs.set(ret, Some(Attr::ParallelStream));
                    }
                }
            }
            HandoffModel::MakesParallel => st.attrs.set(ret, Some(Attr::ParallelStream)),
            // On the future of a task handed here to another thread (the call keeps the model
            // only then): the functions run on the task's thread after it, and end when it is
            // waited for through the future this returns.
            HandoffModel::Continuation => {
                let thread = match task_future(st, receiver()) {
                    Some(TaskOrigin::MadeAt(code)) => Some((code, Some(JoinedThread::made_at(code)))),
                    // A callee's task: the continuation is the first of it seen here, so this
                    // call names the thread it runs on from now on.
                    Some(TaskOrigin::Callee) => Some((self.pc as u32, self.thread_runs(st, self.pc as u32))),
                    None => None,
                };
                let Some((code, joined)) = thread else { return };
                self.applying_as(joined, |me| me.hand_all(st, params, Target::Background, true, false));
                st.attrs.set(ret, Some(Attr::ThreadOf(code)));
            }
            HandoffModel::HandlerPost => {
                // A looper runs its messages one at a time, on its one thread.
                if let Some(target) = receiver().and_then(|r| self.handler_target(st, r)) {
                    self.hand_all(st, params, target, true, target == Target::Background);
                }
            }
            HandoffModel::Registration(without_handler) => {
                if let Some(Scheduler { target, serial }) = self.registration_scheduler(st, named, params, without_handler) {
                    self.hand_all(st, params, target, true, serial);
                }
            }
            HandoffModel::HandlerInit => {
                let (handler_made, looper) = made_from(kind, args, ret);
                if let Some(h) = handler_made {
                    self.note_made_handler_callback(st, named, &Expr::Path(h.clone()), args);
                }
                if let (Some(attr), Some(h)) = (looper.and_then(|l| self.handler_on_looper(st, l)), handler_made) {
                    st.attrs.set(h, Some(attr));
                }
            }
            HandoffModel::HandlerSubclassInit(looper) => self.handler_subclass_made(st, looper, named, receiver(), params),
            // The handler's `handleMessage` runs the message on its looper's thread, one message
            // at a time.
            HandoffModel::HandlerSend => {
                if let Some((target, handler)) = receiver().and_then(|r| Some((self.handler_target(st, r)?, r))) {
                    let code = self.message_handler_code(st, handler);
                    self.run_handed(st, code.map(|c| Handed { serial: target == Target::Background, ..c }), target, true);
                }
            }
            // Resolved at the call (see `HandoffModel::at_call`): a message not sent at once.
            HandoffModel::ObtainMessage => {}
            // On the main thread, the current thread's looper is the main one; elsewhere it is
            // unknown, and the handler is not followed.
            HandoffModel::HandlerOnCallingLooper => {
                if let Some(h) = args.first() {
                    self.note_made_handler_callback(st, named, h, args);
                }
                if let (true, Some(Expr::Path(h))) = (self.on_main_looper(st), args.first()) {
                    st.attrs.set(h, Some(Attr::MainHandler));
                }
            }
            HandoffModel::WorkerLooper => st.attrs.set(ret, Some(Attr::WorkerHandler)),
            HandoffModel::MainLooper => st.attrs.set(ret, Some(Attr::MainThreadHandle)),
            // A handler's looper is on the handler's thread, when that is known.
            HandoffModel::LooperOfHandler => {
                let looper = match receiver().and_then(|h| self.handler_target(st, h)) {
                    Some(Target::Main) => Some(Attr::MainThreadHandle),
                    Some(Target::Background) => Some(Attr::WorkerHandler),
                    None => None,
                };
                st.attrs.set(ret, looper);
            }
            HandoffModel::BackgroundDispatcher => st.attrs.set(ret, Some(Attr::BackgroundDispatcher)),
            HandoffModel::CoroutineBuilder { context: at, block } => self.launch_coroutine(st, at, block, args),
            HandoffModel::Scheduled(Scheduler { target, serial }) => self.hand_all(st, params, target, true, serial),
            // Resolved at the call (see `invoke`): a chain without a known scheduler.
            HandoffModel::ReactiveOperator => {}
            HandoffModel::FlowOperator
            | HandoffModel::FlowOn
            | HandoffModel::FlowContext(_)
            | HandoffModel::FlowLaunch
            | HandoffModel::FlowCollect => self.flow_handoff(st, model, receiver(), params, ret),
            HandoffModel::MainExecutor => st.attrs.set(ret, Some(Attr::MainHandler)),
            HandoffModel::DirectExecutor => st.attrs.set(ret, Some(Attr::DirectExecutor)),
            // The executor runs its tasks where the handler runs its posts.
            HandoffModel::HandlerExecutor => {
                let (executor, handler) = made_from(kind, args, ret);
                let attr = match handler.and_then(|h| self.handler_target(st, h)) {
                    Some(Target::Main) => Some(Attr::MainHandler),
                    Some(Target::Background) => Some(Attr::WorkerHandler),
                    None => Some(Attr::LooperExecutor),
                };
                if let (Some(executor), Some(attr)) = (executor, attr) {
                    st.attrs.set(executor, Some(attr));
                }
            }
        }
    }

    /// A thread made with code (`new Thread(task)`, a factory's `newThread(task)`). A new thread
    /// runs its code only once started: what the code captures is still unshared until then (a
    /// constructor may make the thread, then go on initialising).
    fn thread_made_with(&mut self, st: &mut State, model: HandoffModel, receiver: Option<&Expr>, params: &[Expr], ret: &Path) {
        let code = handed_code_made_at(st, params);
        // A thread started and joined at once runs its code where it is started; one
        // run at once (`new Thread(r).run()`), where it is run (`ThreadRun`).
        let (table, insns) = (self.env.table, &self.body.insns);
        let in_place = waits::made_thread_joined_at_once(table, insns, self.pc)
            || (self.env.extensions.direct_executors && waits::made_thread_run_at_once(table, insns, self.pc));
        if !in_place {
            let joined = code.and_then(|code| self.thread_runs(st, code));
            self.applying_as(joined, |me| me.hand_all(st, params, Target::Background, false, false));
        }
        let thread = match (model, receiver) {
            (HandoffModel::MadeThread, _) => Some(ret),
            (_, Some(Expr::Path(made))) => Some(made),
            _ => None,
        };
        if let (Some(pc), Some(thread)) = (code, thread) {
            st.attrs.set(thread, Some(Attr::ThreadOf(pc)));
        }
    }

    /// Tasks given to an executor (`execute`, `submit`, `CompletableFuture.runAsync`): they run
    /// on its threads, on the main thread for the main thread's executor, or at once for a
    /// direct one.
    fn hand_to_executor(&mut self, st: &mut State, target: Target, named: &MethodRef, receiver: Option<&Expr>, args: &[Expr], params: &[Expr], ret: &Path) {
        // `CompletableFuture.runAsync(task, executor)` runs on the executor it is given.
        let executor = if takes_executor(named) { args.last() } else { receiver };
        let kind = executor.map_or(ExecutorKind::Pool, |r| self.executor_kind(st, named, r));
        let target = match kind {
            ExecutorKind::Main => Target::Main,
            // As a post to a handler of unknown looper: not followed.
            ExecutorKind::Looper => return,
            // A direct executor runs the task before the call returns, as a call would.
            ExecutorKind::Direct => return self.run_while_waiting(st, params),
            ExecutorKind::Pool | ExecutorKind::Serial => target,
        };
        if waits::handle_waited_at_once(self.env.table, &self.body.insns, self.pc) {
            return self.run_while_waiting(st, params);
        }
        // A task the method may wait for later (see `joins.rs`).
        let joined = self.task_handed(st, named, executor, params, ret);
        self.applying_as(joined, |me| me.hand_all(st, params, target, true, kind == ExecutorKind::Serial));
    }

    /// `thread.start()`: the code of a thread made here, or of a thread object, runs from here on.
    fn thread_started(&mut self, st: &mut State, named: &MethodRef, r: &Expr) {
        if waits::thread_joined_at_once(self.env.table, &self.body.insns, self.pc) {
            if let Some(Attr::ThreadOf(pc)) = attr_e(st, r) {
                if let Some(code) = self.handed_made_at(pc) {
                    self.apply_in_place(st, &code);
                }
            }
            return self.run_while_waiting(st, std::slice::from_ref(r));
        }
        // A thread made here with handed code: that code runs from now on (it was
        // applied where the thread was made, but what it captured was unshared then).
        if let Some(Attr::ThreadOf(pc)) = attr_e(st, r) {
            let code = self.handed_made_at(pc);
            // A thread whose making handed nothing over (it was run at once) runs
            // its code from this start on.
            let thread = match self.thread_made(pc) {
                true => Some(JoinedThread::made_at(pc)),
                false => self.thread_runs(st, pc),
            };
            self.applying_as(thread, |me| me.run_handed(st, code, Target::Background, true));
        }
        let mut joined = None;
        let code = match self.handed_code(st, r) {
            // A thread made here, kept in a field, then started: its fields are shared.
            Some(h) if h.capture == Capture::OuterInstance && names_shared_object(r) => {
                Some(Handed { object: Some(r.clone()), started: true, ..h })
            }
            // A thread that starts itself: one thread runs this object's `run()`.
            Some(h) if r.is_this() => {
                Some(Handed { started: true, ..h })
            }
            // A thread object made here: one this method may join.
            Some(h) => {
                if let Some(Attr::Handed(pc)) = attr_e(st, r) {
                    joined = self.thread_runs(st, pc);
                }
                Some(h)
            }
            None => self.started_field_thread(st, r).or_else(|| self.started_subclass_run(named, r)),
        };
        self.escape_captured(st, std::slice::from_ref(r));
        self.applying_as(joined, |me| me.run_handed(st, code, Target::Background, true));
    }

    /// A `Handler` subclass made on a known looper: the handler runs its messages there.
    fn handler_subclass_made(&mut self, st: &mut State, looper: HandlerLooper, named: &MethodRef, receiver: Option<&Expr>, params: &[Expr]) {
        let attr = match looper {
            HandlerLooper::Main => Some(Attr::MainHandler),
            HandlerLooper::Worker => Some(Attr::WorkerHandler),
            HandlerLooper::Calling => self.on_main_looper(st).then_some(Attr::MainHandler),
            HandlerLooper::Param(at) => params.get(usize::from(at)).and_then(|l| self.handler_on_looper(st, l)),
        };
        if let (Some(attr), Some(Expr::Path(h))) = (attr, receiver) {
            st.attrs.set(h, Some(attr));
            // What a handler made here is given: its outer instance, which its
            // `handleMessage` reaches (see `made_handler_code`).
            if let Some(pc) = self.allocated_at(st, &Expr::Path(h.clone())) {
                let mut captured = params.to_vec();
                if let Some(outer) = self.outer_instance_parameter(named) {
                    captured[..=outer].rotate_right(1);
                }
                self.handed_values.insert(pc, captured);
            }
        }
    }

    /// A block launched on a known dispatcher (alone or joined to jobs and names), or without
    /// one on a scope of a known dispatcher; otherwise (a context joined to one of unknown
    /// content, a scope of unknown origin) not followed, as a post to a handler of unknown
    /// looper.
    fn launch_coroutine(&mut self, st: &mut State, at: u8, block: u8, args: &[Expr]) {
        let context = args.get(usize::from(at));
        let on = |target| Scheduler { target, serial: false };
        let scheduler = match context.and_then(|c| attr_e(st, c)) {
            Some(Attr::BackgroundDispatcher) => on(Target::Background),
            Some(Attr::MainHandler) => on(Target::Main),
            Some(Attr::Scheduler(kept)) => kept,
            // `launch$default` passes null for a context left out; `launch` and `async`
            // take their scope first (`withContext`, its context).
            _ if at == 1 && matches!(context, Some(Expr::Const(ConstVal::Null))) => {
                match args.first().and_then(|scope| self.scope_target(st, scope)) {
                    Some(target) => on(target),
                    None => return,
                }
            }
            _ => match context.and_then(|c| self.kept_dispatcher(c).or_else(|| self.joined_context_target(c).map(on))) {
                Some(scheduler) => scheduler,
                None => return,
            },
        };
        // A dispatcher of one thread (`newSingleThreadContext`) runs its blocks one at a time.
        if let Some(code) = args.get(usize::from(block)) {
            self.hand(st, code, scheduler.target, true, scheduler.serial);
        }
    }

    fn hand_all(&mut self, st: &mut State, values: &[Expr], target: Target, shares: bool, serial: bool) {
        for v in values {
            self.hand(st, v, target, shares, serial);
        }
    }

    /// Escape extension: values another thread can now reach are no longer owned.
    fn escape_captured(&self, st: &mut State, values: &[Expr]) {
        if self.env.extensions.escape_ownership {
            for v in values {
                escape_value(st, v, Own::Unowned);
            }
        }
    }

    /// The code made by the `invokedynamic` or `new` at instruction `pc`, if it is known.
    pub(super) fn handed_made_at(&self, pc: u32) -> Option<Handed> {
        let captured = self.handed_values.get(&pc).cloned().unwrap_or_default();
        match self.body.insns.get(pc as usize)? {
            Insn::InvokeDynamic(call) => {
                let l = call.lambda.as_ref()?;
                if let Some(code) = kotlin_function_adapted(l, &captured).and_then(|made| self.handed_made_at(made)) {
                    return Some(code);
                }
                let body = self.env.table.resolve_method(l).unwrap_or(*l);
                let inline = body.class == self.input.mref.class && is_lambda_body_name(body.name.as_str());
                Some(Handed { bodies: vec![body], captured, capture: Capture::Formals, inline, object: None, started: false, serial: false, held: Vec::new() })
            }
            // A lambda that captures nothing, read from its one instance (see `insns.rs`).
            Insn::New { class } | Insn::GetStatic(FieldRef { class, .. }) => {
                let bodies = self.env.facts.handed_classes.get(class)?.clone();
                let held = self.handed_fields.get(&pc).cloned().unwrap_or_default();
                Some(Handed { bodies, captured, capture: Capture::OuterInstance, inline: false, object: None, started: false, serial: false, held })
            }
            _ => None,
        }
    }

    /// The code a value runs when handed over, if it is known.
    fn handed_code(&self, st: &State, value: &Expr) -> Option<Handed> {
        let class = self.input.mref.class;
        match attr_e(st, value) {
            Some(Attr::Handed(pc)) => self.handed_made_at(pc),
            // `new Thread(this)`, `executor.execute(this)`: this object's own `run()`.
            _ if value.is_this() => {
                let bodies = super::super::handoffs::bodies_of_class(self.env.table, class);
                if bodies.is_empty() {
                    return None;
                }
                Some(Handed { bodies, captured: vec![value.clone()], capture: Capture::Formals, inline: false, object: None, started: false, serial: false, held: Vec::new() })
            }
            _ => self.code_held_by_field(value),
        }
    }

    /// `executor.execute(tick)` on a field of this method's class, read here, that holds code
    /// of one known class or one lambda (see `handoffs::field_held_code`): an object's code
    /// runs on the object the field holds, whose holder is the outer instance of an inner
    /// class; a lambda's captured the holder, if anything.
    fn code_held_by_field(&self, value: &Expr) -> Option<Handed> {
        let ((class, name), captured) = self.own_field_read(value)?;
        let facts = self.env.facts;
        let held = field_held_code(self.env.table, &facts.field_classes, &facts.field_lambdas, class, name)?;
        let (capture, object) = if held.lambda { (Capture::Formals, None) } else { (Capture::OuterInstance, Some(value.clone())) };
        Some(Handed { bodies: held.bodies, captured, capture, inline: false, object, started: false, serial: false, held: Vec::new() })
    }

    /// The field of this method's class, read here, that `value` names, with what code held
    /// there captures: the field's holder, the outer instance of an inner class (nothing for a
    /// static field, whose holder is no object).
    pub(super) fn own_field_read(&self, value: &Expr) -> Option<((Sym, Sym), Vec<Expr>)> {
        let Expr::Path(p) = value else { return None };
        let Some(Step::Field { class, name }) = p.steps.last() else { return None };
        if *class != self.input.mref.class || !names_shared_object(value) || !self.body.reads_field(*class, *name) {
            return None;
        }
        let holder = Path { base: p.base, steps: Steps::from(&p.steps[..p.steps.len() - 1]) };
        let captured = if holder.steps.is_empty() && matches!(holder.base, Base::Static(_)) { Vec::new() } else { vec![Expr::Path(holder)] };
        Some(((*class, *name), captured))
    }

    /// The `handleMessage` a message sent to `handler` runs: that of the handler class the field
    /// of this class it is read from holds (of the field's source file, see `field_classes`),
    /// on the object the field holds, whose holder is the outer instance of an inner class; or
    /// that of the callback the field's handler was made with (see `handler_callbacks`). (The
    /// call graph orders these bodies first.)
    fn message_handler_code(&self, st: &State, handler: &Expr) -> Option<Handed> {
        if let Some(made) = self.made_handler_code(st, handler) {
            return Some(made);
        }
        let ((class, name), captured) = self.own_field_read(handler)?;
        let facts = self.env.facts;
        let subclass = facts.field_classes.get(&(class, name)).filter(|h| top_level_class(h.class.as_str()) == top_level_class(class.as_str()));
        if let Some(body) = subclass.and_then(|held| message_handler(self.env.table, held.class)) {
            let object = Some(handler.clone());
            return Some(Handed { bodies: vec![body], captured, capture: Capture::OuterInstance, inline: false, object, started: false, serial: false, held: Vec::new() });
        }
        let callback = *facts.handler_callbacks.get(&(class, name))?;
        let body = callback_code(self.env.table, callback)?;
        let (capture, captured) = match callback {
            // The holder's own `handleMessage`, and a lambda's capturing it: formal 0 is the holder.
            HandlerCallback::Holder(_) | HandlerCallback::Lambda { captures_holder: true, .. } => (Capture::Formals, captured),
            HandlerCallback::Lambda { captures_holder: false, .. } => (Capture::Formals, Vec::new()),
            // A callback object made for the handler: its outer instance is the holder, its
            // own fields those of an object nothing else reaches.
            HandlerCallback::Object(_) => (Capture::OuterInstance, captured),
        };
        Some(Handed { bodies: vec![body], captured, capture, inline: false, object: None, started: false, serial: false, held: Vec::new() })
    }

    /// `poller.start()` on a `Thread` field of this method's class, read here, whose thread was
    /// made with known code (see `thread_fields`): the code runs on the new thread, the one
    /// thread of the holder's field (a thread starts once). Not for a thread made here (kept
    /// in a local, or stored into that field here), whose code was applied where it was made.
    fn started_field_thread(&self, st: &State, r: &Expr) -> Option<Handed> {
        if matches!(attr_e(st, r), Some(Attr::ThreadOf(_))) {
            return None;
        }
        let ((class, name), captured) = self.own_field_read(r)?;
        if self.body.insns.iter().any(|i| matches!(i, Insn::PutField(f) if f.class == class && f.name == name)) {
            return None;
        }
        let held = field_thread_code(self.env.table, &self.env.facts.field_threads, class, name)?;
        let capture = if held.lambda { Capture::Formals } else { Capture::OuterInstance };
        Some(Handed { bodies: held.bodies, captured, capture, inline: false, object: None, started: true, serial: false, held: Vec::new() })
    }

    /// `worker.start()` on a field or parameter whose class (the one the call names) is a
    /// `Thread` subclass with its own `run()`: that `run()` runs on the new thread, on the
    /// object the receiver names.
    fn started_subclass_run(&self, named: &MethodRef, receiver: &Expr) -> Option<Handed> {
        if !names_shared_object(receiver) {
            return None;
        }
        let body = super::super::handoffs::body_of_class(self.env.table, named.class)?;
        Some(Handed { bodies: vec![body], captured: vec![receiver.clone()], capture: Capture::Formals, inline: false, object: None, started: true, serial: false, held: Vec::new() })
    }

    /// Applies the code `value` runs on `target`; with `shares`, it runs from now on, so the
    /// value and what the code captures (`this`, in a constructor that hands a lambda to an
    /// executor) are shared from here. With `serial`, the target runs one task at a time.
    pub(super) fn hand(&mut self, st: &mut State, value: &Expr, target: Target, shares: bool, serial: bool) {
        if shares && self.recording {
            self.note_param_handoff(st, value, target, serial);
        }
        let handed = self.handed_code(st, value).map(|h| Handed { serial, ..h });
        if shares {
            self.escape_captured(st, std::slice::from_ref(value));
        }
        self.run_handed(st, handed, target, shares);
    }

    /// A formal (not `this`) still holding the caller's object, handed to `target`: the
    /// caller's code given there runs on it (the summary's `param_handoffs`).
    fn note_param_handoff(&mut self, st: &State, value: &Expr, target: Target, serial: bool) {
        if let Some(formal) = callers_formal(st, value) {
            self.param_handoffs.push(ParamHandoff { formal, target, serial });
        }
    }

    /// A call to a method that hands some of its formals to another thread: the code given
    /// there runs on that thread from now on, as if handed here.
    pub(super) fn hand_to_callee(&mut self, st: &mut State, handoffs: &[ParamHandoff], args: &[Expr]) {
        for h in handoffs {
            if let Some(arg) = args.get(h.formal as usize) {
                self.hand(st, arg, h.target, true, h.serial);
            }
        }
    }

    /// Applies handed code on `target` (see [`Self::hand`]).
    fn run_handed(&mut self, st: &mut State, handed: Option<Handed>, target: Target, shares: bool) {
        if let (true, Some(h)) = (shares, &handed) {
            self.escape_captured(st, &h.captured);
        }
        if !self.recording {
            return;
        }
        if let Some(handed) = handed {
            self.apply_code(st, &handed, Place::Thread(target));
        }
    }

    /// Handed code the caller waits for at once (see `waits.rs`): it runs as if called here.
    pub(super) fn run_while_waiting(&mut self, st: &mut State, values: &[Expr]) {
        for v in values {
            if let Some(code) = self.handed_code(st, v) {
                self.apply_in_place(st, &code);
            }
        }
    }

    /// `AccessController.doPrivileged(action)`: an action made here (a lambda, a `new C(...)`)
    /// runs as if called here. This object's own `run()` (`doPrivileged(this)`) is left to be
    /// reported as the method it is: such a class picks what `run()` does by a field its
    /// callers set first (Derby's `actionCode`), which the summary of `run()` does not tell
    /// apart, so every caller would take on every action's accesses.
    fn run_privileged_actions(&mut self, st: &mut State, params: &[Expr]) {
        let made_here: Vec<Expr> = params.iter().filter(|v| !v.is_this()).cloned().collect();
        self.run_while_waiting(st, &made_here);
    }

    fn apply_in_place(&mut self, st: &State, code: &Handed) {
        if self.recording {
            self.apply_code(st, code, Place::Caller);
        }
    }

    /// Lambda-arguments extension: a lambda or method reference given to a call without code
    /// that hands nothing to another thread (`forEach`, `computeIfAbsent`, a comparator,
    /// `r.run()`) runs during that call, on the caller's thread and under its locks. Not into
    /// analysed code (`callee` has a summary): it may run the lambda under a lock of its own.
    pub(super) fn run_lambdas_in_place(&mut self, st: &State, callee: &MethodRef, args: &[Expr]) {
        let lambdas: Vec<u32> = args.iter().filter_map(|a| self.lambda_made_here(st, a)).collect();
        if lambdas.is_empty() || keeps_its_arguments(callee) || !matches!((self.env.callee)(callee), Callee::Unknown) {
            return;
        }
        for pc in lambdas {
            if let Some(code) = self.handed_made_at(pc) {
                self.apply_code(st, &code, Place::Caller);
            }
        }
    }

    /// A call without code on a formal (not `this`) still holding the caller's object
    /// (`r.run()`): a lambda the caller gives there runs during this method's call, under
    /// the locks held here (the summary's `param_runs`).
    pub(super) fn note_param_run(&mut self, st: &State, receiver: &Expr) {
        if let (true, Some(formal)) = (self.recording, callers_formal(st, receiver)) {
            self.param_runs.push(ParamRun { formal, locked: st.locks > 0 });
        }
    }

    /// A call to a method that runs some of its formals' code during the call: a lambda made
    /// here and given there runs now, under the locks the callee held when it ran it; a
    /// formal of this method given there is one this method runs too.
    pub(super) fn run_in_callee(&mut self, st: &State, runs: &[ParamRun], args: &[Expr]) {
        if !self.recording {
            return;
        }
        for run in runs {
            let Some(arg) = args.get(run.formal as usize) else { continue };
            if let Some(formal) = callers_formal(st, arg) {
                self.param_runs.push(ParamRun { formal, locked: run.locked || st.locks > 0 });
                continue;
            }
            let Some(code) = self.lambda_made_here(st, arg).and_then(|pc| self.handed_made_at(pc)) else { continue };
            if run.locked && st.locks == 0 {
                let mut held = st.clone();
                held.locks = 1;
                held.may_locks = held.may_locks.max(1);
                self.apply_code(&held, &code, Place::Caller);
            } else {
                self.apply_code(st, &code, Place::Caller);
            }
        }
    }

    /// The instruction of this method that made `value`, when it is a lambda or method reference:
    /// an `invokedynamic`, or an object of the class kotlinc makes of a lambda (before Kotlin 2,
    /// and of a suspend lambda, such as the block of `runBlocking { }`).
    fn lambda_made_here(&self, st: &State, value: &Expr) -> Option<u32> {
        let Some(Attr::Handed(pc)) = attr_e(st, value) else { return None };
        match self.body.insns.get(pc as usize)? {
            Insn::InvokeDynamic { .. } => Some(pc),
            Insn::New { class } | Insn::GetStatic(FieldRef { class, .. }) if is_kotlin_lambda_class(self.env.table, *class) => Some(pc),
            _ => None,
        }
    }

    /// The accesses of `handed`'s code as made here, where it runs.
    fn apply_code(&mut self, st: &State, handed: &Handed, place: Place) {
        for body in &handed.bodies {
            self.apply_body(st, handed, body, place);
        }
    }

    /// The accesses of one of `handed`'s methods, `body`, as made here (see [`Self::apply_code`]).
    fn apply_body(&mut self, st: &State, handed: &Handed, body: &MethodRef, place: Place) {
        let summary = match (self.env.scheduled_callee)(&self.input.mref, body) {
            Callee::Summary(s) => s,
            Callee::Unknown => return,
        };
        let call_site = CallSite { callee: *body, line: self.line };
        let outer = &handed.captured[..handed.captured.len().min(1)];
        let object = handed.object.as_slice();
        // The outer instance is the first captured value: one list of ownerships serves both.
        let captured_owns: Vec<Own> = handed.captured.iter().map(|a| own_e(st, a)).collect();
        let outer_owns = &captured_owns[..outer.len()];
        let object_owns: Vec<Own> = object.iter().map(|a| own_e(st, a)).collect();
        let held_owns: Vec<Own> = handed.held.iter().map(|(_, p)| own(st, p)).collect();
        // A path of the handed code as seen here, with the ownership of the values its formals
        // stand for (none: a path of the handed object itself, which nothing here reaches).
        let seen_here = |path: &Path| match handed.capture {
            Capture::Formals => Some((substitute(path, &handed.captured), &captured_owns[..])),
            Capture::OuterInstance => match (path.base, path.steps.first()) {
                (Base::This, Some(step)) if step.is_outer_instance() => {
                    let inner = Path { base: Base::This, steps: Steps::from(&path.steps[1..]) };
                    Some((substitute(&inner, outer), outer_owns))
                }
                (Base::Static(_), _) => Some((Some(path.clone()), outer_owns)),
                (Base::This, _) if !object.is_empty() => Some((substitute(path, object), &object_owns[..])),
                (Base::This, Some(step)) if path.steps.len() > 1 => {
                    let i = handed.held.iter().position(|(held, _)| held == step)?;
                    let inner = Path { base: Base::This, steps: Steps::from(&path.steps[1..]) };
                    Some((substitute(&inner, &[Expr::Path(handed.held[i].1.clone())]), &held_owns[i..=i]))
                }
                _ => None,
            },
        };
        let identities = self.env.extensions.lock_identities;
        let running = st.running.any();
        // A callback that is main-thread code only where its registration is not seen (a
        // broadcast receiver's `onReceive`), registered on a worker's looper, runs there: its
        // accesses are the worker's, not the main thread's.
        let main_only_unregistered =
            place == Place::Thread(Target::Background) && registered_callback(self.env.table, body) == Some(Unseen::Main);
        for (n, acc) in summary.accesses.iter().enumerate() {
            prefetch_key_ahead(&summary.accesses, n);
            // Reading the handed object's own (final) outer-instance field is no access of the
            // location that holds the outer instance here.
            if handed.capture == Capture::OuterInstance && is_outer_instance_field(acc.key.kind.path()) {
                continue;
            }
            let Some((new_path, owns)) = seen_here(acc.key.kind.path()) else { continue };
            let Some(new_path) = new_path.filter(|p| p.base.is_reportable()) else { continue };
            let lock_on = acc.key.lock_on.filter(|_| identities).and_then(|l| LockPath::of(seen_here(l.path())?.0?));
            let own_pre = own_given(acc.key.own_pre, owns.len(), |i| owns[i]);
            if own_pre.is_owned() {
                continue;
            }
            let key = match place {
                Place::Thread(target) => {
                    let thread = match target {
                        Target::Main => Threads::AnyThreadButSelf,
                        Target::Background if acc.key.thread == Threads::AnyThreadButSelf && !main_only_unregistered => {
                            Threads::AnyThreadButSelf
                        }
                        Target::Background => Threads::AnyThread,
                    };
                    // Code a constructor hands over once runs once per object: on that
                    // object's own fields, as a started thread's own code does.
                    let once = self.hands_once && !self.in_loop && new_path.is_own_field();
                    let mut key = key_at_call(&acc.key, new_path, own_pre, (thread, acc.key.lock, lock_on), true);
                    key.joined = self.joined_thread(&acc.key);
                    if !acc.key.handed && (handed.serial || handed.started) {
                        key.started = handed.serial || started_own_field(&handed, acc.key.kind.path());
                    }
                    // Not where the access has its one thread already (a serial executor's
                    // task, a started thread object's own field).
                    if once && !acc.key.handed && !key.started {
                        key.started = true;
                        key.once = true;
                    }
                    key
                }
                Place::Caller => {
                    let key = key_at_call(&acc.key, new_path, own_pre, thread_and_lock_at_call(st, &acc.key, lock_on), false);
                    AccessKey { joined: acc.key.joined.map(|_| JoinedThread::MANY), during: !acc.key.handed && running, ..key }
                }
            };
            self.add_callee_access(NewKey::made(key), &acc.key, &acc.site, (!handed.inline).then_some(&call_site));
        }
    }
}

/// Whether `mref` is a constructor that starts a thread or hands code to another thread at one
/// call at most: that code then runs once per object made (unless the call is in a loop). Making
/// a thread does not count, starting it does (a thread starts once).
pub(super) fn constructor_hands_once(env: &Env<'_>, mref: &MethodRef, body: &Body) -> bool {
    if !env.extensions.thread_handoffs || mref.name.as_str() != "<init>" {
        return false;
    }
    let hands_code = |at: usize, method: &MethodRef| {
        matches!(
            HandoffModel::at_call(env.facts.call(method).and_then(|f| f.handoff), env.table, &env.facts.schedulers, &body.insns, at),
            Some(
                HandoffModel::Arguments(_)
                    | HandoffModel::ThreadStart
                    | HandoffModel::ShutdownHook
                    | HandoffModel::HandlerPost
                    | HandoffModel::CoroutineBuilder { .. }
                    | HandoffModel::Scheduled(_)
            )
        )
    };
    body.insns.iter().enumerate().filter(|(at, i)| matches!(i, Insn::Invoke { method, .. } if hands_code(*at, method))).count() <= 1
}

/// Whether `path` is `this.this$0`: an inner-class object's field holding its outer instance.
fn is_outer_instance_field(path: &Path) -> bool {
    path.base == Base::This && matches!(&path.steps[..], [step] if step.is_outer_instance())
}

/// Whether an access of started code is to a field of its one thread's object: the object's own
/// (`this.count`), or, for a task made for a thread kept in a field (a fresh object no path
/// here names, whose outer instance is the field's holder), its outer instance's
/// (`this.this$0.count`): no other thread runs that task.
fn started_own_field(handed: &Handed, path: &Path) -> bool {
    let outer_own = || {
        path.base == Base::This
            && matches!(&path.steps[..], [outer, Step::Field { .. }] if outer.is_outer_instance() && !path.steps[1].is_outer_instance())
    };
    path.is_own_field() || (handed.capture == Capture::OuterInstance && handed.object.is_none() && outer_own())
}

/// The formal (not `this`) that `value` is, while it still holds the caller's object.
fn callers_formal(st: &State, value: &Expr) -> Option<u16> {
    match value {
        Expr::Path(Path { base: Base::Param(i), steps }) if steps.is_empty() && holds_callers_object(st, *i) => Some(*i),
        _ => None,
    }
}

/// Whether a call stores what it is given for later rather than running it: a collection's
/// `add`, `put` or `offer`, a listener's `set...`, `add...` or `register...`. A lambda given to
/// it runs whenever its holder runs it, not during the call.
pub(super) fn keeps_its_arguments(callee: &MethodRef) -> bool {
    const KEEPERS: [&str; 8] = ["add", "put", "offer", "push", "set", "insert", "register", "subscribe"];
    let name = callee.name.as_str();
    KEEPERS.iter().any(|k| name.strip_prefix(k).is_some_and(|rest| rest.is_empty() || rest.starts_with(|c: char| c.is_ascii_uppercase())))
}

/// Whether a call is given the executor to run on as its last argument (the `*Async(...,
/// Executor)` overloads of `CompletableFuture`).
fn takes_executor(named: &MethodRef) -> bool {
    named.descriptor.as_str().ends_with("Ljava/util/concurrent/Executor;)Ljava/util/concurrent/CompletableFuture;")
}

/// Whether a value names an object others may reach: a path from a field, a static or a
/// parameter (`this` itself is the class's own object: see `handed_code`).
fn names_shared_object(value: &Expr) -> bool {
    !value.is_this() && matches!(value, Expr::Path(p) if p.base.is_reportable())
}

/// The object a call makes and the argument it makes it from: a constructor's receiver and first
/// argument (`new Handler(looper)`), or a static factory's result and first argument
/// (`Handler.createAsync(looper)`, `ExecutorCompat.create(handler)`).
fn made_from<'x>(kind: InvokeKind, args: &'x [Expr], ret: &'x Path) -> (Option<&'x Path>, Option<&'x Expr>) {
    match kind {
        InvokeKind::Static => (Some(ret), args.first()),
        _ => (args.first().and_then(|e| if let Expr::Path(p) = e { Some(p) } else { None }), args.get(1)),
    }
}

/// The `new` of the Kotlin lambda object that a lambda made with `captured` only adapts:
/// kotlinc 1.9 compiles a lambda given for a generic Java interface (`liveData.observe(owner) {
/// ... }`, an `Observer<in T>`) to a `FunctionN` object and an `invokedynamic` whose body,
/// `onCreate$lambda$1(Function1, Object)`, only calls that object's `invoke`. The handed code
/// is then the object's.
fn kotlin_function_adapted(lambda: &MethodRef, captured: &[Expr]) -> Option<u32> {
    let [Expr::Path(Path { base: Base::Temp(made), steps })] = captured else { return None };
    let adapts = steps.is_empty()
        && is_lambda_body_name(lambda.name.as_str())
        && lambda.descriptor.as_str().starts_with("(Lkotlin/jvm/functions/Function");
    adapts.then_some(*made)
}

/// Where the task whose future a value is was handed to another thread.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum TaskOrigin {
    /// Here: the task is the code made at this instruction
    /// (`CompletableFuture.supplyAsync(task)`, see `joins.rs`).
    MadeAt(u32),
    /// In a callee that returned its future without waiting for it ([`Attr::TaskFuture`]).
    Callee,
}

/// Where the task this value is the future of was handed to another thread, if it is one.
pub(super) fn task_future(st: &State, future: Option<&Expr>) -> Option<TaskOrigin> {
    match future.and_then(|f| attr_e(st, f)) {
        Some(Attr::ThreadOf(code)) => Some(TaskOrigin::MadeAt(code)),
        Some(Attr::TaskFuture) => Some(TaskOrigin::Callee),
        _ => None,
    }
}

/// What a method's summary says of the value it returns that is the future of a task it
/// handed to another thread (its own, or a callee's, or a continuation of one): a task
/// future, for a method declared to return a `CompletableFuture` or a `CompletionStage`.
/// None when the value is not such a future: the attribute names an instruction of the
/// method (`Attr::is_local`).
pub(super) fn returned_task_future(returned: Attr, descriptor: &str) -> Option<Attr> {
    let future = descriptor.ends_with(")Ljava/util/concurrent/CompletableFuture;")
        || descriptor.ends_with(")Ljava/util/concurrent/CompletionStage;");
    (matches!(returned, Attr::ThreadOf(_) | Attr::TaskFuture) && future).then_some(Attr::TaskFuture)
}
