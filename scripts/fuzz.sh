#!/usr/bin/env bash
# Coverage-guided fuzzing of the engine with libFuzzer (through the libfuzzer-sys crate,
# instrumented with stable rustc flags: no nightly toolchain needed). Not part of the
# test run.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     (default: 1800 s, every target)
#
# Targets (fuzz/fuzz_targets/): classfile (class file or small jar -> model -> analysis),
# summaries (the summary-file decoder), request_json (the JNI request document).
# Each target starts from fuzz/seeds/<target>/ and keeps its growing corpus in
# target/fuzz/corpus/<target>/. A crash or slow input is written to
# target/fuzz/artifacts/<target>/; copy it into fuzz/regressions/<target>/ so that
# `cargo test` (native/engine/tests/fuzz_inputs.rs) replays it from then on.
# The last lines of each target's log (executions, coverage, findings) are printed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
seconds="${1:-1800}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(classfile summaries request_json)

# libFuzzer's coverage instrumentation (what cargo-fuzz passes), all stable flags.
export RUSTFLAGS="--cfg fuzzing -Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares -Cdebug-assertions -Coverflow-checks"
export CARGO_TARGET_DIR="$root/target/fuzz/build"
# An explicit --target keeps the instrumentation out of build scripts.
host="$(rustc -vV | sed -n 's/^host: //p')"
cargo build --release -q --manifest-path fuzz/Cargo.toml --bins --target "$host"

for t in "${targets[@]}"; do
    corpus="target/fuzz/corpus/$t"
    artifacts="target/fuzz/artifacts/$t/"
    mkdir -p "$corpus" "$artifacts"
    echo "fuzz: $t for ${seconds}s" >&2
    # -timeout: an input taking over 10 s is a finding (written as timeout-*).
    "$CARGO_TARGET_DIR/$host/release/$t" "$corpus" "fuzz/seeds/$t" -max_total_time="$seconds" -timeout=10 \
        -rss_limit_mb=2048 -max_len=65536 -artifact_prefix="$artifacts" -print_final_stats=1 \
        > "target/fuzz/$t.log" 2>&1 || echo "fuzz: $t stopped with a finding (see $artifacts)" >&2
    grep -E '^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss_mb)' "target/fuzz/$t.log" || tail -n 5 "target/fuzz/$t.log"
    echo "fuzz: $t findings: $(ls "$artifacts" | wc -l)"
done
