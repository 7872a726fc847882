#!/bin/sh
# python-once.sh DIR: DIR/python3, a script that runs the interpreter
# `python3` names here (sys.executable), for `make test` to put first on
# PATH.  Where python3 is a shim that finds its interpreter on every call
# (pyenv: some 16 bash runs, 0.17 CPU s a call against 0.01 s), the suites'
# 45 or so calls then run that same interpreter, found once.  The script
# (not a link) runs it by its own path, as the shim does, so a virtual
# environment stays one.  Without python3, or where it names no runnable
# interpreter, DIR holds no python3 and the suites find python3 as before.
set -u
dir=$1
mkdir -p "$dir" || exit 1
rm -f "$dir/python3"
py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) || exit 0
case $py in
/*) ;;
*) exit 0 ;;
esac
[ -x "$py" ] || exit 0
# the path quoted for sh: each ' closed, escaped and reopened
q=$(printf '%s' "$py" | sed "s/'/'\\\\''/g")
printf "#!/bin/sh\nexec '%s' \"\$@\"\n" "$q" >"$dir/python3.tmp" &&
	chmod 755 "$dir/python3.tmp" && mv "$dir/python3.tmp" "$dir/python3"
