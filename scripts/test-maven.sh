#!/usr/bin/env bash
# Tests the Maven plugin with real Maven builds:
#   1. the invoker scenarios in maven-plugin/src/it (each a small project built by a forked mvn);
#   2. sample-project/: `mvn verify` must fail on its races, `mvn verify -Dracer.skip` must pass.
# Builds the engine, bridge and plugins first (scripts/build-plugins.sh) unless --no-build is given
# or RACER_SKIP_BUILD=1. Maven runs offline when everything it needs is in ~/.m2 already, and
# falls back to an online run otherwise (first run on a fresh machine).
# Ends with "N passed, N failed" and exits non-zero if anything failed.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

build=true
for arg in "$@"; do
    case "$arg" in
        --no-build|--skip-build) build=false ;;
        *) echo "test-maven: unknown argument $arg (expected --no-build)" >&2; exit 2 ;;
    esac
done
[ "${RACER_SKIP_BUILD:-0}" = 1 ] && build=false

work="$(mktemp -d "${TMPDIR:-/tmp}/racer-test-maven.XXXXXX")"
trap 'rm -rf "$work"' EXIT

if $build; then
    echo "== scripts/build-plugins.sh"
    if ! scripts/build-plugins.sh >"$work/build-plugins.log" 2>&1; then
        tail -40 "$work/build-plugins.log"
        echo "test-maven: scripts/build-plugins.sh failed"
        echo "0 passed, 1 failed"
        exit 1
    fi
fi
passed=0
failed=0
failures=()

pass() { passed=$((passed + 1)); echo "PASS $1"; }
fail() { failed=$((failed + 1)); failures+=("$1"); echo "FAIL $1${2:+: $2}"; }

# Runs mvn offline; if that fails because something is not in ~/.m2 yet, runs it again online.
# Usage: mvn_cached LOG ARGS...; returns mvn's exit status, output in LOG.
mvn_cached() {
    local log="$1"
    shift
    local status=0
    mvn -B -o "$@" >"$log" 2>&1 || status=$?
    if [ "$status" -ne 0 ] && grep -qE "offline mode|has not been downloaded from it before|Cannot access .* in offline" "$log"; then
        echo "   (not everything is cached in ~/.m2; running online)"
        status=0
        mvn -B "$@" >"$log" 2>&1 || status=$?
    fi
    return "$status"
}

# ---- 1. invoker scenarios ------------------------------------------------------------------
echo "== maven-plugin integration tests (maven-invoker-plugin)"
it_log="$work/invoker.log"
mvn_cached "$it_log" -f maven-plugin/pom.xml verify
it_status=$?
grep -E '^\[INFO\] +[A-Za-z0-9_-]+/pom\.xml \.+ ' "$it_log" | sed 's/^\[INFO\] *//' || true
it_summary="$(grep -E 'Passed: [0-9]+, Failed: [0-9]+, Errors: [0-9]+, Skipped: [0-9]+' "$it_log" | tail -1)"
if [ -n "$it_summary" ]; then
    it_passed="$(sed -E 's/.*Passed: ([0-9]+).*/\1/' <<<"$it_summary")"
    it_failed="$(sed -E 's/.*Failed: ([0-9]+), Errors: ([0-9]+).*/\1+\2/' <<<"$it_summary")"
    it_failed=$((it_failed))
    passed=$((passed + it_passed))
    failed=$((failed + it_failed))
    [ "$it_failed" -gt 0 ] && failures+=("$it_failed invoker scenario(s)")
    if [ "$it_failed" -gt 0 ]; then
        grep -E '^\[INFO\] +[A-Za-z0-9_-]+/pom\.xml \.+ (FAILED|ERROR)' "$it_log" | sed -E 's/^\[INFO\] +([^ ]+).*/\1/' |
            while read -r pom; do
                echo "---- maven-plugin/target/it/$(dirname "$pom")/build.log (last lines)"
                tail -25 "maven-plugin/target/it/$(dirname "$pom")/build.log" 2>/dev/null
            done
    fi
    echo "   invoker: $it_summary"
else
    fail "maven-plugin build" "no invoker summary (exit $it_status); last lines:"
    tail -40 "$it_log"
fi
if [ "$it_status" -ne 0 ] && [ -n "$it_summary" ] && [ "${it_failed:-0}" -eq 0 ]; then
    fail "maven-plugin build" "mvn exited with $it_status"
    tail -40 "$it_log"
fi

# ---- 2. sample-project ---------------------------------------------------------------------
if [ -f sample-project/pom.xml ]; then
    echo "== sample-project (mvn verify)"
    sample="$work/sample-project"
    mkdir -p "$sample"
    (cd sample-project && tar --exclude=target --exclude=build --exclude=.gradle -cf - .) | (cd "$sample" && tar -xf -)

    log="$work/sample-verify.log"
    if mvn_cached "$log" -f "$sample/pom.xml" verify; then
        fail "sample-project: mvn verify fails on the races" "the build passed"
        tail -40 "$log"
    elif ! grep -qE '\[ERROR\] Failed to execute goal dev\.racer:racer-maven-plugin:[^:]+:check .*racer found [0-9]+ races? in app' "$log"; then
        fail "sample-project: mvn verify fails on the races" "it failed for another reason"
        tail -40 "$log"
    else
        pass "sample-project: mvn verify fails on the races"
        grep -E '^\[(ERROR|WARNING)\] .*\.java:[0-9]+: ' "$log" | head -10
        if grep -qE 'racer \S+: [0-9]+ classes, [0-9]+ methods analysed, [1-9][0-9]* upstream classes from [1-9][0-9]* summary file' "$log"; then
            pass "sample-project: app reads the summaries of the modules it depends on"
        else
            fail "sample-project: app reads the summaries of the modules it depends on"
            grep -E 'racer \S+: ' "$log"
        fi
        for f in summaries.json racer.json racer.sarif racer.html racer.txt; do
            [ -f "$sample/app/target/racer/$f" ] || { fail "sample-project: reports written" "app/target/racer/$f missing"; continue 2; }
        done
        pass "sample-project: reports written"
        # The races are Stats (inside app) and Service (through lib's Counter); lib and the safe
        # classes of app (Cache, Screen, Formatter) have none.
        if why="$(python3 - "$sample" <<'PY'
import json, sys
base = sys.argv[1]
def issues(module):
    with open(f"{base}/{module}/target/racer/racer.json") as f:
        return json.load(f)["issues"]
app = issues("app")
classes = sorted({i["class"].rsplit(".", 1)[1] for i in app})
problems = []
if classes != ["Service", "Stats"]:
    problems.append(f"races in app are in {classes}, expected Service and Stats")
if not any(t["class"] == "dev.racer.sample.lib.Counter" for i in app if i["class"].endswith(".Service") for t in i["trace"]):
    problems.append("no Service race has a trace into lib's Counter")
for module in ("lib", "annotations"):
    if issues(module):
        problems.append(f"{module} has races: {[(i['class'], i['method']) for i in issues(module)]}")
print("; ".join(problems))
sys.exit(1 if problems else 0)
PY
)"; then
            pass "sample-project: the expected races (Stats; Service through lib) and no others"
        else
            fail "sample-project: the expected races (Stats; Service through lib) and no others" "$why"
        fi
    fi

    # The same build with the engine in a child process: the same failure, reports and races.
    log="$work/sample-process.log"
    cp "$sample/app/target/racer/racer.json" "$work/in-process.json"
    if mvn_cached "$log" -f "$sample/pom.xml" verify -Dracer.isolation=process -Dracer.maxMemory=2g -X; then
        fail "sample-project, racer.isolation=process: mvn verify fails on the races" "the build passed"
    elif ! grep -qE 'racer: engine runs in a child process: .*/[0-9a-f]{64}/racer$' "$log"; then
        fail "sample-project, racer.isolation=process: the engine runs in a child process" "no child process in the log"
        tail -40 "$log"
    elif ! python3 -c 'import json,sys; a,b=(json.load(open(f))["issues"] for f in sys.argv[1:]); sys.exit(a!=b)' \
            "$work/in-process.json" "$sample/app/target/racer/racer.json"; then
        fail "sample-project, racer.isolation=process: same issues as in-process"
    else
        pass "sample-project, racer.isolation=process: same failure and issues as in-process"
    fi

    log="$work/sample-skip.log"
    if mvn_cached "$log" -f "$sample/pom.xml" verify -Dracer.skip=true && grep -q 'racer: skipped (racer.skip)' "$log"; then
        pass "sample-project: mvn verify -Dracer.skip=true passes"
    else
        fail "sample-project: mvn verify -Dracer.skip=true passes"
        tail -40 "$log"
    fi
else
    fail "sample-project" "sample-project/pom.xml is missing"
fi

echo
if [ "$failed" -gt 0 ]; then
    echo "failed: ${failures[*]}"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
