//! Decoding a chunk's summaries, one method at a time on first request.

use std::sync::Arc;

use once_cell::sync::OnceCell;

use crate::classfile::model::MethodRef;
use crate::sym::Sym;

use super::*;

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
    keys: Vec<OnceCell<KeyRef>>,
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
        let (_, threads, locks, releases, read_locks, read_releases, may_locks, ret_own, ret_attr, sync, accesses, escapes, stores, returned, handoffs, holds) =
            &self.encoded.summaries[i];
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
        let (threads, own_fields_unshared) = summary_threads_of(*threads)?;
        Ok(Summary {
            threads,
            own_fields_unshared,
            locks: *locks,
            releases: *releases,
            read_locks: *read_locks,
            read_releases: *read_releases,
            may_locks: *may_locks,
            accesses: decoded,
            return_ownership: own_of(*ret_own),
            return_attribute: attr_of(*ret_attr),
            synchronized_fields: sync.iter().map(|p| self.path(p)).collect::<Result<_, String>>()?,
            param_escapes: escapes.iter().map(|(i, o)| (*i, own_of(*o))).collect(),
            param_stores: stores.iter().map(|(i, p)| Ok((*i, self.path(p)?))).collect::<Result<_, String>>()?,
            return_path: returned.as_ref().map(|(p, _)| self.path(p)).transpose()?,
            return_snapshot: returned.as_ref().is_some_and(|(_, snapshot)| *snapshot),
            return_holds: holds.iter().map(|(field, p)| Ok((self.result_field(field)?, self.path(p)?))).collect::<Result<_, String>>()?,
            own_monitor_statics: thin_vec::ThinVec::new(),
            returned_field: None,
            param_handoffs: handoffs
                .iter()
                .filter(|(_, c)| !is_run_code(*c))
                .map(|(i, c)| handoff_of(*i, *c))
                .collect::<Result<_, String>>()?,
            param_runs: handoffs.iter().filter(|(_, c)| is_run_code(*c)).map(|(i, c)| run_of(*i, *c)).collect(),
        })
    }

    /// Access key `i`, decoded on first use and shared by the summaries that hold it.
    fn key(&self, i: u32) -> Result<KeyRef, String> {
        let cell = self.keys.get(i as usize).ok_or_else(|| format!("access key index {i} out of range"))?;
        cell.get_or_try_init(|| {
            let (i, columns) = (i as usize, &self.encoded.keys);
            let (kind, callee, thread, lock, own, lock_path) =
                (columns.kinds[i], columns.callees[i], columns.threads[i], columns.locks[i], columns.owns[i], columns.lock_paths[i]);
            let method = |i: i64| self.method(i).map(CalledMethod::new);
            let p = self.path(&self.encoded.paths[self.key_paths[i]])?;
            let kind = match kind {
                0 => AccessKind::Read(p),
                1 => AccessKind::Write(p),
                2 => AccessKind::ContainerRead(p, method(callee)?),
                3 => AccessKind::ContainerWrite(p, method(callee)?),
                4 => AccessKind::InterfaceCall(p, method(callee)?),
                k => return Err(format!("bad access kind {k}")),
            };
            Ok(KeyRef::new(SharedKey::new(AccessKey {
                kind,
                thread: threads_of(thread & !(HANDED | STARTED | ONCE | JOINED))?,
                lock: lock != 0,
                // Checked in range in `Decoder::new`.
                lock_on: usize::try_from(lock_path).ok().map(|i| self.path(&self.encoded.paths[i]).map(LockPath::new)).transpose()?,
                own_pre: own_of(own),
                handed: thread & HANDED != 0,
                started: thread & STARTED != 0,
                once: thread & ONCE != 0,
                joined: (thread & JOINED != 0).then_some(JoinedThread::MANY),
                during: false,
            })))
        })
        .cloned()
    }

    /// A field of the method's result (see the encoder's `result_field`).
    fn result_field(&self, v: &[i64]) -> Result<Step, String> {
        match &self.path(v)?.steps[..] {
            [step] => Ok(*step),
            _ => Err("a result's field that is not one step".into()),
        }
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
            5 => Base::NativeResult(sym(v[1] as u32)?),
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
