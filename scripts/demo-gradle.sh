#!/usr/bin/env bash
# Builds everything (scripts/build-plugins.sh), then runs `gradle racerCheck` on sample-project
# (its android module needs the Android framework jar: scripts/android-framework.sh fetches it).
# The sample contains races on purpose, so the Gradle build FAILS at :app:racerCheck after
# printing them; that failure is the expected outcome and this script then exits 0. It exits
# non-zero only if something else goes wrong (no races shown, or the build unexpectedly passes).
#
#   scripts/demo-gradle.sh [--skip-build]
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

if [ "${1:-}" != "--skip-build" ]; then
    scripts/build-plugins.sh || exit 1
fi

# The android module compiles against the Android framework classes (fetched once from Maven Central).
RACER_ANDROID_JAR="$(scripts/android-framework.sh)" || exit 1
export RACER_ANDROID_JAR

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
echo
echo "== sample-project: gradle racerCheck --continue"
(cd sample-project && gradle --offline --no-daemon --console=plain racerCheck --continue) 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

echo
if [ "$status" -ne 0 ] && grep -q "racer found .* in project ':app'" "$log"; then
    echo "demo: the build failed as expected: racer reported the races above in :app"
    if grep -q "racer found .* in project ':android'" "$log"; then
        echo "demo: and in :android, where NewsActivity's @WorkerThread write races with onResume"
        echo "      (its runOnUiThread handoff and lifecycle-only fields are safe)"
    fi
    echo "demo: reports: sample-project/{app,android}/build/reports/racer/racer.{txt,json,sarif,html}"
    exit 0
fi
echo "demo: unexpected outcome (gradle exit code $status, no race failure in :app)" >&2
exit 1
