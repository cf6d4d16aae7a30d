#!/usr/bin/env bash
# Builds the libFuzzer harnesses (with AddressSanitizer) and runs one.
#   ./run.sh TARGET SECONDS [libFuzzer flags…]
# TARGET: png, truetype, colorfont, svg, image, svgpath, strings, drawing. The corpus grows in
# .corpus/TARGET (ignored by git; the committed seeds are in Seeds/TARGET); crashes, hangs
# and out-of-memory inputs are saved in findings/TARGET/. FUZZ_TTF_ALL_GLYPHS=1 makes the
# truetype harness read every glyph (thorough, ~50 executions/s).
set -euo pipefail
cd "$(dirname "$0")"
target=${1:?usage: ./run.sh TARGET SECONDS [libFuzzer flags…]}
seconds=${2:?usage: ./run.sh TARGET SECONDS [libFuzzer flags…]}
shift 2
case "$target" in png|truetype|colorfont|svg|image|svgpath|strings|drawing) ;; *)
    echo "run.sh: unknown target '$target' (png, truetype, colorfont, svg, image, svgpath, strings, drawing)" >&2; exit 2 ;;
esac
# SwiftPM keeps its build plan when files of the path dependency (the main package) are added or
# removed, then fails on "missing inputs": planning again each time costs a second.
# FUZZ_CONFIG=debug builds without optimization (finer coverage counters, a tenth of the speed).
config=${FUZZ_CONFIG:-release}
case "$config" in debug|release) ;; *) echo "run.sh: FUZZ_CONFIG is debug or release, not '$config'" >&2; exit 2 ;; esac
rm -f .build/*/"$config"/description.json
# `--sanitize fuzzer` links libFuzzer, but SwiftPM 6.3 passes only `-sanitize=address` when it
# compiles the library targets, so their coverage instrumentation is asked for explicitly.
# Optimized (-O, which keeps Swift's overflow and bounds traps): the harnesses run about ten
# times faster than unoptimized (colorfont 66 → 600 executions a second), and a plateau is
# reached in executions, not hours.
swift build -c "$config" --sanitize fuzzer --sanitize address --product "fuzz-$target" \
    -Xswiftc -sanitize-coverage=edge,trace-cmp,indirect-calls,inline-8bit-counters,pc-table >&2
mkdir -p ".corpus/$target" "findings/$target"
# An empty corpus (a new checkout or machine) starts from the committed one, the merged corpus
# of the last long run (Corpus/TARGET.tar.xz), not from the seeds alone.
if [ -f "Corpus/$target.tar.xz" ] && [ -z "$(ls -A ".corpus/$target")" ]; then
    tar -xJf "Corpus/$target.tar.xz" -C ".corpus/$target"
    echo "run.sh: .corpus/$target started from Corpus/$target.tar.xz ($(ls ".corpus/$target" | wc -l) inputs)" >&2
fi
# Swift's backtracer would catch a trap before libFuzzer could save the input.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1}
dict=()
[ -f "Dictionaries/$target.dict" ] && dict=(-dict="Dictionaries/$target.dict")
exec ".build/$config/fuzz-$target" ".corpus/$target" "Seeds/$target" "${dict[@]}" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -malloc_limit_mb=1024 -artifact_prefix="findings/$target/" -print_final_stats=1 "$@"
