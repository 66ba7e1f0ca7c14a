//! Section 4-5: the forward abstract interpreter of one method body, producing
//! its summary. The operand stack is modelled symbolically so that `getfield`
//! on a stack value yields a longer access path (2.2, implementation note).

use std::collections::BTreeSet;
use std::rc::Rc;

use crate::classfile::descriptor::{param_widths, return_kind};
use crate::classfile::model::*;
use crate::hierarchy::ClassTable;
use crate::sym::Sym;

use super::annotations::{is_initializer, AnnotationConfig, MethodFacts};
use super::cfg::Cfg;
use super::domain::*;
use super::facts::{self, CallFacts, Facts};
use super::models::{self, ContainerAccess, LockEffect, ThreadEffect};

/// What is known about a callee.
pub enum Callee<'s> {
    /// Borrowed: summaries outlive the analysis of their callers.
    Summary(&'s Summary),
    /// No summary: no body, abstract, native, recursion cycle (5.6).
    Unknown,
}

/// Everything the interpreter needs besides the method itself.
pub struct Env<'a> {
    pub table: &'a ClassTable,
    pub facts: &'a Facts,
    pub config: &'a AnnotationConfig,
    pub ignore_classes: &'a crate::fxhash::FxHashSet<Sym>,
    pub callee: &'a (dyn Fn(&MethodRef) -> Callee<'a> + Sync),
    pub inline_shape: &'a (dyn Fn(&MethodRef) -> Option<InlineShape> + Sync),
}

#[derive(Debug, Clone, PartialEq)]
struct Compound {
    paths: Vec<Path>,
    attr: Option<Attr>,
    own: Own,
}

#[derive(Debug, Clone, PartialEq)]
enum Expr {
    Path(Path),
    Const(ConstVal),
    Compound(Rc<Compound>),
}

impl Expr {
    fn paths(&self) -> &[Path] {
        match self {
            Expr::Path(p) => std::slice::from_ref(p),
            Expr::Const(_) => &[],
            Expr::Compound(c) => &c.paths,
        }
    }
    fn opaque(paths: Vec<Path>, attr: Option<Attr>, own: Own) -> Expr {
        Expr::Compound(Rc::new(Compound { paths, attr, own }))
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Slot {
    Val(Expr),
    /// Second half of a long/double.
    Top,
}

#[derive(Debug, Clone, PartialEq)]
struct State {
    threads: Threads,
    locks: u8,
    own: PathMap<Own>,
    attrs: PathMap<Attr>,
    stack: Vec<Slot>,
}

struct Exit {
    /// Attribute map joined over the exits (kept for constructors and class initialisers).
    attrs: Option<PathMap<Attr>>,
    threads: Threads,
    locks: u8,
    ret_own: Option<Own>,
    ret_attr: Option<Option<Attr>>,
}

pub struct MethodInput<'a> {
    pub class: &'a ClassHeader,
    pub method: &'a Method,
    pub mref: MethodRef,
    pub facts: &'a MethodFacts,
}

/// Deepest nesting of inlined forwarding accessors (2.4); past it the call is a plain call.
/// The scheduler's call graph follows as many forwards (a callee outside it could be read
/// while it is still being analysed).
pub const MAX_INLINE_DEPTH: u32 = 8;

/// Per-block visits after which the fixpoint stops widening (finite domains make
/// this a safety net only).
const MAX_BLOCK_VISITS: u32 = 64;

struct Interp<'a, 'e> {
    env: &'a Env<'e>,
    input: &'a MethodInput<'a>,
    body: &'a Body,
    accesses: crate::fxhash::FxHashMap<AccessKey, Site>,
    exit: Option<Exit>,
    exits_after: Vec<bool>,
    line: u32,
    pc: usize,
    inline_depth: u32,
    /// Call sites whose summary accesses were already added, with the caller facts
    /// they depend on: re-running a loop body does not re-add them.
    applied: crate::fxhash::FxHashMap<(u32, u32), Vec<AppliedAt>>,
}

/// What the accesses added by one summary application depend on.
#[derive(PartialEq)]
struct AppliedAt {
    threads: Threads,
    lock: bool,
    args: Vec<(Option<Path>, Own)>,
}

pub fn analyze_method(env: &Env<'_>, input: &MethodInput<'_>) -> Summary {
    let body = match &input.method.body {
        Some(b) => b,
        None => return Summary::empty(),
    };
    let mut exits_after = vec![false; body.insns.len()];
    for (i, insn) in body.insns.iter().enumerate() {
        if let Insn::Invoke { method, .. } = insn {
            exits_after[i] = match env.facts.calls.get(method) {
                Some(f) => f.exits,
                None => models::is_exit_call(env.table, method),
            };
        }
    }
    let mut interp = Interp { env, input, body, accesses: Default::default(), exit: None, exits_after, line: 0, pc: 0, inline_depth: 0, applied: Default::default() };
    interp.run();
    interp.summary()
}

impl<'a, 'e> Interp<'a, 'e> {
    fn initial_state(&self) -> State {
        let m = self.input.method;
        let mref = &self.input.mref;
        let table = self.env.table;
        let synchronized = m.header.flags & ACC_SYNCHRONIZED != 0;
        let mut own = PathMap::default();
        let initializer = is_initializer(table, mref);
        let all_owned = (initializer && m.header.has_annotation("Inject"))
            || m.header.has_annotation("InjectProp")
            || m.header.param_inject_prop;
        let is_static = m.header.is_static();
        for i in 0..m.formal_slots.len() {
            let base = if i == 0 && !is_static { Base::This } else { Base::Param(i as u16) };
            let value = if all_owned || (initializer && i == 0) { OWNED } else { Own::formal(i) };
            own.set(&Path::of(base), Some(value));
        }
        State {
            threads: self.input.facts.initial_threads,
            locks: if synchronized { 1 } else { 0 },
            own,
            attrs: PathMap::default(),
            stack: Vec::new(),
        }
    }

    fn run(&mut self) {
        let insns = &self.body.insns;
        let exits_after = std::mem::take(&mut self.exits_after);
        let splits = |i: usize| exits_after[i];
        let cfg = Cfg::build(insns, &splits);
        if cfg.blocks.is_empty() {
            return;
        }
        let mut rpo_index = vec![usize::MAX; cfg.blocks.len()];
        for (k, b) in cfg.rpo.iter().enumerate() {
            rpo_index[*b] = k;
        }
        let mut entry: Vec<Option<State>> = vec![None; cfg.blocks.len()];
        let mut visits = vec![0u32; cfg.blocks.len()];
        entry[0] = Some(self.initial_state());
        // Worklist in reverse post-order: a dirty flag per position and a cursor that
        // restarts from the lowest dirty position.
        let mut dirty = vec![false; cfg.rpo.len()];
        let mut lowest = rpo_index[0];
        dirty[lowest] = true;
        while let Some(k) = (lowest..dirty.len()).find(|&k| dirty[k]) {
            dirty[k] = false;
            lowest = k;
            let b = cfg.rpo[k];
            visits[b] += 1;
            let state = match entry[b].clone() {
                Some(s) => s,
                None => continue,
            };
            let outgoing = self.run_block(&cfg, b, state, &exits_after);
            for (succ, mut out) in outgoing {
                gc_temps(&mut out);
                let merged = match &entry[succ] {
                    None => out,
                    Some(old) => join_states(old, &out),
                };
                if entry[succ].as_ref() != Some(&merged) && visits[succ] < MAX_BLOCK_VISITS {
                    entry[succ] = Some(merged);
                    if rpo_index[succ] != usize::MAX {
                        dirty[rpo_index[succ]] = true;
                        lowest = lowest.min(rpo_index[succ]);
                    }
                }
            }
        }
    }

    /// Runs one block; returns the states flowing to successor blocks.
    fn run_block(&mut self, cfg: &Cfg, b: usize, mut st: State, exits_after: &[bool]) -> Vec<(usize, State)> {
        let block = cfg.blocks[b].clone();
        let insns = &self.body.insns;
        for i in block.start..block.end {
            self.pc = i;
            self.line = self.body.lines[i];
            let last = i + 1 == block.end;
            match &insns[i] {
                Insn::If { kind, target } => {
                    let next = i + 1;
                    let (taken, fall) = self.branch(&mut st, *kind);
                    let mut out = Vec::new();
                    if next < insns.len() {
                        out.push((cfg.block_of[next] as usize, fall));
                    }
                    out.push((cfg.block_of[*target as usize] as usize, taken));
                    return out;
                }
                Insn::Goto { target } => return vec![(cfg.block_of[*target as usize] as usize, st)],
                Insn::Switch { targets } => {
                    let key = pop(&mut st, false);
                    self.read_expr(&st, &key);
                    let mut seen = BTreeSet::new();
                    return targets
                        .iter()
                        .map(|t| cfg.block_of[*t as usize] as usize)
                        .filter(|t| seen.insert(*t))
                        .map(|t| (t, st.clone()))
                        .collect();
                }
                Insn::Jsr { target } => {
                    let mut into = st.clone();
                    into.stack.push(Slot::Val(Expr::Const(ConstVal::Other)));
                    let mut out = vec![(cfg.block_of[*target as usize] as usize, into)];
                    if i + 1 < insns.len() {
                        out.push((cfg.block_of[i + 1] as usize, st));
                    }
                    return out;
                }
                Insn::Ret => return Vec::new(),
                Insn::Return { value } => {
                    let ret = value.map(|w| pop(&mut st, w));
                    self.finish(&st, ret.as_ref());
                    return Vec::new();
                }
                Insn::Athrow => {
                    let ex = pop(&mut st, false);
                    self.finish(&st, Some(&ex));
                    return Vec::new();
                }
                insn => {
                    self.step(&mut st, insn);
                    if exits_after[i] {
                        self.finish(&st, None);
                        return Vec::new();
                    }
                    if last {
                        return if i + 1 < insns.len() { vec![(cfg.block_of[i + 1] as usize, st)] } else { Vec::new() };
                    }
                }
            }
        }
        Vec::new()
    }

    fn finish(&mut self, st: &State, ret: Option<&Expr>) {
        if let Some(r) = ret {
            self.read_expr(st, r);
        }
        let (ro, ra) = match ret {
            Some(r) => (Some(own_e(st, r)), Some(attr_e(st, r))),
            None => (None, None),
        };
        let name = self.input.mref.name.as_str();
        let keeps_attrs = name == "<init>" || name == "<clinit>";
        match &mut self.exit {
            None => {
                let attrs = keeps_attrs.then(|| st.attrs.clone());
                self.exit = Some(Exit { attrs, threads: st.threads, locks: st.locks, ret_own: ro, ret_attr: ra })
            }
            Some(e) => {
                if let Some(a) = &e.attrs {
                    e.attrs = Some(a.merge(&st.attrs, |x, y| (x == y).then_some(x), false));
                }
                e.threads = e.threads.join(st.threads);
                e.locks = e.locks.max(st.locks);
                e.ret_own = match (e.ret_own, ro) {
                    (Some(a), Some(b)) => Some(a.join(b)),
                    (a, b) => a.or(b),
                };
                e.ret_attr = match (e.ret_attr, ra) {
                    (Some(a), Some(b)) => Some(if a == b { a } else { None }),
                    (a, b) => a.or(b),
                };
            }
        }
    }

    fn summary(self) -> Summary {
        let synchronized = self.input.method.header.flags & ACC_SYNCHRONIZED != 0;
        let exit = match self.exit {
            Some(e) => e,
            // The exit is unreachable (e.g. an endless loop): nothing flows out.
            None => return Summary { threads: self.input.facts.initial_threads, ..Summary::empty() },
        };
        // Unordered: consumers that need an order sort (reporting, summary files).
        let accesses: Vec<Access> = self.accesses.into_iter().map(|(key, site)| Access { key, site }).collect();
        let mut synchronized_fields: Vec<Path> = exit
            .attrs
            .iter()
            .flat_map(|m| m.iter())
            .filter(|(p, a)| *a == Attr::Synchronized && p.base.is_reportable() && !p.steps.is_empty())
            .map(|(p, _)| p)
            .collect();
        synchronized_fields.sort();
        Summary {
            threads: exit.threads,
            locks: if synchronized { exit.locks.saturating_sub(1) } else { exit.locks },
            accesses,
            return_ownership: exit.ret_own.unwrap_or(Own::Unowned),
            return_attribute: exit.ret_attr.flatten(),
            synchronized_fields,
        }
    }

    // ---- recording accesses (5.1) ----

    fn record(&mut self, kind: AccessKind, st: &State, own_pre: Own, trace: Trace, line: u32) {
        let path = kind.path();
        if !path.base.is_reportable() || own_pre.is_owned() || has_switch_map(path) {
            return;
        }
        let key = AccessKey { kind, thread: st.threads, lock: st.locks > 0, own_pre };
        let site = Site { line, trace };
        match self.accesses.get_mut(&key) {
            Some(existing) => {
                let old = std::mem::replace(existing, site.clone());
                *existing = Site::preferred(old, site);
            }
            None => {
                self.accesses.insert(key, site);
            }
        }
    }

    fn record_path(&mut self, st: &State, p: &Path, is_write: bool) {
        if !p.base.is_reportable() {
            return;
        }
        for k in 1..=p.steps.len() {
            if let Step::Field { class, name } = p.steps[k - 1] {
                if self.is_safe_step(class, name) {
                    continue;
                }
                if name.as_str() == "$assertionsDisabled" {
                    continue;
                }
            }
            let prefix = p.prefix(k - 1);
            let access = p.prefix(k);
            let kind = if is_write && k == p.steps.len() { AccessKind::Write(access) } else { AccessKind::Read(access) };
            let own_pre = own(st, &prefix);
            let line = self.line;
            self.record(kind, st, own_pre, Trace::empty(), line);
        }
    }

    fn read_expr(&mut self, st: &State, e: &Expr) {
        for p in e.paths() {
            self.record_path(st, p, false);
        }
    }

    // ---- assignment (5.2) ----

    fn assign(&mut self, st: &mut State, lhs: &Path, rhs: &Expr, lhs_wide_type: bool) {
        self.read_expr(st, rhs);
        let rhs_paths = rhs.paths();
        let functional = !rhs_paths.is_empty()
            && rhs_paths.iter().all(|p| st.attrs.get(p) == Some(Attr::Functional))
            && !lhs_wide_type;
        if !functional {
            self.record_path(st, lhs, true);
        }
        if !matches!(lhs.base, Base::Static(_)) {
            let o = own_e(st, rhs);
            st.own.set(lhs, Some(o));
        }
        let a = attr_e(st, rhs);
        st.attrs.set(lhs, a);
    }

    fn local_path(&self, slot: u16) -> Path {
        let m = self.input.method;
        match m.formal_slots.iter().position(|&s| s == slot) {
            Some(0) if !m.header.is_static() => Path::of(Base::This),
            Some(i) => Path::of(Base::Param(i as u16)),
            None => Path::of(Base::Local(slot)),
        }
    }

    fn is_safe_step(&self, class: Sym, name: Sym) -> bool {
        match self.env.facts.safe_steps.get(&(class, name)) {
            Some(safe) => *safe,
            None => facts::is_safe_field(self.env.table, class, name),
        }
    }

    fn declaring(&self, f: &FieldRef) -> Sym {
        match self.env.facts.fields.get(f) {
            Some(ff) => ff.declaring,
            None => self.env.table.resolve_field(f.class, f.name),
        }
    }

    fn field_path(&self, base: &Path, f: &FieldRef) -> Option<Path> {
        base.field(self.declaring(f), f.name)
    }

    fn temp(&self) -> Path {
        Path::of(Base::Temp(self.pc as u32))
    }

    // ---- one instruction ----

    fn step(&mut self, st: &mut State, insn: &Insn) {
        match insn {
            Insn::Nop | Insn::CheckCast => {}
            Insn::Const { value, wide } => push(st, Expr::Const(*value), *wide),
            Insn::Load { slot, wide } => {
                let p = self.local_path(*slot);
                push(st, Expr::Path(p), *wide);
            }
            Insn::Store { slot, wide } => {
                let v = pop(st, *wide);
                let lhs = self.local_path(*slot);
                self.assign(st, &lhs, &v, *wide);
            }
            Insn::Iinc { slot } => {
                let p = self.local_path(*slot);
                st.own.set(&p, Some(Own::Unowned));
                if st.attrs.get(&p) != Some(Attr::Functional) {
                    st.attrs.set(&p, None);
                }
            }
            Insn::ArrayLoad { wide } => {
                let index = pop(st, false);
                self.read_expr(st, &index);
                let array = pop(st, false);
                let e = match &array {
                    Expr::Path(p) => match p.with(Step::Array) {
                        Some(q) => Expr::Path(q),
                        None => Expr::opaque(vec![p.clone()], None, Own::Unowned),
                    },
                    other => {
                        let o = own_e(st, other);
                        Expr::opaque(other.paths().to_vec(), None, o)
                    }
                };
                push(st, e, *wide);
            }
            Insn::ArrayStore { wide } => {
                let value = pop(st, *wide);
                let index = pop(st, false);
                self.read_expr(st, &index);
                let array = pop(st, false);
                match &array {
                    Expr::Path(p) => match p.with(Step::Array) {
                        Some(lhs) => self.assign(st, &lhs, &value, *wide),
                        None => {
                            self.read_expr(st, &value);
                            self.read_expr(st, &array);
                        }
                    },
                    other => {
                        self.read_expr(st, &value);
                        self.read_expr(st, other);
                    }
                }
            }
            Insn::Op { args, wide_args, result } => {
                let mut operands = Vec::with_capacity(*args as usize);
                for k in (0..*args).rev() {
                    operands.push(pop(st, wide_args & (1 << k) != 0));
                }
                operands.reverse();
                let mut paths = Vec::new();
                for o in &operands {
                    for p in o.paths() {
                        if !paths.contains(p) {
                            paths.push(p.clone());
                        }
                    }
                }
                let attrs: Vec<Option<Attr>> = operands.iter().map(|o| attr_e(st, o)).collect();
                let attr = if attrs.windows(2).all(|w| w[0] == w[1]) { attrs.first().copied().flatten() } else { None };
                if let Some(w) = result {
                    push(st, Expr::opaque(paths, attr, Own::Unowned), *w);
                }
            }
            Insn::Pop => {
                st.stack.pop();
            }
            Insn::Pop2 => {
                st.stack.pop();
                st.stack.pop();
            }
            Insn::Dup => dup_slots(st, 1, 0),
            Insn::DupX1 => dup_slots(st, 1, 1),
            Insn::DupX2 => dup_slots(st, 1, 2),
            Insn::Dup2 => dup_slots(st, 2, 0),
            Insn::Dup2X1 => dup_slots(st, 2, 1),
            Insn::Dup2X2 => dup_slots(st, 2, 2),
            Insn::Swap => {
                let n = st.stack.len();
                if n >= 2 {
                    st.stack.swap(n - 1, n - 2);
                }
            }
            Insn::GetField(f) => {
                let obj = pop(st, false);
                let e = self.get_field(st, &obj, f);
                push(st, e, f.is_wide());
            }
            Insn::GetStatic(f) => {
                let declaring = self.declaring(f);
                let e = match Path::of(Base::Static(declaring)).field(declaring, f.name) {
                    Some(p) => Expr::Path(p),
                    None => Expr::opaque(vec![], None, Own::Unowned),
                };
                push(st, e, f.is_wide());
            }
            Insn::PutField(f) => {
                let value = pop(st, f.is_wide());
                let obj = pop(st, false);
                self.put_field(st, &obj, f, &value);
            }
            Insn::PutStatic(f) => {
                let value = pop(st, f.is_wide());
                let declaring = self.declaring(f);
                match Path::of(Base::Static(declaring)).field(declaring, f.name) {
                    Some(lhs) => self.assign(st, &lhs, &value, f.is_wide()),
                    None => self.read_expr(st, &value),
                }
            }
            Insn::Invoke { kind, method } => self.invoke(st, *kind, method),
            Insn::InvokeDynamic { descriptor } => {
                let args = pop_args(st, descriptor.as_str(), false);
                for a in &args {
                    self.read_expr(st, a);
                }
                if let Some(w) = return_kind(descriptor.as_str()) {
                    let t = self.temp();
                    st.own.set(&t, Some(OWNED));
                    st.attrs.set(&t, None);
                    push(st, Expr::Path(t), w);
                }
            }
            Insn::New { .. } => {
                let t = self.temp();
                st.own.set(&t, Some(OWNED));
                st.attrs.set(&t, None);
                push(st, Expr::Path(t), false);
            }
            Insn::NewArray { dims } => {
                for _ in 0..*dims {
                    let size = pop(st, false);
                    self.read_expr(st, &size);
                }
                let t = self.temp();
                st.own.set(&t, Some(OWNED));
                st.attrs.set(&t, None);
                push(st, Expr::Path(t), false);
            }
            Insn::ArrayLength | Insn::InstanceOf => {
                let v = pop(st, false);
                self.read_expr(st, &v);
                push(st, Expr::opaque(vec![], None, Own::Unowned), false);
            }
            Insn::MonitorEnter | Insn::MonitorExit => {
                let v = pop(st, false);
                self.read_expr(st, &v);
                let effect = if matches!(insn, Insn::MonitorEnter) { LockEffect::Acquire } else { LockEffect::Release };
                if effect == LockEffect::Release {
                    self.flush_pending_reads(st);
                }
                apply_lock_effect(st, effect);
            }
            // Control flow is handled by `run_block`.
            Insn::Return { .. } | Insn::Athrow | Insn::Goto { .. } | Insn::If { .. } | Insn::Switch { .. } | Insn::Jsr { .. } | Insn::Ret => {}
        }
    }

    /// 2.3: before an unlock, values still on the stack are recorded as read
    /// (under the lock) and become plain values, so they are not read again later.
    fn flush_pending_reads(&mut self, st: &mut State) {
        for k in 0..st.stack.len() {
            let e = match &st.stack[k] {
                Slot::Val(e) if !e.paths().is_empty() => e.clone(),
                _ => continue,
            };
            self.read_expr(st, &e);
            let flushed = Expr::opaque(Vec::new(), attr_e(st, &e), own_e(st, &e));
            st.stack[k] = Slot::Val(flushed);
        }
    }

    fn get_field(&mut self, st: &mut State, obj: &Expr, f: &FieldRef) -> Expr {
        match obj {
            Expr::Path(p) => match self.field_path(p, f) {
                Some(q) => Expr::Path(q),
                None => Expr::opaque(vec![p.clone()], None, own(st, p)),
            },
            other => {
                self.read_expr(st, other);
                Expr::opaque(vec![], None, own_e(st, other))
            }
        }
    }

    fn put_field(&mut self, st: &mut State, obj: &Expr, f: &FieldRef, value: &Expr) {
        match obj {
            Expr::Path(p) => match self.field_path(p, f) {
                Some(lhs) => self.assign(st, &lhs, value, f.is_wide()),
                None => {
                    self.read_expr(st, value);
                    self.read_expr(st, obj);
                }
            },
            other => {
                self.read_expr(st, value);
                self.read_expr(st, other);
            }
        }
    }

    // ---- branches (5.3) ----

    /// Returns the states on the taken edge and on the fall-through edge.
    fn branch(&mut self, st: &mut State, kind: IfKind) -> (State, State) {
        // (value expression, jump-taken means the value is `taken_bool`)
        let (subject, taken_bool): (Option<Expr>, Option<bool>) = match kind {
            IfKind::Zero(cmp) | IfKind::Null(cmp) => {
                let v = pop(st, false);
                self.read_expr(st, &v);
                let b = match cmp {
                    Cmp::Eq => Some(false),
                    Cmp::Ne => Some(true),
                    Cmp::Other => None,
                };
                (Some(v), b)
            }
            IfKind::Two(cmp) => {
                let rhs = pop(st, false);
                let lhs = pop(st, false);
                self.read_expr(st, &lhs);
                self.read_expr(st, &rhs);
                let (v, c) = match (&lhs, &rhs) {
                    (e, Expr::Const(ConstVal::Int(c))) | (Expr::Const(ConstVal::Int(c)), e) => (Some(e.clone()), Some(*c)),
                    (e, Expr::Const(ConstVal::Null)) | (Expr::Const(ConstVal::Null), e) => (Some(e.clone()), Some(0)),
                    _ => (None, None),
                };
                let b = match (cmp, c) {
                    (Cmp::Eq, Some(c)) => Some(c != 0),
                    (Cmp::Ne, Some(c)) => Some(c == 0),
                    _ => None,
                };
                (v, b)
            }
        };
        let mut taken = st.clone();
        let mut fall = std::mem::replace(st, State { threads: Threads::NoThread, locks: 0, own: PathMap::default(), attrs: PathMap::default(), stack: Vec::new() });
        if let (Some(Expr::Path(p)), Some(b)) = (subject, taken_bool) {
            match fall.attrs.get(&p) {
                Some(Attr::LockHeld) => {
                    assume_lock(&mut taken, b);
                    assume_lock(&mut fall, !b);
                }
                Some(Attr::OnMainThread) => {
                    assume_main(&mut taken, b);
                    assume_main(&mut fall, !b);
                }
                _ => {}
            }
        }
        (taken, fall)
    }

    // ---- calls (5.4-5.7) ----

    fn invoke(&mut self, st: &mut State, kind: InvokeKind, named: &MethodRef) {
        let is_static = kind == InvokeKind::Static;
        if let Some(shape) = (self.env.inline_shape)(named) {
            if self.inline(st, named, &shape) {
                return;
            }
        }
        let computed;
        let cf: &CallFacts = match self.env.facts.calls.get(named) {
            Some(f) => f,
            None => {
                computed = facts::call_facts(self.env.table, self.env.ignore_classes, named);
                &computed
            }
        };
        let args = pop_widths(st, &cf.arg_widths, !is_static);
        let ret_kind = cf.return_kind;
        let resolved = cf.resolved;
        let ret = self.temp();
        st.own.set(&ret, None);
        st.attrs.set(&ret, None);

        // 1. reads of every argument
        for a in &args {
            self.read_expr(st, a);
        }
        // 2. ownership sources
        if cf.ownership_source {
            st.own.set(&ret, Some(OWNED));
        } else if let Some(access) = cf.container.filter(|_| !is_static) {
            // 3-4. container writes/reads
            self.container_call(st, cf, access, &args, &ret);
        } else {
            // 5a. interface call
            if kind == InvokeKind::Interface && cf.interface_candidate {
                self.interface_call(st, named, &args);
            }
            // 5b. thread assertions and queries
            match cf.thread {
                Some(ThreadEffect::AssertMain) => st.threads = Threads::AnyThreadButSelf,
                Some(ThreadEffect::AssertBackground) => st.threads = Threads::AnyThread,
                Some(ThreadEffect::IsMainQuery) => st.attrs.set(&ret, Some(Attr::OnMainThread)),
                None => {}
            }
            // 5c. lock effects, ignored classes, summaries
            match cf.lock {
                Some(LockEffect::TryAcquire) => {
                    st.attrs.set(&ret, Some(Attr::LockHeld));
                    apply_lock_thread(st);
                }
                Some(effect) => {
                    if effect == LockEffect::Release {
                        self.flush_pending_reads(st);
                    }
                    apply_lock_effect(st, effect)
                }
                None if cf.ignored => {}
                None => match (self.env.callee)(&resolved) {
                    Callee::Summary(s) => self.apply_summary(st, &resolved, s, &args, &ret),
                    Callee::Unknown => self.no_summary(st, cf, &args, &ret),
                },
            }
            // 5d. functional
            if cf.functional {
                st.attrs.set(&ret, Some(Attr::Functional));
            }
            // 5e. returns ownership
            if cf.returns_ownership {
                st.own.set(&ret, Some(OWNED));
            }
        }
        if let Some(w) = ret_kind {
            push(st, Expr::Path(ret), w);
        }
    }

    /// 2.4: a synthetic accessor replaced by its single instruction.
    fn inline(&mut self, st: &mut State, named: &MethodRef, shape: &InlineShape) -> bool {
        match shape {
            InlineShape::GetField(f) => self.step(st, &Insn::GetField(*f)),
            InlineShape::GetStatic(f) => self.step(st, &Insn::GetStatic(*f)),
            InlineShape::PutField(f) | InlineShape::PutStatic(f) => {
                let returns = return_kind(named.descriptor.as_str()).is_some();
                let value = pop(st, f.is_wide());
                push(st, value.clone(), f.is_wide());
                let insn = if matches!(shape, InlineShape::PutField(_)) { Insn::PutField(*f) } else { Insn::PutStatic(*f) };
                self.step(st, &insn);
                if returns {
                    push(st, value, f.is_wide());
                }
            }
            InlineShape::Forward(target, kind) => {
                if target == named || self.inline_depth > MAX_INLINE_DEPTH {
                    return false;
                }
                self.inline_depth += 1;
                self.invoke(st, *kind, target);
                self.inline_depth -= 1;
            }
        }
        true
    }

    fn container_call(&mut self, st: &mut State, cf: &CallFacts, access: ContainerAccess, args: &[Expr], ret: &Path) {
        let receiver = match args.first() {
            Some(Expr::Path(p)) => p.clone(),
            _ => return,
        };
        let resolved = &cf.resolved;
        if st.attrs.get(&receiver) == Some(Attr::Synchronized)
            || cf.synchronized_container
            || self.is_synchronized_collection_field(&receiver)
        {
            return;
        }
        let own_pre = own(st, &receiver);
        let kind = match access {
            ContainerAccess::Write => AccessKind::ContainerWrite(receiver.clone(), *resolved),
            ContainerAccess::Read => AccessKind::ContainerRead(receiver.clone(), *resolved),
        };
        let line = self.line;
        self.record(kind, st, own_pre, Trace::empty(), line);
        st.own.set(ret, Some(own_pre));
    }

    fn is_synchronized_collection_field(&self, receiver: &Path) -> bool {
        if receiver.steps.len() != 1 {
            return false;
        }
        match receiver.steps[0] {
            Step::Field { class, name } => self
                .env
                .table
                .field(class, name)
                .map_or(false, |f| f.annotations.iter().any(|a| a.matches("SynchronizedCollection"))),
            Step::Array => false,
        }
    }

    fn interface_call(&mut self, st: &mut State, callee: &MethodRef, args: &[Expr]) {
        let receiver = match args.first() {
            Some(Expr::Path(p)) => p.clone(),
            _ => return,
        };
        if let Some(Step::Field { class, name }) = receiver.steps.last() {
            if self.is_safe_step(*class, *name) {
                return;
            }
        }
        let own_pre = own(st, &receiver);
        let line = self.line;
        self.record(AccessKind::InterfaceCall(receiver, *callee), st, own_pre, Trace::empty(), line);
    }

    fn apply_summary(&mut self, st: &mut State, callee: &MethodRef, s: &Summary, args: &[Expr], ret: &Path) {
        let caller_lock = st.locks > 0;
        let call_site = CallSite { callee: *callee, line: self.line };
        let at = AppliedAt {
            threads: st.threads,
            lock: caller_lock,
            args: args
                .iter()
                .map(|a| (if let Expr::Path(p) = a { Some(p.clone()) } else { None }, own_e(st, a)))
                .collect(),
        };
        let site_key = (self.pc as u32, self.inline_depth);
        let seen = self.applied.entry(site_key).or_default();
        let accesses: &[Access] = if seen.contains(&at) {
            &[]
        } else {
            seen.push(at);
            &s.accesses
        };
        for acc in accesses {
            let path = acc.key.kind.path();
            let new_path = match path.base.formal_index() {
                Some(i) => match args.get(i) {
                    Some(Expr::Path(actual)) => {
                        if actual.steps.len() + path.steps.len() > MAX_PATH_STEPS {
                            continue;
                        }
                        let steps: Steps = if actual.steps.is_empty() {
                            path.steps.clone()
                        } else {
                            actual.steps.iter().chain(path.steps.iter()).copied().collect()
                        };
                        Path { base: actual.base, steps }
                    }
                    _ => continue,
                },
                None => path.clone(),
            };
            if !new_path.base.is_reportable() {
                continue;
            }
            let own_pre = match acc.key.own_pre {
                Own::OwnedIf(set) if set != 0 => {
                    let mut o = OWNED;
                    for (i, a) in args.iter().enumerate().take(64) {
                        if set & (1 << i) != 0 {
                            o = o.join(own_e(st, a));
                        }
                    }
                    o
                }
                other => other,
            };
            if own_pre.is_owned() {
                continue;
            }
            let thread = if acc.key.thread == Threads::AnyThreadButSelf { Threads::AnyThreadButSelf } else { st.threads };
            let key = AccessKey { kind: acc.key.kind.with_path(new_path), thread, lock: acc.key.lock || caller_lock, own_pre };
            // Build the new site (one trace node) only when it is kept (see `Site::preferred`).
            let rank = (call_site.line, acc.site.trace.len() + 1, acc.site.line);
            match self.accesses.entry(key) {
                std::collections::hash_map::Entry::Occupied(mut e) => {
                    let old_rank = (e.get().outer_line(), e.get().trace.len(), e.get().line);
                    if rank <= old_rank {
                        let site = Site { line: acc.site.line, trace: acc.site.trace.prepend(call_site.clone()) };
                        let old = std::mem::replace(e.get_mut(), site.clone());
                        *e.get_mut() = Site::preferred(old, site);
                    }
                }
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(Site { line: acc.site.line, trace: acc.site.trace.prepend(call_site.clone()) });
                }
            }
        }
        st.locks = (st.locks + s.locks).min(LOCK_TOP);
        let ret_own = match s.return_ownership {
            Own::Unowned => Own::Unowned,
            Own::OwnedIf(set) => {
                let mut o = OWNED;
                for (i, a) in args.iter().enumerate().take(64) {
                    if set & (1 << i) != 0 {
                        o = o.join(own_e(st, a));
                    }
                }
                o
            }
        };
        st.own.set(ret, Some(ret_own));
        st.attrs.set(ret, s.return_attribute);
        if s.threads == Threads::AnyThreadButSelf {
            st.threads = Threads::AnyThreadButSelf;
        }
    }

    fn no_summary(&mut self, st: &mut State, cf: &CallFacts, args: &[Expr], ret: &Path) {
        if cf.synchronized_constructor {
            if let Some(Expr::Path(r)) = args.first() {
                st.attrs.set(r, Some(Attr::Synchronized));
            }
        } else if cf.synchronized_converter {
            st.attrs.set(ret, Some(Attr::Synchronized));
        } else if cf.boxing {
            if let Some(Expr::Path(p)) = args.first() {
                if st.attrs.get(p) == Some(Attr::Functional) {
                    st.attrs.set(ret, Some(Attr::Functional));
                }
            }
        } else {
            st.own.set(ret, Some(OWNED));
        }
    }
}

// ---- helpers on states ----

fn push(st: &mut State, e: Expr, wide: bool) {
    st.stack.push(Slot::Val(e));
    if wide {
        st.stack.push(Slot::Top);
    }
}

fn pop(st: &mut State, wide: bool) -> Expr {
    if wide {
        st.stack.pop();
    }
    match st.stack.pop() {
        Some(Slot::Val(e)) => e,
        _ => Expr::Const(ConstVal::Other),
    }
}

/// Pops a call's arguments (and receiver), returned in formal order.
fn pop_args(st: &mut State, descriptor: &str, has_receiver: bool) -> Vec<Expr> {
    pop_widths(st, &param_widths(descriptor), has_receiver)
}

fn pop_widths(st: &mut State, widths: &[bool], has_receiver: bool) -> Vec<Expr> {
    let mut args: Vec<Expr> = widths.iter().rev().map(|w| pop(st, *w)).collect();
    if has_receiver {
        args.push(pop(st, false));
    }
    args.reverse();
    args
}

/// `dup`-family: duplicate the top `n` slots, inserting them `depth` slots further down.
fn dup_slots(st: &mut State, n: usize, depth: usize) {
    let len = st.stack.len();
    if len < n + depth {
        return;
    }
    let top: Vec<Slot> = st.stack[len - n..].to_vec();
    let at = len - n - depth;
    for (k, s) in top.into_iter().enumerate() {
        st.stack.insert(at + k, s);
    }
}

/// 3.4: deep ownership lookup.
fn own(st: &State, p: &Path) -> Own {
    // The longest prefix of `p` with an `OwnedIf` value wins (3.4).
    let mut best: Option<(usize, Own)> = None;
    for (steps, v) in st.own.for_base(p.base) {
        if let Own::OwnedIf(_) = v {
            if steps.len() <= p.steps.len() && *steps == p.steps[..steps.len()] && best.map_or(true, |(l, _)| steps.len() > l) {
                best = Some((steps.len(), v));
            }
        }
    }
    best.map_or(Own::Unowned, |(_, v)| v)
}

fn own_e(st: &State, e: &Expr) -> Own {
    match e {
        Expr::Path(p) => own(st, p),
        Expr::Const(_) => OWNED,
        Expr::Compound(c) => c.own,
    }
}

fn attr_e(st: &State, e: &Expr) -> Option<Attr> {
    match e {
        Expr::Path(p) => st.attrs.get(p),
        Expr::Const(_) => Some(Attr::Functional),
        Expr::Compound(c) => c.attr,
    }
}

fn apply_lock_thread(st: &mut State) {
    if st.threads != Threads::AnyThreadButSelf {
        st.threads = Threads::AnyThread;
    }
}

fn apply_lock_effect(st: &mut State, effect: LockEffect) {
    match effect {
        LockEffect::Acquire => st.locks = (st.locks + 1).min(LOCK_TOP),
        LockEffect::Release => st.locks = st.locks.saturating_sub(1),
        LockEffect::TryAcquire => {}
    }
    apply_lock_thread(st);
}

fn assume_lock(st: &mut State, held: bool) {
    if held {
        st.locks = (st.locks + 1).min(LOCK_TOP);
    } else {
        st.locks = st.locks.saturating_sub(1);
    }
}

fn assume_main(st: &mut State, on_main: bool) {
    st.threads = if on_main { Threads::AnyThreadButSelf } else { Threads::AnyThread };
}

fn has_switch_map(p: &Path) -> bool {
    p.steps.iter().any(|s| matches!(s, Step::Field { name, .. } if name.as_str().contains("$SwitchMap")))
}

/// Drops map entries for temporaries no longer on the stack.
fn gc_temps(st: &mut State) {
    let mut live: Vec<u32> = Vec::new();
    for slot in &st.stack {
        if let Slot::Val(e) = slot {
            for p in e.paths() {
                if let Base::Temp(t) = p.base {
                    live.push(t);
                }
            }
        }
    }
    let keep = |b: &Base| !matches!(b, Base::Temp(t) if !live.contains(t));
    st.own.retain_bases(keep);
    st.attrs.retain_bases(keep);
}

/// 3.8: join of two states at a control-flow merge.
fn join_states(a: &State, b: &State) -> State {
    let stack = if a.stack.len() == b.stack.len() {
        a.stack
            .iter()
            .zip(&b.stack)
            .map(|(x, y)| match (x, y) {
                (Slot::Val(ex), Slot::Val(ey)) if ex == ey => Slot::Val(ex.clone()),
                (Slot::Val(ex), Slot::Val(ey)) => {
                    let mut paths = ex.paths().to_vec();
                    for p in ey.paths() {
                        if !paths.contains(p) {
                            paths.push(p.clone());
                        }
                    }
                    let (ax, ay) = (attr_e(a, ex), attr_e(b, ey));
                    let o = own_e(a, ex).join(own_e(b, ey));
                    Slot::Val(Expr::opaque(paths, if ax == ay { ax } else { None }, o))
                }
                _ => Slot::Top,
            })
            .collect()
    } else {
        let n = a.stack.len().min(b.stack.len());
        a.stack[..n].to_vec()
    };
    State {
        threads: a.threads.join(b.threads),
        locks: a.locks.max(b.locks),
        own: a.own.merge(&b.own, |x, y| Some(x.join(y)), true),
        attrs: a.attrs.merge(&b.attrs, |x, y| (x == y).then_some(x), false),
        stack,
    }
}

