//! RxJava (1, 2 and 3) reactive chains, a thread-handoff model (`handoffs.rs`): the functions
//! given to the operators of a chain run on the thread its schedulers choose.
//!
//! In `source.map(f).observeOn(s).subscribe(g)`, a function runs where the nearest
//! `observeOn` upstream of its operator moves the items; with none, where the chain is
//! subscribed: on the scheduler of the chain's first `subscribeOn`, wherever that call stands in
//! the chain. The model reads the chain as one expression of the bytecode: the straight run of
//! instructions around the operator's call that ends no statement. A chain kept in a local or a
//! field and continued elsewhere, a scheduler of unknown origin (`Schedulers.trampoline()`, one
//! injected through a field) and a chain without schedulers are not followed: their functions
//! are treated as any library call's are.

use crate::classfile::model::*;
use crate::hierarchy::ClassTable;
use crate::sym::Sym;

use super::domain::Target;

/// The reactive types of RxJava 3, 2 and 1: their operators take the chain's functions.
const REACTIVE_TYPES: &[&str] = &[
    "io.reactivex.rxjava3.core.Observable",
    "io.reactivex.rxjava3.core.Flowable",
    "io.reactivex.rxjava3.core.Single",
    "io.reactivex.rxjava3.core.Maybe",
    "io.reactivex.rxjava3.core.Completable",
    "io.reactivex.Observable",
    "io.reactivex.Flowable",
    "io.reactivex.Single",
    "io.reactivex.Maybe",
    "io.reactivex.Completable",
    "rx.Observable",
    "rx.Single",
    "rx.Completable",
];

const SCHEDULERS: &[&str] = &["io.reactivex.rxjava3.schedulers.Schedulers", "io.reactivex.schedulers.Schedulers", "rx.schedulers.Schedulers"];

const ANDROID_SCHEDULERS: &[&str] = &[
    "io.reactivex.rxjava3.android.schedulers.AndroidSchedulers",
    "io.reactivex.android.schedulers.AndroidSchedulers",
    "rx.android.schedulers.AndroidSchedulers",
];

/// Whether `class` is a reactive type (or, when the hierarchy knows it, a subtype of one: a
/// subject, a connectable observable).
pub fn is_reactive_type(table: &ClassTable, class: Sym) -> bool {
    let name = class.as_str();
    REACTIVE_TYPES.contains(&name)
        || ((name.starts_with("io.reactivex.") || name.starts_with("rx.")) && table.is_subtype_of_any(class, REACTIVE_TYPES))
}

/// The operators that choose threads, which take no function of the chain.
fn chooses_scheduler(name: &str) -> bool {
    matches!(name, "subscribeOn" | "observeOn" | "unsubscribeOn")
}

/// The thread the functions given to the reactive operator called at instruction `at` run on,
/// when the chain it belongs to says (see the module's comment).
pub fn chain_target(table: &ClassTable, insns: &[Insn], at: usize) -> Option<Target> {
    let operator = |i: usize| match &insns[i] {
        Insn::Invoke { method, .. } if is_reactive_type(table, method.class) => Some(method.name.as_str()),
        _ => None,
    };
    if operator(at).is_none_or(chooses_scheduler) {
        return None;
    }
    let start = insns[..at].iter().rposition(ends_expression).map_or(0, |i| i + 1);
    let end = insns[at..].iter().position(ends_expression).map_or(insns.len(), |i| at + i);
    if let Some(observed) = (start..at).rev().find(|&i| operator(i) == Some("observeOn")) {
        return scheduler_target(&insns[start..observed]);
    }
    let subscribed = (start..end).find(|&i| operator(i) == Some("subscribeOn"))?;
    scheduler_target(&insns[start..subscribed])
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

/// The thread of the scheduler computed last by `before` (the instructions up to a
/// `subscribeOn` or `observeOn` call; constants of its other arguments come after the
/// scheduler): RxJava's background schedulers, Android's main thread.
fn scheduler_target(before: &[Insn]) -> Option<Target> {
    let made_by = before.iter().rev().find(|i| !matches!(i, Insn::Const { .. }))?;
    let Insn::Invoke { method, kind: InvokeKind::Static } = made_by else { return None };
    let (class, name) = (method.class.as_str(), method.name.as_str());
    if SCHEDULERS.contains(&class) {
        return matches!(name, "io" | "computation" | "newThread" | "single" | "from").then_some(Target::Background);
    }
    (ANDROID_SCHEDULERS.contains(&class) && name == "mainThread").then_some(Target::Main)
}
