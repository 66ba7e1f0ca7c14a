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
command -v curl >/dev/null 2>&1 || need_apt+=(curl)

# shellcheck source=lib/apt.sh
. "$(dirname "$0")/lib/apt.sh"
apt_install setup ${need_apt[@]+"${need_apt[@]}"}

command -v cargo >/dev/null 2>&1 || { echo "setup: cargo not found; install Rust (rustup) first" >&2; exit 1; }
