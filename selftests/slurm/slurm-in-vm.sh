#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The SPANK plugin with a real Slurm, in the VM (check-slurm.sh boots it:
# 8 CPUs, 2 NUMA nodes, the root writable). A one-node cluster: munged,
# slurmctld and slurmd of Debian's Slurm 22.05 (hcube-slurm-health as its
# HealthCheckProgram, every 3 s), task/affinity and
# task/cgroup with ConstrainCores=yes (cgroup v2), proctrack/cgroup; the
# module in mode cpu; hcube.so from the build tree in plugstack.conf; jobs
# run as an ordinary user. Prints TAP.
#
# Usage: slurm-in-vm.sh BUILD_DIR   (run from the repository's root)
#   HCUBE_KO         the module (default ./hcube.ko)
#   HCUBE_SLURM_REPS sruns per figure of the start-up times (default 3)
#   HCUBE_SLURM_DEB  the hcube-slurm package (make deb): the plugin comes
#                    from it, installed with dpkg -i, loaded by its line in
#                    /etc/slurm/plugstack.conf.d; purged at the end
set -u
B=$(cd "${1:?usage: slurm-in-vm.sh BUILD_DIR}" && pwd -P)
KO=${HCUBE_KO:-./hcube.ko}
REPS=${HCUBE_SLURM_REPS:-3}
DEB=${HCUBE_SLURM_DEB:-}
HCUBECTL=$B/hcubectl
SO=$B/hcube-spank/hcube.so
JOB=$B/slurm-test/spank_job
# the HealthCheckProgram: the tree's, or the package's; every 3 s
HEALTH=$PWD/tools/hcube-spank/hcube-slurm-health
[ -n "$DEB" ] && HEALTH=/usr/lib/hcube/hcube-slurm-health
HEALTH_INTERVAL=3
U=hcubeuser			# the jobs' user
LOG=/var/log/slurm/slurmd.log
W=/tmp/slurm-test		# the jobs' files
# shellcheck source=selftests/lib/tap.sh
. selftests/lib/tap.sh
TAP_LINES=20

# check NAME CMD...: ok when CMD succeeds; what it printed shown when not
check() {
	local name=$1
	shift
	if "$@" >"$W/check.out" 2>&1; then
		grep '^# ' "$W/check.out"
		ok "$name"
	else
		TAP_SHOW="check:$W/check.out" not_ok "$name"
	fi
}
# step_check CHECK [ARG...]: what step_check.py says of the step's processes
step_check() { python3 selftests/slurm/step_check.py "$HCUBECTL" "$@"; }
# not_ok_err NAME FILE: not ok, with FILE (a job's stderr) shown
not_ok_err() { TAP_SHOW="stderr:$2" not_ok "$1"; }
T0=$(date +%s)
section() { echo "# --- $* (at $(($(date +%s) - T0)) s)"; }
die() { tail -30 "$LOG" 2>/dev/null | sed 's/^/# slurmd.log: /'; tap_bail "$*"; }
as_user() { (cd /tmp && runuser -u "$U" -- "$@"); }

# ---- the cluster ----------------------------------------------------------

# The network Slurm needs: its getaddrinfo() asks for AI_ADDRCONFIG, which
# a machine with a loopback interface only does not pass.
network_up() {
	hostname node1
	ip link set lo up
	if ! { modprobe dummy && ip link add hc0 type dummy &&
	       ip addr add 10.77.0.1/24 dev hc0 && ip link set hc0 up; }; then
		die "no network for Slurm"
	fi
	printf '127.0.0.1 localhost\n10.77.0.1 node1\n' >/etc/hosts
}

munge_up() {
	install -d -o munge -g munge -m 0755 /run/munge
	install -d -o munge -g munge -m 0700 /var/lib/munge /var/log/munge
	if [ ! -s /etc/munge/munge.key ]; then
		mungekey --create --keyfile=/etc/munge/munge.key || die "mungekey"
		chown munge:munge /etc/munge/munge.key
	fi
	runuser -u munge -- /usr/sbin/munged || die "munged did not start"
}

# plugstack.conf: the plugin from the build tree, with ARGS; with the
# package, Debian's plugstack.conf and the package's line, given ARGS.
plugstack() {
	if [ -n "$DEB" ]; then
		sed -i "s|^optional \([^ ]*hcube.so\).*|optional \1 $*|" \
			/etc/slurm/plugstack.conf.d/hcube.conf
	else
		echo "optional $SO $*" >/etc/slurm/plugstack.conf
	fi
}

slurm_up() {
	mkdir -p /etc/slurm /var/spool/slurmd /var/spool/slurmctld /var/log/slurm
	cat >/etc/slurm/slurm.conf <<-EOF
	ClusterName=hcube
	SlurmctldHost=node1
	SlurmUser=root
	AuthType=auth/munge
	StateSaveLocation=/var/spool/slurmctld
	SlurmdSpoolDir=/var/spool/slurmd
	SlurmctldPidFile=/run/slurmctld.pid
	SlurmdPidFile=/run/slurmd.pid
	SlurmctldLogFile=/var/log/slurm/slurmctld.log
	SlurmdLogFile=$LOG
	SlurmdDebug=verbose
	ProctrackType=proctrack/cgroup
	TaskPlugin=task/affinity,task/cgroup
	SelectType=select/cons_tres
	SelectTypeParameters=CR_Core
	ReturnToService=2
	MpiDefault=none
	JobAcctGatherType=jobacct_gather/none
	AccountingStorageType=accounting_storage/none
	SchedulerType=sched/builtin
	PlugStackConfig=/etc/slurm/plugstack.conf
	NodeName=node1 NodeAddr=10.77.0.1 CPUs=8 Boards=1 SocketsPerBoard=2 CoresPerSocket=4 ThreadsPerCore=1 RealMemory=500 State=UNKNOWN
	PartitionName=debug Nodes=node1 Default=YES MaxTime=INFINITE State=UP
	HealthCheckProgram=$HEALTH
	HealthCheckInterval=$HEALTH_INTERVAL
	HealthCheckNodeState=ANY
	EOF
	# hcube-slurm-health's thresholds: none to reach until the "health" section
	mkdir -p /etc/hcube
	printf 'min_healthy_cpus 0\nmin_healthy_vertices 0\n' >/etc/hcube/hcube.conf
	printf 'CgroupPlugin=cgroup/v2\nIgnoreSystemd=yes\nConstrainCores=yes\n' \
		>/etc/slurm/cgroup.conf
	if [ -n "$DEB" ]; then
		grep -qx 'include /etc/slurm/plugstack.conf.d/\*.conf' /etc/slurm/plugstack.conf ||
			die "/etc/slurm/plugstack.conf does not include plugstack.conf.d"
		# hcube-slurm depends on hcube-tools (hcubectl, for hcube-slurm-health)
		dpkg -i "$(dirname "$DEB")"/hcube-tools_*.deb "$DEB" >"$W/dpkg.out" 2>&1 ||
			{ cat "$W/dpkg.out"; die "dpkg -i $DEB"; }
		echo "# $DEB installed: $(grep -v '^#' /etc/slurm/plugstack.conf.d/hcube.conf)"
	fi
	plugstack user_policy=yes
	# what systemd would have done: the controllers Slurm's cgroups need,
	# down to system.slice, where it makes its own (IgnoreSystemd)
	mkdir -p /sys/fs/cgroup/system.slice
	for d in /sys/fs/cgroup /sys/fs/cgroup/system.slice; do
		echo "+cpuset +cpu +memory +pids" >"$d/cgroup.subtree_control" ||
			die "cgroup controllers in $d"
	done
	useradd -m -u 2001 "$U" || die "useradd"
	slurmctld || die "slurmctld did not start"
	slurmd || die "slurmd did not start"
	for _ in $(seq 120); do
		[ "$(sinfo -h -n node1 -o %T 2>/dev/null)" = idle ] && return 0
		sleep 0.5
	done
	die "node1 never became idle"
}

# ---- steps ---------------------------------------------------------------

# start NAME SRUN_ARGS...: srun ... spank_job in the background, as the
# user, in a fresh $W/NAME; its stdout and stderr in $W/NAME.out, .err
start() {
	local name=$1
	shift
	rm -rf "${W:?}/$name"
	mkdir -p "$W/$name" && chmod 777 "$W/$name"
	as_user srun -J "$name" "$@" "$JOB" "$W/$name" 300 >"$W/$name.out" 2>"$W/$name.err" &
	SRUN=$!
}

# ready NAME N: the N tasks of NAME and their children run
ready() {
	for _ in $(seq 600); do
		[ "$(find "$W/$1" -name 'ready.*' | wc -l)" -ge "$2" ] && return 0
		kill -0 "$SRUN" 2>/dev/null || break
		sleep 0.2
	done
	echo "# $1: not ready; its stderr:"; sed 's/^/#   /' "$W/$1.err"
	return 1
}

# finish NAME N: stop NAME's tasks; ok if srun exits 0 with N ranks ok
finish() {
	touch "$W/$1/stop"
	wait "$SRUN"
	local rc=$?
	if [ $rc = 0 ] && [ "$(grep -c 'threads ok' "$W/$1.out")" = "$2" ]; then
		ok "$1: the job ends well: $2 ranks ok, srun exit 0"
	else
		echo "# srun exit $rc"
		not_ok_err "$1: the job ends well" "$W/$1.err"
	fi
}

# wait_empty: the module sees the exits in its worker: give it a moment
wait_empty() {
	for _ in $(seq 50); do
		step_check empty >/dev/null 2>&1 && ! pgrep -x spank_job >/dev/null && return 0
		sleep 0.2
	done
	step_check empty
}

# hcube_lines FILE: the plugin's lines in a job's stderr
hcube_lines() { grep -c 'hcube' "$1"; }

# ---- the tests -------------------------------------------------------------

echo "TAP version 13"
mkdir -p "$W" && chmod 777 "$W"
network_up
munge_up
# the tree's hcubectl where hcube-slurm-health finds it (the root is an overlay)
[ -n "$DEB" ] || ln -sf "$HCUBECTL" /usr/sbin/hcubectl
slurm_up
insmod "$KO" mode=cpu || die "insmod $KO"

if srun --help 2>&1 | grep -q -- '--hcube=POLICY'; then
	ok "srun --help lists --hcube"
else
	not_ok "srun --help lists --hcube"
fi

as_user srun -n 1 --hcube=dme true >"$W/bad.out" 2>&1
rc=$?
if [ $rc != 0 ] && grep -q 'hcube: --hcube=dme: one of off, mcwa, dem' "$W/bad.out"; then
	ok "srun refuses --hcube=dme and names the policies"
else
	not_ok_err "srun refuses --hcube=dme (exit $rc)" "$W/bad.out"
fi

section "dem"
# 1. Four tasks, each with a child and threads: registered where Slurm
# bound them, moved off a faulty CPU within the step's cpuset, and gone
# with the step.
start dem -n 4 --hcube=dem --cpu-bind=verbose
if ready dem 4; then
	check "dem: the 4 tasks, their children and threads are registered (24)" \
		step_check registered 24
	check "dem: each task on the vertex of the CPU Slurm bound it to" \
		step_check on-binding "$W/dem.err"
	check "dem: every thread within its step's cpuset" step_check in-cpuset
	check "dem: the node balances with dem while the step runs" step_check policy dem
	job=$(squeue -h -n dem -o %i)
	check "dem: slurmd's log: sent as uid 2001 gid 2001 with CAP_NET_ADMIN alone" \
		grep -q "hcube: step $job.0: requests sent as uid 2001 gid 2001, capabilities 0x1000$" "$LOG"
	cpu=$(step_check first-cpu "$W/dem.err")
	echo "# hcubectl fault add cpu $cpu (task 0's CPU)"
	$HCUBECTL fault add cpu "$cpu" >/dev/null
	check "dem: after the fault, no thread may run on CPU $cpu" step_check avoid "$cpu"
	check "dem: after the fault, all 24 still registered" step_check registered 24
	check "dem: after the fault, every thread within its step's cpuset" step_check in-cpuset
	finish dem 4
	check "dem: nothing registered once the step ended" wait_empty
	check "dem: the node balances with mcwa again" step_check policy mcwa
	check "dem: the job's stderr has no hcube line" test "$(hcube_lines "$W/dem.err")" = 0
	$HCUBECTL fault del cpu "$cpu" >/dev/null
else
	not_ok "dem: the step did not start"
	kill "$SRUN" 2>/dev/null
fi

section "plain"
# 2. Without --hcube: untouched.
start plain -n 2 --cpu-bind=verbose
if ready plain 2; then
	check "plain: no thread registered" step_check unregistered
	check "plain: every thread keeps Slurm's binding" step_check is-binding "$W/plain.err"
	finish plain 2
else
	not_ok "plain: the step did not start"
fi

section "unbound"
# 3. Slurm bound nothing: the module spreads the tasks, in the cpuset.
start unbound -n 4 --cpu-bind=none --hcube --slurmd-debug=info
if ready unbound 4; then
	check "unbound: registered (24)" step_check registered 24
	check "unbound: srun --slurmd-debug=info shows the plugin's line" grep -q \
		"hcube: step [0-9]*.0: 4 tasks registered in [0-9.]* ms: 4 placed by the module$" \
		"$W/unbound.err"
	check "unbound: the module put the 4 tasks on 4 vertices" step_check spread 4
	check "unbound: every thread within its step's cpuset" step_check in-cpuset
	finish unbound 4
	check "unbound: nothing registered once the step ended" wait_empty
else
	not_ok "unbound: the step did not start"
fi

section "scancel"
# 4. #SBATCH --hcube, then scancel in the middle of the step.
cat >"$W/batch.sh" <<EOF
#!/bin/bash
#SBATCH -n 4
#SBATCH --hcube
srun $JOB $W/batch 300
EOF
chmod 755 "$W/batch.sh"
rm -rf "$W/batch" && mkdir -p "$W/batch" && chmod 777 "$W/batch"
job=$(as_user sbatch --parsable -J batch -o "$W/batch.out" "$W/batch.sh")
SRUN=$$		# ready's "is srun still there": no srun here, sbatch returned
if ready batch 4; then
	check "scancel: the batch job's step registered (#SBATCH --hcube)" step_check registered 24
	scancel "$job"
	for _ in $(seq 100); do
		[ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && ! pgrep -x spank_job >/dev/null && break
		sleep 0.2
	done
	check "scancel: nothing registered once the job was cancelled" wait_empty
else
	not_ok_err "scancel: the batch job's step did not start" "$W/batch.out"
	scancel "$job"
fi

section "default"
# 5. The plugin on by default, a policy the administrator does not let
# users choose.
plugstack default
start default -n 2
if ready default 2; then
	check "default: registered without --hcube" step_check registered 12
	finish default 2
else
	not_ok "default: the step did not start"
fi
start off -n 2 --hcube=off
if ready off 2; then
	check "default: --hcube=off is not registered" step_check unregistered
	finish off 2
else
	not_ok "off: the step did not start"
fi
start nopolicy -n 2 --hcube=dem
if ready nopolicy 2; then
	check "default: --hcube=dem registered with the node's policy" step_check registered 12
	check "default: the node still balances with mcwa" step_check policy mcwa
	finish nopolicy 2
	check "default: one line says dem was not applied" \
		test "$(grep -c 'hcube: step [0-9]*.0: --hcube=dem not applied: this node balances with mcwa' "$W/nopolicy.err")" = 1
else
	not_ok "nopolicy: the step did not start"
fi
wait_empty >/dev/null
plugstack user_policy=yes

section "health"
# 5b. hcube-slurm-health, the HealthCheckProgram: at least 6 healthy CPUs.
# Two then three CPUs faulty: nothing; a fourth: the node drained at a
# later health check (waited for up to ten intervals and 30 s: slurmd runs
# the program every HealthCheckInterval, and a loaded TCG VM can take
# seconds to start it; how long it took is printed, not asserted), with
# the reason naming the CPUs, the running job untouched; the marks
# cleared: still drained (it never resumes a node).
# state_reason: the node's state and reason, as sinfo shows them
state_reason() { sinfo -h -n node1 -o '%T|%E'; }
# not_drained SR: SR (state_reason's) is not a drain
not_drained() { case $1 in drain*) return 1 ;; esac; }
# drained_within S: the node draining or drained within S seconds
drained_within() {
	local t0=$SECONDS
	while [ $((SECONDS - t0)) -le "$1" ]; do
		case $(state_reason) in drain*) echo "# drained after $((SECONDS - t0)) s"; return 0 ;; esac
		sleep 0.2
	done
	return 1
}
printf 'min_healthy_cpus 6\nmin_healthy_vertices 0\n' >/etc/hcube/hcube.conf
start health -n 2
if ready health 2; then
	for c in 6 7; do $HCUBECTL fault add cpu $c >/dev/null; done
	sleep $((2 * HEALTH_INTERVAL + 1))
	sr=$(state_reason)
	check "health: 6 of 8 CPUs healthy, the threshold: not drained after two intervals ($sr)" \
		not_drained "$sr"
	$HCUBECTL fault add cpu 5 >/dev/null
	want="hcube: degraded: 5 of 8 cpus healthy (minimum 6), 5 of 8 vertices healthy (minimum 0); unusable cpus 5-7 (admin)"
	if drained_within $((10 * HEALTH_INTERVAL + 30)); then
		ok "health: 5 healthy CPUs: drained at a health check (every $HEALTH_INTERVAL s)"
	else
		not_ok "health: 5 healthy CPUs: not drained ($(state_reason))"
	fi
	check "health: sinfo's reason names the faulty CPUs" test "$(sinfo -h -n node1 -o %E)" = "$want"
	check "health: the running job goes on" test "$(squeue -h -n health -o %T)" = RUNNING
	finish health 2
	for c in 5 6 7; do $HCUBECTL fault del cpu $c >/dev/null; done
	sleep $((2 * HEALTH_INTERVAL + 1))
	sr=$(state_reason)
	check "health: the CPUs repaired: still drained, it never resumes ($sr)" test "${sr%%|*}" = drained
	scontrol update nodename=node1 state=resume
	for _ in $(seq 50); do [ "$(sinfo -h -n node1 -o %T)" = idle ] && break; sleep 0.2; done
	check "health: resumed by the administrator, healthy: it stays idle" \
		test "$(sinfo -h -n node1 -o %T)" = idle
else
	not_ok "health: the step did not start"
	for c in 5 6 7; do $HCUBECTL fault del cpu $c >/dev/null 2>&1; done
fi
printf 'min_healthy_cpus 0\nmin_healthy_vertices 0\n' >/etc/hcube/hcube.conf
scontrol update nodename=node1 state=resume 2>/dev/null

section "refused"
# 6. A refusal: every CPU of the step's cpuset faulty (Slurm allocates the
# first core of each socket, 0 and 4: only CPU 7 stays healthy), the
# module refuses with EXDEV: the step runs as without the plugin.
for c in 0 1 2 3 4 5 6; do $HCUBECTL fault add cpu $c >/dev/null; done
start refused -n 2 --hcube --cpu-bind=verbose
if ready refused 2; then
	check "refused: no thread registered" step_check unregistered
	check "refused: every thread keeps Slurm's binding" step_check is-binding "$W/refused.err"
	finish refused 2
	line=$(grep 'hcube' "$W/refused.err")
	echo "# $line"
	check "refused: one line in the job's stderr" \
		test "$(hcube_lines "$W/refused.err")" = 1 -a -n "$(echo "$line" | grep 'runs without hcube: .*Invalid cross-device link')"
	check "refused: the same line in slurmd's log" grep -qF "${line#*error: }" "$LOG"
else
	not_ok "refused: the step did not start"
fi
for c in 0 1 2 3 4 5 6; do $HCUBECTL fault del cpu $c >/dev/null; done

# 6b. Refused after a first request went through (max_tasks=2, tasks on
# four vertices): those are unregistered again. Their main threads get
# Slurm's binding back; what they create later gets the step's cpuset
# (the module gives it their original affinity, which the plugin widened).
section "max_tasks"
{ rmmod hcube && insmod "$KO" mode=cpu max_tasks=2; } || die "insmod max_tasks=2"
start max_tasks -n 4 --hcube --cpu-bind=verbose
if ready max_tasks 4; then
	check "max_tasks: no thread registered" step_check unregistered
	check "max_tasks: every task's first thread has Slurm's binding back" \
		step_check is-binding "$W/max_tasks.err" main
	finish max_tasks 4
	line=$(grep 'hcube' "$W/max_tasks.err")
	echo "# $line"
	check "max_tasks: one line in the job's stderr" \
		test "$(hcube_lines "$W/max_tasks.err")" = 1 -a -n "$(echo "$line" | grep 'runs without hcube: .*No space left on device.* registered before unregistered')"
else
	not_ok "max_tasks: the step did not start"
fi

section "no module"
# 7. The module not loaded.
rmmod hcube || die "rmmod"
mkdir -p "$W/gone" && chmod 777 "$W/gone"
as_user srun -n 2 --hcube "$JOB" "$W/gone" 0 >"$W/gone.out" 2>"$W/gone.err"
rc=$?
line=$(grep 'hcube' "$W/gone.err")
echo "# $line"
if [ $rc = 0 ] && [ "$(grep -c 'threads ok' "$W/gone.out")" = 2 ]; then
	ok "no module: the job runs: 2 ranks ok, srun exit 0"
else
	not_ok_err "no module: the job runs (srun exit $rc)" "$W/gone.err"
fi
check "no module: one line in the job's stderr says why" \
	test "$(hcube_lines "$W/gone.err")" = 1 -a -n "$(echo "$line" | grep 'runs without hcube: the hcube module is not loaded$')"
check "no module: the same line in slurmd's log" grep -qF "${line#*error: }" "$LOG"

section "start-up times"
# 8. What the plugin adds to a step's start: srun of /bin/true with and
# without --hcube, 1 and 64 tasks (-O: 8 CPUs), alternated; the median
# wall time of each, and the plugin's own time (slurmd's log). Printed,
# not asserted.
insmod "$KO" mode=cpu || die "insmod"
# spread FILE: the median of the numbers in FILE, and their range
spread() {
	sort -n "$1" | awk '{ v[NR] = $1 } END { printf "%s (%s-%s)", v[int((NR + 1) / 2)], v[1], v[NR] }'
}
echo "# start-up times: srun [-O] -n N /bin/true, median of $REPS runs (TCG VM: 8 vCPUs on one host thread)"
for tasks in 1 64; do
	: >"$W/t.plain"
	: >"$W/t.hcube"
	for _ in $(seq "$REPS"); do
		for kind in plain hcube; do
			opt=
			[ $kind = hcube ] && opt=--hcube
			t0=$(date +%s%N)
			as_user srun -O -n "$tasks" $opt /bin/true || not_ok "srun -n $tasks $opt /bin/true"
			echo $((($(date +%s%N) - t0) / 1000000)) >>"$W/t.$kind"
		done
	done
	grep -o "hcube: step [0-9.]*: $tasks tasks registered in [0-9.]* ms" "$LOG" |
		awk '{ print $(NF - 1) }' >"$W/t.own"
	echo "# $tasks task(s), median (min-max) ms: without the plugin $(spread "$W/t.plain"), with --hcube $(spread "$W/t.hcube"); the plugin's own registration $(spread "$W/t.own")"
done
ok "start-up times measured"

if [ -n "$DEB" ]; then
	section "purge"
	check "dpkg --purge hcube-slurm" dpkg --purge hcube-slurm
	left=$(dpkg-deb -c "$DEB" | awk '$1 !~ /^d/ { print substr($6, 2) }' |
		while read -r f; do [ -e "$f" ] && echo "$f"; done)
	for f in $left; do echo "# left: $f"; done
	check "purged: no file of the package left" test -z "$left"
	if srun --help 2>&1 | grep -q -- '--hcube'; then
		not_ok "purged: srun --help no longer lists --hcube"
	else
		ok "purged: srun --help no longer lists --hcube"
	fi
fi

echo "# slurm: $((n - fails)) passed, $fails failed, in $(($(date +%s) - T0)) s"
tap_end
