#!/usr/bin/env bash
# Fetches the real Android framework classes for the Android tests and prints the jar's path:
# Robolectric's android-all (Android 14, 137 MB, Maven Central), resolved by Maven into the local
# repository (~/.m2) and copied once to build/android-framework/. Offline first, so a machine that
# has it cached makes no network request.
#
#   scripts/android-framework.sh      (prints the path of android-all.jar on stdout)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
artifact="org.robolectric:android-all:14-robolectric-10818077"
dir="$root/build/android-framework"
jar="$dir/android-all-14-robolectric-10818077.jar"

if [ ! -s "$jar" ]; then
    mkdir -p "$dir"
    copy() { mvn -B -q "$@" dependency:copy -Dartifact="$artifact" -DoutputDirectory="$dir" >&2; }
    copy -o 2>/dev/null || copy
fi
[ -s "$jar" ] || { echo "android-framework.sh: $artifact was not fetched" >&2; exit 1; }
echo "$jar"
