//! Filter files: which issues are reported at all.
//!
//! ```json
//! {
//!   "include": [{"class": "com.example.**"}],
//!   "exclude": [{"class": "com.example.gen.*", "kind": "THREAD_SAFETY_VIOLATION"},
//!               {"field": "cache*"}, {"method": "toString"}]
//! }
//! ```
//!
//! A rule matches an issue when every key it has matches: `class` is a class glob
//! (see [`super::glob`]) on the reporting class, `method` and `field` are name globs
//! on the reporting method and on the field the racy access ends at, `kind` is an
//! issue kind. When there is any include rule, an issue must match one; an issue
//! matching any exclude rule is dropped.

use std::path::Path;

use serde::Deserialize;

use crate::api::Error;
use crate::issue::{Issue, IssueKind};

use super::glob::{ClassGlob, NameGlob};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FilterFile {
    #[serde(default)]
    include: Vec<RuleSpec>,
    #[serde(default)]
    exclude: Vec<RuleSpec>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RuleSpec {
    class: Option<String>,
    method: Option<String>,
    field: Option<String>,
    kind: Option<String>,
}

struct Rule {
    class: Option<ClassGlob>,
    method: Option<NameGlob>,
    field: Option<NameGlob>,
    kind: Option<IssueKind>,
}

pub struct Filter {
    include: Vec<Rule>,
    exclude: Vec<Rule>,
}

impl Filter {
    /// Reads a filter file; errors are one line and name the file.
    pub fn load(path: &Path) -> Result<Filter, Error> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error(format!("racer: cannot read filter file {}: {e}", path.display())))?;
        Filter::parse(&text).map_err(|e| Error(format!("racer: invalid filter file {}: {e}", path.display())))
    }

    pub fn parse(text: &str) -> Result<Filter, String> {
        let file: FilterFile = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let rules = |specs: Vec<RuleSpec>, list: &str| -> Result<Vec<Rule>, String> {
            specs.into_iter().enumerate().map(|(i, s)| rule(s).map_err(|e| format!("{list} rule {}: {e}", i + 1))).collect()
        };
        Ok(Filter { include: rules(file.include, "include")?, exclude: rules(file.exclude, "exclude")? })
    }

    /// Whether `issue` is reported.
    pub fn keeps(&self, issue: &Issue) -> bool {
        (self.include.is_empty() || self.include.iter().any(|r| r.matches(issue)))
            && !self.exclude.iter().any(|r| r.matches(issue))
    }
}

fn rule(spec: RuleSpec) -> Result<Rule, String> {
    if spec.class.is_none() && spec.method.is_none() && spec.field.is_none() && spec.kind.is_none() {
        return Err("a rule needs at least one of class, method, field, kind".into());
    }
    let kind = match &spec.kind {
        Some(k) => Some(IssueKind::parse(k).ok_or_else(|| {
            format!("unknown issue kind '{k}' (expected THREAD_SAFETY_VIOLATION, INTERFACE_NOT_THREAD_SAFE or GUARDEDBY_VIOLATION)")
        })?),
        None => None,
    };
    Ok(Rule {
        class: spec.class.as_deref().map(ClassGlob::new).transpose()?,
        method: spec.method.as_deref().map(NameGlob::new).transpose()?,
        field: spec.field.as_deref().map(NameGlob::new).transpose()?,
        kind,
    })
}

impl Rule {
    fn matches(&self, issue: &Issue) -> bool {
        self.class.as_ref().map_or(true, |g| g.is_match(&issue.class))
            && self.method.as_ref().map_or(true, |g| g.is_match(&issue.method))
            && self.field.as_ref().map_or(true, |g| issue.field.as_ref().is_some_and(|f| g.is_match(&f.name)))
            && self.kind.map_or(true, |k| k == issue.kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::test_support::issue;

    fn kept(filter: &str, issues: &[Issue]) -> Vec<String> {
        let f = Filter::parse(filter).unwrap();
        issues.iter().filter(|i| f.keeps(i)).map(|i| format!("{}.{}", i.class, i.method)).collect()
    }

    #[test]
    fn include_then_exclude() {
        let issues = [
            issue("a.gen.G", "set", "this.n", 1),
            issue("a.core.C", "set", "this.n", 1),
            issue("a.core.C", "put", "this.cache", 1),
            issue("b.D", "set", "this.n", 1),
        ];
        assert_eq!(kept(r#"{}"#, &issues).len(), 4);
        assert_eq!(kept(r#"{"include":[{"class":"a.**"}]}"#, &issues), ["a.gen.G.set", "a.core.C.set", "a.core.C.put"]);
        assert_eq!(
            kept(r#"{"include":[{"class":"a.**"}],"exclude":[{"class":"a.gen.*","kind":"thread_safety_violation"},{"field":"cach*"}]}"#, &issues),
            ["a.core.C.set"]
        );
        assert_eq!(kept(r#"{"exclude":[{"method":"set","class":"a.*.C"}]}"#, &issues), ["a.gen.G.set", "a.core.C.put", "b.D.set"]);
        assert!(kept(r#"{"exclude":[{"kind":"GUARDEDBY_VIOLATION"}]}"#, &issues).len() == 4);
    }

    #[test]
    fn bad_files_are_explained() {
        for (text, needle) in [
            (r#"{"exclude":[{}]}"#, "exclude rule 1: a rule needs"),
            (r#"{"exclude":[{"klass":"x"}]}"#, "unknown field `klass`"),
            (r#"{"include":[{"kind":"RACE"}]}"#, "unknown issue kind 'RACE'"),
            (r#"{"include":[{"class":"a.[b"}]}"#, "'a.[b'"),
            ("[", "EOF"),
        ] {
            let err = Filter::parse(text).err().unwrap();
            assert!(err.contains(needle), "{text}: {err}");
        }
    }
}
