//! Kotlin flows (`analysis/flows.rs` for the model): the flows a method builds remember what
//! they were given, and a `flowOn`, `launchIn`, `stateIn` or `shareIn` of known context hands it
//! all to that context's thread.

use crate::fxhash::FxHashSet;

use super::super::domain::*;
use super::super::handoffs::{HandoffModel, Target};
use super::state::*;
use super::Interp;

impl<'a, 'e> Interp<'a, 'e> {
    /// `receiver` is `None` for a static call (the functions of `FlowKt`), whose flow is then its
    /// first parameter.
    pub(super) fn flow_handoff(&mut self, st: &mut State, model: HandoffModel, receiver: Option<&Expr>, params: &[Expr], ret: &Path) {
        match model {
            // A flow is cold: it runs what it is given when collected, not here.
            HandoffModel::FlowOperator => {
                st.attrs.set(ret, Some(Attr::FlowMadeAt(self.pc as u32)));
                self.handed_values.insert(self.pc as u32, params.to_vec());
            }
            HandoffModel::FlowContext(target) => {
                if let Some(flow) = params.first() {
                    self.run_flow(st, flow, Some(target));
                }
            }
            HandoffModel::FlowLaunch => {
                if let (Some(flow), Some(target)) = (params.first(), params.get(1).and_then(|scope| self.scope_target(st, scope))) {
                    self.run_flow(st, flow, Some(target));
                }
            }
            // Collecting: the flow, its collector and a terminal operator's lambdas run during
            // the call, in the caller's context.
            HandoffModel::FlowCollect => {
                let (flow, rest) = match receiver {
                    Some(_) => (receiver, params),
                    None => (params.first(), params.get(1..).unwrap_or(&[])),
                };
                if let Some(flow) = flow {
                    self.run_flow(st, flow, None);
                }
                self.run_while_waiting(st, rest);
            }
            _ => {}
        }
    }

    /// Runs the code a flow runs when collected: handed to `target`, where many collections
    /// may run at once (so not once per object even when a constructor builds it), or during
    /// the call (`None`).
    fn run_flow(&mut self, st: &mut State, flow: &Expr, target: Option<Target>) {
        let hands_once = std::mem::replace(&mut self.hands_once, false);
        let mut seen = FxHashSet::default();
        self.run_flow_parts(st, flow, target, &mut seen);
        self.hands_once = hands_once;
    }

    /// A flow made here by a builder or operator: what it was given; a flow object of an
    /// analysed class (an inlined operator) or a lambda: its code, then the flows it captured.
    /// A flow of any other origin (one `flowOn` made, whose upstream runs where it says) is
    /// not followed.
    fn run_flow_parts(&mut self, st: &mut State, value: &Expr, target: Option<Target>, seen: &mut FxHashSet<u32>) {
        let (made_at, is_code) = match attr_e(st, value) {
            Some(Attr::FlowMadeAt(pc)) => (pc, false),
            Some(Attr::Handed(pc)) => (pc, true),
            _ => return,
        };
        if !seen.insert(made_at) {
            return;
        }
        if is_code {
            match target {
                Some(target) => self.hand(st, value, target, true, false),
                None => self.run_while_waiting(st, std::slice::from_ref(value)),
            }
        }
        let parts = self.handed_values.get(&made_at).cloned().unwrap_or_default();
        for part in &parts {
            self.run_flow_parts(st, part, target, seen);
        }
    }
}
