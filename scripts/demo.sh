#!/usr/bin/env bash
# The main job, from a fresh machine: builds the engine, the bridge and both plugins, then runs
# the Gradle build and the Maven build of sample-project, which fail on the races they find.
# Both failures are expected; the script exits 0 when each build failed because of its races.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/build-plugins.sh
echo
echo "================ Gradle: gradle racerCheck on sample-project ================"
scripts/demo-gradle.sh --skip-build
echo
echo "================ Maven: mvn verify on sample-project ================"
scripts/demo-maven.sh --no-build
