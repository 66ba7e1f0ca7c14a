#!/usr/bin/env bash
# Runs every test of the project: installs what is missing, builds the engine,
# runs the Rust unit and fixture tests, then the Gradle and Maven plugin tests.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
cargo build --release --workspace
cargo test --release --workspace

for suite in scripts/test-gradle.sh scripts/test-maven.sh; do
    if [ -x "$suite" ]; then
        echo "== $suite"
        "$suite"
    fi
done
echo "all test suites passed"
