# Sourced by the setup scripts: apt_install TAG PACKAGE... installs Debian packages
# (as root, or through sudo), quietly, with their output on stderr.
apt_install() {
    local tag="$1"
    shift
    [ "$#" -gt 0 ] || return 0
    local sudo=()
    [ "$(id -u)" = 0 ] || sudo=(sudo)
    echo "$tag: installing $*" >&2
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "$@" >&2
}

# apt_missing PACKAGE...: prints those of the Debian packages that are not installed, one a line.
apt_missing() {
    local pkg
    for pkg in "$@"; do
        [ "$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null)" = installed ] || echo "$pkg"
    done
}
