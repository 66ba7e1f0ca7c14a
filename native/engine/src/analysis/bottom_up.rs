//! The strongly connected components of the call graph, run bottom-up in parallel on
//! rayon's pool: callees first, a recursion cycle's members one after the other.

use std::sync::atomic::{AtomicUsize, Ordering};

/// The strongly connected components of a call graph, run bottom-up in parallel: an SCC
/// starts once every SCC it calls is done, and its members run one after the other.
pub(super) struct BottomUp {
    pub(super) sccs: Vec<Vec<usize>>,
    /// The SCC of each node.
    pub(super) scc_of: Vec<usize>,
    pub(super) callers_of: Vec<Vec<usize>>,
}

impl BottomUp {
    pub(super) fn new(edges: &[Vec<usize>]) -> BottomUp {
        let sccs = super::scc::tarjan(edges.len(), edges);
        let mut scc_of = vec![0usize; edges.len()];
        for (i, scc) in sccs.iter().enumerate() {
            for &m in scc {
                scc_of[m] = i;
            }
        }
        let mut callers_of: Vec<Vec<usize>> = vec![Vec::new(); sccs.len()];
        for (i, scc) in sccs.iter().enumerate() {
            let mut callees: Vec<usize> =
                scc.iter().flat_map(|&m| edges[m].iter().map(|&c| scc_of[c])).filter(|&c| c != i).collect();
            callees.sort_unstable();
            callees.dedup();
            for c in callees {
                callers_of[c].push(i);
            }
        }
        BottomUp { sccs, scc_of, callers_of }
    }

    /// Whether node `to` is sure to be visited before node `from` in a run that visits both:
    /// an earlier member of its SCC, or in an SCC it calls at any depth.
    pub(super) fn runs_before(&self, edges: &[Vec<usize>], to: usize, from: usize) -> bool {
        if self.scc_of[to] == self.scc_of[from] {
            let scc = &self.sccs[self.scc_of[from]];
            return scc.iter().position(|&m| m == to) < scc.iter().position(|&m| m == from);
        }
        // Handed lambdas and classes are direct callees: the walk is for the rest.
        edges[from].contains(&to) || super::callgraph::reachable(edges, from).contains(&to)
    }

    /// Calls `visit` once on every node of the SCCs `only` marks, callees before callers
    /// (across SCCs). The marked SCCs must include every marked SCC's callees that are not
    /// done yet.
    pub(super) fn run(&self, visit: &(dyn Fn(usize) + Sync), only: &[bool]) {
        let mut count = vec![0; self.sccs.len()];
        for callee in (0..self.sccs.len()).filter(|&s| only[s]) {
            for &caller in &self.callers_of[callee] {
                count[caller] += 1;
            }
        }
        let pending: Vec<AtomicUsize> = count.into_iter().map(AtomicUsize::new).collect();
        let runs = |s: usize| only[s];
        // The leaves are listed before any is spawned: a counter that a running SCC brings to
        // zero must not be read here as a leaf, or that SCC would run (and count down its
        // callers) twice, and a caller could start before its callees are done.
        let leaves: Vec<usize> =
            (0..self.sccs.len()).filter(|&s| runs(s) && pending[s].load(Ordering::Relaxed) == 0).collect();
        let (pending, runs) = (&pending, &runs);
        rayon::scope(|scope| {
            for s in leaves {
                scope.spawn(move |scope| self.run_scc(scope, s, pending, runs, visit));
            }
        });
    }

    fn run_scc<'s>(
        &'s self,
        scope: &rayon::Scope<'s>,
        s: usize,
        pending: &'s [AtomicUsize],
        runs: &'s (dyn Fn(usize) -> bool + Sync),
        visit: &'s (dyn Fn(usize) + Sync),
    ) {
        for &m in &self.sccs[s] {
            visit(m);
        }
        for &caller in self.callers_of[s].iter().filter(|&&c| runs(c)) {
            if pending[caller].fetch_sub(1, Ordering::AcqRel) == 1 {
                scope.spawn(move |scope| self.run_scc(scope, caller, pending, runs, visit));
            }
        }
    }
}

/// Orders the members of one SCC, given sorted by name, so that each runs after as many of its
/// callees in the SCC as the cycle allows: next is the first member (by name) whose callees
/// there have all run, not counting calls into the members `runs_last` marks; when there is
/// none, the first member left breaks the cycle. A member sees only the summaries of members
/// run before it, so the cycle is broken where `runs_last` says losing a summary costs least.
pub(super) fn callees_first(scc: &mut [usize], edges: &[Vec<usize>], runs_last: impl Fn(usize) -> bool) {
    use std::collections::BTreeSet;
    let position: crate::fxhash::FxHashMap<usize, usize> = scc.iter().enumerate().map(|(at, &m)| (m, at)).collect();
    // For each member (by position), its distinct callees in the SCC that must run first, and
    // the members waiting on it.
    let mut waits_for = vec![0usize; scc.len()];
    let mut waiting: Vec<Vec<usize>> = vec![Vec::new(); scc.len()];
    for (at, &m) in scc.iter().enumerate() {
        let mut callees: Vec<usize> = edges[m]
            .iter()
            .filter(|&&c| c != m)
            .filter_map(|c| position.get(c).copied())
            .filter(|&at| !runs_last(scc[at]))
            .collect();
        callees.sort_unstable();
        callees.dedup();
        waits_for[at] = callees.len();
        for c in callees {
            waiting[c].push(at);
        }
    }
    let mut ready: BTreeSet<usize> = (0..scc.len()).filter(|&at| waits_for[at] == 0).collect();
    let mut placed = vec![false; scc.len()];
    // Every member before it is placed: where the next cycle is broken.
    let mut first_left = 0;
    let mut order = Vec::with_capacity(scc.len());
    for _ in 0..scc.len() {
        let next = ready.pop_first().unwrap_or_else(|| {
            while placed[first_left] {
                first_left += 1;
            }
            first_left
        });
        placed[next] = true;
        order.push(scc[next]);
        for &w in &waiting[next] {
            waits_for[w] -= 1;
            if waits_for[w] == 0 && !placed[w] {
                ready.insert(w);
            }
        }
    }
    scc.copy_from_slice(&order);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// A cycle through a callback's registration (0 registers 3, which calls 1, which calls
    /// 2, which calls 0) is broken there: 0 first, then 2, 1 and the callback 3.
    #[test]
    fn a_cycle_breaks_at_what_runs_last() {
        let edges = vec![vec![3], vec![2], vec![0], vec![1]];
        let mut scc = vec![0, 1, 2, 3];
        callees_first(&mut scc, &edges, |m| m == 3);
        assert_eq!(scc, vec![0, 2, 1, 3]);
        // Nothing marked: the first member left breaks the cycle, and its callers follow.
        let mut scc = vec![0, 1, 2, 3];
        callees_first(&mut scc, &edges, |_| false);
        assert_eq!(scc, vec![0, 2, 1, 3]);
        let mut scc = vec![1, 0, 2, 3];
        callees_first(&mut scc, &[vec![1], vec![0], vec![0, 1], vec![2]], |_| false);
        assert_eq!(scc, vec![1, 0, 2, 3]);
    }

    /// Many leaves scanned while the first ones already run and count their callers down: every
    /// node must run exactly once, after all it calls (a caller started early saw callees
    /// without summaries, and reports changed from run to run).
    #[test]
    fn every_node_runs_once_after_its_callees() {
        const LEAVES: usize = 50_000;
        // Leaves first; then one caller per leaf; then callers of two callers each.
        let mut edges: Vec<Vec<usize>> = vec![Vec::new(); LEAVES];
        edges.extend((0..LEAVES).map(|i| vec![i]));
        edges.extend((0..LEAVES / 2).map(|i| vec![LEAVES + 2 * i, LEAVES + 2 * i + 1]));
        let order = BottomUp::new(&edges);
        let all = vec![true; order.sccs.len()];
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        for _ in 0..20 {
            let runs: Vec<AtomicUsize> = (0..edges.len()).map(|_| AtomicUsize::new(0)).collect();
            let early = AtomicUsize::new(0);
            pool.install(|| {
                order.run(&|n| {
                    if edges[n].iter().any(|&c| runs[c].load(Ordering::Acquire) == 0) {
                        early.fetch_add(1, Ordering::Relaxed);
                    }
                    runs[n].fetch_add(1, Ordering::AcqRel);
                }, &all)
            });
            let twice = runs.iter().filter(|r| r.load(Ordering::Relaxed) != 1).count();
            assert_eq!((twice, early.load(Ordering::Relaxed)), (0, 0), "nodes not run exactly once, nodes run before a callee");
        }
    }

    /// What a caller may look up outside its call edges: only nodes every run makes first.
    #[test]
    fn a_node_runs_before_another_only_if_every_run_makes_it_first() {
        // 0 calls 1, which calls 2; 3 and 4 call each other; 5 stands apart.
        let edges: Vec<Vec<usize>> = vec![vec![1], vec![2], vec![], vec![4], vec![3], vec![]];
        let order = BottomUp::new(&edges);
        assert!(order.runs_before(&edges, 1, 0), "a direct callee");
        assert!(order.runs_before(&edges, 2, 0), "a callee at depth");
        assert!(!order.runs_before(&edges, 0, 2), "a caller");
        assert!(!order.runs_before(&edges, 5, 0) && !order.runs_before(&edges, 0, 5), "unrelated nodes, whichever thread is first");
        let scc = &order.sccs[order.scc_of[3]];
        let (first, second) = (scc[0], scc[1]);
        assert!(order.runs_before(&edges, first, second) && !order.runs_before(&edges, second, first), "in an SCC, its order");
    }

    /// A round over some SCCs runs exactly those, each after its marked callees.
    #[test]
    fn a_round_over_some_sccs_runs_only_those_after_their_callees() {
        // A chain 0 <- 1 <- 2 <- 3 and a node 4 calling 1: the round marks 2, 3 and 4's SCCs.
        let edges: Vec<Vec<usize>> = vec![vec![], vec![0], vec![1], vec![2], vec![1]];
        let order = BottomUp::new(&edges);
        let mut only = vec![false; order.sccs.len()];
        for n in [2, 3, 4] {
            only[order.scc_of[n]] = true;
        }
        let ran = Mutex::new(Vec::new());
        rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap().install(|| {
            order.run(&|n| ran.lock().unwrap().push(n), &only)
        });
        let ran = ran.into_inner().unwrap();
        let mut sorted = ran.clone();
        sorted.sort();
        assert_eq!(sorted, vec![2, 3, 4]);
        let at = |n: usize| ran.iter().position(|&m| m == n).unwrap();
        assert!(at(2) < at(3), "3 ran before the 2 it calls: {ran:?}");
    }
}
