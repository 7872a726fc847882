#!/bin/sh
# run.sh - capture through Slurm, on a one-node cluster this test starts.
#
#   sh verifier/tests/slurm/run.sh PATH/TO/coursecheck-capture
#
# Starts munged, slurmctld and slurmd (Debian's munge and slurm-wlm) as
# root, every file of theirs under one mktemp folder, on ports of their own;
# makes a scratch repository of stand-in lessons (the capture tests' plain C
# programs and stand-in nvcc and nvidia-smi, first on PATH); captures them
# as one array job and checks each outcome; stops the daemons by their PIDs
# at the end.  When the cluster cannot start (not root, Slurm or munge not
# installed, a daemon that does not come up), it says so by name and skips
# the Slurm cases, never silently.  Prints `ok NAME` or `FAIL NAME: why`,
# then `slurm: N passed, M failed` (with `, 1 skipped` when skipped).
set -u

if [ $# -ne 1 ] || [ ! -x "$1" ]; then
	echo "usage: sh run.sh PATH/TO/coursecheck-capture" >&2
	exit 2
fi
case $1 in
/*) CAP=$1 ;;
*) CAP=$(pwd)/$1 ;;
esac
HERE=$(cd "$(dirname "$0")" && pwd)
CAPTESTS=$(cd "$HERE/../capture" && pwd)

skip() {
	echo "skipped slurm-cluster: $1"
	# named again on make test's last line
	[ -z "${SKIPPED_FILE:-}" ] || echo "Slurm capture not tested: $1" >>"$SKIPPED_FILE"
	echo "slurm: 0 passed, 0 failed, 1 skipped"
	exit 0
}
[ "$(id -u)" = 0 ] || skip "not root (the test cluster's daemons run as root)"
for tool in munged slurmctld slurmd sbatch squeue scontrol scancel; do
	command -v "$tool" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin
	command -v "$tool" >/dev/null 2>&1 || skip "$tool not found (apt-get install munge slurmctld slurmd slurm-client)"
done

T=$(mktemp -d "${TMPDIR:-/tmp}/slurm-tests.XXXXXX") || exit 2
D=$T/cluster
# stop_pids PIDFILE...: SIGTERM to each, then SIGKILL to those still there
# 3 s later; looked at every 0.05 s, so that it returns once they are gone
stop_pids() {
	ps=
	for f in "$@"; do
		[ -s "$f" ] || continue
		p=$(cat "$f")
		kill "$p" 2>/dev/null && ps="$ps $p"
	done
	for _ in $(seq 1 60); do
		alive=
		for p in $ps; do kill -0 "$p" 2>/dev/null && alive="$alive $p"; done
		ps=$alive
		[ -n "$ps" ] || return 0
		sleep 0.05
	done
	for p in $ps; do kill -9 "$p" 2>/dev/null; done
}
# the two Slurm daemons at once, then munged, which they talk through
stop_cluster() {
	stop_pids "$D/slurmd.pid" "$D/slurmctld.pid"
	stop_pids "$D/munged.pid"
}
cleanup() {
	stop_cluster
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- the cluster ----

mkdir -p "$D/state" "$D/spool" "$D/logs" "$D/dev"
touch "$D/dev/nvidia0" "$D/dev/nvidia1"
# 1 KiB of key, as mungekey makes; munged refuses a key others can read
dd if=/dev/urandom of="$D/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$D/munge.key"
NODE=$(hostname -s 2>/dev/null || uname -n)
# ports of this run's own, so that a test beside it (or a real cluster) is not hit
BASE=$((20000 + $$ % 20000))
cat >"$D/slurm.conf" <<EOF
ClusterName=cctest
SlurmctldHost=$NODE
SlurmctldPort=$BASE
SlurmdPort=$((BASE + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$D/munge.sock
CredType=cred/munge
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
SlurmctldLogFile=$D/logs/slurmctld.log
SlurmdLogFile=$D/logs/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
GresTypes=gpu
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
KillWait=5
NodeName=$NODE CPUs=2 Gres=gpu:2 State=UNKNOWN
PartitionName=gpu Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF
printf 'Name=gpu File=%s/dev/nvidia[0-1]\n' "$D" >"$D/gres.conf"
SLURM_CONF=$D/slurm.conf
export SLURM_CONF

# a daemon that will not start says why in its log file, not on its stdout;
# its first error is the cause ("No filesystem mounted on /sys/fs/cgroup"
# in a chroot that has /sys without its submounts), the last a summary
why_not() { # OUT LOG
	w=$(grep -h -i -E 'error|fatal' "$2" 2>/dev/null | head -n 1)
	[ -n "$w" ] || w=$(tail -n 1 "$1" 2>/dev/null)
	echo "${w:-no message}"
}
munged --key-file="$D/munge.key" --socket="$D/munge.sock" --pid-file="$D/munged.pid" \
	--log-file="$D/logs/munged.log" --seed-file="$D/munge.seed" -f >"$D/logs/munged.out" 2>&1 ||
	skip "munged did not start: $(why_not "$D/logs/munged.out" "$D/logs/munged.log")"
slurmctld -f "$D/slurm.conf" -i >"$D/logs/slurmctld.out" 2>&1 ||
	skip "slurmctld did not start: $(why_not "$D/logs/slurmctld.out" "$D/logs/slurmctld.log")"
slurmd -f "$D/slurm.conf" >"$D/logs/slurmd.out" 2>&1 ||
	skip "slurmd did not start: $(why_not "$D/logs/slurmd.out" "$D/logs/slurmd.log")"
up=
for _ in $(seq 1 300); do
	if sinfo -h -o %t 2>/dev/null | grep -q idle; then
		up=1
		break
	fi
	sleep 0.1
done
[ -n "$up" ] || skip "the node did not come up: $(tail -n 1 "$D/logs/slurmctld.log" 2>/dev/null)"

# ---- the case protocol (as in the capture tests) ----

pass=0
failed=0
begin() {
	NAME=$1
	WHY=
}
because() {
	[ -n "$WHY" ] || WHY=$1
}
check() {
	d=$1
	shift
	"$@" >/dev/null 2>&1 || because "$d"
}
not() {
	! "$@"
}
# Whether a process whose command line names a hang program runs (read from
# /proc: pgrep is not on a fresh Debian).
running_hang() {
	for c in /proc/[0-9]*/cmdline; do
		tr '\0' ' ' <"$c" 2>/dev/null | grep -q "/hang" && return 0
	done
	return 1
}
not_there() {
	[ ! -d "$1" ] || [ -z "$(ls -A "$1")" ]
}
end() {
	if [ -z "$WHY" ]; then
		echo "ok $NAME"
		pass=$((pass + 1))
	else
		echo "FAIL $NAME: $WHY"
		sed 's/^/    /' "$T/err" | head -20
		failed=$((failed + 1))
	fi
}

# The tasks run on the node with this environment: stand-ins first.
PATH=$CAPTESTS/bin:$PATH
STANDIN_APPS_DIR=$T/apps
COURSECHECK_NOW=2026-11-30T10:05:12Z
DAY=2026-11-30
export PATH STANDIN_APPS_DIR COURSECHECK_NOW
unset CUDA_VISIBLE_DEVICES STANDIN_GPUS
mkdir -p "$STANDIN_APPS_DIR"

# mkrepo NAME LESSON:PROG...: as in the capture tests.
mkrepo() {
	R=$T/$1
	shift
	mkdir -p "$R/programs" "$R/build"
	for spec in "$@"; do
		mkdir -p "$R/programs/${spec%%:*}"
		cp "$CAPTESTS/progs/${spec#*:}.c" "$R/programs/${spec%%:*}/${spec#*:}.cu"
	done
	# the tasks run the repository's own capture binary, as on a cluster
	cp "$CAP" "$R/build/coursecheck-capture"
	printf 'build/\n' >"$R/.gitignore"
	(cd "$R" && git init -q && git add -A &&
		git -c user.name=test -c user.email=test@example.com commit -qm init) >/dev/null 2>&1
}
cap() {
	(cd "$R" && "$R/build/coursecheck-capture" "$@") >"$T/out" 2>"$T/err"
	RC=$?
}
field() {
	sed -n "/^stdout: [0-9]*\$/q; s/^$2: //p" "$1"
}
err_has() {
	grep -q -- "$1" "$T/err"
}
count_evidence() {
	ls "$R/evidence/$1" 2>/dev/null | grep -c '^run-.*\.txt$'
}

EVCHECK=$T/evcheck
SRC=$(cd "$HERE/../../src" && pwd)
cc -std=c11 -D_GNU_SOURCE -I"$SRC/base" -I"$SRC/evidence" "$CAPTESTS/evcheck.c" "$SRC/evidence/evidence.c" "$SRC/base/textfile.c" \
	"$SRC/base/sha256.c" "$SRC/base/diag.c" "$SRC/base/util.c" "$SRC/base/strmap.c" "$SRC/base/repo.c" -lcrypto -o "$EVCHECK" 2>/dev/null ||
	{ printf '#!/bin/sh\nexit 1\n' >"$EVCHECK"; chmod +x "$EVCHECK"; }

# ---- the cases ----

# Three lessons in one array job: each captured on the node, its header
# naming its task and node, its evidence valid.
begin array-three-lessons
mkrepo three a:hello b:hello c:vol
cap --slurm
check "exit status $RC, not 0" [ "$RC" -eq 0 ]
check "the summary does not count 3 captured" err_has "3 lessons, 3 captured, 0 failed"
job=$(sed -n 's/^capture: Slurm job \([0-9]*\):.*/\1/p' "$T/err" | tail -n 1)
check "no job id in the summary" [ -n "$job" ]
i=0
for l in a b c; do
	E=$R/evidence/$l/run-$DAY.txt
	check "no evidence for lesson $l" [ -f "$E" ]
	if [ -f "$E" ]; then
		check "evidence of $l does not parse" "$EVCHECK" "$E"
		check "slurm-job of $l is '$(field "$E" slurm-job)', not ${job}_$i" [ "$(field "$E" slurm-job)" = "${job}_$i" ]
		check "slurm-node of $l is '$(field "$E" slurm-node)', not $NODE" [ "$(field "$E" slurm-node)" = "$NODE" ]
		check "the summary does not name $l's evidence" err_has "capture: $l: captured on node $NODE -> evidence/$l/run-$DAY.txt"
	fi
	i=$((i + 1))
done
check "the job's logs are not kept" [ -f "$R/build/slurm/$job/0.log" ]
check "a scratch folder was left on the shared file system" not_there "$R/build/capture"
end

# A failing program and a capture time limit: no evidence, a clear line each.
begin failing-and-timeout
mkrepo bad good:hello bad:fail slow:hang
cap --slurm --timeout 2
check "exit status $RC, not 1" [ "$RC" -eq 1 ]
check "the good lesson was not captured" [ "$(count_evidence good)" -eq 1 ]
check "evidence written for the failing lesson" [ "$(count_evidence bad)" -eq 0 ]
check "evidence written for the timed-out lesson" [ "$(count_evidence slow)" -eq 0 ]
check "the failing lesson's line does not say why" err_has "programs/bad: error: failed (capture exit 1): run failed: exit 3 after"
check "the timed-out lesson's line does not say timeout" err_has "programs/slow: error: failed (capture exit 1): run failed: timeout after 2 s"
check "the lines do not name the logs" err_has "no evidence written; log: build/slurm/[0-9]*/0.log"
check "the count is wrong" err_has "3 lessons, 1 captured, 2 failed"
end

# scancel of a running task: no evidence, "cancelled" in the summary.
begin scancel-running-task
mkrepo cancel keep:hello stop:hang
(cd "$R" && "$R/build/coursecheck-capture" --slurm --no-wait --timeout 120) >"$T/out" 2>"$T/err"
RC=$?
job=$(head -n 1 "$T/out")
check "--no-wait exit status $RC, not 0" [ "$RC" -eq 0 ]
check "--no-wait printed no job id" [ -n "$job" ]
check "--no-wait does not say how to collect" err_has "coursecheck capture --collect $job"
# wait for the hanging task to start, then cancel it alone
for _ in $(seq 1 600); do
	[ -f "$R/build/slurm/$job/1.node" ] && break
	sleep 0.05
done
check "the hanging task never started" [ -f "$R/build/slurm/$job/1.node" ]
sleep 1
scancel "${job}_1" >/dev/null 2>&1
cap --collect "$job"
check "--collect exit status $RC, not 1" [ "$RC" -eq 1 ]
check "the other lesson was not captured" [ "$(count_evidence keep)" -eq 1 ]
check "evidence written for the cancelled lesson" [ "$(count_evidence stop)" -eq 0 ]
check "the summary does not say cancelled" err_has "programs/stop: error: cancelled (scancel, preemption or shutdown) on node $NODE; no evidence written"
check "the count is wrong" err_has "2 lessons, 1 captured, 1 failed"
check "a lesson process outlived the cancel" not running_hang
end

# Options: pass-through reaches sbatch; misuse is a usage error.
begin options
mkrepo opts a:hello
cap --slurm --partition=nosuchpartition
check "exit status $RC, not 2" [ "$RC" -eq 2 ]
check "Slurm's refusal is not shown" err_has "capture: error: Slurm refused the job: sbatch failed: .*[Pp]artition.*\\[capture-slurm\\]"
check "a refused job left a folder" not_there "$R/build/slurm"
cap --no-wait
check "--no-wait without --slurm: exit $RC, not 2" [ "$RC" -eq 2 ]
check "--no-wait without --slurm: no message" err_has "go with --slurm"
cap --collect 12x
check "--collect 12x: exit $RC, not 2" [ "$RC" -eq 2 ]
check "--collect 12x is not a capture-slurm error" err_has "^capture: error: --collect 12x: not a Slurm job id \\[capture-slurm\\]\$"
cap --slurm --array-limit 1 --sbatch=--time=5 a
check "--array-limit 1 with --sbatch: exit $RC, not 0" [ "$RC" -eq 0 ]
end

echo "slurm: $pass passed, $failed failed"
[ "$failed" = 0 ]
