#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Machine checks through hcubectl: a hcube.conf that sets the thresholds,
# applied with `hcubectl apply`; records injected with mce-inject; then
# show -j, stats -j and apply again, as an administrator sees them.
# Skipped where mce-inject is missing. Prints TAP; exits 1 if a check failed.
#
# Usage: mce_apply_test.sh [DIR]   (default: the script's directory, where
#        kselftest installs hcubectl)
set -u
B=${1:-$(dirname "$0")}
HC=$B/hcubectl
MI=/sys/kernel/debug/mce-inject
tmp=$(mktemp -d)
# shellcheck source=../lib/tap.sh
. "$(dirname "$0")/tap.sh"
# shellcheck source=hcube_module.sh
. "$(dirname "$0")/hcube_module.sh"

if [ ! -w "$MI/bank" ]; then
	mount -t debugfs none /sys/kernel/debug 2>/dev/null
	modprobe mce-inject 2>/dev/null
fi
if [ ! -w "$MI/bank" ]; then
	printf 'TAP version 13\n1..0 # SKIP mce-inject is not available\n'
	exit 4
fi
hcube_module_need
cpu=2

cleanup() {
	"$HC" fault del cpu $cpu >/dev/null 2>&1
	"$HC" config set mce_ce_threshold 0 mce_ce_window 86400 mce_uc off >/dev/null 2>&1
	rm -rf "$tmp"
	hcube_module_restore
}
trap cleanup EXIT

# inject N [STATUS]: N corrected records of CPU $cpu (an L1 cache error)
inject() {
	local i

	for ((i = 0; i < $1; i++)); do
		echo sw >"$MI/flags" && echo $cpu >"$MI/cpu" &&
			echo "${2:-0x9c00000000000151}" >"$MI/status" && echo 1 >"$MI/bank" ||
			return 1
	done
}

# py CODE: CODE passes on d, the JSON of the last command's stdout
py() {
	python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
$1" "$tmp/out" 2>"$tmp/py"
}

# faulty_within S: CPU $cpu faulty within S seconds (0: now)
faulty_within() {
	local i

	for ((i = 0; i == 0 || i < $1 * 5; i++)); do
		"$HC" -j show >"$tmp/out" || return 1
		py "assert any($cpu in [c['cpu'] for c in v['cpu_info'] if c['marked_by'] == 'mce']
           for v in d['vertices'])" && return 0
		sleep 0.2
	done
	return 1
}

echo "TAP version 13"
"$HC" topology set cpu >/dev/null 2>&1
cat >"$tmp/hcube.conf" <<'EOF'
mode cpu
mce_ce_threshold 3
mce_ce_window 60
EOF
if "$HC" apply "$tmp/hcube.conf" >"$tmp/out" 2>&1 && "$HC" -j config show >"$tmp/out" &&
	py "assert (d['mce_ce_threshold'], d['mce_ce_window'], d['mce_uc']) == (3, 60, False), d"; then
	ok "apply: mce_ce_threshold 3, mce_ce_window 60"
else
	not_ok "apply: the machine-check settings"
fi
"$HC" -j stats >"$tmp/out"
r0=$(python3 -c "import json; print(json.load(open('$tmp/out'))['mce_records'])")
m0=$(python3 -c "import json; print(json.load(open('$tmp/out'))['mce_memory'])")
# cpu_records: CPU $cpu's own records in show -j (0 without a line)
cpu_records() {
	"$HC" -j show >"$tmp/show" && python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
print(sum(c['mce_records'] for v in d['vertices'] for c in v['cpu_info'] if c['cpu'] == $cpu))
" "$tmp/show"
}
c0=$(cpu_records)

# memory-controller reads logged by the CPU: not its fault
inject 4 0x9c0000000000009f
for ((i = 0; i < 50; i++)); do
	"$HC" -j stats >"$tmp/out"
	py "assert d['mce_records'] - $r0 == 4" && break
	sleep 0.2
done
# a CONFIG_SET first applies the marks machine checks asked for (none here)
"$HC" config set mce_ce_threshold 3 >/dev/null
"$HC" -j stats >"$tmp/out"
if py "assert d['mce_memory'] - $m0 == 4 and d['mce_marks'] == 0, d" &&
	[ "$(cpu_records)" = "$c0" ] && ! faulty_within 0; then
	ok "four memory-controller records: counted in mce_memory, none against CPU $cpu"
else
	not_ok "memory-controller records: $(cat "$tmp/out")"
fi
"$HC" stats >"$tmp/out"
if grep -q "^mce_memory  *$((m0 + 4))$" "$tmp/out" && grep -q "^mce_firmware  *[0-9][0-9]*$" "$tmp/out"; then
	ok "stats: the mce_memory line"
else
	not_ok "stats: no 'mce_memory $((m0 + 4))' line"
fi
"$HC" -j stats >"$tmp/out"
r0=$(python3 -c "import json; print(json.load(open('$tmp/out'))['mce_records'])")

inject 2
sleep 1
if ! faulty_within 1; then ok "two records: CPU $cpu not marked"; else not_ok "two records marked CPU $cpu"; fi
inject 1
if faulty_within 10; then
	ok "the third record marks CPU $cpu (show -j: marked_by mce)"
else
	not_ok "CPU $cpu not marked by the third record"
fi
"$HC" -j show >"$tmp/out"
if py "
c = [c for v in d['vertices'] for c in v['cpu_info'] if c['cpu'] == $cpu][0]
assert (c['mce_count'], c['mce_window'], c['mce_bank'], c['mce_status']) == \
       (3, 60, 1, '0x9c00000000000151'), c"; then
	ok "show -j: count 3, window 60, bank 1, status"
else
	not_ok "show -j: cpu_info of CPU $cpu"
fi
"$HC" show >"$tmp/out"
if grep -q "cpu $cpu (vertex [01]*): marked by mce: 3 corrected errors in 60 s, last bank 1 status 0x9c00000000000151" "$tmp/out"; then
	ok "show: the CPU's line names the machine check"
else
	not_ok "show: no line for CPU $cpu"
fi
"$HC" top -n 1 >"$tmp/out"
if grep -q "mce cpus $cpu\b" "$tmp/out"; then
	ok "top: the vertex's notes name the CPU a machine check marked"
else
	not_ok "top: no 'mce cpus $cpu' in the notes"
fi
"$HC" -j stats >"$tmp/out"
if py "assert d['mce_records'] - $r0 == 3 and d['mce_marks'] >= 1, d"; then
	ok "stats -j: 3 records more, a mark"
else
	not_ok "stats -j: mce counters"
fi
# apply again: the file lists no fault, and a machine check's mark stays
"$HC" apply "$tmp/hcube.conf" >"$tmp/out" 2>&1
if faulty_within 1; then
	ok "apply again leaves the machine check's mark"
else
	not_ok "apply cleared the machine check's mark"
fi
if "$HC" fault del cpu $cpu && ! faulty_within 1; then
	ok "fault del cpu $cpu clears the mark"
else
	not_ok "fault del cpu $cpu"
fi
tap_end
