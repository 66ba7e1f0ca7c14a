//! What each fuzz target does with one input. Shared by the fuzz targets (`fuzz/`) and
//! by the regression test that replays every saved input (`native/engine/tests/fuzz_inputs.rs`).
//!
//! A target fails only on what must never happen: a panic that escapes, or an
//! "internal error" (a panic the engine caught). Errors and warnings about bad input
//! are the expected outcome.

use std::fs;
use std::path::{Path, PathBuf};

use racer::api::{Options, Request, REQUEST_VERSION};

/// A small valid class (the fuzzed requests analyse it).
const SEED_CLASS: &[u8] = include_bytes!("../seeds/classfile/Racy.class");

/// A scratch directory per process and target, reused by every run.
pub struct Sandbox {
    dir: PathBuf,
}

impl Sandbox {
    pub fn new(target: &str) -> Sandbox {
        let dir = std::env::temp_dir().join(format!("racer-fuzz-{target}-{}", std::process::id()));
        fs::create_dir_all(dir.join("in")).unwrap();
        fs::create_dir_all(dir.join("out")).unwrap();
        fs::create_dir_all(dir.join("empty")).unwrap();
        fs::write(dir.join("in/Racy.class"), SEED_CLASS).unwrap();
        Sandbox { dir }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.join(rel)
    }
}

fn request(inputs: Vec<PathBuf>) -> Request {
    Request {
        request_version: REQUEST_VERSION,
        inputs,
        options: Options { threads: 1, ..Options::default() },
        ..Request::default()
    }
}

fn must_not_be_internal(result: Result<racer::Response, racer::Error>) {
    if let Err(e) = result {
        assert!(!e.0.contains("internal error"), "{}", e.0);
    }
}

/// Class file -> model -> analysis: a single class, or a jar when the bytes are a zip.
pub fn classfile(sandbox: &Sandbox, data: &[u8]) {
    let path = sandbox.path(if data.starts_with(b"PK") { "input.jar" } else { "Input.class" });
    fs::write(&path, data).unwrap();
    must_not_be_internal(racer::analyze(&request(vec![path])));
}

/// The summary-file decoder, through the public request: one upstream summary file.
pub fn summaries(sandbox: &Sandbox, data: &[u8]) {
    let path = sandbox.path("upstream.summaries");
    fs::write(&path, data).unwrap();
    let mut req = request(vec![sandbox.path("in")]);
    req.summaries_in = vec![path];
    must_not_be_internal(racer::analyze(&req));
}

/// The request JSON as the JNI library receives it. Every path in a decoded request is
/// moved into the sandbox before the analysis runs (a fuzzed request must not read or
/// write the machine's files).
pub fn request_json(sandbox: &Sandbox, data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(mut req) = racer::parse_request(text) else { return };
    let inside = |p: &Path, sub: &str| sandbox.path(sub).join(p.file_name().map(|n| n.to_os_string()).unwrap_or_default());
    for p in req.inputs.iter_mut().chain(req.classpath.iter_mut()).chain(req.source_paths.iter_mut()) {
        *p = if p.file_name().is_some_and(|n| n == "Racy.class") { inside(p, "in") } else { sandbox.path("in") };
    }
    for p in req.summaries_in.iter_mut() {
        *p = inside(p, "in");
    }
    let reports = &mut req.reports;
    for p in [&mut req.summaries_out, &mut reports.json, &mut reports.sarif, &mut reports.text, &mut reports.html].into_iter().flatten() {
        *p = inside(p, "out");
    }
    req.options.threads = req.options.threads.min(2);
    let response = racer::analyze(&req);
    if let Ok(r) = &response {
        serde_json::to_string(r).expect("a response always encodes");
    }
    must_not_be_internal(response);
}
