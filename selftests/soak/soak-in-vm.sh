#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make soak`, inside the VM, from the repository root: rounds of
#   1. a mix, all at once for HCUBE_SOAK_MIX seconds: stress-ng fork and
#      clone workloads registered as jobs with --tree, the kernel's
#      cpu-on-off-test (-a: every hotpluggable CPU off and on again), CPU
#      faults marked and cleared, and nl_fuzz in its shared mode;
#      then every live process of each workload must be registered;
#   2. the accounting: registered = unregistered + exited + registered now;
#   3. stress (its own checks; it unloads and reloads the module);
#   4. nl_fuzz alone, with every check,
# until HCUBE_SOAK_SECONDS have passed and nl_fuzz has sent at least
# HCUBE_SOAK_MESSAGES messages. Then: the accounting once more, rmmod,
# root's sleepers have the masks they had, kmemleak (when the kernel has
# it) finds nothing of hcube's. Prints KTAP and the figures as
# "# soak: key=value" lines; a kernel splat fails the run in run-vm.sh.
set -u
B=${HCUBE_BUILD:-build}
KO=${HCUBE_KO:-./hcube.ko}
SECONDS_WANTED=${HCUBE_SOAK_SECONDS:-1800}
MESSAGES_WANTED=${HCUBE_SOAK_MESSAGES:-0}
MIX=${HCUBE_SOAK_MIX:-240}
FUZZ=${HCUBE_SOAK_FUZZ:-60}
STRESS=${HCUBE_SOAK_STRESS:-60}
K=$B/kselftest/hcube
HOTPLUG=$K/cpu-on-off-test.sh
HC=$B/hcubectl
export HCUBE_KO=$KO
T=/tmp/soak
mkdir -p $T
n=0
fails=0
messages=0
hotplug=0
faults=0
fault_errs=0
rounds=0
jobs_run=0
jobs_refused=0
stressng_ops=0
lost=0
stress_runs=0
fuzz_runs=0

tap() {	# ok|not_ok description
	n=$((n + 1))
	if [ "$1" = ok ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		fails=$((fails + 1))
	fi
}

stat_json() { "$HC" -j stats; }

# registered = unregistered + exited + now, from one read of the counters
accounting() {
	stat_json | python3 -c '
import json, sys
s = json.load(sys.stdin)
left = s["registered"] - s["unregistered"] - s["exited"] - s["tasks"]
print("%d %d %d %d %d %d %d" % (left, s["registered"], s["unregistered"], s["exited"],
      s["tasks"], s["adopted"], s["changed"]))'
}

# nl_fuzz's message counts, summed over its callers (of FILE, or stdin)
fuzz_messages() {
	awk '/messages sent/ { for (i = 1; i <= NF; i++) if ($(i + 1) == "messages") s += $i }
	     END { print s + 0 }' "$@"
}

# is task $1 alive: not gone, not a zombie (an exited child that its
# stopped parent has not reaped: the module saw it exit)
live() {
	local st
	st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null) || return 1
	case ${st%% *} in Z | X | "") return 1 ;; esac
}

# the tids of every process below $1, and its own
tree_tids() {
	local p
	for p in $(tree_pids "$1"); do
		ls "/proc/$p/task" 2>/dev/null
	done
}

# the mix's fault loop: mark a random CPU (never 0) faulty, clear it
fault_loop() {
	local until=$1 cpu k=0 e=0 ncpu
	ncpu=$(nproc --all)
	while [ "$(date +%s)" -lt "$until" ]; do
		cpu=$((1 + RANDOM % (ncpu - 1)))
		if "$HC" fault add cpu "$cpu" >/dev/null 2>&1; then
			k=$((k + 1))
			sleep 1
			"$HC" fault del cpu "$cpu" >/dev/null 2>&1 || e=$((e + 1))
		else
			e=$((e + 1))
			sleep 1
		fi
	done
	echo "$k $e" >"$T/faults"
}

hotplug_loop() {
	local until=$1 k=0
	while [ "$(date +%s)" -lt "$until" ]; do
		"$HOTPLUG" -a >>"$T/hotplug.log" 2>&1 && k=$((k + 1))
		sleep 2
	done
	echo "$k" >"$T/hotplug"
}

# the processes below $1, and itself, from their parent pids (not from
# /proc/PID/task/TID/children: the debug kernel has no CONFIG_PROC_CHILDREN)
tree_pids() {
	ps -e -o pid= -o ppid= | awk -v root="$1" '
	{ kids[$2] = kids[$2] " " $1 }
	END {
		n = 1; q[1] = root; out = root
		for (i = 1; i <= n; i++) {
			m = split(kids[q[i]], a, " ")
			for (j = 1; j <= m; j++) { q[++n] = a[j]; out = out " " a[j] }
		}
		print out
	}'
}

# send $2 to every process of the tree at $1, twice: the second pass
# reaches children born before their parent stopped
signal_tree() {
	local p
	for p in $(tree_pids "$1") $(tree_pids "$1"); do
		kill "-$2" "$p" 2>/dev/null
	done
}

# One stress-ng workload registered as a job with --tree; checked while
# stopped: each of its live tasks registered. Prints "ops missing
# refused": a registration the module refused (nl_fuzz may have left no
# healthy vertex the job's cpuset allows: ENODEV) is counted in refused,
# and that job's tasks are not checked (no one registered them).
stressng_job() {
	local secs=$1 pid tids missing=0 refused=0 reg ops gone=
	stress-ng --fork 2 --clone 2 --vfork 1 --timeout "${secs}s" --metrics-brief --temp-path "$T" \
		>"$T/stress-ng.log" 2>&1 &
	pid=$!
	sleep 1
	"$HC" task add "$pid" --tree >"$T/task-add.log" 2>&1 ||
		echo "# task add $pid --tree: $(grep -v '^registered ' "$T/task-add.log" | head -c 300)" >&2
	grep -q "^registered pid $pid " "$T/task-add.log" || refused=1
	sleep $((secs / 2))
	# stop the whole tree, let the module see the last births, compare
	signal_tree "$pid" STOP
	sleep 2
	reg=$("$HC" -j task list | python3 -c '
import json, sys
print(" ".join(str(t["pid"]) for t in json.load(sys.stdin)))')
	tids=$(tree_tids "$pid")
	[ $refused = 1 ] && tids=
	for t in $tids; do
		case " $reg " in
		*" $t "*) ;;
		*) live "$t" && missing=$((missing + 1)) && gone="$gone $t" ;;
		esac
	done
	if [ $missing != 0 ]; then
		echo "# stress-ng job $pid: live, not registered:$gone" >&2
		for t in $gone; do
			echo "#   $t: $(sed 's/.*) //' "/proc/$t/stat" 2>/dev/null | cut -d' ' -f1,2)" \
				"$(grep Cpus_allowed_list "/proc/$t/status" 2>/dev/null)"
		done | head -5 >&2
		"$HC" stats 2>&1 | sed 's/^/#   /' >&2
		"$HC" config show 2>&1 | sed 's/^/#   /' >&2
	fi
	signal_tree "$pid" CONT
	wait "$pid"
	ops=$(awk '$4 ~ /^(fork|clone|vfork)$/ && $5 ~ /^[0-9]+$/ { s += $5 } END { print s + 0 }' \
		"$T/stress-ng.log")
	[ "$ops" = 0 ] && sed 's/^/# stress-ng: /' "$T/stress-ng.log" | tail -5 >&2
	echo "$ops $missing $refused"
}

# the sleepers' saved affinity (orig_cpus) is still what they had: else
# say where it went wrong
check_sleepers() {
	local bad
	bad=$("$HC" -j task list | python3 -c '
import json, sys
want = dict(zip(sys.argv[1].split(), sys.argv[2].split()))
for t in json.load(sys.stdin):
    p = str(t["pid"])
    if p in want and t.get("orig_cpus") != want[p]:
        print("%s: orig_cpus %s, had %s;" % (p, t.get("orig_cpus"), want[p]), end=" ")
' "${sleepers[*]}" "${masks[*]}")
	[ -z "$bad" ] && return
	tap not_ok "round $rounds, after $1: root's sleepers' saved affinity: $bad"
}

# unregistered (the module reloaded, or nl_fuzz released them), the
# sleepers have their own masks; then register them again
sleepers_back() {
	local i m
	for i in "${!sleepers[@]}"; do
		m=$(taskset -pc "${sleepers[$i]}" | sed 's/.*: //')
		[ "$m" = "${masks[$i]}" ] ||
			tap not_ok "round $rounds, after $1: sleeper ${sleepers[$i]} has $m, had ${masks[$i]}"
	done
	"$HC" task add "${sleepers[@]}" --thread >/dev/null 2>&1
}

echo "TAP version 13"
echo "# soak: $(nproc) CPUs, kernel $(uname -r), at least ${SECONDS_WANTED} s and ${MESSAGES_WANTED} fuzzed messages"
echo "hcube-selftests: start" >/dev/kmsg 2>/dev/null || true
insmod "$KO" || { echo "not ok 1 insmod"; exit 1; }
start=$(date +%s)

# root's sleepers, each with a mask of its own, registered as threads
sleepers=()
masks=()
ncpu=$(nproc --all)
for i in 0 1 2 3; do
	taskset -c "$((i % ncpu))-$((ncpu - 1))" sleep 100000 &
	sleepers+=($!)
	# its mask is taskset's once it runs sleep
	until [ "$(cat /proc/$!/comm 2>/dev/null)" = sleep ]; do sleep 0.1; done
	masks+=("$(taskset -pc $! | sed 's/.*: //')")
done
"$HC" task add "${sleepers[@]}" --thread >/dev/null

seed=1
while :; do
	now=$(date +%s)
	if [ $((now - start)) -ge "$SECONDS_WANTED" ] && [ "$messages" -ge "$MESSAGES_WANTED" ]; then
		break
	fi
	rounds=$((rounds + 1))
	echo "# round $rounds: $((now - start)) s, $messages messages so far"

	# 1. the mix
	until=$((now + MIX))
	fault_loop "$until" &
	fpid=$!
	hotplug_loop "$until" &
	hpid=$!
	( while [ "$(date +%s)" -lt "$until" ]; do
		timeout 1200 "$K/nl_fuzz" 15 "$seed$RANDOM" shared >>"$T/fuzz-shared.log" 2>&1 ||
			echo "FAILED" >>"$T/fuzz-shared.log"
	  done ) &
	zpid=$!
	while [ "$(date +%s)" -lt "$until" ]; do
		read -r ops missing refused <<<"$(stressng_job 30)"
		jobs_run=$((jobs_run + 1))
		jobs_refused=$((jobs_refused + refused))
		stressng_ops=$((stressng_ops + ops))
		lost=$((lost + missing))
	done
	wait "$fpid" "$hpid" "$zpid"
	check_sleepers "the mix"
	read -r k e <"$T/faults"
	faults=$((faults + k))
	fault_errs=$((fault_errs + e))
	hotplug=$((hotplug + $(cat "$T/hotplug")))
	m=$(fuzz_messages "$T/fuzz-shared.log")
	if grep -q -e '^not ok' -e FAILED "$T/fuzz-shared.log"; then
		tap not_ok "round $rounds: nl_fuzz (shared) beside stress-ng, hotplug and faults"
		grep -e '^not ok' -e VIOLATION -e FAILED -e "^# root's" -e '^# could not' \
			-e '^# the task list' "$T/fuzz-shared.log" | head -20 | sed 's/^/# /'
	else
		tap ok "round $rounds: nl_fuzz (shared) beside stress-ng, hotplug and faults ($m messages)"
	fi
	messages=$((messages + m))
	# nl_fuzz does not judge a process of its own that was killed
	# meanwhile (by a stale pid of another root program, say): say so
	d=$(grep -c "died (" "$T/fuzz-shared.log")
	[ "$d" = 0 ] || grep "died (" "$T/fuzz-shared.log" | head -4 | sed 's/^/# /'
	: >"$T/fuzz-shared.log"
	# every CPU back online (cpu-on-off-test leaves them so; be sure)
	for c in /sys/devices/system/cpu/cpu[1-9]*/online; do echo 1 >"$c" 2>/dev/null; done

	# 2. the accounting
	read -r left reg unreg exited now_t adopted changed <<<"$(accounting)"
	if [ "$left" = 0 ]; then
		tap ok "round $rounds: registered $reg = unregistered $unreg + exited $exited + now $now_t (adopted $adopted)"
	else
		tap not_ok "round $rounds: registered $reg != unregistered $unreg + exited $exited + now $now_t"
	fi

	# 3. stress, which reloads the module (the sleepers come back)
	out=$(timeout 1200 "$K/stress" "$STRESS" "$seed" 2>&1)
	rc=$?
	stress_runs=$((stress_runs + 1))
	if [ $rc = 0 ]; then
		tap ok "round $rounds: stress $STRESS s"
	else
		tap not_ok "round $rounds: stress $STRESS s (exit $rc)"
		printf '%s\n' "$out" | grep -e '^not ok' -e '^#' | head -20 | sed 's/^/# /'
	fi
	lsmod | grep -q '^hcube ' || insmod "$KO"
	sleepers_back "stress"

	# 4. nl_fuzz alone
	out=$(timeout 1200 "$K/nl_fuzz" "$FUZZ" "$seed" 2>&1)
	rc=$?
	fuzz_runs=$((fuzz_runs + 1))
	m=$(printf '%s\n' "$out" | fuzz_messages)
	messages=$((messages + m))
	if [ $rc = 0 ]; then
		tap ok "round $rounds: nl_fuzz alone, $FUZZ s a caller ($m messages)"
	else
		tap not_ok "round $rounds: nl_fuzz alone (exit $rc)"
		printf '%s\n' "$out" | grep -e '^not ok' -e VIOLATION | head -10 | sed 's/^/# /'
	fi
	sleepers_back "nl_fuzz"
	check_sleepers "nl_fuzz"
	seed=$((seed + 1))
done

read -r left reg unreg exited now_t adopted changed <<<"$(accounting)"
[ "$left" = 0 ] && r=ok || r=not_ok
tap "$r" "the end: registered $reg = unregistered $unreg + exited $exited + now $now_t"
# (and at least one job was registered: else nothing was checked)
[ "$lost" = 0 ] && [ "$jobs_refused" -lt "$jobs_run" ] && r=ok || r=not_ok
tap "$r" "no live task of a registered stress-ng job was left unregistered ($lost; $((jobs_run - jobs_refused)) of $jobs_run jobs registered, the others refused)"
if rmmod hcube; then tap ok "rmmod"; else tap not_ok "rmmod"; fi
bad=0
for i in "${!sleepers[@]}"; do
	m=$(taskset -pc "${sleepers[$i]}" | sed 's/.*: //')
	if [ "$m" != "${masks[$i]}" ]; then
		echo "# sleeper ${sleepers[$i]}: mask $m, was ${masks[$i]}"
		bad=1
	fi
done
[ $bad = 0 ] && r=ok || r=not_ok
tap "$r" "after rmmod root's sleepers have their masks back"
kill "${sleepers[@]}" 2>/dev/null

k=/sys/kernel/debug/kmemleak
leaks=-
if [ -w "$k" ]; then
	echo scan >"$k"; sleep 5; echo scan >"$k"
	leaks=$(awk '/^unreferenced object/ { if (blk ~ /hcube/) n++; blk = "" }
		{ blk = blk $0 "\n" } END { if (blk ~ /hcube/) n++; print n + 0 }' "$k")
	[ "$leaks" = 0 ] && r=ok || r=not_ok
	tap "$r" "kmemleak: $leaks unreferenced objects of hcube's ($(grep -c '^unreferenced object' "$k") in all)"
fi

elapsed=$(($(date +%s) - start))
echo "# soak: kernel=$(uname -r) seconds=$elapsed rounds=$rounds nl_fuzz_messages=$messages" \
	"stress_runs=$stress_runs fuzz_runs=$fuzz_runs stressng_jobs=$jobs_run stressng_refused=$jobs_refused stressng_ops=$stressng_ops" \
	"hotplug_cycles=$hotplug faults=$faults fault_refusals=$fault_errs lost=$lost kmemleak=$leaks" \
	"changed_last=$changed"
echo "1..$n"
echo "# $fails of $n failed"
[ "$fails" -eq 0 ]
