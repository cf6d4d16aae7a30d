#!/usr/bin/env bash
# Runs Crisp's whole test suite. Installs the Debian packages it needs when run as root
# (or with sudo); otherwise stops with a one-line instruction.
set -euo pipefail
cd "$(dirname "$0")"

command -v swift >/dev/null || { echo "test.sh: the Swift toolchain is missing: install Swift 6 (swift.org) and put it on PATH" >&2; exit 1; }

needed=(zlib1g-dev pkg-config libx11-dev libxext-dev libxrandr-dev libharfbuzz-dev libfribidi-dev libicu-dev libfontconfig-dev libturbojpeg0-dev libgif-dev libwebp-dev fonts-dejavu-core fonts-cantarell fonts-noto-color-emoji fonts-dejavu-extra fonts-lohit-deva unicode-data xvfb xdotool x11-utils openbox)
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

# ./test.sh --sanitize=address|thread runs the same suite under AddressSanitizer or
# ThreadSanitizer (with UndefinedBehaviorSanitizer on the C kernels in both) in a scratch path of
# its own, so it never disturbs the normal build, and ends with one summary line. Run it before
# landing a change to unsafe code, the C kernels, caches or anything threaded.
sanitize=""
args=()
for a in "$@"; do
    case "$a" in
        --sanitize=*) sanitize="${a#--sanitize=}" ;;
        *) args+=("$a") ;;
    esac
done
if [ -n "$sanitize" ]; then
    case "$sanitize" in
        address|thread) ;;
        *) echo "test.sh: --sanitize takes address or thread, not '$sanitize'" >&2; exit 2 ;;
    esac
    scratch=".build-sanitize-$sanitize"
    log="$scratch/test.log"
    # -fsanitize=undefined reaches the C target (CCrispKernels) only: swiftc has no UBSan, and
    # the ASan and TSan runtimes carry UBSan's handlers, so nothing more is linked.
    flags=(--scratch-path "$scratch" --sanitize="$sanitize" -Xcc -fsanitize=undefined -Xcc -fno-sanitize=function)
    started=$(date +%s)
    swift build --build-tests "${flags[@]}"
    mkdir -p "$scratch"
    # Resources: the scratch path is inside the checkout, which the walk up from the test bundle
    # finds anyway; naming it as an installed app also checks that each folder is tried
    # once. Leaks: the Swift runtime keeps its metadata caches for the process's life on
    # purpose, so LeakSanitizer's reports would be noise; use-after-free, overflows and double
    # frees are what is checked.
    export CRISP_RESOURCES="$PWD/Resources"
    # Every process's reports also go to files (log_path), so the crisp-demo processes the X11
    # tests start, whose standard error the tests read, cannot hide one.
    reports_dir="$PWD/$scratch/reports"
    rm -rf "$reports_dir"
    mkdir -p "$reports_dir"
    export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=0:halt_on_error=1:log_path=$reports_dir/asan}"
    export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=0:second_deadlock_stack=1:log_path=$reports_dir/tsan}"
    export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=0:log_path=$reports_dir/ubsan}"
    export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"
    limit="${CRISP_TEST_TIMEOUT:-5400}"
    set +e
    timeout --kill-after=30 "$limit" swift test --skip-build "${flags[@]}" ${args[@]+"${args[@]}"} 2>&1 | tee "$log"
    status=${PIPESTATUS[0]}
    set -e
    reports=$(cat "$log" "$reports_dir"/* 2>/dev/null | grep -cE "ERROR: AddressSanitizer|WARNING: ThreadSanitizer|runtime error:" || true)
    if [ -n "$(ls -A "$reports_dir")" ]; then echo "test.sh: sanitizer report files: $(ls "$reports_dir" | tr '\n' ' ')(in $reports_dir)"; fi
    tests=$(grep -oE "Test run with [0-9]+ tests? in [0-9]+ suites? (passed|failed)" "$log" | tail -1)
    echo "test.sh --sanitize=$sanitize: ${tests:-no Swift Testing summary}; $reports sanitizer report(s); swift test exit $status; $(( $(date +%s) - started )) s with the build (log: $log)"
    if [ "$status" -eq 0 ] && [ "$reports" -gt 0 ]; then status=1; fi
    exit "$status"
fi

swift build --build-tests

# A crash in a test (or in a crisp-demo a test runs) still prints a backtrace, but a lean one that
# never waits for a terminal: the crashed thread only, no register dumps, only the images it
# mentions, on standard error. A backtracer has been seen blocked for good (0 CPU, reading a
# socket it inherited) after its process died, which no SWIFT_BACKTRACE option bounds short of
# enable=no; so the whole run is also bounded: a hang ends it with a message instead of holding
# CI. SWIFT_BACKTRACE and CRISP_TEST_TIMEOUT (seconds, default 1800) in the environment override.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=yes,interactive=no,timeout=0s,threads=crashed,registers=none,images=mentioned,output-to=stderr}"
limit="${CRISP_TEST_TIMEOUT:-1800}"
status=0
timeout --kill-after=30 "$limit" swift test --skip-build "$@" || status=$?
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    echo "test.sh: swift test did not finish within $limit s (a hang: see the last lines above); CRISP_TEST_TIMEOUT=SECONDS changes the limit" >&2
fi

# The documentation: the DocC catalogs of the four documented modules must build without a
# single warning (a broken symbol link, an undocumented parameter, an unknown article). Skipped,
# like the example below, only when arguments narrow the run and CRISP_DOCS is unset.
if [ $# -eq 0 ] || [ -n "${CRISP_DOCS:-}" ]; then
    docs_started=$(date +%s)
    docs_log=.build/documentation.log
    docs=0
    swift package generate-documentation --target CrispGraphics --target CrispSVG --target CrispUI --target CrispApp \
        >"$docs_log" 2>&1 || docs=$?
    warnings=$(grep -cE "^(warning|error):" "$docs_log" || true)
    if [ "$docs" -ne 0 ] || [ "$warnings" -gt 0 ]; then
        grep -E -A6 "^(warning|error):" "$docs_log" >&2 || true
        echo "test.sh: the documentation has $warnings DocC warning(s) or error(s) (status $docs); fix them (the doc comments or Sources/*/*.docc), then run: swift package generate-documentation --target <Module> (log: $docs_log)" >&2
        [ "$status" -eq 0 ] && status=1
    else
        echo "test.sh: documentation of CrispGraphics, CrispSVG, CrispUI, CrispApp built with 0 warnings in $(( $(date +%s) - docs_started )) s"
    fi
fi

# The example package (Examples/HelloCrisp, README "Your own views") depends on Crisp by path:
# build it and run its tests, in a scratch folder of its own so Crisp's .build is untouched.
# Skipped only when arguments narrow the run (./test.sh --filter X) and CRISP_EXAMPLE is unset.
if [ $# -eq 0 ] || [ -n "${CRISP_EXAMPLE:-}" ]; then
    example=0
    example_started=$(date +%s)
    swift build --build-tests --package-path Examples/HelloCrisp --scratch-path .build-example || example=$?
    if [ "$example" -eq 0 ]; then
        timeout --kill-after=30 "$limit" swift test --skip-build --package-path Examples/HelloCrisp --scratch-path .build-example || example=$?
    fi
    if [ "$example" -ne 0 ]; then
        echo "test.sh: the example package Examples/HelloCrisp failed (status $example)" >&2
        [ "$status" -eq 0 ] && status=$example
    else
        echo "test.sh: the example package Examples/HelloCrisp built and passed its tests in $(( $(date +%s) - example_started )) s"
    fi
fi
exit "$status"
