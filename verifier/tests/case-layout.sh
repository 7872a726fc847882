# case-layout.sh - lays out one golden case in a folder, sourced by the
# runners that use the cases (run-golden.sh, review/sweep.sh,
# reports/run.sh).  Sourced with `tests` set to verifier/tests and
# COURSECHECK to the binary; defines
#
#   case_layout SRC WORK      (0: laid out; 1: not, and case_why says why)
#
# which builds the case SRC in WORK, in this order:
#   1. the fixture its file `base` names (fixtures/NAME), if any;
#   2. the case's own files over it, without the runner's control files;
#   3. each evidence file its file `seal` names, sealed with the project's
#      own tools (a case declares what it seals: a case about a forged or
#      stale seal names nothing, and its file keeps the value it holds);
#   4. its setup.sh, for what is not a seal (with $SEAL and $COURSECHECK).
#
# A `seal` file has one evidence file a line, relative to the case's root;
# `tokens PATH` makes PATH look as capture writes it now first
# (tokens-evidence.sh, which then seals it); `#` starts a comment line.
# The seals run in the order listed, before setup.sh, so a setup.sh that
# edits a sealed file afterwards makes a stale seal on purpose.

# the files a case holds for the runner, not for the course
case_control='expected.txt args base setup.sh seal keep-check-count env cwd unsigned'

case_layout() {
	_src=$1 _work=$2
	mkdir -p "$_work" || return 1
	if [ -f "$_src/base" ]; then
		cp -R "$tests/fixtures/$(cat "$_src/base")/." "$_work/" || { case_why="its base could not be copied"; return 1; }
	fi
	# the case's own files: one cp (the names in a subshell's "$@": any
	# character a name may hold)
	(cd "$_src" && set -- && for f in * .[!.]* ..?*; do
		case " $case_control " in *" $f "*) continue ;; esac
		[ -e "$f" ] || [ -L "$f" ] || continue
		set -- "$@" "$f"
	done && { [ $# = 0 ] || cp -R "$@" "$_work/"; }) || { case_why="its files could not be copied"; return 1; }
	export SEAL="$tests/seal-evidence.sh" COURSECHECK
	if [ -f "$_src/seal" ]; then
		case_seal "$_src/seal" "$_work" || return 1
	fi
	if [ -f "$_src/setup.sh" ]; then
		(cd "$_work" && sh "$_src/setup.sh") || { case_why="setup.sh failed"; return 1; }
	fi
	return 0
}

# case_seal LIST WORK: each evidence file LIST names, sealed in WORK
case_seal() {
	while IFS= read -r _line || [ -n "$_line" ]; do
		case $_line in '' | '#'*) continue ;; esac
		_tool=seal-evidence.sh
		case $_line in "tokens "*) _tool=tokens-evidence.sh _line=${_line#tokens } ;; esac
		[ -f "$2/$_line" ] || { case_why="seal: $_line is not a file of the case"; return 1; }
		(cd "$2" && sh "$tests/$_tool" . "$_line") || { case_why="seal: $_line could not be sealed"; return 1; }
	done <"$1"
}
