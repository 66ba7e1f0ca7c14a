//! Kotlin's `StringBuilder` functions (collection-models extension): the few extension
//! functions on `StringBuilder` that kotlinc calls rather than inlines (`clear()`, `appendln()`,
//! `append(vararg values)`) are static methods of the `kotlin.text.StringsKt` facade. They change
//! the builder they extend, as `setLength(0)` and `append` do. The others (`appendLine`,
//! `deleteAt`, `set`, ...) are inlined into the member calls they are made of.

use super::models::ArgumentAccess::{self, Container};
use super::models::ContainerAccess::Write;
use crate::classfile::model::MethodRef;

/// The facade of `kotlin.text`; its parts (`StringsKt__StringBuilderJVMKt`) hold the same functions.
const FACADE: &str = "kotlin.text.StringsKt";

/// The functions on a `StringBuilder` kotlinc calls, all of which change it.
const CHANGE_BUILDER: &[&str] = &["append", "appendln", "clear"];

/// The accesses a call of a Kotlin `StringBuilder` function makes to its arguments: the
/// builder it extends (argument 0) changed.
pub fn argument_accesses(callee: &MethodRef) -> Vec<(usize, ArgumentAccess)> {
    let is_facade = super::kotlin_collections::is_facade_or_part(callee.class.as_str(), FACADE);
    let extends_builder = callee.descriptor.as_str().starts_with("(Ljava/lang/StringBuilder;");
    if is_facade && extends_builder && CHANGE_BUILDER.contains(&callee.name.as_str()) {
        vec![(0, Container(Write))]
    } else {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sym::Sym;

    fn call(class: &str, name: &str, descriptor: &str) -> Vec<(usize, ArgumentAccess)> {
        argument_accesses(&MethodRef { class: Sym::new(class), name: Sym::new(name), descriptor: Sym::new(descriptor) })
    }

    #[test]
    fn the_builder_functions_kotlinc_calls_change_the_builder() {
        let builder = "(Ljava/lang/StringBuilder;)Ljava/lang/StringBuilder;";
        assert_eq!(call("kotlin.text.StringsKt", "clear", builder), vec![(0, Container(Write))]);
        assert_eq!(call("kotlin.text.StringsKt__StringBuilderJVMKt", "appendln", builder), vec![(0, Container(Write))]);
        let vararg = "(Ljava/lang/StringBuilder;[Ljava/lang/String;)Ljava/lang/StringBuilder;";
        assert_eq!(call("kotlin.text.StringsKt", "append", vararg), vec![(0, Container(Write))]);
        // Not on a builder, not a changing function, not the facade.
        assert!(call("kotlin.text.StringsKt", "clear", "(Ljava/lang/CharSequence;)V").is_empty());
        assert!(call("kotlin.text.StringsKt", "trim", "(Ljava/lang/StringBuilder;)Ljava/lang/CharSequence;").is_empty());
        assert!(call("kotlin.text.StringsKtX", "clear", builder).is_empty());
    }
}
