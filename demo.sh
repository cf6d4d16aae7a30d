#!/usr/bin/env bash
# Builds and launches the Crisp demo (release build) in an X11 window. Arguments go to crisp-demo
# (try --help; --snapshot PATH renders a PNG without X).
set -euo pipefail
cd "$(dirname "$0")"

command -v swift >/dev/null || { echo "demo.sh: the Swift toolchain is missing: install Swift 6 (swift.org) and put it on PATH" >&2; exit 1; }
needed=(zlib1g-dev pkg-config libx11-dev libxext-dev libxrandr-dev libharfbuzz-dev libfribidi-dev libicu-dev libfontconfig-dev libturbojpeg0-dev libgif-dev libwebp-dev)
missing=()
for p in "${needed[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" -eq 0 ]; then SUDO=""; elif command -v sudo >/dev/null; then SUDO="sudo"; else
        echo "demo.sh: missing packages; run: apt-get install -y ${missing[*]}" >&2; exit 1
    fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
swift build -c release --product crisp-demo
exec .build/release/crisp-demo "$@"
