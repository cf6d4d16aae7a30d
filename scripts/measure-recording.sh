#!/usr/bin/env bash
# Measures what a screen recording costs the demo's frame path (docs/performance.md, "Screen
# recordings"): starts an Xvfb of its own, runs crisp-demo recording into a temporary folder with
# CRISP_RECORD_STATS=1, presses the given keys (a pause after each), quits with q and prints the
# app's "recording stats" line and the recording's size.
#
#   scripts/measure-recording.sh --demo .build/release/crisp-demo --device ipad-retina \
#       --screen controls --keys "t t t t" --pause 1
set -euo pipefail
demo="" device="iphone4" screen="controls" keys="" pause=1
while [ $# -gt 0 ]; do
    case "$1" in
    --demo) demo="$2"; shift 2 ;;
    --device) device="$2"; shift 2 ;;
    --screen) screen="$2"; shift 2 ;;
    --keys) keys="$2"; shift 2 ;;
    --pause) pause="$2"; shift 2 ;;
    *) echo "measure-recording: unknown argument $1" >&2; exit 64 ;;
    esac
done
[ -x "$demo" ] || { echo "measure-recording: give --demo PATH (a built crisp-demo)" >&2; exit 64; }
for tool in Xvfb xdotool; do command -v "$tool" >/dev/null || { echo "measure-recording: $tool is not installed: apt-get install -y ${tool,,}" >&2; exit 1; }; done
work=$(mktemp -d "${TMPDIR:-/tmp}/crisp-recmeasure.XXXXXX")
# (`kill 0` would signal the whole process group: the caller's shell too.)
trap 'for p in "${xvfb_pid:-}" "${demo_pid:-}"; do [ -n "$p" ] && kill "$p" 2>/dev/null; done; rm -rf "$work"' EXIT
Xvfb -displayfd 4 -screen 0 2200x2200x24 -nolisten tcp -noreset 4>"$work/displayfd" 2>/dev/null &
xvfb_pid=$!
for _ in $(seq 1 500); do grep -q . "$work/displayfd" 2>/dev/null && break; sleep 0.02; done
export DISPLAY=":$(head -n1 "$work/displayfd")"
CRISP_RECORD_STATS=1 "$demo" --device "$device" --screen "$screen" --clock 9:41 --record "$work/rec.apng" \
    --status-file "$work/status" 2>"$work/stderr" &
demo_pid=$!
for _ in $(seq 1 3000); do grep -q '^frame 1 ' "$work/status" 2>/dev/null && break; sleep 0.02; done
grep -q '^frame 1 ' "$work/status" || { echo "measure-recording: no first frame" >&2; cat "$work/stderr" >&2; exit 1; }
xdotool mousemove 100 100
sleep "$pause"
for k in $keys; do xdotool key "$k"; sleep "$pause"; done
xdotool key q
wait "$demo_pid" || true
demo_pid=""
grep 'recording stats' "$work/stderr" || { echo "measure-recording: no stats line" >&2; cat "$work/stderr" >&2; exit 1; }
echo "recording: $(grep -c '^frame ' "$work/status") frames presented, $(stat -c %s "$work/rec.apng" 2>/dev/null || echo 0) bytes, $(grep '^recording saved' "$work/status")"
