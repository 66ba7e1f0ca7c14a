//! Valid but pathological programs (tests/pathological/generate.py): each must finish
//! with the default thread stacks (no recursion as deep as the input), in bounded time,
//! and with peak memory that grows roughly linearly with the input: the program at twice
//! the size may take at most three times the memory above a trivial run's (a quadratic
//! blow-up takes four times).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::TempDir;

const RACER: &str = env!("CARGO_BIN_EXE_racer");

/// (kind, size, reported): the run at `size` and at `2 * size` are compared. Every
/// program has races; the field chain's access path is longer than the engine follows
/// (`MAX_PATH_STEPS`), so its accesses are dropped and nothing is reported.
const CASES: &[(&str, usize, bool)] = &[
    ("code-limit", 2700, true),
    ("deep-branches", 400, true),
    ("wide-branches", 1000, true),
    ("call-chain", 1500, true),
    ("scc", 1500, true),
    ("nested-try", 150, true),
    // Measured while the runs still used huge pages: from 600 to 1,200 classes deep the peak
    // rose by a 2 MiB-page step that sat at the 3x bound; from 1,200 to 2,400 it grows 1.55x.
    ("deep-hierarchy", 1200, true),
    ("constant-pool", 7000, true),
    ("field-chain", 400, false),
];

fn generate(kind: &str, size: usize, out: &Path) -> PathBuf {
    let script = common::workspace_root().join("tests/pathological/generate.py");
    common::run(Command::new("python3").arg(script).arg(kind).arg(size.to_string()).arg(out), "generate.py")
        .unwrap_or_else(|e| panic!("{kind} {size}: {e}"));
    out.join("classes")
}

/// Runs racer on `classes`: (seconds, peak KiB, issues). Transparent huge pages are off for
/// the run: with them the allocator's memory grows in 2 MiB steps, and a few steps more or
/// less (depending on how the two threads interleave) swing the ratio of two small peaks.
fn measure(classes: &Path) -> (f64, u64, usize) {
    let dir = classes.parent().unwrap();
    let (time, report) = (dir.join("time"), dir.join("report.json"));
    let out = Command::new("/usr/bin/time")
        .env("MIMALLOC_ALLOW_THP", "0")
        .args(["-f", "%e %M", "-o"])
        .arg(&time)
        .args([RACER, "analyze", "--quiet", "--format", "json", "--max-memory", "2g", "--output"])
        .arg(&report)
        .arg(classes)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{}: {stderr}", classes.display());
    let figures = std::fs::read_to_string(&time).unwrap();
    let mut it = figures.split_whitespace();
    let seconds: f64 = it.next().unwrap().parse().unwrap();
    let peak: u64 = it.next().unwrap().parse().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    (seconds, peak, v["issues"].as_array().unwrap().len())
}

#[test]
fn pathological_inputs_finish_with_linear_memory() {
    let tmp = TempDir::new("racer-pathological").keep_on_panic();
    let trivial = generate("call-chain", 1, &tmp.join("trivial"));
    let (_, base, _) = measure(&trivial);
    let mut failures = Vec::new();
    for &(kind, size, reported) in CASES {
        let small = measure(&generate(kind, size, &tmp.join(format!("{kind}-1"))));
        let large = measure(&generate(kind, 2 * size, &tmp.join(format!("{kind}-2"))));
        eprintln!("{kind}: size {size}: {:.2} s, {} KiB, {} issues; size {}: {:.2} s, {} KiB, {} issues",
            small.0, small.1, small.2, 2 * size, large.0, large.1, large.2);
        assert_eq!((small.2 > 0, large.2 > 0), (reported, reported), "{kind}: issues reported");
        // Below 4 MiB above the trivial run, the difference is noise.
        let (grow_small, grow_large) = (small.1.saturating_sub(base).max(4096), large.1.saturating_sub(base));
        if grow_large > 3 * grow_small {
            failures.push(format!("{kind}: peak memory above a trivial run grew from {grow_small} KiB to {grow_large} KiB"));
        }
        if large.0 > 60.0 {
            failures.push(format!("{kind}: {:.1} s at size {}", large.0, 2 * size));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
