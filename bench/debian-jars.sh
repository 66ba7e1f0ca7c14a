#!/usr/bin/env bash
# Every jar in Debian: installs the Java library packages Debian offers (`lib*-java`),
# then analyses every jar in /usr/share/java one by one and reports jars, classes,
# warnings by cause, and crashes (a panic, a signal, or an exit status other than 0/2).
# Not a test: a long run of its own (the install alone can take an hour).
#
#   bench/debian-jars.sh [--no-install | --install-only | --report-only] [--resume] [--time-limit SECONDS]
#                        [--max-packages N] [--jobs N] [--out DIR]
#
# --report-only prints the figures of the results already in DIR (of a run that was stopped).
# --time-limit starts no jar after that many seconds of analysis, and --resume analyses only the
# jars DIR/results.tsv does not list yet: together they split the run into sessions.
#
# Packages are installed in batches; a batch that fails is retried package by package,
# so one broken package does not keep the rest out. The per-jar results are kept in
# DIR/results.tsv (jar, exit status, classes, seconds, peak KiB) and DIR/warnings.tsv.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

install=1
analyse=1
report_only=0
max_packages=0
jobs=1
resume=0
time_limit=0
out="$root/target/debian-jars"
while [ $# -gt 0 ]; do
    case "$1" in
        --no-install) install=0; shift ;;
        --install-only) analyse=0; shift ;;
        --report-only) install=0; report_only=1; shift ;;
        --resume) resume=1; shift ;;
        --time-limit) time_limit="$2"; shift 2 ;;
        --max-packages) max_packages="$2"; shift 2 ;;
        --jobs) jobs="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        *) echo "debian-jars: unknown argument $1" >&2; exit 2 ;;
    esac
done
mkdir -p "$out"

apt_get() {
    local sudo=()
    [ "$(id -u)" = 0 ] || sudo=(sudo)
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get -o DPkg::Lock::Timeout=900 "$@"
}

if [ "$install" = 1 ]; then
    start=$(date +%s)
    apt_get update -qq >&2
    apt-cache search --names-only '^lib.*-java$' | awk '{print $1}' | sort > "$out/candidates.txt"
    if [ "$max_packages" -gt 0 ]; then
        head -n "$max_packages" "$out/candidates.txt" > "$out/candidates.tmp" && mv "$out/candidates.tmp" "$out/candidates.txt"
    fi
    : > "$out/install-failed.txt"
    split -l 40 "$out/candidates.txt" "$out/batch."
    for batch in "$out"/batch.*; do
        if ! apt_get install -y -qq --no-install-recommends $(cat "$batch") > "$out/install.log" 2>&1; then
            while read -r pkg; do
                apt_get install -y -qq --no-install-recommends "$pkg" >> "$out/install.log" 2>&1 \
                    || echo "$pkg" >> "$out/install-failed.txt"
            done < "$batch"
        fi
        rm -f "$batch"
    done
    echo "debian-jars: $(wc -l < "$out/candidates.txt") candidate packages, $(wc -l < "$out/install-failed.txt") did not install, $(( $(date +%s) - start )) s" >&2
fi

[ "$analyse" = 1 ] || exit 0
cargo build --profile dist -q -p racer
racer="$root/target/dist/racer"

# Every real jar once (Debian links versioned names to the same file).
if [ "$report_only" = 0 ]; then
    find /usr/share/java -name '*.jar' -print0 | xargs -0 readlink -f | sort -u > "$out/jars.txt"
fi

analyse_one() {
    local jar="$1" tmp
    tmp="$(mktemp -d)"
    # The plugins' request/response documents: the response carries the class count.
    [ "$deadline" = 0 ] || [ "$(date +%s)" -lt "$deadline" ] || return 0
    printf '{"request_version":2,"inputs":[%s],"options":{"threads":1}}' \
        "$(python3 -c 'import json,sys; print(json.dumps(sys.argv[1]))' "$jar")" > "$tmp/request.json"
    /usr/bin/time -f "%e %M" -o "$tmp/time" "$racer" analyze-request "$tmp/request.json" > "$tmp/r.json" 2> "$tmp/err"
    local status=$?
    local classes
    classes=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["stats"]["classes"])' "$tmp/r.json" 2>/dev/null || echo 0)
    # Warnings are the response's diagnostics.
    python3 -c 'import json,sys
for d in json.load(open(sys.argv[1]))["diagnostics"]: print("racer: warning: " + d["file"].replace(" ", "_") + ": " + d["message"])' \
        "$tmp/r.json" >> "$tmp/err" 2>/dev/null || true
    local time
    time=$(tail -n 1 "$tmp/time" | tr ' ' '\t')
    printf '%s\t%s\t%s\t%s\n' "$jar" "$status" "$classes" "$time"
    # A warning's cause is its message with names and numbers taken out.
    grep '^racer: warning: ' "$tmp/err" | sed -e 's/^racer: warning: [^ ]*: //' >> "$tmp/causes" || true
    if [ -s "$tmp/causes" ]; then sed -e "s|^|$jar\t|" "$tmp/causes"; fi > "$tmp/w"
    cat "$tmp/w" >&3
    if grep -q -e 'panicked' -e 'internal error' -e 'RUST_BACKTRACE' "$tmp/err"; then
        printf '%s\tpanic output: %s\n' "$jar" "$(head -c 300 "$tmp/err" | tr '\n' ' ')" >&4
    fi
    rm -rf "$tmp"
}
export -f analyse_one
export racer
deadline=0
[ "$time_limit" = 0 ] || deadline=$(( $(date +%s) + time_limit ))
export deadline

start=$(date +%s)
if [ "$report_only" = 0 ]; then
    if [ "$resume" = 0 ]; then
        : > "$out/results.tsv"
        : > "$out/warnings.tsv"
        : > "$out/panics.tsv"
    fi
    # The jars not analysed yet (all of them unless resuming).
    cut -f1 "$out/results.tsv" | sort | comm -23 "$out/jars.txt" - > "$out/todo.txt"
    xargs -a "$out/todo.txt" -d '\n' -P "$jobs" -I{} bash -c 'analyse_one "$1"' _ {} \
        >> "$out/results.tsv" 3>> "$out/warnings.tsv" 4>> "$out/panics.tsv"
fi
elapsed=$(( $(date +%s) - start ))

python3 - "$out" "$elapsed" <<'EOF'
import collections, re, sys
out, elapsed = sys.argv[1], int(sys.argv[2])
rows = [l.rstrip("\n").split("\t") for l in open(f"{out}/results.tsv") if l.strip()]
crashes = [r for r in rows if r[1] not in ("0", "2")]
errors = [r for r in rows if r[1] == "2"]
classes = sum(int(r[2]) for r in rows)
peak = max((int(r[4]) for r in rows if len(r) > 4 and r[4].isdigit()), default=0)
slowest = max(rows, key=lambda r: float(r[3]) if len(r) > 3 else 0.0, default=None)
def cause(msg):
    msg = re.sub(r"\b(class|from|in|of) [\w.$/]+", r"\1 X", msg)
    msg = re.sub(r"\(already read from .*\)", "(already read from X)", msg)
    msg = re.sub(r"\d+", "N", msg)
    return msg.split(":")[0] if msg.startswith("classpath") else msg[:100]
causes = collections.Counter(cause(l.rstrip("\n").split("\t", 1)[1]) for l in open(f"{out}/warnings.tsv") if "\t" in l)
panics = [l for l in open(f"{out}/panics.tsv") if l.strip()]
total = sum(1 for l in open(f"{out}/jars.txt") if l.strip())
print(f"jars analysed:        {len(rows)} of {total}")
print(f"classes analysed:     {classes}")
print(f"fatal input errors:   {len(errors)} (exit status 2, one-line message)")
print(f"crashes:              {len(crashes)} (exit status other than 0 or 2)")
print(f"panic output:         {len(panics)}")
print(f"wall time:            {elapsed} s; largest peak memory {peak // 1024} MiB; slowest jar {slowest[0] if slowest else '-'} ({slowest[3] if slowest else '-'} s)")
print(f"warnings by cause ({sum(causes.values())} in all):")
for c, n in causes.most_common(25):
    print(f"  {n:7d}  {c}")
for r in crashes:
    print(f"CRASH {r}")
for p in panics[:20]:
    print(f"PANIC {p.strip()}")
EOF
