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
//! that ends no statement. A scheduler is known where that expression makes it
//! (`Schedulers.io()`), or where it reads it from a field every store of which makes one known
//! scheduler (`private final Scheduler io = Schedulers.io()`), or calls a method that returns
//! one ([`KeptSchedulers`], `kept_schedulers.rs`). A chain kept in a local that one store alone gives a value is
//! followed into the statement that made it and the one that continues it (read once, at the
//! start of its expression). A chain kept in a field and continued elsewhere, a
//! scheduler of unknown origin (`Schedulers.trampoline()`, one injected through a constructor or
//! given by an interface) and a chain without schedulers are not followed: their functions are
//! treated as any library call's are.

use crate::classfile::model::*;
use crate::hierarchy::ClassTable;
use crate::sym::Sym;

pub use super::domain::Scheduler;
use super::domain::Target;
use super::kept_schedulers::KeptSchedulers;

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
pub fn chain_target(table: &ClassTable, kept: &KeptSchedulers, insns: &[Insn], at: usize) -> Option<Scheduler> {
    let operator = |i: usize| match &insns[i] {
        Insn::Invoke { method, .. } => library_of(table, method.class).map(|lib| (lib, *method)),
        _ => None,
    };
    let (lib, own) = operator(at)?;
    // The operators that choose threads take no function of the chain.
    if matches!(own.name.as_str(), "subscribeOn" | "unsubscribeOn") || own.name.as_str() == lib.observe_on {
        return None;
    }
    let (start, end) = (expression_start(insns, at), expression_end(insns, at));
    // The expressions that made the locals this one continues, nearest first.
    let mut upstream = vec![(start, at)];
    while let Some(made) = upstream.last().and_then(|&(from, _)| stored_expression(insns, from)) {
        upstream.push(made);
    }
    // The nearest operator upstream that moves the items (a timed source counts: it is the
    // call itself when the function is given to it, `interval(...)` taking none).
    for &(from, to) in &upstream {
        for i in (from..to).rev() {
            let Some((lib, m)) = operator(i) else { continue };
            if m.name.as_str() == lib.observe_on {
                return scheduler_target(table, kept, &insns[from..i]);
            }
            if is_timed(lib, m) {
                return if takes_scheduler(m) { scheduler_target(table, kept, &insns[from..i]) } else { lib_background(lib, lib.time_scheduler) };
            }
        }
    }
    // The chain in order: the expressions upstream, this one, and those continuing it.
    let mut chain: Vec<(usize, usize)> = upstream[1..].iter().rev().copied().collect();
    chain.push((start, end));
    while let Some(next) = chain.last().and_then(|&(_, to)| continued_expression(insns, to)) {
        chain.push(next);
    }
    let (from, subscribed) =
        chain.iter().find_map(|&(from, to)| (from..to).find(|&i| operator(i).is_some_and(|(_, m)| m.name.as_str() == "subscribeOn")).map(|i| (from, i)))?;
    scheduler_target(table, kept, &insns[from..subscribed])
}

/// The first instruction of the expression instruction `at` belongs to.
fn expression_start(insns: &[Insn], at: usize) -> usize {
    insns[..at].iter().rposition(ends_expression).map_or(0, |i| i + 1)
}

/// The instruction ending the expression instruction `at` belongs to (or the body's end).
fn expression_end(insns: &[Insn], at: usize) -> usize {
    insns[at..].iter().position(ends_expression).map_or(insns.len(), |i| at + i)
}

/// When the expression starting at `start` starts from a local that one store alone gives a
/// value, before it (`Single<T> source = ...; source.subscribeOn(...)`): the expression that
/// made that value, up to the store.
fn stored_expression(insns: &[Insn], start: usize) -> Option<(usize, usize)> {
    let Insn::Load { slot, wide: false } = insns.get(start)? else { return None };
    let store = only_store(insns, *slot).filter(|&store| store < start)?;
    Some((expression_start(insns, store), store))
}

/// When the expression ending at `end` stores the chain into a local that one store alone
/// gives a value, read once, after it, by an expression that starts from it: that expression.
fn continued_expression(insns: &[Insn], end: usize) -> Option<(usize, usize)> {
    let Insn::Store { slot, wide: false } = insns.get(end)? else { return None };
    only_store(insns, *slot)?;
    let mut loads = insns.iter().enumerate().filter(|(_, i)| matches!(i, Insn::Load { slot: s, .. } if s == slot)).map(|(at, _)| at);
    let load = loads.next().filter(|&load| load > end && ends_expression(&insns[load - 1]))?;
    loads.next().is_none().then(|| (load, expression_end(insns, load)))
}

/// The one store into local `slot`, when there is one only.
fn only_store(insns: &[Insn], slot: u16) -> Option<usize> {
    let mut stores = insns.iter().enumerate().filter(|(_, i)| matches!(i, Insn::Store { slot: s, .. } if *s == slot)).map(|(at, _)| at);
    let store = stores.next()?;
    stores.next().is_none().then_some(store)
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
/// of its later arguments come after the scheduler): made there, read from a field or returned
/// by a method that keeps one.
fn scheduler_target(table: &ClassTable, kept: &KeptSchedulers, before: &[Insn]) -> Option<Scheduler> {
    let made_by = before.iter().rev().find(|i| !matches!(i, Insn::Const { .. }))?;
    made_by_factory(made_by).or_else(|| kept.read_by(table, made_by))
}

/// Whether `m` is a method of a reactive library's scheduler factories.
pub fn is_scheduler_factory(m: &MethodRef) -> bool {
    let class = m.class.as_str();
    LIBRARIES.iter().any(|lib| class == lib.schedulers || lib.main_thread == Some(class))
}

/// The scheduler a call to a library's scheduler factory makes: its background schedulers,
/// Android's main thread.
pub(super) fn made_by_factory(insn: &Insn) -> Option<Scheduler> {
    let Insn::Invoke { method, kind: InvokeKind::Static } = insn else { return None };
    let (class, name) = (method.class.as_str(), method.name.as_str());
    LIBRARIES.iter().find_map(|lib| {
        if class == lib.schedulers {
            return lib_background(lib, name);
        }
        (lib.main_thread == Some(class) && name == "mainThread").then_some(Scheduler { target: Target::Main, serial: false })
    })
}
