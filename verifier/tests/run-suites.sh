#!/bin/sh
# run-suites.sh - the suites of `make test`, P at a time.
#
#   sh verifier/tests/run-suites.sh P TARGET...
#
# Runs `make TARGET` for each TARGET, at most P at once, in the order given.
# Each suite's output (stdout and stderr) is kept in a file and printed
# whole, in the order given, once that suite and every one before it has
# ended, so parallel suites never interleave.  Each suite appends what it
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
# Without mkfifo it polls as before.
fifo=
if mkfifo "$d/done" 2>/dev/null && exec 3<>"$d/done"; then
	fifo=$d/done
fi

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
			[ -z "${SUITE_TIMES:-}" ] || awk -v t="$t" -v a="$s0" -v b="$(date +%s.%N)" \
				'BEGIN { printf "%-22s %7.1f s\n", t, b - a }' >"$d/$i.time"
			echo $rc >"$d/$i.rc.tmp" && mv "$d/$i.rc.tmp" "$d/$i.rc"
			[ -z "$fifo" ] || echo "$i" >"$fifo") &
	done
	# print the next suites in order as they end
	progressed=0
	while [ "$k" -lt "$i" ] && [ -f "$d/$((k + 1)).rc" ]; do
		k=$((k + 1))
		cat "$d/$k.out"
		[ ! -f "$d/$k.skipped" ] || cat "$d/$k.skipped" >>"$SKIPPED_ALL"
		[ ! -f "$d/$k.time" ] || cat "$d/$k.time" >>"$SUITE_TIMES"
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
			read -r _ <&3
		else
			sleep 0.1
		fi
	fi
done
wait
[ "$failed" = 0 ]
