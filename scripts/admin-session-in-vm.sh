#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The session of Documentation/admin-guide/hcube.rst ("A session"), inside
# the VM, from the repository root; it prints each command after a "# "
# prompt, then its output:
#
#   selftests/vm/run-vm.sh --cpus 8 --nodes 2 -- scripts/admin-session-in-vm.sh
#
# It loads hcube with modprobe when the module is installed (DKMS), else
# with insmod ./hcube.ko, and unloads it at the end.
set -u
B=${HCUBE_BUILD:-build}
export PATH=$PWD/$B:$PATH
pids=

say() {
	printf '# %s\n' "$*"
	eval "$*" 2>&1
}

cleanup() {
	hcubectl task del --all >/dev/null 2>&1
	# shellcheck disable=SC2086  # a list of pids
	[ -n "$pids" ] && kill $pids 2>/dev/null
	rmmod hcube 2>/dev/null
}
trap cleanup EXIT

if modinfo -n hcube >/dev/null 2>&1; then
	say modprobe hcube mode=cpu
else
	say insmod ./hcube.ko mode=cpu
fi
say "dmesg | grep 'hcube:'"
say hcubectl show
say "for i in \$(seq 12); do sleep 100000 & pids=\"\$pids \$!\"; done"
say "hcubectl task add \$pids --vertex 0"
say hcubectl rebalance --dry-run
say hcubectl rebalance --policy dem --dry-run
say hcubectl rebalance --policy auto --dry-run
say hcubectl rebalance
say "hcubectl monitor > /tmp/events & sleep 1"
say hcubectl fault add cpu 5
say hcubectl fault add cpu 6
say hcubectl show
say hcubectl rebalance --policy cwa
say hcubectl fault add cpu 0
say hcubectl fault del cpu 0
say "kill \$!; wait \$!; cat /tmp/events"
say "echo 1 > /sys/kernel/tracing/events/hcube/enable"
say hcubectl fault add cpu 1
say "grep -o 'hcube_.*' /sys/kernel/tracing/trace"
say "echo 0 > /sys/kernel/tracing/events/hcube/enable"
say hcubectl task list
say hcubectl stats
say hcubectl config show
say hcubectl fault add vertex 9
say hcubectl fault add cpu 1
say hcubectl topology set node
say hcubectl task del --all
say hcubectl fault del cpu 1
say hcubectl fault del cpu 5
say hcubectl fault del cpu 6
say rmmod hcube
