#!/usr/bin/env bash
# Installs what a real Android Gradle Plugin build needs on Debian, assembles the Android SDK
# directory it builds against, and prints that directory's path.
#
# Debian packages the Android Gradle Plugin 2.2.2 for its Gradle 4.4.1
# (libgradle-android-plugin-java, in /usr/share/maven-repo as com.android.tools.build:gradle:debian),
# JAXB, which that plugin needs and Java 11+ no longer has (libjaxb-java, libjaxb-api-java,
# libactivation-java), and the build tools (android-sdk-build-tools: aapt, aidl, zipalign, under
# /usr/lib/android-sdk/build-tools/debian), but no SDK platform. The platform is assembled here
# under build/android-sdk from the framework jar of Maven Central (scripts/android-framework.sh).
#
#   scripts/android-sdk.sh      prints the SDK directory (sdk.dir); exit 3 when the Debian
#                               packages cannot be installed, 1 on any other failure
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=lib/apt.sh
. "$root/scripts/lib/apt.sh"

debian_sdk=/usr/lib/android-sdk
packages=(libgradle-android-plugin-java libjaxb-java libjaxb-api-java libactivation-java android-sdk-build-tools)
mapfile -t missing < <(apt_missing "${packages[@]}")
if [ "${#missing[@]}" -gt 0 ] && ! apt_install android-sdk "${missing[@]}"; then
    echo "android-sdk.sh: cannot install the Debian packages ${missing[*]}" >&2
    exit 3
fi
[ -x "$debian_sdk/build-tools/debian/aapt" ] || { echo "android-sdk.sh: $debian_sdk/build-tools/debian/aapt missing after installing android-sdk-build-tools" >&2; exit 1; }
build_tools_version=$(sed -n 's/^Pkg.Revision=//p' "$debian_sdk/build-tools/debian/source.properties")
[ -n "$build_tools_version" ] || { echo "android-sdk.sh: no Pkg.Revision in $debian_sdk/build-tools/debian/source.properties" >&2; exit 1; }

framework="$("$root/scripts/android-framework.sh")"
api=34          # android-all 14 is Android 14, API level 34
sdk="$root/build/android-sdk"
platform="$sdk/platforms/android-$api"
if [ ! -s "$platform/source.properties" ]; then
    rm -rf "$sdk"
    mkdir -p "$sdk/build-tools" "$platform"
    # The Debian build tools under the version AGP is told to use (buildToolsVersion).
    ln -s "$debian_sdk/build-tools/debian" "$sdk/build-tools/$build_tools_version"
    # The platform's android.jar: android-all's classes and resources.arsc (aapt links against
    # it), plus java.* from the running JDK's java.base. An SDK's android.jar carries java.* as
    # well, and AGP hands javac this jar alone as its boot class path; android-all leaves them
    # out because Robolectric runs on a JVM that has them.
    jdk="$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")"
    work="$sdk/.java-base"
    jimage extract --dir "$work" --include 'regex:/java\.base/java/.*' "$jdk/lib/modules"
    cp "$framework" "$platform/android.jar.tmp"
    (cd "$work/java.base" && zip -q -r -X "$platform/android.jar.tmp" java)
    rm -rf "$work"
    mv "$platform/android.jar.tmp" "$platform/android.jar"
    unzip -p "$framework" build.prop >"$platform/build.prop"
    # What identifies the platform package to the SDK library of AGP (written last: its
    # presence marks a complete SDK).
    cat >"$platform/source.properties.tmp" <<PROPS
Pkg.Desc=Android SDK Platform $api (org.robolectric:android-all and java.base)
Pkg.Revision=1
Platform.Version=14
AndroidVersion.ApiLevel=$api
Layoutlib.Api=15
Layoutlib.Revision=1
Platform.MinToolsRev=22
PROPS
    mv "$platform/source.properties.tmp" "$platform/source.properties"
fi
echo "$sdk"
