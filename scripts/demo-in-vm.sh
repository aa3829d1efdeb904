#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The hcube demo, inside the VM (from the repository root): load the module,
# put a few dozen real processes on one vertex, mark two CPUs faulty, and
# rebalance, with `hcubectl show` before and after.
set -eu
B=${HCUBE_BUILD:-build}
HC=$B/hcubectl
pids=()

say() {
	printf '\n\033[1m$ %s\033[0m\n' "$*"
	"$@"
}

cleanup() {
	$HC task del --all >/dev/null 2>&1 || true
	[ ${#pids[@]} -gt 0 ] && kill "${pids[@]}" 2>/dev/null
	wait 2>/dev/null
	rmmod hcube 2>/dev/null || true
}
trap cleanup EXIT

echo "hcube demo: $(nproc) CPUs, $(ls -d /sys/devices/system/node/node* | wc -l) NUMA nodes, kernel $(uname -r)"
say insmod ./hcube.ko mode=cpu
say $HC show

# 4 busy loops and 28 sleepers, all started on CPU 0
for i in $(seq 4); do taskset -c 0 sh -c 'while :; do :; done' & pids+=($!); done
for i in $(seq 28); do taskset -c 0 sleep 100000 & pids+=($!); done
# registered only once taskset has pinned them and exec'd the program
for p in "${pids[@]}"; do
	while [ "$(cat /proc/$p/comm)" = taskset ]; do sleep 0.05; done
done
echo
echo "started ${#pids[@]} processes on CPU 0"
say $HC task add "${pids[@]}" --vertex 0
say $HC fault add cpu 2
say $HC fault add cpu 5
say $HC show
say $HC rebalance
say $HC show

echo
echo "A fault where tasks run: they are evacuated to the nearest healthy"
echo "vertices, then the configured policy rebalances."
say $HC fault add cpu 1
say $HC show
say $HC stats

echo
echo "checked from /proc: processes allowed on each CPU"
for c in $(seq 0 $(($(nproc) - 1))); do
	n=0
	for p in "${pids[@]}"; do
		grep -q "^Cpus_allowed_list:[[:space:]]*$c\$" "/proc/$p/status" && n=$((n + 1))
	done
	echo "  CPU $c: $n"
done
say $HC task del --all
echo
echo "demo done"
