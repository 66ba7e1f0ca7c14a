//! Replays every saved fuzz input (the seed corpora in `fuzz/seeds/<target>/` and the
//! crashing or slow inputs kept in `fuzz/regressions/<target>/`) through the fuzz
//! targets' own harness: none may panic, hit an internal error or take long.

#[path = "../../../fuzz/src/harness.rs"]
mod harness;
mod common;

use std::time::{Duration, Instant};

fn replay(target: &str, run: fn(&harness::Sandbox, &[u8])) {
    let sandbox = harness::Sandbox::new(target);
    let root = common::workspace_root().join("fuzz");
    let mut count = 0;
    for dir in [root.join("seeds").join(target), root.join("regressions").join(target)] {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        let mut files: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
        files.sort();
        for file in files {
            let data = std::fs::read(&file).unwrap();
            let start = Instant::now();
            run(&sandbox, &data);
            assert!(start.elapsed() < Duration::from_secs(10), "{}: slow ({:?})", file.display(), start.elapsed());
            count += 1;
        }
    }
    assert!(count > 0, "no saved inputs for {target}");
}

#[test]
fn classfile_inputs() {
    replay("classfile", harness::classfile);
}

#[test]
fn summaries_inputs() {
    replay("summaries", harness::summaries);
}

#[test]
fn request_json_inputs() {
    replay("request_json", harness::request_json);
}
