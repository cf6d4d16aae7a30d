#!/usr/bin/env bash
# Summarizes a libFuzzer log (what ./run.sh prints): executions, cov/ft after the seeds and at
# the end, and the execution that last found a new edge (cov), to judge a plateau.
#   ./plateau.sh LOG
# Plateau criterion used in the README: no new edge over the last half of the executions.
set -euo pipefail
awk '
    /INITED/ { init = $0 }
    /^#[0-9]+/ && / cov: / {
        n = substr($1, 2) + 0
        for (i = 1; i <= NF; i++) { if ($i == "cov:") c = $(i + 1) + 0; if ($i == "ft:") f = $(i + 1) + 0 }
        if (first == "") { first = n; firstCov = c; firstFt = f }
        if (c > lastCov) { lastCov = c; lastNew = n }
        lastN = n; endCov = c; endFt = f
    }
    /^Done [0-9]+ runs/ { ran = $2 }
    /stat::number_of_executed_units/ { ran = $2 }
    END {
        if (lastN == "") { print "no coverage lines"; exit 1 }
        total = (ran != "") ? ran : lastN
        printf "executions %d\nafter seeds: cov %d ft %d (at #%d)\nend: cov %d ft %d\n", total, firstCov, firstFt, first, endCov, endFt
        printf "last new edge at #%d (%.0f%% of the run); no new edge for the last %.0f%% of executions: %s\n",
            lastNew, 100 * lastNew / total, 100 * (total - lastNew) / total,
            ((total - lastNew) >= total / 2 ? "plateau" : "not yet")
    }
' "${1:?usage: ./plateau.sh LOG}"
