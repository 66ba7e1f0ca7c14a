#!/usr/bin/env bash
# Builds what the build-tool plugins need, in order:
#   1. the native engine and JNI library (cargo, `dist` profile: release with whole-program
#      optimisation);
#   2. bridge/ (dev.racer:racer-bridge, bundling libracer_jni.so), installed into the local
#      Maven repository (~/.m2) where the plugins pick it up;
#   3. the Gradle plugin jar gradle-plugin/build/libs/racer-gradle-plugin-<version>.jar (bridge
#      classes and the native library included), also installed into ~/.m2 with its plugin marker;
#   4. the Maven plugin (maven-plugin/), installed into ~/.m2;
#   5. dev.racer:racer-annotations (annotations/), installed into ~/.m2 by Maven, and built once
#      more by its build.gradle to check that both build setups produce the same classes.
# Idempotent; pass --skip-cargo to reuse an existing target/dist/libracer_jni.so.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

skip_cargo=false
for arg in "$@"; do
    case "$arg" in
        --skip-cargo) skip_cargo=true ;;
        *) echo "build-plugins: unknown argument $arg" >&2; exit 2 ;;
    esac
done

scripts/setup.sh

if ! $skip_cargo; then
    echo "== cargo build --profile dist --workspace"
    cargo build --profile dist --workspace
fi
[ -f target/dist/libracer_jni.so ] || { echo "build-plugins: target/dist/libracer_jni.so is missing" >&2; exit 1; }

echo "== bridge (dev.racer:racer-bridge) -> ~/.m2"
(cd bridge && mvn -q -B clean install -DskipTests)

if [ -f gradle-plugin/build.gradle ]; then
    echo "== gradle-plugin"
    (cd gradle-plugin && gradle --offline --no-daemon -q --console=plain clean build installPlugin)
fi

# ---- Maven plugin: dev.racer:racer-maven-plugin -> ~/.m2 (tests: scripts/test-maven.sh) ----
if [ -f maven-plugin/pom.xml ]; then
    echo "== maven-plugin (dev.racer:racer-maven-plugin) -> ~/.m2"
    (cd maven-plugin && mvn -q -B install -Dinvoker.skip=true)
fi
# ---- end of Maven plugin step ----

echo "== annotations (dev.racer:racer-annotations) -> ~/.m2"
(cd annotations && mvn -q -B clean install)
(cd annotations && gradle --offline --no-daemon -q --console=plain clean jar)
if ! cmp -s annotations/target/classes/dev/racer/annotations/SuppressRace.class \
        annotations/build/classes/java/main/dev/racer/annotations/SuppressRace.class; then
    echo "build-plugins: annotations/pom.xml and annotations/build.gradle compile SuppressRace differently" >&2
    exit 1
fi
