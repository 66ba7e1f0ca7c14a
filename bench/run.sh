#!/usr/bin/env bash
# racer's benchmark on real code (not a test: it prints figures, it asserts nothing).
#
#   bench/run.sh [--floor PARSE_FLOOR_MANIFEST] [--runs N] [--android JAR]
#
# 1. per jar of the corpus (scripts/corpus.sh): classes, issues, wall time, peak memory;
# 2. the whole corpus in one run: median wall time and peak memory of `racer analyze`, and,
#    with --floor, the same-run median of the parse-floor tool (read+unzip+parse of the same
#    jars) and the ratio between the two; the same for `--racerd-compat`, which shows what the
#    default mode's extensions cost;
# 3. compositional summaries on a real pair (h2 depends on lucene-core): analysing h2 with
#    lucene's summaries vs with lucene analysed from scratch, summary loading vs re-analysis,
#    and summary file sizes vs class bytes;
# 4. plugin mode: the whole corpus with --summaries-out (as the build plugins run), wall, CPU
#    and peak memory against report-only, and the summary file against the class bytes;
# 5. with --android: a large framework jar (Robolectric's android-all, fetched with
#    `mvn dependency:copy -Dartifact=org.robolectric:android-all:14-robolectric-10818077`):
#    wall time and peak memory.
#    (The multi-module benchmark is bench/multimodule.py.)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

floor=""
runs=5
android=""
while [ $# -gt 0 ]; do
    case "$1" in
        --floor) floor="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --android) android="$2"; shift 2 ;;
        *) echo "bench: unknown argument $1" >&2; exit 2 ;;
    esac
done

cargo build --profile dist -q -p racer
racer="$root/target/dist/racer"
mapfile -t jars < <(scripts/corpus.sh)
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# time_racer OUT ARGS...: runs racer, prints "wall_seconds peak_kb cpu_seconds"
time_racer() {
    local out="$1"; shift
    /usr/bin/time -f "%e %M %U %S" -o "$tmp/time" "$racer" analyze --format json --output "$out" "$@" 2>/dev/null || true
    awk '{printf "%s %s %.2f\n", $1, $2, $3 + $4}' "$tmp/time"
}

issues_in() { python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["issues"]))' "$1"; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo "## Per jar"
echo
echo "| jar | classes | issues | wall (s) | peak RSS (MB) |"
echo "|---|---:|---:|---:|---:|"
for jar in "${jars[@]}"; do
    classes=$(unzip -l "$jar" | grep -c '\.class$' || true)
    read -r wall kb _ < <(time_racer "$tmp/one.json" "$jar")
    echo "| $(basename "$jar") | $classes | $(issues_in "$tmp/one.json") | $wall | $((kb / 1024)) |"
done

echo
echo "## Whole corpus ($runs runs, 2 worker threads, medians)"
echo
if [ -n "$floor" ]; then
    cargo build --release -q --manifest-path "$floor"
    floor_bin="$(dirname "$floor")/target/release/parse-floor"
fi
# racer and the floor alternate, so that both see the same machine conditions.
walls=(); peaks=(); floors=(); compat_walls=()
for _ in $(seq "$runs"); do
    read -r wall kb _ < <(time_racer "$tmp/all.json" "${jars[@]}")
    walls+=("$wall"); peaks+=("$kb")
    read -r wall _ _ < <(time_racer "$tmp/compat.json" --racerd-compat "${jars[@]}")
    compat_walls+=("$wall")
    if [ -n "$floor" ]; then
        floors+=("$("$floor_bin" --runs 1 --mode parse "${jars[@]}" 2>/dev/null | awk '/^ +read\+unzip\+parse/ {print $2}')")
    fi
done
racer_wall=$(printf '%s\n' "${walls[@]}" | median)
racer_peak=$(printf '%s\n' "${peaks[@]}" | sort -n | tail -1)
echo "- racer analyze (all jars): ${racer_wall} s wall, peak RSS $((racer_peak / 1024)) MB, $(issues_in "$tmp/all.json") issues"
if [ -n "$floor" ]; then
    floor_wall=$(printf '%s\n' "${floors[@]}" | median)
    ratio=$(python3 -c "print(f'{$racer_wall / $floor_wall:.2f}')")
    echo "- parse floor (read+unzip+parse, same jars, alternating with racer): ${floor_wall} s"
    echo "- ratio racer / floor: ${ratio}x"
fi
compat_wall=$(printf '%s\n' "${compat_walls[@]}" | median)
compat_ratio=""
if [ -n "$floor" ]; then
    compat_ratio=" ($(python3 -c "print(f'{$compat_wall / $floor_wall:.2f}')")x the floor)"
fi
echo "- racer analyze --racerd-compat (all jars): ${compat_wall} s wall${compat_ratio}, $(issues_in "$tmp/compat.json") issues"

echo
echo "## Compositional summaries (h2 uses lucene-core)"
echo
lucene=$(printf '%s\n' "${jars[@]}" | grep '/lucene-core')
h2=$(printf '%s\n' "${jars[@]}" | grep '/h2-')
scratch=(); with=(); loads=(); alone=()
for _ in $(seq "$runs"); do
    # Re-analysing the upstream module, as loading its summaries saves (median of the runs).
    read -r w _ _ < <(time_racer "$tmp/l.json" --summaries-out "$tmp/lucene.summaries" "$lucene"); alone+=("$w")
    read -r w _ _ < <(time_racer "$tmp/t.json" "$lucene" "$h2"); scratch+=("$w")
    RACER_TIMINGS=1 "$racer" analyze --format json --output "$tmp/s.json" --summaries-in "$tmp/lucene.summaries" "$h2" 2>"$tmp/timings" >/dev/null || true
    read -r w _ _ < <(time_racer "$tmp/s.json" --summaries-in "$tmp/lucene.summaries" "$h2"); with+=("$w")
    loads+=("$(awk -F': ' '/load upstream summaries/ {split($4, t, "s"); print t[1]}' "$tmp/timings")")
done
scratch_wall=$(printf '%s\n' "${scratch[@]}" | median)
with_wall=$(printf '%s\n' "${with[@]}" | median)
load=$(printf '%s\n' "${loads[@]}" | median)
lucene_wall=$(printf '%s\n' "${alone[@]}" | median)
class_bytes=$(unzip -l "$lucene" | awk '/\.class$/ {s += $1} END {print s}')
sum_bytes=$(stat -c %s "$tmp/lucene.summaries")
echo "- h2 with lucene analysed from scratch: ${scratch_wall} s; h2 with lucene's summaries loaded: ${with_wall} s"
echo "- analysing lucene-core alone: ${lucene_wall} s; loading its summaries: ${load} s ($(python3 -c "print(f'{$lucene_wall / max($load, 1e-9):.1f}')")x faster)"
echo "- lucene-core class bytes: $((class_bytes / 1024)) KiB; its summary file: $((sum_bytes / 1024)) KiB ($(python3 -c "print(f'{$sum_bytes / $class_bytes:.2f}')")x)"

echo
echo "## Plugin mode: whole corpus with --summaries-out ($runs runs, medians)"
echo
walls=(); cpus=(); peaks=(); rwalls=(); rcpus=(); rpeaks=()
for _ in $(seq "$runs"); do
    read -r wall kb cpu < <(time_racer "$tmp/p.json" --summaries-out "$tmp/all.summaries" "${jars[@]}")
    walls+=("$wall"); cpus+=("$cpu"); peaks+=("$kb")
    read -r wall kb cpu < <(time_racer "$tmp/r.json" "${jars[@]}")
    rwalls+=("$wall"); rcpus+=("$cpu"); rpeaks+=("$kb")
done
all_class_bytes=0
for jar in "${jars[@]}"; do
    all_class_bytes=$((all_class_bytes + $(unzip -l "$jar" | awk '/\.class$/ {s += $1} END {print s + 0}')))
done
peak_of() { printf '%s\n' "$@" | sort -n | tail -1; }
echo "- with --summaries-out: $(printf '%s\n' "${walls[@]}" | median) s wall, $(printf '%s\n' "${cpus[@]}" | median) s CPU, peak RSS $(( $(peak_of "${peaks[@]}") / 1024 )) MB"
echo "- report only: $(printf '%s\n' "${rwalls[@]}" | median) s wall, $(printf '%s\n' "${rcpus[@]}" | median) s CPU, peak RSS $(( $(peak_of "${rpeaks[@]}") / 1024 )) MB"
echo "- summary file: $(( $(stat -c %s "$tmp/all.summaries") / 1024 )) KiB for $((all_class_bytes / 1024)) KiB of class bytes ($(python3 -c "print(f'{$(stat -c %s "$tmp/all.summaries") / $all_class_bytes:.2f}')")x)"

if [ -n "$android" ]; then
    echo
    echo "## Large jar: $(basename "$android")"
    echo
    read -r wall kb cpu < <(time_racer "$tmp/a.json" "$android")
    echo "- report only: ${wall} s wall, ${cpu} s CPU, peak RSS $((kb / 1024)) MB, $(issues_in "$tmp/a.json") issues"
    read -r wall kb cpu < <(time_racer "$tmp/a.json" --summaries-out "$tmp/android.summaries" "$android")
    echo "- with --summaries-out: ${wall} s wall, ${cpu} s CPU, peak RSS $((kb / 1024)) MB, summary file $(( $(stat -c %s "$tmp/android.summaries") / 1024 / 1024 )) MB"
    if [ -n "$floor" ]; then
        echo "- parse floor: $("$floor_bin" --runs 1 --mode parse "$android" 2>/dev/null | awk '/^ +read\+unzip\+parse/ {print $2}') s"
    fi
fi
