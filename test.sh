#!/usr/bin/env bash
# Runs Crisp's whole test suite. Installs the Debian packages it needs when run as root
# (or with sudo); otherwise stops with a one-line instruction.
set -euo pipefail
cd "$(dirname "$0")"

command -v swift >/dev/null || { echo "test.sh: the Swift toolchain is missing: install Swift 6 (swift.org) and put it on PATH" >&2; exit 1; }

needed=(zlib1g-dev pkg-config libx11-dev libxext-dev xvfb xdotool x11-utils)
missing=()
for p in "${needed[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" -eq 0 ]; then SUDO=""; elif command -v sudo >/dev/null; then SUDO="sudo"; else
        echo "test.sh: missing packages; run: apt-get install -y ${missing[*]}" >&2; exit 1
    fi
    echo "test.sh: installing ${missing[*]}"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

swift build --build-tests
swift test --skip-build "$@"
