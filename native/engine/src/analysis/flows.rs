//! Kotlin flows (`kotlinx.coroutines.flow`), a thread-handoff model (`handoffs.rs`): a flow is
//! cold, so the code it is built from runs each time it is collected, in the collector's
//! context, unless `flowOn` moves what is upstream of it to another dispatcher.
//!
//! In `flow { A }.map { B }.flowOn(Dispatchers.IO).onEach { C }`, A and B run on the IO pool,
//! once per collection (so alongside themselves), and C where the flow is collected. The model
//! follows values, not the text: a builder or operator (`flow`, `onEach`, `filter`, ...) makes a
//! flow that remembers the code and the flows it was given, and runs none of it; `flowOn` on a
//! known dispatcher hands all of it to that dispatcher's thread, down to the nearest `flowOn`
//! upstream, whose own upstream runs where that one says. `launchIn(scope)`, `stateIn(scope, ..)`
//! and `shareIn(scope, ..)` hand it to the scope's dispatcher, when the scope is known (as
//! `launch`'s is). Collecting a flow made in the
//! same method (`collect`, `first`, `toList`, ...) runs it during the call. kotlinc inlines
//! `map`, `filter` and the like into classes of their own: a flow class whose `collect` wraps
//! the downstream collector in a collector class whose `emit` runs the operator's code;
//! collecting with an object of such a class (`collect { }` too) runs its `emit` during the
//! call. The code of a flow a method returns or keeps runs where it is collected, which is not
//! followed.

use crate::classfile::model::*;
use crate::hierarchy::ClassTable;
use crate::sym::Sym;

use super::handoffs::HandoffModel;

const FLOW_FUNCTIONS: &str = "kotlinx.coroutines.flow.FlowKt";
const FLOW: &str = "kotlinx.coroutines.flow.Flow";
const FLOW_COLLECTOR: &str = "kotlinx.coroutines.flow.FlowCollector";
const FLOW_AND_SCOPE: &str = "(Lkotlinx/coroutines/flow/Flow;Lkotlinx/coroutines/CoroutineScope;";
const COLLECT: &str = "(Lkotlinx/coroutines/flow/FlowCollector;Lkotlin/coroutines/Continuation;)Ljava/lang/Object;";
const EMIT: &str = "(Ljava/lang/Object;Lkotlin/coroutines/Continuation;)Ljava/lang/Object;";

/// The flow model of a call: the top-level functions of `FlowKt` that make a flow, `flowOn`,
/// `launchIn`, `stateIn`, `shareIn` and the terminal operators, and `collect` on any flow type
/// (a `StateFlow`, a `SharedFlow`).
pub fn flow_model(named: &MethodRef) -> Option<HandoffModel> {
    let (class, name, descriptor) = (named.class.as_str(), named.name.as_str(), named.descriptor.as_str());
    if class == FLOW_FUNCTIONS {
        return match name {
            "flowOn" => Some(HandoffModel::FlowOn),
            "launchIn" => Some(HandoffModel::FlowLaunch),
            // Collect the flow in a coroutine of the scope they are given, as `launchIn` does
            // (the suspending `stateIn(scope)` too: it returns once the first value is in).
            "stateIn" | "shareIn" | "shareIn$default" if descriptor.starts_with(FLOW_AND_SCOPE) => Some(HandoffModel::FlowLaunch),
            _ if descriptor.ends_with(")Lkotlinx/coroutines/flow/Flow;") => Some(HandoffModel::FlowOperator),
            // A terminal operator (`first`, `toList`, `collectLatest { }`): suspends until the
            // flow it is given is done.
            _ if descriptor.starts_with("(Lkotlinx/coroutines/flow/Flow;") && descriptor.contains("Lkotlin/coroutines/Continuation;)") => {
                Some(HandoffModel::FlowCollect)
            }
            _ => None,
        };
    }
    (name == "collect" && descriptor == COLLECT && class.starts_with("kotlinx.coroutines.flow.")).then_some(HandoffModel::FlowCollect)
}

/// The code an object of an analysed class implementing `Flow` or `FlowCollector` itself runs
/// when collected or given an item: its `collect`, or its (erased) `emit`.
pub fn flow_class_body(table: &ClassTable, class: Sym) -> Option<MethodRef> {
    let header = table.get(class)?;
    let (name, descriptor) = header.interfaces.iter().find_map(|i| match i.as_str() {
        FLOW => Some(("collect", COLLECT)),
        FLOW_COLLECTOR => Some(("emit", EMIT)),
        _ => None,
    })?;
    table.resolve_method(&MethodRef { class, name: Sym::new(name), descriptor: Sym::new(descriptor) })
}
