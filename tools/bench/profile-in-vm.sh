#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside the bench VM (run-bench.sh starts it): where a rebalance's
# time goes, against the userspace way. function_graph records, three calls
# deep, every hcube_rebalance() and every sched_setaffinity() syscall of
# one `hcube_bench cost` run (BENCH_PROFILE_FUNCS and BENCH_PROFILE_DEPTH
# say which functions, how deep); the sums per function are printed as
# "R profile ..." lines. Tracing slows each call it records, so only the
# shares are meant to be compared, not the absolute times.
set -eu
B=${HCUBE_BUILD:-build}
KO=${HCUBE_KO:-./hcube.ko}
T=/sys/kernel/tracing
n=${BENCH_PROFILE_N:-4096}
echo 4194304 >/proc/sys/kernel/pid_max
echo 1000000 >/proc/sys/kernel/threads-max
insmod "$KO" mode=cpu
trap 'echo nop >$T/current_tracer; rmmod hcube 2>/dev/null || true' EXIT
echo 0 >$T/tracing_on
echo 32768 >$T/buffer_size_kb
echo function_graph >$T/current_tracer
echo 1 >$T/options/funcgraph-tail
echo "${BENCH_PROFILE_FUNCS:-hcube_rebalance __x64_sys_sched_setaffinity}" >$T/set_graph_function
echo "${BENCH_PROFILE_DEPTH:-3}" >$T/max_graph_depth
echo >$T/trace
echo 1 >$T/tracing_on
"$B/bench/hcube_bench" cost -n "$n" -r 1 -k 1 | sed 's/^R cost /R profiled-cost /'
echo 0 >$T/tracing_on
echo "# trace: $(wc -l <$T/trace) lines, $(grep -c 'overrun\|LOST' $T/trace || true) lost-event marks"
# depth from the indentation after '|': 2 spaces a level
awk -v n="$n" '
/[0-9.]+ us +\|/ {
	d = $0; sub(/^.*[0-9.]+ us +\| /, "", d)
	ind = match(d, /[^ ]/) - 1
	if (d ~ /\} \/\* /) { f = d; sub(/.*\/\* /, "", f); sub(/ \*\/.*/, "", f) }
	else if (d ~ /\(\);/) { f = d; sub(/^ */, "", f); sub(/\(\);.*/, "", f) }
	else next
	sub(/ \[hcube\]/, "", f)
	t = $0; sub(/ us +\|.*/, "", t); sub(/.*[ +!#*@$]/, "", t)
	key = int(ind / 2) + 1 SUBSEP f
	sum[key] += t; cnt[key]++
}
END {
	for (k in sum) {
		split(k, p, SUBSEP)
		printf "R profile n=%d depth=%d func=%s calls=%d total_ms=%.3f avg_us=%.3f\n",
		       n, p[1], p[2], cnt[k], sum[k] / 1000, sum[k] / cnt[k]
	}
}' $T/trace | sort -t= -k3,3n
