//! Kotlin's collection functions (collection-models extension): the standard library's
//! extension functions on collections, maps and arrays are static methods of its facade classes
//! (`CollectionsKt.toList(items)`, `MapsKt.toMap(map)`, `ArraysKt.fill(array, 0)`), which
//! read or change the container or array they are given, as the member call would. Functions
//! kotlinc inlines (`map { }`, `filter { }`, `forEach { }`) are already the member calls they
//! are made of.

use super::models::ArgumentAccess::{self, Container, Elements};
use super::models::ContainerAccess::{Read as R, Write as W};
use crate::classfile::descriptor::param_types;
use crate::classfile::model::MethodRef;

/// The facades of `kotlin.collections`, and the parts they inherit their functions from
/// (`CollectionsKt___CollectionsKt`), by name.
const FACADES: &[&str] = &["CollectionsKt", "MapsKt", "SetsKt", "ArraysKt"];

/// Functions that change the collection or the array they extend (`MutableList.sort()`,
/// `MutableCollection.addAll(elements)`, `Array.fill(value)`).
const CHANGE_RECEIVER: &[&str] = &[
    "addAll",
    "fill",
    "getOrPut",
    "putAll",
    "removeAll",
    "removeFirst",
    "removeFirstOrNull",
    "removeLast",
    "removeLastOrNull",
    "retainAll",
    "reverse",
    "shuffle",
    "sort",
    "sortBy",
    "sortByDescending",
    "sortDescending",
    "sortWith",
];

/// The accesses a call of a Kotlin collection function makes to its arguments: the receiver
/// (argument 0) changed or read; a destination (`filterTo(destination)`, `toCollection`,
/// `copyInto`) changed; every other collection or array argument read (`plus(other)`).
pub fn argument_accesses(callee: &MethodRef) -> Vec<(usize, ArgumentAccess)> {
    if !is_collection_function(callee.class.as_str()) {
        return Vec::new();
    }
    // `fill$default(array, value, from, to, mask, null)`: the function called with arguments left out.
    let name = callee.name.as_str().trim_end_matches("$default");
    let changes_receiver = CHANGE_RECEIVER.contains(&name);
    let destination = name.ends_with("To") || matches!(name, "toCollection" | "copyInto");
    param_types(callee.descriptor.as_str())
        .iter()
        .enumerate()
        .filter_map(|(at, ty)| {
            let access = match at {
                0 if changes_receiver => W,
                1 if destination => W,
                _ => R,
            };
            if ty.starts_with('[') {
                Some((at, Elements(access)))
            } else if is_collection_type(ty) {
                Some((at, Container(access)))
            } else {
                None
            }
        })
        .collect()
}

fn is_collection_function(class: &str) -> bool {
    class.strip_prefix("kotlin.collections.").is_some_and(|simple| FACADES.iter().any(|f| is_facade_or_part(simple, f)))
}

/// Whether `class` is the facade `facade` of Kotlin's standard library or one of the parts it
/// inherits its functions from (`CollectionsKt___CollectionsKt`).
pub(super) fn is_facade_or_part(class: &str, facade: &str) -> bool {
    class.strip_prefix(facade).is_some_and(|part| part.is_empty() || part.starts_with("__"))
}

fn is_collection_type(descriptor: &str) -> bool {
    matches!(
        descriptor,
        "Ljava/lang/Iterable;"
            | "Ljava/util/Collection;"
            | "Ljava/util/List;"
            | "Ljava/util/Set;"
            | "Ljava/util/SortedSet;"
            | "Ljava/util/Map;"
            | "Ljava/util/SortedMap;"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sym::Sym;

    fn call(class: &str, name: &str, descriptor: &str) -> Vec<(usize, ArgumentAccess)> {
        argument_accesses(&MethodRef { class: Sym::new(class), name: Sym::new(name), descriptor: Sym::new(descriptor) })
    }

    #[test]
    fn reads_changes_and_destinations() {
        let to_list = call("kotlin.collections.CollectionsKt", "toList", "(Ljava/lang/Iterable;)Ljava/util/List;");
        assert_eq!(to_list, vec![(0, Container(R))]);
        let part = call("kotlin.collections.CollectionsKt__MutableCollectionsJVMKt", "sort", "(Ljava/util/List;)V");
        assert_eq!(part, vec![(0, Container(W))]);
        let fill = call("kotlin.collections.ArraysKt___ArraysJvmKt", "fill", "([IIII)V");
        assert_eq!(fill, vec![(0, Elements(W))]);
        let defaults = call("kotlin.collections.ArraysKt", "fill$default", "([IIIIILjava/lang/Object;)V");
        assert_eq!(defaults, vec![(0, Elements(W))]);
        let into = call("kotlin.collections.CollectionsKt", "toCollection", "(Ljava/lang/Iterable;Ljava/util/Collection;)Ljava/util/Collection;");
        assert_eq!(into, vec![(0, Container(R)), (1, Container(W))]);
        let plus = call("kotlin.collections.CollectionsKt", "plus", "(Ljava/util/Collection;Ljava/lang/Iterable;)Ljava/util/List;");
        assert_eq!(plus, vec![(0, Container(R)), (1, Container(R))]);
        assert!(call("kotlin.collections.CollectionsKt", "listOf", "(Ljava/lang/Object;)Ljava/util/List;").is_empty());
        assert!(call("kotlin.collections.CollectionsKtX", "toList", "(Ljava/lang/Iterable;)Ljava/util/List;").is_empty());
        assert!(call("kotlin.text.StringsKt", "toList", "(Ljava/lang/CharSequence;)Ljava/util/List;").is_empty());
    }
}
