//! Where handed code runs (thread handoffs, `analysis/handoffs.rs` for the models): the thread
//! of a handler or looper, of an executor, of a registration's callbacks and of a coroutine's
//! scope or context, from what the method made, got or keeps in fields.

use crate::classfile::descriptor::param_types;
use crate::classfile::model::*;

use super::super::content_observers::OnChange;
use super::super::domain::*;
use super::super::handoffs::{context_dispatcher, execute_method, is_direct_executor, makes_direct_executor, makes_handler_post_reference, ExecutorKind, Target};
use super::super::registrations::WithoutHandler;
use super::state::*;
use super::Interp;

impl<'a, 'e> Interp<'a, 'e> {
    /// The handler made on `looper`: one on the main looper, or on a background thread's.
    pub(super) fn handler_on_looper(&self, st: &State, looper: &Expr) -> Option<Attr> {
        match attr_e(st, looper) {
            Some(Attr::MainThreadHandle | Attr::MainHandler) => Some(Attr::MainHandler),
            Some(Attr::CurrentThreadHandle) if self.on_main_looper(st) => Some(Attr::MainHandler),
            Some(Attr::WorkerHandler) => Some(Attr::WorkerHandler),
            _ => None,
        }
    }

    /// The thread a handler runs what it is posted: from the looper it was made with here,
    /// or from what the handler field it is read from is always given.
    pub(super) fn handler_target(&self, st: &State, handler: &Expr) -> Option<Target> {
        match attr_e(st, handler) {
            // A looper given in place of a handler (an executor made on it) says the same.
            Some(Attr::MainHandler | Attr::MainThreadHandle) => return Some(Target::Main),
            Some(Attr::CurrentThreadHandle) if self.on_main_looper(st) => return Some(Target::Main),
            Some(Attr::WorkerHandler) => return Some(Target::Background),
            _ => {}
        }
        match handler.location()?.steps.last() {
            Some(Step::Field { class, name }) => self.env.facts.handlers.fields.get(&(*class, *name)).copied(),
            _ => None,
        }
    }

    /// Where the registration `named` runs the callbacks of the object it is given: where the
    /// handler or looper given runs its messages, one at a time, or on the executor given (not
    /// followed, for either, when where it runs is unknown, as a post to a handler of unknown
    /// looper is not); given none (or null), where the framework says.
    pub(super) fn registration_scheduler(&self, st: &State, named: &MethodRef, params: &[Expr], without_handler: WithoutHandler) -> Option<Scheduler> {
        let types = param_types(named.descriptor.as_str());
        let given = |ty: &str| {
            let at = types.iter().position(|&t| t == ty)?;
            params.get(at).filter(|v| !matches!(v, Expr::Const(ConstVal::Null)))
        };
        let on_looper = |target| Scheduler { target, serial: target == Target::Background };
        if let Some(handler) = given("Landroid/os/Handler;") {
            return self.handler_target(st, handler).map(on_looper);
        }
        if let Some(looper) = given("Landroid/os/Looper;") {
            return match attr_e(st, looper) {
                Some(Attr::MainThreadHandle | Attr::MainHandler) => Some(on_looper(Target::Main)),
                Some(Attr::CurrentThreadHandle) if self.on_main_looper(st) => Some(on_looper(Target::Main)),
                Some(Attr::WorkerHandler) => Some(on_looper(Target::Background)),
                _ => None,
            };
        }
        if let Some(executor) = given("Ljava/util/concurrent/Executor;") {
            let on = |target, serial| Some(Scheduler { target, serial });
            return match self.executor_kind(st, named, executor) {
                ExecutorKind::Main => on(Target::Main, false),
                ExecutorKind::Serial => on(Target::Background, true),
                // The callbacks then run on the thread that delivers them, not the registering one.
                ExecutorKind::Pool | ExecutorKind::Direct => on(Target::Background, false),
                ExecutorKind::Looper => None,
            };
        }
        match without_handler {
            WithoutHandler::Background => Some(on_looper(Target::Background)),
            WithoutHandler::CompletingThread => Some(Scheduler { target: Target::Background, serial: false }),
            WithoutHandler::Main => Some(on_looper(Target::Main)),
            WithoutHandler::CallingLooper => self.on_main_looper(st).then(|| on_looper(Target::Main)),
            // An observer made with a handler on the main looper runs `onChange` there from here;
            // one made to run it off the main thread runs it there by itself (its races are its
            // class's, `content_observers`), and one of unknown handler is not followed.
            WithoutHandler::Observer => (self.registered_observer(st, named, params) == Some(OnChange::Main)).then(|| on_looper(Target::Main)),
        }
    }

    /// Where the content observer a registration is given runs `onChange`, when that is known:
    /// the observer is made here, kept in a field of this class holding objects of one class, or
    /// this object itself.
    pub(super) fn registered_observer(&self, st: &State, named: &MethodRef, params: &[Expr]) -> Option<OnChange> {
        let at = param_types(named.descriptor.as_str()).iter().position(|&t| t == "Landroid/database/ContentObserver;")?;
        let observer = params.get(at)?;
        let class = match self.allocated_at(st, observer).map(|pc| self.body.insns.get(pc as usize)) {
            Some(Some(Insn::New { class })) => *class,
            _ if observer.is_this() => self.input.mref.class,
            _ => {
                let ((holder, name), _) = self.own_field_read(observer)?;
                self.env.facts.field_classes.get(&(holder, name))?.class
            }
        };
        self.env.facts.content_observers.get(&class).copied()
    }

    /// Whether the current thread's looper is the main one here: the method runs on the main
    /// thread (from its start, or past a check), or is the constructor of a component the
    /// framework makes there.
    pub(super) fn on_main_looper(&self, st: &State) -> bool {
        st.threads == Threads::AnyThreadButSelf
            || (self.env.extensions.android_threads && crate::analysis::android::is_component_constructor(self.env.table, &self.input.mref))
    }

    /// The thread of a coroutine context joined here with `+` (`Dispatchers.IO + job`): a call
    /// result, computed by the instructions up to the call that made it.
    pub(super) fn joined_context_target(&self, context: &Expr) -> Option<Target> {
        match context {
            Expr::Path(Path { base: Base::Temp(pc), steps }) if steps.is_empty() => {
                let made = self.body.insns.get(..=*pc as usize)?;
                context_dispatcher(self.env.table, &self.env.facts.schedulers, made)
            }
            _ => None,
        }
    }

    /// The dispatcher read from a field that keeps one (`kept_schedulers.rs`).
    pub(super) fn kept_dispatcher(&self, context: &Expr) -> Option<Scheduler> {
        let Some(Step::Field { class, name }) = context.location()?.steps.last() else { return None };
        self.env.facts.schedulers.field(self.env.table.resolve_field(*class, *name), *name)
    }

    /// The thread of the dispatcher of a coroutine scope: one made here on the main dispatcher,
    /// `GlobalScope`, or one read from a field only ever given a scope made on a known dispatcher.
    pub(super) fn scope_target(&self, st: &State, scope: &Expr) -> Option<Target> {
        // A scope made on the main dispatcher (`viewModelScope`, `lifecycleScope`).
        if let Some(Attr::MainHandler) = attr_e(st, scope) {
            return Some(Target::Main);
        }
        let p = scope.location()?;
        // `GlobalScope` has no dispatcher: its coroutines run on `Dispatchers.Default`'s pool.
        if let (Base::Static(class), [Step::Field { name, .. }]) = (p.base, &p.steps[..]) {
            if class.as_str() == "kotlinx.coroutines.GlobalScope" && name.as_str() == "INSTANCE" {
                return Some(Target::Background);
            }
        }
        let Some(Step::Field { class, name }) = p.steps.last() else { return None };
        self.env.facts.scope_fields.get(&(self.env.table.resolve_field(*class, *name), *name)).copied()
    }

    /// What `receiver` of the executor call `named` runs its tasks on: one task at a time for a
    /// `java.util.Timer`, a field only ever given a single-thread executor, or an executor
    /// posting to a `HandlerThread`'s handler; the main thread for the main thread's executor,
    /// or one posting to a main-looper handler, got here or kept in a field only ever given it.
    pub(super) fn executor_kind(&self, st: &State, named: &MethodRef, receiver: &Expr) -> ExecutorKind {
        match self.executor_kind_of(st, named, receiver) {
            ExecutorKind::Direct if !self.env.extensions.direct_executors => ExecutorKind::Pool,
            kind => kind,
        }
    }

    pub(super) fn executor_kind_of(&self, st: &State, named: &MethodRef, receiver: &Expr) -> ExecutorKind {
        let table = self.env.table;
        if table.is_subtype_of_any(named.class, &["java.util.Timer"]) {
            return ExecutorKind::Serial;
        }
        if self.runs_tasks_at_once(st, named, receiver) {
            return ExecutorKind::Direct;
        }
        match attr_e(st, receiver) {
            Some(Attr::MainHandler) => return ExecutorKind::Main,
            Some(Attr::WorkerHandler) => return ExecutorKind::Serial,
            Some(Attr::LooperExecutor) => return ExecutorKind::Looper,
            // `handler::post` made here: where that handler runs its posts.
            Some(Attr::Handed(pc))
                if self.body.insns.get(pc as usize).is_some_and(|i| makes_handler_post_reference(self.env.table, i)) =>
            {
                let handler = self.handed_values.get(&pc).and_then(|captured| captured.first());
                return ExecutorKind::posting_to(handler.and_then(|h| self.handler_target(st, h)));
            }
            _ => {}
        }
        match receiver.location().and_then(|p| p.steps.last()) {
            Some(Step::Field { class, name }) => {
                let field = (self.env.table.resolve_field(*class, *name), *name);
                self.env.facts.executor_fields.get(&field).copied().unwrap_or(ExecutorKind::Pool)
            }
            _ => ExecutorKind::Pool,
        }
    }

    /// Whether the executor `receiver` of the call `named` runs its tasks at once, in this
    /// thread: named through a direct executor class (`DirectExecutor.INSTANCE.execute(task)`),
    /// made here as one (`Runnable::run`, `new DirectExecutor()`), or got from
    /// `directExecutor()` (here or through a method returning it).
    pub(super) fn runs_tasks_at_once(&self, st: &State, named: &MethodRef, receiver: &Expr) -> bool {
        let table = self.env.table;
        if (named.name, named.descriptor) == execute_method() && is_direct_executor(table, named.class) {
            return true;
        }
        match attr_e(st, receiver) {
            Some(Attr::DirectExecutor) => true,
            Some(Attr::Handed(pc)) => self.body.insns.get(pc as usize).is_some_and(|i| makes_direct_executor(table, i)),
            _ => self
                .allocated_at(st, receiver)
                .is_some_and(|pc| matches!(&self.body.insns[pc as usize], Insn::New { class } if is_direct_executor(table, *class))),
        }
    }
}
