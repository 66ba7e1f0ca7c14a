//! Access-ordered `LinkedHashMap`s (collection-models extension). A `LinkedHashMap` made with
//! `accessOrder` true (`new LinkedHashMap<>(16, 0.75f, true)`, or through `super(...)` in a
//! subclass: the usual LRU cache) moves the entry a lookup finds to the end of its list: "in
//! access-ordered linked hash maps, merely querying the map with `get` is a structural
//! modification" (`LinkedHashMap` reference). So `get` and `getOrDefault` on one are writes, and
//! two threads looking up at once can break its list.
//!
//! Known for a field every store into which gives such a map (made there, or an object of a
//! subclass whose constructor asks for access order), and for calls naming such a subclass.

use crate::classfile::model::{Body, ConstVal, Insn, MethodRef};
use crate::hierarchy::ClassTable;
use crate::sym::Sym;

const LINKED_HASH_MAP: &str = "java.util.LinkedHashMap";
/// `LinkedHashMap(int initialCapacity, float loadFactor, boolean accessOrder)`.
const WITH_ORDER: &str = "(IFZ)V";

/// What a store into a map field gives it, as far as access order goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MapMade {
    /// `new LinkedHashMap<>(capacity, loadFactor, true)`.
    AccessOrdered,
    /// A new object of this class, access-ordered when the class's constructor asks for it.
    New(Sym),
    /// Anything else.
    Other,
}

/// What the value instruction `at` of `body` leaves on the stack is (see [`MapMade`]).
pub fn made_at(body: &Body, at: usize) -> MapMade {
    match body.insns.get(at) {
        Some(_) if asks_access_order(body, at) => MapMade::AccessOrdered,
        Some(Insn::Invoke { method, .. }) if method.name.as_str() == "<init>" => MapMade::New(method.class),
        _ => MapMade::Other,
    }
}

/// Whether instruction `at` calls `LinkedHashMap`'s constructor with access order true: a map
/// made there, or, in a subclass's constructor, the `super(...)` call.
pub fn asks_access_order(body: &Body, at: usize) -> bool {
    let calls_constructor = matches!(body.insns.get(at), Some(Insn::Invoke { method, .. })
        if method.class.as_str() == LINKED_HASH_MAP && method.name.as_str() == "<init>" && method.descriptor.as_str() == WITH_ORDER);
    let order_true = at.checked_sub(1).is_some_and(|i| matches!(body.insns[i], Insn::Const { value: ConstVal::Int(1), .. }));
    calls_constructor && order_true
}

/// Whether `body`, a constructor of `class`, makes its object an access-ordered `LinkedHashMap`.
/// Asked of every constructor: the hierarchy is looked up only for one that asks.
pub fn constructor_orders_by_access(table: &ClassTable, class: Sym, body: &Body) -> bool {
    (0..body.insns.len()).any(|at| asks_access_order(body, at)) && table.is_subtype_of_any(class, &[LINKED_HASH_MAP])
}

/// Whether the lookup `named` moves the entry it finds in an access-ordered map.
pub fn reorders(named: &MethodRef) -> bool {
    matches!(named.name.as_str(), "get" | "getOrDefault")
}

/// Whether objects of `class` are access-ordered maps: it, or a superclass, is one of
/// `ordered`, the classes whose constructor asks for access order.
pub fn is_ordered_class(table: &ClassTable, class: Sym, ordered: &[&str]) -> bool {
    !ordered.is_empty() && table.is_subtype_of_any(class, ordered)
}
