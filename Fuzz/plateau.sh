#!/usr/bin/env bash
# Summarizes a libFuzzer log (what ./run.sh prints): executions, edges (cov) and features (ft)
# after the corpus is loaded and at the end, and how many edges the second half of the run found.
#   ./plateau.sh LOG
# Plateau (the criterion of docs/reliability.md, "Fuzzing runs"): the second half of the executions added fewer than 0.2 % of
# the edges.
set -euo pipefail
awk '
    /^#[0-9]+/ && / cov: / {
        n = substr($1, 2) + 0
        for (i = 1; i <= NF; i++) { if ($i == "cov:") c = $(i + 1) + 0; if ($i == "ft:") f = $(i + 1) + 0 }
        if (/INITED/) { initN = n; initCov = c; initFt = f }
        if (c > lastCov) lastNew = n
        count++; ns[count] = n; covs[count] = c
        lastN = n; lastCov = c; lastFt = f
    }
    /stat::number_of_executed_units/ { ran = $2 }
    END {
        if (lastN == "") { print "no coverage lines"; exit 1 }
        total = (ran != "") ? ran : lastN
        half = 0
        for (k = 1; k <= count; k++) if (ns[k] <= total / 2) half = covs[k]
        printf "executions %d\n", total
        if (initN != "") printf "corpus loaded (#%d): cov %d ft %d\n", initN, initCov, initFt
        printf "end: cov %d ft %d; last new edge at #%d\n", lastCov, lastFt, lastNew
        printf "second half (from #%d): +%d edges (%.2f%%): %s\n", total / 2, lastCov - half,
            100 * (lastCov - half) / lastCov, ((lastCov - half) < 0.002 * lastCov ? "plateau" : "not yet")
    }
' "${1:?usage: ./plateau.sh LOG}"
