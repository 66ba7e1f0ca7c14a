//! Schedulers and dispatchers the code keeps (a thread-handoff model, `handoffs.rs`): a
//! reactive chain given a scheduler, or a coroutine launched on a dispatcher, read from a field
//! or returned by a method, runs where that field or method always says.
//!
//! A field is kept when every store into it, wherever it is, makes one known scheduler
//! (`private final Scheduler io = Schedulers.io()`, `private val io = Dispatchers.IO`), or stores
//! a Kotlin constructor parameter whose default value is one
//! (`class Repo(private val io: CoroutineDispatcher = Dispatchers.IO)`: the default is the value
//! the class is written to run with; a test or an injector passing another is not seen), or a
//! constructor parameter whose qualifier the analysed `@Provides` methods provide with one
//! (Dagger, Hilt), in this module or an upstream one (its summary file lists what its providers
//! give, see [`Provided`]); an `@Inject` field carrying such a qualifier keeps what it is
//! provided with, whatever its (generated) stores. A field another module keeps one in is listed
//! in that module's summary file ([`ModuleSchedulers`]). Any other store (a parameter without such
//! a default or qualifier, a conditional, a read of another kept field or getter) leaves the
//! field unknown, and the code given it is not followed. A method keeps
//! the scheduler every return of it gives; an abstract method, the one every analysed
//! implementation keeps (a `DispatcherProvider` interface).

use once_cell::sync::Lazy;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::classfile::model::*;
use crate::fxhash::FxHashMap;
use crate::hierarchy::ClassTable;
use crate::sym::Sym;

use super::domain::{Attr, Scheduler, Summary, Target};
use super::handler_fields::ModuleHandlers;
use super::handoffs::ExecutorKind;

/// The fields (by declaring class and name) and the methods that keep one known scheduler.
#[derive(Default)]
pub struct KeptSchedulers {
    fields: FxHashMap<(Sym, Sym), Scheduler>,
    methods: FxHashMap<MethodRef, Scheduler>,
    /// What this module's own `@Provides` methods give, for its summary file.
    provided: Provided,
}

/// What a module's summary file says of the schedulers its code keeps, for the modules below
/// it, which do not analyse that code: what its providers give by qualifier, and the fields it
/// keeps one in (`public static final Scheduler DISK = Schedulers.single();` read by another
/// module), and the threads of the handlers it keeps (`handler_fields.rs`). A module adds those
/// of every upstream file to its own.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ModuleSchedulers {
    pub provided: Provided,
    /// By declaring class and name, sorted.
    pub fields: Vec<(Sym, Sym, Scheduler)>,
    pub handlers: ModuleHandlers,
    /// What each executor field of its classes runs its tasks on (`Facts::executor_fields`),
    /// by declaring class and name, sorted: a pool's too, so that a downstream store into one
    /// meets what the upstream stores gave it.
    pub executors: Vec<(Sym, Sym, ExecutorKind)>,
    /// The classes of the module whose constructor makes their object an access-ordered
    /// `LinkedHashMap` (`access_order.rs`), sorted: a downstream lookup in one is a write.
    pub access_ordered: Vec<Sym>,
}

impl ModuleSchedulers {
    /// Another module's too.
    pub fn merge(&mut self, other: &ModuleSchedulers) {
        self.provided.merge(&other.provided);
        self.fields.extend(other.fields.iter().copied());
        self.handlers.merge(&other.handlers);
        self.executors.extend(other.executors.iter().copied());
        self.access_ordered.extend(other.access_ordered.iter().copied());
    }

    /// Whether it says nothing of schedulers (its handlers and executors aside: they need no
    /// scan of the code below).
    pub fn is_empty(&self) -> bool {
        self.provided.is_empty() && self.fields.is_empty()
    }
}

/// What a dependency injector gives the parameters each qualifier names: the scheduler every
/// `@Provides` method carrying that qualifier returns, `None` where two providers disagree
/// (one for tests). A module's summary file lists its own providers' (they are rarely in the
/// module that injects them: an application's `DispatchersModule` sits in a common module);
/// a downstream module adds those of every upstream file to its own, which gives what the
/// analysis of the whole build gives.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Provided(Vec<(Annotation, Option<Scheduler>)>);

impl Provided {
    /// One more provider of `qualifier`.
    fn add(&mut self, qualifier: &Annotation, scheduler: Option<Scheduler>) {
        match self.0.iter_mut().find(|(q, _)| q == qualifier) {
            Some((_, known)) if *known != scheduler => *known = None,
            Some(_) => {}
            None => self.0.push((qualifier.clone(), scheduler)),
        }
    }

    /// The providers of `other` too.
    pub fn merge(&mut self, other: &Provided) {
        for (qualifier, scheduler) in &other.0 {
            self.add(qualifier, *scheduler);
        }
    }

    fn get(&self, qualifier: &Annotation) -> Option<Scheduler> {
        self.0.iter().find(|(q, _)| q == qualifier).and_then(|(_, s)| *s)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// What a store into a scheduler field gives it.
#[derive(Clone, Copy, PartialEq)]
enum Stored {
    Made(Option<Scheduler>),
    /// A constructor's parameter, by the constructor and the parameter's local slot.
    Parameter(MethodRef, u16),
}

impl KeptSchedulers {
    /// From the analysed classes and methods (with their bodies), those of them that may store
    /// into a scheduler field (`storing`: the methods of the classes that name one), the
    /// summaries of upstream methods and what upstream modules' providers give.
    pub fn collect<'a>(
        table: &ClassTable,
        classes: &[&ClassHeader],
        bodies: &[(&'a MethodRef, &'a Method, &'a Body)],
        storing: &[(&'a MethodRef, &'a Body)],
        upstream: impl Iterator<Item = (&'a MethodRef, &'a Summary)>,
        upstream_kept: &ModuleSchedulers,
    ) -> KeptSchedulers {
        let mut kept = KeptSchedulers::default();
        for (m, s) in upstream {
            if let Some(Attr::Scheduler(scheduler)) = s.return_attribute {
                kept.methods.insert(*m, scheduler);
            }
        }
        // Every store of each scheduler field, agreeing or not.
        let found: Vec<((Sym, Sym), Stored)> = storing
            .par_iter()
            .flat_map_iter(|&(m, body)| {
                body.insns.iter().enumerate().filter_map(move |(at, insn)| match insn {
                    Insn::PutField(f) | Insn::PutStatic(f) if is_scheduler_type(f.descriptor) => {
                        Some(((table.resolve_field(f.class, f.name), f.name), stored(m, body, at)))
                    }
                    _ => None,
                })
            })
            .collect();
        // The methods returning a scheduler type: getters, providers, implementations.
        let returning: Vec<&(&MethodRef, &Method, &Body)> = bodies.iter().filter(|(m, _, _)| returns_scheduler(m)).collect();
        let defaults = constructor_defaults(bodies);
        kept.provided = kept.provided_here(table, &returning);
        let mut provided = upstream_kept.provided.clone();
        provided.merge(&kept.provided);
        let declared: FxHashMap<&MethodRef, &Method> =
            bodies.iter().filter(|(_, declared, _)| !declared.scheduler_qualifiers.is_empty()).map(|&(m, declared, _)| (m, declared)).collect();
        let mut stores: FxHashMap<(Sym, Sym), Option<Scheduler>> = FxHashMap::default();
        for (field, value) in found {
            let made = match value {
                Stored::Made(made) => made,
                Stored::Parameter(constructor, slot) => {
                    let qualified = declared.get(&constructor).and_then(|declared| injected(declared, &constructor, slot, &provided));
                    qualified.or_else(|| defaults.get(&(constructor, slot)).copied())
                }
            };
            let slot = stores.entry(field).or_insert(made);
            if *slot != made {
                *slot = None;
            }
        }
        kept.fields = stores.into_iter().filter_map(|(k, s)| s.map(|s| (k, s))).collect();
        kept.fields.extend(upstream_kept.fields.iter().map(|&(class, name, s)| ((class, name), s)));
        if !provided.is_empty() {
            kept.fields.extend(classes.iter().flat_map(|class| injected_fields(class, &provided)));
        }
        // Methods returning a kept field or another such method's result: settled when a pass
        // adds none (a chain of getters is short).
        let returning: Vec<&(&MethodRef, &Method, &Body)> = returning.into_iter().filter(|(m, _, _)| !kept.methods.contains_key(m)).collect();
        loop {
            let found: Vec<(MethodRef, Scheduler)> = returning
                .iter()
                .filter(|(m, _, _)| !kept.methods.contains_key(m))
                .filter_map(|(m, _, body)| kept.returned_by(table, body).map(|s| (**m, s)))
                .collect();
            if found.is_empty() {
                break;
            }
            kept.methods.extend(found);
        }
        kept.methods.extend(implemented_alike(table, &returning, &kept.methods));
        kept
    }

    /// What the analysed `@Provides` methods give (Dagger's and Hilt's modules,
    /// `@Provides @IoDispatcher fun io(): CoroutineDispatcher = Dispatchers.IO`), sorted by
    /// qualifier: a summary file lists them in that order.
    fn provided_here(&self, table: &ClassTable, returning: &[&(&MethodRef, &Method, &Body)]) -> Provided {
        let mut provided = Provided::default();
        for (_, declared, body) in returning {
            if !declared.header.has_annotation("dagger.Provides") {
                continue;
            }
            let returned = self.returned_by(table, body);
            for qualifier in declared.header.annotations.iter().filter(|a| !a.matches("dagger.Provides") && !is_nullness(a)) {
                provided.add(qualifier, returned);
            }
        }
        provided.0.sort_by(|a, b| a.0.cmp(&b.0));
        provided
    }

    /// What this module's summary file says of its schedulers: its own providers and the
    /// fields of `own` classes it keeps one in.
    pub fn exported(&self, own: impl Fn(Sym) -> bool) -> ModuleSchedulers {
        let mut fields: Vec<(Sym, Sym, Scheduler)> =
            self.fields.iter().filter(|((class, _), _)| own(*class)).map(|(&(class, name), &s)| (class, name, s)).collect();
        fields.sort();
        ModuleSchedulers { provided: self.provided.clone(), fields, ..ModuleSchedulers::default() }
    }

    /// The scheduler a method returns, when it keeps one (for its summary).
    pub fn returned(&self, m: &MethodRef) -> Option<Scheduler> {
        self.methods.get(m).copied()
    }

    /// The methods without code here that keep a scheduler (interface methods every
    /// implementation of which keeps it; upstream methods too), sorted.
    pub fn kept_without_code(&self, has_code: impl Fn(&MethodRef) -> bool) -> Vec<(MethodRef, Scheduler)> {
        let mut found: Vec<(MethodRef, Scheduler)> = self.methods.iter().filter(|(m, _)| !has_code(m)).map(|(m, s)| (*m, *s)).collect();
        found.sort_by(|a, b| a.0.cmp(&b.0));
        found
    }

    /// The scheduler field `name` of `class` (its declaring class) keeps.
    pub fn field(&self, class: Sym, name: Sym) -> Option<Scheduler> {
        self.fields.get(&(class, name)).copied()
    }

    /// The scheduler `body` returns at each of its returns, when they agree.
    fn returned_by(&self, table: &ClassTable, body: &Body) -> Option<Scheduler> {
        let mut agreed = None;
        for (at, insn) in body.insns.iter().enumerate() {
            if !matches!(insn, Insn::Return { value: Some(_) }) || after_uninitialized_throw(body, at) {
                continue;
            }
            let made = lateinit_read(body, at).or_else(|| value_at(body, at))?;
            let s = made_here(body, made).or_else(|| self.read_by(table, &body.insns[made]))?;
            if agreed.is_some_and(|a| a != s) {
                return None;
            }
            agreed = Some(s);
        }
        agreed
    }

    /// The scheduler an instruction reads from a kept field or gets from a method keeping one.
    pub fn read_by(&self, table: &ClassTable, insn: &Insn) -> Option<Scheduler> {
        match insn {
            Insn::GetField(f) | Insn::GetStatic(f) => self.field(table.resolve_field(f.class, f.name), f.name),
            Insn::Invoke { method, .. } => self.methods.get(&table.resolve_method(method).unwrap_or(**method)).copied(),
            _ => None,
        }
    }
}

/// What the store at instruction `at` of method `m` gives its field: a scheduler made there, a
/// parameter of the constructor `m` is, or something else.
fn stored(m: &MethodRef, body: &Body, at: usize) -> Stored {
    let made = value_at(body, at);
    match made.map(|made| &body.insns[made]) {
        Some(&Insn::Load { slot, wide: false }) if m.name.as_str() == "<init>" => Stored::Parameter(*m, slot),
        _ => Stored::Made(made.and_then(|made| made_here(body, made))),
    }
}

/// The read a Kotlin `lateinit` property's getter returns once it has checked it was set
/// (`getfield io; dup; ifnull THROW; areturn`).
fn lateinit_read(body: &Body, at: usize) -> Option<usize> {
    let read = at.checked_sub(3)?;
    let checked = matches!(body.insns[read + 1..at], [Insn::Dup, Insn::If { kind: IfKind::Null(Cmp::Eq), .. }]);
    (checked && matches!(body.insns[read], Insn::GetField(_) | Insn::GetStatic(_))).then_some(read)
}

/// Whether return `at` follows the throw of a `lateinit` property read before it was set
/// (`throwUninitializedPropertyAccessException("io"); aconst_null; areturn`): it never returns.
fn after_uninitialized_throw(body: &Body, at: usize) -> bool {
    let Some(call) = at.checked_sub(2) else { return false };
    matches!(body.insns[call + 1], Insn::Const { value: ConstVal::Null, .. })
        && matches!(&body.insns[call], Insn::Invoke { method, .. } if method.name.as_str() == "throwUninitializedPropertyAccessException")
}

/// The abstract methods (an interface's `val io: CoroutineDispatcher`, a `DispatcherProvider`'s)
/// every analysed implementation of which keeps the same scheduler: a call through the
/// interface gets it. An implementation that keeps none, or another, leaves the method unknown.
fn implemented_alike(
    table: &ClassTable,
    returning: &[&(&MethodRef, &Method, &Body)],
    kept: &FxHashMap<MethodRef, Scheduler>,
) -> Vec<(MethodRef, Scheduler)> {
    let mut agreed: FxHashMap<MethodRef, Option<Scheduler>> = FxHashMap::default();
    for &&(m, declared, _) in returning {
        if declared.header.is_static() {
            continue;
        }
        let returned = kept.get(m).copied();
        for abstract_method in overridden_abstract(table, m) {
            let slot = agreed.entry(abstract_method).or_insert(returned);
            if *slot != returned {
                *slot = None;
            }
        }
    }
    let mut found: Vec<(MethodRef, Scheduler)> = agreed.into_iter().filter_map(|(m, s)| Some((m, s?))).collect();
    found.sort_by(|a, b| a.0.cmp(&b.0));
    found
}

/// The abstract methods of `m`'s supertypes (all of them, transitively) that `m` implements.
fn overridden_abstract(table: &ClassTable, m: &MethodRef) -> Vec<MethodRef> {
    let mut found = Vec::new();
    let mut seen = vec![m.class];
    let mut pending: Vec<Sym> = table.get(m.class).map(|h| h.supertypes().collect()).unwrap_or_default();
    while let Some(class) = pending.pop() {
        if seen.contains(&class) {
            continue;
        }
        seen.push(class);
        let Some(header) = table.get(class) else { continue };
        if header.method(m.name, m.descriptor).is_some_and(|d| d.flags & ACC_ABSTRACT != 0) {
            found.push(MethodRef { class, ..*m });
        }
        pending.extend(header.supertypes());
    }
    found
}

/// The scheduler a dependency injector gives the constructor parameter in local `slot`: the one
/// its qualifier is provided with.
fn injected(declared: &Method, constructor: &MethodRef, slot: u16, provided: &Provided) -> Option<Scheduler> {
    let parameter = crate::classfile::descriptor::param_at_slot(constructor.descriptor.as_str(), slot)?;
    declared.scheduler_qualifiers.iter().filter(|(p, _)| usize::from(*p) == parameter).find_map(|(_, qualifier)| provided.get(qualifier))
}

/// The fields of `class` a dependency injector sets (`@Inject`) with a scheduler its qualifier
/// is provided with: `@Inject @IoDispatcher CoroutineDispatcher io;` in Java; in Kotlin,
/// `@Inject @IoDispatcher lateinit var io: CoroutineDispatcher`, whose qualifier kotlinc puts
/// on the property (the synthetic `getIo$annotations()`), or `@field:IoDispatcher` on the field.
/// Android classes the system makes (a service, a receiver) can only be injected so. Their
/// stores are the injector's (a generated members injector), whatever it is given.
fn injected_fields(class: &ClassHeader, provided: &Provided) -> Vec<((Sym, Sym), Scheduler)> {
    let property_annotations = |field: &FieldHeader| {
        let mut name = field.name.as_str().chars();
        let first = name.next().map(|c| c.to_ascii_uppercase());
        let synthetic = format!("get{}{}$annotations", first.map(String::from).unwrap_or_default(), name.as_str());
        class.methods.iter().find(|m| m.name.as_str() == synthetic).map(|m| m.annotations.as_slice()).unwrap_or(&[])
    };
    class
        .fields
        .iter()
        .filter(|field| field.annotations.iter().any(|a| a.matches("inject.Inject")))
        .filter_map(|field| {
            let mut qualifiers = field.annotations.iter().chain(property_annotations(field));
            qualifiers.find_map(|q| provided.get(q)).map(|s| ((class.name, field.name), s))
        })
        .collect()
}

/// A nullness annotation (kotlinc marks every non-null parameter and result `@NotNull`): it
/// sits on providers and parameters alike without naming what is injected.
fn is_nullness(annotation: &Annotation) -> bool {
    matches!(annotation.simple_name(), "NotNull" | "NonNull" | "Nonnull" | "Nullable" | "CheckForNull" | "RecentlyNonNull" | "RecentlyNullable")
}

/// The defaults Kotlin constructors give their parameters, by the constructor and the
/// parameter's local slot. kotlinc compiles default values into a synthetic constructor that
/// takes a mask after the parameters, stores each default left out into the parameter's own
/// slot (`if ((mask & 1) != 0) io = Dispatchers.getIO()`), and passes them all on to the
/// constructor declared: the same parameters, in the same slots.
fn constructor_defaults(bodies: &[(&MethodRef, &Method, &Body)]) -> FxHashMap<(MethodRef, u16), Scheduler> {
    let mut defaults = FxHashMap::default();
    for &(m, _, body) in bodies {
        if m.name.as_str() != "<init>" || !m.descriptor.as_str().ends_with("Lkotlin/jvm/internal/DefaultConstructorMarker;)V") {
            continue;
        }
        let declared = body.insns.iter().find_map(|insn| match insn {
            Insn::Invoke { kind: InvokeKind::Special, method } if method.class == m.class && method.name == m.name && method != &m => Some(**method),
            _ => None,
        });
        let Some(declared) = declared else { continue };
        for (at, insn) in body.insns.iter().enumerate() {
            if let Insn::Store { slot, wide: false } = insn {
                if let Some(scheduler) = value_at(body, at).and_then(|made| made_here(body, made)) {
                    defaults.insert((declared, *slot), scheduler);
                }
            }
        }
    }
    defaults
}

/// The scheduler instruction `made` of `body` makes: a reactive library's scheduler factory;
/// Kotlin's `Dispatchers.IO`, `Default` (background pools) and `Main` (the main thread), a
/// dispatcher of new threads (`newSingleThreadContext`, `newFixedThreadPoolContext`, an executor
/// made here turned into one with `asCoroutineDispatcher()`), or one of those limited with
/// `limitedParallelism(n)` (one thread at a time when `n` is 1).
fn made_here(body: &Body, made: usize) -> Option<Scheduler> {
    let insn = &body.insns[made];
    let background = |serial| Some(Scheduler { target: Target::Background, serial });
    if let Insn::Invoke { method, .. } = insn {
        let (class, name) = (method.class.as_str(), method.name.as_str());
        if let Some(target) = super::handoffs::dispatcher_thread(class, name) {
            return Some(Scheduler { target, serial: false });
        }
        match (class, name) {
            ("kotlinx.coroutines.ThreadPoolDispatcherKt", "newSingleThreadContext") => return background(true),
            ("kotlinx.coroutines.ThreadPoolDispatcherKt", "newFixedThreadPoolContext") => return background(false),
            ("kotlinx.coroutines.ExecutorsKt", "from") => {
                let Insn::Invoke { method: executor, .. } = &body.insns[value_at(body, made)?] else { return None };
                let single = matches!(executor.name.as_str(), "newSingleThreadExecutor" | "newSingleThreadScheduledExecutor");
                return super::handoffs::makes_executor(executor).then_some(Scheduler { target: Target::Background, serial: single });
            }
            (_, "limitedParallelism") if method.descriptor.as_str() == "(I)Lkotlinx/coroutines/CoroutineDispatcher;" => {
                let Insn::Const { value: ConstVal::Int(threads), .. } = body.insns[made.checked_sub(1)?] else { return None };
                let limited = made_here(body, made.checked_sub(2)?)?;
                return Some(Scheduler { serial: limited.serial || threads == 1, ..limited });
            }
            _ => {}
        }
    }
    super::reactive::made_by_factory(insn)
}

/// Whether a call makes a scheduler or reads a Kotlin dispatcher: code that makes none keeps
/// none, and its bodies need no scan.
pub fn makes_scheduler(m: &MethodRef) -> bool {
    super::reactive::is_scheduler_factory(m)
        || matches!(m.class.as_str(), "kotlinx.coroutines.Dispatchers" | "kotlinx.coroutines.ThreadPoolDispatcherKt" | "kotlinx.coroutines.ExecutorsKt")
}

/// The scheduler types of the reactive libraries and Kotlin's dispatcher types, as field and
/// return descriptors name them.
static SCHEDULER_TYPES: Lazy<[Sym; 8]> = Lazy::new(|| {
    [
        "Lio/reactivex/rxjava3/core/Scheduler;",
        "Lio/reactivex/Scheduler;",
        "Lrx/Scheduler;",
        "Lreactor/core/scheduler/Scheduler;",
        "Lkotlinx/coroutines/CoroutineDispatcher;",
        "Lkotlinx/coroutines/MainCoroutineDispatcher;",
        "Lkotlinx/coroutines/ExecutorCoroutineDispatcher;",
        "Lkotlinx/coroutines/CloseableCoroutineDispatcher;",
    ]
    .map(Sym::new)
});

/// Whether a type descriptor names a scheduler or dispatcher type.
pub fn is_scheduler_type(descriptor: Sym) -> bool {
    SCHEDULER_TYPES.contains(&descriptor)
}

/// The same, by the descriptor's text (lowering asks it of every annotated parameter, before
/// anything is interned): most are ruled out by their end.
pub fn is_scheduler_descriptor(descriptor: &str) -> bool {
    names_scheduler_type_at_end(descriptor) && SCHEDULER_TYPES.iter().any(|t| t.as_str() == descriptor)
}

/// Every scheduler type's name ends so.
fn names_scheduler_type_at_end(descriptor: &str) -> bool {
    descriptor.ends_with("Scheduler;") || descriptor.ends_with("Dispatcher;")
}

/// Whether a method's descriptor returns a scheduler type.
fn returns_scheduler(m: &MethodRef) -> bool {
    let descriptor = m.descriptor.as_str();
    if !names_scheduler_type_at_end(descriptor) {
        return false;
    }
    SCHEDULER_TYPES.iter().any(|t| descriptor.strip_suffix(t.as_str()).is_some_and(|params| params.ends_with(')')))
}

/// The index of the instruction that made the value instruction `at` of `body` takes from the top of the
/// stack, past what Kotlin writes to check a platform value is not null (`dup`, the
/// expression's text, the check) and casts; none when a jump may bring another value there
/// (`flag ? Schedulers.io() : Schedulers.single()`).
fn value_at(body: &Body, at: usize) -> Option<usize> {
    let mut made = at.checked_sub(1)?;
    loop {
        match &body.insns[made] {
            Insn::CheckCast => made = made.checked_sub(1)?,
            Insn::Invoke { method, kind: InvokeKind::Static }
                if method.class.as_str() == "kotlin.jvm.internal.Intrinsics" && method.name.as_str().starts_with("checkNotNull") =>
            {
                // `dup`, then the text of the expression (when the check names it).
                let mut dup = made.checked_sub(1)?;
                if matches!(body.insns[dup], Insn::Const { .. }) {
                    dup = dup.checked_sub(1)?;
                }
                if !matches!(body.insns[dup], Insn::Dup) {
                    return None;
                }
                made = dup.checked_sub(1)?;
            }
            _ => break,
        }
    }
    let joined = super::cfg::jump_targets(body)[made + 1..=at].contains(&true);
    (!joined).then_some(made)
}
