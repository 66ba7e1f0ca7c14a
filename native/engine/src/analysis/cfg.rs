//! Basic blocks over lowered instructions: normal control flow only (2.4);
//! exception handlers are never entered.

use crate::classfile::model::Insn;

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
        Insn::Switch { targets } => targets.iter().for_each(|t| emit(*t as usize)),
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
    pub fn build(insns: &[Insn], splits_after: &dyn Fn(usize) -> bool) -> Cfg {
        let n = insns.len();
        let mut leader = vec![false; n + 1];
        if n > 0 {
            leader[0] = true;
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
        let mut cfg = Cfg { blocks, block_of, rpo: Vec::new() };
        cfg.rpo = cfg.reverse_post_order(insns, splits_after);
        cfg
    }

    pub fn block_successors(&self, insns: &[Insn], b: usize, splits_after: &dyn Fn(usize) -> bool) -> Vec<usize> {
        let last = self.blocks[b].end - 1;
        if splits_after(last) {
            return Vec::new();
        }
        let mut out = Vec::new();
        for_each_successor(insns, last, |s| out.push(self.block_of[s] as usize));
        out
    }

    fn reverse_post_order(&self, insns: &[Insn], splits_after: &dyn Fn(usize) -> bool) -> Vec<usize> {
        if self.blocks.is_empty() {
            return Vec::new();
        }
        let mut visited = vec![false; self.blocks.len()];
        let mut order = Vec::new();
        // Iterative DFS: (block, successors, next successor index).
        let mut stack: Vec<(usize, Vec<usize>, usize)> = Vec::new();
        visited[0] = true;
        stack.push((0, self.block_successors(insns, 0, splits_after), 0));
        while let Some(top) = stack.last_mut() {
            if top.2 < top.1.len() {
                let s = top.1[top.2];
                top.2 += 1;
                if !visited[s] {
                    visited[s] = true;
                    let succ = self.block_successors(insns, s, splits_after);
                    stack.push((s, succ, 0));
                }
            } else {
                order.push(top.0);
                stack.pop();
            }
        }
        order.reverse();
        order
    }
}
