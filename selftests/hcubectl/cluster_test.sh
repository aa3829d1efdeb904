#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What the cluster sees, against the fake kernel (fakekernel.c): hcubectl
# health (its line, its exit status, its thresholds from the options and
# from hcube.conf), hcubectl metrics (the file read back by an independent
# reader of the Prometheus text format, selftests/lib/prom_check.py, its
# values against show -j and stats -j, its rewrite on events, hcube_up 0
# when the module goes) and show --dot (read back by Graphviz's dot, its
# nodes and edges against show -j and rebalance -j --dry-run). Prints TAP.
#
# Usage: cluster_test.sh HCUBECTL FAKEKERNEL_SO
set -u
BIN=${1:-build/hcubectl}
FAKE=$(readlink -f "${2:-build/hcubectl-test/fakekernel.so}")
HERE=$(cd "$(dirname "$0")" && pwd)
PROM="$HERE/../lib/prom_check.py"
# shellcheck source=../lib/tap.sh
. "$HERE/../lib/tap.sh"
tap_tmpdir

export ASAN_OPTIONS=${ASAN_OPTIONS:-verify_asan_link_order=0:exitcode=99:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:exitcode=98:print_stacktrace=1}
unset HCUBE_FAKE_DIM HCUBE_FAKE_LOADS HCUBE_FAKE_FAULTY HCUBE_FAKE_NOADMIN HCUBE_FAKE_ISOLATED \
      HCUBE_FAKE_UNLOAD HCUBE_FAKE_LOG HCUBE_FAKE_UNITS HCUBE_FAKE_GONE HCUBE_FAKE_CGROOT \
      HCUBE_FAKE_STATE HCUBE_FAKE_MCE

fake() {
	tap_run env LD_PRELOAD="$FAKE" timeout 60 "$BIN" "$@"
}

# check NAME STATUS STDOUT ARGS...: exit STATUS, stdout exactly STDOUT, no stderr
check() {
	local name=$1 want=$2 line=$3
	shift 3
	fake "$@"
	if [ "$rc" -eq "$want" ] && [ "$(cat "$tmp/out")" = "$line" ] && [ ! -s "$tmp/err" ]; then
		ok "$name"
	else
		not_ok "$name (rc $rc, want $want: $line)"
	fi
}

# usage NAME LINE ARGS...: exit 2, stderr's first line LINE
usage() {
	local name=$1 line=$2
	shift 2
	fake "$@"
	if [ "$rc" -eq 2 ] && [ "$(head -1 "$tmp/err")" = "$line" ]; then
		ok "$name"
	else
		not_ok "$name (rc $rc, want 2: $line)"
	fi
}

# py NAME CODE FILE...: the python code passes (argv: the files)
py() {
	local name=$1 code=$2
	shift 2
	if python3 -c "import json, sys
sys.path.insert(0, '$HERE/../lib')
import prom_check
$code" "$@" 2>"$tmp/py"; then
		ok "$name"
	else
		TAP_SHOW_TAIL="python:$tmp/py" not_ok "$name"
		sed 's/^/#   python: /' "$tmp/py" | tail -3
	fi
}

echo "TAP version 13"
tap_need_exec "$BIN"
tap_need_file "$FAKE" "$PROM"
: >"$tmp/empty.conf"

# ---- health: the paper's Example 2 (4-cube: 5 marked, 6 both CPUs faulty,
# 8 offline, 10 absent): 24 of 30 CPUs, 12 of 15 vertices ----
EX2="24 of 30 cpus healthy"
check "health: without thresholds every CPU counts: degraded, status 1" 1 \
	"degraded: $EX2 (minimum 30), 12 of 15 vertices healthy (minimum 15); unusable cpus 10-13 (admin), 16-17 (hotplug)" \
	health --config "$tmp/empty.conf"
check "health: thresholds met exactly: healthy, status 0" 0 \
	"healthy: $EX2 (minimum 24), 12 of 15 vertices healthy (minimum 12); unusable cpus 10-13 (admin), 16-17 (hotplug)" \
	health --config "$tmp/empty.conf" --min-healthy-cpus 24 --min-healthy-vertices 12
check "health: one CPU short: degraded" 1 \
	"degraded: $EX2 (minimum 25), 12 of 15 vertices healthy (minimum 12); unusable cpus 10-13 (admin), 16-17 (hotplug)" \
	health --config "$tmp/empty.conf" -c 25 -v 12
check "health: one vertex short: degraded" 1 \
	"degraded: $EX2 (minimum 0), 12 of 15 vertices healthy (minimum 13); unusable cpus 10-13 (admin), 16-17 (hotplug)" \
	health --config "$tmp/empty.conf" -c 0 -v 13
HCUBE_FAKE_MCE=3,4 check "health: CPUs of machine checks named mce" 1 \
	"degraded: 22 of 30 cpus healthy (minimum 24), 12 of 15 vertices healthy (minimum 0); unusable cpus 10-13 (admin), 3-4 (mce), 16-17 (hotplug)" \
	health --config "$tmp/empty.conf" -c 24 -v 0
HCUBE_FAKE_FAULTY= HCUBE_FAKE_DIM=3 check "health: a cube without faults: healthy" 0 \
	"healthy: 16 of 16 cpus healthy (minimum 16), 8 of 8 vertices healthy (minimum 8)" \
	health --config "$tmp/empty.conf"

printf '# thresholds\nmin_healthy_cpus 24\nmin_healthy_vertices 12\npolicy dem\n' >"$tmp/h.conf"
check "health: the thresholds of the configuration file" 0 \
	"healthy: $EX2 (minimum 24), 12 of 15 vertices healthy (minimum 12); unusable cpus 10-13 (admin), 16-17 (hotplug)" \
	health --config "$tmp/h.conf"
check "health: an option overrides the file's threshold" 1 \
	"degraded: $EX2 (minimum 26), 12 of 15 vertices healthy (minimum 12); unusable cpus 10-13 (admin), 16-17 (hotplug)" \
	health --config "$tmp/h.conf" --min-healthy-cpus 26
printf 'min_healthy_cpus 24\nmin_healthy_vertices many\n' >"$tmp/bad.conf"
usage "health: a bad threshold in the file: FILE:LINE, status 2" \
	"hcubectl: health: $tmp/bad.conf:2: min_healthy_vertices: wants one number (0 to 4294967295) (try 'hcubectl health --help')" \
	health --config "$tmp/bad.conf"
usage "health: a bad option: status 2" \
	"hcubectl: health: --min-healthy-cpus: 'x' is not a number (0 to 4294967295) (try 'hcubectl health --help')" \
	health --config "$tmp/empty.conf" --min-healthy-cpus x
fake health --config "$tmp/none.conf"
if [ "$rc" -eq 3 ] && grep -q "^hcubectl: health: $tmp/none.conf: No such file or directory$" "$tmp/err"; then
	ok "health: --config of a missing file: status 3"
else
	not_ok "health: --config of a missing file (rc $rc)"
fi
HCUBE_FAKE_MCE=3 fake -j health --config "$tmp/h.conf"
py "health -j: counts, thresholds, the unusable CPUs with vertex and marker" "
d = json.load(open(sys.argv[1]))
assert d['healthy'] is False and d['healthy_cpus'] == 23 and d['cpus'] == 30, d
assert d['min_healthy_cpus'] == 24 and d['min_healthy_vertices'] == 12
assert (d['healthy_vertices'], d['vertices']) == (12, 15)
u = {x['cpu']: (x['label'], x['marked_by'], x['vertex_marked']) for x in d['unusable']}
assert u == {3: ('0001', 'mce', False), 10: ('0101', 'admin', True), 11: ('0101', 'admin', True),
             12: ('0110', 'admin', False), 13: ('0110', 'admin', False),
             16: ('1000', 'hotplug', False), 17: ('1000', 'hotplug', False)}, u
" "$tmp/out"
if [ ! -e /sys/module/hcube ]; then
	tap_run timeout 60 "$BIN" health --config "$tmp/empty.conf"
	if [ "$rc" -eq 3 ] && [ "$(cat "$tmp/err")" = "hcubectl: health: the hcube module is not loaded" ]; then
		ok "health: without the module: status 3, not 1"
	else
		not_ok "health: without the module (rc $rc)"
	fi
else
	skip "health: without the module" "this host has the hcube module loaded"
fi
printf 'min_healthy_cpus 24\nmin_healthy_vertices 12\n' >"$tmp/apply.conf"
HCUBE_FAKE_STATE=$tmp/state fake apply "$tmp/apply.conf"
if [ "$rc" -eq 0 ]; then
	ok "apply: accepts health's thresholds (nothing to send)"
else
	not_ok "apply: health's thresholds (rc $rc)"
fi

# ---- metrics ----
mkdir -p "$tmp/prom"
fake -j show && cp "$tmp/out" "$tmp/show.json"
fake -j stats && cp "$tmp/out" "$tmp/stats.json"
HCUBE_FAKE_MCE=3 fake metrics --once --textfile "$tmp/prom"
if [ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ] && [ ! -s "$tmp/out" ]; then
	ok "metrics --once: status 0, nothing printed"
else
	not_ok "metrics --once (rc $rc)"
fi
py "metrics: the text format, read back strictly" "
prom_check.parse(open(sys.argv[1]).read())
" "$tmp/prom/hcube.prom"
if [ "$(find "$tmp/prom" -mindepth 1 | wc -l)" = 1 ]; then
	ok "metrics: hcube.prom alone in the directory (no temporary file left)"
else
	not_ok "metrics: files left: $(ls -A "$tmp/prom" | tr '\n' ' ')"
fi
# A reader sees the old file or the new one: each write is a new file
# renamed over the old (a new inode, while the old one is still open),
# never the old file truncated and written again.
exec 5<"$tmp/prom/hcube.prom"
ino=$(stat -c %i "$tmp/prom/hcube.prom")
HCUBE_FAKE_MCE=3 fake metrics --once --textfile "$tmp/prom"
if [ "$rc" -eq 0 ] && [ "$(stat -c %i "$tmp/prom/hcube.prom")" != "$ino" ] &&
   [ "$(cat <&5 | wc -c)" -gt 1000 ]; then
	ok "metrics: a rewrite is a new file renamed over the old; a reader of the old keeps it whole"
else
	not_ok "metrics: the rewrite reused the file (inode $ino)"
fi
exec 5<&-
if [ "$(stat -c %a "$tmp/prom/hcube.prom")" = 644 ]; then
	ok "metrics: the file is readable by node_exporter's user (0644)"
else
	not_ok "metrics: mode $(stat -c %a "$tmp/prom/hcube.prom")"
fi
py "metrics: cube, vertices and CPUs as show -j says, a machine check's mark" "
m = prom_check.parse(open(sys.argv[1]).read())
show = json.load(open(sys.argv[2]))
def g(name, **labels):
    return m[(name, tuple(sorted(labels.items())))]
assert g('hcube_up') == 1 and g('hcube_dimension') == 4 and g('hcube_generation') == 42
assert g('hcube_info', mode='llc') == 1 and g('hcube_tasks') == show['ntasks']
assert g('hcube_cpus') == 30 and g('hcube_healthy_cpus') == 23 and g('hcube_healthy_vertices') == 12
for v in show['vertices']:
    for st in ('healthy', 'faulty', 'offline', 'absent', 'isolated'):
        assert g('hcube_vertex_state', vertex=v['label'], state=st) == (v['state'] == st), (v, st)
    if v['state'] != 'absent':
        assert g('hcube_vertex_tasks', vertex=v['label']) == v['load']
        assert g('hcube_vertex_marked', vertex=v['label']) == v['marked']
assert g('hcube_vertex_cpus', vertex='0011') == 2 and g('hcube_vertex_usable_cpus', vertex='0110') == 0
assert ('hcube_vertex_cpus', (('vertex', '1010'),)) not in m      # absent: no CPUs
assert g('hcube_cpu_marked', cpu='3', vertex='0001', marked_by='mce') == 1
assert g('hcube_cpu_marked', cpu='3', vertex='0001', marked_by='admin') == 0
assert g('hcube_cpu_marked', cpu='12', vertex='0110', marked_by='admin') == 1
assert g('hcube_cpu_marked', cpu='16', vertex='1000', marked_by='hotplug') == 1
assert g('hcube_cpu_healthy', cpu='3', vertex='0001') == 0 and g('hcube_cpu_healthy', cpu='2', vertex='0001') == 1
assert g('hcube_cpu_healthy', cpu='10', vertex='0101') == 0      # its vertex is marked
assert g('hcube_cpu_machine_check_records_total', cpu='3', vertex='0001') == 3
" "$tmp/prom/hcube.prom" "$tmp/show.json"
py "metrics: every counter of stats -j as a _total counter, same value" "
m = prom_check.parse(open(sys.argv[1]).read())
st = json.load(open(sys.argv[2]))
names = {'rebalances': 'hcube_rebalances_total', 'auto_rebalances': 'hcube_auto_rebalances_total',
         'dry_runs': 'hcube_dry_runs_total', 'migrations': 'hcube_migrations_total',
         'moved': 'hcube_moved_tasks_total', 'failures': 'hcube_move_failures_total',
         'evacuations': 'hcube_evacuated_tasks_total', 'exited': 'hcube_exited_tasks_total',
         'changed': 'hcube_changed_tasks_total', 'registered': 'hcube_registered_tasks_total',
         'unregistered': 'hcube_unregistered_tasks_total', 'adopted': 'hcube_adopted_tasks_total',
         'refused': 'hcube_refused_tasks_total', 'released': 'hcube_released_tasks_total',
         'events_lost': 'hcube_events_lost_total', 'revoked': 'hcube_revoked_tasks_total',
         'mce_records': 'hcube_machine_check_records_total',
         'mce_marks': 'hcube_machine_check_marks_total',
         'mce_refused': 'hcube_machine_check_refused_marks_total'}
ign = {'mce_outside': 'outside', 'mce_offline': 'offline', 'mce_ignored': 'faulty',
       'mce_memory': 'memory', 'mce_bus': 'bus', 'mce_shared_cache': 'shared_cache',
       'mce_firmware': 'firmware', 'mce_other': 'other'}
left = set(st) - set(names) - set(ign) - {'tasks'}
assert not left, left
for k, n in names.items():
    assert m[(n, ())] == st[k], (k, n)
for k, r in ign.items():
    assert m[('hcube_machine_check_ignored_records_total', (('reason', r),))] == st[k], k
" "$tmp/prom/hcube.prom" "$tmp/stats.json"

# On events: the fake sends 9 at once when the group is joined.
rm -f "$tmp/prom/hcube.prom"
HCUBE_FAKE_LOG=$tmp/log fake metrics --textfile "$tmp/prom" --count 9
gets=$(grep -c '^cmd 1 ' "$tmp/log" 2>/dev/null)	# CUBE_GET: twice a read
if [ "$rc" -eq 0 ] && [ -s "$tmp/prom/hcube.prom" ] && [ "$gets" = 4 ]; then
	ok "metrics --count 9: read at start, once more for the burst of 9 events, status 0"
else
	not_ok "metrics --count 9 (rc $rc, $gets CUBE_GETs; want 4)"
	head -3 "$tmp/log" | sed 's/^/#   log: /'
fi
HCUBE_FAKE_UNLOAD=1 fake metrics --textfile "$tmp/prom"
if [ "$rc" -eq 0 ] && [ "$(grep -v '^#' "$tmp/prom/hcube.prom")" = "hcube_up 0" ] &&
   [ "$(cat "$tmp/err")" = "hcubectl: metrics: the hcube module was unloaded: $tmp/prom/hcube.prom says hcube_up 0" ]; then
	ok "metrics: the module unloaded: the file says hcube_up 0 alone, status 0"
else
	not_ok "metrics: the module unloaded (rc $rc)"
fi
py "metrics: hcube_up 0 is still the text format" "
assert prom_check.parse(open(sys.argv[1]).read()) == {('hcube_up', ()): 0}
" "$tmp/prom/hcube.prom"
fake metrics --once --textfile "$tmp/nodir"
if [ "$rc" -eq 1 ] && [ "$(cat "$tmp/err")" = "hcubectl: metrics: $tmp/nodir: No such file or directory" ]; then
	ok "metrics: a missing directory: status 1, one line"
else
	not_ok "metrics: a missing directory (rc $rc)"
fi
usage "metrics --count 0: usage" \
	"hcubectl: metrics: --count: '0' is not a positive integer (try 'hcubectl metrics --help')" \
	metrics --count 0 --textfile "$tmp/prom"

# ---- show --dot ----
fake -j rebalance --dry-run && cp "$tmp/out" "$tmp/plan.json"
HCUBE_FAKE_MCE=3 fake show --dot --plan
cp "$tmp/out" "$tmp/cube.dot"
if [ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ] && dot -Tsvg "$tmp/cube.dot" -o "$tmp/cube.svg" 2>"$tmp/dot.err" &&
   grep -q '<svg' "$tmp/cube.svg"; then
	ok "show --dot --plan: Graphviz's dot reads it and draws an SVG"
else
	TAP_SHOW="dot:$tmp/dot.err" not_ok "show --dot --plan (rc $rc)"
fi
py "show --dot: vertices, states, C_b, trees and the plan's transfers as show -j and rebalance -j say" "
import re
text = open(sys.argv[1]).read()
show = json.load(open(sys.argv[2]))
plan = json.load(open(sys.argv[3]))
nodes = dict(re.findall(r'^  v(\d+) \[label=\"([^\"]*)\"', text, re.M))
assert sorted(map(int, nodes)) == list(range(16)), nodes
for v in show['vertices']:
    lab = nodes[str(v['id'])]
    assert lab.startswith(v['label']), lab
    if v['state'] == 'absent':
        assert lab.endswith('absent')
        continue
    assert lab.split('\\\\n')[0] == v['label'] + ' ' + v['state'], lab
    assert 'cpus ' + v['cpus'] in lab and 'load %d' % v['load'] in lab, lab
    line = re.search(r'^  v%d \[.*$' % v['id'], text, re.M).group(0)
    assert ('penwidth=3' in line) == v['in_cb'], line
    assert ('marked faulty (admin)' in lab) == v['marked'], lab
assert 'mce cpus 3' in nodes['1'] and 'faulty cpus 12-13' in nodes['6']
assert 'fillcolor=\"#ffcdd2\"' in re.search(r'^  v5 \[.*$', text, re.M).group(0)
assert 'style=dashed' in re.search(r'^  v10 \[.*$', text, re.M).group(0)
cube = re.findall(r'^  v(\d+) -> v(\d+) \[dir=none', text, re.M)
assert len(cube) == 32 and all(bin(int(a) ^ int(b)).count('1') == 1 for a, b in cube)
tree = sorted((int(a), int(b)) for a, b in re.findall(r'^  v(\d+) -> v(\d+) \[color=\"#1565c0\"', text, re.M))
want = sorted((v['parent'], v['id']) for v in show['vertices'] if v['parent'] >= 0 and not v['in_cb'])
assert tree == want, (tree, want)
xf = [tuple(map(int, t)) for t in re.findall(r'^  v(\d+) -> v(\d+) \[color=\"#c62828\".*label=\"(\d+): (\d+)\"', text, re.M)]
assert xf == [(x['from'], x['to'], x['step'], x['count']) for x in plan['transfers']], xf
assert len(xf) > 0
" "$tmp/cube.dot" "$tmp/show.json" "$tmp/plan.json"
fake show --dot
if [ "$rc" -eq 0 ] && ! grep -q c62828 "$tmp/out" && grep -q '^digraph hcube {$' "$tmp/out"; then
	ok "show --dot without --plan: no transfer drawn"
else
	not_ok "show --dot without --plan (rc $rc)"
fi
usage "show --plan without --dot: usage" \
	"hcubectl: show: --plan draws on the picture: it needs --dot (try 'hcubectl show --help')" \
	show --plan
usage "show -j --dot: usage" \
	"hcubectl: show: --dot prints Graphviz, -j JSON: one or the other (try 'hcubectl show --help')" \
	-j show --dot

tap_end
