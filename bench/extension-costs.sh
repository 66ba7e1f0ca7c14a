#!/usr/bin/env bash
# What each analysis extension costs on the corpus (not a test: it prints figures).
#
#   bench/extension-costs.sh [--runs N] [JAR...]
#
# Runs `racer analyze` on the corpus (scripts/corpus.sh, or the jars given) in
# `--racerd-compat` mode and once with each extension of the default mode turned off
# (`--without-extension NAME`), each run right after a run of the default mode: a line's cost is
# the ratio of its CPU time (user + system) to that of the default run just before it, so that a
# machine that slows down or speeds up during the benchmark does not weigh on one line more than
# on another. N rounds; prints the median ratio, CPU and wall time, and the issue count. The
# extensions off by default (`callee-lock-evidence`, `inherited-accesses`,
# `locked-location-evidence`) change nothing: their lines show the noise.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

runs=3
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs="$2"; shift 2 ;;
        --) shift; break ;;
        -*) echo "bench: unknown argument $1" >&2; exit 2 ;;
        *) break ;;
    esac
done

cargo build --profile dist -q -p racer
racer="$root/target/dist/racer"
if [ $# -gt 0 ]; then jars=("$@"); else mapfile -t jars < <(scripts/corpus.sh); fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# The extensions of the default mode, as the error for an unknown name lists them.
names=$({ "$racer" analyze --without-extension '?' "${jars[0]}" 2>&1 || true; } | sed -n 's/.*(known: \(.*\))$/\1/p' | tr -d ',')
[ -n "$names" ] || { echo "bench: cannot list the extensions" >&2; exit 1; }

# run LABEL ARGS...: one analysis, appended to the runs file as "LABEL WALL USER SYSTEM ISSUES".
run() {
    local label="$1"; shift
    /usr/bin/time -f "%e %U %S" -o "$tmp/time" "$racer" analyze "$@" --format json --output "$tmp/r.json" "${jars[@]}" 2>/dev/null || true
    issues=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["issues"]))' "$tmp/r.json")
    echo "$label $(cat "$tmp/time") $issues" >> "$tmp/runs"
}

for round in $(seq "$runs"); do
    for line in compat $names; do
        run "default-before-$line"
        case "$line" in
            compat) run compat --racerd-compat ;;
            *) run "$line" --without-extension "$line" ;;
        esac
    done
done

python3 - "$tmp/runs" "$runs" <<'EOF'
import statistics, sys
runs = [line.split() for line in open(sys.argv[1])]
rows = {}
for before, after in zip(runs[0::2], runs[1::2]):
    name, wall, user, system, issues = after
    base_cpu = float(before[2]) + float(before[3])
    cpu = float(user) + float(system)
    row = rows.setdefault(name, {"ratio": [], "cpu": [], "wall": [], "issues": issues, "default": before[4]})
    row["ratio"].append(cpu / base_cpu)
    row["cpu"].append(cpu)
    row["wall"].append(float(wall))
default_cpu = statistics.median(float(r[2]) + float(r[3]) for r in runs[0::2])
default_wall = statistics.median(float(r[1]) for r in runs[0::2])
print(f"## Extension costs on the corpus ({sys.argv[2]} rounds, medians; each line against the default run before it)")
print()
print("| run | CPU vs default | CPU (s) | wall (s) | issues |")
print("|---|---:|---:|---:|---:|")
print(f"| default (all its runs) | | {default_cpu:.2f} | {default_wall:.2f} | {runs[0][4]} |")
for name, r in sorted(rows.items(), key=lambda kv: statistics.median(kv[1]["ratio"])):
    label = name if name == "compat" else f"without {name}"
    ratio = statistics.median(r["ratio"])
    print(f"| {label} | {(ratio - 1) * 100:+.0f}% | {statistics.median(r['cpu']):.2f} | {statistics.median(r['wall']):.2f} | {r['issues']} |")
EOF
