#!/usr/bin/env bash
# Installs what a fresh machine lacks to build and test racer (idempotent).
# Debian packages: gradle (the Gradle plugin's build and tests), time (peak memory
# figures). Rust and the JDK/Maven are expected from the machine image; cargo and
# mvn fetch their own dependencies from crates.io and Maven Central.
set -euo pipefail

need_apt=()
command -v gradle >/dev/null 2>&1 || need_apt+=(gradle)
[ -x /usr/bin/time ] || need_apt+=(time)
command -v javac >/dev/null 2>&1 || need_apt+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null 2>&1 || need_apt+=(maven)
command -v unzip >/dev/null 2>&1 || need_apt+=(unzip)
command -v zip >/dev/null 2>&1 || need_apt+=(zip)

if [ "${#need_apt[@]}" -gt 0 ]; then
    sudo=()
    [ "$(id -u)" = 0 ] || sudo=(sudo)
    echo "setup: installing ${need_apt[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update -qq >&2
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >&2
fi

command -v cargo >/dev/null 2>&1 || { echo "setup: cargo not found; install Rust (rustup) first" >&2; exit 1; }
