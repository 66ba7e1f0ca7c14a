//! In-code suppression: `@SuppressRace` and Android's `@SuppressLint`, matched by
//! simple name from any package (like every annotation racer reads), from class files
//! (`@SuppressWarnings` is not retained there, so it cannot be honoured).
//!
//! An annotation suppresses an issue when it sits on the reporting method (a lambda
//! body counts as part of the method that declares it), on the field the racy access
//! ends at, or on the reporting class or any class enclosing it (`Outer` covers
//! `Outer$Inner` and `Outer$1`). Its values name what it suppresses: an issue kind
//! (`THREAD_SAFETY_VIOLATION`, ...), `racer` (every racer issue) or `all`, in any
//! case. `@SuppressRace` without a value suppresses every racer issue; its `reason`
//! is kept as the justification.

use crate::classfile::model::Annotation;
use crate::hierarchy::ClassTable;
use crate::issue::{Issue, Suppression};
use crate::sym::Sym;

const SUPPRESS_RACE: &str = "SuppressRace";
const SUPPRESS_LINT: &str = "SuppressLint";

/// The suppression `annotations` give for `issue`, if any.
fn from_annotations(annotations: &[Annotation], issue: &Issue) -> Option<Suppression> {
    annotations.iter().find_map(|a| {
        let name = a.simple_name();
        let mut values = a.strings("value");
        match name {
            SUPPRESS_RACE if values.is_empty() => values.push("racer"),
            SUPPRESS_RACE | SUPPRESS_LINT => {}
            _ => return None,
        }
        let value = values.into_iter().find(|v| covers(v, issue))?;
        let reason = if name == SUPPRESS_RACE { a.strings("reason").first().map(|r| r.to_string()) } else { None };
        Some(Suppression { annotation: name.to_string(), value: value.to_string(), reason })
    })
}

fn covers(value: &str, issue: &Issue) -> bool {
    let v = value.trim();
    v.eq_ignore_ascii_case("racer") || v.eq_ignore_ascii_case("all") || v.eq_ignore_ascii_case(issue.kind.as_str())
}

/// The annotation that suppresses `issue`: method first, then field, then classes
/// from the innermost out.
pub fn suppression(table: &ClassTable, issue: &Issue) -> Option<Suppression> {
    let class = table.get(Sym::new(&issue.class));
    let method = class.and_then(|c| {
        let own = c.method(Sym::new(&issue.method), Sym::new(&issue.descriptor));
        let own = own.and_then(|m| from_annotations(&m.annotations, issue));
        own.or_else(|| {
            let declaring = lambda_owner(&issue.method)?;
            c.methods.iter().filter(|m| m.name.as_str() == declaring).find_map(|m| from_annotations(&m.annotations, issue))
        })
    });
    method
        .or_else(|| {
            let f = issue.field.as_ref()?;
            let field = table.get(Sym::new(&f.class))?.field(Sym::new(&f.name))?;
            from_annotations(&field.annotations, issue)
        })
        .or_else(|| {
            enclosing_classes(&issue.class)
                .find_map(|name| from_annotations(&table.get(Sym::new(name))?.annotations, issue))
        })
}

/// `run` for javac's `lambda$run$0`.
fn lambda_owner(method: &str) -> Option<&str> {
    let rest = method.strip_prefix("lambda$")?;
    let end = rest.rfind('$')?;
    match &rest[..end] {
        "" | "static" => None,
        "new" => Some("<init>"),
        name => Some(name),
    }
}

/// `a.O$I$1`, `a.O$I`, `a.O`: the class and the classes enclosing it.
fn enclosing_classes(class: &str) -> impl Iterator<Item = &str> {
    let package_end = class.rfind('.').map_or(0, |i| i + 1);
    let mut next = Some(class);
    std::iter::from_fn(move || {
        let current = next?;
        next = current[package_end..].rfind('$').filter(|&i| i > 0).map(|i| &current[..package_end + i]);
        Some(current)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enclosing() {
        assert_eq!(enclosing_classes("a.O$I$1").collect::<Vec<_>>(), ["a.O$I$1", "a.O$I", "a.O"]);
        assert_eq!(enclosing_classes("O").collect::<Vec<_>>(), ["O"]);
        assert_eq!(enclosing_classes("a.$Gen").collect::<Vec<_>>(), ["a.$Gen"]);
    }

    #[test]
    fn lambda_owners() {
        assert_eq!(lambda_owner("lambda$run$0"), Some("run"));
        assert_eq!(lambda_owner("lambda$new$1"), Some("<init>"));
        assert_eq!(lambda_owner("lambda$static$2"), None);
        assert_eq!(lambda_owner("run"), None);
    }
}
