#!/usr/bin/env bash
# Demo: installs the racer Maven plugin into ~/.m2, then runs `mvn verify` on sample-project.
# The sample contains real data races, so the build is expected to FAIL in the racer:check goal;
# this script shows the races and exits 0 when the build failed for exactly that reason.
# Pass --no-build to reuse plugins installed by an earlier scripts/build-plugins.sh.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

if [ "${1:-}" != --no-build ]; then
    scripts/build-plugins.sh || { echo "demo-maven: building the plugins failed" >&2; exit 1; }
fi

log="$(mktemp "${TMPDIR:-/tmp}/racer-demo-maven.XXXXXX")"
trap 'rm -f "$log"' EXIT

echo
echo "== cd sample-project && mvn verify"
start=$(date +%s%N)
offline=(-o)
mvn -B "${offline[@]}" -f sample-project/pom.xml verify 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ] && grep -qE "offline mode|has not been downloaded from it before" "$log"; then
    echo "(some plugins are not in ~/.m2 yet; running online)"
    mvn -B -f sample-project/pom.xml verify 2>&1 | tee "$log"
    status=${PIPESTATUS[0]}
fi
elapsed=$(( ($(date +%s%N) - start) / 1000000 ))

echo
if [ "$status" -eq 0 ]; then
    echo "demo-maven: UNEXPECTED: the build passed, but sample-project has races racer should report." >&2
    exit 1
fi
if grep -qE '\[ERROR\] Failed to execute goal dev\.racer:racer-maven-plugin:[^:]+:check .*racer found [0-9]+ races?' "$log"; then
    echo "demo-maven: the build failed as expected: racer:check found the races listed above"
    echo "            (exit status $status after ${elapsed} ms). Reports: sample-project/*/target/racer/racer.{html,sarif,json,txt}"
    echo "            Run 'mvn verify -Dracer.failOnViolation=false' to report without failing."
    exit 0
fi
echo "demo-maven: the build failed, but not because of races (see the log above)." >&2
exit 1
