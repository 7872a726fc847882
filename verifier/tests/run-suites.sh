#!/bin/sh
# run-suites.sh - the suites of `make test`, P at a time.
#
#   sh verifier/tests/run-suites.sh P TARGET...
#
# Runs `make TARGET` for each TARGET, at most P at once, in the order given.
# Each suite's output (stdout and stderr) is kept in a file.  Once a suite
# and every one before it has ended, one line says how it went, in the
# order given, so parallel suites never interleave: its own `N passed, N
# failed` lines and its time when it passed, its whole output when it
# failed (VERBOSE=1: every suite's whole output).  While suites run, a line
# every 30 s names them (on a terminal, one line rewritten in place).  The
# last line adds up every suite's counts: `test: N passed, N failed, N
# skipped`, after a line naming what was skipped.  Each suite appends what it
# skipped to its own file (SKIPPED_FILE), joined into SKIPPED_ALL in the
# order given, so the last line of `make test` does not depend on which
# suite ended first.  After a suite fails no new one starts; the ones
# running are waited for and printed; the exit status is 1.  SUITE_TIMES=FILE
# appends each suite's wall time to FILE.
set -u
P=$1
shift
MAKE=${MAKE:-make}
d=$(mktemp -d "${TMPDIR:-/tmp}/suites.XXXXXX") || exit 2
trap 'rm -rf "$d"' EXIT
trap 'exit 130' INT TERM
: "${SKIPPED_ALL:?SKIPPED_ALL names the file the skipped lines go to}"

# Each suite, once ended, writes a line to the FIFO "done", which the loop
# reads when it has nothing to do: it sleeps until a suite ends, where it
# polled every 0.1 s (a find, a wc and a sleep: some 10 CPU s over a make
# test).  The .rc files stay what is judged; a line read is only a wake-up.
# Without mkfifo it polls as before.  A ticker writes to the same FIFO
# every 30 s, so the loop wakes to say what is still running.
fifo=
ticker=
if mkfifo "$d/done" 2>/dev/null && exec 3<>"$d/done"; then
	fifo=$d/done
	(while sleep 30; do echo tick >"$fifo" || exit 0; done) 3>&- &
	ticker=$!
fi
trap '[ -z "$ticker" ] || kill "$ticker" 2>/dev/null; rm -rf "$d"' EXIT
tty=false
[ -t 1 ] && tty=true
t_start=$(date +%s)

# the suites started and not ended, by name
running() {
	r= j=1
	while [ "$j" -le "$i" ]; do
		if [ ! -f "$d/$j.rc" ]; then
			eval "r=\"\$r\${r:+, }\$name_$j\""
		fi
		j=$((j + 1))
	done
	printf '%s' "$r"
}

# report K: one line for a suite that passed (its count lines, its time),
# its whole output for one that failed or under VERBOSE=1
report() {
	eval "rt=\$name_$1"
	secs=
	[ ! -f "$d/$1.time" ] || secs=$(cat "$d/$1.time")
	! $tty || printf '\r\033[K'
	if [ "$(cat "$d/$1.rc")" != 0 ] || [ -n "${VERBOSE:-}" ]; then
		cat "$d/$1.out"
	fi
	if [ "$(cat "$d/$1.rc")" = 0 ]; then
		counts=$(grep -E '^[A-Za-z0-9 ._-]+: [0-9]+ passed, [0-9]+ failed' "$d/$1.out" | paste -sd';' - | sed 's/;/; /g')
		[ -n "$counts" ] || counts="passed"
		printf 'ok   %-22s %s (%s s)\n' "$rt" "$counts" "$secs"
	fi
	# the totals of the last line: every suite's `N passed, N failed` lines
	set -- $(grep -E '^[A-Za-z0-9 ._-]+: [0-9]+ passed, [0-9]+ failed' "$d/$1.out" |
		sed -E 's/^[^:]*: ([0-9]+) passed, ([0-9]+) failed.*/\1 \2/' |
		awk '{ p += $1; f += $2 } END { print p + 0, f + 0 }')
	total_pass=$((total_pass + $1))
	total_fail=$((total_fail + $2))
}
total_pass=0 total_fail=0

n=$#
i=0 # suites started
k=0 # suites printed
failed=0
for t in "$@"; do
	i=$((i + 1))
	eval "name_$i=\$t"
done
i=0
while [ "$k" -lt "$n" ]; do
	# start suites while a slot is free and nothing has failed: a slot is
	# taken by a suite started and not ended (ended: its .rc is there)
	ended=0 j=1
	while [ "$j" -le "$i" ]; do
		[ ! -f "$d/$j.rc" ] || ended=$((ended + 1))
		j=$((j + 1))
	done
	while [ "$failed" = 0 ] && [ $((i - ended)) -lt "$P" ] && [ "$i" -lt "$n" ]; do
		i=$((i + 1))
		eval "t=\$name_$i"
		(s0=$(date +%s.%N)
			SKIPPED_FILE=$d/$i.skipped "$MAKE" --no-print-directory "$t" >"$d/$i.out" 2>&1 3>&-
			rc=$?
			awk -v a="$s0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f\n", b - a }' >"$d/$i.time"
			echo $rc >"$d/$i.rc.tmp" && mv "$d/$i.rc.tmp" "$d/$i.rc"
			[ -z "$fifo" ] || echo "$i" >"$fifo") &
	done
	# print the next suites in order as they end
	progressed=0
	while [ "$k" -lt "$i" ] && [ -f "$d/$((k + 1)).rc" ]; do
		k=$((k + 1))
		report "$k"
		[ ! -f "$d/$k.skipped" ] || cat "$d/$k.skipped" >>"$SKIPPED_ALL"
		if [ -n "${SUITE_TIMES:-}" ]; then
			eval "t=\$name_$k"
			printf '%-22s %7s s\n' "$t" "$(cat "$d/$k.time")" >>"$SUITE_TIMES"
		fi
		if [ "$(cat "$d/$k.rc")" != 0 ]; then
			eval "t=\$name_$k"
			echo "make test: $t FAILED"
			failed=1
		fi
		progressed=1
	done
	# after a failure, nothing more starts: stop once the started ones are printed
	[ "$failed" = 0 ] || [ "$k" -lt "$i" ] || break
	if [ "$progressed" = 0 ]; then
		if [ -n "$fifo" ]; then
			read -r why <&3
			if [ "$why" = tick ] && [ -n "$(running)" ]; then
				if $tty; then
					printf '\r\033[Krunning (%s s): %s' "$(($(date +%s) - t_start))" "$(running)"
				else
					echo "running ($(($(date +%s) - t_start)) s): $(running)"
				fi
			fi
		else
			sleep 0.1
		fi
	fi
done
# the ticker first: wait would wait for it too, for ever
[ -z "$ticker" ] || kill "$ticker" 2>/dev/null
wait
! $tty || printf '\r\033[K'
skipped=0
[ ! -s "$SKIPPED_ALL" ] || skipped=$(wc -l <"$SKIPPED_ALL")
if [ "$skipped" != 0 ]; then
	echo "skipped: $(paste -sd';' "$SKIPPED_ALL" | sed 's/;/; /g')"
fi
[ "$failed" = 0 ] || total_fail=$((total_fail > 0 ? total_fail : 1))
echo "test: $total_pass passed, $total_fail failed, $skipped skipped"
[ "$failed" = 0 ]
