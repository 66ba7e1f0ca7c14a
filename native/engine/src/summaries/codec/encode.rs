//! Encoding a chunk's summaries: the symbols, methods, fields, trace nodes and access keys
//! they use gathered into tables sorted by content, and each summary as indexes into them.

use std::hash::{Hash, Hasher};

use crate::classfile::model::MethodRef;
use crate::fxhash::{FxHashMap, FxHashSet};
use crate::sym::Sym;

use super::*;

/// A symbol hashed and compared by its address: the sets and maps of the encoding are only
/// looked up (their order comes from sorting by content), so a lookup need not read the symbol.
#[derive(Clone, Copy, PartialEq, Eq)]
struct ById(Sym);

impl Hash for ById {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_usize(self.0.address())
    }
}

fn method_id(m: &MethodRef) -> [ById; 3] {
    [ById(m.class), ById(m.name), ById(m.descriptor)]
}

fn field_id(class: Sym, name: Sym) -> [ById; 2] {
    [ById(class), ById(name)]
}

/// Index lookups go through hash maps on symbol addresses; the tables' order (and so
/// the indexes) comes from the sorted, content-ordered sets they were built from.
struct Encoder {
    strings: FxHashMap<ById, u32>,
    methods: FxHashMap<[ById; 3], u32>,
    fields: FxHashMap<[ById; 2], u32>,
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
            Base::Static(c) => out.extend([2, self.strings[&ById(c)] as i64]),
            Base::NativeResult(m) => out.extend([5, self.strings[&ById(m)] as i64]),
            // Never in summaries (filtered at creation); kept total for safety.
            Base::Local(i) => out.extend([3, i as i64]),
            Base::Temp(i) => out.extend([4, i as i64]),
        }
        for s in p.steps.iter() {
            out.push(match s {
                Step::Field { class, name } => self.fields[&field_id(*class, *name)] as i64,
                Step::Array => -1,
            });
        }
        out
    }

    /// Key `k`, whose path and lock path have indexes `path` and `lock_path` (-1: none) in
    /// the table of paths.
    fn key(&self, k: &AccessKey, path: i64, lock_path: i64) -> EncodedKey {
        let (kind, callee) = match &k.kind {
            AccessKind::Read(_) => (0, -1),
            AccessKind::Write(_) => (1, -1),
            AccessKind::ContainerRead(_, c) => (2, self.methods[&method_id(c)] as i64),
            AccessKind::ContainerWrite(_, c) => (3, self.methods[&method_id(c)] as i64),
            AccessKind::InterfaceCall(_, c) => (4, self.methods[&method_id(c)] as i64),
        };
        (kind, path, callee, access_threads_code(k), k.lock as u8, own_code(k.own_pre), lock_path)
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
        let key = (self.methods[&method_id(callee)], line, next);
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

fn collect_symbols(p: &Path, strings: &mut FxHashSet<ById>, fields: &mut FxHashSet<[ById; 2]>) {
    if let Base::Static(c) | Base::NativeResult(c) = p.base {
        strings.insert(ById(c));
    }
    for s in p.steps.iter() {
        if let Step::Field { class, name } = s {
            strings.insert(ById(*class));
            strings.insert(ById(*name));
            fields.insert(field_id(*class, *name));
        }
    }
}

/// Symbols, methods, fields and access keys referred to by summaries.
#[derive(Default)]
struct Symbols<'s> {
    strings: FxHashSet<ById>,
    methods: FxHashSet<[ById; 3]>,
    fields: FxHashSet<[ById; 2]>,
    /// Access keys in the order first met, and the place of each in that list by its
    /// address: the analysis shares equal keys, so most are met many times and looked at once.
    keys: Vec<&'s AccessKey>,
    key_slots: FxHashMap<usize, u32>,
    /// Trace nodes in the order first met (a node's next before it), and the place of each
    /// in that list by its address: traces share their tails.
    nodes: Vec<TraceNodeEntry>,
    node_slots: FxHashMap<usize, u32>,
    /// The callees of the nodes met, by address (they are interned): most nodes call a
    /// method met before, and its symbols need not be hashed again.
    callees: FxHashSet<usize>,
    /// For each access, summary after summary: the place of its key in `keys` and of its
    /// trace's first node in `nodes` (-1: no trace).
    access_slots: Vec<(u32, i64)>,
}

/// A trace node as [`Symbols`] keeps it: callee, line, and the place of the next node (-1:
/// none).
type TraceNodeEntry = (&'static MethodRef, u32, i64);

/// A trace node not yet given its entry in [`Encoded::calls`].
const UNNUMBERED: i64 = -2;

impl<'s> Symbols<'s> {
    fn method(&mut self, m: &MethodRef) {
        self.strings.extend(method_id(m));
        self.methods.insert(method_id(m));
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
        let Some((callee, line, rest)) = t.split_first() else { return -1 };
        let next = self.trace(rest);
        if self.callees.insert(callee as *const MethodRef as usize) {
            self.method(callee);
        }
        self.nodes.push((callee, line, next));
        let place = self.nodes.len() as u32 - 1;
        self.node_slots.insert(address, place);
        i64::from(place)
    }

    fn summary(mut self, m: &MethodRef, s: &'s Summary) -> Symbols<'s> {
        self.method(m);
        for p in s.synchronized_fields.iter().chain(s.param_stores.iter().map(|(_, p)| p)).chain(s.return_path.iter()) {
            collect_symbols(p, &mut self.strings, &mut self.fields);
        }
        for (step, p) in &s.return_holds {
            collect_symbols(&result_field(*step), &mut self.strings, &mut self.fields);
            collect_symbols(p, &mut self.strings, &mut self.fields);
        }
        for (n, a) in s.accesses.iter().enumerate() {
            // A trace node met first is read, a cache miss each (see `crate::prefetch`).
            crate::prefetch::ahead(&s.accesses, n, |a| a.site.trace.tail_id() as *const u8);
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
    KeyRef::as_ptr(&a.key) as usize
}

/// Encodes summaries given in a deterministic order (sorted by method). Tables are
/// sorted by content and accesses by key and line, so the result depends only on
/// the summaries, not on addresses or thread scheduling.
pub fn encode(summaries: &[(MethodRef, &Summary)]) -> Encoded {
    let symbols = summaries
        .iter()
        .fold(Symbols::default(), |acc, (m, s)| acc.summary(m, s));
    let mut strings: Vec<Sym> = symbols.strings.into_iter().map(|s| s.0).collect();
    let mut methods: Vec<MethodRef> =
        symbols.methods.into_iter().map(|[class, name, descriptor]| MethodRef { class: class.0, name: name.0, descriptor: descriptor.0 }).collect();
    let mut fields: Vec<(Sym, Sym)> = symbols.fields.into_iter().map(|[class, name]| (class.0, name.0)).collect();
    strings.sort_unstable();
    methods.sort_unstable();
    fields.sort_unstable();
    let mut enc = Encoder {
        strings: strings.iter().enumerate().map(|(i, s)| (ById(*s), i as u32)).collect(),
        methods: methods.iter().enumerate().map(|(i, m)| (method_id(m), i as u32)).collect(),
        fields: fields.iter().enumerate().map(|(i, (c, n))| (field_id(*c, *n), i as u32)).collect(),
        calls: Vec::new(),
        call_ids: FxHashMap::default(),
        node_ids: vec![UNNUMBERED; symbols.nodes.len()],
    };
    // The keys' paths in a table sorted by content; keys refer to them by index, so they
    // sort as numbers, in the order of their content. Keys share paths: each distinct one is
    // encoded once.
    let mut distinct = DistinctPaths::default();
    let key_paths: Vec<(u32, Option<u32>)> =
        symbols.keys.iter().map(|k| (distinct.place(k.kind.path()), k.lock_on.map(|l| distinct.place(l.path())))).collect();
    let (paths, index_of_place) = sorted_distinct(distinct.paths.iter().map(|p| enc.path(p)).collect());
    // Keys in content order (equal keys that were not shared get one entry), so their
    // indexes do not depend on addresses.
    let keyed: Vec<EncodedKey> = symbols
        .keys
        .iter()
        .zip(&key_paths)
        .map(|(k, (path, lock))| {
            let lock = lock.map_or(-1, |l| i64::from(index_of_place[l as usize]));
            enc.key(k, i64::from(index_of_place[*path as usize]), lock)
        })
        .collect();
    let (keys, index_of_slot) = sorted_distinct(keyed);
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
            enc.methods[&method_id(m)],
            summary_threads_code(s),
            s.locks,
            s.releases,
            s.read_locks,
            s.read_releases,
            s.may_locks,
            own_code(s.return_ownership),
            attr_code(s.return_attribute),
            sync,
            accesses,
            s.param_escapes.iter().map(|(i, o)| (*i, own_code(*o))).collect(),
            s.param_stores.iter().map(|(i, p)| (*i, enc.path(p))).collect(),
            s.return_path.as_ref().map(|p| (enc.path(p), s.return_snapshot)),
            s.param_handoffs
                .iter()
                .map(|h| (h.formal, handoff_code(h)))
                .chain(s.param_runs.iter().map(|r| (r.formal, run_code(r))))
                .collect(),
            s.return_holds.iter().map(|(step, p)| (enc.path(&result_field(*step)), enc.path(p))).collect(),
        ));
    }
    Encoded {
        strings: strings.iter().map(|s| s.to_string()).collect(),
        methods: methods.iter().map(|m| method_id(m).map(|s| enc.strings[&s])).collect(),
        fields: fields.iter().map(|(c, n)| field_id(*c, *n).map(|s| enc.strings[&s])).collect(),
        calls: (
            enc.calls.iter().map(|c| c.0).collect(),
            enc.calls.iter().map(|c| c.1).collect(),
            enc.calls.iter().map(|c| c.2).collect(),
        ),
        keys: KeyColumns::store(&keys),
        paths,
        summaries: out_summaries,
    }
}

/// `items` sorted by content, each once, and the index there of each item given: the tables'
/// order and so the indexes depend only on what they hold.
fn sorted_distinct<T: Ord>(items: Vec<T>) -> (Vec<T>, Vec<u32>) {
    let mut by_content: Vec<(T, u32)> = items.into_iter().zip(0..).collect();
    by_content.sort_unstable();
    let mut distinct: Vec<T> = Vec::with_capacity(by_content.len());
    let mut index_of = vec![0u32; by_content.len()];
    for (item, given) in by_content {
        if distinct.last() != Some(&item) {
            distinct.push(item);
        }
        index_of[given as usize] = distinct.len() as u32 - 1;
    }
    (distinct, index_of)
}

/// Paths in the order first met, each once, with the place of each by content.
#[derive(Default)]
struct DistinctPaths<'p> {
    paths: Vec<&'p Path>,
    places: FxHashMap<&'p Path, u32>,
}

impl<'p> DistinctPaths<'p> {
    fn place(&mut self, p: &'p Path) -> u32 {
        *self.places.entry(p).or_insert_with(|| {
            self.paths.push(p);
            self.paths.len() as u32 - 1
        })
    }
}

/// A field of a method's result, encoded as a one-step path over `this`.
fn result_field(step: Step) -> Path {
    Path::of(Base::This).with(step).expect("a one-step path")
}
