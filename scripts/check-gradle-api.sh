#!/usr/bin/env bash
# Checks the Gradle plugin against the Gradle 8.10 API (dev.gradleplugins:gradle-api on Maven
# Central), although it is built and run with Gradle 4.4.1:
#   1. compiles gradle-plugin/src/main/java against that API jar (plus Groovy, which its POM
#      declares), so that a removed or changed API fails here; deprecations are listed;
#   2. runs GradleApiCheck (gradle-plugin/src/apiCheck/java) on the classes compiled that way: it
#      looks up every method the plugin calls reflectively (GradleCompat.Api) in the same jar.
# Prints "ok <what>" / "FAIL <what>" lines; the exit code is non-zero when one failed.
# Needs the bridge jar (bridge/target, built by scripts/build-plugins.sh); mvn fetches the API
# jar into the local Maven repository once.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

api_version=8.10
groovy_version=3.0.22    # the compile dependency of dev.gradleplugins:gradle-api:8.10
# groovy-ant: org.gradle.api.Project's methods mention groovy.ant.AntBuilder (of groovy-all, a
# runtime dependency of the API jar); the reflective look-ups load those signatures.
out="$root/build/gradle-api-$api_version"
rm -rf "$out"
mkdir -p "$out/lib" "$out/classes"
status=0

fetch() {
    mvn -q -B dependency:copy -Dartifact="$1" -DoutputDirectory="$out/lib" -Dmdep.overWriteReleases=true
}
if ! fetch "dev.gradleplugins:gradle-api:$api_version" || ! fetch "org.codehaus.groovy:groovy:$groovy_version" \
        || ! fetch "org.codehaus.groovy:groovy-ant:$groovy_version"; then
    echo "FAIL fetch the Gradle $api_version API jar from Maven Central"
    exit 1
fi
bridge_jar=$(ls bridge/target/racer-bridge-*.jar 2>/dev/null | grep -v -e sources -e javadoc | head -1)
[ -n "$bridge_jar" ] || { echo "FAIL bridge jar missing (run scripts/build-plugins.sh)"; exit 1; }
classpath="$out/lib/gradle-api-$api_version.jar:$out/lib/groovy-$groovy_version.jar:$bridge_jar"

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

java -cp "$out/classes:$classpath:$out/lib/groovy-ant-$groovy_version.jar" dev.racer.gradle.GradleApiCheck | sed "s/^\(ok  \|FAIL\) /\1 Gradle $api_version API has /"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
exit $status
