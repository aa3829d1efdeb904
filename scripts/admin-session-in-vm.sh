#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The real output of Documentation/admin-guide/hcube.rst: inside the VM,
# from the repository root, the commands of each block the guide marks
# ".. hcube-output: NAME", each printed after a "# " prompt, then its
# output (stdout and stderr). A line "=== hcube-output: NAME" starts the
# output of block NAME; scripts/checks/docs/check_guide.py compares them with
# the guide (make check-guide). Two parts, each in its own VM:
#
#   scripts/vm/run-vm.sh --cpus 8 --nodes 2 --writable-root -- \
#       scripts/admin-session-in-vm.sh session
#   scripts/vm/run-vm.sh --cpus 8 --nodes 2 \
#       --append "isolcpus=6,7 nohz_full=6,7" -- \
#       scripts/admin-session-in-vm.sh isolation
#
# session: "A session" (the module loaded with insmod ./hcube.ko, the
# tree's build), then the apply examples of "Persistent set-up", which
# write /etc/hcube/hcube.conf (hence --writable-root: the VM's overlay,
# gone at poweroff), then those of "The cluster's view" (health, metrics,
# show --dot). isolation: show with CPUs 6 and 7 isolated.
# Each part unloads the module at the end.
set -u
B=${HCUBE_BUILD:-build}
case $B in /*) ;; *) B=$PWD/$B ;; esac
export PATH=$B:$PATH
part=${1:-session}
pids=
cpids=
last=0

# a block of the guide
section() {
	printf '=== hcube-output: %s\n' "$1"
}

# a command and its output; $? is the status of the command before
say() {
	printf '# %s\n' "$*"
	(exit "$last")
	eval "$*" 2>&1
	last=$?
}

cleanup() {
	hcubectl task del --all >/dev/null 2>&1
	# shellcheck disable=SC2086  # a list of pids
	[ -n "$pids" ] && kill $pids 2>/dev/null
	rmmod hcube 2>/dev/null
}
trap cleanup EXIT

# the "A session" section
session() {
	section session-load
	say insmod ./hcube.ko mode=cpu
	say "dmesg | grep 'hcube:'"
	say hcubectl show

	section session-tasks
	say "for i in \$(seq 12); do sleep 100000 & pids=\"\$pids \$!\"; done"
	say "hcubectl task add \$pids --vertex 0"

	section session-dry-run
	say hcubectl rebalance --dry-run
	say hcubectl rebalance --policy dem --dry-run

	section session-auto
	say hcubectl rebalance --policy auto --dry-run

	section session-rebalance
	say hcubectl rebalance

	section session-faults
	say "hcubectl monitor > /tmp/events & sleep 1"
	say hcubectl fault add cpu 5
	say hcubectl fault add cpu 6
	say hcubectl show

	section session-cwa
	say hcubectl rebalance --policy cwa

	section session-controller
	say hcubectl fault add cpu 0
	say hcubectl fault del cpu 0

	section session-events
	say "kill \$!; wait \$!; cat /tmp/events"

	section session-trace
	say "echo 1 > /sys/kernel/tracing/events/hcube/enable"
	say hcubectl fault add cpu 1
	say "grep -o 'hcube_.*' /sys/kernel/tracing/trace"
	say "echo 0 > /sys/kernel/tracing/events/hcube/enable"

	section session-state
	say hcubectl task list
	say hcubectl stats
	say hcubectl config show

	section session-errors
	say hcubectl fault add vertex 9
	say hcubectl fault add cpu 1
	say hcubectl topology set node
	say "setpriv --reuid=nobody --regid=nogroup --clear-groups hcubectl fault add cpu 2"

	section session-refused
	say hcubectl task add 0
	say hcubectl config set max_tasks 100000
	say "hcubectl topology set custom 0-3 4-7x"
	say "echo \$?"

	section session-unload
	say hcubectl task del --all
	say hcubectl fault del cpu 1
	say hcubectl fault del cpu 5
	say hcubectl fault del cpu 6
	say rmmod hcube
}

# The examples of "Persistent set-up": a module whose state differs from
# the file, a file with bad lines, one with a fault outside the cube.
apply() {
	mkdir -p /etc/hcube

	section apply-before
	say insmod ./hcube.ko mode=node
	say hcubectl config set policy dem
	say hcubectl fault add cpu 3

	section apply-bad
	cat >/etc/hcube/hcube.conf <<-'EOF'
	mode cpu
	policy mcwa
	auto on
	threshold 2000000
	cooldown 1000
	fault cpu 5x
	EOF
	say cat /etc/hcube/hcube.conf
	say hcubectl apply /etc/hcube/hcube.conf
	say "echo \$?"

	section apply-cube
	cat >/etc/hcube/hcube.conf <<-'EOF'
	mode cpu
	fault cpu 64
	EOF
	say cat /etc/hcube/hcube.conf
	say hcubectl apply /etc/hcube/hcube.conf

	section apply
	cat >/etc/hcube/hcube.conf <<-'EOF'
	mode cpu              # cpu, node, llc, auto, or: custom 0-3 4-7 ...
	policy mcwa
	auto on
	threshold 1
	cooldown 1000
	fault cpu 5           # one fault per line
	fault vertex 0b011
	EOF
	say cat /etc/hcube/hcube.conf
	say hcubectl apply /etc/hcube/hcube.conf
	say hcubectl apply /etc/hcube/hcube.conf
	say rmmod hcube
}

# "The cluster's view": health, metrics, the picture. The picture's Graphviz
# source is printed between "=== hcube-file: NAME" and "=== hcube-file-end"
# (check-guide.sh takes it out into BUILD/docs/NAME).
cluster() {
	section cluster-health
	say insmod ./hcube.ko mode=cpu
	say hcubectl config set auto off
	say hcubectl fault add cpu 5
	say hcubectl fault add cpu 6
	say "hcubectl health --min-healthy-cpus 6 --min-healthy-vertices 4"
	say "echo \$?"
	say "hcubectl health --min-healthy-cpus 7 --min-healthy-vertices 4"
	say "echo \$?"

	section cluster-metrics
	say "for i in \$(seq 12); do sleep 100000 & cpids=\"\$cpids \$!\"; done"
	pids="$pids $cpids"
	say "hcubectl task add \$cpids --vertex 0 > /dev/null"
	say "mkdir -p /tmp/prom && hcubectl metrics --once --textfile /tmp/prom"
	say "grep -E '^hcube_(up|healthy_cpus|tasks|rebalances_total) |^hcube_vertex_tasks\\{vertex=\"000\"|^hcube_cpu_marked\\{cpu=\"5\"' /tmp/prom/hcube.prom"

	section cluster-dot
	say "hcubectl rebalance > /dev/null"
	say "hcubectl show --dot --plan > /tmp/cube.dot"
	say "dot -Tsvg /tmp/cube.dot -o /tmp/cube.svg"
	printf '=== hcube-file: hcube-cube.dot\n'
	cat /tmp/cube.dot
	printf '=== hcube-file-end\n'
	hcubectl task del --all >/dev/null
	rmmod hcube
}

# "Isolation": booted with isolcpus=6,7 nohz_full=6,7.
isolation() {
	section isolation
	say cat /sys/devices/system/cpu/isolated
	say insmod ./hcube.ko mode=cpu
	say hcubectl show
	say hcubectl topology set node
	say hcubectl show
	say "hcubectl -j show | grep -o '{\"id\":1,[^}]*}'"
	say rmmod hcube
}

case $part in
session) session; apply; cluster ;;
isolation) isolation ;;
*) echo "usage: $0 [session|isolation]" >&2; exit 2 ;;
esac
