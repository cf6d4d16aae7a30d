#!/bin/bash
# Before/after timing on a shared, noisy machine: two `crisp` binaries alternated, round by round,
# on the peer harness's scenes; each run is `crisp render --bench N` (the median ms a render).
# Prints, per scene, the minimum and the median over the rounds for each binary and their ratios.
#
#   scripts/bench/alternate.sh N ROUNDS BEFORE AFTER SCENE...
#   e.g. scripts/bench/alternate.sh 150 5 /tmp/crisp-main .build/release/crisp curves gradients
#
# SCENES_DIR (default ../shared/bench/scenes) holds SCENE.svg.
set -euo pipefail
if [ $# -lt 5 ]; then
    echo "usage: $0 N ROUNDS BEFORE AFTER SCENE..." >&2
    exit 2
fi
N=$1; ROUNDS=$2; A=$3; B=$4; shift 4
DIR=${SCENES_DIR:-$(dirname "$0")/../../../shared/bench/scenes}
for bin in "$A" "$B"; do
    [ -x "$bin" ] || { echo "$0: $bin is not an executable" >&2; exit 2; }
done
for scene in "$@"; do
    svg=$DIR/$scene.svg
    [ -f "$svg" ] || { echo "$0: no $svg (set SCENES_DIR)" >&2; exit 2; }
    a=(); b=()
    for _ in $(seq "$ROUNDS"); do
        a+=("$("$A" render --bench "$N" "$svg" | tail -1)")
        b+=("$("$B" render --bench "$N" "$svg" | tail -1)")
    done
    python3 - "$scene" "${a[*]}" "${b[*]}" <<'EOF'
import statistics, sys
scene, a, b = sys.argv[1], [float(x) for x in sys.argv[2].split()], [float(x) for x in sys.argv[3].split()]
ma, mb = statistics.median(a), statistics.median(b)
print(f"{scene:16} before min {min(a):.3f} med {ma:.3f} | after min {min(b):.3f} med {mb:.3f}"
      f" | after/before min {min(b) / min(a):.3f} med {mb / ma:.3f}")
EOF
done
