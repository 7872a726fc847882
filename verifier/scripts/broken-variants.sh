#!/bin/sh
# Builds every deliberately broken variant of the lesson programs and, where
# a GPU is present, runs each one and checks that its gate fails.
#
# Usage: verifier/scripts/broken-variants.sh [--compile-only] [LESSON...]
#
# A variant is the lesson program built with one -DBROKEN_... macro added to
# the program's own Build: line (each program lists its macros in its header
# comment). For each variant the script prints one line:
#
#   LESSON MACRO: build ok; run: exit N: <the gate's failure line> -> failed as required
#
# Two kinds of gate:
#   run   the program must exit nonzero AND print its gate's own failure
#         line on stderr (gate_pattern below), which the report quotes. A
#         nonzero exit for another reason (a CUDA error, a crash, a hang
#         stopped after 300 s) is reported as not failed as required.
#   code  (day 27 only) the bug is one the run cannot be relied on to show (a
#         missing fence, a narrowed scope), so the compiled code is checked
#         instead: the PTX of the gated sum must hold a device-scope fence
#         between the partial's store and the ticket's atomic, and the gated
#         tally's atomic must not be block scope (.cta). Where cuobjdump is
#         installed the SASS is checked as well (MEMBAR between STG and the
#         ticket's ATOMG; the tally's atomic .STRONG.GPU, not .STRONG.SM).
#         The lesson's own build must pass this check, each variant must
#         fail it. Such variants are run too where a GPU is present, and
#         their run gate is expected to pass: the report says so.
#
# The builds run BV_JOBS at a time (default: the online CPUs), each in a
# folder of its own; the checks and runs that follow go one at a time, in
# order, so the report and the GPU runs are as they were one build at a time.
# A code-gated variant's PTX is the one its own build made (nvcc -keep), not
# a second compile: the same cicc run with the same options.
#
# Without nvcc it says so and exits 0 (nothing can be built). With
# --compile-only, or when nvidia-smi finds no GPU, nothing is run and each
# run-gated variant is reported as "built, not run". Exit status: 0 when every
# variant built and every gate that was checked failed as required, 1
# otherwise.
set -u

compile_only=0
if [ "${1:-}" = "--compile-only" ]; then
    compile_only=1
    shift
fi

root=$(cd "$(dirname "$0")/../.." && pwd)
if ! command -v nvcc >/dev/null 2>&1; then
    echo "broken-variants: nvcc not found: broken variants NOT built"
    exit 0
fi
have_gpu=0
if [ "$compile_only" -eq 0 ] && command -v nvidia-smi >/dev/null 2>&1 &&
    nvidia-smi -L >/dev/null 2>&1; then
    have_gpu=1
fi
have_sass=0
command -v cuobjdump >/dev/null 2>&1 && have_sass=1

scratch=$(mktemp -d "${TMPDIR:-/tmp}/broken-variants.XXXXXX") || exit 1
# BV_KEEP=DIR keeps every build's log, output and racecheck report there
# (a copy of the scratch folder, made at exit), for the notes of a run.
trap 'if [ -n "${BV_KEEP:-}" ]; then cp -R "$scratch" "$BV_KEEP"; fi; rm -rf "$scratch"' EXIT INT TERM

# lesson program: kind:MACRO ...
variants() {
    case "$1" in
    day27-memory-model)
        echo "memory_model.cu code:BROKEN_NO_FENCE code:BROKEN_FENCE_BLOCK code:BROKEN_BLOCK_SCOPE code:BROKEN_NO_READER_FENCE code:BROKEN_FENCE_AFTER code:BROKEN_VOLATILE run:BROKEN_LAST_TICKET run:BROKEN_TICKET_RESET sound:ALT_ATOMIC_REF" ;;
    day31-scan-1)
        echo "scan.cu run:BROKEN_TILE0 run:BROKEN_NO_COPY run:BROKEN_EXCLUSIVE_HEAD run:BROKEN_RAGGED_END run+race:BROKEN_NO_BARRIER run+race:BROKEN_IN_PLACE" ;;
    day32-scan-2)
        echo "scan_2.cu run:BROKEN_TILE0 run:BROKEN_ROOT_ORDER run:BROKEN_PAD_INDEX run:BROKEN_EARLY_RETURN run:BROKEN_NO_OFFSETS race:BROKEN_DEEP_BARRIER" ;;
    *) return 1 ;;
    esac
}

# The stderr line by which each program's gate reports a wrong result. A
# variant that exits nonzero for any other reason (a CUDA error, a crash, a
# time-out) has not shown that the gate sees its bug.
gate_pattern() {
    case "$1" in
    day27-memory-model) echo 'missed the reference|lost increments' ;;
    day31-scan-1) echo '^gate failed:' ;;
    day32-scan-2) echo 'elements wrong|reported a total of|wrong after its timed runs' ;;
    esac
}

# A race variant's second gate: compute-sanitizer's racecheck over the
# broken copies of the gated kernels (a filter by name, so the lesson's
# deliberately racy kernels neither slow the run nor fill the tool's hazard
# limit first), at a size where the run gate is blind (day 31: one warp, 32
# threads; day 32: the first launch of the broken tree, where only warp 0
# works the deep levels). The gate fails when the report names a race in
# one of race_kernels. The lesson's own build is held to the same tool by
# the racecheck runs of its header, recorded in its evidence.
race_kernels() {
    case "$1" in
    day31-scan-1) echo 'brokenInclusive|brokenExclusive' ;;
    day32-scan-2) echo 'brokenBlellochTile' ;;
    esac
}
race_cmd() { # LESSON BINARY
    case "$1" in
    day31-scan-1) echo "compute-sanitizer --tool racecheck --kernel-name kns=broken ./$2 32" ;;
    day32-scan-2) echo "compute-sanitizer --tool racecheck --kernel-name kns=brokenBlellochTile --launch-count 1 ./$2" ;;
    esac
}

# The program's Build: line, with MACRO (may be empty) added after nvcc and
# the output renamed to OUT; KEEP (optional) a folder for nvcc -keep, where
# the build leaves its intermediate files (the PTX among them).
build_line() { # FILE MACRO OUT [KEEP]
    line=$(sed -n 's|^// Build: *||p' "$1" | head -n 1)
    [ -n "$line" ] || return 1
    line=$(printf '%s\n' "$line" | sed "s|-o [^ ]*|-o $3|")
    if [ -n "$2" ]; then
        line=$(printf '%s\n' "$line" | sed "s|^nvcc |nvcc -D$2 |")
    fi
    if [ -n "${4:-}" ]; then
        line=$(printf '%s\n' "$line" | sed "s|^nvcc |nvcc -keep -keep-dir $4 |")
    fi
    printf '%s\n' "$line"
}

# The PTX a -keep build left in KEEP: its one .ptx file (none for the
# device link); fails when there is not exactly one.
kept_ptx() { # KEEP
    set -- "$1"/*.ptx
    [ $# -eq 1 ] && [ -f "$1" ] || return 1
    printf '%s\n' "$1"
}

# The builds, BV_JOBS at a time: start_build LOG CMD runs CMD in $dir in the
# background, its output in LOG and its exit status in LOG.rc; wait_builds
# waits for them all.
jobs_max=${BV_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
[ "$jobs_max" -ge 1 ] 2>/dev/null || jobs_max=1
running=""
start_build() { # LOG CMD
    log=$1 bcmd=$2
    # shellcheck disable=SC2086
    set -- $running
    if [ $# -ge "$jobs_max" ]; then
        wait "$1" 2>/dev/null # the oldest
        shift
    fi
    running="$*"
    ( (cd "$dir" && eval "$bcmd") >"$log" 2>&1; echo $? >"$log.rc" ) &
    running="$running $!"
}
wait_builds() {
    for p in $running; do wait "$p" 2>/dev/null; done
    running=""
}
built() { # LOG: whether that build ended with status 0
    [ "$(cat "$1.rc" 2>/dev/null)" = 0 ]
}

# PTX check of day 27's gated kernels. Prints what it found; 0 when sound.
# In the gated sum, in code order: the partial's store (st.global, volatile
# or not), then a device-scope fence, then the ticket's atomic (the first
# atomic that is not on shared memory) - or no fence and a ticket atomic
# that is itself a release (.release or .acq_rel, not block scope); then,
# after the ticket, a device-scope fence, or an acquiring ticket atomic,
# before the first load of global memory (the last block's read of the
# partials); and no non-coherent load (ld.global.nc, what const
# __restrict__ can make of that read) after the ticket. The gated tally's
# atomic must not be block scope (.cta).
ptx_sound() { # PTXFILE
    awk '
    function fence_line() { return $0 ~ /(membar\.(gl|sys)|fence\.(sc|acq_rel)\.(gpu|sys))/ }
    function global_atom() { return $0 ~ /(^|[ \t])atom\./ && $0 !~ /\.shared/ }
    function ordered_atom(sem) { return $0 ~ ("\\.(" sem ")\\.") && $0 !~ /\.(cta|cluster)\./ }
    /^\.(visible|weak) \.entry/ { fn = $3; sum = (fn ~ /lastBlockSumFence|brokenSumFence/);
        tally = (fn ~ /countAtDeviceScope|brokenCountDevice/); stored = 0; fenced = 0; done = 0
        rfenced = 0; rdone = 0 }
    sum && !done && /st\.([a-z]+\.)*global/ { stored = 1 }
    sum && stored && !done && fence_line() { fenced = 1 }
    sum && stored && !done && global_atom() { done = 1; sumseen = 1
        if (!fenced && !ordered_atom("release|acq_rel")) sumbad = 1
        if (ordered_atom("acquire|acq_rel")) rfenced = 1
        next }
    sum && done && !rdone && fence_line() { rfenced = 1 }
    sum && done && /ld\.global\.nc/ { ncbad = 1 }
    sum && done && !rdone && /(^|[ \t])ld\./ && $0 !~ /ld\.(shared|param|local|const)/ {
        rdone = 1; readseen = 1; if (!rfenced) readbad = 1 }
    tally && /(atom|red)\.global/ { tallyseen = 1; if ($0 ~ /\.cta\./) tallybad = 1 }
    END {
        # every kernel that may serve as the gated one must be sound: a
        # broken build holds the broken copy beside the lesson one
        if (!sumseen) { print "no store-then-atomic found in the gated sum"; bad = 1 }
        else if (sumbad) { print "gated sum: no device-scope fence (or release atomic) between the partial'"'"'s store and the ticket"; bad = 1 }
        if (sumseen && !readseen) { print "gated sum: no read of global memory after the ticket"; bad = 1 }
        else if (readbad) { print "gated sum: no device-scope fence (or acquiring ticket) between the ticket and the first read of the partials"; bad = 1 }
        if (ncbad) { print "gated sum: a non-coherent load (ld.global.nc) after the ticket"; bad = 1 }
        if (!tallyseen) { print "no atomic found in the gated tally"; bad = 1 }
        else if (tallybad) { print "gated tally: the atomic is block scope (.cta)"; bad = 1 }
        if (!bad) print "PTX: fence (or release) between store and ticket, fence (or acquire) between ticket and read, device-scope tally"
        exit bad
    }' "$1"
}

sass_sound() { # BINARY
    cuobjdump -sass "$1" 2>/dev/null | awk '
    /Function :/ { sum = ($0 ~ /lastBlockSumFence|brokenSumFence/);
        tally = ($0 ~ /countAtDeviceScope|brokenCountDevice/); stored = 0; fenced = 0; done = 0 }
    sum && !done && /STG/ { stored = 1 }
    sum && stored && !done && /MEMBAR/ && $0 !~ /CTA/ { fenced = 1 }
    sum && stored && !done && /(ATOMG|RED)/ { done = 1; if (!fenced) sumbad = 1; sumseen = 1 }
    tally && /(ATOMG|RED)/ { tallyseen = 1; if ($0 !~ /STRONG\.GPU/) tallybad = 1 }
    END {
        # all matching kernels, in whatever order cuobjdump lists them
        sumok = !sumbad; tallyok = !tallybad
        if (!sumseen) { print "SASS: no STG then ATOMG in the gated sum"; bad = 1 }
        else if (!sumok) { print "SASS: no MEMBAR (GPU scope) between STG and ATOMG"; bad = 1 }
        if (!tallyseen) { print "SASS: no atomic in the gated tally"; bad = 1 }
        else if (!tallyok) { print "SASS: the tally atomic is not .STRONG.GPU"; bad = 1 }
        if (!bad) print "SASS: MEMBAR between STG and ATOMG, tally .STRONG.GPU"
        exit bad
    }'
}

failures=0
report() { printf '%s\n' "$*"; }

lessons=${*:-day27-memory-model day31-scan-1 day32-scan-2}

# 1. every build, BV_JOBS at a time, each variant in a folder of its own
#    (nvcc -keep names its files after the source)
for lesson in $lessons; do
    spec=$(variants "$lesson") || continue
    prog=${spec%% *}
    src="$root/programs/$lesson/$prog"
    dir="$scratch/$lesson"
    mkdir -p "$dir" && cp "$src" "$dir/" || { : >"$dir.copy-failed"; continue; }
    # the shared header, where the lesson's #include "../common/..." finds it
    if [ -d "$root/programs/common" ] && [ ! -d "$scratch/common" ]; then
        cp -R "$root/programs/common" "$scratch/" || { : >"$dir.copy-failed"; continue; }
    fi
    if [ "$lesson" = day27-memory-model ]; then
        # the control: the lesson's own build, for the code gate; its PTX
        # alone (-ptx) unless the SASS is checked too (one build for both)
        if [ "$have_sass" -eq 1 ]; then
            mkdir -p "$dir/lesson.keep"
            cmd=$(build_line "$src" "" lesson-bin lesson.keep)
        else
            cmd=$(build_line "$src" "" lesson-ptx.ptx | sed 's|-o lesson-ptx.ptx|-ptx -o lesson-ptx.ptx|')
        fi
        [ -z "$cmd" ] || start_build "$dir/control.log" "$cmd"
    fi
    for entry in ${spec#* }; do
        kind=${entry%%:*}
        macro=${entry#*:}
        name=$(printf '%s' "$macro" | tr 'A-Z_' 'a-z-')
        keep=""
        if [ "$kind" = code ] || [ "$kind" = sound ]; then
            keep=$name.keep
            mkdir -p "$dir/$keep"
        fi
        cmd=$(build_line "$src" "$macro" "$name" $keep) || continue
        start_build "$dir/$name.build.log" "$cmd"
    done
done
wait_builds

# 2. the report, lesson by lesson in order: the gates checked and, on a GPU,
#    each variant run, one at a time
for lesson in $lessons; do
    spec=$(variants "$lesson") || { report "$lesson: no broken variants known"; failures=$((failures + 1)); continue; }
    prog=${spec%% *}
    src="$root/programs/$lesson/$prog"
    dir="$scratch/$lesson"
    [ ! -e "$dir.copy-failed" ] || { failures=$((failures + 1)); continue; }

    if [ "$lesson" = day27-memory-model ]; then
        # The control: the lesson's own build must pass the code gate.
        ptx=$dir/lesson-ptx.ptx
        [ "$have_sass" -eq 0 ] || ptx=$(kept_ptx "$dir/lesson.keep") || ptx=
        if built "$dir/control.log" && [ -n "$ptx" ]; then
            if why=$(ptx_sound "$ptx"); then
                report "$lesson (lesson build): code gate passes: $why"
            else
                report "$lesson (lesson build): code gate FAILS on the correct program: $why"
                failures=$((failures + 1))
            fi
        else
            report "$lesson (lesson build): PTX build FAILED"; failures=$((failures + 1))
        fi
        if [ "$have_sass" -eq 1 ]; then
            why=""
            if built "$dir/control.log" && why=$(sass_sound "$dir/lesson-bin"); then
                report "$lesson (lesson build): SASS check passes: $why"
            else
                report "$lesson (lesson build): SASS check FAILS on the correct program: ${why:-build failed}"
                failures=$((failures + 1))
            fi
        fi
    fi

    for entry in ${spec#* }; do
        kind=${entry%%:*}
        macro=${entry#*:}
        name=$(printf '%s' "$macro" | tr 'A-Z_' 'a-z-')
        cmd=$(build_line "$src" "$macro" "$name") || { report "$lesson $macro: no Build: line"; failures=$((failures + 1)); continue; }
        if ! built "$dir/$name.build.log"; then
            report "$lesson $macro: BUILD FAILED ($cmd)"
            sed 's/^/    /' "$dir/$name.build.log" | head -n 20
            failures=$((failures + 1))
            continue
        fi
        line="$lesson $macro: build ok"
        if [ "$kind" = code ] || [ "$kind" = sound ]; then
            ptx=$(kept_ptx "$dir/$name.keep") || {
                report "$line; PTX BUILD FAILED (no PTX kept by the build)"; failures=$((failures + 1)); continue
            }
            if why=$(ptx_sound "$ptx"); then
                if [ "$kind" = code ]; then
                    line="$line; code gate PASSED ($why) -> NOT failed as required"
                    failures=$((failures + 1))
                else
                    line="$line; code gate passes ($why), as a correct alternative must"
                fi
            elif [ "$kind" = code ]; then
                line="$line; code gate: $why -> failed as required"
            else
                line="$line; code gate REJECTS this correct alternative: $why"
                failures=$((failures + 1))
            fi
            if [ "$have_sass" -eq 1 ]; then
                if why=$(sass_sound "$dir/$name"); then
                    if [ "$kind" = code ]; then
                        line="$line; SASS check passed ($why) -> NOT failed as required"
                        failures=$((failures + 1))
                    else
                        line="$line; $why"
                    fi
                elif [ "$kind" = code ]; then
                    line="$line; $why -> failed as required"
                else
                    line="$line; SASS check REJECTS this correct alternative: $why"
                    failures=$((failures + 1))
                fi
            fi
        fi
        if [ "$have_gpu" -eq 0 ]; then
            case $kind in
            run | race | run+race) line="$line; built, not run (no GPU or --compile-only)" ;;
            esac
            report "$line"
            continue
        fi
        (cd "$dir" && timeout 300 "./$name") >"$dir/$name.out" 2>"$dir/$name.err"
        rc=$?
        gate=$(grep -m 1 -E "$(gate_pattern "$lesson")" "$dir/$name.err")
        other=$(grep -m 1 -v -E "$(gate_pattern "$lesson")" "$dir/$name.err")
        [ "$rc" -eq 124 ] && other="timed out after 300 s"
        [ -n "$other" ] || other=$(tail -n 1 "$dir/$name.out")
        case $kind in
        run | run+race)
            if [ "$rc" -ne 0 ] && [ -n "$gate" ]; then
                line="$line; run: exit $rc: \"$gate\" -> failed as required"
            elif [ "$rc" -ne 0 ]; then
                line="$line; run: exit $rc without the gate's line: \"$other\" -> NOT failed as required (the run broke some other way)"
                failures=$((failures + 1))
            else
                line="$line; run: exit 0: \"$other\" -> NOT failed as required"
                failures=$((failures + 1))
            fi ;;
        sound)
            if [ "$rc" -eq 0 ]; then
                line="$line; run: exit 0: \"$other\", as a correct alternative must"
            else
                line="$line; run: exit $rc: \"${gate:-$other}\" -> a correct alternative FAILED its run"
                failures=$((failures + 1))
            fi ;;
        race)
            [ -n "$gate" ] || gate=$other
            line="$line; run: exit $rc: \"$gate\" (the run gate is not relied on for this bug; racecheck below is the check)" ;;
        *)
            [ -n "$gate" ] || gate=$other
            line="$line; run: exit $rc: \"$gate\" (the run gate is blind to this bug; the code gate above is the check)" ;;
        esac
        case $kind in
        race | run+race)
            rcmd=$(race_cmd "$lesson" "$name")
            (cd "$dir" && timeout 300 sh -c "$rcmd") >"$dir/$name.race" 2>&1
            rrc=$?
            hit=$(grep -m 1 -E "Race reported.* at ($(race_kernels "$lesson"))" "$dir/$name.race")
            summary=$(grep -m 1 'RACECHECK SUMMARY' "$dir/$name.race")
            if [ -n "$hit" ]; then
                line="$line; racecheck ($rcmd): \"$(printf '%s' "$hit" | sed 's/^=* *//')\", \"$(printf '%s' "$summary" | sed 's/^=* *//')\" -> failed as required"
            else
                line="$line; racecheck ($rcmd): exit $rrc, no race reported in $(race_kernels "$lesson"): \"$(printf '%s' "${summary:-$(tail -n 1 "$dir/$name.race")}" | sed 's/^=* *//')\" -> NOT failed as required"
                failures=$((failures + 1))
            fi ;;
        esac
        report "$line"
    done
done

if [ "$failures" -ne 0 ]; then
    echo "broken-variants: $failures problem(s): a variant did not build, or a gate did not fail"
    exit 1
fi
if [ "$have_gpu" -eq 1 ]; then
    echo "broken-variants: every variant built and every gate failed as required"
else
    echo "broken-variants: every variant built; code gates checked; run gates need a GPU (make broken-variants on the node)"
fi
exit 0
