#!/usr/bin/env bash
# Tests the Maven plugin with real Maven builds:
#   1. the invoker scenarios in maven-plugin/src/it (each a small project built by a forked mvn),
#      on the installed Maven, the newest Maven 3.9.x and Maven 4 (downloaded from Maven Central);
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
        echo "   (not everything is cached in ~/.m2; running online)" >&2
        status=0
        mvn -B "$@" >"$log" 2>&1 || status=$?
    fi
    return "$status"
}

# ---- 1. invoker scenarios, on each Maven version ------------------------------------------
# The installed mvn (Debian's 3.8.7) runs the outer build and every scenario; the newest 3.9.x
# runs them all too, and Maven 4 the core ones (the whole set would take as long again). Other
# versions come from Maven Central as org.apache.maven:apache-maven:VERSION:tar.gz:bin, through
# mvn itself, unpacked once under target/maven-dists/. RACER_IT_MAVENS overrides the list
# ("installed" is the mvn on the PATH; VERSION=SCENARIOS limits a version to some scenarios).
# Scenarios run two at a time (RACER_IT_THREADS): most of their time is JVM start-up.
core_its="race-fails,cross-module,installed-dependency,test-scope-lookup,baseline-new-race,suppress-race"
it_mavens="${RACER_IT_MAVENS:-installed 3.9.16 4.0.0-rc-4=$core_its}"
dists="$root/target/maven-dists"

# Prints the home of Maven VERSION, downloading and unpacking it first if needed.
maven_home() {
    local version="$1" home="$dists/apache-maven-$1"
    if [ ! -x "$home/bin/mvn" ]; then
        mkdir -p "$dists"
        mvn_cached "$work/maven-$version.log" org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy \
            "-Dartifact=org.apache.maven:apache-maven:$version:tar.gz:bin" "-DoutputDirectory=$dists" ||
            { tail -20 "$work/maven-$version.log" >&2; return 1; }
        tar -xzf "$dists/apache-maven-$version-bin.tar.gz" -C "$dists" && rm -f "$dists/apache-maven-$version-bin.tar.gz"
    fi
    echo "$home"
}

# Runs the invoker scenarios with one Maven; adds to the counts. Usage: run_its LABEL [MVN_ARGS...]
run_its() {
    local label="$1"
    shift
    local it_log="$work/invoker-${label//[^A-Za-z0-9.-]/_}.log" it_status=0
    mvn_cached "$it_log" -f maven-plugin/pom.xml verify "-Dinvoker.parallelThreads=${RACER_IT_THREADS:-2}" "$@" || it_status=$?
    grep -E '^\[INFO\] +[A-Za-z0-9_-]+/pom\.xml \.+ ' "$it_log" | sed "s/^\[INFO\] */   /" || true
    local it_summary it_passed it_failed
    it_summary="$(grep -E 'Passed: [0-9]+, Failed: [0-9]+, Errors: [0-9]+, Skipped: [0-9]+' "$it_log" | tail -1)"
    if [ -z "$it_summary" ]; then
        fail "maven-plugin build on $label" "no invoker summary (exit $it_status); last lines:"
        tail -40 "$it_log"
        return
    fi
    it_passed="$(sed -E 's/.*Passed: ([0-9]+).*/\1/' <<<"$it_summary")"
    it_failed="$(sed -E 's/.*Failed: ([0-9]+), Errors: ([0-9]+).*/\1+\2/' <<<"$it_summary")"
    it_failed=$((it_failed))
    passed=$((passed + it_passed))
    failed=$((failed + it_failed))
    if [ "$it_failed" -gt 0 ]; then
        failures+=("$it_failed invoker scenario(s) on $label")
        grep -E '^\[INFO\] +[A-Za-z0-9_-]+/pom\.xml \.+ (FAILED|ERROR)' "$it_log" | sed -E 's/^\[INFO\] +([^ ]+).*/\1/' |
            while read -r pom; do
                local build_log="maven-plugin/target/it/$(dirname "$pom")/build.log"
                echo "---- $build_log on $label (the failed check, then the last lines)"
                grep -m3 -E 'AssertionError|ERROR\]' "$build_log" 2>/dev/null
                tail -25 "$build_log" 2>/dev/null | grep -vE '^\s+at (java|jdk|org\.codehaus|groovy|org\.apache)\.'
            done
    elif [ "$it_status" -ne 0 ]; then
        fail "maven-plugin build on $label" "mvn exited with $it_status"
        tail -40 "$it_log"
    fi
    echo "   invoker on $label: $it_summary"
}

for entry in $it_mavens; do
    version="${entry%%=*}"
    scenarios=""
    [ "$entry" != "$version" ] && scenarios="${entry#*=}"
    args=()
    [ -n "$scenarios" ] && args+=("-Dinvoker.test=$scenarios")
    if [ "$version" = installed ]; then
        label="Maven $(mvn -v 2>/dev/null | sed -nE '1s/.*Apache Maven ([^ ]+).*/\1/p' | tr -d '\033' | sed 's/\[[0-9;]*m//g') (installed)"
    else
        if ! home="$(maven_home "$version")"; then
            fail "Maven $version" "could not download org.apache.maven:apache-maven:$version:tar.gz:bin"
            continue
        fi
        label="Maven $version"
        args+=("-Dinvoker.mavenHome=$home")
    fi
    echo "== maven-plugin integration tests on $label${scenarios:+ (core scenarios: $scenarios)}"
    run_its "$label" "${args[@]}"
done

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
        if grep -qE 'racer \S+: [0-9]+ classes, [0-9]+ methods analysed, [1-9][0-9]* upstream class(es)? from [1-9][0-9]* summary files?' "$log"; then
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
