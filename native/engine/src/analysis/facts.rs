//! Per-callee and per-field facts, computed once per distinct reference before
//! the bodies are interpreted (the hierarchy walks behind them are the costly
//! part of a call's transfer function).

use rayon::prelude::*;

use crate::classfile::descriptor::{is_object_of, returns_object_of};
use crate::classfile::model::*;
use crate::fxhash::{FxHashMap, FxHashSet};
use crate::hierarchy::ClassTable;
use crate::interned::ByAddress;
use crate::sym::Sym;

use super::extensions::Extensions;
use super::handler_fields;
use super::access_order;
use super::kotlin_delegates;
use super::thread_locals;
use super::handoffs::{self, ExecutorKind, ExecutorValue, HandoffModel, Target};
use super::models::{self, ArgumentAccess, ContainerAccess, LockEffect, ThreadEffect};

#[derive(Debug, Clone)]
pub struct CallFacts {
    pub resolved: MethodRef,
    /// Parameter widths from the descriptor (true = long/double).
    pub arg_widths: Vec<bool>,
    pub return_kind: Option<bool>,
    pub ownership_source: bool,
    pub container: Option<ContainerAccess>,
    /// A container read whose result is a view of the container (extension).
    pub returns_view: bool,
    /// A lookup whose result is one of the container's elements (extension).
    pub returns_value: bool,
    /// `ref.get()` of a weak or soft reference: the object it was made with (extension).
    pub returns_referent: bool,
    /// Containers and arrays among the arguments that the call reads or changes (extension).
    pub argument_accesses: Vec<(usize, ArgumentAccess)>,
    pub synchronized_container: bool,
    /// The class-level conditions of 8.7.2 hold (receiver conditions are checked at the call).
    pub interface_candidate: bool,
    pub thread: Option<ThreadEffect>,
    pub lock: Option<LockEffect>,
    /// Returns the read lock of a read/write lock (lock-precision extension).
    pub returns_read_lock: bool,
    /// Returns a work counter's count before its increment (lock-precision extension, see
    /// [`models::counts_work`]).
    pub counts_work: bool,
    /// Returns a new executor, which a method making it may close (thread-joins extension).
    pub returns_new_executor: bool,
    pub ignored: bool,
    pub functional: bool,
    pub returns_ownership: bool,
    pub exits: bool,
    pub synchronized_constructor: bool,
    pub synchronized_converter: bool,
    /// The result is as thread-safe as the first argument (`Collections.newSetFromMap`).
    pub synchronized_as_argument: bool,
    pub boxing: bool,
    /// The result is a new array or collection (extension, see [`models::returns_fresh`]).
    pub returns_fresh: bool,
    /// Thread-handoff models (extension).
    pub handoff: Option<HandoffModel>,
}

#[derive(Debug, Clone, Copy)]
pub struct FieldFacts {
    pub declaring: Sym,
    /// 5.1: volatile or `@ThreadConfined` field, or a `@ThreadConfined` class.
    pub safe: bool,
}

pub fn call_facts(table: &ClassTable, ignore: &crate::fxhash::FxHashSet<Sym>, named: &MethodRef, ext: Extensions) -> CallFacts {
    let resolved = table.resolve_method(named).unwrap_or(*named);
    let class = named.class.as_str();
    let interface_candidate = !models::INTERFACE_CALL_SAFE_PACKAGES.iter().any(|p| class.starts_with(p))
        && !class.ends_with("$Builder")
        && table.lookup_l1(named, &|a| a.matches("ThreadSafe") || a.matches("ThreadConfined")).is_none()
        && !table.is_subtype_of_any(named.class, &["android.os.IInterface"])
        && !(ext.private_interface_calls && is_private(table, named));
    CallFacts {
        resolved,
        arg_widths: crate::classfile::descriptor::param_widths(named.descriptor.as_str()),
        return_kind: crate::classfile::descriptor::return_kind(named.descriptor.as_str()),
        ownership_source: models::is_ownership_source(table, &resolved) || models::is_ownership_source(table, named),
        container: models::container_access(table, &resolved, ext),
        returns_view: models::returns_view(&resolved, ext),
        returns_value: models::returns_element(table, &resolved, ext),
        returns_referent: models::returns_referent(table, named, ext),
        argument_accesses: models::argument_accesses(table, &resolved, ext),
        synchronized_container: models::is_synchronized_container(table, named.class, ext)
            || models::is_synchronized_container(table, resolved.class, ext),
        interface_candidate,
        thread: models::call_thread_effect(named, ext),
        lock: models::lock_effect(table, named, ext).or_else(|| models::lock_effect(table, &resolved, ext)),
        returns_read_lock: ext.lock_precision && models::returns_read_lock(table, named),
        counts_work: ext.lock_precision && models::counts_work(table, named),
        returns_new_executor: ext.thread_joins && handoffs::makes_executor(named),
        ignored: ignore.contains(&resolved.class),
        functional: table.lookup_l2(&resolved, &|a| a.matches("Functional")) || models::is_functional_model(table, &resolved),
        returns_ownership: table.lookup_l2(&resolved, &|a| a.matches("ReturnsOwnership")),
        exits: models::is_exit_call(table, named, ext),
        synchronized_constructor: resolved.name.as_str() == "<init>"
            && models::is_synchronized_container(table, resolved.class, ext),
        synchronized_converter: models::is_synchronized_converter(&resolved, ext),
        synchronized_as_argument: models::is_synchronized_as_argument(&resolved, ext),
        boxing: models::is_boxing(&resolved, ext),
        returns_fresh: models::returns_fresh(table, named, ext) || models::returns_fresh(table, &resolved, ext),
        handoff: handoffs::enabled_handoff_model(table, named, &ext),
    }
}

fn is_private(table: &ClassTable, m: &MethodRef) -> bool {
    table.get(m.class).and_then(|h| h.method(m.name, m.descriptor)).map_or(false, |h| h.flags & ACC_PRIVATE != 0)
}

pub fn field_facts(table: &ClassTable, f: &FieldRef, ext: Extensions) -> FieldFacts {
    let declaring = table.resolve_field(f.class, f.name);
    FieldFacts { declaring, safe: is_safe_field(table, declaring, f.name, ext) || is_safe_field(table, f.class, f.name, ext) }
}

/// 5.1: a field step is safe when its class is `@ThreadConfined`, or the field is
/// `@ThreadConfined` or `volatile`.
pub fn is_safe_field(table: &ClassTable, class: Sym, name: Sym, ext: Extensions) -> bool {
    is_confined_field(table, class, name)
        || table.get(class).and_then(|h| h.field(name)).is_some_and(|f| f.flags & ACC_VOLATILE != 0)
        // A coroutine's own state (its label, result and saved locals): its resumptions are
        // ordered one after the other.
        || (ext.suspend_resumes && models::is_continuation(table, class))
}

/// 7.3: a field of a `@ThreadConfined` class, or annotated `@ThreadConfined` itself: one
/// thread uses it, and so the container it holds.
pub fn is_confined_field(table: &ClassTable, class: Sym, name: Sym) -> bool {
    table.get(class).is_some_and(|h| {
        h.has_annotation("ThreadConfined")
            || h.field(name).is_some_and(|f| f.annotations.iter().any(|a| a.matches("ThreadConfined")))
    })
}

/// What the analysed code's static stores say (see [`static_stores`]).
#[derive(Default)]
pub struct StaticStores {
    /// The static final fields that no code but their own class initializer writes. Reading one
    /// races with nothing: the JVM lets only the declaring class's `<clinit>` set a final static
    /// (JVMS 6.5 `putstatic`; javac emits nothing else), and a class is initialised once, before
    /// any thread can use it (JLS 12.4.2). A store made anywhere else (a lenient older class file)
    /// keeps the field out.
    pub init_only: FxHashSet<(Sym, Sym)>,
    /// The classes whose code stores into a static field of their own class's type (a singleton's
    /// `sInstance`), other than a pool's free list: an object such a class keeps in a static is
    /// reached by any thread, whatever lock its methods take (foreign-locks extension).
    pub self_holding: FxHashSet<Sym>,
    /// The free lists of intrusive pools, by (class, static field): a static field of the class's
    /// own type that a method returning that type pops, storing into it the link field of the
    /// object it takes off (`sPool = m.next` in `Message.obtain()`). An object on the list is
    /// reached by the next holder only, once it is taken off, as from any pool.
    pub pool_heads: FxHashSet<(Sym, Sym)>,
    /// The link fields of those free lists (`next`), by (class, field).
    pub pool_links: FxHashSet<(Sym, Sym)>,
}

/// What the analysed code's static stores say (see [`StaticStores`]), found in one pass over
/// every method body of the analysed classes (`bodies`, with their method).
pub fn static_stores<'a>(
    table: &ClassTable,
    analysed: impl Iterator<Item = &'a ClassHeader>,
    bodies: impl ParallelIterator<Item = (&'a MethodRef, &'a Body)>,
) -> StaticStores {
    #[derive(Default)]
    struct Found {
        written_elsewhere: FxHashSet<(Sym, Sym)>,
        /// Static fields of their class's own type that its code stores into.
        self_typed: FxHashSet<(Sym, Sym)>,
        pops: FxHashSet<((Sym, Sym), (Sym, Sym))>,
    }
    let found = bodies
        .fold(Found::default, |mut found, (m, body)| {
            for (i, insn) in body.insns.iter().enumerate() {
                let Insn::PutStatic(f) = insn else { continue };
                let declaring = table.resolve_field(f.class, f.name);
                if m.name.as_str() != "<clinit>" || m.class != declaring {
                    found.written_elsewhere.insert((declaring, f.name));
                }
                if f.class == m.class && is_object_of(f.descriptor.as_str(), m.class.as_str()) {
                    found.self_typed.insert((m.class, f.name));
                    if let Some(link) = popped_link(m, body, i) {
                        found.pops.insert(((m.class, f.name), (m.class, link)));
                    }
                }
            }
            found
        })
        .reduce(Found::default, |mut a, b| {
            a.written_elsewhere.extend(b.written_elsewhere);
            a.self_typed.extend(b.self_typed);
            a.pops.extend(b.pops);
            a
        });
    let mut init_only = FxHashSet::default();
    for class in analysed {
        for f in &class.fields {
            let key = (class.name, f.name);
            if f.flags & (ACC_STATIC | ACC_FINAL) == ACC_STATIC | ACC_FINAL && !found.written_elsewhere.contains(&key) {
                init_only.insert(key);
            }
        }
    }
    let pool_heads: FxHashSet<(Sym, Sym)> = found.pops.iter().map(|(head, _)| *head).collect();
    let pool_links = found.pops.iter().map(|(_, link)| *link).collect();
    let self_holding = found.self_typed.iter().filter(|f| !pool_heads.contains(f)).map(|(class, _)| *class).collect();
    StaticStores { init_only, self_holding, pool_heads, pool_links }
}

/// The link field whose value the store at `insns[at]` (into a static field of `m`'s class's
/// own type) takes, when `m` returns an object of that type and the value stored is read
/// right before from a field of the class's own type (`sPool = m.next;` in an `obtain()`).
fn popped_link(m: &MethodRef, body: &Body, at: usize) -> Option<Sym> {
    let Insn::GetField(link) = body.insns[..at].last()? else { return None };
    let own_type = |descriptor: &str| is_object_of(descriptor, m.class.as_str());
    let returns_own_type = returns_object_of(m.descriptor.as_str(), m.class.as_str());
    (returns_own_type && link.class == m.class && own_type(link.descriptor.as_str())).then_some(link.name)
}

/// Every store in `body` into a field that can hold a read lock and be locked as a `Lock`
/// (declared `Lock` or `Object`; a `ReadLock`-typed field is a read lock by its type), and
/// whether it stores the read lock a call just returned.
fn lock_field_stores(table: &ClassTable, body: &Body) -> Vec<(FieldRef, bool)> {
    body.field_stores(|d| matches!(d, "Ljava/util/concurrent/locks/Lock;" | "Ljava/lang/Object;"))
        .map(|(f, before)| (*f, body.call_at(before).is_some_and(|m| models::returns_read_lock(table, m))))
        .collect()
}

/// Every store in `body` into a field typed as a collection interface, and whether it stores
/// the synchronized view a `Collections.synchronized*` call just returned.
fn collection_field_stores(body: &Body) -> Vec<(FieldRef, bool)> {
    body.field_stores(|d| models::SYNCHRONIZED_VIEW_TYPES.contains(&d))
        .map(|(f, before)| (*f, body.call_at(before).is_some_and(models::is_synchronized_view_factory)))
        .collect()
}

/// Whether every store into field `f` is in the analysed code and in its own class (or nest): a
/// private or final field of an analysed class. What a fact about such a field says is then
/// the same whether its module is analysed alone or with the modules using it, which the
/// interpreter keeps by asking it only of code of the field's own top-level class.
fn own_class_field(table: &ClassTable, f: &FieldRef) -> bool {
    super::field_classes::fact_field(table, f).is_some()
}

/// Every store in `body` into a field declared as a map of the library (whose declared type does
/// not say whether it is access-ordered), and what it stores (see `access_order`).
fn map_field_stores(table: &ClassTable, body: &Body) -> Vec<(FieldRef, access_order::MapMade)> {
    body.field_stores(|d| MAP_FIELD_TYPES.contains(&d))
        .filter(|(f, _)| own_class_field(table, f))
        .map(|(f, before)| (*f, before.map_or(access_order::MapMade::Other, |at| access_order::made_at(body, body.before_casts(at)))))
        .collect()
}

/// The declared types of map fields that may hold an access-ordered `LinkedHashMap`.
const MAP_FIELD_TYPES: &[&str] = &["Ljava/util/Map;", "Ljava/util/HashMap;", "Ljava/util/LinkedHashMap;", "Ljava/util/AbstractMap;"];

/// Every store in `body` into a field that may keep a Kotlin property's delegate, and the
/// delegate stored when it is one that keeps its value with no lock.
fn delegate_field_stores(table: &ClassTable, body: &Body) -> Vec<(FieldRef, Option<kotlin_delegates::Delegate>)> {
    body.field_stores(kotlin_delegates::may_keep_delegate)
        .filter(|(f, _)| own_class_field(table, f))
        .map(|(f, before)| (*f, before.and_then(|at| kotlin_delegates::made_at(table, body, body.before_casts(at)))))
        .collect()
}

/// The fields only ever given one value (of one thread, one callback), by (declaring class,
/// name): a field given two, or a value not known (`None`), is left out (the answer does not
/// depend on the order the bodies were folded in).
pub(super) fn one_value_each<T: Copy + PartialEq>(
    table: &ClassTable,
    stores: impl IntoIterator<Item = (FieldRef, Option<T>)>,
) -> FxHashMap<(Sym, Sym), T> {
    let mut by_field: FxHashMap<(Sym, Sym), Option<T>> = FxHashMap::default();
    for (f, value) in stores {
        let slot = by_field.entry((table.resolve_field(f.class, f.name), f.name)).or_insert(value);
        if *slot != value {
            *slot = None;
        }
    }
    by_field.into_iter().filter_map(|(k, v)| v.map(|v| (k, v))).collect()
}

/// The fields, by (declaring class, name), whose every store in `stores` is marked.
fn only_ever(table: &ClassTable, stores: Vec<(FieldRef, bool)>) -> FxHashSet<(Sym, Sym)> {
    let mut all: FxHashMap<(Sym, Sym), bool> = FxHashMap::default();
    for (f, marked) in stores {
        *all.entry((table.resolve_field(f.class, f.name), f.name)).or_insert(true) &= marked;
    }
    all.into_iter().filter_map(|(k, marked)| marked.then_some(k)).collect()
}

fn address<T>(r: &T) -> usize {
    r as *const T as usize
}

impl Facts {
    /// What the summary file says of the executor fields of the classes `own` accepts, sorted.
    pub fn exported_executors(&self, own: impl Fn(Sym) -> bool) -> Vec<(Sym, Sym, ExecutorKind)> {
        let mut out: Vec<(Sym, Sym, ExecutorKind)> =
            self.executor_fields.iter().filter(|((class, _), _)| own(*class)).map(|(&(class, name), &kind)| (class, name, kind)).collect();
        out.sort();
        out
    }

    /// The facts of callee `m`, when `m` is an interned reference (as instructions hold) that
    /// the bodies call: found by its address, without hashing its names. Another copy of the
    /// same reference finds none; the caller then works the facts out.
    pub fn call(&self, m: &MethodRef) -> Option<&CallFacts> {
        self.calls.get(&address(m))
    }

    /// Like [`Facts::call`], for a field an instruction names.
    pub fn field(&self, f: &FieldRef) -> Option<&FieldFacts> {
        self.fields.get(&address(f))
    }
}

/// The facts of every callee and field referenced by the given bodies.
pub struct Facts {
    /// By the address of the interned reference the instructions hold (see [`Facts::call`]).
    calls: FxHashMap<usize, CallFacts>,
    /// By the address of the interned reference (see [`Facts::field`]).
    fields: FxHashMap<usize, FieldFacts>,
    /// Safety of fields by (declaring class, name), for steps of substituted paths: safe
    /// when any reference to the field is (a step does not keep the class it was named through).
    pub safe_steps: FxHashMap<(Sym, Sym), bool>,
    /// Classes whose objects the analysed code only ever makes to be a thread's `ThreadLocal`
    /// value (thread-kept-objects extension): their fields are safe steps.
    pub thread_local_classes: FxHashSet<Sym>,
    /// Thread handoffs: the code run by the `Runnable`/`Callable` objects (and the callbacks of
    /// the registered callback objects, `registrations.rs`) allocated in the bodies, by allocated
    /// class (filled in by the scheduler, which needs it first).
    pub handed_classes: FxHashMap<Sym, Vec<MethodRef>>,
    /// Field-receiver dispatch: the class of the objects a field holds, when every store gives
    /// it a new object of that class, by (declaring class, name) (filled in by the scheduler).
    pub field_classes: super::field_classes::FieldClasses,
    /// Thread handoffs: the lambda a field holds, when every store gives it the same one, by
    /// (declaring class, name) (filled in by the scheduler).
    pub field_lambdas: super::field_classes::FieldLambdas,
    /// Thread handoffs: the code of the thread a `Thread` field holds, when every store makes one
    /// with the same code, by (declaring class, name) (filled in by the scheduler).
    pub field_threads: super::thread_fields::FieldThreads,
    /// Thread handoffs: the callback a handler field's handler was made with, when every store
    /// gives it the same one, by (declaring class, name) (filled in by the scheduler).
    pub handler_callbacks: super::handler_callbacks::HandlerCallbacks,
    /// Threads (`thread_kept_objects`): the private or final fields every store gives a new
    /// object, by (declaring class, name) (filled in by the scheduler).
    pub fresh_fields: FxHashSet<(Sym, Sym)>,
    /// Paths: the fields that lead back to their holder through a helper's field (filled in by
    /// the scheduler).
    pub back_references: super::back_references::BackReferences,
    /// Thread handoffs: fields holding a handler of a known thread, by (declaring class, name),
    /// and the methods returning one's handler.
    pub handlers: handler_fields::HandlerThreads,
    /// Thread handoffs: fields holding a Kotlin coroutine scope made on a known dispatcher
    /// (`CoroutineScope(Dispatchers.IO)`, `MainScope()`), by (declaring class, name).
    pub scope_fields: FxHashMap<(Sym, Sym), Target>,
    /// Thread handoffs: what the executor each executor field is given runs its tasks on, by
    /// (declaring class, name): a single-thread executor, the main thread's (`getMainExecutor()`),
    /// one posting to one handler, or a pool (also for a field given two kinds).
    pub executor_fields: FxHashMap<(Sym, Sym), ExecutorKind>,
    /// Collection models: fields only ever given a synchronized view
    /// (`Collections.synchronizedMap(...)` and the like), by (declaring class, name).
    pub synchronized_views: FxHashSet<(Sym, Sym)>,
    /// Collection models: the fields of Kotlin delegated properties only ever given one
    /// standard-library delegate that keeps its value with no lock (see `kotlin_delegates`), by
    /// (declaring class, name).
    pub delegate_fields: FxHashMap<(Sym, Sym), kotlin_delegates::Delegate>,
    /// Collection models: the classes a constructor of which makes its object an access-ordered
    /// `LinkedHashMap` (see `access_order`), sorted.
    pub ordered_classes: Vec<&'static str>,
    /// Collection models: the map fields only ever given an access-ordered `LinkedHashMap`, by
    /// (declaring class, name).
    pub access_ordered_fields: FxHashSet<(Sym, Sym)>,
    /// Lock precision: fields only ever given a read lock (`r = rwLock.readLock()`), by
    /// (declaring class, name): `lock()` on one is a read-mode acquisition.
    pub read_lock_fields: FxHashSet<(Sym, Sym)>,
    /// What the analysed code's static stores say (see [`StaticStores`]): filled in by the
    /// scheduler, which sees every body.
    pub statics: StaticStores,
    /// The fields holding an object their class's constructor was given (foreign-locks
    /// extension; see `given_fields`): filled in by the scheduler, which sees every body.
    pub given_fields: super::given_fields::GivenFields,
    /// Schedulers kept in fields and returned by methods (reactive chains, thread handoffs).
    pub schedulers: super::kept_schedulers::KeptSchedulers,
    /// Android models: where the content observers made with a handler of a known thread (or
    /// none) run `onChange`, by class (filled in by the scheduler, which needs it first).
    pub content_observers: FxHashMap<Sym, super::content_observers::OnChange>,
}

/// The facts of the references made by `referencing` (the bodies that may be analysed), and
/// the field facts of the stores made by `storing` (every body of the analysed code: whether
/// a field is only ever given some kind of value takes every store into it, wherever it is),
/// each with its method and whether it runs on the main thread from its start
/// (`handoffs::starts_on_main_looper`). `upstream`: what the upstream modules' summary files
/// say of the handlers and executors they keep.
pub fn collect<'a>(
    table: &ClassTable,
    ignore: &crate::fxhash::FxHashSet<Sym>,
    ext: Extensions,
    kept: &super::kept_schedulers::KeptSchedulers,
    upstream: &super::kept_schedulers::ModuleSchedulers,
    referencing: impl ParallelIterator<Item = &'a Body>,
    storing: impl ParallelIterator<Item = (&'a MethodRef, &'a Body, bool)>,
) -> Facts {
    // References by address: the instructions hold interned ones, one address per content.
    #[derive(Default)]
    struct Refs {
        methods: FxHashSet<ByAddress<MethodRef>>,
        fields: FxHashSet<ByAddress<FieldRef>>,
    }
    #[derive(Default)]
    struct Stores {
        handler_stores: Vec<(FieldRef, handler_fields::Stored)>,
        /// What constructors' handler and looper parameters are given, by constructor and index.
        handler_arguments: Vec<(MethodRef, u16, Option<handler_fields::Stored>)>,
        /// The methods returning a handler, with the handler fields each returns.
        handler_getters: Vec<(MethodRef, Option<Vec<&'static FieldRef>>)>,
        /// Stores into coroutine-scope fields, and the thread of the scope stored when known.
        scope_fields: Vec<(FieldRef, Option<Target>)>,
        /// Stores into executor-typed fields, and what the value is when known.
        executor_stores: Vec<(FieldRef, ExecutorValue)>,
        /// What constructors' executor parameters are given, by constructor and index.
        executor_arguments: Vec<(MethodRef, u16, ExecutorValue)>,
        /// Stores into fields that may hold a lock, and whether the value stored is a read lock.
        field_stores: Vec<(FieldRef, bool)>,
        /// Stores into collection fields, and whether the value stored is a synchronized view.
        collection_stores: Vec<(FieldRef, bool)>,
        /// Stores into Kotlin delegate fields, and the delegate stored when it is a known one.
        delegate_stores: Vec<(FieldRef, Option<kotlin_delegates::Delegate>)>,
        /// Stores into map fields, and what they store as far as access order goes.
        map_stores: Vec<(FieldRef, access_order::MapMade)>,
        /// The classes a constructor of which makes its object an access-ordered map.
        ordered_classes: Vec<&'static str>,
        /// Allocations of analysed classes, and the lambdas given to `ThreadLocal.withInitial`.
        allocations: Vec<thread_locals::Made>,
        initial_lambdas: Vec<&'static MethodRef>,
        /// The object-typed fields stored into, as (class named, descriptor).
        typed_stores: FxHashSet<(Sym, Sym)>,
    }
    let handler_executors = if ext.thread_handoffs { handoffs::handler_executor_descriptors(table) } else { Vec::new() };
    let (refs, stores) = rayon::join(
        || {
            referencing
                .fold(Refs::default, |mut r, body| {
                    for insn in &body.insns {
                        match insn {
                            Insn::Invoke { method, .. } => {
                                r.methods.insert(ByAddress(method));
                            }
                            Insn::GetField(f) | Insn::PutField(f) | Insn::GetStatic(f) | Insn::PutStatic(f) => {
                                r.fields.insert(ByAddress(f));
                            }
                            _ => {}
                        }
                    }
                    r
                })
                .reduce(Refs::default, |mut a, b| {
                    a.methods.extend(b.methods);
                    a.fields.extend(b.fields);
                    a
                })
        },
        || {
            storing
                .fold(Stores::default, |mut r, (method, body, on_main)| {
                    // Most bodies store into no field: the rules that look at stores skip them.
                    let stores_fields = body.insns.iter().any(|i| matches!(i, Insn::PutField(_) | Insn::PutStatic(_)));
                    if ext.thread_handoffs {
                        let code = handler_fields::Code { method, body, on_main };
                        if stores_fields {
                            r.handler_stores.extend(handler_fields::handler_stores(table, code));
                            r.scope_fields.extend(handoffs::scope_fields(table, kept, body));
                            r.executor_stores.extend(handoffs::executor_field_stores(table, &handler_executors, code));
                        }
                        r.handler_arguments.extend(handler_fields::handler_arguments(table, code));
                        if handler_fields::returns_handler(method) {
                            r.handler_getters.push((*method, handler_fields::returned_fields(body)));
                        }
                        r.executor_arguments.extend(handoffs::executor_arguments(table, &handler_executors, code));
                    }
                    if ext.lock_precision && stores_fields {
                        r.field_stores.extend(lock_field_stores(table, body));
                    }
                    if ext.collection_models {
                        if stores_fields {
                            r.collection_stores.extend(collection_field_stores(body));
                            r.delegate_stores.extend(delegate_field_stores(table, body));
                            r.map_stores.extend(map_field_stores(table, body));
                        }
                        if method.name.as_str() == "<init>" && access_order::constructor_orders_by_access(table, method.class, body) {
                            r.ordered_classes.push(method.class.as_str());
                        }
                    }
                    if ext.thread_kept_objects {
                        let (made, lambdas) = thread_locals::allocations(table, method, body);
                        r.allocations.extend(made);
                        r.initial_lambdas.extend(lambdas);
                        if stores_fields {
                            r.typed_stores.extend(thread_locals::typed_stores(body));
                        }
                    }
                    r
                })
                .reduce(Stores::default, |mut a, b| {
                    a.handler_stores.extend(b.handler_stores);
                    a.handler_arguments.extend(b.handler_arguments);
                    a.handler_getters.extend(b.handler_getters);
                    a.scope_fields.extend(b.scope_fields);
                    a.executor_stores.extend(b.executor_stores);
                    a.executor_arguments.extend(b.executor_arguments);
                    a.field_stores.extend(b.field_stores);
                    a.collection_stores.extend(b.collection_stores);
                    a.delegate_stores.extend(b.delegate_stores);
                    a.map_stores.extend(b.map_stores);
                    a.ordered_classes.extend(b.ordered_classes);
                    a.allocations.extend(b.allocations);
                    a.initial_lambdas.extend(b.initial_lambdas);
                    a.typed_stores.extend(b.typed_stores);
                    a
                })
        },
    );
    let (methods, fields) = (refs.methods, refs.fields);
    // A field given handlers (or scopes) of both kinds is left unmodelled.
    let handler_getters = stores.handler_getters.into_iter().collect();
    let handlers = handler_fields::resolve(table, &stores.handler_stores, &stores.handler_arguments, &handler_getters, &upstream.handlers);
    let scope_fields = one_value_each(table, stores.scope_fields);
    let executor_fields = executor_fields(table, &handlers, &stores.executor_stores, &stores.executor_arguments, &upstream.executors);
    let read_lock_fields = only_ever(table, stores.field_stores);
    let synchronized_views = only_ever(table, stores.collection_stores);
    let delegate_fields = one_value_each(table, stores.delegate_stores);
    // Upstream modules' too, which their summary files list.
    let mut ordered_classes = stores.ordered_classes;
    ordered_classes.extend(upstream.access_ordered.iter().map(|c| c.as_str()));
    ordered_classes.sort_unstable();
    ordered_classes.dedup();
    let ordered = |made| match made {
        access_order::MapMade::AccessOrdered => true,
        access_order::MapMade::New(class) => access_order::is_ordered_class(table, class, &ordered_classes),
        access_order::MapMade::Other => false,
    };
    let access_ordered_fields = only_ever(table, stores.map_stores.into_iter().map(|(f, made)| (f, ordered(made))).collect());
    let methods: Vec<&'static MethodRef> = methods.into_iter().map(|m| m.0).collect();
    let fields: Vec<&'static FieldRef> = fields.into_iter().map(|f| f.0).collect();
    let calls = methods.par_iter().map(|&m| (address(m), call_facts(table, ignore, m, ext))).collect();
    let initial_lambdas = stores.initial_lambdas.into_iter().collect();
    let thread_local_classes = thread_locals::confined_classes(table, &stores.allocations, &initial_lambdas, &stores.typed_stores, ext.kotlin_internal);
    let field_facts: Vec<(&FieldRef, FieldFacts)> = fields
        .par_iter()
        .map(|&f| {
            let mut ff = field_facts(table, f, ext);
            // An object only ever a thread's own value is confined to it, as a `@ThreadConfined` one.
            ff.safe |= thread_local_classes.contains(&ff.declaring);
            (f, ff)
        })
        .collect();
    // References through different classes (a `@ThreadConfined` subclass and its superclass)
    // share a step: joined, so the answer does not depend on the sets' iteration order.
    let mut safe_steps: FxHashMap<(Sym, Sym), bool> = FxHashMap::default();
    for (f, ff) in &field_facts {
        *safe_steps.entry((ff.declaring, f.name)).or_insert(false) |= ff.safe;
    }
    let fields = field_facts.into_iter().map(|(f, ff)| (address(f), ff)).collect();
    Facts { calls, fields, safe_steps, handed_classes: FxHashMap::default(), field_classes: FxHashMap::default(), field_lambdas: FxHashMap::default(), field_threads: FxHashMap::default(), handler_callbacks: FxHashMap::default(), fresh_fields: FxHashSet::default(), back_references: Default::default(), handlers, scope_fields, executor_fields, synchronized_views, delegate_fields, ordered_classes, access_ordered_fields, read_lock_fields, thread_local_classes, given_fields: FxHashSet::default(), statics: StaticStores::default(), schedulers: Default::default(), content_observers: FxHashMap::default() }
}

/// What each executor field runs its tasks on, by (declaring class, name). A field (or a
/// constructor's parameter) given executors of two kinds, or one of a pool, is a pool's.
/// Upstream fields start from what their own module's stores gave them (`upstream`). A
/// parameter is known once every call of its package gives a known executor; a chain of
/// constructors passing it on is a few links long.
fn executor_fields(
    table: &ClassTable,
    handlers: &handler_fields::HandlerThreads,
    stores: &[(FieldRef, ExecutorValue)],
    arguments: &[(MethodRef, u16, ExecutorValue)],
    upstream: &[(Sym, Sym, ExecutorKind)],
) -> FxHashMap<(Sym, Sym), ExecutorKind> {
    const MAX_ROUNDS: usize = 8;
    let kind_of = |value: &ExecutorValue, params: &FxHashMap<(MethodRef, u16), ExecutorKind>| match value {
        ExecutorValue::Known(kind) => Some(*kind),
        // A looper runs its messages one at a time, on its one thread.
        ExecutorValue::OnHandler(handler) => Some(ExecutorKind::posting_to(handlers.thread_of(table, handler))),
        ExecutorValue::Param(m, i) => params.get(&(*m, *i)).copied(),
    };
    let joined = |slot: &mut ExecutorKind, kind: ExecutorKind| {
        if *slot != kind {
            *slot = ExecutorKind::Pool;
        }
    };
    let mut params: FxHashMap<(MethodRef, u16), ExecutorKind> = FxHashMap::default();
    for _ in 0..MAX_ROUNDS {
        let mut next: FxHashMap<(MethodRef, u16), ExecutorKind> = FxHashMap::default();
        let mut pending: FxHashSet<(MethodRef, u16)> = FxHashSet::default();
        for (m, i, value) in arguments {
            match kind_of(value, &params) {
                Some(kind) => joined(next.entry((*m, *i)).or_insert(kind), kind),
                None => {
                    pending.insert((*m, *i));
                }
            }
        }
        next.retain(|key, _| !pending.contains(key));
        if next == params {
            break;
        }
        params = next;
    }
    let mut fields: FxHashMap<(Sym, Sym), ExecutorKind> = upstream.iter().map(|&(class, name, kind)| ((class, name), kind)).collect();
    for (f, value) in stores {
        let kind = kind_of(value, &params).unwrap_or(ExecutorKind::Pool);
        joined(fields.entry((table.resolve_field(f.class, f.name), f.name)).or_insert(kind), kind);
    }
    fields
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    use crate::hierarchy::Origin;

    fn class(name: &str, super_class: Option<&str>, annotations: &[&str], fields: &[Sym]) -> Arc<ClassHeader> {
        Arc::new(ClassHeader {
            name: Sym::new(name),
            flags: 0,
            super_class: super_class.map(Sym::new),
            interfaces: Vec::new(),
            annotations: annotations
                .iter()
                .map(|a| Annotation { type_name: Sym::new(a), elements: Vec::new(), element_count: 0 })
                .collect(),
            fields: fields.iter().map(|&name| FieldHeader { name, flags: 0, annotations: Vec::new() }).collect(),
            methods: Vec::new(),
            source_file: None,
            kotlin_internal: false,
        })
    }

    /// Facts are found by the address of the interned reference the instructions hold; a
    /// copy of it finds none (the interpreter then works them out itself).
    #[test]
    fn facts_are_found_by_the_interned_reference() {
        let mut table = ClassTable::new();
        table.insert(class("p.C", Some("java.lang.Object"), &[], &[Sym::new("f")]), Origin::Analysed);
        table.freeze();
        let (c, descriptor) = (Sym::new("p.C"), Sym::new("I"));
        let m = crate::interned::method_ref(MethodRef { class: c, name: Sym::new("m"), descriptor: Sym::new("()V") });
        let f = crate::interned::field_ref(FieldRef { class: c, name: Sym::new("f"), descriptor });
        let insns = vec![Insn::Invoke { kind: InvokeKind::Static, method: m }, Insn::GetField(f)];
        let bodies = vec![Body { lines: vec![0; insns.len()], insns, max_locals: 1, handlers: Vec::new() }];
        let facts = collect(&table, &FxHashSet::default(), Extensions::ALL, &Default::default(), &Default::default(), bodies.par_iter(), bodies.par_iter().map(|b| (m, b, false)));
        assert_eq!(facts.call(m).map(|cf| cf.resolved), Some(*m));
        assert_eq!(facts.field(f).map(|ff| ff.declaring), Some(c));
        let (m_copy, f_copy) = (*m, *f);
        assert!(facts.call(&m_copy).is_none() && facts.field(&f_copy).is_none());
    }

    /// A field of a plain class read through a `@ThreadConfined` subclass and through the
    /// class itself: both references give the same step, whose safety must not depend on
    /// which reference the hash sets yield last (many fields make a lucky order unlikely).
    #[test]
    fn a_step_named_through_a_confined_subclass_is_safe_whatever_the_set_order() {
        let names: Vec<Sym> = (0..64).map(|i| Sym::new(&format!("f{i}"))).collect();
        let mut table = ClassTable::new();
        table.insert(class("p.Base", Some("java.lang.Object"), &[], &names), Origin::Analysed);
        table.insert(class("p.Confined", Some("p.Base"), &["javax.annotation.concurrent.ThreadConfined"], &[]), Origin::Analysed);
        table.freeze();
        let descriptor = Sym::new("I");
        let insns: Vec<Insn> = names
            .iter()
            .flat_map(|&name| {
                ["p.Confined", "p.Base"].map(|c| Insn::GetField(crate::interned::field_ref(FieldRef { class: Sym::new(c), name, descriptor })))
            })
            .collect();
        let bodies = vec![Body { lines: vec![0; insns.len()], insns, max_locals: 1, handlers: Vec::new() }];
        let m = MethodRef { class: Sym::new("p.Base"), name: Sym::new("m"), descriptor: Sym::new("()V") };
        let facts = collect(&table, &FxHashSet::default(), Extensions::ALL, &Default::default(), &Default::default(), bodies.par_iter(), bodies.par_iter().map(|b| (&m, b, false)));
        let base = Sym::new("p.Base");
        let unsafe_steps: Vec<&str> =
            names.iter().filter(|&&n| facts.safe_steps.get(&(base, n)) != Some(&true)).map(|n| n.as_str()).collect();
        assert!(unsafe_steps.is_empty(), "steps not safe: {unsafe_steps:?}");
    }
}
