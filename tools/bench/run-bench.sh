#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make bench`: hcube_bench in the qemu VM, one VM at a time, then the
# tables (Documentation/performance.md explains them). Raw outputs, the
# machine description and tables.md go to $BENCH_OUT (build/bench).
#
# Environment (defaults in brackets):
#   BENCH_TOPOS           VMs for the cost benchmark, CPUSxNODES ["8x2 16x2 32x4"];
#                         empty for none (BENCH_MAKESPAN_TOPOS likewise)
#   BENCH_COST_N          threads registered, per VM [1024,4096,16384]; set and
#                         empty: no cost rounds (nor the fork costs, the bare loop,
#                         the phases), only what else the cost VM runs (BENCH_MCE_N)
#   BENCH_REPS            rebalances timed per size, each way [5]
#   BENCH_DRY             dry runs timed per size [5]
#   BENCH_PHASES          1: each cost VM runs its rounds again with the phases
#                         module (where a rebalance's time goes) [1];
#                         BENCH_PHASES_N its threads [16384]
#   BENCH_PROFILE         1: one more VM, a function_graph profile of a run [1]
#   BENCH_PROFILE_TOPO    its topology ["8x2"]; BENCH_PROFILE_N its threads [4096];
#                         BENCH_PROFILE_FUNCS the functions it follows, BENCH_PROFILE_DEPTH
#                         how deep [hcube_rebalance __x64_sys_sched_setaffinity, 3]
#   BENCH_MCE_N           each cost VM: from a machine check on a CPU to the last
#                         of these many tasks off it [16,16384]; empty for none.
#                         BENCH_MCE_REPS runs each [BENCH_REPS]; BENCH_MCE_TRACED=1
#                         as many again with the hcube_migrate tracepoint on [1]
#   BENCH_MAKESPAN_TOPOS  VMs for the makespan benchmark ["8x2 16x2"]
#   BENCH_PER             workers per vertex [8]
#   BENCH_MEAN_MS         mean work of a worker, ms of CPU time [400]
#   BENCH_SEEDS           instances per fault count [3]
#   BENCH_FAULTS          faulty vertex counts [0,1,2]
#   BENCH_THRESHOLD       makespan: the automatic trigger's threshold [workers per vertex / 4]
#   BENCH_COOLDOWN_MS     makespan: its cooldown [100]
#   BENCH_IDLE_TOPO       the VM that counts the module's idle wake-ups ["8x2"];
#                         empty for none. BENCH_IDLE_N tasks [0,16384],
#                         BENCH_IDLE_S seconds each [60]
#   BENCH_MEM             guest memory, MiB [2048]
set -u
cd "$(dirname "$0")/../.." || exit 2
out=${BENCH_OUT:-build/bench}
mkdir -p "$out"
topos=${BENCH_TOPOS-8x2 16x2 32x4}
mtopos=${BENCH_MAKESPAN_TOPOS-8x2 16x2}
cost_n=${BENCH_COST_N-1024,4096,16384}
export BENCH_COST_ARGS="-n ${cost_n:-none} -r ${BENCH_REPS:-5} -k ${BENCH_DRY:-5}"
[ -n "$cost_n" ] || BENCH_COST_ARGS=
mce_n=${BENCH_MCE_N-16,16384}
export BENCH_MCE_ARGS="-n ${mce_n:-none} -r ${BENCH_MCE_REPS:-${BENCH_REPS:-5}}"
[ "${BENCH_MCE_TRACED:-1}" = 1 ] && BENCH_MCE_ARGS+=" -T"
[ -n "$mce_n" ] || BENCH_MCE_ARGS=
export BENCH_MAKESPAN_ARGS="-p ${BENCH_PER:-8} -e ${BENCH_MEAN_MS:-400} -s ${BENCH_SEEDS:-3} -f ${BENCH_FAULTS:-0,1,2}${BENCH_THRESHOLD:+ -t $BENCH_THRESHOLD}${BENCH_COOLDOWN_MS:+ -c $BENCH_COOLDOWN_MS}"
# the phases module's rounds (BENCH_PHASES=0: none)
if [ "${BENCH_PHASES:-1}" = 1 ]; then
	export BENCH_PHASES_ARGS="-n ${BENCH_PHASES_N:-16384} -r ${BENCH_REPS:-5} -k 1"
else
	export BENCH_PHASES_ARGS=
fi
export BENCH_IDLE_ARGS="-n ${BENCH_IDLE_N:-0,16384} -s ${BENCH_IDLE_S:-60}"
itopo=${BENCH_IDLE_TOPO-8x2}
rc=0

{
	echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "commit: $(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet HEAD 2>/dev/null || echo ' (modified)')"
	echo "host: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs, $(free -g | awk '/^Mem:/ {print $2 " GiB"}'), kernel $(uname -r)"
	echo "qemu: $(${HCUBE_VM_QEMU:-qemu-system-x86_64} --version | head -1)"
	echo "guest: Debian $(scripts/kver.sh 2>/dev/null), TCG (cost: one host thread, makespan: one per vCPU), -cpu max, ${BENCH_MEM:-2048} MiB, slab_nomerge"
	echo "cost args: ${BENCH_COST_ARGS:-none}; mce args: ${BENCH_MCE_ARGS:-none}; phases args: ${BENCH_PHASES_ARGS:-none}; idle args: $BENCH_IDLE_ARGS; makespan args: $BENCH_MAKESPAN_ARGS"
} >"$out/machine.txt"
cat "$out/machine.txt"

run() {	# topology, cost 0/1, makespan 0/1, tcg thread mode, output file, idle 0/1
	local cpus=${1%x*} nodes=${1#*x}
	echo "# === VM $1: cost=$2 makespan=$3 idle=$6 tcg-thread=$4 ===" >&2
	BENCH_COST=$2 BENCH_MAKESPAN=$3 BENCH_IDLE=$6 scripts/vm/run-vm.sh --cpus "$cpus" --nodes "$nodes" \
		--mem "${BENCH_MEM:-2048}" --timeout "${BENCH_TIMEOUT:-1500}" --tcg-thread "$4" \
		--append slab_nomerge --env BENCH_COST --env BENCH_MAKESPAN --env BENCH_IDLE \
		--env BENCH_COST_ARGS --env BENCH_MAKESPAN_ARGS --env BENCH_IDLE_ARGS \
		--env BENCH_PHASES_ARGS --env BENCH_MCE_ARGS \
		-- tools/bench/bench-in-vm.sh >"$5" || { echo "# FAILED: $1" >&2; rc=1; }
	grep -v '^R ' "$5" >&2
}

# The cost in the default single-threaded TCG: one busy vCPU gets the whole
# host thread. The makespan with a host thread per vCPU: with one thread for
# all, a vCPU waits up to (busy vCPUs - 1) x 100 ms for its turn, and the
# guest charges that wait to whatever task it was running (see the document).
files=()
for t in $topos; do
	run "$t" 1 0 single "$out/cost-$t.txt" 0
	files+=("$out/cost-$t.txt")
done
for t in $itopo; do
	run "$t" 0 0 single "$out/idle-$t.txt" 1
	files+=("$out/idle-$t.txt")
done
if [ "${BENCH_PROFILE:-1}" = 1 ]; then
	t=${BENCH_PROFILE_TOPO:-8x2}
	echo "# === VM $t: function_graph profile ===" >&2
	scripts/vm/run-vm.sh --cpus "${t%x*}" --nodes "${t#*x}" --mem "${BENCH_MEM:-2048}" \
		--timeout "${BENCH_TIMEOUT:-1500}" --append slab_nomerge --env BENCH_PROFILE_N \
		--env BENCH_PROFILE_FUNCS --env BENCH_PROFILE_DEPTH \
		-- tools/bench/profile-in-vm.sh >"$out/profile-$t.txt" || { echo "# FAILED: profile" >&2; rc=1; }
	grep -v '^R ' "$out/profile-$t.txt" >&2
	files+=("$out/profile-$t.txt")
fi
for t in $mtopos; do
	run "$t" 0 1 multi "$out/makespan-$t.txt" 0
	files+=("$out/makespan-$t.txt")
done
tools/bench/bench_table.py "${files[@]}" >"$out/tables.md" || rc=1
echo
cat "$out/tables.md"
echo "(raw results and tables.md in $out)"
exit $rc
