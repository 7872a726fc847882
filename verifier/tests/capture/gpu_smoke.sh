#!/bin/sh
# gpu_smoke.sh - capture on a real GPU node, with the real nvcc and
# nvidia-smi (not part of `make test`, which needs no GPU):
#
#   sh verifier/tests/capture/gpu_smoke.sh PATH/TO/coursecheck-capture
#
# Captures a small CUDA program in a scratch repository twice: alone
# (--repeat 2: gpu-exclusive must be yes, the timing line volatile), then
# while another CUDA process holds the GPU (gpu-exclusive must be no).
# Prints the evidence, `ok NAME` / `FAIL NAME: why` lines and a count.
set -u
if [ $# -ne 1 ] || [ ! -x "$1" ]; then
	echo "usage: sh gpu_smoke.sh PATH/TO/coursecheck-capture" >&2
	exit 2
fi
case $1 in
/*) CAP=$1 ;;
*) CAP=$(pwd)/$1 ;;
esac
T=$(mktemp -d "${TMPDIR:-/tmp}/capture-gpu.XXXXXX") || exit 2
HOG=
trap '[ -n "$HOG" ] && kill "$HOG" 2>/dev/null; rm -rf "$T"' EXIT
R=$T/repo
mkdir -p "$R/programs/smoke" "$T/hog"
pass=0
failed=0
result() {
	if [ -z "$2" ]; then
		echo "ok $1"
		pass=$((pass + 1))
	else
		echo "FAIL $1: $2"
		failed=$((failed + 1))
	fi
}
field() {
	sed -n "/^stdout: [0-9]*\$/q; s/^$2: //p" "$1"
}

cat >"$R/programs/smoke/smoke.cu" <<'EOF'
// smoke: adds lane numbers on the GPU and times the kernel.
// Build: nvcc -std=c++17 -O3 -arch=sm_90 -o smoke smoke.cu
// Run: ./smoke
#include <cstdio>
#include <unistd.h>

__global__ void add(int *x) { x[threadIdx.x] += threadIdx.x; }

int main()
{
	int *d, h[32], sum = 0;
	float ms = 0;
	cudaEvent_t a, b;
	cudaMalloc(&d, sizeof h);
	cudaMemset(d, 0, sizeof h);
	cudaEventCreate(&a);
	cudaEventCreate(&b);
	cudaEventRecord(a);
	add<<<1, 32>>>(d);
	cudaEventRecord(b);
	cudaEventSynchronize(b);
	cudaEventElapsedTime(&ms, a, b);
	cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
	for (int i = 0; i < 32; i++)
		sum += h[i];
	printf("sum of lanes: %d\n", sum);
	printf("kernel: %.6f ms\n", ms);
	usleep(1500000); /* hold the GPU long enough to be sampled */
	return 0;
}
EOF
cat >"$T/hog/hog.cu" <<'EOF'
#include <unistd.h>
int main() { cudaFree(0); sleep(30); return 0; }
EOF

(cd "$R" && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm init) >/dev/null 2>&1

(cd "$R" && "$CAP" --repeat 2 smoke)
rc=$?
E=$R/evidence/smoke/run-$(date -u +%Y-%m-%d).txt
cat "$E"
why=
[ "$rc" -eq 0 ] || why="exit status $rc"
[ -z "$why" ] && [ "$(field "$E" gpu-exclusive)" != yes ] && why="gpu-exclusive is not yes"
[ -z "$why" ] && ! grep -qx "sum of lanes: 496" "$E" && why="the transcript is wrong"
[ -z "$why" ] && [ "$(field "$E" volatile)" != "2:9" ] && why="volatile is '$(field "$E" volatile)', not '2:9' (it may be, rarely, if the timing repeats exactly)"
[ -z "$why" ] && [ "$(field "$E" cuda)" = "" ] && why="no cuda line"
result alone "$why"

(cd "$T/hog" && nvcc -o hog hog.cu) || result shared "cannot build the hog"
"$T/hog/hog" &
HOG=$!
sleep 3
(cd "$R" && "$CAP" smoke) 2>"$T/err"
rc=$?
cat "$T/err"
kill "$HOG" 2>/dev/null
HOG=
E2=$(ls "$R"/evidence/smoke/run-*-2.txt 2>/dev/null)
why=
[ "$rc" -eq 0 ] || why="exit status $rc"
[ -z "$why" ] && [ "$(field "$E2" gpu-exclusive)" != no ] && why="gpu-exclusive is not no beside another CUDA process"
[ -z "$why" ] && ! grep -q "warning: process [0-9]*, not ours" "$T/err" && why="no warning"
result shared "$why"

echo "$pass passed, $failed failed"
[ "$failed" -eq 0 ]
