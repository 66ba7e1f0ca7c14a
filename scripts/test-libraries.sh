#!/usr/bin/env bash
# Fetches the third-party libraries whose models the library fixtures exercise (tests/libraries/,
# tests/android/reactive/, tests/kotlin/reactive/) and prints their paths, separated by ':':
# RxJava 3 (with Reactive Streams), RxJava 2, the classes of RxAndroid 3 (an Android archive: its
# classes.jar is taken out of it), Project Reactor, Netty's common and transport modules, and
# Dagger with javax.inject (the annotations of injected dispatchers, tests/kotlin/injected_dispatchers/).
# Resolved by Maven into the local repository (~/.m2), offline first, and copied once to
# build/test-libraries/.
#
#   scripts/test-libraries.sh      (prints JAR:JAR:... on stdout)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$root/build/test-libraries"
artifacts=(
    io.reactivex.rxjava3:rxjava:3.1.9
    org.reactivestreams:reactive-streams:1.0.4
    io.reactivex.rxjava2:rxjava:2.2.21
    io.reactivex.rxjava3:rxandroid:3.0.2:aar
    io.projectreactor:reactor-core:3.6.11
    io.netty:netty-common:4.1.115.Final
    io.netty:netty-transport:4.1.115.Final
    com.google.dagger:dagger:2.52
    javax.inject:javax.inject:1
)
jars=(
    "$dir/rxjava-3.1.9.jar"
    "$dir/reactive-streams-1.0.4.jar"
    "$dir/rxjava-2.2.21.jar"
    "$dir/rxandroid-3.0.2-classes.jar"
    "$dir/reactor-core-3.6.11.jar"
    "$dir/netty-common-4.1.115.Final.jar"
    "$dir/netty-transport-4.1.115.Final.jar"
    "$dir/dagger-2.52.jar"
    "$dir/javax.inject-1.jar"
)

mkdir -p "$dir"
copy() { mvn -B -q "$@" dependency:copy -Dartifact="$artifact" -DoutputDirectory="$dir" >&2; }
for artifact in "${artifacts[@]}"; do
    IFS=: read -r _ name version packaging <<<"$artifact"
    [ -s "$dir/$name-$version.${packaging:-jar}" ] && continue
    copy -o 2>/dev/null || copy
done
classes="$dir/rxandroid-3.0.2-classes.jar"
if [ ! -s "$classes" ]; then
    (cd "$dir" && jar xf rxandroid-3.0.2.aar classes.jar && mv -f classes.jar "$classes")
fi
for jar in "${jars[@]}"; do
    [ -s "$jar" ] || { echo "test-libraries.sh: $jar was not fetched" >&2; exit 1; }
done
(IFS=:; echo "${jars[*]}")
