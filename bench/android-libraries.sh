#!/usr/bin/env bash
# Android libraries from Maven Central, analysed one by one as an app build would see them: each
# library's classes (an `.aar`'s classes.jar or a jar) analysed against the Android 14 framework
# (Robolectric's android-all) and the other libraries of the list as its classpath. Prints, per
# library, its class count, wall time, peak memory and report count, and keeps each JSON report
# in the output directory for triage. Not a test: it asserts nothing (the Android fixtures and
# `tests/android.rs` do), and it fetches about 150 MB on its first run.
#
#   bench/android-libraries.sh [--racer PATH] [--out DIR]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
racer="$root/target/release/racer"
out="$root/target/android-libraries"
while [ $# -gt 0 ]; do
    case "$1" in
        --racer) racer="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        *) echo "usage: bench/android-libraries.sh [--racer PATH] [--out DIR]" >&2; exit 2 ;;
    esac
done

# group:artifact:version:packaging, as Maven Central serves them.
LIBRARIES='
com.github.bumptech.glide:glide:4.16.0:aar
com.squareup.picasso:picasso:2.8:aar
androidx.recyclerview:recyclerview:1.3.2:aar
androidx.room:room-runtime:2.6.1:aar
com.squareup.okhttp3:okhttp:4.12.0:jar
io.reactivex.rxjava3:rxjava:3.1.8:jar
'

[ -x "$racer" ] || (cd "$root" && cargo build --release -q -p racer)
framework="$("$root/scripts/android-framework.sh")"
libs="$out/libraries"
mkdir -p "$libs"
for coordinates in $LIBRARIES; do
    IFS=: read -r group artifact version packaging <<<"$coordinates"
    file="$libs/$artifact-$version.$packaging"
    [ -s "$file" ] && continue
    copy() { mvn -B -q "$@" dependency:copy -Dartifact="$coordinates" -DoutputDirectory="$libs" >&2; }
    copy -o 2>/dev/null || copy
done

echo "| library | classes | wall s | peak MB | reports |"
echo "|---|---:|---:|---:|---:|"
for coordinates in $LIBRARIES; do
    IFS=: read -r group artifact version packaging <<<"$coordinates"
    file="$libs/$artifact-$version.$packaging"
    classpath="$framework"
    for other in "$libs"/*; do
        [ "$other" = "$file" ] || classpath="$classpath:$other"
    done
    report="$out/$artifact.json"
    timing="$(mktemp)"
    /usr/bin/time -f "%e %M" -o "$timing" "$racer" analyze -q --classpath "$classpath" --format json -o "$report" "$file" || true
    read -r wall kb <"$timing"
    rm -f "$timing"
    python3 - "$report" "$file" "$artifact" "$wall" "$kb" <<'EOF'
import io, json, sys, zipfile
report, file, artifact, wall, kb = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), int(sys.argv[5])
archive = zipfile.ZipFile(file)
if file.endswith(".aar"):
    archive = zipfile.ZipFile(io.BytesIO(archive.read("classes.jar")))
classes = sum(1 for n in archive.namelist() if n.endswith(".class"))
issues = json.load(open(report))["issues"]
print(f"| {artifact} | {classes:,} | {wall:.2f} | {kb // 1024:,} | {len(issues):,} |")
EOF
done
echo
echo "Reports: $out/*.json"
