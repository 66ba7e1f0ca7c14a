//! Line-independent issue fingerprints, for SARIF `partialFingerprints` and baselines.
//!
//! The fingerprint hashes the issue kind, class, method (name and descriptor) and
//! access path, so it survives edits that only move code. Issues that share all of
//! these (say, a read race and a write race on the same field in one method) are told
//! apart by an occurrence number in report order: `<hash>:1`, `<hash>:2`, ...

use std::collections::HashMap;

use super::Issue;

/// The SARIF `partialFingerprints` key under which [`fingerprints`] are published.
pub const SARIF_KEY: &str = "racer/v1";

/// 64-bit FNV-1a hash of the issue's stable identity, as 16 lowercase hex digits.
pub fn issue_hash(issue: &Issue) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in [
        issue.kind.as_str(),
        issue.class.as_str(),
        issue.method.as_str(),
        issue.descriptor.as_str(),
        issue.access_path.as_str(),
    ] {
        for &b in part.as_bytes().iter().chain(std::iter::once(&0u8)) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

/// One fingerprint per issue, in the same order: `<hash>:<occurrence>`.
pub fn fingerprints(issues: &[Issue]) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    issues
        .iter()
        .map(|issue| {
            let hash = issue_hash(issue);
            let n = seen.entry(hash.clone()).or_insert(0);
            *n += 1;
            format!("{hash}:{n}")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::test_support::issue;

    #[test]
    fn ignores_line_and_message_but_not_identity() {
        let a = issue("a.b.Foo", "set", "this.n", 10);
        let mut b = a.clone();
        b.line = 99;
        b.message = "other words".into();
        assert_eq!(issue_hash(&a), issue_hash(&b));
        let mut c = a.clone();
        c.access_path = "this.m".into();
        assert_ne!(issue_hash(&a), issue_hash(&c));
        assert_eq!(issue_hash(&a).len(), 16);
    }

    #[test]
    fn known_value_is_stable() {
        // Pinned so an accidental change of the hash (which would reset every
        // user's baseline and code-scanning alerts) fails loudly.
        let a = issue("a.b.Foo", "set", "this.n", 10);
        assert_eq!(issue_hash(&a), issue_hash(&a.clone()));
        assert_eq!(issue_hash(&a), PINNED);
    }
    const PINNED: &str = "959ffe8aa67822a2";

    #[test]
    fn occurrences_disambiguate_duplicates() {
        let a = issue("a.b.Foo", "get", "this.h", 3);
        let b = issue("a.b.Foo", "get", "this.h", 4);
        let c = issue("a.b.Foo", "set", "this.h", 5);
        let f = fingerprints(&[a, b, c]);
        assert!(f[0].ends_with(":1") && f[1].ends_with(":2") && f[2].ends_with(":1"));
        assert_eq!(f[0][..16], f[1][..16]);
    }
}
