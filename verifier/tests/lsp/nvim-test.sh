#!/bin/sh
# nvim-test.sh COURSECHECK: Neovim headless (Debian's neovim) attaches
# `coursecheck lsp` to a copy of the demo page through the set-up the
# README shows (editors/nvim/coursecheck.lua), a wrong number is typed,
# and the diagnostic Neovim received is read back and compared exactly;
# then a new page of plain numbers is annotated in Neovim by the author's
# keystrokes (nvim-scratch.lua: goto_next, code_action, pick 1; three
# times), saved, and must pass verify --as published.
# Without nvim: one skip line naming it, exit 0.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
if ! command -v nvim >/dev/null 2>&1; then
	echo "SKIP: nvim-test: nvim is not installed (Debian package neovim)"
	exit 0
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/lsp-nvim.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
python3 -c "import sys; sys.path.insert(0, '$here'); import lspclient; lspclient.make_course('$work/course')" || {
	echo "FAIL: nvim-test: cannot make the course"; exit 1; }
mkdir -p "$work/xdg/config" "$work/xdg/data" "$work/xdg/state" "$work/xdg/cache"
cd "$work/course" &&
	XDG_CONFIG_HOME=$work/xdg/config XDG_DATA_HOME=$work/xdg/data XDG_STATE_HOME=$work/xdg/state \
	XDG_CACHE_HOME=$work/xdg/cache HOME=$work COURSECHECK=$bin COURSECHECK_NVIM=$top/editors/nvim \
	LSP_OUT=$work/diagnostics.txt timeout 90 nvim --headless -n -i NONE -u "$here/nvim-init.lua" \
	pages/day01-demo.md -c "luafile $here/nvim-check.lua" </dev/null >"$work/nvim.log" 2>&1
want='47:24-47:30 1 number-untraced 1.9 ms is not in the evidence'
got=$(cat "$work/diagnostics.txt" 2>/dev/null)
if [ "$got" != "$want" ]; then
	echo "FAIL: nvim-test: Neovim's diagnostics"
	echo "  got:  $got"
	echo "  want: $want"
	sed 's/^/  nvim: /' "$work/nvim.log" | head -20
	exit 1
fi
echo "nvim-test: Neovim received the diagnostic at 47:24-47:30"

# a new page of plain numbers annotated by the keystrokes alone (code
# actions: nvim-scratch.lua), saved, then verify --as published
python3 -c "import sys; sys.path.insert(0, '$here'); import importlib.util as u
s = u.spec_from_file_location('s', '$here/scratch-test.py'); m = u.module_from_spec(s); s.loader.exec_module(m)
open('$work/course/pages/day02-racing.md', 'w').write(m.PAGE)"
rm -f "$work/diagnostics.txt"
cd "$work/course" &&
	XDG_CONFIG_HOME=$work/xdg/config XDG_DATA_HOME=$work/xdg/data XDG_STATE_HOME=$work/xdg/state \
	XDG_CACHE_HOME=$work/xdg/cache HOME=$work COURSECHECK=$bin COURSECHECK_NVIM=$top/editors/nvim \
	COURSECHECK_ARGS=--as=published LSP_OUT=$work/diagnostics.txt timeout 120 nvim --headless -n -i NONE \
	-u "$here/nvim-init.lua" pages/day02-racing.md -c "luafile $here/nvim-scratch.lua" </dev/null >"$work/nvim.log" 2>&1
got=$(cat "$work/diagnostics.txt" 2>/dev/null)
if [ "$got" != done ]; then
	echo "FAIL: nvim-test: the keystrokes did not annotate the page: $got"
	sed 's/^/  nvim: /' "$work/nvim.log" | head -20
	exit 1
fi
# the page is the author's; its sign-off a reviewer's (a key listed for
# coursecheck-review), after which the published gate passes
ssh-keygen -q -t ed25519 -N '' -C reviewer -f "$work/reviewer" </dev/null &&
	printf 'reviewer namespaces="coursecheck-review" %s\n' "$(cut -d' ' -f1,2 "$work/reviewer.pub")" >>evidence/allowed_signers &&
	"$bin" approve pages/day02-racing.md --all --key="$work/reviewer" --principal=reviewer >"$work/approve.txt" 2>&1 || {
	echo "FAIL: nvim-test: a reviewer could not approve the page the keystrokes annotated"
	sed 's/^/  /' "$work/approve.txt"
	exit 1
}
if ! "$bin" verify -q --as published pages/day02-racing.md >"$work/verify.txt" 2>&1; then
	echo "FAIL: nvim-test: the page the keystrokes annotated fails verify --as published"
	sed 's/^/  /' "$work/verify.txt"
	exit 1
fi
echo "nvim-test: the page annotated in Neovim by code actions alone, then approved by a reviewer, passes verify --as published"
