//! Compact encoding of method summaries: every string, method, field and trace
//! node is stored once in a table and referred to by index, so summary files
//! stay small and load fast (traces share their tails, as in memory).

use std::sync::Arc;

use once_cell::sync::OnceCell;

use crate::fxhash::{FxHashMap, FxHashSet};

use serde::{Deserialize, Serialize};

use crate::analysis::domain::*;
use crate::classfile::model::MethodRef;
use crate::sym::Sym;

/// An access key, `(kind, path, callee, thread, lock, own, lock's path)`, as stored in
/// [`KeyColumns`].
type EncodedKey = (u8, Vec<i64>, i64, u8, u8, i64, Option<Vec<i64>>);
/// An access, `[key, line, trace]`; `key` is the distance from the previous access's key
/// (accesses are sorted by key): small, repeating numbers, which compress well.
type EncodedAccesses = (Vec<u32>, Vec<u32>, Vec<i64>);

#[derive(Serialize, Deserialize, Default)]
pub struct Encoded {
    pub strings: Vec<String>,
    /// `[class, name, descriptor]` string indexes.
    pub methods: Vec<[u32; 3]>,
    /// `[class, name]` string indexes.
    pub fields: Vec<[u32; 2]>,
    /// Trace nodes in columns: callee methods, lines, and next nodes (or -1); a node's next
    /// always precedes it.
    pub calls: (Vec<u32>, Vec<u32>, Vec<i64>),
    /// The paths of the access keys, `[base tag, base value, step...]` with a step a field
    /// index or -1 for `[_]`, sorted by content.
    pub paths: Vec<Vec<i64>>,
    /// Access keys (what is accessed, how, under which lock and thread), stored once: most
    /// recur in the summaries of many methods of the chunk (a caller carries its callees').
    pub keys: KeyColumns,
    /// One per summarised method: `[method, threads, locks, releases, return ownership,
    /// return attribute or -1, synchronized field paths, accesses, escaping formals with the
    /// ownership they escape to, formals stored with the path they are stored into, the
    /// path the method returns or none]`.
    #[allow(clippy::type_complexity)]
    pub summaries: Vec<(u32, u8, u8, u8, i64, i8, Vec<Vec<i64>>, EncodedAccesses, Vec<(u16, i64)>, Vec<(u16, Vec<i64>)>, Option<(Vec<i64>, bool)>, Vec<(u16, u8)>)>,
}

/// Access keys sorted by content, one column per part: a column holds values of one kind,
/// which compress about a third better than keys stored whole.
#[derive(Serialize, Deserialize, Default)]
pub struct KeyColumns {
    /// 0 read, 1 write, 2 container read, 3 container write, 4 interface call.
    pub kinds: Vec<u8>,
    /// The index in `paths`, as the difference from the previous key's (keys are sorted by
    /// kind then path: mostly 0 or 1).
    pub path_steps: Vec<i64>,
    /// The container or interface method, or -1.
    pub callees: Vec<i64>,
    pub threads: Vec<u8>,
    pub locks: Vec<u8>,
    pub owns: Vec<i64>,
    /// The index in `paths` of the one lock held, when known, or -1.
    pub lock_paths: Vec<i64>,
}

impl KeyColumns {
    fn len(&self) -> usize {
        self.kinds.len()
    }

    /// Stores keys sorted by content, with their paths' indexes in `paths`.
    fn store(keys: &[EncodedKey], paths: &[Vec<i64>]) -> KeyColumns {
        let mut out = KeyColumns::default();
        let mut previous = 0i64;
        let index_of = |path: &Vec<i64>| paths.binary_search(path).expect("every key's path is in the table") as i64;
        for (kind, path, callee, thread, lock, own, lock_path) in keys {
            let index = index_of(path);
            out.kinds.push(*kind);
            out.path_steps.push(index - previous);
            previous = index;
            out.callees.push(*callee);
            out.threads.push(*thread);
            out.locks.push(*lock);
            out.owns.push(*own);
            out.lock_paths.push(lock_path.as_ref().map_or(-1, index_of));
        }
        out
    }

    /// The path index of every key; an error when the columns disagree or an index is
    /// out of range.
    fn path_indexes(&self, paths: usize) -> Result<Vec<usize>, String> {
        let n = self.kinds.len();
        let columns = [self.path_steps.len(), self.callees.len(), self.threads.len(), self.locks.len(), self.owns.len(), self.lock_paths.len()];
        if columns.iter().any(|&l| l != n) {
            return Err("access key columns of different lengths".into());
        }
        if let Some(bad) = self.lock_paths.iter().find(|&&i| i < -1 || i >= paths as i64) {
            return Err(format!("lock path index {bad} out of range"));
        }
        let mut index = 0i64;
        self.path_steps
            .iter()
            .map(|step| {
                index = index.checked_add(*step).ok_or("access key path index out of range")?;
                usize::try_from(index).ok().filter(|&i| i < paths).ok_or_else(|| format!("access key path index {index} out of range"))
            })
            .collect()
    }
}

fn threads_code(t: Threads) -> u8 {
    match t {
        Threads::NoThread => 0,
        Threads::AnyThreadButSelf => 1,
        Threads::AnyThread => 2,
    }
}

fn threads_of(c: u8) -> Result<Threads, String> {
    Ok(match c {
        0 => Threads::NoThread,
        1 => Threads::AnyThreadButSelf,
        2 => Threads::AnyThread,
        _ => return Err(format!("bad thread value {c}")),
    })
}

/// An access's thread, plus `HANDED` for accesses of handed code (older files have none).
const HANDED: u8 = 4;
/// Plus `STARTED` for handed code of a started thread object on its own fields.
const STARTED: u8 = 8;

fn access_threads_code(k: &AccessKey) -> u8 {
    threads_code(k.thread) | if k.handed { HANDED } else { 0 } | if k.started { STARTED } else { 0 }
}

fn own_code(o: Own) -> i64 {
    match o {
        Own::Unowned => -1,
        Own::OwnedIf(mask) => (mask & (i64::MAX as u64)) as i64,
    }
}

fn own_of(c: i64) -> Own {
    if c < 0 {
        Own::Unowned
    } else {
        Own::OwnedIf(c as u64)
    }
}

fn attr_code(a: Option<Attr>) -> i8 {
    match a {
        None => -1,
        Some(Attr::Functional) => 0,
        Some(Attr::OnMainThread) => 1,
        Some(Attr::LockHeld) => 2,
        Some(Attr::Synchronized) => 3,
        Some(Attr::MainThreadHandle) => 4,
        Some(Attr::CurrentThreadHandle) => 5,
        Some(Attr::Handed(_) | Attr::ThreadOf(_)) => -1,
        Some(Attr::ParallelStream) => 6,
        Some(Attr::MainHandler) => 7,
        Some(Attr::WorkerHandler) => 8,
        Some(Attr::ReadLockHandle) => 9,
        Some(Attr::OffMainThread) => 10,
    }
}

/// A handed formal's thread: 0 background, 1 main, plus 2 when it runs one task at a time.
fn handoff_code(h: &ParamHandoff) -> u8 {
    let target = match h.target {
        Target::Background => 0,
        Target::Main => 1,
    };
    target + if h.serial { 2 } else { 0 }
}

fn handoff_of(formal: u16, c: u8) -> Result<ParamHandoff, String> {
    if c > 3 {
        return Err(format!("bad handoff thread value {c}"));
    }
    let target = if c & 1 == 0 { Target::Background } else { Target::Main };
    Ok(ParamHandoff { formal, target, serial: c & 2 != 0 })
}

fn attr_of(c: i8) -> Option<Attr> {
    match c {
        0 => Some(Attr::Functional),
        1 => Some(Attr::OnMainThread),
        2 => Some(Attr::LockHeld),
        3 => Some(Attr::Synchronized),
        4 => Some(Attr::MainThreadHandle),
        5 => Some(Attr::CurrentThreadHandle),
        6 => Some(Attr::ParallelStream),
        7 => Some(Attr::MainHandler),
        8 => Some(Attr::WorkerHandler),
        9 => Some(Attr::ReadLockHandle),
        10 => Some(Attr::OffMainThread),
        _ => None,
    }
}

/// Index lookups go through hash maps on symbol addresses; the tables' order (and so
/// the indexes) comes from the sorted, content-ordered sets they were built from.
struct Encoder {
    strings: FxHashMap<Sym, u32>,
    methods: FxHashMap<MethodRef, u32>,
    fields: FxHashMap<(Sym, Sym), u32>,
    calls: Vec<(u32, u32, i64)>,
    call_ids: FxHashMap<(u32, u32, i64), i64>,
    /// The entry of each trace node [`Symbols`] met, by its place there (`UNNUMBERED` until
    /// the node is first encoded).
    node_ids: Vec<i64>,
}

impl Encoder {
    fn path(&self, p: &Path) -> Vec<i64> {
        let mut out = Vec::with_capacity(2 + p.steps.len());
        match p.base {
            Base::This => out.extend([0, 0]),
            Base::Param(i) => out.extend([1, i as i64]),
            Base::Static(c) => out.extend([2, self.strings[&c] as i64]),
            // Never in summaries (filtered at creation); kept total for safety.
            Base::Local(i) => out.extend([3, i as i64]),
            Base::Temp(i) => out.extend([4, i as i64]),
        }
        for s in p.steps.iter() {
            out.push(match s {
                Step::Field { class, name } => self.fields[&(*class, *name)] as i64,
                Step::Array => -1,
            });
        }
        out
    }

    fn key(&self, k: &AccessKey) -> EncodedKey {
        let (kind, callee) = match &k.kind {
            AccessKind::Read(_) => (0, -1),
            AccessKind::Write(_) => (1, -1),
            AccessKind::ContainerRead(_, c) => (2, self.methods[c] as i64),
            AccessKind::ContainerWrite(_, c) => (3, self.methods[c] as i64),
            AccessKind::InterfaceCall(_, c) => (4, self.methods[c] as i64),
        };
        let lock_path = k.lock_on.map(|l| self.path(l.path()));
        (kind, self.path(k.kind.path()), callee, access_threads_code(k), k.lock as u8, own_code(k.own_pre), lock_path)
    }

    /// The entry of the trace whose first node is `nodes[place]` (-1: no trace). Entries are
    /// numbered as first met, a node's next before it.
    fn trace(&mut self, nodes: &[TraceNodeEntry], place: i64) -> i64 {
        if place < 0 {
            return -1;
        }
        let known = self.node_ids[place as usize];
        if known != UNNUMBERED {
            return known;
        }
        let (callee, line, next) = nodes[place as usize];
        let next = self.trace(nodes, next);
        // Structurally equal nodes share one entry, whatever their addresses.
        let key = (self.methods[&callee], line, next);
        let id = match self.call_ids.get(&key) {
            Some(id) => *id,
            None => {
                let id = self.calls.len() as i64;
                self.calls.push(key);
                self.call_ids.insert(key, id);
                id
            }
        };
        self.node_ids[place as usize] = id;
        id
    }
}

fn collect_symbols(p: &Path, strings: &mut FxHashSet<Sym>, fields: &mut FxHashSet<(Sym, Sym)>) {
    if let Base::Static(c) = p.base {
        strings.insert(c);
    }
    for s in p.steps.iter() {
        if let Step::Field { class, name } = s {
            strings.insert(*class);
            strings.insert(*name);
            fields.insert((*class, *name));
        }
    }
}

/// Symbols, methods, fields and access keys referred to by summaries.
#[derive(Default)]
struct Symbols<'s> {
    strings: FxHashSet<Sym>,
    methods: FxHashSet<MethodRef>,
    fields: FxHashSet<(Sym, Sym)>,
    /// Access keys in the order first met, and the place of each in that list by its
    /// address: the analysis shares equal keys, so most are met many times and looked at once.
    keys: Vec<&'s AccessKey>,
    key_slots: FxHashMap<usize, u32>,
    /// Trace nodes in the order first met (a node's next before it), and the place of each
    /// in that list by its address: traces share their tails.
    nodes: Vec<TraceNodeEntry>,
    node_slots: FxHashMap<usize, u32>,
    /// For each access, summary after summary: the place of its key in `keys` and of its
    /// trace's first node in `nodes` (-1: no trace).
    access_slots: Vec<(u32, i64)>,
}

/// A trace node as [`Symbols`] keeps it: callee, line, and the place of the next node (-1:
/// none).
type TraceNodeEntry = (MethodRef, u32, i64);

/// A trace node not yet given its entry in [`Encoded::calls`].
const UNNUMBERED: i64 = -2;

impl<'s> Symbols<'s> {
    fn method(&mut self, m: &MethodRef) {
        self.strings.insert(m.class);
        self.strings.insert(m.name);
        self.strings.insert(m.descriptor);
        self.methods.insert(*m);
    }

    /// The place of the trace's first node in `nodes` (-1: no trace). A node met before is
    /// known by its address, without reading it; its rest was met with it.
    fn trace(&mut self, t: &Trace) -> i64 {
        if t.is_empty() {
            return -1;
        }
        let address = t.tail_id();
        if let Some(&place) = self.node_slots.get(&address) {
            return i64::from(place);
        }
        let Some((site, rest, _)) = t.split_first() else { return -1 };
        let next = self.trace(rest);
        self.method(&site.callee);
        self.nodes.push((site.callee, site.line, next));
        let place = self.nodes.len() as u32 - 1;
        self.node_slots.insert(address, place);
        i64::from(place)
    }

    fn summary(mut self, m: &MethodRef, s: &'s Summary) -> Symbols<'s> {
        self.method(m);
        for p in s.synchronized_fields.iter().chain(s.param_stores.iter().map(|(_, p)| p)).chain(s.return_path.iter()) {
            collect_symbols(p, &mut self.strings, &mut self.fields);
        }
        for a in &s.accesses {
            let slot = match self.key_slots.get(&key_address(a)) {
                Some(&slot) => slot,
                None => {
                    collect_symbols(a.key.kind.path(), &mut self.strings, &mut self.fields);
                    if let Some(lock) = a.key.lock_on {
                        collect_symbols(lock.path(), &mut self.strings, &mut self.fields);
                    }
                    if let AccessKind::ContainerRead(_, c) | AccessKind::ContainerWrite(_, c) | AccessKind::InterfaceCall(_, c) =
                        &a.key.kind
                    {
                        self.method(c);
                    }
                    self.keys.push(&a.key);
                    let slot = self.keys.len() as u32 - 1;
                    self.key_slots.insert(key_address(a), slot);
                    slot
                }
            };
            let trace = self.trace(&a.site.trace);
            self.access_slots.push((slot, trace));
        }
        self
    }
}

fn key_address(a: &Access) -> usize {
    Arc::as_ptr(&a.key) as usize
}

/// Encodes summaries given in a deterministic order (sorted by method). Tables are
/// sorted by content and accesses by key and line, so the result depends only on
/// the summaries, not on addresses or thread scheduling.
pub fn encode(summaries: &[(MethodRef, &Summary)]) -> Encoded {
    let symbols = summaries
        .iter()
        .fold(Symbols::default(), |acc, (m, s)| acc.summary(m, s));
    let mut strings: Vec<Sym> = symbols.strings.into_iter().collect();
    let mut methods: Vec<MethodRef> = symbols.methods.into_iter().collect();
    let mut fields: Vec<(Sym, Sym)> = symbols.fields.into_iter().collect();
    strings.sort_unstable();
    methods.sort_unstable();
    fields.sort_unstable();
    let mut enc = Encoder {
        strings: strings.iter().enumerate().map(|(i, s)| (*s, i as u32)).collect(),
        methods: methods.iter().enumerate().map(|(i, m)| (*m, i as u32)).collect(),
        fields: fields.iter().enumerate().map(|(i, f)| (*f, i as u32)).collect(),
        calls: Vec::new(),
        call_ids: FxHashMap::default(),
        node_ids: vec![UNNUMBERED; symbols.nodes.len()],
    };
    // Keys in content order (equal keys that were not shared get one entry), so their
    // indexes do not depend on addresses; paths likewise.
    let mut keyed: Vec<(EncodedKey, u32)> =
        symbols.keys.iter().enumerate().map(|(slot, k)| (enc.key(k), slot as u32)).collect();
    keyed.sort_unstable();
    let mut keys: Vec<EncodedKey> = Vec::new();
    let mut index_of_slot = vec![0u32; keyed.len()];
    for (key, slot) in keyed {
        if keys.last() != Some(&key) {
            keys.push(key);
        }
        index_of_slot[slot as usize] = keys.len() as u32 - 1;
    }
    let mut paths: Vec<Vec<i64>> = keys.iter().flat_map(|k| std::iter::once(&k.1).chain(k.6.as_ref())).cloned().collect();
    paths.sort_unstable();
    paths.dedup();
    let mut slots = symbols.access_slots.iter();
    let encoded: Vec<(Vec<Vec<i64>>, Vec<(u32, u32, i64)>)> = summaries
        .iter()
        .map(|(_, s)| {
            let sync = s.synchronized_fields.iter().map(|p| enc.path(p)).collect();
            let mut accesses: Vec<(u32, u32, i64)> = s
                .accesses
                .iter()
                .zip(slots.by_ref())
                .map(|(a, (slot, trace))| (index_of_slot[*slot as usize], a.site.line, *trace))
                .collect();
            // A summary holds a key once, so this order is total.
            accesses.sort_unstable_by_key(|(key, line, _)| (*key, *line));
            (sync, accesses)
        })
        .collect();
    let mut out_summaries = Vec::with_capacity(summaries.len());
    for ((m, s), (sync, accesses)) in summaries.iter().zip(encoded) {
        let mut previous = 0;
        let mut columns: EncodedAccesses = Default::default();
        for (key, line, trace) in accesses {
            columns.0.push(key - previous);
            previous = key;
            columns.1.push(line);
            columns.2.push(enc.trace(&symbols.nodes, trace));
        }
        let accesses = columns;
        out_summaries.push((
            enc.methods[m],
            threads_code(s.threads),
            s.locks,
            s.releases,
            own_code(s.return_ownership),
            attr_code(s.return_attribute),
            sync,
            accesses,
            s.param_escapes.iter().map(|(i, o)| (*i, own_code(*o))).collect(),
            s.param_stores.iter().map(|(i, p)| (*i, enc.path(p))).collect(),
            s.return_path.as_ref().map(|p| (enc.path(p), s.return_snapshot)),
            s.param_handoffs.iter().map(|h| (h.formal, handoff_code(h))).collect(),
        ));
    }
    Encoded {
        strings: strings.iter().map(|s| s.to_string()).collect(),
        methods: methods.iter().map(|m| [enc.strings[&m.class], enc.strings[&m.name], enc.strings[&m.descriptor]]).collect(),
        fields: fields.iter().map(|(c, n)| [enc.strings[c], enc.strings[n]]).collect(),
        calls: (
            enc.calls.iter().map(|c| c.0).collect(),
            enc.calls.iter().map(|c| c.1).collect(),
            enc.calls.iter().map(|c| c.2).collect(),
        ),
        keys: KeyColumns::store(&keys, &paths),
        paths,
        summaries: out_summaries,
    }
}

/// `n` empty cells.
fn cells<T>(n: usize) -> Vec<OnceCell<T>> {
    (0..n).map(|_| OnceCell::new()).collect()
}

/// The summaries of one chunk, decoded one method at a time on first request: a
/// downstream module usually calls a few methods of the classes it reaches. The shared
/// tables are checked when the chunk is read (index ranges only), and their strings, trace
/// nodes and access keys made when a summary that uses them is decoded.
pub struct Decoder {
    encoded: Encoded,
    syms: Vec<OnceCell<Sym>>,
    traces: Vec<OnceCell<Trace>>,
    /// Access keys, decoded when a summary that holds them is; shared by those summaries.
    keys: Vec<OnceCell<Arc<SharedKey>>>,
    /// The index in `encoded.paths` of each key's path.
    key_paths: Vec<usize>,
    decoded: Vec<OnceCell<Arc<Summary>>>,
}

impl Decoder {
    /// Checks the shared tables' indexes; errors name what is inconsistent (the caller adds
    /// the file name).
    pub fn new(encoded: Encoded) -> Result<Decoder, String> {
        let strings = encoded.strings.len();
        let string = |i: u32| if (i as usize) < strings { Ok(()) } else { Err(format!("string index {i} out of range")) };
        for m in &encoded.methods {
            m.iter().try_for_each(|&i| string(i))?;
        }
        for f in &encoded.fields {
            f.iter().try_for_each(|&i| string(i))?;
        }
        let methods = encoded.methods.len();
        let method = |i: i64| if usize::try_from(i).is_ok_and(|i| i < methods) { Ok(()) } else { Err(format!("method index {i} out of range")) };
        let (callees, lines, nexts) = &encoded.calls;
        if lines.len() != callees.len() || nexts.len() != callees.len() {
            return Err("trace node columns of different lengths".into());
        }
        for (i, (m, next)) in callees.iter().zip(nexts).enumerate() {
            method(*m as i64)?;
            if *next >= i as i64 {
                return Err(format!("trace node {i} refers forward"));
            }
        }
        for s in &encoded.summaries {
            method(s.0 as i64)?;
        }
        let key_paths = encoded.keys.path_indexes(encoded.paths.len())?;
        Ok(Decoder {
            syms: cells(strings),
            traces: cells(callees.len()),
            keys: cells(encoded.keys.len()),
            decoded: cells(encoded.summaries.len()),
            key_paths,
            encoded,
        })
    }

    /// The summary of `m`, if the chunk has one (summaries are sorted by method, and
    /// methods compare by their strings).
    pub fn get(&self, m: &MethodRef) -> Result<Option<Arc<Summary>>, String> {
        let wanted = (m.class.as_str(), m.name.as_str(), m.descriptor.as_str());
        let found = self.encoded.summaries.binary_search_by(|s| self.method_strings(s.0).cmp(&wanted));
        match found {
            Err(_) => Ok(None),
            Ok(i) => self.decoded[i].get_or_try_init(|| self.decode(i).map(Arc::new)).map(|s| Some(s.clone())),
        }
    }

    /// Every summary of the chunk, in the chunk's order.
    pub fn all(&self) -> Result<Vec<(MethodRef, Arc<Summary>)>, String> {
        (0..self.encoded.summaries.len())
            .map(|i| {
                let m = self.method(self.encoded.summaries[i].0 as i64)?;
                Ok((m, self.decoded[i].get_or_try_init(|| self.decode(i).map(Arc::new))?.clone()))
            })
            .collect()
    }

    /// String `i` (checked in [`Decoder::new`] where it comes from the tables).
    fn sym(&self, i: u32) -> Result<Sym, String> {
        let cell = self.syms.get(i as usize).ok_or_else(|| format!("string index {i} out of range"))?;
        Ok(*cell.get_or_init(|| Sym::new(&self.encoded.strings[i as usize])))
    }

    fn method_strings(&self, i: u32) -> (&str, &str, &str) {
        let [c, n, d] = self.encoded.methods[i as usize];
        let s = |i: u32| self.encoded.strings[i as usize].as_str();
        (s(c), s(n), s(d))
    }

    fn method(&self, i: i64) -> Result<MethodRef, String> {
        let [c, n, d] = *usize::try_from(i)
            .ok()
            .and_then(|i| self.encoded.methods.get(i))
            .ok_or_else(|| format!("method index {i} out of range"))?;
        Ok(MethodRef { class: self.sym(c)?, name: self.sym(n)?, descriptor: self.sym(d)? })
    }

    fn field(&self, i: i64) -> Result<Step, String> {
        let [c, n] = *usize::try_from(i)
            .ok()
            .and_then(|i| self.encoded.fields.get(i))
            .ok_or_else(|| format!("field index {i} out of range"))?;
        Ok(Step::Field { class: self.sym(c)?, name: self.sym(n)? })
    }

    /// Trace node `i` with the nodes it leads to, made on first use. A node's next precedes
    /// it (checked in [`Decoder::new`]), so the walk ends; it is a loop, not a recursion, as
    /// traces may be long.
    fn trace(&self, i: usize) -> Result<Trace, String> {
        let cell = |i: usize| self.traces.get(i).ok_or_else(|| format!("trace index {i} out of range"));
        let (callees, lines, nexts) = &self.encoded.calls;
        let mut pending = Vec::new();
        let mut at = i as i64;
        let mut tail = Trace::empty();
        while at >= 0 {
            if let Some(t) = cell(at as usize)?.get() {
                tail = t.clone();
                break;
            }
            pending.push(at as usize);
            at = nexts[at as usize];
        }
        for &n in pending.iter().rev() {
            tail = tail.prepend(CallSite { callee: self.method(callees[n] as i64)?, line: lines[n] });
            let _ = self.traces[n].set(tail.clone());
        }
        Ok(tail)
    }

    fn decode(&self, i: usize) -> Result<Summary, String> {
        let (_, threads, locks, releases, ret_own, ret_attr, sync, accesses, escapes, stores, returned, handoffs) = &self.encoded.summaries[i];
        let (deltas, lines, traces) = accesses;
        if lines.len() != deltas.len() || traces.len() != deltas.len() {
            return Err("access columns of different lengths".into());
        }
        let mut decoded = Vec::with_capacity(deltas.len());
        let mut key = 0u32;
        for ((delta, line), trace) in deltas.iter().zip(lines).zip(traces) {
            key = key.checked_add(*delta).ok_or("access key index out of range")?;
            let trace = if *trace < 0 {
                Trace::empty()
            } else {
                self.trace(*trace as usize)?
            };
            decoded.push(Access { key: self.key(key)?, site: Site { line: *line, trace } });
        }
        Ok(Summary {
            threads: threads_of(*threads)?,
            locks: *locks,
            releases: *releases,
            accesses: decoded,
            return_ownership: own_of(*ret_own),
            return_attribute: attr_of(*ret_attr),
            synchronized_fields: sync.iter().map(|p| self.path(p)).collect::<Result<_, String>>()?,
            param_escapes: escapes.iter().map(|(i, o)| (*i, own_of(*o))).collect(),
            param_stores: stores.iter().map(|(i, p)| Ok((*i, self.path(p)?))).collect::<Result<_, String>>()?,
            return_path: returned.as_ref().map(|(p, _)| self.path(p)).transpose()?,
            return_snapshot: returned.as_ref().is_some_and(|(_, snapshot)| *snapshot),
            own_monitor_statics: Vec::new(),
            returned_field: None,
            param_handoffs: handoffs.iter().map(|(i, c)| handoff_of(*i, *c)).collect::<Result<_, String>>()?,
        })
    }

    /// Access key `i`, decoded on first use and shared by the summaries that hold it.
    fn key(&self, i: u32) -> Result<Arc<SharedKey>, String> {
        let cell = self.keys.get(i as usize).ok_or_else(|| format!("access key index {i} out of range"))?;
        cell.get_or_try_init(|| {
            let (i, columns) = (i as usize, &self.encoded.keys);
            let (kind, callee, thread, lock, own, lock_path) =
                (columns.kinds[i], columns.callees[i], columns.threads[i], columns.locks[i], columns.owns[i], columns.lock_paths[i]);
            let method = |i: i64| self.method(i);
            let p = self.path(&self.encoded.paths[self.key_paths[i]])?;
            let kind = match kind {
                0 => AccessKind::Read(p),
                1 => AccessKind::Write(p),
                2 => AccessKind::ContainerRead(p, method(callee)?),
                3 => AccessKind::ContainerWrite(p, method(callee)?),
                4 => AccessKind::InterfaceCall(p, method(callee)?),
                k => return Err(format!("bad access kind {k}")),
            };
            Ok(Arc::new(SharedKey::new(AccessKey {
                kind,
                thread: threads_of(thread & !(HANDED | STARTED))?,
                lock: lock != 0,
                // Checked in range in `Decoder::new`.
                lock_on: usize::try_from(lock_path).ok().map(|i| self.path(&self.encoded.paths[i]).map(LockPath::new)).transpose()?,
                own_pre: own_of(own),
                handed: thread & HANDED != 0,
                started: thread & STARTED != 0,
            })))
        })
        .cloned()
    }

    fn path(&self, v: &[i64]) -> Result<Path, String> {
        if v.len() < 2 {
            return Err("short path".into());
        }
        let sym = |i: u32| self.sym(i);
        let base = match v[0] {
            0 => Base::This,
            1 => Base::Param(v[1] as u16),
            2 => Base::Static(sym(v[1] as u32)?),
            3 => Base::Local(v[1] as u16),
            4 => Base::Temp(v[1] as u32),
            t => return Err(format!("bad path base {t}")),
        };
        let steps: Steps = v[2..]
            .iter()
            .map(|&f| {
                if f < 0 {
                    Ok(Step::Array)
                } else {
                    self.field(f)
                }
            })
            .collect::<Result<Vec<_>, String>>()?
            .into();
        Ok(Path { base, steps })
    }
}


#[cfg(test)]
mod tests {
    use super::*;

    fn key(field: &str) -> AccessKey {
        let path = Path::of(Base::This).field(Sym::new("p.C"), Sym::new(field)).unwrap();
        AccessKey { kind: AccessKind::Write(path), thread: Threads::AnyThread, lock: false, lock_on: None, own_pre: Own::Unowned, handed: false, started: false }
    }

    fn summary(accesses: Vec<Access>) -> Summary {
        Summary { accesses, ..Summary::empty() }
    }

    fn method(name: &str) -> MethodRef {
        MethodRef { class: Sym::new("p.C"), name: Sym::new(name), descriptor: Sym::new("()V") }
    }

    #[test]
    fn an_access_key_is_stored_once_per_chunk_and_decoded_once() {
        let shared = Arc::new(SharedKey::new(key("f")));
        let at = |line: u32, key: Arc<SharedKey>| Access { key, site: Site { line, trace: Trace::empty() } };
        // Two summaries hold the same key (one shared copy, one equal but separate) and another.
        let a = summary(vec![at(1, shared.clone()), at(2, Arc::new(SharedKey::new(key("g"))))]);
        let b = summary(vec![at(7, shared)]);
        let c = summary(vec![at(3, Arc::new(SharedKey::new(key("f"))))]);
        let encoded = encode(&[(method("a"), &a), (method("b"), &b), (method("c"), &c)]);
        assert_eq!(encoded.keys.len(), 2, "keys f and g, each once");
        let decoder = Decoder::new(encoded).unwrap();
        let decoded = |m: &str| decoder.get(&method(m)).unwrap().unwrap();
        let (da, db, dc) = (decoded("a"), decoded("b"), decoded("c"));
        let f_of = |s: &Summary| s.accesses.iter().find(|x| **x.key == key("f")).unwrap().key.clone();
        assert!(Arc::ptr_eq(&f_of(&da), &f_of(&db)) && Arc::ptr_eq(&f_of(&db), &f_of(&dc)));
        assert_eq!(da.accesses.iter().map(|x| (x.site.line, (**x.key).clone())).collect::<Vec<_>>(), vec![(1, key("f")), (2, key("g"))]);
        assert_eq!(dc.accesses[0].site.line, 3);
    }

    /// Handed code keeps its marks through a summary file: a downstream module would otherwise
    /// see a started thread's own accesses as racing with themselves.
    #[test]
    fn handed_and_started_accesses_keep_their_marks() {
        let marked = |handed: bool, started: bool| AccessKey { handed, started, ..key("f") };
        let at = |line: u32, k: AccessKey| Access { key: Arc::new(SharedKey::new(k)), site: Site { line, trace: Trace::empty() } };
        let s = summary(vec![at(1, marked(true, true)), at(2, marked(true, false)), at(3, marked(false, false))]);
        let decoder = Decoder::new(encode(&[(method("a"), &s)])).unwrap();
        let decoded = decoder.get(&method("a")).unwrap().unwrap();
        let mut marks: Vec<(u32, bool, bool)> = decoded.accesses.iter().map(|a| (a.site.line, a.key.handed, a.key.started)).collect();
        marks.sort();
        assert_eq!(marks, vec![(1, true, true), (2, true, false), (3, false, false)]);
    }

    #[test]
    fn stored_formals_keep_their_location() {
        let kept = Path::of(Base::This).field(Sym::new("p.C"), Sym::new("kept")).unwrap();
        let cache = Path::of(Base::Static(Sym::new("p.D"))).field(Sym::new("p.D"), Sym::new("cache")).unwrap();
        let s = Summary { param_stores: vec![(1, kept), (2, cache)], ..Summary::empty() };
        let decoder = Decoder::new(encode(&[(method("keep"), &s)])).unwrap();
        assert_eq!(*decoder.get(&method("keep")).unwrap().unwrap(), s);
    }

    #[test]
    fn an_access_key_index_out_of_range_is_an_error() {
        let a = summary(vec![Access { key: Arc::new(SharedKey::new(key("f"))), site: Site { line: 1, trace: Trace::empty() } }]);
        let mut encoded = encode(&[(method("a"), &a)]);
        encoded.summaries[0].7 .0[0] = 5;
        let decoder = Decoder::new(encoded).unwrap();
        assert_eq!(decoder.get(&method("a")).err().unwrap(), "access key index 5 out of range");
    }

    #[test]
    fn inconsistent_columns_are_errors() {
        let a = summary(vec![Access { key: Arc::new(SharedKey::new(key("f"))), site: Site { line: 1, trace: Trace::empty() } }]);
        let mut short = encode(&[(method("a"), &a)]);
        short.keys.locks.clear();
        assert_eq!(Decoder::new(short).err().unwrap(), "access key columns of different lengths");
        let mut far = encode(&[(method("a"), &a)]);
        far.keys.path_steps[0] = 3;
        assert_eq!(Decoder::new(far).err().unwrap(), "access key path index 3 out of range");
        let mut lines = encode(&[(method("a"), &a)]);
        lines.summaries[0].7 .1.push(9);
        let decoder = Decoder::new(lines).unwrap();
        assert_eq!(decoder.get(&method("a")).err().unwrap(), "access columns of different lengths");
    }
}
