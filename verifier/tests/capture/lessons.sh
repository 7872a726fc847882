# lessons.sh - capture cases for lessons that are folders (sourced by
# run.sh, which defines begin/check/end, cap, field, valid, err_has and
# $R, $T, $FULL).  The lessons are lessons/NAME/, copied in as
# programs/NAME/ with lessons/common/ as programs/common/; they are plain
# C like progs/, built by the stand-in nvcc, make and cmake (a stand-in
# from bin-nocmake/ where cmake is not installed), and run under the
# stand-in compute-sanitizer.

command -v cmake >/dev/null 2>&1 || PATH=$HERE/bin-nocmake:$PATH

# mklessons NAME LESSON...: a repository of those lessons and common/, with
# pages/ so that the commands that find the course upward find it.  Sets R.
mklessons() {
	R=$T/$1
	shift
	mkdir -p "$R/pages" "$R/programs"
	cp -R "$HERE/lessons/common" "$R/programs/common"
	for l in "$@"; do
		cp -R "$HERE/lessons/$l" "$R/programs/$l"
	done
	printf 'build/\n' >"$R/.gitignore"
	(cd "$R" && git init -q && git add -A &&
		git -c user.name=test -c user.email=test@example.com commit -qm init) >/dev/null 2>&1
}

# section FILE KEY: the lines of the body section "KEY: N" (stdout.racecheck, ...).
section() {
	awk -v key="$2" 'f && n > 0 { print; n--; next } f { exit }
	     index($0, key ": ") == 1 && $NF ~ /^[0-9]+$/ { f = 1; n = $NF }' "$1"
}

# section_has FILE KEY PATTERN: a line of that section matches PATTERN (grep -x).
section_has() {
	section "$1" "$2" | grep -qx -- "$3"
}

begin lesson-two-files-shared-header
mklessons lessons-two twofile
cap twofile
E=$R/evidence/twofile/run-$DAY.txt
check "exit status $RC, not 0 ($(tail -n 3 "$T/err" | tr '\n' ' '))" [ "$RC" -eq 0 ]
check "no evidence written" [ -f "$E" ]
check "the evidence does not parse" valid "$E"
check "the shared header is not recorded" grep -q "^source-file-1: programs/common/greet.h [0-9a-f]\{64\}$" "$E"
check "the input file is not recorded" grep -q "^source-file-2: programs/twofile/input.txt " "$E"
check "the second source is not recorded" grep -q "^source-file-4: programs/twofile/part.cu " "$E"
check "the header beside it is not recorded" grep -q "^source-file-5: programs/twofile/part.h " "$E"
check "the program is not the one with the header" [ "$(field "$E" program)" = programs/twofile/main.cu ]
check "the wrapped Build: line is not joined" [ "$(field "$E" build)" = "nvcc -arch=sm_90 -o main main.cu part.cu" ]
check "the arguments are not on the run line" [ "$(field "$E" run)" = "./main 4 128" ]
check "the input file did not travel (or the arguments)" grep -qx "block 128, input 7 35" "$E"
check "the shared header's text is not in the output" grep -qx "hello from the shared header" "$E"
check "no runs: line" [ "$(field "$E" runs)" = "main racecheck" ]
check "the racecheck run's command" [ "$(field "$E" run.racecheck)" = "compute-sanitizer --tool racecheck --error-exitcode 1 ./main 4 64" ]
check "the racecheck run's exit is not 1" [ "$(field "$E" exit.racecheck)" = 1 ]
check "the expected exit is not recorded" [ "$(field "$E" expect-exit.racecheck)" = 1 ]
check "the Expect: pattern is not recorded" [ "$(field "$E" expect)" = '^sum = [0-9]+$' ]
check "the racecheck stdout section" section_has "$E" stdout.racecheck "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)"
check "the racecheck run's own stdout" section_has "$E" stdout.racecheck "block 64, input 7 35"
check "the racecheck stderr section" section_has "$E" stderr.racecheck "racecheck stand-in: done"
check "the first run's stderr" section_has "$E" stderr "note: 128 threads a block"
check "the first run's stdout holds the racecheck run" not section_has "$E" stdout "block 64, input 7 35"
check "the capture said no 'exit 0'" err_has "exit 0 -> evidence/twofile/run-$DAY.txt"
if [ -n "$FULL" ]; then
	(cd "$R" && "$FULL" quote --run racecheck --stream stderr "evidence/twofile/run-$DAY.txt" 1-2) >"$T/quote" 2>&1
	check "quote of the racecheck stderr failed: $(cat "$T/quote")" grep -qx "racecheck stand-in: done" "$T/quote"
	check "quote's marker does not name the run and stream" grep -qx "<!-- transcript: racecheck/stderr -->" "$T/quote"
	(cd "$R" && "$FULL" quote --stream stderr "evidence/twofile/run-$DAY.txt" 1) >"$T/quote" 2>&1
	check "the first run's stderr cannot be quoted" grep -qx "note: 128 threads a block" "$T/quote"
fi
check "the rule is not recorded" [ "$(field "$E" source-rule)" = tokens-1 ]
check "how the files were found is not recorded" [ "$(field "$E" reads)" = compiler-deps ]
cap --stale
check "a current two-file lesson was captured again" [ "$(count_evidence twofile)" = 1 ]
printf '/* edited */\n' >>"$R/programs/common/greet.h"
cap --stale
check "a comment in the shared header made the evidence stale" [ "$(count_evidence twofile)" = 1 ]
sed -i 's/hello from/greetings from/' "$R/programs/common/greet.h"
cap --stale
check "a changed line of the shared header did not make the evidence stale" [ "$(count_evidence twofile)" = 2 ]
check "the reason does not name the header" err_has "capture: twofile: stale: 'programs/common/greet.h' changed since its newest evidence"
printf '9 9\n' >"$R/programs/twofile/data.txt"
cap --stale
check "a new input file did not make the evidence stale" [ "$(count_evidence twofile)" = 3 ]
check "the reason does not name the new file" err_has "'programs/twofile/data.txt' is new since its newest evidence"
no_litter
end

begin lesson-makefile
mklessons lessons-make mk
cap mk
E=$R/evidence/mk/run-$DAY.txt
check "exit status $RC, not 0 ($(tail -n 3 "$T/err" | tr '\n' ' '))" [ "$RC" -eq 0 ]
check "the Makefile lesson did not run" grep -qx "hello from the shared header, built by make" "$E"
check "the Makefile is not recorded" grep -q "^source-file-[0-9]*: programs/mk/Makefile " "$E"
check "the build is not make" [ "$(field "$E" build)" = make ]
no_litter
end

begin lesson-cmake
mklessons lessons-cmake cm
cap cm
E=$R/evidence/cm/run-$DAY.txt
check "exit status $RC, not 0 ($(tail -n 3 "$T/err" | tr '\n' ' '))" [ "$RC" -eq 0 ]
check "the CMake lesson did not run" grep -qx "built by cmake, argument 3" "$E"
check "CMakeLists.txt is not recorded" grep -q "^source-file-[0-9]*: programs/cm/CMakeLists.txt " "$E"
check "the build line" [ "$(field "$E" build)" = "cmake -S . -B b >/dev/null && cmake --build b >/dev/null" ]
no_litter
end

begin lesson-src-main-cmake-stale
mklessons lessons-srcmain srcmain cm twofile
cap
E=$R/evidence/srcmain/run-$DAY.txt
check "exit status $RC, not 0 ($(tail -n 3 "$T/err" | tr '\n' ' '))" [ "$RC" -eq 0 ]
check "the program below src/ is not the program" [ "$(field "$E" program)" = programs/srcmain/src/main.cu ]
check "the lesson did not run" grep -qx "hello from the shared header, size 42" "$E"
check "the rule is not recorded" [ "$(field "$E" source-rule)" = tokens-1 ]
check "the compiler's dependencies were not used" [ "$(field "$E" reads)" = compiler-deps ]
check "the shared header the build read is not recorded" grep -q "^source-file-[0-9]*: programs/common/greet.h [0-9a-f]\{64\}$" "$E"
check "the header beside the program is not recorded" grep -q "^source-file-[0-9]*: programs/srcmain/src/scale.h " "$E"
check "the data file is not recorded" grep -q "^source-file-[0-9]*: programs/srcmain/sizes.txt " "$E"
check "CMakeLists.txt is not recorded" grep -q "^source-file-[0-9]*: programs/srcmain/CMakeLists.txt " "$E"
check "cm records the shared header its build never read" not grep -q "programs/common/greet.h" "$R/evidence/cm/run-$DAY.txt"
if [ -n "$FULL" ]; then
	(cd "$R" && "$FULL" verify) >"$T/verify" 2>&1
	check "the captured lessons do not verify: $(tail -n 1 "$T/verify")" grep -q ": 0 errors" "$T/verify"
fi
# a comment, blank lines and a header nothing includes: every lesson current
printf '\n/* a note */\n\n' >>"$R/programs/common/greet.h"
printf '#define UNUSED 1\n' >"$R/programs/common/unused.h"
cap --stale
check "a comment or an unread header made a lesson stale" [ "$(count_evidence srcmain)$(count_evidence cm)$(count_evidence twofile)" = 111 ]
# a changed line of code: stale exactly the lessons whose build read it
sed -i 's/hello from/greetings from/' "$R/programs/common/greet.h"
if [ -n "$FULL" ]; then
	(cd "$R" && "$FULL" verify) >"$T/verify" 2>&1
	check "srcmain is not stale" grep -q "^programs/srcmain/src/main.cu:1: error: evidence .* is stale: 'programs/common/greet.h' changed" "$T/verify"
	check "twofile is not stale" grep -q "^programs/twofile/main.cu:1: error: evidence .* is stale: 'programs/common/greet.h' changed" "$T/verify"
	check "cm is stale though its build never read the header" not grep -q "^programs/cm/cm.cu.* is stale" "$T/verify"
	(cd "$R" && "$FULL" why-stale srcmain) >"$T/why" 2>&1
	check "why-stale does not name the include" grep -qx '    programs/srcmain/src/main.cu:6 includes "../../common/greet.h"' "$T/why"
	if command -v git >/dev/null 2>&1; then
		check "why-stale does not name the token" grep -qx "  first different token: '\"hello from the shared header\"' is now '\"greetings from the shared header\"'" "$T/why"
	fi
fi
cap --stale
check "--stale did not capture exactly the lessons that read the header" [ "$(count_evidence srcmain)$(count_evidence cm)$(count_evidence twofile)" = 212 ]
# a new data file the program may open
printf '1\n' >"$R/programs/srcmain/more.txt"
cap --stale
check "a new data file did not make its lesson stale" [ "$(count_evidence srcmain)$(count_evidence cm)$(count_evidence twofile)" = 312 ]
check "the reason does not name the data file" err_has "'programs/srcmain/more.txt' is new since its newest evidence"
no_litter
end

begin lesson-no-program-says-what
mklessons lessons-noprog srcmain
mv "$R/programs/srcmain/src/main.cu" "$R/programs/srcmain/src/main.cpp"
cap srcmain
check "exit status $RC for a lesson with no program, not 1" [ "$RC" -eq 1 ]
check "the message does not say what it found" err_has "no program: programs/srcmain/ holds no .cu file (found CMakeLists.txt, sizes.txt, src/main.cpp, src/scale.h); name the program"
end

begin expect-does-not-match
mklessons lessons-expect nomatch
cap nomatch
check "exit status $RC for a run that misses its Expect:, not 1" [ "$RC" -eq 1 ]
check "evidence was written for it" [ "$(count_evidence nomatch)" = 0 ]
check "the message does not say why" err_has "programs/nomatch: error: run failed: exit 0, but its stdout does not match the Expect: line of programs/nomatch/nomatch.cu (^all \[0-9\]+ sums checked\$)"
check "no --keep-failed hint" err_has "no evidence written (--keep-failed writes it)"
check "the output is not shown" err_has "| CUDA error: no kernel image"
cap --keep-failed nomatch
E=$(ls "$R"/evidence/nomatch/run-*.txt 2>/dev/null | head -1)
check "--keep-failed wrote nothing" [ -n "$E" ]
check "the kept evidence does not parse" valid "$E"
check "the kept evidence does not say which run missed Expect:" [ "$(field "$E" expect-failed)" = main ]
no_litter
end

begin expected-failure-exits-0
mklessons lessons-exit0 exit0
cap exit0
check "exit status $RC for a run expected to exit 1 that exits 0, not 1" [ "$RC" -eq 1 ]
check "evidence was written" [ "$(count_evidence exit0)" = 0 ]
check "the message does not name the expected exit" err_has "run racecheck failed: exit 0, expected exit 1"
no_litter
end

begin header-unreadable-refused
mklessons lessons-bad twofile
sed -i 's|^// Run racecheck (exit 1):|// Run racecheck (exit x):|' "$R/programs/twofile/main.cu"
cap twofile
check "exit status $RC for an unreadable header line, not 1" [ "$RC" -eq 1 ]
check "it was built or run anyway" [ "$(count_evidence twofile)" = 0 ]
check "the message does not name the line" err_has "header line 7 of programs/twofile/main.cu cannot be read"
end

begin build-only-keeps-layout
mklessons lessons-bo twofile
cap --build-only "$T/bo"
check "exit status $RC, not 0" [ "$RC" -eq 0 ]
check "the program was not built" [ -x "$T/bo/twofile/main" ]
check "the shared folder was not copied beside it" [ -f "$T/bo/common/greet.h" ]
end
