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
# Each variant names the gates that must fail on it (kind:MACRO, kinds
# joined with +), and every gate named is checked:
#   run     the program must exit nonzero AND print its gate's own failure
#           line on stderr (gate_pattern below), which the report quotes. A
#           nonzero exit for another reason (a CUDA error, a crash, a hang
#           stopped after 300 s) is reported as not failed as required.
#   code    (day 27) the bug is one the run cannot be relied on to show (a
#           missing fence, a narrowed scope), so the compiled code is
#           checked instead: in the PTX of the gated sum, a device-scope
#           fence (or a releasing atomic) between the partial's store and the
#           ticket's atomic, and a device-scope fence (or an acquiring
#           atomic) between the ticket and the first read of global memory,
#           with no non-coherent load after it; the gated tally's atomic not
#           block scope (.cta). Where cuobjdump is installed the SASS is
#           checked as well (ptx_sound and sass_sound below say exactly
#           what). The lesson's own build must pass, each variant must fail.
#   sound   (day 27) a correct alternative the code gate must ACCEPT and
#           whose run must pass: the gate may not demand one idiom.
#   race    compute-sanitizer's racecheck over the broken copies of the gated
#           kernels, at a size where the run gate is blind (race_cmd), must
#           report a race in one of them.
#   barrier (day 32) in the PTX of the tile kernels no branch may jump over
#           a bar.sync: every thread reaches every barrier. The lesson's own
#           build must pass, each variant must fail. It sees a barrier that
#           some threads or some levels skip, not one deleted outright (the
#           run gate sees that, where more than one warp is at work).
# A variant whose run gate is not among its kinds is still run on a GPU, and
# the report quotes what its run printed (expected to pass: a blind gate).
#
# The builds run BV_JOBS at a time (default: the online CPUs), each in a
# folder of its own; the checks and runs that follow go one at a time, in
# order, so the report and the GPU runs are as they were one build at a time.
# A code- or barrier-gated variant's PTX is the one its own build made (nvcc -keep), not
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
        echo "scan_2.cu run:BROKEN_TILE0 run:BROKEN_ROOT_ORDER run:BROKEN_PAD_INDEX run+barrier:BROKEN_EARLY_RETURN run:BROKEN_NO_OFFSETS barrier:BROKEN_DEEP_BARRIER" ;;
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
# threads). The gate fails when the report names a race in one of
# race_kernels. The lesson's own build is held to the same tool by the
# racecheck runs of its header, recorded in its evidence. (Day 32's missing
# barrier between two levels of warp 0 alone is not one racecheck reports:
# 0 hazards on the H200, verifier/notes/h200-2026-12-05/; the barrier gate
# is its check.)
race_kernels() {
    case "$1" in
    day31-scan-1) echo 'brokenInclusive|brokenExclusive' ;;
    esac
}
race_cmd() { # LESSON BINARY
    case "$1" in
    day31-scan-1) echo "compute-sanitizer --tool racecheck --kernel-name kns=broken ./$2 32" ;;
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

# Day 32's barrier gate over a PTX file: in every tile kernel (the lesson's
# and the broken copies), no branch may jump forward over a bar.sync, so
# that no thread can leave a level before the barrier the others wait at.
# Prints each branch that does; 0 when there is none. Branches are judged by
# code order, which is how cicc lays out these loops (a backward branch is a
# loop's back edge and reaches the barrier again).
barrier_sound() { # PTXFILE
    awk '
    /^\.(visible|weak) \.entry/ { fn = $3; sub(/\(.*/, "", fn); on = (fn ~ /lellochTile|illisSteeleTile/)
        nb = 0; nbr = 0; split("", lab); if (on) seen++ }
    on && /^\$L[A-Za-z0-9_]*:/ { l = $1; sub(/:$/, "", l); lab[l] = NR }
    on && /bar\.sync/ { bars[++nb] = NR }
    on && /[ \t]bra(\.uni)?[ \t]/ { t = $NF; sub(/;$/, "", t); brl[++nbr] = NR; brt[nbr] = t }
    on && /^}/ {
        for (i = 1; i <= nbr; i++) {
            j = lab[brt[i]] + 0
            for (b = 1; b <= nb; b++)
                if (j > brl[i] && bars[b] > brl[i] && bars[b] < j) {
                    print fn ": the branch to " brt[i] " jumps over a bar.sync"; bad = 1; break
                }
        }
        on = 0
    }
    END {
        if (!seen) { print "no tile kernel found in the PTX"; exit 1 }
        if (!bad) print "PTX: no branch jumps over a barrier in the tile kernels"
        exit bad
    }' "$1"
}

# The same check on the machine code. Writer: STG, then a MEMBAR that is not
# block scope, then the ticket's atomic (ATOMG, or ATOM for the generic
# address cuda::atomic_ref uses). Reader: after the ticket's atomic, a
# MEMBAR (not block scope) or the L1 invalidation an acquire compiles to
# (CCTL.IVALL) before the first LDG. Each sum kernel is judged on its own:
# one the check cannot read (no store-then-atomic) fails too.
sass_sound() { # BINARY
    cuobjdump -sass "$1" 2>/dev/null | awk '
    function judge() {
        if (sum && !done) nosum = 1
        if (sum && done && !rdone) noread = 1
    }
    /Function :/ { judge(); sum = ($0 ~ /lastBlockSumFence|brokenSumFence/);
        tally = ($0 ~ /countAtDeviceScope|brokenCountDevice/); stored = 0; fenced = 0; done = 0
        rfenced = 0; rdone = 0 }
    sum && !done && /STG/ { stored = 1 }
    sum && stored && !done && /MEMBAR/ && $0 !~ /CTA/ { fenced = 1 }
    sum && stored && !done && /ATOMG?\./ { done = 1; if (!fenced) sumbad = 1; sumseen = 1; next }
    sum && done && !rdone && ((/MEMBAR/ && $0 !~ /CTA/) || /CCTL\.IVALL/) { rfenced = 1 }
    sum && done && !rdone && /LDG/ { rdone = 1; if (!rfenced) readbad = 1 }
    tally && /(ATOMG|RED)/ { tallyseen = 1; if ($0 !~ /STRONG\.GPU/) tallybad = 1 }
    END {
        judge()
        if (!sumseen || nosum) { print "SASS: no STG then ticket atomic in a gated sum kernel"; bad = 1 }
        else if (sumbad) { print "SASS: no MEMBAR (GPU scope) between STG and the ticket atomic"; bad = 1 }
        if (sumseen && noread) { print "SASS: no LDG after the ticket atomic in a gated sum kernel"; bad = 1 }
        else if (readbad) { print "SASS: no MEMBAR (GPU scope) or CCTL.IVALL between the ticket atomic and the first LDG"; bad = 1 }
        if (!tallyseen) { print "SASS: no atomic in the gated tally"; bad = 1 }
        else if (tallybad) { print "SASS: the tally atomic is not .STRONG.GPU"; bad = 1 }
        if (!bad) print "SASS: MEMBAR between STG and the ticket, MEMBAR or CCTL.IVALL between the ticket and LDG, tally .STRONG.GPU"
        exit bad
    }'
}

failures=0
report() { printf '%s\n' "$*"; }
# has KIND GATE: whether the '+'-joined KIND names GATE
has() { case "+$1+" in *"+$2+"*) return 0 ;; esac; return 1; }

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
    if [ "$lesson" = day32-scan-2 ]; then
        # the control for the barrier gate: the lesson's own PTX
        cmd=$(build_line "$src" "" lesson-ptx.ptx | sed 's|-o lesson-ptx.ptx|-ptx -o lesson-ptx.ptx|')
        [ -z "$cmd" ] || start_build "$dir/control.log" "$cmd"
    fi
    for entry in ${spec#* }; do
        kind=${entry%%:*}
        macro=${entry#*:}
        name=$(printf '%s' "$macro" | tr 'A-Z_' 'a-z-')
        keep=""
        if has "$kind" code || has "$kind" sound || has "$kind" barrier; then
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

    if [ "$lesson" = day32-scan-2 ]; then
        # The control: the lesson's own tile kernels must pass the barrier gate.
        if built "$dir/control.log" && why=$(barrier_sound "$dir/lesson-ptx.ptx"); then
            report "$lesson (lesson build): barrier gate passes: $why"
        else
            report "$lesson (lesson build): barrier gate FAILS on the correct program: $(printf '%s\n' "${why:-PTX build failed}" | head -n 1)"
            failures=$((failures + 1))
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
        ptx=""
        if has "$kind" code || has "$kind" sound || has "$kind" barrier; then
            ptx=$(kept_ptx "$dir/$name.keep") || {
                report "$line; PTX BUILD FAILED (no PTX kept by the build)"; failures=$((failures + 1)); continue
            }
        fi
        if has "$kind" code || has "$kind" sound; then
            if why=$(ptx_sound "$ptx"); then
                if has "$kind" code; then
                    line="$line; code gate PASSED ($why) -> NOT failed as required"
                    failures=$((failures + 1))
                else
                    line="$line; code gate passes ($why), as a correct alternative must"
                fi
            elif has "$kind" code; then
                line="$line; code gate: $why -> failed as required"
            else
                line="$line; code gate REJECTS this correct alternative: $why"
                failures=$((failures + 1))
            fi
            if [ "$have_sass" -eq 1 ]; then
                if why=$(sass_sound "$dir/$name"); then
                    if has "$kind" code; then
                        line="$line; SASS check passed ($why) -> NOT failed as required"
                        failures=$((failures + 1))
                    else
                        line="$line; $why"
                    fi
                elif has "$kind" code; then
                    line="$line; $why -> failed as required"
                else
                    line="$line; SASS check REJECTS this correct alternative: $why"
                    failures=$((failures + 1))
                fi
            fi
        fi
        if has "$kind" barrier; then
            if why=$(barrier_sound "$ptx"); then
                line="$line; barrier gate PASSED ($why) -> NOT failed as required"
                failures=$((failures + 1))
            else
                line="$line; barrier gate: $(printf '%s\n' "$why" | head -n 1) -> failed as required"
            fi
        fi
        if [ "$have_gpu" -eq 0 ]; then
            if has "$kind" run || has "$kind" race; then
                line="$line; built, not run (no GPU or --compile-only)"
            fi
            report "$line"
            continue
        fi
        (cd "$dir" && timeout 300 "./$name") >"$dir/$name.out" 2>"$dir/$name.err"
        rc=$?
        gate=$(grep -m 1 -E "$(gate_pattern "$lesson")" "$dir/$name.err")
        other=$(grep -m 1 -v -E "$(gate_pattern "$lesson")" "$dir/$name.err")
        [ "$rc" -eq 124 ] && other="timed out after 300 s"
        [ -n "$other" ] || other=$(tail -n 1 "$dir/$name.out")
        if has "$kind" run; then
            if [ "$rc" -ne 0 ] && [ -n "$gate" ]; then
                line="$line; run: exit $rc: \"$gate\" -> failed as required"
            elif [ "$rc" -ne 0 ]; then
                line="$line; run: exit $rc without the gate's line: \"$other\" -> NOT failed as required (the run broke some other way)"
                failures=$((failures + 1))
            else
                line="$line; run: exit 0: \"$other\" -> NOT failed as required"
                failures=$((failures + 1))
            fi
        elif has "$kind" sound; then
            if [ "$rc" -eq 0 ]; then
                line="$line; run: exit 0: \"$other\", as a correct alternative must"
            else
                line="$line; run: exit $rc: \"${gate:-$other}\" -> a correct alternative FAILED its run"
                failures=$((failures + 1))
            fi
        else
            [ -n "$gate" ] || gate=$other
            line="$line; run: exit $rc: \"$gate\" (the run gate is blind to this bug; the gate above is the check)"
        fi
        if has "$kind" race; then
            rcmd=$(race_cmd "$lesson" "$name")
            (cd "$dir" && timeout "${BV_RACE_TIMEOUT:-300}" sh -c "$rcmd") >"$dir/$name.race" 2>&1
            rrc=$?
            hit=$(grep -m 1 -E "Race reported.* at ($(race_kernels "$lesson"))" "$dir/$name.race")
            summary=$(grep -m 1 'RACECHECK SUMMARY' "$dir/$name.race")
            if [ -n "$hit" ]; then
                line="$line; racecheck ($rcmd): \"$(printf '%s' "$hit" | sed 's/^=* *//')\", \"$(printf '%s' "$summary" | sed 's/^=* *//')\" -> failed as required"
            else
                line="$line; racecheck ($rcmd): exit $rrc, no race reported in $(race_kernels "$lesson"): \"$(printf '%s' "${summary:-$(tail -n 1 "$dir/$name.race")}" | sed 's/^=* *//')\" -> NOT failed as required"
                failures=$((failures + 1))
            fi
        fi
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
