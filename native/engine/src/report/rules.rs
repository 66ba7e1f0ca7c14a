//! Rule metadata: one entry per issue kind. The SARIF `rules` array and the HTML
//! legend are generated from this table, so the wording lives in one place.

use super::IssueKind;

/// Static description of one issue kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    pub kind: IssueKind,
    /// Stable identifier, equal to the issue kind's name (`THREAD_SAFETY_VIOLATION`).
    pub id: &'static str,
    /// Readable PascalCase name.
    pub name: &'static str,
    /// One sentence.
    pub short: &'static str,
    /// What the rule reports and why it matters.
    pub full: &'static str,
    /// How to fix or silence a report.
    pub help: &'static str,
}

/// Every rule, in the order used for SARIF `ruleIndex`. Never reorder: append only.
pub const RULES: [Rule; 3] = [
    Rule {
        kind: IssueKind::ThreadSafetyViolation,
        id: "THREAD_SAFETY_VIOLATION",
        name: "ThreadSafetyViolation",
        short: "Unsynchronized access to shared state that may run concurrently.",
        full: "A field or container is written without synchronization by code that may run on \
               several threads at once, or is read while another thread may write it. The class \
               (or method) is declared thread-safe with @ThreadSafe, or it uses locks elsewhere, \
               so its non-private methods are assumed to run concurrently with each other.",
        help: "Protect every access to the field with the same lock (synchronized or a \
               java.util.concurrent lock), make the field volatile or final, use a thread-safe \
               container, or confine the object to one thread and document it with \
               @ThreadConfined. If the class is not meant to be shared, remove its @ThreadSafe \
               annotation.",
    },
    Rule {
        kind: IssueKind::InterfaceNotThreadSafe,
        id: "INTERFACE_NOT_THREAD_SAFE",
        name: "InterfaceNotThreadSafe",
        short: "Call to an interface method not known to be thread-safe from thread-safe code.",
        full: "A method of a class declared @ThreadSafe calls a method of an interface that is not \
               annotated @ThreadSafe, without holding a lock. An implementation of the interface \
               may mutate unsynchronized state, so the call may race.",
        help: "Annotate the interface @ThreadSafe if all of its implementations are thread-safe, \
               or hold a lock while calling it.",
    },
    Rule {
        kind: IssueKind::GuardedByViolation,
        id: "GUARDEDBY_VIOLATION",
        name: "GuardedByViolation",
        short: "Write to a @GuardedBy field without holding a lock.",
        full: "A field annotated @GuardedBy is written outside of synchronization, contradicting \
               the annotation's promise that a lock protects it.",
        help: "Hold the lock named in the @GuardedBy annotation while writing the field, or \
               correct the annotation.",
    },
];

/// The rule describing `kind`.
pub fn rule(kind: IssueKind) -> &'static Rule {
    &RULES[rule_index(kind)]
}

/// Index of `kind`'s rule in [`RULES`] (the SARIF `ruleIndex`).
pub fn rule_index(kind: IssueKind) -> usize {
    match kind {
        IssueKind::ThreadSafetyViolation => 0,
        IssueKind::InterfaceNotThreadSafe => 1,
        IssueKind::GuardedByViolation => 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_consistent() {
        for (i, r) in RULES.iter().enumerate() {
            assert_eq!(rule_index(r.kind), i);
            assert_eq!(r.id, r.kind.as_str());
            assert!(!r.short.is_empty() && !r.full.is_empty() && !r.help.is_empty());
        }
    }
}
