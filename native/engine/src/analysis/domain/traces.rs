//! Where a snapshot happens: its line, and the call sites from the summary's method down to
//! it (traces share their tails).

use triomphe::Arc;

use serde::{Deserialize, Serialize};

use crate::classfile::model::MethodRef;
use crate::sym::Sym;

/// A call site on the way from a summary's method to an access.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct CallSite {
    pub callee: MethodRef,
    pub line: u32,
}

/// The call sites from a summary's method down to an access, outermost first:
/// a shared list, so that applying a summary prepends one node per access
/// instead of copying every trace.
#[derive(Debug, Clone, Default)]
pub struct Trace(Option<Arc<TraceNode>>);

/// The call site's fields are stored flat, with the callee interned: 24 bytes a node instead
/// of 48 (large code has millions of nodes).
#[derive(Debug)]
pub struct TraceNode {
    callee: &'static MethodRef,
    line: u32,
    len: u32,
    next: Trace,
}

impl TraceNode {
    fn site(&self) -> CallSite {
        CallSite { callee: *self.callee, line: self.line }
    }
}

impl Trace {
    pub fn empty() -> Trace {
        Trace(None)
    }
    pub fn prepend(&self, site: CallSite) -> Trace {
        self.prepend_interned(crate::interned::method_ref(site.callee), site.line)
    }
    /// [`Trace::prepend`] with the callee already interned.
    pub fn prepend_interned(&self, callee: &'static MethodRef, line: u32) -> Trace {
        Trace(Some(Arc::new(TraceNode { callee, line, len: self.len() as u32 + 1, next: self.clone() })))
    }
    pub fn len(&self) -> usize {
        self.0.as_ref().map_or(0, |n| n.len as usize)
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_none()
    }
    pub fn first(&self) -> Option<CallSite> {
        self.0.as_ref().map(|n| n.site())
    }
    pub fn iter(&self) -> impl Iterator<Item = CallSite> + '_ {
        let mut cur = self.0.as_deref();
        std::iter::from_fn(move || {
            let node = cur?;
            cur = node.next.0.as_deref();
            Some(node.site())
        })
    }
    /// The first node's callee (interned: its address names the method) and line, and the
    /// rest of the trace, for walkers that share work between traces with a common tail
    /// (see [`Trace::tail_id`]).
    pub fn split_first(&self) -> Option<(&'static MethodRef, u32, &Trace)> {
        self.0.as_ref().map(|n| (n.callee, n.line, &n.next))
    }

    /// Identifies this trace among the live ones (0 for the empty trace): equal ids are
    /// the same shared list.
    pub fn tail_id(&self) -> usize {
        self.0.as_ref().map_or(0, |n| Arc::as_ptr(n) as usize)
    }

    pub fn from_vec(sites: Vec<CallSite>) -> Trace {
        sites.into_iter().rev().fold(Trace::empty(), |t, s| t.prepend(s))
    }
}

impl PartialEq for Trace {
    fn eq(&self, other: &Trace) -> bool {
        self.len() == other.len() && self.cmp(other) == std::cmp::Ordering::Equal
    }
}
impl Eq for Trace {}
impl PartialOrd for Trace {
    fn partial_cmp(&self, other: &Trace) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Trace {
    /// Site by site, outermost first; a shorter trace that is a prefix comes first. Traces
    /// share tails, and a shared node ends the walk: the rest is the same list.
    fn cmp(&self, other: &Trace) -> std::cmp::Ordering {
        use std::cmp::Ordering;
        let (mut a, mut b) = (self.0.as_deref(), other.0.as_deref());
        loop {
            match (a, b) {
                (None, None) => return Ordering::Equal,
                (None, Some(_)) => return Ordering::Less,
                (Some(_), None) => return Ordering::Greater,
                (Some(x), Some(y)) if std::ptr::eq(x, y) => return Ordering::Equal,
                (Some(x), Some(y)) => match x.site().cmp(&y.site()) {
                    Ordering::Equal => (a, b) = (x.next.0.as_deref(), y.next.0.as_deref()),
                    unequal => return unequal,
                },
            }
        }
    }
}
impl Serialize for Trace {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}
impl<'de> Deserialize<'de> for Trace {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Trace, D::Error> {
        Ok(Trace::from_vec(Vec::<CallSite>::deserialize(d)?))
    }
}

/// Where a snapshot happens: the access line in the innermost method, and the
/// call sites from the summary's method down to it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Site {
    pub line: u32,
    #[serde(default, skip_serializing_if = "Trace::is_empty")]
    pub trace: Trace,
}

impl Site {
    /// The line shown in the summary's own method.
    pub fn outer_line(&self) -> u32 {
        self.trace.first().map_or(self.line, |c| c.line)
    }
    /// The line shown for a method of `class` at this site: its own line, or, when its code
    /// has no line numbers while the class has (a delegator kotlinc writes, `work` calling
    /// `work$suspendImpl` with the body), the first line the trace reaches in code of that
    /// class, whose source file it shares. 0: none.
    pub fn line_in_class(&self, class: Sym) -> u32 {
        let mut line = self.outer_line();
        // Each step's callee holds the next step's line, the last callee the access's.
        let inner_lines = self.trace.iter().skip(1).map(|c| c.line).chain(std::iter::once(self.line));
        for (call, inner) in self.trace.iter().zip(inner_lines) {
            if line != 0 || call.callee.class != class {
                break;
            }
            line = inner;
        }
        line
    }

    /// Deterministic preference between two sites of the same snapshot: the
    /// earliest in the method, then the shortest trace.
    pub fn preferred(a: Site, b: Site) -> Site {
        let ka = (a.outer_line(), a.trace.len(), a.line);
        let kb = (b.outer_line(), b.trace.len(), b.line);
        if kb < ka || (kb == ka && b.trace < a.trace) {
            b
        } else {
            a
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sym::Sym;

    fn call(class: &str, line: u32) -> CallSite {
        CallSite { callee: MethodRef { class: Sym::new(class), name: Sym::new("m"), descriptor: Sym::new("()V") }, line }
    }

    /// A method without line numbers shows the first line its trace reaches in its own class,
    /// never one of another class's file.
    #[test]
    fn a_method_without_lines_shows_the_first_line_of_its_class_in_the_trace() {
        let own = Sym::new("p.Own");
        let site = |calls: Vec<CallSite>, line| Site { line, trace: Trace::from_vec(calls) };
        assert_eq!(site(vec![call("p.Own", 7)], 12).line_in_class(own), 7, "a line of its own");
        assert_eq!(site(vec![call("p.Own", 0)], 12).line_in_class(own), 12);
        assert_eq!(site(vec![call("p.Own", 0), call("q.Other", 5)], 12).line_in_class(own), 5);
        assert_eq!(site(vec![call("q.Other", 0)], 12).line_in_class(own), 0, "another class's line");
        assert_eq!(site(vec![call("p.Own", 0), call("q.Other", 0)], 12).line_in_class(own), 0);
        assert_eq!(site(vec![], 0).line_in_class(own), 0, "no line anywhere (javac -g:none)");
    }

    /// Traces order like their lists of call sites, whether they share nodes or not.
    #[test]
    fn traces_order_by_their_sites_whether_they_share_a_tail_or_not() {
        let site = |name: &str, line| CallSite {
            callee: MethodRef { class: Sym::new("p.C"), name: Sym::new(name), descriptor: Sym::new("()V") },
            line,
        };
        let tail = Trace::from_vec(vec![site("b", 2), site("c", 3)]);
        let lists = [
            vec![],
            vec![site("a", 1)],
            vec![site("a", 1), site("b", 2)],
            vec![site("a", 1), site("b", 2), site("c", 3)],
            vec![site("a", 1), site("b", 2), site("c", 4)],
            vec![site("a", 2), site("b", 2), site("c", 3)],
            vec![site("d", 1)],
        ];
        // Each list both built alone and, where it ends with `tail`, built on the shared tail.
        let built = |sites: &Vec<CallSite>| {
            let mut out = vec![Trace::from_vec(sites.clone())];
            if sites.len() == 3 && sites[1..] == [site("b", 2), site("c", 3)] {
                out.push(tail.prepend(sites[0]));
            }
            out
        };
        for x in &lists {
            for y in &lists {
                for tx in built(x) {
                    for ty in built(y) {
                        assert_eq!(tx.cmp(&ty), x.cmp(y), "{x:?} against {y:?}");
                        assert_eq!(tx == ty, x == y, "{x:?} against {y:?}");
                    }
                }
            }
        }
    }
}
