#!/usr/bin/env bash
# Compiles Kotlin sources with the Kotlin compiler resolved from Maven: Kotlin 1.9
# (tests/kotlin/kotlinc/pom.xml), or Kotlin 2 (tests/kotlin/kotlinc2/pom.xml) when RACER_KOTLIN=2.
#   scripts/kotlinc.sh SRC_DIR OUT_DIR [CLASSPATH]   compile every .kt file below SRC_DIR into OUT_DIR
#                                                    (kotlin-stdlib and kotlinx-coroutines on the classpath;
#                                                    extra options from SRC_DIR/kotlinc.args)
#   scripts/kotlinc.sh --stdlib                      print the path of the kotlin-stdlib jar
#   scripts/kotlinc.sh --coroutines                  print the path of the kotlinx-coroutines-core jar
# The compiler classpath is resolved once (offline first, online if that fails) and cached in
# the pom's target/classpath.txt, again when the pom changes. Exits non-zero on compile errors.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
case "${RACER_KOTLIN:-1.9}" in
    1.9) project="$root/tests/kotlin/kotlinc" ;;
    2) project="$root/tests/kotlin/kotlinc2" ;;
    *) echo "kotlinc.sh: RACER_KOTLIN must be 1.9 or 2, not '$RACER_KOTLIN'" >&2; exit 2 ;;
esac
cache="$project/target/classpath.txt"

usage() {
    echo "usage: $0 SRC_DIR OUT_DIR [CLASSPATH] | $0 --stdlib | $0 --coroutines" >&2
    exit 2
}

# Is the cached classpath present, newer than the pom, and are all its jars still there?
cache_valid() {
    [ -s "$cache" ] && [ "$cache" -nt "$project/pom.xml" ] || return 1
    local jar
    IFS=: read -r -a jars <"$cache"
    for jar in "${jars[@]}"; do
        [ -f "$jar" ] || return 1
    done
}

resolve() {
    mkdir -p "$project/target"
    local tmp="$cache.$$"
    if ! mvn -q -o -f "$project/pom.xml" dependency:build-classpath -Dmdep.outputFile="$tmp" >&2; then
        echo "kotlinc.sh: offline resolution failed, trying online" >&2
        mvn -q -f "$project/pom.xml" dependency:build-classpath -Dmdep.outputFile="$tmp" >&2
    fi
    mv -f "$tmp" "$cache"
}

cache_valid || resolve
compiler_cp="$(cat "$cache")"
stdlib=""
coroutines=""
IFS=: read -r -a jars <<<"$compiler_cp"
for jar in "${jars[@]}"; do
    case "$(basename "$jar")" in
        kotlin-stdlib-[0-9]*.jar) stdlib="$jar" ;;
        kotlinx-coroutines-core-jvm-[0-9]*.jar) coroutines="$jar" ;;
    esac
done
if [ -z "$stdlib" ] || [ -z "$coroutines" ]; then
    echo "kotlinc.sh: no kotlin-stdlib or kotlinx-coroutines-core-jvm jar in $cache" >&2
    exit 1
fi

case "${1:-}" in
    --stdlib | --coroutines)
        [ $# -eq 1 ] || usage
        if [ "$1" = --stdlib ]; then echo "$stdlib"; else echo "$coroutines"; fi
        exit 0
        ;;
esac

[ $# -ge 2 ] && [ $# -le 3 ] || usage
src="$1"
out="$2"
classpath="$stdlib:$coroutines${3:+:$3}"

sources=()
while IFS= read -r -d '' file; do
    sources+=("$file")
done < <(find "$src" -name '*.kt' -type f -print0 | sort -z)
if [ ${#sources[@]} -eq 0 ]; then
    echo "kotlinc.sh: no .kt files under $src" >&2
    exit 1
fi

# Extra compiler options of a fixture (`-Xlambdas=indy`), one per line in SRC_DIR/kotlinc.args.
options=()
if [ -f "$src/kotlinc.args" ]; then
    while IFS= read -r option; do
        [ -n "$option" ] && options+=("$option")
    done <"$src/kotlinc.args"
fi

mkdir -p "$out"
exec java -cp "$compiler_cp" org.jetbrains.kotlin.cli.jvm.K2JVMCompiler \
    -no-reflect -no-stdlib -classpath "$classpath" "${options[@]}" -d "$out" "${sources[@]}"
