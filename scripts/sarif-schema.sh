#!/usr/bin/env bash
# Prints the path of the official SARIF 2.1.0 JSON schema (OASIS), fetching it once into
# target/ from a registry package that ships it: the crates.io crate serde-sarif
# (src/schema.json), pinned by version and checksum.
set -euo pipefail
cd "$(dirname "$0")/.."

version=0.8.0
sha256=a053c46f18a8043570d4e32fefc4c6377f82bf29ec310a33e93f273048e3b0be
dir=target/sarif-schema
schema="$dir/sarif-schema-2.1.0.json"
if [ ! -s "$schema" ]; then
    mkdir -p "$dir"
    crate="$dir/serde-sarif-$version.crate"
    curl -fsSL --retry 3 -o "$crate.part" "https://static.crates.io/crates/serde-sarif/serde-sarif-$version.crate"
    echo "$sha256  $crate.part" | sha256sum -c --quiet - >&2
    mv "$crate.part" "$crate"
    tar -xzOf "$crate" "serde-sarif-$version/src/schema.json" > "$schema.part"
    mv "$schema.part" "$schema"
fi
echo "$PWD/$schema"
