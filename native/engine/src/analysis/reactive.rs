//! Reactive chains (RxJava 1, 2 and 3; Project Reactor), a thread-handoff model
//! (`handoffs.rs`): the functions given to the operators of a chain run on the thread its
//! schedulers choose.
//!
//! In `source.map(f).observeOn(s).subscribe(g)`, a function runs where the nearest operator
//! upstream of its own that moves the items to a scheduler moves them (`observeOn`, Reactor's
//! `publishOn`; a timed operator such as `delay` or `interval`, which emits on its library's
//! time scheduler unless given one); with none, where the chain is subscribed: on the scheduler
//! of the chain's first `subscribeOn`, wherever that call stands. The model reads the chain as
//! one expression of the bytecode: the straight run of instructions around the operator's call
//! that ends no statement. A chain kept in a local or a field and continued elsewhere, a
//! scheduler of unknown origin (`Schedulers.trampoline()`, one injected through a field) and a
//! chain without schedulers are not followed: their functions are treated as any library
//! call's are.

use crate::classfile::model::*;
use crate::hierarchy::ClassTable;
use crate::sym::Sym;

use super::domain::Target;

/// Where a chain runs the functions given to one of its operators: on which thread, and whether
/// one task at a time (a single-thread scheduler: its functions do not race with each other).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scheduler {
    pub target: Target,
    pub serial: bool,
}

/// One reactive library: its types, the operators that move items to a scheduler, and the
/// schedulers it makes.
struct Library {
    /// The reactive types, whose operators take the chain's functions.
    types: &'static [&'static str],
    /// The operator moving what follows it to the scheduler it is given.
    observe_on: &'static str,
    /// Operators that emit on the library's time scheduler (`time_scheduler`) unless given a
    /// scheduler.
    timed: &'static [&'static str],
    /// The class of the scheduler factories, those making background schedulers, and those of
    /// them whose one thread runs one task at a time.
    schedulers: &'static str,
    background: &'static [&'static str],
    serial: &'static [&'static str],
    /// The factory of the scheduler timed operators use by default.
    time_scheduler: &'static str,
    /// Android's main-thread scheduler (RxAndroid's `AndroidSchedulers.mainThread()`).
    main_thread: Option<&'static str>,
}

const RX_BACKGROUND: &[&str] = &["io", "computation", "newThread", "single", "from"];
const RX_TIMED: &[&str] = &["interval", "intervalRange", "timer", "delay"];

const LIBRARIES: &[Library] = &[
    Library {
        types: &[
            "io.reactivex.rxjava3.core.Observable",
            "io.reactivex.rxjava3.core.Flowable",
            "io.reactivex.rxjava3.core.Single",
            "io.reactivex.rxjava3.core.Maybe",
            "io.reactivex.rxjava3.core.Completable",
        ],
        observe_on: "observeOn",
        timed: RX_TIMED,
        schedulers: "io.reactivex.rxjava3.schedulers.Schedulers",
        background: RX_BACKGROUND,
        serial: &["single"],
        time_scheduler: "computation",
        main_thread: Some("io.reactivex.rxjava3.android.schedulers.AndroidSchedulers"),
    },
    Library {
        types: &["io.reactivex.Observable", "io.reactivex.Flowable", "io.reactivex.Single", "io.reactivex.Maybe", "io.reactivex.Completable"],
        observe_on: "observeOn",
        timed: RX_TIMED,
        schedulers: "io.reactivex.schedulers.Schedulers",
        background: RX_BACKGROUND,
        serial: &["single"],
        time_scheduler: "computation",
        main_thread: Some("io.reactivex.android.schedulers.AndroidSchedulers"),
    },
    Library {
        types: &["rx.Observable", "rx.Single", "rx.Completable"],
        observe_on: "observeOn",
        timed: RX_TIMED,
        schedulers: "rx.schedulers.Schedulers",
        background: RX_BACKGROUND,
        serial: &["single"],
        time_scheduler: "computation",
        main_thread: Some("rx.android.schedulers.AndroidSchedulers"),
    },
    Library {
        types: &["reactor.core.publisher.Flux", "reactor.core.publisher.Mono"],
        observe_on: "publishOn",
        timed: &["interval", "delay", "delayElements", "delayElement"],
        schedulers: "reactor.core.scheduler.Schedulers",
        background: &[
            "boundedElastic",
            "parallel",
            "single",
            "elastic",
            "newBoundedElastic",
            "newParallel",
            "newSingle",
            "newElastic",
            "fromExecutor",
            "fromExecutorService",
        ],
        serial: &["single", "newSingle"],
        time_scheduler: "parallel",
        main_thread: None,
    },
];

/// The library of a reactive type (or, when the hierarchy knows it, of a subtype of one: a
/// subject, a connectable observable, a sink's flux).
fn library_of(table: &ClassTable, class: Sym) -> Option<&'static Library> {
    let name = class.as_str();
    // Asked of every callee: most are of no reactive library's package.
    if !(name.starts_with("io.reactivex.") || name.starts_with("rx.") || name.starts_with("reactor.")) {
        return None;
    }
    LIBRARIES
        .iter()
        .find(|l| l.types.contains(&name))
        .or_else(|| LIBRARIES.iter().find(|l| table.is_subtype_of_any(class, l.types)))
}

/// The functional interfaces of the reactive libraries, with the method a function of each
/// runs (erased). The JDK's (`Callable`, Reactor's `java.util.function`) are not among them.
const FUNCTIONS: &[(&str, &str, &str)] = &[
    ("io.reactivex.rxjava3.functions.Consumer", "accept", "(Ljava/lang/Object;)V"),
    ("io.reactivex.rxjava3.functions.BiConsumer", "accept", "(Ljava/lang/Object;Ljava/lang/Object;)V"),
    ("io.reactivex.rxjava3.functions.Function", "apply", "(Ljava/lang/Object;)Ljava/lang/Object;"),
    ("io.reactivex.rxjava3.functions.BiFunction", "apply", "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;"),
    ("io.reactivex.rxjava3.functions.Predicate", "test", "(Ljava/lang/Object;)Z"),
    ("io.reactivex.rxjava3.functions.Action", "run", "()V"),
    ("io.reactivex.rxjava3.functions.Supplier", "get", "()Ljava/lang/Object;"),
    ("io.reactivex.functions.Consumer", "accept", "(Ljava/lang/Object;)V"),
    ("io.reactivex.functions.BiConsumer", "accept", "(Ljava/lang/Object;Ljava/lang/Object;)V"),
    ("io.reactivex.functions.Function", "apply", "(Ljava/lang/Object;)Ljava/lang/Object;"),
    ("io.reactivex.functions.BiFunction", "apply", "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;"),
    ("io.reactivex.functions.Predicate", "test", "(Ljava/lang/Object;)Z"),
    ("io.reactivex.functions.Action", "run", "()V"),
    ("rx.functions.Action0", "call", "()V"),
    ("rx.functions.Action1", "call", "(Ljava/lang/Object;)V"),
    ("rx.functions.Func0", "call", "()Ljava/lang/Object;"),
    ("rx.functions.Func1", "call", "(Ljava/lang/Object;)Ljava/lang/Object;"),
];

/// The code an object of `class` runs as a reactive library's function, when the class
/// implements one of its functional interfaces itself (an anonymous class, a class kotlinc makes
/// of a lambda): the interface's method (javac's bridge to the typed one, where there is one).
pub fn function_body(table: &ClassTable, class: Sym) -> Option<MethodRef> {
    let header = table.get(class)?;
    let function = |i: &Sym| {
        let name = i.as_str();
        (name.starts_with("io.reactivex.") || name.starts_with("rx.functions.")).then(|| FUNCTIONS.iter().find(|f| f.0 == name)).flatten()
    };
    let &(_, name, descriptor) = header.interfaces.iter().find_map(function)?;
    table.resolve_method(&MethodRef { class, name: Sym::new(name), descriptor: Sym::new(descriptor) })
}

/// Whether `class` is a reactive type whose operators take a chain's functions.
pub fn is_reactive_type(table: &ClassTable, class: Sym) -> bool {
    library_of(table, class).is_some()
}

/// Where the functions given to the reactive operator called at instruction `at` run, when the
/// chain it belongs to says (see the module's comment).
pub fn chain_target(table: &ClassTable, insns: &[Insn], at: usize) -> Option<Scheduler> {
    let operator = |i: usize| match &insns[i] {
        Insn::Invoke { method, .. } => library_of(table, method.class).map(|lib| (lib, *method)),
        _ => None,
    };
    let (lib, own) = operator(at)?;
    // The operators that choose threads take no function of the chain.
    if matches!(own.name.as_str(), "subscribeOn" | "unsubscribeOn") || own.name.as_str() == lib.observe_on {
        return None;
    }
    let start = insns[..at].iter().rposition(ends_expression).map_or(0, |i| i + 1);
    let end = insns[at..].iter().position(ends_expression).map_or(insns.len(), |i| at + i);
    // The nearest operator upstream that moves the items (a timed source counts: it is the
    // call itself when the function is given to it, `interval(...)` taking none).
    for i in (start..at).rev() {
        let Some((lib, m)) = operator(i) else { continue };
        if m.name.as_str() == lib.observe_on {
            return scheduler_target(lib, &insns[start..i]);
        }
        if is_timed(lib, m) {
            return if takes_scheduler(m) { scheduler_target(lib, &insns[start..i]) } else { lib_background(lib, lib.time_scheduler) };
        }
    }
    let subscribed = (start..end).find(|&i| operator(i).is_some_and(|(_, m)| m.name.as_str() == "subscribeOn"))?;
    scheduler_target(lib, &insns[start..subscribed])
}

/// Whether an operator emits on a time scheduler: one of the library's timed operators, given
/// a time (`delay(1, SECONDS)`, `delayElements(Duration)`; not `delay(itemDelaySelector)`).
fn is_timed(lib: &Library, m: &MethodRef) -> bool {
    let params = parameters(m);
    lib.timed.contains(&m.name.as_str()) && (params.contains("Ljava/util/concurrent/TimeUnit;") || params.contains("Ljava/time/Duration;"))
}

/// Whether an operator is given a scheduler (its descriptor names one).
fn takes_scheduler(m: &MethodRef) -> bool {
    parameters(m).contains("/Scheduler;")
}

/// The parameter part of a method's descriptor.
fn parameters(m: &MethodRef) -> &str {
    let descriptor = m.descriptor.as_str();
    &descriptor[..descriptor.find(')').unwrap_or(0)]
}

fn lib_background(lib: &Library, factory: &str) -> Option<Scheduler> {
    lib.background.contains(&factory).then(|| Scheduler { target: Target::Background, serial: lib.serial.contains(&factory) })
}

/// Whether an instruction ends the expression a chain is written in: a statement's end, or a
/// branch (a conditional in the chain is not followed).
fn ends_expression(insn: &Insn) -> bool {
    matches!(
        insn,
        Insn::Store { .. }
            | Insn::Pop
            | Insn::Pop2
            | Insn::PutField(_)
            | Insn::PutStatic(_)
            | Insn::ArrayStore { .. }
            | Insn::Return { .. }
            | Insn::Athrow
            | Insn::If { .. }
            | Insn::Goto { .. }
            | Insn::Switch { .. }
            | Insn::Jsr { .. }
            | Insn::Ret
            | Insn::MonitorEnter
            | Insn::MonitorExit
    )
}

/// The scheduler computed last by `before` (the instructions up to the call given it; constants
/// of its later arguments come after the scheduler): the library's background schedulers,
/// Android's main thread.
fn scheduler_target(lib: &Library, before: &[Insn]) -> Option<Scheduler> {
    let made_by = before.iter().rev().find(|i| !matches!(i, Insn::Const { .. }))?;
    let Insn::Invoke { method, kind: InvokeKind::Static } = made_by else { return None };
    let (class, name) = (method.class.as_str(), method.name.as_str());
    if class == lib.schedulers {
        return lib_background(lib, name);
    }
    (lib.main_thread == Some(class) && name == "mainThread").then_some(Scheduler { target: Target::Main, serial: false })
}
