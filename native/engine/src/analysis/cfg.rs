//! Basic blocks over lowered instructions: normal control flow (2.4), plus the exception
//! handlers given to [`Cfg::build`] (none in the reference), each entered from every block
//! that overlaps its try range.

use crate::classfile::model::{Body, Handler, Insn};

#[derive(Debug, Clone)]
pub struct Block {
    pub start: usize,
    /// One past the last instruction.
    pub end: usize,
}

pub struct Cfg {
    pub blocks: Vec<Block>,
    /// Block index by instruction index (only valid at block starts).
    pub block_of: Vec<u32>,
    /// Reverse post-order of blocks reachable from the entry.
    pub rpo: Vec<usize>,
    /// Whether an edge goes back to a block on the search's path (a loop): blocks may then
    /// run more than once.
    pub has_loop: bool,
    /// By block: whether a loop reaches it (it is in a loop or after one), so that its entry
    /// state may change after its first run.
    pub after_loop: Vec<bool>,
    /// The reachable blocks, each loop before what it leads to (see [`flow_order`]).
    pub flow_order: Vec<usize>,
    /// By block: whether it is in a loop (a cycle of blocks).
    pub in_cycle: Vec<bool>,
    /// The analysed exception handlers.
    pub handlers: Vec<Handler>,
}

/// Calls `f` with each successor instruction index of `insns[i]`.
pub fn for_each_successor(insns: &[Insn], i: usize, mut f: impl FnMut(usize)) {
    let next = i + 1;
    let n = insns.len();
    let mut emit = |s: usize| {
        if s < n {
            f(s)
        }
    };
    match &insns[i] {
        Insn::Goto { target } => emit(*target as usize),
        Insn::If { target, .. } => {
            emit(next);
            emit(*target as usize);
        }
        Insn::Switch { targets, .. } => targets.iter().for_each(|t| emit(*t as usize)),
        Insn::Jsr { target } => {
            emit(*target as usize);
            emit(next);
        }
        Insn::Return { .. } | Insn::Athrow | Insn::Ret => {}
        _ => emit(next),
    }
}

fn ends_block(insn: &Insn) -> bool {
    matches!(
        insn,
        Insn::Goto { .. } | Insn::If { .. } | Insn::Switch { .. } | Insn::Jsr { .. } | Insn::Return { .. } | Insn::Athrow | Insn::Ret
    )
}

impl Cfg {
    /// `splits_after(i)`: instructions after which a block must end (e.g. `System.exit`).
    /// `handlers`: the exception handlers to analyse.
    pub fn build(insns: &[Insn], splits_after: &dyn Fn(usize) -> bool, handlers: &[Handler]) -> Cfg {
        let n = insns.len();
        let handlers: Vec<Handler> =
            handlers.iter().copied().filter(|h| (h.target as usize) < n && (h.start as usize) < n).collect();
        let mut leader = vec![false; n + 1];
        if n > 0 {
            leader[0] = true;
        }
        for h in &handlers {
            leader[h.target as usize] = true;
        }
        for i in 0..n {
            if ends_block(&insns[i]) || splits_after(i) {
                leader[i + 1] = true;
            }
            if !matches!(insns[i], Insn::Goto { .. } | Insn::If { .. } | Insn::Switch { .. } | Insn::Jsr { .. }) {
                continue;
            }
            for_each_successor(insns, i, |s| {
                if s != i + 1 {
                    leader[s] = true;
                }
            });
        }
        let mut blocks = Vec::new();
        let mut block_of = vec![u32::MAX; n];
        let mut start = 0;
        for i in 1..=n {
            if leader[i] || i == n {
                if start < i {
                    for slot in block_of.iter_mut().take(i).skip(start) {
                        *slot = blocks.len() as u32;
                    }
                    blocks.push(Block { start, end: i });
                }
                start = i;
            }
        }
        let mut cfg = Cfg { blocks, block_of, rpo: Vec::new(), has_loop: false, after_loop: Vec::new(), flow_order: Vec::new(), in_cycle: Vec::new(), handlers };
        // Each block's successors, worked out once for both walks below.
        let successors: Vec<Vec<usize>> =
            (0..cfg.blocks.len()).map(|b| cfg.block_successors(insns, b, splits_after)).collect();
        let loop_heads;
        (cfg.rpo, loop_heads) = reverse_post_order(&successors);
        cfg.has_loop = !loop_heads.is_empty();
        cfg.after_loop = reached_from(&successors, loop_heads);
        // Without a loop, reverse post-order is the flow order.
        (cfg.flow_order, cfg.in_cycle) = if cfg.has_loop {
            flow_order(&successors, &cfg.rpo)
        } else {
            (cfg.rpo.clone(), vec![false; cfg.blocks.len()])
        };
        cfg
    }

    pub fn block_successors(&self, insns: &[Insn], b: usize, splits_after: &dyn Fn(usize) -> bool) -> Vec<usize> {
        let mut out: Vec<usize> = self.handlers_of_block(b).collect();
        let last = self.blocks[b].end - 1;
        if splits_after(last) {
            return out;
        }
        for_each_successor(insns, last, |s| out.push(self.block_of[s] as usize));
        out
    }

    /// The blocks of the handlers covering instruction `i`.
    pub fn handlers_at(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        let i = i as u32;
        self.handlers.iter().filter(move |h| h.start <= i && i < h.end).map(|h| self.block_of[h.target as usize] as usize)
    }

    fn handlers_of_block(&self, b: usize) -> impl Iterator<Item = usize> + '_ {
        let (start, end) = (self.blocks[b].start as u32, self.blocks[b].end as u32);
        self.handlers.iter().filter(move |h| h.start < end && start < h.end).map(|h| self.block_of[h.target as usize] as usize)
    }
}

/// The reachable blocks with the loops (strongly connected components) in topological
/// order and each one's blocks in reverse post-order, and by block whether it is in a loop.
/// A worklist that always runs the first dirty block in this order settles each loop before
/// anything after it runs: a block in no loop then runs once, from its final entry state.
fn flow_order(successors: &[Vec<usize>], rpo: &[usize]) -> (Vec<usize>, Vec<bool>) {
    let mut rpo_index = vec![usize::MAX; successors.len()];
    for (k, &b) in rpo.iter().enumerate() {
        rpo_index[b] = k;
    }
    let mut in_cycle = vec![false; successors.len()];
    let mut order = Vec::with_capacity(rpo.len());
    // Tarjan gives each component after those it leads to: reversed, before them.
    for mut scc in super::scc::tarjan(successors.len(), successors).into_iter().rev() {
        let cycle = scc.len() > 1 || successors[scc[0]].contains(&scc[0]);
        for &b in &scc {
            in_cycle[b] = cycle;
        }
        scc.retain(|&b| rpo_index[b] != usize::MAX);
        scc.sort_unstable_by_key(|&b| rpo_index[b]);
        order.extend(scc);
    }
    (order, in_cycle)
}

/// By block, whether it is one of `from` or reached from one.
fn reached_from(successors: &[Vec<usize>], from: Vec<usize>) -> Vec<bool> {
    let mut reached = vec![false; successors.len()];
    let mut stack = from;
    while let Some(b) = stack.pop() {
        if !std::mem::replace(&mut reached[b], true) {
            stack.extend(successors[b].iter().copied().filter(|s| !reached[*s]));
        }
    }
    reached
}

/// The reverse post-order of the blocks reachable from the entry, and the blocks an edge
/// goes back to while they are still on the search's stack (itself or earlier): every
/// loop has one.
fn reverse_post_order(successors: &[Vec<usize>]) -> (Vec<usize>, Vec<usize>) {
    if successors.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let mut visited = vec![false; successors.len()];
    let mut on_stack = vec![false; successors.len()];
    let mut loop_heads = Vec::new();
    let mut order = Vec::new();
    // Iterative DFS: (block, next successor index).
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    visited[0] = true;
    on_stack[0] = true;
    while let Some(top) = stack.last_mut() {
        let (b, next) = *top;
        if let Some(&s) = successors[b].get(next) {
            top.1 += 1;
            if !visited[s] {
                visited[s] = true;
                on_stack[s] = true;
                stack.push((s, 0));
            } else if on_stack[s] {
                loop_heads.push(s);
            }
        } else {
            order.push(b);
            on_stack[b] = false;
            stack.pop();
        }
    }
    order.reverse();
    (order, loop_heads)
}

/// Per instruction, whether control reaches it other than by falling from the one before (a
/// jump, a switch, an exception handler): that one then need not have made the values it finds.
pub fn jump_targets(body: &Body) -> Vec<bool> {
    let mut targets = vec![false; body.insns.len()];
    for i in 0..body.insns.len() {
        for_each_successor(&body.insns, i, |s| {
            if s != i + 1 {
                targets[s] = true;
            }
        });
    }
    for h in &body.handlers {
        if let Some(t) = targets.get_mut(h.target as usize) {
            *t = true;
        }
    }
    targets
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(insns: &[Insn]) -> Cfg {
        Cfg::build(insns, &|_| false, &[])
    }

    #[test]
    fn a_jump_back_is_a_loop_and_branches_that_meet_are_not() {
        let ret = Insn::Return { value: None };
        // 0: goto 2; 1: nop; 2: return (a forward jump over a block)
        assert!(!cfg(&[Insn::Goto { target: 2 }, Insn::Nop, ret.clone()]).has_loop);
        // 0: nop; 1: goto 0 (an endless loop)
        assert!(cfg(&[Insn::Nop, Insn::Goto { target: 0 }]).has_loop);
        // 0: nop; 1: goto 1 (a block that jumps to itself)
        assert!(cfg(&[Insn::Nop, Insn::Goto { target: 1 }]).has_loop);
    }

    #[test]
    fn blocks_in_and_after_a_loop_are_reached_by_it_and_the_others_are_not() {
        use crate::classfile::model::{Cmp, IfKind};
        let branch = |target| Insn::If { kind: IfKind::Zero(Cmp::Eq), target };
        let ret = Insn::Return { value: None };
        // 0: before the loop, on to 1 or to the other branch at 4; 1: the loop's head, on to 2
        // or out to 3; 2: the loop's body, back to 1; 3: after the loop; 4: beside it.
        let insns = [branch(4), branch(3), Insn::Goto { target: 1 }, ret.clone(), ret.clone()];
        let looping = cfg(&insns);
        let after_loop: Vec<bool> = (0..insns.len()).map(|i| looping.after_loop[looping.block_of[i] as usize]).collect();
        assert_eq!(after_loop, [false, true, true, true, false]);
        // Branches that meet: no loop reaches anything.
        assert!(cfg(&[branch(2), Insn::Nop, ret]).after_loop.iter().all(|b| !b));
    }

    #[test]
    fn a_loop_comes_whole_before_what_follows_it_and_only_its_blocks_are_in_a_cycle() {
        use crate::classfile::model::{Cmp, IfKind};
        let branch = |target| Insn::If { kind: IfKind::Zero(Cmp::Eq), target };
        let ret = Insn::Return { value: None };
        // 0: the loop's head, out to 3 or on to 1; 1: out to 4 or on to 2; 2: back to 0;
        // 3 and 4: after the loop.
        let insns = [branch(3), branch(4), Insn::Goto { target: 0 }, ret.clone(), ret];
        let looping = cfg(&insns);
        let block = |i: usize| looping.block_of[i] as usize;
        // Reverse post-order puts 3 before 1 (and 4 before 2): run in it, 3 would run on every
        // round of the loop.
        let rpo_position = |i: usize| looping.rpo.iter().position(|&b| b == block(i)).unwrap();
        assert!(rpo_position(3) < rpo_position(1));
        let position = |i: usize| looping.flow_order.iter().position(|&b| b == block(i)).unwrap();
        assert!([0, 1, 2].iter().all(|&i| position(i) < position(3) && position(i) < position(4)));
        let in_cycle: Vec<bool> = (0..insns.len()).map(|i| looping.in_cycle[block(i)]).collect();
        assert_eq!(in_cycle, [true, true, true, false, false]);
    }
}
