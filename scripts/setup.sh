#!/usr/bin/env bash
# Installs what a fresh machine lacks to build and test racer (idempotent).
# Debian packages: gradle (the Gradle plugin's build and tests), time (peak memory
# figures). Rust and the JDK/Maven are expected from the machine image; cargo and
# mvn fetch their own dependencies from crates.io and Maven Central.
set -euo pipefail

# A machine restored from a snapshot can come back with /dev/null as a plain file. Then what
# one command discards is read back by the next (cargo's compiler probe reads it as source
# code), so the device is recreated first.
if [ ! -c /dev/null ]; then
    echo "setup: /dev/null is not a character device; recreating it" >&2
    sudo=()
    [ "$(id -u)" = 0 ] || sudo=(sudo)
    if ! { "${sudo[@]}" rm -f /dev/null && "${sudo[@]}" mknod -m 666 /dev/null c 1 3; }; then
        echo "setup: cannot recreate /dev/null (needs root); later steps may read stale output" >&2
    fi
fi

need_apt=()
command -v gradle >/dev/null 2>&1 || need_apt+=(gradle)
[ -x /usr/bin/time ] || need_apt+=(time)
command -v javac >/dev/null 2>&1 || need_apt+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null 2>&1 || need_apt+=(maven)
command -v unzip >/dev/null 2>&1 || need_apt+=(unzip)
command -v zip >/dev/null 2>&1 || need_apt+=(zip)
command -v curl >/dev/null 2>&1 || need_apt+=(curl)

# shellcheck source=lib/apt.sh
. "$(dirname "$0")/lib/apt.sh"
apt_install setup ${need_apt[@]+"${need_apt[@]}"}

command -v cargo >/dev/null 2>&1 || { echo "setup: cargo not found; install Rust (rustup) first" >&2; exit 1; }
