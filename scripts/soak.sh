#!/usr/bin/env bash
# The soak: drives crisp-demo in an X server with random input a user could give, and checks
# that it never crashes or hangs and that its resident memory levels off.
#
# Input (xdotool, through XTEST like a real pointer and keyboard): clicks, drags and long presses,
# half of them on a view the status file names (`layout <id> …` lines, so screens that appear
# later are covered too), the rest anywhere; every key the app knows (except q and Escape, which
# quit) plus random letters for screens' own keys; wheel notches; window resizes from 1×1 to
# larger than the screen; screen switches by clicking a tab (`layout tab.<name> …`) and with
# Tab / Shift-Tab; device presets 1–5 and the scale key.
#
# Every CHECKPOINT actions: the device is set back to the largest preset and the theme key is
# pressed; the app must answer with a `theme` line and then a frame of the preset's size within
# HANG seconds (else: a hang), and its VmRSS (/proc/PID/status) is sampled in that same state. At
# the end q must quit it with status 0 and no shared-memory segment of its left. The random
# sequence is fixed by the seed, so a failure replays with the same --seed and
# --actions; the last actions are printed with it.
#
# Memory "levels off" when the largest sample of the run's second half exceeds the largest
# sample between the warm-up (a fifth of the run) and the middle by no more than the slack
# (default 48 MiB: 16 MiB of allocator noise — buffers of different sizes freed and reused — plus
# the 32 MiB a window's cached view contents may hold, `ContentsCache.limitInBytes`, which a
# short run can still be filling when it visits a cached screen at retina size for the first
# time): a leak grows without bound and fails that.
#
# A demo built with AddressSanitizer (`./test.sh --sanitize=address`) keeps freed blocks in its
# quarantine, 256 MiB by default, so that a use after free is caught; until the quarantine is
# full that reads as growth (469 → 554 MiB in 120 actions, seed 2, --no-shm). Such a build (its
# runtime's __asan_init among the binary's symbols) is run with its quarantine held to 16 MiB
# (quarantine_size_mb appended to ASAN_OPTIONS, which only the demo among the processes the
# script starts reads) and those 16 MiB added to the slack; a line says so. A build without ASan
# keeps the bound above.
set -uo pipefail

usage() {
    cat <<'EOF'
usage: scripts/soak.sh (--actions N | --seconds N) [options]
  --actions N        stop after N actions
  --seconds N        stop after N seconds (at the next action)
  --seed S           random seed (default 1)
  --demo PATH        crisp-demo to run (default .build/debug/crisp-demo, else .build/release/crisp-demo)
  --display :N       use this X server (default: start an Xvfb of our own)
  --checkpoint K     actions between checkpoints (default 25)
  --hang SECONDS     longest wait for an answer before calling it a hang (default 30)
  --slack MIB        allowed RSS growth after the warm-up (default 48: noise plus the view-contents cache's limit)
  --no-shm           run the demo with --no-shm
SOAK_KEEP=1 in the environment keeps the status file, the action log and standard error.
Prints one summary line: actions by kind, frames, resizes, RSS at warm-up, middle, end, maximum.
Exits 0 when the app survived, 1 on a crash, hang, leak or unclean exit, 64 on a usage error.
EOF
}

actions_limit="" seconds_limit="" seed=1 demo="" display="" checkpoint=25 hang=30 slack_mib=48 demo_flags=()
while [ $# -gt 0 ]; do
    case "$1" in
    --actions) actions_limit="$2"; shift 2 ;;
    --seconds) seconds_limit="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --demo) demo="$2"; shift 2 ;;
    --display) display="$2"; shift 2 ;;
    --checkpoint) checkpoint="$2"; shift 2 ;;
    --hang) hang="$2"; shift 2 ;;
    --slack) slack_mib="$2"; shift 2 ;;
    --no-shm) demo_flags+=(--no-shm); shift ;;
    -h | --help) usage; exit 0 ;;
    *) echo "soak: unknown argument $1" >&2; usage >&2; exit 64 ;;
    esac
done
if [ -z "$actions_limit" ] && [ -z "$seconds_limit" ]; then usage >&2; exit 64; fi
for n in "${actions_limit:-1}" "${seconds_limit:-1}" "$seed" "$checkpoint" "$hang" "$slack_mib"; do
    [[ "$n" =~ ^[0-9]+$ ]] || { echo "soak: not a number: $n" >&2; exit 64; }
done

root="$(cd "$(dirname "$0")/.." && pwd)"
if [ -z "$demo" ]; then
    for candidate in "$root/.build/debug/crisp-demo" "$root/.build/release/crisp-demo"; do
        [ -x "$candidate" ] && { demo="$candidate"; break; }
    done
fi
[ -n "$demo" ] && [ -x "$demo" ] || { echo "soak: crisp-demo is not built (swift build), or give --demo PATH" >&2; exit 1; }
asan_quarantine_mib=16
# (grep without -q: under pipefail, nm ended by a SIGPIPE would make a match read as none.)
if { command -v nm >/dev/null && nm -D "$demo" 2>/dev/null | grep ' T __asan_init$' >/dev/null; } ||
   { ! command -v nm >/dev/null && grep -qaF __asan_init "$demo"; }; then
    export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=$asan_quarantine_mib"
    echo "soak: $demo is built with AddressSanitizer: its quarantine held to $asan_quarantine_mib MiB," \
        "memory slack $slack_mib + $asan_quarantine_mib MiB"
    slack_mib=$((slack_mib + asan_quarantine_mib))
fi
for tool in xdotool:xdotool ipcs:util-linux; do
    command -v "${tool%%:*}" >/dev/null || { echo "soak: ${tool%%:*} is not installed: apt-get install -y ${tool##*:}" >&2; exit 1; }
done

work="$(mktemp -d "${TMPDIR:-/tmp}/crisp-soak.XXXXXX")"
status="$work/status" actionlog="$work/actions" stderr="$work/stderr"
xvfb_pid="" demo_pid=""
cleanup() {
    [ -n "$demo_pid" ] && kill -0 "$demo_pid" 2>/dev/null && kill -KILL "$demo_pid" 2>/dev/null
    [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null && wait "$xvfb_pid" 2>/dev/null
    if [ -n "${SOAK_KEEP:-}" ]; then echo "soak: kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

if [ -z "$display" ]; then
    command -v Xvfb >/dev/null || { echo "soak: Xvfb is not installed: apt-get install -y xvfb" >&2; exit 1; }
    Xvfb -displayfd 4 -screen 0 1600x1200x24 -nolisten tcp -noreset 4>"$work/displayfd" 2>/dev/null &
    xvfb_pid=$!
    for _ in $(seq 1 500); do grep -q . "$work/displayfd" 2>/dev/null && break; sleep 0.02; done
    display=":$(head -n1 "$work/displayfd")"
    [ "$display" != ":" ] || { echo "soak: Xvfb did not start" >&2; exit 1; }
fi
export DISPLAY="$display"
read -r screen_w screen_h < <(xdotool getdisplaygeometry)

declare -A count=()
action_no=0 frames=0 resizes=0
rss_samples=() rss_at=()
started=$(date +%s)

summary() {
    local kinds="" k
    for k in click drag longpress key wheel resize tab device; do kinds+=" $k ${count[$k]:-0},"; done
    frames=$(grep -c '^frame ' "$status" 2>/dev/null)
    resizes=$(grep -c '^resize ' "$status" 2>/dev/null)
    echo "soak: seed $seed, $action_no actions (${kinds% ,}), $frames frames, $resizes resizes, $(( $(date +%s) - started )) s;" \
        "RSS warm-up $(mib "$rss_warm") MiB, middle $(mib "$rss_mid") MiB, end $(mib "$rss_end") MiB, max $(mib "$rss_max") MiB"
}
mib() { awk -v k="${1:-0}" 'BEGIN { printf "%.1f", k / 1024 }'; }
rss_warm=0 rss_mid=0 rss_end=0 rss_max=0

# On a hang: whether the app is spinning or blocked (its CPU time over two seconds and its
# scheduler state), and every thread's stack when gdb is installed, so one occurrence is enough
# to find the cause.
hang_report() {
    [ -n "$demo_pid" ] && [ -r "/proc/$demo_pid/stat" ] || return 0
    cpu() { awk '{ print $14 + $15 }' "/proc/$demo_pid/stat" 2>/dev/null; }
    local before after
    before=$(cpu); sleep 2; after=$(cpu)
    echo "soak: crisp-demo state $(awk '{ print $3 }' "/proc/$demo_pid/stat" 2>/dev/null)," \
        "$(( ${after:-0} - ${before:-0} )) clock ticks of CPU in 2 s (100 a second per busy core), threads: $(ls "/proc/$demo_pid/task" 2>/dev/null | wc -l)" >&2
    # Where input would go: the window's state and geometry as the server has them, the pointer
    # and the window under it, the focus (keys go to the window under the pointer only while the
    # focus is PointerRoot, as it is with no window manager).
    echo "soak: window $(printf '0x%x' "$wid"): $(xwininfo -id "$wid" 2>&1 | grep -E 'Absolute upper-left|Width|Height|Map State' | tr -s ' ' | tr '\n' ';')" >&2
    local focus
    eval "$(xdotool getmouselocation --shell 2>/dev/null | grep -E '^(X|Y|WINDOW)=[0-9]+$')"
    focus=$(xdotool getwindowfocus -f 2>/dev/null | tail -n1)
    case "$focus" in 0) focus=None ;; 1) focus=PointerRoot ;; [0-9]*) focus=$(printf '0x%x' "$focus") ;; esac
    echo "soak: pointer at ${X:-?},${Y:-?} over window $(printf '0x%x' "${WINDOW:-0}"), input focus $focus" >&2
    if command -v gdb >/dev/null; then
        echo "soak: crisp-demo's threads (gdb):" >&2
        timeout 60 gdb -p "$demo_pid" -batch -nx -ex "set pagination off" -ex "thread apply all bt 25" 2>/dev/null \
            | grep -E '^(Thread|#)' | sed 's/^/  /' >&2
    else
        echo "soak: (install gdb to see crisp-demo's stacks on a hang)" >&2
    fi
}

fail() {
    echo "soak: FAILED: $*" >&2
    case "$*" in *"(hang)"*) hang_report ;; esac
    echo "soak: last actions (seed $seed):" >&2
    tail -n 10 "$actionlog" | sed 's/^/  /' >&2
    echo "soak: last status lines:" >&2
    tail -n 8 "$status" | sed 's/^/  /' >&2
    [ -s "$stderr" ] && { echo "soak: crisp-demo's standard error:" >&2; tail -n 30 "$stderr" | sed 's/^/  /' >&2; }
    summary >&2
    exit 1
}

alive() {
    kill -0 "$demo_pid" 2>/dev/null && return 0
    wait "$demo_pid"
    local rc=$?
    demo_pid=""
    fail "crisp-demo exited (status $rc) during action $action_no"
}

lines() { wc -l <"$status"; }

# Waits for a status line matching the regex after line `after`; sets `found` to its number.
found=0
wait_for() {
    local regex="$1" after="$2" deadline=$((SECONDS + hang)) n
    while :; do
        n=$(tail -n "+$((after + 1))" "$status" 2>/dev/null | grep -n -m1 -E "$regex" | cut -d: -f1)
        [ -n "$n" ] && { found=$((after + n)); return 0; }
        alive
        [ $SECONDS -ge $deadline ] && return 1
        sleep 0.02
    done
}

# --no-asset-report: the assets screen's report (made once, in the background, the first time the
# screen shows) takes tens of MB while it renders retina iPad pictures, which would read as growth.
demo_args=(--status-file "$status" --no-asset-report "${demo_flags[@]}")
"$demo" "${demo_args[@]}" 2>"$stderr" &
demo_pid=$!
wait_for '^frame 1 ' 0 || fail "no first frame within $hang s"
wid=$(grep -m1 '^window 0x' "$status" | cut -d' ' -f2)
wid=$((wid))

# The random sequence: a 64-bit LCG (Knuth's MMIX constants) in the shell's own arithmetic, so
# the same seed gives the same actions on any bash; `rnd N` sets R to 0…N-1 (no subshells: they
# would not advance the state).
rng_state=$seed
rnd() {
    rng_state=$(( rng_state * 6364136223846793005 + 1442695040888963407 ))
    R=$(( ((rng_state >> 33) & 0x7FFFFFFF) % $1 ))
}
# The window's size as the server has it now (the app's frames may lag behind a resize).
win_size() {
    eval "$(xdotool getwindowgeometry --shell "$wid" | grep -E '^(WIDTH|HEIGHT)=[0-9]+$')"
    win_w=$WIDTH win_h=$HEIGHT
}

# Named views: the latest rectangle of every `layout` line so far, read incrementally.
declare -A rects=()
targets=() layout_read=0
read_targets() {
    local id x y w h n
    n=$(lines)
    while read -r _ id x y w h; do rects[$id]="$x $y $w $h"; done < <(sed -n "$((layout_read + 1)),${n}p" "$status" | grep '^layout ')
    layout_read=$n
    targets=()
    for id in "${!rects[@]}"; do targets+=("$id ${rects[$id]}"); done
    mapfile -t targets < <(printf '%s\n' "${targets[@]}" | sort)
}

# A point (PX, PY): on a random named view (its centre ± a third) half the time, anywhere otherwise.
point() {
    local id x y w h dx=0 dy=0
    win_size
    rnd 2
    if [ ${#targets[@]} -gt 0 ] && [ "$R" -eq 0 ]; then
        rnd ${#targets[@]}
        read -r id x y w h <<<"${targets[$R]}"
        if [ "$w" -gt 2 ]; then rnd $((w * 2 / 3 + 1)); dx=$((R - w / 3)); fi
        if [ "$h" -gt 2 ]; then rnd $((h * 2 / 3 + 1)); dy=$((R - h / 3)); fi
        PX=$((x + w / 2 + dx)) PY=$((y + h / 2 + dy))
    else
        rnd $((win_w > 0 ? win_w : 1)); PX=$R
        rnd $((win_h > 0 ? win_h : 1)); PY=$R
    fi
    # On the screen and in the window (the window sits at the screen's origin, no window manager).
    PX=$((PX < 0 ? 0 : PX >= screen_w ? screen_w - 1 : PX)) PY=$((PY < 0 ? 0 : PY >= screen_h ? screen_h - 1 : PY))
    PX=$((PX >= win_w ? win_w - 1 : PX)) PY=$((PY >= win_h ? win_h - 1 : PY))
}

# Keys go to the window under the pointer (no window manager gives focus), so the pointer moves
# into the window first.
key() {
    win_size
    xdo mousemove --window "$wid" $((win_w / 2 < screen_w ? win_w / 2 : 0)) $((win_h / 2 < screen_h ? win_h / 2 : 0)) key "$1"
}

act() { echo "$action_no $*" >>"$actionlog"; count[$1]=$((${count[$1]:-0} + 1)); }
xdo() { xdotool "$@" >/dev/null 2>&1 || { alive; fail "xdotool $* failed"; }; }

keys=(1 2 3 4 5 c s l t question e b v f plus minus Delete BackSpace Tab shift+Tab Return space Left Right Up Down)
letters=(a d g h i j k m n o p r u w x y z)

do_action() {
    local kind k n i w h x0 y0 x1 y1 tabs
    rnd 100
    kind=$R
    if [ "$kind" -lt 24 ]; then
        point; act click "$PX" "$PY"
        xdo mousemove --window "$wid" "$PX" "$PY" click 1
    elif [ "$kind" -lt 38 ]; then
        point; x0=$PX y0=$PY; point; x1=$PX y1=$PY; rnd 10; n=$((2 + R))
        act drag "$x0" "$y0" "$x1" "$y1" "$n"
        xdo mousemove --window "$wid" "$x0" "$y0" mousedown 1
        for ((i = 1; i <= n; i++)); do xdo mousemove --window "$wid" $((x0 + (x1 - x0) * i / n)) $((y0 + (y1 - y0) * i / n)); done
        xdo mouseup 1
    elif [ "$kind" -lt 44 ]; then
        point; act longpress "$PX" "$PY"
        xdo mousemove --window "$wid" "$PX" "$PY" mousedown 1
        sleep 0.6
        xdo mouseup 1
    elif [ "$kind" -lt 68 ]; then
        rnd 4
        if [ "$R" -eq 0 ]; then rnd ${#letters[@]}; k=${letters[$R]}; else rnd ${#keys[@]}; k=${keys[$R]}; fi
        act key "$k"
        key "$k"
    elif [ "$kind" -lt 76 ]; then
        point; rnd 2; k=$((4 + R)); rnd 5; n=$((1 + R))
        act wheel "$PX" "$PY" "button $k" "×$n"
        xdo mousemove --window "$wid" "$PX" "$PY" click --repeat "$n" "$k"
    elif [ "$kind" -lt 84 ]; then
        rnd 10
        case $R in
        0) w=1 h=1 ;;
        1) rnd 500; w=$((screen_w * 2 + R)); rnd 500; h=$((screen_h * 2 + R)) ;;
        *) rnd "$screen_w"; w=$((1 + R)); rnd "$screen_h"; h=$((1 + R)) ;;
        esac
        act resize "$w" "$h"
        xdo windowsize "$wid" "$w" "$h"
    elif [ "$kind" -lt 93 ]; then
        mapfile -t tabs < <(printf '%s\n' "${targets[@]}" | grep '^tab\.')
        if [ ${#tabs[@]} -gt 0 ]; then
            rnd ${#tabs[@]}
            read -r k x0 y0 w h <<<"${tabs[$R]}"
            act tab "$k"
            xdo mousemove --window "$wid" $((x0 + w / 2)) $((y0 + h / 2)) click 1
        else
            rnd 2; k=$([ "$R" -eq 0 ] && echo Tab || echo shift+Tab)
            act tab "$k"
            key "$k"
        fi
    else
        rnd 6
        if [ "$R" -eq 0 ]; then k=s; else rnd 5; k=$((1 + R)); fi
        act device "$k"
        key "$k"
    fi
}

# After a key went unanswered: the same key once more (still a failure), to tell a key the server
# never delivered (the second one is answered) from an app that stopped answering.
probe_again() {
    local mark hang_was=$hang
    mark=$(lines)
    echo "soak: unanswered key $1; pressing it once more to tell a lost key from a stuck app" >&2
    key "$1"
    hang=10
    if wait_for "^key $1\$" "$mark"; then echo "soak: the second $1 was answered (line $found): the first never reached the app" >&2
    else echo "soak: the second $1 was not answered within 10 s either" >&2; fi
    hang=$hang_was
}

# Largest preset, then the theme key: a theme line and a frame of the preset's size must follow.
checkpoint_now() {
    local mark size rss
    mark=$(lines)
    echo "$action_no checkpoint" >>"$actionlog"
    key 5
    # (An earlier action's device line may still be on its way: the answer is the one after "key 5".)
    wait_for '^key 5$' "$mark" && wait_for '^device ' "$found" || { probe_again 5; fail "no answer to the preset key within $hang s (hang)"; }
    size=$(sed -n "${found}p" "$status" | cut -d' ' -f3)
    mark=$(lines)
    key t
    wait_for '^theme ' "$mark" || { probe_again t; fail "no answer to the theme key within $hang s (hang)"; }
    wait_for "^frame [0-9]+ $size " "$found" || fail "no $size frame within $hang s after the theme changed (hang)"
    alive
    rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$demo_pid/status")
    rss_samples+=("$rss")
    rss_at+=("$action_no")
    read_targets
}

read_targets
while :; do
    if [ -n "$actions_limit" ] && [ "$action_no" -ge "$actions_limit" ]; then break; fi
    if [ -n "$seconds_limit" ] && [ $(( $(date +%s) - started )) -ge "$seconds_limit" ]; then break; fi
    action_no=$((action_no + 1))
    do_action
    alive
    read_targets
    [ $((action_no % checkpoint)) -eq 0 ] && checkpoint_now
done
[ $((action_no % checkpoint)) -eq 0 ] || checkpoint_now

# Memory: warm-up is the first sample at or after a fifth of the run, middle the first at or
# after half of it.
total=$action_no
warm_i=0 mid_i=0
for i in "${!rss_at[@]}"; do
    [ "$warm_i" -eq 0 ] && [ $((rss_at[i] * 5)) -ge "$total" ] && warm_i=$i
    [ "$mid_i" -eq 0 ] && [ $((rss_at[i] * 2)) -ge "$total" ] && mid_i=$i
done
[ "$mid_i" -lt "$warm_i" ] && mid_i=$warm_i
rss_warm=${rss_samples[$warm_i]} rss_mid=${rss_samples[$mid_i]} rss_end=${rss_samples[-1]}
first_half_max=0 second_half_max=0
for i in "${!rss_samples[@]}"; do
    s=${rss_samples[$i]}
    [ "$s" -gt "$rss_max" ] && rss_max=$s
    if [ "$i" -ge "$warm_i" ] && [ "$i" -le "$mid_i" ] && [ "$s" -gt "$first_half_max" ]; then first_half_max=$s; fi
    if [ "$i" -gt "$mid_i" ] && [ "$s" -gt "$second_half_max" ]; then second_half_max=$s; fi
done
if [ "$second_half_max" -gt $((first_half_max + slack_mib * 1024)) ]; then
    fail "resident memory keeps growing: $(mib "$first_half_max") MiB at most between warm-up and middle," \
        "$(mib "$second_half_max") MiB after (samples at actions ${rss_at[*]}: ${rss_samples[*]} kB)"
fi

# q quits: status 0, an exit line, no segment left. (The process is watched, not the line: it
# may write "exit" and be gone between two looks.)
mark=$(lines)
echo "$action_no quit" >>"$actionlog"
key q
deadline=$((SECONDS + hang))
while kill -0 "$demo_pid" 2>/dev/null; do
    [ $SECONDS -ge $deadline ] && fail "q did not end the app within $hang s"
    sleep 0.02
done
wait "$demo_pid"
rc=$?
pid=$demo_pid
demo_pid=""
[ "$rc" -eq 0 ] || fail "crisp-demo exited with status $rc after q"
tail -n "+$((mark + 1))" "$status" | grep -qx exit || fail "no exit line after q"
left=$(ipcs -m -p | awk -v p="$pid" '$3 == p')
[ -z "$left" ] || fail "shared-memory segments left behind: $left"
[ -s "$stderr" ] && { echo "soak: crisp-demo wrote to standard error:" >&2; sed 's/^/  /' "$stderr" >&2; }
summary
echo "soak: RSS samples (kB) at actions ${rss_at[*]}: ${rss_samples[*]}"
