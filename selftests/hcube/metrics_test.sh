#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# hcubectl metrics as a site sees it: Debian's prometheus-node-exporter
# with its textfile collector on hcubectl metrics' directory, /metrics read
# over HTTP on loopback. A fault mark, a rebalance and a machine check's
# mark (mce-inject; that part skipped where it is missing) must each reach
# /metrics (the time each took is printed; the target is a second); then a
# reader loop parses the file over and over (prom_check.py) and must never
# find it half-written, and node_exporter must report no scrape error.
# Skipped where prometheus-node-exporter is not installed. Prints TAP.
#
# Usage: metrics_test.sh [DIR]   (default: the script's directory, where
#        kselftest installs hcubectl and prom_check.py)
set -u
B=${1:-$(dirname "$0")}
HC=$B/hcubectl
PROM=$B/prom_check.py
NE=/usr/bin/prometheus-node-exporter
MI=/sys/kernel/debug/mce-inject
PORT=19100
tmp=$(mktemp -d)
# shellcheck source=../lib/tap.sh
. "$(dirname "$0")/tap.sh"
# shellcheck source=hcube_module.sh
. "$(dirname "$0")/hcube_module.sh"

if [ ! -x "$NE" ]; then
	printf 'TAP version 13\n1..0 # SKIP prometheus-node-exporter is not installed\n'
	exit 4
fi
# Userspace on the module's events: one topology and one kernel say all
# (make check boots several); HCUBE_METRICS_ALL=1 runs it everywhere.
if [ "${HCUBE_METRICS_ALL:-0}" != 1 ] &&
   { [ "$(nproc --all)" != 8 ] || uname -v | grep -q PREEMPT_RT; }; then
	printf 'TAP version 13\n1..0 # SKIP run on the 8-CPU VM of the standard kernel only\n'
	exit 4
fi
hcube_module_need
pids=
cleanup() {
	# shellcheck disable=SC2086  # a list of pids
	[ -n "$pids" ] && kill $pids 2>/dev/null
	wait 2>/dev/null
	"$HC" task del --all >/dev/null 2>&1
	"$HC" fault del cpu 3 >/dev/null 2>&1
	"$HC" fault del cpu 2 >/dev/null 2>&1
	"$HC" config set mce_ce_threshold 0 mce_ce_window 86400 >/dev/null 2>&1
	rm -rf "$tmp"
	hcube_module_restore
}
trap cleanup EXIT

# scrape: /metrics into $tmp/metrics, over HTTP/1.0 with bash's /dev/tcp
# (no program to start: under TCG a python3 start costs half a second)
scrape() {
	local body
	{ exec 3<>"/dev/tcp/127.0.0.1/$PORT"; } 2>/dev/null || return 1
	printf 'GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3
	body=$(cat <&3)
	exec 3<&-
	printf '%s\n' "$body" | tr -d '\r' | sed '1,/^$/d' >"$tmp/metrics"
	[ -s "$tmp/metrics" ]
}

# within NAME LIMIT_MS REGEX: /metrics has a line matching REGEX within
# LIMIT_MS of now; the time it took is printed (the issue's target is a
# second: a number to read, not a timed assertion, since qemu's TCG runs
# the VM at a fraction of the host's speed; LIMIT_MS only catches a change
# that never comes, which without polling means a missed event).
# node_exporter sorts the labels by name.
within() {
	local name=$1 limit=$2 re=$3 t0 t
	t0=$(date +%s%N)
	while :; do
		if scrape && grep -qE "$re" "$tmp/metrics"; then
			t=$((($(date +%s%N) - t0) / 1000000))
			echo "# $name: in /metrics after $t ms"
			if [ "$t" -le "$limit" ]; then
				ok "$name: in /metrics within $limit ms"
			else
				not_ok "$name: in /metrics after $t ms, more than $limit"
			fi
			return 0
		fi
		t=$((($(date +%s%N) - t0) / 1000000))
		[ "$t" -ge "$limit" ] && break
		sleep 0.05
	done
	TAP_SHOW="metrics:$tmp/metrics" not_ok "$name: not in /metrics within $limit ms ($re)"
	grep -F "$(printf '%s' "$re" | sed 's/^^//; s/[^a-z_].*//')" "$tmp/metrics" |
		grep -v '^#' | head -3 | sed 's/^/#   /'
	return 1
}

echo "TAP version 13"
ip link set lo up 2>/dev/null
mkdir -p "$tmp/prom"
"$HC" topology set cpu >/dev/null 2>&1
"$HC" metrics --textfile "$tmp/prom" 2>"$tmp/metrics.err" &
pids="$pids $!"
"$NE" --collector.disable-defaults --collector.textfile \
	--collector.textfile.directory="$tmp/prom" \
	--web.listen-address="127.0.0.1:$PORT" >"$tmp/ne.log" 2>&1 &
pids="$pids $!"

within "start: node_exporter serves the file" 20000 '^hcube_up 1$'
"$HC" fault add cpu 3 >/dev/null
within "fault add cpu 3" 10000 '^hcube_cpu_marked\{cpu="3",marked_by="admin",vertex="[01]+"\} 1$'

for _ in 1 2 3 4 5 6; do
	sleep 100000 &
	pids="$pids $!"
	tasks="${tasks-} $!"
done
# shellcheck disable=SC2086  # a list of pids
"$HC" task add $tasks --vertex 0 >/dev/null
scrape
before=$(sed -n 's/^hcube_rebalances_total \([0-9]*\)$/\1/p' "$tmp/metrics")
"$HC" rebalance >/dev/null
within "rebalance: hcube_rebalances_total $before -> $((before + 1))" 10000 \
	"^hcube_rebalances_total $((before + 1))\$"
v0=$(sed -n 's/^hcube_vertex_tasks{vertex="0*"} \([0-9]*\)$/\1/p' "$tmp/metrics")
if [ -n "$v0" ] && [ "$v0" -lt 6 ]; then
	ok "rebalance: /metrics has the tasks moved off vertex 0 (6 -> $v0)"
else
	TAP_SHOW="metrics:$tmp/metrics" not_ok "rebalance: vertex 0's tasks ('$v0')"
fi

if [ ! -w "$MI/bank" ]; then
	mount -t debugfs none /sys/kernel/debug 2>/dev/null
	modprobe mce-inject 2>/dev/null
fi
if [ -w "$MI/bank" ]; then
	"$HC" config set mce_ce_threshold 1 mce_ce_window 60 >/dev/null
	{ echo sw >"$MI/flags" && echo 2 >"$MI/cpu" && echo 0x9c00000000000151 >"$MI/status" &&
	  echo 1 >"$MI/bank"; } 2>/dev/null
	within "machine check on cpu 2" 10000 '^hcube_cpu_marked\{cpu="2",marked_by="mce",vertex="[01]+"\} 1$'
else
	skip "machine check on cpu 2" "mce-inject is not available"
fi

# the reader: the file parsed again and again until told to stop
python3 - "$PROM" "$tmp/prom/hcube.prom" "$tmp/stop" "$tmp/ready" >"$tmp/reader" 2>&1 <<'PY' &
import os, sys, time
sys.path.insert(0, os.path.dirname(sys.argv[1]))
import prom_check
reads = bad = 0
open(sys.argv[4], 'w').close()
while not os.path.exists(sys.argv[3]):
    time.sleep(0.005)       # a reader, not a CPU hog: the VM's CPUs are emulated
    try:
        text = open(sys.argv[2]).read()
    except FileNotFoundError:
        continue
    reads += 1
    try:
        s = prom_check.parse(text)
        assert ('hcube_up', ()) in s
    except (ValueError, AssertionError) as e:
        bad += 1
        print('bad read:', e)
print(reads, bad)
PY
reader=$!
for _ in $(seq 300); do [ -e "$tmp/ready" ] && break; sleep 0.1; done
# rewrites under the reader: faults on and off
for _ in 1 2 3 4 5 6; do
	"$HC" fault del cpu 3 >/dev/null && "$HC" fault add cpu 3 >/dev/null
done
sleep 0.5
touch "$tmp/stop"
wait "$reader"
read -r reads bad < <(tail -1 "$tmp/reader")
echo "# the reader: $reads reads of the file, $bad bad"
if [ "${bad:-1}" = 0 ] && [ "${reads:-0}" -gt 20 ]; then
	ok "the file never seen half-written ($reads reads during the rewrites)"
else
	TAP_SHOW="reader:$tmp/reader" not_ok "the file seen half-written, or not read ($reads reads, $bad bad)"
fi
scrape
if grep -qx 'node_textfile_scrape_error 0' "$tmp/metrics"; then
	ok "node_exporter: no scrape error of the textfile collector"
else
	TAP_SHOW="ne:$tmp/ne.log" not_ok "node_exporter: a scrape error"
fi
if [ -z "$(find "$tmp/prom" -name '.hcube.prom.*')" ]; then
	ok "no temporary file left"
else
	not_ok "temporary files left: $(ls -A "$tmp/prom")"
fi
tap_end
