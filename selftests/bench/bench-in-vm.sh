#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside the bench VM, from the repository root (run-bench.sh starts
# it): loads hcube.ko, then runs `hcube_bench cost $BENCH_COST_ARGS` when
# BENCH_COST is 1 and `hcube_bench makespan $BENCH_MAKESPAN_ARGS` when
# BENCH_MAKESPAN is 1. The R lines go to stdout.
set -eu
B=${HCUBE_BUILD:-build}
KO=${HCUBE_KO:-./hcube.ko}
# room for 16k threads and more
echo 4194304 >/proc/sys/kernel/pid_max
echo 1000000 >/proc/sys/kernel/threads-max
echo 1000000 >/proc/sys/vm/max_map_count
# BENCH_REAP_MS: the period of the reaper, which also runs the automatic
# trigger (run-bench.sh sets 100 ms for the makespan, so that the trigger
# reacts soon after workers finish; the module's default is 1 s).
insmod "$KO" mode=cpu ${BENCH_REAP_MS:+reap_ms=$BENCH_REAP_MS}
echo "# module: reap_ms=$(cat /sys/module/hcube/parameters/reap_ms)"
trap 'rmmod hcube 2>/dev/null || true' EXIT
echo "# vm: $(nproc) CPUs, $(find /sys/devices/system/node -maxdepth 1 -name "node[0-9]*" | wc -l) node(s)," \
	"kernel $(uname -r), $(awk '/MemTotal/ {print $2 " kB"}' /proc/meminfo)," \
	"clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
echo "# vm cmdline: $(cat /proc/cmdline)"
# word splitting of the argument strings is wanted
# shellcheck disable=SC2086
if [ "${BENCH_COST:-1}" = 1 ]; then
	"$B/bench/hcube_bench" cost ${BENCH_COST_ARGS:-}
fi
# shellcheck disable=SC2086
if [ "${BENCH_MAKESPAN:-0}" = 1 ]; then
	"$B/bench/hcube_bench" makespan ${BENCH_MAKESPAN_ARGS:-}
fi
