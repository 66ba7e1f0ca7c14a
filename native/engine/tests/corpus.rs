//! Real third-party code: every jar of the corpus (`RACER_CORPUS`, one jar path per line, as
//! printed by `scripts/corpus.sh`; `scripts/test.sh` sets it) is analysed without error or
//! panic, and the JSON report is byte-identical across runs and worker-thread counts.

mod common;

use std::path::PathBuf;
use std::process::Command;

use racer::api::{Options, Request};
use racer::report::Format;

use common::TempDir;

fn corpus() -> Option<Vec<PathBuf>> {
    match std::env::var("RACER_CORPUS") {
        Ok(list) => Some(list.lines().filter(|l| !l.trim().is_empty()).map(PathBuf::from).collect()),
        Err(_) => {
            eprintln!("RACER_CORPUS not set: corpus not checked (scripts/test.sh sets it)");
            None
        }
    }
}

fn json_report(inputs: Vec<PathBuf>, threads: usize) -> String {
    let request = Request {
        request_version: racer::api::REQUEST_VERSION,
        inputs,
        options: Options { threads, ..Options::default() },
        ..Request::default()
    };
    let response = racer::analyze(&request).unwrap_or_else(|e| panic!("analysis failed: {e}"));
    racer::report::render(Format::Json, &response, &[])
}

/// The first issue that differs between two JSON reports, both ways.
fn first_difference(a: &str, b: &str) -> String {
    let issues = |r: &str| serde_json::from_str::<serde_json::Value>(r).unwrap()["issues"].as_array().unwrap().clone();
    let (a, b) = (issues(a), issues(b));
    match a.iter().zip(&b).position(|(x, y)| x != y) {
        Some(i) => format!("issue {i}:\n{}\nagainst\n{}", a[i], b[i]),
        None => format!("{} issues against {}", a.len(), b.len()),
    }
}

#[test]
fn every_corpus_jar_is_analysed() {
    let Some(jars) = corpus() else { return };
    assert!(jars.len() >= 10, "the corpus lists its jars");
    for jar in &jars {
        let request = Request {
            request_version: racer::api::REQUEST_VERSION,
            inputs: vec![jar.clone()],
            options: Options { threads: 2, ..Options::default() },
            ..Request::default()
        };
        let response = racer::analyze(&request).unwrap_or_else(|e| panic!("{}: {e}", jar.display()));
        assert!(response.stats.classes > 0, "{}: classes read", jar.display());
        // The one note about classes without line numbers (sunflow, hsqldb, derby) is not a read error.
        let unreadable: Vec<_> =
            response.diagnostics.iter().filter(|d| !d.message.contains("compiled without line numbers")).collect();
        assert!(unreadable.is_empty(), "{}: unreadable classes: {:?}", jar.display(), unreadable);
        eprintln!("{}: {} classes, {} issues", jar.display(), response.stats.classes, response.issues.len());
    }
}

#[test]
fn whole_corpus_report_is_deterministic_across_thread_counts() {
    let Some(jars) = corpus() else { return };
    let one = json_report(jars.clone(), 1);
    let two = json_report(jars.clone(), 2);
    let again = json_report(jars, 2);
    assert!(one == two, "--threads 1 and --threads 2 differ: {}", first_difference(&one, &two));
    assert!(two == again, "two runs differ: {}", first_difference(&two, &again));
    let issues = serde_json::from_str::<serde_json::Value>(&one).unwrap()["issues"].as_array().unwrap().len();
    assert!(issues > 100, "real code has reports ({issues})");
}

/// Each jar alone too: a small input leaves more to the timing of the worker threads (which
/// summary is ready when a caller looks), so repeated runs and thread counts must agree there.
#[test]
fn each_corpus_jar_alone_is_deterministic() {
    let Some(jars) = corpus() else { return };
    for jar in &jars {
        let one = json_report(vec![jar.clone()], 1);
        for run in 0..3 {
            let two = json_report(vec![jar.clone()], 2);
            assert!(one == two, "{}: --threads 1 and run {run} with --threads 2 differ: {}", jar.display(), first_difference(&one, &two));
        }
    }
}

/// Without a summary file only the methods that reporting depends on are analysed;
/// the issues must be exactly those of the full analysis.
#[test]
fn demand_driven_analysis_reports_what_the_full_analysis_reports() {
    let Some(jars) = corpus() else { return };
    let dir = TempDir::new("racer-corpus-demand");
    let run = |summaries_out: Option<PathBuf>| {
        let request = Request {
            request_version: racer::api::REQUEST_VERSION,
            inputs: jars.clone(),
            summaries_out,
            options: Options { threads: 2, ..Options::default() },
            ..Request::default()
        };
        let response = racer::analyze(&request).unwrap_or_else(|e| panic!("analysis failed: {e}"));
        racer::report::render(Format::Json, &response, &[])
    };
    let demand = run(None);
    let full = run(Some(dir.join("all.summaries.json")));
    drop(dir);
    assert!(demand == full, "issues differ between demand-driven and full analysis");
}

/// The memory guard counts live bytes in the `racer` command's allocator (per thread, added up
/// in batches): a run of h2, which holds some 27 MiB at its peak, is stopped with one line
/// under a 16 MiB limit and finishes under a 2 GiB one.
#[test]
fn the_memory_limit_stops_a_run_that_needs_more() {
    let Some(jars) = corpus() else { return };
    let h2 = jars.iter().find(|j| j.to_string_lossy().contains("/h2-")).expect("h2 in the corpus");
    let tmp = TempDir::new("racer-corpus-memory");
    let run = |limit: &str| {
        Command::new(env!("CARGO_BIN_EXE_racer"))
            .args(["analyze", "--quiet", "--format", "json", "--max-memory", limit, "--output"])
            .arg(tmp.join("report.json"))
            .arg(h2)
            .output()
            .expect("racer runs")
    };
    let small = run("16m");
    let err = String::from_utf8_lossy(&small.stderr);
    assert_eq!(small.status.code(), Some(2), "{err}");
    assert!(err.contains("memory limit of 16 MiB") && err.lines().count() == 1, "{err}");
    let ample = run("2g");
    assert_eq!(ample.status.code(), Some(0), "{}", String::from_utf8_lossy(&ample.stderr));
}

