//! Compact encoding of method summaries: every string, method, field and trace
//! node is stored once in a table and referred to by index, so summary files
//! stay small and load fast (traces share their tails, as in memory).

use serde::{Deserialize, Serialize};

use crate::analysis::domain::*;

mod decode;
mod encode;

pub use decode::Decoder;
pub use encode::encode;

/// An access key, `(kind, path, callee, thread, lock, own, lock's path)`, as stored in
/// [`KeyColumns`]: the paths by their index in [`Encoded::paths`] (-1: no lock path), so
/// keys order as by content, the paths' table being sorted by content.
type EncodedKey = (u8, i64, i64, u8, u8, i64, i64);
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
    /// One per summarised method: `[method, threads, locks, releases, read locks, read
    /// releases, locks held on some return paths only, return ownership, return attribute or
    /// -1, synchronized field paths, accesses, escaping formals with the ownership they escape
    /// to, formals stored with the path they are stored into, the path the method returns or
    /// none, formals' code handed off or run, and the fields of the fresh result holding
    /// objects: each a one-step path over `this` (standing for the result) with the path it
    /// holds]`.
    #[allow(clippy::type_complexity)]
    pub summaries: Vec<(
        u32,
        u8,
        u8,
        u8,
        u8,
        u8,
        u8,
        i64,
        i8,
        Vec<Vec<i64>>,
        EncodedAccesses,
        Vec<(u16, i64)>,
        Vec<(u16, Vec<i64>)>,
        Option<(Vec<i64>, bool)>,
        Vec<(u16, u8)>,
        Vec<(Vec<i64>, Vec<i64>)>,
    )>,
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

    /// Stores keys sorted by content.
    fn store(keys: &[EncodedKey]) -> KeyColumns {
        let mut out = KeyColumns::default();
        let mut previous = 0i64;
        for &(kind, index, callee, thread, lock, own, lock_path) in keys {
            out.kinds.push(kind);
            out.path_steps.push(index - previous);
            previous = index;
            out.callees.push(callee);
            out.threads.push(thread);
            out.locks.push(lock);
            out.owns.push(own);
            out.lock_paths.push(lock_path);
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

/// A summary's thread, plus `OWN_FIELDS_UNSHARED` when its summary says so.
const OWN_FIELDS_UNSHARED: u8 = 16;

/// The code of a summary's thread and whether its own fields are unshared.
fn summary_threads_code(s: &Summary) -> u8 {
    threads_code(s.threads) | if s.own_fields_unshared { OWN_FIELDS_UNSHARED } else { 0 }
}

/// A summary's thread and whether its own fields are unshared, from their code.
fn summary_threads_of(c: u8) -> Result<(Threads, bool), String> {
    Ok((threads_of(c & !OWN_FIELDS_UNSHARED)?, c & OWN_FIELDS_UNSHARED != 0))
}

/// An access's thread, plus `HANDED` for accesses of handed code (older files have none).
const HANDED: u8 = 4;
/// Plus `STARTED` for handed code of a started thread object on its own fields.
const STARTED: u8 = 8;
/// Plus `ONCE` for code a constructor hands over once (see `AccessKey::once`).
const ONCE: u8 = 16;
/// Plus `JOINED` for handed code of a thread the method joins. Which thread, and which of the
/// method's own accesses are made while it runs, matter only to the method's own class, which
/// is reported on from the summaries of its own run: to callers, its threads are many
/// (`JoinedThread::MANY`) and what it does itself is done where they call it.
const JOINED: u8 = 32;

fn access_threads_code(k: &AccessKey) -> u8 {
    threads_code(k.thread)
        | if k.handed { HANDED } else { 0 }
        | if k.started { STARTED } else { 0 }
        | if k.once { ONCE } else { 0 }
        | if k.joined.is_some() { JOINED } else { 0 }
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
        // Never in a summary (`Attr::is_local`).
        Some(
            Attr::Handed(_) | Attr::ThreadOf(_) | Attr::ExecutorMadeAt(_) | Attr::LatchMadeAt(_) | Attr::FlowMadeAt(_) | Attr::LooperExecutor,
        ) => -1,
        Some(Attr::ParallelStream) => 6,
        Some(Attr::MainHandler) => 7,
        Some(Attr::WorkerHandler) => 8,
        Some(Attr::ReadLockHandle) => 9,
        Some(Attr::OffMainThread) => 10,
        Some(Attr::BackgroundDispatcher) => 11,
        Some(Attr::WorkGuard) => 12,
        // 13 to 15: background, background one task at a time, main thread.
        Some(Attr::Scheduler(Scheduler { target: Target::Background, serial })) => 13 + i8::from(serial),
        Some(Attr::Scheduler(Scheduler { target: Target::Main, .. })) => 15,
        Some(Attr::ReadLockHeld) => 16,
        Some(Attr::DirectExecutor) => 17,
        Some(Attr::TaskFuture) => 18,
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

/// A formal run during the call shares the handoffs' list, with codes of its own.
fn run_code(r: &ParamRun) -> u8 {
    RUN_UNLOCKED + u8::from(r.locked)
}

const RUN_UNLOCKED: u8 = 4;

fn is_run_code(c: u8) -> bool {
    c == RUN_UNLOCKED || c == RUN_UNLOCKED + 1
}

fn run_of(formal: u16, c: u8) -> ParamRun {
    ParamRun { formal, locked: c == RUN_UNLOCKED + 1 }
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
        11 => Some(Attr::BackgroundDispatcher),
        12 => Some(Attr::WorkGuard),
        13 | 14 => Some(Attr::Scheduler(Scheduler { target: Target::Background, serial: c == 14 })),
        15 => Some(Attr::Scheduler(Scheduler { target: Target::Main, serial: false })),
        16 => Some(Attr::ReadLockHeld),
        17 => Some(Attr::DirectExecutor),
        18 => Some(Attr::TaskFuture),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::classfile::model::MethodRef;
    use crate::sym::Sym;

    fn key(field: &str) -> AccessKey {
        let path = Path::of(Base::This).field(Sym::new("p.C"), Sym::new(field)).unwrap();
        AccessKey { kind: AccessKind::Write(path), thread: Threads::AnyThread, lock: false, lock_on: None, own_pre: Own::Unowned, handed: false, started: false, once: false, joined: None, during: false }
    }

    fn summary(accesses: Vec<Access>) -> Summary {
        Summary { accesses, ..Summary::empty() }
    }

    fn method(name: &str) -> MethodRef {
        MethodRef { class: Sym::new("p.C"), name: Sym::new(name), descriptor: Sym::new("()V") }
    }

    #[test]
    fn an_access_key_is_stored_once_per_chunk_and_decoded_once() {
        let shared = KeyRef::new(SharedKey::new(key("f")));
        let at = |line: u32, key: KeyRef| Access { key, site: Site { line, trace: Trace::empty() } };
        // Two summaries hold the same key (one shared copy, one equal but separate) and another.
        let a = summary(vec![at(1, shared.clone()), at(2, KeyRef::new(SharedKey::new(key("g"))))]);
        let b = summary(vec![at(7, shared)]);
        let c = summary(vec![at(3, KeyRef::new(SharedKey::new(key("f"))))]);
        let encoded = encode(&[(method("a"), &a), (method("b"), &b), (method("c"), &c)]);
        assert_eq!(encoded.keys.len(), 2, "keys f and g, each once");
        let decoder = Decoder::new(encoded).unwrap();
        let decoded = |m: &str| decoder.get(&method(m)).unwrap().unwrap();
        let (da, db, dc) = (decoded("a"), decoded("b"), decoded("c"));
        let f_of = |s: &Summary| s.accesses.iter().find(|x| **x.key == key("f")).unwrap().key.clone();
        assert!(KeyRef::ptr_eq(&f_of(&da), &f_of(&db)) && KeyRef::ptr_eq(&f_of(&db), &f_of(&dc)));
        assert_eq!(da.accesses.iter().map(|x| (x.site.line, (**x.key).clone())).collect::<Vec<_>>(), vec![(1, key("f")), (2, key("g"))]);
        assert_eq!(dc.accesses[0].site.line, 3);
    }

    /// Handed code keeps its marks through a summary file: a downstream module would otherwise
    /// see a started thread's own accesses as racing with themselves.
    #[test]
    fn handed_and_started_accesses_keep_their_marks() {
        let marked = |handed: bool, started: bool, once: bool| AccessKey { handed, started, once, ..key("f") };
        let at = |line: u32, k: AccessKey| Access { key: KeyRef::new(SharedKey::new(k)), site: Site { line, trace: Trace::empty() } };
        let s = summary(vec![
            at(1, marked(true, true, false)),
            at(2, marked(true, false, false)),
            at(3, marked(false, false, false)),
            at(4, marked(true, true, true)),
        ]);
        let decoder = Decoder::new(encode(&[(method("a"), &s)])).unwrap();
        let decoded = decoder.get(&method("a")).unwrap().unwrap();
        let mut marks: Vec<(u32, bool, bool, bool)> =
            decoded.accesses.iter().map(|a| (a.site.line, a.key.handed, a.key.started, a.key.once)).collect();
        marks.sort();
        assert_eq!(marks, vec![(1, true, true, false), (2, true, false, false), (3, false, false, false), (4, true, true, true)]);
    }

    /// A thread its method joins stays joined for callers in other modules, as one of many
    /// (which thread, and what the method does while it runs, concern its own class only).
    #[test]
    fn joined_threads_stay_joined_as_many() {
        let joined = |thread: Option<JoinedThread>, during: bool| AccessKey { handed: thread.is_some(), joined: thread, during, ..key("f") };
        let at = |line: u32, k: AccessKey| Access { key: KeyRef::new(SharedKey::new(k)), site: Site { line, trace: Trace::empty() } };
        let s = summary(vec![
            at(1, joined(Some(JoinedThread::made_at(7)), false)),
            at(2, joined(Some(JoinedThread::MANY), false)),
            at(3, joined(None, true)),
        ]);
        let decoder = Decoder::new(encode(&[(method("a"), &s)])).unwrap();
        let decoded = decoder.get(&method("a")).unwrap().unwrap();
        let mut marks: Vec<(u32, Option<JoinedThread>, bool)> =
            decoded.accesses.iter().map(|a| (a.site.line, a.key.joined, a.key.during)).collect();
        marks.sort();
        let many = Some(JoinedThread::MANY);
        assert_eq!(marks, vec![(1, many, false), (2, many, false), (3, None, false)]);
    }

    /// Every attribute a method may return keeps its code through a summary file (a helper
    /// returning `Dispatchers.IO` tells a caller in another module where its block runs).
    #[test]
    fn returned_attributes_keep_their_codes() {
        let all = [
            Attr::Functional,
            Attr::OnMainThread,
            Attr::OffMainThread,
            Attr::LockHeld,
            Attr::Synchronized,
            Attr::MainThreadHandle,
            Attr::CurrentThreadHandle,
            Attr::ParallelStream,
            Attr::MainHandler,
            Attr::WorkerHandler,
            Attr::ReadLockHandle,
            Attr::BackgroundDispatcher,
            Attr::WorkGuard,
            Attr::Scheduler(Scheduler { target: Target::Background, serial: false }),
            Attr::Scheduler(Scheduler { target: Target::Background, serial: true }),
            Attr::Scheduler(Scheduler { target: Target::Main, serial: false }),
            Attr::ReadLockHeld,
            Attr::DirectExecutor,
            Attr::TaskFuture,
        ];
        for a in all {
            assert_eq!(attr_of(attr_code(Some(a))), Some(a), "{a:?}");
        }
        assert_eq!(attr_code(Some(Attr::Handed(3))), -1);
    }

    /// The lock counts a caller applies keep their values downstream, the locks held on some
    /// return paths only included (a caller's release of those is none of its callers').
    #[test]
    fn lock_counts_keep_their_values() {
        let s = Summary { locks: 1, releases: 2, read_locks: 3, read_releases: 4, may_locks: 5, ..Summary::empty() };
        let decoder = Decoder::new(encode(&[(method("pool"), &s)])).unwrap();
        assert_eq!(*decoder.get(&method("pool")).unwrap().unwrap(), s);
    }

    /// A method that runs on any thread only by another object's lock says so downstream, for
    /// each thread value.
    #[test]
    fn foreign_lock_threads_keep_their_mark() {
        for threads in [Threads::NoThread, Threads::AnyThreadButSelf, Threads::AnyThread] {
            for own_fields_unshared in [false, true] {
                let s = Summary { threads, own_fields_unshared, ..Summary::empty() };
                let decoder = Decoder::new(encode(&[(method("lend"), &s)])).unwrap();
                assert_eq!(*decoder.get(&method("lend")).unwrap().unwrap(), s);
            }
        }
    }

    #[test]
    fn stored_formals_keep_their_location() {
        let kept = Path::of(Base::This).field(Sym::new("p.C"), Sym::new("kept")).unwrap();
        let cache = Path::of(Base::Static(Sym::new("p.D"))).field(Sym::new("p.D"), Sym::new("cache")).unwrap();
        let s = Summary { param_stores: thin_vec::thin_vec![(1, kept), (2, cache)], ..Summary::empty() };
        let decoder = Decoder::new(encode(&[(method("keep"), &s)])).unwrap();
        assert_eq!(*decoder.get(&method("keep")).unwrap().unwrap(), s);
    }

    #[test]
    fn a_fresh_results_held_fields_keep_what_they_hold() {
        let knot = Step::Field { class: Sym::new("p.Wrap"), name: Sym::new("knot") };
        let head = Path::of(Base::Param(1)).field(Sym::new("p.C"), Sym::new("head")).unwrap();
        let cache = Path::of(Base::Static(Sym::new("p.D"))).field(Sym::new("p.D"), Sym::new("cache")).unwrap();
        let s = Summary { return_ownership: OWNED, return_holds: thin_vec::thin_vec![(knot, head), (Step::Array, cache)], ..Summary::empty() };
        let decoder = Decoder::new(encode(&[(method("of"), &s)])).unwrap();
        assert_eq!(*decoder.get(&method("of")).unwrap().unwrap(), s);
    }

    /// A write through an instance native method's result (native results) is rooted at that
    /// method, downstream as here.
    #[test]
    fn a_native_result_root_keeps_its_method() {
        let root = Path::of(Base::NativeResult(Sym::new("p.C.current")));
        let through = root.field(Sym::new("p.Node"), Sym::new("value")).unwrap();
        let k = AccessKey { kind: AccessKind::Write(through), ..key("f") };
        let s = summary(vec![Access { key: KeyRef::new(SharedKey::new(k.clone())), site: Site { line: 4, trace: Trace::empty() } }]);
        let decoder = Decoder::new(encode(&[(method("a"), &s)])).unwrap();
        assert_eq!(**decoder.get(&method("a")).unwrap().unwrap().accesses[0].key, k);
    }

    #[test]
    fn an_access_key_index_out_of_range_is_an_error() {
        let a = summary(vec![Access { key: KeyRef::new(SharedKey::new(key("f"))), site: Site { line: 1, trace: Trace::empty() } }]);
        let mut encoded = encode(&[(method("a"), &a)]);
        encoded.summaries[0].10 .0[0] = 5;
        let decoder = Decoder::new(encoded).unwrap();
        assert_eq!(decoder.get(&method("a")).err().unwrap(), "access key index 5 out of range");
    }

    #[test]
    fn inconsistent_columns_are_errors() {
        let a = summary(vec![Access { key: KeyRef::new(SharedKey::new(key("f"))), site: Site { line: 1, trace: Trace::empty() } }]);
        let mut short = encode(&[(method("a"), &a)]);
        short.keys.locks.clear();
        assert_eq!(Decoder::new(short).err().unwrap(), "access key columns of different lengths");
        let mut far = encode(&[(method("a"), &a)]);
        far.keys.path_steps[0] = 3;
        assert_eq!(Decoder::new(far).err().unwrap(), "access key path index 3 out of range");
        let mut lines = encode(&[(method("a"), &a)]);
        lines.summaries[0].10 .1.push(9);
        let decoder = Decoder::new(lines).unwrap();
        assert_eq!(decoder.get(&method("a")).err().unwrap(), "access columns of different lengths");
    }
}
