#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside the bench VM, from the repository root (run-bench.sh starts
# it): loads hcube.ko, then runs `hcube_bench cost $BENCH_COST_ARGS` when
# BENCH_COST is 1 and those are not empty, `hcube_bench mce $BENCH_MCE_ARGS`
# when BENCH_COST is 1 and those are not empty (skipped, with a comment,
# where mce-inject is missing), then the cost rounds again with the phases
# module, with $BENCH_PHASES_ARGS when they are not empty; `hcube_bench
# makespan $BENCH_MAKESPAN_ARGS` when BENCH_MAKESPAN is 1, and `hcube_bench
# idle $BENCH_IDLE_ARGS` when BENCH_IDLE is 1. The R lines go to stdout.
set -eu
B=${HCUBE_BUILD:-build}
# the cost rounds: BENCH_COST, unless run-bench.sh left their arguments empty
COST=${BENCH_COST:-1}
[ "$COST" = 1 ] && [ -z "${BENCH_COST_ARGS-x}" ] && COST=0
KO=${HCUBE_KO:-./hcube.ko}
# room for 16k threads and more
echo 4194304 >/proc/sys/kernel/pid_max
echo 1000000 >/proc/sys/kernel/threads-max
echo 1000000 >/proc/sys/vm/max_map_count
# what the probes add to fork+exit: first without the module
if [ "$COST" = 1 ]; then
	"$B/bench/hcube_bench" fork -l unloaded
fi
insmod "$KO" mode=cpu
if [ "$COST" = 1 ]; then
	"$B/bench/hcube_bench" fork -l loaded
fi
# the physical limit of a rebalance: a bare loop of set_cpus_allowed_ptr()
BARE=$B/bench/bare/hcube_bare.ko
if [ "$COST" = 1 ] && [ -e "$BARE" ]; then
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
	insmod "$BARE"
fi
trap 'rmmod hcube 2>/dev/null || true; rmmod hcube_bare 2>/dev/null || true' EXIT
echo "# vm: $(nproc) CPUs, $(find /sys/devices/system/node -maxdepth 1 -name "node[0-9]*" | wc -l) node(s)," \
	"kernel $(uname -r), $(awk '/MemTotal/ {print $2 " kB"}' /proc/meminfo)," \
	"clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
echo "# vm cmdline: $(cat /proc/cmdline)"
# word splitting of the argument strings is wanted
# shellcheck disable=SC2086
if [ "$COST" = 1 ]; then
	"$B/bench/hcube_bench" cost ${BENCH_COST_ARGS:-}
fi
# From a machine check to the last task off the CPU: records injected with
# Debian's mce-inject (software injection through debugfs)
if [ "${BENCH_COST:-1}" = 1 ] && [ -n "${BENCH_MCE_ARGS:-}" ]; then
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
	mountpoint -q /sys/kernel/tracing || mount -t tracefs none /sys/kernel/tracing
	modprobe mce-inject 2>/dev/null || true
	if [ -w /sys/kernel/debug/mce-inject/bank ]; then
		# shellcheck disable=SC2086
		"$B/bench/hcube_bench" mce $BENCH_MCE_ARGS
	else
		echo "# mce: skipped: mce-inject is absent (modprobe mce-inject failed)"
	fi
fi
# Where a rebalance's time goes: the same cost rounds (BENCH_PHASES_ARGS)
# with hcube built with HCUBE_BENCH_PHASES=y, which logs each rebalance's
# phases. Its R cost, fork and small lines become "R cost-phases",
# "R fork-phases" and "R small-phases" (the goals are the real module's),
# its log lines "R phases".
PHASES_KO=$B/bench/phases/hcube.ko
if [ "$COST" = 1 ] && [ -n "${BENCH_PHASES_ARGS:-}" ] && [ -e "$PHASES_KO" ]; then
	rmmod hcube
	insmod "$PHASES_KO" mode=cpu
	# shellcheck disable=SC2086
	"$B/bench/hcube_bench" cost $BENCH_PHASES_ARGS |
		sed -E 's/^R (cost|fork|small) /R \1-phases /'
	dmesg | sed -n "s/.*hcube: bench phases: /R phases cpus=$(nproc) /p"
fi
# shellcheck disable=SC2086
if [ "${BENCH_IDLE:-0}" = 1 ]; then
	mountpoint -q /sys/kernel/tracing || mount -t tracefs none /sys/kernel/tracing
	"$B/bench/hcube_bench" idle ${BENCH_IDLE_ARGS:-}
fi
# shellcheck disable=SC2086
if [ "${BENCH_MAKESPAN:-0}" = 1 ]; then
	"$B/bench/hcube_bench" makespan ${BENCH_MAKESPAN_ARGS:-}
fi
