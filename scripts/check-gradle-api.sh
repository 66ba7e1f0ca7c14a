#!/usr/bin/env bash
# Checks the Gradle plugin against the Gradle 8.10 API (dev.gradleplugins:gradle-api on Maven
# Central), although it is built and run with Gradle 4.4.1:
#   1. compiles gradle-plugin/src/main/java against that API jar (plus Groovy, which its POM
#      declares; gradle-plugin/api-check/pom.xml lists them), so that a removed or changed API
#      fails here; deprecations are listed;
#   2. runs GradleApiCheck (gradle-plugin/src/apiCheck/java) on the classes compiled that way: it
#      looks up every method the plugin calls reflectively (GradleCompat.Api) in the same jar.
# Prints "ok <what>" / "FAIL <what>" lines; the exit code is non-zero when one failed.
# Needs the bridge jar (bridge/target, built by scripts/build-plugins.sh); mvn fetches the API
# jar into the local Maven repository once.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

api_version=8.10          # gradle-plugin/api-check/pom.xml names the jars
out="$root/build/gradle-api-$api_version"
rm -rf "$out"
mkdir -p "$out/lib" "$out/classes"
status=0

if ! mvn -q -B -f gradle-plugin/api-check/pom.xml dependency:copy-dependencies \
        -DoutputDirectory="$out/lib" -DincludeScope=runtime >"$out/mvn.log" 2>&1; then
    sed 's/^/     /' "$out/mvn.log" | tail -20
    echo "FAIL fetch the Gradle $api_version API jar from Maven Central"
    exit 1
fi
bridge_jar=$(ls bridge/target/racer-bridge-*.jar 2>/dev/null | grep -v -e sources -e javadoc | head -1)
[ -n "$bridge_jar" ] || { echo "FAIL bridge jar missing (run scripts/build-plugins.sh)"; exit 1; }
api_jars=$(find "$out/lib" -name '*.jar' | sort | tr '\n' ':')
classpath="$api_jars$bridge_jar"

mapfile -t sources < <(find gradle-plugin/src/main/java gradle-plugin/src/apiCheck/java -name '*.java' | sort)
if javac --release 8 -Xlint:all,-options,-processing,-serial -Xmaxwarns 1000 -encoding UTF-8 \
        -cp "$classpath" -d "$out/classes" "${sources[@]}" >"$out/javac.log" 2>&1; then
    echo "ok   the plugin compiles against the Gradle $api_version API"
else
    status=1
    echo "FAIL the plugin compiles against the Gradle $api_version API"
fi
# Deprecations are not errors (the plugin still runs on 4.4), but they are the next removals.
grep -E "warning: \[(deprecation|removal)\]" "$out/javac.log" | sed "s|^$root/||; s|^|     deprecated in $api_version: |"
[ $status -eq 0 ] || { sed 's/^/     /' "$out/javac.log" | head -40; exit 1; }

java -cp "$out/classes:$classpath" dev.racer.gradle.GradleApiCheck | sed "s/^\(ok  \|FAIL\) /\1 Gradle $api_version API has /"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
exit $status
