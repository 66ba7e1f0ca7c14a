#!/usr/bin/env bash
# Functional tests of the racer bridge and Gradle plugin, with the real tools: cargo builds the
# engine, Maven builds and unit-tests racer-bridge (JUnit, real native calls), and the installed
# Gradle (4.4.1 on Debian) runs, offline, on sample-project and on small projects written here.
#
# Every check prints "ok" or "FAIL"; the last line is "N passed, N failed" and the exit code is
# non-zero when a check failed. Logs are kept under build/test-gradle/.
#
#   scripts/test-gradle.sh [--skip-build]     (--skip-build: reuse the installed plugin jar)
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

skip_build=false
[ "${1:-}" = "--skip-build" ] && skip_build=true

# sample-project's android module compiles against the Android framework jar.
RACER_ANDROID_JAR="${RACER_ANDROID_JAR:-$(scripts/android-framework.sh)}" || exit 1
export RACER_ANDROID_JAR

passed=0
failed=0
failures=()

work="$root/build/test-gradle"
projects="$work/projects"
logs="$work/logs"
rm -rf "$projects" "$logs"
mkdir -p "$projects" "$logs"

# A Gradle home of our own: its daemon is reused by every run below and stopped at the end.
export GRADLE_USER_HOME="$work/gradle-home"
cleanup() { gradle --stop >/dev/null 2>&1 || true; }
trap cleanup EXIT

ok() { passed=$((passed + 1)); echo "ok   $1"; }
ko() {
    failed=$((failed + 1)); failures+=("$1"); echo "FAIL $1"
    [ -n "${2:-}" ] && echo "     (log: ${2#"$root"/})"
    return 0
}

# check NAME LOG COMMAND...: one test result.
check() {
    local name="$1" log="$2"; shift 2
    if "$@"; then ok "$name"; else ko "$name" "$log"; fi
}
has() { grep -qF -- "$2" "$1"; }
lacks() { ! grep -qF -- "$2" "$1"; }
has_re() { grep -qE -- "$2" "$1"; }
# Task outcome as printed by --console=plain: ":app:racerCheck" (executed) or ":app:racerCheck UP-TO-DATE".
ran() { grep -qxE -- "$2( FAILED)?" "$1"; }
up_to_date() { grep -qxF -- "$2 UP-TO-DATE" "$1"; }
no_crash() { lacks "$1" "hs_err_pid" && lacks "$1" "disappeared unexpectedly" && lacks "$1" "SIGSEGV"; }

# gradle_in DIR LOG ARGS...: runs Gradle offline; returns its exit code.
gradle_in() {
    local dir="$1" log="$2"; shift 2
    (cd "$dir" && timeout 600 gradle --offline --console=plain --stacktrace "$@" </dev/null) >"$log" 2>&1
}

# ---------------------------------------------------------------- build
if ! $skip_build; then
    echo "== scripts/build-plugins.sh"
    if ! scripts/build-plugins.sh >"$logs/build-plugins.log" 2>&1; then
        tail -40 "$logs/build-plugins.log"
        ko "build-plugins.sh builds the engine, the bridge and the plugin" "$logs/build-plugins.log"
        echo "$passed passed, $failed failed"
        exit 1
    fi
fi
plugin_jar="$root/gradle-plugin/build/libs/racer-gradle-plugin-0.1.0.jar"
check "plugin jar exists" "" test -f "$plugin_jar"
check "plugin jar bundles the bridge and the native library" "" \
    bash -c "unzip -l '$plugin_jar' | grep -q 'dev/racer/bridge/native/linux-x86_64/libracer_jni.so' \
             && unzip -l '$plugin_jar' | grep -q 'dev/racer/bridge/native/linux-x86_64/racer$' \
             && unzip -l '$plugin_jar' | grep -q 'dev/racer/bridge/Racer.class' \
             && unzip -l '$plugin_jar' | grep -q 'META-INF/gradle-plugins/dev.racer.properties'"
# The bridge's Gson is relocated, so a build with its own Gson on the classpath cannot clash with it.
check "plugin jar carries Gson only under the bridge's package" "" \
    bash -c "unzip -l '$plugin_jar' | grep -q 'dev/racer/bridge/internal/gson/Gson.class' \
             && ! unzip -l '$plugin_jar' | grep -q 'com/google/gson/'"

# The Gradle 8.10 API check (scripts/check-gradle-api.sh) runs meanwhile; its results come last.
scripts/check-gradle-api.sh >"$logs/gradle-api.log" 2>&1 &
api_check=$!

# ---------------------------------------------------------------- bridge unit tests (JUnit)
echo "== bridge: mvn test"
(cd bridge && mvn -B test) >"$logs/bridge-junit.log" 2>&1
for report in bridge/target/surefire-reports/TEST-*.xml; do
    [ -f "$report" ] || continue
    # One result per JUnit test case.
    while IFS=$'\t' read -r outcome name; do
        if [ "$outcome" = ok ]; then ok "bridge junit: $name"; else ko "bridge junit: $name" "$logs/bridge-junit.log"; fi
    done < <(python3 - "$report" <<'EOF'
import sys, xml.etree.ElementTree as ET
for case in ET.parse(sys.argv[1]).getroot().iter('testcase'):
    bad = any(child.tag in ('failure', 'error') for child in case)
    skipped = any(child.tag == 'skipped' for child in case)
    if not skipped:
        print(('failed' if bad else 'ok') + '\t' + case.get('classname', '').split('.')[-1] + '.' + case.get('name', ''))
EOF
)
done
ls bridge/target/surefire-reports/TEST-*.xml >/dev/null 2>&1 || ko "bridge junit tests ran" "$logs/bridge-junit.log"

# ---------------------------------------------------------------- helpers for projects
# copy_sample NAME: a private copy of sample-project.
copy_sample() {
    local dir="$projects/$1"
    mkdir -p "$dir"
    (cd sample-project && tar --exclude=build --exclude=.gradle --exclude=target -cf - .) | (cd "$dir" && tar -xf -)
    echo "$dir"
}

# write FILE: stdin into FILE (parents created).
write() { mkdir -p "$(dirname "$1")"; cat >"$1"; }

# A buildscript block that puts the plugin jar on the class path by file.
buildscript_files="buildscript { dependencies { classpath files('$plugin_jar') } }"

annotation_sources() {
    local dir="$1"
    write "$dir/src/main/java/p/ThreadSafe.java" <<'EOF'
package p;
@java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.CLASS)
public @interface ThreadSafe {}
EOF
}

sample_line() { grep -n -- "$2" "$1" | head -1 | cut -d: -f1; }

app_src="src/main/java/dev/racer/sample/app"
app_pkg="dev/racer/sample/app"
stats_add_line=$(sample_line "sample-project/app/$app_src/Stats.java" "total += value")
stats_get_line=$(sample_line "sample-project/app/$app_src/Stats.java" "return total")
service_update_line=$(sample_line "sample-project/app/$app_src/Service.java" "counter.increment()")
service_current_line=$(sample_line "sample-project/app/$app_src/Service.java" "return counter.get()")
android_src="src/main/java/dev/racer/sample/android"
news_refresh_line=$(sample_line "sample-project/android/$android_src/NewsActivity.java" "headline = download")
news_resume_line=$(sample_line "sample-project/android/$android_src/NewsActivity.java" "headlineView.setText(headline")
counter_line=$(sample_line "sample-project/lib/src/main/java/dev/racer/sample/lib/Counter.java" "count++")

# ---------------------------------------------------------------- sample-project: races fail the build
echo "== sample-project: gradle racerCheck --continue"
sample=$(copy_sample sample)
log="$logs/sample-racerCheck.log"
gradle_in "$sample" "$log" racerCheck --continue
rc=$?
check "sample: build fails because of races" "$log" test "$rc" -ne 0
check "sample: failure names the count and the report" "$log" \
    has "$log" "racer found 4 races in project ':app'; see the report at file:$sample/app/build/reports/racer/racer.html"
check "sample: lib and annotations pass" "$log" \
    bash -c "grep -qxF ':lib:racerCheck' '$log' && grep -qxF ':annotations:racerCheck' '$log' && ! grep -qF \"in project ':lib'\" '$log'"
check "sample: unprotected write in one module (Stats.add)" "$log" \
    bash -c "grep -qxF '$app_pkg/Stats.java:$stats_add_line: error: THREAD_SAFETY_VIOLATION' '$log' \
             && grep -qF 'at dev.racer.sample.app.Stats.add(Stats.java:$stats_add_line): access to \`this.total\` (write)' '$log'"
check "sample: read/write race in one module (Stats.total)" "$log" \
    bash -c "grep -qxF '$app_pkg/Stats.java:$stats_get_line: error: THREAD_SAFETY_VIOLATION' '$log' \
             && grep -qF 'at dev.racer.sample.app.Stats.total(Stats.java:$stats_get_line): access to \`this.total\` (read)' '$log'"
check "sample: cross-module write race reported in app (Service.update)" "$log" \
    grep -qxF "$app_pkg/Service.java:$service_update_line: error: THREAD_SAFETY_VIOLATION" "$log"
check "sample: cross-module read race reported in app (Service.current)" "$log" \
    grep -qxF "$app_pkg/Service.java:$service_current_line: error: THREAD_SAFETY_VIOLATION" "$log"
check "sample: cross-module trace goes into lib's Counter.increment()" "$log" \
    has "$log" "at dev.racer.sample.lib.Counter.increment(Counter.java:$counter_line): access to \`this.counter.count\` (write)"
check "sample: android module fails with its 2 races" "$log" \
    has "$log" "racer found 2 races in project ':android'"
check "sample: android @WorkerThread write races (NewsActivity.refresh)" "$log" \
    bash -c "grep -qxF 'dev/racer/sample/android/NewsActivity.java:$news_refresh_line: error: THREAD_SAFETY_VIOLATION' '$log' \
             && grep -qF 'at dev.racer.sample.android.NewsActivity.refresh(NewsActivity.java:$news_refresh_line): access to \`this.headline\` (write)' '$log'"
check "sample: android main-thread read in onResume races with it" "$log" \
    bash -c "grep -qxF 'dev/racer/sample/android/NewsActivity.java:$news_resume_line: error: THREAD_SAFETY_VIOLATION' '$log' \
             && grep -qF 'at dev.racer.sample.android.NewsActivity.onResume(NewsActivity.java:$news_resume_line): access to \`this.headline\` (read)' '$log'"
check "sample: android runOnUiThread handoff and lifecycle-only fields are not reported" "$log" \
    bash -c "! grep -E 'NewsActivity\.[a-zA-Z]+\(NewsActivity\.java:[0-9]+\): access to .this\.(status|resumes|headlineView)' '$log'"
check "sample: safe classes are not reported" "$log" \
    bash -c "! grep -E '/(Cache|Formatter|Screen|SafeCounter|EventLog|Counter)\\.java:[0-9]+: error:' '$log'"
for f in racer.txt racer.json racer.sarif racer.html; do
    check "sample: report app/build/reports/racer/$f written" "$log" test -s "$sample/app/build/reports/racer/$f"
done
check "sample: lib summary written to lib/build/racer/summaries.json" "$log" test -s "$sample/lib/build/racer/summaries.json"
check "sample: no JVM crash" "$log" no_crash "$log"

log="$logs/sample-property.log"
gradle_in "$sample" "$log" racerCheck -Pracer.ignoreFailures=true
rc=$?
check "-Pracer.ignoreFailures=true: build succeeds and still reports" "$log" \
    bash -c "[ $rc -eq 0 ] && grep -qF '(ignoreFailures is set)' '$log'"

# ---------------------------------------------------------------- ignoreFailures, UP-TO-DATE, incremental
echo "== sample-project with ignoreFailures: reruns and incremental changes"
inc=$(copy_sample incremental)
printf '\nracer { ignoreFailures = true }\n' | tee -a "$inc/app/build.gradle" >>"$inc/android/build.gradle"
cat >>"$inc/app/build.gradle" <<'EOF'
// What ordinary consumers of lib and annotations get: never the summary variant.
task printClasspaths {
    doLast {
        println 'compileClasspath: ' + configurations.compileClasspath.files.collect { it.name }.sort().join(' ')
        println 'runtimeClasspath: ' + configurations.runtimeClasspath.files.collect { it.name }.sort().join(' ')
    }
}
EOF
log="$logs/ignore-1.log"
gradle_in "$inc" "$log" check
rc=$?
check "ignoreFailures: build succeeds" "$log" test "$rc" -eq 0
check "ignoreFailures: races are still reported" "$log" \
    grep -qxF "$app_pkg/Service.java:$service_update_line: error: THREAD_SAFETY_VIOLATION" "$log"
check "ignoreFailures: warning names the count" "$log" has "$log" "racer found 4 races in project ':app'"
check "check depends on racerCheck" "$log" ran "$log" ":app:racerCheck"

log="$logs/classpaths.log"
gradle_in "$inc" "$log" -q :app:printClasspaths
check "summary variant: app's compileClasspath is lib's and annotations' classes, no summary file" "$log" \
    grep -qxF "compileClasspath: main main" "$log"
check "summary variant: app's runtimeClasspath is lib's jar, no summary file" "$log" \
    grep -qxF "runtimeClasspath: lib-0.1.0.jar" "$log"

log="$logs/ignore-2-noop.log"
gradle_in "$inc" "$log" check
check "second run: app racerCheck UP-TO-DATE" "$log" up_to_date "$log" ":app:racerCheck"
check "second run: lib racerCheck UP-TO-DATE" "$log" up_to_date "$log" ":lib:racerCheck"

# A change in app re-runs app only.
sed -i 's|^}$|    public int size() { return 1; }\n}|' "$inc/app/$app_src/Formatter.java"
log="$logs/ignore-3-app-change.log"
gradle_in "$inc" "$log" racerCheck
check "app change: app racerCheck re-runs" "$log" ran "$log" ":app:racerCheck"
check "app change: lib racerCheck UP-TO-DATE" "$log" up_to_date "$log" ":lib:racerCheck"
check "app change: annotations racerCheck UP-TO-DATE" "$log" up_to_date "$log" ":annotations:racerCheck"

# A change in lib re-runs lib and its dependant app, not annotations.
sed -i 's|^}$|    public void reset() { count = 0; }\n}|' "$inc/lib/src/main/java/dev/racer/sample/lib/Counter.java"
log="$logs/ignore-4-lib-change.log"
gradle_in "$inc" "$log" racerCheck
check "lib change: lib racerCheck re-runs" "$log" ran "$log" ":lib:racerCheck"
check "lib change: dependant app racerCheck re-runs" "$log" ran "$log" ":app:racerCheck"
check "lib change: annotations racerCheck UP-TO-DATE" "$log" up_to_date "$log" ":annotations:racerCheck"

# ---------------------------------------------------------------- clean code passes; plugins DSL; runOnCheck
echo "== clean project (plugins { } DSL, mavenLocal marker)"
clean="$projects/clean"
write "$clean/settings.gradle" <<'EOF'
pluginManagement { repositories { mavenLocal() } }
rootProject.name = 'clean'
EOF
write "$clean/build.gradle" <<'EOF'
plugins {
    id 'java'
    id 'dev.racer' version '0.1.0'
}
racer { showProgress = true }
EOF
annotation_sources "$clean"
write "$clean/src/main/java/p/Account.java" <<'EOF'
package p;

@ThreadSafe
public class Account {
    private long balance;

    public synchronized void deposit(long amount) {
        balance += amount;
    }

    public synchronized long balance() {
        return balance;
    }

    public long fresh() {
        Account a = new Account();
        a.balance = 5;
        return a.balance;
    }
}
EOF
log="$logs/clean.log"
gradle_in "$clean" "$log" check
rc=$?
check "clean code: build succeeds" "$log" test "$rc" -eq 0
check "clean code: racerCheck ran from check" "$log" ran "$log" ":racerCheck"
check "clean code: no races reported" "$log" has "$log" "racer: no races found in project 'clean'"
check "clean code: summary written" "$log" test -s "$clean/build/racer/summaries.json"

printf '\nracer { runOnCheck = false }\n' >>"$clean/build.gradle"
log="$logs/clean-runOnCheck.log"
gradle_in "$clean" "$log" check
check "runOnCheck = false: check does not run racerCheck" "$log" bash -c "! grep -qE '^:racerCheck' '$log'"

# ---------------------------------------------------------------- extension settings
echo "== extension settings"
cfg="$projects/settings"
write "$cfg/settings.gradle" <<<"rootProject.name = 'settings'"
write "$cfg/build.gradle" <<EOF
$buildscript_files
apply plugin: 'java'
apply plugin: 'dev.racer'
racer {
    threadSafeAnnotations = ['Concurrent']
    ignoreClasses = ['p.Ignored', 'p.gen.*']
    maxIssues = 10
    reportsDir = file("\$buildDir/racer-out")
    reports {
        html = false
        sarif = false
    }
}
EOF
annotation_sources "$cfg"
write "$cfg/src/main/java/p/Concurrent.java" <<'EOF'
package p;
@java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.CLASS)
public @interface Concurrent {}
EOF
write "$cfg/src/main/java/p/Custom.java" <<'EOF'
package p;

@Concurrent
public class Custom {
    private int n;

    public void bump() {
        n++;
    }
}
EOF
write "$cfg/src/main/java/p/Ignored.java" <<'EOF'
package p;

@ThreadSafe
public class Ignored {
    private int n;

    public void bump() {
        n++;
    }
}
EOF
write "$cfg/src/main/java/p/gen/Generated.java" <<'EOF'
package p.gen;

@p.ThreadSafe
public class Generated {
    private int n;

    public void bump() {
        n++;
    }
}
EOF
mkdir -p "$cfg/build/racer-out" && echo stale >"$cfg/build/racer-out/racer.html"
log="$logs/settings.log"
gradle_in "$cfg" "$log" racerCheck
rc=$?
check "maxIssues: races under the threshold do not fail the build" "$log" test "$rc" -eq 0
check "threadSafeAnnotations: @Concurrent class is checked" "$log" \
    bash -c "grep -qxF 'p/Custom.java:8: error: THREAD_SAFETY_VIOLATION' '$log' && grep -qF 'at p.Custom.bump(Custom.java:8)' '$log'"
check "ignoreClasses: p.Ignored is not reported" "$log" lacks "$log" "Ignored.bump"
check "ignoreClasses glob: p.gen.* (p.gen.Generated) is not reported" "$log" lacks "$log" "Generated"
check "reportsDir and toggles: text and json written" "$log" \
    bash -c "test -s '$cfg/build/racer-out/racer.txt' && test -s '$cfg/build/racer-out/racer.json'"
check "reports toggles: html and sarif not written (a stale racer.html is removed)" "$log" \
    bash -c "test ! -e '$cfg/build/racer-out/racer.html' && test ! -e '$cfg/build/racer-out/racer.sarif'"

# ---------------------------------------------------------------- broken inputs
echo "== broken class file and corrupt upstream summary"
broken="$projects/broken"
write "$broken/settings.gradle" <<<"rootProject.name = 'broken'"
write "$broken/build.gradle" <<EOF
$buildscript_files
apply plugin: 'java'
apply plugin: 'dev.racer'
// Leaves a truncated class file next to the good ones, as a broken tool or disk would.
compileJava.doLast {
    def bytes = file("\$destinationDir/p/Good.class").bytes
    file("\$destinationDir/p/Broken.class").bytes = bytes[0..<(bytes.length / 2 as int)] as byte[]
}
EOF
write "$broken/src/main/java/p/Good.java" <<'EOF'
package p;

public class Good {
    private int n;

    public synchronized void set(int v) {
        n = v;
    }
}
EOF
log="$logs/broken.log"
gradle_in "$broken" "$log" racerCheck
rc=$?
check "broken class: the build names the broken file (error or warning)" "$log" has_re "$log" "warning: .*Broken\\.class"
check "broken class: a failure is a clean task failure" "$log" \
    bash -c "[ $rc -eq 0 ] || grep -qF \"Execution failed for task ':racerCheck'\" '$log'"
check "broken class: no JVM crash" "$log" no_crash "$log"

corrupt=$(copy_sample corrupt-summary)
printf '\nracerCheck.doFirst { file("../lib/build/racer/summaries.json").text = "{ this is not json" }\n' >>"$corrupt/app/build.gradle"
log="$logs/corrupt-summary.log"
gradle_in "$corrupt" "$log" :app:racerCheck
rc=$?
check "corrupt upstream summary: build fails" "$log" test "$rc" -ne 0
check "corrupt upstream summary: message names the summary file" "$log" \
    has_re "$log" "racer: analysis of project ':app' failed: .*summaries\\.json"
check "corrupt upstream summary: no JVM crash" "$log" no_crash "$log"

# ---------------------------------------------------------------- class loaders and parallel projects
echo "== two buildscript class paths, --parallel"
multi="$projects/multi"
write "$multi/settings.gradle" <<'EOF'
rootProject.name = 'multi'
include 'a', 'b', 'c'
EOF
write "$multi/build.gradle" <<<"// Each subproject brings the plugin on its own buildscript class path."
# a and c: the jar by file; b: the same plugin from mavenLocal plus another entry, so another class loader.
for m in a b c; do
    if [ "$m" = b ]; then
        # Another class path (an extra entry) makes Gradle create another class loader.
        write "$multi/b/extra/marker.txt" <<<"b"
        bs="buildscript { repositories { mavenLocal() }; dependencies { classpath 'dev.racer:racer-gradle-plugin:0.1.0'; classpath files('extra') } }"
    else
        bs="$buildscript_files"
    fi
    write "$multi/$m/build.gradle" <<EOF
$bs
apply plugin: 'java'
apply plugin: 'dev.racer'
racer { ignoreFailures = true; quiet = ('$m' == 'c') }
EOF
    annotation_sources "$multi/$m"
    write "$multi/$m/src/main/java/p/Racy${m}.java" <<EOF
package p;

@ThreadSafe
public class Racy${m} {
    private int n;

    public void bump() {
        n++;
    }
}
EOF
done
log="$logs/multi.log"
gradle_in "$multi" "$log" racerCheck --parallel --info
rc=$?
check "separate class loaders + --parallel: build succeeds" "$log" test "$rc" -eq 0
check "separate class loaders: every module analysed" "$log" \
    bash -c "for m in a b c; do grep -qF \"racer: 1 race found in project ':\$m'\" '$log' || exit 1; done"
check "quiet: only the summary line is printed" "$log" \
    bash -c "grep -qxF 'p/Racya.java:8: error: THREAD_SAFETY_VIOLATION' '$log' && ! grep -qF 'p/Racyc.java:8' '$log'"
check "separate class loaders: no UnsatisfiedLinkError" "$log" lacks "$log" "UnsatisfiedLinkError"
check "separate class loaders: the second loader gets its own copy of the library" "$log" \
    bash -c "[ \$(grep -oE 'racer: engine .* loaded from .*' '$log' | sort -u | wc -l) -ge 2 ]"

# ---------------------------------------------------------------- child-process isolation
echo "== isolation = 'process': two builds at once sharing one native cache directory"
shared_cache="$projects/shared-native-cache"
iso_logs=()
iso_pids=()
for n in 1 2; do
    iso=$(copy_sample "isolation-$n")
    printf "\nallprojects { plugins.withId('dev.racer') { racer { isolation = 'process'; maxMemory = '2g' } } }\n" >>"$iso/build.gradle"
    iso_logs+=("$logs/isolation-$n.log")
    gradle_in "$iso" "$logs/isolation-$n.log" racerCheck --continue --parallel --info -Dracer.native.cache="$shared_cache" &
    iso_pids+=($!)
done
for n in 0 1; do
    wait "${iso_pids[$n]}"
    log="${iso_logs[$n]}"
    check "process isolation (build $((n + 1))): the engine ran as a child process" "$log" \
        has_re "$log" "racer: engine runs in a child process: $shared_cache/[0-9a-f]{64}/racer"
    check "process isolation (build $((n + 1))): same races as in-process" "$log" \
        has "$log" "racer found 4 races in project ':app'"
    check "process isolation (build $((n + 1))): the race in Stats.add is reported" "$log" \
        grep -qxF "$app_pkg/Stats.java:$stats_add_line: error: THREAD_SAFETY_VIOLATION" "$log"
    check "process isolation (build $((n + 1))): no JVM crash" "$log" no_crash "$log"
done
check "process isolation: one extracted executable in the shared cache" "" \
    bash -c "[ \$(find '$shared_cache' -name racer -type f -perm -u+x | wc -l) -eq 1 ] && ! find '$shared_cache' -name '*.tmp' | grep -q ."

# ---------------------------------------------------------------- Android wiring (stand-in for AGP)
# The Android Gradle Plugin cannot be downloaded here, so this project's buildSrc defines a
# STAND-IN plugin with the id `com.android.application`. It is not AGP: it only reproduces AGP's
# task naming for the release variant, a core JavaCompile task `compileReleaseJavaWithJavac` that
# compiles src/main/java into build/intermediates/javac/release/classes, created after evaluation
# as AGP creates its variant tasks. What is checked is racer's wiring to that task.
echo "== Android module (stand-in for AGP's task naming, not AGP)"
android="$projects/android"
write "$android/settings.gradle" <<<"rootProject.name = 'android'"
write "$android/buildSrc/src/main/java/standin/AgpTaskNamingStandIn.java" <<'EOF'
package standin;

import java.io.File;
import org.gradle.api.Plugin;
import org.gradle.api.Project;
import org.gradle.api.tasks.compile.JavaCompile;

/** Stand-in for the Android Gradle Plugin's task naming only (not AGP): one JavaCompile task. */
public class AgpTaskNamingStandIn implements Plugin<Project> {
    @Override
    public void apply(Project project) {
        project.afterEvaluate(p -> {
            JavaCompile javac = p.getTasks().create("compileReleaseJavaWithJavac", JavaCompile.class);
            javac.source(p.file("src/main/java"));
            javac.setClasspath(p.files());
            javac.setDestinationDir(new File(p.getBuildDir(), "intermediates/javac/release/classes"));
            javac.setSourceCompatibility("1.8");
            javac.setTargetCompatibility("1.8");
        });
    }
}
EOF
write "$android/buildSrc/src/main/resources/META-INF/gradle-plugins/com.android.application.properties" \
    <<<"implementation-class=standin.AgpTaskNamingStandIn"
write "$android/build.gradle" <<EOF
$buildscript_files
apply plugin: 'com.android.application'   // the stand-in from buildSrc, not AGP
apply plugin: 'dev.racer'
racer { androidVariant = findProperty('racerVariant') ?: 'release' }
EOF
annotation_sources "$android"
write "$android/src/main/java/p/Activity.java" <<'EOF'
package p;

@ThreadSafe
public class Activity {
    private int clicks;

    public void click() {
        clicks++;
    }
}
EOF
log="$logs/android.log"
gradle_in "$android" "$log" racerCheck
rc=$?
check "android (stand-in): racerCheck fails on the planted race" "$log" test "$rc" -ne 0
check "android (stand-in): racerCheck runs compileReleaseJavaWithJavac first" "$log" \
    bash -c "c=\$(grep -nxF ':compileReleaseJavaWithJavac' '$log' | head -1 | cut -d: -f1); r=\$(grep -nxE ':racerCheck( FAILED)?' '$log' | head -1 | cut -d: -f1); [ -n \"\$c\" ] && [ -n \"\$r\" ] && [ \"\$c\" -lt \"\$r\" ]"
check "android (stand-in): classes of build/intermediates/javac/release/classes analysed" "$log" \
    bash -c "test -f '$android/build/intermediates/javac/release/classes/p/Activity.class' && grep -qF \"racer found 1 race in project 'android'\" '$log'"
check "android (stand-in): the planted race is reported at its source line" "$log" \
    bash -c "grep -qxF 'p/Activity.java:8: error: THREAD_SAFETY_VIOLATION' '$log' && grep -qF 'at p.Activity.click(Activity.java:8)' '$log'"
check "android (stand-in): summary and reports written" "$log" \
    bash -c "test -s '$android/build/racer/summaries.json' && test -s '$android/build/reports/racer/racer.html'"
# A variant without tasks is not an error: racerCheck has no classes.
log="$logs/android-other-variant.log"
gradle_in "$android" "$log" racerCheck -PracerVariant=debug
rc=$?
check "android (stand-in): a variant without compile tasks is no error (racerCheck NO-SOURCE)" "$log" \
    bash -c "[ $rc -eq 0 ] && grep -qxF ':racerCheck NO-SOURCE' '$log'"

# ---------------------------------------------------------------- Android framework as context (stand-in for AGP)
# racer must see the variant's boot classpath (android.jar): only then is MainActivity.onCreate an
# override of Activity.onCreate, a main-thread lifecycle callback whose unlocked writes race with
# the locked read in current(). The stand-in android.jar is compiled here; like the SDK's, it
# holds java.lang as well as android.*, reduced to what the module uses. The stand-in plugin
# (again not AGP) hands it over the way AGP versions do, chosen by -Pframework:
#   task       options.bootstrapClasspath of the compile task (current AGP)
#   string     options.bootClasspath, a path string (AGP 2.x and 3.x)
#   extension  the `android` extension's bootClasspath (javac gets it through compilerArgs)
#   hidden     through compilerArgs only: racer cannot see it and must find nothing.
echo "== Android framework classes as context (stand-in for AGP, not AGP)"
fw="$projects/android-framework"
write "$fw/platform/java/lang/Object.java" <<<'package java.lang; public class Object { public Object() {} }'
write "$fw/platform/java/lang/String.java" <<<'package java.lang; public final class String {}'
write "$fw/platform/java/lang/Class.java" <<<'package java.lang; public final class Class<T> {}'
write "$fw/platform/android/os/Bundle.java" <<<'package android.os; public class Bundle {}'
write "$fw/platform/android/app/Activity.java" <<'EOF'
package android.app;

public class Activity {
    protected void onCreate(android.os.Bundle savedInstanceState) {}

    protected void onResume() {}
}
EOF
log="$logs/android-framework-platform.log"
check "android framework: stand-in android.jar compiles" "$log" bash -c "
    javac -nowarn -source 8 -target 8 -d '$fw/platform-classes' \$(find '$fw/platform' -name '*.java') >'$log' 2>&1 \
    && jar cf '$fw/android.jar' -C '$fw/platform-classes' . >>'$log' 2>&1"
write "$fw/settings.gradle" <<<"rootProject.name = 'android-framework'"
write "$fw/buildSrc/src/main/java/standin/AgpBootClasspathStandIn.java" <<'EOF'
package standin;

import java.io.File;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.gradle.api.Plugin;
import org.gradle.api.Project;
import org.gradle.api.tasks.compile.JavaCompile;

/** Stand-in for how AGP hands the platform's android.jar to javac (not AGP). */
public class AgpBootClasspathStandIn implements Plugin<Project> {
    /** What AGP's extension offers as `android.bootClasspath`. */
    public static class AndroidExtension {
        private List<File> bootClasspath = Collections.emptyList();

        public List<File> getBootClasspath() {
            return bootClasspath;
        }

        public void setBootClasspath(List<File> files) {
            bootClasspath = files;
        }
    }

    @Override
    public void apply(Project project) {
        final File androidJar = project.file("android.jar");
        final Object via = project.findProperty("framework");
        final AndroidExtension android = project.getExtensions().create("android", AndroidExtension.class);
        project.afterEvaluate(p -> {
            JavaCompile javac = p.getTasks().create("compileReleaseJavaWithJavac", JavaCompile.class);
            javac.source(p.file("src/main/java"));
            javac.setClasspath(p.files());
            javac.setDestinationDir(new File(p.getBuildDir(), "intermediates/javac/release/classes"));
            javac.setSourceCompatibility("1.8");
            javac.setTargetCompatibility("1.8");
            if ("task".equals(via)) {
                javac.getOptions().setBootstrapClasspath(p.files(androidJar));
            } else if ("string".equals(via)) {
                javac.getOptions().setBootClasspath(androidJar.getPath());
            } else {
                javac.getOptions().getCompilerArgs().addAll(Arrays.asList("-bootclasspath", androidJar.getPath()));
                if ("extension".equals(via)) {
                    android.setBootClasspath(Collections.singletonList(androidJar));
                }
            }
        });
    }
}
EOF
write "$fw/buildSrc/src/main/resources/META-INF/gradle-plugins/com.android.library.properties" \
    <<<"implementation-class=standin.AgpBootClasspathStandIn"
write "$fw/build.gradle" <<EOF
$buildscript_files
apply plugin: 'com.android.library'   // the stand-in from buildSrc, not AGP
apply plugin: 'dev.racer'
racer { showProgress = true }
EOF
write "$fw/src/main/java/p/MainActivity.java" <<'EOF'
package p;

import android.app.Activity;
import android.os.Bundle;

public class MainActivity extends Activity {
    private int count;

    protected void onCreate(Bundle savedInstanceState) {
        count = 1;
    }

    protected void onResume() {
        count++;
    }

    public synchronized int current() {
        return count * 2; // computed from count: no getter of it, whose lock would make any write race
    }
}
EOF
for via in task string extension; do
    log="$logs/android-framework-$via.log"
    rm -rf "$fw/build"
    gradle_in "$fw" "$log" racerCheck -Pframework=$via
    rc=$?
    check "android framework via $via: lifecycle writes race with the locked read" "$log" \
        bash -c "[ $rc -ne 0 ] && grep -qF \"racer found 1 race in project 'android-framework'\" '$log' \
                 && grep -qxF 'p/MainActivity.java:18: error: THREAD_SAFETY_VIOLATION' '$log' \
                 && grep -qF 'at p.MainActivity.current(MainActivity.java:18): access to \`this.count\` (read)' '$log'"
done
log="$logs/android-framework-hidden.log"
rm -rf "$fw/build"
gradle_in "$fw" "$log" racerCheck -Pframework=hidden
rc=$?
check "android framework hidden from racer: onCreate is no known callback, no race" "$log" \
    bash -c "[ $rc -eq 0 ] && grep -qF \"racer: no races found in project 'android-framework'\" '$log'"
# ---------------------------------------------------------------- Android library built by the real AGP
# A com.android.library module built by the real Android Gradle Plugin: Debian's AGP 2.2.2 for its
# Gradle 4.4.1, from Debian's Maven repository, with the SDK that scripts/android-sdk.sh assembles
# (Debian's build tools, a platform made from android-all). AGP compiles the module against the
# platform's android.jar, and racer must get that jar as context from AGP's compile task: the race
# below exists only when onCreate is known as an override of Activity.onCreate.
echo "== Android library built by the real Android Gradle Plugin (Debian's AGP 2.2.2)"
agp_sdk="${RACER_ANDROID_SDK:-}"
if [ -z "$agp_sdk" ]; then
    agp_sdk="$(scripts/android-sdk.sh 2>"$logs/android-sdk.log")"
    agp_sdk_rc=$?
else
    agp_sdk_rc=0
fi
if [ "$agp_sdk_rc" -eq 3 ]; then
    echo "skip real AGP build: the Debian packages for it cannot be installed here ($(tail -1 "$logs/android-sdk.log"))"
elif [ "$agp_sdk_rc" -ne 0 ]; then
    ko "real AGP: scripts/android-sdk.sh assembles the Android SDK" "$logs/android-sdk.log"
else
    agp="$projects/agp"
    agp_platform=$(cd "$agp_sdk/platforms" && ls | head -1)
    agp_build_tools=$(cd "$agp_sdk/build-tools" && ls | head -1)
    write "$agp/settings.gradle" <<<"rootProject.name = 'agp'"
    write "$agp/local.properties" <<<"sdk.dir=$agp_sdk"
    write "$agp/build.gradle" <<EOF
buildscript {
    repositories { maven { url 'file:///usr/share/maven-repo' } }   // Debian's Maven repository
    dependencies {
        classpath 'com.android.tools.build:gradle:debian'   // AGP 2.2.2
        // JAXB, used by AGP 2.2.2's SDK library and gone from Java 11+.
        classpath 'org.glassfish.jaxb:jaxb-runtime:debian'
        classpath 'javax.xml.bind:jaxb-api:debian'
        classpath 'javax.activation:activation:debian'
        classpath files('$plugin_jar')
    }
}
apply plugin: 'com.android.library'
apply plugin: 'dev.racer'
android {
    compileSdkVersion ${agp_platform#android-}
    buildToolsVersion '$agp_build_tools'
}
EOF
    write "$agp/src/main/AndroidManifest.xml" <<<'<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="p"/>'
    # Racy: the MainActivity of the framework test above (writes in onCreate and onResume, a locked read).
    mkdir -p "$agp/src/main/java/p"
    cp "$fw/src/main/java/p/MainActivity.java" "$agp/src/main/java/p/"
    # Safe: `resumes` is touched by lifecycle callbacks only (main thread), `hits` under the lock.
    write "$agp/src/main/java/p/SafeActivity.java" <<'EOF'
package p;

import android.app.Activity;
import android.os.Bundle;

public class SafeActivity extends Activity {
    private int resumes;
    private int hits;

    protected void onCreate(Bundle savedInstanceState) {
        resumes = 0;
    }

    protected void onResume() {
        resumes++;
    }

    public synchronized void hit() {
        hits++;
    }

    public synchronized int hits() {
        return hits;
    }
}
EOF
    log="$logs/agp.log"
    gradle_in "$agp" "$log" racerCheck --info
    rc=$?
    check "real AGP: racerCheck fails on the lifecycle race" "$log" \
        bash -c "[ $rc -ne 0 ] && grep -qF \"racer found 1 race in project 'agp'\" '$log'"
    check "real AGP: racerCheck runs AGP's compileReleaseJavaWithJavac first" "$log" \
        bash -c "c=\$(grep -nxF ':compileReleaseJavaWithJavac' '$log' | head -1 | cut -d: -f1); r=\$(grep -nxF ':racerCheck' '$log' | head -1 | cut -d: -f1); [ -n \"\$c\" ] && [ -n \"\$r\" ] && [ \"\$c\" -lt \"\$r\" ]"
    # The engine request (logged at --info): AGP's class directory as input, the platform's
    # android.jar (AGP's boot classpath) as context.
    check "real AGP: AGP's classes analysed with the platform's android.jar as context" "$log" \
        python3 - "$log" "$agp/build/intermediates/classes/release" "$agp_sdk/platforms/$agp_platform/android.jar" <<'EOF'
import json, sys
log, classes, android_jar = sys.argv[1:]
requests = [json.loads(line.split('racer: request ', 1)[1]) for line in open(log) if line.startswith('racer: request ')]
assert len(requests) == 1, requests
assert requests[0]['inputs'] == [classes], requests[0]['inputs']
assert requests[0]['classpath'] == [android_jar], requests[0]['classpath']
EOF
    check "real AGP: exactly the race of MainActivity.count, read in current(), written in onCreate" "$log" \
        python3 - "$agp/build/reports/racer/racer.json" <<'EOF'
import json, sys
issues = json.load(open(sys.argv[1]))['issues']
got = [(i['kind'], i['class'], i['method'], i['line'], i['access_path'],
        [(c['method'], c['line'], c['access'], c['locked']) for c in i['conflicts']]) for i in issues]
want = [('THREAD_SAFETY_VIOLATION', 'p.MainActivity', 'current', 18, 'this.count', [('onCreate', 10, 'write', False)])]
assert got == want, got
EOF
    check "real AGP: the race on the console at its source line" "$log" \
        bash -c "grep -qxF 'p/MainActivity.java:18: error: THREAD_SAFETY_VIOLATION' '$log' \
                 && grep -qxF '  Conflict: write of \`this.count\` without synchronization, in p.MainActivity.onCreate(MainActivity.java:10)' '$log'"
    # `check` runs racerCheck. AGP 2.2.2's `check` also runs lint, whose classes Debian does not
    # ship, and unit tests, whose mockableAndroidJar step cannot rewrite this platform's jar: both
    # are left out (-x), they are no part of racer.
    log="$logs/agp-check.log"
    gradle_in "$agp" "$log" check -x lint -x mockableAndroidJar -Pracer.ignoreFailures=true
    rc=$?
    check "real AGP: check runs racerCheck (ignoreFailures: passes, still reports)" "$log" \
        bash -c "[ $rc -eq 0 ] && grep -qxF ':racerCheck' '$log' && grep -qxF ':check' '$log' \
                 && grep -qF \"racer found 1 race in project 'agp'\" '$log'"
fi

# ---------------------------------------------------------------- included build
# app consumes com.example:lib:1.0, substituted by the included build libbuild: lib's summary must
# come through the summary variant (its racerCheck runs first) so that the race whose write is in
# lib's Counter is found in app.
echo "== includeBuild: summaries of an included build"
composite="$projects/composite"
write "$composite/libbuild/settings.gradle" <<<"rootProject.name = 'lib'"
write "$composite/libbuild/build.gradle" <<EOF
$buildscript_files
apply plugin: 'java'
apply plugin: 'dev.racer'
group = 'com.example'
version = '1.0'
EOF
write "$composite/libbuild/src/main/java/lib/Counter.java" <<'EOF'
package lib;

public class Counter {
    private int count;

    public void increment() {
        count++;
    }
}
EOF
write "$composite/app/settings.gradle" <<'EOF'
rootProject.name = 'app'
includeBuild '../libbuild'
EOF
write "$composite/app/build.gradle" <<EOF
$buildscript_files
apply plugin: 'java'
apply plugin: 'dev.racer'
dependencies { implementation 'com.example:lib:1.0' }
EOF
annotation_sources "$composite/app"
write "$composite/app/src/main/java/p/Service.java" <<'EOF'
package p;

import lib.Counter;

@ThreadSafe
public class Service {
    private final Counter counter = new Counter();

    public void update() {
        counter.increment();
    }
}
EOF
log="$logs/composite.log"
gradle_in "$composite/app" "$log" racerCheck
rc=$?
check "includeBuild: the included build's racerCheck runs first" "$log" \
    bash -c "l=\$(grep -nxF ':lib:racerCheck' '$log' | head -1 | cut -d: -f1); a=\$(grep -nxE ':racerCheck( FAILED)?' '$log' | head -1 | cut -d: -f1); [ -n \"\$l\" ] && [ -n \"\$a\" ] && [ \"\$l\" -lt \"\$a\" ]"
check "includeBuild: the race through lib's Counter is found in app" "$log" \
    bash -c "[ $rc -ne 0 ] && grep -qxF 'p/Service.java:10: error: THREAD_SAFETY_VIOLATION' '$log'"
check "includeBuild: the trace goes into the included build's Counter.increment()" "$log" \
    has "$log" "at lib.Counter.increment(Counter.java:7): access to \`this.counter.count\` (write)"
check "includeBuild: the summary came from the included build's file" "$log" \
    test -s "$composite/libbuild/build/racer/summaries.json"

# ---------------------------------------------------------------- baseline
echo "== baseline: racerBaseline, then racerCheck fails on new races only"
adopt="$projects/adopt"
write "$adopt/settings.gradle" <<'EOF'
rootProject.name = 'adopt'
// A build cache of this project's own, so that no earlier test run can serve racerCheck.
buildCache { local(DirectoryBuildCache) { directory = new File(rootDir, 'build-cache') } }
EOF
write "$adopt/build.gradle" <<EOF
$buildscript_files
apply plugin: 'java'
apply plugin: 'dev.racer'
racer { baseline = file('racer-baseline.json') }
EOF
annotation_sources "$adopt"
write "$adopt/src/main/java/p/Legacy.java" <<'EOF'
package p;

@ThreadSafe
public class Legacy {
    private int hits;

    public void hit() {
        hits++;
    }
}
EOF
log="$logs/baseline-missing.log"
gradle_in "$adopt" "$log" racerCheck
rc=$?
check "baseline: a missing baseline file is a warning, its races are new" "$log" \
    bash -c "[ $rc -ne 0 ] && grep -qF 'does not exist yet; run racerBaseline to create it' '$log' && grep -qF \"racer found 1 race in project 'adopt'\" '$log'"

log="$logs/baseline-write.log"
gradle_in "$adopt" "$log" racerBaseline
rc=$?
check "racerBaseline: succeeds although the module has a race" "$log" test "$rc" -eq 0
check "racerBaseline: writes racer-baseline.json with the race" "$log" \
    bash -c "grep -qF 'racer: wrote $adopt/racer-baseline.json with 1 issue of project' '$log' && grep -qF 'Legacy' '$adopt/racer-baseline.json'"
check "racerBaseline: the file has no absolute paths" "$log" lacks "$adopt/racer-baseline.json" "$adopt"
cp "$adopt/racer-baseline.json" "$work/baseline-first.json"
gradle_in "$adopt" "$logs/baseline-write-again.log" racerBaseline
check "racerBaseline: runs again when asked, same bytes" "$logs/baseline-write-again.log" \
    bash -c "grep -qxF ':racerBaseline' '$logs/baseline-write-again.log' && cmp -s '$adopt/racer-baseline.json' '$work/baseline-first.json'"

log="$logs/baseline-check.log"
gradle_in "$adopt" "$log" racerCheck --build-cache
rc=$?
check "baseline round trip: racerCheck passes" "$log" test "$rc" -eq 0
check "baseline round trip: the race is reported as baselined" "$log" \
    has "$log" "racer: no new races found in project 'adopt' (1 baselined, 0 suppressed,"
check "baseline round trip: JSON report marks it unchanged" "$log" \
    python3 -c "import json,sys; i=json.load(open('$adopt/build/reports/racer/racer.json'))['issues']; sys.exit(0 if [x['baseline'] for x in i]==['unchanged'] else 1)"
gradle_in "$adopt" "$logs/baseline-check-2.log" racerCheck --build-cache
check "baseline: racerCheck is UP-TO-DATE when nothing changed" "$logs/baseline-check-2.log" \
    up_to_date "$logs/baseline-check-2.log" ":racerCheck"
rm -rf "$adopt/build/reports" "$adopt/build/racer"
gradle_in "$adopt" "$logs/baseline-check-cache.log" racerCheck --build-cache
check "baseline: racerCheck with a baseline is cacheable (FROM-CACHE after its outputs are deleted)" \
    "$logs/baseline-check-cache.log" grep -qxF ":racerCheck FROM-CACHE" "$logs/baseline-check-cache.log"
printf '\n' >>"$adopt/racer-baseline.json"
gradle_in "$adopt" "$logs/baseline-check-edited.log" racerCheck --build-cache
check "baseline: editing the baseline file re-runs racerCheck (an input)" "$logs/baseline-check-edited.log" \
    ran "$logs/baseline-check-edited.log" ":racerCheck"

# Lines inserted above the race move it; it stays baselined.
sed -i 's|^public class Legacy {$|public class Legacy {\n    // Three lines\n    // inserted above\n    // the race.\n|' "$adopt/src/main/java/p/Legacy.java"
log="$logs/baseline-moved.log"
gradle_in "$adopt" "$log" racerCheck
rc=$?
check "baseline: lines inserted above a baselined race do not make it new" "$log" \
    bash -c "[ $rc -eq 0 ] && grep -qF \"racer: no new races found in project 'adopt' (1 baselined, 0 suppressed,\" '$log'"
check "baseline: the moved race is reported at its new line" "$log" \
    python3 -c "import json,sys; i=json.load(open('$adopt/build/reports/racer/racer.json'))['issues']; sys.exit(0 if [(x['line'],x['baseline']) for x in i]==[(12,'unchanged')] else 1)"

write "$adopt/src/main/java/p/Fresh.java" <<'EOF'
package p;

@ThreadSafe
public class Fresh {
    private int n;

    public void bump() {
        n++;
    }
}
EOF
log="$logs/baseline-new-race.log"
gradle_in "$adopt" "$log" racerCheck
rc=$?
check "baseline: a new race fails the build" "$log" test "$rc" -ne 0
check "baseline: the failure counts the new race only" "$log" \
    has "$log" "racer found 1 new race in project 'adopt' (1 baselined, 0 suppressed); see the report at"
check "baseline: the JSON report marks Fresh new and Legacy unchanged" "$log" \
    python3 -c "import json,sys; i=json.load(open('$adopt/build/reports/racer/racer.json'))['issues']; sys.exit(0 if sorted((x['class'],x['baseline']) for x in i)==[('p.Fresh','new'),('p.Legacy','unchanged')] else 1)"

# The race in Legacy is fixed: its entry is stale, which is reported but no error.
sed -i 's|    public void hit() {|    public synchronized void hit() {|' "$adopt/src/main/java/p/Legacy.java"
rm "$adopt/src/main/java/p/Fresh.java"
log="$logs/baseline-stale.log"
gradle_in "$adopt" "$log" racerCheck
rc=$?
check "baseline: a fixed race leaves a stale entry, reported, not an error" "$log" \
    bash -c "[ $rc -eq 0 ] && grep -qF 'racer: 1 baseline entry no longer occurs; regenerate the baseline to shrink it' '$log' && grep -qF 'gradle racerBaseline' '$log'"

# racerBaseline in a multi-module build: upstream racerCheck tasks feed it without failing.
multibase=$(copy_sample baseline-multi)
for m in app lib android; do printf "\nracer { baseline = file('racer-baseline.json') }\n" >>"$multibase/$m/build.gradle"; done
log="$logs/baseline-multi.log"
gradle_in "$multibase" "$log" racerBaseline
rc=$?
check "racerBaseline (modules): succeeds although app has races" "$log" test "$rc" -eq 0
check "racerBaseline (modules): a module without a baseline setting says so" "$log" \
    has "$log" "racer: no baseline file is set for project ':annotations', nothing written"
check "racerBaseline (modules): app's baseline has its 4 races, through lib's summary" "$log" \
    has "$log" "racer: wrote $multibase/app/racer-baseline.json with 4 issues of project ':app'"
log="$logs/baseline-multi-check.log"
gradle_in "$multibase" "$log" racerCheck
rc=$?
check "racerCheck (modules) after racerBaseline: passes, 4 baselined in app" "$log" \
    bash -c "[ $rc -eq 0 ] && grep -qF \"racer: no new races found in project ':app' (4 baselined, 0 suppressed,\" '$log'"

# ---------------------------------------------------------------- suppression in code
# suppression_sources DIR PREFIX ON_METHOD ON_CLASS ON_FIELD [IMPORT]: classes <PREFIX>Method,
# <PREFIX>Class (with a nested class) and <PREFIX>Field whose race is suppressed by the annotation
# given for a method, a class (its nested class included) and a field; <PREFIX>Method and
# <PREFIX>Field have one unsuppressed race too.
suppression_sources() {
    local dir="$1" prefix="$2" on_method="$3" on_class="$4" on_field="$5" import="${6:-}"
    write "$dir/src/main/java/p/${prefix}Method.java" <<EOF
package p;
$import
@ThreadSafe
public class ${prefix}Method {
    private int a;
    private int b;

    $on_method
    public void setA() {
        a++;
    }

    public void setB() {
        b++;
    }
}
EOF
    write "$dir/src/main/java/p/${prefix}Class.java" <<EOF
package p;
$import
$on_class
@ThreadSafe
public class ${prefix}Class {
    private int c;

    public void bump() {
        c++;
    }

    @ThreadSafe
    public static class Nested {
        private int d;

        public void bump() {
            d++;
        }
    }
}
EOF
    write "$dir/src/main/java/p/${prefix}Field.java" <<EOF
package p;
$import
@ThreadSafe
public class ${prefix}Field {
    $on_field
    private int e;
    private int f;

    public void bumpE() {
        e++;
    }

    public void bumpF() {
        f++;
    }
}
EOF
}
# The three uses of @SuppressRace: a reason, "all", an issue kind.
suppress_race=('@SuppressRace(reason = "reviewed")' '@SuppressRace("all")' '@SuppressRace("THREAD_SAFETY_VIOLATION")')

# suppressed_json REPORT: "Class.method:annotation" per issue ("-" when not suppressed), sorted.
suppressed_json() {
    python3 - "$1" <<'EOF'
import json, sys
for i in sorted(json.load(open(sys.argv[1]))['issues'], key=lambda i: (i['class'], i['method'])):
    s = i.get('suppressed')
    print('%s.%s:%s' % (i['class'], i['method'], s['annotation'] if s else '-'))
EOF
}

echo "== suppression: @SuppressRace (own and dev.racer:racer-annotations) and @SuppressLint"
supp="$projects/suppress"
write "$supp/settings.gradle" <<<"rootProject.name = 'suppress'"
write "$supp/build.gradle" <<EOF
$buildscript_files
apply plugin: 'java'
apply plugin: 'dev.racer'
EOF
annotation_sources "$supp"
suppression_sources "$supp" By "${suppress_race[@]}"
write "$supp/src/main/java/p/SuppressRace.java" <<'EOF'
package p;

/** Declared by the project itself: racer matches the simple name. */
@java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.CLASS)
public @interface SuppressRace {
    String value() default "all";

    String reason() default "";
}
EOF
# Android's @SuppressLint, declared here with its package and retention.
write "$supp/src/main/java/android/annotation/SuppressLint.java" <<'EOF'
package android.annotation;

@java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.CLASS)
public @interface SuppressLint {
    String[] value();
}
EOF
suppression_sources "$supp" Lint '@SuppressLint("racer")' '@SuppressLint({"NewApi", "racer"})' '@SuppressLint("racer")' \
    "import android.annotation.SuppressLint;"
log="$logs/suppress.log"
gradle_in "$supp" "$log" racerCheck
rc=$?
check "suppression: the unsuppressed races fail the build, counted apart" "$log" \
    bash -c "[ $rc -ne 0 ] && grep -qF \"racer found 4 new races in project 'suppress' (0 baselined, 8 suppressed)\" '$log'"
suppressed_json "$supp/build/reports/racer/racer.json" >"$work/suppress.txt" 2>>"$log"
expected_suppress="p.ByClass.bump:SuppressRace
p.ByClass\$Nested.bump:SuppressRace
p.ByField.bumpE:SuppressRace
p.ByField.bumpF:-
p.ByMethod.setA:SuppressRace
p.ByMethod.setB:-
p.LintClass.bump:SuppressLint
p.LintClass\$Nested.bump:SuppressLint
p.LintField.bumpE:SuppressLint
p.LintField.bumpF:-
p.LintMethod.setA:SuppressLint
p.LintMethod.setB:-"
check "suppression: method, class (nested class too) and field, for @SuppressRace and @SuppressLint" "$log" \
    test "$(cat "$work/suppress.txt")" = "$expected_suppress"
check "suppression: the reason is kept" "$log" \
    python3 -c "import json,sys; i=[x for x in json.load(open('$supp/build/reports/racer/racer.json'))['issues'] if x['method']=='setA' and x['class']=='p.ByMethod']; sys.exit(0 if i and i[0]['suppressed']['reason']=='reviewed' else 1)"

# Only suppressed races left: the build passes.
for c in ByMethod ByField LintMethod LintField; do
    sed -i 's#^    public void \(setB\|bumpF\)() {#    public synchronized void \1() {#' "$supp/src/main/java/p/$c.java"
done
log="$logs/suppress-only.log"
gradle_in "$supp" "$log" racerCheck
rc=$?
check "suppression: suppressed races never fail the build" "$log" \
    bash -c "[ $rc -eq 0 ] && grep -qF \"racer: no new races found in project 'suppress' (0 baselined, 8 suppressed,\" '$log'"

# The published annotation, dev.racer:racer-annotations, from the local Maven repository.
suppreal="$projects/suppress-artifact"
write "$suppreal/settings.gradle" <<<"rootProject.name = 'suppress-artifact'"
write "$suppreal/build.gradle" <<EOF
$buildscript_files
apply plugin: 'java'
apply plugin: 'dev.racer'
repositories { mavenLocal() }
dependencies { compileOnly 'dev.racer:racer-annotations:0.1.0' }
EOF
annotation_sources "$suppreal"
suppression_sources "$suppreal" By "${suppress_race[@]}" "import dev.racer.annotations.SuppressRace;"
log="$logs/suppress-artifact.log"
gradle_in "$suppreal" "$log" racerCheck
rc=$?
check "suppression (dev.racer:racer-annotations): 2 new, 4 suppressed" "$log" \
    bash -c "[ $rc -ne 0 ] && grep -qF \"racer found 2 new races in project 'suppress-artifact' (0 baselined, 4 suppressed)\" '$log'"
suppressed_json "$suppreal/build/reports/racer/racer.json" >"$work/suppress-artifact.txt" 2>>"$log"
check "suppression (dev.racer:racer-annotations): method, class (nested class too) and field" "$log" \
    test "$(cat "$work/suppress-artifact.txt")" = "$(echo "$expected_suppress" | grep -v Lint)"

# ---------------------------------------------------------------- filter file
echo "== filter file"
filt="$projects/filter"
write "$filt/settings.gradle" <<<"rootProject.name = 'filter'"
write "$filt/build.gradle" <<EOF
$buildscript_files
apply plugin: 'java'
apply plugin: 'dev.racer'
racer { filter = file('config/racer-filter.json') }
EOF
annotation_sources "$filt"
for c in Kept Dropped; do
    write "$filt/src/main/java/p/$c.java" <<EOF
package p;

@ThreadSafe
public class $c {
    private int n;
    private int cacheHits;

    public void bump() {
        n++;
    }

    public void hit() {
        cacheHits++;
    }
}
EOF
done
write "$filt/config/racer-filter.json" <<'EOF'
{
  "exclude": [{"class": "p.Dropped"}, {"field": "cache*"}]
}
EOF
log="$logs/filter.log"
gradle_in "$filt" "$log" racerCheck
rc=$?
check "filter: only what the filter keeps is reported (Kept.bump; not p.Dropped, not cache* fields)" "$log" \
    bash -c "[ $rc -ne 0 ] && grep -qF \"racer found 1 race in project 'filter'\" '$log' \
             && grep -qxF 'p/Kept.java:9: error: THREAD_SAFETY_VIOLATION' '$log' && ! grep -qF 'Dropped' '$log' && ! grep -qF 'cacheHits' '$log'"
printf '{"exclude": [{"class": "p.*"}]}\n' >"$filt/config/racer-filter.json"
log="$logs/filter-edited.log"
gradle_in "$filt" "$log" racerCheck
rc=$?
check "filter: editing the filter file re-runs racerCheck; excluding p.* leaves no race" "$log" \
    bash -c "[ $rc -eq 0 ] && grep -qxF ':racerCheck' '$log'"
gradle_in "$filt" "$logs/filter-noop.log" racerCheck
check "filter: racerCheck UP-TO-DATE when the filter file did not change" "$logs/filter-noop.log" \
    up_to_date "$logs/filter-noop.log" ":racerCheck"
rm "$filt/config/racer-filter.json"
log="$logs/filter-missing.log"
gradle_in "$filt" "$log" racerCheck
rc=$?
check "filter: a filter file that is set but missing fails clearly" "$log" \
    bash -c "[ $rc -ne 0 ] && grep -qE \"racer-filter.json.*(does not exist|not found|No such file)\" '$log'"

# ---------------------------------------------------------------- differentLocks
echo "== differentLocks"
locks="$projects/different-locks"
write "$locks/settings.gradle" <<<"rootProject.name = 'different-locks'"
write "$locks/build.gradle" <<EOF
$buildscript_files
apply plugin: 'java'
apply plugin: 'dev.racer'
EOF
# The class of the Maven plugin's scenario: a race only with the setting.
mkdir -p "$locks/src/main/java/it/racy"
cp maven-plugin/src/it/race-not-fatal/src/main/java/it/racy/TwoLocks.java "$locks/src/main/java/it/racy/"
log="$logs/different-locks-default.log"
gradle_in "$locks" "$log" racerCheck
rc=$?
check "differentLocks: off by default, any lock protects against any other" "$log" test "$rc" -eq 0
printf '\nracer { differentLocks = true }\n' >>"$locks/build.gradle"
log="$logs/different-locks-on.log"
gradle_in "$locks" "$log" racerCheck
rc=$?
check "differentLocks = true: racerCheck re-runs and reports both writes under two different locks" "$log" \
    bash -c "[ $rc -ne 0 ] && grep -qF \"racer found 2 races in project 'different-locks'\" '$log' \
             && grep -qxF 'it/racy/TwoLocks.java:9: error: THREAD_SAFETY_VIOLATION' '$log' \
             && grep -qxF 'it/racy/TwoLocks.java:14: error: THREAD_SAFETY_VIOLATION' '$log'"

# ---------------------------------------------------------------- highConfidence
echo "== highConfidence"
stable="$projects/high-confidence"
write "$stable/settings.gradle" <<<"rootProject.name = 'high-confidence'"
write "$stable/build.gradle" <<EOF
$buildscript_files
apply plugin: 'java'
apply plugin: 'dev.racer'
racer { ignoreFailures = true }
EOF
# reset() replaces the buffer and writes through the new one: the read of buffer.size races
# with that write only when paths through a field the writer assigns count.
write "$stable/src/main/java/p/Replaced.java" <<'EOF'
package p;
public class Replaced {
    static class Buffer { int size; }
    private Buffer buffer = new Buffer();
    public synchronized void reset() { buffer = new Buffer(); buffer.size = 0; }
    public int size() { return buffer.size; }
}
EOF
log="$logs/high-confidence-default.log"
gradle_in "$stable" "$log" racerCheck
check "highConfidence: off by default, the race through the replaced buffer is reported" "$log" \
    has "$log" "racer found 2 races in project 'high-confidence'"
printf '\nracer { highConfidence = true }\n' >>"$stable/build.gradle"
log="$logs/high-confidence-on.log"
gradle_in "$stable" "$log" racerCheck
check "highConfidence = true: racerCheck re-runs and leaves out the access through the replaced buffer" "$log" \
    has "$log" "racer found 1 race in project 'high-confidence'"

# ---------------------------------------------------------------- withoutExtensions
echo "== withoutExtensions"
handed="$projects/without-extensions"
write "$handed/settings.gradle" <<<"rootProject.name = 'without-extensions'"
write "$handed/build.gradle" <<EOF
$buildscript_files
apply plugin: 'java'
apply plugin: 'dev.racer'
racer { ignoreFailures = true }
EOF
# The task handed to the executor writes count on another thread (thread handoffs, an
# extension of the default mode): it races with itself and with read().
write "$handed/src/main/java/p/Handed.java" <<'EOF'
package p;
import java.util.concurrent.Executor;
public class Handed {
    private int count;
    public void start(Executor executor) { executor.execute(() -> count++); }
    public int read() { return count; }
}
EOF
log="$logs/without-extensions-default.log"
gradle_in "$handed" "$log" racerCheck
check "withoutExtensions: the handed task's races are reported by default" "$log" \
    has "$log" "racer found 2 races in project 'without-extensions'"
printf "\nracer { withoutExtensions = ['thread-handoffs'] }\n" >>"$handed/build.gradle"
log="$logs/without-extensions-off.log"
gradle_in "$handed" "$log" racerCheck
check "withoutExtensions = ['thread-handoffs']: racerCheck re-runs and reports no race" "$log" \
    lacks "$log" "racer found"
printf "\nracer { withoutExtensions = ['thread-handof'] }\n" >>"$handed/build.gradle"
log="$logs/without-extensions-unknown.log"
gradle_in "$handed" "$log" racerCheck
check "withoutExtensions: an unknown name fails racerCheck with the engine's one-line error" "$log" \
    has "$log" 'no analysis extension is named `thread-handof`'

# An upstream module analysed without an extension hands its summaries to a module analysed
# with every one: the downstream module names the file made under other rules, once.
modes="$projects/mixed-modes"
write "$modes/settings.gradle" <<'EOF'
rootProject.name = 'mixed-modes'
include 'lib', 'app'
EOF
write "$modes/build.gradle" <<<"// Each subproject applies the plugin itself."
for m in lib app; do
    write "$modes/$m/build.gradle" <<EOF
$buildscript_files
apply plugin: 'java'
apply plugin: 'dev.racer'
racer { ignoreFailures = true }
EOF
done
printf "\nracer { withoutExtensions = ['thread-handoffs'] }\n" >>"$modes/lib/build.gradle"
printf "\ndependencies { compile project(':lib') }\n" >>"$modes/app/build.gradle"
write "$modes/lib/src/main/java/lib/Counter.java" <<'EOF'
package lib;
public class Counter {
    private int count;
    public void add() { count++; }
}
EOF
write "$modes/app/src/main/java/app/Uses.java" <<'EOF'
package app;
public class Uses {
    private final lib.Counter counter = new lib.Counter();
    public void use() { counter.add(); }
}
EOF
mixed_warning="summaries made in default without thread-handoffs mode, but this run is in default mode"
log="$logs/mixed-modes.log"
gradle_in "$modes" "$log" racerCheck
check "withoutExtensions in the upstream module only: the downstream module warns once, naming both modes" "$log" \
    test "$(grep -cF -- "$mixed_warning" "$log")" -eq 1
printf "\nracer { withoutExtensions = ['thread-handoffs'] }\n" >>"$modes/app/build.gradle"
log="$logs/mixed-modes-same.log"
gradle_in "$modes" "$log" racerCheck
check "withoutExtensions the same in both modules: racerCheck re-runs with no warning" "$log" \
    bash -c "grep -qxE ':app:racerCheck' '$log' && ! grep -qF 'summaries made in' '$log'"

# ---------------------------------------------------------------- Gradle 8.10 API
echo "== Gradle 8.10 API: compile the plugin against it, look up the reflective calls"
log="$logs/gradle-api.log"
wait "$api_check"
api_rc=$?
while IFS= read -r line; do
    case "$line" in
        "ok   "*) ok "${line#ok   }" ;;
        "FAIL "*) ko "${line#FAIL }" "$log" ;;
    esac
done <"$log"
check "check-gradle-api.sh: every check passed" "$log" test "$api_rc" -eq 0
# One look-up per GradleCompat.Api constant.
api_calls=$(grep -cE '^        [A-Z_]+\("' gradle-plugin/src/main/java/dev/racer/gradle/GradleCompat.java)
check "check-gradle-api.sh: all $api_calls reflective calls (GradleCompat.Api) were looked up" "$log" \
    test "$(grep -c '^ok   Gradle 8.10 API has ' "$log")" -eq "$api_calls"

# ---------------------------------------------------------------- summary
if [ "$failed" -gt 0 ]; then
    echo
    echo "failed checks:"
    for f in "${failures[@]}"; do echo "  - $f"; done
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
