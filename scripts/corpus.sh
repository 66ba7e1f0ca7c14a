#!/usr/bin/env bash
# Installs (if missing) and lists the real-world corpus racer is tested and benchmarked on:
# multithreaded Java libraries from Debian packages, one jar path per line.
#   scripts/corpus.sh           install what is missing, print the jars
#   scripts/corpus.sh --check   print the jars only if all are installed (exit 1 otherwise)
set -euo pipefail

# package  jar name under /usr/share/java (a glob; the first match is used)
CORPUS='
libcommons-pool-java        commons-pool-1*.jar
libcommons-pool2-java       commons-pool2.jar
libjtds-java                jtds-1*.jar
libsunflow-java             sunflow-0*.jar
libhsqldb1.8.0-java         hsqldb1.8.0-1*.jar
libjetty9-java              jetty9-util.jar
libcommons-lang3-java       commons-lang3.jar
libkotlinx-coroutines-java  kotlinx-coroutines-core-1*.jar
libnetty-java               netty-common.jar
libhsqldb-java              hsqldb-2*.jar
libjackson2-databind-java   jackson-databind.jar
libjgroups-java             jgroups.jar
libh2-java                  h2-2*.jar
liblog4j2-java              log4j-core.jar
libxalan2-java              xalan2-2*.jar
libderby-java               derby.jar
libguava-java               guava.jar
liblucene8-java             lucene-core-8*.jar
'

check=false
[ "${1:-}" = "--check" ] && check=true

missing=()
while read -r pkg _; do
    [ -n "$pkg" ] || continue
    [ "$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null)" = installed ] || missing+=("$pkg")
done <<<"$CORPUS"

if [ "${#missing[@]}" -gt 0 ]; then
    $check && exit 1
    # shellcheck source=lib/apt.sh
    . "$(dirname "$0")/lib/apt.sh"
    apt_install corpus "${missing[@]}"
fi

while read -r pkg glob; do
    [ -n "$pkg" ] || continue
    # shellcheck disable=SC2206
    jars=(/usr/share/java/$glob)
    [ -f "${jars[0]}" ] || { echo "corpus: $pkg installed but /usr/share/java/$glob missing" >&2; exit 1; }
    echo "${jars[0]}"
done <<<"$CORPUS"
